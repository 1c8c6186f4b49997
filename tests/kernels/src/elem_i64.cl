// Element-wise 64-bit integer arithmetic: add/sub/mul, variable shifts, logic, mul_hi; 16 each.
#include "common.h"

static ulong umulhi64(ulong x, ulong y)
{
	ulong xl = x & 0xffffffffUL, xh = x >> 32, yl = y & 0xffffffffUL, yh = y >> 32;
	ulong ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
	ulong mid = (ll >> 32) + (lh & 0xffffffffUL) + (hl & 0xffffffffUL);
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

__kernel void elem_i64(__global const long *a, __global const long *b, __global long *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	long x = a[i], y = b[i];
	ulong ux = (ulong)x, uy = (ulong)y;
	__global long *o = out + 16 * i;
	o[0] = (long)(ux + uy);
	o[1] = (long)(ux - uy);
	o[2] = (long)(ux * uy);
	o[3] = (long)umulhi64(ux, uy);
	o[4] = (long)(umulhi64(ux, uy) - (x < 0 ? uy : 0) - (y < 0 ? ux : 0)); /* signed mul_hi */
	o[5] = (long)(ux << (uy & 63));
	o[6] = x >> (y & 63);
	o[7] = (long)(ux >> (uy & 63));
	o[8] = x & y;
	o[9] = x | y;
	o[10] = x ^ ~y;
	o[11] = x < y ? x : y;
	o[12] = (long)(ux > uy ? ux : uy);
	o[13] = (long)((ulong)(uint)x * (ulong)(uint)y);
	o[14] = (long)(ux * 1000003UL + (ulong)(y >> 17));
	o[15] = (x == y) + (x < y) * 2 + (ux < uy) * 4;
}
