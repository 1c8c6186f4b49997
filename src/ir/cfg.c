/* ir_cfg_compute: the control-flow analyses every later pass reads.
 *
 * - Reverse postorder (iterative DFS from the entry); unreachable blocks are left out.
 * - Dominators and post-dominators: Cooper, Harvey and Kennedy, "A Simple, Fast
 *   Dominance Algorithm" (2001), iterating over reverse postorder of the CFG (of the
 *   reversed CFG with a virtual exit after every `ret` for post-dominators).
 * - Natural loops: an edge u->h whose target dominates its source is a back edge; the
 *   loop of h is h plus every block that reaches u without passing h.  An edge that goes
 *   backwards in reverse postorder to a block that does not dominate its source makes
 *   the CFG irreducible: reported (the execution-model issue adds support).
 * - The linear order the wave will execute: reverse postorder with each loop made
 *   contiguous (its header first), nested loops recursively.  Every edge then goes
 *   forward in the order except loop back edges, which is what the EXEC-mask lowering
 *   of instruction selection needs.
 * requires: preds/succs.  Complexity: O(E) for orders, near-linear dominators,
 * O(sum of loop sizes) for loops. */
#include <string.h>

#include "ir/ir.h"

#define VEXIT 0xfffffffeu

struct cfg_state {
	struct ir_function *fn;
	uint32_t *post;  /* postorder number per block (reverse CFG for post-dominators) */
	uint32_t *order; /* blocks in the order being computed */
	uint32_t norder;
};

/* Iterative DFS postorder over successors (forward) from `root`. */
static uint32_t postorder(struct ir_function *fn, uint32_t *out)
{
	uint32_t n = fn->nblocks, count = 0;
	uint32_t *stack = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint8_t *next = PA_NEW_ARRAY(fn->arena, uint8_t, n);
	uint32_t sp = 0;
	stack[sp++] = 0;
	fn->blocks[0].reachable = true;
	while (sp) {
		uint32_t b = stack[sp - 1];
		struct ir_block *bl = &fn->blocks[b];
		if (next[b] < bl->nsuccs) {
			uint32_t s = bl->succs[next[b]++];
			if (!fn->blocks[s].reachable) {
				fn->blocks[s].reachable = true;
				stack[sp++] = s;
			}
			continue;
		}
		out[count++] = b;
		sp--;
	}
	return count;
}

static uint32_t intersect(const uint32_t *idom, const uint32_t *num, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (num[a] < num[b])
			a = idom[a];
		while (num[b] < num[a])
			b = idom[b];
	}
	return a;
}

static void dominators(struct ir_function *fn, const uint32_t *po, uint32_t npo)
{
	uint32_t n = fn->nblocks;
	uint32_t *num = PA_NEW_ARRAY(fn->arena, uint32_t, n); /* postorder number */
	uint32_t *idom = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	for (uint32_t i = 0; i < n; i++)
		idom[i] = IR_NO_BLOCK;
	for (uint32_t i = 0; i < npo; i++)
		num[po[i]] = i;
	idom[0] = 0;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = npo; k-- > 0;) {
			uint32_t b = po[k];
			if (b == 0)
				continue;
			uint32_t nd = IR_NO_BLOCK;
			const struct ir_block *bl = &fn->blocks[b];
			for (uint32_t p = 0; p < bl->npreds; p++) {
				uint32_t pr = bl->preds[p];
				if (idom[pr] == IR_NO_BLOCK || !fn->blocks[pr].reachable)
					continue;
				nd = nd == IR_NO_BLOCK ? pr : intersect(idom, num, pr, nd);
			}
			if (nd != idom[b]) {
				idom[b] = nd;
				changed = true;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		fn->blocks[i].idom = idom[i];
}

/* Post-dominators over the reversed CFG with a virtual exit (index n) that every block
 * without successors (ret) flows to.  Blocks that cannot reach an exit (infinite loops)
 * get IR_NO_BLOCK. */
static void post_dominators(struct ir_function *fn)
{
	uint32_t n = fn->nblocks, count = 0;
	uint32_t *po = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *num = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *ipd = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint8_t *seen = PA_NEW_ARRAY(fn->arena, uint8_t, n + 1);
	uint32_t *stack = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *next = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	/* DFS over predecessors from the virtual exit: its "children" are the ret blocks. */
	uint32_t sp = 0;
	stack[sp++] = n;
	seen[n] = 1;
	while (sp) {
		uint32_t b = stack[sp - 1];
		uint32_t child = IR_NO_BLOCK;
		if (b == n) {
			while (next[n] < n && child == IR_NO_BLOCK) {
				uint32_t c = next[n]++;
				if (fn->blocks[c].reachable && fn->blocks[c].nsuccs == 0 &&
				    !seen[c])
					child = c;
			}
		} else {
			const struct ir_block *bl = &fn->blocks[b];
			while (next[b] < bl->npreds && child == IR_NO_BLOCK) {
				uint32_t c = bl->preds[next[b]++];
				if (fn->blocks[c].reachable && !seen[c])
					child = c;
			}
		}
		if (child != IR_NO_BLOCK) {
			seen[child] = 1;
			stack[sp++] = child;
			continue;
		}
		num[b] = count;
		po[count++] = b;
		sp--;
	}
	for (uint32_t i = 0; i <= n; i++)
		ipd[i] = IR_NO_BLOCK;
	ipd[n] = n;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = count; k-- > 0;) {
			uint32_t b = po[k];
			if (b == n)
				continue;
			const struct ir_block *bl = &fn->blocks[b];
			uint32_t nd = IR_NO_BLOCK;
			if (bl->nsuccs == 0)
				nd = n;
			for (uint32_t s = 0; s < bl->nsuccs; s++) {
				uint32_t sc = bl->succs[s];
				if (!seen[sc] || ipd[sc] == IR_NO_BLOCK)
					continue;
				nd = nd == IR_NO_BLOCK ? sc : intersect(ipd, num, sc, nd);
			}
			if (nd != IR_NO_BLOCK && nd != ipd[b]) {
				ipd[b] = nd;
				changed = true;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		fn->blocks[i].ipdom = (ipd[i] == n || !seen[i]) ? IR_NO_BLOCK : ipd[i];
}

bool ir_dominates(const struct ir_function *fn, uint32_t b1, uint32_t b2)
{
	while (b2 != b1) {
		uint32_t up = fn->blocks[b2].idom;
		if (up == b2 || up == IR_NO_BLOCK)
			return false;
		b2 = up;
	}
	return true;
}

bool ir_in_loop(const struct ir_function *fn, uint32_t b, uint32_t l)
{
	for (uint32_t k = fn->blocks[b].loop; k != IR_NO_LOOP; k = fn->loops[k].parent)
		if (k == l)
			return true;
	return false;
}

/* Finds natural loops; false on an irreducible edge. */
static bool find_loops(struct ir_function *fn, struct pa_diag *d)
{
	uint32_t n = fn->nblocks;
	uint32_t *body = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *mark = PA_NEW_ARRAY(fn->arena, uint32_t, n); /* loop index + 1 being built */
	uint32_t *size = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t **members = PA_NEW_ARRAY(fn->arena, uint32_t *, n);
	fn->loops = PA_NEW_ARRAY(fn->arena, struct ir_loop, n);
	fn->nloops = 0;
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t h = fn->rpo_order[k];
		const struct ir_block *hb = &fn->blocks[h];
		uint32_t nb = 0;
		uint32_t l = fn->nloops;
		for (uint32_t p = 0; p < hb->npreds; p++) {
			uint32_t u = hb->preds[p];
			if (!fn->blocks[u].reachable || fn->blocks[u].rpo < hb->rpo)
				continue;
			if (!ir_dominates(fn, h, u)) {
				const struct ir_insn *t =
				        &fn->blocks[u].insns[fn->blocks[u].ninsns - 1];
				pa_diag_report(d, PA_DIAG_ERROR, fn->file, t->line,
				               t->col ? t->col : 1, NULL, 0,
				               "irreducible control flow (a loop with two entries) "
				               "in '%s' "
				               "is not supported by the code generator yet",
				               fn->name);
				return false;
			}
			if (nb == 0) {
				body[nb++] = h;
				mark[h] = l + 1;
			}
			if (mark[u] != l + 1) {
				mark[u] = l + 1;
				body[nb++] = u;
			}
		}
		if (!nb)
			continue;
		for (uint32_t i = 1; i < nb; i++) { /* grow backwards from the latches */
			const struct ir_block *bl = &fn->blocks[body[i]];
			for (uint32_t p = 0; p < bl->npreds; p++) {
				uint32_t q = bl->preds[p];
				if (fn->blocks[q].reachable && mark[q] != l + 1) {
					mark[q] = l + 1;
					body[nb++] = q;
				}
			}
		}
		fn->loops[l] = (struct ir_loop){.header = h, .parent = IR_NO_LOOP};
		members[l] = PA_NEW_ARRAY(fn->arena, uint32_t, nb);
		memcpy(members[l], body, nb * sizeof *body);
		size[l] = nb;
		fn->nloops++;
	}
	/* Loops found by header in RPO: an outer loop's header comes first, so assigning
	 * in this order leaves every block with its innermost loop. */
	for (uint32_t l = 0; l < fn->nloops; l++) {
		uint32_t h = fn->loops[l].header;
		fn->loops[l].parent = fn->blocks[h].loop;
		fn->loops[l].depth = fn->loops[l].parent == IR_NO_LOOP
		                             ? 1
		                             : fn->loops[fn->loops[l].parent].depth + 1;
		for (uint32_t i = 0; i < size[l]; i++)
			fn->blocks[members[l][i]].loop = l;
	}
	return true;
}

/* Emits the blocks of loop `l` (or the top level, l == IR_NO_LOOP) in linear order. */
static void emit_region(struct ir_function *fn, uint32_t **lists, const uint32_t *nlist, uint32_t l,
                        uint32_t *out, uint32_t *nout)
{
	/* An explicit stack of (list, position) keeps deep loop nests off the C stack. */
	uint32_t depth = 0, cap = fn->nloops + 1;
	uint32_t *stk_l = PA_NEW_ARRAY(fn->arena, uint32_t, cap);
	uint32_t *stk_i = PA_NEW_ARRAY(fn->arena, uint32_t, cap);
	stk_l[0] = l == IR_NO_LOOP ? fn->nloops : l;
	stk_i[0] = 0;
	depth = 1;
	while (depth) {
		uint32_t cur = stk_l[depth - 1];
		if (stk_i[depth - 1] == nlist[cur]) {
			depth--;
			continue;
		}
		uint32_t e = lists[cur][stk_i[depth - 1]++];
		if (e & 0x80000000u) {
			stk_l[depth] = e & 0x7fffffffu;
			stk_i[depth] = 0;
			depth++;
		} else {
			out[(*nout)++] = e;
		}
	}
}

static void linear_order(struct ir_function *fn)
{
	uint32_t nl = fn->nloops;
	uint32_t **lists = PA_NEW_ARRAY(fn->arena, uint32_t *, nl + 1);
	uint32_t *nlist = PA_NEW_ARRAY(fn->arena, uint32_t, nl + 1);
	uint32_t *cap = PA_NEW_ARRAY(fn->arena, uint32_t, nl + 1);
	/* Sizes first: each block goes to its innermost loop's list (top level: index nl);
	 * each loop header also puts a marker into its parent's list. */
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t b = fn->rpo_order[k], l = fn->blocks[b].loop;
		cap[l == IR_NO_LOOP ? nl : l]++;
		if (l != IR_NO_LOOP && fn->loops[l].header == b) {
			uint32_t p = fn->loops[l].parent;
			cap[p == IR_NO_LOOP ? nl : p]++;
		}
	}
	for (uint32_t i = 0; i <= nl; i++)
		lists[i] = PA_NEW_ARRAY(fn->arena, uint32_t, cap[i] ? cap[i] : 1);
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t b = fn->rpo_order[k], l = fn->blocks[b].loop;
		if (l != IR_NO_LOOP && fn->loops[l].header == b) {
			uint32_t p = fn->loops[l].parent;
			uint32_t pi = p == IR_NO_LOOP ? nl : p;
			lists[pi][nlist[pi]++] = 0x80000000u | l;
		}
		uint32_t li = l == IR_NO_LOOP ? nl : l;
		lists[li][nlist[li]++] = b;
	}
	fn->linear_order = PA_NEW_ARRAY(fn->arena, uint32_t, fn->norder ? fn->norder : 1);
	uint32_t nout = 0;
	emit_region(fn, lists, nlist, IR_NO_LOOP, fn->linear_order, &nout);
	for (uint32_t i = 0; i < nout; i++) {
		uint32_t b = fn->linear_order[i];
		fn->blocks[b].linear_pos = i;
		for (uint32_t l = fn->blocks[b].loop; l != IR_NO_LOOP; l = fn->loops[l].parent)
			fn->loops[l].last = b; /* increasing positions: the last write wins */
	}
}

bool ir_cfg_compute(struct ir_function *fn, struct pa_diag *d)
{
	uint32_t n = fn->nblocks;
	for (uint32_t i = 0; i < n; i++) {
		struct ir_block *b = &fn->blocks[i];
		b->reachable = false;
		b->loop = IR_NO_LOOP;
		b->idom = b->ipdom = IR_NO_BLOCK;
	}
	uint32_t *po = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t npo = postorder(fn, po);
	fn->rpo_order = PA_NEW_ARRAY(fn->arena, uint32_t, npo ? npo : 1);
	for (uint32_t i = 0; i < npo; i++) {
		fn->rpo_order[i] = po[npo - 1 - i];
		fn->blocks[po[npo - 1 - i]].rpo = i;
	}
	fn->norder = npo;
	dominators(fn, po, npo);
	post_dominators(fn);
	if (!find_loops(fn, d))
		return false;
	linear_order(fn);
	fn->cfg_valid = true;
	return true;
}
