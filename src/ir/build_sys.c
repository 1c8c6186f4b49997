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
 * CUDA's assertion message through the printf machinery, then trap.  alloca, stacksave and
 * stackrestore move a per-thread stack pointer kept as an SSA variable over the stack the
 * selector places after the .local frame (docs/CALLS.md).  Textures, surfaces and istypep:
 * build_tex.c.
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

/* The forms the PTX ISA defines: prefetch of .global, .local or generic addresses, and
 * applypriority with .L2::evict_normal only. */
static bool check_hint_form(struct irb *b, const struct ptx_insn *in)
{
	if (in->op == PTX_OP_PREFETCH) {
		for (unsigned i = 0; i < in->nmods; i++)
			if (in->mods[i] == PTX_DW_SHARED || in->mods[i] == PTX_DW_CONST ||
			    in->mods[i] == PTX_DW_PARAM || in->mods[i] == PTX_DW_SHARED_CTA ||
			    in->mods[i] == PTX_DW_SHARED_CLUSTER) {
				irb_error(
				        b,
				        "prefetch: the PTX ISA defines it for .global, .local and "
				        "generic addresses only");
				return false;
			}
	}
	if (in->op == PTX_OP_APPLYPRIORITY && !has(in, PTX_DW_L2_EVICT_NORMAL)) {
		irb_error(b, "applypriority: the PTX ISA defines only .L2::evict_normal");
		return false;
	}
	return check_line_size(b, in);
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

/* ---- alloca, stacksave, stackrestore (docs/CALLS.md "Aliases, assertions and the dynamic
 * stack") ---- */

enum { STACK_VAR_KEY = 0xfffffffdu, ALLOCA_ALIGN = 8, ALLOCA_ALIGN_MAX = 1u << 23 };

/* The stack pointer: an SSA variable of the whole kernel holding the bytes allocated, 0 at
 * the entry (block 0); the address is STACK_FRAME 0 plus it. */
static uint32_t stack_var(struct irb *b)
{
	uint32_t var = irb_var_of_key(b, (uint64_t)STACK_VAR_KEY << 32, IR_T_I64);
	if (!irb_has_def(b, var, 0))
		irb_write_var(b, var, 0, ir_const(b->fn, IR_T_I64, 0));
	return var;
}

static ir_ref frame_bound(struct irb *b, unsigned which)
{
	return irb_emit(b, IR_STACK_FRAME, IR_T_I64, NULL, 0, which, 0);
}

static ir_ref add64(struct irb *b, ir_ref x, ir_ref y)
{
	return irb_op2(b, IR_ADD, IR_T_I64, x, y, 0);
}

static ir_ref const64(struct irb *b, uint64_t c)
{
	return ir_const(b->fn, IR_T_I64, c);
}

/* A u32/u64 operand as an i64 value. */
static ir_ref read64(struct irb *b, const struct ptx_insn *in, unsigned k)
{
	bool wide = ptx_types[in->types[0]].bits == 64;
	ir_ref v = irb_read_opnd(b, &in->opnds[k], wide ? IR_T_I64 : IR_T_I32, false);
	return wide ? v : irb_emit(b, IR_ZEXT, IR_T_I64, &v, 1, 0, 0);
}

/* The stack pointer's new value `sp` (bytes allocated), kept where the guard is false. */
static void set_sp(struct irb *b, uint32_t var, ir_ref sp, ir_ref guard)
{
	if (guard != IR_NO_REF) {
		ir_ref sel[3] = {guard, sp, irb_read_var(b, var, b->cur)};
		sp = irb_emit(b, IR_SELECT, IR_T_I64, sel, 3, 0, 0);
	}
	irb_write_var(b, var, b->cur, sp);
}

/* alloca d, size{, align}: d = the stack pointer rounded up to the alignment (at least 8,
 * the PTX ISA's default); the pointer moves past size bytes.  A thread whose allocation
 * passes the end of the stack budget traps (the PTX ISA leaves an overflow undefined). */
static void alloca_insn(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	uint64_t align = ALLOCA_ALIGN;
	if (in->nopnds > 2) {
		const struct ptx_operand *a = &in->opnds[2];
		if (a->kind != PTX_OPND_INT || !a->value || (a->value & (a->value - 1)) ||
		    a->value > ALLOCA_ALIGN_MAX) {
			irb_error(b,
			          "alloca: the alignment must be a constant power of 2 up to 2^23");
			return;
		}
		align = a->value > ALLOCA_ALIGN ? a->value : ALLOCA_ALIGN;
	}
	ir_ref size = read64(b, in, 1);
	uint32_t var = stack_var(b);
	ir_ref base = frame_bound(b, 0);
	ir_ref top = add64(b, base, irb_read_var(b, var, b->cur));
	ir_ref addr = irb_op2(b, IR_AND, IR_T_I64, add64(b, top, const64(b, align - 1)),
	                      const64(b, ~(align - 1)), 0);
	ir_ref end = add64(b, addr, size);
	ir_ref bad = irb_op2(b, IR_OR, IR_T_PRED,
	                     irb_op2(b, IR_ICMP, IR_T_PRED, end, frame_bound(b, 1), IR_CMP_GTU),
	                     irb_op2(b, IR_ICMP, IR_T_PRED, end, addr, IR_CMP_LTU), 0);
	if (guard != IR_NO_REF)
		bad = irb_op2(b, IR_AND, IR_T_PRED, bad, guard, 0);
	trap(b, bad);
	set_sp(b, var, irb_op2(b, IR_SUB, IR_T_I64, end, base, 0), guard);
	irb_write_dest(b, &in->opnds[0], addr, false, guard);
}

ir_ref irb_stack_at_call(struct irb *b, const struct ptx_function *body)
{
	bool allocates = false;
	for (uint32_t i = 0; i < body->nstmts && !allocates; i++)
		allocates = body->stmts[i].kind == PTX_STMT_INSN &&
		            body->stmts[i].u.insn->op == PTX_OP_ALLOCA;
	if (!allocates || b->fn->real_sym)
		return IR_NO_REF;
	return irb_read_var(b, stack_var(b), b->cur);
}

void irb_stack_at_return(struct irb *b, ir_ref sp)
{
	if (sp != IR_NO_REF)
		irb_write_var(b, stack_var(b), b->cur, sp);
}

static void dynamic_stack(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (b->fn->real_sym) {
		irb_unsupported(b, in,
		                "in a function compiled on its own (a recursive call reaches it)");
		return;
	}
	if (in->op == PTX_OP_ALLOCA) {
		alloca_insn(b, in, guard);
		return;
	}
	uint32_t var = stack_var(b);
	ir_ref base = frame_bound(b, 0);
	if (in->op == PTX_OP_STACKSAVE) {
		ir_ref sp = add64(b, base, irb_read_var(b, var, b->cur));
		irb_write_dest(b, &in->opnds[0], sp, false, guard);
		return;
	}
	set_sp(b, var, irb_op2(b, IR_SUB, IR_T_I64, read64(b, in, 0), base, 0), guard);
}

bool irb_sysmisc(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	if (is_hint(op)) {
		(void)check_hint_form(b, in);
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
		dynamic_stack(b, in, guard);
		return true;
	}
	return drop_cache_hint(b, in);
}
