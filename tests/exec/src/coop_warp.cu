// Warp-level CUDA as libraries write it (CUB-style, no cooperative groups), for 32-lane
// warps: segmented reductions and scans with __shfl_*_sync and a width argument, broadcasts,
// __reduce_*_sync, __match_all_sync/__match_any_sync, __fns, stream compaction with
// __ballot_sync/__popc, and a block-wide histogram with warp-level pre-aggregation
// (__match_any_sync on the bin, the leader adds the count to shared memory).  nvcc's PTX
// for sm_80 (tests/exec/ptx/coop_warp.ptx; command there).  On wave64 this runs with
// --warp-size 32.  Reference: tests/exec/cases/cases_coop.py.
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_warp
#endif
#include "coop_clang19.h"
#define FULL 0xffffffffu
#define NW 20 // ints per thread in out
#define NBINS 16

__device__ static unsigned lane_id(void)
{
	unsigned l;
	asm("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}

template <int W> __device__ int seg_reduce(int x)
{
#pragma unroll
	for (int o = W / 2; o > 0; o >>= 1)
		x += __shfl_down_sync(FULL, x, o, W);
	return x;
}

template <int W> __device__ int seg_scan(int x, unsigned lane)
{
#pragma unroll
	for (int o = 1; o < W; o <<= 1) {
		int y = __shfl_up_sync(FULL, x, o, W);
		if ((lane & (W - 1)) >= (unsigned)o)
			x += y;
	}
	return x;
}

template <int W> __device__ int seg_max_xor(int x)
{
#pragma unroll
	for (int o = W / 2; o > 0; o >>= 1)
		x = max(x, __shfl_xor_sync(FULL, x, o, W));
	return x;
}

extern "C" __global__ void KNAME(const int *in, int *out, int *compact, int *counts,
				     int *hist)
{
	__shared__ int sh_hist[NBINS];
	unsigned tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
	unsigned lane = lane_id(), warp = gid / 32;
	int v = in[gid];
	unsigned u = (unsigned)v;
	int *o = out + gid * NW;
	if (tid < NBINS)
		sh_hist[tid] = 0;
	o[0] = seg_reduce<32>(v);
	o[1] = seg_reduce<16>(v);
	o[2] = seg_reduce<8>(v);
	o[3] = seg_scan<32>(v, lane);
	o[4] = seg_scan<8>(v, lane);
	o[5] = seg_scan<4>(v, lane);
	o[6] = seg_max_xor<32>(v);
	o[7] = seg_max_xor<2>(v);
	o[8] = __shfl_sync(FULL, v, 0, 16) + __shfl_sync(FULL, v, 31);
	o[9] = (int)__reduce_add_sync(FULL, u);
	o[10] = (int)__reduce_min_sync(FULL, u);
	o[11] = __reduce_max_sync(FULL, v);
	o[12] = (int)(__reduce_and_sync(FULL, u | 0x10) ^ __reduce_or_sync(FULL, u & 0xff0) ^
		      __reduce_xor_sync(FULL, u));
	int pred;
	unsigned am = __match_all_sync(FULL, v >> 12, &pred);
	o[13] = (int)(am ^ ((unsigned)pred << 4));
	o[14] = (int)__match_any_sync(FULL, v & 7);
	unsigned mask = (unsigned)in[gid ^ 1] * 2654435761u;
	int base = (int)(u % 32), off = v % 5 - 2;
	o[15] = (int)__fns(mask, base, off);
	o[16] = (int)__fns(mask, 31 - base, 1 + (v & 15));
	o[17] = (int)__fns(mask, base, -1 - (v & 15));
	// stream compaction of the values with v % 4 == 1, per warp
	bool keep = (v & 3) == 1;
	unsigned b = __ballot_sync(FULL, keep);
	if (keep)
		compact[warp * 32 + __popc(b & ((1u << lane) - 1))] = v;
	if (lane == 0)
		counts[warp] = __popc(b);
	__syncthreads();
	// histogram of v & 15 over the values with v % 3 != 0 (a divergent branch)
	if (v % 3 != 0) {
		unsigned bin = u & (NBINS - 1);
		unsigned peers = __match_any_sync(__activemask(), bin);
		if (lane == (unsigned)(__ffs(peers) - 1))
			atomicAdd(&sh_hist[bin], __popc(peers));
		o[18] = (int)peers;
	} else {
		o[18] = (int)__activemask();
	}
	__syncthreads();
	if (tid < NBINS)
		atomicAdd(&hist[tid], sh_hist[tid]);
}
