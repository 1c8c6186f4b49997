// Element-wise kernels: grid-stride loops, vector loads, conversions, bit tricks.
#include "pa_cuda.h"

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__global__ void daxpy_grid_stride(long n, double a, const double *x, double *y)
{
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
	     i += (long)blockDim.x * gridDim.x)
		y[i] = fma(a, x[i], y[i]);
}

__global__ void vec4_scale_bias(const float4 *in, float4 *out, float scale, float bias, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	float4 v = in[i];
	v.x = fmaf(v.x, scale, bias);
	v.y = fmaf(v.y, scale, bias);
	v.z = fmaf(v.z, scale, bias);
	v.w = fmaf(v.w, scale, bias);
	out[i] = v;
}

__global__ void relu_clamp(float *x, int n, float lo, float hi)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		v = v < 0.0f ? 0.0f : v;
		x[i] = fminf(fmaxf(v, lo), hi);
	}
}

__global__ void int_ops(const int *a, const int *b, int *out, unsigned *bits, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = a[i], y = b[i];
	int q = y != 0 ? x / y : 0;
	int r = y != 0 ? x % y : 0;
	unsigned ux = (unsigned)x;
	out[4 * i + 0] = q + r;
	out[4 * i + 1] = (x << 3) ^ (y >> 2) ^ (int)(ux >> 5);
	out[4 * i + 2] = __mulhi(x, y) + __sad(x, y, 7u);
	out[4 * i + 3] = x > y ? x - y : y - x;
	bits[3 * i + 0] = __popc(ux) + __clz(x) + __ffs(y);
	bits[3 * i + 1] = __brev(ux) ^ __umulhi(ux, 0x9e3779b9u);
	bits[3 * i + 2] = __byte_perm(ux, (unsigned)y, 0x3210 ^ (i & 0x7777));
}

__global__ void conversions(const float *f, const double *d, int *i32, long long *i64,
                            unsigned short *u16, signed char *s8, float *fo, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = f[i];
	double y = d[i];
	i32[i] = (int)x + (int)y;
	i64[i] = (long long)y * 3 + (long long)x;
	u16[i] = (unsigned short)(unsigned)(x * 100.0f);
	s8[i] = (signed char)(int)y;
	fo[i] = (float)y + (float)i64[i] + (float)(unsigned)i + __int_as_float(0x3f800000);
}

__global__ void select_mask(const float *a, const float *b, const unsigned char *m, float *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		bool take = m[i] & 1;
		bool neg = (m[i] >> 1) & 1;
		float v = take ? a[i] : b[i];
		o[i] = neg ? -v : v;
	}
}

__global__ void copy_2d(const float *src, float *dst, int w, int h, int spitch, int dpitch)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		dst[y * dpitch + x] = __ldg(&src[y * spitch + x]);
}
