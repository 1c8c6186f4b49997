/* Register allocation internals: the state the passes of src/regalloc share.
 *
 * Program points: instructions are numbered in linear order (block 0 first); instruction
 * i reads at point 2i and writes at point 2i+1, so a value whose last read is at i and a
 * value written by i may share a register.  A copy group (a run of consecutive parallel
 * COPYs, or one COPY) reads all its sources at the point of its first instruction and
 * writes all its destinations at the def point of its last one. */
#ifndef REGALLOC_RA_INT_H
#define REGALLOC_RA_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "mir/mir.h"
#include "regalloc/regalloc.h"

enum { RA_MAX_SGPRS = 128, RA_MAX_VGPRS = 512, RA_NO_POINT = UINT32_MAX };

/* Register file index: 0 = SGPRs, 1 = VGPRs. */
enum ra_file { RA_SGPR, RA_VGPR, RA_NUM_FILES };

/* Points a physical register is referenced at before allocation, [first, last]. */
struct ra_fixed {
	uint32_t first, last; /* RA_NO_POINT when never referenced */
};

struct ra_interval {
	uint32_t start, end; /* RA_NO_POINT when the vreg is never referenced */
};

struct ra_ctx {
	struct mir_function *fn;
	struct pa_diag *diag;
	struct ra_stats *stats;
	uint32_t *first_ins; /* linear index of each block's first instruction (nblocks + 1) */
	/* per vreg: first block start where it is live-in, last block end where it is
	 * live-out (RA_NO_POINT: live across no block boundary) (liveness.c) */
	struct ra_interval *live_span;
	struct ra_interval *intervals; /* one per vreg (intervals.c) */
	/* per dword of each vreg: dword_iv[dword_base[v] + k] for dword k, inside intervals[v]
	 * (a tuple built or read dword by dword needs each register only while that dword is
	 * live) */
	uint32_t *dword_base;
	struct ra_interval *dword_iv;
	struct ra_fixed fixed[RA_NUM_FILES][RA_MAX_VGPRS]; /* fixed physical operands */
	unsigned budget[RA_NUM_FILES];                     /* registers the allocator may use */
	/* the lowest-first trial (regalloc.c): every value takes the lowest free register, and
	 * a value that finds none fails the round (no spill, no diagnostic) */
	bool lowest_first;
	/* SGPR spilling (linscan.c decides, spill.c rewrites; kept across rounds) */
	uint32_t spillable_vregs; /* vregs below this number are the input's, others temps */
	bool *spilled;            /* per vreg (spillable ones): spill it this round */
	uint32_t *slot_lane;      /* per spillable vreg: first lane of its spill slot */
	uint32_t *slot_vgpr;      /* per spillable vreg: VGPR vreg holding its lanes */
	uint32_t lanes_used;      /* lanes handed out in the current spill VGPR */
	uint32_t spill_vgpr;      /* current spill VGPR vreg (UINT32_MAX: none yet) */
	/* VGPR spilling (spill_vgpr.c) */
	bool *no_spill;        /* per spillable vreg: read or written outside EXEC */
	uint32_t *slot_offset; /* per spillable VGPR vreg: scratch byte offset, or none */
	uint32_t spill_base;   /* first scratch byte after the .local frame */
	uint32_t spill_bytes;  /* scratch bytes per lane given to slots so far */
};

enum ra_result { RA_OK, RA_FAILED, RA_SPILL };

static inline enum ra_file ra_file_of(unsigned mir_kind)
{
	return mir_kind == MIR_SGPR ? RA_SGPR : RA_VGPR;
}

/* One past the last instruction of the copy group or single instruction at insns[i]. */
uint32_t ra_group_end(const struct mir_block *bl, uint32_t i);
/* Whether operand k of `in` is read (sources, and destinations the row also reads). */
bool ra_opnd_is_use(const struct mir_insn *in, unsigned k);
/* Reports an internal error naming the function, block and instruction. */
bool ra_internal(struct ra_ctx *ctx, uint32_t b, uint32_t i, const char *what);

/* Reports that the values do not fit in the budget of file f. */
bool ra_report_pressure(struct ra_ctx *ctx, enum ra_file f);

/* The passes, in order (each in its own file). */
void ra_fill_liveness(struct ra_ctx *ctx);
bool ra_fill_intervals(struct ra_ctx *ctx);
enum ra_result ra_linscan(struct ra_ctx *ctx);
bool ra_spill_sgprs(struct ra_ctx *ctx);
bool ra_spill_vgprs(struct ra_ctx *ctx);
void ra_rewrite(struct ra_ctx *ctx);
bool ra_lower_copies(struct ra_ctx *ctx);

#endif
