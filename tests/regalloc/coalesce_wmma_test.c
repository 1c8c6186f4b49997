/* mir_coalesce_phi_copies (src/mir/coalesce.c) across a WMMA's EXEC bracket, suite
 * 'regalloc': one hand-built loop block on gfx1100 (wave32 and wave64) ending in a phi's
 * parallel copy `P <- V`, with sel_mma.c's bracket between:
 *   s = s_or_saveexec -1; D = v_wmma A, B, C; exec = s_mov s
 * ACROSS:  V = v_add P, 1 just before the bracket: the bracket gives EXEC back as it found it, so
 *          the copy coalesces (the add writes P, the copy is gone).
 * INSIDE:  V is the WMMA's D (defined inside the bracket, in every lane): refused.
 * RESTORE_OTHER: EXEC restored from another SGPR (not a bracket, an EXEC write between V's
 *          definition and the copy): refused.
 * The oracle is the block as built (untouched where refused). */
#include <stdio.h>
#include <string.h>

#include "mir/mir.h"

enum shape { ACROSS, INSIDE, RESTORE_OTHER, NSHAPES };
static const char *const shape_names[NSHAPES] = {"across", "inside", "restore-other"};

struct regs {
	uint32_t p, v, s, a, b, c, d;
};

static void add(struct mir_function *fn, unsigned op, unsigned n, const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, 0, &in);
}

static void build(struct mir_function *fn, enum shape shape, struct regs *r)
{
	mir_new_block(fn);
	bool w64 = fn->wave_size == 64;
	unsigned mask_dw = w64 ? 2 : 1;
	unsigned tuple = shape == INSIDE ? 8 : 1; /* P and V: the WMMA's D, or one VGPR */
	r->p = mir_new_vreg(fn, MIR_VGPR, tuple, 1), r->v = mir_new_vreg(fn, MIR_VGPR, tuple, 1);
	r->s = mir_new_vreg(fn, MIR_SGPR, mask_dw, mask_dw);
	r->a = mir_new_vreg(fn, MIR_VGPR, 8, 1), r->b = mir_new_vreg(fn, MIR_VGPR, 8, 1);
	r->c = mir_new_vreg(fn, MIR_VGPR, 8, 1);
	r->d = shape == INSIDE ? r->v : mir_new_vreg(fn, MIR_VGPR, 8, 1);
	if (shape != INSIDE)
		add(fn, AMD_OP_V_ADD_U32, 3,
		    (struct mir_opnd[]){mir_vreg(r->v, 1), mir_vreg(r->p, 1), mir_imm(1)});
	add(fn, w64 ? AMD_OP_S_OR_SAVEEXEC_B64 : AMD_OP_S_OR_SAVEEXEC_B32, 2,
	    (struct mir_opnd[]){mir_vreg(r->s, mask_dw), mir_imm(0xffffffffu)});
	add(fn, AMD_OP_V_WMMA_F32_16X16X16_F16, 4,
	    (struct mir_opnd[]){mir_vreg(r->d, 8), mir_vreg(r->a, 8), mir_vreg(r->b, 8),
	                        mir_vreg(r->c, 8)});
	struct mir_opnd back =
	        shape == RESTORE_OTHER ? mir_sgpr(40, mask_dw) : mir_vreg(r->s, mask_dw);
	add(fn, w64 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32, 2,
	    (struct mir_opnd[]){mir_special(AMD_SPEC_EXEC, mask_dw), back});
	struct mir_insn copy = mir_make(
	        MIR_COPY, 2, (struct mir_opnd[]){mir_vreg(r->p, tuple), mir_vreg(r->v, tuple)});
	mir_append(fn, 0, &copy)->flags |= MIR_IF_PARALLEL;
	add(fn, AMD_OP_S_ENDPGM, 0, (struct mir_opnd[]){{0}});
}

static bool same(const struct mir_block *x, const struct mir_block *y)
{
	if (x->ninsns != y->ninsns)
		return false;
	for (uint32_t i = 0; i < x->ninsns; i++)
		if (memcmp(&x->insns[i], &y->insns[i], sizeof x->insns[i]) != 0)
			return false;
	return true;
}

/* ACROSS after coalescing: the add writes P, no copy is left, the bracket is intact. */
static bool coalesced(const struct mir_block *bl, const struct regs *r)
{
	if (bl->ninsns != 5 || bl->insns[0].op != AMD_OP_V_ADD_U32 ||
	    bl->insns[0].opnds[0].v != r->p)
		return false;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		for (unsigned k = 0; k < bl->insns[i].nopnds; k++)
			if (bl->insns[i].op == MIR_COPY ||
			    (bl->insns[i].opnds[k].kind == MIR_VREG &&
			     bl->insns[i].opnds[k].v == r->v))
				return false;
	return bl->insns[3].op == AMD_OP_S_MOV_B32 || bl->insns[3].op == AMD_OP_S_MOV_B64;
}

static unsigned run_case(unsigned wave, enum shape shape)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse("gfx1100", &target, err, sizeof err)) {
		printf("FAIL: gfx1100: %s\n", err);
		return 1;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "wmma", &target, wave);
	mir_function_init(&ref, &arena, "ref", &target, wave);
	struct regs r, r2;
	build(&fn, shape, &r);
	build(&ref, shape, &r2);
	unsigned n = mir_coalesce_phi_copies(&fn);
	const char *why = NULL;
	if (shape == ACROSS && (n != 1 || !coalesced(&fn.blocks[0], &r)))
		why = "expected the copy coalesced across the bracket";
	else if (shape != ACROSS && (n != 0 || !same(&fn.blocks[0], &ref.blocks[0])))
		why = "changed, expected untouched";
	if (why) {
		printf("FAIL: wave%u %s: %s (%u removed)\n", wave, shape_names[shape], why, n);
		mir_print(stdout, &fn);
	}
	pa_arena_free(&arena);
	return why != NULL;
}

int main(void)
{
	unsigned checks = 0, failures = 0;
	for (unsigned wave = 32; wave <= 64; wave += 32)
		for (unsigned s = 0; s < NSHAPES; s++) {
			failures += run_case(wave, (enum shape)s);
			checks++;
		}
	printf("%u cases, %u failures\n", checks, failures);
	return failures != 0;
}
