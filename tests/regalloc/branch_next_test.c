/* mir_drop_branches_to_next (src/mir/branch_next.c), suite 'regalloc': hand-built
 * functions `bb0: v_add; BRANCH bbT` with blocks between bb0 and bbT.  The branch goes when
 * every block between is empty (s_branch and a conditional branch, none or two empty blocks
 * between), and bb0 then has the one successor bbT; it stays, with the function unchanged,
 * when a block between holds an instruction, when it branches backwards (a loop), and for
 * a branch whose target is bb0's own block. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

enum shape { OVER_NONE, OVER_EMPTY, CONDITIONAL, OVER_CODE, BACKWARD, SELF, NSHAPES };

/* Blocks: bb0 branches; bb1, bb2 between (empty unless OVER_CODE); bb3 the target, ends. */
static void build(struct mir_function *fn, enum shape shape)
{
	unsigned nblocks = shape == OVER_NONE ? 2 : 4;
	for (unsigned b = 0; b < nblocks; b++)
		mir_new_block(fn);
	uint32_t target = nblocks - 1;
	struct mir_opnd vadd[3] = {mir_vgpr(0, 1), mir_vgpr(1, 1), mir_vgpr(2, 1)};
	add(fn, 0, AMD_OP_V_ADD_U32, 3, vadd);
	if (shape == OVER_CODE || shape == BACKWARD) /* (BACKWARD: bb0's branch stays too) */
		add(fn, 2, AMD_OP_V_ADD_U32, 3, vadd);
	struct mir_opnd none[1] = {{0}};
	add(fn, target, AMD_OP_S_ENDPGM, 0, none);
	if (shape == BACKWARD) { /* bb3: v_add; s_cbranch_scc1 bb0; then the end in a new bb */
		fn->blocks[target].ninsns = 0;
		add(fn, target, AMD_OP_V_ADD_U32, 3, vadd);
		struct mir_opnd to0 = mir_block_ref(0);
		add(fn, target, AMD_OP_S_CBRANCH_SCC1, 1, &to0);
		uint32_t last = mir_new_block(fn);
		add(fn, last, AMD_OP_S_ENDPGM, 0, none);
		fn->blocks[target].succ[0] = last, fn->blocks[target].succ[1] = 0;
		fn->blocks[target].nsucc = 2;
	}
	struct mir_opnd to = mir_block_ref(shape == SELF ? 0 : target);
	add(fn, 0, shape == CONDITIONAL ? AMD_OP_S_CBRANCH_EXECZ : AMD_OP_S_BRANCH, 1, &to);
	fn->blocks[0].succ[0] = shape == CONDITIONAL ? 1 : (shape == SELF ? 0 : target);
	fn->blocks[0].succ[1] = target;
	fn->blocks[0].nsucc = shape == CONDITIONAL ? 2 : 1;
	for (uint32_t b = 1; b < target; b++) {
		fn->blocks[b].succ[0] = b + 1;
		fn->blocks[b].nsucc = 1;
	}
}

static bool same_as_built(const struct mir_function *fn, const struct mir_function *ref)
{
	if (fn->nblocks != ref->nblocks)
		return false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *x = &fn->blocks[b], *y = &ref->blocks[b];
		if (x->ninsns != y->ninsns || x->nsucc != y->nsucc ||
		    memcmp(x->succ, y->succ, x->nsucc * sizeof x->succ[0]))
			return false;
		for (uint32_t i = 0; i < x->ninsns; i++)
			if (x->insns[i].op != y->insns[i].op)
				return false;
	}
	return true;
}

static void run_case(struct totals *t, const char *gpu, enum shape shape, bool expect_drop)
{
	struct amd_target target;
	char err[300] = "";
	t->checks++;
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		printf("FAIL: %s: %s\n", gpu, err);
		t->failures++;
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "br", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	build(&fn, shape);
	build(&ref, shape);
	uint32_t to = ref.blocks[0].succ[ref.blocks[0].nsucc - 1];
	unsigned n = mir_drop_branches_to_next(&fn);
	const struct mir_block *b0 = &fn.blocks[0];
	bool ok = expect_drop ? n == 1 && b0->ninsns == 1 && b0->insns[0].op == AMD_OP_V_ADD_U32 &&
	                                b0->nsucc == 1 && b0->succ[0] == to
	                      : n == 0 && same_as_built(&fn, &ref);
	if (!ok) {
		printf("FAIL: %s: shape %d: %u dropped, expected %s\n", gpu, shape, n,
		       expect_drop ? "the branch gone and one successor" : "no change");
		t->failures++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const char *const gpus[] = {"gfx90a", "gfx1100"};
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
		run_case(&t, gpus[g], OVER_NONE, true);
		run_case(&t, gpus[g], OVER_EMPTY, true);
		run_case(&t, gpus[g], CONDITIONAL, true);
		run_case(&t, gpus[g], OVER_CODE, false);
		run_case(&t, gpus[g], BACKWARD, false);
		run_case(&t, gpus[g], SELF, false);
	}
	printf("%u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
