// Real warp-level patterns for 32-lane warps, compiled by nvcc (tests/exec/ptx/warp2_cuda.ptx)
// and by clang-19's NVPTX back end (tests/exec/ptx/warp2_nvvm.ptx; commands there), one
// source: warp-aggregated atomics (ballot, leader, __popc(ballot & lanemask_lt)), match-based
// deduplication, a block-wide inclusive scan (shfl_up + shared memory + __syncthreads),
// __reduce_*_sync in a divergent branch, and shuffles with constant lane patterns over the
// whole warp and within segments (width < 32).  Reference: tests/exec/cases/cases_warp2.py.
#define FULL 0xffffffffu
#define BLOCK 256

#ifdef __NVCC__
#define KNAME warp2_cuda
#define SHARED __shared__
__device__ static unsigned lanemask_lt(void)
{
	unsigned m;
	asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
	return m;
}
#else // clang-19 --cuda-device-only -nocudainc: the NVVM builtins
#define KNAME warp2_nvvm
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define SHARED __attribute__((shared))
#define threadIdx_x __nvvm_read_ptx_sreg_tid_x()
#define blockIdx_x __nvvm_read_ptx_sreg_ctaid_x()
#define blockDim_x __nvvm_read_ptx_sreg_ntid_x()
#define __popc __builtin_popcount
#define __ffs __builtin_ffs
#define __syncthreads() __nvvm_bar_sync(0)
#define __activemask() __nvvm_activemask()
#define __ballot_sync(m, p) __nvvm_vote_ballot_sync(m, p)
#define __match_any_sync(m, v) __nvvm_match_any_sync_i32(m, v)
#define __reduce_add_sync(m, v) __nvvm_redux_sync_add(v, m)
#define __reduce_max_sync(m, v) __nvvm_redux_sync_max(v, m)
#define __reduce_min_sync(m, v) __nvvm_redux_sync_umin(v, m)
#define __reduce_and_sync(m, v) __nvvm_redux_sync_and(v, m)
#define __reduce_or_sync(m, v) __nvvm_redux_sync_or(v, m)
#define __reduce_xor_sync(m, v) __nvvm_redux_sync_xor(v, m)
#define atomicAdd(p, v) __nvvm_atom_add_gen_i(p, v)
#define lanemask_lt() __nvvm_read_ptx_sreg_lanemask_lt()
__device__ static int max(int a, int b) { return a > b ? a : b; }
// CUDA's width argument: c = ((32 - width) << 8) | clamp
#define __shfl_sync(m, v, l, w) __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - (w)) << 8) | 0x1f)
#define __shfl_up_sync(m, v, d, w) __nvvm_shfl_sync_up_i32(m, v, d, (32 - (w)) << 8)
#define __shfl_down_sync(m, v, d, w) __nvvm_shfl_sync_down_i32(m, v, d, ((32 - (w)) << 8) | 0x1f)
#define __shfl_xor_sync(m, v, d, w) __nvvm_shfl_sync_bfly_i32(m, v, d, ((32 - (w)) << 8) | 0x1f)
#endif
#ifdef __NVCC__
#define threadIdx_x threadIdx.x
#define blockIdx_x blockIdx.x
#define blockDim_x blockDim.x
#endif

// out (32 ints per thread): constant-pattern shuffles, whole warp and segments
__device__ static void shuffles(int v, int *o)
{
	o[0] = __shfl_xor_sync(FULL, v, 1, 32);
	o[1] = __shfl_xor_sync(FULL, v, 2, 32);
	o[2] = __shfl_xor_sync(FULL, v, 3, 32);
	o[3] = __shfl_xor_sync(FULL, v, 4, 32);
	o[4] = __shfl_xor_sync(FULL, v, 8, 32);
	o[5] = __shfl_xor_sync(FULL, v, 15, 32);
	o[6] = __shfl_xor_sync(FULL, v, 16, 32);
	o[7] = __shfl_xor_sync(FULL, v, 31, 32);
	o[8] = __shfl_xor_sync(FULL, v, 2, 4);
	o[9] = __shfl_xor_sync(FULL, v, 9, 8); // lane j = l ^ 9 is in range when j <= the segment end
	o[10] = __shfl_up_sync(FULL, v, 1, 32);
	o[11] = __shfl_up_sync(FULL, v, 3, 16);
	o[12] = __shfl_up_sync(FULL, v, 1, 8);
	o[13] = __shfl_up_sync(FULL, v, 2, 4);
	o[14] = __shfl_up_sync(FULL, v, 15, 16);
	o[15] = __shfl_up_sync(FULL, v, 5, 8);
	o[16] = __shfl_down_sync(FULL, v, 1, 32);
	o[17] = __shfl_down_sync(FULL, v, 16, 32);
	o[18] = __shfl_down_sync(FULL, v, 4, 16);
	o[19] = __shfl_down_sync(FULL, v, 1, 4);
	o[20] = __shfl_down_sync(FULL, v, 7, 8);
	o[21] = __shfl_down_sync(FULL, v, 2, 2);
	o[22] = __shfl_sync(FULL, v, 0, 4);
	o[23] = __shfl_sync(FULL, v, 3, 4);
	o[24] = __shfl_sync(FULL, v, 13, 16);
	o[25] = __shfl_sync(FULL, v, 31, 32);
	int s = v; // reduction within 8-lane segments with xor, then with down in 16
	for (int k = 4; k > 0; k >>= 1)
		s += __shfl_xor_sync(FULL, s, k, 8);
	o[26] = s;
	int t = v;
	for (int k = 8; k > 0; k >>= 1)
		t = max(t, __shfl_down_sync(FULL, t, k, 16));
	o[27] = t;
	int u = v; // inclusive scan within 16-lane segments
	for (int k = 1; k < 16; k <<= 1) {
		int x = __shfl_up_sync(FULL, u, k, 16);
		if ((threadIdx_x & 15) >= k)
			u += x;
	}
	o[28] = u;
	o[29] = o[30] = o[31] = 0;
}

extern "C" __global__ void KNAME(const int *in, int *out, int *compact, int *pos, int *counter,
                      int *scan, int *dedup)
{
	SHARED int warp_sums[BLOCK / 32];
	unsigned i = blockIdx_x * blockDim_x + threadIdx_x;
	unsigned lane = threadIdx_x & 31, warp = threadIdx_x / 32;
	int v = in[i];
	shuffles(v, out + 32 * i);

	// warp-aggregated atomics: one atomicAdd per warp, lanes place themselves after it
	bool keep = (v & 3) == 1;
	unsigned kept = __ballot_sync(FULL, keep);
	int leader = __ffs(kept) - 1, base = 0;
	if (kept && (int)lane == leader)
		base = atomicAdd(counter, __popc(kept));
	base = __shfl_sync(FULL, base, leader < 0 ? 0 : leader, 32);
	int p = -1;
	if (keep) {
		p = base + __popc(kept & lanemask_lt());
		compact[p] = v;
	}
	pos[i] = p;

	// match-based deduplication: the lowest lane of each group of equal keys stands for it
	int key = v & 7;
	unsigned same = __match_any_sync(FULL, key);
	int first = __ffs(same) - 1;
	bool rep = (int)lane == first;
	unsigned reps = __ballot_sync(FULL, rep);
	dedup[3 * i] = (int)(i - lane) + first;
	dedup[3 * i + 1] = rep ? __popc(same) : 0;
	dedup[3 * i + 2] = __popc(reps);

	// reductions over the odd lanes only (a divergent branch)
	int *r = out + 32 * i + 29;
	if (v & 1) {
		unsigned act = __activemask();
		r[0] = __reduce_add_sync(act, v) ^ __reduce_max_sync(act, v);
		r[1] = __reduce_and_sync(act, (unsigned)v) + __reduce_or_sync(act, (unsigned)v);
		r[2] = __reduce_xor_sync(act, (unsigned)v) - (int)__reduce_min_sync(act, (unsigned)v);
	}

	// block-wide inclusive scan: warp scans, warp totals through shared memory
	int x = v;
	for (int k = 1; k < 32; k <<= 1) {
		int y = __shfl_up_sync(FULL, x, k, 32);
		if (lane >= k)
			x += y;
	}
	if (lane == 31)
		warp_sums[warp] = x;
	__syncthreads();
	if (warp == 0) {
		int w = lane < BLOCK / 32 ? warp_sums[lane] : 0;
		for (int k = 1; k < BLOCK / 32; k <<= 1) {
			int y = __shfl_up_sync(FULL, w, k, 32);
			if (lane >= k)
				w += y;
		}
		if (lane < BLOCK / 32)
			warp_sums[lane] = w;
	}
	__syncthreads();
	scan[i] = x + (warp ? warp_sums[warp - 1] : 0);
}
