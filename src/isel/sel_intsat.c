/* Instruction selection for the IR operations of build_intsat.c: add/sub.sat.s32 as
 * v_add_i32/v_sub_i32 (v_add_nc_i32/v_sub_nc_i32 on gfx10+) with the clamp bit, which
 * saturates the signed 32-bit result; the packed 16-bit lanes of add/min/max .s16x2/.u16x2 as
 * v_pk_add_u16 and v_pk_min/max_i16/u16 (VOP3P, both lanes from their own halves: op_sel 0,
 * op_sel_hi 1).  A constant operand other than 0 goes through a VGPR, so that no inline
 * constant or literal meets the packed lanes.  There are no scalar forms: a uniform result is
 * computed by the vector unit and read back with v_readfirstlane_b32.  O(1) per instruction. */
#include "isel/isel_int.h"

/* d = op(a, b) on the vector unit into the home of in->res */
static void valu2(struct isel *s, const struct ir_insn *in, unsigned op, bool clamp)
{
	struct mir_opnd d = mir_vreg(sel_new_vgpr(s, 1), 1);
	struct mir_opnd ops[3] = {d};
	for (unsigned i = 0; i < 2; i++) {
		uint64_t bits;
		bool packed = amd_isa_rows[op].format == AMD_FMT_VOP3P;
		ops[1 + i] = packed && sel_is_const(s, in->args[i], &bits) && bits
		                     ? sel_vgpr_opnd(s, in->args[i], 0)
		                     : sel_vsrc_opnd(s, in->args[i], 0);
	}
	sel_fix_valu(s, op, 3, ops);
	sel_emit(s, op, 3, ops)->clamp = clamp;
	struct mir_opnd res = sel_sub(sel_def(s, in->res), 0, 1);
	if (s->vals[in->res].loc == LOC_SGPR) {
		struct mir_opnd rf[2] = {res, d};
		sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, rf);
	} else {
		sel_copy(s, res, d);
	}
}

bool sel_intsat(struct isel *s, const struct ir_insn *in)
{
	static const struct {
		enum ir_op ir;
		unsigned amd;
		bool clamp;
	} map[] = {
	        {IR_ADD_SAT_S, AMD_OP_V_ADD_I32, true},
	        {IR_SUB_SAT_S, AMD_OP_V_SUB_I32, true},
	        {IR_PK_ADD16, AMD_OP_V_PK_ADD_U16, false},
	        {IR_PK_MIN_S16, AMD_OP_V_PK_MIN_I16, false},
	        {IR_PK_MIN_U16, AMD_OP_V_PK_MIN_U16, false},
	        {IR_PK_MAX_S16, AMD_OP_V_PK_MAX_I16, false},
	        {IR_PK_MAX_U16, AMD_OP_V_PK_MAX_U16, false},
	};
	for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].ir == in->op) {
			valu2(s, in, map[i].amd, map[i].clamp);
			return true;
		}
	return false;
}
