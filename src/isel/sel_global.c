/* Instruction selection for module-scope .global and .const variables.
 *
 * The variables live in the code object's .data/.bss/.rodata (the driver collects them),
 * at addresses the loader decides, so their addresses are PC-relative: the kernel's entry
 * runs one s_getpc_b64 into an SGPR pair that stays live for the whole kernel (the anchor,
 * flagged MIR_IF_PC_ANCHOR), and each address is s_add_u32/s_addc_u32 of that pair and the
 * two dwords of an R_AMDGPU_REL32_LO/HI relocation against the variable (LLVM's
 * `sym@rel32@lo+4` form; emission computes the addends from the literals' distances to the
 * anchor, see isel.h struct mir_reloc).  Addresses are uniform, so they live in SGPRs.
 * Constant memory is global memory on AMDGPU: ld.const is a global load (sel_mem.c) and
 * cvta between .const and generic addresses is the identity.
 *   requires: nothing beyond select.c's state.  Complexity: O(instructions) for the scan,
 *   O(1) per address. */
#include "isel/isel_int.h"

static bool is_data_space(unsigned space)
{
	return space == IR_SPACE_GLOBAL || space == IR_SPACE_CONST;
}

void sel_global_entry(struct isel *s)
{
	s->pc_base = ~0u;
	bool any = false;
	for (uint32_t b = 0; b < s->ir->nblocks && !any; b++)
		for (uint32_t i = 0; i < s->ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &s->ir->blocks[b].insns[i];
			if (in->op == IR_SYMADDR && is_data_space(s->ir->symvars[in->imm].space))
				any = true;
		}
	if (!any)
		return;
	s->pc_base = sel_new_sgpr(s, 2);
	struct mir_opnd dst = mir_vreg(s->pc_base, 2);
	sel_emit(s, AMD_OP_S_GETPC_B64, 1, &dst)->flags |= MIR_IF_PC_ANCHOR;
}

bool sel_global_symaddr(struct isel *s, const struct ir_insn *in)
{
	const struct ir_symvar *v = &s->ir->symvars[in->imm];
	if (!is_data_space(v->space) || s->pc_base == ~0u)
		return false;
	uint32_t d = sel_def(s, in->res);
	bool direct = s->vals[in->res].loc == LOC_SGPR && s->vals[in->res].size == 2;
	uint32_t a = direct ? d : sel_new_sgpr(s, 2);
	struct mir_opnd lo[3] = {sel_sub(a, 0, 1), sel_sub(s->pc_base, 0, 1),
	                         mir_reloc(s->mf, v->sym->name, MIR_RELOC_REL32_LO, 0)};
	sel_emit(s, AMD_OP_S_ADD_U32, 3, lo);
	struct mir_opnd hi[3] = {sel_sub(a, 1, 1), sel_sub(s->pc_base, 1, 1),
	                         mir_reloc(s->mf, v->sym->name, MIR_RELOC_REL32_HI, 0)};
	sel_emit(s, AMD_OP_S_ADDC_U32, 3, hi);
	if (!direct)
		for (unsigned k = 0; k < s->vals[in->res].size && k < 2; k++)
			sel_copy(s, sel_sub(d, k, 1), sel_sub(a, k, 1));
	return true;
}

/* cvta between .global/.const and generic: the same 64-bit address. */
bool sel_global_cvta(struct isel *s, const struct ir_insn *in)
{
	if (!is_data_space(in->aux & IR_SPACE_MASK))
		return false;
	uint32_t d = sel_def(s, in->res);
	bool uni = s->vals[in->res].loc == LOC_SGPR;
	for (unsigned k = 0; k < s->vals[in->res].size; k++)
		sel_copy(s, sel_sub(d, k, 1),
		         uni ? sel_sreg_opnd(s, in->args[0], k) : sel_vsrc_opnd(s, in->args[0], k));
	return true;
}
