/* cp.async, mbarrier and the cluster-of-one forms: placeholder. */
#include "build_int.h"

bool irb_async(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	(void)b;
	(void)in;
	(void)guard;
	return false;
}
