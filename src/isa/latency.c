/* Result latencies in cycles per generation and latency class, for the list scheduler.
 *
 * The scheduler needs their order of magnitude, not exact values (memory latency varies
 * with the cache level hit).  Sources: AMD's "AMD Instinct MI200 ISA" and "CDNA3 ISA"
 * manuals (a wave64 VALU op issues over 4 cycles on a SIMD16; gfx90a/gfx942 run FP64 at the
 * FP32 rate; transcendentals are quarter rate), AMD's "RDNA Performance Guide" (GPUOpen:
 * dependent VALU ~5 cycles on wave32 RDNA, transcendentals ~4x, FP64 1/16 rate on consumer
 * RDNA, SALU 1-2 cycles, LDS ~64 cycles, scalar loads ~200 cycles from the constant cache,
 * vector memory ~500 cycles from L2/DRAM).  Pure; O(1). */
#include "isa.h"

static const uint16_t latency_cycles[AMD_NUM_GENS][AMD_NUM_LATENCIES] = {
        /*                SALU VALU VALU64 TRANS SMEM VMEM LDS BRANCH MISC */
        [AMD_GFX9] = {2, 8, 8, 16, 200, 500, 64, 16, 1},
        [AMD_GFX940] = {2, 8, 8, 16, 200, 500, 64, 16, 1},
        [AMD_GFX10] = {2, 5, 64, 20, 200, 500, 64, 16, 1},
        [AMD_GFX11] = {2, 5, 64, 20, 200, 500, 64, 16, 1},
        [AMD_GFX12] = {2, 5, 64, 20, 200, 500, 64, 16, 1},
};

unsigned amd_latency_cycles(const struct amd_target *t, enum amd_opcode op)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	if ((unsigned)op >= count || table[op].latency >= AMD_NUM_LATENCIES)
		return 1;
	return latency_cycles[t->info->gen][table[op].latency];
}
