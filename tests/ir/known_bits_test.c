/* Unit test of ir_fold_known_bits (src/ir/known_bits.c) alone on hand-built expressions of
 * two parameters a, b (i32) whose value r is checked, for 200 random and edge inputs, against
 * the same expression computed in C, before and after the pass, and what was rewritten:
 *   1. nvcc's bfi.b64 of two words at 32, 32: (zext a << 32 & 0xffffffff00000000) |
 *      (zext b & 0xffffffff): both ANDs become their operand (C: (u64)a << 32 | b);
 *   2. zext a & 0xffffffff00000000: 0 (no possibly-set bit in common);
 *   3. (a >> 24) & 0xff: a >> 24;   4. (a << 4) & 0xfffffff0: a << 4;
 *   5. a | ((b << 8) & 0xff): the AND is 0, then the OR is a (two rewrites);
 *   6. ((u64)b << 40 >> 8) & 0xffffffff00000000 (shl then shr.u of i64): the shr.u's operand;
 *   and what must stay: 7. (a >> 24) & 0x7f (bit 7 may be set); 8. (a >>s 24) & 0xff (the
 *   sign's copies); 9. zext a & 0x7fffffff; 10. a ^ (b & 1). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { TRIALS = 200, NCASES = 10 };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	ir_ref a, b;
};

static ir_ref op(struct fx *f, enum ir_op o, enum ir_type t, ir_ref x, ir_ref y)
{
	ir_ref r = ir_new_value(&f->fn, t, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)(y == IR_NO_REF ? 1 : 2),
	                            .res = r,
	                            .args = {x, y}});
	return r;
}

static ir_ref k32(struct fx *f, uint64_t v)
{
	return ir_const(&f->fn, IR_T_I32, v);
}

static ir_ref k64(struct fx *f, uint64_t v)
{
	return ir_const(&f->fn, IR_T_I64, v);
}

/* Builds case `c` (1..NCASES); returns r. */
static ir_ref build(struct fx *f, int c)
{
	ir_ref a = f->a, b = f->b;
	const enum ir_type I32 = IR_T_I32, I64 = IR_T_I64;
	switch (c) {
	case 1: {
		ir_ref hi = op(f, IR_AND, I64,
		               op(f, IR_SHL, I64, op(f, IR_ZEXT, I64, a, IR_NO_REF), k32(f, 32)),
		               k64(f, 0xffffffff00000000ull));
		ir_ref lo = op(f, IR_AND, I64, op(f, IR_ZEXT, I64, b, IR_NO_REF),
		               k64(f, 0xffffffffull));
		return op(f, IR_OR, I64, hi, lo);
	}
	case 2:
		return op(f, IR_AND, I64, op(f, IR_ZEXT, I64, a, IR_NO_REF),
		          k64(f, 0xffffffff00000000ull));
	case 3:
		return op(f, IR_AND, I32, op(f, IR_SHR_U, I32, a, k32(f, 24)), k32(f, 0xff));
	case 4:
		return op(f, IR_AND, I32, op(f, IR_SHL, I32, a, k32(f, 4)), k32(f, 0xfffffff0u));
	case 5:
		return op(f, IR_OR, I32, a,
		          op(f, IR_AND, I32, op(f, IR_SHL, I32, b, k32(f, 8)), k32(f, 0xff)));
	case 6: {
		ir_ref w = op(f, IR_SHL, I64, op(f, IR_ZEXT, I64, b, IR_NO_REF), k32(f, 40));
		return op(f, IR_AND, I64, op(f, IR_SHR_U, I64, w, k32(f, 8)),
		          k64(f, 0xffffffff00000000ull));
	}
	case 7:
		return op(f, IR_AND, I32, op(f, IR_SHR_U, I32, a, k32(f, 24)), k32(f, 0x7f));
	case 8:
		return op(f, IR_AND, I32, op(f, IR_SHR_S, I32, a, k32(f, 24)), k32(f, 0xff));
	case 9:
		return op(f, IR_AND, I64, op(f, IR_ZEXT, I64, a, IR_NO_REF), k64(f, 0x7fffffff));
	default:
		return op(f, IR_XOR, I32, a, op(f, IR_AND, I32, b, k32(f, 1)));
	}
}

/* The expression of case c computed in C. */
static uint64_t expect(int c, uint32_t a, uint32_t b)
{
	switch (c) {
	case 1:
		return (uint64_t)a << 32 | b;
	case 2:
		return 0;
	case 3:
		return a >> 24;
	case 4:
		return (uint32_t)(a << 4);
	case 5:
		return a;
	case 6:
		return ((uint64_t)b << 40) >> 8 & 0xffffffff00000000ull;
	case 7:
		return a >> 24 & 0x7f;
	case 8:
		return (uint32_t)((int32_t)a >> 24) & 0xff;
	case 9:
		return a & 0x7fffffffu;
	default:
		return a ^ (b & 1);
	}
}

/* Rewrites each case must make (AND/OR/XOR becoming COPY). */
static const unsigned rewrites[NCASES + 1] = {0, 2, 1, 1, 1, 2, 1, 0, 0, 0, 0};

static uint64_t mask_of(const struct ir_function *fn, ir_ref r)
{
	unsigned w = ir_type_bits((enum ir_type)fn->vals[r].type);
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* Straight-line evaluation of block 0 (the ops the cases use). */
static uint64_t eval(const struct fx *f, ir_ref want, uint32_t a, uint32_t b)
{
	const struct ir_function *fn = &f->fn;
	uint64_t v[256] = {0};
	for (uint32_t r = 0; r < fn->nvals && r < 256; r++)
		if (fn->vals[r].kind == IR_VAL_CONST)
			v[r] = fn->vals[r].bits & mask_of(fn, r);
	for (uint32_t k = 0; k < fn->blocks[0].ninsns; k++) {
		const struct ir_insn *in = &fn->blocks[0].insns[k];
		uint64_t x = v[in->args[0]], y = in->nargs > 1 ? v[in->args[1]] : 0, r = 0;
		unsigned w = ir_type_bits((enum ir_type)in->type);
		switch (in->op) {
		case IR_PARAM:
			r = in->imm == 0 ? a : b;
			break;
		case IR_COPY:
		case IR_ZEXT:
			r = x;
			break;
		case IR_AND:
			r = x & y;
			break;
		case IR_OR:
			r = x | y;
			break;
		case IR_XOR:
			r = x ^ y;
			break;
		case IR_SHL:
			r = y >= w ? 0 : x << y;
			break;
		case IR_SHR_U:
			r = y >= w ? 0 : x >> y;
			break;
		case IR_SHR_S: {
			int64_t sx = (int64_t)(x << (64 - w)) >> (64 - w);
			r = (uint64_t)(sx >> (y >= w ? w - 1 : y));
			break;
		}
		default:
			break;
		}
		if (in->res != IR_NO_REF)
			v[in->res] = r & mask_of(fn, in->res);
	}
	return v[want];
}

static uint32_t next_random(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 32);
}

static void check_values(const struct fx *f, int c, ir_ref r, const char *when)
{
	static const uint32_t edges[] = {0,    1,          0x7f,        0x80,
	                                 0xff, 0x7fffffff, 0x80000000u, 0xffffffffu};
	uint64_t seed = (uint64_t)c;
	for (unsigned t = 0; t < TRIALS; t++) {
		uint32_t a = t < 8 ? edges[t] : next_random(&seed);
		uint32_t b = t < 8 ? edges[7 - t] : next_random(&seed);
		uint64_t got = eval(f, r, a, b), want = expect(c, a, b);
		if (got != want) {
			CHECK(false, "case %d %s: a %#x b %#x: %#llx, want %#llx", c, when, a, b,
			      (unsigned long long)got, (unsigned long long)want);
			return;
		}
	}
}

static void one(int c)
{
	struct fx f;
	memset(&f, 0, sizeof f);
	pa_arena_init(&f.arena);
	f.fn.arena = &f.arena;
	f.fn.name = "t";
	ir_new_block(&f.fn);
	f.a = ir_new_value(&f.fn, IR_T_I32, 0);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = f.a});
	f.b = ir_new_value(&f.fn, IR_T_I32, 0);
	ir_append(&f.fn, 0,
	          &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = f.b, .imm = 1});
	ir_ref r = build(&f, c);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	check_values(&f, c, r, "before");
	unsigned n = ir_fold_known_bits(&f.fn);
	CHECK(n == rewrites[c], "case %d: %u rewrites, want %u", c, n, rewrites[c]);
	check_values(&f, c, r, "after");
	const struct ir_insn *root = NULL;
	for (uint32_t k = 0; k < f.fn.blocks[0].ninsns; k++)
		if (f.fn.blocks[0].insns[k].res == r)
			root = &f.fn.blocks[0].insns[k];
	bool copy = root && root->op == IR_COPY;
	CHECK(copy == (c != 1 && rewrites[c] > 0), "case %d: the result is%s a copy", c,
	      copy ? "" : " not");
	pa_arena_free(&f.arena);
}

int main(void)
{
	for (int c = 1; c <= NCASES; c++)
		one(c);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("known-bits: ok\n");
	return 0;
}
