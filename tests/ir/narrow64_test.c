/* Unit test of ir_narrow64 (src/ir/narrow64.c): nvcc's shared-memory address chain built by
 * hand, sext(i) * 4 + cvta.shared(window) -> cvta.to.shared, read as 32 bits, then the pass run,
 * which operations became i32 checked, and every 32-bit result compared before and after on
 * random (and negative, wrapping) inputs by a small interpreter.
 *   1. the address read by a trunc and a .shared load: all narrowed (the multiply by 4 a
 *      shift by 2);
 *   2. the sum also the address of a global load: the sum left alone (the high half is read),
 *      only the cvta.to narrowed;
 *   3. the sum also compared as 64 bits: likewise;
 *   4. the cvta.to also shifted right: nothing narrowed;
 *   5. the sum also stored as a 64-bit value: like 2;
 *   6. the product shifted right too: the sum narrowed on a trunc of the (kept) product;
 *   7. the product read by a phi: kept 64-bit, the sum narrowed on its trunc;
 *   8. a 64-bit global load in the product's place (read only as 32 bits, but not an
 *      operation the pass narrows): the sum narrowed on its trunc. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { TRIALS = 200, MAXV = 64, SHARED_APERTURE = 0x1000 };

struct fx {
	struct pa_arena arena;
	struct pa_diag diag;
	struct ir_function fn;
};

static ir_ref emit(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c,
                   uint32_t aux)
{
	ir_ref r = ir_new_value(&f->fn, t, b);
	unsigned nargs = ir_ops[o].nargs > 0 ? (unsigned)ir_ops[o].nargs : 0;
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)nargs,
	                            .res = r,
	                            .aux = aux,
	                            .args = {a, c}});
	return r;
}

static void emit_nores(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c,
                       uint32_t aux)
{
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = o == IR_STORE ? 2 : 1,
	                            .res = IR_NO_REF,
	                            .aux = aux,
	                            .args = {a, c}});
}

static uint64_t mask(enum ir_type t)
{
	return t == IR_T_I64 ? ~0ull : t == IR_T_PRED ? 1 : 0xffffffffull;
}

/* The value of every i32 result after running the blocks in order (block 1's phi takes its
 * only predecessor's value); loads give their address's low bits mixed. */
static void run(const struct fx *f, uint32_t param, uint64_t *v)
{
	memset(v, 0, MAXV * sizeof *v);
	const struct ir_function *fn = &f->fn;
	for (uint32_t r = 0; r < fn->nvals && r < MAXV; r++)
		if (fn->vals[r].kind == IR_VAL_CONST)
			v[r] = fn->vals[r].bits;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].ninsns; k++) {
			const struct ir_insn *in = &fn->blocks[b].insns[k];
			if (in->res == IR_NO_REF || in->res >= MAXV)
				continue;
			ir_ref ra = in->op == IR_PHI ? in->phi_args[0]
			            : in->nargs > 0  ? in->args[0]
			                             : 0;
			ir_ref rc = in->nargs > 1 ? in->args[1] : 0;
			uint64_t a = ra < MAXV ? v[ra] : 0, c = rc < MAXV ? v[rc] : 0, x = 0;
			switch (in->op) {
			case IR_PARAM:
				x = param;
				break;
			case IR_SEXT:
				x = (uint64_t)(int64_t)(int32_t)a;
				break;
			case IR_ZEXT:
				x = a & 0xffffffffull;
				break;
			case IR_TRUNC:
				x = a;
				break;
			case IR_COPY:
				x = a;
				break;
			case IR_PHI:
				x = a;
				break;
			case IR_MUL:
				x = a * c;
				break;
			case IR_ADD:
				x = a + c;
				break;
			case IR_SHL:
				x = c < 64 ? a << c : 0;
				break;
			case IR_SHR_U:
				x = c < 64 ? (a & mask(in->type)) >> c : 0;
				break;
			case IR_ICMP:
				x = a < c;
				break;
			case IR_CVTA_FROM:
				x = (uint64_t)SHARED_APERTURE << 32 | (a & 0xffffffffull);
				break;
			case IR_CVTA_TO:
				x = a & 0xffffffffull;
				break;
			case IR_LOAD:
				x = (a & 0xffffffffull) * 2654435761u;
				break;
			default:
				x = 0xdeadbeef;
				break;
			}
			v[in->res] = x & mask(in->type);
		}
}

static const struct ir_insn *def(const struct fx *f, ir_ref r)
{
	for (uint32_t b = 0; b < f->fn.nblocks; b++)
		for (uint32_t k = 0; k < f->fn.blocks[b].ninsns; k++)
			if (f->fn.blocks[b].insns[k].res == r)
				return &f->fn.blocks[b].insns[k];
	return NULL;
}

/* kind: 1..7 as in the header. */
static void one(int kind)
{
	struct fx f;
	memset(&f, 0, sizeof f);
	pa_arena_init(&f.arena);
	pa_diag_init(&f.diag, stderr);
	f.fn.arena = &f.arena;
	f.fn.name = "t";
	ir_new_block(&f.fn);
	ir_new_block(&f.fn);
	ir_ref i = emit(&f, 0, IR_PARAM, IR_T_I32, IR_NO_REF, IR_NO_REF, 4);
	ir_ref wide = emit(&f, 0, IR_SEXT, IR_T_I64, i, IR_NO_REF, 0);
	ir_ref prod =
	        kind == 8 ? emit(&f, 0, IR_LOAD, IR_T_I64, wide, IR_NO_REF,
	                         IR_SPACE_GLOBAL | 3u << IR_MEM_SIZE_SHIFT)
	                  : emit(&f, 0, IR_MUL, IR_T_I64, wide, ir_const(&f.fn, IR_T_I64, 4), 0);
	ir_ref window = emit(&f, 0, IR_CVTA_FROM, IR_T_I64, ir_const(&f.fn, IR_T_I32, 1024),
	                     IR_NO_REF, IR_SPACE_SHARED);
	ir_ref sum = emit(&f, 0, IR_ADD, IR_T_I64, prod, window, 0);
	ir_ref to = emit(&f, 0, IR_CVTA_TO, IR_T_I64, sum, IR_NO_REF, IR_SPACE_SHARED);
	ir_ref lo = emit(&f, 0, IR_TRUNC, IR_T_I32, to, IR_NO_REF, 0);
	uint32_t ld = IR_SPACE_SHARED | 2u << IR_MEM_SIZE_SHIFT;
	ir_ref val = emit(&f, 0, IR_LOAD, IR_T_I32, to, IR_NO_REF, ld);
	ir_ref probe = IR_NO_REF; /* an i32 result reading the high half, where there is one */
	if (kind == 2)
		probe = emit(&f, 0, IR_LOAD, IR_T_I32, sum, IR_NO_REF,
		             IR_SPACE_GLOBAL | 2u << IR_MEM_SIZE_SHIFT);
	else if (kind == 3)
		emit(&f, 0, IR_ICMP, IR_T_PRED, sum, ir_const(&f.fn, IR_T_I64, 1ull << 40),
		     IR_CMP_LTU);
	else if (kind == 4)
		probe = emit(&f, 0, IR_TRUNC, IR_T_I32,
		             emit(&f, 0, IR_SHR_U, IR_T_I64, to, ir_const(&f.fn, IR_T_I32, 33), 0),
		             IR_NO_REF, 0);
	else if (kind == 5)
		emit_nores(&f, 0, IR_STORE, IR_T_I64, lo, sum,
		           IR_SPACE_SHARED | 3u << IR_MEM_SIZE_SHIFT);
	else if (kind == 6)
		probe = emit(
		        &f, 0, IR_TRUNC, IR_T_I32,
		        emit(&f, 0, IR_SHR_U, IR_T_I64, prod, ir_const(&f.fn, IR_T_I32, 40), 0),
		        IR_NO_REF, 0);
	ir_append(&f.fn, 0, &(struct ir_insn){.op = IR_JMP, .res = IR_NO_REF});
	ir_add_edge(&f.fn, 0, 1);
	static uint32_t preds[] = {0};
	f.fn.blocks[1].preds = preds;
	f.fn.blocks[1].npreds = 1;
	if (kind == 7) {
		static ir_ref phi_args[1];
		phi_args[0] = prod;
		ir_ref p = ir_new_value(&f.fn, IR_T_I64, 1);
		ir_append(&f.fn, 1,
		          &(struct ir_insn){
		                  .op = IR_PHI, .type = IR_T_I64, .res = p, .phi_args = phi_args});
		probe = emit(&f, 1, IR_TRUNC, IR_T_I32,
		             emit(&f, 1, IR_SHR_U, IR_T_I64, p, ir_const(&f.fn, IR_T_I32, 35), 0),
		             IR_NO_REF, 0);
	}
	ir_append(&f.fn, 1, &(struct ir_insn){.op = IR_RET, .res = IR_NO_REF});
	uint32_t params[TRIALS], seed = 7;
	static uint64_t before[TRIALS][MAXV];
	for (int t = 0; t < TRIALS; t++) {
		seed = seed * 1103515245u + 12345u;
		params[t] = t % 4 == 0   ? (uint32_t)-t
		            : t % 4 == 1 ? 0x7fffffffu - (uint32_t)t
		                         : seed;
		run(&f, params[t], before[t]);
	}
	CHECK(ir_cfg_compute(&f.fn, NULL), "case %d: cfg", kind);
	uint32_t nvals = f.fn.nvals;
	unsigned got = ir_narrow64(&f.fn);
	CHECK(ir_verify(&f.fn, &f.diag), "case %d: the IR does not verify", kind);
	bool all = kind == 1, some = kind >= 6;
	/* 1: sext, mul, cvta, add, cvta.to; 6, 7: cvta, add, cvta.to; 2, 3, 5: the cvta.to
	 * (read only as 32 bits) on a trunc of the kept sum; 4: nothing */
	static const unsigned narrowed[] = {0, 5, 1, 1, 0, 1, 3, 3, 3};
	unsigned expect = narrowed[kind];
	CHECK(got == expect, "case %d: %u narrowed, expected %u", kind, got, expect);
	CHECK(f.fn.vals[sum].type == (all || some ? IR_T_I32 : IR_T_I64), "case %d: sum's type",
	      kind);
	CHECK(f.fn.vals[prod].type == (all ? IR_T_I32 : IR_T_I64), "case %d: product's type", kind);
	CHECK(def(&f, val)->args[0] == to, "case %d: the load's address changed", kind);
	if (all)
		CHECK(def(&f, prod)->op == IR_SHL && def(&f, prod)->args[0] == wide &&
		              def(&f, wide)->op == IR_COPY && def(&f, wide)->args[0] == i &&
		              f.fn.vals[def(&f, prod)->args[1]].bits == 2,
		      "case 1: the product is not copy(i) << 2 in 32 bits");
	for (int t = 0; t < TRIALS; t++) {
		uint64_t after[MAXV];
		run(&f, params[t], after);
		for (ir_ref r = 0; r < nvals && r < MAXV; r++) {
			bool i32 =
			        f.fn.vals[r].kind == IR_VAL_INSN && f.fn.vals[r].type == IR_T_I32;
			if (r == lo || r == val || r == probe || (i32 && r != i))
				CHECK((uint32_t)after[r] == (uint32_t)before[t][r],
				      "case %d param %#x: %%%u was %#llx, now %#llx", kind,
				      params[t], r, (unsigned long long)before[t][r],
				      (unsigned long long)after[r]);
		}
	}
	pa_arena_free(&f.arena);
}

int main(void)
{
	for (int kind = 1; kind <= 8; kind++)
		one(kind);
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("narrow64: ok\n");
	return 0;
}
