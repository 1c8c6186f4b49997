/* ir_verify: the IR's invariants, run between passes in tests and with --verify.
 * Checks: every block ends with exactly one terminator whose successor count matches;
 * phis come first and have one operand per predecessor; operands are defined values of
 * the right kind; with a valid CFG analysis, every definition dominates its uses (a phi
 * operand: the end of the corresponding predecessor) and each value is defined once.
 * The first violation is reported naming the function, block and instruction.
 * Complexity: O(instructions * dominator depth). */
#include "ir/ir.h"

static bool fail(struct pa_diag *d, const struct ir_function *fn, uint32_t b, uint32_t i,
                 const char *what)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "internal: IR of '%s' invalid at bb%u instruction %u (%s): %s", fn->name, b,
	               i, i < fn->blocks[b].ninsns ? ir_ops[fn->blocks[b].insns[i].op].name : "-",
	               what);
	return false;
}

static bool check_use(const struct ir_function *fn, ir_ref r, uint32_t at_block)
{
	if (r >= fn->nvals)
		return false;
	const struct ir_value *v = &fn->vals[r];
	if (v->kind != IR_VAL_INSN || !fn->cfg_valid)
		return true;
	return !fn->blocks[at_block].reachable || ir_dominates(fn, v->block, at_block);
}

bool ir_verify(const struct ir_function *fn, struct pa_diag *d)
{
	/* position of each value's definition inside its block */
	uint32_t *pos = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nvals + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			ir_ref r = fn->blocks[b].insns[i].res;
			if (r != IR_NO_REF && r < fn->nvals)
				pos[r] = i;
		}
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->ninsns)
			return fail(d, fn, b, 0, "empty block");
		const struct ir_insn *t = &bl->insns[bl->ninsns - 1];
		unsigned want = t->op == IR_BR ? 2 : t->op == IR_JMP ? 1 : t->op == IR_RET ? 0 : 9;
		if (want == 9)
			return fail(d, fn, b, bl->ninsns - 1,
			            "block does not end with a terminator");
		if (bl->nsuccs != want)
			return fail(d, fn, b, bl->ninsns - 1, "successor count");
		bool phis = true;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op >= IR_NUM_OPS)
				return fail(d, fn, b, i, "bad opcode");
			if ((ir_ops[in->op].flags & IR_OPF_TERM) && i + 1 != bl->ninsns)
				return fail(d, fn, b, i, "terminator inside the block");
			if (in->op == IR_PHI) {
				if (!phis)
					return fail(d, fn, b, i, "phi after other instructions");
				for (uint32_t p = 0; p < bl->npreds; p++)
					if (!check_use(fn, in->phi_args[p], bl->preds[p]))
						return fail(
						        d, fn, b, i,
						        "phi operand does not dominate its edge");
			} else {
				phis = false;
				if (ir_ops[in->op].nargs >= 0 && in->nargs != ir_ops[in->op].nargs)
					return fail(d, fn, b, i, "operand count");
				for (uint32_t k = 0; k < in->nargs; k++) {
					if (!check_use(fn, in->args[k], b))
						return fail(d, fn, b, i,
						            "operand not defined before its use");
					const struct ir_value *v = &fn->vals[in->args[k]];
					if (v->kind == IR_VAL_INSN && v->block == b &&
					    pos[in->args[k]] >= i &&
					    (!fn->cfg_valid || bl->reachable))
						return fail(d, fn, b, i,
						            "operand used before its definition");
				}
			}
			if ((in->res == IR_NO_REF) != ((ir_ops[in->op].flags & IR_OPF_NORES) != 0))
				return fail(d, fn, b, i, "result presence");
			if (in->res != IR_NO_REF && fn->vals[in->res].block != b)
				return fail(d, fn, b, i, "result's block");
		}
	}
	return true;
}
