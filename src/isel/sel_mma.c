/* Instruction selection for the IR operations of matrix operations (build_mma_mfma.c):
 * MTUP tuples become the VGPR tuples MATRIX's instruction reads, MATRIX one MFMA, MTUP_GET a
 * copy of one dword of its result, MPERM a ds_bpermute (docs/TENSOR.md, "The matrix units"). */
#include "isel/isel_int.h"

struct matrix_row {
	unsigned op;        /* table row */
	unsigned na, nb, n; /* dwords of A, B and C/D */
};

static bool matrix_row(enum ir_matrix_op op, struct matrix_row *r)
{
	switch (op) {
	case IR_MX_F32_4X4X4_F16:
		*r = (struct matrix_row){AMD_OP_V_MFMA_F32_4X4X4F16, 2, 2, 4};
		return true;
	case IR_MX_F32_4X4X4_BF16:
		*r = (struct matrix_row){AMD_OP_V_MFMA_F32_4X4X4BF16_1K, 2, 2, 4};
		return true;
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
	if (!def || def->op != IR_MTUP || def->nargs != width) {
		sel_error(s, "internal: a matrix operand that is not a tuple of %u registers",
		          width);
		return mir_vreg(v, width);
	}
	for (unsigned i = 0; i < width; i++)
		sel_copy(s, sel_sub(v, i, 1), sel_vsrc_opnd(s, def->args[i], 0));
	return mir_vreg(v, width);
}

static bool matrix(struct isel *s, const struct ir_insn *in)
{
	struct matrix_row r;
	if (!matrix_row((enum ir_matrix_op)in->aux, &r)) {
		sel_error(s, "internal: matrix instruction %u", in->aux);
		return true;
	}
	struct mir_opnd ops[4] = {
	        mir_vreg(sel_new_vgpr(s, r.n), r.n), tuple_opnd(s, in->args[0], r.na),
	        tuple_opnd(s, in->args[1], r.nb), tuple_opnd(s, in->args[2], r.n)};
	sel_emit(s, r.op, 4, ops);
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
	default:
		return false;
	}
}
