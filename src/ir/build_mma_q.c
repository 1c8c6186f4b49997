/* ir_build: the sm_70 form mma.sync.m8n8k4.row.col (.f16 inputs) on gfx90a/gfx942's
 * v_mfma_f32_4x4x4f16 (docs/TENSOR.md, "m8n8k4 .f16 on MFMA").
 *
 * The form is four independent 8x8x4 products, one per quad pair p (lanes 4p..4p+3 hold rows
 * 0-3 / columns 0-3, lanes 4p+16..4p+19 rows 4-7 / columns 4-7): lane q (+ 4 hi) holds row q
 * + 4 hi of A (k 0..3, .row), column q + 4 hi of B (k 0..3, .col) and row q + 4 hi of C and
 * D (columns 0..7, .f16).  The MFMA's 4x4x4 blocks are lane-local (block b in lanes
 * 4b..4b+3; srcA[i][k] in lane 4b+i, srcB[k][j] in lane 4b+j, D[i][j] register i of lane
 * 4b+j), so computing D^T = B^T A^T + C^T, block 4p + 4 hi ... is exactly a quad pair's
 * diagonal 4x4 tiles with no shuffle: srcA = B's registers (column n of B is row n of B^T),
 * srcB = A's, and D^T's register n in lane q is D[q][n].  A second MFMA with B's two lane
 * halves swapped (lane ^ 16: one ds_bpermute per register, within the warp) gives the other
 * two tiles.  C and D stay in their lanes: MFMA i covers columns 4 (hi ^ i)..+3 of the lane's
 * row.  .f16 C is widened exactly, D rounded once from the unit's f32 (as build_mma_mfma.c's
 * .f16 D).  An .f32 C or D holds two rows per lane (row (L & 1) + (x & 2) + 4 hi, column
 * (x & 4) + (L & 2) + (x & 1) for element x of lane L): its element moves between the lane
 * of the same quad pair and half that has bit 1 = x & 2 (C: n & 2), the register chosen
 * by the reader's bit 1 after two ds_bpermute (the source picks the MFMA by its own hi, the
 * reader's).  Other layouts (.col A, .row B: a 4x4 transpose within each quad) stay
 * portable. */
#include "ir/build_mma.h"

static ir_ref k32(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a)
{
	return irb_emit(b, op, t, &a, 1, 0, 0);
}

static ir_ref sel(struct irb *b, ir_ref p, ir_ref x, ir_ref y) /* p ? x : y */
{
	ir_ref args[3] = {p, x, y};
	return irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
}

/* Whether C/D element x of lane is where layout l (.f16 or .f32 C/D) puts it. */
static bool cd_at(const struct mma_layout *l, unsigned lane, unsigned x)
{
	struct mma_coord c = mma_elem(l, lane, x);
	unsigned hi = lane >> 4, p = (lane >> 2) & 3;
	if (l->kind == LK_QC_F16)
		return c.grp == p && c.row == (lane & 3) + 4 * hi && c.col == x;
	return c.grp == p && c.row == (lane & 1) + (x & 2) + 4 * hi &&
	       c.col == (x & 4) + (lane & 2) + (x & 1);
}

static bool layouts_are_quad(const struct mma_layout *const l[4])
{
	if (l[0]->kind != LK_QA_ROW || l[1]->kind != LK_QB_COL)
		return false;
	for (unsigned t = 0; t < 4; t++)
		if ((t >= 2 && l[t]->kind != LK_QC_F16 && l[t]->kind != LK_QC_F32) ||
		    l[t]->ntiles != 1 || l[t]->nelem != (t < 2 ? 4u : 8u))
			return false;
	for (unsigned lane = 0; lane < 32; lane++) {
		unsigned p = (lane >> 2) & 3, r = (lane & 3) + 4 * (lane >> 4);
		for (unsigned x = 0; x < 8; x++) {
			struct mma_coord a = mma_elem(l[0], lane, x & 3),
			                 bq = mma_elem(l[1], lane, x & 3);
			if (a.grp != p || a.row != r || a.col != (x & 3) || bq.grp != p ||
			    bq.row != (x & 3) || bq.col != r || !cd_at(l[2], lane, x) ||
			    !cd_at(l[3], lane, x))
				return false;
		}
	}
	return true;
}

/* The .f32 layout's move: from the source lane `at`, candidate v[0] for readers whose bit 1
 * is clear, v[1] for the others; the reader's pick. */
static ir_ref move32(struct irb *b, ir_ref at, ir_ref bit1, const ir_ref *v)
{
	ir_ref r0 = irb_op2(b, IR_MPERM, IR_T_I32, v[0], at, 0),
	       r1 = irb_op2(b, IR_MPERM, IR_T_I32, v[1], at, 0);
	return sel(b, bit1, r1, r0);
}

/* f16 half h of register v as f32 bits */
static ir_ref widen(struct irb *b, ir_ref v, unsigned h)
{
	ir_ref x = h ? irb_op2(b, IR_SHR_U, IR_T_I32, v, k32(b, 16), 0) : v;
	ir_ref f = op1(b, IR_H2F, IR_T_F32, op1(b, IR_TRUNC, IR_T_I16, x));
	return op1(b, IR_BITCAST, IR_T_I32, f);
}

static ir_ref narrow_pair(struct irb *b, ir_ref lo, ir_ref hi)
{
	ir_ref h[2] = {lo, hi};
	for (unsigned e = 0; e < 2; e++)
		h[e] = op1(b, IR_ZEXT, IR_T_I32,
		           op1(b, IR_F2H, IR_T_I16, op1(b, IR_BITCAST, IR_T_F32, h[e])));
	return irb_op2(b, IR_OR, IR_T_I32, h[0], irb_op2(b, IR_SHL, IR_T_I32, h[1], k32(b, 16), 0),
	               0);
}

bool mma_quad_unit(struct irb *b, const struct mma_layout *const l[4], ir_ref *const *reg,
                   ir_ref *d)
{
	const struct ir_function *fn = b->fn;
	if (fn->matrix_unit != IR_MU_MFMA || fn->wave_size != 64 || fn->warp_size != 32 ||
	    !layouts_are_quad(l))
		return false;
	ir_ref id = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	ir_ref cmp[2] = {irb_op2(b, IR_AND, IR_T_I32, id, k32(b, 16), 0), k32(b, 0)};
	ir_ref hi = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
	ir_ref swap = irb_op2(b, IR_SHL, IR_T_I32, irb_op2(b, IR_XOR, IR_T_I32, id, k32(b, 16), 0),
	                      k32(b, 2), 0);
	cmp[0] = irb_op2(b, IR_AND, IR_T_I32, id, k32(b, 2), 0);
	ir_ref bit1 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
	ir_ref at2[2]; /* lanes (L & ~2) | 2j, as byte addresses */
	at2[0] = irb_op2(b, IR_SHL, IR_T_I32, irb_op2(b, IR_AND, IR_T_I32, id, k32(b, ~2u), 0),
	                 k32(b, 2), 0);
	at2[1] = irb_op2(b, IR_OR, IR_T_I32, at2[0], k32(b, 8), 0);
	bool c32 = l[2]->kind == LK_QC_F32, d32 = l[3]->kind == LK_QC_F32;
	ir_ref bsrc[2][2] = {{reg[1][0], reg[1][1]}};
	for (unsigned r = 0; r < 2; r++)
		bsrc[1][r] = irb_op2(b, IR_MPERM, IR_T_I32, reg[1][r], swap, 0);
	ir_ref res[2][4];
	for (unsigned i = 0; i < 2; i++) { /* MFMA i: columns 4 (hi ^ i) .. + 3 */
		ir_ref c[4];
		for (unsigned n = 0; n < 4 && !c32; n++) {
			ir_ref lo = reg[2][n >> 1], up = reg[2][2 + (n >> 1)];
			c[n] = widen(b, i ? sel(b, hi, lo, up) : sel(b, hi, up, lo), n & 1);
		}
		for (unsigned n = 0; n < 4 && c32; n++) { /* element (L & 2) + 4 (hi ^ i) + n0 */
			ir_ref v[2];
			for (unsigned j = 0; j < 2; j++) {
				unsigned x0 = 2 * j + (n & 1);
				v[j] = sel(b, hi, reg[2][x0 + 4 * (1 - i)], reg[2][x0 + 4 * i]);
			}
			c[n] = move32(b, at2[n >> 1], bit1, v);
		}
		ir_ref args[3] = {irb_emit(b, IR_MTUP, IR_T_I32, bsrc[i], 2, 0, 0),
		                  irb_emit(b, IR_MTUP, IR_T_I32, reg[0], 2, 0, 0),
		                  irb_emit(b, IR_MTUP, IR_T_I32, c, 4, 0, 0)};
		ir_ref acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, IR_MX_F32_4X4X4_F16, 0);
		for (unsigned n = 0; n < 4; n++)
			res[i][n] = irb_emit(b, IR_MTUP_GET, IR_T_I32, &acc, 1, n, 0);
	}
	for (unsigned x = 0; x < 8 && d32; x++) { /* MFMA hi ^ (x >> 2), register (L & 2) + x0 */
		ir_ref v[2];
		unsigned h = x >> 2;
		for (unsigned j = 0; j < 2; j++)
			v[j] = sel(b, hi, res[1 - h][2 * j + (x & 1)], res[h][2 * j + (x & 1)]);
		d[x] = move32(b, at2[(x >> 1) & 1], bit1, v);
	}
	for (unsigned r = 0; r < 4 && !d32; r++) { /* D register r: columns 2r, 2r + 1 */
		unsigned half = r >> 1, n = 2 * (r & 1);
		ir_ref v[2];
		for (unsigned e = 0; e < 2; e++) /* columns 0-3 from MFMA hi, 4-7 from MFMA !hi */
			v[e] = half ? sel(b, hi, res[0][n + e], res[1][n + e])
			            : sel(b, hi, res[1][n + e], res[0][n + e]);
		d[r] = narrow_pair(b, v[0], v[1]);
	}
	return true;
}
