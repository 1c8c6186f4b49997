// Half-precision arithmetic, scalar and packed (half2): add, mul, fma, min/max, conversions.
#include "common.h"

__kernel void fp16_math(__global const half *a, __global const half *b, __global const half *c,
                        __global half *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	half x = a[i], y = b[i], z = c[i];
	__global half *o = out + 8 * i;
	o[0] = x + y;
	o[1] = x * y;
	o[2] = __builtin_fmaf16(x, y, z);
	o[3] = x - z;
	o[4] = __builtin_fminf16(x, y);
	o[5] = __builtin_fmaxf16(x, y);
	half2 p = (half2)(x, y), q = (half2)(z, x);
	half2 r = p * q + p;
	o[6] = r.x;
	o[7] = r.y;
}
