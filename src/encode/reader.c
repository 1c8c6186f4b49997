/* amd_asm_read: an AMDGPU assembly file -> per-kernel code bytes and descriptor fields.
 *
 * Algorithm: one pass over the lines.  Comments (';', '//') are dropped; "name:" defines a
 * label at the current .text offset; directives switch sections, align code (.p2align pads
 * with s_nop 0, .p2alignl/.fill with the given word), collect data, and record
 * .amdhsa_kernel blocks field by field; everything else in .text is an instruction, read by
 * amd_parse_inst_ex and encoded at once.  A branch to a label not yet defined is encoded
 * with offset 0 and patched when the file ends (branches are always 4 bytes, so no
 * relaxation is needed).  An operand written as a relocation expression (sym@rel32@lo+4)
 * is encoded as a literal 0 and recorded as a relocation at that literal's offset.  The
 * .amdgpu_metadata block is kept as text for the code object
 * writer, which honors it instead of deriving metadata from the .amdhsa_kernel fields.
 * Requires: amd_isa_table.  State: a reader context on the stack.  O(file size). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "amd_asm.h"
#include "parse_int.h"

enum section { SEC_TEXT, SEC_RODATA, SEC_DATA, SEC_BSS, SEC_OTHER };

/* A label in .text, or (sec SEC_DATA/SEC_BSS) a variable. */
struct label {
	const char *name;
	size_t len;
	size_t offset; /* bytes into .text (or .data/.bss) */
	bool is_function;
	enum section sec;
	uint32_t align;  /* variables: the pending .p2align */
	int64_t size;    /* from ".size NAME, N" (-1: none) */
	const char *end; /* from ".size NAME, END-NAME" */
	size_t end_len;
};

/* A name given to .globl. */
struct global_name {
	const char *name;
	size_t len;
};

struct fixup {
	size_t at; /* byte offset of the branch */
	const char *name;
	size_t len;
	unsigned line, col;
	const char *line_text;
	size_t line_len;
};

struct kernel_src {
	struct amd_asm_kernel k;
	struct amd_asm_field *fields;
	unsigned nfields, cap;
	size_t end_label_len;
	const char *end_label; /* from ".size NAME, END-NAME" */
};

struct reader {
	const struct amd_target *t;
	const char *file;
	struct pa_arena *arena;
	struct pa_diag *diag;
	struct amd_asm_module *out;
	enum section sec;
	uint8_t *text, *rodata;
	size_t ntext, captext, nrodata, caprodata;
	struct label *labels;
	unsigned nlabels, caplabels;
	struct fixup *fixups;
	unsigned nfixups, capfixups;
	struct amd_asm_reloc *relocs;
	unsigned nrelocs, caprelocs;
	struct label *vars; /* variables, in source order */
	unsigned nvars, capvars;
	struct global_name *globals, *hidden; /* .globl and .hidden names */
	unsigned nglobals, capglobals, nhidden, caphidden;
	struct global_name *function_names; /* .type NAME,@function before NAME: */
	unsigned nfunction_names, capfunction_names;
	uint8_t *data;
	size_t ndata, capdata, nbss;
	uint32_t pending_align; /* .p2align in .data/.bss, for the next variable */
	struct kernel_src *kernels;
	unsigned nkernels, capkernels;
	struct kernel_src *open_kernel; /* inside .amdhsa_kernel */
	bool in_metadata;
	const char *metadata_start, *metadata_end; /* the block's lines, in the input */
	/* current line, for diagnostics and fixups */
	unsigned line;
	const char *line_text;
	size_t line_len;
};

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? 2 * (cap) : 16;                                            \
			(arr) = pa_xrealloc((arr), (cap) * sizeof *(arr));                         \
		}                                                                                  \
	} while (0)

static void rerr(struct reader *r, const char *at, const char *fmt, const char *a, int an)
{
	unsigned col = at ? (unsigned)(at - r->line_text) + 1 : 0;
	pa_diag_report(r->diag, PA_DIAG_ERROR, r->file, r->line, col, r->line_text, r->line_len,
	               fmt, an, a);
}

static void emit_bytes(struct reader *r, const void *p, size_t n)
{
	bool text = r->sec == SEC_TEXT, data = r->sec == SEC_DATA;
	uint8_t **buf = text ? &r->text : data ? &r->data : &r->rodata;
	size_t *len = text ? &r->ntext : data ? &r->ndata : &r->nrodata;
	size_t *cap = text ? &r->captext : data ? &r->capdata : &r->caprodata;
	if (*len + n > *cap) {
		*cap = (*len + n) * 2 + 64;
		*buf = pa_xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
}

static void emit_word(struct reader *r, uint32_t w)
{
	uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
	emit_bytes(r, b, 4);
}

static struct label *find_label(struct reader *r, const char *name, size_t len)
{
	for (unsigned i = 0; i < r->nlabels; i++)
		if (r->labels[i].len == len && !memcmp(r->labels[i].name, name, len))
			return &r->labels[i];
	return NULL;
}

/* Label resolution for the instruction parser: pc is the branch's offset. */
static bool resolve_label(void *ctx, const char *name, size_t len, uint32_t *field)
{
	struct reader *r = ctx;
	struct label *l = find_label(r, name, len);
	*field = 0;
	if (l) {
		int64_t delta = ((int64_t)l->offset - (int64_t)r->ntext - 4) / 4;
		if (delta < -32768 || delta > 32767)
			return false;
		*field = (uint32_t)delta & 0xffff;
		return true;
	}
	GROW(r->fixups, r->nfixups, r->capfixups);
	r->fixups[r->nfixups++] = (struct fixup){.at = r->ntext,
	                                         .name = name,
	                                         .len = len,
	                                         .line = r->line,
	                                         .col = (unsigned)(name - r->line_text) + 1,
	                                         .line_text = r->line_text,
	                                         .line_len = r->line_len};
	return true;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* Identifier characters of labels and symbols. */
static bool is_sym_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '$';
}

static bool parse_number(const char *p, const char *end, int64_t *v, const char **after)
{
	char buf[40];
	size_t n = 0;
	while (p + n < end && n < sizeof buf - 1 && (isalnum((unsigned char)p[n]) || p[n] == '-'))
		n++;
	if (!n)
		return false;
	memcpy(buf, p, n);
	buf[n] = 0;
	char *e;
	long long val = strtoll(buf, &e, 0);
	if (*e) {
		unsigned long long u = strtoull(buf, &e, 0);
		if (*e)
			return false;
		val = (long long)u;
	}
	*v = val;
	*after = p + n;
	return true;
}

static bool word_is(const char *p, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(p, lit, n);
}

/* A symbol name at p (possibly quoted), returns its end. */
static const char *symbol_end(const char *p, const char *end)
{
	while (p < end && is_sym_char(*p))
		p++;
	return p;
}

static size_t section_size(const struct reader *r, enum section sec)
{
	return sec == SEC_DATA ? r->ndata : sec == SEC_BSS ? r->nbss : r->nrodata;
}

static struct label *find_var(struct reader *r, const char *name, size_t len)
{
	for (unsigned i = 0; i < r->nvars; i++)
		if (r->vars[i].len == len && !memcmp(r->vars[i].name, name, len))
			return &r->vars[i];
	return NULL;
}

static void add_var(struct reader *r, const char *name, size_t len, enum section sec, size_t offset,
                    uint32_t align)
{
	if (find_var(r, name, len)) {
		rerr(r, name, "variable '%.*s' defined twice", name, (int)len);
		return;
	}
	GROW(r->vars, r->nvars, r->capvars);
	r->vars[r->nvars++] = (struct label){
	        .name = name, .len = len, .offset = offset, .sec = sec, .align = align, .size = -1};
	r->pending_align = 1;
}

static void add_label(struct reader *r, const char *name, size_t len)
{
	if (find_label(r, name, len)) {
		rerr(r, name, "label '%.*s' defined twice", name, (int)len);
		return;
	}
	if (r->sec == SEC_DATA || r->sec == SEC_BSS || r->sec == SEC_RODATA) {
		add_var(r, name, len, r->sec, section_size(r, r->sec), r->pending_align);
		return;
	}
	if (r->sec != SEC_TEXT)
		return;
	bool is_function = false;
	for (unsigned i = 0; i < r->nfunction_names && !is_function; i++)
		is_function = r->function_names[i].len == len &&
		              !memcmp(r->function_names[i].name, name, len);
	GROW(r->labels, r->nlabels, r->caplabels);
	r->labels[r->nlabels++] = (struct label){.name = name,
	                                         .len = len,
	                                         .offset = r->ntext,
	                                         .size = -1,
	                                         .is_function = is_function};
}

/* Zero bytes in .data or .bss (.zero, a zero .long in .bss); a non-zero value in .bss is
 * an error. */
static void emit_zeros(struct reader *r, size_t n)
{
	if (r->sec == SEC_BSS) {
		r->nbss += n;
		return;
	}
	uint8_t zero[64] = {0};
	for (size_t done = 0; done < n; done += sizeof zero)
		emit_bytes(r, zero, n - done < sizeof zero ? n - done : sizeof zero);
}

/* Alignment of .data/.bss, remembered for the variable whose label follows. */
static void align_data(struct reader *r, unsigned align_log2)
{
	size_t align = (size_t)1 << align_log2;
	size_t at = section_size(r, r->sec);
	emit_zeros(r, (align - at % align) % align);
	r->pending_align = (uint32_t)align;
}

/* .comm NAME, SIZE[, ALIGN]: a zero-initialised variable in .bss. */
static void common_symbol(struct reader *r, const char *arg, const char *end)
{
	const char *ne = symbol_end(arg, end), *after;
	int64_t size, align = 1;
	const char *c = skip_ws(ne, end);
	if (ne == arg || c >= end || *c != ',' ||
	    !parse_number(skip_ws(c + 1, end), end, &size, &after) || size < 0 || size > 1 << 30) {
		rerr(r, arg, "expected '.comm NAME, SIZE[, ALIGN]'%.*s", "", 0);
		return;
	}
	c = skip_ws(after, end);
	if (c < end && (*c != ',' || !parse_number(skip_ws(c + 1, end), end, &align, &after) ||
	                align < 1 || align > 4096 || (align & (align - 1)))) {
		rerr(r, c, "bad .comm alignment%.*s", "", 0);
		return;
	}
	r->nbss = (r->nbss + (size_t)align - 1) / (size_t)align * (size_t)align;
	add_var(r, arg, (size_t)(ne - arg), SEC_BSS, r->nbss, (uint32_t)align);
	if (r->nvars)
		r->vars[r->nvars - 1].size = size;
	r->nbss += (size_t)size;
}

static void pad_text(struct reader *r, unsigned align_log2, uint32_t word)
{
	size_t align = (size_t)1 << align_log2;
	while (r->ntext % align)
		emit_word(r, word);
}

/* .amdhsa_<field> VALUE inside an .amdhsa_kernel block. */
static void kernel_field(struct reader *r, const char *name, size_t len, const char *p,
                         const char *end)
{
	struct kernel_src *k = r->open_kernel;
	int64_t v;
	const char *after;
	if (!parse_number(p, end, &v, &after) || skip_ws(after, end) != end) {
		rerr(r, p, "expected a number for .%.*s", name, (int)len);
		return;
	}
	GROW(k->fields, k->nfields, k->cap);
	k->fields[k->nfields++] = (struct amd_asm_field){
	        .name = pa_arena_strndup(r->arena, name, len), .value = v, .line = r->line};
}

static enum section section_named(const char *name, size_t n)
{
	bool data = word_is(name, n, ".data") || (n > 6 && !memcmp(name, ".data.", 6));
	bool bss = word_is(name, n, ".bss") || (n > 5 && !memcmp(name, ".bss.", 5));
	return word_is(name, n, ".text")     ? SEC_TEXT
	       : word_is(name, n, ".rodata") ? SEC_RODATA
	       : data                        ? SEC_DATA
	       : bss                         ? SEC_BSS
	                                     : SEC_OTHER;
}

/* ".size NAME, N" (a variable's size) or ".size NAME, END-NAME" (a function's end). */
static void symbol_size(struct reader *r, const char *name, size_t len, const char *c,
                        const char *end)
{
	if (c >= end || *c != ',')
		return;
	const char *e0 = skip_ws(c + 1, end), *e1 = symbol_end(e0, end), *after;
	int64_t v;
	struct label *var = find_var(r, name, len), *fn = find_label(r, name, len);
	if (var && parse_number(e0, end, &v, &after) && v >= 0)
		var->size = v;
	else if (fn && e1 > e0 && e1 < end && *e1 == '-')
		fn->end = e0, fn->end_len = (size_t)(e1 - e0);
}

/* Directives that only concern variables: .zero and .comm.  False: not one of them. */
static bool variable_directive(struct reader *r, const char *p, size_t dn, const char *arg,
                               const char *end)
{
	int64_t v;
	const char *after;
	if (word_is(p, dn, ".comm")) {
		common_symbol(r, arg, end);
		return true;
	}
	if (!word_is(p, dn, ".zero"))
		return false;
	if (!parse_number(arg, end, &v, &after) || v < 0 || v > 1 << 30 ||
	    skip_ws(after, end) != end)
		rerr(r, arg, "only '.zero COUNT' is supported%.*s", "", 0);
	else if (r->sec == SEC_TEXT)
		rerr(r, p, ".zero in .text is not supported%.*s", "", 0);
	else if (r->sec != SEC_OTHER)
		emit_zeros(r, (size_t)v);
	return true;
}

static void directive(struct reader *r, const char *p, const char *end)
{
	const char *dend = symbol_end(p + 1, end);
	size_t dn = (size_t)(dend - p);
	const char *arg = skip_ws(dend, end);
	int64_t v, fillv;
	const char *after;
	if (r->open_kernel) {
		if (word_is(p, dn, ".end_amdhsa_kernel"))
			r->open_kernel = NULL;
		else if (dn > 8 && !memcmp(p, ".amdhsa_", 8))
			kernel_field(r, p + 1, dn - 1, arg, end);
		else
			rerr(r, p, "unexpected '%.*s' inside .amdhsa_kernel", p, (int)dn);
		return;
	}
	if (word_is(p, dn, ".text") || word_is(p, dn, ".rodata") || word_is(p, dn, ".data") ||
	    word_is(p, dn, ".bss")) {
		r->sec = section_named(p, dn);
	} else if (word_is(p, dn, ".section")) {
		const char *ne = arg;
		while (ne < end && *ne != ',' && !isspace((unsigned char)*ne))
			ne++;
		r->sec = section_named(arg, (size_t)(ne - arg));
	} else if (variable_directive(r, p, dn, arg, end)) {
		/* .data/.bss contents and symbols */
	} else if (word_is(p, dn, ".amdgcn_target")) {
		const char *q = arg + 1, *qe = end;
		while (qe > q && qe[-1] != '"')
			qe--;
		if (*arg != '"' || qe <= q) {
			rerr(r, arg, "expected a quoted target id%.*s", "", 0);
			return;
		}
		r->out->target_id = pa_arena_strndup(r->arena, q, (size_t)(qe - 1 - q));
	} else if (word_is(p, dn, ".amdhsa_code_object_version")) {
		if (!parse_number(arg, end, &v, &after) || v < 2 || v > 6)
			rerr(r, arg, "bad code object version%.*s", "", 0);
		else
			r->out->code_object_version = (unsigned)v;
	} else if (word_is(p, dn, ".amdhsa_kernel")) {
		const char *ne = symbol_end(arg, end);
		if (ne == arg) {
			rerr(r, arg, "expected a kernel name%.*s", "", 0);
			return;
		}
		GROW(r->kernels, r->nkernels, r->capkernels);
		r->open_kernel = &r->kernels[r->nkernels++];
		*r->open_kernel = (struct kernel_src){
		        .k = {.name = pa_arena_strndup(r->arena, arg, (size_t)(ne - arg))}};
	} else if (word_is(p, dn, ".p2align") || word_is(p, dn, ".p2alignl")) {
		bool words = dn == 9;
		if (!parse_number(arg, end, &v, &after) || v < 0 || v > 16) {
			rerr(r, arg, "bad alignment%.*s", "", 0);
			return;
		}
		fillv = words ? 0 : -1;
		const char *c = skip_ws(after, end);
		if (c < end && *c == ',' &&
		    !parse_number(skip_ws(c + 1, end), end, &fillv, &after)) {
			rerr(r, c, "bad fill value%.*s", "", 0);
			return;
		}
		if (r->sec == SEC_DATA || r->sec == SEC_BSS || r->sec == SEC_RODATA)
			align_data(r, (unsigned)v);
		if (r->sec == SEC_TEXT) {
			if (v < 2) /* code is in dwords */
				return;
			/* code alignment fills with s_nop 0 unless a word is given */
			pad_text(r, (unsigned)v, words ? (uint32_t)fillv : 0xbf800000u);
		}
	} else if (word_is(p, dn, ".fill")) {
		int64_t count, size;
		if (!parse_number(arg, end, &count, &after) || *skip_ws(after, end) != ',' ||
		    !parse_number(skip_ws(skip_ws(after, end) + 1, end), end, &size, &after) ||
		    *skip_ws(after, end) != ',' ||
		    !parse_number(skip_ws(skip_ws(after, end) + 1, end), end, &fillv, &after) ||
		    size != 4 || count < 0 || count > 1 << 20) {
			rerr(r, arg, "only '.fill COUNT, 4, WORD' is supported%.*s", "", 0);
			return;
		}
		for (int64_t i = 0; i < count; i++)
			emit_word(r, (uint32_t)fillv);
	} else if (word_is(p, dn, ".long") || word_is(p, dn, ".byte") || word_is(p, dn, ".short") ||
	           word_is(p, dn, ".quad")) {
		size_t size = p[1] == 'l' ? 4 : p[1] == 'b' ? 1 : p[1] == 's' ? 2 : 8;
		if (r->sec == SEC_TEXT) {
			rerr(r, p, "data directive '%.*s' in .text is not supported", p, (int)dn);
			return;
		}
		if (!parse_number(arg, end, &v, &after)) {
			rerr(r, arg,
			     "data directive '%.*s' with a value other than a number is not "
			     "supported",
			     p, (int)dn);
			return;
		}
		uint8_t b[8];
		for (size_t i = 0; i < size; i++)
			b[i] = (uint8_t)((uint64_t)v >> (8 * i));
		if (r->sec == SEC_BSS && v)
			rerr(r, arg, "non-zero value in .bss%.*s", "", 0);
		else if (r->sec == SEC_BSS)
			emit_zeros(r, size);
		else if (r->sec == SEC_RODATA || r->sec == SEC_DATA)
			emit_bytes(r, b, size);
	} else if (word_is(p, dn, ".type")) {
		const char *ne = symbol_end(arg, end);
		if (ne < end && memmem(ne, (size_t)(end - ne), "@function", 9)) {
			struct label *l = find_label(r, arg, (size_t)(ne - arg));
			if (l) {
				l->is_function = true;
			} else { /* LLVM writes .type before the label */
				GROW(r->function_names, r->nfunction_names, r->capfunction_names);
				r->function_names[r->nfunction_names++] =
				        (struct global_name){arg, (size_t)(ne - arg)};
			}
		}
	} else if (word_is(p, dn, ".size")) {
		/* ".size NAME, END-NAME" gives a kernel's code size */
		const char *ne = symbol_end(arg, end), *c = skip_ws(ne, end);
		symbol_size(r, arg, (size_t)(ne - arg), c, end);
		for (unsigned i = 0; i < r->nkernels + 1 && c < end && *c == ','; i++) {
			const char *e0 = skip_ws(c + 1, end), *e1 = symbol_end(e0, end);
			struct kernel_src *k = NULL;
			for (unsigned j = 0; j < r->nkernels; j++)
				if (word_is(arg, (size_t)(ne - arg), r->kernels[j].k.name))
					k = &r->kernels[j];
			if (k && e1 < end && *e1 == '-') {
				k->end_label = e0;
				k->end_label_len = (size_t)(e1 - e0);
			}
			break;
		}
	} else if (word_is(p, dn, ".amdgpu_metadata")) {
		if (r->metadata_start)
			rerr(r, p, "second .amdgpu_metadata block%.*s", "", 0);
		r->in_metadata = true;
		r->metadata_start = r->metadata_end = r->line_text + r->line_len + 1;
	} else if (word_is(p, dn, ".globl") || word_is(p, dn, ".global")) {
		const char *ne = symbol_end(arg, end);
		GROW(r->globals, r->nglobals, r->capglobals);
		r->globals[r->nglobals++] = (struct global_name){arg, (size_t)(ne - arg)};
	} else if (word_is(p, dn, ".hidden")) {
		const char *ne = symbol_end(arg, end);
		GROW(r->hidden, r->nhidden, r->caphidden);
		r->hidden[r->nhidden++] = (struct global_name){arg, (size_t)(ne - arg)};
	} else if (word_is(p, dn, ".protected") || word_is(p, dn, ".local") ||
	           word_is(p, dn, ".weak") || word_is(p, dn, ".ident") ||
	           word_is(p, dn, ".addrsig") || word_is(p, dn, ".addrsig_sym") ||
	           word_is(p, dn, ".amdgpu_hsa_kernel")) {
		/* symbol visibility and identification: the code object writer decides */
	} else {
		rerr(r, p, "unsupported directive '%.*s'", p, (int)dn);
	}
}

/* The relocation of an operand: its literal is the last dword of the encoding. */
static bool add_reloc(struct reader *r, const struct amd_parsed_reloc *pr, uint32_t *w, unsigned n)
{
	const char *at = r->line_text + (pr->col - 1);
	if (n < 2 || w[n - 1] != AMD_RELOC_PLACEHOLDER) {
		rerr(r, at, "a relocation expression is not supported in this operand%.*s", "", 0);
		return false;
	}
	w[n - 1] = 0;
	GROW(r->relocs, r->nrelocs, r->caprelocs);
	r->relocs[r->nrelocs++] = (struct amd_asm_reloc){
	        .offset = r->ntext + 4 * (n - 1),
	        .type = pr->type,
	        .symbol = pa_arena_strndup(r->arena, pr->symbol, pr->symbol_len),
	        .addend = pr->addend,
	        .line = r->line,
	};
	return true;
}

static void instruction(struct reader *r, const char *p, const char *end)
{
	struct amd_inst in;
	struct amd_parsed_reloc reloc;
	char err[200];
	unsigned col = 0;
	uint32_t w[4];
	if (r->sec != SEC_TEXT) {
		rerr(r, p, "instruction outside .text%.*s", "", 0);
		return;
	}
	if (!amd_parse_inst_ex(r->t, p, (size_t)(end - p), &in, err, sizeof err, &col,
	                       resolve_label, r, &reloc)) {
		rerr(r, p + (col ? col - 1 : 0), "%.*s", err, (int)strlen(err));
		return;
	}
	unsigned n = amd_encode(r->t, &in, w, err, sizeof err);
	if (!n && reloc.present) {
		rerr(r, r->line_text + (reloc.col - 1),
		     "a relocation expression is not supported in this operand (%.*s)", err,
		     (int)strlen(err));
		return;
	}
	if (!n) {
		rerr(r, p, "cannot encode: %.*s", err, (int)strlen(err));
		return;
	}
	if (reloc.present && !add_reloc(r, &reloc, w, n))
		return;
	for (unsigned i = 0; i < n; i++)
		emit_word(r, w[i]);
}

/* One source line without its newline. */
static void read_line(struct reader *r, const char *p, const char *end)
{
	/* drop comments (no string literal contains ';' or "//" in what we accept,
	 * except .amdgcn_target's quoted id, which has neither) */
	for (const char *q = p; q < end; q++)
		if (*q == ';' || (*q == '/' && q + 1 < end && q[1] == '/') ||
		    (*q == '#' && q == skip_ws(p, end))) {
			end = q;
			break;
		}
	p = skip_ws(p, end);
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (r->in_metadata) {
		if (end - p == 20 && !memcmp(p, ".end_amdgpu_metadata", 20))
			r->in_metadata = false;
		else
			r->metadata_end = r->line_text + r->line_len + 1;
		return;
	}
	while (p < end) {
		const char *se = symbol_end(p, end);
		if (se > p && se < end && *se == ':' && (se + 1 == end || se[1] != ':')) {
			add_label(r, p, (size_t)(se - p));
			p = skip_ws(se + 1, end);
			continue;
		}
		break;
	}
	if (p == end)
		return;
	if (*p == '.')
		directive(r, p, end);
	else
		instruction(r, p, end);
}

static void patch_fixups(struct reader *r)
{
	for (unsigned i = 0; i < r->nfixups; i++) {
		struct fixup *f = &r->fixups[i];
		struct label *l = find_label(r, f->name, f->len);
		int64_t delta = l ? ((int64_t)l->offset - (int64_t)f->at - 4) / 4 : 0;
		r->line = f->line, r->line_text = f->line_text, r->line_len = f->line_len;
		if (!l)
			rerr(r, f->name, "undefined label '%.*s'", f->name, (int)f->len);
		else if (delta < -32768 || delta > 32767)
			rerr(r, f->name, "branch target '%.*s' out of range", f->name, (int)f->len);
		else {
			r->text[f->at] = (uint8_t)delta;
			r->text[f->at + 1] = (uint8_t)((uint32_t)delta >> 8);
		}
	}
}

/* Kernel code extents: from the kernel's label to .size's end label, else to the next
 * function label, else to the end of .text. */
static void finish_kernels(struct reader *r)
{
	struct amd_asm_module *m = r->out;
	m->kernels = PA_NEW_ARRAY(r->arena, struct amd_asm_kernel, r->nkernels ? r->nkernels : 1);
	m->nkernels = r->nkernels;
	for (unsigned i = 0; i < r->nkernels; i++) {
		struct kernel_src *ks = &r->kernels[i];
		struct amd_asm_kernel *k = &m->kernels[i];
		*k = ks->k;
		struct label *start = find_label(r, k->name, strlen(k->name));
		if (!start) {
			r->line = 0;
			pa_diag_report(r->diag, PA_DIAG_ERROR, r->file, 0, 0, NULL, 0,
			               "kernel '%s' has no code label in .text", k->name);
			continue;
		}
		size_t stop = m->text_size;
		struct label *endl =
		        ks->end_label ? find_label(r, ks->end_label, ks->end_label_len) : NULL;
		if (endl && endl->offset >= start->offset) {
			stop = endl->offset;
		} else {
			for (unsigned j = 0; j < r->nlabels; j++)
				if (r->labels[j].is_function &&
				    r->labels[j].offset > start->offset &&
				    r->labels[j].offset < stop)
					stop = r->labels[j].offset;
		}
		k->code_offset = start->offset;
		k->code_size = stop - start->offset;
		k->code = m->text + start->offset;
		k->fields =
		        PA_NEW_ARRAY(r->arena, struct amd_asm_field, ks->nfields ? ks->nfields : 1);
		memcpy(k->fields, ks->fields, ks->nfields * sizeof *ks->fields);
		k->nfields = ks->nfields;
	}
}

static bool is_named(const struct global_name *names, unsigned n, const char *name, size_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (names[i].len == len && !memcmp(names[i].name, name, len))
			return true;
	return false;
}

static bool is_kernel(const struct reader *r, const struct label *l)
{
	for (unsigned i = 0; i < r->nkernels; i++)
		if (word_is(l->name, l->len, r->kernels[i].k.name))
			return true;
	return false;
}

/* End of the code of function label l: its .size end label, else the next function
 * label, else the end of .text. */
static size_t function_end(struct reader *r, const struct label *l)
{
	struct label *endl = l->end ? find_label(r, l->end, l->end_len) : NULL;
	if (endl && endl->offset >= l->offset)
		return endl->offset;
	size_t stop = r->ntext;
	for (unsigned j = 0; j < r->nlabels; j++)
		if (r->labels[j].is_function && r->labels[j].offset > l->offset &&
		    r->labels[j].offset < stop)
			stop = r->labels[j].offset;
	return stop;
}

/* Size of variable v: its .size, else up to the next variable of its section. */
static size_t variable_size(const struct reader *r, const struct label *v)
{
	if (v->size >= 0)
		return (size_t)v->size;
	size_t stop = section_size(r, v->sec);
	for (unsigned j = 0; j < r->nvars; j++)
		if (r->vars[j].sec == v->sec && r->vars[j].offset > v->offset &&
		    r->vars[j].offset < stop)
			stop = r->vars[j].offset;
	return stop - v->offset;
}

/* The device functions (function labels that are not kernels) and the variables. */
static void finish_symbols(struct reader *r)
{
	struct amd_asm_module *m = r->out;
	unsigned cap = r->nlabels + r->nvars;
	m->symbols = PA_NEW_ARRAY(r->arena, struct amd_asm_symbol, cap ? cap : 1);
	for (unsigned i = 0; i < r->nlabels; i++) {
		struct label *l = &r->labels[i];
		if (!l->is_function || is_kernel(r, l))
			continue;
		m->symbols[m->nsymbols++] = (struct amd_asm_symbol){
		        .name = pa_arena_strndup(r->arena, l->name, l->len),
		        .kind = AMD_ASM_FUNCTION,
		        .offset = l->offset,
		        .size = function_end(r, l) - l->offset,
		        .align = 4,
		        .is_global = is_named(r->globals, r->nglobals, l->name, l->len),
		        .is_hidden = is_named(r->hidden, r->nhidden, l->name, l->len),
		};
	}
	for (unsigned i = 0; i < r->nvars; i++) {
		struct label *v = &r->vars[i];
		size_t size = variable_size(r, v), limit = section_size(r, v->sec);
		if (v->offset + size > limit) {
			pa_diag_report(
			        r->diag, PA_DIAG_ERROR, r->file, 0, 0, NULL, 0,
			        "variable '%.*s': .size %zu runs past the end of its section",
			        (int)v->len, v->name, size);
			continue;
		}
		m->symbols[m->nsymbols++] = (struct amd_asm_symbol){
		        .name = pa_arena_strndup(r->arena, v->name, v->len),
		        .kind = v->sec == SEC_DATA  ? AMD_ASM_DATA
		                : v->sec == SEC_BSS ? AMD_ASM_BSS
		                                    : AMD_ASM_RODATA,
		        .offset = v->offset,
		        .size = size,
		        .align = v->align ? v->align : 1,
		        .is_global = is_named(r->globals, r->nglobals, v->name, v->len),
		        .is_hidden = is_named(r->hidden, r->nhidden, v->name, v->len),
		};
	}
}

bool amd_asm_read(const struct amd_target *t, const char *file, const char *text, size_t len,
                  struct pa_arena *arena, struct pa_diag *diag, struct amd_asm_module *out)
{
	struct reader r = {.t = t,
	                   .file = file,
	                   .arena = arena,
	                   .diag = diag,
	                   .out = out,
	                   .sec = SEC_TEXT,
	                   .pending_align = 1};
	unsigned errors_before = diag->nerrors;
	*out = (struct amd_asm_module){0};
	const char *p = text, *end = text + len;
	while (p < end && !pa_diag_too_many(diag)) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		r.line++;
		r.line_text = p;
		r.line_len = (size_t)(le - p);
		if (memchr(p, 0, r.line_len))
			rerr(&r, memchr(p, 0, r.line_len), "NUL byte in input%.*s", "", 0);
		else
			read_line(&r, p, le);
		p = nl ? nl + 1 : end;
	}
	if (r.open_kernel)
		rerr(&r, NULL, "missing .end_amdhsa_kernel%.*s", "", 0);
	if (r.in_metadata)
		rerr(&r, NULL, "missing .end_amdgpu_metadata%.*s", "", 0);
	if (r.metadata_start) {
		const char *me = r.metadata_end < end ? r.metadata_end : end;
		size_t mlen = me > r.metadata_start ? (size_t)(me - r.metadata_start) : 0;
		out->metadata = pa_arena_strndup(arena, mlen ? r.metadata_start : "", mlen);
		out->metadata_len = mlen;
	}
	patch_fixups(&r);
	out->text = PA_NEW_ARRAY(arena, uint8_t, r.ntext ? r.ntext : 1);
	memcpy(out->text, r.text ? r.text : (uint8_t *)"", r.ntext);
	out->text_size = r.ntext;
	out->rodata = PA_NEW_ARRAY(arena, uint8_t, r.nrodata ? r.nrodata : 1);
	memcpy(out->rodata, r.rodata ? r.rodata : (uint8_t *)"", r.nrodata);
	out->rodata_size = r.nrodata;
	finish_kernels(&r);
	finish_symbols(&r);
	out->data = PA_NEW_ARRAY(arena, uint8_t, r.ndata ? r.ndata : 1);
	memcpy(out->data, r.data ? r.data : out->data, r.ndata);
	out->data_size = r.ndata;
	out->bss_size = r.nbss;
	out->relocs = PA_NEW_ARRAY(arena, struct amd_asm_reloc, r.nrelocs ? r.nrelocs : 1);
	memcpy(out->relocs, r.relocs ? r.relocs : out->relocs, r.nrelocs * sizeof *r.relocs);
	out->nrelocs = r.nrelocs;
	for (unsigned i = 0; i < r.nkernels; i++)
		free(r.kernels[i].fields);
	free(r.text);
	free(r.rodata);
	free(r.labels);
	free(r.fixups);
	free(r.relocs);
	free(r.vars);
	free(r.globals);
	free(r.hidden);
	free(r.function_names);
	free(r.data);
	free(r.kernels);
	return diag->nerrors == errors_before;
}

int64_t amd_asm_field(const struct amd_asm_kernel *k, const char *name, int64_t dflt)
{
	for (unsigned i = 0; i < k->nfields; i++)
		if (!strcmp(k->fields[i].name, name))
			return k->fields[i].value;
	return dflt;
}
