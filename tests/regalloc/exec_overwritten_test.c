/* mir_drop_overwritten_exec (src/mir/exec_overwritten.c), suite 'regalloc': hand-built
 * functions `bb0: v_add; s_mov exec, s[10:11]`, an empty bb1, `bb2: s_mov exec, s[8:9];
 * v_add; s_endpgm`.  The first EXEC copy goes (bb0 then ends in its v_add) when bb0 falls
 * through to bb2 (directly or over the empty block) on wave64 and wave32; it stays, with the
 * function unchanged, when bb2 first runs a v_add under it, when bb2's EXEC write reads EXEC
 * (s_and_b64 exec, exec, s), when bb0 has two successors, and when the copy is not last. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

enum shape { DIRECT, OVER_EMPTY, READ_BETWEEN, AND_EXEC, TWO_SUCCS, NOT_LAST, NSHAPES };

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

static void build(struct mir_function *fn, enum shape shape)
{
	unsigned w = fn->wave_size == 64 ? 2 : 1;
	unsigned mov = w == 2 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32;
	unsigned andop = w == 2 ? AMD_OP_S_AND_B64 : AMD_OP_S_AND_B32;
	for (unsigned b = 0; b < 3; b++)
		mir_new_block(fn);
	struct mir_opnd vadd[3] = {mir_vgpr(0, 1), mir_vgpr(1, 1), mir_vgpr(2, 1)};
	struct mir_opnd inner[2] = {mir_special(AMD_SPEC_EXEC, w), mir_sgpr(10, w)};
	struct mir_opnd outer[2] = {mir_special(AMD_SPEC_EXEC, w), mir_sgpr(8, w)};
	struct mir_opnd anded[3] = {mir_special(AMD_SPEC_EXEC, w), mir_special(AMD_SPEC_EXEC, w),
	                            mir_sgpr(8, w)};
	struct mir_opnd none[1] = {{0}};
	add(fn, 0, AMD_OP_V_ADD_U32, 3, vadd);
	add(fn, 0, mov, 2, inner);
	if (shape == NOT_LAST)
		add(fn, 0, AMD_OP_S_NOP, 1, (struct mir_opnd[1]){mir_imm(0)});
	uint32_t first = shape == DIRECT ? 1 : 2;
	if (shape == READ_BETWEEN)
		add(fn, first, AMD_OP_V_ADD_U32, 3, vadd);
	if (shape == AND_EXEC)
		add(fn, first, andop, 3, anded);
	else
		add(fn, first, mov, 2, outer);
	add(fn, first, AMD_OP_V_ADD_U32, 3, vadd);
	add(fn, first, AMD_OP_S_ENDPGM, 0, none);
	fn->blocks[0].succ[0] = 1;
	fn->blocks[0].succ[1] = 2;
	fn->blocks[0].nsucc = shape == TWO_SUCCS ? 2 : 1;
	if (shape != DIRECT) {
		fn->blocks[1].succ[0] = 2;
		fn->blocks[1].nsucc = 1;
	}
}

static void run_case(unsigned *failures, const char *gpu, unsigned wave, enum shape shape,
                     bool expect_drop)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		printf("FAIL: %s: %s\n", gpu, err);
		(*failures)++;
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "ex", &target, wave);
	build(&fn, shape);
	uint32_t n0 = fn.blocks[0].ninsns;
	unsigned n = mir_drop_overwritten_exec(&fn);
	const struct mir_block *b0 = &fn.blocks[0];
	bool ok = expect_drop ? n == 1 && b0->ninsns == 1 && b0->insns[0].op == AMD_OP_V_ADD_U32
	                      : n == 0 && b0->ninsns == n0;
	if (!ok) {
		printf("FAIL: %s wave%u: shape %d: %u dropped, expected %s\n", gpu, wave, shape, n,
		       expect_drop ? "the first EXEC copy gone" : "no change");
		(*failures)++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	unsigned failures = 0, checks = 0;
	static const struct {
		const char *gpu;
		unsigned wave;
	} targets[] = {{"gfx90a", 64}, {"gfx1100", 32}, {"gfx1100", 64}};
	for (size_t g = 0; g < sizeof targets / sizeof targets[0]; g++)
		for (int s = 0; s < NSHAPES; s++, checks++)
			run_case(&failures, targets[g].gpu, targets[g].wave, (enum shape)s,
			         s == DIRECT || s == OVER_EMPTY);
	printf("%u cases, %u failures\n", checks, failures);
	return failures ? 1 : 0;
}
