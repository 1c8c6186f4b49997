/* ptxas-amd: the command line.
 *
 * A thin layer over the compiler library (libptxas-amd: the same objects the shared
 * library is built from): options are parsed by the parser the library API uses
 * (options.c), then this file opens the input and runs the pipeline -- streaming one
 * GPU's compile from the file, or for a --gpu-name list compiling the text in memory on
 * threads and writing a clang offload bundle (job.c).  Exit status: 0 success, 1 errors
 * in the input, 2 usage errors.  This is the only file of the compiler that may call
 * exit(). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "amd_asm.h"
#include "arena.h"
#include "codeobj.h"
#include "compile.h"
#include "diag.h"
#include "job.h"
#include "options.h"
#include "ptx.h"
#include "target.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

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
	      "                            gfx90a:xnack-:sramecc+ (default gfx90a); a list\n"
	      "                            GPU,GPU,... compiles PTX for each (in parallel)\n"
	      "                            into one clang offload bundle (default FILE.hipfb)\n"
	      "  -O0 .. -O3, --opt-level N optimization level (default 3)\n"
	      "  --maxrregcount N          at most N vector registers per thread\n"
	      "  --stack-size BYTES        per-thread stack of kernels with recursive calls\n"
	      "                            (default 8192; overflow traps)\n"
	      "  --inline-all              inline every call that is not recursive\n"
	      "  --no-inline               compile every called .func on its own (real calls)\n"
	      "                            where real calls support it (default: big functions\n"
	      "                            called from several sites)\n"
	      "  -j, --threads N, --split-compile N\n"
	      "                            compile the module's kernels on N threads (default\n"
	      "                            1; 0: one per core); the output is the same for any N\n"
	      "  -e, --entry NAME          compile only the entry function NAME\n"
	      "  -c, --compile-only        write a relocatable object (for linking)\n"
	      "  -lineinfo, --generate-line-info, -g, --device-debug\n"
	      "                            DWARF line table (.debug_line) from the PTX .file/.loc\n"
	      "                            (the PTX lines when it has none); code unchanged\n"
	      "  -S                        print AMDGPU assembly instead of a code object\n"
	      "  --parse-only              parse and check the input, write nothing\n"
	      "  --dump-ast                print the parsed module as normalized PTX\n"
	      "  --dump-ir                 print the SSA IR of each kernel (after clean-ups)\n"
	      "  --dump-mir                print the machine IR after instruction selection\n"
	      "  --dump-sched              print the final code with its wait/stall annotations\n"
	      "  --time-passes             print the CPU time of each compiler stage\n"
	      "  --verify                  check the IR and machine IR between passes\n"
	      "  -v, --verbose             print resource usage per function\n"
	      "  --input-name NAME         the file name diagnostics print (default: FILE)\n"
	      "  -w, --disable-warnings    suppress warnings\n"
	      "  -Werror, --warning-as-error  treat warnings as errors\n"
	      "  -Wno-lanemask             no warning for 32-bit lane mask constants (warp 64)\n"
	      "  --wavefront-size 32|64    wave size of the code (gfx10+: either; default: the\n"
	      "                            target's, 64 on gfx9, 32 on gfx10+)\n"
	      "  --warp-size 32|64         warp size the PTX sees (default 32: on wave64 each\n"
	      "                            half of a wave is a warp); 64: warp = wave64 with\n"
	      "                            64-bit lane masks (needs wave64 code)\n"
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

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* The shared parser (options.c), with the command line's answers: help, version and
 * usage errors end the program here. */
static void parse_args(int argc, char **argv, struct pa_options *o)
{
	char err[512];
	switch (pa_options_parse(argc - 1, (const char *const *)argv + 1, o, err, sizeof err)) {
	case PA_OPTIONS_OK:
		break;
	case PA_OPTIONS_HELP:
		print_help(stdout);
		exit(0);
	case PA_OPTIONS_VERSION:
		printf("ptxas-amd: PTX to AMDGPU assembler, version " PTXAS_AMD_VERSION_STRING
		       "\n");
		exit(0);
	default:
		usage_error("%s", err);
	}
	if (!pa_options_check_inputs(o, err, sizeof err))
		usage_error("%s", err);
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

/* The input's name in diagnostics: --input-name, the path, or <stdin>. */
static const char *input_name(const struct pa_options *o)
{
	return o->input_name ? o->input_name : strcmp(o->input, "-") ? o->input : "<stdin>";
}

/* Parses one GPU name (options.c), saying why not on stderr. */
static bool parse_gpu_name(const char *name, struct amd_target *target)
{
	char err[512];
	if (pa_parse_gpu_name(name, target, err, sizeof err))
		return true;
	fprintf(stderr, "ptxas-amd: error: %s\n", err);
	return false;
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

static int run_ptx(const struct pa_options *o, FILE *in, struct pa_diag *diag)
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
	        .filename = input_name(o),
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

static const char *output_path(const struct pa_options *o, char *buf, size_t len);
static bool write_file(const char *path, const struct co_buffer *b);

/* Code generation: PTX -> code object (or -S assembly, or dumps only). */
static int compile_ptx(const struct pa_options *o, const struct amd_target *target, FILE *in,
                       struct pa_diag *diag)
{
	bool dumps_only = o->dump_ir || o->dump_mir || o->dump_sched;
	struct pa_compile_options co;
	pa_options_compile(o, target, input_name(o), &co);
	co.dump_ir = o->dump_ir ? stdout : NULL;
	co.dump_mir = o->dump_mir ? stdout : NULL;
	co.dump_sched = o->dump_sched ? stdout : NULL;
	co.info = o->verbose ? stderr : NULL;
	co.time_passes = o->time_passes ? stderr : NULL;
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
static const char *output_path(const struct pa_options *o, char *buf, size_t len)
{
	if (o->output)
		return o->output;
	const char *base = strcmp(o->input, "-") ? strrchr(o->input, '/') : NULL;
	base = base ? base + 1 : strcmp(o->input, "-") ? o->input : "out.s";
	const char *dot = strrchr(base, '.');
	int stem = dot ? (int)(dot - base) : (int)strlen(base);
	const char *ext = o->relocatable ? "o" : strchr(o->gpu_name, ',') ? "hipfb" : "hsaco";
	snprintf(buf, len, "%.*s.%s", stem, base, ext);
	if (!strcmp(buf, o->input)) /* never overwrite the input (linking a.o -> a.hsaco) */
		snprintf(buf, len, "a.hsaco");
	return buf;
}

/* Writes the output over the old file in place and then cuts it to the new size, instead of
 * truncating it first (fopen "wb"): on ext4, a file truncated to zero and rewritten is
 * flushed to disk at close (auto_da_alloc) and its freed blocks discarded, about 6% of
 * compiling a small kernel over its previous output; rewriting the same blocks is not.
 * Only a longer old file is cut (an ftruncate to the same size still costs an inode update).
 * The bytes that end up in the file are the same. */
static bool write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static bool write_file(const char *path, const struct co_buffer *b)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	struct stat st;
	bool regular = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode);
	bool ok = fd >= 0 && write_all(fd, b->data, b->size) &&
	          (!regular || st.st_size <= (off_t)b->size || ftruncate(fd, (off_t)b->size) == 0);
	int err = errno;
	if (fd >= 0 && close(fd) != 0) {
		err = ok ? errno : err;
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "ptxas-amd: error: cannot write '%s': %s\n", path, strerror(err));
		/* Only a regular file this call opened holds a partial object worth removing: a
		 * path it could not open may be someone's file, and a device (/dev/null, a pipe)
		 * is not ours to unlink. */
		if (regular)
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
static bool asm_target(const struct pa_options *o, const char *file, const char *text, size_t len,
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
static int run_asm(const struct pa_options *o, FILE *in, struct pa_diag *diag)
{
	const char *file = input_name(o);
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

#ifndef PTXAS_AMD_LINK_HELPER
/* Links relocatable code objects (ptxas-amd -c output) into an executable through ROCm
 * comgr, the linker HIP's own toolchain uses. */
/* The target of a link: all objects must be for one processor, and --gpu-name (when
 * given) must name it; without --gpu-name the first object's target ID is taken. */
static bool link_target(const struct pa_options *o, const struct co_buffer *objs,
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

static int run_link(const struct pa_options *o, struct pa_diag *diag)
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

#else
/* This executable is linked statically (src/driver/meson.build: start-up), and a static
 * program cannot dlopen comgr: linking runs the same command line in PTXAS_AMD_LINK_HELPER,
 * the dynamically linked build of this program, from this executable's directory (the build
 * tree) or else from PTXAS_AMD_LIBEXECDIR (an installed one).  Returns only on failure. */
static int exec_link_helper(char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	const char *slash = NULL;
	if (n > 0) {
		self[n] = 0;
		slash = strrchr(self, '/');
	}
	int err = ENOENT;
	if (slash) {
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - self), self,
		         PTXAS_AMD_LINK_HELPER);
		execv(path, argv);
		err = errno;
	}
	snprintf(path, sizeof path, "%s/%s", PTXAS_AMD_LIBEXECDIR, PTXAS_AMD_LINK_HELPER);
	execv(path, argv);
	if (err == ENOENT)
		err = errno;
	fprintf(stderr,
	        "ptxas-amd: error: linking runs %s (this program linked dynamically, which can "
	        "load ROCm comgr): cannot run it from %s or beside ptxas-amd: %s\n",
	        PTXAS_AMD_LINK_HELPER, PTXAS_AMD_LIBEXECDIR, strerror(err));
	return EXIT_INPUT;
}
#endif

/* Several GPUs: the whole text compiled per GPU on threads (job.c), one bundle out. */
static int compile_targets(const struct pa_options *o, const struct amd_target *targets,
                           size_t ntargets, FILE *in)
{
	if (o->relocatable || o->emit_asm || o->dump_ir || o->dump_mir || o->dump_sched ||
	    o->time_passes)
		usage_error("%s", "-c, -S, --dump-* and --time-passes take one GPU (--gpu-name "
		                  "with several GPUs writes one bundle of code objects)");
	struct pa_job job = {
	        .filename = input_name(o), .options = o, .targets = targets, .ntargets = ntargets};
	char *text = read_all(in, &job.ptx_len);
	job.ptx = text;
	struct pa_job_result r;
	pa_job_run(&job, &r);
	fputs(r.errors, stderr);
	fputs(r.info, stderr);
	char name[4096];
	bool ok = r.ok && write_file(output_path(o, name, sizeof name),
	                             &(struct co_buffer){r.code, r.code_size});
	pa_job_result_free(&r);
	free(text);
	return ok ? 0 : EXIT_INPUT;
}

/* The targets of --gpu-name; a list only for compiling PTX. */
static size_t read_targets(const struct pa_options *o, struct amd_target *targets)
{
	char err[512];
	size_t n;
	if (!pa_options_targets(o, targets, &n, err, sizeof err)) {
		fprintf(stderr, "ptxas-amd: error: %s\n", err);
		exit(EXIT_USAGE);
	}
	bool is_asm = has_suffix(o->input, ".s") || has_suffix(o->input, ".S");
	if (n > 1 && (o->nobjects || is_asm))
		usage_error("%s", "several GPUs in --gpu-name compile PTX only (assembly and "
		                  "objects are for one GPU)");
	return n;
}

int main(int argc, char **argv)
{
#ifdef M_TRIM_THRESHOLD
	/* The heap grows in 1 MiB steps and is not cut back while the process runs: glibc
	 * otherwise grows it by 128 KiB per brk and trims it whenever the freed top passes
	 * 128 KiB (the compiler's arenas free their chunks after each stage), 6-10 brk calls
	 * of a small compile at a few microseconds each on a virtual machine.  Untouched heap
	 * costs no memory, and the exit returns it all at once.  (Arena chunks of 256 KiB and
	 * more and malloc blocks of 128 KiB and more come from mmap, so a large kernel's peak
	 * is unchanged.) */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 1 << 20);
#endif
	struct pa_options o;
	parse_args(argc, argv, &o);
	struct amd_target targets[PA_MAX_TARGETS];
	size_t ntargets = read_targets(&o, targets);

	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	diag.warnings_off = o.no_warn;
	diag.warnings_error = o.werror;

	if (o.line_info &&
	    (o.nobjects || o.emit_asm || has_suffix(o.input, ".s") || has_suffix(o.input, ".S")))
		usage_error("%s", "-lineinfo/-g needs PTX input compiled to a code object (its "
		                  ".loc lines; no -S, .s input or linking)");
	if (o.nobjects) {
		if (o.relocatable || o.parse_only || o.dump_ast || o.emit_asm)
			usage_error("%s", "relocatable objects can only be linked (no -c, -S, "
			                  "--parse-only or --dump-ast)");
#ifdef PTXAS_AMD_LINK_HELPER
		fflush(NULL);
		int link_status = exec_link_helper(argv);
#else
		int link_status = run_link(&o, &diag);
#endif
		pa_options_free(&o);
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
	} else if (ntargets > 1) {
		status = compile_targets(&o, targets, ntargets, in);
	} else {
		status = compile_ptx(&o, &targets[0], in, &diag);
	}
	if (in != stdin)
		fclose(in);
	return status;
}
