/* Internal interface of src/sched: facts the control-code passes, emission and the listing
 * share (register slots, what an instruction reads and writes, which wait counters it
 * increments, wait instructions per target).  Not a public face: only the .c files
 * of src/sched include it. */
#ifndef SCHED_SCHED_INT_H
#define SCHED_SCHED_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "amd_encode.h"
#include "amd_isa.h"
#include "mir/mir.h"

/* ---- register slots (regs.c) ----
 * One index space for the registers the passes track: scalar registers by their hardware
 * operand code (s0..s105, vcc_lo 106, vcc_hi 107, m0 124, exec_lo 126, exec_hi 127), scc
 * at SCHED_SLOT_SCC and VGPRs from SCHED_SLOT_VGPR0. */
enum {
	SCHED_SLOT_VCC_LO = 106,
	SCHED_SLOT_M0 = 124,
	SCHED_SLOT_EXEC_LO = 126,
	SCHED_SLOT_SCC = 128,
	SCHED_SLOT_VGPR0 = 256,
	SCHED_NUM_SLOTS = 512,
};

/* A run of consecutive slots. */
struct sched_range {
	uint16_t first, count;
};

enum { SCHED_MAX_RANGES = 10 };

/* The table row of a physical instruction (NULL for a pseudo-instruction). */
static inline const struct amd_isa_op *sched_row(const struct mir_insn *in)
{
	return in->op < AMD_NUM_OPCODES ? &amd_isa_rows[in->op] : NULL;
}
/* The slots of one operand (count 0 when it names no tracked register). */
struct sched_range sched_opnd_slots(const struct mir_function *fn, const struct mir_opnd *o);
/* Registers the instruction writes (defs) or reads (uses), explicit operands and the
 * implicit ones (scc, exec of v_cmpx and s_*_saveexec, vcc of v_div_fmas and branches). */
unsigned sched_insn_defs(const struct mir_function *fn, const struct mir_insn *in,
                         struct sched_range out[SCHED_MAX_RANGES]);
unsigned sched_insn_uses(const struct mir_function *fn, const struct mir_insn *in,
                         struct sched_range out[SCHED_MAX_RANGES]);
bool sched_ranges_overlap(const struct sched_range *a, unsigned na, const struct sched_range *b,
                          unsigned nb);
/* Operand index of the value a returning atomic writes (-1: none).  MIR's contract
 * (mir.h, mir_insn.rtn): with rtn set the returned value is opnds[0] and the row's
 * operands follow from opnds[1]. */
int sched_rtn_opnd(const struct mir_insn *in);
/* A returning buffer atomic writes its result over its data operand (opnds[0]). */
bool sched_vdata_returns(const struct mir_insn *in);
/* The literal dword a MIR_RELOC operand is encoded as until its relocation is recorded
 * (never an inline constant, so the encoder writes it as the last dword). */
#define SCHED_RELOC_PLACEHOLDER 0x5eedf00du
/* The MIR_RELOC operand of `in`, or NULL. */
const struct mir_opnd *sched_reloc_opnd(const struct mir_insn *in);
/* Bytes the instruction encodes to (0 when it cannot be encoded), with branch offset 0. */
unsigned sched_insn_bytes(const struct mir_function *fn, const struct mir_insn *in);
/* Byte address just after the s_getpc_b64 flagged MIR_IF_PC_ANCHOR (~0u: none). */
uint32_t sched_anchor_end(const struct mir_function *fn);
/* Index of the first operand of the row's operand list inside in->opnds. */
unsigned sched_row_base(const struct mir_insn *in);

/* ---- wait counters (regs.c) ----
 * The counters a target has, named by what they count; on targets where two share one
 * hardware counter the instruction lands in the shared one (gfx9: stores in LOAD; gfx9-11:
 * scalar memory and messages in DS, which is lgkmcnt there). */
enum sched_counter {
	SCHED_CNT_LOAD,  /* vmcnt / loadcnt */
	SCHED_CNT_STORE, /* vscnt / storecnt (gfx10+) */
	SCHED_CNT_DS,    /* lgkmcnt (gfx9-11) / dscnt (gfx12) */
	SCHED_CNT_KM,    /* kmcnt (gfx12) */
	SCHED_CNT_EXP,   /* expcnt */
	SCHED_NUM_COUNTERS
};
/* Event kinds: results of different kinds in one counter may return out of order. */
enum {
	SCHED_EV_VMEM = 1,
	SCHED_EV_FLAT = 2,
	SCHED_EV_LDS = 4,
	SCHED_EV_SMEM = 8,
	SCHED_EV_MSG = 16,
	SCHED_EV_EXP = 32,
	SCHED_EV_FLAT_LGKM = 64, /* the lgkmcnt side of FLAT: LDS or not, unordered */
	SCHED_EV_UNKNOWN = 128,  /* what a call or write-back may leave (waitcnt.c) */
};
/* Kinds that complete out of order even alone (LLVM: scalar memory reads; the lgkmcnt
 * side of FLAT, which may be LDS or not; messages). */
#define SCHED_EV_UNORDERED (SCHED_EV_SMEM | SCHED_EV_MSG | SCHED_EV_FLAT_LGKM)

struct sched_event {
	uint8_t counter; /* enum sched_counter */
	uint8_t kind;    /* SCHED_EV_* */
};
/* The counters the instruction increments (0..2 events).  THE one place that decides it
 * (row unit/counter/flags; per-instance table APIs may replace the body later). */
unsigned sched_insn_events(const struct amd_target *t, const struct mir_insn *in,
                           struct sched_event ev[2]);
/* The largest count counter c can hold on target t. */
unsigned sched_counter_max(const struct amd_target *t, enum sched_counter c);
const char *sched_counter_name(const struct amd_target *t, enum sched_counter c);

/* A wait: per counter the count to wait for, or SCHED_NO_WAIT. */
enum { SCHED_NO_WAIT = 0xff };
struct sched_wait {
	uint8_t n[SCHED_NUM_COUNTERS];
};
void sched_wait_none(struct sched_wait *w);
bool sched_wait_is_none(const struct sched_wait *w);
/* The simm16 of s_waitcnt (gfx9-11) for the vm/exp/lgkm fields of w (others all ones). */
uint32_t sched_waitcnt_simm(const struct amd_target *t, const struct sched_wait *w);
/* The wait instructions for w on target t (s_waitcnt [+ s_waitcnt_vscnt]; gfx12 one
 * s_wait_* per counter); returns how many were written. */
unsigned sched_wait_insns(const struct amd_target *t, const struct sched_wait *w,
                          struct mir_insn out[SCHED_NUM_COUNTERS]);
/* If `in` is a wait instruction: what it waits for (true), else false. */
bool sched_wait_of_insn(const struct amd_target *t, const struct mir_insn *in,
                        struct sched_wait *w);

/* ---- conversion to the encoder's form (emit.c) ----
 * Fills *out from in; a MIR_BLOCK operand becomes the immediate `branch_offset`. */
void sched_to_amd_inst(const struct mir_function *fn, const struct mir_insn *in,
                       int32_t branch_offset, struct amd_inst *out);

/* ---- analyses for the listing ----
 * Per-instruction notes (NULL or arena text), indexed like the function's instructions
 * flattened in linear order. */
const char **sched_waitcnt_notes(const struct mir_function *fn, struct pa_arena *arena);
const char **sched_hazard_notes(const struct mir_function *fn, struct pa_arena *arena);
/* Predecessor lists of the linear CFG: preds[b] (arena), npreds[b]. */
void sched_preds(const struct mir_function *fn, struct pa_arena *arena, uint32_t ***preds,
                 uint32_t **npreds);

#endif
