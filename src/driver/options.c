/* The ptxas-style option parser shared by the command line and the library API.
 *
 * Options are spelled as NVIDIA's ptxas spells them ("--name VALUE", "--name=VALUE", and
 * the single-dash forms ptxas also takes), so muscle memory works.  Flags without a value
 * are one table row each (name, field, whether only the command line can honour them);
 * options with values are parsed one by one below.  Nothing here prints or exits: every
 * problem is a status and a one-line message for the caller to report. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "options.h"

/* A flag: sets one bool field (at `offset` in struct pa_options). */
struct flag {
	const char *name, *alias;
	size_t offset;
	bool cli_only; /* writes files or prints: the library cannot honour it */
};

#define FLAG(name, alias, field, cli)                                                              \
	{                                                                                          \
		name, alias, offsetof(struct pa_options, field), cli                               \
	}
static const struct flag flags[] = {
        FLAG("-v", "--verbose", verbose, false),
        FLAG("-w", "--disable-warnings", no_warn, false),
        FLAG("-Werror", "--warning-as-error", werror, false),
        FLAG("-Wno-lanemask", NULL, no_lanemask_warning, false),
        FLAG("-c", "--compile-only", relocatable, false),
        FLAG("-lineinfo", "--generate-line-info", line_info, false),
        FLAG("-g", "--device-debug", line_info, false),
        FLAG("--verify", NULL, verify, false),
        FLAG("--parse-only", NULL, parse_only, true),
        FLAG("--dump-ast", NULL, dump_ast, true),
        FLAG("--dump-ir", NULL, dump_ir, true),
        FLAG("--dump-mir", NULL, dump_mir, true),
        FLAG("--dump-sched", NULL, dump_sched, true),
        FLAG("--time-passes", NULL, time_passes, true),
        FLAG("-S", NULL, emit_asm, true),
};
#undef FLAG

/* The state of one parse: the vector, where we are, and where messages go. */
struct parser {
	int argc;
	const char *const *argv;
	int i;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct parser *p, const char *fmt, const char *arg)
{
	if (p->failed)
		return;
	p->failed = true;
	snprintf(p->err, p->errlen, fmt, arg);
}

/* Matches "NAME VALUE" or "NAME=VALUE" at argv[p->i]; returns the value (consuming it)
 * or NULL when the argument is not this option. */
static const char *value_of(struct parser *p, const char *name)
{
	const char *arg = p->argv[p->i];
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != 0)
		return NULL;
	if (p->i + 1 >= p->argc) {
		fail(p, "option '%s' needs a value", arg);
		return "";
	}
	return p->argv[++p->i];
}

static long parse_count(struct parser *p, const char *value, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < 0 || v > INT_MAX) {
		fail(p, what, value);
		return 0;
	}
	return v;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static void note_cli_only(struct pa_options *o, const char *arg)
{
	if (!o->cli_only)
		o->cli_only = arg;
}

/* A flag from the table; false when `a` is none. */
static bool parse_flag(struct pa_options *o, const char *a)
{
	for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
		const struct flag *f = &flags[k];
		if (strcmp(a, f->name) && (!f->alias || strcmp(a, f->alias)))
			continue;
		*(bool *)((char *)o + f->offset) = true;
		if (f->cli_only)
			note_cli_only(o, a);
		return true;
	}
	if (!strcmp(a, "--inline-all") || !strcmp(a, "--no-inline")) {
		o->inline_mode = a[2] == 'i' ? 1 : 2; /* IR_INLINE_ALL, IR_INLINE_NONE */
		return true;
	}
	if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
		o->opt_level = a[2] - '0';
		return true;
	}
	return false;
}

static void parse_size_option(struct parser *p, const char *value, const char *what,
                              unsigned *field)
{
	if (strcmp(value, "32") && strcmp(value, "64"))
		fail(p, what, value);
	else
		*field = (unsigned)atoi(value);
}

/* "-jN" (make's spelling) as "-j N". */
static const char *joined_j(const struct parser *p)
{
	const char *a = p->argv[p->i];
	return a[0] == '-' && a[1] == 'j' && a[2] >= '0' && a[2] <= '9' ? a + 2 : NULL;
}

/* The options with a value that set compiler options; false when argv[p->i] is none. */
static bool parse_compile_value(struct parser *p, struct pa_options *o)
{
	const char *v;
	if ((v = value_of(p, "--gpu-name")) || (v = value_of(p, "-arch")) ||
	    (v = value_of(p, "--arch"))) {
		o->gpu_name = v;
		o->gpu_name_given = true;
	} else if ((v = value_of(p, "--opt-level"))) {
		o->opt_level = (int)parse_count(p, v, "invalid optimization level '%s'");
		if (o->opt_level > 3)
			fail(p, "invalid optimization level '%s' (0 to 3)", v);
	} else if ((v = value_of(p, "--maxrregcount")) || (v = value_of(p, "-maxrregcount"))) {
		o->maxrregcount = parse_count(p, v, "invalid register count '%s'");
		if (o->maxrregcount == 0)
			fail(p, "invalid register count '%s' (must be at least 1)", v);
	} else if ((v = value_of(p, "--stack-size"))) {
		o->stack_size = parse_count(p, v, "invalid stack size '%s'");
		if (o->stack_size < 16 || o->stack_size > (1 << 19))
			fail(p, "invalid stack size '%s' (16 to 524288 bytes)", v);
	} else if ((v = value_of(p, "--entry")) || (v = value_of(p, "-e"))) {
		o->entry = v;
	} else if ((v = value_of(p, "--warp-size"))) {
		parse_size_option(p, v, "invalid warp size '%s' (32 or 64)", &o->warp_size);
	} else if ((v = value_of(p, "--wavefront-size"))) {
		parse_size_option(p, v, "invalid wavefront size '%s' (32 or 64)", &o->wave_size);
	} else if ((v = joined_j(p)) || (v = value_of(p, "--threads")) || (v = value_of(p, "-j")) ||
	           (v = value_of(p, "--split-compile")) || (v = value_of(p, "-split-compile"))) {
		long n = parse_count(p, v, "invalid thread count '%s'");
		if (n > PA_MAX_THREADS)
			fail(p, "invalid thread count '%s' (0 to 256; 0: the machine's cores)", v);
		o->threads = (unsigned)n;
	} else if ((v = value_of(p, "--input-name"))) {
		o->input_name = v;
	} else {
		return false;
	}
	return true;
}

/* An input file: objects (*.o) collect for linking, anything else is the one source. */
static void add_input(struct parser *p, struct pa_options *o, const char *a)
{
	note_cli_only(o, a);
	if (has_suffix(a, ".o")) {
		if (!o->objects)
			o->objects = pa_xcalloc((size_t)p->argc + 1, sizeof *o->objects);
		o->objects[o->nobjects++] = a;
		o->input = o->input ? o->input : a;
	} else if (o->input) {
		fail(p, "more than one input file ('%s'); ptxas-amd compiles one file", a);
	} else {
		o->input = a;
	}
}

enum pa_options_status pa_options_parse(int argc, const char *const *argv, struct pa_options *o,
                                        char *err, size_t errlen)
{
	*o = (struct pa_options){.gpu_name = "gfx90a", .opt_level = 3, .threads = 1};
	struct parser p = {.argc = argc, .argv = argv, .err = err, .errlen = errlen};
	for (p.i = 0; p.i < argc && !p.failed; p.i++) {
		const char *a = argv[p.i], *v;
		if (!a) {
			fail(&p, "%s", "a NULL option");
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			return PA_OPTIONS_HELP;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			return PA_OPTIONS_VERSION;
		} else if ((v = value_of(&p, "-o")) || (v = value_of(&p, "--output-file"))) {
			o->output = v;
			note_cli_only(o, a);
		} else if (parse_flag(o, a) || parse_compile_value(&p, o)) {
			continue;
		} else if (a[0] == '-' && a[1] != 0) {
			fail(&p, "unknown option '%s'", a);
			return PA_OPTIONS_UNKNOWN;
		} else {
			add_input(&p, o, a);
		}
	}
	return p.failed ? PA_OPTIONS_INVALID : PA_OPTIONS_OK;
}

bool pa_options_check_inputs(const struct pa_options *o, char *err, size_t errlen)
{
	if (o->nobjects && o->input != o->objects[0])
		snprintf(err, errlen, "cannot mix relocatable objects with source input ('%s')",
		         o->input);
	else if (!o->input)
		snprintf(err, errlen, "no input file");
	else if (o->parse_only && o->dump_ast)
		snprintf(err, errlen, "--parse-only and --dump-ast exclude each other");
	else
		return true;
	return false;
}

void pa_options_free(struct pa_options *o)
{
	free((void *)o->objects);
	o->objects = NULL;
}

static bool is_nvidia_arch(const char *name)
{
	return !strncmp(name, "sm_", 3) || !strncmp(name, "compute_", 8) ||
	       !strncmp(name, "lto_", 4);
}

bool pa_parse_gpu_name(const char *name, struct amd_target *target, char *err, size_t errlen)
{
	if (!is_nvidia_arch(name))
		return amd_target_parse(name, target, err, errlen);
	size_t n;
	const struct amd_target_info *t = amd_target_infos(&n);
	int used = snprintf(err, errlen,
	                    "'%s' is an NVIDIA GPU architecture; ptxas-amd compiles for AMD "
	                    "GPUs: --gpu-name",
	                    name);
	for (size_t i = 0; i < n && used >= 0 && (size_t)used < errlen; i++)
		used += snprintf(err + used, errlen - (size_t)used, "%s %s", i ? "," : "",
		                 t[i].name);
	return false;
}

/* Applies --wavefront-size and checks --warp-size against one target. */
static bool fit_sizes(const struct pa_options *o, struct amd_target *t, char *err, size_t errlen)
{
	if (o->wave_size) {
		bool ok = o->wave_size == 64 ? t->info->supports_wave64 : t->info->supports_wave32;
		if (!ok) {
			snprintf(err, errlen, "%s does not run code of that wavefront size",
			         t->info->name);
			return false;
		}
		t->wave_size = o->wave_size;
	}
	if (o->warp_size > t->wave_size) {
		snprintf(err, errlen, "--warp-size 64 needs wave64 code (--wavefront-size 64)");
		return false;
	}
	return true;
}

/* True when targets[n] has the target ID of an earlier one (a bundle holds one entry per
 * ID). */
static bool named_before(const struct amd_target *targets, size_t n)
{
	char id[128], other[128];
	amd_target_id_string(&targets[n], id, sizeof id);
	for (size_t k = 0; k < n; k++) {
		amd_target_id_string(&targets[k], other, sizeof other);
		if (!strcmp(id, other))
			return true;
	}
	return false;
}

bool pa_options_targets(const struct pa_options *o, struct amd_target *targets, size_t *ntargets,
                        char *err, size_t errlen)
{
	const char *s = o->gpu_name;
	size_t n = 0;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		char name[128];
		if (n == PA_MAX_TARGETS || len >= sizeof name) {
			snprintf(err, errlen, "--gpu-name %s: too many or too long GPU names",
			         o->gpu_name);
			return false;
		}
		snprintf(name, sizeof name, "%.*s", (int)len, s);
		if (!pa_parse_gpu_name(name, &targets[n], err, errlen) ||
		    !fit_sizes(o, &targets[n], err, errlen))
			return false;
		if (named_before(targets, n)) {
			snprintf(err, errlen, "--gpu-name %s: '%s' is named twice", o->gpu_name,
			         name);
			return false;
		}
		n++;
		if (!comma)
			break;
		s = comma + 1;
	}
	*ntargets = n;
	return true;
}

void pa_options_compile(const struct pa_options *o, const struct amd_target *target,
                        const char *filename, struct pa_compile_options *co)
{
	*co = (struct pa_compile_options){
	        .filename = filename,
	        .target = *target,
	        .entry = o->entry,
	        .maxrregcount = o->maxrregcount,
	        .stack_size = (uint32_t)o->stack_size,
	        .inline_mode = o->inline_mode,
	        .opt_level = o->opt_level,
	        .verify = o->verify,
	        .no_lanemask_warning = o->no_lanemask_warning,
	        /* PTX's warp is 32 threads on every target (docs/WARP.md): a wave64 runs two
	         * warps unless --warp-size 64 asks for the wave64 dialect. */
	        .warp_size = o->warp_size ? o->warp_size : 32,
	        .relocatable = o->relocatable,
	        .line_info = o->line_info,
	        .threads = o->threads,
	};
}
