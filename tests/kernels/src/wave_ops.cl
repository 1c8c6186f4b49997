// Cross-lane operations: readfirstlane/readlane, ds_bpermute, ds_swizzle (bit-mask and quad
// modes), DPP moves (row shifts, rotates, mirrors, quad permutes, row masks), ballot, mbcnt.
// 18 results per work-item; the expected values depend on the wavefront size.
#include "common.h"

__kernel void wave_ops(__global const int *a, __global int *out)
{
	uint i = gid_x();
	uint lane = lane_id();
	int x = a[i];
	__global int *o = out + 18 * i;
	o[0] = __builtin_amdgcn_readfirstlane(x);
	o[1] = __builtin_amdgcn_readlane(x, 5);
	o[2] = __builtin_amdgcn_ds_bpermute((int)((lane + 5) * 4), x);
	o[3] = __builtin_amdgcn_ds_swizzle(x, 0x041f);
	o[4] = __builtin_amdgcn_ds_swizzle(x, 0x801b);
	o[5] = __builtin_amdgcn_update_dpp(-7, x, 0x111, 0xf, 0xf, false);
	o[6] = __builtin_amdgcn_update_dpp(0, x, 0x103, 0xf, 0xf, true);
	o[7] = __builtin_amdgcn_update_dpp(-7, x, 0xb1, 0xf, 0xf, false);
	o[8] = __builtin_amdgcn_update_dpp(-7, x, 0x124, 0xf, 0xf, false);
	o[9] = __builtin_amdgcn_update_dpp(-7, x, 0x140, 0xf, 0xf, false);
	o[10] = __builtin_amdgcn_update_dpp(-7, x, 0x141, 0xf, 0xf, false);
	o[11] = __builtin_amdgcn_update_dpp(-9, x, 0x111, 0x5, 0xf, false);
#if __AMDGCN_WAVEFRONT_SIZE == 64
	ulong b = __builtin_amdgcn_ballot_w64(x > 0);
#else
	ulong b = __builtin_amdgcn_ballot_w32(x > 0);
#endif
	o[12] = (int)(uint)b;
	o[13] = (int)(uint)(b >> 32);
	o[14] = __builtin_amdgcn_wavefrontsize();
	o[15] = (int)lane;
	int r;
	if (lane & 2)
		r = __builtin_amdgcn_readfirstlane(x);
	else
		r = __builtin_amdgcn_readfirstlane(x * 2);
	o[16] = r;
	o[17] = __builtin_amdgcn_mov_dpp(x, 0x11f, 0xf, 0xf, true); /* row_shr:15, zero fill */
}
