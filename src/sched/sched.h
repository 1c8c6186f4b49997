/* Control codes and emission: the public face of src/sched.
 *
 * After register allocation (every operand physical), these passes make the machine code
 * correct for the hardware's timing and turn it into bytes:
 *   sched_vopd     fuses independent VOP1/VOP2 pairs into RDNA dual-issue VOPD instructions;
 *   sched_waitcnt  inserts s_waitcnt (gfx9-11: vmcnt/expcnt/lgkmcnt, s_waitcnt_vscnt on
 *                  gfx10/11) or gfx12's s_wait_loadcnt/storecnt/dscnt/kmcnt, from a per-register
 *                  scoreboard of pending memory results, merged over the CFG to a fixed point;
 *   sched_hazards  inserts s_nop for the software hazards (gfx90a/gfx942) and s_delay_alu
 *                  (gfx11/gfx12);
 *   sched_relax    turns branches beyond the 16-bit offset into s_getpc/s_setpc sequences;
 *   sched_emit     encodes the function, resolving branch targets;
 *   sched_dump     prints the listing with each instruction's control annotation (what it
 *                  waits for, which counter it increments, stalls), maxas-style. */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"
#include "mir/mir.h"

struct sched_stats {
	unsigned waits;  /* wait instructions inserted */
	unsigned nops;   /* s_nop inserted */
	unsigned delays; /* s_delay_alu inserted */
};

/* List scheduling within blocks (list.c): before allocation (virtual_regs: operands are
 * virtual registers; the caller keeps a copy in case the result needs too many
 * registers) or after it, before the waits. */
void sched_list(struct mir_function *fn, bool virtual_regs);
/* What sched_list before allocation changed: the order it gave each region (in fn->arena),
 * so that a deep copy made later (sched_mir_copy) can be put back in selection's order by
 * sched_list_undo -- a few bytes per instruction kept instead of a copy of the MIR. */
struct sched_undo {
	struct sched_undo_region *regions;
	uint32_t n, cap;
};
void sched_list_recorded(struct mir_function *fn, struct sched_undo *undo);
void sched_list_undo(struct mir_function *fn, struct sched_undo *undo);
/* A deep copy of fn's blocks and virtual registers in fn->arena (to retry allocation). */
void sched_mir_copy(const struct mir_function *fn, struct mir_function *out);
/* RDNA dual issue (vopd.c): fuses pairs of independent VOP1/VOP2 instructions of a
 * wave32 block on gfx11/gfx12 into VOPD instructions (MIR_IF_DUAL) after allocation, before
 * the waits; returns the number of pairs. */
unsigned sched_vopd(struct mir_function *fn);
void sched_waitcnt(struct mir_function *fn, struct sched_stats *stats);
void sched_hazards(struct mir_function *fn, struct sched_stats *stats);

/* A relocation of the code: the 32-bit literal at byte `offset` gets the low (kind
 * MIR_RELOC_REL32_LO) or high dword of S + addend - P (R_AMDGPU_REL32_LO/HI, P its own
 * address); the addend already holds the literal's distance from its s_getpc anchor. */
struct sched_reloc {
	uint32_t offset;
	uint8_t kind; /* enum mir_reloc_kind */
	const char *symbol;
	int64_t addend;
};

/* The relocation addend of MIR_RELOC operand `r` whose literal is at byte `literal_at`, the
 * s_getpc_b64 anchor ending at `anchor_end` (also what -S prints after sym@rel32@lo). */
static inline int64_t sched_reloc_addend(const struct mir_reloc *r, uint32_t literal_at,
                                         uint32_t anchor_end)
{
	return (int64_t)literal_at - (int64_t)anchor_end + r->addend;
}

/* Where the instructions from `offset` on (to the next entry's offset, or the end) came
 * from: the PTX line of their statement (0: none, e.g. the entry's set-up). */
struct sched_line {
	uint32_t offset;
	uint32_t src_line;
};

/* Machine code of one function: `code` (arena memory), `size` bytes, a multiple of 4. */
struct sched_code {
	uint8_t *code;
	size_t size;
	struct sched_reloc *relocs; /* the MIR_RELOC literals, in code order */
	uint32_t nrelocs, relocs_cap;
	struct sched_line *lines; /* one entry where src_line changes, in code order (for line
	                           * information: -lineinfo) */
	uint32_t nlines, lines_cap;
};
/* Branch relaxation (relax.c): rewrites every branch beyond the 16-bit offset into a long
 * branch through s_getpc/s_setpc on a free SGPR pair (grows fn->num_sgprs), iterating to
 * a fixed point; run it last, before sched_emit and the listing.  False with a diagnostic
 * when no pair is free or SCC is live into a far target. */
bool sched_relax(struct mir_function *fn, struct pa_arena *arena, struct pa_diag *d);
/* Encodes fn (after allocation and the passes above); false with a diagnostic when an
 * instruction cannot be encoded or a branch is out of range. */
bool sched_emit(const struct mir_function *fn, struct pa_arena *arena, struct sched_code *out,
                struct pa_diag *d);

/* Listing for --dump-sched (annotated) or -S (assembly llvm-mc-19 accepts, annotations
 * as comments): labels for branch targets, one instruction per line. */
void sched_dump(FILE *out, const struct mir_function *fn, bool as_assembly);

#endif
