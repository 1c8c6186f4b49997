// Work-groups of 100 work-items (not a multiple of the wavefront size), with a guarded tail and
// an LDS sum over the group.
#include "common.h"

__kernel void partial_wave(__global const int *a, __global int *out, __global int *gsum, uint n)
{
	__local int s[1];
	uint t = lid_x();
	uint i = gid_x();
	if (t == 0)
		s[0] = 0;
	wg_barrier();
	if (i < n) {
		out[i] = a[i] * 3 + (int)t;
		__atomic_fetch_add(&s[0], a[i], __ATOMIC_RELAXED);
	}
	wg_barrier();
	if (t == bsize_x() - 1)
		gsum[grp_x()] = s[0];
}
