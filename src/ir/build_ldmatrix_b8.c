/* ir_build, the 8-bit matrix moves of sm_100a -> IR, portably: cross-lane reads of the row
 * addresses (IR_LANE_READ: ds_bpermute) and byte/halfword LDS loads and stores, as
 * build_ldmatrix.c does for the .m8n8.b16 forms (which dispatches here for these shapes).
 *
 * Layout (docs/MATRIX_MOVES.md, "The 8-bit forms": NVIDIA's CuTe copy traits of these
 * instructions, include/cute/atom/copy_traits_sm100.hpp, checked against the PTX ISA's text).
 * Thread l of a 32-lane group, a = l%4, b = l/4; "row r" is the 16 bytes at the address
 * thread r supplies; element e of a row is its byte e, or for the decompressing formats
 * its e-th 4-/6-bit field (below):
 *   ldmatrix.m16n16.x{1,2}.trans (.b8, .b8x16.b6x16_p32/.b4x16_p64): matrix i's 16 rows
 *       come from threads 16i..16i+15; register 2i + h, byte j = element b + 8h of row
 *       16i + 4a + j (thread l holds columns 4a..4a+3 of rows b and b+8 of the transpose).
 *   ldmatrix.m8n16.x{1,2,4} (.b8x16.b6x16_p32/.b4x16_p64): matrix i's 8 rows come from
 *       threads 8i..8i+7; register i, byte j = element 4a + j of row 8i + b.
 *   stmatrix.m16n8.x{1,2,4}.trans.b8: register i, byte k of thread l goes to byte b + 8(k/2)
 *       of row 8i + 2a + k%2 (the transpose of a 16x8 fragment held like mma's C).
 * Decompression (PTX ISA "Optional Decompression", "Padding and alignment of the sub-byte
 * types"; CuTe's mma_traits_sm120.hpp on ldmatrix's b4x16_p64 result): a row holds 16
 * unsigned elements packed from its first byte, element e at bits 4e (6e) of the
 * little-endian 64 (96) bits, then 8 (4) bytes of padding that are not read; each element
 * lands zero-extended in the low bits of its 8-bit destination.
 *
 * Algorithm, per matrix: a lane.read per row address a thread needs (4 for .m16n16, 1 for
 * .m8n16, 2 for stmatrix), then LDS accesses at that row plus the lane's column: .m16n16 one
 * byte load per element (two for a 6-bit element that may cross a byte), packed with prmt;
 * .m8n16 one 16-bit (4-bit elements) or three byte (6-bit) loads spread into bytes with
 * shifts and masks; stmatrix four byte stores per register.  On wave64 each 32-lane half is a
 * warp (source lanes offset by the half's first lane), as in build_ldmatrix.c.  Addresses
 * and guards are treated as there: .shared offsets or generic ones converted with
 * cvta.to.shared, `@p` wraps the move in build_ldmatrix.c's if (p). */
#include "build_int.h"

enum form_shape { M16N16, M8N16, M16N8 };

struct form {
	enum form_shape shape;
	unsigned num;  /* matrices: .x1/.x2/.x4 */
	unsigned bits; /* bits of an element in memory: 8, 6 or 4 */
};

static ir_ref konst(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, ir_ref x, ir_ref y)
{
	return irb_op2(b, op, IR_T_I32, x, y, 0);
}

static ir_ref opk(struct irb *b, enum ir_op op, ir_ref x, uint32_t k)
{
	return op2(b, op, x, konst(b, k));
}

bool irb_matrix_move_is_b8(const struct ptx_insn *in)
{
	return ptx_insn_has_mod(in, PTX_DW_M16N16) || ptx_insn_has_mod(in, PTX_DW_M8N16) ||
	       ptx_insn_has_mod(in, PTX_DW_M16N8);
}

static bool allowed_mod(enum ptx_dotword w)
{
	switch (w) {
	case PTX_DW_SYNC:
	case PTX_DW_ALIGNED:
	case PTX_DW_M16N16:
	case PTX_DW_M8N16:
	case PTX_DW_M16N8:
	case PTX_DW_X1:
	case PTX_DW_X2:
	case PTX_DW_X4:
	case PTX_DW_TRANS:
	case PTX_DW_SHARED:
	case PTX_DW_SHARED_CTA:
	case PTX_DW_B8:
	case PTX_DW_B8X16:
	case PTX_DW_B6X16_P32:
	case PTX_DW_B4X16_P64:
		return true;
	default:
		return false;
	}
}

static bool fail(struct irb *b, const struct ptx_insn *in, const char *what)
{
	irb_error(b, "'%s' %s", ptx_ops[in->op].name, what);
	return false;
}

/* The element format: .b8 (a type), or .b8x16 with .b6x16_p32 or .b4x16_p64. */
static bool element_bits(struct irb *b, const struct ptx_insn *in, unsigned *bits)
{
	bool b6 = ptx_insn_has_mod(in, PTX_DW_B6X16_P32),
	     b4 = ptx_insn_has_mod(in, PTX_DW_B4X16_P64);
	if (b6 || b4 || ptx_insn_has_mod(in, PTX_DW_B8X16)) {
		if (in->ntypes || !ptx_insn_has_mod(in, PTX_DW_B8X16) || b6 == b4)
			return fail(b, in, "needs '.b8x16' and one of '.b6x16_p32', '.b4x16_p64'");
		*bits = b6 ? 6 : 4;
		return true;
	}
	if (in->ntypes != 1 || in->types[0] != PTX_TYPE_B8)
		return fail(b, in, "with an 8-bit shape needs '.b8' or the '.b8x16' formats");
	*bits = 8;
	return true;
}

/* The form of an .m16n16/.m8n16/.m16n8 move, or false after an error naming what is not one
 * of those this file implements (ptxas refuses the same combinations). */
static bool read_form(struct irb *b, const struct ptx_insn *in, struct form *f)
{
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ptx_dotword w = (enum ptx_dotword)in->mods[i];
		if (!allowed_mod(w)) {
			irb_error(b, "'%s' does not take '%s'%s", ptx_ops[in->op].name,
			          ptx_dotwords[w].text,
			          ptx_dotwords[w].classes & PTX_MC_SPACE
			                  ? " (its state space is .shared, .shared::cta or generic)"
			                  : "");
			return false;
		}
	}
	if (!ptx_insn_has_mod(in, PTX_DW_SYNC) || !ptx_insn_has_mod(in, PTX_DW_ALIGNED))
		return fail(b, in, "needs '.sync.aligned'");
	bool ld = in->op == PTX_OP_LDMATRIX, trans = ptx_insn_has_mod(in, PTX_DW_TRANS);
	f->shape = ptx_insn_has_mod(in, PTX_DW_M16N16)  ? M16N16
	           : ptx_insn_has_mod(in, PTX_DW_M8N16) ? M8N16
	                                                : M16N8;
	f->num = ptx_insn_has_mod(in, PTX_DW_X4) ? 4 : ptx_insn_has_mod(in, PTX_DW_X2) ? 2 : 1;
	if (!element_bits(b, in, &f->bits))
		return false;
	switch (f->shape) {
	case M16N16:
		if (!ld)
			return fail(b, in,
			            "does not take '.m16n16' (stmatrix's 8-bit shape is .m16n8)");
		if (!trans)
			return fail(b, in, "needs '.trans' with shape .m16n16");
		if (f->num == 4)
			return fail(b, in, "takes '.x1' or '.x2' with shape .m16n16");
		return true;
	case M8N16:
		if (!ld)
			return fail(b, in,
			            "does not take '.m8n16' (stmatrix's 8-bit shape is .m16n8)");
		if (trans)
			return fail(b, in, "does not take '.trans' with shape .m8n16");
		if (f->bits == 8)
			return fail(b, in,
			            "with shape .m8n16 needs '.b8x16.b6x16_p32' or "
			            "'.b8x16.b4x16_p64'");
		return true;
	default:
		if (ld)
			return fail(b, in,
			            "does not take '.m16n8' (ldmatrix's 8-bit shapes are .m16n16 "
			            "and .m8n16)");
		if (!trans)
			return fail(b, in, "needs '.trans' with shape .m16n8");
		if (f->bits != 8)
			return fail(b, in, "with shape .m16n8 moves '.b8' elements");
		return true;
	}
}

bool irb_matrix_move_b8_check(struct irb *b, const struct ptx_insn *in)
{
	struct form f;
	return read_form(b, in, &f);
}

/* The executing lane's place in its 32-lane group: a = l%4, b = l/4, and the group's first
 * wave lane (IR_NO_REF on wave32), ORed into source-lane bases (terms stay under 32). */
struct lane {
	ir_ref a, b, first;
};

static struct lane group_lane(struct irb *b)
{
	ir_ref wl = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	struct lane g = {.first = IR_NO_REF};
	ir_ref l = wl;
	if (b->fn->wave_size == 64) {
		l = opk(b, IR_AND, wl, 31);
		g.first = opk(b, IR_AND, wl, 32);
	}
	g.a = opk(b, IR_AND, l, 3);
	g.b = opk(b, IR_SHR_U, l, 2);
	return g;
}

/* A source-lane base: v (a lane-dependent term under 32) in the executing lane's group. */
static ir_ref lane_base(struct irb *b, const struct lane *g, ir_ref v)
{
	return g->first == IR_NO_REF ? v : op2(b, IR_OR, v, g->first);
}

/* The row address of lane base | k. */
static ir_ref row_of(struct irb *b, ir_ref addr, ir_ref base, uint32_t k)
{
	return op2(b, IR_LANE_READ, addr, k ? opk(b, IR_OR, base, k) : base);
}

enum { LDS_8 = 0u << IR_MEM_SIZE_SHIFT, LDS_16 = 1u << IR_MEM_SIZE_SHIFT };

static ir_ref load(struct irb *b, ir_ref addr, uint32_t size, int64_t off)
{
	return irb_emit(b, IR_LOAD, IR_T_I32, &addr, 1, IR_SPACE_SHARED | size, off);
}

static ir_ref prmt(struct irb *b, ir_ref x, ir_ref y, uint32_t sel)
{
	ir_ref args[3] = {x, y, konst(b, sel)};
	return irb_emit(b, IR_PRMT, IR_T_I32, args, 3, 0, 0);
}

/* Four values' low bytes packed into a b32, x[0] lowest. */
static ir_ref pack4(struct irb *b, const ir_ref x[4])
{
	return prmt(b, prmt(b, x[0], x[1], 0x0040), prmt(b, x[2], x[3], 0x0040), 0x5410);
}

/* Per lane, what locates element b + 8h (h = 0, 1) of a row for .m16n16: its byte offset
 * (plus 4h for 4-bit, 6h for 6-bit, 8h for 8-bit elements) and its shift in the loaded bits. */
struct column {
	ir_ref byte, shift;
	int64_t step; /* byte offset of element b + 8 from element b */
};

static struct column column_of(struct irb *b, const struct lane *g, unsigned bits)
{
	struct column c = {.byte = g->b, .shift = IR_NO_REF, .step = bits};
	if (bits == 4) { /* element e: byte e/2, bits 4(e%2) */
		c.byte = opk(b, IR_SHR_U, g->b, 1);
		c.shift = opk(b, IR_SHL, opk(b, IR_AND, g->b, 1), 2);
	} else if (bits == 6) { /* element e: bits 6e, in bytes 6e/8 and 6e/8 + 1 */
		ir_ref bit = op2(b, IR_ADD, opk(b, IR_SHL, g->b, 2), opk(b, IR_SHL, g->b, 1));
		c.byte = opk(b, IR_SHR_U, bit, 3);
		c.shift = opk(b, IR_AND, bit, 7);
	}
	return c;
}

/* Element b + 8h of the row at `row`, zero-extended. */
static ir_ref m16n16_element(struct irb *b, const struct column *c, unsigned bits, ir_ref row,
                             unsigned h, int64_t off)
{
	ir_ref at = op2(b, IR_ADD, row, c->byte);
	int64_t o = off + (int64_t)h * c->step;
	if (bits == 8)
		return load(b, at, LDS_8, o);
	ir_ref x = load(b, at, LDS_8, o);
	if (bits == 6) /* the field may reach into the next byte (byte 12 is padding: unused) */
		x = op2(b, IR_OR, x, opk(b, IR_SHL, load(b, at, LDS_8, o + 1), 8));
	return opk(b, IR_AND, op2(b, IR_SHR_U, x, c->shift), bits == 6 ? 0x3f : 0xf);
}

static void ld_m16n16(struct irb *b, const struct ptx_insn *in, const struct form *f, ir_ref addr,
                      int64_t off)
{
	struct lane g = group_lane(b);
	ir_ref base = lane_base(b, &g, opk(b, IR_SHL, g.a, 2)); /* thread 4a: row 4a of matrix 0 */
	struct column c = column_of(b, &g, f->bits);
	const struct ptx_operand *d = &in->opnds[0];
	for (unsigned i = 0; i < f->num; i++) {
		ir_ref row[4], x[2][4];
		for (unsigned j = 0; j < 4; j++) {
			row[j] = row_of(b, addr, base, 16 * i + j);
			for (unsigned h = 0; h < 2; h++)
				x[h][j] = m16n16_element(b, &c, f->bits, row[j], h, off);
		}
		for (unsigned h = 0; h < 2; h++)
			irb_write_dest(b, &d->elems[2 * i + h], pack4(b, x[h]), false, IR_NO_REF);
	}
}

/* Four 4-bit fields (the low 16 bits of x) spread one a byte: n0 n1 n2 n3 -> bytes 0..3. */
static ir_ref spread4(struct irb *b, ir_ref x)
{
	ir_ref t = opk(b, IR_AND, op2(b, IR_OR, x, opk(b, IR_SHL, x, 8)), 0x00ff00ff);
	return opk(b, IR_AND, op2(b, IR_OR, t, opk(b, IR_SHL, t, 4)), 0x0f0f0f0f);
}

/* Four 6-bit fields (the low 24 bits of x) spread one a byte. */
static ir_ref spread6(struct irb *b, ir_ref x)
{
	ir_ref v = opk(b, IR_AND, x, 0x3f);
	for (unsigned k = 1; k < 4; k++)
		v = op2(b, IR_OR, v, opk(b, IR_AND, opk(b, IR_SHL, x, 2 * k), 0x3fu << (8 * k)));
	return v;
}

static void ld_m8n16(struct irb *b, const struct ptx_insn *in, const struct form *f, ir_ref addr,
                     int64_t off)
{
	struct lane g = group_lane(b);
	ir_ref base = lane_base(b, &g, g.b); /* thread b: row b of matrix 0 */
	/* elements 4a..4a+3: bytes 2a, 2a+1 (4-bit) or 3a..3a+2 (6-bit) */
	ir_ref col =
	        f->bits == 4 ? opk(b, IR_SHL, g.a, 1) : op2(b, IR_ADD, g.a, opk(b, IR_SHL, g.a, 1));
	const struct ptx_operand *d = &in->opnds[0];
	for (unsigned i = 0; i < f->num; i++) {
		ir_ref at = op2(b, IR_ADD, row_of(b, addr, base, 8 * i), col), v;
		if (f->bits == 4) {
			v = spread4(b, load(b, at, LDS_16, off));
		} else {
			ir_ref y0 = load(b, at, LDS_8, off), y1 = load(b, at, LDS_8, off + 1);
			ir_ref y2 = load(b, at, LDS_8, off + 2);
			v = spread6(b, prmt(b, prmt(b, y0, y1, 0x0040), y2, 0x0410));
		}
		irb_write_dest(b, d->kind == PTX_OPND_VEC ? &d->elems[i] : d, v, false, IR_NO_REF);
	}
}

static void st_m16n8(struct irb *b, const struct ptx_insn *in, const struct form *f, ir_ref addr,
                     int64_t off)
{
	struct lane g = group_lane(b);
	ir_ref base = lane_base(b, &g, opk(b, IR_SHL, g.a, 1)); /* thread 2a: row 2a */
	const struct ptx_operand *s = &in->opnds[1];
	for (unsigned i = 0; i < f->num; i++) {
		ir_ref v = irb_read_opnd(b, s->kind == PTX_OPND_VEC ? &s->elems[i] : s, IR_T_I32,
		                         false);
		ir_ref at[2];
		for (unsigned p = 0; p < 2; p++)
			at[p] = op2(b, IR_ADD, row_of(b, addr, base, 8 * i + p), g.b);
		for (unsigned k = 0; k < 4; k++) {
			ir_ref args[2] = {at[k % 2], k ? opk(b, IR_SHR_U, v, 8 * k) : v};
			irb_emit(b, IR_STORE, IR_T_I32, args, 2, IR_SPACE_SHARED | LDS_8,
			         off + 8 * (k / 2));
		}
	}
}

static unsigned nelems(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_VEC ? o->nelems : 1;
}

void irb_matrix_move_b8(struct irb *b, const struct ptx_insn *in)
{
	struct form f;
	if (!read_form(b, in, &f))
		return;
	bool ld = in->op == PTX_OP_LDMATRIX;
	unsigned regs = f.shape == M16N16 ? 2 * f.num : f.num; /* the parser checks this too */
	if (nelems(&in->opnds[ld ? 0 : 1]) != regs ||
	    (f.shape == M16N16 && in->opnds[0].kind != PTX_OPND_VEC)) {
		irb_error(b, "'%s' with .x%u moves %u registers", ptx_ops[in->op].name, f.num,
		          regs);
		return;
	}
	ir_ref addr;
	int64_t off;
	if (!irb_lds_row_address(b, in, &in->opnds[ld ? 1 : 0], &addr, &off))
		return;
	if (f.shape == M16N16)
		ld_m16n16(b, in, &f, addr, off);
	else if (f.shape == M8N16)
		ld_m8n16(b, in, &f, addr, off);
	else
		st_m16n8(b, in, &f, addr, off);
}
