/* Target descriptions: everything that differs between the AMD GPUs ptxas-amd
 * compiles for, as runtime data (never #if GFX).  One row per processor in
 * target.c; the instruction table keys its per-generation opcode columns on
 * `enum amd_gen`.
 *
 * A target ID is written as LLVM writes it: a processor name followed by optional
 * feature settings, e.g. "gfx90a:sramecc+:xnack-". */
#ifndef AMD_TARGET_H
#define AMD_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ISA generations, each with its own opcode column in the instruction table. */
enum amd_gen {
	AMD_GFX9,   /* gfx90a (CDNA2) */
	AMD_GFX940, /* gfx942 (CDNA3): gfx9 encodings, own opcodes and cache bits */
	AMD_GFX10,  /* gfx1030 (RDNA2) */
	AMD_GFX11,  /* gfx1100 (RDNA3) */
	AMD_GFX12,  /* gfx1200 (RDNA4) */
	AMD_NUM_GENS
};

/* Setting of an optional target feature (xnack, sramecc). */
enum amd_feature_setting {
	AMD_FEATURE_UNSUPPORTED, /* the processor does not have the feature */
	AMD_FEATURE_ANY,         /* not specified: code works either way */
	AMD_FEATURE_OFF,
	AMD_FEATURE_ON,
};

struct amd_target_info {
	const char *name; /* "gfx90a" */
	enum amd_gen gen;
	unsigned major, minor, stepping; /* 9.0.10 for gfx90a */
	uint32_t elf_mach;               /* EF_AMDGPU_MACH_* value */
	bool has_xnack, has_sramecc;
	unsigned default_wave_size; /* 64 on CDNA, 32 on RDNA */
	bool supports_wave32, supports_wave64;
	unsigned addressable_sgprs; /* SGPRs a kernel may name (102 gfx9, 106 gfx10+) */
	unsigned addressable_vgprs; /* architected VGPRs per lane (256 / 512 with AGPRs) */
	bool has_agprs;             /* accumulation VGPRs (gfx90a, gfx942) */
	bool architected_flat_scratch;
	unsigned const_bus_limit; /* scalar values a VALU instruction may read */
	unsigned lds_bytes;       /* LDS per workgroup */
	unsigned lds_granule;     /* bytes per GRANULATED_LDS_SIZE unit */
	/* Register allocation (LLVM AMDGPUBaseInfo getVGPRAllocGranule & co.): granules in
	 * registers; the descriptor's GRANULATED_*_COUNT uses the encoding granule. */
	unsigned vgpr_alloc_granule_w64, vgpr_alloc_granule_w32;
	unsigned vgpr_encode_granule_w64, vgpr_encode_granule_w32;
	unsigned sgpr_alloc_granule, sgpr_encode_granule; /* 0: SGPRs are not allocated (gfx10+) */
	unsigned total_vgprs_w64, total_vgprs_w32;        /* physical VGPRs per SIMD lane budget */
	/* Which encodings exist (bit per enum amd_format) and which variants. */
	uint32_t formats;
	bool has_dpp8, has_vopd, has_sdwa, has_vop3_literal;
	bool has_delay_alu, has_split_waits; /* s_delay_alu (gfx11+); s_wait_*cnt (gfx12) */
	/* s_waitcnt simm16 layout (gfx12: unused, each counter has its own s_wait_*). */
	struct {
		uint8_t vm_lo_shift, vm_lo_width, vm_hi_shift, vm_hi_width;
		uint8_t exp_shift, exp_width, lgkm_shift, lgkm_width;
	} waitcnt;
	bool has_vscnt; /* stores counted separately (s_waitcnt_vscnt on gfx10/11) */
	unsigned max_loadcnt, max_storecnt, max_dscnt, max_kmcnt, max_expcnt; /* counter maxima */
	/* Code-end padding after the last function (AMDGPUTargetStreamer::EmitCodeEnd): align to
	 * 2^code_end_align_log2 bytes and append code_end_words copies of code_end_word. */
	uint32_t code_end_word;
	unsigned code_end_align_log2, code_end_words;
};

struct amd_target {
	const struct amd_target_info *info;
	enum amd_feature_setting xnack, sramecc;
	unsigned wave_size; /* 32 or 64 */
};

/* Parses a target ID ("gfx90a:xnack-:sramecc+") into *out.  On failure writes a
 * one-line reason (no trailing newline) into err and returns false. */
bool amd_target_parse(const char *id, struct amd_target *out, char *err, size_t errlen);

/* The known processors, for listing in --help and error messages. */
const struct amd_target_info *amd_target_infos(size_t *count);

/* Canonical target ID as LLVM prints it in .amdgcn_target / amdhsa.target:
 * "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" (features only when not "any"). */
void amd_target_id_string(const struct amd_target *t, char *buf, size_t len);

#endif
