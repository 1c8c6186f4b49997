/* libptxas-amd's public API (include/ptxas-amd.h) over the compile job (job.c).
 *
 * A handle owns a copy of the PTX and the results of its last compile.  The options go
 * through the command line's own parser (options.c); those that only the command line
 * can honour (files, printing) and input file names are refused by name.  These are the
 * only symbols the shared library exports (-fvisibility=hidden, PTXAS_AMD_API and the
 * version script ptxas-amd.map). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "options.h"
#include "ptxas-amd.h"

/* Tells our handles from stray pointers (a cheap check, not a guarantee). */
#define HANDLE_MAGIC 0x70746a61u

struct ptxas_amd_compiler {
	uint32_t magic;
	char *ptx;
	size_t ptx_len;
	bool compiled; /* the last compile succeeded: `result.code` is the code object */
	struct pa_job_result result;
	char *option_errors; /* the log of a compile refused for its options (malloc'd) */
};

static bool valid(const struct ptxas_amd_compiler *h)
{
	return h && h->magic == HANDLE_MAGIC;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_version(unsigned *major, unsigned *minor)
{
	if (!major || !minor)
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	*major = PTXAS_AMD_VERSION_MAJOR;
	*minor = PTXAS_AMD_VERSION_MINOR;
	return PTXAS_AMD_SUCCESS;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_create(ptxas_amd_handle *handle, size_t ptx_size,
                                                const char *ptx)
{
	if (!handle || (!ptx && ptx_size))
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	*handle = NULL;
	struct ptxas_amd_compiler *h = calloc(1, sizeof *h);
	char *copy = malloc(ptx_size ? ptx_size : 1);
	if (!h || !copy) {
		free(h);
		free(copy);
		return PTXAS_AMD_ERROR_OUT_OF_MEMORY;
	}
	if (ptx_size)
		memcpy(copy, ptx, ptx_size);
	h->magic = HANDLE_MAGIC;
	h->ptx = copy;
	h->ptx_len = ptx_size;
	*handle = h;
	return PTXAS_AMD_SUCCESS;
}

static void drop_results(struct ptxas_amd_compiler *h)
{
	pa_job_result_free(&h->result);
	free(h->option_errors);
	h->option_errors = NULL;
	h->compiled = false;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_destroy(ptxas_amd_handle *handle)
{
	if (!handle || !valid(*handle))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	struct ptxas_amd_compiler *h = *handle;
	drop_results(h);
	free(h->ptx);
	h->magic = 0;
	free(h);
	*handle = NULL;
	return PTXAS_AMD_SUCCESS;
}

/* Refuses a compile for its options: the error log says why. */
static ptxas_amd_result refuse(struct ptxas_amd_compiler *h, const char *why, const char *arg)
{
	char msg[1024];
	snprintf(msg, sizeof msg, why, arg);
	size_t n = strlen("ptxas-amd: error: ") + strlen(msg) + 2;
	h->option_errors = malloc(n);
	if (!h->option_errors)
		return PTXAS_AMD_ERROR_OUT_OF_MEMORY;
	snprintf(h->option_errors, n, "ptxas-amd: error: %s\n", msg);
	return PTXAS_AMD_ERROR_UNSUPPORTED_OPTION;
}

/* Parses the options and the GPU list; anything but success leaves the reason logged. */
static ptxas_amd_result read_options(struct ptxas_amd_compiler *h, int noptions,
                                     const char *const *options, struct pa_options *o,
                                     struct amd_target *targets, size_t *ntargets)
{
	char err[512];
	switch (pa_options_parse(noptions, options, o, err, sizeof err)) {
	case PA_OPTIONS_OK:
		break;
	case PA_OPTIONS_HELP:
	case PA_OPTIONS_VERSION:
		return refuse(h, "%s",
		              "options '--help' and '--version' are for the command line only");
	default:
		return refuse(h, "%s", err);
	}
	if (o->cli_only && o->cli_only[0] == '-')
		return refuse(h,
		              "option '%s' is for the command line only (the library returns the "
		              "code object and logs through its handle)",
		              o->cli_only);
	if (o->cli_only)
		return refuse(h,
		              "'%s': the library compiles the PTX given to ptxas_amd_create, not "
		              "files",
		              o->cli_only);
	if (!pa_options_targets(o, targets, ntargets, err, sizeof err))
		return refuse(h, "%s", err);
	if (o->relocatable && *ntargets > 1)
		return refuse(h, "%s", "-c writes one relocatable object: give one --gpu-name");
	return PTXAS_AMD_SUCCESS;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_compile(ptxas_amd_handle handle, int noptions,
                                                 const char *const *options)
{
	if (!valid(handle))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	if (noptions < 0 || (noptions && !options))
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	struct ptxas_amd_compiler *h = handle;
	drop_results(h);
	struct pa_options o;
	struct amd_target targets[PA_MAX_TARGETS];
	size_t ntargets = 0;
	ptxas_amd_result status = read_options(h, noptions, options, &o, targets, &ntargets);
	if (status == PTXAS_AMD_SUCCESS) {
		struct pa_job job = {.ptx = h->ptx,
		                     .ptx_len = h->ptx_len,
		                     .filename = o.input_name ? o.input_name : "<ptx>",
		                     .options = &o,
		                     .targets = targets,
		                     .ntargets = ntargets};
		pa_job_run(&job, &h->result);
		h->compiled = h->result.ok;
		status = h->result.out_of_memory ? PTXAS_AMD_ERROR_OUT_OF_MEMORY
		         : h->result.ok          ? PTXAS_AMD_SUCCESS
		                                 : PTXAS_AMD_ERROR_COMPILATION_FAILURE;
	}
	pa_options_free(&o);
	return status;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_code_object_size(ptxas_amd_handle handle, size_t *size)
{
	if (!valid(handle))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	if (!size)
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	if (!handle->compiled)
		return PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE;
	*size = handle->result.code_size;
	return PTXAS_AMD_SUCCESS;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_code_object(ptxas_amd_handle handle, void *buffer)
{
	if (!valid(handle))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	if (!buffer)
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	if (!handle->compiled)
		return PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE;
	memcpy(buffer, handle->result.code, handle->result.code_size);
	return PTXAS_AMD_SUCCESS;
}

static const char *error_log(const struct ptxas_amd_compiler *h)
{
	if (h->option_errors)
		return h->option_errors;
	return h->result.errors ? h->result.errors : "";
}

static const char *info_log(const struct ptxas_amd_compiler *h)
{
	return h->result.info ? h->result.info : "";
}

/* A log's size (with its NUL) or its copy. */
static ptxas_amd_result
log_size(ptxas_amd_handle h, const char *(*log)(const struct ptxas_amd_compiler *), size_t *size)
{
	if (!valid(h))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	if (!size)
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	*size = strlen(log(h)) + 1;
	return PTXAS_AMD_SUCCESS;
}

static ptxas_amd_result
log_copy(ptxas_amd_handle h, const char *(*log)(const struct ptxas_amd_compiler *), char *buffer)
{
	if (!valid(h))
		return PTXAS_AMD_ERROR_INVALID_HANDLE;
	if (!buffer)
		return PTXAS_AMD_ERROR_INVALID_INPUT;
	const char *text = log(h);
	memcpy(buffer, text, strlen(text) + 1);
	return PTXAS_AMD_SUCCESS;
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_error_log_size(ptxas_amd_handle handle, size_t *size)
{
	return log_size(handle, error_log, size);
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_error_log(ptxas_amd_handle handle, char *buffer)
{
	return log_copy(handle, error_log, buffer);
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_info_log_size(ptxas_amd_handle handle, size_t *size)
{
	return log_size(handle, info_log, size);
}

PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_info_log(ptxas_amd_handle handle, char *buffer)
{
	return log_copy(handle, info_log, buffer);
}

PTXAS_AMD_API const char *ptxas_amd_result_name(ptxas_amd_result result)
{
	static const char *const names[] = {
	        "PTXAS_AMD_SUCCESS",
	        "PTXAS_AMD_ERROR_INVALID_HANDLE",
	        "PTXAS_AMD_ERROR_INVALID_INPUT",
	        "PTXAS_AMD_ERROR_COMPILATION_FAILURE",
	        "PTXAS_AMD_ERROR_UNSUPPORTED_OPTION",
	        "PTXAS_AMD_ERROR_OUT_OF_MEMORY",
	        "PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE",
	};
	if ((unsigned)result < sizeof names / sizeof names[0])
		return names[result];
	return "PTXAS_AMD_ERROR_UNKNOWN";
}
