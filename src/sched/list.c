/* List scheduling of each basic block, before register allocation (on virtual registers)
 * or after it (on physical ones).
 *
 * Algorithm: a block is cut into regions at instructions whose place must not change
 * (branches, waits, barriers, messages, cache control, MODE writers, pseudo-instructions).
 * In each region a dependence graph is built on the physical registers (read after write
 * with the producer's latency, write after read and write after write as order only; every
 * vector instruction reads EXEC), and on memory (a store is ordered after every earlier
 * load and store; a load after every earlier store) per address space: LDS, global
 * (global_*, s_load) and scratch do not alias, so a global load may move above an LDS
 * store; FLAT and buffer instructions may touch any of them.  Each instruction's height is its
 * longest latency-weighted path to the region's end; the instructions are then emitted
 * greedily, the ready one with the greatest height first (ties: original order), so memory
 * loads move up ahead of the arithmetic that does not need them and their latency overlaps
 * other work; a reader of a global load's result is ready only once the load's latency
 * has passed on a clock of emitted instructions (the load's shadow: struct shadow), so the
 * work that does not need the load goes before its first reader.  The waitcnt pass that
 * runs next then waits as late as the new order allows.
 * Before allocation only true dependences constrain the order, but moving loads up raises
 * register pressure: the caller keeps the unscheduled code and allocates that when the
 * scheduled code does not fit (see compile.c); a region keeps its order when the new one
 * holds more VGPRs at its peak without moving any slow result up (raises_pressure).
 * After allocation the schedule cannot raise pressure; registers the allocator reused are
 * the dependences that limit it.
 * Dependences are tracked per 32-bit register: physical slots (sched_int.h) and, before
 * allocation, every dword of every virtual register after them.  Parallel copies stay
 * where they are.
 *   requires: linear CFG.  breaks: instruction order within blocks (waits and hazard
 *   fixes are computed afterwards).
 *   complexity: O(n log n + edges) per region; edges are O(register reads and writes). */
#include <string.h>

#include "isa/isa.h"
#include "sched/sched.h"
#include "sched/sched_int.h"

enum { NONE = 0xffffffffu };

struct key_range {
	uint32_t first, count;
};
enum { MAX_KEY_RANGES = 2 * SCHED_MAX_RANGES + AMD_MAX_OPNDS + 2 };

/* Address spaces a memory instruction may touch (bits), for the memory dependences. */
enum { SPACE_LDS = 1, SPACE_GLOBAL = 2, SPACE_SCRATCH = 4, NSPACES = 3 };

struct edge {
	uint32_t from, to, lat;
};

struct region {
	const struct amd_target *t;
	const struct mir_function *fn;
	struct pa_arena *a; /* the region's graph and work arrays: emptied for every region */
	/* per key (a physical slot, or SCHED_NUM_SLOTS + a virtual register dword): last writer
	 * and the readers since (a list in `readers`), valid only when stamp[k] == the
	 * region's number */
	uint32_t *stamp, *last_def, *reader_head;
	uint32_t *vreg_key; /* first key of each virtual register */
	uint32_t *reader_insn, *reader_next, nreaders, readers_cap, readers_cap2;
	struct edge *edges;
	uint32_t nedges, edges_cap;
	uint32_t number;
	struct sched_undo *undo; /* (or NULL) where a region's new order is recorded */
	uint32_t block, start;   /* the region being scheduled: block, first instruction */
	/* the region's graph is built as its instructions are met (region_add): per address
	 * space, the last store and the loads since it (a list through load_next); arrays of
	 * the longest block's size, made once, each entry written before it is read */
	uint32_t last_store[NSPACES], loads_head[NSPACES], *load_next[NSPACES];
	uint32_t *lat; /* the region's latencies (latency()) */
};

struct sched_undo_region {
	uint32_t block, start, n;
	uint32_t *order; /* the region's instruction j came from old position order[j] */
};

static bool is_vector_unit(unsigned unit)
{
	return unit == AMD_UNIT_VALU || unit == AMD_UNIT_TRANS || unit == AMD_UNIT_VMEM_LOAD ||
	       unit == AMD_UNIT_VMEM_STORE || unit == AMD_UNIT_LDS;
}

static bool is_memory_unit(unsigned unit)
{
	return unit == AMD_UNIT_VMEM_LOAD || unit == AMD_UNIT_VMEM_STORE || unit == AMD_UNIT_LDS ||
	       unit == AMD_UNIT_SMEM;
}

/* Instructions that keep their place: everything else moves only within the stretch
 * between two of them.  This part looks at the instruction's kind; is_pinned_by_ranges
 * at its registers. */
static bool is_pinned(const struct mir_function *fn, const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	if (!row)
		return in->op != MIR_COPY || (in->flags & MIR_IF_PARALLEL);
	if (row->unit == AMD_UNIT_BRANCH || row->unit == AMD_UNIT_MSG)
		return true;
	if (row->flags & (AMD_F_BRANCH | AMD_F_SMEM_NO_ADDR))
		return true;
	if (is_memory_unit(row->unit) && row->nopnds == 0)
		return true; /* cache control of the memory model */
	if (amd_implicit_defs(fn->target, row) & AMD_IMP_MODE)
		return true;
	if (in->op == AMD_OP_S_SWAPPC_B64)
		return true; /* a call (sel_call.c): the stack pointer moves around it */
	if (in->op == AMD_OP_S_SETREG_B32 || in->op == AMD_OP_S_GETREG_B32)
		return true; /* hardware registers (MODE, flat scratch ...) not tracked as slots */
	for (unsigned i = 0; i < in->nopnds && i < AMD_MAX_OPNDS; i++)
		if (in->opnds[i].kind == MIR_SPECIAL && !sched_opnd_slots(fn, &in->opnds[i]).count)
			return true; /* e.g. flat_scratch: its readers are not tracked either */
	return false;
}

/* The rest of the test: an instruction whose register ranges (sched_insn_uses/defs counts
 * nuses, ndefs) may have been cut at SCHED_MAX_RANGES keeps its place too. */
static bool is_pinned_by_ranges(unsigned nuses, unsigned ndefs)
{
	return nuses >= SCHED_MAX_RANGES - 1 || ndefs >= SCHED_MAX_RANGES - 1;
}

static void add_edge(struct region *rg, uint32_t from, uint32_t to, uint32_t lat)
{
	if (from == NONE || from == to)
		return;
	rg->edges =
	        pa_arena_grow(rg->a, rg->edges, &rg->edges_cap, rg->nedges + 1, sizeof *rg->edges);
	rg->edges[rg->nedges++] = (struct edge){from, to, lat};
}

static void touch(struct region *rg, uint32_t s)
{
	if (rg->stamp[s] != rg->number) {
		rg->stamp[s] = rg->number;
		rg->last_def[s] = NONE;
		rg->reader_head[s] = NONE;
	}
}

static void add_reader(struct region *rg, uint32_t s, uint32_t i)
{
	uint32_t need = rg->nreaders + 1;
	rg->reader_insn = pa_arena_grow(rg->a, rg->reader_insn, &rg->readers_cap, need,
	                                sizeof *rg->reader_insn);
	rg->reader_next = pa_arena_grow(rg->a, rg->reader_next, &rg->readers_cap2, need,
	                                sizeof *rg->reader_next);
	rg->reader_insn[rg->nreaders] = i;
	rg->reader_next[rg->nreaders] = rg->reader_head[s];
	rg->reader_head[s] = rg->nreaders++;
}

static unsigned latency(const struct region *rg, const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES)
		return 1;
	unsigned l = amd_latency_cycles(rg->t, (enum amd_opcode)in->op);
	return l ? l : 1;
}

static bool opnd_is_vgpr(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->kind == MIR_VGPR || (o->kind == MIR_VREG && fn->vregs[o->v].file == MIR_VGPR);
}

/* The registers `in` reads (defs false) or writes (defs true) as key ranges: physical
 * operands and implicit registers from sched_insn_uses/defs (*nsched: how many), virtual
 * ones from the operands; vector instructions (and copies into VGPRs) also read EXEC. */
static unsigned insn_keys(const struct region *rg, const struct mir_insn *in, bool defs,
                          struct key_range out[MAX_KEY_RANGES], unsigned *nsched)
{
	struct sched_range r[SCHED_MAX_RANGES];
	unsigned nr = defs ? sched_insn_defs(rg->fn, in, r) : sched_insn_uses(rg->fn, in, r);
	*nsched = nr;
	unsigned n = 0;
	for (unsigned k = 0; k < nr; k++)
		out[n++] = (struct key_range){r[k].first, r[k].count};
	const struct amd_isa_op *row = sched_row(in);
	if (!defs && ((row && is_vector_unit(row->unit)) ||
	              (!row && in->nopnds && opnd_is_vgpr(rg->fn, &in->opnds[0]))))
		out[n++] =
		        (struct key_range){SCHED_SLOT_EXEC_LO, rg->fn->wave_size == 64 ? 2u : 1u};
	/* M0 read or written implicitly (LDS on older targets, messages, moves relative) */
	if (row &&
	    ((defs ? amd_implicit_defs(rg->t, row) : amd_implicit_uses(rg->t, row)) & AMD_IMP_M0))
		out[n++] = (struct key_range){SCHED_SLOT_M0, 1};
	if (!rg->vreg_key)
		return n;
	for (unsigned i = 0; i < in->nopnds && i < AMD_MAX_OPNDS; i++) {
		const struct mir_opnd *o = &in->opnds[i];
		if (o->kind != MIR_VREG)
			continue;
		bool is_def = mir_opnd_is_def(in, i);
		if (is_def != defs && !(defs && i == 0 && sched_vdata_returns(in)))
			continue;
		unsigned width = o->width ? o->width : rg->fn->vregs[o->v].size - o->sub;
		out[n++] = (struct key_range){rg->vreg_key[o->v] + o->sub, width};
	}
	return n;
}

static unsigned mem_spaces(const struct amd_isa_op *row)
{
	switch (row->format) {
	case AMD_FMT_DS:
		return SPACE_LDS;
	case AMD_FMT_GLOBAL:
	case AMD_FMT_SMEM:
		return SPACE_GLOBAL;
	case AMD_FMT_SCRATCH:
		return SPACE_SCRATCH;
	default:
		return SPACE_LDS | SPACE_GLOBAL | SPACE_SCRATCH; /* FLAT, MUBUF */
	}
}

/* Starts a region: an empty graph. */
static void region_begin(struct region *rg)
{
	pa_arena_reset(rg->a);
	rg->edges = NULL;
	rg->edges_cap = rg->nedges = 0;
	rg->reader_insn = rg->reader_next = NULL;
	rg->readers_cap = rg->readers_cap2 = rg->nreaders = 0;
	rg->number++;
	for (unsigned c = 0; c < NSPACES; c++)
		rg->last_store[c] = rg->loads_head[c] = NONE;
}

/* Adds instruction i of the region (insns[i], indices local to the region) to its graph:
 * its dependence edges on the instructions before it, from its keys (insn_keys).  The
 * graph is built while the block is scanned for the region's end, so each instruction's
 * keys are made once and not kept. */
static void region_add(struct region *rg, const struct mir_insn *insns, uint32_t i,
                       const struct key_range *uses, unsigned nu, const struct key_range *defs,
                       unsigned nd)
{
	const struct mir_insn *in = &insns[i];
	const struct amd_isa_op *row = sched_row(in);
	rg->lat[i] = latency(rg, in);
	for (unsigned r = 0; r < nu; r++)
		for (uint32_t s = uses[r].first; s < uses[r].first + uses[r].count; s++) {
			touch(rg, s);
			if (rg->last_def[s] != NONE)
				add_edge(rg, rg->last_def[s], i, rg->lat[rg->last_def[s]]);
		}
	for (unsigned r = 0; r < nd; r++)
		for (uint32_t s = defs[r].first; s < defs[r].first + defs[r].count; s++) {
			touch(rg, s);
			add_edge(rg, rg->last_def[s], i, 0);
			for (uint32_t k = rg->reader_head[s]; k != NONE; k = rg->reader_next[k])
				add_edge(rg, rg->reader_insn[k], i, 0);
		}
	/* readers after the edges above, so an instruction that reads and writes a register
	 * does not depend on itself */
	for (unsigned r = 0; r < nu; r++)
		for (uint32_t s = uses[r].first; s < uses[r].first + uses[r].count; s++)
			add_reader(rg, s, i);
	for (unsigned r = 0; r < nd; r++)
		for (uint32_t s = defs[r].first; s < defs[r].first + defs[r].count; s++) {
			rg->last_def[s] = i;
			rg->reader_head[s] = NONE;
		}
	bool stores = row && (row->flags & (AMD_F_STORE | AMD_F_ATOMIC)) != 0;
	bool loads = row && (row->flags & AMD_F_LOAD) != 0 && is_memory_unit(row->unit);
	if (!stores && !loads)
		return;
	unsigned spaces = mem_spaces(row);
	for (unsigned c = 0; c < NSPACES; c++) {
		if (!(spaces & (1u << c)))
			continue;
		add_edge(rg, rg->last_store[c], i, 0);
		if (stores) {
			for (uint32_t k = rg->loads_head[c]; k != NONE; k = rg->load_next[c][k])
				add_edge(rg, k, i, 0);
			rg->last_store[c] = i;
			rg->loads_head[c] = NONE;
		} else {
			rg->load_next[c][i] = rg->loads_head[c];
			rg->loads_head[c] = i;
		}
	}
}

/* Max-heap of ready instructions by (height, earlier first). */
struct ready {
	uint32_t *item, n;
	const uint32_t *height;
};

static bool ready_before(const struct ready *q, uint32_t a, uint32_t b)
{
	if (q->height[a] != q->height[b])
		return q->height[a] > q->height[b];
	return a < b;
}

static void ready_push(struct ready *q, uint32_t x)
{
	uint32_t i = q->n++;
	while (i && ready_before(q, x, q->item[(i - 1) / 2])) {
		q->item[i] = q->item[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->item[i] = x;
}

static uint32_t ready_pop(struct ready *q)
{
	uint32_t top = q->item[0], last = q->item[--q->n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && ready_before(q, q->item[c + 1], q->item[c]))
			c++;
		if (!ready_before(q, q->item[c], last))
			break;
		q->item[i] = q->item[c];
		i = c;
	}
	if (q->n)
		q->item[i] = last;
	return top;
}

/* Before allocation, the VGPR dwords that emitted loads hold for readers not yet emitted:
 * a load moved up ahead of the arithmetic holds its registers until its readers run, and
 * with no bound an unrolled loop's loads all move to its top (a register-blocked SGEMM: 64
 * ds_read2 holding 128 VGPRs, 240 in all against 98 unscheduled, a third of the waves).
 * A load that would take the total past MAX_HELD_DWORDS waits while other work is ready;
 * 24 lets the next step's loads (16 dwords there) start while one step computes.  After allocation
 * the order cannot raise pressure and nothing is held back. */
enum { MAX_HELD_DWORDS = 24 };

struct held_loads {
	uint32_t *dwords;  /* per instruction: VGPR dwords a load writes (0: not a load) */
	uint32_t *readers; /* per load: read-after-write successors not yet emitted */
	uint32_t *pred_first, *pred; /* per instruction: the loads it reads (CSR) */
	uint32_t held;
};

static uint32_t load_vgpr_dwords(const struct region *rg, const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	if (!rg->vreg_key || !row || !(row->flags & AMD_F_LOAD) ||
	    (row->unit != AMD_UNIT_VMEM_LOAD && row->unit != AMD_UNIT_LDS))
		return 0;
	uint32_t dw = 0;
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (mir_opnd_is_def(in, k) && opnd_is_vgpr(rg->fn, &in->opnds[k]))
			dw += in->opnds[k].width ? in->opnds[k].width : 1;
	return dw;
}

static void held_loads_init(struct region *rg, struct held_loads *hl, const struct mir_insn *insns,
                            uint32_t n)
{
	hl->dwords = PA_NEW_ARRAY(rg->a, uint32_t, n);
	hl->readers = PA_NEW_ARRAY(rg->a, uint32_t, n);
	hl->pred_first = PA_NEW_ARRAY(rg->a, uint32_t, n + 2);
	hl->held = 0;
	for (uint32_t i = 0; i < n; i++)
		hl->dwords[i] = load_vgpr_dwords(rg, &insns[i]);
	uint32_t total = 0;
	for (uint32_t e = 0; e < rg->nedges; e++) {
		const struct edge *ed = &rg->edges[e];
		if (ed->lat && hl->dwords[ed->from]) {
			hl->readers[ed->from]++;
			hl->pred_first[ed->to + 2]++;
			total++;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		hl->pred_first[i + 2] += hl->pred_first[i + 1];
	hl->pred = PA_NEW_ARRAY(rg->a, uint32_t, total + 1);
	for (uint32_t e = 0; e < rg->nedges; e++) {
		const struct edge *ed = &rg->edges[e];
		if (ed->lat && hl->dwords[ed->from])
			hl->pred[hl->pred_first[ed->to + 1]++] = ed->from;
	}
}

/* Instruction i is emitted: its loads' registers are taken, those it reads last freed. */
static void held_loads_emit(struct held_loads *hl, uint32_t i)
{
	for (uint32_t k = hl->pred_first[i]; k < hl->pred_first[i + 1]; k++)
		if (--hl->readers[hl->pred[k]] == 0)
			hl->held -= hl->dwords[hl->pred[k]];
	if (hl->dwords[i] && hl->readers[i])
		hl->held += hl->dwords[i];
}

/* The queue to take the next instruction from: the better top of the two, except that a
 * load past the bound waits while other work is ready. */
static struct ready *pick_queue(const struct held_loads *hl, struct ready *q, struct ready *ql)
{
	if (!ql->n)
		return q;
	if (!q->n)
		return ql;
	uint32_t load = ql->item[0];
	if (hl->held + hl->dwords[load] > MAX_HELD_DWORDS)
		return q;
	return ready_before(ql, load, q->item[0]) ? ql : q;
}

/* A load's latency shadow: an instruction that reads a slow result (a memory load's: its
 * edge latency at least SHADOW_MIN_LATENCY) waits, off the ready queues, until the result
 * would be back on a clock that advances SHADOW_ISSUE_CYCLES per emitted instruction, so
 * that independent work (the next addresses, constants, a store's address) is emitted
 * before the first reader of a load and its s_waitcnt, not after the arithmetic on the
 * loaded values, as long as there is such work; when only waiting instructions are left,
 * the one whose result comes first goes (the clock jumps to it). */
enum { SHADOW_MIN_LATENCY = 500, SHADOW_ISSUE_CYCLES = 4 };

struct min_avail { /* min-heap of instructions by the cycle their operands are back */
	uint32_t *item, n;
	const uint64_t *avail;
};

struct shadow {
	uint64_t *avail; /* per instruction: cycle its slow operands are back (0: none) */
	struct min_avail pending;
	uint64_t now;
	const struct mir_insn *insns;
	struct ready consts; /* ready COPYs of constants: no fillers (is_constant_copy) */
};

/* A COPY of a constant: no filler for a load's shadow (the scheduled code would set up a
 * whole unrolled kernel's constants ahead of their readers, in SGPRs that then spill). */
static bool is_constant_copy(const struct mir_insn *in)
{
	if (in->op != MIR_COPY)
		return false;
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (!mir_opnd_is_def(in, k) && in->opnds[k].kind != MIR_IMM)
			return false;
	return true;
}

/* The ready queue instruction x goes to. */
static struct ready *queue_of(struct shadow *sh, const struct held_loads *hl, struct ready *q,
                              struct ready *ql, uint32_t x)
{
	if (hl->dwords[x])
		return ql;
	return is_constant_copy(&sh->insns[x]) ? &sh->consts : q;
}

static bool avail_before(const struct min_avail *h, uint32_t a, uint32_t b)
{
	if (h->avail[a] != h->avail[b])
		return h->avail[a] < h->avail[b];
	return a < b;
}

static void avail_push(struct min_avail *h, uint32_t x)
{
	uint32_t i = h->n++;
	while (i && avail_before(h, x, h->item[(i - 1) / 2])) {
		h->item[i] = h->item[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->item[i] = x;
}

static uint32_t avail_pop(struct min_avail *h)
{
	uint32_t top = h->item[0], last = h->item[--h->n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && avail_before(h, h->item[c + 1], h->item[c]))
			c++;
		if (!avail_before(h, h->item[c], last))
			break;
		h->item[i] = h->item[c];
		i = c;
	}
	if (h->n)
		h->item[i] = last;
	return top;
}

/* Instruction x has all its predecessors emitted: ready now, or pending until its slow
 * operands are back. */
static void shadow_push(struct shadow *sh, const struct held_loads *hl, struct ready *q,
                        struct ready *ql, uint32_t x)
{
	if (sh->avail[x] > sh->now)
		avail_push(&sh->pending, x);
	else
		ready_push(queue_of(sh, hl, q, ql, x), x);
}

/* Moves the pending instructions whose operands are back to the ready queues; when none
 * is ready, the clock first jumps to the earliest pending one. */
static void shadow_release(struct shadow *sh, const struct held_loads *hl, struct ready *q,
                           struct ready *ql)
{
	struct min_avail *p = &sh->pending;
	if (!q->n && !ql->n && !sh->consts.n && p->n && sh->avail[p->item[0]] > sh->now)
		sh->now = sh->avail[p->item[0]];
	while (p->n && sh->avail[p->item[0]] <= sh->now) {
		uint32_t x = avail_pop(p);
		ready_push(queue_of(sh, hl, q, ql, x), x);
	}
}

/* The queue to take the next instruction from: pick_queue's, or the constant COPYs' when
 * their top is higher; that one waits, as no filler, while an instruction reading a slow
 * result is pending with a greater height (it came first without shadows): the other
 * ready work goes first, and with none the clock runs on to the pending one. */
static struct ready *pick_shadow(struct shadow *sh, struct held_loads *hl, struct ready *q,
                                 struct ready *ql)
{
	for (;;) {
		struct ready *best = pick_queue(hl, q, ql), *c = &sh->consts;
		const struct min_avail *p = &sh->pending;
		if (!c->n || (best->n && !ready_before(c, c->item[0], best->item[0])))
			return best;
		if (!p->n || c->height[c->item[0]] >= c->height[p->item[0]])
			return c;
		if (best->n)
			return best;
		sh->now = sh->avail[p->item[0]];
		shadow_release(sh, hl, q, ql);
	}
}

/* The most VGPR dwords held at once when the readers are met in `order` (NULL: as they
 * are), given each instruction's dwords, its reader count (consumed) and its predecessors
 * holding dwords (CSR first/pred). */
static uint32_t held_peak(const uint32_t *dwords, uint32_t *readers, const uint32_t *first,
                          const uint32_t *pred, const uint32_t *order, uint32_t n)
{
	uint32_t held = 0, peak = 0;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = order ? order[j] : j;
		for (uint32_t k = first[i]; k < first[i + 1]; k++)
			if (--readers[pred[k]] == 0)
				held -= dwords[pred[k]];
		if (readers[i])
			held += dwords[i];
		peak = held > peak ? held : peak;
	}
	return peak;
}

/* Whether instruction `in` writes a VGPR and takes long (a load, a transcendental, a matrix
 * op, RDNA's FP64): results worth holding registers for while other work runs. */
static bool slow_vgpr_result(const struct region *rg, const struct mir_insn *in)
{
	enum { SLOW_CYCLES = 16 }; /* above a VALU op's 5-8 cycles */
	if (latency(rg, in) < SLOW_CYCLES)
		return false;
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (mir_opnd_is_def(in, k) && opnd_is_vgpr(rg->fn, &in->opnds[k]))
			return true;
	return false;
}

/* Whether the new order emits some slow VGPR result earlier than the old one (its position
 * in the region): what pays for the registers a new order holds.  An order that only
 * interleaves short arithmetic (two address computations, four shift-and-mask chains
 * feeding LDS atomics) keeps every load where it was or later and gains too little for the
 * registers. */
static bool moves_slow_up(const struct region *rg, const struct mir_insn *insns,
                          const uint32_t *order, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (order[j] > j && slow_vgpr_result(rg, &insns[order[j]]))
			return true;
	return false;
}

/* Whether the new order holds more than MAX_HELD_DWORDS VGPR dwords beyond the old one at
 * its peak (e.g. a kernel's 64 store addresses all computed before the first store, 128
 * VGPRs, where each store's address comes just before it), or any more when it moves no
 * slow result up: then the region keeps its order.  Before allocation only.  The peaks count
 * the VGPR dwords that instructions of the region hold for readers in the region (RAW edges
 * only); the graph's reader counts are made once for both orders. */
static bool raises_pressure(const struct region *rg, const struct mir_insn *insns,
                            const uint32_t *order, uint32_t n)
{
	if (!rg->vreg_key)
		return false;
	uint32_t slack = moves_slow_up(rg, insns, order, n) ? MAX_HELD_DWORDS : 0;
	struct pa_arena *a = rg->a;
	struct pa_arena_mark mark = pa_arena_mark(a); /* (its arrays go on return) */
	uint32_t *dwords = PA_NEW_ARRAY(a, uint32_t, n), *readers = PA_NEW_ARRAY(a, uint32_t, n);
	uint32_t *first = PA_NEW_ARRAY(a, uint32_t, n + 2), total = 0;
	for (uint32_t i = 0; i < n; i++)
		for (unsigned k = 0; k < insns[i].nopnds && k < AMD_MAX_OPNDS; k++)
			if (mir_opnd_is_def(&insns[i], k) &&
			    opnd_is_vgpr(rg->fn, &insns[i].opnds[k]))
				dwords[i] += insns[i].opnds[k].width ? insns[i].opnds[k].width : 1;
	for (uint32_t e = 0; e < rg->nedges; e++)
		if (rg->edges[e].lat && dwords[rg->edges[e].from]) {
			readers[rg->edges[e].from]++;
			first[rg->edges[e].to + 2]++;
			total++;
		}
	for (uint32_t i = 0; i < n; i++)
		first[i + 2] += first[i + 1];
	uint32_t *pred = PA_NEW_ARRAY(a, uint32_t, total + 1);
	for (uint32_t e = 0; e < rg->nedges; e++)
		if (rg->edges[e].lat && dwords[rg->edges[e].from])
			pred[first[rg->edges[e].to + 1]++] = rg->edges[e].from;
	uint32_t *left = PA_NEW_ARRAY(a, uint32_t, n);
	memcpy(left, readers, n * sizeof *left);
	uint32_t peak_new = held_peak(dwords, left, first, pred, order, n);
	uint32_t peak_old = held_peak(dwords, readers, first, pred, NULL, n);
	pa_arena_rewind(a, mark);
	return peak_new > peak_old + slack;
}

/* insns[j] = the old insns[order[j]] for every j, in place (a copy of a large region would
 * add to the peak): each cycle of the permutation is followed once from its first position,
 * the entries of `order` it visits set to NONE. */
static void permute(struct mir_insn *insns, uint32_t *order, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		if (order[j] == NONE)
			continue;
		struct mir_insn first = insns[j];
		uint32_t k = j;
		while (order[k] != j) {
			uint32_t from = order[k];
			insns[k] = insns[from];
			order[k] = NONE;
			k = from;
		}
		insns[k] = first;
		order[k] = NONE;
	}
}

static void record(struct region *rg, const uint32_t *order, uint32_t n)
{
	struct sched_undo *u = rg->undo;
	u->regions =
	        pa_arena_grow(rg->fn->arena, u->regions, &u->cap, u->n + 1, sizeof *u->regions);
	uint32_t *copy = PA_NEW_ARRAY(rg->fn->arena, uint32_t, n);
	memcpy(copy, order, n * sizeof *copy);
	u->regions[u->n++] = (struct sched_undo_region){rg->block, rg->start, n, copy};
}

/* The inverse of permute: the old insns[order[j]] = insns[j], in place, cycle by cycle. */
static void unpermute(struct mir_insn *insns, uint32_t *order, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		if (order[j] == NONE)
			continue;
		struct mir_insn carry = insns[j];
		uint32_t k = order[j];
		order[j] = NONE;
		while (k != j) {
			struct mir_insn t = insns[k];
			insns[k] = carry;
			carry = t;
			uint32_t next = order[k];
			order[k] = NONE;
			k = next;
		}
		insns[j] = carry;
	}
}

void sched_list_undo(struct mir_function *fn, struct sched_undo *undo)
{
	for (uint32_t r = undo->n; r-- > 0;) {
		const struct sched_undo_region *u = &undo->regions[r];
		unpermute(fn->blocks[u->block].insns + u->start, u->order, u->n);
	}
	undo->n = 0;
}

/* Reorders insns[0..n) in place (its graph is made: region_add). */
static void schedule_region(struct region *rg, struct mir_insn *insns, uint32_t n)
{
	struct pa_arena *a = rg->a;
	uint32_t *order = PA_NEW_ARRAY(a, uint32_t, n);
	struct pa_arena_mark mark = pa_arena_mark(a); /* the list's state goes after the loop */
	uint32_t *height = PA_NEW_ARRAY(a, uint32_t, n);
	uint32_t *npreds = PA_NEW_ARRAY(a, uint32_t, n);
	uint32_t *succ_first = PA_NEW_ARRAY(a, uint32_t, n + 1);
	uint32_t *succ = PA_NEW_ARRAY(a, uint32_t, rg->nedges + 1);
	memcpy(height, rg->lat, n * sizeof *height);
	/* edges were made in increasing `to`: walking them backwards finishes every
	 * instruction's height before it is propagated to its predecessors */
	for (uint32_t e = rg->nedges; e-- > 0;) {
		const struct edge *ed = &rg->edges[e];
		uint32_t h = ed->lat + height[ed->to];
		if (h > height[ed->from])
			height[ed->from] = h;
		npreds[ed->to]++;
		succ_first[ed->from + 1]++;
	}
	for (uint32_t i = 0; i < n; i++)
		succ_first[i + 1] += succ_first[i];
	uint32_t *fill = PA_NEW_ARRAY(a, uint32_t, n);
	memcpy(fill, succ_first, n * sizeof *fill);
	uint32_t *succ_lat = PA_NEW_ARRAY(a, uint32_t, rg->nedges + 1);
	for (uint32_t e = 0; e < rg->nedges; e++) {
		uint32_t at = fill[rg->edges[e].from]++;
		succ[at] = rg->edges[e].to;
		succ_lat[at] = rg->edges[e].lat;
	}
	struct held_loads hl;
	held_loads_init(rg, &hl, insns, n);
	struct ready q = {PA_NEW_ARRAY(a, uint32_t, n), 0, height};
	struct ready ql = {PA_NEW_ARRAY(a, uint32_t, n), 0, height}; /* loads (hl.dwords) */
	struct shadow sh = {PA_NEW_ARRAY(a, uint64_t, n),
	                    {PA_NEW_ARRAY(a, uint32_t, n), 0, NULL},
	                    0,
	                    insns,
	                    {PA_NEW_ARRAY(a, uint32_t, n), 0, height}};
	memset(sh.avail, 0, n * sizeof *sh.avail);
	sh.pending.avail = sh.avail;
	for (uint32_t i = 0; i < n; i++)
		if (!npreds[i])
			ready_push(queue_of(&sh, &hl, &q, &ql, i), i);
	uint32_t nout = 0;
	while (q.n || ql.n || sh.consts.n || sh.pending.n) {
		shadow_release(&sh, &hl, &q, &ql);
		uint32_t i = ready_pop(pick_shadow(&sh, &hl, &q, &ql));
		order[nout++] = i;
		held_loads_emit(&hl, i);
		if (sched_row(&insns[i])) /* (a COPY may vanish in coalescing) */
			sh.now += SHADOW_ISSUE_CYCLES;
		for (uint32_t k = succ_first[i]; k < succ_first[i + 1]; k++) {
			uint32_t s = succ[k];
			if (succ_lat[k] >= SHADOW_MIN_LATENCY && sh.now + succ_lat[k] > sh.avail[s])
				sh.avail[s] = sh.now + succ_lat[k];
			if (--npreds[s] == 0)
				shadow_push(&sh, &hl, &q, &ql, s);
		}
	}
	pa_arena_rewind(a, mark);
	if (nout == n && !raises_pressure(rg, insns, order, n)) { /* (nout == n: acyclic) */
		if (rg->undo)
			record(rg, order, n);
		permute(insns, order, n);
	}
}

/* Whether block instruction `in` keeps its place; if not, it is added to the region being
 * built as its instruction i. */
static bool scan_insn(struct region *rg, const struct mir_insn *insns, uint32_t i)
{
	const struct mir_insn *in = &insns[i];
	if (is_pinned(rg->fn, in))
		return true;
	struct key_range uses[MAX_KEY_RANGES], defs[MAX_KEY_RANGES];
	unsigned nuses, ndefs;
	unsigned nu = insn_keys(rg, in, false, uses, &nuses);
	unsigned nd = insn_keys(rg, in, true, defs, &ndefs);
	if (is_pinned_by_ranges(nuses, ndefs))
		return true;
	region_add(rg, insns, i, uses, nu, defs, nd);
	return false;
}

static void list_schedule(struct mir_function *fn, bool virtual_regs, struct sched_undo *undo)
{
	struct region rg;
	memset(&rg, 0, sizeof rg);
	rg.undo = undo;
	rg.t = fn->target;
	rg.fn = fn;
	struct pa_arena region_arena; /* (the function's arena would keep every region's graph) */
	pa_arena_init_beside(&region_arena, fn->arena);
	rg.a = &region_arena;
	uint32_t nkeys = SCHED_NUM_SLOTS;
	if (virtual_regs) {
		rg.vreg_key = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nvregs + 1);
		for (uint32_t v = 0; v < fn->nvregs; v++) {
			rg.vreg_key[v] = nkeys;
			nkeys += fn->vregs[v].size;
		}
	}
	rg.stamp = PA_NEW_ARRAY(fn->arena, uint32_t, nkeys);
	rg.last_def = PA_NEW_ARRAY(fn->arena, uint32_t, nkeys);
	rg.reader_head = PA_NEW_ARRAY(fn->arena, uint32_t, nkeys);
	memset(rg.stamp, 0xff, nkeys * sizeof *rg.stamp);
	uint32_t longest = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		longest = fn->blocks[b].ninsns > longest ? fn->blocks[b].ninsns : longest;
	rg.lat = pa_arena_array(fn->arena, longest + 1, sizeof *rg.lat, 4);
	for (unsigned c = 0; c < NSPACES; c++)
		rg.load_next[c] =
		        pa_arena_array(fn->arena, longest + 1, sizeof *rg.load_next[c], 4);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		uint32_t start = 0;
		region_begin(&rg);
		for (uint32_t i = 0; i <= bl->ninsns; i++) {
			if (i < bl->ninsns && !scan_insn(&rg, bl->insns + start, i - start))
				continue;
			if (i - start > 2) {
				rg.block = b;
				rg.start = start;
				schedule_region(&rg, bl->insns + start, i - start);
			}
			start = i + 1;
			region_begin(&rg);
		}
	}
	pa_arena_free(rg.a);
}

void sched_list(struct mir_function *fn, bool virtual_regs)
{
	list_schedule(fn, virtual_regs, NULL);
}

void sched_list_recorded(struct mir_function *fn, struct sched_undo *undo)
{
	memset(undo, 0, sizeof *undo);
	list_schedule(fn, true, undo);
}

void sched_mir_copy(const struct mir_function *fn, struct mir_function *out)
{
	*out = *fn;
	mir_compact(out, fn->arena); /* a deep copy, in the same arena */
}
