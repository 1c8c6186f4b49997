/* ir_funclib: the device functions (.func) of a module, kept for inlining.
 *
 * The front end streams functions and frees each body once it has been handed on, but a
 * kernel inlines its callees' bodies, and a callee may be defined after its caller.  So
 * every .func body is deep-copied here into a module-lifetime arena when the front end
 * hands it over (statements, instructions, operands and the function-local symbols they
 * point to: registers, labels, local .param/.local/.shared variables, the parameters);
 * module-level symbols (globals, functions, special registers) are shared, since they
 * live for the whole parse.  ir_copy_function makes the same copy of a kernel whose
 * callees are not all defined yet, so the driver can compile it later
 * (ir_funclib_pending says which callee is missing).  .loc, pragmas and prototypes are
 * dropped from copies: code generation does not read them.
 * Peak memory: the sum of the device functions' bodies, plus the deferred kernels.
 * Complexity: linear in the copied statements and operands (hash map for symbols); the
 * pending-callee search visits each saved function once. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

/* ---- pointer -> pointer map (open addressing; scratch memory from malloc) ---- */

struct ptrmap {
	const void **keys;
	void **vals;
	uint32_t cap, n;
};

static uint32_t ptr_hash(const void *p)
{
	uint64_t k = (uint64_t)(uintptr_t)p;
	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 32;
	return (uint32_t)k;
}

static void ptrmap_init(struct ptrmap *m, uint32_t cap)
{
	m->cap = cap;
	m->n = 0;
	m->keys = pa_xcalloc(cap, sizeof *m->keys);
	m->vals = pa_xcalloc(cap, sizeof *m->vals);
}

static void ptrmap_free(struct ptrmap *m)
{
	free(m->keys);
	free(m->vals);
}

static uint32_t ptrmap_slot(const struct ptrmap *m, const void *key)
{
	uint32_t i = ptr_hash(key) & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void *ptrmap_get(const struct ptrmap *m, const void *key)
{
	uint32_t i = ptrmap_slot(m, key);
	return m->keys[i] ? m->vals[i] : NULL;
}

static void ptrmap_put(struct ptrmap *m, const void *key, void *val)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct ptrmap old = *m;
		ptrmap_init(m, old.cap * 2);
		for (uint32_t i = 0; i < old.cap; i++)
			if (old.keys[i])
				ptrmap_put(m, old.keys[i], old.vals[i]);
		ptrmap_free(&old);
	}
	uint32_t i = ptrmap_slot(m, key);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

/* ---- deep copy of a function body ---- */

struct copier {
	struct pa_arena *a;
	struct ptrmap syms; /* original symbol -> copy */
};

/* Symbols that live in the front end's function arena: what a copy must duplicate. */
static bool is_function_local(const struct ptx_symbol *s)
{
	switch (s->kind) {
	case PTX_SYM_LABEL:
	case PTX_SYM_PROTO:
	case PTX_SYM_TARGETS:
		return true;
	case PTX_SYM_VAR: /* function-scope .global/.const live in the module arena */
		return s->scope_id != 0 && s->space != PTX_SPACE_GLOBAL &&
		       s->space != PTX_SPACE_CONST;
	default:
		return false;
	}
}

static struct ptx_symbol *copy_symbol(struct copier *k, const struct ptx_symbol *s)
{
	struct ptx_symbol *n = PA_NEW(k->a, struct ptx_symbol);
	*n = *s;
	n->name = pa_arena_strndup(k->a, s->name, s->name_len);
	n->init = NULL;
	n->ninit = 0;
	n->func = NULL; /* prototypes: indirect calls are rejected by name only */
	n->use_text = NULL;
	n->use_len = 0;
	n->hnext = n->next_in_scope = NULL;
	ptrmap_put(&k->syms, s, n);
	return n;
}

static const struct ptx_symbol *map_symbol(struct copier *k, const struct ptx_symbol *s)
{
	if (!s)
		return NULL;
	struct ptx_symbol *n = ptrmap_get(&k->syms, s);
	if (n)
		return n;
	return is_function_local(s) ? copy_symbol(k, s) : s;
}

static void copy_operand(struct copier *k, struct ptx_operand *dst, const struct ptx_operand *src)
{
	*dst = *src;
	dst->sym = map_symbol(k, src->sym);
	if (src->nelems && src->elems) {
		dst->elems = PA_NEW_ARRAY(k->a, struct ptx_operand, src->nelems);
		for (uint32_t i = 0; i < src->nelems; i++)
			copy_operand(k, &dst->elems[i], &src->elems[i]);
	}
	if (src->pair) {
		dst->pair = PA_NEW(k->a, struct ptx_operand);
		copy_operand(k, dst->pair, src->pair);
	}
}

static struct ptx_insn *copy_insn(struct copier *k, const struct ptx_insn *in)
{
	struct ptx_insn *n = PA_NEW(k->a, struct ptx_insn);
	*n = *in;
	if (in->nmods) {
		n->mods = PA_NEW_ARRAY(k->a, uint16_t, in->nmods);
		memcpy(n->mods, in->mods, in->nmods * sizeof *in->mods);
	}
	if (in->has_guard) {
		n->guard = PA_NEW(k->a, struct ptx_operand);
		copy_operand(k, n->guard, in->guard);
	}
	if (in->nopnds) {
		n->opnds = PA_NEW_ARRAY(k->a, struct ptx_operand, in->nopnds);
		for (unsigned i = 0; i < in->nopnds; i++)
			copy_operand(k, &n->opnds[i], &in->opnds[i]);
	}
	return n;
}

static struct ptx_symbol **copy_symbols(struct copier *k, struct ptx_symbol *const *syms,
                                        uint32_t n)
{
	struct ptx_symbol **out = PA_NEW_ARRAY(k->a, struct ptx_symbol *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++)
		out[i] = copy_symbol(k, syms[i]);
	return out;
}

/* The function symbol of the copy: the original's fields, with a signature whose parameter
 * symbols are copies too (the original's are freed with the body). */
static struct ptx_symbol *copy_function_symbol(struct copier *k, const struct ptx_symbol *fs)
{
	struct ptx_symbol *n = PA_NEW(k->a, struct ptx_symbol);
	*n = *fs;
	n->hnext = n->next_in_scope = NULL;
	struct ptx_func_info *fi = PA_NEW(k->a, struct ptx_func_info);
	*fi = *fs->func;
	fi->params = copy_symbols(k, fs->func->params, fs->func->nparams);
	fi->rets = copy_symbols(k, fs->func->rets, fs->func->nrets);
	n->func = fi;
	return n;
}

struct ptx_function *ir_copy_function(const struct ptx_function *pf, struct pa_arena *arena)
{
	struct copier k = {.a = arena};
	ptrmap_init(&k.syms, 256);
	struct ptx_function *n = PA_NEW(arena, struct ptx_function);
	n->sym = copy_function_symbol(&k, pf->sym);
	n->stmts = PA_NEW_ARRAY(arena, struct ptx_stmt, pf->nstmts ? pf->nstmts : 1);
	uint32_t ns = 0;
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		const struct ptx_stmt *st = &pf->stmts[i];
		struct ptx_stmt *d = &n->stmts[ns];
		*d = (struct ptx_stmt){.kind = st->kind, .line = st->line, .col = st->col};
		switch (st->kind) {
		case PTX_STMT_INSN:
			d->u.insn = copy_insn(&k, st->u.insn);
			break;
		case PTX_STMT_LABEL:
		case PTX_STMT_DECL:
			d->u.sym = (struct ptx_symbol *)map_symbol(&k, st->u.sym);
			break;
		case PTX_STMT_TARGETS: /* brx.idx reads the list (build_insn.c) */
			d->u.sym = (struct ptx_symbol *)map_symbol(&k, st->u.sym);
			d->extra = st->extra;
			d->nopnds = st->nopnds;
			d->opnds = PA_NEW_ARRAY(arena, struct ptx_operand,
			                        st->nopnds ? st->nopnds : 1);
			for (uint32_t j = 0; j < st->nopnds; j++)
				copy_operand(&k, &d->opnds[j], &st->opnds[j]);
			break;
		case PTX_STMT_OPEN:
		case PTX_STMT_CLOSE:
			break;
		default: /* .loc, pragmas, prototypes */
			continue;
		}
		ns++;
	}
	n->nstmts = ns;
	ptrmap_free(&k.syms);
	return n;
}

/* ---- the library ---- */

struct ir_funclib_entry {
	const struct ptx_symbol *sym; /* the module-level symbol calls point to */
	const struct ptx_function *body;
	bool visited; /* ir_funclib_pending's walk */
};

void ir_funclib_init(struct ir_funclib *lib, struct pa_arena *arena)
{
	memset(lib, 0, sizeof *lib);
	lib->arena = arena;
}

static uint32_t lib_slot(const struct ir_funclib *lib, const struct ptx_symbol *sym)
{
	uint32_t i = ptr_hash(sym) & (lib->cap - 1);
	while (lib->entries[i].sym && lib->entries[i].sym != sym)
		i = (i + 1) & (lib->cap - 1);
	return i;
}

static void lib_grow(struct ir_funclib *lib)
{
	struct ir_funclib_entry *old = lib->entries;
	uint32_t ocap = lib->cap;
	lib->cap = ocap ? ocap * 2 : 64;
	lib->entries = PA_NEW_ARRAY(lib->arena, struct ir_funclib_entry, lib->cap);
	for (uint32_t i = 0; i < ocap; i++)
		if (old[i].sym)
			lib->entries[lib_slot(lib, old[i].sym)] = old[i];
}

void ir_funclib_add(struct ir_funclib *lib, const struct ptx_function *pf)
{
	if ((lib->n + 1) * 2 > lib->cap)
		lib_grow(lib);
	uint32_t i = lib_slot(lib, pf->sym);
	if (!lib->entries[i].sym)
		lib->n++;
	lib->entries[i] =
	        (struct ir_funclib_entry){.sym = pf->sym, .body = ir_copy_function(pf, lib->arena)};
}

const struct ptx_function *ir_funclib_find(const struct ir_funclib *lib,
                                           const struct ptx_symbol *sym)
{
	if (!lib || !lib->cap)
		return NULL;
	uint32_t i = lib_slot(lib, sym);
	return lib->entries[i].sym ? lib->entries[i].body : NULL;
}

const struct ptx_symbol *ir_funclib_at(const struct ir_funclib *lib, uint32_t slot)
{
	return slot < lib->cap ? lib->entries[slot].sym : NULL;
}

uint64_t ir_func_pointer(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h | 1ull << 63;
}

/* The callee of a direct call instruction, or NULL.  An indirect call answers with its
 * pointer register: its candidates are the module's functions, so a kernel making one
 * waits for the end of the module. */
static const struct ptx_symbol *direct_callee(const struct ptx_insn *in)
{
	if (in->op != PTX_OP_CALL)
		return NULL;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_REG)
			return in->opnds[i].sym;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_SYM && in->opnds[i].sym->kind == PTX_SYM_FUNC)
			return in->opnds[i].sym;
	return NULL;
}

static bool reads_context(const struct ptx_insn *in)
{
	for (unsigned i = 0; i < in->nopnds; i++) {
		const struct ptx_operand *o = &in->opnds[i];
		if (o->kind == PTX_OPND_SREG || (in->op == PTX_OP_CALL && o->kind == PTX_OPND_REG))
			return true;
		for (uint32_t k = 0; k < o->nelems; k++)
			if (o->elems[k].kind == PTX_OPND_SREG)
				return true;
	}
	return false;
}

static bool context_in(const struct ir_funclib *lib, const struct ptx_function *pf, bool *seen,
                       unsigned depth)
{
	if (depth > IR_MAX_CALL_DEPTH)
		return true;
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		if (pf->stmts[i].kind != PTX_STMT_INSN)
			continue;
		const struct ptx_insn *in = pf->stmts[i].u.insn;
		if (reads_context(in))
			return true;
		const struct ptx_symbol *callee = direct_callee(in);
		if (!callee || callee->kind != PTX_SYM_FUNC)
			continue;
		uint32_t slot = lib_slot(lib, callee);
		if (!lib->entries[slot].sym || seen[slot])
			continue;
		seen[slot] = true;
		if (context_in(lib, lib->entries[slot].body, seen, depth + 1))
			return true;
	}
	return false;
}

bool ir_funclib_uses_context(const struct ir_funclib *lib, const struct ptx_symbol *fs)
{
	if (!lib || !lib->cap)
		return false;
	uint32_t slot = lib_slot(lib, fs);
	if (!lib->entries[slot].sym)
		return false;
	bool *seen = pa_xcalloc(lib->cap, sizeof *seen);
	seen[slot] = true;
	bool r = context_in(lib, lib->entries[slot].body, seen, 0);
	free(seen);
	return r;
}

/* The function whose address an instruction other than a call takes, or NULL. */
static const struct ptx_symbol *address_taken(const struct ptx_insn *in)
{
	for (unsigned i = 0; i < in->nopnds && in->op != PTX_OP_CALL; i++)
		if (in->opnds[i].kind == PTX_OPND_SYM && in->opnds[i].sym->kind == PTX_SYM_FUNC)
			return in->opnds[i].sym;
	return NULL;
}

static const struct ptx_symbol *pending_in(struct ir_funclib *lib, const struct ptx_function *pf,
                                           unsigned depth)
{
	if (depth > IR_MAX_CALL_DEPTH)
		return NULL;
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		if (pf->stmts[i].kind != PTX_STMT_INSN)
			continue;
		const struct ptx_symbol *taken = address_taken(pf->stmts[i].u.insn);
		if (taken) /* a function pointer: whether it is an address is decided at the
		            * end of the module (docs/CALLS.md) */
			return taken;
		const struct ptx_symbol *callee = direct_callee(pf->stmts[i].u.insn);
		if (!callee)
			continue;
		struct ir_funclib_entry *e = lib->cap ? &lib->entries[lib_slot(lib, callee)] : NULL;
		if (callee->kind != PTX_SYM_FUNC)
			return callee; /* an indirect call: wait for every function */
		if (!e || !e->sym) {
			if (callee->linkage & PTX_LINK_EXTERN)
				continue; /* never defined here: the call is reported as it is built
				           */
			return callee;
		}
		if (e->visited)
			continue;
		e->visited = true;
		const struct ptx_symbol *p = pending_in(lib, e->body, depth + 1);
		if (p)
			return p;
	}
	return NULL;
}

/* st.param of 1 or 2 bytes: a real call copies .param variables in 4/8-byte pieces. */
static bool narrow_param_store(const struct ptx_insn *in)
{
	return in->op == PTX_OP_ST && in->ntypes && ptx_types[in->types[0]].bits <= 16 &&
	       in->nopnds && in->opnds[0].kind == PTX_OPND_ADDR && in->opnds[0].sym &&
	       in->opnds[0].sym->kind == PTX_SYM_VAR && in->opnds[0].sym->space == PTX_SPACE_PARAM;
}

void ir_body_fn_pointers(const struct ptx_function *pf,
                         void (*taken)(void *user, const struct ptx_symbol *fn), void *user,
                         bool *indirect, bool *narrow)
{
	bool calls = false, stores = false;
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		if (pf->stmts[i].kind != PTX_STMT_INSN)
			continue;
		const struct ptx_insn *in = pf->stmts[i].u.insn;
		const struct ptx_symbol *t = address_taken(in), *c = direct_callee(in);
		if (t)
			taken(user, t);
		calls |= c && c->kind != PTX_SYM_FUNC;
		stores |= narrow_param_store(in);
	}
	*indirect |= calls;
	*narrow |= calls && stores;
}

const struct ptx_symbol *ir_funclib_pending(struct ir_funclib *lib, const struct ptx_function *pf)
{
	for (uint32_t i = 0; i < lib->cap; i++)
		lib->entries[i].visited = false;
	return pending_in(lib, pf, 0);
}
