/* PTX modules: the entry point ptx_parse_stream.
 *
 * Streams the input through the lexer and reads the module one top-level item at a
 * time: .version/.target/.address_size/.file/.section/.pragma, variable declarations
 * (decl.c) and functions.  A function's signature and body (body.c) are parsed into
 * the per-function arena, checked (instructions as they are read, labels at the
 * closing brace), dumped and handed to the on_function callback, then the arena is
 * reset; the module keeps only the function symbol and a compact signature (struct
 * ptx_param records, no parameter symbols), so peak memory follows the largest
 * function plus the module's declarations.  On an error the
 * parser reports it and recovers at the next statement, so one run reports many.
 * requires: lex.c, context.c, decl.c, body.c, insn.c, check.c, dump.c.
 * Complexity: O(input) time. */
#include "ptx_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static bool same_signature(const struct ptx_func_info *a, const struct ptx_func_info *b)
{
	if (a->is_entry != b->is_entry || a->nrets != b->nrets || a->nparams != b->nparams)
		return false;
	for (uint32_t i = 0; i < a->nparams; i++)
		if (a->param_layout[i].type != b->param_layout[i].type)
			return false;
	return true;
}

/* Copies signature `src` (parsed into the function arena) to `dst` in the module arena,
 * without the parameter symbols; reuses dst's records when it has them (a definition
 * after a declaration: same counts). */
static void keep_signature(struct ptx_ctx *c, struct ptx_func_info *dst,
                           const struct ptx_func_info *src)
{
	struct ptx_param *rets = dst->ret_layout, *params = dst->param_layout;
	*dst = *src;
	dst->rets = dst->params = NULL;
	if (!rets && src->nrets)
		rets = PA_NEW_ARRAY(&c->module_arena, struct ptx_param, src->nrets);
	if (!params && src->nparams)
		params = PA_NEW_ARRAY(&c->module_arena, struct ptx_param, src->nparams);
	if (src->nrets)
		memcpy(rets, src->ret_layout, src->nrets * sizeof *rets);
	if (src->nparams)
		memcpy(params, src->param_layout, src->nparams * sizeof *params);
	dst->ret_layout = rets;
	dst->param_layout = params;
}

/* The module's symbol for a new function: a copy of `fn` without its parameters. */
static struct ptx_symbol *keep_function(struct ptx_ctx *c, const struct ptx_symbol *fn)
{
	struct ptx_symbol *m = PA_NEW(&c->module_arena, struct ptx_symbol);
	*m = *fn;
	m->name = pa_arena_strndup(&c->module_arena, fn->name, fn->name_len);
	m->hnext = m->next_in_scope = NULL;
	m->func = PA_NEW(&c->module_arena, struct ptx_func_info);
	keep_signature(c, m->func, fn->func);
	return m;
}

static void finish_function(struct ptx_ctx *c, struct ptx_symbol *fn, bool has_body)
{
	unsigned errors_before = c->diag->nerrors;
	ptx_finish_labels(c, has_body);
	if (c->opts->dump_out)
		ptx_dump_function(c->opts->dump_out, fn, c->stmts, c->nstmts, has_body);
	if (has_body && c->opts->on_function && !pa_diag_failed(c->diag) &&
	    c->diag->nerrors == errors_before) {
		struct ptx_function pf = {
		        .sym = fn, .stmts = c->stmts, .nstmts = c->nstmts, .owner = c};
		c->opts->on_function(c->opts->user, &pf, &c->mod);
	}
	fn->func->rets = fn->func->params = NULL; /* they live in the function arena */
	c->fn = NULL;
	c->nstmts = 0;
	pa_arena_reset(&c->fn_arena);
}

void ptx_release_body(const struct ptx_function *pf)
{
	struct ptx_ctx *c = pf->owner;
	if (!c)
		return;
	free(c->stmts); /* (grown again by the next body) */
	c->stmts = NULL;
	c->nstmts = c->cap_stmts = 0;
	pf->sym->func->rets = pf->sym->func->params = NULL; /* they live in the function arena */
	pa_arena_reset(&c->fn_arena);
}

/* Declares or finds the module's function symbol for a new signature `fn` (in the
 * function arena). */
static struct ptx_symbol *declare_function(struct ptx_ctx *c, struct ptx_symbol *fn, bool body)
{
	struct ptx_symbol *old = ptx_symtab_find(&c->globals, fn->name, fn->name_len, fn->hash);
	if (!old) {
		struct ptx_symbol *m = keep_function(c, fn);
		ptx_symtab_insert(&c->globals, m);
		return m;
	}
	if (old->kind != PTX_SYM_FUNC) {
		ptx_error_at(c, fn->line, fn->col, "redeclaration of '%s' as a function", fn->name);
		return NULL;
	}
	if (!same_signature(old->func, fn->func)) {
		ptx_error_at(
		        c, fn->line, fn->col,
		        "declaration of '%s' does not match its earlier declaration at line %u",
		        fn->name, old->line);
		return NULL;
	}
	if (body && old->defined) {
		ptx_error_at(c, fn->line, fn->col, "redefinition of function '%s'", fn->name);
		return NULL;
	}
	if (body) {
		keep_signature(c, old->func, fn->func); /* the definition's directives */
		old->linkage = fn->linkage;
	}
	return old;
}

/* [linkage] .entry|.func [(rets)] name [(params)] perf-directives ( ; | { body } ) */
static bool parse_function(struct ptx_ctx *c, uint8_t linkage)
{
	bool is_entry = tok(c)->dw == PTX_DW_ENTRY;
	/* parsed into the function arena; declare_function keeps what outlives the body */
	struct ptx_func_info *f = PA_NEW(&c->fn_arena, struct ptx_func_info);
	f->is_entry = is_entry;
	next(c);
	if (!is_entry && is_punct(c, '(') && !ptx_parse_params(c, &f->rets, &f->nrets))
		return false;
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_IDENT) {
		ptx_error_expected(c, "a function name");
		return false;
	}
	struct ptx_symbol *fn = ptx_new_symbol(&c->fn_arena, t->text, t->len, t->line, t->col);
	fn->kind = PTX_SYM_FUNC;
	fn->linkage = linkage;
	fn->func = f;
	next(c);
	if (is_punct(c, '(') && !ptx_parse_params(c, &f->params, &f->nparams))
		return false;
	if (!ptx_parse_perf_directives(c, f))
		return false;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (is_entry && f->params[i]->space != PTX_SPACE_PARAM) {
			ptx_error_at(c, f->params[i]->line, f->params[i]->col,
			             "kernel parameters must be in the .param state space");
			return false;
		}
	ptx_layout_signature(&c->fn_arena, f);
	bool body = is_punct(c, '{');
	if (!body && !is_punct(c, ';')) {
		ptx_error_expected(c, "'{' or ';' after the function signature");
		return false;
	}
	if (body && linkage & PTX_LINK_EXTERN) {
		ptx_error_at(c, fn->line, fn->col, ".extern function '%s' cannot have a body",
		             fn->name);
		ptx_skip_block(c);
		return true;
	}
	struct ptx_symbol *sym = declare_function(c, fn, body);
	if (!sym) {
		if (body)
			ptx_skip_block(c);
		else
			next(c);
		return true;
	}
	c->seen_code = true;
	if (!body) {
		next(c);
		finish_function(c, fn, false);
		return true;
	}
	sym->defined = true;
	c->fn = sym; /* the symbol calls resolve to; it now has the definition's signature */
	sym->func->rets = f->rets; /* until finish_function */
	sym->func->params = f->params;
	ptx_parse_body(c, sym);
	finish_function(c, sym, true);
	return true;
}

static bool parse_version(struct ptx_ctx *c)
{
	struct ptx_token *t = tok(c);
	uint32_t line = t->line, col = t->col;
	if (c->seen_version) {
		ptx_error_at(c, line, col, "duplicate .version directive");
		return false;
	}
	c->seen_version = true;
	next(c);
	t = tok(c);
	unsigned major = 0, minor = 0;
	size_t i = 0;
	while (t->kind == PTX_TOK_NUMBER && i < t->len && t->text[i] >= '0' && t->text[i] <= '9' &&
	       major < 1000)
		major = major * 10 + (unsigned)(t->text[i++] - '0');
	bool dot = i < t->len && t->text[i] == '.';
	size_t j = dot ? i + 1 : i;
	while (j < t->len && t->text[j] >= '0' && t->text[j] <= '9' && minor < 1000)
		minor = minor * 10 + (unsigned)(t->text[j++] - '0');
	if (t->kind != PTX_TOK_NUMBER || !dot || j != t->len || j == i + 1 || minor > 9) {
		ptx_error_expected(c, "a version number like 8.0");
		return false;
	}
	if (major < 1 || major * 10 + minor > 99) {
		ptx_error_at(c, t->line, t->col, "unsupported PTX ISA version %u.%u", major, minor);
		next(c);
		return false;
	}
	c->mod.version = major * 10 + minor;
	if (c->mod.version > 90) {
		ptx_error_at(c, t->line, t->col,
		             "unsupported PTX ISA version %u.%u (the newest supported is 9.0)",
		             major, minor);
		next(c);
		return false;
	}
	next(c);
	return true;
}

/* Oldest PTX ISA version (x10) that knows each target. */
static unsigned min_version_for_sm(unsigned sm)
{
	static const struct {
		uint16_t sm, ver;
	} table[] = {{120, 87}, {100, 86}, {90, 78}, {89, 78}, {87, 74}, {86, 71},
	             {80, 70},  {75, 63},  {72, 61}, {70, 60}, {60, 50}, {53, 42},
	             {52, 41},  {50, 40},  {30, 31}, {20, 20}};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (sm >= table[i].sm)
			return table[i].ver;
	return 10;
}

/* The sm_XX / compute_XX targets NVIDIA ptxas (CUDA 13.0) accepts, with the suffixes
 * each takes ("a": arch-specific, "f": family); its verdicts are recorded in
 * tests/driver/ptxas_targets.txt. */
static bool is_known_sm(unsigned sm, char suffix)
{
	static const struct {
		uint16_t sm;
		char suffixes[3];
	} known[] = {{10, ""},    {11, ""},   {12, ""},    {13, ""},    {20, ""},    {21, ""},
	             {30, ""},    {32, ""},   {35, ""},    {37, ""},    {50, ""},    {52, ""},
	             {53, ""},    {60, ""},   {61, ""},    {62, ""},    {70, ""},    {72, ""},
	             {75, ""},    {80, ""},   {82, ""},    {86, ""},    {87, ""},    {88, ""},
	             {89, ""},    {90, "a"},  {100, "af"}, {101, "af"}, {103, "af"}, {110, "af"},
	             {120, "af"}, {121, "af"}};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].sm == sm)
			return !suffix || strchr(known[i].suffixes, suffix) != NULL;
	return false;
}

static bool parse_target(struct ptx_ctx *c)
{
	if (c->seen_target) {
		ptx_error_at(c, tok(c)->line, tok(c)->col, "duplicate .target directive");
		return false;
	}
	c->seen_target = true;
	next(c);
	do {
		if (is_punct(c, ','))
			next(c);
		struct ptx_token *t = tok(c);
		if (t->kind != PTX_TOK_IDENT) {
			ptx_error_expected(c, "a target name");
			return false;
		}
		char name[32] = {0};
		memcpy(name, t->text, t->len < 31 ? t->len : 31);
		unsigned sm = 0;
		char suffix = 0, extra = 0;
		if ((sscanf(name, "sm_%u%c%c", &sm, &suffix, &extra) >= 1 ||
		     sscanf(name, "compute_%u%c%c", &sm, &suffix, &extra) >= 1) &&
		    !extra && is_known_sm(sm, suffix)) {
			unsigned need = min_version_for_sm(sm);
			if (c->mod.version && c->mod.version < need) {
				ptx_error_at(c, t->line, t->col,
				             "PTX ISA version %u.%u does not support .target %s "
				             "(needs %u.%u)",
				             c->mod.version / 10, c->mod.version % 10, name,
				             need / 10, need % 10);
				return false;
			}
			c->mod.sm = sm;
			c->mod.sm_arch_specific = suffix != 0;
		} else if (!strcmp(name, "texmode_unified")) {
			c->mod.texmode_independent = false;
		} else if (!strcmp(name, "texmode_independent")) {
			c->mod.texmode_independent = true;
		} else if (!strcmp(name, "debug")) {
			c->mod.debug = true;
		} else if (!strcmp(name, "map_f64_to_f32")) {
			c->mod.map_f64_to_f32 = true;
		} else {
			ptx_error_at(c, t->line, t->col, "unknown target '%.*s'",
			             (int)(t->len > 40 ? 40 : t->len), t->text);
			return false;
		}
		next(c);
	} while (is_punct(c, ','));
	if (!c->mod.sm) {
		ptx_error_at(c, tok(c)->line, tok(c)->col, ".target names no sm_XX architecture");
		return false;
	}
	return true;
}

/* .file N "name" [, timestamp, size] */
/* A function named by `.alias`; NULL after an error. */
static struct ptx_symbol *alias_function(struct ptx_ctx *c)
{
	const struct ptx_token *t = tok(c);
	uint32_t index;
	struct ptx_symbol *s = t->kind == PTX_TOK_IDENT ? ptx_lookup_tok(c, t, &index) : NULL;
	if (!s || s->kind != PTX_SYM_FUNC || s->func->is_entry) {
		ptx_error_expected(c, "the name of a declared .func");
		return NULL;
	}
	next(c);
	return s;
}

static bool same_layout(const struct ptx_func_info *a, const struct ptx_func_info *b)
{
	if (a->nrets != b->nrets || a->nparams != b->nparams || a->ret_bytes != b->ret_bytes ||
	    a->param_bytes != b->param_bytes)
		return false;
	for (uint32_t i = 0; i < a->nparams; i++)
		if (memcmp(&a->param_layout[i], &b->param_layout[i], sizeof a->param_layout[i]))
			return false;
	for (uint32_t i = 0; i < a->nrets; i++)
		if (memcmp(&a->ret_layout[i], &b->ret_layout[i], sizeof a->ret_layout[i]))
			return false;
	return true;
}

/* `.alias alias, target;` (PTX ISA 6.3+): the declared function `alias` (no body) names the
 * function `target`, which has the same signature; calls of alias call target. */
static bool parse_alias(struct ptx_ctx *c)
{
	uint32_t line = tok(c)->line, col = tok(c)->col;
	next(c);
	struct ptx_symbol *alias = alias_function(c);
	if (!alias || !ptx_expect_punct(c, ','))
		return false;
	struct ptx_symbol *target = alias_function(c);
	if (!target || !ptx_expect_punct(c, ';'))
		return false;
	if (alias->defined || alias == target || target->func->alias_of) {
		ptx_error_at(
		        c, line, col,
		        ".alias: '%s' must be a declaration without a body and '%s' a function "
		        "that is not an alias",
		        alias->name, target->name);
		return false;
	}
	if (!same_layout(alias->func, target->func)) {
		ptx_error_at(c, line, col, ".alias: '%s' and '%s' have different signatures",
		             alias->name, target->name);
		return false;
	}
	alias->func->alias_of = target;
	if (c->opts->dump_out) /* the dump must keep meaning what the source meant */
		fprintf(c->opts->dump_out, "\n.alias %s, %s;\n", alias->name, target->name);
	return true;
}

static bool parse_file(struct ptx_ctx *c)
{
	char text[1200];
	size_t n = 0;
	next(c);
	uint32_t index;
	if (!ptx_parse_u32(c, &index, ".file index"))
		return false;
	n = (size_t)snprintf(text, sizeof text, "%u ", index);
	if (tok(c)->kind != PTX_TOK_STRING) {
		ptx_error_expected(c, "a file name string");
		return false;
	}
	ptx_append(text, sizeof text, &n, tok(c)->text, tok(c)->len);
	if (c->opts->on_file) /* (the token keeps its quotes) */
		c->opts->on_file(c->opts->user, index, tok(c)->text + 1, tok(c)->len - 2);
	uint32_t line = tok(c)->line;
	next(c);
	while (is_punct(c, ',') && tok(c)->line == line) {
		next(c);
		if (tok(c)->kind != PTX_TOK_NUMBER) {
			ptx_error_expected(c, "a number");
			return false;
		}
		ptx_append(text, sizeof text, &n, ", ", 2);
		ptx_append(text, sizeof text, &n, tok(c)->text, tok(c)->len);
		next(c);
	}
	if (c->opts->dump_out)
		ptx_dump_text(c->opts->dump_out, ".file", text);
	return true;
}

/* .section name { ... }: DWARF data nvcc emits with -G.  Not parsed: skipped, and with
 * --dump-ast copied token by token, one output line per source line, so the dump
 * keeps the debug information ptxas needs for `.target debug`. */
static bool parse_section(struct ptx_ctx *c)
{
	FILE *out = c->opts->dump_out;
	next(c);
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_DOTWORD && t->kind != PTX_TOK_IDENT) {
		ptx_error_expected(c, "a section name");
		return false;
	}
	if (out)
		fprintf(out, ".section %.*s\n{\n", (int)t->len, t->text);
	next(c);
	if (!is_punct(c, '{')) {
		ptx_error_expected(c, "'{'");
		return false;
	}
	next(c);
	uint64_t depth = 1;
	uint32_t line = 0;
	for (t = tok(c);; t = tok(c)) {
		if (t->kind == PTX_TOK_EOF) {
			ptx_error_at(c, t->line, t->col, "unexpected end of file in .section");
			return false;
		}
		depth += is_punct(c, '{');
		depth -= is_punct(c, '}');
		if (depth == 0)
			break;
		if (out) {
			if (t->line != line) {
				fputs(line ? "\n\t" : "\t", out);
				line = t->line;
			} else if (!is_punct(c, ',') && !is_punct(c, ':')) {
				fputc(' ', out);
			}
			fwrite(t->text, 1, t->len, out);
		}
		next(c);
	}
	next(c);
	if (out)
		fputs(line ? "\n}\n" : "}\n", out);
	return true;
}

static bool parse_module_directive(struct ptx_ctx *c)
{
	struct ptx_token *t = tok(c);
	uint16_t dw = t->dw;
	if (dw != PTX_DW_VERSION && !c->seen_version) {
		ptx_error_at(c, t->line, t->col,
		             "missing .version directive at the start of the module");
		c->seen_version = true;
	} else if (dw != PTX_DW_VERSION && dw != PTX_DW_TARGET && !c->seen_target) {
		ptx_error_at(c, t->line, t->col, "missing .target directive before '%.*s'",
		             (int)(t->len > 40 ? 40 : t->len), t->text);
		c->seen_target = true;
	}
	switch (dw) {
	case PTX_DW_VERSION:
		return parse_version(c);
	case PTX_DW_TARGET: {
		bool ok = parse_target(c);
		if (ok && c->opts->dump_out)
			ptx_dump_module_header(c->opts->dump_out, &c->mod);
		return ok;
	}
	case PTX_DW_ADDRESS_SIZE: {
		uint32_t v, line = t->line, col = t->col;
		next(c);
		struct ptx_number num;
		t = tok(c);
		/* checked before the number is consumed, so the excerpt is this line */
		if (t->kind == PTX_TOK_NUMBER && !ptx_parse_number(t->text, t->len, &num) &&
		    (num.kind != PTX_OPND_INT || (num.value != 32 && num.value != 64))) {
			ptx_error_at(c, line, col, ".address_size must be 32 or 64");
			next(c);
			return false;
		}
		if (!ptx_parse_u32(c, &v, ".address_size"))
			return false;
		c->mod.address_size = v;
		if (c->opts->dump_out)
			fprintf(c->opts->dump_out, ".address_size %u\n", v);
		return true;
	}
	case PTX_DW_FILE:
		return parse_file(c);
	case PTX_DW_ALIAS:
		return parse_alias(c);
	case PTX_DW_SECTION:
		return parse_section(c);
	case PTX_DW_PRAGMA: {
		const char *text = ptx_parse_strings(c, &c->module_arena);
		if (text && c->opts->dump_out)
			fprintf(c->opts->dump_out, ".pragma %s;\n", text);
		return text != NULL;
	}
	default:
		break;
	}
	uint8_t linkage = 0;
	for (; t->kind == PTX_TOK_DOTWORD; t = tok(c)) {
		uint8_t bit = dw == PTX_DW_EXTERN    ? PTX_LINK_EXTERN
		              : dw == PTX_DW_VISIBLE ? PTX_LINK_VISIBLE
		              : dw == PTX_DW_WEAK    ? PTX_LINK_WEAK
		              : dw == PTX_DW_COMMON  ? PTX_LINK_COMMON
		                                     : 0;
		if (!bit)
			break;
		if (linkage) {
			ptx_error_at(c, t->line, t->col, "more than one linkage directive");
			return false;
		}
		linkage |= bit;
		next(c);
		dw = tok(c)->dw;
		if (tok(c)->kind != PTX_TOK_DOTWORD)
			break;
	}
	if (tok(c)->kind == PTX_TOK_DOTWORD && (dw == PTX_DW_ENTRY || dw == PTX_DW_FUNC))
		return parse_function(c, linkage);
	if (tok(c)->kind == PTX_TOK_DOTWORD &&
	    (ptx_space_of(dw) != PTX_SPACE_NONE || dw == PTX_DW_ALIGN))
		return ptx_parse_var_decl(c, linkage);
	if (tok(c)->kind == PTX_TOK_DOTWORD)
		ptx_error_at(c, tok(c)->line, tok(c)->col,
		             "unexpected directive '%.*s' at module scope",
		             (int)(tok(c)->len > 40 ? 40 : tok(c)->len), tok(c)->text);
	else
		ptx_error_expected(c, "a declaration after the linkage directive");
	return false;
}

static void declare_sregs(struct ptx_ctx *c)
{
	for (unsigned i = 0; i < ptx_nsregs; i++) {
		const struct ptx_sreg_info *r = &ptx_sregs[i];
		struct ptx_symbol *s =
		        ptx_new_symbol(&c->module_arena, r->name, (uint32_t)strlen(r->name), 0, 0);
		s->kind = PTX_SYM_SREG;
		s->space = PTX_SPACE_SREG;
		s->type = r->type;
		s->vec = r->ncomp;
		s->sreg = (uint8_t)i;
		if (!strcmp(r->name, "%envreg"))
			s->range = 32;
		else if (!strcmp(r->name, "%pm"))
			s->range = 8;
		ptx_symtab_insert(&c->globals, s);
	}
}

bool ptx_parse_stream(FILE *in, const struct ptx_parse_options *opts)
{
	/* zeroed up to the 64 KiB token scratch buffer, which is always written before it is
	 * read: clearing it too was 17 page faults of every small compile */
	struct ptx_ctx *c = pa_xmalloc(sizeof *c);
	memset(c, 0, offsetof(struct ptx_ctx, scratch));
	c->opts = opts;
	c->diag = opts->diag;
	c->filename = opts->filename ? opts->filename : "<input>";
	c->mod.address_size = 64;
	unsigned errors_before = c->diag->nerrors;
	pa_arena_init(&c->module_arena);
	pa_arena_init(&c->fn_arena);
	c->fn_arena.small_pages = true; /* (arena.h) */
	c->module_arena.pool = c->fn_arena.pool = opts->pages;
	/* small first tables (they double as they fill): 18 KiB of buckets cleared up front were
	 * five page faults of every small compile */
	ptx_symtab_init(&c->globals, 128);
	ptx_symtab_init(&c->locals, 128);
	ptx_symtab_init(&c->labels, 64);
	ptx_lex_init(&c->lx, in, c);
	declare_sregs(c);
	next(c);
	while (!c->stop && tok(c)->kind != PTX_TOK_EOF) {
		struct ptx_token *t = tok(c);
		if (t->kind == PTX_TOK_DOTWORD) {
			if (!parse_module_directive(c) && !c->stop)
				ptx_recover_module(c);
		} else if (is_punct(c, ';')) {
			next(c);
		} else {
			ptx_error_expected(c, "a directive");
			ptx_recover_module(c);
		}
	}
	if (!c->stop && !c->seen_version)
		ptx_error_at(c, tok(c)->line, tok(c)->col, "missing .version directive");
	else if (!c->stop && !c->seen_target && c->diag->nerrors == errors_before)
		/* (after another error the .target line may have been skipped in recovery) */
		ptx_error_at(c, tok(c)->line, tok(c)->col, "missing .target directive");
	if (ferror(in))
		ptx_error_at(c, 0, 0, "read error");
	bool ok = c->diag->nerrors == errors_before;
	if (ok && opts->on_module_end && !pa_diag_failed(c->diag))
		opts->on_module_end(opts->user, &c->mod);
	ptx_lex_free(&c->lx);
	free(c->listbuf);
	free(c->stmts);
	ptx_symtab_free(&c->globals);
	ptx_symtab_free(&c->locals);
	ptx_symtab_free(&c->labels);
	pa_arena_free(&c->fn_arena);
	pa_arena_free(&c->module_arena);
	free(c);
	return ok;
}