/* mir_pack_f32: two independent f32 fma/mul/add of a block become one packed instruction.
 *
 * gfx90a and gfx942 have v_pk_fma_f32, v_pk_mul_f32 and v_pk_add_f32: one VALU issue does
 * the f32 operation on both dwords of 64-bit (even-aligned) register pairs, at the rate of
 * v_fma_f32 (the CDNA2/CDNA3 FP32 vector peak is twice the FP32 rate through them).  Each
 * source is a pair; op_sel bit k picks which dword of source k feeds the low result dword,
 * op_sel_hi bit k which feeds the high one, neg_lo/neg_hi negate them.  So an unrolled loop's
 * or a vector's f32 arithmetic (x.lo op y.lo, x.hi op y.hi) costs one issue per two values.
 *
 * Two instructions i < j of one block pair when they are the same row among v_fma_f32,
 * v_mul_f32 and v_add_f32 (v_sub_f32 and v_subrev_f32 counting as v_add_f32), with no abs, clamp,
 * output modifier or DPP (neg becomes neg_lo/neg_hi, which negates the same operand), and every
 * operand a one-dword VGPR value such that, source position by source position, the two operands
 * are
 *   - two dwords of one aligned pair of a wider vreg (in either order), or the same dword
 *     of one (read by both halves through op_sel/op_sel_hi), or
 *   - two different one-dword vregs, which are renamed everywhere to the two dwords of a
 *     new 2-dword vreg (a pure renaming: the dwords are disjoint registers), or one
 *     one-dword vreg read by both halves, renamed to dword 0 of a new pair whose dword 1
 *     nothing writes (liveness.c counts only the dwords op_sel/op_sel_hi pick as read);
 * the destinations likewise (two dwords of one pair, or two one-dword vregs renamed).  The
 * renamings must agree (a vreg goes to one place).  Moving j up to i is right when nothing
 * between writes j's sources or mentions j's destination, i does not write j's sources,
 * and EXEC is not written between (the packed instruction writes both results with i's
 * lanes); the packed instruction reads all its sources before writing, as the pair did.
 *
 * Float semantics: each half of the packed instruction is the f32 operation of
 * v_fma/v_mul/v_add_f32 under the same MODE register (rounding, denormals), with the same
 * NaN handling, so only instructions that run in the kernel's one MODE are paired: a
 * function that writes MODE (s_setreg, s_round_mode, s_denorm_mode: directed rounding)
 * is left alone.  (Selection rejects f32 .rz/.rm/.rp and per-instruction .ftz, and .sat is
 * the clamp bit, which is never paired.)  v_sub_f32 a, b and v_subrev_f32 b, a pair as
 * v_pk_add_f32 with b negated (neg_lo/neg_hi), also beside a v_add_f32: IEEE 754 defines
 * a - b as a + (-b), rounding and the signs of zero results included; only the sign bit of a
 * NaN result taken from b may differ, and which NaN f32 arithmetic returns is what
 * docs/FLOAT.md leaves unmatched (NVIDIA's hardware returns the canonical NaN, AMD's
 * propagates an operand's payload).
 *
 * Registers: a renamed pair lives over the union of its two values' ranges and its dwords
 * are allocated together (aligned), which may cost registers; no copy is ever added.
 * requires: MIR on virtual registers before allocation, after the other clean-ups (then
 * mir_fold_sdwa). breaks: nothing.  complexity: O(instructions x WINDOW x operands) plus one
 * renaming sweep (whether j can move up to i is looked up in marks of what the window so far
 * writes and names, per vreg, instead of walking the instructions between for every
 * candidate j). */
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

enum { WINDOW = 48, MAX_SRCS = 3, MAX_MERGES = MAX_SRCS + 1, UNMAPPED = 0xffffffffu };
enum { MARK_SLOTS = 512 }; /* a power of two above WINDOW x AMD_MAX_OPNDS */
_Static_assert(MARK_SLOTS > WINDOW * AMD_MAX_OPNDS, "a window's vregs fit in the marks");

struct pack {
	struct mir_function *fn;
	uint32_t nvregs; /* vregs before the pass (the renamable ones) */
	uint32_t *map_v; /* renamed one-dword vreg: its tuple and dword (UNMAPPED: none) */
	uint8_t *map_sub;
	bool *dead; /* per instruction of the current block: merged into an earlier one */
	unsigned npacked;
	/* The dwords the instructions from i up to the candidate j write, and those after i
	 * mention, per vreg: movable's test is then a look-up per operand of j instead of a
	 * walk over the instructions between.  A small open-addressed table (a window names
	 * at most WINDOW x AMD_MAX_OPNDS vregs; an entry counts where its stamp is `scan`), so
	 * nothing is allocated.  `wide`: an operand past dword 63 was met, and the walk is
	 * taken. */
	struct mark {
		uint32_t v, stamp;
		uint64_t written, mentioned;
	} marks[MARK_SLOTS];
	uint32_t scan;
	bool wide;
};

/* A one-dword value: vreg v, dword sub (after the renamings so far). */
struct loc {
	uint32_t v;
	uint8_t sub;
};

/* Two one-dword vregs to become dwords 0 and 1 of a new tuple; hi UNMAPPED: lo alone becomes
 * dword 0 of a pair whose dword 1 nothing writes (a value both halves read). */
struct merge {
	uint32_t lo, hi;
};

struct plan {
	struct merge merges[MAX_MERGES];
	unsigned nmerges;
	struct loc opnd[MAX_SRCS + 1]; /* first dword of each 2-dword operand (v UNMAPPED: a
	                                  merge, index in `merge_of`) */
	unsigned merge_of[MAX_SRCS + 1];
	uint8_t op_sel, op_sel_hi;
};

static unsigned packed_row(unsigned op)
{
	switch (op) {
	case AMD_OP_V_FMA_F32:
		return AMD_OP_V_PK_FMA_F32;
	case AMD_OP_V_MUL_F32:
		return AMD_OP_V_PK_MUL_F32;
	case AMD_OP_V_ADD_F32:
	case AMD_OP_V_SUB_F32:
	case AMD_OP_V_SUBREV_F32:
		return AMD_OP_V_PK_ADD_F32;
	default:
		return 0;
	}
}

/* The neg bits (bit k: source k) that make in's row the packed row's operation on its
 * sources: a - b is a + (-b), subrev's b - a is (-a) + b. */
static uint8_t neg_bits(const struct mir_insn *in)
{
	unsigned row_neg = in->op == AMD_OP_V_SUB_F32      ? 2u
	                   : in->op == AMD_OP_V_SUBREV_F32 ? 1u
	                                                   : 0u;
	return (uint8_t)(in->neg ^ row_neg);
}

static struct loc resolve(const struct pack *pk, const struct mir_opnd *o)
{
	if (o->v < pk->nvregs && pk->map_v[o->v] != UNMAPPED)
		return (struct loc){pk->map_v[o->v], (uint8_t)(pk->map_sub[o->v] + o->sub)};
	return (struct loc){o->v, o->sub};
}

/* Whether operand o is a one-dword VGPR vreg value. */
static bool vgpr_dword(const struct pack *pk, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->width == 1 && pk->fn->vregs[o->v].file == MIR_VGPR;
}

/* Whether in can be half of a packed instruction. */
static bool candidate(const struct pack *pk, const struct mir_insn *in)
{
	if (!packed_row(in->op) || in->flags || in->abs || in->clamp || in->omod || in->dpp ||
	    in->op_sel || in->neg_hi || in->op_sel_hi_set)
		return false;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (!vgpr_dword(pk, &in->opnds[k]))
			return false;
	return true;
}

/* Whether one of in's operands (only its definitions when `defs`) covers dword l. */
static bool touches(const struct pack *pk, const struct mir_insn *in, struct loc l, bool defs)
{
	for (unsigned k = 0; k < in->nopnds; k++) {
		const struct mir_opnd *o = &in->opnds[k];
		if (o->kind != MIR_VREG || (defs && !mir_opnd_is_def(in, k)))
			continue;
		struct loc r = resolve(pk, o);
		if (r.v == l.v && l.sub >= r.sub && l.sub < r.sub + o->width)
			return true;
	}
	return false;
}

/* Whether j can move up to i: nothing in [i, j) writes j's sources, nothing in (i, j)
 * mentions j's destination or writes EXEC. */
static bool movable(const struct pack *pk, const struct mir_block *bl, uint32_t i, uint32_t j)
{
	const struct mir_insn *jn = &bl->insns[j];
	struct loc dst = resolve(pk, &jn->opnds[0]);
	for (uint32_t k = i; k < j; k++) {
		const struct mir_insn *in = &bl->insns[k];
		if (pk->dead[k])
			continue;
		if (k > i && (mir_writes_exec(pk->fn, in) || touches(pk, in, dst, false)))
			return false;
		for (unsigned s = 1; s < jn->nopnds; s++)
			if (touches(pk, in, resolve(pk, &jn->opnds[s]), true))
				return false;
	}
	return true;
}

/* Starts the marks for a new i (scan 0 is never a live stamp). */
static void marks_begin(struct pack *pk)
{
	if (++pk->scan == 0) {
		memset(pk->marks, 0, sizeof pk->marks);
		pk->scan = 1;
	}
	pk->wide = false;
}

/* The entry of vreg v in this scan's marks; `add`: made when missing (else NULL). */
static struct mark *mark_of(struct pack *pk, uint32_t v, bool add)
{
	for (uint32_t h = (v * 2654435761u) >> 23;; h = (h + 1) & (MARK_SLOTS - 1)) {
		struct mark *m = &pk->marks[h];
		if (m->stamp != pk->scan) {
			if (!add)
				return NULL;
			*m = (struct mark){.v = v, .stamp = pk->scan};
			return m;
		}
		if (m->v == v)
			return m;
	}
}

/* Marks the dwords instruction `in` writes and, when it comes after i (`mentions`), all the
 * dwords it names (as touches() covers them). */
static void marks_add(struct pack *pk, const struct mir_insn *in, bool mentions)
{
	for (unsigned k = 0; k < in->nopnds; k++) {
		const struct mir_opnd *o = &in->opnds[k];
		if (o->kind != MIR_VREG)
			continue;
		struct loc r = resolve(pk, o);
		if (r.sub + o->width > 64) {
			pk->wide = true;
			continue;
		}
		struct mark *m = mark_of(pk, r.v, true);
		uint64_t bits = (o->width >= 64 ? ~0ull : (1ull << o->width) - 1) << r.sub;
		if (mir_opnd_is_def(in, k))
			m->written |= bits;
		if (mentions)
			m->mentioned |= bits;
	}
}

/* Whether dword l is among the written (or else mentioned) marks. */
static bool marked(struct pack *pk, bool written, struct loc l)
{
	const struct mark *m = mark_of(pk, l.v, false);
	return m && ((written ? m->written : m->mentioned) >> l.sub & 1);
}

/* movable(pk, bl, i, j) from the marks of the instructions in [i, j) that are not dead.  No
 * instruction between writes EXEC: pack_block's scan stops at one. */
static bool movable_marked(struct pack *pk, const struct mir_block *bl, uint32_t i, uint32_t j)
{
	const struct mir_insn *jn = &bl->insns[j];
	if (pk->wide || jn->opnds[0].sub >= 64)
		return movable(pk, bl, i, j);
	struct loc dst = resolve(pk, &jn->opnds[0]);
	if (dst.sub >= 64 || marked(pk, false, dst))
		return false;
	for (unsigned s = 1; s < jn->nopnds; s++) {
		struct loc l = resolve(pk, &jn->opnds[s]);
		if (l.sub >= 64)
			return movable(pk, bl, i, j);
		if (marked(pk, true, l))
			return false;
	}
	return true;
}

/* Adds the merge (lo, hi) to the plan unless it is there; false if it contradicts one. */
static bool add_merge(struct plan *p, uint32_t lo, uint32_t hi, unsigned *index)
{
	for (unsigned m = 0; m < p->nmerges; m++) {
		const struct merge *e = &p->merges[m];
		if (e->lo == lo && e->hi == hi) {
			*index = m;
			return true;
		}
		if (e->lo == lo || e->lo == hi ||
		    (e->hi != UNMAPPED && (e->hi == lo || e->hi == hi)))
			return false;
	}
	*index = p->nmerges;
	p->merges[p->nmerges++] = (struct merge){lo, hi};
	return true;
}

/* Operand position k of the pair: a dword pair of one tuple, or a merge of two one-dword
 * vregs. */
static bool plan_opnd(const struct pack *pk, struct plan *p, unsigned k, const struct mir_opnd *a,
                      const struct mir_opnd *b)
{
	struct loc la = resolve(pk, a), lb = resolve(pk, b);
	const struct mir_vreg *va = &pk->fn->vregs[la.v];
	if (la.v == lb.v && va->size == 1 && k > 0) { /* one value read by both halves */
		if (la.v >= pk->nvregs || pk->map_v[la.v] != UNMAPPED)
			return false;
		p->opnd[k] = (struct loc){UNMAPPED, 0};
		return add_merge(p, la.v, UNMAPPED, &p->merge_of[k]);
	}
	if (la.v == lb.v) {
		if (va->size < 2 || va->align < 2 || (la.sub >> 1) != (lb.sub >> 1) ||
		    (la.sub | 1u) >= va->size)
			return false;
		p->opnd[k] = (struct loc){la.v, (uint8_t)(la.sub & ~1u)};
		if (k > 0) {
			p->op_sel |= (uint8_t)((la.sub & 1u) << (k - 1));
			p->op_sel_hi |= (uint8_t)((lb.sub & 1u) << (k - 1));
		}
		return k > 0 || (la.sub == (la.sub & ~1u) && lb.sub == la.sub + 1);
	}
	const struct mir_vreg *vb = &pk->fn->vregs[lb.v];
	if (la.v >= pk->nvregs || lb.v >= pk->nvregs || va->size != 1 || vb->size != 1 ||
	    pk->map_v[la.v] != UNMAPPED || pk->map_v[lb.v] != UNMAPPED)
		return false;
	p->opnd[k] = (struct loc){UNMAPPED, 0};
	if (k > 0)
		p->op_sel_hi |= (uint8_t)(1u << (k - 1));
	return add_merge(p, la.v, lb.v, &p->merge_of[k]);
}

/* The plan for pairing i and j (same row), or false. */
static bool plan_pair(const struct pack *pk, const struct mir_insn *a, const struct mir_insn *b,
                      struct plan *p)
{
	memset(p, 0, sizeof *p);
	struct loc da = resolve(pk, &a->opnds[0]), db = resolve(pk, &b->opnds[0]);
	if (da.v == db.v && da.sub == db.sub)
		return false;
	for (unsigned k = 1; k < b->nopnds; k++) { /* j must not read i's result */
		struct loc l = resolve(pk, &b->opnds[k]);
		if (l.v == da.v && l.sub == da.sub)
			return false;
	}
	for (unsigned k = 0; k < a->nopnds; k++)
		if (!plan_opnd(pk, p, k, &a->opnds[k], &b->opnds[k]))
			return false;
	return true;
}

static void apply(struct pack *pk, struct mir_insn *a, const struct mir_insn *b,
                  const struct plan *p)
{
	uint32_t tuple[MAX_MERGES];
	for (unsigned m = 0; m < p->nmerges; m++) {
		tuple[m] = mir_new_vreg(pk->fn, MIR_VGPR, 2, 2);
		pk->map_v[p->merges[m].lo] = tuple[m], pk->map_sub[p->merges[m].lo] = 0;
		if (p->merges[m].hi != UNMAPPED)
			pk->map_v[p->merges[m].hi] = tuple[m], pk->map_sub[p->merges[m].hi] = 1;
	}
	struct mir_insn in = *a;
	in.op = (uint16_t)packed_row(a->op);
	for (unsigned k = 0; k < a->nopnds; k++) {
		const struct loc *l = &p->opnd[k];
		in.opnds[k] =
		        l->v == UNMAPPED
		                ? mir_vreg(tuple[p->merge_of[k]], 2)
		                : (struct mir_opnd){
		                          .kind = MIR_VREG, .sub = l->sub, .width = 2, .v = l->v};
	}
	in.neg = neg_bits(a), in.neg_hi = neg_bits(b);
	in.op_sel = p->op_sel, in.op_sel_hi = p->op_sel_hi, in.op_sel_hi_set = true;
	in.enc = 0;
	*a = in;
	pk->npacked++;
}

static void pack_block(struct pack *pk, uint32_t b)
{
	struct mir_block *bl = &pk->fn->blocks[b];
	pk->dead = PA_NEW_ARRAY(mir_pass_arena(pk->fn), bool, bl->ninsns + 1);
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		if (pk->dead[i] || !candidate(pk, &bl->insns[i]))
			continue;
		uint32_t end = bl->ninsns - i > WINDOW ? i + WINDOW : bl->ninsns;
		marks_begin(pk);
		uint32_t marked_to = i; /* the marks hold [i, marked_to) (made when first needed) */
		for (uint32_t j = i + 1; j < end; j++) {
			const struct mir_insn *jn = &bl->insns[j];
			if (pk->dead[j])
				continue;
			if (mir_writes_exec(pk->fn, jn))
				break;
			struct plan p;
			if (packed_row(jn->op) != packed_row(bl->insns[i].op) ||
			    !candidate(pk, jn) || !plan_pair(pk, &bl->insns[i], jn, &p))
				continue;
			for (; marked_to < j; marked_to++)
				if (!pk->dead[marked_to])
					marks_add(pk, &bl->insns[marked_to], marked_to > i);
			if (movable_marked(pk, bl, i, j)) {
				apply(pk, &bl->insns[i], jn, &p);
				pk->dead[j] = true;
				break;
			}
		}
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (!pk->dead[i])
			bl->insns[n++] = bl->insns[i];
	bl->ninsns = n;
}

/* Whether the function changes the MODE register (its f32 ops may then run in a rounding
 * mode the pairing does not see). */
static bool writes_mode(const struct mir_function *fn)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			unsigned op = fn->blocks[b].insns[i].op;
			if (op == AMD_OP_S_SETREG_B32 || op == AMD_OP_S_ROUND_MODE ||
			    op == AMD_OP_S_DENORM_MODE)
				return true;
		}
	return false;
}

static void rename_all(struct pack *pk)
{
	struct mir_function *fn = pk->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG || o->v >= pk->nvregs ||
				    pk->map_v[o->v] == UNMAPPED)
					continue;
				o->sub = (uint8_t)(o->sub + pk->map_sub[o->v]);
				o->v = pk->map_v[o->v];
			}
		}
}

unsigned mir_pack_f32(struct mir_function *fn)
{
	enum amd_gen gen = fn->target->info->gen;
	if (amd_isa_rows[AMD_OP_V_PK_FMA_F32].opcode[gen] < 0 || writes_mode(fn))
		return 0;
	struct pack pk = {.fn = fn, .nvregs = fn->nvregs};
	pk.map_v = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	pk.map_sub = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		pk.map_v[v] = UNMAPPED;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		pack_block(&pk, b);
	if (pk.npacked)
		rename_all(&pk);
	return pk.npacked;
}
