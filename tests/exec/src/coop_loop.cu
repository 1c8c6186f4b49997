// Cooperative groups in loops whose trip count differs between lanes, as work-queue and
// grid-stride code writes them: each iteration takes coalesced_threads() again (the lanes
// still looping), ranks them, reduces and scans over them, and leaves the loop through a
// `break` of some lanes as well as the loop condition; a warp-aggregated atomic per
// iteration.  nvcc's PTX for sm_80 and sm_75 (no redux.sync: cg::reduce by shuffles through
// __fns) in tests/exec/ptx/coop_loop_sm*.ptx (commands there).  32-lane warps: on wave64 with
// --warp-size 32.  Reference: tests/exec/cases/cases_coop.py (loop_case).
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_loop
#endif
#include "coop_clang19.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void KNAME(const int *in, int *out, int *counter)
{
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int trips = v & 7, acc = 0, ranks = 0, last = -1;
	for (int it = 0; it < trips; it++) {
		cg::coalesced_group g = cg::coalesced_threads();
		ranks = ranks * 3 + (int)g.thread_rank();
		acc += cg::reduce(g, v + it, cg::plus<int>()) * (it + 1);
		acc ^= cg::exclusive_scan(g, it + 1);
		if (g.thread_rank() == 0)
			atomicAdd(counter, (int)g.size());
		last = g.shfl(v, g.size() - 1);
		if (v % 11 == it) // some lanes leave early
			break;
	}
	out[gid * 4] = acc;
	out[gid * 4 + 1] = ranks;
	out[gid * 4 + 2] = last;
	out[gid * 4 + 3] = trips;
}
