// CUB's block-wide radix sort, histogram and discontinuity flags (cub::BlockRadixSort,
// BlockHistogram, BlockDiscontinuity from CUDA 13's CCCL; the radix ranking uses warp
// ballots/match, the digit extraction bmsk): nvcc's PTX for sm_80
// (tests/exec/ptx/coop_cub_sort.ptx; command there).  32-lane warps: on wave64 with
// --warp-size 32.  Reference: tests/exec/cases/cases_coop.py (cub_sort_case).
#include <cub/cub.cuh>
#include <cuda/std/functional>
#ifndef KNAME
#define KNAME coop_cub_sort
#endif
#define BLOCK 128
#define ITEMS 4
extern "C" __global__ void KNAME(const int *in, int *out, unsigned *hist)
{
	using Sort = cub::BlockRadixSort<int, BLOCK, ITEMS>;
	using Hist = cub::BlockHistogram<unsigned char, BLOCK, ITEMS, 16>;
	using Disc = cub::BlockDiscontinuity<int, BLOCK>;
	__shared__ union {
		typename Sort::TempStorage sort;
		typename Hist::TempStorage hist;
		typename Disc::TempStorage disc;
	} tmp;
	__shared__ unsigned sh_hist[16];
	unsigned tid = threadIdx.x;
	const int *blk = in + blockIdx.x * BLOCK * ITEMS;
	int keys[ITEMS];
	unsigned char bins[ITEMS];
	for (int k = 0; k < ITEMS; k++) {
		keys[k] = blk[tid * ITEMS + k];
		bins[k] = (unsigned char)(keys[k] & 15);
	}
	Hist(tmp.hist).Histogram(bins, sh_hist);
	__syncthreads();
	if (tid < 16)
		hist[blockIdx.x * 16 + tid] = sh_hist[tid];
	Sort(tmp.sort).Sort(keys);
	__syncthreads();
	int flags[ITEMS];
	Disc(tmp.disc).FlagHeads(flags, keys, cuda::std::not_equal_to<>{});
	for (int k = 0; k < ITEMS; k++) {
		out[blockIdx.x * BLOCK * ITEMS * 2 + tid * ITEMS + k] = keys[k];
		out[blockIdx.x * BLOCK * ITEMS * 2 + BLOCK * ITEMS + tid * ITEMS + k] = flags[k];
	}
}
