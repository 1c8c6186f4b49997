/* mir_hoist_loop_constants: constants that selection materialises inside a loop
 * (`COPY %s, 0x38e38e39` for a VOP3 operand gfx9 cannot take as a literal, `COPY %v,
 * 0xfffffd44` for a compare's second operand, `COPY %v, %s[1:1]` for the high dword of a
 * 64-bit add whose carry already takes the constant bus) move to the block before the loop,
 * so they run once instead of every iteration (stencil2d: one s_mov and two v_mov per
 * unrolled step).
 *
 * Loops in the linear order.  Selection keeps a loop's blocks contiguous, header first
 * (ir.h's linear order), and a branch back to a block at or before its own position is a
 * loop's back edge: the loop is [h, last], last the latest block that branches back to h.
 * It is used only when its entry is one edge: every edge into [h, last] from outside comes
 * from block h - 1 and goes to h.  Then h - 1 runs before each entry, with the lanes that
 * enter (the linear CFG holds every path a lane takes), and nothing in the loop runs
 * without it having run first.
 *
 * What moves.  A COPY (not part of a parallel copy) into a virtual register defined nowhere
 * else, from a 32-bit constant or from an SGPR virtual register defined once, in a block
 * before h: its value is the same in every iteration, and the one definition at the end of
 * h - 1 reaches every use the old one reached.  An SGPR destination moves freely (s_mov does
 * not read EXEC).  A VGPR destination is written only in the lanes active at h - 1, which
 * are all the lanes that run the loop -- unless the loop writes EXEC from a constant (the
 * matrix units' all-lanes sections), where lanes inactive at h - 1 may read it: then VGPR
 * copies stay.  Register pressure: a moved value is live through the whole loop, so at most
 * MAX_VGPR (VGPRs limit occupancy) and MAX_SGPR values per loop move, and equal constants
 * moved to one block become one register (the later ones' reads are renamed).  Inner loops
 * go first (smaller ranges), so a constant climbs out of a nest one loop at a time.
 * requires: virtual registers (before allocation), linear order as selection left it.
 * Complexity: O(loops x instructions in them + instructions) per function. */
#include <string.h>

#include "mir/mir.h"

enum { MAX_VGPR = 2, MAX_SGPR = 8 };

struct loop_range {
	uint32_t head, last;
};

/* The loops: for each block h, the latest block at or after it that branches back to it. */
static uint32_t find_loops(const struct mir_function *fn, struct loop_range *out)
{
	uint32_t n = 0;
	uint32_t *last = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nblocks + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		last[b] = UINT32_MAX;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (unsigned k = 0; k < fn->blocks[b].nsucc; k++) {
			uint32_t s = fn->blocks[b].succ[k];
			if (s <= b && (last[s] == UINT32_MAX || b > last[s]))
				last[s] = b;
		}
	for (uint32_t b = 1; b < fn->nblocks; b++)
		if (last[b] != UINT32_MAX)
			out[n++] = (struct loop_range){b, last[b]};
	return n;
}

/* Whether the only edge into [r.head, r.last] from outside is r.head - 1 -> r.head. */
static bool one_entry(const struct mir_function *fn, struct loop_range r)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (b >= r.head && b <= r.last)
			continue;
		for (unsigned k = 0; k < fn->blocks[b].nsucc; k++) {
			uint32_t s = fn->blocks[b].succ[k];
			if (s >= r.head && s <= r.last && (s != r.head || b != r.head - 1))
				return false;
		}
	}
	return true;
}

static bool writes_exec_from_constant(const struct mir_function *fn, const struct mir_insn *in)
{
	if (!mir_writes_exec(fn, in))
		return false;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (!mir_opnd_is_def(in, k) && in->opnds[k].kind == MIR_IMM)
			return true;
	return false;
}

struct hoist {
	struct mir_function *fn;
	uint8_t *defs;     /* mir_count_defs */
	uint32_t *def_blk; /* the block of each once-defined vreg's definition */
	uint32_t *rename;  /* vreg -> the register to read instead (itself: none) */
	uint32_t *hoisted; /* per vreg: the preheader it was moved to + 1 (0: not moved) */
};

/* Whether `in`, in the loop r, may move to its preheader (see the header); *vgpr: its
 * destination is a VGPR. */
static bool movable(const struct hoist *h, const struct mir_insn *in, struct loop_range r,
                    bool *vgpr)
{
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	if (in->op != MIR_COPY || (in->flags & MIR_IF_PARALLEL) || d->kind != MIR_VREG ||
	    d->sub != 0 || d->width != 1 || h->defs[d->v] != 1 || h->fn->vregs[d->v].size != 1)
		return false;
	*vgpr = h->fn->vregs[d->v].file == MIR_VGPR;
	if (s->kind == MIR_IMM)
		return true;
	if (s->kind != MIR_VREG || !*vgpr || h->fn->vregs[s->v].file != MIR_SGPR ||
	    h->defs[s->v] != 1)
		return false;
	return h->def_blk[s->v] < r.head; /* defined before the loop (not moved into it) */
}

/* An earlier constant of the same file and bits moved to block p, or UINT32_MAX. */
static uint32_t same_in(const struct hoist *h, uint32_t p, const struct mir_insn *in)
{
	const struct mir_block *bl = &h->fn->blocks[p];
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *o = &bl->insns[i];
		if (o->op != MIR_COPY || o->opnds[0].kind != MIR_VREG ||
		    h->hoisted[o->opnds[0].v] != p + 1)
			continue;
		if (h->fn->vregs[o->opnds[0].v].file == h->fn->vregs[in->opnds[0].v].file &&
		    o->opnds[1].kind == in->opnds[1].kind && o->opnds[1].v == in->opnds[1].v &&
		    o->opnds[1].sub == in->opnds[1].sub)
			return o->opnds[0].v;
	}
	return UINT32_MAX;
}

/* Where in block p a new instruction goes: before its terminator, if it has one. */
static uint32_t end_of(const struct mir_block *bl)
{
	return bl->ninsns && mir_is_terminator(&bl->insns[bl->ninsns - 1]) ? bl->ninsns - 1
	                                                                   : bl->ninsns;
}

static unsigned hoist_loop(struct hoist *h, struct loop_range r)
{
	struct mir_function *fn = h->fn;
	bool vgpr_ok = true;
	for (uint32_t b = r.head; b <= r.last && vgpr_ok; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			if (writes_exec_from_constant(fn, &fn->blocks[b].insns[i]))
				vgpr_ok = false;
	unsigned nv = 0, ns = 0, moved = 0;
	uint32_t p = r.head - 1;
	for (uint32_t b = r.head; b <= r.last; b++) {
		struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns;) {
			struct mir_insn in = bl->insns[i];
			bool vgpr;
			if (!movable(h, &in, r, &vgpr) || (vgpr && !vgpr_ok)) {
				i++;
				continue;
			}
			uint32_t same = same_in(h, p, &in);
			if (same == UINT32_MAX && (vgpr ? nv >= MAX_VGPR : ns >= MAX_SGPR)) {
				i++;
				continue;
			}
			memmove(&bl->insns[i], &bl->insns[i + 1],
			        (bl->ninsns - i - 1) * sizeof *bl->insns);
			bl->ninsns--;
			moved++;
			if (same != UINT32_MAX) { /* one register for both */
				h->rename[in.opnds[0].v] = same;
				continue;
			}
			mir_insert(fn, p, end_of(&fn->blocks[p]), &in);
			h->hoisted[in.opnds[0].v] = p + 1;
			h->def_blk[in.opnds[0].v] = p;
			nv += vgpr;
			ns += !vgpr;
		}
	}
	return moved;
}

/* Reads of renamed registers read their final name (a register renamed to one that was
 * itself renamed, in an outer loop's preheader, follows the chain). */
static void apply_renames(struct hoist *h)
{
	struct mir_function *fn = h->fn;
	for (uint32_t v = 0; v < fn->nvregs; v++) {
		uint32_t to = h->rename[v];
		while (h->rename[to] != to)
			to = h->rename[to];
		h->rename[v] = to;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_VREG)
					in->opnds[k].v = h->rename[in->opnds[k].v];
		}
}

unsigned mir_hoist_loop_constants(struct mir_function *fn)
{
	struct loop_range *loops =
	        PA_NEW_ARRAY(mir_pass_arena(fn), struct loop_range, fn->nblocks + 1);
	uint32_t nloops = find_loops(fn, loops);
	if (nloops == 0)
		return 0;
	struct hoist h = {.fn = fn, .defs = mir_count_defs(fn)};
	h.def_blk = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	h.rename = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	h.hoisted = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		h.rename[v] = v;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_VREG && mir_opnd_is_def(in, k))
					h.def_blk[in->opnds[k].v] = b;
		}
	unsigned moved = 0;
	/* inner loops first: the shorter ranges (a nest's inner loop lies inside the outer) */
	for (uint32_t done = 0; done < nloops; done++) {
		uint32_t best = UINT32_MAX;
		for (uint32_t l = 0; l < nloops; l++)
			if (loops[l].head != UINT32_MAX &&
			    (best == UINT32_MAX ||
			     loops[l].last - loops[l].head < loops[best].last - loops[best].head))
				best = l;
		if (one_entry(fn, loops[best]))
			moved += hoist_loop(&h, loops[best]);
		loops[best].head = UINT32_MAX;
	}
	if (moved)
		apply_renames(&h);
	return moved;
}
