/* Internal interfaces of the PTX front end: lexer, tables, symbol tables, parser
 * context shared by parse.c (module and function structure), insn.c (instructions)
 * and dump.c (normalized printer).  Not for use outside src/parse. */
#ifndef PTX_INT_H
#define PTX_INT_H

#include <string.h>

#include "arena.h"
#include "ptx.h"

enum {
	PTX_MAX_TOKEN = 64 * 1024,      /* longest token; longer is an error */
	PTX_BUF_SIZE = 1024 * 1024,     /* input window */
	PTX_BUF_FIRST = 64 * 1024,      /* first window: a small input fits (heap, not mmap) */
	PTX_LINE_KEEP = 4096,           /* bytes of the current line kept for excerpts */
	PTX_MAX_DEPTH = 256,            /* nested { } scopes and initializer braces */
	PTX_MAX_OPERANDS = 64,          /* operands of one instruction */
	PTX_MAX_LIST = 4096,            /* elements of one call argument list */
	PTX_MAX_MODS = 24,              /* dotted modifiers of one instruction */
	PTX_MAX_INIT = 4 * 1024 * 1024, /* initializer elements of one variable */
	PTX_MAX_STMTS = 1024 * 1024,    /* statements of one function body */
};

enum ptx_tok_kind {
	PTX_TOK_EOF,
	PTX_TOK_IDENT,
	PTX_TOK_DOTWORD,
	PTX_TOK_NUMBER,
	PTX_TOK_STRING,
	PTX_TOK_PUNCT, /* one character in `punct` */
	PTX_TOK_BAD,   /* invalid byte or overlong token (already diagnosed) */
};

/* A name prepared for lookup in one pass: its hash, and for a name ending in a
 * decimal index (`%r17`) the prefix length, prefix hash and index. */
struct ptx_name {
	const char *text;
	uint32_t len, hash;
	uint32_t plen, phash, index; /* plen 0: no index suffix */
};

#define PTX_HASH_BASIS      2166136261u
#define PTX_HASH_STEP(h, c) (((h) ^ (unsigned char)(c)) * 16777619u)

void ptx_name_init(struct ptx_name *n, const char *text, uint32_t len);

/* memcmp(a, b, n) == 0 for the short names of symbols and keywords, inline: a lookup
 * calls it once its hash matched, and a libc call cost more than the comparison. */
static inline bool ptx_same_text(const char *a, const char *b, uint32_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8) {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	for (; n; a++, b++, n--)
		if (*a != *b)
			return false;
	return true;
}

struct ptx_token {
	uint8_t kind;
	char punct;
	bool glued;  /* no whitespace between the previous token and this one */
	uint16_t dw; /* PTX_TOK_DOTWORD: enum ptx_dotword or PTX_NDOTWORDS if unknown */
	const char *text;
	uint32_t len;
	uint32_t line, col;
	struct ptx_name name; /* PTX_TOK_IDENT: prepared for lookup while it is lexed */
};

struct ptx_ctx;

struct ptx_lexer {
	FILE *in;
	struct ptx_ctx *ctx;
	char *buf;  /* cap + 1 bytes; *end == 0 sentinel */
	size_t cap; /* PTX_BUF_FIRST, then PTX_BUF_SIZE once the input is longer */
	const char *pos, *end;
	const char *line_start; /* start of the current line inside buf */
	const char *prev_start; /* start of the previous line, NULL once dropped */
	uint64_t line_dropped;  /* bytes of the current line no longer in buf */
	uint32_t line;
	uint32_t dw_hash;     /* hash of the dotted word being lexed */
	uint32_t binary_runs; /* runs of non-text bytes reported so far */
	bool eof;
	struct ptx_token tok;
};

void ptx_lex_init(struct ptx_lexer *lx, FILE *in, struct ptx_ctx *ctx);
void ptx_lex_free(struct ptx_lexer *lx);
void ptx_lex_next(struct ptx_lexer *lx);
/* Excerpt of `line` if it is the current line and still in the window. */
bool ptx_lex_line_text(const struct ptx_lexer *lx, uint32_t line, const char **text, size_t *len);

/* Chained hash table of symbols; newer bindings of a name come first in a chain. */
struct ptx_symtab {
	struct ptx_symbol **buckets;
	uint32_t nbuckets, count;
};

void ptx_symtab_init(struct ptx_symtab *t, uint32_t nbuckets);
void ptx_symtab_free(struct ptx_symtab *t);
void ptx_symtab_insert(struct ptx_symtab *t, struct ptx_symbol *s);
/* Removes `s`, which must be the newest binding of its name (scopes nest). */
void ptx_symtab_remove(struct ptx_symtab *t, struct ptx_symbol *s);
struct ptx_symbol *ptx_symtab_find(const struct ptx_symtab *t, const char *name, uint32_t len,
                                   uint32_t hash);
/* Finds `name` either declared as is or as element `*index` of a range `%prefix<N>`. */
struct ptx_symbol *ptx_symtab_lookup(const struct ptx_symtab *t, const struct ptx_name *n,
                                     uint32_t *index);
uint32_t ptx_hash(const char *s, size_t n);

/* Keyword tables (dotted words, opcodes): open-addressing hash tables generated at build
 * time by gen_kwtab.py (ptx_kwtab.c), so a process builds nothing at start-up. */
struct ptx_kw_entry {
	uint32_t hash;
	uint16_t id;        /* enum value, or UINT16_MAX for a prefix-only opcode entry */
	uint8_t has_longer; /* opcode: a longer dotted row name starts with this one */
	uint8_t len;        /* 0: empty slot (no keyword is empty) */
	uint16_t text;      /* offset of the text in ptx_kw_text */
};

struct ptx_kwtab {
	const struct ptx_kw_entry *slots;
	uint32_t mask;
};

extern const char ptx_kw_text[];
extern const struct ptx_kwtab ptx_dotword_table, ptx_op_table;
const struct ptx_kw_entry *ptx_kw_find(const struct ptx_kwtab *t, const char *s, uint32_t len);
const struct ptx_kw_entry *ptx_kw_find_hashed(const struct ptx_kwtab *t, const char *s,
                                              uint32_t len, uint32_t hash);

/* Special registers: name, type, number of components (1 or 4). */
struct ptx_sreg_info {
	const char *name;
	uint8_t type;
	uint8_t ncomp;
	uint8_t ver;
	uint16_t sm;
};
extern const struct ptx_sreg_info ptx_sregs[];
extern const unsigned ptx_nsregs;

struct ptx_ctx {
	const struct ptx_parse_options *opts;
	struct pa_diag *diag;
	const char *filename;
	struct ptx_lexer lx;
	struct pa_arena module_arena, fn_arena;
	struct ptx_symtab globals; /* module scope: variables, functions, special registers */
	struct ptx_symtab locals;  /* function scopes */
	struct ptx_symtab labels;  /* labels of the current function */
	struct ptx_module_state mod;
	bool seen_version, seen_target, seen_address_size, seen_code;
	bool stop;          /* too many errors: stop parsing */
	bool paren_is_list; /* '(' starts a call list, not a constant expression */
	/* current function */
	struct ptx_symbol *fn;
	struct ptx_stmt *stmts; /* malloc'ed, reused by every function */
	uint32_t nstmts, cap_stmts;
	struct ptx_symbol *fn_labels; /* labels of the current function, via next_in_scope */
	uint32_t scope_serial, scope_depth;
	struct ptx_symbol *scope_syms[PTX_MAX_DEPTH + 2]; /* declared per open scope */
	uint32_t scope_ids[PTX_MAX_DEPTH + 2];
	/* PTX_MAX_LIST operands for call argument lists, allocated at the first one */
	struct ptx_operand *listbuf;
	char scratch[PTX_MAX_TOKEN + 512];
};

static inline struct ptx_token *tok(struct ptx_ctx *c)
{
	return &c->lx.tok;
}

static inline void next(struct ptx_ctx *c)
{
	ptx_lex_next(&c->lx);
}

static inline bool is_punct(struct ptx_ctx *c, char ch)
{
	return c->lx.tok.kind == PTX_TOK_PUNCT && c->lx.tok.punct == ch;
}

/* context.c: token expectations (report "expected X, found Y") and recovery. */
void ptx_error_expected(struct ptx_ctx *c, const char *what);
bool ptx_expect_punct(struct ptx_ctx *c, char ch);
bool ptx_parse_u32(struct ptx_ctx *c, uint32_t *out, const char *what);
void ptx_skip_block(struct ptx_ctx *c);
void ptx_recover_stmt(struct ptx_ctx *c);
void ptx_recover_module(struct ptx_ctx *c);
/* context.c: symbols and scopes. */
struct ptx_symbol *ptx_new_symbol(struct pa_arena *a, const char *name, uint32_t len, uint32_t line,
                                  uint32_t col);
void ptx_open_scope(struct ptx_ctx *c);
void ptx_close_scope(struct ptx_ctx *c);
bool ptx_declare(struct ptx_ctx *c, struct ptx_symbol *s);
/* context.c: bounded text building for directive tails. */
void ptx_append(char *buf, size_t cap, size_t *n, const char *s, size_t len);
const char *ptx_parse_strings(struct ptx_ctx *c, struct pa_arena *a);
/* decl.c */
enum ptx_space ptx_space_of(uint16_t dw);
bool ptx_parse_var_decl(struct ptx_ctx *c, uint8_t linkage);
bool ptx_parse_params(struct ptx_ctx *c, struct ptx_symbol ***out, uint32_t *nout);
/* Fills f->ret_layout/param_layout (allocated in `a`) and the byte counts from the
 * symbols f->rets/f->params. */
void ptx_layout_signature(struct pa_arena *a, struct ptx_func_info *f);
bool ptx_parse_perf_directives(struct ptx_ctx *c, struct ptx_func_info *f);
/* body.c: parses from the body's '{' to its '}'; then ptx_finish_labels checks and
 * forgets the function's labels. */
void ptx_parse_body(struct ptx_ctx *c, struct ptx_symbol *fn);
void ptx_finish_labels(struct ptx_ctx *c, bool has_body);

/* Diagnostics at a source position; excerpt when the line is still in the window. */
void ptx_error_at(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
/* An error at an earlier line whose text the caller kept (`text` may be NULL). */
void ptx_error_with_text(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *text,
                         size_t len, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ptx_warning_at(struct ptx_ctx *c, uint32_t line, uint32_t col, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* insn.c: parses an instruction whose opcode word is in c->scratch (len bytes, at line:col)
 * and whose dotted modifiers are the current token on; appends a statement.  Returns
 * false on a syntax error (caller recovers). */
bool ptx_parse_insn(struct ptx_ctx *c, size_t len, uint32_t line, uint32_t col,
                    const struct ptx_operand *guard);
/* check.c: checks a parsed instruction against its table row; fills insn->types.
 * Locations point at the opcode, each modifier and each operand. */
struct ptx_insn_locs {
	uint32_t line, col;
	const uint32_t *mod_cols;
	const uint32_t *opnd_lines, *opnd_cols;
};
bool ptx_check_insn(struct ptx_ctx *c, struct ptx_insn *insn, const struct ptx_insn_locs *locs);
/* check_forms.c: operand forms and modifiers of the loosely typed rows. */
bool ptx_check_operand_forms(struct ptx_ctx *c, const struct ptx_insn *in,
                             const struct ptx_insn_locs *locs, const char *name);
/* check_mma.c: register counts of mma/wmma operands per shape and type. */
bool ptx_check_matrix_counts(struct ptx_ctx *c, const struct ptx_insn *in,
                             const struct ptx_insn_locs *locs);
/* insn.c: parses one operand (also used for .branchtargets lists). */
bool ptx_parse_operand(struct ptx_ctx *c, struct ptx_operand *o, bool allow_forward_label);
/* parse.c: appends a statement to the current function. */
struct ptx_stmt *ptx_add_stmt(struct ptx_ctx *c, enum ptx_stmt_kind kind, uint32_t line);
/* parse.c: resolves a label name, creating a forward reference when unseen. */
struct ptx_symbol *ptx_label_ref(struct ptx_ctx *c, const char *name, uint32_t len, uint32_t line,
                                 uint32_t col);
/* parse.c: looks up a variable/function/special register by name in scope. */
struct ptx_symbol *ptx_lookup(struct ptx_ctx *c, const struct ptx_name *n, uint32_t *index);
/* `t` must be an identifier token (its prepared name). */
static inline struct ptx_symbol *ptx_lookup_tok(struct ptx_ctx *c, const struct ptx_token *t,
                                                uint32_t *index)
{
	return ptx_lookup(c, &t->name, index);
}

/* dump.c; ptx_space_name gives ".global" etc. */
const char *ptx_space_name(uint8_t space);
void ptx_dump_module_header(FILE *out, const struct ptx_module_state *m);
void ptx_dump_decl(FILE *out, const struct ptx_symbol *s, int indent);
void ptx_dump_function(FILE *out, const struct ptx_symbol *fn, const struct ptx_stmt *stmts,
                       uint32_t nstmts, bool has_body);
void ptx_dump_text(FILE *out, const char *directive, const char *text);

#endif
