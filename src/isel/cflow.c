/* EXEC-mask control flow: how a wave executes PTX's per-thread control flow.
 *
 * Method (partial linearization with rejoin masks, in the spirit of Moll & Hack, PLDI
 * 2018, and of ACO's logical/linear CFGs): the wave visits the blocks in the IR's linear
 * order (reverse postorder with every loop contiguous, header first), so every edge of
 * the program (the logical CFG) goes forward in that order except loop back edges.  Each
 * block B that can be entered by lanes coming from elsewhere than straight from its
 * linear predecessor owns a rejoin mask M_B: an SGPR (pair on wave64) where the lanes
 * that will run B accumulate.  At the end of a block, each outgoing edge adds the lanes
 * that take it (EXEC, or EXEC & p / EXEC & ~p for a branch on p) to the target's mask.
 * At the start of B the wave sets EXEC = M_B, clears M_B and, if no lane is there, skips
 * ahead (s_cbranch_execz).  After the last block of a loop, if lanes are waiting in the
 * header's mask the wave jumps back to the header.  Lanes that return simply stop
 * contributing anywhere, so divergent `ret`/`exit` is exact: they never come back.  The
 * linear CFG (the MIR blocks and their successors) is this order plus the skip and
 * loop-back branches; it contains every path any lane can take.
 * A block whose only predecessor is its linear predecessor, ending in an unconditional
 * jump to it within the same loop, needs no mask: EXEC flows through.  Nor does one
 * whose only predecessor, just before it in the same loop, ends in a conditional branch:
 * that block sets EXEC to the lanes going there and skips it when there are none (the
 * s_and_saveexec / s_cbranch_execz pattern of structured code).  Masks live in
 * fixed SGPRs reserved for the kernel, assigned by greedy interval colouring over linear
 * positions (a mask fed from inside a loop it is not in stays reserved for that whole
 * loop); the colours past s63 are lanes of VGPR vregs (one dword per lane, W per VGPR),
 * read into a scratch SGPR by v_readlane_b32 and stored by v_writelane_b32 (both ignore
 * EXEC; the allocator keeps a VGPR that v_writelane writes live from the entry).
 * A wave with an empty EXEC at a block containing a barrier runs only its barriers, in a
 * block placed after the exit (barriers_only), not the block's scalar code.
 * Phis become parallel copies at the end of each predecessor, under its EXEC (sel_phi.c).
 * Uniform control flow runs as scalar code: a loop without divergent branches, and the
 * blocks only a uniform branch leads to before its post-dominator, form *scalar regions*
 * (see find_regions) with s_cmp/s_cbranch_scc1/s_branch inside, no masks and EXEC
 * unchanged; edges out of a region feed masks as above and jump to the code after it.
 * A loop with divergent branches whose only latch and only exit is its last block, on a
 * uniform branch, jumps back with s_cbranch_scc1 and EXEC as it is (has_scalar_back).
 * Saved joins (a single-entry single-exit region's join restores the EXEC its root saved,
 * s_and_saveexec style) and loops with an EXEC back edge (s_cbranch_execnz, no header
 * mask) need no rejoin mask bookkeeping: cflow_join.c plans them.
 * A uniform integer compare that only its block's branch reads is selected by the branch,
 * into SCC where it is needed, instead of as a 0/1 SGPR (find_scc_preds).
 * requires: the IR's linear order and loops.  Complexity: O(blocks + edges) plus the
 * colouring's sort and heaps. */
#include <stdlib.h>
#include <string.h>

#include "isel/isel_int.h"

#define NONE 0xffffffffu
/* Masks in SGPRs s8..s63; past that, in lanes of VGPRs (mask_slot >= MASK_IN_LANES) */
enum { MASK_SGPR_BASE = 8, MASK_SGPR_END = 64, MASK_IN_LANES = 1 << 20 };

/* The block b falls through from its only predecessor, the block just before it in the
 * linear order and in the same loop, which ends in a conditional branch: its lanes are
 * known at the end of that block, which sets EXEC to them directly (and skips b when
 * none), as s_and_saveexec code does; b needs no rejoin mask. */
static bool is_branch_fallthrough(const struct ir_function *ir, uint32_t b, uint32_t p0)
{
	const struct ir_block *bl = &ir->blocks[b], *pb = &ir->blocks[p0];
	return pb->linear_pos + 1 == bl->linear_pos && pb->loop == bl->loop && pb->nsuccs == 2 &&
	       pb->succs[0] != pb->succs[1] && pb->insns[pb->ninsns - 1].op == IR_BR;
}

static uint32_t only_pred(const struct ir_function *ir, uint32_t b)
{
	const struct ir_block *bl = &ir->blocks[b];
	uint32_t live_preds = 0, p0 = NONE;
	for (uint32_t k = 0; k < bl->npreds; k++)
		if (ir->blocks[bl->preds[k]].reachable) {
			live_preds++;
			p0 = bl->preds[k];
		}
	return live_preds == 1 && p0 != b ? p0 : NONE;
}

/* ---- scalar regions: uniform control flow as scalar branches ----
 * A region is a set of blocks, contiguous in the linear order, that lanes only enter
 * together (all the lanes of one visit of its root) and whose branches are all uniform:
 * the blocks of a loop without divergent branches (entered at its header, which keeps
 * its rejoin mask), or the blocks between a uniform branch and its post-dominator that
 * only that branch leads to.  Inside, EXEC never changes: edges are s_cbranch_scc /
 * s_branch and no block has a mask.  An edge leaving the region adds EXEC to its
 * target's (forced) mask and jumps to the code after the region, so any lanes waiting
 * in masks there are still picked up in linear order. */

enum { REGION_MAX_BLOCKS = 4096 }; /* bigger branch regions: the mask scheme (a cap) */

static bool loop_is_scalar(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	uint32_t l = ir->blocks[b].loop;
	return l != IR_NO_LOOP && ir->loops[l].header == b && !ir->loops[l].divergent_branches &&
	       !ir->loops[l].irreducible && !s->no_skip[b];
}

/* Ends in a branch on a (non-constant) predicate between two blocks. */
static bool is_two_way(const struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	uint64_t bits;
	return t->op == IR_BR && bl->succs[0] != bl->succs[1] &&
	       !sel_is_const((struct isel *)s, t->args[0], &bits);
}

static bool is_uniform_branch(const struct isel *s, uint32_t b)
{
	return is_two_way(s, b) && !s->ir->blocks[b].divergent_branch && !s->no_skip[b];
}

/* The region a uniform branch in block a leads to: the blocks reachable from its
 * successors before its post-dominator; 0 when that is not a region (entered from
 * elsewhere, holds a divergent branch, not right after a in the linear order). */
static uint32_t branch_region(const struct isel *s, uint32_t a, uint32_t *list, uint32_t *stamp)
{
	const struct ir_function *ir = s->ir;
	uint32_t stop = ir->blocks[a].ipdom, n = 0, lo = NONE, hi = 0;
	stamp[a] = a + 1;
	for (uint32_t k = 0; k < 2; k++) {
		uint32_t t = ir->blocks[a].succs[k];
		if (t != stop && stamp[t] != a + 1) {
			stamp[t] = a + 1;
			list[n++] = t;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct ir_block *bl = &ir->blocks[list[i]];
		if (bl->divergent_branch || n > REGION_MAX_BLOCKS || s->region[list[i]] >= 0)
			return 0;
		uint32_t pos = bl->linear_pos;
		lo = pos < lo ? pos : lo;
		hi = pos > hi ? pos : hi;
		for (uint32_t k = 0; k < bl->nsuccs; k++) {
			uint32_t t = bl->succs[k];
			if (t == a)
				return 0; /* a loop through the root */
			if (t != stop && stamp[t] != a + 1) {
				stamp[t] = a + 1;
				list[n++] = t;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) { /* entered only from the root or the region */
		const struct ir_block *bl = &ir->blocks[list[i]];
		for (uint32_t p = 0; p < bl->npreds; p++)
			if (ir->blocks[bl->preds[p]].reachable && stamp[bl->preds[p]] != a + 1)
				return 0;
		uint32_t l = bl->loop; /* no loop reaching out of the region */
		if (l != ir->blocks[a].loop &&
		    (l == IR_NO_LOOP || stamp[ir->loops[l].header] != a + 1))
			return 0;
	}
	if (!n || lo != ir->blocks[a].linear_pos + 1 || hi - lo + 1 != n)
		return 0;
	return n;
}

static void find_regions(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	uint32_t nb = ir->nblocks, nreg = 0;
	uint32_t *list = PA_NEW_ARRAY(s->mf->arena, uint32_t, nb + 1);
	uint32_t *stamp = PA_NEW_ARRAY(s->mf->arena, uint32_t, nb + 1);
	s->region_last = PA_NEW_ARRAY(s->mf->arena, uint32_t, nb + 1);
	for (uint32_t k = 0; k < ir->norder; k++) {
		uint32_t b = ir->linear_order[k], first = k, n = 0;
		if (s->region[b] >= 0)
			continue;
		if (loop_is_scalar(s, b)) {
			n = ir->blocks[ir->loops[ir->blocks[b].loop].last].linear_pos - k + 1;
		} else if (is_uniform_branch(s, b) && (n = branch_region(s, b, list, stamp)) != 0) {
			s->scalar_root[b] = (int32_t)nreg;
			first = k + 1;
		}
		if (!n)
			continue;
		for (uint32_t i = first; i < first + n; i++)
			s->region[ir->linear_order[i]] = (int32_t)nreg;
		s->region_last[nreg++] = ir->linear_order[first + n - 1];
	}
}

/* A loop whose only latch is its last block, ending in a uniform branch or a jump, and
 * whose only exits leave from there, with no ret inside: every lane that enters an
 * iteration reaches the latch together, so it can jump back with EXEC as it is (no header
 * mask bookkeeping, no loop-back check) even though divergent branches run inside. */
static bool has_scalar_back(const struct isel *s, uint32_t l)
{
	const struct ir_function *ir = s->ir;
	const struct ir_loop *lp = &ir->loops[l];
	uint32_t h = lp->header, latch = lp->last, nlatch = 0;
	if (lp->irreducible || s->region[h] >= 0 || s->no_skip[h] ||
	    ir->blocks[latch].divergent_branch || ir->blocks[latch].loop != l)
		return false;
	for (uint32_t p = 0; p < ir->blocks[h].npreds; p++) {
		uint32_t q = ir->blocks[h].preds[p];
		if (ir->blocks[q].reachable && ir_in_loop(ir, q, l))
			nlatch += q == latch ? 1 : 2;
	}
	if (nlatch != 1)
		return false;
	for (uint32_t k = ir->blocks[h].linear_pos; k <= ir->blocks[latch].linear_pos; k++) {
		const struct ir_block *bl = &ir->blocks[ir->linear_order[k]];
		if (bl->nsuccs == 0)
			return false; /* ret */
		for (uint32_t i = 0; i < bl->nsuccs; i++)
			if (!ir_in_loop(ir, bl->succs[i], l) && ir->linear_order[k] != latch)
				return false;
	}
	return true;
}

/* A block of a region with a predecessor outside it and not its root: a scalar loop's
 * header, entered through its mask. */
static bool entered_from_outside(const struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	for (uint32_t p = 0; p < bl->npreds; p++) {
		uint32_t q = bl->preds[p];
		if (s->ir->blocks[q].reachable && s->region[q] != s->region[b] &&
		    s->scalar_root[q] != s->region[b])
			return true;
	}
	return false;
}

/* A scalar loop's header b whose only predecessor outside the loop is the block just
 * before it, a plain block (no region, no loop tail after it) that jumps to b: EXEC
 * flows in, as into any block after a jump, and b needs no mask. */
static bool entered_by_jump(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	const struct ir_block *bl = &ir->blocks[b];
	uint32_t pos = bl->linear_pos, l = bl->loop;
	if (pos == 0 || l == IR_NO_LOOP || ir->loops[l].header != b)
		return false;
	uint32_t p = ir->linear_order[pos - 1];
	const struct ir_block *pb = &ir->blocks[p];
	if (ir_in_loop(ir, p, l) || s->region[p] >= 0 || s->scalar_root[p] >= 0 ||
	    pb->ninsns == 0 || pb->insns[pb->ninsns - 1].op != IR_JMP ||
	    (pb->loop != IR_NO_LOOP && ir->loops[pb->loop].last == p))
		return false;
	for (uint32_t k = 0; k < bl->npreds; k++) {
		uint32_t q = bl->preds[k];
		if (ir->blocks[q].reachable && q != p && !ir_in_loop(ir, q, l))
			return false;
	}
	return true;
}

/* The block is entered by a scalar branch from a region or its root, not from inside
 * its own region: it keeps a mask, where such edges leave their lanes. */
static bool entered_from_region(const struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	for (uint32_t p = 0; p < bl->npreds; p++) {
		uint32_t q = bl->preds[p];
		if (!s->ir->blocks[q].reachable)
			continue;
		int32_t rq = s->region[q] >= 0 ? s->region[q] : s->scalar_root[q];
		if (rq >= 0 && rq != s->region[b])
			return true;
	}
	return false;
}

/* b is the post-dominator of a branch region r (its root a's uniform branch leads only to
 * r and b) and comes right after r in the linear order, every edge out of r or a goes to
 * b and nothing in r returns: all the lanes of a's visit arrive at b together, with EXEC
 * unchanged since a (r's branches are scalar), so b takes EXEC as it flows in and needs
 * no mask (nvcc's `if (k < 1) skip the loop` guard: no s_cselect/s_or accumulation). */
static bool joins_whole_region(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	const struct ir_block *bl = &ir->blocks[b];
	int32_t r = -1;
	uint32_t root = NONE;
	for (uint32_t p = 0; p < bl->npreds; p++) {
		uint32_t q = bl->preds[p];
		if (!ir->blocks[q].reachable)
			continue;
		int32_t rq = s->region[q] >= 0 ? s->region[q] : s->scalar_root[q];
		if (rq < 0 || (r >= 0 && rq != r))
			return false;
		r = rq;
		if (s->scalar_root[q] == rq)
			root = q;
	}
	if (r < 0 || root == NONE || s->region[b] >= 0 || bl->loop != ir->blocks[root].loop)
		return false;
	uint32_t first = ir->blocks[root].linear_pos,
	         last = ir->blocks[s->region_last[r]].linear_pos;
	if (bl->linear_pos != last + 1)
		return false;
	for (uint32_t k = first; k <= last; k++) {
		const struct ir_block *x = &ir->blocks[ir->linear_order[k]];
		unsigned op = x->ninsns ? x->insns[x->ninsns - 1].op : IR_RET;
		if (op != IR_BR && op != IR_JMP)
			return false;
		for (uint32_t j = 0; j < x->nsuccs; j++)
			if (x->succs[j] != b && s->region[x->succs[j]] != r)
				return false;
	}
	return true;
}

/* A kernel's block that only returns, outside every loop and scalar region, without
 * barriers: the lanes that go there are done on arrival, exactly as if their predecessor
 * returned, so the edges into it add them to no mask and the block needs none (nvcc's
 * `if (i < n) {...}` ends in such a block: no rejoin bookkeeping, the wave just ends).
 * Not in a function compiled on its own: its epilogue restores the EXEC it finds at the
 * exit, which must be every lane that returns. */
static bool only_returns(const struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	return !s->ir->real_sym && bl->linear_pos != 0 && bl->ninsns == 1 &&
	       bl->insns[0].op == IR_RET && bl->loop == IR_NO_LOOP && s->region[b] < 0 &&
	       s->scalar_root[b] < 0 && !s->no_skip[b];
}

static bool needs_mask(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	const struct ir_block *bl = &ir->blocks[b];
	if (bl->linear_pos == 0)
		return false; /* the entry: EXEC as the hardware starts the wave */
	if (sel_is_exec_back_header(s, b))
		return false; /* EXEC flows in from before the loop and back from its end */
	if (only_returns(s, b))
		return false; /* its lanes are done: nothing waits there */
	if (entered_from_region(s, b))
		return !joins_whole_region(s, b);
	if (s->region[b] >= 0) /* inside a region: only a loop header entered from outside */
		return entered_from_outside(s, b) && !entered_by_jump(s, b);
	uint32_t p0 = only_pred(ir, b);
	if (p0 == NONE)
		return true;
	const struct ir_block *pb = &ir->blocks[p0];
	if (is_branch_fallthrough(ir, b, p0))
		return false;
	return !(pb->linear_pos + 1 == bl->linear_pos && pb->nsuccs == 1 && pb->loop == bl->loop);
}

struct interval {
	uint32_t start, end, block;
};

static int by_start(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

/* Extends [*start, *end] to cover every loop that contains `from` but not `to`. */
static void cover_loops(const struct ir_function *ir, uint32_t from, uint32_t to, uint32_t *start,
                        uint32_t *end)
{
	for (uint32_t l = ir->blocks[from].loop; l != IR_NO_LOOP; l = ir->loops[l].parent) {
		if (ir_in_loop(ir, to, l))
			break;
		uint32_t h = ir->blocks[ir->loops[l].header].linear_pos;
		uint32_t e = ir->blocks[ir->loops[l].last].linear_pos;
		*start = h < *start ? h : *start;
		*end = e > *end ? e : *end;
	}
}

/* A binary min-heap of 64-bit keys. */
struct heap {
	uint64_t *v;
	uint32_t n;
};

static void heap_push(struct heap *h, uint64_t x)
{
	uint32_t i = h->n++;
	for (; i && h->v[(i - 1) / 2] > x; i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = x;
}

static uint64_t heap_pop(struct heap *h)
{
	uint64_t top = h->v[0], x = h->v[--h->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = x;
	return top;
}

/* Greedy interval colouring of the intervals of one kind (saved joins or not), lowest
 * free slot first, numbering slots from `first`: `busy` holds (end << 32 | slot) of the
 * slots in use, `freed` the slots whose interval ended before the current start.
 * Returns first + the slots used. */
static uint32_t colour(struct isel *s, const struct interval *iv, uint32_t n, bool saved,
                       uint32_t first, uint32_t *slots)
{
	struct heap busy = {PA_NEW_ARRAY(s->mf->arena, uint64_t, n + 1), 0};
	struct heap freed = {PA_NEW_ARRAY(s->mf->arena, uint64_t, n + 1), 0};
	uint32_t nslots = first;
	for (uint32_t i = 0; i < n; i++) {
		if ((s->join_root[iv[i].block] != NONE) != saved)
			continue;
		while (busy.n && (uint32_t)(busy.v[0] >> 32) < iv[i].start)
			heap_push(&freed, (uint32_t)heap_pop(&busy));
		uint32_t slot = freed.n ? (uint32_t)heap_pop(&freed) : nslots++;
		heap_push(&busy, (uint64_t)iv[i].end << 32 | slot);
		slots[i] = slot;
	}
	return nslots;
}

static void assign_masks(struct isel *s, unsigned base)
{
	const struct ir_function *ir = s->ir;
	struct interval *iv = PA_NEW_ARRAY(s->mf->arena, struct interval, ir->norder + 1);
	uint32_t n = 0;
	for (uint32_t k = 0; k < ir->norder; k++) {
		uint32_t b = ir->linear_order[k];
		if (!needs_mask(s, b) || s->else_join[b] != NONE)
			continue; /* an else side reads its join's slot */
		const struct ir_block *bl = &ir->blocks[b];
		uint32_t start = k, end = k;
		for (uint32_t p = 0; p < bl->npreds; p++) {
			uint32_t pb = bl->preds[p];
			if (!ir->blocks[pb].reachable)
				continue;
			uint32_t pp = ir->blocks[pb].linear_pos;
			start = pp < start ? pp : start;
			end = pp > end ? pp : end;
			cover_loops(ir, pb, b, &start, &end);
		}
		if (bl->loop != IR_NO_LOOP && ir->loops[bl->loop].header == b) {
			uint32_t e = ir->blocks[ir->loops[bl->loop].last].linear_pos;
			end = e > end ? e : end;
		}
		if (s->join_root[b] != NONE) { /* written at its root, maybe before every pred */
			uint32_t r = ir->blocks[s->join_root[b]].linear_pos;
			start = r < start ? r : start;
		}
		iv[n++] = (struct interval){start, end, b};
	}
	qsort(iv, n, sizeof *iv, by_start);
	/* the accumulating masks first (zero while free: cleared at the entry and by their
	 * block's head), then the saved joins' slots (cflow_join.c), which stay dirty */
	uint32_t in_sgprs = (MASK_SGPR_END - base) / s->mask_dw;
	uint32_t *slots = PA_NEW_ARRAY(s->mf->arena, uint32_t, n + 1);
	uint32_t nacc = colour(s, iv, n, false, 0, slots);
	uint32_t nslots = colour(s, iv, n, true, nacc, slots);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = slots[i];
		s->mask_slot[iv[i].block] =
		        slot < in_sgprs ? (int32_t)(base + slot * s->mask_dw)
		                        : (int32_t)(MASK_IN_LANES + (slot - in_sgprs) * s->mask_dw);
	}
	for (uint32_t b = 0; b < ir->nblocks; b++)
		if (s->else_join[b] != NONE)
			s->mask_slot[b] = s->mask_slot[s->else_join[b]];
	s->mf->reserved_sgprs_begin = base;
	s->mf->reserved_sgprs_end = base + (nslots < in_sgprs ? nslots : in_sgprs) * s->mask_dw;
	s->acc_sgprs_end = base + (nacc < in_sgprs ? nacc : in_sgprs) * s->mask_dw;
	s->acc_lane_dw = nacc > in_sgprs ? (nacc - in_sgprs) * s->mask_dw : 0;
	/* the masks past the SGPR budget: lanes of VGPRs (W dwords each) */
	s->mask_lane_dw = nslots > in_sgprs ? (nslots - in_sgprs) * s->mask_dw : 0;
	uint32_t nvgpr = (s->mask_lane_dw + s->wave - 1) / s->wave;
	s->mask_vgpr = PA_NEW_ARRAY(s->mf->arena, uint32_t, nvgpr + 1);
	for (uint32_t k = 0; k < nvgpr; k++)
		s->mask_vgpr[k] = sel_new_vgpr(s, 1);
}

/* `in` reads a phi of a successor of block b: the phi copies at the end of b overwrite
 * it before the branch (a loop header's phi, read by the latch's compare). */
static bool reads_succ_phi(const struct isel *s, uint32_t b, const struct ir_insn *in)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	for (uint32_t k = 0; k < in->nargs; k++) {
		const struct ir_insn *d = s->def[in->args[k]];
		if (d && d->op == IR_PHI)
			for (uint32_t i = 0; i < bl->nsuccs; i++)
				if (s->ir->vals[in->args[k]].block == bl->succs[i])
					return true;
	}
	return false;
}

/* The successors of MIR block b in a loop that selection builds itself (sel_atomic.c's CAS
 * loop, sel_bar.c's barrier wait, sel_warp.c's match.any): s0, then s1 unless it is the same
 * block or ~0u. */
void sel_set_succ(struct isel *s, uint32_t b, uint32_t s0, uint32_t s1)
{
	struct mir_block *bl = &s->mf->blocks[b];
	bl->succ[0] = s0;
	bl->nsucc = 1;
	if (s1 != s0 && s1 != ~0u)
		bl->succ[bl->nsucc++] = s1;
}

/* The uniform integer compares whose only reader is the branch ending their block: the
 * branch selects the compare itself into SCC (no 0/1 SGPR, no s_cmp_lg of it), after the
 * block's phi copies, so not one that reads a value those copies overwrite. */
static void find_scc_preds(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	uint8_t *uses = PA_NEW_ARRAY(s->mf->arena, uint8_t, ir->nvals + 1);
	s->scc_pred = PA_NEW_ARRAY(s->mf->arena, bool, ir->nvals + 1);
	for (uint32_t b = 0; b < ir->nblocks; b++) {
		const struct ir_block *bl = &ir->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			uint32_t n = in->op == IR_PHI ? bl->npreds : in->nargs;
			for (uint32_t k = 0; k < n; k++) {
				ir_ref r = in->op == IR_PHI ? in->phi_args[k] : in->args[k];
				if (r != IR_NO_REF && r <= ir->nvals && uses[r] < 2)
					uses[r]++;
			}
		}
	}
	for (uint32_t b = 0; b < ir->nblocks; b++) {
		const struct ir_block *bl = &ir->blocks[b];
		const struct ir_insn *t = bl->ninsns ? &bl->insns[bl->ninsns - 1] : NULL;
		if (!t || t->op != IR_BR || uses[t->args[0]] != 1)
			continue;
		const struct ir_insn *def = s->def[t->args[0]];
		if (def && ir->vals[t->args[0]].block == b && sel_icmp_is_scalar(s, def) &&
		    !reads_succ_phi(s, b, def))
			s->scc_pred[t->args[0]] = true;
	}
}

bool sel_cflow_plan(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	struct pa_arena *a = s->mf->arena;
	uint32_t nb = ir->nblocks;
	s->mir_head = PA_NEW_ARRAY(a, uint32_t, nb);
	s->mir_body = PA_NEW_ARRAY(a, uint32_t, nb);
	s->mir_tail = PA_NEW_ARRAY(a, uint32_t, nb);
	s->mask_slot = PA_NEW_ARRAY(a, int32_t, nb);
	s->no_skip = PA_NEW_ARRAY(a, bool, nb);
	s->region = PA_NEW_ARRAY(a, int32_t, nb);
	s->mir_else = PA_NEW_ARRAY(a, uint32_t, nb);
	s->scalar_root = PA_NEW_ARRAY(a, int32_t, nb);
	for (uint32_t b = 0; b < nb; b++) {
		s->mask_slot[b] = -1;
		s->region[b] = s->scalar_root[b] = -1;
		s->mir_else[b] = NONE;
		s->mir_head[b] = s->mir_body[b] = s->mir_tail[b] = NONE;
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			s->no_skip[b] |= ir->blocks[b].insns[i].op == IR_BARRIER ||
			                 ir->blocks[b].insns[i].op == IR_NBAR_INIT ||
			                 sel_bar_is_hw(s, &ir->blocks[b].insns[i]);
	}
	/* Masks above every SGPR the hardware may load at entry: s[0:1] kernarg pointer,
	 * s[2:3] flat scratch init (scratch on gfx90a/gfx1030), then up to 3 workgroup ids and
	 * the private segment wave offset (select.c entry_inputs, sel_local.c) */
	find_regions(s);
	find_scc_preds(s);
	sel_phi_plan(s);
	s->scalar_back = PA_NEW_ARRAY(a, bool, ir->nloops + 1);
	for (uint32_t l = 0; l < ir->nloops; l++)
		s->scalar_back[l] = has_scalar_back(s, l);
	sel_plan_joins(s, needs_mask);
	/* above the entry's inputs: the masks are cleared before the entry reads them (s8 and
	 * s9 would be the third workgroup id and the private segment wave offset of a kernel
	 * with %gridid, three block ids and flat scratch set up from user SGPRs) */
	unsigned inputs_end = (sel_entry_sgprs_end(s) + 1) & ~1u;
	assign_masks(s, inputs_end > MASK_SGPR_BASE ? inputs_end : MASK_SGPR_BASE);
	/* MIR blocks in code order: [head] body [two per loop of sel_atomic.c (CAS), sel_bar.c
	 * (barrier wait) or sel_warp.c (match.any)] [one tail per loop ending here] ... exit */
	for (uint32_t k = 0; k < ir->norder; k++) {
		uint32_t b = ir->linear_order[k];
		if (s->mask_slot[b] >= 0)
			s->mir_head[b] = mir_new_block(s->mf);
		s->mir_body[b] = mir_new_block(s->mf);
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			if (sel_atomic_needs_loop(s, &ir->blocks[b].insns[i]) ||
			    sel_bar_needs_loop(s, &ir->blocks[b].insns[i]) ||
			    sel_warp_needs_loop(&ir->blocks[b].insns[i]) ||
			    sel_tex_needs_loop(s, &ir->blocks[b].insns[i])) {
				mir_new_block(s->mf); /* sel_atomic.c/sel_bar.c/sel_warp.c: the
				                         loop, what follows */
				mir_new_block(s->mf);
			}
		if ((s->region[b] >= 0 || s->scalar_root[b] >= 0) && is_two_way(s, b))
			s->mir_else[b] = mir_new_block(s->mf); /* s_branch to the other target */
		for (uint32_t l = ir->blocks[b].loop; l != IR_NO_LOOP; l = ir->loops[l].parent) {
			if (ir->loops[l].last != b)
				break;
			uint32_t t = mir_new_block(s->mf);
			if (s->mir_tail[b] == NONE)
				s->mir_tail[b] = t;
		}
	}
	s->exit_block = mir_new_block(s->mf);
	/* after the exit: what a wave with an empty EXEC runs of a block with a barrier */
	s->bar_only = PA_NEW_ARRAY(a, uint32_t, nb);
	for (uint32_t b = 0; b < nb; b++)
		s->bar_only[b] =
		        s->no_skip[b] && ir->blocks[b].reachable && ir->blocks[b].linear_pos != 0
		                ? mir_new_block(s->mf)
		                : NONE;
	return true;
}

static uint32_t first_mir(const struct isel *s, uint32_t b)
{
	return s->mir_head[b] != NONE ? s->mir_head[b] : s->mir_body[b];
}

/* Where a wave with an empty EXEC goes from block b (the index after its blocks). */
static uint32_t skip_target(const struct isel *s, uint32_t b)
{
	const struct ir_function *ir = s->ir;
	for (;;) {
		if (s->region[b] >= 0) /* no lane in a region: past its end */
			b = s->region_last[s->region[b]];
		while (s->root_join[b] != NONE) { /* no lane at a saved root: none up to its
			                           * join (itself a root, maybe) */
			uint32_t j = s->root_join[b];
			if (s->bar_only[j] != NONE)
				return s->bar_only[j];
			b = j;
		}
		if (s->mir_tail[b] != NONE)
			return s->mir_tail[b];
		uint32_t pos = ir->blocks[b].linear_pos;
		if (pos + 1 >= ir->norder)
			return s->exit_block;
		uint32_t next = ir->linear_order[pos + 1];
		if (s->mask_slot[next] >= 0)
			return s->mir_head[next];
		if (s->bar_only[next] != NONE)
			return s->bar_only[next]; /* its barriers, not its code */
		b = next;
	}
}

static struct mir_opnd slot(const struct isel *s, uint32_t b)
{
	return mir_sgpr((unsigned)s->mask_slot[b], s->mask_dw);
}

static bool in_lanes(const struct isel *s, uint32_t b)
{
	return s->mask_slot[b] >= MASK_IN_LANES;
}

/* v_readlane_b32 / v_writelane_b32 of mask dword h of lane dword `dw` */
static void lane_op(struct isel *s, unsigned op, struct mir_opnd sreg, uint32_t dw, unsigned h)
{
	struct mir_opnd v = mir_vreg(s->mask_vgpr[(dw + h) / s->wave], 1);
	struct mir_opnd lane = mir_imm((dw + h) % s->wave);
	struct mir_opnd rl[3] = {sreg, v, lane}, wl[3] = {v, sreg, lane};
	sel_emit(s, op, 3, op == AMD_OP_V_READLANE_B32 ? rl : wl);
}

/* M_b as an SGPR operand: its slot, or a copy read from its lanes. */
static struct mir_opnd mask_get(struct isel *s, uint32_t b)
{
	if (!in_lanes(s, b))
		return slot(s, b);
	uint32_t t = sel_new_sgpr(s, s->mask_dw), dw = (uint32_t)s->mask_slot[b] - MASK_IN_LANES;
	for (unsigned h = 0; h < s->mask_dw; h++)
		lane_op(s, AMD_OP_V_READLANE_B32, sel_sub(t, h, 1), dw, h);
	return mir_vreg(t, s->mask_dw);
}

/* Stores an SGPR vreg (or 0) into the lanes of M_b. */
static void mask_put(struct isel *s, uint32_t b, struct mir_opnd val)
{
	uint32_t dw = (uint32_t)s->mask_slot[b] - MASK_IN_LANES;
	for (unsigned h = 0; h < s->mask_dw; h++)
		lane_op(s, AMD_OP_V_WRITELANE_B32,
		        val.kind == MIR_VREG ? sel_sub(val.v, h, 1) : val, dw, h);
}

static void set_succ(struct isel *s, uint32_t mb, uint32_t s0, uint32_t s1)
{
	struct mir_block *bl = &s->mf->blocks[mb];
	bl->nsucc = 0;
	if (s0 != NONE)
		bl->succ[bl->nsucc++] = s0;
	if (s1 != NONE && s1 != s0)
		bl->succ[bl->nsucc++] = s1;
}

void sel_block_begin(struct isel *s, uint32_t b)
{
	s->line = s->ir->blocks[b].ninsns ? s->ir->blocks[b].insns[0].line : s->line;
	if (s->mask_slot[b] >= 0 && s->join_root[b] != NONE) { /* never empty: no skip */
		uint32_t h = s->mir_head[b];
		s->cur = h;
		unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
		struct mir_opnd set[2] = {sel_exec(s), mask_get(s, b)};
		sel_emit(s, mov, 2, set);
		set_succ(s, h, s->mir_body[b], NONE);
		s->mf->blocks[h].comment = "saved join: EXEC = the lanes of its root";
	} else if (s->mask_slot[b] >= 0 && s->else_join[b] != NONE) {
		uint32_t h = s->mir_head[b]; /* EXEC = J's slot & ~(the then side's lanes) */
		s->cur = h;
		unsigned op = sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64);
		struct mir_opnd ops[3] = {sel_exec(s), mask_get(s, s->else_join[b]), sel_exec(s)};
		sel_emit(s, op, 3, ops);
		uint32_t skip = s->no_skip[b] ? s->bar_only[b] : skip_target(s, b);
		struct mir_opnd tgt = mir_block_ref(skip);
		sel_emit(s, AMD_OP_S_CBRANCH_EXECZ, 1, &tgt);
		set_succ(s, h, s->mir_body[b], skip);
		s->mf->blocks[h].skip_succ = 2;
		s->mf->blocks[h].comment = "else side: EXEC = the join's saved lanes & ~then's";
	} else if (s->mask_slot[b] >= 0) {
		uint32_t h = s->mir_head[b];
		s->cur = h;
		unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
		struct mir_opnd set[2] = {sel_exec(s), mask_get(s, b)};
		sel_emit(s, mov, 2, set);
		struct mir_opnd clr[2] = {slot(s, b), mir_imm(0)};
		if (in_lanes(s, b))
			mask_put(s, b, mir_imm(0));
		else
			sel_emit(s, mov, 2, clr);
		uint32_t skip = s->no_skip[b] ? s->bar_only[b] : skip_target(s, b);
		struct mir_opnd tgt = mir_block_ref(skip);
		sel_emit(s, AMD_OP_S_CBRANCH_EXECZ, 1, &tgt);
		set_succ(s, h, s->mir_body[b], skip);
		s->mf->blocks[h].skip_succ = 2;
		s->mf->blocks[h].comment = "rejoin: EXEC = lanes waiting here";
	}
	s->cur = s->mir_body[b];
	sel_phi_entry(s, b);
	if (s->ir->blocks[b].linear_pos == 0) { /* all rejoin masks start empty */
		unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
		for (unsigned r = s->mf->reserved_sgprs_begin; r < s->acc_sgprs_end;
		     r += s->mask_dw) {
			struct mir_opnd clr[2] = {mir_sgpr(r, s->mask_dw), mir_imm(0)};
			sel_emit(s, mov, 2, clr);
		}
		for (uint32_t dw = 0; dw < s->acc_lane_dw; dw++)
			lane_op(s, AMD_OP_V_WRITELANE_B32, mir_imm(0), dw, 0);
	}
}

/* The lanes that go to block t are added to its mask: not when EXEC flows into it, nor
 * when its root saves them (a saved join or an else side, cflow_join.c). */
static bool records_lanes(const struct isel *s, uint32_t t)
{
	return s->mask_slot[t] >= 0 && s->join_root[t] == NONE && s->else_join[t] == NONE;
}

/* M_succ |= lanes (an SGPR mask operand) */
static void add_lanes(struct isel *s, uint32_t succ, struct mir_opnd lanes)
{
	if (!records_lanes(s, succ))
		return;
	unsigned op = sel_wave_op(s, AMD_OP_S_OR_B32, AMD_OP_S_OR_B64);
	if (in_lanes(s, succ)) {
		struct mir_opnd m = mask_get(s, succ);
		uint32_t t = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd ops[3] = {mir_vreg(t, s->mask_dw), m, lanes};
		sel_emit(s, op, 3, ops);
		mask_put(s, succ, ops[0]);
		return;
	}
	struct mir_opnd ops[3] = {slot(s, succ), slot(s, succ), lanes};
	sel_emit(s, op, 3, ops);
}

/* EXEC = lanes for the successor that falls through without a mask (see
 * is_branch_fallthrough), skipping it when no lane goes there.  Returns the skip target. */
static uint32_t enter_fallthrough(struct isel *s, uint32_t succ, struct mir_opnd lanes)
{
	unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
	struct mir_opnd set[2] = {sel_exec(s), lanes};
	sel_emit(s, mov, 2, set);
	uint32_t skip = s->no_skip[succ] ? s->bar_only[succ] : skip_target(s, succ);
	struct mir_opnd tgt = mir_block_ref(skip);
	sel_emit(s, AMD_OP_S_CBRANCH_EXECZ, 1, &tgt);
	return skip;
}

static bool flows_by_branch(const struct isel *s, uint32_t b, uint32_t succ)
{
	const struct ir_function *ir = s->ir;
	if (s->mask_slot[succ] >= 0 || ir->blocks[succ].linear_pos == 0)
		return false;
	if (sel_is_exec_back_header(s, succ)) /* from the block before the loop */
		return ir->blocks[b].linear_pos + 1 == ir->blocks[succ].linear_pos &&
		       ir->blocks[b].nsuccs == 2 &&
		       ir->blocks[b].succs[0] != ir->blocks[b].succs[1];
	return is_branch_fallthrough(ir, succ, b);
}

/* SCC = the uniform branch condition r (p: its 0/1 SGPR, unless r is an scc_pred). */
static void cond_scc(struct isel *s, ir_ref r, struct mir_opnd p)
{
	if (s->scc_pred[r]) {
		sel_icmp_scc(s, s->def[r]);
		return;
	}
	struct mir_opnd cmp[2] = {p, mir_imm(0)};
	sel_emit(s, AMD_OP_S_CMP_LG_U32, 2, cmp);
}

/* A uniform 0/1 condition's value, none for an scc_pred (cond_scc reads its compare). */
static struct mir_opnd cond_opnd(struct isel *s, ir_ref r)
{
	return s->scc_pred[r] ? mir_imm(0) : sel_bool_opnd(s, r);
}

/* The lanes that go to block t need no record: it only returns (only_returns), or it is
 * a saved join, whose root saved them. */
static bool drops_lanes(const struct isel *s, uint32_t t)
{
	return (s->mask_slot[t] < 0 && only_returns(s, t)) || s->join_root[t] != NONE ||
	       s->else_join[t] != NONE;
}

/* Which side (0 taken, 1 not) of block b's divergent branch goes to a block whose lanes
 * need no record (drops_lanes) while the other falls through by the branch; -1 if not so. */
static int lanes_done(const struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	for (int k = 0; k < 2; k++)
		if (drops_lanes(s, bl->succs[k]) && !flows_by_branch(s, b, bl->succs[k]) &&
		    flows_by_branch(s, b, bl->succs[1 - k]))
			return k;
	return -1;
}

/* J's slot = EXEC, at the end of J's saved root. */
static void save_exec(struct isel *s, uint32_t j)
{
	unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
	if (!in_lanes(s, j)) {
		struct mir_opnd ops[2] = {slot(s, j), sel_exec(s)};
		sel_emit(s, mov, 2, ops);
		return;
	}
	uint32_t t = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd ops[2] = {mir_vreg(t, s->mask_dw), sel_exec(s)};
	sel_emit(s, mov, 2, ops);
	mask_put(s, j, ops[0]);
}

/* Block b saves EXEC with its branch's own EXEC update (s_and_saveexec). */
static bool fuses_save(const struct isel *s, uint32_t b)
{
	uint32_t j = s->root_join[b];
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	uint64_t bits;
	return j != NONE && !in_lanes(s, j) && t->op == IR_BR && bl->succs[0] != bl->succs[1] &&
	       !sel_is_const((struct isel *)s, t->args[0], &bits) && !s->scc_pred[t->args[0]] &&
	       lanes_done(s, b) >= 0;
}

/* The lanes of the returning side are done: EXEC &= p (side 0) or &= ~p (side 1) for the
 * fall-through side `k`, skipping it when no lane is left.  Returns the skip target. */
static uint32_t enter_rest(struct isel *s, uint32_t b, int k, struct mir_opnd p)
{
	uint32_t succ = s->ir->blocks[b].succs[k];
	if (fuses_save(s, b)) { /* J's slot = EXEC; EXEC = p & EXEC (k 0) or ~p & EXEC */
		unsigned op = k == 0 ? sel_wave_op(s, AMD_OP_S_AND_SAVEEXEC_B32,
		                                   AMD_OP_S_AND_SAVEEXEC_B64)
		                     : sel_wave_op(s, AMD_OP_S_ANDN1_SAVEEXEC_B32,
		                                   AMD_OP_S_ANDN1_SAVEEXEC_B64);
		struct mir_opnd ops[2] = {slot(s, s->root_join[b]), p};
		sel_emit(s, op, 2, ops);
	} else {
		unsigned op = k == 0 ? sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64)
		                     : sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64);
		struct mir_opnd ops[3] = {sel_exec(s), sel_exec(s), p};
		sel_emit(s, op, 3, ops);
	}
	uint32_t skip = s->no_skip[succ] ? s->bar_only[succ] : skip_target(s, succ);
	struct mir_opnd tgt = mir_block_ref(skip);
	sel_emit(s, AMD_OP_S_CBRANCH_EXECZ, 1, &tgt);
	return skip;
}

/* The end of the last block of a loop with an EXEC back edge (cflow_join.c): the exit's
 * lanes go to its mask (if it records them), EXEC keeps the lanes that go round again;
 * the loop tail jumps back while any is left. */
static uint32_t exec_back_latch(struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	if (t->op == IR_JMP)
		return NONE; /* every lane goes round again */
	uint32_t h = s->ir->loops[bl->loop].header;
	int kb = bl->succs[0] == h ? 0 : 1; /* the back edge's side */
	uint32_t exit = bl->succs[1 - kb];
	struct mir_opnd p = sel_mask_opnd(s, t->args[0]);
	unsigned op_and = sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64);
	unsigned op_andn2 = sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64);
	if (!drops_lanes(s, exit)) {
		uint32_t out = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd o[3] = {mir_vreg(out, s->mask_dw), sel_exec(s), p};
		sel_emit(s, kb == 0 ? op_andn2 : op_and, 3, o);
		add_lanes(s, exit, o[0]);
	}
	struct mir_opnd e[3] = {sel_exec(s), sel_exec(s), p};
	sel_emit(s, kb == 0 ? op_and : op_andn2, 3, e);
	return NONE;
}

/* Emits the lane bookkeeping of block b's outgoing edges; returns where a wave with no
 * lane left for the fall-through successor jumps (NONE: no such branch). */
static uint32_t edges(struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	s->line = t->line;
	s->col = t->col;
	if (s->root_join[b] != NONE && !fuses_save(s, b))
		save_exec(s, s->root_join[b]);
	if (bl->loop != IR_NO_LOOP && s->exec_back[bl->loop] && s->ir->loops[bl->loop].last == b)
		return exec_back_latch(s, b);
	if (t->op == IR_JMP) {
		add_lanes(s, bl->succs[0], sel_exec(s));
		return NONE;
	}
	if (t->op != IR_BR)
		return NONE; /* ret: these lanes are done */
	uint64_t bits;
	if (sel_is_const(s, t->args[0], &bits) || bl->succs[0] == bl->succs[1]) {
		unsigned chosen = bl->succs[0] == bl->succs[1] || (bits & 1) ? 0 : 1;
		add_lanes(s, bl->succs[chosen], sel_exec(s));
		uint32_t other = bl->succs[1 - chosen];
		if (other != bl->succs[chosen] && flows_by_branch(s, b, other))
			return enter_fallthrough(s, other, mir_imm(0));
		return NONE;
	}
	uint32_t taken, other;
	if (s->scc_pred[t->args[0]]) { /* all lanes one way: EXEC or nothing */
		taken = sel_new_sgpr(s, s->mask_dw), other = sel_new_sgpr(s, s->mask_dw);
		cond_scc(s, t->args[0], mir_imm(0));
		unsigned sel = sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64);
		struct mir_opnd c1[3] = {mir_vreg(taken, s->mask_dw), sel_exec(s), mir_imm(0)};
		sel_emit(s, sel, 3, c1);
		struct mir_opnd c2[3] = {mir_vreg(other, s->mask_dw), mir_imm(0), sel_exec(s)};
		sel_emit(s, sel, 3, c2);
	} else {
		struct mir_opnd p = sel_mask_opnd(s, t->args[0]);
		int done = lanes_done(s, b);
		if (done >= 0)
			return enter_rest(s, b, 1 - done, p);
		taken = sel_new_sgpr(s, s->mask_dw), other = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd a1[3] = {mir_vreg(taken, s->mask_dw), sel_exec(s), p};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64), 3, a1);
		struct mir_opnd a2[3] = {mir_vreg(other, s->mask_dw), sel_exec(s), p};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3, a2);
	}
	struct mir_opnd lanes[2] = {mir_vreg(taken, s->mask_dw), mir_vreg(other, s->mask_dw)};
	int flow = -1;
	for (int k = 0; k < 2; k++) {
		if (flows_by_branch(s, b, bl->succs[k]))
			flow = k;
		else
			add_lanes(s, bl->succs[k], lanes[k]);
	}
	return flow >= 0 ? enter_fallthrough(s, bl->succs[flow], lanes[flow]) : NONE;
}

/* Where the code after region r starts (its last block's loop checks, or the next block). */
static uint32_t region_exit(const struct isel *s, int32_t r)
{
	uint32_t last = s->region_last[r], pos = s->ir->blocks[last].linear_pos;
	if (s->mir_tail[last] != NONE)
		return s->mir_tail[last];
	return pos + 1 < s->ir->norder ? first_mir(s, s->ir->linear_order[pos + 1]) : s->exit_block;
}

static void branch_to(struct isel *s, uint32_t target)
{
	struct mir_opnd tgt = mir_block_ref(target);
	sel_emit(s, AMD_OP_S_BRANCH, 1, &tgt);
}

/* The MIR block a scalar edge from region r to block t jumps to; an edge leaving the
 * region first adds `lanes` to t's mask. */
static uint32_t scalar_target(struct isel *s, int32_t r, uint32_t t, struct mir_opnd lanes)
{
	if (s->region[t] == r)
		return s->mir_body[t];
	add_lanes(s, t, lanes);
	return region_exit(s, r);
}

/* The end of a block of region r (or of its root): scalar branches, EXEC unchanged.
 * `next` is the MIR block that follows in code order. */
static void scalar_edges(struct isel *s, uint32_t b, int32_t r, uint32_t next)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	uint32_t tgt[2] = {NONE, NONE};
	uint64_t bits;
	if (s->mir_else[b] != NONE) { /* empty unless a two-way branch needs it */
		set_succ(s, s->mir_else[b], next, NONE);
		next = s->mir_else[b];
	}
	s->line = t->line;
	s->col = t->col;
	if (t->op == IR_JMP || (t->op == IR_BR && (bl->succs[0] == bl->succs[1] ||
	                                           sel_is_const(s, t->args[0], &bits)))) {
		unsigned k = t->op == IR_BR && bl->succs[0] != bl->succs[1] && !(bits & 1);
		tgt[0] = scalar_target(s, r, bl->succs[k], sel_exec(s));
	} else if (t->op == IR_BR) {
		struct mir_opnd p = cond_opnd(s, t->args[0]);
		unsigned sel = sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64);
		for (unsigned k = 0; k < 2; k++) {
			struct mir_opnd lanes = sel_exec(s);
			if (s->region[bl->succs[k]] != r && records_lanes(s, bl->succs[k])) {
				uint32_t m = sel_new_sgpr(s, s->mask_dw);
				cond_scc(s, t->args[0], p);
				struct mir_opnd cs[3] = {mir_vreg(m, s->mask_dw),
				                         k ? mir_imm(0) : sel_exec(s),
				                         k ? sel_exec(s) : mir_imm(0)};
				sel_emit(s, sel, 3, cs);
				lanes = mir_vreg(m, s->mask_dw);
			}
			tgt[k] = scalar_target(s, r, bl->succs[k], lanes);
		}
		if (tgt[0] != tgt[1]) { /* s_cbranch_scc1; then in its own block s_branch */
			cond_scc(s, t->args[0], p);
			struct mir_opnd t0 = mir_block_ref(tgt[0]);
			sel_emit(s, AMD_OP_S_CBRANCH_SCC1, 1, &t0);
			set_succ(s, s->cur, s->mir_else[b], tgt[0]);
			s->cur = s->mir_else[b];
			next = s->mf->blocks[next].succ[0];
			tgt[0] = tgt[1];
		}
	} else {
		tgt[0] = region_exit(s, r); /* ret: these lanes are done; the others wait after */
	}
	if (tgt[0] != next)
		branch_to(s, tgt[0]);
	set_succ(s, s->cur, tgt[0], NONE);
}

/* The end of the latch of a loop with a scalar back edge (has_scalar_back): the exit's
 * lanes go to its mask, then the wave jumps back to the header's body on the uniform
 * condition, EXEC unchanged. */
static void scalar_latch(struct isel *s, uint32_t b, uint32_t l, uint32_t next)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	uint32_t h = s->ir->loops[l].header, back = s->mir_body[h];
	uint64_t bits;
	s->line = t->line;
	s->col = t->col;
	if (t->op == IR_JMP || bl->succs[0] == bl->succs[1] || sel_is_const(s, t->args[0], &bits)) {
		unsigned k = t->op == IR_BR && bl->succs[0] != bl->succs[1] && !(bits & 1);
		if (bl->succs[k] == h) {
			branch_to(s, back);
			set_succ(s, s->cur, back, NONE);
			return;
		}
		add_lanes(s, bl->succs[k], sel_exec(s));
		set_succ(s, s->cur, next, NONE);
		return;
	}
	unsigned kb = bl->succs[0] == h ? 0 : 1; /* the back edge's side */
	struct mir_opnd p = cond_opnd(s, t->args[0]);
	if (records_lanes(s, bl->succs[1 - kb])) {
		uint32_t m = sel_new_sgpr(s, s->mask_dw);
		cond_scc(s, t->args[0], p);
		struct mir_opnd cs[3] = {mir_vreg(m, s->mask_dw), kb ? sel_exec(s) : mir_imm(0),
		                         kb ? mir_imm(0) : sel_exec(s)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64), 3, cs);
		add_lanes(s, bl->succs[1 - kb], mir_vreg(m, s->mask_dw));
	}
	cond_scc(s, t->args[0], p);
	struct mir_opnd tgt = mir_block_ref(back);
	sel_emit(s, kb ? AMD_OP_S_CBRANCH_SCC0 : AMD_OP_S_CBRANCH_SCC1, 1, &tgt);
	set_succ(s, s->cur, next, back);
}

/* The block an empty-EXEC wave runs instead of block b, which has barriers: those
 * barriers, so that the other waves waiting there are released, and none of b's scalar
 * code, which would overwrite SGPRs live on the path the wave's lanes took (a uniform
 * value computed after the barrier, copied into a phi the other path also writes). */
static void barriers_only(struct isel *s, uint32_t b)
{
	const struct ir_block *bl = &s->ir->blocks[b];
	uint32_t keep = s->cur, line = s->line, col = s->col;
	s->cur = s->bar_only[b];
	s->mf->blocks[s->cur].comment = "empty EXEC: the block's barriers only";
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op == IR_BARRIER || sel_bar_is_hw(s, &bl->insns[i])) {
			s->line = bl->insns[i].line;
			s->col = bl->insns[i].col;
			sel_barrier(s);
		}
	uint32_t next = skip_target(s, b);
	branch_to(s, next);
	set_succ(s, s->cur, next, NONE);
	s->cur = keep;
	s->line = line;
	s->col = col;
}

void sel_block_end(struct isel *s, uint32_t b)
{
	if (s->bar_only[b] != NONE)
		barriers_only(s, b);
	const struct ir_function *ir = s->ir;
	const struct ir_block *bl = &ir->blocks[b];
	for (uint32_t k = 0; k < bl->nsuccs; k++)
		if (k == 0 || bl->succs[k] != bl->succs[0])
			sel_phi_copies(s, b, bl->succs[k]);
	/* what follows the body in code order */
	uint32_t pos = bl->linear_pos;
	uint32_t after =
	        pos + 1 < ir->norder ? first_mir(s, ir->linear_order[pos + 1]) : s->exit_block;
	uint32_t body_next = s->mir_tail[b] != NONE ? s->mir_tail[b] : after;
	int32_t r = s->region[b] >= 0 ? s->region[b] : s->scalar_root[b];
	if (r >= 0) {
		scalar_edges(s, b, r, body_next);
	} else if (bl->loop != IR_NO_LOOP && s->scalar_back[bl->loop] &&
	           ir->loops[bl->loop].last == b) {
		scalar_latch(s, b, bl->loop, body_next);
	} else {
		uint32_t skip = edges(s, b);
		set_succ(s, s->cur, body_next, skip);
		s->mf->blocks[s->cur].skip_succ = skip != NONE && skip != body_next ? 2 : 0;
	}
	/* loop-back checks, innermost loop first (none for a scalar loop: it jumps back) */
	uint32_t t = s->mir_tail[b];
	for (uint32_t l = bl->loop; l != IR_NO_LOOP && ir->loops[l].last == b;
	     l = ir->loops[l].parent) {
		uint32_t h = ir->loops[l].header;
		s->cur = t;
		uint32_t next = t + 1 < s->mf->nblocks && t + 1 != after && t + 1 != s->exit_block
		                        ? t + 1
		                        : after;
		if (s->region[h] >= 0 || s->scalar_back[l]) {
			set_succ(s, t, next, NONE);
			t = next;
			continue;
		}
		if (s->exec_back[l]) { /* EXEC holds the lanes that go round again */
			struct mir_opnd tgt = mir_block_ref(s->mir_body[h]);
			sel_emit(s, AMD_OP_S_CBRANCH_EXECNZ, 1, &tgt);
			set_succ(s, t, next, s->mir_body[h]);
			s->mf->blocks[t].comment = "loop back: lanes left in EXEC";
			t = next;
			continue;
		}
		struct mir_opnd cmp[2] = {mask_get(s, h), mir_imm(0)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64), 2, cmp);
		struct mir_opnd tgt = mir_block_ref(s->mir_head[h]);
		sel_emit(s, AMD_OP_S_CBRANCH_SCC1, 1, &tgt);
		set_succ(s, t, next, s->mir_head[h]);
		s->mf->blocks[t].comment = "loop back: lanes waiting at the header";
		t = next;
	}
}

void sel_finish(struct isel *s)
{
	s->cur = s->exit_block;
	if (s->mf->is_func)
		sel_call_return(s);
	else
		sel_emit(s, AMD_OP_S_ENDPGM, 0, NULL);
	s->mf->blocks[s->exit_block].nsucc = 0;
}
