// 64-bin histogram: per-group counts with LDS atomics, merged into global bins with atomics.
#include "common.h"

__kernel void histogram(__global const uint *a, __global uint *bins, uint n)
{
	__local uint h[64];
	uint t = lid_x();
	for (uint k = t; k < 64; k += bsize_x())
		h[k] = 0;
	wg_barrier();
	for (uint i = gid_x(); i < n; i += grid_size_x())
		__atomic_fetch_add(&h[(a[i] * 2654435761u) >> 26], 1u, __ATOMIC_RELAXED);
	wg_barrier();
	for (uint k = t; k < 64; k += bsize_x())
		if (h[k])
			__atomic_fetch_add(&bins[k], h[k], __ATOMIC_RELAXED);
}
