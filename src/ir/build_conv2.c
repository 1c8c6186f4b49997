/* fp8/tf32 conversions, .relu/.satfinite f16 conversions, f16 ex2: placeholder. */
#include "build_int.h"

bool irb_conv2(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	(void)b;
	(void)in;
	(void)guard;
	return false;
}
