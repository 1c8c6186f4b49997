// A module of many kernels, for the scaling run (issue 21): 128 x MANY_SCALE template
// instances of a small tiled kernel (the shape of a library's per-size instantiations).
#ifndef MANY_SCALE
#define MANY_SCALE 1
#endif

template <int K>
__global__ void __launch_bounds__(256) tile(const float *__restrict__ a, float *__restrict__ b,
                                            int n)
{
	__shared__ float t[256];
	int i = blockIdx.x * 256 + threadIdx.x;
	float acc = 0.f;
	for (int j = 0; j < n; j += 256) {
		t[threadIdx.x] = a[(i + j) % n] * (float)(K % 13 + 1);
		__syncthreads();
#pragma unroll
		for (int u = 0; u < (K % 4 + 1) * 4; u++)
			acc += t[(threadIdx.x + u * (K % 7 + 1)) & 255] * (float)(u + K);
		__syncthreads();
	}
	b[i] = acc + (float)K;
}

// Instances L .. L+N-1, split in halves so that the template depth stays logarithmic.
template <int L, int N> struct inst {
	static void go() { inst<L, N / 2>::go(); inst<L + N / 2, N - N / 2>::go(); }
};
template <int L> struct inst<L, 1> {
	static void go() { (void)&tile<L>; }
};
void instantiate_all() { inst<0, 128 * MANY_SCALE>::go(); }
