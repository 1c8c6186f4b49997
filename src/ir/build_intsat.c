/* Integer saturation, SIMD16x2 integer forms, set, video instructions: placeholder. */
#include "build_int.h"

bool irb_intsat(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	(void)b;
	(void)in;
	(void)guard;
	return false;
}
