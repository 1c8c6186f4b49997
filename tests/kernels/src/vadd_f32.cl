// c[i] = a[i] + b[i] with a bounds guard (n is not a multiple of the block size).
#include "common.h"

__kernel void vadd_f32(__global const float *a, __global const float *b, __global float *c, uint n)
{
	uint i = gid_x();
	if (i < n)
		c[i] = a[i] + b[i];
}
