// assert() in device code: threads whose input is negative fail the assertion.
#include <cassert>
__global__ void check_positive(const int *in, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];
	out[i] = v * 2;
	assert(v >= 0 && "input must not be negative");
	out[i] = v + 1;
}
