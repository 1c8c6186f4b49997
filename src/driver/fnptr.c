/* fnptr: function pointers as code addresses (docs/CALLS.md), decided once per module.
 *
 * At the module's end (every kernel that takes a function's address or calls through a
 * pointer has waited for it), drv_decide_fn_pointers collects the address-taken functions and
 * either keeps pointers as name hashes (indirect calls become compare chains while the IR is
 * built) or compiles each address-taken function once on its own, as a local function symbol
 * placed after the kernels, so that pointers are code addresses and indirect calls
 * s_swappc_b64 waterfalls.  Complexity: one compilation per address-taken function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "ptrargs.h"
#include "sched/sched.h"

enum { MAX_FN_CHAIN = 8 }; /* address-taken functions a compare chain may test */

struct taken_set {
	struct compiler *c;
	const struct ptx_symbol **syms; /* the funclib's symbols (NULL: not defined here) */
	uint32_t n, cap;
	bool undefined; /* an address of a function without a body */
};

static void add_taken(void *user, const struct ptx_symbol *fn)
{
	struct taken_set *t = user;
	const struct ptx_symbol *sym = NULL;
	for (uint32_t i = 0; i < t->c->lib.cap && !sym; i++) {
		const struct ptx_symbol *s = ir_funclib_at(&t->c->lib, i);
		if (s && !strcmp(s->name, fn->name))
			sym = s;
	}
	if (!sym) {
		t->undefined = true;
		return;
	}
	for (uint32_t i = 0; i < t->n; i++)
		if (t->syms[i] == sym)
			return;
	t->syms = pa_arena_grow(&t->c->fn_arena, t->syms, &t->cap, t->n + 1, sizeof *t->syms);
	t->syms[t->n++] = sym;
}

/* -S: the listing of address-taken function `index`, a local function symbol at the
 * offset it has in .text (right after the kernels: code sizes are multiples of 4, so
 * add_functions pads nothing), kept until the kernels are listed. */
static void keep_function_asm(struct compiler *c, uint32_t index, const struct mir_function *mf)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	const char *name = c->functions[index].name;
	if (!f) {
		fprintf(stderr, "ptxas-amd: fatal: out of memory (open_memstream)\n");
		abort();
	}
	fprintf(f, "\t.type %s,@function\n%s:\n", name, name);
	sched_dump(f, mf, true);
	fprintf(f, "\t.size %s, .-%s\n", name, name);
	fclose(f);
	c->fn_asm = pa_arena_grow(&c->mod_arena, c->fn_asm, &c->fn_asm_cap, index + 1,
	                          sizeof *c->fn_asm);
	c->fn_asm[index] = pa_arena_strndup(&c->mod_arena, text, size);
	free(text);
}

/* Which frame slots of module function `index` (ir, its parts linked) are addresses, for
 * its callers' pointer parameters; room for the special registers every call stores. */
static void keep_function_slots(struct compiler *c, uint32_t index, const struct ir_function *ir)
{
	uint32_t nslots = ir->frame_args / 4 + IR_NUM_CONTEXT_SREGS + 1;
	c->fn_ptr_slots = pa_arena_grow(&c->mod_arena, c->fn_ptr_slots, &c->fn_ptr_slots_cap,
	                                index + 1, sizeof *c->fn_ptr_slots);
	c->fn_ptr_slots[index] = PA_NEW_ARRAY(&c->mod_arena, bool, nslots);
	pa_find_pointers(ir, &c->fn_arena, drv_callee_slots(c, ir, drv_part_slots(c)), NULL,
	                 c->fn_ptr_slots[index], ir->frame_args / 4 + 1);
}

/* One address-taken function compiled on its own, kept as a co_function.  False after
 * an error (reported to c->d). */
static bool compile_function(struct compiler *c, const struct ptx_symbol *sym,
                             const struct ptx_module_state *m)
{
	struct ir_function ir;
	struct mir_function mf;
	struct ra_stats ras;
	const struct ptx_symbol *failed;
	struct sched_code code;
	ir.wave_size = c->o->target.wave_size;
	c->nparts = 0;
	if (!drv_compile_mir(c, ir_funclib_find(&c->lib, sym), m, sym, &ir, &mf, &ras, NULL) ||
	    (ir.ncallees && !drv_link_callees(c, m, &ir, &mf, &failed)) ||
	    !sched_emit(&mf, drv_mir_arena(c), &code, c->d))
		return false;
	uint32_t index = c->nfunctions;
	c->functions = pa_arena_grow(&c->mod_arena, c->functions, &c->functions_cap, index + 1,
	                             sizeof *c->functions);
	uint8_t *bytes = PA_NEW_ARRAY(&c->mod_arena, uint8_t, code.size ? code.size : 4);
	memcpy(bytes, code.code, code.size);
	c->functions[c->nfunctions++] = (struct co_function){
	        .name = pa_arena_strndup(&c->mod_arena, sym->name, strlen(sym->name)),
	        .code = bytes,
	        .code_size = code.size};
	if (c->o->line_info)
		c->functions[index].lines =
		        drv_lines_rows(&code, &c->mod_arena, &c->functions[index].nlines);
	if (mf.num_vgprs > c->fn_vgprs)
		c->fn_vgprs = mf.num_vgprs;
	if (c->o->asm_out)
		keep_function_asm(c, index, &mf);
	keep_function_slots(c, index, &ir);
	for (uint32_t i = 0; i < code.nrelocs; i++) {
		const struct sched_reloc *r = &code.relocs[i];
		c->relocs = pa_arena_grow(&c->mod_arena, c->relocs, &c->relocs_cap, c->nrelocs + 1,
		                          sizeof *c->relocs);
		c->relocs[c->nrelocs++] = (struct co_reloc){
		        .in = CO_IN_FUNCTION,
		        .index = index,
		        .offset = r->offset,
		        .type = r->kind == MIR_RELOC_REL32_LO ? CO_R_REL32_LO : CO_R_REL32_HI,
		        .symbol = pa_arena_strndup(&c->mod_arena, r->symbol, strlen(r->symbol)),
		        .addend = r->addend,
		};
	}
	return true;
}

/* Whether a module's function pointers are code addresses, decided once every kernel
 * that takes an address or calls through one waits (ir_funclib_pending): when it makes
 * indirect calls and the compare chain would be long (more than MAX_FN_CHAIN functions
 * have their address taken, or one is big) or --no-inline asks for real calls, every
 * address-taken function compiles on its own (quietly; else hashes, as before), and no body
 * making indirect calls writes .param variables in 1- or 2-byte pieces (which real calls do
 * not pass).  Pointers
 * must be one or the other everywhere: compares, stores, initializers. */
void drv_decide_fn_pointers(struct compiler *c, const struct ptx_module_state *m)
{
	struct taken_set t = {.c = c};
	bool indirect = false, narrow = false;
	for (uint32_t i = 0; i < c->lib.cap; i++) {
		const struct ptx_symbol *s = ir_funclib_at(&c->lib, i);
		if (s)
			ir_body_fn_pointers(ir_funclib_find(&c->lib, s), add_taken, &t, &indirect,
			                    &narrow);
	}
	for (const struct deferred_kernel *k = c->deferred; k; k = k->next)
		ir_body_fn_pointers(k->fn, add_taken, &t, &indirect, &narrow);
	for (uint32_t i = 0; i < c->data.nvars; i++)
		for (uint32_t k = 0; k < c->data.vars[i]->ninit; k++) {
			const struct ptx_init *e = &c->data.vars[i]->init[k];
			if ((e->kind == PTX_INIT_SYM || e->kind == PTX_INIT_GENERIC) && e->sym &&
			    e->sym->kind == PTX_SYM_FUNC)
				add_taken(&t, e->sym);
		}
	bool big = false;
	for (uint32_t i = 0; i < t.n; i++)
		big |= ir_funclib_find(&c->lib, t.syms[i])->nstmts >= 1000;
	bool want = c->o->inline_mode == IR_INLINE_NONE || t.n > MAX_FN_CHAIN || big;
	if (!indirect || !t.n || t.undefined || narrow || !want ||
	    c->o->inline_mode == IR_INLINE_ALL || pa_diag_failed(c->d))
		return;
	struct pa_diag quiet = {.warnings_off = c->d->warnings_off,
	                        .warnings_error = c->d->warnings_error};
	uint32_t nrelocs = c->nrelocs, nprintfs = c->nprintfs;
	const struct ptx_symbol **syms =
	        PA_NEW_ARRAY(&c->mod_arena, const struct ptx_symbol *, t.n);
	memcpy(syms, t.syms, t.n * sizeof *syms);
	uint32_t n = t.n;
	c->taken = PA_NEW_ARRAY(&c->mod_arena, const char *, n);
	for (uint32_t i = 0; i < n; i++)
		c->taken[i] = syms[i]->name;
	c->ntaken = n;
	c->d = &quiet;
	c->fnptr_address = true;
	c->inline_mode = c->o->inline_mode;
	c->ninline_only = 0;
	bool ok = true;
	for (uint32_t i = 0; i < n && ok; i++) {
		ok = compile_function(c, syms[i], m) && !quiet.nwarnings;
		drv_undo_kernel(c, c->nkernels, c->nprintfs);
	}
	c->d = c->real_d;
	for (uint32_t i = 0; i < n && ok && c->o->info; i++)
		fprintf(c->o->info,
		        "ptxas-amd info    : Function '%s' compiled as a real call (its address is "
		        "taken: function pointers are code addresses)\n",
		        syms[i]->name);
	if (ok)
		return;
	c->fnptr_address = false; /* hashes: forget the functions */
	c->ntaken = 0;
	c->nfunctions = 0;
	c->fn_vgprs = 0;
	c->nrelocs = nrelocs;
	c->nprintfs = nprintfs;
}
