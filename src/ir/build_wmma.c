/* ir_build: the wmma fragments, wmma.load and wmma.store -> IR (docs/TENSOR.md).
 *
 * wmma's fragment layout is opaque in PTX (only wmma.load/mma/store and element-wise code
 * see it), so this compiler defines it, as tiles of mma.sync fragments (build_mma.c): an
 * MxNxK wmma is (M/M0) x (N/8) products of mma shape M0 x 8 x K with M0 = min(M, 16):
 *   A: M/M0 tiles of the mma A fragment (rows 16t..), B: N/8 tiles of the mma B fragment
 *   (columns 8t..), C/D: (M/M0) x (N/8) tiles of the mma C fragment, row-tile major;
 *   m16n16k16 = 2 x m16n8k16, m32n8k16 = 2 x m16n8k16 (m), m8n32k16 = 4 x m8n8k16 (the A
 *   fragment of m16n8k16 without rows 8-15), m16n16k8 = 2 x m16n8k8 .tf32, m8n8k4 .f64,
 *   m8n8k32 .s4/.u4 and m8n8k128 .b1 are the mma shapes themselves.
 * The PTX ISA fixes the register count of each fragment (an .f16 A or B is 8 .f16x2
 * registers whatever the shape): registers beyond the tiles' are copies of the first ones
 * (register r holds register r % real), written by wmma.load and never read.
 * wmma.load/store: each lane loads or stores the elements it owns, at
 *   address + (row * stride + col) * size   (.row; .col: col * stride + row)
 * with row and col functions of the lane (mma_fit), stride the operand (in elements) or by
 * default the leading dimension of the matrix; 4-bit and 1-bit elements go a register (32
 * bits, contiguous in memory in the .row A / .col B layouts the ISA requires) at a time.
 * A guard (@p wmma.load/store) skips the memory accesses of the lanes where p is false.
 * O(elements) IR operations per instruction. */
#include "ir/build_mma.h"

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, t, args, 2, 0, 0);
}

static unsigned per_reg(enum mma_ek k)
{
	return k == EK_F64 ? 1 : 32 / mma_ek_bits(k);
}

/* Whether (shape, element type) is a wmma form of the PTX ISA for fragment which. */
static bool wmma_type_ok(unsigned m, unsigned n, unsigned k, char which, enum mma_ek ek)
{
	bool c = which == 'c' || which == 'd';
	if (k == 16 && m * n == 256)
		return c ? ek == EK_F16 || ek == EK_F32 || ek == EK_S32
		         : ek == EK_F16 || ek == EK_BF16 || ek == EK_S8 || ek == EK_U8;
	if (m == 16 && n == 16 && k == 8)
		return c ? ek == EK_F32 : ek == EK_TF32;
	if (m == 8 && n == 8 && k == 4)
		return ek == EK_F64;
	if (m == 8 && n == 8 && k == 32)
		return c ? ek == EK_S32 : ek == EK_S4 || ek == EK_U4;
	if (m == 8 && n == 8 && k == 128)
		return c ? ek == EK_S32 : ek == EK_B1;
	return false;
}

bool mma_wmma_layout(unsigned m, unsigned n, unsigned k, char which, enum mma_ek ek,
                     struct mma_layout *l)
{
	if (!wmma_type_ok(m, n, k, which, ek))
		return false;
	unsigned m0 = m < 16 ? m : 16, mt = m / m0, nt = n / 8;
	*l = (struct mma_layout){.m0 = m0, .k = k, .per = per_reg(ek)};
	if (which == 'a') {
		l->kind = LK_A;
		l->nelem = m0 * k / 32;
		l->ntiles = mt;
		for (unsigned t = 0; t < mt; t++)
			l->trow[t] = (uint16_t)(16 * t);
	} else if (which == 'b') {
		l->kind = LK_B;
		l->nelem = k * 8 / 32;
		l->ntiles = nt;
		for (unsigned t = 0; t < nt; t++)
			l->tcol[t] = (uint16_t)(8 * t);
	} else {
		l->kind = LK_C;
		l->nelem = m0 * 8 / 32;
		l->ntiles = mt * nt;
		for (unsigned t = 0; t < mt * nt; t++) {
			l->trow[t] = (uint16_t)(16 * (t / nt));
			l->tcol[t] = (uint16_t)(8 * (t % nt));
		}
	}
	return true;
}

/* Registers that hold the tiles' elements. */
static unsigned real_regs(const struct mma_layout *l, char which, enum mma_ek ek)
{
	unsigned per = which == 'a' || which == 'b' ? l->per : ek == EK_F16 ? 2 : 1;
	return mma_layout_elems(l) / per;
}

unsigned mma_wmma_regs(unsigned m, unsigned k, char which, enum mma_ek ek,
                       const struct mma_layout *l)
{
	(void)m;
	(void)k;
	if ((which == 'a' || which == 'b') && ek == EK_F16)
		return 8; /* PTX ISA: eight .f16x2 registers for every .f16 A and B */
	return real_regs(l, which, ek);
}

/* The lane function of element e's row or column (col: true). */
static bool coord_fn(const struct mma_layout *l, unsigned e, bool col, struct mma_lanefn *f)
{
	unsigned v[32];
	for (unsigned lane = 0; lane < 32; lane++) {
		struct mma_coord p = mma_elem(l, lane, e);
		v[lane] = col ? p.col : p.row;
	}
	return mma_fit(v, f);
}

struct wmma_mem {
	int space;
	ir_ref base; /* i64, or i32 for .shared */
	int64_t off;
	ir_ref stride;
	bool col_major;
	unsigned bits; /* element size */
};

/* The address of element e of layout l, or of its register's first element (sub-word
 * elements); IR_NO_REF if the layout is not a lane function. */
static ir_ref elem_address(struct irb *b, const struct wmma_mem *m, const struct mma_layout *l,
                           unsigned e)
{
	struct mma_lanefn rf, cf;
	if (!coord_fn(l, e, false, &rf) || !coord_fn(l, e, true, &cf))
		return IR_NO_REF;
	ir_ref row = mma_lanefn_value(b, &rf), col = mma_lanefn_value(b, &cf);
	ir_ref major = m->col_major ? col : row, minor = m->col_major ? row : col;
	ir_ref at = op2(b, IR_ADD, IR_T_I32, op2(b, IR_MUL, IR_T_I32, major, m->stride), minor);
	if (m->bits >= 8)
		at = op2(b, IR_MUL, IR_T_I32, at, konst(b, IR_T_I32, m->bits / 8));
	else
		at = op2(b, IR_SHR_U, IR_T_I32, at, konst(b, IR_T_I32, m->bits == 4 ? 1 : 3));
	if (m->space == IR_SPACE_SHARED)
		return op2(b, IR_ADD, IR_T_I32, m->base, at);
	ir_ref wide = irb_emit(b, IR_ZEXT, IR_T_I64, &at, 1, 0, 0);
	return op2(b, IR_ADD, IR_T_I64, m->base, wide);
}

/* Whether the elements of each register lie one after the other in memory. */
static bool registers_contiguous(const struct mma_layout *l, bool col_major)
{
	for (unsigned lane = 0; lane < 32; lane++)
		for (unsigned e = 0; e < mma_layout_elems(l); e++) {
			struct mma_coord p0 = mma_elem(l, lane, e - e % l->per),
			                 p = mma_elem(l, lane, e);
			unsigned d = e % l->per;
			if (col_major ? (p.col != p0.col || p.row != p0.row + d)
			              : (p.row != p0.row || p.col != p0.col + d))
				return false;
			if ((col_major ? p0.row : p0.col) % l->per)
				return false;
		}
	return true;
}

static uint32_t mem_aux(const struct wmma_mem *m, unsigned bytes)
{
	unsigned lg = bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
	return (uint32_t)m->space | lg << IR_MEM_SIZE_SHIFT;
}

/* The fragment's registers read from memory: real ones, then the copies. */
static bool load_frag(struct irb *b, const struct wmma_mem *m, const struct mma_layout *l,
                      unsigned per, unsigned nreal, ir_ref *regs)
{
	bool whole = m->bits < 8; /* sub-byte elements: a register at a time */
	for (unsigned r = 0; r < nreal; r++) {
		ir_ref v = IR_NO_REF;
		for (unsigned s = 0; s < (whole ? 1 : per); s++) {
			ir_ref a = elem_address(b, m, l, r * per + s);
			if (a == IR_NO_REF)
				return false;
			unsigned bytes = whole ? 4 : m->bits / 8;
			enum ir_type t = bytes == 8 ? IR_T_I64 : IR_T_I32;
			ir_ref x = irb_emit(b, IR_LOAD, t, &a, 1, mem_aux(m, bytes), m->off);
			if (s)
				x = op2(b, IR_SHL, IR_T_I32, x, konst(b, IR_T_I32, s * m->bits));
			v = s ? op2(b, IR_OR, IR_T_I32, v, x) : x;
		}
		regs[r] = v;
	}
	return true;
}

static bool store_frag(struct irb *b, const struct wmma_mem *m, const struct mma_layout *l,
                       unsigned per, unsigned nreal, const ir_ref *regs)
{
	for (unsigned r = 0; r < nreal; r++)
		for (unsigned s = 0; s < per; s++) {
			ir_ref a = elem_address(b, m, l, r * per + s);
			if (a == IR_NO_REF)
				return false;
			ir_ref v = regs[r];
			if (s)
				v = op2(b, IR_SHR_U, IR_T_I32, v, konst(b, IR_T_I32, s * m->bits));
			ir_ref args[2] = {a, v};
			irb_emit(b, IR_STORE, m->bits == 64 ? IR_T_I64 : IR_T_I32, args, 2,
			         mem_aux(m, m->bits / 8), m->off);
		}
	return true;
}

/* Which fragment a wmma.load names (.a .b .c), or 'd' for wmma.store. */
static char frag_of(const struct ptx_insn *in)
{
	if (in->op == PTX_OP_WMMA_STORE)
		return ptx_insn_has_mod(in, PTX_DW_D) ? 'd' : 0;
	return ptx_insn_has_mod(in, PTX_DW_A)   ? 'a'
	       : ptx_insn_has_mod(in, PTX_DW_B) ? 'b'
	       : ptx_insn_has_mod(in, PTX_DW_C) ? 'c'
	                                        : 0;
}

static void wmma_mem(struct irb *b, const struct ptx_insn *in, char which, struct mma_layout *l,
                     struct wmma_mem *m, unsigned nregs)
{
	bool store = in->op == PTX_OP_WMMA_STORE;
	const struct ptx_operand *frag = &in->opnds[store ? 1 : 0];
	enum mma_ek ek = mma_ek_of(in->types[0]);
	unsigned per = which == 'a' || which == 'b' ? l->per : ek == EK_F16 ? 2 : 1;
	unsigned nreal = real_regs(l, which, ek);
	if ((frag->kind == PTX_OPND_VEC ? frag->nelems : 1) != nregs) {
		irb_error(b, "'%s' wants a fragment of %u registers here", ptx_ops[in->op].name,
		          nregs);
		return;
	}
	if (m->bits < 8 && !registers_contiguous(l, m->col_major)) {
		irb_unsupported(b, in, "this layout for 4-bit or 1-bit elements");
		return;
	}
	bool wide = ek == EK_F64;
	ir_ref *regs = PA_NEW_ARRAY(b->arena, ir_ref, nregs);
	bool ok;
	if (store) {
		for (unsigned r = 0; r < nreal; r++)
			regs[r] = irb_read_opnd(b, &frag->elems[r], wide ? IR_T_I64 : IR_T_I32,
			                        false);
		ok = store_frag(b, m, l, per, nreal, regs);
	} else {
		ok = load_frag(b, m, l, per, nreal, regs);
		for (unsigned r = 0; ok && r < nregs; r++)
			irb_write_dest(b, frag->kind == PTX_OPND_VEC ? &frag->elems[r] : frag,
			               regs[r % nreal], false, IR_NO_REF);
	}
	if (!ok)
		irb_unsupported(b, in, "a fragment layout that is not a function of lane bits");
}

void irb_wmma_mem(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	unsigned mm, n, k;
	char which = frag_of(in);
	bool store = in->op == PTX_OP_WMMA_STORE;
	struct mma_layout l;
	struct wmma_mem m = {0};
	enum mma_ek ek = in->ntypes == 1 ? mma_ek_of(in->types[0]) : EK_NONE;
	if (!which || !mma_shape(in, &mm, &n, &k) || ek == EK_NONE ||
	    !mma_wmma_layout(mm, n, k, which, ek, &l)) {
		irb_unsupported(b, in, "this wmma fragment, shape and type");
		return;
	}
	bool row = ptx_insn_has_mod(in, PTX_DW_ROW), col = ptx_insn_has_mod(in, PTX_DW_COL);
	if (row == col) {
		irb_unsupported(b, in, "a wmma access without one of .row/.col");
		return;
	}
	m.col_major = col;
	m.bits = mma_ek_bits(ek);
	m.space = irb_mem_space(in);
	if (m.space != IR_SPACE_GLOBAL && m.space != IR_SPACE_SHARED &&
	    m.space != IR_SPACE_GENERIC) {
		irb_unsupported(b, in, "this state space");
		return;
	}
	const struct ptx_operand *addr = &in->opnds[store ? 0 : 1];
	if (!irb_address(b, addr, m.space, &m.base, &m.off))
		return;
	if (m.space == IR_SPACE_SHARED && b->fn->vals[m.base].type == IR_T_I64)
		m.base = irb_emit(b, IR_TRUNC, IR_T_I32, &m.base, 1, 0, 0);
	unsigned rows = which == 'b' ? k : mm, cols = which == 'a' ? k : n;
	if (in->nopnds > 2)
		m.stride = irb_read_opnd(b, &in->opnds[2], IR_T_I32, false);
	else /* PTX ISA: the default stride is the leading dimension */
		m.stride = konst(b, IR_T_I32, col ? rows : cols);
	unsigned nregs = mma_wmma_regs(mm, k, which, ek, &l);
	if (guard == IR_NO_REF) {
		wmma_mem(b, in, which, &l, &m, nregs);
		return;
	}
	uint32_t then = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, guard, then, join);
	irb_switch_to(b, then);
	wmma_mem(b, in, which, &l, &m, nregs);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
}
