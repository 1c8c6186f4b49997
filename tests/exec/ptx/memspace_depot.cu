// A per-thread array indexed dynamically, a pointer into it, and __device__/__constant__
// variables.  tests/exec/ptx/memspace_depot.ptx is nvcc's unoptimized PTX of this file.
__constant__ int weights[8] = {3, -1, 4, 1, -5, 9, 2, -6};
__device__ unsigned int bias[4] = {100, 200, 300, 400};
__device__ int *bias_ptr = (int *)&bias[2];

extern "C" __global__ void memspace_depot(int *out, int n)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = (t * (i + 1)) ^ weights[i & 7];
	int k = (t * 7) & 15;
	a[k] += 1000;
	int *p = &a[t & 7];
	int s = 0;
	for (int i = 0; i < 8; i++)
		s += p[i] * weights[(i + t) & 7];
	if (t < n) {
		out[3 * t] = s;
		out[3 * t + 1] = a[(t * 5) & 15] + bias[t & 3];
		out[3 * t + 2] = *bias_ptr + a[k];
	}
}
