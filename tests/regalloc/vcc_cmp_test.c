/* mir_compare_literals_to_vcc (src/mir/vcc_cmp.c), suite 'regalloc': small hand-built blocks
 * of a compare of a VGPR with a literal and its mask's readers go through the pass alone.
 * Where it must rewrite (gfx90a, gfx942): the compare writes vcc, takes the literal as src0 and
 * the VGPR as src1, and every reader of the mask names vcc; the new compare's value on
 * (literal, x) must equal the old one's on the old operand order for sample x (zeros, both
 * signs, the literal's neighbours, infinities, NaN), each compare evaluated from the ISA's
 * definition (lt: a < b; nge: !(a >= b), true when either is NaN; ...), so a wrong mirror fails.
 * Where it must not (an inline constant, a VCC writer in the block, a reader in another block,
 * gfx10+ whose VOP3 takes literals): the function is unchanged.
 * The carry form the same way: v_add_co_u32 of a VGPR and a literal whose carry mask only the
 * v_addc_co_u32 of the high half reads writes vcc, takes the literal as src0 and the VGPR as
 * src1 (the same sum: addition commutes), and the v_addc reads vcc; not with an inline
 * constant, a VCC writer between, the v_addc in another block, or on gfx10+. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"
#include "mir_same.h"

struct totals {
	unsigned checks, failures;
};

static void fail(struct totals *t, const char *gpu, const char *what)
{
	printf("FAIL: %s: %s\n", gpu, what);
	t->failures++;
}

static float as_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The compare's value on (a, b), from the ISA's definitions; -1 when the test does not know
 * the opcode. */
static int eval(unsigned op, uint32_t a, uint32_t b)
{
	float fa = as_f32(a), fb = as_f32(b);
	switch (op) {
	case AMD_OP_V_CMP_LT_U32:
		return a < b;
	case AMD_OP_V_CMP_GT_U32:
		return a > b;
	case AMD_OP_V_CMP_LE_U32:
		return a <= b;
	case AMD_OP_V_CMP_GE_U32:
		return a >= b;
	case AMD_OP_V_CMP_LT_I32:
		return (int32_t)a < (int32_t)b;
	case AMD_OP_V_CMP_GT_I32:
		return (int32_t)a > (int32_t)b;
	case AMD_OP_V_CMP_LT_F32:
		return fa < fb;
	case AMD_OP_V_CMP_GT_F32:
		return fa > fb;
	case AMD_OP_V_CMP_NGE_F32:
		return !(fa >= fb);
	case AMD_OP_V_CMP_NLE_F32:
		return !(fa <= fb);
	case AMD_OP_V_CMP_NGT_F32:
		return !(fa > fb);
	case AMD_OP_V_CMP_NLT_F32:
		return !(fa < fb);
	case AMD_OP_V_CMP_NE_U32:
		return a != b;
	default:
		return -1;
	}
}

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                            const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

enum shape { PLAIN, LITERAL_FIRST, INLINE_CONST, VCC_WRITER, OTHER_BLOCK };

/* c = COPY k; m = cmp x, c (or c, x); v1 = cndmask 0, 1, m; v2 = cndmask 1, 0, m; end. */
static void build(struct mir_function *fn, unsigned op, uint32_t k, enum shape shape)
{
	uint32_t b = mir_new_block(fn), c = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t m = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd x = mir_vgpr(0, 1);
	struct mir_opnd copy[2] = {mir_vreg(c, 1), mir_imm(k)};
	add(fn, b, MIR_COPY, 2, copy);
	struct mir_opnd cmp[3] = {mir_vreg(m, 2), x, mir_vreg(c, 1)};
	if (shape == LITERAL_FIRST)
		cmp[1] = mir_vreg(c, 1), cmp[2] = x;
	add(fn, b, op, 3, cmp);
	if (shape == VCC_WRITER) {
		struct mir_opnd co[4] = {mir_vgpr(5, 1), mir_special(AMD_SPEC_VCC, 2), x, x};
		add(fn, b, AMD_OP_V_ADD_CO_U32, 4, co);
	}
	uint32_t rb = b;
	if (shape == OTHER_BLOCK) {
		rb = mir_new_block(fn);
		fn->blocks[b].succ[0] = rb; /* falls through */
		fn->blocks[b].nsucc = 1;
	}
	struct mir_opnd sel1[4] = {mir_vgpr(1, 1), mir_imm(0), mir_imm(1), mir_vreg(m, 2)};
	struct mir_opnd sel2[4] = {mir_vgpr(2, 1), mir_imm(1), mir_imm(0), mir_vreg(m, 2)};
	add(fn, rb, AMD_OP_V_CNDMASK_B32, 4, sel1);
	add(fn, rb, AMD_OP_V_CNDMASK_B32, 4, sel2);
	struct mir_opnd none[1] = {{0}};
	add(fn, rb, AMD_OP_S_ENDPGM, 0, none);
}

static bool is_vcc(const struct mir_opnd *o)
{
	return o->kind == MIR_SPECIAL && o->v == AMD_SPEC_VCC;
}

/* The rewritten block: compare (vcc, k, x) agreeing with the old compare everywhere. */
static void check_rewritten(struct totals *t, const char *gpu, const struct mir_function *fn,
                            unsigned op, uint32_t k, bool literal_first)
{
	const struct mir_block *bl = &fn->blocks[0];
	const struct mir_insn *cmp = &bl->insns[1];
	char what[200];
	snprintf(what, sizeof what, "op %u with literal %#x %s: not rewritten to vcc, k, x", op, k,
	         literal_first ? "first" : "second");
	if (cmp->nopnds != 3 || !is_vcc(&cmp->opnds[0]) || cmp->opnds[1].kind != MIR_IMM ||
	    cmp->opnds[1].v != k || cmp->opnds[2].kind != MIR_VGPR || cmp->opnds[2].v != 0) {
		fail(t, gpu, what);
		return;
	}
	for (uint32_t i = 2; i < 4; i++)
		if (!is_vcc(&bl->insns[i].opnds[3])) {
			snprintf(what, sizeof what, "op %u: v_cndmask %u does not read vcc", op, i);
			fail(t, gpu, what);
		}
	static const uint32_t xs[] = {0,           1,           0x80000000u, 0x7fffffffu,
	                              0xffffffffu, 0x3f800000u, 0xbf800000u, 0x7f800000u,
	                              0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u};
	uint32_t samples[sizeof xs / sizeof xs[0] + 3];
	unsigned n = 0;
	for (; n < sizeof xs / sizeof xs[0]; n++)
		samples[n] = xs[n];
	samples[n++] = k - 1, samples[n++] = k, samples[n++] = k + 1;
	for (unsigned i = 0; i < n; i++) {
		uint32_t x = samples[i];
		int want = literal_first ? eval(op, k, x) : eval(op, x, k);
		int got = eval(cmp->op, k, x);
		if (want < 0 || got != want) {
			snprintf(what, sizeof what,
			         "op %u -> %u on x = %#x, literal %#x: %d, the original gives %d",
			         op, cmp->op, x, k, got, want);
			fail(t, gpu, what);
			return;
		}
	}
}

static void run_case(struct totals *t, const char *gpu, unsigned op, uint32_t k, enum shape shape,
                     bool expect_rewrite)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		fail(t, gpu, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "vcc", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	build(&fn, op, k, shape);
	build(&ref, op, k, shape);
	unsigned n = mir_compare_literals_to_vcc(&fn);
	t->checks++;
	char what[200];
	if (expect_rewrite) {
		if (n != 1) {
			snprintf(what, sizeof what,
			         "op %u literal %#x shape %d: %u rewrites, expected 1", op, k,
			         shape, n);
			fail(t, gpu, what);
		} else {
			check_rewritten(t, gpu, &fn, op, k, shape == LITERAL_FIRST);
		}
	} else if (n != 0 || !mir_same_as_built(&fn, &ref)) {
		snprintf(what, sizeof what,
		         "op %u literal %#x shape %d: changed, expected untouched", op, k, shape);
		fail(t, gpu, what);
	}
	pa_arena_free(&arena);
}

/* c = COPY k; lo = v_add_co_u32 x, c (or c, x) carry m; hi = v_addc_co_u32 y, 0, m; end. */
static void build_carry(struct mir_function *fn, uint32_t k, enum shape shape)
{
	uint32_t b = mir_new_block(fn), c = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t m = mir_new_vreg(fn, MIR_SGPR, 2, 2), junk = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd x = mir_vgpr(0, 1), y = mir_vgpr(1, 1);
	struct mir_opnd copy[2] = {mir_vreg(c, 1), mir_imm(k)};
	add(fn, b, MIR_COPY, 2, copy);
	struct mir_opnd lo[4] = {mir_vgpr(2, 1), mir_vreg(m, 2), x, mir_vreg(c, 1)};
	if (shape == LITERAL_FIRST)
		lo[2] = mir_vreg(c, 1), lo[3] = x;
	add(fn, b, AMD_OP_V_ADD_CO_U32, 4, lo);
	if (shape == VCC_WRITER) {
		struct mir_opnd cmp[3] = {mir_special(AMD_SPEC_VCC, 2), x, y};
		add(fn, b, AMD_OP_V_CMP_LT_U32, 3, cmp);
	}
	uint32_t rb = b;
	if (shape == OTHER_BLOCK) {
		rb = mir_new_block(fn);
		fn->blocks[b].succ[0] = rb; /* falls through */
		fn->blocks[b].nsucc = 1;
	}
	struct mir_opnd hi[5] = {mir_vgpr(3, 1), mir_vreg(junk, 2), y, mir_imm(0), mir_vreg(m, 2)};
	add(fn, rb, AMD_OP_V_ADDC_CO_U32, 5, hi);
	struct mir_opnd none[1] = {{0}};
	add(fn, rb, AMD_OP_S_ENDPGM, 0, none);
}

static void run_carry(struct totals *t, const char *gpu, uint32_t k, enum shape shape,
                      bool expect_rewrite)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		fail(t, gpu, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "vcc", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	build_carry(&fn, k, shape);
	build_carry(&ref, k, shape);
	unsigned n = mir_compare_literals_to_vcc(&fn);
	t->checks++;
	char what[200];
	snprintf(what, sizeof what, "carry literal %#x shape %d: %u rewrites, expected %s", k,
	         shape, n, expect_rewrite ? "the e32 form" : "none");
	const struct mir_insn *lo = &fn.blocks[0].insns[1], *hi = &fn.blocks[0].insns[2];
	if (expect_rewrite ? n != 1 || !is_vcc(&lo->opnds[1]) || lo->opnds[2].kind != MIR_IMM ||
	                             lo->opnds[2].v != k || lo->opnds[3].kind != MIR_VGPR ||
	                             lo->opnds[3].v != 0 || !is_vcc(&hi->opnds[4])
	                   : n != 0 || !mir_same_as_built(&fn, &ref))
		fail(t, gpu, what);
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const unsigned ops[] = {AMD_OP_V_CMP_LT_U32,  AMD_OP_V_CMP_GE_U32,
	                               AMD_OP_V_CMP_LT_I32,  AMD_OP_V_CMP_GT_F32,
	                               AMD_OP_V_CMP_NGE_F32, AMD_OP_V_CMP_NGT_F32,
	                               AMD_OP_V_CMP_NE_U32};
	static const uint32_t lits[] = {0x309, 0x80000000u, 0x42f60000u /* 123.0f */};
	for (const char *const *g = (const char *const[]){"gfx90a", "gfx942", NULL}; *g; g++)
		for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
			for (size_t j = 0; j < sizeof lits / sizeof lits[0]; j++) {
				run_case(&t, *g, ops[i], lits[j], PLAIN, true);
				run_case(&t, *g, ops[i], lits[j], LITERAL_FIRST, true);
			}
	/* 64 is an inline constant: selection's VOP3 takes it, nothing to gain */
	run_case(&t, "gfx90a", AMD_OP_V_CMP_LT_U32, 64, PLAIN, false);
	run_case(&t, "gfx90a", AMD_OP_V_CMP_LT_U32, 0x309, VCC_WRITER, false);
	run_case(&t, "gfx90a", AMD_OP_V_CMP_LT_U32, 0x309, OTHER_BLOCK, false);
	for (const char *const *g = (const char *const[]){"gfx1030", "gfx1100", "gfx1200", NULL};
	     *g; g++)
		run_case(&t, *g, AMD_OP_V_CMP_LT_U32, 0x309, PLAIN, false);
	for (const char *const *g = (const char *const[]){"gfx90a", "gfx942", NULL}; *g; g++) {
		run_carry(&t, *g, 0x200, PLAIN, true);
		run_carry(&t, *g, 0x800, LITERAL_FIRST, true);
	}
	run_carry(&t, "gfx90a", 64, PLAIN, false);
	run_carry(&t, "gfx90a", 0x200, VCC_WRITER, false);
	run_carry(&t, "gfx90a", 0x200, OTHER_BLOCK, false);
	run_carry(&t, "gfx1100", 0x200, PLAIN, false);
	printf("vcc_cmp: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
