/* Instruction selection for the IR operations of build_sys.c: TRAP (s_trap after every
 * counter drained, so that the stores before it, an assertion's printf record among them,
 * are done when the trap handler stops the dispatch; on gfx11 clang's fallback after it), SLEEP
 * (s_sleep), UNUSABLE (an error: a used value PTX gives no meaning) and STACK_FRAME (the bounds of
 * alloca's stack: sel_sys_layout puts it after the .local frame, with the stack budget of real
 * calls,
 * --stack-size, and grows the private segment by it).
 * requires: nothing beyond the selector's state.  Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

static uint32_t align16(uint32_t v)
{
	return (v + 15) & ~15u;
}

void sel_sys_layout(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	bool used = false;
	for (uint32_t b = 0; b < ir->nblocks && !used; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns && !used; i++)
			used = ir->blocks[b].insns[i].op == IR_STACK_FRAME;
	if (!used)
		return;
	if (ir->real_sym || ir->ncallees || ir->calls_pointers) {
		sel_error(s, "alloca in a kernel that makes real calls is not supported (its stack "
		             "and theirs would share the budget)");
		return;
	}
	uint32_t budget = ir->stack_size ? align16(ir->stack_size) : MIR_CALL_STACK_DEFAULT;
	s->dyn_stack_begin = align16(s->mf->scratch_size);
	s->dyn_stack_end = s->dyn_stack_begin + budget;
	s->mf->scratch_size = s->dyn_stack_end;
	s->mf->scratch_ready = true;
}

/* STACK_FRAME: a uniform i64 constant. */
static void stack_frame(struct isel *s, const struct ir_insn *in)
{
	uint32_t d = sel_def(s, in->res);
	uint32_t bound = in->aux ? s->dyn_stack_end : s->dyn_stack_begin;
	sel_copy(s, sel_sub(d, 0, 1), mir_imm(bound));
	sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
}

/* gfx11: s_trap 2 may be a no-op there (LLVM's PrivEnabledTrap2NopBug), so, as clang-19
 * does after it, the wave raises the queue's interrupt itself (m0 = the doorbell id with bit
 * 10 set, s_sendmsg MSG_INTERRUPT) and halts.  m0 is not restored: the wave never goes on.
 * `tmp` is one scratch SGPR (a virtual register here, a physical one in sel_call.c's
 * stack check, which runs after allocation). */
unsigned sel_trap_fallback(struct mir_opnd tmp, struct mir_insn out[SEL_TRAP_FALLBACK_LEN])
{
	enum {
		MSG_INTERRUPT = 1,
		MSG_RTN_GET_DOORBELL = 128,
		DOORBELL_ID_MASK = 0x3ff,
		DOORBELL_QUEUE_BIT = 1u << 10,
		HALT = 5
	};
	struct mir_opnd m0 = mir_special(AMD_SPEC_M0, 1);
	out[0] = mir_make(AMD_OP_S_SENDMSG_RTN_B32, 2,
	                  (struct mir_opnd[]){tmp, mir_imm(MSG_RTN_GET_DOORBELL)});
	out[1] = mir_make(AMD_OP_S_AND_B32, 3,
	                  (struct mir_opnd[]){tmp, tmp, mir_imm(DOORBELL_ID_MASK)});
	out[2] = mir_make(AMD_OP_S_OR_B32, 3,
	                  (struct mir_opnd[]){m0, tmp, mir_imm(DOORBELL_QUEUE_BIT)});
	out[3] = mir_make(AMD_OP_S_SENDMSG, 1, (struct mir_opnd[]){mir_imm(MSG_INTERRUPT)});
	out[4] = mir_make(AMD_OP_S_SETHALT, 1, (struct mir_opnd[]){mir_imm(HALT)});
	return SEL_TRAP_FALLBACK_LEN;
}

static void trap_fallback(struct isel *s)
{
	if (s->gen != AMD_GFX11)
		return;
	struct mir_insn code[SEL_TRAP_FALLBACK_LEN];
	unsigned n = sel_trap_fallback(mir_vreg(sel_new_sgpr(s, 1), 1), code);
	for (unsigned i = 0; i < n; i++)
		sel_emit(s, code[i].op, code[i].nopnds, code[i].opnds);
}

bool sel_sys(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd imm = mir_imm((uint32_t)in->imm);
	switch (in->op) {
	case IR_TRAP:
		sel_waitcnt_all(s);
		sel_emit(s, AMD_OP_S_TRAP, 1, &imm);
		trap_fallback(s);
		return true;
	case IR_SLEEP:
		sel_emit(s, AMD_OP_S_SLEEP, 1, &imm);
		return true;
	case IR_STACK_FRAME:
		stack_frame(s, in);
		return true;
	case IR_UNUSABLE:
		sel_error(
		        s,
		        "a constant added to a %s register is not supported: the PTX ISA gives it "
		        "no meaning, and NVIDIA's ptxas fails on it too once the value is used",
		        ir_type_name((enum ir_type)in->type));
		return true;
	default:
		return false;
	}
}
