// Tensor cores and asynchronous copies: a 16x16x16 half-precision WMMA tile GEMM with
// f32 accumulation, and a double-buffered shared-memory pipeline with cp.async (sm_80+).
#include "pa_cuda.h"
#if defined(PA_NVCC)
#include <mma.h>
#endif

/* One warp computes one 16x16 tile of C = A (row-major, MxK) * B (col-major, KxN). */
__global__ void wmma_gemm_f16_f32(const __half *a, const __half *b, float *c, int m, int n, int k)
{
	int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
	if (warp_m * 16 >= m || warp_n * 16 >= n)
		return;
#if defined(PA_NVCC)
	using namespace nvcuda;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	for (int kk = 0; kk < k; kk += 16) {
		wmma::load_matrix_sync(fa, a + warp_m * 16 * k + kk, k);
		wmma::load_matrix_sync(fb, b + warp_n * 16 * k + kk, k);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	wmma::store_matrix_sync(c + warp_m * 16 * n + warp_n * 16, acc, n, wmma::mem_row_major);
#else
	int fa[8], fb[8];
	float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	for (int kk = 0; kk < k; kk += 16) {
		__hmma_m16n16k16_ld_a(fa, (const int *)(a + warp_m * 16 * k + kk), k, 0);
		__hmma_m16n16k16_ld_b(fb, (const int *)(b + warp_n * 16 * k + kk), k, 1);
		__hmma_m16n16k16_mma_f32f32(acc, fa, fb, acc, 1, 0);
	}
	__hmma_m16n16k16_st_c_f32(c + warp_m * 16 * n + warp_n * 16, acc, n, 0);
#endif
}

static __device__ __forceinline__ void copy16_async(void *smem, const void *gmem)
{
#if __CUDA_ARCH__ >= 800
	unsigned s;
	asm volatile("{ .reg .u64 sa; cvta.to.shared.u64 sa, %1; cvt.u32.u64 %0, sa; }"
	             : "=r"(s)
	             : "l"(smem));
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
#else
	*(float4 *)smem = *(const float4 *)gmem;
#endif
}

static __device__ __forceinline__ void async_commit_wait_all(void)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;" ::: "memory");
	asm volatile("cp.async.wait_group 0;" ::: "memory");
#endif
}

/* Sums each 1024-float chunk of `in` through two shared buffers filled by cp.async. */
__global__ void pipelined_chunk_sum(const float *in, float *out, int chunks)
{
	__shared__ __attribute__((aligned(16))) float buf[2][1024];
	int t = threadIdx.x; /* 256 threads, 16 bytes each */
	float acc = 0.0f;
	if (chunks > 0)
		copy16_async(&buf[0][t * 4], in + t * 4);
	for (int ch = 0; ch < chunks; ++ch) {
		async_commit_wait_all();
		__syncthreads();
		if (ch + 1 < chunks)
			copy16_async(&buf[(ch + 1) & 1][t * 4], in + (long)(ch + 1) * 1024 + t * 4);
		const float *cur = buf[ch & 1];
		acc += cur[t * 4] + cur[t * 4 + 1] + cur[t * 4 + 2] + cur[t * 4 + 3];
		__syncthreads();
	}
	for (int o = 16; o > 0; o >>= 1)
		acc += __shfl_down_sync(0xffffffffu, acc, o);
	if ((t & 31) == 0)
		atomicAdd(out, acc);
}
