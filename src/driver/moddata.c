/* Module variables -> code object data.
 *
 * The front end reports every .global/.const variable (on_variable); at the end of the
 * module each becomes a struct co_data: its size (element size x vector length x array
 * dimensions), its alignment (.align, else the element's), and its initializer encoded as
 * the hardware reads it -- integers and floats little-endian in the element type (a
 * decimal float literal rounded to .f32 for an .f32 variable), nested braces filling
 * their sub-array and leaving the rest zero, and `x`, `x+8`, `generic(x)` as 64-bit
 * addresses: zero bytes plus an ABS64 relocation (the loader adds the load address; a
 * global's generic address is its global address).  A .const variable holding addresses
 * goes to writable .data, since only there may the loader patch it.  Variables are
 * global symbols, so hipModuleGetGlobal finds them by name as CUDA's cuModuleGetGlobal
 * finds any __device__ variable.
 *   requires: the module's symbols alive (ptx_parse_stream's run).  Complexity: O(size of
 *   the initializers + variables^2) for the .extern replacement. */
#include <string.h>

#include "moddata.h"
#include "ir/ir.h"

/* A copy of a symbol in the compiler's module arena, with what this file reads: the front
 * end frees its module arena when ptx_parse_stream returns, before the data is built. */
static struct ptx_symbol *copy_symbol(struct pa_arena *a, const struct ptx_symbol *s)
{
	struct ptx_symbol *c = PA_NEW(a, struct ptx_symbol);
	*c = *s;
	c->name = pa_arena_strndup(a, s->name, strlen(s->name));
	c->func = NULL;
	c->hnext = c->next_in_scope = NULL;
	c->use_text = NULL;
	c->init = NULL;
	c->ninit = 0;
	return c;
}

static const struct ptx_symbol *copy_variable(struct pa_arena *a, const struct ptx_symbol *var)
{
	struct ptx_symbol *c = copy_symbol(a, var);
	if (!var->ninit)
		return c;
	c->init = PA_NEW_ARRAY(a, struct ptx_init, var->ninit);
	c->ninit = var->ninit;
	for (uint32_t i = 0; i < var->ninit; i++) {
		c->init[i] = var->init[i];
		if (var->init[i].sym)
			c->init[i].sym = copy_symbol(a, var->init[i].sym);
	}
	return c;
}

void pa_moddata_add(struct pa_moddata *md, struct pa_arena *a, const struct ptx_symbol *var)
{
	var = copy_variable(a, var);
	bool is_extern = (var->linkage & PTX_LINK_EXTERN) != 0;
	for (uint32_t i = 0; i < md->nvars; i++)
		if (!strcmp(md->vars[i]->name, var->name)) {
			if (is_extern)
				return; /* a declaration after the definition or declaration */
			if (md->vars[i]->linkage & PTX_LINK_EXTERN) {
				md->vars[i] = var; /* the definition of an .extern declaration */
				return;
			}
			break; /* a second definition: reported by pa_moddata_build */
		}
	md->vars = pa_arena_grow(a, md->vars, &md->cap, md->nvars + 1, sizeof *md->vars);
	md->vars[md->nvars++] = var;
}

static uint32_t elem_bytes(const struct ptx_symbol *s)
{
	uint32_t b = ptx_types[s->type].bits / 8;
	return b ? b : 1;
}

static uint64_t var_size(const struct ptx_symbol *s)
{
	uint64_t n = (uint64_t)elem_bytes(s) * (s->vec ? s->vec : 1);
	for (unsigned k = 0; k < s->ndims; k++)
		n *= s->dims[k];
	return n;
}

struct fill {
	struct pa_moddata *md;
	struct pa_arena *a;
	const struct ptx_symbol *var;
	const char *file;
	struct pa_diag *d;
	uint8_t *bytes;
	uint64_t size;
	size_t index; /* co_data index */
	bool has_addr;
};

static bool fill_error(struct fill *f, const char *msg)
{
	pa_diag_report(f->d, PA_DIAG_ERROR, f->file, f->var->line, f->var->col, NULL, 0,
	               "initializer of '%s': %s", f->var->name, msg);
	return false;
}

/* One scalar initializer at byte `at` in the element type. */
static bool put_scalar(struct fill *f, const struct ptx_init *e, uint64_t at)
{
	uint32_t eb = elem_bytes(f->var);
	bool is_float = ptx_types[f->var->type].cls == PTX_TC_FLOAT;
	uint64_t bits = e->value;
	if (e->kind == PTX_INIT_SYM || e->kind == PTX_INIT_GENERIC) {
		const struct ptx_symbol *t = e->sym;
		if (eb != 8)
			return fill_error(f, "an address needs a 64-bit element type");
		if (t->kind == PTX_SYM_FUNC && !e->value && !f->md->fnptr_address) { /* a hash */
			bits = ir_func_pointer(t->name);
			for (uint32_t k = 0; k < 8; k++)
				f->bytes[at + k] = (uint8_t)(bits >> (8 * k));
			return true;
		}
		if (t->kind != PTX_SYM_FUNC &&
		    (t->kind != PTX_SYM_VAR ||
		     (t->space != PTX_SPACE_GLOBAL && t->space != PTX_SPACE_CONST)))
			return fill_error(f, "only addresses of .global/.const variables are "
			                     "supported in initializers");
		f->md->relocs = pa_arena_grow(f->a, f->md->relocs, &f->md->relocs_cap,
		                              f->md->nrelocs + 1, sizeof *f->md->relocs);
		f->md->relocs[f->md->nrelocs++] = (struct co_reloc){
		        .in = CO_IN_DATA,
		        .index = f->index,
		        .offset = at,
		        .type = CO_R_ABS64,
		        .symbol = t->name,
		        .addend = (int64_t)e->value,
		};
		f->has_addr = true;
		return true;
	}
	if (is_float && eb == 4 && e->kind != PTX_INIT_F32) {
		double v;
		if (e->kind == PTX_INIT_F64)
			memcpy(&v, &e->value, 8);
		else
			v = e->is_unsigned ? (double)e->value : (double)(int64_t)e->value;
		float fv = (float)v;
		uint32_t b32;
		memcpy(&b32, &fv, 4);
		bits = b32;
	} else if (is_float && eb == 8 && e->kind != PTX_INIT_F64) {
		double v;
		if (e->kind == PTX_INIT_F32) {
			float fv;
			uint32_t b32 = (uint32_t)e->value;
			memcpy(&fv, &b32, 4);
			v = fv;
		} else {
			v = e->is_unsigned ? (double)e->value : (double)(int64_t)e->value;
		}
		memcpy(&bits, &v, 8);
	} else if (is_float && eb == 2) {
		return fill_error(f, "16-bit float initializers are not supported yet");
	}
	for (uint32_t k = 0; k < eb; k++)
		f->bytes[at + k] = (uint8_t)(bits >> (8 * k));
	return true;
}

/* Fills the initializer as NVIDIA's ptxas does: the values of an array's brace lists follow
 * one another, a short list is not padded to its row ({{1}, {2, 3}} fills 1, 2, 3, 0), while
 * the ISA says "as in C" (the H100 ran memspace_global so: docs/TESTS_ON_NVIDIA.md).  Only the
 * braces of one element (a vector's) span the whole element. */
static bool fill_init(struct fill *f)
{
	const struct ptx_symbol *s = f->var;
	uint64_t elem = (uint64_t)elem_bytes(s) * (s->vec ? s->vec : 1);
	uint64_t span[PTX_MAX_DIMS + 2], start[PTX_MAX_DIMS + 2], at = 0;
	/* span[k]: bytes of one brace group at depth k (depth 1 = the whole variable) */
	span[1] = f->size;
	for (unsigned k = 0; k < s->ndims && k + 2 < PTX_MAX_DIMS + 2; k++)
		span[k + 2] = s->dims[k] ? span[k + 1] / s->dims[k] : elem;
	unsigned depth = 0, max_depth = s->ndims + 1 + (s->vec > 1);
	if (s->vec > 1 && s->ndims + 2 < PTX_MAX_DIMS + 2)
		span[s->ndims + 2] = ptx_types[s->type].bits / 8;
	for (uint32_t i = 0; i < s->ninit; i++) {
		const struct ptx_init *e = &s->init[i];
		if (e->kind == PTX_INIT_OPEN) {
			if (++depth > max_depth || depth >= PTX_MAX_DIMS + 2)
				return fill_error(f, "braces nested deeper than the array");
			start[depth] = at;
			continue;
		}
		if (e->kind == PTX_INIT_CLOSE) {
			if (depth > 1 && depth > s->ndims) /* a vector's braces, or one element's */
				at = start[depth] + span[depth];
			depth--;
			continue;
		}
		if (at + elem_bytes(s) > f->size)
			return fill_error(f, "more values than the variable holds");
		if (!put_scalar(f, e, at))
			return false;
		at += elem_bytes(s);
	}
	return true;
}

static bool build_one(struct pa_moddata *md, struct pa_arena *a, const char *file, size_t i,
                      size_t index, struct co_data *out, struct pa_diag *d)
{
	const struct ptx_symbol *s = md->vars[i];
	uint64_t size = var_size(s);
	uint32_t natural = elem_bytes(s) * (s->vec ? s->vec : 1);
	*out = (struct co_data){
	        .name = s->name,
	        .space = s->space == PTX_SPACE_CONST ? CO_DATA_CONST : CO_DATA_GLOBAL,
	        .size = size,
	        .align = s->align ? s->align : natural,
	        .is_global = true,
	        .is_extern = (s->linkage & PTX_LINK_EXTERN) != 0,
	};
	if (out->is_extern)
		return true;
	if (size > (1u << 30)) {
		pa_diag_report(d, PA_DIAG_ERROR, file, s->line, s->col, NULL, 0,
		               "variable '%s' is too large (%llu bytes)", s->name,
		               (unsigned long long)size);
		return false;
	}
	if (!s->init && out->space == CO_DATA_GLOBAL)
		return true; /* .bss */
	uint8_t *bytes = PA_NEW_ARRAY(a, uint8_t, size ? size : 1);
	memset(bytes, 0, size ? size : 1);
	out->init = bytes;
	struct fill f = {md, a, s, file, d, bytes, size, index, false};
	if (s->init && !fill_init(&f))
		return false;
	if (f.has_addr)
		out->space = CO_DATA_GLOBAL; /* the loader patches it: writable .data */
	return true;
}

static bool is_named(const struct co_reloc *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].symbol && !strcmp(r[i].symbol, name))
			return true;
	return false;
}

/* Two definitions of one name (function-scope variables of different functions). */
static bool check_unique(const struct pa_moddata *md, const char *file, struct pa_diag *d)
{
	for (uint32_t i = 0; i < md->nvars; i++)
		for (uint32_t k = 0; k < i; k++)
			if (!strcmp(md->vars[i]->name, md->vars[k]->name)) {
				const struct ptx_symbol *s = md->vars[i];
				pa_diag_report(d, PA_DIAG_ERROR, file, s->line, s->col, NULL, 0,
				               "a second variable named '%s' (line %u): variables "
				               "of one name in several scopes are not supported",
				               s->name, md->vars[k]->line);
				return false;
			}
	return true;
}

bool pa_moddata_build(struct pa_moddata *md, struct pa_arena *a, const char *file, bool relocatable,
                      const struct co_reloc *code_relocs, size_t ncode_relocs, struct co_data **out,
                      size_t *nout, struct pa_diag *d)
{
	struct co_data *data = PA_NEW_ARRAY(a, struct co_data, md->nvars + 1);
	bool ok = check_unique(md, file, d);
	size_t n = 0;
	for (uint32_t i = 0; i < md->nvars && ok; i++) {
		ok &= build_one(md, a, file, i, n, &data[n], d);
		n++;
	}
	/* .extern variables: undefined symbols of a relocatable object.  An executable is a
	 * whole program: as NVIDIA ptxas does, one that is never defined but used becomes a
	 * zero-initialized definition (with its warning); unused ones are left out. */
	size_t kept = 0;
	for (size_t i = 0; i < n && ok; i++) {
		struct co_data *v = &data[i];
		if (v->is_extern && !relocatable) {
			const struct ptx_symbol *s = md->vars[i];
			if (!is_named(code_relocs, ncode_relocs, v->name) &&
			    !is_named(md->relocs, md->nrelocs, v->name))
				continue;
			pa_diag_report(d, PA_DIAG_WARNING, file, s->line, s->col, NULL, 0,
			               "unresolved extern variable '%s' in whole program "
			               "compilation, ignoring extern qualifier",
			               s->name);
			v->is_extern = false;
			if (!v->size) {
				pa_diag_report(d, PA_DIAG_ERROR, file, s->line, s->col, NULL, 0,
				               ".extern array '%s' has no size and no definition",
				               s->name);
				ok = false;
			}
			if (v->space == CO_DATA_CONST) {
				uint8_t *z = PA_NEW_ARRAY(a, uint8_t, v->size + 1);
				memset(z, 0, v->size + 1);
				v->init = z;
			}
		}
		for (uint32_t r = 0; r < md->nrelocs; r++) /* data relocations follow the move */
			if (md->relocs[r].index == i)
				md->relocs[r].index = kept;
		data[kept++] = *v;
	}
	*out = data;
	*nout = kept;
	return ok;
}
