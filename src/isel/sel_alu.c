/* Instruction selection for integer and predicate operations, selects, width changes
 * and moves.  A uniform result is computed by the scalar unit (s_* rows, SCC for
 * comparisons), a divergent one by the vector unit (v_* rows, lane masks for
 * comparisons); 64-bit values are pairs of 32-bit halves with explicit carries.  PTX's
 * shift semantics (an amount of at least the width gives 0, or the sign for .s) are
 * exact: the hardware masks the amount, so a compare and select complete it.
 * Complexity: O(1) per instruction. */
#include <stdint.h>

#include "isel/isel_int.h"

bool sel_divrem(struct isel *s, const struct ir_insn *in);

static struct mir_opnd rd(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sub(sel_def(s, r), k, 1);
}

static bool is_uniform_int(struct isel *s, const struct ir_insn *in)
{
	sel_def(s, in->res);
	return s->vals[in->res].loc == LOC_SGPR;
}

/* SALU with two sources: at most one literal. */
static void salu2(struct isel *s, unsigned op, struct mir_opnd d, struct mir_opnd a,
                  struct mir_opnd b)
{
	if (a.kind == MIR_IMM && b.kind == MIR_IMM && a.v != b.v &&
	    amd_inline_code(AMD_DT_B32, a.v) < 0 && amd_inline_code(AMD_DT_B32, b.v) < 0)
		a = sel_s_imm(s, a.v);
	struct mir_opnd ops[3] = {d, a, b};
	sel_emit(s, op, 3, ops);
}

static void valu(struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops)
{
	sel_fix_valu(s, op, n, ops);
	sel_emit(s, op, n, ops);
}

static void valu2(struct isel *s, unsigned op, struct mir_opnd d, struct mir_opnd a,
                  struct mir_opnd b)
{
	struct mir_opnd ops[3] = {d, a, b};
	valu(s, op, 3, ops);
}

/* A VGPR-or-constant source for the vector unit. */
static struct mir_opnd vs(struct isel *s, ir_ref r, unsigned k)
{
	return sel_vsrc_opnd(s, r, k);
}

static struct mir_opnd ss(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sreg_opnd(s, r, k);
}

static unsigned words(const struct isel *s, const struct ir_insn *in)
{
	(void)s;
	return ir_type_bits((enum ir_type)in->type) == 64 ? 2 : 1;
}

/* A divergent 32-bit (x << k) + y with a constant k in 1..31 as one v_lshl_add_u32 (address
 * arithmetic: an index scaled to bytes plus a base), when the shift is a vector value; the
 * shift itself stays only if something else reads it (mir_remove_dead_code).  Only within
 * the shift's block: x's register (a phi's) is rewritten at the end of its block's
 * predecessors, so it holds the shift's x only until then. */
static bool shift_add(struct isel *s, const struct ir_insn *in, ir_ref sh, ir_ref y)
{
	const struct ir_insn *d = s->def[sh];
	uint64_t k;
	if (!d || d->op != IR_SHL || d->type != IR_T_I32 || !s->ir->vals[sh].divergent ||
	    s->ir->vals[sh].block != s->ir->vals[in->res].block ||
	    !sel_is_const(s, d->args[1], &k) || k < 1 || k > 31 ||
	    s->ir->vals[d->args[0]].type != IR_T_I32)
		return false;
	struct mir_opnd ops[4] = {rd(s, in->res, 0), vs(s, d->args[0], 0), mir_imm((uint32_t)k),
	                          vs(s, y, 0)};
	valu(s, AMD_OP_V_LSHL_ADD_U32, 4, ops);
	return true;
}

/* A divergent 32-bit ~x + y as one v_xad_u32 (x ^ -1) + y (nvcc's trip counts, n + ~i), the
 * not left to dead code when nothing else reads it.  Only within the not's block (x is read
 * here, after the not: see shift_add). */
static bool not_add(struct isel *s, const struct ir_insn *in, ir_ref n, ir_ref y)
{
	const struct ir_insn *d = s->def[n];
	if (!d || d->op != IR_NOT || d->type != IR_T_I32 || !s->ir->vals[n].divergent ||
	    s->ir->vals[n].block != s->ir->vals[in->res].block)
		return false;
	struct mir_opnd ops[4] = {rd(s, in->res, 0), vs(s, d->args[0], 0), mir_imm(0xffffffffu),
	                          vs(s, y, 0)};
	valu(s, AMD_OP_V_XAD_U32, 4, ops);
	return true;
}

static bool add_sub(struct isel *s, const struct ir_insn *in, bool is_add)
{
	ir_ref a = in->args[0], b = in->args[1];
	if (is_uniform_int(s, in)) {
		if (words(s, in) == 1) {
			salu2(s, is_add ? AMD_OP_S_ADD_U32 : AMD_OP_S_SUB_U32, rd(s, in->res, 0),
			      ss(s, a, 0), ss(s, b, 0));
			return true;
		}
		salu2(s, is_add ? AMD_OP_S_ADD_U32 : AMD_OP_S_SUB_U32, rd(s, in->res, 0),
		      ss(s, a, 0), ss(s, b, 0));
		salu2(s, is_add ? AMD_OP_S_ADDC_U32 : AMD_OP_S_SUBB_U32, rd(s, in->res, 1),
		      ss(s, a, 1), ss(s, b, 1));
		return true;
	}
	if (words(s, in) == 1) {
		if (is_add && (shift_add(s, in, a, b) || shift_add(s, in, b, a) ||
		               not_add(s, in, a, b) || not_add(s, in, b, a)))
			return true;
		valu2(s, is_add ? AMD_OP_V_ADD_U32 : AMD_OP_V_SUB_U32, rd(s, in->res, 0),
		      vs(s, a, 0), vs(s, b, 0));
		return true;
	}
	uint32_t carry = sel_new_sgpr(s, s->mask_dw), c2 = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd lo[4] = {rd(s, in->res, 0), mir_vreg(carry, s->mask_dw), vs(s, a, 0),
	                         vs(s, b, 0)};
	valu(s, is_add ? AMD_OP_V_ADD_CO_U32 : AMD_OP_V_SUB_CO_U32, 4, lo);
	struct mir_opnd hi[5] = {rd(s, in->res, 1), mir_vreg(c2, s->mask_dw), vs(s, a, 1),
	                         vs(s, b, 1), mir_vreg(carry, s->mask_dw)};
	valu(s, is_add ? AMD_OP_V_ADDC_CO_U32 : AMD_OP_V_SUBB_CO_U32, 5, hi);
	return true;
}

/* The 32-bit value a 64-bit operand was widened from (sext when *sg, zext otherwise), or
 * IR_NO_REF; constants that fit count too (*cst set). */
static ir_ref narrow_source(struct isel *s, ir_ref r, bool sg, uint64_t *cst, bool *is_cst)
{
	uint64_t bits;
	*is_cst = false;
	if (sel_is_const(s, r, &bits)) {
		int64_t v = (int64_t)bits;
		if (sg ? (v >= INT32_MIN && v <= INT32_MAX) : bits <= UINT32_MAX) {
			*cst = bits;
			*is_cst = true;
		}
		return IR_NO_REF;
	}
	const struct ir_insn *d = s->def[r];
	if (d && d->op == (sg ? IR_SEXT : IR_ZEXT) && s->ir->vals[d->args[0]].type == IR_T_I32)
		return d->args[0];
	return IR_NO_REF;
}

/* mul.wide: a 64-bit product of two widened 32-bit values, in one instruction (vector) or a
 * mul/mulhi pair (scalar). */
static bool mul_wide(struct isel *s, const struct ir_insn *in)
{
	for (int sg = 1; sg >= 0; sg--) {
		uint64_t ca = 0, cb = 0;
		bool ka, kb;
		ir_ref a = narrow_source(s, in->args[0], sg, &ca, &ka);
		ir_ref b = narrow_source(s, in->args[1], sg, &cb, &kb);
		if ((a == IR_NO_REF && !ka) || (b == IR_NO_REF && !kb) || (ka && kb))
			continue;
		if (is_uniform_int(s, in)) {
			struct mir_opnd x = ka ? mir_imm((uint32_t)ca) : ss(s, a, 0);
			struct mir_opnd y = kb ? mir_imm((uint32_t)cb) : ss(s, b, 0);
			salu2(s, AMD_OP_S_MUL_I32, rd(s, in->res, 0), x, y);
			salu2(s, sg ? AMD_OP_S_MUL_HI_I32 : AMD_OP_S_MUL_HI_U32, rd(s, in->res, 1),
			      x, y);
			return true;
		}
		struct mir_opnd x = ka ? mir_imm((uint32_t)ca) : vs(s, a, 0);
		struct mir_opnd y = kb ? mir_imm((uint32_t)cb) : vs(s, b, 0);
		uint32_t junk = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd ops[5] = {mir_vreg(sel_def(s, in->res), 2),
		                          mir_vreg(junk, s->mask_dw), x, y, mir_imm(0)};
		valu(s, sg ? AMD_OP_V_MAD_I64_I32 : AMD_OP_V_MAD_U64_U32, 5, ops);
		return true;
	}
	return false;
}

/* A 64-bit product on the vector unit: the full al*bl from one v_mad_u64_u32, and the two
 * cross products added to its high half by one v_add3_u32 (4 instructions, where a
 * mulhi/mullo/mullo/add/mullo/add sequence takes 6 and reads each constant twice). */
static bool mul64_vector(struct isel *s, const struct ir_insn *in)
{
	ir_ref a = in->args[0], b = in->args[1];
	uint32_t res = sel_def(s, in->res), junk = sel_new_sgpr(s, s->mask_dw);
	uint32_t t2 = sel_new_vgpr(s, 1), t3 = sel_new_vgpr(s, 1);
	/* (the sources are read again below, so none can share the product's registers) */
	struct mir_opnd ops[5] = {mir_vreg(res, 2), mir_vreg(junk, s->mask_dw), vs(s, a, 0),
	                          vs(s, b, 0), mir_imm(0)};
	valu(s, AMD_OP_V_MAD_U64_U32, 5, ops);
	valu2(s, AMD_OP_V_MUL_LO_U32, mir_vreg(t2, 1), vs(s, a, 0), vs(s, b, 1));
	valu2(s, AMD_OP_V_MUL_LO_U32, mir_vreg(t3, 1), vs(s, a, 1), vs(s, b, 0));
	struct mir_opnd add[4] = {rd(s, in->res, 1), rd(s, in->res, 1), mir_vreg(t2, 1),
	                          mir_vreg(t3, 1)};
	valu(s, AMD_OP_V_ADD3_U32, 4, add);
	return true;
}

static bool mul(struct isel *s, const struct ir_insn *in)
{
	if (words(s, in) == 2 && mul_wide(s, in))
		return true;
	ir_ref a = in->args[0], b = in->args[1];
	bool uni = is_uniform_int(s, in);
	unsigned mlo = uni ? AMD_OP_S_MUL_I32 : AMD_OP_V_MUL_LO_U32;
	unsigned mhi = uni ? AMD_OP_S_MUL_HI_U32 : AMD_OP_V_MUL_HI_U32;
	unsigned add = uni ? AMD_OP_S_ADD_U32 : AMD_OP_V_ADD_U32;
	struct mir_opnd (*src)(struct isel *, ir_ref, unsigned) = uni ? ss : vs;
	void (*emit2)(struct isel *, unsigned, struct mir_opnd, struct mir_opnd, struct mir_opnd) =
	        uni ? salu2 : valu2;
	if (words(s, in) == 1) {
		emit2(s, mlo, rd(s, in->res, 0), src(s, a, 0), src(s, b, 0));
		return true;
	}
	/* (ah*2^32 + al)(bh*2^32 + bl) mod 2^64 = al*bl + 2^32 (mulhi(al,bl) + al*bh + ah*bl) */
	if (!uni)
		return mul64_vector(s, in);
	uint32_t t1 = uni ? sel_new_sgpr(s, 1) : sel_new_vgpr(s, 1);
	uint32_t t2 = uni ? sel_new_sgpr(s, 1) : sel_new_vgpr(s, 1);
	uint32_t t3 = uni ? sel_new_sgpr(s, 1) : sel_new_vgpr(s, 1);
	uint32_t t4 = uni ? sel_new_sgpr(s, 1) : sel_new_vgpr(s, 1);
	emit2(s, mhi, mir_vreg(t1, 1), src(s, a, 0), src(s, b, 0));
	emit2(s, mlo, mir_vreg(t2, 1), src(s, a, 0), src(s, b, 1));
	emit2(s, mlo, mir_vreg(t3, 1), src(s, a, 1), src(s, b, 0));
	emit2(s, add, mir_vreg(t4, 1), mir_vreg(t1, 1), mir_vreg(t2, 1));
	emit2(s, mlo, rd(s, in->res, 0), src(s, a, 0), src(s, b, 0));
	emit2(s, add, rd(s, in->res, 1), mir_vreg(t4, 1), mir_vreg(t3, 1));
	return true;
}

static bool mulhi(struct isel *s, const struct ir_insn *in)
{
	if (words(s, in) != 1)
		return false;
	bool sg = in->op == IR_MULHI_S;
	if (is_uniform_int(s, in))
		salu2(s, sg ? AMD_OP_S_MUL_HI_I32 : AMD_OP_S_MUL_HI_U32, rd(s, in->res, 0),
		      ss(s, in->args[0], 0), ss(s, in->args[1], 0));
	else
		valu2(s, sg ? AMD_OP_V_MUL_HI_I32 : AMD_OP_V_MUL_HI_U32, rd(s, in->res, 0),
		      vs(s, in->args[0], 0), vs(s, in->args[1], 0));
	return true;
}

/* and/or/xor/not on integers (per dword) and on predicates. */
static bool logic(struct isel *s, const struct ir_insn *in)
{
	static const unsigned s32[] = {AMD_OP_S_AND_B32, AMD_OP_S_OR_B32, AMD_OP_S_XOR_B32};
	static const unsigned s64[] = {AMD_OP_S_AND_B64, AMD_OP_S_OR_B64, AMD_OP_S_XOR_B64};
	static const unsigned v32[] = {AMD_OP_V_AND_B32, AMD_OP_V_OR_B32, AMD_OP_V_XOR_B32};
	unsigned k = in->op == IR_AND ? 0 : in->op == IR_OR ? 1 : 2;
	bool is_not = in->op == IR_NOT;
	uint32_t d = sel_def(s, in->res);
	const struct sel_val *sv = &s->vals[in->res];
	if (sv->loc == LOC_BOOL) {
		if (is_not)
			salu2(s, AMD_OP_S_XOR_B32, mir_vreg(d, 1), sel_bool_opnd(s, in->args[0]),
			      mir_imm(1));
		else
			salu2(s, s32[k], mir_vreg(d, 1), sel_bool_opnd(s, in->args[0]),
			      sel_bool_opnd(s, in->args[1]));
		return true;
	}
	if (sv->loc == LOC_MASK) {
		struct mir_opnd m = mir_vreg(d, s->mask_dw);
		if (is_not) {
			struct mir_opnd ops[2] = {m, sel_mask_opnd(s, in->args[0])};
			sel_emit(s, sel_wave_op(s, AMD_OP_S_NOT_B32, AMD_OP_S_NOT_B64), 2, ops);
		} else {
			struct mir_opnd ops[3] = {m, sel_mask_opnd(s, in->args[0]),
			                          sel_mask_opnd(s, in->args[1])};
			sel_emit(s, s->wave == 64 ? s64[k] : s32[k], 3, ops);
		}
		return true;
	}
	for (unsigned w = 0; w < words(s, in); w++) {
		if (sv->loc == LOC_SGPR) {
			if (is_not) {
				struct mir_opnd ops[2] = {rd(s, in->res, w), ss(s, in->args[0], w)};
				sel_emit(s, AMD_OP_S_NOT_B32, 2, ops);
			} else {
				salu2(s, s32[k], rd(s, in->res, w), ss(s, in->args[0], w),
				      ss(s, in->args[1], w));
			}
		} else if (is_not) {
			struct mir_opnd ops[2] = {rd(s, in->res, w), vs(s, in->args[0], w)};
			valu(s, AMD_OP_V_NOT_B32, 2, ops);
		} else {
			valu2(s, v32[k], rd(s, in->res, w), vs(s, in->args[0], w),
			      vs(s, in->args[1], w));
		}
	}
	return true;
}

static bool minmax(struct isel *s, const struct ir_insn *in)
{
	if (words(s, in) != 1)
		return false;
	static const unsigned sops[] = {AMD_OP_S_MIN_U32, AMD_OP_S_MIN_I32, AMD_OP_S_MAX_U32,
	                                AMD_OP_S_MAX_I32};
	static const unsigned vops[] = {AMD_OP_V_MIN_U32, AMD_OP_V_MIN_I32, AMD_OP_V_MAX_U32,
	                                AMD_OP_V_MAX_I32};
	unsigned k = (unsigned)(in->op - IR_MIN_U);
	if (is_uniform_int(s, in))
		salu2(s, sops[k], rd(s, in->res, 0), ss(s, in->args[0], 0), ss(s, in->args[1], 0));
	else
		valu2(s, vops[k], rd(s, in->res, 0), vs(s, in->args[0], 0), vs(s, in->args[1], 0));
	return true;
}

static bool neg_abs(struct isel *s, const struct ir_insn *in)
{
	bool uni = is_uniform_int(s, in);
	ir_ref a = in->args[0];
	if (in->op == IR_NEG) { /* 0 - a */
		if (words(s, in) == 1) {
			if (uni)
				salu2(s, AMD_OP_S_SUB_U32, rd(s, in->res, 0), mir_imm(0),
				      ss(s, a, 0));
			else
				valu2(s, AMD_OP_V_SUB_U32, rd(s, in->res, 0), mir_imm(0),
				      vs(s, a, 0));
			return true;
		}
		if (uni) {
			salu2(s, AMD_OP_S_SUB_U32, rd(s, in->res, 0), mir_imm(0), ss(s, a, 0));
			salu2(s, AMD_OP_S_SUBB_U32, rd(s, in->res, 1), mir_imm(0), ss(s, a, 1));
			return true;
		}
		uint32_t c = sel_new_sgpr(s, s->mask_dw), c2 = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd lo[4] = {rd(s, in->res, 0), mir_vreg(c, s->mask_dw), mir_imm(0),
		                         vs(s, a, 0)};
		valu(s, AMD_OP_V_SUB_CO_U32, 4, lo);
		struct mir_opnd hi[5] = {rd(s, in->res, 1), mir_vreg(c2, s->mask_dw), mir_imm(0),
		                         vs(s, a, 1), mir_vreg(c, s->mask_dw)};
		valu(s, AMD_OP_V_SUBB_CO_U32, 5, hi);
		return true;
	}
	if (words(s, in) != 1)
		return false;
	if (uni) {
		struct mir_opnd ops[2] = {rd(s, in->res, 0), ss(s, a, 0)};
		sel_emit(s, AMD_OP_S_ABS_I32, 2, ops);
		return true;
	}
	uint32_t t = sel_new_vgpr(s, 1);
	valu2(s, AMD_OP_V_SUB_U32, mir_vreg(t, 1), mir_imm(0), vs(s, a, 0));
	valu2(s, AMD_OP_V_MAX_I32, rd(s, in->res, 0), vs(s, a, 0), mir_vreg(t, 1));
	return true;
}

/* A divergent 64-bit shl of a sign- or zero-extended 32-bit value by a constant c <= 5:
 * sext(x) << c = sext(x) * 2^c (mod 2^64), one v_mad_i64_i32 (v_mad_u64_u32 for zext) with
 * the inline constant 2^c, as mul.wide is, where the extension and a 64-bit shift take a
 * v_mov or v_ashrrev for the high half and a v_lshlrev_b64.  2^c <= 32 keeps the factor an
 * inline constant (no literal on gfx9's VOP3) and positive as a signed 32-bit operand. */
static bool shift_widened(struct isel *s, const struct ir_insn *in)
{
	uint64_t c;
	if (in->op != IR_SHL || words(s, in) != 2 || is_uniform_int(s, in) ||
	    !sel_is_const(s, in->args[1], &c) || c > 5)
		return false;
	const struct ir_insn *d = s->def[in->args[0]];
	if (!d || (d->op != IR_SEXT && d->op != IR_ZEXT) ||
	    s->ir->vals[d->args[0]].type != IR_T_I32)
		return false;
	uint32_t junk = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd ops[5] = {mir_vreg(sel_def(s, in->res), 2), mir_vreg(junk, s->mask_dw),
	                          vs(s, d->args[0], 0), mir_imm(1u << c), mir_imm(0)};
	valu(s, d->op == IR_SEXT ? AMD_OP_V_MAD_I64_I32 : AMD_OP_V_MAD_U64_U32, 5, ops);
	return true;
}

/* PTX shifts: amounts >= the width give 0 (shl, shr.u) or the sign (shr.s). */
static bool shift(struct isel *s, const struct ir_insn *in)
{
	if (shift_widened(s, in))
		return true;
	bool uni = is_uniform_int(s, in), wide = words(s, in) == 2;
	unsigned width = wide ? 64 : 32;
	ir_ref a = in->args[0], amt = in->args[1];
	uint64_t c;
	bool is_const = sel_is_const(s, amt, &c);
	bool arith = in->op == IR_SHR_S;
	if (arith || (is_const && c < width)) { /* clamp the amount, shift once */
		struct mir_opnd n;
		if (is_const)
			n = mir_imm(c >= width ? width - 1 : (uint32_t)c);
		else if (uni) {
			n = mir_vreg(sel_new_sgpr(s, 1), 1);
			salu2(s, AMD_OP_S_MIN_U32, n, ss(s, amt, 0), mir_imm(width - 1));
		} else {
			n = mir_vreg(sel_new_vgpr(s, 1), 1);
			valu2(s, AMD_OP_V_MIN_U32, n, vs(s, amt, 0), mir_imm(width - 1));
		}
		if (uni) {
			static const unsigned sop[2][3] = {
			        {AMD_OP_S_LSHL_B32, AMD_OP_S_LSHR_B32, AMD_OP_S_ASHR_I32},
			        {AMD_OP_S_LSHL_B64, AMD_OP_S_LSHR_B64, AMD_OP_S_ASHR_I64}};
			unsigned k = in->op == IR_SHL ? 0 : in->op == IR_SHR_U ? 1 : 2;
			struct mir_opnd d = mir_vreg(sel_def(s, in->res), wide ? 2 : 1);
			salu2(s, sop[wide][k], d, ss(s, a, wide ? 2 : 0), n);
		} else {
			static const unsigned vop[2][3] = {
			        {AMD_OP_V_LSHLREV_B32, AMD_OP_V_LSHRREV_B32, AMD_OP_V_ASHRREV_I32},
			        {AMD_OP_V_LSHLREV_B64, AMD_OP_V_LSHRREV_B64, AMD_OP_V_ASHRREV_I64}};
			unsigned k = in->op == IR_SHL ? 0 : in->op == IR_SHR_U ? 1 : 2;
			struct mir_opnd d = mir_vreg(sel_def(s, in->res), wide ? 2 : 1);
			valu2(s, vop[wide][k], d, n, vs(s, a, wide ? 2 : 0));
		}
		return true;
	}
	if (is_const) { /* constant amount >= width: zero */
		for (unsigned w = 0; w < (wide ? 2u : 1u); w++)
			sel_copy(s, rd(s, in->res, w), mir_imm(0));
		return true;
	}
	/* variable amount: shift by it, then select 0 where it is >= width */
	unsigned op = in->op == IR_SHL;
	if (uni) {
		uint32_t t = sel_new_sgpr(s, wide ? 2 : 1);
		salu2(s,
		      op ? (wide ? AMD_OP_S_LSHL_B64 : AMD_OP_S_LSHL_B32)
		         : (wide ? AMD_OP_S_LSHR_B64 : AMD_OP_S_LSHR_B32),
		      mir_vreg(t, wide ? 2 : 1), ss(s, a, wide ? 2 : 0), ss(s, amt, 0));
		struct mir_opnd cmp[2] = {ss(s, amt, 0), mir_imm(width - 1)};
		sel_emit(s, AMD_OP_S_CMP_GT_U32, 2, cmp);
		struct mir_opnd d = mir_vreg(sel_def(s, in->res), wide ? 2 : 1);
		salu2(s, wide ? AMD_OP_S_CSELECT_B64 : AMD_OP_S_CSELECT_B32, d, mir_imm(0),
		      mir_vreg(t, wide ? 2 : 1));
		return true;
	}
	uint32_t t = sel_new_vgpr(s, wide ? 2 : 1);
	valu2(s,
	      op ? (wide ? AMD_OP_V_LSHLREV_B64 : AMD_OP_V_LSHLREV_B32)
	         : (wide ? AMD_OP_V_LSHRREV_B64 : AMD_OP_V_LSHRREV_B32),
	      mir_vreg(t, wide ? 2 : 1), vs(s, amt, 0), vs(s, a, wide ? 2 : 0));
	uint32_t m = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd cmp[3] = {mir_vreg(m, s->mask_dw), vs(s, amt, 0), mir_imm(width - 1)};
	valu(s, AMD_OP_V_CMP_GT_U32, 3, cmp);
	for (unsigned w = 0; w < (wide ? 2u : 1u); w++) {
		struct mir_opnd ops[4] = {rd(s, in->res, w), sel_sub(t, w, 1), mir_imm(0),
		                          mir_vreg(m, s->mask_dw)};
		valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
	}
	return true;
}

/* Table rows per comparison: [cmp][kind] for kinds i32 u32 i64 u64 f32 f64. */
static const uint16_t vcmp_rows[IR_NUM_CMPS][6] = {
        [IR_CMP_EQ] = {AMD_OP_V_CMP_EQ_I32, AMD_OP_V_CMP_EQ_U32, AMD_OP_V_CMP_EQ_I64,
                       AMD_OP_V_CMP_EQ_U64, AMD_OP_V_CMP_EQ_F32, AMD_OP_V_CMP_EQ_F64},
        [IR_CMP_NE] = {AMD_OP_V_CMP_NE_I32, AMD_OP_V_CMP_NE_U32, AMD_OP_V_CMP_NE_I64,
                       AMD_OP_V_CMP_NE_U64, AMD_OP_V_CMP_LG_F32, AMD_OP_V_CMP_LG_F64},
        [IR_CMP_LT] = {AMD_OP_V_CMP_LT_I32, AMD_OP_V_CMP_LT_U32, AMD_OP_V_CMP_LT_I64,
                       AMD_OP_V_CMP_LT_U64, AMD_OP_V_CMP_LT_F32, AMD_OP_V_CMP_LT_F64},
        [IR_CMP_LE] = {AMD_OP_V_CMP_LE_I32, AMD_OP_V_CMP_LE_U32, AMD_OP_V_CMP_LE_I64,
                       AMD_OP_V_CMP_LE_U64, AMD_OP_V_CMP_LE_F32, AMD_OP_V_CMP_LE_F64},
        [IR_CMP_GT] = {AMD_OP_V_CMP_GT_I32, AMD_OP_V_CMP_GT_U32, AMD_OP_V_CMP_GT_I64,
                       AMD_OP_V_CMP_GT_U64, AMD_OP_V_CMP_GT_F32, AMD_OP_V_CMP_GT_F64},
        [IR_CMP_GE] = {AMD_OP_V_CMP_GE_I32, AMD_OP_V_CMP_GE_U32, AMD_OP_V_CMP_GE_I64,
                       AMD_OP_V_CMP_GE_U64, AMD_OP_V_CMP_GE_F32, AMD_OP_V_CMP_GE_F64},
        /* integers: unsigned kinds; floats: unordered */
        [IR_CMP_LTU] = {AMD_OP_V_CMP_LT_U32, AMD_OP_V_CMP_LT_U32, AMD_OP_V_CMP_LT_U64,
                        AMD_OP_V_CMP_LT_U64, AMD_OP_V_CMP_NGE_F32, AMD_OP_V_CMP_NGE_F64},
        [IR_CMP_LEU] = {AMD_OP_V_CMP_LE_U32, AMD_OP_V_CMP_LE_U32, AMD_OP_V_CMP_LE_U64,
                        AMD_OP_V_CMP_LE_U64, AMD_OP_V_CMP_NGT_F32, AMD_OP_V_CMP_NGT_F64},
        [IR_CMP_GTU] = {AMD_OP_V_CMP_GT_U32, AMD_OP_V_CMP_GT_U32, AMD_OP_V_CMP_GT_U64,
                        AMD_OP_V_CMP_GT_U64, AMD_OP_V_CMP_NLE_F32, AMD_OP_V_CMP_NLE_F64},
        [IR_CMP_GEU] = {AMD_OP_V_CMP_GE_U32, AMD_OP_V_CMP_GE_U32, AMD_OP_V_CMP_GE_U64,
                        AMD_OP_V_CMP_GE_U64, AMD_OP_V_CMP_NLT_F32, AMD_OP_V_CMP_NLT_F64},
        [IR_CMP_EQU] = {0, 0, 0, 0, AMD_OP_V_CMP_NLG_F32, AMD_OP_V_CMP_NLG_F64},
        [IR_CMP_NEU] = {0, 0, 0, 0, AMD_OP_V_CMP_NEQ_F32, AMD_OP_V_CMP_NEQ_F64},
        [IR_CMP_NUM] = {0, 0, 0, 0, AMD_OP_V_CMP_O_F32, AMD_OP_V_CMP_O_F64},
        [IR_CMP_NAN] = {0, 0, 0, 0, AMD_OP_V_CMP_U_F32, AMD_OP_V_CMP_U_F64},
};

static const uint16_t scmp_rows[IR_CMP_GEU + 1][2] = {
        [IR_CMP_EQ] = {AMD_OP_S_CMP_EQ_I32, AMD_OP_S_CMP_EQ_U32},
        [IR_CMP_NE] = {AMD_OP_S_CMP_LG_I32, AMD_OP_S_CMP_LG_U32},
        [IR_CMP_LT] = {AMD_OP_S_CMP_LT_I32, AMD_OP_S_CMP_LT_U32},
        [IR_CMP_LE] = {AMD_OP_S_CMP_LE_I32, AMD_OP_S_CMP_LE_U32},
        [IR_CMP_GT] = {AMD_OP_S_CMP_GT_I32, AMD_OP_S_CMP_GT_U32},
        [IR_CMP_GE] = {AMD_OP_S_CMP_GE_I32, AMD_OP_S_CMP_GE_U32},
        [IR_CMP_LTU] = {AMD_OP_S_CMP_LT_U32, AMD_OP_S_CMP_LT_U32},
        [IR_CMP_LEU] = {AMD_OP_S_CMP_LE_U32, AMD_OP_S_CMP_LE_U32},
        [IR_CMP_GTU] = {AMD_OP_S_CMP_GT_U32, AMD_OP_S_CMP_GT_U32},
        [IR_CMP_GEU] = {AMD_OP_S_CMP_GE_U32, AMD_OP_S_CMP_GE_U32},
};

/* Comparison of two values into a lane mask (vector unit), whatever their location. */
void sel_vcmp(struct isel *s, const struct ir_insn *in, struct mir_opnd mask);
void sel_vcmp(struct isel *s, const struct ir_insn *in, struct mir_opnd mask)
{
	enum ir_type t = (enum ir_type)s->ir->vals[in->args[0]].type;
	unsigned kind = t == IR_T_F32 ? 4 : t == IR_T_F64 ? 5 : t == IR_T_I64 ? 2 : 0;
	unsigned cmp = in->aux & 0xff;
	unsigned op = vcmp_rows[cmp][kind];
	if (!op) {
		sel_error(s, "comparison kind %u of %s is not selectable", cmp, ir_type_name(t));
		return;
	}
	unsigned dw = kind == 2 || kind == 5 ? 2 : 0;
	struct mir_opnd ops[3] = {mask, vs(s, in->args[0], dw), vs(s, in->args[1], dw)};
	valu(s, op, 3, ops);
}

/* A uniform integer compare that s_cmp does (SCC = the result). */
bool sel_icmp_is_scalar(const struct isel *s, const struct ir_insn *in)
{
	enum ir_type t = (enum ir_type)s->ir->vals[in->args[0]].type;
	unsigned cmp = in->aux & 0xff;
	return in->op == IR_ICMP && !s->ir->vals[in->res].divergent &&
	       ((t == IR_T_I32 && cmp <= IR_CMP_GEU) ||
	        (t == IR_T_I64 && (cmp == IR_CMP_EQ || cmp == IR_CMP_NE)));
}

/* SCC = the compare `in` (sel_icmp_is_scalar). */
void sel_icmp_scc(struct isel *s, const struct ir_insn *in)
{
	enum ir_type t = (enum ir_type)s->ir->vals[in->args[0]].type;
	unsigned cmp = in->aux & 0xff;
	if (t == IR_T_I32) {
		struct mir_opnd a = ss(s, in->args[0], 0), b = ss(s, in->args[1], 0);
		if (a.kind == MIR_IMM && b.kind == MIR_IMM && a.v != b.v)
			a = sel_s_imm(s, a.v);
		struct mir_opnd ops[2] = {a, b};
		sel_emit(s, scmp_rows[cmp][cmp >= IR_CMP_LTU], 2, ops);
	} else {
		struct mir_opnd ops[2] = {ss(s, in->args[0], 2), ss(s, in->args[1], 2)};
		sel_emit(s, cmp == IR_CMP_EQ ? AMD_OP_S_CMP_EQ_U64 : AMD_OP_S_CMP_LG_U64, 2, ops);
	}
}

static bool icmp(struct isel *s, const struct ir_insn *in)
{
	enum ir_type t = (enum ir_type)s->ir->vals[in->args[0]].type;
	if (t == IR_T_PRED || t == IR_T_I16)
		return false;
	if (s->scc_pred[in->res])
		return true; /* selected into SCC where its branch reads it (cflow.c) */
	uint32_t d = sel_def(s, in->res);
	if (s->vals[in->res].loc == LOC_MASK) {
		sel_vcmp(s, in, mir_vreg(d, s->mask_dw));
		return true;
	}
	/* uniform: SCC from s_cmp, or (64-bit order) a vector compare of uniform values */
	if (sel_icmp_is_scalar(s, in)) {
		sel_icmp_scc(s, in);
	} else {
		uint32_t m = sel_new_sgpr(s, s->mask_dw);
		sel_vcmp(s, in, mir_vreg(m, s->mask_dw));
		struct mir_opnd ops[2] = {mir_vreg(m, s->mask_dw), mir_imm(0)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64), 2, ops);
	}
	struct mir_opnd sel[3] = {mir_vreg(d, 1), mir_imm(1), mir_imm(0)};
	sel_emit(s, AMD_OP_S_CSELECT_B32, 3, sel);
	return true;
}

static bool select_op(struct isel *s, const struct ir_insn *in)
{
	uint32_t d = sel_def(s, in->res);
	const struct sel_val *sv = &s->vals[in->res];
	ir_ref p = in->args[0], a = in->args[1], b = in->args[2];
	if (sv->loc == LOC_MASK) {
		struct mir_opnd m = sel_mask_opnd(s, p);
		uint32_t t1 = sel_new_sgpr(s, s->mask_dw), t2 = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd o1[3] = {mir_vreg(t1, s->mask_dw), m, sel_mask_opnd(s, a)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64), 3, o1);
		struct mir_opnd o2[3] = {mir_vreg(t2, s->mask_dw), sel_mask_opnd(s, b), m};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3, o2);
		struct mir_opnd o3[3] = {mir_vreg(d, s->mask_dw), mir_vreg(t1, s->mask_dw),
		                         mir_vreg(t2, s->mask_dw)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_OR_B32, AMD_OP_S_OR_B64), 3, o3);
		return true;
	}
	if (sv->loc == LOC_VGPR) {
		struct mir_opnd m = sel_mask_opnd(s, p);
		for (unsigned w = 0; w < sv->size; w++) {
			struct mir_opnd ops[4] = {sel_sub(d, w, 1), vs(s, b, w), vs(s, a, w), m};
			valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
		}
		return true;
	}
	struct mir_opnd pb = sel_bool_opnd(s, p);
	struct mir_opnd av[2], bv[2];
	for (unsigned w = 0; w < sv->size; w++) {
		av[w] = sv->loc == LOC_BOOL ? sel_bool_opnd(s, a) : ss(s, a, w);
		bv[w] = sv->loc == LOC_BOOL ? sel_bool_opnd(s, b) : ss(s, b, w);
	}
	struct mir_opnd cmp[2] = {pb, mir_imm(0)};
	if (pb.kind == MIR_IMM)
		cmp[0] = sel_s_imm(s, pb.v);
	sel_emit(s, AMD_OP_S_CMP_LG_U32, 2, cmp);
	for (unsigned w = 0; w < sv->size; w++)
		salu2(s, AMD_OP_S_CSELECT_B32, sel_sub(d, w, 1), av[w], bv[w]);
	return true;
}

/* zext/sext/trunc/bitcast/copy: moves between halves and register files. */
static bool widths(struct isel *s, const struct ir_insn *in)
{
	ir_ref a = in->args[0];
	enum ir_type st = (enum ir_type)s->ir->vals[a].type;
	if (st == IR_T_I16 || in->type == IR_T_I16 || st == IR_T_PRED || in->type == IR_T_PRED)
		return false;
	uint32_t d = sel_def(s, in->res);
	const struct sel_val *sv = &s->vals[in->res];
	bool to_s = sv->loc == LOC_SGPR;
	struct mir_opnd (*src)(struct isel *, ir_ref, unsigned) = to_s ? ss : vs;
	switch (in->op) {
	case IR_TRUNC:
		sel_copy(s, sel_sub(d, 0, 1), src(s, a, 0));
		return true;
	case IR_ZEXT:
		sel_copy(s, sel_sub(d, 0, 1), src(s, a, 0));
		sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
		return true;
	case IR_SEXT:
		sel_copy(s, sel_sub(d, 0, 1), src(s, a, 0));
		if (to_s)
			salu2(s, AMD_OP_S_ASHR_I32, sel_sub(d, 1, 1), ss(s, a, 0), mir_imm(31));
		else
			valu2(s, AMD_OP_V_ASHRREV_I32, sel_sub(d, 1, 1), mir_imm(31), vs(s, a, 0));
		return true;
	default: /* COPY, BITCAST */
		for (unsigned w = 0; w < sv->size; w++)
			sel_copy(s, sel_sub(d, w, 1), src(s, a, w));
		return true;
	}
}

static bool bits(struct isel *s, const struct ir_insn *in)
{
	enum ir_type st = (enum ir_type)s->ir->vals[in->args[0]].type;
	if (st != IR_T_I32 && !(in->op == IR_POPC && st == IR_T_I64))
		return false;
	bool uni = is_uniform_int(s, in);
	struct mir_opnd d = rd(s, in->res, 0);
	ir_ref a = in->args[0];
	switch (in->op) {
	case IR_POPC:
		if (uni) {
			struct mir_opnd ops[2] = {d, ss(s, a, st == IR_T_I64 ? 2 : 0)};
			sel_emit(s,
			         st == IR_T_I64 ? AMD_OP_S_BCNT1_I32_B64 : AMD_OP_S_BCNT1_I32_B32,
			         2, ops);
		} else if (st == IR_T_I64) {
			uint32_t t = sel_new_vgpr(s, 1);
			valu2(s, AMD_OP_V_BCNT_U32_B32, mir_vreg(t, 1), vs(s, a, 0), mir_imm(0));
			valu2(s, AMD_OP_V_BCNT_U32_B32, d, vs(s, a, 1), mir_vreg(t, 1));
		} else {
			valu2(s, AMD_OP_V_BCNT_U32_B32, d, vs(s, a, 0), mir_imm(0));
		}
		return true;
	case IR_CLZ: { /* the hardware answers -1 for 0; PTX wants 32 */
		if (uni) {
			uint32_t t = sel_new_sgpr(s, 1);
			struct mir_opnd ops[2] = {mir_vreg(t, 1), ss(s, a, 0)};
			sel_emit(s, AMD_OP_S_FLBIT_I32_B32, 2, ops);
			salu2(s, AMD_OP_S_MIN_U32, d, mir_vreg(t, 1), mir_imm(32));
		} else {
			uint32_t t = sel_new_vgpr(s, 1);
			struct mir_opnd ops[2] = {mir_vreg(t, 1), vs(s, a, 0)};
			valu(s, AMD_OP_V_FFBH_U32, 2, ops);
			valu2(s, AMD_OP_V_MIN_U32, d, mir_vreg(t, 1), mir_imm(32));
		}
		return true;
	}
	case IR_BREV: {
		struct mir_opnd ops[2] = {d, uni ? ss(s, a, 0) : vs(s, a, 0)};
		if (uni)
			sel_emit(s, AMD_OP_S_BREV_B32, 2, ops);
		else
			valu(s, AMD_OP_V_BFREV_B32, 2, ops);
		return true;
	}
	default: {
		/* bfe with constant position and length inside the word: the hardware's field */
		uint64_t pos, len;
		if (!sel_is_const(s, in->args[1], &pos) || !sel_is_const(s, in->args[2], &len) ||
		    len == 0 || len >= 32 || pos + len > 32) {
			sel_error(s, "bfe with a variable or out-of-word position/length is not "
			             "supported by the code generator yet");
			return true;
		}
		if (uni) { /* s_bfe: offset in bits 4:0, width in bits 22:16 of src1 */
			salu2(s, in->op == IR_BFE_S ? AMD_OP_S_BFE_I32 : AMD_OP_S_BFE_U32, d,
			      ss(s, a, 0), mir_imm((uint32_t)(pos | len << 16)));
			return true;
		}
		struct mir_opnd ops[4] = {d, vs(s, a, 0), mir_imm((uint32_t)pos),
		                          mir_imm((uint32_t)len)};
		valu(s, in->op == IR_BFE_S ? AMD_OP_V_BFE_I32 : AMD_OP_V_BFE_U32, 4, ops);
		return true;
	}
	}
}

bool sel_alu(struct isel *s, const struct ir_insn *in)
{
	if (in->type == IR_T_I16 && in->op != IR_SELECT) {
		sel_error(s, "16-bit integer values are not supported by the code generator yet");
		return true;
	}
	switch (in->op) {
	case IR_ADD:
	case IR_SUB:
		return add_sub(s, in, in->op == IR_ADD);
	case IR_MUL:
		return mul(s, in);
	case IR_DIV_U:
	case IR_DIV_S:
	case IR_REM_U:
	case IR_REM_S:
		return sel_divrem(s, in);
	case IR_MULHI_U:
	case IR_MULHI_S:
		return mulhi(s, in);
	case IR_AND:
	case IR_OR:
	case IR_XOR:
	case IR_NOT:
		return logic(s, in);
	case IR_MIN_U:
	case IR_MIN_S:
	case IR_MAX_U:
	case IR_MAX_S:
		return minmax(s, in);
	case IR_NEG:
	case IR_ABS:
		return ir_type_is_float((enum ir_type)in->type) ? false : neg_abs(s, in);
	case IR_SHL:
	case IR_SHR_U:
	case IR_SHR_S:
		return shift(s, in);
	case IR_ICMP:
		return icmp(s, in);
	case IR_SELECT:
		return select_op(s, in);
	case IR_ZEXT:
	case IR_SEXT:
	case IR_TRUNC:
	case IR_COPY:
	case IR_BITCAST:
		return widths(s, in);
	case IR_POPC:
	case IR_CLZ:
	case IR_BREV:
	case IR_BFE_U:
	case IR_BFE_S:
		return bits(s, in);
	default:
		return false;
	}
}
