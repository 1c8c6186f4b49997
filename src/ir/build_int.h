/* Internal to ir_build (build.c, build_insn.c): the builder's state. */
#ifndef IR_BUILD_INT_H
#define IR_BUILD_INT_H

#include <stdarg.h>

#include "ir/ir.h"

struct irb_map { /* open-addressing hash map u64 -> u32; keys stored complemented, 0 = free */
	uint64_t *keys;
	uint32_t *vals;
	uint32_t cap, n;
	struct pa_arena *arena; /* where it grows: ir_build's own, dropped when it returns */
};

struct irb_phi {
	ir_ref res;
	uint32_t var;
	ir_ref *args;
	bool incomplete;
	struct irb_phi *next;
};

/* build_printf.c: a %s argument checked again once every block is sealed */
struct irb_printf_check {
	ir_ref ptr;
	const struct pf_str *strs; /* NULL: an address that must still trace to (sv, off) */
	unsigned nstrs, argno;
	uint32_t sv;
	int64_t off;
	uint32_t line, col;
	struct irb_printf_check *next;
};

struct irb_block_state {
	bool sealed, is_label;
	uint32_t preds_cap;
	struct irb_phi *phis; /* newest first */
};

struct irb {
	struct ir_function *fn;
	struct pa_diag *d;
	const char *file;
	struct pa_arena *arena;
	const struct ptx_module_state *mod;
	struct irb_map vars;   /* (symbol, index) -> variable */
	struct irb_map defs;   /* (variable, block) -> current value */
	struct irb_map labels; /* label symbol -> block */
	struct irb_map params; /* parameter symbol -> index */
	uint8_t *var_type;     /* enum ir_type per variable */
	/* per variable, its last write (block, value), not yet in the defs map (get_def in
	 * build.c): most reads and writes need no map access, the hottest lookups of the
	 * builder on large kernels */
	uint32_t *last_def_block; /* UINT32_MAX: never written */
	ir_ref *last_def_value;
	uint32_t nvars, vars_cap;
	struct irb_block_state *bstate;
	uint32_t bstate_cap;
	uint32_t cur; /* block being filled */
	bool terminated;
	uint32_t line, col; /* statement being translated */
	bool failed;
	bool stop; /* an error that makes going on pointless (inlining limits) */
	/* a function compiled on its own (inline.c): where its caller put the special
	 * registers (%tid, %ntid, %ctaid, %nctaid) in its frame, when its calls use them */
	bool has_context;
	uint32_t context_off;
	/* inlining (inline.c) */
	const struct ir_funclib *lib;    /* saved .func bodies (NULL: calls are errors) */
	struct irb_frame *frame;         /* innermost inlined call being translated, or NULL */
	const struct ptx_function *body; /* the body being walked (the kernel's or a callee's) */
	uint32_t inst, ninsts;           /* current inline instance; instances made so far */
	uint64_t inlined_stmts;          /* statements of the inlined bodies (size limit) */
	struct irb_map syminst;          /* (symbol, instance) -> dense number (irb_sym_instance) */
	uint32_t nsyminst;
	/* caches in front of the syminst and vars maps (build.c), the builder's hottest
	 * lookups: the last few (symbol, instance) keys (operands cycle through a few register
	 * ranges), and per dense symbol number an array of variable + 1 per range index */
	uint64_t syminst_key[4];
	uint32_t syminst_val[4];
	uint32_t **var_of_sym;
	uint32_t var_of_sym_cap;
	struct irb_map slots; /* .param slot -> first access record (overlap checks) */
	/* call_policy.c: inlined size and call sites per function, of the body compiled */
	const struct ptx_function *root;
	struct irb_map call_size, call_sites;
	bool sites_counted;
	struct irb_slot_access *acc;
	uint32_t nacc, acc_cap;
	/* hidden .shared areas (build_bar.c): symvar index + 1, 0 while unused */
	uint32_t bar_slots;     /* bar.red: one dword per wave */
	uint32_t reserved_smem; /* %reserved_smem_offset_1 */
	uint32_t nbar_area;     /* counted/named barriers: IR_NBAR_AREA_BYTES */
	bool nbar_all;          /* barrier 0 goes through the LDS counters too */
	bool bar_marked;        /* BARRIERs of plain bar.sync 0 carry aux 1 until the finish */
	/* where %reserved_smem_offset_1 was first read (build_bar.c's spin warning) */
	uint32_t reserved_line, reserved_col;
	/* build_printf.c: addresses and %s arguments to check once every block is sealed */
	struct irb_printf_check *printf_checks;
	/* build_warp.c: narrow membermask registers to check once every block is sealed */
	struct irb_mask_check *mask_checks;
	/* build_warp.c: shuffles whose b and c looked constant before every block was sealed */
	struct irb_shfl_check *shfl_checks;
	/* build_mma_mfma.c: the mma's computed on the matrix unit (chains of accumulators) */
	struct mma_unit_rec *mma_recs;
	/* build_ldsm.c: recent ldmatrix registers and the loads mma's made of them */
	struct ldsm_table *ldsm;
};

void irb_error(struct irb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
enum ir_type irb_ptx_type(enum ptx_type t);
int32_t irb_var(struct irb *b, const struct ptx_symbol *sym, uint32_t index);
/* The variable of register sym[index] in inline instance `inst`, type t (made on first sight;
 * irb_var's lookup, for a callee's .reg formals too). */
uint32_t irb_reg_var(struct irb *b, const struct ptx_symbol *sym, uint32_t inst, uint32_t index,
                     enum ir_type t);
ir_ref irb_read_var(struct irb *b, uint32_t var, uint32_t block);
void irb_write_var(struct irb *b, uint32_t var, uint32_t block, ir_ref v);
void irb_seal(struct irb *b, uint32_t block);
uint32_t irb_new_block(struct irb *b);
uint32_t irb_open_sealed(struct irb *b);
void irb_switch_to(struct irb *b, uint32_t block);
void irb_edge(struct irb *b, uint32_t from, uint32_t to);
uint32_t irb_label_block(struct irb *b, const struct ptx_symbol *label);
ir_ref irb_emit(struct irb *b, enum ir_op op, enum ir_type type, const ir_ref *args, unsigned nargs,
                uint32_t aux, int64_t imm);
/* A two-operand operation (the builders' most common shape). */
static inline ir_ref irb_op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y,
                             uint32_t aux)
{
	ir_ref args[2] = {x, y};
	return irb_emit(b, op, t, args, 2, aux, 0);
}
void irb_terminate(struct irb *b, enum ir_op op, ir_ref cond, uint32_t s0, uint32_t s1);
bool irb_param_index(struct irb *b, const struct ptx_symbol *s, uint32_t *index);

bool irb_map_get(struct irb_map *m, uint64_t key, uint32_t *val);
void irb_map_put(struct irb_map *m, struct pa_arena *a, uint64_t key, uint32_t val);
void irb_walk(struct irb *b, const struct ptx_function *pf);
uint32_t irb_sym_instance(struct irb *b, const struct ptx_symbol *sym, uint32_t inst);
uint32_t irb_var_of_key(struct irb *b, uint64_t key, enum ir_type t);

/* build_insn.c */
void irb_insn(struct irb *b, const struct ptx_insn *in);
void irb_decl(struct irb *b, const struct ptx_symbol *sym);
int irb_mem_space(const struct ptx_insn *in); /* enum ir_space, -1: not supported */
bool irb_address(struct irb *b, const struct ptx_operand *o, int space, ir_ref *base, int64_t *off);
ir_ref irb_read_opnd(struct irb *b, const struct ptx_operand *o, enum ir_type want, bool sign);
void irb_unsupported(struct irb *b, const struct ptx_insn *in, const char *why);
/* The same for a form refused for good (no AMD or HIP counterpart): "cannot be compiled". */
void irb_refuse(struct irb *b, const struct ptx_insn *in, const char *why);
/* The comparison a setp's words name; false if none fits the operand class. */
bool irb_cmp_of(const struct ptx_insn *in, bool is_float, bool sign, enum ir_cmp *out);

/* build_atomic.c: atom, red, membar, fence; memory-order bits of ld/st qualifiers */
void irb_atomic(struct irb *b, const struct ptx_insn *in);
void irb_fence(struct irb *b, const struct ptx_insn *in);
bool irb_mem_order(struct irb *b, const struct ptx_insn *in, uint32_t *bits);
void irb_write_dest(struct irb *b, const struct ptx_operand *o, ir_ref v, bool sign, ir_ref guard);

/* build_warp.c */
bool irb_warp(struct irb *b, const struct ptx_insn *in);
bool irb_is_lanemask_sreg(struct irb *b, const char *name, enum ir_type want);
ir_ref irb_lanemask(struct irb *b, const char *name);
ir_ref irb_laneid(struct irb *b);
ir_ref irb_warpid(struct irb *b);
void irb_warp_sync(struct irb *b, const struct ptx_insn *in);

/* build_bar.c: bar/barrier .sync/.red, bar.warp.sync, hidden LDS areas */
void irb_bar(struct irb *b, const struct ptx_insn *in);
ir_ref irb_reserved_smem(struct irb *b);
void irb_bar_finish(struct irb *b);
uint32_t irb_new_symvar(struct irb *b, const struct ir_symvar *v); /* build_insn.c: its index */

/* build_printf.c: a call of vprintf(format, args); its int result */
ir_ref irb_vprintf(struct irb *b, ir_ref fmt_addr, ir_ref args);
/* build_printf.c: a printf of the constant format `fmt` with the values vals (%s: pointers
 * to constant strings, %d: i32, 8-byte conversions: i64/f64); its int result */
ir_ref irb_printf_values(struct irb *b, const char *fmt, const ir_ref *vals, unsigned nvals);
void irb_printf_finish(struct irb *b); /* after every block is sealed */
void irb_warp_finish(struct irb *b);   /* build_warp.c: the same, for membermasks */
/* build_mma_mfma.c, after every block is sealed: an mma on the matrix unit whose C comes
 * through a loop phi from the D of matrix-unit mma's (or zeros) takes the accumulator in the
 * unit's layout instead of shuffling it back */
void irb_mma_finish(struct irb *b);
/* build_forms.c: testp, mul24/mad24, slct, dp4a/dp2a, min/max .NaN, tanh.approx,
 * cvt.rna.tf32.f32; false if the instruction is not one of these */
bool irb_forms(struct irb *b, const struct ptx_insn *in, ir_ref guard);

/* build_mma.c: mma.sync and wmma.load/mma/store (docs/TENSOR.md) */
void irb_mma(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_ldmatrix.c: ldmatrix, stmatrix, movmatrix (docs/TENSOR.md) */
void irb_matrix_move(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_ldmatrix.c: this lane's row address operand as an LDS offset (i32) + constant */
bool irb_lds_row_address(struct irb *b, const struct ptx_insn *in, const struct ptx_operand *o,
                         ir_ref *addr, int64_t *off);
/* build_ldmatrix_b8.c: the .m16n16/.m8n16/.m16n8 (8-bit, sm_100a) forms, which
 * irb_matrix_move hands over (its guard around them) */
bool irb_matrix_move_is_b8(const struct ptx_insn *in);
bool irb_matrix_move_b8_check(struct irb *b, const struct ptx_insn *in);
void irb_matrix_move_b8(struct irb *b, const struct ptx_insn *in);
/* build_ldsm.c: ldmatrix (non-.trans) register `val` of matrix `mat` is the dword at the row
 * address `addr` of lane 8 mat + l/4 plus 4 (l % 4) + off in lane l of its 32-lane group */
void ldsm_note(struct irb *b, ir_ref val, ir_ref addr, int64_t off, unsigned mat);
/* build_intsat.c: integer saturation, SIMD16x2 integer forms, set, video instructions,
 * min/max .relu/.xorsign; false if the instruction is not one of these */
bool irb_intsat(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_video.c: vadd..vset, vmad and the SIMD vadd2..vset4; false if not one of these */
bool irb_video(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_intsat.c: false, after an error naming it, when `in` has a modifier other than its
 * types, the words of `ok` and (cmp) a comparison */
bool irb_mods_only(struct irb *b, const struct ptx_insn *in, const enum ptx_dotword *ok, unsigned n,
                   bool cmp);
#define IRB_MODS_ONLY(b, in, cmp, ...)                                                             \
	irb_mods_only(b, in, (const enum ptx_dotword[]){__VA_ARGS__},                              \
	              sizeof((const enum ptx_dotword[]){__VA_ARGS__}) / sizeof(enum ptx_dotword),  \
	              cmp)
/* build_conv2.c: fp8/tf32 conversions, .relu/.satfinite f16 conversions, f16 ex2 */
bool irb_conv2(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_async.c: cp.async and its groups, mbarrier, cluster-of-one forms */
bool irb_async(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_async.c: a cluster special register (%clusterid, %cluster_ctarank, ...) of a
 * cluster of one CTA; IR_NO_REF if o is not one of them */
ir_ref irb_cluster_sreg(struct irb *b, const struct ptx_operand *o);
/* build_mbar.c: mbarrier.* (false if not a form built there), cp.async.mbarrier.arrive */
bool irb_mbarrier(struct irb *b, const struct ptx_insn *in);
void irb_cp_async_arrive(struct irb *b, const struct ptx_insn *in);
/* build_tex.c: textures and surfaces (tex, tld4, txq, suld, sust, sured, suq, istypep);
 * false for other instructions */
bool irb_tex(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_sys.c: hints (prefetch, createpolicy, ...), nanosleep, trap, stack forms, ... */
bool irb_sysmisc(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_sys.c: alloca's stack pointer before an inlined call of `body` when the body
 * allocates (else IR_NO_REF), and put back after it (the PTX ISA frees a function's
 * allocations when it returns) */
ir_ref irb_stack_at_call(struct irb *b, const struct ptx_function *body);
void irb_stack_at_return(struct irb *b, ir_ref sp);
/* build_sys.c: a call of CUDA's __assertfail or clang's __assert_fail (.extern, no body):
 * the assertion message, then a trap; false if the call is not one */
bool irb_assert_call(struct irb *b, const struct ptx_symbol *callee, const struct ptx_operand *rets,
                     const struct ptx_operand *args);

/* inline.c: calls, and .param variables that are not kernel arguments */
void irb_call(struct irb *b, const struct ptx_insn *in);
ir_ref irb_context_sreg(struct irb *b, uint32_t sreg);
void irb_real_function(struct irb *b, const struct ptx_function *pf, const struct ptx_symbol *fs);
/* call_policy.c: whether a direct call of fs that is not recursive should be a real call
 * (its inlined statements and call sites, for the record) */
bool irb_policy_real_call(struct irb *b, const struct ptx_symbol *fs, uint32_t *stmts,
                          uint32_t *sites);
void irb_note_inlining(struct irb *b);
/* The continuation block `ret` jumps to inside an inlined callee, or IR_NO_BLOCK. */
uint32_t irb_return_block(const struct irb *b);
/* ld.param/st.param of `bytes` bytes at [sym + off] when sym is not a kernel parameter
 * (a call's argument or return value); false when it is one (the caller reads the
 * kernarg).  vt: the IR type of the value loaded or stored. */
bool irb_param_load(struct irb *b, const struct ptx_symbol *sym, int64_t off, unsigned bytes,
                    enum ir_type vt, bool sign, ir_ref *out);
bool irb_is_unused_param_address(const struct irb *b, const struct ptx_insn *in);
bool irb_param_store(struct irb *b, const struct ptx_symbol *sym, int64_t off, unsigned bytes,
                     enum ir_type vt, ir_ref v);

/* build_arith.c: shf, bfe, bfi, prmt, bfind, 64-bit mul.hi/div/rem, sqrt.rn; false if
 * the instruction is not one of these */
bool irb_arith(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_arith.c: an integral f32/f64 value as a saturated 64-bit integer (cvt.rXi.[su]64) */
ir_ref irb_ftoi64(struct irb *b, ir_ref t, bool sign, uint32_t ftz);
/* build_arith.c: a 64-bit integer as f32/f64, rounded to nearest (cvt.rn.f*.[su]64) */
ir_ref irb_itof64_rn(struct irb *b, ir_ref v, bool sign, enum ir_type ft);

/* build_arith.c: a correctly rounded (round to nearest even) square root of an f32/f64 */
ir_ref irb_sqrt_rn(struct irb *b, ir_ref a, enum ir_type t);
/* build_round.c: div/rcp/sqrt .rz/.rm/.rp, cvt.{rz,rm,rp}.f*.[su]64, cvt to f16 with
 * directed rounding or from f64; false if the instruction is not one of these */
bool irb_round(struct irb *b, const struct ptx_insn *in, ir_ref guard);

/* build_arith2.c: lop3, carry chains (.cc, addc/subc/madc), sad, copysign, vector moves of
 * pieces, packed f16x2, rcp.approx.ftz; false if the instruction is not one of these */
bool irb_arith2(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_fapprox.c: div.approx.f32 / div.full.f32 (full) with or without .ftz, a / d */
ir_ref irb_fdiv_approx(struct irb *b, ir_ref a, ir_ref d, bool full, bool ftz);
/* build_fapprox.c: .ftz: v (f32, or f64 if wide) with a subnormal value as the zero of its sign */
ir_ref irb_flush_subnormal(struct irb *b, ir_ref v, bool wide);
/* build_fapprox.c: rcp/rsqrt.approx.ftz.f64 (op IR_FRCP or IR_FRSQ) from a's high word */
ir_ref irb_approx_ftz_f64(struct irb *b, enum ir_op op, ir_ref a);
/* build_bf16.c: bf16/bf16x2 conversions and arithmetic; false if not one of these */
bool irb_bf16(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* build_bf16.c: x + y of two bf16 patterns (i32, low half) as add.rn.bf16 rounds it */
ir_ref irb_bf16_add(struct irb *b, const struct ptx_insn *in, ir_ref x, ir_ref y);
/* build_vec.c: vector and .b128 registers (docs/VECTORS.md) */
int32_t irb_opnd_var(struct irb *b, const struct ptx_operand *o); /* REG operand's variable */
const struct ptx_insn *irb_vec_expand(struct irb *b, const struct ptx_insn *in);
bool irb_vec(struct irb *b, const struct ptx_insn *in, ir_ref guard);
bool irb_vec_atomic(struct irb *b, const struct ptx_insn *in); /* from irb_atomic */
/* build.c: whether variable `var` has a definition in `block` itself */
bool irb_has_def(struct irb *b, uint32_t var, uint32_t block);

#endif
