/* Unit test of ir_strength_reduce (src/ir/strength_reduce.c): small hand-built loops, the
 * pass run, the accesses' addresses checked by running the function before and after in a
 * small interpreter (every iteration's address of every access, modulo the address's
 * width), and what was or was not rewritten.
 *   1. .shared stores at ((i << 3) + p) - 16 and - 8, i = phi(0, i + 1), p a parameter near
 *      2^32 so the addresses wrap: both read one new phi, offsets 0 and 8, same addresses;
 *   2. a .global load at p64 + sext(i) * 4 (nvcc's mul.wide of a 32-bit counter): left alone
 *      (i + 1 sign-extended is not sext(i) + 1 once i wraps, which nothing here rules out);
 *   3. .shared loads at i + 4 and i + 8 (nothing to save): left alone;
 *   4. a counter stepping down by 3 (i - 3) with a .global i64 address (i * 12) + p64 - 40:
 *      rewritten, same addresses;
 *   5. p64 + sext(i * 4 - 8) with i = phi(0, i + 1) while i + 1 < 7: the range of i
 *      (0..6) proves i * 4 - 8 never wraps: rewritten, same addresses;
 *   6. the same with zext: i * 4 - 8 is negative for i < 2, so zext(...) is not affine:
 *      left alone; zext(i * 4) is: rewritten;
 *   7. sext(i) while i + 1 <= INT32_MAX (always true: i wraps): no range, left alone;
 *   8. .shared stores at i - 16 and i - 8, i = phi(64, i + 16) read by nothing else: i itself
 *      becomes the pointer (start 48, offsets 0 and 8), no phi added;
 *   9. ir_replace_exit_tests: i = phi(32, i + 64) read only by its next value, which the
 *      exit test `i + 64 != 32 + 64 * 7` reads, and P = phi(0, P + 64) a .shared load's
 *      address (nbody's loop after the rewrite): the test moves to `P + 64 != 64 * 7`, the
 *      same iterations and addresses; with i also stored, or P stepping by 32, it stays. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { MAX_TRACE = 256, ITERATIONS = 7 };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	uint64_t params[4]; /* by offset / 8 */
};

static void init(struct fx *f)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	for (uint32_t b = 0; b < 3; b++) /* bb0 entry, bb1 the loop, bb2 exit */
		ir_new_block(&f->fn);
	/* bb0 -> bb1; bb1 -> bb1 (taken) / bb2 */
	ir_add_edge(&f->fn, 0, 1);
	ir_add_edge(&f->fn, 1, 1);
	ir_add_edge(&f->fn, 1, 2);
	uint32_t *p1 = PA_NEW_ARRAY(&f->arena, uint32_t, 2),
	         *p2 = PA_NEW_ARRAY(&f->arena, uint32_t, 1);
	p1[0] = 0; /* bb1's phis: [0] from bb0, [1] from itself */
	p1[1] = 1;
	p2[0] = 1;
	f->fn.blocks[1].preds = p1;
	f->fn.blocks[1].npreds = 2;
	f->fn.blocks[2].preds = p2;
	f->fn.blocks[2].npreds = 1;
}

static ir_ref op(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref r = ir_new_value(&f->fn, t, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)(c == IR_NO_REF ? 1 : 2),
	                            .res = r,
	                            .args = {a, c}});
	return r;
}

static ir_ref param(struct fx *f, enum ir_type t, int64_t offset)
{
	ir_ref r = ir_new_value(&f->fn, t, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = IR_PARAM, .type = (uint8_t)t, .res = r, .imm = offset});
	return r;
}

static ir_ref k32(struct fx *f, uint32_t v)
{
	return ir_const(&f->fn, IR_T_I32, v);
}

static void access(struct fx *f, enum ir_op o, uint32_t space, ir_ref addr, int64_t imm)
{
	uint32_t aux = space | 2u << IR_MEM_SIZE_SHIFT;
	if (o == IR_LOAD) {
		ir_ref r = ir_new_value(&f->fn, IR_T_I32, 1);
		ir_append(&f->fn, 1,
		          &(struct ir_insn){.op = IR_LOAD,
		                            .type = IR_T_I32,
		                            .nargs = 1,
		                            .res = r,
		                            .aux = aux,
		                            .args = {addr},
		                            .imm = imm});
	} else {
		ir_append(&f->fn, 1,
		          &(struct ir_insn){.op = IR_STORE,
		                            .type = IR_T_I32,
		                            .nargs = 2,
		                            .res = IR_NO_REF,
		                            .aux = aux,
		                            .args = {addr, k32(f, 1)},
		                            .imm = imm});
	}
}

/* The counter: i = phi(start, i +/- step) as bb1's first instruction (its latch operand is
 * filled by close_loop). */
static ir_ref counter(struct fx *f, uint32_t start)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, 1);
	ir_ref *a = PA_NEW_ARRAY(&f->arena, ir_ref, 2);
	a[0] = k32(f, start);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = r, .phi_args = a});
	return r;
}

/* i2 = i op step; loop while the iteration count (a second counter) is below ITERATIONS. */
static void close_loop(struct fx *f, ir_ref i, enum ir_op o, uint32_t step)
{
	ir_append(&f->fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_ref n = op(f, 1, o, IR_T_I32, i, k32(f, step));
	f->fn.blocks[1].insns[0].phi_args[1] = n;
	ir_ref c = ir_new_value(&f->fn, IR_T_I32, 1);
	ir_ref *a = PA_NEW_ARRAY(&f->arena, ir_ref, 2);
	a[0] = k32(f, 0);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = c, .phi_args = a});
	a[1] = op(f, 1, IR_ADD, IR_T_I32, c, k32(f, 1));
	ir_ref p = ir_new_value(&f->fn, IR_T_PRED, 1);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = p,
	                            .aux = IR_CMP_LT,
	                            .args = {a[1], k32(f, ITERATIONS)}});
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {p}});
	ir_append(&f->fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	/* the counter's phi second: phis first in the block */
	struct ir_block *bl = &f->fn.blocks[1];
	for (uint32_t k = bl->ninsns - 1; k > 0; k--)
		if (bl->insns[k].res == c) {
			struct ir_insn t = bl->insns[k];
			memmove(&bl->insns[2], &bl->insns[1], (k - 1) * sizeof t);
			bl->insns[1] = t;
		}
}

/* i2 = i + step; go round while i2 `cmp` n (a constant). */
static void close_loop_on(struct fx *f, ir_ref i, uint32_t step, enum ir_cmp cmp, uint32_t n)
{
	ir_append(&f->fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_ref next = op(f, 1, IR_ADD, IR_T_I32, i, k32(f, step));
	f->fn.blocks[1].insns[0].phi_args[1] = next;
	ir_ref p = ir_new_value(&f->fn, IR_T_PRED, 1);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = p,
	                            .aux = cmp,
	                            .args = {next, k32(f, n)}});
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {p}});
	ir_append(&f->fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
}

/* ---- the interpreter: every access's address, in execution order ---- */
struct trace {
	uint64_t addr[MAX_TRACE];
	uint32_t n;
};

static uint64_t width(enum ir_type t, uint64_t v)
{
	return t == IR_T_I32 ? (uint32_t)v : t == IR_T_PRED ? (v & 1) : v;
}

static uint64_t eval(const struct fx *f, const struct ir_insn *in, const uint64_t *v)
{
	const struct ir_function *fn = &f->fn;
	uint64_t a = in->nargs > 0 ? v[in->args[0]] : 0, b = in->nargs > 1 ? v[in->args[1]] : 0;
	switch (in->op) {
	case IR_PARAM:
		return f->params[in->imm / 8];
	case IR_ADD:
		return a + b;
	case IR_SUB:
		return a - b;
	case IR_MUL:
		return a * b;
	case IR_SHL:
		return b >= ir_type_bits((enum ir_type)in->type) ? 0 : a << b;
	case IR_SEXT:
		return (uint64_t)(int64_t)(int32_t)(uint32_t)a;
	case IR_ZEXT:
	case IR_TRUNC:
		return (uint32_t)a;
	case IR_ICMP:
		if (in->aux == IR_CMP_EQ || in->aux == IR_CMP_NE)
			return (a == b) == (in->aux == IR_CMP_EQ);
		return in->aux == IR_CMP_LE ? (int32_t)a <= (int32_t)b : (int32_t)a < (int32_t)b;
	default:
		CHECK(false, "interpreter: op %s", ir_ops[in->op].name);
		(void)fn;
		return 0;
	}
}

static void run(const struct fx *f, struct trace *t)
{
	const struct ir_function *fn = &f->fn;
	uint64_t *v = PA_NEW_ARRAY((struct pa_arena *)&f->arena, uint64_t, fn->nvals + 1);
	for (uint32_t r = 0; r < fn->nvals; r++)
		if (fn->vals[r].kind == IR_VAL_CONST)
			v[r] = fn->vals[r].bits;
	t->n = 0;
	uint32_t b = 0, from = 0;
	for (unsigned steps = 0; steps < 1000; steps++) {
		const struct ir_block *bl = &fn->blocks[b];
		uint64_t phis[16];
		uint32_t np = 0;
		for (uint32_t i = 0; i < bl->ninsns && bl->insns[i].op == IR_PHI; i++)
			for (uint32_t k = 0; k < bl->npreds; k++)
				if (bl->preds[k] == from && np < 16)
					phis[np++] = v[bl->insns[i].phi_args[k]];
		np = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			enum ir_type at = in->nargs ? (enum ir_type)fn->vals[in->args[0]].type : 0;
			if (in->op == IR_PHI) {
				v[in->res] = phis[np++];
			} else if (in->op == IR_LOAD || in->op == IR_STORE) {
				if (t->n < MAX_TRACE)
					t->addr[t->n++] =
					        width(at, v[in->args[0]] + (uint64_t)in->imm);
				if (in->res != IR_NO_REF)
					v[in->res] = 0;
			} else if (in->op == IR_JMP || in->op == IR_BR) {
				from = b;
				b = in->op == IR_JMP || v[in->args[0]] ? bl->succs[0]
				                                       : bl->succs[1];
				break;
			} else if (in->op == IR_RET) {
				return;
			} else {
				v[in->res] = width((enum ir_type)in->type, eval(f, in, v));
			}
		}
	}
	CHECK(false, "interpreter: no ret");
}

/* Runs the function, the pass, the function again; the addresses must agree.  Returns the
 * pass's count. */
static unsigned check_same(struct fx *f, const char *what)
{
	CHECK(ir_cfg_compute(&f->fn, NULL), "%s: cfg", what);
	CHECK(ir_verify(&f->fn, NULL), "%s: verify before", what);
	struct trace *before = PA_NEW(&f->arena, struct trace),
	             *after = PA_NEW(&f->arena, struct trace);
	run(f, before);
	unsigned n = ir_strength_reduce(&f->fn);
	CHECK(ir_verify(&f->fn, NULL), "%s: verify after", what);
	run(f, after);
	CHECK(before->n == after->n && before->n > 0, "%s: %u accesses, then %u", what, before->n,
	      after->n);
	for (uint32_t k = 0; k < before->n && k < after->n; k++)
		CHECK(before->addr[k] == after->addr[k], "%s: access %u at %#llx, then %#llx", what,
		      k, (unsigned long long)before->addr[k], (unsigned long long)after->addr[k]);
	return n;
}

/* The accesses of bb1: their address operands and offsets. */
static uint32_t accesses(const struct fx *f, ir_ref *addr, int64_t *imm)
{
	const struct ir_block *bl = &f->fn.blocks[1];
	uint32_t n = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op == IR_LOAD || bl->insns[i].op == IR_STORE) {
			addr[n] = bl->insns[i].args[0];
			imm[n++] = bl->insns[i].imm;
		}
	return n;
}

static void test_shared_wrap(void)
{
	struct fx f;
	init(&f);
	f.params[0] = 0xfffffff0u; /* the addresses wrap past 2^32 */
	ir_ref p = param(&f, IR_T_I32, 0);
	ir_ref i = counter(&f, 0);
	ir_ref a = op(&f, 1, IR_SHL, IR_T_I32, i, k32(&f, 3));
	ir_ref b = op(&f, 1, IR_ADD, IR_T_I32, a, p);
	access(&f, IR_STORE, IR_SPACE_SHARED, b, -16);
	access(&f, IR_STORE, IR_SPACE_SHARED, b, -8);
	close_loop(&f, i, IR_ADD, 1);
	CHECK(check_same(&f, "shared wrap") == 2, "shared wrap: two accesses rewritten");
	ir_ref addr[4];
	int64_t imm[4];
	CHECK(accesses(&f, addr, imm) == 2, "shared wrap: two accesses");
	const struct ir_block *h = &f.fn.blocks[1];
	CHECK(addr[0] == addr[1] && h->insns[0].op == IR_PHI && h->insns[0].res == addr[0],
	      "shared wrap: both read the new phi");
	CHECK(imm[0] == 0 && imm[1] == 8, "shared wrap: offsets %lld %lld", (long long)imm[0],
	      (long long)imm[1]);
	pa_arena_free(&f.arena);
}

static void test_sext_strict(void)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0);
	f.params[0] = 0x100000000ull;
	ir_ref i = counter(&f, 0x7ffffffc); /* wraps after 3 iterations */
	ir_ref x = op(&f, 1, IR_SEXT, IR_T_I64, i, IR_NO_REF);
	ir_ref m = op(&f, 1, IR_MUL, IR_T_I64, x, ir_const(&f.fn, IR_T_I64, 4));
	ir_ref a = op(&f, 1, IR_ADD, IR_T_I64, p, m);
	access(&f, IR_LOAD, IR_SPACE_GLOBAL, a, -4096);
	access(&f, IR_LOAD, IR_SPACE_GLOBAL, a, 4096);
	close_loop(&f, i, IR_ADD, 1);
	CHECK(check_same(&f, "sext") == 0, "sext: nothing rewritten");
	pa_arena_free(&f.arena);
}

static void test_no_gain(void)
{
	struct fx f;
	init(&f);
	ir_ref i = counter(&f, 64);
	access(&f, IR_LOAD, IR_SPACE_SHARED, i, 4);
	access(&f, IR_LOAD, IR_SPACE_SHARED, i, 8);
	close_loop(&f, i, IR_ADD, 16);
	CHECK(check_same(&f, "no gain") == 0, "no gain: nothing rewritten");
	pa_arena_free(&f.arena);
}

static void test_down_i64(void)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0);
	f.params[0] = 0x7000;
	/* a 64-bit counter: i = phi(100, i - 3) */
	ir_ref i = ir_new_value(&f.fn, IR_T_I64, 1);
	ir_ref *pa = PA_NEW_ARRAY(&f.arena, ir_ref, 2);
	pa[0] = ir_const(&f.fn, IR_T_I64, 100);
	ir_append(&f.fn, 1,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I64, .res = i, .phi_args = pa});
	ir_ref m = op(&f, 1, IR_MUL, IR_T_I64, ir_const(&f.fn, IR_T_I64, 12), i);
	ir_ref a = op(&f, 1, IR_ADD, IR_T_I64, m, p);
	ir_ref s = op(&f, 1, IR_SUB, IR_T_I64, a, ir_const(&f.fn, IR_T_I64, 40));
	access(&f, IR_STORE, IR_SPACE_GLOBAL, s, 0);
	access(&f, IR_LOAD, IR_SPACE_GLOBAL, s, 1000);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	pa[1] = op(&f, 1, IR_SUB, IR_T_I64, i, ir_const(&f.fn, IR_T_I64, 3));
	/* loop while i > 100 - 3 * ITERATIONS: compare the i32 truncation */
	ir_ref t = op(&f, 1, IR_TRUNC, IR_T_I32, pa[1], IR_NO_REF);
	ir_ref c = ir_new_value(&f.fn, IR_T_PRED, 1);
	ir_append(&f.fn, 1,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = c,
	                            .aux = IR_CMP_LT,
	                            .args = {k32(&f, 100 - 3 * ITERATIONS), t}});
	ir_append(&f.fn, 1,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {c}});
	ir_append(&f.fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	CHECK(check_same(&f, "down i64") == 2, "down i64: two accesses rewritten");
	ir_ref addr[4];
	int64_t imm[4];
	CHECK(accesses(&f, addr, imm) == 2 && imm[0] == 0 && imm[1] == 1000,
	      "down i64: offsets 0 and 1000");
	pa_arena_free(&f.arena);
}

/* p64 + ext(i * s - k), i = 0 .. 6 (cases 5 to 7) */
static unsigned extended(enum ir_op ext, uint32_t s, uint32_t k, enum ir_cmp cmp, uint32_t n,
                         bool run_it)
{
	struct fx f;
	init(&f);
	ir_ref p = param(&f, IR_T_I64, 0);
	f.params[0] = 0x100000000ull;
	ir_ref i = counter(&f, 0);
	ir_ref m = op(&f, 1, IR_MUL, IR_T_I32, i, k32(&f, s));
	ir_ref e = op(&f, 1, IR_SUB, IR_T_I32, m, k32(&f, k));
	ir_ref x = op(&f, 1, ext, IR_T_I64, e, IR_NO_REF);
	ir_ref a = op(&f, 1, IR_ADD, IR_T_I64, p, x);
	access(&f, IR_LOAD, IR_SPACE_GLOBAL, a, 0);
	access(&f, IR_LOAD, IR_SPACE_GLOBAL, a, 16);
	close_loop_on(&f, i, 1, cmp, n);
	unsigned r;
	if (run_it) {
		r = check_same(&f, ext == IR_SEXT ? "sext range" : "zext range");
	} else {
		CHECK(ir_cfg_compute(&f.fn, NULL), "wrapping: cfg");
		r = ir_strength_reduce(&f.fn);
	}
	pa_arena_free(&f.arena);
	return r;
}

static void test_in_place(void)
{
	struct fx f;
	init(&f);
	ir_ref i = counter(&f, 64);
	access(&f, IR_STORE, IR_SPACE_SHARED, i, -16);
	access(&f, IR_STORE, IR_SPACE_SHARED, i, -8);
	close_loop(&f, i, IR_ADD, 16);
	uint32_t phis = 0;
	for (uint32_t k = 0; k < f.fn.blocks[1].ninsns; k++)
		phis += f.fn.blocks[1].insns[k].op == IR_PHI;
	CHECK(check_same(&f, "in place") == 2, "in place: two accesses rewritten");
	ir_ref addr[4];
	int64_t imm[4];
	CHECK(accesses(&f, addr, imm) == 2 && addr[0] == i && addr[1] == i && imm[0] == 0 &&
	              imm[1] == 8,
	      "in place: the counter with offsets 0 and 8");
	uint32_t after = 0;
	for (uint32_t k = 0; k < f.fn.blocks[1].ninsns; k++)
		after += f.fn.blocks[1].insns[k].op == IR_PHI;
	CHECK(after == phis, "in place: %u phis, then %u", phis, after);
	pa_arena_free(&f.arena);
}

/* Case 9: counters i (start 32) and P (start 0), P stepping by p_step, i by 64; the loop
 * goes round while i + 64 != 32 + 64 * ITERATIONS; `store_i`: i is also stored. */
static void exit_test(uint32_t p_step, bool store_i, bool moves)
{
	const char *what = store_i        ? "exit test, i stored"
	                   : p_step != 64 ? "exit test, other step"
	                                  : "exit test";
	struct fx f;
	init(&f);
	ir_ref i = counter(&f, 32);
	ir_ref pp = ir_new_value(&f.fn, IR_T_I32, 1);
	ir_ref *a = PA_NEW_ARRAY(&f.arena, ir_ref, 2);
	a[0] = k32(&f, 0);
	ir_append(&f.fn, 1,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = pp, .phi_args = a});
	access(&f, IR_LOAD, IR_SPACE_SHARED, pp, 4);
	if (store_i)
		access(&f, IR_STORE, IR_SPACE_SHARED, i, 0);
	a[1] = op(&f, 1, IR_ADD, IR_T_I32, k32(&f, p_step), pp);
	close_loop_on(&f, i, 64, IR_CMP_NE, 32 + 64 * ITERATIONS);
	CHECK(ir_cfg_compute(&f.fn, NULL), "%s: cfg", what);
	struct trace *before = PA_NEW(&f.arena, struct trace),
	             *after = PA_NEW(&f.arena, struct trace);
	run(&f, before);
	unsigned n = ir_replace_exit_tests(&f.fn);
	CHECK(ir_verify(&f.fn, NULL), "%s: verify after", what);
	run(&f, after);
	CHECK(n == (moves ? 1u : 0u), "%s: %u tests moved", what, n);
	CHECK(before->n == after->n && before->n == ITERATIONS * (store_i ? 2u : 1u),
	      "%s: %u accesses, then %u", what, before->n, after->n);
	for (uint32_t k = 0; k < before->n && k < after->n; k++)
		CHECK(before->addr[k] == after->addr[k], "%s: access %u", what, k);
	const struct ir_block *bl = &f.fn.blocks[1];
	const struct ir_insn *br = &bl->insns[bl->ninsns - 1], *test = NULL;
	for (uint32_t k = 0; k < bl->ninsns; k++)
		if (bl->insns[k].res == br->args[0])
			test = &bl->insns[k];
	CHECK(test && test->op == IR_ICMP, "%s: the branch reads an icmp", what);
	if (moves && test)
		CHECK(test->args[0] == a[1] && test->args[1] != IR_NO_REF &&
		              f.fn.vals[test->args[1]].bits == 64 * ITERATIONS,
		      "%s: the test reads P's next value against %u", what, 64 * ITERATIONS);
	pa_arena_free(&f.arena);
}

int main(void)
{
	test_shared_wrap();
	test_sext_strict();
	test_no_gain();
	test_down_i64();
	test_in_place();
	CHECK(extended(IR_SEXT, 4, 8, IR_CMP_LT, ITERATIONS, true) == 2, "sext range: rewritten");
	CHECK(extended(IR_ZEXT, 4, 8, IR_CMP_LT, ITERATIONS, true) == 0, "zext range: left alone");
	CHECK(extended(IR_ZEXT, 4, 0, IR_CMP_LT, ITERATIONS, true) == 2, "zext range: rewritten");
	/* i itself, which would fit, but it wraps */
	CHECK(extended(IR_SEXT, 1, 0, IR_CMP_LE, INT32_MAX, false) == 0, "wrapping: left alone");
	exit_test(64, false, true);
	exit_test(64, true, false);
	exit_test(32, false, false);
	if (failures) {
		fprintf(stderr, "%u failures\n", failures);
		return 1;
	}
	printf("strength_reduce_test: all passed\n");
	return 0;
}
