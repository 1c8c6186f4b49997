/* An AMDGPU instruction instance: a table row plus operand values in the row's operand
 * order (struct amd_isa_op.opnds) plus modifiers.  The encoder, printer, assembly reader,
 * the simulator's tests and the compiler's passes all exchange instructions in this form;
 * the operand facts the compiler needs about an instance (legality, constant bus, counters)
 * are in isa.h.  Symbolic names shared by printer and reader (hwreg, specials) are here too. */
#ifndef AMD_INST_H
#define AMD_INST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "amd_isa.h"
#include "target.h"

enum amd_val_kind {
	AMD_V_NONE,
	AMD_V_SGPR,    /* reg = first SGPR, width registers */
	AMD_V_VGPR,    /* reg = first VGPR */
	AMD_V_SPECIAL, /* reg = enum amd_special */
	AMD_V_IMM,     /* imm = constant bits (32-bit; for f64 operands the high half) */
	AMD_V_OFF,     /* "off": no scalar address / no vaddr */
	AMD_V_TTMP,    /* reg = first trap temporary ttmpN */
	AMD_V_AGPR,    /* reg = first accumulation VGPR aN (gfx90a/gfx942 MFMA operands) */
};

enum amd_special {
	AMD_SPEC_VCC, /* vcc (wave64) / vcc_lo (wave32) as a lane mask */
	AMD_SPEC_VCC_LO,
	AMD_SPEC_VCC_HI,
	AMD_SPEC_EXEC, /* exec (wave64) / exec_lo (wave32) */
	AMD_SPEC_EXEC_LO,
	AMD_SPEC_EXEC_HI,
	AMD_SPEC_M0,
	AMD_SPEC_NULL,
	AMD_SPEC_SCC,
	AMD_SPEC_FLAT_SCRATCH, /* gfx9 only: flat_scratch (pair) / _lo / _hi */
	AMD_SPEC_FLAT_SCRATCH_LO,
	AMD_SPEC_FLAT_SCRATCH_HI,
	AMD_SPEC_SRC_SHARED_BASE, /* aperture bases (64-bit constants) */
	AMD_SPEC_SRC_SHARED_LIMIT,
	AMD_SPEC_SRC_PRIVATE_BASE,
	AMD_SPEC_SRC_PRIVATE_LIMIT,
	AMD_NUM_SPECIALS
};

struct amd_val {
	uint8_t kind;  /* enum amd_val_kind */
	uint8_t width; /* registers (0 = the row's width) */
	uint16_t reg;
	uint32_t imm;
};

/* Cache-policy bits of memory instructions (one field, meaning per generation):
 * gfx9/10/11 GLC SLC DLC; gfx940 SC0 (=GLC) SC1 NT (=SLC); gfx12 TH in bits 0-2, SCOPE in
 * bits 3-4 (AMD_CPOL_TH / AMD_CPOL_SCOPE). */
enum {
	AMD_CPOL_GLC = 1,
	AMD_CPOL_SLC = 2,
	AMD_CPOL_DLC = 4,
	AMD_CPOL_SC0 = 1,
	AMD_CPOL_NT = 2,
	AMD_CPOL_SC1 = 8,
};
#define AMD_CPOL_TH(th)   ((unsigned)(th)&7u)
#define AMD_CPOL_SCOPE(s) (((unsigned)(s)&3u) << 3)

enum amd_enc_choice { AMD_ENC_AUTO, AMD_ENC_E32, AMD_ENC_E64 };

struct amd_inst {
	int row;                           /* index into amd_isa_table() */
	struct amd_val ops[AMD_MAX_OPNDS]; /* in the row's operand order */
	struct amd_val rtn;                /* returned value of an atomic (kind NONE: no return) */
	uint8_t enc;                       /* enum amd_enc_choice (VALU) */
	uint8_t neg, abs;                  /* per source bit i = source i (VOP3; VOP3P: neg_lo) */
	uint8_t neg_hi, op_sel;            /* VOP3P / VOP3 op_sel */
	uint8_t op_sel_hi;                 /* VOP3P; default when op_sel_hi_set is false */
	bool op_sel_hi_set;
	bool clamp;
	uint8_t omod;    /* 0 none, 1 mul:2, 2 mul:4, 3 div:2 */
	int32_t offset;  /* memory offset; DS 2addr: offset0 */
	uint8_t offset1; /* DS 2addr */
	uint8_t cpol;    /* AMD_CPOL_* */
	bool offen, idxen, gds;
	bool smem_soe; /* SMEM: "soffset offset:N" form, even with N = 0 */
	int32_t simm;  /* unused: immediates are operands */
	bool dual;     /* VOPD: row is the X half, row_y/ops_y the Y half */
	int row_y;
	struct amd_val ops_y[AMD_MAX_OPNDS];
	/* DPP (VOP1/VOP2/VOPC e32): dpp = 1 DPP16 (gfx9: DPP), 2 DPP8 (gfx10+) */
	uint8_t dpp;
	uint16_t dpp_ctrl; /* DPP16: quad_perm 0x00-0xff, row_shl 0x101.. (LLVM's values) */
	uint8_t row_mask, bank_mask;
	bool bound_ctrl, fi;
	uint32_t dpp8_sel; /* DPP8: 8 lane selects, 3 bits each */
	/* SDWA (gfx9/gfx10 VOP1/VOP2/VOPC e32): selects 0-3 BYTE_n, 4-5 WORD_n, 6 DWORD */
	bool sdwa;
	uint8_t dst_sel, dst_unused; /* dst_unused: 0 UNUSED_PAD, 1 UNUSED_SEXT, 2 PRESERVE */
	uint8_t src_sel[2];
	uint8_t sext; /* bit per source: sext(...) */
	/* MFMA (AMD_F_MAI rows): cbsz (0-7) broadcasts block `abid` (0-15) of srcA to the
	 * 2^cbsz blocks of its group; blgp (0-7) swizzles srcB's lane groups.  On gfx942 the
	 * f64 rows have neg:[a,b,c] (field `neg`) instead of blgp. */
	uint8_t cbsz, abid, blgp;
	/* image (AMD_FMT_MIMG) rows: dmask (components read/written, one register each), dim
	 * (SQ_RSRC_IMG_*: 0 1D, 1 2D, 2 3D, 3 CUBE, 4 1D_ARRAY, 5 2D_ARRAY, 6 2D_MSAA,
	 * 7 2D_MSAA_ARRAY; gfx9 encodes only whether it is an array or cube, as `da`), unorm
	 * (unnormalized coordinates; gfx12 VIMAGE has no such bit) */
	uint8_t dmask, dim;
	bool unorm;
};

/* The 9-bit source code of an inline constant for `bits` read as `dtype` on generation gen,
 * or -1 when the value needs a literal. */
int amd_inline_code(enum amd_dtype dtype, uint32_t bits);

/* Hardware register names for hwreg(...) as LLVM spells them on `gen` (NULL if LLVM prints
 * the number), and back (-1 if unknown). */
const char *amd_hwreg_name(enum amd_gen gen, unsigned id);
int amd_hwreg_id(enum amd_gen gen, const char *name, size_t len);
/* Spelling of a special register operand of `width` registers (1 or 2). */
const char *amd_special_name(unsigned spec, unsigned width);

/* Whether row `op` encodes as VOP3 (e64) for this instruction on `gen`. */
bool amd_uses_vop3(enum amd_gen gen, const struct amd_isa_op *op, const struct amd_inst *in);

#endif
