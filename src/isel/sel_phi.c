/* sel_phi: phis out of SSA on EXEC-mask control flow, and lane masks that must keep the
 * bits of lanes that are not there.
 *
 * A phi of block J becomes copies at the end of each predecessor, under its EXEC, into
 * the phi's register; then J's code reads it.  Two things make a plain copy wrong:
 *  - the lost copy: a predecessor b that J dominates (a latch) also branches elsewhere,
 *    and the phi's value is live on that other edge (the header's value used after the
 *    loop): the copy for the back edge would overwrite what the exit reads, in every
 *    lane (scalar code), or in the exiting lanes (they are in b's EXEC too).  Such a phi
 *    is *isolated*: its copies go to a register of their own, copied into the phi's
 *    register at J's start, where EXEC is J's lanes (plan_isolation);
 *  - lane masks: a divergent predicate is an SGPR with a bit per lane, and an SALU write
 *    replaces every lane's bit, not only those of EXEC.  A phi's copy in a predecessor
 *    run by some lanes would replace the bits of the lanes arriving by another edge; so
 *    copies into a mask merge by EXEC: dst = (dst & ~EXEC) | (src & EXEC) (what LLVM's
 *    SILowerI1Copies does).  The first predecessor in the linear order may write the
 *    whole mask when nothing else needs it: the others come later in the same walk.
 *    A mask defined in a loop whose lanes may leave in different iterations and read
 *    after the loop (temporal divergence) must likewise keep the bits of the lanes that
 *    left: its definition merges too (plan_mask_merge, sel_phi_merge_def).
 * requires: the IR's CFG analyses and uniformity.  Complexity: O(instructions x loop
 * depth) for the merge plan; for the isolation plan, O(instructions) plus, per phi of a
 * loop header whose latch also leaves, the blocks where it is live. */
#include "isel/isel_int.h"

#define NONE     0xffffffffu
#define ISOLATED 0xfffffffeu /* phi_tgt: its own register, not allocated yet */

/* Whether the use of a value defined in block db, made in block ub, lies outside a loop
 * around db whose lanes may leave in different iterations. */
static bool outside_divergent_loop(const struct ir_function *ir, uint32_t db, uint32_t ub)
{
	for (uint32_t l = ir->blocks[db].loop; l != IR_NO_LOOP; l = ir->loops[l].parent) {
		if (ir_in_loop(ir, ub, l))
			return false;
		if (ir->loops[l].divergent)
			return true;
	}
	return false;
}

static void note_use(struct isel *s, ir_ref r, uint32_t ub)
{
	const struct ir_value *v = &s->ir->vals[r];
	if (r == IR_NO_REF || v->kind != IR_VAL_INSN || v->type != IR_T_PRED || !v->divergent)
		return;
	if (outside_divergent_loop(s->ir, v->block, ub))
		s->mask_merge[r] = true;
}

/* mask_merge: the divergent predicates read outside a divergent loop they are defined in
 * (a phi's use is at the end of the predecessor it comes from). */
static void plan_mask_merge(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	for (uint32_t b = 0; b < ir->nblocks; b++) {
		const struct ir_block *bl = &ir->blocks[b];
		if (!bl->reachable)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI)
				for (uint32_t p = 0; p < bl->npreds; p++)
					note_use(s, in->phi_args[p], bl->preds[p]);
			else
				for (uint32_t k = 0; k < in->nargs; k++)
					note_use(s, in->args[k], b);
		}
	}
}

/* The branching predecessors of j that come after it (latches): the copies at their end
 * run before their branch, also for the lanes going to their other successor. */
static bool is_branching_latch(const struct ir_function *ir, uint32_t b, uint32_t j)
{
	const struct ir_block *bl = &ir->blocks[b];
	return bl->linear_pos >= ir->blocks[j].linear_pos && bl->nsuccs == 2 &&
	       bl->succs[0] != bl->succs[1];
}

struct live_walk {
	uint32_t *stamp; /* per block: phi + 1 when the phi is live-in there */
	uint32_t *queue;
	uint32_t nq;
};

/* Phi r is live-in at block u (a use there, or the end of u for a phi use): walk back to
 * its definition in j, stamping the blocks where it is live-in. */
static void live_back_from(const struct ir_function *ir, struct live_walk *w, ir_ref r, uint32_t j,
                           uint32_t u)
{
	if (u == j || w->stamp[u] == r + 1)
		return;
	w->stamp[u] = r + 1;
	w->queue[w->nq++] = u;
	while (w->nq) {
		const struct ir_block *bl = &ir->blocks[w->queue[--w->nq]];
		for (uint32_t p = 0; p < bl->npreds; p++) {
			uint32_t q = bl->preds[p];
			if (q != j && w->stamp[q] != r + 1) {
				w->stamp[q] = r + 1;
				w->queue[w->nq++] = q;
			}
		}
	}
}

/* Where the candidate phis are read: use_start[r] .. use_start[r + 1] index use_block,
 * the blocks reading them (a phi argument reads at the end of its predecessor). */
struct phi_uses {
	uint32_t *use_start, *use_block;
};

static void note_phi_use(const bool *cand, struct phi_uses *u, bool fill, ir_ref r, uint32_t b)
{
	if (r == IR_NO_REF || !cand[r])
		return;
	if (fill)
		u->use_block[--u->use_start[r]] = b;
	else
		u->use_start[r]++;
}

static void collect_uses(struct isel *s, const bool *cand, struct phi_uses *u)
{
	const struct ir_function *ir = s->ir;
	u->use_start = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nvals + 2);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t b = 0; b < ir->nblocks; b++) {
			const struct ir_block *bl = &ir->blocks[b];
			for (uint32_t i = 0; bl->reachable && i < bl->ninsns; i++) {
				const struct ir_insn *in = &bl->insns[i];
				if (in->op == IR_PHI)
					for (uint32_t p = 0; p < bl->npreds; p++)
						note_phi_use(cand, u, pass, in->phi_args[p],
						             bl->preds[p]);
				else
					for (uint32_t k = 0; k < in->nargs; k++)
						note_phi_use(cand, u, pass, in->args[k], b);
			}
		}
		if (pass == 0) {
			uint32_t total = 0;
			for (uint32_t v = 0; v <= ir->nvals; v++) {
				total += u->use_start[v];
				u->use_start[v] = total; /* end; decremented while filling */
			}
			u->use_start[ir->nvals + 1] = total;
			u->use_block = PA_NEW_ARRAY(s->mf->arena, uint32_t, total + 1);
		}
	}
}

/* The blocks where phi r of block j is live-in, stamped r + 1 (SSA liveness by paths from
 * its uses back to j). */
static void live_blocks(const struct ir_function *ir, const struct phi_uses *u, struct live_walk *w,
                        ir_ref r, uint32_t j)
{
	for (uint32_t k = u->use_start[r]; k < u->use_start[r + 1]; k++)
		live_back_from(ir, w, r, j, u->use_block[k]);
}

/* Whether phi r of block j is read after a latch's copies overwrite it: live-in at the
 * latch's other successor, or read by the latch's branch. */
static bool lost_copy(const struct ir_function *ir, const struct phi_uses *u, struct live_walk *w,
                      ir_ref r, uint32_t j)
{
	const struct ir_block *jb = &ir->blocks[j];
	bool walked = false;
	for (uint32_t p = 0; p < jb->npreds; p++) {
		uint32_t b = jb->preds[p];
		if (!is_branching_latch(ir, b, j))
			continue;
		const struct ir_block *bl = &ir->blocks[b];
		const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
		for (uint32_t k = 0; k < t->nargs; k++)
			if (t->args[k] == r)
				return true;
		if (!walked)
			live_blocks(ir, u, w, r, j);
		walked = true;
		if (w->stamp[bl->succs[bl->succs[0] == j]] == r + 1)
			return true;
	}
	return false;
}

static bool has_branching_latch(const struct ir_function *ir, uint32_t j)
{
	const struct ir_block *jb = &ir->blocks[j];
	for (uint32_t p = 0; jb->reachable && p < jb->npreds; p++)
		if (is_branching_latch(ir, jb->preds[p], j))
			return true;
	return false;
}

/* phi_tgt: NONE for a phi copied into its own register, else its copies' register
 * (ISOLATED until allocated) -- for the phis live past a latch that also leaves. */
static void plan_isolation(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	struct live_walk w = {.stamp = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nblocks + 1),
	                      .queue = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nblocks + 1)};
	bool *cand = PA_NEW_ARRAY(s->mf->arena, bool, ir->nvals + 1);
	for (uint32_t j = 0; j < ir->nblocks; j++)
		for (uint32_t i = 0; has_branching_latch(ir, j) && i < ir->blocks[j].ninsns &&
		                     ir->blocks[j].insns[i].op == IR_PHI;
		     i++)
			cand[ir->blocks[j].insns[i].res] = true;
	struct phi_uses u = {0};
	collect_uses(s, cand, &u);
	for (uint32_t j = 0; j < ir->nblocks; j++)
		for (uint32_t i = 0;
		     i < ir->blocks[j].ninsns && ir->blocks[j].insns[i].op == IR_PHI; i++) {
			ir_ref r = ir->blocks[j].insns[i].res;
			if (cand[r] && lost_copy(ir, &u, &w, r, j))
				s->phi_tgt[r] = ISOLATED;
		}
}

void sel_phi_plan(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	s->mask_merge = PA_NEW_ARRAY(s->mf->arena, bool, ir->nvals + 1);
	s->phi_tgt = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nvals + 1);
	for (uint32_t v = 0; v <= ir->nvals; v++)
		s->phi_tgt[v] = NONE;
	plan_mask_merge(s);
	plan_isolation(s);
}

/* The register the copies into phi r write. */
static uint32_t copy_target(struct isel *s, ir_ref r)
{
	uint32_t v = sel_def(s, r);
	const struct sel_val *sv = &s->vals[r];
	if (s->phi_tgt[r] == NONE)
		return v;
	if (s->phi_tgt[r] == ISOLATED)
		s->phi_tgt[r] =
		        sv->loc == LOC_VGPR ? sel_new_vgpr(s, sv->size) : sel_new_sgpr(s, sv->size);
	return s->phi_tgt[r];
}

/* (dst & ~EXEC) | (src & EXEC), in a new mask vreg; dst is read, not written. */
static struct mir_opnd merged(struct isel *s, struct mir_opnd dst, struct mir_opnd src)
{
	unsigned w = s->mask_dw;
	uint32_t keep = sel_new_sgpr(s, w), take = sel_new_sgpr(s, w), m = sel_new_sgpr(s, w);
	struct mir_opnd k[3] = {mir_vreg(keep, w), dst, sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3, k);
	struct mir_opnd t[3] = {mir_vreg(take, w), src, sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64), 3, t);
	struct mir_opnd o[3] = {mir_vreg(m, w), mir_vreg(keep, w), mir_vreg(take, w)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_OR_B32, AMD_OP_S_OR_B64), 3, o);
	return mir_vreg(m, w);
}

/* b is the first predecessor of j in the linear order, coming before j, and runs once per
 * walk to j (every loop around b is around j: not a loop exit, whose later iterations
 * would overwrite the lanes that left earlier): the copies of the walk's other
 * predecessors come after its own. */
static bool first_forward_pred(const struct ir_function *ir, uint32_t b, uint32_t j)
{
	const struct ir_block *jb = &ir->blocks[j];
	uint32_t pos = ir->blocks[b].linear_pos, l = ir->blocks[b].loop;
	if (pos >= jb->linear_pos || (l != IR_NO_LOOP && !ir_in_loop(ir, j, l)))
		return false;
	for (uint32_t p = 0; p < jb->npreds; p++)
		if (ir->blocks[jb->preds[p]].linear_pos < pos)
			return false;
	return true;
}

void sel_phi_copies(struct isel *s, uint32_t b, uint32_t succ)
{
	const struct ir_block *sb = &s->ir->blocks[succ];
	uint32_t edge = NONE;
	for (uint32_t p = 0; p < sb->npreds && edge == NONE; p++)
		if (sb->preds[p] == b)
			edge = p;
	if (edge == NONE)
		return;
	uint32_t nphi = 0;
	while (nphi < sb->ninsns && sb->insns[nphi].op == IR_PHI)
		nphi++;
	if (!nphi)
		return;
	bool first = first_forward_pred(s->ir, b, succ);
	/* sources first (they may need instructions), then the copies as one group */
	struct mir_opnd *src = PA_NEW_ARRAY(s->mf->arena, struct mir_opnd, 2 * nphi);
	struct mir_opnd *dst = PA_NEW_ARRAY(s->mf->arena, struct mir_opnd, 2 * nphi);
	uint32_t n = 0;
	for (uint32_t i = 0; i < nphi; i++) {
		const struct ir_insn *phi = &sb->insns[i];
		ir_ref a = phi->phi_args[edge], r = phi->res;
		uint32_t t = copy_target(s, r);
		const struct sel_val *sv = &s->vals[r];
		bool isolated = s->phi_tgt[r] != NONE;
		if (a == r && !isolated)
			continue;
		if (sv->loc == LOC_BOOL) {
			dst[n] = mir_vreg(t, 1);
			src[n++] = sel_bool_opnd(s, a);
		} else if (sv->loc == LOC_MASK) {
			dst[n] = mir_vreg(t, s->mask_dw);
			src[n] = sel_mask_opnd(s, a);
			if (!first || (!isolated && s->mask_merge[r]))
				src[n] = merged(s, dst[n], src[n]);
			n++;
		} else {
			for (unsigned k = 0; k < sv->size; k++) {
				dst[n] = sel_sub(t, k, 1);
				src[n++] = sv->loc == LOC_SGPR ? sel_sreg_opnd(s, a, k)
				                               : sel_vsrc_opnd(s, a, k);
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		struct mir_opnd ops[2] = {dst[i], src[i]};
		struct mir_insn *in = sel_emit(s, MIR_COPY, 2, ops);
		in->flags |= MIR_IF_PARALLEL;
	}
}

void sel_phi_entry(struct isel *s, uint32_t j)
{
	const struct ir_block *jb = &s->ir->blocks[j];
	for (uint32_t i = 0; i < jb->ninsns && jb->insns[i].op == IR_PHI; i++) {
		ir_ref r = jb->insns[i].res;
		if (s->phi_tgt[r] == NONE)
			continue;
		uint32_t v = sel_def(s, r), t = copy_target(s, r);
		const struct sel_val *sv = &s->vals[r];
		struct mir_opnd src = mir_vreg(t, sv->size), dst = mir_vreg(v, sv->size);
		if (sv->loc == LOC_MASK && s->mask_merge[r])
			src = merged(s, dst, src);
		sel_copy(s, dst, src);
	}
}

uint32_t sel_phi_merge_begin(struct isel *s, ir_ref r)
{
	if (r == IR_NO_REF || !s->mask_merge[r] || s->def[r]->op == IR_PHI)
		return NONE;
	uint32_t v = sel_def(s, r);
	if (s->vals[r].loc != LOC_MASK)
		return NONE;
	s->vals[r].vreg = sel_new_sgpr(s, s->mask_dw);
	return v;
}

void sel_phi_merge_end(struct isel *s, ir_ref r, uint32_t v)
{
	if (v == NONE)
		return;
	struct mir_opnd dst = mir_vreg(v, s->mask_dw);
	struct mir_opnd m = merged(s, dst, mir_vreg(s->vals[r].vreg, s->mask_dw));
	sel_copy(s, dst, m);
	s->vals[r].vreg = v;
}
