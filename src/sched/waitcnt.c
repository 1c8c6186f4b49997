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
 * already in the code are applied to the scoreboard as well.  At control-flow joins the
 * scoreboards of the predecessors merge (smallest distance, union of kinds); blocks are
 * revisited in linear order until nothing changes, which terminates because distances only
 * shrink and kinds only grow (LLVM's SIInsertWaitcnts follows the same plan).
 *   requires: physical operands; linear successors.
 *   breaks: instruction positions (waits are inserted; blocks get new arrays).
 *   complexity: O(iterations x instructions x slots), iterations bounded by the lattice
 *   height (in practice 2-3). */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

enum { NOT_PENDING = 0xff };

struct board {
	uint8_t dist[SCHED_NUM_COUNTERS][SCHED_NUM_SLOTS];
	uint8_t kinds[SCHED_NUM_COUNTERS];
};

struct wc {
	const struct mir_function *fn;
	const struct amd_target *t;
	struct pa_arena *arena;
	struct board *in, *out; /* per block */
	bool *reached;
	uint32_t **preds, *npreds;
};

static void board_clear(struct board *bd)
{
	memset(bd, NOT_PENDING, sizeof bd->dist);
	memset(bd->kinds, 0, sizeof bd->kinds);
}

static bool is_unordered(uint8_t kinds)
{
	return (kinds & SCHED_EV_UNORDERED) || (kinds & (kinds - 1));
}

/* Applies a wait to the scoreboard. */
static void board_wait(struct board *bd, const struct sched_wait *w)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		unsigned n = w->n[c];
		if (n == SCHED_NO_WAIT)
			continue;
		if (n == 0) {
			memset(bd->dist[c], NOT_PENDING, sizeof bd->dist[c]);
			bd->kinds[c] = 0;
		} else if (!is_unordered(bd->kinds[c])) {
			for (unsigned s = 0; s < SCHED_NUM_SLOTS; s++)
				if (bd->dist[c][s] != NOT_PENDING && bd->dist[c][s] >= n)
					bd->dist[c][s] = NOT_PENDING;
		}
	}
}

/* Records the events of `in` and the registers its results land in. */
static void board_issue(struct wc *wc, struct board *bd, const struct mir_insn *in)
{
	struct sched_event ev[2];
	unsigned nev = sched_insn_events(wc->t, in, ev);
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned ndefs = sched_insn_defs(wc->fn, in, defs);
	for (unsigned e = 0; e < nev; e++) {
		unsigned c = ev[e].counter, max = sched_counter_max(wc->t, c);
		for (unsigned s = 0; s < SCHED_NUM_SLOTS; s++)
			if (bd->dist[c][s] != NOT_PENDING && bd->dist[c][s] < max)
				bd->dist[c][s]++;
		bd->kinds[c] |= ev[e].kind;
		for (unsigned r = 0; r < ndefs; r++)
			for (unsigned s = defs[r].first; s < defs[r].first + defs[r].count; s++)
				bd->dist[c][s] = 0;
	}
}

/* The wait `in` needs before it issues (none when no register of it is pending). */
static void needed_wait(struct wc *wc, const struct board *bd, const struct mir_insn *in,
                        struct sched_wait *w)
{
	sched_wait_none(w);
	struct sched_range regs[2 * SCHED_MAX_RANGES];
	unsigned n = sched_insn_uses(wc->fn, in, regs);
	n += sched_insn_defs(wc->fn, in, regs + n);
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		for (unsigned r = 0; r < n; r++)
			for (unsigned s = regs[r].first; s < regs[r].first + regs[r].count; s++) {
				unsigned d = bd->dist[c][s];
				if (d == NOT_PENDING)
					continue;
				if (is_unordered(bd->kinds[c]))
					d = 0;
				if (d < w->n[c])
					w->n[c] = (uint8_t)d;
			}
}

/* Merges `from` into `into`; true when `into` changed. */
static bool board_merge(struct board *into, const struct board *from)
{
	bool changed = false;
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		for (unsigned s = 0; s < SCHED_NUM_SLOTS; s++)
			if (from->dist[c][s] < into->dist[c][s]) {
				into->dist[c][s] = from->dist[c][s];
				changed = true;
			}
		if ((into->kinds[c] | from->kinds[c]) != into->kinds[c]) {
			into->kinds[c] |= from->kinds[c];
			changed = true;
		}
	}
	return changed;
}

/* Runs block b from its entry board; with `emit`, builds the block's new instruction array
 * with the waits inserted; notes (if non-NULL) gets, per original instruction index, a
 * text naming what a wait before it retires. */
static void run_block(struct wc *wc, uint32_t b, struct board *bd, struct mir_function *emit,
                      struct sched_stats *stats)
{
	const struct mir_block *bl = &wc->fn->blocks[b];
	struct mir_insn *fresh = NULL;
	uint32_t nfresh = 0;
	if (emit)
		fresh = pa_arena_array(wc->arena, bl->ninsns * (1 + SCHED_NUM_COUNTERS) + 1,
		                       sizeof *fresh, 8);
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		struct sched_wait w;
		needed_wait(wc, bd, in, &w);
		if (!sched_wait_is_none(&w)) {
			board_wait(bd, &w);
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
		if (sched_wait_of_insn(wc->t, in, &w))
			board_wait(bd, &w);
		board_issue(wc, bd, in);
		if (emit)
			fresh[nfresh++] = *in;
	}
	if (emit) {
		emit->blocks[b].insns = fresh;
		emit->blocks[b].ninsns = emit->blocks[b].cap = nfresh;
	}
}

/* Iterates the block entry boards to a fixed point. */
static void solve(struct wc *wc)
{
	const struct mir_function *fn = wc->fn;
	struct board *scratch = pa_arena_alloc(wc->arena, sizeof *scratch, 8);
	board_clear(&wc->in[0]);
	wc->reached[0] = true;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < fn->nblocks; b++) {
			if (!wc->reached[b])
				continue;
			*scratch = wc->in[b];
			run_block(wc, b, scratch, NULL, NULL);
			wc->out[b] = *scratch;
			for (unsigned s = 0; s < fn->blocks[b].nsucc; s++) {
				uint32_t to = fn->blocks[b].succ[s];
				if (!wc->reached[to]) {
					board_clear(&wc->in[to]);
					wc->reached[to] = true;
					changed = true;
				}
				changed |= board_merge(&wc->in[to], &wc->out[b]);
			}
		}
	}
}

static void wc_init(struct wc *wc, const struct mir_function *fn, struct pa_arena *arena)
{
	memset(wc, 0, sizeof *wc);
	wc->fn = fn;
	wc->t = fn->target;
	wc->arena = arena;
	uint32_t n = fn->nblocks ? fn->nblocks : 1;
	wc->in = pa_arena_array(arena, n, sizeof *wc->in, 8);
	wc->out = pa_arena_array(arena, n, sizeof *wc->out, 8);
	wc->reached = pa_arena_array(arena, n, sizeof *wc->reached, 1);
	memset(wc->reached, 0, n * sizeof *wc->reached);
}

void sched_waitcnt(struct mir_function *fn, struct sched_stats *stats)
{
	if (!fn->nblocks)
		return;
	struct pa_arena scratch;
	pa_arena_init(&scratch);
	struct wc wc;
	wc_init(&wc, fn, &scratch);
	solve(&wc);
	wc.arena = fn->arena; /* the new instruction arrays live with the function */
	struct board *bd = pa_arena_alloc(&scratch, sizeof *bd, 8);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (wc.reached[b])
			*bd = wc.in[b];
		else
			board_clear(bd);
		run_block(&wc, b, bd, fn, stats);
	}
	pa_arena_free(&scratch);
}

/* ---- notes for the listing ---- */

static void append(char *buf, size_t len, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, len - *used, "%s", text);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* Names the registers a wait retires: those pending before it and not after. */
static const char *wait_note(struct wc *wc, const struct board *before, const struct board *after)
{
	char buf[256];
	size_t used = 0;
	append(buf, sizeof buf, &used, "retires");
	unsigned shown = 0;
	for (unsigned s = 0; s < SCHED_NUM_SLOTS && shown < 8; s++) {
		bool retired = false;
		for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
			retired |= before->dist[c][s] != NOT_PENDING &&
			           after->dist[c][s] == NOT_PENDING;
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
	if (!shown)
		append(buf, sizeof buf, &used, " nothing pending (redundant)");
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
	struct board *bd = pa_arena_alloc(arena, sizeof *bd, 8);
	struct board *before = pa_arena_alloc(arena, sizeof *before, 8);
	uint32_t k = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (wc.reached[b])
			*bd = wc.in[b];
		else
			board_clear(bd);
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, k++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			struct sched_wait w;
			if (sched_wait_of_insn(wc.t, in, &w)) {
				*before = *bd;
				board_wait(bd, &w);
				notes[k] = wait_note(&wc, before, bd);
			} else {
				notes[k] = event_note(&wc, in);
			}
			board_issue(&wc, bd, in);
		}
	}
	return notes;
}
