/* Instruction selection for .local memory: per-thread scratch.
 *
 * Frame: the .local variables the kernel uses (nvcc's __local_depot arrays, any function-
 * or module-scope .local) are laid out from private offset 0 in order of first use, each at
 * its alignment; the total is the private_segment_fixed_size of the descriptor.
 * Scratch setup (AMDGPUUsage "Private Segment Buffer", "Flat Scratch"): where flat scratch
 * is not architected (gfx90a, gfx1030) the descriptor enables the flat_scratch_init user
 * SGPR pair (after the kernarg pointer) and the private segment wave offset system SGPR
 * (after the workgroup ids), and the entry sets FLAT_SCRATCH to their sum -- gfx9 with
 * s_add_u32/s_addc_u32 into flat_scratch_lo/hi, gfx10 with s_setreg_b32 of
 * HW_REG_FLAT_SCR_LO/HI; gfx942, gfx11 and gfx12 have architected flat scratch and only
 * enable the private segment (the code: mir_flat_scratch_init, src/mir/scratch_setup.c).
 * fn->scratch_ready tells the allocator scratch_* work as they are (set up, or architected,
 * where the allocator only enables the private segment); a kernel without .local whose
 * VGPRs must spill gets the same set-up after selection (mir_setup_scratch).
 * Addresses: a .local address is the 32-bit private offset (zero-extended when 64-bit);
 * ld.local/st.local are scratch_* with the offset in a VGPR (constant offsets 0..2047
 * folded into the instruction, which every target's field holds).  A generic address of
 * .local is the private aperture: src_private_base's high dword over the offset, so flat_*
 * accesses through it reach the same scratch; cvta.to.local keeps the low dword.
 *   requires: select.c's state.  Complexity: O(symbols) layout, O(1) per instruction. */
#include "isel/isel_int.h"

enum { SCRATCH_MAX_OFFSET = 2047 };

void sel_local_layout(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	s->local_offset = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nsymvars + 1);
	uint64_t off = 0;
	for (uint32_t i = 0; i < ir->nsymvars; i++) {
		if (ir->symvars[i].space != IR_SPACE_LOCAL)
			continue;
		uint32_t align = ir->symvars[i].align ? ir->symvars[i].align : 4;
		off = (off + align - 1) & ~(uint64_t)(align - 1);
		s->local_offset[i] = (uint32_t)off;
		off += ir->symvars[i].size;
	}
	off = (off + 3) & ~3ull;
	if (off > (1u << 20)) { /* what amdsim and the runtime's scratch limits allow */
		sel_error(s,
		          "kernel '%s' uses %llu bytes of .local memory per thread; at most 1 MiB",
		          ir->name, (unsigned long long)off);
		off = 0;
	}
	s->mf->scratch_size = (uint32_t)off;
	s->mf->scratch_ready = off || s->t->info->architected_flat_scratch;
}

static bool uses_scratch(const struct isel *s)
{
	return s->mf->scratch_size != 0;
}

static bool needs_init(const struct isel *s)
{
	return uses_scratch(s) && !s->t->info->architected_flat_scratch;
}

unsigned sel_local_user_sgprs(struct isel *s, unsigned next)
{
	if (!needs_init(s))
		return next;
	s->mf->abi.flat_scratch_init = true;
	s->flat_scratch_init_sgpr = next;
	return next + 2;
}

/* FLAT_SCRATCH = flat_scratch_init + the wave's offset (wave_sgpr). */
static void init_flat_scratch(struct isel *s, unsigned wave_sgpr)
{
	struct mir_insn code[MIR_FLAT_SCRATCH_INIT_LEN];
	unsigned n = mir_flat_scratch_init(s->mf, s->flat_scratch_init_sgpr, wave_sgpr, code);
	for (unsigned i = 0; i < n; i++)
		sel_emit(s, code[i].op, code[i].nopnds, code[i].opnds);
}

unsigned sel_local_system_sgprs(struct isel *s, unsigned next)
{
	if (!uses_scratch(s))
		return next;
	s->mf->abi.private_segment = true;
	s->mf->scratch_ready = true; /* (a kernel's call frames: its .local is none) */
	if (!needs_init(s))
		return next;
	init_flat_scratch(s, next);
	return next + 1;
}

bool sel_local_symaddr(struct isel *s, const struct ir_insn *in)
{
	if (s->ir->symvars[in->imm].space != IR_SPACE_LOCAL)
		return false;
	uint32_t d = sel_def(s, in->res);
	sel_copy(s, sel_sub(d, 0, 1), mir_imm(s->local_offset[in->imm]));
	if (s->vals[in->res].size == 2)
		sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
	return true;
}

/* The private offset of an access in a VGPR; *off is what stays for the instruction. */
static struct mir_opnd scratch_address(struct isel *s, ir_ref base, int64_t *off)
{
	return sel_offset_address(s, base, off, SCRATCH_MAX_OFFSET);
}

static const uint16_t scratch_loads[4][2] = {
        {AMD_OP_SCRATCH_LOAD_UBYTE, AMD_OP_SCRATCH_LOAD_SBYTE},
        {AMD_OP_SCRATCH_LOAD_USHORT, AMD_OP_SCRATCH_LOAD_SSHORT},
        {AMD_OP_SCRATCH_LOAD_DWORD, AMD_OP_SCRATCH_LOAD_DWORD},
        {AMD_OP_SCRATCH_LOAD_DWORDX2, AMD_OP_SCRATCH_LOAD_DWORDX2}};
static const uint16_t scratch_stores[4] = {AMD_OP_SCRATCH_STORE_BYTE, AMD_OP_SCRATCH_STORE_SHORT,
                                           AMD_OP_SCRATCH_STORE_DWORD,
                                           AMD_OP_SCRATCH_STORE_DWORDX2};

static unsigned size_index(unsigned bytes)
{
	return bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;
}

static unsigned cpol_volatile(const struct isel *s, uint32_t aux)
{
	if (!(aux & IR_MEM_VOLATILE))
		return 0;
	if (s->gen == AMD_GFX940)
		return AMD_CPOL_SC0 | AMD_CPOL_SC1;
	return s->gen == AMD_GFX12 ? 0 : AMD_CPOL_GLC;
}

bool sel_local_access(struct isel *s, const struct ir_insn *in)
{
	if ((in->aux & IR_SPACE_MASK) != IR_SPACE_LOCAL)
		return false;
	unsigned bytes = ir_mem_bytes(in->aux), si = size_index(bytes);
	unsigned words = bytes == 8 ? 2 : 1;
	int64_t off = in->imm;
	struct mir_insn *mi;
	if (in->op == IR_LOAD) {
		uint32_t d = sel_def(s, in->res);
		struct mir_opnd dst =
		        words == s->vals[in->res].size ? mir_vreg(d, words) : sel_sub(d, 0, 1);
		struct mir_opnd ops[3] = {
		        dst, scratch_address(s, in->args[0], &off), {.kind = MIR_OFF}};
		mi = sel_emit(s, scratch_loads[si][(in->aux & IR_MEM_SIGNED) ? 1 : 0], 3, ops);
		if (words < s->vals[in->res].size) /* narrow into a 64-bit value: extend */
			sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
	} else {
		struct mir_opnd data = sel_vgpr_opnd(s, in->args[1], words == 2 ? 2 : 0);
		struct mir_opnd ops[3] = {
		        scratch_address(s, in->args[0], &off), data, {.kind = MIR_OFF}};
		mi = sel_emit(s, scratch_stores[si], 3, ops);
	}
	mi->offset = (int32_t)off;
	mi->cpol = (uint8_t)cpol_volatile(s, in->aux);
	return true;
}

/* cvta.local (private offset -> generic) and cvta.to.local (generic -> offset). */
bool sel_local_cvta(struct isel *s, const struct ir_insn *in)
{
	if ((in->aux & IR_SPACE_MASK) != IR_SPACE_LOCAL)
		return false;
	uint32_t d = sel_def(s, in->res);
	bool uni = s->vals[in->res].loc == LOC_SGPR;
	struct mir_opnd lo =
	        uni ? sel_sreg_opnd(s, in->args[0], 0) : sel_vsrc_opnd(s, in->args[0], 0);
	sel_copy(s, sel_sub(d, 0, 1), lo);
	if (s->vals[in->res].size < 2)
		return true;
	if (in->op == IR_CVTA_TO) {
		sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
		return true;
	}
	uint32_t base = sel_new_sgpr(s, 2);
	struct mir_opnd ops[2] = {mir_vreg(base, 2), mir_special(AMD_SPEC_SRC_PRIVATE_BASE, 2)};
	sel_emit(s, AMD_OP_S_MOV_B64, 2, ops);
	sel_copy(s, sel_sub(d, 1, 1), sel_sub(base, 1, 1));
	return true;
}
