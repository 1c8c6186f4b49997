/* ir_remove_phi_cycles: redundant phi cycles (Braun et al., "Simple and Efficient
 * Construction of Static Single Assignment Form", CC 2013, section 3.2).
 *
 * SSA construction removes trivial phis (all operands one value or the phi itself), but
 * in an irreducible loop a value the loop does not change still gets a phi at each entry,
 * each reading the other: p = phi(x, q), q = phi(x, p).  Neither is trivial on its own,
 * yet both are x.  In general: take the strongly connected components of the graph whose
 * nodes are the phis and whose edges go from a phi to its phi operands; an SCC whose
 * operands from outside it are all one value v is v throughout.  An SCC with several
 * outside operands may still hold a smaller redundant web: its *inner* phis (all of whose
 * operands are in the SCC) are searched again the same way.  Tarjan's algorithm yields
 * SCCs operands first, so each SCC sees the replacements of the ones it reads.  Then every
 * operand of the function is rewritten to its replacement; the replaced phis are left
 * without uses, for dead code elimination.
 * requires: phi operands in preds order (none of the CFG analyses).
 * breaks: nothing (the replaced phis' uniformity flags are moot).
 * Complexity: O(phis + phi operands) per level of inner search (levels are capped), plus
 * one pass over all operands. */
#include "ir/ir.h"

#define NONE 0xffffffffu
enum { MAX_DEPTH = 32 }; /* inner searches nested deeper: left as they are (a cap) */

struct pc {
	struct ir_function *fn;
	ir_ref *repl;                /* per value: its replacement (itself when none) */
	uint32_t *phi;               /* per value: its index in phis, or NONE */
	const struct ir_insn **phis; /* the phis of the function */
	uint32_t *nargs;             /* per phi: its operand count (its block's preds) */
	uint32_t nphis;
	/* Tarjan, per phi: in the current search when stamp == the search's stamp */
	uint32_t *stamp, *index, *low, *next, *scc_of;
	bool *on_stack;
	uint32_t *stack, *dfs;
	uint32_t cur_stamp, nsccs;
	unsigned replaced;
};

static ir_ref find(const struct pc *c, ir_ref r)
{
	while (r != IR_NO_REF && c->repl[r] != r)
		r = c->repl[r];
	return r;
}

/* The phi index of value r, or NONE. */
static uint32_t phi_of(const struct pc *c, ir_ref r)
{
	return r < c->fn->nvals ? c->phi[r] : NONE;
}

/* The phi operand k of phi i is, if it is a phi of the search `member`. */
static uint32_t edge(const struct pc *c, uint32_t i, uint32_t k, uint32_t member)
{
	uint32_t j = phi_of(c, find(c, c->phis[i]->phi_args[k]));
	return j != NONE && c->stamp[j] == member ? j : NONE;
}

static void push(struct pc *c, uint32_t v, uint32_t *counter, uint32_t *sp)
{
	c->index[v] = c->low[v] = (*counter)++;
	c->next[v] = 0;
	c->stack[(*sp)++] = v;
	c->on_stack[v] = true;
}

/* Tarjan's SCCs (iterative) of the phis nodes[0..n-1]: order[] gets them SCC by SCC,
 * operands first, SCC s at order[start[s] .. start[s + 1]); returns their number. */
static uint32_t tarjan(struct pc *c, const uint32_t *nodes, uint32_t n, uint32_t *order,
                       uint32_t *start)
{
	uint32_t member = ++c->cur_stamp, counter = 0, sp = 0, nout = 0, ns = 0;
	for (uint32_t k = 0; k < n; k++) {
		c->stamp[nodes[k]] = member;
		c->index[nodes[k]] = NONE;
	}
	for (uint32_t r = 0; r < n; r++) {
		if (c->index[nodes[r]] != NONE)
			continue;
		uint32_t top = 0;
		c->dfs[top++] = nodes[r];
		push(c, nodes[r], &counter, &sp);
		while (top) {
			uint32_t v = c->dfs[top - 1];
			if (c->next[v] < c->nargs[v]) {
				uint32_t w = edge(c, v, c->next[v]++, member);
				if (w != NONE && c->index[w] == NONE) {
					push(c, w, &counter, &sp);
					c->dfs[top++] = w;
				} else if (w != NONE && c->on_stack[w] && c->index[w] < c->low[v]) {
					c->low[v] = c->index[w];
				}
				continue;
			}
			top--;
			if (top && c->low[v] < c->low[c->dfs[top - 1]])
				c->low[c->dfs[top - 1]] = c->low[v];
			if (c->low[v] != c->index[v])
				continue;
			start[ns++] = nout;
			uint32_t x, id = c->nsccs++;
			do {
				x = c->stack[--sp];
				c->on_stack[x] = false;
				c->scc_of[x] = id;
				order[nout++] = x;
			} while (x != v);
		}
	}
	start[ns] = nout;
	return ns;
}

static void search(struct pc *c, const uint32_t *nodes, uint32_t n, unsigned depth);

/* One SCC, the phis scc[0..n-1]: replaced when its outside operands are one value, else
 * its inner phis are searched (moved to the front of scc). */
static void process_scc(struct pc *c, uint32_t *scc, uint32_t n, unsigned depth)
{
	uint32_t id = c->scc_of[scc[0]], ninner = 0;
	ir_ref outer = IR_NO_REF;
	bool several = false;
	for (uint32_t s = 0; s < n; s++) {
		uint32_t i = scc[s];
		bool inner = true;
		for (uint32_t k = 0; k < c->nargs[i]; k++) {
			ir_ref a = find(c, c->phis[i]->phi_args[k]);
			uint32_t j = phi_of(c, a);
			if (j != NONE && c->scc_of[j] == id)
				continue; /* ids are unique: j was found in this SCC */
			inner = false;
			several |= outer != IR_NO_REF && a != outer;
			outer = a;
		}
		if (inner)
			scc[ninner++] = i;
	}
	if (outer != IR_NO_REF && !several) {
		for (uint32_t s = 0; s < n; s++)
			c->repl[c->phis[scc[s]]->res] = outer;
		c->replaced += n;
	} else if (several && ninner && depth < MAX_DEPTH) {
		search(c, scc, ninner, depth + 1);
	}
}

static void search(struct pc *c, const uint32_t *nodes, uint32_t n, unsigned depth)
{
	struct pa_arena *a = c->fn->arena;
	uint32_t *order = PA_NEW_ARRAY(a, uint32_t, n), *start = PA_NEW_ARRAY(a, uint32_t, n + 1);
	uint32_t ns = tarjan(c, nodes, n, order, start);
	for (uint32_t s = 0; s < ns; s++)
		process_scc(c, order + start[s], start[s + 1] - start[s], depth);
}

static void collect_phis(struct pc *c)
{
	struct ir_function *fn = c->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->op != IR_PHI || in->res == IR_NO_REF)
				continue;
			c->phi[in->res] = c->nphis;
			c->phis[c->nphis] = in;
			c->nargs[c->nphis++] = fn->blocks[b].npreds;
		}
}

static void rewrite(struct pc *c)
{
	struct ir_function *fn = c->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			uint32_t n = in->op == IR_PHI ? bl->npreds : in->nargs;
			ir_ref *args = in->op == IR_PHI ? in->phi_args : in->args;
			for (uint32_t k = 0; k < n; k++)
				if (args[k] != IR_NO_REF)
					args[k] = find(c, args[k]);
		}
	}
}

unsigned ir_remove_phi_cycles(struct ir_function *fn)
{
	struct pa_arena *a = fn->arena;
	uint32_t nphis = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0;
		     i < fn->blocks[b].ninsns && fn->blocks[b].insns[i].op == IR_PHI; i++)
			nphis++;
	if (nphis < 2)
		return 0;
	struct pc c = {.fn = fn};
	c.repl = PA_NEW_ARRAY(a, ir_ref, fn->nvals + 1);
	c.phi = PA_NEW_ARRAY(a, uint32_t, fn->nvals + 1);
	for (uint32_t v = 0; v < fn->nvals; v++) {
		c.repl[v] = v;
		c.phi[v] = NONE;
	}
	c.phis = PA_NEW_ARRAY(a, const struct ir_insn *, nphis);
	c.nargs = PA_NEW_ARRAY(a, uint32_t, nphis);
	collect_phis(&c);
	c.stamp = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.index = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.low = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.next = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.scc_of = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.on_stack = PA_NEW_ARRAY(a, bool, c.nphis);
	c.stack = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	c.dfs = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	uint32_t *all = PA_NEW_ARRAY(a, uint32_t, c.nphis);
	for (uint32_t k = 0; k < c.nphis; k++)
		all[k] = k;
	search(&c, all, c.nphis, 0);
	if (c.replaced)
		rewrite(&c);
	return c.replaced;
}
