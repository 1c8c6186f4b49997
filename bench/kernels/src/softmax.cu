// Row softmax: one 128-thread block per row of length n; maximum and sum by shared-memory
// tree reductions, exp through the fast exponential.
#include "bench_cuda.h"

BK_DEV float block_reduce(float *buf, float v, bool is_max)
{
	int t = threadIdx.x;
	buf[t] = v;
	__syncthreads();
	for (int s = 64; s > 0; s >>= 1) {
		if (t < s)
			buf[t] = is_max ? fmaxf(buf[t], buf[t + s]) : buf[t] + buf[t + s];
		__syncthreads();
	}
	float r = buf[0];
	__syncthreads();
	return r;
}

BK_KERNEL void __launch_bounds__(128) softmax(const float *in, float *out, int n)
{
	__shared__ float buf[128];
	const float *row = in + blockIdx.x * n;
	float *orow = out + blockIdx.x * n;
	float m = -3.0e38f;
	for (int i = threadIdx.x; i < n; i += 128)
		m = fmaxf(m, row[i]);
	m = block_reduce(buf, m, true);
	float sum = 0.0f;
	for (int i = threadIdx.x; i < n; i += 128)
		sum += bk_exp(row[i] - m);
	sum = block_reduce(buf, sum, false);
	float inv = 1.0f / sum;
	for (int i = threadIdx.x; i < n; i += 128)
		orow[i] = bk_exp(row[i] - m) * inv;
}
