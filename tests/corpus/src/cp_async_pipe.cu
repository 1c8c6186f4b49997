// corpus: nvcc-only
// cp.async pipelines through CUDA's pipeline primitives: a three-stage global -> shared
// pipeline of a moving average with __pipeline_memcpy_async (16-byte chunks), the zero-fill
// form for the ragged tail, commit/wait_prior, and a 4- and 8-byte copy variant.
#include <cuda_pipeline.h>

#define STAGES 3
#define TILE 256

__global__ void smooth(const float4 *in, float4 *out, int n4)
{
	__shared__ float4 buf[STAGES][TILE];
	int ntiles = (n4 + TILE - 1) / TILE;
	for (int s = 0; s < STAGES - 1; s++) {
		int idx = (blockIdx.x + s * gridDim.x) * TILE + threadIdx.x;
		size_t zfill = idx < n4 ? 0 : sizeof(float4);
		__pipeline_memcpy_async(&buf[s][threadIdx.x], &in[idx < n4 ? idx : 0], sizeof(float4),
		                        zfill);
		__pipeline_commit();
	}
	int stage = 0;
	for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
		int next = t + (STAGES - 1) * gridDim.x;
		int ns = (stage + STAGES - 1) % STAGES;
		int idx = next * TILE + threadIdx.x;
		__pipeline_memcpy_async(&buf[ns][threadIdx.x], &in[idx < n4 ? idx : 0], sizeof(float4),
		                        idx < n4 ? 0 : sizeof(float4));
		__pipeline_commit();
		__pipeline_wait_prior(STAGES - 1);
		__syncthreads();
		float4 a = buf[stage][threadIdx.x];
		float4 b = buf[stage][(threadIdx.x + 1) % TILE];
		int o = t * TILE + threadIdx.x;
		if (o < n4)
			out[o] = make_float4((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f, (a.z + b.z) * 0.5f,
			                     (a.w + b.w) * 0.5f);
		__syncthreads();
		stage = (stage + 1) % STAGES;
	}
	__pipeline_wait_prior(0);
}

__global__ void gather_small(const int *in, const long long *in8, int *out, long long *out8, int n)
{
	__shared__ int s4[128];
	__shared__ long long s8[128];
	int i = blockIdx.x * 128 + threadIdx.x;
	__pipeline_memcpy_async(&s4[threadIdx.x], &in[i < n ? i : 0], 4, i < n ? 0 : 4);
	__pipeline_memcpy_async(&s8[threadIdx.x], &in8[i < n ? i : 0], 8, i < n ? 0 : 8);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	if (i < n) {
		out[i] = s4[127 - threadIdx.x];
		out8[i] = s8[127 - threadIdx.x] + s4[threadIdx.x];
	}
}
