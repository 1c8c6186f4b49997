/* amd_asm_read: an AMDGPU assembly file -> per-kernel code bytes and descriptor fields.
 *
 * Algorithm: one pass over the lines.  Comments (';', '//') are dropped; "name:" defines a
 * label at the current .text offset; directives switch sections, align code (.p2align pads
 * with s_nop 0, .p2alignl/.fill with the given word), collect data, and record
 * .amdhsa_kernel blocks field by field; everything else in .text is an instruction, read by
 * amd_parse_inst_ex and encoded at once.  A branch to a label not yet defined is encoded
 * with offset 0 and patched when the file ends (branches are always 4 bytes, so no
 * relaxation is needed).  The .amdgpu_metadata block is kept as text for the code object
 * writer, which honors it instead of deriving metadata from the .amdhsa_kernel fields.
 * Requires: amd_isa_table.  State: a reader context on the stack.  O(file size). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "amd_asm.h"
#include "codebuf.h"
#include "parse_int.h"

enum section { SEC_TEXT, SEC_RODATA, SEC_OTHER };

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
	struct amd_codebuf code; /* .text with its labels and pending branches */
	uint8_t *rodata;
	size_t nrodata, caprodata;
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
	if (r->sec == SEC_TEXT) {
		amd_codebuf_emit_bytes(&r->code, p, n);
		return;
	}
	uint8_t **buf = &r->rodata;
	size_t *len = &r->nrodata, *cap = &r->caprodata;
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

static struct amd_cb_label *find_label(struct reader *r, const char *name, size_t len)
{
	return amd_codebuf_label(&r->code, name, len);
}

/* Label resolution for the instruction parser: pc is the branch's offset. */
static bool resolve_label(void *ctx, const char *name, size_t len, uint32_t *field)
{
	struct reader *r = ctx;
	struct amd_cb_site site = {.line = r->line,
	                           .col = (unsigned)(name - r->line_text) + 1,
	                           .line_text = r->line_text,
	                           .line_len = r->line_len};
	return amd_codebuf_branch(&r->code, r->code.size, name, len, &site, field) !=
	       AMD_CB_OUT_OF_RANGE;
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

static void add_label(struct reader *r, const char *name, size_t len)
{
	if (find_label(r, name, len)) {
		rerr(r, name, "label '%.*s' defined twice", name, (int)len);
		return;
	}
	if (r->sec != SEC_TEXT)
		return; /* data symbols (e.g. __oclc_ABI_version) are not branch targets */
	amd_codebuf_define(&r->code, name, len);
}

static void pad_text(struct reader *r, unsigned align_log2, uint32_t word)
{
	amd_codebuf_pad(&r->code, align_log2, word);
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
	if (word_is(p, dn, ".text")) {
		r->sec = SEC_TEXT;
	} else if (word_is(p, dn, ".rodata")) {
		r->sec = SEC_RODATA;
	} else if (word_is(p, dn, ".section")) {
		const char *ne = arg;
		while (ne < end && *ne != ',' && !isspace((unsigned char)*ne))
			ne++;
		r->sec = word_is(arg, (size_t)(ne - arg), ".text")     ? SEC_TEXT
		         : word_is(arg, (size_t)(ne - arg), ".rodata") ? SEC_RODATA
		                                                       : SEC_OTHER;
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
			rerr(r, arg, "expected a number%.*s", "", 0);
			return;
		}
		uint8_t b[8];
		for (size_t i = 0; i < size; i++)
			b[i] = (uint8_t)((uint64_t)v >> (8 * i));
		if (r->sec == SEC_RODATA)
			emit_bytes(r, b, size);
	} else if (word_is(p, dn, ".type")) {
		const char *ne = symbol_end(arg, end);
		if (ne < end && strstr(ne, "@function")) {
			struct amd_cb_label *l = find_label(r, arg, (size_t)(ne - arg));
			if (l)
				l->is_function = true;
		}
	} else if (word_is(p, dn, ".size")) {
		/* ".size NAME, END-NAME" gives a kernel's code size */
		const char *ne = symbol_end(arg, end), *c = skip_ws(ne, end);
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
	} else if (word_is(p, dn, ".globl") || word_is(p, dn, ".global") ||
	           word_is(p, dn, ".protected") || word_is(p, dn, ".hidden") ||
	           word_is(p, dn, ".weak") || word_is(p, dn, ".ident") ||
	           word_is(p, dn, ".addrsig") || word_is(p, dn, ".addrsig_sym") ||
	           word_is(p, dn, ".amdgpu_hsa_kernel")) {
		/* symbol visibility and identification: the code object writer decides */
	} else {
		rerr(r, p, "unsupported directive '%.*s'", p, (int)dn);
	}
}

static void instruction(struct reader *r, const char *p, const char *end)
{
	struct amd_inst in;
	char err[200];
	unsigned col = 0;
	uint32_t w[4];
	if (r->sec != SEC_TEXT) {
		rerr(r, p, "instruction outside .text%.*s", "", 0);
		return;
	}
	if (!amd_parse_inst_ex(r->t, p, (size_t)(end - p), &in, err, sizeof err, &col,
	                       resolve_label, r)) {
		rerr(r, p + (col ? col - 1 : 0), "%.*s", err, (int)strlen(err));
		return;
	}
	unsigned n = amd_encode(r->t, &in, w, err, sizeof err);
	if (!n) {
		rerr(r, p, "cannot encode: %.*s", err, (int)strlen(err));
		return;
	}
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

/* A forward branch amd_codebuf_resolve could not patch. */
static void report_fixup(void *ctx, const struct amd_cb_fixup *f, const char *msg)
{
	struct reader *r = ctx;
	r->line = f->site.line, r->line_text = f->site.line_text, r->line_len = f->site.line_len;
	if (!strcmp(msg, "undefined label"))
		rerr(r, f->name, "undefined label '%.*s'", f->name, (int)f->len);
	else
		rerr(r, f->name, "branch target '%.*s' out of range", f->name, (int)f->len);
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
		struct amd_cb_label *start = find_label(r, k->name, strlen(k->name));
		if (!start) {
			r->line = 0;
			pa_diag_report(r->diag, PA_DIAG_ERROR, r->file, 0, 0, NULL, 0,
			               "kernel '%s' has no code label in .text", k->name);
			continue;
		}
		size_t stop = m->text_size;
		struct amd_cb_label *endl =
		        ks->end_label ? find_label(r, ks->end_label, ks->end_label_len) : NULL;
		if (endl && endl->offset >= start->offset) {
			stop = endl->offset;
		} else {
			for (unsigned j = 0; j < r->code.nlabels; j++)
				if (r->code.labels[j].is_function &&
				    r->code.labels[j].offset > start->offset &&
				    r->code.labels[j].offset < stop)
					stop = r->code.labels[j].offset;
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

bool amd_asm_read(const struct amd_target *t, const char *file, const char *text, size_t len,
                  struct pa_arena *arena, struct pa_diag *diag, struct amd_asm_module *out)
{
	struct reader r = {
	        .t = t, .file = file, .arena = arena, .diag = diag, .out = out, .sec = SEC_TEXT};
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
	amd_codebuf_resolve(&r.code, report_fixup, &r);
	out->text = PA_NEW_ARRAY(arena, uint8_t, r.code.size ? r.code.size : 1);
	memcpy(out->text, r.code.bytes ? r.code.bytes : (uint8_t *)"", r.code.size);
	out->text_size = r.code.size;
	out->rodata = PA_NEW_ARRAY(arena, uint8_t, r.nrodata ? r.nrodata : 1);
	memcpy(out->rodata, r.rodata ? r.rodata : (uint8_t *)"", r.nrodata);
	out->rodata_size = r.nrodata;
	finish_kernels(&r);
	for (unsigned i = 0; i < r.nkernels; i++)
		free(r.kernels[i].fields);
	amd_codebuf_free(&r.code);
	free(r.rodata);
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
