/* mir_drop_overwritten_exec: an EXEC copy at the end of a block whose one successor starts
 * by copying EXEC again goes.
 *
 * Two nested joins that end together leave `s_mov_b64 exec, s[10:11]` (the inner region's
 * saved EXEC, at the end of its block) followed by `s_mov_b64 exec, s[8:9]` (the outer
 * one's, first in the next block): no instruction between them runs under the first value
 * (histogram's loop inside `if (i < n)`: one SALU per wave).  The first copy goes when it is
 * the last instruction of its block (no branch: the block falls through to its one
 * successor) and that successor's first instruction (past empty one-successor blocks) is a plain
 * copy of a register into all of EXEC (s_mov_b64 exec on wave64, s_mov_b32 exec_lo on wave32),
 * which neither reads EXEC nor depends on how the wave got there.  s_mov writes no SCC, so nothing
 * else is lost. requires: final blocks (after allocation and mir_drop_branches_to_next, before
 * sched_waitcnt and sched_hazards).  breaks: nothing.  complexity: O(blocks). */
#include "isa/isa.h"
#include "mir/mir.h"

/* Whether `in` is `s_mov exec, REG` writing all of the wave's EXEC from a register. */
static bool copies_into_exec(const struct mir_function *fn, const struct mir_insn *in)
{
	unsigned mov = fn->wave_size == 64 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32;
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return in->op == mov && in->nopnds == 2 && d->kind == MIR_SPECIAL &&
	       d->v == AMD_SPEC_EXEC && (s->kind == MIR_SGPR || s->kind == MIR_VREG);
}

unsigned mir_drop_overwritten_exec(struct mir_function *fn)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		if (!bl->ninsns || bl->nsucc != 1 ||
		    !copies_into_exec(fn, &bl->insns[bl->ninsns - 1]))
			continue;
		uint32_t s = bl->succ[0];
		for (uint32_t k = 0; k < fn->nblocks && s < fn->nblocks && s != b &&
		                     !fn->blocks[s].ninsns && fn->blocks[s].nsucc == 1;
		     k++) /* empty blocks (emptied joins) pass the lanes on */
			s = fn->blocks[s].succ[0];
		if (s >= fn->nblocks || s == b || !fn->blocks[s].ninsns ||
		    !copies_into_exec(fn, &fn->blocks[s].insns[0]))
			continue;
		bl->ninsns--;
		n++;
	}
	return n;
}
