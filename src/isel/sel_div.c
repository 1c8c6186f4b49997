/* Integer division and remainder (32-bit): the hardware has no divider, so this is the
 * usual exact software sequence on the vector unit.
 *
 * Unsigned x / y: z ~ 2^32 / y from v_rcp_iflag_f32 of y converted to float, scaled by
 * 2^32 - 2^9 so the estimate never exceeds the true reciprocal; one Newton step in integer
 * arithmetic (z += mulhi(z, -y * z)); q = mulhi(x, z) is then at most 2 too small, so two
 * conditional corrections (r = x - q*y; if r >= y: q++, r -= y) make q and r exact.
 * Signed: the same on magnitudes, the quotient negated when the signs differ, the
 * remainder taking the dividend's sign (C and PTX truncating semantics; INT_MIN / -1
 * wraps to INT_MIN).  Division by zero, which PTX leaves machine-specific, gives what
 * NVIDIA hardware gives: all ones for the quotient and the remainder, signed or unsigned
 * (docs/SEMANTICS.md; 16-bit division is this one on extended operands, truncated).
 * Uniform operands are divided on the vector unit too and the result read back with
 * v_readfirstlane.  Complexity: O(1), about 25 instructions. */
#include "isel/isel_int.h"

static struct mir_opnd v(uint32_t r)
{
	return mir_vreg(r, 1);
}

static uint32_t valu(struct isel *s, unsigned op, struct mir_opnd a, struct mir_opnd b)
{
	uint32_t d = sel_new_vgpr(s, 1);
	struct mir_opnd ops[3] = {v(d), a, b};
	unsigned n = amd_isa_rows[op].nopnds;
	sel_fix_valu(s, op, n, ops);
	sel_emit(s, op, n, ops);
	return d;
}

static uint32_t cmp_mask(struct isel *s, unsigned op, struct mir_opnd a, struct mir_opnd b)
{
	uint32_t m = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd ops[3] = {mir_vreg(m, s->mask_dw), a, b};
	sel_fix_valu(s, op, 3, ops);
	sel_emit(s, op, 3, ops);
	return m;
}

/* d = mask ? t : f */
static uint32_t cnd(struct isel *s, uint32_t mask, struct mir_opnd t, struct mir_opnd f)
{
	uint32_t d = sel_new_vgpr(s, 1);
	struct mir_opnd ops[4] = {v(d), f, t, mir_vreg(mask, s->mask_dw)};
	sel_fix_valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
	sel_emit(s, AMD_OP_V_CNDMASK_B32, 4, ops);
	return d;
}

/* Unsigned 32-bit divide of VGPRs x and y: quotient and remainder. */
static void udivrem(struct isel *s, uint32_t x, uint32_t y, uint32_t *q, uint32_t *r)
{
	uint32_t f = sel_new_vgpr(s, 1);
	struct mir_opnd cv[2] = {v(f), v(y)};
	sel_emit(s, AMD_OP_V_CVT_F32_U32, 2, cv);
	uint32_t rc = sel_new_vgpr(s, 1);
	struct mir_opnd rcp[2] = {v(rc), v(f)};
	sel_emit(s, AMD_OP_V_RCP_IFLAG_F32, 2, rcp);
	uint32_t sc = valu(s, AMD_OP_V_MUL_F32, mir_imm(0x4f7ffffeu), v(rc)); /* 2^32 - 2^9 */
	uint32_t z = sel_new_vgpr(s, 1);
	struct mir_opnd cu[2] = {v(z), v(sc)};
	sel_emit(s, AMD_OP_V_CVT_U32_F32, 2, cu);
	uint32_t ny = valu(s, AMD_OP_V_SUB_U32, mir_imm(0), v(y));
	uint32_t t = valu(s, AMD_OP_V_MUL_LO_U32, v(ny), v(z));
	uint32_t zh = valu(s, AMD_OP_V_MUL_HI_U32, v(z), v(t));
	uint32_t z2 = valu(s, AMD_OP_V_ADD_U32, v(z), v(zh));
	uint32_t q0 = valu(s, AMD_OP_V_MUL_HI_U32, v(x), v(z2));
	uint32_t qy = valu(s, AMD_OP_V_MUL_LO_U32, v(q0), v(y));
	uint32_t r0 = valu(s, AMD_OP_V_SUB_U32, v(x), v(qy));
	for (int step = 0; step < 2; step++) {
		uint32_t c = cmp_mask(s, AMD_OP_V_CMP_GE_U32, v(r0), v(y));
		uint32_t q1 = valu(s, AMD_OP_V_ADD_U32, mir_imm(1), v(q0));
		uint32_t r1 = valu(s, AMD_OP_V_SUB_U32, v(r0), v(y));
		q0 = cnd(s, c, v(q1), v(q0));
		r0 = cnd(s, c, v(r1), v(r0));
	}
	*q = q0; /* y == 0: sel_divrem */
	*r = r0;
}

/* |a| and a's sign mask (all ones when negative) */
static uint32_t magnitude(struct isel *s, uint32_t a, uint32_t *sign)
{
	*sign = valu(s, AMD_OP_V_ASHRREV_I32, mir_imm(31), v(a));
	uint32_t t = valu(s, AMD_OP_V_XOR_B32, v(a), v(*sign));
	return valu(s, AMD_OP_V_SUB_U32, v(t), v(*sign));
}

static uint32_t apply_sign(struct isel *s, uint32_t val, uint32_t sign)
{
	uint32_t t = valu(s, AMD_OP_V_XOR_B32, v(val), v(sign));
	return valu(s, AMD_OP_V_SUB_U32, v(t), v(sign));
}

bool sel_divrem(struct isel *s, const struct ir_insn *in);
bool sel_divrem(struct isel *s, const struct ir_insn *in)
{
	if (in->type != IR_T_I32) {
		sel_error(s, "%u-bit integer division is not supported by the code generator yet",
		          ir_type_bits((enum ir_type)in->type));
		return true;
	}
	struct mir_opnd xa = sel_to_vgpr(s, sel_vsrc_opnd(s, in->args[0], 0));
	struct mir_opnd ya = sel_to_vgpr(s, sel_vsrc_opnd(s, in->args[1], 0));
	uint32_t x = xa.v, y = ya.v;
	if (xa.sub || ya.sub) { /* a half of a wider register: copy it out */
		x = sel_new_vgpr(s, 1);
		sel_copy(s, v(x), xa);
		y = sel_new_vgpr(s, 1);
		sel_copy(s, v(y), ya);
	}
	bool sg = in->op == IR_DIV_S || in->op == IR_REM_S;
	bool want_q = in->op == IR_DIV_U || in->op == IR_DIV_S;
	uint32_t q, r, res;
	if (!sg) {
		udivrem(s, x, y, &q, &r);
		res = want_q ? q : r;
	} else {
		uint32_t sx, sy;
		uint32_t ax = magnitude(s, x, &sx), ay = magnitude(s, y, &sy);
		udivrem(s, ax, ay, &q, &r);
		if (want_q)
			res = apply_sign(s, q, valu(s, AMD_OP_V_XOR_B32, v(sx), v(sy)));
		else
			res = apply_sign(s, r, sx);
	}
	uint32_t by_zero = cmp_mask(s, AMD_OP_V_CMP_EQ_U32, mir_imm(0), v(y));
	res = cnd(s, by_zero, mir_imm(~0u), v(res));
	uint32_t d = sel_def(s, in->res);
	if (s->vals[in->res].loc == LOC_SGPR) {
		struct mir_opnd ops[2] = {mir_vreg(d, 1), v(res)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
	} else {
		sel_copy(s, mir_vreg(d, 1), v(res));
	}
	return true;
}
