// Sorting and searching: bitonic sort in shared memory, a radix-sort pass with
// warp ballots, binary search, merge path, odd-even transposition over 64-bit keys.
#include "pa_cuda.h"

__global__ void bitonic_sort_shared(float *data)
{
	extern __shared__ float s[];
	unsigned t = threadIdx.x, n = blockDim.x;
	float *base = data + blockIdx.x * n;
	s[t] = base[t];
	__syncthreads();
	for (unsigned k = 2; k <= n; k <<= 1) {
		for (unsigned j = k >> 1; j > 0; j >>= 1) {
			unsigned p = t ^ j;
			if (p > t) {
				bool up = (t & k) == 0;
				float a = s[t], b = s[p];
				if ((a > b) == up) {
					s[t] = b;
					s[p] = a;
				}
			}
			__syncthreads();
		}
	}
	base[t] = s[t];
}

__global__ void radix_digit_counts(const unsigned *keys, int n, int shift, unsigned *counts)
{
	__shared__ unsigned local[16];
	if (threadIdx.x < 16)
		local[threadIdx.x] = 0;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned digit = i < n ? (keys[i] >> shift) & 15 : 16;
	for (unsigned d = 0; d < 16; ++d) {
		unsigned m = __ballot_sync(0xffffffffu, digit == d);
		if ((threadIdx.x & 31) == 0 && m)
			atomicAdd(&local[d], (unsigned)__popc(m));
	}
	__syncthreads();
	if (threadIdx.x < 16)
		counts[threadIdx.x * gridDim.x + blockIdx.x] = local[threadIdx.x];
}

static __device__ int lower_bound(const int *a, int n, int key)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

__global__ void batched_search(const int *sorted, int n, const int *queries, int *pos, int q)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < q)
		pos[i] = lower_bound(sorted, n, queries[i]);
}

__global__ void merge_path(const int *a, int na, const int *b, int nb, int *out, int per_thread)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int diag = t * per_thread;
	if (diag >= na + nb)
		return;
	int lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (a[mid] <= b[diag - mid - 1])
			lo = mid + 1;
		else
			hi = mid;
	}
	int ia = lo, ib = diag - lo;
	for (int k = 0; k < per_thread && diag + k < na + nb; ++k) {
		bool take_a = ib >= nb || (ia < na && a[ia] <= b[ib]);
		out[diag + k] = take_a ? a[ia++] : b[ib++];
	}
}

__global__ void odd_even_u64(unsigned long long *keys, int n, int phase)
{
	int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + (phase & 1);
	if (i + 1 < n) {
		unsigned long long a = keys[i], b = keys[i + 1];
		if (a > b) {
			keys[i] = b;
			keys[i + 1] = a;
		}
	}
}

__global__ void top2_per_warp(const float *x, float *best, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v1 = i < n ? x[i] : -3.4e38f, v2 = -3.4e38f;
	for (int o = 16; o > 0; o >>= 1) {
		float o1 = __shfl_xor_sync(0xffffffffu, v1, o);
		float o2 = __shfl_xor_sync(0xffffffffu, v2, o);
		float hi = fmaxf(v1, o1);
		float lo = fmaxf(fminf(v1, o1), fmaxf(v2, o2));
		v1 = hi;
		v2 = lo;
	}
	if ((threadIdx.x & 31) == 0) {
		best[2 * (i >> 5)] = v1;
		best[2 * (i >> 5) + 1] = v2;
	}
}
