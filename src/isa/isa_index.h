/* Internal: the generated table plus its lookup indexes (amd_isa_table.c, made by
 * gen_isa.py); isa.c searches them.  Not part of the public API. */
#ifndef AMD_ISA_INDEX_H
#define AMD_ISA_INDEX_H

#include "amd_isa.h"

struct amd_isa_name_entry {
	const char *name; /* mnemonic on `gen` */
	int gen;
	int row;
};

struct amd_isa_decode_entry {
	int gen;
	int format;
	int opcode;
	int row;
};

struct amd_isa_index {
	const struct amd_isa_op *rows;
	unsigned nrows;
	const struct amd_isa_name_entry *names; /* sorted by (name, gen) */
	unsigned nnames;
	const struct amd_isa_decode_entry *decode; /* sorted by (gen, format, opcode) */
	unsigned ndecode;
};

extern const struct amd_isa_index amd_isa_generated;
/* The matrix rows' facts, sorted by row (generated). */
extern const struct amd_matrix_info amd_isa_matrix_rows[];
extern const unsigned amd_isa_nmatrix;

#endif
