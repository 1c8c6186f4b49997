/* The modifier and operand rules of the matrix rows (MFMA, WMMA) and the packed dot products,
 * shared by the encoder (amd_encode) and amd_inst_legal so that both refuse the same
 * instances with the same words.  What LLVM accepts and amdsim does not execute is refused
 * by name here (docs/ENCODING.md lists them).  Pure; O(1). */
#include <string.h>

#include "isa.h"

/* srcA/srcB of a matrix row are VGPRs, srcC a VGPR tuple or an inline constant (no SGPR, no
 * literal). */
static bool is_vreg(const struct amd_val *v, bool agpr_ok)
{
	return v->kind == AMD_V_VGPR || (agpr_ok && v->kind == AMD_V_AGPR);
}

static const char *matrix_src_c(const struct amd_isa_op *op, const struct amd_inst *in)
{
	const struct amd_val *c = &in->ops[3];
	bool agpr_ok = op->flags & AMD_F_MAI;
	if (!is_vreg(&in->ops[1], agpr_ok) || !is_vreg(&in->ops[2], agpr_ok))
		return agpr_ok ? "MFMA srcA and srcB must be VGPRs or AGPRs"
		               : "matrix srcA and srcB must be VGPRs";
	if (c->kind == AMD_V_AGPR && agpr_ok)
		return in->ops[0].kind == AMD_V_AGPR ? NULL
		                                     : "MFMA srcC and the destination must both be "
		                                       "VGPRs or both AGPRs";
	if (c->kind == AMD_V_VGPR && in->ops[0].kind == AMD_V_AGPR)
		return "MFMA srcC and the destination must both be VGPRs or both AGPRs";
	if (c->kind == AMD_V_VGPR)
		return NULL;
	if (c->kind == AMD_V_IMM &&
	    amd_inline_code((enum amd_dtype)op->opnds[3].dtype, c->imm) >= 0)
		return NULL;
	return "matrix srcC must be a VGPR tuple or an inline constant";
}

static const char *mfma_refusal(enum amd_gen gen, const struct amd_isa_op *op,
                                const struct amd_inst *in)
{
	const struct amd_matrix_info *mi = amd_isa_matrix((enum amd_opcode)(op - amd_isa_rows));
	bool f64_neg = gen == AMD_GFX940 && mi && mi->ab_type == AMD_MT_F64;
	if (in->clamp || in->op_sel || in->neg_hi || in->op_sel_hi_set || in->abs || in->omod)
		return "MFMA takes no clamp, op_sel, op_sel_hi or neg_hi";
	if (in->cbsz > 7 || in->abid > 15 || in->blgp > 7)
		return "cbsz (0-7), abid (0-15) or blgp (0-7) out of range";
	/* AMD's Matrix Instruction Calculator: cbsz <= log2(blocks), abid < 2^cbsz (LLVM takes
	 * more; what the hardware does then is not documented) */
	if (mi && ((1u << in->cbsz) > mi->blocks || in->abid >= (1u << in->cbsz)))
		return "cbsz must be at most log2(blocks) and abid below 2^cbsz";
	if (f64_neg && in->blgp)
		return "gfx942 f64 MFMA has neg:[a,b,c] in place of blgp";
	if (in->neg && !f64_neg)
		return "neg is only available on gfx942's f64 MFMA";
	if (in->neg > 7)
		return "neg on a source the instruction does not have";
	for (int i = 0; i < 4; i++) { /* register tuples: in range, 64-bit aligned */
		const struct amd_val *v = &in->ops[i];
		unsigned w = op->opnds[i].width;
		if (v->kind != AMD_V_VGPR && v->kind != AMD_V_AGPR)
			continue;
		if (v->reg + w > 256)
			return "MFMA register operand out of range";
		if (w >= 2 && (v->reg & 1))
			return "misaligned VGPR/AGPR tuple";
	}
	/* LLVM: a C/D of more than 4 registers is either D itself or apart from it */
	const struct amd_val *d = &in->ops[0], *c = &in->ops[3];
	unsigned n = op->opnds[0].width;
	if (n > 4 && c->kind == d->kind && (c->kind == AMD_V_VGPR || c->kind == AMD_V_AGPR) &&
	    c->reg != d->reg && c->reg < d->reg + n && d->reg < c->reg + n)
		return "srcC must not partially overlap the destination";
	return matrix_src_c(op, in);
}

static const char *wmma_refusal(const struct amd_target *t, const struct amd_isa_op *op,
                                const struct amd_inst *in)
{
	const struct amd_matrix_info *mi = amd_isa_matrix((enum amd_opcode)(op - amd_isa_rows));
	bool integer = mi && mi->cd_type == AMD_MT_I32;
	bool half_result = mi && (mi->cd_type == AMD_MT_F16 || mi->cd_type == AMD_MT_BF16);
	if (t->wave_size != 32)
		return "WMMA is supported in wave32 only";
	if (in->cbsz || in->abid || in->blgp || in->abs || in->omod || in->op_sel_hi_set)
		return "WMMA takes no cbsz, abid, blgp, abs, omod or op_sel_hi";
	if (in->clamp && !integer)
		return "clamp is only available on the integer WMMA forms";
	if (integer && (in->neg > 3 || in->neg_hi))
		return "integer WMMA: neg_lo bits 0/1 (signed A/B) only";
	if (!integer && (in->neg > 3 || in->neg_hi > 3))
		return "float WMMA: neg_lo/neg_hi name A/B only (not C)";
	if (in->op_sel && !(in->op_sel == 4 && half_result && t->info->gen == AMD_GFX11))
		return "op_sel is only op_sel:[0,0,1] of gfx11's 16-bit-result WMMA";
	return matrix_src_c(op, in);
}

static const char *dot_refusal(const struct amd_isa_op *op, const struct amd_inst *in)
{
	if (op->flags & AMD_F_TIED_DST && (in->neg || in->abs || in->clamp || in->omod))
		return "v_dot2c/v_dot4c: neg, abs, clamp and omod are not supported";
	if (in->op_sel || in->op_sel_hi_set || in->neg_hi || in->abs || in->omod)
		return "packed dot product: op_sel, op_sel_hi and neg_hi are not supported";
	if (in->neg && !((op->flags & AMD_F_IU_SIGN) && in->neg <= 3))
		return "packed dot product: neg_lo only as the signedness bits of _iu8/_iu4";
	return NULL;
}

unsigned amd_mtype_bits(enum amd_mtype t)
{
	switch (t) {
	case AMD_MT_F16:
	case AMD_MT_BF16:
		return 16;
	case AMD_MT_I8:
	case AMD_MT_IU8:
	case AMD_MT_FP8:
	case AMD_MT_BF8:
		return 8;
	case AMD_MT_IU4:
		return 4;
	case AMD_MT_F64:
		return 64;
	default:
		return 32;
	}
}

/* Element e (of `bits` bits) of a lane's register tuple as (register, index in register). */
static void split_elem(unsigned e, unsigned bits, struct amd_matrix_place *p)
{
	if (bits >= 32) {
		p->reg = (uint8_t)(e * (bits / 32)), p->elem = 0;
		return;
	}
	p->reg = (uint8_t)(e / (32 / bits)), p->elem = (uint8_t)(e % (32 / bits));
}

bool amd_matrix_place(const struct amd_target *t, enum amd_opcode op, enum amd_matrix_operand which,
                      unsigned row, unsigned col, unsigned block, struct amd_matrix_place *out)
{
	const struct amd_matrix_info *mi = amd_isa_matrix(op);
	enum amd_gen gen = t->info->gen;
	if (!mi || mi->passes[gen] == 0 || block >= mi->blocks)
		return false;
	unsigned m = mi->m, n = mi->n, k = mi->k, blocks = mi->blocks;
	bool input = which != AMD_MATRIX_CD;
	unsigned outer = which == AMD_MATRIX_A ? row : col, kk = which == AMD_MATRIX_A ? col : row;
	if (input ? (outer >= (which == AMD_MATRIX_A ? m : n) || kk >= k) : (row >= m || col >= n))
		return false;
	unsigned bits = amd_mtype_bits((enum amd_mtype)(input ? mi->ab_type : mi->cd_type));
	if (gen <= AMD_GFX940) { /* MFMA (AMD Matrix Instruction Calculator, CDNA rules) */
		if (input) {
			unsigned kpl = k * m * blocks / 64;
			out->lane = (uint8_t)(block * m + (kk / kpl) * m * blocks + outer);
			split_elem(kk % kpl, bits, out);
			return true;
		}
		unsigned h = bits == 64 ? 1 : 4, groups = 64 / n, per_block = m * n / h;
		unsigned bpr = per_block >= 64 ? 1 : 64 / per_block;
		unsigned e = block * (m * n / 64) + (row / (h * groups)) * h + row % h;
		out->lane = (uint8_t)((block % bpr) * n + ((row / h) % groups) * bpr * n + col);
		split_elem(e, bits, out);
		return true;
	}
	bool gfx11 = gen == AMD_GFX11;
	if (input) { /* WMMA: gfx11 every k in lanes 0-15 (and 16-31), gfx12 K split */
		unsigned half = k / 2;
		out->lane = (uint8_t)(gfx11 ? outer : outer + 16 * (kk / half));
		split_elem(gfx11 ? kk : kk % half, bits, out);
		return true;
	}
	if (gfx11) { /* one element per register, 16-bit ones in the low half (op_sel 0) */
		out->lane = (uint8_t)(16 * (row % 2) + col), out->reg = (uint8_t)(row / 2),
		out->elem = 0;
		return true;
	}
	out->lane = (uint8_t)(col + 16 * (row / 8));
	split_elem(row % 8, bits, out);
	return true;
}

const char *amd_matrix_refusal(const struct amd_target *t, const struct amd_isa_op *op,
                               const struct amd_inst *in)
{
	if (op->flags & AMD_F_MAI)
		return mfma_refusal(t->info->gen, op, in);
	if (op->flags & AMD_F_WMMA)
		return wmma_refusal(t, op, in);
	if ((op->format == AMD_FMT_VOP3P || op->format == AMD_FMT_VOP2) &&
	    !strncmp(op->name, "v_dot", 5))
		return dot_refusal(op, in);
	if (in->cbsz || in->abid || in->blgp)
		return "cbsz, abid and blgp are MFMA modifiers";
	for (int i = 0; i < op->nopnds; i++)
		if (in->ops[i].kind == AMD_V_AGPR)
			return "AGPR operands are supported on MFMA only";
	return NULL;
}
