/* Image-instruction encodings (AMD_FMT_MIMG rows): the 64-bit MIMG form of gfx9 (gfx90a),
 * gfx10 (gfx1030) and gfx11 (gfx1100) with a contiguous address tuple (no NSA), and gfx12's
 * 96-bit VIMAGE (no sampler) and VSAMPLE (with one) forms, whose four address fields take
 * consecutive VGPRs (the last one starting the rest of the tuple).  Field layouts: AMD's
 * ISA manuals (MIMG / VIMAGE / VSAMPLE microcode formats); llvm-mc-19 is the judge
 * (tests/encode conformance).  The count and modifier rules are amd_image_refusal's
 * (src/isa/image.c).  Part of amd_encode (encode.c dispatches here).  Pure; O(operands). */
#include "encode_int.h"
#include "isa/isa.h"

struct image_fields {
	unsigned vdata, vaddr, srsrc, ssamp;
	bool has_ssamp;
};

static bool image_operands(struct enc *e, struct image_fields *f)
{
	const struct amd_isa_op *op = e->op;
	unsigned nv = 0;
	*f = (struct image_fields){0};
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &e->in->ops[i];
		unsigned width = v->width ? v->width : d->width;
		bool ok = true;
		switch (d->kind) {
		case AMD_OPK_VDST:
		case AMD_OPK_VGPR:
			ok = amd_enc_vgpr_reg(e, v, width, nv++ == 0 ? &f->vdata : &f->vaddr);
			break;
		case AMD_OPK_SRSRC:
			ok = amd_enc_scalar_reg(e, v, d->width, &f->srsrc);
			break;
		case AMD_OPK_SSAMP:
			ok = amd_enc_scalar_reg(e, v, 4, &f->ssamp);
			f->has_ssamp = true;
			break;
		default:
			break;
		}
		if (!ok)
			return false;
		if ((d->kind == AMD_OPK_SRSRC || d->kind == AMD_OPK_SSAMP) && v->kind != AMD_V_SGPR)
			return amd_enc_fail(e, "image descriptors must be SGPRs", NULL);
	}
	return true;
}

/* gfx12: VIMAGE (opcode prefix 0x34) or VSAMPLE (0x39); addresses in four byte fields. */
static void encode_gfx12(struct enc *e, const struct image_fields *f, unsigned naddr, uint32_t *w)
{
	const struct amd_inst *in = e->in;
	unsigned opc = (unsigned)e->op->opcode[e->gen];
	w[0] = (f->has_ssamp ? 0xE4000000u : 0xD0000000u) | (unsigned)in->dmask << 22 | opc << 14 |
	       (in->unorm ? 1u : 0) << 13 | in->dim;
	w[1] = f->vdata | f->srsrc << 9 | amd_enc_gfx12_cpol(in->cpol) << 18 |
	       (f->has_ssamp ? f->ssamp << 23 : 0);
	w[2] = 0;
	for (unsigned i = 0; i < naddr && i < 4; i++)
		w[2] |= (f->vaddr + i) << (8 * i);
}

bool amd_enc_mimg(struct enc *e, uint32_t *w, unsigned *nw)
{
	const struct amd_inst *in = e->in;
	struct image_fields f;
	if (!image_operands(e, &f))
		return false;
	const char *why = amd_image_refusal(e->t, e->op, in);
	if (why)
		return amd_enc_fail(e, why, NULL);
	unsigned naddr = amd_image_addr_count(e->op, in->dim);
	if (e->gen == AMD_GFX12) {
		encode_gfx12(e, &f, naddr, w);
		*nw = 3;
		return true;
	}
	unsigned opc = (unsigned)e->op->opcode[e->gen], cp = in->cpol;
	unsigned glc = cp & AMD_CPOL_GLC ? 1 : 0, slc = cp & AMD_CPOL_SLC ? 1 : 0,
	         dlc = cp & AMD_CPOL_DLC ? 1 : 0, unorm = in->unorm ? 1 : 0;
	*nw = 2;
	w[0] = 0xF0000000u | (unsigned)in->dmask << 8;
	w[1] = f.vaddr | f.vdata << 8 | (f.srsrc >> 2) << 16;
	if (e->gen == AMD_GFX11) {
		w[0] |= opc << 18 | glc << 14 | dlc << 13 | slc << 12 | unorm << 7 |
		        (unsigned)in->dim << 2;
		w[1] |= (f.ssamp >> 2) << 26;
		return true;
	}
	w[0] |= opc << 18 | slc << 25 | glc << 13 | unorm << 12;
	w[1] |= (f.ssamp >> 2) << 21;
	if (e->gen == AMD_GFX10) {
		w[0] |= dlc << 7 | (unsigned)in->dim << 3;
		return true;
	}
	/* gfx9: the address holds a slice (or cube face): `da` */
	bool da = in->dim == 3 || in->dim == 4 || in->dim == 5;
	w[0] |= (da ? 1u : 0) << 14;
	return true;
}
