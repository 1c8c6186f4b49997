// Cooperative groups in divergent code, as real code uses them: coalesced_threads() inside
// branches (thread_rank, size, shfl, shfl_up, any/all/ballot, cg::reduce, cg::inclusive_scan),
// nested divergence, tiled_partition of a coalesced group, labeled_partition and
// binary_partition of a warp, and the classic warp-aggregated atomic (atomicAggInc) for a
// stream compaction.  nvcc's PTX for sm_80 (tests/exec/ptx/coop_coalesced.ptx) and at -G
// (tests/exec/ptx/coop_coalesced_g.ptx; commands there).  CUDA warps are 32 lanes: on wave64
// this runs with --warp-size 32.  Reference: tests/exec/cases/cases_coop.py.
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_coalesced
#endif
#include "coop_clang19.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define NC 24 // ints per thread in out

__device__ int atomicAggInc(int *ctr)
{
	cg::coalesced_group g = cg::coalesced_threads();
	int warp_res;
	if (g.thread_rank() == 0)
		warp_res = atomicAdd(ctr, (int)g.size());
	return g.shfl(warp_res, 0) + (int)g.thread_rank();
}

extern "C" __global__ void KNAME(const int *in, int *out, int *compact, int *pos,
					  int *counter)
{
	cg::thread_block b = cg::this_thread_block();
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int *o = out + gid * NC;
	for (int k = 0; k < NC; k++)
		o[k] = -7;
	if (v % 3 == 0) {
		cg::coalesced_group g = cg::coalesced_threads();
		o[0] = (int)g.thread_rank();
		o[1] = (int)g.size();
		o[2] = g.shfl(v, 0);
		o[3] = g.shfl(v, g.size() - 1);
		o[4] = cg::reduce(g, v, cg::plus<int>());
		o[5] = cg::inclusive_scan(g, v);
		o[6] = cg::inclusive_scan(g, v, cg::greater<int>());
		o[7] = g.any(v > 500);
		o[8] = g.all(v < 900);
		o[9] = (int)g.ballot(v & 1);
		o[10] = g.shfl_up(v, 1);
		o[11] = g.shfl_down(v, 2);
		cg::coalesced_group t = cg::tiled_partition(g, 4);
		o[12] = (int)(t.thread_rank() + 10 * t.size() + 100 * t.meta_group_rank());
		o[13] = cg::reduce(t, v, cg::less<int>());
	} else if (v & 1) {
		cg::coalesced_group g = cg::coalesced_threads();
		o[0] = (int)g.thread_rank() + 1000;
		o[1] = (int)g.size();
		if (v % 5 == 0) {
			cg::coalesced_group h = cg::coalesced_threads();
			o[2] = (int)h.thread_rank();
			o[3] = (int)h.size();
			o[4] = cg::reduce(h, v, cg::greater<int>());
		}
		o[5] = cg::exclusive_scan(g, v);
	}
	cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
	cg::coalesced_group l = cg::labeled_partition(w, v & 3);
	o[14] = (int)l.thread_rank();
	o[15] = (int)l.size();
	o[16] = cg::reduce(l, v, cg::plus<int>());
	o[17] = l.shfl(v, 0);
	cg::coalesced_group bp = cg::binary_partition(w, v < 0);
	o[18] = (int)bp.thread_rank();
	o[19] = (int)bp.size();
	o[20] = (int)bp.ballot(v & 1);
	o[21] = cg::inclusive_scan(bp, v);
	if (v & 1) {
		int p = atomicAggInc(counter);
		compact[p] = v;
		pos[gid] = p;
	} else {
		pos[gid] = -1;
	}
}
