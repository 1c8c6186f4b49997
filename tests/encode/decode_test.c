/* amd_isa_decode finds every row by the opcodes the row itself states: for each row and
 * generation, (native format, opcode) and, for VALU rows, (VOP3, vop3_opcode) must decode
 * to a row with that same format and opcode.  (That the opcodes themselves are right is
 * the conformance test's business, against llvm-mc-19.) */
#include <stdio.h>

#include "amd_isa.h"

static unsigned check(const struct amd_isa_op *rows, unsigned i, enum amd_gen g,
                      enum amd_format fmt, int opcode, int is_vop3)
{
	int r = amd_isa_decode(g, fmt, (unsigned)opcode);
	int got = r < 0 ? -1 : is_vop3 ? rows[r].vop3_opcode[g] : rows[r].opcode[g];
	if (r >= 0 && got == opcode && (is_vop3 || rows[r].format == rows[i].format))
		return 0;
	printf("FAIL %s gen %d: %s opcode %d decodes to %s\n", rows[i].name, (int)g,
	       amd_format_name(fmt), opcode, r < 0 ? "nothing" : rows[r].name);
	return 1;
}

int main(void)
{
	unsigned n, failures = 0, checked = 0;
	const struct amd_isa_op *rows = amd_isa_table(&n);
	for (unsigned i = 0; i < n; i++)
		for (int g = 0; g < AMD_NUM_GENS; g++) {
			if (rows[i].opcode[g] >= 0 && rows[i].format != AMD_FMT_VOPD) {
				failures += check(rows, i, (enum amd_gen)g,
				                  (enum amd_format)rows[i].format,
				                  rows[i].opcode[g], 0);
				checked++;
			}
			if (rows[i].vop3_opcode[g] >= 0) {
				failures += check(rows, i, (enum amd_gen)g, AMD_FMT_VOP3,
				                  rows[i].vop3_opcode[g], 1);
				checked++;
			}
		}
	printf("decode: %u (row, generation, encoding) lookups, %u failures\n", checked, failures);
	return failures != 0 || checked == 0;
}
