/* s_waitcnt insertion: waits for memory results before their registers are read or
 * overwritten.
 *
 * A scoreboard per counter (sched_int.h enum sched_counter) holds, for every register slot
 * with a pending result, how many later events of that counter were issued since (its
 * distance, saturating at the counter's maximum), and which kinds of events are pending.
 * Before an instruction that reads or writes a pending register (RAW, WAW) the smallest
 * wait that retires it is inserted: when the counter's pending events all complete in
 * order (vector memory in order; LDS in order) the count is the distance, otherwise
 * (scalar memory, messages, the lgkm side of FLAT, mixed kinds) the count is 0.  Waits
 * already in the code are applied to the scoreboard as well, and rewritten without the
 * counters that have nothing in flight (removed when none has): selection places them for
 * the memory model, calls and traps without knowing what is pending.  At control-flow
 * joins the scoreboards of the predecessors merge (smallest distance, union of kinds);
 * blocks are revisited in linear order until nothing changes, which terminates because
 * distances only shrink and kinds only grow (LLVM's SIInsertWaitcnts follows the same
 * plan).
 *   requires: physical operands; linear successors.
 *   breaks: instruction positions (waits are inserted; blocks get new arrays).
 *   complexity: O(iterations x instructions x slots), iterations bounded by the lattice
 *   height (in practice 2-3). */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

enum { NOT_PENDING = 0xff, UNUSED_SLOT = 0xffff, STAMP_BASE = 256 /* > any distance */ };

/* Two forms of a scoreboard.  A block's entry board (what the fixed point iterates) is
 * compact: dist[c * nslots + k] for compact slot k (see struct wc), then kinds[c]; it is
 * sized by the registers the function really uses.  The working board that runs through
 * a block stores issue stamps instead of distances, so issuing an event costs O(registers
 * it defines) rather than a walk over every slot: seq[c] counts the events of counter c,
 * a slot's stamp is the seq of the event that will write it (0: none), its distance is
 * seq - stamp (saturating at the counter's maximum), and a wait retires every stamp up to
 * floor[c] (for in-order counters, waiting for n retires all but the last n events). */
typedef uint8_t board;

struct work {
	uint32_t seq[SCHED_NUM_COUNTERS], floor[SCHED_NUM_COUNTERS];
	uint8_t kinds[SCHED_NUM_COUNTERS];
	uint32_t *stamp; /* [c * nslots + k] */
};
/* Invariant of both forms: kinds[c] == 0 means no slot is pending on counter c (events
 * set kinds; only a full wait clears them, and it retires everything). */

struct wc {
	const struct mir_function *fn;
	const struct amd_target *t;
	struct pa_arena *arena;
	uint16_t slot_of[SCHED_NUM_SLOTS]; /* register slot -> compact slot, or UNUSED_SLOT */
	uint16_t reg_of_slot[SCHED_NUM_SLOTS];
	unsigned nslots;
	size_t board_size;
	unsigned max[SCHED_NUM_COUNTERS];
	board *in;                /* per block, board_size bytes each */
	board *out;               /* one board: a block's exit, for merging */
	struct mir_insn *staging; /* the block being rewritten (grows as needed) */
	uint32_t staging_cap;
	bool *reached;
	/* The compact slots each instruction writes, then those it reads, found once by
	 * wc_init (the fixed point visits every instruction two or three times): instruction
	 * `at` (its number in the function, block by block) has slots[at_off[at] ..
	 * at_off[at] + ndefs[at]) written and up to at_off[at + 1] read; block b starts at
	 * instruction first[b]. */
	uint32_t *first, *at_off;
	uint16_t *ndefs, *slots;
};

static board *block_board(const struct wc *wc, uint32_t b)
{
	return wc->in + (size_t)b * wc->board_size;
}

static uint8_t *dist_of(const struct wc *wc, board *bd, unsigned c)
{
	return bd + (size_t)c * wc->nslots;
}

static uint8_t *kinds_of(const struct wc *wc, board *bd)
{
	return bd + (size_t)SCHED_NUM_COUNTERS * wc->nslots;
}

static void board_clear(const struct wc *wc, board *bd)
{
	memset(bd, NOT_PENDING, (size_t)SCHED_NUM_COUNTERS * wc->nslots);
	memset(kinds_of(wc, bd), 0, SCHED_NUM_COUNTERS);
}

static bool is_unordered(uint8_t kinds)
{
	return (kinds & SCHED_EV_UNORDERED) || (kinds & (kinds - 1));
}

static void work_init(const struct wc *wc, struct work *wk, struct pa_arena *a)
{
	memset(wk, 0, sizeof *wk);
	wk->stamp = PA_NEW_ARRAY(a, uint32_t, (size_t)SCHED_NUM_COUNTERS * wc->nslots);
}

static void work_copy(const struct wc *wc, struct work *to, const struct work *from)
{
	uint32_t *stamp = to->stamp;
	*to = *from;
	to->stamp = stamp;
	memcpy(stamp, from->stamp, (size_t)SCHED_NUM_COUNTERS * wc->nslots * sizeof *stamp);
}

/* Distance of compact slot k on counter c, or NOT_PENDING. */
static unsigned work_dist(const struct wc *wc, const struct work *wk, unsigned c, unsigned k)
{
	uint32_t st = wk->stamp[c * wc->nslots + k];
	if (st <= wk->floor[c])
		return NOT_PENDING;
	uint32_t d = wk->seq[c] - st;
	return d < wc->max[c] ? d : wc->max[c];
}

static void work_load(const struct wc *wc, struct work *wk, board *bd)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		/* seq only grows, so every stamp left from an earlier block is <= the new floor */
		wk->floor[c] = wk->seq[c];
		wk->seq[c] += STAMP_BASE;
		wk->kinds[c] = kinds_of(wc, bd)[c];
		if (!wk->kinds[c])
			continue; /* no kinds: nothing pending on c */
		const uint8_t *dist = dist_of(wc, bd, c);
		uint32_t *stamp = wk->stamp + c * wc->nslots;
		for (unsigned k = 0; k < wc->nslots; k++)
			stamp[k] = dist[k] == NOT_PENDING ? wk->floor[c] : wk->seq[c] - dist[k];
	}
}

static void work_store(const struct wc *wc, const struct work *wk, board *bd)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		uint8_t *dist = dist_of(wc, bd, c);
		kinds_of(wc, bd)[c] = wk->kinds[c];
		if (!wk->kinds[c]) {
			memset(dist, NOT_PENDING, wc->nslots);
			continue;
		}
		for (unsigned k = 0; k < wc->nslots; k++)
			dist[k] = (uint8_t)work_dist(wc, wk, c, k);
	}
}

/* Applies a wait to the scoreboard. */
static void work_wait(struct work *wk, const struct sched_wait *w)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		unsigned n = w->n[c];
		if (n == SCHED_NO_WAIT)
			continue;
		if (n == 0) {
			wk->floor[c] = wk->seq[c];
			wk->kinds[c] = 0;
		} else if (!is_unordered(wk->kinds[c]) && wk->seq[c] - n > wk->floor[c]) {
			wk->floor[c] = wk->seq[c] - n;
		}
	}
}

/* Whether `in` may leave operations in flight on counters its row does not name: a call
 * (the callee's epilogue s_waitcnt leaves vscnt on gfx10/11, sel_call.c) and the cache
 * write-backs of a release (buffer_wbl2, global_wb, global_wbinv: the table counts them
 * in vmcnt/loadcnt, LLVM 19 in none; whether gfx12 counts global_wb in storecnt is not
 * settled here).  The explicit waits after them keep every counter. */
static bool leaves_unknown(const struct mir_insn *in)
{
	switch (in->op) {
	case AMD_OP_S_SWAPPC_B64:
	case AMD_OP_S_CALL_B64:
	case AMD_OP_BUFFER_WBL2:
	case AMD_OP_GLOBAL_WB:
	case AMD_OP_GLOBAL_WBINV:
		return true;
	default:
		return false;
	}
}

/* Whether `in` is a cache invalidate that counts as no event here, as in LLVM's
 * SIInsertWaitcnts (its carve-out: buffer_wbinvl1(_vol), buffer_gl0_inv, buffer_gl1_inv):
 * nothing waits for an invalidate to complete (the cache orders it before the wave's
 * later loads), and leaving it out of the distances only makes a wait for an older load
 * count fewer events, never too many.  So a barrier after a CTA acquire's invalidate does
 * not wait for vmcnt when no vector memory is in flight. */
static bool uncounted_invalidate(const struct mir_insn *in)
{
	return in->op == AMD_OP_BUFFER_WBINVL1 || in->op == AMD_OP_BUFFER_WBINVL1_VOL ||
	       in->op == AMD_OP_BUFFER_GL0_INV || in->op == AMD_OP_BUFFER_GL1_INV;
}

/* Issues instruction `in`, number `at` in the function: records its events and the
 * registers its results land in. */
static void work_issue(const struct wc *wc, struct work *wk, const struct mir_insn *in, uint32_t at)
{
	if (uncounted_invalidate(in))
		return;
	if (leaves_unknown(in))
		for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
			wk->kinds[c] |= SCHED_EV_UNKNOWN;
	struct sched_event ev[2];
	unsigned nev = sched_insn_events(wc->t, in, ev);
	if (!nev)
		return;
	const uint16_t *defs = wc->slots + wc->at_off[at];
	unsigned ndefs = wc->ndefs[at];
	for (unsigned e = 0; e < nev; e++) {
		unsigned c = ev[e].counter;
		uint32_t *stamp = wk->stamp + c * wc->nslots;
		uint32_t now = ++wk->seq[c];
		wk->kinds[c] |= ev[e].kind;
		for (unsigned k = 0; k < ndefs; k++)
			stamp[defs[k]] = now;
	}
}

/* The wait `in` needs before it issues (none when no register of it is pending). */
static void needed_wait(const struct wc *wc, const struct work *wk, uint32_t at,
                        struct sched_wait *w)
{
	sched_wait_none(w);
	unsigned any = 0;
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		any |= wk->kinds[c];
	if (!any)
		return;                                    /* nothing pending at all */
	const uint16_t *regs = wc->slots + wc->at_off[at]; /* written and read */
	unsigned n = wc->at_off[at + 1] - wc->at_off[at];
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		if (!wk->kinds[c])
			continue; /* nothing pending on this counter */
		bool unordered = is_unordered(wk->kinds[c]);
		for (unsigned k = 0; k < n; k++) {
			unsigned d = work_dist(wc, wk, c, regs[k]);
			if (d == NOT_PENDING)
				continue;
			if (unordered)
				d = 0;
			if (d < w->n[c])
				w->n[c] = (uint8_t)d;
		}
	}
}

/* Drops from w, an explicit wait, the counters on which nothing is in flight (kinds 0:
 * no event since the last full wait along any path here, block entries being the join
 * over every predecessor).  Such a part orders nothing: a wait for memory ordering
 * (before a release, a barrier, a call) needs only the operations still in flight. */
static void drop_idle_counters(const struct work *wk, struct sched_wait *w)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		if (!wk->kinds[c])
			w->n[c] = SCHED_NO_WAIT;
}

/* Appends explicit wait `in` (what it waits for: w) to fresh[*nfresh..] as far as it is
 * needed: not at all, as it is, or narrowed to the busy counters. */
static void emit_explicit_wait(const struct wc *wc, const struct work *wk,
                               const struct mir_insn *in, struct sched_wait w,
                               struct mir_insn *fresh, uint32_t *nfresh)
{
	drop_idle_counters(wk, &w);
	if (sched_wait_is_none(&w))
		return;
	struct mir_insn waits[SCHED_NUM_COUNTERS];
	unsigned nw = sched_wait_insns(wc->t, &w, waits);
	bool same = nw == 1 && waits[0].op == in->op && waits[0].nopnds == in->nopnds &&
	            waits[0].opnds[in->nopnds - 1].v == in->opnds[in->nopnds - 1].v;
	if (same || !nw) {
		fresh[(*nfresh)++] = *in;
		return;
	}
	for (unsigned k = 0; k < nw; k++) {
		waits[k].src_line = in->src_line;
		fresh[(*nfresh)++] = waits[k];
	}
}

/* Merges `from` into `into`; true when `into` changed. */
static bool board_merge(const struct wc *wc, board *into, const board *from)
{
	bool changed = false;
	size_t nd = (size_t)SCHED_NUM_COUNTERS * wc->nslots;
	for (size_t k = 0; k < nd; k++)
		if (from[k] < into[k]) {
			into[k] = from[k];
			changed = true;
		}
	for (size_t c = nd; c < nd + SCHED_NUM_COUNTERS; c++)
		if ((into[c] | from[c]) != into[c]) {
			into[c] |= from[c];
			changed = true;
		}
	return changed;
}

/* Runs block b from the working board wk; with `emit`, builds the block's new instruction
 * array with the waits inserted. */
static void run_block(struct wc *wc, uint32_t b, struct work *wk, struct mir_function *emit,
                      struct sched_stats *stats)
{
	const struct mir_block *bl = &wc->fn->blocks[b];
	struct mir_insn *fresh = wc->staging;
	uint32_t nfresh = 0;
	if (emit)
		fresh = wc->staging = pa_arena_grow(emit->arena, wc->staging, &wc->staging_cap,
		                                    bl->ninsns + bl->ninsns / 4 + 8, sizeof *fresh);
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		struct sched_wait w;
		needed_wait(wc, wk, wc->first[b] + i, &w);
		if (emit)
			fresh = wc->staging =
			        pa_arena_grow(emit->arena, wc->staging, &wc->staging_cap,
			                      nfresh + 1 + 2 * SCHED_NUM_COUNTERS, sizeof *fresh);
		if (!sched_wait_is_none(&w)) {
			work_wait(wk, &w);
			if (emit) {
				struct mir_insn waits[SCHED_NUM_COUNTERS];
				unsigned nw = sched_wait_insns(wc->t, &w, waits);
				for (unsigned k = 0; k < nw; k++) {
					waits[k].src_line = in->src_line;
					fresh[nfresh++] = waits[k];
				}
				if (stats)
					stats->waits += nw;
			}
		}
		if (sched_wait_of_insn(wc->t, in, &w)) {
			if (emit)
				emit_explicit_wait(wc, wk, in, w, fresh, &nfresh);
			work_wait(wk, &w);
			continue; /* a wait issues no events */
		}
		work_issue(wc, wk, in, wc->first[b] + i);
		if (emit)
			fresh[nfresh++] = *in;
	}
	if (emit)
		mir_take_staging(emit, b, &wc->staging, &wc->staging_cap, nfresh);
}

/* Iterates the block entry boards to a fixed point. */
static void solve(struct wc *wc)
{
	const struct mir_function *fn = wc->fn;
	struct work wk;
	work_init(wc, &wk, wc->arena);
	board_clear(wc, block_board(wc, 0));
	wc->reached[0] = true;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < fn->nblocks; b++) {
			if (!wc->reached[b])
				continue;
			work_load(wc, &wk, block_board(wc, b));
			run_block(wc, b, &wk, NULL, NULL);
			work_store(wc, &wk, wc->out);
			for (unsigned s = 0; s < fn->blocks[b].nsucc; s++) {
				uint32_t to = fn->blocks[b].succ[s];
				if (!wc->reached[to]) {
					board_clear(wc, block_board(wc, to));
					wc->reached[to] = true;
					changed = true;
				}
				changed |= board_merge(wc, block_board(wc, to), wc->out);
			}
		}
	}
}

/* Gives the slots of r[0..n) compact indices where they have none yet, and appends those
 * indices to wc->slots[*nlist..] (which has room for them). */
static void mark_slots(struct wc *wc, const struct sched_range *r, unsigned n, uint32_t *nlist)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned s = r[i].first; s < r[i].first + r[i].count; s++) {
			if (wc->slot_of[s] == UNUSED_SLOT) {
				wc->reg_of_slot[wc->nslots] = (uint16_t)s;
				wc->slot_of[s] = (uint16_t)wc->nslots++;
			}
			wc->slots[(*nlist)++] = wc->slot_of[s];
		}
}

static uint32_t range_slots(const struct sched_range *r, unsigned n)
{
	uint32_t total = 0;
	for (unsigned i = 0; i < n; i++)
		total += r[i].count;
	return total;
}

/* Gives every register slot the function touches a compact index (in order of first
 * appearance: deterministic), then sizes and allocates the block boards. */
static void wc_init(struct wc *wc, const struct mir_function *fn, struct pa_arena *arena)
{
	memset(wc, 0, sizeof *wc);
	wc->fn = fn;
	wc->t = fn->target;
	wc->arena = arena;
	memset(wc->slot_of, 0xff, sizeof wc->slot_of);
	uint32_t total = 0, nlist = 0, cap = 0;
	wc->first = pa_arena_array(arena, fn->nblocks + 1, sizeof *wc->first, 4);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		wc->first[b] = total;
		total += fn->blocks[b].ninsns;
	}
	wc->at_off = pa_arena_array(arena, total + 1, sizeof *wc->at_off, 4);
	wc->ndefs = pa_arena_array(arena, total + 1, sizeof *wc->ndefs, 2);
	uint32_t at = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, at++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			struct sched_range u[SCHED_MAX_RANGES], d[SCHED_MAX_RANGES];
			unsigned nu = sched_insn_uses(fn, in, u), nd = sched_insn_defs(fn, in, d);
			/* room for reads, writes and a copy of the reads (the rotation below) */
			uint32_t nread = range_slots(u, nu), nwrite = range_slots(d, nd);
			wc->slots =
			        pa_arena_grow(wc->arena, wc->slots, &cap,
			                      nlist + 2 * nread + nwrite + 1, sizeof *wc->slots);
			/* (compact indices in order of first appearance, reads first, as before) */
			uint32_t start = nlist;
			mark_slots(wc, u, nu, &nlist);
			mark_slots(wc, d, nd, &nlist);
			/* the list holds reads then writes: rotate to writes then reads */
			memcpy(wc->slots + nlist, wc->slots + start, nread * sizeof *wc->slots);
			memmove(wc->slots + start, wc->slots + start + nread,
			        (nwrite + nread) * sizeof *wc->slots);
			wc->at_off[at] = start;
			wc->ndefs[at] = (uint16_t)nwrite;
		}
	wc->at_off[total] = nlist;
	if (!wc->nslots)
		wc->nslots = 1;
	wc->board_size = (size_t)SCHED_NUM_COUNTERS * (wc->nslots + 1);
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		wc->max[c] = sched_counter_max(wc->t, c);
	uint32_t n = fn->nblocks ? fn->nblocks : 1;
	wc->in = pa_arena_array(arena, n, wc->board_size, 8);
	wc->out = pa_arena_array(arena, 1, wc->board_size, 8);
	wc->reached = pa_arena_array(arena, n, sizeof *wc->reached, 1);
	memset(wc->reached, 0, n * sizeof *wc->reached);
}

void sched_waitcnt(struct mir_function *fn, struct sched_stats *stats)
{
	if (!fn->nblocks)
		return;
	/* The tables in the pass arena (emptied after the pass, its memory reused by the next:
	 * a fresh arena per call would fault in new pages every time); the rewritten blocks in
	 * the function's arena. */
	struct wc wc;
	wc_init(&wc, fn, mir_pass_arena(fn));
	solve(&wc);
	struct work wk;
	work_init(&wc, &wk, mir_pass_arena(fn));
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (!wc.reached[b])
			board_clear(&wc, block_board(&wc, b));
		work_load(&wc, &wk, block_board(&wc, b));
		run_block(&wc, b, &wk, fn, stats);
	}
}

/* ---- notes for the listing ---- */

static void append(char *buf, size_t len, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, len - *used, "%s", text);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* Names the registers a wait retires: those pending before it and not after; a wait that
 * retires none orders memory still in flight (a store, say, before a barrier or a
 * release), or is redundant when nothing is in flight on its counters. */
static const char *wait_note(struct wc *wc, const struct work *before, const struct work *after,
                             const struct sched_wait *w)
{
	char buf[256];
	size_t used = 0;
	append(buf, sizeof buf, &used, "retires");
	unsigned shown = 0;
	for (unsigned k = 0; k < wc->nslots && shown < 8; k++) {
		bool retired = false;
		unsigned s = wc->reg_of_slot[k];
		for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
			retired |= work_dist(wc, before, c, k) != NOT_PENDING &&
			           work_dist(wc, after, c, k) == NOT_PENDING;
		if (!retired)
			continue;
		char reg[16];
		if (s >= SCHED_SLOT_VGPR0)
			snprintf(reg, sizeof reg, " v%u", s - SCHED_SLOT_VGPR0);
		else
			snprintf(reg, sizeof reg, " s%u", s);
		append(buf, sizeof buf, &used, reg);
		shown++;
	}
	bool in_flight = false;
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		in_flight |= w->n[c] != SCHED_NO_WAIT && before->kinds[c];
	if (!shown)
		append(buf, sizeof buf, &used,
		       in_flight ? " no register: orders memory in flight"
		                 : " nothing pending (redundant)");
	return pa_arena_strndup(wc->arena, buf, used);
}

static const char *event_note(struct wc *wc, const struct mir_insn *in)
{
	struct sched_event ev[2];
	unsigned nev = sched_insn_events(wc->t, in, ev);
	if (!nev)
		return NULL;
	char buf[64];
	size_t used = 0;
	for (unsigned e = 0; e < nev; e++) {
		append(buf, sizeof buf, &used, e ? " +" : "+");
		append(buf, sizeof buf, &used, sched_counter_name(wc->t, ev[e].counter));
	}
	return pa_arena_strndup(wc->arena, buf, used);
}

const char **sched_waitcnt_notes(const struct mir_function *fn, struct pa_arena *arena)
{
	uint32_t total = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		total += fn->blocks[b].ninsns;
	const char **notes = pa_arena_array(arena, total + 1, sizeof *notes, 8);
	memset(notes, 0, (total + 1) * sizeof *notes);
	if (!fn->nblocks)
		return notes;
	struct wc wc;
	wc_init(&wc, fn, arena);
	solve(&wc);
	struct work bd, before;
	work_init(&wc, &bd, arena);
	work_init(&wc, &before, arena);
	uint32_t k = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (!wc.reached[b])
			board_clear(&wc, block_board(&wc, b));
		work_load(&wc, &bd, block_board(&wc, b));
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, k++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			struct sched_wait w;
			if (sched_wait_of_insn(wc.t, in, &w)) {
				work_copy(&wc, &before, &bd);
				work_wait(&bd, &w);
				notes[k] = wait_note(&wc, &before, &bd, &w);
			} else {
				notes[k] = event_note(&wc, in);
			}
			work_issue(&wc, &bd, in, k);
		}
	}
	return notes;
}
