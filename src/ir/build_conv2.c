/* ir_build, part 7: the conversions between the narrow float formats and ex2 on 16-bit floats,
 * expanded into integer operations on bit patterns and exact f32 steps (docs/CONVERSIONS.md
 * "fp8, tf32, .relu/.satfinite and the other narrow conversions"):
 *
 * - cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2} (the first f32 operand, or the upper
 *   f16 half, in the upper byte) and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} (the upper byte to the
 *   upper half): fp8 codes are rounded to nearest even from the f32 bits by integer arithmetic
 *   (an f16 operand widens to f32 exactly first), clamped to the largest finite code, NaN 0x7f;
 *   decoding is exact (e5m2 is the upper byte of an f16, e4m3 is rebuilt field by field).
 * - cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32 and cvt.rna.satfinite.tf32.f32 on the f32 bits
 *   (plain cvt.rna.tf32.f32 is build_forms.c's).
 * - cvt.{rn,rz}{.relu}{.satfinite}.f16{x2}.f32, and f16 results from bf16: the nearest-even
 *   f16 (F2H), stepped one ulp toward zero (or down, or up) where its exact f32 value lies
 *   beyond the operand in the wrong direction.
 * - int -> f16 from 8-bit integers (exact), and .sat on every int -> f16 (0 or 1.0).
 * - bf16 <-> integers in every rounding, cvt.rXi.bf16.bf16, bf16 <-> f16 and cvt.{rm,rp}
 *   .bf16.{f32,f64}: through exact f32 values, or a round-to-odd f32 (24 significant bits,
 *   sticky in the last) rounded once to bf16's 8 bits.
 * - ex2.approx.f16{x2} and ex2.approx.ftz.bf16{x2}: ex2.approx.f32 of the exact widening,
 *   rounded to nearest even (bf16: subnormal operands and results flushed).
 *
 * Called by irb_insn before the other expansions; false for instructions it does not own.
 * O(1) per instruction. */
#include <stdint.h>

#include "build_int.h"

struct cx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

enum { F16_NAN = 0x7fff, F16_MAX = 0x7bff, BF16_NAN = 0x7fff };

static bool has(const struct cx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref emit(struct cx *x, enum ir_op op, enum ir_type t, const ir_ref *a, unsigned n,
                   uint32_t aux)
{
	return irb_emit(x->b, op, t, a, n, aux, 0);
}

static ir_ref op1(struct cx *x, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return emit(x, op, t, &a, 1, aux);
}

static ir_ref op2(struct cx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return emit(x, op, t, args, 2, 0);
}

static ir_ref k32(struct cx *x, uint32_t v)
{
	return ir_const(x->b->fn, IR_T_I32, v);
}

static ir_ref k64(struct cx *x, uint64_t v)
{
	return ir_const(x->b->fn, IR_T_I64, v);
}

static ir_ref cmp(struct cx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	ir_ref args[2] = {a, b};
	bool f = ir_type_is_float((enum ir_type)x->b->fn->vals[a].type);
	return emit(x, f ? IR_FCMP : IR_ICMP, IR_T_PRED, args, 2, c);
}

static ir_ref sel(struct cx *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref b)
{
	ir_ref args[3] = {p, a, b};
	return emit(x, IR_SELECT, t, args, 3, 0);
}

static ir_ref and32(struct cx *x, ir_ref a, uint32_t m)
{
	return op2(x, IR_AND, IR_T_I32, a, k32(x, m));
}

static ir_ref shr32(struct cx *x, ir_ref a, unsigned n)
{
	return op2(x, IR_SHR_U, IR_T_I32, a, k32(x, n));
}

static ir_ref shl32(struct cx *x, ir_ref a, unsigned n)
{
	return op2(x, IR_SHL, IR_T_I32, a, k32(x, n));
}

static ir_ref or32(struct cx *x, ir_ref a, ir_ref b)
{
	return op2(x, IR_OR, IR_T_I32, a, b);
}

static ir_ref src(struct cx *x, unsigned i, enum ir_type t)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, false);
}

static void dst(struct cx *x, ir_ref v)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, false, x->guard);
}

static enum ptx_type type_at(const struct cx *x, unsigned i)
{
	return i < x->in->ntypes ? (enum ptx_type)x->in->types[i] : PTX_TYPE_NONE;
}

/* the value of a 16-bit pattern (i32, low half) as an f32 */
static ir_ref f16_to_f32(struct cx *x, ir_ref h)
{
	return op1(x, IR_H2F, IR_T_F32, op1(x, IR_TRUNC, IR_T_I16, h, 0), 0);
}

static ir_ref bf16_to_f32(struct cx *x, ir_ref h)
{
	return op1(x, IR_BITCAST, IR_T_F32, shl32(x, h, 16), 0);
}

static ir_ref bits_of(struct cx *x, ir_ref f)
{
	return op1(x, IR_BITCAST, IR_T_I32, f, 0);
}

static ir_ref is_nan32(struct cx *x, ir_ref u) /* u: f32 bits */
{
	return cmp(x, IR_CMP_GTU, and32(x, u, 0x7fffffff), k32(x, 0x7f800000));
}

/* 16-bit results of each half of w (or of the two operands): hi << 16 | lo */
static ir_ref pack16(struct cx *x, ir_ref hi, ir_ref lo)
{
	return or32(x, shl32(x, hi, 16), and32(x, lo, 0xffff));
}

/* ---- fp8 ---- */

struct fp8 {
	unsigned mbits, bias;
	uint32_t max_code; /* largest finite magnitude code */
};

static const struct fp8 E4M3 = {3, 7, 0x7e}, E5M2 = {2, 15, 0x7b};

/* f32 bits u -> fp8 code, round to nearest even, .satfinite (beyond the largest finite, and
 * infinity, give the largest finite of that sign), NaN -> 0x7f; .relu: negative -> +0.
 * With e' = max(f32 exponent, 1), E = e' - 127 + bias the fp8 exponent and m the f32
 * significand with its implicit bit: the code is ((max(E, 1) - 1) << M) + RNE(m >> s),
 * s = 23 - M + max(1 - E, 0) (a carry from the rounding steps into the exponent field). */
static ir_ref fp8_encode(struct cx *x, const struct fp8 *f, ir_ref u, bool relu)
{
	ir_ref a = and32(x, u, 0x7fffffff);
	ir_ref e = shr32(x, a, 23);
	ir_ref m = and32(x, a, 0x7fffff);
	ir_ref normal = cmp(x, IR_CMP_NE, e, k32(x, 0));
	m = sel(x, IR_T_I32, normal, or32(x, m, k32(x, 0x800000)), m);
	ir_ref ep = op2(x, IR_MAX_U, IR_T_I32, e, k32(x, 1));
	ir_ref E = op2(x, IR_SUB, IR_T_I32, ep, k32(x, 127 - f->bias)); /* signed */
	ir_ref under =
	        op2(x, IR_MAX_S, IR_T_I32, op2(x, IR_SUB, IR_T_I32, k32(x, 1), E), k32(x, 0));
	/* s <= 26: beyond, the value is below half the least subnormal (q = 0, no rounding up) */
	ir_ref s = op2(x, IR_MIN_U, IR_T_I32,
	               op2(x, IR_ADD, IR_T_I32, under, k32(x, 23 - f->mbits)), k32(x, 26));
	ir_ref q = op2(x, IR_SHR_U, IR_T_I32, m, s);
	ir_ref rem = op2(x, IR_SUB, IR_T_I32, m, op2(x, IR_SHL, IR_T_I32, q, s));
	ir_ref half = op2(x, IR_SHL, IR_T_I32, k32(x, 1), op2(x, IR_SUB, IR_T_I32, s, k32(x, 1)));
	ir_ref odd = cmp(x, IR_CMP_NE, and32(x, q, 1), k32(x, 0));
	ir_ref up = op2(x, IR_OR, IR_T_PRED, cmp(x, IR_CMP_GTU, rem, half),
	                op2(x, IR_AND, IR_T_PRED, cmp(x, IR_CMP_EQ, rem, half), odd));
	q = op2(x, IR_ADD, IR_T_I32, q, sel(x, IR_T_I32, up, k32(x, 1), k32(x, 0)));
	ir_ref base = shl32(
	        x, op2(x, IR_SUB, IR_T_I32, op2(x, IR_MAX_S, IR_T_I32, E, k32(x, 1)), k32(x, 1)),
	        f->mbits);
	ir_ref code = op2(x, IR_MIN_U, IR_T_I32, op2(x, IR_ADD, IR_T_I32, base, q),
	                  k32(x, f->max_code)); /* also infinity (e = 255) */
	ir_ref neg = cmp(x, IR_CMP_NE, and32(x, u, 0x80000000u), k32(x, 0));
	ir_ref r = relu ? sel(x, IR_T_I32, neg, k32(x, 0), code)
	                : or32(x, code, sel(x, IR_T_I32, neg, k32(x, 0x80), k32(x, 0)));
	return sel(x, IR_T_I32, is_nan32(x, u), k32(x, 0x7f), r);
}

/* fp8 code c (i32, low byte) -> f16 bits, exact; NaN -> the canonical 0x7fff (sign dropped);
 * .relu: negative -> +0 */
static ir_ref fp8_decode(struct cx *x, const struct fp8 *f, ir_ref c, bool relu)
{
	c = and32(x, c, 0xff);
	ir_ref mag = and32(x, c, 0x7f), h, nan;
	if (f == &E5M2) { /* the upper byte of an f16 */
		h = shl32(x, c, 8);
		nan = cmp(x, IR_CMP_GTU, mag, k32(x, 0x7c));
	} else {
		/* normal: exponent + 8 (biases 7 and 15), fraction to the top of f16's ten bits;
		 * subnormal (exponent 0): frac * 2^-9, a normal f16, through an exact f32 */
		ir_ref normal = op2(x, IR_ADD, IR_T_I32, shl32(x, mag, 7), k32(x, 8 << 10));
		ir_ref frac = op1(x, IR_ITOF_U, IR_T_F32, and32(x, mag, 7), 0);
		ir_ref sub = op1(x, IR_ZEXT, IR_T_I32,
		                 op1(x, IR_F2H, IR_T_I16,
		                     op2(x, IR_FMUL, IR_T_F32, frac,
		                         ir_const(x->b->fn, IR_T_F32, 0x3b000000u /* 2^-9 */)),
		                     0),
		                 0);
		h = sel(x, IR_T_I32, cmp(x, IR_CMP_LTU, mag, k32(x, 8)), sub, normal);
		h = or32(x, h, shl32(x, and32(x, c, 0x80), 8));
		nan = cmp(x, IR_CMP_EQ, mag, k32(x, 0x7f));
	}
	if (relu)
		h = sel(x, IR_T_I32, cmp(x, IR_CMP_GEU, h, k32(x, 0x8000)), k32(x, 0), h);
	return sel(x, IR_T_I32, nan, k32(x, F16_NAN), h);
}

static bool tr_fp8(struct cx *x)
{
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	bool relu = has(x, PTX_DW_RELU);
	bool to8 = dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2;
	const struct fp8 *f = dt == PTX_TYPE_E5M2X2 || st == PTX_TYPE_E5M2X2 ? &E5M2 : &E4M3;
	bool plain = has(x, PTX_DW_RN) && !has(x, PTX_DW_FTZ) && !has(x, PTX_DW_SAT);
	if (to8 && plain && has(x, PTX_DW_SATFINITE) && st == PTX_TYPE_F32 && x->in->nopnds == 3) {
		ir_ref hi = fp8_encode(x, f, src(x, 1, IR_T_I32), relu);
		ir_ref lo = fp8_encode(x, f, src(x, 2, IR_T_I32), relu);
		dst(x, op1(x, IR_TRUNC, IR_T_I16, or32(x, shl32(x, hi, 8), lo), 0));
		return true;
	}
	if (to8 && plain && has(x, PTX_DW_SATFINITE) && st == PTX_TYPE_F16X2 &&
	    x->in->nopnds == 2) {
		ir_ref w = src(x, 1, IR_T_I32);
		ir_ref lo = fp8_encode(x, f, bits_of(x, f16_to_f32(x, w)), relu);
		ir_ref hi = fp8_encode(x, f, bits_of(x, f16_to_f32(x, shr32(x, w, 16))), relu);
		dst(x, op1(x, IR_TRUNC, IR_T_I16, or32(x, shl32(x, hi, 8), lo), 0));
		return true;
	}
	if (dt == PTX_TYPE_F16X2 && plain && !has(x, PTX_DW_SATFINITE) && x->in->nopnds == 2) {
		ir_ref c = op1(x, IR_ZEXT, IR_T_I32, src(x, 1, IR_T_I16), 0);
		dst(x,
		    pack16(x, fp8_decode(x, f, shr32(x, c, 8), relu), fp8_decode(x, f, c, relu)));
		return true;
	}
	irb_unsupported(x->b, x->in,
	                "fp8 conversions other than cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}."
	                "{f32,f16x2} and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}");
	return true;
}

/* ---- tf32 ---- */

/* f32 bits to tf32 (10 fraction bits, kept in the f32 layout) in the instruction's rounding,
 * carries going into the exponent (infinity).  As the H100 computes them (tests/exec conv2 run
 * there): .rn/.rz give the canonical 0x7fffe000 for every NaN (.relu too); .rna truncates a
 * NaN (build_forms.c).  .satfinite steps a result whose exponent is all ones down by one unit
 * of bit 13: infinity becomes the largest finite 0x7f7fe000 of its sign, and under .rna a
 * truncated NaN steps too (0x7fc00000 -> 0x7fbfe000, 0x7f800001 -> 0x7f7fe000).  .relu:
 * negative -> +0. */
static bool tr_tf32(struct cx *x)
{
	bool rn = has(x, PTX_DW_RN), rz = has(x, PTX_DW_RZ), rna = has(x, PTX_DW_RNA);
	bool relu = has(x, PTX_DW_RELU), satf = has(x, PTX_DW_SATFINITE);
	if (type_at(x, 1) != PTX_TYPE_F32 || has(x, PTX_DW_FTZ) || has(x, PTX_DW_SAT) ||
	    x->in->nopnds != 2 || (rna && relu) || !(rn || rz || rna)) {
		irb_unsupported(
		        x->b, x->in,
		        "tf32 conversions other than cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32 "
		        "and cvt.rna{.satfinite}.tf32.f32");
		return true;
	}
	ir_ref u = src(x, 1, IR_T_I32);
	ir_ref nan = is_nan32(x, u);
	ir_ref add = rz    ? k32(x, 0)
	             : rna ? k32(x, 0x1000)
	                   : op2(x, IR_ADD, IR_T_I32, and32(x, shr32(x, u, 13), 1), k32(x, 0xfff));
	ir_ref r = and32(x, op2(x, IR_ADD, IR_T_I32, u, add), 0xffffe000u);
	if (rna) /* NaN: truncated */
		r = sel(x, IR_T_I32, nan, and32(x, u, 0xffffe000u), r);
	if (satf) {
		ir_ref top = cmp(x, IR_CMP_EQ, and32(x, r, 0x7f800000), k32(x, 0x7f800000));
		r = sel(x, IR_T_I32, top, op2(x, IR_SUB, IR_T_I32, r, k32(x, 0x2000)), r);
	}
	if (relu)
		r = sel(x, IR_T_I32, cmp(x, IR_CMP_GEU, u, k32(x, 0x80000000u)), k32(x, 0), r);
	if (!rna)
		r = sel(x, IR_T_I32, nan, k32(x, 0x7fffe000), r);
	dst(x, r);
	return true;
}

/* ---- f16 results ---- */

enum rmode { RM_RN, RM_RZ, RM_RM, RM_RP };

static enum rmode mode_of(const struct cx *x)
{
	return has(x, PTX_DW_RZ)   ? RM_RZ
	       : has(x, PTX_DW_RM) ? RM_RM
	       : has(x, PTX_DW_RP) ? RM_RP
	                           : RM_RN;
}

/* f32 value v -> f16 bits (i32) rounded as `m` says: the nearest-even f16 h, stepped one ulp
 * (the bit pattern +-1, which crosses binades and reaches or leaves infinity as it should)
 * where h lies beyond v in the direction the rounding forbids; NaN -> 0x7fff */
static ir_ref to_f16(struct cx *x, ir_ref v, enum rmode m)
{
	ir_ref h = op1(x, IR_ZEXT, IR_T_I32, op1(x, IR_F2H, IR_T_I16, v, 0), 0);
	if (m != RM_RN) {
		ir_ref back = f16_to_f32(x, h);
		ir_ref neg = cmp(x, IR_CMP_GEU, h, k32(x, 0x8000));
		ir_ref fix, mag_up; /* mag_up: the pattern steps +1 (away from zero), else -1 */
		if (m == RM_RZ) {
			fix = cmp(x, IR_CMP_GT, op1(x, IR_FABS, IR_T_F32, back, 0),
			          op1(x, IR_FABS, IR_T_F32, v, 0));
			mag_up = IR_NO_REF;
		} else if (m == RM_RM) { /* down: away from zero when negative */
			fix = cmp(x, IR_CMP_GT, back, v);
			mag_up = neg;
		} else { /* up: away from zero when positive */
			fix = cmp(x, IR_CMP_LT, back, v);
			mag_up = op1(x, IR_NOT, IR_T_PRED, neg, 0);
		}
		ir_ref step = mag_up == IR_NO_REF
		                      ? k32(x, 0xffffffffu)
		                      : sel(x, IR_T_I32, mag_up, k32(x, 1), k32(x, 0xffffffffu));
		h = sel(x, IR_T_I32, fix, and32(x, op2(x, IR_ADD, IR_T_I32, h, step), 0xffff), h);
	}
	ir_ref nan = cmp(x, IR_CMP_NAN, v, v);
	return sel(x, IR_T_I32, nan, k32(x, F16_NAN), h);
}

/* .satfinite and .relu on f16 bits r (not NaN) */
static ir_ref f16_clamps(struct cx *x, ir_ref r)
{
	if (has(x, PTX_DW_SATFINITE)) {
		ir_ref inf = cmp(x, IR_CMP_EQ, and32(x, r, 0x7fff), k32(x, 0x7c00));
		r = sel(x, IR_T_I32, inf, or32(x, and32(x, r, 0x8000), k32(x, F16_MAX)), r);
	}
	if (has(x, PTX_DW_RELU)) {
		ir_ref neg = op2(x, IR_AND, IR_T_PRED, cmp(x, IR_CMP_GEU, r, k32(x, 0x8000)),
		                 cmp(x, IR_CMP_NE, r, k32(x, F16_NAN)));
		r = sel(x, IR_T_I32, neg, k32(x, 0), r);
	}
	return r;
}

/* cvt.{rn,rz}{.relu}{.satfinite}.f16{x2}.f32 */
static bool tr_f16_clamped(struct cx *x)
{
	enum ptx_type dt = type_at(x, 0);
	enum rmode m = mode_of(x);
	bool pair = dt == PTX_TYPE_F16X2;
	if (has(x, PTX_DW_FTZ) || has(x, PTX_DW_SAT) || (m != RM_RN && m != RM_RZ) ||
	    (!has(x, PTX_DW_RN) && !has(x, PTX_DW_RZ)) || x->in->nopnds != (pair ? 3 : 2)) {
		irb_unsupported(x->b, x->in,
		                ".relu/.satfinite on f16 conversions other than "
		                "cvt.{rn,rz}{.relu}{.satfinite}.f16{x2}.f32");
		return true;
	}
	ir_ref hi = f16_clamps(x, to_f16(x, src(x, 1, IR_T_F32), m));
	if (!pair) {
		dst(x, op1(x, IR_TRUNC, IR_T_I16, hi, 0));
		return true;
	}
	ir_ref lo = f16_clamps(x, to_f16(x, src(x, 2, IR_T_F32), m));
	dst(x, pack16(x, hi, lo));
	return true;
}

/* cvt.{rz,rm,rp}{.ftz}.sat.f16.f32: the operand clamped to [0, 1] (NaN and -0 -> +0, the
 * FADD clamp of build_insn.c's cvt), then rounded (0 and 1 are f16 values, so clamping before
 * or after the monotone rounding is the same).  .ftz is the hardware's no-op here: an f32
 * subnormal is not flushed (docs/PTXREF.md: cvt.rp.ftz.f16.f32 gives an f16 subnormal). */
static bool tr_f16_sat_directed(struct cx *x)
{
	if (x->in->nopnds != 2)
		return false;
	ir_ref args[2] = {src(x, 1, IR_T_F32), ir_const(x->b->fn, IR_T_F32, 0)};
	ir_ref v = emit(x, IR_FADD, IR_T_F32, args, 2, IR_FM_SAT);
	dst(x, op1(x, IR_TRUNC, IR_T_I16, to_f16(x, v, mode_of(x)), 0));
	return true;
}

/* ---- integers -> f16 ---- */

/* cvt.rX{.sat}.f16.{s,u}8 (exact in f32 and in f16) and cvt.rX.sat.f16.{s,u}N (an integer
 * clamped to [0, 1] is 0 or 1, whatever the rounding) */
static bool tr_int_f16(struct cx *x)
{
	enum ptx_type st = type_at(x, 1);
	unsigned bits = ptx_types[st].bits;
	bool sign = ptx_types[st].cls == PTX_TC_SINT;
	if (has(x, PTX_DW_FTZ) || has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE) ||
	    x->in->nopnds != 2 ||
	    !(has(x, PTX_DW_RN) || has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP)))
		return false;
	enum ir_type t = bits == 64 ? IR_T_I64 : IR_T_I32;
	ir_ref v = irb_read_opnd(x->b, &x->in->opnds[1], t, sign);
	if (bits < 32) { /* the operand's own bits, extended as its type says */
		ir_ref sh = k32(x, 32 - bits);
		v = op2(x, sign ? IR_SHR_S : IR_SHR_U, IR_T_I32, op2(x, IR_SHL, IR_T_I32, v, sh),
		        sh);
	}
	ir_ref r;
	if (has(x, PTX_DW_SAT)) {
		ir_ref zero = ir_const(x->b->fn, t, 0);
		ir_ref pos = cmp(x, sign ? IR_CMP_GT : IR_CMP_NE, v, zero);
		r = sel(x, IR_T_I32, pos, k32(x, 0x3c00), k32(x, 0));
	} else if (bits == 8) {
		r = op1(x, IR_ZEXT, IR_T_I32,
		        op1(x, IR_F2H, IR_T_I16,
		            op1(x, sign ? IR_ITOF_S : IR_ITOF_U, IR_T_F32, v, 0), 0),
		        0);
	} else {
		return false;
	}
	dst(x, op1(x, IR_TRUNC, IR_T_I16, r, 0));
	return true;
}

/* ---- bf16 ---- */

/* f32 bits u (sticky in its last bit where it stands for a wider value) rounded to bf16 in
 * mode m; NaN -> 0x7fff */
static ir_ref round_bf16(struct cx *x, ir_ref u, enum rmode m)
{
	ir_ref t = shr32(x, u, 16);
	ir_ref r;
	if (m == RM_RN) {
		r = shr32(x,
		          op2(x, IR_ADD, IR_T_I32, u,
		              op2(x, IR_ADD, IR_T_I32, and32(x, t, 1), k32(x, 0x7fff))),
		          16);
	} else if (m == RM_RZ) {
		r = t;
	} else {
		ir_ref inexact = cmp(x, IR_CMP_NE, and32(x, u, 0xffff), k32(x, 0));
		ir_ref neg = cmp(x, IR_CMP_GEU, u, k32(x, 0x80000000u));
		ir_ref away = m == RM_RM ? neg : op1(x, IR_NOT, IR_T_PRED, neg, 0);
		r = op2(x, IR_ADD, IR_T_I32, t,
		        sel(x, IR_T_I32, op2(x, IR_AND, IR_T_PRED, inexact, away), k32(x, 1),
		            k32(x, 0)));
	}
	return sel(x, IR_T_I32, is_nan32(x, u), k32(x, BF16_NAN), r);
}

/* an f64 as f32 bits rounded to odd (the f32 toward zero, its last bit set when inexact),
 * which rounds once more to bf16 exactly as the f64 would (24 >= 8 + 2 bits) */
static ir_ref odd_f32_of_f64(struct cx *x, ir_ref d)
{
	ir_ref f = op1(x, IR_FTRUNC, IR_T_F32, d, IR_FM_RN);
	ir_ref back = op1(x, IR_FEXT, IR_T_F64, f, 0);
	ir_ref bits = bits_of(x, f);
	/* f beyond d (farther from zero): one step back toward zero */
	ir_ref beyond = cmp(x, IR_CMP_GT, op1(x, IR_FABS, IR_T_F64, back, 0),
	                    op1(x, IR_FABS, IR_T_F64, d, 0));
	bits = sel(x, IR_T_I32, beyond, op2(x, IR_SUB, IR_T_I32, bits, k32(x, 1)), bits);
	ir_ref inexact = cmp(x, IR_CMP_NE, back, d); /* NaN: made NaN again by round_bf16 */
	return sel(x, IR_T_I32, inexact, or32(x, bits, k32(x, 1)), bits);
}

/* a 64-bit integer magnitude (as i64) as f32 bits rounded to odd: its top 24 significant bits,
 * the last one or'ed with every bit below, scaled by its place */
static ir_ref odd_f32_of_u64(struct cx *x, ir_ref a)
{
	ir_ref n = op1(x, IR_CLZ, IR_T_I32, a, 0);
	ir_ref top = op2(x, IR_SHL, IR_T_I64, a, op1(x, IR_ZEXT, IR_T_I64, n, 0));
	ir_ref hi = op1(x, IR_TRUNC, IR_T_I32, op2(x, IR_SHR_U, IR_T_I64, top, k64(x, 32)), 0);
	ir_ref lo = op1(x, IR_TRUNC, IR_T_I32, top, 0);
	ir_ref sticky = op2(x, IR_OR, IR_T_PRED, cmp(x, IR_CMP_NE, and32(x, hi, 0xff), k32(x, 0)),
	                    cmp(x, IR_CMP_NE, lo, k32(x, 0)));
	ir_ref m = or32(x, shr32(x, hi, 8), sel(x, IR_T_I32, sticky, k32(x, 1), k32(x, 0)));
	ir_ref f = bits_of(x, op1(x, IR_ITOF_U, IR_T_F32, m, 0)); /* exact: m < 2^24 */
	/* value = m * 2^(40 - n): add 40 - n to the exponent field (m >= 2^23 is normal) */
	ir_ref scaled =
	        op2(x, IR_ADD, IR_T_I32, f, shl32(x, op2(x, IR_SUB, IR_T_I32, k32(x, 40), n), 23));
	return sel(x, IR_T_I32, cmp(x, IR_CMP_EQ, a, k64(x, 0)), k32(x, 0), scaled);
}

static ir_ref int_to_bf16(struct cx *x, enum ptx_type st, enum rmode m)
{
	unsigned bits = ptx_types[st].bits;
	bool sign = ptx_types[st].cls == PTX_TC_SINT;
	ir_ref v = irb_read_opnd(x->b, &x->in->opnds[1], bits == 64 ? IR_T_I64 : IR_T_I32, sign);
	if (bits < 64) {
		if (bits < 32) {
			ir_ref sh = k32(x, 32 - bits);
			v = op2(x, sign ? IR_SHR_S : IR_SHR_U, IR_T_I32,
			        op2(x, IR_SHL, IR_T_I32, v, sh), sh);
		}
		v = op1(x, sign ? IR_SEXT : IR_ZEXT, IR_T_I64, v, 0);
	}
	if (!sign)
		return round_bf16(x, odd_f32_of_u64(x, v), m);
	ir_ref neg = cmp(x, IR_CMP_LT, v, k64(x, 0));
	ir_ref u = odd_f32_of_u64(x, sel(x, IR_T_I64, neg, op1(x, IR_NEG, IR_T_I64, v, 0), v));
	u = or32(x, u, sel(x, IR_T_I32, neg, k32(x, 0x80000000u), k32(x, 0)));
	return round_bf16(x, u, m);
}

/* bf16 (f32 value f) -> integer of type dt, rounded as .rXi says, saturated; NaN as from f32
 * (0 to 8..32 bits, the top bit to 64 bits: build_arith.c irb_ftoi64) */
static ir_ref float_to_int(struct cx *x, ir_ref f, enum ptx_type dt, uint32_t iround)
{
	unsigned bits = ptx_types[dt].bits;
	bool sign = ptx_types[dt].cls == PTX_TC_SINT;
	ir_ref r = iround == IR_FM_RZ ? f : op1(x, IR_FROUND, IR_T_F32, f, iround);
	if (bits == 64)
		return irb_ftoi64(x->b, r, sign, 0);
	r = op1(x, sign ? IR_FTOI_S : IR_FTOI_U, IR_T_I32, r, 32u << 8);
	if (bits < 32 && sign)
		r = op2(x, IR_MAX_S, IR_T_I32,
		        op2(x, IR_MIN_S, IR_T_I32, r, k32(x, (1u << (bits - 1)) - 1)),
		        k32(x, (uint32_t) - (1 << (bits - 1))));
	else if (bits < 32)
		r = op2(x, IR_MIN_U, IR_T_I32, r, k32(x, (1u << bits) - 1));
	return r;
}

static bool int_round(const struct cx *x, uint32_t *iround)
{
	*iround = has(x, PTX_DW_RNI)   ? IR_FM_RN
	          : has(x, PTX_DW_RZI) ? IR_FM_RZ
	          : has(x, PTX_DW_RMI) ? IR_FM_RM
	          : has(x, PTX_DW_RPI) ? IR_FM_RP
	                               : 4;
	return *iround != 4;
}

static bool float_round(const struct cx *x)
{
	return has(x, PTX_DW_RN) || has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP);
}

/* an f64 to bf16 in mode m: once, through the round-to-odd f32; a NaN keeps its sign and its
 * top 7 payload bits, made quiet (the H100; build_bf16.c's cvt.rn.bf16.f64 gave 0x7fff) */
static ir_ref f64_to_bf16(struct cx *x, ir_ref d, enum rmode m)
{
	ir_ref hi =
	        op1(x, IR_TRUNC, IR_T_I32,
	            op2(x, IR_SHR_U, IR_T_I64, op1(x, IR_BITCAST, IR_T_I64, d, 0), k64(x, 32)), 0);
	ir_ref nan_r = or32(x, or32(x, and32(x, shr32(x, hi, 16), 0x8000), k32(x, 0x7fc0)),
	                    and32(x, shr32(x, hi, 13), 0x7f));
	ir_ref r = round_bf16(x, odd_f32_of_f64(x, d), m);
	return sel(x, IR_T_I32, cmp(x, IR_CMP_NAN, d, d), nan_r, r);
}

/* f32 bits u with a subnormal as the zero of its sign (.ftz) */
static ir_ref flush32(struct cx *x, ir_ref u)
{
	ir_ref tiny = cmp(x, IR_CMP_EQ, and32(x, u, 0x7f800000), k32(x, 0));
	return sel(x, IR_T_I32, tiny, and32(x, u, 0x80000000u), u);
}

/* bf16 <-> integers; false if not one of these */
static bool tr_bf16_int(struct cx *x, bool extra)
{
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	enum ptx_type_class sc = ptx_types[st].cls, dc = ptx_types[dt].cls;
	uint32_t iround;
	bool ir = int_round(x, &iround);
	if (dt == PTX_TYPE_BF16 && (sc == PTX_TC_SINT || sc == PTX_TC_UINT) && !extra &&
	    float_round(x)) {
		dst(x, op1(x, IR_TRUNC, IR_T_I16, int_to_bf16(x, st, mode_of(x)), 0));
		return true;
	}
	if (st == PTX_TYPE_BF16 && (dc == PTX_TC_SINT || dc == PTX_TC_UINT) && !extra && ir) {
		ir_ref f = bf16_to_f32(x, src(x, 1, IR_T_I32));
		ir_ref r = float_to_int(x, f, dt, iround);
		irb_write_dest(x->b, &x->in->opnds[0], r, dc == PTX_TC_SINT, x->guard);
		return true;
	}
	return false;
}

/* the bf16 conversions build_bf16.c does not take: false for the others (it takes them).
 * The H100 (tests/exec conv2): cvt.bf16.bf16 is a move that makes a NaN 0x7fff; cvt.bf16.f16
 * rounds to nearest; cvt.ftz.f32.bf16 flushes a subnormal and makes a NaN 0x7fffffff (without
 * .ftz the NaN's bits are kept: build_bf16.c); .ftz to bf16 flushes a subnormal f32 operand. */
static bool tr_bf16(struct cx *x)
{
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	uint32_t iround;
	bool ir = int_round(x, &iround), ftz = has(x, PTX_DW_FTZ);
	bool extra = ftz || has(x, PTX_DW_SAT) || has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE) ||
	             x->in->nopnds != 2;
	enum rmode m = mode_of(x);
	if (tr_bf16_int(x, extra))
		return true;
	if (dt == PTX_TYPE_BF16 && st == PTX_TYPE_BF16 && !extra && !float_round(x)) {
		ir_ref h = and32(x, src(x, 1, IR_T_I32), 0xffff);
		ir_ref f = bf16_to_f32(x, h);
		ir_ref r =
		        ir ? shr32(x, bits_of(x, op1(x, IR_FROUND, IR_T_F32, f, iround)), 16) : h;
		r = sel(x, IR_T_I32, is_nan32(x, bits_of(x, f)), k32(x, BF16_NAN), r);
		dst(x, op1(x, IR_TRUNC, IR_T_I16, r, 0));
		return true;
	}
	ir_ref r = IR_NO_REF;
	if (dt == PTX_TYPE_BF16 && st == PTX_TYPE_F16 && !extra && !ir)
		r = round_bf16(x, bits_of(x, f16_to_f32(x, src(x, 1, IR_T_I32))), m);
	else if (dt == PTX_TYPE_F16 && st == PTX_TYPE_BF16 && !extra && !ir)
		r = to_f16(x, bf16_to_f32(x, and32(x, src(x, 1, IR_T_I32), 0xffff)), m);
	else if (dt == PTX_TYPE_BF16 && st == PTX_TYPE_F32 && float_round(x) &&
	         (m == RM_RM || m == RM_RP || ftz) && !has(x, PTX_DW_SAT) && !has(x, PTX_DW_RELU) &&
	         !has(x, PTX_DW_SATFINITE) && x->in->nopnds == 2)
		r = round_bf16(x, ftz ? flush32(x, src(x, 1, IR_T_I32)) : src(x, 1, IR_T_I32), m);
	else if (dt == PTX_TYPE_BF16 && st == PTX_TYPE_F64 && float_round(x) && !extra)
		r = f64_to_bf16(x, src(x, 1, IR_T_F64), m);
	if (r != IR_NO_REF) {
		dst(x, op1(x, IR_TRUNC, IR_T_I16, r, 0));
		return true;
	}
	/* (a rounding modifier, which ptxas takes here, rounds an exact value: nothing) */
	if (dt == PTX_TYPE_F32 && st == PTX_TYPE_BF16 && ftz && !ir && !has(x, PTX_DW_SAT) &&
	    x->in->nopnds == 2) {
		ir_ref u = shl32(x, and32(x, src(x, 1, IR_T_I32), 0xffff), 16);
		u = sel(x, IR_T_I32, is_nan32(x, u), k32(x, 0x7fffffff), flush32(x, u));
		dst(x, op1(x, IR_BITCAST, IR_T_F32, u, 0));
		return true;
	}
	return false;
}

/* cvt{.sat}.f16.f16 (a move that makes a NaN 0x7fff, as the H100 does; .sat clamps to
 * [0, 1], NaN -> +0) and cvt.{rn,rz,rm,rp}.sat.f16.f64 (the operand clamped in f64, then
 * rounded once through the round-to-odd f32) */
static bool tr_f16_misc(struct cx *x)
{
	enum ptx_type st = type_at(x, 1);
	bool sat = has(x, PTX_DW_SAT);
	if (has(x, PTX_DW_FTZ) || has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE) ||
	    x->in->nopnds != 2)
		return false;
	ir_ref r;
	if (st == PTX_TYPE_F16 && !float_round(x)) {
		ir_ref h = and32(x, src(x, 1, IR_T_I32), 0xffff);
		ir_ref f = f16_to_f32(x, h);
		if (sat) {
			ir_ref args[2] = {f, ir_const(x->b->fn, IR_T_F32, 0)};
			r = op1(x, IR_ZEXT, IR_T_I32,
			        op1(x, IR_F2H, IR_T_I16,
			            emit(x, IR_FADD, IR_T_F32, args, 2, IR_FM_SAT), 0),
			        0);
		} else {
			r = sel(x, IR_T_I32, cmp(x, IR_CMP_NAN, f, f), k32(x, F16_NAN), h);
		}
	} else if (st == PTX_TYPE_F64 && sat && float_round(x)) {
		ir_ref args[2] = {src(x, 1, IR_T_F64), ir_const(x->b->fn, IR_T_F64, 0)};
		ir_ref d = emit(x, IR_FADD, IR_T_F64, args, 2, IR_FM_SAT);
		r = to_f16(x, op1(x, IR_BITCAST, IR_T_F32, odd_f32_of_f64(x, d), 0), mode_of(x));
	} else {
		return false;
	}
	dst(x, op1(x, IR_TRUNC, IR_T_I16, r, 0));
	return true;
}

/* ---- ex2.approx on 16-bit floats ---- */

static ir_ref ex2_f16(struct cx *x, ir_ref h)
{
	ir_ref f = f16_to_f32(x, h);
	ir_ref e = op1(x, IR_FEX2, IR_T_F32, f, IR_FM_APPROX);
	return sel(x, IR_T_I32, cmp(x, IR_CMP_NAN, f, f), k32(x, F16_NAN),
	           op1(x, IR_ZEXT, IR_T_I32, op1(x, IR_F2H, IR_T_I16, e, 0), 0));
}

/* .ftz: subnormal operands are zeros (2^0 = 1) and subnormal results +0 */
static ir_ref ex2_bf16(struct cx *x, ir_ref h)
{
	h = and32(x, h, 0xffff);
	ir_ref tiny = cmp(x, IR_CMP_LTU, and32(x, h, 0x7f80), k32(x, 0x80));
	h = sel(x, IR_T_I32, tiny, and32(x, h, 0x8000), h);
	ir_ref e = bits_of(x, op1(x, IR_FEX2, IR_T_F32, bf16_to_f32(x, h), IR_FM_APPROX));
	ir_ref r = round_bf16(x, e, RM_RN);
	ir_ref sub = cmp(x, IR_CMP_LTU, and32(x, r, 0x7f80), k32(x, 0x80));
	return sel(x, IR_T_I32, sub, k32(x, 0), r);
}

static bool tr_ex2(struct cx *x)
{
	enum ptx_type t = type_at(x, 0);
	bool bf = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
	bool pair = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
	if (!bf && t != PTX_TYPE_F16 && t != PTX_TYPE_F16X2)
		return false;
	if (!has(x, PTX_DW_APPROX) || has(x, PTX_DW_FTZ) != bf || x->in->nopnds != 2) {
		irb_unsupported(x->b, x->in,
		                "ex2 on 16-bit floats other than ex2.approx.f16{x2} and "
		                "ex2.approx.ftz.bf16{x2}");
		return true;
	}
	ir_ref (*f)(struct cx *, ir_ref) = bf ? ex2_bf16 : ex2_f16;
	ir_ref w = src(x, 1, IR_T_I32);
	if (!pair)
		dst(x, op1(x, IR_TRUNC, IR_T_I16, f(x, w), 0));
	else
		dst(x, pack16(x, f(x, shr32(x, w, 16)), f(x, w)));
	return true;
}

/* ---- entry ---- */

static bool tr_cvt(struct cx *x)
{
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	if (x->in->ntypes != 2)
		return false;
	if (dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2 || st == PTX_TYPE_E4M3X2 ||
	    st == PTX_TYPE_E5M2X2)
		return tr_fp8(x);
	if (dt == PTX_TYPE_TF32)
		return (!has(x, PTX_DW_RNA) || has(x, PTX_DW_SATFINITE) || has(x, PTX_DW_RELU)) &&
		       tr_tf32(x);
	if ((dt == PTX_TYPE_F16 || dt == PTX_TYPE_F16X2) && st == PTX_TYPE_F32 &&
	    (has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE)))
		return tr_f16_clamped(x);
	if (dt == PTX_TYPE_F16 && st == PTX_TYPE_F32 && has(x, PTX_DW_SAT) && mode_of(x) != RM_RN)
		return tr_f16_sat_directed(x);
	enum ptx_type_class sc = ptx_types[st].cls;
	if (dt == PTX_TYPE_F16 && (sc == PTX_TC_SINT || sc == PTX_TC_UINT) &&
	    (ptx_types[st].bits == 8 || has(x, PTX_DW_SAT)))
		return tr_int_f16(x);
	if (dt == PTX_TYPE_BF16 || st == PTX_TYPE_BF16)
		return tr_bf16(x);
	if (dt == PTX_TYPE_F16 && (st == PTX_TYPE_F16 || st == PTX_TYPE_F64) &&
	    !int_round(x, &(uint32_t){0}))
		return tr_f16_misc(x);
	return false;
}

bool irb_conv2(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct cx x = {.b = b, .in = in, .guard = guard};
	if (in->op == PTX_OP_CVT)
		return tr_cvt(&x);
	if (in->op == PTX_OP_EX2)
		return tr_ex2(&x);
	return false;
}
