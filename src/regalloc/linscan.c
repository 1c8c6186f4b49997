/* Linear scan register assignment (Poletto & Sarkar, "Linear Scan Register Allocation",
 * TOPLAS 1999), one pass over the intervals sorted by start point, per register file.
 *
 * Each physical register remembers the end of the last interval given to it; since
 * intervals arrive in start order, a register is free for an interval when that end lies
 * before the interval's start (expiry without an explicit active list).  Each register of a
 * tuple is tested and held over its own dword's interval (intervals.c); a dword starting
 * after its tuple leaves its register free until then (a hole: free_from, held_from), and
 * a later, shorter interval may take that place.  A candidate
 * first register must be aligned (vreg->align; SGPR pairs even, larger SGPR tuples 4),
 * every register of the tuple must be free, inside the budget, outside the reserved SGPR
 * range and not referenced as a fixed physical operand during the interval.  The
 * registers of COPY partners (source or destination of a full-width COPY) are tried
 * first, so most phi copies get the same register at both ends and vanish; otherwise, among
 * the registers already in use, the one free the longest (room for the scheduler after
 * allocation), else the lowest free tuple (and only the lowest in ctx->lowest_first's
 * trial).  Ties in start order break by vreg number: deterministic.
 * An interval that finds no register spills the overlapping interval of its file that
 * ends last (or itself), skipping values read or written outside EXEC (ctx->no_spill) and
 * the temporaries of earlier spills (found through a max-heap of the assigned spillable
 * intervals by end, entries that expired or were spilled dropped when they reach the top,
 * not a scan of every vreg per spill): SGPRs into VGPR lanes (spill.c), VGPRs into scratch
 * (spill_vgpr.c); ctx->spilled marks them, allocation reruns after the rewrite.  A VGPR
 * spill in a function without scratch set-up fails with stats->needs_scratch instead.
 * requires: ra_fill_intervals.  breaks: nothing (sets mir_vreg.phys).
 * complexity: O(V log V + V * R * size) for V intervals and R registers. */
#include <stdlib.h>
#include <string.h>

#include "regalloc/ra_int.h"

/* An expiry: register `reg` of `file` is busy until `end`. */
struct expiry {
	uint32_t end;
	uint16_t reg;
	uint8_t file;
};

struct linscan {
	struct ra_ctx *ctx;
	uint32_t *busy_until[RA_NUM_FILES]; /* end point of the last interval in each register */
	/* A dword of a tuple may start after the tuple's own start: its register is then held
	 * from held_from (that dword's start) and free in the hole [free_from, held_from)
	 * before it, where a shorter interval may go (held_from 0: no hole). */
	uint32_t *held_from[RA_NUM_FILES], *free_from[RA_NUM_FILES];
	uint64_t has_hole[RA_NUM_FILES][RA_MAX_VGPRS / 64]; /* bit r: held_from[r] is ahead */
	/* Accelerator for the search: bit r set when register r may be free (busy_until[r] is
	 * RA_NO_POINT or below the current start); registers leave it when assigned and come
	 * back when their interval ends (a min-heap on the end), so `choose` tests only
	 * candidates instead of every register of the file. */
	uint64_t maybe_free[RA_NUM_FILES][RA_MAX_VGPRS / 64];
	struct expiry *heap;
	uint32_t nheap;
	unsigned high[RA_NUM_FILES]; /* registers [0, high) have been assigned */
	/* per file: assigned spillable vregs, a max-heap on (end, then lowest vreg) */
	uint32_t *spill_heap[RA_NUM_FILES];
	uint32_t nspill_heap[RA_NUM_FILES];
	uint32_t *hint_first; /* CSR lists of COPY partners per vreg */
	uint32_t *hints;
	int32_t *phys_hint; /* per vreg: the physical register a COPY into it reads, or -1 */
};

static void set_bit(uint64_t *bits, unsigned r, bool on)
{
	if (on)
		bits[r / 64] |= 1ull << (r % 64);
	else
		bits[r / 64] &= ~(1ull << (r % 64));
}

static void set_maybe_free(struct linscan *ls, unsigned f, unsigned r, bool on)
{
	set_bit(ls->maybe_free[f], r, on);
}

struct order_key {
	uint32_t start, vreg;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

/* Sorts keys by start, then vreg, when they come in ascending vreg order: a stable LSD
 * radix sort on start, four 8-bit digits (a digit all keys share is skipped).  qsort's
 * comparator calls were 2% of compiling a 49k-instruction kernel. */
static void sort_by_start(struct order_key *keys, uint32_t n, struct pa_arena *a)
{
	if (n < 64) {
		qsort(keys, n, sizeof *keys, cmp_order);
		return;
	}
	struct order_key *tmp = PA_NEW_ARRAY(a, struct order_key, n), *from = keys, *to = tmp;
	for (unsigned shift = 0; shift < 32; shift += 8) {
		uint32_t count[257] = {0};
		for (uint32_t i = 0; i < n; i++)
			count[((from[i].start >> shift) & 0xff) + 1]++;
		if (count[((from[0].start >> shift) & 0xff) + 1] == n)
			continue;
		for (unsigned d = 0; d < 256; d++)
			count[d + 1] += count[d];
		for (uint32_t i = 0; i < n; i++)
			to[count[(from[i].start >> shift) & 0xff]++] = from[i];
		struct order_key *t = from;
		from = to;
		to = t;
	}
	if (from != keys)
		memcpy(keys, from, n * sizeof *keys);
}

static unsigned required_align(const struct mir_vreg *vr)
{
	unsigned align = vr->align ? vr->align : 1;
	if (vr->file == MIR_SGPR && vr->size >= 2) {
		unsigned need = vr->size == 2 ? 2 : 4;
		align = align > need ? align : need;
	}
	return align;
}

static bool reg_free(const struct linscan *ls, enum ra_file f, unsigned r,
                     const struct ra_interval *iv)
{
	const struct ra_ctx *ctx = ls->ctx;
	if (r >= ctx->budget[f])
		return false;
	if (f == RA_SGPR && r >= ctx->fn->reserved_sgprs_begin && r < ctx->fn->reserved_sgprs_end)
		return false;
	uint32_t busy = ls->busy_until[f][r];
	if (busy != RA_NO_POINT && busy >= iv->start &&
	    (iv->start < ls->free_from[f][r] || iv->end >= ls->held_from[f][r]))
		return false;
	const struct ra_fixed *fx = &ctx->fixed[f][r];
	return fx->first == RA_NO_POINT || fx->last < iv->start || fx->first > iv->end;
}

/* Whether the registers from `first` are free for vreg v, each over its dword's interval. */
static bool tuple_free(const struct linscan *ls, enum ra_file f, unsigned first, uint32_t v)
{
	const struct mir_vreg *vr = &ls->ctx->fn->vregs[v];
	if (first % required_align(vr))
		return false;
	const struct ra_interval *dw = &ls->ctx->dword_iv[ls->ctx->dword_base[v]];
	for (unsigned k = 0; k < vr->size; k++)
		if (!reg_free(ls, f, first + k, &dw[k]))
			return false;
	return true;
}

/* Whether the vreg of interval iv can take registers first.. of the fixed physical
 * registers a COPY into it reads (kernel inputs: s[0:1], the workgroup ids): as tuple_free,
 * except that a fixed register may be referenced last where the interval starts.  Only that
 * COPY can be there (a point is one instruction's; the interval starts where the vreg is
 * first written, read or live, and the COPY writes it), and it then copies a register onto
 * itself, which the rewrite drops.  (A multi-dword write starts at the instruction's read
 * point, where the COPY reads the fixed register.) */
static bool copy_source_free(const struct linscan *ls, enum ra_file f, unsigned first,
                             const struct mir_vreg *vr, const struct ra_interval *iv)
{
	const struct ra_ctx *ctx = ls->ctx;
	if (first % required_align(vr))
		return false;
	for (unsigned k = 0; k < vr->size; k++) {
		unsigned r = first + k;
		if (r >= ctx->budget[f] || (f == RA_SGPR && r >= ctx->fn->reserved_sgprs_begin &&
		                            r < ctx->fn->reserved_sgprs_end))
			return false;
		uint32_t busy = ls->busy_until[f][r];
		if (busy != RA_NO_POINT && busy >= iv->start)
			return false;
		const struct ra_fixed *fx = &ctx->fixed[f][r];
		if (fx->first != RA_NO_POINT && fx->last > iv->start && fx->first <= iv->end)
			return false;
	}
	return true;
}

/* The point since which register r (free for interval iv) has been free, for "free the
 * longest" (0: never used).  A hole counts from its start like any free register: ranking
 * holes after every register free for good was measured 3.5% slower on hgemm_mma
 * (gfx1100, CU model) and no better elsewhere. */
static uint32_t free_since(const struct linscan *ls, enum ra_file f, unsigned r,
                           const struct ra_interval *iv)
{
	uint32_t busy = ls->busy_until[f][r];
	if (busy == RA_NO_POINT)
		return 0;
	if (busy < iv->start)
		return busy;
	return ls->free_from[f][r] ? ls->free_from[f][r] - 1 : 0; /* in the hole */
}

/* Candidate first registers in word w of file f: those that may be free, and those with a
 * hole ahead. */
static uint64_t candidates(const struct linscan *ls, enum ra_file f, unsigned w)
{
	return ls->maybe_free[f][w] | ls->has_hole[f][w];
}

/* The first register for vreg v, or -1 when none is free. */
static int32_t choose(const struct linscan *ls, uint32_t v)
{
	const struct mir_function *fn = ls->ctx->fn;
	const struct mir_vreg *vr = &fn->vregs[v];
	enum ra_file f = ra_file_of(vr->file);
	if (ls->phys_hint[v] >= 0 &&
	    copy_source_free(ls, f, (unsigned)ls->phys_hint[v], vr, &ls->ctx->intervals[v]))
		return ls->phys_hint[v];
	for (uint32_t h = ls->hint_first[v]; h < ls->hint_first[v + 1]; h++) {
		const struct mir_vreg *partner = &fn->vregs[ls->hints[h]];
		if (partner->phys >= 0 && partner->file == vr->file &&
		    tuple_free(ls, f, (unsigned)partner->phys, v))
			return partner->phys;
	}
	unsigned align = required_align(vr);
	unsigned budget = ls->ctx->budget[f];
	const struct ra_interval *dw = &ls->ctx->dword_iv[ls->ctx->dword_base[v]];
	if (!ls->ctx->lowest_first) {
		/* Among the registers already in use, the one free the longest: a register
		 * reused at once would tie the value to the one before it and leave the
		 * scheduler (which runs after allocation) no room to overlap them. */
		int32_t best = -1;
		uint32_t best_end = 0;
		for (unsigned w = 0; w * 64 < ls->high[f]; w++)
			for (uint64_t bits = candidates(ls, f, w); bits; bits &= bits - 1) {
				unsigned r = w * 64 + (unsigned)__builtin_ctzll(bits);
				if (r + vr->size > ls->high[f])
					break;
				/* a tuple's end is at least its first register's: one that cannot
				 * beat the best so far needs no test */
				if (best >= 0 && free_since(ls, f, r, &dw[0]) >= best_end)
					continue;
				if (r % align || !tuple_free(ls, f, r, v))
					continue;
				uint32_t end = 0;
				for (unsigned k = 0; k < vr->size; k++) {
					uint32_t b = free_since(ls, f, r + k, &dw[k]);
					end = b > end ? b : end;
				}
				if (best < 0 || end < best_end) {
					best = (int32_t)r;
					best_end = end;
				}
			}
		if (best >= 0)
			return best;
	}
	for (unsigned w = 0; w * 64 < budget; w++)
		for (uint64_t bits = candidates(ls, f, w); bits; bits &= bits - 1) {
			unsigned r = w * 64 + (unsigned)__builtin_ctzll(bits);
			if (r + vr->size > budget)
				return -1;
			if (r % align == 0 && tuple_free(ls, f, r, v))
				return (int32_t)r;
		}
	return -1;
}

static bool is_full_vreg_copy(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op != MIR_COPY)
		return false;
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return d->kind == MIR_VREG && s->kind == MIR_VREG && d->sub == 0 && s->sub == 0 &&
	       d->width == fn->vregs[d->v].size && s->width == fn->vregs[s->v].size;
}

/* The physical register a full-width COPY from a fixed register into a vreg reads (the
 * kernel's input registers copied out by selection), or -1. */
static int32_t fixed_copy_source(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op != MIR_COPY)
		return -1;
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	if (d->kind != MIR_VREG || d->sub != 0 || d->width != fn->vregs[d->v].size ||
	    s->width != d->width)
		return -1;
	if ((s->kind == MIR_SGPR && fn->vregs[d->v].file == MIR_SGPR) ||
	    (s->kind == MIR_VGPR && fn->vregs[d->v].file == MIR_VGPR))
		return (int32_t)s->v;
	return -1;
}

/* COPY partners of every vreg, in instruction order (CSR lists), and the fixed registers
 * copied into vregs (phys_hint). */
static void fill_hints(struct linscan *ls)
{
	const struct mir_function *fn = ls->ctx->fn;
	uint32_t *first = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 2);
	ls->phys_hint = PA_NEW_ARRAY(mir_pass_arena(fn), int32_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ls->phys_hint[v] = -1;
	uint32_t total = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t b = 0; b < fn->nblocks; b++)
			for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
				const struct mir_insn *in = &fn->blocks[b].insns[i];
				int32_t src = pass ? -1 : fixed_copy_source(fn, in);
				if (src >= 0 && ls->phys_hint[in->opnds[0].v] < 0)
					ls->phys_hint[in->opnds[0].v] = src;
				if (!is_full_vreg_copy(fn, in))
					continue;
				uint32_t d = in->opnds[0].v, s = in->opnds[1].v;
				if (pass == 0) {
					first[d + 1]++;
					first[s + 1]++;
					total += 2;
				} else {
					ls->hints[first[d + 1]++] = s;
					ls->hints[first[s + 1]++] = d;
				}
			}
		if (pass == 0) {
			for (uint32_t v = 0; v < fn->nvregs; v++)
				first[v + 1] += first[v];
			/* shift so the fill loop can count from each list's start */
			for (uint32_t v = fn->nvregs + 1; v-- > 1;)
				first[v] = first[v - 1];
			first[0] = 0;
			ls->hints = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, total + 1);
		}
	}
	ls->hint_first = first;
}

/* Whether spill candidate a comes before b: longer lived first, then the lower number
 * (the order a scan of every vreg would choose in). */
static bool spills_before(const struct ra_ctx *ctx, uint32_t a, uint32_t b)
{
	uint32_t ea = ctx->intervals[a].end, eb = ctx->intervals[b].end;
	return ea > eb || (ea == eb && a < b);
}

static void spill_heap_push(struct linscan *ls, enum ra_file f, uint32_t v)
{
	uint32_t *h = ls->spill_heap[f];
	uint32_t i = ls->nspill_heap[f]++;
	while (i && spills_before(ls->ctx, v, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void spill_heap_pop(struct linscan *ls, enum ra_file f)
{
	uint32_t *h = ls->spill_heap[f];
	uint32_t n = --ls->nspill_heap[f], last = h[n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && spills_before(ls->ctx, h[c + 1], h[c]))
			c++;
		if (!spills_before(ls->ctx, h[c], last))
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
}

/* The assigned spillable vreg of v's file overlapping vreg v that lives longest (the
 * lowest number among equals), or UINT32_MAX.  Intervals arrive in start order, so an
 * assigned interval overlaps v when it ends at or after v's start; one that ends before
 * never overlaps a later interval either, and a spilled one is never assigned again in
 * this round: both leave the heap for good when they reach its top. */
static uint32_t longest_overlapping(struct linscan *ls, uint32_t v)
{
	const struct ra_ctx *ctx = ls->ctx;
	const struct mir_function *fn = ctx->fn;
	enum ra_file f = ra_file_of(fn->vregs[v].file);
	while (ls->nspill_heap[f]) {
		uint32_t u = ls->spill_heap[f][0];
		if (fn->vregs[u].phys >= 0 && ctx->intervals[u].end >= ctx->intervals[v].start)
			return u;
		spill_heap_pop(ls, f);
	}
	return UINT32_MAX;
}

static void heap_push(struct linscan *ls, struct expiry e);

/* Register r of file f no longer holds the dword (of a spilled vreg) that ends at `end`.
 * When that dword is the register's last interval, the register is free again from the
 * end of the interval before it (which may still lie ahead: one in its hole); a dword that
 * went into a hole leaves its place reserved (the hole's start is not kept). */
static void release(struct linscan *ls, enum ra_file f, unsigned r, uint32_t end)
{
	if (ls->busy_until[f][r] != end)
		return;
	uint32_t from = ls->free_from[f][r];
	ls->busy_until[f][r] = from ? from - 1 : RA_NO_POINT;
	ls->held_from[f][r] = 0;
	set_bit(ls->has_hole[f], r, false);
	set_maybe_free(ls, f, r, true);
}

/* Gives register r of file f to a dword live over dw, the vreg's interval starting at
 * `now`: into the register's hole when it is held after dw, else after its last interval
 * (the place between that and dw's start, when dw starts later than `now`, is a hole). */
static void take(struct linscan *ls, enum ra_file f, unsigned r, const struct ra_interval *dw,
                 uint32_t now)
{
	uint32_t busy = ls->busy_until[f][r];
	if (busy != RA_NO_POINT && busy >= dw->start) {
		ls->free_from[f][r] = dw->end + 1;
		return;
	}
	ls->free_from[f][r] = busy == RA_NO_POINT ? 0 : busy + 1;
	ls->held_from[f][r] = dw->start;
	set_bit(ls->has_hole[f], r, dw->start > now);
	ls->busy_until[f][r] = dw->end;
	set_maybe_free(ls, f, r, false);
	heap_push(ls, (struct expiry){dw->end, (uint16_t)r, (uint8_t)f});
}

/* No register for vreg v: spills the overlapping value that lives longest (Poletto &
 * Sarkar's heuristic) until v fits, or v itself when it lives longest.  Returns the
 * register for v, -1 when v was spilled, -2 when nothing can be spilled. */
static int32_t spill_for(struct linscan *ls, uint32_t v)
{
	struct ra_ctx *ctx = ls->ctx;
	struct mir_function *fn = ctx->fn;
	enum ra_file f = ra_file_of(fn->vregs[v].file);
	for (;;) {
		int32_t r = choose(ls, v);
		if (r >= 0)
			return r;
		uint32_t u = longest_overlapping(ls, v);
		bool v_spillable = v < ctx->spillable_vregs && !ctx->no_spill[v];
		if (u == UINT32_MAX || ctx->intervals[u].end <= ctx->intervals[v].end) {
			if (!v_spillable)
				return -2;
			ctx->spilled[v] = true;
			return -1;
		}
		ctx->spilled[u] = true;
		for (unsigned k = 0; k < fn->vregs[u].size; k++)
			release(ls, f, (unsigned)fn->vregs[u].phys + k,
			        ctx->dword_iv[ctx->dword_base[u] + k].end);
		fn->vregs[u].phys = -1;
	}
}

static bool expiry_before(const struct expiry *a, const struct expiry *b)
{
	return a->end < b->end;
}

static void heap_push(struct linscan *ls, struct expiry e)
{
	uint32_t i = ls->nheap++;
	while (i && expiry_before(&e, &ls->heap[(i - 1) / 2])) {
		ls->heap[i] = ls->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	ls->heap[i] = e;
}

static struct expiry heap_pop(struct linscan *ls)
{
	struct expiry top = ls->heap[0], last = ls->heap[--ls->nheap];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= ls->nheap)
			break;
		if (c + 1 < ls->nheap && expiry_before(&ls->heap[c + 1], &ls->heap[c]))
			c++;
		if (!expiry_before(&ls->heap[c], &last))
			break;
		ls->heap[i] = ls->heap[c];
		i = c;
	}
	if (ls->nheap)
		ls->heap[i] = last;
	return top;
}

/* Registers whose interval ended before `start` may be free again. */
static void expire(struct linscan *ls, uint32_t start)
{
	while (ls->nheap && ls->heap[0].end < start) {
		struct expiry e = heap_pop(ls);
		if (ls->busy_until[e.file][e.reg] == e.end) {
			set_maybe_free(ls, e.file, e.reg, true);
			set_bit(ls->has_hole[e.file], e.reg, false);
		}
	}
}

enum ra_result ra_linscan(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	struct linscan ls = {.ctx = ctx};
	for (unsigned f = 0; f < RA_NUM_FILES; f++) {
		ls.busy_until[f] = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, RA_MAX_VGPRS);
		ls.held_from[f] = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, RA_MAX_VGPRS);
		ls.free_from[f] = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, RA_MAX_VGPRS);
		for (unsigned r = 0; r < RA_MAX_VGPRS; r++)
			ls.busy_until[f][r] = RA_NO_POINT;
	}
	memset(ls.maybe_free, 0xff, sizeof ls.maybe_free);
	uint32_t total_size = 0;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		total_size += fn->vregs[v].size;
	ls.heap = PA_NEW_ARRAY(mir_pass_arena(fn), struct expiry, total_size + 1);
	for (unsigned f = 0; f < RA_NUM_FILES; f++)
		ls.spill_heap[f] =
		        PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, ctx->spillable_vregs + 1);
	fill_hints(&ls);
	struct order_key *order =
	        PA_NEW_ARRAY(mir_pass_arena(fn), struct order_key, fn->nvregs + 1);
	uint32_t n = 0;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		if (ctx->intervals[v].start != RA_NO_POINT)
			order[n++] = (struct order_key){ctx->intervals[v].start, v};
	sort_by_start(order, n, mir_pass_arena(fn));
	bool spills = false;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v = order[k].vreg;
		struct mir_vreg *vr = &fn->vregs[v];
		enum ra_file f = ra_file_of(vr->file);
		expire(&ls, order[k].start);
		int32_t r = choose(&ls, v);
		if (r < 0 && ctx->lowest_first)
			return RA_FAILED; /* the trial keeps the allocation it competes with */
		if (r < 0 && f == RA_VGPR && !fn->scratch_ready) {
			ctx->stats->needs_scratch = true; /* the caller sets scratch up */
			return RA_FAILED;
		}
		if (r < 0) {
			r = spill_for(&ls, v);
			if (r == -1) {
				spills = true;
				continue;
			}
		}
		if (r < 0) {
			ra_report_pressure(ctx, f);
			return RA_FAILED;
		}
		vr->phys = r;
		if ((unsigned)r + vr->size > ls.high[f])
			ls.high[f] = (unsigned)r + vr->size;
		for (unsigned i = 0; i < vr->size; i++)
			take(&ls, f, (unsigned)r + i, &ctx->dword_iv[ctx->dword_base[v] + i],
			     order[k].start);
		if (v < ctx->spillable_vregs && !ctx->no_spill[v])
			spill_heap_push(&ls, f, v);
		ctx->stats->intervals++;
	}
	for (uint32_t v = 0; v < ctx->spillable_vregs && !spills; v++)
		spills = ctx->spilled[v];
	return spills ? RA_SPILL : RA_OK;
}
