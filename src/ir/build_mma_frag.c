/* ir_build: the fragment layouts of mma.sync (PTX ISA, "Matrix Fragments for mma.mMnNkK")
 * and the lane functions that locate their elements (docs/TENSOR.md), for build_mma.c and
 * build_wmma.c.  mma_elem maps (layout, lane, element) to matrix coordinates; mma_fit checks
 * that a per-lane value (an owner lane, a row, a column) is a lane function -- each bit a
 * constant or a bit of the lane -- and mma_lanefn_value computes it in IR.  O(32 x 16) per fit. */
#include "ir/build_mma.h"

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

/* ---- element types ---- */

enum mma_ek mma_ek_of(unsigned t)
{
	switch ((enum ptx_type)t) {
	case PTX_TYPE_F16:
		return EK_F16;
	case PTX_TYPE_BF16:
		return EK_BF16;
	case PTX_TYPE_TF32:
		return EK_TF32;
	case PTX_TYPE_F32:
		return EK_F32;
	case PTX_TYPE_F64:
		return EK_F64;
	case PTX_TYPE_S32:
		return EK_S32;
	case PTX_TYPE_S8:
		return EK_S8;
	case PTX_TYPE_U8:
		return EK_U8;
	case PTX_TYPE_S4:
		return EK_S4;
	case PTX_TYPE_U4:
		return EK_U4;
	case PTX_TYPE_B1:
		return EK_B1;
	case PTX_TYPE_E4M3:
		return EK_E4M3;
	case PTX_TYPE_E5M2:
		return EK_E5M2;
	default:
		return EK_NONE;
	}
}

unsigned mma_ek_bits(enum mma_ek k)
{
	static const unsigned bits[] = {
	        [EK_F16] = 16, [EK_BF16] = 16, [EK_TF32] = 32, [EK_F32] = 32, [EK_F64] = 64,
	        [EK_S32] = 32, [EK_S8] = 8,    [EK_U8] = 8,    [EK_S4] = 4,   [EK_U4] = 4,
	        [EK_B1] = 1,   [EK_E4M3] = 8,  [EK_E5M2] = 8};
	return bits[k];
}

/* ---- layouts ---- */

unsigned mma_layout_elems(const struct mma_layout *l)
{
	return l->nelem * l->ntiles;
}

/* Element e of a lane's fragment: the PTX ISA's formulas, with groupID g = lane >> 2 and
 * threadID_in_group t = lane % 4; register r = x / per holds sub-elements s = x % per. */
struct mma_coord mma_elem(const struct mma_layout *l, unsigned lane, unsigned e)
{
	unsigned tile = e / l->nelem, x = e % l->nelem;
	unsigned g = lane >> 2, t = lane & 3, c = l->per ? l->per : 1, r = x / c, s = x % c;
	unsigned hi = lane >> 4, q = lane & 3;
	struct mma_coord p = {0, 0, 0};
	switch (l->kind) {
	case LK_A: /* m16: a register pair per 4*c columns, rows g and g + 8 */
		p.row = l->m0 == 16 ? g + 8 * (r & 1) : g;
		p.col = c * t + s + 4 * c * (l->m0 == 16 ? r >> 1 : r);
		break;
	case LK_B:
		p.row = c * t + s + 4 * c * r;
		p.col = g;
		break;
	case LK_C:
		p.row = l->m0 == 16 ? g + 8 * (x >> 1) : g;
		p.col = 2 * t + (x & 1);
		break;
	case LK_QA_ROW: /* m8n8k4 .f16: quad pair (lanes 4p..4p+3, 4p+16..4p+19) p */
		p.row = q + 4 * hi;
		p.col = x;
		break;
	case LK_QA_COL:
		p.row = x + 4 * hi;
		p.col = q;
		break;
	case LK_QB_ROW:
		p.row = q;
		p.col = x + 4 * hi;
		break;
	case LK_QB_COL:
		p.row = x;
		p.col = q + 4 * hi;
		break;
	case LK_QC_F16:
		p.row = q + 4 * hi;
		p.col = x;
		break;
	case LK_QC_F32:
		p.row = (lane & 1) + (x & 2) + 4 * hi;
		p.col = (x & 4) + (lane & 2) + (x & 1);
		break;
	}
	if (l->kind >= LK_QA_ROW)
		p.grp = (lane >> 2) & 3;
	p.row += l->trow[tile];
	p.col += l->tcol[tile];
	return p;
}

/* ---- lane functions ---- */

bool mma_fit(const unsigned *v, struct mma_lanefn *f)
{
	for (unsigned ob = 0; ob < MMA_FN_BITS; ob++) {
		unsigned ones = 0;
		for (unsigned l = 0; l < 32; l++)
			ones += (v[l] >> ob) & 1;
		if (ones == 0 || ones == 32) {
			f->src[ob] = ones ? MMA_BIT1 : MMA_BIT0;
			continue;
		}
		f->src[ob] = 0xfd;
		for (unsigned lb = 0; lb < 5 && f->src[ob] == 0xfd; lb++) {
			bool same = true;
			for (unsigned l = 0; l < 32 && same; l++)
				same = ((v[l] >> ob) & 1) == ((l >> lb) & 1);
			if (same)
				f->src[ob] = (uint8_t)lb;
		}
		if (f->src[ob] == 0xfd)
			return false;
	}
	for (unsigned l = 0; l < 32; l++) /* nothing above the bits looked at */
		if (v[l] >> MMA_FN_BITS)
			return false;
	return true;
}

/* The lane within the warp: wave lanes 0..31, or 0..31 of each half of a wave64. */
static ir_ref warp_lane(struct irb *b)
{
	ir_ref lane = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	if (b->fn->wave_size == 32)
		return lane;
	return irb_op2(b, IR_AND, IR_T_I32, lane, konst(b, IR_T_I32, 31), 0);
}

ir_ref mma_lanefn_value(struct irb *b, const struct mma_lanefn *f)
{
	uint32_t fixed = 0;
	for (unsigned ob = 0; ob < MMA_FN_BITS; ob++)
		if (f->src[ob] == MMA_BIT1)
			fixed |= 1u << ob;
	ir_ref v = IR_NO_REF, lane = IR_NO_REF;
	for (int d = -4; d < MMA_FN_BITS; d++) { /* bits moved by d places, one term each */
		uint32_t mask = 0;
		for (unsigned ob = 0; ob < MMA_FN_BITS; ob++)
			if (f->src[ob] < 5 && (int)ob - (int)f->src[ob] == d)
				mask |= 1u << ob;
		if (!mask)
			continue;
		if (lane == IR_NO_REF)
			lane = warp_lane(b);
		ir_ref t =
		        d == 0  ? lane
		        : d > 0 ? irb_op2(b, IR_SHL, IR_T_I32, lane, konst(b, IR_T_I32, d), 0)
		                : irb_op2(b, IR_SHR_U, IR_T_I32, lane, konst(b, IR_T_I32, -d), 0);
		if (mask != 31 || d != 0)
			t = irb_op2(b, IR_AND, IR_T_I32, t, konst(b, IR_T_I32, mask), 0);
		v = v == IR_NO_REF ? t : irb_op2(b, IR_OR, IR_T_I32, v, t, 0);
	}
	if (v == IR_NO_REF)
		return konst(b, IR_T_I32, fixed);
	return fixed ? irb_op2(b, IR_OR, IR_T_I32, v, konst(b, IR_T_I32, fixed), 0) : v;
}
