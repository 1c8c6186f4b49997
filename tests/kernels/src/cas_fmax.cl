// Float maximum and product-of-signs through 32-bit and 64-bit compare-and-swap loops in global
// memory, per bucket.
#include "common.h"

__kernel void cas_fmax(__global const float *a, __global float *mx, __global ulong *cnt, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	float v = a[i];
	__global uint *slot = (__global uint *)&mx[i & 7];
	uint old = __atomic_load_n(slot, __ATOMIC_RELAXED);
	while (as_float(old) < v) {
		if (__atomic_compare_exchange_n(slot, &old, as_uint(v), 0, __ATOMIC_RELAXED,
		                                __ATOMIC_RELAXED))
			break;
	}
	ulong o64 = __atomic_load_n(&cnt[i & 3], __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&cnt[i & 3], &o64, o64 + ((ulong)1 << 33) + 1, 0,
	                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}
