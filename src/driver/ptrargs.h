/* Pointer kernel parameters through the IR (ptrargs.c; internal to src/driver). */
#ifndef DRIVER_PTRARGS_H
#define DRIVER_PTRARGS_H

#include "ir/ir.h"

/* PTX does not say which 64-bit parameters are pointers: those whose value reaches a
 * memory address (through moves, cvta, 64-bit adds, and memory: a load from the address a
 * parameter was stored to, as clang -O0 keeps every variable in the stack frame) are, and
 * the metadata says so (global_buffer), as HIP and amdsim expect.  Through real calls: a
 * value stored as an argument of a callee (IR_STACK_ST aux 1 before its IR_CALL, or
 * IR_CALL_PTR with aux 1 + the callee's index: a module function called directly) is a
 * seed when the callee uses that frame slot as a pointer (callee_ptr[k][offset / 4]); a
 * function compiled on its own marks the slots of its own frame whose loads reach an
 * address (ptr_slot, nslots of 4 bytes). */
void pa_find_pointers(const struct ir_function *ir, struct pa_arena *a, bool *const *callee_ptr,
                      bool *is_ptr, bool *ptr_slot, uint32_t nslots);

#endif
