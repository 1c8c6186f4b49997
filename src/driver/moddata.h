/* Module variables (.global/.const) collected from the front end and turned into the code
 * object's data (co_data) and the ABS64 relocations of their address initializers
 * (internal to src/driver: compile.c uses it). */
#ifndef DRIVER_MODDATA_H
#define DRIVER_MODDATA_H

#include "arena.h"
#include "codeobj.h"
#include "diag.h"
#include "ptx.h"

struct pa_moddata {
	const struct ptx_symbol **vars; /* in declaration order; a definition replaces its
	                                 * earlier .extern declaration */
	uint32_t nvars, cap;
	struct co_reloc *relocs; /* ABS64 in data (pa_moddata_build) */
	uint32_t nrelocs, relocs_cap;
	bool fnptr_address; /* function pointers are code addresses (docs/CALLS.md) */
};

/* Records a copy of `var` (in `a`: the front end's symbols do not outlive the parse). */
void pa_moddata_add(struct pa_moddata *md, struct pa_arena *a, const struct ptx_symbol *var);

/* Builds one co_data per variable (initializers encoded little-endian, addresses of other
 * variables as relocations appended to md->relocs).  .extern variables become undefined
 * symbols of a relocatable object; in an executable one that the code (code_relocs) or an
 * initializer names becomes a zero-initialized definition with a warning (NVIDIA ptxas's
 * whole-program rule), others are left out.  Unsupported initializers and two
 * variables of one name are errors at the variable's file:line:col. */
bool pa_moddata_build(struct pa_moddata *md, struct pa_arena *a, const char *file, bool relocatable,
                      const struct co_reloc *code_relocs, size_t ncode_relocs, struct co_data **out,
                      size_t *nout, struct pa_diag *d);

#endif
