/* ptx_parse_check: a tiny driver for the parser tests (independent of the CLI).
 *
 *   ptx_parse_check [--dump-ast] [-o OUT] FILE|-
 *   ptx_parse_check --batch [--dump-dir DIR] FILE...
 *
 * Parses FILE with ptx_parse_stream, prints diagnostics to stderr, the normalized
 * module to stdout (or OUT) with --dump-ast.  Exit status 0 when the input has no
 * errors, 1 otherwise, 2 on a usage error.
 *
 * --batch checks many files in one process (the conformance test): for each file it
 * prints `== FILE`, the file's diagnostics, then `=> VERDICT FILE` on stdout, where
 * VERDICT is accept, reject, or unstable (accepted, but the dump does not parse back
 * to itself).  With --dump-dir, the dump of each accepted file is written to DIR under
 * the file's base name.  Exit status 0 unless a file could not be opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

/* Parses `in` with diagnostics into `diag_out`; the dump into *dump (malloc'd) when asked. */
static bool parse_to(FILE *in, const char *name, FILE *diag_out, char **dump, size_t *dump_len)
{
	FILE *out = dump ? open_memstream(dump, dump_len) : NULL;
	struct pa_diag diag;
	pa_diag_init(&diag, diag_out);
	struct ptx_parse_options opts = {.filename = name, .diag = &diag, .dump_out = out};
	bool ok = ptx_parse_stream(in, &opts);
	if (out)
		fclose(out);
	return ok && !pa_diag_failed(&diag);
}

static void write_dump(const char *dir, const char *path, const char *text, size_t len)
{
	const char *base = strrchr(path, '/');
	char out[4096];
	snprintf(out, sizeof out, "%s/%s", dir, base ? base + 1 : path);
	FILE *f = fopen(out, "wb");
	if (!f) {
		perror(out);
		return;
	}
	fwrite(text, 1, len, f);
	fclose(f);
}

/* One file of --batch: parse, dump, reparse the dump, compare the two dumps. */
static const char *batch_one(const char *path, const char *dump_dir)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return NULL;
	char *d1 = NULL, *d2 = NULL;
	size_t n1 = 0, n2 = 0;
	bool ok = parse_to(in, path, stdout, &d1, &n1);
	fclose(in);
	const char *verdict = ok ? "accept" : "reject";
	if (ok) {
		FILE *again = fmemopen(d1, n1, "rb");
		bool ok2 = again && parse_to(again, "<dump>", stdout, &d2, &n2);
		if (again)
			fclose(again);
		if (!ok2 || n1 != n2 || memcmp(d1, d2, n1))
			verdict = "unstable";
		if (dump_dir)
			write_dump(dump_dir, path, d1, n1);
	}
	free(d1);
	free(d2);
	return verdict;
}

static int batch(int nfiles, char **files)
{
	int status = 0;
	const char *dump_dir = NULL;
	if (nfiles >= 2 && !strcmp(files[0], "--dump-dir")) {
		dump_dir = files[1];
		files += 2;
		nfiles -= 2;
	}
	for (int i = 0; i < nfiles; i++) {
		/* the verdict line first, then this file's diagnostics */
		printf("== %s\n", files[i]);
		fflush(stdout);
		const char *verdict = batch_one(files[i], dump_dir);
		if (!verdict) {
			perror(files[i]);
			status = 2;
			continue;
		}
		printf("=> %s %s\n", verdict, files[i]);
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--batch"))
		return batch(argc - 2, argv + 2);
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
