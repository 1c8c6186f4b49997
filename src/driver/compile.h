/* The compiler as a library: PTX text in, an AMDHSA code object out.
 *
 * pa_compile_ptx runs the whole pipeline for every kernel of a module as the front end
 * hands it over (parse -> SSA IR -> uniformity -> instruction selection -> register
 * allocation -> control codes -> encoding) and writes the code object.  All state lives
 * in the call (per-function arena, module arena): several compilations may run in one
 * process.  Diagnostics go to `d`; nothing exits. */
#ifndef DRIVER_COMPILE_H
#define DRIVER_COMPILE_H

#include <stdbool.h>
#include <stdio.h>

#include "codeobj.h"
#include "diag.h"
#include "target.h"

struct pa_compile_options {
	const char *filename;     /* name in diagnostics */
	struct amd_target target; /* with its wave size */
	const char *entry;        /* compile only this kernel (NULL: all) */
	long maxrregcount;        /* 0: no limit */
	uint32_t stack_size;      /* per-thread stack bytes of real calls (0: the default) */
	unsigned inline_mode;     /* enum ir_inline_mode: --inline-all, --no-inline */
	FILE *dump_ir;            /* --dump-ir: the IR after construction and clean-ups */
	FILE *dump_mir;           /* --dump-mir: machine IR after selection */
	FILE *dump_sched;         /* --dump-sched: annotated final code */
	FILE *asm_out;            /* -S: assembly llvm-mc-19 reassembles to the same bytes */
	FILE *info;               /* -v: resource usage per kernel (NULL: quiet) */
	FILE *time_passes;        /* --time-passes: wall time per stage */
	bool verify;              /* run the IR/MIR verifiers between passes */
	int opt_level;            /* -O: 0 keeps selection's instruction order (no scheduling) */
	unsigned warp_size;       /* 32 (default): 32-lane warps; 64: the wave (wave64) */
	bool no_lanemask_warning; /* -Wno-lanemask: no warning for 32-bit constant lane masks
	                           * on wave64 (docs/WARP.md) */
	bool relocatable;         /* -c: an ET_REL object (for ld.lld / co_link) */
	bool line_info;           /* -lineinfo, -g: DWARF lines from .file/.loc (lineinfo.c) */
	unsigned threads; /* kernels compiled at once (kpar.c; 0: the machine's cores, 1: none
	                   * in parallel); the output is the same for every count */
};

/* Compiles the PTX module read from `in`.  On success *out holds the code object (an
 * executable, or with o->relocatable a relocatable object)
 * (free with co_buffer_free); with only dumps requested (no `out`), nothing is written.
 * Returns false when any error was reported. */
bool pa_compile_ptx(FILE *in, const struct pa_compile_options *o, struct co_buffer *out,
                    struct pa_diag *d);

#endif
