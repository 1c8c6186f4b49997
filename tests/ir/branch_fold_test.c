/* Unit test of ir_fold_const_branches (src/ir/branch_fold.c) on hand-built functions:
 *   bb0: x = tid.x; br C ? bb1 : bb2
 *   bb1: loop header i = phi(x, i + 1); br i < 100 ? bb1 : bb3 (a loop, like nvcc's unrolled
 *        one, whose exit joins the kept path)
 *   bb2: y = x + 5; jmp bb3
 *   bb3: z = phi(i, y); ret
 * with C the constant false (bb1's loop goes: bb0 jumps to bb2, bb1 is emptied and detached,
 * bb3's phi keeps y alone), the constant true (bb2 goes, the phi keeps i), and a compare
 * (nothing folds).  Checked: the branch count, the CFG (successors, predecessors, phi
 * operands), and ir_verify on the result. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	ir_ref x, i, y, z;
};

static ir_ref emit(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c,
                   uint32_t aux)
{
	ir_ref r = ir_new_value(&f->fn, t, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)(ir_ops[o].nargs < 0 ? 0 : ir_ops[o].nargs),
	                            .aux = aux,
	                            .res = r,
	                            .args = {a, c}});
	return r;
}

static void term(struct fx *f, uint32_t b, enum ir_op o, ir_ref cond)
{
	ir_append(
	        &f->fn, b,
	        &(struct ir_insn){
	                .op = (uint16_t)o, .nargs = o == IR_BR, .res = IR_NO_REF, .args = {cond}});
}

static ir_ref phi(struct fx *f, uint32_t b, ir_ref a0, ir_ref a1)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, b);
	ir_ref *args = PA_NEW_ARRAY(&f->arena, ir_ref, 2);
	args[0] = a0;
	args[1] = a1;
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = r, .phi_args = args});
	return r;
}

static void edge(struct fx *f, uint32_t from, uint32_t to)
{
	ir_add_edge(&f->fn, from, to);
	struct ir_block *t = &f->fn.blocks[to];
	uint32_t *p = PA_NEW_ARRAY(&f->arena, uint32_t, t->npreds + 1);
	for (uint32_t k = 0; k < t->npreds; k++)
		p[k] = t->preds[k];
	p[t->npreds++] = from;
	t->preds = p;
}

/* cond: 0 or 1 (a constant predicate), 2 (x < 7). */
static void build(struct fx *f, int cond)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	f->fn.wave_size = 32;
	for (unsigned b = 0; b < 4; b++)
		ir_new_block(&f->fn);
	f->x = emit(f, 0, IR_SREG, IR_T_I32, 0, 0, IR_SREG_TID_X);
	ir_ref c = cond < 2 ? ir_const(&f->fn, IR_T_PRED, (uint32_t)cond)
	                    : emit(f, 0, IR_ICMP, IR_T_PRED, f->x, ir_const(&f->fn, IR_T_I32, 7),
	                           IR_CMP_LT);
	term(f, 0, IR_BR, c);
	f->i = phi(f, 1, f->x, IR_NO_REF);
	ir_ref next = emit(f, 1, IR_ADD, IR_T_I32, f->i, ir_const(&f->fn, IR_T_I32, 1), 0);
	ir_ref go =
	        emit(f, 1, IR_ICMP, IR_T_PRED, next, ir_const(&f->fn, IR_T_I32, 100), IR_CMP_LT);
	term(f, 1, IR_BR, go);
	f->y = emit(f, 2, IR_ADD, IR_T_I32, f->x, ir_const(&f->fn, IR_T_I32, 5), 0);
	term(f, 2, IR_JMP, IR_NO_REF);
	f->z = phi(f, 3, f->i, f->y);
	term(f, 3, IR_RET, IR_NO_REF);
	edge(f, 0, 1);
	edge(f, 0, 2);
	edge(f, 1, 1);
	edge(f, 1, 3);
	edge(f, 2, 3);
	f->fn.blocks[1].insns[0].phi_args[1] = next;
}

static void case_fold(int cond)
{
	struct fx f;
	build(&f, cond);
	CHECK(ir_cfg_compute(&f.fn, NULL), "cond %d: cfg", cond);
	unsigned n = ir_fold_const_branches(&f.fn);
	CHECK(n == (cond < 2), "cond %d: %u branches folded", cond, n);
	CHECK(ir_verify(&f.fn, NULL), "cond %d: verify", cond);
	const struct ir_block *b0 = &f.fn.blocks[0], *b3 = &f.fn.blocks[3];
	const struct ir_insn *z = &b3->insns[0];
	if (cond == 2) {
		CHECK(b0->nsuccs == 2 && b3->npreds == 2, "compare: CFG changed");
	} else if (cond == 0) {
		CHECK(b0->nsuccs == 1 && b0->succs[0] == 2 &&
		              b0->insns[b0->ninsns - 1].op == IR_JMP,
		      "false: bb0 does not jump to bb2");
		CHECK(!f.fn.blocks[1].reachable && f.fn.blocks[1].ninsns == 1 &&
		              f.fn.blocks[1].insns[0].op == IR_RET && f.fn.blocks[1].npreds == 0,
		      "false: the loop block is not emptied");
		CHECK(b3->npreds == 1 && b3->preds[0] == 2 && z->phi_args[0] == f.y,
		      "false: the join keeps %u preds", b3->npreds);
	} else {
		CHECK(b0->nsuccs == 1 && b0->succs[0] == 1, "true: bb0 does not jump to bb1");
		CHECK(!f.fn.blocks[2].reachable && f.fn.blocks[2].ninsns == 1,
		      "true: bb2 is not emptied");
		CHECK(b3->npreds == 1 && b3->preds[0] == 1 && z->phi_args[0] == f.i,
		      "true: the join keeps %u preds", b3->npreds);
		CHECK(f.fn.blocks[1].npreds == 2, "true: the loop lost an edge");
	}
	pa_arena_free(&f.arena);
}

int main(void)
{
	case_fold(0);
	case_fold(1);
	case_fold(2);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("branch-fold: ok\n");
	return 0;
}
