/* amd_print: one instruction -> text in LLVM's AMDGPU assembly syntax, spelled exactly as
 * llvm-mc-19 / llvm-objdump-19 print it (mnemonic with _e32/_e64 where LLVM adds it,
 * registers as s5 / v[2:3] / vcc_lo, inline constants in decimal or as LLVM's float
 * spellings, literals in hex, modifiers in LLVM's order).
 * Requires: a row of amd_isa_table() that amd_encode accepts.  Pure; O(operands). */
#include "amd_encode.h"
#include "isa/isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct out {
	char *buf;
	size_t len, used; /* used may exceed len: like snprintf, we count what was wanted */
	enum amd_gen gen;
	const struct amd_target *t;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->used < o->len ? o->len - o->used : 0;
	int n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

static void put_range(struct out *o, char prefix, unsigned reg, unsigned width)
{
	if (width <= 1)
		put(o, "%c%u", prefix, reg);
	else
		put(o, "%c[%u:%u]", prefix, reg, reg + width - 1);
}

/* LLVM prints inline float constants by operand type. */
static void put_float_inline(struct out *o, int code, enum amd_dtype dt)
{
	static const char *const vals[8] = {"0.5", "-0.5", "1.0", "-1.0",
	                                    "2.0", "-2.0", "4.0", "-4.0"};
	if (code < 248)
		put(o, "%s", vals[code - 240]);
	else
		put(o, "%s", dt == AMD_DT_F64 ? "0.15915494309189532" : "0.15915494");
}

static void put_imm(struct out *o, uint32_t imm, enum amd_dtype dt)
{
	int code = amd_inline_code(dt, imm);
	if (code >= 128 && code <= 192)
		put(o, "%d", code - 128);
	else if (code > 192 && code <= 208)
		put(o, "%d", 192 - code);
	else if (code >= 240)
		put_float_inline(o, code, dt);
	else
		put(o, "0x%x", (dt == AMD_DT_F16 || dt == AMD_DT_B16) ? imm & 0xffff : imm);
}

static void put_val(struct out *o, const struct amd_val *v, unsigned width, enum amd_dtype dt)
{
	if (v->width)
		width = v->width;
	switch (v->kind) {
	case AMD_V_SGPR:
		put_range(o, 's', v->reg, width);
		break;
	case AMD_V_VGPR:
		put_range(o, 'v', v->reg, width);
		break;
	case AMD_V_SPECIAL:
		put(o, "%s", amd_special_name(v->reg, width));
		break;
	case AMD_V_AGPR:
		put_range(o, 'a', v->reg, width);
		break;
	case AMD_V_TTMP:
		if (width <= 1)
			put(o, "ttmp%u", v->reg);
		else
			put(o, "ttmp[%u:%u]", v->reg, v->reg + width - 1);
		break;
	case AMD_V_IMM:
		put_imm(o, v->imm, dt);
		break;
	case AMD_V_OFF:
		put(o, "off");
		break;
	default:
		put(o, "<none>");
		break;
	}
}

static void put_waitcnt(struct out *o, uint32_t s)
{
	unsigned vm, exp, lgkm, vm_max = amd_waitcnt_max(o->t, AMD_HWC_VM),
	                        exp_max = amd_waitcnt_max(o->t, AMD_HWC_EXP),
	                        lgkm_max = amd_waitcnt_max(o->t, AMD_HWC_LGKM);
	amd_waitcnt_unpack(o->t, (uint16_t)s, &vm, &exp, &lgkm);
	bool all = vm == vm_max && exp == exp_max && lgkm == lgkm_max;
	const char *sep = "";
	if (vm != vm_max || all)
		put(o, "vmcnt(%u)", vm), sep = " ";
	if (exp != exp_max || all)
		put(o, "%sexpcnt(%u)", sep, exp), sep = " ";
	if (lgkm != lgkm_max || all)
		put(o, "%slgkmcnt(%u)", sep, lgkm);
}

static void put_hwreg(struct out *o, uint32_t s)
{
	unsigned id = s & 63, off = (s >> 6) & 31, size = ((s >> 11) & 31) + 1;
	const char *name = amd_hwreg_name(o->gen, id);
	if (name)
		put(o, "hwreg(%s", name);
	else
		put(o, "hwreg(%u", id);
	if (off != 0 || size != 32)
		put(o, ", %u, %u", off, size);
	put(o, ")");
}

static void put_delay(struct out *o, uint32_t s)
{
	static const char *const ids[12] = {"NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
	                                    "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
	                                    "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
	                                    "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3"};
	static const char *const skips[6] = {"SAME",   "NEXT",   "SKIP_1",
	                                     "SKIP_2", "SKIP_3", "SKIP_4"};
	unsigned id0, skip, id1;
	amd_delay_alu_unpack((uint16_t)s, &id0, &skip, &id1);
	if (id0 > 11 || skip > 5 || id1 > 11 || s >> 11) {
		put(o, "0x%x", s);
		return;
	}
	put(o, "instid0(%s)", ids[id0]);
	if (skip)
		put(o, " | instskip(%s)", skips[skip]);
	if (id1)
		put(o, " | instid1(%s)", ids[id1]);
}

/* s_sendmsg: the messages ptxas-amd emits, by name as LLVM prints them. */
static void put_sendmsg(struct out *o, uint32_t s)
{
	if (o->gen >= AMD_GFX11 && s == 3)
		put(o, "sendmsg(MSG_DEALLOC_VGPRS)");
	else if (o->gen >= AMD_GFX11 && s == 131)
		put(o, "sendmsg(MSG_RTN_GET_REALTIME)");
	else if (o->gen >= AMD_GFX11 && s == 128)
		put(o, "sendmsg(MSG_RTN_GET_DOORBELL)");
	else if (s == 1)
		put(o, "sendmsg(MSG_INTERRUPT)");
	else
		put(o, "0x%x", s);
}

static void put_simm(struct out *o, const struct amd_isa_op *op, uint32_t imm)
{
	uint32_t s = imm & 0xffff;
	switch (op->simm) {
	case AMD_SIMM_SENDMSG:
		put_sendmsg(o, s);
		break;
	case AMD_SIMM_WAITCNT:
		put_waitcnt(o, s);
		break;
	case AMD_SIMM_HWREG:
		put_hwreg(o, s);
		break;
	case AMD_SIMM_DELAY:
		put_delay(o, s);
		break;
	default:
		if (((op->format == AMD_FMT_SOPP &&
		      (!strcmp(op->name, "s_nop") || !strcmp(op->name, "s_sleep") ||
		       !strcmp(op->name, "s_sethalt"))) ||
		     op->simm == AMD_SIMM_SIMM) &&
		    s <= 64)
			put(o, "%u", s);
		else
			put(o, "0x%x", s);
		break;
	}
}

/* ds_swizzle_b32's offset as LLVM spells it (AMDGPUInstPrinter::printSwizzle's cases). */
static void put_swizzle(struct out *o, unsigned imm)
{
	if ((imm & 0xff00) == 0x8000) {
		put(o, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", imm & 3, (imm >> 2) & 3,
		    (imm >> 4) & 3, (imm >> 6) & 3);
		return;
	}
	if (imm & 0x8000) {
		put(o, " offset:%u", imm);
		return;
	}
	unsigned and_mask = imm & 31, or_mask = (imm >> 5) & 31, xor_mask = (imm >> 10) & 31;
	unsigned group = 32 - and_mask;
	if (and_mask == 31 && or_mask == 0 && xor_mask && !(xor_mask & (xor_mask - 1))) {
		put(o, " offset:swizzle(SWAP,%u)", xor_mask);
	} else if (and_mask == 31 && or_mask == 0 && xor_mask && !((xor_mask + 1) & xor_mask)) {
		put(o, " offset:swizzle(REVERSE,%u)", xor_mask + 1);
	} else if (group > 1 && !(group & (group - 1)) && or_mask < group && !xor_mask) {
		put(o, " offset:swizzle(BROADCAST,%u,%u)", group, or_mask);
	} else {
		put(o, " offset:swizzle(BITMASK_PERM,\"");
		for (int bit = 4; bit >= 0; bit--) {
			unsigned a = and_mask >> bit & 1, r = or_mask >> bit & 1,
			         x = xor_mask >> bit & 1;
			put(o, "%c", !a ? (r ? '1' : '0') : (x ? 'i' : 'p'));
		}
		put(o, "\")");
	}
}

static void put_cpol(struct out *o, const struct amd_isa_op *op, unsigned cp)
{
	if (o->gen == AMD_GFX12) {
		unsigned th = cp & 7, scope = (cp >> 3) & 3;
		static const char *const scopes[4] = {NULL, "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"};
		if (th) {
			const char *kind = op->flags & AMD_F_ATOMIC  ? "ATOMIC"
			                   : op->flags & AMD_F_STORE ? "STORE"
			                                             : "LOAD";
			if (op->flags & AMD_F_ATOMIC)
				put(o, " th:TH_ATOMIC_%s",
				    th == 1   ? "RETURN"
				    : th == 2 ? "NT"
				              : "?");
			else
				put(o, " th:TH_%s_%s", kind, th == 1 ? "NT" : th == 2 ? "HT" : "?");
		}
		if (scope)
			put(o, " scope:%s", scopes[scope]);
		return;
	}
	if (o->gen == AMD_GFX940) {
		if (cp & AMD_CPOL_SC0)
			put(o, " sc0");
		if (cp & AMD_CPOL_SC1)
			put(o, " sc1");
		if (cp & AMD_CPOL_NT)
			put(o, " nt");
		return;
	}
	if (cp & AMD_CPOL_GLC)
		put(o, " glc");
	if (cp & AMD_CPOL_SLC)
		put(o, " slc");
	if (cp & AMD_CPOL_DLC)
		put(o, " dlc");
}

static void put_src_mods(struct out *o, const struct amd_inst *in, unsigned srcno, bool pk)
{
	if (pk)
		return;
	if (in->neg >> srcno & 1)
		put(o, "-");
	if (in->abs >> srcno & 1)
		put(o, "|");
}

static void put_bits(struct out *o, const char *name, unsigned bits, unsigned n)
{
	put(o, " %s:[", name);
	for (unsigned i = 0; i < n; i++)
		put(o, "%s%u", i ? "," : "", bits >> i & 1);
	put(o, "]");
}

/* DPP controls in LLVM's order: control, row_mask, bank_mask, bound_ctrl, fi. */
static void put_dpp(struct out *o, const struct amd_inst *in)
{
	unsigned c = in->dpp_ctrl;
	if (in->dpp == 2) {
		put(o, " dpp8:[");
		for (int i = 0; i < 8; i++)
			put(o, "%s%u", i ? "," : "", in->dpp8_sel >> (3 * i) & 7);
		put(o, "]%s", in->fi ? " fi:1" : "");
		return;
	}
	if (c <= 0xff)
		put(o, " quad_perm:[%u,%u,%u,%u]", c & 3, c >> 2 & 3, c >> 4 & 3, c >> 6 & 3);
	else if (c >= 0x101 && c <= 0x10f)
		put(o, " row_shl:%u", c & 15);
	else if (c >= 0x111 && c <= 0x11f)
		put(o, " row_shr:%u", c & 15);
	else if (c >= 0x121 && c <= 0x12f)
		put(o, " row_ror:%u", c & 15);
	else if (c == 0x130 || c == 0x134 || c == 0x138 || c == 0x13c) {
		static const char *const wave[4] = {"wave_shl:1", "wave_rol:1", "wave_shr:1",
		                                    "wave_ror:1"};
		put(o, " %s", wave[(c - 0x130) / 4]);
	} else if (c == 0x140 || c == 0x141)
		put(o, " %s", c == 0x140 ? "row_mirror" : "row_half_mirror");
	else if (c == 0x142 || c == 0x143)
		put(o, " row_bcast:%u", c == 0x142 ? 15 : 31);
	else if (c >= 0x150 && c <= 0x15f)
		put(o, " row_share:%u", c & 15);
	else if (c >= 0x160 && c <= 0x16f)
		put(o, " row_xmask:%u", c & 15);
	else
		put(o, " dpp_ctrl:0x%x", c);
	put(o, " row_mask:0x%x bank_mask:0x%x", in->row_mask & 15, in->bank_mask & 15);
	if (in->bound_ctrl)
		put(o, " bound_ctrl:1");
	if (in->fi)
		put(o, " fi:1");
}

static void put_mfma_fields(struct out *o, const struct amd_inst *in)
{
	if (in->cbsz)
		put(o, " cbsz:%u", in->cbsz);
	if (in->abid)
		put(o, " abid:%u", in->abid);
	if (in->blgp)
		put(o, " blgp:%u", in->blgp);
}

static void print_valu(struct out *o, const struct amd_isa_op *op, const struct amd_inst *in)
{
	bool vop3 = amd_uses_vop3(o->gen, op, in), pk = op->format == AMD_FMT_VOP3P;
	bool e32_row = op->format == AMD_FMT_VOP1 || op->format == AMD_FMT_VOP2 ||
	               op->format == AMD_FMT_VOPC;
	put(o, "%s", op->gen_name[o->gen]);
	if (in->sdwa) {
		put(o, "_sdwa");
	} else if (in->dpp) {
		/* LLVM spells gfx11+ compare DPP without a suffix */
		if (!(op->format == AMD_FMT_VOPC && o->gen >= AMD_GFX11))
			put(o, "_dpp");
	} else if (e32_row && !(op->flags & AMD_F_NO_E64) && op->vop3_opcode[o->gen] >= 0)
		put(o, "%s", vop3 ? (op->opcode[o->gen] >= 0 ? "_e64" : "") : "_e32");
	const char *sep = " ";
	unsigned srcno = 0, mask_w = o->t->wave_size == 64 ? 2 : 1;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		bool is_src = d->role == AMD_ROLE_SRC;
		if ((d->kind == AMD_OPK_VCC || d->kind == AMD_OPK_MASK_DST) && !is_src &&
		    op->flags & AMD_F_EXEC_DST && o->gen >= AMD_GFX10)
			continue;
		put(o, "%s", sep);
		sep = ", ";
		if (is_src && d->kind == AMD_OPK_KIMM)
			is_src = false;
		if (is_src)
			put_src_mods(o, in, srcno, pk);
		bool sext = is_src && in->sdwa && (in->sext >> srcno & 1);
		if (sext)
			put(o, "sext(");
		if (d->kind == AMD_OPK_KIMM)
			put(o, "0x%x", d->dtype == AMD_DT_F16 ? v->imm & 0xffff : v->imm);
		else if (d->kind == AMD_OPK_VCC || d->kind == AMD_OPK_MASK_DST)
			put_val(o, v, mask_w, AMD_DT_B32);
		else
			put_val(o, v, d->width, (enum amd_dtype)d->dtype);
		if (sext)
			put(o, ")");
		if (is_src && !pk && in->abs >> srcno & 1)
			put(o, "|");
		if (is_src)
			srcno++;
	}
	if (op->flags & AMD_F_MAI) { /* LLVM's order; zero fields are not printed */
		put_mfma_fields(o, in);
		if (in->neg)
			put_bits(o, "neg", in->neg, 3);
		/* not MFMA modifiers: printed so that the text says what the encoder refused */
		if (in->op_sel)
			put_bits(o, "op_sel", in->op_sel, 3);
		if (in->neg_hi)
			put_bits(o, "neg_hi", in->neg_hi, 3);
		if (in->clamp)
			put(o, " clamp");
		return;
	}
	if (pk) {
		unsigned nsrc = srcno > 3 ? 3 : srcno, all = (1u << nsrc) - 1;
		unsigned hi = in->op_sel_hi_set ? in->op_sel_hi & all : all;
		if (in->op_sel)
			put_bits(o, "op_sel", in->op_sel, nsrc);
		if (hi != all)
			put_bits(o, "op_sel_hi", hi, nsrc);
		if (in->neg)
			put_bits(o, "neg_lo", in->neg, nsrc);
		if (in->neg_hi)
			put_bits(o, "neg_hi", in->neg_hi, nsrc);
		if (in->clamp)
			put(o, " clamp");
		put_mfma_fields(o, in);
		return;
	}
	if (in->clamp)
		put(o, " clamp");
	if ((op->flags & AMD_F_OPSEL_FI_BC) && in->op_sel)
		put_bits(o, "op_sel", in->op_sel, 2);
	static const char *const omods[4] = {"", " mul:2", " mul:4", " div:2"};
	put(o, "%s", omods[in->omod & 3]);
	if (in->dpp)
		put_dpp(o, in);
	if (in->sdwa) {
		static const char *const sels[7] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
		                                    "WORD_0", "WORD_1", "DWORD"};
		static const char *const unused[3] = {"UNUSED_PAD", "UNUSED_SEXT",
		                                      "UNUSED_PRESERVE"};
		if (op->format != AMD_FMT_VOPC)
			put(o, " dst_sel:%s dst_unused:%s", sels[in->dst_sel % 7],
			    unused[in->dst_unused % 3]);
		put(o, " src0_sel:%s", sels[in->src_sel[0] % 7]);
		if (op->format != AMD_FMT_VOP1)
			put(o, " src1_sel:%s", sels[in->src_sel[1] % 7]);
	}
}

/* One half of a dual-issue pair: mnemonic and plain operands (vcc of cndmask is implicit). */
static void print_vopd_half(struct out *o, const struct amd_isa_op *op, const struct amd_val *ops)
{
	put(o, "%s", op->gen_name[o->gen] ? op->gen_name[o->gen] : op->name);
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		put(o, i ? ", " : " ");
		if (d->kind == AMD_OPK_KIMM)
			put(o, "0x%x", ops[i].imm);
		else
			put_val(o, &ops[i], d->width, (enum amd_dtype)d->dtype);
	}
}

static int find_soffset(const struct amd_isa_op *op)
{
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == AMD_OPK_SOFFSET)
			return i;
	return -1;
}

static void print_mem(struct out *o, const struct amd_isa_op *op, const struct amd_inst *in)
{
	put(o, "%s", op->gen_name[o->gen]);
	const char *sep = " ";
	if (in->rtn.kind != AMD_V_NONE) {
		put(o, " ");
		put_val(o, &in->rtn, 1, AMD_DT_B32);
		sep = ", ";
	}
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		put(o, "%s", sep);
		sep = ", ";
		if (d->kind == AMD_OPK_SOFFSET && v->kind == AMD_V_IMM &&
		    op->format == AMD_FMT_SMEM) {
			/* LLVM's disassembler shows an SMEM without soffset and offset 0 as
			 * using null (gfx10/11) */
			if (v->imm == 0 && (o->gen == AMD_GFX10 || o->gen == AMD_GFX11))
				put(o, "null");
			else
				put(o, "0x%x",
				    v->imm & (o->gen == AMD_GFX12 ? 0xffffffu : 0x1fffffu));
		} else

			put_val(o, v, d->width, AMD_DT_B32);
	}
	switch (op->format) {
	case AMD_FMT_DS:
		if (!strcmp(op->name, "ds_swizzle_b32")) {
			if (in->offset)
				put_swizzle(o, (unsigned)in->offset);
		} else if (op->flags & AMD_F_DS_2ADDR) {
			if (in->offset)
				put(o, " offset0:%d", in->offset);
			if (in->offset1)
				put(o, " offset1:%u", in->offset1);
		} else if (in->offset) {
			put(o, " offset:%d", in->offset);
		}
		if (in->gds)
			put(o, " gds");
		return;
	case AMD_FMT_MUBUF:
		if (in->idxen)
			put(o, " idxen");
		if (in->offen)
			put(o, " offen");
		if (in->offset)
			put(o, " offset:%d", in->offset);
		break;
	case AMD_FMT_SMEM: {
		int so = find_soffset(op);
		bool soff_reg = so >= 0 && in->ops[so].kind != AMD_V_IMM;
		if (in->offset ||
		    (soff_reg && (o->gen == AMD_GFX12 || (in->smem_soe && o->gen <= AMD_GFX940))))
			put(o, " offset:0x%x", (unsigned)in->offset);
		if (o->gen == AMD_GFX940) {
			/* SMEM keeps the gfx9 cache bit names on gfx940 */
			if (in->cpol & AMD_CPOL_GLC)
				put(o, " glc");
			return;
		}
		break;
	}
	default:
		if (in->offset)
			put(o, " offset:%d", in->offset);
		break;
	}
	put_cpol(o, op, in->cpol);
}

/* Image addresses: gfx9 the first VGPR; gfx10/11 the tuple; gfx12 one VGPR plain, more as "[v4, v5,
 * v6, v[7:9]]" (four fields, the last one the rest of the tuple). */
static void put_image_addr(struct out *o, const struct amd_val *v, unsigned width)
{
	if (o->gen <= AMD_GFX940) {
		/* gfx9's encoding holds no address count: llvm-objdump-19 prints the first VGPR
		 * (the reader widens it back from the dim, parse_inst.c) */
		put(o, "v%u", v->reg);
		return;
	}
	if (o->gen != AMD_GFX12 || width <= 1) {
		put_val(o, v, width, AMD_DT_B32);
		return;
	}
	put(o, "[");
	for (unsigned i = 0; i < 4 && i < width; i++) {
		struct amd_val r = {.kind = AMD_V_VGPR, .reg = (uint16_t)(v->reg + i), .width = 1};
		unsigned w = i == 3 ? width - 3 : 1;
		r.width = (uint8_t)w;
		put(o, i ? ", " : "");
		put_val(o, &r, w, AMD_DT_B32);
	}
	put(o, "]");
}

static void print_mimg(struct out *o, const struct amd_isa_op *op, const struct amd_inst *in)
{
	static const char *const dims[8] = {"1D",       "2D",       "3D",      "CUBE",
	                                    "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"};
	put(o, "%s", op->gen_name[o->gen]);
	unsigned nv = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		unsigned width = v->width ? v->width : d->width;
		put(o, i ? ", " : " ");
		bool is_vgpr = d->kind == AMD_OPK_VDST || d->kind == AMD_OPK_VGPR;
		if (is_vgpr && nv++ == 1)
			put_image_addr(o, v, width);
		else
			put_val(o, v, width, AMD_DT_B32);
	}
	if (in->dmask)
		put(o, " dmask:0x%x", in->dmask);
	if (o->gen >= AMD_GFX10)
		put(o, " dim:SQ_RSRC_IMG_%s", dims[in->dim & 7]);
	if (in->unorm)
		put(o, " unorm");
	put_cpol(o, op, in->cpol);
	if (o->gen <= AMD_GFX940 && (in->dim == 3 || in->dim == 4 || in->dim == 5))
		put(o, " da");
}

int amd_print(const struct amd_target *t, const struct amd_inst *in, char *buf, size_t len)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	struct out o = {.buf = buf, .len = len, .gen = t->info->gen, .t = t};
	if (len)
		buf[0] = 0;
	if (in->row < 0 || (unsigned)in->row >= count)
		return 0;
	const struct amd_isa_op *op = &table[in->row];
	if (!op->gen_name[o.gen]) {
		put(&o, "<%s not on %s>", op->name, t->info->name);
		return (int)o.used;
	}
	switch (op->format) {
	case AMD_FMT_VOPD:
		print_vopd_half(&o, op, in->ops);
		if (in->dual && in->row_y >= 0 && (unsigned)in->row_y < count) {
			put(&o, " :: ");
			print_vopd_half(&o, &table[in->row_y], in->ops_y);
		}
		break;
	case AMD_FMT_VOP1:
	case AMD_FMT_VOP2:
	case AMD_FMT_VOPC:
	case AMD_FMT_VOP3:
	case AMD_FMT_VOP3P:
		print_valu(&o, op, in);
		break;
	case AMD_FMT_SMEM:
	case AMD_FMT_DS:
	case AMD_FMT_FLAT:
	case AMD_FMT_GLOBAL:
	case AMD_FMT_SCRATCH:
	case AMD_FMT_MUBUF:
		print_mem(&o, op, in);
		break;
	case AMD_FMT_MIMG:
		print_mimg(&o, op, in);
		break;
	default: {
		put(&o, "%s", op->gen_name[o.gen]);
		for (int i = 0; i < op->nopnds; i++) {
			const struct amd_opnd_desc *d = &op->opnds[i];
			put(&o, i ? ", " : " ");
			if (d->kind == AMD_OPK_SIMM16)
				put_simm(&o, op, in->ops[i].imm);
			else if (d->kind == AMD_OPK_KIMM)
				put(&o, "0x%x", in->ops[i].imm);
			else if (d->kind == AMD_OPK_LABEL)
				put(&o, "%u", in->ops[i].imm & 0xffff);
			else
				put_val(&o, &in->ops[i], d->width, (enum amd_dtype)d->dtype);
		}
		break;
	}
	}
	if (len && o.used >= len)
		buf[len - 1] = 0;
	return (int)o.used;
}
