/* mir_cse_copies (src/mir/copy_cse.c), suite 'regalloc': VGPR copies of one constant made
 * through different SGPR vregs (the constant put in an SGPR twice, as selection does for each
 * gfx9 v_addc_co_u32 of a 64-bit constant's high half) and of the immediate itself become one
 * copy, on hand-built blocks through the pass alone.  Checked: how many VGPR copies remain and
 * that every reader (v_add_u32 of the copy and an input) names a remaining copy whose source
 * is that constant (the immediate, or an SGPR vreg a COPY of it defines), so each reads the
 * same value.  With an EXEC write between the copies, the later one stays. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

static void fail(struct totals *t, const char *name, const char *what)
{
	printf("FAIL: %s: %s\n", name, what);
	t->failures++;
}

enum { VALUE = 0x9e3779b9u, ROUNDS = 3 };

static void append(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                   const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

/* The constant a vreg holds when a COPY of the block defines it from VALUE (directly or
 * through a COPY from an SGPR vreg that does). */
static bool holds_value(const struct mir_block *bl, uint32_t v, unsigned depth)
{
	for (uint32_t i = 0; i < bl->ninsns && depth < 3; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op != MIR_COPY || in->opnds[0].kind != MIR_VREG || in->opnds[0].v != v)
			continue;
		const struct mir_opnd *s = &in->opnds[1];
		return (s->kind == MIR_IMM && s->v == VALUE) ||
		       (s->kind == MIR_VREG && holds_value(bl, s->v, depth + 1));
	}
	return false;
}

/* Per round: COPY %s, VALUE; COPY %v, %s; v_add_u32 %r, %v, v0 -- then COPY %v, VALUE and its
 * reader; an s_mov_b64 exec before the last round when `exec_between`. */
static void run_case(struct totals *t, const char *name, bool exec_between, unsigned want_copies)
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
	mir_function_init(&fn, &arena, "cse", &target, 64);
	uint32_t b = mir_new_block(&fn);
	for (unsigned r = 0; r <= ROUNDS; r++) {
		if (exec_between && r == ROUNDS) {
			struct mir_opnd mv[2] = {mir_special(AMD_SPEC_EXEC, 2), mir_imm(3)};
			append(&fn, b, AMD_OP_S_MOV_B64, 2, mv);
		}
		uint32_t v = mir_new_vreg(&fn, MIR_VGPR, 1, 1);
		struct mir_opnd src = mir_imm(VALUE);
		if (r < ROUNDS) {
			uint32_t s = mir_new_vreg(&fn, MIR_SGPR, 1, 1);
			struct mir_opnd cs[2] = {mir_vreg(s, 1), mir_imm(VALUE)};
			append(&fn, b, MIR_COPY, 2, cs);
			src = mir_vreg(s, 1);
		}
		struct mir_opnd cv[2] = {mir_vreg(v, 1), src};
		append(&fn, b, MIR_COPY, 2, cv);
		uint32_t res = mir_new_vreg(&fn, MIR_VGPR, 1, 1);
		struct mir_opnd add[3] = {mir_vreg(res, 1), mir_vreg(v, 1), mir_vgpr(0, 1)};
		append(&fn, b, AMD_OP_V_ADD_U32, 3, add);
	}
	struct mir_opnd none[1] = {{0}};
	append(&fn, b, AMD_OP_S_ENDPGM, 0, none);
	mir_cse_copies(&fn);
	t->checks++;
	const struct mir_block *bl = &fn.blocks[0];
	unsigned copies = 0, readers = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op == MIR_COPY && fn.vregs[in->opnds[0].v].file == MIR_VGPR)
			copies++;
		if (in->op == AMD_OP_V_ADD_U32) {
			readers++;
			if (!holds_value(bl, in->opnds[1].v, 0))
				fail(t, name,
				     "a reader reads a register no copy of the constant defines");
		}
	}
	if (readers != ROUNDS + 1)
		fail(t, name, "a reader was lost");
	if (copies != want_copies) {
		char what[80];
		snprintf(what, sizeof what, "%u VGPR copies remain, want %u", copies, want_copies);
		fail(t, name, what);
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	run_case(&t, "one-copy", false, 1);
	run_case(&t, "exec-between", true, 2);
	printf("copy_cse: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
