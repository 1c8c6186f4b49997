/* Which 64-bit kernel parameters are pointers (internal to src/driver: compile.c uses it
 * for the kernel metadata's value kinds). */
#ifndef DRIVER_PTRPARAMS_H
#define DRIVER_PTRPARAMS_H

#include <stdbool.h>

#include "arena.h"
#include "ir/ir.h"

/* is_ptr[p] = true for each parameter p whose value reaches a memory address (ptrparams.c);
 * is_ptr has ir->nparams zeroed entries; scratch from `a`. */
void pa_find_pointer_params(const struct ir_function *ir, struct pa_arena *a, bool *is_ptr);

#endif
