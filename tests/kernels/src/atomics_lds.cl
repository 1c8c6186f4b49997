// LDS atomics within each work-group (add, min, max, and, or, xor, exchange, compare-exchange,
// float add), then one work-item writes the group's results.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
atomics_lds(__global const int *a, __global int *out, __global float *fout)
{
	__local int s[9];
	__local float f[1];
	__local int cas[1];
	uint t = lid_x();
	int v = a[gid_x()];
	if (t == 0) {
		s[0] = 0;
		s[1] = 0x7fffffff;
		s[2] = (int)0x80000000;
		s[3] = -1;
		s[4] = 0;
		s[5] = 0;
		s[6] = -1;
		s[7] = 0;
		s[8] = 0;
		f[0] = 0.0f;
		cas[0] = 0;
	}
	wg_barrier();
	__atomic_fetch_add(&s[0], v, __ATOMIC_RELAXED);
	__atomic_fetch_min(&s[1], v, __ATOMIC_RELAXED);
	__atomic_fetch_max(&s[2], v, __ATOMIC_RELAXED);
	__atomic_fetch_and(&s[3], ~(1 << (v & 31)), __ATOMIC_RELAXED);
	__atomic_fetch_or(&s[4], 1 << (v & 31), __ATOMIC_RELAXED);
	__atomic_fetch_xor(&s[5], v, __ATOMIC_RELAXED);
	__atomic_fetch_max((__local uint *)&s[7], (uint)v, __ATOMIC_RELAXED);
	int prev = __atomic_exchange_n(&s[6], (int)t, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s[8], prev, __ATOMIC_RELAXED); /* sum of all old values */
	__atomic_fetch_add(&f[0], (float)(v & 7), __ATOMIC_RELAXED);
	int old = __atomic_load_n(&cas[0], __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&cas[0], &old, old + (v & 3) + 1, 0, __ATOMIC_RELAXED,
	                                    __ATOMIC_RELAXED))
		;
	wg_barrier();
	if (t == 0) {
		__global int *o = out + 9 * grp_x();
		for (int k = 0; k < 6; k++)
			o[k] = s[k];
		o[6] = s[7];
		/* Old values plus the final value are {-1, 0..127} in some order: the sum is fixed.
		 */
		o[7] = s[8] + s[6];
		o[8] = cas[0];
		fout[grp_x()] = f[0];
	}
}
