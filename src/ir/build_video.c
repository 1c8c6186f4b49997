/* ir_build, part 10: the video instructions, expanded as the PTX ISA's pseudo-code defines
 * them (docs/SEMANTICS.md "Integer saturation, set and video instructions").
 *
 * Scalar forms (vadd vsub vabsdiff vmin vmax vshl vshr vmad vset): each source is its selected
 * byte (.b0-.b3) or half (.h0/.h1), or the whole word, sign- or zero-extended as its type
 * says; the operation is exact in 64 bits (the intermediate result of the ISA is at least 33
 * bits wide), .sat clamps it to the destination type's 32-bit range, and the secondary
 * operation .add/.min/.max combines it with c (extended as the destination type) before the
 * low 32 bits are written.  vshl/vshr shift by b, clamped to 32 (.clamp) or modulo 32
 * (.wrap).  vmad is a * b + c in 64 bits; vset's result is 1 or 0.  Where an NVIDIA H100
 * differs from that reading (tests/exec/intsat_nv.py, docs/SEMANTICS.md), the hardware is
 * followed: vadd.u32.u32.u32.sat wraps; after vadd/vsub, .min/.max compare the low 32 bits
 * of the result sign-extended with c (unsigned with a .u32 destination); vshl saturates from
 * a 34-bit intermediate; vmad reads whole-word operands and c as signed.
 * SIMD forms (vadd2 ... vset4): halves or bytes of a and b in place (the default selectors;
 * the parser accepts no others and no masks), each result clamped with .sat to the element
 * range of the destination type; without a secondary operation the results are the
 * destination's elements, with .add d is c plus their sum.  vavrg rounds (a + b) / 2 half
 * up for non-negative and down for negative sums.
 * Operand forms the ISA does not define (types other than .u32/.s32, a fourth operand
 * without a secondary operation, .sat with the SIMD accumulate, a shift without its mode)
 * are errors naming the instruction.  O(1) per instruction. */
#include <stdint.h>
#include <stdio.h>

#include "ir/build_int.h"

struct vx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct vx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct vx *x, enum ir_op op, enum ir_type t, ir_ref a)
{
	return irb_emit(x->b, op, t, &a, 1, 0, 0);
}

static ir_ref op2(struct vx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, aux, 0);
}

static ir_ref sel(struct vx *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref c)
{
	ir_ref args[3] = {p, a, c};
	return irb_emit(x->b, IR_SELECT, t, args, 3, 0, 0);
}

static ir_ref k(struct vx *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref icmp(struct vx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	return op2(x, IR_ICMP, IR_T_PRED, a, b, c);
}

/* 64-bit min/max as a comparison and a select (no 64-bit min/max instructions) */
static ir_ref pick64(struct vx *x, bool is_min, enum ir_cmp lt, ir_ref a, ir_ref b)
{
	ir_ref a_lt = icmp(x, lt, a, b);
	return is_min ? sel(x, IR_T_I64, a_lt, a, b) : sel(x, IR_T_I64, a_lt, b, a);
}

static ir_ref field(struct vx *x, ir_ref v, unsigned pos, unsigned len, bool sign)
{
	ir_ref args[3] = {v, k(x, IR_T_I32, pos), k(x, IR_T_I32, len)};
	return irb_emit(x->b, sign ? IR_BFE_S : IR_BFE_U, IR_T_I32, args, 3, 0, 0);
}

static bool is_s32(enum ptx_type t)
{
	return t == PTX_TYPE_S32;
}

static bool types_ok(const struct vx *x)
{
	for (unsigned i = 0; i < x->in->ntypes; i++)
		if (x->in->types[i] != PTX_TYPE_U32 && x->in->types[i] != PTX_TYPE_S32)
			return false;
	return true;
}

/* the secondary operation word: PTX_DW_ADD/MIN/MAX, or 0 */
static enum ptx_dotword op2_word(const struct vx *x)
{
	return has(x, PTX_DW_ADD)   ? PTX_DW_ADD
	       : has(x, PTX_DW_MIN) ? PTX_DW_MIN
	       : has(x, PTX_DW_MAX) ? PTX_DW_MAX
	                            : (enum ptx_dotword)0;
}

#define MODS_OK(x, cmp, ...) IRB_MODS_ONLY((x)->b, (x)->in, cmp, __VA_ARGS__) /* build_intsat.c */

/* source i with its selector, extended to 64 bits as `sign` says */
static ir_ref part(struct vx *x, unsigned i, bool sign)
{
	const struct ptx_operand *o = &x->in->opnds[i];
	ir_ref v = irb_read_opnd(x->b, o, IR_T_I32, sign);
	if (o->video_sel >= 1 && o->video_sel <= 4)
		v = field(x, v, 8 * (o->video_sel - 1u), 8, sign);
	else if (o->video_sel == 5 || o->video_sel == 6)
		v = field(x, v, 16 * (o->video_sel - 5u), 16, sign);
	return op1(x, sign ? IR_SEXT : IR_ZEXT, IR_T_I64, v);
}

/* the 64-bit intermediate v clamped to the 32-bit range of a signed or unsigned type */
static ir_ref sat32(struct vx *x, ir_ref v, bool sign)
{
	ir_ref h = k(x, IR_T_I64, sign ? 0x7fffffffu : 0xffffffffu);
	ir_ref l = k(x, IR_T_I64, sign ? (uint64_t)(int64_t)INT32_MIN : 0);
	v = sel(x, IR_T_I64, icmp(x, IR_CMP_LT, v, l), l, v);
	return sel(x, IR_T_I64, icmp(x, IR_CMP_GT, v, h), h, v);
}

/* How .min/.max compare the intermediate with c, as the H100 does: */
enum vcmp {
	VCMP_EXACT,    /* the exact value (signed 64-bit) */
	VCMP_EXACT_U,  /* the exact value, non-negative and up to 2^64 (vshl of an unsigned a) */
	VCMP_LOW_SEXT, /* vadd/vsub: the low 32 bits sign-extended, compared signed with a .s32
	                * destination, unsigned (64-bit) with a .u32 one */
};

/* d = op2(tmp, c) or tmp, low 32 bits; c extended as the destination's sign says */
static void finish_scalar(struct vx *x, ir_ref tmp, bool dsign, enum vcmp how)
{
	enum ptx_dotword w = op2_word(x);
	if (w) {
		ir_ref c = part(x, 3, dsign);
		if (w == PTX_DW_ADD) {
			tmp = op2(x, IR_ADD, IR_T_I64, tmp, c, 0);
		} else {
			ir_ref lt;
			if (how == VCMP_LOW_SEXT) {
				ir_ref key =
				        op1(x, IR_SEXT, IR_T_I64, op1(x, IR_TRUNC, IR_T_I32, tmp));
				lt = icmp(x, dsign ? IR_CMP_LT : IR_CMP_LTU, key, c);
			} else if (how ==
			           VCMP_EXACT_U) { /* tmp < c: c not negative, below unsigned */
				lt = op2(x, IR_AND, IR_T_PRED,
				         icmp(x, IR_CMP_GE, c, k(x, IR_T_I64, 0)),
				         icmp(x, IR_CMP_LTU, tmp, c), 0);
			} else {
				lt = icmp(x, IR_CMP_LT, tmp, c);
			}
			tmp = w == PTX_DW_MIN ? sel(x, IR_T_I64, lt, tmp, c)
			                      : sel(x, IR_T_I64, lt, c, tmp);
		}
	}
	irb_write_dest(x->b, &x->in->opnds[0], op1(x, IR_TRUNC, IR_T_I32, tmp), false, x->guard);
}

static void unsupported(struct vx *x, const char *why)
{
	irb_unsupported(x->b, x->in, why);
}

/* vadd vsub vabsdiff vmin vmax vshl vshr */
static void tr_scalar(struct vx *x)
{
	if (!MODS_OK(x, false, PTX_DW_SAT, PTX_DW_ADD, PTX_DW_MIN, PTX_DW_MAX, PTX_DW_CLAMP,
	             PTX_DW_WRAP))
		return;
	const struct ptx_insn *in = x->in;
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	bool shift = op == PTX_OP_VSHL || op == PTX_OP_VSHR;
	bool clampm = has(x, PTX_DW_CLAMP), wrapm = has(x, PTX_DW_WRAP);
	if (!types_ok(x) || (in->nopnds == 4) != (op2_word(x) != 0) ||
	    (shift && (clampm == wrapm || in->types[2] != PTX_TYPE_U32)) ||
	    (!shift && (clampm || wrapm))) {
		unsupported(x, shift ? "vshl/vshr need .u32/.s32 types with a .u32 b, .clamp or "
		                       ".wrap, and c exactly with .add/.min/.max"
		                     : "video instructions need .u32/.s32 types and c exactly with "
		                       ".add/.min/.max (the merge form d.sel is not supported)");
		return;
	}
	bool dsign = is_s32((enum ptx_type)in->types[0]),
	     asign = is_s32((enum ptx_type)in->types[1]);
	bool bsign = is_s32((enum ptx_type)in->types[2]);
	ir_ref ta = part(x, 1, asign), tb = part(x, 2, bsign), tmp;
	enum vcmp how = VCMP_EXACT;
	switch (op) {
	case PTX_OP_VADD:
		tmp = op2(x, IR_ADD, IR_T_I64, ta, tb, 0);
		how = VCMP_LOW_SEXT;
		break;
	case PTX_OP_VSUB:
		tmp = op2(x, IR_SUB, IR_T_I64, ta, tb, 0);
		how = VCMP_LOW_SEXT;
		break;
	case PTX_OP_VABSDIFF:
		tmp = op2(x, IR_SUB, IR_T_I64, pick64(x, false, IR_CMP_LT, ta, tb),
		          pick64(x, true, IR_CMP_LT, ta, tb), 0);
		break;
	case PTX_OP_VMIN:
		tmp = pick64(x, true, IR_CMP_LT, ta, tb);
		break;
	case PTX_OP_VMAX:
		tmp = pick64(x, false, IR_CMP_LT, ta, tb);
		break;
	default: /* vshl, vshr: b is unsigned */
		tb = clampm ? pick64(x, true, IR_CMP_LTU, tb, k(x, IR_T_I64, 32))
		            : op2(x, IR_AND, IR_T_I64, tb, k(x, IR_T_I64, 31), 0);
		if (op == PTX_OP_VSHL) {
			tmp = op2(x, IR_SHL, IR_T_I64, ta, tb, 0);
			how = asign ? VCMP_EXACT : VCMP_EXACT_U;
		} else {
			tmp = op2(x, asign ? IR_SHR_S : IR_SHR_U, IR_T_I64, ta, tb, 0);
		}
		break;
	}
	/* vadd.u32.u32.u32.sat wraps on the H100: the 32-bit sum, not saturated */
	bool all_u32 = !dsign && !asign && !bsign;
	if (has(x, PTX_DW_SAT) && !(op == PTX_OP_VADD && all_u32)) {
		/* vshl saturates from a 34-bit intermediate on the H100: 2 << 32 (-2^33 there)
		 * gives the minimum, 1 << 32 the maximum */
		if (op == PTX_OP_VSHL)
			tmp = op2(x, IR_SHR_S, IR_T_I64,
			          op2(x, IR_SHL, IR_T_I64, tmp, k(x, IR_T_I64, 30), 0),
			          k(x, IR_T_I64, 30), 0);
		tmp = sat32(x, tmp, dsign);
	}
	finish_scalar(x, tmp, dsign, how);
}

/* vset.atype.btype.cmp: 1 or 0, then the secondary operation (unsigned) */
static void tr_vset(struct vx *x)
{
	if (!MODS_OK(x, true, PTX_DW_ADD, PTX_DW_MIN, PTX_DW_MAX))
		return;
	const struct ptx_insn *in = x->in;
	enum ir_cmp c;
	if (!types_ok(x) || (in->nopnds == 4) != (op2_word(x) != 0) || has(x, PTX_DW_SAT) ||
	    !irb_cmp_of(in, false, true, &c) || c > IR_CMP_GE || has(x, PTX_DW_CLAMP) ||
	    has(x, PTX_DW_WRAP)) {
		unsupported(x, "vset needs .u32/.s32 types, one of .eq .ne .lt .le .gt .ge, and c "
		               "exactly with .add/.min/.max");
		return;
	}
	ir_ref ta = part(x, 1, is_s32((enum ptx_type)in->types[0]));
	ir_ref tb = part(x, 2, is_s32((enum ptx_type)in->types[1]));
	ir_ref tmp = sel(x, IR_T_I64, icmp(x, c, ta, tb), k(x, IR_T_I64, 1), k(x, IR_T_I64, 0));
	finish_scalar(x, tmp, false, VCMP_EXACT);
}

/* vmad.dtype.atype.btype{.sat} d, a, b, c: a * b + c in 64 bits (operand signedness below) */
static void tr_vmad(struct vx *x)
{
	const struct ptx_insn *in = x->in;
	if (!types_ok(x) || in->nopnds != 4 || op2_word(x) || has(x, PTX_DW_CLAMP) ||
	    has(x, PTX_DW_WRAP)) {
		unsupported(x, "vmad needs .u32/.s32 types and no secondary operation");
		return;
	}
	for (unsigned i = 1; i < 4; i++)
		if (in->opnds[i].negated) {
			unsupported(x, "negated vmad operands");
			return;
		}
	if (!MODS_OK(x, false, PTX_DW_SAT))
		return;
	bool asign = is_s32((enum ptx_type)in->types[1]),
	     bsign = is_s32((enum ptx_type)in->types[2]);
	/* .sat clamps to the signed range when a or b is signed (the ISA's signedFinal), else
	 * to the unsigned one; on the H100 a whole-word operand (no selector) and c are read
	 * as signed whatever their type, a selected byte or half as its type says */
	bool sign = asign || bsign;
	asign |= !in->opnds[1].video_sel;
	bsign |= !in->opnds[2].video_sel;
	ir_ref p = op2(x, IR_MUL, IR_T_I64, part(x, 1, asign), part(x, 2, bsign), 0);
	ir_ref tmp = op2(x, IR_ADD, IR_T_I64, p, part(x, 3, true), 0);
	if (has(x, PTX_DW_SAT))
		tmp = sat32(x, tmp, sign);
	irb_write_dest(x->b, &x->in->opnds[0], op1(x, IR_TRUNC, IR_T_I32, tmp), false, x->guard);
}

/* ---- SIMD forms ---- */

struct simd {
	enum ptx_opcode base; /* the scalar opcode of the operation (VADD for vadd2/4, ...) */
	unsigned lanes;
	bool avrg, set;
};

static bool simd_of(enum ptx_opcode op, struct simd *s)
{
	switch (op) { /* (every instruction of a kernel comes here: a jump, not the search) */
	case PTX_OP_VADD2:
	case PTX_OP_VSUB2:
	case PTX_OP_VAVRG2:
	case PTX_OP_VABSDIFF2:
	case PTX_OP_VMIN2:
	case PTX_OP_VMAX2:
	case PTX_OP_VSET2:
	case PTX_OP_VADD4:
	case PTX_OP_VSUB4:
	case PTX_OP_VAVRG4:
	case PTX_OP_VABSDIFF4:
	case PTX_OP_VMIN4:
	case PTX_OP_VMAX4:
	case PTX_OP_VSET4:
		break;
	default:
		return false;
	}
	static const struct {
		enum ptx_opcode op, base;
		unsigned lanes;
	} map[] = {
	        {PTX_OP_VADD2, PTX_OP_VADD, 2},         {PTX_OP_VSUB2, PTX_OP_VSUB, 2},
	        {PTX_OP_VAVRG2, PTX_OP_VADD, 2},        {PTX_OP_VABSDIFF2, PTX_OP_VABSDIFF, 2},
	        {PTX_OP_VMIN2, PTX_OP_VMIN, 2},         {PTX_OP_VMAX2, PTX_OP_VMAX, 2},
	        {PTX_OP_VSET2, PTX_OP_VSET, 2},         {PTX_OP_VADD4, PTX_OP_VADD, 4},
	        {PTX_OP_VSUB4, PTX_OP_VSUB, 4},         {PTX_OP_VAVRG4, PTX_OP_VADD, 4},
	        {PTX_OP_VABSDIFF4, PTX_OP_VABSDIFF, 4}, {PTX_OP_VMIN4, PTX_OP_VMIN, 4},
	        {PTX_OP_VMAX4, PTX_OP_VMAX, 4},         {PTX_OP_VSET4, PTX_OP_VSET, 4},
	};
	for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].op == op) {
			s->base = map[i].base;
			s->lanes = map[i].lanes;
			s->avrg = op == PTX_OP_VAVRG2 || op == PTX_OP_VAVRG4;
			s->set = map[i].base == PTX_OP_VSET;
			return true;
		}
	return false;
}

/* one element's result (i32, exact) */
static ir_ref simd_elem(struct vx *x, const struct simd *s, ir_ref a, ir_ref b, enum ir_cmp c)
{
	switch (s->base) {
	case PTX_OP_VADD:
		if (s->avrg) { /* (a + b + (a + b >= 0)) >> 1 */
			ir_ref sum = op2(x, IR_ADD, IR_T_I32, a, b, 0);
			ir_ref up = sel(x, IR_T_I32, icmp(x, IR_CMP_GE, sum, k(x, IR_T_I32, 0)),
			                k(x, IR_T_I32, 1), k(x, IR_T_I32, 0));
			return op2(x, IR_SHR_S, IR_T_I32, op2(x, IR_ADD, IR_T_I32, sum, up, 0),
			           k(x, IR_T_I32, 1), 0);
		}
		return op2(x, IR_ADD, IR_T_I32, a, b, 0);
	case PTX_OP_VSUB:
		return op2(x, IR_SUB, IR_T_I32, a, b, 0);
	case PTX_OP_VABSDIFF:
		return op2(x, IR_SUB, IR_T_I32, op2(x, IR_MAX_S, IR_T_I32, a, b, 0),
		           op2(x, IR_MIN_S, IR_T_I32, a, b, 0), 0);
	case PTX_OP_VMIN:
		return op2(x, IR_MIN_S, IR_T_I32, a, b, 0);
	case PTX_OP_VMAX:
		return op2(x, IR_MAX_S, IR_T_I32, a, b, 0);
	default:
		return sel(x, IR_T_I32, icmp(x, c, a, b), k(x, IR_T_I32, 1), k(x, IR_T_I32, 0));
	}
}

static void tr_simd(struct vx *x, const struct simd *s)
{
	if (!MODS_OK(x, s->set, PTX_DW_SAT, PTX_DW_ADD))
		return;
	const struct ptx_insn *in = x->in;
	enum ir_cmp c = IR_CMP_EQ;
	bool add = has(x, PTX_DW_ADD), sat = has(x, PTX_DW_SAT);
	if (!types_ok(x) || has(x, PTX_DW_MIN) || has(x, PTX_DW_MAX) || (add && sat) ||
	    (s->set && (sat || !irb_cmp_of(in, false, true, &c) || c > IR_CMP_GE)) ||
	    has(x, PTX_DW_CLAMP) || has(x, PTX_DW_WRAP)) {
		unsupported(x, "SIMD video instructions need .u32/.s32 types, .sat only without "
		               ".add, and (vset2/vset4) one of .eq .ne .lt .le .gt .ge");
		return;
	}
	unsigned t0 = s->set ? 0 : 1, w = 32 / s->lanes;
	bool dsign = !s->set && is_s32((enum ptx_type)in->types[0]);
	bool asign = is_s32((enum ptx_type)in->types[t0]);
	bool bsign = is_s32((enum ptx_type)in->types[t0 + 1]);
	ir_ref a = irb_read_opnd(x->b, &in->opnds[1], IR_T_I32, false);
	ir_ref b = irb_read_opnd(x->b, &in->opnds[2], IR_T_I32, false);
	ir_ref d = add ? irb_read_opnd(x->b, &in->opnds[3], IR_T_I32, false) : k(x, IR_T_I32, 0);
	for (unsigned i = 0; i < s->lanes; i++) {
		ir_ref t = simd_elem(x, s, field(x, a, w * i, w, asign),
		                     field(x, b, w * i, w, bsign), c);
		if (sat) {
			int32_t lo = dsign ? -(1 << (w - 1)) : 0;
			int32_t hi = dsign ? (1 << (w - 1)) - 1 : (1 << w) - 1;
			t = op2(x, IR_MAX_S, IR_T_I32, t, k(x, IR_T_I32, (uint32_t)lo), 0);
			t = op2(x, IR_MIN_S, IR_T_I32, t, k(x, IR_T_I32, (uint32_t)hi), 0);
		}
		if (add) {
			d = op2(x, IR_ADD, IR_T_I32, d, t, 0);
			continue;
		}
		t = op2(x, IR_AND, IR_T_I32, t, k(x, IR_T_I32, (1u << w) - 1), 0);
		if (i)
			t = op2(x, IR_SHL, IR_T_I32, t, k(x, IR_T_I32, w * i), 0);
		d = i ? op2(x, IR_OR, IR_T_I32, d, t, 0) : t;
	}
	irb_write_dest(x->b, &in->opnds[0], d, false, x->guard);
}

bool irb_video(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct vx x = {.b = b, .in = in, .guard = guard};
	struct simd s;
	switch (in->op) {
	case PTX_OP_VADD:
	case PTX_OP_VSUB:
	case PTX_OP_VABSDIFF:
	case PTX_OP_VMIN:
	case PTX_OP_VMAX:
	case PTX_OP_VSHL:
	case PTX_OP_VSHR:
		tr_scalar(&x);
		return true;
	case PTX_OP_VSET:
		tr_vset(&x);
		return true;
	case PTX_OP_VMAD:
		tr_vmad(&x);
		return true;
	default:
		if (!simd_of((enum ptx_opcode)in->op, &s))
			return false;
		tr_simd(&x, &s);
		return true;
	}
}
