/* The ptxas-style options: one parser for the command line (main.c) and the library API
 * (api.c), so that the two option sets cannot drift apart.
 *
 * pa_options_parse reads an argument vector into struct pa_options and reports problems
 * as a one-line message instead of exiting; pa_options_targets turns --gpu-name (one GPU
 * or a comma-separated list), --wavefront-size and --warp-size into targets, and
 * pa_options_compile fills the compiler's options for one of them. */
#ifndef DRIVER_OPTIONS_H
#define DRIVER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "compile.h"
#include "target.h"

/* At most this many GPUs in one --gpu-name list. */
#define PA_MAX_TARGETS 16
/* At most this many compile threads (-j). */
#define PA_MAX_THREADS 256

enum pa_options_status {
	PA_OPTIONS_OK,
	PA_OPTIONS_HELP,    /* -h/--help: print the help */
	PA_OPTIONS_VERSION, /* -V/--version */
	PA_OPTIONS_UNKNOWN, /* an option no one knows (the message names it) */
	PA_OPTIONS_INVALID, /* a known option with a bad or missing value, or bad inputs */
};

struct pa_options {
	const char *input;    /* path, or "-" for stdin (the first input) */
	const char **objects; /* with link: the relocatable objects (*.o) to link */
	int nobjects;
	const char *output;   /* -o */
	const char *gpu_name; /* gfx90a unless given; may be a comma-separated list */
	const char *entry;
	const char *input_name; /* --input-name: the file name in diagnostics (API) */
	int opt_level;
	long maxrregcount;    /* 0 = unlimited */
	long stack_size;      /* --stack-size: per-thread stack bytes for real calls (0: default) */
	unsigned inline_mode; /* --inline-all, --no-inline (enum ir_inline_mode) */
	bool verbose, no_warn, werror, parse_only, dump_ast, emit_asm, relocatable;
	bool dump_ir, dump_mir, dump_sched, time_passes, verify;
	bool line_info;           /* -lineinfo, --generate-line-info, -g, --device-debug */
	bool gpu_name_given;      /* else assembly and objects name their own target */
	bool no_lanemask_warning; /* -Wno-lanemask (docs/WARP.md) */
	unsigned wave_size;       /* --wavefront-size; 0: the target's default */
	unsigned warp_size;       /* --warp-size; 0: not given (32) */
	unsigned threads;         /* -j, --threads, --split-compile: kernels compiled at once
	                           * (1 unless given; 0: the machine's cores) */
	/* The first option given that only the command line can honour (it writes files or
	 * prints: -o, -S, --dump-*, --parse-only, --time-passes, --help, --version), or the
	 * first input file named: the library refuses both. */
	const char *cli_only;
};

/* Parses argv[0..argc) (no program name).  On PA_OPTIONS_UNKNOWN/INVALID, `err` holds
 * the message ("unknown option '--frob'").  `o->objects` is allocated: free it with
 * pa_options_free.  The checks that need several options together (an input file, no
 * mixing of objects and sources) are the command line's (pa_options_check_inputs). */
enum pa_options_status pa_options_parse(int argc, const char *const *argv, struct pa_options *o,
                                        char *err, size_t errlen);
bool pa_options_check_inputs(const struct pa_options *o, char *err, size_t errlen);
void pa_options_free(struct pa_options *o);

/* Parses --gpu-name into *ntargets targets (at most PA_MAX_TARGETS, each at most once),
 * applying --wavefront-size and checking --warp-size.  On failure, `err` says why (for an
 * NVIDIA name: which GPUs are ours). */
bool pa_options_targets(const struct pa_options *o, struct amd_target *targets, size_t *ntargets,
                        char *err, size_t errlen);
/* Parses one GPU name ("gfx90a:xnack-"); an NVIDIA name is refused with the list of ours. */
bool pa_parse_gpu_name(const char *name, struct amd_target *target, char *err, size_t errlen);

/* The compiler's options for `target` (dump and log streams left NULL for the caller). */
void pa_options_compile(const struct pa_options *o, const struct amd_target *target,
                        const char *filename, struct pa_compile_options *co);

#endif
