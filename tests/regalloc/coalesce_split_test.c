/* mir_coalesce_split_phi_copies (src/mir/coalesce_split.c), suite 'regalloc': hand-built
 * blocks of a 64-bit pointer step (`V[0] = P[0] + step` with carry out, `V[1] = P[1] + 0 +
 * carry`, then the phi's parallel copies `P[0] <- V[0]`, `P[1] <- V[1]`) go through the pass
 * alone.  Where it must rename: no copy is left, and the block, run by a one-lane evaluator
 * of the ISA's definitions (v_add_co_u32: 32-bit sum and carry out; v_addc_co_u32: sum with
 * carry in; v_lshlrev_b64 by 0: the 64-bit value), gives P0 + step in 64-bit arithmetic for
 * sample P0 that cross the carry.  Where it must not (the old P[0] read after V[0] exists,
 * an EXEC write before the copies, the dwords copied crosswise, V read in another block, a
 * copy of the same parallel copy reading the old P[0]):
 * the function is unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

enum shape {
	STEP,
	WHOLE_READ,
	OLD_LOW_READ,
	EXEC_WRITE,
	CROSSED,
	OTHER_BLOCK,
	SAME_PARALLEL_READ,
	NSHAPES
};
static const bool renames[NSHAPES] = {true, true, false, false, false, false, false};
enum { MAXV = 16 };

struct built {
	uint32_t p, v, w, x; /* the phi, the stepped value, readers of P and V after the copies */
};

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                            const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

static struct mir_opnd dword(uint32_t v, unsigned k)
{
	struct mir_opnd o = mir_vreg(v, 1);
	o.sub = (uint8_t)k;
	return o;
}

static void par_copy(struct mir_function *fn, uint32_t b, struct mir_opnd d, struct mir_opnd s)
{
	struct mir_opnd ops[2] = {d, s};
	add(fn, b, MIR_COPY, 2, ops)->flags |= MIR_IF_PARALLEL;
}

static struct built build(struct mir_function *fn, uint32_t step, enum shape shape)
{
	struct built r;
	uint32_t b = mir_new_block(fn);
	r.p = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	r.v = mir_new_vreg(fn, MIR_VGPR, 2, 1);
	r.w = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	r.x = mir_new_vreg(fn, MIR_VGPR, 2, 2);
	uint32_t c = mir_new_vreg(fn, MIR_VGPR, 1, 1), y = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t s1 = mir_new_vreg(fn, MIR_SGPR, 2, 2), s2 = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd cst[2] = {mir_vreg(c, 1), mir_imm(step)};
	add(fn, b, MIR_COPY, 2, cst);
	struct mir_opnd lo[4] = {dword(r.v, 0), mir_vreg(s1, 2), dword(r.p, 0), mir_vreg(c, 1)};
	add(fn, b, AMD_OP_V_ADD_CO_U32, 4, lo);
	if (shape == OLD_LOW_READ) {
		struct mir_opnd mv[2] = {mir_vreg(y, 1), dword(r.p, 0)};
		add(fn, b, AMD_OP_V_MOV_B32, 2, mv);
	}
	struct mir_opnd hi[5] = {dword(r.v, 1), mir_vreg(s2, 2), dword(r.p, 1), mir_imm(0),
	                         mir_vreg(s1, 2)};
	add(fn, b, AMD_OP_V_ADDC_CO_U32, 5, hi);
	if (shape == WHOLE_READ) {
		struct mir_opnd sh[3] = {mir_vreg(r.x, 2), mir_imm(0), mir_vreg(r.v, 2)};
		add(fn, b, AMD_OP_V_LSHLREV_B64, 3, sh);
	}
	if (shape == EXEC_WRITE) {
		struct mir_opnd ex[2] = {mir_special(AMD_SPEC_EXEC, 2), mir_vreg(s2, 2)};
		add(fn, b, AMD_OP_S_MOV_B64, 2, ex);
	}
	par_copy(fn, b, dword(r.p, 0), dword(r.v, shape == CROSSED ? 1 : 0));
	par_copy(fn, b, dword(r.p, 1), dword(r.v, shape == CROSSED ? 0 : 1));
	if (shape == SAME_PARALLEL_READ) /* another phi's copy of the old P[0] */
		par_copy(fn, b, mir_vreg(y, 1), dword(r.p, 0));
	uint32_t rb = b;
	if (shape == OTHER_BLOCK) {
		rb = mir_new_block(fn);
		fn->blocks[b].succ[0] = rb;
		fn->blocks[b].nsucc = 1;
		struct mir_opnd sh[3] = {mir_vreg(r.x, 2), mir_imm(0), mir_vreg(r.v, 2)};
		add(fn, rb, AMD_OP_V_LSHLREV_B64, 3, sh);
	}
	struct mir_opnd sh[3] = {mir_vreg(r.w, 2), mir_imm(0), mir_vreg(r.p, 2)};
	add(fn, rb, AMD_OP_V_LSHLREV_B64, 3, sh);
	struct mir_opnd none[1] = {{0}};
	add(fn, rb, AMD_OP_S_ENDPGM, 0, none);
	return r;
}

/* One lane's registers: vreg v, dword k. */
struct lane {
	uint32_t r[MAXV][8];
};

static uint32_t read(const struct lane *l, const struct mir_opnd *o, unsigned j)
{
	return o->kind == MIR_IMM ? (j ? 0 : o->v) : l->r[o->v][o->sub + j];
}

static void write(struct lane *l, const struct mir_opnd *o, unsigned j, uint32_t x)
{
	l->r[o->v][o->sub + j] = x;
}

/* Runs the first block (one lane, every lane active); false on an unknown instruction. */
static bool run(const struct mir_function *fn, struct lane *l)
{
	const struct mir_block *bl = &fn->blocks[0];
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		const struct mir_opnd *o = in->opnds;
		uint64_t sum;
		if (in->op == MIR_COPY && (in->flags & MIR_IF_PARALLEL)) {
			uint32_t n = i, vals[8];
			for (; n < bl->ninsns && bl->insns[n].op == MIR_COPY &&
			       (bl->insns[n].flags & MIR_IF_PARALLEL) && n - i < 8;
			     n++)
				vals[n - i] = read(l, &bl->insns[n].opnds[1], 0);
			for (uint32_t j = i; j < n; j++)
				write(l, &bl->insns[j].opnds[0], 0, vals[j - i]);
			i = n - 1;
			continue;
		}
		switch (in->op) {
		case MIR_COPY:
		case AMD_OP_V_MOV_B32:
			write(l, &o[0], 0, read(l, &o[1], 0));
			break;
		case AMD_OP_V_ADD_CO_U32:
			sum = (uint64_t)read(l, &o[2], 0) + read(l, &o[3], 0);
			write(l, &o[0], 0, (uint32_t)sum);
			write(l, &o[1], 0, (uint32_t)(sum >> 32));
			break;
		case AMD_OP_V_ADDC_CO_U32:
			sum = (uint64_t)read(l, &o[2], 0) + read(l, &o[3], 0) +
			      (read(l, &o[4], 0) & 1);
			write(l, &o[0], 0, (uint32_t)sum);
			write(l, &o[1], 0, (uint32_t)(sum >> 32));
			break;
		case AMD_OP_V_LSHLREV_B64: /* by 0 here */
			write(l, &o[0], 0, read(l, &o[2], 0));
			write(l, &o[0], 1, read(l, &o[2], 1));
			break;
		case AMD_OP_S_ENDPGM:
			break;
		default:
			return false;
		}
	}
	return true;
}

static bool same_as_built(const struct mir_function *fn, const struct mir_function *ref)
{
	if (fn->nblocks != ref->nblocks)
		return false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (fn->blocks[b].ninsns != ref->blocks[b].ninsns)
			return false;
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			if (memcmp(&fn->blocks[b].insns[i], &ref->blocks[b].insns[i],
			           sizeof(struct mir_insn)) != 0)
				return false;
	}
	return true;
}

static unsigned copies_left(const struct mir_function *fn)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			n += (fn->blocks[b].insns[i].flags & MIR_IF_PARALLEL) != 0;
	return n;
}

/* The renamed block must compute P0 + step (64-bit) into P and its reader(s). */
static const char *check_values(const struct mir_function *fn, const struct built *r, uint32_t step,
                                enum shape shape)
{
	static const uint64_t p0s[] = {0,
	                               0x10,
	                               0xfffffe00u,
	                               0xffffffffu,
	                               0x1fffffff0ull,
	                               0x7fffffffffffff00ull,
	                               0xffffffffffffffffull};
	for (unsigned i = 0; i < sizeof p0s / sizeof p0s[0]; i++) {
		struct lane l;
		memset(&l, 0, sizeof l);
		l.r[r->p][0] = (uint32_t)p0s[i];
		l.r[r->p][1] = (uint32_t)(p0s[i] >> 32);
		if (!run(fn, &l))
			return "the evaluator met an instruction it does not know";
		uint64_t want = p0s[i] + step;
		uint64_t p = l.r[r->p][0] | (uint64_t)l.r[r->p][1] << 32;
		uint64_t w = l.r[r->w][0] | (uint64_t)l.r[r->w][1] << 32;
		uint64_t x = l.r[r->x][0] | (uint64_t)l.r[r->x][1] << 32;
		if (p != want || w != want || (shape == WHOLE_READ && x != want))
			return "P, its reader or V's reader is not P0 + step";
	}
	return NULL;
}

static unsigned run_case(const char *gpu, uint32_t step, enum shape shape)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		printf("FAIL: %s: %s\n", gpu, err);
		return 1;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn, ref;
	mir_function_init(&fn, &arena, "split", &target, target.info->default_wave_size);
	mir_function_init(&ref, &arena, "ref", &target, target.info->default_wave_size);
	struct built r = build(&fn, step, shape);
	build(&ref, step, shape);
	unsigned n = mir_coalesce_split_phi_copies(&fn);
	const char *why = NULL;
	if (renames[shape]) {
		if (n != 2 || copies_left(&fn) != 0)
			why = "expected both copies removed";
		else
			why = check_values(&fn, &r, step, shape);
	} else if (n != 0 || !same_as_built(&fn, &ref)) {
		why = "changed, expected untouched";
	}
	if (why)
		printf("FAIL: %s: step %#x shape %d: %s\n", gpu, step, shape, why);
	pa_arena_free(&arena);
	return why != NULL;
}

int main(void)
{
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
	static const uint32_t steps[] = {4, 0x200, 0x80000000u};
	unsigned checks = 0, failures = 0;
	for (unsigned g = 0; g < 5; g++)
		for (unsigned s = 0; s < 3; s++) /* 5 x 3 x 7 cases */
			for (unsigned shape = 0; shape < NSHAPES; shape++) {
				failures += run_case(gpus[g], steps[s], (enum shape)shape);
				checks++;
			}
	printf("%u cases, %u failures\n", checks, failures);
	return failures != 0;
}
