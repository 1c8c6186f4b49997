// Private double array in scratch with a data-dependent walk (64-bit scratch loads/stores).
#include "common.h"

__kernel void scratch_f64(__global const uint *a, __global double *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	double buf[40];
	for (uint k = 0; k < 40; k++)
		buf[k] = (double)(a[i] % 1000) + 0.25 * (double)k;
	uint idx = a[i] % 40;
	double acc = 0.0;
	for (uint k = 0; k < 64; k++) {
		acc += buf[idx];
		buf[(idx + k) % 40] = acc * 0.5;
		idx = (idx * 5 + 3 + (a[i] >> 8)) % 40;
	}
	out[i] = acc;
}
