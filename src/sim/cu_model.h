/* The compute-unit timing model of amdsim (cu_trace.c records, cu_model.c schedules).
 *
 * Trace-driven: while the functional run executes a launch (which stays the judge of every
 * value), each wave appends one record per executed instruction to its trace: the issue
 * unit, the registers it read and wrote (from the checker's register hooks), for memory
 * instructions the counters it increments, the LDS bank-conflict cycles and the global
 * cache lines of its actual per-lane addresses, for s_waitcnt the counts it waits for, and
 * the control events (barrier, sleep, end, taken branch).  After the launch, cu_model.c
 * schedules the recorded waves of all workgroups on one compute unit cycle by cycle (the
 * whole launch, as if the GPU had one CU; `--cu-fill` repeats it until the CU is full).
 * Nothing here runs unless sim_options.cu_model is set: the functional path pays one NULL
 * test per hook. */
#ifndef CU_MODEL_H
#define CU_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_int.h"

/* Issue categories of a SIMD (one instruction of each per issue cycle, each from a
 * different wave) plus the trans unit of RDNA and the internal (no unit) instructions. */
enum cu_unit {
	CU_VALU,
	CU_TRANS, /* RDNA: its own unit; CDNA: issued to the VALU */
	CU_SALU,  /* SALU and scalar memory share the scalar issue port */
	CU_VMEM,
	CU_LDS,
	CU_BRANCH,   /* branches and messages */
	CU_INTERNAL, /* s_waitcnt, s_nop, s_barrier, hints: handled by the sequencer */
	CU_NUM_UNITS
};

enum cu_kind {
	CU_K_PLAIN,
	CU_K_WAIT,    /* s_waitcnt: wait[] holds the counts */
	CU_K_BARRIER, /* the wave waits for its workgroup */
	CU_K_SLEEP,   /* s_sleep: busy = cycles */
	CU_K_NOP,     /* s_nop: busy = wait states */
	CU_K_END,
};

enum cu_lat {
	CU_L_VALU,
	CU_L_TRANS,
	CU_L_F64,
	CU_L_MATRIX, /* busy = matrix unit cycles */
	CU_L_SALU,
	CU_L_SMEM,
	CU_L_VMEM,   /* busy = 128-byte lines, cold = lines first touched by the launch */
	CU_L_LDS,    /* busy = bank-conflict cycles */
	CU_L_BRANCH, /* busy = 1 when taken */
	CU_L_NONE,
};

struct cu_rec {
	uint32_t regs; /* first register range in the wave's range array */
	uint16_t busy; /* see enum cu_lat */
	uint16_t cold; /* VMEM lines first touched (they come from DRAM) */
	uint8_t unit;  /* enum cu_unit */
	uint8_t kind;  /* enum cu_kind */
	uint8_t lat;   /* enum cu_lat */
	uint8_t nregs; /* register ranges */
	uint8_t cnts;  /* memory: counters incremented (bit per enum sim_cnt); bit 7: in order */
	uint8_t wait[SIM_NUM_CNTS]; /* CU_K_WAIT: counts waited for, 255 = not this counter */
};

/* A register range: register index (SGPRs 0..127, VGPRs and AGPRs from 128) | count << 10 |
 * write << 17. */
enum { CU_REG_V0 = 128, CU_NUM_REGS = 128 + SIM_MAX_VREGS };

struct cu_wave_trace {
	struct cu_rec *recs;
	uint32_t nrecs, caprecs;
	uint32_t *ranges;
	uint32_t nranges, capranges;
	bool recording; /* a record for the current instruction is open */
	/* the current instruction's memory accesses (LDS dword addresses or global lines) */
	uint64_t *addrs;
	uint32_t naddrs, capaddrs;
	bool lds_access;
};

struct cu_wg_trace {
	struct cu_wave_trace *waves;
	unsigned nwaves;
};

/* One launch's traces and the state the recording needs. */
struct cu_trace {
	struct cu_wg_trace *wgs;
	uint32_t nwgs, capwgs;
	uint64_t *lines; /* open-addressing set of 128-byte lines touched so far (0 = empty) */
	uint64_t nlines, caplines;
	uint64_t total_recs;
	bool overflow; /* more records than CU_MAX_RECS: no CU figures */
};

enum { CU_MAX_RECS = 1 << 26 };

/* cu_trace.c: recording (each a no-op unless the wave has a trace) */
void cu_trace_begin_wg(struct sim_ctx *c);
void cu_trace_insn_begin(struct sim_wave *w, const struct sim_insn *in);
void cu_trace_insn_end(struct sim_wave *w, const struct sim_insn *in, uint32_t matrix_busy);
void cu_trace_reg(struct sim_wave *w, unsigned reg, unsigned n, bool write);
void cu_trace_mem(struct sim_wave *w, uint8_t cnts, bool in_order);
void cu_trace_wait(struct sim_wave *w, int cnt, unsigned n);
void cu_trace_addr(struct sim_wave *w, uint64_t addr, unsigned n, bool lds);
void cu_trace_free(struct cu_trace *t);

/* cu_model.c: schedules the launch on one CU and fills stats->cu */
void cu_model_run(struct sim_ctx *c, uint32_t block_threads);

#endif
