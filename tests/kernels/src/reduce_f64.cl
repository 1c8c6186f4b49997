// Work-group double-precision sum through LDS; inputs are small integers so the sum is exact.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
reduce_f64(__global const double *a, __global double *out, uint n)
{
	__local double buf[128];
	uint t = lid_x();
	uint i = gid_x();
	buf[t] = i < n ? a[i] : 0.0;
	wg_barrier();
	for (uint s = 64; s > 0; s >>= 1) {
		if (t < s)
			buf[t] += buf[t + s];
		wg_barrier();
	}
	if (t == 0)
		out[grp_x()] = buf[0];
}
