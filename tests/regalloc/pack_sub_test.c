/* mir_pack_f32's subtractions (src/mir/pack_f32.c), suite 'regalloc': hand-built blocks of two
 * independent f32 subtractions (v_sub_f32, v_subrev_f32, or one beside a v_add_f32) and a
 * reader of both results go through the pass alone on gfx90a.  Checked: the pair became one
 * v_pk_add_f32, and a one-lane evaluator of the ISA's definitions (v_sub_f32: s0 - s1,
 * v_subrev_f32: s1 - s0, v_pk_add_f32: per half, the sources' dwords picked by op_sel /
 * op_sel_hi and negated by neg / neg_hi, then added) gives the reader the same value as the
 * block as built, for sample inputs (signed zeros, equal operands, infinities, rounding).
 * On gfx1100 (no v_pk_add_f32) the block is unchanged. */
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

enum { MAXV = 64 };

/* Values per (vreg, dword), the inputs in physical v0..v3. */
struct env {
	float v[MAXV][2];
	float in[4];
};

static float read_opnd(const struct env *e, const struct mir_opnd *o, unsigned dword)
{
	if (o->kind == MIR_VGPR)
		return e->in[o->v];
	return e->v[o->v][o->sub + dword];
}

static float pk_half(const struct env *e, const struct mir_insn *in, unsigned k, bool hi)
{
	unsigned sel = hi ? (in->op_sel_hi_set ? in->op_sel_hi >> k & 1 : 1) : in->op_sel >> k & 1;
	float x = read_opnd(e, &in->opnds[1 + k], sel);
	unsigned neg = hi ? in->neg_hi : in->neg;
	return (neg >> k & 1) ? -x : x;
}

/* Runs the block; false on a row the evaluator does not know. */
static bool evaluate(const struct mir_block *bl, struct env *e)
{
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		const struct mir_opnd *d = &in->opnds[0];
		switch (in->op) {
		case MIR_COPY:
			e->v[d->v][d->sub] = read_opnd(e, &in->opnds[1], 0);
			break;
		case AMD_OP_V_SUB_F32:
			e->v[d->v][d->sub] =
			        read_opnd(e, &in->opnds[1], 0) - read_opnd(e, &in->opnds[2], 0);
			break;
		case AMD_OP_V_SUBREV_F32:
			e->v[d->v][d->sub] =
			        read_opnd(e, &in->opnds[2], 0) - read_opnd(e, &in->opnds[1], 0);
			break;
		case AMD_OP_V_ADD_F32:
			e->v[d->v][d->sub] =
			        read_opnd(e, &in->opnds[1], 0) + read_opnd(e, &in->opnds[2], 0);
			break;
		case AMD_OP_V_MUL_F32:
			e->v[d->v][d->sub] =
			        read_opnd(e, &in->opnds[1], 0) * read_opnd(e, &in->opnds[2], 0);
			break;
		case AMD_OP_V_PK_ADD_F32:
			e->v[d->v][d->sub] = pk_half(e, in, 0, false) + pk_half(e, in, 1, false);
			e->v[d->v][d->sub + 1] = pk_half(e, in, 0, true) + pk_half(e, in, 1, true);
			break;
		case AMD_OP_S_ENDPGM:
			break;
		default:
			return false;
		}
	}
	return true;
}

/* a0..a3 = COPY v0..v3; d0 = op0 a0, a1; d1 = op1 a2, a3; r = d0 * d1. */
static void run_case(struct totals *t, const char *name, const char *gpu, unsigned op0,
                     unsigned op1, bool expect_packed)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		fail(t, name, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "pack", &target, 64);
	uint32_t b = mir_new_block(&fn), a[4], d0, d1, r;
	for (unsigned k = 0; k < 4; k++) {
		a[k] = mir_new_vreg(&fn, MIR_VGPR, 1, 1);
		struct mir_opnd ops[2] = {mir_vreg(a[k], 1), mir_vgpr(k, 1)};
		struct mir_insn in = mir_make(MIR_COPY, 2, ops);
		mir_append(&fn, b, &in);
	}
	d0 = mir_new_vreg(&fn, MIR_VGPR, 1, 1), d1 = mir_new_vreg(&fn, MIR_VGPR, 1, 1);
	r = mir_new_vreg(&fn, MIR_VGPR, 1, 1);
	struct mir_opnd s0[3] = {mir_vreg(d0, 1), mir_vreg(a[0], 1), mir_vreg(a[1], 1)};
	struct mir_opnd s1[3] = {mir_vreg(d1, 1), mir_vreg(a[2], 1), mir_vreg(a[3], 1)};
	struct mir_opnd m[3] = {mir_vreg(r, 1), mir_vreg(d0, 1), mir_vreg(d1, 1)};
	struct mir_insn i0 = mir_make(op0, 3, s0), i1 = mir_make(op1, 3, s1);
	struct mir_insn im = mir_make(AMD_OP_V_MUL_F32, 3, m),
	                end = mir_make(AMD_OP_S_ENDPGM, 0, m);
	mir_append(&fn, b, &i0);
	mir_append(&fn, b, &i1);
	mir_append(&fn, b, &im);
	mir_append(&fn, b, &end);
	struct mir_block *bl = &fn.blocks[b];
	struct mir_insn saved[16];
	uint32_t n0 = bl->ninsns;
	memcpy(saved, bl->insns, n0 * sizeof *saved);
	const struct mir_block before = {.insns = saved, .ninsns = n0};
	unsigned packed = mir_pack_f32(&fn);
	t->checks++;
	if (!expect_packed) {
		if (packed || bl->ninsns != n0 || memcmp(bl->insns, saved, n0 * sizeof *saved))
			fail(t, name, "changed a block it must leave alone");
		pa_arena_free(&arena);
		return;
	}
	if (packed != 1 || bl->ninsns != n0 - 1 || bl->insns[4].op != AMD_OP_V_PK_ADD_F32) {
		fail(t, name, "the subtractions were not packed into v_pk_add_f32");
		pa_arena_free(&arena);
		return;
	}
	static const float samples[][4] = {
	        {1.5f, 0.25f, -3.0f, 7.0f},
	        {0.0f, 0.0f, -0.0f, 0.0f},
	        {-0.0f, 0.0f, 0.0f, -0.0f},
	        {2.0f, 2.0f, -5.0f, -5.0f},
	        {1e30f, -1e30f, 1.0f, 3e-8f},
	        {1.0f, 1e-8f, 3.0f, 1.0f},
	        {1.0f / 0.0f, 1.0f, 2.0f, -1.0f / 0.0f},
	};
	for (unsigned s = 0; s < sizeof samples / sizeof samples[0]; s++) {
		struct env want, got;
		memset(&want, 0, sizeof want);
		memcpy(want.in, samples[s], sizeof want.in);
		got = want;
		if (fn.nvregs > MAXV || !evaluate(&before, &want) || !evaluate(bl, &got)) {
			fail(t, name, "evaluator: unknown row or too many vregs");
			break;
		}
		uint32_t wb, gb;
		memcpy(&wb, &want.v[r][0], 4);
		memcpy(&gb, &got.v[r][0], 4);
		if (wb != gb) {
			char what[100];
			snprintf(what, sizeof what, "sample %u: %#x, want %#x", s, gb, wb);
			fail(t, name, what);
			break;
		}
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	run_case(&t, "sub-sub", "gfx90a", AMD_OP_V_SUB_F32, AMD_OP_V_SUB_F32, true);
	run_case(&t, "sub-subrev", "gfx90a", AMD_OP_V_SUB_F32, AMD_OP_V_SUBREV_F32, true);
	run_case(&t, "add-sub", "gfx90a", AMD_OP_V_ADD_F32, AMD_OP_V_SUB_F32, true);
	run_case(&t, "subrev-add", "gfx942", AMD_OP_V_SUBREV_F32, AMD_OP_V_ADD_F32, true);
	run_case(&t, "gfx1100", "gfx1100", AMD_OP_V_SUB_F32, AMD_OP_V_SUB_F32, false);
	printf("pack_sub: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
