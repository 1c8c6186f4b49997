// Element-wise 32-bit integer arithmetic, shifts, logic, mul_hi, 24-bit multiply; 20 results each.
// Wrapping operations are done on unsigned values: signed overflow is undefined in OpenCL C.
#include "common.h"

__kernel void elem_i32(__global const int *a, __global const int *b, __global int *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	__global int *o = out + 20 * i;
	o[0] = (int)(ux + uy);
	o[1] = (int)(ux - uy);
	o[2] = (int)(ux * uy);
	o[3] = (int)(((long)x * (long)y) >> 32);
	o[4] = (int)(((ulong)ux * (ulong)uy) >> 32);
	o[5] = (int)(ux << (uy & 31));
	o[6] = x >> (y & 31);
	o[7] = (int)(ux >> (uy & 31));
	o[8] = x & y;
	o[9] = x | y;
	o[10] = x ^ y;
	o[11] = ~x;
	o[12] = x < 0 ? -x : x;
	o[13] = x < y ? x : y;
	o[14] = x > y ? x : y;
	o[15] = (int)(ux < uy ? ux : uy);
	o[16] = (int)(ux > uy ? ux : uy);
	o[17] = (int)((ux & 0xffffff) * (uy & 0xffffff));
	o[18] = (x == y) + (x != 0) * 2 + (ux >= uy) * 4 + (x <= y) * 8;
	o[19] = (int)(ux * 13u + (uint)(y >> 4) * 7u - 1000u);
}
