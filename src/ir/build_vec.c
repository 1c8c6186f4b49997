/* ir_build, vector registers and 128-bit values: `.reg .v2/.v4 .T v` and `.reg .b128 q`.
 *
 * A vector register is N scalar variables, one per component; a .b128 register is two
 * .b64 variables (low half first).  Component operands (v.x .. v.w, v.r .. v.a) name their
 * variable directly (irb_opnd_var).  A whole vector register stands where PTX accepts a
 * brace list of its length, so irb_vec_expand rewrites each instruction before
 * translation: a whole vector or .b128 register becomes the brace list of its components,
 * ld/st/ldu of .b128 become the same access of two .b64 values, and ldu becomes ld (the
 * PTX ISA: ldu loads read-only data from an address common to the warp's threads; the
 * uniformity is a hint, the value is what ld reads).  After that the ordinary
 * translations see only scalars and brace lists.
 *
 * irb_vec translates what the rewrite leaves to this file: moves between two brace lists
 * (mov.v2.u32 v, {a, b}; mov.v4.f32 v, w; mov.b128 q, {lo, hi} and back), elementwise.
 * irb_vec_atomic (called by build_atomic.c) translates the atomics no single AMD
 * instruction does: f16/bf16/f16x2/bf16x2 add and 16-bit cas as compare-and-swap loops on
 * the aligned 32-bit word that holds them, and vector atomics (.v2/.v4/.v8: each component
 * an independent scalar atomic at consecutive addresses, the PTX ISA's definition).
 * 128-bit atomics (exch/cas .b128) are rejected by name: AMD GPUs have no 16-byte atomic,
 * and no sequence of 64-bit ones is atomic for 16 bytes (docs/VECTORS.md).
 * O(operands) per instruction; a CAS loop is 2 blocks. */
#include <string.h>

#include "ir/build_int.h"

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

static ir_ref op1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a)
{
	return irb_emit(b, op, t, &a, 1, 0, 0);
}

static ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, t, args, 2, 0, 0);
}

static ir_ref k(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

/* ---- vector registers as component variables ---- */

/* The number of components of a register symbol treated as a vector here (0: a scalar). */
static unsigned vec_len(const struct ptx_symbol *s)
{
	if (!s || s->kind != PTX_SYM_VAR || s->space != PTX_SPACE_REG)
		return 0;
	if (s->vec > 1)
		return s->vec;
	return s->type == PTX_TYPE_B128 ? 2 : 0;
}

static enum ptx_type elem_type(const struct ptx_symbol *s)
{
	return s->type == PTX_TYPE_B128 ? PTX_TYPE_B64 : (enum ptx_type)s->type;
}

int32_t irb_opnd_var(struct irb *b, const struct ptx_operand *o)
{
	unsigned n = vec_len(o->sym);
	if (!n)
		return irb_var(b, o->sym, o->index);
	if (o->comp == 0 || o->comp > n) {
		irb_error(b, "vector register '%s' used where a scalar is expected", o->sym->name);
		return -1;
	}
	enum ir_type t = irb_ptx_type(elem_type(o->sym));
	if (t == IR_T_NONE) {
		irb_error(b,
		          "vector registers of type '%s' ('%s') are not supported by the code "
		          "generator yet",
		          ptx_types[o->sym->type].name, o->sym->name);
		return -1;
	}
	/* the component in bits 56-59: no register's (instance << 32 | index) key reaches
	 * them (instances stay below 2^19, build.c) */
	uint64_t key = (uint64_t)irb_sym_instance(b, o->sym, b->inst) << 32 | o->index;
	return (int32_t)irb_var_of_key(b, key | (uint64_t)o->comp << 56, t);
}

/* Whether the instruction needs the rewrite: a whole vector or .b128 register operand,
 * a .b128 access type, or ldu. */
static bool needs_expand(const struct ptx_insn *in)
{
	if (in->op == PTX_OP_LDU)
		return true;
	if (in->ntypes && in->types[0] == PTX_TYPE_B128)
		return true;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_REG && in->opnds[i].comp == 0 &&
		    vec_len(in->opnds[i].sym))
			return true;
	return false;
}

static void expand_opnd(struct irb *b, struct ptx_operand *o)
{
	unsigned n = vec_len(o->sym);
	if (o->kind != PTX_OPND_REG || o->comp != 0 || !n)
		return;
	struct ptx_operand *el = PA_NEW_ARRAY(b->arena, struct ptx_operand, n);
	for (unsigned c = 0; c < n; c++) {
		el[c] = *o;
		el[c].comp = (uint8_t)(c + 1);
		el[c].bits = (uint16_t)ptx_types[elem_type(o->sym)].bits;
		el[c].pair = NULL;
	}
	struct ptx_operand v = {.kind = PTX_OPND_VEC, .nelems = n, .elems = el};
	*o = v;
}

const struct ptx_insn *irb_vec_expand(struct irb *b, const struct ptx_insn *in)
{
	if (!needs_expand(in))
		return in;
	struct ptx_insn *c = PA_NEW(b->arena, struct ptx_insn);
	*c = *in;
	c->opnds = PA_NEW_ARRAY(b->arena, struct ptx_operand, in->nopnds ? in->nopnds : 1);
	memcpy(c->opnds, in->opnds, in->nopnds * sizeof *in->opnds);
	for (unsigned i = 0; i < c->nopnds; i++)
		expand_opnd(b, &c->opnds[i]);
	if (c->op == PTX_OP_LDU)
		c->op = PTX_OP_LD;
	/* ld/st .b128: two .b64 values at a and a + 8 (the brace list of the .b128 register) */
	if ((c->op == PTX_OP_LD || c->op == PTX_OP_ST) && c->ntypes &&
	    c->types[0] == PTX_TYPE_B128 && !has(in, PTX_DW_V2) && !has(in, PTX_DW_V4)) {
		const struct ptx_operand *v = &c->opnds[c->op == PTX_OP_LD ? 0 : 1];
		if (v->kind == PTX_OPND_VEC && v->nelems == 2)
			c->types[0] = PTX_TYPE_B64;
	}
	return c;
}

/* ---- moves between brace lists ---- */

/* mov.vN.T d, s and mov.bW {..}, {..} (a .b128 move): element e of s to element e of d,
 * read as the element type (W / N bits for a plain bit type). */
static bool tr_mov_lists(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	const struct ptx_operand *d = &in->opnds[0], *s = &in->opnds[1];
	enum ptx_type t = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	bool is_vec = has(in, PTX_DW_V2) || has(in, PTX_DW_V4) || has(in, PTX_DW_V8);
	unsigned n = d->nelems;
	if (s->nelems != n || n == 0) {
		irb_unsupported(b, in, "moves between brace lists of different lengths");
		return true;
	}
	enum ir_type et;
	if (is_vec) {
		et = irb_ptx_type(t);
	} else {
		unsigned bits = ptx_types[t].bits / n;
		et = bits == 16   ? IR_T_I16
		     : bits == 32 ? IR_T_I32
		     : bits == 64 ? IR_T_I64
		                  : IR_T_NONE;
	}
	if (et == IR_T_NONE) {
		irb_unsupported(b, in, "element type of a vector move");
		return true;
	}
	bool sign = ptx_types[t].cls == PTX_TC_SINT;
	ir_ref v[8];
	for (unsigned e = 0; e < n && e < 8; e++) /* all reads before the writes: mov v, v.yx */
		v[e] = irb_read_opnd(b, &s->elems[e], et, sign);
	for (unsigned e = 0; e < n && e < 8; e++)
		irb_write_dest(b, &d->elems[e], v[e], sign, guard);
	return true;
}

bool irb_vec(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (in->op == PTX_OP_MOV && in->nopnds == 2 && in->opnds[0].kind == PTX_OPND_VEC &&
	    in->opnds[1].kind == PTX_OPND_VEC)
		return tr_mov_lists(b, in, guard);
	return false;
}

/* ---- atomics of 16-bit values, packed pairs and vectors ---- */

struct cas_op { /* what one compare-and-swap loop computes */
	const struct ptx_insn *in;
	enum ptx_type t; /* F16, BF16, F16X2, BF16X2, or B16 for cas */
	ir_ref shift;    /* i32: bit position of a 16-bit value in its word (0 for 32 bits) */
	ir_ref val, cmp; /* i32 operands (16-bit ones in the low half); cmp: cas only */
};

static bool is_bf(enum ptx_type t)
{
	return t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
}

/* x + y of two 16-bit float patterns (i32, low half) as add.rn.f16/.bf16 computes it */
static ir_ref half_add(struct irb *b, const struct cas_op *c, ir_ref x, ir_ref y)
{
	if (is_bf(c->t))
		return irb_bf16_add(b, c->in, x, y);
	ir_ref s = op2(b, IR_HADD, IR_T_I16, op1(b, IR_TRUNC, IR_T_I16, x),
	               op1(b, IR_TRUNC, IR_T_I16, y));
	return op1(b, IR_ZEXT, IR_T_I32, s);
}

static ir_ref low16(struct irb *b, ir_ref v)
{
	return op2(b, IR_AND, IR_T_I32, v, k(b, IR_T_I32, 0xffff));
}

/* The word the loop stores when it finds `cur` in memory. */
static ir_ref cas_update(struct irb *b, const struct cas_op *c, ir_ref cur)
{
	if (ptx_types[c->t].bits == 32) { /* f16x2 / bf16x2: both halves */
		ir_ref lo = half_add(b, c, low16(b, cur), low16(b, c->val));
		ir_ref hi = half_add(b, c, op2(b, IR_SHR_U, IR_T_I32, cur, k(b, IR_T_I32, 16)),
		                     op2(b, IR_SHR_U, IR_T_I32, c->val, k(b, IR_T_I32, 16)));
		return op2(b, IR_OR, IR_T_I32, lo,
		           op2(b, IR_SHL, IR_T_I32, hi, k(b, IR_T_I32, 16)));
	}
	ir_ref old = low16(b, op2(b, IR_SHR_U, IR_T_I32, cur, c->shift));
	ir_ref nv;
	if (c->t == PTX_TYPE_B16) { /* cas: the new value only where the old one matched */
		ir_ref eq = irb_emit(b, IR_ICMP, IR_T_PRED, (ir_ref[]){old, low16(b, c->cmp)}, 2,
		                     IR_CMP_EQ, 0);
		nv = irb_emit(b, IR_SELECT, IR_T_I32, (ir_ref[]){eq, low16(b, c->val), old}, 3, 0,
		              0);
	} else {
		nv = half_add(b, c, old, c->val);
	}
	ir_ref mask = op2(b, IR_SHL, IR_T_I32, k(b, IR_T_I32, 0xffff), c->shift);
	ir_ref keep = op2(b, IR_AND, IR_T_I32, cur, op1(b, IR_NOT, IR_T_I32, mask));
	return op2(b, IR_OR, IR_T_I32, keep, op2(b, IR_SHL, IR_T_I32, nv, c->shift));
}

/* A compare-and-swap loop on the 32-bit word at `word`: cur = the word (a relaxed load
 * first, then what each failed swap saw), until the swap of cas_update(cur) for cur
 * succeeds.  Even a cas.b16 that does not match swaps (the word for itself), so the old
 * value comes from an atomic, never from a possibly stale load.  The loop's lanes leave
 * when their own swap succeeded; every round one of the contending lanes succeeds.
 * Returns the word as it was before the successful swap. */
static ir_ref cas_loop(struct irb *b, const struct cas_op *c, ir_ref word, uint32_t space,
                       uint32_t order)
{
	uint32_t relaxed = (order & ~(7u << IR_ORD_SHIFT)) | (uint32_t)IR_ORD_RELAXED
	                                                             << IR_ORD_SHIFT;
	ir_ref init = irb_emit(b, IR_LOAD, IR_T_I32, &word, 1,
	                       space | 2u << IR_MEM_SIZE_SHIFT | relaxed, 0);
	uint32_t loop = irb_new_block(b), done = irb_new_block(b);
	/* high word 0xfffffffd: no register's key reaches it; the loop block makes it unique */
	uint32_t var = irb_var_of_key(b, (uint64_t)0xfffffffdu << 32 | loop, IR_T_I32);
	irb_write_var(b, var, b->cur, init);
	irb_terminate(b, IR_JMP, IR_NO_REF, loop, 0);
	irb_switch_to(b, loop);
	ir_ref cur = irb_read_var(b, var, loop);
	ir_ref args[3] = {word, cur, cas_update(b, c, cur)};
	ir_ref seen = irb_emit(b, IR_ATOMIC, IR_T_I32, args, 3,
	                       space | 2u << IR_MEM_SIZE_SHIFT |
	                               (uint32_t)IR_ATOM_CAS << IR_ATOM_OP_SHIFT | order,
	                       0);
	irb_write_var(b, var, loop, seen);
	ir_ref ok = irb_emit(b, IR_ICMP, IR_T_PRED, (ir_ref[]){seen, cur}, 2, IR_CMP_EQ, 0);
	irb_terminate(b, IR_BR, ok, done, loop);
	irb_seal(b, loop);
	irb_seal(b, done);
	irb_switch_to(b, done);
	return cur;
}

/* The atomic's order and scope bits; a plain atom is .relaxed. */
static bool atom_order(struct irb *b, const struct ptx_insn *in, uint32_t *order)
{
	if (!irb_mem_order(b, in, order))
		return false;
	if (((*order >> IR_ORD_SHIFT) & 7) == IR_ORD_WEAK)
		*order |= (uint32_t)IR_ORD_RELAXED << IR_ORD_SHIFT;
	return true;
}

/* atom/red .add.noftz of f16/bf16/f16x2/bf16x2, atom.cas.b16: a CAS loop on the aligned
 * word holding the value (the PTX ISA requires natural alignment). */
static void tr_atomic_word(struct irb *b, const struct ptx_insn *in, enum ptx_type t)
{
	bool is_red = in->op == PTX_OP_RED;
	unsigned first = is_red ? 0 : 1;
	int space = irb_mem_space(in);
	uint32_t order;
	ir_ref base;
	int64_t off;
	if (!atom_order(b, in, &order) || !irb_address(b, &in->opnds[first], space, &base, &off))
		return;
	enum ir_type at = (enum ir_type)b->fn->vals[base].type;
	ir_ref addr = off ? op2(b, IR_ADD, at, base, k(b, at, (uint64_t)off)) : base;
	struct cas_op c = {.in = in, .t = t, .shift = k(b, IR_T_I32, 0), .cmp = IR_NO_REF};
	ir_ref word = addr;
	if (ptx_types[t].bits == 16) {
		word = op2(b, IR_AND, at, addr, k(b, at, ~3ull));
		ir_ref lo = at == IR_T_I32 ? addr : op1(b, IR_TRUNC, IR_T_I32, addr);
		c.shift = op2(b, IR_SHL, IR_T_I32, op2(b, IR_AND, IR_T_I32, lo, k(b, IR_T_I32, 2)),
		              k(b, IR_T_I32, 3));
	}
	c.val = irb_read_opnd(b, &in->opnds[first + 1], IR_T_I32, false);
	if (t == PTX_TYPE_B16) { /* cas d, [a], b (compare), c (new) */
		c.cmp = c.val;
		c.val = irb_read_opnd(b, &in->opnds[first + 2], IR_T_I32, false);
	}
	ir_ref old = cas_loop(b, &c, word, (uint32_t)space, order);
	if (is_red)
		return;
	if (ptx_types[t].bits == 16)
		old = op1(b, IR_TRUNC, IR_T_I16, op2(b, IR_SHR_U, IR_T_I32, old, c.shift));
	irb_write_dest(b, &in->opnds[0], old, false, IR_NO_REF);
}

/* A copy of in without its vector word: one component's scalar atomic. */
static struct ptx_insn scalar_of(struct irb *b, const struct ptx_insn *in)
{
	struct ptx_insn s = *in;
	s.mods = PA_NEW_ARRAY(b->arena, uint16_t, in->nmods ? in->nmods : 1);
	s.nmods = 0;
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] != PTX_DW_V2 && in->mods[i] != PTX_DW_V4 &&
		    in->mods[i] != PTX_DW_V8)
			s.mods[s.nmods++] = in->mods[i];
	s.opnds = PA_NEW_ARRAY(b->arena, struct ptx_operand, in->nopnds);
	memcpy(s.opnds, in->opnds, in->nopnds * sizeof *in->opnds);
	return s;
}

/* atom/red .vN: component e at a + e * (element size), each an independent atomic. */
static void tr_atomic_vec(struct irb *b, const struct ptx_insn *in, enum ptx_type t)
{
	bool is_red = in->op == PTX_OP_RED;
	unsigned first = is_red ? 0 : 1, n = has(in, PTX_DW_V8) ? 8 : has(in, PTX_DW_V4) ? 4 : 2;
	unsigned bytes = ptx_types[t].bits / 8;
	for (unsigned i = 0; i < in->nopnds; i++)
		if (i != first && (in->opnds[i].kind != PTX_OPND_VEC || in->opnds[i].nelems != n)) {
			irb_unsupported(b, in, "vector atomic operands other than brace lists");
			return;
		}
	if (irb_mem_space(in) != IR_SPACE_GLOBAL && irb_mem_space(in) != IR_SPACE_GENERIC) {
		irb_unsupported(b, in, "state space of a vector atomic");
		return;
	}
	for (unsigned e = 0; e < n && !b->failed; e++) {
		struct ptx_insn s = scalar_of(b, in);
		for (unsigned i = 0; i < in->nopnds; i++)
			if (i != first)
				s.opnds[i] = in->opnds[i].elems[e];
		s.opnds[first].value += e * bytes;
		irb_atomic(b, &s);
	}
}

bool irb_vec_atomic(struct irb *b, const struct ptx_insn *in)
{
	enum ptx_type t = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	if (t == PTX_TYPE_B128) {
		irb_error(b,
		          "128-bit atomics (atom .b128) cannot be compiled for AMD GPUs: they have "
		          "no 16-byte atomic instruction, and no sequence of 64-bit atomics (or a "
		          "compare-and-swap loop over them) is atomic for 16 bytes");
		return true;
	}
	if (has(in, PTX_DW_V2) || has(in, PTX_DW_V4) || has(in, PTX_DW_V8)) {
		tr_atomic_vec(b, in, t);
		return true;
	}
	bool half_add = has(in, PTX_DW_ADD) && (t == PTX_TYPE_F16 || t == PTX_TYPE_BF16 ||
	                                        t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2);
	bool cas16 = has(in, PTX_DW_CAS) && t == PTX_TYPE_B16;
	unsigned want = (in->op == PTX_OP_RED ? 2u : 3u) + (cas16 ? 1u : 0u);
	int space = irb_mem_space(in);
	if (!half_add && !cas16)
		return false;
	if (in->nopnds != want ||
	    (space != IR_SPACE_GLOBAL && space != IR_SPACE_SHARED && space != IR_SPACE_GENERIC))
		return false; /* build_atomic.c names what is not supported */
	tr_atomic_word(b, in, t);
	return true;
}
