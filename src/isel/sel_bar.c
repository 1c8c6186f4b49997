/* Instruction selection for counted and named barriers (NBAR, NBAR_RED, NBAR_INIT of
 * build_bar.c; docs/BARRIERS.md).
 *
 * Each of the CTA's 16 barriers is one LDS dword of a hidden area: bits 0-15 count the
 * threads that arrived in the current phase, bits 16-31 are the phase (generation).  A wave
 * arrives once, for all of its active lanes: A = the PTX warp size for every warp of the
 * wave with an active lane (the wave size; 32 per non-empty EXEC half with --warp-size 32
 * on wave64), as the PTX ISA counts ("as if all the threads in a warp are active").  With
 * EXEC set to lane 0 (none if A is 0):
 *     release fence; old = ds_add_rtn_u32(word, A)
 *     n = old & 0xffff; ph = old >> 16
 *     if n >= b: n -= b, ph += 1      (the last arriver has not bumped yet: next phase's)
 *     if n + A == b: ds_add_u32(word, 0x10000 - b)   (EXEC kept only if so)
 * The last arriver bumps the phase and removes b arrivals in one atomic, so arrivals that
 * came in between stay counted for the next phase.  bar.sync / bar.red then spin, uniform
 * and scalar (two MIR blocks after the block's body, reserved by cflow.c as for
 * sel_atomic.c's CAS loop), until the phase has moved past ph:
 *     do { s_sleep 1; v = ds_read_b32(word) } while (((v >> 16) - ph) & 0xffff not in 1..0x7fff)
 * and end with the acquire half of the CTA fence; bar.arrive is a release only.
 * bar.red adds the wave's count into acc[id][phase & 1] (the phase read just before it
 * arrives) and reads it back after the wait.  The last arriver of phase g zeroes
 * acc[id][(g + 1) & 1] before it bumps the phase: the threads of phase g - 1 read that
 * slot before they arrived at phase g, and phase g is complete, so no one reads it any
 * more (this needs the threads of one bar.red phase not to arrive before the previous
 * phase is complete, which holds when the same threads use the barrier each time).
 * NBAR with IR_NBAR_MAYBE_0 whose barrier number is the constant 0 is s_barrier
 * (sel_barrier; ir_optimize has usually made it BARRIER already).
 * NBAR_INIT: lanes 0-23 of every wave store zero qwords over the area, then s_barrier;
 * nothing if every NBAR of the function became s_barrier.
 * Limit: lanes of one wave cannot wait for lanes of the same wave on another path (no
 * independent thread scheduling); such code spins forever (amdsim reports the deadlock).
 * Complexity: O(1) per instruction; NBAR_INIT scans the function once. */
#include "isel/isel_int.h"

enum { PHASE_ONE = 0x10000, ACC_OFFSET = 64, AREA_QWORDS = IR_NBAR_AREA_BYTES / 8 };

static struct mir_opnd sreg_new(struct isel *s, uint32_t *v)
{
	*v = sel_new_sgpr(s, 1);
	return mir_vreg(*v, 1);
}

static void salu(struct isel *s, unsigned op, struct mir_opnd d, struct mir_opnd a,
                 struct mir_opnd b)
{
	struct mir_opnd ops[3] = {d, a, b};
	sel_emit(s, op, 3, ops);
}

static void scmp(struct isel *s, unsigned op, struct mir_opnd a, struct mir_opnd b)
{
	struct mir_opnd ops[2] = {a, b};
	sel_emit(s, op, 2, ops);
}

/* A uniform SGPR value in lane 0 of a new VGPR (EXEC must hold lane 0). */
static struct mir_opnd to_lane0(struct isel *s, struct mir_opnd v)
{
	uint32_t r = sel_new_vgpr(s, 1);
	sel_copy(s, mir_vreg(r, 1), v);
	return mir_vreg(r, 1);
}

static uint32_t first_lane(struct isel *s, struct mir_opnd v)
{
	uint32_t r = sel_new_sgpr(s, 1);
	struct mir_opnd ops[2] = {mir_vreg(r, 1), v};
	sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
	return r;
}

bool sel_bar_is_hw(struct isel *s, const struct ir_insn *in)
{
	uint64_t id;
	return in->op == IR_NBAR && (in->aux & IR_NBAR_MAYBE_0) && !(in->aux & IR_NBAR_ALL) &&
	       sel_is_const(s, in->args[1], &id) && (uint32_t)id == 0;
}

bool sel_bar_needs_loop(struct isel *s, const struct ir_insn *in)
{
	return in->op == IR_NBAR_RED ||
	       (in->op == IR_NBAR && !(in->aux & IR_NBAR_ARRIVE) && !sel_bar_is_hw(s, in));
}

/* Threads the wave contributes: the warp size per warp with an active lane. */
static uint32_t wave_threads(struct isel *s, uint32_t saved)
{
	unsigned warp = s->ir->warp_size ? s->ir->warp_size : s->wave;
	uint32_t a;
	struct mir_opnd d = sreg_new(s, &a);
	if (warp == s->wave) {
		scmp(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64),
		     mir_vreg(saved, s->mask_dw), mir_imm(0));
		salu(s, AMD_OP_S_CSELECT_B32, d, sel_s_imm(s, warp), mir_imm(0));
		return a;
	}
	uint32_t half[2];
	for (unsigned h = 0; h < 2; h++) { /* --warp-size 32 on wave64 */
		struct mir_opnd hd = sreg_new(s, &half[h]);
		scmp(s, AMD_OP_S_CMP_LG_U32, sel_sub(saved, h, 1), mir_imm(0));
		salu(s, AMD_OP_S_CSELECT_B32, hd, mir_imm(32), mir_imm(0));
	}
	salu(s, AMD_OP_S_ADD_U32, d, mir_vreg(half[0], 1), mir_vreg(half[1], 1));
	return a;
}

struct nbar {
	uint32_t saved, one, a; /* EXEC on entry; lane 0 if a != 0, else none; threads */
	struct mir_opnd count, word, vword, acc; /* acc: this phase's accumulator (NBAR_RED) */
	uint32_t phase;                          /* the phase this arrival belongs to */
	uint32_t waits;                          /* ~0, or 0 if a == 0 (no wait) */
	bool count_known;                        /* a constant count_value */
	uint32_t count_value;
};

/* Address of dword k of barrier id's record: area + off + (id & 15) * scale. */
static struct mir_opnd bar_addr(struct isel *s, const struct ir_insn *in, unsigned off,
                                unsigned scale)
{
	struct mir_opnd area = sel_sreg_opnd(s, in->args[0], 0);
	uint64_t idv;
	uint32_t r;
	if (sel_is_const(s, in->args[1], &idv)) {
		salu(s, AMD_OP_S_ADD_U32, sreg_new(s, &r), area,
		     sel_s_imm(s, off + ((uint32_t)idv & 15) * scale));
		return mir_vreg(r, 1);
	}
	struct mir_opnd id = sel_sreg_opnd(s, in->args[1], 0);
	uint32_t m, t;
	salu(s, AMD_OP_S_AND_B32, sreg_new(s, &m), id, mir_imm(15));
	salu(s, AMD_OP_S_MUL_I32, sreg_new(s, &t), mir_vreg(m, 1), mir_imm(scale));
	salu(s, AMD_OP_S_ADD_U32, sreg_new(s, &r), mir_vreg(t, 1), area);
	if (off)
		salu(s, AMD_OP_S_ADD_U32, mir_vreg(r, 1), mir_vreg(r, 1), sel_s_imm(s, off));
	return mir_vreg(r, 1);
}

static void set_exec_to(struct isel *s, struct mir_opnd v)
{
	struct mir_opnd ops[2] = {sel_exec(s), v};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
}

/* Saves EXEC, computes A, and keeps lane 0 only (none if A is 0). */
static void enter(struct isel *s, const struct ir_insn *in, struct nbar *nb)
{
	sel_mm_barrier_release(s);
	nb->saved = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd save[2] = {mir_vreg(nb->saved, s->mask_dw), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, save);
	nb->a = wave_threads(s, nb->saved);
	nb->one = sel_new_sgpr(s, s->mask_dw);
	scmp(s, AMD_OP_S_CMP_LG_U32, mir_vreg(nb->a, 1), mir_imm(0));
	salu(s, sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64),
	     mir_vreg(nb->one, s->mask_dw), mir_imm(1), mir_imm(0));
	uint64_t cv = 0;
	nb->count_known = sel_is_const(s, in->args[2], &cv);
	nb->count_value = (uint32_t)cv;
	nb->count = sel_sreg_opnd(s, in->args[2], 0);
	nb->word = bar_addr(s, in, 0, 4);
	set_exec_to(s, mir_vreg(nb->one, s->mask_dw));
	nb->vword = to_lane0(s, nb->word);
}

/* bar.red: add the wave's count into acc[id][phase & 1]; returns acc[id][phase & 1 ^ 1]. */
static struct mir_opnd accumulate(struct isel *s, const struct ir_insn *in, struct nbar *nb)
{
	struct mir_opnd base = bar_addr(s, in, ACC_OFFSET, 8);
	uint32_t v = sel_new_vgpr(s, 1);
	struct mir_opnd rd[2] = {mir_vreg(v, 1), nb->vword};
	sel_emit(s, AMD_OP_DS_READ_B32, 2, rd)->offset = 0;
	uint32_t cur = first_lane(s, mir_vreg(v, 1)), par, mine, other;
	salu(s, AMD_OP_S_BFE_U32, sreg_new(s, &par), mir_vreg(cur, 1), sel_s_imm(s, 16 | 1 << 16));
	salu(s, AMD_OP_S_LSHL_B32, mir_vreg(par, 1), mir_vreg(par, 1), mir_imm(2));
	salu(s, AMD_OP_S_ADD_U32, sreg_new(s, &mine), base, mir_vreg(par, 1));
	salu(s, AMD_OP_S_XOR_B32, mir_vreg(par, 1), mir_vreg(par, 1), mir_imm(4));
	salu(s, AMD_OP_S_ADD_U32, sreg_new(s, &other), base, mir_vreg(par, 1));
	nb->acc = to_lane0(s, mir_vreg(mine, 1));
	struct mir_opnd add[2] = {nb->acc, to_lane0(s, sel_sreg_opnd(s, in->args[3], 0))};
	sel_emit(s, AMD_OP_DS_ADD_U32, 2, add)->offset = 0;
	return to_lane0(s, mir_vreg(other, 1));
}

/* The arrival (see the header); other_acc: the accumulator the last arriver zeroes. */
static void arrive(struct isel *s, struct nbar *nb, const struct mir_opnd *other_acc)
{
	uint32_t vold = sel_new_vgpr(s, 1);
	struct mir_opnd add[3] = {mir_vreg(vold, 1), nb->vword, to_lane0(s, mir_vreg(nb->a, 1))};
	sel_emit(s, AMD_OP_DS_ADD_RTN_U32, 3, add)->offset = 0;
	uint32_t old = first_lane(s, mir_vreg(vold, 1)), cnt, ph, adj, delta;
	if (nb->count_known)
		sel_copy(s, sreg_new(s, &delta), sel_s_imm(s, PHASE_ONE - nb->count_value));
	else
		salu(s, AMD_OP_S_SUB_U32, sreg_new(s, &delta), sel_s_imm(s, PHASE_ONE), nb->count);
	struct mir_opnd vdelta = to_lane0(s, mir_vreg(delta, 1));
	struct mir_opnd zero = other_acc ? to_lane0(s, mir_imm(0)) : vdelta;
	salu(s, AMD_OP_S_AND_B32, sreg_new(s, &cnt), mir_vreg(old, 1), sel_s_imm(s, 0xffff));
	salu(s, AMD_OP_S_LSHR_B32, sreg_new(s, &ph), mir_vreg(old, 1), mir_imm(16));
	/* b or more arrived and the last arriver has not bumped the phase yet: this arrival
	 * is the next phase's */
	scmp(s, AMD_OP_S_CMP_GE_U32, mir_vreg(cnt, 1), nb->count);
	salu(s, AMD_OP_S_CSELECT_B32, sreg_new(s, &adj), nb->count, mir_imm(0));
	salu(s, AMD_OP_S_SUB_U32, mir_vreg(cnt, 1), mir_vreg(cnt, 1), mir_vreg(adj, 1));
	scmp(s, AMD_OP_S_CMP_LG_U32, mir_vreg(adj, 1), mir_imm(0));
	salu(s, AMD_OP_S_ADDC_U32, mir_vreg(ph, 1), mir_vreg(ph, 1), mir_imm(0));
	salu(s, AMD_OP_S_ADD_U32, mir_vreg(cnt, 1), mir_vreg(cnt, 1), mir_vreg(nb->a, 1));
	scmp(s, AMD_OP_S_CMP_EQ_U32, mir_vreg(cnt, 1), nb->count);
	salu(s, sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64), sel_exec(s),
	     sel_exec(s), mir_imm(0));
	if (other_acc) {
		struct mir_opnd st[2] = {*other_acc, zero};
		sel_emit(s, AMD_OP_DS_WRITE_B32, 2, st)->offset = 0;
	}
	struct mir_opnd bump[2] = {nb->vword, vdelta};
	sel_emit(s, AMD_OP_DS_ADD_U32, 2, bump)->offset = 0;
	set_exec_to(s, mir_vreg(nb->one, s->mask_dw));
	nb->phase = ph;
	nb->waits = sel_new_sgpr(s, 1); /* all ones, or 0 when the wave did not arrive */
	scmp(s, AMD_OP_S_CMP_LG_U32, mir_vreg(nb->a, 1), mir_imm(0));
	salu(s, AMD_OP_S_CSELECT_B32, mir_vreg(nb->waits, 1), mir_imm(~0u), mir_imm(0));
}

/* The spin loop in the two MIR blocks after the current one, until the phase has moved
 * past the wave's ((now - phase) & 0xffff in 1..0x7fff, so a phase bumped twice meanwhile
 * also counts); continues in the second block. */
static void wait_phase(struct isel *s, struct nbar *nb)
{
	uint32_t loop = s->cur + 1, cont = s->cur + 2;
	sel_set_succ(s, s->cur, loop, ~0u);
	s->cur = loop;
	s->mf->blocks[loop].comment = "barrier: wait until the phase changes";
	struct mir_opnd sl = mir_imm(1);
	sel_emit(s, AMD_OP_S_SLEEP, 1, &sl);
	uint32_t v = sel_new_vgpr(s, 1), d;
	struct mir_opnd rd[2] = {mir_vreg(v, 1), nb->vword};
	sel_emit(s, AMD_OP_DS_READ_B32, 2, rd)->offset = 0;
	uint32_t cur = first_lane(s, mir_vreg(v, 1));
	struct mir_opnd dd = sreg_new(s, &d);
	salu(s, AMD_OP_S_LSHR_B32, dd, mir_vreg(cur, 1), mir_imm(16));
	salu(s, AMD_OP_S_SUB_U32, dd, dd, mir_vreg(nb->phase, 1));
	salu(s, AMD_OP_S_AND_B32, dd, dd, sel_s_imm(s, 0xffff));
	salu(s, AMD_OP_S_SUB_U32, dd, dd, mir_imm(1));
	salu(s, AMD_OP_S_AND_B32, dd, dd, mir_vreg(nb->waits, 1));
	scmp(s, AMD_OP_S_CMP_LT_U32, dd, sel_s_imm(s, 0x7fff));
	struct mir_opnd back = mir_block_ref(loop);
	sel_emit(s, AMD_OP_S_CBRANCH_SCC0, 1, &back);
	sel_set_succ(s, loop, cont, loop);
	s->cur = cont;
}

static void leave(struct isel *s, struct nbar *nb, bool acquire)
{
	set_exec_to(s, mir_vreg(nb->saved, s->mask_dw));
	if (acquire)
		sel_mm_barrier_acquire(s);
}

static bool nbar(struct isel *s, const struct ir_insn *in)
{
	if (sel_bar_is_hw(s, in))
		return sel_barrier(s);
	struct nbar nb;
	enter(s, in, &nb);
	arrive(s, &nb, NULL);
	bool sync = !(in->aux & IR_NBAR_ARRIVE);
	if (sync)
		wait_phase(s, &nb);
	leave(s, &nb, sync);
	return true;
}

static bool nbar_red(struct isel *s, const struct ir_insn *in)
{
	struct nbar nb;
	enter(s, in, &nb);
	struct mir_opnd other = accumulate(s, in, &nb);
	arrive(s, &nb, &other);
	wait_phase(s, &nb);
	uint32_t v = sel_new_vgpr(s, 1);
	struct mir_opnd rd[2] = {mir_vreg(v, 1), nb.acc};
	sel_emit(s, AMD_OP_DS_READ_B32, 2, rd)->offset = 0;
	uint32_t total = first_lane(s, mir_vreg(v, 1));
	leave(s, &nb, true);
	uint32_t d = sel_def(s, in->res);
	sel_copy(s, sel_sub(d, 0, 1), mir_vreg(total, 1));
	return true;
}

/* Whether any barrier of the function uses the counters (not only s_barrier). */
static bool uses_counters(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &ir->blocks[b].insns[i];
			if (in->op == IR_NBAR_RED || (in->op == IR_NBAR && !sel_bar_is_hw(s, in)))
				return true;
		}
	return false;
}

/* Every wave: lanes 0..AREA_QWORDS-1 store a zero qword each over the area, then
 * s_barrier; nothing when every barrier turned out to be s_barrier. */
static bool nbar_init(struct isel *s, const struct ir_insn *in)
{
	if (!uses_counters(s))
		return true;
	unsigned w = s->mask_dw;
	uint32_t saved = sel_new_sgpr(s, w), lane = sel_new_vgpr(s, 1), addr = sel_new_vgpr(s, 1);
	struct mir_opnd save[2] = {mir_vreg(saved, w), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, save);
	set_exec_to(s, mir_imm(~0u));
	struct mir_opnd lo[3] = {mir_vreg(lane, 1), mir_imm(~0u), mir_imm(0)};
	sel_emit(s, AMD_OP_V_MBCNT_LO_U32_B32, 3, lo);
	if (s->wave == 64) {
		struct mir_opnd hi[3] = {mir_vreg(lane, 1), mir_imm(~0u), mir_vreg(lane, 1)};
		sel_emit(s, AMD_OP_V_MBCNT_HI_U32_B32, 3, hi);
	}
	struct mir_opnd sh[4] = {mir_vreg(addr, 1), mir_vreg(lane, 1), mir_imm(3),
	                         sel_sreg_opnd(s, in->args[0], 0)};
	sel_fix_valu(s, AMD_OP_V_LSHL_ADD_U32, 4, sh);
	sel_emit(s, AMD_OP_V_LSHL_ADD_U32, 4, sh);
	uint32_t mask = sel_new_sgpr(s, w), zero = sel_new_vgpr(s, 2);
	sel_copy(s, sel_sub(zero, 0, 1), mir_imm(0));
	sel_copy(s, sel_sub(zero, 1, 1), mir_imm(0));
	struct mir_opnd c[3] = {mir_vreg(mask, w), mir_imm(AREA_QWORDS), mir_vreg(lane, 1)};
	sel_fix_valu(s, AMD_OP_V_CMP_GT_U32, 3, c);
	sel_emit(s, AMD_OP_V_CMP_GT_U32, 3, c);
	set_exec_to(s, mir_vreg(mask, w));
	struct mir_opnd st[2] = {mir_vreg(addr, 1), mir_vreg(zero, 2)};
	sel_emit(s, AMD_OP_DS_WRITE_B64, 2, st)->offset = 0;
	set_exec_to(s, mir_vreg(saved, w));
	return sel_barrier(s);
}

bool sel_bar(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_NBAR:
		return nbar(s, in);
	case IR_NBAR_RED:
		return nbar_red(s, in);
	case IR_NBAR_INIT:
		return nbar_init(s, in);
	default:
		return false;
	}
}
