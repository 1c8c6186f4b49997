// Matrix transpose (rows x cols floats, both multiples of 32) through a padded 32x33 shared
// tile; 32x8 threads per block, four rows each.
#include "bench_cuda.h"

BK_KERNEL void __launch_bounds__(256) transpose(const float *in, float *out, int rows, int cols)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x;
	int y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
