/* The SSA IR: the public face of src/ir.
 *
 * A function is built from one parsed PTX function (ptx.h) by ir_build: PTX virtual
 * registers, which may be assigned many times, become SSA values (Braun et al., "Simple
 * and Efficient Construction of Static Single Assignment Form", CC 2013) with phis at
 * block starts.  Everything is indices (STYLE.md habit 4): values are numbered densely
 * (fn->vals), blocks by index, instructions are fixed-size records in a flat array per
 * block with their phis first and their terminator last.
 *
 * Values: every instruction with a result defines exactly one value; constants are
 * values too (IR_VAL_CONST, not defined by an instruction) so operands are one kind of
 * reference, an ir_ref = value number.  Types: pred, i16/i32/i64 (integers, signedness
 * in the operation), f32/f64.
 *
 * Analyses cache their results in the function: ir_cfg_compute (preds/succs, reverse
 * postorder, dominators, loops, the linear order), ir_uniformity (the `divergent` flag of
 * every value and every block's branch).  Passes that change the CFG invalidate them. */
#ifndef IR_IR_H
#define IR_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"
#include "ptx.h"

enum ir_op {
#define OP(id, name, nargs, flags) IR_##id,
#include "ir_ops.def"
#undef OP
	IR_NUM_OPS
};

enum {
	IR_OPF_SIDE = 1,
	IR_OPF_TERM = 2,
	IR_OPF_COMM = 4,
	IR_OPF_NORES = 8,
	IR_OPF_SRC_DIV = 16,
	IR_OPF_MEM = 32,
	IR_OPF_WAVE = 64, /* same result in every lane of the wave, whatever the operands */
};

/* REDUX kinds (aux). */
enum ir_redux {
	IR_REDUX_ADD,
	IR_REDUX_MIN_U,
	IR_REDUX_MIN_S,
	IR_REDUX_MAX_U,
	IR_REDUX_MAX_S,
	IR_REDUX_AND,
	IR_REDUX_OR,
	IR_REDUX_XOR,
	IR_REDUX_HALVES = 16, /* flag: each 32-lane half of a wave64 separately (--warp-size
	                       * 32); the result is then per lane (divergent) */
};

/* IMG_SAMPLE3(_L) aux flag (build_tex.c, sel_tex.c): a cube face's normalized coordinates. */
enum { IR_IMG_CUBE_FACE = 256 };
/* IMG_ATOMIC operations (aux >> 4) */
enum ir_img_atomic {
	IR_IMG_ATOMIC_ADD,
	IR_IMG_ATOMIC_SMIN,
	IR_IMG_ATOMIC_UMIN,
	IR_IMG_ATOMIC_SMAX,
	IR_IMG_ATOMIC_UMAX,
	IR_IMG_ATOMIC_AND,
	IR_IMG_ATOMIC_OR,
};

/* NBAR / NBAR_RED aux flags (build_bar.c, sel_bar.c). */
enum {
	IR_NBAR_ARRIVE = 1,  /* bar.arrive: no wait, a release only */
	IR_NBAR_MAYBE_0 = 2, /* bar.sync with a register and no count: s_barrier if it folds to 0 */
	IR_NBAR_ALL = 4,     /* the kernel keeps barrier 0 in LDS too: never s_barrier */
	IR_NBAR_AREA_BYTES = 192, /* 16 counter dwords, then acc[16][2] of NBAR_RED */
};

/* LANE_READ aux: 0, or a constant lane pattern (shfl.sync with constant b and c) that
 * selection turns into DPP/ds_swizzle; args[1] is then the lane itself.  Patterns repeat
 * in segments of 2^seg lanes: XOR n (n < 32, always in range), UP/DOWN n (0 < n < segment;
 * out of range: the lane's own value), IDX n (segment <= 32). */
/* The matrix units (ir_function.matrix_unit) and MATRIX's instructions (aux): the
 * target's rows are sel_mma.c's. */
enum ir_matrix_unit { IR_MU_NONE, IR_MU_MFMA, IR_MU_WMMA11, IR_MU_WMMA12 };
enum ir_matrix_op {
	IR_MX_F32_4X4X4_F16,   /* v_mfma_f32_4x4x4f16 (16 blocks) */
	IR_MX_F32_4X4X4_BF16,  /* v_mfma_f32_4x4x4bf16_1k */
	IR_MX_WMMA_F32_F16,    /* gfx11 v_wmma_f32_16x16x16_f16 (EXEC all ones around it) */
	IR_MX_WMMA_F32_BF16,   /* gfx11 v_wmma_f32_16x16x16_bf16 */
	IR_MX_I32_4X4X4_I8,    /* v_mfma_i32_4x4x4i8 (16 blocks, signed bytes) */
	IR_MX_F32_4X4X1_F32,   /* v_mfma_f32_4x4x1f32 (16 blocks) for tf32 */
	IR_MX_WMMA12_F32_F16,  /* gfx12 v_wmma_f32_16x16x16_f16 (EXEC all ones around it) */
	IR_MX_WMMA12_F32_BF16, /* gfx12 v_wmma_f32_16x16x16_bf16 */
	IR_MX_WMMA_I32_IU8,    /* gfx11 v_wmma_i32_16x16x16_iu8; aux bit 8: A signed, bit 9: B
	                        * signed (its neg_lo bits) */
	IR_MX_F64_M8N8K4,      /* both warps' f64 m8n8k4 of a wave64 on v_mfma_f64_4x4x4f64
	                        * (build_mma_f64.c, sel_mma_ext.c) */
	IR_MX_WMMA_I32_IU4,    /* gfx11 v_wmma_i32_16x16x16_iu4; aux bits 8, 9 as IU8's */
};
enum ir_lane_pattern { IR_LANE_XOR = 1, IR_LANE_UP, IR_LANE_DOWN, IR_LANE_IDX };
#define IR_LANE_AUX(kind, n, seg) ((uint32_t)(kind) | (uint32_t)(n) << 3 | (uint32_t)(seg) << 9)
#define IR_LANE_KIND(aux)         ((aux)&7u)
#define IR_LANE_N(aux)            (((aux) >> 3) & 63u)
#define IR_LANE_SEG(aux)          (((aux) >> 9) & 7u) /* log2 of the segment's lanes */

struct ir_op_info {
	const char *name;
	int8_t nargs;
	uint8_t flags;
};
extern const struct ir_op_info ir_ops[IR_NUM_OPS];

enum ir_type { IR_T_NONE, IR_T_PRED, IR_T_I16, IR_T_I32, IR_T_I64, IR_T_F32, IR_T_F64 };
/* Inline: called for nearly every value the IR build and the passes make. */
static inline unsigned ir_type_bits(enum ir_type t)
{
	static const uint8_t bits[] = {0, 1, 16, 32, 64, 32, 64};
	return t <= IR_T_F64 ? bits[t] : 0;
}
const char *ir_type_name(enum ir_type t);
static inline bool ir_type_is_float(enum ir_type t)
{
	return t == IR_T_F32 || t == IR_T_F64;
}

/* Comparison kinds (ICMP and FCMP).  Float: the plain ones are ordered (false on NaN),
 * the _U ones unordered (true on NaN); NUM = neither is NaN, NAN = either is. */
enum ir_cmp {
	IR_CMP_EQ,
	IR_CMP_NE,
	IR_CMP_LT,
	IR_CMP_LE,
	IR_CMP_GT,
	IR_CMP_GE,
	IR_CMP_LTU, /* integer: unsigned; float: unordered */
	IR_CMP_LEU,
	IR_CMP_GTU,
	IR_CMP_GEU,
	IR_CMP_EQU, /* float only */
	IR_CMP_NEU, /* float only */
	IR_CMP_NUM,
	IR_CMP_NAN,
	IR_NUM_CMPS
};

/* Float modifier bits in aux. */
enum {
	IR_FM_RN = 0, /* rounding: low 2 bits */
	IR_FM_RZ = 1,
	IR_FM_RM = 2,
	IR_FM_RP = 3,
	IR_FM_ROUND_MASK = 3,
	IR_FM_FTZ = 4,
	IR_FM_SAT = 8,
	IR_FM_APPROX = 16,
	IR_FM_INT_ROUND = 32, /* cvt.rni/rzi/rmi/rpi on float->float: round to integral */
};

enum ir_space {
	IR_SPACE_GENERIC,
	IR_SPACE_GLOBAL,
	IR_SPACE_SHARED,
	IR_SPACE_LOCAL,
	IR_SPACE_CONST,
	IR_SPACE_PARAM,
	IR_SPACE_MASK = 7,
	IR_MEM_VOLATILE = 8,
	IR_MEM_NC = 16,          /* ld.global.nc: read-only for the kernel's lifetime */
	IR_MEM_SIZE_SHIFT = 8,   /* log2 of the bytes accessed (bits 8-10) */
	IR_MEM_SIGNED = 1 << 12, /* narrow load: sign-extend into the value's type */
};
static inline unsigned ir_mem_bytes(uint32_t aux)
{
	return 1u << ((aux >> IR_MEM_SIZE_SHIFT) & 7);
}

/* Atomics (ATOMIC, RED: aux = space | size << IR_MEM_SIZE_SHIFT | op << IR_ATOM_OP_SHIFT |
 * memory order and scope) and the memory-model qualifiers of LOAD/STORE/FENCE (order, scope
 * in the same bits; IR_ORD_WEAK = a plain access). */
enum ir_atomic_op {
	IR_ATOM_ADD, /* integer add */
	IR_ATOM_FADD,
	IR_ATOM_MIN_U,
	IR_ATOM_MIN_S,
	IR_ATOM_MAX_U,
	IR_ATOM_MAX_S,
	IR_ATOM_INC, /* PTX wrap: old >= b ? 0 : old + 1 */
	IR_ATOM_DEC, /* PTX wrap: old == 0 || old > b ? b : old - 1 */
	IR_ATOM_AND,
	IR_ATOM_OR,
	IR_ATOM_XOR,
	IR_ATOM_EXCH,
	IR_ATOM_CAS, /* args: address, compare, new value */
	IR_NUM_ATOMIC_OPS
};
enum ir_order { IR_ORD_WEAK, IR_ORD_RELAXED, IR_ORD_ACQUIRE, IR_ORD_RELEASE, IR_ORD_ACQ_REL };
enum ir_scope { IR_SCOPE_CTA, IR_SCOPE_GPU, IR_SCOPE_SYS }; /* .cluster is GPU scope here */
enum {
	IR_ATOM_OP_SHIFT = 16, /* 4 bits */
	IR_ORD_SHIFT = 20,     /* 3 bits */
	IR_SCOPE_SHIFT = 24,   /* 2 bits */
};
static inline enum ir_atomic_op ir_atomic_op_of(uint32_t aux)
{
	return (enum ir_atomic_op)((aux >> IR_ATOM_OP_SHIFT) & 15);
}
static inline enum ir_order ir_order_of(uint32_t aux)
{
	return (enum ir_order)((aux >> IR_ORD_SHIFT) & 7);
}
static inline enum ir_scope ir_scope_of(uint32_t aux)
{
	return (enum ir_scope)((aux >> IR_SCOPE_SHIFT) & 3);
}

enum ir_sreg {
	IR_SREG_TID_X,
	IR_SREG_TID_Y,
	IR_SREG_TID_Z,
	IR_SREG_NTID_X,
	IR_SREG_NTID_Y,
	IR_SREG_NTID_Z,
	IR_SREG_CTAID_X,
	IR_SREG_CTAID_Y,
	IR_SREG_CTAID_Z,
	IR_SREG_NCTAID_X,
	IR_SREG_NCTAID_Y,
	IR_SREG_NCTAID_Z,
	IR_SREG_LANEID, /* the lane in the WAVE (0..wave_size-1), not PTX's %laneid: under
	                 * --warp-size 32 on wave64 irb_laneid masks it to the warp */
	IR_SREG_WARPSZ,
	IR_SREG_SHARED_APERTURE,  /* high dword of generic addresses in .shared */
	IR_SREG_PRIVATE_APERTURE, /* high dword of generic addresses in .local */
	IR_SREG_SMID,             /* %smid: CU (gfx9) / WGP (gfx10+) id of the wave, < IR_NSMID */
	IR_SREG_DYN_SMEM,         /* %dynamic_smem_size: the launch's dynamic LDS bytes */
	IR_SREG_TOTAL_SMEM,       /* %total_smem_size: static + dynamic LDS, in granules */
	IR_SREG_GRIDID,           /* %gridid (i64): the HSA dispatch id (a user SGPR pair) */
	IR_SREG_PRINTF_BUFFER,    /* i64: the hidden_printf_buffer kernel argument */
	IR_NUM_SREGS
};
enum { IR_NUM_CONTEXT_SREGS = IR_SREG_NCTAID_Z + 1 }; /* passed to real calls (inline.c) */

/* %nsmid: an upper bound of %smid (PTX allows non-contiguous ids): the HW_ID (gfx9) or
 * HW_ID1 (gfx10+) bit field %smid is read from has at most 11 bits. */
enum { IR_NSMID = 2048 };

/* IR_TIMER: the shader cycle counter (%clock64) or the constant 100 MHz realtime counter
 * (%globaltimer, scaled to ns by the builder) */
enum ir_timer { IR_TIMER_CYCLES, IR_TIMER_REALTIME };

typedef uint32_t ir_ref; /* value number */
#define IR_NO_REF 0xffffffffu

enum ir_val_kind { IR_VAL_INSN, IR_VAL_CONST, IR_VAL_UNDEF };

struct ir_value {
	uint8_t kind; /* enum ir_val_kind */
	uint8_t type; /* enum ir_type */
	bool divergent;
	uint8_t pad;
	uint32_t block; /* defining block (IR_VAL_INSN) */
	uint64_t bits;  /* IR_VAL_CONST: the constant (floats as their bit pattern) */
};

struct ir_insn {
	uint16_t op; /* enum ir_op */
	uint8_t type;
	uint8_t nargs;
	uint32_t aux;
	ir_ref res;       /* result value or IR_NO_REF */
	ir_ref args[4];   /* PHI: see phi_args */
	ir_ref *phi_args; /* PHI: one per predecessor, in fn->blocks[b].preds order */
	int64_t imm;
	uint32_t line, col; /* PTX source position */
};

struct ir_block {
	struct ir_insn *insns;
	uint32_t ninsns, cap;
	uint32_t *preds, npreds;
	uint32_t succs[2], nsuccs; /* BR: [0] taken, [1] not taken; JMP: [0] */
	/* analyses (ir_cfg_compute) */
	uint32_t rpo;        /* position in reverse postorder */
	uint32_t idom;       /* immediate dominator (entry: itself) */
	uint32_t ipdom;      /* immediate post-dominator (IR_NO_BLOCK: the virtual exit) */
	uint32_t loop;       /* innermost loop index or IR_NO_LOOP */
	uint32_t linear_pos; /* position in the linear order */
	bool reachable;
	bool divergent_branch;          /* ir_uniformity: its BR condition differs between lanes */
	const struct ptx_symbol *label; /* the PTX label that starts it, or NULL */
};
#define IR_NO_BLOCK 0xffffffffu
#define IR_NO_LOOP  0xffffffffu

struct ir_loop {
	uint32_t header;
	uint32_t parent;         /* enclosing loop or IR_NO_LOOP */
	uint32_t depth;          /* 1 for outermost */
	uint32_t last;           /* block with the highest linear position in the loop */
	bool divergent;          /* ir_uniformity: lanes may leave it in different iterations */
	bool divergent_branches; /* ir_uniformity: a divergent branch inside (an inner loop's
	                          * too): EXEC changes within an iteration */
	bool irreducible;        /* entered elsewhere than at its header too (cfg.c) */
};

struct ir_param {
	const char *name;
	uint32_t offset, size, align;
	bool is_pointer; /* .u64/.b64 parameter or .ptr */
};

/* A module-scope variable the function uses (.shared/.global/.const). */
struct ir_symvar {
	const struct ptx_symbol *sym;
	uint8_t space; /* enum ir_space */
	uint64_t size;
	uint32_t align;
};

struct ir_function {
	const char *name;
	const char *file; /* for diagnostics */
	bool is_entry;
	struct pa_arena *arena;
	struct ir_block *blocks;
	uint32_t nblocks, blocks_cap;
	struct ir_value *vals;
	uint32_t nvals, vals_cap;
	struct ir_param *params;
	uint32_t nparams;
	uint32_t param_bytes;
	struct ir_symvar *symvars;
	uint32_t nsymvars, symvars_cap;
	uint32_t maxntid[3], reqntid[3], maxnreg;
	/* Set by the caller before ir_build, which keeps them: the target's wave size (32 or
	 * 64; 0 means 32); the warp size the PTX sees (WARP_SZ, %laneid, lane-mask widths):
	 * the wave size, or 32 on wave64 to run NVIDIA's 32-lane warps as the two halves of
	 * each wave (--warp-size 32; 0 means the wave size); whether a constant lane mask with
	 * an empty high half on wave64 is left without its warning (docs/WARP.md). */
	unsigned wave_size;
	unsigned warp_size;
	bool no_lanemask_warning;
	/* Set by the caller: the matrix unit mma.sync may select (enum ir_matrix_unit; 0: none,
	 * the portable lowering of build_mma.c only). */
	unsigned matrix_unit;
	/* Real calls (inline.c, docs/CALLS.md).  Set by the caller before ir_build to build a
	 * recursive .func as a function of its own: its module-level symbol (else NULL).
	 * Filled by ir_build: the functions IR_CALL names (aux indexes `callees`), and the
	 * bytes of the function's own frame its parameters and return values take. */
	const struct ptx_symbol *real_sym;
	uint32_t stack_size; /* per-lane stack bytes of a kernel making real calls (0: default) */
	const struct ptx_symbol **callees;
	uint32_t ncallees, callees_cap;
	uint32_t frame_args;
	/* Which calls that are not recursive become real calls (call_policy.c), set by the
	 * caller before ir_build: the mode (enum ir_inline_mode) and functions that must be
	 * inlined (they failed to compile on their own).  Filled by ir_build, per callee: why
	 * it is a real call (its inlined statements and call sites; sites 0: recursion). */
	unsigned inline_mode;
	const struct ptx_symbol *const *inline_only;
	uint32_t ninline_only;
	struct ir_callee_why {
		uint32_t stmts, sites;
	} * callee_why;
	uint32_t callee_why_cap;
	/* Function pointers (inline.c, docs/CALLS.md), set by the caller before ir_build:
	 * code addresses (IR_SYMADDR of the function; an indirect call is a waterfall of
	 * IR_CALL_PTR) rather than ir_func_pointer hashes (compare chains).  Filled by
	 * ir_build: whether the function makes IR_CALL_PTR calls. */
	bool fnptr_address;
	bool calls_pointers;
	/* With fnptr_address: the functions compiled once per module for their address (by
	 * name); a direct real call to one calls that copy (IR_CALL_PTR to its IR_SYMADDR, aux
	 * 1 + its index in callees, which the driver does not link) rather than linking one
	 * more. */
	const char *const *fnptr_taken;
	uint32_t nfnptr_taken;
	/* printf (build_printf.c): set by the caller before ir_build, the number of formats
	 * earlier functions of the module used (ids go on from there); filled by ir_build, the
	 * amdhsa.printf strings "id:nargs:size...:format" of this function's printf calls. */
	uint32_t printf_id_base;
	const char **printfs;
	uint32_t nprintfs, printfs_cap;
	/* analyses */
	uint32_t *rpo_order;    /* blocks in reverse postorder (reachable only) */
	uint32_t *linear_order; /* blocks in linear order: loops contiguous, header first */
	uint32_t norder;
	struct ir_loop *loops;
	uint32_t nloops;
	bool cfg_valid;
};

enum ir_inline_mode {
	IR_INLINE_AUTO, /* big functions called from several sites are real calls */
	IR_INLINE_ALL,  /* --inline-all: only recursion makes real calls */
	IR_INLINE_NONE, /* --no-inline: every call real calls support is one */
};

/* Device functions kept for inlining (funclib.c): every .func body of the module, copied
 * out of the front end's function arena when it is handed over. */
struct ir_funclib_entry;
struct ir_funclib {
	struct pa_arena *arena; /* module lifetime: the copies */
	struct ir_funclib_entry *entries;
	uint32_t cap, n;
};
void ir_funclib_init(struct ir_funclib *lib, struct pa_arena *arena);
/* Keeps a copy of device function `pf` (call during its on_function callback). */
void ir_funclib_add(struct ir_funclib *lib, const struct ptx_function *pf);
/* The saved body of the function calls name with `sym` (the module-level symbol), or NULL. */
const struct ptx_function *ir_funclib_find(const struct ir_funclib *lib,
                                           const struct ptx_symbol *sym);
/* The module-level symbol of the function saved in hash slot `slot` (0 .. lib->cap-1), or
 * NULL for an empty slot. */
const struct ptx_symbol *ir_funclib_at(const struct ir_funclib *lib, uint32_t slot);
/* Whether `fs` or a function it calls directly (transitively) reads a special register or
 * makes an indirect call: then real calls pass it %tid, %ntid, %ctaid and %nctaid. */
bool ir_funclib_uses_context(const struct ir_funclib *lib, const struct ptx_symbol *fs);
/* The value of a function pointer (`mov.u64 %rd, f;`, a .global initializer naming f):
 * FNV-1a-64 of the name with the top bit set, not a code address (inline.c). */
uint64_t ir_func_pointer(const char *name);
/* Calls nested deeper than this are not inlined (an error at the call). */
#define IR_MAX_CALL_DEPTH 200
/* A function `pf` calls, directly or through saved bodies, that is not defined yet but may
 * still be (not .extern); NULL when every callee that can be defined is (or the search
 * goes deeper than IR_MAX_CALL_DEPTH, where the call is an error anyway). */
const struct ptx_symbol *ir_funclib_pending(struct ir_funclib *lib, const struct ptx_function *pf);
/* The functions whose address a body takes (each operand naming one, other than a call's
 * target, is passed to `taken`), whether it makes indirect calls (*indirect = true), and
 * whether it does and also stores 1 or 2 bytes to a .param variable (*narrow = true). */
void ir_body_fn_pointers(const struct ptx_function *pf,
                         void (*taken)(void *user, const struct ptx_symbol *fn), void *user,
                         bool *indirect, bool *narrow);
/* A deep copy of a function body (and its parameter symbols) into `arena`, valid after the
 * front end frees the original; module-level symbols are shared. */
struct ptx_function *ir_copy_function(const struct ptx_function *pf, struct pa_arena *arena);
/* Makes the IR independent of the PTX body ir_build read (ir.c), so the body can be freed. */
void ir_detach_body(struct ir_function *fn);

/* Builds the IR of one parsed kernel (ptx_parse_stream's on_function callback hands it
 * over, or a copy of it).  Calls are inlined from `lib` (NULL: none).  Unsupported PTX is
 * reported at file:line:col naming the construct; returns false then.  Memory comes from
 * `arena` (the per-function arena of the compiler). */
bool ir_build(struct ir_function *fn, const struct ptx_function *pf,
              const struct ptx_module_state *m, const char *file, struct pa_arena *arena,
              const struct ir_funclib *lib, struct pa_diag *d);

/* ---- construction helpers (ir.c) ---- */
uint32_t ir_new_block(struct ir_function *fn);
ir_ref ir_new_value(struct ir_function *fn, enum ir_type type, uint32_t block);
ir_ref ir_const(struct ir_function *fn, enum ir_type type, uint64_t bits);
ir_ref ir_undef(struct ir_function *fn, enum ir_type type);
struct ir_insn *ir_append(struct ir_function *fn, uint32_t b, const struct ir_insn *in);
/* `in` placed at index `at` of block b (the later ones move up); its result's block is b. */
struct ir_insn *ir_insert(struct ir_function *fn, uint32_t b, uint32_t at,
                          const struct ir_insn *in);
void ir_add_edge(struct ir_function *fn, uint32_t from, uint32_t to);
static inline bool ir_is_const(const struct ir_function *fn, ir_ref r)
{
	return fn->vals[r].kind == IR_VAL_CONST;
}

/* ---- analyses and passes (one file each) ---- */
/* cfg.c: reverse postorder, dominators (Semi-NCA), post-dominators, natural
 * loops, the linear order.  False (with a diagnostic at `line`) for irreducible CFGs. */
bool ir_cfg_compute(struct ir_function *fn, struct pa_diag *d);
/* uniformity.c: which values and branches differ between the lanes of a wave. */
void ir_uniformity(struct ir_function *fn);
/* opt.c: constant folding, copy propagation, trivial-phi removal, local value
 * numbering and dead code elimination; returns the number of instructions removed. */
unsigned ir_optimize(struct ir_function *fn);
/* LDS offsets of the function's .shared variables (offset[i] for symvar i; others are left
 * alone): sized ones (and the hidden areas of build_bar.c) first, in symvar order, then the
 * extern arrays (size 0), which start where the dynamic shared memory begins, at the end of
 * the static LDS.  Returns the static LDS size in bytes.  The selector's layout and
 * ir_optimize's folding of .shared addresses into constants both use it. */
uint64_t ir_lds_layout(const struct ir_function *fn, uint32_t *offset);
/* rotate.c (inside ir_optimize): (a << k) | (b >> (32 - k)) with constant k in 1..31 as
 * FSHR, a rotate where a and b agree on the bits read; returns how many were rewritten. */
unsigned ir_match_rotates(struct ir_function *fn);
/* known_bits.c (inside ir_optimize): `and x, m` with m covering every bit of x that may be
 * set becomes x, an AND of operands with no possibly-set bit in common 0, OR/XOR with an
 * operand known zero the other (known-zero bits from constants, zext, trunc, constant
 * shifts, and/or/xor/select); returns how many were rewritten (as COPYs). */
unsigned ir_fold_known_bits(struct ir_function *fn);
/* phi_cycles.c: webs of phis that only pass one value around (irreducible loops) become
 * that value; returns the number of phis replaced (left unused, for dead code). */
unsigned ir_remove_phi_cycles(struct ir_function *fn);
/* loop_motion.c: operations in a loop whose results only the loop's exit block reads move
 * there, and those that read only values from before it move to its preheader (after
 * ir_uniformity). */
void ir_loop_motion(struct ir_function *fn);
/* sink_loops.c: a per-lane value computed before a loop and read only after it moves to the
 * nearest common dominator of its readers, so no VGPR holds it through the loop (after
 * ir_uniformity). */
void ir_sink_past_loops(struct ir_function *fn);
/* opt_uniform_sum.c: base + (u + lane) and base + ((u + lane) << c) with base and u uniform
 * become (base + u) + lane and (base + (u << c)) + (lane << c), so the uniform part is scalar
 * (after ir_uniformity); returns how many sums were rewritten. */
unsigned ir_split_uniform_sums(struct ir_function *fn);
/* opt_sub_chain.c: (x - a) - b becomes x - s where s = a + b is computed where it dominates
 * (needs ir_cfg_compute); returns how many were rewritten. */
unsigned ir_fold_sub_chains(struct ir_function *fn);
/* MPERM aux: the source lanes are active (.aligned matrix moves' row addresses). */
enum { IR_MPERM_ALIGNED = 1 };
/* lane_affine.c: aligned MPERMs of values affine in the lane bits (from %tid.x of a 1-D
 * block, %laneid) become arithmetic in the reading lane, their constant parts moved into
 * LDS offsets (after ir_optimize; run it again when this returns nonzero); returns how many
 * reads were rewritten. */
unsigned ir_lane_affine(struct ir_function *fn);
/* narrow64.c: i64 add/sub/mul/shl/bitwise/zext/sext/cvta.shared whose every use reads only
 * the low 32 bits (a trunc to i32, a .shared address, another such operation) become i32
 * operations (nvcc's 64-bit shared-memory address chains); run ir_optimize afterwards when it
 * returns nonzero (the number of operations narrowed). */
unsigned ir_narrow64(struct ir_function *fn);
/* strength_reduce.c: addresses of .shared/.global accesses affine in an induction variable
 * become induction variables of their own (before ir_uniformity; run ir_optimize again
 * when it returns nonzero: the old addresses' operations are dead); returns how many
 * accesses were rewritten. */
unsigned ir_strength_reduce(struct ir_function *fn);
/* strength_reduce.c: a loop's exit test (EQ/NE against a constant) on a counter that nothing
 * else reads moves to another counter of the loop with the same constant step (after
 * ir_strength_reduce and ir_optimize: its P); run ir_optimize again when it returns nonzero
 * (the old counter is dead); returns how many tests moved. */
unsigned ir_replace_exit_tests(struct ir_function *fn);
/* strength_reduce.c: the condition on which loop `latch` (ending in a BR on ICMP c) goes
 * round again to `header`, as `x cmp n` with x the counter iv or its next value (*on_next)
 * and n a constant (signed i32 comparisons, EQ and NE); false for anything else. */
bool ir_latch_test(const struct ir_function *fn, uint32_t latch, uint32_t header,
                   const struct ir_insn *c, ir_ref iv, ir_ref next, bool *on_next, enum ir_cmp *cmp,
                   int64_t *n);
/* value_range.c: each i32 value's signed range (thread ids from .maxntid/.reqntid, constants,
 * bit operations, adds and multiplies that provably do not wrap, phis narrowed by their
 * edges' branches, counted loops); rewrites what the ranges decide (values of one possible
 * value to constants, shr.s of a non-negative value to shr.u, x - (x & m) to x & ~m,
 * (x + c) & (2^k - 1) to x & (2^k - 1) where c's low k bits are 0, x & (2^k - 1) of x in
 * [0, 2^k - 1] to x, an icmp against a constant that the range decides to that constant).  Needs
 * ir_cfg_compute; run ir_optimize afterwards when it returns nonzero (the number of instructions
 * rewritten). `out` (NULL: not wanted), indexed by value number up to the function's nvals on
 * entry, receives every i32 value's range as signed integers (tests check them; [INT32_MIN,
 * INT32_MAX] when nothing is known, lo > hi for a value that never has one). */
struct ir_range {
	int64_t lo, hi;
};
unsigned ir_value_ranges(struct ir_function *fn, struct ir_range *out);
/* branch_fold.c: BRs on constant predicates become JMPs, blocks no longer reachable are
 * emptied to a lone RET and detached; recomputes the CFG analyses when anything changed (run
 * ir_optimize afterwards); returns how many branches were folded. */
unsigned ir_fold_const_branches(struct ir_function *fn);
/* verify.c: SSA and CFG invariants; reports the first violation naming the block and
 * instruction. */
bool ir_verify(const struct ir_function *fn, struct pa_diag *d);
/* dump.c: the textual form (--dump-ir). */
void ir_dump(FILE *out, const struct ir_function *fn);

/* True if b1 dominates b2 (needs ir_cfg_compute). */
bool ir_dominates(const struct ir_function *fn, uint32_t b1, uint32_t b2);
/* True if block b is inside loop l (or one of its inner loops). */
bool ir_in_loop(const struct ir_function *fn, uint32_t b, uint32_t l);

#endif
