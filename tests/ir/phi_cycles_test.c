/* Unit test of ir_remove_phi_cycles (src/ir/phi_cycles.c) and its place in ir_optimize:
 * small hand-built IR functions with irreducible loops, the pass run, the phis and the
 * operands of a store checked against what each web of phis really passes around.
 *   1. two entries of a loop passing x unchanged: p = phi(x, q), q = phi(x, p) -> x,
 *      and a phi after the loop reading both -> x;
 *   2. the same web, but one entry also gets y: nothing is replaced;
 *   3. nested: h = phi(x, a, y) around an inner web a = phi(h, b), b = phi(h, a): h stays,
 *      a and b become h (the search of the SCC's inner phis);
 *   4. ir_optimize on case 1: no phi left, the store reads x. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static void init(struct fx *f, uint32_t nblocks)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	for (uint32_t b = 0; b < nblocks; b++)
		ir_new_block(&f->fn);
}

/* block b's predecessors, in phi operand order */
static void preds(struct fx *f, uint32_t b, uint32_t n, const uint32_t *p)
{
	struct ir_block *bl = &f->fn.blocks[b];
	bl->preds = PA_NEW_ARRAY(&f->arena, uint32_t, n);
	memcpy(bl->preds, p, n * sizeof *p);
	bl->npreds = n;
	for (uint32_t k = 0; k < n; k++)
		ir_add_edge(&f->fn, p[k], b);
}

static ir_ref param(struct fx *f, uint32_t b, int64_t offset)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = r, .imm = offset});
	return r;
}

static ir_ref phi(struct fx *f, uint32_t b, uint32_t n, const ir_ref *args)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, b);
	ir_ref *pa = PA_NEW_ARRAY(&f->arena, ir_ref, n);
	memcpy(pa, args, n * sizeof *args);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = r, .phi_args = pa});
	return r;
}

/* Terminators: a branch on a parameter compare, a jump, or a store of v then ret. */
static void branch(struct fx *f, uint32_t b)
{
	ir_ref c = param(f, b, 8);
	ir_ref p = ir_new_value(&f->fn, IR_T_PRED, b);
	ir_ref zero = ir_const(&f->fn, IR_T_I32, 0);
	ir_append(
	        &f->fn, b,
	        &(struct ir_insn){
	                .op = IR_ICMP, .type = IR_T_PRED, .nargs = 2, .res = p, .args = {c, zero}});
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {p}});
}

static void jump(struct fx *f, uint32_t b)
{
	ir_append(&f->fn, b, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
}

static const struct ir_insn *store_ret(struct fx *f, uint32_t b, ir_ref v)
{
	ir_ref addr = ir_new_value(&f->fn, IR_T_I64, b);
	ir_append(&f->fn, b, &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I64, .res = addr});
	uint32_t at = f->fn.blocks[b].ninsns;
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_STORE,
	                            .type = IR_T_I32,
	                            .nargs = 2,
	                            .res = IR_NO_REF,
	                            .args = {addr, v}});
	ir_append(&f->fn, b, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	return &f->fn.blocks[b].insns[at];
}

static const struct ir_insn *find_phi(const struct fx *f, ir_ref r)
{
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t i = 0; i < f->fn.blocks[b].ninsns; i++)
			if (f->fn.blocks[b].insns[i].res == r)
				return &f->fn.blocks[b].insns[i];
	return NULL;
}

static uint32_t count_phis(const struct fx *f)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t i = 0; i < f->fn.blocks[b].ninsns; i++)
			n += f->fn.blocks[b].insns[i].op == IR_PHI;
	return n;
}

/* bb0: x (and y); br -> bb1 / bb2.  bb1 (A): p = phi(bb0: x, bb2: q); br -> bb2 / bb3.
 * bb2 (B): q = phi(bb0: x or y, bb1: p); br -> bb1 / bb3.  bb3: o = phi(bb1: p, bb2: q);
 * store o; ret.  Returns the store (*x_out = x). */
struct two_entry {
	ir_ref x, y, p, q, o;
	const struct ir_insn *store;
};

static struct two_entry build_two_entry(struct fx *f, bool y_into_b)
{
	struct two_entry t;
	init(f, 4);
	preds(f, 1, 2, (uint32_t[]){0, 2});
	preds(f, 2, 2, (uint32_t[]){0, 1});
	preds(f, 3, 2, (uint32_t[]){1, 2});
	t.x = param(f, 0, 0);
	t.y = param(f, 0, 4);
	branch(f, 0);
	ir_ref q = ir_new_value(&f->fn, IR_T_I32, 2); /* forward reference: phi q in bb2 */
	t.p = phi(f, 1, 2, (ir_ref[]){t.x, q});
	branch(f, 1);
	ir_ref r = phi(f, 2, 2, (ir_ref[]){y_into_b ? t.y : t.x, t.p});
	/* give phi q the value number the phi in bb1 reads */
	f->fn.blocks[2].insns[0].res = q;
	t.q = q;
	(void)r;
	branch(f, 2);
	t.o = phi(f, 3, 2, (ir_ref[]){t.p, t.q});
	t.store = store_ret(f, 3, t.o);
	return t;
}

static void test_two_entry(void)
{
	struct fx f;
	struct two_entry t = build_two_entry(&f, false);
	unsigned n = ir_remove_phi_cycles(&f.fn);
	CHECK(n == 3, "two entries: %u phis replaced, expected 3 (p, q, o)", n);
	CHECK(t.store->args[1] == t.x, "two entries: store reads %%%u, expected x = %%%u",
	      t.store->args[1], t.x);
	const struct ir_insn *o = find_phi(&f, t.o);
	CHECK(o && o->phi_args[0] == t.x && o->phi_args[1] == t.x,
	      "two entries: the phi after the loop must read x on both edges");
	pa_arena_free(&f.arena);
}

static void test_two_values(void)
{
	struct fx f;
	struct two_entry t = build_two_entry(&f, true);
	unsigned n = ir_remove_phi_cycles(&f.fn);
	CHECK(n == 0, "x and y: %u phis replaced, expected none", n);
	CHECK(t.store->args[1] == t.o, "x and y: the store must still read the phi");
	const struct ir_insn *p = find_phi(&f, t.p);
	CHECK(p && p->phi_args[0] == t.x && p->phi_args[1] == t.q, "x and y: p changed");
	pa_arena_free(&f.arena);
}

/* bb0: x; jmp bb1.  bb1 (H): h = phi(bb0: x, bb4: a, bb5: y); br -> bb2 / bb3.
 * bb2 (A): a = phi(bb1: h, bb3: b); br -> bb3 / bb4.  bb3 (B): b = phi(bb1: h, bb2: a);
 * br -> bb2 / bb5.  bb4: jmp bb1.  bb5: y; br -> bb1 / bb6.  bb6: store h; store a; ret. */
static void test_nested(void)
{
	struct fx f;
	init(&f, 7);
	preds(&f, 1, 3, (uint32_t[]){0, 4, 5});
	preds(&f, 2, 2, (uint32_t[]){1, 3});
	preds(&f, 3, 2, (uint32_t[]){1, 2});
	preds(&f, 4, 1, (uint32_t[]){2});
	preds(&f, 5, 1, (uint32_t[]){3});
	preds(&f, 6, 1, (uint32_t[]){5});
	ir_ref x = param(&f, 0, 0);
	jump(&f, 0);
	ir_ref a = ir_new_value(&f.fn, IR_T_I32, 2), b = ir_new_value(&f.fn, IR_T_I32, 3);
	ir_ref y = ir_new_value(&f.fn, IR_T_I32, 5);
	ir_ref h = phi(&f, 1, 3, (ir_ref[]){x, a, y});
	branch(&f, 1);
	phi(&f, 2, 2, (ir_ref[]){h, b});
	f.fn.blocks[2].insns[0].res = a;
	branch(&f, 2);
	phi(&f, 3, 2, (ir_ref[]){h, a});
	f.fn.blocks[3].insns[0].res = b;
	branch(&f, 3);
	jump(&f, 4);
	ir_append(&f.fn, 5,
	          &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = y, .imm = 4});
	branch(&f, 5);
	const struct ir_insn *st_h = store_ret(&f, 6, h);
	(void)st_h;
	unsigned n = ir_remove_phi_cycles(&f.fn);
	CHECK(n == 2, "nested: %u phis replaced, expected 2 (a, b)", n);
	const struct ir_insn *hp = find_phi(&f, h);
	CHECK(hp && hp->phi_args[0] == x && hp->phi_args[1] == h && hp->phi_args[2] == y,
	      "nested: h must read x, itself (was a) and y");
	const struct ir_insn *st = &f.fn.blocks[6].insns[f.fn.blocks[6].ninsns - 2];
	CHECK(st->op == IR_STORE && st->args[1] == h, "nested: the store must read h");
	pa_arena_free(&f.arena);
}

static void test_optimize(void)
{
	struct fx f;
	struct two_entry t = build_two_entry(&f, false);
	ir_optimize(&f.fn);
	CHECK(count_phis(&f) == 0, "ir_optimize: %u phis left, expected none", count_phis(&f));
	const struct ir_insn *st = &f.fn.blocks[3].insns[f.fn.blocks[3].ninsns - 2];
	CHECK(st->op == IR_STORE && st->args[1] == t.x, "ir_optimize: the store must read x");
	pa_arena_free(&f.arena);
}

int main(void)
{
	test_two_entry();
	test_two_values();
	test_nested();
	test_optimize();
	if (failures) {
		fprintf(stderr, "phi_cycles_test: %u failures\n", failures);
		return 1;
	}
	printf("phi_cycles_test: all passed\n");
	return 0;
}
