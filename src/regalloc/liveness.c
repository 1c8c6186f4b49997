/* Liveness of virtual registers: live-in and live-out bit sets per block.
 *
 * Algorithm: a forward scan of each block computes `gen` (vregs read before the block
 * has written all their dwords) and `kill` (vregs whose every dword the block writes);
 * then the classic backward dataflow live_out(b) = U live_in(succ), live_in(b) = gen(b) U
 * (live_out(b) - kill(b)) over the LINEAR CFG (mir_block.succ) runs on a worklist seeded in
 * reverse block order until nothing changes.  Vregs are not in SSA form; a partial
 * (sub-register) definition kills nothing until all dwords are written in the block.
 * Edges taken only when EXEC is empty (mir_block.skip_succ: cflow.c's s_cbranch_execz)
 * carry no lane and so no value: they are left out, or a phi register defined in both
 * arms of a branch would look live from the entry along the path skipping both (the
 * intervals are hole-free: a value's register stays reserved from its first definition).
 * Copy groups read all sources before writing any destination (parallel semantics).
 * requires: a verified MIR function.  breaks: nothing (fills ctx->live_in / live_out).
 * complexity: O(instructions + block visits * vregs / 64); a block is revisited only when
 * a successor's live-in grew (a few times per loop level for reducible control flow). */
#include <string.h>

#include "regalloc/ra_int.h"

struct liveness_scan {
	uint8_t *defined;  /* per vreg: dwords written so far in the block (bit mask) */
	uint32_t *touched; /* vregs whose `defined` mask is non-zero */
	uint32_t ntouched;
};

static uint8_t dword_mask(const struct mir_opnd *o)
{
	return (uint8_t)(((1u << o->width) - 1) << o->sub);
}

/* Records the reads then the writes of instructions [i, end) of a block. */
static void scan_group(const struct mir_function *fn, const struct mir_block *bl, uint32_t i,
                       uint32_t end, struct liveness_scan *scan, uint64_t *gen, uint64_t *kill)
{
	for (uint32_t j = i; j < end; j++) {
		const struct mir_insn *in = &bl->insns[j];
		for (unsigned k = 0; k < in->nopnds; k++) {
			const struct mir_opnd *o = &in->opnds[k];
			if (o->kind != MIR_VREG || !ra_opnd_is_use(in, k))
				continue;
			uint8_t need = dword_mask(o);
			if ((scan->defined[o->v] & need) != need)
				ra_set_add(gen, o->v);
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
				ra_set_add(kill, o->v);
		}
	}
}

static void scan_block(const struct mir_function *fn, const struct mir_block *bl,
                       struct liveness_scan *scan, uint64_t *gen, uint64_t *kill)
{
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = ra_group_end(bl, i);
		scan_group(fn, bl, i, end, scan, gen, kill);
		i = end;
	}
	for (uint32_t t = 0; t < scan->ntouched; t++)
		scan->defined[scan->touched[t]] = 0;
	scan->ntouched = 0;
}

/* live_in(b) = gen(b) | (live_out(b) & ~kill(b)); returns whether live_in changed. */
static bool update_block(struct ra_ctx *ctx, uint32_t b, const uint64_t *gen, const uint64_t *kill)
{
	const struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t w = ctx->set_words;
	uint64_t *out = &ctx->live_out[(size_t)b * w];
	uint64_t *in = &ctx->live_in[(size_t)b * w];
	bool changed = false;
	for (unsigned s = 0; s < bl->nsucc; s++) {
		if (bl->skip_succ >> s & 1)
			continue;
		const uint64_t *succ_in = &ctx->live_in[(size_t)bl->succ[s] * w];
		for (uint32_t k = 0; k < w; k++)
			out[k] |= succ_in[k];
	}
	for (uint32_t k = 0; k < w; k++) {
		uint64_t v = gen[(size_t)b * w + k] | (out[k] & ~kill[(size_t)b * w + k]);
		changed |= v != in[k];
		in[k] = v;
	}
	return changed;
}

/* Predecessor lists in CSR form: preds[pred_first[b] .. pred_first[b+1]). */
static uint32_t *fill_preds(const struct mir_function *fn, uint32_t **pred_first_out)
{
	uint32_t *first = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nblocks + 1);
	uint32_t npreds = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++) {
			first[fn->blocks[b].succ[s] + 1]++;
			npreds++;
		}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		first[b + 1] += first[b];
	uint32_t *fill = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nblocks + 1);
	memcpy(fill, first, (fn->nblocks + 1) * sizeof *fill);
	uint32_t *preds = PA_NEW_ARRAY(fn->arena, uint32_t, npreds + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++)
			preds[fill[fn->blocks[b].succ[s]]++] = b;
	*pred_first_out = first;
	return preds;
}

void ra_fill_liveness(struct ra_ctx *ctx)
{
	const struct mir_function *fn = ctx->fn;
	struct pa_arena *a = fn->arena;
	uint32_t w = ctx->set_words, nb = fn->nblocks;
	uint64_t *gen = PA_NEW_ARRAY(a, uint64_t, (size_t)nb * w + 1);
	uint64_t *kill = PA_NEW_ARRAY(a, uint64_t, (size_t)nb * w + 1);
	ctx->live_in = PA_NEW_ARRAY(a, uint64_t, (size_t)nb * w + 1);
	ctx->live_out = PA_NEW_ARRAY(a, uint64_t, (size_t)nb * w + 1);
	struct liveness_scan scan = {
	        .defined = PA_NEW_ARRAY(a, uint8_t, fn->nvregs + 1),
	        .touched = PA_NEW_ARRAY(a, uint32_t, fn->nvregs + 1),
	};
	for (uint32_t b = 0; b < nb; b++)
		scan_block(fn, &fn->blocks[b], &scan, &gen[(size_t)b * w], &kill[(size_t)b * w]);

	uint32_t *pred_first;
	uint32_t *preds = fill_preds(fn, &pred_first);
	/* FIFO worklist of at most nb blocks (ring buffer), seeded last block first. */
	uint32_t *queue = PA_NEW_ARRAY(a, uint32_t, nb + 1);
	bool *queued = PA_NEW_ARRAY(a, bool, nb + 1);
	uint32_t head = 0, count = 0;
	for (uint32_t b = nb; b-- > 0;) {
		queue[count++] = b;
		queued[b] = true;
	}
	while (count) {
		uint32_t b = queue[head];
		head = (head + 1) % nb;
		count--;
		queued[b] = false;
		if (!update_block(ctx, b, gen, kill))
			continue;
		for (uint32_t p = pred_first[b]; p < pred_first[b + 1]; p++) {
			uint32_t pred = preds[p];
			if (!queued[pred]) {
				queue[(head + count) % nb] = pred;
				count++;
				queued[pred] = true;
			}
		}
	}
}
