// Double-precision division and square root (IEEE correctly rounded in OpenCL).
#include "common.h"

__kernel void fdiv_f64(__global const double *a, __global const double *b, __global double *out,
                       uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	out[3 * i] = a[i] / b[i];
	out[3 * i + 1] = __builtin_sqrt(a[i]);
	out[3 * i + 2] = 1.0 / b[i];
}
