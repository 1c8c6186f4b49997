// Dense matrix multiply: naive, shared-memory tiled, register-blocked, double.
#include "pa_cuda.h"

__global__ void sgemm_naive(int m, int n, int k, float alpha, const float *a, const float *b,
                            float beta, float *c)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int p = 0; p < k; ++p)
			acc += a[row * k + p] * b[p * n + col];
		c[row * n + col] = alpha * acc + beta * c[row * n + col];
	}
}

template <int TILE>
__global__ void sgemm_tiled(int m, int n, int k, const float *a, const float *b, float *c)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
		int ac = t * TILE + tx, br = t * TILE + ty;
		as[ty][tx] = row < m && ac < k ? a[row * k + ac] : 0.0f;
		bs[ty][tx] = br < k && col < n ? b[br * n + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int p = 0; p < TILE; ++p)
			acc = fmaf(as[ty][p], bs[p][tx], acc);
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

template __global__ void sgemm_tiled<8>(int, int, int, const float *, const float *, float *);
template __global__ void sgemm_tiled<16>(int, int, int, const float *, const float *, float *);
template __global__ void sgemm_tiled<32>(int, int, int, const float *, const float *, float *);

/* Each thread computes a 4x4 block of C from 64x64 tiles staged in shared memory. */
__global__ void __launch_bounds__(256) sgemm_reg4x4(int m, int n, int k, const float *a,
                                                    const float *b, float *c)
{
	__shared__ float as[16][64];
	__shared__ float bs[16][64];
	int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
	int row0 = blockIdx.y * 64 + ty * 4, col0 = blockIdx.x * 64 + tx * 4;
	float acc[4][4];
#pragma unroll
	for (int i = 0; i < 4; ++i)
#pragma unroll
		for (int j = 0; j < 4; ++j)
			acc[i][j] = 0.0f;
	for (int kt = 0; kt < k; kt += 16) {
		for (int l = threadIdx.x; l < 16 * 64; l += 256) {
			int kk = l >> 6, mm = l & 63;
			int ar = blockIdx.y * 64 + mm, ak = kt + kk;
			as[kk][mm] = ar < m && ak < k ? a[ar * k + ak] : 0.0f;
			int bc = blockIdx.x * 64 + mm;
			bs[kk][mm] = ak < k && bc < n ? b[ak * n + bc] : 0.0f;
		}
		__syncthreads();
#pragma unroll 4
		for (int kk = 0; kk < 16; ++kk) {
			float ra[4], rb[4];
#pragma unroll
			for (int i = 0; i < 4; ++i) {
				ra[i] = as[kk][ty * 4 + i];
				rb[i] = bs[kk][tx * 4 + i];
			}
#pragma unroll
			for (int i = 0; i < 4; ++i)
#pragma unroll
				for (int j = 0; j < 4; ++j)
					acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < 4; ++i)
#pragma unroll
		for (int j = 0; j < 4; ++j)
			if (row0 + i < m && col0 + j < n)
				c[(row0 + i) * n + col0 + j] = acc[i][j];
}

__global__ void dgemm_tiled16(int m, int n, int k, double alpha, const double *a, const double *b,
                              double beta, double *c)
{
	__shared__ double as[16][16];
	__shared__ double bs[16][16];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
	double acc = 0.0;
	for (int t = 0; t < k; t += 16) {
		as[ty][tx] = row < m && t + tx < k ? a[(long)row * k + t + tx] : 0.0;
		bs[ty][tx] = t + ty < k && col < n ? b[(long)(t + ty) * n + col] : 0.0;
		__syncthreads();
#pragma unroll
		for (int p = 0; p < 16; ++p)
			acc = fma(as[ty][p], bs[p][tx], acc);
		__syncthreads();
	}
	if (row < m && col < n)
		c[(long)row * n + col] = alpha * acc + beta * c[(long)row * n + col];
}

__global__ void matvec_warp(int rows, int cols, const float *a, const float *x, float *y)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	int lane = threadIdx.x & 31;
	if (warp >= rows)
		return;
	float s = 0.0f;
	for (int j = lane; j < cols; j += 32)
		s += a[(long)warp * cols + j] * x[j];
	for (int off = 16; off; off >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, off);
	if (lane == 0)
		y[warp] = s;
}

__global__ void transpose_shared(const float *in, float *out, int w, int h)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < w && y + j < h)
			tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < h && y + j < w)
			out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
