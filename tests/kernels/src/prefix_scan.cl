// Work-group inclusive prefix sum (Hillis-Steele, double-buffered in LDS), block of 128.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
prefix_scan(__global const int *a, __global int *out, uint n)
{
	__local int buf[2][128];
	uint t = lid_x();
	uint i = gid_x();
	int cur = 0;
	buf[0][t] = i < n ? a[i] : 0;
	wg_barrier();
	for (uint off = 1; off < 128; off <<= 1) {
		int v = buf[cur][t];
		if (t >= off)
			v += buf[cur][t - off];
		buf[cur ^ 1][t] = v;
		cur ^= 1;
		wg_barrier();
	}
	if (i < n)
		out[i] = buf[cur][t];
}
