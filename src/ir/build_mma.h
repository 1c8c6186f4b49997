/* Internal to build_mma.c and build_wmma.c: the fragment layouts and the lane-function
 * machinery they share (docs/TENSOR.md). */
#ifndef IR_BUILD_MMA_H
#define IR_BUILD_MMA_H
#include "ir/build_int.h"

/* The element types of matrix operands. */
enum mma_ek {
	EK_NONE,
	EK_F16,
	EK_BF16,
	EK_TF32,
	EK_F32,
	EK_F64,
	EK_S32,
	EK_S8,
	EK_U8,
	EK_S4,
	EK_U4,
	EK_B1,
	EK_E4M3,
	EK_E5M2,
};

/* How a lane's elements of one fragment map to matrix coordinates (PTX ISA, "Matrix
 * Fragments for mma.mMnNkK"): one formula per kind, repeated over tiles. */
enum mma_lk {
	LK_A,      /* A of m16n8kK (m0 16) or m8n8kK (m0 8) */
	LK_B,      /* B of mMn8kK */
	LK_C,      /* C/D of m16n8 (4 elements) or m8n8 (2) */
	LK_QA_ROW, /* m8n8k4 .f16 (quad pairs): A row-major */
	LK_QA_COL,
	LK_QB_ROW,
	LK_QB_COL,
	LK_QC_F16, /* C/D .f16 */
	LK_QC_F32, /* C/D .f32 */
};

enum { MMA_MAX_TILES = 8 };

struct mma_layout {
	enum mma_lk kind;
	unsigned m0, k;  /* tile rows (A, C) and depth (A, B) */
	unsigned per;    /* elements per register (A, B: 32 / bits; f64: 1) */
	unsigned nelem;  /* elements of one tile per lane */
	unsigned ntiles; /* tiles; tile t adds (trow[t], tcol[t]) */
	uint16_t trow[MMA_MAX_TILES], tcol[MMA_MAX_TILES];
};

struct mma_coord {
	unsigned grp, row, col; /* grp: which of m8n8k4's four products (0 elsewhere) */
};

/* A value of the lane index (0..31 within the warp) as bits: bit i of the value is a
 * constant (src[i] = MMA_BIT0 / MMA_BIT1) or bit src[i] of the lane. */
enum { MMA_FN_BITS = 16, MMA_BIT0 = 0xfe, MMA_BIT1 = 0xff };
struct mma_lanefn {
	uint8_t src[MMA_FN_BITS];
};

struct mma_coord mma_elem(const struct mma_layout *l, unsigned lane, unsigned e);
unsigned mma_layout_elems(const struct mma_layout *l);
/* fits v[0..31] as a lane function; false if it is none */
bool mma_fit(const unsigned *v, struct mma_lanefn *f);
/* the lane-function's value in this lane (i32) */
ir_ref mma_lanefn_value(struct irb *b, const struct mma_lanefn *f);
enum mma_ek mma_ek_of(unsigned ptx_type);
unsigned mma_ek_bits(enum mma_ek k);
/* wmma.load / wmma.store (build_wmma.c) */
void irb_wmma_mem(struct irb *b, const struct ptx_insn *in, ir_ref guard);
/* the layouts of a wmma shape's fragments (build_wmma.c); false if not a wmma shape */
bool mma_wmma_layout(unsigned m, unsigned n, unsigned k, char which, enum mma_ek ek,
                     struct mma_layout *l);
/* the register count of a wmma fragment (PTX ISA) */
unsigned mma_wmma_regs(unsigned m, unsigned k, char which, enum mma_ek ek,
                       const struct mma_layout *l);
/* An mma the matrix units may compute (build_mma_mfma.c): shape, element types, and
 * whether it is an mma.sync with the PTX ISA's fragments (not a wmma tile). */
struct mma_fast {
	unsigned m, n, k;
	enum mma_ek ea, eb, ec, ed;
	bool sync, satfinite;
};
/* D's registers d[] from A, B, C's (the PTX fragments; cvar: the values of C's registers,
 * IR_NO_REF where not a register) on the target's matrix unit; false (nothing emitted) where
 * it has none for this form.  After writing D unguarded, mma_matrix_written(b, back, dvar)
 * with the values D's registers then hold lets a later mma chain to it (back: how many
 * matrix-unit products were computed after this one, for a wmma's several tiles). */
bool mma_matrix_unit(struct irb *b, const struct mma_fast *q, const ir_ref *a, const ir_ref *bb,
                     const ir_ref *c, const ir_ref *cvar, ir_ref *d);
void mma_matrix_written(struct irb *b, unsigned back, const ir_ref *dvar);
/* m8n8k4 .row.col (layouts A, B, C, D; A, B, C registers) on gfx90a/gfx942's
 * v_mfma_f32_4x4x4f16 (build_mma_q.c): D's registers (.f16 4, .f32 8), or false (nothing
 * emitted) */
bool mma_quad_unit(struct irb *b, const struct mma_layout *const l[4], ir_ref *const *reg,
                   ir_ref *d);
/* s4/u4 A and B on gfx1100's iu4 WMMA (build_mma_i4.c) */
bool mma_nibbles(const struct irb *b, const struct mma_fast *q);
/* s4/u4 on MFMA as signed bytes: whether, and A's k/16 and B's k/32 registers as twice as
 * many registers of bytes (build_mma_i4.c) */
bool mma_nibbles_as_bytes(const struct irb *b, const struct mma_fast *q);
void mma_nibbles_bytes(struct irb *b, const struct mma_fast *q, const ir_ref *a, const ir_ref *bb,
                       ir_ref *a8, ir_ref *b8);
/* An m8n8k4 .f64 product (layouts A, B, C, D; IR_FM_* rounding; the A, B, C registers, i64)
 * on gfx90a/gfx942's f64 MFMA (build_mma_f64.c): D's two registers, or false (nothing
 * emitted) where the target or the form does not allow it. */
bool mma_f64_unit(struct irb *b, const struct mma_layout *const l[4], uint32_t fround,
                  ir_ref *const *reg, ir_ref *d);
/* build_ldsm.c: a lane-read byte address at = row | col | c (4 x the source wave lane): row
 * holds its bits 4-7 (the row within a matrix, the wave half), col (IR_NO_REF: none) its
 * bits 2-3 (the dword within the row), c a constant. */
struct ldsm_at {
	ir_ref row, col;
	uint32_t c;
};
/* The dword vals[idx] holds in the lane at / 4, idx = sum of preds[j] << j (the reader's
 * predicates, 1 << np values), as one LDS load from the row address that ldmatrix read, when
 * every val is a register of one non-.trans ldmatrix of this block with no effects since;
 * else IR_NO_REF (nothing emitted).  site: a code that with the lane id `id` determines at's
 * values and preds (a later call with the same site, id, c and vals reuses the load). */
ir_ref ldsm_pick(struct irb *b, uint64_t site, ir_ref id, const struct ldsm_at *at, unsigned np,
                 const ir_ref *preds, const ir_ref *vals);
/* the shape in a matrix instruction's words; false if none */
bool mma_shape(const struct ptx_insn *in, unsigned *m, unsigned *n, unsigned *k);
#endif
