// Prefix sums: warp scans with __shfl_up_sync, Blelloch work-efficient scan in
// dynamic shared memory, decoupled block carry through global atomics.
#include "pa_cuda.h"

static __device__ __forceinline__ int warp_inclusive_scan(int v)
{
	int lane = threadIdx.x & 31;
#pragma unroll
	for (int d = 1; d < 32; d <<= 1) {
		int t = __shfl_up_sync(0xffffffffu, v, d);
		if (lane >= d)
			v += t;
	}
	return v;
}

__global__ void block_inclusive_scan(const int *in, int *out, int *block_sums, int n)
{
	__shared__ int warp_totals[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? in[i] : 0;
	v = warp_inclusive_scan(v);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 31)
		warp_totals[warp] = v;
	__syncthreads();
	if (warp == 0) {
		int t = lane < (int)(blockDim.x >> 5) ? warp_totals[lane] : 0;
		warp_totals[lane] = warp_inclusive_scan(t);
	}
	__syncthreads();
	if (warp > 0)
		v += warp_totals[warp - 1];
	if (i < n)
		out[i] = v;
	if (threadIdx.x == blockDim.x - 1 && block_sums)
		block_sums[blockIdx.x] = v;
}

__global__ void add_block_offsets(int *data, const int *offsets, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (blockIdx.x > 0 && i < n)
		data[i] += offsets[blockIdx.x - 1];
}

/* Blelloch exclusive scan of 2*blockDim.x floats; shared size given at launch. */
__global__ void blelloch_exclusive_scan(const float *in, float *out, int n)
{
	extern __shared__ float temp[];
	int t = threadIdx.x;
	int base = blockIdx.x * blockDim.x * 2;
	int len = blockDim.x * 2;
	temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0.0f;
	temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0.0f;
	int offset = 1;
	for (int d = len >> 1; d > 0; d >>= 1) {
		__syncthreads();
		if (t < d) {
			int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
			temp[bi] += temp[ai];
		}
		offset <<= 1;
	}
	if (t == 0)
		temp[len - 1] = 0.0f;
	for (int d = 1; d < len; d <<= 1) {
		offset >>= 1;
		__syncthreads();
		if (t < d) {
			int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
			float x = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += x;
		}
	}
	__syncthreads();
	if (base + 2 * t < n)
		out[base + 2 * t] = temp[2 * t];
	if (base + 2 * t + 1 < n)
		out[base + 2 * t + 1] = temp[2 * t + 1];
}

/* Single-pass scan: blocks take a ticket and wait for their predecessor's carry. */
__global__ void chained_scan(const int *in, int *out, int n, unsigned *ticket,
                             volatile int *carries, volatile int *flags)
{
	__shared__ unsigned block_id;
	__shared__ int warp_totals[32];
	__shared__ int carry_in;
	if (threadIdx.x == 0)
		block_id = atomicAdd(ticket, 1u);
	__syncthreads();
	unsigned b = block_id;
	int i = b * blockDim.x + threadIdx.x;
	int v = i < n ? in[i] : 0;
	v = warp_inclusive_scan(v);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 31)
		warp_totals[warp] = v;
	__syncthreads();
	if (warp == 0) {
		int t = lane < (int)(blockDim.x >> 5) ? warp_totals[lane] : 0;
		warp_totals[lane] = warp_inclusive_scan(t);
	}
	__syncthreads();
	if (warp > 0)
		v += warp_totals[warp - 1];
	if (threadIdx.x == blockDim.x - 1) {
		int c = 0;
		if (b > 0) {
			while (flags[b - 1] == 0)
				;
			c = carries[b - 1];
		}
		carries[b] = c + v;
		__threadfence();
		flags[b] = 1;
		carry_in = c;
	}
	__syncthreads();
	if (i < n)
		out[i] = v + carry_in;
}

__global__ void segmented_scan_flags(const float *in, const int *head, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31;
	float v = i < n ? in[i] : 0.0f;
	int f = i < n ? head[i] : 1;
	for (int d = 1; d < 32; d <<= 1) {
		float tv = __shfl_up_sync(0xffffffffu, v, d);
		int tf = __shfl_up_sync(0xffffffffu, f, d);
		if (lane >= d && !f)
			v += tv;
		if (lane >= d)
			f |= tf;
	}
	if (i < n)
		out[i] = v;
}
