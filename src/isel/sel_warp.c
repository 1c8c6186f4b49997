/* Instruction selection for the warp-level operations (docs/WARP.md).
 *
 * lane.read is ds_bpermute_b32 (every target, both wave sizes: a lane reads the dword
 * another lane offers; an inactive source lane gives 0), or v_readlane_b32 when every lane
 * reads the same lane (a broadcast: the result is uniform).  A lane.read with a constant
 * pattern (IR_LANE_AUX, from shfl with immediate b and c) is one DPP v_mov or ds_swizzle
 * instead: xor n < 4 and idx in quads quad_perm, xor n < 16 row_xmask and idx in rows
 * row_share (gfx10+), gfx9 xor 7/8/15 row_half_mirror/row_ror:8/row_mirror, other xor n < 32
 * and idx in segments <= 32 ds_swizzle's bitmask mode; gfx9 up/down by n in rows
 * row_shr/row_shl, n = 16 in 32 lanes ds_swizzle xor 16, other up/down (gfx9, whole wave64
 * warps) ds_bpermute from lane -n/+n through its offset field (the lane's own address is the
 * pattern's operand, shared), each then v_cndmask with the constant mask of the lanes in
 * range (the others keep theirs).  On
 * gfx10+ v_permlane16/v_permlanex16 (a lane of a row reads any lane of its row / of the other
 * row of its 32) take over: xor 16..31 one permlanex16, idx in 8-lane segments one
 * permlane16, idx in 32-lane segments v_readlane (wave32) or permlane16 + permlanex16 +
 * v_cndmask (wave64), up/down within rows one permlane16 whose out-of-range lanes select
 * themselves, up/down in 32-lane segments permlane16 + permlanex16 + v_cndmask; xor >= 32 on whole
 * wave64 warps is v_permlane64 (gfx11+) and the rest of n, else ds_bpermute.  ballot is
 * the predicate's lane mask ANDed with EXEC (a uniform predicate: EXEC or 0), activemask is EXEC,
 * readfirst is v_readfirstlane_b32; results are SGPRs (copied to VGPRs where the uniformity
 * analysis made them divergent, e.g. out of a divergent loop).  redux sets EXEC to every lane, the
 * inactive lanes holding the operation's identity, reduces each row of 16 lanes with four DPP forms
 * of the operation (quad_perm, quad_perm, row_half_mirror, row_mirror, as LLVM's wave reductions)
 * and combines the rows' lane 0 with v_readlane and the SALU operation (with 32-lane warps on
 * wave64, --warp-size 32, each lane combines its row with the other row of its half, read by
 * ds_swizzle xor 16 on gfx9 or v_permlanex16 on gfx10+: the result per lane).  match.any is a
 * waterfall loop, one round per distinct value among the active lanes: the first lane left (s_ff1)
 * gives its value (v_readlane), v_cmp_eq finds the lanes holding it, which take the compare
 * mask and leave EXEC.  bar.sum (bar.red's CTA-wide
 * sum of per-wave counts in LDS) loads slot k into lane k < n under a full EXEC and adds them as
 * redux does. Complexity: O(1) per instruction; match.any O(distinct values) at run time. */
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

/* dst = ds_bpermute(data, addr + offset): lane l reads lane ((addr + offset) / 4) mod the wave
 * size (the ISA's pseudo-code: the address's high bits are ignored) */
static void bpermute_at(struct isel *s, struct mir_opnd dst, struct mir_opnd data,
                        struct mir_opnd addr, unsigned offset)
{
	struct mir_opnd ops[3] = {dst, addr, sel_to_vgpr(s, data)};
	sel_emit(s, AMD_OP_DS_BPERMUTE_B32, 3, ops)->offset = (int32_t)offset;
}

/* dst = ds_bpermute(data, lane * 4) */
static void bpermute(struct isel *s, struct mir_opnd dst, struct mir_opnd data,
                     struct mir_opnd lane)
{
	uint32_t addr = sel_new_vgpr(s, 1);
	struct mir_opnd sh[3] = {mir_vreg(addr, 1), mir_imm(2), lane};
	valu(s, AMD_OP_V_LSHLREV_B32, 3, sh);
	bpermute_at(s, dst, data, mir_vreg(addr, 1), 0);
}

/* ---- constant lane patterns (IR_LANE_AUX): DPP and ds_swizzle ---- */

/* dst = v_mov_b32_dpp src with control `ctrl`; a lane whose source lane is invalid gets 0 */
static void dpp_mov(struct isel *s, struct mir_opnd dst, struct mir_opnd src, unsigned ctrl)
{
	struct mir_opnd ops[2] = {dst, src};
	struct mir_insn *mi = sel_emit(s, AMD_OP_V_MOV_B32, 2, ops);
	mi->enc = AMD_ENC_E32, mi->dpp = 1, mi->dpp_ctrl = (uint16_t)ctrl, mi->bound_ctrl = true;
}

/* ds_swizzle_b32 in bitmask mode: lane l of each 32 reads ((l & and) | or) ^ xor */
static void swizzle(struct isel *s, struct mir_opnd dst, struct mir_opnd src, unsigned and_mask,
                    unsigned or_mask, unsigned xor_mask)
{
	struct mir_opnd ops[2] = {dst, src};
	sel_emit(s, AMD_OP_DS_SWIZZLE_B32, 2, ops)->offset =
	        (int32_t)(and_mask | or_mask << 5 | xor_mask << 10);
}

/* DPP quad_perm control: lane i of each quad reads lane (i & and) ^ xor | or */
static unsigned quad_perm(unsigned and_mask, unsigned or_mask, unsigned xor_mask)
{
	unsigned ctrl = 0;
	for (unsigned i = 0; i < 4; i++)
		ctrl |= (((i & and_mask) | or_mask) ^ xor_mask) << (2 * i);
	return ctrl;
}

/* gfx10+ v_permlane16_b32 (cross: v_permlanex16_b32): lane l of each 16-lane row reads lane
 * sel[l % 16] of its row (cross: of the other row of its 32-lane pair); bound_ctrl
 * (op_sel:[0,1]): an inactive source lane gives 0, so every active lane is written. */
static void permlane(struct isel *s, bool cross, struct mir_opnd d, struct mir_opnd a,
                     const unsigned sel[16])
{
	uint64_t bits = 0;
	for (unsigned i = 0; i < 16; i++)
		bits |= (uint64_t)(sel[i] & 15) << (4 * i);
	unsigned op = cross ? AMD_OP_V_PERMLANEX16_B32 : AMD_OP_V_PERMLANE16_B32;
	uint32_t lo = (uint32_t)bits, hi = (uint32_t)(bits >> 32);
	struct mir_opnd ops[4] = {d, a, mir_imm(lo), mir_imm(hi)};
	/* gfx10+ VOP3 takes one literal: a second, different one goes through an SGPR */
	if (lo != hi && amd_inline_code(AMD_DT_B32, lo) < 0 && amd_inline_code(AMD_DT_B32, hi) < 0)
		ops[2] = sel_s_imm(s, lo);
	sel_emit(s, op, 4, ops)->bound_ctrl = true;
}

/* The lanes of the wave whose .up/.down by n in segments of p lanes is in range. */
static uint64_t shift_in_range(const struct isel *s, bool up, unsigned n, unsigned p)
{
	uint64_t m = 0;
	for (unsigned l = 0; l < s->wave; l++)
		if (up ? l % p >= n : l % p + n <= p - 1)
			m |= 1ull << l;
	return m;
}

/* Sets `mask` (wave-size bits) into a new SGPR lane mask. */
static struct mir_opnd const_mask(struct isel *s, uint64_t mask)
{
	uint32_t m = sel_new_sgpr(s, s->mask_dw);
	for (unsigned h = 0; h < s->mask_dw; h++)
		sel_copy(s, sel_sub(m, h, 1), mir_imm((uint32_t)(mask >> (32 * h))));
	return mir_vreg(m, s->mask_dw);
}

/* gfx9 .up/.down by n in segments of p lanes that need no lane address: p <= 16 DPP
 * row_shr/row_shl:n, n = 16 in 32 lanes ds_swizzle xor 16; then the lanes out of range (a
 * constant mask) keep their own value through v_cndmask.  False (nothing emitted) otherwise.
 * (n = 1 in larger segments is shift_bpermute: DPP wave_shr/wave_shl:1 costs two VALU
 * instructions where it costs one, the CU model's bench scan 4535 -> 4439 cycles.) */
static bool shift_one(struct isel *s, struct mir_opnd d, struct mir_opnd a, bool up, unsigned n,
                      unsigned p)
{
	if (p > 16 && !(n == 16 && p == 32))
		return false;
	uint32_t t = sel_new_vgpr(s, 1);
	if (p <= 16)
		dpp_mov(s, mir_vreg(t, 1), a, (up ? 0x110u : 0x100u) | n);
	else
		swizzle(s, mir_vreg(t, 1), a, 0x1f, 0, 16);
	struct mir_opnd ops[4] = {d, a, mir_vreg(t, 1), const_mask(s, shift_in_range(s, up, n, p))};
	valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
	return true;
}

/* .up/.down by n in segments of p lanes with ds_bpermute: every lane reads lane -n/+n of the
 * wave through the instruction's offset (the lane's own address, lane4, is shared by all
 * shuffles), then the lanes out of range (a constant mask) keep their own value. */
static void shift_bpermute(struct isel *s, struct mir_opnd d, struct mir_opnd a, ir_ref lane4,
                           bool up, unsigned n, unsigned p)
{
	uint32_t t = sel_new_vgpr(s, 1);
	unsigned offset = 4 * (up ? s->wave - n : n);
	bpermute_at(s, mir_vreg(t, 1), a, sel_vsrc_opnd(s, lane4, 0), offset);
	struct mir_opnd ops[4] = {d, a, mir_vreg(t, 1), const_mask(s, shift_in_range(s, up, n, p))};
	valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
}

/* gfx10+ .up/.down by 0 < n < p, p <= 32: within each row one v_permlane16 reads the source
 * lane or, out of range, the lane itself (p <= 16: that is all); with p = 32 the lanes whose
 * source is in the other row of the segment take a v_permlanex16 through v_cndmask (for
 * n >= 16 every lane in range does: the v_permlane16 would be the identity and is left out). */
static void shift_permlane(struct isel *s, struct mir_opnd d, struct mir_opnd a, bool up,
                           unsigned n, unsigned p)
{
	unsigned same[16], other[16];
	bool identity = true;
	for (unsigned i = 0; i < 16; i++) {
		unsigned q = i % p, from = up ? (q >= n ? i - n : i) : (q + n < p ? i + n : i);
		same[i] = from < 16 ? from : i; /* p = 32: crossing lanes are fixed below */
		other[i] = (up ? i - n : i + n) & 15;
		identity &= same[i] == i;
	}
	if (p <= 16) {
		permlane(s, false, d, a, same);
		return;
	}
	struct mir_opnd t = a;
	if (!identity) {
		t = mir_vreg(sel_new_vgpr(s, 1), 1);
		permlane(s, false, t, a, same);
	}
	uint32_t x = sel_new_vgpr(s, 1);
	permlane(s, true, mir_vreg(x, 1), a, other);
	uint64_t cross = 0; /* the lanes in range whose source is in the other row */
	for (unsigned l = 0; l < s->wave; l++) {
		unsigned q = l % 32, from = up ? q - n : q + n;
		if ((up ? q >= n : from < 32) && (from ^ q) & 16)
			cross |= 1ull << l;
	}
	struct mir_opnd ops[4] = {d, t, mir_vreg(x, 1), const_mask(s, cross)};
	valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
}

/* gfx10+ .idx n in 32-lane segments: lane n of the wave (wave32) is v_readlane; on wave64
 * the rows holding lane n read it with v_permlane16, the others with v_permlanex16. */
static void idx32(struct isel *s, struct mir_opnd d, struct mir_opnd a, unsigned n)
{
	if (s->wave == 32) {
		uint32_t t = sel_new_sgpr(s, 1);
		struct mir_opnd rl[3] = {mir_vreg(t, 1), a, mir_imm(n)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, rl);
		sel_copy(s, d, mir_vreg(t, 1));
		return;
	}
	unsigned sel[16];
	for (unsigned i = 0; i < 16; i++)
		sel[i] = n & 15;
	uint32_t same = sel_new_vgpr(s, 1), other = sel_new_vgpr(s, 1);
	permlane(s, false, mir_vreg(same, 1), a, sel);
	permlane(s, true, mir_vreg(other, 1), a, sel);
	uint64_t rows = n & 16 ? 0x0000ffff0000ffffull : 0xffff0000ffff0000ull; /* other row */
	struct mir_opnd ops[4] = {d, mir_vreg(same, 1), mir_vreg(other, 1), const_mask(s, rows)};
	valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
}

/* .bfly with n >= 32 (whole wave64 warps): gfx11+ v_permlane64 swaps the halves, the rest
 * of n (< 32) follows as its own pattern; elsewhere ds_bpermute from lane ^ n. */
static void xor_high(struct isel *s, struct mir_opnd d, struct mir_opnd a, ir_ref lane4, unsigned n,
                     uint32_t aux);

static void lane_pattern(struct isel *s, struct mir_opnd d, struct mir_opnd a, ir_ref lane4,
                         uint32_t aux)
{
	unsigned n = IR_LANE_N(aux), p = 1u << IR_LANE_SEG(aux);
	bool gfx10 = s->gen >= AMD_GFX10; /* row_xmask, row_share, v_permlane16/x16 */
	unsigned sel[16];
	switch (IR_LANE_KIND(aux)) {
	case IR_LANE_XOR:
		if (n >= 32) {
			xor_high(s, d, a, lane4, n, aux);
		} else if (n < 4) {
			dpp_mov(s, d, a, quad_perm(3, 0, n));
		} else if (gfx10 && n < 16) {
			dpp_mov(s, d, a, 0x160 | n);
		} else if (gfx10) { /* 16 <= n < 32: the other row, lane ^ (n & 15) */
			for (unsigned i = 0; i < 16; i++)
				sel[i] = i ^ (n & 15);
			permlane(s, true, d, a, sel);
		} else if (n == 7 || n == 8 || n == 15) {
			/* gfx9, one DPP instead of an LDS trip: row_half_mirror (lane ^ 7 in 8
			 * lanes), row_ror:8 (lane ^ 8 in 16), row_mirror (lane ^ 15 in 16) */
			dpp_mov(s, d, a, n == 7 ? 0x141 : n == 8 ? 0x128 : 0x140);
		} else {
			swizzle(s, d, a, 0x1f, 0, n);
		}
		return;
	case IR_LANE_IDX:
		if (p <= 4) {
			dpp_mov(s, d, a, quad_perm(~(p - 1) & 3, n, 0));
		} else if (gfx10 && p == 16) {
			dpp_mov(s, d, a, 0x150 | n);
		} else if (gfx10 && p == 8) { /* lane n of each 8 */
			for (unsigned i = 0; i < 16; i++)
				sel[i] = (i & 8) | n;
			permlane(s, false, d, a, sel);
		} else if (gfx10 && p == 32) {
			idx32(s, d, a, n);
		} else {
			swizzle(s, d, a, ~(p - 1) & 0x1f, n, 0);
		}
		return;
	default: {
		bool up = IR_LANE_KIND(aux) == IR_LANE_UP;
		if (gfx10 && p <= 32)
			shift_permlane(s, d, a, up, n, p);
		else if (gfx10 || !shift_one(s, d, a, up, n, p))
			shift_bpermute(s, d, a, lane4, up, n, p);
		return;
	}
	}
}

static void xor_high(struct isel *s, struct mir_opnd d, struct mir_opnd a, ir_ref lane4, unsigned n,
                     uint32_t aux)
{
	if (s->gen >= AMD_GFX11 && s->wave == 64) {
		if (n == 32) {
			struct mir_opnd ops[2] = {d, a};
			sel_emit(s, AMD_OP_V_PERMLANE64_B32, 2, ops);
			return;
		}
		uint32_t t = sel_new_vgpr(s, 1);
		struct mir_opnd ops[2] = {mir_vreg(t, 1), a};
		sel_emit(s, AMD_OP_V_PERMLANE64_B32, 2, ops);
		lane_pattern(s, d, mir_vreg(t, 1), lane4,
		             IR_LANE_AUX(IR_LANE_XOR, n - 32, IR_LANE_SEG(aux)));
		return;
	}
	if (n == 32) { /* lane ^ 32 is lane + 32 modulo 64 */
		bpermute_at(s, d, a, sel_vsrc_opnd(s, lane4, 0), 128);
		return;
	}
	uint32_t addr = sel_new_vgpr(s, 1);
	struct mir_opnd x[3] = {mir_vreg(addr, 1), mir_imm(4 * n), sel_vsrc_opnd(s, lane4, 0)};
	valu(s, AMD_OP_V_XOR_B32, 3, x);
	bpermute_at(s, d, a, mir_vreg(addr, 1), 0);
}

/* The value a lane.read moves: a 32-bit bitcast's source (shfl of an f32 is bitcast, read,
 * bitcast back; the bitcast's copy would stay live beside its source, which the code after the
 * shuffle still reads, and cost a v_mov per step). */
static ir_ref moved_value(const struct isel *s, ir_ref v)
{
	const struct ir_insn *def = s->def[v];
	if (def && def->op == IR_BITCAST &&
	    ir_type_bits((enum ir_type)s->ir->vals[def->args[0]].type) == 32 &&
	    s->vals[def->args[0]].loc == LOC_VGPR)
		return def->args[0];
	return v;
}

static bool lane_read(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd d = rd(s, in->res, 0);
	if (!s->ir->vals[in->args[0]].divergent) { /* the same value in every lane */
		sel_copy(s, d, sel_sreg_opnd(s, in->args[0], 0));
		return true;
	}
	if (in->aux) {
		struct mir_opnd a = sel_vgpr_opnd(s, moved_value(s, in->args[0]), 0);
		if (s->vals[in->res].loc == LOC_VGPR) {
			lane_pattern(s, d, a, in->args[1], in->aux);
			return true;
		}
		uint32_t t = sel_new_vgpr(s, 1); /* uniform by analysis: through a VGPR */
		lane_pattern(s, mir_vreg(t, 1), a, in->args[1], in->aux);
		struct mir_opnd ops[2] = {d, mir_vreg(t, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
		return true;
	}
	if (!s->ir->vals[in->args[1]].divergent) { /* one lane for all: v_readlane */
		uint32_t t = sel_new_sgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(t, 1),
		                          sel_vgpr_opnd(s, moved_value(s, in->args[0]), 0),
		                          sel_sreg_opnd(s, in->args[1], 0)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, ops);
		sel_copy(s, d, mir_vreg(t, 1));
		return true;
	}
	if (s->vals[in->res].loc != LOC_VGPR) { /* uniform by analysis: through a VGPR */
		uint32_t t = sel_new_vgpr(s, 1);
		bpermute(s, mir_vreg(t, 1), sel_vsrc_opnd(s, moved_value(s, in->args[0]), 0),
		         sel_vsrc_opnd(s, in->args[1], 0));
		struct mir_opnd ops[2] = {d, mir_vreg(t, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
		return true;
	}
	bpermute(s, d, sel_vsrc_opnd(s, moved_value(s, in->args[0]), 0),
	         sel_vsrc_opnd(s, in->args[1], 0));
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
	uint64_t bits;
	ir_ref a = in->args[0];
	if (!sel_is_const(s, a, &bits) && s->vals[a].loc == LOC_VGPR && s->vals[a].size == size) {
		/* each dword once (sel_sreg_opnd reads the whole value per dword) */
		uint32_t v = sel_def(s, a);
		for (unsigned k = 0; k < size; k++) {
			struct mir_opnd ops[2] = {sel_sub(t, k, 1), sel_sub(v, k, 1)};
			sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
		}
	} else {
		for (unsigned k = 0; k < size; k++)
			sel_copy(s, sel_sub(t, k, 1), sel_sreg_opnd(s, a, k));
	}
	put_scalar(s, in->res, t);
	return true;
}

/* ---- redux ---- */

static const struct {
	uint16_t op;       /* VALU row combining two values */
	uint16_t sop;      /* SALU row combining two row results */
	uint32_t identity; /* what inactive lanes contribute */
} redux_rows[] = {
        [IR_REDUX_ADD] = {AMD_OP_V_ADD_U32, AMD_OP_S_ADD_U32, 0},
        [IR_REDUX_MIN_U] = {AMD_OP_V_MIN_U32, AMD_OP_S_MIN_U32, 0xffffffffu},
        [IR_REDUX_MIN_S] = {AMD_OP_V_MIN_I32, AMD_OP_S_MIN_I32, 0x7fffffffu},
        [IR_REDUX_MAX_U] = {AMD_OP_V_MAX_U32, AMD_OP_S_MAX_U32, 0},
        [IR_REDUX_MAX_S] = {AMD_OP_V_MAX_I32, AMD_OP_S_MAX_I32, 0x80000000u},
        [IR_REDUX_AND] = {AMD_OP_V_AND_B32, AMD_OP_S_AND_B32, 0xffffffffu},
        [IR_REDUX_OR] = {AMD_OP_V_OR_B32, AMD_OP_S_OR_B32, 0},
        [IR_REDUX_XOR] = {AMD_OP_V_XOR_B32, AMD_OP_S_XOR_B32, 0},
};

static void set_exec(struct isel *s, struct mir_opnd src)
{
	struct mir_opnd ops[2] = {sel_exec(s), src};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
}

/* Combines acc across each 16-lane row with DPP (EXEC must be every lane): quad_perm
 * [1,0,3,2] and [2,3,0,1], row_half_mirror, row_mirror, each fused into the combining VOP2
 * (src0 read from the other lane, src1 the lane's own), as LLVM's wave reductions do; every
 * lane then holds its row's result.  Returns the vreg. */
static uint32_t reduce_rows(struct isel *s, uint32_t acc, unsigned op)
{
	const unsigned ctrls[4] = {quad_perm(3, 0, 1), quad_perm(3, 0, 2), 0x141, 0x140};
	for (unsigned k = 0; k < 4; k++) {
		uint32_t next = sel_new_vgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(next, 1), mir_vreg(acc, 1), mir_vreg(acc, 1)};
		struct mir_insn *mi = sel_emit(s, op, 3, ops);
		mi->enc = AMD_ENC_E32, mi->dpp = 1, mi->dpp_ctrl = (uint16_t)ctrls[k];
		mi->bound_ctrl = true;
		acc = next;
	}
	return acc;
}

/* The SGPR combining the results of rows [first, first + n) of acc (v_readlane of each
 * row's lane 0, then SALU `sop`). */
static uint32_t combine_rows(struct isel *s, uint32_t acc, unsigned first, unsigned n, unsigned sop)
{
	uint32_t r = 0;
	for (unsigned row = first; row < first + n; row++) {
		uint32_t t = sel_new_sgpr(s, 1);
		struct mir_opnd rl[3] = {mir_vreg(t, 1), mir_vreg(acc, 1), mir_imm(16 * row)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, rl);
		if (row == first) {
			r = t;
			continue;
		}
		uint32_t next = sel_new_sgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(next, 1), mir_vreg(r, 1), mir_vreg(t, 1)};
		sel_emit(s, sop, 3, ops);
		r = next;
	}
	return r;
}

static bool redux(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw, kind = in->aux & ~(unsigned)IR_REDUX_HALVES;
	bool halves = in->aux & IR_REDUX_HALVES; /* a result per 32-lane half: per lane */
	uint32_t saved = sel_new_sgpr(s, w);
	struct mir_opnd save[2] = {mir_vreg(saved, w), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, save);
	struct mir_opnd a = sel_vsrc_opnd(s, in->args[0], 0);
	uint32_t acc = sel_new_vgpr(s, 1);
	set_exec(s, mir_imm(~0u));
	sel_copy(s, mir_vreg(acc, 1), mir_imm(redux_rows[kind].identity));
	set_exec(s, mir_vreg(saved, w));
	struct mir_opnd mv[2] = {mir_vreg(acc, 1), a};
	valu(s, AMD_OP_V_MOV_B32, 2, mv);
	set_exec(s, mir_imm(~0u));
	acc = reduce_rows(s, acc, redux_rows[kind].op);
	unsigned sop = redux_rows[kind].sop;
	if (halves) { /* each half's two rows: every lane combines its row with the other one */
		uint32_t other = sel_new_vgpr(s, 1);
		if (s->gen >= AMD_GFX10) {
			unsigned same_lane[16];
			for (unsigned i = 0; i < 16; i++)
				same_lane[i] = i;
			permlane(s, true, mir_vreg(other, 1), mir_vreg(acc, 1), same_lane);
		} else {
			swizzle(s, mir_vreg(other, 1), mir_vreg(acc, 1), 0x1f, 0, 16);
		}
		set_exec(s, mir_vreg(saved, w));
		struct mir_opnd ops[3] = {rd(s, in->res, 0), mir_vreg(acc, 1), mir_vreg(other, 1)};
		valu(s, redux_rows[kind].op, 3, ops);
		return true;
	}
	uint32_t r = combine_rows(s, acc, 0, s->wave / 16, sop);
	set_exec(s, mir_vreg(saved, w));
	put_scalar(s, in->res, r);
	return true;
}

/* ---- bar.sum (bar.red, build_bar.c) ---- */

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
	acc = reduce_rows(s, acc, AMD_OP_V_ADD_U32);
	uint32_t r = combine_rows(s, acc, 0, s->wave / 16, AMD_OP_S_ADD_U32);
	set_exec(s, mir_vreg(saved, w));
	put_scalar(s, in->res, r);
	return true;
}

/* ---- match.any ---- */

bool sel_warp_needs_loop(const struct ir_insn *in)
{
	return in->op == IR_MATCH_ANY;
}

/* A waterfall loop over the distinct values (its two MIR blocks laid out by cflow.c right
 * after the block's body, as sel_atomic.c's loops): EXEC holds the lanes still without a
 * result; the first of them (s_ff1) gives its value (v_readlane, both halves of a 64-bit
 * one), v_cmp_eq finds the active lanes holding it, they take that compare mask as their
 * result (v_cndmask) and leave EXEC.  Lanes an earlier round removed hold other values, so
 * the compare under the shrunken EXEC finds every lane of the value. */
static bool match_any(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw;
	bool wide = ir_type_bits((enum ir_type)s->ir->vals[in->args[0]].type) == 64;
	unsigned vw = wide ? 2 : 1;
	struct mir_opnd a = sel_vgpr_opnd(s, in->args[0], wide ? 2 : 0);
	unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
	uint32_t res = sel_new_vgpr(s, w), saved = sel_new_sgpr(s, w);
	for (unsigned h = 0; h < w; h++)
		sel_copy(s, sel_sub(res, h, 1), mir_imm(0));
	struct mir_opnd save[2] = {mir_vreg(saved, w), sel_exec(s)};
	sel_emit(s, mov, 2, save);
	uint32_t loop = s->cur + 1, cont = s->cur + 2;
	sel_set_succ(s, s->cur, loop, ~0u);
	s->cur = loop;
	s->mf->blocks[loop].comment = "match.any waterfall: lanes without a result";
	uint32_t k = sel_new_sgpr(s, 1), v = sel_new_sgpr(s, vw), m = sel_new_sgpr(s, w);
	struct mir_opnd ff[2] = {mir_vreg(k, 1), sel_exec(s)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_FF1_I32_B32, AMD_OP_S_FF1_I32_B64), 2, ff);
	for (unsigned h = 0; h < vw; h++) {
		struct mir_opnd part = a;
		part.width = 1;
		part.sub = (uint8_t)(a.sub + h);
		struct mir_opnd rl[3] = {sel_sub(v, h, 1), part, mir_vreg(k, 1)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, rl);
	}
	struct mir_opnd c[3] = {mir_vreg(m, w), mir_vreg(v, vw), a};
	valu(s, wide ? AMD_OP_V_CMP_EQ_U64 : AMD_OP_V_CMP_EQ_U32, 3, c);
	for (unsigned h = 0; h < w; h++) {
		struct mir_opnd cm[4] = {sel_sub(res, h, 1), sel_sub(res, h, 1), sel_sub(m, h, 1),
		                         mir_vreg(m, w)};
		valu(s, AMD_OP_V_CNDMASK_B32, 4, cm);
	}
	struct mir_opnd drop[3] = {sel_exec(s), sel_exec(s), mir_vreg(m, w)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3, drop);
	struct mir_opnd back = mir_block_ref(loop);
	sel_emit(s, AMD_OP_S_CBRANCH_EXECNZ, 1, &back);
	sel_set_succ(s, loop, cont, loop);
	s->cur = cont;
	struct mir_opnd restore[2] = {sel_exec(s), mir_vreg(saved, w)};
	sel_emit(s, mov, 2, restore);
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
	default:
		return false;
	}
}
