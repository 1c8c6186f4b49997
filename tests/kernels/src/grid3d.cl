// 3-D grid: each work-item records its global, local and group ids in all three dimensions.
#include "common.h"

__kernel void grid3d(__global uint *out, uint sx, uint sy)
{
	uint x = gid_x(), y = gid_y(), z = gid_z();
	uint lin = (z * sy + y) * sx + x;
	out[3 * lin] = x | (y << 10) | (z << 20);
	out[3 * lin + 1] = lid_x() | (lid_y() << 10) | (lid_z() << 20);
	out[3 * lin + 2] = grp_x() | (grp_y() << 10) | (grp_z() << 20);
}
