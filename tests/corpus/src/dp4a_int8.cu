// corpus: nvcc-only
// int8 quantized kernels the way inference engines write them: a GEMV over packed int8
// weights with __dp4a and per-row scales, a signed x unsigned dot product, __dp2a_lo/hi,
// per-block quantisation of f32 activations to int8 (round, saturate, pack with byte_perm),
// and dequantisation.
__global__ void gemv_q8(const int *wq, const float *wscale, const int *xq, float xscale,
                        float *y, int rows, int k4)
{
	int r = blockIdx.x * blockDim.y + threadIdx.y;
	if (r >= rows)
		return;
	int acc = 0;
	for (int k = threadIdx.x; k < k4; k += blockDim.x)
		acc = __dp4a(wq[r * k4 + k], xq[k], acc);
	for (int off = 16; off > 0; off /= 2)
		acc += __shfl_down_sync(0xffffffffu, acc, off);
	if (threadIdx.x == 0)
		y[r] = (float)acc * wscale[r] * xscale;
}

__global__ void dot_su(const int *a, const unsigned *b, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[4 * i] = __dp4a(a[i], (int)b[i], 0);
		out[4 * i + 1] = (int)__dp4a((unsigned)a[i], b[i], 7u);
		out[4 * i + 2] = __dp2a_lo(a[i], (int)b[i], -3);
		out[4 * i + 3] = (int)__dp2a_hi((unsigned)a[i], b[i], 5u);
	}
}

__global__ void quantize_q8(const float *x, int *q, float *scale, int n)
{
	__shared__ float amax[32];
	int i = blockIdx.x * 128 + threadIdx.x * 4;
	float v[4], m = 0.0f;
	for (int j = 0; j < 4; j++) {
		v[j] = i + j < n ? x[i + j] : 0.0f;
		m = fmaxf(m, fabsf(v[j]));
	}
	for (int off = 16; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
	if (threadIdx.x == 0)
		amax[0] = m;
	__syncthreads();
	float s = amax[0] / 127.0f, inv = s > 0.0f ? 1.0f / s : 0.0f;
	unsigned packed = 0;
	for (int j = 0; j < 4; j++) {
		int b = __float2int_rn(v[j] * inv);
		b = max(-127, min(127, b));
		packed = __byte_perm(packed, (unsigned)b, j == 0 ? 0x3214 : j == 1 ? 0x3240 :
		                                           j == 2 ? 0x3410 : 0x4210);
	}
	q[blockIdx.x * 32 + threadIdx.x] = (int)packed;
	if (threadIdx.x == 0)
		scale[blockIdx.x] = s;
}

__global__ void dequantize_q8(const int *q, const float *scale, float *x, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4) {
		int w = q[i];
		float s = scale[i / 32];
		for (int j = 0; j < 4; j++)
			x[4 * i + j] = (float)(signed char)(w >> (8 * j)) * s;
	}
}
