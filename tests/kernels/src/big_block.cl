// Work-groups of 1024 work-items (16 wave64 or 32 wave32 waves) meeting at barriers: two LDS
// phases, each reading values other waves wrote.
#include "common.h"

__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) void big_block(__global const int *a,
                                                                          __global int *out)
{
	__local int buf[1024];
	uint t = lid_x();
	uint i = gid_x();
	buf[t] = a[i];
	wg_barrier();
	int s = 0;
	for (uint k = 0; k < 16; k++)
		s += buf[(t + k * 97) & 1023];
	wg_barrier();
	buf[1023 - t] = s;
	wg_barrier();
	out[i] = buf[t] - buf[(t + 512) & 1023];
}
