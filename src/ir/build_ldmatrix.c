/* ldmatrix, stmatrix and movmatrix: not built yet (issue 18). */
#include "build_int.h"

void irb_matrix_move(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	(void)guard;
	irb_unsupported(b, in, "tensor-core matrix moves (ldmatrix, stmatrix, movmatrix)");
}
