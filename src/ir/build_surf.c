/* build_surf: the surface instructions suld, sust and sured on surface objects (docs/TEXTURES.md
 * "Surfaces", "Formatted stores", "Surface reductions"), for irb_tex (build_tex.c).
 *
 * suld.b and sust.b on .1d/.2d/.3d surfaces and .a1d/.a2d arrays are IMG_LOAD/IMG_STORE
 * (IMG_HEIGHT for the height; sel_tex.c selects image_load/image_store): the byte x coordinate
 * becomes an element index (x / the access size S, which the PTX ISA makes the transfer size),
 * the surface must hold texels of S bytes made of 32-bit channels (HSA channel type
 * SIGNED_INT32/UNSIGNED_INT32/FLOAT with order R, RG or RGBA, the descriptor's dwords 8-9: then
 * image_load/image_store move the texel's bits unchanged) or, for a suld of 1 or 4 bytes, of 8-bit
 * integer channels (image_load extends each; its low byte is the raw byte), else the wave traps
 * (s_trap 2): exact or stopped, never a converted value.  A misaligned x traps too.  An array's
 * layer (the first coordinate, unsigned) is one more coordinate.  .zero reads 0 / drops the store
 * outside the surface, .clamp clamps each coordinate to the last element, .trap traps.  sust.p
 * (x an element index) is an image_store of all four components, which converts them to the
 * surface's format as the PTX ISA's formatted store does, on any format.  sured.b/sured.p of 32
 * bits are image atomics on one-channel 32-bit integer surfaces.
 * requires: irb state at the instruction; breaks: nothing.  O(operands). */
#include "build_tex.h"

/* AMD's image dims (the MIMG/VIMAGE dim field; gfx9 encodes an array as its `da` bit). */
enum { DIM_1D = 0, DIM_2D = 1, DIM_3D = 2, DIM_1D_ARRAY = 4, DIM_2D_ARRAY = 5 };

/* The shape of one suld.b/sust.b/sust.p/sured: the dim, elements, their bits, the texel's dwords
 * (sust.p: always 4, the elements then zeros). */
struct surf {
	unsigned dim;
	unsigned nelem, bits, dwords, log2_bytes; /* dwords: bytes / 4 (0 for one byte) */
	unsigned x_shift; /* x / 2^x_shift is the element: .b's byte x, .p's element x (0) */
	bool any_format;  /* sust.p: the image_store converts to whatever format the surface has */
	bool narrow;      /* suld of 1 or 4 bytes: texels of 8-bit integer channels qualify too */
	enum { MODE_TRAP, MODE_CLAMP, MODE_ZERO } mode;
	const struct ptx_operand *handle, *coords, *data; /* data: the brace list or register */
};

static bool has_y(unsigned dim)
{
	return dim == DIM_2D || dim == DIM_3D || dim == DIM_2D_ARRAY;
}

/* The elements of PTX's coordinate vector: .1d {x}, .2d {x, y}, .3d {x, y, z, -}, .a1d {layer,
 * x}, .a2d {layer, x, y, -}. */
static unsigned ptx_coords(unsigned dim)
{
	static const unsigned n[6] = {1, 2, 4, 0, 2, 4};
	return n[dim];
}

/* The geometry's dim, or false when the instruction names none of the five. */
static bool surf_dim(const struct ptx_insn *in, unsigned *dim)
{
	static const enum ptx_dotword geom[5] = {PTX_DW_G1D, PTX_DW_G2D, PTX_DW_G3D, PTX_DW_GA1D,
	                                         PTX_DW_GA2D};
	static const unsigned dims[5] = {DIM_1D, DIM_2D, DIM_3D, DIM_1D_ARRAY, DIM_2D_ARRAY};
	for (unsigned i = 0; i < 5; i++)
		if (tex_has(in, geom[i])) {
			*dim = dims[i];
			return true;
		}
	return false;
}

static const char *surf_operands(const struct ptx_insn *in, struct surf *f)
{
	f->mode = tex_has(in, PTX_DW_CLAMP)  ? MODE_CLAMP
	          : tex_has(in, PTX_DW_ZERO) ? MODE_ZERO
	                                     : MODE_TRAP;
	unsigned at = in->op == PTX_OP_SULD ? 1 : 0;
	const struct ptx_operand *br = &in->opnds[at];
	if (in->nopnds != 2 || br->kind != PTX_OPND_BRACKET || br->nelems != 2)
		return "surface operand form not supported";
	f->handle = &br->elems[0];
	f->coords = &br->elems[1];
	unsigned ncoord = f->coords->kind == PTX_OPND_VEC ? f->coords->nelems : 1;
	if (ncoord != ptx_coords(f->dim))
		return "surface coordinates: one for .1d, two for .2d and .a1d, four for .3d and "
		       ".a2d";
	f->data = &in->opnds[at ? 0 : 1];
	unsigned ndata = f->data->kind == PTX_OPND_VEC ? f->data->nelems : 1;
	if (ndata != f->nelem)
		return "the data operand must have as many elements as the vector size";
	return NULL;
}

/* sust.p.{1d,2d,3d,a1d,a2d}[.v2|.v4].b32 (the PTX ISA's syntax names .1d/.2d/.3d; NVIDIA's ptxas
 * takes the arrays too, with their {layer, x[, y, -]}): x is an element index and the elements are
 * the R, G, B, A components, which the image_store converts to the surface's format (f32 for unorm,
 * snorm and float channels, u32/s32 for integer ones, as the PTX ISA assumes); the components the
 * source lacks are stored as 0 (the PTX ISA: "an unpredictable value"), so the store has all four.
 */
static const char *formatted_shape(const struct ptx_insn *in, struct surf *f)
{
	if (in->op != PTX_OP_SUST)
		return "suld has only the unformatted .b form";
	if (!tex_has(in, PTX_DW_B32))
		return "sust.p stores .b32 elements only";
	f->nelem = tex_has(in, PTX_DW_V4) ? 4 : tex_has(in, PTX_DW_V2) ? 2 : 1;
	f->bits = 32;
	f->dwords = 4;
	f->any_format = true;
	return surf_operands(in, f);
}

static const char *surf_shape(const struct ptx_insn *in, struct surf *f)
{
	static const enum ptx_dotword cache_ops[] = {PTX_DW_CA, PTX_DW_CG, PTX_DW_CS,
	                                             PTX_DW_CV, PTX_DW_WB, PTX_DW_WT};
	*f = (struct surf){0};
	if (!surf_dim(in, &f->dim))
		return "surface operand form not supported: no geometry";
	for (unsigned i = 0; i < sizeof cache_ops / sizeof cache_ops[0]; i++)
		if (tex_has(in, cache_ops[i]))
			return "cache operators on suld/sust are not generated yet";
	if (!tex_has(in, PTX_DW_B))
		return formatted_shape(in, f);
	f->nelem = tex_has(in, PTX_DW_V4) ? 4 : tex_has(in, PTX_DW_V2) ? 2 : 1;
	f->bits = tex_has(in, PTX_DW_B64)   ? 64
	          : tex_has(in, PTX_DW_B32) ? 32
	          : tex_has(in, PTX_DW_B16) ? 16
	                                    : 8;
	unsigned bytes = f->nelem * f->bits / 8;
	if (bytes == 2 || (bytes == 1 && in->op == PTX_OP_SUST))
		return "suld.b of 2 bytes and sust.b of fewer than 4 need 16-bit or two-channel "
		       "8-bit texels (image_store of narrow channels), not generated yet "
		       "(docs/TEXTURES.md)";
	f->narrow = in->op == PTX_OP_SULD && (bytes == 1 || bytes == 4);
	if (bytes > 16)
		return "suld.b/sust.b of more than 16 bytes: no surface format has such texels";
	f->dwords = bytes / 4;
	f->log2_bytes = (unsigned)__builtin_ctz(bytes);
	f->x_shift = f->log2_bytes;
	return surf_operands(in, f);
}

/* Whether the surface's texels are f->dwords 32-bit channels (R, RG or RGBA of a 32-bit
 * channel type: image_load/image_store move their bits unchanged) or, for a narrow suld, one
 * or four 8-bit integer channels (R or RGBA of SIGNED_INT8/UNSIGNED_INT8: image_load extends
 * each channel, whose low byte is the raw byte); *is8 tells the second kind.  Any other
 * surface is not read as raw bytes. */
static ir_ref format_ok(struct irb *b, const struct surf *f, ir_ref handle, ir_ref *is8)
{
	enum { SIGNED_INT8 = 8, UNSIGNED_INT8 = 11, SIGNED_INT32 = 10, UNSIGNED_INT32 = 13 };
	enum { FLOAT = 15, ORDER_R = 1, ORDER_RG = 3, ORDER_RGBA = 8 };
	static const uint32_t order_of_channels[5] = {0, ORDER_R, ORDER_RG, 0, ORDER_RGBA};
	ir_ref type = desc_word(b, handle, 8), order = desc_word(b, handle, 9);
	ir_ref ok = ir_const(b->fn, IR_T_PRED, 0);
	*is8 = ok;
	if (f->dwords) {
		ir_ref t = op2(b, IR_OR, IR_T_PRED, icmp(b, IR_CMP_EQ, type, k32(b, SIGNED_INT32)),
		               icmp(b, IR_CMP_EQ, type, k32(b, UNSIGNED_INT32)), 0);
		t = op2(b, IR_OR, IR_T_PRED, t, icmp(b, IR_CMP_EQ, type, k32(b, FLOAT)), 0);
		ok = op2(b, IR_AND, IR_T_PRED, t,
		         icmp(b, IR_CMP_EQ, order, k32(b, order_of_channels[f->dwords])), 0);
	}
	if (f->narrow) {
		unsigned channels = 1u << f->log2_bytes;
		ir_ref t = op2(b, IR_OR, IR_T_PRED, icmp(b, IR_CMP_EQ, type, k32(b, SIGNED_INT8)),
		               icmp(b, IR_CMP_EQ, type, k32(b, UNSIGNED_INT8)), 0);
		*is8 = op2(b, IR_AND, IR_T_PRED, t,
		           icmp(b, IR_CMP_EQ, order, k32(b, order_of_channels[channels])), 0);
		ok = op2(b, IR_OR, IR_T_PRED, ok, *is8, 0);
	}
	return ok;
}

/* The size of axis 2: the depth of a 3D surface or the layers of an array, DEPTH-1 (the last
 * slice) at T# word 4 bits 12:0 on gfx9 to gfx12, + 1. */
static ir_ref depth_or_layers(struct irb *b, ir_ref handle)
{
	ir_ref last = op2(b, IR_AND, IR_T_I32, desc_word(b, handle, 4), k32(b, 0x1fff), 0);
	return op2(b, IR_ADD, IR_T_I32, last, k32(b, 1), 0);
}

/* The address of AMD's dim from the clamped x, y and z (the depth or the layer): x; x | y << 32
 * (2D); x | layer << 32 (1D array); x | z << 16 | y << 32 (3D, 2D array: each below 2^14, which
 * sel_tex.c unpacks into x, y, z). */
static ir_ref pack_address(struct irb *b, unsigned dim, const ir_ref c[3])
{
	switch (dim) {
	case DIM_1D:
		return c[0];
	case DIM_2D:
		return pair64(b, c[0], c[1]);
	case DIM_1D_ARRAY:
		return pair64(b, c[0], c[2]);
	default:
		return pair64(b,
		              op2(b, IR_OR, IR_T_I32, c[0],
		                  op2(b, IR_SHL, IR_T_I32, c[2], k32(b, 16), 0), 0),
		              c[1]);
	}
}

/* The element coordinates (clamped into the surface, where the mode says so or to keep the
 * access inside it) and whether the PTX coordinates were inside.  An array's layer is the PTX
 * ISA's unsigned index (.u32): one at or past the layers is outside, and clamps to the last. */
static ir_ref surf_coords(struct irb *b, const struct surf *f, ir_ref handle, ir_ref *inside,
                          ir_ref *is8)
{
	bool array = f->dim >= DIM_1D_ARRAY;
	unsigned first = array ? 1 : 0;
	ir_ref x = irb_read_opnd(b, elem(f->coords, first), IR_T_I32, true);
	if (!f->any_format) {
		ir_ref misaligned = op2(b, IR_AND, IR_T_I32, x, k32(b, (1u << f->x_shift) - 1), 0);
		ir_ref ok = op2(b, IR_AND, IR_T_PRED, format_ok(b, f, handle, is8),
		                icmp(b, IR_CMP_EQ, misaligned, k32(b, 0)), 0);
		trap_unless(b, ok);
	} else {
		*is8 = ir_const(b->fn, IR_T_PRED, 0);
	}
	if (f->x_shift)
		x = op2(b, IR_SHR_S, IR_T_I32, x, k32(b, f->x_shift), 0);
	ir_ref c[3] = {x, k32(b, 0), k32(b, 0)};
	ir_ref size[3] = {desc_word(b, handle, 10), IR_NO_REF, IR_NO_REF};
	if (has_y(f->dim)) {
		c[1] = irb_read_opnd(b, elem(f->coords, first + 1), IR_T_I32, true);
		size[1] = irb_emit(b, IR_IMG_HEIGHT, IR_T_I32, &handle, 1, 0, 0);
	}
	if (f->dim == DIM_3D || array) {
		c[2] = irb_read_opnd(b, elem(f->coords, array ? 0 : 2), IR_T_I32, true);
		size[2] = depth_or_layers(b, handle);
	}
	*inside = IR_NO_REF;
	for (unsigned i = 0; i < 3; i++) {
		if (size[i] == IR_NO_REF)
			continue;
		ir_ref in = icmp(b, IR_CMP_LTU, c[i], size[i]);
		*inside = *inside != IR_NO_REF ? op2(b, IR_AND, IR_T_PRED, *inside, in, 0) : in;
		ir_ref last = op2(b, IR_SUB, IR_T_I32, size[i], k32(b, 1), 0);
		if (i == 2 && array)
			c[i] = op2(b, IR_MIN_U, IR_T_I32, c[i], last, 0);
		else
			c[i] = op2(b, IR_MIN_S, IR_T_I32,
			           op2(b, IR_MAX_S, IR_T_I32, c[i], k32(b, 0), 0), last, 0);
	}
	if (f->mode == MODE_TRAP)
		trap_unless(b, *inside);
	return pack_address(b, f->dim, c);
}

/* The texel's bytes as dwords: f->dwords 32-bit channels, or (narrow) the low bytes of its
 * 8-bit channels packed into one dword; 0 outside for .zero. */
static void texel_dwords(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at,
                         ir_ref inside, bool narrow, ir_ref dw[4])
{
	unsigned dim = f->dim;
	unsigned n = narrow ? 1u << f->log2_bytes : f->dwords;
	ir_ref args[2] = {handle, at};
	for (unsigned k = 0; k < n; k++) {
		ir_ref c = irb_emit(b, IR_IMG_LOAD, IR_T_I32, args, 2, dim | (1u << k) << 4, 0);
		if (narrow) {
			c = op2(b, IR_AND, IR_T_I32, c, k32(b, 0xff), 0);
			if (k)
				c = op2(b, IR_OR, IR_T_I32, dw[0],
				        op2(b, IR_SHL, IR_T_I32, c, k32(b, 8 * k), 0), 0);
			dw[0] = c;
		} else {
			dw[k] = c;
		}
	}
	for (unsigned k = 0; f->mode == MODE_ZERO && k < (narrow ? 1 : n); k++)
		dw[k] = irb_emit(b, IR_SELECT, IR_T_I32, (ir_ref[]){inside, dw[k], k32(b, 0)}, 3, 0,
		                 0);
}

static void write_elements(struct irb *b, const struct surf *f, const ir_ref dw[4])
{
	for (unsigned e = 0; e < f->nelem; e++) {
		ir_ref v;
		if (f->bits == 64) {
			v = pair64(b, dw[2 * e], dw[2 * e + 1]);
		} else {
			unsigned bit = e * f->bits;
			v = dw[bit / 32];
			if (bit % 32)
				v = op2(b, IR_SHR_U, IR_T_I32, v, k32(b, bit % 32), 0);
			if (f->bits < 32)
				v = op2(b, IR_AND, IR_T_I32, v, k32(b, (1u << f->bits) - 1), 0);
		}
		irb_write_dest(b, elem(f->data, e), v, false, IR_NO_REF);
	}
}

/* suld: the texel's dwords by the surface's kind (a branch on is8 where both may be). */
static void surf_load(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at, ir_ref inside,
                      ir_ref is8)
{
	ir_ref dw[4];
	if (!f->narrow || !f->dwords) {
		texel_dwords(b, f, handle, at, inside, f->narrow, dw);
		write_elements(b, f, dw);
		return;
	}
	uint32_t narrow = irb_open_sealed(b), wide = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, is8, narrow, wide);
	for (int arm = 0; arm < 2; arm++) {
		irb_switch_to(b, arm ? wide : narrow);
		texel_dwords(b, f, handle, at, inside, !arm, dw);
		write_elements(b, f, dw);
		irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	}
	irb_seal(b, join);
	irb_switch_to(b, join);
}

/* image_store of the texel's dwords lo, hi at the element coordinates at */
static void store_texel(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at, ir_ref lo,
                        ir_ref hi)
{
	unsigned dim = f->dim;
	irb_emit(b, IR_IMG_STORE, IR_T_NONE, (ir_ref[]){handle, at, lo, hi}, 4,
	         dim | f->dwords << 4, 0);
}

static void surf_store(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at, ir_ref inside)
{
	ir_ref dw[4] = {IR_NO_REF, IR_NO_REF, IR_NO_REF, IR_NO_REF};
	for (unsigned e = 0; e < f->nelem; e++) {
		const struct ptx_operand *o = elem(f->data, e);
		if (f->bits == 64) {
			ir_ref v = irb_read_opnd(b, o, IR_T_I64, false);
			dw[2 * e] = irb_emit(b, IR_TRUNC, IR_T_I32, &v, 1, 0, 0);
			ir_ref hi = op2(b, IR_SHR_U, IR_T_I64, v, k32(b, 32), 0);
			dw[2 * e + 1] = irb_emit(b, IR_TRUNC, IR_T_I32, &hi, 1, 0, 0);
			continue;
		}
		ir_ref v = irb_read_opnd(b, o, IR_T_I32, false);
		unsigned bit = e * f->bits;
		if (f->bits < 32)
			v = op2(b, IR_AND, IR_T_I32, v, k32(b, (1u << f->bits) - 1), 0);
		if (bit % 32)
			v = op2(b, IR_SHL, IR_T_I32, v, k32(b, bit % 32), 0);
		ir_ref *d = &dw[bit / 32];
		*d = *d == IR_NO_REF ? v : op2(b, IR_OR, IR_T_I32, *d, v, 0);
	}
	for (unsigned k = 0; k < f->dwords; k++) /* sust.p: the components it lacks */
		if (dw[k] == IR_NO_REF)
			dw[k] = k32(b, 0);
	ir_ref lo = f->dwords == 1 ? dw[0] : pair64(b, dw[0], dw[1]);
	ir_ref hi = f->dwords == 4 ? pair64(b, dw[2], dw[3]) : lo;
	/* .zero outside the surface: no store */
	uint32_t next = branch_open(b, f->mode == MODE_ZERO ? inside : IR_NO_REF);
	store_texel(b, f, handle, at, lo, hi);
	branch_close(b, next);
}

/* suld.b / sust.b / sust.p on a .1d/.2d/.3d/.a1d/.a2d surface object; NULL when translated, else
 * why not. */
const char *irb_surface_access(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct surf f;
	const char *why = surf_shape(in, &f);
	if (why)
		return why;
	uint32_t next = branch_open(b, guard); /* @p: lanes without p skip it */
	ir_ref handle = irb_read_opnd(b, f.handle, IR_T_I64, false), inside, is8;
	ir_ref at = surf_coords(b, &f, handle, &inside, &is8);
	if (in->op == PTX_OP_SULD)
		surf_load(b, &f, handle, at, inside, is8);
	else
		surf_store(b, &f, handle, at, inside);
	branch_close(b, next);
	return NULL;
}

/* The operation of a sured: .add (.u32/.s32; sured.p .b32), .min/.max (.u32 unsigned, .s32
 * signed; sured.p .b32: the surface's, *by_format), .and/.or (.b32); -1 for the other forms (the
 * 64-bit ones). */
static int sured_op(const struct ptx_insn *in, bool *by_format)
{
	unsigned t = in->ntypes == 1 ? in->types[0] : 0;
	bool p = !tex_has(in, PTX_DW_B) && t == PTX_TYPE_B32;
	bool u = t == PTX_TYPE_U32 || p, sg = t == PTX_TYPE_S32;
	*by_format = p && (tex_has(in, PTX_DW_MIN) || tex_has(in, PTX_DW_MAX));
	if (tex_has(in, PTX_DW_ADD) && (u || sg))
		return IR_IMG_ATOMIC_ADD;
	if (tex_has(in, PTX_DW_MIN) && (u || sg))
		return u ? IR_IMG_ATOMIC_UMIN : IR_IMG_ATOMIC_SMIN;
	if (tex_has(in, PTX_DW_MAX) && (u || sg))
		return u ? IR_IMG_ATOMIC_UMAX : IR_IMG_ATOMIC_SMAX;
	if ((tex_has(in, PTX_DW_AND) || tex_has(in, PTX_DW_OR)) && t == PTX_TYPE_B32)
		return tex_has(in, PTX_DW_AND) ? IR_IMG_ATOMIC_AND : IR_IMG_ATOMIC_OR;
	return -1;
}

static void image_atomic(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at, ir_ref v,
                         int op)
{
	irb_emit(b, IR_IMG_ATOMIC, IR_T_NONE, (ir_ref[]){handle, at, v}, 3,
	         f->dim | (unsigned)op << 4, 0);
}

/* sured.p.{min,max}.b32: the data is .s32 on a SIGNED_INT32 surface, else .u32 (the PTX ISA),
 * so the signed or the unsigned atomic under a branch on the descriptor's channel type. */
static void atomic_by_format(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at,
                             ir_ref v, int unsigned_op)
{
	enum { SIGNED_INT32 = 10 };
	ir_ref is_signed = icmp(b, IR_CMP_EQ, desc_word(b, handle, 8), k32(b, SIGNED_INT32));
	uint32_t s = irb_open_sealed(b), u = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, is_signed, s, u);
	for (int arm = 0; arm < 2; arm++) {
		irb_switch_to(b, arm ? u : s);
		image_atomic(b, f, handle, at, v,
		             arm                                 ? unsigned_op
		             : unsigned_op == IR_IMG_ATOMIC_UMIN ? IR_IMG_ATOMIC_SMIN
		                                                 : IR_IMG_ATOMIC_SMAX);
		irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	}
	irb_seal(b, join);
	irb_switch_to(b, join);
}

static const char *sured_shape(const struct ptx_insn *in, struct surf *f, int *op, bool *by_format)
{
	*f = (struct surf){0};
	if (!surf_dim(in, &f->dim) || f->dim > DIM_3D)
		return "sured on surface arrays: the PTX ISA has sured on .1d, .2d and .3d only";
	*op = sured_op(in, by_format);
	if (*op < 0)
		return "64-bit sured (.u64/.s64, sured.p .b64) would be image atomics on 64-bit "
		       "texels (dmask 0x3 on two-channel 32-bit formats), which neither the ISA "
		       "documents used here nor amdsim cover: not generated yet (docs/TEXTURES.md)";
	f->nelem = 1;
	f->bits = 32;
	f->dwords = 1;
	f->log2_bytes = 2;
	f->x_shift = tex_has(in, PTX_DW_B) ? 2 : 0; /* sured.p: x is the element */
	return surf_operands(in, f);
}

/* sured.{b,p}.{add,min,max,and,or}.{1d,2d,3d} of 32 bits on a surface object: image_atomic_* (no
 * return; relaxed, as the PTX ISA's sured is) on the texel at element x / 4 (sured.b) or x
 * (sured.p), which must be one 32-bit integer channel (HSA SIGNED_INT32/UNSIGNED_INT32, order
 * R: the atomic's integer operation then acts on the bits the PTX ISA names; else the wave
 * traps, as for suld/sust), with the modes of suld/sust (.zero: no access outside).  NULL when
 * translated, else why not. */
const char *irb_surface_reduction(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct surf f;
	int op;
	bool by_format;
	const char *why = sured_shape(in, &f, &op, &by_format);
	if (why)
		return why;
	uint32_t next = branch_open(b, guard);
	ir_ref handle = irb_read_opnd(b, f.handle, IR_T_I64, false), inside, is8;
	enum { FLOAT = 15 };
	trap_unless(b, icmp(b, IR_CMP_NE, desc_word(b, handle, 8), k32(b, FLOAT)));
	ir_ref at = surf_coords(b, &f, handle, &inside, &is8);
	ir_ref v = irb_read_opnd(b, f.data, IR_T_I32, false);
	uint32_t join =
	        branch_open(b, f.mode == MODE_ZERO ? inside : IR_NO_REF); /* outside: no access */
	if (by_format)
		atomic_by_format(b, &f, handle, at, v, op);
	else
		image_atomic(b, &f, handle, at, v, op);
	branch_close(b, join);
	branch_close(b, next);
	return NULL;
}
