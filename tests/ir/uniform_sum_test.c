/* Unit test of ir_split_uniform_sums (src/ir/opt_uniform_sum.c): one-block functions with
 * uniform parameters and divergent lane values (flags set as ir_uniformity would), the pass
 * run, every value of the function evaluated before and after on random inputs (edge values
 * included: sums wrap) and the sum's result compared, and the rewritten sum's operands
 * checked (one uniform, one divergent) or the function checked unchanged.
 *   1. p64 + ((u64 + sext(d)) << 2): rewritten (nvcc's row address);
 *   2. p32 + ((d + u) * 12) (operands the other way round): rewritten;
 *   3. p64 + (d + u): rewritten;
 *   4. the inner sum read twice: left alone (it would be computed twice);
 *   5. u a constant: left alone (the selector folds constants into offsets);
 *   6. a variable shift amount: left alone;
 *   7. every operand uniform: left alone (nothing divergent to split off);
 *   8. p64 + ((u64 + sext(d)) << 70): amounts >= 64 give 0 on both sides: rewritten;
 *   9. one offset (u + d) << 2 added to two bases (nvcc's input and output rows): both
 *      sums rewritten, the lane's part made once; with a third reader that is not such a
 *      sum: left alone;
 *  10. placement (bb0 -> bb1 -> bb2 -> bb3, bb2 a loop): two sums in bb1 and bb3 with the
 *      same p and u (defined in bb0) share one uniform base made at the end of bb0; a sum
 *      in bb3 whose u is defined in the loop gets its uniform part in bb3, not in the loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { NPARAMS = 4, TRIALS = 200 };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static void init(struct fx *f)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	ir_new_block(&f->fn);
}

static ir_ref op(struct fx *f, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c, bool div)
{
	ir_ref r = ir_new_value(&f->fn, t, 0);
	f->fn.vals[r].divergent = div;
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)(c == IR_NO_REF ? 1 : 2),
	                            .res = r,
	                            .args = {a, c}});
	return r;
}

/* parameter `index` (imm); divergent ones stand for lane values (a thread id). */
static ir_ref param(struct fx *f, enum ir_type t, int64_t index, bool div)
{
	ir_ref r = ir_new_value(&f->fn, t, 0);
	f->fn.vals[r].divergent = div;
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = IR_PARAM, .type = (uint8_t)t, .res = r, .imm = index});
	return r;
}

static void finish(struct fx *f)
{
	ir_append(&f->fn, 0, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
}

static uint64_t width(enum ir_type t, uint64_t v)
{
	return t == IR_T_I32 ? (uint32_t)v : v;
}

/* The value of `want` after running the block on the parameters. */
static uint64_t run(const struct fx *f, const uint64_t *params, ir_ref want)
{
	const struct ir_function *fn = &f->fn;
	uint64_t *v = calloc(fn->nvals, sizeof *v);
	for (ir_ref r = 0; r < fn->nvals; r++)
		if (fn->vals[r].kind == IR_VAL_CONST)
			v[r] = fn->vals[r].bits;
	const struct ir_block *bl = &fn->blocks[0];
	for (uint32_t k = 0; k < bl->ninsns; k++) {
		const struct ir_insn *in = &bl->insns[k];
		uint64_t a = in->nargs > 0 ? v[in->args[0]] : 0,
		         b = in->nargs > 1 ? v[in->args[1]] : 0;
		unsigned bits = in->type == IR_T_I32 ? 32 : 64;
		uint64_t x = 0;
		switch (in->op) {
		case IR_PARAM:
			x = params[in->imm];
			break;
		case IR_ADD:
			x = a + b;
			break;
		case IR_MUL:
			x = a * b;
			break;
		case IR_SHL:
			x = b >= bits ? 0 : a << b;
			break;
		case IR_SEXT:
			x = (uint64_t)(int64_t)(int32_t)a;
			break;
		default:
			continue;
		}
		v[in->res] = width((enum ir_type)in->type, x);
	}
	uint64_t out = v[want];
	free(v);
	return out;
}

static uint64_t random64(unsigned *seed)
{
	static const uint64_t edges[] = {0,
	                                 1,
	                                 0x7fffffff,
	                                 0x80000000,
	                                 0xffffffff,
	                                 0xffffffffffffffffull,
	                                 0x8000000000000000ull};
	*seed = *seed * 1103515245u + 12345u;
	if (*seed % 4 == 0)
		return edges[(*seed >> 8) % (sizeof edges / sizeof edges[0])];
	uint64_t hi = *seed;
	*seed = *seed * 1103515245u + 12345u;
	return hi << 32 ^ *seed;
}

static const struct ir_insn *def_of(const struct fx *f, ir_ref r)
{
	const struct ir_block *bl = &f->fn.blocks[0];
	for (uint32_t k = 0; k < bl->ninsns; k++)
		if (bl->insns[k].res == r)
			return &bl->insns[k];
	return NULL;
}

/* Runs the pass on the finished fixture: `expect` rewrites; the sum `sum` keeps its value on
 * random parameters; rewritten: one operand uniform and one divergent. */
static void check(struct fx *f, const char *name, ir_ref sum, unsigned expect)
{
	finish(f);
	uint64_t params[TRIALS][NPARAMS], before[TRIALS];
	unsigned seed = 7;
	for (int t = 0; t < TRIALS; t++) {
		for (int i = 0; i < NPARAMS; i++)
			params[t][i] = random64(&seed);
		before[t] = run(f, params[t], sum);
	}
	uint32_t ninsns = f->fn.blocks[0].ninsns;
	CHECK(ir_cfg_compute(&f->fn, NULL), "%s: cfg", name);
	unsigned got = ir_split_uniform_sums(&f->fn);
	CHECK(got == expect, "%s: %u sums rewritten, expected %u", name, got, expect);
	for (int t = 0; t < TRIALS; t++)
		CHECK(run(f, params[t], sum) == before[t], "%s: trial %d: value changed", name, t);
	const struct ir_insn *r = def_of(f, sum);
	if (expect == 0) {
		CHECK(f->fn.blocks[0].ninsns == ninsns, "%s: instructions added", name);
		return;
	}
	bool d0 = f->fn.vals[r->args[0]].divergent, d1 = f->fn.vals[r->args[1]].divergent;
	CHECK(d0 != d1, "%s: the sum's operands are not one uniform, one divergent", name);
	CHECK(f->fn.blocks[0].insns[f->fn.blocks[0].ninsns - 2].res == sum,
	      "%s: the sum moved (new operations go before it)", name);
}

/* p + ((u + sext(d)) << amount): the row address (i64). */
static void row_address(const char *name, uint64_t amount, unsigned expect)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0, false), u = param(&f, IR_T_I64, 1, false);
	ir_ref d = param(&f, IR_T_I32, 2, true);
	ir_ref dx = op(&f, IR_SEXT, IR_T_I64, d, IR_NO_REF, true);
	ir_ref q = op(&f, IR_ADD, IR_T_I64, u, dx, true);
	ir_ref x = op(&f, IR_SHL, IR_T_I64, q, ir_const(&f.fn, IR_T_I32, amount), true);
	ir_ref sum = op(&f, IR_ADD, IR_T_I64, p, x, true);
	check(&f, name, sum, expect);
	pa_arena_free(&f.arena);
}

static void scaled_i32(void)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I32, 0, false), u = param(&f, IR_T_I32, 1, false);
	ir_ref d = param(&f, IR_T_I32, 2, true);
	ir_ref q = op(&f, IR_ADD, IR_T_I32, d, u, true);
	ir_ref x = op(&f, IR_MUL, IR_T_I32, ir_const(&f.fn, IR_T_I32, 12), q, true);
	ir_ref sum = op(&f, IR_ADD, IR_T_I32, x, p, true);
	check(&f, "mul-i32", sum, 1);
	pa_arena_free(&f.arena);
}

static void plain(const char *name, bool twice, bool const_u, bool all_uniform, unsigned expect)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0, false);
	ir_ref u = const_u ? ir_const(&f.fn, IR_T_I64, 48) : param(&f, IR_T_I64, 1, false);
	ir_ref d = param(&f, IR_T_I64, 2, !all_uniform);
	ir_ref x = op(&f, IR_ADD, IR_T_I64, d, u, !all_uniform);
	ir_ref sum = op(&f, IR_ADD, IR_T_I64, p, x, !all_uniform);
	if (twice) /* a second reader of x */
		op(&f, IR_ADD, IR_T_I64, x, x, true);
	check(&f, name, sum, expect);
	pa_arena_free(&f.arena);
}

static void variable_amount(void)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0, false), u = param(&f, IR_T_I64, 1, false);
	ir_ref d = param(&f, IR_T_I64, 2, true), n = param(&f, IR_T_I32, 3, false);
	ir_ref q = op(&f, IR_ADD, IR_T_I64, u, d, true);
	ir_ref x = op(&f, IR_SHL, IR_T_I64, q, n, true);
	ir_ref sum = op(&f, IR_ADD, IR_T_I64, p, x, true);
	check(&f, "variable-amount", sum, 0);
	pa_arena_free(&f.arena);
}

/* Two sums p + x and p2 + x of x = (u + d) << 2, and (extra) a third reader of x. */
static void shared_offset(const char *name, bool extra, unsigned expect)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0, false), p2 = param(&f, IR_T_I64, 3, false);
	ir_ref u = param(&f, IR_T_I64, 1, false), d = param(&f, IR_T_I64, 2, true);
	ir_ref q = op(&f, IR_ADD, IR_T_I64, u, d, true);
	ir_ref x = op(&f, IR_SHL, IR_T_I64, q, ir_const(&f.fn, IR_T_I32, 2), true);
	ir_ref sum2 = op(&f, IR_ADD, IR_T_I64, x, p2, true);
	if (extra)
		op(&f, IR_MUL, IR_T_I64, x, x, true);
	ir_ref sum = op(&f, IR_ADD, IR_T_I64, p, x, true);
	finish(&f);
	uint64_t params[TRIALS][NPARAMS], before[TRIALS][2];
	unsigned seed = 11;
	for (int t = 0; t < TRIALS; t++) {
		for (int i = 0; i < NPARAMS; i++)
			params[t][i] = random64(&seed);
		before[t][0] = run(&f, params[t], sum);
		before[t][1] = run(&f, params[t], sum2);
	}
	CHECK(ir_cfg_compute(&f.fn, NULL), "%s: cfg", name);
	unsigned got = ir_split_uniform_sums(&f.fn);
	CHECK(got == expect, "%s: %u sums rewritten, expected %u", name, got, expect);
	for (int t = 0; t < TRIALS; t++)
		CHECK(run(&f, params[t], sum) == before[t][0] &&
		              run(&f, params[t], sum2) == before[t][1],
		      "%s: trial %d: value changed", name, t);
	unsigned lane_shifts = 0;
	for (uint32_t k = 0; k < f.fn.blocks[0].ninsns; k++) {
		const struct ir_insn *in = &f.fn.blocks[0].insns[k];
		lane_shifts += in->op == IR_SHL && in->args[0] == d;
	}
	CHECK(lane_shifts == (expect ? 1u : 0u), "%s: %u shifts of the lane value", name,
	      lane_shifts);
	pa_arena_free(&f.arena);
}

/* Appends to block b of f an instruction (as op(), any block). */
static ir_ref op_in(struct fx *f, uint32_t b, enum ir_op o, ir_ref a, ir_ref c, bool div)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I64, b);
	f->fn.vals[r].divergent = div;
	ir_append(
	        &f->fn, b,
	        &(struct ir_insn){
	                .op = (uint16_t)o, .type = IR_T_I64, .nargs = 2, .res = r, .args = {a, c}});
	return r;
}

/* p + ((u + d) << 2) in block b; returns the sum. */
static ir_ref row_in(struct fx *f, uint32_t b, ir_ref p, ir_ref u, ir_ref d)
{
	ir_ref q = op_in(f, b, IR_ADD, u, d, true);
	ir_ref x = op_in(f, b, IR_SHL, q, ir_const(&f->fn, IR_T_I32, 2), true);
	return op_in(f, b, IR_ADD, p, x, true);
}

/* The block and operation that define value r. */
static const struct ir_insn *find_def(const struct fx *f, ir_ref r, uint32_t *block)
{
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t k = 0; k < f->fn.blocks[b].ninsns; k++)
			if (f->fn.blocks[b].insns[k].res == r) {
				*block = b;
				return &f->fn.blocks[b].insns[k];
			}
	return NULL;
}

/* The uniform operand of the rewritten sum `sum` and the block defining it. */
static ir_ref uniform_part(const struct fx *f, ir_ref sum, uint32_t *block)
{
	uint32_t b;
	const struct ir_insn *in = find_def(f, sum, &b);
	ir_ref base = f->fn.vals[in->args[0]].divergent ? in->args[1] : in->args[0];
	find_def(f, base, block);
	return base;
}

static void placement(void)
{
	struct fx f;
	init(&f);
	for (int b = 1; b < 4; b++)
		ir_new_block(&f.fn);
	ir_ref p = param(&f, IR_T_I64, 0, false), u = param(&f, IR_T_I64, 1, false);
	ir_ref d = param(&f, IR_T_I64, 2, true);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_ref s1 = row_in(&f, 1, p, u, d);
	ir_append(&f.fn, 1, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	/* bb2: a loop, v = phi(u, v + 1) uniform, leaving when v == 0 */
	ir_ref v = ir_new_value(&f.fn, IR_T_I64, 2);
	ir_ref *a = PA_NEW_ARRAY(&f.arena, ir_ref, 2);
	a[0] = u;
	ir_append(&f.fn, 2,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I64, .res = v, .phi_args = a});
	a[1] = op_in(&f, 2, IR_ADD, v, ir_const(&f.fn, IR_T_I64, 1), false);
	ir_ref c = ir_new_value(&f.fn, IR_T_PRED, 2);
	ir_append(&f.fn, 2,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = c,
	                            .aux = IR_CMP_EQ,
	                            .args = {a[1], ir_const(&f.fn, IR_T_I64, 0)}});
	ir_append(&f.fn, 2,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {c}});
	ir_ref s2 = row_in(&f, 3, p, u, d), s3 = row_in(&f, 3, p, a[1], d);
	ir_append(&f.fn, 3, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	ir_add_edge(&f.fn, 0, 1);
	ir_add_edge(&f.fn, 1, 2);
	ir_add_edge(&f.fn, 2, 3); /* taken: leave */
	ir_add_edge(&f.fn, 2, 2);
	static uint32_t p1[] = {0}, p2[] = {1, 2}, p3[] = {2};
	f.fn.blocks[1].preds = p1;
	f.fn.blocks[1].npreds = 1;
	f.fn.blocks[2].preds = p2;
	f.fn.blocks[2].npreds = 2;
	f.fn.blocks[3].preds = p3;
	f.fn.blocks[3].npreds = 1;
	CHECK(ir_cfg_compute(&f.fn, NULL), "placement: cfg");
	unsigned got = ir_split_uniform_sums(&f.fn);
	CHECK(got == 3, "placement: %u sums rewritten, expected 3", got);
	uint32_t b1, b2, b3;
	ir_ref base1 = uniform_part(&f, s1, &b1), base2 = uniform_part(&f, s2, &b2);
	uniform_part(&f, s3, &b3);
	CHECK(base1 == base2 && b1 == 0, "placement: the shared base is not one value in bb0");
	CHECK(b3 == 3, "placement: the base of a loop value is in bb%u, not bb3", b3);
	pa_arena_free(&f.arena);
}

int main(void)
{
	row_address("row-address", 2, 1);
	scaled_i32();
	plain("plain-sum", false, false, false, 1);
	plain("read-twice", true, false, false, 0);
	plain("constant-u", false, true, false, 0);
	variable_amount();
	plain("all-uniform", false, false, true, 0);
	row_address("shift-70", 70, 1);
	shared_offset("shared-offset", false, 2);
	shared_offset("shared-offset-other-reader", true, 0);
	placement();
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("uniform-sum: ok\n");
	return 0;
}
