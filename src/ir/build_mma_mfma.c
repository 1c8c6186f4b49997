/* ir_build: mma.sync on the matrix units (docs/TENSOR.md, "The matrix units").
 *
 * gfx90a/gfx942: an m16n8k16 .row.col .f32.f16.f16.f32 (or .bf16) is computed transposed,
 * D^T = B^T A^T + C^T, by four v_mfma_f32_4x4x4f16 (bf16_1k) whose 16 blocks are 4x4 tiles of
 * D^T: a warp's 32 lanes hold blocks 0-7 (lanes 4b..4b+3), so the two 32-lane warps of a
 * wave64 (--warp-size 32 or not) are two independent products in one instruction, and the
 * lane shuffles never leave the warp's half.  With L the warp lane (bits L0..L4):
 *   block b = L >> 2 holds the D^T tile of rows n = 2P + e, P = L2 + 2 (slot ^ L4) (slot, e
 *   the bits of the block's row i = 2 slot + e) and columns m = 4 (L >> 3) + j;
 *   instruction s (0..3) gives block b the k chunk c = 2 (s >> 1) + (L4 ^ (s & 1)).
 * This choice makes every NVIDIA register a single lane read (ds_bpermute) per AMD register,
 * after at most one v_cndmask in the source lane chosen by its own lane bit 1 (the register
 * index of A and of C depends on the row half m / 8 = L4, which the chunk's parity puts into
 * the source lane's bit 1).  Per mma: A^T 8 reads + 4 selects, B^T 8 reads, C^T 4 reads + 4
 * selects, D back 8 reads + 4 selects, 4 MFMAs.  The MFMA adds the 4 products of a chunk to C
 * and rounds once (amdsim's model): exact data stay exact, general data are within the
 * accumulation bound of tests/hw/tensor_bound.py.
 * A and B registers that a non-.trans ldmatrix of this block loaded are loaded again from LDS
 * in the unit's layout instead of shuffled (build_ldsm.c; `pick`), the same lane functions
 * giving the row of the source lane's dword. */
#include "ir/build_mma.h"

static ir_ref konst(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, IR_T_I32, args, 2, 0, 0);
}

/* An mma computed on the matrix unit, for chains of accumulators: the next mma whose C
 * registers hold exactly this one's D (straight-line code, mma_matrix_unit) or get it through
 * a loop phi (irb_mma_finish) reads `acc` / `dt` instead of shuffling D back and forth. */
struct mma_unit_rec {
	unsigned family; /* enum ir_matrix_unit: the layout of acc */
	uint32_t block;
	ir_ref acc;   /* D in the unit's layout (a MATRIX value) */
	ir_ref dt[8]; /* its dwords (MTUP_GET) */
	unsigned ndt;
	ir_ref ctup[2]; /* the MTUP(s) of 4 dwords holding the converted C, or IR_NO_REF */
	unsigned nv;    /* C and D registers: 4, or 8 for a pair of n8 tiles (n 16) */
	ir_ref lane;    /* the lane id the shuffles' addresses come from (SREG) */
	ir_ref cvar[8]; /* the C registers' values the mma read */
	ir_ref dvar[8]; /* the D registers' values after it (IR_NO_REF: not recorded) */
	struct mma_unit_rec *next;
};

enum { CHAIN_LOOKBACK = 64 }; /* records searched for a straight-line chain */

struct mfma_state {
	struct irb *b;
	struct mma_unit_rec *rec; /* this mma's */
	ir_ref chain;             /* C as a previous mma's acc, or IR_NO_REF */
	unsigned steps;           /* (k-half, chunk parity) pairs: k / 4 (f16), k / 8 (s8) */
	bool i8;                  /* s8/u8: one register per MFMA operand, WMMA iu8 */
	bool i4;                  /* s4/u4 (gfx1100 iu4): the registers as i8's, 2 a WMMA */
	bool ua, ub;              /* MFMA i8: A / B .u8 (not both), bytes ^ 0x80 + corrections */
	bool tf32;                /* tf32: one register (one k) per MFMA operand too */
	bool zero_c;              /* .satfinite: the unit starts from zeros, C added after */
	bool pair;                /* WMMA: two n8 tiles (B, C, D of 2 tiles), no padding */
	unsigned rb;              /* B registers of one n8 tile */
	ir_ref bit1;              /* pred: lane bit 1 */
	ir_ref id;                /* the lane id the addresses come from */
	/* byte addresses (4 x the wave lane) of the reads, the header's lane functions:
	 * C^T per slot, B^T and A^T per (chunk parity n0, register q), D per x1 */
	ir_ref at_c[2], at_bt[2][2], at_at[2][2], at_d[2];
	/* at_at[f][q] = row_at | u[f] | 4q, at_bt[f][q] = row_bt | u[f] | 4q (build_ldsm.c) */
	ir_ref row_at, row_bt, u[2];
};

/* Records the unit's result `acc` (n dwords) for the chains and reads its dwords out. */
static ir_ref *record_result(struct irb *b, struct mma_unit_rec *rec, ir_ref acc, unsigned n)
{
	rec->acc = acc;
	rec->ndt = n;
	for (unsigned i = 0; i < n; i++)
		rec->dt[i] = irb_emit(b, IR_MTUP_GET, IR_T_I32, &acc, 1, i, 0);
	return rec->dt;
}

static ir_ref and_k(struct irb *b, ir_ref v, uint32_t k)
{
	return op2(b, IR_AND, v, konst(b, k));
}

static ir_ref shl_k(struct irb *b, ir_ref v, uint32_t k)
{
	return op2(b, IR_SHL, v, konst(b, k));
}

/* The addresses: bit ob of a source lane is bit ob + 2 of its byte address. */
static void addresses(struct mfma_state *s, ir_ref id)
{
	struct irb *b = s->b;
	ir_ref l = b->fn->wave_size == 64 ? and_k(b, id, 31) : id;
	ir_ref base = b->fn->wave_size == 64 ? and_k(b, shl_k(b, id, 2), 128) : konst(b, 0);
	ir_ref l4 = shl_k(b, l, 4), l3 = shl_k(b, l, 3);
	/* t1: L0 -> lane bit 2, L1 -> 3, L3 -> 4; u: L4 -> lane bit 1 (flipped: u1) */
	ir_ref t1 = op2(b, IR_OR, op2(b, IR_OR, and_k(b, l4, 0x30), and_k(b, l3, 0x40)), base);
	ir_ref u[2];
	u[0] = and_k(b, op2(b, IR_SHR_U, l, konst(b, 1)), 8);
	u[1] = op2(b, IR_XOR, u[0], konst(b, 8));
	ir_ref t1c = op2(b, IR_OR, t1, and_k(b, l, 4)); /* + L2 -> lane bit 0 */
	/* v: L0 -> lane bit 2, L2 -> 3, L1 ^ L4 -> 4 */
	ir_ref x = and_k(b, op2(b, IR_XOR, shl_k(b, l, 5), shl_k(b, l, 2)), 64);
	ir_ref v = op2(b, IR_OR, op2(b, IR_OR, and_k(b, l4, 16), and_k(b, l3, 32)),
	               op2(b, IR_OR, x, base));
	s->row_at = t1, s->row_bt = v, s->u[0] = u[0], s->u[1] = u[1];
	for (unsigned f = 0; f < 2; f++) {
		s->at_c[f] = op2(b, IR_OR, t1c, u[f]);
		ir_ref a0 = op2(b, IR_OR, t1, u[f]), b0 = op2(b, IR_OR, v, u[f]);
		s->at_at[f][0] = a0;
		s->at_at[f][1] = op2(b, IR_OR, a0, konst(b, 4));
		s->at_bt[f][0] = b0;
		s->at_bt[f][1] = op2(b, IR_OR, b0, konst(b, 4));
	}
	/* d: L2 -> lane bit 0, L3 -> 1, L0 -> 2, L4 -> 3, x1 -> 4 */
	ir_ref d0 = op2(b, IR_OR, op2(b, IR_OR, and_k(b, l, 12), and_k(b, l4, 16)),
	                op2(b, IR_OR, and_k(b, shl_k(b, l, 1), 32), base));
	s->at_d[0] = d0;
	s->at_d[1] = op2(b, IR_OR, d0, konst(b, 64));
}

static ir_ref read_at(struct mfma_state *s, ir_ref v, ir_ref at)
{
	return op2(s->b, IR_MPERM, v, at);
}

/* Operand sites for ldsm_pick's reuse of loads: what determines x and the predicates. */
enum { SITE_MFMA_A = 1, SITE_MFMA_B, SITE_WMMA_A, SITE_WMMA_B, SITE_WMMA12_A, SITE_WMMA12_B };

static uint64_t site(unsigned operand, unsigned n0, unsigned q, bool pair)
{
	return (uint64_t)operand << 16 | n0 << 8 | q << 1 | pair;
}

/* vals[idx] (idx the predicates' bits, 1 << np values) of the lane at = row | col | c,
 * loaded from LDS where they are registers of one ldmatrix (build_ldsm.c); else IR_NO_REF */
static ir_ref pick(struct mfma_state *s, uint64_t code, ir_ref row, ir_ref col, uint32_t c,
                   unsigned np, const ir_ref *preds, const ir_ref *vals)
{
	struct ldsm_at at = {row, col, c};
	return ldsm_pick(s->b, code, s->id, &at, np, preds, vals);
}

/* sel1 ? a : b by the lane's bit 1 (flipped when flip) */
static ir_ref by_bit1(struct mfma_state *s, bool flip, ir_ref one, ir_ref zero)
{
	ir_ref args[3] = {s->bit1, flip ? zero : one, flip ? one : zero};
	return irb_emit(s->b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
}

static ir_ref tuple(struct irb *b, const ir_ref *v, unsigned n)
{
	return irb_emit(b, IR_MTUP, IR_T_I32, v, n, 0, 0);
}

/* v_mfma_i32_4x4x4i8's bytes are signed.  A .u8 byte u is u' + 128 with u' = u ^ 0x80 a
 * signed byte, so for .u8 A x .s8 B (A' the signed bytes the unit read)
 *   A B = A' B + 128 B   (per k; .s8 A x .u8 B: A B' + 128 A)
 * and the correction is two products with a constant operand of bytes 64, no shuffle: 128 B
 * = two (B, 64) products.  Exact: integers, at most 2^21 in magnitude.  The unit computes
 * D^T: its srcA (ra) holds B's bytes, srcB (rb) A's.  .u8 x .u8 would need five products
 * per chunk (A' B' + 128 A' + 128 B' + 16384): slower in amdsim than the portable
 * v_dot4_u32_u8 (2002 against 1718 cycles for one m16n8k32), so it stays portable. */
static ir_ref u8_corrections(struct mfma_state *s, enum ir_matrix_op op, ir_ref ra, ir_ref rb,
                             ir_ref acc)
{
	if (!s->ua && !s->ub)
		return acc;
	struct irb *b = s->b;
	ir_ref k64 = konst(b, 0x40404040u);
	for (unsigned i = 0; i < 2 && s->ua; i++) {
		ir_ref args[3] = {ra, tuple(b, &k64, 1), acc};
		acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
	}
	for (unsigned i = 0; i < 2 && s->ub; i++) {
		ir_ref args[3] = {tuple(b, &k64, 1), rb, acc};
		acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
	}
	return acc;
}

/* The four MFMAs of one m16n8k16 (the header's scheme); a: 4, bb: 2, c: 4 registers. */
static void mfma_m16n8k16(struct mfma_state *s, enum ir_matrix_op op, const ir_ref *a,
                          const ir_ref *bb, const ir_ref *c, ir_ref *d)
{
	struct irb *b = s->b;
	ir_ref ct[4], acc = s->chain;
	if (acc == IR_NO_REF && s->zero_c) {
		for (unsigned i = 0; i < 4; i++)
			ct[i] = konst(b, 0);
		acc = tuple(b, ct, 4);
	} else if (acc == IR_NO_REF) {
		for (unsigned slot = 0; slot < 2; slot++) /* C^T: source lane bit 1 = slot ^ L4 */
			for (unsigned e = 0; e < 2; e++)
				ct[2 * slot + e] =
				        read_at(s, by_bit1(s, slot, c[2 + e], c[e]), s->at_c[slot]);
		acc = s->rec->ctup[0] = tuple(b, ct, 4);
	}
	for (unsigned step = 0; step < s->steps; step++) {
		unsigned h = step >> 1, n0 = step & 1;
		ir_ref ta[2], tb[2];
		/* B^T rows (the MFMA's A): B register h from lane {q, L4^n0, L0, L2, L1^L4} */
		/* A^T columns (its B): A register 2h + (L4 of the reader) from lane
		 * {q, L4^n0, L0, L1, L3}: the source picks it by its own bit 1 */
		ir_ref v = IR_NO_REF;
		/* the source's bit 1 is bit 3 of the address; A's register 2h + (it ^ n0) */
		ir_ref cmp[2] = {s->u[n0], konst(b, 0)};
		ir_ref src1 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
		ir_ref va[2] = {a[2 * h + n0], a[2 * h + 1 - n0]};
		for (unsigned q = 0; q < 2; q++) {
			ta[q] = pick(s, site(SITE_MFMA_B, n0, 2 * h + q, false), s->row_bt,
			             s->u[n0], 4 * q, 0, NULL, &bb[h]);
			if (ta[q] == IR_NO_REF)
				ta[q] = read_at(s, bb[h], s->at_bt[n0][q]);
			tb[q] = pick(s, site(SITE_MFMA_A, n0, 2 * h + q, false), s->row_at,
			             s->u[n0], 4 * q, 1, &src1, va);
			if (tb[q] != IR_NO_REF)
				continue;
			if (v == IR_NO_REF)
				v = by_bit1(s, n0, a[2 * h + 1], a[2 * h]);
			tb[q] = read_at(s, v, s->at_at[n0][q]);
		}
		bool one = s->i8 || s->tf32;
		for (unsigned q = 0; q < (one ? 2u : 1u); q++) { /* s8, tf32: a chunk a register */
			unsigned n = one ? 1 : 2;
			ir_ref ra = tuple(b, ta + q, n), rb = tuple(b, tb + q, n);
			ir_ref args[3] = {ra, rb, acc};
			acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
			acc = u8_corrections(s, op, ra, rb, acc);
		}
	}
	ir_ref *dt = record_result(b, s->rec, acc, 4);
	for (unsigned x = 0; x < 4; x++) { /* D element x: register 2 (l1 ^ x1) + x0 */
		unsigned x0 = x & 1, x1 = x >> 1;
		ir_ref r0 = read_at(s, dt[x0], s->at_d[x1]),
		       r1 = read_at(s, dt[2 + x0], s->at_d[x1]);
		d[x] = by_bit1(s, x1, r1, r0);
	}
}

static ir_ref sel3(struct irb *b, ir_ref p, ir_ref x, ir_ref y) /* p ? x : y */
{
	ir_ref args[3] = {p, x, y};
	return irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
}

/* gfx1100 (wave32): one v_wmma_f32_16x16x16_f16 (bf16) computes D = A B + C with B and C
 * padded to 16 columns (columns 8-15 read the lanes of columns 0-7 and are dropped).  WMMA's
 * A[i][k] is register k/2 of lanes i and i+16, B[k][j] of lanes j and j+16, D[i][j]
 * register i/2 of lane 16 (i % 2) + j (docs/MATRIX_UNITS.md).  Per mma: A 16 reads + 8
 * selects (the NVIDIA register depends on the reader's row half, L3), B 8 reads, C 16 reads
 * + 8 selects, D 16 reads + 12 selects. */
static void wmma_m16n8k16(struct mfma_state *s, enum ir_matrix_op op, const ir_ref *a,
                          const ir_ref *bb, const ir_ref *c, ir_ref *d, ir_ref id)
{
	struct irb *b = s->b;
	ir_ref at_ab[4], at_c[4], at_d[2];
	ir_ref l7 = shl_k(b, and_k(b, id, 7), 4);
	ir_ref lc = op2(b, IR_OR, and_k(b, id, 16), and_k(b, shl_k(b, id, 1), 12));
	for (unsigned q = 0; q < 4; q++) { /* A, B: lane 4 (L & 7) + q; C: 8 q + 4 L4 + L2..1 */
		at_ab[q] = op2(b, IR_OR, l7, konst(b, q << 2));
		at_c[q] = op2(b, IR_OR, lc, konst(b, q << 5));
	}
	ir_ref ld = op2(b, IR_OR, and_k(b, shl_k(b, id, 4), 64), and_k(b, shl_k(b, id, 3), 24));
	at_d[0] = ld; /* D: lane 16 L2 + 2 (L & 3) + x0 */
	at_d[1] = op2(b, IR_OR, ld, konst(b, 4));
	ir_ref cmp[2] = {and_k(b, id, 8), konst(b, 0)};
	ir_ref bit3 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
	cmp[0] = and_k(b, id, 1);
	ir_ref bit0 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
	ir_ref ta[8], tb[8], tc[8];
	for (unsigned q = 0; q < 8; q++) {
		unsigned h = q >> 2;
		if (s->i8 ? h >= s->steps / 2
		          : h >= s->steps / 2) { /* m16n8k8, s8 k16: no k here */
			ta[q] = tb[q] = konst(b, 0);
			continue;
		}
		/* from LDS where the registers are an ldmatrix's (build_ldsm.c) */
		ta[q] = pick(s, site(SITE_WMMA_A, 0, q, false), l7, IR_NO_REF, 4 * (q & 3), 1,
		             &bit3, a + 2 * h);
		if (ta[q] == IR_NO_REF) {
			ir_ref r0 = read_at(s, a[2 * h], at_ab[q & 3]),
			       r1 = read_at(s, a[2 * h + 1], at_ab[q & 3]);
			ta[q] = sel3(b, bit3, r1, r0);
		}
		ir_ref bv[2] = {bb[h], s->pair ? bb[s->rb + h] : IR_NO_REF};
		tb[q] = pick(s, site(SITE_WMMA_B, 0, q, s->pair), l7, IR_NO_REF, 4 * (q & 3),
		             s->pair, &bit3, bv);
		if (tb[q] != IR_NO_REF)
			continue;
		tb[q] = read_at(s, bb[h], at_ab[q & 3]);
		if (s->pair) /* column L & 15: tile L3 */
			tb[q] = sel3(b, bit3, read_at(s, bb[s->rb + h], at_ab[q & 3]), tb[q]);
	}
	for (unsigned q = 0; q < 8 && s->chain == IR_NO_REF; q++) {
		unsigned h = q >> 2; /* C register q: row 2q + L4, column L & 15: element 2h + L0 */
		if (s->zero_c) {
			tc[q] = konst(b, 0);
			continue;
		}
		ir_ref r0 = read_at(s, c[2 * h], at_c[q & 3]),
		       r1 = read_at(s, c[2 * h + 1], at_c[q & 3]);
		ir_ref selc[3] = {bit0, r1, r0};
		tc[q] = irb_emit(b, IR_SELECT, IR_T_I32, selc, 3, 0, 0);
		if (s->pair) { /* columns 8-15: tile 1's C, the same lanes */
			ir_ref u0 = read_at(s, c[4 + 2 * h], at_c[q & 3]),
			       u1 = read_at(s, c[5 + 2 * h], at_c[q & 3]);
			tc[q] = sel3(b, bit3, sel3(b, bit0, u1, u0), tc[q]);
		}
	}
	ir_ref ha[2] = {tuple(b, ta, 4), tuple(b, ta + 4, 4)};
	ir_ref hb[2] = {tuple(b, tb, 4), tuple(b, tb + 4, 4)};
	ir_ref acc = s->chain;
	if (acc == IR_NO_REF) {
		ir_ref hc[2] = {tuple(b, tc, 4), tuple(b, tc + 4, 4)};
		if (!s->zero_c)
			s->rec->ctup[0] = hc[0], s->rec->ctup[1] = hc[1];
		acc = irb_emit(b, IR_MTUP, IR_T_I32, hc, 2, 1, 0);
	}
	if (s->i4) { /* iu4: 2 registers (16 k) per WMMA */
		for (unsigned w = 0; w < s->steps; w++) {
			ir_ref args[3] = {tuple(b, ta + 2 * w, 2), tuple(b, tb + 2 * w, 2), acc};
			acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
		}
	} else if (s->i8) { /* iu8: 4 registers (16 k) per WMMA, one per 16 k */
		for (unsigned w = 0; w < s->steps / 2; w++) {
			ir_ref args[3] = {ha[w], hb[w], acc};
			acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
		}
	} else {
		ir_ref args[3] = {irb_emit(b, IR_MTUP, IR_T_I32, ha, 2, 1, 0),
		                  irb_emit(b, IR_MTUP, IR_T_I32, hb, 2, 1, 0), acc};
		acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
	}
	ir_ref *dt = record_result(b, s->rec, acc, 8);
	ir_ref g1 = bit3;
	cmp[0] = and_k(b, id, 16);
	ir_ref g2 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
	for (unsigned x = 0; x < (s->pair ? 8u : 4u); x++) { /* D x: register (g >> 1) + 4 x1 */
		unsigned x0 = x & 1, x1 = (x >> 1) & 1;
		ir_ref from = x >= 4 ? op2(b, IR_OR, at_d[x0], konst(b, 32)) : at_d[x0], r[4];
		for (unsigned k = 0; k < 4; k++) /* tile 1: columns 8-15, lanes + 8 */
			r[k] = read_at(s, dt[k + 4 * x1], from);
		ir_ref lo[3] = {g1, r[1], r[0]}, hi[3] = {g1, r[3], r[2]};
		ir_ref pick[3] = {g2, irb_emit(b, IR_SELECT, IR_T_I32, hi, 3, 0, 0),
		                  irb_emit(b, IR_SELECT, IR_T_I32, lo, 3, 0, 0)};
		d[x] = irb_emit(b, IR_SELECT, IR_T_I32, pick, 3, 0, 0);
	}
}

static ir_ref lane_bit(struct irb *b, ir_ref id, unsigned bit)
{
	ir_ref cmp[2] = {and_k(b, id, 1u << bit), konst(b, 0)};
	return irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
}

/* wmma12_m16n8k16's operand register q from LDS where the registers are an ldmatrix's
 * (build_ldsm.c): the same selects, of row addresses; IR_NO_REF where they are not.
 * B^T (bt): B register L4 (k8: zero for L4), pairs: of tile L3; A^T: A register L3 + 2 L4
 * (k8: L3, zero for L4). */
static ir_ref wmma12_load(struct mfma_state *s, bool bt, unsigned q, ir_ref l7, const ir_ref *v)
{
	struct irb *b = s->b;
	bool k8 = s->steps == 2, pair = bt && s->pair;
	ir_ref b3 = lane_bit(b, s->id, 3), b4 = lane_bit(b, s->id, 4);
	ir_ref p[2] = {b3, b4};
	ir_ref bv[4] = {v[0], pair ? v[s->rb] : IR_NO_REF, k8 ? IR_NO_REF : v[1],
	                pair && !k8 ? v[s->rb + 1] : IR_NO_REF};
	unsigned np = bt ? (unsigned)pair + !k8 : k8 ? 1 : 2;
	ir_ref x = pick(s, site(bt ? SITE_WMMA12_A : SITE_WMMA12_B, k8, q, pair), l7, IR_NO_REF,
	                4 * q, np, bt && !pair ? p + 1 : p, bt ? bv : v);
	return x == IR_NO_REF || !k8 ? x : sel3(b, b4, konst(b, 0), x);
}

/* wmma12_m16n8k16's B^T register q by lane reads: B register L4, pairs: of tile L3 */
static ir_ref wmma12_bt(struct mfma_state *s, const ir_ref *bb, ir_ref at, ir_ref b3, ir_ref b4)
{
	struct irb *b = s->b;
	bool k8 = s->steps == 2;
	ir_ref lo = read_at(s, bb[0], at);
	ir_ref t = sel3(b, b4, k8 ? konst(b, 0) : read_at(s, bb[1], at), lo);
	if (s->pair) { /* rows n = L & 15 of B^T: tile L3 */
		ir_ref lo1 = read_at(s, bb[s->rb], at);
		t = sel3(b, b3, sel3(b, b4, k8 ? konst(b, 0) : read_at(s, bb[s->rb + 1], at), lo1),
		         t);
	}
	return t;
}

/* gfx1200 (wave32, RDNA4: no replication, lanes 16-31 hold the upper half of K, C/D[i][j]
 * register i % 8 of lane j + 16 (i / 8)): one v_wmma_f32_16x16x16_f16 (bf16) computes the
 * product transposed, D^T = B^T A^T + C^T, with the n rows 8-15 padding (lanes 16-31 of C and
 * D, rows 8-15 of the WMMA's A).  Per lane L: WMMA A (B^T) register q holds B[8 L4 + 2q..][L
 * & 15] from NVIDIA lane 4 (L & 7) + q, B register L4; WMMA B (A^T) register q holds A[L &
 * 15][8 L4 + 2q..] from the same lane, A register L3 + 2 L4; C^T register r from lane 4 (L &
 * 7) + r / 2, C element 2 L3 + r % 2; D element x of NVIDIA lane l is register 2 (l & 3) +
 * x0 of lane (l >> 2) + 8 x1.  Per mma 56 reads and 31 selects, one WMMA. */
static void wmma12_m16n8k16(struct mfma_state *s, enum ir_matrix_op op, const ir_ref *a,
                            const ir_ref *bb, const ir_ref *c, ir_ref *d, ir_ref id)
{
	struct irb *b = s->b;
	bool k8 = s->steps == 2;
	ir_ref at[4], l7 = shl_k(b, and_k(b, id, 7), 4);
	for (unsigned q = 0; q < 4; q++)
		at[q] = op2(b, IR_OR, l7, konst(b, q << 2));
	ir_ref b0 = lane_bit(b, id, 0), b1 = lane_bit(b, id, 1), b3 = lane_bit(b, id, 3),
	       b4 = lane_bit(b, id, 4);
	ir_ref ta[4], tb[4], tc[8];
	for (unsigned q = 0; q < 4; q++) {
		ta[q] = wmma12_load(s, true, q, l7, bb);
		tb[q] = wmma12_load(s, false, q, l7, a);
		if (ta[q] == IR_NO_REF)
			ta[q] = wmma12_bt(s, bb, at[q], b3, b4);
		if (tb[q] != IR_NO_REF)
			continue;
		ir_ref r[4];
		for (unsigned k = 0; k < (k8 ? 2u : 4u); k++)
			r[k] = read_at(s, a[k], at[q]);
		ir_ref half0 = sel3(b, b3, r[1], r[0]);
		tb[q] = sel3(b, b4, k8 ? konst(b, 0) : sel3(b, b3, r[3], r[2]), half0);
	}
	ir_ref acc = s->chain;
	if (acc == IR_NO_REF) {
		for (unsigned r = 0; r < 8; r++) { /* lanes 16-31: n 8-15, tile 1 */
			tc[r] = sel3(b, b3, read_at(s, c[2 + (r & 1)], at[r >> 1]),
			             read_at(s, c[r & 1], at[r >> 1]));
			if (s->pair)
				tc[r] = sel3(b, b4,
				             sel3(b, b3, read_at(s, c[6 + (r & 1)], at[r >> 1]),
				                  read_at(s, c[4 + (r & 1)], at[r >> 1])),
				             tc[r]);
		}
		ir_ref hc[2] = {tuple(b, tc, 4), tuple(b, tc + 4, 4)};
		s->rec->ctup[0] = hc[0], s->rec->ctup[1] = hc[1];
		acc = irb_emit(b, IR_MTUP, IR_T_I32, hc, 2, 1, 0);
	}
	ir_ref args[3] = {tuple(b, ta, 4), tuple(b, tb, 4), acc};
	acc = irb_emit(b, IR_MATRIX, IR_T_I32, args, 3, op, 0);
	ir_ref *dt = record_result(b, s->rec, acc, 8);
	ir_ref ld = and_k(b, id, 28);
	for (unsigned x = 0; x < (s->pair ? 8u : 4u); x++) { /* tile 1: lanes + 16 */
		unsigned x0 = x & 1, x1 = (x >> 1) & 1;
		ir_ref from = op2(b, IR_OR, ld, konst(b, 32 * x1 + (x >= 4 ? 64 : 0))), r[4];
		for (unsigned t = 0; t < 4; t++)
			r[t] = read_at(s, dt[2 * t + x0], from);
		d[x] = sel3(b, b1, sel3(b, b0, r[3], r[2]), sel3(b, b0, r[1], r[0]));
	}
}

/* The record whose D registers hold exactly `cvar` (this mma's C), searched back a few. */
static struct mma_unit_rec *chain_of(struct irb *b, const ir_ref *cvar, unsigned nv)
{
	unsigned n = 0;
	for (struct mma_unit_rec *r = b->mma_recs; r && n < CHAIN_LOOKBACK; r = r->next, n++) {
		if (r->family != b->fn->matrix_unit || r->nv != nv || r->dvar[0] == IR_NO_REF)
			continue;
		bool same = true;
		for (unsigned x = 0; x < nv; x++)
			same &= cvar[x] != IR_NO_REF && r->dvar[x] == cvar[x];
		if (same)
			return r;
	}
	return NULL;
}

bool mma_matrix_unit(struct irb *b, const struct mma_fast *q, const ir_ref *a, const ir_ref *bb,
                     const ir_ref *c, const ir_ref *cvar, ir_ref *d)
{
	unsigned mu = b->fn->matrix_unit;
	if (mu == IR_MU_NONE || (mu != IR_MU_MFMA && b->fn->wave_size != 32) || q->m != 16 ||
	    (q->n != 8 && (q->n != 16 || mu == IR_MU_MFMA)) || !q->sync)
		return false;
	/* bytes: s8 x s8 and mixed s8/u8 on MFMA (u8_corrections), any mix on gfx1100's iu8 */
	bool sa = q->ea == EK_S8, sb = q->eb == EK_S8;
	bool i8 = (sa || q->ea == EK_U8) && (sb || q->eb == EK_U8);
	if (i8 && (mu == IR_MU_WMMA12 || (mu == IR_MU_MFMA && !sa && !sb)))
		return false; /* gfx1200 iu8: its byte packing is not settled (MATRIX_UNITS.md) */
	/* nibbles: gfx1100's iu4 (mma_nibbles: the registers move as an .s8 form's of k / 2) */
	bool i4 = mma_nibbles(b, q), i4m = mma_nibbles_as_bytes(b, q); /* i4m: as .s8 bytes */
	if (i4)
		i8 = true, sa = q->ea == EK_S4, sb = q->eb == EK_S4;
	if (i4m)
		i8 = sa = sb = true;
	if (!i8 && q->ea != q->eb)
		return false;
	bool tf32 = q->ea == EK_TF32; /* gfx90a/gfx942: v_mfma_f32_4x4x1f32 */
	bool f32cd = q->ec == EK_F32 && q->ed == EK_F32;
	bool ok = tf32 ? b->fn->matrix_unit == IR_MU_MFMA && (q->k == 8 || q->k == 4) && f32cd
	          : i8 ? (q->k == (i4 || i4m ? 64u : 32u) || q->k == (i4 || i4m ? 32u : 16u)) &&
	                          q->ec == EK_S32 && q->ed == EK_S32
	               : (q->k == 16 || q->k == 8) && (q->ea == EK_F16 || q->ea == EK_BF16) &&
	                          f32cd && !q->satfinite;
	if (!ok)
		return false;
	unsigned nv = q->n / 2;
	ir_ref nocvar[8];
	for (unsigned x = 0; x < nv; x++)
		nocvar[x] = IR_NO_REF;
	if (q->satfinite)
		cvar = nocvar; /* C is added after the unit: no chain into it */
	struct mma_unit_rec *rec = PA_NEW(b->arena, struct mma_unit_rec);
	*rec = (struct mma_unit_rec){.family = b->fn->matrix_unit, .block = b->cur, .nv = nv};
	for (unsigned x = 0; x < nv; x++) {
		rec->cvar[x] = cvar[x];
		rec->dvar[x] = IR_NO_REF;
	}
	rec->ctup[0] = rec->ctup[1] = IR_NO_REF;
	struct mma_unit_rec *from = chain_of(b, cvar, nv);
	struct mfma_state s = {.b = b,
	                       .rec = rec,
	                       .chain = from ? from->acc : IR_NO_REF,
	                       .steps = q->k / (i4     ? 16
	                                        : i8   ? 8
	                                        : tf32 ? 2
	                                               : 4),
	                       .i8 = i8,
	                       .i4 = i4,
	                       .ua = i8 && mu == IR_MU_MFMA && !sa,
	                       .ub = i8 && mu == IR_MU_MFMA && !sb,
	                       .tf32 = tf32,
	                       .zero_c = q->satfinite,
	                       .pair = q->n == 16,
	                       .rb = i4   ? q->k / 32
	                             : i8 ? q->k / 16
	                                  : q->k / 8};
	/* one lane id per block: value numbering does not merge SREGs, and through it the
	 * addresses, selects and shuffles of mma's sharing an operand (hgemm_mma's A) merge */
	struct mma_unit_rec *prev = b->mma_recs;
	ir_ref id = prev && prev->block == b->cur && prev->lane != IR_NO_REF
	                    ? prev->lane
	                    : irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	rec->lane = id;
	s.id = id;
	rec->next = b->mma_recs;
	b->mma_recs = rec;
	if (mu == IR_MU_WMMA12) {
		wmma12_m16n8k16(&s, q->ea == EK_F16 ? IR_MX_WMMA12_F32_F16 : IR_MX_WMMA12_F32_BF16,
		                a, bb, c, d, id);
	} else if (mu == IR_MU_WMMA11) {
		wmma_m16n8k16(&s,
		              i8 ? (i4 ? IR_MX_WMMA_I32_IU4 : IR_MX_WMMA_I32_IU8) |
		                              (unsigned)sa << 8 | (unsigned)sb << 9
		              : q->ea == EK_F16 ? IR_MX_WMMA_F32_F16
		                                : IR_MX_WMMA_F32_BF16,
		              a, bb, c, d, id);
	} else {
		addresses(&s, id);
		ir_ref cmp[2] = {op2(b, IR_AND, id, konst(b, 2)), konst(b, 0)};
		s.bit1 = irb_emit(b, IR_ICMP, IR_T_PRED, cmp, 2, IR_CMP_NE, 0);
		/* tf32: the unit reads the top 19 bits, as the portable code; .u8: the bytes ^ 0x80
		 * (u8_corrections) */
		ir_ref ta[4], tb[2];
		for (unsigned r = 0; tf32 && r < q->k / 2; r++)
			ta[r] = and_k(b, a[r], 0xffffe000u);
		for (unsigned r = 0; tf32 && r < q->k / 4; r++)
			tb[r] = and_k(b, bb[r], 0xffffe000u);
		for (unsigned r = 0; s.ua && r < q->k / 8; r++)
			ta[r] = op2(b, IR_XOR, a[r], konst(b, 0x80808080u));
		for (unsigned r = 0; s.ub && r < q->k / 16; r++)
			tb[r] = op2(b, IR_XOR, bb[r], konst(b, 0x80808080u));
		ir_ref a8[8], b8[4];
		if (i4m)
			mma_nibbles_bytes(b, q, a, bb, a8, b8);
		mfma_m16n8k16(&s,
		              tf32              ? IR_MX_F32_4X4X1_F32
		              : i8              ? IR_MX_I32_4X4X4_I8
		              : q->ea == EK_F16 ? IR_MX_F32_4X4X4_F16
		                                : IR_MX_F32_4X4X4_BF16,
		              i4m            ? a8
		              : tf32 || s.ua ? ta
		                             : a,
		              i4m            ? b8
		              : tf32 || s.ub ? tb
		                             : bb,
		              c, d);
	}
	for (unsigned x = 0; x < nv && q->satfinite; x++) /* the sum is exact: saturate + C */
		d[x] = op2(b, IR_ADD_SAT_S, d[x], c[x]);
	return true;
}

void mma_matrix_written(struct irb *b, unsigned back, const ir_ref *dvar)
{
	struct mma_unit_rec *r = b->mma_recs;
	for (unsigned i = 0; i < back && r; i++)
		r = r->next;
	for (unsigned x = 0; r && x < r->nv; x++)
		r->dvar[x] = dvar[x];
}

/* ---- chains through loop phis (after every block is sealed) ---- */

static struct irb_phi *phi_of(struct irb *b, ir_ref v)
{
	if (v == IR_NO_REF || b->fn->vals[v].kind != IR_VAL_INSN)
		return NULL;
	for (struct irb_phi *p = b->bstate[b->fn->vals[v].block].phis; p; p = p->next)
		if (p->res == v)
			return p;
	return NULL;
}

/* The value v stands for once trivial phis are removed (opt.c does that later): a phi whose
 * operands, resolved the same way, are one value apart from itself and the phis being
 * resolved above it (a web of phis passing one value around).  The C a mma reads in a loop
 * body behind joins (the staging loops of hgemm_mma: if / loop / if between the loop header
 * and the mma) is such a chain of phis over the header's accumulator phi.  The walk is
 * bounded (depth, operands looked at; results that did not rely on skipping an outer phi are
 * memoised); out of budget, v stays itself (no chain: only slower code). */
enum { RESOLVE_DEPTH = 16, RESOLVE_BUDGET = 1024, RESOLVE_MEMO = 32 };

struct resolver {
	struct irb *b;
	ir_ref stack[RESOLVE_DEPTH];  /* the phis being resolved, outermost first */
	unsigned budget;              /* phi operands left to look at */
	ir_ref memo[RESOLVE_MEMO][2]; /* (phi, value) resolved without skipping an outer phi */
	unsigned nmemo;
};

/* *skipped: the result relied on skipping an outer phi (valid only inside that walk). */
static ir_ref resolve_trivial(struct resolver *r, ir_ref v, unsigned depth, bool *skipped)
{
	struct irb_phi *p = phi_of(r->b, v);
	if (!p || !p->args || depth == RESOLVE_DEPTH)
		return v;
	for (unsigned k = 0; k < r->nmemo; k++)
		if (r->memo[k][0] == v)
			return r->memo[k][1];
	r->stack[depth] = v;
	ir_ref one = IR_NO_REF;
	bool skip = false;
	const struct ir_block *bl = &r->b->fn->blocks[r->b->fn->vals[v].block];
	for (uint32_t i = 0; i < bl->npreds; i++) {
		if (r->budget == 0) {
			*skipped = true; /* not memoised: out of budget, v stands for itself */
			return v;
		}
		r->budget--;
		ir_ref a = p->args[i];
		bool above = false;
		for (unsigned k = 0; k <= depth; k++)
			above |= r->stack[k] == a;
		if (above) {
			skip |= a != v;
			continue;
		}
		a = resolve_trivial(r, a, depth + 1, &skip);
		if (one != IR_NO_REF && a != one) {
			one = v;
			break;
		}
		one = a;
	}
	if (one == IR_NO_REF)
		one = v;
	if (!skip && r->nmemo < RESOLVE_MEMO) {
		r->memo[r->nmemo][0] = v;
		r->memo[r->nmemo++][1] = one;
	}
	*skipped |= skip;
	return one;
}

static ir_ref resolved(struct irb *b, ir_ref v)
{
	struct resolver r = {.b = b, .budget = RESOLVE_BUDGET};
	bool skipped = false;
	return resolve_trivial(&r, v, 0, &skipped);
}

static bool is_zero(struct irb *b, ir_ref v)
{
	return b->fn->vals[v].kind == IR_VAL_CONST && b->fn->vals[v].bits == 0;
}

/* The record whose D registers are vals[0..3] exactly (its family), or NULL. */
static struct mma_unit_rec *rec_of(struct irb *b, unsigned family, unsigned nv, const ir_ref *vals)
{
	for (struct mma_unit_rec *r = b->mma_recs; r; r = r->next) {
		if (r->family != family || r->nv != nv || r->dvar[0] == IR_NO_REF)
			continue;
		bool same = true;
		for (unsigned x = 0; x < nv; x++)
			same &= r->dvar[x] == vals[x];
		if (same)
			return r;
	}
	return NULL;
}

static void patch_tuple(struct irb *b, uint32_t block, ir_ref tup, const ir_ref *vals)
{
	struct ir_block *bl = &b->fn->blocks[block];
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].res == tup && bl->insns[i].op == IR_MTUP) {
			for (unsigned k = 0; k < bl->insns[i].nargs; k++)
				bl->insns[i].args[k] = vals[k];
			return;
		}
}

/* m's C through phis of one block whose every incoming value is a record's D, zeros, or the
 * phis themselves (a loop that does not touch the accumulator: nvcc's wmma GEMM stages its
 * tiles in loops between the mma's). */
static void chain_through_phis(struct irb *b, struct mma_unit_rec *m)
{
	struct irb_phi *p[8] = {0}; /* nv >= 4 entries set below */
	for (unsigned x = 0; x < m->nv; x++) {
		p[x] = phi_of(b, resolved(b, m->cvar[x]));
		if (!p[x] || !p[x]->args ||
		    b->fn->vals[p[x]->res].block != b->fn->vals[p[0]->res].block)
			return;
	}
	uint32_t h = b->fn->vals[p[0]->res].block;
	const struct ir_block *hb = &b->fn->blocks[h];
	struct mma_unit_rec **from = PA_NEW_ARRAY(b->arena, struct mma_unit_rec *, hb->npreds + 1);
	bool *self = PA_NEW_ARRAY(b->arena, bool, hb->npreds + 1);
	for (uint32_t i = 0; i < hb->npreds; i++) {
		ir_ref in[8];
		bool zero = true;
		self[i] = true;
		for (unsigned x = 0; x < m->nv; x++) {
			in[x] = resolved(b, p[x]->args[i]);
			zero &= is_zero(b, in[x]);
			self[i] &= in[x] == p[x]->res;
		}
		from[i] = zero || self[i] ? NULL : rec_of(b, m->family, m->nv, in);
		if (!zero && !self[i] && !from[i])
			return;
	}
	ir_ref np[8];
	for (unsigned j = 0; j < m->ndt; j++) {
		struct irb_phi *q = PA_NEW(b->arena, struct irb_phi);
		q->res = ir_new_value(b->fn, IR_T_I32, h);
		q->var = p[0]->var;
		q->incomplete = false;
		q->args = PA_NEW_ARRAY(b->arena, ir_ref, hb->npreds + 1);
		for (uint32_t i = 0; i < hb->npreds; i++)
			q->args[i] = from[i] ? from[i]->dt[j] : self[i] ? q->res : konst(b, 0);
		q->next = b->bstate[h].phis;
		b->bstate[h].phis = q;
		np[j] = q->res;
	}
	for (unsigned t = 0; t < m->ndt / 4; t++)
		patch_tuple(b, m->block, m->ctup[t], np + 4 * t);
}

/* m's C is, once trivial phis are removed, exactly an earlier record's D (an mma in another
 * block: nvcc's wmma GEMM stages its next tiles in loops that leave the accumulators alone,
 * so the mma after the loop reads the one before it through the loop header's trivial phis):
 * C reads that record's dwords instead of shuffling D back and forth.  Those dwords dominate
 * m: they are defined in the record's block before its D registers' values, which m reads. */
static bool chain_through_trivial(struct irb *b, struct mma_unit_rec *m)
{
	ir_ref in[8];
	for (unsigned x = 0; x < m->nv; x++) {
		if (m->cvar[x] == IR_NO_REF)
			return false;
		in[x] = resolved(b, m->cvar[x]);
	}
	struct mma_unit_rec *from = rec_of(b, m->family, m->nv, in);
	if (!from || from == m || from->ndt != m->ndt)
		return false;
	for (unsigned t = 0; t < m->ndt / 4; t++)
		patch_tuple(b, m->block, m->ctup[t], from->dt + 4 * t);
	return true;
}

void irb_mma_finish(struct irb *b)
{
	for (struct mma_unit_rec *m = b->mma_recs; m; m = m->next)
		if (m->ctup[0] != IR_NO_REF && !chain_through_trivial(b, m))
			chain_through_phis(b, m);
}
