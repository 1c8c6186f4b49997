/* Liveness of virtual registers, as the extent of block boundaries where each is live.
 *
 * The intervals are hole-free [first, last] ranges in linear order (intervals.c), so all
 * they need from liveness is, per vreg, the first block start where it is live-in and the
 * last block end where it is live-out: ctx->live_span, not per-block sets.
 *
 * Algorithm (liveness by variable, path exploration: Appel's "Modern Compiler
 * Implementation", Boissinot et al. 2011): a forward scan of each block records, per vreg,
 * the blocks where it is upward-exposed (`gen`: read before the block has written all its
 * dwords) and the blocks that write all its dwords (`kill`), as two lists in CSR form by
 * vreg (counted in a first scan, filled in a second).  Then, one vreg v at a time: mark
 * its kill blocks with stamp v, and from each gen block walk backwards along the LINEAR
 * CFG's predecessor edges: a block reached is live-in (extend the span over its start),
 * each predecessor of it is live-out (extend over its end) and, unless it kills v or is
 * already live-in (stamp), is live-in in turn.  This computes exactly the least fixed
 * point of the classic dataflow live_in(b) = gen(b) U (live_out(b) - kill(b)),
 * live_out(b) = U live_in(succ): a vreg is live-in at b iff some path from b's start
 * reaches an upward-exposed read with no block on the way (b excluded) killing it.
 * Semantics kept from the dense analysis: vregs are not in SSA form (several kill blocks);
 * a partial (sub-register) definition kills nothing until all dwords are written in the
 * block; copy groups read all sources before writing any destination (parallel
 * semantics); edges taken only when EXEC is empty (mir_block.skip_succ: cflow.c's
 * s_cbranch_execz) carry no lane and so no value and are left out of the predecessor
 * lists, or a phi register defined in both arms of a branch would look live from the
 * entry along the path skipping both (the intervals are hole-free: a value's register
 * stays reserved from its first definition).
 * requires: a verified MIR function.  breaks: nothing (fills ctx->first_ins, live_span).
 * complexity: O(instructions + blocks + edges + sum over vregs of the blocks where it is
 * live-in and their predecessor edges): each (vreg, block) pair is visited at most once,
 * so the cost is the size of the liveness itself, not blocks x vregs.  Temporaries live in
 * a local arena freed on return; O(vregs + blocks + gen/kill entries) memory. */
#include "regalloc/ra_int.h"

/* Blocks listed per vreg: block[first[v] .. first[v+1]), in increasing block order. */
struct vreg_blocks {
	uint32_t *first; /* nvregs + 1; while counting, first[v+1] counts v's entries */
	uint32_t *fill;  /* next free entry per vreg while filling */
	uint32_t *block;
};

struct liveness_scan {
	bool filling;      /* second scan: store entries (first: count them) */
	uint8_t *defined;  /* per vreg: dwords written so far in the block (bit mask) */
	uint32_t *touched; /* vregs whose `defined` mask is non-zero */
	uint32_t ntouched;
	uint32_t *gen_stamp; /* per vreg: block + 1 where last recorded in gen */
	uint32_t *kill_stamp;
	struct vreg_blocks gen, kill;
};

static uint8_t dword_mask(const struct mir_opnd *o)
{
	return (uint8_t)(((1u << o->width) - 1) << o->sub);
}

/* The dwords of operand k that `in` reads: all of them, except for a source of the packed
 * f32 rows, which reads only the dwords its op_sel/op_sel_hi bits pick (mir_pack_f32 gives a
 * value both halves read a pair whose other dword nothing writes: reading it would make the
 * pair live back to the function's entry). */
static uint8_t read_mask(const struct mir_insn *in, unsigned k, const struct mir_opnd *o)
{
	bool packed = in->op == AMD_OP_V_PK_FMA_F32 || in->op == AMD_OP_V_PK_MUL_F32 ||
	              in->op == AMD_OP_V_PK_ADD_F32;
	if (!packed || k == 0 || o->width != 2)
		return dword_mask(o);
	unsigned hi = in->op_sel_hi_set ? in->op_sel_hi : 7u;
	unsigned lo_dword = (in->op_sel >> (k - 1)) & 1u, hi_dword = (hi >> (k - 1)) & 1u;
	return (uint8_t)(((1u << lo_dword) | (1u << hi_dword)) << o->sub);
}

/* Records block b in list l of vreg v, once per block (stamp). */
static void record(struct liveness_scan *scan, struct vreg_blocks *l, uint32_t *stamp, uint32_t v,
                   uint32_t b)
{
	if (stamp[v] == b + 1)
		return;
	stamp[v] = b + 1;
	if (scan->filling)
		l->block[l->fill[v]++] = b;
	else
		l->first[v + 1]++;
}

/* Records the reads then the writes of instructions [i, end) of block b. */
static void scan_group(const struct mir_function *fn, uint32_t b, uint32_t i, uint32_t end,
                       struct liveness_scan *scan)
{
	const struct mir_block *bl = &fn->blocks[b];
	for (uint32_t j = i; j < end; j++) {
		const struct mir_insn *in = &bl->insns[j];
		for (unsigned k = 0; k < in->nopnds; k++) {
			const struct mir_opnd *o = &in->opnds[k];
			if (o->kind != MIR_VREG || !ra_opnd_is_use(in, k))
				continue;
			uint8_t need = read_mask(in, k, o);
			if ((scan->defined[o->v] & need) != need)
				record(scan, &scan->gen, scan->gen_stamp, o->v, b);
		}
	}
	for (uint32_t j = i; j < end; j++) {
		const struct mir_insn *in = &bl->insns[j];
		for (unsigned k = 0; k < in->nopnds; k++) {
			const struct mir_opnd *o = &in->opnds[k];
			if (o->kind != MIR_VREG || !mir_opnd_is_def(in, k))
				continue;
			if (!scan->defined[o->v])
				scan->touched[scan->ntouched++] = o->v;
			scan->defined[o->v] |= dword_mask(o);
			uint8_t full = (uint8_t)((1u << fn->vregs[o->v].size) - 1);
			if ((scan->defined[o->v] & full) == full)
				record(scan, &scan->kill, scan->kill_stamp, o->v, b);
		}
	}
}

static void scan_block(const struct mir_function *fn, uint32_t b, struct liveness_scan *scan)
{
	const struct mir_block *bl = &fn->blocks[b];
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = ra_group_end(bl, i);
		scan_group(fn, b, i, end, scan);
		i = end;
	}
	for (uint32_t t = 0; t < scan->ntouched; t++)
		scan->defined[scan->touched[t]] = 0;
	scan->ntouched = 0;
}

/* Turns the counts in l->first into offsets and allocates the entries. */
static void start_filling(struct pa_arena *a, struct vreg_blocks *l, uint32_t nvregs)
{
	for (uint32_t v = 0; v < nvregs; v++)
		l->first[v + 1] += l->first[v];
	l->fill = PA_NEW_ARRAY(a, uint32_t, nvregs + 1);
	for (uint32_t v = 0; v < nvregs; v++)
		l->fill[v] = l->first[v];
	l->block = PA_NEW_ARRAY(a, uint32_t, l->first[nvregs] + 1);
}

/* Fills scan->gen and scan->kill: two scans of the function (count, then fill). */
static void scan_function(struct pa_arena *a, const struct mir_function *fn,
                          struct liveness_scan *scan)
{
	uint32_t nv = fn->nvregs;
	scan->defined = PA_NEW_ARRAY(a, uint8_t, nv + 1);
	scan->touched = PA_NEW_ARRAY(a, uint32_t, nv + 1);
	scan->gen_stamp = PA_NEW_ARRAY(a, uint32_t, nv + 1);
	scan->kill_stamp = PA_NEW_ARRAY(a, uint32_t, nv + 1);
	scan->gen.first = PA_NEW_ARRAY(a, uint32_t, nv + 1);
	scan->kill.first = PA_NEW_ARRAY(a, uint32_t, nv + 1);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			start_filling(a, &scan->gen, nv);
			start_filling(a, &scan->kill, nv);
			for (uint32_t v = 0; v < nv; v++)
				scan->gen_stamp[v] = scan->kill_stamp[v] = 0;
			scan->filling = true;
		}
		for (uint32_t b = 0; b < fn->nblocks; b++)
			scan_block(fn, b, scan);
	}
}

/* Predecessors along the edges that carry values (not skip_succ), in CSR form:
 * preds[pred_first[b] .. pred_first[b+1]). */
static uint32_t *fill_preds(struct pa_arena *a, const struct mir_function *fn,
                            uint32_t **pred_first_out)
{
	uint32_t nb = fn->nblocks;
	uint32_t *first = PA_NEW_ARRAY(a, uint32_t, nb + 1);
	for (uint32_t b = 0; b < nb; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++)
			if (!(fn->blocks[b].skip_succ >> s & 1))
				first[fn->blocks[b].succ[s] + 1]++;
	for (uint32_t b = 0; b < nb; b++)
		first[b + 1] += first[b];
	uint32_t *fill = PA_NEW_ARRAY(a, uint32_t, nb + 1);
	for (uint32_t b = 0; b < nb; b++)
		fill[b] = first[b];
	uint32_t *preds = PA_NEW_ARRAY(a, uint32_t, first[nb] + 1);
	for (uint32_t b = 0; b < nb; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++)
			if (!(fn->blocks[b].skip_succ >> s & 1))
				preds[fill[fn->blocks[b].succ[s]]++] = b;
	*pred_first_out = first;
	return preds;
}

static void extend(struct ra_interval *iv, uint32_t at)
{
	if (iv->start == RA_NO_POINT || at < iv->start)
		iv->start = at;
	if (iv->end == RA_NO_POINT || at > iv->end)
		iv->end = at;
}

/* Program points of block b's start and end (its start when it is empty). */
static uint32_t block_start(const struct ra_ctx *ctx, uint32_t b)
{
	return 2 * ctx->first_ins[b];
}
static uint32_t block_end(const struct ra_ctx *ctx, uint32_t b)
{
	return ctx->first_ins[b + 1] > ctx->first_ins[b] ? 2 * ctx->first_ins[b + 1] - 1
	                                                 : block_start(ctx, b);
}

struct explore {
	const uint32_t *pred_first, *preds;
	uint32_t *in_stamp;   /* per block: v + 1 when live-in for vreg v */
	uint32_t *kill_stamp; /* per block: v + 1 when it kills vreg v */
	uint32_t *stack;      /* blocks marked live-in whose predecessors are pending */
};

/* Walks backwards from the gen blocks of vreg v; extends ctx->live_span[v]. */
static void explore_vreg(struct ra_ctx *ctx, const struct liveness_scan *scan, struct explore *e,
                         uint32_t v)
{
	const struct vreg_blocks *gen = &scan->gen, *kill = &scan->kill;
	uint32_t mark = v + 1, top = 0;
	for (uint32_t k = kill->first[v]; k < kill->first[v + 1]; k++)
		e->kill_stamp[kill->block[k]] = mark;
	for (uint32_t k = gen->first[v]; k < gen->first[v + 1]; k++) {
		e->in_stamp[gen->block[k]] = mark;
		e->stack[top++] = gen->block[k];
	}
	struct ra_interval *span = &ctx->live_span[v];
	while (top) {
		uint32_t b = e->stack[--top];
		extend(span, block_start(ctx, b));
		for (uint32_t p = e->pred_first[b]; p < e->pred_first[b + 1]; p++) {
			uint32_t pred = e->preds[p];
			extend(span, block_end(ctx, pred));
			if (e->kill_stamp[pred] != mark && e->in_stamp[pred] != mark) {
				e->in_stamp[pred] = mark;
				e->stack[top++] = pred;
			}
		}
	}
}

void ra_fill_liveness(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	uint32_t nb = fn->nblocks;
	ctx->first_ins = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, nb + 1);
	for (uint32_t b = 0; b < nb; b++)
		ctx->first_ins[b + 1] = ctx->first_ins[b] + fn->blocks[b].ninsns;
	ctx->live_span = PA_NEW_ARRAY(mir_pass_arena(fn), struct ra_interval, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ctx->live_span[v] = (struct ra_interval){RA_NO_POINT, RA_NO_POINT};

	struct pa_arena tmp;
	pa_arena_init_beside(&tmp, fn->arena);
	struct liveness_scan scan = {0};
	scan_function(&tmp, fn, &scan);
	struct explore e = {
	        .in_stamp = PA_NEW_ARRAY(&tmp, uint32_t, nb + 1),
	        .kill_stamp = PA_NEW_ARRAY(&tmp, uint32_t, nb + 1),
	        .stack = PA_NEW_ARRAY(&tmp, uint32_t, nb + 1),
	};
	uint32_t *pred_first;
	e.preds = fill_preds(&tmp, fn, &pred_first);
	e.pred_first = pred_first;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		explore_vreg(ctx, &scan, &e, v);
	pa_arena_free(&tmp);
}
