/* mir_pair_lds (src/mir/lds_pair.c), suite 'regalloc': the window in which two LDS reads
 * pair.  Hand-built blocks `a = ds_read_b32 [base]; OTHER; b = ds_read_b32 [base + 32];`
 * with each value then stored to global memory.  A global or scratch store or atomic as
 * OTHER cannot write LDS (the address spaces do not alias), so the reads become one
 * ds_read2_b32 with offsets 0 and 8 (dwords), whose halves the stores read; a ds_write, a
 * flat store (which may reach LDS), s_barrier or an EXEC write between leaves the block as
 * built.  gfx90a and gfx1100. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

enum other {
	GLOBAL_STORE,
	GLOBAL_ATOMIC,
	SCRATCH_STORE,
	DS_WRITE,
	FLAT_STORE,
	BARRIER,
	EXEC_WRITE
};

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops, int32_t offset)
{
	struct mir_insn in = mir_make(op, n, ops);
	in.offset = offset;
	mir_append(fn, b, &in);
}

/* Returns the two read destinations' vregs in *a, *b. */
static void build(struct mir_function *fn, enum other other, uint32_t *a, uint32_t *b)
{
	uint32_t bl = mir_new_block(fn);
	uint32_t base = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	*a = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	*b = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	struct mir_opnd off = {.kind = MIR_OFF};
	struct mir_opnd addr = mir_vgpr(0, 2), data = mir_vgpr(2, 1);
	struct mir_opnd def_base[3] = {mir_vreg(base, 1), mir_vgpr(4, 1), mir_imm(16)};
	add(fn, bl, AMD_OP_V_ADD_U32, 3, def_base, 0);
	struct mir_opnd r1[2] = {mir_vreg(*a, 1), mir_vreg(base, 1)};
	add(fn, bl, AMD_OP_DS_READ_B32, 2, r1, 0);
	struct mir_opnd st[3] = {addr, data, off};
	switch (other) {
	case GLOBAL_STORE:
		add(fn, bl, AMD_OP_GLOBAL_STORE_DWORD, 3, st, 0);
		break;
	case GLOBAL_ATOMIC:
		add(fn, bl, AMD_OP_GLOBAL_ATOMIC_ADD, 3, st, 0);
		break;
	case SCRATCH_STORE: {
		struct mir_opnd sc[3] = {mir_vgpr(0, 1), data, off};
		add(fn, bl, AMD_OP_SCRATCH_STORE_DWORD, 3, sc, 0);
		break;
	}
	case DS_WRITE: {
		struct mir_opnd w[2] = {mir_vgpr(4, 1), data};
		add(fn, bl, AMD_OP_DS_WRITE_B32, 2, w, 0);
		break;
	}
	case FLAT_STORE: {
		struct mir_opnd f[2] = {addr, data};
		add(fn, bl, AMD_OP_FLAT_STORE_DWORD, 2, f, 0);
		break;
	}
	case BARRIER:
		add(fn, bl, AMD_OP_S_BARRIER, 0, NULL, 0);
		break;
	case EXEC_WRITE: {
		unsigned dw = fn->wave_size / 32;
		struct mir_opnd e[2] = {mir_special(AMD_SPEC_EXEC, dw),
		                        mir_special(AMD_SPEC_EXEC, dw)};
		add(fn, bl, dw == 2 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32, 2, e, 0);
		break;
	}
	}
	struct mir_opnd r2[2] = {mir_vreg(*b, 1), mir_vreg(base, 1)};
	add(fn, bl, AMD_OP_DS_READ_B32, 2, r2, 32);
	struct mir_opnd s1[3] = {addr, mir_vreg(*a, 1), off}, s2[3] = {addr, mir_vreg(*b, 1), off};
	add(fn, bl, AMD_OP_GLOBAL_STORE_DWORD, 3, s1, 0);
	add(fn, bl, AMD_OP_GLOBAL_STORE_DWORD, 3, s2, 4);
	add(fn, bl, AMD_OP_S_ENDPGM, 0, NULL, 0);
}

static unsigned count_op(const struct mir_function *fn, unsigned op, const struct mir_insn **at)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < fn->blocks[0].ninsns; i++)
		if (fn->blocks[0].insns[i].op == op) {
			n++;
			*at = &fn->blocks[0].insns[i];
		}
	return n;
}

static void run_case(struct totals *t, const char *gpu, enum other other, bool expect_pair)
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
	mir_function_init(&fn, &arena, "lds", &target, target.info->default_wave_size);
	uint32_t a, b;
	build(&fn, other, &a, &b);
	mir_pair_lds(&fn);
	const struct mir_insn *read2 = NULL, *read = NULL;
	unsigned n2 = count_op(&fn, AMD_OP_DS_READ2_B32, &read2);
	unsigned n1 = count_op(&fn, AMD_OP_DS_READ_B32, &read);
	bool ok;
	if (expect_pair) {
		/* the stores read the two halves of the read2's destination, in order */
		const struct mir_insn *last = &fn.blocks[0].insns[fn.blocks[0].ninsns - 2];
		const struct mir_insn *first = last - 1;
		ok = n2 == 1 && n1 == 0 && read2->offset == 0 && read2->offset1 == 8 &&
		     first->opnds[1].kind == MIR_VREG && last->opnds[1].kind == MIR_VREG &&
		     first->opnds[1].v == read2->opnds[0].v &&
		     last->opnds[1].v == read2->opnds[0].v && first->opnds[1].sub == 0 &&
		     last->opnds[1].sub == 1;
	} else {
		ok = n2 == 0 && n1 == 2;
	}
	if (!ok) {
		printf("FAIL: %s: case %d: %u ds_read2_b32, %u ds_read_b32; expected %s\n", gpu,
		       other, n2, n1, expect_pair ? "one read2 at offsets 0, 8" : "the two reads");
		t->failures++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const char *const gpus[] = {"gfx90a", "gfx1100"};
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
		run_case(&t, gpus[g], GLOBAL_STORE, true);
		run_case(&t, gpus[g], GLOBAL_ATOMIC, true);
		run_case(&t, gpus[g], SCRATCH_STORE, true);
		run_case(&t, gpus[g], DS_WRITE, false);
		run_case(&t, gpus[g], FLAT_STORE, false);
		run_case(&t, gpus[g], BARRIER, false);
		run_case(&t, gpus[g], EXEC_WRITE, false);
	}
	printf("%u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
