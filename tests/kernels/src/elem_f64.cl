// Element-wise double-precision arithmetic, rounding, ldexp/frexp; 12 results per element.
#include "common.h"

__kernel void elem_f64(__global const double *a, __global const double *b, __global const double *c,
                       __global double *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	double x = a[i], y = b[i], z = c[i];
	__global double *o = out + 12 * i;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = __builtin_fma(x, y, z);
	o[4] = __builtin_fmin(x, y);
	o[5] = __builtin_fmax(x, y);
	o[6] = -__builtin_fabs(x);
	o[7] = __builtin_floor(x);
	o[8] = __builtin_ceil(x);
	o[9] = __builtin_trunc(x);
	int e;
	o[10] = __builtin_ldexp(x, (int)(i % 9) - 4);
	o[11] = __builtin_frexp(y, &e) + (double)e;
}
