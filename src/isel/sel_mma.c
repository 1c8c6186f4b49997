/* Instruction selection for the IR operations of matrix operations (build_mma_mfma.c):
 * MTUP tuples become the VGPR tuples MATRIX's instruction reads, MATRIX one MFMA, MTUP_GET a
 * copy of one dword of its result, MPERM a ds_bpermute (docs/TENSOR.md, "The matrix units"). */
#include "isel/isel_int.h"

struct matrix_row {
	unsigned op;        /* table row */
	unsigned na, nb, n; /* dwords of A, B and C/D */
	bool full_exec;     /* WMMA: EXEC must be all ones */
	unsigned neg;       /* neg_lo (iu8: signed A and B) */
};

static bool matrix_row(enum ir_matrix_op op, struct matrix_row *r)
{
	switch (op) {
	case IR_MX_F32_4X4X4_F16:
		*r = (struct matrix_row){AMD_OP_V_MFMA_F32_4X4X4F16, 2, 2, 4, false, 0};
		return true;
	case IR_MX_F32_4X4X4_BF16:
		*r = (struct matrix_row){AMD_OP_V_MFMA_F32_4X4X4BF16_1K, 2, 2, 4, false, 0};
		return true;
	case IR_MX_WMMA_F32_F16:
		*r = (struct matrix_row){AMD_OP_V_WMMA_F32_16X16X16_F16, 8, 8, 8, true, 0};
		return true;
	case IR_MX_WMMA_F32_BF16:
		*r = (struct matrix_row){AMD_OP_V_WMMA_F32_16X16X16_BF16, 8, 8, 8, true, 0};
		return true;
	case IR_MX_WMMA12_F32_F16:
		*r = (struct matrix_row){AMD_OP_V_WMMA_F32_16X16X16_F16_GFX12, 4, 4, 8, true, 0};
		return true;
	case IR_MX_WMMA12_F32_BF16:
		*r = (struct matrix_row){AMD_OP_V_WMMA_F32_16X16X16_BF16_GFX12, 4, 4, 8, true, 0};
		return true;
	case IR_MX_F32_4X4X1_F32:
		*r = (struct matrix_row){AMD_OP_V_MFMA_F32_4X4X1F32, 1, 1, 4, false, 0};
		return true;
	case IR_MX_I32_4X4X4_I8:
		*r = (struct matrix_row){AMD_OP_V_MFMA_I32_4X4X4I8, 1, 1, 4, false, 0};
		return true;
	case IR_MX_WMMA_I32_IU8: /* neg_lo: which of A, B is signed, from aux (ir.h) */
		*r = (struct matrix_row){AMD_OP_V_WMMA_I32_16X16X16_IU8, 4, 4, 8, true, 0};
		return true;
	case IR_MX_WMMA_I32_IU4: /* build_mma_i4.c */
		*r = (struct matrix_row){AMD_OP_V_WMMA_I32_16X16X16_IU4, 2, 2, 8, true, 0};
		return true;
	case IR_MX_F64_M8N8K4: /* sel_mma_ext.c */
		return false;
	}
	return false;
}

/* The VGPR tuple of `width` dwords an MTUP (copied into a new tuple) or a MATRIX (its own
 * result, e.g. the accumulator of the previous instruction) gives. */
static struct mir_opnd tuple_opnd(struct isel *s, ir_ref r, unsigned width)
{
	const struct ir_insn *def = s->def[r];
	if (def && def->op == IR_MATRIX && s->vals[r].loc == LOC_VGPR && s->vals[r].size == width)
		return mir_vreg(s->vals[r].vreg, width);
	uint32_t v = sel_new_vgpr(s, width);
	const struct ir_insn *part[4] = {def};
	unsigned nparts = 1, at = 0;
	if (def && def->op == IR_MTUP && def->aux == 1) { /* a tuple of tuples */
		nparts = def->nargs;
		for (unsigned p = 0; p < nparts; p++)
			part[p] = s->def[def->args[p]];
	}
	for (unsigned p = 0; p < nparts; p++) {
		if (!part[p] || part[p]->op != IR_MTUP || part[p]->aux != 0 ||
		    at + part[p]->nargs > width)
			break;
		for (unsigned i = 0; i < part[p]->nargs; i++)
			sel_copy(s, sel_sub(v, at++, 1), sel_vsrc_opnd(s, part[p]->args[i], 0));
	}
	if (at != width)
		sel_error(s, "internal: a matrix operand that is not a tuple of %u registers",
		          width);
	return mir_vreg(v, width);
}

static bool matrix(struct isel *s, const struct ir_insn *in)
{
	struct matrix_row r;
	if (!matrix_row((enum ir_matrix_op)(in->aux & 0xff), &r)) {
		sel_error(s, "internal: matrix instruction %u", in->aux);
		return true;
	}
	struct mir_opnd ops[4] = {
	        mir_vreg(sel_new_vgpr(s, r.n), r.n), tuple_opnd(s, in->args[0], r.na),
	        tuple_opnd(s, in->args[1], r.nb), tuple_opnd(s, in->args[2], r.n)};
	uint32_t saved = 0;
	if (r.full_exec) { /* the lanes outside EXEC compute garbage nobody reads */
		saved = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd on[2] = {mir_vreg(saved, s->mask_dw), mir_imm(0xffffffffu)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_OR_SAVEEXEC_B32, AMD_OP_S_OR_SAVEEXEC_B64), 2,
		         on);
	}
	sel_emit(s, r.op, 4, ops)->neg = (uint8_t)(r.neg | (in->aux >> 8 & 3));
	if (r.full_exec) {
		struct mir_opnd back[2] = {sel_exec(s), mir_vreg(saved, s->mask_dw)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, back);
	}
	s->vals[in->res] =
	        (struct sel_val){.loc = LOC_VGPR, .size = (uint8_t)r.n, .vreg = ops[0].v};
	return true;
}

static bool tuple_get(struct isel *s, const struct ir_insn *in)
{
	const struct sel_val *t = &s->vals[in->args[0]];
	if (t->loc != LOC_VGPR || in->aux >= t->size) {
		sel_error(s, "internal: mtup.get of a value that is not a matrix result");
		return true;
	}
	uint32_t d = sel_def(s, in->res);
	sel_copy(s, mir_vreg(d, 1), sel_sub(t->vreg, in->aux, 1));
	return true;
}

/* ds_bpermute with the byte address computed by the builder; a value the same in every
 * lane is that value. */
static bool mperm(struct isel *s, const struct ir_insn *in)
{
	uint32_t d = sel_def(s, in->res);
	if (!s->ir->vals[in->args[0]].divergent || s->vals[in->res].loc != LOC_VGPR) {
		sel_copy(s, mir_vreg(d, 1), sel_vsrc_opnd(s, in->args[0], 0));
		return true;
	}
	struct mir_opnd ops[3] = {mir_vreg(d, 1), sel_vgpr_opnd(s, in->args[1], 0),
	                          sel_vgpr_opnd(s, in->args[0], 0)};
	sel_emit(s, AMD_OP_DS_BPERMUTE_B32, 3, ops);
	return true;
}

/* The packed dot products of the portable lowering: DOT2_F16, DOT4_I8. */
static bool packed_dot(struct isel *s, const struct ir_insn *in)
{
	unsigned op = AMD_OP_V_DOT2_F32_F16, neg = 0;
	if (in->op == IR_DOT4_I8) {
		if (s->gen >= AMD_GFX11)
			op = AMD_OP_V_DOT4_I32_IU8, neg = in->aux & 3;
		else if (in->aux == 3)
			op = AMD_OP_V_DOT4_I32_I8;
		else if (in->aux == 0)
			op = AMD_OP_V_DOT4_U32_U8;
		else {
			sel_error(s, "internal: dot4 of mixed signedness before gfx11");
			return true;
		}
	}
	uint32_t d = sel_def(s, in->res);
	bool vgpr = s->vals[in->res].loc == LOC_VGPR; /* else uniform: through a VGPR */
	uint32_t t = vgpr ? d : sel_new_vgpr(s, 1);
	struct mir_opnd ops[4] = {mir_vreg(t, 1), sel_vsrc_opnd(s, in->args[0], 0),
	                          sel_vsrc_opnd(s, in->args[1], 0),
	                          sel_vsrc_opnd(s, in->args[2], 0)};
	sel_fix_valu(s, op, 4, ops);
	sel_emit(s, op, 4, ops)->neg = (uint8_t)neg;
	if (!vgpr) {
		struct mir_opnd rf[2] = {mir_vreg(d, 1), mir_vreg(t, 1)};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	}
	return true;
}

bool sel_mma(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_MTUP: /* read by MATRIX only */
		return true;
	case IR_MATRIX:
		return matrix(s, in);
	case IR_MTUP_GET:
		return tuple_get(s, in);
	case IR_MPERM:
		return mperm(s, in);
	case IR_DOT2_F16:
	case IR_DOT4_I8:
		return packed_dot(s, in);
	default:
		return false;
	}
}
