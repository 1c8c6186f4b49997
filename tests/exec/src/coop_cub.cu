// CUB's own warp- and block-level collectives (CUDA 13's CCCL: cub::WarpReduce, WarpScan,
// a 16-lane logical WarpReduce, HeadSegmentedSum, BlockReduce, BlockScan), as library users
// write them.  nvcc's PTX for sm_80 (tests/exec/ptx/coop_cub.ptx; command there).  CUB
// assumes 32-lane warps: on wave64 this runs with --warp-size 32.  Reference (CUB's documented
// results: warp aggregates in lane 0, segment sums in each segment's head lane):
// tests/exec/cases/cases_coop.py.
#include <cub/cub.cuh>
#include <cuda/functional>
#ifndef KNAME
#define KNAME coop_cub
#endif
#define BLOCK 128
extern "C" __global__ void KNAME(const int *in, int *out)
{
	using WR = cub::WarpReduce<int>;
	using WS = cub::WarpScan<int>;
	using WR16 = cub::WarpReduce<int, 16>;
	using BR = cub::BlockReduce<int, BLOCK>;
	using BS = cub::BlockScan<int, BLOCK>;
	__shared__ typename WR::TempStorage wr[BLOCK / 32];
	__shared__ typename WS::TempStorage ws[BLOCK / 32];
	__shared__ typename WR16::TempStorage wr16[BLOCK / 16];
	__shared__ typename BR::TempStorage br;
	__shared__ typename BS::TempStorage bs;
	unsigned tid = threadIdx.x, gid = blockIdx.x * BLOCK + tid;
	int v = in[gid];
	int *o = out + gid * 8;
	o[0] = WR(wr[tid / 32]).Sum(v);
	o[1] = WR(wr[tid / 32]).Reduce(v, cuda::maximum<>{});
	int inc, exc;
	WS(ws[tid / 32]).InclusiveSum(v, inc);
	o[2] = inc;
	WS(ws[tid / 32]).ExclusiveScan(v, exc, 0, cuda::maximum<>{});
	o[3] = exc;
	o[4] = WR16(wr16[tid / 16]).Sum(v);
	int bsum = BR(br).Sum(v);
	o[5] = tid == 0 ? bsum : 0;
	__syncthreads();
	int bex;
	BS(bs).ExclusiveSum(v, bex);
	o[6] = bex;
	o[7] = WR(wr[tid / 32]).HeadSegmentedSum(v, (tid % 7) == 0);
}
