/* ir_build: the 4-bit integer mma forms on the matrix units (docs/TENSOR.md, "Nibbles on the
 * matrix units").
 *
 * gfx1100's v_wmma_i32_16x16x16_iu4 packs 8 consecutive k of a row (A) or a column (B) in a
 * register from bit 0, as the PTX fragments of m16n8k64 / m16n8k32 / m8n8k32 .s4/.u4 do
 * (a register: 8 consecutive k of one row or column).  Register for register these fragments
 * are those of the .s8 form of half the k (m16n8k32 / m16n8k16 / m8n8k16: 4 consecutive k a
 * register), so build_mma_mfma.c's iu8 shuffles move them unchanged; only the grouping
 * differs: 2 registers (16 k) per WMMA instead of 4.  neg_lo marks the signed operands, as
 * for iu8.  gfx1200's iu4 stays portable with its iu8 (the packing of its 8-/4-bit operands
 * is the weakest entry of docs/MATRIX_UNITS.md).
 *
 * MFMA has no 4-bit form: each register's nibbles become two registers of bytes (k 8t..8t+3
 * and 8t+4..8t+7 of lane t), .s4 sign-extended and .u4 zero-extended (0..15 is a signed
 * byte too), and the product is v_mfma_i32_4x4x4i8's of signed bytes with twice the
 * registers: the integer sum is exact in any k order, A's and B's bytes pair up as their
 * nibbles did. */
#include "ir/build_mma.h"

bool mma_nibbles(const struct irb *b, const struct mma_fast *q)
{
	bool na = q->ea == EK_S4 || q->ea == EK_U4, nb = q->eb == EK_S4 || q->eb == EK_U4;
	return na && nb && b->fn->matrix_unit == IR_MU_WMMA11 && b->fn->wave_size == 32;
}

bool mma_nibbles_as_bytes(const struct irb *b, const struct mma_fast *q)
{
	bool na = q->ea == EK_S4 || q->ea == EK_U4, nb = q->eb == EK_S4 || q->eb == EK_U4;
	return na && nb && b->fn->matrix_unit == IR_MU_MFMA;
}

static ir_ref k32(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, ir_ref x, ir_ref y)
{
	return irb_op2(b, op, IR_T_I32, x, y, 0);
}

/* Nibbles 4x..4x+3 of r as bytes 0..3 (sign-extended when sign). */
static ir_ref nibbles_to_bytes(struct irb *b, ir_ref r, unsigned x, bool sign)
{
	ir_ref v = x ? op2(b, IR_SHR_U, r, k32(b, 16)) : r, t = op2(b, IR_AND, v, k32(b, 15));
	for (unsigned j = 1; j < 4; j++)
		t = op2(b, IR_OR, t,
		        op2(b, IR_AND, op2(b, IR_SHL, v, k32(b, 4 * j)), k32(b, 15u << 8 * j)));
	if (!sign)
		return t;
	/* bit 3 of a byte -> bits 4-7: (t & 0x08080808) * 30 sets 0xf0 in those bytes, no carry */
	return op2(b, IR_OR, t, op2(b, IR_MUL, op2(b, IR_AND, t, k32(b, 0x08080808u)), k32(b, 30)));
}

void mma_nibbles_bytes(struct irb *b, const struct mma_fast *q, const ir_ref *a, const ir_ref *bb,
                       ir_ref *a8, ir_ref *b8)
{
	bool sa = q->ea == EK_S4, sb = q->eb == EK_S4;
	for (unsigned h = 0; h < q->k / 32; h++) /* A 2h + e: chunk h of row half e */
		for (unsigned x = 0; x < 2; x++) {
			for (unsigned e = 0; e < 2; e++)
				a8[2 * (2 * h + x) + e] = nibbles_to_bytes(b, a[2 * h + e], x, sa);
			b8[2 * h + x] = nibbles_to_bytes(b, bb[h], x, sb);
		}
}
