// Global-memory atomics: add, sub, min, max (signed/unsigned), and, or, xor, exchange,
// compare-exchange loops, 64-bit add and float add. cnt[] must start zeroed except as noted.
#include "common.h"

__kernel void atomics_global(__global const int *a, __global int *cnt, __global long *cnt64,
                             __global float *fsum, __global int *xchg_old, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	int v = a[i];
	__atomic_fetch_add(&cnt[0], v, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&cnt[1], v & 0xff, __ATOMIC_RELAXED);
	__atomic_fetch_min(&cnt[2], v, __ATOMIC_RELAXED);
	__atomic_fetch_max(&cnt[3], v, __ATOMIC_RELAXED);
	__atomic_fetch_min((__global uint *)&cnt[4], (uint)v, __ATOMIC_RELAXED);
	__atomic_fetch_max((__global uint *)&cnt[5], (uint)v, __ATOMIC_RELAXED);
	__atomic_fetch_and(&cnt[6], ~(1 << (i & 31)), __ATOMIC_RELAXED);
	__atomic_fetch_or(&cnt[7], 1 << (v & 31), __ATOMIC_RELAXED);
	__atomic_fetch_xor(&cnt[8], v, __ATOMIC_RELAXED);
	/* Increment through a compare-exchange retry loop. */
	int old = __atomic_load_n(&cnt[9], __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&cnt[9], &old, old + 3, 0, __ATOMIC_RELAXED,
	                                    __ATOMIC_RELAXED))
		;
	/* Per-slot counter with data-dependent (non-uniform) addresses. */
	__atomic_fetch_add(&cnt[16 + (v & 15)], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&cnt64[0], (long)v * 100000L, __ATOMIC_RELAXED);
	__atomic_fetch_max(&cnt64[1], (long)v * 1048576L, __ATOMIC_RELAXED);
	__scoped_atomic_fetch_add(&fsum[0], (float)(v & 63), __ATOMIC_RELAXED,
	                          __MEMORY_SCOPE_DEVICE);
	__scoped_atomic_fetch_add(&fsum[1 + (i & 3)], 0.5f, __ATOMIC_RELAXED,
	                          __MEMORY_SCOPE_DEVICE);
	xchg_old[i] = __atomic_exchange_n(&cnt[10], (int)i + 1, __ATOMIC_RELAXED);
}
