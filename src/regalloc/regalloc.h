/* Register allocation: the public face of src/regalloc.
 *
 * ra_run assigns physical registers to the virtual registers of a machine function
 * (struct mir_function, src/mir/mir.h), separately for SGPRs and VGPRs, by linear scan
 * over live intervals in the function's linear block order; lowers COPY pseudo-
 * instructions (parallel copy groups with cycle breaking) into moves; rewrites every
 * MIR_VREG operand into a physical MIR_SGPR/MIR_VGPR operand; and records the registers
 * used (fn->num_sgprs, fn->num_vgprs) for the code object. */
#ifndef REGALLOC_REGALLOC_H
#define REGALLOC_REGALLOC_H

#include <stdbool.h>

#include "diag.h"
#include "mir/mir.h"

struct ra_stats {
	unsigned intervals;    /* virtual registers allocated */
	unsigned moves;        /* moves emitted for copies */
	unsigned spilled;      /* SGPR values spilled to VGPR lanes */
	unsigned vgpr_spilled; /* VGPR values spilled to scratch */
	unsigned spill_stores; /* bytes stored to scratch by spill code (static) */
	unsigned spill_loads;  /* bytes loaded from scratch by spill code (static) */
	bool needs_scratch;    /* failed only because VGPRs must spill and !fn->scratch_ready */
	bool over_cost;        /* ra_run_capped stopped: the spill cost passed its cap */
	bool rewritten;        /* the instructions were changed (registers, spill code) */
};

/* What spilling costs (the measure the driver minimises): bytes of spill stores and loads,
 * and 8 per SGPR spilled to a VGPR lane. */
static inline unsigned ra_spill_cost(const struct ra_stats *r)
{
	return r->spill_stores + r->spill_loads + 8 * r->spilled;
}

/* Returns false with a diagnostic (naming the function) when the values cannot be
 * allocated within fn->max_sgprs / fn->max_vgprs; or without one, and with
 * stats->needs_scratch, when VGPRs must spill but scratch is not set up (mir_setup_scratch
 * sets it up; fn may have been changed by SGPR spills by then).  VGPR spills grow
 * fn->scratch_size past the .local frame. */
bool ra_run(struct mir_function *fn, struct ra_stats *stats, struct pa_diag *d);

/* ra_run that gives up, returning false without a diagnostic and with stats->over_cost,
 * as soon as the spill cost exceeds max_cost (0: at the first spill, before any rewrite, so
 * that fn can be allocated again).  The cost only grows from round to round, so a stop
 * means the full allocation would have cost more than max_cost. */
bool ra_run_capped(struct mir_function *fn, struct ra_stats *stats, struct pa_diag *d,
                   unsigned max_cost);

#endif
