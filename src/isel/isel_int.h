/* Internal to instruction selection (select.c, cflow.c, sel_alu.c, sel_float.c,
 * sel_mem.c): the selector's state and the helpers every family of instructions uses. */
#ifndef ISEL_INT_H
#define ISEL_INT_H

#include "ir/ir.h"
#include "isel/isel.h"

/* Where an IR value lives. */
enum sel_loc {
	LOC_NONE,
	LOC_SGPR,  /* uniform integer: SGPR vreg (1 or 2 dwords) */
	LOC_VGPR,  /* divergent value or any float: VGPR vreg */
	LOC_BOOL,  /* uniform predicate: SGPR vreg holding 0 or 1 */
	LOC_MASK,  /* divergent predicate: lane mask SGPR vreg (1 dword wave32, 2 wave64) */
	LOC_CONST, /* constant: bits */
};

struct sel_val {
	uint8_t loc;
	uint8_t size; /* dwords */
	uint32_t vreg;
	uint64_t bits; /* LOC_CONST */
};

struct isel {
	const struct ir_function *ir;
	struct mir_function *mf;
	const struct amd_target *t;
	enum amd_gen gen;
	unsigned wave;    /* 32 or 64 */
	unsigned mask_dw; /* dwords of a lane mask */
	struct pa_diag *d;
	struct sel_val *vals;       /* per IR value */
	const struct ir_insn **def; /* per IR value: its defining instruction, or NULL */
	uint32_t cur;               /* MIR block being filled */
	uint32_t line, col;         /* IR instruction being selected */
	bool failed;
	/* per IR block (cflow.c) */
	uint32_t *mir_head; /* first MIR block of the IR block (mask load) */
	uint32_t *mir_body; /* MIR block holding its code */
	uint32_t *mir_tail; /* first loop-check MIR block after it, or ~0 */
	int32_t *mask_slot; /* first SGPR of its rejoin mask, or -1 (or past s63, cflow.c) */
	bool *no_skip;      /* contains a barrier: an empty EXEC runs its barriers ... */
	uint32_t *bar_only; /* ... in this MIR block (after the exit), or ~0 */
	/* cflow.c scalar regions (uniform control flow run with scalar branches) */
	int32_t *region;       /* per IR block: the region it is in, or -1 */
	int32_t *scalar_root;  /* per IR block: the region its scalar branch enters, or -1 */
	uint32_t *region_last; /* per region: its last block in linear order */
	uint32_t *mir_else;    /* per IR block: MIR block after a scalar two-way branch, or ~0 */
	bool *scalar_back;     /* per loop: its only latch branches back with s_cbranch_scc1 */
	bool *exec_back;       /* per loop: jumps back on s_cbranch_execnz, no header mask
	                        * (cflow_join.c) */
	uint32_t *root_join;   /* per IR block: the saved join whose EXEC it saves, or ~0 */
	uint32_t *join_root;   /* per IR block: saved join: the block whose EXEC it restores */
	uint32_t *else_join;   /* per IR block: an if/else's else side: its root's join */
	uint32_t exit_block;   /* MIR block with s_endpgm */
	/* cflow.c: the rejoin masks past s63, in VGPR lanes */
	uint32_t *mask_vgpr;    /* VGPR vregs holding them, W dwords each */
	uint32_t mask_lane_dw;  /* dwords of masks there */
	unsigned acc_sgprs_end; /* the accumulating masks' SGPRs end here (saved joins' after) */
	uint32_t acc_lane_dw;   /* and their lane dwords (the first ones) */
	bool *scc_pred;         /* per IR value: a scalar compare only its block's branch reads,
	                         * selected there into SCC (cflow.c) */
	/* sel_phi.c, per IR value */
	uint32_t *phi_tgt; /* phi: the register its copies write, ~0u: its own */
	bool *mask_merge;  /* lane mask whose writes keep the bits of lanes not in EXEC */
	/* kernel inputs (select.c) */
	uint32_t kernarg;     /* vreg: kernarg segment pointer (2 SGPRs) */
	uint32_t wg_id[3];    /* vregs: workgroup ids, ~0 when unused */
	uint32_t dispatch_id; /* vreg: the dispatch id (2 SGPRs, %gridid), ~0 when unused */
	uint32_t tid[3];      /* vregs: work-item ids, ~0 when unused */
	uint32_t hidden_base; /* byte offset of the hidden arguments */
	uint32_t *lds_offset; /* per ir symvar: LDS offset */
	/* module variables and scratch (sel_global.c, sel_local.c) */
	uint32_t pc_base;                /* vreg: s_getpc_b64 anchor result, ~0 when unused */
	uint32_t *local_offset;          /* per ir symvar: private (scratch) offset */
	unsigned flat_scratch_init_sgpr; /* first user SGPR of flat_scratch_init */
	/* real calls (sel_call.c): where .local variables start in the frame; frame bytes */
	uint32_t locals_base, frame_size;
	/* alloca's dynamic stack (sel_sys.c): its private offsets, after the .local frame */
	uint32_t dyn_stack_begin, dyn_stack_end;
	/* sel_atomic.c: the function holds a release wider than the CTA (computed once) */
	bool wider_release, wider_release_known;
};

/* sel_call.c */
void sel_call_layout(struct isel *s);
void sel_call_entry(struct isel *s);
bool sel_call(struct isel *s, const struct ir_insn *in);
void sel_call_return(struct isel *s);

/* select.c */
void sel_error(struct isel *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct mir_insn *sel_emit(struct isel *s, unsigned op, unsigned n, const struct mir_opnd *ops);
/* gfx11's trap fallback (sel_sys.c): the instructions that raise the queue's interrupt and
 * halt after s_trap, with `tmp` as the scratch SGPR; returns how many (the array's length). */
enum { SEL_TRAP_FALLBACK_LEN = 5 };
unsigned sel_trap_fallback(struct mir_opnd tmp, struct mir_insn out[SEL_TRAP_FALLBACK_LEN]);
uint32_t sel_new_sgpr(struct isel *s, unsigned size);
uint32_t sel_new_vgpr(struct isel *s, unsigned size);
struct mir_opnd sel_sreg_opnd(struct isel *s, ir_ref r, unsigned dword); /* uniform int */
struct mir_opnd sel_vsrc_opnd(struct isel *s, ir_ref r, unsigned dword); /* VALU source */
struct mir_opnd sel_vgpr_opnd(struct isel *s, ir_ref r, unsigned dword); /* VGPR only */
struct mir_opnd sel_mask_opnd(struct isel *s, ir_ref r);                 /* lane mask */
struct mir_opnd sel_bool_opnd(struct isel *s, ir_ref r);                 /* 0/1 SGPR */
bool sel_icmp_is_scalar(const struct isel *s, const struct ir_insn *in); /* sel_alu.c */
void sel_icmp_scc(struct isel *s, const struct ir_insn *in);
struct mir_opnd sel_sub(uint32_t vreg, unsigned sub, unsigned width);
struct mir_opnd sel_exec(struct isel *s);
/* The wave-size variant of a lane-mask SALU row (b32 on wave32, b64 on wave64). */
unsigned sel_wave_op(struct isel *s, unsigned op32, unsigned op64);
/* The result register of value r (allocated on first use). */
uint32_t sel_def(struct isel *s, ir_ref r);
bool sel_is_const(struct isel *s, ir_ref r, uint64_t *bits);
/* Ensures a VALU instruction's scalar operands fit the constant bus (SGPRs and literals
 * beyond the limit are first copied to VGPRs); call before sel_emit for VALU rows. */
void sel_fix_valu(struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops);
void sel_copy(struct isel *s, struct mir_opnd dst, struct mir_opnd src);
struct mir_opnd sel_to_vgpr(struct isel *s, struct mir_opnd o);
struct mir_opnd sel_s_imm(struct isel *s, uint32_t bits);
struct mir_opnd sel_v_imm(struct isel *s, uint32_t bits);
void sel_waitcnt_all(struct isel *s);

/* sel_alu.c / sel_float.c / sel_mem.c: one IR instruction each; false = not handled */
bool sel_alu(struct isel *s, const struct ir_insn *in);
bool sel_float(struct isel *s, const struct ir_insn *in);
bool sel_forms(struct isel *s, const struct ir_insn *in); /* sel_forms.c: FCLASS */
bool sel_mma(struct isel *s, const struct ir_insn *in);   /* sel_mma.c: the ops of matrix operations
                                                             (build_mma.c, build_ldmatrix.c) */
bool sel_mma_ext(struct isel *s, const struct ir_insn *in); /* sel_mma_ext.c: f64 mma */
bool sel_intsat(struct isel *s,
                const struct ir_insn *in); /* sel_intsat.c: the ops of build_intsat.c */
bool sel_conv2(struct isel *s,
               const struct ir_insn *in); /* sel_conv2.c: the ops of build_conv2.c */
bool sel_async(struct isel *s,
               const struct ir_insn *in);               /* sel_async.c: the ops of build_async.c */
bool sel_sys(struct isel *s, const struct ir_insn *in); /* sel_sys.c: the ops of build_sys.c */
bool sel_tex(struct isel *s, const struct ir_insn *in); /* sel_tex.c: the ops of build_tex.c */
/* sel_tex.c: an image access with a per-lane handle: a waterfall loop (two MIR blocks, cflow.c) */
bool sel_tex_needs_loop(const struct isel *s, const struct ir_insn *in);
void sel_sys_layout(struct isel *s); /* sel_sys.c: the dynamic stack after the .local frame */
bool sel_mem(struct isel *s, const struct ir_insn *in);
bool sel_atomic(struct isel *s, const struct ir_insn *in);

/* sel_mem.c: addresses for memory rows */
struct mir_opnd sel_global_address(struct isel *s, ir_ref base, int64_t off); /* 64-bit VGPR */
struct mir_opnd sel_lds_address(struct isel *s, ir_ref base, int64_t *off);   /* DS: offset */
/* 32-bit address in a VGPR; *off kept for an offset field of 0..max, else added in */
struct mir_opnd sel_offset_address(struct isel *s, ir_ref base, int64_t *off, int64_t max);

/* sel_atomic.c: the memory model (order and scope bits of aux, ir.h) and CAS loops */
enum sel_mm_kind { SEL_MM_LOAD, SEL_MM_STORE, SEL_MM_RMW };
unsigned sel_mm_cpol(const struct isel *s, uint32_t aux, enum sel_mm_kind kind);
void sel_mm_release(struct isel *s, uint32_t aux);       /* before a release access */
void sel_mm_acquire(struct isel *s, uint32_t aux);       /* after an acquire access */
void sel_mm_volatile_wait(struct isel *s, uint32_t aux); /* after a .volatile access */
void sel_mm_barrier_release(struct isel *s); /* before s_barrier (a CTA-scope release) */
void sel_mm_barrier_acquire(struct isel *s); /* after s_barrier */
/* Whether an atomic becomes a compare-and-swap loop (two extra MIR blocks, cflow.c). */
bool sel_atomic_needs_loop(const struct isel *s, const struct ir_insn *in);
/* cflow.c: the successors of a block of such a loop (s1 ~0u or == s0: one) */
void sel_set_succ(struct isel *s, uint32_t b, uint32_t s0, uint32_t s1);
/* match.any's waterfall loop (sel_warp.c): two MIR blocks, as an atomic loop. */
bool sel_warp_needs_loop(const struct ir_insn *in);
bool sel_warp(struct isel *s, const struct ir_insn *in); /* sel_warp.c */
/* sel_bar.c: counted and named barriers; cflow.c reserves two blocks where needs_loop */
bool sel_bar(struct isel *s, const struct ir_insn *in);
bool sel_bar_needs_loop(struct isel *s, const struct ir_insn *in);
bool sel_bar_is_hw(struct isel *s, const struct ir_insn *in); /* NBAR that is s_barrier */
bool sel_barrier(struct isel *s); /* sel_mem.c: release, s_barrier, acquire */

/* sel_global.c: addresses of .global/.const variables; false = not such an instruction */
void sel_global_entry(struct isel *s);
bool sel_global_symaddr(struct isel *s, const struct ir_insn *in);
bool sel_global_cvta(struct isel *s, const struct ir_insn *in);
/* sel_local.c: the scratch frame, its setup and .local accesses */
void sel_local_layout(struct isel *s);
unsigned sel_local_user_sgprs(struct isel *s, unsigned next);   /* returns the next SGPR */
unsigned sel_local_system_sgprs(struct isel *s, unsigned next); /* returns the next SGPR */
/* select.c: the end of the SGPRs a kernel's entry may read its inputs from, with the scratch
 * set-up that selection or mir_setup_scratch may add (cflow.c's masks go above it) */
unsigned sel_entry_sgprs_end(const struct isel *s);
bool sel_local_symaddr(struct isel *s, const struct ir_insn *in);
bool sel_local_access(struct isel *s, const struct ir_insn *in);
bool sel_local_cvta(struct isel *s, const struct ir_insn *in);
/* sel_bits.c: funnel shifts, prmt, 64-bit clz/brev, i16 widths, f16 conversions */
bool sel_bits(struct isel *s, const struct ir_insn *in);

/* cflow.c: EXEC-mask control flow */
bool sel_cflow_plan(struct isel *s);
/* cflow_join.c: saved joins and EXEC back edges (after scalar regions, before masks) */
void sel_plan_joins(struct isel *s, bool (*needs_mask)(const struct isel *, uint32_t));
bool sel_is_exec_back_header(const struct isel *s, uint32_t b);
void sel_block_begin(struct isel *s, uint32_t irb);
void sel_block_end(struct isel *s, uint32_t irb);
void sel_finish(struct isel *s);
/* sel_phi.c: phi copies and lane masks merged by EXEC */
void sel_phi_plan(struct isel *s);
void sel_phi_copies(struct isel *s, uint32_t b, uint32_t succ); /* at the end of b */
void sel_phi_entry(struct isel *s, uint32_t b);                 /* isolated phis, at b's start */
/* Around the selection of r's definition: a mask merged by EXEC is selected into a new
 * register, then merged into its own (begin returns what end needs). */
uint32_t sel_phi_merge_begin(struct isel *s, ir_ref r);
void sel_phi_merge_end(struct isel *s, ir_ref r, uint32_t saved);

#endif
