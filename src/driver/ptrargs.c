/* Which kernel parameters are pointers (pa_find_pointers, for the metadata's value kinds).
 *
 * Algorithm: from every memory operation's address (and every argument stored for a real
 * callee in a frame slot the callee uses as an address) walk back through the definitions
 * -- moves, bitcasts, 64-bit adds and subtracts, selects, phis, and a 64-bit load from the
 * address a value was stored to -- at most TRACE_STEPS steps per address (nvcc -G carries a
 * pointer through a phi in nearly every block: a chain of hundreds in
 * tests/exec/ptx/coop_warp_g.ptx); a kernel parameter reached is a pointer, and so is a frame
 * slot of a function compiled on its own.
 *   requires: the IR (any stage).  Complexity: O(instructions * TRACE_STEPS). */
#include "ptrargs.h"

#include <string.h>

enum { TRACE_STACK = 256, TRACE_STEPS = 4096 };

/* 64-bit stores listed by their address value (first[value] -> next[]). */
struct store_index {
	const struct ir_insn **stores;
	uint32_t *first, *next;
};

static void index_stores(const struct ir_function *ir, struct pa_arena *a, struct store_index *x)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			n += ir->blocks[b].insns[i].op == IR_STORE;
	x->stores = PA_NEW_ARRAY(a, const struct ir_insn *, n + 1);
	x->next = PA_NEW_ARRAY(a, uint32_t, n + 1);
	x->first = PA_NEW_ARRAY(a, uint32_t, ir->nvals + 1);
	memset(x->first, 0xff, (ir->nvals + 1) * sizeof *x->first);
	n = 0;
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &ir->blocks[b].insns[i];
			if (in->op != IR_STORE || ir_mem_bytes(in->aux) != 8 ||
			    in->args[0] >= ir->nvals)
				continue;
			x->stores[n] = in;
			x->next[n] = x->first[in->args[0]];
			x->first[in->args[0]] = n++;
		}
}

struct ptr_walk {
	const struct ir_function *ir;
	const struct ir_insn **def;
	struct store_index sx;
	ir_ref *stack;
	uint32_t *seen, stamp;
	bool *is_ptr, *ptr_slot;
	uint32_t nslots;
};

static void walk_pointer(struct ptr_walk *w, ir_ref seed)
{
	const struct ir_function *ir = w->ir;
	unsigned n = 0, steps = 0;
	w->stack[n++] = seed;
	w->stamp++;
	while (n && steps++ < TRACE_STEPS) {
		ir_ref r = w->stack[--n];
		const struct ir_insn *d = w->def[r];
		if (!d || d->type != IR_T_I64 || w->seen[r] == w->stamp)
			continue;
		w->seen[r] = w->stamp;
		if (d->op == IR_PARAM) {
			for (uint32_t p = 0; p < ir->nparams; p++)
				if (ir->params[p].offset == (uint32_t)d->imm &&
				    ir->params[p].size == 8)
					w->is_ptr[p] = true;
		} else if (d->op == IR_STACK_LD && !d->aux && (uint64_t)d->imm / 4 < w->nslots) {
			w->ptr_slot[d->imm / 4] = true;
		} else if (d->op == IR_COPY || d->op == IR_BITCAST || d->op == IR_ADD ||
		           d->op == IR_SUB) {
			for (unsigned k = 0; k < d->nargs && k < 2 && n < TRACE_STACK - 2; k++)
				w->stack[n++] = d->args[k];
		} else if (d->op == IR_LOAD && ir_mem_bytes(d->aux) == 8) {
			for (uint32_t k = w->sx.first[d->args[0]];
			     k != UINT32_MAX && n < TRACE_STACK - 2; k = w->sx.next[k])
				if (w->sx.stores[k]->imm == d->imm)
					w->stack[n++] = w->sx.stores[k]->args[1];
		} else if (d->op == IR_SELECT) {
			for (unsigned k = 1; k < 3 && n < TRACE_STACK - 2; k++)
				w->stack[n++] = d->args[k];
		} else if (d->op == IR_PHI) { /* pointers stepped through a loop */
			const struct ir_block *bl = &ir->blocks[ir->vals[d->res].block];
			for (uint32_t k = 0; k < bl->npreds && n < TRACE_STACK - 2; k++)
				w->stack[n++] = d->phi_args[k];
		}
	}
}

void pa_find_pointers(const struct ir_function *ir, struct pa_arena *a, bool *const *callee_ptr,
                      bool *is_ptr, bool *ptr_slot, uint32_t nslots)
{
	struct ptr_walk w = {.ir = ir, .is_ptr = is_ptr, .ptr_slot = ptr_slot, .nslots = nslots};
	w.def = PA_NEW_ARRAY(a, const struct ir_insn *, ir->nvals + 1);
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			if (ir->blocks[b].insns[i].res != IR_NO_REF)
				w.def[ir->blocks[b].insns[i].res] = &ir->blocks[b].insns[i];
	index_stores(ir, a, &w.sx);
	w.stack = PA_NEW_ARRAY(a, ir_ref, TRACE_STACK);
	w.seen = PA_NEW_ARRAY(a, uint32_t, ir->nvals + 1);
	for (uint32_t b = 0; b < ir->nblocks; b++) {
		const bool *callee = NULL; /* of the next IR_CALL in the block */
		for (uint32_t i = ir->blocks[b].ninsns; i-- > 0;) {
			const struct ir_insn *in = &ir->blocks[b].insns[i];
			unsigned space = in->aux & IR_SPACE_MASK;
			if (in->op == IR_CALL || (in->op == IR_CALL_PTR && in->aux))
				callee = callee_ptr ? callee_ptr[in->aux - (in->op == IR_CALL_PTR)]
				                    : NULL;
			if (in->op == IR_STACK_ST && in->aux == 1 && callee && callee[in->imm / 4])
				walk_pointer(&w, in->args[0]);
			if ((in->op != IR_LOAD && in->op != IR_STORE && in->op != IR_ATOMIC &&
			     in->op != IR_RED) ||
			    (space != IR_SPACE_GLOBAL && space != IR_SPACE_GENERIC &&
			     space != IR_SPACE_CONST))
				continue;
			walk_pointer(&w, in->args[0]);
		}
	}
}
