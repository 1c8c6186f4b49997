/* PTX lexer: streams the input through a fixed window and cuts it into tokens.
 *
 * The window (PTX_BUF_SIZE bytes; PTX_BUF_FIRST until the input turns out to be longer, so
 * that a small file is read into heap memory without a mapping of its own) is refilled
 * from the FILE* when fewer than
 * PTX_MAX_TOKEN bytes are left, so any token up to that length is contiguous; the
 * current line is kept for diagnostics while it is shorter than PTX_LINE_KEEP.  A
 * token's text stays valid until the next ptx_lex_next().  Scanning is plain loops
 * over characters with a NUL sentinel at the window end; dotted words are looked up
 * in the keyword hash as they are lexed.  Also decodes numeric literals
 * (ptx_parse_number).  Complexity: O(input) time, O(PTX_BUF_SIZE) memory. */
#include "ptx_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Character classes, one table lookup per character in the scanning loops. */
enum {
	CC_ALPHA = 1,  /* A-Z a-z */
	CC_DIGIT = 2,  /* 0-9 */
	CC_IDCONT = 4, /* letters, digits, '_' and '$' */
	CC_PUNCT = 8,  /* characters that are tokens on their own */
	CC_BLANK = 16, /* blanks other than newline */
	CC_HEX = 32,   /* 0-9 A-F a-f */
};

#define CC_RANGE(lo, hi, v)                                                                        \
	[lo] = v, [lo + 1] = v, [lo + 2] = v, [lo + 3] = v, [lo + 4] = v, [lo + 5] = v,            \
	[lo + 6] = v, [lo + 7] = v, [lo + 8] = v, [lo + 9] = v
#define CC_LETTERS(base, hexv, v)                                                                  \
	[base] = hexv, [base + 1] = hexv, [base + 2] = hexv, [base + 3] = hexv, [base + 4] = hexv, \
	[base + 5] = hexv, CC_RANGE(base + 6, base + 15, v), CC_RANGE(base + 16, base + 25, v)

static const uint8_t char_class[256] = {
        CC_RANGE('0', '9', CC_DIGIT | CC_IDCONT | CC_HEX),
        CC_LETTERS('A', CC_ALPHA | CC_IDCONT | CC_HEX, CC_ALPHA | CC_IDCONT),
        CC_LETTERS('a', CC_ALPHA | CC_IDCONT | CC_HEX, CC_ALPHA | CC_IDCONT),
        ['_'] = CC_IDCONT,
        ['$'] = CC_IDCONT,
        [' '] = CC_BLANK,
        ['\t'] = CC_BLANK,
        ['\r'] = CC_BLANK,
        ['\f'] = CC_BLANK,
        ['\v'] = CC_BLANK,
        ['{'] = CC_PUNCT,
        ['}'] = CC_PUNCT,
        ['('] = CC_PUNCT,
        [')'] = CC_PUNCT,
        ['['] = CC_PUNCT,
        [']'] = CC_PUNCT,
        ['<'] = CC_PUNCT,
        ['>'] = CC_PUNCT,
        [','] = CC_PUNCT,
        [';'] = CC_PUNCT,
        [':'] = CC_PUNCT,
        ['+'] = CC_PUNCT,
        ['-'] = CC_PUNCT,
        ['@'] = CC_PUNCT,
        ['!'] = CC_PUNCT,
        ['|'] = CC_PUNCT,
        ['='] = CC_PUNCT,
        ['*'] = CC_PUNCT,
        ['/'] = CC_PUNCT,
        ['~'] = CC_PUNCT,
        ['&'] = CC_PUNCT,
        ['^'] = CC_PUNCT,
        ['?'] = CC_PUNCT,
        ['%'] = CC_PUNCT,
};

static inline bool is_alpha(unsigned char c)
{
	return char_class[c] & CC_ALPHA;
}

static inline bool is_digit(unsigned char c)
{
	return char_class[c] & CC_DIGIT;
}

static inline bool is_idcont(unsigned char c)
{
	return char_class[c] & CC_IDCONT;
}

static inline bool is_hex(unsigned char c)
{
	return char_class[c] & CC_HEX;
}

void ptx_lex_init(struct ptx_lexer *lx, FILE *in, struct ptx_ctx *ctx)
{
	memset(lx, 0, sizeof *lx);
	lx->in = in;
	lx->ctx = ctx;
	lx->cap = PTX_BUF_FIRST;
	lx->buf = pa_xmalloc(lx->cap + 1);
	lx->pos = lx->end = lx->line_start = lx->buf;
	lx->buf[0] = 0;
	lx->line = 1;
}

void ptx_lex_free(struct ptx_lexer *lx)
{
	free(lx->buf);
	lx->buf = NULL;
}

/* Reads input after the first `keep_len` bytes of the window, up to its end (at least one
 * read unless at the end); returns the new length. */
static size_t fill(struct ptx_lexer *lx, size_t keep_len)
{
	while (!lx->eof && keep_len < lx->cap) {
		size_t want = lx->cap - keep_len;
		size_t n = fread(lx->buf + keep_len, 1, want, lx->in);
		if (n < want) /* only at the end (or an error): no read(2) to learn it again */
			lx->eof = true;
		keep_len += n;
		lx->end = lx->buf + keep_len;
		if (n)
			break;
	}
	return keep_len;
}

/* The first window was full and the input goes on: the window becomes PTX_BUF_SIZE bytes
 * (before any token was lexed, so no token's text points into the old one). */
static void grow_window(struct ptx_lexer *lx)
{
	char *old = lx->buf;
	lx->buf = pa_xrealloc(old, PTX_BUF_SIZE + 1);
	lx->cap = PTX_BUF_SIZE;
	lx->pos = lx->buf + (lx->pos - old);
	lx->end = lx->buf + (lx->end - old);
	lx->line_start = lx->buf + (lx->line_start - old);
	if (lx->prev_start)
		lx->prev_start = lx->buf + (lx->prev_start - old);
}

/* Moves the live part of the window to its start and reads more input. */
static void refill(struct ptx_lexer *lx)
{
	if (lx->eof)
		return;
	if (lx->pos - lx->line_start > PTX_LINE_KEEP) {
		lx->line_dropped += (uint64_t)(lx->pos - lx->line_start);
		lx->line_start = lx->pos;
		lx->prev_start = NULL;
	}
	if (lx->prev_start && lx->pos - lx->prev_start > PTX_LINE_KEEP)
		lx->prev_start = NULL;
	const char *keep = lx->prev_start ? lx->prev_start : lx->line_start;
	size_t keep_len = (size_t)(lx->end - keep);
	memmove(lx->buf, keep, keep_len);
	lx->pos = lx->buf + (lx->pos - keep);
	lx->line_start = lx->buf + (lx->line_start - keep);
	if (lx->prev_start)
		lx->prev_start = lx->buf;
	lx->end = lx->buf + keep_len;
	keep_len = fill(lx, keep_len);
	if (!lx->eof && lx->cap < PTX_BUF_SIZE) {
		grow_window(lx);
		keep_len = fill(lx, keep_len);
	}
	lx->buf[keep_len] = 0;
}

static uint32_t col_of(const struct ptx_lexer *lx, const char *p)
{
	uint64_t col = lx->line_dropped + (uint64_t)(p - lx->line_start) + 1;
	return col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
}

bool ptx_lex_line_text(const struct ptx_lexer *lx, uint32_t line, const char **text, size_t *len)
{
	const char *start;
	if (line == lx->line && !lx->line_dropped)
		start = lx->line_start;
	else if (line + 1 == lx->line && lx->prev_start)
		start = lx->prev_start;
	else
		return false;
	const char *e = start;
	while (e < lx->end && *e != '\n')
		e++;
	if (e > start && e[-1] == '\r')
		e--;
	*text = start;
	*len = (size_t)(e - start);
	return true;
}

static void newline(struct ptx_lexer *lx, const char *after)
{
	lx->prev_start = lx->line_dropped ? NULL : lx->line_start;
	lx->line++;
	lx->line_start = after;
	lx->line_dropped = 0;
}

/* Reports a block comment still open at the end of input; `start` is where it began
 * when that is still in the window (for the source excerpt). */
static void unterminated_comment(struct ptx_lexer *lx, uint32_t line, uint32_t col,
                                 const char *start)
{
	const char *text = NULL;
	size_t len = 0;
	if (start && col <= (uint32_t)(start - lx->buf) + 1) {
		text = start - (col - 1);
		while (text + len < lx->end && text[len] != '\n')
			len++;
	}
	ptx_error_with_text(lx->ctx, line, col, text, len, "unterminated /* comment");
}

/* Skips blanks and comments; returns with at least PTX_MAX_TOKEN bytes (or EOF) ahead.
 * Returns whether anything was skipped (the next token is not glued). */
static bool skip_space(struct ptx_lexer *lx)
{
	bool skipped = false;
	for (;;) {
		if (lx->end - lx->pos < PTX_MAX_TOKEN)
			refill(lx);
		const char *p = lx->pos;
		for (;;) {
			unsigned char c = (unsigned char)*p;
			if (char_class[c] & CC_BLANK)
				p++;
			else if (c == '\n')
				newline(lx, ++p);
			else
				break;
		}
		skipped |= p != lx->pos;
		lx->pos = p;
		if (p == lx->end) {
			if (lx->eof)
				return skipped;
			continue;
		}
		if (p[0] != '/' || (p[1] != '/' && p[1] != '*'))
			return skipped;
		skipped = true;
		bool block = p[1] == '*';
		uint32_t line = lx->line, col = col_of(lx, p);
		uint64_t start_off = (uint64_t)(p - lx->buf); /* valid while no refill happens */
		bool refilled = false;
		p += 2;
		for (;;) {
			while (p < lx->end && *p != '\n' && !(block && p[0] == '*' && p[1] == '/'))
				p++;
			if (p < lx->end && *p == '\n') {
				if (!block)
					break;
				newline(lx, ++p);
				continue;
			}
			if (p < lx->end) { /* end of block comment */
				p += 2;
				break;
			}
			lx->pos = p;
			if (lx->eof) {
				if (block)
					unterminated_comment(lx, line, col,
					                     refilled ? NULL : lx->buf + start_off);
				return skipped;
			}
			refill(lx);
			refilled = true;
			p = lx->pos;
		}
		lx->pos = p;
	}
}

/* Skips the rest of an overlong token. */
static void skip_long(struct ptx_lexer *lx, bool (*cont)(unsigned char))
{
	for (;;) {
		while (lx->pos < lx->end && cont((unsigned char)*lx->pos))
			lx->pos++;
		if (lx->pos < lx->end || lx->eof)
			return;
		refill(lx);
	}
}

static bool is_idcont_fn(unsigned char c)
{
	return is_idcont(c) || c == ':' || c == '.';
}

static void scan_number(struct ptx_lexer *lx, const char *p)
{
	bool decimal = !(p[0] == '0' && is_alpha((unsigned char)p[1]));
	while (p < lx->end) {
		unsigned char c = (unsigned char)*p;
		if (is_idcont(c) || c == '.')
			p++;
		else if ((c == '+' || c == '-') && decimal && (p[-1] | 0x20) == 'e' &&
		         is_digit((unsigned char)p[1]))
			p++;
		else
			break;
	}
	lx->pos = p;
}

/* An identifier from `p` (its first character already checked), hashed as it is
 * scanned: fills t->name as ptx_name_init would.  Returns the end. */
static const char *scan_name(struct ptx_token *t, const char *p)
{
	uint32_t h = PTX_HASH_STEP(PTX_HASH_BASIS, *p), ph = 0, idx = 0;
	const char *digits = NULL;
	for (p++;; p++) {
		unsigned char c = (unsigned char)*p, cls = char_class[c];
		if (!(cls & CC_IDCONT))
			break;
		if (!(cls & CC_DIGIT)) {
			digits = NULL;
		} else if (!digits) {
			digits = p;
			ph = h;
			idx = c - '0';
		} else {
			idx = idx * 10 + (c - '0'); /* wraps past 9 digits: not used then */
		}
		h = PTX_HASH_STEP(h, c);
	}
	struct ptx_name *n = &t->name;
	*n = (struct ptx_name){.text = t->text, .len = (uint32_t)(p - t->text), .hash = h};
	size_t ndigits = digits ? (size_t)(p - digits) : 0;
	if (ndigits == 0 || ndigits > 9 || (ndigits > 1 && digits[0] == '0'))
		return p;
	n->plen = (uint32_t)(digits - t->text);
	n->phash = ph;
	n->index = idx;
	return p;
}

void ptx_lex_next(struct ptx_lexer *lx)
{
	/* a glued token (`.rn`, `,`, `;`) needs no call to skip_space */
	unsigned char first = (unsigned char)*lx->pos;
	bool skipped = false;
	if (lx->end - lx->pos < PTX_MAX_TOKEN || char_class[first] & CC_BLANK || first == '\n' ||
	    first == '/')
		skipped = skip_space(lx);
	struct ptx_token *t = &lx->tok;
	const char *p = lx->pos;
	t->glued = !skipped;
	t->line = lx->line;
	t->col = col_of(lx, p);
	t->text = p;
	t->dw = PTX_NDOTWORDS;
	if (p == lx->end || lx->ctx->stop) { /* stop: the parse was abandoned */
		t->kind = PTX_TOK_EOF;
		t->len = 0;
		return;
	}
	unsigned char c = (unsigned char)*p;
	if (is_alpha(c) || c == '_' || ((c == '$' || c == '%') && is_idcont((unsigned char)p[1]))) {
		p = scan_name(t, p);
		t->kind = PTX_TOK_IDENT;
	} else if (c == '.' && is_idcont((unsigned char)p[1])) {
		uint32_t h = PTX_HASH_STEP(PTX_HASH_BASIS, '.');
		for (p++;;) {
			if (is_idcont((unsigned char)*p)) {
				h = PTX_HASH_STEP(h, *p++);
			} else if (p[0] == ':' && p[1] == ':' && is_idcont((unsigned char)p[2])) {
				h = PTX_HASH_STEP(PTX_HASH_STEP(h, ':'), ':');
				p += 2;
			} else {
				break;
			}
		}
		t->kind = PTX_TOK_DOTWORD;
		lx->dw_hash = h;
	} else if (is_digit(c)) {
		scan_number(lx, p);
		p = lx->pos;
		t->kind = PTX_TOK_NUMBER;
	} else if (c == '"') {
		p++;
		while (p < lx->end && *p != '"' && *p != '\n' && p - t->text < PTX_MAX_TOKEN &&
		       ((unsigned char)*p >= 0x20 || *p == '\t'))
			p++;
		if (p < lx->end && *p != '"' && *p != '\n' && (unsigned char)*p < 0x20) {
			ptx_error_at(lx->ctx, t->line, (uint32_t)(t->col + (p - t->text)),
			             "invalid byte 0x%02x in string literal", (unsigned char)*p);
			t->kind = PTX_TOK_BAD;
			p++;
		} else if (*p != '"') {
			ptx_error_at(lx->ctx, t->line, t->col, "unterminated string literal");
			t->kind = PTX_TOK_BAD;
		} else {
			p++;
			t->kind = PTX_TOK_STRING;
		}
	} else if (char_class[c] & CC_PUNCT) {
		p++;
		t->kind = PTX_TOK_PUNCT;
		t->punct = (char)c;
	} else if (c == 0x7f && t->line == 1 && t->col == 1 && lx->end - p >= 4 &&
	           !memcmp(p + 1, "ELF", 3)) {
		/* A compiled object handed over by mistake: one clear message, not one
		 * per byte. */
		ptx_error_at(lx->ctx, t->line, t->col, "input is an ELF object file, not PTX text");
		lx->ctx->stop = true;
		p++;
		t->kind = PTX_TOK_BAD;
	} else {
		p++;
		t->kind = PTX_TOK_BAD;
		if (c >= 0x20 && c < 0x7f) {
			ptx_error_at(lx->ctx, t->line, t->col, "invalid character '%c'", c);
		} else {
			if (++lx->binary_runs > 3) {
				ptx_error_at(
				        lx->ctx, t->line, t->col,
				        "input looks like binary data, not PTX text; stopping");
				lx->ctx->stop = true;
			} else {
				ptx_error_at(lx->ctx, t->line, t->col,
				             "invalid byte 0x%02x in input", c);
			}
			/* report a run of binary bytes once */
			while (p < lx->end && *p != '\n' &&
			       ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) &&
			       *p != '\t' && *p != '\r')
				p++;
		}
	}
	lx->pos = p;
	t->len = (uint32_t)(p - t->text);
	if (t->len >= PTX_MAX_TOKEN && t->kind != PTX_TOK_BAD) {
		ptx_error_at(lx->ctx, t->line, t->col, "token longer than %d bytes",
		             (int)PTX_MAX_TOKEN);
		skip_long(lx, is_idcont_fn);
		t->kind = PTX_TOK_BAD;
		t->len = 1;
		return;
	}
	if (t->kind == PTX_TOK_DOTWORD) {
		const struct ptx_kw_entry *e =
		        ptx_kw_find_hashed(&ptx_dotword_table, t->text, t->len, lx->dw_hash);
		if (e)
			t->dw = e->id;
	}
}

static int digit_value(unsigned char c)
{
	if (is_digit(c))
		return c - '0';
	if ((unsigned char)((c | 0x20) - 'a') < 26)
		return (c | 0x20) - 'a' + 10;
	return 99;
}

static const char *parse_int(const char *s, size_t n, unsigned base, struct ptx_number *out)
{
	if (n > 0 && s[n - 1] == 'U') {
		out->is_unsigned = true;
		n--;
	}
	if (n == 0)
		return base == 16 ? "hexadecimal literal has no digits"
		                  : "binary literal has no digits";
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int d = digit_value((unsigned char)s[i]);
		if (d >= (int)base) {
			return base == 16  ? "invalid digit in hexadecimal literal"
			       : base == 8 ? "invalid digit in octal literal"
			       : base == 2 ? "invalid digit in binary literal"
			                   : "invalid digit in decimal literal";
		}
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return "integer literal does not fit in 64 bits";
		v = v * base + (uint64_t)d;
	}
	out->kind = PTX_OPND_INT;
	out->value = v;
	if (v > INT64_MAX)
		out->is_unsigned = true; /* PTX: too large for .s64, so the literal is .u64 */
	return NULL;
}

static const char *parse_hexfloat(const char *s, size_t n, size_t digits, struct ptx_number *out)
{
	if (n != digits)
		return digits == 8 ? "0f literal needs exactly 8 hexadecimal digits"
		                   : "0d literal needs exactly 16 hexadecimal digits";
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_hex((unsigned char)s[i]))
			return "invalid digit in hexadecimal floating-point literal";
		v = v << 4 | (uint64_t)digit_value((unsigned char)s[i]);
	}
	out->kind = digits == 8 ? PTX_OPND_F32 : PTX_OPND_F64;
	out->value = v;
	return NULL;
}

/* digits+ '.' digits* ([eE][+-]?digits+)?  or  digits+ [eE][+-]?digits+ : a .f64 value. */
static const char *parse_decimal_float(const char *s, size_t n, struct ptx_number *out)
{
	size_t i = 0;
	while (i < n && is_digit((unsigned char)s[i]))
		i++;
	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit((unsigned char)s[i]);)
			i++;
	if (i < n && (s[i] | 0x20) == 'e') {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t d = i;
		while (i < n && is_digit((unsigned char)s[i]))
			i++;
		if (d == i)
			return "exponent has no digits";
	}
	if (i != n || n > 512)
		return "malformed floating-point literal";
	char tmp[516];
	memcpy(tmp, s, n);
	tmp[n] = 0;
	double d = strtod(tmp, NULL);
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	out->kind = PTX_OPND_F64;
	out->value = bits;
	return NULL;
}

const char *ptx_parse_number(const char *s, size_t n, struct ptx_number *out)
{
	*out = (struct ptx_number){0};
	if (n == 0 || !is_digit((unsigned char)s[0]))
		return "malformed number";
	if (n >= 2 && s[0] == '0') {
		switch (s[1]) {
		case 'x':
		case 'X':
			return parse_int(s + 2, n - 2, 16, out);
		case 'b':
		case 'B':
			return parse_int(s + 2, n - 2, 2, out);
		case 'f':
		case 'F':
			return parse_hexfloat(s + 2, n - 2, 8, out);
		case 'd':
		case 'D':
			return parse_hexfloat(s + 2, n - 2, 16, out);
		default:
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
			return parse_decimal_float(s, n, out);
	if (s[0] == '0' && n > 1 && s[1] != 'U')
		return parse_int(s + 1, n - 1, 8, out);
	return parse_int(s, n, 10, out);
}
