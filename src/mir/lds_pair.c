/* mir_pair_lds: two LDS reads from one base register become one ds_read2.
 *
 * Unrolled shared-memory code (a tile loop reading a[k], a[k+1], ... of the same row)
 * selects one ds_read_b32 per element, each with its own address register.  ds_read2_b32
 * (ds_load_2addr_b32) reads two dwords at base + 4*offset0 and base + 4*offset1 with
 * 8-bit offsets and needs only dword alignment, so any two such reads whose addresses
 * differ by a known multiple of 4 (up to 1020 bytes) pair; ds_read_b64 pairs become
 * ds_read2_b64 the same way (8-byte units).  Offsets past the 8-bit fields are read from
 * base + a multiple of 1 KiB, a v_add_u32 made once per block and base.
 * Addresses are compared as (root, constant): an address vreg defined once by
 * v_add_u32 of a register and a constant (an immediate, or a vreg defined once by a COPY
 * of one) is root + constant; any other is itself + 0.  Run after mir_cse_copies, so
 * reads whose bases were copied from the same SGPR see the same root.
 * Within a block, each read looks for an earlier unpaired read of the same width and
 * root; the pair becomes one read2 at the earlier read's place, based on the root itself
 * or the lowest address register of the root read in the block so far where the offsets
 * fit (pairs then share one base and the other address adds die), else on the register of
 * the lower address (which must already be defined there), into a new vreg of twice the
 * width; uses of the two old destinations (each defined once) are renamed to its halves.
 * Moving the later read up is right only if nothing between could change LDS or the
 * lanes: candidates are forgotten at any store or atomic that may write LDS (not a
 * global or scratch one: ends_lds_window), barrier, message, wait, branch or EXEC write.
 * requires: MIR on virtual registers before allocation.  Complexity: O(instructions x
 * operands) plus, per read, a scan of the open candidates (at most OPEN_MAX); a function
 * with fewer than two such reads, one scan. */
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

enum { OPEN_MAX = 32, REBASE_MAX = 16, NO_DEF = 0xffffffffu };

struct rebase;

/* Per block: the lowest address register of each root read so far (shared_base). */
enum { LOW_MAX = 16 };
struct low_base {
	uint32_t root, vreg;
	int64_t addr; /* vreg = root + addr */
};

struct lds_read {
	uint32_t pos;  /* index in the block */
	uint32_t root; /* address = root + addr */
	int64_t addr;
	uint32_t base; /* the read's own address vreg and byte offset */
	uint32_t off;
	uint32_t dst;
	unsigned words; /* 1 (b32) or 2 (b64) */
};

struct lds_pair {
	struct mir_function *fn;
	const uint8_t *defs; /* for the nvregs vregs there were before this pass */
	uint32_t nvregs;
	uint32_t *def_block, *def_pos; /* where each vreg defined once is defined */
	uint32_t *ren_vreg;            /* renamed destinations: new vreg and first dword */
	uint8_t *ren_sub;
	bool *dead; /* per instruction (dead_base[b] + i): removed by pairing */
	uint32_t *dead_base;
	/* per instruction: a v_add_u32 prefix[] = prefix_base[] + prefix_imm[] to put in front
	 * of it (0: none) */
	uint32_t *prefix, *prefix_base, *prefix_imm;
	struct rebase *rebases; /* of the current block */
	unsigned nrebases;
	struct low_base low[LOW_MAX]; /* of the current block */
	unsigned nlow;
};

static bool defined_once(const struct lds_pair *lp, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->v < lp->nvregs && lp->defs[o->v] == 1;
}

/* Whether operand o is a known 32-bit constant: an immediate or a vreg defined once by a
 * COPY of one. */
static bool const_value(const struct lds_pair *lp, const struct mir_opnd *o, int64_t *val)
{
	if (o->kind == MIR_IMM) {
		*val = (int32_t)o->v;
		return true;
	}
	if (!defined_once(lp, o) || lp->def_block[o->v] == NO_DEF)
		return false;
	const struct mir_insn *d = &lp->fn->blocks[lp->def_block[o->v]].insns[lp->def_pos[o->v]];
	if (d->op != MIR_COPY || d->opnds[1].kind != MIR_IMM)
		return false;
	*val = (int32_t)d->opnds[1].v;
	return true;
}

/* The address vreg v as root + constant. */
static void address_form(const struct lds_pair *lp, uint32_t v, uint32_t *root, int64_t *c)
{
	*root = v;
	*c = 0;
	if (v >= lp->nvregs || lp->defs[v] != 1 || lp->def_block[v] == NO_DEF)
		return;
	const struct mir_insn *d = &lp->fn->blocks[lp->def_block[v]].insns[lp->def_pos[v]];
	if (d->op != AMD_OP_V_ADD_U32 || d->nopnds != 3 || d->neg || d->abs || d->clamp)
		return;
	for (unsigned k = 1; k <= 2; k++) {
		const struct mir_opnd *other = &d->opnds[3 - k];
		int64_t val;
		if (const_value(lp, &d->opnds[k], &val) && other->kind == MIR_VREG &&
		    other->width == 1) {
			*root = other->v;
			*c = val;
			return;
		}
	}
}

/* A read this pass may pair: ds_read_b32/b64 into a whole vreg defined once, at a dword
 * aligned offset, from a one-dword address vreg. */
static bool pairable(const struct lds_pair *lp, const struct mir_insn *in, unsigned *words)
{
	if (in->op != AMD_OP_DS_READ_B32 && in->op != AMD_OP_DS_READ_B64)
		return false;
	*words = in->op == AMD_OP_DS_READ_B32 ? 1 : 2;
	const struct mir_opnd *d = &in->opnds[0], *a = &in->opnds[1];
	return in->nopnds == 2 && defined_once(lp, d) && d->sub == 0 && d->width == *words &&
	       lp->fn->vregs[d->v].size == *words && a->kind == MIR_VREG && a->width == 1 &&
	       in->offset >= 0 && in->offset % (4 * *words) == 0;
}

/* Whether vreg v is defined before position pos of block b (or in another block, which
 * then dominates b: v is defined once and used in b). */
static bool available_at(const struct lds_pair *lp, uint32_t v, uint32_t b, uint32_t pos)
{
	if (v >= lp->nvregs)
		return false;
	if (lp->defs[v] == 0)
		return true; /* an input (ABI register) */
	return lp->def_block[v] != NO_DEF && (lp->def_block[v] != b || lp->def_pos[v] < pos);
}

/* A register base + chunk made for pairs whose offsets do not fit from base: the v_add_u32
 * that defines it goes in front of the instruction at `pos` (its first user). */
struct rebase {
	uint32_t base, vreg, pos;
	uint32_t chunk;
};

/* Whether vreg v holds one value everywhere: defined once, or an input never written. */
static bool one_value(const struct lds_pair *lp, uint32_t v)
{
	return v < lp->nvregs && lp->defs[v] <= 1;
}

/* A base of the pair's root that reads of other pairs share, in place of the lower read's
 * own address register when that lies below the root (root - c, a v_add of its own that
 * then dies; a base's 8-bit offsets cannot reach below it): the root itself when
 * the pair's address is not below it, else the lowest address register of the root read in
 * this block so far (nvcc's tile[4*j - 8] ... tile[4*j - 1] of an unrolled loop: one base,
 * not four).  Kept only when the offsets fit the 8-bit fields and the register holds one
 * value (defined once, or an input) that is defined at the pair's place. */
static void shared_base(struct lds_pair *lp, uint32_t b, uint32_t pos, const struct lds_read *lo,
                        int64_t unit, int64_t diff, uint32_t *base, uint32_t *off)
{
	struct low_base *lb = NULL;
	for (unsigned k = 0; k < lp->nlow && !lb; k++)
		if (lp->low[k].root == lo->root)
			lb = &lp->low[k];
	int64_t own = lo->addr - lo->off; /* the address in lo's register, from the root */
	if (!one_value(lp, lo->base) || own >= 0)
		return; /* (the root's relation to lo's register unknown; or that register is at
		         * or above the root, and serves as well as any) */
	if (!lb && lp->nlow < LOW_MAX) {
		lb = &lp->low[lp->nlow++];
		*lb = (struct low_base){lo->root, lo->base, own};
	} else if (lb && own < lb->addr && available_at(lp, lo->base, b, pos)) {
		lb->vreg = lo->base;
		lb->addr = own;
	}
	uint32_t cand[2] = {lo->root, lb ? lb->vreg : lo->base};
	int64_t cand_addr[2] = {0, lb ? lb->addr : own};
	for (unsigned k = 0; k < 2; k++) {
		int64_t rel = lo->addr - cand_addr[k];
		if (cand[k] == *base || rel < 0 || rel % unit || rel / unit + diff / unit > 255 ||
		    !one_value(lp, cand[k]) || !available_at(lp, cand[k], b, pos) ||
		    lp->fn->vregs[cand[k]].file != MIR_VGPR)
			continue;
		*base = cand[k];
		*off = (uint32_t)rel;
		return;
	}
}

/* Tries to pair read r (later) with open read o (earlier); true when done. */
static bool try_pair(struct lds_pair *lp, uint32_t b, const struct lds_read *o,
                     const struct lds_read *r)
{
	if (o->root != r->root || o->words != r->words || o->addr == r->addr)
		return false;
	const struct lds_read *lo = o->addr < r->addr ? o : r, *hi = lo == o ? r : o;
	int64_t unit = 4 * o->words, diff = hi->addr - lo->addr;
	if (diff % unit || diff / unit > 255)
		return false;
	if (!available_at(lp, lo->base, b, o->pos))
		return false;
	struct mir_function *fn = lp->fn;
	uint32_t base = lo->base, off = lo->off;
	shared_base(lp, b, o->pos, lo, unit, diff, &base, &off);
	if (off / unit + diff / unit > 255) {
		/* offsets past the 8-bit field: read from base + chunk (chunk: the offset rounded
		 * down to 1 KiB), made once per block and base where it is first needed */
		uint32_t chunk = off & ~1023u;
		struct rebase *rb = NULL;
		for (unsigned k = 0; k < lp->nrebases && !rb; k++)
			if (lp->rebases[k].base == base && lp->rebases[k].chunk == chunk &&
			    lp->rebases[k].pos <= o->pos)
				rb = &lp->rebases[k];
		if (!rb) {
			if (lp->nrebases == REBASE_MAX)
				return false;
			rb = &lp->rebases[lp->nrebases++];
			*rb = (struct rebase){base, mir_new_vreg(fn, MIR_VGPR, 1, 1), o->pos,
			                      chunk};
			lp->prefix[lp->dead_base[b] + o->pos] = rb->vreg;
			lp->prefix_base[lp->dead_base[b] + o->pos] = base;
			lp->prefix_imm[lp->dead_base[b] + o->pos] = chunk;
		}
		base = rb->vreg;
		off -= chunk;
		if (off / unit + diff / unit > 255)
			return false;
	}
	unsigned size = 2 * o->words;
	unsigned align = fn->target->info->has_agprs ? 2 : 1; /* even tuples on gfx90a/gfx942 */
	uint32_t d = mir_new_vreg(fn, MIR_VGPR, size, align);
	struct mir_insn *in = &fn->blocks[b].insns[o->pos];
	struct mir_insn pair = *in;
	pair.op = o->words == 1 ? AMD_OP_DS_READ2_B32 : AMD_OP_DS_READ2_B64;
	pair.opnds[0] = mir_vreg(d, size);
	pair.opnds[1] = mir_vreg(base, 1);
	pair.offset = (int32_t)(off / unit);
	pair.offset1 = (uint8_t)(off / unit + diff / unit);
	*in = pair;
	lp->ren_vreg[lo->dst] = d;
	lp->ren_sub[lo->dst] = 0;
	lp->ren_vreg[hi->dst] = d;
	lp->ren_sub[hi->dst] = (uint8_t)o->words;
	lp->dead[lp->dead_base[b] + r->pos] = true;
	return true;
}

/* Whether `in` ends the window in which LDS reads pair (mir_ends_memory_window), except a
 * plain global or scratch store or atomic: those cannot write LDS (no aliasing between the
 * address spaces; sched/list.c orders memory the same way), so a transpose's reads, each
 * followed by the global store of what it read, still pair. */
static bool ends_lds_window(const struct mir_function *fn, const struct mir_insn *in)
{
	if (!mir_ends_memory_window(fn, in))
		return false;
	if (in->op >= AMD_NUM_OPCODES)
		return true;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	bool other_space = row->format == AMD_FMT_GLOBAL || row->format == AMD_FMT_SCRATCH;
	return !other_space || !(row->flags & (AMD_F_STORE | AMD_F_ATOMIC)) ||
	       (row->flags & (AMD_F_CACHE_CPOL | AMD_F_BRANCH)) || row->unit == AMD_UNIT_MSG ||
	       mir_writes_exec(fn, in);
}

static bool pair_block(struct lds_pair *lp, uint32_t b)
{
	struct mir_block *bl = &lp->fn->blocks[b];
	struct lds_read open[OPEN_MAX];
	unsigned nopen = 0;
	lp->nrebases = 0;
	lp->nlow = 0;
	bool any = false;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		unsigned words;
		if (!pairable(lp, in, &words)) {
			if (ends_lds_window(lp->fn, in))
				nopen = 0;
			continue;
		}
		struct lds_read r = {.pos = i,
		                     .base = in->opnds[1].v,
		                     .off = (uint32_t)in->offset,
		                     .dst = in->opnds[0].v,
		                     .words = words};
		address_form(lp, r.base, &r.root, &r.addr);
		r.addr += r.off;
		bool paired = false;
		for (unsigned k = 0; k < nopen && !paired; k++)
			if (try_pair(lp, b, &open[k], &r)) {
				open[k] = open[--nopen];
				paired = any = true;
			}
		if (!paired) {
			if (nopen == OPEN_MAX)
				memmove(open, open + 1, --nopen * sizeof *open);
			open[nopen++] = r;
		}
	}
	return any;
}

/* Whether fn has two reads pairable() may take (ds_read_b32/b64): a pair needs both, and
 * without them the pass is one scan instead of its tables (most kernels read no LDS). */
static bool has_two_reads(const struct mir_function *fn)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			unsigned op = fn->blocks[b].insns[i].op;
			n += op == AMD_OP_DS_READ_B32 || op == AMD_OP_DS_READ_B64;
			if (n >= 2)
				return true;
		}
	return false;
}

void mir_pair_lds(struct mir_function *fn)
{
	if (!has_two_reads(fn))
		return;
	struct lds_pair lp = {.fn = fn};
	lp.defs = mir_count_defs(fn);
	uint32_t n = fn->nvregs, total = 0;
	lp.nvregs = n;
	lp.def_block = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	lp.def_pos = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	lp.ren_vreg = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, n + 1);
	lp.ren_sub = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, n + 1);
	for (uint32_t v = 0; v < n; v++) {
		lp.def_block[v] = NO_DEF;
		lp.ren_vreg[v] = v;
	}
	lp.dead_base = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nblocks + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		lp.dead_base[b] = total;
		total += bl->ninsns;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				const struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && mir_opnd_is_def(&bl->insns[i], k)) {
					lp.def_block[o->v] = b;
					lp.def_pos[o->v] = i;
				}
			}
	}
	lp.dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool, total + 1);
	lp.prefix = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, total + 1);
	lp.prefix_base = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, total + 1);
	lp.prefix_imm = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, total + 1);
	struct rebase rebases[REBASE_MAX];
	lp.rebases = rebases;
	bool any = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		any |= pair_block(&lp, b);
	if (!any)
		return;
	/* drop the paired later reads (only now: def_pos indexes the blocks as they were),
	 * and rename the uses of the paired destinations */
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		uint32_t nprefix = 0, out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			nprefix += lp.prefix[lp.dead_base[b] + i] != 0;
		struct mir_insn *insns = bl->insns;
		if (nprefix) {
			insns = PA_NEW_ARRAY(fn->arena, struct mir_insn, bl->ninsns + nprefix + 1);
			bl->cap = bl->ninsns + nprefix + 1;
		}
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			uint32_t g = lp.dead_base[b] + i;
			if (lp.prefix[g]) {
				struct mir_opnd ops[3] = {mir_vreg(lp.prefix[g], 1),
				                          mir_imm(lp.prefix_imm[g]),
				                          mir_vreg(lp.prefix_base[g], 1)};
				insns[out] = mir_make(AMD_OP_V_ADD_U32, 3, ops);
				insns[out++].src_line = bl->insns[i].src_line;
			}
			if (!lp.dead[g])
				insns[out++] = bl->insns[i];
		}
		bl->insns = insns;
		bl->ninsns = out;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && o->v < n && lp.ren_vreg[o->v] != o->v) {
					o->sub = (uint8_t)(o->sub + lp.ren_sub[o->v]);
					o->v = lp.ren_vreg[o->v];
				}
			}
	}
}
