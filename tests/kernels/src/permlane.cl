// v_permlane16_b32 / v_permlanex16_b32 (gfx10+) and v_permlane64_b32 (gfx11+ wave64): fixed
// and rotating lane selects, both op_sel bits (fi, bound_ctrl) with inactive source lanes.
// gfx9 (no permlane) computes the same values with ds_bpermute, so one reference serves all.
// 8 results per work-item.
#include "common.h"

#if defined(__gfx1030__) || defined(__gfx1100__) || defined(__gfx1200__)
#define HAS_PERMLANE16 1
#endif
#if (defined(__gfx1100__) || defined(__gfx1200__)) && __AMDGCN_WAVEFRONT_SIZE == 64
#define HAS_PERMLANE64 1
#endif

static inline int from_lane(int x, uint lane)
{
	return __builtin_amdgcn_ds_bpermute((int)(lane * 4), x);
}

__kernel void permlane(__global const int *a, __global int *out, uint s1, uint s2)
{
	uint i = gid_x();
	uint lane = lane_id();
	uint row = lane & ~15u, rl = lane & 15u;
	int x = a[i];
	__global int *o = out + 8 * i;
#ifdef HAS_PERMLANE16
	/* lane reads 15 - lane of its row */
	o[0] = __builtin_amdgcn_permlane16(x, x, 0x89abcdefu, 0x01234567u, false, false);
	/* the same lane of the other row of its pair */
	o[1] = __builtin_amdgcn_permlanex16(x, x, 0x76543210u, 0xfedcba98u, false, false);
	/* selects from kernel arguments (SGPRs): lane reads sel nibble of {s2, s1} */
	o[2] = __builtin_amdgcn_permlanex16(x, x, s1, s2, false, true);
	o[3] = __builtin_amdgcn_permlane16(x, x, s1, s2, true, false);
#else
	o[0] = from_lane(x, row + 15 - rl);
	o[1] = from_lane(x, (row ^ 16) + rl);
	o[2] = from_lane(x, (row ^ 16) + (uint)((((ulong)s2 << 32 | s1) >> (4 * rl)) & 15));
	o[3] = from_lane(x, row + (uint)((((ulong)s2 << 32 | s1) >> (4 * rl)) & 15));
#endif
	int odd_fi = from_lane(x, lane ^ 1);
	int r4 = -5, r5 = -6, r6 = -7;
	if (lane & 1) { /* the even lanes (the sources) are inactive */
#ifdef HAS_PERMLANE16
		r4 = __builtin_amdgcn_permlane16(-11, x, 0x67452301u, 0xefcdab89u, false, true);
		r5 = __builtin_amdgcn_permlane16(-12, x, 0x67452301u, 0xefcdab89u, false, false);
		r6 = __builtin_amdgcn_permlanex16(-13, x, 0x67452301u, 0xefcdab89u, true, false);
#else
		r4 = 0;
		r5 = -12;
		r6 = 0;
#endif
	}
#ifndef HAS_PERMLANE16
	if (lane & 1)
		r6 = from_lane(odd_fi, lane ^ 16);
#endif
	o[4] = r4;
	o[5] = r5;
	o[6] = r6;
#ifdef HAS_PERMLANE64
	o[7] = __builtin_amdgcn_permlane64(x);
#elif __AMDGCN_WAVEFRONT_SIZE == 64
	o[7] = from_lane(x, lane ^ 32);
#else
	o[7] = x;
#endif
}
