/* Copy coalescing of phi copies, before allocation.
 *
 * Phis become parallel copies `p <- v` at the end of each predecessor (mir.h).  The
 * allocator's intervals have no holes, so a loop-carried value p (live around the whole
 * loop) and the value v computed for the next iteration always overlap, and every
 * iteration would end in a move per loop-carried value (64 of them in a register-blocked
 * SGEMM) and hold both in registers.  This pass makes v's definition write p directly
 * and drops the copy, when that cannot change what any instruction reads:
 *   - v has one definition, writing all of it, in the copy's block B, before the copy;
 *     its uses in B come after that definition; uses in other blocks (the loop's exit
 *     phi copies, code after the loop) are renamed too when every other definition of
 *     p is in an earlier block (see can_coalesce; measured on a register-blocked SGEMM:
 *     64 moves per iteration fewer, the same registers);
 *   - between that definition and the end of B nothing else reads or writes p (the old
 *     value of p is dead once v exists) and nothing writes EXEC (the definition and the
 *     copy update the same lanes) but a WMMA's EXEC bracket (sel_mma.c), which restores
 *     the EXEC it saved (v defined inside one, the WMMA's D, is refused: the WMMA writes
 *     every lane);
 *   - p and v are the same kind of register (file, size, alignment); v is not the
 *     destination of an atomic that returns into its data operand.
 * Then p holds v's value from its definition on, exactly where v did.
 *   requires: virtual registers.  breaks: nothing (fewer copies, fewer registers).
 *   complexity: O(instructions) to count, plus a scan of the rest of the block per
 *   candidate copy; renames in other blocks go through a map (renamed[v]: what v became)
 *   applied to each block once before it is examined and to all blocks at the end, not
 *   a scan of the whole function per coalesced copy. */
#include <string.h>

#include "mir/mir.h"

enum { NONE = 0xffffffffu };

struct vinfo {
	uint32_t ndefs, def_block, def_index;
	bool partial_def, bad_use, rtn;
	bool outside_use;                      /* used in a block other than the defining one */
	uint32_t last_def_block, defs_in_last; /* the latest block (linear order) defining it,
	                                        * and its definitions there */
};

static bool full_width(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->sub == 0 && (o->width == 0 || o->width == fn->vregs[o->v].size);
}

static void count(const struct mir_function *fn, struct vinfo *vi)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG || !mir_opnd_is_def(in, k))
					continue;
				struct vinfo *v = &vi[o->v];
				v->ndefs++;
				if (v->ndefs == 1 || b > v->last_def_block) {
					v->last_def_block = b;
					v->defs_in_last = 0;
				}
				v->defs_in_last++;
				v->def_block = b;
				v->def_index = i;
				v->partial_def |= !full_width(fn, o);
				v->rtn |= in->rtn != 0;
			}
		}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG || mir_opnd_is_def(in, k))
					continue;
				struct vinfo *v = &vi[o->v];
				if (v->ndefs == 1 && v->def_block != b)
					v->outside_use = true;
				else if (v->ndefs != 1 || v->def_block != b || i <= v->def_index)
					v->bad_use = true;
				v->rtn |= in->rtn != 0;
			}
		}
}

static bool mentions(const struct mir_insn *in, uint32_t vreg)
{
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == vreg)
			return true;
	return false;
}

/* Whether instruction j of bl is a WMMA's bracket or the WMMA inside one (the restore just
 * after it); not a definition just before the bracket's s_or_saveexec, which sees the EXEC
 * the restore gives back. */
static bool inside_wmma_bracket(const struct mir_block *bl, uint32_t j)
{
	if (mir_wmma_bracket(bl, j))
		return true;
	if (j + 1 >= bl->ninsns || !mir_wmma_bracket(bl, j + 1))
		return false;
	uint16_t next = bl->insns[j + 1].op;
	return next != AMD_OP_S_OR_SAVEEXEC_B32 && next != AMD_OP_S_OR_SAVEEXEC_B64;
}

/* Whether copy c (block b, index ci) can be coalesced.  last_exec: the block's latest
 * instruction before ci that writes EXEC (NONE: none; renames and deleted copies do not
 * change which instructions write it). */
static bool can_coalesce(const struct mir_function *fn, const struct vinfo *vi, uint32_t b,
                         uint32_t ci, uint32_t last_exec)
{
	const struct mir_block *bl = &fn->blocks[b];
	const struct mir_insn *c = &bl->insns[ci];
	const struct mir_opnd *d = &c->opnds[0], *s = &c->opnds[1];
	if (c->op != MIR_COPY || d->kind != MIR_VREG || s->kind != MIR_VREG || d->v == s->v ||
	    !full_width(fn, d) || !full_width(fn, s))
		return false;
	const struct mir_vreg *p = &fn->vregs[d->v], *v = &fn->vregs[s->v];
	if (p->file != v->file || p->size != v->size || p->align != v->align)
		return false;
	const struct vinfo *x = &vi[s->v];
	if (x->ndefs != 1 || x->partial_def || x->bad_use || x->rtn || x->def_block != b ||
	    x->def_index >= ci || vi[d->v].rtn)
		return false;
	/* v used in other blocks (all dominated by its definition): those uses read p, which
	 * is right if no other definition of p can come between; the other definitions of p
	 * (the copies into the same phi from the loop's other predecessors) must be in
	 * earlier blocks of the linear order, where the loop is contiguous: a path from B
	 * through one of them to a use then passes B again (else the use would be reachable
	 * without B).  A copy in a preheader, whose loop redefines p later, is refused. */
	if (x->outside_use && (vi[d->v].last_def_block != b || vi[d->v].defs_in_last != 1))
		return false;
	if (last_exec != NONE && last_exec >= x->def_index) /* the definition or one after it */
		return false;
	if (inside_wmma_bracket(bl, x->def_index))
		return false; /* (last_exec passes over brackets) */
	for (uint32_t i = x->def_index + 1; i < bl->ninsns; i++)
		if (i != ci && mentions(&bl->insns[i], d->v))
			return false;
	return true;
}

static void rename_vreg(struct mir_block *bl, uint32_t from_index, uint32_t from, uint32_t to)
{
	for (uint32_t i = from_index; i < bl->ninsns; i++) {
		struct mir_insn *in = &bl->insns[i];
		for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
			if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == from)
				in->opnds[k].v = to;
	}
}

/* What vreg v has become after the coalescings so far (renamed[] chains end at NONE). */
static uint32_t current_name(const uint32_t *renamed, uint32_t v)
{
	while (renamed[v] != NONE)
		v = renamed[v];
	return v;
}

/* Applies the renames recorded so far to every vreg operand of block bl. */
static void apply_renames(struct mir_block *bl, const uint32_t *renamed)
{
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		struct mir_insn *in = &bl->insns[i];
		for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
			if (in->opnds[k].kind == MIR_VREG)
				in->opnds[k].v = current_name(renamed, in->opnds[k].v);
	}
}

/* Block b: coalesces its copies and deletes them.  A source used in other blocks is
 * renamed there through `renamed` (blocks after b get it before they are examined, blocks
 * before b at the end): the same names an immediate rename of every block would give. */
static unsigned coalesce_block(struct mir_function *fn, struct vinfo *vi, uint32_t *renamed,
                               uint32_t b)
{
	struct mir_block *bl = &fn->blocks[b];
	unsigned removed = 0;
	apply_renames(bl, renamed);
	uint32_t last_exec = NONE; /* (asked once per instruction, as the scan passes it) */
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		struct mir_insn *in = &bl->insns[i];
		if ((in->flags & MIR_IF_PARALLEL) && can_coalesce(fn, vi, b, i, last_exec)) {
			uint32_t p = in->opnds[0].v, v = in->opnds[1].v;
			rename_vreg(bl, vi[v].def_index, v, p);
			if (vi[v].outside_use)
				renamed[v] = p;
			vi[v].ndefs = 0;      /* v is gone */
			in->op = MIR_NUM_OPS; /* deleted below */
			removed++;
		}
		/* (a deleted copy wrote no EXEC either; a WMMA's bracket gives EXEC back as it
		 * found it, so a definition before it and a copy after it see the same lanes) */
		if (mir_writes_exec(fn, in) && !mir_wmma_bracket(bl, i))
			last_exec = i;
	}
	uint32_t out = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op != MIR_NUM_OPS)
			bl->insns[out++] = bl->insns[i];
	bl->ninsns = out;
	return removed;
}

unsigned mir_coalesce_phi_copies(struct mir_function *fn)
{
	struct vinfo *vi = PA_NEW_ARRAY(mir_pass_arena(fn), struct vinfo, fn->nvregs + 1);
	uint32_t *renamed = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	memset(renamed, 0xff, (fn->nvregs + 1) * sizeof *renamed);
	count(fn, vi);
	unsigned removed = 0;
	bool any_outside = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		removed += coalesce_block(fn, vi, renamed, b);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		any_outside |= renamed[v] != NONE;
	if (any_outside)
		for (uint32_t b = 0; b < fn->nblocks; b++)
			apply_renames(&fn->blocks[b], renamed);
	return removed;
}
