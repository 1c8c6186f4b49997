/* Encoder and printer of single AMDGPU instructions (the public face of src/encode; the
 * table, the targets and struct amd_inst belong to the isa stage, isa/isa.h).
 *
 * An instruction is a table row plus operand values in the row's operand order
 * (struct amd_isa_op.opnds), plus modifiers.  amd_encode() turns it into machine words for
 * one target, choosing inline constants and appending a literal where the format allows;
 * anything the hardware cannot encode is an error with a message, never silent bytes.
 * amd_print() spells it in LLVM's AMDGPU assembly syntax exactly as llvm-mc-19 prints it. */
#ifndef AMD_ENCODE_H
#define AMD_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "amd_inst.h"

/* Encodes `in` for target `t` into out[] (up to 4 dwords).  Returns the number of dwords, or
 * 0 after writing a one-line reason into err. */
unsigned amd_encode(const struct amd_target *t, const struct amd_inst *in, uint32_t out[4],
                    char *err, size_t errlen);

/* Prints `in` as llvm-mc-19 would (no leading tab, no newline) into buf; returns the length
 * (like snprintf).  Branch targets print as their raw dword offset. */
int amd_print(const struct amd_target *t, const struct amd_inst *in, char *buf, size_t len);

#endif
