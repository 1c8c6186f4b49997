/* The pre-allocation list schedule (src/sched/list.c, on virtual registers) and the VGPRs it
 * holds, suite 'regalloc': hand-built blocks go through sched_list alone on the five targets.
 *   - two independent arithmetic chains, each ending in a store: interleaving them (the
 *     greedy order by height takes both chains' first steps first) holds a value of each
 *     chain at once and moves no load up, so the block keeps its order;
 *   - a load after an arithmetic chain it does not depend on: the load still moves to the
 *     top (its latency overlaps the chain), holding its result meanwhile.
 * The oracle is the order as built: which instruction is where afterwards. */
#include <stdio.h>
#include <string.h>

#include "mir/mir.h"
#include "sched/sched.h"

struct totals {
	unsigned checks, failures;
};

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

static const struct mir_opnd off = {.kind = MIR_OFF};
static const struct mir_opnd none = {0};

/* k: kernarg pair (SGPRs); addr: a VGPR pair built from v0; `loads`: the second chain is a
 * load and its use instead of arithmetic. */
static void build(struct mir_function *fn, bool loads)
{
	uint32_t b = mir_new_block(fn);
	uint32_t k = mir_new_vreg(fn, MIR_SGPR, 2, 2), addr = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	add(fn, b, AMD_OP_S_LOAD_DWORDX2, 3, mir_vreg(k, 2), mir_sgpr(0, 2), mir_imm(0));
	add(fn, b, AMD_OP_V_ADD_U32, 3, dword(addr, 0), dword(k, 0), mir_vgpr(0, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, dword(addr, 1), dword(k, 1), mir_vgpr(0, 1));
	uint32_t first = 0;
	for (unsigned c = 0; c < 2; c++) {
		uint32_t x = mir_new_vreg(fn, MIR_VGPR, 1, 1), y = mir_new_vreg(fn, MIR_VGPR, 1, 1);
		if (loads && c == 1)
			add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, mir_vreg(x, 1), mir_vreg(addr, 2),
			    off);
		else
			add(fn, b, AMD_OP_V_ADD_U32, 3, mir_vreg(x, 1), dword(k, c),
			    dword(addr, 0));
		add(fn, b, AMD_OP_V_ADD_U32, 3, mir_vreg(y, 1), dword(k, 1), mir_vreg(x, 1));
		if (!loads || c == 0) /* a longer chain before the load */
			add(fn, b, AMD_OP_V_ADD_U32, 3, mir_vreg(y, 1), dword(k, 0),
			    mir_vreg(y, 1));
		if (loads && c == 0) { /* stored after the load (a load never passes a store) */
			first = y;
			continue;
		}
		add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, mir_vreg(addr, 2), mir_vreg(y, 1), off);
	}
	if (loads)
		add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, mir_vreg(addr, 2), mir_vreg(first, 1),
		    off);
	add(fn, b, AMD_OP_S_ENDPGM, 0, none, none, none);
}

static void run_case(struct totals *t, const char *gpu, bool loads)
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
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "pressure", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	build(&fn, loads);
	build(&ref, loads);
	sched_list(&fn, true);
	const struct mir_block *bl = &fn.blocks[0], *rb = &ref.blocks[0];
	bool ok = bl->ninsns == rb->ninsns;
	const char *what = loads ? "the load moved to the top" : "the order as built";
	if (!loads) {
		for (uint32_t i = 0; ok && i < bl->ninsns; i++)
			ok = memcmp(&bl->insns[i], &rb->insns[i], sizeof bl->insns[i]) == 0;
	} else {
		/* the block's first instruction after the kernarg load and the address */
		uint32_t first_vector = 1;
		while (ok && first_vector < bl->ninsns &&
		       bl->insns[first_vector].op == AMD_OP_V_ADD_U32 &&
		       bl->insns[first_vector].opnds[0].v == 1)
			first_vector++;
		ok = ok && bl->insns[first_vector].op == AMD_OP_GLOBAL_LOAD_DWORD;
	}
	t->checks++;
	if (!ok) {
		printf("FAIL: %s: %s: expected %s\n", gpu, loads ? "load" : "two chains", what);
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
