/* SGPR spilling into VGPR lanes.
 *
 * Every vreg linear scan marked in ctx->spilled gets a spill slot: size consecutive lanes
 * of a spill VGPR (a new VGPR vreg; a new one when wave_size lanes are used up).  Each
 * read of a spilled vreg becomes a new short-lived SGPR temporary filled by
 * v_readlane_b32 just before the instruction (before the whole group for a parallel
 * copy), each write a temporary stored by v_writelane_b32 just after it.  The spill VGPR
 * is read and written by v_writelane_b32, so liveness keeps it live from the function
 * entry to its last use: its lanes survive any control flow.  v_readlane/v_writelane
 * ignore exec, so spill code is right in any divergence state.  Temporaries are numbered
 * from ctx->spillable_vregs up and are never spilled; allocation reruns afterwards.
 * requires: ra_linscan returned RA_SPILL (VGPRs marked in ctx->spilled are spill_vgpr.c's).
 * breaks: liveness, intervals, assignment (all
 * recomputed by the next round).  complexity: O(instructions + spill code). */
#include <string.h>

#include "regalloc/ra_int.h"

/* Gives spilled vreg v its lanes. */
static void assign_slot(struct ra_ctx *ctx, uint32_t v)
{
	struct mir_function *fn = ctx->fn;
	unsigned size = fn->vregs[v].size;
	if (ctx->spill_vgpr == UINT32_MAX || ctx->lanes_used + size > fn->wave_size) {
		ctx->spill_vgpr = mir_new_vreg(fn, MIR_VGPR, 1, 1);
		ctx->lanes_used = 0;
	}
	ctx->slot_vgpr[v] = ctx->spill_vgpr;
	ctx->slot_lane[v] = ctx->lanes_used;
	ctx->lanes_used += size;
	fn->spill_sgprs++;
	ctx->stats->spilled++;
}

static struct mir_insn lane_op(unsigned op, struct mir_opnd a, struct mir_opnd b, uint32_t lane,
                               uint32_t src_line)
{
	struct mir_opnd ops[3] = {a, b, mir_imm(lane)};
	struct mir_insn in = mir_make(op, 3, ops);
	in.src_line = src_line;
	return in;
}

struct spill_block {
	struct mir_insn *out;
	uint32_t n;
	struct mir_insn *post; /* writelanes after the current group */
	uint32_t npost;
};

static bool is_spilled_sgpr(const struct ra_ctx *ctx, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->v < ctx->spillable_vregs && ctx->spilled[o->v] &&
	       ctx->fn->vregs[o->v].file == MIR_SGPR;
}

/* Upper bound of the lane instructions the spilled operands of `in` add: a readlane and a
 * writelane per dword. */
static uint32_t spill_code_bound(const struct ra_ctx *ctx, const struct mir_insn *in)
{
	uint32_t n = 0;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (is_spilled_sgpr(ctx, &in->opnds[k]))
			n += 2u * in->opnds[k].width;
	return n;
}

/* Rewrites the spilled operands of `in` to temporaries; appends readlanes to sb->out and
 * writelanes to sb->post.  Returns false on a spilled write in a terminator. */
static bool rewrite_insn(struct ra_ctx *ctx, struct mir_insn *in, struct spill_block *sb)
{
	struct mir_function *fn = ctx->fn;
	for (unsigned k = 0; k < in->nopnds; k++) {
		struct mir_opnd *o = &in->opnds[k];
		if (!is_spilled_sgpr(ctx, o))
			continue;
		uint32_t v = o->v, vgpr = ctx->slot_vgpr[v];
		uint32_t lane = ctx->slot_lane[v] + o->sub;
		unsigned align = o->width == 1 ? 1 : o->width == 2 ? 2 : 4;
		uint32_t temp = mir_new_vreg(fn, MIR_SGPR, o->width, align);
		struct mir_opnd slot = mir_vreg(vgpr, 1);
		for (unsigned d = 0; d < o->width; d++) {
			struct mir_opnd part = mir_vreg(temp, 1);
			part.sub = (uint8_t)d;
			if (ra_opnd_is_use(in, k))
				sb->out[sb->n++] = lane_op(AMD_OP_V_READLANE_B32, part, slot,
				                           lane + d, in->src_line);
			if (mir_opnd_is_def(in, k)) {
				if (mir_is_terminator(in))
					return false;
				sb->post[sb->npost++] = lane_op(AMD_OP_V_WRITELANE_B32, slot, part,
				                                lane + d, in->src_line);
			}
		}
		*o = mir_vreg(temp, o->width);
	}
	return true;
}

/* Rewrites block b into a new array sized by its spill code; a block without spilled
 * operands stays as it is.  `post` and `group` are shared buffers of the round (sized for
 * the largest block). */
static bool spill_block(struct ra_ctx *ctx, uint32_t b, struct mir_insn *post,
                        struct mir_insn *group)
{
	struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t extra = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		extra += spill_code_bound(ctx, &bl->insns[i]);
	if (!extra)
		return true;
	uint32_t cap = bl->ninsns + extra;
	struct spill_block sb = {
	        .out = PA_NEW_ARRAY(ctx->fn->arena, struct mir_insn, cap),
	        .post = post,
	};
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = ra_group_end(bl, i);
		memcpy(group, &bl->insns[i], (end - i) * sizeof *group);
		sb.npost = 0;
		for (uint32_t j = 0; j < end - i; j++)
			if (!rewrite_insn(ctx, &group[j], &sb))
				return ra_internal(ctx, b, i + j,
				                   "spilled SGPR written by a branch");
		memcpy(&sb.out[sb.n], group, (end - i) * sizeof *group);
		sb.n += end - i;
		memcpy(&sb.out[sb.n], sb.post, sb.npost * sizeof *sb.post);
		sb.n += sb.npost;
		i = end;
	}
	bl->insns = sb.out;
	bl->ninsns = sb.n;
	bl->cap = cap;
	return true;
}

bool ra_spill_sgprs(struct ra_ctx *ctx)
{
	bool any = false;
	for (uint32_t v = 0; v < ctx->spillable_vregs; v++)
		if (ctx->spilled[v] && ctx->fn->vregs[v].file == MIR_SGPR) {
			any = true;
			if (ctx->slot_vgpr[v] == UINT32_MAX)
				assign_slot(ctx, v);
		}
	if (!any)
		return true;
	uint32_t max_insns = 1, max_extra = 1;
	for (uint32_t b = 0; b < ctx->fn->nblocks; b++) {
		const struct mir_block *bl = &ctx->fn->blocks[b];
		uint32_t extra = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			extra += spill_code_bound(ctx, &bl->insns[i]);
		max_insns = bl->ninsns > max_insns ? bl->ninsns : max_insns;
		max_extra = extra > max_extra ? extra : max_extra;
	}
	struct mir_insn *post = PA_NEW_ARRAY(ctx->fn->arena, struct mir_insn, max_extra);
	struct mir_insn *group = PA_NEW_ARRAY(ctx->fn->arena, struct mir_insn, max_insns);
	for (uint32_t b = 0; b < ctx->fn->nblocks; b++)
		if (!spill_block(ctx, b, post, group))
			return false;
	return true;
}
