/* Instruction selection for the warp-level operations (docs/WARP.md).
 *
 * lane.read is ds_bpermute_b32 (every target, both wave sizes: a lane reads the dword
 * another lane offers; an inactive source lane gives 0), or v_readlane_b32 when every lane
 * reads the same lane (a broadcast: the result is uniform).  ballot is the predicate's lane
 * mask ANDed with EXEC (a uniform predicate: EXEC or 0), activemask is EXEC, readfirst is
 * v_readfirstlane_b32; results are SGPRs (copied to VGPRs where the uniformity analysis
 * made them divergent, e.g. out of a divergent loop).  redux runs a butterfly of
 * ds_bpermute steps over the whole wave with EXEC briefly set to every lane, the inactive
 * lanes holding the operation's identity, then reads the lane-uniform result with
 * v_readfirstlane (with 32-lane warps on wave64, --warp-size 32, the butterfly stays in
 * each half and the result is per lane).  match.any compares each lane's value with every lane's
 * (v_readlane, v_cmp) and writes lane k's mask into lane k (v_writelane): 2-3 instructions per lane
 * of the wave, straight-line.  bar.sum (bar.red's CTA-wide sum of per-wave counts in LDS)
 * loads slot k into lane k < n under a full EXEC and adds them with the redux butterfly.
 * Complexity: O(1) per instruction, O(wave size) for match.any. */
#include "isel/isel_int.h"

static struct mir_opnd rd(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sub(sel_def(s, r), k, 1);
}

static void valu(struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops)
{
	sel_fix_valu(s, op, n, ops);
	sel_emit(s, op, n, ops);
}

/* Moves an SGPR vreg `sv` (dwords of the value) into the result's home. */
static void put_scalar(struct isel *s, ir_ref res, uint32_t sv)
{
	uint32_t d = sel_def(s, res);
	for (unsigned k = 0; k < s->vals[res].size; k++)
		sel_copy(s, sel_sub(d, k, 1), sel_sub(sv, k, 1));
}

/* dst = ds_bpermute(data, lane * 4) */
static void bpermute(struct isel *s, struct mir_opnd dst, struct mir_opnd data,
                     struct mir_opnd lane)
{
	uint32_t addr = sel_new_vgpr(s, 1);
	struct mir_opnd sh[3] = {mir_vreg(addr, 1), mir_imm(2), lane};
	valu(s, AMD_OP_V_LSHLREV_B32, 3, sh);
	struct mir_opnd ops[3] = {dst, mir_vreg(addr, 1), sel_to_vgpr(s, data)};
	sel_emit(s, AMD_OP_DS_BPERMUTE_B32, 3, ops);
}

static bool lane_read(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd d = rd(s, in->res, 0);
	if (!s->ir->vals[in->args[0]].divergent) { /* the same value in every lane */
		sel_copy(s, d, sel_sreg_opnd(s, in->args[0], 0));
		return true;
	}
	if (!s->ir->vals[in->args[1]].divergent) { /* one lane for all: v_readlane */
		uint32_t t = sel_new_sgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(t, 1), sel_vgpr_opnd(s, in->args[0], 0),
		                          sel_sreg_opnd(s, in->args[1], 0)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, ops);
		sel_copy(s, d, mir_vreg(t, 1));
		return true;
	}
	if (s->vals[in->res].loc != LOC_VGPR) { /* uniform by analysis: through a VGPR */
		uint32_t t = sel_new_vgpr(s, 1);
		bpermute(s, mir_vreg(t, 1), sel_vsrc_opnd(s, in->args[0], 0),
		         sel_vsrc_opnd(s, in->args[1], 0));
		struct mir_opnd ops[2] = {d, mir_vreg(t, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
		return true;
	}
	bpermute(s, d, sel_vsrc_opnd(s, in->args[0], 0), sel_vsrc_opnd(s, in->args[1], 0));
	return true;
}

static bool ballot(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw;
	uint32_t m = sel_new_sgpr(s, w);
	uint64_t bits;
	ir_ref p = in->args[0];
	if (sel_is_const(s, p, &bits)) {
		struct mir_opnd ops[2] = {mir_vreg(m, w), bits & 1 ? sel_exec(s) : mir_imm(0)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
	} else {
		struct mir_opnd ops[3] = {mir_vreg(m, w), sel_mask_opnd(s, p), sel_exec(s)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_AND_B32, AMD_OP_S_AND_B64), 3, ops);
	}
	put_scalar(s, in->res, m);
	return true;
}

static bool activemask(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw;
	uint32_t m = sel_new_sgpr(s, w);
	struct mir_opnd ops[2] = {mir_vreg(m, w), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
	put_scalar(s, in->res, m);
	return true;
}

static bool readfirst(struct isel *s, const struct ir_insn *in)
{
	unsigned size = s->vals[in->args[0]].size ? s->vals[in->args[0]].size : 1;
	if (ir_type_bits((enum ir_type)s->ir->vals[in->args[0]].type) == 64)
		size = 2;
	uint32_t t = sel_new_sgpr(s, size);
	for (unsigned k = 0; k < size; k++)
		sel_copy(s, sel_sub(t, k, 1), sel_sreg_opnd(s, in->args[0], k));
	put_scalar(s, in->res, t);
	return true;
}

/* ---- redux ---- */

static const struct {
	uint16_t op;       /* VALU row combining two values */
	uint32_t identity; /* what inactive lanes contribute */
} redux_rows[] = {
        [IR_REDUX_ADD] = {AMD_OP_V_ADD_U32, 0},
        [IR_REDUX_MIN_U] = {AMD_OP_V_MIN_U32, 0xffffffffu},
        [IR_REDUX_MIN_S] = {AMD_OP_V_MIN_I32, 0x7fffffffu},
        [IR_REDUX_MAX_U] = {AMD_OP_V_MAX_U32, 0},
        [IR_REDUX_MAX_S] = {AMD_OP_V_MAX_I32, 0x80000000u},
        [IR_REDUX_AND] = {AMD_OP_V_AND_B32, 0xffffffffu},
        [IR_REDUX_OR] = {AMD_OP_V_OR_B32, 0},
        [IR_REDUX_XOR] = {AMD_OP_V_XOR_B32, 0},
};

static void set_exec(struct isel *s, struct mir_opnd src)
{
	struct mir_opnd ops[2] = {sel_exec(s), src};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
}

/* lane = the lane's index in the wave (under a full EXEC) */
static void wave_lane(struct isel *s, uint32_t lane)
{
	struct mir_opnd lo[3] = {mir_vreg(lane, 1), mir_imm(~0u), mir_imm(0)};
	sel_emit(s, AMD_OP_V_MBCNT_LO_U32_B32, 3, lo);
	if (s->wave == 64) {
		struct mir_opnd hi[3] = {mir_vreg(lane, 1), mir_imm(~0u), mir_vreg(lane, 1)};
		sel_emit(s, AMD_OP_V_MBCNT_HI_U32_B32, 3, hi);
	}
}

/* log2(span) ds_bpermute steps combining acc across each group of `span` lanes with `op`
 * (EXEC must be every lane); returns the vreg holding the result in every lane. */
static uint32_t butterfly(struct isel *s, uint32_t acc, uint32_t lane, unsigned span, unsigned op)
{
	for (unsigned step = 1; step < span; step *= 2) {
		uint32_t other = sel_new_vgpr(s, 1), from = sel_new_vgpr(s, 1);
		struct mir_opnd x[3] = {mir_vreg(from, 1), mir_imm(step), mir_vreg(lane, 1)};
		valu(s, AMD_OP_V_XOR_B32, 3, x);
		bpermute(s, mir_vreg(other, 1), mir_vreg(acc, 1), mir_vreg(from, 1));
		uint32_t next = sel_new_vgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(next, 1), mir_vreg(acc, 1), mir_vreg(other, 1)};
		valu(s, op, 3, ops);
		acc = next;
	}
	return acc;
}

static bool redux(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw, kind = in->aux & ~(unsigned)IR_REDUX_HALVES;
	unsigned span = in->aux & IR_REDUX_HALVES ? 32 : s->wave; /* lanes reduced together */
	uint32_t saved = sel_new_sgpr(s, w);
	struct mir_opnd save[2] = {mir_vreg(saved, w), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, save);
	struct mir_opnd a = sel_vsrc_opnd(s, in->args[0], 0);
	uint32_t acc = sel_new_vgpr(s, 1), lane = sel_new_vgpr(s, 1);
	set_exec(s, mir_imm(~0u));
	sel_copy(s, mir_vreg(acc, 1), mir_imm(redux_rows[kind].identity));
	set_exec(s, mir_vreg(saved, w));
	struct mir_opnd mv[2] = {mir_vreg(acc, 1), a};
	valu(s, AMD_OP_V_MOV_B32, 2, mv);
	set_exec(s, mir_imm(~0u));
	wave_lane(s, lane);
	acc = butterfly(s, acc, lane, span, redux_rows[kind].op);
	set_exec(s, mir_vreg(saved, w));
	if (span < s->wave) { /* a result per half: per lane */
		sel_copy(s, rd(s, in->res, 0), mir_vreg(acc, 1));
		return true;
	}
	uint32_t r = sel_new_sgpr(s, 1);
	struct mir_opnd rf[2] = {mir_vreg(r, 1), mir_vreg(acc, 1)};
	sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	put_scalar(s, in->res, r);
	return true;
}

/* ---- bar.sum (bar.red, build_bar.c) ---- */

/* The sum of the dwords slots[0..n-1] in LDS (n <= W): with EXEC set to every lane, lane
 * k < n loads slot k, the others hold 0, a butterfly adds them up. */
static bool bar_sum(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw;
	uint32_t saved = sel_new_sgpr(s, w), lane = sel_new_vgpr(s, 1), acc = sel_new_vgpr(s, 1);
	struct mir_opnd save[2] = {mir_vreg(saved, w), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, save);
	struct mir_opnd base = sel_vsrc_opnd(s, in->args[0], 0);
	struct mir_opnd n = sel_sreg_opnd(s, in->args[1], 0);
	set_exec(s, mir_imm(~0u));
	wave_lane(s, lane);
	sel_copy(s, mir_vreg(acc, 1), mir_imm(0));
	uint32_t addr = sel_new_vgpr(s, 1), mask = sel_new_sgpr(s, w), val = sel_new_vgpr(s, 1);
	struct mir_opnd sh[4] = {mir_vreg(addr, 1), mir_vreg(lane, 1), mir_imm(2), base};
	valu(s, AMD_OP_V_LSHL_ADD_U32, 4, sh);
	struct mir_opnd c[3] = {mir_vreg(mask, w), n, mir_vreg(lane, 1)};
	valu(s, AMD_OP_V_CMP_GT_U32, 3, c);
	set_exec(s, mir_vreg(mask, w));
	struct mir_opnd ld[2] = {mir_vreg(val, 1), mir_vreg(addr, 1)};
	sel_emit(s, AMD_OP_DS_READ_B32, 2, ld)->offset = 0;
	struct mir_opnd mv[2] = {mir_vreg(acc, 1), mir_vreg(val, 1)};
	valu(s, AMD_OP_V_MOV_B32, 2, mv);
	set_exec(s, mir_imm(~0u));
	acc = butterfly(s, acc, lane, s->wave, AMD_OP_V_ADD_U32);
	uint32_t r = sel_new_sgpr(s, 1);
	struct mir_opnd rf[2] = {mir_vreg(r, 1), mir_vreg(acc, 1)};
	sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	set_exec(s, mir_vreg(saved, w));
	put_scalar(s, in->res, r);
	return true;
}

/* bar.sync with a barrier register: only barrier 0 (build_bar.c); the BARRIER follows. */
static bool bar_id(struct isel *s, const struct ir_insn *in)
{
	uint64_t id;
	if (!sel_is_const(s, in->args[0], &id) || (uint32_t)id != 0)
		sel_error(s,
		          "'bar.sync'/'barrier.sync' with a barrier register that is not 0 is not "
		          "supported by the code generator yet: only barrier 0 of the whole CTA");
	return true;
}

/* ---- match.any ---- */

static bool match_any(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw;
	bool wide = ir_type_bits((enum ir_type)s->ir->vals[in->args[0]].type) == 64;
	unsigned vw = wide ? 2 : 1;
	struct mir_opnd a = sel_vgpr_opnd(s, in->args[0], wide ? 2 : 0);
	uint32_t res = sel_new_vgpr(s, w);
	for (unsigned k = 0; k < s->wave; k++) {
		uint32_t v = sel_new_sgpr(s, vw), m = sel_new_sgpr(s, w);
		for (unsigned h = 0; h < vw; h++) {
			struct mir_opnd part = a;
			part.width = 1;
			part.sub = (uint8_t)(a.sub + h);
			struct mir_opnd rl[3] = {sel_sub(v, h, 1), part, mir_imm(k)};
			sel_emit(s, AMD_OP_V_READLANE_B32, 3, rl);
		}
		struct mir_opnd c[3] = {mir_vreg(m, w), mir_vreg(v, vw), a};
		valu(s, wide ? AMD_OP_V_CMP_EQ_U64 : AMD_OP_V_CMP_EQ_U32, 3, c);
		for (unsigned h = 0; h < w; h++) {
			struct mir_opnd wl[3] = {sel_sub(res, h, 1), sel_sub(m, h, 1), mir_imm(k)};
			sel_emit(s, AMD_OP_V_WRITELANE_B32, 3, wl);
		}
	}
	uint32_t d = sel_def(s, in->res);
	if (s->vals[in->res].loc == LOC_VGPR) {
		for (unsigned h = 0; h < w; h++)
			sel_copy(s, sel_sub(d, h, 1), sel_sub(res, h, 1));
		return true;
	}
	for (unsigned h = 0; h < w; h++) { /* uniform by analysis */
		struct mir_opnd ops[2] = {sel_sub(d, h, 1), sel_sub(res, h, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
	}
	return true;
}

bool sel_warp(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_LANE_READ:
		return lane_read(s, in);
	case IR_BALLOT:
		return ballot(s, in);
	case IR_ACTIVEMASK:
		return activemask(s, in);
	case IR_READFIRST:
		return readfirst(s, in);
	case IR_REDUX:
		return redux(s, in);
	case IR_MATCH_ANY:
		return match_any(s, in);
	case IR_BAR_SUM:
		return bar_sum(s, in);
	case IR_BAR_ID:
		return bar_id(s, in);
	default:
		return false;
	}
}
