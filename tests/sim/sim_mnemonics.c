/* Prints, for each of the five processors, the mnemonics amdsim can run: every opcode its
 * decoder maps through the shared instruction table (sim_decode_init) to a semantics row.
 * One line per mnemonic: "PROCESSOR MNEMONIC" (no _e32/_e64, VOPD halves as v_NAME, as
 * amdsim's semantics rows spell them).  tests/sim/clang_insns.py compares what clang-19
 * emits with this list, so an instruction clang emits that amdsim would stop at as an
 * "unimplemented instruction" is found without having to reach it in a run. */
#include <stdio.h>
#include <string.h>

#include "sim_int.h"

static void print_gen(enum amd_gen gen, const char *cpu)
{
	struct sim_ctx c;
	memset(&c, 0, sizeof c);
	pa_arena_init(&c.arena);
	c.gen = gen;
	sim_decode_init(&c);
	for (unsigned i = 0; i < c.nentries; i++)
		if (c.entry_sem[i])
			printf("%s %s\n", cpu, c.entry_name[i]);
	pa_arena_free(&c.arena);
}

int main(void)
{
	static const struct {
		enum amd_gen gen;
		const char *cpu;
	} targets[] = {{AMD_GFX9, "gfx90a"},
	               {AMD_GFX940, "gfx942"},
	               {AMD_GFX10, "gfx1030"},
	               {AMD_GFX11, "gfx1100"},
	               {AMD_GFX12, "gfx1200"}};
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		print_gen(targets[i].gen, targets[i].cpu);
	return 0;
}
