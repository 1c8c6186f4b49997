// Bitonic sort of 256 keys per work-group in LDS (barriers inside nested loops), block of 128.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void bitonic_sort(__global const int *a,
                                                                            __global int *out)
{
	__local int k[256];
	uint t = lid_x();
	uint base = grp_x() * 256;
	k[t] = a[base + t];
	k[t + 128] = a[base + t + 128];
	wg_barrier();
	for (uint size = 2; size <= 256; size <<= 1) {
		for (uint stride = size >> 1; stride > 0; stride >>= 1) {
			uint lo = 2 * t - (t & (stride - 1));
			uint hi = lo + stride;
			bool up = (lo & size) == 0;
			int x = k[lo], y = k[hi];
			if ((x > y) == up) {
				k[lo] = y;
				k[hi] = x;
			}
			wg_barrier();
		}
	}
	out[base + t] = k[t];
	out[base + t + 128] = k[t + 128];
}
