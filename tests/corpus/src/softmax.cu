// Row-wise softmax, log-softmax and layer norm with warp and block reductions.
#include "pa_cuda.h"

static __device__ __forceinline__ float warp_reduce_max(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

static __device__ __forceinline__ float warp_reduce_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

/* One warp per row. */
__global__ void softmax_warp(const float *in, float *out, int rows, int cols)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int lane = threadIdx.x % 32;
	if (row >= rows)
		return;
	const float *x = in + (long)row * cols;
	float m = -3.4e38f;
	for (int c = lane; c < cols; c += 32)
		m = fmaxf(m, x[c]);
	m = warp_reduce_max(m);
	float s = 0.0f;
	for (int c = lane; c < cols; c += 32)
		s += expf(x[c] - m);
	s = warp_reduce_sum(s);
	float inv = 1.0f / s;
	for (int c = lane; c < cols; c += 32)
		out[(long)row * cols + c] = expf(x[c] - m) * inv;
}

/* One block per row, shared memory for the cross-warp step, fast intrinsics. */
__global__ void softmax_block_fast(const float *in, float *out, int cols)
{
	__shared__ float red[32];
	__shared__ float bcast;
	const float *x = in + (long)blockIdx.x * cols;
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
	float m = -3.4e38f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		m = fmaxf(m, x[c]);
	m = warp_reduce_max(m);
	if (lane == 0)
		red[warp] = m;
	__syncthreads();
	if (warp == 0) {
		m = lane < nwarps ? red[lane] : -3.4e38f;
		m = warp_reduce_max(m);
		if (lane == 0)
			bcast = m;
	}
	__syncthreads();
	m = bcast;
	float s = 0.0f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		s += __expf(x[c] - m);
	s = warp_reduce_sum(s);
	__syncthreads();
	if (lane == 0)
		red[warp] = s;
	__syncthreads();
	if (warp == 0) {
		s = lane < nwarps ? red[lane] : 0.0f;
		s = warp_reduce_sum(s);
		if (lane == 0)
			bcast = s;
	}
	__syncthreads();
	s = bcast;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		out[(long)blockIdx.x * cols + c] = __fdividef(__expf(x[c] - m), s);
}

__global__ void log_softmax(const float *in, float *out, int rows, int cols)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= rows)
		return;
	const float *x = in + (long)row * cols;
	float m = x[0];
	for (int c = 1; c < cols; ++c)
		m = fmaxf(m, x[c]);
	float s = 0.0f;
	for (int c = 0; c < cols; ++c)
		s += expf(x[c] - m);
	float ls = logf(s) + m;
	for (int c = 0; c < cols; ++c)
		out[(long)row * cols + c] = x[c] - ls;
}

__global__ void layer_norm(const float *in, const float *gamma, const float *beta, float *out,
                           int cols, float eps)
{
	const float *x = in + (long)blockIdx.x * cols;
	float sum = 0.0f, sq = 0.0f;
	for (int c = threadIdx.x; c < cols; c += 32) {
		float v = x[c];
		sum += v;
		sq = fmaf(v, v, sq);
	}
	sum = warp_reduce_sum(sum);
	sq = warp_reduce_sum(sq);
	float mean = sum / (float)cols;
	float var = sq / (float)cols - mean * mean;
	float rstd = rsqrtf(var + eps);
	for (int c = threadIdx.x; c < cols; c += 32)
		out[(long)blockIdx.x * cols + c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
}

__global__ void gelu_tanh(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = in[i];
		float u = 0.7978845608f * (x + 0.044715f * x * x * x);
		out[i] = 0.5f * x * (1.0f + tanhf(u));
	}
}
