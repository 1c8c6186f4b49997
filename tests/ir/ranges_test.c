/* Unit test of ir_value_ranges (src/ir/value_range.c): a loop over nvcc's signed division and
 * remainder by 16, `q = (e + ((e >> 31) >>u 28)) >> 4`, `r = e - ((e + ...) & -16)`, built
 * by hand, run in a small interpreter before and after the pass for many inputs (every
 * iteration's q and r compared, as two's complement i32 arithmetic defines them), and what
 * was or was not rewritten checked:
 *   1. e = phi(%tid.x, e + 64) while e < 512: e is in 0..575, so e >> 31 becomes 0, q's
 *      shift unsigned, r `e & 15`;
 *   2. e = phi(param, e + 64) while e < 512: e may be negative: nothing changes (r is the
 *      signed remainder, not e & 15), same values for negative and wrapping starts;
 *   3. e = phi(%tid.x, e + 64) while e != 512: nothing bounds e (it wraps for most starts):
 *      the phi is widened, the shifts stay signed (and the pass ends).
 * In each, (e + 64) & 15 becomes e & 15 (true for every e). */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { MAX_STEPS = 40, MAX_TRACE = 3 * MAX_STEPS };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	ir_ref q, r, s; /* the quotient, the remainder, e >> 31 */
	ir_ref e, w;    /* the counter, (e + 64) & 15 */
};

static ir_ref op(struct fx *f, uint32_t b, enum ir_op o, ir_ref a, ir_ref c)
{
	ir_ref v = ir_new_value(&f->fn, IR_T_I32, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = IR_T_I32,
	                            .nargs = (uint8_t)(c == IR_NO_REF ? 1 : 2),
	                            .res = v,
	                            .args = {a, c}});
	return v;
}

static ir_ref k32(struct fx *f, uint32_t v)
{
	return ir_const(&f->fn, IR_T_I32, v);
}

/* bb0: the start value; bb1: the loop (taken: bb1 again); bb2: exit. */
static void build(struct fx *f, bool from_tid, enum ir_cmp latch)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	f->fn.is_entry = true;
	for (uint32_t b = 0; b < 3; b++)
		ir_new_block(&f->fn);
	ir_add_edge(&f->fn, 0, 1);
	ir_add_edge(&f->fn, 1, 1);
	ir_add_edge(&f->fn, 1, 2);
	uint32_t *p1 = PA_NEW_ARRAY(&f->arena, uint32_t, 2),
	         *p2 = PA_NEW_ARRAY(&f->arena, uint32_t, 1);
	p1[0] = 0;
	p1[1] = 1;
	p2[0] = 1;
	f->fn.blocks[1].preds = p1;
	f->fn.blocks[1].npreds = 2;
	f->fn.blocks[2].preds = p2;
	f->fn.blocks[2].npreds = 1;
	ir_ref start = ir_new_value(&f->fn, IR_T_I32, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){.op = (uint16_t)(from_tid ? IR_SREG : IR_PARAM),
	                            .type = IR_T_I32,
	                            .res = start,
	                            .aux = from_tid ? IR_SREG_TID_X : 4});
	ir_append(&f->fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_ref e = ir_new_value(&f->fn, IR_T_I32, 1);
	ir_ref *a = PA_NEW_ARRAY(&f->arena, ir_ref, 2);
	a[0] = start;
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_PHI, .type = IR_T_I32, .res = e, .phi_args = a});
	f->s = op(f, 1, IR_SHR_S, e, k32(f, 31));
	ir_ref u = op(f, 1, IR_SHR_U, f->s, k32(f, 28));
	ir_ref t = op(f, 1, IR_ADD, e, u);
	f->q = op(f, 1, IR_SHR_S, t, k32(f, 4));
	ir_ref m = op(f, 1, IR_AND, t, k32(f, 0xfffffff0u));
	f->r = op(f, 1, IR_SUB, e, m);
	f->e = e;
	f->w = op(f, 1, IR_AND, op(f, 1, IR_ADD, e, k32(f, 64)), k32(f, 15));
	a[1] = op(f, 1, IR_ADD, e, k32(f, 64));
	ir_ref c = ir_new_value(&f->fn, IR_T_PRED, 1);
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_ICMP,
	                            .type = IR_T_PRED,
	                            .nargs = 2,
	                            .res = c,
	                            .aux = latch,
	                            .args = {e, k32(f, 512)}});
	ir_append(&f->fn, 1,
	          &(struct ir_insn){.op = IR_BR, .nargs = 1, .res = IR_NO_REF, .args = {c}});
	ir_append(&f->fn, 2, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	CHECK(ir_cfg_compute(&f->fn, NULL), "cfg");
}

static uint32_t val(const struct ir_function *fn, const uint32_t *v, ir_ref r)
{
	return fn->vals[r].kind == IR_VAL_CONST ? (uint32_t)fn->vals[r].bits : v[r];
}

static bool compare(uint32_t kind, uint32_t a, uint32_t b)
{
	switch (kind) {
	case IR_CMP_LT:
		return (int32_t)a < (int32_t)b;
	case IR_CMP_NE:
		return a != b;
	default:
		return false;
	}
}

static uint32_t alu(const struct ir_insn *in, uint32_t a, uint32_t b)
{
	switch (in->op) {
	case IR_COPY:
		return a;
	case IR_ADD:
		return a + b;
	case IR_SUB:
		return a - b;
	case IR_AND:
		return a & b;
	case IR_SHR_U:
		return b >= 32 ? 0 : a >> b;
	case IR_SHR_S:
		return (uint32_t)((int32_t)a >> (b >= 32 ? 31 : b));
	default:
		return 0xdeadbeef;
	}
}

/* Runs the loop from `start`; trace = q and r of each iteration; returns their count. */
static unsigned run(const struct fx *f, uint32_t start, uint32_t *trace)
{
	const struct ir_function *fn = &f->fn;
	uint32_t v[64] = {0};
	if (fn->nvals > 64)
		return 0; /* (the fixture has about 30 values; an empty trace fails the comparison)
		           */
	unsigned n = 0;
	uint32_t from = 0;
	v[fn->blocks[0].insns[0].res] = start;
	for (unsigned step = 0; step < MAX_STEPS; step++) {
		const struct ir_block *bl = &fn->blocks[1];
		bool again = false;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI)
				v[in->res] = val(fn, v, in->phi_args[from]);
			else if (in->op == IR_ICMP)
				v[in->res] = compare(in->aux, val(fn, v, in->args[0]),
				                     val(fn, v, in->args[1]));
			else if (in->op == IR_BR)
				again = v[in->args[0]] != 0;
			else
				v[in->res] = alu(in, val(fn, v, in->args[0]),
				                 in->nargs > 1 ? val(fn, v, in->args[1]) : 0);
		}
		trace[n++] = v[f->q];
		trace[n++] = v[f->r];
		trace[n++] = v[f->w];
		if (!again)
			break;
		from = 1;
	}
	return n;
}

static enum ir_op op_of(const struct fx *f, ir_ref v)
{
	const struct ir_block *bl = &f->fn.blocks[1];
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].res == v)
			return (enum ir_op)bl->insns[i].op;
	return IR_NUM_OPS;
}

static void same_values(const char *what, bool from_tid, enum ir_cmp latch, const uint32_t *starts,
                        unsigned nstarts, enum ir_op s_op, enum ir_op q_op, enum ir_op r_op)
{
	struct fx before, after;
	build(&before, from_tid, latch);
	build(&after, from_tid, latch);
	ir_value_ranges(&after.fn, NULL);
	CHECK(op_of(&after, after.s) == s_op, "%s: e >> 31 is op %d", what, op_of(&after, after.s));
	CHECK(op_of(&after, after.q) == q_op, "%s: q is op %d", what, op_of(&after, after.q));
	CHECK(op_of(&after, after.r) == r_op, "%s: r is op %d", what, op_of(&after, after.r));
	const struct ir_block *bl = &after.fn.blocks[1];
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].res == after.w)
			CHECK(bl->insns[i].args[0] == after.e, "%s: (e + 64) & 15 kept its add",
			      what);
	for (unsigned k = 0; k < nstarts; k++) {
		uint32_t t0[MAX_TRACE], t1[MAX_TRACE];
		unsigned n0 = run(&before, starts[k], t0), n1 = run(&after, starts[k], t1);
		CHECK(n0 > 0 && n0 == n1 && memcmp(t0, t1, n0 * sizeof *t0) == 0,
		      "%s: start %u differs", what, starts[k]);
	}
	pa_arena_free(&before.arena);
	pa_arena_free(&after.arena);
}

int main(void)
{
	uint32_t tids[1024];
	for (uint32_t t = 0; t < 1024; t++)
		tids[t] = t;
	same_values("tid loop", true, IR_CMP_LT, tids, 1024, IR_COPY, IR_SHR_U, IR_AND);
	const uint32_t params[] = {0,           5,           511,         512,        0xffffffffu,
	                           0xffffff9cu, 0x80000000u, 0x7fffffc0u, 0x7ffffff0u};
	same_values("param loop", false, IR_CMP_LT, params, sizeof params / sizeof *params,
	            IR_SHR_S, IR_SHR_S, IR_SUB);
	same_values("unbounded loop", true, IR_CMP_NE, tids, 1024, IR_SHR_S, IR_SHR_S, IR_SUB);
	if (failures)
		return 1;
	printf("ranges: ok\n");
	return 0;
}
