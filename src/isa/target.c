/* The processor table and target ID parsing.  Values come from LLVM's
 * AMDGPUUsage processor table and ELF.h (see shared/reference/elf_eflags.txt). */
#include "amd_isa.h"
#include "target.h"

#include <stdio.h>
#include <string.h>

/* Formats each family encodes (logical formats: gfx12 memory uses its 96-bit forms). */
#define FORMATS_COMMON                                                                             \
	(1u << AMD_FMT_SOP1 | 1u << AMD_FMT_SOP2 | 1u << AMD_FMT_SOPK | 1u << AMD_FMT_SOPC |       \
	 1u << AMD_FMT_SOPP | 1u << AMD_FMT_SMEM | 1u << AMD_FMT_VOP1 | 1u << AMD_FMT_VOP2 |       \
	 1u << AMD_FMT_VOPC | 1u << AMD_FMT_VOP3 | 1u << AMD_FMT_VOP3P | 1u << AMD_FMT_DS |        \
	 1u << AMD_FMT_FLAT | 1u << AMD_FMT_GLOBAL | 1u << AMD_FMT_SCRATCH | 1u << AMD_FMT_MUBUF)
#define FORMATS_GFX9 (FORMATS_COMMON | 1u << AMD_FMT_MIMG) /* gfx942's rows have no opcode */
#define FORMATS_RDNA (FORMATS_COMMON | 1u << AMD_FMT_MIMG)

/* Granules: LLVM AMDGPUBaseInfo (getVGPRAllocGranule: gfx90a 8; gfx10.3 16/8 by wave size;
 * gfx11 parts with the large VGPR file 24/12; encoding granule 8 (gfx90a) or 8/4).  Code-end
 * padding and waitcnt layouts: see shared/reference/waitcnt.txt and clang-19 -S output. */
static const struct amd_target_info targets[] = {
        {.name = "gfx90a",
         .gen = AMD_GFX9,
         .major = 9,
         .minor = 0,
         .stepping = 10,
         .elf_mach = 0x03f,
         .has_xnack = true,
         .has_sramecc = true,
         .default_wave_size = 64,
         .supports_wave64 = true,
         .addressable_sgprs = 102,
         .addressable_vgprs = 512,
         .has_agprs = true,
         .const_bus_limit = 1,
         .lds_bytes = 65536,
         .lds_granule = 512,
         .vgpr_alloc_granule_w64 = 8,
         .vgpr_alloc_granule_w32 = 8,
         .vgpr_encode_granule_w64 = 8,
         .vgpr_encode_granule_w32 = 8,
         .sgpr_alloc_granule = 16,
         .sgpr_encode_granule = 8,
         .total_vgprs_w64 = 512,
         .total_vgprs_w32 = 512,
         .formats = FORMATS_GFX9,
         .has_sdwa = true,
         .waitcnt = {0, 4, 14, 2, 4, 3, 8, 4},
         .max_loadcnt = 63,
         .max_storecnt = 63,
         .max_dscnt = 15,
         .max_kmcnt = 15,
         .max_expcnt = 7,
         .code_end_word = 0xbf800000,
         .code_end_align_log2 = 6,
         .code_end_words = 256},
        {.name = "gfx942",
         .gen = AMD_GFX940,
         .major = 9,
         .minor = 4,
         .stepping = 2,
         .elf_mach = 0x04c,
         .has_xnack = true,
         .has_sramecc = true,
         .default_wave_size = 64,
         .supports_wave64 = true,
         .addressable_sgprs = 102,
         .addressable_vgprs = 512,
         .has_agprs = true,
         .architected_flat_scratch = true,
         .const_bus_limit = 1,
         .lds_bytes = 65536,
         .lds_granule = 512,
         .vgpr_alloc_granule_w64 = 8,
         .vgpr_alloc_granule_w32 = 8,
         .vgpr_encode_granule_w64 = 8,
         .vgpr_encode_granule_w32 = 8,
         .sgpr_alloc_granule = 16,
         .sgpr_encode_granule = 8,
         .total_vgprs_w64 = 512,
         .total_vgprs_w32 = 512,
         .formats = FORMATS_GFX9,
         .has_sdwa = true,
         .waitcnt = {0, 4, 14, 2, 4, 3, 8, 4},
         .max_loadcnt = 63,
         .max_storecnt = 63,
         .max_dscnt = 15,
         .max_kmcnt = 15,
         .max_expcnt = 7,
         .code_end_word = 0xbf800000,
         .code_end_align_log2 = 6,
         .code_end_words = 256},
        {.name = "gfx1030",
         .gen = AMD_GFX10,
         .major = 10,
         .minor = 3,
         .stepping = 0,
         .elf_mach = 0x036,
         .default_wave_size = 32,
         .supports_wave32 = true,
         .supports_wave64 = true,
         .addressable_sgprs = 106,
         .addressable_vgprs = 256,
         .const_bus_limit = 2,
         .lds_bytes = 65536,
         .lds_granule = 512,
         .vgpr_alloc_granule_w64 = 8,
         .vgpr_alloc_granule_w32 = 16,
         .vgpr_encode_granule_w64 = 4,
         .vgpr_encode_granule_w32 = 8,
         .total_vgprs_w64 = 512,
         .total_vgprs_w32 = 1024,
         .formats = FORMATS_RDNA,
         .has_dpp8 = true,
         .has_sdwa = true,
         .has_vop3_literal = true,
         .waitcnt = {0, 4, 14, 2, 4, 3, 8, 6},
         .has_vscnt = true,
         .max_loadcnt = 63,
         .max_storecnt = 63,
         .max_dscnt = 63,
         .max_kmcnt = 63,
         .max_expcnt = 7,
         .code_end_word = 0xbf9f0000,
         .code_end_align_log2 = 6,
         .code_end_words = 48},
        {.name = "gfx1100",
         .gen = AMD_GFX11,
         .major = 11,
         .minor = 0,
         .stepping = 0,
         .elf_mach = 0x041,
         .default_wave_size = 32,
         .supports_wave32 = true,
         .supports_wave64 = true,
         .addressable_sgprs = 106,
         .addressable_vgprs = 256,
         .architected_flat_scratch = true,
         .const_bus_limit = 2,
         .lds_bytes = 65536,
         .lds_granule = 512,
         .vgpr_alloc_granule_w64 = 12,
         .vgpr_alloc_granule_w32 = 24,
         .vgpr_encode_granule_w64 = 4,
         .vgpr_encode_granule_w32 = 8,
         .total_vgprs_w64 = 768,
         .total_vgprs_w32 = 1536,
         .formats = FORMATS_RDNA | 1u << AMD_FMT_VOPD,
         .has_dpp8 = true,
         .has_vopd = true,
         .has_vop3_literal = true,
         .has_delay_alu = true,
         .waitcnt = {10, 6, 0, 0, 0, 3, 4, 6},
         .has_vscnt = true,
         .max_loadcnt = 63,
         .max_storecnt = 63,
         .max_dscnt = 63,
         .max_kmcnt = 63,
         .max_expcnt = 7,
         .code_end_word = 0xbf9f0000,
         .code_end_align_log2 = 7,
         .code_end_words = 96},
        {.name = "gfx1200",
         .gen = AMD_GFX12,
         .major = 12,
         .minor = 0,
         .stepping = 0,
         .elf_mach = 0x048,
         .default_wave_size = 32,
         .supports_wave32 = true,
         .supports_wave64 = true,
         .addressable_sgprs = 106,
         .addressable_vgprs = 256,
         .architected_flat_scratch = true,
         .const_bus_limit = 2,
         .lds_bytes = 65536,
         .lds_granule = 512,
         .vgpr_alloc_granule_w64 = 8,
         .vgpr_alloc_granule_w32 = 16,
         .vgpr_encode_granule_w64 = 4,
         .vgpr_encode_granule_w32 = 8,
         .total_vgprs_w64 = 512,
         .total_vgprs_w32 = 1024,
         .formats = FORMATS_RDNA | 1u << AMD_FMT_VOPD,
         .has_dpp8 = true,
         .has_vopd = true,
         .has_vop3_literal = true,
         .has_delay_alu = true,
         .has_split_waits = true,
         .max_loadcnt = 63,
         .max_storecnt = 63,
         .max_dscnt = 63,
         .max_kmcnt = 31,
         .max_expcnt = 7,
         .code_end_word = 0xbf9f0000,
         .code_end_align_log2 = 7,
         .code_end_words = 96},
};

const struct amd_target_info *amd_target_infos(size_t *count)
{
	*count = sizeof targets / sizeof targets[0];
	return targets;
}

static void list_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
		                         targets[i].name);
}

/* Applies one ":feature+" / ":feature-" suffix. */
static bool parse_feature(const char *f, size_t n, struct amd_target *t, char *err, size_t errlen)
{
	if (n < 2 || (f[n - 1] != '+' && f[n - 1] != '-')) {
		snprintf(err, errlen,
		         "malformed target feature '%.*s' (expected e.g. 'xnack+' or 'sramecc-')",
		         (int)n, f);
		return false;
	}
	enum amd_feature_setting v = f[n - 1] == '+' ? AMD_FEATURE_ON : AMD_FEATURE_OFF;
	size_t name_len = n - 1;
	enum amd_feature_setting *slot;
	bool supported;
	if (name_len == 5 && !memcmp(f, "xnack", 5)) {
		slot = &t->xnack;
		supported = t->info->has_xnack;
	} else if (name_len == 7 && !memcmp(f, "sramecc", 7)) {
		slot = &t->sramecc;
		supported = t->info->has_sramecc;
	} else {
		snprintf(err, errlen, "unknown target feature '%.*s' (known: xnack, sramecc)",
		         (int)name_len, f);
		return false;
	}
	if (!supported) {
		snprintf(err, errlen, "target feature '%.*s' is not supported by %s", (int)name_len,
		         f, t->info->name);
		return false;
	}
	if (*slot != AMD_FEATURE_ANY) {
		snprintf(err, errlen, "target feature '%.*s' given twice", (int)name_len, f);
		return false;
	}
	*slot = v;
	return true;
}

bool amd_target_parse(const char *id, struct amd_target *out, char *err, size_t errlen)
{
	size_t name_len = strcspn(id, ":");
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strlen(targets[i].name) == name_len && !memcmp(targets[i].name, id, name_len))
			out->info = &targets[i];
	if (!out->info) {
		char names[128];
		list_names(names, sizeof names);
		snprintf(err, errlen, "unknown GPU name '%.*s' (valid: %s)", (int)name_len, id,
		         names);
		return false;
	}
	out->xnack = out->info->has_xnack ? AMD_FEATURE_ANY : AMD_FEATURE_UNSUPPORTED;
	out->sramecc = out->info->has_sramecc ? AMD_FEATURE_ANY : AMD_FEATURE_UNSUPPORTED;
	out->wave_size = out->info->default_wave_size;
	const char *p = id + name_len;
	while (*p == ':') {
		p++;
		size_t n = strcspn(p, ":");
		if (!parse_feature(p, n, out, err, errlen))
			return false;
		p += n;
	}
	return true;
}

void amd_target_id_string(const struct amd_target *t, char *buf, size_t len)
{
	/* LLVM orders features alphabetically: sramecc before xnack. */
	snprintf(buf, len, "amdgcn-amd-amdhsa--%s%s%s", t->info->name,
	         t->sramecc == AMD_FEATURE_ON    ? ":sramecc+"
	         : t->sramecc == AMD_FEATURE_OFF ? ":sramecc-"
	                                         : "",
	         t->xnack == AMD_FEATURE_ON    ? ":xnack+"
	         : t->xnack == AMD_FEATURE_OFF ? ":xnack-"
	                                       : "");
}
