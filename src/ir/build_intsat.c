/* ir_build, part 9: integer saturation, SIMD 16x2 integer forms, min/max .relu and
 * .xorsign.abs, cvt.pack.sat, set; the video instructions are in build_video.c.  Each form
 * is expanded into the IR's general operations as the PTX ISA defines it
 * (docs/SEMANTICS.md "Integer saturation, set and video instructions").
 *
 * add/sub.sat.s32 are IR operations of their own (sel_intsat.c: the clamp bit of
 * v_add_i32/v_sub_i32).  The .s16x2/.u16x2 forms are packed IR operations
 * (sel_intsat.c: v_pk_add_u16, v_pk_min/max_i16/u16).  cvt.sat between integer types clamps the
 * source, extended as its type says, to the destination type's range.  cvt.pack.sat clamps a and b
 * to the narrow type and packs them (a above b) below c shifted left.  min/max.xorsign.abs compare
 * magnitudes (as f32: f16 and bf16 convert exactly) and give the result the XOR of the
 * operands' signs, a NaN result the canonical NaN.  set is setp's comparison (and boolean
 * operation) as all ones or 1.0f (1.0 in f16/bf16, per half for the x2 forms).
 * Called by irb_insn before the other expansions; false for instructions it does not own.
 * O(1) per instruction. */
#include <stdint.h>
#include <stdio.h>

#include "ir/build_int.h"

struct sx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct sx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct sx *x, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(x->b, op, t, &a, 1, aux, 0);
}

static ir_ref op2(struct sx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, aux, 0);
}

static ir_ref sel(struct sx *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref c)
{
	ir_ref args[3] = {p, a, c};
	return irb_emit(x->b, IR_SELECT, t, args, 3, 0, 0);
}

static ir_ref k(struct sx *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref icmp(struct sx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	return op2(x, IR_ICMP, IR_T_PRED, a, b, c);
}

static ir_ref src(struct sx *x, unsigned i, enum ir_type t, bool sign)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, sign);
}

static void dst(struct sx *x, ir_ref v, bool sign)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, sign, x->guard);
}

static enum ptx_type type_at(const struct sx *x, unsigned i)
{
	return i < x->in->ntypes ? (enum ptx_type)x->in->types[i] : PTX_TYPE_NONE;
}

static bool is_int(enum ptx_type t)
{
	enum ptx_type_class c = (enum ptx_type_class)ptx_types[t].cls;
	return c == PTX_TC_SINT || c == PTX_TC_UINT || c == PTX_TC_BIT;
}

static bool is_sint(enum ptx_type t)
{
	return ptx_types[t].cls == PTX_TC_SINT;
}

/* false, after an error naming it, when `in` has a modifier other than its types, the words of
 * `ok` and (cmp) a comparison (also build_video.c, through IRB_MODS_ONLY) */
bool irb_mods_only(struct irb *b, const struct ptx_insn *in, const enum ptx_dotword *ok, unsigned n,
                   bool cmp)
{
	for (unsigned i = 0; i < in->nmods; i++) {
		unsigned m = in->mods[i];
		bool fine = ptx_dotwords[m].type != PTX_TYPE_NONE ||
		            (cmp && (ptx_dotwords[m].classes & PTX_MC_CMP));
		for (unsigned j = 0; j < n && !fine; j++)
			fine = m == (unsigned)ok[j];
		if (!fine) {
			char why[80];
			snprintf(why, sizeof why, "modifier '%s' on this form",
			         ptx_dotwords[m].text);
			irb_unsupported(b, in, why);
			return false;
		}
	}
	return true;
}

#define MODS_OK(x, cmp, ...) IRB_MODS_ONLY((x)->b, (x)->in, cmp, __VA_ARGS__)

/* v clamped to [lo, hi] with comparisons of the given signedness */
static ir_ref clamp(struct sx *x, enum ir_type t, ir_ref v, uint64_t lo, uint64_t hi, bool sign)
{
	ir_ref l = k(x, t, lo), h = k(x, t, hi);
	v = sel(x, t, icmp(x, sign ? IR_CMP_LT : IR_CMP_LTU, v, l), l, v);
	return sel(x, t, icmp(x, sign ? IR_CMP_GT : IR_CMP_GTU, v, h), h, v);
}

/* the field of `len` bits at `pos` of the i32 v, sign- or zero-extended */
static ir_ref field(struct sx *x, ir_ref v, unsigned pos, unsigned len, bool sign)
{
	ir_ref args[3] = {v, k(x, IR_T_I32, pos), k(x, IR_T_I32, len)};
	return irb_emit(x->b, sign ? IR_BFE_S : IR_BFE_U, IR_T_I32, args, 3, 0, 0);
}

/* (hi << 16) | (lo & 0xffff) */
static ir_ref pack16(struct sx *x, ir_ref lo, ir_ref hi)
{
	return op2(x, IR_OR, IR_T_I32, op2(x, IR_AND, IR_T_I32, lo, k(x, IR_T_I32, 0xffff), 0),
	           op2(x, IR_SHL, IR_T_I32, hi, k(x, IR_T_I32, 16), 0), 0);
}

/* ---- add/sub.sat.s32 ---- */

static bool tr_addsub_sat(struct sx *x, bool is_sub)
{
	if (!MODS_OK(x, false, PTX_DW_SAT))
		return true;
	ir_ref a = src(x, 1, IR_T_I32, true), b = src(x, 2, IR_T_I32, true);
	dst(x, op2(x, is_sub ? IR_SUB_SAT_S : IR_ADD_SAT_S, IR_T_I32, a, b, 0), true);
	return true;
}

/* ---- .s16x2 / .u16x2 ---- */

static bool tr_x2(struct sx *x)
{
	const struct ptx_insn *in = x->in;
	bool sign = type_at(x, 0) == PTX_TYPE_S16X2, relu = has(x, PTX_DW_RELU);
	bool minmax = in->op == PTX_OP_MIN || in->op == PTX_OP_MAX;
	if (in->op != PTX_OP_ADD && in->op != PTX_OP_SUB && !minmax)
		return false;
	if (!MODS_OK(x, false, PTX_DW_RELU))
		return true;
	if (in->op == PTX_OP_SUB) { /* the ISA defines add/min/max .s16x2/.u16x2 only */
		irb_unsupported(x->b, in,
		                "sub has no .s16x2/.u16x2 form (NVIDIA's ptxas rejects it)");
		return true;
	}
	if (has(x, PTX_DW_SAT) || has(x, PTX_DW_CC) || (relu && !(minmax && sign)) ||
	    in->nopnds != 3) {
		irb_unsupported(
		        x->b, in,
		        "of the .s16x2/.u16x2 forms only add, sub, min and max exist (.relu "
		        "on min/max.s16x2)");
		return true;
	}
	enum ir_op op = in->op == PTX_OP_ADD   ? IR_PK_ADD16
	                : in->op == PTX_OP_MIN ? (sign ? IR_PK_MIN_S16 : IR_PK_MIN_U16)
	                                       : (sign ? IR_PK_MAX_S16 : IR_PK_MAX_U16);
	ir_ref r = op2(x, op, IR_T_I32, src(x, 1, IR_T_I32, false), src(x, 2, IR_T_I32, false), 0);
	if (relu) /* each half, or 0 when it is negative */
		r = op2(x, IR_PK_MAX_S16, IR_T_I32, r, k(x, IR_T_I32, 0), 0);
	dst(x, r, false);
	return true;
}

/* min/max.relu.s32: the result, or 0 when it is negative */
static bool tr_relu_s32(struct sx *x)
{
	if (!MODS_OK(x, false, PTX_DW_RELU))
		return true;
	if (x->in->nopnds != 3 || has(x, PTX_DW_NAN_MOD) || has(x, PTX_DW_XORSIGN)) {
		irb_unsupported(x->b, x->in, "three-operand or .NaN/.xorsign integer min/max");
		return true;
	}
	ir_ref a = src(x, 1, IR_T_I32, true), b = src(x, 2, IR_T_I32, true);
	ir_ref r = op2(x, x->in->op == PTX_OP_MIN ? IR_MIN_S : IR_MAX_S, IR_T_I32, a, b, 0);
	dst(x, op2(x, IR_MAX_S, IR_T_I32, r, k(x, IR_T_I32, 0), 0), true);
	return true;
}

/* ---- min/max.xorsign.abs ---- */

enum xs_kind { XS_F32, XS_F16, XS_BF16 };

/* one f32/f16/bf16 element (bits in an i32, low bits for the 16-bit kinds) */
static ir_ref xorsign_one(struct sx *x, ir_ref a, ir_ref b, enum xs_kind kind)
{
	bool is_min = x->in->op == PTX_OP_MIN, ftz = has(x, PTX_DW_FTZ);
	unsigned bits = kind == XS_F32 ? 32 : 16;
	uint32_t sbit = 1u << (bits - 1);
	ir_ref sign = op2(x, IR_AND, IR_T_I32, op2(x, IR_XOR, IR_T_I32, a, b, 0),
	                  k(x, IR_T_I32, sbit), 0);
	ir_ref v[2] = {a, b};
	for (unsigned i = 0; i < 2; i++) {
		ir_ref m = op2(x, IR_AND, IR_T_I32, v[i], k(x, IR_T_I32, sbit - 1), 0);
		if (ftz && kind == XS_F16) /* an f16 subnormal is a normal f32: flush it here */
			m = sel(x, IR_T_I32, icmp(x, IR_CMP_LTU, m, k(x, IR_T_I32, 0x400)),
			        k(x, IR_T_I32, 0), m);
		if (kind == XS_F16)
			m = op1(x, IR_H2F, IR_T_F32, op1(x, IR_TRUNC, IR_T_I16, m, 0), 0);
		else
			m = op1(x, IR_BITCAST, IR_T_F32,
			        kind == XS_BF16 ? op2(x, IR_SHL, IR_T_I32, m, k(x, IR_T_I32, 16), 0)
			                        : m,
			        0);
		if (ftz && kind != XS_F16)
			m = irb_flush_subnormal(x->b, m, false);
		v[i] = m;
	}
	ir_ref r = op2(x, is_min ? IR_FMIN : IR_FMAX, IR_T_F32, v[0], v[1], 0);
	ir_ref nan = op2(x, IR_FCMP, IR_T_PRED, r, r, IR_CMP_NAN);
	if (has(x, PTX_DW_NAN_MOD))
		nan = op2(x, IR_FCMP, IR_T_PRED, v[0], v[1], IR_CMP_NAN);
	ir_ref rb = op1(x, IR_BITCAST, IR_T_I32, r, 0);
	if (kind == XS_F16) /* the magnitude of one of the operands: exact in f16 */
		rb = op1(x, IR_ZEXT, IR_T_I32, op1(x, IR_F2H, IR_T_I16, r, 0), 0);
	else if (kind == XS_BF16)
		rb = op2(x, IR_SHR_U, IR_T_I32, rb, k(x, IR_T_I32, 16), 0);
	rb = op2(x, IR_OR, IR_T_I32, rb, sign, 0);
	return sel(x, IR_T_I32, nan, k(x, IR_T_I32, sbit - 1), rb);
}

static bool tr_xorsign(struct sx *x)
{
	if (!MODS_OK(x, false, PTX_DW_XORSIGN, PTX_DW_ABS, PTX_DW_FTZ, PTX_DW_NAN_MOD))
		return true;
	enum ptx_type t = type_at(x, 0);
	if (!has(x, PTX_DW_ABS) || x->in->nopnds != 3 || has(x, PTX_DW_RELU) ||
	    (has(x, PTX_DW_FTZ) && (t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2)) ||
	    (t != PTX_TYPE_F32 && t != PTX_TYPE_F16 && t != PTX_TYPE_F16X2 && t != PTX_TYPE_BF16 &&
	     t != PTX_TYPE_BF16X2)) {
		irb_unsupported(
		        x->b, x->in,
		        ".xorsign needs .abs and two f32, f16, f16x2, bf16 or bf16x2 operands "
		        "(.ftz not on bf16)");
		return true;
	}
	enum xs_kind kind = t == PTX_TYPE_F32                          ? XS_F32
	                    : t == PTX_TYPE_F16 || t == PTX_TYPE_F16X2 ? XS_F16
	                                                               : XS_BF16;
	bool pair = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
	if (kind == XS_F32 || pair) {
		ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
		if (!pair) {
			dst(x, op1(x, IR_BITCAST, IR_T_F32, xorsign_one(x, a, b, kind), 0), false);
			return true;
		}
		ir_ref lo =
		        xorsign_one(x, field(x, a, 0, 16, false), field(x, b, 0, 16, false), kind);
		ir_ref hi = xorsign_one(x, field(x, a, 16, 16, false), field(x, b, 16, 16, false),
		                        kind);
		dst(x, pack16(x, lo, hi), false);
		return true;
	}
	ir_ref a = op1(x, IR_ZEXT, IR_T_I32, src(x, 1, IR_T_I16, false), 0);
	ir_ref b = op1(x, IR_ZEXT, IR_T_I32, src(x, 2, IR_T_I16, false), 0);
	dst(x, op1(x, IR_TRUNC, IR_T_I16, xorsign_one(x, a, b, kind), 0), false);
	return true;
}

/* ---- cvt.sat between integer types, cvt.pack.sat ---- */

/* the range of an integer type as (lo, hi) bit patterns of width `w` */
static void int_range(enum ptx_type t, unsigned w, uint64_t *lo, uint64_t *hi)
{
	unsigned n = ptx_types[t].bits;
	uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
	if (is_sint(t)) {
		*hi = (1ull << (n - 1)) - 1;
		*lo = (~0ull << (n - 1)) & mask;
	} else {
		*hi = n == 64 ? ~0ull : (1ull << n) - 1;
		*lo = 0;
	}
}

/* the smallest value of a `bits`-bit integer type */
static int64_t type_min(bool sign, unsigned bits)
{
	return !sign ? 0 : bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

static bool tr_cvt_sat_int(struct sx *x)
{
	if (!MODS_OK(x, false, PTX_DW_SAT))
		return true;
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	if (has(x, PTX_DW_RELU) || has(x, PTX_DW_FTZ) || x->in->nopnds != 2) {
		irb_unsupported(x->b, x->in, "integer conversions with .relu/.ftz");
		return true;
	}
	unsigned sb = ptx_types[st].bits, db = ptx_types[dt].bits;
	bool ss = is_sint(st), ds = is_sint(dt);
	enum ir_type w = sb == 64 ? IR_T_I64 : IR_T_I32;
	ir_ref v = src(x, 1, w, ss);
	if (sb < 32) /* the source's own bits, extended as its type says */
		v = field(x, v, 0, sb, ss);
	/* source and destination ranges as values: clamp only where the source's exceeds */
	int64_t smin = type_min(ss, sb), dmin = type_min(ds, db);
	uint64_t smax = ss ? (1ull << (sb - 1)) - 1 : sb == 64 ? ~0ull : (1ull << sb) - 1;
	uint64_t dmax = ds ? (1ull << (db - 1)) - 1 : db == 64 ? ~0ull : (1ull << db) - 1;
	if (smin < dmin) { /* then dmin is 0 or a negative value above smin: source signed */
		ir_ref l = k(x, w, (uint64_t)dmin);
		v = sel(x, w, icmp(x, IR_CMP_LT, v, l), l, v);
	}
	if (smax > dmax) { /* compare as the source type: dmax is below smax */
		ir_ref h = k(x, w, dmax);
		v = sel(x, w, icmp(x, ss ? IR_CMP_GT : IR_CMP_GTU, v, h), h, v);
	}
	/* the clamped value fits the destination type: extending it as the source's type
	 * says (a negative value is left only when both are signed) keeps its value */
	enum ir_type dw = db == 64 ? IR_T_I64 : IR_T_I32;
	if (dw != w)
		v = op1(x, dw == IR_T_I64 ? (ss ? IR_SEXT : IR_ZEXT) : IR_TRUNC, dw, v, 0);
	dst(x, v, ds);
	return true;
}

static bool tr_cvt_pack(struct sx *x)
{
	if (!MODS_OK(x, false, PTX_DW_PACK, PTX_DW_SAT))
		return true;
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1), ct = type_at(x, 2);
	unsigned n = ptx_types[dt].bits;
	bool wide = n == 16;
	if (!has(x, PTX_DW_SAT) || st != PTX_TYPE_S32 || !is_int(dt) ||
	    (n != 16 && n != 8 && n != 4) || x->in->nopnds != (wide ? 3u : 4u) ||
	    (!wide && ct != PTX_TYPE_B32) || (wide && ct != PTX_TYPE_NONE)) {
		irb_unsupported(
		        x->b, x->in,
		        "cvt.pack needs .sat, .s32 sources, and .b32 c exactly for the 8- and "
		        "4-bit forms");
		return true;
	}
	uint64_t lo, hi;
	int_range(dt, 32, &lo, &hi);
	ir_ref a = clamp(x, IR_T_I32, src(x, 1, IR_T_I32, true), lo, hi, true);
	ir_ref b = clamp(x, IR_T_I32, src(x, 2, IR_T_I32, true), lo, hi, true);
	ir_ref mask = k(x, IR_T_I32, (1u << n) - 1);
	ir_ref d = op2(x, IR_OR, IR_T_I32, op2(x, IR_AND, IR_T_I32, b, mask, 0),
	               op2(x, IR_SHL, IR_T_I32, op2(x, IR_AND, IR_T_I32, a, mask, 0),
	                   k(x, IR_T_I32, n), 0),
	               0);
	if (!wide) /* c fills the bits above the pair */
		d = op2(x, IR_OR, IR_T_I32, d,
		        op2(x, IR_SHL, IR_T_I32, src(x, 3, IR_T_I32, false), k(x, IR_T_I32, 2 * n),
		            0),
		        0);
	dst(x, d, false);
	return true;
}

/* ---- set ---- */

/* the comparison of one pair of 16-bit floats (f16 or bf16 bits in the low half of i32s) */
static ir_ref set_cmp16(struct sx *x, ir_ref a, ir_ref b, bool bf, enum ir_cmp c)
{
	ir_ref v[2] = {a, b};
	for (unsigned i = 0; i < 2; i++) {
		if (bf) {
			v[i] = op1(x, IR_BITCAST, IR_T_F32,
			           op2(x, IR_SHL, IR_T_I32, v[i], k(x, IR_T_I32, 16), 0), 0);
			continue;
		}
		ir_ref h = v[i];
		if (has(x, PTX_DW_FTZ)) { /* a subnormal f16 as the zero of its sign */
			ir_ref m = op2(x, IR_AND, IR_T_I32, h, k(x, IR_T_I32, 0x7fff), 0);
			h = sel(x, IR_T_I32, icmp(x, IR_CMP_LTU, m, k(x, IR_T_I32, 0x400)),
			        op2(x, IR_AND, IR_T_I32, h, k(x, IR_T_I32, 0x8000), 0), h);
		}
		v[i] = op1(x, IR_H2F, IR_T_F32, op1(x, IR_TRUNC, IR_T_I16, h, 0), 0);
	}
	return op2(x, IR_FCMP, IR_T_PRED, v[0], v[1], c);
}

/* the word written for a true/false comparison result */
static ir_ref set_value(struct sx *x, ir_ref p, enum ptx_type dt, bool half)
{
	uint32_t one = dt == PTX_TYPE_F32      ? 0x3f800000u
	               : dt == PTX_TYPE_F16    ? 0x3c00u
	               : dt == PTX_TYPE_BF16   ? 0x3f80u
	               : dt == PTX_TYPE_F16X2  ? 0x3c00u
	               : dt == PTX_TYPE_BF16X2 ? 0x3f80u
	               : half                  ? 0xffffu
	                                       : 0xffffffffu;
	return sel(x, IR_T_I32, p, k(x, IR_T_I32, one), k(x, IR_T_I32, 0));
}

static bool tr_set(struct sx *x)
{
	if (!MODS_OK(x, true, PTX_DW_FTZ, PTX_DW_AND, PTX_DW_OR, PTX_DW_XOR))
		return true;
	const struct ptx_insn *in = x->in;
	enum ptx_type dt = type_at(x, 0), st = type_at(x, 1);
	bool sfloat = ptx_types[st].cls == PTX_TC_FLOAT || ptx_types[st].cls == PTX_TC_PACKED;
	bool half = st == PTX_TYPE_F16 || st == PTX_TYPE_BF16 || st == PTX_TYPE_F16X2 ||
	            st == PTX_TYPE_BF16X2;
	bool pair = st == PTX_TYPE_F16X2 || st == PTX_TYPE_BF16X2;
	bool bf = st == PTX_TYPE_BF16 || st == PTX_TYPE_BF16X2;
	enum ir_cmp c;
	bool dt_ok = dt == PTX_TYPE_U32 || dt == PTX_TYPE_S32 || dt == PTX_TYPE_F32 ||
	             (half && !pair &&
	              (dt == PTX_TYPE_U16 || dt == PTX_TYPE_S16 ||
	               dt == (bf ? PTX_TYPE_BF16 : PTX_TYPE_F16))) ||
	             (pair && (dt == st || dt == PTX_TYPE_U32 || dt == PTX_TYPE_S32));
	if (pair && dt == PTX_TYPE_F32)
		dt_ok = false;
	if (!dt_ok || !irb_cmp_of(in, sfloat, is_sint(st), &c) ||
	    (sfloat && st != PTX_TYPE_F32 && st != PTX_TYPE_F64 && !half) ||
	    (has(x, PTX_DW_FTZ) && st != PTX_TYPE_F32 && !(half && !bf))) {
		irb_unsupported(x->b, in,
		                "set needs a .u32/.s32/.f32 destination (also .u16/.s16/.f16/.bf16 "
		                "for 16-bit float sources, the source type for the x2 forms), a "
		                "comparison for the source type, and .ftz only on f32/f16");
		return true;
	}
	bool boolop = has(x, PTX_DW_AND) || has(x, PTX_DW_OR) || has(x, PTX_DW_XOR);
	if (boolop != (in->nopnds > 3)) {
		irb_unsupported(x->b, in, "set takes a predicate c exactly with .and/.or/.xor");
		return true;
	}
	ir_ref q = in->nopnds > 3 ? src(x, 3, IR_T_PRED, false) : IR_NO_REF;
	enum ir_op bop = has(x, PTX_DW_AND) ? IR_AND : has(x, PTX_DW_OR) ? IR_OR : IR_XOR;
	ir_ref p[2];
	unsigned n = pair ? 2 : 1;
	if (half) {
		ir_ref a = src(x, 1, pair ? IR_T_I32 : IR_T_I16, false);
		ir_ref b = src(x, 2, pair ? IR_T_I32 : IR_T_I16, false);
		if (!pair) {
			a = op1(x, IR_ZEXT, IR_T_I32, a, 0);
			b = op1(x, IR_ZEXT, IR_T_I32, b, 0);
		}
		for (unsigned i = 0; i < n; i++)
			p[i] = set_cmp16(x, field(x, a, 16 * i, 16, false),
			                 field(x, b, 16 * i, 16, false), bf, c);
	} else if (sfloat) {
		enum ir_type ft = st == PTX_TYPE_F64 ? IR_T_F64 : IR_T_F32;
		ir_ref a = src(x, 1, ft, false), b = src(x, 2, ft, false);
		if (has(x, PTX_DW_FTZ)) {
			a = irb_flush_subnormal(x->b, a, false);
			b = irb_flush_subnormal(x->b, b, false);
		}
		p[0] = op2(x, IR_FCMP, IR_T_PRED, a, b, c);
	} else {
		unsigned bits = ptx_types[st].bits;
		enum ir_type it = bits == 64 ? IR_T_I64 : IR_T_I32;
		ir_ref a = src(x, 1, it, is_sint(st)), b = src(x, 2, it, is_sint(st));
		if (bits < 32) { /* compare the operand's own bits */
			a = field(x, a, 0, bits, is_sint(st));
			b = field(x, b, 0, bits, is_sint(st));
		}
		p[0] = icmp(x, c, a, b);
	}
	ir_ref r = IR_NO_REF;
	for (unsigned i = 0; i < n; i++) {
		if (q != IR_NO_REF)
			p[i] = op2(x, bop, IR_T_PRED, p[i], q, 0);
		ir_ref v = set_value(x, p[i], dt, pair || dt == PTX_TYPE_U16 || dt == PTX_TYPE_S16);
		r = i ? pack16(x, r, v) : v;
	}
	if (dt == PTX_TYPE_F32)
		r = op1(x, IR_BITCAST, IR_T_F32, r, 0);
	else if (ptx_types[dt].bits == 16)
		r = op1(x, IR_TRUNC, IR_T_I16, r, 0);
	dst(x, r, false);
	return true;
}

/* ---- entry ---- */

bool irb_intsat(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct sx x = {.b = b, .in = in, .guard = guard};
	enum ptx_type t = type_at(&x, 0);
	if (irb_video(b, in, guard)) /* build_video.c */
		return true;
	switch (in->op) {
	case PTX_OP_ADD:
	case PTX_OP_SUB:
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		if (t == PTX_TYPE_S16X2 || t == PTX_TYPE_U16X2)
			return tr_x2(&x);
		if ((in->op == PTX_OP_MIN || in->op == PTX_OP_MAX) && has(&x, PTX_DW_XORSIGN))
			return tr_xorsign(&x);
		if ((in->op == PTX_OP_MIN || in->op == PTX_OP_MAX) && has(&x, PTX_DW_RELU) &&
		    t == PTX_TYPE_S32)
			return tr_relu_s32(&x);
		if ((in->op == PTX_OP_ADD || in->op == PTX_OP_SUB) && has(&x, PTX_DW_SAT) &&
		    is_int(t)) {
			if (t != PTX_TYPE_S32 || has(&x, PTX_DW_CC) || in->nopnds != 3) {
				irb_unsupported(b, in,
				                "integer .sat other than add/sub.sat.s32 (no .cc)");
				return true;
			}
			return tr_addsub_sat(&x, in->op == PTX_OP_SUB);
		}
		return false;
	case PTX_OP_CVT:
		if (has(&x, PTX_DW_PACK))
			return tr_cvt_pack(&x);
		if (has(&x, PTX_DW_SAT) && in->ntypes == 2 && is_int(t) && is_int(type_at(&x, 1)) &&
		    ptx_types[t].bits >= 8 && ptx_types[type_at(&x, 1)].bits >= 8)
			return tr_cvt_sat_int(&x);
		return false;
	case PTX_OP_SET:
		return tr_set(&x);
	default:
		return false;
	}
}
