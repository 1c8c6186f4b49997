/* irb_tex: the texture and surface instructions (tex, tld4, txq, suld, sust, sured, suq,
 * istypep), docs/TEXTURES.md.
 *
 * A handle is a texture or surface object: a .u64 value, the address of the descriptor block
 * HIP's runtime builds (hipTextureObject_t: the 8-dword image resource, 4 more dwords, then
 * the sampler at dword 12; hipSurfaceObject_t: the image resource).  tex (.1d/.2d with
 * .level/.grad, .3d, .a1d, .a2d, .cube/.acube with .level; f32/s32/u32 results) samples through
 * the object's sampler (IMG_SAMPLE*; a cube face chosen by CUBE, sampled as an array layer), tex.1d
 * with integer coordinates is tex1Dfetch on a linear texture's buffer descriptor (IMG_FETCH),
 * tld4.2d gathers (IMG_GATHER).  suld.b and sust.b on .1d/.2d surfaces are translated
 * (IMG_LOAD/IMG_STORE, IMG_HEIGHT; sel_tex.c selects them to image_load/image_store): the byte x
 * coordinate becomes an element index (x / the access size S, which the PTX ISA makes the transfer
 * size), the surface must hold texels of S bytes made of 32-bit channels (HSA channel type
 * SIGNED_INT32/UNSIGNED_INT32/FLOAT with order R, RG or RGBA, the descriptor's dwords 8-9: then
 * image_load/image_store move the texel's bits unchanged) or, for a suld of 1 or 4 bytes, of 8-bit
 * integer channels (image_load extends each; its low byte is the raw byte), else the wave traps
 * (s_trap 2): exact or stopped, never a converted value.  A misaligned x traps too.  .zero reads 0
 * / drops the store outside the surface, .clamp clamps each coordinate to the last element, .trap
 * traps.  Every other form is rejected here by name, with the reason that applies to it: the
 * texture-reference API (module .texref/.samplerref/.surfref variables, bound by calls HIP and CUDA
 * 12 removed), the independent texturing mode (separate sampler handles; HIP's texture objects
 * carry their sampler), istypep (HIP's texture and surface objects are both plain image
 * descriptors: the kind of a handle is not recorded), else "not generated yet".
 * requires: irb state at the instruction; breaks: nothing.  O(operands). */
#include "build_int.h"

static bool is_tex_family(enum ptx_opcode op)
{
	return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_TXQ || op == PTX_OP_SULD ||
	       op == PTX_OP_SUST || op == PTX_OP_SURED || op == PTX_OP_SUQ || op == PTX_OP_ISTYPEP;
}

static bool is_reference_type(unsigned type)
{
	return type == PTX_TYPE_TEXREF || type == PTX_TYPE_SAMPLERREF || type == PTX_TYPE_SURFREF;
}

/* Whether some operand names a module .texref/.samplerref/.surfref variable (a texture
 * reference) rather than an object: a .u64 register, or a kernel parameter of such a type,
 * which the launch fills with an 8-byte handle like a .u64 one. */
static bool names_reference(const struct ptx_operand *o, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct ptx_operand *e = &o[i];
		if (e->sym && e->sym->space != PTX_SPACE_REG && e->sym->space != PTX_SPACE_PARAM &&
		    is_reference_type(e->sym->type))
			return true;
		if ((e->kind == PTX_OPND_BRACKET || e->kind == PTX_OPND_VEC) &&
		    names_reference(e->elems, e->nelems))
			return true;
	}
	return false;
}

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == w)
			return true;
	return false;
}

static ir_ref k32(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y, uint32_t aux)
{
	ir_ref a[2] = {x, y};
	return irb_emit(b, op, t, a, 2, aux, 0);
}

static ir_ref icmp(struct irb *b, enum ir_cmp c, ir_ref x, ir_ref y)
{
	return op2(b, IR_ICMP, IR_T_PRED, x, y, c);
}

/* The wave stops (s_trap 2, as PTX trap) where `ok` is false in some lane. */
static void trap_unless(struct irb *b, ir_ref ok)
{
	uint32_t bad = irb_open_sealed(b), cont = irb_new_block(b);
	irb_terminate(b, IR_BR, ok, cont, bad);
	irb_switch_to(b, bad);
	irb_emit(b, IR_TRAP, IR_T_NONE, NULL, 0, 0, 2);
	irb_terminate(b, IR_JMP, IR_NO_REF, cont, 0);
	irb_seal(b, cont);
	irb_switch_to(b, cont);
}

/* Dword `dw` of the handle's descriptor block (HIP's layout, docs/TEXTURES.md). */
static ir_ref desc_word(struct irb *b, ir_ref handle, unsigned dw)
{
	return irb_emit(b, IR_IMG_DESC, IR_T_I32, &handle, 1, 0, 4 * dw);
}

/* lo | hi << 32 */
static ir_ref pair64(struct irb *b, ir_ref lo, ir_ref hi)
{
	ir_ref l = irb_emit(b, IR_ZEXT, IR_T_I64, &lo, 1, 0, 0);
	ir_ref h = irb_emit(b, IR_ZEXT, IR_T_I64, &hi, 1, 0, 0);
	h = op2(b, IR_SHL, IR_T_I64, h, k32(b, 32), 0);
	return op2(b, IR_OR, IR_T_I64, l, h, 0);
}

/* The shape of one suld.b/sust.b: 2D (or 3D: x, y and z) or 1D, elements, their bits, the
 * texel's dwords. */
struct surf {
	bool is_2d, is_3d;
	unsigned nelem, bits, dwords, log2_bytes; /* dwords: bytes / 4 (0 for one byte) */
	bool narrow; /* suld of 1 or 4 bytes: texels of 8-bit integer channels qualify too */
	enum { MODE_TRAP, MODE_CLAMP, MODE_ZERO } mode;
	const struct ptx_operand *handle, *coords, *data; /* data: the brace list or register */
};

static const char *surf_shape(const struct ptx_insn *in, struct surf *f)
{
	static const enum ptx_dotword cache_ops[] = {PTX_DW_CA, PTX_DW_CG, PTX_DW_CS,
	                                             PTX_DW_CV, PTX_DW_WB, PTX_DW_WT};
	if (!has(in, PTX_DW_B))
		return "sust.p (formatted stores) is not generated yet (docs/TEXTURES.md)";
	if (!has(in, PTX_DW_G1D) && !has(in, PTX_DW_G2D) && !has(in, PTX_DW_G3D))
		return "surfaces other than .1d, .2d and .3d (arrays) are not generated yet "
		       "(docs/TEXTURES.md)";
	for (unsigned i = 0; i < sizeof cache_ops / sizeof cache_ops[0]; i++)
		if (has(in, cache_ops[i]))
			return "cache operators on suld/sust are not generated yet";
	f->is_3d = has(in, PTX_DW_G3D);
	f->is_2d = has(in, PTX_DW_G2D) || f->is_3d;
	f->nelem = has(in, PTX_DW_V4) ? 4 : has(in, PTX_DW_V2) ? 2 : 1;
	f->bits = has(in, PTX_DW_B64)   ? 64
	          : has(in, PTX_DW_B32) ? 32
	          : has(in, PTX_DW_B16) ? 16
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
	f->mode = has(in, PTX_DW_CLAMP) ? MODE_CLAMP : has(in, PTX_DW_ZERO) ? MODE_ZERO : MODE_TRAP;
	unsigned at = in->op == PTX_OP_SULD ? 1 : 0;
	const struct ptx_operand *br = &in->opnds[at];
	if (br->kind != PTX_OPND_BRACKET || br->nelems != 2)
		return "surface operand form not supported";
	f->handle = &br->elems[0];
	f->coords = &br->elems[1];
	unsigned ncoord = f->coords->kind == PTX_OPND_VEC ? f->coords->nelems : 1;
	if (ncoord != (f->is_3d ? 4u : f->is_2d ? 2u : 1u))
		return "surface coordinates: one for .1d, two for .2d, four for .3d";
	f->data = &in->opnds[at ? 0 : 1];
	unsigned ndata = f->data->kind == PTX_OPND_VEC ? f->data->nelems : 1;
	if (ndata != f->nelem)
		return "the data operand must have as many elements as the vector size";
	return NULL;
}

static const struct ptx_operand *elem(const struct ptx_operand *o, unsigned i)
{
	return o->kind == PTX_OPND_VEC ? &o->elems[i] : o;
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

/* The element coordinates (clamped into the surface, where the mode says so or to keep the
 * access inside it) and whether the PTX coordinates were inside. */
static ir_ref surf_coords(struct irb *b, const struct surf *f, ir_ref handle, ir_ref *inside,
                          ir_ref *is8)
{
	ir_ref x = irb_read_opnd(b, elem(f->coords, 0), IR_T_I32, true);
	ir_ref misaligned = op2(b, IR_AND, IR_T_I32, x, k32(b, (1u << f->log2_bytes) - 1), 0);
	ir_ref ok = op2(b, IR_AND, IR_T_PRED, format_ok(b, f, handle, is8),
	                icmp(b, IR_CMP_EQ, misaligned, k32(b, 0)), 0);
	trap_unless(b, ok);
	x = op2(b, IR_SHR_S, IR_T_I32, x, k32(b, f->log2_bytes), 0);
	ir_ref c[3] = {x, IR_NO_REF, IR_NO_REF};
	ir_ref size[3] = {desc_word(b, handle, 10), IR_NO_REF, IR_NO_REF};
	if (f->is_2d) {
		c[1] = irb_read_opnd(b, elem(f->coords, 1), IR_T_I32, true);
		size[1] = irb_emit(b, IR_IMG_HEIGHT, IR_T_I32, &handle, 1, 0, 0);
	}
	if (f->is_3d) { /* DEPTH-1 at T# word 4 bits 12:0 (gfx9 to gfx12) */
		c[2] = irb_read_opnd(b, elem(f->coords, 2), IR_T_I32, true);
		ir_ref last = op2(b, IR_AND, IR_T_I32, desc_word(b, handle, 4), k32(b, 0x1fff), 0);
		size[2] = op2(b, IR_ADD, IR_T_I32, last, k32(b, 1), 0);
	}
	*inside = IR_NO_REF;
	for (unsigned i = 0; i < (f->is_3d ? 3u : f->is_2d ? 2u : 1u); i++) {
		ir_ref in = icmp(b, IR_CMP_LTU, c[i], size[i]);
		*inside = i ? op2(b, IR_AND, IR_T_PRED, *inside, in, 0) : in;
		ir_ref last = op2(b, IR_SUB, IR_T_I32, size[i], k32(b, 1), 0);
		c[i] = op2(b, IR_MIN_S, IR_T_I32, op2(b, IR_MAX_S, IR_T_I32, c[i], k32(b, 0), 0),
		           last, 0);
	}
	if (f->mode == MODE_TRAP)
		trap_unless(b, *inside);
	if (f->is_3d) /* x | z << 16 | y << 32: each below 2^14 (sel_tex.c unpacks them) */
		c[0] = op2(b, IR_OR, IR_T_I32, c[0], op2(b, IR_SHL, IR_T_I32, c[2], k32(b, 16), 0),
		           0);
	return f->is_2d ? pair64(b, c[0], c[1]) : c[0];
}

/* The texel's bytes as dwords: f->dwords 32-bit channels, or (narrow) the low bytes of its
 * 8-bit channels packed into one dword; 0 outside for .zero. */
static void texel_dwords(struct irb *b, const struct surf *f, ir_ref handle, ir_ref at,
                         ir_ref inside, bool narrow, ir_ref dw[4])
{
	unsigned dim = f->is_3d ? 2u : f->is_2d ? 1u : 0u;
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
	unsigned dim = f->is_3d ? 2u : f->is_2d ? 1u : 0u;
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
	ir_ref lo = f->dwords == 1 ? dw[0] : pair64(b, dw[0], dw[1]);
	ir_ref hi = f->dwords == 4 ? pair64(b, dw[2], dw[3]) : lo;
	if (f->mode == MODE_ZERO) { /* outside: no store */
		uint32_t body = irb_open_sealed(b), next = irb_new_block(b);
		irb_terminate(b, IR_BR, inside, body, next);
		irb_switch_to(b, body);
		store_texel(b, f, handle, at, lo, hi);
		irb_terminate(b, IR_JMP, IR_NO_REF, next, 0);
		irb_seal(b, next);
		irb_switch_to(b, next);
		return;
	}
	store_texel(b, f, handle, at, lo, hi);
}

/* suld.b / sust.b on a .1d/.2d/.3d surface object; NULL when translated, else why not. */
static const char *surface_access(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	struct surf f;
	const char *why = surf_shape(in, &f);
	if (why)
		return why;
	uint32_t next = 0;
	if (guard != IR_NO_REF) { /* @p: lanes without p skip it */
		uint32_t body = irb_open_sealed(b);
		next = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, body, next);
		irb_switch_to(b, body);
	}
	ir_ref handle = irb_read_opnd(b, f.handle, IR_T_I64, false), inside, is8;
	ir_ref at = surf_coords(b, &f, handle, &inside, &is8);
	if (in->op == PTX_OP_SULD)
		surf_load(b, &f, handle, at, inside, is8);
	else
		surf_store(b, &f, handle, at, inside);
	if (guard != IR_NO_REF) {
		irb_terminate(b, IR_JMP, IR_NO_REF, next, 0);
		irb_seal(b, next);
		irb_switch_to(b, next);
	}
	return NULL;
}

/* The operation of a sured.b: .add (.u32/.s32), .min/.max (.u32 unsigned, .s32 signed),
 * .and/.or (.b32); -1 for the other forms (64-bit ones). */
static int sured_op(const struct ptx_insn *in)
{
	unsigned t = in->ntypes == 1 ? in->types[0] : 0;
	bool u = t == PTX_TYPE_U32, sg = t == PTX_TYPE_S32;
	if (has(in, PTX_DW_ADD) && (u || sg))
		return IR_IMG_ATOMIC_ADD;
	if (has(in, PTX_DW_MIN) && (u || sg))
		return u ? IR_IMG_ATOMIC_UMIN : IR_IMG_ATOMIC_SMIN;
	if (has(in, PTX_DW_MAX) && (u || sg))
		return u ? IR_IMG_ATOMIC_UMAX : IR_IMG_ATOMIC_SMAX;
	if ((has(in, PTX_DW_AND) || has(in, PTX_DW_OR)) && t == PTX_TYPE_B32)
		return has(in, PTX_DW_AND) ? IR_IMG_ATOMIC_AND : IR_IMG_ATOMIC_OR;
	return -1;
}

/* sured.b.{add,min,max,and,or}.{1d,2d,3d} of 32 bits on a surface object: image_atomic_* (no
 * return; relaxed, as the PTX ISA's sured is) on the texel at element x / 4, which must be one
 * 32-bit integer channel (HSA SIGNED_INT32/UNSIGNED_INT32, order R: the atomic's integer
 * operation then acts on the bits the PTX ISA's .b names; else the wave traps, as for
 * suld/sust), with the modes of suld/sust (.zero: no access outside).  NULL when translated,
 * else why not. */
static const char *surface_reduction(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (!has(in, PTX_DW_B))
		return "sured.p (formatted reductions) is not generated yet (docs/TEXTURES.md)";
	if (!has(in, PTX_DW_G1D) && !has(in, PTX_DW_G2D) && !has(in, PTX_DW_G3D))
		return "sured on surface arrays is not generated yet (docs/TEXTURES.md)";
	int op = sured_op(in);
	if (op < 0)
		return "sured.b other than .add/.min/.max of .u32/.s32 and .and/.or of .b32 (the "
		       "64-bit "
		       "forms) is not generated yet (docs/TEXTURES.md)";
	const struct ptx_operand *br = &in->opnds[0];
	if (in->nopnds != 2 || br->kind != PTX_OPND_BRACKET || br->nelems != 2)
		return "sured operand form not supported";
	struct surf f = {.is_3d = has(in, PTX_DW_G3D),
	                 .nelem = 1,
	                 .bits = 32,
	                 .dwords = 1,
	                 .log2_bytes = 2,
	                 .handle = &br->elems[0],
	                 .coords = &br->elems[1],
	                 .data = &in->opnds[1]};
	f.is_2d = has(in, PTX_DW_G2D) || f.is_3d;
	f.mode = has(in, PTX_DW_CLAMP) ? MODE_CLAMP : has(in, PTX_DW_ZERO) ? MODE_ZERO : MODE_TRAP;
	unsigned ncoord = f.coords->kind == PTX_OPND_VEC ? f.coords->nelems : 1;
	if (ncoord != (f.is_3d ? 4u : f.is_2d ? 2u : 1u))
		return "surface coordinates: one for .1d, two for .2d, four for .3d";
	uint32_t next = 0;
	if (guard != IR_NO_REF) {
		uint32_t body = irb_open_sealed(b);
		next = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, body, next);
		irb_switch_to(b, body);
	}
	ir_ref handle = irb_read_opnd(b, f.handle, IR_T_I64, false), inside, is8;
	enum { FLOAT = 15 };
	trap_unless(b, icmp(b, IR_CMP_NE, desc_word(b, handle, 8), k32(b, FLOAT)));
	ir_ref at = surf_coords(b, &f, handle, &inside, &is8);
	ir_ref v = irb_read_opnd(b, f.data, IR_T_I32, false);
	uint32_t join = 0;
	if (f.mode == MODE_ZERO) { /* outside: no access */
		uint32_t body = irb_open_sealed(b);
		join = irb_new_block(b);
		irb_terminate(b, IR_BR, inside, body, join);
		irb_switch_to(b, body);
	}
	irb_emit(b, IR_IMG_ATOMIC, IR_T_NONE, (ir_ref[]){handle, at, v}, 3,
	         (f.is_3d   ? 2u
	          : f.is_2d ? 1u
	                    : 0u) |
	                 (unsigned)op << 4,
	         0);
	for (unsigned k = 0; k < 2; k++) {
		uint32_t to = k ? next : join;
		if (!to)
			continue;
		irb_terminate(b, IR_JMP, IR_NO_REF, to, 0);
		irb_seal(b, to);
		irb_switch_to(b, to);
	}
	return NULL;
}

/* The handle of txq/suq: `[%rd]`, a .u64 register. */
static bool query_handle(struct irb *b, const struct ptx_operand *o, ir_ref *handle)
{
	const struct ptx_operand *h = o;
	if (o->kind == PTX_OPND_BRACKET && o->nelems == 1)
		h = &o->elems[0];
	struct ptx_operand reg;
	if (h->kind == PTX_OPND_ADDR && h->sym && h->sym->space == PTX_SPACE_REG && !h->value) {
		reg = *h;
		reg.kind = PTX_OPND_REG;
		reg.value = 0;
		h = &reg;
	}
	if (h->kind != PTX_OPND_REG || !h->sym || h->sym->space != PTX_SPACE_REG)
		return false;
	*handle = irb_read_opnd(b, h, IR_T_I64, false);
	return true;
}

/* txq/suq of what the descriptor block states on every generation (HIP's layout): the width
 * in elements (dword 10), HSA's channel type and order (dwords 8, 9: the values HIP's own
 * image queries return; the PTX ISA leaves the numbering to the source language); the height
 * from the resource (IMG_HEIGHT), 0 for a 1D image (CUDA's extent of a 1D array).  NULL when
 * translated, else why not. */
static const char *query(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (in->op == PTX_OP_TXQ && has(in, PTX_DW_LEVEL))
		return "txq.level is not generated yet (docs/TEXTURES.md)";
	int dw = has(in, PTX_DW_WIDTH)               ? 10
	         : has(in, PTX_DW_CHANNEL_DATA_TYPE) ? 8
	         : has(in, PTX_DW_CHANNEL_ORDER)     ? 9
	         : has(in, PTX_DW_HEIGHT)            ? -1
	                                             : 0;
	if (!dw)
		return "this query is not generated yet: only .width, .height, .channel_data_type "
		       "and .channel_order (docs/TEXTURES.md)";
	if (in->nopnds != 2)
		return "query operand form not supported";
	ir_ref handle;
	if (!query_handle(b, &in->opnds[1], &handle))
		return "the handle of a query must be a .u64 register (docs/TEXTURES.md)";
	ir_ref v;
	if (dw > 0) {
		v = desc_word(b, handle, (unsigned)dw);
	} else {
		ir_ref type = op2(b, IR_SHR_U, IR_T_I32, desc_word(b, handle, 3), k32(b, 28), 0);
		enum { TYPE_1D = 8, TYPE_1D_ARRAY = 12 };
		ir_ref is_1d = op2(b, IR_OR, IR_T_PRED, icmp(b, IR_CMP_EQ, type, k32(b, TYPE_1D)),
		                   icmp(b, IR_CMP_EQ, type, k32(b, TYPE_1D_ARRAY)), 0);
		ir_ref h = irb_emit(b, IR_IMG_HEIGHT, IR_T_I32, &handle, 1, 0, 0);
		v = irb_emit(b, IR_SELECT, IR_T_I32, (ir_ref[]){is_1d, k32(b, 0), h}, 3, 0, 0);
	}
	irb_write_dest(b, &in->opnds[0], v, false, guard);
	return NULL;
}

/* tex/tld4 read their handle from a .u64 register (what nvcc emits for texture objects); a
 * kernel parameter named in the instruction (a .texref parameter) is not read yet. */
#define HANDLE_NOT_REGISTER                                                                        \
	"the handle of tex/tld4 must be a .u64 register; a .texref kernel parameter named in the " \
	"instruction is not generated yet (docs/TEXTURES.md)"

static bool is_register(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_REG && o->sym && o->sym->space == PTX_SPACE_REG;
}

static bool is_tex_value_type(unsigned t)
{
	return t == PTX_TYPE_F32 || t == PTX_TYPE_S32 || t == PTX_TYPE_U32;
}

/* The f32 bits of a coordinate vector (or scalar) operand: i32 for 1D, i64 x | y << 32 for 2D. */
static ir_ref float_bits(struct irb *b, const struct ptx_operand *c, bool is_2d)
{
	ir_ref xy[2];
	for (unsigned i = 0; i < (is_2d ? 2u : 1u); i++) {
		ir_ref f = irb_read_opnd(b, elem(c, i), IR_T_F32, false);
		xy[i] = irb_emit(b, IR_BITCAST, IR_T_I32, &f, 1, 0, 0);
	}
	return is_2d ? pair64(b, xy[0], xy[1]) : xy[0];
}

/* The channels of a tex with float coordinates: image_sample_lz of each (level 0, the sampler
 * of the object deciding normalization, address modes and filtering, as CUDA's texture unit
 * follows the object's state), image_sample_l with .level's LOD, image_sample_d with .grad's
 * derivatives; f32 bits; .s32/.u32 results are the integer bits an integer texel format
 * samples to (readMode element type), so the same bits.  extra: the LOD operand or the two
 * derivative vectors (NULL for plain tex). */
static void sample(struct irb *b, const struct ptx_insn *in, ir_ref handle, bool is_2d,
                   ir_ref ch[4])
{
	ir_ref args[4] = {handle, float_bits(b, &in->opnds[1].elems[1], is_2d), 0, 0};
	unsigned nargs = 2;
	enum ir_op op = IR_IMG_SAMPLE;
	if (has(in, PTX_DW_LEVEL)) {
		ir_ref f = irb_read_opnd(b, &in->opnds[2], IR_T_F32, false);
		args[nargs++] = irb_emit(b, IR_BITCAST, IR_T_I32, &f, 1, 0, 0);
		op = IR_IMG_SAMPLE_L;
	} else if (has(in, PTX_DW_GRAD)) {
		args[nargs++] = float_bits(b, &in->opnds[2], is_2d);
		args[nargs++] = float_bits(b, &in->opnds[3], is_2d);
		op = IR_IMG_SAMPLE_D;
	}
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, op, IR_T_F32, args, nargs,
		                    (is_2d ? 1u : 0u) | (1u << k) << 4, 0);
		ch[k] = irb_emit(b, IR_BITCAST, IR_T_I32, &v, 1, 0, 0);
	}
}

/* tex.1d with an integer coordinate (tex1Dfetch): the handle must be a texture over linear
 * memory, whose descriptor block HIP's runtime starts with a buffer descriptor (V#, HSA's 1DB
 * geometry; its word 3 bit 31 is clear, an image T#'s TYPE has it set): else the wave traps
 * (integer coordinates on an image: not generated yet).  buffer_load_format_xyzw converts the
 * element by the V#'s format; an index at or past the width (block dword 10, unsigned: a
 * negative one too) reads 0 in all four channels (CUDA: out-of-range fetches from linear
 * memory return zero) without a memory access. */
static void fetch(struct irb *b, ir_ref handle, const struct ptx_operand *c, ir_ref ch[4])
{
	ir_ref x = irb_read_opnd(b, elem(c, 0), IR_T_I32, false);
	ir_ref w3 = desc_word(b, handle, 3);
	trap_unless(b,
	            icmp(b, IR_CMP_EQ, op2(b, IR_SHR_U, IR_T_I32, w3, k32(b, 31), 0), k32(b, 0)));
	ir_ref in = icmp(b, IR_CMP_LTU, x, desc_word(b, handle, 10));
	ir_ref idx = irb_emit(b, IR_SELECT, IR_T_I32, (ir_ref[]){in, x, k32(b, 0)}, 3, 0, 0);
	for (unsigned h = 0; h < 2; h++) {
		ir_ref v = irb_emit(b, IR_IMG_FETCH, IR_T_I64, (ir_ref[]){handle, idx}, 2, h, 0);
		for (unsigned k = 0; k < 2; k++) {
			ir_ref part = k ? op2(b, IR_SHR_U, IR_T_I64, v, k32(b, 32), 0) : v;
			ir_ref t = irb_emit(b, IR_TRUNC, IR_T_I32, &part, 1, 0, 0);
			ch[2 * h + k] = irb_emit(b, IR_SELECT, IR_T_I32,
			                         (ir_ref[]){in, t, k32(b, 0)}, 3, 0, 0);
		}
	}
}

/* tex.3d ({x, y, z, -}) and tex.a2d ({layer, x, y, -}, the layer an .s32 index): image_sample_lz
 * with three address dwords, dim 3D (2) or 2D array (5); the layer as an f32 (exact below
 * 2^24), which the hardware rounds to the nearest slice and clamps to the array, as CUDA
 * clamps the layer. */
static void sample3(struct irb *b, ir_ref handle, const struct ptx_operand *c, bool is_3d,
                    ir_ref ch[4])
{
	ir_ref f[3];
	for (unsigned i = 0; i < 3; i++)
		f[i] = irb_read_opnd(b, &c->elems[i], !is_3d && i == 0 ? IR_T_I32 : IR_T_F32,
		                     false);
	ir_ref layer = is_3d ? f[2] : irb_emit(b, IR_ITOF_S, IR_T_F32, &f[0], 1, IR_FM_RN, 0);
	ir_ref x = f[is_3d ? 0 : 1], y = f[is_3d ? 1 : 2];
	ir_ref xb = irb_emit(b, IR_BITCAST, IR_T_I32, &x, 1, 0, 0);
	ir_ref yb = irb_emit(b, IR_BITCAST, IR_T_I32, &y, 1, 0, 0);
	ir_ref zb = irb_emit(b, IR_BITCAST, IR_T_I32, &layer, 1, 0, 0);
	ir_ref args[3] = {handle, pair64(b, xb, yb), zb};
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, IR_IMG_SAMPLE3, IR_T_F32, args, 3,
		                    (is_3d ? 2u : 5u) | (1u << k) << 4, 0);
		ch[k] = irb_emit(b, IR_BITCAST, IR_T_I32, &v, 1, 0, 0);
	}
}

/* tex.a1d ({layer, x}, the layer an .s32): image_sample_lz with dim 1D_ARRAY (4), the address x
 * then the layer's f32, rounded and clamped by the hardware as for .a2d. */
static void sample_a1d(struct irb *b, ir_ref handle, const struct ptx_operand *c, ir_ref ch[4])
{
	ir_ref layer = irb_read_opnd(b, &c->elems[0], IR_T_I32, false);
	ir_ref x = irb_read_opnd(b, &c->elems[1], IR_T_F32, false);
	ir_ref lf = irb_emit(b, IR_ITOF_S, IR_T_F32, &layer, 1, IR_FM_RN, 0);
	ir_ref xb = irb_emit(b, IR_BITCAST, IR_T_I32, &x, 1, 0, 0);
	ir_ref lb = irb_emit(b, IR_BITCAST, IR_T_I32, &lf, 1, 0, 0);
	ir_ref at = pair64(b, xb, lb);
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, IR_IMG_SAMPLE, IR_T_F32, (ir_ref[]){handle, at}, 2,
		                    4u | (1u << k) << 4, 0);
		ch[k] = irb_emit(b, IR_BITCAST, IR_T_I32, &v, 1, 0, 0);
	}
}

static ir_ref cube_op(struct irb *b, const ir_ref dir[3], unsigned which)
{
	return irb_emit(b, IR_CUBE, IR_T_F32, dir, 3, which, 0);
}

/* The array layer of cube `c` (an .s32) and face `face` (an f32 0-5) in a cube-map array of
 * 6 * N layers (T# dword 4 bits 12:0: the last layer, 6N - 1): 6 * clamp(c, 0, N - 1) + face,
 * as an f32 (exact: below 2^14).  The hardware clamps the layer itself, but to the last face
 * of the last cube, not to the same face of it. */
static ir_ref cube_layer(struct irb *b, ir_ref handle, ir_ref c, ir_ref face)
{
	ir_ref last = op2(b, IR_AND, IR_T_I32, desc_word(b, handle, 4), k32(b, 0x1fff), 0);
	ir_ref first_of_last = op2(b, IR_SUB, IR_T_I32, last, k32(b, 5), 0); /* 6(N - 1) */
	c = op2(b, IR_MIN_S, IR_T_I32, op2(b, IR_MAX_S, IR_T_I32, c, k32(b, 0), 0),
	        k32(b, 1u << 14), 0);
	ir_ref six_c = op2(b, IR_MUL, IR_T_I32, c, k32(b, 6), 0);
	six_c = op2(b, IR_MAX_S, IR_T_I32, op2(b, IR_MIN_S, IR_T_I32, six_c, first_of_last, 0),
	            k32(b, 0), 0);
	ir_ref base = irb_emit(b, IR_ITOF_S, IR_T_F32, &six_c, 1, IR_FM_RN, 0);
	return op2(b, IR_FADD, IR_T_F32, base, face, IR_FM_RN);
}

/* tex[.level].cube ({x, y, z, -}) and tex[.level].acube ({cube, x, y, z}, the cube an .s32) on a
 * texture object whose faces are the layers of a 2D array, six per cube in CUDA's order (+x,
 * -x, +y, -y, +z, -z, which is v_cubeid's): the face is the direction's major axis
 * (v_cubeid), its coordinates CUDA's (s / m + 1) / 2 and (t / m + 1) / 2 with m the major
 * coordinate's magnitude, i.e. sc / |ma| + 0.5 and tc / |ma| + 0.5 (v_cubesc/v_cubetc/
 * v_cubema; ma is twice the major coordinate), an IEEE division and add.  Then image_sample_lz
 * (image_sample_l with .level) of the 2D array at (s, t, layer) with the sampler made
 * normalized with clamp-to-edge (IR_IMG_CUBE_FACE): the face coordinates are normalized by
 * definition and lie in [0, 1], whose 1.0 is the last texel's edge, not a wrap. */
static ir_ref cube_address(struct irb *b, const struct ptx_operand *c, ir_ref handle, bool array,
                           ir_ref *layer_bits)
{
	ir_ref dir[3];
	for (unsigned i = 0; i < 3; i++)
		dir[i] = irb_read_opnd(b, &c->elems[i + (array ? 1 : 0)], IR_T_F32, false);
	ir_ref face = cube_op(b, dir, 0), m = cube_op(b, dir, 3),
	       half = ir_const(b->fn, IR_T_F32, 0x3f000000);
	m = irb_emit(b, IR_FABS, IR_T_F32, &m, 1, 0, 0);
	ir_ref st[2];
	for (unsigned i = 0; i < 2; i++) {
		ir_ref q = op2(b, IR_FDIV, IR_T_F32, cube_op(b, dir, 1 + i), m, IR_FM_RN);
		q = op2(b, IR_FADD, IR_T_F32, q, half, IR_FM_RN);
		st[i] = irb_emit(b, IR_BITCAST, IR_T_I32, &q, 1, 0, 0);
	}
	ir_ref layer = face;
	if (array)
		layer = cube_layer(b, handle, irb_read_opnd(b, &c->elems[0], IR_T_I32, false),
		                   face);
	*layer_bits = irb_emit(b, IR_BITCAST, IR_T_I32, &layer, 1, 0, 0);
	return pair64(b, st[0], st[1]);
}

static void sample_cube(struct irb *b, const struct ptx_insn *in, ir_ref handle, bool array,
                        ir_ref ch[4])
{
	ir_ref args[4] = {handle, IR_NO_REF, IR_NO_REF, IR_NO_REF};
	args[1] = cube_address(b, &in->opnds[1].elems[1], handle, array, &args[2]);
	unsigned nargs = 3;
	enum ir_op op = IR_IMG_SAMPLE3;
	if (has(in, PTX_DW_LEVEL)) {
		ir_ref lod = irb_read_opnd(b, &in->opnds[2], IR_T_F32, false);
		args[nargs++] = irb_emit(b, IR_BITCAST, IR_T_I32, &lod, 1, 0, 0);
		op = IR_IMG_SAMPLE3_L;
	}
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, op, IR_T_F32, args, nargs,
		                    5u | (1u << k) << 4 | IR_IMG_CUBE_FACE, 0);
		ch[k] = irb_emit(b, IR_BITCAST, IR_T_I32, &v, 1, 0, 0);
	}
}

/* tex.{1d,2d}.v4.{f32,s32,u32}.f32, tex.{3d,a1d,a2d,cube,acube} of those,
 * tex.1d.v4.{f32,s32,u32}.s32 on a texture object (sample, sample3, fetch).  NULL when translated,
 * else why not. */
static const char *texture(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	bool is_2d = has(in, PTX_DW_G2D), layered = has(in, PTX_DW_G3D) || has(in, PTX_DW_GA2D);
	bool a1d = has(in, PTX_DW_GA1D), cube = has(in, PTX_DW_GCUBE) || has(in, PTX_DW_GACUBE);
	if (!is_2d && !layered && !a1d && !cube && !has(in, PTX_DW_G1D))
		return "textures other than .1d, .2d, .3d, .a1d, .a2d, .cube and .acube (.2dms, "
		       ".a2dms) are not generated yet (docs/TEXTURES.md)";
	layered |= a1d;
	if (in->ntypes != 2 || !is_tex_value_type(in->types[0]) ||
	    (in->types[1] != PTX_TYPE_F32 && in->types[1] != PTX_TYPE_S32) || !has(in, PTX_DW_V4))
		return "only tex.v4 with .f32/.s32/.u32 results and .f32 or .s32 coordinates is "
		       "generated yet (docs/TEXTURES.md)";
	bool int_coords = in->types[1] == PTX_TYPE_S32;
	if (int_coords && is_2d)
		return "tex.2d with integer coordinates is not generated yet (docs/TEXTURES.md)";
	bool level = has(in, PTX_DW_LEVEL), grad = has(in, PTX_DW_GRAD);
	if (layered && (int_coords || level || grad))
		return "tex.3d/.a1d/.a2d with integer coordinates, .level or .grad is not "
		       "generated yet "
		       "(docs/TEXTURES.md)";
	if (cube && (int_coords || grad))
		return "tex.cube/.acube with integer coordinates or .grad is not generated yet "
		       "(docs/TEXTURES.md)";
	if (int_coords && (level || grad))
		return "tex.level/.grad with integer coordinates is not generated yet "
		       "(docs/TEXTURES.md)";
	if (in->nopnds != 2u + level + 2u * grad || in->opnds[1].kind != PTX_OPND_BRACKET ||
	    in->opnds[1].nelems != 2)
		return "tex with an offset, a depth compare or a separate sampler is not generated "
		       "yet (docs/TEXTURES.md)";
	for (unsigned i = 0; grad && i < 2; i++) {
		const struct ptx_operand *g = &in->opnds[2 + i];
		if ((g->kind == PTX_OPND_VEC ? g->nelems : 1) < (is_2d ? 2u : 1u))
			return "tex.grad operand form not supported";
	}
	const struct ptx_operand *c = &in->opnds[1].elems[1], *d = &in->opnds[0];
	unsigned nc = c->kind == PTX_OPND_VEC ? c->nelems : 1;
	if (nc != (a1d               ? 2u
	           : layered || cube ? 4u
	           : is_2d           ? 2u
	                             : 1u) ||
	    d->kind != PTX_OPND_VEC || d->nelems != 4)
		return "tex operand form not supported";
	if (!is_register(&in->opnds[1].elems[0]))
		return HANDLE_NOT_REGISTER;
	ir_ref handle = irb_read_opnd(b, &in->opnds[1].elems[0], IR_T_I64, false), ch[4];
	uint32_t next = 0;
	if (guard != IR_NO_REF) { /* @p: lanes without p do not sample (nor fault) */
		uint32_t body = irb_open_sealed(b);
		next = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, body, next);
		irb_switch_to(b, body);
	}
	if (int_coords)
		fetch(b, handle, c, ch);
	else if (cube)
		sample_cube(b, in, handle, has(in, PTX_DW_GACUBE), ch);
	else if (a1d)
		sample_a1d(b, handle, c, ch);
	else if (layered)
		sample3(b, handle, c, has(in, PTX_DW_G3D), ch);
	else
		sample(b, in, handle, is_2d, ch);
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = ch[k];
		if (in->types[0] == PTX_TYPE_F32)
			v = irb_emit(b, IR_BITCAST, IR_T_F32, &v, 1, 0, 0);
		irb_write_dest(b, &d->elems[k], v, false, IR_NO_REF);
	}
	if (guard != IR_NO_REF) {
		irb_terminate(b, IR_JMP, IR_NO_REF, next, 0);
		irb_seal(b, next);
		irb_switch_to(b, next);
	}
	return NULL;
}

/* tld4.{r,g,b,a}.{2d,a2d,cube,acube}.v4.{f32,s32,u32}.f32: image_gather4_lz of that channel,
 * whose four texels (the bilinear footprint, counter-clockwise from the lower left: (-,+), (+,+),
 * (+,-), (-,-), the order the PTX ISA and AMD's gather4 share) come in two halves (the IR has no
 * 4-dword values); .a2d gathers in its layer (IMG_GATHER3), a cube face as tex.cube samples it.
 * NULL when translated, else why not. */
static const char *gather(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	static const enum ptx_dotword comps[4] = {PTX_DW_R, PTX_DW_G, PTX_DW_B, PTX_DW_A};
	unsigned comp = 4;
	for (unsigned i = 0; i < 4; i++)
		if (has(in, comps[i]))
			comp = i;
	bool a2d = has(in, PTX_DW_GA2D), cube = has(in, PTX_DW_GCUBE) || has(in, PTX_DW_GACUBE);
	if (!has(in, PTX_DW_G2D) && !a2d && !cube)
		return "tld4 other than .2d, .a2d, .cube and .acube is not generated yet "
		       "(docs/TEXTURES.md)";
	if (comp == 4 || in->ntypes != 2 || !is_tex_value_type(in->types[0]) ||
	    in->types[1] != PTX_TYPE_F32 || !has(in, PTX_DW_V4))
		return "tld4 form not supported";
	if (in->nopnds != 2 || in->opnds[1].kind != PTX_OPND_BRACKET || in->opnds[1].nelems != 2)
		return "tld4 with an offset, a depth compare, a residency predicate or a separate "
		       "sampler is not generated yet (docs/TEXTURES.md)";
	const struct ptx_operand *c = &in->opnds[1].elems[1], *d = &in->opnds[0];
	if ((c->kind == PTX_OPND_VEC ? c->nelems : 1) != (a2d || cube ? 4u : 2u) ||
	    d->kind != PTX_OPND_VEC || d->nelems != 4)
		return "tld4 operand form not supported";
	if (!is_register(&in->opnds[1].elems[0]))
		return HANDLE_NOT_REGISTER;
	ir_ref handle = irb_read_opnd(b, &in->opnds[1].elems[0], IR_T_I64, false), at, layer = 0;
	if (cube) {
		at = cube_address(b, c, handle, has(in, PTX_DW_GACUBE), &layer);
	} else if (a2d) { /* {layer, x, y, -}: the layer an .s32, as its f32 (tex.a2d) */
		ir_ref l = irb_read_opnd(b, &c->elems[0], IR_T_I32, false), xy[2];
		ir_ref lf = irb_emit(b, IR_ITOF_S, IR_T_F32, &l, 1, IR_FM_RN, 0);
		layer = irb_emit(b, IR_BITCAST, IR_T_I32, &lf, 1, 0, 0);
		for (unsigned i = 0; i < 2; i++) {
			ir_ref f = irb_read_opnd(b, &c->elems[1 + i], IR_T_F32, false);
			xy[i] = irb_emit(b, IR_BITCAST, IR_T_I32, &f, 1, 0, 0);
		}
		at = pair64(b, xy[0], xy[1]);
	} else {
		at = float_bits(b, c, true);
	}
	uint32_t next = 0;
	if (guard != IR_NO_REF) {
		uint32_t body = irb_open_sealed(b);
		next = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, body, next);
		irb_switch_to(b, body);
	}
	for (unsigned h = 0; h < 2; h++) {
		ir_ref v = a2d || cube ? irb_emit(b, IR_IMG_GATHER3, IR_T_I64,
		                                  (ir_ref[]){handle, at, layer}, 3,
		                                  h | comp << 1 | (cube ? IR_IMG_CUBE_FACE : 0), 0)
		                       : irb_emit(b, IR_IMG_GATHER, IR_T_I64,
		                                  (ir_ref[]){handle, at}, 2, h | comp << 1, 0);
		for (unsigned k = 0; k < 2; k++) {
			ir_ref part = k ? op2(b, IR_SHR_U, IR_T_I64, v, k32(b, 32), 0) : v;
			ir_ref t = irb_emit(b, IR_TRUNC, IR_T_I32, &part, 1, 0, 0);
			if (in->types[0] == PTX_TYPE_F32)
				t = irb_emit(b, IR_BITCAST, IR_T_F32, &t, 1, 0, 0);
			irb_write_dest(b, &d->elems[2 * h + k], t, false, IR_NO_REF);
		}
	}
	if (guard != IR_NO_REF) {
		irb_terminate(b, IR_JMP, IR_NO_REF, next, 0);
		irb_seal(b, next);
		irb_switch_to(b, next);
	}
	return NULL;
}

bool irb_tex(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	if (!is_tex_family(op))
		return false;
	const char *why = NULL;
	if (op == PTX_OP_ISTYPEP)
		why = "HIP's texture and surface objects are both plain image descriptors, so "
		      "whether a handle is a texture, sampler or surface is not recorded "
		      "(docs/TEXTURES.md)";
	else if (names_reference(in->opnds, in->nopnds))
		why = "texture references (.texref/.samplerref/.surfref variables) are bound by "
		      "the reference API that HIP and CUDA 12 removed; only texture and surface "
		      "objects (.u64 handles) can be supported (docs/TEXTURES.md)";
	else if (b->mod && b->mod->texmode_independent)
		why = "the independent texturing mode (separate sampler handles) has no HIP "
		      "counterpart: a texture object carries its sampler (docs/TEXTURES.md)";
	if (why) { /* no HIP counterpart: refused for good */
		irb_refuse(b, in, why);
		return true;
	}
	if (op == PTX_OP_TEX) {
		why = texture(b, in, guard);
		if (!why)
			return true;
	} else if (op == PTX_OP_TLD4) {
		why = gather(b, in, guard);
		if (!why)
			return true;
	} else if (op == PTX_OP_TXQ || op == PTX_OP_SUQ) {
		why = query(b, in, guard);
		if (!why)
			return true;
	} else if (op == PTX_OP_SULD || op == PTX_OP_SUST) {
		why = surface_access(b, in, guard);
		if (!why)
			return true;
	} else if (op == PTX_OP_SURED) {
		why = surface_reduction(b, in, guard);
		if (!why)
			return true;
	}
	if (!why)
		why = "texture and surface objects: the AMD image instructions are encoded but "
		      "their selection and amdsim's execution are not written yet "
		      "(docs/TEXTURES.md)";
	irb_unsupported(b, in, why);
	return true;
}
