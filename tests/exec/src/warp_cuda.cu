// Warp-level CUDA as NVIDIA's programming guide writes it, for 32-lane warps: a shuffle-down
// reduction, an inclusive shuffle-up scan, __shfl_xor_sync and __shfl_sync within 16-lane
// segments, __ballot_sync stream compaction, __match_any_sync grouping, __reduce_*_sync,
// __all_sync/__any_sync/__activemask inside a divergent branch.  nvcc's PTX
// (tests/exec/ptx/warp_cuda.ptx, command there) runs on wave32 targets and, with
// --warp-size 32, on wave64 ones; reference: tests/exec/cases/cases_warp.py.
#define FULL 0xffffffffu

extern "C" __global__ void warp_cuda(const int *in, int *out, int *compact, int *counts)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = threadIdx.x & 31;
	int v = in[i];
	int *o = out + i * 12;
	int sum = v;
	for (int off = 16; off > 0; off >>= 1)
		sum += __shfl_down_sync(FULL, sum, off);
	o[0] = sum; // lane 0: the warp's sum
	int scan = v;
	for (int off = 1; off < 32; off <<= 1) {
		int t = __shfl_up_sync(FULL, scan, off);
		if (lane >= off)
			scan += t;
	}
	o[1] = scan;
	o[2] = __shfl_xor_sync(FULL, v, 3);
	o[3] = __shfl_sync(FULL, v, 5, 16); // lane 5 of each 16-lane segment
	o[4] = __shfl_down_sync(FULL, v, 3, 8);
	unsigned keep = __ballot_sync(FULL, v % 3 == 0);
	if (v % 3 == 0)
		compact[(i & ~31u) + __popc(keep & ((1u << lane) - 1))] = v;
	if (lane == 0)
		counts[i / 32] = __popc(keep);
	o[5] = __match_any_sync(FULL, v & 7);
	o[6] = __reduce_add_sync(FULL, v & 255);
	o[7] = __reduce_max_sync(FULL, (unsigned)v);
	o[8] = __reduce_min_sync(FULL, v);
	if (v & 1) {
		unsigned act = __activemask();
		o[9] = act;
		o[10] = __all_sync(act, v > -500);
		o[11] = __any_sync(act, v > 900);
	} else {
		o[9] = o[10] = o[11] = -1;
	}
}
