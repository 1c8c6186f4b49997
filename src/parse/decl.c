/* PTX declarations: variables in every state space (with `.align`, vectors, `.ptr`,
 * `.attribute(.managed)`, `%r<N>` parameterized registers, arrays and initializers
 * including `generic()` and address-of symbols), function parameter lists and the
 * performance directives after a signature.
 *
 * Initializers are read with a brace-depth counter (bounded by PTX_MAX_DEPTH) into a
 * growable buffer, then copied to the variable's arena; `%r<N>` stays one symbol.
 * requires: context.c services.  Complexity: O(declaration size). */
#include "ptx_int.h"

#include <stdlib.h>
#include <string.h>

enum ptx_space ptx_space_of(uint16_t dw)
{
	switch (dw) {
	case PTX_DW_REG:
		return PTX_SPACE_REG;
	case PTX_DW_GLOBAL:
		return PTX_SPACE_GLOBAL;
	case PTX_DW_SHARED:
	case PTX_DW_SHARED_CTA:
	case PTX_DW_SHARED_CLUSTER:
		return PTX_SPACE_SHARED;
	case PTX_DW_CONST:
		return PTX_SPACE_CONST;
	case PTX_DW_LOCAL:
		return PTX_SPACE_LOCAL;
	case PTX_DW_PARAM:
		return PTX_SPACE_PARAM;
	case PTX_DW_TEX:
		return PTX_SPACE_TEX;
	default:
		return PTX_SPACE_NONE;
	}
}

/* The attributes before a declared name: space, .align, .vN, type, .ptr. */
/* Types that exist only as instruction types (bf16 values live in .b16 registers),
 * and the vector rules of variables: no .v8, no vectors of .pred, at most 128 bits. */
static bool check_var_type(struct ptx_ctx *c, const struct ptx_symbol *tmpl, uint32_t line,
                           uint32_t col)
{
	switch (tmpl->type) {
	case PTX_TYPE_BF16:
	case PTX_TYPE_BF16X2:
	case PTX_TYPE_TF32:
	case PTX_TYPE_E4M3:
	case PTX_TYPE_E5M2:
	case PTX_TYPE_E4M3X2:
	case PTX_TYPE_E5M2X2:
	case PTX_TYPE_B1:
	case PTX_TYPE_U4:
	case PTX_TYPE_S4:
		ptx_error_at(c, line, col, "type %s is only an instruction type, not a variable's",
		             ptx_types[tmpl->type].name);
		return false;
	case PTX_TYPE_SAMPLERREF:
		if (!c->mod.texmode_independent) {
			ptx_error_at(c, line, col,
			             ".samplerref variables need '.target texmode_independent'");
			return false;
		}
		break;
	default:
		break;
	}
	if (tmpl->vec == 1)
		return true;
	const char *err = tmpl->vec == 8                ? ".v8 is not a variable vector length"
	                  : tmpl->type == PTX_TYPE_PRED ? ".pred variables cannot be vectors"
	                  : tmpl->vec * ptx_types[tmpl->type].bits > 128
	                          ? "vector wider than 128 bits"
	                          : NULL;
	if (err)
		ptx_error_at(c, line, col, "%s", err);
	return !err;
}

static bool parse_decl_attrs(struct ptx_ctx *c, struct ptx_symbol *tmpl)
{
	struct ptx_token *t = tok(c);
	uint32_t line = t->line, col = t->col;
	while (t->kind == PTX_TOK_DOTWORD) {
		uint16_t dw = t->dw;
		enum ptx_space sp = ptx_space_of(dw);
		if (sp != PTX_SPACE_NONE && (!tmpl->space || (tmpl->is_ptr && !tmpl->ptr_space))) {
			if (tmpl->is_ptr)
				tmpl->ptr_space = (uint8_t)sp;
			else
				tmpl->space = (uint8_t)sp;
			next(c);
		} else if (dw == PTX_DW_ALIGN) {
			next(c);
			uint32_t a;
			uint32_t al = tok(c)->line, ac = tok(c)->col;
			if (!ptx_parse_u32(c, &a, "alignment"))
				return false;
			if (a == 0 || (a & (a - 1))) {
				ptx_error_at(c, al, ac, "alignment %u is not a power of two", a);
				return false;
			}
			tmpl->align = a;
		} else if (dw == PTX_DW_V2 || dw == PTX_DW_V4 || dw == PTX_DW_V8) {
			tmpl->vec = dw == PTX_DW_V2 ? 2 : dw == PTX_DW_V4 ? 4 : 8;
			next(c);
		} else if (dw < PTX_NDOTWORDS && ptx_dotwords[dw].classes & PTX_MC_TYPE) {
			if (tmpl->type) {
				ptx_error_at(c, t->line, t->col,
				             "declaration has more than one type");
				return false;
			}
			tmpl->type = ptx_dotwords[dw].type;
			next(c);
		} else if (dw == PTX_DW_ATTRIBUTE) {
			next(c);
			if (!ptx_expect_punct(c, '('))
				return false;
			if (tok(c)->kind != PTX_TOK_DOTWORD || tok(c)->dw != PTX_DW_MANAGED) {
				ptx_error_expected(c, "'.managed' (the only supported attribute)");
				return false;
			}
			tmpl->managed = true;
			next(c);
			if (!ptx_expect_punct(c, ')'))
				return false;
		} else if (dw == PTX_DW_PTR && tmpl->space == PTX_SPACE_PARAM) {
			tmpl->is_ptr = true;
			next(c);
		} else {
			break;
		}
	}
	if (!tmpl->space) {
		ptx_error_at(c, line, col, "declaration needs a state space");
		return false;
	}
	if (!tmpl->type) {
		ptx_error_expected(c, "a type in declaration");
		return false;
	}
	if (tmpl->type == PTX_TYPE_PRED && tmpl->space != PTX_SPACE_REG) {
		ptx_error_at(c, line, col, ".pred variables must be in the .reg state space");
		return false;
	}
	return check_var_type(c, tmpl, line, col);
}

/* One initializer, nested braces handled with a depth counter. */
static bool parse_initializer(struct ptx_ctx *c, struct ptx_symbol *s, struct pa_arena *a)
{
	uint32_t cap = 64, n = 0, depth = 0, leaves = 0;
	struct ptx_init *v = pa_xmalloc(cap * sizeof *v);
	bool ok = false;
	for (;;) {
		struct ptx_token *t = tok(c);
		if (n + 1 >= cap) {
			if (cap >= PTX_MAX_INIT) {
				ptx_error_at(c, t->line, t->col,
				             "initializer has too many elements");
				goto out;
			}
			cap *= 2;
			v = pa_xrealloc(v, cap * sizeof *v);
		}
		struct ptx_init *e = &v[n];
		memset(e, 0, sizeof *e);
		if (is_punct(c, '{')) {
			if (depth >= PTX_MAX_DEPTH) {
				ptx_error_at(c, t->line, t->col, "initializer nested too deeply");
				goto out;
			}
			depth++;
			e->kind = PTX_INIT_OPEN;
			n++;
			next(c);
			continue;
		}
		bool neg = false;
		if (is_punct(c, '-')) {
			neg = true;
			next(c);
			t = tok(c);
		}
		if (t->kind == PTX_TOK_NUMBER) {
			struct ptx_number num;
			const char *err = ptx_parse_number(t->text, t->len, &num);
			if (err) {
				ptx_error_at(c, t->line, t->col, "%s", err);
				goto out;
			}
			e->kind = num.kind == PTX_OPND_INT   ? PTX_INIT_INT
			          : num.kind == PTX_OPND_F32 ? PTX_INIT_F32
			                                     : PTX_INIT_F64;
			e->value = num.value;
			e->is_unsigned = num.is_unsigned;
			if (neg)
				e->value = e->kind == PTX_INIT_INT   ? 0 - e->value
				           : e->kind == PTX_INIT_F32 ? e->value ^ 0x80000000u
				                                     : e->value ^ (1ull << 63);
			next(c);
		} else if (t->kind == PTX_TOK_IDENT && !neg) {
			bool generic = t->len == 7 && !memcmp(t->text, "generic", 7);
			if (generic) {
				next(c);
				if (!ptx_expect_punct(c, '('))
					goto out;
				t = tok(c);
				if (t->kind != PTX_TOK_IDENT) {
					ptx_error_expected(c, "a variable name");
					goto out;
				}
			}
			uint32_t idx;
			struct ptx_symbol *ref = ptx_lookup_tok(c, t, &idx);
			if (!ref || (ref->kind != PTX_SYM_VAR && ref->kind != PTX_SYM_FUNC) ||
			    ref->space == PTX_SPACE_REG) {
				ptx_error_at(c, t->line, t->col, "undefined identifier '%.*s'",
				             (int)t->len, t->text);
				goto out;
			}
			e->kind = generic ? PTX_INIT_GENERIC : PTX_INIT_SYM;
			e->sym = ref;
			next(c);
			if (generic && !ptx_expect_punct(c, ')'))
				goto out;
			if (is_punct(c, '+') || is_punct(c, '-')) {
				bool minus = is_punct(c, '-');
				next(c);
				uint32_t off;
				if (!ptx_parse_u32(c, &off, "offset"))
					goto out;
				e->value = minus ? 0 - (uint64_t)off : off;
			}
		} else {
			ptx_error_expected(c, "an initializer value");
			goto out;
		}
		leaves++;
		n++;
		while (is_punct(c, '}') && depth > 0) {
			v[n++] = (struct ptx_init){.kind = PTX_INIT_CLOSE};
			depth--;
			next(c);
			if (n + 1 >= cap)
				break;
		}
		if (depth == 0)
			break;
		if (!ptx_expect_punct(c, ','))
			goto out;
	}
	uint64_t total = s->vec;
	for (unsigned i = 0; i < s->ndims; i++)
		total = s->dims[i] && total <= UINT32_MAX ? total * s->dims[i] : 0;
	if (s->ndims && s->dims[0] == 0 && s->ndims == 1)
		s->dims[0] = leaves / (s->vec ? s->vec : 1);
	else if (total && leaves > total) {
		ptx_error_at(c, s->line, s->col,
		             "too many initializers for '%s' (%u given, %llu expected)", s->name,
		             leaves, (unsigned long long)total);
		goto out;
	}
	s->init = PA_NEW_ARRAY(a, struct ptx_init, n);
	memcpy(s->init, v, n * sizeof *v);
	s->ninit = n;
	ok = true;
out:
	free(v);
	return ok;
}

/* `<N>` range and `[N]...` dimensions after a declared name. */
static bool parse_name_suffix(struct ptx_ctx *c, struct ptx_symbol *s)
{
	if (is_punct(c, '<')) {
		if (s->space != PTX_SPACE_REG) {
			ptx_error_at(c, tok(c)->line, tok(c)->col,
			             "parameterized names are only allowed for .reg variables");
			return false;
		}
		next(c);
		uint32_t n;
		uint32_t line = tok(c)->line, col = tok(c)->col;
		if (!ptx_parse_u32(c, &n, "register count") || !ptx_expect_punct(c, '>'))
			return false;
		if (n == 0 || n > 100000000) {
			ptx_error_at(c, line, col, "register count %u out of range", n);
			return false;
		}
		s->range = n;
	}
	while (is_punct(c, '[')) {
		struct ptx_token *t = tok(c);
		if (s->ndims == PTX_MAX_DIMS) {
			ptx_error_at(c, t->line, t->col, "array has more than %d dimensions",
			             (int)PTX_MAX_DIMS);
			return false;
		}
		next(c);
		uint32_t n = 0;
		if (!is_punct(c, ']')) {
			if (!ptx_parse_u32(c, &n, "array size"))
				return false;
			if (n == 0) {
				ptx_error_at(c, t->line, t->col, "array size must be positive");
				return false;
			}
		} else if (s->ndims) {
			ptx_error_at(c, t->line, t->col, "only the first dimension may be unsized");
			return false;
		}
		s->dims[s->ndims++] = n;
		if (!ptx_expect_punct(c, ']'))
			return false;
	}
	return true;
}

static void emit_decl(struct ptx_ctx *c, struct ptx_symbol *s)
{
	if (c->fn) {
		ptx_add_stmt(c, PTX_STMT_DECL, s->line)->u.sym = s;
	} else if (c->opts->dump_out) {
		ptx_dump_decl(c->opts->dump_out, s, 0);
		fputs(";\n", c->opts->dump_out);
	}
}

/* [linkage] space attrs name[<N>][dims][= init] {, name...} ; */
bool ptx_parse_var_decl(struct ptx_ctx *c, uint8_t linkage)
{
	struct ptx_symbol tmpl = {.vec = 1, .linkage = linkage};
	if (!parse_decl_attrs(c, &tmpl))
		return false;
	struct pa_arena *a = c->fn ? &c->fn_arena : &c->module_arena;
	if (c->fn && (tmpl.space == PTX_SPACE_GLOBAL || tmpl.space == PTX_SPACE_CONST)) {
		/* function-scope .global/.const live for the whole module */
		a = &c->module_arena;
	}
	if (!c->fn && (tmpl.space == PTX_SPACE_REG || tmpl.space == PTX_SPACE_LOCAL ||
	               tmpl.space == PTX_SPACE_PARAM)) {
		if (tmpl.space != PTX_SPACE_LOCAL) {
			ptx_error_at(c, tok(c)->line, tok(c)->col,
			             "%s variables must be declared inside a function",
			             tmpl.space == PTX_SPACE_REG ? ".reg" : ".param");
			return false;
		}
	}
	for (;;) {
		struct ptx_token *t = tok(c);
		if (t->kind != PTX_TOK_IDENT) {
			ptx_error_expected(c, "a variable name");
			return false;
		}
		struct ptx_symbol *s = ptx_new_symbol(a, t->text, t->len, t->line, t->col);
		s->kind = PTX_SYM_VAR;
		s->space = tmpl.space;
		s->type = tmpl.type;
		s->vec = tmpl.vec;
		s->align = tmpl.align;
		s->linkage = tmpl.linkage;
		s->is_ptr = tmpl.is_ptr;
		s->ptr_space = tmpl.ptr_space;
		s->managed = tmpl.managed;
		next(c);
		if (!parse_name_suffix(c, s))
			return false;
		if (s->space == PTX_SPACE_REG && s->ndims) {
			ptx_error_at(c, s->line, s->col, "register '%s' cannot be an array",
			             s->name);
			return false;
		}
		if (is_punct(c, '=')) {
			if (s->space == PTX_SPACE_REG || s->space == PTX_SPACE_PARAM ||
			    s->space == PTX_SPACE_LOCAL || s->space == PTX_SPACE_SHARED) {
				ptx_error_at(c, tok(c)->line, tok(c)->col,
				             "variables in this state space cannot be initialized");
				return false;
			}
			next(c);
			if (!parse_initializer(c, s, a)) {
				/* braces inside the initializer are not blocks: skip to its end */
				while (tok(c)->kind != PTX_TOK_EOF && !is_punct(c, ';'))
					next(c);
				return false;
			}
		}
		if (s->ndims && s->dims[0] == 0 && !(s->linkage & PTX_LINK_EXTERN) && !s->init &&
		    s->space != PTX_SPACE_SHARED) {
			ptx_error_at(c, s->line, s->col,
			             "array '%s' needs a size or an initializer", s->name);
			return false;
		}
		if (ptx_declare(c, s)) {
			emit_decl(c, s);
			if (c->opts->on_variable &&
			    (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST))
				c->opts->on_variable(c->opts->user, s);
		}
		if (is_punct(c, ',')) {
			next(c);
			continue;
		}
		return ptx_expect_punct(c, ';');
	}
}

/* ( .param/.reg decl {, decl} ) into a function-arena array: the symbols live with the
 * body; what outlives it is the compact layout (ptx_layout_signature). */
bool ptx_parse_params(struct ptx_ctx *c, struct ptx_symbol ***out, uint32_t *nout)
{
	struct pa_arena *a = &c->fn_arena;
	if (!ptx_expect_punct(c, '('))
		return false;
	struct ptx_symbol *buf[256];
	uint32_t n = 0;
	while (!is_punct(c, ')')) {
		if (n && !ptx_expect_punct(c, ','))
			return false;
		struct ptx_symbol tmpl = {.vec = 1};
		struct ptx_token *t = tok(c);
		if (t->kind != PTX_TOK_DOTWORD || (t->dw != PTX_DW_PARAM && t->dw != PTX_DW_REG)) {
			ptx_error_expected(c, "'.param' or '.reg' parameter");
			return false;
		}
		if (!parse_decl_attrs(c, &tmpl))
			return false;
		t = tok(c);
		if (t->kind != PTX_TOK_IDENT) {
			ptx_error_expected(c, "a parameter name");
			return false;
		}
		if (n == 256) {
			ptx_error_at(c, t->line, t->col, "more than 256 parameters");
			return false;
		}
		struct ptx_symbol *s = ptx_new_symbol(a, t->text, t->len, t->line, t->col);
		s->kind = PTX_SYM_VAR;
		s->space = tmpl.space;
		s->type = tmpl.type;
		s->vec = tmpl.vec;
		s->align = tmpl.align;
		s->is_ptr = tmpl.is_ptr;
		s->ptr_space = tmpl.ptr_space;
		next(c);
		if (!parse_name_suffix(c, s))
			return false;
		if (s->range) {
			ptx_error_at(c, s->line, s->col,
			             "parameters cannot be parameterized names");
			return false;
		}
		if (s->space == PTX_SPACE_PARAM && s->vec > 1) {
			ptx_error_at(
			        c, s->line, s->col,
			        ".param parameters cannot be vectors (declare .align N .b8 %s[..])",
			        s->name);
			return false;
		}
		buf[n++] = s;
	}
	next(c);
	*out = PA_NEW_ARRAY(a, struct ptx_symbol *, n ? n : 1);
	memcpy(*out, buf, n * sizeof *buf);
	*nout = n;
	return true;
}

/* Compact records of n parameter symbols; returns the end of the last one. */
static uint32_t layout_params(struct ptx_symbol *const *syms, uint32_t n, struct ptx_param *out)
{
	uint64_t end = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct ptx_symbol *s = syms[i];
		uint32_t bits = ptx_types[s->type].bits;
		uint64_t elem = (bits < 8 ? 1 : bits / 8) * (uint64_t)s->vec, size = elem;
		for (unsigned d = 0; d < s->ndims; d++) /* saturates: no overflow */
			size = size * s->dims[d] > UINT32_MAX ? UINT32_MAX : size * s->dims[d];
		uint64_t align = s->align && !s->is_ptr ? s->align : elem;
		uint64_t offset = (end + align - 1) / align * align;
		out[i] = (struct ptx_param){.offset = offset > UINT32_MAX ? UINT32_MAX
		                                                          : (uint32_t)offset,
		                            .size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
		                            .align = (uint32_t)align,
		                            .type = s->type,
		                            .vec = s->vec,
		                            .space = s->space,
		                            .ptr_space = s->ptr_space,
		                            .is_ptr = s->is_ptr};
		end = offset + size;
	}
	return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}

void ptx_layout_signature(struct pa_arena *a, struct ptx_func_info *f)
{
	f->ret_layout = PA_NEW_ARRAY(a, struct ptx_param, f->nrets);
	f->ret_bytes = layout_params(f->rets, f->nrets, f->ret_layout);
	f->param_layout = PA_NEW_ARRAY(a, struct ptx_param, f->nparams);
	f->param_bytes = layout_params(f->params, f->nparams, f->param_layout);
}

static bool parse_dims3(struct ptx_ctx *c, uint32_t v[3], uint8_t *n, const char *what)
{
	next(c);
	*n = 0;
	do {
		if (*n && !ptx_expect_punct(c, ','))
			return false;
		if (*n == 3) {
			ptx_error_at(c, tok(c)->line, tok(c)->col, "%s takes at most 3 values",
			             what);
			return false;
		}
		if (!ptx_parse_u32(c, &v[(*n)++], what))
			return false;
	} while (is_punct(c, ','));
	return true;
}

/* Performance directives between the signature and the body. */
bool ptx_parse_perf_directives(struct ptx_ctx *c, struct ptx_func_info *f)
{
	for (struct ptx_token *t = tok(c); t->kind == PTX_TOK_DOTWORD; t = tok(c)) {
		bool ok = true;
		switch (t->dw) {
		case PTX_DW_MAXNTID:
			ok = parse_dims3(c, f->maxntid, &f->nmaxntid, ".maxntid");
			break;
		case PTX_DW_REQNTID:
			ok = parse_dims3(c, f->reqntid, &f->nreqntid, ".reqntid");
			break;
		case PTX_DW_REQNCTAPERCLUSTER:
			ok = parse_dims3(c, f->reqnctapercluster, &f->nreqnctapercluster,
			                 ".reqnctapercluster");
			break;
		case PTX_DW_MINNCTAPERSM:
		case PTX_DW_MAXNCTAPERSM:
			next(c);
			ok = ptx_parse_u32(c, &f->minnctapersm, ".minnctapersm");
			f->has_minnctapersm = true;
			break;
		case PTX_DW_MAXNREG:
			next(c);
			ok = ptx_parse_u32(c, &f->maxnreg, ".maxnreg");
			f->has_maxnreg = true;
			break;
		case PTX_DW_MAXCLUSTERRANK:
			next(c);
			ok = ptx_parse_u32(c, &f->maxclusterrank, ".maxclusterrank");
			f->has_maxclusterrank = true;
			break;
		case PTX_DW_NORETURN:
			f->noreturn = true;
			next(c);
			break;
		case PTX_DW_EXPLICITCLUSTER:
			f->explicitcluster = true;
			next(c);
			break;
		default:
			return true;
		}
		if (!ok)
			return false;
	}
	return true;
}