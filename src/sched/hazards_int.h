/* Internal interface of the hazard pass (hazards.c, hazards_matrix.c): the walk's state
 * and verdicts, the instruction classes and operand helpers both files use, and the MFMA/WMMA
 * rule family's consumers and steps (hazards_matrix.c) that hazards.c's rule table names.
 * Only these two files include it. */
#ifndef SCHED_HAZARDS_INT_H
#define SCHED_HAZARDS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "sched/sched_int.h"

/* What a rule's step says of one earlier instruction. */
enum step { STEP_CONTINUE, STEP_HIT, STEP_EXPIRED };

enum { MAX_FORWARD_SRCS = 4 };
struct look {
	unsigned states; /* wait states between the instruction looked at and the consumer */
	unsigned count;  /* instructions between them */
	unsigned valu, trans;
	/* VALUPartialForwarding: VALUs between the consumer and the write of each VGPR
	 * source / of exec, plus one (0: not seen yet) */
	uint8_t def_pos[MAX_FORWARD_SRCS], exec_pos;
	/* FIX_NOP rules whose need depends on the producer (MFMA): their step never hits but
	 * records here the most wait states a producer still lacks, and the walk goes on to
	 * older producers until the rule's `states` (the largest need) have passed */
	unsigned miss;
};

struct delay_memo;
struct hz {
	struct mir_function *fn;
	enum amd_gen gen;
	uint32_t **preds, *npreds;
	uint32_t cur_block; /* the block whose instructions the walk starts in */
	bool ignore_fixes;  /* for notes: look through inserted fixes */
	bool no_mfma;       /* the function has no MFMA (see rule_needs) */
	uint8_t *visited;   /* per block, for memoryless rules (scratch) */
	/* delay_for's memo of the block's rewritten instructions (fresh[]): unit and registers
	 * written, filled as its searches first reach each one (they look back up to 64
	 * instructions from every VALU; fresh only grows, and only an s_delay_alu's operand
	 * changes in place); entries of another block have another stamp */
	struct delay_memo *memo;
	uint32_t memo_cap, stamp;
	struct sched_range *pool; /* the memo's registers */
	uint32_t npool, pool_cap;
	uint32_t last_trans; /* the block's latest TRANS in fresh[] (UINT32_MAX: none yet) */
	/* per block, for the MFMA-producer rules' walks in a function without MFMA (walk):
	 * its wait states (block_states) and instructions as it is now; block_known[b] is
	 * cleared when block b is rewritten */
	uint32_t *block_states;
	bool *block_known;
};

/* ---- instruction classes (hazards.c's and the matrix rules') ---- */

static inline unsigned hz_unit_of(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	return row ? row->unit : AMD_UNIT_SALU;
}

static inline bool hz_is_valu(const struct mir_insn *in)
{
	unsigned u = hz_unit_of(in);
	return u == AMD_UNIT_VALU || u == AMD_UNIT_TRANS;
}

static inline bool hz_is_vmem(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	if (!row)
		return false;
	return row->format == AMD_FMT_FLAT || row->format == AMD_FMT_GLOBAL ||
	       row->format == AMD_FMT_SCRATCH || row->format == AMD_FMT_MUBUF ||
	       row->format == AMD_FMT_MIMG;
}

/* Whether prev writes a register in `slot_lo..slot_hi` that consumer reads (uses) or
 * writes (defs) (hazards.c). */
bool hz_writes_read(const struct hz *hz, const struct mir_insn *prev,
                    const struct mir_insn *consumer, unsigned slot_lo, unsigned slot_hi);

/* ---- MFMA/WMMA dependency rules (hazards_matrix.c) ---- */

/* The matrix facts of an MFMA (NULL for any other instruction). */
const struct amd_matrix_info *hz_mfma_of(const struct mir_insn *in);
/* Consumers: an MFMA; a VALU, TRANS, memory or LDS instruction (readers of an MFMA's D or
 * overwriters of its srcC); a WMMA. */
bool hz_mfma_consumer(const struct hz *hz, const struct mir_insn *in);
bool hz_matrix_reader_consumer(const struct hz *hz, const struct mir_insn *in);
bool hz_wmma_consumer(const struct hz *hz, const struct mir_insn *in);
/* Steps (see struct rule): the MFMA-producer ones record the wait states still missing in
 * lk->miss and never hit; the others hit on their producer. */
enum step hz_mfma_result_step(const struct hz *hz, const struct mir_insn *c,
                              const struct mir_insn *p, struct look *lk);
enum step hz_mfma_srcc_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                            struct look *lk);
enum step hz_mfma_war_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                           struct look *lk);
enum step hz_valu_to_mfma_step(const struct hz *hz, const struct mir_insn *c,
                               const struct mir_insn *p, struct look *lk);
enum step hz_wmma_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                       struct look *lk);

#endif
