// Narrow and wide memory accesses: byte, short, char4, float4 and double2 loads and stores.
#include "common.h"

__kernel void vec_bytes(__global const uchar *b8, __global const short *s16,
                        __global const float4 *f4, __global const double2 *d2, __global uchar *ob8,
                        __global short *os16, __global float4 *of4, __global double2 *od2, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uchar4 c = ((__global const uchar4 *)b8)[i];
	ob8[i] = (uchar)(c.x + c.y * 3 + c.z * 5 + c.w * 7);
	ob8[n + i] = (uchar)((char)b8[i] >> 2);
	os16[i] = (short)(s16[i] * 3 - s16[n - 1 - i]);
	float4 v = f4[i];
	of4[i] = (float4)(v.w, v.z + v.x, v.y * 2.0f, v.x - v.w);
	double2 d = d2[i];
	od2[i] = (double2)(d.y * 0.5, d.x + d.y);
}
