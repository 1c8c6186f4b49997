/* sem_matrix: the matrix instructions -- MFMA (gfx90a, gfx942), WMMA (gfx1100, gfx1200) -- and
 * the packed dot products (v_dot2_f32_f16, the v_dot4/v_dot8 integer forms).
 *
 * Operand layouts (docs/MATRIX_UNITS.md lists them per instruction with their sources):
 *  - MFMA, AMD's Matrix Instruction Calculator (its CDNA rules; CDNA3 keeps them for its new
 *    shapes): an A (B) operand of M x K (K x N) in `blocks` blocks holds kpl = K*M*blocks/64
 *    consecutive k per lane: A[i][k] of block b is element k % kpl of lane
 *    b*M + (k / kpl)*M*blocks + i, elements packed from bit 0 of the first register (B[k][j]
 *    likewise with j).  C/D fill groups of h = 4 rows (64-bit: 1 row, register pairs):
 *    register b*(M*N/64) + (i / (h*64/N))*h + i%h, lane (b % bpr)*N + ((i/h) % (64/N))*bpr*N
 *    + j, bpr = the blocks sharing a register.  cbsz/abid: block b reads A of block
 *    (b >> cbsz << cbsz) + abid; blgp picks the lanes B is read from (blgp_lane).
 *  - WMMA gfx11 (RDNA3 ISA, the calculator's RDNA3 rules): A[i][k] is element k of lanes i and
 *    i + 16 (both halves hold the whole operand), B[k][j] element k of lanes j and j + 16;
 *    C/D row i is register i/2, lane 16*(i%2) + j; a 16-bit C/D uses one half of each
 *    register (op_sel[2]) and keeps the other.
 *  - WMMA gfx12 (RDNA4 ISA): no replication: lanes 0-15 hold k < K/2, lanes 16-31 the rest
 *    (element k % (K/2)); C/D row i is register i%8 (16-bit: half (i%8)%2 of register
 *    (i%8)/2), lane j + 16*(i/8).
 * Arithmetic (a model: the hardware's accumulation order and rounding are not published as
 * one IEEE operation): products of f16/bf16/tf32/f32 are exact in binary64; a float result is
 * C plus the K products added in k order in binary64, rounded once to the result type (nearest
 * even); f64 MFMA chains fma() in k order; integer forms are exact modulo 2^32 (WMMA clamp
 * saturates).  Inputs are used as they are (no MODE denormal flushing in this model).  In
 * strict mode a WMMA with EXEC not all ones, or (gfx11) A/B lane halves that differ, is
 * reported.  complexity: O(M*N*K*blocks) per instruction. */
#include <math.h>
#include <string.h>

#include "amd_isa.h"
#include "valu.h"

enum { MAX_OUT = 2048 }; /* results per instruction: two 32x32 blocks at most */

struct slot {
	unsigned lane, reg, half; /* reg: VGPR offset in the C/D tuple; half: 16-bit results */
};

struct matrix_op {
	const struct amd_matrix_info *mi;
	enum amd_mtype ab, cd;
	unsigned sa, sb, dreg, creg; /* first registers (creg valid when c_is_reg) */
	bool c_is_reg;
	unsigned nin, nout; /* registers of A (and B), of C/D */
};

/* Raw bits of element e (of `bits` bits) in lane l of the register tuple at reg. */
static uint64_t elem_bits(const struct sim_wave *w, unsigned reg, unsigned l, unsigned e,
                          unsigned bits)
{
	unsigned bit = e * bits, r = reg + bit / 32;
	if (bits == 64)
		return (uint64_t)w->v[(size_t)(r + 1) * SIM_WAVE_STRIDE + l] << 32 |
		       w->v[(size_t)r * SIM_WAVE_STRIDE + l];
	uint32_t v = w->v[(size_t)r * SIM_WAVE_STRIDE + l] >> (bit % 32);
	return bits == 32 ? v : v & ((1u << bits) - 1);
}

/* gfx942's 8-bit floats (FNUZ: bias 2^(exponent bits - 1), no infinity, no negative zero:
 * 0x80 is the NaN) with `mant` mantissa bits. */
static double fnuz8(uint64_t raw, unsigned mant)
{
	unsigned ebits = 7 - mant, bias = 1u << (ebits - 1);
	unsigned e = (unsigned)(raw >> mant) & ((1u << ebits) - 1),
	         m = (unsigned)raw & ((1u << mant) - 1);
	if ((raw & 0xff) == 0x80)
		return NAN;
	double v = e ? ldexp(1.0 + m / (double)(1u << mant), (int)e - (int)bias)
	             : ldexp(m / (double)(1u << mant), 1 - (int)bias);
	return (raw & 0x80) ? -v : v;
}

/* An element as a double: exact for every type here (integers up to 32 bits). */
static double elem_value(uint64_t raw, enum amd_mtype t, bool is_signed)
{
	switch (t) {
	case AMD_MT_F16:
		return sim_f16_to_f32((uint16_t)raw);
	case AMD_MT_BF16:
		return sim_as_f32((uint32_t)raw << 16);
	case AMD_MT_XF32: /* tf32: the f32 operand with its low 13 mantissa bits ignored */
		return sim_as_f32((uint32_t)raw & 0xffffe000u);
	case AMD_MT_F32:
		return sim_as_f32((uint32_t)raw);
	case AMD_MT_F64:
		return sim_as_f64(raw);
	case AMD_MT_IU4:
		return is_signed ? (double)((int32_t)((uint32_t)raw << 28) >> 28) : (double)raw;
	case AMD_MT_I32:
		return (double)(int32_t)raw;
	case AMD_MT_FP8: /* E4M3FNUZ */
	case AMD_MT_BF8: /* E5M2FNUZ */
		return fnuz8(raw, t == AMD_MT_FP8 ? 3 : 2);
	default: /* I8, IU8 */
		return is_signed ? (double)(int8_t)raw : (double)(uint8_t)raw;
	}
}

/* The lane B is read from under blgp (AMD Matrix Instruction Calculator, "BLGP"). */
static unsigned blgp_lane(unsigned l, unsigned blgp)
{
	switch (blgp) {
	case 0:
		return l;
	case 1: /* lanes 0-31 also feed 32-63 */
		return l & 31;
	case 2: /* lanes 32-63 also feed 0-31 */
		return l | 32;
	case 3: /* rotated down by 16 lanes */
		return (l + 16) & 63;
	default: /* 4-7: lanes 16*(blgp-4) .. +15 feed all */
		return 16 * (blgp - 4) + (l & 15);
	}
}

/* The accumulator element at slot s: a C register or the inline constant. */
static double c_value(struct sim_wave *w, const struct sim_insn *in, const struct matrix_op *op,
                      struct slot s)
{
	if (!op->c_is_reg) {
		struct vsrc k;
		bool f64 = op->cd == AMD_MT_F64, half = amd_mtype_bits(op->cd) == 16;
		sim_vsrc(w, in, 2, f64 ? 64 : half ? 16 : 32, op->cd != AMD_MT_I32, &k);
		uint64_t b = f64 ? vs64(&k, 0) : vs32(&k, 0);
		return elem_value(half ? b & 0xffff : b, op->cd, true);
	}
	unsigned bits = amd_mtype_bits(op->cd);
	unsigned e = bits == 16 ? 2 * s.reg + s.half : bits == 64 ? s.reg / 2 : s.reg;
	return elem_value(elem_bits(w, op->creg, s.lane, e, bits), op->cd, true);
}

static uint16_t to_bf16(double v)
{
	uint32_t b = sim_f32_bits((float)v); /* bf16 has f32's range: round the f32 bits */
	if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu))
		return (uint16_t)((b >> 16) | 0x40);
	return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

/* Writes one result; a 16-bit result keeps the other half of its register. */
static void put_result(struct sim_wave *w, const struct matrix_op *op, struct slot s, double v,
                       bool clamp)
{
	uint32_t *d = &w->v[(size_t)(op->dreg + s.reg) * SIM_WAVE_STRIDE];
	switch (op->cd) {
	case AMD_MT_F64: {
		uint64_t b = sim_f64_bits(v);
		d[s.lane] = (uint32_t)b;
		d[SIM_WAVE_STRIDE + s.lane] = (uint32_t)(b >> 32);
		break;
	}
	case AMD_MT_I32: {
		int64_t iv = (int64_t)v; /* exact: |v| < 2^53 for every shape here */
		if (clamp)
			iv = iv > INT32_MAX ? INT32_MAX : iv < INT32_MIN ? INT32_MIN : iv;
		d[s.lane] = (uint32_t)iv;
		break;
	}
	case AMD_MT_F16:
	case AMD_MT_BF16: {
		uint32_t h = op->cd == AMD_MT_F16 ? sim_f32_to_f16((float)v) : to_bf16(v);
		uint32_t keep = s.half ? 0xffffu : 0xffff0000u;
		d[s.lane] = (d[s.lane] & keep) | h << (16 * s.half);
		break;
	}
	default:
		d[s.lane] = sim_f32_bits((float)v);
		break;
	}
}

static double int_wrap(double v)
{
	return (double)(int32_t)(uint32_t)(int64_t)v;
}

/* Fetches the operand registers; false (after a fault) when one is not a VGPR tuple. */
static bool matrix_setup(struct sim_wave *w, const struct sim_insn *in, struct matrix_op *op,
                         unsigned acc_ab, bool acc_cd)
{
	int row = amd_isa_decode(w->ctx->gen, AMD_FMT_VOP3P, in->op);
	op->mi = row < 0 ? NULL : amd_isa_matrix((enum amd_opcode)row);
	if (!op->mi || in->src[0] < SIM_VGPR0 || in->src[1] < SIM_VGPR0 || in->dst < SIM_VGPR0) {
		sim_fault(w, "matrix instruction with a non-VGPR A/B/D operand");
		return false;
	}
	const struct amd_matrix_info *mi = op->mi;
	op->ab = (enum amd_mtype)mi->ab_type, op->cd = (enum amd_mtype)mi->cd_type;
	unsigned bits_in = amd_mtype_bits(op->ab), cdbits = amd_mtype_bits(op->cd);
	if (w->ctx->gen <= AMD_GFX940) { /* MFMA: kpl elements per lane, C/D over 64 lanes */
		unsigned kpl = mi->k * mi->m * mi->blocks / 64;
		op->nin = kpl * bits_in < 32 ? 1 : kpl * bits_in / 32;
		op->nout = mi->m * mi->n * mi->blocks / 64 * (cdbits == 64 ? 2 : 1);
	} else { /* WMMA wave32: gfx11 K elements per lane, gfx12 K/2; C/D 8 rows per lane */
		unsigned kpl = w->ctx->gen == AMD_GFX11 ? mi->k : mi->k / 2;
		op->nin = kpl * bits_in < 32 ? 1 : kpl * bits_in / 32;
		op->nout = cdbits == 16 && w->ctx->gen == AMD_GFX12 ? 4 : 8;
	}
	op->sa = in->src[0] - SIM_VGPR0 + ((acc_ab & 1) ? 256 : 0);
	op->sb = in->src[1] - SIM_VGPR0 + ((acc_ab & 2) ? 256 : 0);
	op->dreg = in->dst - SIM_VGPR0 + (acc_cd ? 256 : 0);
	op->c_is_reg = in->src[2] >= SIM_VGPR0;
	op->creg = op->c_is_reg ? in->src[2] - SIM_VGPR0 + (acc_cd ? 256 : 0) : 0;
	if (op->sa + op->nin > SIM_MAX_VREGS || op->sb + op->nin > SIM_MAX_VREGS ||
	    op->dreg + op->nout > SIM_MAX_VREGS || op->creg + op->nout > SIM_MAX_VREGS) {
		sim_fault(w, "matrix operand outside the register file");
		return false;
	}
	return true;
}

unsigned sim_matrix_cycles(const struct sim_wave *w, const struct sim_insn *in)
{
	int row = amd_isa_decode(w->ctx->gen, AMD_FMT_VOP3P, in->op);
	const struct amd_matrix_info *mi = row < 0 ? NULL : amd_isa_matrix((enum amd_opcode)row);
	return mi ? 4u * mi->passes[w->ctx->gen] : 4u;
}

/* ---- MFMA ---- */

static void v_mfma(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t w0, w1;
	memcpy(&w0, w->ctx->code + in->pc, 4);
	memcpy(&w1, w->ctx->code + in->pc + 4, 4);
	unsigned cbsz = (w0 >> 8) & 7, abid = (w0 >> 11) & 15, blgp = (w1 >> 29) & 7;
	struct matrix_op op;
	if (!matrix_setup(w, in, &op, (w1 >> 27) & 3, (w0 >> 15) & 1))
		return;
	const struct amd_matrix_info *mi = op.mi;
	unsigned neg = 0; /* gfx942 f64: the blgp field is neg:[a,b,c] */
	if (op.ab == AMD_MT_F64 && w->ctx->gen == AMD_GFX940)
		neg = blgp, blgp = 0;
	sim_chk_mfma_reads(w, in, op.sa, op.nin, op.sb, op.nin, op.c_is_reg ? op.creg : ~0u,
	                   op.nout, op.dreg);
	unsigned bits = amd_mtype_bits(op.ab), kpl = mi->k * mi->m * mi->blocks / 64;
	unsigned h = op.cd == AMD_MT_F64 ? 1 : 4, groups = 64 / mi->n;
	unsigned per_block = mi->m * mi->n / h; /* lanes x rows-in-group a block covers */
	unsigned bpr = per_block >= 64 ? 1 : 64 / per_block;
	if (mi->m * mi->n * mi->blocks > MAX_OUT) {
		sim_fault(w, "MFMA shape larger than amdsim's result buffer");
		return;
	}
	static const unsigned max_out = MAX_OUT;
	double res[MAX_OUT];
	struct slot at[MAX_OUT];
	unsigned nres = 0;
	for (unsigned b = 0; b < mi->blocks; b++) {
		unsigned a_block = (b >> cbsz << cbsz) + abid;
		for (unsigned i = 0; i < mi->m; i++)
			for (unsigned j = 0; j < mi->n && nres < max_out; j++) {
				unsigned reg =
				        b * (mi->m * mi->n / 64) + (i / (h * groups)) * h + i % h;
				struct slot s = {(b % bpr) * mi->n +
				                         ((i / h) % groups) * bpr * mi->n + j,
				                 op.cd == AMD_MT_F64 ? 2 * reg : reg, 0};
				double acc = c_value(w, in, &op, s);
				if (neg & 4)
					acc = -acc;
				for (unsigned k = 0; k < mi->k; k++) {
					unsigned la = (a_block % mi->blocks) * mi->m +
					              (k / kpl) * mi->m * mi->blocks + i;
					unsigned lb = blgp_lane(
					        b * mi->n + (k / kpl) * mi->n * mi->blocks + j,
					        blgp);
					double x =
					        elem_value(elem_bits(w, op.sa, la, k % kpl, bits),
					                   op.ab, true);
					double y =
					        elem_value(elem_bits(w, op.sb, lb, k % kpl, bits),
					                   (enum amd_mtype)mi->b_type, true);
					x = (neg & 1) ? -x : x, y = (neg & 2) ? -y : y;
					acc = op.cd == AMD_MT_F64 ? fma(x, y, acc) : acc + x * y;
					if (op.cd == AMD_MT_I32)
						acc = int_wrap(acc);
				}
				res[nres] = acc, at[nres++] = s;
			}
	}
	sim_chk_write_v(w, in, op.dreg, op.nout);
	for (unsigned r = 0; r < nres; r++)
		put_result(w, &op, at[r], res[r], false);
	sim_chk_mfma_done(w, in, op.dreg, op.nout, op.c_is_reg ? op.creg : ~0u);
}

/* ---- WMMA ---- */

/* gfx11: both lane halves of A and B must hold the same operand. */
static void check_replicated(struct sim_wave *w, const struct sim_insn *in, unsigned reg,
                             unsigned n, char which)
{
	for (unsigned r = reg; r < reg + n; r++)
		for (unsigned l = 0; l < 16; l++)
			if (VROW(w, r)[l] != VROW(w, r)[l + 16]) {
				sim_violation(
				        w, in,
				        "WMMA operand %c: v%u lane %u differs from lane %u (gfx11 "
				        "needs both lane halves to hold the same A/B)",
				        which, r, l, l + 16);
				return;
			}
}

static void v_wmma(struct sim_wave *w, const struct sim_insn *in)
{
	struct matrix_op op;
	if (w->nlanes != 32) { /* wave64 WMMA splits the operands differently: not modelled */
		sim_fault(w, "WMMA in wave64 is not implemented");
		return;
	}
	if (!matrix_setup(w, in, &op, 0, false))
		return;
	const struct amd_matrix_info *mi = op.mi;
	bool gfx11 = w->ctx->gen == AMD_GFX11, integer = op.cd == AMD_MT_I32;
	bool half_out = amd_mtype_bits(op.cd) == 16;
	sim_chk_read_v(w, in, op.sa, op.nin);
	sim_chk_read_v(w, in, op.sb, op.nin);
	if (op.c_is_reg)
		sim_chk_read_v(w, in, op.creg, op.nout);
	sim_chk_wmma_reads(w, in, op.sa, op.sb, op.nin);
	if (w->ctx->opt->strict && sim_exec(w) != w->exec_mask_all)
		sim_violation(w, in, "WMMA needs EXEC to be all ones");
	if (w->ctx->opt->strict && gfx11) {
		check_replicated(w, in, op.sa, op.nin, 'A');
		check_replicated(w, in, op.sb, op.nin, 'B');
	}
	unsigned bits = amd_mtype_bits(op.ab), khalf = mi->k / 2;
	bool a_signed = in->neg & 1, b_signed = (in->neg >> 1) & 1;
	double res[256];
	struct slot at[256];
	unsigned nres = 0;
	for (unsigned i = 0; i < 16; i++)
		for (unsigned j = 0; j < 16; j++) {
			struct slot s;
			if (gfx11)
				s = (struct slot){16 * (i % 2) + j, i / 2, (in->opsel >> 2) & 1};
			else if (half_out)
				s = (struct slot){j + 16 * (i / 8), (i % 8) / 2, (i % 8) % 2};
			else
				s = (struct slot){j + 16 * (i / 8), i % 8, 0};
			double acc = c_value(w, in, &op, s);
			for (unsigned k = 0; k < mi->k; k++) {
				unsigned la = gfx11 ? i : i + 16 * (k / khalf);
				unsigned lb = gfx11 ? j : j + 16 * (k / khalf);
				unsigned e = gfx11 ? k : k % khalf;
				double x = elem_value(elem_bits(w, op.sa, la, e, bits), op.ab,
				                      a_signed);
				double y = elem_value(elem_bits(w, op.sb, lb, e, bits), op.ab,
				                      b_signed);
				if (!integer &&
				    bits == 16) { /* neg_lo/neg_hi: low/high 16-bit halves */
					unsigned sel = e % 2 ? in->neg_hi : in->neg;
					x = (sel & 1) ? -x : x, y = (sel & 2) ? -y : y;
				}
				acc += x * y;
			}
			res[nres] = integer && !in->clamp ? int_wrap(acc) : acc, at[nres++] = s;
		}
	sim_chk_write_v(w, in, op.dreg, op.nout);
	for (unsigned r = 0; r < nres; r++)
		put_result(w, &op, at[r], res[r], in->clamp);
	sim_chk_wmma_done(w, in, op.dreg, op.nout);
}

/* ---- packed dot products ---- */

enum dot_kind { DOT2_F32_F16, DOT4_I8, DOT4_IU8, DOT4_U8, DOT8_I4, DOT8_IU4, DOT8_U4 };
enum { DOT_TIED = 16 }; /* v_dot2c/v_dot2acc/v_dot4c: the destination is the accumulator */

static void v_dot(struct sim_wave *w, const struct sim_insn *in)
{
	enum dot_kind kind = (enum dot_kind)(in->sem->arg & 15);
	bool tied = in->sem->arg & DOT_TIED;
	struct vsrc s[3];
	for (int i = 0; i < (tied ? 2 : 3); i++) {
		bool f16k = kind == DOT2_F32_F16 && i < 2 && in->src[i] >= 240 && in->src[i] <= 248;
		sim_vsrc(w, in, i, f16k ? 16 : 32, kind == DOT2_F32_F16 && (i == 2 || f16k), &s[i]);
		s[i].negm = s[i].absm = 0; /* neg_lo is signedness here (encoder refuses others) */
	}
	struct vctx v;
	uint32_t old[SIM_WAVE_STRIDE];
	if (tied) { /* the accumulator is the destination's value before the write */
		sim_chk_read_v(w, in, in->dst - SIM_VGPR0, 1);
		memcpy(old, VROW(w, in->dst - SIM_VGPR0), sizeof old);
	}
	sim_vbegin(w, in, &v, 32, false);
	uint32_t *d = VROW(w, v.dreg);
	unsigned n = kind == DOT2_F32_F16 ? 2 : kind <= DOT4_U8 ? 4 : 8, bits = 32 / n;
	bool sa = kind == DOT4_I8 || kind == DOT8_I4 ||
	          ((kind == DOT4_IU8 || kind == DOT8_IU4) && (in->neg & 1));
	bool sb = kind == DOT4_I8 || kind == DOT8_I4 ||
	          ((kind == DOT4_IU8 || kind == DOT8_IU4) && (in->neg & 2));
	bool unsigned_out = kind == DOT4_U8 || kind == DOT8_U4;
	FOR_LANES(v)
	{
		uint32_t a = vs32(&s[0], l), b = vs32(&s[1], l), c = tied ? old[l] : vs32(&s[2], l);
		if (kind == DOT2_F32_F16) {
			double r = (double)sim_as_f32(c);
			for (unsigned e = 0; e < 2; e++)
				r += (double)sim_f16_to_f32((uint16_t)(a >> 16 * e)) *
				     (double)sim_f16_to_f32((uint16_t)(b >> 16 * e));
			d[l] = sim_f32_bits(sim_fout32(w, in, (float)r));
			continue;
		}
		int64_t r = unsigned_out ? (int64_t)c : (int64_t)(int32_t)c;
		for (unsigned e = 0; e < n; e++) {
			uint32_t x = (a >> bits * e) & ((1u << bits) - 1);
			uint32_t y = (b >> bits * e) & ((1u << bits) - 1);
			int64_t xv = sa ? (int64_t)((int32_t)(x << (32 - bits)) >> (32 - bits)) : x;
			int64_t yv = sb ? (int64_t)((int32_t)(y << (32 - bits)) >> (32 - bits)) : y;
			r += xv * yv;
		}
		if (in->clamp && unsigned_out)
			r = r > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : r;
		else if (in->clamp)
			r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
		d[l] = (uint32_t)r;
	}
}

/* v_nop: a VALU instruction doing nothing (it ends the WMMA-after-WMMA hazard) */
static void v_nop(struct sim_wave *w, const struct sim_insn *in)
{
	(void)w, (void)in;
}

#define MFMA(n)                                                                                    \
	{                                                                                          \
#n, v_mfma, SIM_CLASS_MATRIX, SIM_MEM_NONE, SEM_MATRIX, 0, 0                       \
	}
#define WMMA(n)                                                                                    \
	{                                                                                          \
#n, v_wmma, SIM_CLASS_MATRIX, SIM_MEM_NONE, SEM_MATRIX, 0, 0                       \
	}
#define DOT(n, k)                                                                                  \
	{                                                                                          \
#n, v_dot, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU | SEM_DOT, 0, k                  \
	}

/* every LLVM spelling of every generation (the decoder looks semantics up by mnemonic) */
static const struct sim_sem matrix_sems[] = {
        MFMA(v_mfma_f32_4x4x4f16),
        MFMA(v_mfma_f32_4x4x4_16b_f16),
        MFMA(v_mfma_f32_16x16x16f16),
        MFMA(v_mfma_f32_16x16x16_f16),
        MFMA(v_mfma_f32_32x32x8f16),
        MFMA(v_mfma_f32_32x32x8_f16),
        MFMA(v_mfma_f32_16x16x16bf16_1k),
        MFMA(v_mfma_f32_16x16x16_bf16),
        MFMA(v_mfma_f32_32x32x8bf16_1k),
        MFMA(v_mfma_f32_32x32x8_bf16),
        MFMA(v_mfma_i32_16x16x16i8),
        MFMA(v_mfma_i32_32x32x8i8),
        MFMA(v_mfma_i32_16x16x32_i8),
        MFMA(v_mfma_i32_32x32x16_i8),
        MFMA(v_mfma_f32_16x16x8_xf32),
        MFMA(v_mfma_f32_32x32x4_xf32),
        MFMA(v_mfma_f32_16x16x4f32),
        MFMA(v_mfma_f32_16x16x4_f32),
        MFMA(v_mfma_f32_32x32x2f32),
        MFMA(v_mfma_f32_32x32x2_f32),
        MFMA(v_mfma_f64_16x16x4f64),
        MFMA(v_mfma_f64_16x16x4_f64),
        MFMA(v_mfma_f64_4x4x4f64),
        MFMA(v_mfma_f64_4x4x4_4b_f64),
        MFMA(v_mfma_f32_16x16x32_bf8_bf8),
        MFMA(v_mfma_f32_16x16x32_bf8_fp8),
        MFMA(v_mfma_f32_16x16x32_fp8_bf8),
        MFMA(v_mfma_f32_16x16x32_fp8_fp8),
        MFMA(v_mfma_f32_32x32x16_bf8_bf8),
        MFMA(v_mfma_f32_32x32x16_bf8_fp8),
        MFMA(v_mfma_f32_32x32x16_fp8_bf8),
        MFMA(v_mfma_f32_32x32x16_fp8_fp8),
        MFMA(v_mfma_f32_32x32x1f32),
        MFMA(v_mfma_f32_32x32x1_2b_f32),
        MFMA(v_mfma_f32_16x16x1f32),
        MFMA(v_mfma_f32_16x16x1_4b_f32),
        MFMA(v_mfma_f32_4x4x1f32),
        MFMA(v_mfma_f32_4x4x1_16b_f32),
        MFMA(v_mfma_f32_32x32x4f16),
        MFMA(v_mfma_f32_32x32x4_2b_f16),
        MFMA(v_mfma_f32_16x16x4f16),
        MFMA(v_mfma_f32_16x16x4_4b_f16),
        MFMA(v_mfma_i32_32x32x4i8),
        MFMA(v_mfma_i32_32x32x4_2b_i8),
        MFMA(v_mfma_i32_16x16x4i8),
        MFMA(v_mfma_i32_16x16x4_4b_i8),
        MFMA(v_mfma_i32_4x4x4i8),
        MFMA(v_mfma_i32_4x4x4_16b_i8),
        MFMA(v_mfma_f32_32x32x4bf16_1k),
        MFMA(v_mfma_f32_32x32x4_2b_bf16),
        MFMA(v_mfma_f32_16x16x4bf16_1k),
        MFMA(v_mfma_f32_16x16x4_4b_bf16),
        MFMA(v_mfma_f32_4x4x4bf16_1k),
        MFMA(v_mfma_f32_4x4x4_16b_bf16),
        WMMA(v_wmma_f32_16x16x16_f16),
        WMMA(v_wmma_f32_16x16x16_bf16),
        WMMA(v_wmma_f16_16x16x16_f16),
        WMMA(v_wmma_bf16_16x16x16_bf16),
        WMMA(v_wmma_i32_16x16x16_iu8),
        WMMA(v_wmma_i32_16x16x16_iu4),
        WMMA(v_wmma_i32_16x16x32_iu4),
        DOT(v_dot2_f32_f16, DOT2_F32_F16),
        DOT(v_dot4_i32_i8, DOT4_I8),
        DOT(v_dot4_i32_iu8, DOT4_IU8),
        DOT(v_dot4_u32_u8, DOT4_U8),
        DOT(v_dot8_i32_i4, DOT8_I4),
        DOT(v_dot8_i32_iu4, DOT8_IU4),
        DOT(v_dot8_u32_u4, DOT8_U4),
        DOT(v_dot2c_f32_f16, DOT2_F32_F16 | DOT_TIED),
        DOT(v_dot2acc_f32_f16, DOT2_F32_F16 | DOT_TIED),
        DOT(v_dot4c_i32_i8, DOT4_I8 | DOT_TIED),
        {"v_nop", v_nop, SIM_CLASS_VALU, SIM_MEM_NONE, SEM_VALU, 0, 0},
};

const struct sim_sem *sim_sems_matrix(unsigned *n)
{
	*n = sizeof matrix_sems / sizeof matrix_sems[0];
	return matrix_sems;
}
