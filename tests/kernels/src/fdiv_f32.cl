// Single-precision division and square root at OpenCL's default precision (2.5 / 3 ulp).
#include "common.h"

__kernel void fdiv_f32(__global const float *a, __global const float *b, __global float *out,
                       uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	out[3 * i] = a[i] / b[i];
	out[3 * i + 1] = __builtin_sqrtf(a[i]);
	out[3 * i + 2] = 1.0f / b[i];
}
