/* lineinfo: -lineinfo / -g, the PTX .file/.loc directives as the code object's line rows
 * (docs/CODEOBJ.md "Line information").  Private to the driver. */
#ifndef DRIVER_LINEINFO_H
#define DRIVER_LINEINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "codeobj.h"
#include "diag.h"
#include "ptx.h"
#include "sched/sched.h"

/* The .loc in effect at a PTX statement (file 0: none; PTX numbers files from 1). */
struct drv_loc {
	uint32_t file, line, col;
};

struct drv_file {
	uint32_t index; /* the .file number */
	const char *name;
};

/* What the module said so far, in the module arena. */
struct drv_lineinfo {
	struct drv_loc *at_line; /* per PTX line: the .loc in effect at its statement */
	uint32_t nat_line, at_line_cap;
	struct drv_file *files; /* .file directives, in source order */
	uint32_t nfiles, files_cap;
};

/* Records the .loc in effect at each instruction statement of a function (a kernel's or a
 * device function's: inlined statements keep their own PTX lines). */
void drv_lines_function(struct drv_lineinfo *li, struct pa_arena *a, const struct ptx_function *pf);
/* Records a `.file index "name"` directive. */
void drv_lines_file(struct drv_lineinfo *li, struct pa_arena *a, uint32_t index, const char *name,
                    size_t len);
/* The rows of a kernel's or function's code from its PTX lines (*nrows of them):
 * row.line holds the PTX line until drv_lines_finish resolves it. */
const struct co_line_row *drv_lines_rows(const struct sched_code *code, struct pa_arena *a,
                                         size_t *nrows);
/* Resolves the rows of every kernel and function of m to source positions and sets
 * m->line_info; false with an error in d on a .loc naming a file no .file declares.
 * `ptx_name` is the input's name: the file of the PTX lines when the module has no .file. */
bool drv_lines_finish(const struct drv_lineinfo *li, struct co_module *m, const char *ptx_name,
                      struct pa_arena *a, struct pa_diag *d);

#endif
