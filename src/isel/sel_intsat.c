/* Instruction selection for the IR operations of build_intsat.c: add/sub.sat.s32 as
 * v_add_i32/v_sub_i32 (v_add_nc_i32/v_sub_nc_i32 on gfx10+) with the clamp bit, which
 * saturates the signed 32-bit result.  There is no scalar form with clamp: a uniform result is
 * computed by the vector unit and read back with v_readfirstlane_b32.  O(1) per instruction. */
#include "isel/isel_int.h"

static bool add_sat(struct isel *s, const struct ir_insn *in, unsigned op)
{
	struct mir_opnd d = mir_vreg(sel_new_vgpr(s, 1), 1);
	struct mir_opnd ops[3] = {d, sel_vsrc_opnd(s, in->args[0], 0),
	                          sel_vsrc_opnd(s, in->args[1], 0)};
	sel_fix_valu(s, op, 3, ops);
	sel_emit(s, op, 3, ops)->clamp = true;
	struct mir_opnd res = sel_sub(sel_def(s, in->res), 0, 1);
	if (s->vals[in->res].loc == LOC_SGPR) {
		struct mir_opnd rf[2] = {res, d};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	} else {
		sel_copy(s, res, d);
	}
	return true;
}

bool sel_intsat(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_ADD_SAT_S:
		return add_sat(s, in, AMD_OP_V_ADD_I32);
	case IR_SUB_SAT_S:
		return add_sat(s, in, AMD_OP_V_SUB_I32);
	default:
		return false;
	}
}
