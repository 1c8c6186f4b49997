/* PUBLIC TABLE API of the AMDGPU instruction table (stable: fields are only ever added,
 * never renamed or removed).  Everything that needs to know about AMD instructions --
 * encoder, printer, assembly reader, instruction selection, hazard rules, scheduler and
 * the simulator's decoder -- reads this one table.
 *
 * The table is generated at build time by gen_isa.py from isa_table.py (one row per
 * instruction, one opcode column per generation, -1 where the instruction does not
 * exist); see docs/ENCODING.md.  Rows are sorted by canonical name.
 *
 * Encoding conventions: `opcode[gen]` is the opcode in the row's native format (for
 * VOP1/VOP2/VOPC rows the 32-bit "e32" encoding); `vop3_opcode[gen]` is the opcode of the
 * VOP3 ("e64") encoding of VOP1/VOP2/VOPC rows and of VOP3 rows (for VOP3 rows
 * opcode == vop3_opcode).  Memory formats FLAT/GLOBAL/SCRATCH/MUBUF are logical: on gfx12
 * they are encoded as the 96-bit VFLAT/VGLOBAL/VSCRATCH/VBUFFER forms with the same
 * opcode column. */
#ifndef AMD_ISA_H
#define AMD_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "amd_isa_ops.h" /* enum amd_opcode: AMD_OP_<NAME> = row index (generated) */
#include "target.h"

enum amd_format {
	AMD_FMT_SOP1,
	AMD_FMT_SOP2,
	AMD_FMT_SOPK,
	AMD_FMT_SOPC,
	AMD_FMT_SOPP,
	AMD_FMT_SMEM,
	AMD_FMT_VOP1,
	AMD_FMT_VOP2,
	AMD_FMT_VOPC,
	AMD_FMT_VOP3, /* VOP3-only instruction (VOP3A, or VOP3B when it has an sdst) */
	AMD_FMT_VOP3P,
	AMD_FMT_DS,
	AMD_FMT_FLAT,
	AMD_FMT_GLOBAL,
	AMD_FMT_SCRATCH,
	AMD_FMT_MUBUF,
	AMD_FMT_VOPD, /* RDNA dual issue: opcode = OPX/OPY code of the v_dual_ half */
	AMD_FMT_MIMG, /* image instructions: MIMG on gfx9-gfx11 (contiguous vaddr, no NSA);
	               * gfx12's 96-bit VIMAGE, or VSAMPLE for rows with a sampler */
	AMD_NUM_FORMATS
};

/* Functional unit that executes the instruction. */
enum amd_unit {
	AMD_UNIT_SALU,
	AMD_UNIT_VALU,
	AMD_UNIT_TRANS, /* transcendental VALU (v_exp, v_log, v_rcp, v_sqrt, v_sin ...) */
	AMD_UNIT_SMEM,
	AMD_UNIT_VMEM_LOAD,
	AMD_UNIT_VMEM_STORE, /* includes atomics without return */
	AMD_UNIT_LDS,
	AMD_UNIT_BRANCH,
	AMD_UNIT_MSG, /* s_sendmsg, s_barrier, waits, s_nop and other SOPP control */
	AMD_NUM_UNITS
};

/* Latency class for the scheduler (the numbers are the scheduler's business). */
enum amd_latency {
	AMD_LAT_SALU,
	AMD_LAT_VALU,   /* ordinary 32-bit VALU */
	AMD_LAT_VALU64, /* 64-bit float or integer multiply (half/quarter rate) */
	AMD_LAT_TRANS,
	AMD_LAT_SMEM,
	AMD_LAT_VMEM,
	AMD_LAT_LDS,
	AMD_LAT_BRANCH,
	AMD_LAT_MISC,
	AMD_NUM_LATENCIES
};

/* Wait counter an instruction increments (gfx9-11 names; gfx12 names in comments). */
enum amd_counter {
	AMD_CNT_NONE,
	AMD_CNT_VM,   /* vmcnt: vector memory loads (gfx12 loadcnt) */
	AMD_CNT_VS,   /* vector memory stores: vscnt on gfx10/11, storecnt on gfx12, vmcnt
	               * before gfx10 */
	AMD_CNT_LGKM, /* lgkmcnt: LDS, SMEM, messages (gfx12: dscnt for LDS, kmcnt for SMEM) */
	AMD_CNT_EXP,
	AMD_NUM_COUNTERS
};

/* What an operand slot may hold. */
enum amd_opnd_kind {
	AMD_OPK_SDST,     /* SGPR or special (vcc, exec, m0, null) destination */
	AMD_OPK_SSRC,     /* scalar source: SGPR, special, inline constant or literal */
	AMD_OPK_VDST,     /* VGPR destination (AGPR allowed where noted by the flag) */
	AMD_OPK_VSRC,     /* VALU source: VGPR, SGPR, special, inline constant or literal */
	AMD_OPK_VGPR,     /* VGPR only (VOP2 src1, memory address and data) */
	AMD_OPK_MASK_DST, /* lane mask destination (VOP3B sdst, VOPC e64 dst): 1 SGPR in wave32,
	                   * 2 in wave64 */
	AMD_OPK_MASK_SRC, /* lane mask source (v_cndmask, v_addc carry in) */
	AMD_OPK_VCC,      /* implicit vcc (e32 encodings); width is the mask width */
	AMD_OPK_SCC,      /* implicit scc */
	AMD_OPK_SIMM16,   /* 16-bit immediate field (SOPK/SOPP), interpreted per `simm` */
	AMD_OPK_LABEL,    /* branch target: 16-bit signed dword offset from the next inst */
	AMD_OPK_SBASE,    /* SMEM base address (2 SGPRs) or buffer descriptor (4 SGPRs) */
	AMD_OPK_SRSRC,    /* MUBUF buffer resource (4 SGPRs) */
	AMD_OPK_SOFFSET,  /* MUBUF/SMEM scalar offset: SGPR, m0, inline constant or null */
	AMD_OPK_SADDR,    /* GLOBAL/SCRATCH scalar address, or "off" */
	AMD_OPK_SREG,     /* scalar source that must be an SGPR or special register (s_setpc) */
	AMD_OPK_KIMM,     /* mandatory 32-bit literal K (v_fmamk, v_fmaak, s_fmamk) */
	AMD_OPK_SSAMP,    /* MIMG sampler descriptor (4 SGPRs) */
	AMD_NUM_OPND_KINDS
};

enum amd_opnd_role { AMD_ROLE_DST, AMD_ROLE_SRC };

/* Data type of a source, for choosing inline constants and printing them. */
enum amd_dtype {
	AMD_DT_B32,
	AMD_DT_F32,
	AMD_DT_F16,
	AMD_DT_B16,
	AMD_DT_B64,
	AMD_DT_F64,
	AMD_DT_V2F16, /* packed (VOP3P) */
	AMD_DT_V2B16,
	AMD_DT_BF16,
	AMD_NUM_DTYPES
};

/* Meaning of an SOPK/SOPP simm16 operand. */
enum amd_simm_kind {
	AMD_SIMM_NONE,
	AMD_SIMM_UIMM,    /* printed unsigned ("0x10" or decimal per LLVM) */
	AMD_SIMM_SIMM,    /* sign-extended */
	AMD_SIMM_WAITCNT, /* s_waitcnt vmcnt(..) expcnt(..) lgkmcnt(..) */
	AMD_SIMM_HWREG,   /* hwreg(ID, offset, size) */
	AMD_SIMM_SENDMSG, /* sendmsg(MSG, OP, stream) */
	AMD_SIMM_DELAY,   /* s_delay_alu instid0(..) | instskip(..) | instid1(..) */
	AMD_SIMM_DEPCTR,  /* s_waitcnt_depctr */
	AMD_NUM_SIMM_KINDS
};

struct amd_opnd_desc {
	uint8_t role;  /* enum amd_opnd_role */
	uint8_t kind;  /* enum amd_opnd_kind */
	uint8_t width; /* dwords (registers) for register operands; 0 for immediates */
	uint8_t dtype; /* enum amd_dtype for VALU/SALU sources, else 0 */
};

#define AMD_MAX_OPNDS 6

/* Row flags. */
enum {
	AMD_F_CARRY_VCC = 1u << 0,  /* e32 form reads/writes vcc implicitly (v_addc, v_cndmask) */
	AMD_F_VOP3B = 1u << 1,      /* VOP3 encoding has an sdst field instead of abs/op_sel */
	AMD_F_NO_MODS = 1u << 2,    /* integer VALU: no neg/abs input modifiers, no omod */
	AMD_F_ATOMIC = 1u << 3,     /* memory atomic (returns data when glc / th:RETURN); the
	                             * row's counter is the no-return one (VS): a returning
	                             * atomic counts as a load (VM) */
	AMD_F_ATOMIC_RTN = 1u << 4, /* atomic row that always returns (LDS _rtn, gfx9 glc) */
	AMD_F_STORE = 1u << 5,      /* writes memory */
	AMD_F_LOAD = 1u << 6,       /* reads memory */
	AMD_F_TIED_DST = 1u << 7,   /* src2 is the destination (v_fmac, v_mac) */
	AMD_F_EXEC_DST = 1u << 8,   /* VOPCX: writes exec (VOPC row with AMD_IMP_EXEC def) */
	AMD_F_SCC_DST = 1u << 9,    /* writes scc (== implicit_defs & AMD_IMP_SCC) */
	AMD_F_SCC_SRC = 1u << 10,   /* reads scc (== implicit_uses & AMD_IMP_SCC) */
	AMD_F_BRANCH = 1u << 11,
	AMD_F_DS_2ADDR = 1u << 12,        /* DS with offset0/offset1 */
	AMD_F_NO_E64 = 1u << 13,          /* VOP1/2 row without a VOP3 form on any generation */
	AMD_F_LITERAL_K = 1u << 14,       /* VOP2 with a mandatory literal (v_fmamk/fmaak) */
	AMD_F_READS_EXEC_ONLY = 1u << 15, /* EXEC is the only implicit register read
	                                   * (implicit_uses == AMD_IMP_EXEC) */
	AMD_F_DS_NO_OFFSET = 1u << 16,    /* DS without an offset field in the syntax */
	AMD_F_WAVE_MASK = 1u << 17,       /* SALU writing exec: operand widths follow the wave size
	                                   * (s_and_saveexec, s_andn2_wrexec) */
	AMD_F_SMEM_NO_ADDR = 1u << 18,    /* s_memtime, s_memrealtime, s_sendmsg_rtn: dst only;
	                                   * s_dcache_inv/_wb/_inv_vol: no operands */
	AMD_F_FP_RESULT = 1u << 19, /* VALU with a float result: output modifier (omod) allowed */
	AMD_F_READS_VCC = 1u << 20, /* reads vcc implicitly in every encoding (v_div_fmas) */
	AMD_F_NO_CLAMP = 1u << 21,  /* VALU without the clamp modifier (v_cmp_class) */
	AMD_F_CACHE_CPOL =
	        1u << 22, /* cache-control instruction taking cache bits (buffer_inv sc1) */
	AMD_F_IMM_OR_M0 = 1u << 23, /* scalar source must be m0 or a constant (s_barrier_signal) */
	AMD_F_NO_DPP = 1u << 24,    /* VOP1/VOP2/VOPC row without a DPP form */
	AMD_F_ALSO_LGKM =
	        1u << 25, /* FLAT (not GLOBAL/SCRATCH): also counts lgkmcnt (may hit LDS) */
	AMD_F_BUS1_GFX10 = 1u << 26,  /* gfx10+: at most one constant-bus read (64-bit shifts) */
	AMD_F_OPSEL_FI_BC = 1u << 27, /* v_permlane16/x16: op_sel bit 0 FI (fetch inactive), bit 1
	                               * BOUND_CTRL, printed op_sel:[fi,bc] */
	AMD_F_MAI = 1u << 28,     /* MFMA (VOP3P-MAI encoding): cbsz/abid/blgp fields, srcC a VGPR
	                           * tuple or inline constant; amd_isa_matrix() has its shape */
	AMD_F_WMMA = 1u << 29,    /* RDNA WMMA (wave32): srcC a VGPR tuple or inline constant;
	                           * amd_isa_matrix() has its shape */
	AMD_F_IU_SIGN = 1u << 30, /* gfx11+ v_dot4_i32_iu8/v_dot8_i32_iu4 and the iu WMMA forms:
	                           * neg_lo bits 0/1 say that src0/src1 are signed */
	AMD_F_NO_SDWA = 1u << 31, /* VOP1/VOP2 row without an SDWA form (v_dot2c, v_dot4c) */
};

/* What the address VGPRs of an image row hold besides the dim's coordinates (field
 * `image` of struct amd_isa_op; 0 on rows that are not images).  The address count of an
 * instance follows from it and the instance's dim (amd_image_addr_count, isa.h). */
enum amd_image_kind {
	AMD_IMG_NONE,
	AMD_IMG_COORDS,  /* the coordinates only (image_load, image_sample, atomics) */
	AMD_IMG_LOD,     /* coordinates then the mip level / LOD (image_load_mip, _l) */
	AMD_IMG_GRAD,    /* derivatives (d/dx then d/dy of each non-array coordinate), then
	                  * the coordinates (image_sample_d) */
	AMD_IMG_RESINFO, /* the mip level only (image_get_resinfo) */
	AMD_IMG_KIND_MASK = 7,
	AMD_IMG_GATHER = 8, /* gather4: dmask names one component, 4 data registers */
};

/* Registers an instruction reads or writes besides its explicit operands (implicit_defs,
 * implicit_uses), in its native encoding (e32 for VOP1/VOP2/VOPC). */
enum {
	AMD_IMP_EXEC = 1,
	AMD_IMP_VCC = 2,
	AMD_IMP_SCC = 4,
	AMD_IMP_M0 = 8,
	AMD_IMP_MODE = 16, /* the MODE register (float rounding/denormals; VALU reads it) */
};

/* Whether a source of this type takes the neg/abs input modifiers. */
static inline bool amd_dtype_is_float(enum amd_dtype t)
{
	return t == AMD_DT_F32 || t == AMD_DT_F16 || t == AMD_DT_F64 || t == AMD_DT_V2F16 ||
	       t == AMD_DT_BF16;
}

struct amd_isa_op {
	const char *name;                   /* canonical name (gfx9 spelling when it exists) */
	const char *gen_name[AMD_NUM_GENS]; /* LLVM mnemonic per generation, NULL where absent */
	uint8_t format;                     /* enum amd_format */
	uint8_t unit;                       /* enum amd_unit */
	uint8_t latency;                    /* enum amd_latency */
	uint8_t counter;                    /* enum amd_counter */
	uint8_t simm;                       /* enum amd_simm_kind */
	uint8_t nopnds;
	int16_t opcode[AMD_NUM_GENS];              /* native-format opcode, -1 = absent */
	int16_t vop3_opcode[AMD_NUM_GENS];         /* VOP3 (e64) opcode, -1 = none */
	uint32_t flags;                            /* AMD_F_* */
	uint8_t implicit_defs, implicit_uses;      /* AMD_IMP_* on any generation: the exact
	                                            * set of one target is amd_implicit_defs/
	                                            * amd_implicit_uses (isa.h) */
	struct amd_opnd_desc opnds[AMD_MAX_OPNDS]; /* destinations first, then sources in
	                                            * assembly order */
	uint8_t image; /* image rows: enum amd_image_kind (| AMD_IMG_GATHER); else 0 */
};

/* Element types of the matrix instructions' operands. */
enum amd_mtype {
	AMD_MT_F16,
	AMD_MT_BF16,
	AMD_MT_F32,
	AMD_MT_XF32, /* gfx942's xf32: f32 operands read with a 10-bit mantissa (tf32) */
	AMD_MT_F64,
	AMD_MT_I8,  /* signed 8-bit */
	AMD_MT_IU8, /* 8-bit, signed or unsigned per neg_lo bit (WMMA) */
	AMD_MT_IU4, /* 4-bit, signed or unsigned per neg_lo bit (WMMA) */
	AMD_MT_I32,
	AMD_MT_FP8, /* gfx942: E4M3FNUZ (bias 8, no infinity, 0x80 = NaN) */
	AMD_MT_BF8, /* gfx942: E5M2FNUZ (bias 16, no infinity, 0x80 = NaN) */
};

/* Shape and timing of a matrix row (MFMA / WMMA): D = A x B + C on `blocks` independent
 * M x N x K blocks.  passes[gen]: 4-cycle passes the instruction occupies the matrix unit
 * (0 where the row does not exist); xdl: gfx942 runs it on the XDL pipeline (its dependency
 * rules differ from the non-XDL forms'). */
struct amd_matrix_info {
	uint16_t row; /* enum amd_opcode */
	uint8_t m, n, k, blocks;
	uint8_t ab_type, cd_type; /* enum amd_mtype (ab_type: A's, and B's unless b_type says) */
	uint8_t passes[AMD_NUM_GENS];
	bool xdl;
	uint8_t b_type; /* enum amd_mtype of B (differs from A's in the fp8 x bf8 forms) */
};

/* The matrix facts of row `op`, NULL for a row that is not a matrix instruction. */
const struct amd_matrix_info *amd_isa_matrix(enum amd_opcode op);
/* The width in bits of one element of a matrix type (f64 64, f16/bf16 16, 8-bit 8, iu4 4, else
 * 32), in matrix.c. */
unsigned amd_mtype_bits(enum amd_mtype t);

/* The whole table. */
const struct amd_isa_op *amd_isa_table(unsigned *count);
/* The same rows as an array indexed by enum amd_opcode (amd_isa_ops.h), for passes that
 * look a row up per instruction (an inline access instead of a call). */
extern const struct amd_isa_op amd_isa_rows[];
/* Row index of a canonical or per-generation mnemonic (without _e32/_e64), -1 if none. */
int amd_isa_find(const char *name);
/* Row index of the instruction with mnemonic `name` on generation `gen`, -1 if none. */
int amd_isa_find_gen(enum amd_gen gen, const char *name);
/* Row index decoding (format, opcode) on `gen`, -1 if none.  For AMD_FMT_VOP3 the opcode
 * is looked up among vop3_opcode of all VALU rows (native VOP3 and promoted e64 forms). */
int amd_isa_decode(enum amd_gen gen, enum amd_format format, unsigned opcode);

const char *amd_format_name(enum amd_format f);
const char *amd_unit_name(enum amd_unit u);

#endif
