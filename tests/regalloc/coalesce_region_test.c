/* mir_coalesce_lane_regions (src/mir/coalesce_region.c), suite 'regalloc': a hand-built
 * remainder-loop region through the pass alone (gfx90a, wave64):
 *   bb0: x = COPY v0; A = COPY x; m = COPY s[20:21]; s[10:11] = s_and_saveexec m; execz -> bb4
 *   bb1: B = COPY x; s[12:13] = s_mov exec
 *   bb2: B = v_add 0x80, B; c = v_cmp_gt 0x200, B; exec = s_and exec, c; execnz -> bb2
 *   bb3: exec = s_mov s[12:13]; A = COPY B
 *   bb4: exec = s_mov s[10:11]; R = v_add A, 1; s_endpgm
 * B lives only in bb1..bb3, which run on the lanes L of bb0's and-saveexec; EXEC is exactly L
 * again at `A = COPY B`.  Checked: B is renamed to A (the loop's add writes A), the end copy and
 * the start copy (A already holds x on L's lanes) are gone, nothing else changed.  Variants
 * that must stay as built: A read inside the region, EXEC restored from the outer save (a
 * superset of L) before the end copy, the end copy before the restore, B read after the end
 * copy, a branch from outside into the loop, a v_writelane_b32 (writes a lane whatever EXEC
 * says) into B. */
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

enum variant {
	GOOD,
	A_READ_INSIDE,
	OUTER_RESTORE,
	COPY_BEFORE_RESTORE,
	B_READ_AFTER,
	BRANCH_INTO_LOOP,
	WRITELANE,
	NVARIANTS
};

struct regs {
	uint32_t x, a, b, m, c, r, t;
};

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

static void link(struct mir_function *fn, uint32_t b, uint32_t s0, int s1)
{
	fn->blocks[b].succ[0] = s0;
	fn->blocks[b].nsucc = 1;
	if (s1 >= 0)
		fn->blocks[b].succ[1] = (uint32_t)s1, fn->blocks[b].nsucc = 2;
}

static void build(struct mir_function *fn, enum variant v, struct regs *r)
{
	uint32_t bb[5];
	for (unsigned k = 0; k < 5; k++)
		bb[k] = mir_new_block(fn);
	r->x = mir_new_vreg(fn, MIR_VGPR, 1, 1), r->a = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	r->b = mir_new_vreg(fn, MIR_VGPR, 1, 1), r->r = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	r->t = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	r->m = mir_new_vreg(fn, MIR_SGPR, 2, 2), r->c = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd exec = mir_special(AMD_SPEC_EXEC, 2), s10 = mir_sgpr(10, 2),
	                s12 = mir_sgpr(12, 2);
	/* bb0 */
	add(fn, bb[0], MIR_COPY, 2, (struct mir_opnd[]){mir_vreg(r->x, 1), mir_vgpr(0, 1)});
	add(fn, bb[0], MIR_COPY, 2, (struct mir_opnd[]){mir_vreg(r->a, 1), mir_vreg(r->x, 1)});
	add(fn, bb[0], MIR_COPY, 2, (struct mir_opnd[]){mir_vreg(r->m, 2), mir_sgpr(20, 2)});
	add(fn, bb[0], AMD_OP_S_AND_SAVEEXEC_B64, 2, (struct mir_opnd[]){s10, mir_vreg(r->m, 2)});
	add(fn, bb[0], v == BRANCH_INTO_LOOP ? AMD_OP_S_CBRANCH_SCC1 : AMD_OP_S_CBRANCH_EXECZ, 1,
	    (struct mir_opnd[]){mir_block_ref(v == BRANCH_INTO_LOOP ? bb[2] : bb[4])});
	link(fn, bb[0], bb[1], (int)(v == BRANCH_INTO_LOOP ? bb[2] : bb[4]));
	/* bb1 */
	add(fn, bb[1], MIR_COPY, 2, (struct mir_opnd[]){mir_vreg(r->b, 1), mir_vreg(r->x, 1)});
	add(fn, bb[1], AMD_OP_S_MOV_B64, 2, (struct mir_opnd[]){s12, exec});
	link(fn, bb[1], bb[2], -1);
	/* bb2: the loop */
	add(fn, bb[2], AMD_OP_V_ADD_U32, 3,
	    (struct mir_opnd[]){mir_vreg(r->b, 1), mir_imm(0x80), mir_vreg(r->b, 1)});
	if (v == A_READ_INSIDE)
		add(fn, bb[2], AMD_OP_V_ADD_U32, 3,
		    (struct mir_opnd[]){mir_vreg(r->t, 1), mir_vreg(r->a, 1), mir_vreg(r->b, 1)});
	if (v == WRITELANE)
		add(fn, bb[2], AMD_OP_V_WRITELANE_B32, 3,
		    (struct mir_opnd[]){mir_vreg(r->b, 1), mir_sgpr(30, 1), mir_imm(3)});
	add(fn, bb[2], AMD_OP_V_CMP_GT_U32, 3,
	    (struct mir_opnd[]){mir_vreg(r->c, 2), mir_imm(0x200), mir_vreg(r->b, 1)});
	add(fn, bb[2], AMD_OP_S_AND_B64, 3, (struct mir_opnd[]){exec, exec, mir_vreg(r->c, 2)});
	add(fn, bb[2], AMD_OP_S_CBRANCH_EXECNZ, 1, (struct mir_opnd[]){mir_block_ref(bb[2])});
	link(fn, bb[2], bb[3], (int)bb[2]);
	/* bb3: the exit */
	struct mir_opnd end_copy[2] = {mir_vreg(r->a, 1), mir_vreg(r->b, 1)};
	if (v == COPY_BEFORE_RESTORE)
		add(fn, bb[3], MIR_COPY, 2, end_copy);
	add(fn, bb[3], AMD_OP_S_MOV_B64, 2,
	    (struct mir_opnd[]){exec, v == OUTER_RESTORE ? s10 : s12});
	if (v != COPY_BEFORE_RESTORE)
		add(fn, bb[3], MIR_COPY, 2, end_copy);
	link(fn, bb[3], bb[4], -1);
	/* bb4 */
	add(fn, bb[4], AMD_OP_S_MOV_B64, 2, (struct mir_opnd[]){exec, s10});
	add(fn, bb[4], AMD_OP_V_ADD_U32, 3,
	    (struct mir_opnd[]){mir_vreg(r->r, 1), mir_vreg(r->a, 1), mir_imm(1)});
	if (v == B_READ_AFTER)
		add(fn, bb[4], AMD_OP_V_ADD_U32, 3,
		    (struct mir_opnd[]){mir_vreg(r->t, 1), mir_vreg(r->b, 1), mir_imm(1)});
	add(fn, bb[4], AMD_OP_S_ENDPGM, 0, (struct mir_opnd[]){{0}});
}

static bool mentions(const struct mir_function *fn, uint32_t v)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			for (unsigned k = 0; k < fn->blocks[b].insns[i].nopnds; k++)
				if (fn->blocks[b].insns[i].opnds[k].kind == MIR_VREG &&
				    fn->blocks[b].insns[i].opnds[k].v == v)
					return true;
	return false;
}

static void run_case(struct totals *t, const char *name, const struct amd_target *target,
                     enum variant v)
{
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "region", target, 64);
	struct regs r;
	build(&fn, v, &r);
	uint32_t before[5];
	struct mir_insn saved[5][8];
	for (unsigned b = 0; b < 5; b++) {
		before[b] = fn.blocks[b].ninsns;
		memcpy(saved[b], fn.blocks[b].insns, before[b] * sizeof saved[b][0]);
	}
	unsigned renamed = mir_coalesce_lane_regions(&fn);
	t->checks++;
	if (v != GOOD) {
		bool same = !renamed;
		for (unsigned b = 0; b < 5; b++)
			same = same && fn.blocks[b].ninsns == before[b] &&
			       !memcmp(fn.blocks[b].insns, saved[b],
			               before[b] * sizeof saved[b][0]);
		if (!same)
			fail(t, name, "changed a function it must leave alone");
		pa_arena_free(&arena);
		return;
	}
	const struct mir_insn *loop_add = &fn.blocks[2].insns[0];
	if (renamed != 1 || mentions(&fn, r.b))
		fail(t, name, "B was not renamed");
	else if (fn.blocks[1].ninsns != 1 || fn.blocks[3].ninsns != 1)
		fail(t, name, "the start and end copies are not both gone");
	else if (loop_add->opnds[0].v != r.a || loop_add->opnds[2].v != r.a)
		fail(t, name, "the loop's add does not write and read A");
	else if (fn.blocks[0].ninsns != before[0] || fn.blocks[4].ninsns != before[4] ||
	         memcmp(fn.blocks[0].insns, saved[0], before[0] * sizeof saved[0][0]) ||
	         memcmp(fn.blocks[4].insns, saved[4], before[4] * sizeof saved[4][0]))
		fail(t, name, "changed code outside the region");
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse("gfx90a", &target, err, sizeof err)) {
		printf("FAIL: %s\n", err);
		return 1;
	}
	static const char *const names[NVARIANTS] = {
	        "good",         "a-read-inside",    "outer-restore", "copy-before-restore",
	        "b-read-after", "branch-into-loop", "writelane"};
	for (unsigned v = 0; v < NVARIANTS; v++)
		run_case(&t, names[v], &target, (enum variant)v);
	printf("coalesce_region: %u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
