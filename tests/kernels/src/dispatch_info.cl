// Reads the HSA dispatch packet (dispatch_ptr) and the hidden kernel arguments (implicitarg_ptr):
// work-group and grid sizes, block counts, grid dimensions.
#include "common.h"

__kernel void dispatch_info(__global uint *out)
{
	__constant ushort *pk16 = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	__constant uint *pk32 = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
	__constant uint *hid = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
	__constant ushort *hid16 = (__constant ushort *)__builtin_amdgcn_implicitarg_ptr();
	uint i = (gid_z() * __builtin_amdgcn_grid_size_y() + gid_y()) *
	                 __builtin_amdgcn_grid_size_x() +
	         gid_x();
	__global uint *o = out + 12 * i;
	o[0] = pk16[1] & 3u; /* setup: number of dimensions */
	o[1] = pk16[2];      /* workgroup_size_x */
	o[2] = pk16[3];      /* workgroup_size_y */
	o[3] = pk16[4];      /* workgroup_size_z */
	o[4] = pk32[3];      /* grid_size_x (work-items) */
	o[5] = pk32[4];
	o[6] = pk32[5];
	o[7] = hid[0]; /* hidden_block_count_x */
	o[8] = hid[1];
	o[9] = hid[2];
	o[10] = hid16[6] | ((uint)hid16[7] << 16); /* hidden_group_size_x, _y */
	o[11] = hid16[32];                         /* hidden_grid_dims (offset 64) */
}
