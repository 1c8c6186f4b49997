// Module-scope data: __constant__ tables, initialised __device__ globals of every
// scalar width, structs, strings, pointer-valued initialisers, static shared.
#include "pa_cuda.h"

__constant__ float c_weights[16] = {0.5f, -1.25f, 3.0f, 1e-7f, -0.0f, 1e30f, 2.5f, 7.0f,
                                    0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1.0f};
__constant__ double c_poly[6] = {1.0, -0.5, 1.0 / 3.0, -0.25, 0.2, -1.0 / 6.0};
__constant__ int c_offsets[9] = {-4, -3, -2, -1, 0, 1, 2, 3, 4};
__constant__ unsigned long long c_magic = 0xfeedfacecafebeefull;
__constant__ unsigned char c_bytes[7] = {1, 2, 3, 250, 251, 0, 255};
__constant__ short c_shorts[3] = {-32768, 0, 32767};
__constant__ float c_uninit[32];

struct Params {
	int iters;
	float scale;
	double tol;
	char tag[6];
};
__constant__ Params c_params = {10, 0.75f, 1e-12, "hello"};

__device__ int g_counter = 42;
__device__ float g_table[4] = {1.0f, 2.0f, 4.0f, 8.0f};
__device__ double g_scalar = 3.141592653589793;
__device__ long long g_big = -9000000000000000000ll;
__device__ int g_zeroed[128];
__device__ const char g_message[] = "ptxas-amd corpus";

/* Pointer-valued initialisers: PTX writes these as generic(sym) or sym+offset. */
__device__ int *g_counter_ptr = &g_counter;
__device__ float *g_table_ptrs[3] = {&g_table[0], &g_table[2], g_table + 3};
__device__ const char *g_msg_ptr = g_message + 6;
__device__ const float *g_cweights_ptr = c_weights;

static __device__ int s_internal_state[4] = {7, 8, 9, 10};

__global__ void use_constants(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float acc = 0.0f;
#pragma unroll
	for (int k = 0; k < 9; ++k) {
		int j = i + c_offsets[k];
		j = j < 0 ? 0 : (j >= n ? n - 1 : j);
		acc += c_weights[k] * x[j];
	}
	double p = 0.0;
	for (int k = 5; k >= 0; --k)
		p = p * (double)acc + c_poly[k];
	out[i] = (float)p * c_params.scale + (float)(c_magic & 0xff) + c_bytes[i % 7] +
	         c_shorts[i % 3] + c_uninit[i & 31];
}

__global__ void use_globals(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int old = atomicAdd(g_counter_ptr, 1);
	float t = *g_table_ptrs[i % 3] + g_table[i & 3];
	g_zeroed[i & 127] += old;
	s_internal_state[i & 3] ^= i;
	out[i] = t + (float)g_scalar + (float)(g_big >> 40) + g_msg_ptr[i % 10] +
	         g_cweights_ptr[i & 15] + (float)s_internal_state[(i + 1) & 3];
}

__global__ void params_loop(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	for (int it = 0; it < c_params.iters; ++it) {
		float nv = v - (v * v - 2.0f) / (2.0f * v);
		if ((double)fabsf(nv - v) < c_params.tol)
			break;
		v = nv;
	}
	x[i] = v + (float)c_params.tag[i % 5];
}

__global__ void big_param_struct(Params p, float4 q, double2 r, float *out)
{
	out[threadIdx.x] = p.scale * q.x + (float)(p.iters + p.tag[1]) + q.w + (float)(r.x * r.y);
}

__global__ void many_params(int a0, int a1, int a2, int a3, long long a4, float a5, double a6,
                            char a7, short a8, unsigned char a9, float *out)
{
	out[threadIdx.x] =
	        (float)(a0 + a1 * a2 - a3) + (float)a4 + a5 + (float)a6 + a7 + a8 + a9;
}
