/* Internal to inline.c and indirect.c (ir_build's calls): the .param slots and real-call
 * pieces that indirect calls share with direct ones. */
#ifndef IR_INLINE_INT_H
#define IR_INLINE_INT_H

#include "ir/build_int.h"

bool irb_is_param_var(const struct ptx_operand *o);
uint64_t irb_slot_bytes(const struct ptx_symbol *s);
/* The IR type a scalar parameter of this type is passed as (IR_T_NONE: an aggregate). */
enum ir_type irb_scalar_type(const struct ptx_symbol *s, unsigned *bytes);
/* The slot a .param symbol names in the current context (false: a kernel parameter). */
bool irb_resolve_slot(struct irb *b, const struct ptx_symbol *sym, const struct ptx_symbol **slot,
                      uint32_t *inst);
void irb_slot_write(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, int64_t off,
                    unsigned bytes, enum ir_type vt, ir_ref v);
/* A call operand's bytes 0..bytes-1: a .param variable, a register or a constant. */
ir_ref irb_read_actual(struct irb *b, const struct ptx_operand *o, unsigned bytes, enum ir_type t,
                       bool sign);
/* Real calls: IR_STACK_ST of a value; an aggregate slot to / from a frame; the slot an
 * aggregate operand names (an error if none). */
void irb_stack_store(struct irb *b, unsigned aux, uint32_t off, ir_ref v);
void irb_slot_to_stack(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, unsigned aux,
                       uint32_t base);
void irb_slot_from_stack(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, unsigned aux,
                         uint32_t base, uint32_t bytes);
bool irb_aggregate_actual(struct irb *b, const struct ptx_operand *o,
                          const struct ptx_symbol **slot, uint32_t *inst);
/* A direct call of fs: inlined, or a real call (recursion, call_policy.c). */
void irb_inline_call(struct irb *b, const struct ptx_symbol *fs, const struct ptx_operand *rets,
                     const struct ptx_operand *args);

/* indirect.c: a call through a register (hash compare chain, or a waterfall of real calls) */
void irb_indirect_call(struct irb *b, const struct ptx_operand *rets,
                       const struct ptx_operand *callee, const struct ptx_operand *args);

#endif
