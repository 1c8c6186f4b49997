/* Instruction selection for the IR operations of build_sys.c: TRAP (s_trap after every
 * counter drained, so that the stores before it, an assertion's printf record among them,
 * are done when the trap handler stops the dispatch) and SLEEP (s_sleep).
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
	default:
		return false;
	}
}
