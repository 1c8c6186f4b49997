// 256-bin histogram of bytes: per-block bins in shared memory with shared atomics, then one
// global atomic add per non-empty bin.
#include "bench_cuda.h"

BK_KERNEL void __launch_bounds__(256) histogram(const unsigned *words, int nwords, unsigned *bins)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * 256 + threadIdx.x; i < nwords; i += 256 * gridDim.x) {
		unsigned w = words[i];
		atomicAdd(&local[w & 255], 1u);
		atomicAdd(&local[(w >> 8) & 255], 1u);
		atomicAdd(&local[(w >> 16) & 255], 1u);
		atomicAdd(&local[w >> 24], 1u);
	}
	__syncthreads();
	unsigned v = local[threadIdx.x];
	if (v)
		atomicAdd(&bins[threadIdx.x], v);
}
