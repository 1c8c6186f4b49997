// Block sum: a grid-stride loop, a warp-shuffle tree inside each 32-thread warp, the warp
// sums through shared memory, and one partial sum per block.
#include "bench_cuda.h"

BK_DEV float warp_sum(float v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

BK_KERNEL void __launch_bounds__(256) reduce_warp(const float *in, float *partial, int n)
{
	__shared__ float warp_sums[8];
	float v = 0.0f;
	for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * gridDim.x)
		v += in[i];
	v = warp_sum(v);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < 8 ? warp_sums[lane] : 0.0f;
		v = warp_sum(v);
		if (lane == 0)
			partial[blockIdx.x] = v;
	}
}
