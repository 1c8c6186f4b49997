/* mir_remove_dead_code (src/mir/dead_code.c), suite 'regalloc': liveness per dword of a
 * tuple.  Blocks `COPY %t[0:0], s0; COPY %t[1:1], 0; READ; s_endpgm` with %t a 64-bit VGPR
 * tuple (selection's zero-extension of a 32-bit value to 64 bits) and READ a COPY into a
 * physical VGPR of %t[0:0], %t[1:1] or %t[0:1]: the half nothing reads is dead and its COPY
 * goes (hgemm_mma's `v_mov_b32 v9, 0` before the real definition of v9, issue 20), the half
 * READ names stays, and both stay when READ takes the whole tuple.  A function-wide "is the
 * register read" cannot tell the halves apart: it keeps both.  gfx90a and gfx1100. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

struct totals {
	unsigned checks, failures;
};

enum read { READ_LOW, READ_HIGH, READ_BOTH };

static void add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	mir_append(fn, b, &in);
}

static struct mir_opnd half(uint32_t t, unsigned sub)
{
	struct mir_opnd o = mir_vreg(t, 1);
	o.sub = (uint8_t)sub;
	return o;
}

static void build(struct mir_function *fn, enum read read)
{
	uint32_t b = mir_new_block(fn);
	uint32_t t = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	struct mir_opnd lo[2] = {half(t, 0), mir_sgpr(0, 1)};
	add(fn, b, MIR_COPY, 2, lo);
	struct mir_opnd hi[2] = {half(t, 1), mir_imm(0)};
	add(fn, b, MIR_COPY, 2, hi);
	struct mir_opnd use[2] = {mir_vgpr(0, 1), half(t, read == READ_HIGH)};
	if (read == READ_BOTH)
		use[0] = mir_vgpr(0, 2), use[1] = mir_vreg(t, 2);
	add(fn, b, MIR_COPY, 2, use);
	add(fn, b, AMD_OP_S_ENDPGM, 0, NULL);
}

/* Whether block 0 still writes dword `sub` of the tuple. */
static bool writes_half(const struct mir_function *fn, unsigned sub)
{
	const struct mir_block *bl = &fn->blocks[0];
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_opnd *d = &bl->insns[i].opnds[0];
		if (bl->insns[i].op == MIR_COPY && d->kind == MIR_VREG && d->sub == sub)
			return true;
	}
	return false;
}

static void run_case(struct totals *t, const char *gpu, enum read read)
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
	mir_function_init(&fn, &arena, "dword", &target, target.info->default_wave_size);
	build(&fn, read);
	mir_remove_dead_code(&fn);
	bool want_lo = read != READ_HIGH, want_hi = read != READ_LOW;
	bool has_lo = writes_half(&fn, 0), has_hi = writes_half(&fn, 1);
	unsigned want_n = 2 + want_lo + want_hi;
	if (has_lo != want_lo || has_hi != want_hi || fn.blocks[0].ninsns != want_n) {
		printf("FAIL: %s: read %d: low %s, high %s, %u instructions; expected low %s, "
		       "high %s, %u\n",
		       gpu, read, has_lo ? "kept" : "gone", has_hi ? "kept" : "gone",
		       fn.blocks[0].ninsns, want_lo ? "kept" : "gone", want_hi ? "kept" : "gone",
		       want_n);
		t->failures++;
	}
	pa_arena_free(&arena);
}

int main(void)
{
	struct totals t = {0};
	static const char *const gpus[] = {"gfx90a", "gfx1100"};
	for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
		run_case(&t, gpus[g], READ_LOW);
		run_case(&t, gpus[g], READ_HIGH);
		run_case(&t, gpus[g], READ_BOTH);
	}
	printf("%u cases, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
