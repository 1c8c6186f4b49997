/* Lookups over the generated instruction table (amd_isa.h): by mnemonic with binary search
 * over the sorted name index, and by (generation, format, opcode) with binary search over the
 * decode index.  Both indexes are produced by gen_isa.py; O(log n) per lookup, no state. */
#include <string.h>

#include "amd_isa.h"
#include "isa_index.h"

const struct amd_isa_op *amd_isa_table(unsigned *count)
{
	*count = amd_isa_generated.nrows;
	return amd_isa_generated.rows;
}

const struct amd_matrix_info *amd_isa_matrix(enum amd_opcode op)
{
	unsigned lo = 0, hi = amd_isa_nmatrix;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (amd_isa_matrix_rows[mid].row == (unsigned)op)
			return &amd_isa_matrix_rows[mid];
		if (amd_isa_matrix_rows[mid].row < (unsigned)op)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* First name-index entry whose name is >= `name`. */
static unsigned lower_bound_name(const char *name)
{
	unsigned lo = 0, hi = amd_isa_generated.nnames;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (strcmp(amd_isa_generated.names[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int amd_isa_find_gen(enum amd_gen gen, const char *name)
{
	for (unsigned i = lower_bound_name(name);
	     i < amd_isa_generated.nnames && !strcmp(amd_isa_generated.names[i].name, name); i++)
		if (amd_isa_generated.names[i].gen == (int)gen)
			return amd_isa_generated.names[i].row;
	return -1;
}

int amd_isa_find(const char *name)
{
	unsigned lo = 0, hi = amd_isa_generated.nrows;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = strcmp(amd_isa_generated.rows[mid].name, name);
		if (!c)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	unsigned i = lower_bound_name(name);
	if (i < amd_isa_generated.nnames && !strcmp(amd_isa_generated.names[i].name, name))
		return amd_isa_generated.names[i].row;
	return -1;
}

static int decode_cmp(const struct amd_isa_decode_entry *e, int gen, int format, int opcode)
{
	if (e->gen != gen)
		return e->gen < gen ? -1 : 1;
	if (e->format != format)
		return e->format < format ? -1 : 1;
	if (e->opcode != opcode)
		return e->opcode < opcode ? -1 : 1;
	return 0;
}

int amd_isa_decode(enum amd_gen gen, enum amd_format format, unsigned opcode)
{
	unsigned lo = 0, hi = amd_isa_generated.ndecode;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = decode_cmp(&amd_isa_generated.decode[mid], (int)gen, (int)format,
		                   (int)opcode);
		if (!c)
			return amd_isa_generated.decode[mid].row;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const char *amd_format_name(enum amd_format f)
{
	static const char *const names[AMD_NUM_FORMATS] = {
	        "SOP1", "SOP2",  "SOPK", "SOPC", "SOPP",   "SMEM",    "VOP1",  "VOP2", "VOPC",
	        "VOP3", "VOP3P", "DS",   "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "VOPD", "MIMG"};
	return (unsigned)f < AMD_NUM_FORMATS ? names[f] : "?";
}

const char *amd_unit_name(enum amd_unit u)
{
	static const char *const names[AMD_NUM_UNITS] = {
	        "SALU", "VALU", "TRANS", "SMEM", "VMEM_LOAD", "VMEM_STORE", "LDS", "BRANCH", "MSG"};
	return (unsigned)u < AMD_NUM_UNITS ? names[u] : "?";
}
