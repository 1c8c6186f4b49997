/* valu: the operand machinery of the vector ALU semantics (valu.h): source fetch with inline
 * constants, float input modifiers, DPP16/DPP8 lane selection and SDWA operand selection;
 * destination checks; output modifiers; SDWA destination merge; lane-mask results.
 * complexity: O(lanes) per operand. */
#include <fenv.h>
#include "valu.h"

static unsigned dpp16_src_lane(uint32_t ctrl, unsigned l, unsigned nl, bool *valid)
{
	unsigned row = l & ~15u, r = l & 15;
	int src = -1;
	if (ctrl <= 0xff)
		src = (int)((l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3));
	else if (ctrl >= 0x101 && ctrl <= 0x10f)
		src = r + (ctrl & 15) <= 15 ? (int)(l + (ctrl & 15)) : -1;
	else if (ctrl >= 0x111 && ctrl <= 0x11f)
		src = r >= (ctrl & 15) ? (int)(l - (ctrl & 15)) : -1;
	else if (ctrl >= 0x121 && ctrl <= 0x12f)
		src = (int)(row | ((r - (ctrl & 15)) & 15));
	else if (ctrl == 0x130)
		src = l + 1 < nl ? (int)(l + 1) : -1;
	else if (ctrl == 0x134)
		src = (int)((l + 1) % nl);
	else if (ctrl == 0x138)
		src = l >= 1 ? (int)(l - 1) : -1;
	else if (ctrl == 0x13c)
		src = (int)((l + nl - 1) % nl);
	else if (ctrl == 0x140)
		src = (int)(row | (15 - r));
	else if (ctrl == 0x141)
		src = (int)((l & ~7u) | (7 - (l & 7)));
	else if (ctrl == 0x142)
		src = row >= 16 ? (int)(row - 1) : -1;
	else if (ctrl == 0x143)
		src = l >= 32 ? 31 : -1;
	else if (ctrl >= 0x150 && ctrl <= 0x15f)
		src = (int)(row | (ctrl & 15));
	else if (ctrl >= 0x160 && ctrl <= 0x16f)
		src = (int)(row | (r ^ (ctrl & 15)));
	else
		*valid = false;
	return src < 0 ? 0xffffffffu : (unsigned)src;
}

static unsigned dpp_lane(uint32_t ctrl, unsigned l, unsigned nl, bool *valid)
{
	return dpp16_src_lane(ctrl, l, nl, valid);
}

static void vsrc_raw(struct sim_wave *w, const struct sim_insn *in, int i, unsigned bits, bool fl,
                     struct vsrc *s)
{
	uint16_t code = in->src[i];
	s->absm = s->negm = 0;
	if (fl) {
		uint32_t sign = bits == 16 ? 0x8000u : 0x80000000u;
		if ((in->abs >> i) & 1)
			s->absm = sign;
		if ((in->neg >> i) & 1)
			s->negm = sign;
	}
	if (code >= SIM_VGPR0) {
		unsigned reg = code - SIM_VGPR0;
		unsigned n = bits == 64 ? 2 : 1;
		if (reg + n > 256) {
			sim_fault(w, "VGPR operand v%u out of range", reg);
			s->lo = s->hi = s->k;
			s->stride = 0;
			return;
		}
		sim_chk_read_v(w, in, reg, n);
		s->lo = VROW(w, reg);
		s->hi = VROW(w, reg + 1);
		s->stride = 1;
		if (i == 0 && (in->dpp == 1 || in->dpp == 2)) {
			uint64_t exec = sim_exec(w);
			bool valid = true;
			bool fi = in->dpp == 2 ? in->src[0] == 0 : (in->imm2 >> 18) & 1;
			bool bound = (in->imm2 >> 19) & 1;
			for (unsigned l = 0; l < w->nlanes; l++) {
				unsigned sl;
				if (in->dpp == 2)
					sl = (l & ~7u) | ((in->imm2 >> (8 + 3 * (l & 7))) & 7);
				else
					sl = dpp_lane((in->imm2 >> 8) & 0x1ff, l, w->nlanes,
					              &valid);
				bool ok = sl < w->nlanes && (fi || ((exec >> sl) & 1));
				s->tlo[l] = ok ? s->lo[sl] : (bound ? 0 : s->lo[l]);
				s->thi[l] = ok ? s->hi[sl] : (bound ? 0 : s->hi[l]);
			}
			if (!valid)
				sim_fault(w, "unsupported DPP control 0x%x",
				          (in->imm2 >> 8) & 0x1ff);
			s->lo = s->tlo;
			s->hi = s->thi;
		}
		return;
	}
	if (bits == 64) {
		uint64_t v = sim_rd_s64(w, in, code, fl);
		s->k[0] = (uint32_t)v;
		s->k[1] = (uint32_t)(v >> 32);
	} else {
		s->k[0] = sim_rd_s32(w, in, code);
		if (bits == 16 && fl && code >= 240 && code <= 248) {
			static const uint16_t h[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
			                              0xc000, 0x4400, 0xc400, 0x3118};
			s->k[0] = h[code - 240];
		}
		s->k[1] = 0;
	}
	s->lo = &s->k[0];
	s->hi = &s->k[1];
	s->stride = 0;
}

/* SDWA operand select: BYTE0-3, WORD0-1 (zero- or sign-extended) or DWORD */
static uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sx)
{
	if (sel >= 6)
		return v;
	unsigned bits = sel < 4 ? 8 : 16, sh = sel < 4 ? 8 * sel : 16 * (sel - 4);
	uint32_t x = (v >> sh) & ((1u << bits) - 1);
	if (sx && ((x >> (bits - 1)) & 1))
		x |= ~((1u << bits) - 1);
	return x;
}

void sim_vsrc(struct sim_wave *w, const struct sim_insn *in, int i, unsigned bits, bool fl,
              struct vsrc *s)
{
	vsrc_raw(w, in, i, bits, fl, s);
	/* SDWA selects from 32-bit and 16-bit operands alike (an f16 source with src_sel WORD_1
	 * reads the high half); neg/abs then act on the selected value. */
	if (in->dpp != 3 || i > 1 || bits == 64)
		return;
	unsigned sel = (in->imm2 >> (i ? 24 : 16)) & 7;
	bool sx = (in->imm2 >> (i ? 27 : 19)) & 1;
	if (sel >= 6)
		return;
	for (unsigned l = 0; l < w->nlanes; l++)
		s->tlo[l] = sdwa_sel(s->lo[l * s->stride], sel, sx);
	s->lo = s->tlo;
	s->stride = 1;
}

/* After an SDWA instruction: merge the 32-bit result into the selected destination field. */
void sim_sdwa_dst(struct sim_wave *w, const struct sim_insn *in, const uint32_t *old)
{
	unsigned sel = (in->imm2 >> 8) & 7, unused = (in->imm2 >> 11) & 3;
	if (sel >= 6 || in->dst < SIM_VGPR0)
		return;
	uint32_t *d = VROW(w, in->dst - SIM_VGPR0);
	unsigned bits = sel < 4 ? 8 : 16, sh = sel < 4 ? 8 * sel : 16 * (sel - 4);
	uint32_t fmask = ((1u << bits) - 1) << sh;
	uint64_t exec = sim_exec(w);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t r = (d[l] << sh) & fmask;
		if (unused == 2)
			r |= old[l] & ~fmask;
		else if (unused == 1 && sh + bits < 32 && ((r >> (sh + bits - 1)) & 1))
			r |= ~0u << (sh + bits);
		d[l] = r;
	}
}

/* Lanes written by a DPP16 instruction: row_mask and bank_mask, and lanes whose source lane is
 * invalid without bound_ctrl keep their old value. */
static uint64_t dpp_write_mask(const struct sim_wave *w, const struct sim_insn *in)
{
	if (in->dpp != 1)
		return ~0ull;
	uint32_t d = in->imm2, ctrl = (d >> 8) & 0x1ff;
	unsigned row_mask = d >> 28, bank_mask = (d >> 24) & 15;
	bool bound = (d >> 19) & 1, fi = (d >> 18) & 1, valid = true;
	uint64_t exec = sim_exec(w), m = 0;
	for (unsigned l = 0; l < w->nlanes; l++) {
		if (!((row_mask >> (l / 16)) & 1) || !((bank_mask >> ((l & 15) / 4)) & 1))
			continue;
		unsigned sl = dpp_lane(ctrl, l, w->nlanes, &valid);
		bool ok = sl < w->nlanes && (fi || ((exec >> sl) & 1));
		if (ok || bound)
			m |= 1ull << l;
	}
	return m;
}

/* The MODE register's rounding (0 nearest even, 1 +inf, 2 -inf, 3 toward zero) becomes the
 * host's for the instruction: f32/f64 arithmetic done in C then rounds as the hardware
 * does.  The FP environment is per thread CPU state, not a program variable; sim_run_wave
 * restores round-to-nearest after each instruction that changed it.  (f16 arithmetic is
 * rounded in software to nearest even and ignores the mode: see docs/SIMULATOR.md.) */
void sim_set_host_round(struct sim_wave *w, unsigned rm)
{
	static const int host[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
	fesetround(host[rm]);
	w->host_round = (uint8_t)rm;
}

void sim_vbegin(struct sim_wave *w, const struct sim_insn *in, struct vctx *v, unsigned dbits,
                bool f64)
{
	v->exec = sim_exec(w) & dpp_write_mask(w, in);
	unsigned dn = f64 ? (w->mode >> 6) & 3 : (w->mode >> 4) & 3;
	unsigned rm = f64 ? (w->mode >> 2) & 3 : w->mode & 3;
	if (rm != w->host_round)
		sim_set_host_round(w, rm);
	v->ftz_in = dn == 0 || dn == 2;
	v->ftz_out = dn == 0 || dn == 1;
	v->ieee = w->ctx->gen < AMD_GFX12 && ((w->mode >> 9) & 1);
	v->dreg = 0;
	if (in->dst >= SIM_VGPR0) {
		v->dreg = in->dst - SIM_VGPR0;
		unsigned n = dbits == 64 ? 2 : 1;
		if (v->dreg + n > 256) {
			sim_fault(w, "VGPR destination v%u out of range", v->dreg);
			v->exec = 0;
			v->dreg = 0;
			return;
		}
		sim_chk_write_v(w, in, v->dreg, n);
	}
}

/* MODE.DX10_CLAMP (bit 8, gfx6-11): clamp turns NaN into 0; clear, NaN passes through. */
static bool nan_clamps_to_zero(const struct sim_wave *w)
{
	return w->ctx->gen >= AMD_GFX12 || ((w->mode >> 8) & 1);
}

float sim_fout32(const struct sim_wave *w, const struct sim_insn *in, float r)
{
	static const float om[4] = {1.0f, 2.0f, 4.0f, 0.5f};
	if (in->omod)
		r *= om[in->omod];
	if (in->clamp)
		r = isnan(r)   ? (nan_clamps_to_zero(w) ? 0.0f : r)
		    : r < 0.0f ? 0.0f
		    : r > 1.0f ? 1.0f
		               : r;
	return r;
}

double sim_fout64(const struct sim_wave *w, const struct sim_insn *in, double r)
{
	static const double om[4] = {1.0, 2.0, 4.0, 0.5};
	if (in->omod)
		r *= om[in->omod];
	if (in->clamp)
		r = isnan(r)  ? (nan_clamps_to_zero(w) ? 0.0 : r)
		    : r < 0.0 ? 0.0
		    : r > 1.0 ? 1.0
		              : r;
	return r;
}

/* Writes a per-lane bit mask (carry out, compare result) to an SGPR (pair on wave64). */
void sim_vwrite_lanemask(struct sim_wave *w, const struct sim_insn *in, uint16_t sdst,
                         uint64_t bits)
{
	if (w->nlanes == 64)
		sim_wr_s64(w, sdst, bits);
	else
		sim_wr_s32(w, sdst, (uint32_t)bits);
}
