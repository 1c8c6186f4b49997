/* ROCm comgr, loaded with dlopen on first need (internal to src/codeobj).
 *
 * libamd_comgr drags in LLVM, z3, ICU and libxml2 (~60 MB mapped, ~0.2 s to load), so
 * the code object stage does not link it: only linking needs it.  co_comgr_load fills a
 * table of the entry points link.c calls; the table lives on the caller's stack (no
 * global state) and dlopen's own reference count keeps the library loaded once. */
#ifndef CO_COMGR_LOAD_H
#define CO_COMGR_LOAD_H

#include <amd_comgr.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* The soname Debian's libamd-comgr2 installs (comgr ABI 2). */
#define CO_COMGR_SONAME "libamd_comgr.so.2"

struct co_comgr {
	void *handle;
	amd_comgr_status_t (*status_string)(amd_comgr_status_t, const char **);
	amd_comgr_status_t (*get_isa_count)(size_t *);
	amd_comgr_status_t (*get_isa_name)(size_t, const char **);
	amd_comgr_status_t (*create_data)(amd_comgr_data_kind_t, amd_comgr_data_t *);
	amd_comgr_status_t (*release_data)(amd_comgr_data_t);
	amd_comgr_status_t (*set_data)(amd_comgr_data_t, size_t, const char *);
	amd_comgr_status_t (*set_data_name)(amd_comgr_data_t, const char *);
	amd_comgr_status_t (*get_data)(amd_comgr_data_t, size_t *, char *);
	amd_comgr_status_t (*create_data_set)(amd_comgr_data_set_t *);
	amd_comgr_status_t (*destroy_data_set)(amd_comgr_data_set_t);
	amd_comgr_status_t (*data_set_add)(amd_comgr_data_set_t, amd_comgr_data_t);
	amd_comgr_status_t (*action_data_count)(amd_comgr_data_set_t, amd_comgr_data_kind_t,
	                                        size_t *);
	amd_comgr_status_t (*action_data_get_data)(amd_comgr_data_set_t, amd_comgr_data_kind_t,
	                                           size_t, amd_comgr_data_t *);
	amd_comgr_status_t (*create_action_info)(amd_comgr_action_info_t *);
	amd_comgr_status_t (*destroy_action_info)(amd_comgr_action_info_t);
	amd_comgr_status_t (*action_info_set_isa_name)(amd_comgr_action_info_t, const char *);
	amd_comgr_status_t (*do_action)(amd_comgr_action_kind_t, amd_comgr_action_info_t,
	                                amd_comgr_data_set_t, amd_comgr_data_set_t);
};

/* Loads comgr into *api.  When the library or one of its entry points is missing,
 * reports an error naming CO_COMGR_SONAME and what failed (unless d is NULL) and
 * returns false. */
bool co_comgr_load(struct co_comgr *api, struct pa_diag *d);
/* Drops the reference co_comgr_load took (the library stays mapped: RTLD_NODELETE). */
void co_comgr_unload(struct co_comgr *api);

#endif
