/* ir_build, part 3: PTX bit-manipulation and wide arithmetic expanded into IR operations.
 *
 * shf (funnel shifts), bfe/bfi with any position and length, prmt in every mode, bfind, fns,
 * bmsk, szext, mul.hi, mad.hi and div/rem on 64-bit integers, sqrt.rn, and f16 conversions: each
 * becomes a short sequence of the IR's general operations whose composition has exactly the
 * PTX ISA's semantics, or NVIDIA hardware's where the two differ (docs/SEMANTICS.md: bfe/bfi
 * operands beyond the width, fns with offset INT_MIN, division by zero); the IR's shifts
 * already give 0, or the sign, for amounts of at least the width, which is what most of these
 * definitions need.  Constant operands fold away in
 * ir_optimize. The long sequences (64-bit division, correctly rounded square roots) follow
 * well-known algorithms named at each function.  Called by irb_insn (build_insn.c) before its own
 * table; returns false for instructions it does not own.  O(1) per instruction. */
#include <stdint.h>
#include <string.h>

#include "ir/build_int.h"

struct ax { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct ax *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct ax *x, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(x->b, op, t, &a, 1, aux, 0);
}

static ir_ref op2(struct ax *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, 0, 0);
}

static ir_ref op2a(struct ax *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, aux, 0);
}

static ir_ref op3(struct ax *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, ir_ref e)
{
	ir_ref args[3] = {a, c, e};
	return irb_emit(x->b, op, t, args, 3, 0, 0);
}

static ir_ref k(struct ax *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref cmp(struct ax *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	return op2a(x, ir_type_is_float((enum ir_type)x->b->fn->vals[a].type) ? IR_FCMP : IR_ICMP,
	            IR_T_PRED, a, b, c);
}

static ir_ref sel(struct ax *x, enum ir_type t, ir_ref p, ir_ref a, ir_ref b)
{
	return op3(x, IR_SELECT, t, p, a, b);
}

static ir_ref src(struct ax *x, unsigned i, enum ir_type t, bool sign)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, sign);
}

static void dst(struct ax *x, ir_ref v, bool sign)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, sign, x->guard);
}

static bool const_opnd(struct ax *x, unsigned i, uint64_t *v)
{
	const struct ptx_operand *o = &x->in->opnds[i];
	if (o->kind != PTX_OPND_INT)
		return false;
	*v = o->value;
	return true;
}

static enum ir_type int_type(struct ax *x)
{
	enum ptx_type t = x->in->ntypes ? (enum ptx_type)x->in->types[0] : PTX_TYPE_NONE;
	unsigned bits = ptx_types[t].bits;
	return bits == 64 ? IR_T_I64 : bits == 32 ? IR_T_I32 : IR_T_NONE;
}

static bool is_signed_type(struct ax *x)
{
	enum ptx_type t = x->in->ntypes ? (enum ptx_type)x->in->types[0] : PTX_TYPE_NONE;
	return ptx_types[t].cls == PTX_TC_SINT;
}

/* ---- shf: funnel shifts (PTX: n = .clamp ? min(c, 32) : c & 31) ---- */

/* shf.l by n in 0..31: the high word of (b:a) << n = low word of (b:a) >> (32 - n). */
static ir_ref funnel_left(struct ax *x, ir_ref a, ir_ref b, ir_ref n, bool n_const, uint64_t nv)
{
	if (n_const)
		return nv == 0 ? b : op3(x, IR_FSHR, IR_T_I32, b, a, k(x, IR_T_I32, 32 - nv));
	/* ((b:a) >> 1) >> (31 - n): both halves of the first shift, then ~n & 31 = 31 - n */
	ir_ref hi = op2(x, IR_SHR_U, IR_T_I32, b, k(x, IR_T_I32, 1));
	ir_ref lo = op3(x, IR_FSHR, IR_T_I32, b, a, k(x, IR_T_I32, 1));
	return op3(x, IR_FSHR, IR_T_I32, hi, lo, op1(x, IR_NOT, IR_T_I32, n, 0));
}

static void tr_shf(struct ax *x)
{
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	ir_ref c = src(x, 3, IR_T_I32, false);
	bool left = has(x, PTX_DW_L), clamp = has(x, PTX_DW_CLAMP);
	uint64_t cv;
	bool is_const = const_opnd(x, 3, &cv);
	if (is_const) {
		uint64_t n = clamp ? ((uint32_t)cv > 32 ? 32 : (uint32_t)cv) : cv & 31;
		ir_ref r = n == 32  ? (left ? a : b)
		           : left   ? funnel_left(x, a, b, c, true, n)
		           : n == 0 ? a
		                    : op3(x, IR_FSHR, IR_T_I32, b, a, k(x, IR_T_I32, n));
		dst(x, r, false);
		return;
	}
	ir_ref r = left ? funnel_left(x, a, b, c, false, 0) : op3(x, IR_FSHR, IR_T_I32, b, a, c);
	if (clamp) /* c >= 32: the whole other word */
		r = sel(x, IR_T_I32, cmp(x, IR_CMP_GEU, c, k(x, IR_T_I32, 32)), left ? a : b, r);
	dst(x, r, false);
}

/* ---- bfe / bfi ----
 * 32-bit: pos = b & 0xff, len = c & 0xff as the PTX ISA's pseudo-code says.  64-bit: the NVIDIA
 * hardware does not mask them to 8 bits: pos and len are the whole unsigned 32-bit operands
 * (a position of 256 extracts nothing, a length of 256 everything), which is what the
 * expansions below compute (docs/SEMANTICS.md, "bfe and bfi").  Two results of NVIDIA's JIT
 * for immediate position and length are followed as well: bfe.s32 with pos >= 32 (and
 * len != 0) gives all ones whatever a is, and bfi.b32 with pos in 1..31 and a length that is a
 * nonzero multiple of 32 leaves b unchanged. */

/* (1 << len) - 1 with len >= width giving all ones. */
static ir_ref low_mask(struct ax *x, enum ir_type t, ir_ref len)
{
	return op2(x, IR_SUB, t, op2(x, IR_SHL, t, k(x, t, 1), len), k(x, t, 1));
}

/* Operand i as a field position or length: 8 bits for 32-bit forms, all 32 for 64-bit. */
static ir_ref field_opnd(struct ax *x, unsigned i, enum ir_type t)
{
	ir_ref v = src(x, i, IR_T_I32, false);
	return t == IR_T_I32 ? op2(x, IR_AND, IR_T_I32, v, k(x, IR_T_I32, 0xff)) : v;
}

static void tr_bfe(struct ax *x)
{
	enum ir_type t = int_type(x);
	bool sg = is_signed_type(x);
	unsigned width = ir_type_bits(t);
	uint64_t pv, lv;
	bool imm = t == IR_T_I32 && const_opnd(x, 2, &pv) && const_opnd(x, 3, &lv);
	if (imm && sg && (pv & 0xff) >= 32 && (lv & 0xff) != 0) { /* NVIDIA's JIT: all ones */
		dst(x, k(x, t, 0xffffffffu), true);
		return;
	}
	if (imm && (pv & 0xff) < 32 && (lv & 0xff) > 0 && (pv & 0xff) + (lv & 0xff) <= 32 &&
	    (lv & 0xff) < 32) {
		/* inside the word: the hardware's field extract */
		dst(x,
		    op3(x, sg ? IR_BFE_S : IR_BFE_U, t, src(x, 1, t, sg), k(x, IR_T_I32, pv & 0xff),
		        k(x, IR_T_I32, lv & 0xff)),
		    sg);
		return;
	}
	ir_ref a = src(x, 1, t, sg);
	ir_ref pos = field_opnd(x, 2, t), len = field_opnd(x, 3, t);
	if (!sg) { /* bits past the msb come in as zeros */
		ir_ref field = op2(x, IR_SHR_U, t, a, pos);
		dst(x, op2(x, IR_AND, t, field, low_mask(x, t, len)), false);
		return;
	}
	/* signed: end = min(pos + len, width); the field a[pos..end) moved to the top, then
	 * shifted down arithmetically; the sign is a[end - 1] (a[msb] once pos >= width);
	 * len == 0 gives 0.  Both are first clamped to the width (no overflow in the sum). */
	ir_ref w = k(x, IR_T_I32, width);
	ir_ref zero_len = cmp(x, IR_CMP_EQ, len, k(x, IR_T_I32, 0));
	if (t == IR_T_I64) {
		pos = op2(x, IR_MIN_U, IR_T_I32, pos, w);
		len = op2(x, IR_MIN_U, IR_T_I32, len, w);
	}
	ir_ref end = op2(x, IR_MIN_U, IR_T_I32, op2(x, IR_ADD, IR_T_I32, pos, len), w);
	ir_ref up = op2(x, IR_SUB, IR_T_I32, w, end);
	ir_ref r = op2(x, IR_SHR_S, t, op2(x, IR_SHL, t, a, up), op2(x, IR_ADD, IR_T_I32, up, pos));
	dst(x, sel(x, t, zero_len, k(x, t, 0), r), true);
}

static void tr_bfi(struct ax *x)
{
	enum ir_type t = int_type(x);
	ir_ref f = src(x, 1, t, false), base = src(x, 2, t, false);
	uint64_t pv, lv;
	if (t == IR_T_I32 && const_opnd(x, 3, &pv) && const_opnd(x, 4, &lv) && (pv & 0xff) >= 1 &&
	    (pv & 0xff) <= 31 && (lv & 0xff) != 0 && (lv & 31) == 0) {
		dst(x, base, false); /* NVIDIA's JIT: nothing inserted */
		return;
	}
	ir_ref pos = field_opnd(x, 3, t), len = field_opnd(x, 4, t);
	ir_ref mask = op2(x, IR_SHL, t, low_mask(x, t, len), pos); /* 0 once pos >= width */
	ir_ref ins = op2(x, IR_AND, t, op2(x, IR_SHL, t, f, pos), mask);
	ir_ref kept = op2(x, IR_AND, t, base, op1(x, IR_NOT, t, mask, 0));
	dst(x, op2(x, IR_OR, t, ins, kept), false);
}

/* ---- prmt: the modes are fixed default-mode selectors chosen by c & 3 ---- */

static const struct {
	enum ptx_dotword mode;
	uint16_t sel[4]; /* default-mode selector for c[1:0] = 0..3 (nibble i: byte i) */
} prmt_modes[] = {
        {PTX_DW_F4E, {0x3210, 0x4321, 0x5432, 0x6543}},
        {PTX_DW_B4E, {0x5670, 0x6701, 0x7012, 0x0123}},
        {PTX_DW_RC8, {0x0000, 0x1111, 0x2222, 0x3333}},
        {PTX_DW_ECL, {0x3210, 0x3211, 0x3222, 0x3333}},
        {PTX_DW_ECR, {0x0000, 0x1110, 0x2210, 0x3210}},
        {PTX_DW_RC16, {0x1010, 0x3232, 0x1010, 0x3232}},
};

static void tr_prmt(struct ax *x)
{
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	ir_ref c = src(x, 3, IR_T_I32, false);
	for (unsigned m = 0; m < sizeof prmt_modes / sizeof prmt_modes[0]; m++) {
		if (!has(x, prmt_modes[m].mode))
			continue;
		uint64_t cv, table = 0;
		for (unsigned i = 0; i < 4; i++)
			table |= (uint64_t)prmt_modes[m].sel[i] << (16 * i);
		if (const_opnd(x, 3, &cv)) {
			c = k(x, IR_T_I32, prmt_modes[m].sel[cv & 3]);
		} else { /* (table >> 16 * (c & 3)) & 0xffff */
			ir_ref sh = op2(x, IR_SHL, IR_T_I32,
			                op2(x, IR_AND, IR_T_I32, c, k(x, IR_T_I32, 3)),
			                k(x, IR_T_I32, 4));
			ir_ref v = op2(x, IR_SHR_U, IR_T_I64, k(x, IR_T_I64, table), sh);
			c = op2(x, IR_AND, IR_T_I32, op1(x, IR_TRUNC, IR_T_I32, v, 0),
			        k(x, IR_T_I32, 0xffff));
		}
		break;
	}
	dst(x, op3(x, IR_PRMT, IR_T_I32, a, b, c), false);
}

/* ---- bfind: 31 - clz (63 - clz), or clz itself for .shiftamt; 0xffffffff if none ---- */

static void tr_bfind(struct ax *x)
{
	enum ir_type t = int_type(x);
	bool sg = is_signed_type(x);
	ir_ref a = src(x, 1, t, sg);
	if (sg) /* the most significant bit that differs from the sign */
		a = op2(x, IR_XOR, t, a,
		        op2(x, IR_SHR_S, t, a, k(x, IR_T_I32, ir_type_bits(t) - 1)));
	ir_ref lz = op1(x, IR_CLZ, IR_T_I32, a, 0);
	ir_ref r;
	if (has(x, PTX_DW_SHIFTAMT))
		r = sel(x, IR_T_I32, cmp(x, IR_CMP_EQ, a, k(x, t, 0)), k(x, IR_T_I32, 0xffffffffu),
		        lz);
	else /* width - 1 - clz: -1 when a is 0 (clz = width) */
		r = op2(x, IR_SUB, IR_T_I32, k(x, IR_T_I32, ir_type_bits(t) - 1), lz);
	dst(x, r, false);
}

/* ---- fns: the |offset|-th set bit of mask from base, upwards (offset > 0), downwards
 * (offset < 0) or base itself (offset 0); 0xffffffff if there is none (PTX ISA); offset
 * INT_MIN gives 0 as on the hardware.  The bits
 * searched are masked out first; going down, the n-th bit from the top is the
 * (popc - n + 1)-th from the bottom.  That one is found by a binary search on popcounts of
 * 16-, 8-, 4-, 2- and 1-bit fields. ---- */

static ir_ref nth_set_bit(struct ax *x, ir_ref m, ir_ref n)
{
	ir_ref pos = k(x, IR_T_I32, 0);
	for (unsigned w = 16; w; w >>= 1) {
		ir_ref field = op2(x, IR_AND, IR_T_I32, op2(x, IR_SHR_U, IR_T_I32, m, pos),
		                   k(x, IR_T_I32, (1u << w) - 1));
		ir_ref c = op1(x, IR_POPC, IR_T_I32, field, 0);
		ir_ref past = cmp(x, IR_CMP_GTU, n, c);
		n = sel(x, IR_T_I32, past, op2(x, IR_SUB, IR_T_I32, n, c), n);
		pos = sel(x, IR_T_I32, past, op2(x, IR_ADD, IR_T_I32, pos, k(x, IR_T_I32, w)), pos);
	}
	return pos;
}

static void tr_fns(struct ax *x)
{
	ir_ref mask = src(x, 1, IR_T_I32, false), base = src(x, 2, IR_T_I32, false);
	ir_ref off = src(x, 3, IR_T_I32, true), ones = k(x, IR_T_I32, 0xffffffffu);
	ir_ref zero = k(x, IR_T_I32, 0), one = k(x, IR_T_I32, 1);
	ir_ref up = op2(x, IR_AND, IR_T_I32, mask, op2(x, IR_SHL, IR_T_I32, ones, base));
	ir_ref down = op2(x, IR_AND, IR_T_I32, mask,
	                  op2(x, IR_SHR_U, IR_T_I32, ones,
	                      op2(x, IR_SUB, IR_T_I32, k(x, IR_T_I32, 31), base)));
	ir_ref at = op2(x, IR_AND, IR_T_I32, mask, op2(x, IR_SHL, IR_T_I32, one, base));
	ir_ref fwd = cmp(x, IR_CMP_GT, off, zero), back = cmp(x, IR_CMP_LT, off, zero);
	ir_ref m = sel(x, IR_T_I32, fwd, up, sel(x, IR_T_I32, back, down, at));
	ir_ref total = op1(x, IR_POPC, IR_T_I32, m, 0);
	ir_ref from_top = op2(x, IR_ADD, IR_T_I32, op2(x, IR_ADD, IR_T_I32, total, off), one);
	ir_ref n = sel(x, IR_T_I32, fwd, off, sel(x, IR_T_I32, back, from_top, one));
	ir_ref ok =
	        op2(x, IR_AND, IR_T_PRED, cmp(x, IR_CMP_GE, n, one), cmp(x, IR_CMP_LE, n, total));
	ir_ref r = sel(x, IR_T_I32, ok, nth_set_bit(x, m, n), ones);
	/* offset INT_MIN: 0 on NVIDIA hardware, whatever mask and base (docs/SEMANTICS.md) */
	dst(x, sel(x, IR_T_I32, cmp(x, IR_CMP_EQ, off, k(x, IR_T_I32, 0x80000000u)), zero, r),
	    false);
}

/* ---- bmsk: bits [a, a + b) (0 if b is 0; up to bit 31 if the end passes it) and szext:
 * the low b bits of a, zero- or sign-extended; .clamp: a or b >= 32 as in the PTX ISA, .wrap:
 * both modulo 32.  The IR's shift by 32 or more gives 0, the end-past-31 case. ---- */

static void tr_bmsk(struct ax *x)
{
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	ir_ref ones = k(x, IR_T_I32, 0xffffffffu), zero = k(x, IR_T_I32, 0);
	ir_ref f = k(x, IR_T_I32, 31), a1 = op2(x, IR_AND, IR_T_I32, a, f);
	ir_ref b1 = op2(x, IR_AND, IR_T_I32, b, f);
	ir_ref mask0 = op2(x, IR_SHL, IR_T_I32, ones, a1);
	ir_ref mask1 = op2(x, IR_SHL, IR_T_I32, ones, op2(x, IR_ADD, IR_T_I32, a1, b1));
	mask1 = sel(x, IR_T_I32, cmp(x, IR_CMP_EQ, b1, zero), ones, mask1);
	if (has(x, PTX_DW_CLAMP)) {
		ir_ref w = k(x, IR_T_I32, 32), big_a = cmp(x, IR_CMP_GEU, a, w);
		ir_ref big = op2(x, IR_OR, IR_T_PRED, big_a, cmp(x, IR_CMP_GEU, b, w));
		mask0 = sel(x, IR_T_I32, big_a, zero, mask0);
		mask1 = sel(x, IR_T_I32, big, zero, mask1);
	}
	dst(x, op2(x, IR_AND, IR_T_I32, mask0, op1(x, IR_NOT, IR_T_I32, mask1, 0)), false);
}

static void tr_szext(struct ax *x)
{
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	ir_ref ones = k(x, IR_T_I32, 0xffffffffu), zero = k(x, IR_T_I32, 0);
	ir_ref f = k(x, IR_T_I32, 31), b1 = op2(x, IR_AND, IR_T_I32, b, f);
	ir_ref mask = op2(x, IR_SHL, IR_T_I32, ones, b1);
	if (has(x, PTX_DW_CLAMP)) /* b >= 32: a as it is */
		mask = sel(x, IR_T_I32, cmp(x, IR_CMP_GEU, b, k(x, IR_T_I32, 32)), zero, mask);
	ir_ref r = op2(x, IR_AND, IR_T_I32, a, op1(x, IR_NOT, IR_T_I32, mask, 0));
	if (is_signed_type(x)) { /* bit b1 - 1 of a, if b1 > 0 (mask is 0 if too large) */
		ir_ref pos = op2(x, IR_AND, IR_T_I32,
		                 op2(x, IR_SUB, IR_T_I32, b1, k(x, IR_T_I32, 1)), f);
		ir_ref bit = op2(x, IR_AND, IR_T_I32, op2(x, IR_SHR_U, IR_T_I32, a, pos),
		                 k(x, IR_T_I32, 1));
		ir_ref sign = op2(x, IR_AND, IR_T_PRED, cmp(x, IR_CMP_NE, bit, zero),
		                  cmp(x, IR_CMP_NE, b1, zero));
		r = op2(x, IR_OR, IR_T_I32, r, sel(x, IR_T_I32, sign, mask, zero));
	}
	dst(x, r, false);
}

/* ---- 64-bit multiply high and division ---- */

static ir_ref lo32(struct ax *x, ir_ref v)
{
	return op1(x, IR_TRUNC, IR_T_I32, v, 0);
}

static ir_ref hi32(struct ax *x, ir_ref v)
{
	return lo32(x, op2(x, IR_SHR_U, IR_T_I64, v, k(x, IR_T_I32, 32)));
}

static ir_ref wide_mul(struct ax *x, ir_ref a32, ir_ref b32)
{
	return op2(x, IR_MUL, IR_T_I64, op1(x, IR_ZEXT, IR_T_I64, a32, 0),
	           op1(x, IR_ZEXT, IR_T_I64, b32, 0));
}

/* High 64 bits of the unsigned 128-bit product, from four 32x32->64 products. */
static ir_ref mulhi_u64(struct ax *x, ir_ref a, ir_ref b)
{
	ir_ref al = lo32(x, a), ah = hi32(x, a), bl = lo32(x, b), bh = hi32(x, b);
	ir_ref ll = wide_mul(x, al, bl), lh = wide_mul(x, al, bh);
	ir_ref hl = wide_mul(x, ah, bl), hh = wide_mul(x, ah, bh);
	ir_ref m32 = k(x, IR_T_I64, 0xffffffffu), s32 = k(x, IR_T_I32, 32);
	ir_ref mid = op2(x, IR_ADD, IR_T_I64, op2(x, IR_SHR_U, IR_T_I64, ll, s32),
	                 op2(x, IR_AND, IR_T_I64, lh, m32));
	mid = op2(x, IR_ADD, IR_T_I64, mid, op2(x, IR_AND, IR_T_I64, hl, m32));
	ir_ref hi = op2(x, IR_ADD, IR_T_I64, hh, op2(x, IR_SHR_U, IR_T_I64, lh, s32));
	hi = op2(x, IR_ADD, IR_T_I64, hi, op2(x, IR_SHR_U, IR_T_I64, hl, s32));
	return op2(x, IR_ADD, IR_T_I64, hi, op2(x, IR_SHR_U, IR_T_I64, mid, s32));
}

/* Signed: the unsigned high half minus b where a < 0 and minus a where b < 0. */
static ir_ref mulhi_s64(struct ax *x, ir_ref a, ir_ref b)
{
	ir_ref zero = k(x, IR_T_I64, 0);
	ir_ref r = mulhi_u64(x, a, b);
	r = op2(x, IR_SUB, IR_T_I64, r, sel(x, IR_T_I64, cmp(x, IR_CMP_LT, a, zero), b, zero));
	return op2(x, IR_SUB, IR_T_I64, r, sel(x, IR_T_I64, cmp(x, IR_CMP_LT, b, zero), a, zero));
}

static ir_ref f32c(struct ax *x, uint32_t bits)
{
	return k(x, IR_T_F32, bits);
}

/* z ~ 2^64 / y from below, y != 0: an f32 reciprocal of y scaled by 2^64 (1 - 2^-20), which
 * stays under the true value whatever the rounding of the conversions (2^-24 each) and of
 * v_rcp_f32 (1 ulp), split into two 32-bit integers (truncating); relative error <= 2^-19. */
static ir_ref recip_estimate(struct ax *x, ir_ref y)
{
	ir_ref fl = op1(x, IR_ITOF_U, IR_T_F32, lo32(x, y), IR_FM_RN);
	ir_ref fh = op1(x, IR_ITOF_U, IR_T_F32, hi32(x, y), IR_FM_RN);
	ir_ref args[3] = {fh, f32c(x, 0x4f800000u) /* 2^32 */, fl};
	ir_ref yf = irb_emit(x->b, IR_FMA, IR_T_F32, args, 3, IR_FM_RN, 0);
	ir_ref rc = op1(x, IR_FRCP, IR_T_F32, yf, IR_FM_APPROX);
	ir_ref m = op2(x, IR_FMUL, IR_T_F32, rc, f32c(x, 0x5f7ffff0u)); /* 2^64 (1 - 2^-20) */
	ir_ref th = op1(x, IR_FROUND, IR_T_F32, op2(x, IR_FMUL, IR_T_F32, m, f32c(x, 0x2f800000u)),
	                IR_FM_RZ); /* trunc(m * 2^-32) */
	ir_ref a2[3] = {th, f32c(x, 0xcf800000u) /* -2^32 */, m};
	ir_ref tl = irb_emit(x->b, IR_FMA, IR_T_F32, a2, 3, IR_FM_RN, 0); /* exact */
	ir_ref zh = op1(x, IR_FTOI_U, IR_T_I32, th, 32 << 8);
	ir_ref zl = op1(x, IR_FTOI_U, IR_T_I32, tl, 32 << 8);
	ir_ref z = op2(x, IR_SHL, IR_T_I64, op1(x, IR_ZEXT, IR_T_I64, zh, 0), k(x, IR_T_I32, 32));
	return op2(x, IR_OR, IR_T_I64, z, op1(x, IR_ZEXT, IR_T_I64, zl, 0));
}

/* Unsigned 64-bit x / y and x % y.  Two Newton steps in integer arithmetic
 * (z += mulhi(z, -y * z), which keeps z <= 2^64 / y and squares the relative error:
 * 2^-19 -> 2^-38 -> below 2^-64) leave z within 3 of 2^64 / y, so q = mulhi(x, z) is at
 * most 3 too small; three conditional corrections make q and r exact.  y == 0 is left to
 * the caller. */
static void udivrem64(struct ax *x, ir_ref xv, ir_ref y, ir_ref *q, ir_ref *r)
{
	ir_ref z = recip_estimate(x, y);
	ir_ref ny = op1(x, IR_NEG, IR_T_I64, y, 0);
	for (int step = 0; step < 2; step++) {
		ir_ref e = op2(x, IR_MUL, IR_T_I64, ny, z);
		z = op2(x, IR_ADD, IR_T_I64, z, mulhi_u64(x, z, e));
	}
	ir_ref qv = mulhi_u64(x, xv, z);
	ir_ref rv = op2(x, IR_SUB, IR_T_I64, xv, op2(x, IR_MUL, IR_T_I64, qv, y));
	for (int step = 0; step < 3; step++) {
		ir_ref ge = cmp(x, IR_CMP_GEU, rv, y);
		qv = sel(x, IR_T_I64, ge, op2(x, IR_ADD, IR_T_I64, qv, k(x, IR_T_I64, 1)), qv);
		rv = sel(x, IR_T_I64, ge, op2(x, IR_SUB, IR_T_I64, rv, y), rv);
	}
	*q = qv;
	*r = rv;
}

static ir_ref apply_sign64(struct ax *x, ir_ref v, ir_ref sign)
{
	return op2(x, IR_SUB, IR_T_I64, op2(x, IR_XOR, IR_T_I64, v, sign), sign);
}

/* div/rem .u64/.s64; signed on magnitudes (truncating; INT64_MIN / -1 wraps).  Division by
 * zero gives all ones for quotient and remainder, signed or not, as NVIDIA hardware does
 * (docs/SEMANTICS.md). */
static void tr_divrem64(struct ax *x)
{
	bool sg = is_signed_type(x), want_q = x->in->op == PTX_OP_DIV;
	ir_ref a = src(x, 1, IR_T_I64, sg), b = src(x, 2, IR_T_I64, sg), q, r, res;
	if (!sg) {
		udivrem64(x, a, b, &q, &r);
		res = want_q ? q : r;
	} else {
		ir_ref s63 = k(x, IR_T_I32, 63);
		ir_ref sa = op2(x, IR_SHR_S, IR_T_I64, a, s63);
		ir_ref sb = op2(x, IR_SHR_S, IR_T_I64, b, s63);
		udivrem64(x, apply_sign64(x, a, sa), apply_sign64(x, b, sb), &q, &r);
		res = want_q ? apply_sign64(x, q, op2(x, IR_XOR, IR_T_I64, sa, sb))
		             : apply_sign64(x, r, sa);
	}
	ir_ref by_zero = cmp(x, IR_CMP_EQ, b, k(x, IR_T_I64, 0));
	dst(x, sel(x, IR_T_I64, by_zero, k(x, IR_T_I64, ~0ull), res), sg);
}

/* ---- sqrt.rn: correctly rounded square roots (.rz/.rm/.rp: build_round.c, from these) ---- */

static ir_ref fma3(struct ax *x, enum ir_type t, ir_ref a, ir_ref b, ir_ref c)
{
	ir_ref args[3] = {a, b, c};
	return irb_emit(x->b, IR_FMA, t, args, 3, IR_FM_RN, 0);
}

static ir_ref fneg(struct ax *x, enum ir_type t, ir_ref a)
{
	return op1(x, IR_FNEG, t, a, 0);
}

/* f32: inputs below 2^-96 scaled by 2^32 (result by 2^-16) so nothing below is denormal;
 * s = v_sqrt_f32 (within 1 ulp), then the neighbour below is taken when
 * x - s_below * s <= 0 and the one above when x - s_above * s > 0 (no float lies between
 * those products and the squared midpoints, so the tests decide the rounding exactly);
 * 0, -0 and +inf are their own roots, negative inputs give NaN. */
static ir_ref sqrt_rn_f32(struct ax *x, ir_ref a)
{
	enum ir_type t = IR_T_F32;
	ir_ref small = cmp(x, IR_CMP_LT, a, f32c(x, 0x0f800000u)); /* 2^-96 */
	ir_ref xs = sel(x, t, small, op2(x, IR_FMUL, t, a, f32c(x, 0x4f800000u)), a);
	ir_ref s = op1(x, IR_FSQRT, t, xs, IR_FM_APPROX);
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, s, 0);
	ir_ref below =
	        op1(x, IR_BITCAST, t, op2(x, IR_ADD, IR_T_I32, bits, k(x, IR_T_I32, ~0u)), 0);
	ir_ref above = op1(x, IR_BITCAST, t, op2(x, IR_ADD, IR_T_I32, bits, k(x, IR_T_I32, 1)), 0);
	ir_ref rb = fma3(x, t, fneg(x, t, below), s, xs);
	ir_ref ra = fma3(x, t, fneg(x, t, above), s, xs);
	s = sel(x, t, cmp(x, IR_CMP_LE, rb, f32c(x, 0)), below, s);
	s = sel(x, t, cmp(x, IR_CMP_GT, ra, f32c(x, 0)), above, s);
	s = sel(x, t, small, op2(x, IR_FMUL, t, s, f32c(x, 0x37800000u)), s); /* 2^-16 */
	ir_ref own = op2(x, IR_OR, IR_T_PRED, cmp(x, IR_CMP_EQ, xs, f32c(x, 0)),
	                 cmp(x, IR_CMP_EQ, xs, f32c(x, 0x7f800000u)));
	return sel(x, t, own, xs, s);
}

static ir_ref f64c(struct ax *x, uint64_t bits)
{
	return k(x, IR_T_F64, bits);
}

/* f64: inputs below 2^-767 scaled by 2^256 (result by 2^-128); from g = v_rsq_f64,
 * Goldschmidt's iteration refines s ~ sqrt(x) and h ~ 1/(2 sqrt(x)) together
 * (r = 1/2 - h s; s += s r; h += h r), then two corrections s += h (x - s*s) with the
 * residual exact in an fma; the last one rounds correctly.  0, -0, +inf are their own. */
static ir_ref sqrt_rn_f64(struct ax *x, ir_ref a)
{
	enum ir_type t = IR_T_F64;
	ir_ref half = f64c(x, 0x3fe0000000000000ull);
	ir_ref small = cmp(x, IR_CMP_LT, a, f64c(x, 0x1000000000000000ull)); /* 2^-767 */
	ir_ref xs = sel(x, t, small, op2(x, IR_FMUL, t, a, f64c(x, 0x4ff0000000000000ull)), a);
	ir_ref g = op1(x, IR_FRSQ, t, xs, IR_FM_APPROX);
	ir_ref h = op2(x, IR_FMUL, t, g, half);
	ir_ref s = op2(x, IR_FMUL, t, xs, g);
	ir_ref r = fma3(x, t, fneg(x, t, h), s, half);
	s = fma3(x, t, s, r, s);
	h = fma3(x, t, h, r, h);
	for (int step = 0; step < 2; step++) {
		ir_ref d = fma3(x, t, fneg(x, t, s), s, xs);
		s = fma3(x, t, d, h, s);
	}
	s = sel(x, t, small, op2(x, IR_FMUL, t, s, f64c(x, 0x37f0000000000000ull)), s); /* 2^-128 */
	ir_ref own = op2(x, IR_OR, IR_T_PRED, cmp(x, IR_CMP_EQ, xs, f64c(x, 0)),
	                 cmp(x, IR_CMP_EQ, xs, f64c(x, 0x7ff0000000000000ull)));
	return sel(x, t, own, xs, s);
}

/* sqrt.rn of a (f32 or f64) for other expansions (build_round.c) */
ir_ref irb_sqrt_rn(struct irb *b, ir_ref a, enum ir_type t)
{
	struct ax xs = {.b = b}, *x = &xs;
	return t == IR_T_F32 ? sqrt_rn_f32(x, a) : sqrt_rn_f64(x, a);
}

/* sqrt.rn[.ftz]: build_round.c, which runs first, takes sqrt.{rz,rm,rp} */
static bool tr_sqrt(struct ax *x)
{
	enum ptx_type ty = (enum ptx_type)x->in->types[0];
	if (has(x, PTX_DW_APPROX) || (ty != PTX_TYPE_F32 && ty != PTX_TYPE_F64))
		return false; /* sqrt.approx: build_insn.c */
	enum ir_type t = ty == PTX_TYPE_F32 ? IR_T_F32 : IR_T_F64;
	ir_ref a = src(x, 1, t, false);
	if (has(x, PTX_DW_FTZ) && t == IR_T_F32) /* a root is never subnormal: the operand only */
		a = irb_flush_subnormal(x->b, a, false);
	dst(x, t == IR_T_F32 ? sqrt_rn_f32(x, a) : sqrt_rn_f64(x, a), false);
	return true;
}

/* ---- f16 conversions (f16 values are i16 bit patterns) ---- */

static bool tr_cvt_half(struct ax *x)
{
	enum ptx_type dt = (enum ptx_type)x->in->types[0], st = (enum ptx_type)x->in->types[1];
	if (dt != PTX_TYPE_F16 && st != PTX_TYPE_F16)
		return false;
	bool to_int = ptx_types[dt].cls != PTX_TC_FLOAT;
	if (st == PTX_TYPE_F16 &&
	    (to_int || (dt == PTX_TYPE_F16 && !has(x, PTX_DW_RELU) && !has(x, PTX_DW_SATFINITE))))
		return false; /* exact as f32: build_insn.c's cvt converts the f16 operand first */
	const char *why = NULL;
	if (has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE))
		why = ".relu/.satfinite on f16 conversions";
	else if (dt == PTX_TYPE_F16 && st == PTX_TYPE_F32 && !has(x, PTX_DW_RN))
		why = "rounding other than .rn to f16";
	else if (!((dt == PTX_TYPE_F16 && st == PTX_TYPE_F32) ||
	           (st == PTX_TYPE_F16 && (dt == PTX_TYPE_F32 || dt == PTX_TYPE_F64))))
		why = "only f32 -> f16 and f16 -> f32/f64 conversions so far (the others would "
		      "round twice)";
	if (why) {
		irb_unsupported(x->b, x->in, why);
		return true;
	}
	/* .sat: [0.0, 1.0], NaN and -0.0 -> +0.0 (x + 0.0 with the clamp, as build_insn.c's
	 * cvt): on the f32 operand before rounding to f16 (rounding keeps [0, 1]).  .ftz concerns
	 * f32 operands only: an f16 subnormal converts to a normal f32, as on the hardware. */
	bool sat = has(x, PTX_DW_SAT);
	if (dt == PTX_TYPE_F16) {
		ir_ref v = src(x, 1, IR_T_F32, false);
		if (has(x, PTX_DW_FTZ))
			v = irb_flush_subnormal(x->b, v, false);
		if (sat)
			v = op2a(x, IR_FADD, IR_T_F32, v, f32c(x, 0), IR_FM_SAT);
		dst(x, op1(x, IR_F2H, IR_T_I16, v, 0), false);
		return true;
	}
	enum ir_type ft = dt == PTX_TYPE_F64 ? IR_T_F64 : IR_T_F32;
	ir_ref f = op1(x, IR_H2F, IR_T_F32, src(x, 1, IR_T_I16, false), 0);
	if (ft == IR_T_F64)
		f = op1(x, IR_FEXT, IR_T_F64, f, 0);
	if (sat)
		f = op2a(x, IR_FADD, ft, f, k(x, ft, 0), IR_FM_SAT);
	dst(x, f, false);
	return true;
}

/* ---- float -> 64-bit integer (cvt.rXi.{s,u}64.{f32,f64}) ---- */

/* t, rounded to an integral value (or truncated here), as a saturated 64-bit integer: the
 * halves floor(t * 2^-32) and t - hi * 2^-32 (exact in an fma) converted by the 32-bit
 * conversions, then the out-of-range inputs clamped.  NaN gives 0x8000000000000000 for .s64
 * and .u64 alike, from f32 and f64: what an sm_90 GPU returns (../shared/ptx-hw). */
ir_ref irb_ftoi64(struct irb *b, ir_ref t, bool sign, uint32_t ftz)
{
	struct ax xs = {.b = b}, *x = &xs;
	enum ir_type f = IR_T_F64;
	if (b->fn->vals[t].type == IR_T_F32)
		t = op1(x, IR_FEXT, f, t, ftz);
	t = op1(x, IR_FROUND, f, t, IR_FM_RZ); /* cvt.rzi leaves t unrounded */
	ir_ref hf = op1(x, IR_FROUND, f, op2(x, IR_FMUL, f, t, f64c(x, 0x3df0000000000000ull)),
	                IR_FM_RM); /* floor(t * 2^-32) */
	ir_ref lf = fma3(x, f, hf, f64c(x, 0xc1f0000000000000ull) /* -2^32 */, t);
	ir_ref hi = op1(x, sign ? IR_FTOI_S : IR_FTOI_U, IR_T_I32, hf, 32 << 8);
	ir_ref lo = op1(x, IR_FTOI_U, IR_T_I32, lf, 32 << 8);
	ir_ref r = op2(x, IR_SHL, IR_T_I64, op1(x, IR_ZEXT, IR_T_I64, hi, 0), k(x, IR_T_I32, 32));
	r = op2(x, IR_OR, IR_T_I64, r, op1(x, IR_ZEXT, IR_T_I64, lo, 0));
	if (sign) {
		ir_ref big = cmp(x, IR_CMP_GE, t, f64c(x, 0x43e0000000000000ull)); /* 2^63 */
		r = sel(x, IR_T_I64, big, k(x, IR_T_I64, INT64_MAX), r);
		ir_ref low = cmp(x, IR_CMP_LT, t, f64c(x, 0xc3e0000000000000ull)); /* -2^63 */
		ir_ref low_or_nan = op2(x, IR_OR, IR_T_PRED, low, cmp(x, IR_CMP_NAN, t, t));
		return sel(x, IR_T_I64, low_or_nan, k(x, IR_T_I64, (uint64_t)INT64_MIN), r);
	}
	ir_ref big = cmp(x, IR_CMP_GE, t, f64c(x, 0x43f0000000000000ull)); /* 2^64 */
	r = sel(x, IR_T_I64, big, k(x, IR_T_I64, ~0ull), r);
	r = sel(x, IR_T_I64, cmp(x, IR_CMP_LT, t, f64c(x, 0)), k(x, IR_T_I64, 0), r);
	return sel(x, IR_T_I64, cmp(x, IR_CMP_NAN, t, t), k(x, IR_T_I64, 1ull << 63), r);
}

/* ---- 64-bit integer -> float (cvt.rn.f{32,64}.{s,u}64; .rz/.rm/.rp: build_round.c) ---- */

/* f64: hi * 2^32 + lo, both halves converted exactly, one rounding in the add.  f32: the
 * magnitude shifted left until its msb is bit 63, its high word with a sticky bit for a
 * nonzero low word converted (the sticky bit lies below the rounding position, so the one
 * rounding is the right one), then scaled by 2^(32 - shift) exactly. */
ir_ref irb_itof64_rn(struct irb *b, ir_ref v, bool sign, enum ir_type ft)
{
	struct ax xs = {.b = b}, *x = &xs;
	if (ft == IR_T_F64) {
		ir_ref hi = op1(x, sign ? IR_ITOF_S : IR_ITOF_U, ft, hi32(x, v), IR_FM_RN);
		hi = op2(x, IR_FMUL, ft, hi, f64c(x, 0x41f0000000000000ull)); /* 2^32 */
		return op2a(x, IR_FADD, ft, hi, op1(x, IR_ITOF_U, ft, lo32(x, v), IR_FM_RN),
		            IR_FM_RN);
	}
	ir_ref neg = sign ? cmp(x, IR_CMP_LT, v, k(x, IR_T_I64, 0)) : IR_NO_REF;
	ir_ref m = sign ? sel(x, IR_T_I64, neg, op1(x, IR_NEG, IR_T_I64, v, 0), v) : v;
	ir_ref n = op1(x, IR_CLZ, IR_T_I32, m, 0);
	ir_ref y = op2(x, IR_SHL, IR_T_I64, m, n);
	ir_ref sticky = sel(x, IR_T_I32, cmp(x, IR_CMP_NE, lo32(x, y), k(x, IR_T_I32, 0)),
	                    k(x, IR_T_I32, 1), k(x, IR_T_I32, 0));
	ir_ref top = op2(x, IR_OR, IR_T_I32, hi32(x, y), sticky);
	ir_ref f = op1(x, IR_ITOF_U, ft, top, IR_FM_RN);
	ir_ref e = op2(x, IR_SHL, IR_T_I32, op2(x, IR_SUB, IR_T_I32, k(x, IR_T_I32, 127 + 32), n),
	               k(x, IR_T_I32, 23));
	ir_ref r = op2(x, IR_FMUL, ft, f, op1(x, IR_BITCAST, ft, e, 0));
	return sign ? sel(x, ft, neg, op1(x, IR_FNEG, ft, r, 0), r) : r;
}

/* ---- f16 arithmetic: add/sub/mul/fma .rn, neg/abs as sign-bit operations ---- */

static bool tr_half_arith(struct ax *x)
{
	static const struct {
		enum ptx_opcode op;
		enum ir_op ir;
	} ops[] = {{PTX_OP_ADD, IR_HADD}, {PTX_OP_SUB, IR_HSUB}, {PTX_OP_MUL, IR_HMUL},
	           {PTX_OP_FMA, IR_HFMA}, {PTX_OP_NEG, IR_XOR},  {PTX_OP_ABS, IR_AND}};
	if (x->in->op == PTX_OP_MOV || x->in->op == PTX_OP_SELP || x->in->op == PTX_OP_CVT)
		return false;
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (ops[i].op != x->in->op || has(x, PTX_DW_FTZ) || has(x, PTX_DW_SAT) ||
		    has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP) ||
		    has(x, PTX_DW_RELU)) /* fma.rn.relu.f16: build_arith2.c */
			continue;
		ir_ref a = src(x, 1, IR_T_I16, false), r;
		if (ops[i].ir == IR_XOR || ops[i].ir == IR_AND) { /* the sign bit, in 32 bits */
			ir_ref w = op1(x, IR_ZEXT, IR_T_I32, a, 0);
			w = op2(x, ops[i].ir, IR_T_I32, w,
			        k(x, IR_T_I32, ops[i].ir == IR_XOR ? 0x8000 : 0x7fff));
			r = op1(x, IR_TRUNC, IR_T_I16, w, 0);
		} else if (ops[i].ir == IR_HFMA) {
			r = op3(x, IR_HFMA, IR_T_I16, a, src(x, 2, IR_T_I16, false),
			        src(x, 3, IR_T_I16, false));
		} else {
			r = op2(x, ops[i].ir, IR_T_I16, a, src(x, 2, IR_T_I16, false));
		}
		dst(x, r, false);
		return true;
	}
	irb_unsupported(x->b, x->in,
	                "f16 operations other than add/sub/mul/fma (.rn), neg, abs, "
	                "moves and conversions");
	return true;
}

/* ---- entry ---- */

bool irb_arith(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct ax x = {.b = b, .in = in, .guard = guard};
	enum ir_type t = int_type(&x);
	if (in->ntypes && in->types[0] == PTX_TYPE_F16 && tr_half_arith(&x))
		return true; /* .f16 registers hold bit patterns */
	if (in->ntypes && (in->types[0] == PTX_TYPE_F16X2 || in->types[0] == PTX_TYPE_BF16 ||
	                   in->types[0] == PTX_TYPE_BF16X2)) {
		irb_unsupported(b, in, "packed f16x2 and bf16 operations");
		return true;
	}
	switch (in->op) {
	case PTX_OP_SHF:
		tr_shf(&x);
		return true;
	case PTX_OP_BFE:
	case PTX_OP_BFI:
	case PTX_OP_BFIND:
		if (t == IR_T_NONE)
			return false;
		if (in->op == PTX_OP_BFE)
			tr_bfe(&x);
		else if (in->op == PTX_OP_BFI)
			tr_bfi(&x);
		else
			tr_bfind(&x);
		return true;
	case PTX_OP_PRMT:
		tr_prmt(&x);
		return true;
	case PTX_OP_FNS:
		tr_fns(&x);
		return true;
	case PTX_OP_BMSK:
		tr_bmsk(&x);
		return true;
	case PTX_OP_SZEXT:
		tr_szext(&x);
		return true;
	case PTX_OP_DIV:
	case PTX_OP_REM:
		if (t != IR_T_I64 || ptx_types[in->types[0]].cls == PTX_TC_FLOAT)
			return false;
		tr_divrem64(&x);
		return true;
	case PTX_OP_MUL:
	case PTX_OP_MAD: { /* mul.hi / mad.hi on 64 bits (mad.hi.cc: build_arith2.c) */
		if (t != IR_T_I64 || !has(&x, PTX_DW_HI) ||
		    ptx_types[in->types[0]].cls == PTX_TC_FLOAT || has(&x, PTX_DW_CC))
			return false;
		bool sg = is_signed_type(&x);
		ir_ref lhs = src(&x, 1, IR_T_I64, sg), rhs = src(&x, 2, IR_T_I64, sg);
		ir_ref r = sg ? mulhi_s64(&x, lhs, rhs) : mulhi_u64(&x, lhs, rhs);
		if (in->op == PTX_OP_MAD)
			r = op2(&x, IR_ADD, IR_T_I64, r, src(&x, 3, IR_T_I64, sg));
		dst(&x, r, false);
		return true;
	}
	case PTX_OP_SQRT:
		return tr_sqrt(&x);
	case PTX_OP_CVT:
		return in->ntypes == 2 && tr_cvt_half(&x);
	default:
		return false;
	}
}
