/* irb_tex: the texture and surface instructions (tex, tld4, txq, suld, sust, sured, suq,
 * istypep), docs/TEXTURES.md.
 *
 * A handle is a texture or surface object: a .u64 value, the address of the descriptor block
 * HIP's runtime builds (hipTextureObject_t: the 8-dword image resource, 4 more dwords, then
 * the sampler at dword 12; hipSurfaceObject_t: the image resource).  tex (.1d/.2d with
 * .level/.grad, .3d, .a1d, .a2d, .cube/.acube with .level; f32/s32/u32 results) samples through
 * the object's sampler (IMG_SAMPLE*; a cube face chosen by CUBE, sampled as an array layer), tex.1d
 * with integer coordinates is tex1Dfetch on a linear texture's buffer descriptor (IMG_FETCH),
 * tld4.2d gathers (IMG_GATHER).  suld, sust and sured are build_surf.c's (irb_surface_access,
 * irb_surface_reduction).  txq/suq read the descriptor block.  Every form neither translates is
 * rejected here by name, with the reason that applies to it: the texture-reference API (module
 * .texref/.samplerref/.surfref variables, bound by calls HIP and CUDA 12 removed), the independent
 * texturing mode (separate sampler handles; HIP's texture objects carry their sampler), istypep
 * (HIP's texture and surface objects are both plain image descriptors: the kind of a handle is not
 * recorded), else "not generated yet". requires: irb state at the instruction; breaks: nothing.
 * O(operands). */
#include "build_tex.h"

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
	if (in->op == PTX_OP_TXQ && tex_has(in, PTX_DW_LEVEL))
		return "txq.level is not generated yet (docs/TEXTURES.md)";
	int dw = tex_has(in, PTX_DW_WIDTH)               ? 10
	         : tex_has(in, PTX_DW_CHANNEL_DATA_TYPE) ? 8
	         : tex_has(in, PTX_DW_CHANNEL_ORDER)     ? 9
	         : tex_has(in, PTX_DW_HEIGHT)            ? -1
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
	if (tex_has(in, PTX_DW_LEVEL)) {
		ir_ref f = irb_read_opnd(b, &in->opnds[2], IR_T_F32, false);
		args[nargs++] = irb_emit(b, IR_BITCAST, IR_T_I32, &f, 1, 0, 0);
		op = IR_IMG_SAMPLE_L;
	} else if (tex_has(in, PTX_DW_GRAD)) {
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

/* tex[.level].3d ({x, y, z, -}) and tex[.level].a2d ({layer, x, y, -}, the layer an .s32
 * index): image_sample_lz (image_sample_l after it the LOD) with three address dwords, dim 3D (2)
 * or 2D array (5); the layer as an f32 (exact below 2^24), which the hardware rounds to the nearest
 * slice and clamps to the array, as CUDA clamps the layer. */
/* The f32 bits of tex.level's LOD (operand 2), or IR_NO_REF without .level. */
static ir_ref lod_bits(struct irb *b, const struct ptx_insn *in)
{
	if (!tex_has(in, PTX_DW_LEVEL))
		return IR_NO_REF;
	ir_ref f = irb_read_opnd(b, &in->opnds[2], IR_T_F32, false);
	return irb_emit(b, IR_BITCAST, IR_T_I32, &f, 1, 0, 0);
}

static void sample3(struct irb *b, ir_ref handle, const struct ptx_operand *c, bool is_3d,
                    ir_ref lod, ir_ref ch[4])
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
	ir_ref args[4] = {handle, pair64(b, xb, yb), zb, lod};
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, lod != IR_NO_REF ? IR_IMG_SAMPLE3_L : IR_IMG_SAMPLE3,
		                    IR_T_F32, args, lod != IR_NO_REF ? 4 : 3,
		                    (is_3d ? 2u : 5u) | (1u << k) << 4, 0);
		ch[k] = irb_emit(b, IR_BITCAST, IR_T_I32, &v, 1, 0, 0);
	}
}

/* tex[.level].a1d ({layer, x}, the layer an .s32): image_sample_lz (_l) with dim 1D_ARRAY (4),
 * the address x then the layer's f32 (then the LOD), rounded and clamped by the hardware as for
 * .a2d. */
static void sample_a1d(struct irb *b, ir_ref handle, const struct ptx_operand *c, ir_ref lod,
                       ir_ref ch[4])
{
	ir_ref layer = irb_read_opnd(b, &c->elems[0], IR_T_I32, false);
	ir_ref x = irb_read_opnd(b, &c->elems[1], IR_T_F32, false);
	ir_ref lf = irb_emit(b, IR_ITOF_S, IR_T_F32, &layer, 1, IR_FM_RN, 0);
	ir_ref xb = irb_emit(b, IR_BITCAST, IR_T_I32, &x, 1, 0, 0);
	ir_ref lb = irb_emit(b, IR_BITCAST, IR_T_I32, &lf, 1, 0, 0);
	ir_ref at = pair64(b, xb, lb);
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = irb_emit(b, lod != IR_NO_REF ? IR_IMG_SAMPLE_L : IR_IMG_SAMPLE, IR_T_F32,
		                    (ir_ref[]){handle, at, lod}, lod != IR_NO_REF ? 3 : 2,
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
	if (tex_has(in, PTX_DW_LEVEL)) {
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
	bool is_2d = tex_has(in, PTX_DW_G2D),
	     layered = tex_has(in, PTX_DW_G3D) || tex_has(in, PTX_DW_GA2D);
	bool a1d = tex_has(in, PTX_DW_GA1D),
	     cube = tex_has(in, PTX_DW_GCUBE) || tex_has(in, PTX_DW_GACUBE);
	if (!is_2d && !layered && !a1d && !cube && !tex_has(in, PTX_DW_G1D))
		return "textures other than .1d, .2d, .3d, .a1d, .a2d, .cube and .acube (.2dms, "
		       ".a2dms) are not generated yet (docs/TEXTURES.md)";
	layered |= a1d;
	if (in->ntypes != 2 || !is_tex_value_type(in->types[0]) ||
	    (in->types[1] != PTX_TYPE_F32 && in->types[1] != PTX_TYPE_S32) ||
	    !tex_has(in, PTX_DW_V4))
		return "only tex.v4 with .f32/.s32/.u32 results and .f32 or .s32 coordinates is "
		       "generated yet (docs/TEXTURES.md)";
	bool int_coords = in->types[1] == PTX_TYPE_S32;
	if (int_coords && is_2d)
		return "tex.2d with integer coordinates is not generated yet (docs/TEXTURES.md)";
	bool level = tex_has(in, PTX_DW_LEVEL), grad = tex_has(in, PTX_DW_GRAD);
	if (layered && (int_coords || grad))
		return "tex.3d/.a1d/.a2d with integer coordinates or .grad is not generated yet "
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
	uint32_t next = branch_open(b, guard); /* @p: lanes without p do not sample (nor fault) */
	if (int_coords)
		fetch(b, handle, c, ch);
	else if (cube)
		sample_cube(b, in, handle, tex_has(in, PTX_DW_GACUBE), ch);
	else if (a1d)
		sample_a1d(b, handle, c, lod_bits(b, in), ch);
	else if (layered)
		sample3(b, handle, c, tex_has(in, PTX_DW_G3D), lod_bits(b, in), ch);
	else
		sample(b, in, handle, is_2d, ch);
	for (unsigned k = 0; k < 4; k++) {
		ir_ref v = ch[k];
		if (in->types[0] == PTX_TYPE_F32)
			v = irb_emit(b, IR_BITCAST, IR_T_F32, &v, 1, 0, 0);
		irb_write_dest(b, &d->elems[k], v, false, IR_NO_REF);
	}
	branch_close(b, next);
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
		if (tex_has(in, comps[i]))
			comp = i;
	bool a2d = tex_has(in, PTX_DW_GA2D),
	     cube = tex_has(in, PTX_DW_GCUBE) || tex_has(in, PTX_DW_GACUBE);
	if (!tex_has(in, PTX_DW_G2D) && !a2d && !cube)
		return "tld4 other than .2d, .a2d, .cube and .acube is not generated yet "
		       "(docs/TEXTURES.md)";
	if (comp == 4 || in->ntypes != 2 || !is_tex_value_type(in->types[0]) ||
	    in->types[1] != PTX_TYPE_F32 || !tex_has(in, PTX_DW_V4))
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
		at = cube_address(b, c, handle, tex_has(in, PTX_DW_GACUBE), &layer);
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
	uint32_t next = branch_open(b, guard);
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
	branch_close(b, next);
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
		why = irb_surface_access(b, in, guard);
		if (!why)
			return true;
	} else if (op == PTX_OP_SURED) {
		why = irb_surface_reduction(b, in, guard);
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
