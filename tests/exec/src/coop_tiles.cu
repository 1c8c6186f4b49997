// Cooperative groups' thread_block_tile<T> (T = 32, 16, 8, 4, 2) as real code uses it: tile
// shuffles, votes, match_any, match_all, cg::reduce with cg::plus/less/greater and the bit operations,
// cg::inclusive_scan/exclusive_scan, meta_group_rank.  nvcc's PTX for sm_75 (shuffle-based
// reductions) and sm_80 (redux.sync for 32-bit integers): tests/exec/ptx/coop_tiles_sm*.ptx
// (commands there).  CUDA warps are 32 lanes: on wave64 this runs with --warp-size 32, and
// without it the compiler must refuse the 32-bit lane masks (listed at the end of the .ptx).
// Reference: tests/exec/cases/cases_coop.py.
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_tiles
#endif
#include "coop_clang19.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define NOUT 19 // ints per thread per tile size

template <unsigned T, typename P> __device__ void tile_ops(cg::thread_block_tile<T, P> t, int v, int *o)
{
	unsigned r = t.thread_rank();
	unsigned u = (unsigned)v;
	o[0] = t.shfl(v, (r + 1) % T);
	o[1] = t.shfl_down(v, 1);
	o[2] = t.shfl_up(v, 1);
	o[3] = t.shfl_xor(v, T / 2);
	o[4] = t.any(v > 900);
	o[5] = t.all(v > -950);
	o[6] = (int)t.ballot(v & 1);
	o[7] = (int)t.match_any(v & 3);
	o[8] = cg::reduce(t, v, cg::plus<int>());
	o[9] = cg::reduce(t, v, cg::less<int>());
	o[10] = cg::reduce(t, v, cg::greater<int>());
	o[11] = (int)cg::reduce(t, u, cg::bit_and<unsigned>());
	o[12] = (int)cg::reduce(t, u, cg::bit_or<unsigned>());
	o[13] = (int)cg::reduce(t, u, cg::bit_xor<unsigned>());
	o[14] = cg::inclusive_scan(t, v);
	o[15] = cg::exclusive_scan(t, v);
	o[16] = (int)cg::inclusive_scan(t, u, cg::bit_xor<unsigned>());
	o[17] = (int)(t.meta_group_rank() * 1000 + t.meta_group_size());
	int pred;
	unsigned all = t.match_all(v >> 12, pred);
	o[18] = (int)(all ^ ((unsigned)pred << 8));
}

extern "C" __global__ void KNAME(const int *in, int *out)
{
	cg::thread_block b = cg::this_thread_block();
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int *o = out + gid * 5 * NOUT;
	tile_ops(cg::tiled_partition<32>(b), v, o);
	tile_ops(cg::tiled_partition<16>(b), v, o + NOUT);
	tile_ops(cg::tiled_partition<8>(b), v, o + 2 * NOUT);
	tile_ops(cg::tiled_partition<4>(b), v, o + 3 * NOUT);
	tile_ops(cg::tiled_partition<2>(b), v, o + 4 * NOUT);
}
