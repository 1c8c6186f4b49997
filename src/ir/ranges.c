/* ir_use_ranges: signed operations on i32 values proven non-negative become unsigned ones,
 * and values proven constant become constants.
 *
 * What it is for: nvcc writes a signed division or remainder by 2^k of an int as
 * `(x + ((x >> 31) >>u (32 - k))) >> k` and `x - ((x + ...) & -2^k)`: three operations
 * that only matter for a negative x.  Where x is a thread index, or a loop counter started
 * at one (hgemm_mma's copy loops: `for (e = tid; e < 512; e += 64)` then `e / 16`,
 * `e % 16`, twelve elements per k-step, three wasted VALU operations each), x >> 31 is 0
 * and the rest folds away in ir_optimize.
 *
 * Ranges.  Each i32 value gets an interval [lo, hi] of its signed value, computed exactly in
 * 64 bits; an operation whose exact result interval leaves the i32 range gets the whole
 * range (it may wrap).  Sources: constants, %tid (below 1024 per dimension, 64 for z, and
 * below the product of .maxntid or .reqntid where given: a launch beyond them fails),
 * %ntid, %ctaid, %nctaid (PTX's limits), %laneid, %warpsize; width changes from narrower
 * types.  Phis join their operands; the operand of an edge that leaves a BR on
 * `icmp x, K` (K constant) is narrowed when it is x or x + c: a counter's next value
 * `e + 64` taken only while `e < 512` is at most 575.  Iteration starts from "no value"
 * and repeats over the blocks in reverse postorder until nothing changes; a phi that keeps
 * growing is widened to the whole range after MAX_GROWTH rounds, so it ends.
 *
 * Rewrites (sound for every value the interval covers): SHR_S by a constant of a value
 * with lo >= 0 becomes SHR_U; an integer operation of the kinds above whose interval is
 * one value becomes a COPY of that constant; `x - (x & m)` becomes `x & ~m` (true for
 * every x: the two parts of x have no common bit), and `(x + c) & (2^k - 1)` with c's low k
 * bits 0 becomes `x & (2^k - 1)`.  ir_optimize, run again by the caller,
 * folds what follows.
 * requires: ir_cfg_compute (rpo_order).  breaks: nothing (the CFG is unchanged).
 * Complexity: O(rounds x instructions), rounds bounded by MAX_ROUNDS; O(values) memory. */
#include <string.h>

#include "ir/ir.h"

enum { MAX_GROWTH = 4, MAX_ROUNDS = 24 };

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

static const struct range FULL = {I32_MIN, I32_MAX, true};
static const struct range NONE = {0, 0, false};

static struct range mk(int64_t lo, int64_t hi)
{
	if (lo < I32_MIN || hi > I32_MAX)
		return FULL;
	return (struct range){lo, hi, true};
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

static int64_t min4(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t m = a < b ? a : b;
	m = m < c ? m : c;
	return m < d ? m : d;
}

static int64_t max4(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t m = a > b ? a : b;
	m = m > c ? m : c;
	return m > d ? m : d;
}

/* The smallest 2^n - 1 at or above v (v >= 0). */
static int64_t ones_above(int64_t v)
{
	int64_t m = 0;
	while (m < v)
		m = m * 2 + 1;
	return m;
}

static struct range sreg_range(const struct ir_function *fn, uint32_t sreg)
{
	uint64_t cta = 1024; /* threads of a CTA at most: PTX's and the hardware's limit */
	const uint32_t *dims = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
	if (dims[0]) {
		uint64_t p = (uint64_t)dims[0] * (dims[1] ? dims[1] : 1) * (dims[2] ? dims[2] : 1);
		cta = p < cta ? p : cta;
	}
	switch (sreg) {
	case IR_SREG_TID_X:
	case IR_SREG_TID_Y:
		return mk(0, (int64_t)cta - 1);
	case IR_SREG_TID_Z:
		return mk(0, (int64_t)(cta < 64 ? cta : 64) - 1);
	case IR_SREG_NTID_X:
	case IR_SREG_NTID_Y:
		return mk(1, (int64_t)cta);
	case IR_SREG_NTID_Z:
		return mk(1, (int64_t)(cta < 64 ? cta : 64));
	case IR_SREG_CTAID_X:
	case IR_SREG_CTAID_Y:
	case IR_SREG_CTAID_Z:
		return mk(0, I32_MAX - 1);
	case IR_SREG_NCTAID_X:
	case IR_SREG_NCTAID_Y:
	case IR_SREG_NCTAID_Z:
		return mk(1, I32_MAX);
	case IR_SREG_LANEID:
		return mk(0, 63);
	case IR_SREG_WARPSZ:
		return mk(32, 64);
	default:
		return FULL;
	}
}

static bool const_amount(const struct ir_function *fn, ir_ref v, int64_t *c)
{
	if (fn->vals[v].kind != IR_VAL_CONST || fn->vals[v].type != IR_T_I32)
		return false;
	*c = (int64_t)(uint32_t)fn->vals[v].bits;
	return true;
}

static struct range shift_range(const struct ranges *rs, const struct ir_insn *in, struct range a)
{
	int64_t c;
	if (!const_amount(rs->fn, in->args[1], &c))
		return FULL;
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
		return c == 0 ? FULL : mk(0, (int64_t)(0xffffffffu >> c));
	}
}

static struct range bits_range(const struct ir_insn *in, struct range a, struct range b)
{
	if (in->op == IR_AND) {
		if (a.lo >= 0 && b.lo >= 0)
			return mk(0, a.hi < b.hi ? a.hi : b.hi);
		if (a.lo >= 0 || b.lo >= 0)
			return mk(0, a.lo >= 0 ? a.hi : b.hi);
		return FULL;
	}
	if (a.lo >= 0 && b.lo >= 0) /* OR, XOR */
		return mk(0, ones_above(a.hi > b.hi ? a.hi : b.hi));
	return FULL;
}

/* The interval of an i32 instruction's result from its operands' (every operand set). */
static struct range eval(const struct ranges *rs, const struct ir_insn *in)
{
	const struct ir_function *fn = rs->fn;
	if (in->op == IR_SREG)
		return sreg_range(fn, in->aux);
	if (in->op == IR_ZEXT || in->op == IR_SEXT) {
		unsigned w = ir_type_bits((enum ir_type)fn->vals[in->args[0]].type);
		if (w >= 32 || w == 0)
			return FULL;
		if (in->op == IR_ZEXT)
			return mk(0, ((int64_t)1 << w) - 1);
		return mk(-((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1);
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
		return mk(a.lo - b.hi, a.hi - b.lo);
	case IR_MUL:
		return mk(min4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi),
		          max4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi));
	case IR_MIN_S:
		return mk(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
	case IR_MAX_S:
		return mk(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
	case IR_AND:
	case IR_OR:
	case IR_XOR:
		return bits_range(in, a, b);
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
		return shift_range(rs, in, a);
	default:
		return FULL;
	}
}

/* x's interval where `cond` (an ICMP of x against a constant) is `taken`. */
static struct range narrow(const struct ranges *rs, ir_ref cond, bool taken, ir_ref x,
                           struct range r)
{
	const struct ir_function *fn = rs->fn;
	const struct ir_insn *c = cond < rs->n ? rs->def[cond] : NULL;
	if (!c || c->op != IR_ICMP || !is_i32(fn, c->args[0]) || !is_i32(fn, c->args[1]))
		return r;
	unsigned kind = c->aux;
	int64_t k;
	if (c->args[0] == x && fn->vals[c->args[1]].kind == IR_VAL_CONST)
		k = (int32_t)(uint32_t)fn->vals[c->args[1]].bits;
	else
		return r;
	if (!taken) {
		static const unsigned neg[] = {
		        [IR_CMP_EQ] = IR_CMP_NE,   [IR_CMP_NE] = IR_CMP_EQ,
		        [IR_CMP_LT] = IR_CMP_GE,   [IR_CMP_LE] = IR_CMP_GT,
		        [IR_CMP_GT] = IR_CMP_LE,   [IR_CMP_GE] = IR_CMP_LT,
		        [IR_CMP_LTU] = IR_CMP_GEU, [IR_CMP_LEU] = IR_CMP_GTU,
		        [IR_CMP_GTU] = IR_CMP_LEU, [IR_CMP_GEU] = IR_CMP_LTU};
		if (kind > IR_CMP_GEU)
			return r;
		kind = neg[kind];
	}
	int64_t lo = r.lo, hi = r.hi;
	switch (kind) {
	case IR_CMP_EQ:
		lo = hi = k;
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
	case IR_CMP_LTU: /* x <u k with k >= 0: 0 <= x < k */
	case IR_CMP_LEU:
		if (k < 0)
			return r;
		lo = 0;
		hi = kind == IR_CMP_LTU ? k - 1 : k;
		break;
	default:
		return r;
	}
	lo = lo > r.lo ? lo : r.lo;
	hi = hi < r.hi ? hi : r.hi;
	return lo > hi ? NONE : (struct range){lo, hi, true};
}

/* A phi operand's interval on the edge from block p: x itself or x + c narrowed by p's
 * branch on x. */
static struct range edge_value(const struct ranges *rs, uint32_t p, uint32_t to, ir_ref v)
{
	const struct ir_function *fn = rs->fn;
	struct range r = of(rs, v);
	const struct ir_block *pb = &fn->blocks[p];
	if (!r.set || pb->ninsns == 0 || pb->nsuccs != 2 || pb->succs[0] == pb->succs[1])
		return r;
	const struct ir_insn *br = &pb->insns[pb->ninsns - 1];
	if (br->op != IR_BR)
		return r;
	bool taken = pb->succs[0] == to;
	ir_ref x = v;
	int64_t c = 0;
	const struct ir_insn *d = v < rs->n ? rs->def[v] : NULL;
	if (d && (d->op == IR_ADD || d->op == IR_SUB) && d->nargs == 2) {
		int k = d->op == IR_ADD && fn->vals[d->args[0]].kind == IR_VAL_CONST ? 0 : 1;
		if (fn->vals[d->args[k]].kind == IR_VAL_CONST && is_i32(fn, d->args[k])) {
			c = (int32_t)(uint32_t)fn->vals[d->args[k]].bits;
			c = d->op == IR_SUB ? -c : c;
			x = d->args[1 - k];
		}
	}
	struct range xr = narrow(rs, br->args[0], taken, x, of(rs, x));
	if (x == v)
		return xr;
	if (!xr.set)
		return NONE;
	struct range n = mk(xr.lo + c, xr.hi + c);
	/* never wider than the operand's own interval */
	if (n.lo < r.lo || n.hi > r.hi)
		return r;
	return n;
}

static struct range phi_range(const struct ranges *rs, uint32_t b, const struct ir_insn *in)
{
	const struct ir_block *bl = &rs->fn->blocks[b];
	struct range j = NONE;
	for (uint32_t p = 0; p < bl->npreds; p++) {
		if (!rs->fn->blocks[bl->preds[p]].reachable)
			continue;
		struct range e = edge_value(rs, bl->preds[p], b, in->phi_args[p]);
		if (!e.set)
			continue;
		j = j.set ? (struct range){e.lo < j.lo ? e.lo : j.lo, e.hi > j.hi ? e.hi : j.hi,
		                           true}
		          : e;
	}
	return j;
}

static void update(struct ranges *rs, uint32_t b, const struct ir_insn *in)
{
	ir_ref v = in->res;
	struct range n = in->op == IR_PHI ? phi_range(rs, b, in) : eval(rs, in);
	struct range o = rs->r[v];
	if (o.set == n.set && (!n.set || (o.lo == n.lo && o.hi == n.hi)))
		return;
	if (o.set && n.set) { /* only ever grows: join with the old one */
		n.lo = n.lo < o.lo ? n.lo : o.lo;
		n.hi = n.hi > o.hi ? n.hi : o.hi;
		if (n.lo == o.lo && n.hi == o.hi)
			return;
	} else if (o.set) {
		return;
	}
	if (in->op == IR_PHI && ++rs->growth[v] > MAX_GROWTH)
		n = FULL;
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
			for (uint32_t i = 0; i < bl->ninsns; i++) {
				const struct ir_insn *in = &bl->insns[i];
				if (in->res != IR_NO_REF && in->res < fn->nvals &&
				    is_i32(fn, in->res))
					update(rs, b, in);
			}
		}
	}
	if (rs->changed) /* not settled: nothing is known */
		for (uint32_t v = 0; v < fn->nvals; v++)
			rs->r[v] = NONE;
}

/* Operations whose interval eval computes from its operands: where it is one value, the
 * operation is that constant. */
static bool foldable(const struct ir_insn *in)
{
	switch (in->op) {
	case IR_ADD:
	case IR_SUB:
	case IR_MUL:
	case IR_MIN_S:
	case IR_MAX_S:
	case IR_AND:
	case IR_OR:
	case IR_XOR:
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
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

static unsigned rewrite(struct ranges *rs)
{
	struct ir_function *fn = rs->fn;
	uint32_t nvals = fn->nvals; /* constants made here have no range */
	unsigned n = 0;
	for (uint32_t k = 0; k < fn->norder; k++) {
		struct ir_block *bl = &fn->blocks[fn->rpo_order[k]];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			if (in->res == IR_NO_REF || in->res >= nvals || !is_i32(fn, in->res))
				continue;
			struct range r = rs->r[in->res];
			if (r.set && r.lo == r.hi && foldable(in)) {
				in->op = IR_COPY;
				in->nargs = 1;
				in->args[0] = ir_const(fn, IR_T_I32, (uint32_t)r.lo);
				n++;
				continue;
			}
			struct range a = in->nargs ? of(rs, in->args[0]) : NONE;
			int64_t c;
			if (in->op == IR_SHR_S && a.set && a.lo >= 0 &&
			    const_amount(fn, in->args[1], &c) && c < 32) {
				in->op = IR_SHR_U;
				n++;
				continue;
			}
			n += split_sub(rs, in); /* then perhaps (x + c) & m */
			n += low_bits(rs, in);
		}
	}
	return n;
}

unsigned ir_use_ranges(struct ir_function *fn)
{
	if (!fn->cfg_valid || fn->nvals == 0)
		return 0;
	struct pa_arena tmp;
	pa_arena_init(&tmp);
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
	unsigned n = rewrite(&rs);
	pa_arena_free(&tmp);
	return n;
}
