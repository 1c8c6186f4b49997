/* Instruction selection for floating point (always on the vector unit: the scalar units
 * of these targets have no float arithmetic before gfx11.5).
 *
 * Exactness: add/sub/mul/fma are the hardware's IEEE round-to-nearest operations;
 * div.rn is the standard correctly rounded sequence (v_div_scale on numerator and
 * denominator, a Newton-Raphson refinement of v_rcp with fma, v_div_fmas applying the
 * scale the numerator's v_div_scale left in VCC, v_div_fixup for the special cases),
 * which needs denormals enabled -- the kernel's default float mode.  .sat is the clamp
 * bit (the descriptor enables DX10 clamp: NaN -> 0, as PTX wants) followed by + 0.0,
 * which turns the clamp's -0.0 into PTX's +0.0; neg and abs are bit operations.
 * Directed rounding (.rz/.rm/.rp) on add/sub/mul/fma and on the conversions to f32 from
 * integers of up to 32 bits and (with .sat) from f64 sets MODE.FP_ROUND around the
 * instruction.  .ftz is expanded before selection (build_arith2.c).  docs/FLOAT.md.
 * Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

void sel_vcmp(struct isel *s, const struct ir_insn *in, struct mir_opnd mask);

static struct mir_opnd rd(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sub(sel_def(s, r), k, 1);
}

static struct mir_opnd whole(struct isel *s, ir_ref r)
{
	uint32_t v = sel_def(s, r);
	return mir_vreg(v, s->vals[r].size);
}

static struct mir_opnd src(struct isel *s, ir_ref r, bool wide)
{
	return sel_vsrc_opnd(s, r, wide ? 2 : 0);
}

/* An f64 arithmetic source: a constant that is one of the f64 inline constants (0.0,
 * +-0.5, +-1.0, +-2.0, +-4.0: high half, low half zero) stays an immediate instead of an
 * SGPR pair loaded by two s_mov_b32 (only for slots typed f64, whose inline code reads
 * the high half). */
static struct mir_opnd f64_src(struct isel *s, ir_ref r)
{
	uint64_t bits;
	uint32_t hi;
	if (sel_is_const(s, r, &bits) && (uint32_t)bits == 0 &&
	    ((hi = (uint32_t)(bits >> 32)) == 0 || amd_inline_code(AMD_DT_F64, hi) >= 240))
		return mir_imm(hi);
	return src(s, r, true);
}

static struct mir_insn *valu(struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops)
{
	sel_fix_valu(s, op, n, ops);
	return sel_emit(s, op, n, ops);
}

static bool is_f64(const struct ir_insn *in)
{
	return in->type == IR_T_F64;
}

static bool check_mods(struct isel *s, const struct ir_insn *in)
{
	if ((in->aux & IR_FM_ROUND_MASK) != IR_FM_RN) {
		sel_error(s,
		          "directed rounding (.rz/.rm/.rp) on '%s' is not supported by the code "
		          "generator yet",
		          ir_ops[in->op].name);
		return false;
	}
	if (in->aux & IR_FM_FTZ) {
		sel_error(s,
		          "'.ftz' on '%s': flushing denormals per instruction is not supported by "
		          "the code generator yet",
		          ir_ops[in->op].name);
		return false;
	}
	return true;
}

/* MODE.FP_ROUND (hwreg(HW_REG_MODE, 0, 4): bits 1:0 f32, bits 3:2 f64/f16; 0 nearest even,
 * 1 +inf, 2 -inf, 3 toward zero) set to `mode` for both fields.  s_setreg_b32 exists on
 * every target; the scheduler keeps instructions between two MODE writers. */
static void set_round_mode(struct isel *s, unsigned mode)
{
	enum { HWREG_MODE = 1 };
	uint32_t t = sel_new_sgpr(s, 1);
	struct mir_opnd mv[2] = {mir_vreg(t, 1), mir_imm(mode | mode << 2)};
	sel_emit(s, AMD_OP_S_MOV_B32, 2, mv);
	struct mir_opnd set[2] = {mir_imm(HWREG_MODE | 3u << 11), mir_vreg(t, 1)};
	sel_emit(s, AMD_OP_S_SETREG_B32, 2, set);
}

/* An f32 add or multiply by a constant that is no inline constant, as the e32 form with the
 * literal in src0 (every generation encodes a literal there; gfx9's VOP3 takes none, and
 * sel_fix_valu would put it in a register), when nothing needs the VOP3 form: no clamp, no
 * modifiers.  Returns NULL when it does not apply. */
static struct mir_insn *literal_e32(struct isel *s, unsigned op, bool clamp, struct mir_opnd *ops)
{
	if ((op != AMD_OP_V_ADD_F32 && op != AMD_OP_V_MUL_F32) || clamp)
		return NULL;
	const struct amd_opnd_desc *d = &amd_isa_rows[op].opnds[1];
	bool lit1 =
	        ops[1].kind == MIR_IMM && amd_inline_code((enum amd_dtype)d->dtype, ops[1].v) < 0;
	bool lit2 =
	        ops[2].kind == MIR_IMM && amd_inline_code((enum amd_dtype)d->dtype, ops[2].v) < 0;
	const struct mir_opnd *other = &ops[lit1 ? 2 : 1];
	if (lit1 == lit2 || other->kind != MIR_VREG || s->mf->vregs[other->v].file != MIR_VGPR)
		return NULL; /* an SGPR there would need a v_mov: the literal's s_mov is as cheap */
	if (lit2) {          /* both commute: the literal goes to src0 */
		struct mir_opnd t = ops[1];
		ops[1] = ops[2];
		ops[2] = t;
	}
	return sel_emit(s, op, 3, ops);
}

static bool arith(struct isel *s, const struct ir_insn *in)
{
	static const unsigned f32[] = {AMD_OP_V_ADD_F32, AMD_OP_V_SUB_F32, AMD_OP_V_MUL_F32};
	static const unsigned f64[] = {AMD_OP_V_ADD_F64, AMD_OP_V_ADD_F64, AMD_OP_V_MUL_F64};
	static const unsigned hw_round[4] = {
	        [IR_FM_RN] = 0, [IR_FM_RP] = 1, [IR_FM_RM] = 2, [IR_FM_RZ] = 3};
	unsigned k = in->op == IR_FADD ? 0 : in->op == IR_FSUB ? 1 : 2;
	unsigned round = in->aux & IR_FM_ROUND_MASK;
	struct ir_insn rn = *in;
	rn.aux &= ~(uint32_t)IR_FM_ROUND_MASK;
	if (!check_mods(s, &rn))
		return true;
	bool w = is_f64(in), sat = (in->aux & IR_FM_SAT) != 0;
	/* .sat is the clamp bit, which keeps a -0.0 result (and a negative result that
	 * rounds to -0.0) negative; PTX's saturation gives +0.0 there, as NVIDIA's hardware
	 * does: the clamped value goes through + 0.0 (round to nearest: -0 + +0 = +0, exact
	 * for everything else in [0, 1]) */
	struct mir_opnd d =
	        sat ? mir_vreg(sel_new_vgpr(s, w ? 2 : 1), w ? 2 : 1) : whole(s, in->res);
	struct mir_opnd ops[4] = {d, w ? f64_src(s, in->args[0]) : src(s, in->args[0], false),
	                          w ? f64_src(s, in->args[1]) : src(s, in->args[1], false)};
	unsigned op = w ? f64[k] : f32[k];
	if (in->op == IR_FMA) {
		ops[3] = w ? f64_src(s, in->args[2]) : src(s, in->args[2], false);
		op = w ? AMD_OP_V_FMA_F64 : AMD_OP_V_FMA_F32;
	} else if (w && in->op == IR_FSUB) {
		/* a - b as fma(b, -1.0, a): one rounding as a + (-b), but a NaN b comes out
		 * with its own sign, as NVIDIA's sub.f64 gives it (the neg modifier flips it) */
		ops[3] = ops[1];
		ops[1] = ops[2];
		ops[2] = mir_imm(0xbff00000u); /* inline -1.0 (f64: high half) */
		op = AMD_OP_V_FMA_F64;
	}
	if (round != IR_FM_RN) /* directed rounding: the MODE register around the instruction */
		set_round_mode(s, hw_round[round]);
	struct mir_insn *mi = literal_e32(s, op, sat, ops);
	if (!mi)
		mi = valu(s, op, op == AMD_OP_V_FMA_F64 || op == AMD_OP_V_FMA_F32 ? 4 : 3, ops);
	mi->clamp = sat;
	if (round != IR_FM_RN)
		set_round_mode(s, 0);
	if (sat) {
		struct mir_opnd z[3] = {whole(s, in->res), mir_imm(0), d};
		valu(s, w ? AMD_OP_V_ADD_F64 : AMD_OP_V_ADD_F32, 3, z);
	}
	return true;
}

/* Whether value r may hold a signalling NaN: not when it is a constant (a signalling NaN
 * constant is quieted by minmax_src itself) or the result of an arithmetic operation (IEEE
 * mode quiets every NaN those produce). */
static bool may_be_snan(struct isel *s, ir_ref r)
{
	if (ir_is_const(s->ir, r))
		return false;
	const struct ir_insn *d = s->def[r];
	if (!d)
		return true;
	switch (d->op) {
	case IR_FADD:
	case IR_FSUB:
	case IR_FMUL:
	case IR_FMA:
	case IR_FDIV:
	case IR_FMIN:
	case IR_FMAX:
	case IR_FSQRT:
		return false;
	default:
		return true;
	}
}

/* PTX min/max return the other operand when one is NaN, a signalling one too.  v_min/v_max of
 * gfx9-gfx11 in IEEE mode (the kernel's mode) return a signalling NaN operand quieted instead
 * (the ISA's pseudo-code), so such an operand is quieted first with v_max(a, a), as LLVM
 * canonicalizes fminnum's operands; gfx12's v_min_num/v_max_num already return the number. */
static struct mir_opnd minmax_src(struct isel *s, ir_ref r, bool w)
{
	if (s->gen < AMD_GFX12 && ir_is_const(s->ir, r)) {
		uint64_t k = s->ir->vals[r].bits, quiet = w ? 1ull << 51 : 1u << 22;
		uint64_t exp = w ? 0x7ffull << 52 : 0xffull << 23;
		uint64_t man = w ? (1ull << 52) - 1 : (1u << 23) - 1;
		if ((k & exp) == exp && (k & man) && !(k & quiet)) { /* a signalling NaN constant */
			k |= quiet;
			uint32_t q = sel_new_vgpr(s, w ? 2 : 1);
			for (unsigned i = 0; i < (w ? 2u : 1u); i++) {
				struct mir_opnd mv[2] = {sel_sub(q, i, 1),
				                         mir_imm((uint32_t)(k >> 32 * i))};
				valu(s, AMD_OP_V_MOV_B32, 2, mv);
			}
			return mir_vreg(q, w ? 2 : 1);
		}
	}
	struct mir_opnd a = src(s, r, w);
	if (s->gen >= AMD_GFX12 || !may_be_snan(s, r))
		return a;
	struct mir_opnd q = mir_vreg(sel_new_vgpr(s, w ? 2 : 1), w ? 2 : 1);
	struct mir_opnd ops[3] = {q, a, a};
	valu(s, w ? AMD_OP_V_MAX_F64 : AMD_OP_V_MAX_F32, 3, ops);
	return q;
}

static bool minmax(struct isel *s, const struct ir_insn *in)
{
	bool w = is_f64(in), mn = in->op == IR_FMIN;
	unsigned op = w ? (mn ? AMD_OP_V_MIN_F64 : AMD_OP_V_MAX_F64)
	                : (mn ? AMD_OP_V_MIN_F32 : AMD_OP_V_MAX_F32);
	struct mir_opnd ops[3] = {whole(s, in->res), minmax_src(s, in->args[0], w),
	                          minmax_src(s, in->args[1], w)};
	valu(s, op, 3, ops);
	return true;
}

/* f32 neg/abs flip or clear the sign bit.  f64: NVIDIA's hardware returns neg.f64/abs.f64 of a
 * NaN unchanged (a signalling one quieted), so they are multiplications: -1.0 * a, and
 * a * copysign(1.0, a) for abs (exact for every number, -0.0 included; a NaN operand comes
 * out quieted with its sign). */
static bool sign_op(struct isel *s, const struct ir_insn *in)
{
	bool neg = in->op == IR_FNEG;
	if (!is_f64(in)) {
		struct mir_opnd ops[3] = {rd(s, in->res, 0),
		                          mir_imm(neg ? 0x80000000u : 0x7fffffffu),
		                          sel_vsrc_opnd(s, in->args[0], 0)};
		valu(s, neg ? AMD_OP_V_XOR_B32 : AMD_OP_V_AND_B32, 3, ops);
		return true;
	}
	struct mir_opnd f = mir_imm(0xbff00000u); /* inline -1.0 (f64: high half) */
	if (!neg) {
		uint32_t one = sel_new_vgpr(s, 2);
		struct mir_opnd lo[2] = {sel_sub(one, 0, 1), mir_imm(0)};
		valu(s, AMD_OP_V_MOV_B32, 2, lo);
		struct mir_opnd hi[4] = {sel_sub(one, 1, 1), mir_imm(0x80000000u),
		                         sel_vsrc_opnd(s, in->args[0], 1), mir_imm(0x3ff00000u)};
		valu(s, AMD_OP_V_BFI_B32, 4, hi);
		f = mir_vreg(one, 2);
	}
	struct mir_opnd ops[3] = {whole(s, in->res), src(s, in->args[0], true), f};
	valu(s, AMD_OP_V_MUL_F64, 3, ops);
	return true;
}

static bool fcmp(struct isel *s, const struct ir_insn *in)
{
	uint32_t d = sel_def(s, in->res);
	if (s->vals[in->res].loc == LOC_MASK) {
		sel_vcmp(s, in, mir_vreg(d, s->mask_dw));
		return true;
	}
	uint32_t m = sel_new_sgpr(s, s->mask_dw);
	sel_vcmp(s, in, mir_vreg(m, s->mask_dw));
	struct mir_opnd cmp[2] = {mir_vreg(m, s->mask_dw), mir_imm(0)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64), 2, cmp);
	struct mir_opnd sel[3] = {mir_vreg(d, 1), mir_imm(1), mir_imm(0)};
	sel_emit(s, AMD_OP_S_CSELECT_B32, 3, sel);
	return true;
}

/* One-source operations: conversions, rounding, transcendental approximations. */
static bool unary(struct isel *s, const struct ir_insn *in)
{
	enum ir_type st = (enum ir_type)s->ir->vals[in->args[0]].type;
	bool sw = st == IR_T_F64 || st == IR_T_I64;
	unsigned op = 0;
	unsigned round = in->aux & IR_FM_ROUND_MASK;
	switch (in->op) {
	case IR_ITOF_S:
	case IR_ITOF_U:
		if (st != IR_T_I32)
			return false;
		op = in->type == IR_T_F64
		             ? (in->op == IR_ITOF_S ? AMD_OP_V_CVT_F64_I32 : AMD_OP_V_CVT_F64_U32)
		             : (in->op == IR_ITOF_S ? AMD_OP_V_CVT_F32_I32 : AMD_OP_V_CVT_F32_U32);
		break;
	case IR_FTOI_S:
	case IR_FTOI_U:
		if (in->type != IR_T_I32 || ((in->aux >> 8) & 0xff) != 32)
			return false;
		op = st == IR_T_F64
		             ? (in->op == IR_FTOI_S ? AMD_OP_V_CVT_I32_F64 : AMD_OP_V_CVT_U32_F64)
		             : (in->op == IR_FTOI_S ? AMD_OP_V_CVT_I32_F32 : AMD_OP_V_CVT_U32_F32);
		break;
	case IR_FEXT:
		op = AMD_OP_V_CVT_F64_F32;
		break;
	case IR_FTRUNC:
		op = AMD_OP_V_CVT_F32_F64;
		break;
	case IR_FROUND: {
		static const unsigned r32[] = {AMD_OP_V_RNDNE_F32, AMD_OP_V_TRUNC_F32,
		                               AMD_OP_V_FLOOR_F32, AMD_OP_V_CEIL_F32};
		static const unsigned r64[] = {AMD_OP_V_RNDNE_F64, AMD_OP_V_TRUNC_F64,
		                               AMD_OP_V_FLOOR_F64, AMD_OP_V_CEIL_F64};
		op = sw ? r64[round] : r32[round];
		break;
	}
	case IR_FRCP:
		op = sw ? AMD_OP_V_RCP_F64 : AMD_OP_V_RCP_F32;
		break;
	case IR_FRSQ:
		op = sw ? AMD_OP_V_RSQ_F64 : AMD_OP_V_RSQ_F32;
		break;
	case IR_FSQRT:
		if (!(in->aux & IR_FM_APPROX) || sw)
			return false; /* sqrt.rn needs the correctly rounded sequence: not yet */
		op = AMD_OP_V_SQRT_F32;
		break;
	case IR_FEX2:
		op = AMD_OP_V_EXP_F32;
		break;
	case IR_FLG2:
		op = AMD_OP_V_LOG_F32;
		break;
	case IR_FSIN:
	case IR_FCOS: { /* the hardware takes revolutions: sin(2*pi*x) */
		uint32_t t = sel_new_vgpr(s, 1);
		struct mir_opnd m[3] = {mir_vreg(t, 1), mir_imm(0x3e22f983u),
		                        src(s, in->args[0], false)};
		valu(s, AMD_OP_V_MUL_F32, 3, m);
		struct mir_opnd ops[2] = {whole(s, in->res), mir_vreg(t, 1)};
		valu(s, in->op == IR_FSIN ? AMD_OP_V_SIN_F32 : AMD_OP_V_COS_F32, 2, ops);
		return true;
	}
	default:
		return false;
	}
	if (sw && (in->op == IR_FEX2 || in->op == IR_FLG2))
		return false;
	if ((in->aux & IR_FM_FTZ) && in->op != IR_FTOI_S && in->op != IR_FTOI_U)
		return false;
	struct mir_opnd d = whole(s, in->res);
	bool to_sgpr = s->vals[in->res].loc == LOC_SGPR; /* a uniform integer result */
	if (to_sgpr)
		d = mir_vreg(sel_new_vgpr(s, d.width), d.width);
	struct mir_opnd ops[2] = {d, src(s, in->args[0], sw)};
	/* cvt.r{z,m,p}.f32.{f64,s32,u32}: the conversion rounds in the MODE register's mode */
	static const unsigned hw_round[4] = {
	        [IR_FM_RN] = 0, [IR_FM_RP] = 1, [IR_FM_RM] = 2, [IR_FM_RZ] = 3};
	bool directed = round != IR_FM_RN &&
	                (in->op == IR_FTRUNC || in->op == IR_ITOF_S || in->op == IR_ITOF_U);
	if (directed)
		set_round_mode(s, hw_round[round]);
	struct mir_insn *mi = valu(s, op, 2, ops);
	if (directed)
		set_round_mode(s, 0);
	mi->clamp = (in->aux & IR_FM_SAT) && (in->op == IR_FEXT || in->op == IR_FTRUNC);
	for (unsigned w = 0; to_sgpr && w < d.width; w++) {
		struct mir_opnd rf[2] = {rd(s, in->res, w), sel_sub(d.v, w, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	}
	return true;
}

/* div.rn: correctly rounded division (f32 and f64); the directed roundings are built from it
 * in IR (build_round.c). */
static bool fdiv(struct isel *s, const struct ir_insn *in)
{
	if (!check_mods(s, in))
		return true;
	bool w = is_f64(in);
	unsigned sz = w ? 2 : 1;
	struct mir_opnd a = src(s, in->args[0], w), b = src(s, in->args[1], w);
	a = sel_to_vgpr(s, a);
	b = sel_to_vgpr(s, b);
	struct mir_opnd vcc =
	        mir_special(s->wave == 64 ? AMD_SPEC_VCC : AMD_SPEC_VCC_LO, s->mask_dw);
	uint32_t den = sel_new_vgpr(s, sz), num = sel_new_vgpr(s, sz), r = sel_new_vgpr(s, sz);
	uint32_t e = sel_new_vgpr(s, sz), r2 = sel_new_vgpr(s, sz), q = sel_new_vgpr(s, sz);
	uint32_t e2 = sel_new_vgpr(s, sz), q2 = sel_new_vgpr(s, sz), e3 = sel_new_vgpr(s, sz);
	uint32_t q3 = sel_new_vgpr(s, sz), junk = sel_new_sgpr(s, s->mask_dw);
	unsigned scale = w ? AMD_OP_V_DIV_SCALE_F64 : AMD_OP_V_DIV_SCALE_F32;
	unsigned fma = w ? AMD_OP_V_FMA_F64 : AMD_OP_V_FMA_F32;
	unsigned one = w ? 0x3ff00000u : 0x3f800000u; /* inline 1.0 (f64: high half) */
	struct mir_opnd o1[5] = {mir_vreg(den, sz), mir_vreg(junk, s->mask_dw), b, b, a};
	valu(s, scale, 5, o1);
	struct mir_opnd o2[5] = {mir_vreg(num, sz), vcc, a, b, a};
	valu(s, scale, 5, o2);
	struct mir_opnd o3[2] = {mir_vreg(r, sz), mir_vreg(den, sz)};
	valu(s, w ? AMD_OP_V_RCP_F64 : AMD_OP_V_RCP_F32, 2, o3);
	/* e = 1 - den*r ; r2 = r + e*r */
	struct mir_opnd o4[4] = {mir_vreg(e, sz), mir_vreg(den, sz), mir_vreg(r, sz), mir_imm(one)};
	valu(s, fma, 4, o4)->neg = 1;
	struct mir_opnd o5[4] = {mir_vreg(r2, sz), mir_vreg(e, sz), mir_vreg(r, sz),
	                         mir_vreg(r, sz)};
	valu(s, fma, 4, o5);
	uint32_t rr = r2;
	if (w) { /* f64: a second refinement */
		uint32_t ee = sel_new_vgpr(s, sz), r3 = sel_new_vgpr(s, sz);
		struct mir_opnd p1[4] = {mir_vreg(ee, sz), mir_vreg(den, sz), mir_vreg(r2, sz),
		                         mir_imm(one)};
		valu(s, fma, 4, p1)->neg = 1;
		struct mir_opnd p2[4] = {mir_vreg(r3, sz), mir_vreg(ee, sz), mir_vreg(r2, sz),
		                         mir_vreg(r2, sz)};
		valu(s, fma, 4, p2);
		rr = r3;
	}
	/* q = num*r ; e2 = num - den*q ; q2 = q + e2*r ; e3 = num - den*q2 */
	struct mir_opnd o6[3] = {mir_vreg(q, sz), mir_vreg(num, sz), mir_vreg(rr, sz)};
	valu(s, w ? AMD_OP_V_MUL_F64 : AMD_OP_V_MUL_F32, 3, o6);
	struct mir_opnd o7[4] = {mir_vreg(e2, sz), mir_vreg(den, sz), mir_vreg(q, sz),
	                         mir_vreg(num, sz)};
	valu(s, fma, 4, o7)->neg = 1;
	uint32_t qq = q, ee = e2;
	if (!w) {
		struct mir_opnd o8[4] = {mir_vreg(q2, sz), mir_vreg(e2, sz), mir_vreg(rr, sz),
		                         mir_vreg(q, sz)};
		valu(s, fma, 4, o8);
		struct mir_opnd o9[4] = {mir_vreg(e3, sz), mir_vreg(den, sz), mir_vreg(q2, sz),
		                         mir_vreg(num, sz)};
		valu(s, fma, 4, o9)->neg = 1;
		qq = q2;
		ee = e3;
	}
	struct mir_opnd f[4] = {mir_vreg(q3, sz), mir_vreg(ee, sz), mir_vreg(rr, sz),
	                        mir_vreg(qq, sz)};
	valu(s, w ? AMD_OP_V_DIV_FMAS_F64 : AMD_OP_V_DIV_FMAS_F32, 4, f);
	struct mir_opnd fx[4] = {whole(s, in->res), mir_vreg(q3, sz), b, a};
	valu(s, w ? AMD_OP_V_DIV_FIXUP_F64 : AMD_OP_V_DIV_FIXUP_F32, 4, fx);
	return true;
}

/* div.approx / div.full: a * rcp(b) */
static bool fdiv_approx(struct isel *s, const struct ir_insn *in)
{
	if (is_f64(in))
		return false;
	uint32_t r = sel_new_vgpr(s, 1);
	struct mir_opnd o1[2] = {mir_vreg(r, 1), src(s, in->args[1], false)};
	valu(s, AMD_OP_V_RCP_F32, 2, o1);
	struct mir_opnd o2[3] = {whole(s, in->res), src(s, in->args[0], false), mir_vreg(r, 1)};
	valu(s, AMD_OP_V_MUL_F32, 3, o2);
	return true;
}

bool sel_float(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_FADD:
	case IR_FSUB:
	case IR_FMUL:
	case IR_FMA:
		return arith(s, in);
	case IR_FMIN:
	case IR_FMAX:
		return minmax(s, in);
	case IR_FNEG:
	case IR_FABS:
		return sign_op(s, in);
	case IR_NEG:
	case IR_ABS:
		if (!ir_type_is_float((enum ir_type)in->type))
			return false;
		return sign_op(s, &(struct ir_insn){.op = in->op == IR_NEG ? IR_FNEG : IR_FABS,
		                                    .type = in->type,
		                                    .res = in->res,
		                                    .args = {in->args[0]}});
	case IR_FCMP:
		return fcmp(s, in);
	case IR_FDIV:
		return fdiv(s, in);
	case IR_FDIV_APPROX:
		return fdiv_approx(s, in);
	case IR_ITOF_S:
	case IR_ITOF_U:
	case IR_FTOI_S:
	case IR_FTOI_U:
	case IR_FEXT:
	case IR_FTRUNC:
	case IR_FROUND:
	case IR_FRCP:
	case IR_FRSQ:
	case IR_FSQRT:
	case IR_FEX2:
	case IR_FLG2:
	case IR_FSIN:
	case IR_FCOS:
		return unary(s, in);
	default:
		return false;
	}
}
