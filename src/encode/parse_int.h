/* Internal to src/encode: the instruction parser with a label resolver, shared by
 * parse_inst.c (amd_asm_parse_inst) and reader.c (amd_asm_read). */
#ifndef AMD_PARSE_INT_H
#define AMD_PARSE_INT_H

#include "amd_asm.h"

/* Resolves a branch-target label at dword position `pc` (the branch's own offset in
 * dwords) into the 16-bit offset field value; false if the label is unknown. */
typedef bool (*amd_label_fn)(void *ctx, const char *name, size_t n, uint32_t *field);

/* A relocation expression read in an operand: the operand becomes the literal
 * AMD_RELOC_PLACEHOLDER (never an inline constant, so the encoder emits it as the
 * instruction's last dword), which the reader replaces by 0 and a relocation. */
struct amd_parsed_reloc {
	bool present;
	const char *symbol;
	size_t symbol_len;
	enum amd_reloc_type type;
	int64_t addend;
	unsigned col; /* 1-based column of the expression */
};
#define AMD_RELOC_PLACEHOLDER 0x5eedf00du

/* reloc: NULL rejects relocation expressions (single-instruction reads). */
bool amd_parse_inst_ex(const struct amd_target *t, const char *text, size_t len,
                       struct amd_inst *out, char *err, size_t errlen, unsigned *err_col,
                       amd_label_fn label_fn, void *label_ctx, struct amd_parsed_reloc *reloc);

#endif
