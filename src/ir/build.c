/* ir_build: one parsed PTX function -> SSA IR.
 *
 * Algorithm: one walk over the statements.  Blocks start at labels and after branches;
 * a guarded instruction with effects (stores, loads that may fault, barriers) gets a
 * block of its own behind a conditional branch, a guarded pure instruction becomes a
 * select between its result and the register's previous value.  PTX registers (a
 * symbol plus an index for %r<N> ranges) are numbered densely as variables and turned
 * into SSA values on the fly by Braun et al.'s construction (CC 2013): each block maps
 * variables to their current value; a read in a block without a definition asks the
 * predecessors, placing a phi where several meet.  A block's predecessors are complete
 * when it is created, except for label blocks, which branches anywhere in the function
 * may target: they stay "unsealed" (reads there create operand-less phis) until the walk
 * ends.  Trivial phis are left to ir_optimize.
 * Per instruction the PTX semantics are expanded here where they are target-independent
 * (mad = mul + add, setp's boolean combination, cvt's rounding-mode and width rules) so
 * later stages see few, exact operations; the instruction translations live in
 * build_insn.c.
 * requires: a function checked by the front end.  Complexity: O(statements + reads)
 * expected (hash maps), recursion depth bounded by the number of joins on a path. */
#include <string.h>

#include "ir/build_int.h"

/* ---- hash maps: (key pair) -> u32, open addressing, arena-backed ----
 * A slot holds its key complemented, so that the arena's zeroed memory is an empty table
 * (no key is ~0) and a new table costs no clearing of its own. */

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static void map_init(struct irb_map *m, struct pa_arena *a, uint32_t cap)
{
	m->cap = cap;
	m->n = 0;
	m->arena = a;
	m->keys = PA_NEW_ARRAY(a, uint64_t, cap);
	m->vals = PA_NEW_ARRAY(a, uint32_t, cap);
}

static uint32_t *map_slot(struct irb_map *m, uint64_t key, bool *found)
{
	uint32_t i = (uint32_t)mix(key) & (m->cap - 1);
	while (m->keys[i] != 0 && m->keys[i] != ~key)
		i = (i + 1) & (m->cap - 1);
	*found = m->keys[i] == ~key;
	return &m->vals[i];
}

static void map_put(struct irb_map *m, struct pa_arena *a, uint64_t key, uint32_t val)
{
	(void)a; /* (the map grows in its own arena) */
	if ((m->n + 1) * 2 > m->cap) {
		struct irb_map old = *m;
		map_init(m, old.arena, old.cap * 2);
		for (uint32_t i = 0; i < old.cap; i++)
			if (old.keys[i] != 0)
				map_put(m, old.arena, ~old.keys[i], old.vals[i]);
		/* the old table's pages go back (a large function's maps regrow many times) */
		pa_arena_release(old.keys, old.cap * sizeof *old.keys);
		pa_arena_release(old.vals, old.cap * sizeof *old.vals);
	}
	bool found;
	uint32_t *slot = map_slot(m, key, &found);
	if (!found) {
		uint32_t i = (uint32_t)(slot - m->vals);
		m->keys[i] = ~key;
		m->n++;
	}
	*slot = val;
}

static bool map_get(struct irb_map *m, uint64_t key, uint32_t *val)
{
	bool found;
	uint32_t *slot = map_slot(m, key, &found);
	if (found)
		*val = *slot;
	return found;
}

bool irb_map_get(struct irb_map *m, uint64_t key, uint32_t *val)
{
	return map_get(m, key, val);
}

void irb_map_put(struct irb_map *m, struct pa_arena *a, uint64_t key, uint32_t val)
{
	map_put(m, a, key, val);
}

/* ---- diagnostics ---- */

void irb_error(struct irb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pa_diag_vreport(b->d, PA_DIAG_ERROR, b->file, b->line, b->col, NULL, 0, fmt, ap);
	va_end(ap);
	irb_note_inlining(b);
	b->failed = true;
}

/* ---- variables ---- */

enum ir_type irb_ptx_type(enum ptx_type t)
{
	switch (t) {
	case PTX_TYPE_PRED:
		return IR_T_PRED;
	case PTX_TYPE_B16:
	case PTX_TYPE_U16:
	case PTX_TYPE_S16:
		return IR_T_I16;
	case PTX_TYPE_B32:
	case PTX_TYPE_U32:
	case PTX_TYPE_S32:
		return IR_T_I32;
	case PTX_TYPE_B64:
	case PTX_TYPE_U64:
	case PTX_TYPE_S64:
		return IR_T_I64;
	case PTX_TYPE_F32:
		return IR_T_F32;
	case PTX_TYPE_F64:
		return IR_T_F64;
	case PTX_TYPE_F16: /* f16 values are their bit patterns */
		return IR_T_I16;
	case PTX_TYPE_F16X2: /* two f16 bit patterns, the first in the low half */
		return IR_T_I32;
	default:
		return IR_T_NONE;
	}
}

/* Dense number of symbol `sym` in inline instance `inst` (0: the kernel's own body; each
 * inlined call gets a new instance, so a callee's registers, labels and .param variables are
 * renamed per call).  The key is exact: symbols are 8-byte aligned in user space below 2^48
 * and instances stay below 2^19 (irb_new_instance). */
uint32_t irb_sym_instance(struct irb *b, const struct ptx_symbol *sym, uint32_t inst)
{
	uint64_t key = ((uint64_t)(uintptr_t)sym >> 3) << 19 | inst;
	unsigned c = (unsigned)(key ^ key >> 19) & 3; /* (a zero key, never made, is empty) */
	if (b->syminst_key[c] == key)
		return b->syminst_val[c];
	uint32_t v;
	if (!map_get(&b->syminst, key, &v)) {
		v = b->nsyminst++;
		map_put(&b->syminst, b->arena, key, v);
	}
	b->syminst_key[c] = key;
	b->syminst_val[c] = v;
	return v;
}

/* Where irb_var caches the variable of register sym[index] of dense symbol number `si`
 * (variable + 1, 0: not known yet), or NULL for ranges too large to hold an array. */
static uint32_t *symvar_slot(struct irb *b, uint32_t si, const struct ptx_symbol *sym,
                             uint32_t inst, uint32_t index)
{
	uint32_t len = sym->range ? sym->range : 1;
	/* (inlined instances get small arrays only: a callee inlined many times would else
	 * pay its whole declared ranges each time) */
	if (len > (inst ? 1u << 10 : 1u << 16) || index >= len)
		return NULL;
	if (si >= b->var_of_sym_cap) {
		uint32_t ncap = b->var_of_sym_cap ? b->var_of_sym_cap * 2 : 64;
		while (ncap <= si)
			ncap *= 2;
		uint32_t **n = PA_NEW_ARRAY(b->arena, uint32_t *, ncap);
		if (b->var_of_sym)
			memcpy(n, b->var_of_sym, b->var_of_sym_cap * sizeof *n);
		b->var_of_sym = n;
		b->var_of_sym_cap = ncap;
	}
	if (!b->var_of_sym[si])
		b->var_of_sym[si] = PA_NEW_ARRAY(b->arena, uint32_t, len);
	return &b->var_of_sym[si][index];
}

/* Room for `need` variables in the per-variable arrays (pa_arena_grow: a large array grows
 * in a mapping of its own, so a capacity beyond what is used costs no memory). */
static void grow_vars(struct irb *b, uint32_t need)
{
	uint32_t cap = b->vars_cap;
	b->var_type = pa_arena_grow(b->arena, b->var_type, &cap, need, sizeof *b->var_type);
	cap = b->vars_cap;
	b->last_def_block =
	        pa_arena_grow(b->arena, b->last_def_block, &cap, need, sizeof *b->last_def_block);
	cap = b->vars_cap;
	b->last_def_value =
	        pa_arena_grow(b->arena, b->last_def_value, &cap, need, sizeof *b->last_def_value);
	b->vars_cap = cap;
}

/* A new variable of type `t`. */
static uint32_t new_var(struct irb *b, enum ir_type t)
{
	if (b->nvars == b->vars_cap)
		grow_vars(b, b->nvars + 1);
	b->var_type[b->nvars] = (uint8_t)t;
	b->last_def_block[b->nvars] = UINT32_MAX;
	return b->nvars++;
}

/* The variable with key `key`, created with type `t` on first sight. */
uint32_t irb_var_of_key(struct irb *b, uint64_t key, enum ir_type t)
{
	uint32_t v;
	if (map_get(&b->vars, key, &v))
		return v;
	v = new_var(b, t);
	map_put(&b->vars, b->arena, key, v);
	return v;
}

/* The variable of register sym[index] of inline instance `inst`, of type t (created on first
 * sight).  A register with a cache slot (symvar_slot) is found through it alone: whether it
 * has one depends on the key, and every variable of a key of this form is made here, so only
 * the others go into the vars map (a large kernel's map was 1.5 MiB of the compile's peak,
 * the end of ir_build). */
uint32_t irb_reg_var(struct irb *b, const struct ptx_symbol *sym, uint32_t inst, uint32_t index,
                     enum ir_type t)
{
	uint32_t si = irb_sym_instance(b, sym, inst);
	uint32_t *cached = symvar_slot(b, si, sym, inst, index);
	if (!cached)
		return irb_var_of_key(b, (uint64_t)si << 32 | index, t);
	if (!*cached)
		*cached = new_var(b, t) + 1;
	return *cached - 1;
}

/* Variable number of register `sym`[index] in the current inline instance (created on
 * first sight), or -1 with an error for register types the code generator does not handle. */
int32_t irb_var(struct irb *b, const struct ptx_symbol *sym, uint32_t index)
{
	uint32_t si = irb_sym_instance(b, sym, b->inst);
	/* a register seen before: its slot exists (symvar_slot made the row) */
	uint32_t len = sym->range ? sym->range : 1;
	if (si < b->var_of_sym_cap && b->var_of_sym[si] && index < len && b->var_of_sym[si][index])
		return (int32_t)(b->var_of_sym[si][index] - 1);
	uint32_t *cached = symvar_slot(b, si, sym, b->inst, index);
	if (cached && *cached)
		return (int32_t)(*cached - 1);
	uint32_t v;
	if (!cached && map_get(&b->vars, (uint64_t)si << 32 | index, &v))
		return (int32_t)v;
	enum ir_type t = irb_ptx_type((enum ptx_type)sym->type);
	if (sym->vec > 1) {
		irb_error(b,
		          "vector-typed register '%s' is not supported by the code generator yet",
		          sym->name);
		return -1;
	}
	if (t == IR_T_NONE) {
		irb_error(
		        b,
		        "registers of type '%s' ('%s') are not supported by the code generator yet",
		        ptx_types[sym->type].name, sym->name);
		return -1;
	}
	/* first sight: irb_reg_var's work with the slot and instance already found */
	if (!cached)
		return (int32_t)irb_var_of_key(b, (uint64_t)si << 32 | index, t);
	*cached = new_var(b, t) + 1;
	return (int32_t)(*cached - 1);
}

/* ---- SSA construction (Braun et al.) ---- */

static uint64_t def_key(uint32_t var, uint32_t block)
{
	return (uint64_t)var << 32 | block;
}

/* The current value of `var` in `block`: the variable's last write (last_def_block/value)
 * when it was in `block`, else the defs map, which gets a write only when a write in
 * another block replaces it as the last (most registers of nvcc's PTX are written once,
 * so most never reach the map). */
static bool get_def(struct irb *b, uint32_t var, uint32_t block, uint32_t *v)
{
	if (b->last_def_block[var] == block) {
		*v = b->last_def_value[var];
		return true;
	}
	return map_get(&b->defs, def_key(var, block), v);
}

void irb_write_var(struct irb *b, uint32_t var, uint32_t block, ir_ref v)
{
	uint32_t last = b->last_def_block[var];
	if (last != block && last != UINT32_MAX)
		map_put(&b->defs, b->arena, def_key(var, last), b->last_def_value[var]);
	b->last_def_block[var] = block;
	b->last_def_value[var] = v;
}

bool irb_has_def(struct irb *b, uint32_t var, uint32_t block)
{
	uint32_t v;
	return get_def(b, var, block, &v);
}

static struct irb_phi *new_phi(struct irb *b, uint32_t var, uint32_t block)
{
	struct irb_phi *p = PA_NEW(b->arena, struct irb_phi);
	p->res = ir_new_value(b->fn, (enum ir_type)b->var_type[var], block);
	p->var = var;
	p->args = NULL;
	p->next = b->bstate[block].phis;
	b->bstate[block].phis = p;
	return p;
}

static void fill_phi(struct irb *b, struct irb_phi *p, uint32_t block)
{
	struct ir_block *bl = &b->fn->blocks[block];
	p->args = PA_NEW_ARRAY(b->arena, ir_ref, bl->npreds ? bl->npreds : 1);
	for (uint32_t i = 0; i < bl->npreds; i++)
		p->args[i] = irb_read_var(b, p->var, bl->preds[i]);
}

ir_ref irb_read_var(struct irb *b, uint32_t var, uint32_t block)
{
	uint32_t v;
	uint32_t start = block, steps = 0;
	/* Walk single-predecessor chains iteratively: they are the common case.  A chain
	 * longer than the function is a cycle of single-predecessor blocks, which no path
	 * from the entry reaches: the value is undefined there. */
	for (;;) {
		if (get_def(b, var, block, &v))
			break;
		struct ir_block *bl = &b->fn->blocks[block];
		if (++steps > b->fn->nblocks) {
			v = ir_undef(b->fn, (enum ir_type)b->var_type[var]);
			irb_write_var(b, var, block, v);
			break;
		}
		if (!b->bstate[block].sealed) {
			struct irb_phi *p = new_phi(b, var, block);
			p->incomplete = true;
			v = p->res;
			irb_write_var(b, var, block, v);
			break;
		}
		if (bl->npreds == 1 && bl->preds[0] != block) {
			block = bl->preds[0];
			continue;
		}
		if (bl->npreds == 0) {
			v = ir_undef(b->fn, (enum ir_type)b->var_type[var]);
			irb_write_var(b, var, block, v);
			break;
		}
		struct irb_phi *p = new_phi(b, var, block);
		v = p->res;
		irb_write_var(b, var, block, v); /* before the operands: loops come back here */
		fill_phi(b, p, block);
		break;
	}
	if (start != block)
		irb_write_var(b, var, start, v);
	return v;
}

void irb_seal(struct irb *b, uint32_t block)
{
	if (b->bstate[block].sealed)
		return;
	b->bstate[block].sealed = true;
	for (struct irb_phi *p = b->bstate[block].phis; p; p = p->next)
		if (p->incomplete) {
			p->incomplete = false;
			fill_phi(b, p, block);
		}
}

/* ---- blocks ---- */

static void grow_bstate(struct irb *b)
{
	if (b->fn->nblocks <= b->bstate_cap)
		return;
	uint32_t ncap = b->bstate_cap ? b->bstate_cap * 2 : 64;
	while (ncap < b->fn->nblocks)
		ncap *= 2;
	struct irb_block_state *ns = PA_NEW_ARRAY(b->arena, struct irb_block_state, ncap);
	if (b->bstate)
		memcpy(ns, b->bstate, b->bstate_cap * sizeof *ns);
	b->bstate = ns;
	b->bstate_cap = ncap;
}

uint32_t irb_new_block(struct irb *b)
{
	uint32_t nb = ir_new_block(b->fn);
	grow_bstate(b);
	memset(&b->bstate[nb], 0, sizeof b->bstate[nb]);
	return nb;
}

static void add_pred(struct irb *b, uint32_t from, uint32_t to)
{
	struct ir_block *t = &b->fn->blocks[to];
	struct irb_block_state *s = &b->bstate[to];
	if (t->npreds == s->preds_cap) {
		uint32_t ncap = s->preds_cap ? s->preds_cap * 2 : 2;
		uint32_t *np = PA_NEW_ARRAY(b->arena, uint32_t, ncap);
		if (t->preds)
			memcpy(np, t->preds, t->npreds * sizeof *np);
		t->preds = np;
		s->preds_cap = ncap;
	}
	t->preds[t->npreds++] = from;
}

void irb_edge(struct irb *b, uint32_t from, uint32_t to)
{
	ir_add_edge(b->fn, from, to);
	add_pred(b, from, to);
}

uint32_t irb_label_block(struct irb *b, const struct ptx_symbol *label)
{
	uint32_t v;
	uint64_t key = irb_sym_instance(b, label, b->inst);
	if (map_get(&b->labels, key, &v))
		return v;
	v = irb_new_block(b);
	b->fn->blocks[v].label = label;
	b->bstate[v].is_label = true;
	map_put(&b->labels, b->arena, key, v);
	return v;
}

/* Appends an instruction to the current block; returns its result value (or IR_NO_REF). */
ir_ref irb_emit(struct irb *b, enum ir_op op, enum ir_type type, const ir_ref *args, unsigned nargs,
                uint32_t aux, int64_t imm)
{
	if (op == IR_SREG && b->fn->real_sym && aux <= IR_SREG_NCTAID_Z)
		return irb_context_sreg(b, aux); /* passed by the caller (inline.c) */
	struct ir_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = (uint8_t)type;
	in.nargs = (uint8_t)nargs;
	in.aux = aux;
	in.imm = imm;
	in.line = b->line;
	in.col = b->col;
	for (unsigned i = 0; i < nargs && i < 4; i++)
		in.args[i] = args[i];
	in.res = (ir_ops[op].flags & IR_OPF_NORES) ? IR_NO_REF : ir_new_value(b->fn, type, b->cur);
	ir_append(b->fn, b->cur, &in);
	return in.res;
}

/* Ends the current block with a terminator and its edges. */
void irb_terminate(struct irb *b, enum ir_op op, ir_ref cond, uint32_t s0, uint32_t s1)
{
	ir_ref args[1] = {cond};
	irb_emit(b, op, IR_T_NONE, args, op == IR_BR ? 1 : 0, 0, 0);
	if (op == IR_BR) {
		irb_edge(b, b->cur, s0);
		irb_edge(b, b->cur, s1);
	} else if (op == IR_JMP) {
		irb_edge(b, b->cur, s0);
	}
	b->terminated = true;
}

/* A new block whose predecessors are all known already (sealed at once). */
uint32_t irb_open_sealed(struct irb *b)
{
	uint32_t nb = irb_new_block(b);
	b->bstate[nb].sealed = true;
	return nb;
}

void irb_switch_to(struct irb *b, uint32_t block)
{
	b->cur = block;
	b->terminated = false;
}

/* ---- the function ---- */

static uint32_t param_size(const struct ptx_symbol *s)
{
	uint64_t n = (uint64_t)(ptx_types[s->type].bits / 8) * (s->vec ? s->vec : 1);
	for (unsigned i = 0; i < s->ndims; i++)
		n *= s->dims[i] ? s->dims[i] : 1;
	return (uint32_t)n;
}

static void layout_params(struct irb *b, const struct ptx_func_info *fi)
{
	struct ir_function *fn = b->fn;
	fn->nparams = fi->nparams;
	fn->params = PA_NEW_ARRAY(b->arena, struct ir_param, fi->nparams ? fi->nparams : 1);
	uint32_t off = 0;
	for (uint32_t i = 0; i < fi->nparams; i++) {
		const struct ptx_symbol *s = fi->params[i];
		uint32_t size = param_size(s);
		uint32_t elem = (uint32_t)(ptx_types[s->type].bits / 8) * (s->vec ? s->vec : 1);
		uint32_t align = s->align ? s->align : (elem ? elem : 1);
		off = (off + align - 1) & ~(align - 1);
		fn->params[i] = (struct ir_param){.name = s->name,
		                                  .offset = off,
		                                  .size = size,
		                                  .align = align,
		                                  .is_pointer = s->is_ptr || size == 8};
		map_put(&b->params, b->arena, (uint64_t)(uintptr_t)s, i);
		off += size;
	}
	fn->param_bytes = off;
}

bool irb_param_index(struct irb *b, const struct ptx_symbol *s, uint32_t *index)
{
	return map_get(&b->params, (uint64_t)(uintptr_t)s, index);
}

static void finish_phis(struct irb *b)
{
	struct ir_function *fn = b->fn;
	for (uint32_t bl = 0; bl < fn->nblocks; bl++) {
		uint32_t nphi = 0;
		for (struct irb_phi *p = b->bstate[bl].phis; p; p = p->next)
			nphi++;
		if (!nphi)
			continue;
		struct ir_block *blk = &fn->blocks[bl];
		struct ir_insn *ins = PA_NEW_ARRAY(b->arena, struct ir_insn, blk->ninsns + nphi);
		uint32_t k = nphi;
		for (struct irb_phi *p = b->bstate[bl].phis; p; p = p->next) {
			struct ir_insn *in = &ins[--k]; /* creation order */
			memset(in, 0, sizeof *in);
			in->op = IR_PHI;
			in->type = fn->vals[p->res].type;
			in->res = p->res;
			in->nargs = 0;
			in->phi_args = p->args;
		}
		memcpy(ins + nphi, blk->insns, blk->ninsns * sizeof *ins);
		blk->insns = ins;
		blk->ninsns += nphi;
		blk->cap = blk->ninsns;
	}
}

/* Translates a body's statements into the current block onwards (the kernel's, or an
 * inlined callee's in its own instance: see inline.c). */
void irb_walk(struct irb *b, const struct ptx_function *pf)
{
	for (uint32_t i = 0; i < pf->nstmts && !pa_diag_too_many(b->d) && !b->stop; i++) {
		const struct ptx_stmt *st = &pf->stmts[i];
		b->line = st->line;
		b->col = st->col ? st->col : 1;
		switch (st->kind) {
		case PTX_STMT_LABEL: {
			uint32_t lb = irb_label_block(b, st->u.sym);
			if (!b->terminated)
				irb_terminate(b, IR_JMP, IR_NO_REF, lb, 0);
			irb_switch_to(b, lb);
			break;
		}
		case PTX_STMT_INSN:
			if (b->terminated) /* unreachable code after a branch without a label */
				irb_switch_to(b, irb_open_sealed(b));
			irb_insn(b, st->u.insn);
			break;
		case PTX_STMT_DECL:
			irb_decl(b, st->u.sym);
			break;
		default: /* scopes, .loc, pragmas: nothing to generate */
			break;
		}
	}
}

/* The registers the body declares (a range %r<N> counts N): about the variables it makes,
 * so that their arrays are sized once instead of doubled (the abandoned copies of a 50k
 * instruction kernel's were half a MiB at the compile's peak, the end of ir_build). */
static uint32_t declared_registers(const struct ptx_function *pf)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		const struct ptx_stmt *st = &pf->stmts[i];
		if (st->kind == PTX_STMT_DECL && st->u.sym->space == PTX_SPACE_REG)
			n += st->u.sym->range ? st->u.sym->range : 1;
	}
	return n < (1u << 24) ? (uint32_t)n : 1u << 24;
}

static bool build_function(struct ir_function *fn, const struct ptx_function *pf,
                           const struct ptx_module_state *m, const char *file,
                           struct pa_arena *arena, struct pa_arena *maps,
                           const struct ir_funclib *lib, struct pa_diag *d)
{
	unsigned wave = fn->wave_size == 64 ? 64 : 32; /* the caller's settings (ir.h) */
	unsigned warp = fn->warp_size == 32 ? 32 : wave;
	bool no_lanemask_warning = fn->no_lanemask_warning;
	unsigned matrix_unit = fn->matrix_unit;
	const struct ptx_symbol *real_sym = fn->real_sym;
	uint32_t stack_size = fn->stack_size, printf_id_base = fn->printf_id_base;
	unsigned inline_mode = fn->inline_mode;
	const struct ptx_symbol *const *inline_only = fn->inline_only;
	uint32_t ninline_only = fn->ninline_only;
	bool fnptr_address = fn->fnptr_address;
	const char *const *fnptr_taken = fn->fnptr_taken;
	uint32_t nfnptr_taken = fn->nfnptr_taken;
	memset(fn, 0, sizeof *fn);
	fn->fnptr_address = fnptr_address;
	fn->fnptr_taken = fnptr_taken;
	fn->nfnptr_taken = nfnptr_taken;
	fn->inline_mode = inline_mode;
	fn->inline_only = inline_only;
	fn->ninline_only = ninline_only;
	fn->real_sym = real_sym;
	fn->stack_size = stack_size;
	fn->printf_id_base = printf_id_base;
	fn->wave_size = wave;
	fn->warp_size = warp;
	fn->no_lanemask_warning = no_lanemask_warning;
	fn->matrix_unit = matrix_unit;
	fn->arena = arena;
	fn->name = pf->sym->name;
	fn->file = file;
	const struct ptx_func_info *fi = pf->sym->func;
	fn->is_entry = fi && fi->is_entry;
	struct irb b;
	memset(&b, 0, sizeof b);
	b.fn = fn;
	b.d = d;
	b.file = file;
	b.arena = arena;
	b.mod = m;
	b.lib = lib;
	b.line = pf->sym->line;
	b.col = pf->sym->col;
	map_init(&b.vars, maps, 256);
	map_init(&b.defs, maps, 256);
	map_init(&b.labels, maps, 64);
	map_init(&b.params, maps, 64);
	map_init(&b.syminst, maps, 256);
	map_init(&b.slots, maps, 64);
	map_init(&b.call_size, maps, 16);
	map_init(&b.call_sites, maps, 16);
	b.root = pf;
	if (!fn->is_entry && real_sym) { /* a recursive function compiled on its own */
		irb_switch_to(&b, irb_open_sealed(&b));
		irb_real_function(&b, pf, real_sym);
		for (uint32_t bl = 0; bl < fn->nblocks; bl++)
			irb_seal(&b, bl);
		irb_warp_finish(&b); /* also after errors: its diagnostics are located */
		irb_printf_finish(&b);
		if (b.failed)
			return false;
		finish_phis(&b);
		return true;
	}
	if (!fn->is_entry) {
		irb_error(&b,
		          "device function '%s': only kernels (.entry) are compiled so far; calls "
		          "and .func bodies are not supported by the code generator yet",
		          fn->name);
		return false;
	}
	if (fi->nrets) {
		irb_error(&b, "kernel '%s' declares return values", fn->name);
		return false;
	}
	for (int k = 0; k < 3; k++) {
		fn->maxntid[k] = k < fi->nmaxntid ? fi->maxntid[k] : 0;
		fn->reqntid[k] = k < fi->nreqntid ? fi->reqntid[k] : 0;
	}
	fn->maxnreg = fi->has_maxnreg ? fi->maxnreg : 0;
	layout_params(&b, fi);
	irb_switch_to(&b, irb_open_sealed(&b)); /* block 0: the entry, never a branch target */
	b.body = pf;
	grow_vars(&b, declared_registers(pf));
	irb_walk(&b, pf);
	if (!b.terminated)
		irb_terminate(&b, IR_RET, IR_NO_REF, 0, 0);
	for (uint32_t bl = 0; bl < fn->nblocks; bl++)
		irb_seal(&b, bl);
	irb_warp_finish(&b); /* also after errors: its diagnostics are located */
	if (b.failed)
		return false;
	irb_bar_finish(&b); /* build_bar.c */
	irb_printf_finish(&b);
	if (b.failed)
		return false;
	irb_mma_finish(&b);
	finish_phis(&b);
	return true;
}

/* The builder's hash maps live in an arena of their own, freed on return: the IR's arena
 * then holds the IR alone while the later stages run (the maps were a third of it). */
bool ir_build(struct ir_function *fn, const struct ptx_function *pf,
              const struct ptx_module_state *m, const char *file, struct pa_arena *arena,
              const struct ir_funclib *lib, struct pa_diag *d)
{
	struct pa_arena maps;
	pa_arena_init_beside(&maps, arena);
	bool ok = build_function(fn, pf, m, file, arena, &maps, lib, d);
	pa_arena_free(&maps);
	return ok;
}
