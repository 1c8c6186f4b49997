/* mir_fold_sdwa (src/mir/sdwa_fold.c), suite 'regalloc': hand-built blocks of an extraction
 * (v_lshrrev/ashrrev_b32 by 16 or 24, v_and_b32 with 0xffff or 0xff, v_bfe_u32 of a byte)
 * and an integer reader go through the pass alone.  Checked: whether the extraction is gone
 * and the reader reads SDWA selects, and -- by a one-lane evaluator of the ISA's definitions
 * of the rows and of the SDWA selects (BYTE_n: bits 8n..8n+7, WORD_n: bits 16n..16n+15,
 * zero- or sign-extended) -- that every value the block leaves is the same as before for
 * sample inputs.  Where it must not fold (x written between, EXEC written between, t read
 * again later, a constant beside it in the reader, a reader outside the integer rows,
 * gfx1100 without SDWA) the block is unchanged.  A shift whose one reader is a v_and_b32
 * keeping a whole byte or word of x (moved) becomes one v_lshlrev_b32_sdwa; checked the same
 * way, and unchanged where the field is not a whole byte/word or the mask has holes. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

static void fail(struct totals *t, const char *name, const char *what)
{
	printf("FAIL: %s: %s\n", name, what);
	t->failures++;
}

enum { X = 0, Y, T, R, S, NREGS }; /* vregs, in this order */

/* An instruction of the case: row, destination vreg, two or three sources (vreg index,
 * or an immediate when imm_mask bit k is set). */
struct step {
	unsigned op;
	unsigned dst;
	uint32_t src[3];
	unsigned nsrc, imm_mask;
};

static uint32_t select_bits(uint32_t v, unsigned sel, bool sext)
{
	if (sel >= 6)
		return v;
	unsigned shift = sel < 4 ? 8 * sel : 16 * (sel - 4), bits = sel < 4 ? 8 : 16;
	uint32_t f = (v >> shift) & ((1u << bits) - 1);
	if (sext && (f >> (bits - 1)))
		f |= ~((1u << bits) - 1);
	return f;
}

static uint32_t source(const struct mir_insn *in, unsigned k, const uint32_t *env)
{
	const struct mir_opnd *o = &in->opnds[k];
	uint32_t v = o->kind == MIR_IMM ? o->v : o->kind == MIR_VREG ? env[o->v] : 0;
	if (in->sdwa && k >= 1 && k <= 2)
		v = select_bits(v, in->sdwa_sel[k - 1], in->sdwa_sext >> (k - 1) & 1);
	return v;
}

/* Runs the block on x, y; env gets every vreg's last value.  False on an unknown row. */
static bool evaluate(const struct mir_block *bl, uint32_t x, uint32_t y, uint32_t *env)
{
	memset(env, 0, NREGS * sizeof *env);
	env[X] = x, env[Y] = y;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		uint32_t a = in->nopnds > 1 ? source(in, 1, env) : 0;
		uint32_t b = in->nopnds > 2 ? source(in, 2, env) : 0;
		uint32_t c = in->nopnds > 3 ? source(in, 3, env) : 0, r;
		switch (in->op) {
		case AMD_OP_V_LSHRREV_B32:
			r = b >> (a & 31);
			break;
		case AMD_OP_V_LSHLREV_B32:
			r = b << (a & 31);
			break;
		case AMD_OP_V_ASHRREV_I32:
			r = (uint32_t)((int32_t)b >> (a & 31));
			break;
		case AMD_OP_V_AND_B32:
			r = a & b;
			break;
		case AMD_OP_V_OR_B32:
			r = a | b;
			break;
		case AMD_OP_V_XOR_B32:
			r = a ^ b;
			break;
		case AMD_OP_V_ADD_U32:
			r = a + b;
			break;
		case AMD_OP_V_MUL_LO_U32:
			r = a * b;
			break;
		case AMD_OP_V_BFE_U32:
			r = (a >> (b & 31)) & ((c & 31) ? (1u << (c & 31)) - 1 : 0);
			break;
		case AMD_OP_S_MOV_B64:
		case AMD_OP_S_ENDPGM:
			continue;
		default:
			return false;
		}
		env[in->opnds[0].v] = r;
	}
	return true;
}

static bool same_block(const struct mir_block *a, const struct mir_insn *saved, uint32_t n)
{
	return a->ninsns == n && memcmp(a->insns, saved, n * sizeof *saved) == 0;
}

/* Builds the steps into a gfx function, runs the pass, checks.  expect_sel: the reader's
 * expected select of the folded source (-1: the block must stay as built). */
static void run_case(struct totals *t, const char *name, const char *gpu, const struct step *steps,
                     unsigned n, int expect_sel)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		fail(t, name, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "sdwa", &target, 64);
	uint32_t b = mir_new_block(&fn);
	for (unsigned v = 0; v < NREGS; v++)
		mir_new_vreg(&fn, MIR_VGPR, 1, 1);
	for (unsigned i = 0; i < n; i++) {
		struct mir_opnd ops[4] = {0};
		unsigned k = 0;
		if (steps[i].op == AMD_OP_S_MOV_B64) {
			ops[k++] = mir_special(AMD_SPEC_EXEC, 2);
			ops[k++] = mir_imm(1);
		} else if (steps[i].op != AMD_OP_S_ENDPGM) {
			ops[k++] = mir_vreg(steps[i].dst, 1);
			for (unsigned s = 0; s < steps[i].nsrc; s++)
				ops[k++] = (steps[i].imm_mask >> s & 1)
				                   ? mir_imm(steps[i].src[s])
				                   : mir_vreg(steps[i].src[s], 1);
		}
		struct mir_insn in = mir_make(steps[i].op, k, ops);
		mir_append(&fn, b, &in);
	}
	const struct mir_block *bl = &fn.blocks[b];
	uint32_t n0 = bl->ninsns;
	struct mir_insn saved[16];
	memcpy(saved, bl->insns, n0 * sizeof *saved);
	struct mir_block before = {.insns = saved, .ninsns = n0};
	unsigned folded = mir_fold_sdwa(&fn);
	t->checks++;
	if (expect_sel < 0) {
		if (folded || !same_block(bl, saved, n0))
			fail(t, name, "changed a block it must leave alone");
		pa_arena_free(&arena);
		return;
	}
	const struct mir_insn *reader = NULL;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].sdwa)
			reader = &bl->insns[i];
	if (folded != 1 || bl->ninsns != n0 - 1 || !reader)
		fail(t, name, "the extraction was not folded");
	else if (reader->sdwa_sel[0] != expect_sel && reader->sdwa_sel[1] != expect_sel)
		fail(t, name, "wrong select");
	static const uint32_t samples[] = {0,          1,          0x80,       0xff,
	                                   0x8000,     0xffff,     0x12345678, 0x87654321,
	                                   0xdeadbeef, 0x7fffffff, 0x80000000, 0xffffffff};
	unsigned ns = sizeof samples / sizeof samples[0];
	for (unsigned i = 0; i < ns; i++) {
		uint32_t want[NREGS], got[NREGS];
		uint32_t x = samples[i], y = samples[(i * 7 + 3) % ns];
		if (!evaluate(&before, x, y, want) || !evaluate(bl, x, y, got)) {
			fail(t, name, "evaluator: unknown row");
			break;
		}
		if (got[R] != want[R] || got[S] != want[S]) {
			char what[120];
			snprintf(what, sizeof what, "x=%#x y=%#x: r %#x (want %#x)", x, y, got[R],
			         want[R]);
			fail(t, name, what);
			break;
		}
	}
	pa_arena_free(&arena);
}

#define STEP2(op, d, a, b, imm)                                                                    \
	{                                                                                          \
		op, d, {a, b, 0}, 2, imm                                                           \
	}
#define STEP3(op, d, a, b, c, imm)                                                                 \
	{                                                                                          \
		op, d, {a, b, c}, 3, imm                                                           \
	}
#define END                                                                                        \
	{                                                                                          \
		AMD_OP_S_ENDPGM, 0, {0}, 0, 0                                                      \
	}

int main(void)
{
	struct totals t = {0};
	/* x ^ (x >> 16), t in src1 and the reader writing t (the coalesced chain) */
	static const struct step word1[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                    STEP2(AMD_OP_V_XOR_B32, T, X, T, 0),
	                                    STEP2(AMD_OP_V_ADD_U32, R, T, Y, 0), END};
	run_case(&t, "lshr16-xor", "gfx90a", word1, 4, 5);
	/* (x >>s 24) + y: t in src0, sign-extended BYTE_3 */
	static const struct step byte3[] = {STEP2(AMD_OP_V_ASHRREV_I32, T, 24, X, 1),
	                                    STEP2(AMD_OP_V_ADD_U32, R, T, Y, 0), END};
	run_case(&t, "ashr24-add", "gfx90a", byte3, 3, 3);
	/* (0xffff & x) | y on gfx1030 */
	static const struct step word0[] = {STEP2(AMD_OP_V_AND_B32, T, 0xffff, X, 1),
	                                    STEP2(AMD_OP_V_OR_B32, R, Y, T, 0), END};
	run_case(&t, "and-ffff-or", "gfx1030", word0, 3, 4);
	/* bfe(x, 8, 8) ^ y, a later write of t without reading it */
	static const struct step byte1[] = {
	        STEP3(AMD_OP_V_BFE_U32, T, X, 8, 8, 6), STEP2(AMD_OP_V_XOR_B32, R, T, Y, 0),
	        STEP2(AMD_OP_V_ADD_U32, T, X, Y, 0), STEP2(AMD_OP_V_ADD_U32, S, T, Y, 0), END};
	run_case(&t, "bfe8-xor", "gfx942", byte1, 5, 1);
	/* must stay: x written between */
	static const struct step xwrite[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                     STEP2(AMD_OP_V_ADD_U32, X, X, Y, 0),
	                                     STEP2(AMD_OP_V_XOR_B32, R, X, T, 0), END};
	run_case(&t, "x-written", "gfx90a", xwrite, 4, -1);
	/* must stay: EXEC written between */
	static const struct step exec[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                   {AMD_OP_S_MOV_B64, 0, {0}, 0, 0},
	                                   STEP2(AMD_OP_V_XOR_B32, R, X, T, 0),
	                                   END};
	run_case(&t, "exec-written", "gfx90a", exec, 4, -1);
	/* must stay: t read again after the reader */
	static const struct step twice[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                    STEP2(AMD_OP_V_XOR_B32, R, X, T, 0),
	                                    STEP2(AMD_OP_V_ADD_U32, S, T, Y, 0), END};
	run_case(&t, "t-read-again", "gfx90a", twice, 4, -1);
	/* must stay: a constant beside t (SDWA takes none) */
	static const struct step konst[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                    STEP2(AMD_OP_V_ADD_U32, R, 0x1234567, T, 1), END};
	run_case(&t, "constant-beside", "gfx90a", konst, 3, -1);
	/* must stay: a reader outside the integer VOP2 rows */
	static const struct step mul[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                  STEP2(AMD_OP_V_MUL_LO_U32, R, T, Y, 0), END};
	run_case(&t, "mul-lo", "gfx90a", mul, 3, -1);
	/* a shift and a mask that keep one byte or word of x, moved: v_lshlrev_b32_sdwa */
	static const struct step lshr6[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 6, X, 1),
	                                    STEP2(AMD_OP_V_AND_B32, R, T, 0x3fc, 2), END};
	run_case(&t, "lshr6-and-3fc", "gfx90a", lshr6, 3, 1);
	static const struct step lshl2[] = {STEP2(AMD_OP_V_LSHLREV_B32, T, 2, X, 1),
	                                    STEP2(AMD_OP_V_AND_B32, R, 0x3fc, T, 1), END};
	run_case(&t, "lshl2-and-3fc", "gfx1030", lshl2, 3, 0);
	static const struct step lshr22[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 22, X, 1),
	                                     STEP2(AMD_OP_V_AND_B32, R, 0x3fc, T, 1), END};
	run_case(&t, "lshr22-and-3fc", "gfx942", lshr22, 3, 3);
	static const struct step lshr8w[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 8, X, 1),
	                                     STEP2(AMD_OP_V_AND_B32, R, 0xffff00, T, 1), END};
	run_case(&t, "lshr8-and-word", "gfx90a", lshr8w, 3, 5);
	static const struct step lshr16b[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 16, X, 1),
	                                      STEP2(AMD_OP_V_AND_B32, R, 0xff, T, 1), END};
	run_case(&t, "lshr16-and-ff", "gfx90a", lshr16b, 3, 2);
	/* must stay: the field is not a whole byte (x bits 7..14), zeros shifted in are kept,
	 * the mask is not contiguous */
	static const struct step unaligned[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 5, X, 1),
	                                        STEP2(AMD_OP_V_AND_B32, R, 0x3fc, T, 1), END};
	run_case(&t, "lshr5-and-3fc", "gfx90a", unaligned, 3, -1);
	static const struct step zeros[] = {STEP2(AMD_OP_V_LSHLREV_B32, T, 4, X, 1),
	                                    STEP2(AMD_OP_V_AND_B32, R, 0x3fc, T, 1), END};
	run_case(&t, "lshl4-and-3fc", "gfx90a", zeros, 3, -1);
	static const struct step holes[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 6, X, 1),
	                                    STEP2(AMD_OP_V_AND_B32, R, 0x3fd, T, 1), END};
	run_case(&t, "lshr6-and-3fd", "gfx90a", holes, 3, -1);
	static const struct step shared[] = {STEP2(AMD_OP_V_LSHRREV_B32, T, 6, X, 1),
	                                     STEP2(AMD_OP_V_AND_B32, R, 0x3fc, T, 1),
	                                     STEP2(AMD_OP_V_ADD_U32, S, T, Y, 0), END};
	run_case(&t, "shift-read-again", "gfx90a", shared, 4, -1);
	run_case(&t, "shift-mask-gfx1100", "gfx1100", lshr6, 3, -1);
	/* must stay: no SDWA on gfx11 */
	run_case(&t, "gfx1100", "gfx1100", word1, 4, -1);
	printf("sdwa_fold: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
