/* ir_build: mma.sync and wmma.mma -> IR, by a portable lowering (docs/TENSOR.md).
 *
 * The fragment layouts are the PTX ISA's ("Matrix Fragments for mma.mMnNkK"): a function
 * mma_elem(layout, lane, e) -> (grp, row, col) per fragment kind (build_mma_frag.c), e the
 * lane's element index (register e / per, sub-element e % per).  wmma fragments are tiles of
 * these (build_wmma.c).  The algorithm, one instruction at a time:
 *   1. invert the A, B and C layouts at compile time: for every (grp, row, k) the lane and
 *      element that hold A's element, for every (grp, k, col) B's, (grp, row, col) C's;
 *   2. for each element x of this lane's D (coordinates (grp, i, j), functions of the
 *      lane) and each k, the owner lane of A[i][k] is a function of the lane whose bits
 *      are constants or lane bits (every ISA layout is of this form; mma_fit checks it
 *      for all 32 lanes and fails the instruction otherwise): the register is read from
 *      that lane with one IR_LANE_READ (ds_bpermute, DPP or v_readlane after selection),
 *      cached per (lane function, register) so each register of each source lane is read
 *      once, and the element unpacked.  An element index that differs between lanes
 *      (m8n8k4's A and C against its .f32 D) selects among the candidates by the index,
 *      itself a lane function; C is gathered the same way (the identity elsewhere);
 *   3. D = C + sum_k A[i][k] * B[k][j]: an fma chain in f32 for f16/bf16/tf32/fp8 inputs
 *      (every product is exact in f32; an f16 D is rounded once at the end), in f64 for
 *      f64 (with wmma's rounding modifier), an i32 sum of i32 products for the integer
 *      types (exact: at most 2^21), added to C with wrap-around or, with .satfinite,
 *      saturated to the s32 range where that one addition overflows; b1: popc of the
 *      AND/XOR of 32-bit words.
 * Warps are 32 lanes: on wave64 each half of the wave computes its own product (lane reads
 * stay in the half), whatever --warp-size says, as a 64-thread NVIDIA CTA is two warps.
 * .aligned: every lane of the warp executes the instruction; a guard (@p mma) selects the
 * new D where p holds and keeps the old registers elsewhere, the products being computed in
 * every lane (a lane that does not execute it would otherwise feed zeros to the others).
 * Cost: O(elements of D x K) IR operations per instruction, O(32 x elements) to invert. */
#include <string.h>

#include "ir/build_mma.h"

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

static ir_ref op1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(b, op, t, &a, 1, aux, 0);
}

static ir_ref op3(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, ir_ref d,
                  uint32_t aux)
{
	ir_ref args[3] = {a, c, d};
	return irb_emit(b, op, t, args, 3, aux, 0);
}

static bool lanefn_is_identity(const struct mma_lanefn *f)
{
	for (unsigned ob = 0; ob < MMA_FN_BITS; ob++)
		if (f->src[ob] != (ob < 5 ? ob : MMA_BIT0))
			return false;
	return true;
}

static uint64_t lanefn_code(const struct mma_lanefn *f) /* source lanes: 5 bits */
{
	uint64_t c = 0;
	for (unsigned ob = 0; ob < 5; ob++)
		c |= (uint64_t)(f->src[ob] < 5           ? f->src[ob]
		                : f->src[ob] == MMA_BIT0 ? 5
		                                         : 6)
		     << (3 * ob);
	return c;
}

static bool ek_is_int(enum mma_ek k)
{
	return k == EK_S8 || k == EK_U8 || k == EK_S4 || k == EK_U4 || k == EK_S32 || k == EK_B1;
}

/* ---- the instruction's operands ---- */

struct mma_form {
	unsigned m, n, k, ngrp;
	struct mma_layout la, lb, lc, ld;
	enum mma_ek ea, eb, ec, ed;
	bool satfinite, bxor;
	uint32_t fround; /* f64: IR_FM_* rounding */
};

enum { CACHE_MAX = 2048 };

struct mma_cache {
	uint64_t key[CACHE_MAX];
	ir_ref val[CACHE_MAX];
	unsigned n;
};

struct mma_state {
	struct irb *b;
	const struct mma_form *f;
	ir_ref *reg[3]; /* A, B, C registers: i32, or i64 for f64 */
	ir_ref base;    /* first wave lane of the warp (wave64), else IR_NO_REF */
	struct mma_cache cache;
	unsigned *inv[3]; /* A, B, C: owner lane << 16 | element, or ~0 */
	struct gather_key *gathered[CACHE_MAX];
	ir_ref gathered_val[CACHE_MAX];
	unsigned ngathered;
};

static ir_ref *cache_slot(struct mma_state *s, uint64_t key)
{
	for (unsigned i = 0; i < s->cache.n; i++)
		if (s->cache.key[i] == key)
			return &s->cache.val[i];
	if (s->cache.n == CACHE_MAX)
		return NULL;
	s->cache.key[s->cache.n] = key;
	s->cache.val[s->cache.n] = IR_NO_REF;
	return &s->cache.val[s->cache.n++];
}

/* Register r of matrix which (0 A, 1 B) in the lane that f names. */
static ir_ref read_reg(struct mma_state *s, unsigned which, unsigned r, const struct mma_lanefn *f)
{
	struct irb *b = s->b;
	ir_ref v = s->reg[which][r];
	if (lanefn_is_identity(f))
		return v;
	uint64_t key = (uint64_t)which << 60 | (uint64_t)r << 32 | lanefn_code(f);
	ir_ref *slot = cache_slot(s, key);
	if (slot && *slot != IR_NO_REF)
		return *slot;
	ir_ref from = mma_lanefn_value(b, f);
	if (s->base != IR_NO_REF)
		from = irb_op2(b, IR_OR, IR_T_I32, from, s->base, 0);
	ir_ref got;
	if (b->fn->vals[v].type == IR_T_I64) { /* lane reads move 32 bits */
		ir_ref lo = op1(b, IR_TRUNC, IR_T_I32, v, 0);
		ir_ref hi = op1(b, IR_TRUNC, IR_T_I32,
		                irb_op2(b, IR_SHR_U, IR_T_I64, v, konst(b, IR_T_I64, 32), 0), 0);
		lo = op1(b, IR_ZEXT, IR_T_I64, irb_op2(b, IR_LANE_READ, IR_T_I32, lo, from, 0), 0);
		hi = op1(b, IR_ZEXT, IR_T_I64, irb_op2(b, IR_LANE_READ, IR_T_I32, hi, from, 0), 0);
		got = irb_op2(b, IR_OR, IR_T_I64, lo,
		              irb_op2(b, IR_SHL, IR_T_I64, hi, konst(b, IR_T_I64, 32), 0), 0);
	} else {
		got = irb_op2(b, IR_LANE_READ, IR_T_I32, v, from, 0);
	}
	if (slot)
		*slot = got;
	return got;
}

/* An fp8 byte (i32, low 8 bits) as f32: e5m2 is the high byte of an f16; e4m3 (bias 7, no
 * infinities, S.1111.111 is NaN) through its bits placed as an f32's and scaled by 2^120. */
static ir_ref fp8_to_f32(struct irb *b, ir_ref x, bool e5m2)
{
	if (e5m2)
		return op1(b, IR_H2F, IR_T_F32,
		           op1(b, IR_TRUNC, IR_T_I16,
		               irb_op2(b, IR_SHL, IR_T_I32, x, konst(b, IR_T_I32, 8), 0), 0),
		           0);
	ir_ref mag = irb_op2(b, IR_AND, IR_T_I32, x, konst(b, IR_T_I32, 0x7f), 0);
	ir_ref f = op1(b, IR_BITCAST, IR_T_F32,
	               irb_op2(b, IR_SHL, IR_T_I32, mag, konst(b, IR_T_I32, 20), 0), 0);
	f = irb_op2(b, IR_FMUL, IR_T_F32, f, konst(b, IR_T_F32, 0x7b800000u), IR_FM_RN); /* 2^120 */
	ir_ref sign = irb_op2(b, IR_SHL, IR_T_I32,
	                      irb_op2(b, IR_AND, IR_T_I32, x, konst(b, IR_T_I32, 0x80), 0),
	                      konst(b, IR_T_I32, 24), 0);
	ir_ref bits = irb_op2(b, IR_OR, IR_T_I32, op1(b, IR_BITCAST, IR_T_I32, f, 0), sign, 0);
	ir_ref nan = irb_op2(b, IR_ICMP, IR_T_PRED, mag, konst(b, IR_T_I32, 0x7f), IR_CMP_EQ);
	bits = op3(b, IR_SELECT, IR_T_I32, nan, konst(b, IR_T_I32, 0x7fffffff), bits, 0);
	return op1(b, IR_BITCAST, IR_T_F32, bits, 0);
}

/* Sub-element s of a register as a number: f32 for the float kinds (f64 for f64), i32 for
 * the integer kinds. */
static ir_ref unpack(struct irb *b, ir_ref reg, unsigned s, enum mma_ek k)
{
	unsigned bits = mma_ek_bits(k);
	ir_ref pos = konst(b, IR_T_I32, s * bits), len = konst(b, IR_T_I32, bits);
	switch (k) {
	case EK_F16:
		if (s)
			reg = irb_op2(b, IR_SHR_U, IR_T_I32, reg, pos, 0);
		return op1(b, IR_H2F, IR_T_F32, op1(b, IR_TRUNC, IR_T_I16, reg, 0), 0);
	case EK_BF16:
		reg = s ? irb_op2(b, IR_AND, IR_T_I32, reg, konst(b, IR_T_I32, 0xffff0000u), 0)
		        : irb_op2(b, IR_SHL, IR_T_I32, reg, konst(b, IR_T_I32, 16), 0);
		return op1(b, IR_BITCAST, IR_T_F32, reg, 0);
	case EK_TF32: /* the hardware reads the top 19 bits (docs/TENSOR.md) */
		reg = irb_op2(b, IR_AND, IR_T_I32, reg, konst(b, IR_T_I32, 0xffffe000u), 0);
		return op1(b, IR_BITCAST, IR_T_F32, reg, 0);
	case EK_F32:
		return op1(b, IR_BITCAST, IR_T_F32, reg, 0);
	case EK_F64:
		return op1(b, IR_BITCAST, IR_T_F64, reg, 0);
	case EK_S32:
		return reg;
	case EK_S8:
	case EK_S4:
		return op3(b, IR_BFE_S, IR_T_I32, reg, pos, len, 0);
	case EK_U8:
	case EK_U4:
	case EK_B1:
		return op3(b, IR_BFE_U, IR_T_I32, reg, pos, len, 0);
	case EK_E4M3:
	case EK_E5M2:
		return fp8_to_f32(b, op3(b, IR_BFE_U, IR_T_I32, reg, pos, len, 0), k == EK_E5M2);
	case EK_NONE:
		break;
	}
	return reg;
}

/* The owners of A[grp][row][k] / B[grp][k][col], per lane of the warp. */
static unsigned *invert(struct mma_state *s, const struct mma_layout *l, unsigned rows,
                        unsigned cols)
{
	unsigned n = s->f->ngrp * rows * cols, ne = mma_layout_elems(l);
	unsigned *inv = PA_NEW_ARRAY(s->b->arena, unsigned, n);
	memset(inv, 0xff, n * sizeof *inv);
	for (unsigned lane = 0; lane < 32; lane++)
		for (unsigned e = 0; e < ne; e++) {
			struct mma_coord p = mma_elem(l, lane, e);
			unsigned at = (p.grp * rows + p.row) * cols + p.col;
			if (p.grp < s->f->ngrp && p.row < rows && p.col < cols && inv[at] == ~0u)
				inv[at] = lane << 16 | e;
		}
	for (unsigned i = 0; i < n; i++)
		if (inv[i] == ~0u)
			return NULL;
	return inv;
}

/* A gathered element: its matrix, the source lane function's code and, per lane, the
 * element index in that lane's register file. */
struct gather_key {
	unsigned which;
	uint64_t src;
	uint16_t e[32];
};

static unsigned elem_per(const struct mma_state *s, unsigned which)
{
	if (which < 2)
		return (which ? &s->f->lb : &s->f->la)->per;
	return s->f->ec == EK_F16 ? 2 : 1;
}

static enum mma_ek elem_kind(const struct mma_state *s, unsigned which)
{
	return which == 0 ? s->f->ea : which == 1 ? s->f->eb : s->f->ec;
}

/* The element that owner[lane] (lane << 16 | element) names, as every lane sees it: its
 * value in this lane, or IR_NO_REF when no lane function fits.  An element index that
 * differs between lanes (m8n8k4's A and C against its f32 D) is a selection among the
 * registers read, by the index as a lane function. */
static ir_ref gather(struct mma_state *s, unsigned which, const unsigned *owner)
{
	struct irb *b = s->b;
	unsigned src[32], ev[32], per = elem_per(s, which);
	bool same = true;
	for (unsigned lane = 0; lane < 32; lane++) {
		src[lane] = owner[lane] >> 16;
		ev[lane] = owner[lane] & 0xffff;
		same &= ev[lane] == ev[0];
	}
	struct mma_lanefn f, fe;
	if (!mma_fit(src, &f) || (!same && !mma_fit(ev, &fe)))
		return IR_NO_REF;
	struct gather_key *key = PA_NEW(b->arena, struct gather_key);
	memset(key, 0, sizeof *key);
	key->which = which;
	key->src = lanefn_code(&f);
	for (unsigned lane = 0; lane < 32; lane++)
		key->e[lane] = (uint16_t)ev[lane];
	for (unsigned i = 0; i < s->ngathered; i++)
		if (!memcmp(s->gathered[i], key, sizeof *key))
			return s->gathered_val[i];
	ir_ref v = IR_NO_REF, eval = same ? IR_NO_REF : mma_lanefn_value(b, &fe);
	for (unsigned lane = 0; lane < 32; lane++) {
		bool seen = false;
		for (unsigned l2 = 0; l2 < lane; l2++)
			seen |= ev[l2] == ev[lane];
		if (seen)
			continue;
		ir_ref reg = read_reg(s, which, ev[lane] / per, &f);
		ir_ref x = unpack(b, reg, ev[lane] % per, elem_kind(s, which));
		if (v == IR_NO_REF) {
			v = x;
			continue;
		}
		ir_ref is = irb_op2(b, IR_ICMP, IR_T_PRED, eval, konst(b, IR_T_I32, ev[lane]),
		                    IR_CMP_EQ);
		v = op3(b, IR_SELECT, b->fn->vals[x].type, is, x, v, 0);
	}
	if (s->ngathered < CACHE_MAX) {
		s->gathered[s->ngathered] = key;
		s->gathered_val[s->ngathered++] = v;
	}
	return v;
}

/* The owners, per lane, of the element at inverse-table index at[lane]. */
static const unsigned *owners(const unsigned *inv, const unsigned *at, unsigned *out)
{
	for (unsigned lane = 0; lane < 32; lane++)
		out[lane] = inv[at[lane]];
	return out;
}

/* b1: popc(A op B) over the 32-bit words that hold a whole run of 32 k. */
static ir_ref b1_dot(struct mma_state *s, const unsigned *ra, const unsigned *rb, unsigned k0,
                     bool *ok)
{
	ir_ref word[2];
	for (unsigned w = 0; w < 2 && *ok; w++) {
		const unsigned *at = w ? rb : ra, *inv = s->inv[w];
		unsigned stride = w ? s->f->n : 1; /* A: (row, k) k fastest; B: (k, col) */
		unsigned src[32], e0 = inv[at[0] + k0 * stride] & 0xffff;
		for (unsigned lane = 0; lane < 32; lane++) {
			unsigned base = at[lane] + k0 * stride;
			src[lane] = inv[base] >> 16;
			for (unsigned kk = 0; kk < 32; kk++)
				if (inv[base + kk * stride] != (src[lane] << 16 | (e0 + kk)))
					*ok = false;
		}
		struct mma_lanefn f;
		if (e0 % 32 || !mma_fit(src, &f))
			*ok = false;
		if (*ok)
			word[w] = read_reg(s, w, e0 / 32, &f);
	}
	if (!*ok)
		return IR_NO_REF;
	ir_ref x = irb_op2(s->b, s->f->bxor ? IR_XOR : IR_AND, IR_T_I32, word[0], word[1], 0);
	return op1(s->b, IR_POPC, IR_T_I32, x, 0);
}

/* The register of matrix which (0 A, 1 B) holding its elements at inverse-table indices
 * at0[lane] + i * step (i < n) as its n sub-elements in order, the same register in every
 * owner lane; IR_NO_REF when they are not. */
static ir_ref packed_reg(struct mma_state *s, unsigned which, const unsigned *at0, unsigned step,
                         unsigned n)
{
	const unsigned *inv = s->inv[which];
	unsigned src[32], e0 = inv[at0[0]] & 0xffff;
	for (unsigned lane = 0; lane < 32; lane++) {
		unsigned lo = inv[at0[lane]];
		src[lane] = lo >> 16;
		if ((lo & 0xffff) != e0 || e0 % n)
			return IR_NO_REF;
		for (unsigned i = 1; i < n; i++)
			if (inv[at0[lane] + i * step] != lo + i)
				return IR_NO_REF;
	}
	struct mma_lanefn f;
	return mma_fit(src, &f) ? read_reg(s, which, e0 / n, &f) : IR_NO_REF;
}

/* k .. k + n - 1 as one packed dot product where A's and B's are packed registers (every
 * f16 and 8-bit layout): f16 (n 2) v_dot2_f32_f16, c + a0 b0 + a1 b1 rounded once, the
 * products exact, so exact data stay exact; s8/u8 (n 4) v_dot4 (exact).  IR_NO_REF when
 * they are not packed so. */
static ir_ref packed_dot(struct mma_state *s, const unsigned *ra, const unsigned *rb, unsigned kk,
                         unsigned n, ir_ref acc)
{
	unsigned at[32];
	for (unsigned lane = 0; lane < 32; lane++)
		at[lane] = ra[lane] + kk;
	ir_ref a = packed_reg(s, 0, at, 1, n);
	for (unsigned lane = 0; lane < 32; lane++)
		at[lane] = rb[lane] + kk * s->f->n;
	ir_ref b = packed_reg(s, 1, at, s->f->n, n);
	if (a == IR_NO_REF || b == IR_NO_REF)
		return IR_NO_REF;
	if (n == 2)
		return op3(s->b, IR_DOT2_F16, IR_T_F32, a, b, acc, 0);
	uint32_t sign = (s->f->ea == EK_S8) | (uint32_t)(s->f->eb == EK_S8) << 1;
	if (acc == IR_NO_REF)
		acc = konst(s->b, IR_T_I32, 0);
	return op3(s->b, IR_DOT4_I8, IR_T_I32, a, b, acc, sign);
}

/* How many k one packed dot product takes for these types on this target (1: none). */
static unsigned dot_width(const struct mma_state *s)
{
	enum mma_ek a = s->f->ea, b = s->f->eb;
	if (a == EK_F16 && b == EK_F16)
		return 2;
	bool bytes = (a == EK_S8 || a == EK_U8) && (b == EK_S8 || b == EK_U8);
	bool iu8 = s->b->fn->matrix_unit == IR_MU_WMMA11 || s->b->fn->matrix_unit == IR_MU_WMMA12;
	return bytes && (a == b || iu8) ? 4 : 1; /* mixed signs: gfx11/gfx12's v_dot4_i32_iu8 */
}

/* The sum of the products A[i][k] * B[k][j] (ra, rb: inverse-table indices of A[grp][i][0]
 * and B[grp][0][j] per lane) onto acc (IR_NO_REF: integer, from 0). */
static ir_ref dot(struct mma_state *s, const unsigned *ra, const unsigned *rb, ir_ref acc, bool *ok)
{
	const struct mma_form *f = s->f;
	struct irb *b = s->b;
	bool integer = ek_is_int(f->ea), wide = f->ea == EK_F64;
	for (unsigned kk = 0; kk < f->k && *ok; kk++) {
		if (f->ea == EK_B1) {
			if (kk % 32)
				continue;
			ir_ref p = b1_dot(s, ra, rb, kk, ok);
			acc = acc == IR_NO_REF ? p : irb_op2(b, IR_ADD, IR_T_I32, acc, p, 0);
			continue;
		}
		unsigned w = dot_width(s);
		if (w > 1 && kk % w == 0 && kk + w <= f->k) {
			ir_ref d2 = packed_dot(s, ra, rb, kk, w, acc);
			if (d2 != IR_NO_REF) {
				acc = d2;
				kk += w - 1;
				continue;
			}
		}
		unsigned at[32], own[32];
		for (unsigned lane = 0; lane < 32; lane++)
			at[lane] = ra[lane] + kk;
		ir_ref av = gather(s, 0, owners(s->inv[0], at, own));
		for (unsigned lane = 0; lane < 32; lane++)
			at[lane] = rb[lane] + kk * f->n;
		ir_ref bv = gather(s, 1, owners(s->inv[1], at, own));
		if (av == IR_NO_REF || bv == IR_NO_REF) {
			*ok = false;
			break;
		}
		if (integer) {
			ir_ref p = irb_op2(b, IR_MUL, IR_T_I32, av, bv, 0);
			acc = acc == IR_NO_REF ? p : irb_op2(b, IR_ADD, IR_T_I32, acc, p, 0);
		} else {
			acc = op3(b, IR_FMA, wide ? IR_T_F64 : IR_T_F32, av, bv, acc,
			          wide ? f->fround : IR_FM_RN);
		}
	}
	return acc;
}

/* D's element x of this lane. */
static ir_ref d_elem(struct mma_state *s, unsigned x, bool *ok)
{
	const struct mma_form *f = s->f;
	struct irb *b = s->b;
	unsigned ra[32], rb[32], rc[32], own[32];
	for (unsigned lane = 0; lane < 32; lane++) {
		struct mma_coord p = mma_elem(&f->ld, lane, x);
		ra[lane] = (p.grp * f->m + p.row) * f->k;
		rb[lane] = p.grp * f->k * f->n + p.col;
		rc[lane] = (p.grp * f->m + p.row) * f->n + p.col;
	}
	ir_ref c = gather(s, 2, owners(s->inv[2], rc, own));
	if (c == IR_NO_REF) {
		*ok = false;
		return IR_NO_REF;
	}
	bool integer = ek_is_int(f->ea);
	ir_ref acc = dot(s, ra, rb, integer ? IR_NO_REF : c, ok);
	if (!*ok)
		return IR_NO_REF;
	if (!integer)
		return f->ed == EK_F16
		               ? op1(b, IR_ZEXT, IR_T_I32, op1(b, IR_F2H, IR_T_I16, acc, 0), 0)
		               : acc;
	if (!f->satfinite)
		return irb_op2(b, IR_ADD, IR_T_I32, acc, c, 0);
	/* .satfinite: the sum of the products is exact in 32 bits; adding C overflows when
	 * both have one sign and the sum the other, and then saturates towards C's sign */
	ir_ref sum = irb_op2(b, IR_ADD, IR_T_I32, acc, c, 0);
	ir_ref ov = irb_op2(b, IR_AND, IR_T_I32, irb_op2(b, IR_XOR, IR_T_I32, sum, acc, 0),
	                    irb_op2(b, IR_XOR, IR_T_I32, sum, c, 0), 0);
	ir_ref lim = irb_op2(b, IR_XOR, IR_T_I32,
	                     irb_op2(b, IR_SHR_S, IR_T_I32, c, konst(b, IR_T_I32, 31), 0),
	                     konst(b, IR_T_I32, 0x7fffffff), 0);
	ir_ref is_ov = irb_op2(b, IR_ICMP, IR_T_PRED, ov, konst(b, IR_T_I32, 0), IR_CMP_LT);
	return op3(b, IR_SELECT, IR_T_I32, is_ov, lim, sum, 0);
}

/* Reads the n registers of vector operand o (i32, or i64 for f64 elements). */
static ir_ref *read_frag(struct irb *b, const struct ptx_insn *in, const struct ptx_operand *o,
                         unsigned n, bool wide)
{
	unsigned have = o->kind == PTX_OPND_VEC ? o->nelems : 1;
	if (have != n) {
		irb_error(b, "'%s' wants a fragment of %u registers here, not %u",
		          ptx_ops[in->op].name, n, have);
		return NULL;
	}
	ir_ref *r = PA_NEW_ARRAY(b->arena, ir_ref, n);
	for (unsigned i = 0; i < n; i++)
		r[i] = irb_read_opnd(b, o->kind == PTX_OPND_VEC ? &o->elems[i] : o,
		                     wide ? IR_T_I64 : IR_T_I32, false);
	return r;
}

static unsigned regs_of(const struct mma_layout *l, enum mma_ek k)
{
	unsigned per = k == EK_F16 || k == EK_BF16 ? 2 : 1;
	if (l->kind == LK_A || l->kind == LK_B || l->kind == LK_QA_ROW || l->kind == LK_QA_COL ||
	    l->kind == LK_QB_ROW || l->kind == LK_QB_COL)
		per = l->per;
	return mma_layout_elems(l) / per;
}

/* The values of an n-register fragment's variables now (IR_NO_REF: not a register). */
static void var_values(struct irb *b, const struct ptx_operand *o, unsigned n, ir_ref *v)
{
	for (unsigned x = 0; x < n; x++) {
		const struct ptx_operand *e =
		        o->kind == PTX_OPND_VEC && x < o->nelems ? &o->elems[x] : o;
		int32_t var = e->kind == PTX_OPND_REG ? irb_opnd_var(b, e) : -1;
		v[x] = var < 0 ? IR_NO_REF : irb_read_var(b, (uint32_t)var, b->cur);
	}
}

/* The forms on the target's matrix unit (build_mma_mfma.c), when it has one for them: an
 * mma.sync, or each m16n8kK / m8n8kK tile of a wmma (build_wmma.c: mt x nt tiles), one
 * m16n8 product each.  An m8 tile (m8n32k16, m8n8k16) is computed as m16 with A's and C's
 * rows 8-15 copies of rows 0-7 (the m8 A register r is the m16 A register 2r: a16[r] =
 * a8[r / 2]; the m8 C element x is the m16 element x), its D's rows 8-15 dropped.  .f16 C
 * is widened to f32 before, an .f16 D rounded once after, as the portable lowering does.
 * Every tile is computed before D is written (a wmma's D may be its C); only an f32/s32 D
 * is recorded for chains, tile by tile. */
static bool fast_product(struct irb *b, const struct ptx_insn *in, const struct mma_form *f,
                         ir_ref *const *reg, unsigned nc, unsigned nd, ir_ref guard)
{
	bool c16 = f->ec == EK_F16, d16 = f->ed == EK_F16;
	unsigned mt = f->la.ntiles, nt = f->lb.ntiles, m0 = f->la.m0, ce = f->lc.nelem;
	if (f->la.kind != LK_A || f->lb.kind != LK_B || f->lc.kind != LK_C || !f->la.per ||
	    !f->lb.per || (m0 != 16 && m0 != 8) || f->lc.ntiles != mt * nt || f->lc.m0 != m0 ||
	    nc * (c16 ? 2 : 1) != ce * mt * nt || nd * (d16 ? 2 : 1) != ce * mt * nt)
		return false;
	unsigned ra = f->la.nelem / f->la.per, rb = f->lb.nelem / f->lb.per;
	if ((m0 == 16 ? ra : 2 * ra) > 4)
		return false;
	/* WMMA is 16 columns wide: two n8 tiles sharing A make one product, no padding */
	unsigned mu = b->fn->matrix_unit, w = 1;
	if ((mu == IR_MU_WMMA11 || mu == IR_MU_WMMA12) && nt % 2 == 0)
		w = 2;
	struct mma_fast q = {.m = 16,
	                     .n = 8 * w,
	                     .k = f->k,
	                     .ea = f->ea,
	                     .eb = f->eb,
	                     .ec = c16 ? EK_F32 : f->ec,
	                     .ed = d16 ? EK_F32 : f->ed,
	                     .sync = true,
	                     .satfinite = f->satfinite};
	unsigned nt_all = mt * nt, ne = ce * nt_all, np = nt_all / w;
	/* cv is indexed by element (ne of them): an .f16 C has two per register (nc = ne / 2)
	 * and no chain, all IR_NO_REF (with nc entries, elements past them read `out`) */
	ir_ref *cv = PA_NEW_ARRAY(b->arena, ir_ref, ne), *out = PA_NEW_ARRAY(b->arena, ir_ref, ne);
	for (unsigned r = 0; r < ne; r++)
		cv[r] = IR_NO_REF;
	if (!c16)
		var_values(b, &in->opnds[3], nc, cv);
	for (unsigned p = 0; p < np; p++) { /* product p: tiles p w .. p w + w - 1 */
		unsigned t0 = p * w, i = t0 / nt, j = t0 % nt;
		ir_ref a[4], c[8], cvar[8], fast[8];
		for (unsigned r = 0; r < (m0 == 16 ? ra : 2 * ra); r++)
			a[r] = m0 == 16 ? reg[0][i * ra + r] : reg[0][r / 2];
		for (unsigned x = 0; x < 4 * w; x++) {
			unsigned e = (t0 + x / 4) * ce + (m0 == 16 ? x % 4 : x & 1);
			c[x] = c16 ? op1(b, IR_BITCAST, IR_T_I32,
			                 unpack(b, reg[2][e / 2], e % 2, EK_F16), 0)
			           : reg[2][e];
			cvar[x] = cv[e];
		}
		/* the same form every product: only the first can be refused, before any code */
		if (!mma_matrix_unit(b, &q, a, reg[1] + j * rb, c, cvar, fast))
			return false;
		for (unsigned u = 0; u < w; u++)
			for (unsigned x = 0; x < ce; x++)
				out[(t0 + u) * ce + x] = fast[4 * u + x];
	}
	const struct ptx_operand *d = &in->opnds[0];
	for (unsigned r = 0; r < nd; r++) {
		ir_ref v = out[r];
		if (d16) {
			ir_ref h[2];
			for (unsigned e = 0; e < 2; e++)
				h[e] = op1(b, IR_ZEXT, IR_T_I32,
				           op1(b, IR_F2H, IR_T_I16,
				               op1(b, IR_BITCAST, IR_T_F32, out[2 * r + e], 0), 0),
				           0);
			v = irb_op2(b, IR_OR, IR_T_I32, h[0],
			            irb_op2(b, IR_SHL, IR_T_I32, h[1], konst(b, IR_T_I32, 16), 0),
			            0);
		}
		irb_write_dest(b, d->kind == PTX_OPND_VEC ? &d->elems[r] : d, v, false, guard);
	}
	if (guard != IR_NO_REF || d16)
		return true;
	ir_ref *dv = PA_NEW_ARRAY(b->arena, ir_ref, nd);
	var_values(b, d, nd, dv);
	for (unsigned p = 0; p < np; p++) {
		ir_ref dvar[8];
		for (unsigned x = 0; x < 4 * w; x++)
			dvar[x] = dv[(p * w + x / 4) * ce + (m0 == 16 ? x % 4 : x & 1)];
		mma_matrix_written(b, np - 1 - p, dvar);
	}
	return true;
}

/* D = A * B + C for a form: operands d, a, b, c at in->opnds[0..3]; na/nb the A/B register
 * counts the instruction must give (wmma's spare registers included). */
static void build_product(struct irb *b, const struct ptx_insn *in, const struct mma_form *f,
                          unsigned na, unsigned nb, ir_ref guard)
{
	struct mma_state *s = PA_NEW(b->arena, struct mma_state);
	memset(s, 0, sizeof *s);
	s->b = b;
	s->f = f;
	bool wide = f->ea == EK_F64;
	unsigned nc = regs_of(&f->lc, f->ec), nd = regs_of(&f->ld, f->ed);
	s->reg[0] = read_frag(b, in, &in->opnds[1], na, wide);
	s->reg[1] = read_frag(b, in, &in->opnds[2], nb, wide);
	s->reg[2] = read_frag(b, in, &in->opnds[3], nc, wide);
	const struct ptx_operand *d = &in->opnds[0];
	if (!s->reg[0] || !s->reg[1] || !s->reg[2])
		return;
	if ((d->kind == PTX_OPND_VEC ? d->nelems : 1) != nd) {
		irb_error(b, "'%s' wants a D fragment of %u registers here", ptx_ops[in->op].name,
		          nd);
		return;
	}
	if (fast_product(b, in, f, s->reg, nc, nd, guard))
		return;
	const struct mma_layout *fl[4] = {&f->la, &f->lb, &f->lc, &f->ld};
	ir_ref d64[2];
	ir_ref dq[8];
	if (f->ngrp > 1 && (nd == 4 || nd == 8) && mma_quad_unit(b, fl, s->reg, dq)) {
		for (unsigned r = 0; r < nd; r++)
			irb_write_dest(b, &d->elems[r], dq[r], false, guard);
		return;
	}
	if (wide && nd == 2 && mma_f64_unit(b, fl, f->fround, s->reg, d64)) {
		for (unsigned r = 0; r < 2; r++)
			irb_write_dest(b, d->kind == PTX_OPND_VEC ? &d->elems[r] : d, d64[r], false,
			               guard);
		return;
	}
	s->inv[0] = invert(s, &f->la, f->m, f->k);
	s->inv[1] = invert(s, &f->lb, f->k, f->n);
	s->inv[2] = invert(s, &f->lc, f->m, f->n);
	if (!s->inv[0] || !s->inv[1] || !s->inv[2]) {
		irb_unsupported(b, in, "a fragment layout that does not cover its matrix");
		return;
	}
	if (b->fn->wave_size == 64)
		s->base = irb_op2(b, IR_AND, IR_T_I32,
		                  irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0),
		                  konst(b, IR_T_I32, 32), 0);
	else
		s->base = IR_NO_REF;
	unsigned ne = mma_layout_elems(&f->ld);
	ir_ref *out = PA_NEW_ARRAY(b->arena, ir_ref, ne);
	bool ok = true;
	for (unsigned x = 0; x < ne && ok; x++)
		out[x] = d_elem(s, x, &ok);
	if (!ok) {
		irb_unsupported(b, in, "a fragment layout that is not a function of lane bits");
		return;
	}
	for (unsigned r = 0; r < nd; r++) {
		ir_ref v = out[r];
		if (f->ed == EK_F16)
			v = irb_op2(b, IR_OR, IR_T_I32, out[2 * r],
			            irb_op2(b, IR_SHL, IR_T_I32, out[2 * r + 1],
			                    konst(b, IR_T_I32, 16), 0),
			            0);
		irb_write_dest(b, d->kind == PTX_OPND_VEC ? &d->elems[r] : d, v, false, guard);
	}
}

/* ---- forms ---- */

static const struct {
	enum ptx_dotword w;
	unsigned m, n, k;
} shapes[] = {
        {PTX_DW_M8N8K4, 8, 8, 4},       {PTX_DW_M16N8K8, 16, 8, 8},
        {PTX_DW_M16N8K16, 16, 8, 16},   {PTX_DW_M16N8K4, 16, 8, 4},
        {PTX_DW_M8N8K16, 8, 8, 16},     {PTX_DW_M8N8K32, 8, 8, 32},
        {PTX_DW_M16N8K32, 16, 8, 32},   {PTX_DW_M16N8K64, 16, 8, 64},
        {PTX_DW_M8N8K128, 8, 8, 128},   {PTX_DW_M16N8K128, 16, 8, 128},
        {PTX_DW_M16N8K256, 16, 8, 256}, {PTX_DW_M16N16K16, 16, 16, 16},
        {PTX_DW_M32N8K16, 32, 8, 16},   {PTX_DW_M8N32K16, 8, 32, 16},
        {PTX_DW_M16N16K8, 16, 16, 8},
};

bool mma_shape(const struct ptx_insn *in, unsigned *m, unsigned *n, unsigned *k)
{
	for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (ptx_insn_has_mod(in, shapes[i].w)) {
			*m = shapes[i].m;
			*n = shapes[i].n;
			*k = shapes[i].k;
			return true;
		}
	return false;
}

/* The .row/.col words in source order: bit 0 A is .col, bit 1 B is .col; -1 if not two. */
static int layouts_of(const struct ptx_insn *in)
{
	int bits = 0, n = 0;
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == PTX_DW_ROW || in->mods[i] == PTX_DW_COL) {
			if (n < 2 && in->mods[i] == PTX_DW_COL)
				bits |= 1 << n;
			n++;
		}
	return n == 2 ? bits : -1;
}

static unsigned per_reg(enum mma_ek k)
{
	return k == EK_F64 ? 1 : 32 / mma_ek_bits(k);
}

/* mma.sync's layouts (PTX ISA fragments): the generic ones, or m8n8k4 .f16's quad pairs. */
static const char *mma_layouts(const struct ptx_insn *in, struct mma_form *f)
{
	int lay = layouts_of(in);
	struct mma_layout *la = &f->la, *lb = &f->lb, *lc = &f->lc, *ld = &f->ld;
	*la = *lb = *lc = *ld = (struct mma_layout){.ntiles = 1};
	f->ngrp = 1;
	if (f->m == 8 && f->k == 4 && f->ea == EK_F16) {
		f->ngrp = 4;
		la->kind = lay & 1 ? LK_QA_COL : LK_QA_ROW;
		lb->kind = lay & 2 ? LK_QB_COL : LK_QB_ROW;
		la->per = lb->per = 2;
		la->nelem = lb->nelem = 4;
		lc->kind = f->ec == EK_F32 ? LK_QC_F32 : LK_QC_F16;
		ld->kind = f->ed == EK_F32 ? LK_QC_F32 : LK_QC_F16;
		lc->nelem = ld->nelem = 8;
		if (f->ec != f->ed && f->ed == EK_F16)
			return "an .f16 D with an .f32 C";
		return lay < 0 ? "missing .row/.col layouts" : NULL;
	}
	if (lay != 2) /* A .row, B .col */
		return "layouts other than .row.col for this shape";
	la->kind = LK_A;
	lb->kind = LK_B;
	lc->kind = LK_C;
	la->m0 = lc->m0 = f->m;
	la->k = lb->k = f->k;
	la->per = per_reg(f->ea);
	lb->per = per_reg(f->eb);
	la->nelem = f->m * f->k / 32;
	lb->nelem = f->k * 8 / 32;
	lc->nelem = f->m * 8 / 32;
	*ld = *lc;
	return NULL;
}

/* Whether the element types make a form this lowering computes (PTX ISA's mma types). */
static const char *check_types(const struct mma_form *f)
{
	bool fa = f->ea == EK_F16 || f->ea == EK_BF16 || f->ea == EK_TF32 || f->ea == EK_E4M3 ||
	          f->ea == EK_E5M2;
	bool ia = f->ea == EK_S8 || f->ea == EK_U8 || f->ea == EK_S4 || f->ea == EK_U4;
	if (fa &&
	    (f->eb == EK_F16 || f->eb == EK_BF16 || f->eb == EK_TF32 || f->eb == EK_E4M3 ||
	     f->eb == EK_E5M2) &&
	    (f->ec == EK_F32 || f->ec == EK_F16) && (f->ed == EK_F32 || f->ed == EK_F16))
		return NULL;
	if (ia && mma_ek_bits(f->eb) == mma_ek_bits(f->ea) && ek_is_int(f->eb) && f->ec == EK_S32 &&
	    f->ed == EK_S32)
		return NULL;
	if (f->ea == EK_B1 && f->eb == EK_B1 && f->ec == EK_S32 && f->ed == EK_S32)
		return NULL;
	if (f->ea == EK_F64 && f->eb == EK_F64 && f->ec == EK_F64 && f->ed == EK_F64)
		return NULL;
	return "this combination of element types";
}

/* The b1 operation and .satfinite; NULL or what is not supported. */
static const char *check_mods(const struct ptx_insn *in, struct mma_form *f)
{
	f->satfinite = ptx_insn_has_mod(in, PTX_DW_SATFINITE);
	if (f->satfinite && !ek_is_int(f->ea))
		return ".satfinite on a floating-point form";
	if (f->ea == EK_B1) {
		if (!ptx_insn_has_mod(in, PTX_DW_POPC))
			return "a .b1 form without .and.popc/.xor.popc";
		f->bxor = ptx_insn_has_mod(in, PTX_DW_XOR);
		if (!f->bxor && !ptx_insn_has_mod(in, PTX_DW_AND))
			return "a .b1 form without .and.popc/.xor.popc";
	}
	return NULL;
}

static void tr_mma_sync(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct mma_form f = {.fround = IR_FM_RN};
	if (!mma_shape(in, &f.m, &f.n, &f.k) || f.n != 8) {
		irb_unsupported(b, in, "this mma shape");
		return;
	}
	if (in->nopnds != 4) {
		irb_unsupported(b, in, "an mma without exactly the operands d, a, b, c");
		return;
	}
	if (in->ntypes != 4) {
		irb_unsupported(b, in, "an mma without its four types");
		return;
	}
	f.ed = mma_ek_of(in->types[0]);
	f.ea = mma_ek_of(in->types[1]);
	f.eb = mma_ek_of(in->types[2]);
	f.ec = mma_ek_of(in->types[3]);
	const char *why = check_types(&f);
	if (!why)
		why = check_mods(in, &f);
	if (!why)
		why = mma_layouts(in, &f);
	if (why) {
		irb_unsupported(b, in, why);
		return;
	}
	build_product(b, in, &f, regs_of(&f.la, f.ea), regs_of(&f.lb, f.eb), guard);
}

/* wmma.mma.sync.aligned.alayout.blayout.shape{.rnd}.dtype{.atype.btype}.ctype{.satfinite}:
 * the fragments are this compiler's (build_wmma.c), whatever the layouts: .row/.col say how
 * wmma.load read memory, which the fragment no longer depends on. */
static void tr_wmma_mma(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct mma_form f = {.fround = IR_FM_RN, .ngrp = 1};
	if (!mma_shape(in, &f.m, &f.n, &f.k)) {
		irb_unsupported(b, in, "this wmma shape");
		return;
	}
	if (in->ntypes == 2) { /* .dtype.ctype: f16 inputs */
		f.ed = mma_ek_of(in->types[0]);
		f.ec = mma_ek_of(in->types[1]);
		f.ea = f.eb = EK_F16;
	} else if (in->ntypes == 4) {
		f.ed = mma_ek_of(in->types[0]);
		f.ea = mma_ek_of(in->types[1]);
		f.eb = mma_ek_of(in->types[2]);
		f.ec = mma_ek_of(in->types[3]);
	} else {
		irb_unsupported(b, in, "a wmma.mma without its types");
		return;
	}
	const char *why = check_types(&f);
	if (!why)
		why = check_mods(in, &f);
	if (!why && layouts_of(in) < 0)
		why = "missing .row/.col layouts";
	static const struct {
		enum ptx_dotword w;
		uint32_t fm;
	} rounds[] = {{PTX_DW_RN, IR_FM_RN},
	              {PTX_DW_RZ, IR_FM_RZ},
	              {PTX_DW_RM, IR_FM_RM},
	              {PTX_DW_RP, IR_FM_RP}};
	for (unsigned i = 0; i < 4 && !why; i++)
		if (ptx_insn_has_mod(in, rounds[i].w)) {
			if (f.ea != EK_F64)
				why = "a rounding modifier on a wmma.mma that is not .f64";
			f.fround = rounds[i].fm;
		}
	if (!why && (!mma_wmma_layout(f.m, f.n, f.k, 'a', f.ea, &f.la) ||
	             !mma_wmma_layout(f.m, f.n, f.k, 'b', f.eb, &f.lb) ||
	             !mma_wmma_layout(f.m, f.n, f.k, 'c', f.ec, &f.lc) ||
	             !mma_wmma_layout(f.m, f.n, f.k, 'd', f.ed, &f.ld)))
		why = "this shape with these types";
	if (why) {
		irb_unsupported(b, in, why);
		return;
	}
	build_product(b, in, &f, mma_wmma_regs(f.m, f.k, 'a', f.ea, &f.la),
	              mma_wmma_regs(f.m, f.k, 'b', f.eb, &f.lb), guard);
}

void irb_mma(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	switch (in->op) {
	case PTX_OP_MMA:
		tr_mma_sync(b, in, guard);
		return;
	case PTX_OP_WMMA_MMA:
		tr_wmma_mma(b, in, guard);
		return;
	default:
		irb_wmma_mem(b, in, guard);
		return;
	}
}
