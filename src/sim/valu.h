/* valu.h: operand fetch and result write for the vector ALU semantics files (internal).
 *
 * A VALU instruction is executed lane by lane over EXEC.  Each source is prepared once per
 * instruction as a pointer to its 64 per-lane values (VGPR row) or to one broadcast scalar
 * (stride 0), after DPP lane selection; the float modifiers (neg/abs) are applied per lane
 * with two masks.  The macros below generate one function per operation with the lane loop
 * inlined, so the per-lane cost is the operation itself. */
#ifndef SIM_VALU_H
#define SIM_VALU_H

#include <math.h>
#include <string.h>

#include "sim_int.h"

struct vsrc {
	const uint32_t *lo, *hi;
	unsigned stride;
	uint32_t k[2];
	uint32_t tlo[64], thi[64]; /* DPP-permuted copy */
	uint32_t absm, negm;       /* raw-bit masks of the float modifiers (high word for f64) */
};

struct vctx {
	uint64_t exec;
	unsigned dreg; /* destination VGPR index */
	bool ftz_in, ftz_out;
	bool ieee; /* MODE.IEEE (gfx6-11): min/max turn a signaling NaN operand into its quiet NaN
	            */
};

/* Prepares source i (bits = 16, 32 or 64; fl = float operand for inline constants/modifiers). */
void sim_vsrc(struct sim_wave *w, const struct sim_insn *in, int i, unsigned bits, bool fl,
              struct vsrc *s);
/* Starts a VALU instruction: EXEC (with DPP write mask), destination, denorm flags. */
void sim_vbegin(struct sim_wave *w, const struct sim_insn *in, struct vctx *v, unsigned dbits,
                bool f64);
/* Output modifiers (omod, then clamp to [0, 1]; NaN clamps to 0 when MODE.DX10_CLAMP is set or
 * on gfx12, which has no such bit) on a float result. */
float sim_fout32(const struct sim_wave *w, const struct sim_insn *in, float r);
/* Sets the host rounding direction to MODE rounding mode rm (restored after the instruction). */
void sim_set_host_round(struct sim_wave *w, unsigned rm);
double sim_fout64(const struct sim_wave *w, const struct sim_insn *in, double r);
void sim_sdwa_dst(struct sim_wave *w, const struct sim_insn *in, const uint32_t *old);
void sim_vwrite_lanemask(struct sim_wave *w, const struct sim_insn *in, uint16_t sdst,
                         uint64_t bits);

static inline uint32_t vs32(const struct vsrc *s, unsigned l)
{
	return s->lo[l * s->stride];
}
static inline uint64_t vs64(const struct vsrc *s, unsigned l)
{
	return (uint64_t)s->hi[l * s->stride] << 32 | s->lo[l * s->stride];
}
static inline float vf32(const struct vsrc *s, unsigned l, bool ftz)
{
	uint32_t b = (vs32(s, l) & ~s->absm) ^ s->negm;
	if (ftz && (b & 0x7f800000u) == 0)
		b &= 0x80000000u;
	return sim_as_f32(b);
}
static inline double vf64(const struct vsrc *s, unsigned l, bool ftz)
{
	uint64_t b = (vs64(s, l) & ~((uint64_t)s->absm << 32)) ^ ((uint64_t)s->negm << 32);
	if (ftz && (b & 0x7ff0000000000000ull) == 0)
		b &= 0x8000000000000000ull;
	return sim_as_f64(b);
}
static inline float vf16(const struct vsrc *s, unsigned l)
{
	uint32_t b = (vs32(s, l) & ~s->absm) ^ s->negm;
	return sim_f16_to_f32((uint16_t)b);
}
static inline uint32_t ftz32(float r, bool ftz)
{
	uint32_t b = sim_f32_bits(r);
	if (ftz && (b & 0x7f800000u) == 0)
		b &= 0x80000000u;
	return b;
}
static inline uint64_t ftz64(double r, bool ftz)
{
	uint64_t b = sim_f64_bits(r);
	if (ftz && (b & 0x7ff0000000000000ull) == 0)
		b &= 0x8000000000000000ull;
	return b;
}

#define FOR_LANES(v)                                                                               \
	for (uint64_t m_ = (v).exec, l; m_ && (l = (unsigned)__builtin_ctzll(m_), 1); m_ &= m_ - 1)

#define VROW(w, r) (&(w)->v[(size_t)(r)*SIM_WAVE_STRIDE])

/* IEEE minNum/maxNum as the hardware does them: a NaN operand yields the other. */
static inline float fminf_hw(float a, float b)
{
	return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b;
}
static inline float fmaxf_hw(float a, float b)
{
	return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b;
}

/* min/max with the MODE register's IEEE bit (ISA pseudo-code of V_MIN_F32/V_MAX_F32 and
 * f64): a signaling NaN operand (S0 first) gives that NaN quieted; otherwise as above.  gfx12's
 * v_min_num/v_max_num have no IEEE mode (v.ieee is false there). */
static inline bool snan32(float x)
{
	uint32_t b = sim_f32_bits(x);
	return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) && !(b & 0x400000u);
}
static inline bool snan64(double x)
{
	uint64_t b = sim_f64_bits(x);
	return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) &&
	       !(b & 0x8000000000000ull);
}
/* cvtToQuietNAN of the ISA pseudo-code: a signaling NaN gets its quiet bit, payload kept */
static inline float quiet32(float x)
{
	return snan32(x) ? sim_as_f32(sim_f32_bits(x) | 0x400000u) : x;
}
static inline double quiet_nan64(double x)
{
	return snan64(x) ? sim_as_f64(sim_f64_bits(x) | 0x8000000000000ull) : x;
}
static inline float fminf_mode(float a, float b, bool ieee)
{
	if (ieee && (snan32(a) || snan32(b)))
		return sim_as_f32(sim_f32_bits(snan32(a) ? a : b) | 0x400000u);
	return fminf_hw(a, b);
}
static inline float fmaxf_mode(float a, float b, bool ieee)
{
	if (ieee && (snan32(a) || snan32(b)))
		return sim_as_f32(sim_f32_bits(snan32(a) ? a : b) | 0x400000u);
	return fmaxf_hw(a, b);
}
static inline double quiet64(double a, double b)
{
	return sim_as_f64(sim_f64_bits(snan64(a) ? a : b) | 0x8000000000000ull);
}

/* ---- operation generators: one function per operation, lane loop inlined ---- */

#define V_BEGIN(nsrc, sbits, fl, dbits, f64)                                                       \
	struct vctx v;                                                                             \
	struct vsrc s0, s1, s2;                                                                    \
	sim_vsrc(w, in, 0, sbits, fl, &s0);                                                        \
	if (nsrc > 1)                                                                              \
		sim_vsrc(w, in, 1, sbits, fl, &s1);                                                \
	if (nsrc > 2)                                                                              \
		sim_vsrc(w, in, 2, sbits, fl, &s2);                                                \
	(void)s1;                                                                                  \
	(void)s2;                                                                                  \
	sim_vbegin(w, in, &v, dbits, f64);                                                         \
	uint32_t *d = VROW(w, v.dreg);                                                             \
	uint32_t *dh = VROW(w, v.dreg + 1);                                                        \
	(void)dh;

#define VU32(fn, nsrc, expr)                                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(nsrc, 32, false, 32, false)                                                \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			uint32_t a = vs32(&s0, l), b = nsrc > 1 ? vs32(&s1, l) : 0;                \
			uint32_t c = nsrc > 2 ? vs32(&s2, l) : 0;                                  \
			(void)a;                                                                   \
			(void)b;                                                                   \
			(void)c;                                                                   \
			d[l] = (expr);                                                             \
		}                                                                                  \
	}

#define VF32(fn, nsrc, expr)                                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(nsrc, 32, true, 32, false)                                                 \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			float a = vf32(&s0, l, v.ftz_in);                                          \
			float b = nsrc > 1 ? vf32(&s1, l, v.ftz_in) : 0.0f;                        \
			float c = nsrc > 2 ? vf32(&s2, l, v.ftz_in) : 0.0f;                        \
			(void)b;                                                                   \
			(void)c;                                                                   \
			d[l] = ftz32(sim_fout32(w, in, (expr)), v.ftz_out);                        \
		}                                                                                  \
	}

#define VF64(fn, nsrc, expr)                                                                       \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(nsrc, 64, true, 64, true)                                                  \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			double a = vf64(&s0, l, v.ftz_in);                                         \
			double b = nsrc > 1 ? vf64(&s1, l, v.ftz_in) : 0.0;                        \
			double c = nsrc > 2 ? vf64(&s2, l, v.ftz_in) : 0.0;                        \
			(void)b;                                                                   \
			(void)c;                                                                   \
			uint64_t r = ftz64(sim_fout64(w, in, (expr)), v.ftz_out);                  \
			d[l] = (uint32_t)r;                                                        \
			dh[l] = (uint32_t)(r >> 32);                                               \
		}                                                                                  \
	}

/* 64-bit integer results from 64-bit (or shift-count 32-bit) sources */
#define VU64(fn, nsrc, bits0, expr)                                                                \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		struct vctx v;                                                                     \
		struct vsrc s0, s1, s2;                                                            \
		sim_vsrc(w, in, 0, bits0, false, &s0);                                             \
		if (nsrc > 1)                                                                      \
			sim_vsrc(w, in, 1, 64, false, &s1);                                        \
		if (nsrc > 2)                                                                      \
			sim_vsrc(w, in, 2, 64, false, &s2);                                        \
		sim_vbegin(w, in, &v, 64, false);                                                  \
		uint32_t *d = VROW(w, v.dreg), *dh = VROW(w, v.dreg + 1);                          \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			uint64_t a = bits0 == 64 ? vs64(&s0, l) : vs32(&s0, l);                    \
			uint64_t b = nsrc > 1 ? vs64(&s1, l) : 0;                                  \
			uint64_t c = nsrc > 2 ? vs64(&s2, l) : 0;                                  \
			(void)b;                                                                   \
			(void)c;                                                                   \
			uint64_t r = (expr);                                                       \
			d[l] = (uint32_t)r;                                                        \
			dh[l] = (uint32_t)(r >> 32);                                               \
		}                                                                                  \
	}

/* f32 result from an f64 source and vice versa */
#define VCVT(fn, sbits, fl, dbits, f64mode, expr)                                                  \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		V_BEGIN(1, sbits, fl, dbits, f64mode)                                              \
		FOR_LANES(v)                                                                       \
		{                                                                                  \
			uint64_t r = (expr);                                                       \
			d[l] = (uint32_t)r;                                                        \
			if (dbits == 64)                                                           \
				dh[l] = (uint32_t)(r >> 32);                                       \
		}                                                                                  \
	}

#endif
