/* ir_match_rotates: 32-bit funnel shifts and rotates written as shifts, as one FSHR.
 *
 * `(a << k) op (b >> (32 - k))` with op OR, XOR or ADD, i32, a constant k in 1..31 and a
 * logical right shift is exactly FSHR(a, b, 32 - k) for every a and b: the two shifted
 * values have no set bit in common (bits k..31 and 0..k-1), so OR, XOR and ADD agree, and
 * FSHR(hi, lo, n) = low word of (hi:lo) >> n = (hi << (32 - n)) | (lo >> n) for n in 1..31.
 * Amounts that are not such constants are left alone: PTX clamps shl/shr amounts >= 32 to
 * a zero result while FSHR masks its amount to 5 bits, so a variable k (k = 0 or k > 32) is
 * not a funnel shift.  Selection makes FSHR one v_alignbit_b32 (sel_bits.c).
 *
 * The rotate is then made one value where nvcc wrote two: for ChaCha-style rounds nvcc
 * re-associates `rotl(x ^ y, 8)` into `(x ^ y) << 8 | (x ^ y') >> 24` where y' = z << 16
 * and y = rotl(z, 16) agree on the top 8 bits, the only bits the right shift reads.  When
 * a and b agree on every bit one of the shifts reads (`agree`, below), FSHR takes the
 * other operand twice (a rotate), and the second value and its inputs die (DCE after).
 *
 * agree(A, B, m) proves bit i of A equals bit i of B for every i in the mask m, for every
 * input, structurally: the same value; constants equal on m; constant shifts and funnel
 * shifts split into pieces (result bits that are source bits moved by a fixed distance, and
 * known zero bits), compared piece by piece with the same source shift; the same bitwise
 * operation (AND, OR, XOR, NOT) on operands that agree on m (either order where it
 * commutes); ADD/SUB/MUL on operands that agree on every bit up to m's highest (low result
 * bits depend only on lower operand bits); OR/XOR with an operand known zero on m.  The
 * search is bounded (depth and steps), so a failure only keeps the two-operand FSHR.
 *
 * requires: operands forwarded (run inside ir_optimize, before its DCE); blocks in an
 * order where a value's definition comes before its uses for the best result (any order
 * is correct).  breaks: nothing (the rewritten instruction keeps its result value).
 * Complexity: O(instructions) with a constant bound per candidate. */
#include "ir/ir.h"

enum { AGREE_DEPTH = 12, AGREE_STEPS = 256 };

struct rot {
	struct ir_function *fn;
	const struct ir_insn **def; /* defining instruction of each value, or NULL */
	uint32_t ndef;
	unsigned steps; /* agree's budget for the current candidate */
};

/* A run of result bits (mask) that are bits of src moved left by shift (right if < 0). */
struct piece {
	ir_ref src;
	int shift;
	uint32_t mask;
};

static const struct ir_insn *def_i32(const struct rot *r, ir_ref v)
{
	if (v >= r->ndef || !r->def[v] || r->def[v]->type != IR_T_I32)
		return NULL;
	return r->def[v];
}

static bool const_bits(const struct rot *r, ir_ref v, uint32_t *c)
{
	const struct ir_value *val = &r->fn->vals[v];
	if (val->kind != IR_VAL_CONST || val->type != IR_T_I32)
		return false;
	*c = (uint32_t)val->bits;
	return true;
}

/* A constant shift amount below 32. */
static bool amount(const struct rot *r, ir_ref v, uint32_t *k)
{
	return const_bits(r, v, k) && *k < 32;
}

static uint32_t move(uint32_t m, int shift)
{
	return shift >= 0 ? m << shift : m >> -shift;
}

/* Splits v into pieces and known zero bits (*zero); one piece {v, 0, ~0} when v is not a
 * constant shift. */
static unsigned split(const struct rot *r, ir_ref v, struct piece p[2], uint32_t *zero)
{
	const struct ir_insn *in = def_i32(r, v);
	uint32_t k;
	*zero = 0;
	if (in && (in->op == IR_SHL || in->op == IR_SHR_U) && amount(r, in->args[1], &k)) {
		int s = in->op == IR_SHL ? (int)k : -(int)k;
		p[0] = (struct piece){in->args[0], s, move(~0u, s)};
		*zero = ~p[0].mask;
		return 1;
	}
	if (in && in->op == IR_FSHR && const_bits(r, in->args[2], &k) && (k & 31)) {
		k &= 31;
		p[0] = (struct piece){in->args[1], -(int)k, ~0u >> k};
		p[1] = (struct piece){in->args[0], 32 - (int)k, ~0u << (32 - k)};
		return 2;
	}
	p[0] = (struct piece){v, 0, ~0u};
	return 1;
}

/* Bits of v known to be zero (one level of operands). */
static uint32_t known_zero(const struct rot *r, ir_ref v, int depth)
{
	uint32_t c;
	if (const_bits(r, v, &c))
		return ~c;
	const struct ir_insn *in = def_i32(r, v);
	if (!in || depth > 2)
		return 0;
	struct piece p[2];
	uint32_t z;
	if (in->op == IR_SHL || in->op == IR_SHR_U) {
		split(r, v, p, &z);
		return z;
	}
	if (in->op == IR_AND)
		return known_zero(r, in->args[0], depth + 1) |
		       known_zero(r, in->args[1], depth + 1);
	if (in->op == IR_OR || in->op == IR_XOR)
		return known_zero(r, in->args[0], depth + 1) &
		       known_zero(r, in->args[1], depth + 1);
	return 0;
}

static bool agree(struct rot *r, ir_ref a, ir_ref b, uint32_t m, int depth);

/* Both values split into pieces, at least one of them non-trivially. */
static bool agree_pieces(struct rot *r, ir_ref a, ir_ref b, uint32_t m, int depth)
{
	struct piece pa[2], pb[2];
	uint32_t za, zb;
	unsigned na = split(r, a, pa, &za), nb = split(r, b, pb, &zb);
	if (na == 1 && nb == 1 && pa[0].src == a && pb[0].src == b)
		return false; /* neither splits: the caller's operation rules apply */
	if ((za ^ zb) & m)
		return false; /* zero on one side, a source bit on the other */
	for (unsigned i = 0; i < na; i++)
		for (unsigned j = 0; j < nb; j++) {
			uint32_t o = m & pa[i].mask & pb[j].mask;
			if (!o)
				continue;
			if (pa[i].shift != pb[j].shift ||
			    !agree(r, pa[i].src, pb[j].src, move(o, -pa[i].shift), depth + 1))
				return false;
		}
	return true;
}

static bool commutes(enum ir_op op)
{
	return op == IR_AND || op == IR_OR || op == IR_XOR || op == IR_ADD || op == IR_MUL;
}

/* The mask of every bit up to m's highest: what ADD/SUB/MUL's low result bits read. */
static uint32_t low_closure(uint32_t m)
{
	uint32_t c = m;
	for (int s = 1; s < 32; s *= 2)
		c |= c >> s;
	return c;
}

/* The same operation on both sides. */
static bool agree_ops(struct rot *r, const struct ir_insn *x, const struct ir_insn *y, uint32_t m,
                      int depth)
{
	if (x->op != y->op || x->nargs != y->nargs)
		return false;
	switch (x->op) {
	case IR_NOT:
		return agree(r, x->args[0], y->args[0], m, depth + 1);
	case IR_ADD:
	case IR_SUB:
	case IR_MUL:
		m = low_closure(m);
		break;
	case IR_AND:
	case IR_OR:
	case IR_XOR:
		break;
	default:
		return false;
	}
	if (agree(r, x->args[0], y->args[0], m, depth + 1) &&
	    agree(r, x->args[1], y->args[1], m, depth + 1))
		return true;
	return commutes((enum ir_op)x->op) && agree(r, x->args[0], y->args[1], m, depth + 1) &&
	       agree(r, x->args[1], y->args[0], m, depth + 1);
}

/* v = u | z or u ^ z with z zero on m: u, else IR_NO_REF. */
static ir_ref skip_zero_operand(const struct rot *r, ir_ref v, uint32_t m)
{
	const struct ir_insn *in = def_i32(r, v);
	if (!in || (in->op != IR_OR && in->op != IR_XOR))
		return IR_NO_REF;
	for (unsigned k = 0; k < 2; k++)
		if (!(m & ~known_zero(r, in->args[k], 0)))
			return in->args[1 - k];
	return IR_NO_REF;
}

static bool agree(struct rot *r, ir_ref a, ir_ref b, uint32_t m, int depth)
{
	if (a == b || !m)
		return true;
	if (depth > AGREE_DEPTH || r->steps == 0)
		return false;
	r->steps--;
	uint32_t ca, cb;
	if (const_bits(r, a, &ca) && const_bits(r, b, &cb))
		return !((ca ^ cb) & m);
	if (agree_pieces(r, a, b, m, depth))
		return true;
	const struct ir_insn *x = def_i32(r, a), *y = def_i32(r, b);
	if (x && y && agree_ops(r, x, y, m, depth))
		return true;
	ir_ref u = skip_zero_operand(r, a, m);
	if (u != IR_NO_REF && agree(r, u, b, m, depth + 1))
		return true;
	u = skip_zero_operand(r, b, m);
	return u != IR_NO_REF && agree(r, a, u, m, depth + 1);
}

/* in = (a << k) op (b >> (32 - k)): rewritten in place as FSHR; false when not that. */
static bool match(struct rot *r, struct ir_insn *in)
{
	if (in->type != IR_T_I32 || in->nargs != 2 ||
	    (in->op != IR_OR && in->op != IR_XOR && in->op != IR_ADD))
		return false;
	for (unsigned side = 0; side < 2; side++) {
		const struct ir_insn *l = def_i32(r, in->args[side]);
		const struct ir_insn *h = def_i32(r, in->args[1 - side]);
		uint32_t k, n;
		if (!l || !h || l->op != IR_SHL || h->op != IR_SHR_U ||
		    !amount(r, l->args[1], &k) || !amount(r, h->args[1], &n) || k == 0 ||
		    k + n != 32)
			continue;
		ir_ref hi = l->args[0], lo = h->args[0], amt = h->args[1];
		r->steps = AGREE_STEPS;
		if (agree(r, hi, lo, ~0u << n, 0)) { /* the bits lo >> n reads */
			lo = hi;
		} else {
			r->steps = AGREE_STEPS;
			if (agree(r, hi, lo, ~0u >> k, 0)) /* the bits hi << k reads */
				hi = lo;
		}
		in->op = IR_FSHR;
		in->nargs = 3;
		in->args[0] = hi;
		in->args[1] = lo;
		in->args[2] = amt;
		in->aux = 0;
		in->imm = 0;
		return true;
	}
	return false;
}

unsigned ir_match_rotates(struct ir_function *fn)
{
	struct rot r = {.fn = fn, .ndef = fn->nvals};
	r.def = PA_NEW_ARRAY(fn->arena, const struct ir_insn *, fn->nvals + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->res != IR_NO_REF && in->res < r.ndef && in->op != IR_PHI)
				r.def[in->res] = in;
		}
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			n += match(&r, &fn->blocks[b].insns[i]);
	return n;
}
