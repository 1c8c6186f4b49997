/* Coalescing of a dying source into the result, before allocation.
 *
 * The allocator's intervals have no holes.  In an accumulation chain such as the 8 steps
 * of a register-blocked SGEMM's inner loop, acc1 = fma(a, b, p), acc2 = fma(c, d, acc1),
 * ..., p = fma(y, z, acc7), with p loop-carried (mir_coalesce_phi_copies made the last step
 * write p), p's interval covers the whole loop and the intermediate values need registers
 * of their own: 64 accumulators held twice (166 VGPRs against clang's 128 on gfx90a).
 * This pass renames u to v where a VALU instruction I defines v (one VGPR) and reads u
 * (one VGPR) for the last time, so that u's definition writes v directly and I updates v
 * in place, when that cannot change what any instruction reads:
 *   - u has one definition, writing all of it, at index d of I's block, and I is its only
 *     use (so nothing else reads u, anywhere);
 *   - nothing in (d, I) reads or writes v, and I reads v in no other operand (v's old
 *     value, if any, is dead from d on); u's definition writes v in no other operand;
 *   - nothing in [d, I] writes EXEC (u's definition and I write the same lanes);
 *   - I reads no destination of its own (v_fmac's tied accumulator, v_writelane, DPP,
 *     v_permlane) and is not a matrix instruction; u and v are the same kind of register.
 * Blocks are walked backwards, so the chain above becomes p = fma(.., p) at every step.
 * Registers: u's interval [d, I] and v's, which starts at I, merge into their union: the
 * pressure never grows.  Scheduling (before allocation) sees v written at d: the readers
 * of v's old value, all before d, must stay before d, which for a chain they already are
 * (each step reads the one before).
 *   requires: virtual registers, after mir_coalesce_phi_copies.  breaks: nothing.
 *   complexity: O(instructions) to count, plus a scan of at most MAX_DISTANCE
 *   instructions per candidate. */
#include <string.h>

#include "mir/mir.h"

/* The longest def-to-use distance examined (bounds the time on huge blocks). */
enum { MAX_DISTANCE = 1024 };

struct dinfo {
	uint32_t ndefs, nuses, def_block, def_index;
	bool partial;
};

static bool whole(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->sub == 0 && o->width == fn->vregs[o->v].size;
}

static void count(const struct mir_function *fn, struct dinfo *di)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG)
					continue;
				struct dinfo *x = &di[o->v];
				if (!mir_opnd_is_def(in, k)) {
					x->nuses++;
					continue;
				}
				x->ndefs++;
				x->def_block = b;
				x->def_index = i;
				x->partial |= !whole(fn, o) || in->rtn ||
				              (in->flags & MIR_IF_PARALLEL) ||
				              (in->op < AMD_NUM_OPCODES &&
				               (amd_isa_rows[in->op].flags & AMD_F_TIED_DST));
			}
		}
}

/* Whether `in` is a VALU writing one VGPR vreg in opnds[0] without reading any of its
 * destinations. */
static bool updatable(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES || in->dpp || in->op == AMD_OP_V_WRITELANE_B32)
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if ((row->unit != AMD_UNIT_VALU && row->unit != AMD_UNIT_TRANS) ||
	    (row->flags & (AMD_F_TIED_DST | AMD_F_MAI | AMD_F_WMMA | AMD_F_OPSEL_FI_BC)) ||
	    !mir_opnd_is_def(in, 0))
		return false;
	const struct mir_opnd *d = &in->opnds[0];
	return whole(fn, d) && fn->vregs[d->v].size == 1 && fn->vregs[d->v].file == MIR_VGPR &&
	       !mir_writes_exec(fn, in);
}

static bool mentions(const struct mir_insn *in, uint32_t vreg)
{
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == vreg)
			return true;
	return false;
}

/* Whether source operand k of instruction i of block b (writing v) can take v's name. */
static bool can_merge(const struct mir_function *fn, const struct dinfo *di, uint32_t b, uint32_t i,
                      unsigned k)
{
	const struct mir_block *bl = &fn->blocks[b];
	const struct mir_insn *in = &bl->insns[i];
	const struct mir_opnd *s = &in->opnds[k];
	uint32_t v = in->opnds[0].v;
	if (mir_opnd_is_def(in, k) || !whole(fn, s) || s->v == v)
		return false;
	const struct mir_vreg *vu = &fn->vregs[s->v], *vv = &fn->vregs[v];
	if (vu->file != vv->file || vu->size != vv->size || vu->align != vv->align)
		return false;
	const struct dinfo *x = &di[s->v];
	if (x->ndefs != 1 || x->nuses != 1 || x->partial || x->def_block != b ||
	    x->def_index >= i || i - x->def_index > MAX_DISTANCE)
		return false;
	for (unsigned j = 0; j < in->nopnds && j < AMD_MAX_OPNDS; j++)
		if (j != 0 && in->opnds[j].kind == MIR_VREG && in->opnds[j].v == v)
			return false;
	const struct mir_insn *def = &bl->insns[x->def_index];
	if (mir_writes_exec(fn, def))
		return false;
	for (unsigned j = 0; j < def->nopnds && j < AMD_MAX_OPNDS; j++)
		if (def->opnds[j].kind == MIR_VREG && def->opnds[j].v == v &&
		    mir_opnd_is_def(def, j))
			return false;
	for (uint32_t j = x->def_index + 1; j < i; j++)
		if (mentions(&bl->insns[j], v) || mir_writes_exec(fn, &bl->insns[j]))
			return false;
	return true;
}

static void rename_at(struct mir_insn *in, uint32_t from, uint32_t to)
{
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == from)
			in->opnds[k].v = to;
}

unsigned mir_coalesce_dying_sources(struct mir_function *fn)
{
	struct dinfo *di = PA_NEW_ARRAY(mir_pass_arena(fn), struct dinfo, fn->nvregs + 1);
	count(fn, di);
	unsigned merged = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = bl->ninsns; i-- > 0;) {
			struct mir_insn *in = &bl->insns[i];
			if (!updatable(fn, in))
				continue;
			for (unsigned k = 1; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				if (!can_merge(fn, di, b, i, k))
					continue;
				uint32_t u = in->opnds[k].v, v = in->opnds[0].v;
				rename_at(&bl->insns[di[u].def_index], u, v);
				in->opnds[k].v = v;
				di[u].ndefs = 0; /* u is gone */
				di[v].ndefs++;   /* v is defined at d too: never a u below */
				merged++;
				break;
			}
		}
	}
	return merged;
}
