/* Unit test of ir_fold_sub_chains (src/ir/opt_sub_chain.c): small hand-built functions, the
 * pass run, what was rewritten checked, and the values compared before and after on random
 * (and wrapping) inputs by a small interpreter.
 *   1. t = (x - a) - b after s = a + b in the same block: t = x - s;
 *   2. the same with s = b + a (operands the other way round): rewritten;
 *   3. s = a + b after t: left alone (s is not computed yet);
 *   4. s in bb1, t in bb0 (bb0 -> bb1): left alone (s does not dominate t);
 *   5. s = a + c (another operand): left alone. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { TRIALS = 100, NPARAMS = 4 };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static ir_ref op(struct fx *f, uint32_t b, enum ir_op o, ir_ref a, ir_ref c)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, b);
	ir_append(
	        &f->fn, b,
	        &(struct ir_insn){
	                .op = (uint16_t)o, .type = IR_T_I32, .nargs = 2, .res = r, .args = {a, c}});
	return r;
}

static ir_ref param(struct fx *f, int64_t index)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = r, .imm = index});
	return r;
}

/* The value of `want` after running the blocks in order (straight-line code). */
static uint32_t run(const struct fx *f, const uint32_t *params, ir_ref want)
{
	uint32_t v[64] = {0};
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t k = 0; k < f->fn.blocks[b].ninsns; k++) {
			const struct ir_insn *in = &f->fn.blocks[b].insns[k];
			if (in->op == IR_PARAM)
				v[in->res] = params[in->imm];
			else if (in->op == IR_ADD)
				v[in->res] = v[in->args[0]] + v[in->args[1]];
			else if (in->op == IR_SUB)
				v[in->res] = v[in->args[0]] - v[in->args[1]];
		}
	return v[want];
}

/* kind: 1..5 as in the header. */
static void one(int kind)
{
	struct fx f;
	memset(&f, 0, sizeof f);
	pa_arena_init(&f.arena);
	f.fn.arena = &f.arena;
	f.fn.name = "t";
	ir_new_block(&f.fn);
	ir_new_block(&f.fn);
	ir_ref x = param(&f, 0), a = param(&f, 1), b = param(&f, 2), c = param(&f, 3);
	ir_ref s = IR_NO_REF;
	if (kind == 1 || kind == 5)
		s = op(&f, 0, IR_ADD, a, kind == 5 ? c : b);
	else if (kind == 2)
		s = op(&f, 0, IR_ADD, b, a);
	ir_ref s1 = op(&f, 0, IR_SUB, x, a), t = op(&f, 0, IR_SUB, s1, b);
	if (kind == 3)
		s = op(&f, 0, IR_ADD, a, b);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	if (kind == 4)
		s = op(&f, 1, IR_ADD, a, b);
	ir_append(&f.fn, 1, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	ir_add_edge(&f.fn, 0, 1);
	static uint32_t preds[] = {0};
	f.fn.blocks[1].preds = preds;
	f.fn.blocks[1].npreds = 1;
	uint32_t params[TRIALS][NPARAMS], before[TRIALS], seed = 3;
	for (int i = 0; i < TRIALS; i++) {
		for (int p = 0; p < NPARAMS; p++) {
			seed = seed * 1103515245u + 12345u;
			params[i][p] = i % 3 ? seed : 0xffffffffu - (uint32_t)p;
		}
		before[i] = run(&f, params[i], t);
	}
	CHECK(ir_cfg_compute(&f.fn, NULL), "case %d: cfg", kind);
	unsigned got = ir_fold_sub_chains(&f.fn);
	unsigned expect = kind <= 2;
	CHECK(got == expect, "case %d: %u rewritten, expected %u", kind, got, expect);
	const struct ir_insn *ti = NULL;
	for (uint32_t k = 0; k < f.fn.blocks[0].ninsns; k++)
		if (f.fn.blocks[0].insns[k].res == t)
			ti = &f.fn.blocks[0].insns[k];
	if (expect)
		CHECK(ti->args[0] == x && ti->args[1] == s, "case %d: t is not x - s", kind);
	else
		CHECK(ti->args[0] == s1 && ti->args[1] == b, "case %d: t changed", kind);
	for (int i = 0; i < TRIALS; i++)
		CHECK(run(&f, params[i], t) == before[i], "case %d trial %d: value changed", kind,
		      i);
	pa_arena_free(&f.arena);
}

int main(void)
{
	for (int kind = 1; kind <= 5; kind++)
		one(kind);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("sub-chain: ok\n");
	return 0;
}
