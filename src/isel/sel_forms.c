/* Instruction selection for the IR operations build_forms.c adds: FCLASS (testp) becomes
 * v_cmp_class_f32/f64, whose mask bits are FCLASS's.  A divergent result is the lane mask
 * itself; a uniform one (LOC_BOOL) is that mask tested against zero, as fcmp does.  O(1) per
 * operation. */
#include "isel/isel_int.h"

static bool fclass(struct isel *s, const struct ir_insn *in)
{
	bool wide = s->ir->vals[in->args[0]].type == IR_T_F64;
	unsigned op = wide ? AMD_OP_V_CMP_CLASS_F64 : AMD_OP_V_CMP_CLASS_F32;
	uint32_t d = sel_def(s, in->res);
	bool mask_res = s->vals[in->res].loc == LOC_MASK;
	uint32_t m = mask_res ? d : sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd ops[3] = {mir_vreg(m, s->mask_dw),
	                          sel_vsrc_opnd(s, in->args[0], wide ? 2 : 0),
	                          sel_vsrc_opnd(s, in->args[1], 0)};
	sel_fix_valu(s, op, 3, ops);
	sel_emit(s, op, 3, ops);
	if (mask_res)
		return true;
	struct mir_opnd cmp[2] = {mir_vreg(m, s->mask_dw), mir_imm(0)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64), 2, cmp);
	struct mir_opnd sel[3] = {mir_vreg(d, 1), mir_imm(1), mir_imm(0)};
	sel_emit(s, AMD_OP_S_CSELECT_B32, 3, sel);
	return true;
}

bool sel_forms(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_FCLASS:
		return fclass(s, in);
	default:
		return false;
	}
}
