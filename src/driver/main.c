/* ptxas-amd: the command line.
 *
 * A thin layer over the stage libraries: it parses options the way NVIDIA's ptxas
 * spells them (so muscle memory works), opens the input, and runs the pipeline.
 * Exit status: 0 success, 1 errors in the input, 2 usage errors.  This is the only
 * file of the compiler that may call exit(). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "ptx.h"
#include "target.h"

#define PTXAS_AMD_VERSION "0.1.0"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

struct options {
	const char *input;  /* path, or "-" for stdin */
	const char *output; /* -o */
	const char *gpu_name;
	const char *entry;
	int opt_level;
	long maxrregcount; /* 0 = unlimited */
	bool verbose, no_warn, werror, parse_only, dump_ast, emit_asm, relocatable;
};

static void print_help(FILE *out)
{
	size_t n;
	const struct amd_target_info *t = amd_target_infos(&n);
	fputs("Usage: ptxas-amd [options] FILE.ptx\n"
	      "\n"
	      "Compiles NVIDIA PTX into an AMDGPU code object (.hsaco) that HIP loads with\n"
	      "hipModuleLoad.  FILE '-' reads standard input.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output-file FILE    write the output to FILE (default: FILE with .hsaco)\n"
	      "  --gpu-name, -arch GPU     target processor with optional features, e.g.\n"
	      "                            gfx90a:xnack-:sramecc+ (default gfx90a)\n"
	      "  -O0 .. -O3, --opt-level N optimization level (default 3)\n"
	      "  --maxrregcount N          at most N vector registers per thread\n"
	      "  -e, --entry NAME          compile only the entry function NAME\n"
	      "  -c, --compile-only        write a relocatable object (for linking)\n"
	      "  -S                        print AMDGPU assembly instead of a code object\n"
	      "  --parse-only              parse and check the input, write nothing\n"
	      "  --dump-ast                print the parsed module as normalized PTX\n"
	      "  -v, --verbose             print resource usage per function\n"
	      "  -w, --disable-warnings    suppress warnings\n"
	      "  -Werror, --warning-as-error  treat warnings as errors\n"
	      "  -V, --version             print the version\n"
	      "  -h, --help                print this help\n"
	      "\n"
	      "GPU names:",
	      out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %s", t[i].name);
	fputs("\nFeature suffixes: :xnack+ :xnack- :sramecc+ :sramecc- (gfx90a, gfx942)\n", out);
}

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
	fputs("ptxas-amd: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'ptxas-amd --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

/* Matches "--name VALUE", "--name=VALUE" (and the single-dash spellings ptxas also
 * accepts).  Returns the value or NULL when argv[*i] is not this option. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != 0)
		return NULL;
	if (*i + 1 >= argc)
		usage_error("option '%s' needs a value", arg);
	return argv[++*i];
}

static long parse_count(const char *value, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < 0 || v > INT_MAX)
		usage_error(what, value);
	return v;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	*o = (struct options){.gpu_name = "gfx90a", .opt_level = 3};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help(stdout);
			exit(0);
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("ptxas-amd: PTX to AMDGPU assembler, version " PTXAS_AMD_VERSION
			       "\n");
			exit(0);
		} else if ((v = option_value(argc, argv, &i, "-o")) ||
		           (v = option_value(argc, argv, &i, "--output-file"))) {
			o->output = v;
		} else if ((v = option_value(argc, argv, &i, "--gpu-name")) ||
		           (v = option_value(argc, argv, &i, "-arch")) ||
		           (v = option_value(argc, argv, &i, "--arch"))) {
			o->gpu_name = v;
		} else if ((v = option_value(argc, argv, &i, "--opt-level"))) {
			o->opt_level = (int)parse_count(v, "invalid optimization level '%s'");
			if (o->opt_level > 3)
				usage_error("invalid optimization level '%s' (0 to 3)", v);
		} else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
			o->opt_level = a[2] - '0';
		} else if ((v = option_value(argc, argv, &i, "--maxrregcount")) ||
		           (v = option_value(argc, argv, &i, "-maxrregcount"))) {
			o->maxrregcount = parse_count(v, "invalid register count '%s'");
			if (o->maxrregcount == 0)
				usage_error("invalid register count '%s' (must be at least 1)", v);
		} else if ((v = option_value(argc, argv, &i, "--entry")) ||
		           (v = option_value(argc, argv, &i, "-e"))) {
			o->entry = v;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->verbose = true;
		} else if (!strcmp(a, "-w") || !strcmp(a, "--disable-warnings")) {
			o->no_warn = true;
		} else if (!strcmp(a, "-Werror") || !strcmp(a, "--warning-as-error")) {
			o->werror = true;
		} else if (!strcmp(a, "--parse-only")) {
			o->parse_only = true;
		} else if (!strcmp(a, "--dump-ast")) {
			o->dump_ast = true;
		} else if (!strcmp(a, "-S")) {
			o->emit_asm = true;
		} else if (!strcmp(a, "-c") || !strcmp(a, "--compile-only")) {
			o->relocatable = true;
		} else if (a[0] == '-' && a[1] != 0) {
			usage_error("unknown option '%s'", a);
		} else if (o->input) {
			usage_error("more than one input file ('%s'); ptxas-amd compiles one file",
			            a);
		} else {
			o->input = a;
		}
	}
	if (!o->input)
		usage_error("%s", "no input file");
	if (o->parse_only && o->dump_ast)
		usage_error("%s", "--parse-only and --dump-ast exclude each other");
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* Opens the input; a directory or unreadable file is an input error. */
static FILE *open_input(const char *path)
{
	if (!strcmp(path, "-"))
		return stdin;
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		f = NULL;
	}
	if (!f)
		fprintf(stderr, "ptxas-amd: error: cannot open '%s': %s\n", path, strerror(errno));
	return f;
}

static int run_ptx(const struct options *o, FILE *in, struct pa_diag *diag)
{
	FILE *dump = NULL;
	if (o->dump_ast) {
		dump = o->output ? fopen(o->output, "w") : stdout;
		if (!dump) {
			fprintf(stderr, "ptxas-amd: error: cannot write '%s': %s\n", o->output,
			        strerror(errno));
			return EXIT_INPUT;
		}
	}
	struct ptx_parse_options popts = {
	        .filename = strcmp(o->input, "-") ? o->input : "<stdin>",
	        .diag = diag,
	        .dump_out = dump,
	};
	bool ok = ptx_parse_stream(in, &popts);
	if (dump && dump != stdout && fclose(dump) != 0) {
		fprintf(stderr, "ptxas-amd: error: cannot write '%s'\n", o->output);
		return EXIT_INPUT;
	}
	if (!ok || pa_diag_failed(diag))
		return EXIT_INPUT;
	if (o->parse_only || o->dump_ast)
		return 0;
	fprintf(stderr,
	        "ptxas-amd: error: code generation for %s is not implemented yet "
	        "(this build can only check PTX: use --parse-only or --dump-ast)\n",
	        o->gpu_name);
	return EXIT_INPUT;
}

int main(int argc, char **argv)
{
	struct options o;
	parse_args(argc, argv, &o);

	struct amd_target target;
	char err[256];
	if (!amd_target_parse(o.gpu_name, &target, err, sizeof err)) {
		fprintf(stderr, "ptxas-amd: error: %s\n", err);
		return EXIT_USAGE;
	}

	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	diag.warnings_off = o.no_warn;
	diag.warnings_error = o.werror;

	FILE *in = open_input(o.input);
	if (!in)
		return EXIT_INPUT;
	int status;
	if (has_suffix(o.input, ".s") || has_suffix(o.input, ".S")) {
		fprintf(stderr,
		        "ptxas-amd: error: assembling AMDGPU assembly (%s) is not "
		        "implemented yet\n",
		        o.input);
		status = EXIT_INPUT;
	} else {
		status = run_ptx(&o, in, &diag);
	}
	if (in != stdin)
		fclose(in);
	return status;
}
