/* build_tex.h: what build_tex.c (textures, queries) and build_surf.c (surfaces) share: small IR
 * builders for the descriptor block of a texture/surface object (docs/TEXTURES.md) and the
 * surface entry points.  Header-only helpers; no state. */
#ifndef PTXAS_AMD_BUILD_TEX_H
#define PTXAS_AMD_BUILD_TEX_H

#include "build_int.h"

static inline bool tex_has(const struct ptx_insn *in, enum ptx_dotword w)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == w)
			return true;
	return false;
}

static inline ir_ref k32(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static inline ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y,
                         uint32_t aux)
{
	ir_ref a[2] = {x, y};
	return irb_emit(b, op, t, a, 2, aux, 0);
}

static inline ir_ref icmp(struct irb *b, enum ir_cmp c, ir_ref x, ir_ref y)
{
	return op2(b, IR_ICMP, IR_T_PRED, x, y, c);
}

/* The wave stops (s_trap 2, as PTX trap) where `ok` is false in some lane. */
static inline void trap_unless(struct irb *b, ir_ref ok)
{
	uint32_t bad = irb_open_sealed(b), cont = irb_new_block(b);
	irb_terminate(b, IR_BR, ok, cont, bad);
	irb_switch_to(b, bad);
	irb_emit(b, IR_TRAP, IR_T_NONE, NULL, 0, 0, 2);
	irb_terminate(b, IR_JMP, IR_NO_REF, cont, 0);
	irb_seal(b, cont);
	irb_switch_to(b, cont);
}

/* Dword `dw` of the handle's descriptor block (HIP's layout, docs/TEXTURES.md). */
static inline ir_ref desc_word(struct irb *b, ir_ref handle, unsigned dw)
{
	return irb_emit(b, IR_IMG_DESC, IR_T_I32, &handle, 1, 0, 4 * dw);
}

/* Runs what follows only in the lanes where cond holds (an instruction's @p guard, or a
 * coordinate inside the image): opens the block it branches to and returns the block after
 * it, which branch_close joins; cond IR_NO_REF: no branch, returns 0. */
static inline uint32_t branch_open(struct irb *b, ir_ref cond)
{
	if (cond == IR_NO_REF)
		return 0;
	uint32_t body = irb_open_sealed(b), after = irb_new_block(b);
	irb_terminate(b, IR_BR, cond, body, after);
	irb_switch_to(b, body);
	return after;
}

static inline void branch_close(struct irb *b, uint32_t after)
{
	if (!after)
		return;
	irb_terminate(b, IR_JMP, IR_NO_REF, after, 0);
	irb_seal(b, after);
	irb_switch_to(b, after);
}

/* lo | hi << 32 */
static inline ir_ref pair64(struct irb *b, ir_ref lo, ir_ref hi)
{
	ir_ref l = irb_emit(b, IR_ZEXT, IR_T_I64, &lo, 1, 0, 0);
	ir_ref h = irb_emit(b, IR_ZEXT, IR_T_I64, &hi, 1, 0, 0);
	h = op2(b, IR_SHL, IR_T_I64, h, k32(b, 32), 0);
	return op2(b, IR_OR, IR_T_I64, l, h, 0);
}

static inline const struct ptx_operand *elem(const struct ptx_operand *o, unsigned i)
{
	return o->kind == PTX_OPND_VEC ? &o->elems[i] : o;
}

/* suld.b/sust.b/sust.p and sured on a surface object (build_surf.c): NULL when translated, else
 * why not (the caller reports it by name). */
const char *irb_surface_access(struct irb *b, const struct ptx_insn *in, ir_ref guard);
const char *irb_surface_reduction(struct irb *b, const struct ptx_insn *in, ir_ref guard);

#endif
