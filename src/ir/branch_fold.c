/* ir_fold_const_branches: a BR on a constant predicate becomes a JMP to the successor it
 * takes, and the blocks no edge reaches any more are emptied.
 *
 * What it is for: ir_value_ranges decides compares that the operands' ranges settle (nvcc's
 * guards around an unroll-by-4 loop whose trip count the ranges bound: stencil2d's copy loop
 * runs at most twice, so its `count == 0` skip and its unrolled loop's `t <u 768` guard are
 * constants).  Left as branches, the selector keeps the never-run loop: its code, its EXEC
 * bookkeeping, and the registers the allocator gives its values.
 * Rule: a BR whose operand is a constant predicate (bit 0 the value) with two distinct
 * successors becomes a JMP to succs[0] (true) or succs[1] (false); the other successor loses
 * the predecessor and each of its phis the operand of that edge.  Then, with the CFG
 * recomputed, every block no longer reachable is detached (removed from its reachable
 * successors' predecessors and phis) and emptied to a lone RET without predecessors (the
 * verifier wants a terminator; no pass visits an unreachable block's code).  Values defined
 * there had uses only there or on the removed edges (SSA: a definition dominates its uses).
 * requires: nothing.  breaks: the CFG analyses, recomputed here (ir_cfg_compute) when
 * anything changed; ir_optimize should run again (phis left with one operand).
 * Complexity: O(blocks + edges x phis). */
#include <string.h>

#include "ir/ir.h"

/* Removes the edge from p out of block s's predecessor list and s's phis (first match). */
static void drop_pred(struct ir_function *fn, uint32_t s, uint32_t p)
{
	struct ir_block *sb = &fn->blocks[s];
	uint32_t k = 0;
	while (k < sb->npreds && sb->preds[k] != p)
		k++;
	if (k == sb->npreds)
		return;
	uint32_t tail = sb->npreds - k - 1;
	memmove(&sb->preds[k], &sb->preds[k + 1], tail * sizeof *sb->preds);
	for (uint32_t i = 0; i < sb->ninsns && sb->insns[i].op == IR_PHI; i++)
		memmove(&sb->insns[i].phi_args[k], &sb->insns[i].phi_args[k + 1],
		        tail * sizeof(ir_ref));
	sb->npreds--;
}

/* Block b's BR on a constant, made a JMP; false when b does not end in one. */
static bool fold_one(struct ir_function *fn, uint32_t b)
{
	struct ir_block *bl = &fn->blocks[b];
	if (bl->ninsns == 0 || bl->nsuccs != 2 || bl->succs[0] == bl->succs[1])
		return false;
	struct ir_insn *t = &bl->insns[bl->ninsns - 1];
	if (t->op != IR_BR || t->nargs != 1 || fn->vals[t->args[0]].kind != IR_VAL_CONST ||
	    fn->vals[t->args[0]].type != IR_T_PRED)
		return false;
	unsigned taken = (fn->vals[t->args[0]].bits & 1) ? 0 : 1;
	drop_pred(fn, bl->succs[1 - taken], b);
	bl->succs[0] = bl->succs[taken];
	bl->nsuccs = 1;
	t->op = IR_JMP;
	t->nargs = 0;
	t->args[0] = IR_NO_REF;
	return true;
}

/* An unreachable block detached from its successors and emptied to a lone RET. */
static void empty_block(struct ir_function *fn, uint32_t b)
{
	struct ir_block *bl = &fn->blocks[b];
	for (uint32_t k = 0; k < bl->nsuccs; k++)
		if (bl->succs[k] != b && fn->blocks[bl->succs[k]].reachable)
			drop_pred(fn, bl->succs[k], b);
	struct ir_insn ret = {.op = IR_RET, .res = IR_NO_REF};
	if (bl->ninsns) {
		ret.line = bl->insns[bl->ninsns - 1].line;
		ret.col = bl->insns[bl->ninsns - 1].col;
	}
	bl->insns[0] = ret;
	bl->ninsns = 1;
	bl->nsuccs = 0;
	bl->npreds = 0;
}

unsigned ir_fold_const_branches(struct ir_function *fn)
{
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		n += fold_one(fn, b);
	if (n == 0)
		return 0;
	fn->cfg_valid = false;
	ir_cfg_compute(fn, NULL);
	bool emptied = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (!fn->blocks[b].reachable &&
		    (fn->blocks[b].nsuccs || fn->blocks[b].npreds || fn->blocks[b].ninsns != 1)) {
			empty_block(fn, b);
			emptied = true;
		}
	if (emptied) {
		fn->cfg_valid = false;
		ir_cfg_compute(fn, NULL);
	}
	return n;
}
