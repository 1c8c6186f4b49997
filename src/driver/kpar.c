/* -j / --threads: the kernels of one module compiled on worker threads.
 *
 * The front end still reads the module on the calling thread and hands over one function at
 * a time.  A kernel that needs nothing of the module but its own body -- no calls, no
 * function addresses -- is copied into its own arena (its "job") and queued; a worker
 * compiles it with a compiler of its own (struct compiler: the worker's function and MIR
 * arenas, the job's module arena for what it produces, a diagnostics sink that only counts).
 * Everything else in the module stays on the calling thread and in source order: device
 * functions, kernels with calls or function pointers, deferred kernels, function pointers
 * decided at the module's end.  Before any of these compiles, and at the end, the queue is
 * drained: each finished job, oldest first, is added to the module as if it had been
 * compiled at its turn (kernel entry, resource figures, relocations, stage times).
 *
 * Same bytes for every thread count: a job's kernel is compiled by the same code from the
 * same input (a kernel without calls reads nothing of the module state that changes while
 * later text is read), and the results are added in source order.  A job whose compile
 * reported anything (an error, a warning), or that uses printf (its format ids number
 * from the module's count so far), is thrown away and compiled again on the calling thread at
 * its turn, so messages, their order relative to other kernels', -Werror and the printf table
 * are exactly those of -j1.  After a failed kernel the rest of the queue is dropped, as the
 * front end stops handing kernels over after an error.  (Parse errors found in text after a
 * queued kernel can print before that kernel's compile errors.)
 *
 * At most QUEUE_PER_THREAD jobs per thread wait or run at once, so the copies held stay a
 * few kernels per thread, not the module.  Complexity: a copy of each queued kernel's body
 * on top of -j1's work. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile_int.h"
#include "options.h"

#define QUEUE_PER_THREAD 4
/* The first chunk of a job's module arena: it holds one kernel's code and entry to the
 * module's end (the arena's default, 64 KiB, is 64 MiB over 1,000 small kernels). */
#define RESULT_CHUNK ((size_t)4 << 10)
/* Each worker's stack (as job.c's target threads: every corpus kernel fits in 512 KiB). */
#define THREAD_STACK ((size_t)16 << 20)

struct kjob {
	struct pa_arena input; /* the body (ir_copy_function); freed once merged */
	const struct ptx_function *fn;
	struct ptx_module_state mod;
	struct pa_diag diag;
	struct compiler sub; /* what the worker made; its mod_arena lives to the module's end */
	bool done, clean;
	struct kjob *next; /* in source order */
};

struct worker {
	struct drv_pool *pool;
	pthread_t thread;
	bool started;
	struct pa_arena fn_arena, mir_arena[2], pass_arena; /* reused from job to job */
	struct pa_page_pool pages;                          /* theirs (this thread's alone) */
};

struct drv_pool {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct kjob *head, *tail; /* queued, not merged yet */
	struct kjob *todo;        /* the first queued job no worker took yet */
	unsigned nqueued;
	bool stop;
	struct kjob *merged; /* merged jobs whose results the module still points to */
	const struct compiler *c;
	unsigned nworkers;
	struct worker workers[];
};

static void run_job(struct worker *w, struct kjob *j)
{
	const struct compiler *c = w->pool->c;
	struct compiler *s = &j->sub;
	memset(s, 0, sizeof *s);
	pa_diag_init(&j->diag, NULL);
	j->diag.warnings_off = c->real_d->warnings_off;
	j->diag.warnings_error = c->real_d->warnings_error;
	s->o = c->o;
	s->d = s->real_d = &j->diag;
	s->fn_arena = w->fn_arena;
	s->mir_arena[0] = w->mir_arena[0];
	s->mir_arena[1] = w->mir_arena[1];
	s->pass_arena = w->pass_arena;
	pa_arena_init(&s->mod_arena);
	s->mod_arena.chunk_size = RESULT_CHUNK;
	pa_arena_init(&s->lib_arena);
	ir_funclib_init(&s->lib, &s->lib_arena); /* (empty: the kernel calls nothing) */
	s->mod = j->mod;
	s->mark = drv_stage_clock(s);
	drv_compile_here(s, j->fn);
	w->fn_arena = s->fn_arena;
	w->mir_arena[0] = s->mir_arena[0];
	w->mir_arena[1] = s->mir_arena[1];
	w->pass_arena = s->pass_arena;
	memset(&s->fn_arena, 0, sizeof s->fn_arena);
	memset(s->mir_arena, 0, sizeof s->mir_arena);
	memset(&s->pass_arena, 0, sizeof s->pass_arena);
	pa_arena_free(&s->lib_arena);
	j->clean = s->nkernels == 1 && !s->nprintfs && !j->diag.nerrors && !j->diag.nwarnings &&
	           !s->nfunctions;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct drv_pool *p = w->pool;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->todo && !p->stop)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->todo)
			break;
		struct kjob *j = p->todo;
		p->todo = j->next;
		pthread_mutex_unlock(&p->lock);
		run_job(w, j);
		pthread_mutex_lock(&p->lock);
		j->done = true;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static unsigned thread_count(unsigned asked)
{
	if (asked)
		return asked;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > PA_MAX_THREADS ? PA_MAX_THREADS : (unsigned)n;
}

void drv_pool_start(struct compiler *c)
{
	const struct pa_compile_options *o = c->o;
	unsigned n = thread_count(o->threads);
	/* (the dumps and -S print while a kernel compiles, in kernel order) */
	if (n <= 1 || o->dump_ir || o->dump_mir || o->dump_sched || o->asm_out)
		return;
	struct drv_pool *p = pa_xcalloc(1, sizeof *p + n * sizeof p->workers[0]);
	p->c = c;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	pthread_attr_t attr;
	bool have_attr = pthread_attr_init(&attr) == 0;
	if (have_attr)
		pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &p->workers[p->nworkers];
		w->pool = p;
		pa_arena_init(&w->fn_arena);
		w->fn_arena.small_pages = true; /* (arena.h) */
		pa_arena_init(&w->mir_arena[0]);
		pa_arena_init(&w->mir_arena[1]);
		pa_arena_init(&w->pass_arena);
		w->pass_arena.small_pages = true; /* (compile_int.h) */
		pa_page_pool_init(&w->pages, PA_PAGE_POOL_CAP);
		w->fn_arena.pool = w->mir_arena[0].pool = w->mir_arena[1].pool = &w->pages;
		if (!have_attr || pthread_create(&w->thread, &attr, worker_main, w) != 0)
			break; /* (fewer threads: slower, same result) */
		w->started = true;
		p->nworkers++;
	}
	if (have_attr)
		pthread_attr_destroy(&attr);
	if (!p->nworkers) {
		drv_pool_stop(p);
		return;
	}
	c->pool = p;
}

static void count_taken(void *user, const struct ptx_symbol *fn)
{
	(void)fn;
	++*(unsigned *)user;
}

/* A kernel a worker can compile alone: it calls nothing and names no function. */
static bool self_contained(const struct ptx_function *pf)
{
	for (uint32_t i = 0; i < pf->nstmts; i++)
		if (pf->stmts[i].kind == PTX_STMT_INSN && pf->stmts[i].u.insn->op == PTX_OP_CALL)
			return false;
	unsigned taken = 0;
	bool indirect = false, narrow = false;
	ir_body_fn_pointers(pf, count_taken, &taken, &indirect, &narrow);
	return !taken && !indirect;
}

static void free_job(struct kjob *j)
{
	pa_arena_free(&j->input);
	pa_arena_free(&j->sub.mod_arena);
	free(j);
}

/* Adds the oldest job to the module (waiting for it), or compiles it here again. */
static void merge_head(struct compiler *c)
{
	struct drv_pool *p = c->pool;
	pthread_mutex_lock(&p->lock);
	struct kjob *j = p->head;
	while (!j->done)
		pthread_cond_wait(&p->done, &p->lock);
	p->head = j->next;
	if (!p->head)
		p->tail = NULL;
	p->nqueued--;
	pthread_mutex_unlock(&p->lock);
	if (pa_diag_failed(c->d)) { /* (-j1 would not have compiled it) */
		free_job(j);
		return;
	}
	if (!j->clean) {
		struct ptx_module_state now = c->mod;
		c->mod = j->mod;
		drv_compile_here(c, j->fn);
		c->mod = now;
		free_job(j);
		return;
	}
	const struct compiler *s = &j->sub;
	size_t index = drv_kernel_slot(c);
	c->kernels[index] = s->kernels[0];
	c->kstats[index] = s->kstats[0];
	for (uint32_t i = 0; i < s->nrelocs; i++) {
		c->relocs = pa_arena_grow(&c->mod_arena, c->relocs, &c->relocs_cap, c->nrelocs + 1,
		                          sizeof *c->relocs);
		c->relocs[c->nrelocs] = s->relocs[i];
		c->relocs[c->nrelocs++].index = index;
	}
	for (int st = 0; st < ST_N; st++) {
		c->t[st] += s->t[st];
		c->bytes[st] += s->bytes[st];
	}
	pa_arena_free(&j->input);
	j->next = p->merged; /* (its kernel's name, code and arguments live in sub.mod_arena) */
	p->merged = j;
}

bool drv_pool_submit(struct compiler *c, const struct ptx_function *pf)
{
	struct drv_pool *p = c->pool;
	if (!p || !self_contained(pf))
		return false;
	while (p->nqueued >= QUEUE_PER_THREAD * p->nworkers)
		merge_head(c);
	struct kjob *j = pa_xcalloc(1, sizeof *j);
	pa_arena_init(&j->input);
	j->fn = ir_copy_function(pf, &j->input);
	j->mod = c->mod;
	pthread_mutex_lock(&p->lock);
	if (p->tail)
		p->tail->next = j;
	else
		p->head = j;
	p->tail = j;
	if (!p->todo)
		p->todo = j;
	p->nqueued++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return true;
}

void drv_pool_drain(struct compiler *c)
{
	while (c->pool && c->pool->head)
		merge_head(c);
}

void drv_pool_stop(struct drv_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nworkers; i++) {
		struct worker *w = &p->workers[i];
		if (w->started)
			pthread_join(w->thread, NULL);
		pa_arena_free(&w->fn_arena);
		pa_arena_free(&w->mir_arena[0]);
		pa_arena_free(&w->mir_arena[1]);
		pa_arena_free(&w->pass_arena);
		pa_page_pool_drain(&w->pages);
	}
	while (p->head) { /* (none after a drain) */
		struct kjob *j = p->head;
		p->head = j->next;
		free_job(j);
	}
	while (p->merged) {
		struct kjob *j = p->merged;
		p->merged = j->next;
		free_job(j);
	}
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
