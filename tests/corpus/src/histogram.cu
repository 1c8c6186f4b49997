// Atomics: histograms in shared and global memory, CAS loops, float/double atomics.
#include "pa_cuda.h"

__global__ void histogram256_shared(const unsigned char *data, int n, unsigned *hist)
{
	__shared__ unsigned local[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&local[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		if (local[b])
			atomicAdd(&hist[b], local[b]);
}

__global__ void histogram_float_bins(const float *x, int n, float lo, float hi, int nbins,
                                     int *hist)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float t = (x[i] - lo) / (hi - lo);
	int b = (int)floorf(t * (float)nbins);
	b = b < 0 ? 0 : (b >= nbins ? nbins - 1 : b);
	atomicAdd(&hist[b], 1);
}

static __device__ float atomic_max_float(float *addr, float v)
{
	int *ia = (int *)addr;
	int old = *ia, assumed;
	do {
		assumed = old;
		if (__int_as_float(assumed) >= v)
			break;
		old = atomicCAS(ia, assumed, __float_as_int(v));
	} while (assumed != old);
	return __int_as_float(old);
}

static __device__ double atomic_mul_double(double *addr, double v)
{
	unsigned long long *ua = (unsigned long long *)addr;
	unsigned long long old = *ua, assumed;
	do {
		assumed = old;
		old = atomicCAS(ua, assumed,
		                (unsigned long long)__double_as_longlong(
		                        __longlong_as_double((long long)assumed) * v));
	} while (assumed != old);
	return __longlong_as_double((long long)old);
}

__global__ void atomic_zoo(int *ints, unsigned *uints, float *floats, double *doubles,
                           unsigned long long *u64, const float *vals, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = vals[i];
	atomicAdd(&ints[0], 1);
	atomicSub(&ints[1], 2);
	atomicMin(&ints[2], (int)v);
	atomicMax(&ints[3], (int)v);
	atomicAnd(&ints[4], ~(1 << (i & 31)));
	atomicOr(&ints[5], 1 << (i & 31));
	atomicXor(&ints[6], i);
	int old = atomicExch(&ints[7], i);
	atomicInc(&uints[0], 63u);
	atomicDec(&uints[1], 63u);
	atomicMax(&uints[2], (unsigned)old);
	atomicAdd(&floats[0], v);
	atomic_max_float(&floats[1], v);
	atomicExch(&floats[2], v);
	atomicAdd(&doubles[0], (double)v);
	atomic_mul_double(&doubles[1], 1.0 + (double)v * 1e-9);
	atomicAdd(&u64[0], (unsigned long long)i * 0x100000001ull);
	atomicCAS(&u64[1], 0ull, (unsigned long long)i);
	atomicAdd_block(&ints[8], 1);
}

__global__ void ticket_lock_counter(int *lock, int *counter, int iterations)
{
	if ((threadIdx.x & 31) != 0)
		return;
	for (int it = 0; it < iterations; ++it) {
		while (atomicCAS(lock, 0, 1) != 0)
			;
		__threadfence();
		*(volatile int *)counter += 1;
		__threadfence();
		atomicExch(lock, 0);
	}
}

__global__ void stream_compact(const int *in, int n, int *out, unsigned *out_count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int keep = i < n && (in[i] & 1);
	unsigned mask = __ballot_sync(0xffffffffu, keep);
	int lane = threadIdx.x & 31;
	unsigned base = 0;
	if (lane == 0 && mask)
		base = atomicAdd(out_count, (unsigned)__popc(mask));
	base = (unsigned)__shfl_sync(0xffffffffu, (int)base, 0);
	if (keep)
		out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}
