/* Instruction selection for the IR operations of build_sys.c: TRAP (s_trap after every
 * counter drained, so that the stores before it, an assertion's printf record among them,
 * are done when the trap handler stops the dispatch), SLEEP (s_sleep), and UNUSABLE (an
 * error: a used value PTX gives no meaning).
 * requires: nothing beyond the selector's state.  Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

bool sel_sys(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd imm = mir_imm((uint32_t)in->imm);
	switch (in->op) {
	case IR_TRAP:
		sel_waitcnt_all(s);
		sel_emit(s, AMD_OP_S_TRAP, 1, &imm);
		return true;
	case IR_SLEEP:
		sel_emit(s, AMD_OP_S_SLEEP, 1, &imm);
		return true;
	case IR_UNUSABLE:
		sel_error(
		        s,
		        "a constant added to a %s register is not supported: the PTX ISA gives it "
		        "no meaning, and NVIDIA's ptxas fails on it too once the value is used",
		        ir_type_name((enum ir_type)in->type));
		return true;
	default:
		return false;
	}
}
