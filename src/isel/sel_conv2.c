/* Instruction selection for the IR operations of build_conv2.c: none yet. */
#include "isel/isel_int.h"

bool sel_conv2(struct isel *s, const struct ir_insn *in)
{
	(void)s;
	(void)in;
	return false;
}
