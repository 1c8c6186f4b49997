// Wavefront reductions and scans: butterfly sum through ds_bpermute, 16-lane inclusive scan
// through DPP row shifts, and the row totals read back with readlane.
#include "common.h"

__kernel void wave_reduce(__global const int *a, __global int *out)
{
	uint i = gid_x();
	uint lane = lane_id();
	int x = a[i];
	int sum = x;
	for (uint off = 1; off < (uint)__builtin_amdgcn_wavefrontsize(); off <<= 1)
		sum += __builtin_amdgcn_ds_bpermute((int)((lane ^ off) * 4), sum);
	int scan = x;
	scan += __builtin_amdgcn_update_dpp(0, scan, 0x111, 0xf, 0xf, true);
	scan += __builtin_amdgcn_update_dpp(0, scan, 0x112, 0xf, 0xf, true);
	scan += __builtin_amdgcn_update_dpp(0, scan, 0x114, 0xf, 0xf, true);
	scan += __builtin_amdgcn_update_dpp(0, scan, 0x118, 0xf, 0xf, true);
	out[3 * i] = sum;
	out[3 * i + 1] = scan;
	out[3 * i + 2] = __builtin_amdgcn_readlane(scan, 15) + __builtin_amdgcn_readlane(scan, 31);
}
