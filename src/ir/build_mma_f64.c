/* ir_build: the f64 m8n8k4 product (mma.sync .f64, wmma.mma m8n8k4 .f64 with .rn) on
 * gfx90a/gfx942's v_mfma_f64_4x4x4f64 (docs/TENSOR.md, "f64 on the matrix unit").
 *
 * Why it may: PTX's f64 mma is an fma chain in k order from C -- the H100 gives exactly
 * fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))) on all 384 general-data elements of
 * the hardware sets (none of the other orders tried match them all) -- and amdsim executes
 * the MFMA as that chain too (sem_matrix.c, from AMD's description of the f64 MFMA as IEEE
 * fused multiply-adds).  Other rounding modifiers stay portable (the unit rounds to nearest).
 *
 * The unit's four 4x4x4 blocks span the whole wave64: A[i][k] of block b is lane 16k+4b+i,
 * D[i][j] lane 16i+4b+j, so a 32-lane warp cannot keep its product in its half.  One IR
 * MATRIX (IR_MX_F64_M8N8K4) stands for the two warps' products; the selector
 * (isel/sel_mma_ext.c) expands it with EXEC all ones: each warp's A, B, C spread over the
 * 64 lanes by ds_bpermute, one MFMA per warp, D read back by each warp from its own MFMA.
 * Here: the operands as dword tuples, and D's two registers from the four result dwords.
 * The layout check below makes any other fragment layout take the portable path. */
#include "ir/build_mma.h"

static void split64(struct irb *b, ir_ref v, ir_ref *lo, ir_ref *hi)
{
	*lo = irb_emit(b, IR_TRUNC, IR_T_I32, &v, 1, 0, 0);
	ir_ref sh = irb_op2(b, IR_SHR_U, IR_T_I64, v, ir_const(b->fn, IR_T_I64, 32), 0);
	*hi = irb_emit(b, IR_TRUNC, IR_T_I32, &sh, 1, 0, 0);
}

static ir_ref join64(struct irb *b, ir_ref lo, ir_ref hi)
{
	ir_ref l = irb_emit(b, IR_ZEXT, IR_T_I64, &lo, 1, 0, 0),
	       h = irb_emit(b, IR_ZEXT, IR_T_I64, &hi, 1, 0, 0);
	return irb_op2(b, IR_OR, IR_T_I64, l,
	               irb_op2(b, IR_SHL, IR_T_I64, h, ir_const(b->fn, IR_T_I64, 32), 0), 0);
}

/* The fragments are the PTX ISA's m8n8k4 .f64 ones: A[L>>2][L&3], B[L&3][L>>2],
 * C/D[L>>2][2(L&3)+e] in lane L (the selector's shuffles assume exactly these). */
static bool layouts_are_mma(const struct mma_layout *const l[4])
{
	for (unsigned lane = 0; lane < 32; lane++) {
		struct mma_coord a = mma_elem(l[0], lane, 0), bq = mma_elem(l[1], lane, 0);
		if (a.grp || a.row != lane >> 2 || a.col != (lane & 3) || bq.grp ||
		    bq.row != (lane & 3) || bq.col != lane >> 2)
			return false;
		for (unsigned t = 2; t < 4; t++)
			for (unsigned e = 0; e < 2; e++) {
				struct mma_coord c = mma_elem(l[t], lane, e);
				if (c.grp || c.row != lane >> 2 || c.col != 2 * (lane & 3) + e)
					return false;
			}
	}
	return true;
}

bool mma_f64_unit(struct irb *b, const struct mma_layout *const l[4], uint32_t fround,
                  ir_ref *const *reg, ir_ref *d)
{
	const struct ir_function *fn = b->fn;
	if (fn->matrix_unit != IR_MU_MFMA || fn->wave_size != 64 || fn->warp_size != 32 ||
	    fround != IR_FM_RN)
		return false;
	for (unsigned t = 0; t < 4; t++)
		if (l[t]->nelem != (t < 2 ? 1u : 2u) || l[t]->ntiles != 1)
			return false;
	if (!layouts_are_mma(l))
		return false;
	ir_ref ta[2], tb[2], tc[4];
	split64(b, reg[0][0], &ta[0], &ta[1]);
	split64(b, reg[1][0], &tb[0], &tb[1]);
	split64(b, reg[2][0], &tc[0], &tc[1]);
	split64(b, reg[2][1], &tc[2], &tc[3]);
	ir_ref args[3] = {irb_emit(b, IR_MTUP, IR_T_I32, ta, 2, 0, 0),
	                  irb_emit(b, IR_MTUP, IR_T_I32, tb, 2, 0, 0),
	                  irb_emit(b, IR_MTUP, IR_T_I32, tc, 4, 0, 0)};
	ir_ref acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, IR_MX_F64_M8N8K4, 0);
	ir_ref dw[4];
	for (unsigned i = 0; i < 4; i++)
		dw[i] = irb_emit(b, IR_MTUP_GET, IR_T_I32, &acc, 1, i, 0);
	d[0] = join64(b, dw[0], dw[1]);
	d[1] = join64(b, dw[2], dw[3]);
	return true;
}
