/* ir_sink_past_loops: a per-lane value computed before a loop and read only after it moves
 * to where it is read, so that no VGPR holds it through the loop (issue 20's VGPR count).
 *
 * What it is for: PTX computes a thread's coordinates at the top of a kernel (stencil2d:
 * gx = ctaid.x * 16 + tid.x, gy likewise) and reads them only after a loop that fills shared
 * memory; held across that loop they cost a VGPR each, beside the tid values they come from,
 * which are live there anyway.  clang computes them after the loop.
 *
 * An operation X without effects that reads no memory and no other lane, whose result is per
 * lane (divergent), defined in block B, moves to the top of block T, the nearest common
 * dominator of the blocks that read it (a phi reads in the predecessor it comes from), when
 *   - T is not B and lies in the same innermost loop as B (never into a loop, never out of
 *     one: ir_loop_motion's sinking does that under its own rules);
 *   - a loop lies between them: a loop containing neither, whose header B dominates, placed
 *     after B and before T in the linear order (the value would be live through it);
 *   - every operand is a constant, a uniform value (an SGPR, not the VGPRs this saves), a
 *     per-lane value read at or after that loop anyway, or one computed in B by an operation
 *     of this kind, no wider than X (it may follow X; if it stays, it holds no more than X did):
 * moving X then lengthens no VGPR's life through the loop. X is computed where it was, for the
 * lanes that reach T: every lane reaching T passed B (B dominates T) with the same operand values
 * (SSA), and every lane that reads X reaches T. Each block is walked backwards, so whole chains
 * move in one round (dmath: a polynomial and a square root of the input, stored after a loop that
 * reads only the input); moved ones go to the top of T in their original order; rounds until
 * nothing moves. requires: ir_cfg_compute (dominators, loops, linear order) and ir_uniformity.
 * breaks: nothing (the CFG and every value's uniformity are unchanged).
 * complexity: O(instructions + uses x dominator depth) per round, rounds capped. */
#include <string.h>

#include "ir/ir.h"

enum { SINK_PAST_ROUNDS = 8 };

/* Operations that are plain functions of their operands in the lane that runs them. */
static bool sinkable(const struct ir_function *fn, const struct ir_insn *in)
{
	unsigned f = ir_ops[in->op].flags;
	if (in->res == IR_NO_REF || in->nargs > 4 || !fn->vals[in->res].divergent ||
	    (f & (IR_OPF_SIDE | IR_OPF_TERM | IR_OPF_NORES | IR_OPF_MEM | IR_OPF_WAVE)))
		return false;
	switch (in->op) {
	case IR_PHI:
	case IR_PARAM:
	case IR_SREG:
	case IR_MATCH_ANY:
	case IR_MTUP:
	case IR_MATRIX:
	case IR_MTUP_GET:
	case IR_UNUSABLE:
	case IR_STACK_FRAME:
	case IR_LANE_READ:
	case IR_MPERM:
		return false;
	default:
		return true;
	}
}

/* Where each value is read: CSR lists of blocks (a phi's read in its predecessor). */
struct uses {
	uint32_t *first; /* nvals + 1 */
	uint32_t *block;
	bool *may_move; /* per value: defined by a sinkable operation */
};

static void add_use(uint32_t *count, uint32_t *block, const struct ir_function *fn, ir_ref v,
                    uint32_t b)
{
	if (v >= fn->nvals)
		return;
	if (block)
		block[count[v]] = b;
	count[v]++;
}

static void each_use(const struct ir_function *fn, uint32_t *count, uint32_t *block)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI) {
				for (uint32_t k = 0; k < bl->npreds; k++)
					add_use(count, block, fn, in->phi_args[k], bl->preds[k]);
				continue;
			}
			for (uint32_t k = 0; k < in->nargs && k < 4; k++)
				add_use(count, block, fn, in->args[k], b);
		}
	}
}

static void find_uses(const struct ir_function *fn, struct uses *u)
{
	uint32_t *count = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nvals + 1);
	each_use(fn, count, NULL);
	u->first = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nvals + 1);
	uint32_t total = 0;
	for (uint32_t v = 0; v < fn->nvals; v++) {
		u->first[v] = total;
		total += count[v];
		count[v] = u->first[v];
	}
	u->first[fn->nvals] = total;
	u->block = PA_NEW_ARRAY(fn->arena, uint32_t, total + 1);
	each_use(fn, count, u->block);
	u->may_move = PA_NEW_ARRAY(fn->arena, bool, fn->nvals + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (sinkable(fn, in))
				u->may_move[in->res] = true;
		}
}

/* The nearest common dominator of blocks a and b (Cooper, Harvey & Kennedy's intersect). */
static uint32_t common_dominator(const struct ir_function *fn, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (fn->blocks[a].rpo > fn->blocks[b].rpo)
			a = fn->blocks[a].idom;
		while (fn->blocks[b].rpo > fn->blocks[a].rpo)
			b = fn->blocks[b].idom;
	}
	return a;
}

/* The linear position of the first header of a loop containing neither b nor t, whose
 * header b dominates, placed after b and before t in the linear order (the value would be
 * live through that loop), or UINT32_MAX when there is none. */
static uint32_t loop_between(const struct ir_function *fn, uint32_t b, uint32_t t)
{
	uint32_t from = fn->blocks[b].linear_pos, to = fn->blocks[t].linear_pos;
	uint32_t first = UINT32_MAX;
	for (uint32_t l = 0; l < fn->nloops; l++) {
		uint32_t h = fn->loops[l].header;
		uint32_t at = fn->blocks[h].linear_pos;
		if (at > from && at < to && at < first && !ir_in_loop(fn, b, l) &&
		    !ir_in_loop(fn, t, l) && ir_dominates(fn, b, h))
			first = at;
	}
	return first;
}

/* Whether moving `in` from block b past the loop at linear position `loop` lengthens no
 * VGPR's life for its operand v: v is a constant or uniform (an SGPR), or is read at or after
 * the loop anyway, or is computed in b by an operation that may follow `in` (then it is
 * visited next, the walk going backwards) and is no wider than `in`'s result (so that if it
 * stays, it holds no more registers through the loop than `in`'s result did). */
static bool operand_ok(const struct ir_function *fn, const struct uses *u, ir_ref v, uint32_t b,
                       uint32_t loop, const struct ir_insn *in)
{
	if (v >= fn->nvals || fn->vals[v].kind != IR_VAL_INSN || !fn->vals[v].divergent)
		return true;
	for (uint32_t k = u->first[v]; k < u->first[v + 1]; k++)
		if (fn->blocks[u->block[k]].linear_pos >= loop)
			return true;
	return fn->vals[v].block == b && u->may_move[v] &&
	       ir_type_bits(fn->vals[v].type) <= ir_type_bits(fn->vals[in->res].type);
}

/* The block instruction `in` of block b moves to, or IR_NO_BLOCK. */
static uint32_t target_of(const struct ir_function *fn, const struct uses *u, uint32_t b,
                          const struct ir_insn *in)
{
	uint32_t first = u->first[in->res], last = u->first[in->res + 1];
	if (first == last)
		return IR_NO_BLOCK;
	uint32_t t = u->block[first];
	for (uint32_t k = first + 1; k < last; k++)
		t = common_dominator(fn, t, u->block[k]);
	if (t == b || fn->blocks[t].loop != fn->blocks[b].loop || !ir_dominates(fn, b, t))
		return IR_NO_BLOCK;
	uint32_t loop = loop_between(fn, b, t);
	if (loop == UINT32_MAX)
		return IR_NO_BLOCK;
	for (uint32_t k = 0; k < in->nargs; k++)
		if (!operand_ok(fn, u, in->args[k], b, loop, in))
			return IR_NO_BLOCK;
	return t;
}

/* `in` moved from b to t: its reads of its operands are in t now. */
static void move_reads(const struct ir_function *fn, struct uses *u, const struct ir_insn *in,
                       uint32_t b, uint32_t t)
{
	for (uint32_t a = 0; a < in->nargs; a++) {
		ir_ref v = in->args[a];
		if (v >= fn->nvals)
			continue;
		for (uint32_t k = u->first[v]; k < u->first[v + 1]; k++)
			if (u->block[k] == b) {
				u->block[k] = t;
				break;
			}
	}
}

static uint32_t first_non_phi(const struct ir_block *bl)
{
	uint32_t i = 0;
	while (i < bl->ninsns && bl->insns[i].op == IR_PHI)
		i++;
	return i;
}

/* One round; returns how many instructions moved.  Each block is walked backwards, so an
 * operation's readers have moved (and their reads with them) before it is looked at, and
 * what moves to one block keeps its original order. */
static unsigned sink_round(struct ir_function *fn, struct uses *u)
{
	unsigned moved = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable)
			continue;
		for (uint32_t i = bl->ninsns; i-- > 0;) {
			struct ir_insn in = bl->insns[i];
			if (!sinkable(fn, &in))
				continue;
			uint32_t t = target_of(fn, u, b, &in);
			if (t == IR_NO_BLOCK)
				continue;
			memmove(&bl->insns[i], &bl->insns[i + 1],
			        (bl->ninsns - i - 1) * sizeof *bl->insns);
			bl->ninsns--;
			ir_insert(fn, t, first_non_phi(&fn->blocks[t]), &in);
			move_reads(fn, u, &in, b, t);
			moved++;
		}
	}
	return moved;
}

void ir_sink_past_loops(struct ir_function *fn)
{
	if (fn->nloops == 0 || !fn->cfg_valid)
		return;
	for (unsigned r = 0; r < SINK_PAST_ROUNDS; r++) {
		struct uses u;
		find_uses(fn, &u);
		if (sink_round(fn, &u) == 0)
			break;
	}
}
