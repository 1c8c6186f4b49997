/* Structured EXEC-mask shapes that need no rejoin mask (cflow.c's planning, split out).
 *
 * cflow.c gives every block that lanes can enter from elsewhere than its linear
 * predecessor a rejoin mask M_B: each edge into B ORs its lanes into M_B, and B's head
 * loads EXEC from M_B, clears it and skips B when it is empty (about 9 SALU per if/join).
 * Two common shapes know their lanes without accumulating them:
 *
 * Saved joins.  A block J that post-dominates a block A of the same loop, where every
 * block between A and J in the linear order is entered only from A or from those blocks
 * and leaves only to them or to J (a single-entry single-exit region: no ret, no break
 * out of it, no continue past it), receives at J exactly the lanes that left A.  So A
 * saves EXEC into J's slot (s_mov, or s_and_saveexec / s_andn1_saveexec fused with the
 * branch's own EXEC update) and J's head restores it (s_mov exec); the edges into J add
 * nothing.  EXEC at A is never empty (a block's body only runs with lanes), so J needs no
 * s_cbranch_execz.  These are the s_and_saveexec ... s_or_b64 exec of structured code.
 * A wave with no lane at A skips the region and J altogether (cflow.c skip_target), except
 * J's barriers; regions with barriers between A and J are not planned this way.  A saved
 * slot is not zero when it is free, so saved slots are coloured apart from the
 * accumulating masks, which must be zero outside their intervals (cflow.c assign_masks).
 *
 * Else sides.  In an if/else whose root A saves EXEC for its join J, where A falls into
 * the then side B and the block before the else side C is B (or B's own saved join)
 * jumping to J, EXEC on arrival at C is B's lanes (or none, if the wave skipped B), so
 * C's head sets EXEC = J's slot & ~EXEC (s_andn2, LLVM's s_xor at the else) and A's
 * branch adds C's lanes to no mask: A's fused s_and_saveexec covers both sides.
 *
 * EXEC back edges.  A divergent loop entered only from its linear predecessor P (all of
 * P's lanes, or the side of P's branch that falls into it) and continued only from its
 * last block X needs no header mask: after X, EXEC is exactly the lanes that go round
 * again (X ends in a jump back, or EXEC &= the back edge's condition), so the loop tail
 * is one s_cbranch_execnz to the header's body; the wave leaves the loop with EXEC empty
 * and the next block's head (a mask or a saved join) sets it.  Per iteration that is 1-2
 * SALU instead of the header's load/clear/skip, the latch's two masks and s_cmp.
 * requires: the IR's linear order, dominators, post-dominators and loops; cflow.c's
 * scalar regions and scalar back edges.  Complexity: O(blocks x (preds + succs)) plus a
 * bounded post-dominator walk per block. */
#include "isel/isel_int.h"

#define NONE 0xffffffffu
enum { PDOM_WALK_MAX = 64 }; /* post-dominator chain steps from A looking for J */

static uint32_t pos_of(const struct ir_function *ir, uint32_t b)
{
	return ir->blocks[b].linear_pos;
}

static uint32_t live_preds(const struct ir_function *ir, uint32_t b)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < ir->blocks[b].npreds; k++)
		n += ir->blocks[ir->blocks[b].preds[k]].reachable;
	return n;
}

static bool ends_in(const struct ir_block *bl, enum ir_op op)
{
	return bl->ninsns && bl->insns[bl->ninsns - 1].op == op;
}

/* Ends in a two-way branch on a non-constant predicate. */
static bool two_way(struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	uint64_t bits;
	return ends_in(bl, IR_BR) && bl->succs[0] != bl->succs[1] &&
	       !sel_is_const(s, bl->insns[bl->ninsns - 1].args[0], &bits);
}

/* A plain block for cflow.c's edges(): no scalar region, no loop tail after it. */
static bool plain_block(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	uint32_t l = ir->blocks[b].loop;
	return s->region[b] < 0 && s->scalar_root[b] < 0 &&
	       (l == IR_NO_LOOP || ir->loops[l].last != b);
}

static bool exec_back_ok(struct isel *s, uint32_t l)
{
	const struct ir_function *ir = s->ir;
	const struct ir_loop *lp = &ir->loops[l];
	uint32_t h = lp->header, x = lp->last, hp = pos_of(ir, h);
	if (lp->irreducible || s->scalar_back[l] || hp == 0 || s->region[h] >= 0 ||
	    s->region[x] >= 0 || s->scalar_root[x] >= 0 || ir->blocks[x].loop != l)
		return false;
	uint32_t p = ir->linear_order[hp - 1];
	if (live_preds(ir, h) != 2 || ir_in_loop(ir, p, l) || !plain_block(s, p))
		return false;
	bool from_p = false, from_x = false;
	for (uint32_t k = 0; k < ir->blocks[h].npreds; k++) {
		uint32_t q = ir->blocks[h].preds[k];
		from_p |= q == p;
		from_x |= q == x;
	}
	const struct ir_block *pb = &ir->blocks[p], *xb = &ir->blocks[x];
	if (!from_p || !from_x || !(ends_in(pb, IR_JMP) || two_way(s, p)))
		return false;
	if (ends_in(xb, IR_JMP))
		return true;
	return two_way(s, x) && !s->scc_pred[xb->insns[xb->ninsns - 1].args[0]] &&
	       (xb->succs[0] == h || xb->succs[1] == h);
}

/* The dominator of J in J's own loop that a saved region would start at. */
static uint32_t region_root(const struct ir_function *ir, uint32_t j)
{
	uint32_t a = ir->blocks[j].idom;
	while (a != j && ir->blocks[a].loop != ir->blocks[j].loop && ir->blocks[a].idom != a)
		a = ir->blocks[a].idom;
	return a;
}

static bool post_dominates(const struct ir_function *ir, uint32_t j, uint32_t a)
{
	uint32_t x = ir->blocks[a].ipdom;
	for (uint32_t k = 0; k < PDOM_WALK_MAX && x != IR_NO_BLOCK && x != j; k++)
		x = ir->blocks[x].ipdom;
	return x == j;
}

/* Every edge of block y stays in (pa, pj] and every edge into it comes from [pa, pj). */
static bool inside(const struct ir_function *ir, uint32_t y, uint32_t pa, uint32_t pj)
{
	const struct ir_block *bl = &ir->blocks[y];
	for (uint32_t k = 0; k < bl->npreds; k++) {
		uint32_t q = bl->preds[k];
		if (ir->blocks[q].reachable && (pos_of(ir, q) < pa || pos_of(ir, q) >= pj))
			return false;
	}
	for (uint32_t k = 0; k < bl->nsuccs; k++)
		if (pos_of(ir, bl->succs[k]) <= pa || pos_of(ir, bl->succs[k]) > pj)
			return false;
	return true;
}

static bool saved_join_ok(struct isel *s, uint32_t a, uint32_t j)
{
	const struct ir_function *ir = s->ir;
	uint32_t pa = pos_of(ir, a), pj = pos_of(ir, j);
	if (a == j || pa >= pj || s->root_join[a] != NONE || !plain_block(s, a) ||
	    s->region[j] >= 0 || ir->blocks[a].loop != ir->blocks[j].loop ||
	    !(ends_in(&ir->blocks[a], IR_JMP) || ends_in(&ir->blocks[a], IR_BR)) ||
	    !post_dominates(ir, j, a))
		return false;
	for (uint32_t k = 0; k < ir->blocks[a].nsuccs; k++)
		if (pos_of(ir, ir->blocks[a].succs[k]) <= pa ||
		    pos_of(ir, ir->blocks[a].succs[k]) > pj)
			return false;
	for (uint32_t k = 0; k < ir->blocks[j].npreds; k++) {
		uint32_t q = ir->blocks[j].preds[k];
		if (ir->blocks[q].reachable && (pos_of(ir, q) < pa || pos_of(ir, q) >= pj))
			return false;
	}
	for (uint32_t p = pa + 1; p < pj; p++) {
		uint32_t y = ir->linear_order[p];
		if (s->no_skip[y] || ir->blocks[y].nsuccs == 0 || !inside(ir, y, pa, pj))
			return false;
	}
	return true;
}

static uint32_t only_pred_of(const struct ir_function *ir, uint32_t b)
{
	uint32_t p = NONE;
	for (uint32_t k = 0; k < ir->blocks[b].npreds; k++)
		if (ir->blocks[ir->blocks[b].preds[k]].reachable) {
			if (p != NONE)
				return NONE;
			p = ir->blocks[b].preds[k];
		}
	return p;
}

/* EXEC at the end of block l is EXEC at the start of block b: l is b, or restores the
 * EXEC its saved root (with b's EXEC) had, or follows straight after such a block (its
 * only predecessor, just before it, jumps to it). */
static bool same_lanes(const struct ir_function *ir, const struct isel *s, uint32_t l, uint32_t b)
{
	while (l != b) {
		uint32_t p = only_pred_of(ir, l);
		if (s->join_root[l] != NONE)
			l = s->join_root[l];
		else if (p != NONE && pos_of(ir, p) + 1 == pos_of(ir, l) &&
		         ends_in(&ir->blocks[p], IR_JMP) &&
		         ir->blocks[p].loop == ir->blocks[l].loop)
			l = p;
		else
			return false;
	}
	return true;
}

/* The else side C of saved root A's if/else: A falls into the then side B, and the block
 * before C is B, or B's own saved join, ending in a jump to A's join J; so EXEC there is
 * B's lanes (none if the wave skipped them) and C's lanes are J's slot & ~EXEC. */
static uint32_t else_side(struct isel *s, uint32_t a)
{
	const struct ir_function *ir = s->ir;
	const struct ir_block *ab = &ir->blocks[a];
	uint32_t j = s->root_join[a];
	if (j == NONE || !two_way(s, a) || s->scc_pred[ab->insns[ab->ninsns - 1].args[0]])
		return NONE;
	for (int k = 0; k < 2; k++) {
		uint32_t b = ab->succs[k], c = ab->succs[1 - k];
		uint32_t pc = pos_of(ir, c), pj = pos_of(ir, j);
		if (pos_of(ir, b) != pos_of(ir, a) + 1 || only_pred_of(ir, b) != a ||
		    ir->blocks[b].loop != ab->loop || only_pred_of(ir, c) != a || pc >= pj ||
		    pc <= pos_of(ir, b) || ir->blocks[c].loop != ab->loop)
			continue;
		uint32_t l = ir->linear_order[pc - 1];
		const struct ir_block *lb = &ir->blocks[l];
		if (lb->loop == ab->loop && ends_in(lb, IR_JMP) && lb->succs[0] == j &&
		    same_lanes(ir, s, l, b))
			return c;
	}
	return NONE;
}

bool sel_is_exec_back_header(const struct isel *s, uint32_t b)
{
	uint32_t l = s->ir->blocks[b].loop;
	return l != IR_NO_LOOP && s->ir->loops[l].header == b && s->exec_back[l];
}

void sel_plan_joins(struct isel *s, bool (*needs_mask)(const struct isel *, uint32_t))
{
	const struct ir_function *ir = s->ir;
	struct pa_arena *ar = s->mf->arena;
	s->exec_back = PA_NEW_ARRAY(ar, bool, ir->nloops + 1);
	s->root_join = PA_NEW_ARRAY(ar, uint32_t, ir->nblocks + 1);
	s->join_root = PA_NEW_ARRAY(ar, uint32_t, ir->nblocks + 1);
	s->else_join = PA_NEW_ARRAY(ar, uint32_t, ir->nblocks + 1);
	for (uint32_t b = 0; b < ir->nblocks; b++)
		s->root_join[b] = s->join_root[b] = s->else_join[b] = NONE;
	for (uint32_t l = 0; l < ir->nloops; l++)
		s->exec_back[l] = exec_back_ok(s, l);
	for (uint32_t k = 1; k < ir->norder; k++) {
		uint32_t j = ir->linear_order[k];
		if (!ir->blocks[j].reachable || !needs_mask(s, j))
			continue;
		uint32_t a = region_root(ir, j);
		if (saved_join_ok(s, a, j)) {
			s->root_join[a] = j;
			s->join_root[j] = a;
		}
	}
	for (uint32_t a = 0; a < ir->nblocks; a++) {
		uint32_t c = ir->blocks[a].reachable ? else_side(s, a) : NONE;
		if (c != NONE)
			s->else_join[c] = s->root_join[a];
	}
}
