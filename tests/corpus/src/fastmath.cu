// corpus: nvcc-only; nvcc-flags: --use_fast_math
// Kernels as --use_fast_math compiles them (approximate division, sqrt and transcendentals,
// .ftz everywhere): softmax with expf, a GELU with tanhf, normalisation with rsqrtf and
// 1/x, a log-sum-exp, sincos phases, pow and a double-to-float mix (cvt.ftz).
#include <math.h>

__global__ void softmax_row(const float *x, float *y, int n)
{
	__shared__ float red[256];
	const float *row = x + blockIdx.x * n;
	float m = -INFINITY;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		m = fmaxf(m, row[i]);
	red[threadIdx.x] = m;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s /= 2) {
		if (threadIdx.x < s)
			red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
		__syncthreads();
	}
	m = red[0];
	__syncthreads();
	float sum = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		sum += expf(row[i] - m);
	red[threadIdx.x] = sum;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s /= 2) {
		if (threadIdx.x < s)
			red[threadIdx.x] += red[threadIdx.x + s];
		__syncthreads();
	}
	float inv = 1.0f / red[0];
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		y[blockIdx.x * n + i] = expf(row[i] - m) * inv;
}

__global__ void gelu_tanh(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
	}
}

__global__ void rms_norm(const float *x, const float *w, float *y, int n, float eps)
{
	__shared__ float red[256];
	const float *row = x + blockIdx.x * n;
	float s = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		s += row[i] * row[i];
	red[threadIdx.x] = s;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k /= 2) {
		if (threadIdx.x < k)
			red[threadIdx.x] += red[threadIdx.x + k];
		__syncthreads();
	}
	float r = rsqrtf(red[0] / n + eps);
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		y[blockIdx.x * n + i] = row[i] * r * w[i];
}

__global__ void logsumexp_pairs(const float *a, const float *b, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float m = fmaxf(a[i], b[i]);
		out[i] = m + logf(expf(a[i] - m) + expf(b[i] - m));
	}
}

__global__ void phases(const float *t, float2 *out, float freq, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float s, c;
		sincosf(freq * t[i], &s, &c);
		out[i] = make_float2(c, s);
	}
}

__global__ void mixed(const double *d, float *f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = (float)d[i];
		f[i] = powf(fabsf(v), 1.5f) / sqrtf(v * v + 1.0f) + exp2f(v) + log2f(fabsf(v) + 1.0f);
	}
}
