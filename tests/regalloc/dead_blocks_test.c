/* mir_remove_dead_code's unreachable blocks (src/mir/dead_code.c), suite 'regalloc': a
 * hand-built function shaped like cflow.c's output for a kernel with barriers:
 *   bb0: s_barrier; s_cbranch_execz -> bb3 (a skip edge)    succ bb1, bb3
 *   bb1: s_endpgm                                           (no succ)
 *   bb2: s_barrier; s_branch bb4                            nothing leads here
 *   bb3: s_barrier; s_branch bb1                            reached by bb0's skip edge
 *   bb4: s_barrier; s_branch bb1                            reached only from bb2
 * After the pass bb2 and bb4 are empty with no successors; bb0, bb1 and bb3 keep their
 * instructions and successors (bb0's skip edge included). */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

static unsigned failures;

static void check(bool ok, const char *what)
{
	if (!ok) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

static void add(struct mir_function *fn, uint32_t b, unsigned op)
{
	struct mir_opnd none[1] = {{0}};
	struct mir_insn in = mir_make(op, 0, none);
	mir_append(fn, b, &in);
}

static void link(struct mir_function *fn, uint32_t b, int s0, int s1, uint8_t skip)
{
	struct mir_block *bl = &fn->blocks[b];
	bl->nsucc = 0;
	if (s0 >= 0)
		bl->succ[bl->nsucc++] = (uint32_t)s0;
	if (s1 >= 0)
		bl->succ[bl->nsucc++] = (uint32_t)s1;
	bl->skip_succ = skip;
}

int main(void)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse("gfx90a", &target, err, sizeof err)) {
		printf("FAIL: %s\n", err);
		return 1;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "dead_blocks", &target, 64);
	for (int b = 0; b < 5; b++)
		mir_new_block(&fn);
	add(&fn, 0, AMD_OP_S_BARRIER);
	add(&fn, 0, AMD_OP_S_CBRANCH_EXECZ);
	link(&fn, 0, 1, 3, 2);
	add(&fn, 1, AMD_OP_S_ENDPGM);
	link(&fn, 1, -1, -1, 0);
	for (uint32_t b = 2; b <= 4; b++) {
		add(&fn, b, AMD_OP_S_BARRIER);
		add(&fn, b, AMD_OP_S_BRANCH);
	}
	link(&fn, 2, 4, -1, 0);
	link(&fn, 3, 1, -1, 0);
	link(&fn, 4, 1, -1, 0);
	mir_remove_dead_code(&fn);
	check(fn.blocks[0].ninsns == 2 && fn.blocks[0].nsucc == 2 && fn.blocks[0].skip_succ == 2,
	      "bb0 changed");
	check(fn.blocks[1].ninsns == 1, "bb1 (the exit) changed");
	check(fn.blocks[3].ninsns == 2 && fn.blocks[3].nsucc == 1,
	      "bb3, reached by a skip edge, was emptied");
	check(fn.blocks[2].ninsns == 0 && fn.blocks[2].nsucc == 0, "unreachable bb2 kept");
	check(fn.blocks[4].ninsns == 0 && fn.blocks[4].nsucc == 0,
	      "bb4, reached only from unreachable bb2, kept");
	pa_arena_free(&arena);
	printf("mir-dead-blocks: %s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
