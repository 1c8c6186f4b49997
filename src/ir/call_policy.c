/* ir_build, part 4: which direct calls that are not recursive become real calls.
 *
 * inline.c inlines every call by default.  A function is instead compiled on its own and
 * called (docs/CALLS.md) when inlining it would copy a big body several times:
 *
 *   size(f)  = statements of f's body plus size(g) for each call statement of a function g
 *              in it (a recursive call counts 0: it is a real call anyway) -- the statements
 *              inlining f walks;
 *   sites(f) = call statements naming f in the body being compiled (the kernel, or a
 *              function compiled on its own) and in the bodies of every function it
 *              reaches, each body counted once -- at least how many copies of f inlining
 *              makes;
 *
 * and a call is real when size(f) >= REAL_CALL_STMTS and sites(f) >= 2 (IR_INLINE_AUTO).
 * --inline-all (IR_INLINE_ALL) keeps today's inlining of everything that is not
 * recursive; --no-inline (IR_INLINE_NONE) makes every call a real call.  Either way a
 * function in fn->inline_only (the driver found it cannot be compiled on its own) and a
 * call whose operands real calls cannot pass (inline.c checks) are inlined: the policy
 * never turns a kernel that compiles into an error.  A call that inlining would take past
 * the builder's limits (inline.c: statements, instances, depth) is also made a real call,
 * except under --inline-all, where it stays the error it was.
 *
 * The threshold, measured with bench/calls_policy.py (a function of S straight-line
 * statements called from K sites; gfx90a; .text bytes, CPU ms, cycles amdsim models for one
 * wave; inlined / real):
 *
 *      S    K   bytes           ms          cycles
 *    200    2   4736 / 3392     3.2 / 2.6    2311 /  9481
 *    500    2  10368 / 6144     5.1 / 4.1    5711 / 12881
 *   1000    2  19712 / 10816    8.9 / 6.4   11389 / 18559
 *   1000    4  38336 / 10944   13.7 / 6.5   22677 / 36209
 *
 * Inlining grows code and compile time as S*K; a real call costs ~300 bytes once (the
 * callee's prologue/epilogue) plus ~60 per site, but ~3.4k modelled cycles per call (the
 * arguments, saved registers and results go through scratch, and a wave alone waits for
 * each round trip; other waves hide part of it on hardware).  At 1000 statements and 2
 * sites the code is 45% smaller and compiles 28% faster, and a call costs about a third of
 * running the function; below that the run-time price outweighs the savings, hence
 * REAL_CALL_STMTS = 1000 (with K >= 2: one site is never smaller as a call).
 *   requires: the builder's state (build.c).  Complexity: each function body is scanned
 *   once per build (memoised in b->call_size / b->call_sites). */
#include "ir/build_int.h"

enum {
	REAL_CALL_STMTS = 1000, /* size(f) from which a function called from 2+ sites is real */
	SIZE_CAP = 1u << 24,    /* sizes saturate here */
	IN_PROGRESS = UINT32_MAX,
};

static uint64_t sym_key(const struct ptx_symbol *s)
{
	return (uint64_t)(uintptr_t)s;
}

/* The callee a direct call names, or NULL (indirect calls, and other instructions). */
static const struct ptx_symbol *direct_callee(const struct ptx_stmt *st)
{
	if (st->kind != PTX_STMT_INSN || st->u.insn->op != PTX_OP_CALL)
		return NULL;
	const struct ptx_insn *in = st->u.insn;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_REG)
			return NULL;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_SYM && in->opnds[i].sym->kind == PTX_SYM_FUNC)
			return in->opnds[i].sym;
	return NULL;
}

static uint32_t size_of(struct irb *b, const struct ptx_symbol *fs, unsigned depth)
{
	uint32_t n;
	if (irb_map_get(&b->call_size, sym_key(fs), &n))
		return n == IN_PROGRESS ? 0 : n;
	const struct ptx_function *body = ir_funclib_find(b->lib, fs);
	if (!body || depth > IR_MAX_CALL_DEPTH)
		return 0;
	irb_map_put(&b->call_size, b->arena, sym_key(fs), IN_PROGRESS);
	uint64_t total = body->nstmts;
	for (uint32_t i = 0; i < body->nstmts && total < SIZE_CAP; i++) {
		const struct ptx_symbol *g = direct_callee(&body->stmts[i]);
		if (g)
			total += size_of(b, g, depth + 1);
	}
	n = total < SIZE_CAP ? (uint32_t)total : SIZE_CAP;
	irb_map_put(&b->call_size, b->arena, sym_key(fs), n);
	return n;
}

/* Counts the call sites in `body` and, once each, in the bodies it reaches.  Keys: a
 * callee's symbol -> its sites; the symbol + 1 (symbols are aligned) -> body visited. */
static void count_sites(struct irb *b, const struct ptx_function *body, unsigned depth)
{
	if (depth > IR_MAX_CALL_DEPTH)
		return;
	for (uint32_t i = 0; i < body->nstmts; i++) {
		const struct ptx_symbol *g = direct_callee(&body->stmts[i]);
		if (!g)
			continue;
		uint32_t n = 0;
		irb_map_get(&b->call_sites, sym_key(g), &n);
		irb_map_put(&b->call_sites, b->arena, sym_key(g), n + 1);
		if (irb_map_get(&b->call_sites, sym_key(g) + 1, &n))
			continue;
		irb_map_put(&b->call_sites, b->arena, sym_key(g) + 1, 1);
		const struct ptx_function *gb = ir_funclib_find(b->lib, g);
		if (gb)
			count_sites(b, gb, depth + 1);
	}
}

bool irb_policy_real_call(struct irb *b, const struct ptx_symbol *fs, uint32_t *stmts,
                          uint32_t *sites)
{
	const struct ir_function *fn = b->fn;
	if (fn->inline_mode == IR_INLINE_ALL || !b->lib)
		return false;
	for (uint32_t i = 0; i < fn->ninline_only; i++)
		if (fn->inline_only[i] == fs)
			return false;
	if (!b->sites_counted && b->root) {
		b->sites_counted = true;
		irb_map_put(&b->call_sites, b->arena, sym_key(b->root->sym) + 1, 1);
		count_sites(b, b->root, 0);
	}
	*stmts = size_of(b, fs, 0);
	*sites = 0;
	irb_map_get(&b->call_sites, sym_key(fs), sites);
	if (!*sites)
		*sites = 1; /* (a call the scan did not see: deeper than it looks) */
	if (fn->inline_mode == IR_INLINE_NONE)
		return true;
	return *stmts >= REAL_CALL_STMTS && *sites >= 2;
}
