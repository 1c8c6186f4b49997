// corpus: nvcc-only
// bf16 training kernels: a bf16 x bf16 -> f32 GEMM tile with bf16 output, bias + ReLU
// backward in __nv_bfloat162, an SGD-with-momentum step on bf16 weights with f32 master
// copies, an Adam step, loss scaling with an overflow check, and conversions both ways
// (round-to-nearest-even, truncation, from integers).
#include <cuda_bf16.h>

__global__ void gemm_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *c,
                          int m, int n, int k)
{
	__shared__ float as[16][17], bs[16][17];
	int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
	float acc = 0.0f;
	for (int t = 0; t < k; t += 16) {
		as[threadIdx.y][threadIdx.x] =
		        row < m && t + threadIdx.x < k ? __bfloat162float(a[row * k + t + threadIdx.x]) : 0.0f;
		bs[threadIdx.y][threadIdx.x] =
		        col < n && t + threadIdx.y < k ? __bfloat162float(b[(t + threadIdx.y) * n + col]) : 0.0f;
		__syncthreads();
		for (int j = 0; j < 16; j++)
			acc = fmaf(as[threadIdx.y][j], bs[j][threadIdx.x], acc);
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = __float2bfloat16_rn(acc);
}

__global__ void bias_relu_backward(const __nv_bfloat162 *grad, const __nv_bfloat162 *act,
                                   __nv_bfloat162 *dx, float *dbias, int n2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2) {
		__nv_bfloat162 zero = __float2bfloat162_rn(0.0f);
		__nv_bfloat162 mask = __hgt2(act[i], zero);
		__nv_bfloat162 g = __hmul2(grad[i], mask);
		dx[i] = g;
		float2 gf = __bfloat1622float2(g);
		atomicAdd(&dbias[2 * (i % 64)], gf.x);
		atomicAdd(&dbias[2 * (i % 64) + 1], gf.y);
	}
}

__global__ void sgd_momentum(__nv_bfloat16 *w, float *master, const __nv_bfloat16 *grad,
                             float *mom, float lr, float mu, float wd, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float g = __bfloat162float(grad[i]) + wd * master[i];
		float v = mu * mom[i] + g;
		mom[i] = v;
		master[i] -= lr * v;
		w[i] = __float2bfloat16(master[i]);
	}
}

__global__ void adam_bf16(__nv_bfloat162 *w, const __nv_bfloat162 *grad, float2 *m, float2 *v,
                          float lr, float b1, float b2, float eps, float c1, float c2, int n2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2) {
		float2 g = __bfloat1622float2(grad[i]), p = __bfloat1622float2(w[i]);
		float2 mi = m[i], vi = v[i];
		mi.x = b1 * mi.x + (1.0f - b1) * g.x;
		mi.y = b1 * mi.y + (1.0f - b1) * g.y;
		vi.x = b2 * vi.x + (1.0f - b2) * g.x * g.x;
		vi.y = b2 * vi.y + (1.0f - b2) * g.y * g.y;
		p.x -= lr * (mi.x / c1) / (sqrtf(vi.x / c2) + eps);
		p.y -= lr * (mi.y / c1) / (sqrtf(vi.y / c2) + eps);
		m[i] = mi;
		v[i] = vi;
		w[i] = __floats2bfloat162_rn(p.x, p.y);
	}
}

__global__ void unscale_check(__nv_bfloat16 *g, float inv_scale, int *found_inf, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__nv_bfloat16 s = __hmul(g[i], __float2bfloat16(inv_scale));
		if (__hisinf(s) || __hisnan(s))
			atomicExch(found_inf, 1);
		g[i] = s;
	}
}

__global__ void convert(const float *f, const int *k, __nv_bfloat16 *o, float *back, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		o[4 * i] = __float2bfloat16_rn(f[i]);
		o[4 * i + 1] = __float2bfloat16_rz(f[i]);
		o[4 * i + 2] = __int2bfloat16_rn(k[i]);
		o[4 * i + 3] = __hadd(__float2bfloat16(f[i]), __int2bfloat16_rn(k[i]));
		back[i] = __bfloat162float(o[4 * i + 3]) + (float)__bfloat162int_rz(o[4 * i]);
	}
}
