// Work-group sum and max reductions through LDS with barriers (block of 256 work-items).
#include "common.h"

__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void reduce_lds(__global const int *a,
                                                                          __global int *out, uint n)
{
	__local int sum[256];
	__local int mx[256];
	uint t = lid_x();
	uint i = gid_x();
	int v = i < n ? a[i] : 0;
	sum[t] = v;
	mx[t] = i < n ? v : (int)0x80000000;
	wg_barrier();
	for (uint s = 128; s > 0; s >>= 1) {
		if (t < s) {
			sum[t] += sum[t + s];
			mx[t] = mx[t] > mx[t + s] ? mx[t] : mx[t + s];
		}
		wg_barrier();
	}
	if (t == 0) {
		out[2 * grp_x()] = sum[0];
		out[2 * grp_x() + 1] = mx[0];
	}
}
