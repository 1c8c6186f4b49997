// Warp-size-portable warp code in the style SCALE's documentation asks for (inline PTX with
// WARP_SZ, -1 for "all lanes", 64-bit lane masks): the reverse cumulative sum with
// shfl.sync.down and the butterfly reduction with shfl.sync.bfly, a ballot-based stream
// compaction and a match-based deduplication.  Compiled to PTX by clang-19 (command in
// tests/exec/ptx/warp_portable.ptx); run on wave32 and wave64 by tests/exec/run_ptx.py.
// Not CUDA: the 64-bit lane masks are ptxas-amd's wave64 dialect (docs/WARP.md); NVIDIA's
// ptxas refuses the PTX (docs/TESTS_ON_NVIDIA.md).
#define KERNEL extern "C" __attribute__((global))
#define DEV static __attribute__((device)) __attribute__((always_inline))

DEV unsigned warp_size(void)
{
	unsigned w;
	asm("mov.u32 %0, WARP_SZ;" : "=r"(w));
	return w;
}

DEV unsigned lane_id(void)
{
	unsigned l;
	asm("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}

DEV unsigned long long lanemask_lt(void)
{
	unsigned long long m;
	asm("mov.b64 %0, %%lanemask_lt;" : "=l"(m));
	return m;
}

DEV unsigned long long ballot(int pred)
{
	unsigned long long m;
	asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.sync.ballot.b32 %0, p, -1; }"
	             : "=l"(m)
	             : "r"(pred));
	return m;
}

DEV unsigned long long match_any(int key)
{
	unsigned long long m;
	asm volatile("match.any.sync.b32 %0, %1, -1;" : "=l"(m) : "r"(key));
	return m;
}

// out[lane] = sum of the values of lanes >= lane (the shuffle from beyond the last lane
// reports "out of range" through its predicate and contributes 0).
DEV int reverse_cumsum(int v)
{
	for (unsigned off = 1; off < warp_size(); off *= 2) {
		int other;
		asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %1, %2, %3, -1; "
		             "@!p mov.b32 %0, 0; }"
		             : "=r"(other)
		             : "r"(v), "r"(off), "r"(warp_size() - 1));
		v += other;
	}
	return v;
}

// every lane gets the sum of the whole warp
DEV int butterfly_sum(int v)
{
	for (unsigned off = warp_size() / 2; off > 0; off /= 2) {
		int other;
		asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, -1;"
		             : "=r"(other)
		             : "r"(v), "r"(off), "r"(warp_size() - 1));
		v += other;
	}
	return v;
}

KERNEL void warp_portable(const int *in, int *cumsum, int *total, int *compact, int *counts,
                          int *dedup)
{
	unsigned i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
	             __nvvm_read_ptx_sreg_tid_x();
	int v = in[i];
	cumsum[i] = reverse_cumsum(v);
	total[i] = butterfly_sum(v);
	// stream compaction: the multiples of 3 of each warp, in lane order, at the warp's base
	unsigned base = i - lane_id();
	int keep = v % 3 == 0;
	unsigned long long kept = ballot(keep);
	if (keep)
		compact[base + __builtin_popcountll(kept & lanemask_lt())] = v;
	if (lane_id() == 0)
		counts[i / warp_size()] = __builtin_popcountll(kept);
	// deduplication: the lowest lane of each group of equal keys reports the group's size
	int key = v & 7;
	unsigned long long peers = match_any(key);
	int leader = __builtin_ctzll(peers);
	dedup[i] = (int)lane_id() == leader ? __builtin_popcountll(peers) : 0;
}
