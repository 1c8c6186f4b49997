/* mir_fold_sdwa: a shift or mask that only extracts a byte or word for one integer VALU
 * instruction becomes that instruction's SDWA source select (gfx9, gfx10).
 *
 * SDWA (sub-dword addressing) lets a VOP1/VOP2 instruction read each source through a
 * select: BYTE_0..3 or WORD_0..1 of the register, zero-extended (or sign-extended with
 * `sext`), at the cost of a second dword of encoding and no extra issue.  So hash-style
 * mixing `h ^ (h >> 16)` is one v_xor_b32 reading h and h's WORD_1 instead of a
 * v_lshrrev_b32 and a v_xor_b32.  The extractions recognised (t one dword of x):
 *   v_lshrrev_b32 t, 16, x -> WORD_1        v_ashrrev_i32 t, 16, x -> WORD_1, sext
 *   v_lshrrev_b32 t, 24, x -> BYTE_3        v_ashrrev_i32 t, 24, x -> BYTE_3, sext
 *   v_and_b32 t, x, 0xffff -> WORD_0        v_and_b32 t, x, 0xff -> BYTE_0 (either order)
 *   v_bfe_u32 t, x, 8*k, 8 -> BYTE_k        v_bfe_u32 t, x, 16*k, 16 -> WORD_k
 * A v_lshrrev_b32/v_lshlrev_b32 by a constant whose reader is a v_and_b32 with a mask of
 * 8 or 16 contiguous ones that keeps one whole byte or word of x, moved to bit k, becomes one
 * v_lshlrev_b32_sdwa d, k, x with that select (histogram's `(w >> 6) & 0x3fc`: BYTE_1 << 2,
 * clang-19's form; gfx9/gfx10 SDWA take an inline constant in src0), under the same
 * conditions on t, x and EXEC.
 * An extraction folds into its reader when:
 *   - t is a one-dword VGPR vreg whose next mention in the block reads it in one source
 *     position, and its value is dead after that reader (the reader or the next mention
 *     of t writes it, or t has no other definition and reader); the reader is one of the
 *     integer rows of `reader_ok`
 *     natively VOP1/VOP2 on the target, with SDWA allowed (row flags), no modifiers, DPP or
 *     sext already, and whose other source is a register (SDWA takes no constant);
 *   - x (a VGPR) is not written between the two, nor is EXEC (the extraction's lanes are the
 *     reader's lanes).
 * The integer rows compute on the 32-bit value the select yields, which is exactly t.
 * Registers: x lives until the reader instead of t; t is gone.
 * requires: MIR on virtual registers before allocation, after the clean-ups (nothing later
 * puts a constant in place of a register source of the folded reader).
 * breaks: nothing.  complexity: O(instructions x operands) plus a scan between each
 * extraction and its reader. */
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

enum { SEL_BYTE0 = 0, SEL_BYTE3 = 3, SEL_WORD0 = 4, SEL_WORD1 = 5, SEL_DWORD = 6, NO_SEL = 0xff };

/* What an extraction reads: x and its select. */
struct extraction {
	struct mir_opnd x;
	uint8_t sel;
	bool sext;
};

static bool one_dword_vgpr(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->width == 1 && fn->vregs[o->v].file == MIR_VGPR;
}

static bool imm_is(const struct mir_opnd *o, uint32_t v)
{
	return o->kind == MIR_IMM && o->v == v;
}

/* Whether `in` is an extraction of a one-dword VGPR value (filled in *e). */
static bool match_extraction(const struct mir_function *fn, const struct mir_insn *in,
                             struct extraction *e)
{
	if (in->flags || in->neg || in->abs || in->clamp || in->omod || in->dpp || in->sdwa ||
	    in->op >= AMD_NUM_OPCODES)
		return false;
	const struct mir_opnd *o = in->opnds;
	e->sext = in->op == AMD_OP_V_ASHRREV_I32;
	switch (in->op) {
	case AMD_OP_V_LSHRREV_B32:
	case AMD_OP_V_ASHRREV_I32:
		e->x = o[2];
		e->sel = imm_is(&o[1], 16) ? SEL_WORD1 : imm_is(&o[1], 24) ? SEL_BYTE3 : NO_SEL;
		break;
	case AMD_OP_V_AND_B32: {
		bool imm_first = o[1].kind == MIR_IMM;
		const struct mir_opnd *mask = imm_first ? &o[1] : &o[2];
		e->x = imm_first ? o[2] : o[1];
		e->sel = imm_is(mask, 0xffff) ? SEL_WORD0 : imm_is(mask, 0xff) ? SEL_BYTE0 : NO_SEL;
		break;
	}
	case AMD_OP_V_BFE_U32:
		e->x = o[1];
		e->sel = NO_SEL;
		if (o[2].kind == MIR_IMM && imm_is(&o[3], 8) && o[2].v % 8 == 0 && o[2].v < 32)
			e->sel = (uint8_t)(SEL_BYTE0 + o[2].v / 8);
		else if (o[2].kind == MIR_IMM && imm_is(&o[3], 16) && o[2].v % 16 == 0 &&
		         o[2].v < 32)
			e->sel = (uint8_t)(SEL_WORD0 + o[2].v / 16);
		break;
	default:
		return false;
	}
	return e->sel != NO_SEL && one_dword_vgpr(fn, &e->x) && one_dword_vgpr(fn, &o[0]);
}

/* Integer rows whose result depends only on the 32-bit values of their sources. */
static bool reader_row(unsigned op)
{
	switch (op) {
	case AMD_OP_V_XOR_B32:
	case AMD_OP_V_OR_B32:
	case AMD_OP_V_AND_B32:
	case AMD_OP_V_ADD_U32:
	case AMD_OP_V_SUB_U32:
	case AMD_OP_V_SUBREV_U32:
	case AMD_OP_V_MAX_U32:
	case AMD_OP_V_MIN_U32:
	case AMD_OP_V_MAX_I32:
	case AMD_OP_V_MIN_I32:
		return true;
	default:
		return false;
	}
}

/* Whether `in` may read a source through SDWA on this target: its two sources registers. */
static bool reader_ok(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES || !reader_row(in->op))
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	unsigned gen = fn->target->info->gen;
	if (row->format != AMD_FMT_VOP2 || row->opcode[gen] < 0 ||
	    (row->flags & (AMD_F_NO_SDWA | AMD_F_TIED_DST)) || row->nopnds != 3)
		return false;
	if (in->flags || in->neg || in->abs || in->clamp || in->omod || in->dpp || in->sdwa ||
	    in->enc == AMD_ENC_E64)
		return false;
	for (unsigned k = 1; k < 3; k++) {
		unsigned kind = in->opnds[k].kind;
		if (kind != MIR_VREG && kind != MIR_VGPR && kind != MIR_SGPR)
			return false;
		if (kind == MIR_SGPR && in->opnds[k].v >= 102) /* SDWA's scalar sources: SGPRs */
			return false;
	}
	return true;
}

/* Reads of each vreg (operands that are not definitions), saturating at 2. */
static uint8_t *count_reads(const struct mir_function *fn)
{
	uint8_t *reads = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, fn->nvregs + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_VREG && !mir_opnd_is_def(in, k) &&
				    reads[in->opnds[k].v] < 2)
					reads[in->opnds[k].v]++;
		}
	return reads;
}

/* How `in` mentions vreg v: bit 0 it reads it, bit 1 it writes it (whole, one dword). */
enum { READS = 1, WRITES = 2 };
static unsigned mentions(const struct mir_insn *in, uint32_t v)
{
	unsigned m = 0;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v)
			m |= mir_opnd_is_def(in, k) ? WRITES : READS;
	return m;
}

/* The source position (1 or 2) at which the reader reads t, 0 if none or both. */
static unsigned read_position(const struct mir_insn *in, uint32_t t)
{
	unsigned at = 0;
	for (unsigned k = 1; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == t) {
			if (at || k > 2)
				return 0;
			at = k;
		}
	return at;
}

/* Whether t's value is dead after instruction j of bl: j writes t, or the next mention of
 * t in the block writes it without reading it, or t has no other reader at all. */
static bool dead_after(const struct mir_block *bl, uint32_t j, uint32_t t, const uint8_t *defs,
                       const uint8_t *reads)
{
	if (mentions(&bl->insns[j], t) & WRITES)
		return true;
	for (uint32_t k = j + 1; k < bl->ninsns; k++) {
		unsigned m = mentions(&bl->insns[k], t);
		if (m)
			return m == WRITES;
	}
	return defs[t] == 1 && reads[t] == 1;
}

/* The next instruction of bl after i that mentions t, when it reads t in one source
 * position (*pos) and t is dead after it, and neither x nor EXEC is written before it;
 * else -1. */
static int32_t sole_reader(const struct mir_function *fn, const struct mir_block *bl, uint32_t i,
                           uint32_t t, uint32_t x, const uint8_t *defs, const uint8_t *reads,
                           unsigned *pos)
{
	for (uint32_t j = i + 1; j < bl->ninsns; j++) {
		const struct mir_insn *in = &bl->insns[j];
		unsigned m = mentions(in, t);
		if (m) {
			*pos = read_position(in, t);
			if (!(m & READS) || !*pos || !dead_after(bl, j, t, defs, reads))
				return -1;
			return (int32_t)j;
		}
		if ((mentions(in, x) & WRITES) || mir_writes_exec(fn, in))
			return -1;
	}
	return -1;
}

/* Makes `in` read x through select sel at source position k (1 or 2). */
static void read_through_select(struct mir_insn *in, unsigned k, struct mir_opnd x, uint8_t sel,
                                bool sext)
{
	in->opnds[k] = x;
	in->sdwa = true;
	in->sdwa_sel[0] = in->sdwa_sel[1] = SEL_DWORD;
	in->sdwa_sel[k - 1] = sel;
	in->sdwa_sext = (uint8_t)(sext ? 1u << (k - 1) : 0);
	in->enc = AMD_ENC_E32;
}

/* Folds the extraction at position i of block bl into its reader, the next instruction of
 * the block that mentions t; true when it did. */
static bool fold_one(struct mir_function *fn, struct mir_block *bl, uint32_t i, const uint8_t *defs,
                     const uint8_t *reads, bool *dead)
{
	struct extraction e;
	const struct mir_insn *ex = &bl->insns[i];
	if (!match_extraction(fn, ex, &e))
		return false;
	uint32_t t = ex->opnds[0].v;
	if (fn->vregs[t].size != 1 || e.x.v == t)
		return false;
	unsigned k;
	int32_t j = sole_reader(fn, bl, i, t, e.x.v, defs, reads, &k);
	if (j < 0 || !reader_ok(fn, &bl->insns[j]))
		return false;
	read_through_select(&bl->insns[j], k, e.x, e.sel, e.sext);
	dead[i] = true;
	return true;
}

/* The select of the field that `mask` (8 or 16 ones from bit *at) takes from x when it
 * reads x shifted right by s (left when `left`), *at the field's place in the result; NO_SEL
 * when that is not a whole byte or word of x. */
static uint8_t masked_field(uint32_t mask, uint32_t s, bool left, uint32_t *at)
{
	if (!mask || s >= 32)
		return NO_SEL;
	uint32_t low = (uint32_t)__builtin_ctz(mask), bits = (uint32_t)__builtin_popcount(mask);
	if ((bits != 8 && bits != 16) || mask >> low != (1u << bits) - 1)
		return NO_SEL;
	if (left && low < s) /* the mask keeps zeros shifted in */
		return NO_SEL;
	uint32_t from = left ? low - s : low + s; /* the field's first bit in x */
	if (from % bits || from + bits > 32)
		return NO_SEL;
	*at = low;
	return (uint8_t)(bits == 8 ? SEL_BYTE0 + from / 8 : SEL_WORD0 + from / 16);
}

/* v_lshrrev_b32/v_lshlrev_b32 t, s, x whose sole reader is v_and_b32 d, t, mask, the mask a
 * byte or word of x in place at bit `at` of d, becomes v_lshlrev_b32_sdwa d, at, x with x's
 * byte or word selected (clang-19's byte index scaling: one instruction instead of two;
 * gfx9/gfx10 SDWA takes an inline constant in src0).  True when it did. */
static bool fold_shift_mask(struct mir_function *fn, struct mir_block *bl, uint32_t i,
                            const uint8_t *defs, const uint8_t *reads, bool *dead)
{
	const struct mir_insn *sh = &bl->insns[i];
	bool left = sh->op == AMD_OP_V_LSHLREV_B32;
	if ((!left && sh->op != AMD_OP_V_LSHRREV_B32) || sh->flags || sh->neg || sh->abs ||
	    sh->clamp || sh->omod || sh->dpp || sh->sdwa || sh->opnds[1].kind != MIR_IMM ||
	    !one_dword_vgpr(fn, &sh->opnds[2]) || !one_dword_vgpr(fn, &sh->opnds[0]))
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[AMD_OP_V_LSHLREV_B32];
	if (row->format != AMD_FMT_VOP2 || row->opcode[fn->target->info->gen] < 0 ||
	    (row->flags & AMD_F_NO_SDWA))
		return false;
	uint32_t t = sh->opnds[0].v;
	struct mir_opnd x = sh->opnds[2];
	if (fn->vregs[t].size != 1 || x.v == t)
		return false;
	unsigned k;
	int32_t j = sole_reader(fn, bl, i, t, x.v, defs, reads, &k);
	if (j < 0)
		return false;
	struct mir_insn *masker = &bl->insns[j];
	const struct mir_opnd *mask = &masker->opnds[3 - k];
	if (masker->op != AMD_OP_V_AND_B32 || masker->flags || masker->neg || masker->abs ||
	    masker->clamp || masker->omod || masker->dpp || masker->sdwa || mask->kind != MIR_IMM ||
	    !one_dword_vgpr(fn, &masker->opnds[0]))
		return false;
	uint32_t at;
	uint8_t sel = masked_field((uint32_t)mask->v, (uint32_t)sh->opnds[1].v, left, &at);
	if (sel == NO_SEL)
		return false;
	masker->op = AMD_OP_V_LSHLREV_B32;
	masker->opnds[1] = mir_imm(at);
	read_through_select(masker, 2, x, sel, false);
	dead[i] = true;
	return true;
}

unsigned mir_fold_sdwa(struct mir_function *fn)
{
	if (!fn->target->info->has_sdwa)
		return 0;
	uint8_t *defs = mir_count_defs(fn);
	uint8_t *reads = count_reads(fn);
	unsigned folded = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		bool *dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool, bl->ninsns + 1);
		unsigned here = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			here += fold_one(fn, bl, i, defs, reads, dead) ||
			        fold_shift_mask(fn, bl, i, defs, reads, dead);
		if (!here)
			continue;
		uint32_t out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (!dead[i])
				bl->insns[out++] = bl->insns[i];
		bl->ninsns = out;
		folded += here;
	}
	return folded;
}
