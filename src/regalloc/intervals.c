/* Live intervals: one [start, end] range of program points per virtual register and one
 * per dword of it, and the [first, last] reference range of every fixed physical register.
 *
 * Algorithm: instructions are numbered in linear order (see ra_int.h for points); a vreg's
 * interval runs from the first point where it is written, read or live (block start of
 * a block where it is live-in) to the last point where it is read, written or live (block
 * end of a block where it is live-out); liveness.c gives the live part as live_span.  No holes:
 * simple and safe, since every point where the value is live lies between the two.  A write of more
 * than one dword starts at the instruction's read point so a multi-dword result never overlaps the
 * instruction's own sources (some instructions forbid partial overlap).  A dword's interval
 * spans its own references and the vreg's live_span (liveness is by vreg, so a dword live
 * across a block boundary is live across the vreg's whole span), and a dword nothing
 * references gets the vreg's interval: a 64-bit address whose halves two adds write, or whose
 * low half is read last by the add making the next address, holds each register only as
 * long as that half is live (as LLVM's subregister liveness).  Fixed MIR_SGPR/MIR_VGPR
 * operands get the same treatment per physical register, except that one read before any
 * write (an ABI input) is busy from the function entry on.
 * requires: ra_fill_liveness.  breaks: nothing.
 * complexity: O(instructions + vregs). */
#include "regalloc/ra_int.h"

static void extend(uint32_t *start, uint32_t *end, uint32_t from, uint32_t to)
{
	if (*start == RA_NO_POINT || from < *start)
		*start = from;
	if (*end == RA_NO_POINT || to > *end)
		*end = to;
}

/* Records operand o of an instruction whose reads are at `use` and writes at `def`. */
static bool note_opnd(struct ra_ctx *ctx, const struct mir_opnd *o, bool is_use, bool is_def,
                      uint32_t use, uint32_t def)
{
	uint32_t from = is_use || (is_def && o->width > 1) ? use : def;
	uint32_t to = is_def ? def : use;
	if (o->kind == MIR_VREG) {
		struct ra_interval *iv = &ctx->intervals[o->v];
		extend(&iv->start, &iv->end, from, to);
		unsigned size = ctx->fn->vregs[o->v].size;
		unsigned last = o->width && o->sub + o->width < size ? o->sub + o->width : size;
		for (unsigned k = o->sub; k < last; k++) {
			struct ra_interval *dw = &ctx->dword_iv[ctx->dword_base[o->v] + k];
			extend(&dw->start, &dw->end, from, to);
		}
		return true;
	}
	if (o->kind != MIR_SGPR && o->kind != MIR_VGPR)
		return true;
	enum ra_file f = ra_file_of(o->kind);
	unsigned limit = f == RA_SGPR ? RA_MAX_SGPRS : RA_MAX_VGPRS;
	if (o->v + o->width > limit)
		return false;
	for (unsigned r = o->v; r < o->v + o->width; r++) {
		/* read before any write in linear order: its value comes from the function
		 * entry (an ABI input), so it is busy from the entry on */
		uint32_t begin = is_use && ctx->fixed[f][r].first == RA_NO_POINT ? 0 : from;
		extend(&ctx->fixed[f][r].first, &ctx->fixed[f][r].last, begin, to);
	}
	return true;
}

static bool scan_block(struct ra_ctx *ctx, uint32_t b)
{
	const struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t base = ctx->first_ins[b];
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = ra_group_end(bl, i);
		uint32_t use = 2 * (base + i), def = 2 * (base + end - 1) + 1;
		for (uint32_t j = i; j < end; j++) {
			const struct mir_insn *in = &bl->insns[j];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (!note_opnd(ctx, &in->opnds[k], ra_opnd_is_use(in, k),
				               mir_opnd_is_def(in, k), use, def))
					return ra_internal(ctx, b, j,
					                   "physical register out of range");
		}
		i = end;
	}
	return true;
}

/* Per-dword intervals start empty; references extend them. */
static void init_dwords(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	ctx->dword_base = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	uint32_t total = 0;
	for (uint32_t v = 0; v < fn->nvregs; v++) {
		ctx->dword_base[v] = total;
		total += fn->vregs[v].size;
	}
	ctx->dword_base[fn->nvregs] = total;
	ctx->dword_iv = PA_NEW_ARRAY(mir_pass_arena(fn), struct ra_interval, total + 1);
	for (uint32_t d = 0; d < total; d++)
		ctx->dword_iv[d] = (struct ra_interval){RA_NO_POINT, RA_NO_POINT};
}

/* Each referenced dword is live over the vreg's live span as well; one that nothing
 * references holds its register over the vreg's whole interval (as before dwords had their
 * own), and so does the dword of a one-dword vreg. */
static void finish_dwords(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		for (unsigned k = 0; k < fn->vregs[v].size; k++) {
			struct ra_interval *dw = &ctx->dword_iv[ctx->dword_base[v] + k];
			const struct ra_interval *span = &ctx->live_span[v];
			if (dw->start == RA_NO_POINT || fn->vregs[v].size == 1)
				*dw = ctx->intervals[v];
			else if (span->start != RA_NO_POINT)
				extend(&dw->start, &dw->end, span->start, span->end);
		}
}

bool ra_fill_intervals(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	ctx->intervals = PA_NEW_ARRAY(mir_pass_arena(fn), struct ra_interval, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		ctx->intervals[v] = ctx->live_span[v];
	init_dwords(ctx);
	for (unsigned f = 0; f < RA_NUM_FILES; f++)
		for (unsigned r = 0; r < RA_MAX_VGPRS; r++)
			ctx->fixed[f][r] = (struct ra_fixed){RA_NO_POINT, RA_NO_POINT};
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (!scan_block(ctx, b))
			return false;
	finish_dwords(ctx);
	return true;
}
