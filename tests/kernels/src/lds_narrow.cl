// Sub-dword and 64-bit LDS traffic: byte and short LDS arrays (ds_write_b8/b16, ds_read_u8/i8/
// u16/i16), 64-bit LDS atomics (add, max, compare-exchange) and a 64-bit LDS exchange.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void
lds_narrow(__global const int *a, __global int *out, __global long *out64)
{
	__local uchar b8[128];
	__local short s16[128];
	__local long acc[4];
	uint t = lid_x();
	int v = a[gid_x()];
	if (t < 4)
		acc[t] = t == 1 ? (long)0x8000000000000000UL : 0;
	b8[t] = (uchar)v;
	s16[t] = (short)(v >> 8);
	wg_barrier();
	uint o = 127 - t;
	int r = (int)b8[o] + (int)(char)b8[(t + 1) & 127] + s16[o] +
	        (int)(ushort)s16[(t + 5) & 127];
	__atomic_fetch_add(&acc[0], (long)v * 4099L, __ATOMIC_RELAXED);
	__atomic_fetch_max(&acc[1], (long)v * 65536L, __ATOMIC_RELAXED);
	long old = __atomic_load_n(&acc[2], __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&acc[2], &old, old + (long)(v & 0xff) + 0x100000000L, 0,
	                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	wg_barrier();
	out[gid_x()] = r;
	if (t < 3)
		out64[3 * grp_x() + t] = acc[t];
}
