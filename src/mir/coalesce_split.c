/* Coalescing of phi copies made dword by dword, before allocation.
 *
 * A 64-bit value (a pointer stepped by a loop) is built by two one-dword definitions, the
 * low and high halves of a carry chain (`v_add_co_u32 V[0]`, `v_addc_co_u32 V[1]`), and a
 * phi of it becomes one parallel copy per dword (`P[0] <- V[0]`, `P[1] <- V[1]`).
 * mir_coalesce_phi_copies takes only copies of whole registers, so every loop that steps a
 * pointer ended each iteration in two v_mov (and its preheader in two more).  This pass
 * renames V to P in V's block and drops the copies when, for each dword k:
 *   - V is defined in one block B only, each dword by exactly one one-dword definition,
 *     all before the copies, none by an atomic returning into it; V is read only in B,
 *     after its last definition (so every reader sees all of it, now in P);
 *   - the parallel copies of B copy each V[k] into P[k] (same dword), P has V's file,
 *     size and alignment;
 *   - from V[k]'s definition to its copy nothing mentions dword k of P (the old P[k] is
 *     dead once V[k] exists; reads of P's other dwords are allowed: the high half's add
 *     reads P[1] after the low half is written); after the copy, P[k] is only read, and
 *     not by the copies of the same parallel copy (they read the old P[k]); nothing
 *     writes EXEC from the first definition to the last copy (both update the same
 *     lanes).
 * Then P[k] holds V[k]'s value from its definition on, exactly where V[k] did, and at the
 * end of B P holds what the copies gave it.  Registers never grow: V's interval merges
 * into P's, which was live across the same range.
 *   requires: virtual registers, after mir_coalesce_phi_copies.  breaks: nothing.
 *   complexity: O(instructions) to count, plus a scan of the rest of the block per
 *   candidate. */
#include <string.h>

#include "mir/mir.h"

enum { NONE = 0xffffffffu, MAX_DWORDS = 8, DELETED = MIR_NUM_OPS };

struct sinfo {
	uint32_t block;               /* the one block defining and reading it (NONE: none yet) */
	uint32_t def_at[MAX_DWORDS];  /* index of the definition of each dword */
	uint32_t last_def, first_use; /* in `block` */
	uint8_t defined;              /* bit k: dword k has its definition */
	bool bad;                     /* not a candidate (see the header) */
	bool renamed;                 /* renamed or renamed into: the figures above are stale */
};

static void note_block(struct sinfo *s, uint32_t b)
{
	if (s->block == NONE)
		s->block = b;
	else if (s->block != b)
		s->bad = true;
}

static void note_def(const struct mir_function *fn, struct sinfo *s, const struct mir_insn *in,
                     const struct mir_opnd *o, uint32_t b, uint32_t i)
{
	note_block(s, b);
	uint8_t bit = (uint8_t)(1u << (o->sub % MAX_DWORDS));
	if (o->width != 1 || o->sub >= MAX_DWORDS || fn->vregs[o->v].size < 2 ||
	    fn->vregs[o->v].size > MAX_DWORDS || (s->defined & bit) || in->rtn) {
		s->bad = true;
		return;
	}
	s->defined |= bit;
	s->def_at[o->sub] = i;
	s->last_def = i;
}

static void count(const struct mir_function *fn, struct sinfo *si)
{
	for (uint32_t v = 0; v <= fn->nvregs; v++) {
		si[v].block = NONE;
		si[v].first_use = NONE;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG)
					continue;
				struct sinfo *s = &si[o->v];
				if (mir_opnd_is_def(in, k)) {
					note_def(fn, s, in, o, b, i);
					continue;
				}
				note_block(s, b);
				s->bad |= in->rtn != 0;
				if (s->first_use == NONE)
					s->first_use = i;
			}
		}
}

/* Whether operand o names dword k of vreg p. */
static bool names_dword(const struct mir_function *fn, const struct mir_opnd *o, uint32_t p,
                        unsigned k)
{
	if (o->kind != MIR_VREG || o->v != p)
		return false;
	unsigned width = o->width ? o->width : fn->vregs[p].size;
	return k >= o->sub && k < (unsigned)o->sub + width;
}

static bool mentions_dword(const struct mir_function *fn, const struct mir_insn *in, uint32_t p,
                           unsigned k)
{
	for (unsigned j = 0; j < in->nopnds && j < AMD_MAX_OPNDS; j++)
		if (names_dword(fn, &in->opnds[j], p, k))
			return true;
	return false;
}

static bool defines_dword(const struct mir_function *fn, const struct mir_insn *in, uint32_t p,
                          unsigned k)
{
	for (unsigned j = 0; j < in->nopnds && j < AMD_MAX_OPNDS; j++)
		if (mir_opnd_is_def(in, j) && names_dword(fn, &in->opnds[j], p, k))
			return true;
	return false;
}

/* Whether in is a parallel copy of one dword of v into the same dword of another vreg. */
static bool is_split_copy_of(const struct mir_insn *in, uint32_t v)
{
	return in->op == MIR_COPY && (in->flags & MIR_IF_PARALLEL) &&
	       in->opnds[1].kind == MIR_VREG && in->opnds[1].v == v &&
	       in->opnds[0].kind == MIR_VREG && in->opnds[0].v != v && in->opnds[0].width == 1 &&
	       in->opnds[1].width == 1 && in->opnds[0].sub == in->opnds[1].sub;
}

/* The copies of V's dwords in block bl from index `from` on, all into one vreg: their
 * indices by dword in at[]; returns that vreg, or NONE when they are not exactly one copy
 * per dword into the same dwords of one vreg of V's kind. */
static uint32_t find_copies(const struct mir_function *fn, const struct mir_block *bl,
                            uint32_t from, uint32_t v, uint32_t *at)
{
	const struct mir_vreg *vr = &fn->vregs[v];
	uint32_t p = NONE;
	unsigned found = 0;
	for (unsigned k = 0; k < vr->size; k++)
		at[k] = NONE;
	for (uint32_t i = from; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op == DELETED || !is_split_copy_of(in, v))
			continue;
		uint32_t d = in->opnds[0].v;
		unsigned k = in->opnds[0].sub;
		if ((p != NONE && d != p) || k >= vr->size || at[k] != NONE)
			return NONE;
		p = d;
		at[k] = i;
		found++;
	}
	if (p == NONE || found != vr->size)
		return NONE;
	const struct mir_vreg *pr = &fn->vregs[p];
	if (pr->file != vr->file || pr->size != vr->size || pr->align % vr->align != 0)
		return NONE;
	return p;
}

/* Whether V (info s) can become P in block bl, given its copies at copy_at[]. */
static bool can_rename(const struct mir_function *fn, const struct mir_block *bl,
                       const struct sinfo *s, uint32_t v, uint32_t p, const uint32_t *copy_at)
{
	unsigned size = fn->vregs[v].size;
	uint32_t first_def = NONE, last_copy = 0;
	for (unsigned k = 0; k < size; k++) {
		if (copy_at[k] <= s->last_def)
			return false;
		if (s->def_at[k] < first_def)
			first_def = s->def_at[k];
		if (copy_at[k] > last_copy)
			last_copy = copy_at[k];
	}
	for (uint32_t i = first_def; i <= last_copy; i++)
		if (bl->insns[i].op != DELETED && mir_writes_exec(fn, &bl->insns[i]))
			return false;
	for (unsigned k = 0; k < size; k++) {
		bool in_copy_run = true; /* still in the parallel copy of copy_at[k] */
		for (uint32_t i = s->def_at[k] + 1; i < bl->ninsns; i++) {
			const struct mir_insn *in = &bl->insns[i];
			if (i == copy_at[k] || in->op == DELETED)
				continue;
			if (i > copy_at[k])
				in_copy_run &= (in->flags & MIR_IF_PARALLEL) != 0;
			if (!mentions_dword(fn, in, p, k))
				continue;
			/* P[k] after its copy: a later reader sees V[k] either way, unless it is a
			 * copy of the same parallel copy (which read the old P) or P[k] changes */
			if (i < copy_at[k] || in_copy_run || defines_dword(fn, in, p, k))
				return false;
		}
	}
	return true;
}

static void rename_from(struct mir_block *bl, uint32_t from, uint32_t v, uint32_t p)
{
	for (uint32_t i = from; i < bl->ninsns; i++) {
		struct mir_insn *in = &bl->insns[i];
		for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
			if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v)
				in->opnds[k].v = p;
	}
}

static unsigned coalesce_block(struct mir_function *fn, struct sinfo *si, uint32_t b)
{
	struct mir_block *bl = &fn->blocks[b];
	unsigned removed = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op != MIR_COPY || !(in->flags & MIR_IF_PARALLEL) ||
		    in->opnds[1].kind != MIR_VREG)
			continue;
		uint32_t v = in->opnds[1].v;
		struct sinfo *s = &si[v];
		unsigned size = fn->vregs[v].size;
		if (s->bad || s->renamed || s->block != b || size < 2 || size > MAX_DWORDS ||
		    s->defined != (uint8_t)((1u << size) - 1) || s->first_use <= s->last_def)
			continue;
		uint32_t copy_at[MAX_DWORDS];
		uint32_t p = find_copies(fn, bl, i, v, copy_at);
		if (p == NONE || !can_rename(fn, bl, s, v, p, copy_at))
			continue;
		uint32_t first_def = NONE;
		for (unsigned k = 0; k < size; k++) {
			bl->insns[copy_at[k]].op = DELETED;
			if (s->def_at[k] < first_def)
				first_def = s->def_at[k];
		}
		rename_from(bl, first_def, v, p);
		s->renamed = si[p].renamed = true;
		removed += size;
	}
	uint32_t out = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op != DELETED)
			bl->insns[out++] = bl->insns[i];
	bl->ninsns = out;
	return removed;
}

unsigned mir_coalesce_split_phi_copies(struct mir_function *fn)
{
	struct sinfo *si = PA_NEW_ARRAY(mir_pass_arena(fn), struct sinfo, fn->nvregs + 1);
	count(fn, si);
	unsigned removed = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		removed += coalesce_block(fn, si, b);
	return removed;
}
