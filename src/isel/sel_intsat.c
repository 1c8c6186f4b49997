/* Instruction selection for the IR operations of build_intsat.c: none yet. */
#include "isel/isel_int.h"

bool sel_intsat(struct isel *s, const struct ir_insn *in)
{
	(void)s;
	(void)in;
	return false;
}
