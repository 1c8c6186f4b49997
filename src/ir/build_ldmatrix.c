/* ir_build, matrix moves: ldmatrix, stmatrix and movmatrix (.m8n8 .b16) -> IR, portably:
 * cross-lane reads (IR_LANE_READ: ds_bpermute) and ordinary LDS loads and stores.
 *
 * The PTX ISA's layout (docs/MATRIX_MOVES.md): the instruction works on a 32-thread warp and
 * on up to four 8x8 matrices of 16-bit elements.  Row r of matrix i starts at the address
 * thread 8i + r supplies (16 bytes, 16-byte aligned; .x1 uses threads 0-7's addresses, .x2
 * threads 0-15's).  Register i of thread l holds two elements of matrix i packed in a b32,
 * the low half first: M[l/4][2(l%4)] and M[l/4][2(l%4) + 1]; with .trans, of its transpose:
 * M[2(l%4)][l/4] and M[2(l%4) + 1][l/4].
 *
 * Each non-.trans register is noted (build_ldsm.c) with its row-address register, so that a
 * matrix-unit mma reading it may load its own operand layout from LDS instead of shuffling.
 * Algorithm, per matrix i, for thread l of its 32-lane group:
 *   ldmatrix:       row = lane.read(addr, 8i + l/4); d[i] = load32(row + 4(l%4))
 *   ldmatrix.trans: for j in 0,1: col_j = lane.read(addr, 8i + 2(l%4) + j);
 *                   h_j = load16(col_j + 2(l/4)); d[i] = h_0 | h_1 << 16
 *   stmatrix:       the same addresses, storing instead of loading (the b32, or its halves)
 *   movmatrix:      M[r][c] is half c%2 of lane 4r + c/2, so the transposed element j of
 *                   lane l is half (l/4)%2 of lane 8(l%4) + 4j + l/8: two lane.reads and a
 *                   pack.
 * Row addresses are read by an mperm marked IR_MPERM_ALIGNED (every lane takes part), which
 * lane_affine.c computes in the reading lane where the address is affine in the lane.
 * A lane.read takes a wave lane, so the source lanes are offset by the first lane of the
 * executing lane's 32-lane group: on wave64 each half of the wave does its own matrix move,
 * with --warp-size 32 (where a half is the warp) and with the default warp = wave (where
 * the PTX still means 32-thread matrices; lanes 32-63 are a second set of them).
 *
 * Addresses: .shared/.shared::cta addresses are LDS offsets; generic ones (no state space:
 * the ISA says they must point into .shared) are converted with cvta.to.shared, so every
 * access is an LDS access.  An out-of-range or misaligned row address is undefined in PTX
 * and nothing here checks it: it becomes an LDS access at that address (the hardware reads
 * 0 and drops writes out of range; amdsim reports such an access as an error).
 * Guards: `@p ldmatrix` runs in `if (p)`: lanes whose guard is false take no part, and a
 * lane.read of one gives 0 (the .aligned rule makes a guard that differs within a warp
 * undefined).  The 8-bit shapes (.m16n16, .m8n16, stmatrix .m16n8; sm_100a+) are
 * build_ldmatrix_b8.c's, inside the same guard; any other modifier is rejected by name.
 * O(matrices) IR operations per instruction. */
#include <string.h>

#include "build_int.h"

static ir_ref konst(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, ir_ref x, ir_ref y)
{
	ir_ref args[2] = {x, y};
	return irb_emit(b, op, IR_T_I32, args, 2, 0, 0);
}

/* The executing lane's place, computed once per instruction: l is its lane within its
 * 32-lane group (the PTX thread), q = l/4 and r = l%4 (its row and column pair in a
 * fragment), and the group's first wave lane, already ORed into the source-lane bases (the
 * terms below stay under 32, so OR is addition). */
struct group_lane {
	ir_ref l, q, r;
	ir_ref first;     /* IR_NO_REF on wave32 */
	ir_ref row_src;   /* q | first: the lane that gave row l/4 of matrix 0 */
	ir_ref col_src;   /* 2r | first: the lane that gave row 2(l%4) of matrix 0 */
	ir_ref row_bytes; /* 4r: the byte offset of its column pair in a row */
	ir_ref col_bytes; /* 2q: the byte offset of column l/4 in a row */
};

static struct group_lane group_lane(struct irb *b)
{
	ir_ref wl = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	struct group_lane g = {.l = wl, .first = IR_NO_REF};
	if (b->fn->wave_size == 64) {
		g.l = op2(b, IR_AND, wl, konst(b, 31));
		g.first = op2(b, IR_AND, wl, konst(b, 32));
	}
	g.q = op2(b, IR_SHR_U, g.l, konst(b, 2));
	g.r = op2(b, IR_AND, g.l, konst(b, 3));
	g.row_src = g.q;
	g.col_src = op2(b, IR_SHL, g.r, konst(b, 1));
	if (g.first != IR_NO_REF) {
		g.row_src = op2(b, IR_OR, g.row_src, g.first);
		g.col_src = op2(b, IR_OR, g.col_src, g.first);
	}
	g.row_bytes = op2(b, IR_SHL, g.r, konst(b, 2));
	g.col_bytes = op2(b, IR_SHL, g.q, konst(b, 1));
	return g;
}

/* The value v of the lane base | k (a base of struct group_lane, k a constant). */
static ir_ref group_read(struct irb *b, ir_ref v, ir_ref base, uint32_t k)
{
	return op2(b, IR_LANE_READ, v, k ? op2(b, IR_OR, base, konst(b, k)) : base);
}

static bool allowed_mod(const struct ptx_insn *in, enum ptx_dotword w)
{
	switch (w) {
	case PTX_DW_SYNC:
	case PTX_DW_ALIGNED:
	case PTX_DW_M8N8:
	case PTX_DW_TRANS:
	case PTX_DW_B16:
		return true;
	case PTX_DW_X1:
	case PTX_DW_X2:
	case PTX_DW_X4:
	case PTX_DW_SHARED:
	case PTX_DW_SHARED_CTA:
		return in->op != PTX_OP_MOVMATRIX;
	default:
		return false;
	}
}

/* Every modifier is one this file implements, the required ones are there, and the
 * operands have the forms it reads; else an error naming what is not. */
static bool check_form(struct irb *b, const struct ptx_insn *in)
{
	const char *name = ptx_ops[in->op].name;
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ptx_dotword w = (enum ptx_dotword)in->mods[i];
		if (allowed_mod(in, w))
			continue;
		irb_error(b, "'%s' does not take '%s'%s", name, ptx_dotwords[w].text,
		          ptx_dotwords[w].classes & PTX_MC_SPACE
		                  ? " (its state space is .shared, .shared::cta or generic)"
		                  : "");
		return false;
	}
	static const enum ptx_dotword need[] = {PTX_DW_SYNC, PTX_DW_ALIGNED, PTX_DW_M8N8,
	                                        PTX_DW_B16};
	for (unsigned k = 0; k < sizeof need / sizeof need[0]; k++)
		if (!ptx_insn_has_mod(in, need[k])) {
			irb_error(b, "'%s' needs '%s'", name, ptx_dotwords[need[k]].text);
			return false;
		}
	if (in->op == PTX_OP_MOVMATRIX && !ptx_insn_has_mod(in, PTX_DW_TRANS)) {
		irb_error(b, "'movmatrix' needs '.trans'");
		return false;
	}
	return true;
}

static unsigned matrices(const struct ptx_insn *in)
{
	return ptx_insn_has_mod(in, PTX_DW_X4) ? 4 : ptx_insn_has_mod(in, PTX_DW_X2) ? 2 : 1;
}

/* Register e of a brace list (or the single register written without braces). */
static const struct ptx_operand *elem(const struct ptx_operand *o, unsigned e)
{
	return o->kind == PTX_OPND_VEC ? &o->elems[e] : o;
}

static unsigned nelems(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_VEC ? o->nelems : 1;
}

/* The parser checks the count too; this keeps the builder safe on its own. */
static bool count_ok(struct irb *b, const struct ptx_insn *in, const struct ptx_operand *o,
                     unsigned n)
{
	if (nelems(o) == n)
		return true;
	irb_error(b, "'%s' with .x%u moves %u registers, found %u", ptx_ops[in->op].name, n, n,
	          nelems(o));
	return false;
}

/* This lane's row address as an LDS offset (i32) and the operand's constant offset (also
 * the 8-bit forms', build_ldmatrix_b8.c). */
bool irb_lds_row_address(struct irb *b, const struct ptx_insn *in, const struct ptx_operand *o,
                         ir_ref *addr, int64_t *off)
{
	bool shared =
	        ptx_insn_has_mod(in, PTX_DW_SHARED) || ptx_insn_has_mod(in, PTX_DW_SHARED_CTA);
	ir_ref base;
	if (!irb_address(b, o, shared ? IR_SPACE_SHARED : IR_SPACE_GENERIC, &base, off))
		return false;
	if (b->fn->vals[base].type == IR_T_I64)
		base = irb_emit(b, shared ? IR_TRUNC : IR_CVTA_TO, IR_T_I32, &base, 1,
		                shared ? 0 : IR_SPACE_SHARED, 0);
	*addr = base;
	return true;
}

enum { LDS_32 = 2u << IR_MEM_SIZE_SHIFT, LDS_16 = 1u << IR_MEM_SIZE_SHIFT };

static ir_ref lds_load(struct irb *b, ir_ref addr, uint32_t size, int64_t off)
{
	return irb_emit(b, IR_LOAD, IR_T_I32, &addr, 1, IR_SPACE_SHARED | size, off);
}

static void lds_store(struct irb *b, ir_ref addr, ir_ref v, uint32_t size, int64_t off)
{
	ir_ref args[2] = {addr, v};
	irb_emit(b, IR_STORE, IR_T_I32, args, 2, IR_SPACE_SHARED | size, off);
}

/* The row address of the lane base | k (a base of struct group_lane, k a constant): an
 * aligned MPERM (every lane of the warp takes part), which lane_affine.c may compute in the
 * reading lane. */
static ir_ref row_read(struct irb *b, ir_ref addr, ir_ref base, uint32_t k)
{
	ir_ref at = op2(b, IR_SHL, k ? op2(b, IR_OR, base, konst(b, k)) : base, konst(b, 2));
	ir_ref args[2] = {addr, at};
	return irb_emit(b, IR_MPERM, IR_T_I32, args, 2, IR_MPERM_ALIGNED, 0);
}

/* Where lane l's element j (0: low half, 1: high half; -1: both, non-.trans) of matrix i
 * lives in memory: its row's address read from the lane that supplied it, plus the column. */
static ir_ref element_address(struct irb *b, const struct group_lane *g, ir_ref addr, unsigned i,
                              int j)
{
	if (j < 0) /* row l/4, columns 2(l%4) and 2(l%4)+1: bytes 4(l%4) of row 8i + l/4 */
		return op2(b, IR_ADD, row_read(b, addr, g->row_src, 8 * i), g->row_bytes);
	/* .trans: row 2(l%4) + j of the stored matrix, column l/4: bytes 2(l/4) */
	return op2(b, IR_ADD, row_read(b, addr, g->col_src, 8 * i + (unsigned)j), g->col_bytes);
}

static void tr_ldmatrix(struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *d = &in->opnds[0];
	unsigned n = matrices(in);
	bool trans = ptx_insn_has_mod(in, PTX_DW_TRANS);
	ir_ref addr;
	int64_t off;
	if (!count_ok(b, in, d, n) || !irb_lds_row_address(b, in, &in->opnds[1], &addr, &off))
		return;
	struct group_lane g = group_lane(b);
	for (unsigned i = 0; i < n; i++) {
		ir_ref v;
		if (!trans) {
			v = lds_load(b, element_address(b, &g, addr, i, -1), LDS_32, off);
			ldsm_note(b, v, addr, off, i); /* an mma may load it its own way */
		} else {
			ir_ref lo = lds_load(b, element_address(b, &g, addr, i, 0), LDS_16, off);
			ir_ref hi = lds_load(b, element_address(b, &g, addr, i, 1), LDS_16, off);
			/* prmt 0x5410: lo's low half, hi's low half above it (one v_perm_b32; an
			 * OR of a shift is two VALU operations) */
			ir_ref args[3] = {lo, hi, konst(b, 0x5410)};
			v = irb_emit(b, IR_PRMT, IR_T_I32, args, 3, 0, 0);
		}
		irb_write_dest(b, elem(d, i), v, false, IR_NO_REF);
	}
}

static void tr_stmatrix(struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *s = &in->opnds[1];
	unsigned n = matrices(in);
	bool trans = ptx_insn_has_mod(in, PTX_DW_TRANS);
	ir_ref addr;
	int64_t off;
	if (!count_ok(b, in, s, n) || !irb_lds_row_address(b, in, &in->opnds[0], &addr, &off))
		return;
	struct group_lane g = group_lane(b);
	for (unsigned i = 0; i < n; i++) {
		ir_ref v = irb_read_opnd(b, elem(s, i), IR_T_I32, false);
		if (!trans) {
			lds_store(b, element_address(b, &g, addr, i, -1), v, LDS_32, off);
			continue;
		}
		lds_store(b, element_address(b, &g, addr, i, 0), v, LDS_16, off);
		lds_store(b, element_address(b, &g, addr, i, 1), op2(b, IR_SHR_U, v, konst(b, 16)),
		          LDS_16, off);
	}
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the register-held matrix transposed.  Element j
 * of lane l is half (l/4)%2 of lane 8(l%4) + 4j + l/8 of its group. */
static void tr_movmatrix(struct irb *b, const struct ptx_insn *in)
{
	ir_ref a = irb_read_opnd(b, &in->opnds[1], IR_T_I32, false);
	struct group_lane g = group_lane(b);
	ir_ref shift = op2(b, IR_SHL, op2(b, IR_AND, g.q, konst(b, 1)), konst(b, 4));
	ir_ref base =
	        op2(b, IR_OR, op2(b, IR_SHL, g.r, konst(b, 3)), op2(b, IR_SHR_U, g.l, konst(b, 3)));
	if (g.first != IR_NO_REF)
		base = op2(b, IR_OR, base, g.first);
	ir_ref half[2];
	for (unsigned j = 0; j < 2; j++) {
		ir_ref x = op2(b, IR_SHR_U, group_read(b, a, base, 4 * j), shift);
		half[j] = op2(b, IR_AND, x, konst(b, 0xffff));
	}
	ir_ref v = op2(b, IR_OR, half[0], op2(b, IR_SHL, half[1], konst(b, 16)));
	irb_write_dest(b, &in->opnds[0], v, false, IR_NO_REF);
}

static void translate(struct irb *b, const struct ptx_insn *in)
{
	if (irb_matrix_move_is_b8(in))
		irb_matrix_move_b8(b, in); /* build_ldmatrix_b8.c */
	else if (in->op == PTX_OP_LDMATRIX)
		tr_ldmatrix(b, in);
	else if (in->op == PTX_OP_STMATRIX)
		tr_stmatrix(b, in);
	else
		tr_movmatrix(b, in);
}

void irb_matrix_move(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (irb_matrix_move_is_b8(in) ? !irb_matrix_move_b8_check(b, in) : !check_form(b, in))
		return;
	if (guard == IR_NO_REF) {
		translate(b, in);
		return;
	}
	/* @p: if (p) { the move }; the lanes whose guard is false take no part */
	uint32_t then = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, guard, then, join);
	irb_switch_to(b, then);
	translate(b, in);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
}
