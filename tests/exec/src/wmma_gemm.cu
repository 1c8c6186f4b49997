// A small tensor-core GEMM with CUDA's nvcuda::wmma API (tests/exec/cases/cases_mma.py):
// C[32x32] (f32, row-major) = A[32x64] (f16, row-major) x B[64x32] (f16, column-major).
// Four warps, one 16x16 tile of C each; a k-loop of 16-deep steps; each warp stages its A
// tile through shared memory and reads B straight from global memory.
// nvcc -arch=sm_80 -ptx wmma_gemm.cu -o ../ptx/wmma_gemm.ptx
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

enum { M = 32, N = 32, K = 64 };

extern "C" __global__ void wmma_gemm(const half *a, const half *b, float *c)
{
	__shared__ half sa[4][16 * 16];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int tm = warp / 2, tn = warp % 2;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	for (int k0 = 0; k0 < K; k0 += 16) {
		for (int i = lane; i < 256; i += 32)
			sa[warp][i] = a[(tm * 16 + i / 16) * K + k0 + i % 16];
		__syncwarp();
		wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
		wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
		wmma::load_matrix_sync(fa, sa[warp], 16);
		wmma::load_matrix_sync(fb, b + tn * 16 * K + k0, K);
		wmma::mma_sync(acc, fa, fb, acc);
		__syncwarp();
	}
	wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
