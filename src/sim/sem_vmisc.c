/* sem_vmisc: vector compares (VOPC, also as VOP3; v_cmpx writes EXEC), class tests, the
 * cross-lane moves (v_readlane, v_readfirstlane, v_writelane, v_permlane16/x16/64), the
 * cube-map face selection (v_cubeid/v_cubesc/v_cubetc/v_cubema).
 * One generic compare function serves every compare row: the row's `bytes` column selects
 * the operand type and `arg` the condition, so the table, not a switch, lists the compares.
 * complexity: O(lanes) per instruction. */
#include "valu.h"

enum cmp_type { T_F16, T_F32, T_F64, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64 };

static bool fcond(double a, double b, unsigned c)
{
	bool un = isnan(a) || isnan(b);
	switch (c) {
	case 0:
		return false;
	case 1:
		return a < b;
	case 2:
		return a == b;
	case 3:
		return a <= b;
	case 4:
		return a > b;
	case 5:
		return a < b || a > b;
	case 6:
		return a >= b;
	case 7:
		return !un;
	case 8:
		return un;
	case 9:
		return !(a >= b);
	case 10:
		return !(a < b || a > b);
	case 11:
		return !(a > b);
	case 12:
		return !(a <= b);
	case 13:
		return !(a == b);
	case 14:
		return !(a < b);
	default:
		return true;
	}
}

#define ICOND(a, b, c)                                                                             \
	((c) == 0   ? false                                                                        \
	 : (c) == 1 ? (a) < (b)                                                                    \
	 : (c) == 2 ? (a) == (b)                                                                   \
	 : (c) == 3 ? (a) <= (b)                                                                   \
	 : (c) == 4 ? (a) > (b)                                                                    \
	 : (c) == 5 ? (a) != (b)                                                                   \
	 : (c) == 6 ? (a) >= (b)                                                                   \
	            : true)

/* v_cmp_class: classify from the raw bits (a denormal f32 is a normal double, so no
 * conversion); mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0, 7 +denorm,
 * 8 +normal, 9 +inf. */
static bool class_test(uint64_t bits, unsigned ebits, unsigned mbits, uint32_t mask)
{
	bool neg = (bits >> (ebits + mbits)) & 1;
	uint64_t e = (bits >> mbits) & ((1ull << ebits) - 1), m = bits & ((1ull << mbits) - 1);
	unsigned bit;
	if (e == (1ull << ebits) - 1)
		bit = m ? (((m >> (mbits - 1)) & 1) ? 1 : 0) : (neg ? 2 : 9);
	else if (e == 0)
		bit = m ? (neg ? 4 : 7) : (neg ? 5 : 6);
	else
		bit = neg ? 3 : 8;
	return (mask >> bit) & 1;
}

static void write_cmp(struct sim_wave *w, const struct sim_insn *in, uint64_t res)
{
	bool cmpx = in->sem->flags & SEM_CMPX;
	if (!cmpx || w->ctx->gen < AMD_GFX10)
		sim_vwrite_lanemask(w, in, in->sdst, res);
	if (cmpx) {
		sim_chk_write_s(w, in, SIM_EXEC, 2);
		sim_set_exec(w, res);
	}
}

static void vcmp(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned t = in->sem->bytes, c = in->sem->arg;
	/* The operand width picks the inline constants' bit patterns (f16, f32 or f64) and the
	 * sign bit that neg/abs act on; the enum is not ordered by width. */
	unsigned bits = (t == T_F64 || t == T_I64 || t == T_U64)   ? 64
	                : (t == T_F16 || t == T_I16 || t == T_U16) ? 16
	                                                           : 32;
	bool fl = t <= T_F64;
	struct vsrc s0, s1;
	sim_vsrc(w, in, 0, bits, fl, &s0);
	sim_vsrc(w, in, 1, bits, fl, &s1);
	uint64_t exec = sim_exec(w), res = 0;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		bool r;
		switch (t) {
		case T_F16:
			r = fcond(vf16(&s0, l), vf16(&s1, l), c);
			break;
		case T_F32:
			r = fcond(vf32(&s0, l, false), vf32(&s1, l, false), c);
			break;
		case T_F64:
			r = fcond(vf64(&s0, l, false), vf64(&s1, l, false), c);
			break;
		case T_I16:
			r = ICOND((int16_t)vs32(&s0, l), (int16_t)vs32(&s1, l), c);
			break;
		case T_U16:
			r = ICOND((uint16_t)vs32(&s0, l), (uint16_t)vs32(&s1, l), c);
			break;
		case T_I32:
			r = ICOND((int32_t)vs32(&s0, l), (int32_t)vs32(&s1, l), c);
			break;
		case T_U32:
			r = ICOND(vs32(&s0, l), vs32(&s1, l), c);
			break;
		case T_I64:
			r = ICOND((int64_t)vs64(&s0, l), (int64_t)vs64(&s1, l), c);
			break;
		default:
			r = ICOND(vs64(&s0, l), vs64(&s1, l), c);
			break;
		}
		res |= (uint64_t)r << l;
	}
	write_cmp(w, in, res);
}

static void vcmp_class(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned t = in->sem->bytes;
	unsigned bits = t == T_F64 ? 64 : t == T_F16 ? 16 : 32;
	struct vsrc s0, s1;
	sim_vsrc(w, in, 0, bits, true, &s0);
	sim_vsrc(w, in, 1, 32, false, &s1);
	uint64_t exec = sim_exec(w), res = 0;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t mask = vs32(&s1, l);
		bool r;
		if (t == T_F64)
			r = class_test((vs64(&s0, l) & ~((uint64_t)s0.absm << 32)) ^
			                       ((uint64_t)s0.negm << 32),
			               11, 52, mask);
		else if (t == T_F16)
			r = class_test(((vs32(&s0, l) & ~s0.absm) ^ s0.negm) & 0xffff, 5, 10, mask);
		else
			r = class_test((vs32(&s0, l) & ~s0.absm) ^ s0.negm, 8, 23, mask);
		res |= (uint64_t)r << l;
	}
	write_cmp(w, in, res);
}

/* v_readfirstlane_b32 / v_readlane_b32: the destination field names an SGPR */
static uint16_t sdst_of(const struct sim_wave *w, const struct sim_insn *in)
{
	uint16_t code = (uint16_t)(in->dst - SIM_VGPR0);
	if (w->ctx->gen >= AMD_GFX11 && (code == 124 || code == 125))
		return code == 124 ? (uint16_t)SIM_NULL : (uint16_t)SIM_M0;
	return code;
}

static void v_readfirstlane_b32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vsrc s0;
	sim_vsrc(w, in, 0, 32, false, &s0);
	uint64_t exec = sim_exec(w);
	unsigned lane = exec ? (unsigned)__builtin_ctzll(exec) : 0;
	sim_wr_s32(w, sdst_of(w, in), vs32(&s0, lane));
}

static void v_readlane_b32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vsrc s0;
	sim_vsrc(w, in, 0, 32, false, &s0);
	uint32_t lane = sim_rd_s32(w, in, in->src[1]) & (w->nlanes - 1);
	sim_wr_s32(w, sdst_of(w, in), vs32(&s0, lane));
}

static void v_writelane_b32(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t val = sim_rd_s32(w, in, in->src[0]);
	uint32_t lane = sim_rd_s32(w, in, in->src[1]) & (w->nlanes - 1);
	unsigned reg = in->dst - SIM_VGPR0;
	sim_chk_write_v(w, in, reg, 1);
	VROW(w, reg)[lane] = val;
}

/* v_permlane16_b32 / v_permlanex16_b32: lane l of each 16-lane row reads src0 of lane
 * sel[l % 16] (nibbles of {src2, src1}) of its own row, or (x16) of the other row of its
 * 32-lane pair.  op_sel[0] FI: an inactive source lane is read too; else it writes 0
 * (op_sel[1] BOUND_CTRL) or leaves the destination lane alone.  Sources are read before
 * any lane is written (vdst may be src0). */
static void permlane16(struct sim_wave *w, const struct sim_insn *in, bool cross)
{
	struct vsrc s0;
	sim_vsrc(w, in, 0, 32, false, &s0);
	uint64_t sel =
	        (uint64_t)sim_rd_s32(w, in, in->src[2]) << 32 | sim_rd_s32(w, in, in->src[1]);
	bool fi = in->opsel & 1, bound = (in->opsel >> 1) & 1;
	uint64_t exec = sim_exec(w);
	uint32_t tmp[SIM_WAVE_STRIDE];
	for (unsigned l = 0; l < w->nlanes; l++)
		tmp[l] = vs32(&s0, l);
	unsigned reg = in->dst - SIM_VGPR0;
	sim_chk_write_v(w, in, reg, 1);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		unsigned from = ((l & ~15u) ^ (cross ? 16u : 0u)) | ((sel >> (4 * (l & 15))) & 15);
		if (fi || ((exec >> from) & 1))
			VROW(w, reg)[l] = tmp[from];
		else if (bound)
			VROW(w, reg)[l] = 0;
	}
}

static void v_permlane16_b32(struct sim_wave *w, const struct sim_insn *in)
{
	permlane16(w, in, false);
}

static void v_permlanex16_b32(struct sim_wave *w, const struct sim_insn *in)
{
	permlane16(w, in, true);
}

/* v_permlane64_b32: wave64 lane l reads lane l ^ 32 whether that lane is active or not;
 * nothing on wave32. */
static void v_permlane64_b32(struct sim_wave *w, const struct sim_insn *in)
{
	if (w->nlanes != 64)
		return;
	struct vsrc s0;
	sim_vsrc(w, in, 0, 32, false, &s0);
	uint32_t tmp[SIM_WAVE_STRIDE];
	for (unsigned l = 0; l < 64; l++)
		tmp[l] = vs32(&s0, l);
	unsigned reg = in->dst - SIM_VGPR0;
	sim_chk_write_v(w, in, reg, 1);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		VROW(w, reg)[l] = tmp[l ^ 32];
	}
}

/* The cube-map face selection of V_CUBEID/SC/TC/MA_F32, as the pseudo-code of AMD's ISA
 * documents states it (the same on Vega/CDNA and RDNA 1-4): the major axis is z when |z| >= |x|
 * and |z| >= |y|, else y when |y| >= |x|, else x (a NaN compares false, so it falls through
 * to x); -0.0 counts as positive (the tests are `< 0`).  S0, S1, S2 are x, y, z. */
enum cube_axis { CUBE_X, CUBE_Y, CUBE_Z };

static enum cube_axis cube_major(float x, float y, float z)
{
	if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y))
		return CUBE_Z;
	return fabsf(y) >= fabsf(x) ? CUBE_Y : CUBE_X;
}

/* the face: 0/1 +x/-x, 2/3 +y/-y, 4/5 +z/-z */
static float cube_id(float x, float y, float z)
{
	switch (cube_major(x, y, z)) {
	case CUBE_Z:
		return z < 0 ? 5.0f : 4.0f;
	case CUBE_Y:
		return y < 0 ? 3.0f : 2.0f;
	default:
		return x < 0 ? 1.0f : 0.0f;
	}
}

/* the s numerator (OpenGL's sc) */
static float cube_sc(float x, float y, float z)
{
	switch (cube_major(x, y, z)) {
	case CUBE_Z:
		return z < 0 ? -x : x;
	case CUBE_Y:
		return x;
	default:
		return x < 0 ? z : -z;
	}
}

/* the t numerator (OpenGL's tc) */
static float cube_tc(float x, float y, float z)
{
	switch (cube_major(x, y, z)) {
	case CUBE_Y:
		return y < 0 ? -z : z;
	default:
		return -y;
	}
}

/* twice the major axis coordinate, signed */
static float cube_ma(float x, float y, float z)
{
	switch (cube_major(x, y, z)) {
	case CUBE_Z:
		return 2.0f * z;
	case CUBE_Y:
		return 2.0f * y;
	default:
		return 2.0f * x;
	}
}

VF32(v_cubeid_f32, 3, cube_id(a, b, c))
VF32(v_cubesc_f32, 3, cube_sc(a, b, c))
VF32(v_cubetc_f32, 3, cube_tc(a, b, c))
VF32(v_cubema_f32, 3, cube_ma(a, b, c))

/* AGPRs (gfx90a/gfx942) live in rows 256..511 of the wave's register file. */
static void v_accvgpr_read_b32(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned a = 256 + (in->src[0] - SIM_VGPR0) % 256, d = in->dst - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, a, 1);
	sim_chk_write_v(w, in, d, 1);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		VROW(w, d)[l] = VROW(w, a)[l];
	}
}

static void v_accvgpr_write_b32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vsrc s0;
	unsigned a = 256 + (in->dst - SIM_VGPR0);
	sim_vsrc(w, in, 0, 32, false, &s0);
	sim_chk_write_v(w, in, a, 1);
	uint64_t exec = sim_exec(w);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		VROW(w, a)[l] = vs32(&s0, l);
	}
}

static void v_accvgpr_mov_b32(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned a = 256 + (in->src[0] - SIM_VGPR0) % 256, d = 256 + (in->dst - SIM_VGPR0);
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, a, 1);
	sim_chk_write_v(w, in, d, 1);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		VROW(w, d)[l] = VROW(w, a)[l];
	}
}

#define CMPF(ty, tid, x)                                                                           \
	{"v_cmp" x "_f_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 0},                   \
	        {"v_cmp" x "_lt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 1},          \
	        {"v_cmp" x "_eq_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 2},          \
	        {"v_cmp" x "_le_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 3},          \
	        {"v_cmp" x "_gt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 4},          \
	        {"v_cmp" x "_lg_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 5},          \
	        {"v_cmp" x "_ge_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 6},          \
	        {"v_cmp" x "_o_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 7},           \
	        {"v_cmp" x "_u_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 8},           \
	        {"v_cmp" x "_nge_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 9},         \
	        {"v_cmp" x "_nlg_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 10},        \
	        {"v_cmp" x "_ngt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 11},        \
	        {"v_cmp" x "_nle_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 12},        \
	        {"v_cmp" x "_neq_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 13},        \
	        {"v_cmp" x "_nlt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 14},        \
	        {"v_cmp" x "_tru_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 15},        \
	        {"v_cmp" x "_t_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 15},          \
	{                                                                                          \
		"v_cmp" x "_class_" ty, vcmp_class, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 0    \
	}

#define CMPI(ty, tid, x)                                                                           \
	{"v_cmp" x "_f_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 0},                   \
	        {"v_cmp" x "_lt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 1},          \
	        {"v_cmp" x "_eq_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 2},          \
	        {"v_cmp" x "_le_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 3},          \
	        {"v_cmp" x "_gt_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 4},          \
	        {"v_cmp" x "_ne_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 5},          \
	        {"v_cmp" x "_lg_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 5},          \
	        {"v_cmp" x "_ge_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 6},          \
	        {"v_cmp" x "_t_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 7},           \
	{                                                                                          \
		"v_cmp" x "_tru_" ty, vcmp, SIM_CLASS_VALU, 0, SEM_VALU | CX(x), tid, 7            \
	}

#define CX(x) (sizeof(x) > 1 ? SEM_CMPX : 0)

static const struct sim_sem vmisc_sems[] = {
        CMPF("f16", T_F16, ""),
        CMPF("f32", T_F32, ""),
        CMPF("f64", T_F64, ""),
        CMPF("f16", T_F16, "x"),
        CMPF("f32", T_F32, "x"),
        CMPF("f64", T_F64, "x"),
        CMPI("i16", T_I16, ""),
        CMPI("u16", T_U16, ""),
        CMPI("i32", T_I32, ""),
        CMPI("u32", T_U32, ""),
        CMPI("i64", T_I64, ""),
        CMPI("u64", T_U64, ""),
        CMPI("i16", T_I16, "x"),
        CMPI("u16", T_U16, "x"),
        CMPI("i32", T_I32, "x"),
        CMPI("u32", T_U32, "x"),
        CMPI("i64", T_I64, "x"),
        CMPI("u64", T_U64, "x"),
        {"v_accvgpr_read_b32", v_accvgpr_read_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_accvgpr_write_b32", v_accvgpr_write_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_accvgpr_mov_b32", v_accvgpr_mov_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_readfirstlane_b32", v_readfirstlane_b32, SIM_CLASS_VALU, 0, SEM_VALU | SEM_READLANE, 0,
         0},
        {"v_readlane_b32", v_readlane_b32, SIM_CLASS_VALU, 0, SEM_VALU | SEM_READLANE, 0, 0},
        {"v_writelane_b32", v_writelane_b32, SIM_CLASS_VALU, 0, SEM_VALU | SEM_READLANE, 0, 0},
        {"v_permlane16_b32", v_permlane16_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_permlanex16_b32", v_permlanex16_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_permlane64_b32", v_permlane64_b32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_cubeid_f32", v_cubeid_f32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_cubesc_f32", v_cubesc_f32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_cubetc_f32", v_cubetc_f32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
        {"v_cubema_f32", v_cubema_f32, SIM_CLASS_VALU, 0, SEM_VALU, 0, 0},
};

const struct sim_sem *sim_sems_vmisc(unsigned *n)
{
	*n = sizeof vmisc_sems / sizeof vmisc_sems[0];
	return vmisc_sems;
}
