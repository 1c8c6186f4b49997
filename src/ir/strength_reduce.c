/* ir_strength_reduce: memory addresses in a loop that are affine functions of an induction
 * variable become induction variables of their own, stepped by one add per iteration,
 * with the accesses' constant differences in their immediate offsets.
 *
 * What it is for: nvcc writes a loop's shared-memory pointer with the offset of the first
 * access folded into it (hgemm_mma's copy loop stores at [p-256], [p-128], [p], [p+128];
 * nbody reads [i-32] .. [i+28]), and an LDS instruction's offset field is unsigned: each
 * negative offset cost a v_add every iteration.  Addresses computed from a counter (shl,
 * mul by a constant, adds of values from before the loop) cost those operations every
 * iteration too.
 *
 * Induction variables.  A phi of loop L's header with two predecessors, the preheader
 * (the header's one predecessor outside L, which jumps only there) and one latch, whose
 * latch operand is `add phi, step` or `sub phi, c` with the step a constant or a value from
 * before the loop.
 *
 * Affine addresses.  The address of a LOAD or STORE to .shared (an i32 address) or .global
 * (i64) in a block of L (not of an inner loop), plus its offset, written as
 * B + s * i + k: i an induction variable of L, s and k constants, B one value from before
 * the loop or nothing.  ADD, SUB, MUL by a constant and SHL by a constant below the width
 * are taken apart in the address's type: modular arithmetic is a ring, so the form is
 * exact with PTX's wrap-around, whatever the values.  A width change (SEXT, ZEXT of an i32
 * e = s * i + k: nvcc's mul.wide, cvt.u64.u32) is not: (i + 1) extended is not ext(i) + 1
 * once i wraps.  It is taken apart only where e provably never wraps: i counts from a
 * constant by a constant step, the latch goes round again only while i (or its next value)
 * is below a constant bound (above, counting down; or unequal to one it reaches exactly),
 * and the last value plus the step stays in the i32 range, which gives i's range; s * i + k
 * over that range, computed exactly, must lie in the extension's source range (signed for
 * SEXT, unsigned for ZEXT).  Then ext(e) is s * i + k as integers, affine in 64 bits in i's
 * exact value.  Anything else ends the search (an extended value from before the loop is B).
 *
 * Rewrite.  Accesses of L with the same i, s, B and space form a group.  The group's new
 * induction variable is P = phi(B + s * init + kmin, P + s * step), of the address's type
 * (start and step sign-extended from a narrower i: proved exact above), its start computed
 * at the end of the preheader, its step before the latch's branch, and each access reads P
 * with offset k - kmin: P equals B + s * i + kmin in every iteration by induction, modulo
 * 2^width, as the address did.  Wanted only where it saves work: the group's in-loop
 * operations on its addresses (each counted once, in the first group that reaches it, even
 * where other users keep it alive) plus its accesses whose offset the instruction cannot
 * hold (.shared: 0..65535; .global: -2048..2047, the narrowest of the targets) must exceed
 * the cost of P's add (1 on .shared's 32 bits; 2 on 64, an add with carry), and the new
 * offsets must fit.  Where the addresses are the counter itself plus constants and nothing
 * else reads it (hgemm_mma's copy loop), P is the counter, started kmin later: no second
 * counter is live through the loop.  Uniformity is computed afterwards: P is uniform where B and
 * the start are, and then lives in an SGPR with an s_add (uniform counters stay on SALU).  The
 * operations the old addresses leave unused are dead code for ir_optimize, which the
 * caller runs again when anything was rewritten.
 * Exit tests (ir_replace_exit_tests, after the rewrite and ir_optimize).  A counter left
 * with no reader but its own add and the loop's exit test, an EQ or NE against a constant
 * (nbody: `i + 64 != 2080` beside the rewrite's P for i - 32), moves its test to another
 * counter P of the loop with the same constant step and a constant start: P - i is the
 * same constant in every iteration, and equality is exact modulo 2^width, so `i cmp n`
 * becomes `P cmp n + (p0 - i0)` (or on the next values).  The old counter is dead code.
 * requires: ir_cfg_compute (loops, preheaders); before ir_uniformity.
 * breaks: nothing (the CFG is unchanged; new values are in the blocks' loops).
 * Complexity: O(loops x blocks + accesses x 2^MAX_DEPTH) (an address's walk is not
 * memoised; its depth is capped), O(values) memory. */
#include <string.h>

#include "ir/ir.h"

enum { MAX_DEPTH = 8, MAX_GROUPS = 16 };

/* B + s * iv + k; iv == IR_NO_REF for a value from before the loop (B + k). */
struct affine {
	ir_ref iv, base;
	uint64_t s, k;
};

/* Where each value's instruction is: def_idx[v] its index in its block (values made after
 * the index was built have none). */
struct defs {
	uint32_t *idx;
	uint32_t n;
};

static void index_defs(const struct ir_function *fn, struct defs *d)
{
	d->n = fn->nvals;
	d->idx = PA_NEW_ARRAY(fn->arena, uint32_t, d->n + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			ir_ref r = fn->blocks[b].insns[i].res;
			if (r < d->n)
				d->idx[r] = i;
		}
}

/* Block b's instructions moved (new ones: at the top, or before the terminator). */
static void reindex_block(const struct ir_function *fn, struct defs *d, uint32_t b)
{
	for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
		ir_ref r = fn->blocks[b].insns[i].res;
		if (r < d->n)
			d->idx[r] = i;
	}
}

static const struct ir_insn *def_of(const struct ir_function *fn, const struct defs *d, ir_ref v)
{
	if (v >= d->n || fn->vals[v].kind != IR_VAL_INSN || fn->vals[v].block == IR_NO_BLOCK)
		return NULL;
	const struct ir_block *bl = &fn->blocks[fn->vals[v].block];
	uint32_t i = d->idx[v];
	return i < bl->ninsns && bl->insns[i].res == v ? &bl->insns[i] : NULL;
}

struct induction {
	uint32_t loop, pre, latch, pre_idx; /* pre_idx: the preheader's phi operand */
	struct defs defs;
};

struct group {
	ir_ref iv, base, new_iv;
	uint64_t s;
	int64_t kmin, kmax;
	uint32_t naccess, gain, space;
};

static uint64_t wrap(uint64_t v, enum ir_type t)
{
	return t == IR_T_I32 ? (uint64_t)(uint32_t)v : v;
}

static int64_t signed_of(uint64_t v, enum ir_type t)
{
	return t == IR_T_I32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

static bool invariant(const struct ir_function *fn, ir_ref v, uint32_t l)
{
	if (v >= fn->nvals || fn->vals[v].kind != IR_VAL_INSN)
		return v < fn->nvals && fn->vals[v].kind == IR_VAL_CONST;
	uint32_t b = fn->vals[v].block;
	return b != IR_NO_BLOCK && !ir_in_loop(fn, b, l);
}

/* The step of phi `v` of the header of loop l (*step: a constant or a value from before the
 * loop), or false when v is no induction variable of l. */
static bool iv_step(const struct ir_function *fn, const struct induction *ind, ir_ref v,
                    ir_ref *step, bool *negate)
{
	const struct ir_insn *phi = def_of(fn, &ind->defs, v);
	if (!phi || phi->op != IR_PHI || fn->vals[v].block != fn->loops[ind->loop].header)
		return false;
	const struct ir_insn *inc = def_of(fn, &ind->defs, phi->phi_args[1 - ind->pre_idx]);
	if (!inc || inc->type != phi->type || (inc->op != IR_ADD && inc->op != IR_SUB))
		return false;
	*negate = inc->op == IR_SUB;
	if (inc->args[0] == v && invariant(fn, inc->args[1], ind->loop))
		*step = inc->args[1];
	else if (inc->op == IR_ADD && inc->args[1] == v && invariant(fn, inc->args[0], ind->loop))
		*step = inc->args[0];
	else
		return false;
	return !*negate || ir_is_const(fn, *step); /* p - x: the step -x, a constant only */
}

/* ---- the range of a 32-bit counter (for extensions) ---- */

/* The latch's condition to go round again as `x cmp n` (x the counter or its next value,
 * n a constant), or false. */
static bool back_condition(const struct ir_function *fn, const struct induction *ind, ir_ref iv,
                           ir_ref next, bool *on_next, enum ir_cmp *cmp, int64_t *n)
{
	const struct ir_block *lb = &fn->blocks[ind->latch];
	const struct ir_insn *br = &lb->insns[lb->ninsns - 1];
	if (br->op != IR_BR)
		return false;
	const struct ir_insn *c = def_of(fn, &ind->defs, br->args[0]);
	return c && ir_latch_test(fn, ind->latch, fn->loops[ind->loop].header, c, iv, next, on_next,
	                          cmp, n);
}

bool ir_latch_test(const struct ir_function *fn, uint32_t latch, uint32_t header,
                   const struct ir_insn *c, ir_ref iv, ir_ref next, bool *on_next, enum ir_cmp *cmp,
                   int64_t *n)
{
	const struct ir_block *lb = &fn->blocks[latch];
	const struct ir_insn *br = &lb->insns[lb->ninsns - 1];
	uint32_t h = header;
	if (br->op != IR_BR || lb->nsuccs != 2 || (lb->succs[0] == h) == (lb->succs[1] == h) ||
	    br->args[0] != c->res)
		return false;
	if (c->op != IR_ICMP)
		return false;
	static const enum ir_cmp swapped[] = {
	        [IR_CMP_EQ] = IR_CMP_EQ, [IR_CMP_NE] = IR_CMP_NE, [IR_CMP_LT] = IR_CMP_GT,
	        [IR_CMP_LE] = IR_CMP_GE, [IR_CMP_GT] = IR_CMP_LT, [IR_CMP_GE] = IR_CMP_LE};
	static const enum ir_cmp inverse[] = {
	        [IR_CMP_EQ] = IR_CMP_NE, [IR_CMP_NE] = IR_CMP_EQ, [IR_CMP_LT] = IR_CMP_GE,
	        [IR_CMP_LE] = IR_CMP_GT, [IR_CMP_GT] = IR_CMP_LE, [IR_CMP_GE] = IR_CMP_LT};
	if (c->aux > IR_CMP_GE)
		return false; /* unsigned: not handled */
	ir_ref x = c->args[0], k = c->args[1];
	*cmp = (enum ir_cmp)c->aux;
	if (ir_is_const(fn, x)) {
		x = c->args[1];
		k = c->args[0];
		*cmp = swapped[*cmp];
	}
	if (!ir_is_const(fn, k) || (x != iv && x != next))
		return false;
	if (lb->succs[1] == h) /* round again when the condition is false */
		*cmp = inverse[*cmp];
	*on_next = x == next;
	*n = (int32_t)(uint32_t)fn->vals[k].bits;
	return true;
}

/* [lo, hi]: every value 32-bit counter iv has in loop l's blocks, without wrapping (each
 * is its start plus a multiple of its step, exactly), or false when that is not proved:
 * a constant start c, a constant step d, and a latch that goes round again only while
 * the counter (or its next value) is below a constant n (above, counting down; or unequal
 * to n, reached exactly), where the last value plus d cannot leave the i32 range. */
static bool iv_range(const struct ir_function *fn, const struct induction *ind, ir_ref iv,
                     int64_t *lo, int64_t *hi)
{
	ir_ref step;
	bool negate, on_next;
	const struct ir_insn *phi = def_of(fn, &ind->defs, iv);
	if (fn->vals[iv].type != IR_T_I32 || !iv_step(fn, ind, iv, &step, &negate) ||
	    !ir_is_const(fn, step) || !ir_is_const(fn, phi->phi_args[ind->pre_idx]))
		return false;
	int64_t c = (int32_t)(uint32_t)fn->vals[phi->phi_args[ind->pre_idx]].bits;
	int64_t d = (int32_t)(uint32_t)fn->vals[step].bits, n;
	d = negate ? -d : d;
	enum ir_cmp cmp;
	if (d == 0 ||
	    !back_condition(fn, ind, iv, phi->phi_args[1 - ind->pre_idx], &on_next, &cmp, &n))
		return false;
	bool down = d < 0;
	if (down) { /* mirror: a counter going up */
		c = -c;
		d = -d;
		n = -n;
		cmp = cmp == IR_CMP_GT ? IR_CMP_LT : cmp == IR_CMP_GE ? IR_CMP_LE : cmp;
		if (cmp != IR_CMP_LT && cmp != IR_CMP_LE && cmp != IR_CMP_NE)
			return false;
	}
	int64_t last; /* the largest value the tested one has when the loop goes round */
	if (cmp == IR_CMP_LT)
		last = n - 1;
	else if (cmp == IR_CMP_LE)
		last = n;
	else if (cmp == IR_CMP_NE && c < n && (n - c) % d == 0)
		last = n - d; /* it reaches n exactly and stops there */
	else
		return false;
	int64_t top = on_next ? last : last + d; /* of the counter itself */
	top = top > c ? top : c;
	if (top + d > INT32_MAX || c < INT32_MIN)
		return false;
	*lo = down ? -top : c;
	*hi = down ? -c : top;
	return *lo >= INT32_MIN && *hi <= INT32_MAX;
}

/* Counts the in-loop operations an address is made of (each once, in `seen`). */
struct walk {
	const struct ir_function *fn;
	const struct induction *ind;
	uint32_t *seen, nseen, stamp; /* seen[v] == stamp: v counted in this loop */
	uint32_t ops;
};

static bool affine_of(struct walk *w, ir_ref v, enum ir_type t, unsigned depth, struct affine *out);

static bool combine(enum ir_op op, enum ir_type t, const struct affine *a, const struct affine *b,
                    struct affine *out)
{
	if (op == IR_SUB) {
		if (b->base != IR_NO_REF)
			return false;
		struct affine nb = {.iv = b->iv,
		                    .base = IR_NO_REF,
		                    .s = wrap(0 - b->s, t),
		                    .k = wrap(0 - b->k, t)};
		return combine(IR_ADD, t, a, &nb, out);
	}
	if ((a->base != IR_NO_REF && b->base != IR_NO_REF) ||
	    (a->iv != IR_NO_REF && b->iv != IR_NO_REF && a->iv != b->iv))
		return false;
	out->iv = a->iv != IR_NO_REF ? a->iv : b->iv;
	out->base = a->base != IR_NO_REF ? a->base : b->base;
	out->s = wrap((a->iv != IR_NO_REF ? a->s : 0) + (b->iv != IR_NO_REF ? b->s : 0), t);
	out->k = wrap(a->k + b->k, t);
	return true;
}

/* x * c (c = 2^n for SHL): the base cannot be scaled (it would need a multiply of its
 * own). */
static bool scale(enum ir_type t, const struct affine *a, uint64_t c, struct affine *out)
{
	if (a->base != IR_NO_REF)
		return false;
	*out = (struct affine){
	        .iv = a->iv, .base = IR_NO_REF, .s = wrap(a->s * c, t), .k = wrap(a->k * c, t)};
	return true;
}

/* sext(e) or zext(e) of an i32 e = s * i + k into i64 (e.g. nvcc's mul.wide): affine in i
 * only where e never wraps, i.e. where s * i + k, with i's range proved by iv_range, stays
 * in the range of the extension's source.  Then the i64 value is s * i + k as integers,
 * and the 64-bit form reads the counter's exact value (its start and step, sign-extended). */
static bool extension(struct walk *w, const struct ir_insn *in, enum ir_type t, unsigned depth,
                      struct affine *out)
{
	struct affine a;
	int64_t lo, hi;
	if (t != IR_T_I64 || w->fn->vals[in->args[0]].type != IR_T_I32 ||
	    !affine_of(w, in->args[0], IR_T_I32, depth + 1, &a) || a.iv == IR_NO_REF ||
	    a.base != IR_NO_REF || !iv_range(w->fn, w->ind, a.iv, &lo, &hi))
		return false;
	int64_t s = (int32_t)(uint32_t)a.s, k = (int32_t)(uint32_t)a.k;
	int64_t e1 = s * lo + k, e2 = s * hi + k;
	int64_t emin = e1 < e2 ? e1 : e2, emax = e1 < e2 ? e2 : e1;
	bool fits = in->op == IR_SEXT ? emin >= INT32_MIN && emax <= INT32_MAX
	                              : emin >= 0 && emax <= (int64_t)UINT32_MAX;
	if (!fits)
		return false;
	*out = (struct affine){.iv = a.iv, .base = IR_NO_REF, .s = (uint64_t)s, .k = (uint64_t)k};
	return true;
}

static bool affine_insn(struct walk *w, const struct ir_insn *in, enum ir_type t, unsigned depth,
                        struct affine *out)
{
	const struct ir_function *fn = w->fn;
	struct affine a, b;
	switch (in->op) {
	case IR_ADD:
	case IR_SUB:
		return affine_of(w, in->args[0], t, depth + 1, &a) &&
		       affine_of(w, in->args[1], t, depth + 1, &b) &&
		       combine((enum ir_op)in->op, t, &a, &b, out);
	case IR_MUL:
	case IR_SHL: {
		ir_ref x = in->args[0], c = in->args[1];
		if (in->op == IR_MUL && ir_is_const(fn, x) && !ir_is_const(fn, c)) {
			x = in->args[1];
			c = in->args[0];
		}
		if (!ir_is_const(fn, c) || !affine_of(w, x, t, depth + 1, &a))
			return false;
		uint64_t m = fn->vals[c].bits;
		if (in->op == IR_SHL) {
			if (m >= ir_type_bits(t)) /* PTX: the result is 0, not a multiple */
				return false;
			m = (uint64_t)1 << m;
		}
		return scale(t, &a, m, out);
	}
	case IR_ZEXT:
	case IR_SEXT:
		return extension(w, in, t, depth, out);
	default:
		return false;
	}
}

static bool affine_of(struct walk *w, ir_ref v, enum ir_type t, unsigned depth, struct affine *out)
{
	const struct ir_function *fn = w->fn;
	if (v >= fn->nvals || fn->vals[v].type != t || depth > MAX_DEPTH)
		return false;
	if (ir_is_const(fn, v)) {
		*out = (struct affine){.iv = IR_NO_REF, .base = IR_NO_REF, .k = fn->vals[v].bits};
		return true;
	}
	if (invariant(fn, v, w->ind->loop)) {
		*out = (struct affine){.iv = IR_NO_REF, .base = v};
		return true;
	}
	ir_ref step;
	bool negate;
	if (iv_step(fn, w->ind, v, &step, &negate)) {
		*out = (struct affine){.iv = v, .base = IR_NO_REF, .s = 1};
		return true;
	}
	const struct ir_insn *in = def_of(fn, &w->ind->defs, v);
	if (!in || in->type != t || !affine_insn(w, in, t, depth, out))
		return false;
	if (v < w->nseen && w->seen[v] != w->stamp) {
		w->seen[v] = w->stamp;
		w->ops++;
	}
	return true;
}

/* ---- the rewrite ---- */

static bool is_access(const struct ir_function *fn, const struct ir_insn *in, uint32_t *space)
{
	if (in->op != IR_LOAD && in->op != IR_STORE)
		return false;
	*space = in->aux & IR_SPACE_MASK;
	enum ir_type t = (enum ir_type)fn->vals[in->args[0]].type;
	return (*space == IR_SPACE_SHARED && t == IR_T_I32) ||
	       (*space == IR_SPACE_GLOBAL && t == IR_T_I64);
}

static bool offset_fits(uint32_t space, int64_t off)
{
	return space == IR_SPACE_SHARED ? off >= 0 && off <= 65535 : off >= -2048 && off <= 2047;
}

static uint32_t preheader(const struct ir_function *fn, uint32_t l, uint32_t *latch,
                          uint32_t *pre_idx)
{
	const struct ir_block *h = &fn->blocks[fn->loops[l].header];
	if (h->npreds != 2 || fn->loops[l].irreducible)
		return IR_NO_BLOCK;
	uint32_t inside0 = ir_in_loop(fn, h->preds[0], l), inside1 = ir_in_loop(fn, h->preds[1], l);
	if (inside0 == inside1)
		return IR_NO_BLOCK;
	*pre_idx = inside0 ? 1 : 0;
	*latch = h->preds[1 - *pre_idx];
	uint32_t p = h->preds[*pre_idx];
	if (fn->blocks[p].nsuccs != 1 || !fn->blocks[p].ninsns)
		return IR_NO_BLOCK;
	return p;
}

/* Appends `op a, b` of type t before block b's terminator; returns its result. */
static ir_ref emit_before_end(struct ir_function *fn, uint32_t b, enum ir_op op, enum ir_type t,
                              ir_ref a, ir_ref c, const struct ir_insn *pos)
{
	ir_ref r = ir_new_value(fn, t, b);
	ir_append(fn, b,
	          &(struct ir_insn){.op = (uint16_t)op,
	                            .type = (uint8_t)t,
	                            .nargs = 2,
	                            .res = r,
	                            .args = {a, c},
	                            .line = pos->line,
	                            .col = pos->col});
	struct ir_block *bl = &fn->blocks[b];
	struct ir_insn last = bl->insns[bl->ninsns - 1];
	bl->insns[bl->ninsns - 1] = bl->insns[bl->ninsns - 2]; /* the terminator stays last */
	bl->insns[bl->ninsns - 2] = last;
	return r;
}

static void insert_phi(struct ir_function *fn, uint32_t h, const struct ir_insn *phi)
{
	ir_append(fn, h, phi);
	struct ir_block *bl = &fn->blocks[h];
	struct ir_insn p = bl->insns[bl->ninsns - 1];
	memmove(&bl->insns[1], &bl->insns[0], (bl->ninsns - 1) * sizeof *bl->insns);
	bl->insns[0] = p;
}

/* A constant of the counter's type (its start or step) as a value of type t: sign-extended
 * when t is wider (iv_range proved the counter never wraps). */
static uint64_t widen(const struct ir_function *fn, ir_ref c, enum ir_type t)
{
	uint64_t v = fn->vals[c].bits;
	if (fn->vals[c].type == IR_T_I32 && t == IR_T_I64)
		v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	return wrap(v, t);
}

/* Makes group g's induction variable P (see the header), of the accesses' address type. */
static void make_iv(struct ir_function *fn, const struct induction *ind, struct group *g,
                    const struct ir_insn *pos)
{
	enum ir_type t = g->space == IR_SPACE_SHARED ? IR_T_I32 : IR_T_I64;
	bool wider = fn->vals[g->iv].type != t; /* (then the start and step are constants) */
	const struct ir_insn *phi = def_of(fn, &ind->defs, g->iv);
	ir_ref init = phi->phi_args[ind->pre_idx], step;
	bool negate;
	iv_step(fn, ind, g->iv, &step, &negate);
	ir_ref s = ir_const(fn, t, g->s);
	if (wider)
		init = ir_const(fn, t, widen(fn, init, t));
	/* start: B + s * init + kmin, at the end of the preheader */
	ir_ref start = emit_before_end(fn, ind->pre, IR_MUL, t, init, s, pos);
	if (g->base != IR_NO_REF)
		start = emit_before_end(fn, ind->pre, IR_ADD, t, start, g->base, pos);
	start = emit_before_end(fn, ind->pre, IR_ADD, t, start,
	                        ir_const(fn, t, wrap((uint64_t)g->kmin, t)), pos);
	ir_ref inc;
	if (ir_is_const(fn, step)) {
		uint64_t d = widen(fn, step, t);
		inc = ir_const(fn, t, wrap((negate ? 0 - d : d) * g->s, t));
	} else {
		inc = emit_before_end(fn, ind->pre, IR_MUL, t, step, s, pos);
	}
	uint32_t h = fn->loops[ind->loop].header;
	g->new_iv = ir_new_value(fn, t, h);
	ir_ref next = emit_before_end(fn, ind->latch, IR_ADD, t, g->new_iv, inc, pos);
	ir_ref *args = PA_NEW_ARRAY(fn->arena, ir_ref, 2);
	args[ind->pre_idx] = start;
	args[1 - ind->pre_idx] = next;
	insert_phi(fn, h,
	           &(struct ir_insn){.op = IR_PHI,
	                             .type = (uint8_t)t,
	                             .res = g->new_iv,
	                             .phi_args = args,
	                             .line = pos->line,
	                             .col = pos->col});
}

struct sr {
	struct ir_function *fn;
	struct induction ind;
	struct group groups[MAX_GROUPS];
	uint32_t ngroups, naccess;
	uint32_t *seen, nseen; /* see struct walk */
};

static struct group *group_of(struct sr *r, const struct affine *a, uint32_t space)
{
	for (uint32_t g = 0; g < r->ngroups; g++)
		if (r->groups[g].iv == a->iv && r->groups[g].base == a->base &&
		    r->groups[g].s == a->s && r->groups[g].space == space)
			return &r->groups[g];
	if (r->ngroups == MAX_GROUPS)
		return NULL;
	struct group *g = &r->groups[r->ngroups++];
	*g = (struct group){.iv = a->iv,
	                    .base = a->base,
	                    .s = a->s,
	                    .space = space,
	                    .new_iv = IR_NO_REF,
	                    .kmin = INT64_MAX,
	                    .kmax = INT64_MIN};
	return g;
}

/* The affine form of access `in` (its offset in k), or false. */
static bool access_form(struct sr *r, const struct ir_insn *in, struct walk *w, struct affine *a)
{
	enum ir_type t = (enum ir_type)r->fn->vals[in->args[0]].type;
	if (!affine_of(w, in->args[0], t, 0, a) || a->iv == IR_NO_REF || a->s == 0)
		return false;
	a->k = wrap(a->k + (uint64_t)in->imm, t);
	return true;
}

/* The group of access `in` (NULL when it is none or its address is not affine in the
 * counter), its address's affine form in *a and the operations it takes apart in *ops. */
static struct group *access_group(struct sr *r, const struct ir_insn *in, struct affine *a,
                                  unsigned *ops)
{
	uint32_t space;
	struct walk w = {.fn = r->fn,
	                 .ind = &r->ind,
	                 .seen = r->seen,
	                 .nseen = r->nseen,
	                 .stamp = r->ind.loop + 1};
	if (!is_access(r->fn, in, &space) || !access_form(r, in, &w, a))
		return NULL;
	*ops = w.ops;
	return group_of(r, a, space);
}

/* Pass 1 over loop l's own blocks: the groups, their offsets and their gain. */
static void collect(struct sr *r, uint32_t l)
{
	struct ir_function *fn = r->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable || bl->loop != l)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			struct affine a;
			unsigned ops;
			struct group *g = access_group(r, in, &a, &ops);
			if (!g)
				continue;
			enum ir_type t = (enum ir_type)fn->vals[in->args[0]].type;
			int64_t k = signed_of(a.k, t);
			g->kmin = k < g->kmin ? k : g->kmin;
			g->kmax = k > g->kmax ? k : g->kmax;
			g->naccess++;
			r->naccess++;
			g->gain += ops + (offset_fits(g->space, in->imm) ? 0 : 1);
		}
	}
}

static bool wanted(const struct group *g)
{
	/* P's add: one instruction on .shared's 32 bits, two (add with carry) on 64 */
	unsigned cost = g->space == IR_SPACE_SHARED ? 1 : 2;
	if (g->naccess == 0 || g->gain < cost + 1)
		return false;
	return offset_fits(g->space, g->kmax - g->kmin) && offset_fits(g->space, 0);
}

/* One access to rewrite: where it is, its group, its new offset. */
struct change {
	uint32_t block, index, group;
	int64_t imm;
};

/* Pass 2: the accesses of wanted groups (found again as pass 1 found them, in the same
 * order, so group_of gives the same groups), before anything moves. */
static uint32_t plan(struct sr *r, uint32_t l, struct change *out)
{
	struct ir_function *fn = r->fn;
	uint32_t n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable || bl->loop != l)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			struct affine a;
			unsigned ops;
			struct group *g = access_group(r, in, &a, &ops);
			if (!g || !wanted(g))
				continue;
			enum ir_type t = (enum ir_type)fn->vals[in->args[0]].type;
			out[n++] = (struct change){.block = b,
			                           .index = i,
			                           .group = (uint32_t)(g - r->groups),
			                           .imm = signed_of(a.k, t) - g->kmin};
		}
	}
	return n;
}

static uint32_t count_uses(const struct ir_function *fn, ir_ref v)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI) {
				for (uint32_t k = 0; k < bl->npreds; k++)
					n += in->phi_args[k] == v;
				continue;
			}
			for (uint32_t k = 0; k < in->nargs && k < 4; k++)
				n += in->args[k] == v;
		}
	}
	return n;
}

/* Whether group `gi`'s P may be its counter itself, started kmin later: the addresses are
 * the counter plus constants (s = 1, no B, the same type), and nothing but them and its
 * increment (read by the phi alone) reads it.  Then no second counter is live through
 * the loop; only the start changes. */
static bool rebase_in_place(struct sr *r, uint32_t gi, const struct change *c, uint32_t n)
{
	struct ir_function *fn = r->fn;
	struct group *g = &r->groups[gi];
	enum ir_type t = g->space == IR_SPACE_SHARED ? IR_T_I32 : IR_T_I64;
	if (g->s != 1 || g->base != IR_NO_REF || fn->vals[g->iv].type != t)
		return false;
	uint32_t direct = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct ir_insn *in = &fn->blocks[c[k].block].insns[c[k].index];
		if (c[k].group == gi && in->args[0] == g->iv &&
		    (in->op != IR_STORE || in->args[1] != g->iv))
			direct++;
	}
	const struct ir_insn *phi = def_of(fn, &r->ind.defs, g->iv);
	ir_ref inc = phi->phi_args[1 - r->ind.pre_idx];
	if (count_uses(fn, g->iv) != direct + 1 || count_uses(fn, inc) != 1)
		return false;
	struct ir_insn pos = *phi;
	ir_ref start = emit_before_end(fn, r->ind.pre, IR_ADD, t, phi->phi_args[r->ind.pre_idx],
	                               ir_const(fn, t, wrap((uint64_t)g->kmin, t)), &pos);
	def_of(fn, &r->ind.defs, g->iv)->phi_args[r->ind.pre_idx] = start;
	g->new_iv = g->iv;
	return true;
}

/* Pass 3: the groups' P, then the accesses read them (the header's own instructions moved
 * down by the phis put above them; the other additions are at blocks' ends). */
static unsigned rewrite(struct sr *r, uint32_t l, const struct change *c, uint32_t n)
{
	struct ir_function *fn = r->fn;
	uint32_t h = fn->loops[l].header, nphis = 0;
	for (uint32_t k = 0; k < n; k++) {
		struct group *g = &r->groups[c[k].group];
		if (g->new_iv != IR_NO_REF)
			continue;
		if (rebase_in_place(r, c[k].group, c, n))
			continue;
		struct ir_insn pos = fn->blocks[c[k].block].insns[c[k].index];
		make_iv(fn, &r->ind, g, &pos);
		nphis++;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = c[k].index + (c[k].block == h ? nphis : 0);
		struct ir_insn *in = &fn->blocks[c[k].block].insns[i];
		in->args[0] = r->groups[c[k].group].new_iv;
		in->imm = c[k].imm;
	}
	return n;
}

/* ---- the exit test on a counter that only counts (after the rewrite) ---- */

/* The constant start and step of header phi v of loop ind->loop, or false. */
static bool const_iv(const struct ir_function *fn, const struct induction *ind, ir_ref v,
                     uint64_t *start, uint64_t *step)
{
	ir_ref s;
	bool negate;
	if (!iv_step(fn, ind, v, &s, &negate) || !ir_is_const(fn, s))
		return false;
	const struct ir_insn *phi = def_of(fn, &ind->defs, v);
	ir_ref init = phi->phi_args[ind->pre_idx];
	if (!ir_is_const(fn, init))
		return false;
	enum ir_type t = (enum ir_type)fn->vals[v].type;
	*start = wrap(fn->vals[init].bits, t);
	*step = wrap(negate ? 0 - fn->vals[s].bits : fn->vals[s].bits, t);
	return true;
}

/* Another counter of the loop's header with the same type and constant step as iv and a
 * constant start (*start), or IR_NO_REF. */
static ir_ref twin_counter(const struct ir_function *fn, const struct induction *ind, ir_ref iv,
                           uint64_t step, uint64_t *start)
{
	const struct ir_block *hb = &fn->blocks[fn->loops[ind->loop].header];
	for (uint32_t i = 0; i < hb->ninsns && hb->insns[i].op == IR_PHI; i++) {
		ir_ref p = hb->insns[i].res;
		uint64_t d;
		if (p != iv && fn->vals[p].type == fn->vals[iv].type &&
		    const_iv(fn, ind, p, start, &d) && d == step)
			return p;
	}
	return IR_NO_REF;
}

/* Loop ind->loop goes round while `x != n` or `x == n` (an ICMP read by the latch's branch
 * alone), x a counter i or its next value, and nothing else reads i or its next value:
 * i only counts.  Where another counter P of the loop steps by the same constant (the
 * rewrite's P, nbody's LDS address), P - i is the constant p0 - i0 in every iteration, so
 * the test becomes `x' cmp n + (p0 - i0)` with x' P or its next value: equality is exact
 * modulo 2^width.  i and its add are then dead; one add per iteration less.  Returns
 * whether the test was replaced. */
static bool replace_exit_test(struct ir_function *fn, const struct induction *ind,
                              const uint32_t *uses)
{
	struct ir_block *lb = &fn->blocks[ind->latch];
	const struct ir_insn *br = &lb->insns[lb->ninsns - 1];
	if (br->op != IR_BR || br->nargs < 1)
		return false;
	const struct ir_insn *c = def_of(fn, &ind->defs, br->args[0]);
	if (!c || c->op != IR_ICMP || (c->aux != IR_CMP_EQ && c->aux != IR_CMP_NE) ||
	    fn->vals[c->res].block != ind->latch || uses[c->res] != 1)
		return false;
	unsigned ki = ir_is_const(fn, c->args[0]) ? 0 : 1; /* the constant's operand */
	ir_ref x = c->args[1 - ki];
	if (!ir_is_const(fn, c->args[ki]) || ir_is_const(fn, x))
		return false;
	const struct ir_insn *xd = def_of(fn, &ind->defs, x);
	bool on_next = xd && xd->op != IR_PHI;
	ir_ref iv = on_next ? (xd->op == IR_ADD || xd->op == IR_SUB ? xd->args[0] : IR_NO_REF) : x;
	if (on_next && xd->op == IR_ADD && iv != IR_NO_REF && ir_is_const(fn, iv))
		iv = xd->args[1];
	uint64_t i0, d, p0;
	if (iv == IR_NO_REF || (fn->vals[iv].type != IR_T_I32 && fn->vals[iv].type != IR_T_I64) ||
	    !const_iv(fn, ind, iv, &i0, &d))
		return false;
	const struct ir_insn *phi = def_of(fn, &ind->defs, iv);
	ir_ref inc = phi->phi_args[1 - ind->pre_idx];
	if ((on_next && x != inc) || inc >= ind->defs.n || uses[iv] != 1u + !on_next ||
	    uses[inc] != 1u + on_next)
		return false;
	ir_ref p = twin_counter(fn, ind, iv, d, &p0);
	if (p == IR_NO_REF)
		return false;
	enum ir_type t = (enum ir_type)fn->vals[iv].type;
	const struct ir_insn *pphi = def_of(fn, &ind->defs, p);
	struct ir_insn test = *c;
	test.res = ir_new_value(fn, IR_T_PRED, ind->latch);
	test.args[1 - ki] = on_next ? pphi->phi_args[1 - ind->pre_idx] : p;
	test.args[ki] = ir_const(fn, t, wrap(fn->vals[c->args[ki]].bits + p0 - i0, t));
	ir_append(fn, ind->latch, &test); /* before the branch, after P's next value */
	lb = &fn->blocks[ind->latch];
	struct ir_insn last = lb->insns[lb->ninsns - 1];
	lb->insns[lb->ninsns - 1] = lb->insns[lb->ninsns - 2];
	lb->insns[lb->ninsns - 2] = last;
	lb->insns[lb->ninsns - 1].args[0] = last.res;
	return true;
}

unsigned ir_strength_reduce(struct ir_function *fn)
{
	if (fn->nloops == 0 || !fn->cfg_valid)
		return 0;
	unsigned n = 0;
	struct sr r = {.fn = fn};
	struct defs defs;
	index_defs(fn, &defs);
	r.nseen = fn->nvals;
	r.seen = PA_NEW_ARRAY(fn->arena, uint32_t, r.nseen + 1);
	for (uint32_t l = 0; l < fn->nloops; l++) {
		r.ind = (struct induction){.loop = l, .defs = defs};
		r.ind.pre = preheader(fn, l, &r.ind.latch, &r.ind.pre_idx);
		if (r.ind.pre == IR_NO_BLOCK)
			continue;
		r.ngroups = r.naccess = 0;
		collect(&r, l);
		bool any = false;
		for (uint32_t g = 0; g < r.ngroups; g++)
			any |= wanted(&r.groups[g]);
		if (!any)
			continue;
		struct change *c = PA_NEW_ARRAY(fn->arena, struct change, r.naccess + 1);
		n += rewrite(&r, l, c, plan(&r, l, c));
		reindex_block(fn, &defs, fn->loops[l].header); /* its phis moved down */
	}
	return n;
}

unsigned ir_replace_exit_tests(struct ir_function *fn)
{
	if (fn->nloops == 0 || !fn->cfg_valid)
		return 0;
	unsigned n = 0;
	struct defs defs;
	index_defs(fn, &defs);
	/* readers per value, once: a loop's rewrite adds readers only to its own P's next
	 * value and a new constant, which no other loop's test looks at */
	uint32_t *uses = PA_NEW_ARRAY(fn->arena, uint32_t, defs.n + 1);
	memset(uses, 0, (defs.n + 1) * sizeof *uses);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			uint32_t nargs = in->op == IR_PHI ? fn->blocks[b].npreds : in->nargs;
			for (uint32_t k = 0; k < nargs && (in->op == IR_PHI || k < 4); k++) {
				ir_ref v = in->op == IR_PHI ? in->phi_args[k] : in->args[k];
				if (v < defs.n)
					uses[v]++;
			}
		}
	for (uint32_t l = 0; l < fn->nloops; l++) {
		struct induction ind = {.loop = l, .defs = defs};
		ind.pre = preheader(fn, l, &ind.latch, &ind.pre_idx);
		if (ind.pre != IR_NO_BLOCK && replace_exit_test(fn, &ind, uses))
			n++;
	}
	return n;
}
