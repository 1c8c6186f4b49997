// The shipped example: c[i] = a[i] + b[i].  examples/vadd.ptx is this file compiled
// by NVIDIA's nvcc (`nvcc -ptx -arch sm_80 -O3 vadd.cu -o vadd.ptx`), exactly what a
// CUDA user hands to ptxas.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
