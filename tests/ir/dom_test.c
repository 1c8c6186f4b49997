/* Dominators and post-dominators of ir_cfg_compute (Semi-NCA, src/ir/cfg.c) against their
 * definition, on random CFGs (loops, irreducible cycles, unreachable blocks, blocks that
 * never reach a ret) and on a ladder: dom(b) = {b} + the intersection of dom(p) over the
 * reachable predecessors p (a dense data-flow fixpoint), idom(b) = the strict dominator
 * dominated by all the others; the same over the reversed CFG with a virtual exit after
 * every ret for post-dominators (IR_NO_BLOCK for the exit and for blocks without a path to
 * it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

enum { MAXB = 48 };

static unsigned failures;

/* dom[b] as a bit set over MAXB + 1 nodes (node n: the virtual exit) */
typedef uint64_t set_t;

/* Dominator sets over edges into each node: in[b][k], nin[b]; root r; reach[] marks the
 * nodes the root reaches.  Returns idom (NONE = 0xffffffff for the root and unreached). */
static void naive(uint32_t n, uint32_t r, uint32_t in[][MAXB + 1], const uint32_t *nin,
                  const bool *reach, uint32_t *idom)
{
	set_t dom[MAXB + 1];
	set_t all = n >= 64 ? ~0ull : (1ull << n) - 1;
	for (uint32_t b = 0; b < n; b++)
		dom[b] = b == r ? 1ull << r : all;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = 0; b < n; b++) {
			if (b == r || !reach[b])
				continue;
			set_t d = all;
			for (uint32_t k = 0; k < nin[b]; k++)
				if (reach[in[b][k]])
					d &= dom[in[b][k]];
			d |= 1ull << b;
			if (d != dom[b]) {
				dom[b] = d;
				changed = true;
			}
		}
	}
	for (uint32_t b = 0; b < n; b++) {
		idom[b] = 0xffffffffu;
		if (!reach[b] || b == r)
			continue;
		set_t strict = dom[b] & ~(1ull << b);
		for (uint32_t c = 0; c < n; c++) /* the strict dominator all others dominate */
			if ((strict >> c & 1) && (dom[c] & strict) == strict)
				idom[b] = c;
	}
}

static void reach_from(uint32_t n, uint32_t r, uint32_t out[][MAXB + 1], const uint32_t *nout,
                       bool *reach)
{
	uint32_t stack[MAXB + 1], sp = 0;
	memset(reach, 0, (n + 1) * sizeof *reach);
	reach[r] = true;
	stack[sp++] = r;
	while (sp) {
		uint32_t b = stack[--sp];
		for (uint32_t k = 0; k < nout[b]; k++)
			if (!reach[out[b][k]]) {
				reach[out[b][k]] = true;
				stack[sp++] = out[b][k];
			}
	}
}

static void check(struct ir_function *fn, const char *what)
{
	uint32_t n = fn->nblocks;
	static uint32_t fin[MAXB + 1][MAXB + 1], fout[MAXB + 1][MAXB + 1];
	uint32_t nfin[MAXB + 1] = {0}, nfout[MAXB + 1] = {0}, idom[MAXB + 1];
	bool reach[MAXB + 1], rreach[MAXB + 1];
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = 0; k < fn->blocks[b].nsuccs; k++) {
			uint32_t s = fn->blocks[b].succs[k];
			fout[b][nfout[b]++] = s;
			fin[s][nfin[s]++] = b;
		}
	if (!ir_cfg_compute(fn, NULL)) {
		fprintf(stderr, "FAIL %s: ir_cfg_compute\n", what);
		failures++;
		return;
	}
	reach_from(n, 0, fout, nfout, reach);
	naive(n, 0, fin, nfin, reach, idom);
	for (uint32_t b = 0; b < n; b++) {
		uint32_t want = b == 0 ? 0 : idom[b] == 0xffffffffu ? IR_NO_BLOCK : idom[b];
		if (fn->blocks[b].idom != want) {
			fprintf(stderr, "FAIL %s: idom(bb%u) = %u, expected %u\n", what, b,
			        fn->blocks[b].idom, want);
			failures++;
		}
	}
	/* reversed CFG: edges b -> s become s -> b, every ret block gets exit -> b */
	static uint32_t rin[MAXB + 1][MAXB + 1], rout[MAXB + 1][MAXB + 1];
	uint32_t nrin[MAXB + 1] = {0}, nrout[MAXB + 1] = {0};
	for (uint32_t b = 0; b < n; b++) {
		if (!reach[b])
			continue;
		if (fn->blocks[b].nsuccs == 0) {
			rout[n][nrout[n]++] = b;
			rin[b][nrin[b]++] = n;
		}
		for (uint32_t k = 0; k < nfout[b]; k++) {
			uint32_t s = fout[b][k];
			rout[s][nrout[s]++] = b;
			rin[b][nrin[b]++] = s;
		}
	}
	reach_from(n + 1, n, rout, nrout, rreach);
	naive(n + 1, n, rin, nrin, rreach, idom);
	for (uint32_t b = 0; b < n; b++) {
		uint32_t want =
		        !reach[b] || idom[b] == 0xffffffffu || idom[b] == n ? IR_NO_BLOCK : idom[b];
		if (fn->blocks[b].ipdom != want) {
			fprintf(stderr, "FAIL %s: ipdom(bb%u) = %u, expected %u\n", what, b,
			        fn->blocks[b].ipdom, want);
			failures++;
		}
	}
}

/* preds from succs, in block order */
static void fill_preds(struct ir_function *fn)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		fn->blocks[b].preds = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nblocks * 2 + 1);
		fn->blocks[b].npreds = 0;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].nsuccs; k++) {
			struct ir_block *s = &fn->blocks[fn->blocks[b].succs[k]];
			s->preds[s->npreds++] = b;
		}
}

static uint32_t rnd(uint64_t *st, uint32_t n)
{
	*st = *st * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*st >> 33) % n;
}

int main(void)
{
	uint64_t st = 12345;
	for (unsigned t = 0; t < 3000; t++) {
		struct pa_arena arena;
		pa_arena_init(&arena);
		struct ir_function fn = {.arena = &arena, .name = "random"};
		uint32_t n = 1 + rnd(&st, MAXB - 1);
		for (uint32_t b = 0; b < n; b++)
			ir_new_block(&fn);
		for (uint32_t b = 0; b < n; b++) {
			uint32_t kind = rnd(&st, 10);
			if (kind < 2)
				continue; /* ret */
			uint32_t near =
			        b + 1 < n ? b + 1 + rnd(&st, n - b - 1 < 4 ? n - b - 1 : 4) : 0;
			ir_add_edge(&fn, b, kind < 5 ? near : rnd(&st, n));
			if (kind >= 5)
				ir_add_edge(&fn, b, kind < 8 ? near : rnd(&st, n));
		}
		fill_preds(&fn);
		char what[32];
		snprintf(what, sizeof what, "random CFG %u", t);
		check(&fn, what);
		pa_arena_free(&arena);
		if (failures > 20)
			break;
	}
	{ /* a 20-rung ladder: rung i -> case i or rung i+1; odd cases fall into the next */
		struct pa_arena arena;
		pa_arena_init(&arena);
		struct ir_function fn = {.arena = &arena, .name = "ladder"};
		enum { R = 20 };
		for (uint32_t b = 0; b < 2 * R + 1; b++)
			ir_new_block(&fn);
		for (uint32_t i = 0; i < R; i++) {
			ir_add_edge(&fn, i, R + i);
			ir_add_edge(&fn, i, i + 1 < R ? i + 1 : 2 * R);
			ir_add_edge(&fn, R + i, i % 2 && i + 1 < R ? R + i + 1 : 2 * R);
		}
		fill_preds(&fn);
		check(&fn, "ladder");
		pa_arena_free(&arena);
	}
	if (failures) {
		fprintf(stderr, "dom_test: %u failures\n", failures);
		return 1;
	}
	printf("dom_test: all passed\n");
	return 0;
}
