/* Diagnostic sink: formats clang-style messages with a source excerpt and caret; a warning
 * printed once is not printed again at the same place (warned_before). */
#include <string.h>

#include "diag.h"

void pa_diag_init(struct pa_diag *d, FILE *out)
{
	*d = (struct pa_diag){.out = out, .max_errors = 50};
}

bool pa_diag_too_many(const struct pa_diag *d)
{
	return d->max_errors && d->nerrors >= d->max_errors;
}

bool pa_diag_failed(const struct pa_diag *d)
{
	return d->nerrors > 0;
}

/* Echoes the source line, tabs kept so the caret lines up in a terminal; control
 * bytes and bytes of a binary input are shown as '?' so garbage cannot corrupt the
 * terminal.  Very long lines are cut around the column. */
static void print_excerpt(FILE *out, const char *text, size_t len, unsigned col)
{
	enum { WIDTH = 160 };
	size_t start = 0, caret = col ? col - 1 : 0;
	if (caret > len)
		caret = len;
	if (len > WIDTH && caret > WIDTH / 2)
		start = caret - WIDTH / 2;
	size_t end = start + WIDTH < len ? start + WIDTH : len;
	fputs(start ? "..." : "", out);
	for (size_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)text[i];
		fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', out);
	}
	fputs(end < len ? "...\n" : "\n", out);
	fputs(start ? "   " : "", out);
	for (size_t i = start; i < caret; i++)
		fputc(text[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
	return h;
}

/* Whether this warning was printed before (then not again); remembers it otherwise.  An
 * open-addressed table of hashes, kept at most 3/4 full (beyond: no more remembered). */
static bool warned_before(struct pa_diag *d, const char *file, unsigned line, unsigned col,
                          const char *fmt, va_list ap)
{
	enum { N = sizeof d->warned / sizeof d->warned[0] };
	if (!file || !line)
		return false;
	char msg[512];
	va_list copy;
	va_copy(copy, ap);
	vsnprintf(msg, sizeof msg, fmt, copy);
	va_end(copy);
	uint64_t h = fnv(14695981039346656037ull, file, strlen(file));
	unsigned pos[2] = {line, col};
	h = fnv(fnv(h, pos, sizeof pos), msg, strlen(msg)) | 1;
	for (unsigned i = (unsigned)(h % N);; i = (i + 1) % N) {
		if (d->warned[i] == h)
			return true;
		if (!d->warned[i]) {
			if (d->nwarned >= N * 3 / 4)
				return false;
			d->warned[i] = h;
			d->nwarned++;
			return false;
		}
	}
}

void pa_diag_vreport(struct pa_diag *d, enum pa_diag_level level, const char *file, unsigned line,
                     unsigned col, const char *line_text, size_t line_len, const char *fmt,
                     va_list ap)
{
	if (level == PA_DIAG_WARNING) {
		if (d->warnings_off || warned_before(d, file, line, col, fmt, ap))
			return;
		if (d->warnings_error)
			level = PA_DIAG_ERROR;
		else
			d->nwarnings++;
	}
	if (level == PA_DIAG_ERROR) {
		if (pa_diag_too_many(d)) {
			d->nerrors++;
			if (!d->limit_reported && d->out) {
				fprintf(d->out, "fatal: too many errors emitted, stopping now\n");
				d->limit_reported = true;
			}
			return;
		}
		d->nerrors++;
	}
	if (!d->out)
		return; /* a quiet sink: counts only (a compiler trying an alternative) */
	static const char *const names[] = {"note", "warning", "error"};
	if (file && line)
		fprintf(d->out, "%s:%u:%u: ", file, line, col);
	else if (file)
		fprintf(d->out, "%s: ", file);
	fprintf(d->out, "%s: ", names[level]);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	if (line_text)
		print_excerpt(d->out, line_text, line_len, col);
}

void pa_diag_report(struct pa_diag *d, enum pa_diag_level level, const char *file, unsigned line,
                    unsigned col, const char *line_text, size_t line_len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pa_diag_vreport(d, level, file, line, col, line_text, line_len, fmt, ap);
	va_end(ap);
}
