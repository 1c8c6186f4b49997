/* Linking relocatable code objects into an executable through ROCm comgr.
 *
 * Algorithm: put each relocatable into a comgr data set (DATA_KIND_RELOCATABLE),
 * run AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE (comgr's built-in lld) with
 * the target's ISA name, and copy the executable out.  Before that, the ISA name is
 * looked up in comgr's own list, so a target it does not know (Debian's comgr 5.2:
 * gfx942, gfx1100, gfx1200) fails with a diagnostic instead of an lld error, and the
 * caller falls back to co_write_executable (co_emit_executable does that choice).
 * requires: relocatables from co_write_relocatable; breaks: nothing.
 * comgr is loaded with dlopen here (comgr_load.c), not linked: only linking needs it.
 * Complexity: what lld costs. */
#include "codeobj.h"

#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "comgr_load.h"

static void isa_name(const struct amd_target *t, char *buf, size_t len)
{
	amd_target_id_string(t, buf, len);
}

static bool comgr_knows(const struct co_comgr *api, const struct amd_target *t)
{
	char want[128];
	isa_name(t, want, sizeof want);
	/* comgr lists bare processors ("amdgcn-amd-amdhsa--gfx90a"); compare the part
	 * before the feature suffixes. */
	size_t want_len =
	        strcspn(want + strlen("amdgcn-amd-amdhsa--"), ":") + strlen("amdgcn-amd-amdhsa--");
	size_t n = 0;
	if (api->get_isa_count(&n) != AMD_COMGR_STATUS_SUCCESS)
		return false;
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL;
		if (api->get_isa_name(i, &name) != AMD_COMGR_STATUS_SUCCESS || !name)
			continue;
		if (strlen(name) == want_len && !strncmp(name, want, want_len))
			return true;
	}
	return false;
}

bool co_comgr_supports(const struct amd_target *t)
{
	struct co_comgr api;
	if (!co_comgr_load(&api, NULL))
		return false;
	bool known = comgr_knows(&api, t);
	co_comgr_unload(&api);
	return known;
}

const char *co_path_name(enum co_path p)
{
	return p == CO_PATH_COMGR ? "linked by ROCm comgr" : "built-in executable writer";
}

static bool comgr_fail(const struct co_comgr *api, struct pa_diag *d, const char *what,
                       amd_comgr_status_t st)
{
	const char *msg = NULL;
	if (api->status_string(st, &msg) != AMD_COMGR_STATUS_SUCCESS)
		msg = "unknown status";
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0, "comgr: %s: %s", what, msg);
	return false;
}

static bool add_inputs(const struct co_comgr *api, amd_comgr_data_set_t set,
                       const struct co_buffer *objects, size_t nobjects, struct pa_diag *d)
{
	for (size_t i = 0; i < nobjects; i++) {
		amd_comgr_data_t data;
		amd_comgr_status_t st = api->create_data(AMD_COMGR_DATA_KIND_RELOCATABLE, &data);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			return comgr_fail(api, d, "create data", st);
		char name[32];
		snprintf(name, sizeof name, "input%zu.o", i);
		st = api->set_data(data, objects[i].size, (const char *)objects[i].data);
		if (st == AMD_COMGR_STATUS_SUCCESS)
			st = api->set_data_name(data, name);
		if (st == AMD_COMGR_STATUS_SUCCESS)
			st = api->data_set_add(set, data);
		api->release_data(data);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			return comgr_fail(api, d, "add relocatable", st);
	}
	return true;
}

static bool take_output(const struct co_comgr *api, amd_comgr_data_set_t result,
                        struct co_buffer *out, struct pa_diag *d)
{
	size_t count = 0;
	amd_comgr_status_t st =
	        api->action_data_count(result, AMD_COMGR_DATA_KIND_EXECUTABLE, &count);
	if (st != AMD_COMGR_STATUS_SUCCESS || count != 1) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "comgr: link produced %zu executables", count);
		return false;
	}
	amd_comgr_data_t data;
	st = api->action_data_get_data(result, AMD_COMGR_DATA_KIND_EXECUTABLE, 0, &data);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return comgr_fail(api, d, "get executable", st);
	size_t size = 0;
	st = api->get_data(data, &size, NULL);
	if (st == AMD_COMGR_STATUS_SUCCESS) {
		out->data = pa_xmalloc(size ? size : 1);
		out->size = size;
		st = api->get_data(data, &size, (char *)out->data);
	}
	api->release_data(data);
	if (st != AMD_COMGR_STATUS_SUCCESS) {
		co_buffer_free(out);
		return comgr_fail(api, d, "read executable", st);
	}
	return true;
}

/* The link itself, with comgr loaded and the target known to it. */
static bool comgr_link(const struct co_comgr *api, const char *isa, const struct co_buffer *objects,
                       size_t nobjects, struct co_buffer *out, struct pa_diag *d)
{
	amd_comgr_data_set_t input, result;
	amd_comgr_action_info_t info;
	if (api->create_data_set(&input) != AMD_COMGR_STATUS_SUCCESS)
		return comgr_fail(api, d, "create data set", AMD_COMGR_STATUS_ERROR);
	if (api->create_data_set(&result) != AMD_COMGR_STATUS_SUCCESS) {
		api->destroy_data_set(input);
		return comgr_fail(api, d, "create data set", AMD_COMGR_STATUS_ERROR);
	}
	bool ok = api->create_action_info(&info) == AMD_COMGR_STATUS_SUCCESS;
	if (!ok) {
		api->destroy_data_set(input);
		api->destroy_data_set(result);
		return comgr_fail(api, d, "create action info", AMD_COMGR_STATUS_ERROR);
	}
	amd_comgr_status_t st = api->action_info_set_isa_name(info, isa);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		ok = comgr_fail(api, d, "set ISA name", st);
	ok = ok && add_inputs(api, input, objects, nobjects, d);
	if (ok) {
		st = api->do_action(AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, info, input,
		                    result);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			ok = comgr_fail(api, d, "link relocatable to executable", st);
	}
	ok = ok && take_output(api, result, out, d);
	api->destroy_action_info(info);
	api->destroy_data_set(input);
	api->destroy_data_set(result);
	return ok;
}

/* Every input must be an AMDGPU relocatable for t's processor: lld would otherwise fail
 * with an error comgr reports as a bare "ERROR". */
static bool check_inputs(const struct amd_target *t, const struct co_buffer *objects,
                         size_t nobjects, struct pa_diag *d)
{
	for (size_t i = 0; i < nobjects; i++) {
		const struct amd_target_info *p = co_relocatable_processor(&objects[i]);
		if (!p) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "link input %zu is not an AMDGPU relocatable object", i + 1);
			return false;
		}
		if (p != t->info) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "link input %zu is for %s, not for the link target %s",
			               i + 1, p->name, t->info->name);
			return false;
		}
	}
	return true;
}

bool co_link(const struct amd_target *t, const struct co_buffer *objects, size_t nobjects,
             struct co_buffer *out, struct pa_diag *d)
{
	out->data = NULL;
	out->size = 0;
	char isa[128];
	isa_name(t, isa, sizeof isa);
	if (!check_inputs(t, objects, nobjects, d))
		return false;
	struct co_comgr api;
	if (!co_comgr_load(&api, d))
		return false;
	bool ok = comgr_knows(&api, t);
	if (!ok)
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "comgr does not support %s; use the built-in executable writer",
		               isa);
	ok = ok && comgr_link(&api, isa, objects, nobjects, out, d);
	co_comgr_unload(&api);
	if (ok && !co_merge_metadata_notes(out, d)) {
		co_buffer_free(out);
		ok = false;
	}
	return ok;
}

bool co_emit_executable(const struct co_module *m, bool prefer_comgr, struct co_buffer *out,
                        enum co_path *path, struct pa_diag *d)
{
	*path = CO_PATH_BUILTIN;
	if (!prefer_comgr || !m->target.info || !co_comgr_supports(&m->target))
		return co_write_executable(m, out, d);
	struct co_buffer rel;
	if (!co_write_relocatable(m, &rel, d))
		return false;
	bool ok = co_link(&m->target, &rel, 1, out, d);
	co_buffer_free(&rel);
	if (ok)
		*path = CO_PATH_COMGR;
	return ok;
}
