/* pa_job_run: one PTX text in memory, compiled for each GPU of the job.
 *
 * Each target compiles on its own thread (when there are several) from its own read-only
 * stream over the shared text, into its own diagnostics and -v streams (open_memstream):
 * pa_compile_ptx keeps all its state in the call, so nothing is shared but the input.  The
 * results are put together in the targets' order after every thread is joined, so the
 * output does not depend on which thread finished first.  Several targets make a clang
 * offload bundle (util/offload_bundle.h) laid out as clang-19's HIP driver lays out its
 * fat binaries: the empty host entry first, then one entry per target, 4096-byte aligned.
 * Diagnostics that every target reported alike are printed once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "codeobj.h"
#include "job.h"
#include "offload_bundle.h"

/* Each target thread's stack: whatever a thread's default is (it varies with the stack
 * rlimit), a fixed size, generous: every PTX file of tests/corpus and tests/exec compiles
 * within 512 KiB. */
#define THREAD_STACK ((size_t)16 << 20)

/* One target's compile and what it produced. */
struct target_run {
	const struct pa_job *job;
	size_t index;
	bool ok, out_of_memory;
	struct co_buffer code;
	char *errors, *info;
	size_t errors_len, info_len;
};

static void *run_target(void *arg)
{
	struct target_run *t = arg;
	const struct pa_job *job = t->job;
	const struct pa_options *o = job->options;
	/* fmemopen of 0 bytes is an empty stream; the cast drops a const it does not need
	 * (mode "r" never writes). */
	FILE *in = fmemopen((void *)(job->ptx_len ? job->ptx : ""), job->ptx_len, "r");
	FILE *errors = open_memstream(&t->errors, &t->errors_len);
	FILE *info = o->verbose ? open_memstream(&t->info, &t->info_len) : NULL;
	if (!in || !errors || (o->verbose && !info)) {
		t->out_of_memory = true;
	} else {
		struct pa_diag diag;
		pa_diag_init(&diag, errors);
		diag.warnings_off = o->no_warn;
		diag.warnings_error = o->werror;
		struct pa_compile_options co;
		pa_options_compile(o, &job->targets[t->index], job->filename, &co);
		co.info = info;
		t->ok = pa_compile_ptx(in, &co, &t->code, &diag);
	}
	if (in)
		fclose(in);
	if (errors)
		fclose(errors);
	if (info)
		fclose(info);
	return NULL;
}

void pa_job_bundle_id(const struct amd_target *t, char *buf, size_t len)
{
	char id[128];
	amd_target_id_string(t, id, sizeof id);
	snprintf(buf, len, "%s%s", PA_BUNDLE_HIP_PREFIX, id);
}

/* Runs every target, on threads when there are several (inline when a thread cannot be
 * started: slower, same result). */
static void run_all(struct target_run *runs, size_t n)
{
	pthread_t threads[PA_MAX_TARGETS];
	bool started[PA_MAX_TARGETS] = {false};
	pthread_attr_t attr;
	bool have_attr = n > 1 && pthread_attr_init(&attr) == 0;
	if (have_attr)
		pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (size_t i = 0; i < n; i++) {
		started[i] =
		        have_attr && pthread_create(&threads[i], &attr, run_target, &runs[i]) == 0;
		if (!started[i])
			run_target(&runs[i]);
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
	if (have_attr)
		pthread_attr_destroy(&attr);
}

/* The diagnostics of all targets: once when they all said the same, else each target's
 * under a line naming it. */
static void merge_errors(const struct pa_job *job, const struct target_run *runs, FILE *out)
{
	bool alike = true;
	for (size_t i = 1; i < job->ntargets; i++)
		alike = alike && runs[i].errors_len == runs[0].errors_len &&
		        !memcmp(runs[i].errors, runs[0].errors, runs[0].errors_len);
	for (size_t i = 0; i < (alike ? 1 : job->ntargets); i++) {
		if (!runs[i].errors_len)
			continue;
		if (!alike) {
			char id[128];
			amd_target_id_string(&job->targets[i], id, sizeof id);
			fprintf(out, "ptxas-amd: in the compile for %s:\n", id);
		}
		fwrite(runs[i].errors, 1, runs[i].errors_len, out);
	}
}

static void merge_info(const struct pa_job *job, const struct target_run *runs, FILE *out)
{
	for (size_t i = 0; i < job->ntargets; i++) {
		if (!runs[i].info_len)
			continue;
		if (job->ntargets > 1) {
			char id[128];
			amd_target_id_string(&job->targets[i], id, sizeof id);
			fprintf(out, "ptxas-amd info    : Compiling for %s\n", id);
		}
		fwrite(runs[i].info, 1, runs[i].info_len, out);
	}
}

/* The code object: the one target's, or the bundle of all. */
static bool assemble_code(const struct pa_job *job, struct target_run *runs,
                          struct pa_job_result *r)
{
	if (job->ntargets == 1) {
		r->code = runs[0].code.data;
		r->code_size = runs[0].code.size;
		runs[0].code.data = NULL;
		return true;
	}
	struct pa_bundle_entry entries[PA_MAX_TARGETS + 1];
	char ids[PA_MAX_TARGETS][160];
	entries[0] = (struct pa_bundle_entry){PA_BUNDLE_HOST_ID, strlen(PA_BUNDLE_HOST_ID), "", 0};
	for (size_t i = 0; i < job->ntargets; i++) {
		pa_job_bundle_id(&job->targets[i], ids[i], sizeof ids[i]);
		entries[i + 1] = (struct pa_bundle_entry){ids[i], strlen(ids[i]), runs[i].code.data,
		                                          runs[i].code.size};
	}
	return pa_bundle_write(entries, job->ntargets + 1, PA_BUNDLE_ALIGN, &r->code,
	                       &r->code_size);
}

static void collect(const struct pa_job *job, struct target_run *runs, struct pa_job_result *r)
{
	FILE *errors = open_memstream(&r->errors, &r->errors_len);
	FILE *info = open_memstream(&r->info, &r->info_len);
	r->ok = !r->out_of_memory;
	for (size_t i = 0; i < job->ntargets; i++) {
		r->ok = r->ok && runs[i].ok;
		r->out_of_memory = r->out_of_memory || runs[i].out_of_memory;
	}
	if (!errors || !info) {
		r->out_of_memory = true;
	} else {
		merge_errors(job, runs, errors);
		merge_info(job, runs, info);
	}
	if (errors)
		fclose(errors);
	if (info)
		fclose(info);
	if (r->ok && !r->out_of_memory && !assemble_code(job, runs, r))
		r->ok = false;
}

void pa_job_run(const struct pa_job *job, struct pa_job_result *r)
{
	*r = (struct pa_job_result){0};
	struct target_run *runs = pa_xcalloc(job->ntargets, sizeof *runs);
	for (size_t i = 0; i < job->ntargets; i++)
		runs[i] = (struct target_run){.job = job, .index = i};
	if (job->ntargets > PA_MAX_TARGETS)
		r->out_of_memory = true; /* not reached: pa_options_targets limits the list */
	else
		run_all(runs, job->ntargets);
	collect(job, runs, r);
	for (size_t i = 0; i < job->ntargets; i++) {
		co_buffer_free(&runs[i].code);
		free(runs[i].errors);
		free(runs[i].info);
	}
	free(runs);
	/* Never NULL logs, so that callers can hand them out as "" */
	if (!r->errors) {
		r->errors = pa_xcalloc(1, 1);
		r->errors_len = 0;
	}
	if (!r->info) {
		r->info = pa_xcalloc(1, 1);
		r->info_len = 0;
	}
}

void pa_job_result_free(struct pa_job_result *r)
{
	free(r->code);
	free(r->errors);
	free(r->info);
	*r = (struct pa_job_result){0};
}
