/* Loads ROCm comgr with dlopen when a link needs it (see comgr_load.h for why).
 *
 * Algorithm: dlopen(CO_COMGR_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE), then one
 * dlsym per entry point of struct co_comgr, from a table of (symbol, field offset).
 * RTLD_NODELETE keeps LLVM's static destructors from running at an unload in the
 * middle of the process.  requires: nothing; breaks: nothing.  Complexity: one dlopen
 * (the first costs what loading LLVM costs, ~0.2 s), then constant. */
#include "comgr_load.h"

#include <dlfcn.h>
#include <string.h>

struct entry_point {
	const char *symbol;
	size_t offset; /* of the function pointer in struct co_comgr */
};

#define ENTRY(field)                                                                               \
	{                                                                                          \
		"amd_comgr_" #field, offsetof(struct co_comgr, field)                              \
	}
static const struct entry_point entry_points[] = {
        ENTRY(status_string),
        ENTRY(get_isa_count),
        ENTRY(get_isa_name),
        ENTRY(create_data),
        ENTRY(release_data),
        ENTRY(set_data),
        ENTRY(set_data_name),
        ENTRY(get_data),
        ENTRY(create_data_set),
        ENTRY(destroy_data_set),
        ENTRY(data_set_add),
        ENTRY(action_data_count),
        ENTRY(action_data_get_data),
        ENTRY(create_action_info),
        ENTRY(destroy_action_info),
        ENTRY(action_info_set_isa_name),
        ENTRY(do_action),
};
#undef ENTRY

static bool load_failed(struct pa_diag *d, const char *what, const char *why)
{
	if (d)
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "linking needs ROCm comgr (" CO_COMGR_SONAME
		               ", Debian package libamd-comgr2): %s: %s",
		               what, why ? why : "unknown reason");
	return false;
}

bool co_comgr_load(struct co_comgr *api, struct pa_diag *d)
{
	memset(api, 0, sizeof *api);
	api->handle = dlopen(CO_COMGR_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!api->handle)
		return load_failed(d, "cannot load it", dlerror());
	for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; i++) {
		void *fn = dlsym(api->handle, entry_points[i].symbol);
		if (!fn) {
			load_failed(d, entry_points[i].symbol, "symbol not found");
			co_comgr_unload(api);
			return false;
		}
		/* POSIX guarantees a data pointer from dlsym converts to a function pointer
		 * of the same representation; memcpy avoids the ISO C cast warning. */
		memcpy((char *)api + entry_points[i].offset, &fn, sizeof fn);
	}
	return true;
}

void co_comgr_unload(struct co_comgr *api)
{
	if (api->handle)
		dlclose(api->handle);
	memset(api, 0, sizeof *api);
}
