/* mir_coalesce_lane_regions: a VGPR value carried through a region that runs on a subset of
 * the lanes takes the register of the value it is copied into at the region's end.
 *
 * The shape (nvcc's remainder loops, selected): before an `if` or loop region, A = x for all
 * lanes; in the region, which EXEC narrows to lanes L, B = x, B changes (a loop's phi), and
 * at the region's end, with EXEC back to exactly L, A = B.  A is live across the region (the
 * lanes outside L keep it), B inside it, so they interfere for the allocator and the region
 * costs a v_mov at its start and one at its end per value, every time it runs.  But a VALU
 * write changes only the active lanes: renaming B to A makes every write of B inside the
 * region a write of A's lanes in L, which the end copy overwrote with B's value anyway, and
 * leaves A's other lanes as they were.  So B becomes A when:
 *   - the end copy `A = B` (whole VGPR vregs of one size) and every definition and use of B
 *     lie in the linear range from B's first definition D (the region's start) to the end
 *     copy P, and A is mentioned nowhere in that range but at P, nor in D's or P's parallel
 *     copy group (whose other copies read the old values);
 *   - no definition of B ignores EXEC (v_writelane_b32);
 *   - EXEC at P is exactly EXEC at D (L) and never holds a lane outside L in between: scanning
 *     the range, EXEC writes are only `exec &= m` forms (s_and/s_andn2 of exec, s_and_saveexec,
 *     s_andn1_saveexec) and restores `exec = s` from a copy of EXEC saved in the range while
 *     EXEC was exactly L (and not written since); the state at P must be "exactly L";
 *   - control flow cannot enter the range but at its first block, nor leave it before P: every
 *     branch target inside the range is a block of the range after D's block, and no block
 *     outside it has a successor inside it but D's block.
 * Then P (now `A = A`) is deleted, and so is D (`A = x`) where the last definition of A before
 * it is `A = x` with the same source, in D's block or its fall-through predecessor that is its
 * only way in, neither A nor x written between and EXEC only narrowed between (so L lies in the
 * lanes that copy wrote).
 * requires: MIR on virtual registers before allocation (after mir_coalesce_phi_copies: the
 * copies left are the ones that interfere).  breaks: nothing.
 * complexity: O(candidates x instructions of their ranges). */
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

/* A position in the linear order. */
struct pos {
	uint32_t b, i;
};

static bool before(struct pos x, struct pos y)
{
	return x.b < y.b || (x.b == y.b && x.i < y.i);
}

static bool is_exec(const struct mir_opnd *o)
{
	return o->kind == MIR_SPECIAL && (o->v == AMD_SPEC_EXEC || o->v == AMD_SPEC_EXEC_LO);
}

static bool whole_vgpr_copy(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op != MIR_COPY)
		return false;
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return d->kind == MIR_VREG && s->kind == MIR_VREG && d->v != s->v && d->sub == 0 &&
	       s->sub == 0 && fn->vregs[d->v].file == MIR_VGPR &&
	       fn->vregs[s->v].file == MIR_VGPR && fn->vregs[d->v].size == d->width &&
	       fn->vregs[s->v].size == s->width && d->width == s->width &&
	       fn->vregs[d->v].align == fn->vregs[s->v].align;
}

static bool mentions(const struct mir_insn *in, uint32_t v, bool defs_only)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v &&
		    (!defs_only || mir_opnd_is_def(in, k)))
			return true;
	return false;
}

/* The first and last instruction of the parallel copy group around position i. */
static void group(const struct mir_block *bl, uint32_t i, uint32_t *first, uint32_t *last)
{
	*first = *last = i;
	if (!(bl->insns[i].flags & MIR_IF_PARALLEL))
		return;
	while (*first > 0 && (bl->insns[*first - 1].flags & MIR_IF_PARALLEL))
		--*first;
	while (*last + 1 < bl->ninsns && (bl->insns[*last + 1].flags & MIR_IF_PARALLEL))
		++*last;
}

static bool group_mentions(const struct mir_block *bl, uint32_t i, uint32_t v)
{
	uint32_t first, last;
	group(bl, i, &first, &last);
	for (uint32_t k = first; k <= last; k++)
		if (k != i && mentions(&bl->insns[k], v, false))
			return true;
	return false;
}

/* Whether another copy of the parallel group around i writes v (the group reads first). */
static bool group_writes(const struct mir_block *bl, uint32_t i, uint32_t v)
{
	uint32_t first, last;
	group(bl, i, &first, &last);
	for (uint32_t k = first; k <= last; k++)
		if (k != i && mentions(&bl->insns[k], v, true))
			return true;
	return false;
}

/* EXEC state of the scan: whether EXEC is exactly L, and the SGPRs holding L (up to 4). */
enum { MAX_SAVED = 4 };
struct exec_state {
	bool exact;
	struct mir_opnd saved[MAX_SAVED];
	unsigned nsaved;
};

static bool same_sgpr(const struct mir_opnd *a, const struct mir_opnd *b)
{
	return a->kind == b->kind && a->v == b->v && a->width == b->width && a->sub == b->sub &&
	       (a->kind == MIR_SGPR || a->kind == MIR_VREG);
}

static bool overlaps(const struct mir_opnd *a, const struct mir_opnd *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == MIR_VREG)
		return a->v == b->v;
	return a->kind == MIR_SGPR && a->v < b->v + b->width && b->v < a->v + a->width;
}

static void forget_written(struct exec_state *st, const struct mir_insn *in)
{
	if (!st->nsaved)
		return; /* (the common case: a scan's every instruction comes here) */
	for (unsigned k = 0; k < in->nopnds; k++) {
		if (!mir_opnd_is_def(in, k))
			continue;
		for (unsigned s = 0; s < st->nsaved; s++)
			if (overlaps(&in->opnds[k], &st->saved[s]))
				st->saved[s--] = st->saved[--st->nsaved];
	}
}

static void remember(struct exec_state *st, const struct mir_opnd *o)
{
	if (st->exact && st->nsaved < MAX_SAVED && (o->kind == MIR_SGPR || o->kind == MIR_VREG))
		st->saved[st->nsaved++] = *o;
}

/* An EXEC write that keeps EXEC a subset of what it was: exec &= m. */
static bool narrows_exec(const struct mir_insn *in)
{
	const struct mir_opnd *o = in->opnds;
	switch (in->op) {
	case AMD_OP_S_AND_B64:
	case AMD_OP_S_AND_B32:
		return is_exec(&o[0]) && (is_exec(&o[1]) || is_exec(&o[2]));
	case AMD_OP_S_ANDN2_B64:
	case AMD_OP_S_ANDN2_B32:
		return is_exec(&o[0]) && is_exec(&o[1]);
	case AMD_OP_S_AND_SAVEEXEC_B64:
	case AMD_OP_S_AND_SAVEEXEC_B32:
	case AMD_OP_S_ANDN1_SAVEEXEC_B64:
	case AMD_OP_S_ANDN1_SAVEEXEC_B32:
		return true;
	default:
		return false;
	}
}

static bool is_saveexec(unsigned op)
{
	return op == AMD_OP_S_AND_SAVEEXEC_B64 || op == AMD_OP_S_AND_SAVEEXEC_B32 ||
	       op == AMD_OP_S_ANDN1_SAVEEXEC_B64 || op == AMD_OP_S_ANDN1_SAVEEXEC_B32;
}

/* One instruction of the EXEC scan (writes_exec: mir_writes_exec of it); false when EXEC may
 * hold a lane outside L. */
static bool step_exec(struct exec_state *st, const struct mir_insn *in, bool writes_exec)
{
	bool mov = in->op == AMD_OP_S_MOV_B64 || in->op == AMD_OP_S_MOV_B32;
	if (mov && is_exec(&in->opnds[1]) && !is_exec(&in->opnds[0])) { /* s = exec */
		forget_written(st, in);
		remember(st, &in->opnds[0]);
		return true;
	}
	if (!writes_exec) {
		forget_written(st, in);
		return true;
	}
	if (mov && is_exec(&in->opnds[0])) { /* exec = s: exactly L when s holds L */
		for (unsigned s = 0; s < st->nsaved; s++)
			if (same_sgpr(&in->opnds[1], &st->saved[s])) {
				st->exact = true;
				return true;
			}
		return false;
	}
	if (!narrows_exec(in))
		return false;
	bool was_exact = st->exact;
	forget_written(st, in);
	if (is_saveexec(in->op) && was_exact)
		remember(st, &in->opnds[0]);
	st->exact = false;
	return true;
}

/* Whether control flow enters the blocks [sb, eb] only at sb and leaves them only from eb
 * (branch targets inside them are among sb+1 .. eb). */
static bool single_entry(const struct mir_function *fn, uint32_t sb, uint32_t eb)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		bool inside = b >= sb && b <= eb;
		for (unsigned s = 0; s < bl->nsucc; s++) {
			uint32_t t = bl->succ[s];
			bool target_inside = t > sb && t <= eb;
			if (inside && b != eb && !target_inside)
				return false;
			if (!inside && target_inside)
				return false;
		}
	}
	return true;
}

struct lanes {
	struct mir_function *fn;
	struct pos *first, *last; /* per vreg: first and last mention (b = UINT32_MAX: none) */
	bool **dead;              /* per block, per instruction: deleted */
	/* per block, per instruction: mir_writes_exec as met (0: not asked yet, 1: no, 2: yes);
	 * the ranges of a loop's carried values overlap, and each scan asked it of every
	 * instruction again.  Renaming vregs does not change it. */
	uint8_t **writes_exec;
};

/* Block b's row of writes_exec (made on first use). */
static uint8_t *exec_writes_of(struct lanes *ls, uint32_t b)
{
	struct mir_function *fn = ls->fn;
	if (!ls->writes_exec)
		ls->writes_exec = PA_NEW_ARRAY(fn->arena, uint8_t *, fn->nblocks + 1);
	if (!ls->writes_exec[b])
		ls->writes_exec[b] = PA_NEW_ARRAY(fn->arena, uint8_t, fn->blocks[b].ninsns + 1);
	return ls->writes_exec[b];
}

/* mir_writes_exec of in, instruction i of the block whose row is w. */
static inline bool writes_exec_at(const struct mir_function *fn, uint8_t *w, uint32_t i,
                                  const struct mir_insn *in)
{
	if (!w[i])
		w[i] = mir_writes_exec(fn, in) ? 2 : 1;
	return w[i] == 2;
}

static bool is_dead(const struct lanes *ls, uint32_t b, uint32_t i)
{
	return ls->dead[b] && ls->dead[b][i];
}

static void kill(struct lanes *ls, struct pos p)
{
	if (!ls->dead[p.b])
		ls->dead[p.b] =
		        PA_NEW_ARRAY(mir_pass_arena(ls->fn), bool, ls->fn->blocks[p.b].ninsns + 1);
	ls->dead[p.b][p.i] = true;
}

/* Checks the range [d, p] for renaming b to a. */
static bool region_ok(struct lanes *ls, struct pos d, struct pos p, uint32_t a, uint32_t b)
{
	const struct mir_function *fn = ls->fn;
	if (!single_entry(fn, d.b, p.b))
		return false;
	struct exec_state st = {.exact = true};
	for (uint32_t bb = d.b; bb <= p.b; bb++) {
		const struct mir_block *bl = &fn->blocks[bb];
		uint32_t from = bb == d.b ? d.i : 0, to = bb == p.b ? p.i : bl->ninsns;
		uint8_t *w = exec_writes_of(ls, bb);
		for (uint32_t i = from; i < to; i++) {
			const struct mir_insn *in = &bl->insns[i];
			if (is_dead(ls, bb, i))
				continue;
			if (mentions(in, a, false) ||
			    (in->op == AMD_OP_V_WRITELANE_B32 && mentions(in, b, true)))
				return false;
			if (!step_exec(&st, in, writes_exec_at(fn, w, i, in)))
				return false;
		}
	}
	return st.exact && !group_mentions(&fn->blocks[d.b], d.i, a) &&
	       !group_mentions(&fn->blocks[p.b], p.i, a) &&
	       !group_mentions(&fn->blocks[d.b], d.i, b) &&
	       !group_mentions(&fn->blocks[p.b], p.i, b);
}

/* Whether the copy D = `a = x` (after renaming) is redundant: the last definition of a
 * before it is `a = x`, in D's block or its only predecessor falling through to it, with
 * neither a nor x written and EXEC only narrowed in between. */
static bool start_redundant(struct lanes *ls, struct pos d, uint32_t a)
{
	const struct mir_function *fn = ls->fn;
	const struct mir_insn *dc = &fn->blocks[d.b].insns[d.i];
	const struct mir_opnd *x = &dc->opnds[1];
	if (x->kind != MIR_VREG && x->kind != MIR_IMM)
		return false;
	struct pos at = d;
	for (unsigned blocks = 0; blocks < 2; blocks++) {
		const struct mir_block *bl = &fn->blocks[at.b];
		for (uint32_t i = at.i; i-- > 0;) {
			const struct mir_insn *in = &bl->insns[i];
			if (is_dead(ls, at.b, i))
				continue;
			if (in->op == MIR_COPY && in->opnds[0].kind == MIR_VREG &&
			    in->opnds[0].v == a)
				return in->opnds[0].width == dc->opnds[0].width &&
				       in->opnds[1].kind == x->kind && in->opnds[1].v == x->v &&
				       in->opnds[1].sub == x->sub &&
				       in->opnds[1].width == x->width &&
				       !(x->kind == MIR_VREG && group_writes(bl, i, x->v));
			if (mentions(in, a, true) ||
			    (x->kind == MIR_VREG && mentions(in, x->v, true)) ||
			    (writes_exec_at(fn, exec_writes_of(ls, at.b), i, in) &&
			     !narrows_exec(in)))
				return false;
		}
		if (at.b == 0)
			return false;
		const struct mir_block *prev = &fn->blocks[at.b - 1];
		if (prev->nsucc == 0 || prev->succ[0] != at.b)
			return false;
		for (uint32_t o = 0; o < fn->nblocks; o++) /* the only way into at.b */
			for (unsigned s = 0; s < fn->blocks[o].nsucc; s++)
				if (fn->blocks[o].succ[s] == at.b && o != at.b - 1)
					return false;
		at = (struct pos){at.b - 1, prev->ninsns};
	}
	return false;
}

/* Renames b to a in [d, p] (every mention of b lies there). */
static void rename_range(struct lanes *ls, struct pos d, struct pos p, uint32_t b, uint32_t a)
{
	for (uint32_t bb = d.b; bb <= p.b; bb++) {
		struct mir_block *bl = &ls->fn->blocks[bb];
		uint32_t from = bb == d.b ? d.i : 0, to = bb == p.b ? p.i : bl->ninsns - 1;
		for (uint32_t i = from; i <= to && i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && o->v == b)
					o->v = a;
			}
	}
	if (before(d, ls->first[a]))
		ls->first[a] = d;
	ls->first[b].b = ls->last[b].b = UINT32_MAX;
}

/* Tries the end copy at p; true when it renamed. */
static bool try_copy(struct lanes *ls, struct pos p)
{
	struct mir_function *fn = ls->fn;
	const struct mir_insn *pc = &fn->blocks[p.b].insns[p.i];
	if (!whole_vgpr_copy(fn, pc))
		return false;
	uint32_t a = pc->opnds[0].v, b = pc->opnds[1].v;
	struct pos d = ls->first[b];
	if (d.b == UINT32_MAX || is_dead(ls, d.b, d.i) || ls->last[b].b != p.b ||
	    ls->last[b].i != p.i || !before(d, p))
		return false;
	const struct mir_insn *dc = &fn->blocks[d.b].insns[d.i];
	if (dc->op != MIR_COPY || dc->opnds[0].kind != MIR_VREG || dc->opnds[0].v != b ||
	    (dc->opnds[1].kind == MIR_VREG && dc->opnds[1].v == b) || !region_ok(ls, d, p, a, b))
		return false;
	rename_range(ls, d, p, b, a);
	kill(ls, p);
	if (start_redundant(ls, d, a))
		kill(ls, d);
	return true;
}

static void note_mentions(struct lanes *ls)
{
	struct mir_function *fn = ls->fn;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ls->first[v].b = ls->last[v].b = UINT32_MAX;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				if (in->opnds[k].kind != MIR_VREG)
					continue;
				uint32_t v = in->opnds[k].v;
				if (ls->first[v].b == UINT32_MAX)
					ls->first[v] = (struct pos){b, i};
				ls->last[v] = (struct pos){b, i};
			}
		}
}

unsigned mir_coalesce_lane_regions(struct mir_function *fn)
{
	struct lanes ls = {.fn = fn};
	ls.first = PA_NEW_ARRAY(mir_pass_arena(fn), struct pos, fn->nvregs + 1);
	ls.last = PA_NEW_ARRAY(mir_pass_arena(fn), struct pos, fn->nvregs + 1);
	ls.dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool *, fn->nblocks + 1);
	note_mentions(&ls);
	unsigned renamed = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			if (!is_dead(&ls, b, i))
				renamed += try_copy(&ls, (struct pos){b, i});
	if (!renamed)
		return 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		uint32_t out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (!is_dead(&ls, b, i))
				bl->insns[out++] = bl->insns[i];
		bl->ninsns = out;
	}
	return renamed;
}
