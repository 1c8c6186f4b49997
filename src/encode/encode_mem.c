/* Memory-instruction encodings: DS, FLAT/GLOBAL/SCRATCH (gfx9/10/11 64-bit forms, gfx12
 * 96-bit VFLAT/VGLOBAL/VSCRATCH) and MUBUF (gfx12 96-bit VBUFFER), each with its offset range
 * and cache-policy bits per generation.  Part of amd_encode (encode.c dispatches here).
 * Pure; O(operands). */
#include <stdio.h>
#include <string.h>

#include "encode_int.h"

/* Collects VGPR fields of a memory instruction: destination, address, data0, data1. */
struct mem_fields {
	unsigned vdst, addr, data0, data1, saddr, srsrc, soff;
	bool has_vdst, addr_off, saddr_off, soff_set;
	unsigned naddr_width;
};

static bool mem_operands(struct enc *e, struct mem_fields *m)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	unsigned nv = 0;
	memset(m, 0, sizeof *m);
	m->saddr_off = amd_enc_find_opnd(op, AMD_OPK_SADDR, 0) < 0;
	/* MUBUF stores and atomics name their data before the address */
	if (op->format == AMD_FMT_MUBUF && amd_enc_find_opnd(op, AMD_OPK_VDST, 0) < 0)
		nv = 3;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		unsigned width = v->width ? v->width : d->width, code = 0;
		switch (d->kind) {
		case AMD_OPK_VDST:
			if (!amd_enc_vgpr_reg(e, v, width, &m->vdst))
				return false;
			m->has_vdst = true;
			break;
		case AMD_OPK_VGPR:
			if (v->kind == AMD_V_OFF && (nv == 0 || nv == 4)) {
				m->addr_off = true;
				nv = nv == 4 ? 5 : 1;
				break;
			}
			if (!amd_enc_vgpr_reg(e, v, width, &code))
				return false;
			if (nv == 3)
				m->data0 = code;
			else if (nv == 0 || nv == 4)
				m->addr = code, m->naddr_width = width;
			else if (nv == 1)
				m->data0 = code;
			else
				m->data1 = code;
			nv = nv == 4 ? 5 : nv + 1;
			break;
		case AMD_OPK_SADDR:
			if (v->kind == AMD_V_OFF || v->kind == AMD_V_NONE)
				m->saddr_off = true;
			else if (!amd_enc_scalar_reg(e, v, op->format == AMD_FMT_SCRATCH ? 1 : 2,
			                             &m->saddr))
				return false;
			break;
		case AMD_OPK_SRSRC:
			if (!amd_enc_scalar_reg(e, v, 4, &m->srsrc))
				return false;
			break;
		case AMD_OPK_SOFFSET:
			if (v->kind == AMD_V_IMM && e->gen >= AMD_GFX12)
				return amd_enc_fail(e,
				                    "buffer soffset must be an SGPR, m0 or null on",
				                    "gfx12");
			if (v->kind == AMD_V_IMM) {
				int c = amd_inline_code(AMD_DT_B32, v->imm);
				if (c < 0 || c > 192)
					return amd_enc_fail(
					        e,
					        "buffer soffset must be an SGPR or inline integer",
					        NULL);
				m->soff = (unsigned)c;
			} else if (!amd_enc_scalar_reg(e, v, 1, &m->soff)) {
				return false;
			}
			m->soff_set = true;
			break;
		default:
			break;
		}
	}
	if (in->rtn.kind != AMD_V_NONE && op->format == AMD_FMT_MUBUF)
		return amd_enc_fail(
		        e, "buffer atomics return through vdata (set glc, no separate return)",
		        NULL);
	if (in->rtn.kind != AMD_V_NONE) {
		if (!(op->flags & AMD_F_ATOMIC))
			return amd_enc_fail(e, "only atomics return a value", NULL);
		if (!amd_enc_vgpr_reg(e, &in->rtn, in->rtn.width ? in->rtn.width : 1, &m->vdst))
			return false;
		m->has_vdst = true;
	}
	return true;
}

bool amd_enc_ds(struct enc *e, uint32_t *w)
{
	const struct amd_inst *in = e->in;
	struct mem_fields m;
	if (!mem_operands(e, &m))
		return false;
	unsigned off;
	if (e->op->flags & AMD_F_DS_2ADDR) {
		if (in->offset < 0 || in->offset > 255)
			return amd_enc_fail(e, "offset0 out of range (0..255)", NULL);
		off = (unsigned)in->offset | (unsigned)in->offset1 << 8;
	} else {
		if (in->offset < 0 || in->offset > 65535)
			return amd_enc_fail(e, "DS offset out of range (0..65535)", NULL);
		off = (unsigned)in->offset;
	}
	unsigned opc = (unsigned)e->op->opcode[e->gen];
	w[0] = 0xD8000000u | off;
	w[0] |= e->gen <= AMD_GFX940 ? (opc << 17 | (in->gds ? 1u : 0) << 16)
	                             : (opc << 18 | (in->gds ? 1u : 0) << 17);
	w[1] = m.addr | m.data0 << 8 | m.data1 << 16 | m.vdst << 24;
	return true;
}

static bool check_offset(struct enc *e, int32_t off, int bits, bool is_signed)
{
	int32_t lo = is_signed ? -(1 << (bits - 1)) : 0;
	int32_t hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
	if (off < lo || off > hi) {
		char b[48];
		snprintf(b, sizeof b, "(%d..%d)", lo, hi);
		return amd_enc_fail(e, "offset out of range", b);
	}
	return true;
}

bool amd_enc_flat(struct enc *e, uint32_t *w, unsigned *nw)
{
	const struct amd_isa_op *op = e->op;
	const struct amd_inst *in = e->in;
	struct mem_fields m;
	if (!mem_operands(e, &m))
		return false;
	unsigned seg = op->format == AMD_FMT_FLAT ? 0 : op->format == AMD_FMT_SCRATCH ? 1 : 2;
	unsigned opc = (unsigned)op->opcode[e->gen];
	bool is_flat = op->format == AMD_FMT_FLAT;
	bool sve = op->format == AMD_FMT_SCRATCH && !m.addr_off;
	unsigned cp = in->cpol;
	if (e->gen == AMD_GFX12) {
		unsigned saddr = m.saddr_off || is_flat ? 0x7c : m.saddr;
		if (!check_offset(e, in->offset, 24, true))
			return false;
		w[0] = 0xEC000000u | seg << 24 | opc << 14 | saddr;
		w[1] = m.vdst | m.data0 << 23 | amd_enc_gfx12_cpol(cp) << 18 | (sve ? 1u : 0) << 17;
		w[2] = m.addr | ((uint32_t)in->offset & 0xffffff) << 8;
		*nw = 3;
		return true;
	}
	unsigned off_code = e->gen == AMD_GFX10 ? 0x7d : e->gen == AMD_GFX11 ? 0x7c : 0x7f;
	unsigned saddr = m.saddr_off ? off_code : m.saddr;
	if (is_flat)
		saddr = e->gen <= AMD_GFX940 ? 0 : off_code;
	*nw = 2;
	w[1] = m.addr | m.data0 << 8 | saddr << 16 | m.vdst << 24;
	if (e->gen == AMD_GFX11) {
		if (!check_offset(e, in->offset, 13, !is_flat) ||
		    (is_flat && !check_offset(e, in->offset, 12, false)))
			return false;
		w[0] = 0xDC000000u | opc << 18 | seg << 16 | ((cp & AMD_CPOL_SLC) ? 1u : 0) << 15 |
		       (cp & AMD_CPOL_GLC) << 14 | ((cp & AMD_CPOL_DLC) ? 1u : 0) << 13 |
		       ((uint32_t)in->offset & 0x1fff);
		w[1] |= (sve ? 1u : 0) << 23;
		return true;
	}
	if (e->gen == AMD_GFX10) {
		if (!check_offset(e, in->offset, 12, !is_flat) ||
		    (is_flat && !check_offset(e, in->offset, 11, false)))
			return false;
		w[0] = 0xDC000000u | opc << 18 | ((cp & AMD_CPOL_SLC) ? 1u : 0) << 17 |
		       (cp & AMD_CPOL_GLC) << 16 | seg << 14 |
		       ((cp & AMD_CPOL_DLC) ? 1u : 0) << 12 | ((uint32_t)in->offset & 0xfff);
		return true;
	}
	if (!check_offset(e, in->offset, 13, !is_flat) ||
	    (is_flat && !check_offset(e, in->offset, 12, false)))
		return false;
	w[0] = 0xDC000000u | opc << 18 | ((cp & AMD_CPOL_SLC) ? 1u : 0) << 17 |
	       (cp & AMD_CPOL_GLC) << 16 | seg << 14 | ((uint32_t)in->offset & 0x1fff);
	if (e->gen == AMD_GFX940) {
		w[0] |= ((cp & AMD_CPOL_SC1) ? 1u : 0) << 25;
		w[0] |= (sve ? 1u : 0) << 13;
	}
	return true;
}

bool amd_enc_mubuf(struct enc *e, uint32_t *w, unsigned *nw)
{
	const struct amd_inst *in = e->in;
	struct mem_fields m;
	if (!mem_operands(e, &m))
		return false;
	unsigned opc = (unsigned)e->op->opcode[e->gen], cp = in->cpol;
	unsigned vdata = m.has_vdst ? m.vdst : m.data0;
	if (e->op->flags & AMD_F_STORE && !(e->op->flags & AMD_F_ATOMIC))
		vdata = m.data0;
	if (e->op->nopnds == 0) { /* cache control: opcode and cache bits only */
		if (in->cpol && (!(e->op->flags & AMD_F_CACHE_CPOL) || e->gen != AMD_GFX940))
			return amd_enc_fail(e, "cache policy bits not allowed", NULL);
		m.addr_off = !(in->offen || in->idxen);
		if (e->gen == AMD_GFX12)
			return amd_enc_fail(e, "no buffer cache-control instructions on", "gfx12");
	}
	if ((in->offen || in->idxen) == m.addr_off)
		return amd_enc_fail(e, "vaddr must be given exactly when offen or idxen is set",
		                    NULL);
	if (e->gen == AMD_GFX12) {
		if (!check_offset(e, in->offset, 23, false))
			return false;
		unsigned soff = m.soff_set ? m.soff : 0x7c;
		w[0] = 0xC4000000u | opc << 14 | soff;
		w[1] = (in->idxen ? 1u : 0) << 31 | (in->offen ? 1u : 0) << 30 | 1u << 23 |
		       amd_enc_gfx12_cpol(cp) << 18 | (m.srsrc) << 9 | vdata;
		w[2] = m.addr | ((uint32_t)in->offset & 0xffffff) << 8;
		*nw = 3;
		return true;
	}
	if (!check_offset(e, in->offset, 12, false))
		return false;
	unsigned glc = cp & AMD_CPOL_GLC, slc = (cp & AMD_CPOL_SLC) ? 1 : 0,
	         dlc = (cp & AMD_CPOL_DLC) ? 1 : 0;
	*nw = 2;
	w[1] = m.addr | vdata << 8 | (m.srsrc >> 2) << 16 | m.soff << 24;
	if (e->gen == AMD_GFX11) {
		w[0] = 0xE0000000u | opc << 18 | glc << 14 | dlc << 13 | slc << 12 |
		       (unsigned)in->offset;
		w[1] |= (in->idxen ? 1u : 0) << 23 | (in->offen ? 1u : 0) << 22;
		return true;
	}
	w[0] = 0xE0000000u | opc << 18 | glc << 14 | (in->idxen ? 1u : 0) << 13 |
	       (in->offen ? 1u : 0) << 12 | (unsigned)in->offset;
	if (e->gen == AMD_GFX10)
		w[0] |= dlc << 15, w[1] |= slc << 22;
	else
		w[0] |= slc << 17 | (e->gen == AMD_GFX940 && (cp & AMD_CPOL_SC1) ? 1u << 15 : 0);
	return true;
}
