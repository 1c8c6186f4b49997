/* Cross-check of amdsim's decoding table against the shared instruction table
 * (src/encode/amd_isa.h): for every (generation, format, opcode) that both know, the
 * mnemonics must agree.  amdsim's rows come from llvm-mc-19's disassembler (the oracle), so a
 * disagreement is a wrong row in one of the two tables; both are named in the output.
 * Rows only one table has are counted (coverage), not failures. */
#include <stdio.h>
#include <string.h>

#include "amd_isa.h"
#include "sim_int.h"

static const int fmt_map[SIM_NUM_FMTS] = {
        [SIM_FMT_SOP2] = AMD_FMT_SOP2,       [SIM_FMT_SOPK] = AMD_FMT_SOPK,
        [SIM_FMT_SOP1] = AMD_FMT_SOP1,       [SIM_FMT_SOPC] = AMD_FMT_SOPC,
        [SIM_FMT_SOPP] = AMD_FMT_SOPP,       [SIM_FMT_SMEM] = AMD_FMT_SMEM,
        [SIM_FMT_VOP2] = AMD_FMT_VOP2,       [SIM_FMT_VOP1] = AMD_FMT_VOP1,
        [SIM_FMT_VOPC] = AMD_FMT_VOPC,       [SIM_FMT_VOP3] = AMD_FMT_VOP3,
        [SIM_FMT_VOP3P] = AMD_FMT_VOP3P,     [SIM_FMT_DS] = AMD_FMT_DS,
        [SIM_FMT_FLAT] = AMD_FMT_FLAT,       [SIM_FMT_GLOBAL] = AMD_FMT_GLOBAL,
        [SIM_FMT_SCRATCH] = AMD_FMT_SCRATCH, [SIM_FMT_MUBUF] = AMD_FMT_MUBUF,
        [SIM_FMT_VOPDX] = AMD_FMT_VOPD,      [SIM_FMT_VOPDY] = AMD_FMT_VOPD,
};

/* mnemonic without the v_dual_ prefix and _e32/_e64 suffix */
static void norm(const char *in, char *out, size_t n)
{
	if (!strncmp(in, "v_dual_", 7))
		snprintf(out, n, "v_%s", in + 7);
	else
		snprintf(out, n, "%s", in);
	size_t l = strlen(out);
	if (l > 4 && (!strcmp(out + l - 4, "_e32") || !strcmp(out + l - 4, "_e64")))
		out[l - 4] = 0;
}

int main(void)
{
	unsigned nrows, ntab, both = 0, only_sim = 0, bad = 0;
	const struct sim_oprow *rows = sim_optable(&nrows);
	const struct amd_isa_op *tab = amd_isa_table(&ntab);
	for (unsigned i = 0; i < nrows; i++) {
		const struct sim_oprow *r = &rows[i];
		int row = amd_isa_decode(r->gen, (enum amd_format)fmt_map[r->fmt], r->op);
		if (row < 0) {
			only_sim++;
			continue;
		}
		const char *gn =
		        tab[row].gen_name[r->gen] ? tab[row].gen_name[r->gen] : tab[row].name;
		char a[96], b[96];
		norm(r->name, a, sizeof a);
		norm(gn, b, sizeof b);
		both++;
		if (strcmp(a, b)) {
			bad++;
			printf("MISMATCH gen %d format %d opcode %u: llvm-mc says %s, amd_isa.h "
			       "says %s\n",
			       r->gen, r->fmt, r->op, r->name, gn);
		}
	}
	printf("%u rows checked, %u disagree, %u only in amdsim's table (coverage gap)\n", both,
	       bad, only_sim);
	return bad != 0;
}
