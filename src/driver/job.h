/* A compile job: PTX text in memory, compiled for one GPU or for several (in parallel
 * threads, one code object each, put together as a clang offload bundle), with the
 * diagnostics and the -v lines collected as text.  The library API (api.c) runs every
 * compile through here, and the command line its multi-GPU compiles. */
#ifndef DRIVER_JOB_H
#define DRIVER_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

struct pa_job {
	const char *ptx; /* ptx_len bytes */
	size_t ptx_len;
	const char *filename; /* in diagnostics */
	const struct pa_options *options;
	const struct amd_target *targets;
	size_t ntargets;
};

struct pa_job_result {
	bool ok;            /* no errors: `code` holds the code object */
	bool out_of_memory; /* a log stream could not be opened */
	uint8_t *code;      /* one code object, or the bundle of several (malloc'd) */
	size_t code_size;
	char *errors, *info; /* NUL-terminated (malloc'd, never NULL after pa_job_run) */
	size_t errors_len, info_len;
};

/* Runs the job.  The result is deterministic: the same whatever the threads' order. */
void pa_job_run(const struct pa_job *job, struct pa_job_result *r);
void pa_job_result_free(struct pa_job_result *r);

/* The bundle entry id of a target: "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-". */
void pa_job_bundle_id(const struct amd_target *t, char *buf, size_t len);

#endif
