/* Copy lowering: COPY pseudo-instructions on physical registers become moves.
 *
 * A copy group (a run of MIR_IF_PARALLEL COPYs, or one COPY) is a parallel copy: it is
 * split into dword moves, moves onto themselves are dropped, and the rest are ordered so
 * no register is overwritten before every move reading it has run (the classic
 * sequentialization of a parallel copy: emit any move whose destination nobody still
 * reads; when none is left, every remaining move is on a cycle).  A cycle is broken by
 * saving one destination in a free register of its file (free over the group's points:
 * no interval, fixed operand or reserved range there) and redirecting its readers; with
 * no free register, VGPRs swap by three v_xor_b32 and SGPRs by three s_xor_b32 (only when
 * scc is provably dead) or, with scc live, through lane 0 of a free VGPR (v_writelane_b32 /
 * v_readlane_b32).  Moves: s_mov_b32 (s_mov_b64 for aligned pairs), v_mov_b32
 * (v_mov_b64 for aligned VGPR pairs on gfx942).  A VGPR into an SGPR is an internal error.
 * requires: ra_rewrite (physical operands), ctx->intervals of the same instructions.
 * breaks: instruction numbering (a block with copies is rewritten in its own array where
 * that has room, else in a new one of the exact size; the lowered moves wait in a local
 * scratch arena, reset after each block).
 * complexity: O(instructions + moves^2 per group + vregs per cycle broken). */
#include <string.h>

#include "regalloc/ra_int.h"

enum move_src { SRC_SGPR, SRC_VGPR, SRC_IMM, SRC_SPECIAL, SRC_LANE0 /* lane 0 of VGPR src */ };
/* XOR: dst ^= src (both registers of dst's file); WRITELANE0: lane 0 of VGPR dst = SGPR src */
enum move_op { MOVE, XOR, WRITELANE0 };

struct ra_move {
	uint8_t op;       /* enum move_op */
	uint8_t dst_file; /* enum ra_file */
	uint8_t src_kind; /* enum move_src */
	uint16_t dst;
	uint32_t src; /* register, immediate bits or enum amd_special */
	uint32_t src_line;
};

struct group {
	struct ra_ctx *ctx;
	uint32_t b, i, end;      /* block and instruction range [i, end) */
	struct ra_move *pending; /* moves still to order */
	uint32_t npending;
	struct ra_move *seq; /* ordered moves */
	uint32_t nseq;
};

static bool src_is_reg(const struct ra_move *m, enum ra_file f, uint32_t r)
{
	enum move_src want = f == RA_SGPR ? SRC_SGPR : SRC_VGPR;
	return m->src_kind == want && m->src == r;
}

static bool is_read(const struct group *g, enum ra_file f, uint32_t r, uint32_t skip)
{
	for (uint32_t k = 0; k < g->npending; k++)
		if (k != skip && src_is_reg(&g->pending[k], f, r))
			return true;
	return false;
}

/* Half `k` of a 64-bit special register, or AMD_NUM_SPECIALS when it has none. */
static uint32_t special_half(uint32_t s, unsigned width, unsigned k)
{
	if (width == 1)
		return s;
	if (s == AMD_SPEC_EXEC)
		return k ? AMD_SPEC_EXEC_HI : AMD_SPEC_EXEC_LO;
	if (s == AMD_SPEC_VCC)
		return k ? AMD_SPEC_VCC_HI : AMD_SPEC_VCC_LO;
	if (s == AMD_SPEC_FLAT_SCRATCH)
		return k ? AMD_SPEC_FLAT_SCRATCH_HI : AMD_SPEC_FLAT_SCRATCH_LO;
	return AMD_NUM_SPECIALS;
}

/* Splits COPY insns[j] into dword moves appended to g->pending. */
static bool collect_copy(struct group *g, uint32_t j)
{
	const struct mir_insn *in = &g->ctx->fn->blocks[g->b].insns[j];
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	if (d->kind != MIR_SGPR && d->kind != MIR_VGPR)
		return ra_internal(g->ctx, g->b, j, "COPY into a special register or immediate");
	if (d->kind == MIR_SGPR && s->kind == MIR_VGPR)
		return ra_internal(g->ctx, g->b, j, "COPY from a VGPR into an SGPR");
	if (s->kind == MIR_IMM ? d->width != 1 : s->width != d->width)
		return ra_internal(g->ctx, g->b, j, "COPY of different widths");
	for (unsigned k = 0; k < d->width; k++) {
		struct ra_move m = {.op = MOVE,
		                    .dst_file = ra_file_of(d->kind),
		                    .dst = (uint16_t)(d->v + k),
		                    .src_line = in->src_line};
		switch (s->kind) {
		case MIR_SGPR:
		case MIR_VGPR:
			m.src_kind = s->kind == MIR_SGPR ? SRC_SGPR : SRC_VGPR;
			m.src = s->v + k;
			break;
		case MIR_IMM:
			m.src_kind = SRC_IMM;
			m.src = s->v;
			break;
		case MIR_SPECIAL:
			m.src_kind = SRC_SPECIAL;
			m.src = special_half(s->v, s->width, k);
			if (m.src == AMD_NUM_SPECIALS)
				return ra_internal(g->ctx, g->b, j, "COPY of a 64-bit special");
			break;
		default:
			return ra_internal(g->ctx, g->b, j, "COPY of an unexpected operand");
		}
		if (!src_is_reg(&m, m.dst_file, m.dst))
			g->pending[g->npending++] = m;
	}
	return true;
}

static bool check_distinct_dsts(const struct group *g)
{
	for (uint32_t x = 0; x < g->npending; x++)
		for (uint32_t y = x + 1; y < g->npending; y++)
			if (g->pending[x].dst_file == g->pending[y].dst_file &&
			    g->pending[x].dst == g->pending[y].dst)
				return ra_internal(g->ctx, g->b, g->i,
				                   "parallel copy writes a register twice");
	return true;
}

/* The lowest register of file f free over the group's program points (no interval,
 * fixed operand, reserved range or pending move there), or -1. */
static int32_t find_temp(const struct group *g, enum ra_file f)
{
	const struct ra_ctx *ctx = g->ctx;
	const struct mir_function *fn = ctx->fn;
	uint32_t base = ctx->first_ins[g->b];
	uint32_t use = 2 * (base + g->i), def = 2 * (base + g->end - 1) + 1;
	bool busy[RA_MAX_VGPRS] = {0};
	for (uint32_t v = 0; v < fn->nvregs; v++) {
		const struct mir_vreg *vr = &fn->vregs[v];
		const struct ra_interval *iv = &ctx->intervals[v];
		if (vr->phys < 0 || ra_file_of(vr->file) != f || iv->start > def || iv->end < use)
			continue;
		for (unsigned k = 0; k < vr->size; k++)
			busy[vr->phys + k] = true;
	}
	for (uint32_t k = 0; k < g->npending; k++) {
		const struct ra_move *m = &g->pending[k];
		if (m->dst_file == f)
			busy[m->dst] = true;
		if (src_is_reg(m, f, m->src) || (f == RA_VGPR && m->src_kind == SRC_LANE0))
			busy[m->src] = true;
	}
	for (unsigned r = 0; r < ctx->budget[f]; r++) {
		const struct ra_fixed *fx = &ctx->fixed[f][r];
		if (busy[r] || (fx->first != RA_NO_POINT && fx->first <= def && fx->last >= use) ||
		    (f == RA_SGPR && r >= fn->reserved_sgprs_begin && r < fn->reserved_sgprs_end))
			continue;
		return (int32_t)r;
	}
	return -1;
}

/* Whether scc is dead after the group: written before any read in the rest of the block,
 * or the block ends the program. */
static bool scc_dead_after(const struct group *g)
{
	unsigned count;
	const struct amd_isa_op *rows = amd_isa_table(&count);
	const struct mir_block *bl = &g->ctx->fn->blocks[g->b];
	for (uint32_t j = g->end; j < bl->ninsns; j++) {
		if (bl->insns[j].op >= count)
			continue;
		if (rows[bl->insns[j].op].flags & AMD_F_SCC_SRC)
			return false;
		if (rows[bl->insns[j].op].flags & AMD_F_SCC_DST)
			return true;
	}
	return bl->nsucc == 0;
}

static void emit(struct group *g, struct ra_move m)
{
	g->seq[g->nseq++] = m;
}

static void remove_pending(struct group *g, uint32_t k)
{
	g->pending[k] = g->pending[--g->npending];
}

/* Exchanges the values of a and b (file f) by three XORs; renames pending sources. */
static void swap_by_xor(struct group *g, enum ra_file f, uint32_t a, uint32_t b, uint32_t line)
{
	enum move_src kind = f == RA_SGPR ? SRC_SGPR : SRC_VGPR;
	struct ra_move x = {.op = XOR, .dst_file = f, .src_kind = kind, .src_line = line};
	x.dst = (uint16_t)a, x.src = b, emit(g, x);
	x.dst = (uint16_t)b, x.src = a, emit(g, x);
	x.dst = (uint16_t)a, x.src = b, emit(g, x);
	for (uint32_t k = 0; k < g->npending; k++) {
		struct ra_move *m = &g->pending[k];
		if (src_is_reg(m, f, a))
			m->src = b;
		else if (src_is_reg(m, f, b))
			m->src = a;
	}
}

/* SGPR cycle, no free SGPR, scc live: saves SGPR m.dst in lane 0 of a free VGPR and
 * redirects its reader (on a cycle it has exactly one) to v_readlane_b32. */
static bool save_in_lane(struct group *g, struct ra_move m)
{
	int32_t vtemp = find_temp(g, RA_VGPR);
	if (vtemp < 0) /* the cycle needs one register more than the budgets hold */
		return ra_report_pressure(g->ctx, RA_SGPR);
	emit(g, (struct ra_move){.op = WRITELANE0,
	                         .dst_file = RA_VGPR,
	                         .src_kind = SRC_SGPR,
	                         .dst = (uint16_t)vtemp,
	                         .src = m.dst,
	                         .src_line = m.src_line});
	for (uint32_t k = 0; k < g->npending; k++)
		if (src_is_reg(&g->pending[k], RA_SGPR, m.dst)) {
			g->pending[k].src_kind = SRC_LANE0;
			g->pending[k].src = (uint32_t)vtemp;
		}
	return true;
}

/* All pending moves are on cycles: frees the destination of pending[0]. */
static bool break_cycle(struct group *g)
{
	struct ra_move m = g->pending[0];
	enum ra_file f = m.dst_file;
	int32_t temp = find_temp(g, f);
	if (temp >= 0) {
		enum move_src kind = f == RA_SGPR ? SRC_SGPR : SRC_VGPR;
		emit(g, (struct ra_move){.op = MOVE,
		                         .dst_file = f,
		                         .src_kind = kind,
		                         .dst = (uint16_t)temp,
		                         .src = m.dst,
		                         .src_line = m.src_line});
		for (uint32_t k = 0; k < g->npending; k++)
			if (src_is_reg(&g->pending[k], f, m.dst))
				g->pending[k].src = (uint32_t)temp;
		return true;
	}
	if (!src_is_reg(&m, f, m.src))
		return ra_internal(g->ctx, g->b, g->i, "copy cycle across register files");
	if (f == RA_SGPR && !scc_dead_after(g))
		return save_in_lane(g, m);
	swap_by_xor(g, f, m.dst, m.src, m.src_line);
	for (uint32_t k = 0; k < g->npending; k++)
		if (src_is_reg(&g->pending[k], f, g->pending[k].dst))
			remove_pending(g, k--);
	return true;
}

static bool sequentialize(struct group *g)
{
	while (g->npending) {
		bool progress = false;
		for (uint32_t k = 0; k < g->npending; k++) {
			const struct ra_move *m = &g->pending[k];
			if (is_read(g, m->dst_file, m->dst, k))
				continue;
			emit(g, *m);
			remove_pending(g, k--);
			progress = true;
		}
		if (!progress && !break_cycle(g))
			return false;
	}
	return true;
}

static struct mir_opnd move_src_opnd(const struct ra_move *m, unsigned width)
{
	switch (m->src_kind) {
	case SRC_SGPR:
		return mir_sgpr(m->src, width);
	case SRC_VGPR:
		return mir_vgpr(m->src, width);
	case SRC_IMM:
		return mir_imm(m->src);
	case SRC_LANE0:
		return mir_vgpr(m->src, 1);
	default:
		return mir_special((enum amd_special)m->src, 1);
	}
}

/* Whether moves a and b (in that order) form one aligned 64-bit move. */
static bool is_pair(const struct ra_move *a, const struct ra_move *b)
{
	if (a->op != MOVE || b->op != MOVE || a->dst_file != b->dst_file || a->dst % 2 ||
	    b->dst != a->dst + 1 || a->src_kind != b->src_kind)
		return false;
	if (a->src_kind == SRC_SGPR || a->src_kind == SRC_VGPR)
		return a->src % 2 == 0 && b->src == a->src + 1;
	if (a->src_kind == SRC_SPECIAL)
		return a->dst_file == RA_SGPR &&
		       ((a->src == AMD_SPEC_EXEC_LO && b->src == AMD_SPEC_EXEC_HI) ||
		        (a->src == AMD_SPEC_VCC_LO && b->src == AMD_SPEC_VCC_HI));
	return false;
}

/* Appends the instructions of ordered move k (and k+1 when they pair); returns how many
 * moves it consumed. */
static uint32_t emit_insn(const struct group *g, uint32_t k, struct mir_insn *out)
{
	const struct ra_move *m = &g->seq[k];
	bool sgpr = m->dst_file == RA_SGPR;
	struct mir_opnd ops[3];
	unsigned nops = 2, op;
	bool pair = k + 1 < g->nseq && is_pair(m, &g->seq[k + 1]);
	if (pair && !sgpr &&
	    (g->ctx->fn->target->info->gen != AMD_GFX940 || m->src_kind != SRC_VGPR))
		pair = false;
	unsigned width = pair ? 2 : 1;
	ops[0] = sgpr ? mir_sgpr(m->dst, width) : mir_vgpr(m->dst, width);
	ops[1] = move_src_opnd(m, width);
	if (pair && m->src_kind == SRC_SPECIAL)
		ops[1] = mir_special(m->src == AMD_SPEC_EXEC_LO ? AMD_SPEC_EXEC : AMD_SPEC_VCC, 2);
	if (m->op == WRITELANE0 || m->src_kind == SRC_LANE0) {
		op = m->op == WRITELANE0 ? AMD_OP_V_WRITELANE_B32 : AMD_OP_V_READLANE_B32;
		ops[2] = mir_imm(0);
		nops = 3;
	} else if (m->op == XOR) {
		op = sgpr ? AMD_OP_S_XOR_B32 : AMD_OP_V_XOR_B32;
		ops[1] = ops[0];
		ops[2] = move_src_opnd(m, 1);
		nops = 3;
	} else if (sgpr) {
		op = pair ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32;
	} else {
		op = pair ? AMD_OP_V_MOV_B64 : AMD_OP_V_MOV_B32;
	}
	*out = mir_make(op, nops, ops);
	out->src_line = m->src_line;
	return pair ? 2 : 1;
}

/* Lowers the copy group [i, end) of block b into out[]; returns the instructions
 * written, or -1 after an internal error. */
static int64_t lower_group(struct ra_ctx *ctx, struct pa_arena *tmp, uint32_t b, uint32_t i,
                           uint32_t end, struct mir_insn *out)
{
	struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t ndwords = 0;
	for (uint32_t j = i; j < end; j++)
		ndwords += bl->insns[j].opnds[0].width ? bl->insns[j].opnds[0].width : 1;
	struct group g = {.ctx = ctx, .b = b, .i = i, .end = end};
	g.pending = PA_NEW_ARRAY(tmp, struct ra_move, ndwords + 1);
	g.seq = PA_NEW_ARRAY(tmp, struct ra_move, 4 * ndwords + 1);
	for (uint32_t j = i; j < end; j++)
		if (!collect_copy(&g, j))
			return -1;
	if (!check_distinct_dsts(&g) || !sequentialize(&g))
		return -1;
	uint32_t n = 0;
	for (uint32_t k = 0; k < g.nseq;)
		k += emit_insn(&g, k, &out[n++]);
	ctx->stats->moves += n;
	return n;
}

/* A lowered copy group: block instructions [at, end) become moves[first, first + n); `shift`
 * is where the instructions after it go: output minus input up to its end. */
struct lowered {
	uint32_t at, end, first, n;
	int64_t shift;
};

/* Moves the run of kept instructions before group g (g == ngroups: after the last) to its
 * place in the lowered block. */
static void move_run(struct mir_insn *insns, const struct lowered *groups, uint32_t ngroups,
                     uint32_t ninsns, uint32_t g)
{
	uint32_t from = g ? groups[g - 1].end : 0, to = g < ngroups ? groups[g].at : ninsns;
	int64_t shift = g ? groups[g - 1].shift : 0;
	/* (an element loop: memmove's byte-wise overlapping copy counts a valgrind instruction
	 * per byte; the project measures compile speed in those) */
	if (shift < 0)
		for (uint32_t i = from; i < to; i++)
			insns[i + shift] = insns[i];
	else if (shift > 0)
		for (uint32_t i = to; i-- > from;)
			insns[i + shift] = insns[i];
}

/* The block's instructions with each lowered group's moves in place of its copies, in the
 * block's own array (cap >= the result): the runs between groups are moved first, each
 * after the runs its destination overlaps (a run moving up after the ones above it), then
 * the moves fill the gaps. */
static void merge_in_place(struct mir_insn *insns, uint32_t ninsns, const struct lowered *groups,
                           uint32_t ngroups, const struct mir_insn *moves)
{
	for (uint32_t g = 1; g <= ngroups;) {
		if (groups[g - 1].shift <= 0) {
			move_run(insns, groups, ngroups, ninsns, g++);
			continue;
		}
		uint32_t last = g; /* runs g..last move up: the highest first */
		while (last < ngroups && groups[last].shift > 0)
			last++;
		for (uint32_t k = last + 1; k-- > g;)
			move_run(insns, groups, ngroups, ninsns, k);
		g = last + 1;
	}
	for (uint32_t g = 0; g < ngroups; g++)
		if (groups[g].n)
			memcpy(insns + groups[g].at + (g ? groups[g - 1].shift : 0),
			       moves + groups[g].first, groups[g].n * sizeof *insns);
}

/* The same into a new array `dst`. */
static void merge_into(struct mir_insn *dst, const struct mir_insn *src, uint32_t ninsns,
                       const struct lowered *groups, uint32_t ngroups, const struct mir_insn *moves)
{
	uint32_t w = 0, r = 0;
	for (uint32_t g = 0; g <= ngroups; g++) {
		uint32_t stop = g < ngroups ? groups[g].at : ninsns;
		memcpy(dst + w, src + r, (stop - r) * sizeof *dst);
		w += stop - r;
		if (g == ngroups)
			break;
		memcpy(dst + w, moves + groups[g].first, groups[g].n * sizeof *dst);
		w += groups[g].n;
		r = groups[g].end;
	}
}

/* Lowers block b's copy groups into scratch memory (tmp), only the moves, then merges them
 * with the rest of the block in the block's own array where the result fits, or in a new
 * one (the old one's pages given back): no second copy of a whole block (a 25k-instruction
 * block's copy was the compile's peak on a large kernel). */
static bool lower_block(struct ra_ctx *ctx, struct pa_arena *tmp, uint32_t b)
{
	struct mir_block *bl = &ctx->fn->blocks[b];
	uint32_t cap = 1, ncopies = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op == MIR_COPY) {
			ncopies++;
			cap += 4u * (bl->insns[i].opnds[0].width + 1u);
		}
	if (!ncopies) /* nothing to lower: keep the block's instructions where they are */
		return true;
	struct mir_insn *moves = PA_NEW_ARRAY(tmp, struct mir_insn, cap);
	struct lowered *groups = PA_NEW_ARRAY(tmp, struct lowered, ncopies);
	uint32_t nmoves = 0, ngroups = 0;
	int64_t shift = 0;
	for (uint32_t i = 0; i < bl->ninsns;) {
		if (bl->insns[i].op != MIR_COPY) {
			i++;
			continue;
		}
		uint32_t end = ra_group_end(bl, i);
		int64_t got = lower_group(ctx, tmp, b, i, end, &moves[nmoves]);
		if (got < 0)
			return false;
		shift += got - (int64_t)(end - i);
		groups[ngroups++] = (struct lowered){i, end, nmoves, (uint32_t)got, shift};
		nmoves += (uint32_t)got;
		i = end;
	}
	uint32_t n = (uint32_t)((int64_t)bl->ninsns + shift);
	if (n < bl->cap) {
		merge_in_place(bl->insns, bl->ninsns, groups, ngroups, moves);
	} else {
		struct mir_insn *old = bl->insns;
		bl->insns = PA_NEW_ARRAY(ctx->fn->arena, struct mir_insn, n + 1);
		merge_into(bl->insns, old, bl->ninsns, groups, ngroups, moves);
		pa_arena_release(old, bl->cap * sizeof *old);
		bl->cap = n + 1;
	}
	bl->ninsns = n;
	return true;
}

bool ra_lower_copies(struct ra_ctx *ctx)
{
	/* Blocks are lowered last to first so the instruction numbering that the intervals
	 * use (ctx->first_ins) stays valid for the blocks not yet lowered. */
	struct pa_arena tmp;
	pa_arena_init_beside(&tmp, ctx->fn->arena);
	tmp.small_pages = true; /* (its moves are a fraction of a block: no 2 MiB pages) */
	bool ok = true;
	for (uint32_t b = ctx->fn->nblocks; ok && b-- > 0;) {
		ok = lower_block(ctx, &tmp, b);
		pa_arena_reset(&tmp);
	}
	pa_arena_free(&tmp);
	return ok;
}
