/* mir_cse_copies: one VGPR copy of a uniform value per block instead of one per use.
 *
 * Selection materialises an SGPR or a constant in a VGPR wherever an instruction needs it
 * there (an address operand of ds_read, a second constant of a VOP2, ...), one COPY per
 * use, so unrolled code copies the same base address into a new VGPR for every access.
 * This pass is local value numbering of those copies: within a block, a COPY into a
 * single-definition VGPR vreg from an SGPR vreg or from an immediate that an earlier such
 * COPY already made (same source, same width) is deleted, and every use of its destination
 * anywhere in the function is renamed to the earlier destination.
 * Why this is right: both destinations are defined once (SSA), the earlier definition
 * comes first in the same block, so it dominates every use of the later one; and a
 * VALU write only touches the active lanes, so the table is forgotten at any instruction
 * that writes EXEC (the lanes of the two copies must be the same).  The source cannot
 * change in between: it is defined once, or (an SGPR defined several times, such as a
 * uniform loop counter's phi) the table is forgotten where it is written again.  It also
 * lets mir_pair_lds see that accesses share a base register.
 * Constants put in SGPRs (the literal operands a gfx9 VOP3 cannot encode: a 64-bit multiply
 * by a constant reads each half twice) are numbered the same way across the whole block
 * (an SGPR write does not depend on EXEC), for at most 16 distinct values per block.  A VGPR
 * copy of such an SGPR constant is numbered as a copy of the constant itself, so that the
 * copies of one value through its renamed SGPRs (gfx9's v_addc_co_u32 of a 64-bit constant's
 * high half, which needs a VGPR beside its carry: one per unrolled round) and a copy of the
 * immediate become one.
 * requires: MIR on virtual registers (after isel, before allocation).
 * Complexity: O(instructions x operands) with a hash table per block. */
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

struct cse_entry {
	uint64_t key; /* 0: empty */
	uint32_t vreg;
};

struct cse_table {
	struct cse_entry *slot;
	uint32_t mask;
	uint32_t *used; /* slots filled since the last clear */
	uint32_t nused;
};

static uint64_t copy_key(const struct mir_opnd *src, unsigned width)
{
	/* bit 63 set so that no key is 0; kind, width and sub, then the value */
	return (1ull << 63) | ((uint64_t)src->kind << 48) | ((uint64_t)width << 40) |
	       ((uint64_t)src->sub << 32) | src->v;
}

static struct cse_entry *lookup(struct cse_table *t, uint64_t key)
{
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & t->mask;
	while (t->slot[h].key && t->slot[h].key != key)
		h = (h + 1) & t->mask;
	return &t->slot[h];
}

static void clear(struct cse_table *t)
{
	for (uint32_t i = 0; i < t->nused; i++)
		t->slot[t->used[i]].key = 0;
	t->nused = 0;
}

/* The defs of `in` counted into `defs`: in the common case (no VOPD pair, no returned
 * value in front) the destinations are the row's DST operands, so the row is read once
 * and the operands past it are not looked at (seven passes count the defs). */
static void count_insn_defs(const struct mir_insn *in, uint8_t *defs)
{
	if (in->op == MIR_COPY || (in->flags & MIR_IF_DUAL) || mir_has_rtn_opnd(in)) {
		for (unsigned k = 0; k < in->nopnds; k++)
			if (in->opnds[k].kind == MIR_VREG && mir_opnd_is_def(in, k) &&
			    defs[in->opnds[k].v] < 2)
				defs[in->opnds[k].v]++;
		return;
	}
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	unsigned n = in->nopnds < row->nopnds ? in->nopnds : row->nopnds;
	for (unsigned k = 0; k < n; k++)
		if (row->opnds[k].role == AMD_ROLE_DST && in->opnds[k].kind == MIR_VREG &&
		    defs[in->opnds[k].v] < 2)
			defs[in->opnds[k].v]++;
}

uint8_t *mir_count_defs(const struct mir_function *fn)
{
	uint8_t *defs = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, fn->nvregs + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			count_insn_defs(&bl->insns[i], defs);
	}
	return defs;
}

static bool is_exec(const struct mir_opnd *o)
{
	return o->kind == MIR_SPECIAL &&
	       (o->v == AMD_SPEC_EXEC || o->v == AMD_SPEC_EXEC_LO || o->v == AMD_SPEC_EXEC_HI);
}

bool mir_writes_exec(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES)
		return is_exec(&in->opnds[0]);
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if ((row->flags & (AMD_F_EXEC_DST | AMD_F_WAVE_MASK)) ||
	    (amd_implicit_defs(fn->target, row) & AMD_IMP_EXEC))
		return true;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (is_exec(&in->opnds[k]) && mir_opnd_is_def(in, k))
			return true;
	return false;
}

/* Whether `in` ends a window of memory accesses that lds_pair.c and mem_widen.c merge: a
 * store, atomic, cache operation, branch, message (s_barrier, s_waitcnt's kin) or EXEC write. */
bool mir_ends_memory_window(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES)
		return mir_writes_exec(fn, in);
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if (row->flags & (AMD_F_STORE | AMD_F_ATOMIC | AMD_F_CACHE_CPOL | AMD_F_BRANCH))
		return true;
	if (row->unit == AMD_UNIT_MSG || row->unit == AMD_UNIT_BRANCH)
		return true;
	return mir_writes_exec(fn, in);
}

/* A constant put in an SGPR vreg defined once (a literal VOP3 cannot encode on gfx9): SGPR
 * writes do not depend on EXEC, so it is numbered across the whole block. */
static bool sgpr_constant(const struct mir_function *fn, const uint8_t *defs,
                          const struct mir_insn *in)
{
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return in->op == MIR_COPY && !(in->flags & MIR_IF_PARALLEL) && d->kind == MIR_VREG &&
	       defs[d->v] == 1 && d->sub == 0 && d->width == 1 && fn->vregs[d->v].size == 1 &&
	       fn->vregs[d->v].file == MIR_SGPR && s->kind == MIR_IMM;
}

/* A COPY this pass may number: into a VGPR vreg defined once, of the whole vreg, from an
 * immediate or from a whole or part of an SGPR vreg defined once. */
static bool numberable(const struct mir_function *fn, const uint8_t *defs,
                       const struct mir_insn *in)
{
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	if (in->op != MIR_COPY || (in->flags & MIR_IF_PARALLEL) || d->kind != MIR_VREG ||
	    defs[d->v] != 1 || d->sub != 0 || fn->vregs[d->v].file != MIR_VGPR ||
	    fn->vregs[d->v].size != d->width)
		return false;
	if (s->kind == MIR_IMM)
		return d->width == 1;
	return s->kind == MIR_VREG && fn->vregs[s->v].file == MIR_SGPR && s->width == d->width;
}

/* Whether `in` writes an SGPR vreg that an entry of the table copied (stamp[v] == gen):
 * a source defined more than once (a loop's phi) is numbered only until it changes. */
static bool redefines_source(const struct mir_insn *in, const uint32_t *stamp, uint32_t gen)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && mir_opnd_is_def(in, k) &&
		    stamp[in->opnds[k].v] == gen)
			return true;
	return false;
}

/* The SGPR constants of the block so far: at most MAX_SGPR_CONSTANTS distinct values are
 * kept alive for reuse, a bound on the SGPRs this pass can add to the pressure. */
enum { MAX_SGPR_CONSTANTS = 16 };
struct sgpr_constants {
	uint32_t value[MAX_SGPR_CONSTANTS], vreg[MAX_SGPR_CONSTANTS];
	unsigned n;
};

/* True (and dst renamed) when the block already holds value in an SGPR vreg. */
static bool number_sgpr_constant(struct sgpr_constants *st, uint32_t value, uint32_t dst,
                                 uint32_t *rename)
{
	for (unsigned k = 0; k < st->n; k++)
		if (st->value[k] == value) {
			rename[dst] = st->vreg[k];
			return true;
		}
	if (st->n < MAX_SGPR_CONSTANTS) {
		st->value[st->n] = value;
		st->vreg[st->n++] = dst;
	}
	return false;
}

/* The key of a numberable COPY's source: an SGPR vreg holding one of the block's constants
 * (after the renamings so far) is the constant's immediate. */
static uint64_t source_key(const struct sgpr_constants *st, const uint32_t *rename,
                           const struct mir_opnd *src, unsigned width)
{
	if (src->kind == MIR_VREG && width == 1 && src->sub == 0) {
		uint32_t v = rename[src->v];
		for (unsigned k = 0; k < st->n; k++)
			if (st->vreg[k] == v)
				return copy_key(
				        &(struct mir_opnd){.kind = MIR_IMM, .v = st->value[k]}, 1);
	}
	return copy_key(src, width);
}

void mir_cse_copies(struct mir_function *fn)
{
	uint8_t *defs = mir_count_defs(fn);
	uint32_t *rename = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		rename[v] = v;
	uint32_t max_insns = 1;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (fn->blocks[b].ninsns > max_insns)
			max_insns = fn->blocks[b].ninsns;
	struct cse_table t = {0};
	uint32_t size = 16;
	while (size < 2 * max_insns)
		size *= 2;
	t.slot = PA_NEW_ARRAY(mir_pass_arena(fn), struct cse_entry, size);
	t.mask = size - 1;
	t.used = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, max_insns + 1);
	bool any = false;
	struct sgpr_constants st = {0};
	uint32_t *stamp = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1), gen = 1;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		uint32_t out = 0;
		clear(&t);
		gen++;
		st.n = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct mir_insn *in = &bl->insns[i];
			if (redefines_source(in, stamp, gen)) {
				clear(&t);
				gen++;
			}
			if (sgpr_constant(fn, defs, in) &&
			    number_sgpr_constant(&st, in->opnds[1].v, in->opnds[0].v, rename)) {
				any = true;
				continue; /* dropped */
			}
			if (numberable(fn, defs, in)) {
				uint64_t key =
				        source_key(&st, rename, &in->opnds[1], in->opnds[0].width);
				struct cse_entry *e = lookup(&t, key);
				if (e->key) {
					rename[in->opnds[0].v] = e->vreg;
					any = true;
					continue; /* dropped */
				}
				e->key = key;
				e->vreg = in->opnds[0].v;
				t.used[t.nused++] = (uint32_t)(e - t.slot);
				if (in->opnds[1].kind == MIR_VREG && defs[in->opnds[1].v] > 1)
					stamp[in->opnds[1].v] = gen;
			} else if (mir_writes_exec(fn, in)) {
				clear(&t);
				gen++;
			}
			bl->insns[out++] = *in;
		}
		bl->ninsns = out;
	}
	if (!any)
		return;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG)
					o->v = rename[o->v];
			}
	}
}
