// Cooperative groups' multi-warp tiles, thread_block_tile<64> and <128> (sm_80+): the tile is
// built from cg::tiled_partition<T>(cg::this_thread_block()) and its collectives go through
// the scratch the CG header keeps in reserved shared memory (%reserved_smem_offset_1: barrier
// words and one 8-byte slot per warp); the warps of a tile spin on the barrier words
// (ld.acquire loops, no nanosleep).  Covered: .sync() (checked through a shared array),
// .shfl (one source rank for the whole tile: CUDA requires it beyond 32 threads), .any,
// .all, cg::reduce (plus, greater), thread_rank, num_threads, meta_group_rank/size.
// nvcc's PTX for sm_80: tests/exec/ptx/coop_mwtile.ptx (command there).  CUDA warps are
// 32 lanes; wave64 runs it with --warp-size 32 (docs/WARP.md says what then happens).
// Reference: tests/exec/cases/cases_coop.py (mwtile_case).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define NOUT 9   // ints per thread per tile size
#define BLOCK 128

template <unsigned T> __device__ void tile_ops(cg::thread_block_tile<T> t, int v, int *sh, int *o)
{
	unsigned r = t.thread_rank();
	unsigned tid = threadIdx.x;
	o[0] = (int)(t.meta_group_rank() * 100000 + t.meta_group_size() * 1000 + r * 4 +
		     (t.num_threads() == T));
	o[1] = t.shfl(v, 37); // beyond 32 threads every thread must name the same source
	o[2] = t.shfl(v, T - 1);
	o[3] = t.any(v > 900);
	o[4] = t.all(v > -990);
	o[5] = cg::reduce(t, v, cg::plus<int>());
	o[6] = cg::reduce(t, v, cg::greater<int>());
	sh[tid] = v * 3 + (int)T;
	t.sync(); // the tile's other warps wrote their elements
	o[7] = sh[tid - r + (r + T / 2 + 1) % T];
	t.sync(); // everyone read before the next tile size overwrites
	o[8] = t.shfl(o[7] + (int)r, T / 2 + 3);
}

extern "C" __global__ void coop_mwtile(const int *in, int *out)
{
	__shared__ int sh[BLOCK];
	cg::thread_block b = cg::this_thread_block();
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int *o = out + gid * 2 * NOUT;
	tile_ops<64>(cg::tiled_partition<64>(b), v, sh, o);
	tile_ops<128>(cg::tiled_partition<128>(b), v, sh, o + NOUT);
}
