/* Parser services shared by the front end's passes: diagnostics at a source position,
 * token expectations and error recovery, statement and symbol allocation, name lookup
 * through the scope chain, label references, and scopes.
 *
 * Recovery skips to the next `;` or unbalanced `}` (statement level) or past a whole
 * `{ }` block (module level), counting braces instead of recursing, so no input can
 * grow the C stack.  requires: lex.c tokens, symtab.c tables.
 * Complexity: O(1) per call except the skips, which are O(tokens skipped). */
#include "ptx_int.h"

#include <stdarg.h>
#include <string.h>

static void report(struct ptx_ctx *c, enum pa_diag_level level, uint32_t line, uint32_t col,
                   const char *fmt, va_list ap)
{
	const char *text = NULL;
	size_t len = 0;
	if (!ptx_lex_line_text(&c->lx, line, &text, &len))
		text = NULL;
	pa_diag_vreport(c->diag, level, c->filename, line, col, text, len, fmt, ap);
	if (pa_diag_too_many(c->diag))
		c->stop = true;
}

void ptx_error_with_text(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *text,
                         size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pa_diag_vreport(c->diag, PA_DIAG_ERROR, c->filename, line, col, text, len, fmt, ap);
	va_end(ap);
	if (pa_diag_too_many(c->diag))
		c->stop = true;
}

void ptx_error_at(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(c, PA_DIAG_ERROR, line, col, fmt, ap);
	va_end(ap);
}

void ptx_warning_at(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(c, PA_DIAG_WARNING, line, col, fmt, ap);
	va_end(ap);
}

/* Describes the current token for "expected X, found Y" messages. */
void ptx_error_expected(struct ptx_ctx *c, const char *what)
{
	struct ptx_token *t = tok(c);
	if (t->kind == PTX_TOK_BAD)
		return; /* the lexer already reported it */
	if (t->kind == PTX_TOK_EOF)
		ptx_error_at(c, t->line, t->col, "expected %s, found end of file", what);
	else
		ptx_error_at(c, t->line, t->col, "expected %s, found '%.*s'", what,
		             (int)(t->len > 40 ? 40 : t->len), t->text);
}

bool ptx_expect_punct(struct ptx_ctx *c, char ch)
{
	if (is_punct(c, ch)) {
		next(c);
		return true;
	}
	char what[8] = {'\'', ch, '\'', 0};
	ptx_error_expected(c, what);
	return false;
}

/* Skips a balanced { } block starting at the current '{' without recursion. */
void ptx_skip_block(struct ptx_ctx *c)
{
	uint64_t depth = 0;
	do {
		if (is_punct(c, '{'))
			depth++;
		else if (is_punct(c, '}'))
			depth--;
		else if (tok(c)->kind == PTX_TOK_EOF)
			return;
		next(c);
	} while (depth > 0);
}

/* Statement-level recovery: to the next ';' (consumed) or unbalanced '}' (not
 * consumed); braces of vector operands on the way are balanced. */
void ptx_recover_stmt(struct ptx_ctx *c)
{
	uint64_t depth = 0;
	while (tok(c)->kind != PTX_TOK_EOF) {
		if (is_punct(c, '}') && depth == 0)
			return;
		depth += is_punct(c, '{');
		depth -= is_punct(c, '}');
		bool semi = is_punct(c, ';');
		next(c);
		if (semi && depth == 0)
			return;
	}
}

void ptx_recover_module(struct ptx_ctx *c)
{
	for (;;) {
		if (tok(c)->kind == PTX_TOK_EOF)
			return;
		if (is_punct(c, '{')) {
			ptx_skip_block(c);
			return;
		}
		bool end = is_punct(c, ';') || is_punct(c, '}');
		next(c);
		if (end)
			return;
	}
}

/* Reads an unsigned decimal/hex number token that fits in 32 bits. */
bool ptx_parse_u32(struct ptx_ctx *c, uint32_t *out, const char *what)
{
	struct ptx_token *t = tok(c);
	struct ptx_number n;
	const char *err = NULL;
	if (t->kind != PTX_TOK_NUMBER) {
		ptx_error_expected(c, what);
		return false;
	}
	err = ptx_parse_number(t->text, t->len, &n);
	if (!err && (n.kind != PTX_OPND_INT || n.value > UINT32_MAX))
		err = "value out of range";
	if (err) {
		ptx_error_at(c, t->line, t->col, "%s: %s", what, err);
		next(c);
		return false;
	}
	*out = (uint32_t)n.value;
	next(c);
	return true;
}

struct ptx_stmt *ptx_add_stmt(struct ptx_ctx *c, enum ptx_stmt_kind kind, uint32_t line)
{
	if (c->nstmts == c->cap_stmts) {
		/* one buffer reused by every function (bounded by PTX_MAX_STMTS) */
		c->cap_stmts = c->cap_stmts ? c->cap_stmts * 2 : 1024;
		c->stmts = pa_xrealloc(c->stmts, c->cap_stmts * sizeof *c->stmts);
	}
	struct ptx_stmt *s = &c->stmts[c->nstmts++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->line = line;
	return s;
}

struct ptx_symbol *ptx_new_symbol(struct pa_arena *a, const char *name, uint32_t len, uint32_t line,
                                  uint32_t col)
{
	struct ptx_symbol *s = PA_NEW(a, struct ptx_symbol);
	s->name = pa_arena_strndup(a, name, len);
	s->name_len = len;
	s->hash = ptx_hash(name, len);
	s->line = line;
	s->col = col;
	s->vec = 1;
	return s;
}

/* The function's own parameter (or return value) named as `s`, a .param variable of an
 * inner block that shadows it; NULL when there is none. */
static struct ptx_symbol *shadowed_parameter(const struct ptx_ctx *c, const struct ptx_symbol *s)
{
	if (c->scope_depth < 2 || s->space != PTX_SPACE_PARAM || s->scope_id == c->scope_ids[1])
		return NULL;
	for (struct ptx_symbol *o = s->hnext; o; o = o->hnext)
		if (o->scope_id == c->scope_ids[1] && o->space == PTX_SPACE_PARAM && !o->range &&
		    o->hash == s->hash && o->name_len == s->name_len &&
		    !memcmp(o->name, s->name, s->name_len))
			return o;
	return NULL;
}

/* A name in scope.  One exception to inner-first shadowing, as NVIDIA's ptxas resolves it: a
 * .param declared in an inner block under the name of one of the function's parameters
 * does not hide that parameter ([pa] is still the parameter; ptxas then refuses a store to
 * it as a write to an input parameter). */
struct ptx_symbol *ptx_lookup(struct ptx_ctx *c, const struct ptx_name *n, uint32_t *index)
{
	struct ptx_symbol *s = c->locals.count ? ptx_symtab_lookup(&c->locals, n, index) : NULL;
	struct ptx_symbol *param = s ? shadowed_parameter(c, s) : NULL;
	if (param)
		return param;
	if (!s)
		s = ptx_symtab_lookup(&c->globals, n, index);
	return s;
}

struct ptx_symbol *ptx_label_ref(struct ptx_ctx *c, const char *name, uint32_t len, uint32_t line,
                                 uint32_t col)
{
	uint32_t hash = ptx_hash(name, len);
	struct ptx_symbol *s = ptx_symtab_find(&c->labels, name, len, hash);
	if (s || !c->fn)
		return s;
	s = ptx_new_symbol(&c->fn_arena, name, len, line, col);
	s->kind = PTX_SYM_LABEL;
	const char *text;
	size_t text_len;
	if (ptx_lex_line_text(&c->lx, line, &text, &text_len)) {
		/* keep the line for an "undefined label" error at the end of the body */
		text_len = text_len > 512 ? 512 : text_len;
		s->use_text = pa_arena_strndup(&c->fn_arena, text, text_len);
		s->use_len = (uint32_t)text_len;
	}
	ptx_symtab_insert(&c->labels, s);
	s->next_in_scope = c->fn_labels; /* labels have no scope: the list is the function's */
	c->fn_labels = s;
	return s;
}

void ptx_open_scope(struct ptx_ctx *c)
{
	c->scope_depth++;
	c->scope_syms[c->scope_depth] = NULL;
	c->scope_ids[c->scope_depth] = ++c->scope_serial;
}

void ptx_close_scope(struct ptx_ctx *c)
{
	for (struct ptx_symbol *s = c->scope_syms[c->scope_depth]; s; s = s->next_in_scope)
		ptx_symtab_remove(&c->locals, s);
	c->scope_depth--;
}

/* Declares `s` in the current scope (function) or module; reports redeclarations. */
bool ptx_declare(struct ptx_ctx *c, struct ptx_symbol *s)
{
	bool local = c->scope_depth > 0;
	struct ptx_symtab *t = local ? &c->locals : &c->globals;
	uint32_t scope = local ? c->scope_ids[c->scope_depth] : 0, index;
	struct ptx_symbol *old = NULL;
	if (s->range) {
		for (old = t->buckets[s->hash & (t->nbuckets - 1)]; old; old = old->hnext)
			if (old->range && old->name_len == s->name_len &&
			    !memcmp(old->name, s->name, s->name_len))
				break;
	} else {
		struct ptx_name n;
		ptx_name_init(&n, s->name, s->name_len);
		old = ptx_symtab_lookup(t, &n, &index);
	}
	if (old && old->scope_id == scope &&
	    !(old->linkage & PTX_LINK_EXTERN && old->kind == s->kind)) {
		ptx_error_at(c, s->line, s->col,
		             "redeclaration of '%s%s' (first declared at line %u)", s->name,
		             s->range ? "<>" : "", old->line);
		return false;
	}
	s->scope_id = scope;
	ptx_symtab_insert(t, s);
	if (local) {
		s->next_in_scope = c->scope_syms[c->scope_depth];
		c->scope_syms[c->scope_depth] = s;
	}
	return true;
}

/* Appends normalized text of the tokens in a directive tail to a buffer. */
void ptx_append(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
	if (*n + len + 1 >= cap)
		len = *n + 1 < cap ? cap - *n - 1 : 0;
	memcpy(buf + *n, s, len);
	*n += len;
	buf[*n] = 0;
}

/* "str" {, "str"} ;  -> normalized text */
const char *ptx_parse_strings(struct ptx_ctx *c, struct pa_arena *a)
{
	char text[1024];
	size_t n = 0;
	next(c);
	do {
		if (n && !ptx_expect_punct(c, ','))
			return NULL;
		if (tok(c)->kind != PTX_TOK_STRING) {
			ptx_error_expected(c, "a string");
			return NULL;
		}
		if (n)
			ptx_append(text, sizeof text, &n, ", ", 2);
		ptx_append(text, sizeof text, &n, tok(c)->text, tok(c)->len);
		next(c);
	} while (is_punct(c, ','));
	if (!ptx_expect_punct(c, ';'))
		return NULL;
	return pa_arena_strndup(a, text, n);
}