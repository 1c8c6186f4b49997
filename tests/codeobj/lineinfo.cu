// Line-info test source (tests/codeobj/lineinfo.ptx is nvcc -arch=sm_80 -ptx -lineinfo of it):
// several kernels, a loop, a device function nvcc inlines (its .loc lines carry inlined_at)
// and one it keeps as a .func (ptxas-amd inlines it).
__device__ __forceinline__ float scale(float x, float s)
{
	float y = x * s;
	return y + 1.0f;
}

__device__ __noinline__ int twice_plus(int v, int k)
{
	int r = v ^ 0x5a5a; /* not v * 2: shl + add select as one v_lshl_add_u32, line 13 */
	return r + k;
}

__global__ void saxpy(float *out, const float *in, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = scale(in[i], a);
}

__global__ void sum_loop(int *out, const int *in, int n)
{
	int acc = 0;
	for (int k = 0; k < n; k++)
		acc += in[k] * (k + 1);
	out[threadIdx.x] = twice_plus(acc, n);
}

__global__ void store_one(int *out)
{
	out[threadIdx.x] = threadIdx.x * 3;
}
