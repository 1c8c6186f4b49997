// IEEE special values: infinities, NaNs, signed zeros and subnormals through add, mul, fma,
// min/max, compares and classification (f32 and f64; denormals are not flushed by default).
#include "common.h"

__kernel void fp_special(__global const float *a, __global const float *b, __global float *of,
                         __global double *od, __global uint *oi, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	float x = a[i], y = b[i];
	double dx = (double)x * 0x1p-1000, dy = (double)y;
	__global float *f = of + 6 * i;
	f[0] = x + y;
	f[1] = x * y;
	f[2] = __builtin_fminf(x, y);
	f[3] = __builtin_fmaxf(x, y);
	f[4] = x * 0x1p-100f;
	f[5] = __builtin_fmaf(x, y, 0x1p-140f);
	__global double *d = od + 4 * i;
	d[0] = dx + dy * 0x1p-1030;
	d[1] = dx * dy;
	d[2] = __builtin_fmin(dx, dy);
	d[3] = __builtin_fma(dx, dy, -dx);
	oi[2 * i] = __builtin_isnan(x) | __builtin_isinf(x) << 1 | __builtin_isfinite(x) << 2 |
	            (x < y) << 3 | (x >= y) << 4 | (x != y) << 5 | __builtin_signbit(x) << 6 |
	            __builtin_isnormal(x) << 7 | (x == y) << 8 | __builtin_isunordered(x, y) << 9;
	oi[2 * i + 1] = __builtin_isnan(dx) | __builtin_isinf(dx) << 1 |
	                __builtin_isnormal(dx) << 2 | (dx <= dy) << 3 | __builtin_signbit(dx) << 4;
}
