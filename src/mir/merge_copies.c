/* Whole phi copies of values made whole, before allocation.
 *
 * Selection copies every multi-dword phi dword by dword (`P[0] <- V[0]`, `P[1] <- V[1]`, in
 * one parallel copy), which suits a 64-bit pointer whose halves two adds write
 * (mir_coalesce_split_phi_copies renames those).  A value one instruction writes whole (a
 * double updated in a loop, `v_add_f64 V`) is then left to two moves per iteration and two
 * registers: mir_coalesce_phi_copies takes only whole copies.  This pass merges such copies
 * into one whole `P <- V` of the same parallel copy when:
 *   - V has exactly one definition, and it writes all of V (not an atomic returning into
 *     it): values built dword by dword stay for mir_coalesce_split_phi_copies;
 *   - the parallel copy (one run of consecutive parallel COPYs) copies every dword k of V
 *     into dword k of P, once each, and P has V's file, size and alignment.
 * A parallel copy reads all its sources before it writes, so one whole copy there moves
 * exactly what the dword copies moved; mir_coalesce_phi_copies may then make V's
 * definition write P, or the allocator lowers it back to one move per dword.
 *   requires: virtual registers, before mir_coalesce_phi_copies.  breaks: nothing.
 *   complexity: O(instructions) to count, plus O(run length) per candidate copy. */
#include "mir/mir.h"

enum { MAX_DWORDS = 8, DELETED = MIR_NUM_OPS };

/* Per vreg: definitions, and whether the (only) one writes it whole. */
struct defs {
	uint32_t n;
	bool whole;
};

static void count(const struct mir_function *fn, struct defs *d)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG || !mir_opnd_is_def(in, k))
					continue;
				unsigned size = fn->vregs[o->v].size;
				d[o->v].n++;
				d[o->v].whole = o->sub == 0 &&
				                (o->width == 0 || o->width == size) && !in->rtn;
			}
		}
}

/* Whether `in` is a parallel copy of one dword of a vreg into the same dword of another. */
static bool is_dword_copy(const struct mir_insn *in)
{
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return in->op == MIR_COPY && (in->flags & MIR_IF_PARALLEL) && d->kind == MIR_VREG &&
	       s->kind == MIR_VREG && d->v != s->v && d->width == 1 && s->width == 1 &&
	       d->sub == s->sub;
}

/* In the parallel copy insns[first, end), the copy at `at` starts a full set of dword copies
 * of its source into its destination: their indices by dword in idx[]. */
static bool full_set(const struct mir_function *fn, const struct mir_insn *insns, uint32_t first,
                     uint32_t end, uint32_t at, uint32_t *idx)
{
	uint32_t p = insns[at].opnds[0].v, v = insns[at].opnds[1].v;
	const struct mir_vreg *pr = &fn->vregs[p], *vr = &fn->vregs[v];
	if (vr->size < 2 || vr->size > MAX_DWORDS || pr->file != vr->file || pr->size != vr->size ||
	    pr->align != vr->align)
		return false;
	for (unsigned k = 0; k < vr->size; k++)
		idx[k] = UINT32_MAX;
	for (uint32_t i = first; i < end; i++) {
		const struct mir_insn *in = &insns[i];
		if (in->op == DELETED)
			continue;
		bool names_v = in->opnds[1].kind == MIR_VREG && in->opnds[1].v == v;
		bool names_p = in->opnds[0].kind == MIR_VREG && in->opnds[0].v == p;
		if (!names_v && !names_p)
			continue;
		if (!names_v || !names_p || !is_dword_copy(in) ||
		    idx[in->opnds[0].sub] != UINT32_MAX)
			return false;
		idx[in->opnds[0].sub] = i;
	}
	for (unsigned k = 0; k < vr->size; k++)
		if (idx[k] == UINT32_MAX)
			return false;
	return true;
}

/* Merges the full sets of the parallel copy insns[first, end); returns the copies removed. */
static unsigned merge_run(const struct mir_function *fn, const struct defs *d,
                          struct mir_insn *insns, uint32_t first, uint32_t end)
{
	unsigned removed = 0;
	for (uint32_t i = first; i < end; i++) {
		struct mir_insn *in = &insns[i];
		uint32_t idx[MAX_DWORDS];
		if (in->op == DELETED || !is_dword_copy(in) || d[in->opnds[1].v].n != 1 ||
		    !d[in->opnds[1].v].whole || !full_set(fn, insns, first, end, i, idx))
			continue;
		uint32_t p = in->opnds[0].v, v = in->opnds[1].v, size = fn->vregs[v].size;
		for (unsigned k = 0; k < size; k++)
			if (idx[k] != i) {
				insns[idx[k]].op = DELETED;
				removed++;
			}
		in->opnds[0] = mir_vreg(p, size);
		in->opnds[1] = mir_vreg(v, size);
	}
	return removed;
}

unsigned mir_merge_dword_copies(struct mir_function *fn)
{
	struct defs *d = PA_NEW_ARRAY(mir_pass_arena(fn), struct defs, fn->nvregs + 1);
	count(fn, d);
	unsigned removed = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		unsigned here = 0;
		for (uint32_t i = 0; i < bl->ninsns;) {
			uint32_t end = i;
			while (end < bl->ninsns && bl->insns[end].op == MIR_COPY &&
			       (bl->insns[end].flags & MIR_IF_PARALLEL))
				end++;
			if (end == i) {
				i++;
				continue;
			}
			here += merge_run(fn, d, bl->insns, i, end);
			i = end;
		}
		if (!here)
			continue;
		uint32_t out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (bl->insns[i].op != DELETED)
				bl->insns[out++] = bl->insns[i];
		bl->ninsns = out;
		removed += here;
	}
	return removed;
}
