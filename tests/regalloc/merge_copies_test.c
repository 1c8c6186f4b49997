/* mir_merge_dword_copies (src/mir/merge_copies.c), suite 'regalloc': hand-built blocks ending
 * in a phi's parallel copy made dword by dword (`P[0] <- V[0]`, `P[1] <- V[1]`, beside another
 * phi's copy) go through the pass alone, on the five targets.  Where V is written whole by one
 * instruction (v_add_f64): one whole parallel copy `P <- V` is left, the other phi's copy
 * untouched.  Where it must not merge (V built by two one-dword adds, the dwords copied
 * crosswise, only one dword copied, a second definition of V): the function is unchanged.
 * The oracle is the block as built. */
#include <stdio.h>
#include <string.h>

#include "mir/mir.h"

enum shape { WHOLE, HALVES, CROSSED, ONE_DWORD, TWO_DEFS, NSHAPES };
static const bool merges[NSHAPES] = {true, false, false, false, false};

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n, struct mir_opnd x,
                struct mir_opnd y, struct mir_opnd z)
{
	struct mir_opnd ops[3] = {x, y, z};
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

static struct mir_opnd dword(uint32_t v, unsigned k)
{
	struct mir_opnd o = mir_vreg(v, 1);
	o.sub = (uint8_t)k;
	return o;
}

static void par_copy(struct mir_function *fn, uint32_t b, struct mir_opnd d, struct mir_opnd s)
{
	struct mir_opnd ops[2] = {d, s};
	struct mir_insn in = mir_make(MIR_COPY, 2, ops);
	mir_append(fn, b, &in)->flags |= MIR_IF_PARALLEL;
}

/* Returns P; *v gets V. */
static uint32_t build(struct mir_function *fn, enum shape shape, uint32_t *v)
{
	uint32_t b = mir_new_block(fn);
	uint32_t p = mir_new_vreg(fn, MIR_VGPR, 2, 2), x = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	uint32_t q = mir_new_vreg(fn, MIR_VGPR, 1, 1), y = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	*v = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	add(fn, b, AMD_OP_V_ADD_U32, 3, mir_vreg(y, 1), mir_imm(1), mir_vgpr(0, 1));
	if (shape == HALVES) {
		add(fn, b, AMD_OP_V_ADD_U32, 3, dword(*v, 0), mir_imm(1), dword(p, 0));
		add(fn, b, AMD_OP_V_ADD_U32, 3, dword(*v, 1), mir_imm(2), dword(p, 1));
	} else {
		add(fn, b, AMD_OP_V_ADD_F64, 3, mir_vreg(*v, 2), mir_vreg(p, 2), mir_vreg(x, 2));
	}
	if (shape == TWO_DEFS)
		add(fn, b, AMD_OP_V_ADD_F64, 3, mir_vreg(*v, 2), mir_vreg(*v, 2), mir_vreg(x, 2));
	par_copy(fn, b, mir_vreg(q, 1), mir_vreg(y, 1));
	par_copy(fn, b, dword(p, 0), dword(*v, shape == CROSSED ? 1 : 0));
	if (shape != ONE_DWORD)
		par_copy(fn, b, dword(p, 1), dword(*v, shape == CROSSED ? 0 : 1));
	struct mir_opnd none = {0};
	add(fn, b, AMD_OP_S_ENDPGM, 0, none, none, none);
	return p;
}

static bool same(const struct mir_function *a, const struct mir_function *b)
{
	const struct mir_block *x = &a->blocks[0], *y = &b->blocks[0];
	if (x->ninsns != y->ninsns)
		return false;
	for (uint32_t i = 0; i < x->ninsns; i++)
		if (memcmp(&x->insns[i], &y->insns[i], sizeof x->insns[i]) != 0)
			return false;
	return true;
}

/* The block after merging: the other phi's copy, then one whole parallel copy P <- V. */
static bool merged_as_expected(const struct mir_function *fn, uint32_t p, uint32_t v)
{
	const struct mir_block *bl = &fn->blocks[0];
	unsigned copies = 0, whole = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op != MIR_COPY)
			continue;
		copies++;
		whole += (in->flags & MIR_IF_PARALLEL) && in->opnds[0].v == p &&
		         in->opnds[1].v == v && in->opnds[0].sub == 0 && in->opnds[0].width == 2 &&
		         in->opnds[1].sub == 0 && in->opnds[1].width == 2;
	}
	return copies == 2 && whole == 1;
}

static unsigned run_case(const char *gpu, enum shape shape)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		printf("FAIL: %s: %s\n", gpu, err);
		return 1;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "merge", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	uint32_t v, v2;
	uint32_t p = build(&fn, shape, &v);
	build(&ref, shape, &v2);
	unsigned n = mir_merge_dword_copies(&fn);
	const char *why = NULL;
	if (merges[shape] && (n != 1 || !merged_as_expected(&fn, p, v)))
		why = "expected one whole copy P <- V";
	else if (!merges[shape] && (n != 0 || !same(&fn, &ref)))
		why = "changed, expected untouched";
	if (why) {
		printf("FAIL: %s: shape %d: %s\n", gpu, shape, why);
		mir_print(stdout, &fn);
	}
	pa_arena_free(&arena);
	return why != NULL;
}

int main(void)
{
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
	unsigned checks = 0, failures = 0;
	for (unsigned g = 0; g < sizeof gpus / sizeof *gpus; g++)
		for (unsigned s = 0; s < NSHAPES; s++) {
			failures += run_case(gpus[g], (enum shape)s);
			checks++;
		}
	printf("%u cases, %u failures\n", checks, failures);
	return failures != 0;
}
