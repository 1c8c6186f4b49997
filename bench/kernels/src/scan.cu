// Inclusive prefix sum of 256-element segments (one per block): warp scans with shuffles,
// then the warp totals scanned by the first warp through shared memory.
#include "bench_cuda.h"

BK_KERNEL void __launch_bounds__(256) scan(const int *in, int *out)
{
	__shared__ int warp_tot[8];
	int t = threadIdx.x, lane = t & 31, warp = t >> 5;
	int i = blockIdx.x * 256 + t;
	int v = in[i];
	for (int off = 1; off < 32; off <<= 1) {
		int o = __shfl_up_sync(0xffffffffu, v, off);
		if (lane >= off)
			v += o;
	}
	if (lane == 31)
		warp_tot[warp] = v;
	__syncthreads();
	if (warp == 0) {
		int w = lane < 8 ? warp_tot[lane] : 0;
		for (int off = 1; off < 8; off <<= 1) {
			int o = __shfl_up_sync(0xffffffffu, w, off);
			if (lane >= off)
				w += o;
		}
		if (lane < 8)
			warp_tot[lane] = w;
	}
	__syncthreads();
	if (warp > 0)
		v += warp_tot[warp - 1];
	out[i] = v;
}
