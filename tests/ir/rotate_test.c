/* Unit test of ir_match_rotates (src/ir/rotate.c): random i32 expressions, the pass run,
 * and every rewritten instruction evaluated before and after on random inputs.
 *
 * Each function is one block: four parameters, a random expression t over them (constant
 * shifts and funnel shifts, rotates, AND/OR/XOR/NOT/ADD/SUB/MUL, constants), a copy t' of
 * it in which some rotates became plain shifts by the same amount and some leaves another
 * parameter or a shift another amount (so t and t' agree on some bits and not on others),
 * and the join
 * (t << k) op (t' >> n) (or the operands swapped) for op OR/XOR/ADD and amounts k, n with
 * k + n = 32 mostly, and the edges 0, 32, > 32 too.  The reference is an evaluator of the
 * IR's definitions written here (SHL/SHR_U: an amount >= 32 gives 0, as PTX; FSHR: the low
 * word of hi:lo shifted right by n & 31), applied to the instructions as they were before
 * the pass and after.  The test also counts the rotates found (the agreement path must be
 * taken) and the joins left alone (k + n != 32). */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

static unsigned failures;

struct rng {
	uint64_t s;
};

static uint32_t next(struct rng *r)
{
	r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(r->s >> 32);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return next(r) % n;
}

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	struct rng *rng;
	ir_ref params[4];
};

static ir_ref emit(struct fx *f, enum ir_op op, unsigned n, ir_ref a, ir_ref b, ir_ref c)
{
	ir_ref r = ir_new_value(&f->fn, IR_T_I32, 0);
	ir_append(&f->fn, 0,
	          &(struct ir_insn){
	                  .op = op, .type = IR_T_I32, .nargs = n, .res = r, .args = {a, b, c}});
	return r;
}

static ir_ref k32(struct fx *f, uint32_t v)
{
	return ir_const(&f->fn, IR_T_I32, v);
}

/* A random expression of depth d; `twin` is its variant (rotates may be shifts, leaves
 * may differ), or IR_NO_REF-filled when not wanted. */
static void expr(struct fx *f, int d, ir_ref *t, ir_ref *u)
{
	struct rng *r = f->rng;
	if (d == 0 || below(r, 5) == 0) {
		*t = f->params[below(r, 4)];
		*u = below(r, 8) == 0 ? f->params[below(r, 4)] : *t;
		if (below(r, 10) == 0)
			*t = *u = k32(f, next(r));
		return;
	}
	ir_ref a, a2, b, b2;
	expr(f, d - 1, &a, &a2);
	unsigned kind = below(r, 9);
	uint32_t s = below(r, 32);
	uint32_t s2 = below(r, 8) ? s : (s + 1 + below(r, 3)) % 32; /* the twin's, mostly s */
	static const enum ir_op bin[] = {IR_AND, IR_OR, IR_XOR, IR_ADD, IR_SUB, IR_MUL};
	switch (kind) {
	case 0: /* rotl(a, s), maybe a shift by s in the twin */
	case 1: {
		*t = emit(f, IR_FSHR, 3, a, a, k32(f, 32 - s));
		unsigned v = below(r, 3);
		*u = v == 0   ? emit(f, IR_SHL, 2, a2, k32(f, s2), 0)
		     : v == 1 ? emit(f, IR_SHR_U, 2, a2, k32(f, 32 - s2), 0)
		              : emit(f, IR_FSHR, 3, a2, a2, k32(f, 32 - s2));
		return;
	}
	case 2:
		*t = emit(f, IR_SHL, 2, a, k32(f, s), 0);
		*u = emit(f, IR_SHL, 2, a2, k32(f, s2), 0);
		return;
	case 3:
		*t = emit(f, IR_SHR_U, 2, a, k32(f, s), 0);
		*u = emit(f, IR_SHR_U, 2, a2, k32(f, s2), 0);
		return;
	case 4:
		*t = emit(f, IR_NOT, 1, a, 0, 0);
		*u = emit(f, IR_NOT, 1, a2, 0, 0);
		return;
	default: {
		expr(f, d - 1, &b, &b2);
		enum ir_op op = bin[below(r, 6)];
		bool swap = below(r, 2);
		*t = emit(f, op, 2, a, b, 0);
		*u = swap ? emit(f, op, 2, b2, a2, 0) : emit(f, op, 2, a2, b2, 0);
		return;
	}
	}
}

static uint32_t eval_insn(const struct ir_function *fn, const struct ir_insn *in, const uint32_t *v)
{
	uint32_t a = v[in->args[0]], b = in->nargs > 1 ? v[in->args[1]] : 0;
	uint32_t c = in->nargs > 2 ? v[in->args[2]] : 0;
	(void)fn;
	switch (in->op) {
	case IR_SHL:
		return b >= 32 ? 0 : a << b;
	case IR_SHR_U:
		return b >= 32 ? 0 : a >> b;
	case IR_FSHR:
		return (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
	case IR_AND:
		return a & b;
	case IR_OR:
		return a | b;
	case IR_XOR:
		return a ^ b;
	case IR_NOT:
		return ~a;
	case IR_ADD:
		return a + b;
	case IR_SUB:
		return a - b;
	case IR_MUL:
		return a * b;
	default:
		fprintf(stderr, "FAIL: unexpected op %u\n", in->op);
		failures++;
		return 0;
	}
}

/* Every value of the block for one input; constants from the function. */
static void eval(const struct ir_function *fn, const struct ir_insn *insns, uint32_t n,
                 const uint32_t in[4], const ir_ref params[4], uint32_t *v)
{
	for (uint32_t i = 0; i < fn->nvals; i++)
		v[i] = fn->vals[i].kind == IR_VAL_CONST ? (uint32_t)fn->vals[i].bits : 0;
	for (unsigned p = 0; p < 4; p++)
		v[params[p]] = in[p];
	for (uint32_t i = 0; i < n; i++)
		if (insns[i].op != IR_PARAM)
			v[insns[i].res] = eval_insn(fn, &insns[i], v);
}

static const uint32_t amounts[][2] = {{8, 24},           {16, 16}, {24, 8}, {7, 25}, {25, 7},
                                      {12, 20},          {1, 31},  {31, 1}, {0, 32}, {32, 0},
                                      {33, 0xffffffffu}, {16, 17}, {4, 28}, {20, 12}};

static void one(uint64_t seed, unsigned *rotates, unsigned *agreed, unsigned *funnels,
                unsigned *kept)
{
	struct rng r = {seed};
	struct fx f;
	memset(&f, 0, sizeof f);
	pa_arena_init(&f.arena);
	f.fn.arena = &f.arena;
	f.fn.name = "t";
	f.rng = &r;
	ir_new_block(&f.fn);
	for (unsigned p = 0; p < 4; p++) {
		f.params[p] = ir_new_value(&f.fn, IR_T_I32, 0);
		ir_append(&f.fn, 0,
		          &(struct ir_insn){.op = IR_PARAM,
		                            .type = IR_T_I32,
		                            .res = f.params[p],
		                            .imm = 4 * p});
	}
	ir_ref t, u;
	expr(&f, 1 + (int)below(&r, 5), &t, &u);
	const uint32_t *am = amounts[below(&r, sizeof amounts / sizeof *amounts)];
	ir_ref sh = emit(&f, IR_SHL, 2, t, k32(&f, am[0]), 0);
	ir_ref sr = emit(&f, IR_SHR_U, 2, u, k32(&f, am[1]), 0);
	static const enum ir_op joins[] = {IR_OR, IR_XOR, IR_ADD};
	enum ir_op jop = joins[below(&r, 3)];
	ir_ref top = below(&r, 2) ? emit(&f, jop, 2, sh, sr, 0) : emit(&f, jop, 2, sr, sh, 0);
	(void)top;

	struct ir_block *bl = &f.fn.blocks[0];
	uint32_t n = bl->ninsns;
	struct ir_insn *before = PA_NEW_ARRAY(&f.arena, struct ir_insn, n);
	memcpy(before, bl->insns, n * sizeof *before);
	ir_match_rotates(&f.fn);
	const struct ir_insn *last = &bl->insns[n - 1];
	if (last->op == IR_FSHR)
		++*(last->args[0] == last->args[1] ? rotates : funnels);
	else
		++*kept;
	if (last->op == IR_FSHR && last->args[0] == last->args[1] && t != u)
		++*agreed; /* two different values made one */
	if (last->op == IR_FSHR && am[0] + am[1] != 32) {
		fprintf(stderr, "FAIL seed %llu: amounts %u + %u rewritten\n",
		        (unsigned long long)seed, am[0], am[1]);
		failures++;
	}
	uint32_t *v0 = PA_NEW_ARRAY(&f.arena, uint32_t, f.fn.nvals);
	uint32_t *v1 = PA_NEW_ARRAY(&f.arena, uint32_t, f.fn.nvals);
	for (unsigned trial = 0; trial < 64; trial++) {
		uint32_t in[4];
		for (unsigned p = 0; p < 4; p++)
			in[p] = trial < 4 ? (trial == 1   ? 0xffffffffu
			                     : trial == 2 ? 0x80000001u
			                                  : 0)
			                  : next(&r);
		eval(&f.fn, before, n, in, f.params, v0);
		eval(&f.fn, bl->insns, n, in, f.params, v1);
		for (uint32_t i = 0; i < n; i++) {
			ir_ref res = before[i].res;
			if (v0[res] != v1[res]) {
				fprintf(stderr,
				        "FAIL seed %llu: value %u: %#x before, %#x after (inputs "
				        "%#x %#x "
				        "%#x %#x)\n",
				        (unsigned long long)seed, res, v0[res], v1[res], in[0],
				        in[1], in[2], in[3]);
				failures++;
				trial = 64;
				break;
			}
		}
	}
	pa_arena_free(&f.arena);
}

int main(void)
{
	unsigned rotates = 0, agreed = 0, funnels = 0, kept = 0;
	for (uint64_t seed = 1; seed <= 20000 && failures < 10; seed++)
		one(seed * 0x9e3779b97f4a7c15ull, &rotates, &agreed, &funnels, &kept);
	printf("rotates %u (%u of two different values), funnel shifts %u, left alone %u\n",
	       rotates, agreed, funnels, kept);
	if (rotates < 1000 || agreed < 500 || funnels < 1000 || kept < 1000) {
		fprintf(stderr, "FAIL: too few of one kind (the generator no longer covers it)\n");
		failures++;
	}
	if (failures)
		fprintf(stderr, "%u failures\n", failures);
	return failures != 0;
}
