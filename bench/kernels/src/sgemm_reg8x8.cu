// Register-blocked SGEMM in the style of maxas: a 16x16 block computes a 128x128 tile of C,
// each thread an 8x8 sub-block held in 64 registers; A and B stream through shared memory in
// slices of 8 along K, each thread loading 4 elements of each.  C = A * B, row-major; M and N
// are multiples of 128, K a multiple of 8.
#include "bench_cuda.h"

#define BM 128
#define BK 8

BK_KERNEL void __launch_bounds__(256)
    sgemm_reg8x8(const float *a, const float *b, float *c, int m, int n, int k)
{
	__shared__ float as[BK][BM]; /* A slice, transposed: as[kk][row] */
	__shared__ float bs[BK][BM];
	int tid = threadIdx.y * 16 + threadIdx.x;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
	float acc[8][8];
#pragma unroll
	for (int i = 0; i < 8; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			acc[i][j] = 0.0f;
	for (int t = 0; t < k; t += BK) {
#pragma unroll
		for (int l = 0; l < 4; l++) {
			int e = tid + l * 256; /* 0..1023 = BM x BK */
			int ar = e >> 3, ak = e & 7;
			as[ak][ar] = a[(row0 + ar) * k + t + ak];
			int bk = e >> 7, bc = e & 127;
			bs[bk][bc] = b[(t + bk) * n + col0 + bc];
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float ra[8], rb[8];
#pragma unroll
			for (int i = 0; i < 8; i++) {
				ra[i] = as[kk][threadIdx.y * 8 + i];
				rb[i] = bs[kk][threadIdx.x * 8 + i];
			}
#pragma unroll
			for (int i = 0; i < 8; i++)
#pragma unroll
				for (int j = 0; j < 8; j++)
					acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < 8; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			c[(row0 + threadIdx.y * 8 + i) * n + col0 + threadIdx.x * 8 + j] = acc[i][j];
}
