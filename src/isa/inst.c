/* Facts about instruction instances that need no encoding: which inline constant a value
 * is, and whether a VALU instance takes its VOP3 (e64) form.  The encoder, the legality
 * query and the compiler's passes share them so they cannot disagree.  Pure; O(operands). */
#include "amd_inst.h"

int amd_inline_code(enum amd_dtype dtype, uint32_t bits)
{
	static const uint32_t f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
	                                0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
	static const uint32_t f64hi[8] = {0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000,
	                                  0x40000000, 0xc0000000, 0x40100000, 0xc0100000};
	static const uint16_t f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
	                                0xc000, 0x4400, 0xc400, 0x3118};
	int32_t sval = (int32_t)bits;
	if (dtype == AMD_DT_F16 || dtype == AMD_DT_B16 || dtype == AMD_DT_BF16) {
		if (bits > 0xffff && (bits >> 16) != 0xffff)
			return -1;
		sval = (int16_t)(bits & 0xffff);
	}
	if (sval >= 0 && sval <= 64)
		return 128 + sval;
	if (sval >= -16 && sval < 0)
		return 192 - sval;
	for (int i = 0; i < 9; i++) {
		if ((dtype == AMD_DT_F16 || dtype == AMD_DT_B16) && bits == f16[i])
			return 240 + i;
		if ((dtype == AMD_DT_F32 || dtype == AMD_DT_B32) && bits == f32[i])
			return 240 + i;
		if ((dtype == AMD_DT_F64 || dtype == AMD_DT_B64) && i < 8 && bits == f64hi[i] &&
		    dtype == AMD_DT_F64)
			return 240 + i;
	}
	return -1;
}

bool amd_uses_vop3(enum amd_gen gen, const struct amd_isa_op *op, const struct amd_inst *in)
{
	if (op->format == AMD_FMT_VOP3)
		return true;
	if (op->format != AMD_FMT_VOP1 && op->format != AMD_FMT_VOP2 && op->format != AMD_FMT_VOPC)
		return false;
	if (op->opcode[gen] < 0 || in->enc == AMD_ENC_E64)
		return true;
	if (in->enc == AMD_ENC_E32 || in->dpp || in->sdwa)
		return false;
	if (in->neg || in->abs || in->clamp || in->omod || in->op_sel)
		return true;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_val *v = &in->ops[i];
		enum amd_dtype dt = (enum amd_dtype)op->opnds[i].dtype;
		/* gfx11+ e32 encodings address 16-bit values as v0-v127 halves */
		if (gen >= AMD_GFX11 && (dt == AMD_DT_F16 || dt == AMD_DT_B16) &&
		    v->kind == AMD_V_VGPR && v->reg >= 128)
			return true;
		if (op->opnds[i].kind == AMD_OPK_VCC &&
		    !(v->kind == AMD_V_SPECIAL &&
		      (v->reg == AMD_SPEC_VCC || v->reg == AMD_SPEC_VCC_LO)))
			return true;
		if (op->opnds[i].kind == AMD_OPK_VGPR && v->kind != AMD_V_VGPR)
			return true;
	}
	return false;
}
