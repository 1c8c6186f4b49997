// C = A * B (row-major, M x K times K x N), 16x16 tiles of A and B in shared memory, one C
// element per thread.  M, N, K are multiples of 16.
#include "bench_cuda.h"

#define TILE 16

BK_KERNEL void __launch_bounds__(256)
    sgemm_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (int t = 0; t < k; t += TILE) {
		as[ty][tx] = a[row * k + t + tx];
		bs[ty][tx] = b[(t + ty) * n + col];
		__syncthreads();
#pragma unroll
		for (int i = 0; i < TILE; i++)
			acc += as[ty][i] * bs[i][tx];
		__syncthreads();
	}
	if (row < m)
		c[row * n + col] = acc;
}
