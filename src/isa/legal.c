/* amd_inst_legal: can this instance be encoded on this target?  Answered without encoding,
 * for the post-allocation verifier and for instruction selection.
 *
 * Algorithm: the checks amd_encode makes, per format, on the instance's operands alone --
 * row exists on the generation, operand kinds against the row's slots, register ranges and
 * tuple alignment, special registers the generation has, one literal value and the
 * constant-bus limit (amd_const_bus_limit), modifiers the row takes, memory offset ranges
 * and cache bits.  The DPP/SDWA control fields and the VOPD pairing rules (register banks)
 * are encoder-only: an instance using them is judged on its operands only.
 * tests/isa (legal-vs-encode) runs both over every conformance instance and requires the
 * same accept/refuse decision outside DPP/SDWA/VOPD, and no refusal the encoder accepts.
 * Pure; O(operands). */
#include <stdio.h>

#include "isa.h"

struct chk {
	const struct amd_target *t;
	enum amd_gen gen;
	const struct amd_isa_op *op;
	const struct amd_inst *in;
	char *err;
	size_t errlen;
	bool has_literal;
	uint32_t literal;
	int keys[8]; /* constant-bus keys seen (scalar source codes, 1000 = literal) */
	unsigned nkeys;
};

static bool refuse(struct chk *c, const char *msg)
{
	snprintf(c->err, c->errlen, "%s: %s", c->op->name, msg);
	return false;
}

static void note_bus(struct chk *c, int key)
{
	for (unsigned i = 0; i < c->nkeys; i++)
		if (c->keys[i] == key)
			return;
	if (c->nkeys < 8)
		c->keys[c->nkeys++] = key;
}

static bool is_special_code_scc(const struct amd_val *v)
{
	return v->kind == AMD_V_SPECIAL && v->reg == AMD_SPEC_SCC;
}

/* Source-operand code of a scalar value, as a constant-bus key. */
static int scalar_key(const struct amd_val *v)
{
	static const short special_code[AMD_NUM_SPECIALS] = {[AMD_SPEC_VCC] = 106,
	                                                     [AMD_SPEC_VCC_LO] = 106,
	                                                     [AMD_SPEC_VCC_HI] = 107,
	                                                     [AMD_SPEC_EXEC] = 126,
	                                                     [AMD_SPEC_EXEC_LO] = 126,
	                                                     [AMD_SPEC_EXEC_HI] = 127,
	                                                     [AMD_SPEC_M0] = 124,
	                                                     [AMD_SPEC_NULL] = 125,
	                                                     [AMD_SPEC_SCC] = 253,
	                                                     [AMD_SPEC_FLAT_SCRATCH] = 102,
	                                                     [AMD_SPEC_FLAT_SCRATCH_LO] = 102,
	                                                     [AMD_SPEC_FLAT_SCRATCH_HI] = 103,
	                                                     [AMD_SPEC_SRC_SHARED_BASE] = 235,
	                                                     [AMD_SPEC_SRC_SHARED_LIMIT] = 236,
	                                                     [AMD_SPEC_SRC_PRIVATE_BASE] = 237,
	                                                     [AMD_SPEC_SRC_PRIVATE_LIMIT] = 238};
	if (v->kind == AMD_V_SGPR)
		return v->reg;
	if (v->kind == AMD_V_TTMP)
		return 108 + v->reg;
	return special_code[v->reg];
}

/* An SGPR, trap temporary or special register of `width` registers. */
static bool check_scalar_reg(struct chk *c, const struct amd_val *v, unsigned width)
{
	if (v->kind == AMD_V_TTMP) {
		if (v->reg + width > 16)
			return refuse(c, "trap temporary out of range");
		if ((width >= 2 && (v->reg & 1)) || (width >= 3 && (v->reg & 3)))
			return refuse(c, "misaligned trap temporary tuple");
		return true;
	}
	if (v->kind == AMD_V_SPECIAL) {
		if (v->reg >= AMD_NUM_SPECIALS)
			return refuse(c, "invalid special register");
		if (v->reg == AMD_SPEC_NULL && c->gen < AMD_GFX10)
			return refuse(c, "null is not a register on this target");
		if (v->reg >= AMD_SPEC_FLAT_SCRATCH && v->reg <= AMD_SPEC_FLAT_SCRATCH_HI &&
		    c->gen >= AMD_GFX10)
			return refuse(c, "flat_scratch is not an SGPR operand on this target");
		return true;
	}
	if (v->kind != AMD_V_SGPR)
		return refuse(c, "expected an SGPR operand");
	if (v->reg + width > c->t->info->addressable_sgprs)
		return refuse(c, "SGPR out of range");
	if ((width >= 2 && (v->reg & 1)) || (width >= 3 && (v->reg & 3)))
		return refuse(c, "misaligned SGPR tuple");
	return true;
}

static bool check_vgpr(struct chk *c, const struct amd_val *v, unsigned width)
{
	if (v->kind != AMD_V_VGPR)
		return refuse(c, "expected a VGPR operand");
	if (v->reg + width > 256)
		return refuse(c, "VGPR out of range");
	if (c->t->info->has_agprs && width >= 2 && (v->reg & 1))
		return refuse(c, "misaligned VGPR tuple");
	return true;
}

static bool take_literal(struct chk *c, uint32_t value, bool counts_on_bus)
{
	if (c->has_literal && c->literal != value)
		return refuse(c, "only one literal constant is allowed");
	if (!c->has_literal && counts_on_bus)
		note_bus(c, 1000);
	c->has_literal = true;
	c->literal = value;
	return true;
}

/* Any source operand: register, inline constant or literal. */
static bool check_source(struct chk *c, const struct amd_val *v, const struct amd_opnd_desc *d,
                         bool literal_ok, bool is_valu)
{
	unsigned width = v->width ? v->width : d->width;
	if ((d->kind == AMD_OPK_SSRC || d->kind == AMD_OPK_SREG) && v->kind == AMD_V_VGPR)
		return refuse(c, "a scalar operand cannot be a VGPR");
	if (d->kind == AMD_OPK_SREG && v->kind == AMD_V_IMM)
		return refuse(c, "this operand must be a scalar register");
	switch (v->kind) {
	case AMD_V_VGPR:
		return check_vgpr(c, v, width);
	case AMD_V_SGPR:
	case AMD_V_TTMP:
	case AMD_V_SPECIAL:
		if (!check_scalar_reg(c, v, width))
			return false;
		if (is_valu && !is_special_code_scc(v))
			note_bus(c, scalar_key(v));
		return true;
	case AMD_V_IMM:
		if (amd_inline_code((enum amd_dtype)d->dtype, v->imm) >= 0)
			return true;
		if (!literal_ok)
			return refuse(c, "literal constant not allowed here");
		return take_literal(c, v->imm, is_valu);
	default:
		return refuse(c, "missing source operand");
	}
}

static bool check_kimm(struct chk *c, const struct amd_val *v)
{
	if (v->kind != AMD_V_IMM)
		return refuse(c, "expected a literal constant K");
	return take_literal(c, v->imm, c->op->format >= AMD_FMT_VOP1);
}

static bool check_salu(struct chk *c)
{
	const struct amd_isa_op *op = c->op;
	const struct amd_inst *in = c->in;
	if (op->flags & AMD_F_IMM_OR_M0 && op->nopnds &&
	    !((in->ops[0].kind == AMD_V_IMM && amd_inline_code(AMD_DT_B32, in->ops[0].imm) >= 0) ||
	      (in->ops[0].kind == AMD_V_SPECIAL && in->ops[0].reg == AMD_SPEC_M0)))
		return refuse(c, "operand must be m0 or an inline constant");
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		bool ok = true;
		if (d->kind == AMD_OPK_SDST ||
		    (d->kind == AMD_OPK_SSRC && op->format == AMD_FMT_SOPK))
			ok = check_scalar_reg(c, v, d->width);
		else if (d->kind == AMD_OPK_SSRC || d->kind == AMD_OPK_SREG)
			ok = check_source(c, v, d, true, false);
		else if (d->kind == AMD_OPK_KIMM)
			ok = check_kimm(c, v);
		else if (d->kind == AMD_OPK_SIMM16 || d->kind == AMD_OPK_LABEL) {
			if (v->kind != AMD_V_IMM)
				return refuse(c, "expected an immediate");
			if ((int32_t)v->imm < -32768 || (int32_t)v->imm > 65535)
				return refuse(c, "16-bit immediate out of range");
		}
		if (!ok)
			return false;
	}
	return true;
}

static bool check_smem(struct chk *c)
{
	const struct amd_isa_op *op = c->op;
	const struct amd_inst *in = c->in;
	bool has_imm = false, has_soff = false;
	int32_t imm = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		if ((d->kind == AMD_OPK_SDST || d->kind == AMD_OPK_SBASE) &&
		    !check_scalar_reg(c, v, d->width))
			return false;
		if (d->kind == AMD_OPK_SOFFSET && v->kind == AMD_V_IMM) {
			has_imm = true;
			imm = (int32_t)v->imm;
		} else if (d->kind == AMD_OPK_SOFFSET) {
			if (!check_scalar_reg(c, v, 1))
				return false;
			has_soff = true;
		}
	}
	if ((op->flags & AMD_F_SMEM_NO_ADDR) && in->cpol)
		return refuse(c, "cache policy bits not allowed");
	int32_t bits = c->gen == AMD_GFX12 ? 23 : 20;
	if (c->gen <= AMD_GFX940 && !has_imm)
		return true; /* the SOE offset is not range-checked before gfx10 */
	if (c->gen > AMD_GFX940 && has_soff && in->offset)
		imm = in->offset;
	if (imm < -(1 << bits) || imm >= (1 << bits))
		return refuse(c, "SMEM offset out of range");
	return true;
}

/* Input and output modifiers the row takes in the chosen encoding. */
static bool check_modifiers(struct chk *c, bool vop3, bool vop3b)
{
	const struct amd_isa_op *op = c->op;
	const struct amd_inst *in = c->in;
	unsigned srcno = 0;
	if (!vop3 && ((!in->sdwa && (in->clamp || in->omod)) || in->op_sel ||
	              (!in->dpp && !in->sdwa && (in->neg || in->abs))))
		return refuse(c, "modifiers need the VOP3 encoding");
	if (in->dpp == 2 && (in->neg || in->abs))
		return refuse(c, "DPP8 has no input modifiers");
	if (op->format == AMD_FMT_VOP3P)
		return true;
	if (vop3b && in->abs)
		return refuse(c, "abs is not available in the VOP3B encoding");
	if (in->clamp && (op->flags & AMD_F_NO_CLAMP))
		return refuse(c, "clamp is not available");
	if (in->omod && !(op->flags & AMD_F_FP_RESULT))
		return refuse(c, "output modifier needs a float result");
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->role != AMD_ROLE_SRC)
			continue;
		bool is_float = d->kind != AMD_OPK_VCC && d->kind != AMD_OPK_SSRC &&
		                amd_dtype_is_float((enum amd_dtype)d->dtype);
		if (((in->neg | in->abs) >> srcno & 1) && !is_float)
			return refuse(c, "neg/abs need a floating-point source");
		srcno++;
	}
	if ((in->neg | in->abs) >> srcno)
		return refuse(c, "modifier on a source the instruction does not have");
	return true;
}

static bool is_plain_vcc(const struct chk *c, const struct amd_val *v)
{
	return v->kind == AMD_V_SPECIAL &&
	       (v->reg == AMD_SPEC_VCC || (c->t->wave_size == 32 && v->reg == AMD_SPEC_VCC_LO));
}

/* A lane-mask operand: vcc/exec, or SGPRs of the wave's mask width. */
static bool check_mask(struct chk *c, const struct amd_val *v)
{
	if (v->kind == AMD_V_SPECIAL && (v->reg == AMD_SPEC_VCC || v->reg == AMD_SPEC_EXEC))
		return true;
	return check_scalar_reg(c, v, c->t->wave_size == 64 ? 2 : 1);
}

static int find_opnd(const struct amd_isa_op *op, enum amd_opnd_kind kind)
{
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == kind)
			return i;
	return -1;
}

static bool check_valu_operand(struct chk *c, int i, bool vop3, bool vop3p, bool literal_ok,
                               unsigned *nsrc)
{
	const struct amd_opnd_desc *d = &c->op->opnds[i];
	const struct amd_val *v = &c->in->ops[i];
	switch (d->kind) {
	case AMD_OPK_VDST:
		return check_vgpr(c, v, d->width);
	case AMD_OPK_SDST:
		return check_scalar_reg(c, v, d->width);
	case AMD_OPK_KIMM:
		return check_kimm(c, v);
	case AMD_OPK_VCC:
	case AMD_OPK_MASK_DST:
		if (d->role == AMD_ROLE_DST) {
			if (c->op->flags & AMD_F_EXEC_DST && c->gen >= AMD_GFX10)
				return true;
			if (!vop3 && !c->in->sdwa && !is_plain_vcc(c, v))
				return refuse(c, "e32 encoding needs vcc here");
			return check_mask(c, v);
		}
		if (!vop3 && !is_plain_vcc(c, v))
			return refuse(c, "e32 encoding needs vcc here");
		if (!check_mask(c, v))
			return false;
		if (!vop3 || !is_special_code_scc(v))
			note_bus(c, scalar_key(v));
		(*nsrc)++;
		return true;
	case AMD_OPK_VGPR:
		if (!vop3 && !vop3p && !(c->in->sdwa && v->kind != AMD_V_VGPR)) {
			(*nsrc)++;
			return check_vgpr(c, v, d->width);
		}
		__attribute__((fallthrough)); /* VOP3 accepts any source */
	default:
		(*nsrc)++;
		return check_source(c, v, d, literal_ok, true);
	}
}

static bool check_valu(struct chk *c)
{
	const struct amd_isa_op *op = c->op;
	const struct amd_inst *in = c->in;
	bool vop3 = amd_uses_vop3(c->gen, op, in), vop3p = op->format == AMD_FMT_VOP3P;
	bool literal_ok = !(vop3 || vop3p) || c->t->info->has_vop3_literal;
	int vcc = find_opnd(op, AMD_OPK_VCC);
	bool vop3b = (op->flags & AMD_F_VOP3B) || (op->flags & AMD_F_CARRY_VCC && vcc >= 0 &&
	                                           op->opnds[vcc].role == AMD_ROLE_DST);
	if (vop3 && !vop3p && op->vop3_opcode[c->gen] < 0)
		return refuse(c, "no VOP3 (e64) encoding for these operands on this target");
	if (!check_modifiers(c, vop3 || vop3p, vop3b))
		return false;
	const char *matrix_err = amd_matrix_refusal(c->t, op, in);
	if (matrix_err)
		return refuse(c, matrix_err);
	if (op->flags & AMD_F_MAI)
		return true; /* amd_matrix_refusal checked every operand */
	if (op->flags & AMD_F_READS_VCC)
		note_bus(c, 106);
	unsigned nsrc = 0;
	for (int i = 0; i < op->nopnds; i++)
		if (!check_valu_operand(c, i, vop3, vop3p, literal_ok, &nsrc))
			return false;
	if ((in->neg | in->abs | in->neg_hi | in->op_sel) >> nsrc &&
	    !(vop3p && in->op_sel >> nsrc == 1 && nsrc < 3))
		return refuse(c, "modifier on a source the instruction does not have");
	if (c->nkeys > amd_const_bus_limit(c->t, op))
		return refuse(c, "too many scalar operands (constant bus limit)");
	return true;
}

/* The VGPR, address and resource operands of DS, FLAT/GLOBAL/SCRATCH and MUBUF. */
static bool check_mem_operands(struct chk *c, bool *addr_off)
{
	const struct amd_isa_op *op = c->op;
	const struct amd_inst *in = c->in;
	/* VGPR operand position: MUBUF stores/atomics name data (3) before the address (4) */
	unsigned pos = op->format == AMD_FMT_MUBUF && find_opnd(op, AMD_OPK_VDST) < 0 ? 3 : 0;
	*addr_off = false;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &in->ops[i];
		unsigned width = v->width ? v->width : d->width;
		bool ok = true;
		if (d->kind == AMD_OPK_VDST) {
			ok = check_vgpr(c, v, width);
		} else if (d->kind == AMD_OPK_VGPR) {
			if (v->kind == AMD_V_OFF && (pos == 0 || pos == 4))
				*addr_off = true;
			else
				ok = check_vgpr(c, v, width);
			pos = pos == 4 ? 5 : pos + 1;
		} else if (d->kind == AMD_OPK_SADDR) {
			if (v->kind != AMD_V_OFF && v->kind != AMD_V_NONE)
				ok = check_scalar_reg(c, v, op->format == AMD_FMT_SCRATCH ? 1 : 2);
		} else if (d->kind == AMD_OPK_SRSRC) {
			ok = check_scalar_reg(c, v, 4);
		} else if (d->kind == AMD_OPK_SOFFSET && v->kind == AMD_V_IMM) {
			int code = amd_inline_code(AMD_DT_B32, v->imm);
			if (c->gen >= AMD_GFX12)
				return refuse(
				        c, "buffer soffset must be an SGPR, m0 or null on gfx12");
			if (code < 0 || code > 192)
				return refuse(c,
				              "buffer soffset must be an SGPR or inline integer");
		} else if (d->kind == AMD_OPK_SOFFSET) {
			ok = check_scalar_reg(c, v, 1);
		}
		if (!ok)
			return false;
	}
	if (in->rtn.kind == AMD_V_NONE)
		return true;
	if (op->format == AMD_FMT_MUBUF)
		return refuse(c, "buffer atomics return through vdata (set glc)");
	if (!(op->flags & AMD_F_ATOMIC))
		return refuse(c, "only atomics return a value");
	return check_vgpr(c, &in->rtn, in->rtn.width ? in->rtn.width : 1);
}

static bool check_range(struct chk *c, int32_t off, int bits, bool is_signed)
{
	int32_t lo = is_signed ? -(1 << (bits - 1)) : 0;
	int32_t hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
	return off >= lo && off <= hi ? true : refuse(c, "offset out of range");
}

static bool check_memory(struct chk *c)
{
	const struct amd_inst *in = c->in;
	enum amd_format f = (enum amd_format)c->op->format;
	bool addr_off;
	if (!check_mem_operands(c, &addr_off))
		return false;
	if (f == AMD_FMT_DS) {
		if (c->op->flags & AMD_F_DS_2ADDR)
			return in->offset >= 0 && in->offset <= 255
			               ? true
			               : refuse(c, "offset0 out of range (0..255)");
		return in->offset >= 0 && in->offset <= 65535 ? true
		                                              : refuse(c, "DS offset out of range");
	}
	if (f == AMD_FMT_MUBUF) {
		if (c->op->nopnds == 0) {
			if (in->cpol &&
			    (!(c->op->flags & AMD_F_CACHE_CPOL) || c->gen != AMD_GFX940))
				return refuse(c, "cache policy bits not allowed");
			addr_off = !(in->offen || in->idxen);
			if (c->gen == AMD_GFX12)
				return refuse(c, "no buffer cache-control instructions on gfx12");
		}
		if ((in->offen || in->idxen) == addr_off)
			return refuse(c, "vaddr must be given exactly when offen or idxen is set");
		return check_range(c, in->offset, c->gen == AMD_GFX12 ? 23 : 12, false);
	}
	bool is_flat = f == AMD_FMT_FLAT;
	/* FLAT/GLOBAL/SCRATCH immediate offsets: signed for global/scratch, unsigned and one
	 * bit shorter for FLAT (gfx12: 24-bit signed for all) */
	int bits = c->gen == AMD_GFX12 ? 24 : c->gen == AMD_GFX10 ? 12 : 13;
	if (!check_range(c, in->offset, bits, c->gen == AMD_GFX12 || !is_flat))
		return false;
	return !is_flat || c->gen == AMD_GFX12 || check_range(c, in->offset, bits - 1, false);
}

/* Image rows: VGPR data and address tuples, SGPR descriptors, then amd_image_refusal. */
static bool check_image(struct chk *c)
{
	const struct amd_isa_op *op = c->op;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		const struct amd_val *v = &c->in->ops[i];
		bool ok = true;
		if (d->kind == AMD_OPK_VDST || d->kind == AMD_OPK_VGPR)
			ok = check_vgpr(c, v, v->width ? v->width : d->width);
		else if (v->kind != AMD_V_SGPR)
			return refuse(c, "image descriptors must be SGPRs");
		else
			ok = check_scalar_reg(c, v, d->width);
		if (!ok)
			return false;
	}
	const char *why = amd_image_refusal(c->t, op, c->in);
	return why ? refuse(c, why) : true;
}

bool amd_inst_legal(const struct amd_target *t, const struct amd_inst *in, char *err, size_t errlen)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	if (in->row < 0 || (unsigned)in->row >= count) {
		snprintf(err, errlen, "invalid instruction row %d", in->row);
		return false;
	}
	struct chk c = {.t = t,
	                .gen = t->info->gen,
	                .op = &table[in->row],
	                .in = in,
	                .err = err,
	                .errlen = errlen};
	if (c.op->opcode[c.gen] < 0 && c.op->vop3_opcode[c.gen] < 0)
		return refuse(&c, "instruction does not exist on this target");
	switch (c.op->format) {
	case AMD_FMT_SOP1:
	case AMD_FMT_SOP2:
	case AMD_FMT_SOPK:
	case AMD_FMT_SOPC:
	case AMD_FMT_SOPP:
		return check_salu(&c);
	case AMD_FMT_SMEM:
		return check_smem(&c);
	case AMD_FMT_VOP1:
	case AMD_FMT_VOP2:
	case AMD_FMT_VOPC:
	case AMD_FMT_VOP3:
	case AMD_FMT_VOP3P:
		return check_valu(&c);
	case AMD_FMT_VOPD:
		return true; /* pairing and bank rules: amd_encode */
	case AMD_FMT_MIMG:
		return check_image(&c);
	default:
		return check_memory(&c);
	}
}
