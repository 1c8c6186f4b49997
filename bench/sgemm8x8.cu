// Large-function shape for the parse benchmark (bench/parse.sh).  sgemm8x8.ptx was made
// once from this file with CUDA 13.0: nvcc -O3 -arch=sm_80 -ptx sgemm8x8.cu -o sgemm8x8.ptx
// (the benchmark itself does not need nvcc).
//
// Register-blocked SGEMM: each thread computes an 8x8 tile of C = alpha*A*B + beta*C.
// A block of 16x16 threads computes a 128x128 tile; K is walked in slices of 8 through
// shared memory.  Row-major A (M x K), B (K x N), C (M x N); M, N multiples of 128, K of 8.
#define TILE 128
#define KSLICE 8
#define PER_THREAD 8

extern "C" __global__ void __launch_bounds__(256)
sgemm_8x8(int M, int N, int K, float alpha, const float *__restrict__ A,
          const float *__restrict__ B, float beta, float *__restrict__ C)
{
	__shared__ float As[KSLICE][TILE];
	__shared__ float Bs[KSLICE][TILE];
	int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
	int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
	float acc[PER_THREAD][PER_THREAD];
#pragma unroll
	for (int i = 0; i < PER_THREAD; ++i)
#pragma unroll
		for (int j = 0; j < PER_THREAD; ++j)
			acc[i][j] = 0.0f;
	for (int k0 = 0; k0 < K; k0 += KSLICE) {
		// 256 threads load 128x8 of A (transposed into As) and 8x128 of B, 4 floats each.
		int a_row = threadIdx.x / 2, a_col = (threadIdx.x % 2) * 4;
		float4 av = *(const float4 *)&A[(size_t)(row0 + a_row) * K + k0 + a_col];
		As[a_col + 0][a_row] = av.x;
		As[a_col + 1][a_row] = av.y;
		As[a_col + 2][a_row] = av.z;
		As[a_col + 3][a_row] = av.w;
		int b_row = threadIdx.x / 32, b_col = (threadIdx.x % 32) * 4;
		*(float4 *)&Bs[b_row][b_col] =
		        *(const float4 *)&B[(size_t)(k0 + b_row) * N + col0 + b_col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < KSLICE; ++k) {
			float a[PER_THREAD], b[PER_THREAD];
#pragma unroll
			for (int i = 0; i < PER_THREAD; ++i)
				a[i] = As[k][ty * PER_THREAD + i];
#pragma unroll
			for (int j = 0; j < PER_THREAD; ++j)
				b[j] = Bs[k][tx * PER_THREAD + j];
#pragma unroll
			for (int i = 0; i < PER_THREAD; ++i)
#pragma unroll
				for (int j = 0; j < PER_THREAD; ++j)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < PER_THREAD; ++i) {
		float *c_row = &C[(size_t)(row0 + ty * PER_THREAD + i) * N + col0 + tx * PER_THREAD];
#pragma unroll
		for (int j = 0; j < PER_THREAD; ++j)
			c_row[j] = alpha * acc[i][j] + beta * c_row[j];
	}
}
