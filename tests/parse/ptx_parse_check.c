/* ptx_parse_check: a tiny driver for the parser tests (independent of the CLI).
 *
 *   ptx_parse_check [--dump-ast] [-o OUT] FILE|-
 *
 * Parses FILE with ptx_parse_stream, prints diagnostics to stderr, the normalized
 * module to stdout (or OUT) with --dump-ast.  Exit status 0 when the input has no
 * errors, 1 otherwise, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

int main(int argc, char **argv)
{
	const char *path = NULL, *out_path = NULL;
	bool dump = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dump-ast"))
			dump = true;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out_path = argv[++i];
		else if (!path)
			path = argv[i];
		else
			path = NULL, i = argc;
	}
	if (!path) {
		fprintf(stderr, "usage: ptx_parse_check [--dump-ast] [-o OUT] FILE|-\n");
		return 2;
	}
	FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!in) {
		perror(path);
		return 2;
	}
	FILE *out = NULL;
	if (dump) {
		out = out_path ? fopen(out_path, "w") : stdout;
		if (!out) {
			perror(out_path);
			return 2;
		}
	}
	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	struct ptx_parse_options opts = {.filename = path, .diag = &diag, .dump_out = out};
	bool ok = ptx_parse_stream(in, &opts);
	if (out && out != stdout)
		fclose(out);
	if (in != stdin)
		fclose(in);
	return ok && !pa_diag_failed(&diag) ? 0 : 1;
}
