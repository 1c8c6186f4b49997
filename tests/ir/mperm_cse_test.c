/* Unit test of ir_optimize's value numbering on lane reads (MPERM, a ds_bpermute: each lane
 * reads `value` in the lane its byte address names).  Inside one block every lane that runs
 * the first read runs the second with the same registers (the IR has no EXEC change inside a
 * block: divergence is between blocks), so two reads of one value at one address are one
 * value; in different blocks the active lanes may differ and both must stay.
 *   1. two equal mperms in bb0: one is left, both stores read it;
 *   2. equal mperms in bb0 and in bb1 (bb0 branches to bb1 or bb2 on a lane's value): both stay;
 *   3. one value at two addresses in bb0: both stay;
 *   4. two values at one address in bb0: both stay. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
};

static ir_ref emit(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c,
                   uint8_t nargs)
{
	ir_ref r = ir_new_value(&f->fn, t, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = nargs,
	                            .res = r,
	                            .args = {a, c}});
	return r;
}

static void store(struct fx *f, uint32_t b, ir_ref addr, ir_ref v)
{
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = IR_STORE,
	                            .type = IR_T_I32,
	                            .nargs = 2,
	                            .aux = IR_SPACE_GLOBAL,
	                            .res = IR_NO_REF,
	                            .args = {addr, v}});
}

static unsigned count_mperms(const struct ir_function *fn, uint32_t b)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
		n += fn->blocks[b].insns[i].op == IR_MPERM;
	return n;
}

/* The values the block's stores write, in order (at most 2). */
static void stored(const struct ir_function *fn, uint32_t b, ir_ref *v)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < fn->blocks[b].ninsns && n < 2; i++)
		if (fn->blocks[b].insns[i].op == IR_STORE)
			v[n++] = fn->blocks[b].insns[i].args[1];
}

static void one(int kind)
{
	struct fx f;
	memset(&f, 0, sizeof f);
	pa_arena_init(&f.arena);
	f.fn.arena = &f.arena;
	f.fn.name = "t";
	f.fn.wave_size = 32;
	for (int b = 0; b < 3; b++)
		ir_new_block(&f.fn);
	ir_ref out = emit(&f, 0, IR_PARAM, IR_T_I64, 0, 0, 0);
	ir_ref lane = ir_new_value(&f.fn, IR_T_I32, 0);
	ir_append(&f.fn, 0,
	          &(struct ir_insn){
	                  .op = IR_SREG, .type = IR_T_I32, .res = lane, .aux = IR_SREG_LANEID});
	ir_ref x = emit(&f, 0, IR_MUL, IR_T_I32, lane, ir_const(&f.fn, IR_T_I32, 7), 2);
	ir_ref y = emit(&f, 0, IR_ADD, IR_T_I32, lane, ir_const(&f.fn, IR_T_I32, 3), 2);
	ir_ref at = emit(&f, 0, IR_XOR, IR_T_I32,
	                 emit(&f, 0, IR_SHL, IR_T_I32, lane, ir_const(&f.fn, IR_T_I32, 2), 2),
	                 ir_const(&f.fn, IR_T_I32, 4), 2);
	ir_ref at2 = emit(&f, 0, IR_XOR, IR_T_I32, at, ir_const(&f.fn, IR_T_I32, 8), 2);
	ir_ref r0 = emit(&f, 0, IR_MPERM, IR_T_I32, x, at, 2);
	store(&f, 0, out, r0);
	if (kind == 2) {
		ir_ref c = emit(&f, 0, IR_ICMP, IR_T_PRED, x, ir_const(&f.fn, IR_T_I32, 21), 2);
		f.fn.blocks[0].insns[f.fn.blocks[0].ninsns - 1].aux = IR_CMP_NE;
		ir_append(
		        &f.fn, 0,
		        &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {c}});
		ir_add_edge(&f.fn, 0, 1);
		ir_add_edge(&f.fn, 0, 2);
		store(&f, 1, out, emit(&f, 1, IR_MPERM, IR_T_I32, x, at, 2));
		ir_append(&f.fn, 1, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
		ir_add_edge(&f.fn, 1, 2);
	} else {
		ir_ref r1 =
		        emit(&f, 0, IR_MPERM, IR_T_I32, kind == 4 ? y : x, kind == 3 ? at2 : at, 2);
		store(&f, 0, out, r1);
		ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
		ir_add_edge(&f.fn, 0, 2);
		ir_append(&f.fn, 1, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
		ir_add_edge(&f.fn, 1, 2);
	}
	ir_append(&f.fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	static uint32_t p1[] = {0}, p2[] = {0, 1};
	f.fn.blocks[1].preds = p1;
	f.fn.blocks[1].npreds = 1;
	f.fn.blocks[2].preds = p2;
	f.fn.blocks[2].npreds = 2;
	ir_optimize(&f.fn);
	unsigned n0 = count_mperms(&f.fn, 0), n1 = count_mperms(&f.fn, 1);
	ir_ref v[2] = {IR_NO_REF, IR_NO_REF};
	stored(&f.fn, 0, v);
	if (kind == 1) {
		CHECK(n0 == 1, "case 1: %u mperms left in bb0, expected 1", n0);
		CHECK(v[0] == v[1] && v[0] != IR_NO_REF, "case 1: the stores read two values");
	} else if (kind == 2) {
		CHECK(n0 == 1 && n1 == 1, "case 2: mperms %u in bb0, %u in bb1, expected 1 and 1",
		      n0, n1);
	} else {
		CHECK(n0 == 2, "case %d: %u mperms left in bb0, expected 2", kind, n0);
		CHECK(v[0] != v[1], "case %d: the stores read one value", kind);
	}
	pa_arena_free(&f.arena);
}

int main(void)
{
	for (int kind = 1; kind <= 4; kind++)
		one(kind);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("mperm-cse: ok\n");
	return 0;
}
