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
	AMD_GFX9,  /* gfx90a (CDNA2) */
	AMD_GFX940, /* gfx942 (CDNA3): gfx9 encodings, own opcodes and cache bits */
	AMD_GFX10, /* gfx1030 (RDNA2) */
	AMD_GFX11, /* gfx1100 (RDNA3) */
	AMD_GFX12, /* gfx1200 (RDNA4) */
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
	const char *name;          /* "gfx90a" */
	enum amd_gen gen;
	unsigned major, minor, stepping; /* 9.0.10 for gfx90a */
	uint32_t elf_mach;         /* EF_AMDGPU_MACH_* value */
	bool has_xnack, has_sramecc;
	unsigned default_wave_size; /* 64 on CDNA, 32 on RDNA */
	bool supports_wave32, supports_wave64;
	unsigned addressable_sgprs; /* SGPRs a kernel may name (102 gfx9, 106 gfx10+) */
	unsigned addressable_vgprs; /* architected VGPRs per lane (256 / 512 with AGPRs) */
	bool has_agprs;            /* accumulation VGPRs (gfx90a, gfx942) */
	bool architected_flat_scratch;
	unsigned const_bus_limit;  /* scalar values a VALU instruction may read */
	unsigned lds_bytes;        /* LDS per workgroup */
	unsigned lds_granule;      /* bytes per GRANULATED_LDS_SIZE unit */
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
