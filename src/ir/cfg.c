/* ir_cfg_compute: the control-flow analyses every later pass reads.
 *
 * - Reverse postorder (iterative DFS from the entry); unreachable blocks are left out.
 * - Dominators and post-dominators: Semi-NCA (Georgiadis 2005; see semi_nca) over the DFS
 *   of the CFG (of the reversed CFG with a virtual exit after every `ret` for
 *   post-dominators).
 * - Loops, reducible or not: Havlak, "Nesting of Reducible and Irreducible Loops" (TOPLAS
 *   1997), over the DFS tree of the postorder.  Every retreating edge v->w (w a DFS ancestor
 *   of v) makes w a loop header; its loop is w plus the blocks of w's DFS subtree that reach
 *   such a v without passing w (inner loops collapsed into their headers by union-find).  A
 *   loop entered from outside at a block other than its header is irreducible: the header is
 *   then simply its entry that comes first in the DFS, and the other entries are ordinary
 *   forward edges in reverse postorder (an edge into a DFS subtree from outside it is a cross
 *   or forward edge).  For a reducible CFG these are exactly the natural loops.
 * - The linear order the wave will execute: reverse postorder with each loop made
 *   contiguous (its header first), nested loops recursively.  Every edge then goes
 *   forward in the order except retreating edges, and each of those goes to the header of
 *   a loop containing its source: what the EXEC-mask lowering of instruction selection
 *   needs (isel/cflow.c), irreducible loops included.
 * requires: preds/succs.  Complexity: O(E) for orders, O(E log V) dominators, near-linear loops
 * (union-find; an irreducible loop re-lists its entry edges at each enclosing level). */
#include <string.h>

#include "ir/ir.h"

#define VEXIT 0xfffffffeu

struct cfg_state {
	struct ir_function *fn;
	uint32_t *post;  /* postorder number per block (reverse CFG for post-dominators) */
	uint32_t *order; /* blocks in the order being computed */
	uint32_t norder;
};

/* Iterative DFS postorder over successors from the entry; also the DFS tree as preorder
 * numbers (pre), blocks by preorder number (by_pre), the highest preorder number in each
 * block's subtree (lastd) and each block's tree parent. */
static uint32_t postorder(struct ir_function *fn, uint32_t *out, uint32_t *pre, uint32_t *by_pre,
                          uint32_t *lastd, uint32_t *parent)
{
	uint32_t n = fn->nblocks, count = 0;
	uint32_t *stack = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint8_t *next = PA_NEW_ARRAY(fn->arena, uint8_t, n);
	uint32_t sp = 0, npre = 0;
	stack[sp++] = 0;
	fn->blocks[0].reachable = true;
	pre[0] = npre;
	by_pre[npre++] = 0;
	while (sp) {
		uint32_t b = stack[sp - 1];
		struct ir_block *bl = &fn->blocks[b];
		if (next[b] < bl->nsuccs) {
			uint32_t s = bl->succs[bl->nsuccs - 1 - next[b]++];
			if (!fn->blocks[s].reachable) {
				fn->blocks[s].reachable = true;
				parent[s] = b;
				pre[s] = npre;
				by_pre[npre++] = s;
				stack[sp++] = s;
			}
			continue;
		}
		lastd[b] = npre - 1;
		out[count++] = b;
		sp--;
	}
	return count;
}

/* Semi-NCA (Georgiadis, "Linear-Time Algorithms for Dominators and Related Problems",
 * 2005): semidominators from a DFS by path-compressed evaluation (Lengauer-Tarjan's first
 * half), then each vertex's idom is the nearest ancestor of its DFS parent, in the tree
 * built so far (preorder), not below its semidominator.  Nodes 0..n-1; the DFS is given as
 * vertex[0..nv-1] in preorder (vertex[0] the root) with parent[]; preds_of/npreds are the
 * edges into each node.  idom[v]: its immediate dominator (root: itself; not in the DFS:
 * IR_NO_BLOCK).  O(E log V); unlike the iterative algorithm, no walk up long idom chains
 * per edge (a 16000-rung ladder's join has 8000 predecessors 8000 rungs deep). */
struct dom_graph {
	uint32_t n, nv;
	const uint32_t *vertex, *parent;
	const uint32_t *const *preds_of;
	const uint32_t *npreds;
};

struct dom_work {
	uint32_t *pre, *semi, *label, *anc, *stack;
};

/* The vertex of smallest semidominator on the linked path above v (v itself if unlinked). */
static uint32_t eval(struct dom_work *w, uint32_t v)
{
	if (w->anc[v] == IR_NO_BLOCK)
		return v;
	uint32_t sp = 0, u = v;
	while (w->anc[w->anc[u]] != IR_NO_BLOCK) {
		w->stack[sp++] = u;
		u = w->anc[u];
	}
	while (sp) { /* compress, top of the path first */
		u = w->stack[--sp];
		uint32_t a = w->anc[u];
		if (w->semi[w->label[a]] < w->semi[w->label[u]])
			w->label[u] = w->label[a];
		w->anc[u] = w->anc[a];
	}
	return w->label[v];
}

static void semi_nca(struct pa_arena *arena, const struct dom_graph *g, uint32_t *idom)
{
	struct dom_work w = {
	        .pre = PA_NEW_ARRAY(arena, uint32_t, g->n),
	        .semi = PA_NEW_ARRAY(arena, uint32_t, g->n),
	        .label = PA_NEW_ARRAY(arena, uint32_t, g->n),
	        .anc = PA_NEW_ARRAY(arena, uint32_t, g->n),
	        .stack = PA_NEW_ARRAY(arena, uint32_t, g->nv + 1),
	};
	for (uint32_t v = 0; v < g->n; v++) {
		w.pre[v] = w.anc[v] = idom[v] = IR_NO_BLOCK;
		w.label[v] = v;
	}
	for (uint32_t i = 0; i < g->nv; i++)
		w.pre[g->vertex[i]] = w.semi[g->vertex[i]] = i;
	for (uint32_t i = g->nv; i-- > 1;) {
		uint32_t v = g->vertex[i];
		for (uint32_t k = 0; k < g->npreds[v]; k++) {
			uint32_t u = g->preds_of[v][k];
			if (w.pre[u] == IR_NO_BLOCK)
				continue; /* not in the DFS: no path from the root */
			uint32_t e = w.semi[eval(&w, u)];
			if (e < w.semi[v])
				w.semi[v] = e;
		}
		w.anc[v] = g->parent[v]; /* link */
	}
	idom[g->vertex[0]] = g->vertex[0];
	for (uint32_t i = 1; i < g->nv; i++) {
		uint32_t v = g->vertex[i], x = g->parent[v];
		while (w.pre[x] > w.semi[v])
			x = idom[x];
		idom[v] = x;
	}
}

static void dominators(struct ir_function *fn, const uint32_t *by_pre, const uint32_t *parent,
                       uint32_t npre)
{
	uint32_t n = fn->nblocks;
	const uint32_t **preds_of = PA_NEW_ARRAY(fn->arena, const uint32_t *, n);
	uint32_t *npreds = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *idom = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	for (uint32_t b = 0; b < n; b++) {
		preds_of[b] = fn->blocks[b].preds;
		npreds[b] = fn->blocks[b].npreds;
	}
	struct dom_graph g = {n, npre, by_pre, parent, preds_of, npreds};
	semi_nca(fn->arena, &g, idom);
	for (uint32_t i = 0; i < n; i++)
		fn->blocks[i].idom = idom[i];
}

/* Post-dominators over the reversed CFG with a virtual exit (index n) that every block
 * without successors (ret) flows to.  Blocks that cannot reach an exit (infinite loops)
 * get IR_NO_BLOCK. */
static void post_dominators(struct ir_function *fn)
{
	uint32_t n = fn->nblocks, npre = 0;
	uint32_t *by_pre = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *parent = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *ipd = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint8_t *seen = PA_NEW_ARRAY(fn->arena, uint8_t, n + 1);
	uint32_t *stack = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *next = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	/* DFS over predecessors from the virtual exit: its "children" are the ret blocks. */
	uint32_t sp = 0;
	stack[sp++] = n;
	seen[n] = 1;
	by_pre[npre++] = n;
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
			parent[child] = b;
			by_pre[npre++] = child;
			stack[sp++] = child;
			continue;
		}
		sp--;
	}
	/* edges of the reversed CFG into b: b's successors, or the exit for a ret */
	const uint32_t **preds_of = PA_NEW_ARRAY(fn->arena, const uint32_t *, n + 1);
	uint32_t *npreds = PA_NEW_ARRAY(fn->arena, uint32_t, n + 1);
	uint32_t *exit_id = PA_NEW(fn->arena, uint32_t);
	*exit_id = n;
	for (uint32_t b = 0; b < n; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		preds_of[b] = bl->nsuccs ? bl->succs : exit_id;
		npreds[b] = bl->nsuccs ? bl->nsuccs : 1;
	}
	struct dom_graph g = {n + 1, npre, by_pre, parent, preds_of, npreds};
	semi_nca(fn->arena, &g, ipd);
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

/* Havlak's loop finding (see the header comment).  pre/lastd: the DFS tree of
 * postorder(), as preorder numbers and the highest preorder number in each subtree. */
struct havlak {
	struct ir_function *fn;
	const uint32_t *pre, *lastd;
	uint32_t *uf;   /* union-find: collapsed blocks point towards their loop header */
	uint32_t *hdr;  /* innermost loop header of a block (IR_NO_BLOCK: none) */
	uint32_t *mark; /* stamp: block in the loop being collected */
	uint32_t *pool; /* the loop being collected (representatives) */
	struct entry_edge **extra; /* entries into a collapsed loop from outside it */
	bool *is_header, *irreducible;
};

struct entry_edge {
	uint32_t from;
	struct entry_edge *next;
};

static bool is_ancestor(const struct havlak *h, uint32_t w, uint32_t v)
{
	return h->pre[w] <= h->pre[v] && h->pre[v] <= h->lastd[w];
}

static uint32_t find(struct havlak *h, uint32_t b)
{
	uint32_t r = b;
	while (h->uf[r] != r)
		r = h->uf[r];
	while (h->uf[b] != r) { /* path compression */
		uint32_t up = h->uf[b];
		h->uf[b] = r;
		b = up;
	}
	return r;
}

/* Adds the representative of y, a predecessor of a block of w's loop that is not a back
 * edge, to the pool; or, outside w's DFS subtree, records an entry into w's loop. */
static void collect_pred(struct havlak *h, uint32_t w, uint32_t y, uint32_t *np)
{
	uint32_t r = find(h, y);
	if (!is_ancestor(h, w, r)) {
		struct entry_edge *e = PA_NEW(h->fn->arena, struct entry_edge);
		*e = (struct entry_edge){r, h->extra[w]};
		h->extra[w] = e;
		h->irreducible[w] = true;
	} else if (r != w && h->mark[r] != w + 1) {
		h->mark[r] = w + 1;
		h->pool[(*np)++] = r;
	}
}

/* Collects the loop headed by w (its blocks and collapsed inner loops) into h->pool. */
static uint32_t collect_loop(struct havlak *h, uint32_t w, bool *self)
{
	struct ir_function *fn = h->fn;
	const struct ir_block *wb = &fn->blocks[w];
	uint32_t np = 0;
	for (uint32_t p = 0; p < wb->npreds; p++) {
		uint32_t v = wb->preds[p];
		if (!fn->blocks[v].reachable || !is_ancestor(h, w, v))
			continue;
		if (v == w) {
			*self = true;
			continue;
		}
		uint32_t r = find(h, v);
		if (h->mark[r] != w + 1) {
			h->mark[r] = w + 1;
			h->pool[np++] = r;
		}
	}
	for (uint32_t i = 0; i < np; i++) {
		uint32_t x = h->pool[i];
		const struct ir_block *xb = &fn->blocks[x];
		for (uint32_t p = 0; p < xb->npreds; p++) {
			uint32_t y = xb->preds[p];
			if (fn->blocks[y].reachable && !is_ancestor(h, x, y))
				collect_pred(h, w, y, &np);
		}
		for (struct entry_edge *e = h->extra[x]; e; e = e->next)
			collect_pred(h, w, e->from, &np);
	}
	return np;
}

/* Numbers the loops by their headers in reverse postorder (an enclosing loop's header
 * comes first) and gives every block its innermost loop. */
static void number_loops(struct ir_function *fn, const struct havlak *h)
{
	uint32_t *index = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nblocks);
	fn->loops = PA_NEW_ARRAY(fn->arena, struct ir_loop, fn->nblocks);
	fn->nloops = 0;
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t b = fn->rpo_order[k];
		if (!h->is_header[b])
			continue;
		uint32_t l = fn->nloops++, up = h->hdr[b];
		index[b] = l;
		uint32_t parent = up == IR_NO_BLOCK ? IR_NO_LOOP : index[up];
		fn->loops[l] = (struct ir_loop){
		        .header = b,
		        .parent = parent,
		        .depth = parent == IR_NO_LOOP ? 1 : fn->loops[parent].depth + 1,
		        .irreducible = h->irreducible[b],
		};
	}
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t b = fn->rpo_order[k];
		if (h->is_header[b])
			fn->blocks[b].loop = index[b];
		else if (h->hdr[b] != IR_NO_BLOCK)
			fn->blocks[b].loop = index[h->hdr[b]];
	}
}

static void find_loops(struct ir_function *fn, const uint32_t *pre, const uint32_t *lastd,
                       const uint32_t *by_pre)
{
	uint32_t n = fn->nblocks;
	struct havlak h = {.fn = fn, .pre = pre, .lastd = lastd};
	h.uf = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	h.hdr = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	h.mark = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	h.pool = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	h.extra = PA_NEW_ARRAY(fn->arena, struct entry_edge *, n);
	h.is_header = PA_NEW_ARRAY(fn->arena, bool, n);
	h.irreducible = PA_NEW_ARRAY(fn->arena, bool, n);
	for (uint32_t b = 0; b < n; b++) {
		h.uf[b] = b;
		h.hdr[b] = IR_NO_BLOCK;
	}
	for (uint32_t k = fn->norder; k-- > 0;) { /* innermost loops first */
		uint32_t w = by_pre[k];
		bool self = false;
		uint32_t np = collect_loop(&h, w, &self);
		if (!np && !self)
			continue;
		h.is_header[w] = true;
		for (uint32_t i = 0; i < np; i++) {
			h.hdr[h.pool[i]] = w;
			h.uf[h.pool[i]] = w;
		}
	}
	number_loops(fn, &h);
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
	(void)d; /* every reachable CFG has a loop forest and a linear order */
	uint32_t n = fn->nblocks;
	for (uint32_t i = 0; i < n; i++) {
		struct ir_block *b = &fn->blocks[i];
		b->reachable = false;
		b->loop = IR_NO_LOOP;
		b->idom = b->ipdom = IR_NO_BLOCK;
	}
	uint32_t *po = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *pre = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *by_pre = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *lastd = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t *parent = PA_NEW_ARRAY(fn->arena, uint32_t, n);
	uint32_t npo = postorder(fn, po, pre, by_pre, lastd, parent);
	fn->rpo_order = PA_NEW_ARRAY(fn->arena, uint32_t, npo ? npo : 1);
	for (uint32_t i = 0; i < npo; i++) {
		fn->rpo_order[i] = po[npo - 1 - i];
		fn->blocks[po[npo - 1 - i]].rpo = i;
	}
	fn->norder = npo;
	dominators(fn, by_pre, parent, npo);
	post_dominators(fn);
	find_loops(fn, pre, lastd, by_pre);
	linear_order(fn);
	fn->cfg_valid = true;
	return true;
}
