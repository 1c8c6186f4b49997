/* mir_widen_memory: adjacent one-dword loads and stores become one wide access.
 *
 * PTX splits vectors and unrolled loops into scalar accesses (ld.v4 is four loads in the
 * IR, a tile row a[k..k+3] four ld.shared.f32), each a separate memory instruction here.
 * One global_load_dwordx2/x3/x4 or ds_read_b128 does the work of two to four of them:
 * fewer instructions issued, fewer counter slots, one LDS or VMEM request.
 *   - Global loads (global_load_dword) from the same address operands (the 64-bit VGPR
 *     address, or the SGPR base and the 32-bit VGPR offset) at consecutive dword offsets
 *     with the same cache policy become one x2/x3/x4 load: a multi-dword global access
 *     needs only dword alignment (AMD's ISA manuals: buffer/global dword accesses of any
 *     width are dword aligned), which the one-dword loads already had.
 *   - LDS loads (ds_read_b32) of four consecutive dwords whose first address is a proven
 *     multiple of 16 become ds_read_b128 (which, in the aligned access mode this code
 *     assumes, needs 16-byte alignment; the pairs that do not qualify are left to
 *     mir_pair_lds's ds_read2_b32, which needs only dword alignment).  Addresses are
 *     (root, constant) as in lds_pair.c; the alignment of a root comes from a known-zero
 *     low bits analysis of its definitions (shifts, adds, masks, products, constants:
 *     the .shared variables sit at 16-byte aligned LDS offsets, select.c).
 * The wide load takes the place of the earliest of its loads and writes a new vreg; the
 * uses of the old destinations (each a one-dword vreg defined once) become its dwords.
 * Moving a later load up is right only if nothing between could change the memory or the
 * lanes: a window of candidates closes at any store, atomic, cache control, barrier,
 * message, wait, branch or EXEC write (the rule of lds_pair.c).  Loads with a cache policy
 * other than the default are left alone (volatile/acquire orderings around them).
 * Stores (global_store_dword, ds_write_b32) the same way, in a second phase: the wide
 * store (global_store_dwordx2/x3/x4, ds_write_b128 at a proven multiple of 16) takes the
 * place of the LAST of its stores, and the data (each a one-dword VGPR vreg defined once,
 * earlier in the block, by the first operand of an instruction without a tied destination)
 * are renamed to the dwords of a new tuple, so they are computed in place and no copy is
 * needed.  Moving an earlier store down is right only if nothing between could read or
 * write the same memory: a store window holds stores through one address register (or
 * LDS root) to distinct addresses, and closes at any access of the same memory (DS or
 * FLAT for LDS; anything but DS for global memory) and at what closes a load window.
 * requires: MIR on virtual registers before allocation, after mir_cse_copies (copies of
 * one SGPR share a root) and before mir_pair_lds (which pairs what is left).
 * Complexity: O(instructions x operands) per round of the alignment analysis (rounds are
 * bounded: known bits only ever shrink; it runs only in a phase whose function has one-dword
 * LDS accesses), plus a sort of each window's candidates; a phase without one-dword accesses
 * of its kind is one scan. */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

enum { WINDOW_MAX = 64, NO_DEF = 0xffffffffu, ALIGN_ROUNDS = 8 };

struct cand {
	uint32_t pos;    /* index in the block */
	uint32_t key[4]; /* what must be equal: kind (1: LDS), address operands or root */
	int64_t addr;    /* byte address from the key's base */
	uint32_t dst;    /* the destination vreg (one dword, defined once) */
	uint32_t base;   /* LDS: the load's own address vreg and offset */
	int32_t off;
};

struct widen {
	struct mir_function *fn;
	const uint8_t *defs;
	uint32_t nvregs;
	uint32_t *def_block, *def_pos;
	uint8_t *tz; /* per vreg: low bits of its first dword known to be zero (0..32) */
	uint32_t *ren_vreg;
	uint8_t *ren_sub;
	bool *claimed; /* stores: data vregs already given a place in a tuple */
	bool *dead;
	uint32_t *dead_base;
	bool any;
};

/* ---- known zero low bits ---- */

static unsigned ctz32(uint32_t x)
{
	return x ? (unsigned)__builtin_ctz(x) : 32;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* Known zero low bits of a one-dword source operand. */
static unsigned opnd_tz(const struct widen *w, const struct mir_opnd *o)
{
	if (o->kind == MIR_IMM)
		return ctz32(o->v);
	if (o->kind == MIR_VREG && o->v < w->nvregs && o->sub == 0)
		return w->tz[o->v];
	return 0;
}

/* Known zero low bits of what `in` writes into the first dword of its destination. */
static unsigned result_tz(const struct widen *w, const struct mir_insn *in)
{
	const struct mir_opnd *o = in->opnds;
	if (in->op == MIR_COPY)
		return opnd_tz(w, &o[1]);
	if (in->neg || in->abs || in->clamp || in->omod || in->dpp)
		return 0;
	switch (in->op) {
	case AMD_OP_V_LSHLREV_B32: /* dst = src1 << src0 */
		return o[1].kind == MIR_IMM ? min_u(32, opnd_tz(w, &o[2]) + (o[1].v & 31)) : 0;
	case AMD_OP_S_LSHL_B32: /* dst = src0 << src1 */
		return o[2].kind == MIR_IMM ? min_u(32, opnd_tz(w, &o[1]) + (o[2].v & 31)) : 0;
	case AMD_OP_V_ADD_U32:
	case AMD_OP_S_ADD_U32:
	case AMD_OP_S_ADD_I32:
	case AMD_OP_V_OR_B32:
		return min_u(opnd_tz(w, &o[1]), opnd_tz(w, &o[2]));
	case AMD_OP_V_AND_B32:
	case AMD_OP_S_AND_B32:
		return opnd_tz(w, &o[1]) > opnd_tz(w, &o[2]) ? opnd_tz(w, &o[1])
		                                             : opnd_tz(w, &o[2]);
	case AMD_OP_V_MUL_LO_U32:
	case AMD_OP_S_MUL_I32:
	case AMD_OP_V_MUL_U32_U24: /* the low bits of a product: the sum of the factors' */
		return min_u(32, opnd_tz(w, &o[1]) + opnd_tz(w, &o[2]));
	case AMD_OP_V_LSHL_ADD_U32: /* (src0 << src1) + src2 */
		return o[2].kind == MIR_IMM ? min_u(min_u(32, opnd_tz(w, &o[1]) + (o[2].v & 31)),
		                                    opnd_tz(w, &o[3]))
		                            : 0;
	default:
		return 0;
	}
}

/* Known zero bits per vreg: a greatest fixed point (every vreg starts at 32, and each
 * round lowers a vreg to the minimum over its definitions), so values defined around a
 * loop (a pointer stepping by 16) keep what every definition guarantees.  Undefined
 * vregs and partial definitions of the first dword know nothing. */
static void known_alignment(struct widen *w)
{
	struct mir_function *fn = w->fn;
	memset(w->tz, 32, w->nvregs);
	for (uint32_t v = 0; v < w->nvregs; v++)
		if (w->defs[v] == 0)
			w->tz[v] = 0;
	for (unsigned round = 0; round < ALIGN_ROUNDS; round++) {
		bool changed = false;
		for (uint32_t b = 0; b < fn->nblocks; b++)
			for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
				const struct mir_insn *in = &fn->blocks[b].insns[i];
				for (unsigned k = 0; k < in->nopnds; k++) {
					const struct mir_opnd *o = &in->opnds[k];
					if (o->kind != MIR_VREG || o->v >= w->nvregs ||
					    !mir_opnd_is_def(in, k) || o->sub != 0)
						continue;
					unsigned t = k == 0 && in->op != AMD_OP_V_ADD_CO_U32
					                     ? result_tz(w, in)
					                     : 0;
					if (t < w->tz[o->v]) {
						w->tz[o->v] = (uint8_t)t;
						changed = true;
					}
				}
			}
		if (!changed)
			return;
	}
	memset(w->tz, 0, w->nvregs); /* no fixed point in time: know nothing */
}

/* ---- candidates ---- */

static bool defined_once(const struct widen *w, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->v < w->nvregs && w->defs[o->v] == 1;
}

/* Whether vreg v is defined before position pos of block b (or in another block, which
 * then dominates b: v is defined once and used in b), or is an input. */
static bool available_at(const struct widen *w, uint32_t v, uint32_t b, uint32_t pos)
{
	if (v >= w->nvregs)
		return false;
	if (w->defs[v] == 0)
		return true;
	return w->defs[v] == 1 && w->def_block[v] != NO_DEF &&
	       (w->def_block[v] != b || w->def_pos[v] < pos);
}

/* The LDS address vreg v as root + constant (v_add_u32 of a vreg and a constant defined
 * once), else v + 0. */
static void address_form(const struct widen *w, uint32_t v, uint32_t *root, int64_t *c)
{
	*root = v;
	*c = 0;
	if (v >= w->nvregs || w->defs[v] != 1 || w->def_block[v] == NO_DEF)
		return;
	const struct mir_insn *d = &w->fn->blocks[w->def_block[v]].insns[w->def_pos[v]];
	if (d->op != AMD_OP_V_ADD_U32 || d->nopnds != 3 || d->clamp)
		return;
	for (unsigned k = 1; k <= 2; k++) {
		const struct mir_opnd *cst = &d->opnds[k], *other = &d->opnds[3 - k];
		if (cst->kind == MIR_IMM && other->kind == MIR_VREG && other->width == 1 &&
		    other->sub == 0 && w->defs[other->v] <= 1) {
			*root = other->v;
			*c = (int32_t)cst->v;
			return;
		}
	}
}

/* The key of a global access whose address operands are a (VGPRs) and s (SGPRs or off):
 * equal keys, equal operands. */
static void global_key(const struct mir_opnd *a, const struct mir_opnd *s, uint32_t key[4])
{
	key[0] = 2 + a->width;
	key[1] = a->v;
	key[2] = (uint32_t)a->sub | (uint32_t)s->kind << 8 | (uint32_t)s->sub << 16 |
	         (uint32_t)s->width << 24;
	key[3] = s->kind == MIR_OFF ? 0 : s->v;
}

/* A load this pass may widen, as a candidate; false when it is none. */
static bool candidate(const struct widen *w, const struct mir_insn *in, uint32_t pos,
                      struct cand *c)
{
	const struct mir_opnd *d = &in->opnds[0];
	if (in->op != AMD_OP_GLOBAL_LOAD_DWORD && in->op != AMD_OP_DS_READ_B32)
		return false;
	if (!defined_once(w, d) || d->sub != 0 || d->width != 1 || w->fn->vregs[d->v].size != 1 ||
	    in->cpol || in->offset % 4)
		return false;
	*c = (struct cand){.pos = pos, .dst = d->v, .off = in->offset};
	if (in->op == AMD_OP_DS_READ_B32) {
		const struct mir_opnd *a = &in->opnds[1];
		if (in->nopnds != 2 || a->kind != MIR_VREG || a->width != 1 || a->sub != 0 ||
		    a->v >= w->nvregs || w->defs[a->v] > 1)
			return false; /* (a base defined twice may change between the loads) */
		uint32_t root;
		address_form(w, a->v, &root, &c->addr);
		if (w->tz[root] < 4)
			return false; /* ds_read_b128 needs a 16-byte aligned root */
		c->key[0] = 1;
		c->key[1] = root;
		c->addr += in->offset;
		c->base = a->v;
		return true;
	}
	const struct mir_opnd *a = &in->opnds[1], *s = &in->opnds[2];
	if (in->nopnds != 3 || a->kind != MIR_VREG || (s->kind != MIR_OFF && s->kind != MIR_VREG))
		return false;
	global_key(a, s, c->key);
	c->addr = in->offset;
	return true;
}

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	int k = memcmp(a->key, b->key, sizeof a->key);
	if (k)
		return k;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos; /* deterministic order of equals */
}

static const uint16_t global_wide[5] = {0, AMD_OP_GLOBAL_LOAD_DWORD, AMD_OP_GLOBAL_LOAD_DWORDX2,
                                        AMD_OP_GLOBAL_LOAD_DWORDX3, AMD_OP_GLOBAL_LOAD_DWORDX4};

/* Whether an instruction of block b in [from, to] writes vreg v (an address operand of
 * global loads that are to become one: a 64-bit address has two definitions, its halves,
 * and must not change between the loads). */
static bool written_between(const struct widen *w, uint32_t b, uint32_t v, uint32_t from,
                            uint32_t to)
{
	const struct mir_block *bl = &w->fn->blocks[b];
	for (uint32_t i = from; i <= to; i++)
		for (unsigned k = 0; k < bl->insns[i].nopnds; k++)
			if (bl->insns[i].opnds[k].kind == MIR_VREG &&
			    bl->insns[i].opnds[k].v == v && mir_opnd_is_def(&bl->insns[i], k))
				return true;
	return false;
}

/* Whether the global loads or stores g[0..n-1] keep their address from the first to the
 * last. */
static bool same_address_throughout(const struct widen *w, uint32_t b, const struct cand *g,
                                    unsigned n)
{
	uint32_t lo = g[0].pos, hi = g[0].pos;
	for (unsigned k = 1; k < n; k++) {
		lo = g[k].pos < lo ? g[k].pos : lo;
		hi = g[k].pos > hi ? g[k].pos : hi;
	}
	const struct mir_insn *in = &w->fn->blocks[b].insns[g[0].pos];
	/* the address operands: VGPRs then SGPRs (a store's data is its opnds[1]) */
	unsigned addr[2] = {amd_isa_rows[in->op].flags & AMD_F_STORE ? 0 : 1, 2};
	for (unsigned k = 0; k < 2; k++)
		if (in->opnds[addr[k]].kind == MIR_VREG &&
		    written_between(w, b, in->opnds[addr[k]].v, lo, hi))
			return false;
	return true;
}

/* Makes g[0..n-1] (consecutive dwords, increasing addresses) one load of n dwords. */
static void merge(struct widen *w, uint32_t b, const struct cand *g, unsigned n)
{
	struct mir_function *fn = w->fn;
	uint32_t first = 0;
	for (unsigned k = 1; k < n; k++)
		if (g[k].pos < g[first].pos)
			first = k;
	struct mir_insn *in = &fn->blocks[b].insns[g[first].pos];
	unsigned align = n > 1 && fn->target->info->has_agprs ? 2 : 1; /* even tuples, gfx90a */
	uint32_t d = mir_new_vreg(fn, MIR_VGPR, n, align);
	in->opnds[0] = mir_vreg(d, n);
	if (g[0].key[0] == 1) {
		in->op = AMD_OP_DS_READ_B128;
		in->opnds[1] = mir_vreg(g[0].base, 1);
	} else {
		in->op = global_wide[n];
	}
	in->offset = g[0].off;
	for (unsigned k = 0; k < n; k++) {
		w->ren_vreg[g[k].dst] = d;
		w->ren_sub[g[k].dst] = (uint8_t)k;
		if (k != first)
			w->dead[w->dead_base[b] + g[k].pos] = true;
	}
	w->any = true;
}

/* Groups one run of candidates (one key, consecutive dwords, increasing addresses) into
 * wide loads. */
static void merge_run(struct widen *w, uint32_t b, const struct cand *r, unsigned run)
{
	if (r[0].key[0] == 1) { /* LDS: aligned groups of four */
		for (unsigned k = 0; k + 4 <= run;) {
			const struct cand *lo = &r[k];
			uint32_t minpos = lo->pos;
			for (unsigned j = 1; j < 4; j++)
				minpos = lo[j].pos < minpos ? lo[j].pos : minpos;
			if ((lo->addr & 15) || lo->off < 0 ||
			    !available_at(w, lo->base, b, minpos)) {
				k++;
				continue;
			}
			merge(w, b, lo, 4);
			k += 4;
		}
		return;
	}
	for (unsigned k = 0; k < run; k += 4) { /* global: x4s, then one x3 or x2 */
		unsigned m = run - k < 4 ? run - k : 4;
		if (m >= 2 && same_address_throughout(w, b, &r[k], m))
			merge(w, b, &r[k], m);
	}
}

/* Groups the window's candidates c[0..n-1] into wide loads: sorted by key and address,
 * each stretch of consecutive dwords is a run; a second load of an address already in the
 * run stays as it is. */
static void close_window(struct widen *w, uint32_t b, struct cand *c, unsigned n)
{
	struct cand run[WINDOW_MAX];
	unsigned nrun = 0;
	qsort(c, n, sizeof *c, cmp_cand);
	for (unsigned i = 0; i < n; i++) {
		if (nrun && !memcmp(run[0].key, c[i].key, sizeof c->key)) {
			if (c[i].addr == run[nrun - 1].addr)
				continue; /* a duplicate */
			if (c[i].addr == run[nrun - 1].addr + 4) {
				run[nrun++] = c[i];
				continue;
			}
		}
		if (nrun)
			merge_run(w, b, run, nrun);
		run[0] = c[i];
		nrun = 1;
	}
	if (nrun)
		merge_run(w, b, run, nrun);
}

static void widen_block(struct widen *w, uint32_t b)
{
	const struct mir_block *bl = &w->fn->blocks[b];
	struct cand c[WINDOW_MAX];
	unsigned n = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (candidate(w, in, i, &c[n])) {
			if (++n == WINDOW_MAX) {
				close_window(w, b, c, n);
				n = 0;
			}
		} else if (mir_ends_memory_window(w->fn, in)) {
			close_window(w, b, c, n);
			n = 0;
		}
	}
	close_window(w, b, c, n);
}

/* ---- stores ---- */

/* Whether vreg u, the data of a one-dword store at pos of block b, may become a dword of a
 * tuple: defined once, whole, earlier in the block, by the first operand of an instruction
 * that writes nothing else tied to it (the tuple's dwords are then written where the data
 * was), and not yet placed in another tuple. */
static bool movable_data(const struct widen *w, uint32_t b, uint32_t pos, const struct mir_opnd *o)
{
	if (o->kind != MIR_VREG || o->v >= w->nvregs || o->sub || o->width != 1 ||
	    w->fn->vregs[o->v].size != 1 || w->fn->vregs[o->v].file != MIR_VGPR ||
	    w->defs[o->v] != 1 || w->claimed[o->v] || w->def_block[o->v] != b ||
	    w->def_pos[o->v] >= pos)
		return false;
	const struct mir_insn *d = &w->fn->blocks[b].insns[w->def_pos[o->v]];
	if (d->opnds[0].kind != MIR_VREG || d->opnds[0].v != o->v)
		return false;
	return d->op == MIR_COPY || !(amd_isa_rows[d->op].flags & (AMD_F_TIED_DST | AMD_F_ATOMIC));
}

/* A store this pass may widen, as a candidate (key[0]: 1 LDS, 2+ global). */
static bool store_candidate(const struct widen *w, uint32_t b, const struct mir_insn *in,
                            uint32_t pos, struct cand *c)
{
	if (in->op != AMD_OP_GLOBAL_STORE_DWORD && in->op != AMD_OP_DS_WRITE_B32)
		return false;
	const struct mir_opnd *a = &in->opnds[0], *data = &in->opnds[1];
	if (in->cpol || in->offset % 4 || !movable_data(w, b, pos, data) || a->kind != MIR_VREG)
		return false;
	*c = (struct cand){.pos = pos, .dst = data->v, .off = in->offset};
	if (in->op == AMD_OP_DS_WRITE_B32) {
		if (in->nopnds != 2 || a->width != 1 || a->sub != 0 || a->v >= w->nvregs ||
		    w->defs[a->v] > 1)
			return false;
		uint32_t root;
		address_form(w, a->v, &root, &c->addr);
		if (w->tz[root] < 4)
			return false;
		c->key[0] = 1;
		c->key[1] = root;
		c->addr += in->offset;
		c->base = a->v;
		return true;
	}
	const struct mir_opnd *s = &in->opnds[2];
	if (in->nopnds != 3 || (s->kind != MIR_OFF && s->kind != MIR_VREG))
		return false;
	global_key(a, s, c->key);
	c->addr = in->offset;
	return true;
}

/* Whether `in` ends a window of stores of this kind (LDS: key 1, else global): an access
 * that may touch the same memory (any DS or FLAT access for LDS; any access but DS for
 * global), an atomic, cache control, barrier, message, wait, branch or EXEC write. */
static bool ends_store_window(const struct mir_function *fn, const struct mir_insn *in, bool lds)
{
	if (in->op >= AMD_NUM_OPCODES)
		return mir_writes_exec(fn, in);
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if (row->flags & (AMD_F_ATOMIC | AMD_F_CACHE_CPOL | AMD_F_BRANCH))
		return true;
	if (row->unit == AMD_UNIT_MSG || row->unit == AMD_UNIT_BRANCH || mir_writes_exec(fn, in))
		return true;
	if (!(row->flags & (AMD_F_LOAD | AMD_F_STORE)) && row->unit != AMD_UNIT_VMEM_LOAD &&
	    row->unit != AMD_UNIT_VMEM_STORE && row->unit != AMD_UNIT_LDS)
		return false;
	if (row->format == AMD_FMT_SMEM)
		return false; /* scalar loads read constant data */
	return lds ? row->format == AMD_FMT_DS || row->format == AMD_FMT_FLAT
	           : row->format != AMD_FMT_DS;
}

static const uint16_t global_store_wide[5] = {
        0, AMD_OP_GLOBAL_STORE_DWORD, AMD_OP_GLOBAL_STORE_DWORDX2, AMD_OP_GLOBAL_STORE_DWORDX3,
        AMD_OP_GLOBAL_STORE_DWORDX4};

/* Makes the stores g[0..n-1] (consecutive dwords, increasing addresses) one store of n
 * dwords at the place of the last of them; their data become the dwords of a new tuple. */
static void merge_stores(struct widen *w, uint32_t b, const struct cand *g, unsigned n)
{
	struct mir_function *fn = w->fn;
	for (unsigned k = 0; k < n; k++)
		if (w->claimed[g[k].dst])
			return; /* (stored to LDS and to global memory: in a tuple already) */
	uint32_t last = 0;
	for (unsigned k = 1; k < n; k++)
		if (g[k].pos > g[last].pos)
			last = k;
	struct mir_insn *in = &fn->blocks[b].insns[g[last].pos];
	unsigned align = fn->target->info->has_agprs ? 2 : 1;
	uint32_t t = mir_new_vreg(fn, MIR_VGPR, n, align);
	in->opnds[1] = mir_vreg(t, n);
	if (g[0].key[0] == 1) {
		in->op = AMD_OP_DS_WRITE_B128;
		in->opnds[0] = mir_vreg(g[0].base, 1);
	} else {
		in->op = global_store_wide[n];
	}
	in->offset = g[0].off;
	for (unsigned k = 0; k < n; k++) {
		w->ren_vreg[g[k].dst] = t;
		w->ren_sub[g[k].dst] = (uint8_t)k;
		w->claimed[g[k].dst] = true;
		if (k != last)
			w->dead[w->dead_base[b] + g[k].pos] = true;
	}
	w->any = true;
}

/* Groups one window's stores (one key) c[0..n-1]; a window never holds two stores to one
 * address (see widen_store_block). */
static void close_store_window(struct widen *w, uint32_t b, struct cand *c, unsigned n)
{
	qsort(c, n, sizeof *c, cmp_cand);
	for (unsigned i = 0; i < n;) {
		unsigned run = 1;
		while (i + run < n && c[i + run].addr == c[i + run - 1].addr + 4)
			run++;
		if (c[i].key[0] == 1) {
			for (unsigned k = 0; k + 4 <= run;) {
				const struct cand *lo = &c[i + k];
				uint32_t last = lo->pos;
				for (unsigned j = 1; j < 4; j++)
					last = lo[j].pos > last ? lo[j].pos : last;
				if ((lo->addr & 15) || lo->off < 0 ||
				    !available_at(w, lo->base, b, last)) {
					k++;
					continue;
				}
				merge_stores(w, b, lo, 4);
				k += 4;
			}
		} else {
			for (unsigned k = 0; k < run; k += 4) {
				unsigned m = run - k < 4 ? run - k : 4;
				if (m >= 2 && same_address_throughout(w, b, &c[i + k], m))
					merge_stores(w, b, &c[i + k], m);
			}
		}
		i += run;
	}
}

/* Windows of stores: one for LDS, one for global memory, each of stores with one key (two
 * address registers may alias, so stores through different ones keep their order) and
 * distinct addresses; a store that cannot join its kind's window closes it. */
static void widen_store_block(struct widen *w, uint32_t b)
{
	const struct mir_block *bl = &w->fn->blocks[b];
	struct cand win[2][WINDOW_MAX];
	unsigned n[2] = {0, 0};
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		struct cand c;
		bool is = store_candidate(w, b, in, i, &c);
		for (unsigned k = 0; k < 2; k++) {
			bool same = is && (c.key[0] == 1) == (k == 0);
			bool fits = same && n[k] < WINDOW_MAX &&
			            (!n[k] || !memcmp(win[k][0].key, c.key, sizeof c.key));
			for (unsigned j = 0; fits && j < n[k]; j++)
				fits = win[k][j].addr != c.addr && win[k][j].dst != c.dst;
			if (same && fits) {
				win[k][n[k]++] = c;
				continue;
			}
			if (same || ends_store_window(w->fn, in, k == 0)) {
				close_store_window(w, b, win[k], n[k]);
				n[k] = 0;
				if (same)
					win[k][n[k]++] = c;
			}
		}
	}
	for (unsigned k = 0; k < 2; k++)
		close_store_window(w, b, win[k], n[k]);
}

/* Where each vreg is defined (the last definition; defs[] says whether it is the only one). */
static void index_defs(struct widen *w)
{
	struct mir_function *fn = w->fn;
	w->defs = mir_count_defs(fn);
	for (uint32_t v = 0; v < w->nvregs; v++)
		w->def_block[v] = NO_DEF;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				const struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && o->v < w->nvregs &&
				    mir_opnd_is_def(&bl->insns[i], k)) {
					w->def_block[o->v] = b;
					w->def_pos[o->v] = i;
				}
			}
	}
}

/* Whether the function has an instruction `global` or `lds` (a phase's candidates), and
 * which: bit 0 global, bit 1 LDS. */
static unsigned has_ops(const struct mir_function *fn, unsigned global, unsigned lds)
{
	unsigned found = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			unsigned op = fn->blocks[b].insns[i].op;
			found |= (op == global) | (op == lds) << 1;
		}
	return found;
}

/* Fresh per-phase state for the function as it is now; false when the phase has nothing to
 * look at (no instruction `global` or `lds`).  The alignment analysis serves only LDS
 * candidates, so a function without `lds` skips it (tz stays 0: never read). */
static bool begin_phase(struct widen *w, unsigned global, unsigned lds)
{
	struct mir_function *fn = w->fn;
	unsigned found = has_ops(fn, global, lds);
	if (!found)
		return false;
	uint32_t n = fn->nvregs, total = 0;
	w->nvregs = n;
	w->def_block = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	w->def_pos = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	w->tz = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, n + 1);
	w->ren_vreg = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	w->ren_sub = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, n + 1);
	w->claimed = PA_NEW_ARRAY(mir_pass_arena(fn), bool, n + 1);
	w->dead_base = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nblocks + 1);
	for (uint32_t v = 0; v < n; v++)
		w->ren_vreg[v] = v;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		w->dead_base[b] = total;
		total += fn->blocks[b].ninsns;
	}
	w->dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool, total + 1);
	w->any = false;
	index_defs(w);
	if (found & 2)
		known_alignment(w);
	return true;
}

/* Drops the merged instructions and renames the merged registers. */
static void end_phase(struct widen *w)
{
	struct mir_function *fn = w->fn;
	if (!w->any)
		return;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		uint32_t out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (!w->dead[w->dead_base[b] + i])
				bl->insns[out++] = bl->insns[i];
		bl->ninsns = out;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && o->v < w->nvregs &&
				    w->ren_vreg[o->v] != o->v) {
					o->sub = (uint8_t)(o->sub + w->ren_sub[o->v]);
					o->v = w->ren_vreg[o->v];
				}
			}
	}
}

void mir_widen_memory(struct mir_function *fn)
{
	struct widen w = {.fn = fn};
	if (begin_phase(&w, AMD_OP_GLOBAL_LOAD_DWORD, AMD_OP_DS_READ_B32)) {
		for (uint32_t b = 0; b < fn->nblocks; b++)
			widen_block(&w, b);
		end_phase(&w);
	}
	if (begin_phase(&w, AMD_OP_GLOBAL_STORE_DWORD, AMD_OP_DS_WRITE_B32)) {
		for (uint32_t b = 0; b < fn->nblocks; b++)
			widen_store_block(&w, b);
		end_phase(&w);
	}
}
