/* Tests only: whether a MIR pass left a function exactly as the test built it (same blocks,
 * and in each the same instructions with the same operands). */
#ifndef TESTS_REGALLOC_MIR_SAME_H
#define TESTS_REGALLOC_MIR_SAME_H

#include <stdbool.h>
#include <string.h>

#include "mir/mir.h"

static inline bool mir_same_as_built(const struct mir_function *fn, const struct mir_function *ref)
{
	if (fn->nblocks != ref->nblocks)
		return false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		if (fn->blocks[b].ninsns != ref->blocks[b].ninsns)
			return false;
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *x = &fn->blocks[b].insns[i],
			                      *y = &ref->blocks[b].insns[i];
			if (x->op != y->op || x->nopnds != y->nopnds ||
			    memcmp(x->opnds, y->opnds, x->nopnds * sizeof x->opnds[0]))
				return false;
		}
	}
	return true;
}

#endif
