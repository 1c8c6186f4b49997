/* Operand rewriting: every MIR_VREG operand becomes the physical MIR_SGPR / MIR_VGPR
 * operand its virtual register was given (first register + sub-register offset).
 * requires: ra_linscan (every referenced vreg has phys >= 0).  breaks: the virtual view
 * of the function (intervals stay valid: instructions are not moved).
 * complexity: O(operands). */
#include "regalloc/ra_int.h"

void ra_rewrite(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind != MIR_VREG)
					continue;
				const struct mir_vreg *vr = &fn->vregs[o->v];
				o->kind = vr->file;
				o->v = (uint32_t)vr->phys + o->sub;
				o->sub = 0;
			}
	}
}
