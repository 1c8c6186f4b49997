/* ir_build, part 5: lop3, carry chains, sad, copysign, vector moves, packed f16x2, the float
 * modifiers .ftz (f32 and f16 arithmetic, min/max/abs/neg, setp, the .approx unary
 * operations), .sat and .relu on f16 (docs/FLOAT.md), expanded into the IR's general
 * operations.
 *
 * lop3: the 8-entry truth table (a = 0xf0, b = 0xcc, c = 0xaa) is decomposed by Shannon
 * expansion on the variable that gives the fewest operations (a cost search over the at
 * most 3 levels), with the cheap cases recognized at each level: a constant, a variable or
 * its complement, AND/OR/XOR with a cofactor, else the bitwise select v ? f1 : f0 (BITSEL,
 * v_bfi_b32).  Exact for all 256 tables.  The carry flag CC of the PTX carry chains is an SSA
 * variable of type pred (one bit per lane) written by add.cc/sub.cc/mad.cc and read by
 * addc/subc/madc: carry out of a + b (+ cin) is (s < a) | (r < s) unsigned.  Subtraction is
 * the addition of the complement, as on NVIDIA hardware: sub.cc's CF is the carry out of
 * a + ~b + 1 (1 when there is no borrow) and subc computes a + ~b + CF = a - b - !CF, whatever
 * instruction wrote CF (the PTX ISA's text, d = a - (b + CF) with CF a borrow, disagrees with
 * the hardware; docs/SEMANTICS.md).  A read of CC in a block where no .cc instruction
 * wrote it is an error: the PTX ISA only defines carry chains in straight-line code.  Packed f16x2
 * operations are two f16 operations on the halves.  Called by irb_insn before irb_arith; returns
 * false for instructions it does not own.  O(1) per instruction. */
#include <stdint.h>

#include "ir/build_int.h"

struct ax2 { /* the instruction being expanded */
	struct irb *b;
	const struct ptx_insn *in;
	ir_ref guard;
};

static bool has(const struct ax2 *x, enum ptx_dotword w)
{
	return ptx_insn_has_mod(x->in, w);
}

static ir_ref op1(struct ax2 *x, enum ir_op op, enum ir_type t, ir_ref a)
{
	return irb_emit(x->b, op, t, &a, 1, 0, 0);
}

static ir_ref op2(struct ax2 *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(x->b, op, t, args, 2, 0, 0);
}

static ir_ref op3(struct ax2 *x, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, ir_ref e)
{
	ir_ref args[3] = {a, c, e};
	return irb_emit(x->b, op, t, args, 3, 0, 0);
}

static ir_ref k(struct ax2 *x, enum ir_type t, uint64_t v)
{
	return ir_const(x->b->fn, t, v);
}

static ir_ref icmp(struct ax2 *x, enum ir_cmp c, ir_ref a, ir_ref b)
{
	ir_ref args[2] = {a, b};
	return irb_emit(x->b, IR_ICMP, IR_T_PRED, args, 2, c, 0);
}

static ir_ref src(struct ax2 *x, unsigned i, enum ir_type t, bool sign)
{
	return irb_read_opnd(x->b, &x->in->opnds[i], t, sign);
}

static void dst(struct ax2 *x, ir_ref v, bool sign)
{
	irb_write_dest(x->b, &x->in->opnds[0], v, sign, x->guard);
}

static enum ptx_type type0(const struct ax2 *x)
{
	return x->in->ntypes ? (enum ptx_type)x->in->types[0] : PTX_TYPE_NONE;
}

static unsigned bits0(const struct ax2 *x)
{
	return ptx_types[type0(x)].bits;
}

static bool is_signed(const struct ax2 *x)
{
	return ptx_types[type0(x)].cls == PTX_TC_SINT;
}

/* ---- lop3 ---- */

static const uint8_t lut_var[3] = {0xf0, 0xcc, 0xaa}; /* a, b, c */
static const uint8_t lut_shift[3] = {4, 2, 1};

static uint8_t inv(uint8_t v)
{
	return (uint8_t)(0xffu ^ v);
}

/* The cofactors of truth table f for variable v (each as a full table not depending on v). */
static void cofactors(uint8_t f, unsigned v, uint8_t *f0, uint8_t *f1)
{
	uint8_t m = lut_var[v], s = lut_shift[v];
	uint8_t hi = f & m, lo = f & (uint8_t)~m;
	*f1 = (uint8_t)(hi | hi >> s);
	*f0 = (uint8_t)(lo | lo << s);
}

/* Operations to build f (cost search), or the variable to split on (*split); -1: a leaf. */
static unsigned lut_cost(uint8_t f, int *split)
{
	*split = -1;
	if (f == 0 || f == 0xff)
		return 0;
	for (unsigned v = 0; v < 3; v++)
		if (f == lut_var[v])
			return 0;
		else if (f == inv(lut_var[v]))
			return 1;
	unsigned best = ~0u;
	for (unsigned v = 0; v < 3; v++) {
		uint8_t f0, f1;
		int ignore;
		cofactors(f, v, &f0, &f1);
		if (f0 == f1)
			continue; /* f does not depend on v */
		unsigned c0 = lut_cost(f0, &ignore), c1 = lut_cost(f1, &ignore), c;
		if (f0 == 0 || f0 == 0xff)
			c = c1 + 1; /* v & f1 ; bitsel(v, f1, ~0) */
		else if (f1 == 0 || f1 == 0xff)
			c = c0 + 1; /* bitsel(v, 0, f0) ; v | f0 */
		else if (f1 == inv(f0))
			c = c0 + 1; /* v ^ f0 */
		else
			c = c0 + c1 + 1; /* bitsel(v, f1, f0) */
		if (c < best) {
			best = c;
			*split = (int)v;
		}
	}
	return best;
}

static ir_ref lut_build(struct ax2 *x, uint8_t f, const ir_ref vars[3])
{
	const enum ir_type t = IR_T_I32;
	int v;
	lut_cost(f, &v);
	if (v < 0) {
		if (f == 0 || f == 0xff)
			return k(x, t, f ? 0xffffffffu : 0);
		for (unsigned i = 0; i < 3; i++)
			if (f == lut_var[i])
				return vars[i];
		for (unsigned i = 0; i < 3; i++)
			if (f == inv(lut_var[i]))
				return op1(x, IR_NOT, t, vars[i]);
	}
	uint8_t f0, f1;
	cofactors(f, (unsigned)v, &f0, &f1);
	ir_ref var = vars[v];
	if (f0 == 0)
		return op2(x, IR_AND, t, var, lut_build(x, f1, vars));
	if (f1 == 0xff)
		return op2(x, IR_OR, t, var, lut_build(x, f0, vars));
	ir_ref r0 = f0 == 0xff ? k(x, t, 0xffffffffu) : lut_build(x, f0, vars);
	if (f1 == inv(f0) && f0 != 0xff)
		return op2(x, IR_XOR, t, var, r0);
	ir_ref r1 = f1 == 0 ? k(x, t, 0) : lut_build(x, f1, vars);
	return op3(x, IR_BITSEL, t, var, r1, r0); /* v ? f1 : f0, bit by bit */
}

/* lop3.b32 d, a, b, c, immLut;  lop3.BoolOp.b32 d|p, a, b, c, immLut, q: p = (d != 0) op q */
static void tr_lop3(struct ax2 *x)
{
	const struct ptx_operand *lut = &x->in->opnds[4];
	if (lut->kind != PTX_OPND_INT) {
		irb_unsupported(x->b, x->in, "immLut must be a constant");
		return;
	}
	ir_ref vars[3] = {src(x, 1, IR_T_I32, false), src(x, 2, IR_T_I32, false),
	                  src(x, 3, IR_T_I32, false)};
	ir_ref d = lut_build(x, (uint8_t)lut->value, vars);
	dst(x, d, false);
	const struct ptx_operand *dp = x->in->opnds[0].pair;
	if (x->in->nopnds < 6 || !dp)
		return;
	ir_ref q = src(x, 5, IR_T_PRED, false);
	ir_ref nz = icmp(x, IR_CMP_NE, d, k(x, IR_T_I32, 0));
	enum ir_op bop = has(x, PTX_DW_AND) ? IR_AND : has(x, PTX_DW_OR) ? IR_OR : IR_XOR;
	irb_write_dest(x->b, dp, op2(x, bop, IR_T_PRED, nz, q), false, x->guard);
}

/* ---- carry chains: CC.CF as a pred variable ---- */

static uint32_t cc_var(struct ax2 *x)
{
	/* high word 0xfffffffe: no register's (instance << 32 | index) key reaches it */
	return irb_var_of_key(x->b, (uint64_t)0xfffffffeu << 32 | x->b->inst, IR_T_PRED);
}

/* CC.CF is an ordinary predicate variable of the SSA builder: a chain may cross branches and
 * joins (a divergent join merges it by EXEC like any predicate), and a CC no .cc instruction
 * wrote on some path is undefined there, as the ISA leaves it. */
static ir_ref cc_read(struct ax2 *x)
{
	return irb_read_var(x->b, cc_var(x), x->b->cur);
}

static void cc_write(struct ax2 *x, ir_ref c)
{
	uint32_t var = cc_var(x);
	if (x->guard != IR_NO_REF) {
		ir_ref old = irb_has_def(x->b, var, x->b->cur) ? irb_read_var(x->b, var, x->b->cur)
		                                               : ir_undef(x->b->fn, IR_T_PRED);
		c = op3(x, IR_SELECT, IR_T_PRED, x->guard, c, old);
	}
	irb_write_var(x->b, var, x->b->cur, c);
}

/* a + b + cin (cin: pred or IR_NO_REF), with its carry out in *cout. */
static ir_ref add_carry(struct ax2 *x, enum ir_type t, ir_ref a, ir_ref b, ir_ref cin, ir_ref *cout)
{
	ir_ref s = op2(x, IR_ADD, t, a, b);
	*cout = icmp(x, IR_CMP_LTU, s, a);
	if (cin == IR_NO_REF)
		return s;
	ir_ref r = op2(x, IR_ADD, t, s, op3(x, IR_SELECT, t, cin, k(x, t, 1), k(x, t, 0)));
	*cout = op2(x, IR_OR, IR_T_PRED, *cout, icmp(x, IR_CMP_LTU, r, s));
	return r;
}

/* a + ~b + cin = a - b - !cin (cin: pred, or IR_NO_REF for 1), with the carry out of that
 * sum (the complement of the borrow) in *cout. */
static ir_ref sub_carry(struct ax2 *x, enum ir_type t, ir_ref a, ir_ref b, ir_ref cin, ir_ref *cout)
{
	ir_ref s = op2(x, IR_SUB, t, a, b);
	*cout = icmp(x, IR_CMP_GEU, a, b);
	if (cin == IR_NO_REF)
		return s;
	ir_ref borrow = op3(x, IR_SELECT, t, cin, k(x, t, 0), k(x, t, 1));
	*cout = op2(x, IR_AND, IR_T_PRED, *cout, icmp(x, IR_CMP_GEU, s, borrow));
	return op2(x, IR_SUB, t, s, borrow);
}

/* add.cc, addc(.cc), sub.cc, subc(.cc), mad{.lo,.hi}.cc, madc{.lo,.hi}(.cc) on 32/64 bits */
static bool tr_carry(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	bool with_in = op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC;
	bool with_out = has(x, PTX_DW_CC);
	if (!with_in && !with_out)
		return false;
	unsigned bits = bits0(x);
	enum ptx_type_class cls = (enum ptx_type_class)ptx_types[type0(x)].cls;
	if ((bits != 32 && bits != 64) || (cls != PTX_TC_UINT && cls != PTX_TC_SINT)) {
		irb_unsupported(x->b, in, "carry chains on other than .u32/.s32/.u64/.s64");
		return true;
	}
	enum ir_type t = bits == 64 ? IR_T_I64 : IR_T_I32;
	bool sign = is_signed(x), is_mad = op == PTX_OP_MAD || op == PTX_OP_MADC;
	ir_ref a = src(x, 1, t, sign), b = src(x, 2, t, sign);
	if (is_mad) {
		if (has(x, PTX_DW_HI) && bits == 64) {
			irb_unsupported(x->b, in, "64-bit mad.hi in a carry chain");
			return true;
		}
		a = has(x, PTX_DW_HI) ? op2(x, sign ? IR_MULHI_S : IR_MULHI_U, t, a, b)
		                      : op2(x, IR_MUL, t, a, b);
		b = src(x, 3, t, sign);
	}
	ir_ref cin = with_in ? cc_read(x) : IR_NO_REF, cout;
	ir_ref r = op == PTX_OP_SUB || op == PTX_OP_SUBC ? sub_carry(x, t, a, b, cin, &cout)
	                                                 : add_carry(x, t, a, b, cin, &cout);
	dst(x, r, sign);
	if (with_out)
		cc_write(x, cout);
	return true;
}

/* ---- sad, copysign ---- */

/* sad.type d, a, b, c: d = c + (a < b ? b - a : a - b), compared in the type's signedness */
static void tr_sad(struct ax2 *x)
{
	unsigned bits = bits0(x);
	enum ir_type t = bits == 64 ? IR_T_I64 : IR_T_I32;
	bool sign = is_signed(x);
	ir_ref v[3];
	for (unsigned i = 0; i < 3; i++) /* 16-bit: the low halves, extended (exact in 32 bits) */
		v[i] = bits == 16
		               ? op1(x, sign ? IR_SEXT : IR_ZEXT, t, src(x, 1 + i, IR_T_I16, sign))
		               : src(x, 1 + i, t, sign);
	ir_ref a = v[0], b = v[1], c = v[2];
	ir_ref lt = icmp(x, sign ? IR_CMP_LT : IR_CMP_LTU, a, b);
	ir_ref diff = op3(x, IR_SELECT, t, lt, op2(x, IR_SUB, t, b, a), op2(x, IR_SUB, t, a, b));
	dst(x, op2(x, IR_ADD, t, c, diff), sign);
}

/* copysign.ftype d, a, b: b with the sign bit of a (bit operations: NaNs pass unchanged) */
static void tr_copysign(struct ax2 *x)
{
	bool wide = type0(x) == PTX_TYPE_F64;
	enum ir_type t = wide ? IR_T_I64 : IR_T_I32;
	uint64_t sbit = wide ? 1ull << 63 : 1ull << 31;
	ir_ref a = src(x, 1, t, false), b = src(x, 2, t, false);
	ir_ref r = op2(x, IR_OR, t,
	               op2(x, IR_AND, t, b, k(x, t, ~sbit & (wide ? ~0ull : 0xffffffffu))),
	               op2(x, IR_AND, t, a, k(x, t, sbit)));
	dst(x, op1(x, IR_BITCAST, wide ? IR_T_F64 : IR_T_F32, r), false);
}

/* rcp/sqrt/rsqrt/ex2/lg2/sin/cos .approx.ftz: subnormal input and result flushed to
 * sign-preserving zero around the approximation */
static ir_ref flush_subnormal(struct ax2 *x, ir_ref v, bool wide)
{
	enum ir_type it = wide ? IR_T_I64 : IR_T_I32, ft = wide ? IR_T_F64 : IR_T_F32;
	uint64_t sbit = wide ? 1ull << 63 : 1ull << 31;
	uint64_t min_normal = wide ? 0x0010000000000000ull : 0x00800000u;
	ir_ref bits = op1(x, IR_BITCAST, it, v);
	ir_ref mag = op2(x, IR_AND, it, bits, k(x, it, sbit - 1));
	ir_ref tiny = icmp(x, IR_CMP_LTU, mag, k(x, it, min_normal));
	ir_ref r = op3(x, IR_SELECT, it, tiny, op2(x, IR_AND, it, bits, k(x, it, sbit)), bits);
	return op1(x, IR_BITCAST, ft, r);
}

static void tr_approx_ftz(struct ax2 *x, enum ir_op op)
{
	bool wide = type0(x) == PTX_TYPE_F64;
	enum ir_type ft = wide ? IR_T_F64 : IR_T_F32;
	if (wide) { /* from the high word only (build_fapprox.c) */
		dst(x, irb_approx_ftz_f64(x->b, op, src(x, 1, ft, false)), false);
		return;
	}
	ir_ref a = flush_subnormal(x, src(x, 1, ft, false), wide);
	ir_ref r = irb_emit(x->b, op, ft, &a, 1, IR_FM_APPROX, 0);
	dst(x, flush_subnormal(x, r, wide), false);
}

static void tr_abs64(struct ax2 *x)
{
	ir_ref a = src(x, 1, IR_T_I64, true);
	ir_ref neg = icmp(x, IR_CMP_LT, a, k(x, IR_T_I64, 0));
	dst(x, op3(x, IR_SELECT, IR_T_I64, neg, op2(x, IR_SUB, IR_T_I64, k(x, IR_T_I64, 0), a), a),
	    true);
}

/* .ftz mul/fma: NVIDIA's hardware judges tininess after rounding with an unbounded exponent
 * (IEEE 754's "after rounding"): the exact value rounded to 24 bits in the instruction's
 * direction is flushed when it is below 2^-126.  0x3f7fffff * 2^-126 (exactly a 24-bit value
 * below 2^-126) gives 0 under every rounding; a value just below 2^-126 that is no 24-bit
 * number keeps 2^-126 where it rounds up (fma.rp.ftz, kernel k00685 of the H100 set).  The
 * same operation with a and c scaled by 2^24 (exact: where either overflows, the exact result
 * cannot be a nonzero value below 2^-126) rounds 2^24 times the exact value with 24 bits in
 * the normal range, so it decides: tiny iff below 2^-102.  The flushed zero takes the sign of
 * the rounded result r, which is the exact value's sign (or, for an exact zero, r's own). */
static ir_ref flush_tiny_rounded(struct ax2 *x, enum ir_op op, ir_ref *args, unsigned n,
                                 uint32_t mode, ir_ref r)
{
	ir_ref two24 = op1(x, IR_BITCAST, IR_T_F32, k(x, IR_T_I32, 0x4b800000u));
	ir_ref scaled[3] = {args[0], args[1], 0};
	scaled[0] = irb_emit(x->b, IR_FMUL, IR_T_F32, (ir_ref[]){args[0], two24}, 2, IR_FM_RN, 0);
	if (n > 2)
		scaled[2] = irb_emit(x->b, IR_FMUL, IR_T_F32, (ir_ref[]){args[2], two24}, 2,
		                     IR_FM_RN, 0);
	ir_ref t = irb_emit(x->b, op, IR_T_F32, scaled, n, mode, 0);
	ir_ref mag = op2(x, IR_AND, IR_T_I32, op1(x, IR_BITCAST, IR_T_I32, t),
	                 k(x, IR_T_I32, 0x7fffffffu));
	ir_ref tiny = icmp(x, IR_CMP_LTU, mag, k(x, IR_T_I32, 0x0c800000u)); /* 2^-102 */
	ir_ref bits = op1(x, IR_BITCAST, IR_T_I32, r);
	ir_ref z = op2(x, IR_AND, IR_T_I32, bits, k(x, IR_T_I32, 0x80000000u));
	return op1(x, IR_BITCAST, IR_T_F32, op3(x, IR_SELECT, IR_T_I32, tiny, z, bits));
}

/* add/sub/mul/fma/mad .ftz.f32: subnormal operands and results flushed to sign-preserving
 * zero around the operation, whatever the target's denormal mode (add/sub: an exact sum of
 * two floats below 2^-126 is representable, so flushing the rounded result is exact) */
static bool tr_ftz_arith(struct ax2 *x)
{
	static const enum ir_op ops[] = {[PTX_OP_ADD] = IR_FADD,
	                                 [PTX_OP_SUB] = IR_FSUB,
	                                 [PTX_OP_MUL] = IR_FMUL,
	                                 [PTX_OP_FMA] = IR_FMA,
	                                 [PTX_OP_MAD] = IR_FMA};
	const struct ptx_insn *in = x->in;
	uint32_t aux = (has(x, PTX_DW_RZ)   ? IR_FM_RZ
	                : has(x, PTX_DW_RM) ? IR_FM_RM
	                : has(x, PTX_DW_RP) ? IR_FM_RP
	                                    : IR_FM_RN) |
	               (has(x, PTX_DW_SAT) ? IR_FM_SAT : 0);
	enum ir_op op = ops[in->op];
	unsigned n = (unsigned)ir_ops[op].nargs;
	if (in->nopnds != 1 + n)
		return false;
	ir_ref args[3];
	for (unsigned i = 0; i < n; i++)
		args[i] = flush_subnormal(x, src(x, 1 + i, IR_T_F32, false), false);
	ir_ref r = irb_emit(x->b, op, IR_T_F32, args, n, aux, 0);
	dst(x,
	    op == IR_FMUL || op == IR_FMA ? flush_tiny_rounded(x, op, args, n, aux & ~IR_FM_SAT, r)
	                                  : flush_subnormal(x, r, false),
	    false);
	return true;
}

/* abs/neg .ftz.f32: a subnormal operand flushed to sign-preserving zero first */
static bool tr_ftz_sign(struct ax2 *x)
{
	if (x->in->nopnds != 2 || has(x, PTX_DW_RELU))
		return false;
	ir_ref a = flush_subnormal(x, src(x, 1, IR_T_F32, false), false);
	dst(x, op1(x, x->in->op == PTX_OP_NEG ? IR_FNEG : IR_FABS, IR_T_F32, a), false);
	return true;
}

/* ---- vector moves: pack/unpack 8/16/32-bit pieces of a 16/32/64-bit value ---- */

static void tr_mov_pieces(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	bool pack = in->opnds[1].kind == PTX_OPND_VEC;
	const struct ptx_operand *v = pack ? &in->opnds[1] : &in->opnds[0];
	unsigned bits = bits0(x), n = v->nelems, piece = n ? bits / n : 0;
	if ((bits != 16 && bits != 32 && bits != 64) || n < 2 || piece * n != bits || piece < 8) {
		irb_unsupported(x->b, in, "vector moves of other than 16, 32 or 64 bits");
		return;
	}
	enum ir_type t = bits == 64 ? IR_T_I64 : IR_T_I32; /* computed in at least 32 bits */
	uint64_t mask = piece == 64 ? ~0ull : (1ull << piece) - 1;
	if (pack) {
		ir_ref acc = k(x, t, 0);
		for (unsigned e = 0; e < n; e++) {
			ir_ref p = irb_read_opnd(x->b, &v->elems[e], t, false);
			if (piece < ir_type_bits(t))
				p = op2(x, IR_AND, t, p, k(x, t, mask));
			if (e)
				p = op2(x, IR_SHL, t, p, k(x, IR_T_I32, e * piece));
			acc = e ? op2(x, IR_OR, t, acc, p) : p;
		}
		dst(x, acc, false);
		return;
	}
	ir_ref w = src(x, 1, t, false);
	for (unsigned e = 0; e < n; e++) {
		ir_ref p = e ? op2(x, IR_SHR_U, t, w, k(x, IR_T_I32, e * piece)) : w;
		if (piece < 16)
			p = op2(x, IR_AND, t, p, k(x, t, mask));
		else if (piece < ir_type_bits(t))
			p = op1(x, IR_TRUNC, piece == 16 ? IR_T_I16 : IR_T_I32, p);
		irb_write_dest(x->b, &v->elems[e], p, false, x->guard);
	}
}

/* ---- packed f16x2: two f16 operations (i16 bit patterns) on the halves ---- */

static ir_ref half_of(struct ax2 *x, ir_ref w, unsigned h)
{
	return op1(x, IR_TRUNC, IR_T_I16,
	           h ? op2(x, IR_SHR_U, IR_T_I32, w, k(x, IR_T_I32, 16)) : w);
}

static ir_ref pack_halves(struct ax2 *x, ir_ref lo, ir_ref hi)
{
	ir_ref l = op1(x, IR_ZEXT, IR_T_I32, lo), h = op1(x, IR_ZEXT, IR_T_I32, hi);
	return op2(x, IR_OR, IR_T_I32, l, op2(x, IR_SHL, IR_T_I32, h, k(x, IR_T_I32, 16)));
}

/* .relu on an f16 result (i16 bits): a negative result (-0 included) becomes +0, a NaN the
 * canonical NaN 0x7fff, as the PTX ISA defines fma.relu (NVIDIA's hardware agrees) */
static ir_ref relu16(struct ax2 *x, ir_ref h)
{
	ir_ref w = op1(x, IR_ZEXT, IR_T_I32, h);
	ir_ref nan = icmp(x, IR_CMP_GTU, op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x7fff)),
	                  k(x, IR_T_I32, 0x7c00));
	ir_ref neg = icmp(x, IR_CMP_GEU, w, k(x, IR_T_I32, 0x8000));
	w = op3(x, IR_SELECT, IR_T_I32, neg, k(x, IR_T_I32, 0), w);
	w = op3(x, IR_SELECT, IR_T_I32, nan, k(x, IR_T_I32, 0x7fff), w);
	return op1(x, IR_TRUNC, IR_T_I16, w);
}

/* a subnormal f16 (i16 bits) becomes the zero of its sign */
static ir_ref flush16(struct ax2 *x, ir_ref h)
{
	ir_ref w = op1(x, IR_ZEXT, IR_T_I32, h);
	ir_ref tiny = icmp(x, IR_CMP_LTU, op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x7fff)),
	                   k(x, IR_T_I32, 0x400));
	w = op3(x, IR_SELECT, IR_T_I32, tiny, op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x8000)),
	        w);
	return op1(x, IR_TRUNC, IR_T_I16, w);
}

/* .ftz on an f16 mul/fma result r: tininess before rounding (the H100 set holds no f16 sample
 * that tells it from f32's after-rounding rule, flush_tiny_rounded):
 * the operation in f32 (the product of two f16 is exact there) rounded toward zero is below
 * 2^-14 in magnitude iff the exact result is */
static ir_ref flush16_tiny_exact(struct ax2 *x, enum ir_op op, ir_ref *args, unsigned n, ir_ref r)
{
	ir_ref f[3];
	for (unsigned i = 0; i < n; i++)
		f[i] = op1(x, IR_H2F, IR_T_F32, args[i]);
	ir_ref rz = irb_emit(x->b, op == IR_HMUL ? IR_FMUL : IR_FMA, IR_T_F32, f, n, IR_FM_RZ, 0);
	ir_ref mag = op2(x, IR_AND, IR_T_I32, op1(x, IR_BITCAST, IR_T_I32, rz),
	                 k(x, IR_T_I32, 0x7fffffffu));
	ir_ref tiny = icmp(x, IR_CMP_LTU, mag, k(x, IR_T_I32, 0x38800000u)); /* 2^-14 */
	ir_ref w = op1(x, IR_ZEXT, IR_T_I32, r);
	w = op3(x, IR_SELECT, IR_T_I32, tiny, op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x8000)),
	        w);
	return op1(x, IR_TRUNC, IR_T_I16, w);
}

/* .sat on an f16 result: NaN and every negative or zero result -> +0.0, above 1.0 -> 1.0
 * (as .sat on f32, docs/FLOAT.md) */
static ir_ref sat16(struct ax2 *x, ir_ref h)
{
	ir_ref w = op1(x, IR_ZEXT, IR_T_I32, h);
	ir_ref nan = icmp(x, IR_CMP_GTU, op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x7fff)),
	                  k(x, IR_T_I32, 0x7c00));
	ir_ref neg = icmp(x, IR_CMP_GEU, w, k(x, IR_T_I32, 0x8000));
	ir_ref big = icmp(x, IR_CMP_GTU, w, k(x, IR_T_I32, 0x3c00));
	w = op3(x, IR_SELECT, IR_T_I32, big, k(x, IR_T_I32, 0x3c00), w);
	w = op3(x, IR_SELECT, IR_T_I32, op2(x, IR_OR, IR_T_PRED, nan, neg), k(x, IR_T_I32, 0), w);
	return op1(x, IR_TRUNC, IR_T_I16, w);
}

/* one f16 add/sub/mul/fma (.rn) with its .ftz/.sat/.relu (i16 bit patterns) */
static ir_ref half_op_mods(struct ax2 *x, enum ir_op op, ir_ref *args, unsigned n)
{
	bool ftz = has(x, PTX_DW_FTZ);
	for (unsigned i = 0; ftz && i < n; i++)
		args[i] = flush16(x, args[i]);
	ir_ref r = irb_emit(x->b, op, IR_T_I16, args, n, 0, 0);
	if (ftz)
		r = op == IR_HMUL || op == IR_HFMA ? flush16_tiny_exact(x, op, args, n, r)
		                                   : flush16(x, r);
	if (has(x, PTX_DW_SAT))
		r = sat16(x, r);
	if (has(x, PTX_DW_RELU))
		r = relu16(x, r);
	return r;
}

static enum ir_op half_ir_op(enum ptx_opcode op)
{
	return op == PTX_OP_ADD   ? IR_HADD
	       : op == PTX_OP_SUB ? IR_HSUB
	       : op == PTX_OP_MUL ? IR_HMUL
	       : op == PTX_OP_FMA ? IR_HFMA
	                          : IR_NUM_OPS;
}

/* add/sub/mul/fma.f16 with .ftz, .sat or .relu (fma only), .rn only; neg/abs.ftz.f16 */
static bool tr_half_mods(struct ax2 *x)
{
	if (x->in->op == PTX_OP_NEG || x->in->op == PTX_OP_ABS) {
		if (!has(x, PTX_DW_FTZ) || has(x, PTX_DW_SAT) || has(x, PTX_DW_RELU))
			return false;
		ir_ref w = op1(x, IR_ZEXT, IR_T_I32, flush16(x, src(x, 1, IR_T_I16, false)));
		w = x->in->op == PTX_OP_NEG ? op2(x, IR_XOR, IR_T_I32, w, k(x, IR_T_I32, 0x8000))
		                            : op2(x, IR_AND, IR_T_I32, w, k(x, IR_T_I32, 0x7fff));
		dst(x, op1(x, IR_TRUNC, IR_T_I16, w), false);
		return true;
	}
	enum ir_op op = half_ir_op(x->in->op);
	if (op == IR_NUM_OPS || has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP) ||
	    (has(x, PTX_DW_RELU) && op != IR_HFMA) || x->in->nopnds != 1 + ir_ops[op].nargs)
		return false;
	unsigned n = ir_ops[op].nargs;
	ir_ref args[3];
	for (unsigned i = 0; i < n; i++)
		args[i] = src(x, 1 + i, IR_T_I16, false);
	dst(x, half_op_mods(x, op, args, n), false);
	return true;
}

/* min/max{.NaN} of two f32 values: with .NaN a NaN operand gives the canonical NaN
 * 0x7fffffff (PTX ISA), without it the other operand (v_min/v_max; NVIDIA's hardware gives
 * the number for a signalling NaN too) */
static ir_ref fminmax32(struct ax2 *x, ir_ref a, ir_ref b)
{
	ir_ref r = op2(x, x->in->op == PTX_OP_MIN ? IR_FMIN : IR_FMAX, IR_T_F32, a, b);
	if (!has(x, PTX_DW_NAN_MOD))
		return r;
	ir_ref args[2] = {a, b};
	ir_ref nan = irb_emit(x->b, IR_FCMP, IR_T_PRED, args, 2, IR_CMP_NAN, 0);
	return op1(x, IR_BITCAST, IR_T_F32,
	           op3(x, IR_SELECT, IR_T_I32, nan, k(x, IR_T_I32, 0x7fffffffu),
	               op1(x, IR_BITCAST, IR_T_I32, r)));
}

/* min/max{.ftz}{.NaN} of two f16 (i16 bits): widened to f32 (exact) and the result narrowed
 * back (exact: it is one of the operands); .NaN gives the canonical NaN 0x7fff */
static ir_ref hminmax(struct ax2 *x, ir_ref a, ir_ref b)
{
	if (has(x, PTX_DW_FTZ)) {
		a = flush16(x, a);
		b = flush16(x, b);
	}
	ir_ref fa = op1(x, IR_H2F, IR_T_F32, a), fb = op1(x, IR_H2F, IR_T_F32, b);
	ir_ref r = op2(x, x->in->op == PTX_OP_MIN ? IR_FMIN : IR_FMAX, IR_T_F32, fa, fb);
	ir_ref h = op1(x, IR_F2H, IR_T_I16, r);
	if (!has(x, PTX_DW_NAN_MOD))
		return h;
	ir_ref args[2] = {fa, fb};
	ir_ref nan = irb_emit(x->b, IR_FCMP, IR_T_PRED, args, 2, IR_CMP_NAN, 0);
	return op1(x, IR_TRUNC, IR_T_I16,
	           op3(x, IR_SELECT, IR_T_I32, nan, k(x, IR_T_I32, 0x7fff),
	               op1(x, IR_ZEXT, IR_T_I32, h)));
}

/* min/max{.ftz}{.NaN} .f32 (only with a modifier: plain ones are build_insn.c's), .f16, .f16x2 */
static bool tr_fminmax(struct ax2 *x)
{
	if (x->in->nopnds != 3 || has(x, PTX_DW_XORSIGN) || has(x, PTX_DW_ABS) ||
	    has(x, PTX_DW_RELU))
		return false;
	enum ptx_type t = type0(x);
	if (t == PTX_TYPE_F32) {
		bool ftz = has(x, PTX_DW_FTZ);
		ir_ref a = src(x, 1, IR_T_F32, false), b = src(x, 2, IR_T_F32, false);
		if (ftz) {
			a = flush_subnormal(x, a, false);
			b = flush_subnormal(x, b, false);
		}
		dst(x, fminmax32(x, a, b), false);
		return true;
	}
	if (t == PTX_TYPE_F16) {
		dst(x, hminmax(x, src(x, 1, IR_T_I16, false), src(x, 2, IR_T_I16, false)), false);
		return true;
	}
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	dst(x,
	    pack_halves(x, hminmax(x, half_of(x, a, 0), half_of(x, b, 0)),
	                hminmax(x, half_of(x, a, 1), half_of(x, b, 1))),
	    false);
	return true;
}

static bool tr_f16x2(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	if (in->op == PTX_OP_NEG || in->op == PTX_OP_ABS) { /* the sign bits */
		bool neg = in->op == PTX_OP_NEG;
		ir_ref a = src(x, 1, IR_T_I32, false);
		if (has(x, PTX_DW_FTZ)) /* subnormal halves flushed first */
			a = pack_halves(x, flush16(x, half_of(x, a, 0)),
			                flush16(x, half_of(x, a, 1)));
		dst(x,
		    op2(x, neg ? IR_XOR : IR_AND, IR_T_I32, a,
		        k(x, IR_T_I32, neg ? 0x80008000u : 0x7fff7fffu)),
		    false);
		return true;
	}
	enum ir_op op = half_ir_op(in->op);
	if (op == IR_NUM_OPS || has(x, PTX_DW_RZ) || has(x, PTX_DW_RM) || has(x, PTX_DW_RP) ||
	    (has(x, PTX_DW_RELU) && op != IR_HFMA) || in->nopnds != 1 + ir_ops[op].nargs)
		return false;
	unsigned n = ir_ops[op].nargs;
	ir_ref w[3], h[2];
	for (unsigned j = 0; j < n; j++)
		w[j] = src(x, 1 + j, IR_T_I32, false);
	for (unsigned half = 0; half < 2; half++) {
		ir_ref args[3];
		for (unsigned j = 0; j < n; j++)
			args[j] = half_of(x, w[j], half);
		h[half] = half_op_mods(x, op, args, n);
	}
	dst(x, pack_halves(x, h[0], h[1]), false);
	return true;
}

/* cvt.rn.f16x2.f32 d, a, b: d = {f16(a) in the upper half, f16(b) in the lower} */
static bool tr_cvt_f16x2(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	if (in->ntypes != 2 || in->types[1] != PTX_TYPE_F32 || !has(x, PTX_DW_RN) ||
	    has(x, PTX_DW_RELU) || has(x, PTX_DW_SATFINITE) || in->nopnds != 3)
		return false;
	ir_ref a = src(x, 1, IR_T_F32, false), b = src(x, 2, IR_T_F32, false);
	ir_ref ha = irb_emit(x->b, IR_F2H, IR_T_I16, &a, 1, 0, 0);
	ir_ref hb = irb_emit(x->b, IR_F2H, IR_T_I16, &b, 1, 0, 0);
	dst(x, pack_halves(x, hb, ha), false);
	return true;
}

/* setp.CMP[.BOOL].f16 p[|q], a, b[, c]: both halves widened to f32 (exact), compared
 * there; .ftz flushes subnormal f16 operands to signed zero first */
static ir_ref h2f_ftz(struct ax2 *x, ir_ref h)
{
	if (has(x, PTX_DW_FTZ))
		h = flush16(x, h);
	return irb_emit(x->b, IR_H2F, IR_T_F32, &h, 1, 0, 0);
}

/* operand i of a setp.f16 or setp.ftz.f32 as the f32 the comparison sees */
static ir_ref setp_opnd(struct ax2 *x, unsigned i)
{
	if (type0(x) == PTX_TYPE_F16)
		return h2f_ftz(x, src(x, i, IR_T_I16, false));
	return flush_subnormal(x, src(x, i, IR_T_F32, false), false);
}

/* setp.CMP[.BOOL].f16 and setp.CMP[.BOOL].ftz.f32 */
static void tr_setp_flushed(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	enum ir_cmp c;
	if (!irb_cmp_of(in, true, false, &c)) {
		irb_unsupported(x->b, in, NULL);
		return;
	}
	ir_ref args[2] = {setp_opnd(x, 1), setp_opnd(x, 2)};
	ir_ref r = irb_emit(x->b, IR_FCMP, IR_T_PRED, args, 2, c, 0), nr = IR_NO_REF;
	const struct ptx_operand *d = &in->opnds[0];
	if (in->nopnds > 3) {
		ir_ref q = src(x, 3, IR_T_PRED, false);
		enum ir_op bop = has(x, PTX_DW_AND) ? IR_AND : has(x, PTX_DW_OR) ? IR_OR : IR_XOR;
		if (d->pair)
			nr = op2(x, bop, IR_T_PRED, op1(x, IR_NOT, IR_T_PRED, r), q);
		r = op2(x, bop, IR_T_PRED, r, q);
	} else if (d->pair) {
		nr = op1(x, IR_NOT, IR_T_PRED, r);
	}
	irb_write_dest(x->b, d, r, false, x->guard);
	if (d->pair)
		irb_write_dest(x->b, d->pair, nr, false, x->guard);
}

/* setp.CMP[.BOOL]{.ftz}.f16x2 p|q, a, b[, c]: p compares the low halves, q the high ones
 * (each combined with c), as the PTX ISA says */
static void tr_setp_f16x2(struct ax2 *x)
{
	const struct ptx_insn *in = x->in;
	const struct ptx_operand *d = &in->opnds[0];
	enum ir_cmp c;
	if (!irb_cmp_of(in, true, false, &c) || !d->pair) {
		irb_unsupported(x->b, in, NULL);
		return;
	}
	ir_ref a = src(x, 1, IR_T_I32, false), b = src(x, 2, IR_T_I32, false);
	ir_ref q = in->nopnds > 3 ? src(x, 3, IR_T_PRED, false) : IR_NO_REF;
	enum ir_op bop = has(x, PTX_DW_AND) ? IR_AND : has(x, PTX_DW_OR) ? IR_OR : IR_XOR;
	ir_ref r[2];
	for (unsigned half = 0; half < 2; half++) {
		ir_ref args[2] = {h2f_ftz(x, half_of(x, a, half)), h2f_ftz(x, half_of(x, b, half))};
		r[half] = irb_emit(x->b, IR_FCMP, IR_T_PRED, args, 2, c, 0);
		if (q != IR_NO_REF)
			r[half] = op2(x, bop, IR_T_PRED, r[half], q);
	}
	irb_write_dest(x->b, d, r[0], false, x->guard);
	irb_write_dest(x->b, d->pair, r[1], false, x->guard);
}

/* ---- entry ---- */

bool irb_arith2(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct ax2 x = {.b = b, .in = in, .guard = guard};
	enum ptx_type t = type0(&x);
	if (t == PTX_TYPE_F16X2 && in->op != PTX_OP_MOV) {
		if (in->op == PTX_OP_SELP) { /* bit patterns */
			ir_ref p = src(&x, 3, IR_T_PRED, false);
			dst(&x,
			    op3(&x, IR_SELECT, IR_T_I32, p, src(&x, 1, IR_T_I32, false),
			        src(&x, 2, IR_T_I32, false)),
			    false);
			return true;
		}
		if (in->op == PTX_OP_SETP) {
			tr_setp_f16x2(&x);
			return true;
		}
		if (!(in->op == PTX_OP_CVT                           ? tr_cvt_f16x2(&x)
		      : in->op == PTX_OP_MIN || in->op == PTX_OP_MAX ? tr_fminmax(&x)
		                                                     : tr_f16x2(&x)))
			irb_unsupported(
			        b, in,
			        "f16x2 operations other than add/sub/mul/fma (.rn, .ftz, .sat; fma "
			        "also .relu), min/max (.ftz, .NaN), setp, neg, abs, moves and "
			        "cvt.rn.f16x2.f32");
		return true;
	}
	if (t == PTX_TYPE_F16 &&
	    (has(&x, PTX_DW_FTZ) || has(&x, PTX_DW_SAT) || has(&x, PTX_DW_RELU)) &&
	    tr_half_mods(&x))
		return true;
	if (in->op == PTX_OP_SETP &&
	    (t == PTX_TYPE_F16 || (t == PTX_TYPE_F32 && has(&x, PTX_DW_FTZ)))) {
		tr_setp_flushed(&x);
		return true;
	}
	switch (in->op) {
	case PTX_OP_LOP3:
		tr_lop3(&x);
		return true;
	case PTX_OP_ADD:
	case PTX_OP_SUB:
	case PTX_OP_MUL:
	case PTX_OP_FMA:
	case PTX_OP_MAD:
		if (t == PTX_TYPE_F32 && has(&x, PTX_DW_FTZ))
			return tr_ftz_arith(&x);
		if (in->op == PTX_OP_MUL || in->op == PTX_OP_FMA)
			return false;
		/* fall through */
	case PTX_OP_ADDC:
	case PTX_OP_SUBC:
	case PTX_OP_MADC:
		return tr_carry(&x);
	case PTX_OP_SAD:
		tr_sad(&x);
		return true;
	case PTX_OP_COPYSIGN:
		if (t != PTX_TYPE_F32 && t != PTX_TYPE_F64)
			return false;
		tr_copysign(&x);
		return true;
	case PTX_OP_RCP:
	case PTX_OP_SQRT:
	case PTX_OP_RSQRT:
	case PTX_OP_EX2:
	case PTX_OP_LG2:
	case PTX_OP_SIN:
	case PTX_OP_COS: {
		static const enum ir_op irop[] = {
		        [PTX_OP_RCP] = IR_FRCP, [PTX_OP_SQRT] = IR_FSQRT, [PTX_OP_RSQRT] = IR_FRSQ,
		        [PTX_OP_EX2] = IR_FEX2, [PTX_OP_LG2] = IR_FLG2,   [PTX_OP_SIN] = IR_FSIN,
		        [PTX_OP_COS] = IR_FCOS};
		if ((t != PTX_TYPE_F32 && t != PTX_TYPE_F64) || !has(&x, PTX_DW_APPROX) ||
		    !has(&x, PTX_DW_FTZ) ||
		    (t == PTX_TYPE_F64 && in->op != PTX_OP_RCP && in->op != PTX_OP_RSQRT))
			return false;
		tr_approx_ftz(&x, irop[in->op]);
		return true;
	}
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		if (t == PTX_TYPE_F16 ||
		    (t == PTX_TYPE_F32 && (has(&x, PTX_DW_FTZ) || has(&x, PTX_DW_NAN_MOD))))
			return tr_fminmax(&x);
		return false;
	case PTX_OP_NEG:
		return t == PTX_TYPE_F32 && has(&x, PTX_DW_FTZ) && tr_ftz_sign(&x);
	case PTX_OP_ABS: /* abs.s64: a < 0 ? -a : a (INT64_MIN stays) */
		if (t == PTX_TYPE_F32 && has(&x, PTX_DW_FTZ))
			return tr_ftz_sign(&x);
		if (t != PTX_TYPE_S64)
			return false;
		tr_abs64(&x);
		return true;
	case PTX_OP_MOV:
		if (in->nopnds != 2 ||
		    (in->opnds[0].kind != PTX_OPND_VEC && in->opnds[1].kind != PTX_OPND_VEC))
			return t == PTX_TYPE_F16X2
			               ? (dst(&x, src(&x, 1, IR_T_I32, false), false), true)
			               : false;
		if (bits0(&x) == 64 &&
		    (in->opnds[0].kind == PTX_OPND_VEC ? &in->opnds[0] : &in->opnds[1])->nelems ==
		            2)
			return false; /* two 32-bit halves: build_insn.c */
		tr_mov_pieces(&x);
		return true;
	default:
		return false;
	}
}
