/* Diagnostics in clang's style:
 *
 *   kernel.ptx:12:9: error: undefined identifier '%r9'
 *       add.s32 %r1, %r9, 1;
 *                    ^
 *
 * Every stage that reads user input (PTX, AMDGPU assembly) reports through one
 * struct pa_diag, which counts errors and warnings and applies -w / -Werror.
 * The caller passes the text of the offending source line, so the sink needs no
 * access to the whole input (the PTX parser streams its input). */
#ifndef PA_DIAG_H
#define PA_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pa_diag_level { PA_DIAG_NOTE, PA_DIAG_WARNING, PA_DIAG_ERROR };

struct pa_diag {
	FILE *out;           /* where messages go (stderr in the CLI); NULL: count only */
	bool warnings_off;   /* -w: drop warnings */
	bool warnings_error; /* -Werror: warnings count and print as errors */
	unsigned max_errors; /* stop printing after this many errors (0 = no limit) */
	unsigned nerrors;
	unsigned nwarnings;
	bool limit_reported; /* the "too many errors" note was printed */
	/* warnings printed, by a hash of file, line, column and message: one printed once
	 * (code inlined at several calls, a function inlined into several kernels) */
	uint64_t warned[256];
	unsigned nwarned;
};

void pa_diag_init(struct pa_diag *d, FILE *out);

/* Reports one message.  `file` may be NULL (then no location prefix); line and col
 * are 1-based, col counts bytes; line 0 means "no line".  `line_text` (not NUL
 * terminated, `line_len` bytes, without the newline) is echoed with a caret under
 * `col` when non-NULL. */
void pa_diag_report(struct pa_diag *d, enum pa_diag_level level, const char *file, unsigned line,
                    unsigned col, const char *line_text, size_t line_len, const char *fmt, ...)
        __attribute__((format(printf, 8, 9)));
void pa_diag_vreport(struct pa_diag *d, enum pa_diag_level level, const char *file, unsigned line,
                     unsigned col, const char *line_text, size_t line_len, const char *fmt,
                     va_list ap);

/* True once max_errors errors were reported: a parser should stop recovering. */
bool pa_diag_too_many(const struct pa_diag *d);
/* True if any error (or, under -Werror, any warning) was reported. */
bool pa_diag_failed(const struct pa_diag *d);

#endif
