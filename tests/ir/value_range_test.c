/* Unit test of ir_value_ranges (src/ir/value_range.c): hand-built functions over %tid.x,
 * %tid.z and %laneid are run by a small interpreter (PTX semantics of each operation, not
 * the pass's) for EVERY value of %tid.x (0..1023) and a spread of %tid.z and %laneid, before
 * and after the pass.  Checked: every value the interpreter sees lies in the range the pass
 * states for it (brute force over the inputs), and every value is the same after the folds.
 *   1. random expression trees (add, sub, mul, shl, shr.u, shr.s, and, or, min, max,
 *      mulhi.s, select) ending in nvcc's division by a constant: mulhi.s, shr.u 31, shr.s;
 *   2. a loop i = phi(tid.x, i + c) going round while i < K (or i + c < K), with random c
 *      and K (negative K too), dividing i by a constant in the body;
 *   3. stencil2d's remainder loop: j0 = ((tid.x >> 3) + 1) & 3, skipped when j0 == 0, then
 *      j = phi(j0, j - 1) and i = phi(tid.x, i + 256) until j - 1 == 0;
 *   4. a loop whose counter may wrap (i < INT32_MAX - 1, step 5 from 2^31 - 300): no range,
 *      no fold of its sign bit;
 *   5. a join y = phi(x, 7) whose x = tid.x - 500 comes only on the edge of `x >= 0` (or
 *      of `tid.x >= 500`);
 *   6. .maxntid 16, 4: tid.x is below 64 (the stated range, not run: the interpreter's tid.x
 *      goes to 1023), so tid.x >> 6 is 0;
 *   7. nvcc's trip count (max.s(b, k) + c) - b then ((t >> 8) + 1) & 3: the mask is a copy
 *      exactly where t's range [c, c + max(0, k - b's lo)] keeps j below 4;
 *   8. a branch on `t cmp k` (signed and unsigned, either side constant) whose compare the
 *      range decides becomes a constant, and only then.
 * Cases 1, 3, 5 and 6 must fold (the division's sign term of a non-negative value). */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "ir_check.h"

enum { MAXV = 512, STEP_LIMIT = 2000 };

struct fx {
	struct pa_arena arena;
	struct ir_function fn;
	uint32_t seed;
};

static uint32_t rnd(struct fx *f)
{
	f->seed = f->seed * 1103515245u + 12345u;
	return f->seed >> 8;
}

static ir_ref emit(struct fx *f, uint32_t b, enum ir_op o, enum ir_type t, ir_ref a, ir_ref c,
                   ir_ref d, uint32_t aux)
{
	ir_ref r = ir_new_value(&f->fn, t, b);
	ir_append(&f->fn, b,
	          &(struct ir_insn){.op = (uint16_t)o,
	                            .type = (uint8_t)t,
	                            .nargs = (uint8_t)(ir_ops[o].nargs < 0 ? 0 : ir_ops[o].nargs),
	                            .aux = aux,
	                            .res = r,
	                            .args = {a, c, d}});
	return r;
}

static ir_ref op2(struct fx *f, uint32_t b, enum ir_op o, ir_ref a, ir_ref c)
{
	return emit(f, b, o, IR_T_I32, a, c, IR_NO_REF, 0);
}

static ir_ref k32(struct fx *f, int64_t v)
{
	return ir_const(&f->fn, IR_T_I32, (uint32_t)v);
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

static void set_phi_arg(struct fx *f, uint32_t b, ir_ref p, uint32_t k, ir_ref v)
{
	for (uint32_t i = 0; i < f->fn.blocks[b].ninsns; i++)
		if (f->fn.blocks[b].insns[i].res == p)
			f->fn.blocks[b].insns[i].phi_args[k] = v;
}

/* Edges and predecessor lists (in the order of the edges added). */
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

/* ---- the interpreter ---- */

struct state {
	uint32_t v[MAXV];
	bool seen[MAXV];
	uint32_t tid_x, tid_z, lane;
	uint64_t trace; /* hash of every value assigned, in order */
};

static uint32_t val(const struct fx *f, const struct state *s, ir_ref r)
{
	return f->fn.vals[r].kind == IR_VAL_CONST ? (uint32_t)f->fn.vals[r].bits : s->v[r];
}

static bool icmp(uint32_t a, uint32_t b, uint32_t cmp)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (cmp) {
	case IR_CMP_EQ:
		return a == b;
	case IR_CMP_NE:
		return a != b;
	case IR_CMP_LT:
		return sa < sb;
	case IR_CMP_LE:
		return sa <= sb;
	case IR_CMP_GT:
		return sa > sb;
	case IR_CMP_GE:
		return sa >= sb;
	case IR_CMP_LTU:
		return a < b;
	default:
		return a >= b;
	}
}

static uint32_t eval(const struct fx *f, struct state *s, const struct ir_insn *in)
{
	uint32_t a = in->nargs > 0 ? val(f, s, in->args[0]) : 0;
	uint32_t b = in->nargs > 1 ? val(f, s, in->args[1]) : 0;
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (in->op) {
	case IR_SREG:
		return in->aux == IR_SREG_TID_X   ? s->tid_x
		       : in->aux == IR_SREG_TID_Z ? s->tid_z
		                                  : s->lane;
	case IR_COPY:
		return a;
	case IR_ADD:
		return a + b;
	case IR_SUB:
		return a - b;
	case IR_MUL:
		return a * b;
	case IR_MULHI_S:
		return (uint32_t)(((int64_t)sa * sb) >> 32);
	case IR_MULHI_U:
		return (uint32_t)(((uint64_t)a * b) >> 32);
	case IR_SHL:
		return b >= 32 ? 0 : a << b;
	case IR_SHR_U:
		return b >= 32 ? 0 : a >> b;
	case IR_SHR_S:
		return (uint32_t)(sa >> (b > 31 ? 31 : b));
	case IR_AND:
		return a & b;
	case IR_OR:
		return a | b;
	case IR_MIN_S:
		return (uint32_t)(sa < sb ? sa : sb);
	case IR_MAX_S:
		return (uint32_t)(sa > sb ? sa : sb);
	case IR_MIN_U:
		return a < b ? a : b;
	case IR_MAX_U:
		return a > b ? a : b;
	case IR_SELECT:
		return a ? b : val(f, s, in->args[2]);
	case IR_ICMP:
		return icmp(a, b, in->aux);
	default:
		return 0xdeadbeefu;
	}
}

static void assign(struct state *s, ir_ref r, uint32_t x)
{
	s->v[r] = x;
	s->seen[r] = true;
	s->trace = (s->trace ^ ((uint64_t)r << 32 | x)) * 0x100000001b3ull;
}

/* Runs the function; false when it does not end within STEP_LIMIT blocks. */
static bool run(const struct fx *f, struct state *s)
{
	uint32_t b = 0, from = 0;
	for (unsigned steps = 0; steps < STEP_LIMIT; steps++) {
		const struct ir_block *bl = &f->fn.blocks[b];
		uint32_t pi = 0;
		while (pi < bl->npreds && bl->preds[pi] != from)
			pi++;
		uint32_t phis[8], n = 0;
		for (uint32_t i = 0; i < bl->ninsns && bl->insns[i].op == IR_PHI; i++)
			phis[n++] = val(f, s, bl->insns[i].phi_args[pi]); /* all read first */
		for (uint32_t i = 0; i < n; i++)
			assign(s, bl->insns[i].res, phis[i]);
		for (uint32_t i = n; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_RET)
				return true;
			if (in->op == IR_JMP || in->op == IR_BR) {
				from = b;
				b = in->op == IR_JMP || val(f, s, in->args[0]) ? bl->succs[0]
				                                               : bl->succs[1];
				break;
			}
			assign(s, in->res, eval(f, s, in));
		}
	}
	return false;
}

/* Runs before and after the pass on every tid.x (and a spread of tid.z, lanes); checks
 * the ranges and the values.  Returns the folds. */
static unsigned check(struct fx *f, const char *name)
{
	enum { NX = 1024, NZ = 2 };
	static const uint32_t zs[NZ] = {0, 63};
	static uint64_t before[NX * NZ];
	static bool ended[NX * NZ];
	for (uint32_t x = 0; x < NX; x++)
		for (uint32_t z = 0; z < NZ; z++) {
			struct state s = {.tid_x = x, .tid_z = zs[z], .lane = (x * 7 + z) % 32};
			ended[x * NZ + z] = run(f, &s);
			before[x * NZ + z] = s.trace;
		}
	CHECK(ir_cfg_compute(&f->fn, NULL), "%s: cfg", name);
	uint32_t nv = f->fn.nvals;
	static struct ir_range r[MAXV];
	unsigned folds = ir_value_ranges(&f->fn, r);
	for (uint32_t x = 0; x < NX; x++)
		for (uint32_t z = 0; z < NZ; z++) {
			struct state s = {.tid_x = x, .tid_z = zs[z], .lane = (x * 7 + z) % 32};
			bool end = run(f, &s);
			CHECK(end == ended[x * NZ + z] && s.trace == before[x * NZ + z],
			      "%s: tid.x %u tid.z %u: values changed", name, x, zs[z]);
			/* the ranges: checked on the pre-fold value numbers (the folds keep them)
			 */
			for (uint32_t v = 0; v < nv; v++) {
				int32_t got = (int32_t)s.v[v];
				if (s.seen[v] && f->fn.vals[v].type == IR_T_I32 &&
				    (got < r[v].lo || got > r[v].hi)) {
					CHECK(0, "%s: %%%u = %d outside [%lld, %lld] (tid.x %u)",
					      name, v, got, (long long)r[v].lo, (long long)r[v].hi,
					      x);
					return folds;
				}
			}
		}
	return folds;
}

static void init(struct fx *f, uint32_t seed, unsigned nblocks)
{
	memset(f, 0, sizeof *f);
	pa_arena_init(&f->arena);
	f->fn.arena = &f->arena;
	f->fn.name = "t";
	f->fn.wave_size = 32;
	f->seed = seed;
	for (unsigned b = 0; b < nblocks; b++)
		ir_new_block(&f->fn);
}

/* nvcc's x / 18 on x: mulhi.s, shr.u 31, shr.s 2, add. */
static ir_ref divide(struct fx *f, uint32_t b, ir_ref x)
{
	ir_ref q = op2(f, b, IR_MULHI_S, x, k32(f, 954437177));
	ir_ref sign = op2(f, b, IR_SHR_U, q, k32(f, 31));
	return op2(f, b, IR_ADD, op2(f, b, IR_SHR_S, q, k32(f, 2)), sign);
}

static ir_ref random_tree(struct fx *f, ir_ref *leaves, unsigned nleaves, unsigned depth)
{
	static const enum ir_op ops[] = {IR_ADD,   IR_SUB,   IR_MUL,     IR_SHL,   IR_SHR_U,
	                                 IR_SHR_S, IR_AND,   IR_OR,      IR_MIN_S, IR_MAX_S,
	                                 IR_MIN_U, IR_MAX_U, IR_MULHI_S, IR_SELECT};
	if (depth == 0 || rnd(f) % 4 == 0) {
		if (rnd(f) % 3 == 0) {
			static const int64_t ks[] = {
			        0,  1,     3,         31,        32,        255,       -1,
			        -7, 65536, INT32_MAX, INT32_MIN, 954437177, -954437177};
			return k32(f, ks[rnd(f) % (sizeof ks / sizeof *ks)]);
		}
		return leaves[rnd(f) % nleaves];
	}
	enum ir_op o = ops[rnd(f) % (sizeof ops / sizeof *ops)];
	ir_ref a = random_tree(f, leaves, nleaves, depth - 1);
	if (o == IR_SHL || o == IR_SHR_U || o == IR_SHR_S)
		return op2(f, 0, o, a, k32(f, rnd(f) % 34));
	ir_ref b = random_tree(f, leaves, nleaves, depth - 1);
	if (o == IR_SELECT) {
		ir_ref c = emit(f, 0, IR_ICMP, IR_T_PRED, a, b, IR_NO_REF, IR_CMP_LT);
		return emit(f, 0, IR_SELECT, IR_T_I32, c, a, b, 0);
	}
	return op2(f, 0, o, a, b);
}

static void case_trees(void)
{
	unsigned folded = 0;
	for (uint32_t t = 0; t < 40; t++) {
		struct fx f;
		init(&f, 77 + t, 1);
		ir_ref leaves[3] = {emit(&f, 0, IR_SREG, IR_T_I32, 0, 0, 0, IR_SREG_TID_X),
		                    emit(&f, 0, IR_SREG, IR_T_I32, 0, 0, 0, IR_SREG_TID_Z),
		                    emit(&f, 0, IR_SREG, IR_T_I32, 0, 0, 0, IR_SREG_LANEID)};
		ir_ref e = random_tree(&f, leaves, 3, 4);
		divide(&f, 0, e);
		divide(&f, 0,
		       op2(&f, 0, IR_ADD, leaves[0], op2(&f, 0, IR_SHL, leaves[1], k32(&f, 4))));
		term(&f, 0, IR_RET, IR_NO_REF);
		folded += check(&f, "trees") > 0;
		pa_arena_free(&f.arena);
	}
	CHECK(folded == 40, "trees: %u of 40 functions folded", folded);
}

/* bb0 -> bb1 (header) -> bb1 | bb2; i = phi(start, i + c) while (on_next ? i + c : i) < k. */
static unsigned counted_loop(ir_ref (*start)(struct fx *), int64_t c, int64_t k, bool on_next,
                             uint32_t seed)
{
	struct fx f;
	init(&f, seed, 3);
	ir_ref s0 = start(&f);
	term(&f, 0, IR_JMP, IR_NO_REF);
	ir_ref i = phi(&f, 1, s0, IR_NO_REF);
	divide(&f, 1, i);
	ir_ref next = op2(&f, 1, IR_ADD, i, k32(&f, c));
	ir_ref go = emit(&f, 1, IR_ICMP, IR_T_PRED, on_next ? next : i, k32(&f, k), IR_NO_REF,
	                 IR_CMP_LT);
	term(&f, 1, IR_BR, go);
	term(&f, 2, IR_RET, IR_NO_REF);
	edge(&f, 0, 1);
	edge(&f, 1, 1);
	edge(&f, 1, 2);
	set_phi_arg(&f, 1, i, 1, next);
	unsigned n = check(&f, "loop");
	pa_arena_free(&f.arena);
	return n;
}

static ir_ref start_tid(struct fx *f)
{
	return emit(f, 0, IR_SREG, IR_T_I32, 0, 0, 0, IR_SREG_TID_X);
}

static ir_ref start_near_max(struct fx *f)
{
	return op2(f, 0, IR_ADD, start_tid(f), k32(f, INT32_MAX - 1300));
}

static void case_loops(void)
{
	struct fx f;
	init(&f, 5, 0);
	for (uint32_t t = 0; t < 12; t++) {
		int64_t c = 16 + rnd(&f) % 700, k = (int64_t)(rnd(&f) % 5000) - 2000;
		CHECK(counted_loop(start_tid, c, k, t & 1, 100 + t) > 0,
		      "loop c %lld k %lld: no fold", (long long)c, (long long)k);
	}
	/* may wrap: i from 2^31 - 1300 + tid, step 5, while i < 2^31 - 2 */
	counted_loop(start_near_max, 5, INT32_MAX - 1, false, 9);
	counted_loop(start_near_max, 5, INT32_MAX - 1, true, 9);
}

/* bb0: j0 = ((tid.x >> 3) + 1) & 3; j0 == 0 ? bb3 : bb1; bb1 -> bb2 (loop) -> bb2 | bb3. */
static void case_remainder(void)
{
	struct fx f;
	init(&f, 11, 4);
	ir_ref x = start_tid(&f);
	ir_ref j0 = op2(&f, 0, IR_AND,
	                op2(&f, 0, IR_ADD, op2(&f, 0, IR_SHR_U, x, k32(&f, 3)), k32(&f, 1)),
	                k32(&f, 3));
	ir_ref z = emit(&f, 0, IR_ICMP, IR_T_PRED, j0, k32(&f, 0), IR_NO_REF, IR_CMP_EQ);
	term(&f, 0, IR_BR, z);
	term(&f, 1, IR_JMP, IR_NO_REF);
	ir_ref i = phi(&f, 2, x, IR_NO_REF), j = phi(&f, 2, j0, IR_NO_REF);
	divide(&f, 2, i);
	ir_ref inext = op2(&f, 2, IR_ADD, i, k32(&f, 256));
	ir_ref jnext = op2(&f, 2, IR_ADD, k32(&f, -1), j);
	ir_ref go = emit(&f, 2, IR_ICMP, IR_T_PRED, jnext, k32(&f, 0), IR_NO_REF, IR_CMP_NE);
	term(&f, 2, IR_BR, go);
	term(&f, 3, IR_RET, IR_NO_REF);
	edge(&f, 0, 3);
	edge(&f, 0, 1);
	edge(&f, 1, 2);
	edge(&f, 2, 2);
	edge(&f, 2, 3);
	set_phi_arg(&f, 2, i, 1, inext);
	set_phi_arg(&f, 2, j, 1, jnext);
	CHECK(check(&f, "remainder") >= 2, "remainder: the sign term was not folded");
	pa_arena_free(&f.arena);
}

/* bb0: x = tid.x - 500; x >= 0 (on_tid: tid.x >= 500) ? bb2 : bb1; bb1 -> bb2;
 * bb2: y = phi(x, 7) / 18. */
static void case_edge(bool on_tid)
{
	struct fx f;
	init(&f, 13, 3);
	ir_ref t = start_tid(&f);
	ir_ref x = op2(&f, 0, IR_SUB, t, k32(&f, 500));
	ir_ref ge = emit(&f, 0, IR_ICMP, IR_T_PRED, on_tid ? t : x, k32(&f, on_tid ? 500 : 0),
	                 IR_NO_REF, IR_CMP_GE);
	term(&f, 0, IR_BR, ge);
	term(&f, 1, IR_JMP, IR_NO_REF);
	ir_ref y = phi(&f, 2, x, k32(&f, 7));
	divide(&f, 2, y);
	term(&f, 2, IR_RET, IR_NO_REF);
	edge(&f, 0, 2);
	edge(&f, 0, 1);
	edge(&f, 1, 2);
	CHECK(check(&f, "edge") >= 1, "edge (on tid %d): the sign term was not folded", on_tid);
	pa_arena_free(&f.arena);
}

/* .maxntid 16, 4 (64 threads): tid.x in [0, 63], tid.x >> 6 the constant 0. */
static void case_maxntid(void)
{
	struct fx f;
	init(&f, 17, 1);
	f.fn.maxntid[0] = 16;
	f.fn.maxntid[1] = 4;
	ir_ref x = start_tid(&f);
	ir_ref hi = op2(&f, 0, IR_SHR_U, x, k32(&f, 6));
	term(&f, 0, IR_RET, IR_NO_REF);
	CHECK(ir_cfg_compute(&f.fn, NULL), "maxntid: cfg");
	static struct ir_range r[MAXV];
	unsigned folds = ir_value_ranges(&f.fn, r);
	CHECK(r[x].lo == 0 && r[x].hi == 63, "maxntid: tid.x in [%lld, %lld]", (long long)r[x].lo,
	      (long long)r[x].hi);
	CHECK(folds == 1 && r[hi].lo == 0 && r[hi].hi == 0, "maxntid: tid.x >> 6 not folded");
	pa_arena_free(&f.arena);
}

/* nvcc's trip count t = (max.s(b, k) + c) - b (stencil2d: b = tid.x, k = 68, c = 255),
 * then j = ((t >> 8) + 1) & 3: t's exact range [c, c + max(0, k - b's lo)] makes the mask a
 * copy where j is at most 3.  b = tid.x - off checks negative b (and k) too. */
static void case_max_minus(int64_t off, int64_t k, int64_t c, bool must_fold)
{
	struct fx f;
	init(&f, 19, 1);
	ir_ref b = op2(&f, 0, IR_SUB, start_tid(&f), k32(&f, off));
	ir_ref m = op2(&f, 0, IR_MAX_S, k32(&f, k), b);
	ir_ref t = op2(&f, 0, IR_SUB, op2(&f, 0, IR_ADD, m, k32(&f, c)), b);
	ir_ref j = op2(&f, 0, IR_AND,
	               op2(&f, 0, IR_ADD, op2(&f, 0, IR_SHR_U, t, k32(&f, 8)), k32(&f, 1)),
	               k32(&f, 3));
	term(&f, 0, IR_RET, IR_NO_REF);
	unsigned folds = check(&f, "max-minus");
	const struct ir_insn *last = &f.fn.blocks[0].insns[f.fn.blocks[0].ninsns - 2];
	CHECK(last->res == j && (last->op == IR_COPY) == must_fold,
	      "max-minus (off %lld k %lld c %lld): mask %s", (long long)off, (long long)k,
	      (long long)c, must_fold ? "not folded" : "folded");
	(void)folds;
	pa_arena_free(&f.arena);
}

/* bb0: x = tid.x - off, t = (max.s(x, 68) + 255) - x (or x itself); br (t cmp k, or k cmp t
 * with swap) ? bb1 : bb2.  The compare becomes a constant exactly where `decided`. */
static void case_decided(int64_t off, bool trip, enum ir_cmp cmp, int64_t k, bool swap,
                         bool decided)
{
	struct fx f;
	init(&f, 23, 3);
	ir_ref x = op2(&f, 0, IR_SUB, start_tid(&f), k32(&f, off)), t = x;
	if (trip)
		t = op2(&f, 0, IR_SUB,
		        op2(&f, 0, IR_ADD, op2(&f, 0, IR_MAX_S, x, k32(&f, 68)), k32(&f, 255)), x);
	ir_ref p = emit(&f, 0, IR_ICMP, IR_T_PRED, swap ? k32(&f, k) : t, swap ? t : k32(&f, k),
	                IR_NO_REF, cmp);
	term(&f, 0, IR_BR, p);
	term(&f, 1, IR_RET, IR_NO_REF);
	term(&f, 2, IR_RET, IR_NO_REF);
	edge(&f, 0, 1);
	edge(&f, 0, 2);
	check(&f, "decided");
	const struct ir_insn *in = &f.fn.blocks[0].insns[f.fn.blocks[0].ninsns - 2];
	CHECK(in->res == p && (in->op == IR_COPY) == decided,
	      "decided (off %lld trip %d cmp %d k %lld swap %d): %s", (long long)off, trip, cmp,
	      (long long)k, swap, decided ? "not decided" : "decided");
	pa_arena_free(&f.arena);
}

int main(void)
{
	case_decided(0, true, IR_CMP_LTU, 768, false, true); /* t in [255, 323] */
	case_decided(0, true, IR_CMP_GEU, 768, false, true);
	case_decided(0, true, IR_CMP_GTU, 768, true, true); /* 768 >u t */
	case_decided(0, true, IR_CMP_GTU, 254, false, true);
	case_decided(0, true, IR_CMP_EQ, 0, false, true);
	case_decided(0, true, IR_CMP_NE, 0, true, true);
	case_decided(0, true, IR_CMP_LT, 300, false, false);
	case_decided(0, true, IR_CMP_GTU, 300, false, false);
	case_decided(500, false, IR_CMP_GEU, 10, false, false); /* x from -500: huge unsigned */
	case_decided(500, false, IR_CMP_LTU, 600, false, false);
	case_decided(500, false, IR_CMP_LT, 600, false, true);
	case_decided(500, false, IR_CMP_GE, -501, true, true); /* -501 >= x: never */
	case_max_minus(0, 68, 255, true);
	case_max_minus(0, 1000, 255, false);         /* t up to 1255: j up to 5 & 3 */
	case_max_minus(500, -7, 3, true);            /* b from -500: t up to 496 */
	case_max_minus(1000, -1000, 700, true);      /* t is 700 */
	case_max_minus(-2147483000, 68, 255, false); /* b near INT32_MIN + ...: wraps */
	case_max_minus(0, INT32_MAX, 0, false);
	case_trees();
	case_loops();
	case_remainder();
	case_edge(false);
	case_edge(true);
	case_maxntid();
	if (failures) {
		fprintf(stderr, "%u failure(s)\n", failures);
		return 1;
	}
	printf("value-range: ok\n");
	return 0;
}
