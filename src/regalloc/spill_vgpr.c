/* VGPR spilling to scratch (the kernel's private segment: memory per lane).
 *
 * Every VGPR vreg linear scan marked in ctx->spilled gets a slot of 4 * size bytes after the
 * .local frame, shared by vregs of the same round and size whose intervals do not overlap
 * (first fit in start order); fn->scratch_size grows by the slots, so the descriptor's
 * private_segment_fixed_size covers frame and slots.  Each operand naming a spilled vreg
 * becomes a new short-lived VGPR temporary (one per instruction and vreg part, so an operand
 * both read and written keeps one register): a read loads it by scratch_load_dword(x2)
 * just before the instruction (before the whole group for a parallel copy), a write stores
 * it by scratch_store_dword(x2) just after (after the group); a 64-bit pair moves as one
 * dwordx2.  (No rematerialisation: selection puts constants into operands, and a VGPR
 * COPY of a constant is in practice one of several definitions of a phi's register.)
 * Temporaries are numbered from ctx->spillable_vregs up and never spilled; allocation reruns.
 * Addressing: neither VGPR nor SGPR address, the slot in the offset field ("ST mode": gfx942,
 * gfx11, gfx12, while the offset fits), else an SGPR temporary holding the offset as the
 * scalar address (gfx90a and gfx1030 have no ST form in our encoder and simulator).
 * EXEC: spill code runs next to its instruction under that instruction's EXEC, and is
 * right for values live along the linear CFG too (lanes written before a divergent branch,
 * read after the join or in the next loop iteration): a store under EXEC changes exactly
 * the lanes of the slot that the register write under the same EXEC would change, the
 * other lanes keep what earlier stores put there just as a register keeps its inactive
 * lanes, and a load under EXEC supplies every lane the instruction reads.  Only
 * instructions that ignore EXEC break this (v_readlane_b32 reads, v_writelane_b32 writes a
 * lane that may be inactive): their VGPR operands are never spilled (ctx->no_spill), nor are
 * the SGPR spill VGPRs (temporaries).  Reloads need no wait here: sched_waitcnt, after
 * allocation, waits for the load counter before the temporary's use as for any load.
 * requires: ra_linscan returned RA_SPILL, fn->scratch_ready, intervals of the unchanged
 * blocks (runs before spill.c).  breaks: liveness, intervals, assignment (recomputed by the
 * next round).  complexity: O(instructions + spill code + spilled * slots). */
#include <stdlib.h>
#include <string.h>

#include "regalloc/ra_int.h"

/* A temporary standing for one spilled operand of the current group. */
struct spill_temp {
	uint32_t v, temp;
	uint8_t sub, width;
	uint16_t insn;       /* index in the group */
	bool loaded, stored; /* reload / store emitted */
};

struct vspill {
	struct ra_ctx *ctx;
	struct mir_insn *out, *post; /* the new block; stores after the current group */
	uint32_t n, npost;
	struct spill_temp *temps;
	uint32_t ntemps;
};

static bool has_st_mode(const struct mir_function *fn, uint32_t offset)
{
	enum amd_gen gen = fn->target->info->gen;
	if (gen == AMD_GFX12)
		return offset < (1u << 23);
	return (gen == AMD_GFX940 || gen == AMD_GFX11) && offset < 4096;
}

/* Appends a scratch load (is_load) or store of `data` at byte `offset` to `dst`. */
static void emit_access(struct vspill *vs, struct mir_insn *dst, uint32_t *n, bool is_load,
                        struct mir_opnd data, uint32_t offset, uint32_t src_line)
{
	struct ra_ctx *ctx = vs->ctx;
	struct mir_opnd saddr = {.kind = MIR_OFF};
	int32_t imm = (int32_t)offset;
	if (!has_st_mode(ctx->fn, offset)) {
		uint32_t s = mir_new_vreg(ctx->fn, MIR_SGPR, 1, 1);
		struct mir_opnd mov[2] = {mir_vreg(s, 1), mir_imm(offset)};
		dst[*n] = mir_make(MIR_COPY, 2, mov);
		dst[(*n)++].src_line = src_line;
		saddr = mir_vreg(s, 1);
		imm = 0;
	}
	struct mir_opnd off = {.kind = MIR_OFF};
	bool x2 = data.width == 2;
	struct mir_insn in;
	if (is_load) {
		struct mir_opnd ops[3] = {data, off, saddr};
		in = mir_make(x2 ? AMD_OP_SCRATCH_LOAD_DWORDX2 : AMD_OP_SCRATCH_LOAD_DWORD, 3, ops);
		ctx->stats->spill_loads += 4 * data.width;
	} else {
		struct mir_opnd ops[3] = {off, data, saddr};
		in = mir_make(x2 ? AMD_OP_SCRATCH_STORE_DWORDX2 : AMD_OP_SCRATCH_STORE_DWORD, 3,
		              ops);
		ctx->stats->spill_stores += 4 * data.width;
	}
	in.offset = imm;
	in.src_line = src_line;
	dst[(*n)++] = in;
}

/* Loads or stores register operand `reg` from or to scratch at byte `slot`, in dword pairs
 * where a pair starts at an even dword of its vreg (aligned tuples on gfx90a). */
static void move_opnd(struct vspill *vs, struct mir_insn *dst, uint32_t *n, bool is_load,
                      struct mir_opnd reg, uint32_t slot, uint32_t src_line)
{
	for (unsigned d = 0; d < reg.width;) {
		unsigned w = (reg.sub + d) % 2 == 0 && d + 1 < reg.width ? 2 : 1;
		struct mir_opnd part = reg;
		part.sub = (uint8_t)(reg.sub + d);
		part.width = (uint8_t)w;
		emit_access(vs, dst, n, is_load, part, slot + 4u * d, src_line);
		d += w;
	}
}

/* Byte address of dword `sub` of spilled vreg v's slot. */
static uint32_t slot_of(const struct ra_ctx *ctx, uint32_t v, unsigned sub)
{
	return ctx->slot_offset[v] + 4u * sub;
}

/* Loads or stores a spilled operand's dwords through its temporary. */
static void move_parts(struct vspill *vs, struct mir_insn *dst, uint32_t *n, bool is_load,
                       const struct spill_temp *t, uint32_t src_line)
{
	move_opnd(vs, dst, n, is_load, mir_vreg(t->temp, t->width), slot_of(vs->ctx, t->v, t->sub),
	          src_line);
}

/* The temporary of operand o of group instruction j (shared by the instruction's operands
 * naming the same dwords). */
static struct spill_temp *temp_for(struct vspill *vs, const struct mir_opnd *o, uint32_t j)
{
	for (uint32_t k = 0; k < vs->ntemps; k++) {
		struct spill_temp *t = &vs->temps[k];
		if (t->insn == j && t->v == o->v && t->sub == o->sub && t->width == o->width)
			return t;
	}
	struct mir_function *fn = vs->ctx->fn;
	unsigned align = o->width == 1 ? 1 : fn->vregs[o->v].align > 2 ? fn->vregs[o->v].align : 2;
	struct spill_temp *t = &vs->temps[vs->ntemps++];
	*t = (struct spill_temp){o->v,        mir_new_vreg(fn, MIR_VGPR, o->width, align),
	                         o->sub,      o->width,
	                         (uint16_t)j, false,
	                         false};
	return t;
}

static bool is_spilled(const struct ra_ctx *ctx, const struct mir_opnd *o)
{
	return o->kind == MIR_VREG && o->v < ctx->spillable_vregs && ctx->spilled[o->v] &&
	       ctx->fn->vregs[o->v].file == MIR_VGPR;
}

/* Rewrites the spilled operands of group instruction j; reloads go to vs->out, stores to
 * vs->post.  Returns false for a spilled write in a terminator. */
static bool rewrite_insn(struct vspill *vs, struct mir_insn *in, uint32_t j)
{
	struct ra_ctx *ctx = vs->ctx;
	for (unsigned k = 0; k < in->nopnds; k++) {
		struct mir_opnd *o = &in->opnds[k];
		if (!is_spilled(ctx, o))
			continue;
		bool use = ra_opnd_is_use(in, k), def = mir_opnd_is_def(in, k);
		if (def && mir_is_terminator(in))
			return false;
		struct spill_temp *t = temp_for(vs, o, j);
		if (use && !t->loaded)
			move_parts(vs, vs->out, &vs->n, true, t, in->src_line);
		if (def && !t->stored)
			move_parts(vs, vs->post, &vs->npost, false, t, in->src_line);
		t->loaded |= use;
		t->stored |= def;
		*o = mir_vreg(t->temp, o->width);
	}
	return true;
}

/* Whether copy group [i, end) can go through memory directly: only COPYs, a spilled vreg,
 * and no spilled vreg both read and written by the group (a cycle through its slot). */
static bool is_direct_copy_group(const struct ra_ctx *ctx, const struct mir_block *bl, uint32_t i,
                                 uint32_t end)
{
	bool any = false;
	for (uint32_t j = i; j < end; j++) {
		const struct mir_insn *in = &bl->insns[j];
		if (in->op != MIR_COPY)
			return false;
		const struct mir_opnd *d = &in->opnds[0];
		if (is_spilled(ctx, &in->opnds[1]) || is_spilled(ctx, d))
			any = true;
		if (!is_spilled(ctx, d))
			continue;
		for (uint32_t k = i; k < end; k++)
			if (bl->insns[k].opnds[1].kind == MIR_VREG &&
			    bl->insns[k].opnds[1].v == d->v)
				return false;
	}
	return any;
}

/* Copy group [i, end) with spilled vregs, without temporaries for the whole group (a phi's
 * parallel copy of every loop value would need them all at once): a copy into a spilled
 * vreg stores its source before the group (a VGPR's value before the group; a spilled,
 * constant or SGPR source through one temporary at a time), one from a spilled vreg into
 * a register loads it after the group; the rest stay a parallel copy.  Right because no
 * slot the group reads is written (is_direct_copy_group). */
static void copy_group(struct vspill *vs, const struct mir_block *bl, uint32_t i, uint32_t end,
                       struct mir_insn *rest)
{
	struct ra_ctx *ctx = vs->ctx;
	uint32_t nrest = 0;
	vs->npost = 0;
	for (uint32_t j = i; j < end; j++) {
		const struct mir_insn *in = &bl->insns[j];
		struct mir_opnd d = in->opnds[0], src = in->opnds[1];
		bool d_spilled = is_spilled(ctx, &d), s_spilled = is_spilled(ctx, &src);
		if (!d_spilled && !s_spilled) {
			rest[nrest++] = *in;
		} else if (!d_spilled) {
			move_opnd(vs, vs->post, &vs->npost, true, d, slot_of(ctx, src.v, src.sub),
			          in->src_line);
		} else if (src.kind == MIR_VREG && !s_spilled &&
		           ctx->fn->vregs[src.v].file == MIR_VGPR) {
			move_opnd(vs, vs->out, &vs->n, false, src, slot_of(ctx, d.v, d.sub),
			          in->src_line);
		} else {
			unsigned align = d.width == 1 ? 1 : 2;
			struct mir_opnd t =
			        mir_vreg(mir_new_vreg(ctx->fn, MIR_VGPR, d.width, align), d.width);
			if (s_spilled) {
				move_opnd(vs, vs->out, &vs->n, true, t,
				          slot_of(ctx, src.v, src.sub), in->src_line);
			} else {
				struct mir_opnd mov[2] = {t, src};
				vs->out[vs->n] = mir_make(MIR_COPY, 2, mov);
				vs->out[vs->n++].src_line = in->src_line;
			}
			move_opnd(vs, vs->out, &vs->n, false, t, slot_of(ctx, d.v, d.sub),
			          in->src_line);
		}
	}
	memcpy(&vs->out[vs->n], rest, nrest * sizeof *rest);
	vs->n += nrest;
	memcpy(&vs->out[vs->n], vs->post, vs->npost * sizeof *vs->post);
	vs->n += vs->npost;
}

/* Upper bound of the instructions spill code adds for the spilled operands of `in`: per
 * operand dword at most a load and a store, each with an SGPR address copy, plus one
 * temporary copy (copy_group). */
static uint32_t spill_code_bound(const struct ra_ctx *ctx, const struct mir_insn *in)
{
	uint32_t n = 0;
	for (unsigned k = 0; k < in->nopnds; k++)
		if (is_spilled(ctx, &in->opnds[k]))
			n += 1 + 4u * in->opnds[k].width;
	return n;
}

/* Buffers reused by every block of a round (sized for the largest block). */
struct spill_buffers {
	struct mir_insn *post, *group;
	struct spill_temp *temps;
};

/* Rewrites block b into a new array of exactly the size its spill code can need; a block
 * without spilled operands is left as it is (no copy: the function's size, not the number
 * of rounds times it, is what the arena holds). */
static bool spill_block(struct ra_ctx *ctx, uint32_t b, const struct spill_buffers *buf)
{
	struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t extra = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		extra += spill_code_bound(ctx, &bl->insns[i]);
	if (!extra)
		return true;
	uint32_t cap = bl->ninsns + extra;
	struct vspill vs = {
	        .ctx = ctx,
	        .out = PA_NEW_ARRAY(ctx->fn->arena, struct mir_insn, cap),
	        .post = buf->post,
	        .temps = buf->temps,
	};
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = ra_group_end(bl, i);
		if (is_direct_copy_group(ctx, bl, i, end)) {
			copy_group(&vs, bl, i, end, buf->group);
			i = end;
			continue;
		}
		vs.npost = 0;
		vs.ntemps = 0;
		uint32_t ngroup = 0;
		struct mir_insn *group = buf->group;
		for (uint32_t j = 0; j < end - i; j++) {
			group[ngroup] = bl->insns[i + j];
			if (!rewrite_insn(&vs, &group[ngroup], j))
				return ra_internal(ctx, b, i + j,
				                   "spilled VGPR written by a branch");
			ngroup++;
		}
		memcpy(&vs.out[vs.n], group, ngroup * sizeof *group);
		vs.n += ngroup;
		memcpy(&vs.out[vs.n], vs.post, vs.npost * sizeof *vs.post);
		vs.n += vs.npost;
		i = end;
	}
	bl->insns = vs.out;
	bl->ninsns = vs.n;
	bl->cap = cap;
	return true;
}

/* The round's shared buffers: stores after a group, a group's rewritten instructions and
 * its temporaries, each at most a block's worth. */
static struct spill_buffers alloc_buffers(struct ra_ctx *ctx)
{
	const struct mir_function *fn = ctx->fn;
	uint32_t max_insns = 1, max_extra = 1, max_opnds = 1;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		uint32_t extra = 0, opnds = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			extra += spill_code_bound(ctx, &bl->insns[i]);
			opnds += bl->insns[i].nopnds;
		}
		if (!extra)
			continue;
		max_insns = bl->ninsns > max_insns ? bl->ninsns : max_insns;
		max_extra = extra > max_extra ? extra : max_extra;
		max_opnds = opnds > max_opnds ? opnds : max_opnds;
	}
	return (struct spill_buffers){
	        .post = PA_NEW_ARRAY(fn->arena, struct mir_insn, max_extra),
	        .group = PA_NEW_ARRAY(fn->arena, struct mir_insn, max_insns),
	        .temps = PA_NEW_ARRAY(fn->arena, struct spill_temp, max_opnds),
	};
}

/* A slot handed out this round: `size` dwords at byte `offset`, holding a value until
 * program point `end`. */
struct slot {
	uint32_t offset, end, size;
};

struct slot_key {
	uint32_t start, end, vreg;
};

static int cmp_slot_key(const void *a, const void *b)
{
	const struct slot_key *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

/* Per linear instruction: the read point of the first and the def point of the last
 * instruction of its copy group (spill code goes before and after whole groups). */
static void fill_group_points(const struct ra_ctx *ctx, uint32_t *lo, uint32_t *hi)
{
	const struct mir_function *fn = ctx->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		uint32_t base = ctx->first_ins[b];
		for (uint32_t i = 0; i < bl->ninsns;) {
			uint32_t end = ra_group_end(bl, i);
			for (uint32_t j = i; j < end; j++) {
				lo[base + j] = 2 * (base + i);
				hi[base + j] = 2 * (base + end - 1) + 1;
			}
			i = end;
		}
	}
}

/* Gives this round's spilled VGPR vregs slots: vregs whose intervals (widened to whole
 * copy groups, where their spill code goes) do not overlap share one, first fit in start
 * order.  Slots of earlier rounds are not shared: the code has moved since.  Requires the
 * blocks as ra_fill_intervals numbered them.  Returns how many vregs were spilled. */
static uint32_t assign_slots(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	uint32_t nins = ctx->first_ins[fn->nblocks], n = 0;
	struct slot_key *keys = PA_NEW_ARRAY(fn->arena, struct slot_key, ctx->spillable_vregs + 1);
	uint32_t *lo = PA_NEW_ARRAY(fn->arena, uint32_t, nins + 1);
	uint32_t *hi = PA_NEW_ARRAY(fn->arena, uint32_t, nins + 1);
	fill_group_points(ctx, lo, hi);
	for (uint32_t v = 0; v < ctx->spillable_vregs; v++) {
		const struct ra_interval *iv = &ctx->intervals[v];
		if (!ctx->spilled[v] || fn->vregs[v].file != MIR_VGPR ||
		    ctx->slot_offset[v] != UINT32_MAX || iv->start == RA_NO_POINT)
			continue;
		keys[n++] = (struct slot_key){lo[iv->start / 2], hi[iv->end / 2], v};
	}
	qsort(keys, n, sizeof *keys, cmp_slot_key);
	struct slot *slots = PA_NEW_ARRAY(fn->arena, struct slot, n + 1);
	uint32_t nslots = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v = keys[k].vreg, size = fn->vregs[v].size, s = 0;
		while (s < nslots && (slots[s].size != size || slots[s].end >= keys[k].start))
			s++;
		if (s == nslots) {
			slots[nslots++] =
			        (struct slot){ctx->spill_base + ctx->spill_bytes, 0, size};
			ctx->spill_bytes += 4u * size;
		}
		slots[s].end = keys[k].end;
		ctx->slot_offset[v] = slots[s].offset;
		ctx->stats->vgpr_spilled++;
		fn->spill_vgprs++;
	}
	return n;
}

bool ra_spill_vgprs(struct ra_ctx *ctx)
{
	struct mir_function *fn = ctx->fn;
	if (!assign_slots(ctx))
		return true;
	fn->scratch_size = ctx->spill_base + ctx->spill_bytes;
	fn->abi.private_segment = true;
	struct spill_buffers buf = alloc_buffers(ctx);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (!spill_block(ctx, b, &buf))
			return false;
	return true;
}
