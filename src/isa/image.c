/* The rules of image (MIMG / gfx12 VIMAGE+VSAMPLE) instances that the encoder and
 * amd_inst_legal share: how many address and data VGPRs an instance has (from its row's
 * enum amd_image_kind, its dim and its dmask) and what cannot be encoded on a generation.
 * Facts from AMD's RDNA/CDNA ISA manuals (MIMG address and data layout) and llvm-mc-19's
 * checks ("image address size does not match dim", "image data size does not match dmask",
 * one dmask bit for gather4).  Pure; O(1). */
#include "isa.h"

/* Coordinates per dim (SQ_RSRC_IMG_1D .. 2D_ARRAY): x; x y; x y z; x y face; x slice;
 * x y slice. */
static const uint8_t coords_of_dim[6] = {1, 2, 3, 3, 2, 3};
/* Derivatives per direction (d/dx or d/dy) for image_sample_d: the non-array coordinates
 * (a cube's are the 2D face coordinates). */
static const uint8_t grads_of_dim[6] = {1, 2, 3, 2, 1, 2};

unsigned amd_image_addr_count(const struct amd_isa_op *op, unsigned dim)
{
	if (dim >= sizeof coords_of_dim)
		return 0;
	switch (op->image & AMD_IMG_KIND_MASK) {
	case AMD_IMG_COORDS:
		return coords_of_dim[dim];
	case AMD_IMG_LOD:
		return coords_of_dim[dim] + 1u;
	case AMD_IMG_GRAD:
		return 2u * grads_of_dim[dim] + coords_of_dim[dim];
	case AMD_IMG_RESINFO:
		return 1;
	default:
		return 0;
	}
}

unsigned amd_image_data_count(const struct amd_isa_op *op, unsigned dmask)
{
	if (op->image & AMD_IMG_GATHER)
		return 4;
	return (unsigned)__builtin_popcount(dmask & 15u);
}

bool amd_image_has_sampler(const struct amd_isa_op *op)
{
	for (int i = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == AMD_OPK_SSAMP)
			return true;
	return false;
}

/* The row's width of its first operand of `kind`, or the instance's where it states one. */
static unsigned inst_width(const struct amd_isa_op *op, const struct amd_inst *in, int nth)
{
	for (int i = 0, n = 0; i < op->nopnds; i++)
		if (op->opnds[i].kind == AMD_OPK_VDST || op->opnds[i].kind == AMD_OPK_VGPR) {
			if (n++ == nth)
				return in->ops[i].width ? in->ops[i].width : op->opnds[i].width;
		}
	return 0;
}

const char *amd_image_refusal(const struct amd_target *t, const struct amd_isa_op *op,
                              const struct amd_inst *in)
{
	enum amd_gen gen = t->info->gen;
	if (op->format != AMD_FMT_MIMG)
		return NULL;
	if (in->dim > 5)
		return "only the dims 1D, 2D, 3D, CUBE, 1D_ARRAY and 2D_ARRAY are supported "
		       "(no multisampled images)";
	if (!in->dmask || in->dmask > 15)
		return "dmask must name 1 to 4 components (0x1-0xf)";
	if ((op->image & AMD_IMG_GATHER) && (in->dmask & (in->dmask - 1)))
		return "gather4 takes exactly one dmask bit";
	if (op->flags & AMD_F_ATOMIC && in->dmask != (1u << inst_width(op, in, 0)) - 1)
		return "an atomic's dmask must be 0x1 (0x3 for cmpswap)";
	if (inst_width(op, in, 0) != amd_image_data_count(op, in->dmask))
		return "image data size does not match dmask";
	unsigned naddr = amd_image_addr_count(op, in->dim);
	if (inst_width(op, in, 1) != naddr)
		return "image address size does not match dim";
	if (in->rtn.kind != AMD_V_NONE)
		return "image atomics return through vdata (set glc)";
	bool sampler = amd_image_has_sampler(op);
	if (gen == AMD_GFX12 && in->unorm && !sampler)
		return "gfx12 VIMAGE has no unorm bit";
	/* VSAMPLE has 4 address fields, the last may start a tuple; llvm-mc-19 takes no more
	 * than 4 on VIMAGE either */
	if (gen == AMD_GFX12 && !sampler && naddr > 4)
		return "more than 4 address VGPRs on gfx12 VIMAGE";
	if (gen <= AMD_GFX940 && in->cpol & AMD_CPOL_DLC)
		return "no dlc on gfx9";
	if (gen == AMD_GFX12 && (in->cpol & 7u) > 2)
		return "temporal hint out of range";
	return NULL;
}
