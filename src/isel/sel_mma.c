/* Instruction selection for the IR operations of matrix operations (build_mma.c, build_ldmatrix.c):
 * none yet. */
#include "isel/isel_int.h"

bool sel_mma(struct isel *s, const struct ir_insn *in)
{
	(void)s;
	(void)in;
	return false;
}
