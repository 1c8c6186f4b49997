/* ir_build: which 4-bit integer mma forms go on the matrix units (docs/TENSOR.md, "Nibbles on
 * gfx1100's WMMA").
 *
 * gfx1100's v_wmma_i32_16x16x16_iu4 packs 8 consecutive k of a row (A) or a column (B) in a
 * register from bit 0, as the PTX fragments of m16n8k64 / m16n8k32 / m8n8k32 .s4/.u4 do
 * (a register: 8 consecutive k of one row or column).  Register for register these fragments
 * are those of the .s8 form of half the k (m16n8k32 / m16n8k16 / m8n8k16: 4 consecutive k a
 * register), so build_mma_mfma.c's iu8 shuffles move them unchanged; only the grouping
 * differs: 2 registers (16 k) per WMMA instead of 4.  neg_lo marks the signed operands, as
 * for iu8.  gfx1200's iu4 stays portable with its iu8 (the packing of its 8-/4-bit operands
 * is the weakest entry of docs/MATRIX_UNITS.md); MFMA has no 4-bit form. */
#include "ir/build_mma.h"

bool mma_nibbles(const struct irb *b, const struct mma_fast *q)
{
	bool na = q->ea == EK_S4 || q->ea == EK_U4, nb = q->eb == EK_S4 || q->eb == EK_U4;
	return na && nb && b->fn->matrix_unit == IR_MU_WMMA11 && b->fn->wave_size == 32;
}
