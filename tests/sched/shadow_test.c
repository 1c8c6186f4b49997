/* The list schedule's load shadow (src/sched/list.c): work that does not need a global
 * load's result goes between the load and its first reader, where the wave would wait,
 * and a constant COPY is no such filler.  Hand-built blocks on physical registers go
 * through sched_list alone on the five targets (suite 'sched'); the oracle is the order as
 * built, read as "which instruction comes before which".
 *   - load, a two-step chain on its value ending in a store, and a store address that does
 *     not need the load: the address (lower height, so greatest-height-first emitted it
 *     after the chain) comes before the chain's first step;
 *   - the same with a COPY of a constant that the chain's second step reads: the COPY
 *     stays after the chain's first step (a filler of constants would set up every
 *     constant of an unrolled kernel at its top). */
#include <stdio.h>
#include <string.h>

#include "mir/mir.h"
#include "sched/sched.h"

struct totals {
	unsigned checks, failures;
};

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                            struct mir_opnd x, struct mir_opnd y, struct mir_opnd z)
{
	struct mir_opnd ops[3] = {x, y, z};
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

#define S(r, w) mir_sgpr(r, w)
#define V(r, w) mir_vgpr(r, w)

static const struct mir_opnd off = {.kind = MIR_OFF};
static const struct mir_opnd none = {0};

/* Marks (in the first operand's register number) of the instructions the checks look for. */
enum { FIRST_READER = 5, STORE_ADDR = 8, CONSTANT = 12 };

static void build(struct mir_function *fn, bool constant)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), mir_imm(0));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(2, 1), S(4, 1), V(0, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(3, 1), S(5, 1), V(0, 1));
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(4, 1), V(2, 2), off);
	if (constant) /* before the load's reader as built: the schedule moves it down */
		add(fn, b, MIR_COPY, 2, S(CONSTANT, 1), mir_imm(0x1234567), none);
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(FIRST_READER, 1), V(4, 1), V(4, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(6, 1), constant ? S(CONSTANT, 1) : V(4, 1),
	    V(FIRST_READER, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(STORE_ADDR, 1), S(6, 1), V(1, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(STORE_ADDR + 1, 1), S(7, 1), V(1, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(STORE_ADDR, 2), V(6, 1), off);
	add(fn, b, AMD_OP_S_ENDPGM, 0, none, none, none);
}

/* Position of the first instruction of opcode op whose first operand is register reg. */
static uint32_t where(const struct mir_block *bl, unsigned op, uint32_t reg)
{
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op == op && bl->insns[i].opnds[0].v == reg)
			return i;
	return UINT32_MAX;
}

static void run_case(struct totals *t, const char *gpu, bool constant)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		printf("FAIL: %s: %s\n", gpu, err);
		t->failures++;
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "shadow", &target, target.info->default_wave_size);
	build(&fn, constant);
	uint32_t n = fn.blocks[0].ninsns;
	sched_list(&fn, false);
	const struct mir_block *bl = &fn.blocks[0];
	uint32_t reader = where(bl, AMD_OP_V_ADD_U32, FIRST_READER);
	uint32_t addr = where(bl, AMD_OP_V_ADD_U32, STORE_ADDR);
	uint32_t copy = where(bl, MIR_COPY, CONSTANT);
	bool ok = bl->ninsns == n && reader != UINT32_MAX && addr < reader &&
	          (!constant || (copy != UINT32_MAX && copy > reader));
	t->checks++;
	if (!ok) {
		printf("FAIL: %s: %s\n", gpu,
		       constant ? "expected the store address before the load's first reader, the "
		                  "constant COPY after it"
		                : "expected the store address before the load's first reader");
		mir_print(stdout, &fn);
		t->failures++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
	struct totals t = {0, 0};
	for (unsigned g = 0; g < sizeof gpus / sizeof *gpus; g++) {
		run_case(&t, gpus[g], false);
		run_case(&t, gpus[g], true);
	}
	printf("%u checks, %u failures\n", t.checks, t.failures);
	return t.failures != 0;
}
