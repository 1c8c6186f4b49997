/* Independent checker of a register allocation (tests only).
 *
 * ra_check interprets the allocated function symbolically next to a snapshot of the
 * virtual one: every physical register holds a set of labels naming the virtual values
 * it currently holds (a vreg dword, the entry value of a fixed physical register, or an
 * immediate), states meet by intersection at block entries over every linear-CFG path
 * (iterated to a fixed point), moves copy label sets, the three-XOR swap exchanges them,
 * and each use in the allocated program must read a register that holds the value the
 * virtual program reads there.  It shares no code with src/regalloc. */
#ifndef TESTS_REGALLOC_RA_CHECK_H
#define TESTS_REGALLOC_RA_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "mir/mir.h"

/* A deep copy of the blocks and vregs of fn (before allocation). */
struct mir_function ra_check_snapshot(const struct mir_function *fn);

/* Checks `alloc` (after ra_run) against `virt` (its snapshot before).  Returns true when
 * every use reads the right value; otherwise writes the first problem into err. */
bool ra_check(const struct mir_function *virt, const struct mir_function *alloc, char *err,
              size_t errlen);

#endif
