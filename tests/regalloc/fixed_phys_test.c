/* Fixed physical registers written in place survive the passes after selection (suite
 * 'regalloc'): texture selection (sel_tex.c) edits the T# and S# where the hardware reads them,
 * s[88:95] and s[84:87], with `s_and_b32 s91, s91, imm` then `s_or_b32 s91, s91, %v` (a report
 * said the s_and went missing).  A hand-built kernel with such chains, beside enough SGPR
 * virtual registers to tempt the allocator into s84..s95, goes through compile.c's order --
 * mir_cse_copies, mir_widen_memory, mir_pair_lds, mir_remove_dead_code,
 * mir_coalesce_phi_copies, mir_coalesce_dying_sources, sched_list (virtual registers), ra_run,
 * sched_list (physical) -- on the five targets; after each pass, every read and write of
 * s84..s95 must be there and see the same version of the register (no write dropped or moved
 * across a read or another write, no virtual register allocated there; reads between two
 * writes may trade places), and the s_or must still read what the s_lshl wrote.
 * The oracle is the program's own text: the order is the one selection gave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regalloc/regalloc.h"
#include "sched/sched.h"

enum { FIXED_LO = 84, FIXED_HI = 95, PRESSURE = 48, MAX_TRACE = 512 };

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

/* The kernel: the T#/S# edits of sel_tex.c's one_level in place, SGPR pressure around them,
 * and readers of the edited registers at the end. */
static void build_kernel(struct mir_function *fn)
{
	struct mir_opnd none = {0};
	uint32_t b = mir_new_block(fn);
	struct mir_opnd s91 = mir_sgpr(91, 1), s84 = mir_sgpr(84, 1);
	add(fn, b, AMD_OP_S_LOAD_DWORDX8, 3, mir_sgpr(88, 8), mir_sgpr(0, 2), mir_imm(0));
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, mir_sgpr(84, 4), mir_sgpr(0, 2), mir_imm(32));
	/* readers of the loaded values with nothing after them (the lowest scheduling priority)
	 * ahead of the in-place writes (on longer paths): only the write-after-read order keeps
	 * them first */
	add(fn, b, AMD_OP_V_MOV_B32, 2, mir_vgpr(3, 1), s91, none);
	add(fn, b, AMD_OP_V_MOV_B32, 2, mir_vgpr(4, 1), s84, none);
	uint32_t base = mir_new_vreg(fn, MIR_SGPR, 1, 1), last = mir_new_vreg(fn, MIR_SGPR, 1, 1);
	add(fn, b, AMD_OP_S_BFE_U32, 3, mir_vreg(base, 1), s91, mir_imm(12 | 4 << 16));
	add(fn, b, AMD_OP_S_LSHL_B32, 3, mir_vreg(last, 1), mir_vreg(base, 1), mir_imm(16));
	uint32_t t[PRESSURE];
	for (unsigned k = 0; k < PRESSURE; k++) { /* all live until the sum below */
		t[k] = mir_new_vreg(fn, MIR_SGPR, 1, 1);
		add(fn, b, AMD_OP_S_ADD_U32, 3, mir_vreg(t[k], 1), mir_vreg(last, 1),
		    mir_imm(k + 1));
	}
	add(fn, b, AMD_OP_S_AND_B32, 3, s91, s91, mir_imm(~(15u << 16)));
	add(fn, b, AMD_OP_S_OR_B32, 3, s91, s91, mir_vreg(last, 1));
	add(fn, b, AMD_OP_S_AND_B32, 3, s84, s84, mir_imm(~(7u << 9)));
	add(fn, b, AMD_OP_S_OR_B32, 3, s84, s84, mir_vreg(t[0], 1));
	uint32_t acc = t[0];
	for (unsigned k = 1; k < PRESSURE; k++) {
		uint32_t n = mir_new_vreg(fn, MIR_SGPR, 1, 1);
		add(fn, b, AMD_OP_S_ADD_U32, 3, mir_vreg(n, 1), mir_vreg(acc, 1),
		    mir_vreg(t[k], 1));
		acc = n;
	}
	/* readers: physical destinations, so nothing is dead */
	add(fn, b, AMD_OP_S_ADD_U32, 3, mir_sgpr(10, 1), mir_vreg(acc, 1), s91);
	add(fn, b, AMD_OP_V_MOV_B32, 2, mir_vgpr(1, 1), s84, none);
	add(fn, b, AMD_OP_V_MOV_B32, 2, mir_vgpr(2, 1), s91, none);
	add(fn, b, AMD_OP_S_ENDPGM, 0, none, none, none);
}

static bool names_fixed(const struct mir_opnd *o)
{
	unsigned w = o->width ? o->width : 1;
	return o->kind == MIR_SGPR && o->v <= FIXED_HI && o->v + w > FIXED_LO;
}

/* An instruction as a number: its opcode, fixed operands and immediates (not the registers
 * allocation chooses). */
static uint64_t signature(const struct mir_insn *in)
{
	uint64_t sig = in->op;
	for (unsigned k = 0; k < in->nopnds; k++) {
		const struct mir_opnd *o = &in->opnds[k];
		if (names_fixed(o) || o->kind == MIR_IMM)
			sig = sig * 131 + (uint64_t)o->kind * 7 + o->v * 17 + o->width;
	}
	return sig;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What the program does to s84..s95, independent of the order of reads between two writes:
 * one word per (register, read or write) naming the instruction and the register's version
 * it reads or makes (writes so far), sorted.  A write dropped or moved across a read or
 * another write of the register, or a value allocated into one, changes it. */
static unsigned trace(const struct mir_function *fn, uint64_t *out)
{
	unsigned n = 0, version[FIXED_HI + 1] = {0};
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			uint64_t sig = signature(in);
			for (unsigned pass = 0; pass < 2; pass++) /* reads, then writes */
				for (unsigned k = 0; k < in->nopnds; k++) {
					const struct mir_opnd *o = &in->opnds[k];
					if (o->kind != MIR_SGPR ||
					    mir_opnd_is_def(in, k) != (pass == 1))
						continue;
					unsigned w = o->width ? o->width : 1;
					for (unsigned r = o->v; r < o->v + w && r <= FIXED_HI;
					     r++) {
						if (r < FIXED_LO || n >= MAX_TRACE)
							continue;
						version[r] += pass;
						out[n++] = sig * 1000003u + r * 4099u +
						           version[r] * 2u + pass;
					}
				}
		}
	qsort(out, n, sizeof *out, cmp_u64);
	return n;
}

/* Whether the s_or into `reg` still reads the register the s_lshl before it wrote (after
 * allocation: physical; before: the same vreg), i.e. the edit's value reaches the T#. */
static bool or_reads_shift(const struct mir_function *fn, unsigned reg)
{
	const struct mir_insn *shl = NULL;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			if (in->op == AMD_OP_S_LSHL_B32)
				shl = in;
			if (in->op == AMD_OP_S_OR_B32 && in->opnds[0].kind == MIR_SGPR &&
			    in->opnds[0].v == reg)
				return shl && in->opnds[2].kind == shl->opnds[0].kind &&
				       in->opnds[2].v == shl->opnds[0].v;
		}
	return false;
}

static void check_target(struct totals *t, const char *gpu)
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
	mir_function_init(&fn, &arena, "fixed", &target, target.info->default_wave_size);
	build_kernel(&fn);
	struct pa_diag d;
	pa_diag_init(&d, stdout);
	t->checks++;
	if (!mir_verify(&fn, false, &d)) {
		printf("FAIL: %s: the hand-built MIR does not verify\n", gpu);
		t->failures++;
		pa_arena_free(&arena);
		return;
	}
	uint64_t want[MAX_TRACE], got[MAX_TRACE];
	unsigned nwant = trace(&fn, want);
	static const char *const stages[] = {"mir_cse_copies",
	                                     "mir_widen_memory",
	                                     "mir_pair_lds",
	                                     "mir_remove_dead_code",
	                                     "mir_coalesce_phi_copies",
	                                     "mir_coalesce_dying_sources",
	                                     "sched_list (virtual)",
	                                     "ra_run",
	                                     "sched_list (physical)"};
	for (unsigned s = 0; s < sizeof stages / sizeof *stages; s++) {
		struct ra_stats stats;
		bool ok = true;
		switch (s) {
		case 0:
			mir_cse_copies(&fn);
			break;
		case 1:
			mir_widen_memory(&fn);
			break;
		case 2:
			mir_pair_lds(&fn);
			break;
		case 3:
			mir_remove_dead_code(&fn);
			break;
		case 4:
			mir_coalesce_phi_copies(&fn);
			break;
		case 5:
			mir_coalesce_dying_sources(&fn);
			break;
		case 6:
			sched_list(&fn, true);
			break;
		case 7:
			ok = ra_run(&fn, &stats, &d);
			break;
		default:
			sched_list(&fn, false);
			break;
		}
		t->checks++;
		if (!ok) {
			printf("FAIL: %s: %s failed\n", gpu, stages[s]);
			t->failures++;
			break;
		}
		unsigned ngot = trace(&fn, got);
		t->checks++;
		if (ngot != nwant || memcmp(got, want, nwant * sizeof *want)) {
			printf("FAIL: %s: after %s the instructions naming s%u..s%u differ (%u, "
			       "want "
			       "%u)\n",
			       gpu, stages[s], FIXED_LO, FIXED_HI, ngot, nwant);
			mir_print(stdout, &fn);
			t->failures++;
			break;
		}
		t->checks++;
		if (s >= 7 && (!or_reads_shift(&fn, 91))) {
			printf("FAIL: %s: after %s s_or_b32 s91 no longer reads the shifted "
			       "field\n",
			       gpu, stages[s]);
			mir_print(stdout, &fn);
			t->failures++;
			break;
		}
	}
	pa_arena_free(&arena);
}

int main(void)
{
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
	struct totals t = {0, 0};
	for (unsigned g = 0; g < 5; g++)
		check_target(&t, gpus[g]);
	printf("%u checks, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
