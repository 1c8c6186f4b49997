/* pa_compile_ptx: the pipeline, one kernel at a time.
 *
 * The front end streams functions; for each kernel this file runs, in order: ir_build,
 * ir_cfg_compute, ir_optimize, ir_lane_affine (and ir_optimize again when it rewrote
 * anything), ir_narrow64 (likewise), ir_value_ranges (and ir_optimize again when it rewrote
 * anything, then ir_fold_const_branches and ir_optimize again when it folded),
 * ir_strength_reduce (and ir_optimize again when it rewrote anything, then
 * ir_replace_exit_tests and ir_optimize again when it moved a test), ir_uniformity,
 * ir_loop_motion, isel_run,
 * ra_run, sched_waitcnt, sched_hazards, sched_emit -- verifiers between them with `verify` -- then
 * copies the machine code and the kernel's resource usage into the module arena and resets the
 * function arena, so peak memory follows the largest kernel.  A kernel whose VGPRs must
 * spill but that selection gave no scratch set-up (no .local, no architected flat scratch)
 * gets it in its selected code (ra_stats.needs_scratch, mir_setup_scratch) and is allocated
 * again: the set-up changes the entry's SGPR layout, so it must come before allocation, and
 * nothing after ir_build reads the PTX body, nor anything after selection the IR, on any
 * target.  Device functions are kept
 * (ir_funclib) for inlining into their callers, or compiling on their own for real calls
 * (linked after each kernel that calls them; docs/CALLS.md); a kernel that calls a function
 * not defined yet waits, copied into its own arena, until it is (or the module ends), and so
 * does one that takes a function's address or calls through a pointer: at the module's end
 * drv_decide_fn_pointers makes pointers hashes or code addresses (then compiling each
 * address-taken function once, as a co_function).  Module
 * .global/.const variables are collected as the front end declares them (moddata.c) and the
 * code's PC-relative relocations against them kept per kernel.  At the end the code object
 * writer turns the collected kernels, data and relocations into an executable.  Per-stage
 * CPU time of the compiling thread is accumulated for --time-passes.  Complexity: the sum of the
 * passes'. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile.h"
#include "compile_int.h"
#include "ir/ir.h"
#include "moddata.h"
#include "ptrargs.h"
#include "isel/isel.h"
#include "ptx.h"
#include "regalloc/regalloc.h"
#include "sched/sched.h"

static const char *const stage_names[ST_N] = {"parse",       "ir build + cfg", "ir optimize",
                                              "uniformity",  "isel",           "regalloc",
                                              "sched+waits", "encode",         "code object"};

/* Keeps the function's printf formats (its IR goes away) for the module's metadata. */
static void keep_printfs(struct compiler *c, const struct ir_function *ir)
{
	for (uint32_t i = 0; i < ir->nprintfs; i++) {
		if (c->nprintfs == c->printfs_cap) {
			uint32_t ncap = c->printfs_cap ? 2 * c->printfs_cap : 8;
			const char **np = PA_NEW_ARRAY(&c->mod_arena, const char *, ncap);
			if (c->nprintfs)
				memcpy(np, c->printfs, c->nprintfs * sizeof *np);
			c->printfs = np;
			c->printfs_cap = ncap;
		}
		size_t n = strlen(ir->printfs[i]) + 1;
		char *copy = PA_NEW_ARRAY(&c->mod_arena, char, n);
		memcpy(copy, ir->printfs[i], n);
		c->printfs[c->nprintfs++] = copy;
	}
}

/* The thread's CPU time for --time-passes; 0 without it, so that an untimed compile
 * makes no clock_gettime call per stage. */
double drv_stage_clock(const struct compiler *c)
{
	if (!c->o->time_passes)
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID,
	              &ts); /* CPU: wall time on a shared machine is noise */
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void lap(struct compiler *c, enum stage s)
{
	if (!c->o->time_passes)
		return;
	double n = drv_stage_clock(c);
	c->t[s] += n - c->mark;
	c->mark = n;
	size_t used = pa_arena_used(&c->fn_arena) + pa_arena_used(&c->mir_arena[0]) +
	              pa_arena_used(&c->mir_arena[1]);
	if (used >= c->bytes_mark)
		c->bytes[s] += used - c->bytes_mark;
	c->bytes_mark = used; /* after a reset: starts again from the empty arena */
}

static void find_pointer_params(const struct ir_function *ir, struct pa_arena *a, bool *is_ptr)
{
	pa_find_pointers(ir, a, NULL, is_ptr, NULL, 0);
}

static void add_args(struct compiler *c, const struct ir_function *ir, struct co_kernel *k)
{
	struct co_arg *args = PA_NEW_ARRAY(&c->mod_arena, struct co_arg, ir->nparams + 1);
	bool *is_ptr = PA_NEW_ARRAY(&c->fn_arena, bool, ir->nparams + 1);
	find_pointer_params(ir, &c->fn_arena, is_ptr);
	for (uint32_t i = 0; i < ir->nparams; i++) {
		const struct ir_param *p = &ir->params[i];
		args[i] = (struct co_arg){
		        .name = pa_arena_strndup(&c->mod_arena, p->name, strlen(p->name)),
		        .offset = p->offset,
		        .size = p->size,
		        .align = p->align,
		        .value_kind = is_ptr[i] ? CO_ARG_GLOBAL_BUFFER : CO_ARG_BY_VALUE,
		        .address_space = is_ptr[i] ? CO_AS_GLOBAL : CO_AS_NONE,
		};
	}
	k->args = args;
	k->nargs = ir->nparams;
}

static bool uses_vcc(const struct mir_function *mf)
{
	for (uint32_t b = 0; b < mf->nblocks; b++)
		for (uint32_t i = 0; i < mf->blocks[b].ninsns; i++)
			for (unsigned k = 0; k < mf->blocks[b].insns[i].nopnds; k++) {
				const struct mir_opnd *op = &mf->blocks[b].insns[i].opnds[k];
				if (op->kind == MIR_SPECIAL &&
				    (op->v == AMD_SPEC_VCC || op->v == AMD_SPEC_VCC_LO ||
				     op->v == AMD_SPEC_VCC_HI))
					return true;
			}
	return false;
}

/* A new kernel entry at the module's end (and its -v figures); returns its index. */
size_t drv_kernel_slot(struct compiler *c)
{
	if (c->nkernels == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 8;
		struct co_kernel *nk = PA_NEW_ARRAY(&c->mod_arena, struct co_kernel, ncap);
		struct ra_stats *ns = PA_NEW_ARRAY(&c->mod_arena, struct ra_stats, ncap);
		if (c->kernels) {
			memcpy(nk, c->kernels, c->nkernels * sizeof *nk);
			memcpy(ns, c->kstats, c->nkernels * sizeof *ns);
		}
		c->kernels = nk;
		c->kstats = ns;
		c->cap = ncap;
	}
	return c->nkernels++;
}

/* Adds the kernel's entry with what the IR says (name, arguments, workgroup size), before
 * the IR is dropped; finish_kernel fills in the code.  Returns its index. */
static size_t begin_kernel(struct compiler *c, const struct ir_function *ir)
{
	size_t index = drv_kernel_slot(c); /* (may move c->kernels) */
	struct co_kernel *k = &c->kernels[index];
	co_kernel_defaults(k);
	k->name = pa_arena_strndup(&c->mod_arena, ir->name, strlen(ir->name));
	k->uses_dynamic_stack = ir->ncallees || ir->calls_pointers; /* depth unknown here */
	unsigned maxwg = 0;
	const uint32_t *dims = ir->reqntid[0] ? ir->reqntid : ir->maxntid[0] ? ir->maxntid : NULL;
	if (dims) {
		maxwg = 1;
		for (int i = 0; i < 3; i++)
			maxwg *= dims[i] ? dims[i] : 1;
	}
	k->max_flat_workgroup_size = maxwg;
	if (ir->reqntid[0])
		for (int i = 0; i < 3; i++)
			k->reqd_workgroup_size[i] = ir->reqntid[i] ? ir->reqntid[i] : 1;
	add_args(c, ir, k);
	return c->nkernels - 1;
}

static void finish_kernel(struct compiler *c, size_t index, const struct mir_function *mf,
                          const struct sched_code *code, const struct ra_stats *ras)
{
	c->kstats[index] = *ras;
	struct co_kernel *k = &c->kernels[index];
	uint8_t *bytes = PA_NEW_ARRAY(&c->mod_arena, uint8_t, code->size ? code->size : 4);
	memcpy(bytes, code->code, code->size);
	k->code = bytes;
	k->code_size = code->size;
	k->vgpr_count = mf->num_vgprs ? mf->num_vgprs : 1;
	k->sgpr_count = mf->num_sgprs;
	k->uses_vcc = uses_vcc(mf);
	k->group_segment_size = mf->lds_size;
	k->private_segment_size = mf->scratch_size;
	k->hidden_args = mf->abi.hidden_args;
	k->abi.kernarg_segment_ptr = mf->abi.kernarg_segment_ptr;
	k->abi.dispatch_id = mf->abi.dispatch_id;
	k->abi.user_sgpr_count = mf->abi.user_sgpr_count;
	k->abi.workgroup_id_x = mf->abi.workgroup_id[0];
	k->abi.workgroup_id_y = mf->abi.workgroup_id[1];
	k->abi.workgroup_id_z = mf->abi.workgroup_id[2];
	k->abi.workitem_id_dims = mf->abi.workitem_id_dims ? mf->abi.workitem_id_dims : 1;
	k->abi.flat_scratch_init = mf->abi.flat_scratch_init;
	k->abi.private_segment_wave_offset = mf->abi.private_segment;
	k->uses_flat_scratch = mf->abi.uses_flat_scratch;
	k->wave_size = mf->wave_size;
	if (c->o->line_info)
		k->lines = drv_lines_rows(code, &c->mod_arena, &k->nlines);
	for (uint32_t i = 0; i < code->nrelocs; i++) {
		const struct sched_reloc *r = &code->relocs[i];
		c->relocs = pa_arena_grow(&c->mod_arena, c->relocs, &c->relocs_cap, c->nrelocs + 1,
		                          sizeof *c->relocs);
		c->relocs[c->nrelocs++] = (struct co_reloc){
		        .in = CO_IN_KERNEL,
		        .index = (uint32_t)index,
		        .offset = r->offset,
		        .type = r->kind == MIR_RELOC_REL32_LO ? CO_R_REL32_LO : CO_R_REL32_HI,
		        .symbol = pa_arena_strndup(&c->mod_arena, r->symbol, strlen(r->symbol)),
		        .addend = r->addend,
		};
	}
}

/* Where machine IR is made now. */
struct pa_arena *drv_mir_arena(struct compiler *c)
{
	return c->compact ? &c->mir_arena[c->mir_cur] : &c->fn_arena;
}

/* Moves the machine IR into the other MIR arena and empties the one it was in. */
static void mir_settle(struct compiler *c, struct mir_function *mf)
{
	if (!c->compact)
		return;
	struct pa_arena *from = &c->mir_arena[c->mir_cur];
	c->mir_cur ^= 1;
	mir_compact(mf, &c->mir_arena[c->mir_cur]);
	pa_arena_reset(from);
}

/* Copies the strings the MIR shares with the IR (its name, the relocations' symbols) into
 * the MIR's arena, so that the IR can be dropped before mir_settle copies the MIR. */
static void own_strings(struct mir_function *mf)
{
	if (mf->name)
		mf->name = pa_arena_strndup(mf->arena, mf->name, strlen(mf->name));
	for (uint32_t i = 0; i < mf->nrelocs; i++)
		mf->relocs[i].symbol = pa_arena_strndup(mf->arena, mf->relocs[i].symbol,
		                                        strlen(mf->relocs[i].symbol));
}

/* ra_run, except that a failure with ras->needs_scratch (VGPRs must spill, scratch not set
 * up) leaves fn as it was, for mir_setup_scratch.  The allocator may find that need only in
 * a round after SGPR spills changed the code, so where scratch is not set up a first run
 * stops at the first spill (a function that does not spill is allocated by it), and a
 * function that spills is copied before the real run. */
static bool ra_run_unchanged(struct mir_function *mf, struct ra_stats *ras, struct pa_diag *d)
{
	if (mf->scratch_ready)
		return ra_run(mf, ras, d);
	struct pa_diag quiet = {0};
	if (ra_run_capped(mf, ras, &quiet, 0))
		return true;
	if (ras->needs_scratch)
		return false;
	if (!ras->over_cost) /* failed before any change: again, to report why */
		return ra_run(mf, ras, d);
	struct mir_function kept;
	sched_mir_copy(mf, &kept);
	if (ra_run(mf, ras, d))
		return true;
	if (ras->needs_scratch)
		*mf = kept;
	return false;
}

/* -O1+: allocates the code scheduled on virtual registers; when that fails or spills, also
 * selection's order (scheduling for latency raises pressure) and keeps the one spilling less.
 * The scheduled allocation stops at its first spill, the plain one runs, and the scheduled
 * one runs again capped at the plain one's cost: a scheduled order that spills far more
 * (thousands of values on a large kernel, in round after round) is given up as soon as it
 * has lost, and the choice is the same as running both to the end.  False with
 * ras->needs_scratch: mf is in selection's order and unallocated, for mir_setup_scratch. */
static bool allocate_scheduled(struct mir_function *mf, struct ra_stats *ras, struct pa_diag *d)
{
	struct sched_undo undo;
	sched_list_recorded(mf, &undo);
	struct pa_diag quiet = {0};
	bool ok = ra_run_capped(mf, ras, &quiet, 0);
	if (ok)
		return true;
	if (ras->rewritten) {
		/* an internal error after the MIR was rewritten: no selection order to go back
		 * to (every other failure stops before allocation changes an instruction) */
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "internal: register allocation of '%s' failed", mf->name);
		return false;
	}
	/* selection's order, made only now (a copy up front would add a whole MIR to the
	 * peak of every kernel); where the scheduled order needs scratch, mf goes back to it
	 * too, to be allocated again with scratch if the plain one needs it as well */
	bool scratch = ras->needs_scratch;
	struct mir_function plain;
	if (scratch)
		sched_list_undo(mf, &undo);
	sched_mir_copy(mf, &plain);
	if (!scratch)
		sched_list_undo(&plain, &undo);
	bool spilled = ras->over_cost; /* else failed: needs scratch, or too much pressure */
	/* both may spill SGPRs and then find that VGPRs must spill: selection's order is kept
	 * for the set-up where it may be needed (a function spilling SGPRs, no .local) */
	bool keep = spilled && !mf->scratch_ready;
	struct mir_function kept;
	if (keep)
		sched_mir_copy(&plain, &kept);
	struct ra_stats plain_ras;
	struct pa_diag quiet2 = {0};
	bool plain_ok = ra_run(&plain, &plain_ras, spilled ? &quiet2 : d);
	if (spilled) {
		struct pa_diag quiet3 = {0};
		unsigned cap = plain_ok ? ra_spill_cost(&plain_ras) : UINT32_MAX;
		ok = ra_run_capped(mf, ras, plain_ok ? &quiet3 : d, cap);
	}
	if (plain_ok && (!ok || ra_spill_cost(&plain_ras) < ra_spill_cost(ras))) {
		*mf = plain;
		*ras = plain_ras;
		return true;
	}
	if (!ok && !spilled)
		*ras = plain_ras;
	if (!ok && keep && ras->needs_scratch)
		*mf = kept;
	return ok;
}

/* Allocation; where VGPRs must spill and selection set no scratch up (a kernel without
 * .local on gfx90a or gfx1030), scratch is set up in the selected code and it is allocated
 * again (the first try left it unallocated, in selection's order). */
static bool allocate(struct compiler *c, struct mir_function *mf, struct ra_stats *ras)
{
	const struct pa_compile_options *o = c->o;
	bool ok = o->opt_level > 0 ? allocate_scheduled(mf, ras, c->d)
	                           : ra_run_unchanged(mf, ras, c->d);
	if (ok || !ras->needs_scratch)
		return ok;
	mir_settle(c, mf); /* (without what the failed try left in the arena) */
	mir_setup_scratch(mf);
	if (o->verify && !mir_verify(mf, false, c->d))
		return false;
	ok = o->opt_level > 0 ? allocate_scheduled(mf, ras, c->d) : ra_run(mf, ras, c->d);
	if (!ok && ras->needs_scratch)
		pa_diag_report(c->d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "internal: '%s' needs scratch for VGPR spills after setting it up",
		               mf->name);
	return ok;
}

/* Ends a MIR pass: its temporaries go, their memory stays for the next pass. */
static void pass_done(struct compiler *c)
{
	pa_arena_reset(&c->pass_arena);
}

/* A function of at least this many machine instructions is not copied by mir_settle after
 * sched_waitcnt and sched_hazards: its large blocks take their staging arrays and give the
 * old arrays' pages back (mir_take_staging), so the copy would only take fresh pages; a
 * smaller one's leftovers are small arrays, which the copy drops. */
enum { SETTLE_MAX_INSNS = 4096 };

static bool settles_after_waits(const struct mir_function *mf)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < mf->nblocks && n < SETTLE_MAX_INSNS; b++)
		n += mf->blocks[b].ninsns;
	return n < SETTLE_MAX_INSNS;
}

/* The machine-IR passes between selection and allocation, each one's temporaries in the
 * pass arena (the peak is the MIR and one pass's working data, not the sum of them). */
static void optimize_mir(struct compiler *c, struct mir_function *mf)
{
	bool opt = c->o->opt_level > 0;
	mf->pass_arena = &c->pass_arena;
	if (opt) {
		mir_fuse_add3(mf);
		pass_done(c);
		mir_hoist_loop_constants(mf);
		pass_done(c);
		mir_cse_copies(mf);
		pass_done(c);
		mir_widen_memory(mf);
		pass_done(c);
		mir_merge_scalar_loads(mf);
		pass_done(c);
		mir_pair_lds(mf);
		pass_done(c);
		mir_compare_literals_to_vcc(mf);
		pass_done(c);
		mir_remove_dead_code(mf);
		pass_done(c);
		mir_merge_dword_copies(mf);
		pass_done(c);
	}
	mir_coalesce_phi_copies(mf);
	pass_done(c);
	if (opt) {
		mir_coalesce_split_phi_copies(mf);
		pass_done(c);
		mir_coalesce_lane_regions(mf);
		pass_done(c);
		mir_coalesce_tuples(mf);
		pass_done(c);
		mir_coalesce_dying_sources(mf);
		pass_done(c);
		mir_pack_f32(mf);
		pass_done(c);
		mir_fold_sdwa(mf);
		pass_done(c);
	}
}

/* Selection, the register budget and allocation.  In compact mode the kernel's module entry
 * is begun from the IR (*index) and the IR is dropped right after selection: allocation and
 * scheduling need only the MIR. */
static bool select_and_allocate(struct compiler *c, const struct ir_function *ir,
                                struct mir_function *mf, struct ra_stats *ras, size_t *index)
{
	const struct pa_compile_options *o = c->o;
	struct pa_diag *d = c->d;
	memset(ras, 0, sizeof *ras);
	unsigned wave = o->target.wave_size;
	if (!isel_run(ir, &o->target, wave, drv_mir_arena(c), mf, d))
		return false;
	if (o->maxrregcount > 0 && (unsigned)o->maxrregcount < mf->max_vgprs)
		mf->max_vgprs = (unsigned)o->maxrregcount;
	if (ir->maxnreg && ir->maxnreg < mf->max_vgprs)
		mf->max_vgprs = ir->maxnreg;
	if (o->verify && !mir_verify(mf, false, d))
		return false;
	if (o->dump_mir)
		mir_print(o->dump_mir, mf);
	if (index)
		*index = begin_kernel(c, ir);
	if (c->compact) { /* the IR goes before the MIR is copied: one copy of each at a time */
		own_strings(mf);
		pa_arena_reset(&c->fn_arena);
		mir_settle(c, mf);
	}
	lap(c, ST_ISEL);
	optimize_mir(c, mf);
	if (o->verify && !mir_verify(mf, false, d))
		return false;
	return allocate(c, mf, ras);
}

/* A kernel body of at least this many statements is given back to the parser as soon as
 * nothing can need it (smaller ones are not worth its statement array's regrowth). */
#define RELEASE_STMTS 4096

/* The kernel body that build_ir may free as soon as the IR is built (else NULL): nothing
 * after the IR reads it (a kernel that must spill VGPRs without scratch gets it set up in its
 * selected code, not by a second selection), and the optimizer, selection and allocation
 * need not share the peak with it.  Only the parser's body (pf->owner) on the attempt that reports
 * to the real sink (compile_kernel's quiet tries may come again), and only a large one (a small one
 * is not worth its statement array's regrowth). */
static const struct ptx_function *early_release(const struct compiler *c,
                                                const struct ptx_function *pf,
                                                const struct ptx_symbol *real_sym)
{
	if (real_sym || c->d != c->real_d || !pf->owner || pf->nstmts < RELEASE_STMTS)
		return NULL;
	return pf;
}

/* PTX to IR, cleaned up and with its uniformity known.  `release` (or NULL): the body, freed
 * once the IR is built when the IR makes no real calls (those keep the IR and the body for
 * linking; release is then left alone). */
static bool build_ir(struct compiler *c, const struct ptx_function *pf,
                     const struct ptx_module_state *m, const struct ptx_symbol *real_sym,
                     const struct ptx_function *release, struct ir_function *ir)
{
	const struct pa_compile_options *o = c->o;
	struct pa_diag *d = c->d;
	ir->wave_size = o->target.wave_size;
	ir->warp_size = o->warp_size;
	ir->no_lanemask_warning = o->no_lanemask_warning;
	switch (o->target.info->gen) { /* docs/TENSOR.md */
	case AMD_GFX9:
	case AMD_GFX940:
		ir->matrix_unit = IR_MU_MFMA;
		break;
	case AMD_GFX11:
		ir->matrix_unit = IR_MU_WMMA11;
		break;
	case AMD_GFX12:
		ir->matrix_unit = IR_MU_WMMA12;
		break;
	default:
		ir->matrix_unit = IR_MU_NONE;
		break;
	}
	ir->real_sym = real_sym;
	ir->stack_size = o->stack_size;
	ir->printf_id_base = c->nprintfs;
	ir->inline_mode = c->inline_mode;
	ir->inline_only = c->inline_only;
	ir->ninline_only = c->ninline_only;
	ir->fnptr_address = c->fnptr_address;
	ir->fnptr_taken = c->taken;
	ir->nfnptr_taken = c->ntaken;
	if (!ir_build(ir, pf, m, o->filename, &c->fn_arena, &c->lib, d) || !ir_cfg_compute(ir, d))
		return false;
	keep_printfs(c, ir);
	if (release && ir->ncallees == 0) {
		ir_detach_body(ir);
		ptx_release_body(release);
	}
	lap(c, ST_IR);
	if (o->verify && !ir_verify(ir, d))
		return false;
	ir_optimize(ir);
	if (ir_lane_affine(ir))
		ir_optimize(ir); /* the row-address reads it replaced are dead */
	if (o->opt_level > 0 && ir_narrow64(ir))
		ir_optimize(ir); /* 64-bit address chains read only as 32 bits: their copies */
	if (o->opt_level > 0)
		ir_fold_sub_chains(ir); /* an index's parts subtracted as the index: a range */
	if (ir_value_ranges(ir, NULL)) {
		/* folds what the known signs and constants leave, then the decided branches */
		ir_optimize(ir);
		if (ir_fold_const_branches(ir))
			ir_optimize(ir);
	}
	if (ir_strength_reduce(ir)) {
		ir_optimize(ir); /* the old addresses' operations are dead now */
		if (ir_replace_exit_tests(ir))
			ir_optimize(ir); /* a counter left for the exit test alone is dead now */
	}
	if (o->verify && !ir_verify(ir, d))
		return false;
	lap(c, ST_OPT);
	ir_uniformity(ir);
	if (o->opt_level > 0) {
		ir_split_uniform_sums(ir);
		ir_fold_sub_chains(ir);
	}
	ir_loop_motion(ir);
	if (o->opt_level > 0)
		ir_sink_past_loops(ir); /* per-lane values read only after a loop */
	lap(c, ST_UNIFORM);
	if (o->dump_ir)
		ir_dump(o->dump_ir, ir);
	return true;
}

/* The pipeline from PTX to scheduled machine code on physical registers, for a kernel or
 * (real_sym) a recursive function compiled on its own.  For a kernel, its entry in the
 * module (*index) is made from the IR before the IR is dropped (compact mode). */
bool drv_compile_mir(struct compiler *c, const struct ptx_function *pf,
                     const struct ptx_module_state *m, const struct ptx_symbol *real_sym,
                     struct ir_function *ir, struct mir_function *mf, struct ra_stats *ras,
                     size_t *index)
{
	const struct pa_compile_options *o = c->o;
	struct pa_diag *d = c->d;
	lap(c, ST_PARSE);
	const struct ptx_function *release = early_release(c, pf, real_sym);
	if (!build_ir(c, pf, m, real_sym, release, ir))
		return false;
	c->compact = !real_sym && ir->ncallees == 0;
	if (!select_and_allocate(c, ir, mf, ras, real_sym ? NULL : index))
		return false;
	if (o->verify && !mir_verify(mf, true, d))
		return false;
	mir_settle(c, mf);
	lap(c, ST_RA);
	struct sched_stats ss;
	memset(&ss, 0, sizeof ss);
	if (o->opt_level > 0) {
		sched_list(mf, false);
		mir_drop_branches_to_next(mf);
		mir_drop_overwritten_exec(mf);
		mir_settle(c, mf);
	}
	isel_call_frame(mf);
	if (o->opt_level > 0)
		sched_vopd(mf);
	bool settle = settles_after_waits(mf);
	sched_waitcnt(mf, &ss);
	pass_done(c);
	if (settle)
		mir_settle(c, mf);
	sched_hazards(mf, &ss);
	pass_done(c);
	if (settle)
		mir_settle(c, mf);
	lap(c, ST_SCHED);
	return true;
}

/* Real calls (docs/CALLS.md): the recursive functions the kernel calls, and theirs, each
 * compiled on its own and placed after the kernel's code (a copy per kernel). */
struct callee_part {
	const struct ptx_symbol *sym;
	struct ir_function ir;
	struct mir_function mf;
	uint32_t entry; /* its first block in the linked function */
};

static uint32_t part_of(struct callee_part **parts, uint32_t *nparts, uint32_t *cap,
                        struct pa_arena *a, const struct ptx_symbol *sym)
{
	for (uint32_t i = 0; i < *nparts; i++)
		if ((*parts)[i].sym == sym)
			return i;
	*parts = pa_arena_grow(a, *parts, cap, *nparts + 1, sizeof **parts);
	memset(&(*parts)[*nparts], 0, sizeof **parts);
	(*parts)[*nparts].sym = sym;
	return (*nparts)++;
}

static uint32_t *entry_map(struct pa_arena *a, const struct ir_function *ir,
                           const struct callee_part *parts, uint32_t nparts)
{
	uint32_t *map = PA_NEW_ARRAY(a, uint32_t, ir->ncallees + 1);
	for (uint32_t k = 0; k < ir->ncallees; k++)
		for (uint32_t i = 0; i < nparts; i++)
			if (parts[i].sym == ir->callees[k])
				map[k] = parts[i].entry;
	return map;
}

/* Whether sym is compiled once per module for its address: calls to it go there
 * (IR_CALL_PTR, inline.c), it is not linked. */
static bool module_copy(const struct compiler *c, const struct ptx_symbol *sym)
{
	for (uint32_t i = 0; c->fnptr_address && i < c->ntaken; i++)
		if (!strcmp(c->taken[i], sym->name))
			return true;
	return false;
}

/* Compiles the kernel's callees and places them after its code.  False after an error;
 * *failed is then the function that did not compile on its own (NULL: none did). */
bool drv_link_callees(struct compiler *c, const struct ptx_module_state *m,
                      const struct ir_function *kir, struct mir_function *kmf,
                      const struct ptx_symbol **failed)
{
	struct pa_arena *a = &c->fn_arena;
	struct callee_part *parts = NULL;
	uint32_t nparts = 0, cap = 0;
	for (uint32_t k = 0; k < kir->ncallees; k++)
		if (!module_copy(c, kir->callees[k]))
			part_of(&parts, &nparts, &cap, a, kir->callees[k]);
	for (uint32_t i = 0; i < nparts; i++) {
		const struct ptx_symbol *sym = parts[i].sym;
		struct ir_function ir;
		struct mir_function mf;
		struct ra_stats ras;
		ir.wave_size = c->o->target.wave_size;
		if (!drv_compile_mir(c, ir_funclib_find(&c->lib, sym), m, sym, &ir, &mf, &ras,
		                     NULL)) {
			*failed = sym;
			return false;
		}
		parts[i].ir = ir;
		parts[i].mf = mf;
		for (uint32_t k = 0; k < ir.ncallees; k++)
			if (!module_copy(c, ir.callees[k]))
				part_of(&parts, &nparts, &cap, a, ir.callees[k]);
	}
	uint32_t next = kmf->nblocks;
	for (uint32_t i = 0; i < nparts; i++) {
		parts[i].entry = next;
		next += parts[i].mf.nblocks;
	}
	struct mir_function head = *kmf;
	head.nblocks = 0;
	head.blocks = NULL;
	head.blocks_cap = 0;
	isel_link_calls(&head, kmf, entry_map(a, kir, parts, nparts));
	for (uint32_t i = 0; i < nparts; i++) {
		isel_link_calls(&head, &parts[i].mf, entry_map(a, &parts[i].ir, parts, nparts));
		if (parts[i].mf.num_vgprs > head.num_vgprs)
			head.num_vgprs = parts[i].mf.num_vgprs;
	}
	head.num_sgprs = MIR_CALL_SAVE_SP + 1;
	*kmf = head;
	c->parts = parts;
	c->nparts = nparts;
	return true;
}

/* The frame slots of function ir's callees used as addresses: a linked part's (ptr), or a
 * module copy's (fn_ptr_slots; NULL: not compiled yet). */
bool **drv_callee_slots(struct compiler *c, const struct ir_function *ir, bool **ptr)
{
	bool **callee = PA_NEW_ARRAY(&c->fn_arena, bool *, ir->ncallees + 1);
	for (uint32_t k = 0; k < ir->ncallees; k++) {
		for (uint32_t j = 0; j < c->nparts; j++)
			if (c->parts[j].sym == ir->callees[k])
				callee[k] = ptr[j];
		for (uint32_t i = 0; !callee[k] && i < c->nfunctions; i++)
			if (!strcmp(c->functions[i].name, ir->callees[k]->name))
				callee[k] = c->fn_ptr_slots[i];
	}
	return callee;
}

/* Which frame slots of each linked function reach an address, to a fixpoint (a function
 * passes its slots on to its callees' slots). */
bool **drv_part_slots(struct compiler *c)
{
	struct pa_arena *a = &c->fn_arena;
	bool **ptr = PA_NEW_ARRAY(a, bool *, c->nparts + 1);
	for (uint32_t i = 0; i < c->nparts; i++)
		ptr[i] = PA_NEW_ARRAY(a, bool, c->parts[i].ir.frame_args / 4 + 1);
	for (uint32_t round = 0, changed = 1; changed && round <= c->nparts; round++) {
		changed = 0;
		for (uint32_t i = 0; i < c->nparts; i++) {
			const struct ir_function *ir = &c->parts[i].ir;
			uint32_t nslots = ir->frame_args / 4 + 1;
			bool *slots = PA_NEW_ARRAY(a, bool, nslots);
			pa_find_pointers(ir, a, drv_callee_slots(c, ir, ptr), NULL, slots, nslots);
			for (uint32_t k = 0; k < nslots; k++)
				if (slots[k] && !ptr[i][k])
					changed = ptr[i][k] = true;
		}
	}
	return ptr;
}

/* Pointer parameters through real calls: the kernel's parameters that reach a frame slot a
 * callee uses as an address (find_pointers). */
static void real_call_pointers(struct compiler *c, const struct ir_function *kir, size_t index)
{
	struct pa_arena *a = &c->fn_arena;
	bool **callee = drv_callee_slots(c, kir, drv_part_slots(c));
	bool *is_ptr = PA_NEW_ARRAY(a, bool, kir->nparams + 1);
	pa_find_pointers(kir, a, callee, is_ptr, NULL, 0);
	struct co_arg *args = (struct co_arg *)c->kernels[index].args;
	for (uint32_t p = 0; p < kir->nparams; p++)
		if (is_ptr[p]) {
			args[p].value_kind = CO_ARG_GLOBAL_BUFFER;
			args[p].address_space = CO_AS_GLOBAL;
		}
}

/* -v: why each function the kernel links is a real call (the largest reason any caller
 * recorded). */
static void print_real_calls(const struct compiler *c, const struct ir_function *kir)
{
	for (uint32_t i = 0; i < c->nparts && c->o->info; i++) {
		struct ir_callee_why why = {0, 0};
		for (uint32_t j = 0; j <= c->nparts; j++) {
			const struct ir_function *f = j ? &c->parts[j - 1].ir : kir;
			for (uint32_t k = 0; k < f->ncallees; k++)
				if (f->callees[k] == c->parts[i].sym &&
				    f->callee_why[k].sites > why.sites)
					why = f->callee_why[k];
		}
		if (why.sites)
			fprintf(c->o->info,
			        "ptxas-amd info    : Function '%s' compiled as a real call in '%s' "
			        "(%u statements inlined, %u call sites)\n",
			        c->parts[i].sym->name, kir->name, why.stmts, why.sites);
		else
			fprintf(c->o->info,
			        "ptxas-amd info    : Function '%s' compiled as a real call in '%s' "
			        "(recursive)\n",
			        c->parts[i].sym->name, kir->name);
	}
}

/* One attempt at the kernel, diagnostics to c->d.  False after an error, with *failed the
 * callee that did not compile on its own (else NULL). */
static bool try_kernel(struct compiler *c, const struct ptx_function *pf,
                       const struct ptx_module_state *m, const struct ptx_symbol **failed)
{
	const struct pa_compile_options *o = c->o;
	struct ir_function ir;
	struct mir_function mf;
	struct ra_stats ras;
	size_t index = 0;
	*failed = NULL;
	c->nparts = 0;
	if (!drv_compile_mir(c, pf, m, NULL, &ir, &mf, &ras, &index))
		return false;
	if (!c->compact && ir.ncallees && !drv_link_callees(c, m, &ir, &mf, failed))
		return false;
	bool pointers = ir.calls_pointers; /* (by the kernel or a function it links) */
	for (uint32_t i = 0; i < c->nparts; i++)
		pointers |= c->parts[i].ir.calls_pointers;
	if (pointers && mf.num_sgprs < MIR_CALL_SAVE_SP + 1)
		mf.num_sgprs = MIR_CALL_SAVE_SP + 1; /* (what the callees may use) */
	struct sched_code code;
	if (!sched_relax(&mf, drv_mir_arena(c), c->d) ||
	    !sched_emit(&mf, drv_mir_arena(c), &code, c->d))
		return false;
	if ((c->d->nwarnings || c->d->nerrors) && c->d != c->real_d)
		return false; /* (compiled again to print them; -Werror makes warnings errors that
		               * do not stop the passes) */
	if (o->dump_sched)
		sched_dump(o->dump_sched, &mf, false);
	if (o->asm_out && index)
		fputs("\t.p2align 8\n", o->asm_out); /* (kernels start 256-aligned in .text) */
	if (o->asm_out)
		sched_dump(o->asm_out, &mf, true);
	if (!c->compact && ir.ncallees) {
		real_call_pointers(c, &ir, index);
		print_real_calls(c, &ir);
	}
	finish_kernel(c, index, &mf, &code, &ras);
	if (pointers && c->kernels[index].vgpr_count < c->fn_vgprs)
		c->kernels[index].vgpr_count = c->fn_vgprs;
	lap(c, ST_EMIT);
	return true;
}

/* Forgets a failed attempt at a kernel. */
void drv_undo_kernel(struct compiler *c, size_t nkernels, uint32_t nprintfs)
{
	c->nkernels = nkernels; /* (an entry begun from the IR) */
	c->nprintfs = nprintfs;
	c->compact = false;
	pa_arena_reset(&c->fn_arena);
	pa_arena_reset(&c->mir_arena[0]);
	pa_arena_reset(&c->mir_arena[1]);
	pa_arena_reset(&c->pass_arena);
}

static bool makes_calls(const struct ptx_function *pf)
{
	for (uint32_t i = 0; i < pf->nstmts; i++)
		if (pf->stmts[i].kind == PTX_STMT_INSN && pf->stmts[i].u.insn->op == PTX_OP_CALL)
			return true;
	return false;
}

/* A kernel whose calls the size policy (or --no-inline) may make real calls is first
 * compiled with a quiet sink: a function that fails to compile on its own is then inlined
 * (inline_only) and the kernel tried again; any other error, or a warning, and it is
 * compiled again as if every call were inlined (--inline-all), reporting to the real sink
 * -- so real calls never add an error, and the messages are those of inlining. */
static void compile_kernel(struct compiler *c, const struct ptx_function *pf,
                           const struct ptx_module_state *m)
{
	size_t nkernels = c->nkernels;
	uint32_t nprintfs = c->nprintfs;
	const struct ptx_symbol *failed;
	c->inline_mode = c->o->inline_mode;
	c->ninline_only = 0;
	if (c->inline_mode != IR_INLINE_ALL && makes_calls(pf)) {
		struct pa_diag quiet = {.warnings_off = c->d->warnings_off,
		                        .warnings_error = c->d->warnings_error};
		c->d = &quiet;
		bool ok;
		while (!(ok = try_kernel(c, pf, m, &failed)) && failed && !quiet.nwarnings) {
			drv_undo_kernel(c, nkernels, nprintfs);
			for (uint32_t i = 0; i < c->ninline_only && failed; i++)
				if (c->inline_only[i] == failed)
					failed = NULL;
			if (!failed)
				break;
			c->inline_only =
			        pa_arena_grow(&c->mod_arena, c->inline_only, &c->inline_only_cap,
			                      c->ninline_only + 1, sizeof *c->inline_only);
			c->inline_only[c->ninline_only++] = failed;
			/* a fresh sink: one that remembered the warnings of the last try would not
			 * count them again (-Werror) */
			quiet = (struct pa_diag){.warnings_off = c->real_d->warnings_off,
			                         .warnings_error = c->real_d->warnings_error};
		}
		c->d = c->real_d;
		if (ok)
			return;
		drv_undo_kernel(c, nkernels, nprintfs);
		if (!quiet.nwarnings || quiet.nerrors)
			c->inline_mode = IR_INLINE_ALL;
	}
	if (!try_kernel(c, pf, m, &failed))
		c->nkernels = nkernels;
}

/* Compiles kernel pf on this thread (after the kernels queued before it: kpar.c). */
void drv_compile_here(struct compiler *c, const struct ptx_function *pf)
{
	compile_kernel(c, pf, &c->mod);
	c->compact = false;
	pa_arena_reset(&c->fn_arena);
	pa_arena_reset(&c->mir_arena[0]);
	pa_arena_reset(&c->mir_arena[1]);
	pa_arena_reset(&c->pass_arena);
	c->mark = drv_stage_clock(c);
	c->bytes_mark = 0;
}

static void compile_and_reset(struct compiler *c, const struct ptx_function *pf)
{
	drv_pool_drain(c);
	drv_compile_here(c, pf);
}

static void on_variable(void *user, const struct ptx_symbol *var)
{
	struct compiler *c = user;
	pa_moddata_add(&c->data, &c->mod_arena, var);
}

/* Compiles the deferred kernels whose callees are all defined now (every one at the end of
 * the module, `all`), in source order. */
static void compile_deferred(struct compiler *c, bool all)
{
	struct deferred_kernel **link = &c->deferred;
	while (*link) {
		struct deferred_kernel *k = *link;
		if (!all && ir_funclib_pending(&c->lib, k->fn)) {
			link = &k->next;
			continue;
		}
		if (!pa_diag_failed(c->d))
			compile_and_reset(c, k->fn);
		*link = k->next;
		pa_arena_free(&k->arena);
		free(k);
	}
}

static void drop_deferred(struct compiler *c)
{
	while (c->deferred) {
		struct deferred_kernel *k = c->deferred;
		c->deferred = k->next;
		pa_arena_free(&k->arena);
		free(k);
	}
}

/* The module's end: function pointers are decided, then the kernels still waiting are
 * compiled (those that call functions never defined here get the call reported as it is
 * built). */
static void on_module_end(void *user, const struct ptx_module_state *m)
{
	struct compiler *c = user;
	c->mod = *m;
	drv_pool_drain(c);
	if (pa_diag_failed(c->d)) /* (a queued kernel failed: -j1 would not be here) */
		return;
	drv_decide_fn_pointers(c, m);
	compile_deferred(c, true);
}

static void defer_kernel(struct compiler *c, const struct ptx_function *pf)
{
	struct deferred_kernel *k = pa_xcalloc(1, sizeof *k);
	pa_arena_init(&k->arena);
	k->fn = ir_copy_function(pf, &k->arena);
	struct deferred_kernel **link = &c->deferred;
	while (*link)
		link = &(*link)->next;
	*link = k;
}

static void on_function(void *user, const struct ptx_function *pf, const struct ptx_module_state *m)
{
	struct compiler *c = user;
	const struct ptx_func_info *fi = pf->sym->func;
	c->mod = *m;
	if (c->o->line_info)
		drv_lines_function(&c->lines, &c->mod_arena, pf);
	if (!fi || !fi->is_entry) {
		/* device functions are compiled into their callers (inlined); one never called
		 * is only checked by the front end */
		ir_funclib_add(&c->lib, pf);
		if (c->deferred)
			compile_deferred(c, false);
		return;
	}
	if (c->o->entry) {
		if (strcmp(pf->sym->name, c->o->entry) != 0)
			return;
		c->entry_found = true;
	}
	if (ir_funclib_pending(&c->lib, pf)) {
		defer_kernel(c, pf);
		return;
	}
	if (drv_pool_submit(c, pf)) {
		lap(c, ST_PARSE);
		return;
	}
	compile_and_reset(c, pf);
}
static void on_file(void *user, uint32_t index, const char *name, size_t len)
{
	struct compiler *c = user;
	if (c->o->line_info)
		drv_lines_file(&c->lines, &c->mod_arena, index, name, len);
}

static void print_times(const struct compiler *c, FILE *out)
{
	double total = 0;
	for (int s = 0; s < ST_N; s++)
		total += c->t[s];
	fprintf(out, "ptxas-amd: time per stage (CPU), memory the stage allocated\n");
	for (int s = 0; s < ST_N; s++)
		fprintf(out, "  %-16s %9.3f ms  %5.1f%%  %9.1f KiB\n", stage_names[s],
		        c->t[s] * 1e3, total > 0 ? 100 * c->t[s] / total : 0, c->bytes[s] / 1024.0);
	fprintf(out, "  %-16s %9.3f ms\n", "total", total * 1e3);
}

bool pa_compile_ptx(FILE *in, const struct pa_compile_options *o, struct co_buffer *out,
                    struct pa_diag *d)
{
	struct compiler c;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.d = d;
	c.real_d = d;
	pa_arena_init(&c.fn_arena);
	c.fn_arena.small_pages = true; /* (arena.h) */
	pa_arena_init(&c.mir_arena[0]);
	pa_arena_init(&c.mir_arena[1]);
	pa_arena_init(&c.pass_arena);
	c.pass_arena.small_pages = true; /* (compile_int.h) */
	pa_arena_init(&c.mod_arena);
	pa_arena_init(&c.lib_arena);
	pa_page_pool_init(&c.pages, PA_PAGE_POOL_CAP);
	c.fn_arena.pool = c.mir_arena[0].pool = c.mir_arena[1].pool = &c.pages;
	c.mod_arena.pool = c.lib_arena.pool = &c.pages;
	ir_funclib_init(&c.lib, &c.lib_arena);
	drv_pool_start(&c);
	c.mark = drv_stage_clock(&c);
	struct ptx_parse_options popts = {.filename = o->filename,
	                                  .diag = d,
	                                  .pages = &c.pages,
	                                  .on_function = on_function,
	                                  .on_variable = on_variable,
	                                  .on_module_end = on_module_end,
	                                  .on_file = on_file,
	                                  .user = &c};
	bool parsed = ptx_parse_stream(in, &popts);
	drv_pool_drain(&c);
	bool ok = parsed && !pa_diag_failed(d);
	drop_deferred(&c); /* left only after an error */
	for (uint32_t i = 0; ok && o->asm_out && i < c.nfunctions; i++)
		fputs(c.fn_asm[i], o->asm_out);
	if (ok && o->entry && !c.entry_found) {
		pa_diag_report(d, PA_DIAG_ERROR, o->filename, 0, 0, NULL, 0,
		               "entry function '%s' not found", o->entry);
		ok = false;
	}
	if (ok && out) {
		struct co_module m = {.target = o->target,
		                      .code_object_version = 5,
		                      .kernels = c.kernels,
		                      .nkernels = c.nkernels,
		                      .functions = c.functions,
		                      .nfunctions = c.nfunctions,
		                      .printfs = c.printfs,
		                      .nprintfs = c.nprintfs};
		struct co_data *data;
		c.data.fnptr_address = c.fnptr_address;
		ok = pa_moddata_build(&c.data, &c.mod_arena, o->filename, o->relocatable, c.relocs,
		                      c.nrelocs, &data, &m.ndata, d);
		m.data = data;
		struct co_reloc *relocs =
		        PA_NEW_ARRAY(&c.mod_arena, struct co_reloc, c.nrelocs + c.data.nrelocs + 1);
		if (c.nrelocs)
			memcpy(relocs, c.relocs, c.nrelocs * sizeof *relocs);
		if (c.data.nrelocs)
			memcpy(relocs + c.nrelocs, c.data.relocs, c.data.nrelocs * sizeof *relocs);
		m.relocs = relocs;
		m.nrelocs = c.nrelocs + c.data.nrelocs;
		if (ok && o->line_info)
			ok = drv_lines_finish(&c.lines, &m, o->filename, &c.mod_arena, d);
		ok = ok && (o->relocatable ? co_write_relocatable(&m, out, d)
		                           : co_write_executable(&m, out, d));
		if (ok && o->info) {
			for (size_t i = 0; i < c.nkernels; i++) {
				struct co_descriptor desc;
				char line[512];
				if (!co_compute_descriptor(&o->target, 5, &c.kernels[i], &desc, d))
					continue;
				co_kernel_stats_line(&o->target, &c.kernels[i], &desc, line,
				                     sizeof line);
				fprintf(o->info, "%s\n", line);
				const struct ra_stats *r = &c.kstats[i];
				fprintf(o->info,
				        "ptxas-amd info    :     %u bytes stack frame, %u bytes "
				        "spill "
				        "stores, %u bytes spill loads, %u VGPRs spilled, %u SGPRs "
				        "spilled to VGPR lanes\n",
				        desc.private_segment_fixed_size, r->spill_stores,
				        r->spill_loads, r->vgpr_spilled, r->spilled);
			}
		}
		lap(&c, ST_CODEOBJ);
	}
	if (o->time_passes)
		print_times(&c, o->time_passes);
	drv_pool_stop(c.pool);
	pa_arena_free(&c.fn_arena);
	pa_arena_free(&c.mir_arena[0]);
	pa_arena_free(&c.mir_arena[1]);
	pa_arena_free(&c.pass_arena);
	pa_arena_free(&c.mod_arena);
	pa_arena_free(&c.lib_arena);
	pa_page_pool_drain(&c.pages);
	return ok && !pa_diag_failed(d);
}
