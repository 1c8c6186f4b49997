/* mir_fuse_add3 (src/mir/add3.c), suite 'regalloc': hand-built blocks `t = x + y; [other];
 * d = t + z` go through the pass alone, on all five targets.  A one-lane evaluator of the
 * ISA's definitions (v_add_u32: a + b mod 2^32, v_add3_u32: a + b + c mod 2^32, COPY and
 * s_mov_b32: the value) runs the block before and after on sample inputs: d must be the same
 * everywhere.  Where it must fuse: the block holds one v_add3_u32 and no v_add_u32, the
 * instruction fits the target's constant bus (GFX9's literal through an SGPR COPY, GFX10+'s
 * in the instruction).  Where it must not (t read twice, x rewritten in between, EXEC written
 * in between, two different SGPRs on GFX9's one-value bus, t defined in another block): the
 * function is unchanged. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"
#include "mir_same.h"

struct totals {
	unsigned checks, failures;
};

static void fail(struct totals *t, const char *gpu, const char *what)
{
	printf("FAIL: %s: %s\n", gpu, what);
	t->failures++;
}

enum shape {
	LITERAL,      /* z a literal */
	INLINE,       /* z an inline constant */
	SGPR_Y,       /* y an SGPR vreg, z a VGPR */
	TWO_SGPRS,    /* y and z two different SGPR vregs */
	READ_TWICE,   /* t also read by another instruction */
	X_REWRITTEN,  /* x written between the adds */
	EXEC_WRITTEN, /* EXEC written between the adds */
	OTHER_BLOCK,  /* the second add in the next block */
	NSHAPES
};

enum { X = 0, Y = 1, Z = 2, T = 3, D = 4, S1 = 5, S2 = 6, W = 7, NVREGS = 8, K = 0x1234567u };

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                            const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

static void build(struct mir_function *fn, enum shape shape)
{
	uint32_t b = mir_new_block(fn);
	for (unsigned v = 0; v < NVREGS; v++)
		mir_new_vreg(fn, v == S1 || v == S2 ? MIR_SGPR : MIR_VGPR, 1, 1);
	struct mir_opnd y =
	        shape == SGPR_Y || shape == TWO_SGPRS ? mir_vreg(S1, 1) : mir_vreg(Y, 1);
	struct mir_opnd z = mir_vreg(Z, 1);
	if (shape == LITERAL)
		z = mir_imm(K);
	else if (shape == INLINE)
		z = mir_imm(7);
	else if (shape == TWO_SGPRS)
		z = mir_vreg(S2, 1);
	struct mir_opnd first[3] = {mir_vreg(T, 1), mir_vreg(X, 1), y};
	add(fn, b, AMD_OP_V_ADD_U32, 3, first);
	if (shape == READ_TWICE) {
		struct mir_opnd o[3] = {mir_vreg(W, 1), mir_vreg(T, 1), mir_vreg(X, 1)};
		add(fn, b, AMD_OP_V_ADD_U32, 3, o);
	} else if (shape == X_REWRITTEN) {
		struct mir_opnd o[3] = {mir_vreg(X, 1), mir_vreg(X, 1), mir_imm(1)};
		add(fn, b, AMD_OP_V_ADD_U32, 3, o);
	} else if (shape == EXEC_WRITTEN) {
		unsigned dw = fn->wave_size / 32;
		struct mir_opnd o[2] = {mir_special(AMD_SPEC_EXEC, dw),
		                        mir_special(AMD_SPEC_EXEC, dw)};
		add(fn, b, dw == 2 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32, 2, o);
	}
	if (shape == OTHER_BLOCK) {
		uint32_t next = mir_new_block(fn);
		fn->blocks[b].succ[0] = next; /* falls through */
		fn->blocks[b].nsucc = 1;
		b = next;
	}
	struct mir_opnd second[3] = {mir_vreg(D, 1), z, mir_vreg(T, 1)};
	add(fn, b, AMD_OP_V_ADD_U32, 3, second);
	struct mir_opnd none[1] = {{0}};
	add(fn, b, AMD_OP_S_ENDPGM, 0, none);
}

/* One lane: vreg values in regs (grown for vregs the pass made); false on an instruction the
 * evaluator does not know. */
static bool value_of(const struct mir_opnd *o, const uint32_t *regs, uint32_t *out)
{
	if (o->kind == MIR_IMM)
		*out = o->v;
	else if (o->kind == MIR_VREG)
		*out = regs[o->v];
	else
		return false;
	return true;
}

static bool evaluate(const struct mir_function *fn, uint32_t *regs)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			uint32_t v[3] = {0, 0, 0};
			if (in->op == AMD_OP_S_ENDPGM || in->op == AMD_OP_S_MOV_B64 ||
			    in->op == AMD_OP_S_MOV_B32)
				continue; /* (the EXEC copy: every lane stays on) */
			for (unsigned k = 1; k < in->nopnds; k++)
				if (!value_of(&in->opnds[k], regs, &v[k - 1]))
					return false;
			uint32_t r;
			if (in->op == AMD_OP_V_ADD_U32)
				r = v[0] + v[1];
			else if (in->op == AMD_OP_V_ADD3_U32)
				r = v[0] + v[1] + v[2];
			else if (in->op == MIR_COPY)
				r = v[0];
			else
				return false;
			if (in->opnds[0].kind != MIR_VREG)
				return false;
			regs[in->opnds[0].v] = r;
		}
	return true;
}

static unsigned count_op(const struct mir_function *fn, unsigned op)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			n += fn->blocks[b].insns[i].op == op;
	return n;
}

/* The v_add3_u32's scalar sources (SGPR vregs and literals, each counted once). */
static unsigned bus_reads(const struct mir_function *fn, const struct mir_insn *in, bool *literal)
{
	unsigned n = 0;
	*literal = false;
	for (unsigned k = 1; k < in->nopnds; k++) {
		const struct mir_opnd *o = &in->opnds[k];
		bool dup = false;
		for (unsigned j = 1; j < k; j++)
			dup |= in->opnds[j].kind == o->kind && in->opnds[j].v == o->v;
		if (o->kind == MIR_IMM && amd_inline_code(AMD_DT_B32, o->v) < 0)
			*literal = true, n += !dup;
		else if (o->kind == MIR_VREG && fn->vregs[o->v].file == MIR_SGPR)
			n += !dup;
	}
	return n;
}

static void check_fused(struct totals *t, const char *gpu, const struct mir_function *fn,
                        const struct mir_function *ref, enum shape shape)
{
	char what[200];
	const struct mir_insn *add3 = NULL;
	for (uint32_t i = 0; i < fn->blocks[0].ninsns; i++)
		if (fn->blocks[0].insns[i].op == AMD_OP_V_ADD3_U32)
			add3 = &fn->blocks[0].insns[i];
	if (!add3 || count_op(fn, AMD_OP_V_ADD_U32) != 0) {
		snprintf(what, sizeof what, "shape %d: not one v_add3_u32 without v_add_u32",
		         shape);
		fail(t, gpu, what);
		return;
	}
	bool literal;
	unsigned bus = bus_reads(fn, add3, &literal);
	if (bus > amd_const_bus_limit(fn->target, &amd_isa_rows[AMD_OP_V_ADD3_U32]) ||
	    (literal && !fn->target->info->has_vop3_literal)) {
		snprintf(what, sizeof what, "shape %d: v_add3_u32 reads %u scalars%s", shape, bus,
		         literal ? " with a literal" : "");
		fail(t, gpu, what);
	}
	static const uint32_t samples[][4] = {
	        {0, 0, 0, 0},
	        {1, 2, 3, 4},
	        {0xffffffffu, 1, 0x80000000u, 0x7fffffffu},
	        {0xdeadbeefu, 0x12345678u, 0xfedcba98u, 0x0f0f0f0fu},
	};
	for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
		uint32_t before[NVREGS + 8] = {0}, after[NVREGS + 8] = {0};
		before[X] = after[X] = samples[s][0], before[Y] = after[Y] = samples[s][1];
		before[Z] = after[Z] = samples[s][2], before[S1] = after[S1] = samples[s][3];
		before[S2] = after[S2] = samples[s][2] ^ 0x5555u;
		if (fn->nvregs > NVREGS + 8 || !evaluate(ref, before) || !evaluate(fn, after) ||
		    before[D] != after[D]) {
			snprintf(what, sizeof what,
			         "shape %d sample %zu: d = %#x, the original gives %#x", shape, s,
			         after[D], before[D]);
			fail(t, gpu, what);
			return;
		}
	}
}

static void run_case(struct totals *t, const char *gpu, enum shape shape, bool expect_fuse)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		fail(t, gpu, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "add3", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	build(&fn, shape);
	build(&ref, shape);
	unsigned n = mir_fuse_add3(&fn);
	t->checks++;
	char what[200];
	if (expect_fuse && n != 1) {
		snprintf(what, sizeof what, "shape %d: %u fused, expected 1", shape, n);
		fail(t, gpu, what);
	} else if (expect_fuse) {
		check_fused(t, gpu, &fn, &ref, shape);
	} else if (n != 0 || !mir_same_as_built(&fn, &ref)) {
		snprintf(what, sizeof what, "shape %d: changed, expected untouched", shape);
		fail(t, gpu, what);
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
		bool gfx9 = strncmp(gpus[g], "gfx9", 4) == 0;
		run_case(&t, gpus[g], LITERAL, true);
		run_case(&t, gpus[g], INLINE, true);
		run_case(&t, gpus[g], SGPR_Y, true);
		run_case(&t, gpus[g], TWO_SGPRS, !gfx9); /* GFX10+: two scalars on the bus */
		run_case(&t, gpus[g], READ_TWICE, false);
		run_case(&t, gpus[g], X_REWRITTEN, false);
		run_case(&t, gpus[g], EXEC_WRITTEN, false);
		run_case(&t, gpus[g], OTHER_BLOCK, false);
	}
	printf("%u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
