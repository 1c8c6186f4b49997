/* ir_fold_known_bits (inside ir_optimize): AND and OR identities decided by known-zero bits.
 *
 * Each integer value gets a mask of bits known to be zero for every input, from its
 * definition: constants; ZEXT (the new high bits) and TRUNC; SHL, SHR_U (and SHR_S of a value
 * whose sign bit is known zero) by a constant amount (the bits shifted in); AND (zero where
 * either operand is), OR, XOR and SELECT (zero where both are); COPY.  Anything else (phis,
 * loads, arithmetic) knows nothing.  Bits above the value's width count as known zero.
 * Then, with nz(x) the bits of x that may be set:
 *   - `and x, m` with a constant m covering nz(x) is x (nvcc's bfi.b64 of two zero-extended
 *     words at 32, 32 keeps `and (zext a << 32), 0xffffffff00000000` and
 *     `and zext b, 0xffffffff`, which selection made `v_and_b32 x, 0` / `v_and_b32 x, -1`);
 *   - `and x, y` with nz(x) & nz(y) empty is 0;
 *   - `or x, y` and `xor x, y` with nz(y) empty are x.
 * Every rewrite keeps the instruction's result value (it becomes a COPY), so the masks
 * computed before stay right.
 *   requires: nothing (any block order is correct; definitions before uses find more).
 *   breaks: nothing.  Complexity: O(values): each mask is computed once (memoized), with a
 *   depth bound on the recursion. */
#include <string.h>

#include "ir/ir.h"

enum { KB_DEPTH = 24 };

struct kb {
	struct ir_function *fn;
	const struct ir_insn **def; /* defining instruction of each value, or NULL */
	uint64_t *zero;             /* known-zero mask, valid where done[v] */
	bool *done;
	uint32_t n;
};

static uint64_t width_mask(enum ir_type t)
{
	unsigned w = ir_type_bits(t);
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static bool is_int(enum ir_type t)
{
	return t == IR_T_I16 || t == IR_T_I32 || t == IR_T_I64;
}

static bool const_amount(const struct ir_function *fn, ir_ref r, uint64_t *c)
{
	if (fn->vals[r].kind != IR_VAL_CONST || !is_int((enum ir_type)fn->vals[r].type))
		return false;
	*c = fn->vals[r].bits;
	return true;
}

static uint64_t known_zero(struct kb *k, ir_ref r, unsigned depth);

/* A shift by a constant amount c of a (known-zero mask za) at width w, mask m. */
static uint64_t shift_zero(const struct ir_insn *in, uint64_t za, uint64_t c, unsigned w,
                           uint64_t m)
{
	if (c >= w)
		return ~0ull; /* PTX: 0 (shr.s: copies of a sign known to be zero) */
	if (in->op == IR_SHL)
		return (za << c) | ((1ull << c) - 1) | ~m;
	return ((za & m) >> c) | ~(m >> c); /* the top c bits become zero */
}

static uint64_t zero_of_insn(struct kb *k, const struct ir_insn *in, unsigned depth)
{
	const struct ir_function *fn = k->fn;
	enum ir_type t = (enum ir_type)in->type;
	uint64_t m = width_mask(t), c;
	switch (in->op) {
	case IR_COPY:
	case IR_ZEXT: /* (the source's bits above its width count as zero) */
	case IR_TRUNC:
		return known_zero(k, in->args[0], depth + 1) | ~m;
	case IR_AND:
		return known_zero(k, in->args[0], depth + 1) |
		       known_zero(k, in->args[1], depth + 1);
	case IR_OR:
	case IR_XOR:
		return known_zero(k, in->args[0], depth + 1) &
		       known_zero(k, in->args[1], depth + 1);
	case IR_SELECT:
		return known_zero(k, in->args[1], depth + 1) &
		       known_zero(k, in->args[2], depth + 1);
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S: {
		if (!const_amount(fn, in->args[1], &c))
			return ~m;
		uint64_t za = known_zero(k, in->args[0], depth + 1);
		unsigned w = ir_type_bits(t);
		if (in->op == IR_SHR_S && !(za >> (w - 1) & 1))
			return ~m; /* the sign may be set: copies of it come in */
		return shift_zero(in, za, c, w, m);
	}
	default:
		return ~m;
	}
}

/* The bits of value r known to be zero (bits above its width included). */
static uint64_t known_zero(struct kb *k, ir_ref r, unsigned depth)
{
	const struct ir_value *v = &k->fn->vals[r];
	if (!is_int((enum ir_type)v->type))
		return 0;
	uint64_t m = width_mask((enum ir_type)v->type);
	if (v->kind == IR_VAL_CONST)
		return ~(v->bits & m);
	if (r >= k->n || !k->def[r] || depth > KB_DEPTH)
		return ~m;
	if (k->done[r])
		return k->zero[r];
	uint64_t z = zero_of_insn(k, k->def[r], depth) | ~m;
	k->zero[r] = z;
	k->done[r] = true;
	return z;
}

static void make_copy(struct ir_insn *in, ir_ref of)
{
	in->op = IR_COPY;
	in->nargs = 1;
	in->args[0] = of;
	in->args[1] = IR_NO_REF;
}

/* Rewrites one AND/OR/XOR the masks decide; returns whether it did. */
static bool fold_insn(struct kb *k, struct ir_insn *in)
{
	enum ir_type t = (enum ir_type)in->type;
	if ((in->op != IR_AND && in->op != IR_OR && in->op != IR_XOR) || in->nargs != 2 ||
	    !is_int(t))
		return false;
	uint64_t m = width_mask(t), c;
	for (unsigned s = 0; s < 2; s++) {
		ir_ref x = in->args[s], y = in->args[1 - s];
		if (k->fn->vals[x].type != in->type || k->fn->vals[y].type != in->type)
			return false;
		uint64_t nzx = ~known_zero(k, x, 0) & m, nzy = ~known_zero(k, y, 0) & m;
		if (in->op == IR_AND && (nzx & nzy) == 0) {
			make_copy(in, ir_const(k->fn, t, 0));
			return true;
		}
		if (in->op == IR_AND && const_amount(k->fn, y, &c) && (nzx & ~c) == 0) {
			make_copy(in, x);
			return true;
		}
		if (in->op != IR_AND && nzy == 0) {
			make_copy(in, x);
			return true;
		}
	}
	return false;
}

unsigned ir_fold_known_bits(struct ir_function *fn)
{
	struct pa_arena tmp;
	pa_arena_init(&tmp);
	struct kb k = {.fn = fn, .n = fn->nvals};
	k.def = PA_NEW_ARRAY(&tmp, const struct ir_insn *, k.n + 1);
	k.zero = PA_NEW_ARRAY(&tmp, uint64_t, k.n + 1);
	k.done = PA_NEW_ARRAY(&tmp, bool, k.n + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->res != IR_NO_REF && in->res < k.n && in->op != IR_PHI)
				k.def[in->res] = in;
		}
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->res != IR_NO_REF)
				n += fold_insn(&k, in);
		}
	pa_arena_free(&tmp);
	return n;
}
