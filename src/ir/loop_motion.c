/* ir_loop_motion: computations in a loop that need not run every iteration move out of it:
 * those whose results only the code after the loop reads sink to the loop's exit block, and
 * those that read only values from before the loop hoist to its preheader.
 *
 * What it is for: mma.sync on the matrix units (build_mma_mfma.c) shuffles operands and
 * accumulators between NVIDIA's layout and the unit's by lane reads (MPERM) at addresses that
 * are functions of the lane id, and ldmatrix reads its row addresses from other lanes; in a
 * k-loop (hgemm_mma) all of that address arithmetic is the same every iteration, and once the
 * loop phis carry the unit's layout the accumulators' shuffles back are only read after the
 * loop (16 ds_bpermute and 8 v_cndmask per iteration there).
 *
 * Sinking.  An operation without effects that reads no memory, in block B of loop L, moves to
 * block T when every use of its result is in T (a phi's use counts in the predecessor it comes
 * from), T is outside L and B is T's only predecessor: the exit edge leaves from B itself, so
 * B's last execution is in the iteration that leaves, after every definition inside the loop
 * that it reads (they dominate B), and those are the values its operands still have in T. Lane
 * reads (LANE_READ, MPERM) read other lanes' values as they are at the time: they move only
 * when B's branch is uniform and B post-dominates the header of every loop they leave (all
 * lanes still in the loop run B each iteration and leave it together, whatever divergent
 * branches lie between), so the same lanes run T with the same register values. Operations that
 * are not plain functions of their operands (SREG: clocks; MATCH_ANY and the WAVE operations:
 * the active lanes; MTUP/MATRIX: one instruction together) stay.
 * Users move first (each block is walked backwards, rounds until nothing moves), then the
 * operations they read; moved ones go to the top of T in their original order.
 *
 * Hoisting.  An operation of that kind (or a lane id / size SREG) whose operands are all
 * defined outside loop L, in a block that post-dominates L's header (it runs every
 * iteration: nothing is computed that the loop might not have computed), moves to the end of
 * L's preheader (the header's only predecessor outside L, jumping only to it), blocks in
 * reverse postorder so operands go first, inner loops first so values climb out of nests.
 * A lane read moves only from a block of L itself (not of an inner loop) when no branch
 * leaves L divergently: every lane that enters L then runs the block every iteration, with
 * the preheader's lanes, and reads the same registers.
 * requires: ir_cfg_compute (loops, post-dominators) and ir_uniformity (divergent branches).
 * breaks: nothing (values keep their uniformity; the CFG is unchanged).
 * Complexity: sinking O(instructions) per round, rounds capped (each moves one level of
 * users); hoisting O(loops x blocks x (instructions + ipdom chain)). */
#include <string.h>

#include "ir/ir.h"

enum { SINK_ROUNDS = 8 };
#define USE_NONE  0xffffffffu
#define USE_MULTI 0xfffffffeu

static bool movable(const struct ir_insn *in)
{
	unsigned f = ir_ops[in->op].flags;
	if (in->res == IR_NO_REF ||
	    (f & (IR_OPF_SIDE | IR_OPF_TERM | IR_OPF_NORES | IR_OPF_MEM | IR_OPF_WAVE)))
		return false;
	switch (in->op) {
	case IR_PHI:
	case IR_SREG:
	case IR_MATCH_ANY:
	case IR_MTUP:
	case IR_MATRIX:
	case IR_MTUP_GET:
	case IR_UNUSABLE:
	case IR_STACK_FRAME:
		return false;
	default:
		return true;
	}
}

static bool reads_lanes(enum ir_op op)
{
	return op == IR_LANE_READ || op == IR_MPERM;
}

static void note_use(uint32_t *use, uint32_t nvals, ir_ref v, uint32_t block)
{
	if (v >= nvals)
		return;
	if (use[v] == USE_NONE)
		use[v] = block;
	else if (use[v] != block)
		use[v] = USE_MULTI;
}

/* use[v]: the one block where v is used, USE_NONE or USE_MULTI. */
static void find_uses(const struct ir_function *fn, uint32_t *use)
{
	for (uint32_t v = 0; v < fn->nvals; v++)
		use[v] = USE_NONE;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI) {
				for (uint32_t k = 0; k < bl->npreds; k++)
					note_use(use, fn->nvals, in->phi_args[k], bl->preds[k]);
				continue;
			}
			for (uint32_t k = 0; k < in->nargs && k < 4; k++)
				note_use(use, fn->nvals, in->args[k], b);
		}
	}
}

/* Whether every lane in loop l reaches b in each iteration: b post-dominates the header. */
static bool on_every_iteration(const struct ir_function *fn, uint32_t b, uint32_t l)
{
	uint32_t x = fn->loops[l].header;
	for (uint32_t n = 0; n <= fn->nblocks && x != IR_NO_BLOCK && ir_in_loop(fn, x, l); n++) {
		if (x == b)
			return true;
		x = fn->blocks[x].ipdom;
	}
	return false;
}

/* Whether a lane read in b may move to t (b's branch, uniform, is t's only way in): the lanes
 * that run t are those that ran b's last execution, and nothing of the loops that b leaves
 * runs between (every lane still in each of them runs b every iteration, and all of them
 * leave from it together), so every lane's registers are as they were there. */
static bool leaves_together(const struct ir_function *fn, uint32_t from, uint32_t to)
{
	if (fn->blocks[from].divergent_branch)
		return false;
	for (uint32_t l = fn->blocks[from].loop; l != IR_NO_LOOP; l = fn->loops[l].parent) {
		if (ir_in_loop(fn, to, l))
			break;
		if (fn->loops[l].irreducible || !on_every_iteration(fn, from, l))
			return false;
	}
	return true;
}

/* The block instruction `in` of block b may move to, or IR_NO_BLOCK. */
static uint32_t target_of(const struct ir_function *fn, const uint32_t *use, uint32_t b,
                          const struct ir_insn *in)
{
	uint32_t t = use[in->res];
	if (t == USE_NONE || t == USE_MULTI || t == b)
		return IR_NO_BLOCK;
	const struct ir_block *tb = &fn->blocks[t];
	uint32_t l = fn->blocks[b].loop;
	if (tb->npreds != 1 || tb->preds[0] != b || ir_in_loop(fn, t, l) ||
	    fn->loops[l].irreducible)
		return IR_NO_BLOCK;
	if (!leaves_together(fn, b, t))
		return IR_NO_BLOCK;
	return t;
}

/* Where T's own instructions start (after its phis). */
static uint32_t first_non_phi(const struct ir_block *bl)
{
	uint32_t i = 0;
	while (i < bl->ninsns && bl->insns[i].op == IR_PHI)
		i++;
	return i;
}

static void move_to_top(struct ir_function *fn, uint32_t t, const struct ir_insn *in)
{
	ir_insert(fn, t, first_non_phi(&fn->blocks[t]), in);
}

/* One round over every block in a loop; returns how many instructions moved.  use[] is
 * from the round's start: an operation whose users move this round moves the next one. */
static unsigned sink_round(struct ir_function *fn, const uint32_t *use)
{
	unsigned moved = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		if (bl->loop == IR_NO_LOOP || !bl->reachable)
			continue;
		for (uint32_t i = bl->ninsns; i-- > 0;) {
			struct ir_insn in = bl->insns[i];
			if (!movable(&in))
				continue;
			uint32_t t = target_of(fn, use, b, &in);
			if (t == IR_NO_BLOCK)
				continue;
			memmove(&bl->insns[i], &bl->insns[i + 1],
			        (bl->ninsns - i - 1) * sizeof *bl->insns);
			bl->ninsns--;
			move_to_top(fn, t,
			            &in); /* above what moved before it: the original order */
			moved++;
		}
	}
	return moved;
}

/* ---- hoisting ---- */

/* Operations that may run before the loop: as movable(), and the lane id. */
static bool hoistable(const struct ir_insn *in)
{
	if (in->op == IR_SREG)
		return in->aux <= IR_SREG_WARPSZ; /* ids and sizes: fixed for a lane's life */
	return movable(in);
}

static bool defined_outside(const struct ir_function *fn, ir_ref v, uint32_t l)
{
	if (v >= fn->nvals || fn->vals[v].kind != IR_VAL_INSN)
		return true; /* constants, parameters, undefined */
	uint32_t b = fn->vals[v].block;
	return b == IR_NO_BLOCK || !ir_in_loop(fn, b, l);
}

/* The loop's preheader: the header's one predecessor outside it, which jumps only there;
 * IR_NO_BLOCK without one. */
static uint32_t preheader(const struct ir_function *fn, uint32_t l)
{
	const struct ir_block *h = &fn->blocks[fn->loops[l].header];
	uint32_t p = IR_NO_BLOCK;
	for (uint32_t i = 0; i < h->npreds; i++) {
		if (ir_in_loop(fn, h->preds[i], l))
			continue;
		if (p != IR_NO_BLOCK)
			return IR_NO_BLOCK;
		p = h->preds[i];
	}
	if (p == IR_NO_BLOCK || fn->blocks[p].nsuccs != 1 || !fn->blocks[p].ninsns)
		return IR_NO_BLOCK;
	return p;
}

/* Whether all lanes that enter loop l leave it together: every branch out of it uniform. */
static bool exits_together(const struct ir_function *fn, uint32_t l)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		if (!bl->reachable || !ir_in_loop(fn, b, l))
			continue;
		for (uint32_t k = 0; k < bl->nsuccs; k++)
			if (!ir_in_loop(fn, bl->succs[k], l) && bl->divergent_branch)
				return false;
	}
	return true;
}

static void insert_before_end(struct ir_function *fn, uint32_t p, const struct ir_insn *in)
{
	ir_append(fn, p, in);
	struct ir_block *pb = &fn->blocks[p];
	struct ir_insn last = pb->insns[pb->ninsns - 1];
	pb->insns[pb->ninsns - 1] = pb->insns[pb->ninsns - 2]; /* the terminator stays last */
	pb->insns[pb->ninsns - 2] = last;
	fn->vals[last.res].block = p;
}

/* Moves the operations of loop l's blocks that run every iteration and read only values
 * from outside it to its preheader, in reverse postorder (operands first). */
static void hoist_loop(struct ir_function *fn, uint32_t l)
{
	uint32_t p = preheader(fn, l);
	if (p == IR_NO_BLOCK || fn->loops[l].irreducible)
		return;
	bool together = exits_together(fn, l);
	for (uint32_t k = 0; k < fn->norder; k++) {
		uint32_t b = fn->rpo_order[k];
		if (!ir_in_loop(fn, b, l) || !on_every_iteration(fn, b, l))
			continue;
		struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns;) {
			struct ir_insn in = bl->insns[i];
			/* a lane read runs with the lanes of the preheader: none leaves the loop
			 * early, and b is in no inner loop (whose lanes may leave it early) */
			bool ok = hoistable(&in) &&
			          (!reads_lanes(in.op) || (together && bl->loop == l));
			for (uint32_t a = 0; ok && a < in.nargs && a < 4; a++)
				ok = defined_outside(fn, in.args[a], l);
			if (!ok) {
				i++;
				continue;
			}
			memmove(&bl->insns[i], &bl->insns[i + 1],
			        (bl->ninsns - i - 1) * sizeof *bl->insns);
			bl->ninsns--;
			insert_before_end(fn, p, &in);
		}
	}
}

void ir_loop_motion(struct ir_function *fn)
{
	if (fn->nloops == 0 || !fn->cfg_valid)
		return;
	uint32_t *use = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nvals + 1);
	for (unsigned r = 0; r < SINK_ROUNDS; r++) {
		find_uses(fn, use);
		if (sink_round(fn, use) == 0)
			break;
	}
	for (uint32_t depth = 64; depth > 0; depth--) /* inner loops first */
		for (uint32_t l = 0; l < fn->nloops; l++)
			if (fn->loops[l].depth == depth)
				hoist_loop(fn, l);
}
