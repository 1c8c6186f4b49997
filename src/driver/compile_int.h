/* compile_int.h: the driver's pipeline state (struct compiler), shared by compile.c (kernels,
 * real calls) and fnptr.c (function pointers as code addresses).  Not an API. */
#ifndef PA_COMPILE_INT_H
#define PA_COMPILE_INT_H

#include "compile.h"
#include "ir/ir.h"
#include "isel/isel.h"
#include "lineinfo.h"
#include "moddata.h"
#include "page_pool.h"
#include "ptx.h"
#include "regalloc/regalloc.h"

struct callee_part;
struct drv_pool;

enum stage {
	ST_PARSE,
	ST_IR,
	ST_OPT,
	ST_UNIFORM,
	ST_ISEL,
	ST_RA,
	ST_SCHED,
	ST_EMIT,
	ST_CODEOBJ,
	ST_N
};
/* A kernel whose callees are not all defined yet: a copy of its body in its own arena,
 * compiled (and freed) once they are, or at the end of the module. */
struct deferred_kernel {
	struct pa_arena arena;
	const struct ptx_function *fn;
	struct deferred_kernel *next;
};

struct compiler {
	const struct pa_compile_options *o;
	struct pa_diag *d, *real_d; /* d: where messages go now (a quiet sink, compile_kernel) */
	struct pa_arena fn_arena,
	        mod_arena; /* fn_arena: the kernel's IR (reset after allocation) */
	/* The kernel's machine IR lives in one of two arenas; after a stage it is copied
	 * into the other (mir_settle) and the first is reset, so what a stage left behind
	 * (replaced instruction arrays) never adds up: peak memory is the IR, then the MIR
	 * plus one stage's working data, not the sum of all stages (docs/ARCHITECTURE.md). */
	struct pa_arena mir_arena[2];
	/* The MIR passes' temporaries (mir_function.pass_arena), emptied after each pass: its
	 * memory is reused by the next pass instead of piling up in the MIR's arena.  4 KiB
	 * pages (small_pages): what it keeps for reuse stays resident, so no 2 MiB rounding. */
	struct pa_arena pass_arena;
	unsigned mir_cur;
	bool compact; /* the above is in use: a kernel without real calls (with them, the
	               * kernel's and its callees' IR and MIR stay in fn_arena until linked) */
	struct pa_arena lib_arena; /* the device functions' bodies (for inlining) */
	struct pa_page_pool pages; /* the above arenas' given-back mappings (page_pool.h) */
	struct ir_funclib lib;
	struct deferred_kernel *deferred; /* in source order */
	struct ptx_module_state mod;      /* as of the last function handed over */
	struct co_kernel *kernels;
	struct ra_stats *kstats; /* per kernel: spill figures for -v */
	size_t nkernels, cap;
	struct pa_moddata data;
	struct co_reloc *relocs; /* of the kernels' code */
	uint32_t nrelocs, relocs_cap;
	double t[ST_N];
	double mark;
	size_t bytes[ST_N]; /* function-arena bytes allocated per stage (--time-passes) */
	size_t bytes_mark;
	bool entry_found;
	const char **printfs; /* amdhsa.printf strings of the module so far (mod_arena) */
	uint32_t nprintfs, printfs_cap;
	/* real calls of the kernel being compiled (compile_kernel): the inlining mode, the
	 * functions that failed to compile on their own, and the functions linked */
	unsigned inline_mode;
	const struct ptx_symbol **inline_only;
	uint32_t ninline_only, inline_only_cap;
	struct callee_part *parts;
	uint32_t nparts;
	/* function pointers (docs/CALLS.md): code addresses rather than hashes, decided at the
	 * end of the module (drv_decide_fn_pointers); then the address-taken functions, each
	 * compiled once, and the most VGPRs any of them uses */
	bool fnptr_address;
	struct co_function *functions;
	uint32_t nfunctions, functions_cap;
	unsigned fn_vgprs;
	const char **taken; /* their names (ir->fnptr_taken) */
	uint32_t ntaken;
	bool **fn_ptr_slots; /* per function: its frame slots used as addresses (ptrargs.c) */
	uint32_t fn_ptr_slots_cap;
	const char **fn_asm; /* -S: each function's listing, printed after the kernels' */
	uint32_t fn_asm_cap;
	struct drv_lineinfo lines; /* -lineinfo: the module's .loc and .file (lineinfo.c) */
	struct drv_pool *pool;     /* -j: kernels compiled on worker threads (kpar.c; NULL: none) */
};

/* compile.c */
double drv_stage_clock(const struct compiler *c);
size_t drv_kernel_slot(struct compiler *c);
void drv_compile_here(struct compiler *c, const struct ptx_function *pf);
struct pa_arena *drv_mir_arena(struct compiler *c);
bool drv_compile_mir(struct compiler *c, const struct ptx_function *pf,
                     const struct ptx_module_state *m, const struct ptx_symbol *real_sym,
                     struct ir_function *ir, struct mir_function *mf, struct ra_stats *ras,
                     size_t *index);
bool drv_link_callees(struct compiler *c, const struct ptx_module_state *m,
                      const struct ir_function *kir, struct mir_function *kmf,
                      const struct ptx_symbol **failed);
bool **drv_callee_slots(struct compiler *c, const struct ir_function *ir, bool **ptr);
bool **drv_part_slots(struct compiler *c);
void drv_undo_kernel(struct compiler *c, size_t nkernels, uint32_t nprintfs);

/* kpar.c: -j.  drv_pool_start makes c->pool when the options ask for threads;
 * drv_pool_submit queues kernel pf when a worker can compile it alone (false: compile it
 * here); drv_pool_drain adds every queued kernel to the module, in order; drv_pool_stop, once
 * the code object is written, joins the threads and frees the kernels' memory. */
void drv_pool_start(struct compiler *c);
bool drv_pool_submit(struct compiler *c, const struct ptx_function *pf);
void drv_pool_drain(struct compiler *c);
void drv_pool_stop(struct drv_pool *p);

/* fnptr.c */
void drv_decide_fn_pointers(struct compiler *c, const struct ptx_module_state *m);

#endif
