/* Symbolic names shared by the printer and the reader: hardware registers for hwreg(...)
 * per generation and special register operands.  Values from llvm-mc-19 (the conformance
 * test prints each name on every generation).  Pure tables; O(table). */
#include <string.h>

#include "amd_inst.h"

struct hwreg_name {
	unsigned id;
	uint8_t gens; /* bit per enum amd_gen */
	const char *name;
};

enum { G9 = 1, G940 = 2, G10 = 4, G11 = 8, G12 = 16, ALL = 31 };

static const struct hwreg_name hwregs[] = {
        {1, ALL, "HW_REG_MODE"},
        {2, ALL, "HW_REG_STATUS"},
        {3, G9 | G940 | G10 | G11, "HW_REG_TRAPSTS"},
        {4, G9 | G940, "HW_REG_HW_ID"},
        {5, ALL, "HW_REG_GPR_ALLOC"},
        {6, ALL, "HW_REG_LDS_ALLOC"},
        {7, ALL, "HW_REG_IB_STS"},
        {15, G9 | G940 | G10 | G11, "HW_REG_SH_MEM_BASES"},
        {20, G10 | G11, "HW_REG_FLAT_SCR_LO"},
        {21, G10 | G11, "HW_REG_FLAT_SCR_HI"},
        {23, G10 | G11 | G12, "HW_REG_HW_ID1"},
        {24, G10 | G11 | G12, "HW_REG_HW_ID2"},
        {29, G10 | G11, "HW_REG_SHADER_CYCLES"},
        {29, G12, "HW_REG_SHADER_CYCLES_LO"},
        {30, G12, "HW_REG_SHADER_CYCLES_HI"},
};

const char *amd_hwreg_name(enum amd_gen gen, unsigned id)
{
	for (size_t i = 0; i < sizeof hwregs / sizeof hwregs[0]; i++)
		if (hwregs[i].id == id && (hwregs[i].gens >> gen & 1))
			return hwregs[i].name;
	return NULL;
}

int amd_hwreg_id(enum amd_gen gen, const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof hwregs / sizeof hwregs[0]; i++)
		if ((hwregs[i].gens >> gen & 1) && strlen(hwregs[i].name) == len &&
		    !memcmp(hwregs[i].name, name, len))
			return (int)hwregs[i].id;
	return -1;
}

const char *amd_special_name(unsigned spec, unsigned width)
{
	static const char *const names[AMD_NUM_SPECIALS] = {"vcc",
	                                                    "vcc_lo",
	                                                    "vcc_hi",
	                                                    "exec",
	                                                    "exec_lo",
	                                                    "exec_hi",
	                                                    "m0",
	                                                    "null",
	                                                    "scc",
	                                                    "flat_scratch",
	                                                    "flat_scratch_lo",
	                                                    "flat_scratch_hi",
	                                                    "src_shared_base",
	                                                    "src_shared_limit",
	                                                    "src_private_base",
	                                                    "src_private_limit"};
	/* vcc, exec and flat_scratch name register pairs; as one register they are _lo */
	if ((spec == AMD_SPEC_VCC || spec == AMD_SPEC_EXEC || spec == AMD_SPEC_FLAT_SCRATCH) &&
	    width < 2)
		spec++;
	return spec < AMD_NUM_SPECIALS ? names[spec] : "?";
}
