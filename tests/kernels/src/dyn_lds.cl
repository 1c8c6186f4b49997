// Dynamically sized LDS: a __local pointer argument (value_kind dynamic_shared_pointer) placed
// after the kernel's static LDS, used for a work-group reversal next to a static LDS array.
#include "common.h"

__kernel void dyn_lds(__global const int *a, __global int *out, __local int *dyn, uint n)
{
	__local int stat[64];
	uint t = lid_x();
	uint b = bsize_x();
	uint i = gid_x();
	if (t < 64)
		stat[t] = (int)t * 3;
	dyn[t] = i < n ? a[i] : -1;
	wg_barrier();
	if (i < n)
		out[i] = dyn[b - 1 - t] + stat[t & 63];
}
