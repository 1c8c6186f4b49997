// clang-19's CUDA warp builtins (the forms its NVPTX back end prints: immediate lane and
// c operands, -1 for a full membermask, shfl predicates), for 32-lane warps.  PTX:
// tests/exec/ptx/warp_nvvm.ptx (command there); reference: tests/exec/cases/cases_warp.py.
#define KERNEL extern "C" __attribute__((global))

KERNEL void warp_nvvm(const int *in, int *out)
{
	unsigned i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
	             __nvvm_read_ptx_sreg_tid_x();
	int v = in[i];
	int *o = out + 10 * i;
	o[0] = __nvvm_shfl_sync_idx_i32(0xffffffff, v, 0, 0x1f);
	o[1] = __nvvm_shfl_sync_up_i32(0xffffffff, v, 2, 0);
	o[2] = __nvvm_shfl_sync_down_i32(0xffffffff, v, 7, 0x1f);
	o[3] = __nvvm_shfl_sync_bfly_i32(0xffffffff, v, 12, 0x1f);
	o[4] = (int)__nvvm_vote_ballot_sync(0xffffffff, v > 0);
	o[5] = __nvvm_vote_all_sync(0xffffffff, v > -900);
	o[6] = __nvvm_vote_any_sync(0xffffffff, v > 990);
	o[7] = __nvvm_vote_uni_sync(0xffffffff, (v & 1) != 0);
	o[8] = (int)__nvvm_match_any_sync_i32(0xffffffff, v & 3);
	o[9] = (int)__nvvm_redux_sync_umax((unsigned)v, 0xffffffff);
}
