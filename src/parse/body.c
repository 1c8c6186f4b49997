/* PTX function bodies: the statement loop with nested `{ }` scopes, labels (with
 * `.callprototype`, `.branchtargets` and `.calltargets`), guards, `.loc`, `.pragma`
 * and declarations; instructions go to insn.c.
 *
 * One loop with an explicit scope depth bounded by PTX_MAX_DEPTH (deeper blocks are
 * reported and skipped by counting braces), so no input grows the C stack.  Labels
 * may be used before they are defined; they are checked when the body ends.
 * requires: context.c, decl.c, insn.c.  Complexity: O(body size). */
#include "ptx_int.h"

#include <string.h>

static void check_labels(struct ptx_ctx *c, struct ptx_symbol *list)
{
	for (struct ptx_symbol *s = list; s; s = s->next_in_scope)
		if (!s->defined)
			ptx_error_with_text(c, s->line, s->col, s->use_text, s->use_len,
			                    "undefined label '%s'", s->name);
}

/* Empties the label table and returns the function's labels in source order.  Every
 * entry of the table is one of them, so clearing their buckets clears the table in
 * O(labels), however large an earlier function made it. */
static struct ptx_symbol *take_labels(struct ptx_ctx *c)
{
	struct ptx_symbol *list = NULL;
	for (struct ptx_symbol *s = c->fn_labels, *older; s; s = older) {
		older = s->next_in_scope;
		c->labels.buckets[s->hash & (c->labels.nbuckets - 1)] = NULL;
		s->next_in_scope = list;
		list = s;
	}
	c->labels.count = 0;
	c->fn_labels = NULL;
	return list;
}

static void define_label(struct ptx_ctx *c, const char *name, uint32_t len, uint32_t line,
                         uint32_t col, enum ptx_sym_kind kind)
{
	struct ptx_symbol *s = ptx_label_ref(c, name, len, line, col);
	if (s->defined) {
		ptx_error_at(c, line, col, "redefinition of label '%s' (first defined at line %u)",
		             s->name, s->line);
		return;
	}
	s->defined = true;
	s->kind = (uint8_t)kind;
	s->line = line;
	s->col = col;
	ptx_add_stmt(c, PTX_STMT_LABEL, line)->u.sym = s;
}

/* label: .callprototype [(ret)] _ (params) ;   (the label statement is already added) */
static bool parse_callprototype(struct ptx_ctx *c, struct ptx_symbol *label)
{
	struct ptx_func_info *f = PA_NEW(&c->fn_arena, struct ptx_func_info); /* function-local */
	next(c);
	if (is_punct(c, '(') && !ptx_parse_params(c, &f->rets, &f->nrets))
		return false;
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_IDENT || t->len != 1 || t->text[0] != '_') {
		ptx_error_expected(c, "'_' in .callprototype");
		return false;
	}
	next(c);
	if (is_punct(c, '(') && !ptx_parse_params(c, &f->params, &f->nparams))
		return false;
	if (!ptx_parse_perf_directives(c, f))
		return false;
	ptx_layout_signature(&c->fn_arena, f);
	label->kind = PTX_SYM_PROTO;
	label->func = f;
	c->stmts[c->nstmts - 1].kind = PTX_STMT_PROTO;
	return ptx_expect_punct(c, ';');
}

/* label: .branchtargets L1, L2 ;  or  .calltargets f1, f2 ; */
static bool parse_targets(struct ptx_ctx *c, struct ptx_symbol *label, bool calls)
{
	struct ptx_operand buf[PTX_MAX_OPERANDS];
	uint32_t n = 0;
	next(c);
	do {
		if (n && !ptx_expect_punct(c, ','))
			return false;
		if (n == PTX_MAX_OPERANDS) {
			ptx_error_at(c, tok(c)->line, tok(c)->col, "too many targets");
			return false;
		}
		if (!ptx_parse_operand(c, &buf[n], !calls))
			return false;
		const struct ptx_symbol *s = buf[n].sym;
		if (buf[n].kind != PTX_OPND_SYM || !s ||
		    s->kind != (calls ? PTX_SYM_FUNC : PTX_SYM_LABEL)) {
			ptx_error_at(c, tok(c)->line, tok(c)->col, "target list entries must be %s",
			             calls ? "functions" : "labels");
			return false;
		}
		n++;
	} while (is_punct(c, ','));
	struct ptx_stmt *st = &c->stmts[c->nstmts - 1];
	st->kind = PTX_STMT_TARGETS;
	st->extra = calls ? ".calltargets" : ".branchtargets";
	st->opnds = PA_NEW_ARRAY(&c->fn_arena, struct ptx_operand, n);
	memcpy(st->opnds, buf, n * sizeof *buf);
	st->nopnds = n;
	label->kind = PTX_SYM_TARGETS;
	return ptx_expect_punct(c, ';');
}

/* .loc file line col [, function_name label [, inlined_at file line col]] (no ';') */
static bool parse_loc(struct ptx_ctx *c)
{
	uint32_t line = tok(c)->line;
	struct ptx_stmt *st = ptx_add_stmt(c, PTX_STMT_LOC, line);
	next(c);
	uint32_t v[3] = {0};
	for (int i = 0; i < 3; i++)
		if (!ptx_parse_u32(c, &v[i], ".loc operand"))
			return false;
	st->u.loc.file = v[0];
	st->u.loc.line = v[1];
	st->u.loc.col = v[2];
	char text[512];
	size_t n = 0;
	text[0] = 0;
	while (is_punct(c, ',') && tok(c)->line == line) {
		next(c);
		struct ptx_token *t = tok(c);
		if (t->kind != PTX_TOK_IDENT) {
			ptx_error_expected(c, "'function_name' or 'inlined_at'");
			return false;
		}
		bool inl = t->len == 10 && !memcmp(t->text, "inlined_at", 10);
		ptx_append(text, sizeof text, &n, ", ", 2);
		ptx_append(text, sizeof text, &n, t->text, t->len);
		next(c);
		for (int i = 0; i < (inl ? 3 : 1); i++) {
			t = tok(c);
			if (t->kind != (inl ? PTX_TOK_NUMBER : PTX_TOK_IDENT)) {
				ptx_error_expected(c, inl ? "a number" : "a label");
				return false;
			}
			ptx_append(text, sizeof text, &n, " ", 1);
			ptx_append(text, sizeof text, &n, t->text, t->len);
			next(c);
		}
	}
	if (n)
		st->extra = pa_arena_strndup(&c->fn_arena, text, n);
	return true;
}

static bool parse_guard(struct ptx_ctx *c, struct ptx_operand *g)
{
	next(c);
	memset(g, 0, sizeof *g);
	if (is_punct(c, '!')) {
		g->negated = true;
		next(c);
	}
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_IDENT) {
		ptx_error_expected(c, "a predicate register after '@'");
		return false;
	}
	uint32_t index;
	struct ptx_symbol *s = ptx_lookup_tok(c, t, &index);
	if (!s) {
		ptx_error_at(c, t->line, t->col, "undefined identifier '%.*s'", (int)t->len,
		             t->text);
		return false;
	}
	if (s->kind != PTX_SYM_VAR || s->space != PTX_SPACE_REG || s->type != PTX_TYPE_PRED) {
		ptx_error_at(c, t->line, t->col, "guard '%.*s' is not a .pred register",
		             (int)t->len, t->text);
		return false;
	}
	g->kind = PTX_OPND_REG;
	g->sym = s;
	g->index = index;
	g->bits = 1;
	next(c);
	if (tok(c)->kind != PTX_TOK_IDENT) {
		ptx_error_expected(c, "an instruction after the guard predicate");
		return false;
	}
	return true;
}

/* A statement starting with an identifier: a label or an instruction. */
static bool parse_ident_stmt(struct ptx_ctx *c, const struct ptx_operand *guard)
{
	struct ptx_token *t = tok(c);
	size_t len = t->len;
	uint32_t line = t->line, col = t->col;
	memcpy(c->scratch, t->text, len);
	c->scratch[len] = 0;
	next(c);
	if (!guard && is_punct(c, ':')) {
		define_label(c, c->scratch, (uint32_t)len, line, col, PTX_SYM_LABEL);
		next(c);
		struct ptx_symbol *label = c->stmts[c->nstmts - 1].u.sym;
		if (c->stmts[c->nstmts - 1].kind != PTX_STMT_LABEL)
			return true;
		t = tok(c);
		if (t->kind == PTX_TOK_DOTWORD && t->dw == PTX_DW_CALLPROTOTYPE)
			return parse_callprototype(c, label);
		if (t->kind == PTX_TOK_DOTWORD &&
		    (t->dw == PTX_DW_BRANCHTARGETS || t->dw == PTX_DW_CALLTARGETS))
			return parse_targets(c, label, t->dw == PTX_DW_CALLTARGETS);
		return true;
	}
	return ptx_parse_insn(c, len, line, col, guard);
}

static bool parse_body_directive(struct ptx_ctx *c)
{
	struct ptx_token *t = tok(c);
	switch (t->dw) {
	case PTX_DW_REG:
	case PTX_DW_LOCAL:
	case PTX_DW_SHARED:
	case PTX_DW_PARAM:
	case PTX_DW_CONST:
	case PTX_DW_GLOBAL:
		return ptx_parse_var_decl(c, 0);
	case PTX_DW_LOC:
		return parse_loc(c);
	case PTX_DW_PRAGMA: {
		uint32_t line = t->line;
		const char *text = ptx_parse_strings(c, &c->fn_arena);
		if (!text)
			return false;
		ptx_add_stmt(c, PTX_STMT_PRAGMA, line)->u.text = text;
		return true;
	}
	default:
		ptx_error_at(c, t->line, t->col, "unexpected directive '%.*s' in function body",
		             (int)(t->len > 40 ? 40 : t->len), t->text);
		return false;
	}
}

/* The body from '{' to the matching '}'.  Returns when the function ends. */
void ptx_parse_body(struct ptx_ctx *c, struct ptx_symbol *fn)
{
	struct ptx_func_info *f = fn->func;
	ptx_open_scope(c);
	for (uint32_t i = 0; i < f->nrets; i++)
		ptx_declare(c, f->rets[i]);
	for (uint32_t i = 0; i < f->nparams; i++)
		ptx_declare(c, f->params[i]);
	uint32_t base = c->scope_depth;
	next(c);
	bool closed = false;
	while (!c->stop) {
		struct ptx_token *t = tok(c);
		bool ok = true;
		if (c->nstmts >= PTX_MAX_STMTS) {
			/* bounds the function arena: skip the rest of the body */
			ptx_error_at(c, t->line, t->col,
			             "function '%s' has more than %d statements", fn->name,
			             (int)PTX_MAX_STMTS);
			for (uint64_t depth = c->scope_depth - base + 1;
			     depth && tok(c)->kind != PTX_TOK_EOF; next(c)) {
				if (is_punct(c, '{'))
					depth++;
				else if (is_punct(c, '}'))
					depth--;
			}
			closed = true;
			break;
		}
		if (t->kind == PTX_TOK_EOF) {
			ptx_error_at(c, t->line, t->col,
			             "unexpected end of file in the body of '%s' (missing '}')",
			             fn->name);
			break;
		} else if (is_punct(c, '{')) {
			if (c->scope_depth - base + 1 >= PTX_MAX_DEPTH) {
				ptx_error_at(c, t->line, t->col, "blocks nested deeper than %d",
				             (int)PTX_MAX_DEPTH);
				ptx_skip_block(c);
				continue;
			}
			ptx_add_stmt(c, PTX_STMT_OPEN, t->line);
			ptx_open_scope(c);
			next(c);
		} else if (is_punct(c, '}')) {
			if (c->scope_depth == base)
				break;
			ptx_close_scope(c);
			ptx_add_stmt(c, PTX_STMT_CLOSE, t->line);
			next(c);
		} else if (is_punct(c, ';')) {
			next(c);
		} else if (is_punct(c, '@')) {
			struct ptx_operand guard;
			ok = parse_guard(c, &guard) && parse_ident_stmt(c, &guard);
		} else if (t->kind == PTX_TOK_IDENT) {
			ok = parse_ident_stmt(c, NULL);
		} else if (t->kind == PTX_TOK_DOTWORD) {
			ok = parse_body_directive(c);
		} else {
			ptx_error_expected(c, "an instruction, label or directive");
			ok = false;
		}
		if (!ok) {
			if (is_punct(c, '}'))
				continue;
			if (tok(c)->kind != PTX_TOK_EOF)
				ptx_recover_stmt(c);
		}
	}
	while (c->scope_depth >= base)
		ptx_close_scope(c);
	if (!closed && is_punct(c, '}'))
		next(c);
}

void ptx_finish_labels(struct ptx_ctx *c, bool has_body)
{
	struct ptx_symbol *labels = take_labels(c);
	if (has_body)
		check_labels(c, labels);
}
