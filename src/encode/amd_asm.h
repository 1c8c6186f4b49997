/* The AMDGPU assembly reader: LLVM's AMDGPU assembly syntax (what amd_print and
 * llvm-objdump-19 write) back into instructions and kernels.
 *
 * amd_asm_parse_inst reads one instruction; amd_asm_read reads a whole file with labels and
 * the kernel directives (.amdgcn_target, .text, .globl, .p2align, .type, .rodata/.section,
 * .amdhsa_kernel NAME ... .end_amdhsa_kernel with .amdhsa_* fields) into per-kernel code
 * bytes and descriptor fields for the code object writer.  Errors are reported as
 * file:line:col diagnostics; an unknown mnemonic or an operand that cannot be encoded is an
 * error. */
#ifndef AMD_ASM_H
#define AMD_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "amd_encode.h"
#include "arena.h"
#include "diag.h"

/* Parses one instruction (no label, no comment) into *out.  A branch target must be a
 * number here (amd_asm_read resolves label names), and relocation expressions are
 * only read by amd_asm_read.  On failure writes a reason into err
 * and the 1-based column of the offending text into *err_col, and returns false. */
bool amd_asm_parse_inst(const struct amd_target *t, const char *text, size_t len,
                        struct amd_inst *out, char *err, size_t errlen, unsigned *err_col);

/* ELF relocation types of AMDGPU code (AMDGPUUsage "Relocation Records"). */
enum amd_reloc_type {
	AMD_R_ABS32_LO = 1,
	AMD_R_ABS32_HI = 2,
	AMD_R_ABS64 = 3,
	AMD_R_REL32 = 4,
	AMD_R_REL64 = 5,
	AMD_R_ABS32 = 6,
	AMD_R_GOTPCREL = 7,
	AMD_R_GOTPCREL32_LO = 8,
	AMD_R_GOTPCREL32_HI = 9,
	AMD_R_REL32_LO = 10,
	AMD_R_REL32_HI = 11,
};

/* An operand written as a relocation expression (sym@rel32@lo+4, sym@rel32@hi+12,
 * sym@gotpcrel32@lo/hi, sym@abs32@lo/hi): the instruction's literal dword at `offset`
 * of .text is 0 and must be patched with `type`'s value for symbol + addend. */
struct amd_asm_reloc {
	size_t offset;
	enum amd_reloc_type type;
	const char *symbol;
	int64_t addend;
	unsigned line;
};

/* A device function (a non-kernel `.type NAME,@function` label in .text) or a variable
 * (a label in .data, .bss or .rodata, or .comm) the file defines. */
enum amd_asm_symbol_kind { AMD_ASM_FUNCTION, AMD_ASM_DATA, AMD_ASM_BSS, AMD_ASM_RODATA };
struct amd_asm_symbol {
	const char *name;
	enum amd_asm_symbol_kind kind;
	size_t offset, size; /* in .text, amd_asm_module.data/.rodata or the .bss */
	uint32_t align;      /* variables: from the .p2align before the label (or .comm) */
	bool is_global;      /* named by .globl */
	bool is_hidden;      /* named by .hidden */
};

struct amd_asm_field {
	const char *name; /* "amdhsa_next_free_vgpr" (without the leading dot) */
	int64_t value;
	unsigned line;
};

struct amd_asm_kernel {
	const char *name;
	const uint8_t *code; /* points into amd_asm_module.text */
	size_t code_offset, code_size;
	struct amd_asm_field *fields; /* the .amdhsa_* fields, in source order */
	unsigned nfields;
};

struct amd_asm_module {
	const char *target_id;        /* from .amdgcn_target, NULL if absent */
	unsigned code_object_version; /* .amdhsa_code_object_version, 0 if absent */
	uint8_t *text;                /* the whole .text section */
	size_t text_size;
	uint8_t *rodata; /* data directives (.long ...) of .rodata, e.g. clang's
	                  * __oclc_ABI_version; the kernel descriptors are not here */
	size_t rodata_size;
	struct amd_asm_kernel *kernels;
	unsigned nkernels;
	struct amd_asm_reloc *relocs; /* in .text order */
	unsigned nrelocs;
	uint8_t *data; /* the .data section (initialised variables) */
	size_t data_size, bss_size;
	struct amd_asm_symbol *symbols; /* functions, then variables, in source order */
	unsigned nsymbols;
	/* The text between .amdgpu_metadata and .end_amdgpu_metadata (LLVM's YAML), or
	 * NULL: the code object writer honors it instead of deriving metadata. */
	const char *metadata;
	size_t metadata_len;
};

/* Reads assembly `text` (len bytes, named `file` in diagnostics) for target t.  Output
 * memory comes from `arena`.  Returns false if any error was reported to diag. */
bool amd_asm_read(const struct amd_target *t, const char *file, const char *text, size_t len,
                  struct pa_arena *arena, struct pa_diag *diag, struct amd_asm_module *out);

/* The value of field `name` (without the dot) of kernel k, or `dflt` if absent. */
int64_t amd_asm_field(const struct amd_asm_kernel *k, const char *name, int64_t dflt);

#endif
