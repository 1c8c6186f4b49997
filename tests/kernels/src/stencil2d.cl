// 5-point stencil on a W x H grid with clamped borders, 2-D grid of 16x8 work-groups.
#include "common.h"

__kernel void stencil2d(__global const float *in, __global float *out, uint W, uint H)
{
	uint x = gid_x(), y = gid_y();
	if (x >= W || y >= H)
		return;
	uint xl = x > 0 ? x - 1 : 0, xr = x + 1 < W ? x + 1 : W - 1;
	uint yu = y > 0 ? y - 1 : 0, yd = y + 1 < H ? y + 1 : H - 1;
	float c = in[y * W + x];
	float s = in[y * W + xl] + in[y * W + xr] + in[yu * W + x] + in[yd * W + x];
	out[y * W + x] = c * 0.5f + s * 0.125f;
}
