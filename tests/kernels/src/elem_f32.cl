// Element-wise single-precision arithmetic and rounding; 12 results per element.
#include "common.h"

__kernel void elem_f32(__global const float *a, __global const float *b, __global const float *c,
                       __global float *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	float x = a[i], y = b[i], z = c[i];
	__global float *o = out + 12 * i;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = __builtin_fmaf(x, y, z);
	o[4] = __builtin_fminf(x, y);
	o[5] = __builtin_fmaxf(x, y);
	o[6] = -__builtin_fabsf(x);
	o[7] = __builtin_floorf(x);
	o[8] = __builtin_ceilf(x);
	o[9] = __builtin_truncf(x);
	o[10] = __builtin_rintf(x);
	o[11] = __builtin_copysignf(y, x);
}
