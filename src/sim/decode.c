/* decode: amdsim's own instruction decoder, from raw machine code to struct sim_insn.
 *
 * The format is found from the fixed prefix bits of the first dword, the opcode is looked up
 * in the shared instruction table only (amd_isa_decode, src/encode/amd_isa.h) as (generation,
 * format, opcode) -> mnemonic, and the mnemonic selects the semantics row.  Fields are
 * extracted here, independently of the assembler, so a wrong table row shows up as a failure
 * when clang's code runs; an opcode without a row is an "unimplemented instruction" fault.  Decoded
 * instructions are cached per dword of code (ctx->icache), so each PC is decoded once per dispatch.
 * requires: sim_decode_init on the context (builds the opcode -> row maps).
 * complexity: O(1) per instruction after the maps are built (O(rows) once). */
#include <stdio.h>
#include <string.h>

#include "amd_isa.h"
#include "sim_int.h"

enum { MAP_SIZE = 1024 };

/* The shared table's format for each of amdsim's decode formats. */
static const int8_t shared_format[SIM_NUM_FMTS] = {
        [SIM_FMT_SOP2] = AMD_FMT_SOP2,       [SIM_FMT_SOPK] = AMD_FMT_SOPK,
        [SIM_FMT_SOP1] = AMD_FMT_SOP1,       [SIM_FMT_SOPC] = AMD_FMT_SOPC,
        [SIM_FMT_SOPP] = AMD_FMT_SOPP,       [SIM_FMT_SMEM] = AMD_FMT_SMEM,
        [SIM_FMT_VOP2] = AMD_FMT_VOP2,       [SIM_FMT_VOP1] = AMD_FMT_VOP1,
        [SIM_FMT_VOPC] = AMD_FMT_VOPC,       [SIM_FMT_VOP3] = AMD_FMT_VOP3,
        [SIM_FMT_VOP3P] = AMD_FMT_VOP3P,     [SIM_FMT_DS] = AMD_FMT_DS,
        [SIM_FMT_FLAT] = AMD_FMT_FLAT,       [SIM_FMT_GLOBAL] = AMD_FMT_GLOBAL,
        [SIM_FMT_SCRATCH] = AMD_FMT_SCRATCH, [SIM_FMT_MUBUF] = AMD_FMT_MUBUF,
        [SIM_FMT_VOPDX] = AMD_FMT_VOPD,      [SIM_FMT_VOPDY] = AMD_FMT_VOPD,
        [SIM_FMT_MIMG] = AMD_FMT_MIMG,
};

/* Mnemonic as amdsim's semantics rows spell it: no _e32/_e64, VOPD halves without v_dual_. */
static const char *plain_name(struct pa_arena *a, const char *name)
{
	char buf[96];
	if (!strncmp(name, "v_dual_", 7))
		snprintf(buf, sizeof buf, "v_%s", name + 7);
	else
		snprintf(buf, sizeof buf, "%s", name);
	size_t l = strlen(buf);
	if (l > 4 && (!strcmp(buf + l - 4, "_e32") || !strcmp(buf + l - 4, "_e64")))
		buf[l - 4] = 0;
	return pa_arena_strndup(a, buf, strlen(buf));
}

/* The semantics row for a mnemonic, or NULL (linear: used once per opcode per dispatch). */
static const struct sim_sem *sem_by_name(const char *name)
{
	const struct sim_sem *(*const tables[])(unsigned *) = {
	        sim_sems_salu, sim_sems_valu, sim_sems_v16,    sim_sems_vmisc,
	        sim_sems_mem,  sim_sems_s12,  sim_sems_matrix, sim_sems_image};
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		unsigned n;
		const struct sim_sem *rows = tables[t](&n);
		for (unsigned i = 0; i < n; i++)
			if (!strcmp(rows[i].name, name))
				return &rows[i];
	}
	return NULL;
}

static void add_entry(struct sim_ctx *c, uint16_t **maps, unsigned fmt, unsigned op,
                      const char *name)
{
	unsigned i = c->nentries++;
	c->entry_name[i] = name;
	c->entry_sem[i] = sem_by_name(name);
	maps[fmt][op] = (uint16_t)(i + 1);
}

/* Builds (format, opcode) -> (mnemonic, semantics) for the dispatch's generation from the
 * shared instruction table alone (src/encode/amd_isa.h).  tests/sim/optable_test.c checks
 * its mnemonics against llvm-mc-19's disassembly of every opcode of every format. */
void sim_decode_init(struct sim_ctx *c)
{
	unsigned ntab;
	const struct amd_isa_op *tab = amd_isa_table(&ntab);
	uint16_t *maps[SIM_NUM_FMTS];
	for (unsigned f = 0; f < SIM_NUM_FMTS; f++) {
		maps[f] = PA_NEW_ARRAY(&c->arena, uint16_t, MAP_SIZE);
		c->decode_map[f] = maps[f];
	}
	c->entry_name = PA_NEW_ARRAY(&c->arena, const char *, SIM_NUM_FMTS *MAP_SIZE);
	c->entry_sem = PA_NEW_ARRAY(&c->arena, const struct sim_sem *, SIM_NUM_FMTS *MAP_SIZE);
	for (unsigned f = 0; f < SIM_NUM_FMTS; f++) {
		unsigned limit = f == SIM_FMT_VOPDX || f == SIM_FMT_VOPDY ? 32 : MAP_SIZE;
		for (unsigned op = 0; op < limit; op++) {
			int row = amd_isa_decode(c->gen, (enum amd_format)shared_format[f], op);
			if (row < 0 || (unsigned)row >= ntab)
				continue;
			const char *n = tab[row].gen_name[c->gen] ? tab[row].gen_name[c->gen]
			                                          : tab[row].name;
			add_entry(c, maps, f, op, plain_name(&c->arena, n));
		}
	}
}

static uint16_t scalar_code(const struct sim_ctx *c, uint32_t code)
{
	/* gfx11 swapped M0 and NULL relative to gfx9/10 */
	if (c->gen >= AMD_GFX11) {
		if (code == 124)
			return SIM_NULL;
		if (code == 125)
			return SIM_M0;
	}
	return (uint16_t)code;
}

static uint16_t src_code(const struct sim_ctx *c, uint32_t code)
{
	return code >= 256 ? (uint16_t)code : scalar_code(c, code);
}

static bool is_gfx9(const struct sim_ctx *c)
{
	return c->gen == AMD_GFX9 || c->gen == AMD_GFX940;
}

/* gfx12 formats after the SOP and VOP1/VOP2/VOPC prefixes: SMEM with a 6-bit opcode, and the
 * 96-bit VFLAT/VSCRATCH/VGLOBAL (encoding byte 0xEC/0xED/0xEE) and VBUFFER (0xC4) memory forms. */
static int find_format_gfx12(uint32_t w0, uint32_t *op)
{
	switch (w0 >> 24) {
	case 0xC4:
		*op = (w0 >> 14) & 0xff;
		return SIM_FMT_MUBUF;
	case 0xEC:
	case 0xED:
	case 0xEE: {
		static const int segs[3] = {SIM_FMT_FLAT, SIM_FMT_SCRATCH, SIM_FMT_GLOBAL};
		*op = (w0 >> 14) & 0x7f;
		return segs[(w0 >> 24) - 0xEC];
	}
	default:
		break;
	}
	switch (w0 >> 26) {
	case 0x34: /* VIMAGE */
	case 0x39: /* VSAMPLE */
		*op = (w0 >> 14) & 0xff;
		return SIM_FMT_MIMG;
	case 0x3D:
		*op = (w0 >> 13) & 0x3f;
		return SIM_FMT_SMEM;
	case 0x35:
		*op = (w0 >> 16) & 0x3ff;
		return SIM_FMT_VOP3;
	case 0x33:
		if ((w0 >> 24) != 0xCC)
			return -1;
		*op = (w0 >> 16) & 0x7f;
		return SIM_FMT_VOP3P;
	case 0x32:
		*op = (w0 >> 22) & 0xf;
		return SIM_FMT_VOPDX;
	case 0x36:
		*op = (w0 >> 18) & 0xff;
		return SIM_FMT_DS;
	default:
		return -1;
	}
}

/* Format of the instruction starting with dword w0, or -1. */
static int find_format(const struct sim_ctx *c, uint32_t w0, uint32_t *op)
{
	if ((w0 >> 23) == 0x17D) {
		*op = (w0 >> 8) & 0xff;
		return SIM_FMT_SOP1;
	}
	if ((w0 >> 23) == 0x17E) {
		*op = (w0 >> 16) & 0x7f;
		return SIM_FMT_SOPC;
	}
	if ((w0 >> 23) == 0x17F) {
		*op = (w0 >> 16) & 0x7f;
		return SIM_FMT_SOPP;
	}
	if ((w0 >> 28) == 0xB) {
		*op = (w0 >> 23) & 0x1f;
		return SIM_FMT_SOPK;
	}
	if ((w0 >> 30) == 2) {
		*op = (w0 >> 23) & 0x7f;
		return SIM_FMT_SOP2;
	}
	if ((w0 >> 25) == 0x3F) {
		*op = (w0 >> 9) & 0xff;
		return SIM_FMT_VOP1;
	}
	if ((w0 >> 25) == 0x3E) {
		*op = (w0 >> 17) & 0xff;
		return SIM_FMT_VOPC;
	}
	if ((w0 >> 31) == 0) {
		*op = (w0 >> 25) & 0x3f;
		return SIM_FMT_VOP2;
	}
	uint32_t p6 = w0 >> 26;
	if (is_gfx9(c)) {
		switch (p6) {
		case 0x30:
			*op = (w0 >> 18) & 0xff;
			return SIM_FMT_SMEM;
		case 0x34:
			if ((w0 >> 23) == 0x1A7) {
				*op = (w0 >> 16) & 0x7f;
				return SIM_FMT_VOP3P;
			}
			*op = (w0 >> 16) & 0x3ff;
			return SIM_FMT_VOP3;
		case 0x36:
			*op = (w0 >> 17) & 0xff;
			return SIM_FMT_DS;
		case 0x37: {
			*op = (w0 >> 18) & 0x7f;
			static const int segs[4] = {SIM_FMT_FLAT, SIM_FMT_SCRATCH, SIM_FMT_GLOBAL,
			                            -1};
			return segs[(w0 >> 14) & 3];
		}
		case 0x38:
			*op = (w0 >> 18) & 0x7f;
			return SIM_FMT_MUBUF;
		case 0x3C:
			*op = (w0 >> 18) & 0x7f;
			return SIM_FMT_MIMG;
		default:
			return -1;
		}
	}
	if (c->gen >= AMD_GFX12)
		return find_format_gfx12(w0, op);
	switch (p6) {
	case 0x3D:
		*op = (w0 >> 18) & 0xff;
		return SIM_FMT_SMEM;
	case 0x35:
		*op = (w0 >> 16) & 0x3ff;
		return SIM_FMT_VOP3;
	case 0x33:
		if ((w0 >> 24) != 0xCC)
			return -1;
		*op = (w0 >> 16) & 0x7f;
		return SIM_FMT_VOP3P;
	case 0x32:
		*op = (w0 >> 22) & 0xf;
		return SIM_FMT_VOPDX;
	case 0x36:
		*op = (w0 >> 18) & 0xff;
		return SIM_FMT_DS;
	case 0x37: {
		*op = (w0 >> 18) & 0x7f;
		static const int segs[4] = {SIM_FMT_FLAT, SIM_FMT_SCRATCH, SIM_FMT_GLOBAL, -1};
		return segs[(w0 >> (c->gen == AMD_GFX10 ? 14 : 16)) & 3];
	}
	case 0x38:
		*op = (w0 >> 18) & 0xff;
		return SIM_FMT_MUBUF;
	case 0x3C: /* MIMG: gfx10 has opcode bit 7 in bit 0 */
		*op = c->gen == AMD_GFX10 ? ((w0 >> 18) & 0x7f) | (w0 & 1) << 7 : (w0 >> 18) & 0xff;
		return SIM_FMT_MIMG;
	default:
		return -1;
	}
}

static bool name_has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

static bool is_vop3b(const char *name)
{
	static const char *const vop3b[] = {
	        "v_add_co_u32",       "v_sub_co_u32",     "v_subrev_co_u32", "v_addc_co_u32",
	        "v_subb_co_u32",      "v_subbrev_co_u32", "v_add_co_ci_u32", "v_sub_co_ci_u32",
	        "v_subrev_co_ci_u32", "v_div_scale_f32",  "v_div_scale_f64", "v_mad_u64_u32",
	        "v_mad_co_u64_u32",   "v_mad_co_i64_i32", "v_mad_i64_i32"};
	for (size_t i = 0; i < sizeof vop3b / sizeof vop3b[0]; i++)
		if (!strcmp(name, vop3b[i]))
			return true;
	return false;
}

/* Reads dword i of the instruction at pc, or 0 past the end (the caller checks the size). */
static uint32_t dword(const struct sim_ctx *c, uint32_t pc, unsigned i)
{
	uint32_t off = pc + 4 * i, w = 0;
	if (off + 4 <= c->code_size)
		memcpy(&w, c->code + off, 4);
	return w;
}

static void decode_vop_short(struct sim_ctx *c, struct sim_insn *in, int fmt, uint32_t w0)
{
	in->src[0] = src_code(c, w0 & 0x1ff);
	if (fmt == SIM_FMT_VOP2) {
		in->src[1] = (uint16_t)(256 + ((w0 >> 9) & 0xff));
		in->dst = (uint16_t)(256 + ((w0 >> 17) & 0xff));
	} else if (fmt == SIM_FMT_VOP1) {
		in->dst = (uint16_t)(256 + ((w0 >> 17) & 0xff));
	} else {
		in->src[1] = (uint16_t)(256 + ((w0 >> 9) & 0xff));
		in->sdst = SIM_VCC;
	}
	if (in->src[0] == 0xFA) { /* DPP16 */
		uint32_t d = dword(c, in->pc, 1);
		in->dpp = 1;
		in->imm2 = d;
		in->src[0] = (uint16_t)(256 + (d & 0xff));
		in->size = 8;
		in->neg = (uint8_t)(((d >> 20) & 1) | (((d >> 22) & 1) << 1));
		in->abs = (uint8_t)(((d >> 21) & 1) | (((d >> 23) & 1) << 1));
	} else if (c->gen >= AMD_GFX10 && (in->src[0] == 0xE9 || in->src[0] == 0xEA)) {
		uint32_t d = dword(c, in->pc, 1);
		in->dpp = 2;
		in->imm2 = d;
		in->src[0] = (uint16_t)(256 + (d & 0xff));
		in->size = 8;
	} else if (c->gen <= AMD_GFX10 && in->src[0] == 0xF9) { /* SDWA (gfx9, gfx10) */
		uint32_t d = dword(c, in->pc, 1);
		in->dpp = 3;
		in->imm2 = d;
		in->size = 8;
		in->src[0] =
		        (uint16_t)(((d >> 23) & 1) ? scalar_code(c, d & 0xff) : 256 + (d & 0xff));
		if (fmt != SIM_FMT_VOP1 && ((d >> 31) & 1))
			in->src[1] = scalar_code(c, (w0 >> 9) & 0xff);
		in->neg = (uint8_t)(((d >> 20) & 1) | (((d >> 28) & 1) << 1));
		in->abs = (uint8_t)(((d >> 21) & 1) | (((d >> 29) & 1) << 1));
		in->clamp = (uint8_t)((d >> 13) & 1);
		in->omod = (uint8_t)((d >> 14) & 3);
		if (fmt == SIM_FMT_VOPC && ((d >> 15) & 1))
			in->sdst = scalar_code(c, (d >> 8) & 0x7f);
	}
}

/* gfx11+ VOP3/VOP3P with DPP: src0 = 0xFA (DPP16) or 0xE9/0xEA (DPP8, FI) and a third dword
 * laid out as in the VOP1/VOP2 DPP forms (src0 VGPR in bits 7:0); the neg/abs bits stay those of
 * the VOP3 word. */
static void vop3_dpp(struct sim_ctx *c, struct sim_insn *in)
{
	if (c->gen < AMD_GFX11)
		return;
	uint16_t s0 = in->src[0];
	if (s0 != 0xFA && s0 != 0xE9 && s0 != 0xEA)
		return;
	uint32_t d = dword(c, in->pc, 2);
	in->dpp = s0 == 0xFA ? 1 : 2;
	in->imm2 = d;
	in->src[0] = (uint16_t)(256 + (d & 0xff));
	in->size = 12;
}

static void decode_vop3(struct sim_ctx *c, struct sim_insn *in, uint32_t w0, uint32_t w1,
                        const char *name)
{
	in->vop3 = 1;
	in->src[0] = src_code(c, w1 & 0x1ff);
	in->src[1] = src_code(c, (w1 >> 9) & 0x1ff);
	in->src[2] = src_code(c, (w1 >> 18) & 0x1ff);
	in->omod = (uint8_t)((w1 >> 27) & 3);
	in->neg = (uint8_t)((w1 >> 29) & 7);
	in->clamp = (uint8_t)((w0 >> 15) & 1);
	vop3_dpp(c, in);
	if (in->fmt == SIM_FMT_VOP3 && in->op < 256) { /* VOPC: scalar destination */
		in->sdst = scalar_code(c, w0 & 0xff);
		in->abs = (uint8_t)((w0 >> 8) & 7);
		return;
	}
	in->dst = (uint16_t)(256 + (w0 & 0xff));
	if (in->fmt == SIM_FMT_VOP3 && is_vop3b(name)) {
		in->sdst = scalar_code(c, (w0 >> 8) & 0x7f);
		in->clamp = (uint8_t)((w0 >> 15) & 1);
	} else if (in->fmt == SIM_FMT_VOP3P) {
		in->opsel = (uint8_t)((w0 >> 11) & 7);
		in->opsel_hi = (uint8_t)(((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2));
		in->neg_hi = (uint8_t)((w0 >> 8) & 7);
		in->omod = 0;
	} else {
		in->abs = (uint8_t)((w0 >> 8) & 7);
		in->opsel = (uint8_t)((w0 >> 11) & 15);
	}
}

static void decode_smem(struct sim_ctx *c, struct sim_insn *in, uint32_t w0, uint32_t w1)
{
	bool g9 = is_gfx9(c);
	in->saddr = (uint16_t)((w0 & 0x3f) << 1);
	in->dst = (uint16_t)((w0 >> 6) & 0x7f);
	in->glc = (uint8_t)(g9 || c->gen == AMD_GFX10 ? (w0 >> 16) & 1 : (w0 >> 14) & 1);
	in->soffset = SIM_NULL;
	if (c->gen >= AMD_GFX12) { /* 24-bit signed offset, SGPR offset always present */
		in->glc = 0;
		in->imm = (int32_t)(w1 << 8) >> 8;
		in->soffset = scalar_code(c, w1 >> 25);
	} else if (g9 && !((w0 >> 17) & 1)) { /* offset is an SGPR */
		in->soffset = (uint16_t)(w1 & 0x7f);
	} else {
		in->imm = (int32_t)(w1 << 11) >> 11;
		if (!g9 || ((w0 >> 14) & 1))
			in->soffset = scalar_code(c, w1 >> 25);
	}
}

/* FLAT/GLOBAL/SCRATCH: gfx9 (offset 12:0 signed, seg 15:14, glc 16, slc 17), gfx10 (offset
 * 11:0 signed, seg 15:14, glc 16, slc 17, saddr off = NULL), gfx11 (offset 12:0, glc 14, slc
 * 15, seg 17:16, scratch SVE in bit 55); gfx12 has its own 96-bit form (decode_vflat). */
static void decode_flat(struct sim_ctx *c, struct sim_insn *in, int fmt, uint32_t w0, uint32_t w1)
{
	bool g9 = is_gfx9(c), g10 = c->gen == AMD_GFX10;
	uint32_t saddr = (w1 >> 16) & 0x7f;
	in->imm = g10 ? (int32_t)(w0 << 20) >> 20 : (int32_t)(w0 << 19) >> 19;
	if (fmt == SIM_FMT_FLAT && g9)
		in->imm = (int32_t)(w0 & 0xfff);
	in->glc = (uint8_t)(g9 || g10 ? (w0 >> 16) & 1 : (w0 >> 14) & 1);
	in->slc = (uint8_t)(g9 || g10 ? (w0 >> 17) & 1 : (w0 >> 15) & 1);
	in->saddr = (saddr == 0x7f || (!g9 && saddr == (g10 ? 125u : 124u))) ? SIM_NULL
	                                                                     : (uint16_t)saddr;
	in->src[0] = (uint16_t)(256 + (w1 & 0xff));
	in->src[1] = (uint16_t)(256 + ((w1 >> 8) & 0xff));
	in->dst = (uint16_t)(256 + (w1 >> 24));
	in->acc = (uint8_t)(g9 ? (w1 >> 23) & 1 : 0);
	/* idxen carries "address VGPR used" */
	in->idxen = 1;
	if (fmt == SIM_FMT_SCRATCH) {
		if (c->gen == AMD_GFX9 || g10)
			in->idxen = in->saddr == SIM_NULL;
		else if (c->gen == AMD_GFX940)
			in->idxen = (uint8_t)((w0 >> 13) & 1);
		else
			in->idxen = (uint8_t)((w1 >> 23) & 1);
	}
}

/* gfx12 VFLAT/VSCRATCH/VGLOBAL (96 bits): saddr 6:0, op 20:14; vdst 39:32, SVE 49, scope
 * 51:50, th 54:52, vsrc (data) 62:55; vaddr 71:64, offset 95:72 (signed). */
static void decode_vflat(struct sim_ctx *c, struct sim_insn *in, int fmt, uint32_t w0, uint32_t w1,
                         uint32_t w2)
{
	uint32_t saddr = w0 & 0x7f;
	in->saddr = saddr == 124 || saddr == 0x7f ? SIM_NULL : (uint16_t)saddr;
	in->dst = (uint16_t)(256 + (w1 & 0xff));
	in->src[1] = (uint16_t)(256 + ((w1 >> 23) & 0xff));
	in->src[0] = (uint16_t)(256 + (w2 & 0xff));
	in->imm = (int32_t)w2 >> 8;
	in->glc = (uint8_t)((w1 >> 20) & 1); /* th bit 0: TH_ATOMIC_RETURN */
	in->idxen = fmt == SIM_FMT_SCRATCH ? (uint8_t)((w1 >> 17) & 1) : 1;
	(void)c;
}

/* gfx12 VBUFFER (96 bits): soffset 6:0, op 21:14; vdata 39:32, rsrc 47:41, scope 51:50, th
 * 54:52, offen 62, idxen 63; vaddr 71:64, offset 95:72. */
static void decode_vbuffer(struct sim_ctx *c, struct sim_insn *in, uint32_t w0, uint32_t w1,
                           uint32_t w2)
{
	in->soffset = src_code(c, w0 & 0x7f);
	in->src[1] = (uint16_t)(256 + (w1 & 0xff));
	in->dst = in->src[1];
	in->saddr = (uint16_t)((w1 >> 9) & 0x7f);
	in->glc = (uint8_t)((w1 >> 20) & 1); /* th bit 0: TH_ATOMIC_RETURN */
	in->offen = (uint8_t)((w1 >> 30) & 1);
	in->idxen = (uint8_t)(w1 >> 31);
	in->src[0] = (uint16_t)(256 + (w2 & 0xff));
	in->imm = (int32_t)(w2 >> 8);
}

/* Image instructions: vaddr in src[0] (gfx12: vaddr0, and its four vaddr fields in imm2), vdata
 * in src[1]/dst, the resource in saddr, the sampler in soffset, and in imm dmask (3:0), dim
 * (6:4), unorm (8), gfx9's da (9), an NSA form (10), which sem_image.c refuses.
 * gfx9 (MIMG): dmask 11:8, unorm 12, glc 13, da 14; vaddr 39:32, vdata 47:40, srsrc 52:48,
 * ssamp 57:53.  gfx10: nsa 2:1, dim 5:3, the same otherwise.  gfx11: nsa 0, dim 4:2, unorm 7,
 * dmask 11:8, glc 14; ssamp 62:58.  gfx12 (VIMAGE/VSAMPLE): dim 2:0, VSAMPLE unorm 13, dmask
 * 25:22; vdata 39:32, rsrc 49:41, th 54:52, VSAMPLE samp 63:55; vaddr0-3 in the third dword. */
static void decode_mimg(struct sim_ctx *c, struct sim_insn *in, uint32_t w0, uint32_t w1)
{
	uint32_t dim = 0, unorm = (w0 >> 12) & 1, nsa = 0, da = 0;
	uint32_t vaddr = w1 & 0xff, vdata = (w1 >> 8) & 0xff, ssamp = ((w1 >> 21) & 0x1f) << 2;
	uint32_t srsrc = ((w1 >> 16) & 0x1f) << 2, dmask = (w0 >> 8) & 0xf;
	in->glc = (uint8_t)((w0 >> 13) & 1);
	if (is_gfx9(c)) {
		da = (w0 >> 14) & 1;
	} else if (c->gen == AMD_GFX10) {
		nsa = (w0 >> 1) & 3;
		dim = (w0 >> 3) & 7;
	} else if (c->gen == AMD_GFX11) {
		nsa = w0 & 1;
		dim = (w0 >> 2) & 7;
		unorm = (w0 >> 7) & 1;
		in->glc = (uint8_t)((w0 >> 14) & 1);
		ssamp = ((w1 >> 26) & 0x1f) << 2;
	} else {
		uint32_t w2 = dword(c, in->pc, 2);
		bool sample = (w0 >> 26) == 0x39;
		in->size = 12;
		dim = w0 & 7;
		unorm = sample ? (w0 >> 13) & 1 : 0;
		dmask = (w0 >> 22) & 0xf;
		vdata = w1 & 0xff;
		srsrc = (w1 >> 9) & 0x1ff;
		in->glc = (uint8_t)((w1 >> 20) & 1);
		ssamp = sample ? w1 >> 23 : 0;
		vaddr = w2 & 0xff;
		in->imm2 = w2; /* vaddr0-3: sem_image.c's address_vgpr */
	}
	in->src[0] = (uint16_t)(256 + vaddr);
	in->src[1] = in->dst = (uint16_t)(256 + vdata);
	in->saddr = (uint16_t)srsrc;
	in->soffset = (uint16_t)ssamp;
	in->imm = (int32_t)(dmask | dim << 4 | unorm << 8 | da << 9 | (nsa ? 1u : 0) << 10);
}

static void decode_mem(struct sim_ctx *c, struct sim_insn *in, int fmt, uint32_t w0, uint32_t w1)
{
	bool g9 = is_gfx9(c);
	switch (fmt) {
	case SIM_FMT_SMEM:
		decode_smem(c, in, w0, w1);
		break;
	case SIM_FMT_DS:
		in->imm = (int32_t)(w0 & 0xff);
		in->imm2 = (w0 >> 8) & 0xff;
		in->gds = (uint8_t)(g9 ? (w0 >> 16) & 1 : (w0 >> 17) & 1);
		in->src[0] = (uint16_t)(256 + (w1 & 0xff));
		in->src[1] = (uint16_t)(256 + ((w1 >> 8) & 0xff));
		in->src[2] = (uint16_t)(256 + ((w1 >> 16) & 0xff));
		in->dst = (uint16_t)(256 + (w1 >> 24));
		in->acc = (uint8_t)(g9 ? (w0 >> 25) & 1 : 0);
		break;
	case SIM_FMT_FLAT:
	case SIM_FMT_GLOBAL:
	case SIM_FMT_SCRATCH:
		if (c->gen >= AMD_GFX12) {
			in->size = 12;
			decode_vflat(c, in, fmt, w0, w1, dword(c, in->pc, 2));
		} else {
			decode_flat(c, in, fmt, w0, w1);
		}
		break;
	case SIM_FMT_MIMG:
		decode_mimg(c, in, w0, w1);
		break;
	case SIM_FMT_MUBUF:
		if (c->gen >= AMD_GFX12) {
			in->size = 12;
			decode_vbuffer(c, in, w0, w1, dword(c, in->pc, 2));
			break;
		}
		in->imm = (int32_t)(w0 & 0xfff);
		in->glc = (uint8_t)((w0 >> 14) & 1);
		if (g9 || c->gen == AMD_GFX10) {
			in->offen = (uint8_t)((w0 >> 12) & 1);
			in->idxen = (uint8_t)((w0 >> 13) & 1);
			in->slc = (uint8_t)(g9 ? (w0 >> 17) & 1 : (w1 >> 22) & 1);
			in->acc = (uint8_t)(g9 ? (w1 >> 23) & 1 : 0);
		} else {
			in->offen = (uint8_t)((w1 >> 22) & 1);
			in->idxen = (uint8_t)((w1 >> 23) & 1);
			in->slc = (uint8_t)((w0 >> 12) & 1);
		}
		in->src[0] = (uint16_t)(256 + (w1 & 0xff));
		in->src[1] = (uint16_t)(256 + ((w1 >> 8) & 0xff));
		in->dst = in->src[1];
		in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) << 2);
		in->soffset = src_code(c, w1 >> 24);
		break;
	default:
		break;
	}
}

static void decode_vopd(struct sim_ctx *c, struct sim_insn *x, struct sim_insn *y, uint32_t w0,
                        uint32_t w1)
{
	uint32_t opy = (w0 >> 17) & 0x1f;
	x->src[0] = src_code(c, w0 & 0x1ff);
	x->src[1] = (uint16_t)(256 + ((w0 >> 9) & 0xff));
	x->dst = (uint16_t)(256 + (w1 >> 24));
	*y = *x;
	y->fmt = SIM_FMT_VOPDY;
	y->op = (uint16_t)opy;
	y->src[0] = src_code(c, w1 & 0x1ff);
	y->src[1] = (uint16_t)(256 + ((w1 >> 9) & 0xff));
	/* VDSTY's low bit is the complement of VDSTX's low bit */
	y->dst = (uint16_t)(256 + ((((w1 >> 17) & 0x7f) << 1) | (((w1 >> 24) & 1) ^ 1)));
	y->row = c->decode_map[SIM_FMT_VOPDY][opy];
}

static void decode_one(struct sim_ctx *c, struct sim_insn *in, uint32_t pc)
{
	uint32_t w0 = dword(c, pc, 0), w1 = dword(c, pc, 1), op = 0;
	memset(in, 0, sizeof *in);
	in->pc = pc;
	in->size = 4;
	int fmt = find_format(c, w0, &op);
	in->fmt = (uint8_t)(fmt < 0 ? SIM_FMT_SOPP : fmt);
	in->op = (uint16_t)op;
	in->row = fmt < 0 ? 0 : c->decode_map[fmt][op];
	if (!in->row) {
		in->sem = NULL;
		return;
	}
	const char *name = c->entry_name[in->row - 1];
	switch (fmt) {
	case SIM_FMT_SOP2:
		in->src[0] = scalar_code(c, w0 & 0xff);
		in->src[1] = scalar_code(c, (w0 >> 8) & 0xff);
		in->dst = scalar_code(c, (w0 >> 16) & 0x7f);
		break;
	case SIM_FMT_SOPK:
		in->dst = scalar_code(c, (w0 >> 16) & 0x7f);
		in->imm = (int16_t)(w0 & 0xffff);
		if (name_has(name, "imm32")) {
			in->literal = w1;
			in->size = 8;
		}
		break;
	case SIM_FMT_SOP1:
		in->src[0] = scalar_code(c, w0 & 0xff);
		in->dst = scalar_code(c, (w0 >> 16) & 0x7f);
		break;
	case SIM_FMT_SOPC:
		in->src[0] = scalar_code(c, w0 & 0xff);
		in->src[1] = scalar_code(c, (w0 >> 8) & 0xff);
		break;
	case SIM_FMT_SOPP:
		in->imm = (int16_t)(w0 & 0xffff);
		break;
	case SIM_FMT_VOP1:
	case SIM_FMT_VOP2:
	case SIM_FMT_VOPC:
		decode_vop_short(c, in, fmt, w0);
		break;
	case SIM_FMT_VOP3:
	case SIM_FMT_VOP3P:
		in->size = 8;
		decode_vop3(c, in, w0, w1, name);
		break;
	case SIM_FMT_VOPDX:
		in->size = 8;
		decode_vopd(c, in, in + 1, w0, w1);
		break;
	default:
		in->size = 8;
		decode_mem(c, in, fmt, w0, w1);
		break;
	}
	bool lit = false;
	if (fmt <= SIM_FMT_SOPC || fmt == SIM_FMT_VOP1 || fmt == SIM_FMT_VOP2 ||
	    fmt == SIM_FMT_VOPC || fmt == SIM_FMT_VOPDX ||
	    ((fmt == SIM_FMT_VOP3 || fmt == SIM_FMT_VOP3P) && c->gen >= AMD_GFX10))
		for (int i = 0; i < 3; i++)
			lit |= in->src[i] == SIM_LIT;
	if (fmt == SIM_FMT_VOPDX)
		lit |= in[1].src[0] == SIM_LIT;
	if ((fmt == SIM_FMT_VOP2 || fmt == SIM_FMT_VOPDX || fmt == SIM_FMT_SOP2) &&
	    (name_has(name, "mk_") || name_has(name, "ak_")))
		lit = true;
	if (fmt == SIM_FMT_VOPDX && in[1].row &&
	    (name_has(c->entry_name[in[1].row - 1], "mk_") ||
	     name_has(c->entry_name[in[1].row - 1], "ak_")))
		lit = true;
	if (lit && !in->dpp) {
		in->literal = dword(c, pc, in->size / 4);
		in->has_lit = 1;
		in->size = (uint8_t)(in->size + 4);
	}
	if (fmt == SIM_FMT_VOPDX) {
		in[1].literal = in->literal;
		in[1].size = in->size;
		in[1].has_lit = in->has_lit;
		in[1].sem = in[1].row ? c->entry_sem[in[1].row - 1] : NULL;
	}
	in->sem = c->entry_sem[in->row - 1];
}

/* The decoded instruction at byte offset pc.  Returns NULL (and faults the caller) when pc is
 * outside the code; an instruction without semantics keeps sem NULL and a row (or row 0 when
 * the encoding is unknown) so the executor can name it. */
const struct sim_insn *sim_decode(struct sim_ctx *c, uint32_t pc)
{
	if ((pc & 3) || pc + 4 > c->code_size)
		return NULL;
	struct sim_insn *in = &c->icache[pc / 4];
	if (in->size == 0)
		decode_one(c, in, pc);
	if (pc + in->size > c->code_size)
		return NULL;
	return in;
}

void sim_format_insn(const struct sim_ctx *c, const struct sim_insn *in, char *buf, size_t len)
{
	uint32_t w[3] = {0, 0, 0};
	for (unsigned i = 0; i < in->size / 4 && i < 3; i++)
		memcpy(&w[i], c->code + in->pc + 4 * i, 4);
	const char *name = in->row ? c->entry_name[in->row - 1] : "<unknown encoding>";
	if (in->fmt == SIM_FMT_VOPDX && in[1].row)
		snprintf(buf, len, "v_dual %s :: %s [%08x %08x]", name,
		         c->entry_name[in[1].row - 1], w[0], w[1]);
	else if (in->size >= 12)
		snprintf(buf, len, "%s [%08x %08x %08x]", name, w[0], w[1], w[2]);
	else if (in->size == 8)
		snprintf(buf, len, "%s [%08x %08x]", name, w[0], w[1]);
	else
		snprintf(buf, len, "%s [%08x]", name, w[0]);
}
