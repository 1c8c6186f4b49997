/* mir_remove_dead_code (src/mir/dead_code.c), suite 'regalloc': an SALU instruction whose
 * register result nothing reads and which also writes SCC.  Blocks `%d = s_ashr_i32 %x, 31
 * (SCC written); NEXT; ...`: it goes when NEXT writes SCC without reading it (s_cmp), or when
 * the block falls through untouched to a successor that starts with an s_cmp; it stays when
 * NEXT reads SCC (s_cselect, s_addc, s_cbranch_scc1: that SCC is the shift's), when the
 * successor ends without writing SCC (taken as read), and when its result is read.  gfx90a
 * and gfx1100. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

enum next { CMP, CSELECT, ADDC, BRANCH_READS, RESULT_READ, SUCC_CMP, SUCC_END };

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

static void build(struct mir_function *fn, enum next next)
{
	uint32_t b = mir_new_block(fn);
	uint32_t d = mir_new_vreg(fn, MIR_SGPR, 1, 1), e = mir_new_vreg(fn, MIR_SGPR, 1, 1);
	struct mir_opnd sh[3] = {mir_vreg(d, 1), mir_sgpr(0, 1), mir_imm(31)};
	add(fn, b, AMD_OP_S_ASHR_I32, 3, sh);
	struct mir_opnd two[3] = {mir_vreg(e, 1), mir_sgpr(1, 1), mir_sgpr(2, 1)};
	struct mir_opnd cmp[2] = {mir_sgpr(1, 1), mir_sgpr(2, 1)};
	switch (next) {
	case CMP:
		add(fn, b, AMD_OP_S_CMP_LT_I32, 2, cmp);
		break;
	case CSELECT:
		add(fn, b, AMD_OP_S_CSELECT_B32, 3, two);
		break;
	case ADDC:
		add(fn, b, AMD_OP_S_ADDC_U32, 3, two);
		break;
	case BRANCH_READS:
	case SUCC_CMP:
	case SUCC_END:
		break;
	case RESULT_READ:
		two[1] = mir_vreg(d, 1);
		add(fn, b, AMD_OP_S_ADD_U32, 3, two);
		add(fn, b, AMD_OP_S_CMP_LT_I32, 2, cmp);
		break;
	}
	if (next == CSELECT || next == ADDC || next == RESULT_READ) { /* e is read */
		struct mir_opnd st[2] = {mir_sgpr(4, 1), mir_vreg(e, 1)};
		add(fn, b, MIR_COPY, 2, st);
	}
	uint32_t last = b + 1;
	if (next == SUCC_CMP || next == SUCC_END) { /* falls through */
		fn->blocks[b].succ[0] = last, fn->blocks[b].nsucc = 1;
	} else {
		struct mir_opnd to = mir_block_ref(last);
		add(fn, b, AMD_OP_S_CBRANCH_SCC1, 1, &to);
		fn->blocks[b].succ[0] = last, fn->blocks[b].succ[1] = last, fn->blocks[b].nsucc = 2;
	}
	mir_new_block(fn);
	if (next == SUCC_CMP)
		add(fn, last, AMD_OP_S_CMP_LT_I32, 2, cmp);
	add(fn, last, AMD_OP_S_ENDPGM, 0, NULL);
}

static void run_case(struct totals *t, const char *gpu, enum next next, bool expect_gone)
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
	struct mir_function fn;
	mir_function_init(&fn, &arena, "scc", &target, target.info->default_wave_size);
	build(&fn, next);
	uint32_t before = fn.blocks[0].ninsns;
	mir_remove_dead_code(&fn);
	bool has_shift = false;
	for (uint32_t i = 0; i < fn.blocks[0].ninsns; i++)
		has_shift |= fn.blocks[0].insns[i].op == AMD_OP_S_ASHR_I32;
	bool ok = expect_gone ? !has_shift && fn.blocks[0].ninsns == before - 1
	                      : has_shift && fn.blocks[0].ninsns == before;
	if (!ok) {
		printf("FAIL: %s: case %d: the s_ashr_i32 %s, expected %s\n", gpu, next,
		       has_shift ? "stayed" : "went", expect_gone ? "gone" : "kept");
		t->failures++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const char *const gpus[] = {"gfx90a", "gfx1100"};
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
		run_case(&t, gpus[g], CMP, true);
		run_case(&t, gpus[g], CSELECT, false);
		run_case(&t, gpus[g], ADDC, false);
		run_case(&t, gpus[g], BRANCH_READS, false);
		run_case(&t, gpus[g], RESULT_READ, false);
		run_case(&t, gpus[g], SUCC_CMP, true);
		run_case(&t, gpus[g], SUCC_END, false);
	}
	printf("%u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
