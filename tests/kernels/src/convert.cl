// Conversions between every integer width and f16/f32/f64 (round to nearest, truncation to int).
#include "common.h"

__kernel void convert(__global const int *si, __global const long *sl, __global const float *sf,
                      __global const double *sd, __global float *of, __global double *od,
                      __global int *oi, __global long *ol, __global ushort *oh, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	int x = si[i];
	long y = sl[i];
	float f = sf[i];
	double d = sd[i];
	of[8 * i + 0] = (float)x;
	of[8 * i + 1] = (float)(uint)x;
	of[8 * i + 2] = (float)y;
	of[8 * i + 3] = (float)(ulong)y;
	of[8 * i + 4] = (float)d;
	of[8 * i + 5] = (float)(half)f;
	of[8 * i + 6] = (float)(uchar)x;
	of[8 * i + 7] = (float)(short)x;
	od[6 * i + 0] = (double)x;
	od[6 * i + 1] = (double)(uint)x;
	od[6 * i + 2] = (double)y;
	od[6 * i + 3] = (double)(ulong)y;
	od[6 * i + 4] = (double)f;
	od[6 * i + 5] = (double)(half)d;
	oi[4 * i + 0] = (int)f;
	oi[4 * i + 1] = (int)(uint)__builtin_fabsf(f);
	oi[4 * i + 2] = (int)(d * 0.001);
	oi[4 * i + 3] = (int)(uint)__builtin_fabs(d * 0.001);
	ol[4 * i + 0] = (long)f;
	ol[4 * i + 1] = (long)(ulong)__builtin_fabsf(f);
	ol[4 * i + 2] = (long)d;
	ol[4 * i + 3] = (long)(ulong)__builtin_fabs(d);
	half h = (half)f;
	oh[2 * i + 0] = as_ushort(h);
	oh[2 * i + 1] = as_ushort((half)(short)x);
}
