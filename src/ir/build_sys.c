/* irb_sysmisc: the system and hint instructions (docs/SEMANTICS.md "Hints and system forms").
 *
 * Hints without a semantic effect generate no code: prefetch/prefetchu (any space, level or
 * eviction priority), applypriority, discard (its line becomes an indeterminate value: keeping
 * the data is one such value), pmevent (no profiler), griddepcontrol (HIP starts a kernel after
 * the previous one in its stream finished: .wait is satisfied at entry, .launch_dependents has
 * nothing to launch early) and setmaxnreg (AMD allocates a wave's registers for its whole
 * life; the count is checked as the PTX ISA requires).  createpolicy gives an opaque 64-bit
 * policy, 0, that every .L2::cache_hint consumer ignores: atom/red with one are translated
 * without the hint operand (ld/st drop it where they are built).  nanosleep sleeps with
 * s_sleep (the PTX ISA allows any duration in [0, 2t]).  trap and brkpt end the wave with
 * s_trap 2, as llvm.trap (TRAP), and the thread with it; __assertfail/__assert_fail print
 * CUDA's assertion message through the printf machinery, then trap.  Textures, surfaces and
 * istypep are rejected by name with the reason.
 * requires: irb state at the instruction; breaks: nothing.  Complexity: O(operands). */
#include <string.h>

#include "build_int.h"
#include "inline_int.h"

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == w)
			return true;
	return false;
}

/* Instructions that only hint at caches, profilers or the launch order: no code. */
static bool is_hint(enum ptx_opcode op)
{
	return op == PTX_OP_PREFETCH || op == PTX_OP_PREFETCHU || op == PTX_OP_APPLYPRIORITY ||
	       op == PTX_OP_DISCARD || op == PTX_OP_PMEVENT || op == PTX_OP_GRIDDEPCONTROL;
}

/* discard/applypriority name 128 bytes, the only size the PTX ISA defines. */
static bool check_line_size(struct irb *b, const struct ptx_insn *in)
{
	if (in->op != PTX_OP_DISCARD && in->op != PTX_OP_APPLYPRIORITY)
		return true;
	const struct ptx_operand *n = &in->opnds[1];
	if (n->kind != PTX_OPND_INT || n->value != 128) {
		irb_error(b, "the size operand must be the constant 128 (the PTX ISA's only size)");
		return false;
	}
	return true;
}

/* setmaxnreg's count: 24..256, a multiple of 8 (PTX ISA); the hint itself has no effect. */
static void setmaxnreg(struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *n = &in->opnds[0];
	if (n->kind != PTX_OPND_INT || n->value < 24 || n->value > 256 || n->value % 8) {
		irb_error(b, "setmaxnreg: the register count must be a constant from 24 to 256, a "
		             "multiple of 8");
	}
}

/* nanosleep t: s_sleep k waits 64*k clocks (k <= 127), at most t ns at 1 GHz or more, so
 * within the PTX ISA's [0, 2t]; a register duration sleeps 0 (also within it). */
static void nanosleep(struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *t = &in->opnds[0];
	uint64_t k = 0;
	if (t->kind == PTX_OPND_INT) {
		k = (uint32_t)t->value / 64;
		k = k > 127 ? 127 : k;
	} else {
		(void)irb_read_opnd(b, t, IR_T_I32, false);
	}
	irb_emit(b, IR_SLEEP, IR_T_NONE, NULL, 0, 0, (int64_t)k);
}

/* createpolicy: an opaque policy; 0 is the one ptxas-amd makes (every consumer ignores it). */
static void createpolicy(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	for (unsigned i = 1; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_REG)
			(void)irb_read_opnd(b, &in->opnds[i], IR_T_I64, false);
	irb_write_dest(b, &in->opnds[0], ir_const(b->fn, IR_T_I64, 0), false, guard);
}

static void trap(struct irb *b, ir_ref guard)
{
	uint32_t join = IR_NO_BLOCK;
	if (guard != IR_NO_REF) { /* @p trap: if (p) { trap } */
		uint32_t then = irb_open_sealed(b);
		join = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, then, join);
		irb_switch_to(b, then);
	}
	irb_emit(b, IR_TRAP, IR_T_NONE, NULL, 0, 0, 2);
	if (!b->fn->real_sym) /* the thread ends there (in a function compiled alone: the wave) */
		irb_terminate(b, IR_RET, IR_NO_REF, 0, 0);
	else if (join != IR_NO_BLOCK)
		irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	if (join != IR_NO_BLOCK) {
		irb_seal(b, join);
		irb_switch_to(b, join);
	}
}

/* atom/red with .L2::cache_hint: the same instruction without the hint and its operand. */
static bool drop_cache_hint(struct irb *b, const struct ptx_insn *in)
{
	if ((in->op != PTX_OP_ATOM && in->op != PTX_OP_RED) || !has(in, PTX_DW_L2_CACHE_HINT) ||
	    in->nopnds < 2)
		return false;
	struct ptx_insn plain = *in;
	uint16_t mods[32];
	unsigned n = 0;
	for (unsigned i = 0; i < in->nmods && n < 32; i++)
		if (in->mods[i] != PTX_DW_L2_CACHE_HINT)
			mods[n++] = in->mods[i];
	plain.mods = mods;
	plain.nmods = (uint8_t)n;
	plain.nopnds = (uint8_t)(in->nopnds - 1);
	(void)irb_read_opnd(b, &in->opnds[in->nopnds - 1], IR_T_I64, false);
	irb_insn(b, &plain);
	return true;
}

/* CUDA's message for a failed assert(), as its device runtime prints it. */
static const char assert_format[] = "%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] "
                                    "Assertion `%s` failed.\n";

/* __assertfail(message, file, line, function, charSize) (CUDA), __assert_fail(message, file,
 * line, function) (clang's PTX): the message through the printf machinery, then trap. */
bool irb_assert_call(struct irb *b, const struct ptx_symbol *callee, const struct ptx_operand *rets,
                     const struct ptx_operand *args)
{
	bool cuda = !strcmp(callee->name, "__assertfail");
	if ((!cuda && strcmp(callee->name, "__assert_fail")) ||
	    !(callee->linkage & PTX_LINK_EXTERN) || callee->defined)
		return false;
	unsigned want = cuda ? 5 : 4;
	if (!args || args->nelems != want || (rets && rets->nelems)) {
		irb_error(b,
		          "'%s' is called with %u arguments and %u results; ptxas-amd knows it as "
		          "%s with %u arguments and none",
		          callee->name, args ? args->nelems : 0, rets ? rets->nelems : 0,
		          cuda ? "CUDA's assertion handler" : "clang's assertion handler", want);
		return true;
	}
	ir_ref vals[10];
	vals[0] = irb_read_actual(b, &args->elems[1], 8, IR_T_I64, false); /* file */
	vals[1] = irb_read_actual(b, &args->elems[2], 4, IR_T_I32, false); /* line */
	vals[2] = irb_read_actual(b, &args->elems[3], 8, IR_T_I64, false); /* function */
	for (unsigned k = 0; k < 3; k++) {
		vals[3 + k] = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_CTAID_X + k, 0);
		vals[6 + k] = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_TID_X + k, 0);
	}
	vals[9] = irb_read_actual(b, &args->elems[0], 8, IR_T_I64, false); /* message */
	(void)irb_printf_values(b, assert_format, vals, 10);
	trap(b, IR_NO_REF);
	return true;
}

static bool is_image(enum ptx_opcode op)
{
	return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_TXQ || op == PTX_OP_SULD ||
	       op == PTX_OP_SUST || op == PTX_OP_SURED || op == PTX_OP_SUQ || op == PTX_OP_ISTYPEP;
}

bool irb_sysmisc(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	if (is_hint(op)) {
		(void)check_line_size(b, in);
		return true;
	}
	switch (op) {
	case PTX_OP_SETMAXNREG:
		setmaxnreg(b, in);
		return true;
	case PTX_OP_NANOSLEEP:
		nanosleep(b, in);
		return true;
	case PTX_OP_CREATEPOLICY:
		createpolicy(b, in, guard);
		return true;
	case PTX_OP_TRAP:
	case PTX_OP_BRKPT:
		trap(b, guard);
		return true;
	default:
		break;
	}
	if (op == PTX_OP_ALLOCA || op == PTX_OP_STACKSAVE || op == PTX_OP_STACKRESTORE) {
		irb_unsupported(b, in,
		                "dynamic allocation on the per-thread stack (alloca, stacksave, "
		                "stackrestore) needs a dynamic stack pointer in scratch, which "
		                "ptxas-amd does not have (docs/CALLS.md)");
		return true;
	}
	if (is_image(op)) {
		irb_unsupported(b, in,
		                "textures and surfaces (tex, tld4, txq, suld, sust, sured, suq, "
		                "istypep) need HIP's texture-object ABI, which ptxas-amd does not "
		                "implement");
		return true;
	}
	return drop_cache_hint(b, in);
}
