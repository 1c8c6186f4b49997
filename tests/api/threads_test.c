/* libptxas-amd from many threads at once: every (module, GPU) pair is compiled once on the
 * main thread, then NTHREADS threads compile all pairs again concurrently, each in its own
 * order (so different modules compile side by side), with their own handles.  Every
 * concurrent result -- status, code object, error log, info log -- must be byte-identical
 * to the single-threaded one.  Half the threads also compile each module's kernels on
 * threads of their own (--threads 3), which must change nothing either.  Run it under
 * ThreadSanitizer too (docs/LIBRARY.md).
 *
 *   threads_test [--threads N] A.ptx B.ptx ... */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxas-amd.h"

/* The GPU lists compiled: each GPU alone, and all five in one bundle (whose per-GPU
 * compiles run on the library's own threads). */
static const char *const gpu_lists[] = {"gfx90a",  "gfx942",
                                        "gfx1030", "gfx1100",
                                        "gfx1200", "gfx90a,gfx942,gfx1030,gfx1100,gfx1200"};
enum { NLISTS = sizeof gpu_lists / sizeof gpu_lists[0] };

struct module {
	const char *path;
	char *text;
	size_t len;
};

struct result {
	ptxas_amd_result status;
	unsigned char *code;
	size_t code_size;
	char *errors, *info;
};

struct job {
	const struct module *module;
	const char *gpus;
	struct result want; /* the single-threaded result */
};

struct worker {
	const struct job *jobs;
	size_t njobs, first;
	int mismatches;
	const char *threads; /* -j of its compiles: odd workers compile each module's kernels on
	                      * 3 threads of their own */
};

static char *log_text(ptxas_amd_handle h, int info)
{
	size_t n = 0;
	if (info)
		ptxas_amd_get_info_log_size(h, &n);
	else
		ptxas_amd_get_error_log_size(h, &n);
	char *log = calloc(n + 1, 1);
	if (info)
		ptxas_amd_get_info_log(h, log);
	else
		ptxas_amd_get_error_log(h, log);
	return log;
}

/* threads: the module's own kernels compiled on that many threads (-j; "1": none) */
static void run_job(const struct job *j, const char *threads, struct result *r)
{
	ptxas_amd_handle h;
	const char *opts[] = {"--gpu-name",    j->gpus,     "-v",   "--input-name",
	                      j->module->path, "--threads", threads};
	memset(r, 0, sizeof *r);
	r->status = ptxas_amd_create(&h, j->module->len, j->module->text);
	if (r->status != PTXAS_AMD_SUCCESS)
		return;
	r->status = ptxas_amd_compile(h, 7, opts);
	if (r->status == PTXAS_AMD_SUCCESS) {
		ptxas_amd_get_code_object_size(h, &r->code_size);
		r->code = malloc(r->code_size);
		ptxas_amd_get_code_object(h, r->code);
	}
	r->errors = log_text(h, 0);
	r->info = log_text(h, 1);
	ptxas_amd_destroy(&h);
}

static void free_result(struct result *r)
{
	free(r->code);
	free(r->errors);
	free(r->info);
}

static int same(const struct result *a, const struct result *b)
{
	return a->status == b->status && a->code_size == b->code_size &&
	       (!a->code_size || !memcmp(a->code, b->code, a->code_size)) &&
	       !strcmp(a->errors, b->errors) && !strcmp(a->info, b->info);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	for (size_t k = 0; k < w->njobs; k++) {
		const struct job *j = &w->jobs[(w->first + k) % w->njobs];
		struct result r;
		run_job(j, w->threads, &r);
		if (!same(&r, &j->want)) {
			w->mismatches++;
			fprintf(stderr,
			        "FAIL %s for %s: differs from the single-threaded compile\n",
			        j->module->path, j->gpus);
		}
		free_result(&r);
	}
	return NULL;
}

static int read_module(const char *path, struct module *m)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	fseek(f, 0, SEEK_END);
	m->len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	m->text = malloc(m->len + 1);
	m->path = path;
	int ok = fread(m->text, 1, m->len, f) == m->len;
	fclose(f);
	return ok;
}

int main(int argc, char **argv)
{
	int nthreads = 8, first = 1;
	if (argc > 2 && !strcmp(argv[1], "--threads")) {
		nthreads = atoi(argv[2]);
		first = 3;
	}
	int nmodules = argc - first;
	if (nmodules < 1 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "usage: threads_test [--threads N] A.ptx ...\n");
		return 2;
	}
	struct module *modules = calloc((size_t)nmodules, sizeof *modules);
	size_t njobs = (size_t)nmodules * NLISTS, failed = 0, succeeded = 0;
	struct job *jobs = calloc(njobs, sizeof *jobs);
	for (int m = 0; m < nmodules; m++) {
		if (!read_module(argv[first + m], &modules[m])) {
			perror(argv[first + m]);
			return 2;
		}
		for (int g = 0; g < NLISTS; g++) {
			struct job *j = &jobs[(size_t)m * NLISTS + (size_t)g];
			j->module = &modules[m];
			j->gpus = gpu_lists[g];
			run_job(j, "1", &j->want);
			succeeded += j->want.status == PTXAS_AMD_SUCCESS;
			failed += j->want.status != PTXAS_AMD_SUCCESS;
		}
	}
	pthread_t *threads = calloc((size_t)nthreads, sizeof *threads);
	struct worker *workers = calloc((size_t)nthreads, sizeof *workers);
	for (int t = 0; t < nthreads; t++) {
		workers[t] = (struct worker){jobs, njobs, (size_t)t * njobs / (size_t)nthreads, 0,
		                             t % 2 ? "3" : "1"};
		if (pthread_create(&threads[t], NULL, work, &workers[t])) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	}
	int mismatches = 0;
	for (int t = 0; t < nthreads; t++) {
		pthread_join(threads[t], NULL);
		mismatches += workers[t].mismatches;
	}
	printf("threads_test: %d threads x %zu compiles (%zu compile, %zu fail alike): %d "
	       "mismatches\n",
	       nthreads, njobs, succeeded, failed, mismatches);
	for (size_t i = 0; i < njobs; i++)
		free_result(&jobs[i].want);
	for (int m = 0; m < nmodules; m++)
		free(modules[m].text);
	free(jobs);
	free(modules);
	free(threads);
	free(workers);
	/* Most modules must compile, or the test proves little. */
	return mismatches || succeeded < njobs / 2;
}
