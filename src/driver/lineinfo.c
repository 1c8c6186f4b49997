/* lineinfo: -lineinfo / -g, from PTX .file/.loc to the code object's line rows.
 *
 * Every IR and machine instruction carries the PTX line of the statement it was made from
 * (mir_insn.src_line; an inlined callee's statements keep their own lines; waits, nops and
 * spill code take the line of the instruction they serve), and sched_emit records where that
 * line changes in the code.  This file supplies the other half: as the front end hands over
 * each function (kernel or device function), the .loc in effect at each instruction
 * statement -- the last .loc before it in the body -- is recorded against the statement's
 * PTX line, in one module-wide table (PTX lines are unique in the module).  nvcc writes the
 * .file directives after the bodies, so the rows are resolved only at the module's end
 * (drv_lines_finish): PTX line -> (file, line, column) of the .loc, whose first three
 * numbers are the innermost position (with `inlined_at`, the inlined function's own line:
 * the call site is dropped).  A module without any .file maps the code to the PTX text
 * itself (file = the input, line = the PTX line).
 * requires: nothing; breaks: nothing.  O(statements + rows). */
#include "lineinfo.h"

#include <string.h>

static void set_at_line(struct drv_lineinfo *li, struct pa_arena *a, uint32_t line,
                        const struct drv_loc *loc)
{
	if (line >= li->nat_line) {
		li->at_line = pa_arena_grow(a, li->at_line, &li->at_line_cap, line + 1,
		                            sizeof *li->at_line);
		memset(li->at_line + li->nat_line, 0,
		       (line + 1 - li->nat_line) * sizeof *li->at_line);
		li->nat_line = line + 1;
	}
	li->at_line[line] = *loc;
}

void drv_lines_function(struct drv_lineinfo *li, struct pa_arena *a, const struct ptx_function *pf)
{
	struct drv_loc loc = {0, 0, 0}; /* none before the body's first .loc */
	for (uint32_t i = 0; i < pf->nstmts; i++) {
		const struct ptx_stmt *st = &pf->stmts[i];
		if (st->kind == PTX_STMT_LOC)
			loc = (struct drv_loc){st->u.loc.file, st->u.loc.line, st->u.loc.col};
		else if (st->kind == PTX_STMT_INSN && loc.file)
			set_at_line(li, a, st->line, &loc);
	}
}

void drv_lines_file(struct drv_lineinfo *li, struct pa_arena *a, uint32_t index, const char *name,
                    size_t len)
{
	li->files = pa_arena_grow(a, li->files, &li->files_cap, li->nfiles + 1, sizeof *li->files);
	li->files[li->nfiles++] = (struct drv_file){index, pa_arena_strndup(a, name, len)};
}

const struct co_line_row *drv_lines_rows(const struct sched_code *code, struct pa_arena *a,
                                         size_t *nrows)
{
	struct co_line_row *rows = PA_NEW_ARRAY(a, struct co_line_row, code->nlines + 1);
	for (uint32_t i = 0; i < code->nlines; i++)
		rows[i] =
		        (struct co_line_row){code->lines[i].offset, 0, code->lines[i].src_line, 0};
	*nrows = code->nlines;
	return rows;
}

/* The DWARF file number of .file `index`: the .file directives in source order from 0 (the
 * first is DWARF 5's primary file 0); a later .file with the same index replaces the
 * earlier.  UINT32_MAX when none declares it. */
static uint32_t dwarf_file(const struct drv_lineinfo *li, uint32_t index)
{
	for (uint32_t f = li->nfiles; f-- > 0;)
		if (li->files[f].index == index)
			return f;
	return UINT32_MAX;
}

/* Rows of PTX lines -> rows of .loc positions (line 0 for code of no statement under a
 * .loc: the entry's set-up, statements before the body's first .loc). */
static bool resolve_loc_rows(const struct drv_lineinfo *li, const struct co_line_row *lines,
                             size_t nlines, const char *ptx_name, struct pa_diag *d)
{
	struct co_line_row *rows = (struct co_line_row *)lines; /* (drv_lines_rows made them) */
	uint32_t file = 0;
	for (size_t r = 0; r < nlines; r++) {
		uint32_t ptx_line = rows[r].line;
		const struct drv_loc *loc = ptx_line < li->nat_line && li->at_line[ptx_line].file
		                                    ? &li->at_line[ptx_line]
		                                    : NULL;
		if (loc) {
			file = dwarf_file(li, loc->file);
			if (file == UINT32_MAX) {
				pa_diag_report(
				        d, PA_DIAG_ERROR, ptx_name, ptx_line, 1, NULL, 0,
				        "'.loc' before this statement names file %u, which no "
				        "'.file' declares (-lineinfo)",
				        loc->file);
				return false;
			}
		}
		rows[r].file = file;
		rows[r].line = loc ? loc->line : 0;
		rows[r].column = loc ? loc->col : 0;
	}
	return true;
}

bool drv_lines_finish(const struct drv_lineinfo *li, struct co_module *m, const char *ptx_name,
                      struct pa_arena *a, struct pa_diag *d)
{
	struct co_line_info *info = PA_NEW(a, struct co_line_info);
	info->producer = "ptxas-amd";
	const char **files = PA_NEW_ARRAY(a, const char *, li->nfiles + 1);
	info->files = files;
	m->line_info = info;
	if (!li->nfiles) { /* the PTX text itself: rows keep their PTX lines, file 0 */
		files[0] = ptx_name;
		info->nfiles = 1;
		return true;
	}
	for (uint32_t f = 0; f < li->nfiles; f++)
		files[f] = li->files[f].name;
	info->nfiles = li->nfiles;
	for (size_t i = 0; i < m->nkernels; i++)
		if (!resolve_loc_rows(li, m->kernels[i].lines, m->kernels[i].nlines, ptx_name, d))
			return false;
	for (size_t i = 0; i < m->nfunctions; i++)
		if (!resolve_loc_rows(li, m->functions[i].lines, m->functions[i].nlines, ptx_name,
		                      d))
			return false;
	return true;
}
