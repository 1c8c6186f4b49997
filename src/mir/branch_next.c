/* mir_drop_branches_to_next: a branch whose target is where the code goes on anyway goes.
 *
 * The control-flow lowering ends a block with `s_branch L` (or a conditional branch to L)
 * where every block between it and L is empty once the clean-ups are done (a loop's exit
 * block whose successor region emptied, blocks no path reaches that mir_remove_dead_code
 * emptied): the code falls through to L without it.  A taken branch costs the wave an
 * instruction refetch (amdsim's CU model: 32 cycles, docs/SIMULATOR.md), and an s_branch an
 * issue besides; a conditional branch to the fall-through address leads to the same
 * instruction either way.  Only the branch row's control effect is lost: s_cbranch_* reads
 * SCC, VCC or EXEC and writes nothing, s_branch neither.
 *
 * The block then falls through, its one linear successor L (the empty blocks between are
 * passed over, with no instruction to run; their own successor lists are left as they are).
 * requires: final blocks (after allocation and the post-allocation schedule, before
 * sched_waitcnt and sched_hazards, which then walk the block's real predecessors and count
 * wait states without the branch).  breaks: nothing.  complexity: O(blocks). */
#include "isa/isa.h"
#include "mir/mir.h"

static bool is_local_branch(const struct mir_insn *in)
{
	switch (in->op) {
	case AMD_OP_S_BRANCH:
	case AMD_OP_S_CBRANCH_SCC0:
	case AMD_OP_S_CBRANCH_SCC1:
	case AMD_OP_S_CBRANCH_VCCZ:
	case AMD_OP_S_CBRANCH_VCCNZ:
	case AMD_OP_S_CBRANCH_EXECZ:
	case AMD_OP_S_CBRANCH_EXECNZ:
		return in->nopnds == 1 && in->opnds[0].kind == MIR_BLOCK;
	default:
		return false;
	}
}

unsigned mir_drop_branches_to_next(struct mir_function *fn)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		if (!bl->ninsns || !is_local_branch(&bl->insns[bl->ninsns - 1]))
			continue;
		uint32_t target = bl->insns[bl->ninsns - 1].opnds[0].v, between = b + 1;
		if (target <= b || target >= fn->nblocks)
			continue;
		while (between < target && fn->blocks[between].ninsns == 0)
			between++;
		if (between != target)
			continue;
		bl->ninsns--;
		bl->succ[0] = target;
		bl->nsucc = 1;
		bl->skip_succ = 0;
		n++;
	}
	return n;
}
