// 64-bit signed/unsigned division and remainder by variables and by constants; 6 results each.
#include "common.h"

__kernel void div_i64(__global const long *a, __global const long *b, __global long *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	long x = a[i], y = b[i];
	ulong ux = (ulong)x, uy = (ulong)y;
	__global long *o = out + 6 * i;
	o[0] = x / y;
	o[1] = x % y;
	o[2] = (long)(ux / uy);
	o[3] = (long)(ux % uy);
	o[4] = x / 10;
	o[5] = (long)(ux % 1000000007UL);
}
