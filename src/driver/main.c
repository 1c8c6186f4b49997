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

#include "amd_asm.h"
#include "arena.h"
#include "codeobj.h"
#include "compile.h"
#include "diag.h"
#include "ptx.h"
#include "target.h"

#define PTXAS_AMD_VERSION "0.1.0"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

struct options {
	const char *input;    /* path, or "-" for stdin */
	const char **objects; /* with link: the relocatable objects (*.o) to link */
	int nobjects;
	const char *output;   /* -o */
	const char *gpu_name; /* gfx90a unless given */
	const char *entry;
	int opt_level;
	long maxrregcount;    /* 0 = unlimited */
	long stack_size;      /* --stack-size: per-thread stack bytes for real calls (0: default) */
	unsigned inline_mode; /* --inline-all, --no-inline (enum ir_inline_mode) */
	bool verbose, no_warn, werror, parse_only, dump_ast, emit_asm, relocatable;
	bool dump_ir, dump_mir, dump_sched, time_passes, verify;
	bool gpu_name_given;      /* else assembly and objects name their own target */
	bool no_lanemask_warning; /* -Wno-lanemask (docs/WARP.md) */
	unsigned wave_size;       /* --wavefront-size; 0: the target's default */
	unsigned warp_size;       /* --warp-size; 0: the wave size */
};

static void print_help(FILE *out)
{
	size_t n;
	const struct amd_target_info *t = amd_target_infos(&n);
	fputs("Usage: ptxas-amd [options] FILE.ptx\n"
	      "       ptxas-amd [options] FILE.s        (AMDGPU assembly, LLVM syntax)\n"
	      "       ptxas-amd [options] FILE.o...     (link relocatable objects, needs ROCm "
	      "comgr)\n"
	      "\n"
	      "Compiles NVIDIA PTX into an AMDGPU code object (.hsaco) that HIP loads with\n"
	      "hipModuleLoad.  FILE '-' reads standard input (PTX).  Without --gpu-name, the\n"
	      "target of assembly comes from its .amdgcn_target and that of objects from\n"
	      "their ELF header.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output-file FILE    write the output to FILE (default: FILE with .hsaco)\n"
	      "  --gpu-name, -arch GPU     target processor with optional features, e.g.\n"
	      "                            gfx90a:xnack-:sramecc+ (default gfx90a)\n"
	      "  -O0 .. -O3, --opt-level N optimization level (default 3)\n"
	      "  --maxrregcount N          at most N vector registers per thread\n"
	      "  --stack-size BYTES        per-thread stack of kernels with recursive calls\n"
	      "                            (default 8192; overflow traps)\n"
	      "  --inline-all              inline every call that is not recursive\n"
	      "  --no-inline               compile every called .func on its own (real calls)\n"
	      "                            where real calls support it (default: big functions\n"
	      "                            called from several sites)\n"
	      "  -e, --entry NAME          compile only the entry function NAME\n"
	      "  -c, --compile-only        write a relocatable object (for linking)\n"
	      "  -S                        print AMDGPU assembly instead of a code object\n"
	      "  --parse-only              parse and check the input, write nothing\n"
	      "  --dump-ast                print the parsed module as normalized PTX\n"
	      "  --dump-ir                 print the SSA IR of each kernel (after clean-ups)\n"
	      "  --dump-mir                print the machine IR after instruction selection\n"
	      "  --dump-sched              print the final code with its wait/stall annotations\n"
	      "  --time-passes             print the CPU time of each compiler stage\n"
	      "  --verify                  check the IR and machine IR between passes\n"
	      "  -v, --verbose             print resource usage per function\n"
	      "  -w, --disable-warnings    suppress warnings\n"
	      "  -Werror, --warning-as-error  treat warnings as errors\n"
	      "  -Wno-lanemask             no warning for constant 32-bit lane masks on wave64\n"
	      "  --wavefront-size 32|64    wave size of the code (gfx10+: either; default: the\n"
	      "                            target's, 64 on gfx9, 32 on gfx10+)\n"
	      "  --warp-size 32|64         warp size the PTX sees (default: the wave size); 32\n"
	      "                            on wave64 runs 32-lane warps as wave halves\n"
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

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
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
			o->gpu_name_given = true;
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
		} else if ((v = option_value(argc, argv, &i, "--stack-size"))) {
			o->stack_size = parse_count(v, "invalid stack size '%s'");
			if (o->stack_size < 16 || o->stack_size > (1 << 19))
				usage_error("invalid stack size '%s' (16 to 524288 bytes)", v);
		} else if ((v = option_value(argc, argv, &i, "--entry")) ||
		           (v = option_value(argc, argv, &i, "-e"))) {
			o->entry = v;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->verbose = true;
		} else if (!strcmp(a, "-w") || !strcmp(a, "--disable-warnings")) {
			o->no_warn = true;
		} else if (!strcmp(a, "-Werror") || !strcmp(a, "--warning-as-error")) {
			o->werror = true;
		} else if (!strcmp(a, "-Wno-lanemask")) {
			o->no_lanemask_warning = true;
		} else if ((v = option_value(argc, argv, &i, "--warp-size"))) {
			if (strcmp(v, "32") && strcmp(v, "64"))
				usage_error("invalid warp size '%s' (32 or 64)", v);
			o->warp_size = (unsigned)atoi(v);
		} else if ((v = option_value(argc, argv, &i, "--wavefront-size"))) {
			if (strcmp(v, "32") && strcmp(v, "64"))
				usage_error("invalid wavefront size '%s' (32 or 64)", v);
			o->wave_size = (unsigned)atoi(v);
		} else if (!strcmp(a, "--parse-only")) {
			o->parse_only = true;
		} else if (!strcmp(a, "--dump-ast")) {
			o->dump_ast = true;
		} else if (!strcmp(a, "--dump-ir")) {
			o->dump_ir = true;
		} else if (!strcmp(a, "--dump-mir")) {
			o->dump_mir = true;
		} else if (!strcmp(a, "--inline-all")) {
			o->inline_mode = 1; /* IR_INLINE_ALL */
		} else if (!strcmp(a, "--no-inline")) {
			o->inline_mode = 2; /* IR_INLINE_NONE */
		} else if (!strcmp(a, "--dump-sched")) {
			o->dump_sched = true;
		} else if (!strcmp(a, "--time-passes")) {
			o->time_passes = true;
		} else if (!strcmp(a, "--verify")) {
			o->verify = true;
		} else if (!strcmp(a, "-S")) {
			o->emit_asm = true;
		} else if (!strcmp(a, "-c") || !strcmp(a, "--compile-only")) {
			o->relocatable = true;
		} else if (a[0] == '-' && a[1] != 0) {
			usage_error("unknown option '%s'", a);
		} else if (has_suffix(a, ".o")) {
			if (!o->objects)
				o->objects = pa_xcalloc((size_t)argc, sizeof *o->objects);
			o->objects[o->nobjects++] = a;
			o->input = o->input ? o->input : a;
		} else if (o->input) {
			usage_error("more than one input file ('%s'); ptxas-amd compiles one file",
			            a);
		} else {
			o->input = a;
		}
	}
	if (o->nobjects && o->input != o->objects[0])
		usage_error("cannot mix relocatable objects with source input ('%s')", o->input);
	if (!o->input)
		usage_error("%s", "no input file");
	if (o->parse_only && o->dump_ast)
		usage_error("%s", "--parse-only and --dump-ast exclude each other");
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

static bool is_nvidia_arch(const char *name)
{
	return !strncmp(name, "sm_", 3) || !strncmp(name, "compute_", 8) ||
	       !strncmp(name, "lto_", 4);
}

/* Parses a --gpu-name value; on failure says why (for NVIDIA names: which GPUs are
 * ours) and returns false. */
static bool parse_gpu_name(const char *name, struct amd_target *target)
{
	char err[256];
	if (is_nvidia_arch(name)) {
		size_t n;
		const struct amd_target_info *t = amd_target_infos(&n);
		fprintf(stderr,
		        "ptxas-amd: error: '%s' is an NVIDIA GPU architecture; ptxas-amd compiles "
		        "for AMD GPUs: --gpu-name",
		        name);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "%s %s", i ? "," : "", t[i].name);
		fputs("\n", stderr);
		return false;
	}
	if (!amd_target_parse(name, target, err, sizeof err)) {
		fprintf(stderr, "ptxas-amd: error: %s\n", err);
		return false;
	}
	return true;
}

/* --entry NAME: the entries the module defines, to check NAME against. */
struct entry_search {
	const char *want;
	bool found;
	char seen[512]; /* "a, b, c" (cut short when long) */
};

static void note_entry(void *user, const struct ptx_function *fn, const struct ptx_module_state *m)
{
	struct entry_search *es = user;
	const struct ptx_symbol *sym = fn->sym;
	if (!sym->func || !sym->func->is_entry)
		return;
	if (strlen(es->want) == sym->name_len && !memcmp(es->want, sym->name, sym->name_len))
		es->found = true;
	size_t used = strlen(es->seen);
	if (used + sym->name_len + 8 < sizeof es->seen)
		snprintf(es->seen + used, sizeof es->seen - used, "%s%.*s", used ? ", " : "",
		         (int)sym->name_len, sym->name);
	else if (!strstr(es->seen, ", ..."))
		snprintf(es->seen + used, sizeof es->seen - used, ", ...");
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
	struct entry_search es = {.want = o->entry};
	if (o->entry) {
		popts.on_function = note_entry;
		popts.user = &es;
	}
	bool ok = ptx_parse_stream(in, &popts);
	if (dump && dump != stdout && fclose(dump) != 0) {
		fprintf(stderr, "ptxas-amd: error: cannot write '%s'\n", o->output);
		return EXIT_INPUT;
	}
	if (!ok || pa_diag_failed(diag))
		return EXIT_INPUT;
	if (o->entry && !es.found) {
		fprintf(stderr,
		        "ptxas-amd: error: --entry %s: %s defines no entry of that name (%s%s)\n",
		        o->entry, popts.filename, es.seen[0] ? "entries: " : "it has no entries",
		        es.seen);
		return EXIT_INPUT;
	}
	if (o->parse_only || o->dump_ast)
		return 0;
	return EXIT_INPUT; /* not reached: compile_ptx handles code generation */
}

static const char *output_path(const struct options *o, char *buf, size_t len);
static bool write_file(const char *path, const struct co_buffer *b);

/* Code generation: PTX -> code object (or -S assembly, or dumps only). */
static int compile_ptx(const struct options *o, const struct amd_target *target, FILE *in,
                       struct pa_diag *diag)
{
	bool dumps_only = o->dump_ir || o->dump_mir || o->dump_sched;
	struct pa_compile_options co = {
	        .filename = strcmp(o->input, "-") ? o->input : "<stdin>",
	        .target = *target,
	        .entry = o->entry,
	        .maxrregcount = o->maxrregcount,
	        .stack_size = (uint32_t)o->stack_size,
	        .inline_mode = o->inline_mode,
	        .opt_level = o->opt_level,
	        .dump_ir = o->dump_ir ? stdout : NULL,
	        .dump_mir = o->dump_mir ? stdout : NULL,
	        .dump_sched = o->dump_sched ? stdout : NULL,
	        .info = o->verbose ? stderr : NULL,
	        .time_passes = o->time_passes ? stderr : NULL,
	        .verify = o->verify,
	        .no_lanemask_warning = o->no_lanemask_warning,
	        .warp_size = o->warp_size,
	        .relocatable = o->relocatable,
	};
	FILE *asm_file = NULL;
	if (o->emit_asm) {
		asm_file = o->output && strcmp(o->output, "-") ? fopen(o->output, "w") : stdout;
		if (!asm_file) {
			fprintf(stderr, "ptxas-amd: error: cannot write '%s': %s\n", o->output,
			        strerror(errno));
			return EXIT_INPUT;
		}
		co.asm_out = asm_file;
	}
	struct co_buffer out = {0};
	bool want_object = !o->emit_asm && !dumps_only;
	bool ok = pa_compile_ptx(in, &co, want_object ? &out : NULL, diag);
	if (asm_file && asm_file != stdout && fclose(asm_file) != 0)
		ok = false;
	if (ok && want_object) {
		char buf[4096];
		const char *path = output_path(o, buf, sizeof buf);
		ok = write_file(path, &out);
	}
	co_buffer_free(&out);
	return ok ? 0 : EXIT_INPUT;
}

/* Reads all of `in` into a malloc'd buffer (assembly files are read whole: the reader
 * resolves forward branches at the end). */
static char *read_all(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = pa_xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, in)) > 0) {
		n += got;
		if (n == cap)
			buf = pa_xrealloc(buf, cap *= 2);
	}
	*len = n;
	return buf;
}

/* Default output name: the input with its extension replaced, as ptxas does. */
static const char *output_path(const struct options *o, char *buf, size_t len)
{
	if (o->output)
		return o->output;
	const char *base = strcmp(o->input, "-") ? strrchr(o->input, '/') : NULL;
	base = base ? base + 1 : strcmp(o->input, "-") ? o->input : "out.s";
	const char *dot = strrchr(base, '.');
	int stem = dot ? (int)(dot - base) : (int)strlen(base);
	snprintf(buf, len, "%.*s.%s", stem, base, o->relocatable ? "o" : "hsaco");
	if (!strcmp(buf, o->input)) /* never overwrite the input (linking a.o -> a.hsaco) */
		snprintf(buf, len, "a.hsaco");
	return buf;
}

static bool write_file(const char *path, const struct co_buffer *b)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(b->data, 1, b->size, f) == b->size;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "ptxas-amd: error: cannot write '%s': %s\n", path, strerror(errno));
		remove(path);
	}
	return ok;
}

/* -v: one ptxas-style line per kernel, and which path made the code object. */
static void print_resources(const struct co_module *m, enum co_path path, struct pa_diag *diag)
{
	unsigned cov = m->code_object_version ? m->code_object_version : 5;
	for (size_t i = 0; i < m->nkernels; i++) {
		struct co_descriptor desc;
		char line[256];
		if (!co_compute_descriptor(&m->target, cov, &m->kernels[i], &desc, diag))
			continue;
		co_kernel_stats_line(&m->target, &m->kernels[i], &desc, line, sizeof line);
		fprintf(stderr, "%s\n", line);
	}
	fprintf(stderr, "ptxas-amd info    : Code object: %s\n", co_path_name(path));
}

/* Where `.amdgcn_target "ID"` stands in an assembly file. */
struct target_directive {
	const char *id; /* after the quote; id_len bytes */
	size_t id_len;
	const char *line_text;
	size_t line_len;
	unsigned line, col; /* of the opening quote, as llvm-mc reports it */
};

/* Finds the first .amdgcn_target directive (a line starting with it). */
static bool find_target_directive(const char *text, size_t len, struct target_directive *td)
{
	static const char word[] = ".amdgcn_target";
	const char *p = text, *end = text + len;
	for (unsigned line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol ? eol : end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		size_t wl = sizeof word - 1;
		if ((size_t)(eol - q) > wl && !memcmp(q, word, wl) &&
		    (q[wl] == ' ' || q[wl] == '\t')) {
			const char *open = memchr(q, '"', (size_t)(eol - q));
			const char *close =
			        open ? memchr(open + 1, '"', (size_t)(eol - open - 1)) : NULL;
			if (!close)
				return false; /* malformed: the reader reports it */
			*td = (struct target_directive){open + 1, (size_t)(close - open - 1),
			                                p,        (size_t)(eol - p),
			                                line,     (unsigned)(open - p + 1)};
			return true;
		}
		p = eol + 1;
	}
	return false;
}

/* The target of an assembly file: --gpu-name, or its .amdgcn_target, or gfx90a.  A
 * --gpu-name that differs from .amdgcn_target is one error, as llvm-mc reports it
 * (instead of one error per instruction the wrong target lacks). */
static bool asm_target(const struct options *o, const char *file, const char *text, size_t len,
                       struct amd_target *target, struct pa_diag *diag)
{
	struct target_directive td;
	bool has_directive = find_target_directive(text, len, &td);
	if (o->gpu_name_given || !has_directive)
		return parse_gpu_name(o->gpu_name, target);
	static const char prefix[] = "amdgcn-amd-amdhsa--";
	char id[128], err[256];
	snprintf(id, sizeof id, "%.*s", (int)td.id_len, td.id);
	const char *processor =
	        strncmp(id, prefix, sizeof prefix - 1) ? id : id + sizeof prefix - 1;
	if (!amd_target_parse(processor, target, err, sizeof err)) {
		pa_diag_report(diag, PA_DIAG_ERROR, file, td.line, td.col, td.line_text,
		               td.line_len, ".amdgcn_target: %s (give --gpu-name)", err);
		return false;
	}
	return true;
}

static bool check_target_directive(const struct amd_target *target, const char *file,
                                   const char *text, size_t len, struct pa_diag *diag)
{
	struct target_directive td;
	char want[128];
	amd_target_id_string(target, want, sizeof want);
	if (!find_target_directive(text, len, &td))
		return true;
	struct amd_target given;
	char id[128], canonical[128], err[256];
	snprintf(id, sizeof id, "%.*s", (int)td.id_len, td.id);
	const char *processor = strncmp(id, "amdgcn-amd-amdhsa--", 19) ? NULL : id + 19;
	if (processor && amd_target_parse(processor, &given, err, sizeof err)) {
		amd_target_id_string(&given, canonical, sizeof canonical);
		if (!strcmp(canonical, want))
			return true;
	}
	pa_diag_report(diag, PA_DIAG_ERROR, file, td.line, td.col, td.line_text, td.line_len,
	               ".amdgcn_target directive's target id %s does not match the specified "
	               "target id %s",
	               id, want);
	return false;
}

/* AMDGPU assembly (LLVM syntax) -> code object. */
static int run_asm(const struct options *o, FILE *in, struct pa_diag *diag)
{
	const char *file = strcmp(o->input, "-") ? o->input : "<stdin>";
	if (o->parse_only || o->dump_ast || o->emit_asm) {
		fprintf(stderr, "ptxas-amd: error: %s applies to PTX input, not to assembly\n",
		        o->parse_only ? "--parse-only"
		        : o->dump_ast ? "--dump-ast"
		                      : "-S");
		return EXIT_USAGE;
	}
	size_t len;
	char *text = read_all(in, &len);
	struct amd_target target_storage, *target = &target_storage;
	if (!asm_target(o, file, text, len, target, diag)) {
		free(text);
		return o->gpu_name_given ? EXIT_USAGE : EXIT_INPUT;
	}
	if (!check_target_directive(target, file, text, len, diag)) {
		free(text);
		return EXIT_INPUT;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct amd_asm_module am;
	struct co_module m;
	struct co_buffer out = {0};
	enum co_path path = CO_PATH_BUILTIN;
	char name[4096];
	bool ok = amd_asm_read(target, file, text, len, &arena, diag, &am) &&
	          co_module_from_asm(target, &am, file, &arena, &m, diag);
	if (ok && am.nkernels == 0) {
		fprintf(stderr, "%s: error: no kernel (.amdhsa_kernel block) in the input\n", file);
		ok = false;
	}
	if (ok)
		ok = o->relocatable ? co_write_relocatable(&m, &out, diag)
		                    : co_emit_executable(&m, false, &out, &path, diag);
	if (ok && !pa_diag_failed(diag))
		ok = write_file(output_path(o, name, sizeof name), &out);
	if (ok && o->verbose)
		print_resources(&m, path, diag);
	co_buffer_free(&out);
	pa_arena_free(&arena);
	free(text);
	return ok && !pa_diag_failed(diag) ? 0 : EXIT_INPUT;
}

/* Links relocatable code objects (ptxas-amd -c output) into an executable through ROCm
 * comgr, the linker HIP's own toolchain uses. */
/* The target of a link: all objects must be for one processor, and --gpu-name (when
 * given) must name it; without --gpu-name the first object's target ID is taken. */
static bool link_target(const struct options *o, const struct co_buffer *objs,
                        struct amd_target *target)
{
	struct amd_target first = {0};
	for (int i = 0; i < o->nobjects; i++) {
		struct amd_target t;
		if (!co_relocatable_processor(&objs[i]) || !co_object_target(&objs[i], &t)) {
			fprintf(stderr,
			        "ptxas-amd: error: '%s' is not an AMDGPU relocatable object for "
			        "a known processor (make one with ptxas-amd -c)\n",
			        o->objects[i]);
			return false;
		}
		if (i == 0) {
			first = t;
		} else if (t.info != first.info) {
			fprintf(stderr,
			        "ptxas-amd: error: cannot link objects for different targets: '%s' "
			        "is "
			        "for %s, '%s' is for %s\n",
			        o->objects[0], first.info->name, o->objects[i], t.info->name);
			return false;
		}
	}
	if (!o->gpu_name_given) {
		*target = first;
		return true;
	}
	if (!parse_gpu_name(o->gpu_name, target))
		return false;
	if (target->info != first.info) {
		fprintf(stderr, "ptxas-amd: error: '%s' is for %s, not for --gpu-name %s\n",
		        o->objects[0], first.info->name, o->gpu_name);
		return false;
	}
	return true;
}

static int run_link(const struct options *o, struct pa_diag *diag)
{
	struct co_buffer *objs = pa_xcalloc((size_t)o->nobjects, sizeof *objs);
	struct co_buffer out = {0};
	struct amd_target target_storage, *target = &target_storage;
	bool ok = true;
	for (int i = 0; i < o->nobjects && ok; i++) {
		FILE *f = open_input(o->objects[i]);
		if (!f) {
			ok = false;
			break;
		}
		objs[i].data = (uint8_t *)read_all(f, &objs[i].size);
		fclose(f);
	}
	char name[4096];
	ok = ok && link_target(o, objs, target);
	ok = ok && co_link(target, objs, (size_t)o->nobjects, &out, diag) &&
	     write_file(output_path(o, name, sizeof name), &out);
	if (ok && o->verbose)
		fprintf(stderr, "ptxas-amd info    : Code object: %s\n",
		        co_path_name(CO_PATH_COMGR));
	for (int i = 0; i < o->nobjects; i++)
		free(objs[i].data);
	free(objs);
	co_buffer_free(&out);
	return ok ? 0 : EXIT_INPUT;
}

int main(int argc, char **argv)
{
	struct options o;
	parse_args(argc, argv, &o);

	struct amd_target target;
	if (!parse_gpu_name(o.gpu_name, &target))
		return EXIT_USAGE;
	if (o.wave_size) {
		bool ok = o.wave_size == 64 ? target.info->supports_wave64
		                            : target.info->supports_wave32;
		if (!ok)
			usage_error("%s does not run code of that wavefront size",
			            target.info->name);
		target.wave_size = o.wave_size;
	}
	if (o.warp_size > target.wave_size)
		usage_error("%s", "--warp-size 64 needs wave64 code (--wavefront-size 64)");

	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	diag.warnings_off = o.no_warn;
	diag.warnings_error = o.werror;

	if (o.nobjects) {
		if (o.relocatable || o.parse_only || o.dump_ast || o.emit_asm)
			usage_error("%s", "relocatable objects can only be linked (no -c, -S, "
			                  "--parse-only or --dump-ast)");
		int link_status = run_link(&o, &diag);
		free((void *)o.objects);
		return link_status;
	}
	FILE *in = open_input(o.input);
	if (!in)
		return EXIT_INPUT;
	int status;
	if (has_suffix(o.input, ".s") || has_suffix(o.input, ".S")) {
		status = run_asm(&o, in, &diag);
	} else if (o.parse_only || o.dump_ast) {
		status = run_ptx(&o, in, &diag);
	} else {
		status = compile_ptx(&o, &target, in, &diag);
	}
	if (in != stdin)
		fclose(in);
	return status;
}
