// Many-kernel shape for the parse benchmark (bench/parse.sh): register-blocked SGEMM
// template instances as a real CUDA library instantiates them, fully unrolled by nvcc -O3.
// sgemm_many.ptx was made once from this file with CUDA 13.0:
//   nvcc -O3 -arch=sm_80 --ptx -DSGEMM_MANY_VARIANTS=1 sgemm_many.cu -o sgemm_many.ptx
// (75 kernels, 1.7 MB; the benchmark itself does not need nvcc).  The default, 6 variants,
// is 450 kernels and 10 MB: the module of issue 21's front-end figure.
//
// Each thread computes a TM x TN tile of C = alpha*A*B + beta*C (V: epilogue variant); a
// block of 16x16 threads walks K in slices of KS through shared memory.
#ifndef SGEMM_MANY_VARIANTS
#define SGEMM_MANY_VARIANTS 6
#endif
template <int TM, int TN, int KS, int V>
__global__ void __launch_bounds__(256) sgemm(int M, int N, int K, float alpha, const float *__restrict__ A,
                                             const float *__restrict__ B, float beta, float *__restrict__ C)
{
	__shared__ float As[KS][16 * TM];
	__shared__ float Bs[KS][16 * TN];
	int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
	int row0 = blockIdx.y * 16 * TM, col0 = blockIdx.x * 16 * TN;
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j)
			acc[i][j] = 0.0f;
	for (int k0 = 0; k0 < K; k0 += KS) {
		for (int t = threadIdx.x; t < KS * 16 * TM; t += 256)
			As[t % KS][t / KS] = A[(size_t)(row0 + t / KS) * K + k0 + t % KS];
		for (int t = threadIdx.x; t < KS * 16 * TN; t += 256)
			Bs[t / (16 * TN)][t % (16 * TN)] = B[(size_t)(k0 + t / (16 * TN)) * N + col0 + t % (16 * TN)];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < KS; ++k) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; ++i)
				a[i] = As[k][ty * TM + i];
#pragma unroll
			for (int j = 0; j < TN; ++j)
				b[j] = Bs[k][tx * TN + j];
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) {
			size_t at = (size_t)(row0 + ty * TM + i) * N + col0 + tx * TN + j;
			C[at] = V % 2 ? alpha * acc[i][j] + beta * C[at] : alpha * acc[i][j] + (float)V;
		}
}
template <int TM, int TN, int KS> struct inst3 {
	static void go(void **p)
	{
		p[0] = (void *)sgemm<TM, TN, KS, 0>;
#if SGEMM_MANY_VARIANTS > 1
		p[1] = (void *)sgemm<TM, TN, KS, 1>;
		p[2] = (void *)sgemm<TM, TN, KS, 2>;
		p[3] = (void *)sgemm<TM, TN, KS, 3>;
		p[4] = (void *)sgemm<TM, TN, KS, 4>;
		p[5] = (void *)sgemm<TM, TN, KS, 5>;
#endif
	}
};
template <int TM, int TN> struct inst2 {
	static void go(void **p)
	{
		inst3<TM, TN, 4>::go(p); inst3<TM, TN, 8>::go(p + 6); inst3<TM, TN, 12>::go(p + 12);
	}
};
template <int TM> struct inst1 {
	static void go(void **p)
	{
		inst2<TM, 2>::go(p); inst2<TM, 3>::go(p + 18); inst2<TM, 4>::go(p + 36);
		inst2<TM, 5>::go(p + 54); inst2<TM, 6>::go(p + 72);
	}
};
void all(void **p)
{
	inst1<2>::go(p); inst1<3>::go(p + 90); inst1<4>::go(p + 180); inst1<5>::go(p + 270);
	inst1<6>::go(p + 360);
}
