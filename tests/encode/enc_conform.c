/* Conformance instance generator: for every table row on every target where it exists,
 * builds several instances with varied operands (low/high registers, SGPR and special
 * sources, inline constants, literals, VOP3 modifiers, memory offsets and cache bits) and
 * prints, one per line:  target <TAB> row <TAB> OK|ERR <TAB> text <TAB> hex bytes | reason
 * conformance.py feeds the texts to llvm-mc-19 and the bytes to its disassembler: an OK
 * line must assemble to our bytes and disassemble to our text, an ERR line (our encoder
 * refused) must be refused by llvm-mc-19 too.  Usage: enc_conform [target...]
 * `enc_conform --legal [target...]` instead runs amd_inst_legal (isa/isa.h) on the same
 * instances and prints where it disagrees with amd_encode, then a count; exit 1 on any. */
#include <stdio.h>
#include <string.h>

#include "amd_asm.h"
#include "isa/isa.h"

/* --legal mode: amd_inst_legal's decisions against amd_encode's on the same instances. */
struct legal_tally {
	unsigned compared, exact, extension; /* extension: DPP/SDWA/VOPD instances */
	unsigned mismatches;
};

struct gen_ctx {
	const struct amd_target *t;
	enum amd_gen gen;
	const struct amd_isa_op *op;
	int row;
	unsigned count;            /* instances printed for this row/target */
	struct legal_tally *legal; /* non-NULL: --legal mode */
};

static bool has_literal_source(const struct gen_ctx *c, const struct amd_inst *in)
{
	for (int i = 0; i < c->op->nopnds; i++) {
		const struct amd_opnd_desc *d = &c->op->opnds[i];
		if (d->role == AMD_ROLE_SRC && d->kind != AMD_OPK_SIMM16 &&
		    d->kind != AMD_OPK_LABEL && d->kind != AMD_OPK_KIMM &&
		    d->kind != AMD_OPK_SOFFSET && in->ops[i].kind == AMD_V_IMM &&
		    amd_inline_code((enum amd_dtype)d->dtype, in->ops[i].imm) < 0)
			return true;
	}
	return false;
}

/* amd_reg_align against the encoder: an accepted instance has every register tuple on
 * its alignment; one refused as misaligned has a tuple off it. */
static const char *check_alignment(const struct gen_ctx *c, const struct amd_inst *in, bool encodes,
                                   const char *enc_err)
{
	bool off = false;
	for (int i = 0; i < c->op->nopnds; i++) {
		const struct amd_val *v = &in->ops[i];
		enum amd_opnd_kind k = (enum amd_opnd_kind)c->op->opnds[i].kind;
		bool mask = k == AMD_OPK_MASK_DST || k == AMD_OPK_MASK_SRC || k == AMD_OPK_VCC;
		if ((v->kind != AMD_V_SGPR && v->kind != AMD_V_VGPR) ||
		    (!mask && v->width && v->width != c->op->opnds[i].width))
			continue;
		off |= v->reg % amd_reg_align(c->t, c->op, (unsigned)i) != 0;
	}
	if (encodes && off && !in->dual)
		return "amd_reg_align calls a register of an accepted instance misaligned";
	if (!encodes && strstr(enc_err, "misaligned") && !off)
		return "encoder refuses a misaligned tuple amd_reg_align accepts";
	return NULL;
}

/* amd_const_bus_reads / amd_literal_allowed against the encoder: an accepted VALU instance
 * reads at most amd_const_bus_limit values, one refused for the constant bus reads more; an
 * accepted instance with a literal source has amd_literal_allowed, one refused because a
 * literal is not allowed has not. */
static void check_bus_and_literal(struct gen_ctx *c, const struct amd_inst *in, bool encodes,
                                  const char *enc_err, bool extension)
{
	unsigned reads = amd_const_bus_reads(c->t, in), limit = amd_const_bus_limit(c->t, c->op);
	bool bus_refusal = !encodes && strstr(enc_err, "constant bus limit");
	bool literal_refusal = !encodes && strstr(enc_err, "literal constant not allowed");
	const char *bad = NULL;
	if (!extension && encodes && c->op->format != AMD_FMT_VOPD && reads > limit)
		bad = "amd_const_bus_reads above the limit on an accepted instance";
	else if (bus_refusal && reads <= limit)
		bad = "amd_const_bus_reads within the limit on a constant-bus refusal";
	else if (encodes && has_literal_source(c, in) && !amd_literal_allowed(c->t, in))
		bad = "amd_literal_allowed false on an accepted literal";
	else if (literal_refusal && !extension && amd_literal_allowed(c->t, in))
		bad = "amd_literal_allowed true where the encoder refuses a literal";
	if (!bad)
		bad = check_alignment(c, in, encodes, enc_err);
	if (!bad)
		return;
	c->legal->mismatches++;
	printf("%s\t%s\tLEGAL\t%u reads, limit %u: %s\n", c->t->info->name, c->op->name, reads,
	       limit, bad);
}

/* Requires the same decision from amd_inst_legal as from amd_encode, except that on DPP,
 * SDWA and VOPD instances (whose control fields only the encoder checks) it may accept
 * what the encoder refuses. */
static void compare_legal(struct gen_ctx *c, const struct amd_inst *in, bool encodes,
                          const char *text, const char *enc_err)
{
	char err[200] = "";
	bool legal = amd_inst_legal(c->t, in, err, sizeof err);
	bool extension = in->dpp || in->sdwa || in->dual;
	c->legal->compared++;
	c->legal->extension += extension;
	c->legal->exact += !extension;
	check_bus_and_literal(c, in, encodes, enc_err, extension);
	if (legal == encodes || (extension && legal && !encodes))
		return;
	c->legal->mismatches++;
	printf("%s\t%s\tLEGAL\t%s\tencoder: %s; amd_inst_legal: %s\n", c->t->info->name,
	       c->op->name, text, encodes ? "accepts" : enc_err, legal ? "accepts" : err);
}

static void emit(struct gen_ctx *c, const struct amd_inst *in)
{
	char text[256], err[200];
	uint32_t w[4];
	amd_print(c->t, in, text, sizeof text);
	unsigned n = amd_encode(c->t, in, w, err, sizeof err);
	if (c->legal) {
		compare_legal(c, in, n != 0, text, err);
		c->count++;
		return;
	}
	if (!n) {
		printf("%s\t%s\tERR\t%s\t%s\n", c->t->info->name, c->op->name, text, err);
		return;
	}
	/* reader round trip: our text read back must encode to the same bytes */
	struct amd_inst back;
	uint32_t w2[4];
	unsigned col, n2 = 0;
	if (!amd_asm_parse_inst(c->t, text, strlen(text), &back, err, sizeof err, &col))
		printf("%s\t%s\tRTFAIL\t%s\tread: col %u: %s\n", c->t->info->name, c->op->name,
		       text, col, err);
	else if ((n2 = amd_encode(c->t, &back, w2, err, sizeof err)) != n || memcmp(w, w2, 4 * n))
		printf("%s\t%s\tRTFAIL\t%s\tre-encode differs%s%s\n", c->t->info->name, c->op->name,
		       text, n2 ? "" : ": ", n2 ? "" : err);
	printf("%s\t%s\tOK\t%s\t", c->t->info->name, c->op->name, text);
	for (unsigned i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++)
			printf("%s0x%02x", i || b ? "," : "", (w[i] >> (8 * b)) & 0xff);
	printf("\n");
	c->count++;
}

static struct amd_val sgpr(unsigned r, unsigned w)
{
	return (struct amd_val){.kind = AMD_V_SGPR, .reg = (uint16_t)r, .width = (uint8_t)w};
}
static struct amd_val vgpr(unsigned r, unsigned w)
{
	return (struct amd_val){.kind = AMD_V_VGPR, .reg = (uint16_t)r, .width = (uint8_t)w};
}
static struct amd_val imm(uint32_t v)
{
	return (struct amd_val){.kind = AMD_V_IMM, .imm = v};
}
static struct amd_val special(unsigned s)
{
	return (struct amd_val){.kind = AMD_V_SPECIAL, .reg = (uint16_t)s};
}
static struct amd_val off(void)
{
	return (struct amd_val){.kind = AMD_V_OFF};
}

/* A register number for operand slot `slot` of width w: low or high, aligned. */
static unsigned vreg(unsigned slot, unsigned w, bool high)
{
	unsigned align = w >= 2 ? 2 : 1;
	unsigned r = high ? 255 - w - 8 * slot : 1 + 8 * slot;
	return (r + align - 1) / align * align;
}
static unsigned sreg(const struct gen_ctx *c, unsigned slot, unsigned w, bool high)
{
	unsigned align = w >= 3 ? 4 : w >= 2 ? 2 : 1;
	unsigned top = c->t->info->addressable_sgprs;
	unsigned r = high ? top - w - 16 * slot : 1 + 8 * slot;
	return r / align * align;
}

static unsigned mask_w(const struct gen_ctx *c)
{
	return c->t->wave_size == 64 ? 2 : 1;
}

/* A literal that is not an inline constant, by source type. */
static uint32_t literal_for(enum amd_dtype dt)
{
	switch (dt) {
	case AMD_DT_F32:
		return 0x40490fdb;
	case AMD_DT_F16:
	case AMD_DT_B16:
		return 0x4248;
	case AMD_DT_F64:
		return 0x40490000;
	default:
		return 0x12345;
	}
}
static uint32_t inline_for(enum amd_dtype dt, int variant)
{
	switch (dt) {
	case AMD_DT_F32:
	case AMD_DT_B32:
		return variant ? 0x3f000000 : 0xfffffff0; /* 0.5 / -16 */
	case AMD_DT_F16:
		return variant ? 0xbc00 : 64; /* -1.0 / 64 */
	case AMD_DT_F64:
		return variant ? 0xc0100000 : 7; /* -4.0 / 7 */
	default:
		return variant ? 64 : 0xffffffff;
	}
}

/* Fills register operands of a VALU/SALU row; `high` picks high registers; src0 kind by
 * `src0`: 0 VGPR (or SGPR for SALU), 1 SGPR, 2 inline, 3 literal, 4 special. */
static void fill_regs(struct gen_ctx *c, struct amd_inst *in, bool high, int src0, int src1)
{
	const struct amd_isa_op *op = c->op;
	unsigned srcno = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		struct amd_val *v = &in->ops[i];
		unsigned w = d->width;
		bool salu = op->format <= AMD_FMT_SMEM;
		switch (d->kind) {
		case AMD_OPK_VDST:
			*v = vgpr(vreg(0, w, high), w);
			break;
		case AMD_OPK_SDST:
			*v = sgpr(sreg(c, 0, w, high), w);
			break;
		case AMD_OPK_VCC:
			*v = special(AMD_SPEC_VCC);
			if (d->role == AMD_ROLE_SRC)
				srcno++;
			break;
		case AMD_OPK_MASK_DST:
			*v = sgpr(sreg(c, 1, mask_w(c), high), mask_w(c));
			break;
		case AMD_OPK_SIMM16:
		case AMD_OPK_LABEL:
			*v = imm(high ? 0x1234 : 5);
			break;
		case AMD_OPK_KIMM:
			*v = imm(d->dtype == AMD_DT_F16 ? 0x4248 : high ? 0xbf800000 : 0x40490fdb);
			break;
		case AMD_OPK_VGPR:
			*v = vgpr(vreg(1 + srcno, w, high), w);
			if (srcno == 1 && src1 == 1)
				*v = sgpr(sreg(c, 2, w, high), w);
			srcno++;
			break;
		case AMD_OPK_VSRC:
		case AMD_OPK_SREG:
		case AMD_OPK_SSRC: {
			int k = srcno == 0 ? src0 : (srcno == 1 ? src1 : 0);
			if ((salu || d->kind != AMD_OPK_VSRC) && k == 0)
				k = 1;
			if (k == 0)
				*v = vgpr(vreg(1 + srcno, w, high), w);
			else if (k == 1)
				*v = sgpr(sreg(c, 1 + srcno, w, high), w);
			else if (k == 2)
				*v = imm(inline_for((enum amd_dtype)d->dtype, high));
			else if (k == 3)
				*v = imm(literal_for((enum amd_dtype)d->dtype));
			else
				*v = w == 2 ? special(AMD_SPEC_EXEC)
				            : special(c->gen >= AMD_GFX10 && high ? AMD_SPEC_NULL
				                                                  : AMD_SPEC_M0);
			srcno++;
			break;
		}
		default:
			break;
		}
	}
}

/* Rows whose float input modifiers the generator tries (v_dot2c/v_dot4c take none in our
 * encoder: amdsim does not execute them; refused by name in isa/matrix.c). */
static bool is_float_row(const struct amd_isa_op *op)
{
	return !(op->flags & AMD_F_NO_MODS) &&
	       !(op->flags & AMD_F_TIED_DST && !strncmp(op->name, "v_dot", 5));
}

/* DPP forms of a 32-bit VOP1/VOP2/VOPC row. */
static void gen_dpp(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	unsigned fp = 0, srcs = 0;
	bool is16 = false;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->width > 1 || d->kind == AMD_OPK_KIMM || d->kind == AMD_OPK_SDST)
			return;
		is16 |= d->dtype == AMD_DT_F16 || d->dtype == AMD_DT_B16;
		if (d->role == AMD_ROLE_SRC) {
			if (d->kind != AMD_OPK_VCC &&
			    amd_dtype_is_float((enum amd_dtype)d->dtype) && is_float_row(op))
				fp |= 1u << srcs;
			srcs++;
		}
	}
	bool gfx10 = c->gen >= AMD_GFX10;
	for (int variant = 0; variant < 6; variant++) {
		struct amd_inst in = {.row = c->row, .dpp = 1, .row_mask = 15, .bank_mask = 15};
		/* (gfx11+ 16-bit DPP with v128+ or modifiers: we refuse, LLVM varies) */
		bool narrow = is16 && c->gen >= AMD_GFX11;
		fill_regs(c, &in, variant == 1 && !narrow, 0, 0);
		switch (variant) {
		case 0:
			in.dpp_ctrl = 0x101; /* row_shl:1 */
			break;
		case 1:
			in.dpp_ctrl = 0x1b, in.row_mask = 5, in.bank_mask = 10,
			in.bound_ctrl = true;
			in.fi = gfx10;
			break;
		case 2:
			in.dpp_ctrl = 0x140;
			if (!narrow)
				in.neg = (uint8_t)(fp & 1), in.abs = (uint8_t)(fp & 2);
			break;
		case 3:
			in.dpp_ctrl = gfx10 ? 0x153 : 0x142; /* row_share:3 / row_bcast:15 */
			break;
		case 4:
			in.dpp_ctrl = gfx10 ? 0x165 : 0x138; /* row_xmask:5 / wave_shr:1 */
			break;
		default:
			if (!gfx10)
				continue;
			in.dpp = 2, in.dpp8_sel = 0xfac688, in.fi = true; /* [0,1,...,7] reversed */
			break;
		}
		emit(c, &in);
	}
}

/* SDWA forms (gfx9/gfx10) of a 32-bit VOP1/VOP2/VOPC row. */
static void gen_sdwa(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	unsigned fp = 0, srcs = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->width > 1 || d->kind == AMD_OPK_KIMM || d->kind == AMD_OPK_SDST)
			return;
		if (d->role == AMD_ROLE_SRC) {
			if (d->kind != AMD_OPK_VCC && amd_dtype_is_float((enum amd_dtype)d->dtype))
				fp |= 1u << srcs;
			srcs++;
		}
	}
	for (int variant = 0; variant < 6; variant++) {
		struct amd_inst in = {.row = c->row, .sdwa = true, .dst_sel = 6, .src_sel = {6, 6}};
		if (variant == 5 && (fp & 1)) /* integer src0 only: an inline constant */
			continue;
		fill_regs(c, &in, variant == 1, variant == 2 ? 1 : 0, variant == 3 ? 1 : 0);
		switch (variant) {
		case 0:
			in.dst_sel = 5, in.dst_unused = 2, in.src_sel[0] = 1, in.src_sel[1] = 4;
			break;
		case 1:
			in.dst_sel = 0, in.dst_unused = 1, in.src_sel[0] = 3;
			if (fp)
				in.neg = (uint8_t)(fp & 1), in.abs = (uint8_t)(fp & 2);
			else
				in.sext = 1;
			break;
		case 4:
			if (op->format == AMD_FMT_VOPC) { /* explicit SGPR destination */
				for (int i = 0; i < op->nopnds; i++)
					if (op->opnds[i].kind == AMD_OPK_VCC &&
					    op->opnds[i].role == AMD_ROLE_DST)
						in.ops[i] = sgpr(10, mask_w(c));
			} else if (op->flags & AMD_F_FP_RESULT) {
				in.clamp = true;
			}
			break;
		case 5: /* gfx9/gfx10 SDWA take an inline constant where they take an SGPR */
			for (int i = 0; i < op->nopnds; i++)
				if (op->opnds[i].role == AMD_ROLE_SRC &&
				    op->opnds[i].kind != AMD_OPK_VCC) {
					in.ops[i] = imm(2);
					break;
				}
			break;
		default:
			break;
		}
		emit(c, &in);
	}
}

/* The instance with its first register tuple moved to an odd register: refused for SGPR
 * pairs everywhere and for VGPR tuples on gfx90a/gfx942 (by llvm-mc-19 too), accepted
 * otherwise -- the cases amd_reg_align must predict. */
static void emit_misaligned(struct gen_ctx *c, struct amd_inst in)
{
	for (int i = 0; i < c->op->nopnds; i++) {
		struct amd_val *v = &in.ops[i];
		unsigned w = v->width ? v->width : c->op->opnds[i].width;
		if ((v->kind == AMD_V_SGPR || v->kind == AMD_V_VGPR) && w >= 2 && !(v->reg & 1)) {
			v->reg++;
			emit(c, &in);
			return;
		}
	}
}

/* MFMA / WMMA modifiers: cbsz/abid/blgp (and out-of-range values), gfx942 f64 neg, WMMA
 * neg_lo/neg_hi, clamp and op_sel; srcC as an inline constant, an SGPR and a literal.  (Not
 * generated: what LLVM accepts and we refuse by name because amdsim does not execute it --
 * WMMA neg on srcC, neg_hi on the integer WMMA forms, op_sel bits 0/1 of gfx11's 16-bit-result
 * WMMA; docs/ENCODING.md.) */
struct matrix_mods {
	uint8_t cbsz, abid, blgp, neg, neg_hi, op_sel;
	bool clamp;
};
static const struct matrix_mods mfma_mods[] = {
        {2, 3, 3, 0, 0, 0, false},  {4, 15, 7, 0, 0, 0, false}, {8, 0, 0, 0, 0, 0, false},
        {0, 16, 0, 0, 0, 0, false}, {0, 0, 0, 5, 0, 0, false},  {0, 0, 1, 1, 0, 0, false},
        {1, 1, 0, 0, 0, 0, false},  {1, 2, 0, 0, 0, 0, false},  {0, 0, 5, 0, 0, 0, false},
        {0, 0, 0, 0, 1, 0, false},  {0, 0, 0, 0, 0, 4, false},  {0, 0, 0, 0, 0, 0, true}};
static const struct matrix_mods wmma_mods[] = {
        {0, 0, 0, 1, 0, 0, false}, {0, 0, 0, 2, 0, 0, true},  {0, 0, 0, 3, 3, 0, false},
        {0, 0, 0, 2, 1, 0, false}, {0, 0, 0, 0, 0, 4, false}, {0, 0, 0, 0, 0, 1, false},
        {0, 0, 0, 0, 0, 0, true},  {1, 0, 0, 0, 0, 0, false}};

static void gen_matrix(struct gen_ctx *c)
{
	bool mai = c->op->flags & AMD_F_MAI;
	const struct amd_matrix_info *mi = amd_isa_matrix((enum amd_opcode)c->row);
	bool int_wmma = !mai && mi && mi->cd_type == AMD_MT_I32;
	bool half_gfx11 = !mai && mi && c->gen == AMD_GFX11 && mi->cd_type != AMD_MT_F32 &&
	                  mi->cd_type != AMD_MT_I32;
	const struct matrix_mods *mods = mai ? mfma_mods : wmma_mods;
	unsigned nmods = mai ? sizeof mfma_mods / sizeof mfma_mods[0]
	                     : sizeof wmma_mods / sizeof wmma_mods[0];
	for (unsigned i = 0; i < nmods; i++) {
		if ((int_wmma && mods[i].neg_hi) || (half_gfx11 && mods[i].op_sel & 3))
			continue;
		/* cbsz/abid that the calculator calls invalid but LLVM takes (we refuse) */
		if (mai && mods[i].cbsz < 8 && mods[i].abid < 16 &&
		    ((1u << mods[i].cbsz) > mi->blocks || mods[i].abid >= (1u << mods[i].cbsz)))
			continue;
		struct amd_inst in = {.row = c->row};
		fill_regs(c, &in, i & 1, 0, 0);
		in.cbsz = mods[i].cbsz, in.abid = mods[i].abid, in.blgp = mods[i].blgp;
		in.neg = mods[i].neg, in.neg_hi = mods[i].neg_hi, in.op_sel = mods[i].op_sel;
		in.clamp = mods[i].clamp;
		emit(c, &in);
	}
	if (mai) { /* AGPR operands: C/D (acc_cd), A, B (acc), and the refused mixes */
		static const uint8_t agpr_sets[][4] = {{1, 0, 0, 1}, {1, 1, 1, 1}, {0, 1, 0, 0},
		                                       {0, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}};
		for (unsigned i = 0; i < sizeof agpr_sets / sizeof agpr_sets[0]; i++) {
			struct amd_inst in = {.row = c->row};
			fill_regs(c, &in, i & 1, 0, 0);
			for (int k = 0; k < 4; k++)
				if (agpr_sets[i][k])
					in.ops[k].kind = AMD_V_AGPR;
			emit(c, &in);
		}
		struct amd_inst in = {.row = c->row}; /* an inline srcC with an AGPR D */
		fill_regs(c, &in, false, 0, 0);
		in.ops[0].kind = AMD_V_AGPR, in.ops[3] = imm(0);
		emit(c, &in);
	}
	for (unsigned i = 0; i < 5; i++) {
		struct amd_inst in = {.row = c->row};
		fill_regs(c, &in, false, 0, 0);
		enum amd_dtype dt = (enum amd_dtype)c->op->opnds[3].dtype;
		uint32_t k = i == 0 ? 0 : i < 3 ? inline_for(dt, (int)i - 1) : literal_for(dt);
		in.ops[3] = i < 4 ? imm(k)
		                  : sgpr(sreg(c, 3, c->op->opnds[3].width, false),
		                         c->op->opnds[3].width);
		emit(c, &in);
	}
}

static void gen_valu(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	bool e32 = op->format != AMD_FMT_VOP3 && op->format != AMD_FMT_VOP3P &&
	           op->opcode[c->gen] >= 0;
	bool e64 = op->format == AMD_FMT_VOP3 || op->format == AMD_FMT_VOP3P ||
	           (op->vop3_opcode[c->gen] >= 0 && !(op->flags & AMD_F_NO_E64));
	for (int variant = 0; variant < 8; variant++) {
		struct amd_inst in = {.row = c->row};
		static const int src0k[8] = {0, 0, 1, 2, 3, 2, 4, 0};
		static const int src1k[8] = {0, 0, 0, 0, 0, 0, 0, 1};
		fill_regs(c, &in, variant == 1 || variant == 5, src0k[variant], src1k[variant]);
		emit(c, &in);
		if (variant == 0)
			emit_misaligned(c, in);
		if (variant == 0 && e32 && e64) {
			in.enc = AMD_ENC_E64;
			emit(c, &in);
		}
	}
	if (e32 && op->nopnds) /* (v_nop's DPP/SDWA spellings: nothing to select) */
		gen_dpp(c);
	if (e32 && op->nopnds && c->gen <= AMD_GFX10)
		gen_sdwa(c);
	if (!e64)
		return;
	/* VOP3 forms with explicit masks, modifiers */
	struct amd_inst in = {.row = c->row, .enc = AMD_ENC_E64};
	fill_regs(c, &in, false, 0, 1);
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == AMD_OPK_VCC)
			in.ops[i] = sgpr(sreg(c, 3 + i, mask_w(c), false), mask_w(c));
	emit(c, &in);
	if (op->flags & (AMD_F_MAI | AMD_F_WMMA)) {
		gen_matrix(c);
		return;
	}
	if (op->format == AMD_FMT_VOP3P && !strncmp(op->name, "v_dot", 5)) {
		/* what amdsim executes: clamp, and the signedness bits of the _iu forms */
		in = (struct amd_inst){.row = c->row, .clamp = true};
		fill_regs(c, &in, true, 0, 0);
		emit(c, &in);
		in.neg = 2, in.clamp = false;
		if (op->flags & AMD_F_IU_SIGN)
			emit(c, &in);
		return;
	}
	if (op->format == AMD_FMT_VOP3P) {
		in = (struct amd_inst){.row = c->row};
		fill_regs(c, &in, false, 0, 0);
		in.op_sel = 1, in.op_sel_hi = 2, in.op_sel_hi_set = true;
		emit(c, &in);
		in = (struct amd_inst){.row = c->row};
		fill_regs(c, &in, true, 0, 0);
		in.neg = 1, in.neg_hi = 2, in.clamp = true;
		emit(c, &in);
		return;
	}
	if (op->flags & AMD_F_OPSEL_FI_BC) { /* v_permlane16/x16: op_sel:[fi,bound_ctrl] */
		for (unsigned k = 1; k < 4; k++) {
			in = (struct amd_inst){.row = c->row, .op_sel = (uint8_t)k};
			fill_regs(c, &in, k == 2, 0, 1);
			if (k == 3) /* literal and inline constant selects */
				in.ops[2] = imm(0x76543210u), in.ops[3] = imm(0xffffffffu);
			emit(c, &in);
		}
		in = (struct amd_inst){.row = c->row};
		fill_regs(c, &in, false, 0, 1);
		in.ops[2] = imm(0x76543210u), in.ops[3] = imm(0xfedcba98u); /* two literals */
		emit(c, &in);
	}
	if (!is_float_row(op))
		return;
	unsigned srcs = 0, mask = 0;
	bool vop3b = op->flags & AMD_F_VOP3B;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->role != AMD_ROLE_SRC)
			continue;
		if (d->kind != AMD_OPK_VCC && amd_dtype_is_float((enum amd_dtype)d->dtype))
			mask |= 1u << srcs;
		if (d->kind == AMD_OPK_VCC && d->role == AMD_ROLE_DST)
			vop3b = true;
		srcs++;
	}
	unsigned abs_mask = vop3b ? 0 : mask;
	unsigned omod_ok = (op->flags & AMD_F_FP_RESULT) != 0;
	bool clamp_ok = !(op->flags & AMD_F_NO_CLAMP);
	in = (struct amd_inst){.row = c->row, .enc = AMD_ENC_E64};
	fill_regs(c, &in, false, 0, 0);
	in.neg = 1 & mask, in.abs = 2 & abs_mask, in.clamp = clamp_ok;
	emit(c, &in);
	in.neg = 2 & mask, in.abs = 1 & abs_mask, in.clamp = false, in.omod = omod_ok ? 1 : 0;
	emit(c, &in);
	in.neg = 3 & mask, in.abs = 0, in.omod = omod_ok ? 3 : 0;
	emit(c, &in);
	/* modifiers the instruction cannot take must be refused (LLVM agrees) */
	/* (v_ldexp_f16's integer exponent takes neg on gfx11+ in LLVM: we stay stricter) */
	in.neg = (uint8_t)(~mask & ((1u << srcs) - 1)), in.abs = 0, in.omod = 0;
	if (in.neg && strncmp(op->name, "v_ldexp", 7))
		emit(c, &in);
	in.neg = 0, in.omod = omod_ok ? 0 : 1;
	if (in.omod)
		emit(c, &in);
}

static void gen_scalar(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	for (int variant = 0; variant < 5; variant++) {
		struct amd_inst in = {.row = c->row};
		static const int src0k[5] = {1, 1, 2, 3, 4};
		fill_regs(c, &in, variant == 1 || variant == 2, src0k[variant],
		          variant == 2 ? 2 : 1);
		for (int i = 0; i < op->nopnds; i++) {
			if (op->opnds[i].kind != AMD_OPK_SIMM16 &&
			    op->opnds[i].kind != AMD_OPK_LABEL)
				continue;
			uint32_t s = variant ? 0x1234 : 5;
			if (op->simm == AMD_SIMM_HWREG)
				s = variant ? (2 | 2 << 6 | 3 << 11) : (1 | 31 << 11);
			else if (op->simm == AMD_SIMM_DELAY)
				s = variant ? 0x491 : 1;
			else if (op->simm == AMD_SIMM_WAITCNT)
				s = c->gen >= AMD_GFX11 ? (variant ? 0x0432 : 0x03f7)
				                        : (variant ? 0x0321 : 0x0f70);
			else if (op->simm == AMD_SIMM_SIMM)
				s = variant ? 0xffff : 5;
			else if (op->simm == AMD_SIMM_SENDMSG)
				s = c->gen >= AMD_GFX11 ? 3 : 1;
			else if (op->simm == AMD_SIMM_DEPCTR)
				s = variant ? 0xfffe : 0xfff;
			in.ops[i] = imm(op->opnds[i].kind == AMD_OPK_LABEL && variant ? 0xfffd : s);
		}
		if (!strcmp(op->name, "s_waitcnt_vscnt"))
			in.ops[0] = special(AMD_SPEC_NULL);
		if (op->format == AMD_FMT_SMEM) {
			for (int i = 0; i < op->nopnds; i++)
				if (op->opnds[i].kind == AMD_OPK_SOFFSET)
					in.ops[i] = variant == 1   ? imm(0x10)
					            : variant == 2 ? imm(0)
					            : variant == 3 ? sgpr(5, 1)
					                           : imm(0x1fc);
				else if (op->opnds[i].kind == AMD_OPK_SBASE)
					in.ops[i] = sgpr(variant == 1 ? 96 : 4, op->opnds[i].width);
			if (variant == 3 && c->gen != AMD_GFX12) /* soffset plus offset:0 */
				in.smem_soe = true;
			if (variant == 4 && !(op->flags & AMD_F_SMEM_NO_ADDR))
				in.cpol = c->gen == AMD_GFX12 ? AMD_CPOL_SCOPE(2) : AMD_CPOL_GLC;
		}
		emit(c, &in);
	}
	/* every named hardware register, and the other scalar register spellings */
	if (op->simm == AMD_SIMM_HWREG) {
		for (unsigned id = 0; id < 64; id++) {
			if (!amd_hwreg_name(c->gen, id))
				continue;
			struct amd_inst in = {.row = c->row};
			fill_regs(c, &in, false, 1, 1);
			for (int i = 0; i < op->nopnds; i++)
				if (op->opnds[i].kind == AMD_OPK_SIMM16)
					in.ops[i] = imm(id | 31u << 11);
			emit(c, &in);
		}
	}
	int s0 = -1;
	for (int i = 0; i < op->nopnds; i++)
		if (s0 < 0 && op->opnds[i].kind == AMD_OPK_SSRC)
			s0 = i;
	if (s0 < 0 || op->format == AMD_FMT_SMEM || op->format == AMD_FMT_SOPK ||
	    op->flags & AMD_F_IMM_OR_M0)
		return;
	static const unsigned specs[] = {AMD_SPEC_SRC_SHARED_BASE, AMD_SPEC_SRC_PRIVATE_LIMIT,
	                                 AMD_SPEC_FLAT_SCRATCH, AMD_SPEC_VCC, AMD_SPEC_EXEC};
	for (unsigned k = 0; k < sizeof specs / sizeof specs[0] + 1; k++) {
		struct amd_inst in = {.row = c->row};
		fill_regs(c, &in, false, 1, 1);
		unsigned w = op->opnds[s0].width;
		if (k == sizeof specs / sizeof specs[0])
			in.ops[s0] = (struct amd_val){.kind = AMD_V_TTMP,
			                              .reg = (uint16_t)(w >= 2 ? 4 : 3),
			                              .width = (uint8_t)w};
		else
			in.ops[s0] = special(specs[k]);
		emit(c, &in);
	}
}

/* Memory rows: operands in row order; `high` picks high registers, saddr/vaddr variants. */
static void fill_mem(struct gen_ctx *c, struct amd_inst *in, bool high, bool use_saddr)
{
	const struct amd_isa_op *op = c->op;
	unsigned nv = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		unsigned w = d->width;
		switch (d->kind) {
		case AMD_OPK_VDST:
			in->ops[i] = vgpr(vreg(0, w, high), w);
			break;
		case AMD_OPK_VGPR:
			if (nv == 0 && use_saddr && op->format == AMD_FMT_GLOBAL)
				w = 1;
			if (nv == 0 && use_saddr && op->format == AMD_FMT_SCRATCH)
				in->ops[i] = off();
			else
				in->ops[i] = vgpr(vreg(1 + nv, w, high), w);
			nv++;
			break;
		case AMD_OPK_SADDR:
			in->ops[i] = use_saddr ? sgpr(high ? 96 : 4,
			                              op->format == AMD_FMT_SCRATCH ? 1 : 2)
			                       : off();
			break;
		case AMD_OPK_SRSRC:
			in->ops[i] = sgpr(high ? 96 : 8, 4);
			break;
		case AMD_OPK_SOFFSET:
			in->ops[i] = !high                 ? sgpr(3, 1)
			             : c->gen >= AMD_GFX12 ? special(AMD_SPEC_NULL)
			                                   : imm(0);
			break;
		default:
			break;
		}
	}
}

static unsigned data_width(const struct amd_isa_op *op)
{
	int n = 0;
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == AMD_OPK_VGPR && n++ == 1)
			return op->opnds[i].width;
	return 1;
}

static void gen_mem(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	if (op->nopnds == 0) { /* cache control */
		struct amd_inst in = {.row = c->row};
		emit(c, &in);
		in.cpol = c->gen == AMD_GFX940  ? AMD_CPOL_SC1
		          : c->gen == AMD_GFX12 ? AMD_CPOL_SCOPE(3)
		                                : AMD_CPOL_GLC;
		emit(c, &in); /* refused unless the row takes cache bits (LLVM agrees) */
		return;
	}
	bool is_flat = op->format == AMD_FMT_FLAT, is_buf = op->format == AMD_FMT_MUBUF;
	for (int variant = 0; variant < 6; variant++) {
		struct amd_inst in = {.row = c->row};
		bool saddr = !is_flat && !is_buf && (variant == 1 || variant == 3);
		fill_mem(c, &in, variant == 1 || variant == 4, saddr);
		if (op->format == AMD_FMT_DS) {
			if (op->flags & AMD_F_DS_2ADDR)
				in.offset = variant & 1 ? 1 : 0,
				in.offset1 = variant >= 2 ? 255 : 0;
			else
				in.offset = variant == 2 ? 65535 : variant == 3 ? 16 : 0;
			emit(c, &in);
			if (variant == 0)
				emit_misaligned(c, in);
			continue;
		}
		if (is_buf) {
			in.offen = variant != 2 && variant != 5;
			in.idxen = variant == 5;
			if (variant == 2)
				in.ops[1] = off();
			in.offset = variant == 3 ? 4095 : variant == 2 ? 8 : 0;
		} else {
			in.offset = variant == 2 ? (is_flat ? 2047 : -16) : variant == 3 ? 64 : 0;
		}
		if (variant == 4 || variant == 5) {
			switch (c->gen) {
			case AMD_GFX940:
				in.cpol = variant == 4 ? AMD_CPOL_SC0 | AMD_CPOL_NT : AMD_CPOL_SC1;
				break;
			case AMD_GFX12:
				in.cpol = variant == 4 ? AMD_CPOL_SCOPE(3)
				                       : AMD_CPOL_TH(1) | AMD_CPOL_SCOPE(1);
				break;
			case AMD_GFX9:
				in.cpol = variant == 4 ? AMD_CPOL_SLC : AMD_CPOL_GLC | AMD_CPOL_SLC;
				break;
			default:
				in.cpol = variant == 4 ? AMD_CPOL_DLC : AMD_CPOL_GLC | AMD_CPOL_SLC;
				break;
			}
			if (op->flags & AMD_F_ATOMIC)
				in.cpol &= (unsigned)~(AMD_CPOL_GLC | AMD_CPOL_TH(7));
		}
		emit(c, &in);
		if (op->flags & AMD_F_ATOMIC && variant < 2) {
			/* returning form */
			unsigned w = data_width(op);
			if (strstr(op->name, "cmpswap"))
				w /= 2;
			if (op->format != AMD_FMT_MUBUF)
				in.rtn = vgpr(vreg(0, w, variant == 1), w);
			in.cpol = c->gen == AMD_GFX12 ? AMD_CPOL_TH(1) : AMD_CPOL_GLC;
			emit(c, &in);
		}
	}
}

/* One VOPD half's operands: vdst, src0 (kind k: 0 VGPR, 1 SGPR, 2 inline, 3 literal),
 * vsrc1, K; `base` spreads the halves over distinct VGPR banks. */
static void fill_vopd(const struct amd_isa_op *op, struct amd_val *ops, unsigned vdst,
                      unsigned base, int k, uint32_t lit)
{
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->kind == AMD_OPK_VDST)
			ops[i] = vgpr(vdst, 1);
		else if (d->kind == AMD_OPK_KIMM)
			ops[i] = imm(lit);
		else if (d->kind == AMD_OPK_VGPR)
			ops[i] = vgpr(base + 1, 1);
		else
			ops[i] = k == 0   ? vgpr(base, 1)
			         : k == 1 ? sgpr(base, 1)
			         : k == 2 ? imm(7)
			                  : imm(lit);
	}
}

static void gen_vopd(struct gen_ctx *c)
{
	unsigned count;
	const struct amd_isa_op *rows = amd_isa_table(&count);
	int mov = amd_isa_find("v_dual_mov_b32");
	bool y_only = c->op->opcode[c->gen] >= 16;
	for (int variant = 0; variant < 9; variant++) {
		struct amd_inst in = {
		        .row = y_only ? mov : c->row, .dual = true, .row_y = y_only ? c->row : mov};
		const struct amd_isa_op *ox = &rows[in.row], *oy = &rows[in.row_y];
		bool high = variant == 1;
		/* X: vdst odd, src0 bank 0, vsrc1 bank 1; Y: vdst even, src0 bank 2, vsrc1 bank 3
		 */
		fill_vopd(ox, in.ops, high ? 255 : 1, high ? 240 : 4,
		          variant == 2   ? 1
		          : variant == 3 ? 3
		                         : 0,
		          0x40490fdb);
		fill_vopd(oy, in.ops_y, high ? 254 : 2, high ? 234 : 10,
		          variant == 4   ? 2
		          : variant == 3 ? 3
		                         : 0,
		          0x40490fdb);
		if (variant == 5) /* same VGPR bank for both src0 (refused on gfx11) */
			in.ops_y[1] = vgpr(8, 1);
		for (int i = 0; variant == 6 && i < oy->nopnds; i++) /* same vsrc1 bank */
			if (oy->opnds[i].kind == AMD_OPK_VGPR)
				in.ops_y[i] = vgpr(9, 1);
		if (variant == 7) /* both destinations even */
			in.ops_y[0] = vgpr(6, 1);
		if (variant == 8) /* two different SGPRs and a literal */
			in.ops[1] = sgpr(4, 1), in.ops_y[1] = sgpr(6, 1);
		emit(c, &in);
	}
}

/* Image rows: data/address tuples sized from dmask and dim (amd_image_addr_count), low and
 * high registers, every supported dim, unorm, cache bits, the returning atomic; and two
 * refusals LLVM shares (data size against dmask; on gfx10+, address size against dim). */
static void gen_mimg(struct gen_ctx *c)
{
	const struct amd_isa_op *op = c->op;
	bool atomic = op->flags & AMD_F_ATOMIC, sampler = amd_image_has_sampler(op);
	bool gather = op->image & AMD_IMG_GATHER;
	static const uint8_t dims[6] = {1, 0, 2, 3, 4, 5};
	static const uint8_t dmasks[6] = {0xf, 0x1, 0x7, 0x3, 0x5, 0x9};
	for (int variant = 0; variant < 8; variant++) {
		struct amd_inst in = {.row = c->row};
		bool high = variant & 1;
		unsigned dim = dims[variant % 6];
		unsigned dmask = atomic   ? (strstr(op->name, "cmpswap") ? 0x3 : 0x1)
		                 : gather ? 1u << (variant & 3)
		                          : dmasks[variant % 6];
		unsigned ndata = amd_image_data_count(op, dmask),
		         naddr = amd_image_addr_count(op, dim);
		if (variant == 6) /* data size against dmask */
			ndata = ndata == 1 ? 2 : 1;
		if (variant == 7) { /* address size against dim: LLVM checks it on gfx10+ */
			if (c->gen <= AMD_GFX940)
				continue;
			naddr++;
		}
		in.dmask = (uint8_t)dmask;
		in.dim = (uint8_t)dim;
		in.unorm = (!sampler && c->gen < AMD_GFX12) || (sampler && variant == 1);
		unsigned nv = 0;
		for (int i = 0; i < op->nopnds; i++) {
			const struct amd_opnd_desc *d = &op->opnds[i];
			if (d->kind == AMD_OPK_VDST || d->kind == AMD_OPK_VGPR) {
				unsigned w = nv ? naddr : ndata;
				in.ops[i] = vgpr(high ? (nv ? 230u : 250u) : (nv ? 8u : 0u), w);
				nv++;
			} else if (d->kind == AMD_OPK_SRSRC) {
				in.ops[i] = sgpr(high ? 88 : 8, d->width);
			} else if (d->kind == AMD_OPK_SSAMP) {
				in.ops[i] = sgpr(high ? 96 : 20, 4);
			}
		}
		if (variant == 2 || variant == 3 || (atomic && variant == 1)) {
			bool ret = atomic && variant != 2;
			switch (c->gen) {
			case AMD_GFX12:
				in.cpol = ret ? AMD_CPOL_TH(1)
				              : AMD_CPOL_TH(variant == 2 ? 1 : 0) |
				                          AMD_CPOL_SCOPE(variant == 3 ? 3 : 0);
				break;
			case AMD_GFX9:
				in.cpol = (ret ? AMD_CPOL_GLC : 0) | AMD_CPOL_SLC;
				break;
			default:
				in.cpol = (ret ? AMD_CPOL_GLC : 0) | AMD_CPOL_SLC | AMD_CPOL_DLC;
				break;
			}
		}
		emit(c, &in);
	}
}

int main(int argc, char **argv)
{
	size_t ntargets;
	const struct amd_target_info *infos = amd_target_infos(&ntargets);
	unsigned nrows;
	const struct amd_isa_op *rows = amd_isa_table(&nrows);
	struct legal_tally tally = {0};
	bool legal_mode = argc > 1 && !strcmp(argv[1], "--legal");
	int first = legal_mode ? 2 : 1;
	for (size_t ti = 0; ti < ntargets; ti++) {
		bool wanted = argc <= first;
		for (int a = first; a < argc; a++)
			wanted |= !strcmp(argv[a], infos[ti].name);
		if (!wanted)
			continue;
		struct amd_target t;
		char err[200];
		if (!amd_target_parse(infos[ti].name, &t, err, sizeof err))
			return 1;
		for (unsigned r = 0; r < nrows; r++) {
			struct gen_ctx c = {.t = &t,
			                    .gen = t.info->gen,
			                    .op = &rows[r],
			                    .row = (int)r,
			                    .legal = legal_mode ? &tally : NULL};
			if (!rows[r].gen_name[c.gen])
				continue;
			switch (rows[r].format) {
			case AMD_FMT_VOP1:
			case AMD_FMT_VOP2:
			case AMD_FMT_VOPC:
			case AMD_FMT_VOP3:
			case AMD_FMT_VOP3P:
				gen_valu(&c);
				break;
			case AMD_FMT_VOPD:
				gen_vopd(&c);
				break;
			case AMD_FMT_MIMG:
				gen_mimg(&c);
				break;
			case AMD_FMT_DS:
			case AMD_FMT_FLAT:
			case AMD_FMT_GLOBAL:
			case AMD_FMT_SCRATCH:
			case AMD_FMT_MUBUF:
				gen_mem(&c);
				break;
			default:
				gen_scalar(&c);
				break;
			}
			if (!legal_mode)
				printf("%s\t%s\tROW\t%u\n", t.info->name, rows[r].name, c.count);
		}
	}
	if (!legal_mode)
		return 0;
	printf("%u instances: %u compared exactly, %u DPP/SDWA/VOPD; %u disagreements\n",
	       tally.compared, tally.exact, tally.extension, tally.mismatches);
	return tally.mismatches || tally.exact < 1000 ? 1 : 0;
}
