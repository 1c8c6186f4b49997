// Warp-level operations on other types, as real code uses them: cg::reduce and
// cg::inclusive_scan of float, double and long long on tiles of 32 and 8 (64-bit values
// are shuffled as two 32-bit halves), __shfl_xor_sync of a double, __match_any_sync and
// __match_all_sync on 64-bit keys, a tile shfl of a struct.  nvcc's PTX for sm_80
// (tests/exec/ptx/coop_types.ptx; command there).  32-lane warps: on wave64 with --warp-size
// 32.  Reference: tests/exec/cases/cases_coop.py (types_case).
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_types
#endif
#include "coop_clang19.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

struct pair3 {
	int a;
	long long b;
	short c;
};

extern "C" __global__ void KNAME(const int *in, long long *out)
{
	cg::thread_block blk = cg::this_thread_block();
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	long long w = (long long)v * 1000003LL + ((long long)v << 33);
	float f = (float)v * 0.5f;
	double d = (double)v * 0.25;
	long long *o = out + gid * 12;
	auto t32 = cg::tiled_partition<32>(blk);
	auto t8 = cg::tiled_partition<8>(blk);
	o[0] = cg::reduce(t32, w, cg::plus<long long>());
	o[1] = cg::reduce(t8, w, cg::greater<long long>());
	o[2] = cg::inclusive_scan(t8, w);
	o[3] = (long long)cg::reduce(t32, f, cg::plus<float>()); // exact: halves of small ints
	double dr = cg::reduce(t8, d, cg::plus<double>());
	o[4] = __double_as_longlong(dr);
	o[5] = __double_as_longlong(__shfl_xor_sync(0xffffffffu, d, 3));
	unsigned long long key = (unsigned long long)(v & 3) << 40 | 7;
	o[6] = __match_any_sync(0xffffffffu, key);
	int pred;
	o[7] = __match_all_sync(0xffffffffu, (unsigned long long)(v >> 12) << 35, &pred);
	o[8] = pred;
	pair3 p = {v, w, (short)(v * 3)};
	pair3 q = t8.shfl(p, 5);
	o[9] = q.a + q.b + q.c;
	o[10] = (long long)cg::inclusive_scan(t32, f, cg::plus<float>());
	o[11] = cg::exclusive_scan(t32, (unsigned long long)w, cg::bit_xor<unsigned long long>());
}
