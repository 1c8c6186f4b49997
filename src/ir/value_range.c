/* ir_value_ranges: the signed range [lo, hi] of every i32 value, and the rewrites it decides.
 *
 * What it is for: nvcc writes a signed division or remainder by 2^k of an int as
 * `(x + ((x >> 31) >>u (32 - k))) >> k` and `x - ((x + ...) & -2^k)`, and a signed division
 * by another constant as mul.hi.s32 q, x, M; shr.u32 s, q, 31; shr.s32 t, q, k; add r, t, s:
 * operations that only matter for a negative x.  Where x is a thread index or a loop counter
 * started at one (hgemm_mma's copy loops `for (e = tid; e < 512; e += 64)` then `e / 16`,
 * `e % 16`; stencil2d's `i / 18`), the sign terms are 0 and ir_optimize removes the rest.
 *
 * The lattice.  Each i32 value has "no value yet" (not reached, or only on infeasible edges)
 * or an interval [lo, hi] of its signed value, computed exactly in 64 bits; an operation whose
 * exact result interval leaves the i32 range gets the whole range (it may wrap: add, sub, mul
 * and shl are kept only where they provably do not).  Sources: constants; %tid below 1024 per
 * dimension (64 for z) and below the product of .maxntid or .reqntid where given (a launch
 * beyond them fails); %ntid, %ctaid, %nctaid within the PTX ISA's limits (ctaid.y, .z <
 * 65535); %laneid below 64 (the widest wave), %warpsize 32 or 64; width changes and narrow
 * unsigned loads.  Transfer: add/sub/mul and mul.hi (the corner products, monotone in each
 * factor), shifts by a constant, and/or/xor, min/max (unsigned ones of non-negatives),
 * select: the union of its two values; `(max.s(b, K) + c) - b` is also within its exact
 * [c, c + max(0, K - b.lo)] (max_minus), and `x & (2^k - 1)` of x in [0, 2^k - 1] is x.
 * Phis join their operands; the operand of an edge that leaves a BR on `icmp x, K` (K
 * constant, either side) is narrowed when it is x or x + c: a counter's next value `e + 64`
 * taken only while `e < 512` is at most 575.
 * Counted loops bound a header phi i = phi(start, i + c) (one preheader, one latch) on top:
 *   c > 0 and the latch goes round only while `i < n` or `i <= n` (i the phi or its next
 *   value, ir_latch_test, shared with strength_reduce.c): i is at least the start's lo and at
 *   most H = max(start's hi, the largest tested value that goes round [+ c when the test reads
 *   the phi]), provided H + c does not wrap (induction over the iterations);
 *   a down-counter j = phi(j0, j - 1) going round while j - 1 != 0 with j0 in [1, M]: the
 *   header runs at most M times per entry, j is in [1, M], and every counter with c > 0 of the
 *   loop is in [start's lo, start's hi + (M - 1) * c] when that does not wrap.
 * The start of a loop is refined by the branches on the chain of single predecessors above
 * the preheader (stencil2d skips its remainder loop when the count is 0, and its copy loop
 * when i > 323).  The loop bound holds whatever the other ranges are, so the phi's range is
 * its join intersected with the bound.
 * Solving: from "no value" everywhere, the blocks are evaluated in reverse postorder until
 * nothing changes; a value only grows (joined with its old range).  A phi that grew in more
 * than MAX_GROWTH rounds is widened to its loop bound (the whole range without one), and to
 * the whole range after 2 x MAX_GROWTH; not settled after MAX_ROUNDS, nothing is known.
 *
 * Rewrites (exact for every input the ranges admit): an integer operation whose range is one
 * value becomes a copy of that constant (shr.u x, 31 of x >= 0 among them); shr.s of a value
 * >= 0 becomes shr.u; `x - (x & m)` becomes `x & ~m` (true for every x: the two parts of x
 * have no common bit), and `(x + c) & (2^k - 1)` with c's low k bits 0 becomes
 * `x & (2^k - 1)` (the low bits of a sum depend on the terms' low bits only),
 * `x & (2^k - 1)` of x in [0, 2^k - 1] becomes a copy of x, and an icmp of an i32 value
 * against a constant that its range decides (signed, or unsigned of a value >= 0) becomes
 * that constant predicate (stencil2d: the remainder loop's `count == 0` skip and the
 * unrolled loop's `t <u 768` guard; the selector then jumps or falls through).  ir_optimize,
 * run again by the caller, folds what follows.
 * requires: ir_cfg_compute (rpo_order, loops).  breaks: nothing (the CFG is unchanged).
 * Complexity: O(rounds x (instructions + loop phis x (phis + preheader chain))), rounds
 * bounded by MAX_ROUNDS; O(values) memory. */
#include <string.h>

#include "ir/ir.h"

enum { MAX_GROWTH = 4, MAX_ROUNDS = 24, CHAIN_LIMIT = 16 };

#define I32_MIN (-2147483648LL)
#define I32_MAX 2147483647LL

struct range {
	int64_t lo, hi;
	bool set; /* false: no value yet (not reached, or an infeasible edge) */
};

struct ranges {
	struct ir_function *fn;
	struct range *r;            /* per value */
	const struct ir_insn **def; /* per value: its instruction */
	uint8_t *growth;            /* per phi value: rounds it grew in */
	uint32_t n;                 /* values when the pass began (its new constants come after) */
	bool changed;
};

struct loop_info {
	uint32_t header, pre, latch, pre_idx;
};

static const struct range FULL = {I32_MIN, I32_MAX, true};
static const struct range NONE = {0, 0, false};

static struct range mk(int64_t lo, int64_t hi)
{
	if (lo < I32_MIN || hi > I32_MAX || lo > hi)
		return FULL;
	return (struct range){lo, hi, true};
}

static int64_t min2(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t max2(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static struct range join(struct range a, struct range b)
{
	if (!a.set || !b.set)
		return a.set ? a : b;
	return (struct range){min2(a.lo, b.lo), max2(a.hi, b.hi), true};
}

static bool is_i32(const struct ir_function *fn, ir_ref v)
{
	return fn->vals[v].type == IR_T_I32;
}

static struct range of(const struct ranges *rs, ir_ref v)
{
	const struct ir_function *fn = rs->fn;
	if (v >= rs->n || !is_i32(fn, v))
		return FULL;
	if (fn->vals[v].kind == IR_VAL_CONST) {
		int64_t c = (int32_t)(uint32_t)fn->vals[v].bits;
		return (struct range){c, c, true};
	}
	if (fn->vals[v].kind != IR_VAL_INSN || !rs->def[v])
		return FULL;
	return rs->r[v];
}

/* v's value when it is an i32 constant (signed). */
static bool const_of(const struct ir_function *fn, ir_ref v, int64_t *c)
{
	if (fn->vals[v].kind != IR_VAL_CONST || fn->vals[v].type != IR_T_I32)
		return false;
	*c = (int32_t)(uint32_t)fn->vals[v].bits;
	return true;
}

/* The smallest 2^n - 1 at or above v (v >= 0). */
static int64_t ones_above(int64_t v)
{
	int64_t m = 0;
	while (m < v)
		m = m * 2 + 1;
	return m;
}

/* ---- transfer ---- */

static struct range sreg_range(const struct ir_function *fn, uint32_t sreg)
{
	uint64_t cta = 1024; /* threads of a CTA at most: PTX's and the hardware's limit */
	const uint32_t *dims = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
	if (dims[0]) {
		uint64_t p = (uint64_t)dims[0] * (dims[1] ? dims[1] : 1) * (dims[2] ? dims[2] : 1);
		cta = p < cta ? p : cta;
	}
	int64_t z = (int64_t)(cta < 64 ? cta : 64);
	switch (sreg) {
	case IR_SREG_TID_X:
	case IR_SREG_TID_Y:
		return mk(0, (int64_t)cta - 1);
	case IR_SREG_TID_Z:
		return mk(0, z - 1);
	case IR_SREG_NTID_X:
	case IR_SREG_NTID_Y:
		return mk(1, (int64_t)cta);
	case IR_SREG_NTID_Z:
		return mk(1, z);
	case IR_SREG_CTAID_X:
		return mk(0, I32_MAX - 1);
	case IR_SREG_CTAID_Y:
	case IR_SREG_CTAID_Z:
		return mk(0, 65534);
	case IR_SREG_NCTAID_X:
		return mk(1, I32_MAX);
	case IR_SREG_NCTAID_Y:
	case IR_SREG_NCTAID_Z:
		return mk(1, 65535);
	case IR_SREG_LANEID: /* the lane in the wave (build_warp.c reads it so under
	                      * --warp-size 32 too): the widest wave */
		return mk(0, 63);
	case IR_SREG_WARPSZ:
		return mk(32, 64);
	default:
		return FULL;
	}
}

/* The four corner products of a and b shifted right (exact: each factor is below 2^31 in
 * size; the arithmetic shift is floor, monotone). */
static struct range mul_corners(struct range a, struct range b, unsigned shift)
{
	int64_t p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	int64_t lo = p[0], hi = p[0];
	for (int k = 1; k < 4; k++) {
		lo = min2(lo, p[k]);
		hi = max2(hi, p[k]);
	}
	return mk(lo >> shift, hi >> shift);
}

/* Shifts by a constant amount; PTX's: amounts from 32 on give 0, or the sign for shr.s. */
static struct range shift_range(const struct ranges *rs, const struct ir_insn *in, struct range a)
{
	const struct ir_function *fn = rs->fn;
	if (fn->vals[in->args[1]].kind != IR_VAL_CONST || !is_i32(fn, in->args[1]))
		return FULL;
	int64_t c = (int64_t)(uint32_t)fn->vals[in->args[1]].bits;
	switch (in->op) {
	case IR_SHL:
		if (c >= 32)
			return mk(0, 0);
		return mk(a.lo * ((int64_t)1 << c), a.hi * ((int64_t)1 << c));
	case IR_SHR_S:
		c = c >= 32 ? 31 : c;
		return mk(a.lo >> c, a.hi >> c);
	default: /* IR_SHR_U */
		if (c >= 32)
			return mk(0, 0);
		if (a.lo >= 0)
			return mk(a.lo >> c, a.hi >> c);
		return c == 0 ? a : mk(0, (int64_t)(0xffffffffu >> c));
	}
}

/* True if m is one value 2^k - 1 and every value of x lies in [0, m]: x & m is x. */
static bool low_mask_of(struct range x, struct range m)
{
	return m.lo == m.hi && m.lo >= 0 && (m.lo & (m.lo + 1)) == 0 && x.lo >= 0 && x.hi <= m.lo;
}

static struct range bits_range(enum ir_op op, struct range a, struct range b)
{
	bool an = a.lo >= 0, bn = b.lo >= 0;
	switch (op) {
	case IR_AND:
		if (low_mask_of(a, b))
			return a;
		if (low_mask_of(b, a))
			return b;
		if (an || bn)
			return mk(0, an && bn ? min2(a.hi, b.hi) : an ? a.hi : b.hi);
		return FULL;
	case IR_OR:
		return an && bn ? mk(max2(a.lo, b.lo), ones_above(max2(a.hi, b.hi))) : FULL;
	case IR_XOR:
		return an && bn ? mk(0, ones_above(max2(a.hi, b.hi))) : FULL;
	case IR_MIN_U:
	case IR_MIN_S:
		if (op == IR_MIN_U && !(an && bn))
			return FULL;
		return mk(min2(a.lo, b.lo), min2(a.hi, b.hi));
	default: /* MAX_U, MAX_S */
		if (op == IR_MAX_U && !(an && bn))
			return FULL;
		return mk(max2(a.lo, b.lo), max2(a.hi, b.hi));
	}
}

/* Results that depend on no operand's range. */
static bool source_range(const struct ir_function *fn, const struct ir_insn *in, struct range *r)
{
	switch (in->op) {
	case IR_SREG:
		*r = sreg_range(fn, in->aux);
		return true;
	case IR_ZEXT:
	case IR_SEXT: {
		unsigned w = ir_type_bits((enum ir_type)fn->vals[in->args[0]].type);
		if (w >= 32 || w == 0)
			*r = FULL;
		else if (in->op == IR_ZEXT)
			*r = mk(0, ((int64_t)1 << w) - 1);
		else
			*r = mk(-((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1);
		return true;
	}
	case IR_LOAD:
		*r = FULL;
		if (!(in->aux & IR_MEM_SIGNED) && ir_mem_bytes(in->aux) < 4)
			*r = mk(0, ((int64_t)1 << (8 * ir_mem_bytes(in->aux))) - 1);
		return true;
	default:
		return false;
	}
}

/* The interval of an i32 instruction's result from its operands' (NONE while one has none). */
/* r (the interval rule's range of T = sub(S, b)) intersected with [c, c + max(0, K - b.lo)]
 * where S is max.s(b, K) or add(max.s(b, K), c), K and c constants: the exact value of T is
 * c + max(0, K - b), and a value of an exact interval inside i32 is T's whatever the
 * intermediate sums wrapped (equal modulo 2^32).  nvcc's trip count `max(i, 68) + 255 - i`
 * (stencil2d, after ir_fold_sub_chains) is [255, 323] for i >= 0, which the interval rule,
 * blind to the two i being one value, does not see. */
static struct range max_minus(const struct ranges *rs, const struct ir_insn *in, struct range r)
{
	const struct ir_function *fn = rs->fn;
	ir_ref s = in->args[0], b = in->args[1];
	int64_t c = 0, k;
	const struct ir_insn *d = s < rs->n ? rs->def[s] : NULL;
	if (d && d->op == IR_ADD && d->nargs == 2) {
		int j = const_of(fn, d->args[1], &c) ? 0 : const_of(fn, d->args[0], &c) ? 1 : -1;
		d = j >= 0 && d->args[j] < rs->n ? rs->def[d->args[j]] : NULL;
	}
	if (!d || d->op != IR_MAX_S || d->nargs != 2)
		return r;
	struct range br = of(rs, b);
	for (int j = 0; j < 2; j++)
		if (d->args[j] == b && const_of(fn, d->args[1 - j], &k) && br.set) {
			struct range t = mk(c, c + max2(0, k - br.lo));
			if (t.lo == I32_MIN && t.hi == I32_MAX)
				return r;
			int64_t lo = max2(r.lo, t.lo), hi = min2(r.hi, t.hi);
			return lo > hi ? r : mk(lo, hi);
		}
	return r;
}

static struct range eval(const struct ranges *rs, const struct ir_insn *in)
{
	struct range r;
	if (source_range(rs->fn, in, &r))
		return r;
	if (in->op == IR_SELECT && in->nargs == 3) {
		struct range a = of(rs, in->args[1]), b = of(rs, in->args[2]);
		return a.set && b.set ? join(a, b) : NONE;
	}
	if (in->nargs < 1 || in->nargs > 2)
		return FULL;
	struct range a = of(rs, in->args[0]), b = in->nargs == 2 ? of(rs, in->args[1]) : FULL;
	if (!a.set || !b.set)
		return NONE;
	switch (in->op) {
	case IR_COPY:
		return a;
	case IR_ADD:
		return mk(a.lo + b.lo, a.hi + b.hi);
	case IR_SUB:
		return max_minus(rs, in, mk(a.lo - b.hi, a.hi - b.lo));
	case IR_MUL:
		return mul_corners(a, b, 0);
	case IR_MULHI_U:
		return a.lo >= 0 && b.lo >= 0 ? mul_corners(a, b, 32) : FULL;
	case IR_MULHI_S:
		return mul_corners(a, b, 32);
	case IR_AND:
	case IR_OR:
	case IR_XOR:
	case IR_MIN_S:
	case IR_MAX_S:
	case IR_MIN_U:
	case IR_MAX_U:
		return bits_range((enum ir_op)in->op, a, b);
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
		return shift_range(rs, in, a);
	default:
		return FULL;
	}
}

/* ---- branches ---- */

/* r narrowed by `x cmp k` being `holds` (NONE where no value of r satisfies it). */
static struct range narrow(struct range r, enum ir_cmp cmp, int64_t k, bool holds)
{
	static const enum ir_cmp inverse[] = {
	        [IR_CMP_EQ] = IR_CMP_NE,   [IR_CMP_NE] = IR_CMP_EQ,   [IR_CMP_LT] = IR_CMP_GE,
	        [IR_CMP_LE] = IR_CMP_GT,   [IR_CMP_GT] = IR_CMP_LE,   [IR_CMP_GE] = IR_CMP_LT,
	        [IR_CMP_LTU] = IR_CMP_GEU, [IR_CMP_LEU] = IR_CMP_GTU, [IR_CMP_GTU] = IR_CMP_LEU,
	        [IR_CMP_GEU] = IR_CMP_LTU};
	if (!r.set || cmp > IR_CMP_GEU)
		return r;
	if (!holds)
		cmp = inverse[cmp];
	int64_t lo = r.lo, hi = r.hi;
	switch (cmp) {
	case IR_CMP_EQ:
		lo = hi = k;
		break;
	case IR_CMP_NE:
		lo += r.lo == k;
		hi -= r.hi == k;
		break;
	case IR_CMP_LT:
		hi = k - 1;
		break;
	case IR_CMP_LE:
		hi = k;
		break;
	case IR_CMP_GT:
		lo = k + 1;
		break;
	case IR_CMP_GE:
		lo = k;
		break;
	case IR_CMP_GTU: /* x >u k with k >= 0 and x >= 0: x > k (signed) */
	case IR_CMP_GEU:
		if (k < 0 || r.lo < 0)
			return r;
		lo = cmp == IR_CMP_GTU ? k + 1 : k;
		break;
	case IR_CMP_LTU: /* x <u k with k >= 0: 0 <= x < k */
	case IR_CMP_LEU:
		if (k < 0)
			return r;
		lo = 0;
		hi = cmp == IR_CMP_LTU ? k - 1 : k;
		break;
	default:
		return r;
	}
	lo = max2(lo, r.lo);
	hi = min2(hi, r.hi);
	return lo > hi ? NONE : (struct range){lo, hi, true};
}

/* r (x's range) narrowed by the ICMP `cond` of x against a constant being `holds`. */
static struct range narrow_by(const struct ranges *rs, ir_ref cond, bool holds, ir_ref x,
                              struct range r)
{
	static const enum ir_cmp swapped[] = {
	        [IR_CMP_EQ] = IR_CMP_EQ,   [IR_CMP_NE] = IR_CMP_NE,   [IR_CMP_LT] = IR_CMP_GT,
	        [IR_CMP_LE] = IR_CMP_GE,   [IR_CMP_GT] = IR_CMP_LT,   [IR_CMP_GE] = IR_CMP_LE,
	        [IR_CMP_LTU] = IR_CMP_GTU, [IR_CMP_LEU] = IR_CMP_GEU, [IR_CMP_GTU] = IR_CMP_LTU,
	        [IR_CMP_GEU] = IR_CMP_LEU};
	const struct ir_function *fn = rs->fn;
	const struct ir_insn *c = cond < rs->n ? rs->def[cond] : NULL;
	int64_t k;
	if (!c || c->op != IR_ICMP || c->aux > IR_CMP_GEU || !is_i32(fn, c->args[0]) ||
	    !is_i32(fn, c->args[1]))
		return r;
	if (c->args[0] == x && const_of(fn, c->args[1], &k))
		return narrow(r, (enum ir_cmp)c->aux, k, holds);
	if (c->args[1] == x && const_of(fn, c->args[0], &k))
		return narrow(r, swapped[c->aux], k, holds);
	return r;
}

/* The BR ending block p when it has two distinct successors, or NULL. */
static const struct ir_insn *two_way_branch(const struct ir_function *fn, uint32_t p)
{
	const struct ir_block *pb = &fn->blocks[p];
	if (pb->ninsns == 0 || pb->nsuccs != 2 || pb->succs[0] == pb->succs[1])
		return NULL;
	const struct ir_insn *br = &pb->insns[pb->ninsns - 1];
	return br->op == IR_BR ? br : NULL;
}

/* A phi operand's interval on the edge from block p: v narrowed by p's branch on v, or on x
 * where v is x + c. */
static struct range edge_value(const struct ranges *rs, uint32_t p, uint32_t to, ir_ref v)
{
	const struct ir_function *fn = rs->fn;
	struct range r = of(rs, v);
	const struct ir_insn *br = two_way_branch(fn, p);
	if (!r.set || !br)
		return r;
	bool taken = fn->blocks[p].succs[0] == to;
	r = narrow_by(rs, br->args[0], taken, v, r);
	if (!r.set)
		return NONE;
	ir_ref x = v;
	int64_t c = 0;
	const struct ir_insn *d = v < rs->n ? rs->def[v] : NULL;
	if (d && (d->op == IR_ADD || d->op == IR_SUB) && d->nargs == 2) {
		int k = d->op == IR_ADD && fn->vals[d->args[0]].kind == IR_VAL_CONST ? 0 : 1;
		if (const_of(fn, d->args[k], &c)) {
			c = d->op == IR_SUB ? -c : c;
			x = d->args[1 - k];
		}
	}
	if (x == v)
		return r;
	struct range xr = narrow_by(rs, br->args[0], taken, x, of(rs, x));
	if (!xr.set)
		return NONE;
	struct range n = mk(xr.lo + c, xr.hi + c);
	/* never wider than the operand's own interval */
	if (n.lo < r.lo || n.hi > r.hi)
		return r;
	return n;
}

/* The range of v on entry to block p: v's range narrowed by the branches of the chain of
 * single predecessors above p (each edge of it is on every path to p). */
static struct range range_entering(const struct ranges *rs, ir_ref v, uint32_t p)
{
	const struct ir_function *fn = rs->fn;
	struct range r = of(rs, v);
	for (unsigned step = 0; step < CHAIN_LIMIT && fn->blocks[p].npreds == 1; step++) {
		uint32_t q = fn->blocks[p].preds[0];
		const struct ir_insn *br = two_way_branch(fn, q);
		if (br) {
			struct range n =
			        narrow_by(rs, br->args[0], fn->blocks[q].succs[0] == p, v, r);
			r = n.set ? n : r; /* none: the loop is never entered; keep r */
		}
		p = q;
	}
	return r;
}

/* ---- counted loops ---- */

/* Loop header b with one preheader and one latch: li filled. */
static bool loop_shape(const struct ir_function *fn, uint32_t b, struct loop_info *li)
{
	uint32_t l = fn->blocks[b].loop;
	if (l == IR_NO_LOOP || fn->loops[l].header != b || fn->loops[l].irreducible)
		return false;
	const struct ir_block *h = &fn->blocks[b];
	if (h->npreds != 2)
		return false;
	bool in0 = ir_in_loop(fn, h->preds[0], l), in1 = ir_in_loop(fn, h->preds[1], l);
	if (in0 == in1)
		return false;
	li->header = b;
	li->pre_idx = in0 ? 1 : 0;
	li->pre = h->preds[li->pre_idx];
	li->latch = h->preds[1 - li->pre_idx];
	return true;
}

/* The constant step of header phi `phi` (its latch operand is phi + c), or false. */
static bool phi_step(const struct ranges *rs, const struct ir_insn *phi, const struct loop_info *li,
                     int64_t *c)
{
	const struct ir_function *fn = rs->fn;
	ir_ref next = phi->phi_args[1 - li->pre_idx];
	const struct ir_insn *inc = next < rs->n ? rs->def[next] : NULL;
	if (phi->type != IR_T_I32 || !inc || inc->type != IR_T_I32 || inc->nargs != 2)
		return false;
	if (inc->op == IR_ADD && inc->args[0] == phi->res && const_of(fn, inc->args[1], c))
		return true;
	if (inc->op == IR_ADD && inc->args[1] == phi->res && const_of(fn, inc->args[0], c))
		return true;
	if (inc->op == IR_SUB && inc->args[0] == phi->res && const_of(fn, inc->args[1], c)) {
		*c = (int32_t)(uint32_t)(0 - (uint32_t)*c);
		return true;
	}
	return false;
}

static const struct ir_insn *latch_cmp(const struct ranges *rs, const struct loop_info *li)
{
	const struct ir_block *lb = &rs->fn->blocks[li->latch];
	if (lb->ninsns == 0)
		return NULL;
	const struct ir_insn *br = &lb->insns[lb->ninsns - 1];
	return br->op == IR_BR && br->args[0] < rs->n ? rs->def[br->args[0]] : NULL;
}

/* phi is a down-counter j = phi(j0, j - 1) going round while j - 1 != 0 with j0 >= 1: the
 * range of j0 entering the loop. */
static bool down_counter(const struct ranges *rs, const struct loop_info *li,
                         const struct ir_insn *phi, struct range *j0)
{
	const struct ir_insn *c = latch_cmp(rs, li);
	int64_t step, n;
	bool on_next;
	enum ir_cmp cmp;
	if (!c || !phi_step(rs, phi, li, &step) || step != -1 ||
	    !ir_latch_test(rs->fn, li->latch, li->header, c, phi->res,
	                   phi->phi_args[1 - li->pre_idx], &on_next, &cmp, &n) ||
	    !on_next || cmp != IR_CMP_NE || n != 0)
		return false;
	*j0 = range_entering(rs, phi->phi_args[li->pre_idx], li->pre);
	return j0->set && j0->lo >= 1;
}

/* The most times the loop's header runs per entry, from its first down-counter; 0: none. */
static int64_t trip_bound(const struct ranges *rs, const struct loop_info *li)
{
	const struct ir_block *h = &rs->fn->blocks[li->header];
	struct range j0;
	for (uint32_t i = 0; i < h->ninsns && h->insns[i].op == IR_PHI; i++)
		if (down_counter(rs, li, &h->insns[i], &j0))
			return j0.hi;
	return 0;
}

/* The bound of header phi `phi` of a counted loop (see the header), or FULL. */
static struct range loop_bound(const struct ranges *rs, const struct ir_insn *phi,
                               const struct loop_info *li)
{
	int64_t c, n, trips;
	bool on_next;
	enum ir_cmp cmp;
	struct range j0;
	if (down_counter(rs, li, phi, &j0))
		return mk(1, j0.hi);
	if (!phi_step(rs, phi, li, &c) || c <= 0)
		return FULL;
	struct range init = range_entering(rs, phi->phi_args[li->pre_idx], li->pre);
	if (!init.set)
		return FULL;
	trips = trip_bound(rs, li);
	if (trips > 0 && init.hi + (trips - 1) * c <= I32_MAX)
		return mk(init.lo, init.hi + (trips - 1) * c);
	const struct ir_insn *t = latch_cmp(rs, li);
	if (!t || !ir_latch_test(rs->fn, li->latch, li->header, t, phi->res,
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
	return top + c <= I32_MAX ? mk(init.lo, top) : FULL;
}

/* ---- solving ---- */

static struct range phi_range(const struct ranges *rs, uint32_t b, const struct ir_insn *in,
                              struct range bound)
{
	const struct ir_block *bl = &rs->fn->blocks[b];
	struct range j = NONE;
	for (uint32_t p = 0; p < bl->npreds; p++)
		if (rs->fn->blocks[bl->preds[p]].reachable)
			j = join(j, edge_value(rs, bl->preds[p], b, in->phi_args[p]));
	if (!j.set || max2(j.lo, bound.lo) > min2(j.hi, bound.hi))
		return j;
	return (struct range){max2(j.lo, bound.lo), min2(j.hi, bound.hi), true};
}

static void update(struct ranges *rs, uint32_t b, const struct ir_insn *in,
                   const struct loop_info *li)
{
	ir_ref v = in->res;
	struct range bound = FULL, n;
	if (in->op == IR_PHI) {
		if (li)
			bound = loop_bound(rs, in, li);
		n = phi_range(rs, b, in, bound);
	} else {
		n = eval(rs, in);
	}
	struct range o = rs->r[v];
	if (!n.set)
		return; /* nothing yet (a value only grows) */
	n = join(n, o);
	if (o.set && n.lo == o.lo && n.hi == o.hi)
		return;
	if (in->op == IR_PHI && ++rs->growth[v] > MAX_GROWTH)
		n = rs->growth[v] > 2 * MAX_GROWTH ? FULL : join(n, bound);
	rs->r[v] = n;
	rs->changed = true;
}

static void solve(struct ranges *rs)
{
	struct ir_function *fn = rs->fn;
	rs->changed = true;
	for (int round = 0; rs->changed && round < MAX_ROUNDS; round++) {
		rs->changed = false;
		for (uint32_t k = 0; k < fn->norder; k++) {
			uint32_t b = fn->rpo_order[k];
			const struct ir_block *bl = &fn->blocks[b];
			struct loop_info li;
			bool header = loop_shape(fn, b, &li);
			for (uint32_t i = 0; i < bl->ninsns; i++) {
				const struct ir_insn *in = &bl->insns[i];
				if (in->res != IR_NO_REF && in->res < rs->n && is_i32(fn, in->res))
					update(rs, b, in, header ? &li : NULL);
			}
		}
	}
	if (rs->changed) /* not settled: nothing is known */
		for (uint32_t v = 0; v < rs->n; v++)
			rs->r[v] = FULL;
}

/* ---- rewrites ---- */

/* Operations whose range eval computes from its operands: where it is one value, the
 * operation is that constant. */
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
	case IR_XOR:
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

/* v itself, or x where v is x + z or x | z with z proven 0 (nvcc's x + (x >> 31 >>u 28)
 * for a non-negative x, which ir_optimize folds only later). */
static ir_ref plain(const struct ranges *rs, ir_ref v)
{
	const struct ir_insn *d = v < rs->n ? rs->def[v] : NULL;
	if (!d || (d->op != IR_ADD && d->op != IR_OR) || d->nargs != 2)
		return v;
	for (int k = 0; k < 2; k++) {
		struct range z = of(rs, d->args[1 - k]);
		if (z.set && z.lo == 0 && z.hi == 0 && is_i32(rs->fn, d->args[k]))
			return d->args[k];
	}
	return v;
}

/* The constant operand of a two-operand `in` and the other one; false without one. */
static bool const_side(const struct ir_function *fn, const struct ir_insn *in, uint32_t *c,
                       ir_ref *x)
{
	for (int k = 0; k < 2; k++)
		if (fn->vals[in->args[k]].kind == IR_VAL_CONST && is_i32(fn, in->args[k])) {
			*c = (uint32_t)fn->vals[in->args[k]].bits;
			*x = in->args[1 - k];
			return true;
		}
	return false;
}

/* (x + c) & m with m = 2^k - 1 and c's low k bits 0: x & m (true for every x: the low k
 * bits of a sum depend on the low k bits of its terms only).  nvcc's e % 16, (e + 64) % 16,
 * ... of one counter then are one value. */
static bool low_bits(struct ranges *rs, struct ir_insn *in)
{
	struct ir_function *fn = rs->fn;
	uint32_t m, c;
	ir_ref sum, x;
	if (in->op != IR_AND || in->nargs != 2 || !is_i32(fn, in->res) ||
	    !const_side(fn, in, &m, &sum) || (m & (m + 1)) != 0 || sum >= rs->n)
		return false;
	const struct ir_insn *a = rs->def[sum];
	if (!a || a->op != IR_ADD || a->nargs != 2 || !const_side(fn, a, &c, &x) || (c & m) != 0)
		return false;
	in->args[0] = x;
	in->args[1] = ir_const(fn, IR_T_I32, m);
	return true;
}

/* x - (x & m) with constant m: x & ~m. */
static bool split_sub(struct ranges *rs, struct ir_insn *in)
{
	struct ir_function *fn = rs->fn;
	if (in->op != IR_SUB || in->nargs != 2 || !is_i32(fn, in->res) || in->args[1] >= rs->n)
		return false;
	const struct ir_insn *a = rs->def[in->args[1]];
	if (!a || a->op != IR_AND || a->nargs != 2)
		return false;
	for (int k = 0; k < 2; k++)
		if (plain(rs, a->args[k]) == plain(rs, in->args[0]) &&
		    fn->vals[a->args[1 - k]].kind == IR_VAL_CONST && is_i32(fn, a->args[1 - k])) {
			uint32_t m = (uint32_t)fn->vals[a->args[1 - k]].bits;
			in->op = IR_AND;
			in->args[1] = ir_const(fn, IR_T_I32, ~m);
			return true;
		}
	return false;
}

/* in (i32, one of the pass's values) rewritten by its range; true when it changed. */
static bool rewrite_one(struct ranges *rs, struct ir_insn *in)
{
	struct ir_function *fn = rs->fn;
	struct range r = rs->r[in->res];
	if (r.set && r.lo == r.hi && foldable((enum ir_op)in->op)) {
		ir_ref c = ir_const(fn, IR_T_I32, (uint32_t)r.lo);
		*in = (struct ir_insn){.op = IR_COPY,
		                       .type = IR_T_I32,
		                       .nargs = 1,
		                       .res = in->res,
		                       .args = {c},
		                       .line = in->line,
		                       .col = in->col};
		return true;
	}
	if (in->op == IR_SHR_S && in->nargs == 2) {
		struct range a = of(rs, in->args[0]);
		if (a.set && a.lo >= 0) {
			in->op = IR_SHR_U;
			return true;
		}
	}
	if (in->op == IR_AND && in->nargs == 2)
		for (int k = 0; k < 2; k++)
			if (low_mask_of(of(rs, in->args[k]), of(rs, in->args[1 - k])) &&
			    fn->vals[in->args[1 - k]].kind == IR_VAL_CONST) {
				*in = (struct ir_insn){.op = IR_COPY,
				                       .type = IR_T_I32,
				                       .nargs = 1,
				                       .res = in->res,
				                       .args = {in->args[k]},
				                       .line = in->line,
				                       .col = in->col};
				return true;
			}
	bool split = split_sub(rs, in); /* then perhaps (x + c) & m */
	return low_bits(rs, in) || split;
}

/* An ICMP of an i32 value against a constant that its range decides: the constant
 * predicate (the branch on it then goes one way; the selector jumps). */
static bool decide_icmp(struct ranges *rs, struct ir_insn *in)
{
	static const enum ir_cmp swapped[] = {
	        [IR_CMP_EQ] = IR_CMP_EQ,   [IR_CMP_NE] = IR_CMP_NE,   [IR_CMP_LT] = IR_CMP_GT,
	        [IR_CMP_LE] = IR_CMP_GE,   [IR_CMP_GT] = IR_CMP_LT,   [IR_CMP_GE] = IR_CMP_LE,
	        [IR_CMP_LTU] = IR_CMP_GTU, [IR_CMP_LEU] = IR_CMP_GEU, [IR_CMP_GTU] = IR_CMP_LTU,
	        [IR_CMP_GEU] = IR_CMP_LEU};
	struct ir_function *fn = rs->fn;
	int64_t k;
	if (in->op != IR_ICMP || in->nargs != 2 || in->aux > IR_CMP_GEU || in->type != IR_T_PRED ||
	    !is_i32(fn, in->args[0]) || !is_i32(fn, in->args[1]))
		return false;
	enum ir_cmp cmp = (enum ir_cmp)in->aux;
	ir_ref x = in->args[0];
	if (!const_of(fn, in->args[1], &k)) {
		if (!const_of(fn, in->args[0], &k))
			return false;
		x = in->args[1];
		cmp = swapped[cmp];
	}
	struct range r = of(rs, x);
	if (!r.set)
		return false;
	bool can_hold = narrow(r, cmp, k, true).set, can_fail = narrow(r, cmp, k, false).set;
	if (can_hold == can_fail)
		return false;
	*in = (struct ir_insn){.op = IR_COPY,
	                       .type = IR_T_PRED,
	                       .nargs = 1,
	                       .res = in->res,
	                       .args = {ir_const(fn, IR_T_PRED, can_hold)},
	                       .line = in->line,
	                       .col = in->col};
	return true;
}

static unsigned rewrite(struct ranges *rs)
{
	struct ir_function *fn = rs->fn;
	unsigned n = 0;
	for (uint32_t k = 0; k < fn->norder; k++) {
		struct ir_block *bl = &fn->blocks[fn->rpo_order[k]];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			if (in->res != IR_NO_REF && in->res < rs->n && is_i32(fn, in->res))
				n += rewrite_one(rs, in);
			else if (in->res != IR_NO_REF && in->res < rs->n)
				n += decide_icmp(rs, in);
		}
	}
	return n;
}

unsigned ir_value_ranges(struct ir_function *fn, struct ir_range *out)
{
	if (!fn->cfg_valid || fn->nvals == 0)
		return 0;
	struct pa_arena tmp;
	pa_arena_init_beside(&tmp, fn->arena);
	struct ranges rs = {.fn = fn, .n = fn->nvals};
	rs.r = PA_NEW_ARRAY(&tmp, struct range, fn->nvals);
	rs.def = PA_NEW_ARRAY(&tmp, const struct ir_insn *, fn->nvals);
	rs.growth = PA_NEW_ARRAY(&tmp, uint8_t, fn->nvals);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			ir_ref v = fn->blocks[b].insns[i].res;
			if (v != IR_NO_REF && v < fn->nvals)
				rs.def[v] = &fn->blocks[b].insns[i];
		}
	solve(&rs);
	if (out)
		for (uint32_t v = 0; v < rs.n; v++) {
			struct range r = of(&rs, v);
			/* no value ever (unreachable): the empty range */
			out[v] = r.set ? (struct ir_range){r.lo, r.hi} : (struct ir_range){1, 0};
		}
	unsigned n = rewrite(&rs);
	pa_arena_free(&tmp);
	return n;
}
