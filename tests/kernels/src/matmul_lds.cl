// Tiled matrix multiply C = A * B (row-major, N x N, N a multiple of 16) with 16x16 LDS tiles
// on a 2-D grid of 16x16 work-groups.
#include "common.h"

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void
matmul_lds(__global const float *A, __global const float *B, __global float *C, uint N)
{
	__local float ta[TILE][TILE];
	__local float tb[TILE][TILE];
	uint tx = lid_x(), ty = lid_y();
	uint col = gid_x(), row = gid_y();
	float acc = 0.0f;
	for (uint k0 = 0; k0 < N; k0 += TILE) {
		ta[ty][tx] = A[row * N + k0 + tx];
		tb[ty][tx] = B[(k0 + ty) * N + col];
		wg_barrier();
		for (uint k = 0; k < TILE; k++)
			acc += ta[ty][k] * tb[k][tx];
		wg_barrier();
	}
	C[row * N + col] = acc;
}
