/* ir_build, approximate float division and the f64 reciprocal approximations, expanded into
 * IR operations with the PTX ISA's semantics (docs/CONVERSIONS.md):
 *
 * div.approx.f32 / div.full.f32 (.ftz): a * rcp(b) with the divisor scaled into the range
 * where v_rcp_f32 is accurate and its result normal: by 2^32 below 2^-126 (subnormal
 * divisors, whose reciprocal overflows: div.full.f32 of 0.5 by 2^-129 is 2^127), and, for
 * div.full only, by 2^-32 above 2^126; the quotient is scaled back.  div.approx flushes the
 * reciprocal of a divisor above 2^126 to zero, which gives the ISA's sign-preserving zero
 * (NaN for an infinite numerator).  .ftz flushes operands and the result to sign-preserving
 * zero.  Error: v_rcp_f32 (1 ulp) and two roundings of the product, within the ISA's 2 ulp.
 *
 * rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: computed from the operand's high word only
 * (a 1.11.20 value; subnormal -> sign-preserving zero), the result's low word zeroed, NaN
 * results 0x7fffffff00000000, subnormal results flushed.
 *
 * irb_flush_subnormal: the .ftz flush (a subnormal f32/f64 to the zero of its sign), for
 * build_insn.c's cvt.
 * O(1) per instruction. */
#include <stdint.h>

#include "ir/build_int.h"

static ir_ref emit(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, t, args, c == IR_NO_REF ? 1 : 2, aux, 0);
}

static ir_ref select3(struct irb *b, enum ir_type t, ir_ref p, ir_ref x, ir_ref y)
{
	ir_ref args[3] = {p, x, y};
	return irb_emit(b, IR_SELECT, t, args, 3, 0, 0);
}

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

/* |bits| (sign cleared) of an f32 or f64 value, as an integer */
static ir_ref magnitude(struct irb *b, ir_ref v, bool wide)
{
	enum ir_type it = wide ? IR_T_I64 : IR_T_I32;
	ir_ref bits = emit(b, IR_BITCAST, it, v, IR_NO_REF, 0);
	return emit(b, IR_AND, it, bits, konst(b, it, wide ? ~0ull >> 1 : 0x7fffffffu), 0);
}

/* .ftz: a subnormal value becomes the zero of its sign */
ir_ref irb_flush_subnormal(struct irb *b, ir_ref v, bool wide)
{
	enum ir_type it = wide ? IR_T_I64 : IR_T_I32, ft = wide ? IR_T_F64 : IR_T_F32;
	uint64_t sbit = wide ? 1ull << 63 : 1ull << 31;
	ir_ref bits = emit(b, IR_BITCAST, it, v, IR_NO_REF, 0);
	ir_ref tiny = emit(b, IR_ICMP, IR_T_PRED, magnitude(b, v, wide),
	                   konst(b, it, wide ? 0x0010000000000000ull : 0x00800000u), IR_CMP_LTU);
	ir_ref r = select3(b, it, tiny, emit(b, IR_AND, it, bits, konst(b, it, sbit), 0), bits);
	return emit(b, IR_BITCAST, ft, r, IR_NO_REF, 0);
}

static ir_ref flush(struct irb *b, ir_ref v, bool wide)
{
	return irb_flush_subnormal(b, v, wide);
}

ir_ref irb_fdiv_approx(struct irb *b, ir_ref a, ir_ref d, bool full, bool ftz)
{
	enum ir_type f = IR_T_F32, i = IR_T_I32;
	if (ftz) {
		a = flush(b, a, false);
		d = flush(b, d, false);
	}
	ir_ref mag = magnitude(b, d, false);
	ir_ref small = emit(b, IR_ICMP, IR_T_PRED, mag, konst(b, i, 0x00800000u), IR_CMP_LTU);
	ir_ref scale =
	        select3(b, f, small, konst(b, f, 0x4f800000u) /* 2^32 */, konst(b, f, 0x3f800000u));
	if (full) {
		ir_ref big = emit(b, IR_ICMP, IR_T_PRED, mag, konst(b, i, 0x7e800000u) /* 2^126 */,
		                  IR_CMP_GTU);
		scale = select3(b, f, big, konst(b, f, 0x2f800000u) /* 2^-32 */, scale);
	}
	ir_ref r = emit(b, IR_FRCP, f, emit(b, IR_FMUL, f, d, scale, 0), IR_NO_REF, IR_FM_APPROX);
	if (!full)
		r = flush(b, r, false);
	ir_ref q = emit(b, IR_FMUL, f, emit(b, IR_FMUL, f, a, r, 0), scale, 0);
	return ftz ? flush(b, q, false) : q;
}

ir_ref irb_approx_ftz_f64(struct irb *b, enum ir_op op, ir_ref a)
{
	enum ir_type l = IR_T_I64;
	ir_ref bits = emit(b, IR_BITCAST, l, a, IR_NO_REF, 0);
	ir_ref hi_word = emit(b, IR_AND, l, bits, konst(b, l, 0xffffffff00000000ull), 0);
	ir_ref t = flush(b, emit(b, IR_BITCAST, IR_T_F64, hi_word, IR_NO_REF, 0), true);
	ir_ref r = flush(b, emit(b, op, IR_T_F64, t, IR_NO_REF, IR_FM_APPROX), true);
	ir_ref is_nan = emit(b, IR_FCMP, IR_T_PRED, r, r, IR_CMP_NAN);
	ir_ref rb = emit(b, IR_AND, l, emit(b, IR_BITCAST, l, r, IR_NO_REF, 0),
	                 konst(b, l, 0xffffffff00000000ull), 0);
	rb = select3(b, l, is_nan, konst(b, l, 0x7fffffff00000000ull), rb);
	return emit(b, IR_BITCAST, IR_T_F64, rb, IR_NO_REF, 0);
}
