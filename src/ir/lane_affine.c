/* ir_lane_affine: a matrix move's lane read of a row address becomes arithmetic in the reading
 * lane, where the address is a known affine function of the lane (docs/TENSOR.md, "Row
 * addresses computed in the lane").
 *
 * ldmatrix (build_ldmatrix.c) and the matrix-unit mma's loads of its operands (build_ldsm.c)
 * read each row address from the lane that supplied it: an MPERM with aux IR_MPERM_ALIGNED,
 * whose source lanes are all active (.aligned: the whole warp executes the instruction).
 * nvcc computes those addresses from %tid.x, so in a one-dimensional block (.reqntid or
 * .maxntid with y = z = 1: a wave is W consecutive threads, %tid.x = U + lane with U the same
 * in the whole wave) the address is often
 *     v(l) = U + sum over lane bits b of c_b * l_b     (U the same in every lane of the wave)
 * and then the value in source lane s is v(l) + sum c_b (s_b - l_b).  Where a bit of s is a
 * constant, its term is a constant; where it is the reader's own bit b, none; else a lane
 * function.  The read becomes T + K, T = v + the lane terms (summed by run: sum_terms; the same
 * value for every read of v with the same pattern of source bits: local value numbering merges
 * them), K a constant, which is moved into the immediate offset of the LDS accesses reached through
 * adds and selects.  hgemm_mma's twelve row-address registers (each a ds_bpermute, kept
 * live through the k-loop) become three, and the loads take the differences as offsets.
 *
 * The affine form is proved by walking the address's operations: ADD, SUB, MUL and SHL by a
 * constant are exact modulo 2^width whatever the values; AND with a constant, OR, XOR with
 * a constant, shifts right, BFE/BFI with constant fields and ZEXT/SEXT need the carry-free
 * form (every c_b a distinct single bit, clear of U's possibly-set bits: U | lane bits), which
 * the walk tracks; CVTA_TO (.shared: the low dword) is exact modulo 2^32.  Operations on
 * values the same in every lane (constants, parameters, symbols, block-uniform special
 * registers) are U.  Anything else leaves the read as it is.
 * requires: ir_optimize (trivial phis gone, .shared symbols constant); breaks: nothing
 *   (run ir_optimize after: the old reads and the adds they fed are dead).
 * complexity: O(instructions + values) per function; the walk is memoised per value. */
#include <string.h>

#include "ir/ir.h"

enum { MAX_DEPTH = 48, NBITS = 6, MEMO = 32 };

/* v = U + sum c[b] * lane bit b (modulo 2^32 when mod32, else 2^width); disj: the
 * carry-free form, U's possibly-set bits in nz */
struct aff {
	bool ok, disj, mod32;
	uint64_t c[NBITS];
	uint64_t nz;
};

/* One bit of a source-lane index: a constant, a bit of the reading lane, or neither. */
enum { BIT0 = 0xfe, BIT1 = 0xff, BITX = 0xfd };

struct lane_bits {
	uint8_t b[32];
};

struct lane_aff {
	struct ir_function *fn;
	uint32_t nv;       /* values before the pass (the memo arrays' size) */
	unsigned nb;       /* lane bits: log2 of the wave size */
	bool one_d;        /* one-dimensional block */
	uint32_t *def_blk; /* defining instruction of each value: block, index */
	uint32_t *def_idx;
	struct aff *aff;        /* memo */
	uint8_t *state;         /* 0 unknown, 1 in progress / failed, 2 done */
	struct lane_bits *bits; /* memo of source-lane bits */
	uint8_t *bstate;
	ir_ref lane; /* SREG laneid emitted for the terms, per block (IR_NO_REF: none yet) */
};

static uint64_t width_mask(const struct ir_function *fn, ir_ref v)
{
	return ir_type_bits((enum ir_type)fn->vals[v].type) >= 64 ? ~0ull : 0xffffffffull;
}

static const struct ir_insn *def_of(const struct lane_aff *a, ir_ref v)
{
	if (v >= a->nv || a->fn->vals[v].kind != IR_VAL_INSN || a->def_blk[v] == ~0u)
		return NULL;
	return &a->fn->blocks[a->def_blk[v]].insns[a->def_idx[v]];
}

static bool is_const(const struct ir_function *fn, ir_ref v, uint64_t *k)
{
	if (v >= fn->nvals || fn->vals[v].kind != IR_VAL_CONST)
		return false;
	*k = fn->vals[v].bits;
	return true;
}

static uint64_t lane_bits_of(const struct aff *x)
{
	uint64_t m = 0;
	for (unsigned b = 0; b < NBITS; b++)
		m |= x->c[b];
	return m;
}

static bool uniform(const struct aff *x)
{
	return x->ok && lane_bits_of(x) == 0;
}

/* Every c[b] is zero or a single bit, no two the same, none in nz. */
static bool carry_free(const struct aff *x)
{
	uint64_t seen = x->nz;
	for (unsigned b = 0; b < NBITS; b++) {
		if (x->c[b] & (x->c[b] - 1) || x->c[b] & seen)
			return false;
		seen |= x->c[b];
	}
	return true;
}

static struct aff fail(void)
{
	return (struct aff){.ok = false};
}

static struct aff unknown_uniform(void)
{
	return (struct aff){.ok = true, .disj = true, .nz = ~0ull};
}

static struct aff aff_of(struct lane_aff *a, ir_ref v, unsigned depth);

static struct aff add(struct aff x, struct aff y, bool sub, uint64_t mask)
{
	struct aff r = {.ok = true, .mod32 = x.mod32 || y.mod32, .nz = ~0ull};
	for (unsigned b = 0; b < NBITS; b++)
		r.c[b] = (sub ? x.c[b] - y.c[b] : x.c[b] + y.c[b]) & mask;
	if (!sub && x.disj && y.disj && !r.mod32 &&
	    ((x.nz | lane_bits_of(&x)) & (y.nz | lane_bits_of(&y))) == 0) {
		r.disj = true; /* no carries: an OR */
		r.nz = x.nz | y.nz;
	}
	return r;
}

static struct aff scale(struct aff x, uint64_t k, uint64_t mask)
{
	for (unsigned b = 0; b < NBITS; b++)
		x.c[b] = x.c[b] * k & mask;
	bool pow2 = k && !(k & (k - 1));
	if (x.disj && pow2 && !x.mod32) {
		x.nz = x.nz * k & mask;
		x.disj = carry_free(&x);
	} else {
		x.disj = false;
	}
	return x;
}

static struct aff and_const(struct aff x, uint64_t k)
{
	if (!x.disj)
		return fail();
	for (unsigned b = 0; b < NBITS; b++)
		x.c[b] &= k;
	x.nz &= k;
	return x;
}

static struct aff shr_const(struct aff x, uint64_t k, uint64_t mask)
{
	if (!x.disj || k >= 64)
		return fail();
	for (unsigned b = 0; b < NBITS; b++)
		x.c[b] = (x.c[b] & mask) >> k;
	x.nz = (x.nz & mask) >> k;
	return x;
}

/* The operations on this lane's function of U and the lane bits (see the header). */
static struct aff op_aff(struct lane_aff *a, const struct ir_insn *in, unsigned depth)
{
	struct ir_function *fn = a->fn;
	uint64_t mask = width_mask(fn, in->res), k = 0, k2 = 0;
	struct aff x = in->nargs > 0 ? aff_of(a, in->args[0], depth + 1) : fail();
	struct aff y = in->nargs > 1 ? aff_of(a, in->args[1], depth + 1) : fail();
	bool k1 = in->nargs > 1 && is_const(fn, in->args[1], &k);
	bool k0 = in->nargs > 0 && is_const(fn, in->args[0], &k2);
	switch (in->op) {
	case IR_COPY:
		return x;
	case IR_ADD:
	case IR_SUB:
		return x.ok && y.ok ? add(x, y, in->op == IR_SUB, mask) : fail();
	case IR_MUL:
		if (k1 && x.ok)
			return scale(x, k, mask);
		return k0 && y.ok ? scale(y, k2, mask) : fail();
	case IR_SHL:
		return k1 && k < 64 && x.ok ? scale(x, 1ull << k, mask) : fail();
	case IR_AND:
		if (k1 && x.ok)
			return and_const(x, k);
		return k0 && y.ok ? and_const(y, k2) : fail();
	case IR_OR:
		if (!x.ok || !y.ok || !x.disj || !y.disj || x.mod32 || y.mod32 ||
		    (x.nz | lane_bits_of(&x)) & (y.nz | lane_bits_of(&y)))
			return fail();
		return add(x, y, false, mask);
	case IR_XOR:
		if (!k1 || !x.ok || !x.disj || k & lane_bits_of(&x))
			return fail();
		x.nz |= k;
		return x;
	case IR_SHR_U:
		return k1 && x.ok ? shr_const(x, k, mask) : fail();
	case IR_SHR_S: /* the sign bit must come from U: it fills the top */
		if (!k1 || !x.ok || lane_bits_of(&x) >> (ir_type_bits(fn->vals[in->res].type) - 1))
			return fail();
		x = shr_const(x, k, mask);
		x.nz |= mask & ~(mask >> k);
		return x.ok && carry_free(&x) ? x : fail();
	case IR_ZEXT:
	case IR_SEXT: /* exact where carry-free (and the sign from U); else the low dword */
		if (!x.ok)
			return x;
		if (!x.disj || x.mod32 || (in->op == IR_SEXT && lane_bits_of(&x) >> 31)) {
			x.mod32 = true;
			x.disj = false;
		} else if (in->op == IR_SEXT && x.nz >> 31 & 1) {
			x.nz |= 0xffffffff00000000ull;
		}
		return x;
	case IR_TRUNC:
		if (!x.ok)
			return x;
		for (unsigned b = 0; b < NBITS; b++)
			x.c[b] &= 0xffffffffull;
		x.nz &= 0xffffffffull;
		x.mod32 = false;
		return x;
	case IR_BFE_U: { /* constant fields: (x >> pos) & (2^len - 1) */
		uint64_t len;
		if (!k1 || in->nargs < 3 || !is_const(fn, in->args[2], &len) || !x.ok || k >= 32 ||
		    len == 0 || k + len > 32)
			return fail();
		return and_const(shr_const(x, k, mask), (1ull << len) - 1);
	}
	case IR_CVTA_FROM: /* .shared: the aperture in the high dword, x in the low one */
		if (!x.ok || (in->aux & IR_SPACE_MASK) != IR_SPACE_SHARED)
			return fail();
		x.mod32 = true;
		x.disj = false;
		return x;
	case IR_CVTA_TO: /* .shared: the low dword, zero-extended */
		if (!x.ok || (in->aux & IR_SPACE_MASK) != IR_SPACE_SHARED)
			return fail();
		x.mod32 = true;
		x.disj = false;
		return x;
	default:
		return fail();
	}
}

/* Whether an operation gives the same result in every lane of the wave when its operands do. */
static bool lane_blind(const struct ir_insn *in)
{
	unsigned f = ir_ops[in->op].flags;
	return in->op != IR_PHI && in->op != IR_LANE_READ && in->op != IR_MPERM &&
	       in->op != IR_SREG && in->op != IR_LOAD && in->op != IR_TIMER &&
	       !(f & (IR_OPF_SIDE | IR_OPF_SRC_DIV | IR_OPF_MEM | IR_OPF_NORES | IR_OPF_TERM));
}

static struct aff sreg_aff(const struct lane_aff *a, const struct ir_insn *in)
{
	struct aff x = {.ok = true, .disj = true};
	switch (in->aux) {
	case IR_SREG_LANEID: /* the wave lane */
		for (unsigned b = 0; b < a->nb; b++)
			x.c[b] = 1ull << b;
		return x;
	case IR_SREG_TID_X: /* %tid.x = U + lane, U a multiple of the wave size below 1024 */
		if (!a->one_d)
			return fail();
		for (unsigned b = 0; b < a->nb; b++)
			x.c[b] = 1ull << b;
		x.nz = 0x3ffull & ~((1ull << a->nb) - 1);
		return x;
	case IR_SREG_TID_Y:
	case IR_SREG_TID_Z:
		return a->one_d ? x : fail(); /* 0 */
	case IR_SREG_NTID_X:
	case IR_SREG_NTID_Y:
	case IR_SREG_NTID_Z:
	case IR_SREG_CTAID_X:
	case IR_SREG_CTAID_Y:
	case IR_SREG_CTAID_Z:
	case IR_SREG_NCTAID_X:
	case IR_SREG_NCTAID_Y:
	case IR_SREG_NCTAID_Z:
	case IR_SREG_WARPSZ:
	case IR_SREG_SHARED_APERTURE:
	case IR_SREG_DYN_SMEM:
	case IR_SREG_TOTAL_SMEM:
		return unknown_uniform();
	default:
		return fail();
	}
}

static struct aff aff_of(struct lane_aff *a, ir_ref v, unsigned depth)
{
	const struct ir_function *fn = a->fn;
	uint64_t k;
	if (is_const(fn, v, &k))
		return (struct aff){.ok = true, .disj = true, .nz = k & width_mask(fn, v)};
	if (v >= a->nv || a->state[v] == 1)
		return fail();
	if (a->state[v] == 2)
		return a->aff[v];
	const struct ir_insn *in = def_of(a, v);
	if (!in || depth > MAX_DEPTH)
		return fail();
	a->state[v] = 1; /* stays 1 (failed) unless the walk below succeeds */
	struct aff r;
	if (in->op == IR_SREG) {
		r = sreg_aff(a, in);
	} else if (in->op == IR_PARAM || in->op == IR_SYMADDR) {
		r = unknown_uniform();
	} else {
		r = op_aff(a, in, depth);
		if (!r.ok && lane_blind(in)) {
			bool all = in->nargs > 0;
			for (unsigned i = 0; i < in->nargs && all; i++) {
				struct aff x = aff_of(a, in->args[i], depth + 1);
				all = uniform(&x);
			}
			if (all)
				r = unknown_uniform();
		}
	}
	if (r.ok)
		a->state[v] = 2, a->aff[v] = r;
	return r;
}

/* The bits of a lane index value: constants, the reader's lane bits, or unknown. */
static const uint8_t *bits_of(struct lane_aff *a, ir_ref v, unsigned depth)
{
	struct ir_function *fn = a->fn;
	if (v >= a->nv || fn->vals[v].type != IR_T_I32)
		return NULL;
	uint8_t *r = a->bits[v].b;
	uint64_t k;
	if (is_const(fn, v, &k)) {
		for (unsigned i = 0; i < 32; i++)
			r[i] = k >> i & 1 ? BIT1 : BIT0;
		return r;
	}
	if (a->bstate[v] == 1)
		return NULL;
	if (a->bstate[v] == 2)
		return r;
	const struct ir_insn *in = def_of(a, v);
	if (!in || depth > MAX_DEPTH)
		return NULL;
	a->bstate[v] = 1;
	for (unsigned i = 0; i < 32; i++)
		r[i] = BITX;
	if (in->op == IR_SREG && in->aux == IR_SREG_LANEID) {
		for (unsigned i = 0; i < 32; i++)
			r[i] = i < a->nb ? (uint8_t)i : BIT0;
		a->bstate[v] = 2;
		return r;
	}
	const uint8_t *x = in->nargs > 0 ? bits_of(a, in->args[0], depth + 1) : NULL;
	const uint8_t *y = in->nargs > 1 ? bits_of(a, in->args[1], depth + 1) : NULL;
	bool k1 = in->nargs > 1 && is_const(fn, in->args[1], &k) && k < 32;
	switch (in->op) {
	case IR_AND:
	case IR_OR:
	case IR_XOR:
		if (!x || !y)
			break;
		for (unsigned i = 0; i < 32; i++) {
			uint8_t p = x[i], q = y[i];
			if (p > q) /* constants last: BIT0 < BIT1, BITX below them */
				p = y[i], q = x[i];
			if (in->op == IR_AND)
				r[i] = q == BIT0 ? BIT0 : q == BIT1 ? p : p == q ? p : BITX;
			else if (in->op == IR_OR)
				r[i] = q == BIT1 ? BIT1 : q == BIT0 ? p : p == q ? p : BITX;
			else
				r[i] = q == BIT0                ? p
				       : q == BIT1 && p >= BIT0 ? (uint8_t)(p ^ 1)
				                                : BITX;
		}
		break;
	case IR_SHL:
		if (!x || !k1)
			break;
		for (unsigned i = 0; i < 32; i++)
			r[i] = i < k ? BIT0 : x[i - k];
		break;
	case IR_SHR_U:
		if (!x || !k1)
			break;
		for (unsigned i = 0; i < 32; i++)
			r[i] = i + k < 32 ? x[i + k] : BIT0;
		break;
	default:
		break;
	}
	a->bstate[v] = 2;
	return r;
}

/* The rewriting of one block: a new instruction array, swapped in. */
struct emit {
	struct lane_aff *a;
	uint32_t blk;
	struct ir_insn *out;
	uint32_t n, cap;
	ir_ref *t_of; /* per value: T of a rewritten read (value = T + k_of), or IR_NO_REF */
	uint64_t *k_of;
	uint32_t nv; /* values before the pass: t_of's size */
	/* the T's emitted in this block, by value and source-bit pattern: reads that differ
	 * only in constant bits share one (a select between them selects constants) */
	struct t_memo {
		ir_ref v, idx, t;
		uint8_t pat[NBITS];
	} memo[MEMO];
	unsigned nmemo;
};

static ir_ref t_of(const struct emit *e, ir_ref v)
{
	return v < e->nv ? e->t_of[v] : IR_NO_REF;
}

static ir_ref emit(struct emit *e, enum ir_op op, ir_ref x, ir_ref y)
{
	struct ir_function *fn = e->a->fn;
	ir_ref r = ir_new_value(fn, IR_T_I32, e->blk);
	fn->vals[r].divergent = true;
	e->out = pa_arena_grow(fn->arena, e->out, &e->cap, e->n + 1, sizeof *e->out);
	e->out[e->n++] = (struct ir_insn){
	        .op = (uint16_t)op, .type = IR_T_I32, .nargs = 2, .res = r, .args = {x, y}};
	return r;
}

static ir_ref kon(struct emit *e, uint64_t k)
{
	return ir_const(e->a->fn, IR_T_I32, k & 0xffffffffull);
}

/* c * (bit src of x): x >> src & 1, times c */
static ir_ref bit_term(struct emit *e, ir_ref x, unsigned src, uint64_t c)
{
	ir_ref bit = emit(e, IR_AND, src ? emit(e, IR_SHR_U, x, kon(e, src)) : x, kon(e, 1));
	if (c & (c - 1) || !c)
		return emit(e, IR_MUL, bit, kon(e, c));
	unsigned p = (unsigned)__builtin_ctzll(c);
	return p ? emit(e, IR_SHL, bit, kon(e, p)) : bit;
}

/* One term of T: c times bit `bit` of x, subtracted or added. */
struct term {
	ir_ref x;
	unsigned bit;
	uint64_t c;
	bool sub;
};

/* v plus or minus the terms.  Terms of one x and sign whose c is r << bit for one r make one
 * (x & mask) * r (exact modulo 2^32: the sum of the bits times r): hgemm_mma's B row address
 * subtracts 32 (lane & 15) + (lane & 16) and adds 64 (lane & 3), six operations where a term
 * per bit took twenty. */
static ir_ref sum_terms(struct emit *e, ir_ref v, struct term *terms, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (!terms[i].c)
			continue;
		const struct term ti = terms[i];
		uint64_t r = ti.c >> ti.bit, mask = 1ull << ti.bit;
		bool grouped = r << ti.bit == ti.c;
		for (unsigned j = i + 1; j < n && grouped; j++) {
			struct term *tj = &terms[j];
			if (tj->c && tj->x == ti.x && tj->sub == ti.sub && tj->c >> tj->bit == r &&
			    r << tj->bit == tj->c && !(mask >> tj->bit & 1)) {
				mask |= 1ull << tj->bit;
				tj->c = 0; /* taken */
			}
		}
		ir_ref val;
		if (!grouped) {
			val = bit_term(e, ti.x, ti.bit, ti.c);
		} else {
			val = emit(e, IR_AND, ti.x, kon(e, mask));
			if (r & (r - 1))
				val = emit(e, IR_MUL, val, kon(e, r));
			else if (r > 1)
				val = emit(e, IR_SHL, val, kon(e, (uint64_t)__builtin_ctzll(r)));
		}
		v = emit(e, ti.sub ? IR_SUB : IR_ADD, v, val);
	}
	return v;
}

static ir_ref lane_id(struct emit *e)
{
	struct lane_aff *a = e->a;
	if (a->lane != IR_NO_REF && a->fn->vals[a->lane].block == e->blk)
		return a->lane;
	struct ir_function *fn = a->fn;
	ir_ref r = ir_new_value(fn, IR_T_I32, e->blk);
	fn->vals[r].divergent = true;
	e->out = pa_arena_grow(fn->arena, e->out, &e->cap, e->n + 1, sizeof *e->out);
	e->out[e->n++] =
	        (struct ir_insn){.op = IR_SREG, .type = IR_T_I32, .aux = IR_SREG_LANEID, .res = r};
	return a->lane = r;
}

/* An aligned MPERM of an affine i32 value: T (emitted) and the constant k; false when not. */
static bool rewrite_read(struct emit *e, const struct ir_insn *in, ir_ref *t, uint64_t *k)
{
	struct lane_aff *a = e->a;
	struct ir_function *fn = a->fn;
	if (in->op != IR_MPERM || !(in->aux & IR_MPERM_ALIGNED) ||
	    fn->vals[in->args[0]].type != IR_T_I32)
		return false;
	struct aff x = aff_of(a, in->args[0], 0);
	const uint8_t *s = bits_of(a, in->args[1], 0);
	if (!x.ok || !s)
		return false;
	struct t_memo m = {.v = in->args[0], .idx = IR_NO_REF};
	*k = 0;
	for (unsigned b = 0; b < a->nb; b++) { /* source lane bit b is byte-address bit b + 2 */
		uint8_t sb = s[b + 2];
		m.pat[b] = sb == BIT1 ? BIT0 : sb;
		if (sb == BIT1)
			*k += x.c[b];
		if (sb == BITX)
			m.idx = in->args[1];
	}
	*k &= 0xffffffffull;
	for (unsigned i = 0; i < (e->nmemo < MEMO ? e->nmemo : MEMO); i++)
		if (e->memo[i].v == m.v && e->memo[i].idx == m.idx &&
		    !memcmp(e->memo[i].pat, m.pat, sizeof m.pat)) {
			*t = e->memo[i].t;
			return true;
		}
	struct term terms[2 * NBITS];
	unsigned nt = 0;
	for (unsigned b = 0; b < a->nb; b++) {
		uint64_t c = x.c[b] & 0xffffffffull;
		uint8_t sb = m.pat[b];
		if (!c || sb == b)
			continue;
		terms[nt++] = (struct term){lane_id(e), b, c, true};
		if (sb < NBITS)
			terms[nt++] = (struct term){lane_id(e), sb, c, false};
		else if (sb == BITX)
			terms[nt++] = (struct term){in->args[1], b + 2, c, false};
	}
	*t = sum_terms(e, in->args[0], terms, nt);
	m.t = *t;
	e->memo[e->nmemo++ % MEMO] = m;
	return true;
}

static void push(struct emit *e, const struct ir_insn *in)
{
	e->out = pa_arena_grow(e->a->fn->arena, e->out, &e->cap, e->n + 1, sizeof *e->out);
	e->out[e->n++] = *in;
}

static bool shared_access(const struct ir_insn *in)
{
	return (in->op == IR_LOAD || in->op == IR_STORE) &&
	       (in->aux & IR_SPACE_MASK) == IR_SPACE_SHARED;
}

/* One instruction of the block: a read rewritten, an add or select of rewritten values
 * carried (T + k: the constant kept apart), an LDS access's address given its constant. */
static unsigned rewrite_insn(struct emit *e, const struct ir_insn *in)
{
	struct ir_function *fn = e->a->fn;
	ir_ref t;
	uint64_t k;
	struct ir_insn cp = *in;
	if (rewrite_read(e, in, &t, &k)) {
		cp = (struct ir_insn){.op = IR_ADD,
		                      .type = IR_T_I32,
		                      .nargs = 2,
		                      .res = in->res,
		                      .args = {t, kon(e, k)},
		                      .line = in->line,
		                      .col = in->col};
		e->t_of[in->res] = t, e->k_of[in->res] = k;
		push(e, &cp);
		return 1;
	}
	if (in->op == IR_ADD && in->type == IR_T_I32) {
		unsigned i = t_of(e, in->args[0]) != IR_NO_REF ? 0 : 1;
		ir_ref r = in->args[i];
		if (t_of(e, r) != IR_NO_REF) {
			ir_ref n = emit(e, IR_ADD, in->args[1 - i], e->t_of[r]);
			e->t_of[in->res] = n, e->k_of[in->res] = e->k_of[r];
		}
	} else if (in->op == IR_SELECT && in->type == IR_T_I32) {
		ir_ref p = in->args[1], q = in->args[2];
		if (t_of(e, p) != IR_NO_REF &&
		    t_of(e, p) == t_of(e, q)) { /* T + (pred ? kp - kq : 0) + kq */
			ir_ref args[3] = {in->args[0], kon(e, e->k_of[p] - e->k_of[q]), kon(e, 0)};
			ir_ref d = ir_new_value(fn, IR_T_I32, e->blk);
			fn->vals[d].divergent = true;
			struct ir_insn sel = {
			        .op = IR_SELECT, .type = IR_T_I32, .nargs = 3, .res = d};
			memcpy(sel.args, args, sizeof args);
			push(e, &sel);
			e->t_of[in->res] = emit(e, IR_ADD, e->t_of[p], d);
			e->k_of[in->res] = e->k_of[q];
		}
	} else if (shared_access(in) && t_of(e, in->args[0]) != IR_NO_REF) {
		ir_ref r = in->args[0];
		cp.args[0] = e->t_of[r];
		cp.imm = in->imm + (int64_t)(int32_t)(uint32_t)e->k_of[r];
		push(e, &cp);
		return 1;
	}
	push(e, &cp);
	return 0;
}

static unsigned rewrite_block(struct lane_aff *a, uint32_t blk, ir_ref *tmap, uint64_t *kmap,
                              uint32_t nv)
{
	struct ir_block *bl = &a->fn->blocks[blk];
	struct emit e = {.a = a, .blk = blk, .t_of = tmap, .k_of = kmap, .nv = nv};
	unsigned n = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		n += rewrite_insn(&e, &bl->insns[i]);
	if (n) { /* a new array: def_of's indices of this block are stale from here */
		bl = &a->fn->blocks[blk];
		bl->insns = e.out;
		bl->ninsns = e.n;
		bl->cap = e.cap;
	}
	return n;
}

static bool has_aligned_read(const struct ir_function *fn)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			if (fn->blocks[b].insns[i].op == IR_MPERM &&
			    fn->blocks[b].insns[i].aux & IR_MPERM_ALIGNED)
				return true;
	return false;
}

unsigned ir_lane_affine(struct ir_function *fn)
{
	if (!has_aligned_read(fn))
		return 0;
	const uint32_t *dims = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
	uint32_t nv = fn->nvals;
	struct lane_aff a = {
	        .fn = fn,
	        .nv = nv,
	        .nb = fn->wave_size == 64 ? 6 : 5,
	        .one_d = dims[0] && dims[1] <= 1 && dims[2] <= 1,
	        .def_blk = PA_NEW_ARRAY(fn->arena, uint32_t, nv + 1),
	        .def_idx = PA_NEW_ARRAY(fn->arena, uint32_t, nv + 1),
	        .aff = PA_NEW_ARRAY(fn->arena, struct aff, nv + 1),
	        .state = PA_NEW_ARRAY(fn->arena, uint8_t, nv + 1),
	        .bits = PA_NEW_ARRAY(fn->arena, struct lane_bits, nv + 1),
	        .bstate = PA_NEW_ARRAY(fn->arena, uint8_t, nv + 1),
	        .lane = IR_NO_REF,
	};
	memset(a.def_blk, 0xff, (nv + 1) * sizeof *a.def_blk);
	memset(a.state, 0, nv + 1);
	memset(a.bstate, 0, nv + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			ir_ref r = fn->blocks[b].insns[i].res;
			if (r != IR_NO_REF && r < nv)
				a.def_blk[r] = b, a.def_idx[r] = i;
		}
	/* the walks only look at values defined before the pass; analyse every aligned read
	 * first, so no walk meets a block already rewritten */
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->op == IR_MPERM && in->aux & IR_MPERM_ALIGNED) {
				aff_of(&a, in->args[0], 0);
				bits_of(&a, in->args[1], 0);
			}
		}
	ir_ref *tmap = PA_NEW_ARRAY(fn->arena, ir_ref, nv + 1);
	uint64_t *kmap = PA_NEW_ARRAY(fn->arena, uint64_t, nv + 1);
	memset(tmap, 0xff, (nv + 1) * sizeof *tmap);
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		n += rewrite_block(&a, b, tmap, kmap, nv);
	return n;
}
