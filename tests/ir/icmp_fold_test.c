/* ir_optimize's folding of integer compares of two constants (src/ir/opt.c fold_icmp), suite
 * 'ir': for every predicate (eq ne lt le gt ge ltu leu gtu geu), i32 and i64, and every pair
 * of edge values (INT_MIN, -1, 0, 1, 5, INT_MAX, and at 64 bits also 2^32 and 0xffffffff,
 * which differ from their 32-bit truncations), a hand-built function
 *   bb0: c = icmp.<pred> A, B; br c ? bb1 : bb2     bb1: ret     bb2: ret
 * goes through ir_optimize.  Checked: the branch's operand is then the predicate constant C's
 * own comparison of the same values gives (signed predicates on int32_t/int64_t, unsigned
 * ones on uint32_t/uint64_t), and a compare of a non-constant (%tid.x) is not folded. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

static const enum ir_cmp preds[] = {IR_CMP_EQ, IR_CMP_NE,  IR_CMP_LT,  IR_CMP_LE,  IR_CMP_GT,
                                    IR_CMP_GE, IR_CMP_LTU, IR_CMP_LEU, IR_CMP_GTU, IR_CMP_GEU};
static const char *const pred_names[] = {"eq", "ne",  "lt",  "le",  "gt",
                                         "ge", "ltu", "leu", "gtu", "geu"};

/* C's answer: signed on the width's signed type, unsigned on its unsigned type. */
static bool c_compare(enum ir_cmp p, int64_t sa, int64_t sb, uint64_t ua, uint64_t ub)
{
	switch (p) {
	case IR_CMP_EQ:
		return ua == ub;
	case IR_CMP_NE:
		return ua != ub;
	case IR_CMP_LT:
		return sa < sb;
	case IR_CMP_LE:
		return sa <= sb;
	case IR_CMP_GT:
		return sa > sb;
	case IR_CMP_GE:
		return sa >= sb;
	case IR_CMP_LTU:
		return ua < ub;
	case IR_CMP_LEU:
		return ua <= ub;
	case IR_CMP_GTU:
		return ua > ub;
	default:
		return ua >= ub;
	}
}

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static void append(struct ir_function *fn, uint32_t b, enum ir_op op, enum ir_type t, ir_ref res,
                   unsigned nargs, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_append(fn, b,
	          &(struct ir_insn){.op = (uint16_t)op,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)nargs,
	                            .aux = aux,
	                            .res = res,
	                            .args = {a, c}});
}

/* a: NULL for %tid.x.  Returns the branch's operand after ir_optimize; *bits its value when a
 * constant (false otherwise). */
static bool run(struct fx *f, enum ir_type t, const uint64_t *a, uint64_t b, enum ir_cmp p,
                uint64_t *bits)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	struct ir_function *fn = &f->fn;
	fn->arena = &f->arena;
	fn->name = "t";
	fn->wave_size = 32;
	for (unsigned k = 0; k < 3; k++)
		ir_new_block(fn);
	ir_ref x;
	if (a) {
		x = ir_const(fn, t, *a);
	} else {
		x = ir_new_value(fn, IR_T_I32, 0);
		append(fn, 0, IR_SREG, IR_T_I32, x, 0, 0, 0, IR_SREG_TID_X);
	}
	ir_ref c = ir_new_value(fn, IR_T_PRED, 0);
	append(fn, 0, IR_ICMP, IR_T_PRED, c, 2, x, ir_const(fn, t, b), p);
	append(fn, 0, IR_BR, IR_T_NONE, IR_NO_REF, 1, c, 0, 0);
	append(fn, 1, IR_RET, IR_T_NONE, IR_NO_REF, 0, 0, 0, 0);
	append(fn, 2, IR_RET, IR_T_NONE, IR_NO_REF, 0, 0, 0, 0);
	ir_add_edge(fn, 0, 1);
	ir_add_edge(fn, 0, 2);
	ir_optimize(fn);
	const struct ir_block *b0 = &fn->blocks[0];
	const struct ir_insn *br = &b0->insns[b0->ninsns - 1];
	if (br->op != IR_BR || fn->vals[br->args[0]].kind != IR_VAL_CONST)
		return false;
	*bits = fn->vals[br->args[0]].bits;
	return true;
}

static void check_pair(enum ir_type t, uint64_t a, uint64_t b)
{
	unsigned w = ir_type_bits(t);
	uint64_t ua = w == 32 ? (uint32_t)a : a, ub = w == 32 ? (uint32_t)b : b;
	int64_t sa = w == 32 ? (int32_t)(uint32_t)a : (int64_t)a;
	int64_t sb = w == 32 ? (int32_t)(uint32_t)b : (int64_t)b;
	for (unsigned k = 0; k < sizeof preds / sizeof *preds; k++) {
		struct fx f;
		uint64_t got;
		bool want = c_compare(preds[k], sa, sb, ua, ub);
		bool folded = run(&f, t, &ua, ub, preds[k], &got);
		CHECK(folded && got == (uint64_t)want, "i%u %s %#llx, %#llx: %s %llu, want %d", w,
		      pred_names[k], (unsigned long long)ua, (unsigned long long)ub,
		      folded ? "folded to" : "not folded", (unsigned long long)(folded ? got : 0),
		      want);
		pa_arena_free(&f.arena);
	}
}

int main(void)
{
	static const uint64_t v32[] = {(uint32_t)INT32_MIN, (uint32_t)-1, 0, 1, 5, INT32_MAX};
	static const uint64_t v64[] = {(uint64_t)INT64_MIN, (uint64_t)-1, 0, 1, 5, INT64_MAX,
	                               1ull << 32,          0xffffffffull};
	for (unsigned i = 0; i < sizeof v32 / sizeof *v32; i++)
		for (unsigned j = 0; j < sizeof v32 / sizeof *v32; j++)
			check_pair(IR_T_I32, v32[i], v32[j]);
	for (unsigned i = 0; i < sizeof v64 / sizeof *v64; i++)
		for (unsigned j = 0; j < sizeof v64 / sizeof *v64; j++)
			check_pair(IR_T_I64, v64[i], v64[j]);
	struct fx f;
	uint64_t got;
	CHECK(!run(&f, IR_T_I32, NULL, 7, IR_CMP_LT, &got), "tid.x < 7 folded to %llu",
	      (unsigned long long)got);
	pa_arena_free(&f.arena);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("icmp-fold: ok\n");
	return 0;
}
