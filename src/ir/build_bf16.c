/* ir_build, part 6: bf16 and bf16x2 (conversions, add/sub/mul/fma .rn with .relu, neg, abs,
 * min/max with .NaN), expanded into integer operations on the bit patterns and f32/f64
 * arithmetic.  A .bf16 register holds the 16-bit pattern (a .bf16x2 one two of them, the
 * first operand of cvt.rn.bf16x2.f32 in the upper half); bf16 is the upper half of an f32,
 * so widening is a shift and exact.
 *
 * Rounding to bf16 is done once, from f32 bits, by integer arithmetic: round to nearest
 * even adds 0x7fff plus the lowest kept bit and drops 16 bits (an overflow carries into
 * the exponent and gives infinity, as it should); toward zero drops 16 bits.  Subnormal
 * f32 values are rounded the same way (bf16 has f32's exponent range).
 *
 * Values wider than f32 (an f64 operand; the exact sum of a bf16 fma) reach f32 by round
 * to odd first: the f32 neighbour toward zero, with its lowest bit set when the value was
 * not exact.  Rounding to odd to a format with at least two more bits than the target and
 * then rounding to nearest gives the correctly rounded result (Boldo and Melquiond,
 * "Emulation of FMA and correctly-rounded sums: proved algorithms using rounding to odd",
 * IEEE TC 2008); f32 has 16 more significand bits than bf16 at every exponent, subnormals
 * included.  Round to odd is made from the round-to-nearest conversion f = RN32(v): when
 * f != v and f is even, f's bits step by one toward v (the odd neighbour on v's side).
 *
 * fma.rn.bf16 d = a * b + c: the operands widened to f64, the product is exact there
 * (16 significand bits, exponents within 2^-266 .. 2^256); the sum S = RN64(P + C) and its
 * exact error e = (P + C) - S come from TwoSum (Knuth, six f64 operations, exact for any
 * two finite f64 without overflow), so v = S + e is known exactly and the direction of
 * RN32(S) against v decides the odd step.  add is a * 1 + c, sub a * 1 + (-c) and mul
 * a * b + (-0) (the same formula, so the signs of zero results follow IEEE).
 *
 * NaN results are the canonical bf16 NaN 0x7fff (the PTX ISA: .relu turns NaN into the
 * canonical NaN; the H100 returns it for the arithmetic, and for neg/abs of a NaN too).  min/max
 * return the other operand when one is NaN and the canonical NaN when both are (or, with .NaN, when
 * either is); -0 counts as less than +0.  Called by irb_insn before irb_arith2; returns false for
 * instructions it does not own.  O(1) per instruction. */
#include <stdint.h>

#include "ir/build_int.h"

struct bx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

enum { BF16_NAN = 0x7fff, BF16_MAX = 0x7f7f };

static bool has(const struct bx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct bx *x, enum ir_op op, enum ir_type t, ir_ref a)
{
	return irb_emit(x->b, op, t, &a, 1, 0, 0);
}

static ir_ref op2(struct bx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, 0, 0);
}

static ir_ref k(struct bx *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref k32(struct bx *x, uint32_t v)
{
	return k(x, IR_T_I32, v);
}

static ir_ref cmp(struct bx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	ir_ref args[2] = {a, b};
	bool f = ir_type_is_float((enum ir_type)x->b->fn->vals[a].type);
	return irb_emit(x->b, f ? IR_FCMP : IR_ICMP, IR_T_PRED, args, 2, c, 0);
}

static ir_ref sel(struct bx *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref b)
{
	ir_ref args[3] = {p, a, b};
	return irb_emit(x->b, IR_SELECT, t, args, 3, 0, 0);
}

static ir_ref src(struct bx *x, unsigned i, enum ir_type t)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, false);
}

static void dst(struct bx *x, ir_ref v)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, false, x->guard);
}

/* ---- bit-level helpers (bf16 values as i32 holding the pattern in the low 16 bits) ---- */

static ir_ref half_of(struct bx *x, ir_ref w, unsigned h)
{
	return h ? op2(x, IR_SHR_U, IR_T_I32, w, k32(x, 16))
	         : op2(x, IR_AND, IR_T_I32, w, k32(x, 0xffff));
}

static ir_ref bf_to_f32(struct bx *x, ir_ref h)
{
	return op1(x, IR_BITCAST, IR_T_F32, op2(x, IR_SHL, IR_T_I32, h, k32(x, 16)));
}

static ir_ref bf_is_nan(struct bx *x, ir_ref h)
{
	return cmp(x, IR_CMP_GTU, op2(x, IR_AND, IR_T_I32, h, k32(x, 0x7fff)), k32(x, 0x7f80));
}

/* f32 bits u (not NaN) rounded to bf16: nearest even, or toward zero */
static ir_ref round_bits(struct bx *x, ir_ref u, bool rz)
{
	if (!rz) {
		ir_ref lsb = op2(x, IR_AND, IR_T_I32, op2(x, IR_SHR_U, IR_T_I32, u, k32(x, 16)),
		                 k32(x, 1));
		u = op2(x, IR_ADD, IR_T_I32, u, op2(x, IR_ADD, IR_T_I32, lsb, k32(x, 0x7fff)));
	}
	return op2(x, IR_SHR_U, IR_T_I32, u, k32(x, 16));
}

/* f32 bits of v = s + e (s an f64, e an f64 below half an ulp of s, or IR_NO_REF for 0)
 * rounded to odd: see the header */
static ir_ref round_odd_f32(struct bx *x, ir_ref s, ir_ref e)
{
	ir_ref f = irb_emit(x->b, IR_FTRUNC, IR_T_F32, &s, 1, IR_FM_RN, 0);
	ir_ref fe = irb_emit(x->b, IR_FEXT, IR_T_F64, &f, 1, 0, 0);
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, f);
	ir_ref ne = cmp(x, IR_CMP_NE, fe, s);
	ir_ref above = cmp(x, IR_CMP_GT, s, fe), below = cmp(x, IR_CMP_LT, s, fe);
	if (e != IR_NO_REF) { /* f == s: the error says where v lies */
		ir_ref zero = k(x, IR_T_F64, 0), eq = op1(x, IR_NOT, IR_T_PRED, ne);
		above = op2(x, IR_OR, IR_T_PRED, above,
		            op2(x, IR_AND, IR_T_PRED, eq, cmp(x, IR_CMP_GT, e, zero)));
		below = op2(x, IR_OR, IR_T_PRED, below,
		            op2(x, IR_AND, IR_T_PRED, eq, cmp(x, IR_CMP_LT, e, zero)));
	}
	ir_ref inexact = op2(x, IR_OR, IR_T_PRED, above, below);
	ir_ref even = cmp(x, IR_CMP_EQ, op2(x, IR_AND, IR_T_I32, bits, k32(x, 1)), k32(x, 0));
	ir_ref neg = cmp(x, IR_CMP_LT, bits, k32(x, 0)); /* signed: the sign bit */
	ir_ref pos = op1(x, IR_NOT, IR_T_PRED, neg);
	ir_ref away = op2(x, IR_OR, IR_T_PRED, op2(x, IR_AND, IR_T_PRED, above, pos),
	                  op2(x, IR_AND, IR_T_PRED, below, neg)); /* v farther from zero */
	ir_ref step = sel(x, IR_T_I32, away, k32(x, 1), k32(x, 0xffffffffu));
	ir_ref fix = op2(x, IR_AND, IR_T_PRED, inexact, even);
	return sel(x, IR_T_I32, fix, op2(x, IR_ADD, IR_T_I32, bits, step), bits);
}

/* .relu (negative -> +0, NaN -> canonical) and .satfinite (beyond the largest finite ->
 * the largest finite of that sign) on a rounded bf16 pattern r that is not NaN */
static ir_ref clamp(struct bx *x, ir_ref r)
{
	if (has(x, PTX_DW_SATFINITE)) {
		ir_ref mag = op2(x, IR_AND, IR_T_I32, r, k32(x, 0x7fff));
		ir_ref big = cmp(x, IR_CMP_GTU, mag, k32(x, BF16_MAX));
		r = sel(x, IR_T_I32, big,
		        op2(x, IR_OR, IR_T_I32, op2(x, IR_AND, IR_T_I32, r, k32(x, 0x8000)),
		            k32(x, BF16_MAX)),
		        r);
	}
	if (has(x, PTX_DW_RELU))
		r = sel(x, IR_T_I32, cmp(x, IR_CMP_GEU, r, k32(x, 0x8000)), k32(x, 0), r);
	return r;
}

/* f32 (bits) or f64 value v to bf16 pattern, with the instruction's rounding and clamps */
static ir_ref to_bf16(struct bx *x, ir_ref v, ir_ref err, bool rz)
{
	bool wide = x->b->fn->vals[v].type == IR_T_F64;
	ir_ref nan = cmp(x, IR_CMP_NAN, v, v);
	ir_ref u = wide ? round_odd_f32(x, v, err) : op1(x, IR_BITCAST, IR_T_I32, v);
	ir_ref r = clamp(x, round_bits(x, u, rz));
	return sel(x, IR_T_I32, nan, k32(x, BF16_NAN), r);
}

/* ---- conversions ---- */

static bool rounding_rz(struct bx *x, bool *rz)
{
	*rz = has(x, PTX_DW_RZ);
	return has(x, PTX_DW_RN) || *rz;
}

static void tr_cvt(struct bx *x)
{
	const struct ptx_insn *in = x->in;
	enum ptx_type dt = (enum ptx_type)in->types[0], st = (enum ptx_type)in->types[1];
	bool rz = false;
	if ((dt == PTX_TYPE_F32 || dt == PTX_TYPE_F64) && st == PTX_TYPE_BF16 &&
	    !has(x, PTX_DW_FTZ) && !has(x, PTX_DW_SAT) && !has(x, PTX_DW_RELU) &&
	    !has(x, PTX_DW_SATFINITE) && in->nopnds == 2) {
		ir_ref f = bf_to_f32(x, src(x, 1, IR_T_I32));
		dst(x, dt == PTX_TYPE_F64 ? irb_emit(x->b, IR_FEXT, IR_T_F64, &f, 1, 0, 0) : f);
		return;
	}
	bool ok_mods = !has(x, PTX_DW_FTZ) && !has(x, PTX_DW_SAT) && rounding_rz(x, &rz);
	if (ok_mods && dt == PTX_TYPE_BF16 && (st == PTX_TYPE_F32 || st == PTX_TYPE_F64) &&
	    in->nopnds == 2) {
		dst(x,
		    to_bf16(x, src(x, 1, st == PTX_TYPE_F32 ? IR_T_F32 : IR_T_F64), IR_NO_REF, rz));
		return;
	}
	if (ok_mods && dt == PTX_TYPE_BF16X2 && st == PTX_TYPE_F32 && in->nopnds == 3) {
		ir_ref hi = to_bf16(x, src(x, 1, IR_T_F32), IR_NO_REF, rz);
		ir_ref lo = to_bf16(x, src(x, 2, IR_T_F32), IR_NO_REF, rz);
		dst(x, op2(x, IR_OR, IR_T_I32, op2(x, IR_SHL, IR_T_I32, hi, k32(x, 16)), lo));
		return;
	}
	irb_unsupported(x->b, in,
	                "bf16 conversions other than cvt.{rn,rz}{.relu}{.satfinite}.bf16{x2}.f32, "
	                "cvt.{rn,rz}.bf16.f64 and cvt.f32/f64.bf16");
}

/* ---- arithmetic on one bf16 pattern (i32) ---- */

static ir_ref bf_to_f64(struct bx *x, ir_ref h)
{
	ir_ref f = bf_to_f32(x, h);
	return irb_emit(x->b, IR_FEXT, IR_T_F64, &f, 1, 0, 0);
}

/* a * b + c rounded once to bf16 (a, b, c: f64 values of bf16 patterns) */
static ir_ref fma_bf16(struct bx *x, ir_ref a, ir_ref b, ir_ref c)
{
	enum ir_type d = IR_T_F64;
	ir_ref p = op2(x, IR_FMUL, d, a, b); /* exact */
	ir_ref s = op2(x, IR_FADD, d, p, c);
	ir_ref bb = op2(x, IR_FSUB, d, s, p);
	ir_ref e = op2(x, IR_FADD, d, op2(x, IR_FSUB, d, p, op2(x, IR_FSUB, d, s, bb)),
	               op2(x, IR_FSUB, d, c, bb));
	return to_bf16(x, s, e, false);
}

ir_ref irb_bf16_add(struct irb *b, const struct ptx_insn *in, ir_ref x, ir_ref y)
{
	struct bx bx = {.b = b, .in = in, .guard = IR_NO_REF};
	return fma_bf16(&bx, bf_to_f64(&bx, x), k(&bx, IR_T_F64, 0x3ff0000000000000ull),
	                bf_to_f64(&bx, y));
}

static ir_ref minmax(struct bx *x, ir_ref a, ir_ref b, bool is_max, bool nan_wins)
{
	ir_ref fa = bf_to_f32(x, a), fb = bf_to_f32(x, b);
	/* b before a in the order (-0 < +0): the result is b for min, a for max */
	ir_ref lt = cmp(x, IR_CMP_LT, fb, fa);
	ir_ref eq = cmp(x, IR_CMP_EQ, fb, fa);
	ir_ref bneg = cmp(x, IR_CMP_GEU, b, k32(x, 0x8000));
	lt = op2(x, IR_OR, IR_T_PRED, lt, op2(x, IR_AND, IR_T_PRED, eq, bneg));
	ir_ref r = is_max ? sel(x, IR_T_I32, lt, a, b) : sel(x, IR_T_I32, lt, b, a);
	ir_ref na = bf_is_nan(x, a), nb = bf_is_nan(x, b);
	if (nan_wins)
		return sel(x, IR_T_I32, op2(x, IR_OR, IR_T_PRED, na, nb), k32(x, BF16_NAN), r);
	r = sel(x, IR_T_I32, na, b, sel(x, IR_T_I32, nb, a, r));
	return sel(x, IR_T_I32, op2(x, IR_AND, IR_T_PRED, na, nb), k32(x, BF16_NAN), r);
}

/* one lane: w[] the operand patterns (i32, low 16 bits) */
static ir_ref lane(struct bx *x, const ir_ref *w)
{
	const struct ptx_insn *in = x->in;
	switch (in->op) {
	case PTX_OP_NEG: /* the sign bit; a NaN becomes the canonical one (the H100) */
	case PTX_OP_ABS: {
		ir_ref r = in->op == PTX_OP_NEG ? op2(x, IR_XOR, IR_T_I32, w[0], k32(x, 0x8000))
		                                : op2(x, IR_AND, IR_T_I32, w[0], k32(x, 0x7fff));
		return sel(x, IR_T_I32, bf_is_nan(x, w[0]), k32(x, BF16_NAN), r);
	}
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		return minmax(x, w[0], w[1], in->op == PTX_OP_MAX, has(x, PTX_DW_NAN_MOD));
	case PTX_OP_ADD:
	case PTX_OP_SUB: {
		ir_ref c = bf_to_f64(x, w[1]);
		if (in->op == PTX_OP_SUB)
			c = op1(x, IR_FNEG, IR_T_F64, c);
		return fma_bf16(x, bf_to_f64(x, w[0]), k(x, IR_T_F64, 0x3ff0000000000000ull), c);
	}
	case PTX_OP_MUL:
		return fma_bf16(x, bf_to_f64(x, w[0]), bf_to_f64(x, w[1]),
		                k(x, IR_T_F64, 0x8000000000000000ull));
	default: /* PTX_OP_FMA */
		return fma_bf16(x, bf_to_f64(x, w[0]), bf_to_f64(x, w[1]), bf_to_f64(x, w[2]));
	}
}

static unsigned arith_operands(struct bx *x)
{
	const struct ptx_insn *in = x->in;
	bool directed = has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP);
	bool rn_only = has(x, PTX_DW_RN) && !directed;
	bool plain = !has(x, PTX_DW_FTZ) && !has(x, PTX_DW_SAT) && !has(x, PTX_DW_SATFINITE);
	bool relu = has(x, PTX_DW_RELU);
	switch (in->op) {
	case PTX_OP_NEG:
	case PTX_OP_ABS:
		return plain && !relu && !has(x, PTX_DW_NAN_MOD) && in->nopnds == 2 ? 1 : 0;
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		return plain && !relu && !has(x, PTX_DW_XORSIGN) && !has(x, PTX_DW_ABS) &&
		                       in->nopnds == 3
		               ? 2
		               : 0;
	case PTX_OP_ADD:
	case PTX_OP_SUB:
	case PTX_OP_MUL:
		return plain && !relu && !directed && !has(x, PTX_DW_NAN_MOD) && in->nopnds == 3
		               ? 2
		               : 0;
	case PTX_OP_FMA:
		return plain && rn_only && !has(x, PTX_DW_NAN_MOD) && in->nopnds == 4 ? 3 : 0;
	default:
		return 0;
	}
}

static void tr_arith(struct bx *x, bool packed)
{
	unsigned n = arith_operands(x);
	if (!n) {
		irb_unsupported(x->b, x->in,
		                "bf16 operations other than add/sub/mul/fma .rn (fma with .relu), "
		                "neg, abs, min/max (.NaN) and conversions");
		return;
	}
	ir_ref w[3], l[3];
	for (unsigned j = 0; j < n; j++)
		w[j] = src(x, 1 + j, IR_T_I32);
	ir_ref r = IR_NO_REF;
	for (unsigned h = 0; h < (packed ? 2u : 1u); h++) {
		for (unsigned j = 0; j < n; j++)
			l[j] = packed ? half_of(x, w[j], h)
			              : op2(x, IR_AND, IR_T_I32, w[j], k32(x, 0xffff));
		ir_ref v = lane(x, l);
		if (h == 0)
			r = v;
		else
			r = op2(x, IR_OR, IR_T_I32, r, op2(x, IR_SHL, IR_T_I32, v, k32(x, 16)));
	}
	dst(x, r);
}

/* ---- entry ---- */

bool irb_bf16(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct bx x = {.b = b, .in = in, .guard = guard};
	if (!in->ntypes || in->op == PTX_OP_MOV || in->op == PTX_OP_SELP)
		return false;
	enum ptx_type t0 = (enum ptx_type)in->types[0];
	enum ptx_type t1 = in->ntypes > 1 ? (enum ptx_type)in->types[1] : PTX_TYPE_NONE;
	bool bf0 = t0 == PTX_TYPE_BF16 || t0 == PTX_TYPE_BF16X2;
	if (in->op == PTX_OP_CVT && in->ntypes == 2 && (bf0 || t1 == PTX_TYPE_BF16)) {
		tr_cvt(&x);
		return true;
	}
	if (!bf0 || in->op == PTX_OP_CVT)
		return false;
	tr_arith(&x, t0 == PTX_TYPE_BF16X2);
	return true;
}
