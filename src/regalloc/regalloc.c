/* Register allocation pipeline (ra_run) and the helpers the passes share.
 *
 * Order: liveness -> intervals -> linear scan (and its lowest-first trial, kept when it
 * needs fewer VGPRs) (-> VGPR spill rewrite (spill_vgpr.c), SGPR
 * spill rewrite (spill.c) and again, while linear scan spills) -> operand rewrite -> copy lowering
 * -> register counts.  Each pass is one file; ra_int.h holds their shared context. requires: a MIR
 * function that passes mir_verify. breaks: the virtual view (every MIR_VREG operand becomes
 * physical, COPYs become moves). complexity: see each pass; dominated by liveness and linear scan.
 */
#include <string.h>

#include "regalloc/ra_int.h"

uint32_t ra_group_end(const struct mir_block *bl, uint32_t i)
{
	const struct mir_insn *in = &bl->insns[i];
	if (in->op != MIR_COPY || !(in->flags & MIR_IF_PARALLEL))
		return i + 1;
	uint32_t end = i + 1;
	while (end < bl->ninsns && bl->insns[end].op == MIR_COPY &&
	       (bl->insns[end].flags & MIR_IF_PARALLEL))
		end++;
	return end;
}

bool ra_opnd_is_use(const struct mir_insn *in, unsigned k)
{
	if (!mir_opnd_is_def(in, k))
		return true;
	/* v_writelane_b32 keeps the other lanes of its destination: it reads it too. */
	return in->op == AMD_OP_V_WRITELANE_B32;
}

bool ra_internal(struct ra_ctx *ctx, uint32_t b, uint32_t i, const char *what)
{
	pa_diag_report(ctx->diag, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "internal: register allocation of '%s' at bb%u instruction %u: %s",
	               ctx->fn->name ? ctx->fn->name : "?", b, i, what);
	return false;
}

bool ra_report_pressure(struct ra_ctx *ctx, enum ra_file f)
{
	pa_diag_report(ctx->diag, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "register pressure in '%s' exceeds %u %s even with spilling (values "
	               "needed at once by one instruction, or read or written outside EXEC)",
	               ctx->fn->name ? ctx->fn->name : "?", ctx->budget[f],
	               f == RA_SGPR ? "SGPRs" : "VGPRs");
	return false;
}

/* Values v_readlane_b32 reads or v_writelane_b32 writes (a lane that may be inactive) are
 * never spilled to scratch, which moves only the lanes EXEC enables (spill_vgpr.c). */
static void fill_no_spill(struct ra_ctx *ctx)
{
	const struct mir_function *fn = ctx->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			if (in->op != AMD_OP_V_READLANE_B32 && in->op != AMD_OP_V_WRITELANE_B32)
				continue;
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_VREG &&
				    fn->vregs[in->opnds[k].v].file == MIR_VGPR)
					ctx->no_spill[in->opnds[k].v] = true;
		}
}

/* fn->num_sgprs / num_vgprs: highest physical register named + 1 (specials excluded). */
static void count_registers(struct mir_function *fn)
{
	unsigned top[RA_NUM_FILES] = {0, 0};
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_SGPR && o->kind != MIR_VGPR)
					continue;
				unsigned end = o->v + (o->width ? o->width : 1);
				enum ra_file f = ra_file_of(o->kind);
				if (end > top[f])
					top[f] = end;
			}
		}
	fn->num_sgprs = top[RA_SGPR];
	fn->num_vgprs = top[RA_VGPR];
}

/* One past the highest register the allocated vregs of `file` take. */
static unsigned vreg_top(const struct mir_function *fn, unsigned file)
{
	unsigned top = 0;
	for (uint32_t v = 0; v < fn->nvregs; v++) {
		const struct mir_vreg *vr = &fn->vregs[v];
		if (vr->file == file && vr->phys >= 0 && (unsigned)vr->phys + vr->size > top)
			top = (unsigned)vr->phys + vr->size;
	}
	return top;
}

/* Reassigns every vreg with ctx->lowest_first (each value takes the lowest free register;
 * none free fails the trial, nothing is spilled); whether it fitted.  The spill marks of the
 * scan before are set aside meanwhile and come back when the trial fails. */
static bool lowest_first_fits(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	bool *marks = PA_NEW_ARRAY(fn->arena, bool, ctx->spillable_vregs + 1);
	memcpy(marks, ctx->spilled, ctx->spillable_vregs * sizeof *marks);
	memset(ctx->spilled, 0, ctx->spillable_vregs * sizeof *marks);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		fn->vregs[v].phys = -1;
	ctx->stats->intervals = 0;
	ctx->lowest_first = true;
	enum ra_result result = ra_linscan(ctx);
	ctx->lowest_first = false;
	if (result != RA_OK)
		memcpy(ctx->spilled, marks, ctx->spillable_vregs * sizeof *marks);
	return result == RA_OK;
}

/* Linear scan gives a value the register free the longest among those in use (room for the
 * scheduler after allocation), which scatters the free registers: a tuple defined later may
 * find no (aligned) run of them below the top and raise the count (hash's and big_unrolled's
 * addresses and stored vectors).  The lowest-first trial over the same intervals is kept
 * when it saves at least 1/16 of the VGPRs and needs no more SGPRs; otherwise the first
 * assignment comes back.  (A smaller saving buys less than the scheduling room it costs:
 * sgemm_reg8x8 on gfx1100, 112 -> 110 VGPRs at the same occupancy, took 0.2% more CU-model
 * cycles.) */
static void try_lowest_first(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	unsigned vgprs = vreg_top(fn, MIR_VGPR), sgprs = vreg_top(fn, MIR_SGPR);
	int32_t *kept = PA_NEW_ARRAY(fn->arena, int32_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		kept[v] = fn->vregs[v].phys;
	unsigned intervals = ctx->stats->intervals;
	if (lowest_first_fits(ctx)) {
		unsigned trial = vreg_top(fn, MIR_VGPR);
		if (trial < vgprs && (vgprs - trial) * 16 >= vgprs &&
		    vreg_top(fn, MIR_SGPR) <= sgprs)
			return;
	}
	for (uint32_t v = 0; v < fn->nvregs; v++)
		fn->vregs[v].phys = kept[v];
	ctx->stats->intervals = intervals;
}

/* Liveness, intervals and linear scan; with spills, rewrites and reruns (a bounded
 * number of rounds: each spills at least one input value, temporaries are never spilled);
 * stops when the spill cost passes max_cost. */
static bool assign(struct ra_ctx *ctx, unsigned max_cost)
{
	struct mir_function *fn = ctx->fn;
	enum { MAX_ROUNDS = 32 };
	struct pa_arena_mark round_start = mir_pass_mark(fn);
	for (unsigned round = 0;; round++) {
		mir_pass_rewind(fn, round_start); /* the last round's liveness, intervals, scan */
		for (uint32_t v = 0; v < fn->nvregs; v++)
			fn->vregs[v].phys = -1;
		ctx->stats->intervals = 0;
		ra_fill_liveness(ctx);
		if (!ra_fill_intervals(ctx))
			return false;
		enum ra_result result = ra_linscan(ctx);
		if (result == RA_OK)
			try_lowest_first(ctx);
		/* where the values do not fit the budget, lowest first may (no spill then) */
		bool scratch = ctx->stats->needs_scratch;
		if ((result == RA_SPILL || (result == RA_FAILED && scratch)) &&
		    lowest_first_fits(ctx)) {
			ctx->stats->needs_scratch = false;
			return true;
		}
		if (result != RA_SPILL)
			return result == RA_OK;
		if (round + 1 == MAX_ROUNDS) {
			enum ra_file f = RA_SGPR;
			for (uint32_t v = 0; v < ctx->spillable_vregs; v++)
				if (ctx->spilled[v] && fn->vregs[v].file == MIR_VGPR)
					f = RA_VGPR;
			return ra_report_pressure(ctx, f);
		}
		if (!max_cost) {
			ctx->stats->over_cost = true;
			return false;
		}
		ctx->stats->rewritten = true;
		if (!ra_spill_vgprs(ctx) || !ra_spill_sgprs(ctx))
			return false;
		if (ra_spill_cost(ctx->stats) > max_cost) {
			ctx->stats->over_cost = true;
			return false;
		}
		for (uint32_t v = 0; v < ctx->spillable_vregs; v++)
			ctx->spilled[v] = false;
	}
}

bool ra_run(struct mir_function *fn, struct ra_stats *stats, struct pa_diag *d)
{
	return ra_run_capped(fn, stats, d, UINT32_MAX);
}

/* ra_run_capped; its tables in the pass arena (mir_pass_arena), freed by the caller. */
static bool run_capped(struct mir_function *fn, struct ra_stats *stats, struct pa_diag *d,
                       unsigned max_cost)
{
	struct ra_stats local;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	struct ra_ctx *ctx = PA_NEW(mir_pass_arena(fn), struct ra_ctx);
	ctx->fn = fn;
	ctx->diag = d;
	ctx->stats = stats;
	ctx->budget[RA_SGPR] = fn->max_sgprs < RA_MAX_SGPRS ? fn->max_sgprs : RA_MAX_SGPRS;
	ctx->budget[RA_VGPR] = fn->max_vgprs < RA_MAX_VGPRS ? fn->max_vgprs : RA_MAX_VGPRS;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		if ((fn->vregs[v].file != MIR_SGPR && fn->vregs[v].file != MIR_VGPR) ||
		    fn->vregs[v].size < 1 || fn->vregs[v].size > 8)
			return ra_internal(ctx, 0, 0, "virtual register of bad file or size");
	ctx->spillable_vregs = fn->nvregs;
	ctx->spilled = PA_NEW_ARRAY(mir_pass_arena(fn), bool, fn->nvregs + 1);
	ctx->slot_lane = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	ctx->slot_vgpr = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ctx->slot_vgpr[v] = UINT32_MAX;
	ctx->spill_vgpr = UINT32_MAX;
	fn->spill_sgprs = 0;
	uint32_t nv = fn->nvregs + 1;
	ctx->no_spill = PA_NEW_ARRAY(mir_pass_arena(fn), bool, nv);
	ctx->slot_offset = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, nv);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ctx->slot_offset[v] = UINT32_MAX;
	ctx->spill_base = (fn->scratch_size + 3) & ~3u;
	fn->spill_vgprs = 0;
	fill_no_spill(ctx);
	if (!assign(ctx, max_cost))
		return false;
	stats->rewritten = true;
	ra_rewrite(ctx);
	if (!ra_lower_copies(ctx))
		return false;
	count_registers(fn);
	return true;
}

bool ra_run_capped(struct mir_function *fn, struct ra_stats *stats, struct pa_diag *d,
                   unsigned max_cost)
{
	struct pa_arena_mark start = mir_pass_mark(fn);
	bool ok = run_capped(fn, stats, d, max_cost);
	mir_pass_rewind(fn, start);
	return ok;
}
