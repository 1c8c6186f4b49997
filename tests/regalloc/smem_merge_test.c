/* mir_merge_scalar_loads (src/mir/smem_merge.c), suite 'regalloc': hand-built blocks of
 * scalar loads through one base, each destination read by an s_add_u32 per dword, through
 * the pass alone.  Checked: which loads remain (opcode, offset) and that every reader still
 * reads the same bytes: its register is now the dword (offset / 4 - wide load's offset / 4)
 * of a tuple the wide load writes.  Shapes:
 *   kernarg: x2 @0, x2 @8, dword @16, dword @20, dword @28 -> x4 @0, x2 @16, dword @28;
 *   eight dwords @32..@60 in reverse order -> one x8 @32;
 *   a global store between x2 @0 and x2 @8 -> unchanged (the window closes);
 *   x2 @4 beside dwords @0, @12 -> unchanged (x2 at an odd dword: its pair would be odd);
 *   two loads of dword @0 and one of @4 -> the first stays, the second and @4 one x2 @0
 *   (each load goes into one wide load at most). */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

struct load {
	uint32_t offset;
	unsigned dwords;
};

enum { MAX_LOADS = 8 };

struct built {
	uint32_t dst[MAX_LOADS];
	struct load loads[MAX_LOADS];
	unsigned n;
};

static void fail(struct totals *t, const char *name, const char *what)
{
	printf("FAIL: %s: %s\n", name, what);
	t->failures++;
}

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

/* base = COPY s[0:1]; the loads (a store after the first when `store`); readers; end. */
static void build(struct mir_function *fn, struct built *bt, const struct load *loads, unsigned n,
                  bool store)
{
	uint32_t b = mir_new_block(fn), base = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd copy[2] = {mir_vreg(base, 2), mir_sgpr(0, 2)};
	add(fn, b, MIR_COPY, 2, copy);
	bt->n = n;
	for (unsigned i = 0; i < n; i++) {
		unsigned w = loads[i].dwords;
		bt->loads[i] = loads[i];
		bt->dst[i] = mir_new_vreg(fn, MIR_SGPR, w, w == 2 ? 2 : 1);
		struct mir_opnd ld[3] = {mir_vreg(bt->dst[i], w), mir_vreg(base, 2),
		                         mir_imm(loads[i].offset)};
		add(fn, b, w == 2 ? AMD_OP_S_LOAD_DWORDX2 : AMD_OP_S_LOAD_DWORD, 3, ld);
		if (store && i == 0) {
			struct mir_opnd st[3] = {mir_vgpr(0, 2), mir_vgpr(2, 1), {.kind = MIR_OFF}};
			add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, st);
		}
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < loads[i].dwords; k++) {
			struct mir_opnd rd[3] = {mir_sgpr(20, 1),
			                         (struct mir_opnd){.kind = MIR_VREG,
			                                           .v = bt->dst[i],
			                                           .sub = (uint8_t)k,
			                                           .width = 1},
			                         mir_imm(1)};
			add(fn, b, AMD_OP_S_ADD_U32, 3, rd);
		}
	struct mir_opnd none[1] = {{0}};
	add(fn, b, AMD_OP_S_ENDPGM, 0, none);
}

static unsigned width_of(unsigned op)
{
	return op == AMD_OP_S_LOAD_DWORD     ? 1
	       : op == AMD_OP_S_LOAD_DWORDX2 ? 2
	       : op == AMD_OP_S_LOAD_DWORDX4 ? 4
	       : op == AMD_OP_S_LOAD_DWORDX8 ? 8
	                                     : 0;
}

/* expect: the loads that must remain, in block order ({offset, dwords}). */
static void run_case(struct totals *t, const char *name, const struct load *loads, unsigned n,
                     bool store, const struct load *expect, unsigned nexpect)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse("gfx90a", &target, err, sizeof err)) {
		fail(t, name, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "smem", &target, 64);
	struct built bt;
	build(&fn, &bt, loads, n, store);
	mir_merge_scalar_loads(&fn);
	t->checks++;
	const struct mir_block *bl = &fn.blocks[0];
	unsigned seen = 0;
	uint32_t tuple_offset[4096] = {0};
	char what[200];
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		unsigned w = width_of(in->op);
		if (!w)
			continue;
		if (seen >= nexpect || in->opnds[2].v != expect[seen].offset ||
		    w != expect[seen].dwords) {
			snprintf(what, sizeof what, "load %u: %u dwords at %u, not as expected",
			         seen, w, in->opnds[2].v);
			fail(t, name, what);
		}
		if (in->opnds[0].v < 4096)
			tuple_offset[in->opnds[0].v] = in->opnds[2].v;
		seen++;
	}
	if (seen != nexpect) {
		snprintf(what, sizeof what, "%u loads remain, expected %u", seen, nexpect);
		fail(t, name, what);
	}
	/* the readers, in build order: load i's dword k */
	unsigned r = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op != AMD_OP_S_ADD_U32)
			continue;
		unsigned li = 0, k = r;
		while (li < bt.n && k >= bt.loads[li].dwords)
			k -= bt.loads[li++].dwords;
		const struct mir_opnd *o = &in->opnds[1];
		uint32_t bytes = o->v < 4096 ? tuple_offset[o->v] + 4u * o->sub : 0;
		if (li >= bt.n || bytes != bt.loads[li].offset + 4 * k) {
			snprintf(what, sizeof what, "reader %u reads byte %u, expected %u", r,
			         bytes, li < bt.n ? bt.loads[li].offset + 4 * k : 0);
			fail(t, name, what);
		}
		r++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const struct load kernarg[] = {{0, 2}, {8, 2}, {16, 1}, {20, 1}, {28, 1}};
	static const struct load kernarg_out[] = {{0, 4}, {16, 2}, {28, 1}};
	run_case(&t, "kernarg", kernarg, 5, false, kernarg_out, 3);
	static const struct load eight[] = {{60, 1}, {56, 1}, {52, 1}, {48, 1},
	                                    {44, 1}, {40, 1}, {36, 1}, {32, 1}};
	static const struct load eight_out[] = {{32, 8}};
	run_case(&t, "eight", eight, 8, false, eight_out, 1);
	static const struct load pair[] = {{0, 2}, {8, 2}};
	run_case(&t, "store-between", pair, 2, true, pair, 2);
	static const struct load odd[] = {{0, 1}, {4, 2}, {12, 1}};
	run_case(&t, "odd-pair", odd, 3, false, odd, 3);
	static const struct load twice[] = {{0, 1}, {0, 1}, {4, 1}};
	static const struct load twice_out[] = {{0, 1}, {0, 2}};
	run_case(&t, "read-twice", twice, 3, false, twice_out, 2);
	printf("smem_merge: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
