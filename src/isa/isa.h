/* The isa stage's public face: every fact about AMD GPUs that the encoder, the simulator and
 * the compiler's passes (isel, regalloc, sched) read.  Include it as "isa/isa.h".
 *
 *   amd_isa.h     the instruction table (one row per instruction, per-generation opcodes,
 *                 operands, unit, latency class, counter, flags, implicit registers) and
 *                 enum amd_opcode (amd_isa_ops.h, generated)
 *   target.h      the five processors as runtime data
 *   amd_inst.h    an instruction instance (row + operand values + modifiers)
 *
 * and below, the derived per-target questions a compiler asks about a row or an instance.
 * Everything here is pure and reads only constant tables. */
#ifndef ISA_ISA_H
#define ISA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "amd_inst.h"
#include "amd_isa.h"
#include "target.h"

/* ---- implicit registers ---- */

/* AMD_IMP_* registers row `op` writes / reads besides its explicit operands on target t,
 * in its native (e32) encoding: the row's implicit_defs/implicit_uses narrowed to the
 * generation (DS reads M0 only on gfx9/gfx940; a v_cmpx e32 writes VCC only there). */
unsigned amd_implicit_defs(const struct amd_target *t, const struct amd_isa_op *op);
unsigned amd_implicit_uses(const struct amd_target *t, const struct amd_isa_op *op);

/* ---- registers ---- */

/* Register-number alignment (1, 2 or 4) operand `opnd` of row `op` needs on t: SGPR pairs
 * start at an even register and wider SGPR tuples at a multiple of 4; on gfx90a/gfx942
 * VGPR tuples of 64 bits and more start at an even register. */
unsigned amd_reg_align(const struct amd_target *t, const struct amd_isa_op *op, unsigned opnd);

/* ---- constant bus and literals ---- */

/* Constant-bus reads of a VALU instance: distinct SGPRs/specials (vcc read implicitly by
 * v_cndmask e32 / v_div_fmas included) plus one for a literal; 0 for non-VALU rows. */
unsigned amd_const_bus_reads(const struct amd_target *t, const struct amd_inst *in);
/* How many constant-bus reads row `op` may make on t (target limit, 1 for gfx10+ 64-bit
 * shifts). */
unsigned amd_const_bus_limit(const struct amd_target *t, const struct amd_isa_op *op);
/* Whether the encoding this instance takes on t (e32, VOP3, VOP3P, SALU ...) can carry a
 * 32-bit literal (VOP3/VOP3P only from gfx10; DS/VMEM/SMEM operands never). */
bool amd_literal_allowed(const struct amd_target *t, const struct amd_inst *in);

/* ---- timing ---- */

/* Result latency in cycles of `op` on t, from a per-generation table keyed by the row's
 * latency class (sources cited in latency.c). */
unsigned amd_latency_cycles(const struct amd_target *t, enum amd_opcode op);

/* ---- wait counters ---- */

/* The hardware counters, gfx9-11 names (gfx12 names in comments). */
enum amd_hw_counter {
	AMD_HWC_VM,   /* vmcnt: vector memory loads and returning atomics (gfx12 loadcnt) */
	AMD_HWC_VS,   /* vector memory stores: vscnt (gfx10/11), storecnt (gfx12); before
	               * gfx10 stores count in vmcnt and this counter does not exist */
	AMD_HWC_LGKM, /* lgkmcnt: LDS, SMEM, messages, FLAT (gfx12: dscnt, LDS and FLAT only) */
	AMD_HWC_KM,   /* gfx12 only: kmcnt for SMEM and messages */
	AMD_HWC_EXP,  /* expcnt */
	AMD_NUM_HW_COUNTERS
};

/* Counters instance `in` increments on t, as a mask of 1u << enum amd_hw_counter. */
unsigned amd_inst_counters(const struct amd_target *t, const struct amd_inst *in);
/* Largest value counter c can wait for on t ("no wait"); 0 if t has no such counter. */
unsigned amd_waitcnt_max(const struct amd_target *t, enum amd_hw_counter c);
/* s_waitcnt simm16 from the target's layout (gfx9-11); values above a counter's maximum
 * saturate to the maximum, i.e. do not wait on it. */
uint16_t amd_waitcnt_pack(const struct amd_target *t, unsigned vm, unsigned exp, unsigned lgkm);
void amd_waitcnt_unpack(const struct amd_target *t, uint16_t simm, unsigned *vm, unsigned *exp,
                        unsigned *lgkm);
/* s_delay_alu simm16 (gfx11+): instid0 (bits 3:0), instskip (6:4), instid1 (10:7). */
uint16_t amd_delay_alu_pack(unsigned instid0, unsigned skip, unsigned instid1);
void amd_delay_alu_unpack(uint16_t simm, unsigned *instid0, unsigned *skip, unsigned *instid1);

/* ---- legality ---- */

/* Whether `in` can be encoded on t, without encoding it: the row exists on t, each operand
 * has a kind the row allows, registers are in range and aligned, specials exist on t, the
 * constant bus and literal rules hold, modifiers fit the row.  On false writes a one-line
 * reason into err.  Agrees with amd_encode's accept/refuse decision on every instance the
 * conformance test builds outside DPP, SDWA and VOPD, whose control fields and pairing
 * rules only the encoder checks (test isa-legal-vs-encode). */
bool amd_inst_legal(const struct amd_target *t, const struct amd_inst *in, char *err,
                    size_t errlen);

/* ---- matrix instructions ---- */

/* Where one matrix element lives: lane, VGPR offset within the operand's register tuple and
 * element index within that register (16-bit half, byte or nibble; 0 for 32-bit values; a
 * 64-bit value's `reg` is the low register of its pair).  For gfx11 WMMA A/B, `lane` is the
 * copy in lanes 0-15; lane + 16 must hold the same value. */
struct amd_matrix_place {
	uint8_t lane, reg, elem;
};
enum amd_matrix_operand { AMD_MATRIX_A, AMD_MATRIX_B, AMD_MATRIX_CD };
/* The placement of element (row, col) of block `block` of operand `which` (A: row i, col k;
 * B: row k, col j; C/D: row i, col j) of matrix row `op` on target t, for MFMA (gfx90a/
 * gfx942, wave64) and WMMA (gfx11/gfx12, wave32), with no cbsz/abid/blgp/op_sel: the layouts
 * of docs/MATRIX_UNITS.md (tests/sim/test_matrix.py checks this function against the tables
 * written from AMD's documents).  False for a row or coordinate outside the shape. */
bool amd_matrix_place(const struct amd_target *t, enum amd_opcode op, enum amd_matrix_operand which,
                      unsigned row, unsigned col, unsigned block, struct amd_matrix_place *out);

/* Why `in` (a matrix row, a packed dot product, or any row given MFMA fields) cannot be
 * encoded on t because of its modifiers or its srcC, or NULL: the rules amd_encode and
 * amd_inst_legal share (src/isa/matrix.c). */
const char *amd_matrix_refusal(const struct amd_target *t, const struct amd_isa_op *op,
                               const struct amd_inst *in);

/* Image rows (AMD_FMT_MIMG, src/isa/image.c): the address VGPRs an instance of row op with
 * dim (SQ_RSRC_IMG_*) has (0 for an unsupported dim), the data VGPRs for a dmask, whether the
 * row takes a sampler (VSAMPLE on gfx12), and why an instance cannot be encoded on t (dim,
 * dmask, data and address counts, modifiers), or NULL: shared by amd_encode and
 * amd_inst_legal. */
unsigned amd_image_addr_count(const struct amd_isa_op *op, unsigned dim);
unsigned amd_image_data_count(const struct amd_isa_op *op, unsigned dmask);
bool amd_image_has_sampler(const struct amd_isa_op *op);
const char *amd_image_refusal(const struct amd_target *t, const struct amd_isa_op *op,
                              const struct amd_inst *in);

#endif
