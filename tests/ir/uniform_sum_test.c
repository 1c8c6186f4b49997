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
 *   8. p64 + ((u64 + sext(d)) << 70): amounts >= 64 give 0 on both sides: rewritten. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static unsigned failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

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
		uint64_t a = in->nargs > 0 ? v[in->args[0]] : 0, b = in->nargs > 1 ? v[in->args[1]] : 0;
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
	static const uint64_t edges[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff,
	                                 0xffffffffffffffffull, 0x8000000000000000ull};
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
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("uniform-sum: ok\n");
	return 0;
}
