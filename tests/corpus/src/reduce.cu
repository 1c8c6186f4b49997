// Reductions: warp shuffles, shared memory trees, templates on block size.
#include "pa_cuda.h"

static __device__ __forceinline__ float warp_sum(float v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

static __device__ __forceinline__ int warp_max(int v)
{
	for (int off = 1; off < 32; off <<= 1) {
		int o = __shfl_xor_sync(0xffffffffu, v, off);
		v = o > v ? o : v;
	}
	return v;
}

template <int BLOCK>
__global__ void block_sum(const float *in, float *out, int n)
{
	__shared__ float partial[BLOCK / 32];
	float v = 0.0f;
	for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
		v += in[i];
	v = warp_sum(v);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? partial[lane] : 0.0f;
		v = warp_sum(v);
		if (lane == 0)
			atomicAdd(out, v);
	}
}

template __global__ void block_sum<128>(const float *, float *, int);
template __global__ void block_sum<256>(const float *, float *, int);
template __global__ void block_sum<1024>(const float *, float *, int);

__global__ void tree_sum_double(const double *in, double *out, int n)
{
	extern __shared__ double sdata[];
	unsigned tid = threadIdx.x;
	unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
	double s = 0.0;
	if (i < n)
		s = in[i];
	if (i + blockDim.x < n)
		s += in[i + blockDim.x];
	sdata[tid] = s;
	__syncthreads();
	for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
		if (tid < stride)
			sdata[tid] = s = s + sdata[tid + stride];
		__syncthreads();
	}
	if (tid < 32) {
		if (blockDim.x >= 64)
			s += sdata[tid + 32];
		for (int off = 16; off > 0; off >>= 1)
			s += __shfl_down_sync(0xffffffffu, s, off);
	}
	if (tid == 0)
		out[blockIdx.x] = s;
}

__global__ void argmax(const int *in, int n, int *best_val, int *best_idx)
{
	int v = -2147483647 - 1, idx = -1;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		if (in[i] > v) {
			v = in[i];
			idx = i;
		}
	}
	int m = warp_max(v);
	unsigned who = __ballot_sync(0xffffffffu, v == m);
	int leader = __ffs((int)who) - 1;
	int lidx = __shfl_sync(0xffffffffu, idx, leader);
	if ((threadIdx.x & 31) == 0) {
		int old = atomicMax(best_val, m);
		if (old < m)
			atomicExch(best_idx, lidx);
	}
}

__global__ void count_if_positive(const float *in, int n, unsigned *count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int pred = i < n && in[i] > 0.0f;
	int total = __syncthreads_count(pred);
	if (threadIdx.x == 0)
		atomicAdd(count, (unsigned)total);
}

__global__ void min_max_mean(const float *in, int n, float *res)
{
	__shared__ float smin[256], smax[256], ssum[256];
	int t = threadIdx.x;
	float lo = 3.0e38f, hi = -3.0e38f, sum = 0.0f;
	for (int i = t; i < n; i += blockDim.x) {
		float v = in[i];
		lo = fminf(lo, v);
		hi = fmaxf(hi, v);
		sum += v;
	}
	smin[t] = lo;
	smax[t] = hi;
	ssum[t] = sum;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (t < s) {
			smin[t] = fminf(smin[t], smin[t + s]);
			smax[t] = fmaxf(smax[t], smax[t + s]);
			ssum[t] += ssum[t + s];
		}
		__syncthreads();
	}
	if (t == 0) {
		res[0] = smin[0];
		res[1] = smax[0];
		res[2] = ssum[0] / (float)n;
	}
}
