/* irb_tex: the texture and surface instructions (tex, tld4, txq, suld, sust, sured, suq,
 * istypep), docs/TEXTURES.md.
 *
 * A handle is a texture or surface object: a .u64 value, the address of the descriptor block
 * HIP's runtime builds (hipTextureObject_t: the 8-dword image resource, 4 more dwords, then
 * the sampler at dword 12; hipSurfaceObject_t: the image resource).  The AMD image
 * instructions that would consume them are in the instruction table (src/isa/isa_table.py,
 * format MIMG); their selection and amdsim's execution of them are not written yet, so every
 * form is rejected here by name, with the reason that applies to it: the texture-reference
 * API (module .texref/.samplerref/.surfref variables, bound by calls HIP and CUDA 12
 * removed), the independent texturing mode (separate sampler handles; HIP's
 * texture objects carry their sampler), istypep (HIP's texture and surface objects are both
 * plain image descriptors: the kind of a handle is not recorded), else the generic "not
 * generated yet".  requires: irb state at the instruction; breaks: nothing.  O(operands). */
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

bool irb_tex(struct irb *b, const struct ptx_insn *in)
{
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	if (!is_tex_family(op))
		return false;
	const char *why;
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
	else
		why = "texture and surface objects: the AMD image instructions are encoded but "
		      "their selection and amdsim's execution are not written yet "
		      "(docs/TEXTURES.md)";
	irb_unsupported(b, in, why);
	return true;
}
