/* ir_uniformity: which values are the same in every lane of a wave (they live in SGPRs
 * and use the scalar unit) and which branches all lanes take the same way.
 *
 * A forward dataflow on the def-use graph with a worklist, monotone from "uniform" to
 * "divergent":
 *  - sources of divergence: the thread id and lane id, loads from memory (lanes read
 *    different addresses, or may observe different values), undefined inputs are not;
 *  - an operation with a divergent operand is divergent;
 *  - a branch on a divergent predicate is divergent; then the phis in the blocks between
 *    the branch and its immediate post-dominator (and in the post-dominator itself) are
 *    divergent: lanes arrive there by different paths (sync dependence) -- unless the
 *    block is dominated by one successor that only the branch enters, in the branch's
 *    loop: then its lanes all came by that side, in the same iteration;
 *  - a loop may be left by lanes in different iterations when a divergent branch in it
 *    can lead out of it before its lanes meet again: the branch leaves the loop itself,
 *    its post-dominator lies outside the loop (or there is none), or a block between the
 *    branch and its post-dominator leaves the loop (a uniform exit that only the lanes of
 *    one side reach) or is the loop's header (lanes meet again an iteration apart).  Then every
 * value defined in the loop and used outside it is divergent (temporal divergence: each lane must
 * keep the value of its own last iteration, which only a VGPR does).  A divergent if/else that
 * rejoins inside the iteration keeps the loop's exits uniform: every lane leaves in the same
 * iteration and values live out of it stay uniform (the loop still has `divergent_branches`).
 * Kernel parameters, %ctaid, %ntid, %nctaid, constants and addresses of variables are
 * uniform, and so are the results of wave-wide operations (IR_OPF_WAVE: ballot, active
 * mask, reductions) whatever their operands, and a lane.read from a uniform lane.
 * `bra.uni` is not trusted: the analysis decides.
 * requires: ir_cfg_compute.  Complexity: O(values + uses) for propagation, plus the size
 * of each divergent branch's region (capped: past REGION_WORK_PER_BLOCK visits per block
 * every phi is divergent) and O(blocks) per divergent loop. */
#include <string.h>

#include "ir/ir.h"

struct uni {
	struct ir_function *fn;
	uint32_t *user_start; /* CSR over values: users[user_start[v] .. user_start[v+1]) */
	uint64_t *users;      /* (block << 32) | instruction index */
	uint32_t *work;
	uint32_t nwork;
	uint32_t *stamp; /* per block: last branch whose region visited it */
	uint32_t *queue;
	bool *loop_done;
	uint32_t *dom_in, *dom_out; /* dominator tree DFS interval per block: O(1) dominance */
	uint64_t region_work;       /* blocks visited by sync_dependence so far */
	bool all_phis;              /* over budget: every phi is divergent (done once) */
	/* the arrays above: freed when the pass ends (in the function's arena they would stay
	 * beside the IR through selection and allocation) */
	struct pa_arena tmp;
};

/* sync_dependence visits each divergent branch's region: quadratic on a ladder of
 * divergent branches.  Past this many visits per block, every phi of the function is
 * made divergent instead (conservative, linear). */
enum { REGION_WORK_PER_BLOCK = 64 };
#define REGION_UNKNOWN 0xffffffffu /* sync_dependence over budget: no region known */

static void mark(struct uni *u, ir_ref v)
{
	if (v == IR_NO_REF || u->fn->vals[v].divergent)
		return;
	u->fn->vals[v].divergent = true;
	u->work[u->nwork++] = v;
}

static bool is_source(const struct ir_insn *in)
{
	switch (in->op) {
	case IR_SREG:
		return in->aux == IR_SREG_TID_X || in->aux == IR_SREG_TID_Y ||
		       in->aux == IR_SREG_TID_Z || in->aux == IR_SREG_LANEID;
	case IR_LOAD:
	case IR_ATOMIC:
	case IR_STACK_LD: /* per-lane memory */
	case IR_IMG_LOAD: /* a VGPR result (build_tex.c) */
	case IR_IMG_SAMPLE:
		return true;
	case IR_REDUX: /* per 32-lane half of the wave (--warp-size 32) */
		return (in->aux & IR_REDUX_HALVES) != 0;
	default: /* the matrix units' results (MATRIX, MTUP_GET) */
		return (ir_ops[in->op].flags & IR_OPF_SRC_DIV) != 0;
	}
}

static void build_users(struct uni *u)
{
	struct ir_function *fn = u->fn;
	u->user_start = PA_NEW_ARRAY(&u->tmp, uint32_t, fn->nvals + 1);
	uint32_t total = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t b = 0; b < fn->nblocks; b++) {
			const struct ir_block *bl = &fn->blocks[b];
			if (!bl->reachable)
				continue;
			for (uint32_t i = 0; i < bl->ninsns; i++) {
				const struct ir_insn *in = &bl->insns[i];
				uint32_t n = in->op == IR_PHI ? bl->npreds : in->nargs;
				const ir_ref *args = in->op == IR_PHI ? in->phi_args : in->args;
				for (uint32_t k = 0; k < n; k++) {
					if (pass == 0)
						u->user_start[args[k]]++;
					else
						u->users[--u->user_start[args[k]]] =
						        (uint64_t)b << 32 | i;
				}
			}
		}
		if (pass == 0) {
			for (uint32_t v = 0; v < fn->nvals; v++) {
				total += u->user_start[v];
				u->user_start[v] = total; /* end; decremented while filling */
			}
			u->user_start[fn->nvals] = total;
			u->users = PA_NEW_ARRAY(&u->tmp, uint64_t, total ? total : 1);
		}
	}
}

/* Numbers the dominator tree by DFS (entry and exit times) so that dominance is two
 * comparisons. */
static void number_dom_tree(struct uni *u)
{
	struct ir_function *fn = u->fn;
	uint32_t n = fn->nblocks, t = 0, sp = 0;
	uint32_t *first = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 2);
	uint32_t *kids = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 1);
	uint32_t *stack = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 1);
	uint32_t *next = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 1);
	u->dom_in = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 1);
	u->dom_out = PA_NEW_ARRAY(&u->tmp, uint32_t, n + 1);
	for (uint32_t b = 1; b < n; b++)
		if (fn->blocks[b].reachable && fn->blocks[b].idom < n)
			first[fn->blocks[b].idom + 2]++;
	for (uint32_t b = 0; b < n; b++)
		first[b + 2] += first[b + 1];
	for (uint32_t b = 1; b < n; b++)
		if (fn->blocks[b].reachable && fn->blocks[b].idom < n)
			kids[first[fn->blocks[b].idom + 1]++] = b;
	/* first[p] .. first[p + 1]: children of p */
	stack[sp++] = 0;
	u->dom_in[0] = t++;
	next[0] = first[0];
	while (sp) {
		uint32_t b = stack[sp - 1];
		if (next[b] < first[b + 1]) {
			uint32_t c = kids[next[b]++];
			u->dom_in[c] = t++;
			next[c] = first[c];
			stack[sp++] = c;
		} else {
			u->dom_out[b] = t++;
			sp--;
		}
	}
}

static bool dominates(const struct uni *u, uint32_t a, uint32_t b)
{
	return u->dom_in[a] <= u->dom_in[b] && u->dom_out[b] <= u->dom_out[a];
}

/* Lanes reach b from the branch in block a by one of its sides only: b is dominated by
 * a successor entered from a alone, in a's loop (so in the same iteration: a loop exit
 * may gather lanes of several iterations). */
static bool one_side_only(const struct uni *u, uint32_t a, uint32_t b)
{
	const struct ir_function *fn = u->fn;
	uint32_t l = fn->blocks[a].loop;
	if (l != IR_NO_LOOP && !ir_in_loop(fn, b, l))
		return false;
	for (uint32_t s = 0; s < fn->blocks[a].nsuccs; s++) {
		uint32_t sb = fn->blocks[a].succs[s];
		const struct ir_block *sl = &fn->blocks[sb];
		if (sl->npreds == 1 && sb != fn->blocks[a].succs[1 - s] && dominates(u, sb, b))
			return true;
	}
	return false;
}

/* Phis between a divergent branch in block a and its post-dominator become divergent,
 * except where lanes can only come from one side of the branch.  Leaves the blocks of
 * that region (the post-dominator included) in u->queue and returns their number, or
 * REGION_UNKNOWN over the work budget. */
static uint32_t sync_dependence(struct uni *u, uint32_t a)
{
	struct ir_function *fn = u->fn;
	uint32_t stop = fn->blocks[a].ipdom, nq = 0;
	if (u->all_phis)
		return REGION_UNKNOWN;
	if (u->region_work > (uint64_t)REGION_WORK_PER_BLOCK * (fn->nblocks + 16)) {
		u->all_phis = true;
		for (uint32_t b = 0; b < fn->nblocks; b++)
			for (uint32_t i = 0;
			     i < fn->blocks[b].ninsns && fn->blocks[b].insns[i].op == IR_PHI; i++)
				if (fn->blocks[b].reachable)
					mark(u, fn->blocks[b].insns[i].res);
		return REGION_UNKNOWN;
	}
	for (uint32_t s = 0; s < fn->blocks[a].nsuccs; s++) {
		uint32_t sb = fn->blocks[a].succs[s];
		if (u->stamp[sb] != a + 1) {
			u->stamp[sb] = a + 1;
			u->queue[nq++] = sb;
		}
	}
	u->region_work += nq;
	for (uint32_t k = 0; k < nq; k++) {
		uint32_t b = u->queue[k];
		const struct ir_block *bl = &fn->blocks[b];
		u->region_work++;
		if (bl->ninsns && bl->insns[0].op == IR_PHI && !one_side_only(u, a, b))
			for (uint32_t i = 0; i < bl->ninsns && bl->insns[i].op == IR_PHI; i++)
				mark(u, bl->insns[i].res);
		if (b == stop)
			continue;
		for (uint32_t s = 0; s < bl->nsuccs; s++) {
			uint32_t sb = bl->succs[s];
			if (u->stamp[sb] != a + 1) {
				u->stamp[sb] = a + 1;
				u->queue[nq++] = sb;
			}
		}
	}
	return nq;
}

/* Values defined in loop l and used outside it are divergent: the users of each value
 * defined in the loop's blocks (a phi's use is in its block: the exit's phis). */
static void temporal_divergence(struct uni *u, uint32_t l)
{
	struct ir_function *fn = u->fn;
	if (u->loop_done[l])
		return;
	u->loop_done[l] = true;
	fn->loops[l].divergent = true;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable || !ir_in_loop(fn, b, l))
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			ir_ref v = bl->insns[i].res;
			if (v == IR_NO_REF || fn->vals[v].divergent)
				continue;
			for (uint32_t k = u->user_start[v]; k < u->user_start[v + 1]; k++)
				if (!ir_in_loop(fn, (uint32_t)(u->users[k] >> 32), l)) {
					mark(u, v);
					break;
				}
		}
	}
}

static bool leaves_loop(const struct ir_function *fn, uint32_t b, uint32_t l)
{
	for (uint32_t s = 0; s < fn->blocks[b].nsuccs; s++)
		if (!ir_in_loop(fn, fn->blocks[b].succs[s], l))
			return true;
	return false;
}

/* Whether lanes split by the divergent branch in block a may leave loop l in different
 * iterations: a itself leaves l, the lanes do not meet again inside l (a's post-dominator
 * is outside it, or a has none), or a block of the branch's region (nregion blocks in
 * u->queue) leaves l before they meet, or is l's header before they meet (some lanes went
 * round the back edge: they meet again one iteration apart, and a uniform exit after that
 * lets them out in different iterations).  Irreducible loops: always. */
static bool leaves_apart(const struct uni *u, uint32_t a, uint32_t l, uint32_t nregion)
{
	const struct ir_function *fn = u->fn;
	uint32_t stop = fn->blocks[a].ipdom;
	if (nregion == REGION_UNKNOWN || fn->loops[l].irreducible || stop >= fn->nblocks ||
	    !ir_in_loop(fn, stop, l) || leaves_loop(fn, a, l))
		return true;
	for (uint32_t k = 0; k < nregion; k++) {
		uint32_t q = u->queue[k];
		if (q != stop && ir_in_loop(fn, q, l) &&
		    (q == fn->loops[l].header || leaves_loop(fn, q, l)))
			return true;
	}
	return false;
}

static void divergent_branch(struct uni *u, uint32_t b)
{
	struct ir_function *fn = u->fn;
	if (fn->blocks[b].divergent_branch)
		return;
	fn->blocks[b].divergent_branch = true;
	uint32_t nregion = sync_dependence(u, b);
	for (uint32_t l = fn->blocks[b].loop; l != IR_NO_LOOP; l = fn->loops[l].parent) {
		fn->loops[l].divergent_branches = true;
		if (leaves_apart(u, b, l, nregion))
			temporal_divergence(u, l);
	}
}

void ir_uniformity(struct ir_function *fn)
{
	struct uni u = {.fn = fn};
	pa_arena_init_beside(&u.tmp, fn->arena);
	u.work = PA_NEW_ARRAY(&u.tmp, uint32_t, fn->nvals + 1);
	u.stamp = PA_NEW_ARRAY(&u.tmp, uint32_t, fn->nblocks + 1);
	u.queue = PA_NEW_ARRAY(&u.tmp, uint32_t, fn->nblocks + 1);
	u.loop_done = PA_NEW_ARRAY(&u.tmp, bool, fn->nloops + 1);
	for (uint32_t v = 0; v < fn->nvals; v++)
		fn->vals[v].divergent = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		fn->blocks[b].divergent_branch = false;
	for (uint32_t l = 0; l < fn->nloops; l++)
		fn->loops[l].divergent = fn->loops[l].divergent_branches = false;
	build_users(&u);
	number_dom_tree(&u);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (is_source(&bl->insns[i]))
				mark(&u, bl->insns[i].res);
	}
	while (u.nwork) {
		ir_ref v = u.work[--u.nwork];
		for (uint32_t k = u.user_start[v]; k < u.user_start[v + 1]; k++) {
			uint32_t b = (uint32_t)(u.users[k] >> 32), i = (uint32_t)u.users[k];
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->op == IR_BR)
				divergent_branch(&u, b);
			else if (in->res != IR_NO_REF && !(ir_ops[in->op].flags & IR_OPF_WAVE) &&
			         !(in->op == IR_LANE_READ && in->args[1] != v))
				mark(&u, in->res); /* lane.read: as its lane operand */
		}
	}
	pa_arena_free(&u.tmp);
}
