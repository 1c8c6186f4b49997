/* Linking relocatable code objects into an executable through ROCm comgr.
 *
 * Algorithm: put each relocatable into a comgr data set (DATA_KIND_RELOCATABLE),
 * run AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE (comgr's built-in lld) with
 * the target's ISA name, and copy the executable out.  Before that, the ISA name is
 * looked up in comgr's own list, so a target it does not know (Debian's comgr 5.2:
 * gfx942, gfx1100, gfx1200) fails with a diagnostic instead of an lld error, and the
 * caller falls back to co_write_executable (co_emit_executable does that choice).
 * requires: relocatables from co_write_relocatable; breaks: nothing.
 * Complexity: what lld costs. */
#include "codeobj.h"

#include <amd_comgr.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"

static void isa_name(const struct amd_target *t, char *buf, size_t len)
{
	amd_target_id_string(t, buf, len);
}

bool co_comgr_supports(const struct amd_target *t)
{
	char want[128];
	isa_name(t, want, sizeof want);
	/* comgr lists bare processors ("amdgcn-amd-amdhsa--gfx90a"); compare the part
	 * before the feature suffixes. */
	size_t want_len =
	        strcspn(want + strlen("amdgcn-amd-amdhsa--"), ":") + strlen("amdgcn-amd-amdhsa--");
	size_t n = 0;
	if (amd_comgr_get_isa_count(&n) != AMD_COMGR_STATUS_SUCCESS)
		return false;
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL;
		if (amd_comgr_get_isa_name(i, &name) != AMD_COMGR_STATUS_SUCCESS || !name)
			continue;
		if (strlen(name) == want_len && !strncmp(name, want, want_len))
			return true;
	}
	return false;
}

const char *co_path_name(enum co_path p)
{
	return p == CO_PATH_COMGR ? "linked by ROCm comgr" : "built-in executable writer";
}

static bool comgr_fail(struct pa_diag *d, const char *what, amd_comgr_status_t st)
{
	const char *msg = NULL;
	if (amd_comgr_status_string(st, &msg) != AMD_COMGR_STATUS_SUCCESS)
		msg = "unknown status";
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0, "comgr: %s: %s", what, msg);
	return false;
}

static bool add_inputs(amd_comgr_data_set_t set, const struct co_buffer *objects, size_t nobjects,
                       struct pa_diag *d)
{
	for (size_t i = 0; i < nobjects; i++) {
		amd_comgr_data_t data;
		amd_comgr_status_t st =
		        amd_comgr_create_data(AMD_COMGR_DATA_KIND_RELOCATABLE, &data);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			return comgr_fail(d, "create data", st);
		char name[32];
		snprintf(name, sizeof name, "input%zu.o", i);
		st = amd_comgr_set_data(data, objects[i].size, (const char *)objects[i].data);
		if (st == AMD_COMGR_STATUS_SUCCESS)
			st = amd_comgr_set_data_name(data, name);
		if (st == AMD_COMGR_STATUS_SUCCESS)
			st = amd_comgr_data_set_add(set, data);
		amd_comgr_release_data(data);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			return comgr_fail(d, "add relocatable", st);
	}
	return true;
}

static bool take_output(amd_comgr_data_set_t result, struct co_buffer *out, struct pa_diag *d)
{
	size_t count = 0;
	amd_comgr_status_t st =
	        amd_comgr_action_data_count(result, AMD_COMGR_DATA_KIND_EXECUTABLE, &count);
	if (st != AMD_COMGR_STATUS_SUCCESS || count != 1) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "comgr: link produced %zu executables", count);
		return false;
	}
	amd_comgr_data_t data;
	st = amd_comgr_action_data_get_data(result, AMD_COMGR_DATA_KIND_EXECUTABLE, 0, &data);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return comgr_fail(d, "get executable", st);
	size_t size = 0;
	st = amd_comgr_get_data(data, &size, NULL);
	if (st == AMD_COMGR_STATUS_SUCCESS) {
		out->data = pa_xmalloc(size ? size : 1);
		out->size = size;
		st = amd_comgr_get_data(data, &size, (char *)out->data);
	}
	amd_comgr_release_data(data);
	if (st != AMD_COMGR_STATUS_SUCCESS) {
		co_buffer_free(out);
		return comgr_fail(d, "read executable", st);
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
	if (!co_comgr_supports(t)) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "comgr does not support %s; use the built-in executable writer",
		               isa);
		return false;
	}
	amd_comgr_data_set_t input, result;
	amd_comgr_action_info_t info;
	if (amd_comgr_create_data_set(&input) != AMD_COMGR_STATUS_SUCCESS)
		return comgr_fail(d, "create data set", AMD_COMGR_STATUS_ERROR);
	if (amd_comgr_create_data_set(&result) != AMD_COMGR_STATUS_SUCCESS) {
		amd_comgr_destroy_data_set(input);
		return comgr_fail(d, "create data set", AMD_COMGR_STATUS_ERROR);
	}
	bool ok = amd_comgr_create_action_info(&info) == AMD_COMGR_STATUS_SUCCESS;
	if (!ok) {
		amd_comgr_destroy_data_set(input);
		amd_comgr_destroy_data_set(result);
		return comgr_fail(d, "create action info", AMD_COMGR_STATUS_ERROR);
	}
	amd_comgr_status_t st = amd_comgr_action_info_set_isa_name(info, isa);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		ok = comgr_fail(d, "set ISA name", st);
	ok = ok && add_inputs(input, objects, nobjects, d);
	if (ok) {
		st = amd_comgr_do_action(AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, info,
		                         input, result);
		if (st != AMD_COMGR_STATUS_SUCCESS)
			ok = comgr_fail(d, "link relocatable to executable", st);
	}
	ok = ok && take_output(result, out, d);
	amd_comgr_destroy_action_info(info);
	amd_comgr_destroy_data_set(input);
	amd_comgr_destroy_data_set(result);
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
