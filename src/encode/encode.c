/* amd_encode: one instruction -> machine words for one target.
 *
 * Algorithm: pick the encoding (native format, or VOP3 for VALU rows when modifiers, an SGPR
 * destination or a non-VGPR src1 need it), turn each operand into its field code (SGPR,
 * VGPR + 256, special register codes per generation, inline constant or literal 255), check
 * the hardware rules (one literal, constant-bus limit, existing opcode, register alignment on
 * gfx90a), and pack the per-format, per-generation bit fields
 * (shared/reference/instruction-formats.txt; llvm-mc-19 is the judge).
 * Requires: a row of amd_isa_table().  Breaks: nothing (pure).  O(operands). */
#include "amd_encode.h"
#include "encode_int.h"
#include "isa/isa.h"

#include <stdio.h>
#include <string.h>

bool amd_enc_fail(struct enc *e, const char *msg, const char *detail)
{
	snprintf(e->err, e->errlen, "%s: %s%s%s", e->op->name, msg, detail ? " " : "",
	         detail ? detail : "");
	return false;
}

unsigned amd_enc_special_code(enum amd_gen gen, unsigned spec)
{
	bool gfx11 = gen >= AMD_GFX11;
	switch (spec) {
	case AMD_SPEC_VCC:
	case AMD_SPEC_VCC_LO:
		return 106;
	case AMD_SPEC_VCC_HI:
		return 107;
	case AMD_SPEC_EXEC:
	case AMD_SPEC_EXEC_LO:
		return 126;
	case AMD_SPEC_EXEC_HI:
		return 127;
	case AMD_SPEC_M0:
		return gfx11 ? 125 : 124;
	case AMD_SPEC_NULL:
		return gfx11 ? 124 : 125;
	case AMD_SPEC_FLAT_SCRATCH:
	case AMD_SPEC_FLAT_SCRATCH_LO:
		return 102;
	case AMD_SPEC_FLAT_SCRATCH_HI:
		return 103;
	case AMD_SPEC_SRC_SHARED_BASE:
		return 235;
	case AMD_SPEC_SRC_SHARED_LIMIT:
		return 236;
	case AMD_SPEC_SRC_PRIVATE_BASE:
		return 237;
	case AMD_SPEC_SRC_PRIVATE_LIMIT:
		return 238;
	default:
		return 253; /* scc */
	}
}

/* gfx12 hardware cache-policy field: scope in bits 0-1, temporal hint in bits 2-4. */
unsigned amd_enc_gfx12_cpol(unsigned cp)
{
	return ((cp >> 3) & 3u) | (cp & 7u) << 2;
}

static unsigned amd_enc_max_sgpr(const struct enc *e)
{
	return e->t->info->addressable_sgprs;
}

/* Code of an SGPR-or-special operand (destinations, sbase, soffset). */
bool amd_enc_scalar_reg(struct enc *e, const struct amd_val *v, unsigned width, unsigned *code)
{
	if (v->kind == AMD_V_TTMP) {
		if (v->reg + width > 16)
			return amd_enc_fail(e, "trap temporary out of range", NULL);
		if ((width >= 2 && (v->reg & 1)) || (width >= 3 && (v->reg & 3)))
			return amd_enc_fail(e, "misaligned trap temporary tuple", NULL);
		*code = 108 + v->reg;
		return true;
	}
	if (v->kind == AMD_V_SPECIAL) {
		if (v->reg >= AMD_NUM_SPECIALS)
			return amd_enc_fail(e, "invalid special register", NULL);
		if (v->reg == AMD_SPEC_NULL && e->gen < AMD_GFX10)
			return amd_enc_fail(e, "null is not a register on", e->t->info->name);
		if (v->reg >= AMD_SPEC_FLAT_SCRATCH && v->reg <= AMD_SPEC_FLAT_SCRATCH_HI &&
		    e->gen >= AMD_GFX10)
			return amd_enc_fail(e, "flat_scratch is not an SGPR operand on",
			                    e->t->info->name);
		*code = amd_enc_special_code(e->gen, v->reg);
		return true;
	}
	if (v->kind != AMD_V_SGPR)
		return amd_enc_fail(e, "expected an SGPR operand", NULL);
	if (v->reg + width > amd_enc_max_sgpr(e))
		return amd_enc_fail(e, "SGPR out of range", NULL);
	if (width >= 2 && (v->reg & 1))
		return amd_enc_fail(e, "misaligned SGPR tuple (must start at an even register)",
		                    NULL);
	if (width >= 3 && (v->reg & 3))
		return amd_enc_fail(e, "misaligned SGPR tuple (must start at a multiple of 4)",
		                    NULL);
	*code = v->reg;
	return true;
}

bool amd_enc_vgpr_reg(struct enc *e, const struct amd_val *v, unsigned width, unsigned *code)
{
	if (v->kind != AMD_V_VGPR)
		return amd_enc_fail(e, "expected a VGPR operand", NULL);
	if (v->reg + width > 256)
		return amd_enc_fail(e, "VGPR out of range", NULL);
	if (e->t->info->has_agprs && width >= 2 && (v->reg & 1))
		return amd_enc_fail(e, "misaligned VGPR tuple on", e->t->info->name);
	*code = v->reg;
	return true;
}

bool amd_enc_note_const(struct enc *e, int key)
{
	for (unsigned i = 0; i < e->nconst; i++)
		if (e->const_regs[i] == key)
			return true;
	if (e->nconst < 4)
		e->const_regs[e->nconst] = key;
	e->nconst++;
	return true;
}

/* The mandatory literal K of v_fmamk/v_fmaak/s_fmamk: shares the one literal slot. */
bool amd_enc_kimm(struct enc *e, const struct amd_val *v)
{
	if (v->kind != AMD_V_IMM)
		return amd_enc_fail(e, "expected a literal constant K", NULL);
	if (e->has_literal && e->literal != v->imm)
		return amd_enc_fail(e, "only one literal constant is allowed", NULL);
	if (!e->has_literal && e->op->format >= AMD_FMT_VOP1)
		amd_enc_note_const(e, 1000);
	e->has_literal = true;
	e->literal = v->imm;
	return true;
}

/* 9-bit source code of any source operand; VALU sources count toward the constant bus. */
bool amd_enc_src_code(struct enc *e, const struct amd_val *v, const struct amd_opnd_desc *d,
                      bool literal_ok, bool is_valu, unsigned *code)
{
	unsigned width = v->width ? v->width : d->width;
	if ((d->kind == AMD_OPK_SSRC || d->kind == AMD_OPK_SREG) && v->kind == AMD_V_VGPR)
		return amd_enc_fail(e, "a scalar operand cannot be a VGPR", NULL);
	if (d->kind == AMD_OPK_SREG && v->kind == AMD_V_IMM)
		return amd_enc_fail(e, "this operand must be a scalar register", NULL);
	switch (v->kind) {
	case AMD_V_VGPR:
		if (!amd_enc_vgpr_reg(e, v, width, code))
			return false;
		*code += 256;
		return true;
	case AMD_V_SGPR:
	case AMD_V_TTMP:
	case AMD_V_SPECIAL:
		if (!amd_enc_scalar_reg(e, v, width, code))
			return false;
		if (is_valu && *code != 253)
			amd_enc_note_const(e, (int)*code);
		return true;
	case AMD_V_IMM: {
		int c = amd_inline_code((enum amd_dtype)d->dtype, v->imm);
		if (c >= 0) {
			*code = (unsigned)c;
			return true;
		}
		if (!literal_ok)
			return amd_enc_fail(e, "literal constant not allowed here", NULL);
		if (e->has_literal && e->literal != v->imm)
			return amd_enc_fail(e, "only one literal constant is allowed", NULL);
		if (!e->has_literal && is_valu)
			amd_enc_note_const(e, 1000);
		e->has_literal = true;
		e->literal = v->imm;
		*code = 255;
		return true;
	}
	default:
		return amd_enc_fail(e, "missing source operand", NULL);
	}
}

/* Index of the n-th operand of row `op` with the given kind (-1 if none). */
int amd_enc_find_opnd(const struct amd_isa_op *op, enum amd_opnd_kind kind, int n)
{
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == kind && n-- == 0)
			return i;
	return -1;
}

static unsigned amd_enc_wave_mask_width(const struct enc *e)
{
	return e->t->wave_size == 64 ? 2 : 1;
}

static bool amd_enc_is_plain_vcc(const struct enc *e, const struct amd_val *v)
{
	return v->kind == AMD_V_SPECIAL &&
	       (v->reg == AMD_SPEC_VCC || (e->t->wave_size == 32 && v->reg == AMD_SPEC_VCC_LO));
}

static bool encode_salu(struct enc *e, uint32_t *w)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	if (op->flags & AMD_F_IMM_OR_M0 && op->nopnds &&
	    !((in->ops[0].kind == AMD_V_IMM && amd_inline_code(AMD_DT_B32, in->ops[0].imm) >= 0) ||
	      (in->ops[0].kind == AMD_V_SPECIAL && in->ops[0].reg == AMD_SPEC_M0)))
		return amd_enc_fail(e, "operand must be m0 or an inline constant", NULL);
	int opc = op->opcode[e->gen];
	unsigned dst = 0, src[2] = {0, 0}, nsrc = 0, simm = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		unsigned width = d->width;
		if (d->kind == AMD_OPK_SDST) {
			if (!amd_enc_scalar_reg(e, v, width, &dst))
				return false;
		} else if (d->kind == AMD_OPK_SSRC && op->format == AMD_FMT_SOPK) {
			if (!amd_enc_scalar_reg(e, v, width, &dst))
				return false;
		} else if (d->kind == AMD_OPK_SSRC || d->kind == AMD_OPK_SREG) {
			struct amd_opnd_desc dd = *d;
			dd.width = (uint8_t)width;
			if (!amd_enc_src_code(e, v, &dd, true, false, &src[nsrc++]))
				return false;
		} else if (d->kind == AMD_OPK_KIMM) {
			if (!amd_enc_kimm(e, v))
				return false;
		} else if (d->kind == AMD_OPK_SIMM16 || d->kind == AMD_OPK_LABEL) {
			if (v->kind != AMD_V_IMM)
				return amd_enc_fail(e, "expected an immediate", NULL);
			int32_t s = (int32_t)v->imm;
			if (s < -32768 || s > 65535)
				return amd_enc_fail(e, "16-bit immediate out of range", NULL);
			simm = (uint32_t)s & 0xffff;
		}
	}
	switch (op->format) {
	case AMD_FMT_SOP2:
		w[0] = 0x80000000u | (unsigned)opc << 23 | dst << 16 | src[1] << 8 | src[0];
		break;
	case AMD_FMT_SOP1:
		/* s_sendmsg_rtn: the message id in the ssrc0 field */
		w[0] = 0xBE800000u | dst << 16 | (unsigned)opc << 8 | (nsrc ? src[0] : simm & 0xff);
		break;
	case AMD_FMT_SOPK:
		w[0] = 0xB0000000u | (unsigned)opc << 23 | dst << 16 | simm;
		break;
	case AMD_FMT_SOPC:
		w[0] = 0xBF000000u | (unsigned)opc << 16 | src[1] << 8 | src[0];
		break;
	default:
		w[0] = 0xBF800000u | (unsigned)opc << 16 | simm;
		break;
	}
	return true;
}

static bool encode_smem(struct enc *e, uint32_t *w)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	unsigned opc = (unsigned)op->opcode[e->gen], sdata = 0, sbase = 0, soff = 0x7f;
	uint32_t imm = 0;
	bool has_imm = false, has_soff = false;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		if (d->kind == AMD_OPK_SDST && !amd_enc_scalar_reg(e, v, d->width, &sdata))
			return false;
		if (d->kind == AMD_OPK_SBASE && !amd_enc_scalar_reg(e, v, d->width, &sbase))
			return false;
		if (d->kind == AMD_OPK_SOFFSET) {
			if (v->kind == AMD_V_IMM) {
				has_imm = true;
				imm = v->imm;
			} else {
				if (!amd_enc_scalar_reg(e, v, 1, &soff))
					return false;
				has_soff = true;
			}
		}
	}
	bool no_addr = op->flags & AMD_F_SMEM_NO_ADDR;
	if (no_addr && in->cpol)
		return amd_enc_fail(e, "cache policy bits not allowed", NULL);
	unsigned glc = in->cpol & AMD_CPOL_GLC, dlc = (in->cpol & AMD_CPOL_DLC) ? 1 : 0;
	if (e->gen <= AMD_GFX940) {
		int32_t s = (int32_t)imm;
		if (has_imm && (s < -(1 << 20) || s >= (1 << 20)))
			return amd_enc_fail(e, "SMEM offset out of range", NULL);
		if (has_soff && (in->offset || in->smem_soe)) { /* soffset register + imm (SOE) */
			has_imm = true;
			imm = (uint32_t)in->offset;
		}
		w[0] = 0xC0000000u | opc << 18 | (has_imm ? 1u : 0) << 17 | glc << 16 |
		       (has_imm && has_soff ? 1u : 0) << 14 | sdata << 6 | sbase >> 1;
		w[1] = has_imm ? (imm & 0x1fffff) | (has_soff ? soff << 25 : 0)
		               : (has_soff ? soff : 0);
		return true;
	}
	unsigned null_code = amd_enc_special_code(e->gen, AMD_SPEC_NULL);
	if (has_soff && in->offset)
		imm = (uint32_t)in->offset;
	if (!has_soff)
		soff = no_addr ? 0 : null_code;
	int32_t s = (int32_t)imm;
	if (e->gen == AMD_GFX12) {
		if (s < -(1 << 23) || s >= (1 << 23))
			return amd_enc_fail(e, "SMEM offset out of range", NULL);
		w[0] = 0xF4000000u | amd_enc_gfx12_cpol(in->cpol) << 21 | opc << 13 | sdata << 6 |
		       sbase >> 1;
		w[1] = ((uint32_t)s & 0xffffff) | soff << 25;
		return true;
	}
	if (s < -(1 << 20) || s >= (1 << 20))
		return amd_enc_fail(e, "SMEM offset out of range", NULL);
	w[0] = 0xF4000000u | opc << 18 | sdata << 6 | sbase >> 1;
	w[0] |= e->gen == AMD_GFX10 ? (glc << 16 | dlc << 14) : (glc << 14 | dlc << 13);
	w[1] = ((uint32_t)s & 0x1fffff) | soff << 25;
	return true;
}

/* Lane-mask operand (vcc in e32, any SGPR/vcc in e64): its scalar code. */
static bool amd_enc_mask_code(struct enc *e, const struct amd_val *v, unsigned *code)
{
	if (v->kind == AMD_V_SPECIAL && (v->reg == AMD_SPEC_VCC || v->reg == AMD_SPEC_EXEC)) {
		*code = amd_enc_special_code(e->gen, v->reg);
		return true;
	}
	return amd_enc_scalar_reg(e, v, amd_enc_wave_mask_width(e), code);
}

/* Input/output modifiers the instruction can take (LLVM rejects the others). */
static bool check_modifiers(struct enc *e, bool vop3, bool vop3b)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	unsigned srcno = 0;
	if (!vop3 && ((!in->sdwa && (in->clamp || in->omod)) || in->op_sel ||
	              (!in->dpp && !in->sdwa && (in->neg || in->abs))))
		return amd_enc_fail(e, "modifiers need the VOP3 encoding", NULL);
	if (in->dpp == 2 && (in->neg || in->abs))
		return amd_enc_fail(e, "DPP8 has no input modifiers", NULL);
	if (op->format == AMD_FMT_VOP3P)
		return true;
	if (vop3b && in->abs)
		return amd_enc_fail(e, "abs is not available in the VOP3B encoding", NULL);
	if (in->clamp && (op->flags & AMD_F_NO_CLAMP))
		return amd_enc_fail(e, "clamp is not available", NULL);
	if ((op->flags & AMD_F_OPSEL_FI_BC) && in->op_sel > 3)
		return amd_enc_fail(e, "op_sel takes two bits (fi, bound_ctrl) here", NULL);
	if (in->omod && !(op->flags & AMD_F_FP_RESULT))
		return amd_enc_fail(e, "output modifier needs a float result", NULL);
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->role != AMD_ROLE_SRC)
			continue;
		bool is_float = d->kind != AMD_OPK_VCC && d->kind != AMD_OPK_SSRC &&
		                amd_dtype_is_float((enum amd_dtype)d->dtype);
		if (((in->neg | in->abs) >> srcno & 1) && !is_float)
			return amd_enc_fail(e, "neg/abs need a floating-point source", NULL);
		srcno++;
	}
	if ((in->neg | in->abs) >> srcno)
		return amd_enc_fail(e, "modifier on a source the instruction does not have", NULL);
	return true;
}

/* VOP3P-MAI (operands already checked by amd_matrix_refusal): acc_cd 15 (C/D are AGPRs),
 * abid 14:11, cbsz 10:8; acc 28:27 (A/B are AGPRs), blgp 31:29 (gfx942 f64: neg). */
static bool encode_mai(struct enc *e, uint32_t *w, unsigned *nw)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	unsigned src[3];
	for (int i = 0; i < 3; i++) {
		const struct amd_val *v = &in->ops[1 + i];
		if (v->kind == AMD_V_VGPR || v->kind == AMD_V_AGPR)
			src[i] = 256u + v->reg;
		else if (!amd_enc_src_code(e, v, &op->opnds[1 + i], false, true, &src[i]))
			return false;
	}
	bool acc_cd = in->ops[0].kind == AMD_V_AGPR;
	unsigned acc =
	        (in->ops[1].kind == AMD_V_AGPR ? 1u : 0) | (in->ops[2].kind == AMD_V_AGPR ? 2u : 0);
	w[0] = 0xD3800000u | (unsigned)op->opcode[e->gen] << 16 | (acc_cd ? 1u : 0) << 15 |
	       (in->abid & 15u) << 11 | (in->cbsz & 7u) << 8 | in->ops[0].reg;
	w[1] = src[0] | src[1] << 9 | src[2] << 18 | acc << 27 | ((in->blgp | in->neg) & 7u) << 29;
	*nw = 2;
	return true;
}

static bool encode_valu(struct enc *e, uint32_t *w, unsigned *nw)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	bool vop3 = amd_uses_vop3(e->gen, op, in);
	bool vop3p = op->format == AMD_FMT_VOP3P;
	bool literal_ok = !(vop3 || vop3p) || e->gen >= AMD_GFX10;
	unsigned vdst = 0, sdst = 0, src[3] = {0, 0, 0}, nsrc = 0;
	bool has_sdst = false;
	bool vop3b = (op->flags & AMD_F_VOP3B) ||
	             (op->flags & AMD_F_CARRY_VCC && amd_enc_find_opnd(op, AMD_OPK_VCC, 0) >= 0 &&
	              op->opnds[amd_enc_find_opnd(op, AMD_OPK_VCC, 0)].role == AMD_ROLE_DST);
	if (vop3 && !vop3p && op->vop3_opcode[e->gen] < 0)
		return amd_enc_fail(e, "no VOP3 (e64) encoding for these operands on",
		                    e->t->info->name);
	if (!check_modifiers(e, vop3 || vop3p, vop3b))
		return false;
	const char *matrix_err = amd_matrix_refusal(e->t, op, in);
	if (matrix_err)
		return amd_enc_fail(e, matrix_err, NULL);
	if (op->flags & AMD_F_MAI)
		return encode_mai(e, w, nw);
	if (op->flags & AMD_F_READS_VCC)
		amd_enc_note_const(e, 106);
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		switch (d->kind) {
		case AMD_OPK_VDST:
			if (!amd_enc_vgpr_reg(e, v, d->width, &vdst))
				return false;
			break;
		case AMD_OPK_SDST:
			if (!amd_enc_scalar_reg(e, v, d->width, &vdst))
				return false;
			break;
		case AMD_OPK_KIMM:
			if (!amd_enc_kimm(e, v))
				return false;
			break;
		case AMD_OPK_VCC:
		case AMD_OPK_MASK_DST:
			if (d->role == AMD_ROLE_DST) {
				if (op->flags & AMD_F_EXEC_DST && e->gen >= AMD_GFX10) {
					sdst = 126;
					break;
				}
				if (!vop3 && !in->sdwa && !amd_enc_is_plain_vcc(e, v))
					return amd_enc_fail(e, "e32 encoding needs vcc here", NULL);
				if (!amd_enc_mask_code(e, v, &sdst))
					return false;
				has_sdst = true;
				break;
			}
			if (!vop3 && !amd_enc_is_plain_vcc(e, v))
				return amd_enc_fail(e, "e32 encoding needs vcc here", NULL);
			if (!amd_enc_mask_code(e, v, &src[nsrc]))
				return false;
			if (!vop3 || src[nsrc] != 253)
				amd_enc_note_const(e, (int)src[nsrc]);
			nsrc++;
			break;
		case AMD_OPK_VGPR:
			if (!vop3 && !vop3p && !(in->sdwa && v->kind != AMD_V_VGPR)) {
				if (!amd_enc_vgpr_reg(e, v, d->width, &src[nsrc]))
					return false;
				src[nsrc++] += 256;
				break;
			}

			__attribute__((fallthrough)); /* VOP3 accepts any source */
		default:
			if (!amd_enc_src_code(e, v, d, literal_ok, true, &src[nsrc]))
				return false;
			nsrc++;
			break;
		}
	}
	if ((in->neg | in->abs | in->neg_hi | in->op_sel) >> nsrc &&
	    !(vop3p && in->op_sel >> nsrc == 1 && nsrc < 3))
		return amd_enc_fail(e, "modifier on a source the instruction does not have", NULL);
	if (e->nconst > amd_const_bus_limit(e->t, e->op))
		return amd_enc_fail(e, "too many scalar operands (constant bus limit)", NULL);
	(void)has_sdst;
	if (vop3p) {
		/* op_sel_hi bits of absent sources stay 1, as LLVM encodes them */
		unsigned all = (1u << (nsrc > 3 ? 3 : nsrc)) - 1;
		unsigned opsel_hi = in->op_sel_hi_set ? (in->op_sel_hi & all) | (7u & ~all) : 7;
		w[0] = (e->gen <= AMD_GFX940 ? 0xD3800000u : 0xCC000000u) |
		       (unsigned)op->opcode[e->gen] << 16 | (in->clamp ? 1u : 0) << 15 |
		       ((opsel_hi >> 2) & 1u) << 14 | (in->op_sel & 7u) << 11 |
		       (in->neg_hi & 7u) << 8 | vdst;
		w[1] = src[0] | src[1] << 9 | src[2] << 18 | (opsel_hi & 3u) << 27 |
		       (in->neg & 7u) << 29;
		*nw = 2;
	} else if (vop3) {
		unsigned opc = (unsigned)op->vop3_opcode[e->gen];
		if (op->format == AMD_FMT_VOPC)
			vdst = sdst;
		w[0] = (e->gen <= AMD_GFX940 ? 0xD0000000u : 0xD4000000u) | opc << 16 |
		       (in->clamp ? 1u : 0) << 15 | vdst;
		if (vop3b)
			w[0] |= sdst << 8;
		else
			w[0] |= (in->op_sel & 15u) << 11 | (in->abs & 7u) << 8;
		w[1] = src[0] | src[1] << 9 | src[2] << 18 | (in->omod & 3u) << 27 |
		       (in->neg & 7u) << 29;
		*nw = 2;
	} else {
		unsigned opc = (unsigned)op->opcode[e->gen];
		if (in->dpp && !amd_enc_dpp(e, src, w, nw))
			return false;
		if (in->sdwa && !amd_enc_sdwa(e, src, sdst, w, nw))
			return false;
		if (op->format == AMD_FMT_VOP1)
			w[0] = 0x7E000000u | vdst << 17 | opc << 9 | src[0];
		else if (op->format == AMD_FMT_VOP2)
			w[0] = opc << 25 | vdst << 17 | (src[1] & 0xff) << 9 | src[0];
		else
			w[0] = 0x7C000000u | opc << 17 | (src[1] & 0xff) << 9 | src[0];
		if (!in->dpp && !in->sdwa)
			*nw = 1;
	}
	return true;
}

unsigned amd_encode(const struct amd_target *t, const struct amd_inst *in, uint32_t out[4],
                    char *err, size_t errlen)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	if (in->row < 0 || (unsigned)in->row >= count) {
		snprintf(err, errlen, "invalid instruction row %d", in->row);
		return 0;
	}
	struct enc e = {.t = t,
	                .gen = t->info->gen,
	                .op = &table[in->row],
	                .in = in,
	                .err = err,
	                .errlen = errlen};
	if (e.op->opcode[e.gen] < 0 && e.op->vop3_opcode[e.gen] < 0) {
		amd_enc_fail(&e, "instruction does not exist on", t->info->name);
		return 0;
	}
	unsigned nw = 1;
	bool ok;
	switch (e.op->format) {
	case AMD_FMT_SOP1:
	case AMD_FMT_SOP2:
	case AMD_FMT_SOPK:
	case AMD_FMT_SOPC:
	case AMD_FMT_SOPP:
		ok = encode_salu(&e, out);
		break;
	case AMD_FMT_SMEM:
		ok = encode_smem(&e, out);
		nw = 2;
		break;
	case AMD_FMT_DS:
		ok = amd_enc_ds(&e, out);
		nw = 2;
		break;
	case AMD_FMT_FLAT:
	case AMD_FMT_GLOBAL:
	case AMD_FMT_SCRATCH:
		ok = amd_enc_flat(&e, out, &nw);
		break;
	case AMD_FMT_MUBUF:
		ok = amd_enc_mubuf(&e, out, &nw);
		break;
	case AMD_FMT_MIMG:
		ok = amd_enc_mimg(&e, out, &nw);
		break;
	case AMD_FMT_VOP1:
	case AMD_FMT_VOP2:
	case AMD_FMT_VOPC:
	case AMD_FMT_VOP3:
	case AMD_FMT_VOP3P:
		ok = encode_valu(&e, out, &nw);
		break;
	case AMD_FMT_VOPD:
		ok = amd_enc_vopd(&e, out);
		nw = 2;
		break;
	default:
		ok = amd_enc_fail(&e, "format not supported by the encoder", NULL);
		break;
	}
	if (!ok)
		return 0;
	if (e.has_literal)
		out[nw++] = e.literal;
	return nw;
}
