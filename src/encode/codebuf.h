/* A code buffer: machine words appended in order, labels at byte offsets, 16-bit SOPP branch
 * fields patched once their label is known, and relocations for the code object writer.
 * The assembly reader (reader.c) and the compiler's final emission both write through it,
 * so branch-offset arithmetic, its range check and relocation records exist once.
 *
 * Label names and symbols are borrowed (not copied): they must outlive the buffer.  Memory
 * is malloc'd and released by amd_codebuf_free. */
#ifndef AMD_CODEBUF_H
#define AMD_CODEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct amd_cb_label {
	const char *name;
	size_t len;
	size_t offset; /* bytes from the start of the buffer */
	bool is_function;
};

/* Where a reference was written, for the caller's diagnostics. */
struct amd_cb_site {
	unsigned line, col;
	const char *line_text;
	size_t line_len;
};

struct amd_cb_fixup {
	size_t at; /* byte offset of the branch instruction */
	const char *name;
	size_t len;
	struct amd_cb_site site;
};

/* ELF relocation types (R_AMDGPU_*, LLVM AMDGPUUsage "Relocation Records"). */
enum amd_reloc_type {
	AMD_RELOC_ABS64 = 3,
	AMD_RELOC_REL64 = 5,
	AMD_RELOC_REL32_LO = 10, /* (S + A - P) & 0xffffffff: s_add_u32 after s_getpc_b64 */
	AMD_RELOC_REL32_HI = 11, /* (S + A - P) >> 32: its s_addc_u32 */
};

struct amd_cb_reloc {
	size_t offset; /* byte offset of the 32-bit (or 64-bit) field */
	enum amd_reloc_type type;
	const char *symbol;
	size_t symbol_len;
	int64_t addend;
};

struct amd_codebuf {
	uint8_t *bytes;
	size_t size, cap;
	struct amd_cb_label *labels;
	unsigned nlabels, caplabels;
	struct amd_cb_fixup *fixups; /* branches to labels not defined when written */
	unsigned nfixups, capfixups;
	struct amd_cb_reloc *relocs;
	unsigned nrelocs, caprelocs;
};

enum amd_cb_branch {
	AMD_CB_RESOLVED,    /* *field holds the offset */
	AMD_CB_PENDING,     /* label not defined yet: *field is 0, patched by amd_codebuf_resolve */
	AMD_CB_OUT_OF_RANGE /* label more than 32768 dwords away */
};

void amd_codebuf_init(struct amd_codebuf *cb);
void amd_codebuf_free(struct amd_codebuf *cb);

/* Appends n little-endian words / raw bytes. */
void amd_codebuf_emit(struct amd_codebuf *cb, const uint32_t *words, unsigned n);
void amd_codebuf_emit_bytes(struct amd_codebuf *cb, const void *bytes, size_t n);
/* Appends `word` until the size is a multiple of 2^align_log2 bytes. */
void amd_codebuf_pad(struct amd_codebuf *cb, unsigned align_log2, uint32_t word);

/* Defines label `name` at the current size; false (and nothing changes) if it exists. */
bool amd_codebuf_define(struct amd_codebuf *cb, const char *name, size_t len);
/* The label called `name`, NULL if not defined (yet). */
struct amd_cb_label *amd_codebuf_label(const struct amd_codebuf *cb, const char *name, size_t len);

/* The 16-bit SOPP branch field of a branch at byte offset `at` to label `name`: the signed
 * dword distance from the next instruction.  A label not defined yet is recorded (with
 * `site`) and patched into the words at `at` by amd_codebuf_resolve. */
enum amd_cb_branch amd_codebuf_branch(struct amd_codebuf *cb, size_t at, const char *name,
                                      size_t len, const struct amd_cb_site *site, uint32_t *field);

/* Patches every pending branch.  Calls report(ctx, fixup, message) for each label that is
 * still undefined or too far away; returns how many failed. */
typedef void (*amd_cb_report_fn)(void *ctx, const struct amd_cb_fixup *f, const char *msg);
unsigned amd_codebuf_resolve(struct amd_codebuf *cb, amd_cb_report_fn report, void *ctx);

/* Records a relocation of the field at byte `offset` against `symbol` + addend. */
void amd_codebuf_reloc(struct amd_codebuf *cb, size_t offset, enum amd_reloc_type type,
                       const char *symbol, size_t symbol_len, int64_t addend);

#endif
