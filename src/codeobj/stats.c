/* Occupancy and the ptxas-style -v line.
 *
 * Algorithm: waves per SIMD = min(the target's wave slots, VGPR file / VGPRs per wave
 * rounded to the allocation granule, SGPR file / SGPRs per wave on gfx9, LDS).  The
 * register numbers are LLVM's (AMDGPUBaseInfo getTotalNumVGPRs/getVGPRAllocGranule,
 * and ROCt's per-CU VGPR sizes): gfx90a/gfx940 512 VGPRs per lane, granule 8, 8
 * waves; gfx10.3 1024 (wave32) in granules of 16; gfx11/gfx12 1536 in granules of
 * 24; 16 waves on gfx10+; gfx9 SGPRs: 800 in granules of 16.  The LDS limit is the
 * one of LLVM-19 (lds_waves).  tests/codeobj compares with the "; Occupancy:"
 * clang-19 prints, for LDS sizes and workgroup sizes that hit every term.
 * requires: co_compute_descriptor; breaks: nothing.  Complexity: O(1). */
#include "codeobj.h"

#include <stdio.h>

static unsigned align_up(unsigned v, unsigned a)
{
	return (v + a - 1) / a * a;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* LLVM-19's getOccupancyWithLocalMemSize: workgroups that fit in the LDS of a CU
 * (64 KiB; 128 KiB for a gfx10+ WGP), capped by the workgroup slots (wave slots /
 * waves per workgroup, and 16 barriers, 32 in WGP mode), times the waves of a
 * largest workgroup, spread over the SIMDs of the CU (4; 2 in gfx10+ CU mode). */
static unsigned lds_waves(const struct amd_target *t, const struct co_descriptor *desc,
                          unsigned max_waves)
{
	bool gfx10_cu_mode = t->info->gen >= AMD_GFX10 && !desc->wgp_mode;
	unsigned simds = gfx10_cu_mode ? 2 : 4;
	unsigned lds = desc->wgp_mode ? 2 * t->info->lds_bytes : t->info->lds_bytes;
	unsigned groups = lds / desc->group_segment_fixed_size;
	if (!groups)
		return 1;
	unsigned wg_waves = (desc->max_flat_workgroup_size + desc->wave_size - 1) / desc->wave_size;
	unsigned slots = max_waves * simds;
	unsigned max_groups =
	        wg_waves <= 1 ? slots : min_u(slots / wg_waves, desc->wgp_mode ? 32 : 16);
	unsigned waves = (min_u(groups, max_groups) * wg_waves + simds - 1) / simds;
	return min_u(waves, max_waves);
}

unsigned co_occupancy(const struct amd_target *t, const struct co_descriptor *desc)
{
	const struct amd_target_info *ti = t->info;
	bool gfx9 = ti->gen <= AMD_GFX940;
	unsigned max_waves = gfx9 ? 8 : 16;
	unsigned total_vgprs, granule;
	if (ti->has_agprs) {
		total_vgprs = 512;
		granule = 8;
	} else if (ti->gen >= AMD_GFX11) {
		total_vgprs = 1536;
		granule = 24;
	} else {
		total_vgprs = 1024;
		granule = 16;
	}
	if (desc->wave_size == 64 && !ti->has_agprs) {
		total_vgprs /= 2;
		granule /= 2;
	}
	unsigned v = desc->vgpr_count ? desc->vgpr_count : 1;
	unsigned waves = min_u(max_waves, total_vgprs / align_up(v, granule));
	if (gfx9) {
		unsigned s = desc->sgpr_count ? desc->sgpr_count : 1;
		waves = min_u(waves, 800 / align_up(s, 16));
	}
	if (desc->group_segment_fixed_size)
		waves = min_u(waves, lds_waves(t, desc, max_waves));
	return waves ? waves : 1;
}

void co_kernel_stats_line(const struct amd_target *t, const struct co_kernel *k,
                          const struct co_descriptor *desc, char *buf, size_t len)
{
	snprintf(buf, len,
	         "ptxas-amd info    : Function properties for %s: %u VGPRs, %u SGPRs, %u bytes "
	         "LDS, %u bytes scratch, occupancy %u waves/SIMD",
	         k->name, desc->vgpr_count, desc->sgpr_count, desc->group_segment_fixed_size,
	         desc->private_segment_fixed_size, co_occupancy(t, desc));
}
