/* The machine IR (MIR): the public face of src/mir.
 *
 * Machine IR (MIR) is what instruction selection produces and what register allocation
 * (src/regalloc), the control-code passes and emission (src/sched) consume: AMD
 * instructions -- rows of the shared instruction table, named by enum amd_opcode -- on
 * virtual registers before allocation and on physical registers after it.
 *
 * Shape (STYLE.md habit 4): a function is an array of blocks in their final LINEAR
 * order (the order the wave executes them, which is also the code order); a block is a
 * flat array of fixed-size instructions; operands are small tagged values.  Blocks are
 * basic blocks of the linear CFG: only the last instruction may branch.  A block's linear
 * successors are explicit (`succ`): the fall-through block first (when the last
 * instruction does not end the block unconditionally), then the branch target.
 *
 * Virtual registers are not in SSA form: phis of the IR are lowered by instruction
 * selection to parallel copies at the end of predecessor blocks (consecutive COPY
 * pseudo-instructions flagged MIR_IF_PARALLEL, all read before any is written), so a
 * virtual register may have several definitions.  Register allocation computes liveness
 * by a dataflow over the linear CFG, which contains every path a lane can take (a
 * superset of the logical CFG), so it is always safe for VGPRs and exact for SGPRs.
 *
 * Fixed physical registers (kernel ABI inputs, lane-mask slots of the control-flow
 * lowering, exec, m0) appear as MIR_SGPR/MIR_VGPR/MIR_SPECIAL operands before allocation;
 * the allocator keeps virtual registers off a physical register between its first and
 * last reference in linear order, and never allocates the SGPRs in
 * mir_function.reserved_sgprs_begin..end. */
#ifndef MIR_MIR_H
#define MIR_MIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "amd_encode.h"
#include "amd_isa.h"
#include "arena.h"
#include "diag.h"
#include "target.h"

enum mir_opnd_kind {
	MIR_NONE,
	MIR_VREG,    /* virtual register `v`; `sub` = first dword inside it, `width` dwords */
	MIR_SGPR,    /* physical SGPR s[v .. v+width-1] */
	MIR_VGPR,    /* physical VGPR v[v .. v+width-1] */
	MIR_SPECIAL, /* v = enum amd_special (exec, vcc, m0, scc, null ...); width 1 or 2 */
	MIR_IMM,     /* v = 32-bit constant bits (for 64-bit operands: see amd_val.imm) */
	MIR_BLOCK,   /* branch target: v = block index */
	MIR_OFF,     /* "off" (no scalar address) */
	MIR_TTMP,    /* trap temporary ttmp[v]: gfx12 delivers the workgroup ids there */
	MIR_RELOC,   /* a literal filled by a relocation: v = index into mir_function.relocs */
};

struct mir_opnd {
	uint8_t kind;  /* enum mir_opnd_kind */
	uint8_t sub;   /* MIR_VREG: first dword inside the virtual register */
	uint8_t width; /* registers (dwords); 0 for IMM/BLOCK/OFF/NONE */
	uint8_t pad;
	uint32_t v;
};
_Static_assert(sizeof(struct mir_opnd) == 8, "mir_opnd is 8 bytes");

/* Pseudo-instructions: opcodes after the table's rows. */
enum mir_pseudo {
	MIR_COPY = AMD_NUM_OPCODES, /* opnds[0] = opnds[1]: SGPRs to SGPRs or VGPRs, VGPRs to
	                             * VGPRs, equal widths (1, 2, 3 or 4 dwords); or a 32-bit
	                             * MIR_IMM into a 1-dword destination.  A VGPR source into
	                             * an SGPR destination is illegal (selection uses
	                             * v_readfirstlane_b32). */
	MIR_NUM_OPS
};

/* Instruction flags. */
enum {
	MIR_IF_PARALLEL = 1,  /* COPY belonging to the parallel copy formed by the maximal run
	                       * of consecutive MIR_IF_PARALLEL copies */
	MIR_IF_WAVE_MASK = 2, /* SALU on a lane mask: b32 on wave32, b64 on wave64 */
	MIR_IF_PC_ANCHOR = 4, /* the s_getpc_b64 whose result MIR_RELOC literals are relative to */
	MIR_IF_DUAL = 8,      /* VOPD pair (sched/vopd.c, after allocation): `op` is the X half's
	                       * v_dual_ row, `op_y` the Y half's; opnds holds X's operands, then
	                       * Y's (nopnds = both rows' nopnds) */
};

/* A PC-relative literal (MIR_RELOC operand): the low or high dword of S - A, where S is the
 * address of `symbol` plus `addend` and A the address after the function's s_getpc_b64
 * flagged MIR_IF_PC_ANCHOR (so s_add_u32/s_addc_u32 of the two dwords to that s_getpc's
 * result give S).  Emission turns it into an R_AMDGPU_REL32_LO/HI relocation whose addend
 * is the literal's distance from A, wherever the passes moved the two. */
enum mir_reloc_kind { MIR_RELOC_REL32_LO, MIR_RELOC_REL32_HI };
struct mir_reloc {
	const char *symbol;
	uint8_t kind; /* enum mir_reloc_kind */
	int64_t addend;
};

/* One machine instruction.  `opnds` are in the table row's operand order
 * (amd_isa_op.opnds: destinations first, then sources in assembly order); for
 * AMD_OPK_SIMM16 / LABEL / KIMM operands they are MIR_IMM / MIR_BLOCK.  The modifier
 * fields mean what the same fields of struct amd_inst mean. */
struct mir_insn {
	uint16_t op;    /* enum amd_opcode or enum mir_pseudo */
	uint8_t nopnds; /* = the row's nopnds (2 for COPY) */
	uint8_t flags;  /* MIR_IF_* */
	struct mir_opnd opnds[AMD_MAX_OPNDS];
	int32_t offset; /* memory offset (DS: offset0) */
	uint8_t offset1;
	uint8_t cpol; /* AMD_CPOL_* */
	uint8_t neg, abs;
	uint8_t omod;
	uint8_t enc; /* enum amd_enc_choice */
	bool clamp;
	uint8_t rtn;       /* atomics: 1 = returns its pre-op value into opnds[0] */
	uint8_t dpp;       /* VOP1/VOP2: 1 = DPP16 with dpp_ctrl, row and bank masks 0xf */
	bool bound_ctrl;   /* DPP: a lane whose source lane is invalid gets 0 (else keeps dst) */
	uint16_t dpp_ctrl; /* DPP16 control, LLVM's numbers (quad_perm 0-0xff, row_shl 0x101..) */
	uint32_t src_line; /* PTX line this instruction came from (0: none) */
	/* image (MIMG) rows: the components and the dim (sel_tex.c; amd_inst's fields) */
	uint8_t dmask, dim;
	bool idxen;    /* MUBUF: vaddr is an index (sel_tex.c's buffer_load_format) */
	uint16_t op_y; /* MIR_IF_DUAL: the Y half's v_dual_ row */
	/* VOP3P (packed) rows: per source bit i, op_sel / op_sel_hi pick the high half of source
	 * i for the low / high result half (op_sel_hi: only when op_sel_hi_set; else all 1s,
	 * LLVM's default), neg_hi negates the half that feeds the high result (`neg` is neg_lo) */
	uint8_t op_sel, op_sel_hi, neg_hi;
	bool op_sel_hi_set;
	/* SDWA (gfx9/gfx10 VOP1/VOP2 e32, sdwa_fold.c): source k reads select sdwa_sel[k]
	 * (0-3 BYTE_n, 4-5 WORD_n, 6 DWORD), sign-extended where bit k of sdwa_sext is set;
	 * the result is the whole dword */
	bool sdwa;
	uint8_t sdwa_sel[2], sdwa_sext;
};

struct mir_block {
	struct mir_insn *insns;
	uint32_t ninsns, cap;
	uint32_t succ[2]; /* linear CFG successors: fall-through first, then branch target */
	uint8_t nsucc;
	uint8_t skip_succ; /* bit k: succ[k] is only taken when EXEC is empty (cflow.c) */
	uint16_t loop_depth;
	const char *comment; /* what the block is for (dumps), or NULL */
};

enum { MIR_MAX_ARGS_SGPRS = 16 };

/* Registers of the calling convention of real calls (sel_call.c, docs/CALLS.md): return
 * address s[96:97], prologue/epilogue temporary s[98:99], data stack pointer s100, save
 * stack pointer s101; functions that call or are called allocate only s0..s95. */
enum {
	MIR_CALL_RA = 96,
	MIR_CALL_TMP = 98,
	MIR_CALL_SP = 100,
	MIR_CALL_SAVE_SP = 101,
	MIR_CALL_SGPR_BUDGET = 96,
	MIR_CALL_STACK_DEFAULT = 8192, /* per-lane stack bytes of a kernel making real calls */
};

struct mir_vreg {
	uint8_t file;  /* MIR_SGPR or MIR_VGPR */
	uint8_t size;  /* dwords: 1, 2, 3 or 4; 8 for WMMA tuples (sel_mma.c, never copied whole) */
	uint8_t align; /* required alignment of the first register, in registers */
	uint8_t flags;
	int32_t phys; /* first register after allocation, -1 before */
};

/* The registers and inputs a kernel's code expects at entry (mirrors the parts of the
 * code object's struct co_abi_inputs that selection decides). */
struct mir_abi {
	bool kernarg_segment_ptr, dispatch_ptr;
	bool dispatch_id; /* user SGPRs 2-3 (%gridid) */
	bool workgroup_id[3];
	unsigned workitem_id_dims; /* 1..3 */
	unsigned user_sgpr_count;  /* USER_SGPR_COUNT to write (gfx11+: 15 keeps LLVM's layout) */
	unsigned kernarg_sgpr;     /* first SGPR of the kernarg pointer */
	unsigned workgroup_id_sgpr[3];
	uint32_t hidden_args; /* enum co_hidden_arg bits the code reads */
	/* scratch (sel_local.c): FLAT_SCRATCH initialised from user SGPRs (gfx90a, gfx1030),
	 * the private segment (wave offset SGPR where it is not architected) enabled */
	bool flat_scratch_init, private_segment, uses_flat_scratch;
};

struct mir_function {
	const char *name;
	const struct amd_target *target;
	unsigned wave_size; /* 32 or 64 */
	struct pa_arena *arena;
	/* Where a pass keeps its temporaries (per-vreg and per-instruction arrays that die with
	 * the pass; never the MIR itself): the driver's pass arena, emptied after each pass, or
	 * NULL (mir_pass_arena: the function's arena). */
	struct pa_arena *pass_arena;
	struct mir_block *blocks; /* in linear (code) order; block 0 is the entry */
	uint32_t nblocks, blocks_cap;
	struct mir_vreg *vregs;
	uint32_t nvregs, vregs_cap;
	/* SGPRs the allocator must not use (ABI inputs, lane-mask slots): [begin, end). */
	unsigned reserved_sgprs_begin, reserved_sgprs_end;
	unsigned max_vgprs, max_sgprs; /* allocation budget (--maxrregcount, .maxnreg) */
	struct mir_abi abi;
	/* Filled by register allocation: registers used (highest + 1). */
	unsigned num_sgprs, num_vgprs;
	unsigned spill_vgprs, spill_sgprs; /* values spilled (reported by -v) */
	uint32_t lds_size;                 /* static LDS bytes */
	uint32_t scratch_size;             /* private bytes per work-item */
	bool scratch_ready;                /* scratch_* need no set-up (for VGPR spills) */
	struct mir_reloc *relocs;          /* MIR_RELOC literals */
	uint32_t nrelocs, relocs_cap;
	/* real calls (sel_call.c): a function compiled on its own (returns with s_setpc_b64);
	 * the per-lane stack budget a calling kernel reserves after its .local variables
	 * (set before selection; 0: MIR_CALL_STACK_DEFAULT); bytes its prologue saves */
	bool is_func;
	uint32_t stack_size;
	uint32_t save_bytes;
	uint32_t frame_size; /* bytes of its data frame (parameters, results, .local) */
};

/* The arena for a pass's temporaries (struct mir_function.pass_arena). */
static inline struct pa_arena *mir_pass_arena(const struct mir_function *fn)
{
	return fn->pass_arena ? fn->pass_arena : fn->arena;
}
/* A point in the pass arena's life, for a pass that frees its own temporaries as it goes
 * (mir_pass_rewind; both do nothing without a pass arena: the function's arena is never
 * rewound). */
static inline struct pa_arena_mark mir_pass_mark(const struct mir_function *fn)
{
	return fn->pass_arena ? pa_arena_mark(fn->pass_arena) : (struct pa_arena_mark){0};
}
static inline void mir_pass_rewind(const struct mir_function *fn, struct pa_arena_mark m)
{
	if (fn->pass_arena)
		pa_arena_rewind(fn->pass_arena, m);
}

/* ---- building and inspecting MIR (mir.c) ---- */
void mir_function_init(struct mir_function *fn, struct pa_arena *arena, const char *name,
                       const struct amd_target *target, unsigned wave_size);
uint32_t mir_new_block(struct mir_function *fn);
uint32_t mir_new_vreg(struct mir_function *fn, unsigned file, unsigned size, unsigned align);
/* A MIR_RELOC operand for a new relocation record. */
struct mir_opnd mir_reloc(struct mir_function *fn, const char *symbol, enum mir_reloc_kind kind,
                          int64_t addend);
/* Appends an instruction (copied) to block b; returns it for modifier edits. */
struct mir_insn *mir_append(struct mir_function *fn, uint32_t b, const struct mir_insn *in);
/* Inserts `in` before position `pos` of block b (pos == ninsns appends). */
struct mir_insn *mir_insert(struct mir_function *fn, uint32_t b, uint32_t pos,
                            const struct mir_insn *in);
/* Block b takes the first n instructions of a pass's staging array (grown by pa_arena_grow in
 * fn->arena) as its code: a large block the array itself (*staging and *cap are cleared: the
 * next block grows a new one; no copy of a large block), a small one a copy of the exact size.
 * The old instruction array's pages go back to the system (pa_arena_release): nothing may read
 * it afterwards. */
void mir_take_staging(struct mir_function *fn, uint32_t b, struct mir_insn **staging, uint32_t *cap,
                      uint32_t n);
/* An instruction of row `op` with operands taken from `ops` (row order). */
struct mir_insn mir_make(unsigned op, unsigned nopnds, const struct mir_opnd *ops);

static inline struct mir_opnd mir_vreg(uint32_t v, unsigned width)
{
	return (struct mir_opnd){.kind = MIR_VREG, .width = (uint8_t)width, .v = v};
}
static inline struct mir_opnd mir_sgpr(unsigned r, unsigned width)
{
	return (struct mir_opnd){.kind = MIR_SGPR, .width = (uint8_t)width, .v = r};
}
static inline struct mir_opnd mir_vgpr(unsigned r, unsigned width)
{
	return (struct mir_opnd){.kind = MIR_VGPR, .width = (uint8_t)width, .v = r};
}
static inline struct mir_opnd mir_special(enum amd_special s, unsigned width)
{
	return (struct mir_opnd){.kind = MIR_SPECIAL, .width = (uint8_t)width, .v = s};
}
static inline struct mir_opnd mir_imm(uint32_t bits)
{
	return (struct mir_opnd){.kind = MIR_IMM, .v = bits};
}
static inline struct mir_opnd mir_block_ref(uint32_t b)
{
	return (struct mir_opnd){.kind = MIR_BLOCK, .v = b};
}

/* Whether `in` is a returning memory atomic with the extra leading destination. */
static inline bool mir_has_rtn_opnd(const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES || !in->rtn)
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	return (row->flags & AMD_F_ATOMIC) && row->format != AMD_FMT_DS &&
	       in->nopnds == row->nopnds + 1;
}
/* Whether operand i of `in` is written (a destination of the row, COPY's opnds[0], or a
 * returning atomic's leading destination).  (Inline: every pass asks it per operand.) */
static inline bool mir_opnd_is_def(const struct mir_insn *in, unsigned i)
{
	if (in->op == MIR_COPY)
		return i == 0;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if ((in->flags & MIR_IF_DUAL) && i >= row->nopnds) { /* the Y half's operands */
		i -= row->nopnds;
		row = &amd_isa_rows[in->op_y];
	}
	if (mir_has_rtn_opnd(in)) {
		if (i == 0)
			return true; /* the returned pre-op value */
		i--;
	}
	if (i >= row->nopnds)
		return false;
	return row->opnds[i].role == AMD_ROLE_DST;
}
/* Whether the instruction ends its block with a branch (s_branch, s_cbranch_*,
 * s_endpgm, s_setpc). */
bool mir_is_terminator(const struct mir_insn *in);

/* Copies the function (blocks, instructions, vregs, relocations, name) into `dst` and makes
 * that its arena, so the caller can reset the old one: what passes left behind there
 * (replaced instruction arrays, temporaries) is dropped.  Block comments are static
 * strings and are shared. */
void mir_compact(struct mir_function *fn, struct pa_arena *dst);

/* Clean-ups on MIR before allocation (-O1 and up), each in its own file:
 * mir_cse_copies (copy_cse.c) keeps one VGPR copy of an SGPR or constant per block;
 * mir_widen_memory (mem_widen.c) merges adjacent one-dword global loads and stores into
 * dwordx2/x3/x4 accesses and 16-byte aligned LDS dword quads into ds_read/write_b128;
 * mir_pair_lds (lds_pair.c) merges LDS reads from one base into ds_read2_b32/b64;
 * mir_remove_dead_code (dead_code.c) deletes effect-free instructions whose results are
 * never read. */
void mir_cse_copies(struct mir_function *fn);
/* Before mir_cse_copies (loop_const.c): copies of constants (and VGPR copies of SGPRs
 * defined before the loop) in a loop move to the block before it, a few per loop (register
 * pressure), equal ones to one register; returns how many moved. */
unsigned mir_hoist_loop_constants(struct mir_function *fn);
void mir_widen_memory(struct mir_function *fn);
/* After mir_cse_copies (smem_merge.c): s_load_dword/x2 of adjacent dwords through one base
 * (kernel parameters) become one s_load_dwordx2/x4/x8; returns how many operands were
 * renamed into the wide loads' tuples. */
unsigned mir_merge_scalar_loads(struct mir_function *fn);
void mir_pair_lds(struct mir_function *fn);
void mir_remove_dead_code(struct mir_function *fn);
/* Before mir_remove_dead_code, gfx9 (vcc_cmp.c): a VGPR compared with a literal held in a
 * constant vreg becomes v_cmp_*_e32 vcc, literal, v where VCC can hold the mask until its
 * last read (same block); the reads name vcc; returns how many compares changed. */
unsigned mir_compare_literals_to_vcc(struct mir_function *fn);
/* Before mir_coalesce_phi_copies (merge_copies.c): a parallel copy of every dword of a value
 * one instruction writes whole into the same dwords of a phi becomes one whole copy, for
 * mir_coalesce_phi_copies; returns how many dword copies went. */
unsigned mir_merge_dword_copies(struct mir_function *fn);
/* Before allocation (coalesce.c): makes the definition of a phi copy's source write the
 * phi's register directly where that changes nothing else, removing the copy; returns
 * how many copies went. */
unsigned mir_coalesce_phi_copies(struct mir_function *fn);
/* Before allocation, after mir_coalesce_phi_copies (coalesce_split.c): a phi copied dword by
 * dword (a 64-bit pointer stepped by a loop: P[0] <- V[0], P[1] <- V[1]) takes V's
 * one-dword definitions directly where that changes nothing else, removing the copies;
 * returns how many copies went. */
unsigned mir_coalesce_split_phi_copies(struct mir_function *fn);
/* Before allocation, after mir_coalesce_phi_copies (coalesce_dying.c): a VALU result takes
 * the name of a one-VGPR source read there for the last time, so an accumulation chain
 * updates one register in place; returns how many sources were renamed. */
unsigned mir_coalesce_dying_sources(struct mir_function *fn);
/* Before allocation, after mir_coalesce_phi_copies (coalesce_tuple.c): the one-dword values
 * copied into a matrix instruction's operand tuples live in the tuple's dwords, results
 * copied out dword by dword into one tuple become it, and MFMA chains accumulate in place;
 * returns how many renamings were made. */
unsigned mir_coalesce_tuples(struct mir_function *fn);
/* Scratch set-up (scratch_setup.c).  The entry code that sets FLAT_SCRATCH to the
 * flat_scratch_init user SGPRs fsi, fsi + 1 plus the wave's private offset (SGPR wave_sgpr)
 * where flat scratch is not architected, into out; returns its length (gfx9: into
 * flat_scratch_lo/hi, sets abi.uses_flat_scratch; gfx10: through a new SGPR pair vreg and
 * s_setreg_b32). */
enum { MIR_FLAT_SCRATCH_INIT_LEN = 4 };
unsigned mir_flat_scratch_init(struct mir_function *fn, unsigned fsi, unsigned wave_sgpr,
                               struct mir_insn out[MIR_FLAT_SCRATCH_INIT_LEN]);
/* Before allocation: sets scratch up in a function selected without it (VGPRs must spill,
 * no .local): the private segment, and where flat scratch is not architected the
 * flat_scratch_init user SGPRs (the workgroup id inputs move up by two) and the entry code
 * above; fn->scratch_ready.  Nothing when scratch is ready. */
void mir_setup_scratch(struct mir_function *fn);
/* Before allocation, after the other clean-ups but mir_fold_sdwa (pack_f32.c): on gfx90a/gfx942,
 * two independent f32 fma/mul/add of a block whose operands can be 64-bit register pairs become one
 * v_pk_fma/mul/add_f32, their one-dword values renamed into pairs; returns how many. */
unsigned mir_pack_f32(struct mir_function *fn);
/* Before allocation, after mir_pack_f32 (sdwa_fold.c): on gfx9/gfx10, a v_lshrrev/ashrrev,
 * v_and or v_bfe that extracts a byte or word for one integer VOP2 reader in its block
 * becomes the reader's SDWA source select, and a shift masked to a whole byte or word one
 * v_lshlrev_b32_sdwa; returns how many. */
unsigned mir_fold_sdwa(struct mir_function *fn);
/* Before allocation, after mir_coalesce_phi_copies (coalesce_region.c): a VGPR value B live
 * only in a region that runs on a subset L of the lanes, copied into A where EXEC is back to
 * exactly L, is renamed to A (a VALU write touches only the active lanes); the end copy and a
 * repeated start copy go.  Returns how many values were renamed. */
unsigned mir_coalesce_lane_regions(struct mir_function *fn);
/* Before allocation, first of the clean-ups (add3.c): a v_add_u32 whose one-dword result only
 * another v_add_u32 of the block reads is folded into it as v_add3_u32 (a GFX9 literal through
 * a new SGPR COPY); returns how many. */
unsigned mir_fuse_add3(struct mir_function *fn);
/* After allocation, before the waits and hazards (branch_next.c): a branch whose target
 * follows its block with only empty blocks between is removed (the block falls through);
 * returns how many. */
unsigned mir_drop_branches_to_next(struct mir_function *fn);
/* After mir_drop_branches_to_next (exec_overwritten.c): an `s_mov exec, REG` ending a block
 * that falls through to a block starting with another one goes; returns how many. */
unsigned mir_drop_overwritten_exec(struct mir_function *fn);
/* Definitions per vreg (0, 1, or 2 for "two or more"), in fn's arena. */
uint8_t *mir_count_defs(const struct mir_function *fn);
/* Whether `in` writes EXEC (explicitly or implicitly). */
bool mir_writes_exec(const struct mir_function *fn, const struct mir_insn *in);
/* Whether instruction j of bl is half of a WMMA's EXEC bracket (sel_mma.c: `s_or_saveexec
 * s, -1` just before the WMMA, `s_mov exec, s` just after it; coalesce_tuple.c). */
bool mir_wmma_bracket(const struct mir_block *bl, uint32_t j);
/* Whether `in` ends a window of memory accesses the merging passes combine (copy_cse.c). */
bool mir_ends_memory_window(const struct mir_function *fn, const struct mir_insn *in);

/* Prints the function (virtual or physical registers) in LLVM's syntax where possible,
 * one instruction per line, for --dump-mir and tests. */
void mir_print(FILE *out, const struct mir_function *fn);
/* Checks the invariants (operand kinds against the row, block successors, branch
 * targets, physical operands after allocation via the table's legality rules);
 * reports the first violation naming the block and instruction.  `after_ra`: no
 * MIR_VREG operands may remain. */
bool mir_verify(const struct mir_function *fn, bool after_ra, struct pa_diag *d);

#endif /* MIR_MIR_H */
