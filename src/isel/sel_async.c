/* Instruction selection for the IR operations of build_async.c and build_mbar.c:
 * ASYNC_SLEEP is s_sleep 1 (64 clocks; amdsim ends the wave's turn there). */
#include "isel/isel_int.h"

bool sel_async(struct isel *s, const struct ir_insn *in)
{
	if (in->op != IR_ASYNC_SLEEP)
		return false;
	struct mir_opnd one = mir_imm(1);
	sel_emit(s, AMD_OP_S_SLEEP, 1, &one);
	return true;
}
