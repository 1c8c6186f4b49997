// 32-bit signed/unsigned division and remainder by variables and by constants; 8 results each.
#include "common.h"

__kernel void div_i32(__global const int *a, __global const int *b, __global int *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	__global int *o = out + 8 * i;
	o[0] = x / y;
	o[1] = x % y;
	o[2] = (int)(ux / uy);
	o[3] = (int)(ux % uy);
	o[4] = x / 7;
	o[5] = x % -13;
	o[6] = (int)(ux / 1000u);
	o[7] = (int)(ux % 641u);
}
