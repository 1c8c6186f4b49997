/* ir_build, part 5: directed rounding (.rz/.rm/.rp) of the correctly rounded operations that
 * have no directed-rounding hardware path, expanded into IR operations.
 *
 *   div/rcp/sqrt .{rz,rm,rp}.{f32,f64} (.ftz on f32), cvt.{rz,rm,rp}.{f32,f64}.{s64,u64},
 *   cvt.{rz,rm,rp}{.ftz}.f32.f64, cvt.{rz,rm,rp}{.ftz}.f16.f32 and
 *   cvt.{rn,rz,rm,rp}.f16.{f64,s16,u16,s32,u32,s64,u64}.
 *
 * Method: the round-to-nearest result q (the exact div.rn/sqrt.rn IR sequences), then the
 * sign of the exact error (true value - q) from a residual, then q stepped one ulp (an integer
 * add on its bit pattern, which crosses binades, reaches MAX from inf and the smallest
 * subnormal from zero) when the direction asks for the other neighbour.  This needs q only
 * to be one of the two floats around the true value (faithful), so it holds whatever the
 * div.rn sequence does in its hardest corners, and uses no MODE register: every operation
 * in it rounds to nearest except the final power-of-two scalings of f64 division, which are
 * FMULs in the wanted direction (exact except where the result is subnormal or overflows,
 * and two roundings in one direction onto nested grids are one rounding).  The MODE register
 * around the hardware's division sequence was rejected: its Newton-Raphson steps would round
 * in the directed mode too, and the final v_div_fmas is then not proven correctly rounded.
 *
 * Residuals:
 *   f32 division: r = fma(-q, b, a) in f64 on the exactly widened operands: q*b has at most
 *     48 bits and every quantity is a multiple of 2^-298, so the sign of r is exact even when
 *     q is subnormal or zero; q = inf from an overflow gives r = -inf*sign(q*b), "the true
 *     value is nearer zero", which steps to MAX where the direction asks; exact infinities
 *     (x/0, inf/x) and NaNs give a NaN residual and no step.  sign(a/b - q) = sign(r * b).
 *   f64 division: a and b scaled by 2^600 when below 2^-500 and by 2^-600 when at least
 *     2^500, so the scaled quotient is normal (2^-974 .. 2^974) and fma(-q, b, a) is exact
 *     (no underflow of q*b); the directed result of the scaled division is then scaled back
 *     by g*g, g = 2^((Sb - Sa)/2), in the wanted direction (subnormal and overflowing
 *     results round there).
 *   sqrt: r = fma(-q, q, a) (f32: in f64; f64: a below 2^-500 scaled by 2^600, the root
 *     scaled back by 2^-300 exactly, the root being normal either way).  sqrt(a) - q has
 *     the sign of r.
 *   cvt from 64-bit integers: integer arithmetic: the magnitude shifted until its msb is bit
 *     63, the significand's top bits kept and incremented when the dropped bits are nonzero
 *     and the direction rounds the magnitude up (RP for positive, RM for negative values);
 *     the carry out of the significand lands in the exponent field.
 *   f64 -> f32, and to f16: the round-to-nearest result compared exactly with the source
 *     (in f64; f16 values are f32 values); f64 and integer sources of an f16 are first
 *     rounded to f32 toward zero and made odd when inexact (round to odd: the f32 has 13 bits
 *     more than an f16, so the second rounding is the one correct rounding in every
 *     direction, .rn included).
 * NaN results: f32 0x7fffffff and f16 0x7fff (from f64: the source's sign and top payload
 * bits, quieted), what NVIDIA hardware returns.
 * .ftz (f32 division, rcp and sqrt): subnormal inputs become zeros of their sign, and so do
 * quotients whose exact value is below 2^-126 (tininess before rounding, as the H100 flushes
 * them; the root of a normal float is normal); on cvt.f32.f64 the result is flushed; on
 * cvt.{rz,rm,rp}.ftz.f16.f32 nothing is, as on NVIDIA hardware (an f32 subnormal source rounds up
 * to the smallest f16 under .rp.ftz). O(1) per instruction. */
#include <stdint.h>

#include "ir/build_int.h"

struct rx { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct rx *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct rx *x, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(x->b, op, t, &a, 1, aux, 0);
}

static ir_ref op2a(struct rx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, aux, 0);
}

static ir_ref op2(struct rx *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	return op2a(x, op, t, a, c, 0);
}

static ir_ref k(struct rx *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref cmp(struct rx *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	return op2a(x, ir_type_is_float((enum ir_type)x->b->fn->vals[a].type) ? IR_FCMP : IR_ICMP,
	            IR_T_PRED, a, b, c);
}

static ir_ref sel(struct rx *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref b)
{
	ir_ref args[3] = {p, a, b};
	return irb_emit(x->b, IR_SELECT, t, args, 3, 0, 0);
}

static ir_ref and_p(struct rx *x, ir_ref p, ir_ref q)
{
	return op2(x, IR_AND, IR_T_PRED, p, q);
}

static ir_ref or_p(struct rx *x, ir_ref p, ir_ref q)
{
	return op2(x, IR_OR, IR_T_PRED, p, q);
}

static ir_ref fma_rn(struct rx *x, enum ir_type t, ir_ref a, ir_ref b, ir_ref c)
{
	ir_ref args[3] = {a, b, c};
	return irb_emit(x->b, IR_FMA, t, args, 3, IR_FM_RN, 0);
}

static ir_ref src(struct rx *x, unsigned i, enum ir_type t, bool sign)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, sign);
}

static void dst(struct rx *x, ir_ref v)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, false, x->guard);
}

static enum ir_type bits_type(enum ir_type t)
{
	return t == IR_T_F64 ? IR_T_I64 : t == IR_T_F32 ? IR_T_I32 : IR_T_I16;
}

static unsigned round_of(const struct rx *x)
{
	return has(x, PTX_DW_RZ)   ? IR_FM_RZ
	       : has(x, PTX_DW_RM) ? IR_FM_RM
	       : has(x, PTX_DW_RP) ? IR_FM_RP
	                           : IR_FM_RN;
}

/* ---- the step: q, the true value's side of it (up: above, down: below), the direction ---- */

/* q's bit pattern moved one ulp in magnitude: away from zero where the direction rounds the
 * true value away from q's magnitude, toward zero where it rounds toward it.  The side is
 * "no step" (both false) for exact results, NaNs and exact infinities. */
static ir_ref step_bits(struct rx *x, enum ir_type it, ir_ref bits, ir_ref neg, ir_ref up,
                        ir_ref down, unsigned round)
{
	ir_ref pos = op1(x, IR_NOT, IR_T_PRED, neg, 0);
	ir_ref away, toward;
	if (round == IR_FM_RP) {
		away = and_p(x, up, pos);
		toward = and_p(x, up, neg);
	} else if (round == IR_FM_RM) {
		away = and_p(x, down, neg);
		toward = and_p(x, down, pos);
	} else { /* RZ: only ever toward zero */
		away = IR_NO_REF;
		toward = or_p(x, and_p(x, down, pos), and_p(x, up, neg));
	}
	ir_ref r = sel(x, it, toward, op2(x, IR_SUB, it, bits, k(x, it, 1)), bits);
	if (away != IR_NO_REF)
		r = sel(x, it, away, op2(x, IR_ADD, it, bits, k(x, it, 1)), r);
	return r;
}

static ir_ref step(struct rx *x, enum ir_type t, ir_ref q, ir_ref up, ir_ref down, unsigned round)
{
	enum ir_type it = bits_type(t);
	ir_ref bits = op1(x, IR_BITCAST, it, q, 0);
	ir_ref neg = cmp(x, IR_CMP_LT, bits, k(x, it, 0)); /* the sign bit */
	return op1(x, IR_BITCAST, t, step_bits(x, it, bits, neg, up, down, round), 0);
}

/* f32 subnormals (not NaN) replaced by zeros of their sign. */
static ir_ref flush32(struct rx *x, ir_ref v)
{
	ir_ref tiny =
	        cmp(x, IR_CMP_LT, op1(x, IR_FABS, IR_T_F32, v, 0), k(x, IR_T_F32, 0x00800000u));
	ir_ref sign = op2(x, IR_AND, IR_T_I32, op1(x, IR_BITCAST, IR_T_I32, v, 0),
	                  k(x, IR_T_I32, 0x80000000u));
	return sel(x, IR_T_F32, tiny, op1(x, IR_BITCAST, IR_T_F32, sign, 0), v);
}

/* NaN results as NVIDIA hardware gives them: f32 0x7fffffff (f16: 0x7fff below) */
static ir_ref canonical_nan32(struct rx *x, ir_ref v)
{
	return sel(x, IR_T_F32, cmp(x, IR_CMP_NAN, v, v), k(x, IR_T_F32, 0x7fffffffu), v);
}

static ir_ref widen(struct rx *x, ir_ref v)
{
	return op1(x, IR_FEXT, IR_T_F64, v, 0);
}

static ir_ref f64c(struct rx *x, double v)
{
	union {
		double d;
		uint64_t u;
	} c = {.d = v};
	return k(x, IR_T_F64, c.u);
}

/* ---- division and reciprocal ---- */

static ir_ref div_f32(struct rx *x, ir_ref a, ir_ref b, unsigned round)
{
	ir_ref q = irb_emit(x->b, IR_FDIV, IR_T_F32, (ir_ref[]){a, b}, 2, 0, 0);
	ir_ref b64 = widen(x, b);
	ir_ref r = fma_rn(x, IR_T_F64, op1(x, IR_FNEG, IR_T_F64, widen(x, q), 0), b64, widen(x, a));
	ir_ref e = op2(x, IR_FMUL, IR_T_F64, r, b64); /* the sign of a/b - q (never underflows) */
	ir_ref zero = f64c(x, 0);
	return step(x, IR_T_F32, q, cmp(x, IR_CMP_GT, e, zero), cmp(x, IR_CMP_LT, e, zero), round);
}

/* v scaled by 2^600 below 2^-500, by 2^-600 from 2^500 (NaN: unscaled); *g: 2^-300, 2^300
 * or 1, the matching factor of the quotient's scale (inverse for the divisor) */
static ir_ref scale64(struct rx *x, ir_ref v, ir_ref *g, bool divisor)
{
	enum ir_type t = IR_T_F64;
	ir_ref m = op1(x, IR_FABS, t, v, 0);
	ir_ref small = cmp(x, IR_CMP_LT, m, f64c(x, 0x1p-500));
	ir_ref large = cmp(x, IR_CMP_GE, m, f64c(x, 0x1p500));
	ir_ref f =
	        sel(x, t, small, f64c(x, 0x1p600), sel(x, t, large, f64c(x, 0x1p-600), f64c(x, 1)));
	*g = sel(x, t, small, f64c(x, divisor ? 0x1p300 : 0x1p-300),
	         sel(x, t, large, f64c(x, divisor ? 0x1p-300 : 0x1p300), f64c(x, 1)));
	return op2(x, IR_FMUL, t, v, f);
}

static ir_ref div_f64(struct rx *x, ir_ref a, ir_ref b, unsigned round)
{
	enum ir_type t = IR_T_F64;
	ir_ref ga, gb;
	ir_ref as = scale64(x, a, &ga, false), bs = scale64(x, b, &gb, true);
	ir_ref q = irb_emit(x->b, IR_FDIV, t, (ir_ref[]){as, bs}, 2, 0, 0);
	ir_ref r = fma_rn(x, t, op1(x, IR_FNEG, t, q, 0), bs, as);
	ir_ref e = op2(x, IR_FMUL, t, r, bs); /* |r| < 2^448, >= 2^-578 or 0: no over/underflow */
	ir_ref zero = f64c(x, 0);
	q = step(x, t, q, cmp(x, IR_CMP_GT, e, zero), cmp(x, IR_CMP_LT, e, zero), round);
	ir_ref g = op2(x, IR_FMUL, t, ga, gb); /* exact: 2^-600 .. 2^600 */
	q = op2a(x, IR_FMUL, t, q, g, round);
	return op2a(x, IR_FMUL, t, q, g, round);
}

static void tr_div(struct rx *x, enum ir_type t, bool rcp)
{
	unsigned round = round_of(x);
	bool ftz = has(x, PTX_DW_FTZ);
	ir_ref a = rcp ? k(x, t, t == IR_T_F32 ? 0x3f800000u : 0x3ff0000000000000ull)
	               : src(x, 1, t, false);
	ir_ref b = src(x, rcp ? 1 : 2, t, false);
	if (t == IR_T_F64) {
		dst(x, div_f64(x, a, b, round));
		return;
	}
	if (ftz) {
		a = flush32(x, a);
		b = flush32(x, b);
	}
	ir_ref q = canonical_nan32(x, div_f32(x, a, b, round));
	if (!ftz) {
		dst(x, q);
		return;
	}
	/* .ftz flushes by the exact quotient, before rounding (NVIDIA hardware: div.rp.ftz of
	 * 1 / 0x7e800001 is +0, not the 2^-126 the rounding reaches); the quotient rounded toward
	 * zero is below 2^-126 exactly when the exact one is */
	ir_ref qz = div_f32(x, a, b, IR_FM_RZ);
	ir_ref tiny =
	        cmp(x, IR_CMP_LT, op1(x, IR_FABS, IR_T_F32, qz, 0), k(x, IR_T_F32, 0x00800000u));
	ir_ref sign = op2(x, IR_AND, IR_T_I32, op1(x, IR_BITCAST, IR_T_I32, q, 0),
	                  k(x, IR_T_I32, 0x80000000u));
	dst(x, sel(x, IR_T_F32, tiny, op1(x, IR_BITCAST, IR_T_F32, sign, 0), q));
}

/* ---- square root ---- */

static ir_ref sqrt_f32(struct rx *x, ir_ref a, unsigned round)
{
	ir_ref q = irb_sqrt_rn(x->b, a, IR_T_F32);
	ir_ref q64 = widen(x, q);
	ir_ref r = fma_rn(x, IR_T_F64, op1(x, IR_FNEG, IR_T_F64, q64, 0), q64, widen(x, a));
	ir_ref zero = f64c(x, 0);
	return step(x, IR_T_F32, q, cmp(x, IR_CMP_GT, r, zero), cmp(x, IR_CMP_LT, r, zero), round);
}

static ir_ref sqrt_f64(struct rx *x, ir_ref a, unsigned round)
{
	enum ir_type t = IR_T_F64;
	ir_ref small = cmp(x, IR_CMP_LT, a, f64c(x, 0x1p-500)); /* negatives: NaN either way */
	ir_ref as = sel(x, t, small, op2(x, IR_FMUL, t, a, f64c(x, 0x1p600)), a);
	ir_ref q = irb_sqrt_rn(x->b, as, t);
	ir_ref r =
	        fma_rn(x, t, op1(x, IR_FNEG, t, q, 0), q, as); /* exact: q normal, q*q >= 2^-474 */
	ir_ref zero = f64c(x, 0);
	q = step(x, t, q, cmp(x, IR_CMP_GT, r, zero), cmp(x, IR_CMP_LT, r, zero), round);
	return sel(x, t, small, op2(x, IR_FMUL, t, q, f64c(x, 0x1p-300)), q); /* exact: normal */
}

static void tr_sqrt(struct rx *x, enum ir_type t)
{
	ir_ref a = src(x, 1, t, false);
	if (t == IR_T_F64) {
		dst(x, sqrt_f64(x, a, round_of(x)));
		return;
	}
	if (has(x, PTX_DW_FTZ)) /* the root of a normal float is normal */
		a = flush32(x, a);
	dst(x, canonical_nan32(x, sqrt_f32(x, a, round_of(x))));
}

/* ---- 64-bit integer -> f32/f64 ---- */

enum { ROUND_ODD = 4 }; /* beside IR_FM_RN..RP: truncate, and set the last bit if inexact */

/* p bits of significand (24 or 53), e0 the exponent bias: the magnitude m = |v| shifted so
 * that its msb is bit 63, the top p bits kept, plus one where bits were dropped and the
 * direction rounds the magnitude up (ROUND_ODD: the last bit set instead, for a second
 * rounding to f16); the exponent field is (bias + 62 - clz) and the
 * significand's leading one (or its carry to 2^p) adds one to it. */
static ir_ref itof_directed(struct rx *x, ir_ref v, bool sign, enum ir_type ft, unsigned round)
{
	enum ir_type L = IR_T_I64;
	ir_ref neg = sign ? cmp(x, IR_CMP_LT, v, k(x, L, 0)) : k(x, IR_T_PRED, 0);
	ir_ref m = sign ? sel(x, L, neg, op1(x, IR_NEG, L, v, 0), v) : v;
	ir_ref n = op1(x, IR_CLZ, IR_T_I32, m, 0);
	ir_ref y = op2(x, IR_SHL, L, m, n);
	unsigned p = ft == IR_T_F32 ? 24 : 53, bias = ft == IR_T_F32 ? 127 : 1023;
	ir_ref dropped = op2(x, IR_AND, L, y, k(x, L, (1ull << (64 - p)) - 1));
	ir_ref inexact = cmp(x, IR_CMP_NE, dropped, k(x, L, 0));
	ir_ref up_mag = round == IR_FM_RP   ? op1(x, IR_NOT, IR_T_PRED, neg, 0)
	                : round == IR_FM_RM ? neg
	                                    : k(x, IR_T_PRED, 0);
	ir_ref inc = and_p(x, inexact, up_mag);
	enum ir_type it = bits_type(ft);
	ir_ref sig = op2(x, IR_SHR_U, L, y, k(x, IR_T_I32, 64 - p));
	if (round == ROUND_ODD)
		sig = op2(x, IR_OR, L, sig, sel(x, L, inexact, k(x, L, 1), k(x, L, 0)));
	ir_ref e = op2(x, IR_SUB, IR_T_I32, k(x, IR_T_I32, bias + 62), n);
	if (it == IR_T_I32) {
		sig = op1(x, IR_TRUNC, it, sig, 0);
	} else {
		e = op1(x, IR_ZEXT, it, e, 0);
	}
	ir_ref bits = op2(x, IR_ADD, it, op2(x, IR_SHL, it, e, k(x, IR_T_I32, p - 1)), sig);
	bits = op2(x, IR_ADD, it, bits, sel(x, it, inc, k(x, it, 1), k(x, it, 0)));
	uint64_t sign_bit = 1ull << (ir_type_bits(it) - 1);
	bits = sel(x, it, neg, op2(x, IR_OR, it, bits, k(x, it, sign_bit)), bits);
	bits = sel(x, it, cmp(x, IR_CMP_EQ, m, k(x, L, 0)), k(x, it, 0), bits);
	return op1(x, IR_BITCAST, ft, bits, 0);
}

/* .sat: clamped to [0, 1] (no NaN comes from an integer) */
static ir_ref saturate(struct rx *x, enum ir_type t, ir_ref v)
{
	ir_ref zero = k(x, t, 0);
	ir_ref one = k(x, t, t == IR_T_F32 ? 0x3f800000u : 0x3ff0000000000000ull);
	v = sel(x, t, cmp(x, IR_CMP_LT, v, zero), zero, v);
	return sel(x, t, cmp(x, IR_CMP_GT, v, one), one, v);
}

/* ---- to f16 ---- */

/* f64 -> f32 rounded to odd: the nearest f32, moved toward zero when it is beyond the
 * source, and its last bit set when inexact (NaN and infinities unchanged). */
static ir_ref round_odd_f32(struct rx *x, ir_ref v)
{
	ir_ref t0 = op1(x, IR_FTRUNC, IR_T_F32, v, IR_FM_RN);
	ir_ref back = widen(x, t0);
	ir_ref inexact = cmp(x, IR_CMP_NE, back, v); /* ordered: false for NaN */
	ir_ref beyond = cmp(x, IR_CMP_GT, op1(x, IR_FABS, IR_T_F64, back, 0),
	                    op1(x, IR_FABS, IR_T_F64, v, 0));
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, t0, 0);
	bits = sel(x, IR_T_I32, beyond, op2(x, IR_SUB, IR_T_I32, bits, k(x, IR_T_I32, 1)), bits);
	bits = sel(x, IR_T_I32, inexact, op2(x, IR_OR, IR_T_I32, bits, k(x, IR_T_I32, 1)), bits);
	return op1(x, IR_BITCAST, IR_T_F32, bits, 0);
}

/* f64 -> f32 in a direction: the nearest f32, stepped when it lies on the wrong side of the
 * source (the comparison in f64 is exact; an overflow to inf steps back to MAX, MAX steps
 * to inf, NaN and infinities compare equal or unordered and stay). */
static ir_ref f32_of_f64(struct rx *x, ir_ref v, unsigned round)
{
	ir_ref t0 = op1(x, IR_FTRUNC, IR_T_F32, v, IR_FM_RN);
	ir_ref back = widen(x, t0);
	return step(x, IR_T_F32, t0, cmp(x, IR_CMP_GT, v, back), cmp(x, IR_CMP_LT, v, back), round);
}

/* f32 -> f16 in the direction: the nearest f16, stepped when it lies on the wrong side of
 * the source (the comparison is exact: every f16 is an f32). */
static ir_ref to_half(struct rx *x, ir_ref v, unsigned round, ir_ref f64_src)
{
	ir_ref h = op1(x, IR_F2H, IR_T_I16, v, 0);
	ir_ref r = op1(x, IR_ZEXT, IR_T_I32, h, 0);
	if (round != IR_FM_RN) {
		ir_ref hf = op1(x, IR_H2F, IR_T_F32, h, 0);
		ir_ref neg = cmp(x, IR_CMP_NE, op2(x, IR_AND, IR_T_I32, r, k(x, IR_T_I32, 0x8000)),
		                 k(x, IR_T_I32, 0));
		r = step_bits(x, IR_T_I32, r, neg, cmp(x, IR_CMP_GT, v, hf),
		              cmp(x, IR_CMP_LT, v, hf), round);
	}
	ir_ref nan = k(x, IR_T_I32, 0x7fff);
	if (f64_src != IR_NO_REF) { /* sign, quiet bit, the payload's top 9 bits */
		ir_ref hi = op1(x, IR_TRUNC, IR_T_I32,
		                op2(x, IR_SHR_U, IR_T_I64, op1(x, IR_BITCAST, IR_T_I64, f64_src, 0),
		                    k(x, IR_T_I32, 32)),
		                0);
		ir_ref sign =
		        op2(x, IR_AND, IR_T_I32, op2(x, IR_SHR_U, IR_T_I32, hi, k(x, IR_T_I32, 16)),
		            k(x, IR_T_I32, 0x8000));
		ir_ref top =
		        op2(x, IR_AND, IR_T_I32, op2(x, IR_SHR_U, IR_T_I32, hi, k(x, IR_T_I32, 10)),
		            k(x, IR_T_I32, 0x1ff));
		nan = op2(x, IR_OR, IR_T_I32, op2(x, IR_OR, IR_T_I32, sign, top),
		          k(x, IR_T_I32, 0x7e00));
	}
	r = sel(x, IR_T_I32, cmp(x, IR_CMP_NAN, v, v), nan, r);
	return op1(x, IR_TRUNC, IR_T_I16, r, 0);
}

/* ---- entry ---- */

static bool is_directed(const struct rx *x)
{
	return has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP);
}

/* the integer sources of cvt.f16 handled here (8-bit ones live in wider registers) */
static bool is_int16_to_64(enum ptx_type t)
{
	return t == PTX_TYPE_S16 || t == PTX_TYPE_U16 || t == PTX_TYPE_S32 || t == PTX_TYPE_U32 ||
	       t == PTX_TYPE_S64 || t == PTX_TYPE_U64;
}

static bool tr_cvt(struct rx *x)
{
	if (x->in->ntypes != 2)
		return false;
	enum ptx_type dt = (enum ptx_type)x->in->types[0], st = (enum ptx_type)x->in->types[1];
	if ((dt == PTX_TYPE_F32 || dt == PTX_TYPE_F64) &&
	    (st == PTX_TYPE_S64 || st == PTX_TYPE_U64)) {
		if (!is_directed(x))
			return false;
		enum ir_type ft = dt == PTX_TYPE_F32 ? IR_T_F32 : IR_T_F64;
		bool sg = st == PTX_TYPE_S64;
		/* .ftz: no integer converts to a subnormal, so there is nothing to flush */
		ir_ref r = itof_directed(x, src(x, 1, IR_T_I64, sg), sg, ft, round_of(x));
		dst(x, has(x, PTX_DW_SAT) ? saturate(x, ft, r) : r);
		return true;
	}
	if (dt == PTX_TYPE_F32 && st == PTX_TYPE_F64) {
		if (!is_directed(x) || has(x, PTX_DW_SAT))
			return false;
		ir_ref r = f32_of_f64(x, src(x, 1, IR_T_F64, false), round_of(x));
		dst(x, has(x, PTX_DW_FTZ) ? flush32(x, r) : r);
		return true;
	}
	if (dt != PTX_TYPE_F16 || has(x, PTX_DW_SAT) || has(x, PTX_DW_RELU) ||
	    has(x, PTX_DW_SATFINITE))
		return false; /* build_arith.c names them */
	ir_ref v, f64_src = IR_NO_REF;
	if (is_int16_to_64(st)) { /* through a round-to-odd f32 */
		if (has(x, PTX_DW_FTZ))
			return false;
		bool sg = ptx_types[st].cls == PTX_TC_SINT;
		v = itof_directed(x, src(x, 1, IR_T_I64, sg), sg, IR_T_F32, ROUND_ODD);
	} else if (st == PTX_TYPE_F64) {
		if (has(x, PTX_DW_FTZ))
			return false;
		f64_src = src(x, 1, IR_T_F64, false);
		v = round_odd_f32(x, f64_src);
	} else if (st == PTX_TYPE_F32 && is_directed(x)) {
		v = src(x, 1, IR_T_F32, false); /* .ftz flushes nothing here: docs/SEMANTICS.md */
	} else {
		return false;
	}
	dst(x, to_half(x, v, round_of(x), f64_src));
	return true;
}

bool irb_round(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct rx xs = {.b = b, .in = in, .guard = guard}, *x = &xs;
	if (in->op == PTX_OP_CVT)
		return tr_cvt(x);
	if (in->op != PTX_OP_DIV && in->op != PTX_OP_RCP && in->op != PTX_OP_SQRT)
		return false;
	if (!in->ntypes || !is_directed(x) || has(x, PTX_DW_APPROX) || has(x, PTX_DW_FULL))
		return false;
	enum ptx_type ty = (enum ptx_type)in->types[0];
	if (ty != PTX_TYPE_F32 && ty != PTX_TYPE_F64)
		return false;
	enum ir_type t = ty == PTX_TYPE_F32 ? IR_T_F32 : IR_T_F64;
	if (t == IR_T_F64 && has(x, PTX_DW_FTZ)) {
		irb_unsupported(b, in, "'.ftz' on f64 (PTX has it on f32 only)");
		return true;
	}
	if (in->op == PTX_OP_SQRT)
		tr_sqrt(x, t);
	else
		tr_div(x, t, in->op == PTX_OP_RCP);
	return true;
}
