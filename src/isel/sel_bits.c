/* Instruction selection for bit permutations and narrow values: funnel shifts (FSHR), PTX's
 * byte permute (PRMT), 64-bit clz/brev, 16-bit integer width changes, f16 conversions and
 * f16 add/sub/mul/fma (v_*_f16, result masked to the low half), bitwise select (v_bfi_b32).
 *
 * 16-bit integers live in a 32-bit register with the upper half zero (every producer of an
 * i16 value masks it), so zero extension is a copy and truncation an AND.  PRMT maps onto
 * v_perm_b32, whose selector bytes pick bytes of {b, a} like PTX's nibbles; PTX's sign
 * replication of even bytes has no v_perm code, so the selected bytes' sign bits are spread
 * with a multiply and merged with v_bfi_b32.  There are no scalar forms of v_perm, alignbit
 * or the f16 conversions: a uniform result is computed by the vector unit and read back
 * with v_readfirstlane_b32.  Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

static struct mir_opnd v1(uint32_t r)
{
	return mir_vreg(r, 1);
}

static struct mir_opnd vs(struct isel *s, ir_ref r, unsigned k)
{
	return sel_vsrc_opnd(s, r, k);
}

static struct mir_opnd ss(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sreg_opnd(s, r, k);
}

static bool uniform(struct isel *s, ir_ref r)
{
	sel_def(s, r);
	return s->vals[r].loc == LOC_SGPR;
}

static struct mir_opnd rd(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sub(sel_def(s, r), k, 1);
}

/* A VALU instruction into a new VGPR. */
static struct mir_opnd valu(struct isel *s, unsigned op, struct mir_opnd a, struct mir_opnd b,
                            struct mir_opnd c)
{
	unsigned n = amd_isa_rows[op].nopnds;
	struct mir_opnd d = v1(sel_new_vgpr(s, 1));
	struct mir_opnd ops[4] = {d, a, b, c};
	sel_fix_valu(s, op, n, ops);
	sel_emit(s, op, n, ops);
	return d;
}

static void salu(struct isel *s, unsigned op, struct mir_opnd d, struct mir_opnd a,
                 struct mir_opnd b)
{
	struct mir_opnd ops[3] = {d, a, b};
	sel_emit(s, op, 3, ops);
}

/* Moves a VGPR result into the home of value r (v_readfirstlane for a uniform one). */
static void put(struct isel *s, ir_ref r, unsigned k, struct mir_opnd v)
{
	struct mir_opnd d = rd(s, r, k);
	if (s->vals[r].loc == LOC_SGPR) {
		struct mir_opnd ops[2] = {d, v};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
	} else {
		sel_copy(s, d, v);
	}
}

/* ---- funnel shift: low word of (hi:lo) >> (n & 31) ---- */

static bool fshr(struct isel *s, const struct ir_insn *in)
{
	ir_ref hi = in->args[0], lo = in->args[1], n = in->args[2];
	if (!uniform(s, in->res)) {
		struct mir_opnd ops[4] = {rd(s, in->res, 0), vs(s, hi, 0), vs(s, lo, 0),
		                          vs(s, n, 0)};
		sel_fix_valu(s, AMD_OP_V_ALIGNBIT_B32, 4, ops);
		sel_emit(s, AMD_OP_V_ALIGNBIT_B32, 4, ops);
		return true;
	}
	uint32_t pair = sel_new_sgpr(s, 2), t = sel_new_sgpr(s, 2);
	sel_copy(s, sel_sub(pair, 0, 1), ss(s, lo, 0));
	sel_copy(s, sel_sub(pair, 1, 1), ss(s, hi, 0));
	uint64_t c;
	struct mir_opnd amt;
	if (sel_is_const(s, n, &c)) {
		amt = mir_imm((uint32_t)c & 31);
	} else {
		amt = mir_vreg(sel_new_sgpr(s, 1), 1);
		salu(s, AMD_OP_S_AND_B32, amt, ss(s, n, 0), mir_imm(31));
	}
	salu(s, AMD_OP_S_LSHR_B64, mir_vreg(t, 2), mir_vreg(pair, 2), amt);
	sel_copy(s, rd(s, in->res, 0), sel_sub(t, 0, 1));
	return true;
}

/* ---- prmt (default mode): nibble i of c picks byte c_i & 7 of {b, a}, replicating its
 * sign if c_i & 8 ---- */

/* r with the bytes flagged in `flags` (0x00/0xff per byte) replaced by their sign. */
static struct mir_opnd sign_fix(struct isel *s, struct mir_opnd r, struct mir_opnd flags)
{
	struct mir_opnd top =
	        valu(s, AMD_OP_V_AND_B32, r, mir_imm(0x80808080u), (struct mir_opnd){0});
	struct mir_opnd ones = valu(s, AMD_OP_V_LSHRREV_B32, mir_imm(7), top, (struct mir_opnd){0});
	struct mir_opnd spread =
	        valu(s, AMD_OP_V_MUL_LO_U32, ones, mir_imm(0xff), (struct mir_opnd){0});
	return valu(s, AMD_OP_V_BFI_B32, flags, spread, r);
}

static bool prmt(struct isel *s, const struct ir_insn *in)
{
	ir_ref a = in->args[0], b = in->args[1], c = in->args[2];
	uint64_t cv;
	struct mir_opnd none = {0}, r;
	if (sel_is_const(s, c, &cv)) {
		uint32_t perm = 0, flags = 0;
		for (unsigned i = 0; i < 4; i++) {
			unsigned nib = (unsigned)(cv >> (4 * i)) & 15, byte = nib & 7;
			if ((nib & 8) && (byte & 1)) /* v_perm 8..11: sign of byte 1, 3, 5, 7 */
				byte = 8 + (byte >> 1);
			else if (nib & 8)
				flags |= 0xffu << (8 * i);
			perm |= byte << (8 * i);
		}
		r = valu(s, AMD_OP_V_PERM_B32, vs(s, b, 0), vs(s, a, 0), mir_imm(perm));
		if (flags)
			r = sign_fix(s, r, mir_imm(flags));
	} else {
		/* spread the nibbles n3n2n1n0 into bytes: lo = (0 n2 0 n0), hi = (0 n3 0 n1) */
		struct mir_opnd cs = vs(s, c, 0);
		struct mir_opnd lo = valu(s, AMD_OP_V_AND_B32, cs, mir_imm(0x0f0f), none);
		struct mir_opnd sh = valu(s, AMD_OP_V_LSHRREV_B32, mir_imm(4), cs, none);
		struct mir_opnd hi = valu(s, AMD_OP_V_AND_B32, sh, mir_imm(0x0f0f), none);
		struct mir_opnd nib = valu(s, AMD_OP_V_PERM_B32, hi, lo, mir_imm(0x05010400u));
		struct mir_opnd perm = valu(s, AMD_OP_V_AND_B32, nib, mir_imm(0x07070707u), none);
		struct mir_opnd f3 = valu(s, AMD_OP_V_LSHRREV_B32, mir_imm(3), nib, none);
		struct mir_opnd f1 = valu(s, AMD_OP_V_AND_B32, f3, mir_imm(0x01010101u), none);
		struct mir_opnd flags = valu(s, AMD_OP_V_MUL_LO_U32, f1, mir_imm(0xff), none);
		r = valu(s, AMD_OP_V_PERM_B32, vs(s, b, 0), vs(s, a, 0), perm);
		r = sign_fix(s, r, flags);
	}
	put(s, in->res, 0, r);
	return true;
}

/* ---- 64-bit clz and brev ---- */

static bool clz64(struct isel *s, const struct ir_insn *in)
{
	ir_ref a = in->args[0];
	struct mir_opnd none = {0};
	if (uniform(s, in->res)) { /* s_flbit_i32_b64 answers -1 for 0 */
		struct mir_opnd t = mir_vreg(sel_new_sgpr(s, 1), 1);
		struct mir_opnd ops[2] = {t, ss(s, a, 2)};
		sel_emit(s, AMD_OP_S_FLBIT_I32_B64, 2, ops);
		salu(s, AMD_OP_S_MIN_U32, rd(s, in->res, 0), t, mir_imm(64));
		return true;
	}
	/* min(ffbh(hi), min(ffbh(lo), 32) + 32): ffbh gives ~0 for a zero word */
	struct mir_opnd h = valu(s, AMD_OP_V_FFBH_U32, vs(s, a, 1), none, none);
	struct mir_opnd l = valu(s, AMD_OP_V_FFBH_U32, vs(s, a, 0), none, none);
	l = valu(s, AMD_OP_V_MIN_U32, l, mir_imm(32), none);
	l = valu(s, AMD_OP_V_ADD_U32, l, mir_imm(32), none);
	struct mir_opnd ops[3] = {rd(s, in->res, 0), h, l};
	sel_fix_valu(s, AMD_OP_V_MIN_U32, 3, ops);
	sel_emit(s, AMD_OP_V_MIN_U32, 3, ops);
	return true;
}

static bool brev64(struct isel *s, const struct ir_insn *in)
{
	bool uni = uniform(s, in->res);
	for (unsigned w = 0; w < 2; w++) {
		struct mir_opnd ops[2] = {rd(s, in->res, w), uni ? ss(s, in->args[0], 1 - w)
		                                                 : vs(s, in->args[0], 1 - w)};
		if (uni) {
			sel_emit(s, AMD_OP_S_BREV_B32, 2, ops);
		} else {
			sel_fix_valu(s, AMD_OP_V_BFREV_B32, 2, ops);
			sel_emit(s, AMD_OP_V_BFREV_B32, 2, ops);
		}
	}
	return true;
}

/* ---- 16-bit integers ---- */

/* Whether VGPR value a is a zero-extending load of at most 16 bits from global, shared,
 * constant or generic memory (global/flat_load_ubyte/ushort, ds_read_u8/u16 clear the upper
 * bits): its truncation to i16 is a copy (hgemm_mma's f16 tile loads, 12 v_and per k-step). */
static bool zero_extending_load(struct isel *s, ir_ref a)
{
	const struct ir_insn *d = s->def[a];
	if (!d || d->op != IR_LOAD || (d->aux & IR_MEM_SIGNED) || ir_mem_bytes(d->aux) > 2 ||
	    s->vals[a].loc != LOC_VGPR)
		return false;
	unsigned space = d->aux & IR_SPACE_MASK;
	return space == IR_SPACE_GLOBAL || space == IR_SPACE_SHARED || space == IR_SPACE_CONST ||
	       space == IR_SPACE_GENERIC;
}

static bool widths16(struct isel *s, const struct ir_insn *in)
{
	ir_ref a = in->args[0];
	enum ir_type st = (enum ir_type)s->ir->vals[a].type;
	bool uni = uniform(s, in->res);
	unsigned dw = s->vals[in->res].size;
	struct mir_opnd src = uni ? ss(s, a, 0) : vs(s, a, 0);
	switch (in->op) {
	case IR_TRUNC: /* to i16: keep the low half */
		if (uni)
			salu(s, AMD_OP_S_AND_B32, rd(s, in->res, 0), src, mir_imm(0xffff));
		else if (zero_extending_load(s, a))
			sel_copy(s, rd(s, in->res, 0), src);
		else
			sel_copy(s, rd(s, in->res, 0),
			         valu(s, AMD_OP_V_AND_B32, src, mir_imm(0xffff),
			              (struct mir_opnd){0}));
		return true;
	case IR_SEXT:
		if (uni) {
			struct mir_opnd ops[2] = {rd(s, in->res, 0), src};
			sel_emit(s, AMD_OP_S_SEXT_I32_I16, 2, ops);
			if (dw == 2)
				salu(s, AMD_OP_S_ASHR_I32, rd(s, in->res, 1), rd(s, in->res, 0),
				     mir_imm(31));
		} else {
			struct mir_opnd ops[4] = {rd(s, in->res, 0), src, mir_imm(0), mir_imm(16)};
			sel_fix_valu(s, AMD_OP_V_BFE_I32, 4, ops);
			sel_emit(s, AMD_OP_V_BFE_I32, 4, ops);
			if (dw == 2)
				sel_copy(s, rd(s, in->res, 1),
				         valu(s, AMD_OP_V_ASHRREV_I32, mir_imm(31),
				              rd(s, in->res, 0), (struct mir_opnd){0}));
		}
		return true;
	default: /* ZEXT, COPY, BITCAST: the upper half is already zero */
		sel_copy(s, rd(s, in->res, 0), src);
		if (dw == 2)
			sel_copy(s, rd(s, in->res, 1), mir_imm(0));
		(void)st;
		return true;
	}
}

/* ---- f16 conversions (f16 values are i16 bit patterns) ---- */

/* The value whose low 16 bits v_cvt_f32_f16 may read for the f16 operand a: the source of
 * a TRUNC to 16 bits (the instruction ignores the upper half, so the truncation's mask is
 * not needed and dies: mir_remove_dead_code), else a itself.  Not a constant source: an
 * inline constant of a 16-bit float operand means the f16 value, not the bits. */
static ir_ref half_source(struct isel *s, ir_ref a)
{
	const struct ir_insn *d = s->def[a];
	uint64_t bits;
	if (!d || d->op != IR_TRUNC || sel_is_const(s, d->args[0], &bits))
		return a;
	enum ir_type st = (enum ir_type)s->ir->vals[d->args[0]].type;
	return st == IR_T_I32 || st == IR_T_I64 ? d->args[0] : a;
}

static bool half_cvt(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd none = {0};
	if (in->op == IR_H2F) {
		struct mir_opnd ops[2] = {rd(s, in->res, 0), vs(s, half_source(s, in->args[0]), 0)};
		sel_fix_valu(s, AMD_OP_V_CVT_F32_F16, 2, ops);
		sel_emit(s, AMD_OP_V_CVT_F32_F16, 2, ops);
		return true;
	}
	/* gfx10+ keep the destination's upper half: mask it */
	struct mir_opnd h = valu(s, AMD_OP_V_CVT_F16_F32, vs(s, in->args[0], 0), none, none);
	uniform(s, in->res);
	put(s, in->res, 0, valu(s, AMD_OP_V_AND_B32, h, mir_imm(0xffff), none));
	return true;
}

static bool half_arith(struct isel *s, const struct ir_insn *in)
{
	static const unsigned rows[] = {AMD_OP_V_ADD_F16, AMD_OP_V_SUB_F16, AMD_OP_V_MUL_F16,
	                                AMD_OP_V_FMA_F16};
	unsigned k = (unsigned)(in->op - IR_HADD);
	struct mir_opnd c = in->op == IR_HFMA ? vs(s, in->args[2], 0) : (struct mir_opnd){0};
	struct mir_opnd h = valu(s, rows[k], vs(s, in->args[0], 0), vs(s, in->args[1], 0), c);
	uniform(s, in->res);
	put(s, in->res, 0, valu(s, AMD_OP_V_AND_B32, h, mir_imm(0xffff), (struct mir_opnd){0}));
	return true;
}

/* ---- bitwise select (m & a) | (~m & b): v_bfi_b32, or three scalar operations ---- */

static bool bitsel(struct isel *s, const struct ir_insn *in)
{
	ir_ref m = in->args[0], a = in->args[1], b = in->args[2];
	if (!uniform(s, in->res)) {
		struct mir_opnd ops[4] = {rd(s, in->res, 0), vs(s, m, 0), vs(s, a, 0), vs(s, b, 0)};
		sel_fix_valu(s, AMD_OP_V_BFI_B32, 4, ops);
		sel_emit(s, AMD_OP_V_BFI_B32, 4, ops);
		return true;
	}
	struct mir_opnd t = mir_vreg(sel_new_sgpr(s, 1), 1), u = mir_vreg(sel_new_sgpr(s, 1), 1);
	salu(s, AMD_OP_S_AND_B32, t, ss(s, m, 0), ss(s, a, 0));
	salu(s, AMD_OP_S_ANDN2_B32, u, ss(s, b, 0), ss(s, m, 0));
	salu(s, AMD_OP_S_OR_B32, rd(s, in->res, 0), t, u);
	return true;
}

bool sel_bits(struct isel *s, const struct ir_insn *in)
{
	enum ir_type st = in->nargs ? (enum ir_type)s->ir->vals[in->args[0]].type : IR_T_NONE;
	switch (in->op) {
	case IR_FSHR:
		return fshr(s, in);
	case IR_BITSEL:
		return bitsel(s, in);
	case IR_PRMT:
		return prmt(s, in);
	case IR_CLZ:
		return st == IR_T_I64 && clz64(s, in);
	case IR_BREV:
		return in->type == IR_T_I64 && brev64(s, in);
	case IR_TRUNC:
	case IR_ZEXT:
	case IR_SEXT:
	case IR_COPY:
	case IR_BITCAST:
		return (st == IR_T_I16 || in->type == IR_T_I16) && widths16(s, in);
	case IR_F2H:
	case IR_H2F:
		return half_cvt(s, in);
	case IR_HADD:
	case IR_HSUB:
	case IR_HMUL:
	case IR_HFMA:
		return half_arith(s, in);
	default:
		return false;
	}
}
