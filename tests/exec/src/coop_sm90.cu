// sm_90 warp-level CUDA: cg::invoke_one and cg::invoke_one_broadcast (elect.sync) on a tile
// and on a coalesced group, a warp-aggregated atomic written with invoke_one_broadcast,
// and cg::reduce/exclusive_scan on a tiled_partition<8>.  nvcc's PTX for sm_90
// (tests/exec/ptx/coop_sm90.ptx, and -G: coop_sm90_g.ptx; commands there).  On wave64 this
// runs with --warp-size 32.
// Reference: tests/exec/cases/cases_coop.py.
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_sm90
#endif
#include "coop_clang19.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define NE 8 // ints per thread in out

extern "C" __global__ void KNAME(const int *in, int *out, int *leaders, int *counter,
				     int *slot)
{
	cg::thread_block b = cg::this_thread_block();
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int *o = out + gid * NE;
	auto w = cg::tiled_partition<32>(b);
	// each warp's elected lane records itself
	cg::invoke_one(w, [&] { leaders[gid / 32] = (int)w.thread_rank(); });
	o[0] = cg::invoke_one_broadcast(w, [&] { return v * 3; });
	auto t8 = cg::tiled_partition<8>(w);
	o[1] = cg::invoke_one_broadcast(t8, [&] { return v + (int)t8.meta_group_rank(); });
	o[2] = cg::reduce(t8, v, cg::plus<int>());
	o[3] = cg::exclusive_scan(t8, v);
	o[4] = -7;
	o[5] = -7;
	if (v & 1) {
		cg::coalesced_group g = cg::coalesced_threads();
		o[4] = cg::invoke_one_broadcast(g, [&] { return v; });
		// warp-aggregated atomic: the elected lane takes size() slots
		int first = cg::invoke_one_broadcast(g, [&] { return atomicAdd(counter, (int)g.size()); });
		int p = first + (int)g.thread_rank();
		slot[p] = (int)gid;
		o[5] = p;
	}
}
