// 5-point 2D stencil over a w x h grid with a 16x16 shared-memory tile plus a one-cell halo;
// cells outside the grid read as the nearest edge cell (clamped).
#include "bench_cuda.h"

BK_DEV int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

BK_KERNEL void __launch_bounds__(256) stencil2d(const float *in, float *out, int w, int h)
{
	__shared__ float tile[18][18];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
	for (int i = ty * 16 + tx; i < 18 * 18; i += 256) {
		int gx = clampi(blockIdx.x * 16 + i % 18 - 1, 0, w - 1);
		int gy = clampi(blockIdx.y * 16 + i / 18 - 1, 0, h - 1);
		tile[i / 18][i % 18] = in[gy * w + gx];
	}
	__syncthreads();
	if (x < w && y < h) {
		float c = tile[ty + 1][tx + 1];
		float s = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
		out[y * w + x] = 0.5f * c + 0.125f * s;
	}
}
