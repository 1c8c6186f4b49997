/* Kernel descriptor derivation: the one place where the resource usage of a kernel
 * becomes COMPUTE_PGM_RSRC1/2/3, kernel_code_properties and the register counts the
 * metadata and the -v line report.
 *
 * Algorithm: count user and system SGPRs from the ABI inputs, add the SGPRs the
 * hardware reserves (VCC, FLAT_SCRATCH, XNACK_MASK), round register counts to the
 * encoding granules and pack the bit fields.  Each rule cites AMDGPUUsage ("Kernel
 * Descriptor", "compute_pgm_rsrc1/2/3" tables); where LLVM-19 writes something the
 * document does not say (SGPR granule on gfx10+), LLVM's bytes win, because the tests
 * compare with clang-19's descriptors field by field.
 * requires: a parsed target; breaks: nothing.  Complexity: O(args). */
#include "codeobj.h"

#include <string.h>

static const char *kname(const struct co_kernel *k)
{
	return k->name ? k->name : "(unnamed)";
}

static unsigned div_ceil(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

static unsigned align_up(unsigned a, unsigned b)
{
	return div_ceil(a, b) * b;
}

static bool fail(struct pa_diag *d, const struct co_kernel *k, const char *what, unsigned value,
                 unsigned limit)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "kernel '%s': %s (%u) exceeds what the kernel descriptor allows (%u)",
	               kname(k), what, value, limit);
	return false;
}

/* User SGPRs in AMDGPUUsage "Initial Kernel Execution State" order, with their sizes;
 * sets the matching kernel_code_properties bits. */
static bool count_user_sgprs(const struct amd_target *t, const struct co_kernel *k, unsigned *count,
                             uint16_t *props, struct pa_diag *d)
{
	const struct co_abi_inputs *abi = &k->abi;
	bool afs = t->info->architected_flat_scratch;
	if (afs && (abi->private_segment_buffer || abi->flat_scratch_init)) {
		/* "Architected flat scratch": PRIVATE_SEGMENT_BUFFER and FLAT_SCRATCH_INIT
		 * user SGPRs are not supported (AMDGPUUsage, kernel descriptor table). */
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "kernel '%s': %s has architected flat scratch: no private segment "
		               "buffer or flat scratch init user SGPRs",
		               kname(k), t->info->name);
		return false;
	}
	const struct {
		bool on;
		unsigned sgprs;
		uint16_t bit;
	} user[] = {
	        {abi->private_segment_buffer, 4, 1u << 0},
	        {abi->dispatch_ptr, 2, 1u << 1},
	        {abi->queue_ptr, 2, 1u << 2},
	        {abi->kernarg_segment_ptr, 2, 1u << 3},
	        {abi->dispatch_id, 2, 1u << 4},
	        {abi->flat_scratch_init, 2, 1u << 5},
	        {abi->private_segment_size, 1, 1u << 6},
	};
	*count = 0;
	for (size_t i = 0; i < sizeof user / sizeof user[0]; i++) {
		if (user[i].on) {
			*count += user[i].sgprs;
			*props |= user[i].bit;
		}
	}
	if (abi->user_sgpr_count) {
		if (abi->user_sgpr_count < *count) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "kernel '%s': user SGPR count %u is less than the %u user "
			               "SGPRs enabled",
			               kname(k), abi->user_sgpr_count, *count);
			return false;
		}
		*count = abi->user_sgpr_count;
	}
	/* USER_SGPR_COUNT "must not exceed 16". */
	if (*count > 16)
		return fail(d, k, "user SGPR count", *count, 16);
	return true;
}

/* SGPRs the hardware takes on top of the ones the code names (LLVM's
 * getNumExtraSGPRs): VCC on all targets; on gfx9 also XNACK_MASK (4 in all) and
 * FLAT_SCRATCH (6 in all), and architected-flat-scratch gfx9 (gfx942) always 6. */
static unsigned extra_sgprs(const struct amd_target *t, const struct co_kernel *k)
{
	unsigned extra = k->uses_vcc ? 2 : 0;
	if (t->info->gen >= AMD_GFX10)
		return extra;
	/* XNACK replay needs XNACK_MASK whenever xnack is on or "any" (LLVM reserves it
	 * unless the target says xnack-). */
	bool xnack =
	        k->uses_xnack_mask || t->xnack == AMD_FEATURE_ON || t->xnack == AMD_FEATURE_ANY;
	if (xnack)
		extra = 4;
	if (k->uses_flat_scratch || t->info->architected_flat_scratch)
		extra = 6;
	return extra;
}

static bool compute_registers(const struct amd_target *t, const struct co_kernel *k,
                              struct co_descriptor *o, struct pa_diag *d)
{
	const struct amd_target_info *ti = t->info;
	/* LLVM counts the SGPRs the code names, not the input SGPRs the dispatcher
	 * writes (an empty kernel with 7 input SGPRs reports 0): the allocation granule
	 * (16 SGPRs on gfx9, all 106 on gfx10+) covers the usual inputs, and the compiler
	 * must report a count that includes every input SGPR it reads. */
	unsigned named_sgprs = k->sgpr_count;
	if (named_sgprs > ti->addressable_sgprs)
		return fail(d, k, "SGPR count", named_sgprs, ti->addressable_sgprs);
	o->sgpr_count = named_sgprs + extra_sgprs(t, k);

	/* Likewise VGPRs: v0 holds the work-item IDs, but LLVM reports 0 VGPRs for a
	 * kernel that never reads them; the encoding rounds max(n, 1) anyway. */
	unsigned arch = k->vgpr_count;
	if (arch > 256)
		return fail(d, k, "VGPR count", arch, 256);
	if (k->agpr_count && !ti->has_agprs)
		return fail(d, k, "AGPR count", k->agpr_count, 0);
	if (k->agpr_count > 256)
		return fail(d, k, "AGPR count", k->agpr_count, 256);
	o->agpr_count = k->agpr_count;
	o->vgpr_count = arch;
	if (ti->has_agprs) {
		/* gfx90a/gfx940: AGPRs follow the VGPRs in one file, starting at ACCUM_OFFSET
		 * (rsrc3[5:0] = accum_offset/4 - 1, accum_offset = align(vgprs, 4)). */
		o->accum_offset = align_up(arch ? arch : 1, 4);
		if (k->agpr_count)
			o->vgpr_count = o->accum_offset + k->agpr_count;
	}
	/* GRANULATED_WORKITEM_VGPR_COUNT = ceil(max(n,1)/granule) - 1 with granule 8 on
	 * gfx90a/gfx940, 8 for wave32 and 4 for wave64 on gfx10+. */
	unsigned vgpr_granule = ti->has_agprs ? 8 : o->wave_size == 32 ? 8 : 4;
	unsigned vgpr_blocks = div_ceil(o->vgpr_count ? o->vgpr_count : 1, vgpr_granule) - 1;
	/* GRANULATED_WAVEFRONT_SGPR_COUNT: LLVM-19 writes ceil(max(n,1)/8) - 1 on every
	 * target (AMDGPUUsage says 0 on gfx10+, where the field is ignored). */
	unsigned sgpr_blocks = div_ceil(o->sgpr_count ? o->sgpr_count : 1, 8) - 1;
	if (vgpr_blocks > 63)
		return fail(d, k, "VGPR count", o->vgpr_count, 64 * vgpr_granule);
	if (sgpr_blocks > 15)
		return fail(d, k, "SGPR count", o->sgpr_count, 128);
	o->compute_pgm_rsrc1 |= vgpr_blocks | sgpr_blocks << 6;
	return true;
}

static void compute_rsrc1_modes(const struct amd_target *t, const struct co_kernel *k,
                                struct co_descriptor *o)
{
	const struct co_float_mode *fm = &k->float_mode;
	uint32_t r = (uint32_t)(fm->round_32 & 3) << 12 | (uint32_t)(fm->round_16_64 & 3) << 14 |
	             (uint32_t)(fm->denorm_32 & 3) << 16 | (uint32_t)(fm->denorm_16_64 & 3) << 18;
	/* ENABLE_DX10_CLAMP (bit 21) and ENABLE_IEEE_MODE (bit 23) exist on GFX6-11; on
	 * GFX12 the bits mean WG_RR_EN and DISABLE_PERF, which LLVM leaves 0. */
	if (t->info->gen < AMD_GFX12) {
		r |= (uint32_t)fm->dx10_clamp << 21;
		r |= (uint32_t)fm->ieee_mode << 23;
	}
	/* WGP_MODE (29) and MEM_ORDERED (30) are GFX10+ fields. */
	if (t->info->gen >= AMD_GFX10) {
		r |= (uint32_t)k->workgroup_processor_mode << 29;
		r |= (uint32_t)k->mem_ordered << 30;
	}
	o->compute_pgm_rsrc1 |= r;
}

/* kernarg size: explicit args, then (when any hidden argument is used) the implicit
 * block at the next 8-byte boundary: 256 bytes on v5, 56 on v4 (LLVM's layout). */
static bool compute_kernarg(unsigned cov, const struct co_kernel *k, struct co_descriptor *o,
                            struct pa_diag *d)
{
	/* LLVM reports at least 4 (MetadataStreamer: max(Align(4), max arg align)). */
	uint32_t end = 0, align = 4;
	for (size_t i = 0; i < k->nargs; i++) {
		const struct co_arg *a = &k->args[i];
		uint32_t al = a->align ? a->align : 1;
		if ((al & (al - 1)) || a->offset % al || a->size == 0 ||
		    a->size > (1u << 20) - a->offset || a->offset > (1u << 20)) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "kernel '%s': argument %zu has offset %u, size %u, "
			               "alignment %u (want a nonzero size at a multiple of a "
			               "power-of-two alignment, within 1 MiB)",
			               kname(k), i, a->offset, a->size, al);
			return false;
		}
		if (a->offset + a->size > end)
			end = a->offset + a->size;
		if (al > align)
			align = al;
	}
	o->explicit_kernarg_end = end;
	if (k->hidden_args) {
		end = align_up(end, 8) + (cov >= 5 ? 256 : 56);
		if (align < 8)
			align = 8;
	}
	if (k->kernarg_size) {
		if (k->kernarg_size < end)
			return fail(d, k, "argument end", end, k->kernarg_size);
		end = k->kernarg_size;
	}
	if (k->kernarg_align) {
		if (k->kernarg_align < align || (k->kernarg_align & (k->kernarg_align - 1)))
			return fail(d, k, "argument alignment", align, k->kernarg_align);
		align = k->kernarg_align;
	}
	o->kernarg_size = end;
	o->kernarg_align = align;
	return true;
}

void co_kernel_defaults(struct co_kernel *k)
{
	memset(k, 0, sizeof *k);
	k->float_mode = (struct co_float_mode){.round_32 = 0,
	                                       .round_16_64 = 0,
	                                       .denorm_32 = 3,
	                                       .denorm_16_64 = 3,
	                                       .ieee_mode = true,
	                                       .dx10_clamp = true};
	k->workgroup_processor_mode = true;
	k->mem_ordered = true;
	k->abi.workitem_id_dims = 1;
}

bool co_compute_descriptor(const struct amd_target *t, unsigned cov, const struct co_kernel *k,
                           struct co_descriptor *o, struct pa_diag *d)
{
	const struct amd_target_info *ti = t->info;
	const struct co_abi_inputs *abi = &k->abi;
	memset(o, 0, sizeof *o);
	o->wave_size = k->wave_size ? k->wave_size : t->wave_size;
	if ((o->wave_size == 32 && !ti->supports_wave32) ||
	    (o->wave_size == 64 && !ti->supports_wave64) ||
	    (o->wave_size != 32 && o->wave_size != 64)) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "kernel '%s': wave size %u is not supported by %s", kname(k),
		               o->wave_size, ti->name);
		return false;
	}
	if (k->code_size % 4 || (k->code_size && !k->code)) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "kernel '%s': code size %zu is not a multiple of 4", kname(k),
		               k->code_size);
		return false;
	}
	if (k->group_segment_size > ti->lds_bytes)
		return fail(d, k, "LDS size", k->group_segment_size, ti->lds_bytes);
	if (k->max_flat_workgroup_size > 1024)
		return fail(d, k, "maximum workgroup size", k->max_flat_workgroup_size, 1024);
	const unsigned *reqd = k->reqd_workgroup_size;
	if (reqd[0] && (uint64_t)reqd[0] * (reqd[1] ? reqd[1] : 1) * (reqd[2] ? reqd[2] : 1) > 1024)
		return fail(d, k, "required workgroup size", reqd[0], 1024);
	if (abi->workitem_id_dims > 3)
		return fail(d, k, "work-item ID dimensions", abi->workitem_id_dims, 3);
	if ((k->private_segment_size || k->uses_dynamic_stack) &&
	    !abi->private_segment_wave_offset) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "kernel '%s': uses scratch but does not enable the private segment",
		               kname(k));
		return false;
	}
	o->max_flat_workgroup_size = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024;
	o->wgp_mode = ti->gen >= AMD_GFX10 && k->workgroup_processor_mode;
	o->group_segment_fixed_size = k->group_segment_size;
	o->private_segment_fixed_size = k->private_segment_size;
	if (!compute_kernarg(cov, k, o, d))
		return false;
	if (!count_user_sgprs(t, k, &o->user_sgprs, &o->kernel_code_properties, d))
		return false;
	if (!compute_registers(t, k, o, d))
		return false;
	compute_rsrc1_modes(t, k, o);

	/* RSRC2: [0] ENABLE_PRIVATE_SEGMENT, [5:1] USER_SGPR_COUNT, [7..9] workgroup
	 * IDs, [10] workgroup info, [12:11] ENABLE_VGPR_WORKITEM_ID = dims - 1.
	 * GRANULATED_LDS_SIZE stays 0: the CP derives it from the dispatch packet (LLVM
	 * leaves it 0 for AMDHSA). */
	uint32_t r2 = (uint32_t)abi->private_segment_wave_offset | o->user_sgprs << 1 |
	              (uint32_t)abi->workgroup_id_x << 7 | (uint32_t)abi->workgroup_id_y << 8 |
	              (uint32_t)abi->workgroup_id_z << 9 | (uint32_t)abi->workgroup_info << 10;
	if (abi->workitem_id_dims > 1)
		r2 |= (uint32_t)(abi->workitem_id_dims - 1) << 11;
	o->compute_pgm_rsrc2 = r2;

	/* RSRC3: gfx90a/gfx940 ACCUM_OFFSET [5:0] and TG_SPLIT [16]; gfx10-11
	 * SHARED_VGPR_COUNT (0); LLVM-19 leaves INST_PREF_SIZE 0 on gfx11/12. */
	if (ti->has_agprs)
		o->compute_pgm_rsrc3 = (o->accum_offset / 4 - 1) | (uint32_t)k->tg_split << 16;

	/* kernel_code_properties: [10] ENABLE_WAVEFRONT_SIZE32 (GFX10+), [11]
	 * USES_DYNAMIC_STACK. */
	if (ti->gen >= AMD_GFX10 && o->wave_size == 32)
		o->kernel_code_properties |= 1u << 10;
	if (k->uses_dynamic_stack)
		o->kernel_code_properties |= 1u << 11;
	return true;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void co_pack_descriptor(const struct co_descriptor *desc, int64_t entry_offset, uint8_t out[64])
{
	memset(out, 0, 64);
	put32(out + 0, desc->group_segment_fixed_size);
	put32(out + 4, desc->private_segment_fixed_size);
	put32(out + 8, desc->kernarg_size);
	put32(out + 16, (uint32_t)(uint64_t)entry_offset);
	put32(out + 20, (uint32_t)((uint64_t)entry_offset >> 32));
	put32(out + 44, desc->compute_pgm_rsrc3);
	put32(out + 48, desc->compute_pgm_rsrc1);
	put32(out + 52, desc->compute_pgm_rsrc2);
	out[56] = (uint8_t)desc->kernel_code_properties;
	out[57] = (uint8_t)(desc->kernel_code_properties >> 8);
}
