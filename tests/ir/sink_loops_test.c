/* Unit test of ir_sink_past_loops (src/ir/sink_loops.c): bb0 computes per-lane values,
 * bb1 is a loop, bb2 after it reads them; the pass run, where each value ends up checked.
 *   1. x = t + a read only in bb2, t read there too: x moves to bb2's top;
 *   2. the same, but bb2 does not read t: x stays (its operand t would live through the loop);
 *   3. x uniform: stays (an SGPR, not a VGPR);
 *   4. x also read in the loop: stays;
 *   5. y = x + b read in bb2, x read by y and in bb2: y moves, then x above it (two rounds);
 *   6. no loop between (bb1 a plain block): x stays;
 *   7. y = x + b read in bb2 (with t), x read only by y: both move, in one call;
 *   8. bb2 reads x only, the loop reads t (live through it anyway): x moves. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static void init(struct fx *f, bool loop)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	for (uint32_t b = 0; b < 3; b++) /* bb0 entry, bb1 the loop, bb2 after it */
		ir_new_block(&f->fn);
	ir_add_edge(&f->fn, 0, 1);
	if (loop)
		ir_add_edge(&f->fn, 1, 1);
	ir_add_edge(&f->fn, 1, 2);
	uint32_t *p1 = PA_NEW_ARRAY(&f->arena, uint32_t, 2),
	         *p2 = PA_NEW_ARRAY(&f->arena, uint32_t, 1);
	p1[0] = 0; /* bb1's phi: [0] from bb0, [1] from itself */
	p1[1] = 1;
	p2[0] = 1;
	f->fn.blocks[1].preds = p1;
	f->fn.blocks[1].npreds = loop ? 2 : 1;
	f->fn.blocks[2].preds = p2;
	f->fn.blocks[2].npreds = 1;
}

static ir_ref op(struct fx *f, uint32_t b, enum ir_op o, ir_ref a, ir_ref c, bool divergent)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, b);
	ir_append(
	        &f->fn, b,
	        &(struct ir_insn){
	                .op = (uint16_t)o, .type = IR_T_I32, .nargs = 2, .res = r, .args = {a, c}});
	f->fn.vals[r].divergent = divergent;
	return r;
}

static ir_ref param(struct fx *f, int64_t index)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = IR_PARAM, .type = IR_T_I32, .res = r, .imm = index});
	return r;
}

/* bb1: i = phi(0, i + b); loop while i + b < 8 (or fall through to bb2 without the loop);
 * reads `inside` when it is a value. */
static void body(struct fx *f, bool loop, ir_ref b, ir_ref inside)
{
	ir_append(&f->fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_ref i = ir_new_value(&f->fn, IR_T_I32, 1);
	ir_ref *a = PA_NEW_ARRAY(&f->arena, ir_ref, 2);
	a[0] = ir_const(&f->fn, IR_T_I32, 0);
	if (loop)
		ir_append(
		        &f->fn, 1,
		        &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = i, .phi_args = a});
	else
		i = a[0];
	ir_ref next = op(f, 1, IR_ADD, i, inside != IR_NO_REF ? inside : b, false);
	a[1] = next;
	if (!loop) {
		ir_append(&f->fn, 1, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
		return;
	}
	ir_ref p = ir_new_value(&f->fn, IR_T_PRED, 1);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = p,
	                            .aux = IR_CMP_LT,
	                            .args = {next, ir_const(&f->fn, IR_T_I32, 8)}});
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {p}});
}

/* Block and position of the instruction defining v. */
static void where(const struct fx *f, ir_ref v, uint32_t *block, uint32_t *pos)
{
	*block = *pos = UINT32_MAX;
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t k = 0; k < f->fn.blocks[b].ninsns; k++)
			if (f->fn.blocks[b].insns[k].res == v) {
				*block = b;
				*pos = k;
			}
}

static void one(int kind)
{
	struct fx f;
	bool loop = kind != 6;
	init(&f, loop);
	ir_ref a = param(&f, 0), b = param(&f, 1);
	ir_ref t = ir_new_value(&f.fn, IR_T_I32, 0); /* the lane id: a per-lane value */
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_SREG, .type = IR_T_I32, .res = t, .aux = 0});
	f.fn.vals[t].divergent = true;
	ir_ref x = op(&f, 0, IR_ADD, t, a, kind != 3);
	ir_ref y = kind == 5 || kind == 7 ? op(&f, 0, IR_ADD, x, b, true) : IR_NO_REF;
	body(&f, loop, b, kind == 4 ? x : kind == 8 ? t : IR_NO_REF);
	ir_ref s = op(&f, 2, IR_ADD, kind == 7 ? y : x, kind == 2 || kind == 8 ? b : t, true);
	if (kind == 5)
		s = op(&f, 2, IR_ADD, s, y, true);
	ir_append(&f.fn, 2,
	          &(struct ir_insn){
	                  .op = IR_STORE, .nargs = 2, .res = IR_NO_REF, .aux = 0, .args = {a, s}});
	ir_append(&f.fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	CHECK(ir_cfg_compute(&f.fn, NULL), "kind %d: cfg", kind);
	ir_sink_past_loops(&f.fn);
	uint32_t xb, xp, yb, yp, sb, sp;
	where(&f, x, &xb, &xp);
	where(&f, s, &sb, &sp);
	if (getenv("SINK_TEST_DUMP"))
		ir_dump(stderr, &f.fn);
	bool moves = kind == 1 || kind == 5 || kind == 7 || kind == 8;
	CHECK(xb == (moves ? 2u : 0u), "kind %d: x in bb%u", kind, xb);
	CHECK(!moves || xp == 0, "kind %d: x at %u in bb2, not its top", kind, xp);
	CHECK(f.fn.vals[x].block == xb, "kind %d: x's block not updated", kind);
	if (kind == 7) {
		where(&f, y, &yb, &yp);
		CHECK(yb == 2 && yp == 1 && sp == 2, "kind 7: y at bb%u:%u, s at %u", yb, yp, sp);
	}
	if (kind == 5) {
		where(&f, y, &yb, &yp);
		CHECK(yb == 2 && yp == 1 && sp == 3, "kind 5: y at bb%u:%u, s at %u", yb, yp, sp);
	}
	pa_arena_free(&f.arena);
}

int main(void)
{
	for (int kind = 1; kind <= 8; kind++)
		one(kind);
	if (failures)
		fprintf(stderr, "%u failures\n", failures);
	return failures != 0;
}
