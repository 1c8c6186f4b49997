/* PTX instructions: opcode matching, operands, and the per-instruction checks.
 *
 * The opcode word and the dotted words glued to it are matched against the table
 * (ptx_ops.def) taking the longest row name ("cp.async.wait_group"); the remaining
 * dotted words are modifiers, validated by class against the row: unknown or
 * misplaced modifiers, two of an exclusive class, type counts, features newer than
 * the module's .version/.target.  Operands are parsed without recursion (vectors,
 * call lists and brackets hold only simple operands) and checked against the row's
 * operand signature: count, kind (destination, address, label, predicate) and
 * register types by PTX's type-compatibility rules.
 * requires: parse.c symbol lookup.  Complexity: O(operands + modifiers). */
#include "ptx_int.h"

#include <string.h>

/* Number token (after an optional '-' already consumed when `neg`). */
static bool parse_imm(struct ptx_ctx *c, struct ptx_operand *o, bool neg)
{
	struct ptx_token *t = tok(c);
	struct ptx_number n;
	const char *err = ptx_parse_number(t->text, t->len, &n);
	if (err) {
		ptx_error_at(c, t->line, t->col, "%s", err);
		return false;
	}
	o->kind = n.kind;
	o->value = n.value;
	o->is_unsigned = n.is_unsigned;
	if (neg) {
		if (n.kind == PTX_OPND_F32)
			o->value ^= 0x80000000u;
		else if (n.kind == PTX_OPND_F64)
			o->value ^= 1ull << 63;
		else if (n.value > (1ull << 63)) {
			ptx_error_at(c, t->line, t->col, "integer literal out of range");
			return false;
		} else {
			o->value = 0 - n.value;
			o->is_unsigned = false;
		}
	}
	ptx_lex_next(&c->lx);
	return true;
}

/* Constant expressions: shunting-yard over an explicit stack (no recursion), C
 * precedence, 64-bit integer arithmetic, unsigned when any operand is unsigned. */
enum { EXPR_STACK = 128 };

struct expr_val {
	uint8_t kind;
	bool is_unsigned;
	uint64_t v;
};

static int binop_prec(int op)
{
	switch (op) {
	case '*':
	case '/':
	case '%':
		return 10;
	case '+':
	case '-':
		return 9;
	case 'L': /* << */
	case 'R': /* >> */
		return 8;
	case '<':
	case '>':
	case 'l': /* <= */
	case 'g': /* >= */
		return 7;
	case 'E': /* == */
	case 'N': /* != */
		return 6;
	case '&':
		return 5;
	case '^':
		return 4;
	case '|':
		return 3;
	case 'A': /* && */
		return 2;
	case 'O': /* || */
		return 1;
	default:
		return 0;
	}
}

/* Reads a binary operator at the current token (two-character ones glued). */
static int read_binop(struct ptx_ctx *c)
{
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_PUNCT)
		return 0;
	char p = t->punct, q = t->text[1];
	if ((p == '<' && q == '<') || (p == '>' && q == '>'))
		return p == '<' ? 'L' : 'R';
	if ((p == '<' || p == '>' || p == '=' || p == '!') && q == '=')
		return p == '<' ? 'l' : p == '>' ? 'g' : p == '=' ? 'E' : 'N';
	if ((p == '&' && q == '&') || (p == '|' && q == '|'))
		return p == '&' ? 'A' : 'O';
	return binop_prec(p) ? p : 0;
}

static void consume_binop(struct ptx_ctx *c, int op)
{
	ptx_lex_next(&c->lx);
	if (strchr("LRlgENAO", op))
		ptx_lex_next(&c->lx);
}

static const char *apply(int op, struct expr_val *a, const struct expr_val *b)
{
	if (a->kind != PTX_OPND_INT || (b && b->kind != PTX_OPND_INT)) {
		if (op == 'n' && a->kind != PTX_OPND_INT) {
			a->v ^= a->kind == PTX_OPND_F32 ? 0x80000000u : 1ull << 63;
			return NULL;
		}
		return "floating-point constant expressions are not supported";
	}
	uint64_t x = a->v, y = b ? b->v : 0;
	bool u = a->is_unsigned || (b && b->is_unsigned);
	int64_t sx = (int64_t)x, sy = (int64_t)y;
	switch (op) {
	case 'n':
		x = 0 - x;
		break;
	case '~':
		x = ~x;
		break;
	case '!':
		x = !x;
		u = false;
		break;
	case 'p':
		break;
	case '*':
		x *= y;
		break;
	case '/':
	case '%':
		if (!y)
			return "division by zero in constant expression";
		if (!u && sy == -1)
			x = op == '/' ? 0 - x : 0;
		else if (u)
			x = op == '/' ? x / y : x % y;
		else
			x = (uint64_t)(op == '/' ? sx / sy : sx % sy);
		break;
	case '+':
		x += y;
		break;
	case '-':
		x -= y;
		break;
	case 'L':
	case 'R':
		if (y > 63)
			return "shift count out of range in constant expression";
		x = op == 'L' ? x << y : u ? x >> y : (uint64_t)(sx >> y);
		break;
	case '<':
		x = u ? x < y : sx < sy;
		u = false;
		break;
	case '>':
		x = u ? x > y : sx > sy;
		u = false;
		break;
	case 'l':
		x = u ? x <= y : sx <= sy;
		u = false;
		break;
	case 'g':
		x = u ? x >= y : sx >= sy;
		u = false;
		break;
	case 'E':
		x = x == y;
		u = false;
		break;
	case 'N':
		x = x != y;
		u = false;
		break;
	case '&':
		x &= y;
		break;
	case '^':
		x ^= y;
		break;
	case '|':
		x |= y;
		break;
	case 'A':
		x = x && y;
		u = false;
		break;
	case 'O':
		x = x || y;
		u = false;
		break;
	default:
		break;
	}
	a->v = x;
	a->is_unsigned = u;
	return NULL;
}

/* Pops one operator and applies it to the value stack. */
static const char *reduce(int *ops, unsigned *nops, struct expr_val *vals, unsigned *nvals)
{
	int op = ops[--*nops];
	bool unary = op == 'n' || op == '~' || op == '!' || op == 'p';
	if (*nvals < (unary ? 1u : 2u))
		return "malformed constant expression";
	if (unary)
		return apply(op, &vals[*nvals - 1], NULL);
	--*nvals;
	return apply(op, &vals[*nvals - 1], &vals[*nvals]);
}

static bool parse_binary_expr(struct ptx_ctx *c, struct ptx_operand *o)
{
	int ops[EXPR_STACK];
	struct expr_val vals[EXPR_STACK];
	unsigned nops = 0, nvals = 0, open = 0;
	const char *err = NULL;
	uint32_t line = tok(c)->line, col = tok(c)->col;
	for (;;) {
		/* operand position */
		struct ptx_token *t = tok(c);
		if (nops >= EXPR_STACK - 1 || nvals >= EXPR_STACK - 1) {
			err = "constant expression too complex";
			break;
		}
		if (t->kind == PTX_TOK_NUMBER) {
			struct ptx_number n;
			if ((err = ptx_parse_number(t->text, t->len, &n)))
				break;
			vals[nvals++] = (struct expr_val){n.kind, n.is_unsigned, n.value};
			ptx_lex_next(&c->lx);
		} else if (t->kind == PTX_TOK_PUNCT && strchr("(-~!+", t->punct)) {
			ops[nops++] = t->punct == '-' ? 'n' : t->punct == '+' ? 'p' : t->punct;
			open += t->punct == '(';
			ptx_lex_next(&c->lx);
			continue;
		} else {
			ptx_error_expected(c, "a constant");
			return false;
		}
		/* operator position */
		for (;;) {
			while (nops && ops[nops - 1] != '(' && binop_prec(ops[nops - 1]) == 0 &&
			       !err)
				err = reduce(ops, &nops, vals,
				             &nvals); /* unary operators bind tightest */
			if (err || !(open && is_punct(c, ')')))
				break;
			while (nops && ops[nops - 1] != '(' && !err)
				err = reduce(ops, &nops, vals, &nvals);
			nops--;
			open--;
			ptx_lex_next(&c->lx);
		}
		if (err)
			break;
		int op = read_binop(c);
		if (!op)
			break;
		while (nops && ops[nops - 1] != '(' &&
		       binop_prec(ops[nops - 1]) >= binop_prec(op) && !err)
			err = reduce(ops, &nops, vals, &nvals);
		if (err)
			break;
		ops[nops++] = op;
		consume_binop(c, op);
	}
	while (!err && nops) {
		if (ops[nops - 1] == '(') {
			ptx_error_expected(c, "')'");
			return false;
		}
		err = reduce(ops, &nops, vals, &nvals);
	}
	if (!err && nvals != 1)
		err = "malformed constant expression";
	if (err) {
		ptx_error_at(c, line, col, "%s", err);
		return false;
	}
	o->kind = vals[0].kind;
	o->value = vals[0].v;
	o->is_unsigned = vals[0].is_unsigned;
	return true;
}

/* A constant expression with C's `cond ? a : b` (right-associative, lowest precedence):
 * a chain `c1 ? a : c2 ? b : d` is read in one loop, without recursion; a conditional
 * inside another's middle operand or inside parentheses is not supported. */
static bool parse_expr(struct ptx_ctx *c, struct ptx_operand *o)
{
	struct ptx_operand cur = {0}, chosen = {0};
	bool decided = false;
	if (!parse_binary_expr(c, &cur))
		return false;
	while (is_punct(c, '?')) {
		struct ptx_operand cond = cur, then = {0};
		ptx_lex_next(&c->lx);
		if (!parse_binary_expr(c, &then))
			return false;
		if (!ptx_expect_punct(c, ':'))
			return false;
		if (!parse_binary_expr(c, &cur))
			return false;
		if (then.kind != PTX_OPND_INT || cur.kind != PTX_OPND_INT) {
			ptx_error_at(c, tok(c)->line, tok(c)->col,
			             "the values of '?:' must be integers");
			return false;
		}
		if (!decided && cond.kind == PTX_OPND_INT && cond.value) {
			chosen = then;
			decided = true;
		} else if (cond.kind != PTX_OPND_INT) {
			ptx_error_at(c, tok(c)->line, tok(c)->col,
			             "the condition of '?:' must be an integer");
			return false;
		}
	}
	*o = decided ? chosen : cur;
	return true;
}

/* Byte and half-word selectors of video instruction operands: .b0-.b3, .h0, .h1. */
static int video_selector(const struct ptx_token *t)
{
	if (t->len != 3 || (t->text[1] != 'b' && t->text[1] != 'h'))
		return 0;
	int n = t->text[2] - '0';
	if (t->text[1] == 'b')
		return n >= 0 && n <= 3 ? 1 + n : 0;
	return n == 0 || n == 1 ? 5 + n : 0;
}

static int component(const struct ptx_token *t)
{
	if (t->len != 2)
		return 0;
	switch (t->text[1]) {
	case 'x':
	case 'r':
		return 1;
	case 'y':
	case 'g':
		return 2;
	case 'z':
	case 'b':
		return 3;
	case 'w':
	case 'a':
		return 4;
	default:
		return 0;
	}
}

/* `+ CONST` after a register source or a variable: an integer constant expression
 * added to o->value (the current token is the '+', or the '-' that negates it). */
static bool parse_added_constant(struct ptx_ctx *c, struct ptx_operand *o)
{
	bool neg = is_punct(c, '-');
	ptx_lex_next(&c->lx);
	uint32_t line = tok(c)->line, col = tok(c)->col;
	struct ptx_operand off = {0};
	struct ptx_token *t = tok(c);
	if (t->kind != PTX_TOK_NUMBER && !(t->kind == PTX_TOK_PUNCT && strchr("(-~+!", t->punct))) {
		ptx_error_expected(c, "an integer offset");
		return false;
	}
	if (!parse_expr(c, &off))
		return false;
	if (off.kind != PTX_OPND_INT) {
		ptx_error_at(c, line, col, "an added offset must be an integer");
		return false;
	}
	o->value += neg ? 0 - off.value : off.value;
	return true;
}

/* Special registers newer than the module's .version/.target are errors. */
static bool check_sreg(struct ptx_ctx *c, const struct ptx_symbol *s, const struct ptx_token *t)
{
	const struct ptx_sreg_info *r = &ptx_sregs[s->sreg]; /* (declare_sregs) */
	if (r->ver && c->mod.version && r->ver > c->mod.version) {
		ptx_error_at(c, t->line, t->col,
		             "special register '%s' requires PTX ISA %u.%u or later "
		             "(module declares .version %u.%u)",
		             s->name, r->ver / 10, r->ver % 10, c->mod.version / 10,
		             c->mod.version % 10);
		return false;
	}
	if (r->sm && c->mod.sm && r->sm > c->mod.sm) {
		ptx_error_at(c, t->line, t->col,
		             "special register '%s' requires sm_%u or later (module targets sm_%u)",
		             s->name, r->sm, c->mod.sm);
		return false;
	}
	return true;
}

/* Identifier operand: register, special register, variable, function or label. */
static bool parse_name(struct ptx_ctx *c, struct ptx_operand *o, bool allow_fwd)
{
	struct ptx_token *t = tok(c);
	if (t->len == 1 && t->text[0] == '_') {
		o->kind = PTX_OPND_SINK;
		ptx_lex_next(&c->lx);
		return true;
	}
	if (t->len == 7 && !memcmp(t->text, "WARP_SZ", 7)) {
		o->kind = PTX_OPND_WARPSZ;
		ptx_lex_next(&c->lx);
		return true;
	}
	uint32_t index = 0;
	struct ptx_name n = t->name;
	/* branch targets are labels: look there first */
	struct ptx_symbol *s =
	        allow_fwd ? ptx_symtab_find(&c->labels, t->text, t->len, n.hash) : NULL;
	if (!s)
		s = ptx_lookup(c, &n, &index);
	if (!s && !allow_fwd)
		s = ptx_symtab_find(&c->labels, t->text, t->len, n.hash);
	if (!s && allow_fwd && t->text[0] != '%')
		s = ptx_label_ref(c, t->text, t->len, t->line, t->col);
	if (!s) {
		ptx_error_at(c, t->line, t->col, "undefined identifier '%.*s'",
		             (int)(t->len > 200 ? 200 : t->len), t->text);
		return false;
	}
	o->sym = s;
	o->index = index;
	if (s->kind == PTX_SYM_SREG && !check_sreg(c, s, t))
		return false;
	if (s->kind == PTX_SYM_SREG)
		o->kind = PTX_OPND_SREG;
	else if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_REG)
		o->kind = PTX_OPND_REG;
	else
		o->kind = PTX_OPND_SYM;
	uint32_t line = t->line, col = t->col;
	ptx_lex_next(&c->lx);
	t = tok(c);
	int sel = t->kind == PTX_TOK_DOTWORD && t->glued ? video_selector(t) : 0;
	if (sel && o->kind == PTX_OPND_REG && s->vec == 1) {
		o->video_sel = (uint8_t)sel; /* checked against the instruction in check.c */
		ptx_lex_next(&c->lx);
	} else if (t->kind == PTX_TOK_DOTWORD && t->glued) {
		int comp = component(t);
		if (!comp || o->kind == PTX_OPND_SYM || s->vec < 2 || comp > s->vec) {
			ptx_error_at(c, t->line, t->col, "'%s' has no component '%.*s'", s->name,
			             (int)(t->len > 40 ? 40 : t->len), t->text);
			return false;
		}
		o->comp = (uint8_t)comp;
		ptx_lex_next(&c->lx);
	} else if (s->kind == PTX_SYM_SREG && s->vec > 1) {
		ptx_error_at(c, line, col, "special register '%s' needs a component (.x, .y, .z)",
		             s->name);
		return false;
	}
	if (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_SREG)
		o->bits = (uint16_t)(ptx_types[s->type].bits * (o->comp ? 1 : s->vec));
	if (o->kind == PTX_OPND_SYM && is_punct(c, '+'))
		return parse_added_constant(c, o);
	return true;
}

/* A simple operand: [!]name[.comp], [-]number, `_`, WARP_SZ. */
static bool parse_simple(struct ptx_ctx *c, struct ptx_operand *o, bool allow_fwd)
{
	memset(o, 0, sizeof *o);
	struct ptx_token *t = tok(c);
	if (is_punct(c, '!')) {
		o->negated = true;
		ptx_lex_next(&c->lx);
		if (tok(c)->kind == PTX_TOK_NUMBER) /* `!1`: a negated constant predicate */
			return parse_imm(c, o, false);
		if (tok(c)->kind != PTX_TOK_IDENT) {
			ptx_error_expected(c, "a predicate after '!'");
			return false;
		}
		return parse_name(c, o, false);
	}
	if (t->kind == PTX_TOK_NUMBER || (t->kind == PTX_TOK_PUNCT && strchr("-~+", t->punct)) ||
	    (is_punct(c, '(') && !c->paren_is_list))
		return parse_expr(c, o);
	if (t->kind == PTX_TOK_IDENT)
		return parse_name(c, o, allow_fwd);
	ptx_error_expected(c, "an operand");
	return false;
}

/* Elements up to `close`, separated by commas; vectors allowed inside brackets. */
static bool parse_elems(struct ptx_ctx *c, struct ptx_operand *o, char close, bool allow_vec)
{
	if (!c->listbuf) /* on first use: most modules have no call with arguments */
		c->listbuf = pa_xmalloc(PTX_MAX_LIST * sizeof *c->listbuf);
	struct ptx_operand *buf = c->listbuf;
	uint32_t n = 0;
	ptx_lex_next(&c->lx);
	while (!is_punct(c, close)) {
		if (n && !is_punct(c, ',')) {
			char what[8] = {'\'', ',', '\'', 0};
			ptx_error_expected(c, what);
			return false;
		}
		if (n)
			ptx_lex_next(&c->lx);
		if (n == PTX_MAX_LIST) {
			ptx_error_at(c, tok(c)->line, tok(c)->col, "operand list too long");
			return false;
		}
		if (allow_vec && is_punct(c, '{')) {
			struct ptx_operand vec[32];
			uint32_t nv = 0;
			ptx_lex_next(&c->lx);
			while (!is_punct(c, '}')) {
				if (nv && !is_punct(c, ',')) {
					ptx_error_expected(c, "',' or '}'");
					return false;
				}
				if (nv)
					ptx_lex_next(&c->lx);
				if (nv == 32) {
					ptx_error_at(c, tok(c)->line, tok(c)->col,
					             "vector too long");
					return false;
				}
				if (!parse_simple(c, &vec[nv++], false))
					return false;
			}
			ptx_lex_next(&c->lx);
			memset(&buf[n], 0, sizeof buf[n]);
			buf[n].kind = PTX_OPND_VEC;
			buf[n].nelems = nv;
			buf[n].elems = PA_NEW_ARRAY(&c->fn_arena, struct ptx_operand, nv ? nv : 1);
			memcpy(buf[n].elems, vec, nv * sizeof *vec);
			n++;
			continue;
		}
		if (!parse_simple(c, &buf[n++], false))
			return false;
	}
	ptx_lex_next(&c->lx);
	o->nelems = n;
	o->elems = PA_NEW_ARRAY(&c->fn_arena, struct ptx_operand, n ? n : 1);
	memcpy(o->elems, buf, n * sizeof *buf);
	return true;
}

/* [base], [base+off], [base+-off], [imm], or a bracket list [a, {b, c}]. */
static bool parse_address(struct ptx_ctx *c, struct ptx_operand *o)
{
	ptx_lex_next(&c->lx);
	struct ptx_operand base = {0};
	uint32_t base_line = tok(c)->line, base_col = tok(c)->col;
	if (tok(c)->kind == PTX_TOK_NUMBER) {
		if (!parse_imm(c, &base, false))
			return false;
		if (base.kind != PTX_OPND_INT) {
			ptx_error_at(c, tok(c)->line, tok(c)->col, "address must be an integer");
			return false;
		}
		base.kind = PTX_OPND_ADDR;
	} else if (!parse_simple(c, &base, false)) {
		return false;
	} else if ((base.kind != PTX_OPND_REG && base.kind != PTX_OPND_SYM) || base.negated) {
		ptx_error_at(c, base_line, base_col,
		             "address base must be a register or a variable");
		return false;
	}
	if (is_punct(c, ',')) {
		/* texture/surface form: rewind into a bracket list */
		struct ptx_operand first = base;
		struct ptx_operand rest;
		if (!parse_elems(c, &rest, ']', true))
			return false;
		o->kind = PTX_OPND_BRACKET;
		o->nelems = rest.nelems + 1;
		o->elems = PA_NEW_ARRAY(&c->fn_arena, struct ptx_operand, o->nelems);
		o->elems[0] = first;
		memcpy(o->elems + 1, rest.elems, rest.nelems * sizeof *rest.elems);
		return true;
	}
	*o = base;
	if (o->kind == PTX_OPND_ADDR)
		o->sym = NULL;
	o->kind = PTX_OPND_ADDR;
	if ((is_punct(c, '+') || is_punct(c, '-')) && !parse_added_constant(c, o))
		return false;
	if (!is_punct(c, ']')) {
		ptx_error_expected(c, "']'");
		return false;
	}
	ptx_lex_next(&c->lx);
	return true;
}

bool ptx_parse_operand(struct ptx_ctx *c, struct ptx_operand *o, bool allow_fwd)
{
	memset(o, 0, sizeof *o);
	if (is_punct(c, '{')) {
		o->kind = PTX_OPND_VEC;
		return parse_elems(c, o, '}', false);
	}
	if (is_punct(c, '(') && c->paren_is_list) {
		o->kind = PTX_OPND_LIST;
		return parse_elems(c, o, ')', false);
	}
	if (is_punct(c, '['))
		return parse_address(c, o);
	if (!parse_simple(c, o, allow_fwd))
		return false;
	if (is_punct(c, '+') && o->kind == PTX_OPND_REG && !o->negated && !o->comp)
		return parse_added_constant(c, o);
	if (is_punct(c, '|') && (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_SINK)) {
		ptx_lex_next(&c->lx);
		o->pair = PA_NEW(&c->fn_arena, struct ptx_operand);
		return parse_simple(c, o->pair, false);
	}
	return true;
}

/* Longest table row made of the opcode word and the first dotted words. */
static int match_opcode(struct ptx_ctx *c, size_t len, const uint16_t *mods, uint32_t nmods,
                        uint32_t *consumed)
{
	const struct ptx_kw_entry *e = ptx_kw_find(&ptx_op_table, c->scratch, (uint32_t)len);
	if (!e)
		return -1;
	int op = e->id == UINT16_MAX ? -1 : e->id;
	*consumed = 0;
	for (uint32_t k = 0; k < nmods && e->has_longer; k++) {
		const char *w = ptx_dotwords[mods[k]].text;
		size_t wl = strlen(w);
		if (len + wl >= sizeof c->scratch)
			break;
		memcpy(c->scratch + len, w, wl + 1);
		len += wl;
		e = ptx_kw_find(&ptx_op_table, c->scratch, (uint32_t)len);
		if (!e)
			break;
		if (e->id != UINT16_MAX) {
			op = e->id;
			*consumed = k + 1;
		}
	}
	return op;
}

bool ptx_parse_insn(struct ptx_ctx *c, size_t len, uint32_t line, uint32_t col,
                    const struct ptx_operand *guard)
{
	uint16_t mods[PTX_MAX_MODS];
	uint32_t mod_cols[PTX_MAX_MODS], nmods = 0;
	bool bad = false;
	for (struct ptx_token *t = tok(c); t->kind == PTX_TOK_DOTWORD && t->glued; t = tok(c)) {
		if (nmods == PTX_MAX_MODS) {
			ptx_error_at(c, t->line, t->col, "more than %d modifiers",
			             (int)PTX_MAX_MODS);
			return false;
		}
		if (t->dw == PTX_NDOTWORDS) {
			/* an unknown mnemonic is named as such, not by its first modifier */
			if (!bad && !ptx_kw_find(&ptx_op_table, c->scratch, (uint32_t)len)) {
				ptx_error_at(c, line, col, "unknown instruction '%.*s'",
				             (int)(len > 40 ? 40 : len), c->scratch);
				return false;
			}
			ptx_error_at(c, t->line, t->col, "unknown modifier '%.*s'",
			             (int)(t->len > 40 ? 40 : t->len), t->text);
			bad = true;
		}
		mod_cols[nmods] = t->col;
		mods[nmods++] = t->dw;
		ptx_lex_next(&c->lx);
	}
	if (bad)
		return false;
	uint32_t consumed = 0;
	int op = match_opcode(c, len, mods, nmods, &consumed);
	if (op < 0) {
		ptx_error_at(c, line, col, "unknown instruction '%.*s'", (int)(len > 40 ? 40 : len),
		             c->scratch);
		return false;
	}
	bool fwd = ptx_ops[op].flags & PTX_OF_BRANCH;
	c->paren_is_list = ptx_ops[op].flags & PTX_OF_CALL;
	struct ptx_operand opnds[PTX_MAX_OPERANDS];
	uint32_t ocols[PTX_MAX_OPERANDS], olines[PTX_MAX_OPERANDS], nopnds = 0;
	if (!is_punct(c, ';')) {
		for (;;) {
			if (nopnds == PTX_MAX_OPERANDS) {
				ptx_error_at(c, tok(c)->line, tok(c)->col, "too many operands");
				return false;
			}
			olines[nopnds] = tok(c)->line;
			ocols[nopnds] = tok(c)->col;
			if (!ptx_parse_operand(c, &opnds[nopnds], fwd))
				return false;
			nopnds++;
			if (!is_punct(c, ','))
				break;
			ptx_lex_next(&c->lx);
		}
	}
	if (!is_punct(c, ';')) {
		ptx_error_expected(c, "',' or ';' after operand");
		return false;
	}
	/* one block for the instruction, its operands, its guard and its modifiers (three
	 * allocations an instruction before; the counts are bounded by PTX_MAX_*) */
	uint32_t nkept = nmods - consumed, nblock = nopnds + (guard != NULL);
	_Static_assert(sizeof(struct ptx_insn) % _Alignof(struct ptx_operand) == 0,
	               "operands follow the instruction");
	char *block = pa_arena_alloc(&c->fn_arena,
	                             sizeof(struct ptx_insn) + nblock * sizeof(struct ptx_operand) +
	                                     nkept * sizeof(uint16_t),
	                             _Alignof(struct ptx_insn));
	struct ptx_insn *in = (struct ptx_insn *)block;
	struct ptx_operand *tail = (struct ptx_operand *)(block + sizeof *in);
	in->op = (uint16_t)op;
	in->nmods = (uint8_t)nkept;
	if (in->nmods) {
		in->mods = (uint16_t *)(tail + nblock);
		memcpy(in->mods, mods + consumed, in->nmods * sizeof *mods);
	}
	in->nopnds = (uint8_t)nopnds;
	if (nopnds) {
		in->opnds = tail;
		memcpy(in->opnds, opnds, nopnds * sizeof *opnds);
	}
	if (guard) {
		in->has_guard = true;
		in->guard = tail + nopnds;
		*in->guard = *guard;
	}
	struct ptx_insn_locs locs = {.line = line,
	                             .col = col,
	                             .mod_cols = mod_cols + consumed,
	                             .opnd_lines = olines,
	                             .opnd_cols = ocols};
	ptx_check_insn(c, in, &locs);
	ptx_lex_next(&c->lx); /* the ';' (after the checks, so their excerpt is this line) */
	struct ptx_stmt *st = ptx_add_stmt(c, PTX_STMT_INSN, line);
	st->u.insn = in;
	st->col = col;
	return true;
}
