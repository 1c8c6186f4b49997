/* sem_valu: semantics of the 32/64-bit vector ALU arithmetic (VOP1, VOP2, VOP3, VOP3B, VOPD
 * halves): integer, carry, f32, f64, conversions, transcendentals, division helpers, packed
 * f32.  Operand fetch and the lane-loop generators are in valu.h / valu.c.
 * Floating point is computed with the host's IEEE arithmetic in round-to-nearest-even;
 * denormal flushing follows the MODE register.  Transcendentals (v_exp/log/rcp/rsq/sqrt/sin/
 * cos) are computed exactly rounded, which is at least as accurate as the hardware's
 * documented 1 ulp (see docs/SIMULATOR.md).
 * complexity: O(lanes) per instruction. */
#include "valu.h"

#include <fenv.h>
#include <float.h>

/* carry-in source (VCC for e32, SGPR operand src2 for VOP3) */
static uint64_t carry_in(struct sim_wave *w, const struct sim_insn *in)
{
	uint16_t code = in->vop3 ? in->src[2] : (uint16_t)SIM_VCC;
	if (w->nlanes == 64)
		return sim_rd_s64(w, in, code, false);
	return sim_rd_s32(w, in, code);
}

static uint16_t carry_out_dst(const struct sim_insn *in)
{
	return in->vop3 ? in->sdst : (uint16_t)SIM_VCC;
}

static uint32_t sat_f2u(double x)
{
	if (isnan(x) || x <= 0)
		return 0;
	return x >= 4294967295.0 ? 0xffffffffu : (uint32_t)x;
}
static uint32_t sat_f2i(double x)
{
	if (isnan(x))
		return 0;
	if (x <= -2147483648.0)
		return 0x80000000u;
	return x >= 2147483647.0 ? 0x7fffffffu : (uint32_t)(int32_t)x;
}

/* float results of conversions: the VOP3 output modifiers (omod, clamp) apply as for arithmetic */
static uint32_t fo32(const struct sim_wave *w, const struct sim_insn *in, float r)
{
	return sim_f32_bits(sim_fout32(w, in, r));
}
static uint64_t fo64(const struct sim_wave *w, const struct sim_insn *in, double r)
{
	return sim_f64_bits(sim_fout64(w, in, r));
}

static uint32_t u24(uint32_t x)
{
	return x & 0xffffff;
}
static int64_t i24(uint32_t x)
{
	return (int32_t)(x << 8) >> 8;
}

static double fmin_hw(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b;
}
static double fmax_hw(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b;
}
/* V_MED3_F32 as the ISA pseudo-code (GCN and RDNA alike): with any NaN operand the minimum of
 * the three (min(min(a, b), c), a quiet NaN yielding the other operand); otherwise the larger
 * of the two operands that are not the maximum. */
static float med3f(float a, float b, float c, bool ieee)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return fminf_mode(fminf_mode(a, b, ieee), c, ieee);
	float m = fmaxf_hw(fmaxf_hw(a, b), c);
	if (m == a)
		return fmaxf_hw(b, c);
	if (m == b)
		return fmaxf_hw(a, c);
	return fmaxf_hw(a, b);
}
static uint32_t bfe_u(uint32_t a, uint32_t off, uint32_t width)
{
	off &= 31;
	width &= 31;
	if (!width)
		return 0;
	if (off + width < 32)
		return (a << (32 - off - width)) >> (32 - width);
	return a >> off;
}
static uint32_t bfe_i(uint32_t a, uint32_t off, uint32_t width)
{
	off &= 31;
	width &= 31;
	if (!width)
		return 0;
	if (off + width < 32)
		return (uint32_t)((int32_t)(a << (32 - off - width)) >> (32 - width));
	return (uint32_t)((int32_t)a >> off);
}
static uint32_t ffbh_u32(uint32_t a)
{
	return a ? (uint32_t)__builtin_clz(a) : 0xffffffffu;
}
static uint32_t ffbl(uint32_t a)
{
	return a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu;
}
static uint32_t ffbh_i32(uint32_t a)
{
	uint32_t x = (int32_t)a < 0 ? ~a : a;
	return x ? (uint32_t)__builtin_clz(x) : 0xffffffffu;
}
static uint32_t brev(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((v >> i) & 1) << (31 - i);
	return r;
}
static uint32_t perm_byte(uint64_t src, unsigned sel)
{
	if (sel < 8)
		return (uint32_t)(src >> (8 * sel)) & 0xff;
	if (sel >= 13)
		return sel == 12 ? 0 : 0xff;
	switch (sel) {
	case 8:
		return (src >> 15) & 1 ? 0xff : 0;
	case 9:
		return (src >> 31) & 1 ? 0xff : 0;
	case 10:
		return (src >> 47) & 1 ? 0xff : 0;
	case 11:
		return (src >> 63) & 1 ? 0xff : 0;
	default:
		return 0;
	}
}
static uint32_t v_perm(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t src = (uint64_t)a << 32 | b;
	uint32_t r = 0;
	for (int i = 0; i < 4; i++) {
		unsigned sel = (c >> (8 * i)) & 0xff;
		r |= (sel == 12 ? 0 : sel > 12 ? 0xff : perm_byte(src, sel)) << (8 * i);
	}
	return r;
}
static uint32_t alignbit(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
}

static float frexp_mant32(float a)
{
	int e;
	return isinf(a) || isnan(a) ? quiet32(a) : frexpf(a, &e);
}
static uint32_t frexp_exp32(float a)
{
	int e = 0;
	if (isinf(a) || isnan(a))
		return 0;
	frexpf(a, &e);
	return (uint32_t)e;
}
static double frexp_mant64(double a)
{
	int e;
	return isinf(a) || isnan(a) ? quiet_nan64(a) : frexp(a, &e);
}
static uint32_t frexp_exp64(double a)
{
	int e = 0;
	if (isinf(a) || isnan(a))
		return 0;
	frexp(a, &e);
	return (uint32_t)e;
}
static float fract32(float a)
{
	float f = a - floorf(a);
	return isnan(a) ? quiet32(a) : isinf(a) ? NAN : fminf(f, 0x1.fffffep-1f);
}
static double fract64(double a)
{
	double f = a - floor(a);
	return isnan(a) ? quiet_nan64(a) : isinf(a) ? NAN : fmin(f, 0x1.fffffffffffffp-1);
}
static float rcp32(float a)
{
	return 1.0f / a;
}
static float rsq32(float a)
{
	return (float)(1.0 / sqrt((double)a));
}
static float sin32(float a)
{
	return (float)sin((double)a * 6.283185307179586);
}
static float cos32(float a)
{
	return (float)cos((double)a * 6.283185307179586);
}
static float exp2_32(float a)
{
	return (float)exp2((double)a);
}
static float log2_32(float a)
{
	return (float)log2((double)a);
}

/* v_div_scale (ISA manual pseudo-code, exponent tests on S1 = denominator, S2 = numerator):
 * scales the operand S0 (called once with S0 = denominator, once with S0 = numerator) so the
 * reciprocal iteration neither overflows nor underflows; VCC says the quotient came out scaled
 * and v_div_fmas must undo it. One deviation from the manual's text, decided by running
 * clang-19's correctly rounded division (tests/kernels fdiv_f32_cr, fdiv_f64, huge divisors):
 * when 1/S1 and S2/S1 are both subnormal the manual scales the denominator UP by 2^64 (2^128),
 * which overflows any such denominator (> 2^126 resp. 2^1022) to infinity and makes the
 * quotient NaN; it must be scaled down, leaving the quotient 2^64 (2^128) too large for
 * v_div_fmas to scale back. `bias` is 64 (f32) or 128 (f64), `dexp` the exponent difference
 * limit 96 (768), `tiny` the manual's biased-exponent limit 23 (53) as a frexp exponent. */
struct div_scale_fmt {
	int bias, dexp, tiny;
};

static double div_scale(double s0, double s1, double s2, bool inv_sub, bool quo_sub, bool s1_sub,
                        const struct div_scale_fmt *fmt, bool *vcc)
{
	int e1, e2;
	frexp(s1, &e1);
	frexp(s2, &e2);
	*vcc = false;
	if (s2 == 0 || s1 == 0 || isnan(s1) || isnan(s2) || isinf(s1) || isinf(s2))
		return NAN;
	if (e2 - e1 >= fmt->dexp) { /* quotient near overflow: denominator up */
		*vcc = true;
		return s0 == s1 ? ldexp(s0, fmt->bias) : s0;
	}
	if (s1_sub)
		return ldexp(s0, fmt->bias);
	if (inv_sub && quo_sub) { /* huge denominator, subnormal quotient: denominator down */
		*vcc = true;
		return s0 == s1 ? ldexp(s0, -fmt->bias) : s0;
	}
	if (inv_sub)
		return ldexp(s0, -fmt->bias);
	if (quo_sub) { /* subnormal quotient: numerator up */
		*vcc = true;
		return s0 == s2 ? ldexp(s0, fmt->bias) : s0;
	}
	if (e2 <= fmt->tiny)
		return ldexp(s0, fmt->bias);
	return s0;
}

static double div_scale64(double s0, double s1, double s2, bool *vcc)
{
	static const struct div_scale_fmt fmt = {128, 768, 53 - 1022};
	return div_scale(s0, s1, s2, fpclassify(1.0 / s1) == FP_SUBNORMAL,
	                 fpclassify(s2 / s1) == FP_SUBNORMAL, fpclassify(s1) == FP_SUBNORMAL, &fmt,
	                 vcc);
}

static float div_scale32(float s0, float s1, float s2, bool *vcc)
{
	static const struct div_scale_fmt fmt = {64, 96, 23 - 126};
	return (float)div_scale(s0, s1, s2, fpclassify(1.0f / s1) == FP_SUBNORMAL,
	                        fpclassify(s2 / s1) == FP_SUBNORMAL, fpclassify(s1) == FP_SUBNORMAL,
	                        &fmt, vcc);
}

static void v_div_scale_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(3, 32, true, 32, false)
	uint64_t vcc = 0;
	FOR_LANES(v)
	{
		bool f;
		d[l] = sim_f32_bits(div_scale32(vf32(&s0, l, false), vf32(&s1, l, false),
		                                vf32(&s2, l, false), &f));
		vcc |= (uint64_t)f << l;
	}
	sim_vwrite_lanemask(w, in, in->sdst, vcc);
}

static void v_div_scale_f64(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(3, 64, true, 64, true)
	uint64_t vcc = 0;
	FOR_LANES(v)
	{
		bool f;
		uint64_t r = sim_f64_bits(div_scale64(vf64(&s0, l, false), vf64(&s1, l, false),
		                                      vf64(&s2, l, false), &f));
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)(r >> 32);
		vcc |= (uint64_t)f << l;
	}
	sim_vwrite_lanemask(w, in, in->sdst, vcc);
}

static uint64_t vcc_for_fmas(struct sim_wave *w, const struct sim_insn *in)
{
	if (w->nlanes == 64)
		return sim_rd_s64(w, in, SIM_VCC, false);
	return sim_rd_s32(w, in, SIM_VCC);
}

/* v_div_fmas with VCC set scales by 2^+bias when the scaled quotient S2 has |S2| >= 2 (the
 * quotient came out small: denominator scaled up) and by 2^-bias otherwise (numerator scaled up
 * or denominator scaled down for a subnormal quotient). The manuals' pseudo-code prints a fixed
 * 2^32 (2^64), which neither undoes v_div_scale's 2^64 (2^128) nor handles subnormal quotients;
 * clang-19's correctly rounded division in tests/kernels decides. */
static int fmas_scale(double s2, int bias)
{
	return fabs(s2) >= 2.0 ? bias : -bias;
}

/* The scaled fma rounds once (the ISA's V_DIV_FMAS is fma(S0, S1, S2) * 2^k as one operation):
 * the exact a * b + c is rounded to odd at a precision at least two bits wider than the
 * destination's (53 bits for f32, long double's 64 for f64), scaled exactly in that wider
 * range, then rounded once (in the MODE rounding mode) by the narrowing conversion, which rounds a
 * subnormal result to the subnormal grid.  Rounding to odd (truncate, then set the last bit
 * when inexact) makes the second rounding equal to one rounding of the exact value. */
_Static_assert(LDBL_MANT_DIG >= 55 && LDBL_MAX_EXP > 1024 + 128, "long double too narrow");

static double fma_odd(double a, double b, double c)
{
	int mode = fegetround();
	fesetround(FE_TOWARDZERO);
	feclearexcept(FE_INEXACT);
	volatile double rz = fma(a, b, c);
	bool inexact = fetestexcept(FE_INEXACT) != 0;
	fesetround(FE_TONEAREST); /* the tie below rounds to the even one of rz, up */
	double up = nextafter(rz, copysign(INFINITY, rz));
	double odd = !inexact || !isfinite(rz) || isinf(up) || rz + (up - rz) / 2 != rz ? rz : up;
	fesetround(mode);
	return odd;
}

static long double fma_odd_l(long double a, long double b, long double c)
{
	int mode = fegetround();
	fesetround(FE_TOWARDZERO);
	feclearexcept(FE_INEXACT);
	volatile long double rz = fmal(a, b, c);
	bool inexact = fetestexcept(FE_INEXACT) != 0;
	fesetround(FE_TONEAREST);
	long double up = nextafterl(rz, copysignl(INFINITY, rz));
	long double odd =
	        !inexact || !isfinite(rz) || isinf(up) || rz + (up - rz) / 2 != rz ? rz : up;
	fesetround(mode);
	return odd;
}

/* f32 operands: a * b is exact in double, so only the sum rounds (to odd) */
static float fmas_scaled32(float a, float b, float c)
{
	return (float)ldexp(fma_odd(a, b, c), fmas_scale(c, 64));
}

static double fmas_scaled64(double a, double b, double c)
{
	return (double)ldexpl(fma_odd_l(a, b, c), fmas_scale(c, 128));
}

static void v_div_fmas_f32(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t vcc = vcc_for_fmas(w, in);
	V_BEGIN(3, 32, true, 32, false)
	FOR_LANES(v)
	{
		float a = vf32(&s0, l, v.ftz_in), b = vf32(&s1, l, v.ftz_in);
		float c = vf32(&s2, l, v.ftz_in);
		float r = (vcc >> l) & 1 ? fmas_scaled32(a, b, c) : fmaf(a, b, c);
		d[l] = ftz32(sim_fout32(w, in, r), v.ftz_out);
	}
}

static void v_div_fmas_f64(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t vcc = vcc_for_fmas(w, in);
	V_BEGIN(3, 64, true, 64, true)
	FOR_LANES(v)
	{
		double x = vf64(&s0, l, v.ftz_in), y = vf64(&s1, l, v.ftz_in);
		double z = vf64(&s2, l, v.ftz_in);
		double r = (vcc >> l) & 1 ? fmas_scaled64(x, y, z) : fma(x, y, z);
		uint64_t b = ftz64(sim_fout64(w, in, r), v.ftz_out);
		d[l] = (uint32_t)b;
		dh[l] = (uint32_t)(b >> 32);
	}
}

/* v_div_fixup: special cases of s1 / s2 (s0 = quotient estimate). `umin` is the exponent
 * difference below which the quotient rounds to zero (-150 for f32, -1075 for f64): the scaled
 * iteration may have overflowed there (a tiny numerator scaled up, a huge denominator with it). */
static double div_fixup(double q, double den, double num, int umin)
{
	if (isnan(den) || isnan(num))
		return quiet_nan64(isnan(den) ? den : num);
	if (den == 0 && num == 0)
		return NAN;
	if (isinf(den) && isinf(num))
		return NAN;
	bool neg = signbit(den) != signbit(num);
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0 : 0.0;
	int eden, enumr;
	frexp(den, &eden);
	frexp(num, &enumr);
	/* |num / den| < 2^(enumr - eden + 1): below half the least subnormal */
	if (enumr - eden < umin)
		return neg ? -0.0 : 0.0;
	if (isnan(q)) /* the scaled iteration overflowed (inf - inf): the quotient overflows */
		return neg ? -INFINITY : INFINITY;
	return neg ? -fabs(q) : fabs(q);
}

VF32(v_div_fixup_f32, 3, (float)div_fixup(a, b, c, -150))
VF64(v_div_fixup_f64, 3, div_fixup(a, b, c, -1075))

/* ---- integer ---- */
VU32(v_mov_b32, 1, a)
VU32(v_not_b32, 1, ~a)
VU32(v_bfrev_b32, 1, brev(a))
VU32(v_ffbh_u32, 1, ffbh_u32(a))
VU32(v_ffbl_b32, 1, ffbl(a))
VU32(v_ffbh_i32, 1, ffbh_i32(a))
/* integer add/sub: the VOP3 clamp bit saturates (unsigned for _u32, signed for _i32) */
static uint32_t usat(int64_t v, bool clamp)
{
	if (!clamp)
		return (uint32_t)v;
	return v < 0 ? 0 : v > 0xffffffffll ? 0xffffffffu : (uint32_t)v;
}
static uint32_t ssat(int64_t v, bool clamp)
{
	if (!clamp)
		return (uint32_t)v;
	return v < INT32_MIN ? 0x80000000u : v > INT32_MAX ? 0x7fffffffu : (uint32_t)v;
}
VU32(v_add_u32, 2, usat((int64_t)a + b, in->clamp))
VU32(v_sub_u32, 2, usat((int64_t)a - b, in->clamp))
VU32(v_subrev_u32, 2, usat((int64_t)b - a, in->clamp))
VU32(v_add_i32, 2, ssat((int64_t)(int32_t)a + (int32_t)b, in->clamp))
VU32(v_sub_i32, 2, ssat((int64_t)(int32_t)a - (int32_t)b, in->clamp))
VU32(v_mul_lo_u32, 2, a *b)
VU32(v_mul_hi_u32, 2, (uint32_t)(((uint64_t)a * b) >> 32))
VU32(v_mul_hi_i32, 2, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
VU32(v_mul_u32_u24, 2, u24(a) * u24(b))
VU32(v_mul_hi_u32_u24, 2, (uint32_t)(((uint64_t)u24(a) * u24(b)) >> 32))
VU32(v_mul_i32_i24, 2, (uint32_t)(i24(a) * i24(b)))
VU32(v_mul_hi_i32_i24, 2, (uint32_t)((uint64_t)(i24(a) * i24(b)) >> 32))
VU32(v_min_i32, 2, (int32_t)a < (int32_t)b ? a : b)
VU32(v_max_i32, 2, (int32_t)a > (int32_t)b ? a : b)
VU32(v_min_u32, 2, a < b ? a : b)
VU32(v_max_u32, 2, a > b ? a : b)
VU32(v_lshlrev_b32, 2, b << (a & 31))
VU32(v_lshrrev_b32, 2, b >> (a & 31))
VU32(v_ashrrev_i32, 2, (uint32_t)((int32_t)b >> (a & 31)))
VU32(v_and_b32, 2, a &b)
VU32(v_or_b32, 2, a | b)
VU32(v_xor_b32, 2, a ^ b)
VU32(v_xnor_b32, 2, ~(a ^ b))
VU32(v_bfm_b32, 2, ((1u << (a & 31)) - 1) << (b & 31))
VU32(v_bcnt_u32_b32, 2, (uint32_t)__builtin_popcount(a) + b)
VU32(v_mad_u32_u24, 3, u24(a) * u24(b) + c)
VU32(v_mad_i32_i24, 3, (uint32_t)(i24(a) * i24(b)) + c)
VU32(v_mad_u32_u16, 3, (a & 0xffff) * (b & 0xffff) + c)
VU32(v_bfe_u32, 3, bfe_u(a, b, c))
VU32(v_bfe_i32, 3, bfe_i(a, b, c))
VU32(v_bfi_b32, 3, (a & b) | (~a & c))
VU32(v_alignbit_b32, 3, alignbit(a, b, c))
VU32(v_alignbyte_b32, 3, alignbit(a, b, (c & 3) * 8))
VU32(v_perm_b32, 3, v_perm(a, b, c))
VU32(v_lshl_add_u32, 3, (a << (b & 31)) + c)
VU32(v_add_lshl_u32, 3, (a + b) << (c & 31))
VU32(v_lshl_or_b32, 3, (a << (b & 31)) | c)
VU32(v_and_or_b32, 3, (a & b) | c)
VU32(v_or3_b32, 3, a | b | c)
VU32(v_xor3_b32, 3, a ^ b ^ c)
VU32(v_add3_u32, 3, a + b + c)
VU32(v_mul_lo_i32, 2, a *b)
VU32(v_min3_i32, 3,
     (uint32_t)((int32_t)a < (int32_t)b ? ((int32_t)a < (int32_t)c ? a : c)
                                        : ((int32_t)b < (int32_t)c ? b : c)))
VU32(v_max3_i32, 3,
     (uint32_t)((int32_t)a > (int32_t)b ? ((int32_t)a > (int32_t)c ? a : c)
                                        : ((int32_t)b > (int32_t)c ? b : c)))
VU32(v_min3_u32, 3, a < b ? (a < c ? a : c) : (b < c ? b : c))
VU32(v_max3_u32, 3, a > b ? (a > c ? a : c) : (b > c ? b : c))
VU32(v_med3_i32, 3,
     (uint32_t)((int32_t)a > (int32_t)b
                        ? ((int32_t)b > (int32_t)c ? b : ((int32_t)a > (int32_t)c ? c : a))
                        : ((int32_t)a > (int32_t)c ? a : ((int32_t)b > (int32_t)c ? c : b))))
VU32(v_med3_u32, 3, a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b)))
VU32(v_sad_u32, 3, (a > b ? a - b : b - a) + c)
VU32(v_cvt_f32_ubyte0, 1, fo32(w, in, (float)(a & 0xff)))
VU32(v_cvt_f32_ubyte1, 1, fo32(w, in, (float)((a >> 8) & 0xff)))
VU32(v_cvt_f32_ubyte2, 1, fo32(w, in, (float)((a >> 16) & 0xff)))
VU32(v_cvt_f32_ubyte3, 1, fo32(w, in, (float)(a >> 24)))
VU32(v_cvt_f32_i32, 1, fo32(w, in, (float)(int32_t)a))
VU32(v_cvt_f32_u32, 1, fo32(w, in, (float)a))
VU32(v_cvt_pkrtz_f16_f32, 2,
     (uint32_t)sim_f32_to_f16(sim_as_f32(a)) | ((uint32_t)sim_f32_to_f16(sim_as_f32(b)) << 16))
VU32(v_pack_b32_f16, 2, (a & 0xffff) | (b << 16))
VU32(v_cvt_u32_u16, 1, a & 0xffff)
VU32(v_cvt_i32_i16, 1, (uint32_t)(int32_t)(int16_t)a)

/* ---- carry arithmetic (VOP2 e32 uses VCC, VOP3b an SGPR) ---- */
#define VCARRY(fn, expr_r, expr_c, uses_cin)                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t cin = uses_cin ? carry_in(w, in) : 0, cout = 0;                           \
		V_BEGIN(2, 32, false, 32, false)                                                   \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			uint64_t a = vs32(&s0, l), b = vs32(&s1, l), ci = (cin >> l) & 1;          \
			(void)ci;                                                                  \
			d[l] = (uint32_t)(expr_r);                                                 \
			cout |= (uint64_t)(expr_c) << l;                                           \
		}                                                                                  \
		sim_vwrite_lanemask(w, in, carry_out_dst(in), cout);                               \
	}
VCARRY(v_add_co_u32, usat((int64_t)(a + b), in->clamp), (a + b) >> 32, false)
VCARRY(v_sub_co_u32, usat((int64_t)a - (int64_t)b, in->clamp), b > a, false)
VCARRY(v_subrev_co_u32, usat((int64_t)b - (int64_t)a, in->clamp), a > b, false)
VCARRY(v_addc_co_u32, a + b + ci, (a + b + ci) >> 32, true)
VCARRY(v_subb_co_u32, a - b - ci, b + ci > a, true)
VCARRY(v_subbrev_co_u32, b - a - ci, a + ci > b, true)

static void v_cndmask_b32(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t sel = carry_in(w, in);
	V_BEGIN(2, 32, true, 32, false)
	FOR_LANES(v)
	{
		uint32_t a = (vs32(&s0, l) & ~s0.absm) ^ s0.negm;
		uint32_t b = (vs32(&s1, l) & ~s1.absm) ^ s1.negm;
		d[l] = (sel >> l) & 1 ? b : a;
	}
}

/* v_mad_u64_u32 / v_mad_i64_i32: D64 = S0 * S1 + S2 (64-bit), carry out to sdst */
static void v_mad_u64_u32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vctx v;
	struct vsrc s0, s1, s2;
	sim_vsrc(w, in, 0, 32, false, &s0);
	sim_vsrc(w, in, 1, 32, false, &s1);
	sim_vsrc(w, in, 2, 64, false, &s2);
	sim_vbegin(w, in, &v, 64, false);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	uint64_t cout = 0;
	FOR_LANES(v)
	{
		unsigned __int128 r =
		        (unsigned __int128)((uint64_t)vs32(&s0, l) * vs32(&s1, l)) + vs64(&s2, l);
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)(r >> 32);
		cout |= (uint64_t)((r >> 64) & 1) << l;
	}
	sim_vwrite_lanemask(w, in, in->sdst, cout);
}

static void v_mad_i64_i32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vctx v;
	struct vsrc s0, s1, s2;
	sim_vsrc(w, in, 0, 32, false, &s0);
	sim_vsrc(w, in, 1, 32, false, &s1);
	sim_vsrc(w, in, 2, 64, false, &s2);
	sim_vbegin(w, in, &v, 64, false);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	uint64_t cout = 0;
	FOR_LANES(v)
	{
		__int128 r = (__int128)((int64_t)(int32_t)vs32(&s0, l) * (int32_t)vs32(&s1, l)) +
		             (int64_t)vs64(&s2, l);
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)((uint64_t)r >> 32);
		cout |= (uint64_t)(r < INT64_MIN || r > INT64_MAX) << l;
	}
	sim_vwrite_lanemask(w, in, in->sdst, cout);
}

VU64(v_lshlrev_b64, 2, 32, b << (a & 63))
VU64(v_lshrrev_b64, 2, 32, b >> (a & 63))
VU64(v_ashrrev_i64, 2, 32, (uint64_t)((int64_t)b >> (a & 63)))
static void v_lshl_add_u64(struct sim_wave *w, const struct sim_insn *in)
{
	struct vctx v;
	struct vsrc s0, s1, s2;
	sim_vsrc(w, in, 0, 64, false, &s0);
	sim_vsrc(w, in, 1, 32, false, &s1);
	sim_vsrc(w, in, 2, 64, false, &s2);
	sim_vbegin(w, in, &v, 64, false);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	FOR_LANES(v)
	{
		uint64_t r = (vs64(&s0, l) << (vs32(&s1, l) & 7)) + vs64(&s2, l);
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)(r >> 32);
	}
}

/* packed f32 (gfx90a/gfx942): each half picks its source halves with op_sel / op_sel_hi, then
 * neg_lo / neg_hi flip its sign; each half is then the f32 operation of v_add/v_mul/v_fma_f32:
 * the MODE register's f32 rounding and denormal fields apply to both halves (inputs and
 * result flushed as for v_fma_f32). */
enum { PKF_ADD, PKF_MUL, PKF_FMA };
static inline float pk_f32_in(uint32_t bits, bool ftz)
{
	return sim_as_f32(ftz32(sim_as_f32(bits), ftz));
}
static void v_pk_f32(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned op = in->sem->arg, nsrc = op == PKF_FMA ? 3 : 2;
	struct vctx v;
	struct vsrc src[3];
	/* What a 32-bit inline constant or literal gives the 64-bit packed operand (the f32 value
	 * in both halves, or in the low half only) is not settled by the manuals or by llvm-mc:
	 * stop rather than guess. */
	for (unsigned i = 0; i < nsrc; i++)
		if ((in->src[i] >= 128 && in->src[i] <= 208) ||
		    (in->src[i] >= 240 && in->src[i] <= 248) || in->src[i] == SIM_LIT) {
			sim_fault(w,
			          "%s with a constant source %d: its packed value is not modeled",
			          in->sem->name, i);
			return;
		}
	for (unsigned i = 0; i < nsrc; i++)
		sim_vsrc(w, in, (int)i, 64, false, &src[i]);
	sim_vbegin(w, in, &v, 64, false);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	FOR_LANES(v)
	{
		float x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
		for (unsigned i = 0; i < nsrc; i++) {
			uint64_t val = vs64(&src[i], l);
			uint32_t lo = (uint32_t)(((in->opsel >> i) & 1) ? val >> 32 : val);
			uint32_t hi = (uint32_t)(((in->opsel_hi >> i) & 1) ? val >> 32 : val);
			x[i] = pk_f32_in(lo ^ (((in->neg >> i) & 1u) << 31), v.ftz_in);
			y[i] = pk_f32_in(hi ^ (((in->neg_hi >> i) & 1u) << 31), v.ftz_in);
		}
		float r0 = op == PKF_ADD   ? x[0] + x[1]
		           : op == PKF_MUL ? x[0] * x[1]
		                           : fmaf(x[0], x[1], x[2]);
		float r1 = op == PKF_ADD   ? y[0] + y[1]
		           : op == PKF_MUL ? y[0] * y[1]
		                           : fmaf(y[0], y[1], y[2]);
		d[l] = ftz32(sim_fout32(w, in, r0), v.ftz_out);
		dh[l] = ftz32(sim_fout32(w, in, r1), v.ftz_out);
	}
}
VU64(v_mov_b64, 1, 64, a)

/* ---- f32 ---- */
VF32(v_add_f32, 2, a + b)
VF32(v_sub_f32, 2, a - b)
VF32(v_subrev_f32, 2, b - a)
VF32(v_mul_f32, 2, a *b)
VF32(v_min_f32, 2, fminf_mode(a, b, v.ieee))
VF32(v_max_f32, 2, fmaxf_mode(a, b, v.ieee))
VF32(v_mul_legacy_f32, 2, (a == 0 || b == 0) ? 0.0f : a *b)
VF32(v_fma_f32, 3, fmaf(a, b, c))
VF32(v_mad_f32, 3, a *b + c)
VF32(v_min3_f32, 3, fminf_mode(fminf_mode(a, b, v.ieee), c, v.ieee))
VF32(v_max3_f32, 3, fmaxf_mode(fmaxf_mode(a, b, v.ieee), c, v.ieee))
VF32(v_med3_f32, 3, med3f(a, b, c, v.ieee))
VF32(v_trunc_f32, 1, quiet32(truncf(a)))
VF32(v_ceil_f32, 1, quiet32(ceilf(a)))
VF32(v_rndne_f32, 1, quiet32(nearbyintf(a)))
VF32(v_floor_f32, 1, quiet32(floorf(a)))
VF32(v_fract_f32, 1, fract32(a))
VF32(v_frexp_mant_f32, 1, frexp_mant32(a))
VF32(v_ldexp_f32, 2, ldexpf(a, (int32_t)sim_f32_bits(b)))
VF32(v_exp_f32, 1, exp2_32(a))
VF32(v_log_f32, 1, log2_32(a))
VF32(v_rcp_f32, 1, rcp32(a))
VF32(v_rcp_iflag_f32, 1, rcp32(a))
VF32(v_rsq_f32, 1, rsq32(a))
VF32(v_sqrt_f32, 1, sqrtf(a))
VF32(v_sin_f32, 1, sin32(a))
VF32(v_cos_f32, 1, cos32(a))

/* fmac / madmk / madak read the destination or the literal */
static void v_fmac_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	sim_chk_read_v(w, in, v.dreg, 1);
	FOR_LANES(v)
	{
		float c = sim_as_f32(ftz32(sim_as_f32(d[l]), v.ftz_in)); /* an input too */
		float r = fmaf(vf32(&s0, l, v.ftz_in), vf32(&s1, l, v.ftz_in), c);
		d[l] = ftz32(sim_fout32(w, in, r), v.ftz_out);
	}
}
static void v_fmamk_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	float k = sim_as_f32(in->literal);
	FOR_LANES(v)
	d[l] = ftz32(fmaf(vf32(&s0, l, v.ftz_in), k, vf32(&s1, l, v.ftz_in)), v.ftz_out);
}
static void v_fmaak_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	float k = sim_as_f32(in->literal);
	FOR_LANES(v)
	d[l] = ftz32(fmaf(vf32(&s0, l, v.ftz_in), vf32(&s1, l, v.ftz_in), k), v.ftz_out);
}
static void v_madmk_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	float k = sim_as_f32(in->literal);
	FOR_LANES(v)
	d[l] = ftz32(vf32(&s0, l, v.ftz_in) * k + vf32(&s1, l, v.ftz_in), v.ftz_out);
}
static void v_madak_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	float k = sim_as_f32(in->literal);
	FOR_LANES(v)
	d[l] = ftz32(vf32(&s0, l, v.ftz_in) * vf32(&s1, l, v.ftz_in) + k, v.ftz_out);
}
static void v_mac_f32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, true, 32, false)
	sim_chk_read_v(w, in, v.dreg, 1);
	FOR_LANES(v)
	{
		float c = sim_as_f32(ftz32(sim_as_f32(d[l]), v.ftz_in)); /* an input too */
		float r = vf32(&s0, l, v.ftz_in) * vf32(&s1, l, v.ftz_in) + c;
		d[l] = ftz32(sim_fout32(w, in, r), v.ftz_out);
	}
}

VCVT(v_cvt_u32_f32, 32, true, 32, false, sat_f2u(vf32(&s0, l, v.ftz_in)))
VCVT(v_cvt_i32_f32, 32, true, 32, false, sat_f2i(vf32(&s0, l, v.ftz_in)))
VCVT(v_cvt_i32_f64, 64, true, 32, true, sat_f2i(vf64(&s0, l, v.ftz_in)))
VCVT(v_cvt_u32_f64, 64, true, 32, true, sat_f2u(vf64(&s0, l, v.ftz_in)))
VCVT(v_cvt_f64_i32, 32, false, 64, true, fo64(w, in, (double)(int32_t)vs32(&s0, l)))
VCVT(v_cvt_f64_u32, 32, false, 64, true, fo64(w, in, (double)vs32(&s0, l)))
VCVT(v_cvt_f32_f64, 64, true, 32, false,
     ftz32(sim_fout32(w, in, (float)vf64(&s0, l, v.ftz_in)), v.ftz_out))
VCVT(v_cvt_f64_f32, 32, true, 64, true, fo64(w, in, (double)vf32(&s0, l, v.ftz_in)))
VCVT(v_cvt_f16_f32, 32, true, 32, false, sim_f32_to_f16(sim_fout32(w, in, vf32(&s0, l, false))))
VCVT(v_cvt_f32_f16, 16, true, 32, false, fo32(w, in, vf16(&s0, l)))
VCVT(v_frexp_exp_i32_f32, 32, true, 32, false, frexp_exp32(vf32(&s0, l, false)))
VCVT(v_frexp_exp_i32_f64, 64, true, 32, true, frexp_exp64(vf64(&s0, l, false)))
VCVT(v_cvt_rpi_i32_f32, 32, true, 32, false, sat_f2i(floorf(vf32(&s0, l, v.ftz_in) + 0.5f)))
VCVT(v_cvt_flr_i32_f32, 32, true, 32, false, sat_f2i(floorf(vf32(&s0, l, v.ftz_in))))

/* ---- f64 ---- */
VF64(v_add_f64, 2, a + b)
VF64(v_mul_f64, 2, a *b)
VF64(v_min_f64, 2, v.ieee && (snan64(a) || snan64(b)) ? quiet64(a, b) : fmin_hw(a, b))
VF64(v_max_f64, 2, v.ieee && (snan64(a) || snan64(b)) ? quiet64(a, b) : fmax_hw(a, b))
/* gfx12's V_MIN_NUM_F64/V_MAX_NUM_F64 (RDNA4 ISA guide, VOP2 opcodes 13 and 14): IEEE
 * minimumNumber/maximumNumber. A NaN operand, signalling or not, yields the other operand; two
 * NaNs yield cvtToQuietNAN(S0), never a signalling NaN. */
VF64(v_min_num_f64, 2, isnan(a) && isnan(b) ? quiet_nan64(a) : fmin_hw(a, b))
VF64(v_max_num_f64, 2, isnan(a) && isnan(b) ? quiet_nan64(a) : fmax_hw(a, b))
VF64(v_fma_f64, 3, fma(a, b, c))
VF64(v_trunc_f64, 1, quiet_nan64(trunc(a)))
VF64(v_ceil_f64, 1, quiet_nan64(ceil(a)))
VF64(v_rndne_f64, 1, quiet_nan64(nearbyint(a)))
VF64(v_floor_f64, 1, quiet_nan64(floor(a)))
VF64(v_fract_f64, 1, fract64(a))
VF64(v_frexp_mant_f64, 1, frexp_mant64(a))
VF64(v_rcp_f64, 1, 1.0 / a)
VF64(v_rsq_f64, 1, 1.0 / sqrt(a))
VF64(v_sqrt_f64, 1, sqrt(a))

static void v_ldexp_f64(struct sim_wave *w, const struct sim_insn *in)
{
	struct vctx v;
	struct vsrc s0, s1;
	sim_vsrc(w, in, 0, 64, true, &s0);
	sim_vsrc(w, in, 1, 32, false, &s1);
	sim_vbegin(w, in, &v, 64, true);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	FOR_LANES(v)
	{
		uint64_t r = ftz64(
		        sim_fout64(w, in, ldexp(vf64(&s0, l, v.ftz_in), (int32_t)vs32(&s1, l))),
		        v.ftz_out);
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)(r >> 32);
	}
}

static void v_fmac_f64(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 64, true, 64, true)
	sim_chk_read_v(w, in, v.dreg, 2);
	FOR_LANES(v)
	{
		double c = sim_as_f64(ftz64(sim_as_f64((uint64_t)dh[l] << 32 | d[l]), v.ftz_in));
		uint64_t r = ftz64(
		        sim_fout64(w, in, fma(vf64(&s0, l, v.ftz_in), vf64(&s1, l, v.ftz_in), c)),
		        v.ftz_out);
		d[l] = (uint32_t)r;
		dh[l] = (uint32_t)(r >> 32);
	}
}

/* ---- the table ---- */
#define V(n)                                                                                       \
	{                                                                                          \
#n, n, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU, 0, 0                                \
	}
#define VA(n, f)                                                                                   \
	{                                                                                          \
#n, f, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU, 0, 0                                \
	}
#define VT(n)                                                                                      \
	{                                                                                          \
#n, n, SIM_CLASS_VALU_TRANS, SIM_MEM_NONE, SEM_VALU | SEM_TRANS, 0, 0              \
	}
#define VD(n)                                                                                      \
	{                                                                                          \
#n, n, SIM_CLASS_VALU_F64, SIM_MEM_NONE, SEM_VALU | SEM_F64, 0, 0                  \
	}
#define PKF(n, op)                                                                                 \
	{                                                                                          \
#n, v_pk_f32, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU, 0, op                        \
	}
#define VDT(n)                                                                                     \
	{                                                                                          \
#n, n, SIM_CLASS_VALU_TRANS, SIM_MEM_NONE, SEM_VALU | SEM_F64 | SEM_TRANS, 0, 0    \
	}

static const struct sim_sem valu_sems[] = {
        V(v_mov_b32),
        V(v_not_b32),
        V(v_bfrev_b32),
        V(v_ffbh_u32),
        VA(v_clz_i32_u32, v_ffbh_u32),
        V(v_ffbl_b32),
        VA(v_ctz_i32_b32, v_ffbl_b32),
        V(v_ffbh_i32),
        VA(v_cls_i32, v_ffbh_i32),
        V(v_add_u32),
        VA(v_add_nc_u32, v_add_u32),
        V(v_sub_u32),
        VA(v_sub_nc_u32, v_sub_u32),
        V(v_subrev_u32),
        VA(v_subrev_nc_u32, v_subrev_u32),
        V(v_mul_lo_u32),
        V(v_mul_lo_i32),
        V(v_mul_hi_u32),
        V(v_mul_hi_i32),
        V(v_mul_u32_u24),
        V(v_mul_hi_u32_u24),
        V(v_mul_i32_i24),
        V(v_mul_hi_i32_i24),
        V(v_min_i32),
        V(v_max_i32),
        V(v_min_u32),
        V(v_max_u32),
        V(v_lshlrev_b32),
        V(v_lshrrev_b32),
        V(v_ashrrev_i32),
        V(v_and_b32),
        V(v_or_b32),
        V(v_xor_b32),
        V(v_xnor_b32),
        V(v_bfm_b32),
        V(v_bcnt_u32_b32),
        V(v_mad_u32_u24),
        V(v_mad_i32_i24),
        V(v_mad_u32_u16),
        V(v_bfe_u32),
        V(v_bfe_i32),
        V(v_bfi_b32),
        V(v_alignbit_b32),
        V(v_alignbyte_b32),
        V(v_perm_b32),
        V(v_lshl_add_u32),
        V(v_add_lshl_u32),
        V(v_lshl_or_b32),
        V(v_and_or_b32),
        V(v_or3_b32),
        V(v_xor3_b32),
        V(v_add3_u32),
        V(v_min3_i32),
        V(v_max3_i32),
        V(v_min3_u32),
        V(v_max3_u32),
        V(v_med3_i32),
        V(v_med3_u32),
        V(v_sad_u32),
        V(v_cvt_f32_ubyte0),
        V(v_cvt_f32_ubyte1),
        V(v_cvt_f32_ubyte2),
        V(v_cvt_f32_ubyte3),
        V(v_cvt_f32_i32),
        V(v_cvt_f32_u32),
        V(v_cvt_pkrtz_f16_f32),
        VA(v_cvt_pk_rtz_f16_f32, v_cvt_pkrtz_f16_f32),
        V(v_pack_b32_f16),
        V(v_cvt_u32_u16),
        V(v_cvt_i32_i16),
        V(v_add_co_u32),
        V(v_sub_co_u32),
        V(v_subrev_co_u32),
        V(v_addc_co_u32),
        V(v_subb_co_u32),
        V(v_subbrev_co_u32),
        VA(v_add_co_ci_u32, v_addc_co_u32),
        VA(v_sub_co_ci_u32, v_subb_co_u32),
        VA(v_subrev_co_ci_u32, v_subbrev_co_u32),
        V(v_cndmask_b32),
        V(v_mad_u64_u32),
        V(v_mad_i64_i32),
        VA(v_mad_co_u64_u32, v_mad_u64_u32),
        VA(v_mad_co_i64_i32, v_mad_i64_i32),
        V(v_lshlrev_b64),
        V(v_lshrrev_b64),
        V(v_ashrrev_i64),
        V(v_lshl_add_u64),
        V(v_mov_b64),
        V(v_add_f32),
        V(v_sub_f32),
        V(v_subrev_f32),
        V(v_mul_f32),
        V(v_min_f32),
        V(v_max_f32),
        VA(v_min_num_f32, v_min_f32),
        VA(v_max_num_f32, v_max_f32),
        V(v_mul_legacy_f32),
        VA(v_mul_dx9_zero_f32, v_mul_legacy_f32),
        V(v_fma_f32),
        V(v_mad_f32),
        V(v_min3_f32),
        V(v_max3_f32),
        V(v_med3_f32),
        VA(v_min3_num_f32, v_min3_f32), /* gfx12 names (no IEEE mode there) */
        VA(v_max3_num_f32, v_max3_f32),
        VA(v_med3_num_f32, v_med3_f32),
        V(v_trunc_f32),
        V(v_ceil_f32),
        V(v_rndne_f32),
        V(v_floor_f32),
        V(v_fract_f32),
        V(v_frexp_mant_f32),
        V(v_ldexp_f32),
        VT(v_exp_f32),
        VT(v_log_f32),
        VT(v_rcp_f32),
        VT(v_rcp_iflag_f32),
        VT(v_rsq_f32),
        VT(v_sqrt_f32),
        VT(v_sin_f32),
        VT(v_cos_f32),
        V(v_fmac_f32),
        V(v_fmamk_f32),
        V(v_fmaak_f32),
        V(v_madmk_f32),
        V(v_madak_f32),
        V(v_mac_f32),
        V(v_cvt_u32_f32),
        V(v_cvt_i32_f32),
        VD(v_cvt_i32_f64),
        VD(v_cvt_u32_f64),
        VD(v_cvt_f64_i32),
        VD(v_cvt_f64_u32),
        VD(v_cvt_f32_f64),
        VD(v_cvt_f64_f32),
        V(v_cvt_f16_f32),
        V(v_cvt_f32_f16),
        V(v_frexp_exp_i32_f32),
        VD(v_frexp_exp_i32_f64),
        V(v_cvt_rpi_i32_f32),
        VA(v_cvt_nearest_i32_f32, v_cvt_rpi_i32_f32),
        V(v_cvt_flr_i32_f32),
        VA(v_cvt_floor_i32_f32, v_cvt_flr_i32_f32),
        VD(v_add_f64),
        VD(v_mul_f64),
        VD(v_min_f64),
        VD(v_max_f64),
        {"v_min_num_f64", v_min_num_f64, SIM_CLASS_VALU_F64, SIM_MEM_NONE, SEM_VALU | SEM_F64, 0,
         0},
        {"v_max_num_f64", v_max_num_f64, SIM_CLASS_VALU_F64, SIM_MEM_NONE, SEM_VALU | SEM_F64, 0,
         0},
        VD(v_fma_f64),
        VD(v_trunc_f64),
        VD(v_ceil_f64),
        VD(v_rndne_f64),
        VD(v_floor_f64),
        VD(v_fract_f64),
        VD(v_frexp_mant_f64),
        VDT(v_rcp_f64),
        VDT(v_rsq_f64),
        VDT(v_sqrt_f64),
        VD(v_ldexp_f64),
        VD(v_fmac_f64),
        V(v_div_scale_f32),
        VD(v_div_scale_f64),
        V(v_div_fixup_f32),
        VD(v_div_fixup_f64),
        V(v_add_i32),
        VA(v_add_nc_i32, v_add_i32),
        V(v_sub_i32),
        VA(v_sub_nc_i32, v_sub_i32),
        PKF(v_pk_add_f32, PKF_ADD),
        PKF(v_pk_mul_f32, PKF_MUL),
        PKF(v_pk_fma_f32, PKF_FMA),
        {"v_div_fmas_f32", v_div_fmas_f32, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU | SEM_DIV_FMAS, 0,
         0},
        {"v_div_fmas_f64", v_div_fmas_f64, SIM_CLASS_VALU_F64, SIM_MEM_NONE,
         SEM_VALU | SEM_DIV_FMAS | SEM_F64, 0, 0},
};

const struct sim_sem *sim_sems_valu(unsigned *n)
{
	*n = sizeof valu_sems / sizeof valu_sems[0];
	return valu_sems;
}
