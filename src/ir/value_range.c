/* ir_value_ranges: the signed range [lo, hi] of every i32 value, and the folds it decides.
 *
 * What it is for: nvcc writes signed division and remainder by a constant as
 * mul.hi.s32 q, x, M; shr.u32 s, q, 31; shr.s32 t, q, k; add r, t, s (stencil2d's i / 18).
 * When x is provably non-negative, q is too: the sign term s is 0 (the add disappears)
 * and shr.s32 is shr.u32.
 *
 * Ranges.  One pass over the blocks in reverse postorder; every value starts as the full
 * range [INT32_MIN, INT32_MAX] (so an operand not reached yet, or of another type, is
 * unknown) and an instruction's range comes from its operands':
 *   constants are exact; %tid, %ntid, %ctaid, %nctaid, %laneid have the PTX ISA's limits
 *   (tid.x, tid.y < 1024, tid.z < 64, ctaid.x < 2^31 - 1, ctaid.y, .z < 65535; the lane
 *   < 64, the widest wave); narrow unsigned loads and ZEXT from i16 are non-negative and bounded;
 *   ADD, SUB, MUL, SHL by a constant: interval arithmetic on exact integers, kept only
 *   where no result of the intervals can leave the i32 range (so no wrap-around at 2^32);
 *   AND with a non-negative side: [0, that side's hi]; OR of non-negatives: [max lo, the
 *   all-ones mask covering both his]; SHR_U / SHR_S by a constant; MIN/MAX (unsigned
 *   ones of non-negatives); MULHI_S (and MULHI_U of non-negatives): the product's
 *   corners shifted, the product being monotone in each factor; SELECT and phis outside
 *   loop headers: the union of their operands.
 * Counted loops.  A phi of a loop header with one predecessor outside the loop (the
 * preheader) and one latch, whose latch operand is `phi + c` with a constant c:
 *   c > 0 and the latch goes round only while `i < n` or `i <= n` (i the phi or its next
 *   value, ir_latch_test, shared with strength_reduce.c): every value is at least the
 *   start's lo and at most H = max(start's hi, the largest tested value that goes round
 *   [+ c when the test reads the phi]), provided H + c does not wrap (induction: each step
 *   adds c to a value <= H without wrapping and goes round only below the bound);
 *   c = -1 and the latch goes round while the next value != 0, started at j0 in [1, M]:
 *   the loop's header runs at most M times, j is in [1, M], and every other counter with
 *   c > 0 of the loop is in [start's lo, start's hi + (M - 1) * c] when that does not wrap.
 * A loop's start is refined by the branches that lead to its preheader: walking up while
 * the block has one predecessor, a BR on `start cmp constant` tells which side holds on
 * that edge (stencil2d skips its remainder loop when the count is 0, and its copy loop
 * when i > 323).
 *
 * Folds (after the ranges, exact for any input the ranges admit): an instruction whose
 * range is one value becomes a copy of that constant (shr.u x, 31 of x >= 0 among them);
 * shr.s of a non-negative value becomes shr.u.  ir_optimize then removes what they leave.
 * requires: ir_cfg_compute.  breaks: nothing (instructions change in place).
 * Complexity: O(instructions + loops x (phis + preheader chain)), O(values) memory. */
#include <string.h>

#include "ir/ir.h"

enum { CHAIN_LIMIT = 16 };

struct vr {
	struct ir_function *fn;
	const struct ir_insn **def; /* def[v]: v's instruction, or NULL */
	struct ir_range *r;
	uint32_t n;
};

static const struct ir_range FULL = {INT32_MIN, INT32_MAX};

static bool fits(int64_t lo, int64_t hi)
{
	return lo >= INT32_MIN && hi <= INT32_MAX && lo <= hi;
}

static struct ir_range make(int64_t lo, int64_t hi)
{
	return fits(lo, hi) ? (struct ir_range){lo, hi} : FULL;
}

static struct ir_range range_of(const struct vr *s, ir_ref v)
{
	const struct ir_function *fn = s->fn;
	if (v >= s->n || fn->vals[v].type != IR_T_I32)
		return FULL;
	if (fn->vals[v].kind == IR_VAL_CONST) {
		int64_t c = (int32_t)(uint32_t)fn->vals[v].bits;
		return (struct ir_range){c, c};
	}
	return s->r[v];
}

static bool is_const(const struct vr *s, ir_ref v, int64_t *c)
{
	struct ir_range r = range_of(s, v);
	*c = r.lo;
	return r.lo == r.hi;
}

static int64_t min2(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max2(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static struct ir_range join(struct ir_range a, struct ir_range b)
{
	return (struct ir_range){min2(a.lo, b.lo), max2(a.hi, b.hi)};
}

/* The smallest 2^k - 1 >= x (x >= 0). */
static int64_t mask_above(int64_t x)
{
	int64_t m = 0;
	while (m < x)
		m = m * 2 + 1;
	return m;
}

static struct ir_range sreg_range(uint32_t sreg)
{
	static const int64_t hi[] = {[IR_SREG_TID_X] = 1023,
	                             [IR_SREG_TID_Y] = 1023,
	                             [IR_SREG_TID_Z] = 63,
	                             [IR_SREG_NTID_X] = 1024,
	                             [IR_SREG_NTID_Y] = 1024,
	                             [IR_SREG_NTID_Z] = 64,
	                             [IR_SREG_CTAID_X] = INT32_MAX - 1,
	                             [IR_SREG_CTAID_Y] = 65534,
	                             [IR_SREG_CTAID_Z] = 65534,
	                             [IR_SREG_NCTAID_X] = INT32_MAX,
	                             [IR_SREG_NCTAID_Y] = 65535,
	                             [IR_SREG_NCTAID_Z] = 65535};
	if (sreg == IR_SREG_LANEID) /* IR_SREG_LANEID is the lane in the wave (build_warp.c
	                             * reads it so under --warp-size 32 too): the widest wave */
		return (struct ir_range){0, 63};
	if (sreg > IR_SREG_NCTAID_Z)
		return FULL;
	bool count = (sreg >= IR_SREG_NTID_X && sreg <= IR_SREG_NTID_Z) || sreg >= IR_SREG_NCTAID_X;
	return (struct ir_range){count ? 1 : 0, hi[sreg]};
}

/* The four corner products of a and b (exact: each factor is below 2^31 in size). */
static struct ir_range mul_corners(struct ir_range a, struct ir_range b, unsigned shift)
{
	int64_t p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	int64_t lo = p[0], hi = p[0];
	for (int k = 1; k < 4; k++) {
		lo = min2(lo, p[k]);
		hi = max2(hi, p[k]);
	}
	return make(lo >> shift, hi >> shift); /* arithmetic shift: floor, monotone */
}

static struct ir_range shift_range(const struct vr *s, const struct ir_insn *in)
{
	struct ir_range a = range_of(s, in->args[0]);
	int64_t k;
	if (!is_const(s, in->args[1], &k) || k < 0)
		return FULL;
	switch (in->op) {
	case IR_SHL:
		return k < 31 ? make(a.lo * ((int64_t)1 << k), a.hi * ((int64_t)1 << k)) : FULL;
	case IR_SHR_S:
		k = k > 31 ? 31 : k; /* PTX: the sign from 32 on */
		return make(a.lo >> k, a.hi >> k);
	default: /* SHR_U */
		if (k >= 32)
			return (struct ir_range){0, 0};
		if (a.lo >= 0)
			return make(a.lo >> k, a.hi >> k);
		return k ? make(0, (int64_t)(UINT32_MAX >> k)) : a;
	}
}

static struct ir_range bits_range(struct ir_range a, struct ir_range b, enum ir_op op)
{
	bool an = a.lo >= 0, bn = b.lo >= 0;
	switch (op) {
	case IR_AND:
		if (an || bn)
			return make(0, an && bn ? min2(a.hi, b.hi) : an ? a.hi : b.hi);
		return FULL;
	case IR_OR:
		return an && bn ? make(max2(a.lo, b.lo), mask_above(max2(a.hi, b.hi))) : FULL;
	case IR_MIN_U:
	case IR_MIN_S:
		if (op == IR_MIN_U && !(an && bn))
			return FULL;
		return (struct ir_range){min2(a.lo, b.lo), min2(a.hi, b.hi)};
	default: /* MAX_U, MAX_S */
		if (op == IR_MAX_U && !(an && bn))
			return FULL;
		return (struct ir_range){max2(a.lo, b.lo), max2(a.hi, b.hi)};
	}
}

static struct ir_range insn_range(const struct vr *s, const struct ir_insn *in)
{
	struct ir_range a = in->nargs > 0 ? range_of(s, in->args[0]) : FULL;
	struct ir_range b = in->nargs > 1 ? range_of(s, in->args[1]) : FULL;
	switch (in->op) {
	case IR_COPY:
		return a;
	case IR_SREG:
		return sreg_range(in->aux);
	case IR_ADD:
		return make(a.lo + b.lo, a.hi + b.hi);
	case IR_SUB:
		return make(a.lo - b.hi, a.hi - b.lo);
	case IR_MUL:
		return mul_corners(a, b, 0);
	case IR_MULHI_U:
		if (a.lo < 0 || b.lo < 0)
			return FULL;
		return mul_corners(a, b, 32);
	case IR_MULHI_S:
		return mul_corners(a, b, 32);
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
		return shift_range(s, in);
	case IR_AND:
	case IR_OR:
	case IR_MIN_U:
	case IR_MIN_S:
	case IR_MAX_U:
	case IR_MAX_S:
		return bits_range(a, b, (enum ir_op)in->op);
	case IR_SELECT:
		return join(b, range_of(s, in->args[2]));
	case IR_ZEXT:
		return s->fn->vals[in->args[0]].type == IR_T_I16 ? (struct ir_range){0, 65535}
		                                                 : FULL;
	case IR_SEXT:
		return s->fn->vals[in->args[0]].type == IR_T_I16 ? (struct ir_range){-32768, 32767}
		                                                 : FULL;
	case IR_LOAD:
		if (!(in->aux & IR_MEM_SIGNED) && ir_mem_bytes(in->aux) < 4)
			return (struct ir_range){0,
			                         ((int64_t)1 << (8 * ir_mem_bytes(in->aux))) - 1};
		return FULL;
	default:
		return FULL;
	}
}

/* ---- loops ---- */

struct loop_info {
	uint32_t header, pre, latch, pre_idx;
};

static bool loop_shape(const struct ir_function *fn, uint32_t l, struct loop_info *li)
{
	const struct ir_loop *lp = &fn->loops[l];
	const struct ir_block *h = &fn->blocks[lp->header];
	if (lp->irreducible || h->npreds != 2)
		return false;
	bool in0 = ir_in_loop(fn, h->preds[0], l), in1 = ir_in_loop(fn, h->preds[1], l);
	if (in0 == in1)
		return false;
	li->header = lp->header;
	li->pre_idx = in0 ? 1 : 0;
	li->pre = h->preds[li->pre_idx];
	li->latch = h->preds[1 - li->pre_idx];
	return true;
}

/* r narrowed by `v cmp k` holding (or not: `holds` false) on the edge being walked. */
static struct ir_range refine(struct ir_range r, enum ir_cmp cmp, int64_t k, bool holds)
{
	static const enum ir_cmp inverse[] = {
	        [IR_CMP_EQ] = IR_CMP_NE, [IR_CMP_NE] = IR_CMP_EQ, [IR_CMP_LT] = IR_CMP_GE,
	        [IR_CMP_LE] = IR_CMP_GT, [IR_CMP_GT] = IR_CMP_LE, [IR_CMP_GE] = IR_CMP_LT};
	if (cmp > IR_CMP_GE)
		return r;
	if (!holds)
		cmp = inverse[cmp];
	struct ir_range n = r;
	switch (cmp) {
	case IR_CMP_EQ:
		n = (struct ir_range){k, k};
		break;
	case IR_CMP_NE:
		n.lo += r.lo == k;
		n.hi -= r.hi == k;
		break;
	case IR_CMP_LT:
		n.hi = min2(r.hi, k - 1);
		break;
	case IR_CMP_LE:
		n.hi = min2(r.hi, k);
		break;
	case IR_CMP_GT:
		n.lo = max2(r.lo, k + 1);
		break;
	default: /* GE */
		n.lo = max2(r.lo, k);
		break;
	}
	n.lo = max2(n.lo, r.lo);
	n.hi = min2(n.hi, r.hi);
	return n.lo <= n.hi ? n : r; /* empty: the loop is never entered; keep r */
}

/* The range of v on entry to block p: v's range refined by the branches of the chain of
 * single predecessors above p (each edge of it is on every path to p). */
static struct ir_range range_entering(const struct vr *s, ir_ref v, uint32_t p)
{
	const struct ir_function *fn = s->fn;
	struct ir_range r = range_of(s, v);
	for (unsigned step = 0; step < CHAIN_LIMIT && fn->blocks[p].npreds == 1; step++) {
		uint32_t q = fn->blocks[p].preds[0];
		const struct ir_block *qb = &fn->blocks[q];
		const struct ir_insn *br = &qb->insns[qb->ninsns - 1];
		const struct ir_insn *c =
		        br->op == IR_BR && br->args[0] < s->n ? s->def[br->args[0]] : NULL;
		if (c && c->op == IR_ICMP && qb->nsuccs == 2 && qb->succs[0] != qb->succs[1]) {
			static const enum ir_cmp swapped[] = {
			        [IR_CMP_EQ] = IR_CMP_EQ, [IR_CMP_NE] = IR_CMP_NE,
			        [IR_CMP_LT] = IR_CMP_GT, [IR_CMP_LE] = IR_CMP_GE,
			        [IR_CMP_GT] = IR_CMP_LT, [IR_CMP_GE] = IR_CMP_LE};
			int64_t k;
			bool holds = qb->succs[0] == p;
			if (c->args[0] == v && is_const(s, c->args[1], &k))
				r = refine(r, (enum ir_cmp)c->aux, k, holds);
			else if (c->args[1] == v && is_const(s, c->args[0], &k) &&
			         c->aux <= IR_CMP_GE)
				r = refine(r, swapped[c->aux], k, holds);
		}
		p = q;
	}
	return r;
}

/* The constant step of header phi `phi` (its latch operand is phi + c), or false. */
static bool phi_step(const struct vr *s, const struct ir_insn *phi, const struct loop_info *li,
                     int64_t *c)
{
	ir_ref next = phi->phi_args[1 - li->pre_idx];
	const struct ir_insn *inc = next < s->n ? s->def[next] : NULL;
	if (phi->type != IR_T_I32 || !inc || inc->type != IR_T_I32)
		return false;
	if (inc->op == IR_ADD && inc->args[0] == phi->res && is_const(s, inc->args[1], c))
		return true;
	if (inc->op == IR_ADD && inc->args[1] == phi->res && is_const(s, inc->args[0], c))
		return true;
	if (inc->op == IR_SUB && inc->args[0] == phi->res && is_const(s, inc->args[1], c)) {
		*c = (int32_t)(uint32_t)(0 - (uint32_t)*c);
		return true;
	}
	return false;
}

static const struct ir_insn *latch_cmp(const struct vr *s, const struct loop_info *li)
{
	const struct ir_block *lb = &s->fn->blocks[li->latch];
	const struct ir_insn *br = &lb->insns[lb->ninsns - 1];
	return br->op == IR_BR && br->args[0] < s->n ? s->def[br->args[0]] : NULL;
}

/* The most times loop li's header runs per entry, from a counter j = phi(j0, j - 1) that
 * goes round while j - 1 != 0 with j0 in [1, M]: M (its range is set to [1, M]); 0: none. */
static int64_t trip_bound(struct vr *s, const struct loop_info *li)
{
	const struct ir_function *fn = s->fn;
	const struct ir_block *h = &fn->blocks[li->header];
	const struct ir_insn *c = latch_cmp(s, li);
	for (uint32_t i = 0; c && i < h->ninsns && h->insns[i].op == IR_PHI; i++) {
		const struct ir_insn *phi = &h->insns[i];
		int64_t step, n;
		bool on_next;
		enum ir_cmp cmp;
		if (!phi_step(s, phi, li, &step) || step != -1 ||
		    !ir_latch_test(fn, li->latch, li->header, c, phi->res,
		                   phi->phi_args[1 - li->pre_idx], &on_next, &cmp, &n) ||
		    !on_next || cmp != IR_CMP_NE || n != 0)
			continue;
		struct ir_range j0 = range_entering(s, phi->phi_args[li->pre_idx], li->pre);
		if (j0.lo < 1)
			continue;
		s->r[phi->res] = (struct ir_range){1, j0.hi};
		return j0.hi;
	}
	return 0;
}

/* The range of header phi `phi` of a counted loop (see the header), or FULL. */
static struct ir_range counter_range(const struct vr *s, const struct ir_insn *phi,
                                     const struct loop_info *li, int64_t trips)
{
	int64_t c, n;
	bool on_next;
	enum ir_cmp cmp;
	if (!phi_step(s, phi, li, &c) || c <= 0)
		return FULL;
	struct ir_range init = range_entering(s, phi->phi_args[li->pre_idx], li->pre);
	if (trips > 0 && init.hi + (trips - 1) * c <= INT32_MAX)
		return (struct ir_range){init.lo, init.hi + (trips - 1) * c};
	const struct ir_insn *t = latch_cmp(s, li);
	if (!t || !ir_latch_test(s->fn, li->latch, li->header, t, phi->res,
	                         phi->phi_args[1 - li->pre_idx], &on_next, &cmp, &n))
		return FULL;
	int64_t last; /* the largest tested value that goes round */
	if (cmp == IR_CMP_LT)
		last = n - 1;
	else if (cmp == IR_CMP_LE)
		last = n;
	else
		return FULL;
	int64_t top = max2(init.hi, on_next ? last : last + c);
	return top + c <= INT32_MAX ? (struct ir_range){init.lo, top} : FULL;
}

static void header_phis(struct vr *s, uint32_t b)
{
	const struct ir_function *fn = s->fn;
	uint32_t l = fn->blocks[b].loop;
	struct loop_info li;
	if (l == IR_NO_LOOP || fn->loops[l].header != b || !loop_shape(fn, l, &li))
		return;
	int64_t trips = trip_bound(s, &li);
	const struct ir_block *h = &fn->blocks[b];
	for (uint32_t i = 0; i < h->ninsns && h->insns[i].op == IR_PHI; i++) {
		ir_ref v = h->insns[i].res;
		if (v < s->n && s->r[v].lo == FULL.lo && s->r[v].hi == FULL.hi)
			s->r[v] = counter_range(s, &h->insns[i], &li, trips);
	}
}

static void block_ranges(struct vr *s, uint32_t b)
{
	const struct ir_function *fn = s->fn;
	const struct ir_block *bl = &fn->blocks[b];
	bool header = bl->loop != IR_NO_LOOP && fn->loops[bl->loop].header == b;
	if (header)
		header_phis(s, b);
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct ir_insn *in = &bl->insns[i];
		if (in->res >= s->n || in->type != IR_T_I32)
			continue;
		if (in->op != IR_PHI) {
			s->r[in->res] = insn_range(s, in);
		} else if (!header) {
			struct ir_range r = range_of(s, in->phi_args[0]);
			for (uint32_t k = 1; k < bl->npreds; k++)
				r = join(r, range_of(s, in->phi_args[k]));
			s->r[in->res] = r;
		}
	}
}

/* ---- folds ---- */

static bool foldable(enum ir_op op)
{
	switch (op) {
	case IR_ADD:
	case IR_SUB:
	case IR_MUL:
	case IR_MULHI_U:
	case IR_MULHI_S:
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
	case IR_AND:
	case IR_OR:
	case IR_MIN_U:
	case IR_MIN_S:
	case IR_MAX_U:
	case IR_MAX_S:
	case IR_SREG:
	case IR_SELECT:
		return true;
	default:
		return false;
	}
}

static unsigned fold_block(struct vr *s, uint32_t b)
{
	struct ir_function *fn = s->fn;
	unsigned n = 0;
	for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
		struct ir_insn *in = &fn->blocks[b].insns[i];
		if (in->res >= s->n || in->type != IR_T_I32 || !foldable((enum ir_op)in->op))
			continue;
		struct ir_range r = s->r[in->res];
		if (r.lo == r.hi) {
			ir_ref c = ir_const(fn, IR_T_I32, (uint32_t)r.lo);
			in = &fn->blocks[b].insns[i];
			*in = (struct ir_insn){.op = IR_COPY,
			                       .type = IR_T_I32,
			                       .nargs = 1,
			                       .res = in->res,
			                       .args = {c},
			                       .line = in->line,
			                       .col = in->col};
			n++;
		} else if (in->op == IR_SHR_S && range_of(s, in->args[0]).lo >= 0) {
			in->op = IR_SHR_U;
			n++;
		}
	}
	return n;
}

unsigned ir_value_ranges(struct ir_function *fn, struct ir_range *out)
{
	if (!fn->cfg_valid)
		return 0;
	struct vr s = {.fn = fn, .n = fn->nvals};
	s.def = PA_NEW_ARRAY(fn->arena, const struct ir_insn *, s.n + 1);
	s.r = PA_NEW_ARRAY(fn->arena, struct ir_range, s.n + 1);
	for (uint32_t v = 0; v < s.n; v++) {
		s.def[v] = NULL;
		s.r[v] = FULL;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			if (fn->blocks[b].insns[i].res < s.n)
				s.def[fn->blocks[b].insns[i].res] = &fn->blocks[b].insns[i];
	for (uint32_t k = 0; k < fn->norder; k++)
		block_ranges(&s, fn->rpo_order[k]);
	if (out)
		for (uint32_t v = 0; v < s.n; v++)
			out[v] = range_of(&s, v);
	unsigned n = 0;
	for (uint32_t k = 0; k < fn->norder; k++)
		n += fold_block(&s, fn->rpo_order[k]);
	return n;
}
