/* Which kernel parameters are pointers (pa_find_pointers, for the metadata's value kinds).
 *
 * PTX does not say: a parameter whose value reaches a memory address is one.  From every
 * global/generic/const address (and every argument stored for a real callee in a frame slot
 * the callee uses as an address) the walk goes back through moves, bitcasts, 64-bit adds and
 * subtracts, selects, phis and 64-bit loads, at most TRACE_STEPS steps per address (nvcc -G
 * carries a pointer through a phi in nearly every block: a chain of hundreds in
 * tests/exec/ptx/coop_warp_g.ptx); a kernel parameter reached is a pointer, and so is a frame
 * slot of a function compiled on its own.  A load yields what was stored to the places its
 * address may name.  Those places (addr_set) are up to ADDR_MAX (root, offset) pairs, found
 * through moves, cvta, adds of constants, phis (a loop's phi optimistically, as in SCCP: the
 * value met again while it is computed adds nothing, and what depended on it is not memoized
 * until it is known) and loads from slots that hold addresses themselves.  Flow-insensitive:
 * a slot yields every value ever stored to it (nvcc -G reuses argument slots).
 *   requires: the IR (after ir_optimize; removed instructions are phis' arguments with no
 *   place).  breaks: nothing.  Complexity: O(values * ADDR_MAX) for the index (two rounds),
 *   walks bounded by TRACE_STEPS per address and a step budget for the places. */
#include "ptrargs.h"

#include <string.h>

/* Where a 64-bit address may point: up to ADDR_MAX (root, offset) pairs (addr_set),
 * looking through moves, cvta, adds of constants, phis and 64-bit loads from slots
 * (the addresses stored to the slots the load's own address may name).  nvcc -G keeps
 * every variable in the local frame, and a lambda that captures by reference holds the
 * address of the frame slot its pointer was stored to (add %rd, %SP, 848; st [%SP+872],
 * %rd; ... ld %rd2, [%SP+872]; ld %rd3, [%rd2]: %rd3 is what [%SP+848] holds), often
 * through argument slots that many calls reuse.  An address with more places (or past
 * the depth or step budget) is its own root.  The stores are listed by the roots of
 * their addresses (first[root] -> next[]), at off[k] bytes from it. */
enum { ADDR_MAX = 6, ADDR_DEPTH = 256, TRACE_STACK = 256, TRACE_STEPS = 4096 };

struct addr_set {
	uint8_t n;
	ir_ref root[ADDR_MAX];
	int64_t off[ADDR_MAX];
};

struct store_index {
	const struct ir_insn **stores, **def;
	uint32_t *first, *next, nentries;
	int64_t *off;
	struct addr_set **memo; /* per value: its places once known (few values are 64-bit) */
	struct pa_arena *arena;
	ir_ref *sym_root;   /* the first SYMADDR of each module variable */
	uint8_t *state;     /* 0 not known, 1 being computed, 2 known */
	bool through_loads; /* false while the index is built the first time */
	bool tentative;     /* the set being computed met a value being computed */
	uint64_t steps, max_steps;
};

static void addr_set(const struct ir_function *ir, struct store_index *x, ir_ref r, unsigned depth,
                     struct addr_set *out);

static bool set_add(struct addr_set *s, ir_ref root, int64_t off)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->root[i] == root && s->off[i] == off)
			return true;
	if (s->n == ADDR_MAX)
		return false;
	s->root[s->n] = root;
	s->off[s->n++] = off;
	return true;
}

/* Adds (t + delta) to s, the offsets wrapping as 64-bit addresses do; false when s has no
 * room. */
static bool set_union(struct addr_set *s, const struct addr_set *t, int64_t delta)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!set_add(s, t->root[i], (int64_t)((uint64_t)t->off[i] + (uint64_t)delta)))
			return false;
	return true;
}

/* The addresses stored to what `addr` + imm may name. */
static bool loaded_addrs(const struct ir_function *ir, struct store_index *x, ir_ref addr,
                         int64_t imm, unsigned depth, struct addr_set *out)
{
	struct addr_set a, v;
	addr_set(ir, x, addr, depth + 1, &a);
	for (unsigned i = 0; i < a.n; i++)
		for (uint32_t k = x->first[a.root[i]]; k != UINT32_MAX; k = x->next[k]) {
			if (x->off[k] != a.off[i] + imm)
				continue;
			addr_set(ir, x, x->stores[k]->args[1], depth + 1, &v);
			if (!set_union(out, &v, 0))
				return false;
		}
	return out->n > 0;
}

static bool addr_step(const struct ir_function *ir, struct store_index *x, const struct ir_insn *d,
                      unsigned depth, struct addr_set *out)
{
	struct addr_set t;
	switch (d->op) {
	case IR_COPY:
	case IR_BITCAST:
	case IR_CVTA_FROM:
	case IR_CVTA_TO:
		addr_set(ir, x, d->args[0], depth + 1, out);
		return true;
	case IR_SYMADDR: /* one root per variable */
		if (d->imm < 0 || (uint64_t)d->imm >= ir->nsymvars)
			return false;
		if (x->sym_root[d->imm] == IR_NO_REF)
			x->sym_root[d->imm] = d->res;
		return set_add(out, x->sym_root[d->imm], 0);
	case IR_ADD:
	case IR_SUB: {
		bool k1 = ir_is_const(ir, d->args[1]), k0 = ir_is_const(ir, d->args[0]);
		if (d->type != IR_T_I64 || !(k1 || (k0 && d->op == IR_ADD)))
			return false;
		int64_t c = (int64_t)ir->vals[d->args[k1 ? 1 : 0]].bits;
		addr_set(ir, x, d->args[k1 ? 0 : 1], depth + 1, &t);
		/* two's complement negation: -INT64_MIN is undefined in C, wraps in PTX */
		return set_union(out, &t, d->op == IR_SUB ? (int64_t)(0 - (uint64_t)c) : c);
	}
	case IR_PHI: { /* nvcc -G: frame addresses through phis, some undefined */
		const struct ir_block *bl = &ir->blocks[ir->vals[d->res].block];
		for (uint32_t k = 0; k < bl->npreds; k++) {
			ir_ref a = d->phi_args[k];
			if (a >= ir->nvals || ir->vals[a].kind == IR_VAL_UNDEF ||
			    (ir->vals[a].kind == IR_VAL_INSN && !x->def[a]))
				continue; /* undefined, or from a block no longer reached */
			addr_set(ir, x, a, depth + 1, &t);
			if (!set_union(out, &t, 0))
				return false;
		}
		return true;
	}
	case IR_LOAD:
		return ir_mem_bytes(d->aux) == 8 && x->through_loads &&
		       loaded_addrs(ir, x, d->args[0], d->imm, depth, out);
	default:
		return false;
	}
}

/* A value met again while it is computed (a loop) adds nothing for now, as in SCCP's
 * optimistic start; what depended on it is not memoized (tentative) until it is known. */
static void addr_set(const struct ir_function *ir, struct store_index *x, ir_ref r, unsigned depth,
                     struct addr_set *out)
{
	*out = (struct addr_set){.n = 1, .root = {r}, .off = {0}};
	if (r >= ir->nvals || !x->def[r])
		return;
	if (x->state[r] == 2) {
		*out = *x->memo[r];
		return;
	}
	if (x->state[r] == 1) {
		out->n = 0;
		x->tentative = true;
		return;
	}
	if (depth > ADDR_DEPTH || ++x->steps > x->max_steps)
		return;
	bool outer = x->tentative;
	x->tentative = false;
	x->state[r] = 1;
	struct addr_set s = {.n = 0};
	if (addr_step(ir, x, x->def[r], depth, &s))
		*out = s; /* empty: a phi of undefined values, or a loop's (tentative) */
	x->state[r] = x->tentative ? 0 : 2;
	if (x->state[r] == 2) {
		if (!x->memo[r])
			x->memo[r] = PA_NEW(x->arena, struct addr_set);
		*x->memo[r] = *out;
	}
	x->tentative |= outer;
}

static void fill_index(const struct ir_function *ir, struct store_index *x)
{
	memset(x->first, 0xff, (ir->nvals + 1) * sizeof *x->first);
	memset(x->state, 0, ir->nvals + 1);
	x->steps = 0;
	struct addr_set a;
	for (uint32_t b = 0; b < ir->nblocks; b++) /* in order: short recursions (nvcc -G */
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++) /* has long phi chains) */
			if (ir->blocks[b].insns[i].type == IR_T_I64 &&
			    ir->blocks[b].insns[i].res != IR_NO_REF)
				addr_set(ir, x, ir->blocks[b].insns[i].res, 0, &a);
	uint32_t n = 0;
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &ir->blocks[b].insns[i];
			if (in->op != IR_STORE || ir_mem_bytes(in->aux) != 8 ||
			    in->args[0] >= ir->nvals)
				continue;
			addr_set(ir, x, in->args[0], 0, &a);
			for (unsigned j = 0; j < a.n && n < x->nentries; j++) {
				x->stores[n] = in;
				x->off[n] = a.off[j] + in->imm;
				x->next[n] = x->first[a.root[j]];
				x->first[a.root[j]] = n++;
			}
		}
	memset(x->state, 0, ir->nvals + 1);
}

/* Two rounds: the store addresses first without looking through loads, then with the
 * slots the first round found.  O(stores * ADDR_MAX) entries. */
static void index_stores(const struct ir_function *ir, struct pa_arena *a,
                         const struct ir_insn **def, struct store_index *x)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			n += ir->blocks[b].insns[i].op == IR_STORE;
	x->nentries = n * ADDR_MAX;
	x->def = def;
	x->stores = PA_NEW_ARRAY(a, const struct ir_insn *, x->nentries + 1);
	x->next = PA_NEW_ARRAY(a, uint32_t, x->nentries + 1);
	x->off = PA_NEW_ARRAY(a, int64_t, x->nentries + 1);
	x->first = PA_NEW_ARRAY(a, uint32_t, ir->nvals + 1);
	x->memo = PA_NEW_ARRAY(a, struct addr_set *, ir->nvals + 1);
	x->arena = a;
	x->state = PA_NEW_ARRAY(a, uint8_t, ir->nvals + 1);
	x->sym_root = PA_NEW_ARRAY(a, ir_ref, ir->nsymvars + 1);
	memset(x->sym_root, 0xff, (ir->nsymvars + 1) * sizeof *x->sym_root);
	x->tentative = false;
	x->max_steps = 64 * (uint64_t)ir->nvals + 4096;
	x->through_loads = false;
	fill_index(ir, x);
	x->through_loads = true;
	fill_index(ir, x);
}

/* Pushes the values stored to what load d may read. */
static unsigned push_stored(const struct ir_function *ir, struct store_index *x,
                            const struct ir_insn *d, ir_ref *stack, unsigned n)
{
	struct addr_set a;
	addr_set(ir, x, d->args[0], 0, &a);
	for (unsigned i = 0; i < a.n; i++)
		for (uint32_t k = x->first[a.root[i]]; k != UINT32_MAX && n < TRACE_STACK - 2;
		     k = x->next[k])
			if (x->off[k] == a.off[i] + d->imm)
				stack[n++] = x->stores[k]->args[1];
	return n;
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
			n = push_stored(ir, &w->sx, d, w->stack, n);
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
	index_stores(ir, a, w.def, &w.sx);
	w.sx.steps = 0; /* the walk's own budget */
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
