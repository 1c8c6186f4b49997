/* mir_fuse_add3: a 32-bit vector add whose only reader is another 32-bit vector add becomes
 * one v_add3_u32 with it: `t = a + b; d = t + c` is `d = a + b + c` (v_add3_u32 d, a, b, c),
 * one VALU issue instead of two (GFX9+ VOP3, integer addition modulo 2^32, which is
 * associative and commutative, so the sum is the same bit for bit).  Chains of sums with a
 * constant (ChaCha/hash rounds `s += b; s += k`, index sums `base + i + j`) are where it
 * counts; clang-19 selects the same instruction for them.
 *
 * When it is right: both are plain v_add_u32 (no clamp, modifiers, DPP, flags); t is a
 * one-dword VGPR vreg defined once (by the first add) and read once (by the second), in the
 * same block at most WINDOW instructions later; nothing in between writes a or b or EXEC (the
 * sum is computed later, from the same sources, for the same lanes; t's lanes outside the
 * second add's EXEC were never read).  The first add goes; the second becomes the v_add3_u32.
 *
 * Constant bus: VOP3 reads at most amd_const_bus_limit scalar values (SGPRs, literals; one on
 * GFX9, two on GFX10+), counted once each.  GFX10+ VOP3 takes one literal; GFX9's takes none,
 * so a literal goes into a new SGPR vreg by a COPY just before the v_add3_u32 (an s_mov_b32
 * on the scalar unit, as clang-19 does; mir_hoist_loop_constants, which runs after, takes it
 * out of loops).  Sources that do not fit leave the pair as it is.
 *
 * Registers: a and b now live until the second add instead of t, at most WINDOW instructions.
 * requires: MIR on virtual registers (after isel, before allocation).
 * breaks: nothing.  complexity: O(instructions x WINDOW x operands). */
#include <assert.h>
#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

enum { WINDOW = 32, MAX_SCALARS = 3 };

struct add3 {
	struct mir_function *fn;
	uint8_t *defs;   /* definitions per vreg (mir_count_defs) */
	uint32_t *reads; /* reads per vreg */
	bool *dead;      /* per instruction of the current block: fused into a later one */
};

static bool plain_add(const struct mir_insn *in)
{
	return in->op == AMD_OP_V_ADD_U32 && in->nopnds == 3 && !in->flags && !in->neg &&
	       !in->abs && !in->omod && !in->clamp && !in->dpp && !in->op_sel && !in->neg_hi &&
	       !in->op_sel_hi_set;
}

static bool is_vgpr(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->kind == MIR_VGPR || (o->kind == MIR_VREG && fn->vregs[o->v].file == MIR_VGPR);
}

/* Whether o and p name overlapping registers (of the same kind). */
static bool overlap(const struct mir_opnd *o, const struct mir_opnd *p)
{
	if (o->kind != p->kind || o->kind == MIR_IMM || o->kind == MIR_NONE)
		return false;
	unsigned ow = o->width ? o->width : 1, pw = p->width ? p->width : 1;
	if (o->kind == MIR_VREG)
		return o->v == p->v && o->sub < p->sub + pw && p->sub < o->sub + ow;
	return o->v < p->v + pw && p->v < o->v + ow;
}

/* Whether `in` writes a register that src covers. */
static bool writes(const struct mir_insn *in, const struct mir_opnd *src)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (mir_opnd_is_def(in, k) && overlap(&in->opnds[k], src))
			return true;
	return false;
}

/* The index of t's definition when t (operand o of add j) is the result of a plain add at
 * most WINDOW instructions before j whose sources hold until j; else j. */
static uint32_t inner_add(const struct add3 *a, const struct mir_block *bl, uint32_t j,
                          const struct mir_opnd *o)
{
	if (o->kind != MIR_VREG || o->sub != 0 || o->width != 1 ||
	    a->fn->vregs[o->v].file != MIR_VGPR || a->defs[o->v] != 1 || a->reads[o->v] != 1)
		return j;
	uint32_t lo = j > WINDOW ? j - WINDOW : 0;
	for (uint32_t i = j; i-- > lo;) {
		const struct mir_insn *in = &bl->insns[i];
		if (a->dead[i])
			continue;
		if (!writes(in, o)) {
			if (mir_writes_exec(a->fn, in))
				return j;
			continue;
		}
		if (!plain_add(in) || in->opnds[0].kind != MIR_VREG || in->opnds[0].v != o->v)
			return j;
		for (uint32_t k = i + 1; k < j; k++)
			if (!a->dead[k] && (writes(&bl->insns[k], &in->opnds[1]) ||
			                    writes(&bl->insns[k], &in->opnds[2])))
				return j;
		return i;
	}
	return j;
}

static bool same_scalar(const struct mir_opnd *o, const struct mir_opnd *p)
{
	return o->kind == p->kind && o->v == p->v && o->sub == p->sub && o->width == p->width;
}

/* Makes the three sources fit v_add3_u32's constant bus (a GFX9 literal into a new SGPR:
 * *literal_copy set to the vreg and *literal to its value, else ~0u); false when they
 * cannot. */
static bool fit_bus(struct add3 *a, struct mir_opnd src[3], uint32_t *literal_copy,
                    uint32_t *literal)
{
	const struct amd_target *t = a->fn->target;
	unsigned limit = amd_const_bus_limit(t, &amd_isa_rows[AMD_OP_V_ADD3_U32]);
	struct mir_opnd seen[MAX_SCALARS];
	unsigned nseen = 0, nliterals = 0, literal_at = 3;
	*literal_copy = ~0u;
	for (unsigned k = 0; k < 3; k++) {
		const struct mir_opnd *o = &src[k];
		if (is_vgpr(a->fn, o) ||
		    (o->kind == MIR_IMM && amd_inline_code(AMD_DT_B32, o->v) >= 0))
			continue;
		if (o->kind != MIR_IMM && o->kind != MIR_VREG && o->kind != MIR_SGPR)
			return false; /* specials, relocations: left as they are */
		bool dup = false;
		for (unsigned s = 0; s < nseen; s++)
			dup |= same_scalar(&seen[s], o);
		if (dup)
			continue;
		if (o->kind == MIR_IMM)
			nliterals++, literal_at = k;
		seen[nseen++] = *o;
	}
	if (nseen > limit || nliterals > 1)
		return false;
	if (nliterals && !t->info->has_vop3_literal) {
		*literal_copy = mir_new_vreg(a->fn, MIR_SGPR, 1, 1);
		*literal = src[literal_at].v;
		for (unsigned k = 0; k < 3; k++) /* (a literal read twice: both) */
			if (src[k].kind == MIR_IMM && src[k].v == *literal)
				src[k] = mir_vreg(*literal_copy, 1);
	}
	return true;
}

/* Fuses add j of block b with the add that defines one of its sources; returns the SGPR
 * vreg a literal must be copied into before j (~0u: none), or ~1u when nothing was fused. */
static uint32_t try_fuse(struct add3 *a, uint32_t b, uint32_t j, uint32_t *literal)
{
	struct mir_block *bl = &a->fn->blocks[b];
	struct mir_insn *in = &bl->insns[j];
	if (!plain_add(in) || !is_vgpr(a->fn, &in->opnds[0]))
		return ~1u;
	for (unsigned s = 1; s <= 2; s++) {
		uint32_t i = inner_add(a, bl, j, &in->opnds[s]);
		if (i == j)
			continue;
		const struct mir_insn *inner = &bl->insns[i];
		struct mir_opnd src[3] = {inner->opnds[1], inner->opnds[2], in->opnds[3 - s]};
		uint32_t copy;
		if (!fit_bus(a, src, &copy, literal))
			continue;
		a->dead[i] = true;
		struct mir_opnd ops[4] = {in->opnds[0], src[0], src[1], src[2]};
		struct mir_insn fused = mir_make(AMD_OP_V_ADD3_U32, 4, ops);
		fused.src_line = in->src_line;
		*in = fused;
		return copy;
	}
	return ~1u;
}

/* Rebuilds block b without its dead instructions, with the literal COPYs inserted, in place:
 * each COPY goes before a fused add j whose producer, dead, lies before j (one producer per
 * reader), so the COPYs up to j never outnumber the dead slots before it and the write index
 * stays at or behind the read index (a copy of the block would cost a 2 MiB huge-page chunk
 * of the MIR arena on big_unrolled). */
static void rebuild(struct add3 *a, uint32_t b, const uint32_t *copy_to, const uint32_t *value)
{
	struct mir_block *bl = &a->fn->blocks[b];
	uint32_t n = bl->ninsns, w = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (a->dead[i])
			continue;
		struct mir_insn in = bl->insns[i];
		if (copy_to[i] != ~0u) {
			struct mir_opnd ops[2] = {mir_vreg(copy_to[i], 1), mir_imm(value[i])};
			struct mir_insn c = mir_make(MIR_COPY, 2, ops);
			c.src_line = in.src_line;
			assert(w < i);
			bl->insns[w++] = c;
		}
		bl->insns[w++] = in;
	}
	bl->ninsns = w;
}

unsigned mir_fuse_add3(struct mir_function *fn)
{
	if (amd_isa_rows[AMD_OP_V_ADD3_U32].opcode[fn->target->info->gen] < 0)
		return 0;
	struct add3 a = {.fn = fn, .defs = mir_count_defs(fn)};
	a.reads = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	uint32_t longest = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		longest = bl->ninsns > longest ? bl->ninsns : longest;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++)
				if (bl->insns[i].opnds[k].kind == MIR_VREG &&
				    !mir_opnd_is_def(&bl->insns[i], k))
					a.reads[bl->insns[i].opnds[k].v]++;
	}
	a.dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool, longest + 1);
	uint32_t *copy_to = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, longest + 1);
	uint32_t *value = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, longest + 1);
	unsigned fused = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		uint32_t n = fn->blocks[b].ninsns, here = 0;
		for (uint32_t i = 0; i < n; i++)
			a.dead[i] = false, copy_to[i] = ~0u;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t r = try_fuse(&a, b, j, &value[j]);
			if (r == ~1u)
				continue;
			copy_to[j] = r;
			here++;
		}
		if (here)
			rebuild(&a, b, copy_to, value);
		fused += here;
	}
	return fused;
}
