/* sem_v16: semantics of the 16-bit vector instructions: VOP1/VOP2/VOP3 integer and f16
 * operations on one half of a VGPR (op_sel picks halves; the result zeroes or keeps the other
 * half), VOP3P packed 16-bit operations, v_pk_mov_b32, v_mbcnt and v_xad.  Half precision is
 * computed in single precision and rounded once to f16 (exact for add/sub/mul, and fma uses an
 * exact double product).
 * complexity: O(lanes) per instruction. */
#include "valu.h"

/* f16 arithmetic rounds to nearest even whatever the MODE register's f32 rounding (which
 * sim_vbegin gave the host): the f32 intermediate and its f16 rounding (nearbyintf) then round
 * once correctly, and fma16's exact-error sum needs nearest rounding. */
static inline void f16_nearest(struct sim_wave *w)
{
	if (w->host_round != 0)
		sim_set_host_round(w, 0);
}

/* 16-bit sources: op_sel bit i picks the high half of source i (VOP3); the result goes to the
 * low half with the high half zeroed, or to the high half (op_sel bit 3) keeping the low. */
static inline uint32_t half_of(const struct vsrc *s, unsigned l, const struct sim_insn *in, int i)
{
	uint32_t v = vs32(s, l);
	return ((in->opsel >> i) & 1) ? v >> 16 : v & 0xffff;
}
static inline uint32_t put_half(const struct sim_insn *in, uint32_t old, uint32_t r)
{
	return (in->opsel & 8) ? (old & 0xffff) | (r << 16) : (r & 0xffff);
}

#define VU16(fn, nsrc, expr)                                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(nsrc, 32, false, 32, false)                                                \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			uint32_t a = half_of(&s0, l, in, 0);                                       \
			uint32_t b = nsrc > 1 ? half_of(&s1, l, in, 1) : 0;                        \
			uint32_t c = nsrc > 2 ? half_of(&s2, l, in, 2) : 0;                        \
			(void)b;                                                                   \
			(void)c;                                                                   \
			d[l] = put_half(in, d[l], (uint32_t)(expr));                               \
		}                                                                                  \
	}

static inline float hf(const struct vsrc *s, unsigned l, const struct sim_insn *in, int i)
{
	uint32_t v = half_of(s, l, in, i);
	v = (v & ~s->absm) ^ s->negm;
	return sim_f16_to_f32((uint16_t)v);
}

#define VF16(fn, nsrc, expr)                                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(nsrc, 16, true, 32, false)                                                 \
		f16_nearest(w);                                                                    \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			float a = hf(&s0, l, in, 0);                                               \
			float b = nsrc > 1 ? hf(&s1, l, in, 1) : 0.0f;                             \
			float c = nsrc > 2 ? hf(&s2, l, in, 2) : 0.0f;                             \
			(void)b;                                                                   \
			(void)c;                                                                   \
			d[l] = put_half(in, d[l], sim_f32_to_f16(sim_fout32(w, in, (expr))));      \
		}                                                                                  \
	}

/* f16 fma, rounded once: the product of two f16 values is exact in double, the sum is made
 * exact-or-odd (round to odd, from the exact TwoSum error) first in double and then in float,
 * so that the final float -> f16 rounding to nearest even rounds the exact result (round to
 * odd at p >= 11 + 2 bits keeps enough to round correctly later).  Rounding the double sum to
 * nearest twice before the f16 rounding gave a wrong last bit on near-midpoint sums. */
static double round_odd_sum(double p, double c)
{
	double s = p + c, bp = s - p, err = (p - (s - bp)) + (c - bp);
	if (err == 0 || isinf(s))
		return s;
	double t = signbit(err) == signbit(s) ? s : nextafter(s, 0.0);
	return sim_as_f64(sim_f64_bits(t) | 1);
}
static float fma16(float a, float b, float c)
{
	double t = round_odd_sum((double)a * b, c);
	float f = (float)t;
	if ((double)f != t && !isinf(f)) {
		if (fabs((double)f) > fabs(t))
			f = nextafterf(f, 0.0f);
		f = sim_as_f32(sim_f32_bits(f) | 1);
	}
	return f;
}

static uint32_t usat16(int32_t v, bool clamp)
{
	return !clamp ? (uint32_t)v & 0xffff : v < 0 ? 0 : v > 0xffff ? 0xffff : (uint32_t)v;
}
static uint32_t ssat16(int32_t v, bool clamp)
{
	return !clamp       ? (uint32_t)v & 0xffff
	       : v < -32768 ? 0x8000
	       : v > 32767  ? 0x7fff
	                    : (uint32_t)v & 0xffff;
}
VU16(v_add_u16, 2, usat16((int32_t)a + (int32_t)b, in->clamp))
VU16(v_sub_u16, 2, usat16((int32_t)a - (int32_t)b, in->clamp))
VU16(v_subrev_u16, 2, usat16((int32_t)b - (int32_t)a, in->clamp))
VU16(v_add_i16, 2, ssat16((int16_t)a + (int16_t)b, in->clamp))
VU16(v_sub_i16, 2, ssat16((int16_t)a - (int16_t)b, in->clamp))
VU32(v_xad_u32, 3, (a ^ b) + c)
VU16(v_mul_lo_u16, 2, a *b)
VU16(v_lshlrev_b16, 2, b << (a & 15))
VU16(v_lshrrev_b16, 2, b >> (a & 15))
VU16(v_ashrrev_i16, 2, (uint32_t)((int16_t)b >> (a & 15)))
VU16(v_max_u16, 2, a > b ? a : b)
VU16(v_min_u16, 2, a < b ? a : b)
VU16(v_max_i16, 2, (int16_t)a > (int16_t)b ? a : b)
VU16(v_min_i16, 2, (int16_t)a < (int16_t)b ? a : b)
VU16(v_mad_u16, 3, a *b + c)
VU16(v_mad_i16, 3, (uint32_t)((int16_t)a *(int16_t)b + (int16_t)c))
VU16(v_cvt_f16_u16, 1, sim_f32_to_f16(sim_fout32(w, in, (float)a)))
VU16(v_cvt_f16_i16, 1, sim_f32_to_f16(sim_fout32(w, in, (float)(int16_t)a)))
VU16(v_not_b16, 1, ~a)
VF16(v_add_f16, 2, a + b)
VF16(v_sub_f16, 2, a - b)
VF16(v_subrev_f16, 2, b - a)
VF16(v_mul_f16, 2, a *b)

/* f16 min/max as the f32 ones (valu.h): in IEEE mode a signaling NaN half (S0 first) gives
 * that NaN quieted, tested on the raw bits since the f32 widening would quiet it. */
static inline bool snan16(uint32_t h)
{
	return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200);
}
static uint32_t minmax16(uint32_t x, uint32_t y, bool is_max, bool ieee)
{
	if (ieee && (snan16(x) || snan16(y)))
		return (snan16(x) ? x : y) | 0x200;
	float a = sim_f16_to_f32((uint16_t)x), b = sim_f16_to_f32((uint16_t)y);
	return sim_f32_to_f16(is_max ? fmaxf_hw(a, b) : fminf_hw(a, b));
}
static void v_minmax16(struct sim_wave *w, const struct sim_insn *in, bool is_max)
{
	V_BEGIN(2, 16, true, 32, false)
	FOR_LANES(v)
	{
		uint32_t x = (half_of(&s0, l, in, 0) & ~s0.absm) ^ s0.negm;
		uint32_t y = (half_of(&s1, l, in, 1) & ~s1.absm) ^ s1.negm;
		uint32_t r = minmax16(x & 0xffff, y & 0xffff, is_max, v.ieee);
		if (in->clamp || in->omod) /* output modifiers on the value (NaN clamps to 0) */
			r = sim_f32_to_f16(sim_fout32(w, in, sim_f16_to_f32((uint16_t)r)));
		d[l] = put_half(in, d[l], r);
	}
}
static void v_max_f16(struct sim_wave *w, const struct sim_insn *in)
{
	v_minmax16(w, in, true);
}
static void v_min_f16(struct sim_wave *w, const struct sim_insn *in)
{
	v_minmax16(w, in, false);
}
VF16(v_fma_f16, 3, fma16(a, b, c))
VF16(v_mad_f16, 3, fma16(a, b, c))
VF16(v_sqrt_f16, 1, sqrtf(a))
VF16(v_rcp_f16, 1, 1.0f / a)
VF16(v_trunc_f16, 1, truncf(a))
VF16(v_floor_f16, 1, floorf(a))
VF16(v_ceil_f16, 1, ceilf(a))
VF16(v_rndne_f16, 1, nearbyintf(a))

static uint32_t f2u16(float x)
{
	return isnan(x) || x <= 0 ? 0 : x >= 65535.0f ? 0xffff : (uint32_t)x;
}
static uint32_t f2i16(float x)
{
	return isnan(x)         ? 0
	       : x <= -32768.0f ? 0x8000
	       : x >= 32767.0f  ? 0x7fff
	                        : (uint32_t)(int)x & 0xffff;
}
static void v_cvt_u16_f16(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(1, 16, true, 32, false)
	FOR_LANES(v)
	d[l] = put_half(in, d[l], f2u16(hf(&s0, l, in, 0)));
}
static void v_cvt_i16_f16(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(1, 16, true, 32, false)
	FOR_LANES(v)
	d[l] = put_half(in, d[l], f2i16(hf(&s0, l, in, 0)));
}
static void v_fmac_f16(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 16, true, 32, false)
	f16_nearest(w);
	sim_chk_read_v(w, in, v.dreg, 1);
	FOR_LANES(v)
	{
		float c = sim_f16_to_f32((uint16_t)d[l]);
		d[l] = sim_f32_to_f16(
		        sim_fout32(w, in, fma16(hf(&s0, l, in, 0), hf(&s1, l, in, 1), c)));
	}
}
static void v_ldexp_f16(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 16, true, 32, false)
	f16_nearest(w);
	FOR_LANES(v)
	d[l] = put_half(in, d[l],
	                sim_f32_to_f16(sim_fout32(
	                        w, in, ldexpf(hf(&s0, l, in, 0), (int16_t)vs32(&s1, l)))));
}

/* v_mbcnt: count of set mask bits below this lane (lo: lanes 0-31, hi: 32-63) plus S1 */
static void v_mbcnt_lo_u32_b32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, false, 32, false)
	FOR_LANES(v)
	{
		uint32_t below = l >= 32 ? 0xffffffffu : (uint32_t)((1ull << l) - 1);
		d[l] = (uint32_t)__builtin_popcount(vs32(&s0, l) & below) + vs32(&s1, l);
	}
}
static void v_mbcnt_hi_u32_b32(struct sim_wave *w, const struct sim_insn *in)
{
	V_BEGIN(2, 32, false, 32, false)
	FOR_LANES(v)
	{
		uint32_t below = l < 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1);
		d[l] = (uint32_t)__builtin_popcount(vs32(&s0, l) & below) + vs32(&s1, l);
	}
}

/* v_pk_mov_b32: D.lo = op_sel[0] ? S0.hi : S0.lo, D.hi = op_sel_hi[1] ? S1.hi : S1.lo */
static void v_pk_mov_b32(struct sim_wave *w, const struct sim_insn *in)
{
	struct vctx v;
	struct vsrc s0, s1;
	sim_vsrc(w, in, 0, 64, false, &s0);
	sim_vsrc(w, in, 1, 64, false, &s1);
	sim_vbegin(w, in, &v, 64, false);
	uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);
	bool lo_hi = in->opsel & 1, hi_hi = (in->opsel_hi >> 1) & 1;
	FOR_LANES(v)
	{
		uint64_t a = vs64(&s0, l), b = vs64(&s1, l);
		d[l] = (uint32_t)(lo_hi ? a >> 32 : a);
		dh[l] = (uint32_t)(hi_hi ? b >> 32 : b);
	}
}

/* ---- packed 16-bit (VOP3P) ---- */
enum pk_op {
	PK_ADD_F16,
	PK_MUL_F16,
	PK_FMA_F16,
	PK_MAX_F16,
	PK_MIN_F16,
	PK_ADD_U16,
	PK_ADD_I16,
	PK_SUB_U16,
	PK_SUB_I16,
	PK_MUL_LO_U16,
	PK_MAX_U16,
	PK_MAX_I16,
	PK_MIN_U16,
	PK_MIN_I16,
	PK_LSHLREV_B16,
	PK_LSHRREV_B16,
	PK_ASHRREV_I16,
	PK_MAD_U16,
	PK_MAD_I16
};

static uint32_t pk_half(const struct sim_wave *w, const struct sim_insn *in, enum pk_op op,
                        uint32_t a, uint32_t b, uint32_t c, bool ieee)
{
	bool cl = in->clamp;
	if (op == PK_MAX_F16 || op == PK_MIN_F16) {
		uint32_t r = minmax16(a & 0xffff, b & 0xffff, op == PK_MAX_F16, ieee);
		return cl ? sim_f32_to_f16(sim_fout32(w, in, sim_f16_to_f32((uint16_t)r))) : r;
	}
	if (op <= PK_MIN_F16) {
		float x = sim_f16_to_f32((uint16_t)a), y = sim_f16_to_f32((uint16_t)b);
		float z = sim_f16_to_f32((uint16_t)c), r;
		switch (op) {
		case PK_ADD_F16:
			r = x + y;
			break;
		case PK_MUL_F16:
			r = x * y;
			break;
		default: /* PK_FMA_F16 (min/max are above) */
			r = fma16(x, y, z);
			break;
		}
		return sim_f32_to_f16(sim_fout32(w, in, r)); /* VOP3P: clamp only, no omod */
	}
	int32_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c;
	switch (op) {
	case PK_ADD_U16:
		return usat16((int32_t)(a + b), cl);
	case PK_ADD_I16:
		return ssat16(sa + sb, cl);
	case PK_SUB_U16:
		return usat16((int32_t)a - (int32_t)b, cl);
	case PK_SUB_I16:
		return ssat16(sa - sb, cl);
	case PK_MUL_LO_U16:
		return (a * b) & 0xffff;
	case PK_MAX_U16:
		return a > b ? a : b;
	case PK_MAX_I16:
		return (sa > sb ? (uint32_t)sa : (uint32_t)sb) & 0xffff;
	case PK_MIN_U16:
		return a < b ? a : b;
	case PK_MIN_I16:
		return (sa < sb ? (uint32_t)sa : (uint32_t)sb) & 0xffff;
	case PK_LSHLREV_B16:
		return (b << (a & 15)) & 0xffff;
	case PK_LSHRREV_B16:
		return b >> (a & 15);
	case PK_ASHRREV_I16:
		return (uint32_t)(sb >> (a & 15)) & 0xffff;
	case PK_MAD_U16:
		return usat16((int32_t)(a * b + c), cl);
	default:
		return ssat16(sa * sb + sc, cl);
	}
}

static void v_pk16(struct sim_wave *w, const struct sim_insn *in)
{
	enum pk_op op = (enum pk_op)in->sem->arg;
	bool fl = op <= PK_MIN_F16;
	unsigned nsrc = (op == PK_FMA_F16 || op == PK_MAD_U16 || op == PK_MAD_I16) ? 3 : 2;
	struct vctx v;
	struct vsrc src[3];
	for (unsigned i = 0; i < nsrc; i++) {
		sim_vsrc(w, in, (int)i, 32, false, &src[i]);
		if (fl && in->src[i] >= 240 &&
		    in->src[i] <= 248) /* f16 inline constant, low half */
			sim_vsrc(w, in, (int)i, 16, true, &src[i]), src[i].negm = src[i].absm = 0;
	}
	sim_vbegin(w, in, &v, 32, false);
	f16_nearest(w);
	uint32_t *d = VROW(w, v.dreg);
	FOR_LANES(v)
	{
		uint32_t x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
		for (unsigned i = 0; i < nsrc; i++) {
			uint32_t val = vs32(&src[i], l);
			x[i] = ((in->opsel >> i) & 1) ? val >> 16 : val & 0xffff;
			y[i] = ((in->opsel_hi >> i) & 1) ? val >> 16 : val & 0xffff;
			if (fl) {
				x[i] ^= ((in->neg >> i) & 1) << 15;
				y[i] ^= ((in->neg_hi >> i) & 1) << 15;
			}
		}
		d[l] = pk_half(w, in, op, x[0], x[1], x[2], v.ieee) |
		       (pk_half(w, in, op, y[0], y[1], y[2], v.ieee) << 16);
	}
}

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
#define PK(n, op)                                                                                  \
	{                                                                                          \
#n, v_pk16, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU, 0, op                          \
	}

static const struct sim_sem v16_sems[] = {
        V(v_add_u16),
        VA(v_add_nc_u16, v_add_u16),
        V(v_sub_u16),
        VA(v_sub_nc_u16, v_sub_u16),
        V(v_subrev_u16),
        V(v_mul_lo_u16),
        V(v_lshlrev_b16),
        V(v_lshrrev_b16),
        V(v_ashrrev_i16),
        V(v_max_u16),
        V(v_min_u16),
        V(v_max_i16),
        V(v_min_i16),
        V(v_mad_u16),
        VA(v_mad_legacy_u16, v_mad_u16),
        V(v_mad_i16),
        VA(v_mad_legacy_i16, v_mad_i16),
        V(v_cvt_f16_u16),
        V(v_cvt_f16_i16),
        V(v_cvt_u16_f16),
        V(v_cvt_i16_f16),
        V(v_not_b16),
        V(v_add_f16),
        V(v_sub_f16),
        V(v_subrev_f16),
        V(v_mul_f16),
        V(v_max_f16),
        VA(v_min_num_f16, v_min_f16),
        VA(v_max_num_f16, v_max_f16),
        V(v_min_f16),
        V(v_fma_f16),
        V(v_mad_f16),
        VA(v_mad_legacy_f16, v_mad_f16),
        VA(v_fma_legacy_f16, v_fma_f16),
        V(v_fmac_f16),
        V(v_ldexp_f16),
        VT(v_sqrt_f16),
        VT(v_rcp_f16),
        V(v_trunc_f16),
        V(v_floor_f16),
        V(v_ceil_f16),
        V(v_rndne_f16),
        V(v_add_i16),
        VA(v_add_nc_i16, v_add_i16),
        V(v_sub_i16),
        VA(v_sub_nc_i16, v_sub_i16),
        V(v_xad_u32),
        V(v_mbcnt_lo_u32_b32),
        PK(v_pk_add_f16, PK_ADD_F16),
        PK(v_pk_mul_f16, PK_MUL_F16),
        PK(v_pk_fma_f16, PK_FMA_F16),
        PK(v_pk_max_f16, PK_MAX_F16),
        PK(v_pk_min_f16, PK_MIN_F16),
        PK(v_pk_max_num_f16, PK_MAX_F16), /* gfx12 names of the same IEEE maxNum/minNum */
        PK(v_pk_min_num_f16, PK_MIN_F16),
        PK(v_pk_add_u16, PK_ADD_U16),
        PK(v_pk_add_i16, PK_ADD_I16),
        PK(v_pk_sub_u16, PK_SUB_U16),
        PK(v_pk_sub_i16, PK_SUB_I16),
        PK(v_pk_mul_lo_u16, PK_MUL_LO_U16),
        PK(v_pk_max_u16, PK_MAX_U16),
        PK(v_pk_max_i16, PK_MAX_I16),
        PK(v_pk_min_u16, PK_MIN_U16),
        PK(v_pk_min_i16, PK_MIN_I16),
        PK(v_pk_lshlrev_b16, PK_LSHLREV_B16),
        PK(v_pk_lshrrev_b16, PK_LSHRREV_B16),
        PK(v_pk_ashrrev_i16, PK_ASHRREV_I16),
        PK(v_pk_mad_u16, PK_MAD_U16),
        PK(v_pk_mad_i16, PK_MAD_I16),
        V(v_mbcnt_hi_u32_b32),
        V(v_pk_mov_b32),
};

const struct sim_sem *sim_sems_v16(unsigned *n)
{
	*n = sizeof v16_sems / sizeof v16_sems[0];
	return v16_sems;
}
