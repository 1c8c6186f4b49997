/* ir_build, part 5: indirect calls (`call (r), %rd, (a), proto;`), docs/CALLS.md.
 *
 * Hashes (the default): the pointer is compared with every function of the module whose
 * parameter and return sizes fit the call, and the one it names is inlined under its own
 * branch.  Code addresses (fn->fnptr_address, decided per module by the driver): the
 * arguments go to the callee's frame and a waterfall loop calls each distinct pointer of
 * the active lanes once (IR_READFIRST, IR_CALL_PTR).
 *   requires: the builder's state (build.c), inline.c's slots and real-call pieces.
 *   complexity: O(candidates) per call (hashes), O(operands) (addresses). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/inline_int.h"

/* ---- indirect calls ----
 * Unless the driver made the module's function pointers code addresses (pointer_call
 * below, docs/CALLS.md), a function pointer is ir_func_pointer(name) (funclib.c), a hash of
 * the name, and an indirect call compares the pointer with each
 * candidate -- every function defined in the module whose parameters and return values
 * have the sizes of the call's operands, in name order -- and inlines the candidate whose
 * value matches, as a chain of (divergent, where the pointer is) branches: each lane runs
 * the function its pointer names, and a lane whose pointer names no candidate calls
 * nothing (undefined in PTX). */

/* Bytes of a call operand (0: a constant, which fits any size). */
static unsigned actual_bytes(const struct ptx_operand *o)
{
	if (irb_is_param_var(o))
		return (unsigned)irb_slot_bytes(o->sym);
	if (o->kind == PTX_OPND_REG)
		return ptx_types[o->sym->type].bits / 8 * (o->sym->vec > 1 ? o->sym->vec : 1);
	return 0;
}

static bool layout_fits(const struct ptx_param *lay, uint32_t n, const struct ptx_operand *list)
{
	if (n != (list ? list->nelems : 0))
		return false;
	for (uint32_t k = 0; k < n; k++) {
		unsigned bytes = actual_bytes(&list->elems[k]);
		if (bytes && lay[k].size != bytes &&
		    !(lay[k].space == PTX_SPACE_REG && bytes <= 4 && lay[k].size <= 4))
			return false;
	}
	return true;
}

static int by_name(const void *x, const void *y)
{
	const struct ptx_symbol *const *a = x, *const *c = y;
	return strcmp((*a)->name, (*c)->name);
}

/* Frame bytes of an indirect call's operand (as formal_frame_bytes for the callee's
 * formal): 8 for a scalar, an aggregate .param variable's size rounded up to 8. */
static uint32_t actual_frame_bytes(const struct ptx_operand *o, bool *aggregate)
{
	unsigned bytes;
	*aggregate = irb_is_param_var(o) && irb_scalar_type(o->sym, &bytes) == IR_T_NONE;
	return *aggregate ? ((uint32_t)irb_slot_bytes(o->sym) + 7) & ~7u : 8;
}

/* A scalar operand of an indirect call stored to the callee's frame slot at `off`. */
static void store_scalar_actual(struct irb *b, const struct ptx_operand *o, uint32_t off)
{
	unsigned bytes = actual_bytes(o);
	if (irb_is_param_var(o))
		bytes = (unsigned)irb_slot_bytes(o->sym);
	enum ir_type t = bytes > 4 || !bytes ? IR_T_I64 : IR_T_I32;
	ir_ref v = irb_is_param_var(o) ? irb_read_actual(b, o, bytes, t, false)
	                               : irb_read_opnd(b, o, t, false);
	irb_stack_store(b, 1, off, v);
}

/* An indirect call through a code address (fn->fnptr_address, docs/CALLS.md): the
 * arguments go to the callee's frame as for a direct real call (the layout follows the
 * call's operands, which every target's formals match), the special registers after them,
 * then a waterfall loop: the pointer of the first active lane (IR_READFIRST), the lanes
 * holding that pointer call it (IR_CALL_PTR) in an if inside the loop and leave it at
 * the latch, the others go round again; a uniform pointer calls once.  The results come back from
 * the frame. */
static void pointer_call(struct irb *b, const struct ptx_operand *rets,
                         const struct ptx_operand *callee, const struct ptx_operand *args)
{
	const struct ptx_symbol *slot;
	uint32_t inst, off = 0;
	bool agg;
	ir_ref fp = irb_read_opnd(b, callee, IR_T_I64, false);
	for (uint32_t k = 0; args && k < args->nelems; k++) {
		const struct ptx_operand *o = &args->elems[k];
		uint32_t n = actual_frame_bytes(o, &agg);
		if (!agg)
			store_scalar_actual(b, o, off);
		else if (irb_aggregate_actual(b, o, &slot, &inst))
			irb_slot_to_stack(b, slot, inst, 1, off);
		off += n;
	}
	uint32_t ret_off = off;
	for (uint32_t k = 0; rets && k < rets->nelems; k++)
		off += actual_frame_bytes(&rets->elems[k], &agg);
	for (uint32_t k = 0; k < IR_NUM_CONTEXT_SREGS; k++)
		irb_stack_store(b, 1, off + 4 * k, irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, k, 0));
	b->fn->calls_pointers = true;
	uint32_t loop = irb_new_block(b), done = irb_new_block(b);
	irb_terminate(b, IR_JMP, IR_NO_REF, loop, 0);
	irb_switch_to(b, loop);
	ir_ref p = irb_emit(b, IR_READFIRST, IR_T_I64, &fp, 1, 0, 0);
	ir_ref eq = irb_emit(b, IR_ICMP, IR_T_PRED, (ir_ref[]){fp, p}, 2, IR_CMP_EQ, 0);
	uint32_t yes = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, eq, yes, join);
	irb_switch_to(b, yes);
	irb_emit(b, IR_CALL_PTR, IR_T_NONE, &p, 1, 0, 0);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join); /* the call inside the loop, the lanes that made it leave after */
	irb_switch_to(b, join);
	irb_terminate(b, IR_BR, eq, done, loop);
	irb_seal(b, loop);
	irb_seal(b, done);
	irb_switch_to(b, done);
	off = ret_off;
	for (uint32_t j = 0; rets && j < rets->nelems; j++) {
		const struct ptx_operand *o = &rets->elems[j];
		uint32_t n = actual_frame_bytes(o, &agg);
		if (agg) {
			if (irb_aggregate_actual(b, o, &slot, &inst))
				irb_slot_from_stack(b, slot, inst, 1, off,
				                    (uint32_t)irb_slot_bytes(o->sym));
		} else if (irb_is_param_var(o)) {
			unsigned bytes = (unsigned)irb_slot_bytes(o->sym);
			enum ir_type t = bytes > 4 ? IR_T_I64 : IR_T_I32;
			ir_ref v = irb_emit(b, IR_STACK_LD, t, NULL, 0, 1, off);
			if (irb_resolve_slot(b, o->sym, &slot, &inst))
				irb_slot_write(b, slot, inst, 0, bytes, t, v);
			else
				irb_error(b,
				          "kernel parameter '%s' passed to a call is not supported",
				          o->sym->name);
		} else if (o->kind == PTX_OPND_REG) {
			enum ir_type t = actual_bytes(o) > 4 ? IR_T_I64 : IR_T_I32;
			irb_write_dest(b, o, irb_emit(b, IR_STACK_LD, t, NULL, 0, 1, off), false,
			               IR_NO_REF);
		} else {
			irb_error(b,
			          "return value %u of the call: this operand form is not supported",
			          j + 1);
		}
		off += n;
	}
}

void irb_indirect_call(struct irb *b, const struct ptx_operand *rets,
                       const struct ptx_operand *callee, const struct ptx_operand *args)
{
	if (b->fn->fnptr_address) {
		pointer_call(b, rets, callee, args);
		return;
	}
	uint32_t n = 0, cap = b->lib ? b->lib->n : 0;
	const struct ptx_symbol **cand = PA_NEW_ARRAY(b->arena, const struct ptx_symbol *, cap + 1);
	for (uint32_t i = 0; b->lib && i < b->lib->cap; i++) {
		const struct ptx_symbol *f = ir_funclib_at(b->lib, i);
		const struct ptx_func_info *fi = f ? f->func : NULL;
		if (fi && n < cap && layout_fits(fi->param_layout, fi->nparams, args) &&
		    layout_fits(fi->ret_layout, fi->nrets, rets))
			cand[n++] = f;
	}
	if (!n) {
		char index[16] = "";
		if (callee->sym->range)
			snprintf(index, sizeof index, "%u", callee->index);
		irb_error(b,
		          "indirect call through '%s%s': no function defined in the module has the "
		          "parameter and return sizes of this call",
		          callee->sym->name, index);
		return;
	}
	qsort(cand, n, sizeof *cand, by_name);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (ir_func_pointer(cand[i]->name) == ir_func_pointer(cand[j]->name)) {
				irb_error(b, "functions '%s' and '%s' have the same pointer value",
				          cand[i]->name, cand[j]->name);
				return;
			}
	ir_ref fp = irb_read_opnd(b, callee, IR_T_I64, false);
	uint32_t join = irb_new_block(b);
	for (uint32_t i = 0; i < n && !b->failed; i++) {
		uint64_t v = ir_func_pointer(cand[i]->name);
		ir_ref eq = irb_emit(b, IR_ICMP, IR_T_PRED,
		                     (ir_ref[]){fp, ir_const(b->fn, IR_T_I64, v)}, 2, IR_CMP_EQ, 0);
		uint32_t yes = irb_open_sealed(b), no = irb_open_sealed(b);
		irb_terminate(b, IR_BR, eq, yes, no);
		irb_switch_to(b, yes);
		irb_inline_call(b, cand[i], rets, args);
		if (!b->terminated)
			irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
		irb_switch_to(b, no);
	}
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
}
