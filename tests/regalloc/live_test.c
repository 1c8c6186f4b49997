/* Liveness by variable (src/regalloc/liveness.c) against the classic dense dataflow.
 *
 * Random MIR functions with arbitrary CFGs (back edges, irreducible loops, unreachable
 * blocks, edges taken only by an empty EXEC), SGPR vregs of one and two dwords written
 * whole or one half at a time, redefined in several blocks, and parallel copy groups.
 * The reference here solves live_in(b) = gen(b) U (live_out(b) - kill(b)), live_out(b) =
 * U live_in(succ) over the non-skip edges by round-robin iteration on dense bool
 * matrices until nothing changes, with gen/kill read off the documented rules (a read is
 * upward-exposed unless the block already wrote all dwords it reads; a block kills a vreg
 * once it has written all its dwords; a copy group reads all sources before writing), and
 * derives each vreg's span (first live-in block start, last live-out block end), which
 * must equal ctx->live_span. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regalloc/ra_int.h"

enum { MAX_BLOCKS = 24, NV = 8, ROUNDS = 3000 };

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s % n);
}

static void emit(struct mir_function *fn, uint32_t b, unsigned op, unsigned n, struct mir_opnd a,
                 struct mir_opnd x, struct mir_opnd y, uint8_t flags)
{
	struct mir_opnd ops[3] = {a, x, y};
	struct mir_insn in = mir_make(op, n, ops);
	in.flags = flags;
	mir_append(fn, b, &in);
}

/* One dword of vreg v (a random half of a pair), or all of it. */
static struct mir_opnd part(const struct mir_function *fn, struct rng *r, uint32_t v, bool whole)
{
	if (whole || fn->vregs[v].size == 1)
		return mir_vreg(v, fn->vregs[v].size);
	struct mir_opnd o = mir_vreg(v, 1);
	o.sub = (uint8_t)rnd(r, 2);
	return o;
}

static void random_block(struct mir_function *fn, struct rng *r, uint32_t b)
{
	unsigned n = rnd(r, 5);
	for (unsigned i = 0; i < n; i++) {
		uint32_t d = rnd(r, NV), x = rnd(r, NV), y = rnd(r, NV);
		if (rnd(r, 4) == 0) { /* a parallel copy group of whole values */
			unsigned k = 1 + rnd(r, 3);
			for (unsigned j = 0; j < k; j++) {
				uint32_t s = rnd(r, NV), t = rnd(r, NV);
				if (fn->vregs[s].size != fn->vregs[t].size)
					continue;
				emit(fn, b, MIR_COPY, 2, mir_vreg(t, fn->vregs[t].size),
				     mir_vreg(s, fn->vregs[s].size), (struct mir_opnd){0},
				     MIR_IF_PARALLEL);
			}
			continue;
		}
		emit(fn, b, AMD_OP_S_ADD_U32, 3, part(fn, r, d, false), part(fn, r, x, false),
		     part(fn, r, y, false), 0);
	}
}

static void build(struct mir_function *fn, struct rng *r)
{
	uint32_t nb = 1 + rnd(r, MAX_BLOCKS);
	for (uint32_t v = 0; v < NV; v++)
		mir_new_vreg(fn, MIR_SGPR, 1 + rnd(r, 2), 1);
	for (uint32_t b = 0; b < nb; b++) {
		mir_new_block(fn);
		random_block(fn, r, b);
	}
	for (uint32_t b = 0; b < nb; b++) {
		struct mir_block *bl = &fn->blocks[b];
		bl->nsucc = (uint8_t)rnd(r, 3);
		for (unsigned s = 0; s < bl->nsucc; s++)
			bl->succ[s] = rnd(r, 3) ? (b + 1 + rnd(r, 3)) % nb : rnd(r, nb);
		bl->skip_succ = (uint8_t)(rnd(r, 4) == 0 ? 1u << rnd(r, 2) : 0);
		bl->skip_succ &= (uint8_t)((1u << bl->nsucc) - 1);
	}
}

/* gen/kill of block b by the documented rules. */
static void gen_kill(const struct mir_function *fn, uint32_t b, bool *gen, bool *kill)
{
	const struct mir_block *bl = &fn->blocks[b];
	uint8_t written[NV] = {0};
	for (uint32_t i = 0; i < bl->ninsns;) {
		uint32_t end = i + 1;
		if (bl->insns[i].op == MIR_COPY && (bl->insns[i].flags & MIR_IF_PARALLEL))
			while (end < bl->ninsns && bl->insns[end].op == MIR_COPY &&
			       (bl->insns[end].flags & MIR_IF_PARALLEL))
				end++;
		for (uint32_t j = i; j < end; j++) /* reads: operands 1.. */
			for (unsigned k = 1; k < bl->insns[j].nopnds; k++) {
				const struct mir_opnd *o = &bl->insns[j].opnds[k];
				for (unsigned w = o->sub; w < o->sub + o->width; w++)
					if (!(written[o->v] >> w & 1))
						gen[o->v] = true;
			}
		for (uint32_t j = i; j < end; j++) { /* writes: operand 0 */
			const struct mir_opnd *o = &bl->insns[j].opnds[0];
			for (unsigned w = o->sub; w < o->sub + o->width; w++)
				written[o->v] |= (uint8_t)(1u << w);
			if (written[o->v] == (1u << fn->vregs[o->v].size) - 1)
				kill[o->v] = true;
		}
		i = end;
	}
}

static void extend(struct ra_interval *iv, uint32_t at)
{
	if (iv->start == RA_NO_POINT || at < iv->start)
		iv->start = at;
	if (iv->end == RA_NO_POINT || at > iv->end)
		iv->end = at;
}

/* The reference spans by dense round-robin dataflow. */
static void reference(const struct mir_function *fn, const uint32_t *first_ins,
                      struct ra_interval *span)
{
	uint32_t nb = fn->nblocks;
	bool gen[MAX_BLOCKS][NV] = {{0}}, kill[MAX_BLOCKS][NV] = {{0}};
	bool in[MAX_BLOCKS][NV] = {{0}}, out[MAX_BLOCKS][NV] = {{0}};
	for (uint32_t b = 0; b < nb; b++)
		gen_kill(fn, b, gen[b], kill[b]);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = 0; b < nb; b++)
			for (uint32_t v = 0; v < NV; v++) {
				const struct mir_block *bl = &fn->blocks[b];
				bool o = false;
				for (unsigned s = 0; s < bl->nsucc; s++)
					if (!(bl->skip_succ >> s & 1))
						o |= in[bl->succ[s]][v];
				bool i = gen[b][v] || (o && !kill[b][v]);
				changed |= o != out[b][v] || i != in[b][v];
				out[b][v] = o;
				in[b][v] = i;
			}
	}
	for (uint32_t v = 0; v < NV; v++) {
		span[v] = (struct ra_interval){RA_NO_POINT, RA_NO_POINT};
		for (uint32_t b = 0; b < nb; b++) {
			uint32_t start = 2 * first_ins[b];
			uint32_t end =
			        first_ins[b + 1] > first_ins[b] ? 2 * first_ins[b + 1] - 1 : start;
			if (in[b][v])
				extend(&span[v], start);
			if (out[b][v])
				extend(&span[v], end);
		}
	}
}

int main(void)
{
	struct amd_target target;
	char err[200];
	if (!amd_target_parse("gfx1100", &target, err, sizeof err)) {
		fprintf(stderr, "bad target: %s\n", err);
		return 2;
	}
	struct rng r = {0x9e3779b97f4a7c15ull};
	unsigned failures = 0, live_somewhere = 0;
	for (unsigned round = 0; round < ROUNDS; round++) {
		struct pa_arena arena;
		pa_arena_init(&arena);
		struct mir_function fn;
		mir_function_init(&fn, &arena, "live", &target, target.info->default_wave_size);
		build(&fn, &r);
		struct ra_ctx ctx = {.fn = &fn};
		ra_fill_liveness(&ctx);
		struct ra_interval want[NV];
		reference(&fn, ctx.first_ins, want);
		for (uint32_t v = 0; v < NV; v++) {
			live_somewhere += want[v].start != RA_NO_POINT;
			if (want[v].start == ctx.live_span[v].start &&
			    want[v].end == ctx.live_span[v].end)
				continue;
			if (failures++ < 10)
				printf("FAIL: round %u vreg %u: span [%u, %u], dataflow [%u, %u]\n",
				       round, v, ctx.live_span[v].start, ctx.live_span[v].end,
				       want[v].start, want[v].end);
		}
		pa_arena_free(&arena);
	}
	/* the generator must make values live across blocks, or the test proves nothing */
	if (live_somewhere < ROUNDS) {
		printf("FAIL: only %u vregs live across a block boundary\n", live_somewhere);
		failures++;
	}
	printf("liveness: %u functions, %u live spans, %u failures\n", ROUNDS, live_somewhere,
	       failures);
	return failures ? 1 : 0;
}
