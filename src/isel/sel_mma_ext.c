/* Instruction selection for the matrix operations whose lane shuffles leave the warp
 * (build_mma_f64.c): IR_MX_F64_M8N8K4, the two 32-lane warps' m8n8k4 .f64 products of
 * a wave64 on two v_mfma_f64_4x4x4f64, all under EXEC all ones (docs/TENSOR.md, "f64 on the
 * matrix unit").
 *
 * The unit's blocks span all 64 lanes (A[i][k] of block b in lane 16k+4b+i, B[k][j] in
 * 16k+4b+j, D[i][j] in 16i+4b+j), so each warp's product needs the other half's lanes: the
 * shuffles run with EXEC all ones, from a lane index computed under it, so that a warp whose
 * partner is inactive (a divergent branch, a 32-thread block) still gets its product.  The
 * inactive half's registers are garbage that only its own MFMA reads.  Warp w's D tile
 * (r, c) is block b = 2 (r >> 2) + (c >> 2), i = r & 3, j = c & 3 of MFMA w; with X the
 * wave lane (0..63), the byte addresses (4 x the source lane) are
 *   A: ((X << 3) & 64) | ((X << 4) & 48) | ((X >> 2) & 12) | 128 w   (A[r][k] in lane 4r+k)
 *   B: ((X << 4) & 112) | ((X >> 2) & 12) | 128 w                    (B[k][c] in lane 4c+k)
 *   C: ((X << 3) & 64) | (X & 48) | ((X << 1) & 12) | 128 w, element X & 1
 *   D element e: ((X << 4) & 192) | ((X << 1) & 32) | ((X << 3) & 24) | 4e, of MFMA X >> 5
 * (checked by a model of the three layouts on random data before it was written). */
#include "isel/isel_int.h"

static struct mir_opnd vreg1(uint32_t v)
{
	return mir_vreg(v, 1);
}

/* A new VGPR = op(a, b) (VOP2/VOP3 order: the shifts take the amount first). */
static uint32_t valu(struct isel *s, unsigned op, struct mir_opnd a, struct mir_opnd b)
{
	uint32_t d = sel_new_vgpr(s, 1);
	struct mir_opnd ops[3] = {vreg1(d), a, b};
	sel_fix_valu(s, op, 3, ops);
	sel_emit(s, op, 3, ops);
	return d;
}

/* The lane index X shifted by -2..4 (>> 2 .. << 4), each computed once. */
struct shifted {
	uint32_t x, by[7];
};

/* (X << sh) & mask (sh < 0: >> -sh) */
static uint32_t field(struct isel *s, struct shifted *l, int sh, uint32_t mask)
{
	uint32_t *t = &l->by[sh + 2];
	if (!*t && sh > 0)
		*t = valu(s, AMD_OP_V_LSHLREV_B32, mir_imm((uint32_t)sh), vreg1(l->x));
	else if (!*t && sh < 0)
		*t = valu(s, AMD_OP_V_LSHRREV_B32, mir_imm((uint32_t)-sh), vreg1(l->x));
	else if (!*t)
		*t = l->x;
	return valu(s, AMD_OP_V_AND_B32, mir_imm(mask), vreg1(*t));
}

static uint32_t or2(struct isel *s, uint32_t a, uint32_t b)
{
	return valu(s, AMD_OP_V_OR_B32, vreg1(a), vreg1(b));
}

static uint32_t or_k(struct isel *s, uint32_t a, uint32_t k)
{
	return valu(s, AMD_OP_V_OR_B32, mir_imm(k), vreg1(a));
}

static void bperm_to(struct isel *s, struct mir_opnd dst, uint32_t addr, struct mir_opnd data)
{
	struct mir_opnd ops[3] = {dst, vreg1(addr), data};
	sel_emit(s, AMD_OP_DS_BPERMUTE_B32, 3, ops);
}

static uint32_t bperm(struct isel *s, uint32_t addr, struct mir_opnd data)
{
	uint32_t d = sel_new_vgpr(s, 1);
	bperm_to(s, vreg1(d), addr, data);
	return d;
}

/* dst = mask ? t : f */
static void cnd(struct isel *s, struct mir_opnd dst, uint32_t mask, uint32_t t, uint32_t f)
{
	struct mir_opnd ops[4] = {dst, vreg1(f), vreg1(t), mir_vreg(mask, 2)};
	sel_fix_valu(s, AMD_OP_V_CNDMASK_B32, 4, ops);
	sel_emit(s, AMD_OP_V_CNDMASK_B32, 4, ops);
}

static uint32_t lane_mask(struct isel *s, uint32_t lo, uint32_t hi)
{
	uint32_t m = sel_new_sgpr(s, 2);
	sel_copy(s, sel_sub(m, 0, 1), mir_imm(lo));
	sel_copy(s, sel_sub(m, 1, 1), mir_imm(hi));
	return m;
}

/* The `n` dwords of an MTUP, copied into a new VGPR tuple under the current EXEC. */
static uint32_t dwords(struct isel *s, ir_ref r, unsigned n)
{
	const struct ir_insn *def = s->def[r];
	uint32_t v = sel_new_vgpr(s, n);
	if (!def || def->op != IR_MTUP || def->nargs != n) {
		sel_error(s, "internal: an f64 matrix operand that is not a tuple of %u dwords", n);
		return v;
	}
	for (unsigned i = 0; i < n; i++)
		sel_copy(s, sel_sub(v, i, 1), sel_vsrc_opnd(s, def->args[i], 0));
	return v;
}

static void f64_m8n8k4_warps(struct isel *s, const struct ir_insn *in)
{
	uint32_t a = dwords(s, in->args[0], 2), b = dwords(s, in->args[1], 2),
	         c = dwords(s, in->args[2], 4), d = sel_new_vgpr(s, 4);
	uint32_t saved = sel_new_sgpr(s, 2);
	struct mir_opnd on[2] = {mir_vreg(saved, 2), mir_imm(0xffffffffu)};
	sel_emit(s, AMD_OP_S_OR_SAVEEXEC_B64, 2, on);
	uint32_t x = sel_new_vgpr(s, 1);
	struct mir_opnd lo[3] = {vreg1(x), mir_imm(~0u), mir_imm(0)};
	sel_emit(s, AMD_OP_V_MBCNT_LO_U32_B32, 3, lo);
	struct mir_opnd hi[3] = {vreg1(x), mir_imm(~0u), vreg1(x)};
	sel_emit(s, AMD_OP_V_MBCNT_HI_U32_B32, 3, hi);
	struct shifted l = {.x = x};
	uint32_t k12 = field(s, &l, -2, 12), k64 = field(s, &l, 3, 64);
	uint32_t at[2][3]; /* [w][A, B, C] */
	at[0][0] = or2(s, or2(s, k64, field(s, &l, 4, 48)), k12);
	at[0][1] = or2(s, field(s, &l, 4, 112), k12);
	at[0][2] = or2(s, or2(s, k64, field(s, &l, 0, 48)), field(s, &l, 1, 12));
	for (unsigned o = 0; o < 3; o++)
		at[1][o] = or_k(s, at[0][o], 128);
	uint32_t odd = lane_mask(s, 0xaaaaaaaau, 0xaaaaaaaau), high = lane_mask(s, 0, ~0u);
	uint32_t res[2];
	for (unsigned w = 0; w < 2; w++) {
		uint32_t ta = sel_new_vgpr(s, 2), tb = sel_new_vgpr(s, 2), tc = sel_new_vgpr(s, 2);
		for (unsigned h = 0; h < 2; h++) {
			bperm_to(s, sel_sub(ta, h, 1), at[w][0], sel_sub(a, h, 1));
			bperm_to(s, sel_sub(tb, h, 1), at[w][1], sel_sub(b, h, 1));
			uint32_t c0 = bperm(s, at[w][2], sel_sub(c, h, 1)),
			         c1 = bperm(s, at[w][2], sel_sub(c, 2 + h, 1));
			cnd(s, sel_sub(tc, h, 1), odd, c1, c0);
		}
		res[w] = sel_new_vgpr(s, 2);
		struct mir_opnd ops[4] = {mir_vreg(res[w], 2), mir_vreg(ta, 2), mir_vreg(tb, 2),
		                          mir_vreg(tc, 2)};
		sel_emit(s, AMD_OP_V_MFMA_F64_4X4X4F64, 4, ops);
	}
	uint32_t ad =
	        or2(s, or2(s, field(s, &l, 4, 192), field(s, &l, 1, 32)), field(s, &l, 3, 24));
	for (unsigned e = 0; e < 2; e++) {
		uint32_t from = e ? or_k(s, ad, 4) : ad;
		for (unsigned h = 0; h < 2; h++) {
			uint32_t r0 = bperm(s, from, sel_sub(res[0], h, 1)),
			         r1 = bperm(s, from, sel_sub(res[1], h, 1));
			cnd(s, sel_sub(d, 2 * e + h, 1), high, r1, r0);
		}
	}
	struct mir_opnd back[2] = {sel_exec(s), mir_vreg(saved, 2)};
	sel_emit(s, AMD_OP_S_MOV_B64, 2, back);
	s->vals[in->res] = (struct sel_val){.loc = LOC_VGPR, .size = 4, .vreg = d};
}

bool sel_mma_ext(struct isel *s, const struct ir_insn *in)
{
	if (in->op != IR_MATRIX || (in->aux & 0xff) != IR_MX_F64_M8N8K4)
		return false;
	if (s->wave != 64)
		sel_error(s, "internal: the f64 matrix product wants a wave64");
	else
		f64_m8n8k4_warps(s, in);
	return true;
}
