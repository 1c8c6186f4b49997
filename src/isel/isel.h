/* Instruction selection: the public face of src/isel.
 *
 * Selection turns the SSA IR of one kernel or function (src/ir, after its CFG and
 * uniformity analyses) into machine IR on virtual registers (src/mir/mir.h), with
 * EXEC-mask control flow.  Everything after selection depends on the MIR only. */
#ifndef ISEL_ISEL_H
#define ISEL_ISEL_H

#include <stdbool.h>

#include "diag.h"
#include "ir/ir.h"
#include "mir/mir.h"
#include "target.h"

/* Selects machine code for one kernel: IR (after ir_cfg_compute and ir_uniformity) ->
 * MIR on virtual registers, with EXEC-mask control flow, in `arena`.  Unsupported
 * operations are reported at their PTX line; returns false then.  Scratch is set up for
 * .local (and call frames) only; VGPR spills in a kernel without it get it afterwards
 * (mir_setup_scratch, see ra_stats.needs_scratch). */
bool isel_run(const struct ir_function *ir, const struct amd_target *t, unsigned wave_size,
              struct pa_arena *arena, struct mir_function *out, struct pa_diag *d);

/* Real calls (sel_call.c).  After register allocation of a function compiled on its own
 * (fn->is_func): brackets it with the prologue and epilogue that save and restore every
 * register it uses.  isel_link_calls appends the blocks of `part` to `into`, pointing its
 * s_call_b64 instructions (target: the callee's index in its IR's callees) at
 * callee_entry[index], a block of `into`. */
void isel_call_frame(struct mir_function *fn);
void isel_link_calls(struct mir_function *into, const struct mir_function *part,
                     const uint32_t *callee_entry);

#endif /* ISEL_ISEL_H */
