/* The code object stage: turns encoded kernels into an AMDHSA code object (.hsaco).
 *
 * Input is a struct co_module that the compiler (or the .s reader) fills: the target,
 * kernels with their machine code and resource usage, device functions, .global/.const
 * data and the relocations the code needs.  Output is an ELF file in a co_buffer:
 *   - co_write_executable: an ET_DYN code object laid out as ld.lld-19 lays it out,
 *     with kernel descriptors, the NT_AMDGPU_METADATA msgpack note and .dynsym, ready
 *     for hipModuleLoad;
 *   - co_write_relocatable: an ET_REL object as clang-19 -c writes it, with
 *     R_AMDGPU_* relocations, for linking;
 *   - co_link: links relocatables into an executable through ROCm comgr.
 * Every descriptor field is derived from the input in one place, co_compute_descriptor
 * (descriptor.c), which cites the AMDGPUUsage rule behind each field.  docs/CODEOBJ.md
 * describes the layout and every difference from LLVM's output. */
#ifndef CO_CODEOBJ_H
#define CO_CODEOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "target.h"

enum co_value_kind {
	CO_ARG_BY_VALUE,
	CO_ARG_GLOBAL_BUFFER,          /* a pointer to global memory (PTX .param .u64 ptr) */
	CO_ARG_DYNAMIC_SHARED_POINTER, /* a pointer into dynamically sized LDS */
};

enum co_address_space {
	CO_AS_NONE, /* not a pointer: no .address_space key */
	CO_AS_GLOBAL,
	CO_AS_CONSTANT,
	CO_AS_LOCAL,
	CO_AS_GENERIC,
	CO_AS_PRIVATE,
};

enum co_access {
	CO_ACCESS_DEFAULT, /* no .access key */
	CO_ACCESS_READ_ONLY,
	CO_ACCESS_WRITE_ONLY,
	CO_ACCESS_READ_WRITE,
};

/* One explicit (PTX .param) kernel argument. */
struct co_arg {
	const char *name;      /* PTX parameter name, or NULL */
	const char *type_name; /* e.g. "float*", or NULL */
	uint32_t offset;       /* PTX .param offset; a multiple of align */
	uint32_t size;
	uint32_t align; /* PTX alignment (power of two) */
	enum co_value_kind value_kind;
	enum co_address_space address_space; /* for pointers */
	enum co_access access;
	bool is_const, is_restrict, is_volatile;
};

/* Hidden (implicit) kernel arguments, as a bit set in co_kernel.hidden_args.  On code
 * object v5 they sit at fixed offsets of a 256-byte block that follows the explicit
 * arguments (aligned to 8); on v4 only the global offsets (and hidden_none
 * placeholders) exist, in a 56-byte block. */
enum co_hidden_arg {
	CO_HIDDEN_BLOCK_COUNT_X = 1u << 0, /* v5 */
	CO_HIDDEN_BLOCK_COUNT_Y = 1u << 1,
	CO_HIDDEN_BLOCK_COUNT_Z = 1u << 2,
	CO_HIDDEN_GROUP_SIZE_X = 1u << 3, /* v5 */
	CO_HIDDEN_GROUP_SIZE_Y = 1u << 4,
	CO_HIDDEN_GROUP_SIZE_Z = 1u << 5,
	CO_HIDDEN_REMAINDER_X = 1u << 6, /* v5 */
	CO_HIDDEN_REMAINDER_Y = 1u << 7,
	CO_HIDDEN_REMAINDER_Z = 1u << 8,
	CO_HIDDEN_GLOBAL_OFFSET_X = 1u << 9, /* v4 and v5 */
	CO_HIDDEN_GLOBAL_OFFSET_Y = 1u << 10,
	CO_HIDDEN_GLOBAL_OFFSET_Z = 1u << 11,
	CO_HIDDEN_GRID_DIMS = 1u << 12,         /* v5 */
	CO_HIDDEN_PRINTF_BUFFER = 1u << 13,     /* v5 */
	CO_HIDDEN_HOSTCALL_BUFFER = 1u << 14,   /* v5 */
	CO_HIDDEN_MULTIGRID_SYNC = 1u << 15,    /* v5 */
	CO_HIDDEN_HEAP_V1 = 1u << 16,           /* v5 */
	CO_HIDDEN_DEFAULT_QUEUE = 1u << 17,     /* v5 */
	CO_HIDDEN_COMPLETION_ACTION = 1u << 18, /* v5 */
	CO_HIDDEN_DYNAMIC_LDS_SIZE = 1u << 19,  /* v5 */
	CO_HIDDEN_PRIVATE_BASE = 1u << 20,      /* v5 */
	CO_HIDDEN_SHARED_BASE = 1u << 21,       /* v5 */
	CO_HIDDEN_QUEUE_PTR = 1u << 22,         /* v5 */
	CO_HIDDEN_COUNT = 23,
};
/* What HIP kernels typically read: block counts and group sizes (for blockDim/gridDim). */
#define CO_HIDDEN_HIP_DIMS                                                                         \
	(CO_HIDDEN_BLOCK_COUNT_X | CO_HIDDEN_BLOCK_COUNT_Y | CO_HIDDEN_BLOCK_COUNT_Z |             \
	 CO_HIDDEN_GROUP_SIZE_X | CO_HIDDEN_GROUP_SIZE_Y | CO_HIDDEN_GROUP_SIZE_Z)

/* User SGPRs the code expects (in this order, from s0) and system SGPRs/VGPRs. */
struct co_abi_inputs {
	bool private_segment_buffer; /* 4 SGPRs; only on targets without architected
	                                flat scratch (gfx90a, gfx1030) */
	bool dispatch_ptr;           /* 2 */
	bool queue_ptr;              /* 2 */
	bool kernarg_segment_ptr;    /* 2 */
	bool dispatch_id;            /* 2 */
	bool flat_scratch_init;      /* 2; not on architected flat scratch targets */
	bool private_segment_size;   /* 1 */
	/* 0: the count of the user SGPRs enabled above.  Otherwise the USER_SGPR_COUNT
	 * to write (>= that count): LLVM-19 writes 15 on gfx11 so that the workgroup IDs
	 * land in s15.. ; the code decides, so the caller states it. */
	unsigned user_sgpr_count;
	bool workgroup_id_x, workgroup_id_y, workgroup_id_z, workgroup_info;
	bool private_segment_wave_offset; /* system SGPR / ENABLE_PRIVATE_SEGMENT */
	unsigned workitem_id_dims;        /* 1: X only, 2: X and Y, 3: X, Y and Z */
};

/* Float mode fields of COMPUTE_PGM_RSRC1 (AMDGPUUsage "Floating Point Rounding Mode"
 * and "Floating Point Denorm Mode" tables). */
struct co_float_mode {
	uint8_t round_32, round_16_64;   /* 0 = round to nearest even */
	uint8_t denorm_32, denorm_16_64; /* 3 = no flush (PTX without .ftz) */
	bool ieee_mode, dx10_clamp;      /* ignored on gfx12, which has neither */
};

/* Line information (-lineinfo, docs/CODEOBJ.md): the code from `offset` on (to the next
 * row's offset, or the end of the kernel) came from `line`:`column` of source file `file`
 * (an index into co_line_info.files); line 0: from no source line. */
struct co_line_row {
	uint32_t offset;
	uint32_t file;
	uint32_t line;
	uint32_t column;
};

/* The source files rows name (DWARF 5 file numbers from 0; files[0] is the compilation's
 * primary file), every path split into directory and name in the line table. */
struct co_line_info {
	const char *const *files;
	size_t nfiles;
	const char *producer; /* DW_AT_producer */
};

struct co_kernel {
	const char *name;    /* PTX entry name; the descriptor symbol is NAME.kd */
	const uint8_t *code; /* machine code, entry at offset 0 */
	size_t code_size;    /* bytes, a multiple of 4 */
	unsigned vgpr_count; /* architected VGPRs used (highest + 1) */
	unsigned agpr_count; /* AGPRs used (gfx90a, gfx942) */
	unsigned sgpr_count; /* SGPRs used (highest + 1), without VCC/flat_scratch/xnack */
	/* Extra SGPRs the hardware reserves (gfx9 counts them in the allocation).  The
	 * XNACK mask is reserved anyway when the target's xnack is on or "any", as LLVM
	 * does; only xnack- (or no xnack) frees it. */
	bool uses_vcc, uses_flat_scratch, uses_xnack_mask;
	uint32_t group_segment_size;   /* static LDS bytes */
	uint32_t private_segment_size; /* scratch bytes per work-item */
	bool uses_dynamic_stack;
	uint32_t kernarg_size;  /* 0: derived from the args and hidden args */
	uint32_t kernarg_align; /* 0: derived (max arg align, 8 with hidden args) */
	const struct co_arg *args;
	size_t nargs;
	uint32_t hidden_args; /* enum co_hidden_arg bits */
	struct co_abi_inputs abi;
	unsigned wave_size;               /* 0: the target's wave size */
	unsigned max_flat_workgroup_size; /* from .maxntid/.reqntid; 0: 1024 */
	unsigned reqd_workgroup_size[3];  /* from .reqntid, or all 0 */
	struct co_float_mode float_mode;
	bool uniform_work_group_size;
	bool workgroup_processor_mode; /* gfx10+: WGP_MODE (LLVM's default: true) */
	bool mem_ordered;              /* gfx10+: MEM_ORDERED (LLVM's default: true) */
	bool tg_split;                 /* gfx90a/gfx942 */

	/* Line rows in offset order (written with co_module.line_info). */
	const struct co_line_row *lines;
	size_t nlines;
};

/* A device function (PTX .func) placed in .text after the kernels; called through
 * s_getpc/s_swappc with R_AMDGPU_REL32_LO/HI relocations. */
struct co_function {
	const char *name;
	const uint8_t *code;
	size_t code_size;
	bool is_global;                  /* .visible: a global symbol other objects may call */
	const struct co_line_row *lines; /* line rows, as co_kernel's */
	size_t nlines;
};

enum co_data_space { CO_DATA_GLOBAL, CO_DATA_CONST };

/* A .global (writable, .data/.bss) or .const (read-only, .rodata) variable. */
struct co_data {
	const char *name;
	enum co_data_space space;
	const uint8_t *init; /* NULL: zero-initialised */
	size_t size;
	uint32_t align;
	bool is_global; /* .visible/.extern: in .dynsym so hipModuleGetGlobal finds it */
	bool is_extern; /* declared, defined in another object (relocatable output only) */
};

enum co_reloc_type {
	CO_R_ABS64 = 3,
	CO_R_REL32_LO = 10,
	CO_R_REL32_HI = 11,
	CO_R_REL64 = 5,
};

enum co_section_of { CO_IN_KERNEL, CO_IN_FUNCTION, CO_IN_DATA };

/* A relocation the code or data needs: at byte `offset` of kernel/function/data
 * `index` (per `in`), put the value of `type` for symbol `symbol` + addend.
 * REL32_LO/HI: ((S + A - P) & 0xffffffff) / ((S + A - P) >> 32), P the patched
 * address (the literal after s_add_u32/s_addc_u32 s_getpc; LLVM's addends are
 * +4 and +12).  ABS64: S + A (data only). */
struct co_reloc {
	enum co_section_of in;
	size_t index;
	uint64_t offset;
	enum co_reloc_type type;
	const char *symbol;
	int64_t addend;
};

struct co_module {
	struct amd_target target;
	unsigned code_object_version; /* 4 or 5; 0 means 5 */
	const struct co_kernel *kernels;
	size_t nkernels;
	const struct co_function *functions;
	size_t nfunctions;
	const struct co_data *data;
	size_t ndata;
	const struct co_reloc *relocs;
	size_t nrelocs;
	/* When non-NULL: the note's metadata comes from an .amdgpu_metadata block instead
	 * of the kernel descriptions: msgpack bytes are copied as they are; YAML (text
	 * starting with "---" or "amdhsa.") is converted by co_metadata_from_yaml. */
	const uint8_t *raw_metadata;
	size_t raw_metadata_size;
	/* amdhsa.printf: "id:nargs:size...:format" per printf format (AMDGPUUsage) */
	const char *const *printfs;
	size_t nprintfs;
	/* Non-NULL: the executable gets DWARF 5 .debug_abbrev/.debug_info/.debug_line from
	 * the kernels' line rows (dwarf.c); NULL: no .debug_* section at all. */
	const struct co_line_info *line_info;
};

/* An output file, malloc-owned (pa_xmalloc); free with co_buffer_free. */
struct co_buffer {
	uint8_t *data;
	size_t size;
};
void co_buffer_free(struct co_buffer *b);

/* The 64-byte kernel descriptor (AMDGPUUsage "Kernel Descriptor"), without the entry
 * offset, which depends on the layout. */
struct co_descriptor {
	uint32_t group_segment_fixed_size;
	uint32_t private_segment_fixed_size;
	uint32_t kernarg_size;
	uint32_t compute_pgm_rsrc3;
	uint32_t compute_pgm_rsrc1;
	uint32_t compute_pgm_rsrc2;
	uint16_t kernel_code_properties;
	/* Derived numbers the metadata and the -v line report: */
	unsigned wave_size;
	unsigned sgpr_count; /* including VCC, flat_scratch, xnack mask */
	unsigned vgpr_count; /* architected VGPRs (+ AGPRs, gfx90a layout) */
	unsigned agpr_count;
	unsigned accum_offset; /* gfx90a/gfx942: first AGPR in the unified file */
	uint32_t kernarg_align;
	unsigned explicit_kernarg_end;
	unsigned user_sgprs;
	unsigned max_flat_workgroup_size; /* 1024 when the kernel gives none */
	bool wgp_mode;                    /* gfx10+: workgroups span a WGP (4 SIMDs) */
};

/* Clears *k and sets the defaults LLVM and PTX agree on: no denormal flushing (PTX
 * without .ftz: denorm modes 3/3), round to nearest even, IEEE mode and DX10 clamp on,
 * WGP mode and MEM_ORDERED on (gfx10+), work-item ID X enabled (always delivered). */
void co_kernel_defaults(struct co_kernel *k);

/* Computes the descriptor of kernel k.  Returns false (with a diagnostic) on input no
 * descriptor can express (too many registers, bad wave size, LDS too large, ...). */
bool co_compute_descriptor(const struct amd_target *t, unsigned code_object_version,
                           const struct co_kernel *k, struct co_descriptor *out, struct pa_diag *d);

/* Packs the 64 descriptor bytes; entry_offset is the kernel entry address minus the
 * descriptor address. */
void co_pack_descriptor(const struct co_descriptor *desc, int64_t entry_offset, uint8_t out[64]);

/* Converts an .amdgpu_metadata block (the YAML LLVM writes) to msgpack; false with a
 * diagnostic on YAML outside that subset. */
bool co_metadata_from_yaml(const char *text, size_t len, struct co_buffer *out, struct pa_diag *d);

/* Builds the NT_AMDGPU_METADATA msgpack map of the module into *out. */
bool co_build_metadata(const struct co_module *m, struct co_buffer *out, struct pa_diag *d);

bool co_write_executable(const struct co_module *m, struct co_buffer *out, struct pa_diag *d);
bool co_write_relocatable(const struct co_module *m, struct co_buffer *out, struct pa_diag *d);

/* Links relocatable code objects into one executable with ROCm comgr
 * (AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE).  Fails with a diagnostic when
 * comgr does not know the target (Debian's comgr 5.2: gfx942, gfx11, gfx12); callers
 * then use co_write_executable on the whole module. */
bool co_link(const struct amd_target *t, const struct co_buffer *objects, size_t nobjects,
             struct co_buffer *out, struct pa_diag *d);
/* True when comgr is installed and knows the target's ISA name (comgr is loaded with
 * dlopen on first use: see comgr_load.h). */
bool co_comgr_supports(const struct amd_target *t);
/* The target an AMDGPU ELF object was built for, from its e_flags (processor, xnack
 * and sramecc settings); false when the buffer is not an AMDGPU ELF64 object or its
 * processor is none of ours.  co_relocatable_processor: the processor of an AMDGPU
 * relocatable (ET_REL) object, or NULL when the buffer is not one. */
bool co_object_target(const struct co_buffer *obj, struct amd_target *out);
const struct amd_target_info *co_relocatable_processor(const struct co_buffer *obj);
/* Merges the NT_AMDGPU_METADATA notes of a linked executable into one listing every
 * kernel, in place (co_link does it after comgr's link). */
bool co_merge_metadata_notes(struct co_buffer *exe, struct pa_diag *d);

/* Which path made an executable, for -v. */
enum co_path { CO_PATH_BUILTIN, CO_PATH_COMGR };
const char *co_path_name(enum co_path p);

/* The executable of a module, by the preferred path: with prefer_comgr and a target
 * comgr knows, co_write_relocatable + co_link; otherwise (or when comgr does not know
 * the target) co_write_executable.  *path says which one made *out. */
bool co_emit_executable(const struct co_module *m, bool prefer_comgr, struct co_buffer *out,
                        enum co_path *path, struct pa_diag *d);

/* Waves per SIMD the kernel can keep resident, from the target's register files,
 * allocation granules and LDS (1..max waves). */
unsigned co_occupancy(const struct amd_target *t, const struct co_descriptor *desc);

/* Writes the ptxas-style -v line:
 * "ptxas-amd info    : Function properties for vadd: 12 VGPRs, 18 SGPRs, 0 bytes LDS,
 *  0 bytes scratch, occupancy 8 waves/SIMD" (no newline). */
void co_kernel_stats_line(const struct amd_target *t, const struct co_kernel *k,
                          const struct co_descriptor *desc, char *buf, size_t len);

struct amd_asm_module;
struct pa_arena;
/* The kernels of an assembled .s file (amd_asm_read) as a module for the writers: the
 * .amdhsa_kernel fields become descriptor inputs (absent fields take LLVM's directive
 * defaults), an .amdgpu_metadata block becomes raw_metadata.  Fields the writer cannot
 * express are errors.  Memory comes from `arena`; `file` names the input in messages. */
bool co_module_from_asm(const struct amd_target *t, const struct amd_asm_module *am,
                        const char *file, struct pa_arena *arena, struct co_module *out,
                        struct pa_diag *d);

#endif
