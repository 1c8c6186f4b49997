/* VALU encoding extensions: DPP16/DPP8 and SDWA dwords that follow an e32 instruction, and
 * the RDNA dual-issue VOPD pair with llvm-mc-19's register-bank rules.  Part of amd_encode
 * (encode.c dispatches here).  Pure; O(operands). */
#include <string.h>

#include "encode_int.h"

/* DPP: src0 becomes the DPP marker and the real src0 VGPR goes to the extra dword. */
bool amd_enc_dpp(struct enc *e, unsigned *src, uint32_t *w, unsigned *nw)
{
	const struct amd_inst *in = e->in;
	const struct amd_isa_op *op = e->op;
	if (op->format != AMD_FMT_VOP1 && op->format != AMD_FMT_VOP2 && op->format != AMD_FMT_VOPC)
		return amd_enc_fail(e, "DPP needs a VOP1, VOP2 or VOPC instruction", NULL);
	if (op->flags & AMD_F_NO_DPP)
		return amd_enc_fail(e, "no DPP form of this instruction", NULL);
	if (src[0] < 256)
		return amd_enc_fail(e, "DPP src0 must be a VGPR", NULL);
	if (e->has_literal)
		return amd_enc_fail(e, "DPP takes no literal", NULL);
	if (op->format == AMD_FMT_VOPC && e->gen <= AMD_GFX10)
		return amd_enc_fail(e, "no DPP compares on", e->t->info->name);
	for (int i = 0; i < op->nopnds; i++) {
		enum amd_dtype dt = (enum amd_dtype)op->opnds[i].dtype;
		/* gfx11+ 16-bit DPP: only v0-v127 and no input modifiers (as LLVM accepts) */
		if (e->gen >= AMD_GFX11 && (dt == AMD_DT_F16 || dt == AMD_DT_B16) &&
		    ((in->ops[i].kind == AMD_V_VGPR && in->ops[i].reg >= 128) || in->neg ||
		     in->abs))
			return amd_enc_fail(e, "16-bit DPP takes only v0-v127 without modifiers on",
			                    e->t->info->name);
	}
	unsigned v0 = src[0] - 256;
	if (in->dpp == 2) {
		if (e->gen < AMD_GFX10)
			return amd_enc_fail(e, "DPP8 needs gfx10 or later", NULL);
		src[0] = in->fi ? 234 : 233;
		w[1] = (in->dpp8_sel & 0xffffffu) << 8 | v0;
	} else {
		unsigned ctrl = in->dpp_ctrl;
		bool gfx9_only = ctrl == 0x130 || ctrl == 0x134 || ctrl == 0x138 || ctrl == 0x13c ||
		                 ctrl == 0x142 || ctrl == 0x143;
		bool valid = ctrl <= 0xff || (ctrl >= 0x101 && ctrl <= 0x10f) ||
		             (ctrl >= 0x111 && ctrl <= 0x11f) || (ctrl >= 0x121 && ctrl <= 0x12f) ||
		             ctrl == 0x140 || ctrl == 0x141 || gfx9_only ||
		             (e->gen >= AMD_GFX10 && ctrl >= 0x150 && ctrl <= 0x16f);
		if (!valid || (gfx9_only && e->gen >= AMD_GFX10))
			return amd_enc_fail(e, "invalid DPP control for this target", NULL);
		if (in->fi && e->gen < AMD_GFX10)
			return amd_enc_fail(e, "fi needs gfx10 or later", NULL);
		src[0] = 250;
		w[1] = (unsigned)(in->row_mask & 15) << 28 | (unsigned)(in->bank_mask & 15) << 24 |
		       (in->abs >> 1 & 1u) << 23 | (in->neg >> 1 & 1u) << 22 |
		       (in->abs & 1u) << 21 | (in->neg & 1u) << 20 |
		       (in->bound_ctrl ? 1u : 0) << 19 | (in->fi ? 1u : 0) << 18 | ctrl << 8 | v0;
	}
	*nw = 2;
	return true;
}

/* An SDWA scalar source: an SGPR (VCC, SCC as 253) or, with the S bit as for an SGPR,
 * an inline constant (128-208 integers, 240-248 floats; llvm-mc-19 encodes
 * `v_lshlrev_b32_sdwa v6, 2, v1` for gfx90a and gfx1030 so), never a literal. */
static bool sdwa_scalar_ok(unsigned code)
{
	return code <= 208 || code == 253 || (code >= 240 && code <= 248);
}

/* SDWA (gfx9/gfx10): src0 becomes 249 and the sub-dword selects go to the extra dword;
 * src0/src1 may be SGPRs (S0/S1 bits). */
bool amd_enc_sdwa(struct enc *e, unsigned *src, unsigned sdst, uint32_t *w, unsigned *nw)
{
	const struct amd_inst *in = e->in;
	const struct amd_isa_op *op = e->op;
	if (e->gen >= AMD_GFX11)
		return amd_enc_fail(e, "no SDWA on", e->t->info->name);
	if (op->format != AMD_FMT_VOP1 && op->format != AMD_FMT_VOP2 && op->format != AMD_FMT_VOPC)
		return amd_enc_fail(e, "SDWA needs a VOP1, VOP2 or VOPC instruction", NULL);
	if (op->flags & AMD_F_NO_SDWA)
		return amd_enc_fail(e, "no SDWA form of this instruction", NULL);
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].width > 1 || op->opnds[i].kind == AMD_OPK_KIMM)
			return amd_enc_fail(e, "no SDWA form of this instruction", NULL);
	if (in->dst_sel > 6 || in->src_sel[0] > 6 || in->src_sel[1] > 6 || in->dst_unused > 2)
		return amd_enc_fail(e, "invalid SDWA select", NULL);
	if (in->omod && e->gen >= AMD_GFX10)
		return amd_enc_fail(e, "no output modifier with SDWA on", e->t->info->name);
	if (e->has_literal)
		return amd_enc_fail(e, "SDWA takes no literal", NULL);
	if (op->flags & AMD_F_TIED_DST)
		return amd_enc_fail(e, "no SDWA form of this instruction", NULL);
	int vcc_at = amd_enc_find_opnd(op, AMD_OPK_VCC, 0);
	if (in->sext && vcc_at >= 0 && op->opnds[vcc_at].role == AMD_ROLE_SRC) /* v_cndmask */
		return amd_enc_fail(e, "sext is not available here", NULL);
	unsigned s0 = src[0], s1 = src[1];
	bool s0_scalar = s0 < 256, s1_scalar = op->format != AMD_FMT_VOP1 && s1 < 256;
	if ((s0_scalar && !sdwa_scalar_ok(s0)) || (s1_scalar && !sdwa_scalar_ok(s1)))
		return amd_enc_fail(e, "SDWA sources must be registers or inline constants", NULL);
	src[0] = 249;
	w[1] = (s0 & 0xff) | (unsigned)in->src_sel[0] << 16 | (in->sext & 1u) << 19 |
	       (in->neg & 1u) << 20 | (in->abs & 1u) << 21 | (s0_scalar ? 1u : 0) << 23;
	if (op->format != AMD_FMT_VOP1) /* VOP1 leaves the src1 fields zero */
		w[1] |= (unsigned)in->src_sel[1] << 24 | (in->sext >> 1 & 1u) << 27 |
		        (in->neg >> 1 & 1u) << 28 | (in->abs >> 1 & 1u) << 29 |
		        (s1_scalar ? 1u : 0) << 31;
	if (op->format == AMD_FMT_VOPC) {
		/* vcc (or gfx10+ v_cmpx's exec) is implicit: SD = 0 */
		bool vcc = sdst == 106 || (op->flags & AMD_F_EXEC_DST && e->gen >= AMD_GFX10);
		w[1] |= (vcc ? 0u : (sdst | 0x80u)) << 8;
	} else {
		w[1] |= (unsigned)in->dst_sel << 8 | (unsigned)in->dst_unused << 11 |
		        (in->clamp ? 1u : 0) << 13 | (unsigned)(in->omod & 3) << 14;
	}
	if (s1_scalar)
		src[1] = s1 + 256; /* the e32 packing keeps the low 8 bits in vsrc1 */
	*nw = 2;
	return true;
}

/* One VOPD half: src0 code, vsrc1 VGPR (or -1), vdst; literal K shared with the other half. */
static bool vopd_half(struct enc *e, const struct amd_isa_op *op, const struct amd_val *ops,
                      unsigned *src0, int *vsrc1, unsigned *vdst)
{
	struct enc sub = *e;
	sub.op = op;
	*vsrc1 = -1;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		unsigned code;
		switch (d->kind) {
		case AMD_OPK_VDST:
			if (!amd_enc_vgpr_reg(&sub, &ops[i], 1, vdst))
				goto failed;
			break;
		case AMD_OPK_KIMM:
			if (!amd_enc_kimm(&sub, &ops[i]))
				goto failed;
			break;
		case AMD_OPK_VGPR:
			if (!amd_enc_vgpr_reg(&sub, &ops[i], 1, &code))
				goto failed;
			*vsrc1 = (int)code;
			break;
		default:
			if (!amd_enc_src_code(&sub, &ops[i], d, true, true, src0))
				goto failed;
			break;
		}
	}
	e->has_literal = sub.has_literal, e->literal = sub.literal;
	e->nconst = sub.nconst;
	memcpy(e->const_regs, sub.const_regs, sizeof e->const_regs);
	return true;
failed:
	return false;
}

/* RDNA dual issue: X and Y halves in one 64-bit word pair (plus a shared literal).  The
 * register-bank rules are those llvm-mc-19 enforces. */
bool amd_enc_vopd(struct enc *e, uint32_t *w)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count), *ox = e->op;
	const struct amd_inst *in = e->in;
	if (!in->dual || in->row_y < 0 || (unsigned)in->row_y >= count ||
	    table[in->row_y].format != AMD_FMT_VOPD)
		return amd_enc_fail(e, "a dual-issue instruction needs its Y half (v_dual_...)",
		                    NULL);
	const struct amd_isa_op *oy = &table[in->row_y];
	int cx = ox->opcode[e->gen], cy = oy->opcode[e->gen];
	if (cy < 0)
		return amd_enc_fail(e, "Y half does not exist on", e->t->info->name);
	if (cx >= 16)
		return amd_enc_fail(e, "this operation exists only as the Y half", NULL);
	unsigned src0x = 0, src0y = 0, vdstx = 0, vdsty = 0;
	int v1x, v1y;
	if ((ox->flags | oy->flags) & AMD_F_READS_VCC)
		amd_enc_note_const(e, 106);
	if (!vopd_half(e, ox, in->ops, &src0x, &v1x, &vdstx) ||
	    !vopd_half(e, oy, in->ops_y, &src0y, &v1y, &vdsty))
		return false;
	if ((vdstx & 1) == (vdsty & 1))
		return amd_enc_fail(e, "the two destinations must be one even and one odd VGPR",
		                    NULL);
	/* gfx12 lets two moves read the same bank (what llvm-mc-19 accepts) */
	bool two_moves = e->gen >= AMD_GFX12 && cx == 8 && cy == 8;
	if (!two_moves && src0x >= 256 && src0y >= 256 && (src0x & 3) == (src0y & 3))
		return amd_enc_fail(e, "src0 operands of both halves use the same VGPR bank", NULL);
	if (v1x >= 0 && v1y >= 0 && (v1x & 3) == (v1y & 3))
		return amd_enc_fail(e, "vsrc1 operands of both halves use the same VGPR bank",
		                    NULL);
	if (e->nconst > 2)
		return amd_enc_fail(e, "too many scalar operands for dual issue", NULL);
	w[0] = 0xC8000000u | (unsigned)cx << 22 | (unsigned)cy << 17 |
	       (unsigned)(v1x < 0 ? 0 : v1x) << 9 | src0x;
	w[1] = src0y | (unsigned)(v1y < 0 ? 0 : v1y) << 9 | (vdsty >> 1) << 17 | vdstx << 24;
	return true;
}
