/* Scratch set-up of a selected kernel: the entry code and ABI inputs that make scratch_*
 * instructions work (AMDGPUUsage "Flat Scratch", "Private Segment Buffer").
 *
 * Where flat scratch is not architected (gfx90a, gfx1030) the descriptor enables the
 * flat_scratch_init user SGPR pair (after the kernarg pointer and the dispatch id) and the
 * private segment wave offset system SGPR (after the workgroup ids), and the entry sets
 * FLAT_SCRATCH to their sum; gfx942, gfx11 and gfx12 only enable the private segment.
 * Selection makes this set-up for a kernel with .local (sel_local.c, through
 * mir_flat_scratch_init); mir_setup_scratch adds it to a kernel selected without scratch
 * whose VGPRs must spill (the driver, when allocation fails with ra_stats.needs_scratch),
 * instead of selecting it again.  That works because selection reads every preloaded
 * input once, by a COPY from its physical SGPR into a virtual register at the entry: two
 * more user SGPRs only move the workgroup ids (and so those copies' sources) up by two,
 * and the code that sets FLAT_SCRATCH goes where selection puts it, after those copies.
 * requires: MIR on virtual registers before allocation, fn->abi as selection set it.
 * Complexity: O(instructions) for the renumbering. */
#include "mir/mir.h"

enum { HWREG_FLAT_SCR_LO = 20, HWREG_FLAT_SCR_HI = 21, FLAT_SCRATCH_INIT_SGPRS = 2 };

unsigned mir_flat_scratch_init(struct mir_function *fn, unsigned fsi, unsigned wave_sgpr,
                               struct mir_insn out[MIR_FLAT_SCRATCH_INIT_LEN])
{
	enum amd_gen gen = fn->target->info->gen;
	bool gfx9 = gen == AMD_GFX9 || gen == AMD_GFX940;
	/* gfx10 writes FLAT_SCRATCH through s_setreg_b32 from an SGPR pair */
	uint32_t t = gfx9 ? 0 : mir_new_vreg(fn, MIR_SGPR, 2, 2);
	struct mir_opnd lo =
	        gfx9 ? mir_special(AMD_SPEC_FLAT_SCRATCH_LO, 1)
	             : (struct mir_opnd){.kind = MIR_VREG, .sub = 0, .width = 1, .v = t};
	struct mir_opnd hi =
	        gfx9 ? mir_special(AMD_SPEC_FLAT_SCRATCH_HI, 1)
	             : (struct mir_opnd){.kind = MIR_VREG, .sub = 1, .width = 1, .v = t};
	unsigned n = 0;
	out[n++] = mir_make(AMD_OP_S_ADD_U32, 3,
	                    (struct mir_opnd[]){lo, mir_sgpr(fsi, 1), mir_sgpr(wave_sgpr, 1)});
	out[n++] = mir_make(AMD_OP_S_ADDC_U32, 3,
	                    (struct mir_opnd[]){hi, mir_sgpr(fsi + 1, 1), mir_imm(0)});
	if (gfx9) {
		fn->abi.uses_flat_scratch = true;
		return n;
	}
	for (unsigned k = 0; k < 2; k++) { /* hwreg(id, 0, 32) */
		unsigned id = k ? HWREG_FLAT_SCR_HI : HWREG_FLAT_SCR_LO;
		out[n++] = mir_make(AMD_OP_S_SETREG_B32, 2,
		                    (struct mir_opnd[]){mir_imm(id | 31u << 11), k ? hi : lo});
	}
	return n;
}

/* Moves every fixed SGPR operand inside [first, end) up by `by` registers. */
static void move_inputs(struct mir_function *fn, unsigned first, unsigned end, unsigned by)
{
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				struct mir_opnd *o = &in->opnds[k];
				if (o->kind == MIR_SGPR && o->v >= first && o->v < end)
					o->v += by;
			}
		}
}

/* Where selection puts the set-up: after the entry block's last copy of an input SGPR
 * (below `end`) into a virtual register (select.c's entry_inputs), so that the kernel gets
 * the code a selection with scratch would give it. */
static uint32_t after_inputs(const struct mir_function *fn, unsigned end)
{
	const struct mir_block *bl = &fn->blocks[0];
	uint32_t pos = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		if (in->op == MIR_COPY && in->opnds[0].kind == MIR_VREG &&
		    in->opnds[1].kind == MIR_SGPR && in->opnds[1].v < end)
			pos = i + 1;
	}
	return pos;
}

void mir_setup_scratch(struct mir_function *fn)
{
	if (fn->scratch_ready)
		return;
	fn->scratch_ready = true;
	if (fn->is_func) /* a function compiled on its own runs on its caller's scratch */
		return;
	if (fn->abi.private_segment) /* set up by selection (call frames) */
		return;
	fn->abi.private_segment = true;
	if (fn->target->info->architected_flat_scratch)
		return;
	struct mir_abi *abi = &fn->abi;
	unsigned fsi = abi->user_sgpr_count; /* HSA order: kernarg, dispatch id, this */
	unsigned nwg = 0;
	for (unsigned k = 0; k < 3; k++)
		if (abi->workgroup_id[k]) {
			abi->workgroup_id_sgpr[k] += FLAT_SCRATCH_INIT_SGPRS;
			nwg++;
		}
	/* the system SGPRs (workgroup ids) follow the user SGPRs: below the rejoin masks'
	 * s8 (cflow.c), so nothing else names them */
	move_inputs(fn, fsi, fsi + nwg, FLAT_SCRATCH_INIT_SGPRS);
	abi->flat_scratch_init = true;
	abi->user_sgpr_count += FLAT_SCRATCH_INIT_SGPRS;
	unsigned wave_sgpr = abi->user_sgpr_count + nwg;
	uint32_t pos = after_inputs(fn, wave_sgpr);
	struct mir_insn code[MIR_FLAT_SCRATCH_INIT_LEN];
	unsigned n = mir_flat_scratch_init(fn, fsi, wave_sgpr, code);
	for (unsigned i = 0; i < n; i++)
		mir_insert(fn, 0, pos + i, &code[i]);
}
