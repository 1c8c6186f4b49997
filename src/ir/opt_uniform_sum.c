/* ir_split_uniform_sums: the uniform part of a divergent address sum is added first.
 *
 * nvcc writes a row's element address as base + ((sext(i) + row_offset) << 2): base and
 * row_offset are the same in every lane, i is not.  Evaluated as written, every operation
 * is divergent: the 64-bit add of row_offset and the 64-bit shift run on the VALU (an add
 * with carry and a v_mov of each SGPR half a gfx9 VALU cannot read beside the carry), in
 * every lane.  Regrouped as (base + (row_offset << 2)) + (sext(i) << 2), the first sum is
 * uniform (SALU, once per wave) and only the lane's own part stays on the VALU, which is
 * how clang-19 forms such addresses.
 *
 * Rules, for R = add(P, X) with P uniform and X divergent, X read only by R:
 *   1. X = add(U, D), U uniform and not a constant (a constant is better left where the
 *      selector folds it into an offset), D divergent:
 *          R = add(add(P, U), D)
 *   2. X = shl(Q, c) or mul(Q, c) with c a constant, Q = add(U, D) as in 1 read only by X:
 *          R = add(add(P, shl(U, c)), shl(D, c))      (mul the same way)
 * Both are exact in two's complement arithmetic modulo 2^width: addition is associative
 * and commutative, and a left shift by a constant or a product by a constant distributes
 * over addition modulo 2^width (PTX's shl of an amount >= width gives 0, and then both sides
 * are P).  The new operations go right before R; X (and Q) are left unread, for the dead
 * code passes (MIR's mir_remove_dead_code: nothing after uniformity removes IR values).
 * requires: ir_uniformity (the divergent flags; the new values get theirs here).
 * breaks: nothing (the CFG is unchanged).
 * Complexity: O(instructions) for the use counts and definitions, plus O(block length) per
 * rewrite to move the block's later instructions. */
#include <string.h>

#include "ir/ir.h"

struct made {
	struct ir_insn in; /* operation and operands; in.res its result */
	uint32_t block;
};

struct split {
	struct ir_function *fn;
	uint32_t *uses;      /* reads of each value */
	uint32_t *sum_uses;  /* reads by an ADD whose other operand is uniform */
	uint32_t *def_block; /* defining instruction of each value: block, index */
	uint32_t *def_index;
	struct made *made; /* operations this pass made, for reuse */
	uint32_t nmade, made_cap;
	uint32_t cap; /* entries of the four tables (values up to now, grown as values are made) */
	struct pa_arena tmp;
};

static bool uniform(const struct split *s, ir_ref r)
{
	return !s->fn->vals[r].divergent;
}

static bool divergent_insn(const struct split *s, ir_ref r)
{
	return s->fn->vals[r].kind == IR_VAL_INSN && s->fn->vals[r].divergent &&
	       s->def_block[r] != IR_NO_BLOCK;
}

static const struct ir_insn *def_of(const struct split *s, ir_ref r)
{
	return &s->fn->blocks[s->def_block[r]].insns[s->def_index[r]];
}

static void count_insn(struct split *s, const struct ir_block *bl, const struct ir_insn *in)
{
	if (in->op == IR_PHI) {
		for (uint32_t a = 0; a < bl->npreds; a++)
			if (in->phi_args[a] != IR_NO_REF)
				s->uses[in->phi_args[a]]++;
		return;
	}
	for (uint32_t a = 0; a < in->nargs; a++)
		if (in->args[a] != IR_NO_REF)
			s->uses[in->args[a]]++;
	if (in->op == IR_ADD && in->nargs == 2)
		for (int i = 0; i < 2; i++)
			if (uniform(s, in->args[1 - i]) && s->fn->vals[in->args[i]].divergent)
				s->sum_uses[in->args[i]]++;
}

/* Sizes the four per-value tables for `need` values.  (They grow with the values the pass
 * makes rather than being sized for its limit up front: 64 KiB cleared per function was a
 * tenth of a small kernel's compile.) */
static void reserve_values(struct split *s, uint32_t need)
{
	if (need <= s->cap)
		return;
	uint32_t cap = s->cap * 2 > need ? s->cap * 2 : need;
	uint32_t *tables[4] = {s->uses, s->sum_uses, s->def_block, s->def_index};
	for (int t = 0; t < 4; t++) {
		uint32_t *fresh = PA_NEW_ARRAY(&s->tmp, uint32_t, cap);
		if (s->cap)
			memcpy(fresh, tables[t], s->cap * sizeof *fresh);
		tables[t] = fresh;
	}
	for (uint32_t r = s->cap; r < cap; r++)
		tables[2][r] = IR_NO_BLOCK;
	s->uses = tables[0];
	s->sum_uses = tables[1];
	s->def_block = tables[2];
	s->def_index = tables[3];
	s->cap = cap;
}

static void count(struct split *s)
{
	struct ir_function *fn = s->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t k = 0; k < bl->ninsns; k++) {
			const struct ir_insn *in = &bl->insns[k];
			if (in->res != IR_NO_REF) {
				s->def_block[in->res] = b;
				s->def_index[in->res] = k;
			}
			count_insn(s, bl, in);
		}
	}
}

/* X = add(U, D), U uniform and not a constant, D divergent: *u, *d.  `shared`: X may have
 * several readers, all sums with a uniform operand; else X is read once. */
static bool uniform_plus_lane(const struct split *s, ir_ref x, bool shared, ir_ref *u, ir_ref *d)
{
	if (!divergent_insn(s, x) || (shared ? s->uses[x] != s->sum_uses[x] : s->uses[x] != 1))
		return false;
	const struct ir_insn *in = def_of(s, x);
	if (in->op != IR_ADD)
		return false;
	for (int i = 0; i < 2; i++) {
		ir_ref a = in->args[i], b = in->args[1 - i];
		if (uniform(s, a) && !ir_is_const(s->fn, a) && s->fn->vals[b].divergent) {
			*u = a;
			*d = b;
			return true;
		}
	}
	return false;
}

/* X = shl(Q, c) or mul(Q, c) (c constant) read only by sums with a uniform operand: the
 * operation with Q in args[0]. */
static bool scaled(const struct split *s, ir_ref x, struct ir_insn *scale, ir_ref *q)
{
	if (!divergent_insn(s, x) || s->uses[x] != s->sum_uses[x])
		return false;
	const struct ir_insn *in = def_of(s, x);
	if (in->op == IR_SHL && ir_is_const(s->fn, in->args[1])) {
		*scale = *in;
		*q = in->args[0];
		return true;
	}
	if (in->op != IR_MUL)
		return false;
	for (int i = 0; i < 2; i++)
		if (ir_is_const(s->fn, in->args[1 - i])) {
			*scale = *in;
			scale->args[0] = in->args[i];
			scale->args[1] = in->args[1 - i];
			*q = in->args[i];
			return true;
		}
	return false;
}

/* Inserts `in` at index k of block b (its result a new value of `divergent`); returns the
 * result. */
static ir_ref insert(struct split *s, uint32_t b, uint32_t k, struct ir_insn in, bool divergent)
{
	struct ir_function *fn = s->fn;
	in.res = ir_new_value(fn, (enum ir_type)in.type, b);
	reserve_values(s, in.res + 1);
	fn->vals[in.res].divergent = divergent;
	ir_append(fn, b, &in);
	struct ir_block *bl = &fn->blocks[b];
	memmove(&bl->insns[k + 1], &bl->insns[k], (bl->ninsns - 1 - k) * sizeof in);
	bl->insns[k] = in;
	for (uint32_t i = k; i < bl->ninsns; i++)
		if (bl->insns[i].res != IR_NO_REF) {
			s->def_block[bl->insns[i].res] = b;
			s->def_index[bl->insns[i].res] = i;
		}
	s->made = pa_arena_grow(&s->tmp, s->made, &s->made_cap, s->nmade + 1, sizeof *s->made);
	s->made[s->nmade++] = (struct made){.in = in, .block = b};
	return in.res;
}

/* The block where a uniform operation on args goes for a sum in block b: the one defining
 * the last of them (they all dominate b), unless it is in a loop b is not in. */
static uint32_t uniform_home(const struct split *s, const ir_ref *args, unsigned n, uint32_t b)
{
	const struct ir_function *fn = s->fn;
	uint32_t home = 0;
	for (unsigned i = 0; i < n; i++) {
		if (fn->vals[args[i]].kind != IR_VAL_INSN || s->def_block[args[i]] == IR_NO_BLOCK)
			continue;
		uint32_t d = s->def_block[args[i]];
		if (ir_dominates(fn, home, d))
			home = d;
	}
	uint32_t l = fn->blocks[home].loop;
	return l == IR_NO_LOOP || ir_in_loop(fn, b, l) ? home : b;
}

/* Whether operands a and b are one value (constants: of equal type and bits). */
static bool same_value(const struct ir_function *fn, ir_ref a, ir_ref b)
{
	return a == b ||
	       (ir_is_const(fn, a) && ir_is_const(fn, b) && fn->vals[a].type == fn->vals[b].type &&
	        fn->vals[a].bits == fn->vals[b].bits);
}

/* The result of `in` (operation and operands) for a sum at index *k of block b: an equal one
 * made before where it dominates the sum, else a new one (uniform ones at their home block's
 * end; *k moves past what is inserted before the sum). */
static ir_ref make(struct split *s, uint32_t b, uint32_t *k, struct ir_insn in, bool divergent)
{
	for (uint32_t i = 0; i < s->nmade; i++) {
		const struct made *m = &s->made[i];
		if (m->in.op == in.op && m->in.type == in.type &&
		    same_value(s->fn, m->in.args[0], in.args[0]) &&
		    same_value(s->fn, m->in.args[1], in.args[1]) &&
		    ir_dominates(s->fn, m->block, b) &&
		    (m->block != b || s->def_index[m->in.res] < *k))
			return m->in.res;
	}
	uint32_t home = divergent ? b : uniform_home(s, in.args, in.nargs, b);
	if (home == b)
		return insert(s, b, (*k)++, in, divergent);
	const struct ir_block *hb = &s->fn->blocks[home];
	uint32_t at = hb->ninsns;
	if (at > 0 && (ir_ops[hb->insns[at - 1].op].flags & IR_OPF_TERM))
		at--;
	return insert(s, home, at, in, divergent);
}

static struct ir_insn binary(enum ir_op op, uint8_t type, ir_ref a, ir_ref b,
                             const struct ir_insn *at)
{
	return (struct ir_insn){.op = (uint16_t)op,
	                        .type = type,
	                        .nargs = 2,
	                        .args = {a, b},
	                        .line = at->line,
	                        .col = at->col};
}

/* Rewrites R at index *k of block b when a rule applies; *k moves past what was inserted. */
static bool split_one(struct split *s, uint32_t b, uint32_t *k)
{
	const struct ir_insn r = s->fn->blocks[b].insns[*k];
	if (r.op != IR_ADD || r.nargs != 2 || r.res == IR_NO_REF || !s->fn->vals[r.res].divergent)
		return false;
	for (int i = 0; i < 2; i++) {
		ir_ref p = r.args[i], x = r.args[1 - i], u, d, q;
		struct ir_insn scale;
		if (!uniform(s, p))
			continue;
		ir_ref lane;
		ir_ref base;
		if (uniform_plus_lane(s, x, true, &u, &d)) {
			base = make(s, b, k, binary(IR_ADD, r.type, p, u, &r), false);
			lane = d;
		} else if (scaled(s, x, &scale, &q) && uniform_plus_lane(s, q, false, &u, &d)) {
			struct ir_insn su = scale, sd = scale;
			su.args[0] = u;
			sd.args[0] = d;
			su.res = sd.res = IR_NO_REF;
			su.line = sd.line = r.line;
			su.col = sd.col = r.col;
			ir_ref us = make(s, b, k, su, false);
			base = make(s, b, k, binary(IR_ADD, r.type, p, us, &r), false);
			lane = make(s, b, k, sd, true);
		} else {
			continue;
		}
		struct ir_insn *rw = &s->fn->blocks[b].insns[*k];
		rw->args[0] = base;
		rw->args[1] = lane;
		return true;
	}
	return false;
}

unsigned ir_split_uniform_sums(struct ir_function *fn)
{
	enum { MADE_PER_SUM = 3, MAX_MADE = 4096 };
	struct split s = {.fn = fn};
	pa_arena_init_beside(&s.tmp, fn->arena);
	/* the pass adds at most MAX_MADE values (the look-up of equal operations is linear in
	 * them) */
	reserve_values(&s, fn->nvals);
	count(&s);
	unsigned rewritten = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].ninsns && s.nmade + MADE_PER_SUM <= MAX_MADE;
		     k++)
			if (split_one(&s, b, &k))
				rewritten++;
	pa_arena_free(&s.tmp);
	return rewritten;
}
