// Cooperative patterns: cooperative groups (nvcc), warp-synchronous primitives
// (ballot, any/all, match, syncwarp, activemask), tile partitions, grid barriers.
#include "pa_cuda.h"
#if defined(PA_NVCC)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#endif

__global__ void tile_reduce(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? in[i] : 0;
#if defined(PA_NVCC)
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
	int s = cg::reduce(tile, v, cg::plus<int>());
	if (tile.thread_rank() == 0)
		atomicAdd(out, s);
	block.sync();
#else
	int s = v;
	for (int o = 8; o > 0; o >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, o, 16);
	if ((threadIdx.x & 15) == 0)
		atomicAdd(out, s);
	__syncthreads();
#endif
}

__global__ void tile_shuffle_sizes(const float *in, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = in[i];
#if defined(PA_NVCC)
	cg::thread_block block = cg::this_thread_block();
	auto t4 = cg::tiled_partition<4>(block);
	auto t8 = cg::tiled_partition<8>(block);
	auto t32 = cg::tiled_partition<32>(block);
	v += t4.shfl_down(v, 1) + t8.shfl_xor(v, 4) + t32.shfl(v, 0);
	if (t32.any(v > 0.0f))
		v *= 2.0f;
	if (t8.all(v > 0.0f))
		v -= 1.0f;
#else
	v += __shfl_down_sync(0xffffffffu, v, 1, 4) + __shfl_xor_sync(0xffffffffu, v, 4, 8) +
	     __shfl_sync(0xffffffffu, v, 0);
	if (__any_sync(0xffffffffu, v > 0.0f))
		v *= 2.0f;
	if (__all_sync(0xffffffffu, v > 0.0f))
		v -= 1.0f;
#endif
	out[i] = v;
}

__global__ void divergent_warp_sync(const int *keys, int *leaders, unsigned *masks, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned active = __activemask();
	int k = keys[i];
	if (k & 1) {
		unsigned odd = __ballot_sync(active, 1);
		__syncwarp(odd);
		masks[i] = odd;
	} else {
		unsigned even = __ballot_sync(active, 1);
		__syncwarp(even);
		masks[i] = ~even;
	}
#if defined(PA_NVCC)
	unsigned same = __match_any_sync(active, k);
#else
	unsigned same;
	asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(same) : "r"(k), "r"(active));
#endif
	leaders[i] = __ffs((int)same) - 1;
}

__global__ void warp_reduce_intrinsics(const unsigned *in, unsigned *out)
{
	unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
	unsigned r;
#if __CUDA_ARCH__ >= 800
#if defined(PA_NVCC)
	r = __reduce_add_sync(0xffffffffu, v) ^ __reduce_max_sync(0xffffffffu, v);
#else
	unsigned a, m;
	asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(a) : "r"(v));
	asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(v));
	r = a ^ m;
#endif
#else
	r = v;
	for (int o = 16; o > 0; o >>= 1)
		r += __shfl_xor_sync(0xffffffffu, r, o);
#endif
	if ((threadIdx.x & 31) == 0)
		out[blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = r;
}

/* A grid-wide barrier built from a global counter (valid when all blocks are resident). */
__global__ void grid_barrier_two_phase(float *data, unsigned *arrive, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		data[i] *= 2.0f;
	__syncthreads();
	if (threadIdx.x == 0) {
		__threadfence();
		unsigned target = gridDim.x;
		atomicAdd(arrive, 1u);
		while (*(volatile unsigned *)arrive < target)
			;
	}
	__syncthreads();
	if (i < n)
		data[i] += data[(i + blockDim.x) % n];
}

__global__ void block_vote(const float *x, int *result, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int has_nan = i < n && x[i] != x[i];
	if (__syncthreads_or(has_nan) && threadIdx.x == 0)
		result[blockIdx.x] = 1;
#if defined(PA_NVCC)
	int cnt = __syncthreads_and(i < n);
	if (threadIdx.x == 0)
		result[gridDim.x + blockIdx.x] = cnt;
#endif
}
