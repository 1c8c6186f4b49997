/* ir_build, part 6: testp, mul24/mad24, slct, dp4a/dp2a, min/max .NaN, tanh.approx and
 * cvt.rna.tf32.f32, expanded into the IR's general operations as the PTX ISA defines them
 * (and as an NVIDIA H100 computes them: ../shared/ptx-hw, docs/SEMANTICS.md "Instruction forms").
 *
 * testp is FCLASS (v_cmp_class: the class of the operand's bit pattern, so no float mode can
 * change the answer).  mul24/mad24 multiply the low 24 bits of the operands, sign- or
 * zero-extended: .lo is bits 31..0 (mul), .hi bits 47..16 of the 48-bit product (mul.hi and
 * mul funnel-shifted by 16); mad24.hi.sat.s32 and mad.hi.sat.s32 add c in 64 bits and clamp.
 * slct tests c >= 0 on c's bits (-0.0 counts as >= 0, NaN selects b, .ftz flushes a negative
 * subnormal c to -0.0 so it selects a).  dp4a/dp2a extract the bytes and halves with bfe (signed or
 * unsigned per operand type) and sum the products modulo 2^32.  min/max.NaN return the canonical
 * NaN 0x7fffffff (0x7fff on f16/bf16, computed in f32) when either operand is NaN, else the
 * ordinary min/max; tanh.approx.f16/.f16x2 go through f32.  tanh.approx.f32 is
 * x + x^3 (2x^2/15 - 1/3) below |x| = 1/8 and 1 - 2 / (2^(2|x| log2 e) + 1) with x's sign
 * above, within the PTX ISA's bound (relative error 2^-10.987).  cvt.rna.tf32.f32 rounds to
 * 10 mantissa bits, ties away from zero, on the bit pattern (carry into the exponent gives
 * the next binade or infinity); NaN is truncated as the hardware does.  testp.normal is also
 * true for zeros, as on the hardware (the PTX ISA's text says normal numbers only).
 * Called by irb_insn before the other expansions; false for instructions it does not own.
 * O(1) per instruction. */
#include <stdint.h>

#include "ir/build_int.h"

struct fx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct fx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct fx *x, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(x->b, op, t, &a, 1, aux, 0);
}

static ir_ref op2(struct fx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, aux, 0);
}

static ir_ref op3(struct fx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, ir_ref e)
{
	ir_ref args[3] = {a, c, e};
	return irb_emit(x->b, op, t, args, 3, 0, 0);
}

static ir_ref k(struct fx *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref icmp(struct fx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	return op2(x, IR_ICMP, IR_T_PRED, a, b, c);
}

static ir_ref src(struct fx *x, unsigned i, enum ir_type t)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, false);
}

static void dst(struct fx *x, ir_ref v)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, false, x->guard);
}

static enum ptx_type type_at(const struct fx *x, unsigned i)
{
	return i < x->in->ntypes ? (enum ptx_type)x->in->types[i] : PTX_TYPE_NONE;
}

static bool type_signed(enum ptx_type t)
{
	return ptx_types[t].cls == PTX_TC_SINT;
}

/* ---- testp ---- */

/* testp.op: the v_cmp_class mask bits of the classes it accepts (ir_ops.def FCLASS) */
static bool tr_testp(struct fx *x)
{
	enum ptx_type t = type_at(x, 0);
	if (t != PTX_TYPE_F32 && t != PTX_TYPE_F64)
		return false;
	static const struct {
		enum ptx_dotword w;
		uint32_t mask;
	} classes[] = {
	        {PTX_DW_FINITE, 0x1f8},     /* -normal .. +normal, zeros and subnormals */
	        {PTX_DW_INFINITE, 0x204},   /* -inf, +inf */
	        {PTX_DW_NUMBER, 0x3fc},     /* everything but the NaNs */
	        {PTX_DW_NOTANUMBER, 0x003}, /* signalling and quiet NaNs */
	        {PTX_DW_NORMAL, 0x168},     /* normals, and zeros as on the H100 */
	        {PTX_DW_SUBNORMAL, 0x090},  /* -subnormal, +subnormal */
	};
	for (unsigned i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		if (!has(x, classes[i].w))
			continue;
		enum ir_type ft = t == PTX_TYPE_F64 ? IR_T_F64 : IR_T_F32;
		dst(x, op2(x, IR_FCLASS, IR_T_PRED, src(x, 1, ft), k(x, IR_T_I32, classes[i].mask),
		           0));
		return true;
	}
	return false;
}

/* ---- mul24, mad24 ---- */

/* The low 24 bits of operand i, sign- or zero-extended to 32 bits. */
static ir_ref low24(struct fx *x, unsigned i, bool sign)
{
	ir_ref a = src(x, i, IR_T_I32);
	if (sign)
		return op2(x, IR_SHR_S, IR_T_I32, op2(x, IR_SHL, IR_T_I32, a, k(x, IR_T_I32, 8), 0),
		           k(x, IR_T_I32, 8), 0);
	return op2(x, IR_AND, IR_T_I32, a, k(x, IR_T_I32, 0xffffff), 0);
}

/* .sat: the sum of two signed 32-bit values in 64 bits, clamped to INT32 */
static ir_ref add_sat_s32(struct fx *x, ir_ref p, ir_ref c)
{
	ir_ref s = op2(x, IR_ADD, IR_T_I64, op1(x, IR_SEXT, IR_T_I64, p, 0),
	               op1(x, IR_SEXT, IR_T_I64, c, 0), 0);
	ir_ref lo = k(x, IR_T_I64, (uint64_t)(int64_t)INT32_MIN), hi64 = k(x, IR_T_I64, INT32_MAX);
	s = op3(x, IR_SELECT, IR_T_I64, icmp(x, IR_CMP_LT, s, lo), lo, s);
	s = op3(x, IR_SELECT, IR_T_I64, icmp(x, IR_CMP_GT, s, hi64), hi64, s);
	return op1(x, IR_TRUNC, IR_T_I32, s, 0);
}

static bool tr_mul24(struct fx *x, bool is_mad)
{
	enum ptx_type t = type_at(x, 0);
	bool hi = has(x, PTX_DW_HI), sat = has(x, PTX_DW_SAT);
	if ((t != PTX_TYPE_S32 && t != PTX_TYPE_U32) || has(x, PTX_DW_WIDE) ||
	    (sat && !(is_mad && hi && t == PTX_TYPE_S32))) {
		irb_unsupported(x->b, x->in,
		                sat ? ".sat other than on mad24.hi.s32"
		                    : "types other than .u32/.s32");
		return true;
	}
	bool sign = t == PTX_TYPE_S32;
	ir_ref a = low24(x, 1, sign), b = low24(x, 2, sign);
	/* the 48-bit product is the 64-bit product of the extended operands: .lo its low word,
	 * .hi bits 47..16 = (high word : low word) >> 16 */
	ir_ref p = op2(x, IR_MUL, IR_T_I32, a, b, 0);
	if (hi)
		p = op3(x, IR_FSHR, IR_T_I32,
		        op2(x, sign ? IR_MULHI_S : IR_MULHI_U, IR_T_I32, a, b, 0), p,
		        k(x, IR_T_I32, 16));
	if (!is_mad) {
		dst(x, p);
		return true;
	}
	if (!sat) {
		dst(x, op2(x, IR_ADD, IR_T_I32, p, src(x, 3, IR_T_I32), 0));
		return true;
	}
	dst(x, add_sat_s32(x, p, src(x, 3, IR_T_I32)));
	return true;
}

/* mad.hi.sat.s32 (the ISA's only saturating .hi form): the high word of the 64-bit product
 * plus c, clamped to INT32 */
static bool tr_mad_hi_sat(struct fx *x)
{
	ir_ref a = src(x, 1, IR_T_I32), b = src(x, 2, IR_T_I32);
	dst(x, add_sat_s32(x, op2(x, IR_MULHI_S, IR_T_I32, a, b, 0), src(x, 3, IR_T_I32)));
	return true;
}

/* ---- slct ---- */

static bool tr_slct(struct fx *x)
{
	enum ptx_type dt = type_at(x, 0), ct = type_at(x, 1);
	unsigned bits = ptx_types[dt].bits;
	if ((ct != PTX_TYPE_S32 && ct != PTX_TYPE_F32) || (bits != 16 && bits != 32 && bits != 64))
		return false;
	if (has(x, PTX_DW_FTZ) && ct != PTX_TYPE_F32) {
		irb_unsupported(x->b, x->in, ".ftz with an integer comparison operand");
		return true;
	}
	ir_ref c = src(x, 3, IR_T_I32), take_a;
	if (ct == PTX_TYPE_S32) {
		take_a = icmp(x, IR_CMP_GE, c, k(x, IR_T_I32, 0));
	} else {
		/* c >= 0: sign clear and not NaN, or a zero of either sign (with .ftz also a
		 * subnormal of either sign, flushed to zero) */
		ir_ref mag = op2(x, IR_AND, IR_T_I32, c, k(x, IR_T_I32, 0x7fffffff), 0);
		ir_ref pos = icmp(x, IR_CMP_LEU, c, k(x, IR_T_I32, 0x7f800000));
		ir_ref zero = icmp(x, IR_CMP_LTU, mag,
		                   k(x, IR_T_I32, has(x, PTX_DW_FTZ) ? 0x00800000 : 1));
		take_a = op2(x, IR_OR, IR_T_PRED, pos, zero, 0);
	}
	enum ir_type t = bits == 64 ? IR_T_I64 : bits == 16 ? IR_T_I16 : IR_T_I32;
	dst(x, op3(x, IR_SELECT, t, take_a, src(x, 1, t), src(x, 2, t)));
	return true;
}

/* ---- dp4a, dp2a ---- */

/* Field `pos`/`len` of v, extended as `sign` says. */
static ir_ref field(struct fx *x, ir_ref v, unsigned pos, unsigned len, bool sign)
{
	return op3(x, sign ? IR_BFE_S : IR_BFE_U, IR_T_I32, v, k(x, IR_T_I32, pos),
	           k(x, IR_T_I32, len));
}

static bool tr_dot(struct fx *x, bool four)
{
	enum ptx_type at = type_at(x, 0), bt = type_at(x, 1);
	bool ok = (at == PTX_TYPE_S32 || at == PTX_TYPE_U32) &&
	          (bt == PTX_TYPE_S32 || bt == PTX_TYPE_U32) && x->in->ntypes == 2;
	if (!ok || (!four && !has(x, PTX_DW_LO) && !has(x, PTX_DW_HI))) {
		irb_unsupported(x->b, x->in, "operand types other than .u32/.s32");
		return true;
	}
	bool as = type_signed(at), bs = type_signed(bt);
	ir_ref a = src(x, 1, IR_T_I32), bv = src(x, 2, IR_T_I32);
	ir_ref sum = src(x, 3, IR_T_I32);
	unsigned first = !four && has(x, PTX_DW_HI) ? 2 : 0; /* dp2a.hi: bytes 2, 3 of b */
	for (unsigned i = 0; i < (four ? 4u : 2u); i++) {
		ir_ref ae = four ? field(x, a, 8 * i, 8, as) : field(x, a, 16 * i, 16, as);
		ir_ref be = field(x, bv, 8 * (first + i), 8, bs);
		sum = op2(x, IR_ADD, IR_T_I32, sum, op2(x, IR_MUL, IR_T_I32, ae, be, 0), 0);
	}
	dst(x, sum);
	return true;
}

/* ---- 16-bit floats ---- */

static ir_ref half_of(struct fx *x, ir_ref w, unsigned h)
{
	return op1(x, IR_TRUNC, IR_T_I16,
	           h ? op2(x, IR_SHR_U, IR_T_I32, w, k(x, IR_T_I32, 16), 0) : w, 0);
}

static ir_ref pack_halves(struct fx *x, ir_ref lo, ir_ref hi)
{
	ir_ref l = op1(x, IR_ZEXT, IR_T_I32, lo, 0), h = op1(x, IR_ZEXT, IR_T_I32, hi, 0);
	return op2(x, IR_OR, IR_T_I32, l, op2(x, IR_SHL, IR_T_I32, h, k(x, IR_T_I32, 16), 0), 0);
}

/* f applied to each 16-bit half of w */
static ir_ref map_halves(struct fx *x, ir_ref w, ir_ref (*f)(struct fx *, ir_ref))
{
	ir_ref lo = f(x, half_of(x, w, 0));
	return pack_halves(x, lo, f(x, half_of(x, w, 1)));
}

/* ---- min/max .NaN ---- */

/* .ftz: a subnormal f32 as the zero of its sign (bit operations, whatever the float mode) */
static ir_ref flush(struct fx *x, ir_ref v)
{
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, v, 0);
	ir_ref mag = op2(x, IR_AND, IR_T_I32, bits, k(x, IR_T_I32, 0x7fffffff), 0);
	ir_ref tiny = icmp(x, IR_CMP_LTU, mag, k(x, IR_T_I32, 0x00800000));
	ir_ref r = op3(x, IR_SELECT, IR_T_I32, tiny,
	               op2(x, IR_AND, IR_T_I32, bits, k(x, IR_T_I32, 0x80000000u), 0), bits);
	return op1(x, IR_BITCAST, IR_T_F32, r, 0);
}

/* A 16-bit float (i16 bits) as f32, exactly: bfloat16 is the f32's high half; .ftz flushes a
 * subnormal f16 to the zero of its sign first */
static ir_ref widen16(struct fx *x, ir_ref h, bool bf, bool ftz)
{
	if (bf)
		return op1(x, IR_BITCAST, IR_T_F32,
		           op2(x, IR_SHL, IR_T_I32, op1(x, IR_ZEXT, IR_T_I32, h, 0),
		               k(x, IR_T_I32, 16), 0),
		           0);
	if (ftz) { /* (16-bit values are computed on in 32 bits) */
		ir_ref w = op1(x, IR_ZEXT, IR_T_I32, h, 0);
		ir_ref mag = op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x7fff), 0);
		ir_ref tiny = icmp(x, IR_CMP_LTU, mag, k(x, IR_T_I32, 0x0400));
		w = op3(x, IR_SELECT, IR_T_I32, tiny,
		        op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x8000), 0), w);
		h = op1(x, IR_TRUNC, IR_T_I16, w, 0);
	}
	return op1(x, IR_H2F, IR_T_F32, h, 0);
}

/* min/max.NaN of two f32 values: the canonical NaN `nan` (as f32 bits) if either is NaN */
static ir_ref minmax_nan(struct fx *x, ir_ref a, ir_ref b)
{
	ir_ref m = op2(x, x->in->op == PTX_OP_MIN ? IR_FMIN : IR_FMAX, IR_T_F32, a, b, 0);
	ir_ref nan = op2(x, IR_FCMP, IR_T_PRED, a, b, IR_CMP_NAN);
	return op3(x, IR_SELECT, IR_T_I32, nan, k(x, IR_T_I32, 0x7fffffff),
	           op1(x, IR_BITCAST, IR_T_I32, m, 0));
}

/* The same on 16-bit floats: computed in f32 (the result is one of the operands, so it
 * narrows exactly); NaN gives 0x7fff, the canonical NaN of f16 and bf16 on the H100 */
static ir_ref minmax_nan16(struct fx *x, ir_ref a, ir_ref b, bool bf)
{
	bool ftz = has(x, PTX_DW_FTZ);
	ir_ref r = minmax_nan(x, widen16(x, a, bf, ftz), widen16(x, b, bf, ftz));
	if (bf)
		return op1(x, IR_TRUNC, IR_T_I16,
		           op2(x, IR_SHR_U, IR_T_I32, r, k(x, IR_T_I32, 16), 0), 0);
	ir_ref nan = icmp(x, IR_CMP_EQ, r, k(x, IR_T_I32, 0x7fffffff));
	ir_ref h = op1(x, IR_F2H, IR_T_I16, op1(x, IR_BITCAST, IR_T_F32, r, 0), 0);
	return op1(x, IR_TRUNC, IR_T_I16,
	           op3(x, IR_SELECT, IR_T_I32, nan, k(x, IR_T_I32, 0x7fff),
	               op1(x, IR_ZEXT, IR_T_I32, h, 0)),
	           0);
}

static bool tr_minmax_nan(struct fx *x)
{
	enum ptx_type t = type_at(x, 0);
	bool bf = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
	bool pair = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
	if (has(x, PTX_DW_XORSIGN) || has(x, PTX_DW_ABS) || has(x, PTX_DW_RELU) ||
	    x->in->nopnds != 3 || (bf && has(x, PTX_DW_FTZ)) ||
	    !(t == PTX_TYPE_F32 || t == PTX_TYPE_F16 || bf || pair)) {
		irb_unsupported(x->b, x->in,
		                ".NaN with .xorsign.abs, .relu, three sources or "
		                "this type");
		return true;
	}
	if (t == PTX_TYPE_F32) {
		ir_ref a = src(x, 1, IR_T_F32), b = src(x, 2, IR_T_F32);
		if (has(x, PTX_DW_FTZ)) {
			a = flush(x, a);
			b = flush(x, b);
		}
		dst(x, op1(x, IR_BITCAST, IR_T_F32, minmax_nan(x, a, b), 0));
		return true;
	}
	if (!pair) {
		dst(x, minmax_nan16(x, src(x, 1, IR_T_I16), src(x, 2, IR_T_I16), bf));
		return true;
	}
	ir_ref a = src(x, 1, IR_T_I32), b = src(x, 2, IR_T_I32), h[2];
	for (unsigned i = 0; i < 2; i++)
		h[i] = minmax_nan16(x, half_of(x, a, i), half_of(x, b, i), bf);
	dst(x, pack_halves(x, h[0], h[1]));
	return true;
}

/* ---- tanh.approx ---- */

static ir_ref fk(struct fx *x, float v)
{
	union {
		float f;
		uint32_t u;
	} u = {.f = v};
	return k(x, IR_T_F32, u.u);
}

/* tanh of an f32 value (the expansion in the header comment) */
static ir_ref tanh_f32(struct fx *x, ir_ref v)
{
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, v, 0);
	ir_ref ax = op1(x, IR_FABS, IR_T_F32, v, 0);
	/* small |x|: the odd series to x^5, relative error below (17/315) x^6 */
	ir_ref x2 = op2(x, IR_FMUL, IR_T_F32, v, v, 0);
	ir_ref p = op3(x, IR_FMA, IR_T_F32, x2, fk(x, 2.0f / 15.0f), fk(x, -1.0f / 3.0f));
	ir_ref small = op3(x, IR_FMA, IR_T_F32, op2(x, IR_FMUL, IR_T_F32, v, x2, 0), p, v);
	/* the rest: 1 - 2 / (e^(2|x|) + 1), |x|'s sign put back (infinity gives 1, NaN NaN) */
	ir_ref e = op1(x, IR_FEX2, IR_T_F32,
	               op2(x, IR_FMUL, IR_T_F32, ax, fk(x, 2.8853900817779268f), 0), IR_FM_APPROX);
	ir_ref r = op1(x, IR_FRCP, IR_T_F32, op2(x, IR_FADD, IR_T_F32, e, fk(x, 1.0f), 0),
	               IR_FM_APPROX);
	ir_ref big = op3(x, IR_FMA, IR_T_F32, r, fk(x, -2.0f), fk(x, 1.0f));
	ir_ref sbits = op2(x, IR_OR, IR_T_I32, op1(x, IR_BITCAST, IR_T_I32, big, 0),
	                   op2(x, IR_AND, IR_T_I32, bits, k(x, IR_T_I32, 0x80000000u), 0), 0);
	ir_ref is_small = op2(x, IR_FCMP, IR_T_PRED, ax, fk(x, 0.125f), IR_CMP_LT);
	return op3(x, IR_SELECT, IR_T_F32, is_small, small, op1(x, IR_BITCAST, IR_T_F32, sbits, 0));
}

/* tanh of an f16 value (i16 bits): in f32, rounded back to nearest even */
static ir_ref tanh_f16(struct fx *x, ir_ref h)
{
	return op1(x, IR_F2H, IR_T_I16, tanh_f32(x, op1(x, IR_H2F, IR_T_F32, h, 0)), 0);
}

static bool tr_tanh(struct fx *x)
{
	enum ptx_type t = type_at(x, 0);
	if (!has(x, PTX_DW_APPROX) || has(x, PTX_DW_FTZ) ||
	    (t != PTX_TYPE_F32 && t != PTX_TYPE_F16 && t != PTX_TYPE_F16X2)) {
		irb_unsupported(x->b, x->in, "tanh other than tanh.approx.f32/.f16/.f16x2");
		return true;
	}
	if (t == PTX_TYPE_F32)
		dst(x, tanh_f32(x, src(x, 1, IR_T_F32)));
	else if (t == PTX_TYPE_F16)
		dst(x, tanh_f16(x, src(x, 1, IR_T_I16)));
	else
		dst(x, map_halves(x, src(x, 1, IR_T_I32), tanh_f16));
	return true;
}

/* ---- cvt.rna.tf32.f32 ---- */

static bool tr_cvt_tf32(struct fx *x)
{
	if (type_at(x, 1) != PTX_TYPE_F32 || !has(x, PTX_DW_RNA) || has(x, PTX_DW_SATFINITE) ||
	    has(x, PTX_DW_RELU) || has(x, PTX_DW_FTZ) || has(x, PTX_DW_SAT) || x->in->nopnds != 2) {
		irb_unsupported(x->b, x->in, "tf32 conversions other than cvt.rna.tf32.f32");
		return true;
	}
	ir_ref v = src(x, 1, IR_T_I32);
	ir_ref keep = k(x, IR_T_I32, 0xffffe000u);
	/* finite and infinite: add half of the dropped place, truncate (ties away from zero) */
	ir_ref rounded = op2(x, IR_AND, IR_T_I32,
	                     op2(x, IR_ADD, IR_T_I32, v, k(x, IR_T_I32, 0x1000), 0), keep, 0);
	/* NaN: truncated, as the H100 does (0x7fffffff -> 0x7fffe000; a payload only in the
	 * dropped bits gives infinity: 0x7f800001 -> 0x7f800000) */
	ir_ref nan_r = op2(x, IR_AND, IR_T_I32, v, keep, 0);
	ir_ref mag = op2(x, IR_AND, IR_T_I32, v, k(x, IR_T_I32, 0x7fffffff), 0);
	ir_ref nan = icmp(x, IR_CMP_GTU, mag, k(x, IR_T_I32, 0x7f800000));
	dst(x, op3(x, IR_SELECT, IR_T_I32, nan, nan_r, rounded));
	return true;
}

/* ---- entry ---- */

bool irb_forms(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct fx x = {.b = b, .in = in, .guard = guard};
	switch (in->op) {
	case PTX_OP_TESTP:
		return tr_testp(&x);
	case PTX_OP_MUL24:
		return tr_mul24(&x, false);
	case PTX_OP_MAD24:
		return tr_mul24(&x, true);
	case PTX_OP_MAD:
		return has(&x, PTX_DW_HI) && has(&x, PTX_DW_SAT) &&
		       type_at(&x, 0) == PTX_TYPE_S32 && !has(&x, PTX_DW_CC) && tr_mad_hi_sat(&x);
	case PTX_OP_SLCT:
		return tr_slct(&x);
	case PTX_OP_DP4A:
		return tr_dot(&x, true);
	case PTX_OP_DP2A:
		return tr_dot(&x, false);
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		return has(&x, PTX_DW_NAN_MOD) && tr_minmax_nan(&x);
	case PTX_OP_TANH:
		return tr_tanh(&x);
	case PTX_OP_CVT:
		return type_at(&x, 0) == PTX_TYPE_TF32 && tr_cvt_tf32(&x);
	default:
		return false;
	}
}
