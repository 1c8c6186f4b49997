// Half precision: scalar and packed (half2) arithmetic, conversions, mixed accumulation.
#include "pa_cuda.h"

__global__ void haxpy(int n, float a, const __half *x, __half *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __hfma(__float2half(a), x[i], y[i]);
}

__global__ void h2_scale_add(int n2, const __half2 *x, const __half2 *y, __half2 *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2) {
		__half2 s = __floats2half2_rn(0.5f, 2.0f);
		out[i] = __hfma2(x[i], s, __hmul2(y[i], y[i]));
	}
}

__global__ void half_dot_f32_accum(int n, const __half *a, const __half *b, float *out)
{
	float acc = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		acc += __half2float(a[i]) * __half2float(b[i]);
	for (int o = 16; o > 0; o >>= 1)
		acc += __shfl_down_sync(0xffffffffu, acc, o);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(out, acc);
}

__global__ void half_relu_count(int n, __half *x, int *count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__half zero = __float2half(0.0f);
		if (__hgt(x[i], zero))
			atomicAdd(count, 1);
		else
			x[i] = zero;
	}
}

__global__ void f32_to_h2(int n2, const float *in, __half2 *out, float *back)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2) {
		__half2 h = __floats2half2_rn(in[2 * i], in[2 * i + 1]);
		out[i] = __hadd2(h, h);
		back[2 * i] = __low2float(h);
		back[2 * i + 1] = __high2float(h);
	}
}
