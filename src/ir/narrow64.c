/* ir_narrow64: 64-bit integer arithmetic of which only the low 32 bits are ever read becomes
 * 32-bit arithmetic (issue 20: nvcc's shared-memory addresses).
 *
 * What it is for: nvcc computes a .shared address as a 64-bit chain, mul.wide.s32 (or cvt to
 * 64 bits, shl.b64), add.s64 of the window's generic base (cvta.shared.u64), cvta.to.shared.u64,
 * then cvt.u32.u64 or a 64-bit .shared address of which the LDS instruction reads only the low
 * dword.  Selected as written, every step is a v_mad_u64_u32 or a carry pair; clang's PTX does
 * the same in one 32-bit operation each.
 *
 * Demanded bits: the low 32 bits of add, sub, mul, shl by a constant below 32, and, or, xor,
 * not, neg, select depend only on the low 32 bits of their operands (modular arithmetic: exact);
 * the low dword of zext/sext of an i32 is that i32; cvta.shared and cvta.to.shared keep the low
 * dword (the aperture or zero goes into the high one).  shr, div, rem, min/max, compares and
 * everything else read the high half.  A use reads only the low half when it is
 *   - a trunc to i32;
 *   - the address of a .shared load, store, atomic or red (selection reads its low dword);
 *   - a data operand of one of the operations above whose own result is narrowed.
 * Analysis: optimistic, every i64 value starts low-only; a use of any other kind (a phi, a
 * global address, a stored value, a compare, a shift right...) marks its operand as needing the
 * high half, and a work list propagates that backwards: a value marked high whose operation is
 * one of those above marks its data operands high (each value is marked at most once).
 * Rewrite: each i64 operation of those kinds whose result is low-only becomes the i32 operation
 * (zext, sext and cvta become copies of their low operand) on its operands' low halves: a
 * narrowed operand itself, a constant's low 32 bits, or a trunc inserted right after the
 * definition of an i64 value that keeps its high half (after a block's phis for a phi).  A
 * trunc to i32 of a narrowed value becomes a copy; .shared addresses simply become i32 (as for
 * a .shared variable's own address).  A narrowed multiply by a constant 2^k becomes a shift by
 * k (nvcc's mul.wide by an element size; v_mul_lo_u32 is quarter rate).
 * requires: nothing (before ir_uniformity: new values are uniform until it runs).
 * breaks: nothing; run ir_optimize afterwards (the copies, the dead i64 operands).
 * complexity: O(instructions + operands). */
#include <string.h>

#include "ir/ir.h"

/* Whether operand k of `in` is one of the operands its low result bits come from. */
static bool data_operand(const struct ir_insn *in, unsigned k)
{
	if (in->op == IR_SELECT)
		return k > 0;
	if (in->op == IR_SHL)
		return k == 0;
	return true;
}

/* Whether `in` is an i64 operation whose low 32 result bits depend only on the low 32 bits of
 * its data operands. */
static bool narrowable(const struct ir_function *fn, const struct ir_insn *in)
{
	if (in->res == IR_NO_REF || in->type != IR_T_I64)
		return false;
	uint64_t amount;
	switch (in->op) {
	case IR_ADD:
	case IR_SUB:
	case IR_MUL:
	case IR_AND:
	case IR_OR:
	case IR_XOR:
	case IR_NOT:
	case IR_NEG:
	case IR_COPY:
		return true;
	case IR_SELECT:
		return fn->vals[in->args[1]].type == IR_T_I64 &&
		       fn->vals[in->args[2]].type == IR_T_I64;
	case IR_SHL:
		amount = fn->vals[in->args[1]].bits;
		return ir_is_const(fn, in->args[1]) && amount < 32;
	case IR_ZEXT:
	case IR_SEXT:
		return fn->vals[in->args[0]].type == IR_T_I32;
	case IR_CVTA_TO:
	case IR_CVTA_FROM:
		return (in->aux & IR_SPACE_MASK) == IR_SPACE_SHARED &&
		       (fn->vals[in->args[0]].type == IR_T_I64 ||
		        fn->vals[in->args[0]].type == IR_T_I32);
	default:
		return false;
	}
}

/* Whether `in` reads only the low dword of operand k as an LDS address. */
static bool lds_address_use(const struct ir_insn *in, unsigned k)
{
	if (k != 0 || (in->aux & IR_SPACE_MASK) != IR_SPACE_SHARED)
		return false;
	return in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_ATOMIC || in->op == IR_RED;
}

struct narrow {
	struct ir_function *fn;
	bool *high;     /* per value: its high half is read */
	bool *narrow;   /* per value: its operation becomes i32 (fixed before any rewrite) */
	ir_ref *low;    /* per value: its inserted trunc, or IR_NO_REF */
	uint32_t nvals; /* values when the pass began */
	const struct ir_insn **def; /* per value: its defining instruction (or NULL) */
	ir_ref *work;               /* values newly marked high, to propagate */
	uint32_t nwork;
	struct pa_arena tmp;
};

static bool is_i64_insn(const struct narrow *n, ir_ref a)
{
	return a < n->nvals && n->fn->vals[a].kind == IR_VAL_INSN &&
	       n->fn->vals[a].type == IR_T_I64;
}

/* Whether this use of operand k reads only its low 32 bits as long as the result of `in`
 * does not need its high half. */
static bool low_use(const struct narrow *n, const struct ir_insn *in, unsigned k)
{
	if (in->op == IR_TRUNC)
		return in->type == IR_T_I32;
	if (lds_address_use(in, k))
		return true;
	return narrowable(n->fn, in) && data_operand(in, k);
}

/* Marks i64 value a as needing its high half (pushing it on the work list once). */
static void mark_high(struct narrow *n, ir_ref a)
{
	if (!is_i64_insn(n, a) || n->high[a])
		return;
	n->high[a] = true;
	n->work[n->nwork++] = a;
}

/* The values needing their high half: those a use of another kind reads, then backwards
 * through the data operands of each narrowable operation whose result needs it. */
static void mark_high_values(struct narrow *n)
{
	const struct ir_function *fn = n->fn;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->res != IR_NO_REF && in->res < n->nvals)
				n->def[in->res] = in;
			if (in->op == IR_PHI) {
				for (uint32_t k = 0; k < bl->npreds; k++)
					mark_high(n, in->phi_args[k]);
				continue;
			}
			for (unsigned k = 0; k < in->nargs; k++)
				if (!low_use(n, in, k))
					mark_high(n, in->args[k]);
		}
	}
	while (n->nwork > 0) {
		const struct ir_insn *in = n->def[n->work[--n->nwork]];
		if (!in || !narrowable(fn, in))
			continue;
		for (unsigned k = 0; k < in->nargs; k++)
			if (data_operand(in, k))
				mark_high(n, in->args[k]);
	}
}

/* Whether the operation of `in` is rewritten to i32. */
static bool narrowed(const struct narrow *n, const struct ir_insn *in)
{
	return in->res != IR_NO_REF && in->res < n->nvals && n->narrow[in->res];
}

/* Marks (low = 0) every i64 value that is not narrowed itself and that a narrowed operation
 * reads: it gets a trunc. */
static unsigned want_truncs(struct narrow *n)
{
	const struct ir_function *fn = n->fn;
	unsigned wanted = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (!narrowed(n, in))
				continue;
			for (unsigned k = 0; k < in->nargs; k++) {
				ir_ref a = in->args[k];
				if (data_operand(in, k) && is_i64_insn(n, a) && !n->narrow[a] &&
				    n->low[a] == IR_NO_REF) {
					n->low[a] = 0;
					wanted++;
				}
			}
		}
	}
	return wanted;
}

/* Whether instruction `in` defines a value marked by want_truncs. */
static bool wants_trunc(const struct narrow *n, const struct ir_insn *in)
{
	return in->res != IR_NO_REF && in->res < n->nvals && n->low[in->res] == 0;
}

/* Appends the trunc of in's value to out[*at]. */
static void put_trunc(struct narrow *n, uint32_t b, const struct ir_insn *in, struct ir_insn *out,
                      uint32_t *at)
{
	ir_ref t = ir_new_value(n->fn, IR_T_I32, b);
	n->low[in->res] = t;
	out[(*at)++] = (struct ir_insn){.op = IR_TRUNC,
	                                .type = IR_T_I32,
	                                .nargs = 1,
	                                .res = t,
	                                .args = {in->res},
	                                .line = in->line,
	                                .col = in->col};
}

/* Rebuilds block b with the truncs wanted right after their values' definitions (after the
 * block's phis for a phi's). */
static void insert_truncs(struct narrow *n, uint32_t b)
{
	struct ir_function *fn = n->fn;
	struct ir_block *bl = &fn->blocks[b];
	uint32_t extra = 0, nphis = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		extra += wants_trunc(n, &bl->insns[i]);
		nphis += bl->insns[i].op == IR_PHI;
	}
	if (extra == 0)
		return;
	uint32_t count = bl->ninsns + extra, at = 0;
	struct ir_insn *out = PA_NEW_ARRAY(fn->arena, struct ir_insn, count);
	for (uint32_t i = 0; i < nphis; i++)
		out[at++] = bl->insns[i];
	for (uint32_t i = 0; i < nphis; i++)
		if (wants_trunc(n, &bl->insns[i]))
			put_trunc(n, b, &bl->insns[i], out, &at);
	for (uint32_t i = nphis; i < bl->ninsns; i++) {
		out[at++] = bl->insns[i];
		if (wants_trunc(n, &bl->insns[i]))
			put_trunc(n, b, &bl->insns[i], out, &at);
	}
	bl->insns = out;
	bl->ninsns = bl->cap = count;
}

/* The low 32 bits of data operand a of a narrowed operation. */
static ir_ref low_half(struct narrow *n, ir_ref a)
{
	struct ir_function *fn = n->fn;
	const struct ir_value *v = &fn->vals[a];
	if (v->type != IR_T_I64 || (a < n->nvals && n->narrow[a]))
		return a; /* zext/sext/cvta of an i32, or a narrowed operand (maybe not yet retyped)
		           */
	if (v->kind == IR_VAL_CONST)
		return ir_const(fn, IR_T_I32, v->bits & 0xffffffffu);
	if (v->kind == IR_VAL_UNDEF)
		return ir_undef(fn, IR_T_I32);
	return n->low[a];
}

/* A narrowed multiply by a constant power of two 2^k (nvcc's mul.wide by an element size)
 * becomes a shift left by k: equal modulo 2^32, and a full-rate instruction where v_mul_lo_u32
 * is a quarter-rate one. */
static void shift_for_multiply(struct ir_function *fn, struct ir_insn *in)
{
	if (in->op != IR_MUL)
		return;
	for (unsigned k = 0; k < 2; k++) {
		ir_ref c = in->args[k];
		uint64_t m = fn->vals[c].bits & 0xffffffffu;
		if (!ir_is_const(fn, c) || m < 2 || (m & (m - 1)) != 0)
			continue;
		unsigned log2 = 0;
		while ((1ull << log2) < m)
			log2++;
		in->op = IR_SHL;
		in->args[0] = in->args[1 - k];
		in->args[1] = ir_const(fn, IR_T_I32, log2);
		return;
	}
}

/* Rewrites the narrowed operations of block b as i32 ones, and truncs of them as copies. */
static unsigned rewrite_block(struct narrow *n, uint32_t b)
{
	struct ir_function *fn = n->fn;
	unsigned made = 0;
	for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
		struct ir_insn *in = &fn->blocks[b].insns[i];
		if (in->op == IR_TRUNC && in->type == IR_T_I32 && in->args[0] < n->nvals &&
		    n->narrow[in->args[0]]) {
			in->op = IR_COPY;
			continue;
		}
		if (!narrowed(n, in))
			continue;
		for (unsigned k = 0; k < in->nargs; k++)
			if (data_operand(in, k)) {
				ir_ref a = low_half(n, in->args[k]);
				in = &fn->blocks[b].insns[i]; /* (constants do not move blocks) */
				in->args[k] = a;
			}
		shift_for_multiply(fn, in);
		if (in->op == IR_ZEXT || in->op == IR_SEXT || in->op == IR_CVTA_TO ||
		    in->op == IR_CVTA_FROM) {
			in->op = IR_COPY;
			in->aux = 0;
		}
		in->type = IR_T_I32;
		fn->vals[in->res].type = IR_T_I32;
		made++;
	}
	return made;
}

unsigned ir_narrow64(struct ir_function *fn)
{
	struct narrow n = {.fn = fn, .nvals = fn->nvals};
	pa_arena_init(&n.tmp);
	n.high = PA_NEW_ARRAY(&n.tmp, bool, n.nvals);
	n.low = PA_NEW_ARRAY(&n.tmp, ir_ref, n.nvals);
	for (uint32_t v = 0; v < n.nvals; v++)
		n.low[v] = IR_NO_REF;
	n.def = PA_NEW_ARRAY(&n.tmp, const struct ir_insn *, n.nvals);
	n.work = PA_NEW_ARRAY(&n.tmp, ir_ref, n.nvals);
	mark_high_values(&n);
	n.narrow = PA_NEW_ARRAY(&n.tmp, bool, n.nvals);
	unsigned made = 0;
	for (ir_ref v = 0; v < n.nvals; v++)
		if (n.def[v] && narrowable(fn, n.def[v]) && !n.high[v]) {
			n.narrow[v] = true;
			made++;
		}
	if (made > 0) { /* (most kernels: nothing to rewrite, no more walks) */
		if (want_truncs(&n) > 0)
			for (uint32_t b = 0; b < fn->nblocks; b++)
				insert_truncs(&n, b);
		made = 0;
		for (uint32_t b = 0; b < fn->nblocks; b++)
			made += rewrite_block(&n, b);
	}
	pa_arena_free(&n.tmp);
	return made;
}
