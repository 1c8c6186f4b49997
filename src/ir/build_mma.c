/* mma.sync and wmma.load/mma/store: not built yet (issue 18). */
#include "build_int.h"

void irb_mma(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	(void)guard;
	irb_unsupported(b, in, "tensor-core matrix operations (wmma, mma)");
}
