// Templates: type- and size-parameterised kernels, functors, compile-time unrolling.
#include "pa_cuda.h"

template <typename T>
struct Plus {
	__device__ T operator()(T a, T b) const { return a + b; }
	static __device__ T identity() { return T(0); }
};

template <typename T>
struct Max {
	__device__ T operator()(T a, T b) const { return a > b ? a : b; }
	static __device__ T identity() { return T(-1000000); }
};

template <typename T, typename Op, int ITEMS>
__global__ void reduce_items(const T *in, T *out, int n)
{
	Op op;
	T acc = Op::identity();
	int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
	for (int k = 0; k < ITEMS; ++k)
		if (base + k < n)
			acc = op(acc, in[base + k]);
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template __global__ void reduce_items<int, Plus<int>, 4>(const int *, int *, int);
template __global__ void reduce_items<float, Plus<float>, 8>(const float *, float *, int);
template __global__ void reduce_items<double, Max<double>, 4>(const double *, double *, int);
template __global__ void reduce_items<long long, Max<long long>, 2>(const long long *,
                                                                    long long *, int);

template <int R>
__global__ void stencil_1d(const float *in, float *out, int n)
{
	__shared__ float s[256 + 2 * R];
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	int l = threadIdx.x + R;
	s[l] = g < n ? in[g] : 0.0f;
	if (threadIdx.x < R) {
		s[l - R] = g >= R ? in[g - R] : 0.0f;
		s[l + blockDim.x] = g + (int)blockDim.x < n ? in[g + blockDim.x] : 0.0f;
	}
	__syncthreads();
	float acc = 0.0f;
#pragma unroll
	for (int o = -R; o <= R; ++o)
		acc += s[l + o] * (1.0f / (2 * R + 1));
	if (g < n)
		out[g] = acc;
}

template __global__ void stencil_1d<1>(const float *, float *, int);
template __global__ void stencil_1d<3>(const float *, float *, int);
template __global__ void stencil_1d<7>(const float *, float *, int);

template <int N>
struct Fact {
	static const long long value = N * Fact<N - 1>::value;
};
template <>
struct Fact<0> {
	static const long long value = 1;
};

template <typename T, int N>
__device__ __forceinline__ T taylor_exp(T x)
{
	T term = T(1), sum = T(1);
#pragma unroll
	for (int k = 1; k <= N; ++k) {
		term = term * x / T(k);
		sum += term;
	}
	return sum + x * T(1) / T(Fact<N + 1>::value);
}

template <typename T, int N>
__global__ void taylor(const T *in, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = taylor_exp<T, N>(in[i]);
}

template __global__ void taylor<float, 6>(const float *, float *, int);
template __global__ void taylor<double, 12>(const double *, double *, int);

template <typename T>
__device__ __forceinline__ void swap_if(T &a, T &b, bool up)
{
	if ((a > b) == up) {
		T t = a;
		a = b;
		b = t;
	}
}

template <typename T, int N>
__global__ void sort_network_regs(T *data)
{
	T v[N];
	T *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
	for (int i = 0; i < N; ++i)
		v[i] = p[i];
#pragma unroll
	for (int i = 0; i < N; ++i)
#pragma unroll
		for (int j = (i & 1); j + 1 < N; j += 2)
			swap_if(v[j], v[j + 1], true);
#pragma unroll
	for (int i = 0; i < N; ++i)
		p[i] = v[i];
}

template __global__ void sort_network_regs<int, 8>(int *);
template __global__ void sort_network_regs<float, 6>(float *);
template __global__ void sort_network_regs<unsigned short, 4>(unsigned short *);

template <typename Tin, typename Tout>
__global__ void convert_scale(const Tin *in, Tout *out, Tout scale, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (Tout)in[i] * scale;
}

template __global__ void convert_scale<unsigned char, float>(const unsigned char *, float *, float,
                                                             int);
template __global__ void convert_scale<short, double>(const short *, double *, double, int);
template __global__ void convert_scale<float, int>(const float *, int *, int, int);
