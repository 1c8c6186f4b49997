/* cu_trace: records each wave's executed instructions for the CU timing model (cu_model.h).
 *
 * The interpreter (exec.c) opens a record before an instruction runs and closes it after;
 * in between, the checker's register hooks (check.c) add the register ranges the
 * semantics read and wrote, sim_chk_issue the counters a memory instruction increments,
 * sim_chk_wait the counts an s_waitcnt waits for, and the memory semantics (sem_mem.c) every
 * lane's address.  Closing a record turns the addresses into what the timing needs: LDS
 * bank-conflict cycles (32 banks of 4 bytes; distinct dwords in one bank serialise, the same
 * dword is a broadcast) and, for global memory, the distinct 128-byte lines and how many of
 * them the launch touches for the first time (those come from DRAM).
 * requires: a trace set up by cu_trace_begin_wg; breaks: nothing (values are untouched).
 * complexity: O(registers + lanes log lanes) per instruction. */
#include <stdlib.h>
#include <string.h>

#include "cu_model.h"

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	uint32_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	*cap = n;
	return pa_xrealloc(p, (size_t)n * elem);
}

void cu_trace_begin_wg(struct sim_ctx *c)
{
	struct cu_trace *t = c->tr;
	if (t->nwgs == t->capwgs) {
		t->capwgs = t->capwgs ? t->capwgs * 2 : 16;
		t->wgs = pa_xrealloc(t->wgs, t->capwgs * sizeof *t->wgs);
	}
	struct cu_wg_trace *g = &t->wgs[t->nwgs++];
	g->nwaves = c->nwaves;
	g->waves = pa_xcalloc(c->nwaves, sizeof *g->waves);
	for (unsigned i = 0; i < c->nwaves; i++)
		c->waves[i].tr = &g->waves[i];
}

static void classify(struct cu_rec *r, unsigned cls)
{
	static const uint8_t unit[SIM_NUM_CLASSES] = {
	        [SIM_CLASS_SALU] = CU_SALU,        [SIM_CLASS_SMEM] = CU_SALU,
	        [SIM_CLASS_VALU] = CU_VALU,        [SIM_CLASS_VALU_TRANS] = CU_TRANS,
	        [SIM_CLASS_VALU_F64] = CU_VALU,    [SIM_CLASS_VMEM_LOAD] = CU_VMEM,
	        [SIM_CLASS_VMEM_STORE] = CU_VMEM,  [SIM_CLASS_VMEM_ATOMIC] = CU_VMEM,
	        [SIM_CLASS_LDS] = CU_LDS,          [SIM_CLASS_BRANCH] = CU_BRANCH,
	        [SIM_CLASS_WAITCNT] = CU_INTERNAL, [SIM_CLASS_NOP] = CU_INTERNAL,
	        [SIM_CLASS_BARRIER] = CU_INTERNAL, [SIM_CLASS_MISC] = CU_SALU,
	        [SIM_CLASS_MATRIX] = CU_VALU};
	static const uint8_t lat[SIM_NUM_CLASSES] = {
	        [SIM_CLASS_SALU] = CU_L_SALU,       [SIM_CLASS_SMEM] = CU_L_SMEM,
	        [SIM_CLASS_VALU] = CU_L_VALU,       [SIM_CLASS_VALU_TRANS] = CU_L_TRANS,
	        [SIM_CLASS_VALU_F64] = CU_L_F64,    [SIM_CLASS_VMEM_LOAD] = CU_L_VMEM,
	        [SIM_CLASS_VMEM_STORE] = CU_L_VMEM, [SIM_CLASS_VMEM_ATOMIC] = CU_L_VMEM,
	        [SIM_CLASS_LDS] = CU_L_LDS,         [SIM_CLASS_BRANCH] = CU_L_BRANCH,
	        [SIM_CLASS_WAITCNT] = CU_L_NONE,    [SIM_CLASS_NOP] = CU_L_NONE,
	        [SIM_CLASS_BARRIER] = CU_L_NONE,    [SIM_CLASS_MISC] = CU_L_SALU,
	        [SIM_CLASS_MATRIX] = CU_L_MATRIX};
	r->unit = unit[cls];
	r->lat = lat[cls];
}

void cu_trace_insn_begin(struct sim_wave *w, const struct sim_insn *in)
{
	struct cu_wave_trace *t = w->tr;
	struct cu_trace *lt = w->ctx->tr;
	if (lt->total_recs >= CU_MAX_RECS) {
		lt->overflow = true;
		return;
	}
	lt->total_recs++;
	t->recs = grow(t->recs, &t->caprecs, t->nrecs + 1, sizeof *t->recs);
	struct cu_rec *r = &t->recs[t->nrecs++];
	memset(r, 0, sizeof *r);
	memset(r->wait, 255, sizeof r->wait);
	r->regs = t->nranges;
	classify(r, in->sem->cls);
	t->recording = true;
	t->naddrs = 0;
	t->lds_access = false;
}

void cu_trace_reg(struct sim_wave *w, unsigned reg, unsigned n, bool write)
{
	struct cu_wave_trace *t = w->tr;
	if (!t->recording || !n)
		return;
	struct cu_rec *r = &t->recs[t->nrecs - 1];
	if (r->nregs == 255 || reg >= CU_NUM_REGS)
		return;
	if (n > 127)
		n = 127;
	t->ranges = grow(t->ranges, &t->capranges, t->nranges + 1, sizeof *t->ranges);
	t->ranges[t->nranges++] = (uint32_t)reg | (uint32_t)n << 10 | (uint32_t)write << 17;
	r->nregs++;
}

void cu_trace_mem(struct sim_wave *w, uint8_t cnts, bool in_order)
{
	struct cu_wave_trace *t = w->tr;
	if (t->recording)
		t->recs[t->nrecs - 1].cnts = (uint8_t)(cnts | (in_order ? 0x80 : 0));
}

void cu_trace_wait(struct sim_wave *w, int cnt, unsigned n)
{
	struct cu_wave_trace *t = w->tr;
	if (!t->recording)
		return;
	struct cu_rec *r = &t->recs[t->nrecs - 1];
	uint8_t v = n > 254 ? 254 : (uint8_t)n;
	if (v < r->wait[cnt])
		r->wait[cnt] = v;
}

void cu_trace_addr(struct sim_wave *w, uint64_t addr, unsigned n, bool lds)
{
	struct cu_wave_trace *t = w->tr;
	if (!t->recording || !n)
		return;
	unsigned shift = lds ? 2 : 7; /* LDS dwords; global 128-byte lines */
	uint64_t first = addr >> shift, last = (addr + n - 1) >> shift;
	t->addrs = grow(t->addrs, &t->capaddrs, t->naddrs + (uint32_t)(last - first + 1),
	                sizeof *t->addrs);
	for (uint64_t a = first; a <= last; a++)
		t->addrs[t->naddrs++] = a;
	t->lds_access |= lds;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Cycles the LDS needs for these dword accesses: 32 dwords a cycle, and distinct dwords in
 * the same bank one after another. */
static unsigned lds_cycles(uint64_t *dw, uint32_t n)
{
	unsigned passes = (n + 31) / 32;
	qsort(dw, n, sizeof *dw, cmp_u64);
	unsigned per_bank[32] = {0}, worst = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i && dw[i] == dw[i - 1])
			continue; /* broadcast */
		unsigned b = (unsigned)(dw[i] % 32);
		if (++per_bank[b] > worst)
			worst = per_bank[b];
	}
	return worst > passes ? worst : passes;
}

/* Inserts a 128-byte line into the launch's set; true when it was not there (cold). */
static bool touch_line(struct cu_trace *t, uint64_t line)
{
	if (2 * (t->nlines + 1) > t->caplines) {
		uint64_t oldcap = t->caplines, *old = t->lines;
		t->caplines = oldcap ? oldcap * 2 : 4096;
		t->lines = pa_xcalloc(t->caplines, sizeof *t->lines);
		t->nlines = 0;
		for (uint64_t i = 0; i < oldcap; i++)
			if (old[i])
				touch_line(t, old[i] - 1);
		free(old);
	}
	uint64_t key = line + 1, mask = t->caplines - 1;
	for (uint64_t h = (key * 0x9E3779B97F4A7C15ull) & mask;; h = (h + 1) & mask) {
		if (t->lines[h] == key)
			return false;
		if (!t->lines[h]) {
			t->lines[h] = key;
			t->nlines++;
			return true;
		}
	}
}

static void close_memory(struct sim_wave *w, struct cu_rec *r)
{
	struct cu_wave_trace *t = w->tr;
	if (!t->naddrs)
		return;
	if (t->lds_access) {
		unsigned c = lds_cycles(t->addrs, t->naddrs);
		r->busy = (uint16_t)(c > 0xffff ? 0xffff : c);
		if (r->lat == CU_L_VMEM) /* FLAT to LDS */
			r->lat = CU_L_LDS;
		return;
	}
	qsort(t->addrs, t->naddrs, sizeof *t->addrs, cmp_u64);
	unsigned lines = 0, cold = 0;
	for (uint32_t i = 0; i < t->naddrs; i++) {
		if (i && t->addrs[i] == t->addrs[i - 1])
			continue;
		lines++;
		cold += touch_line(w->ctx->tr, t->addrs[i]);
	}
	r->busy = (uint16_t)lines;
	r->cold = (uint16_t)cold;
}

void cu_trace_insn_end(struct sim_wave *w, const struct sim_insn *in, uint32_t matrix_busy)
{
	struct cu_wave_trace *t = w->tr;
	if (!t->recording)
		return;
	t->recording = false;
	struct cu_rec *r = &t->recs[t->nrecs - 1];
	close_memory(w, r);
	if (r->lat == CU_L_MATRIX)
		r->busy = (uint16_t)matrix_busy;
	if (r->lat == CU_L_BRANCH)
		r->busy = w->next_pc != in->pc + in->size;
	if (in->sem->cls == SIM_CLASS_NOP) {
		r->kind = CU_K_NOP;
		r->busy = (uint16_t)((in->imm & 0xf) + 1);
	}
	for (int i = 0; i < SIM_NUM_CNTS; i++)
		if (r->wait[i] != 255)
			r->kind = CU_K_WAIT;
	if (w->done) {
		r->kind = CU_K_END;
	} else if (w->at_barrier) {
		r->kind = CU_K_BARRIER;
	} else if (w->yielded) {
		r->kind = CU_K_SLEEP;
		r->busy = (uint16_t)(64 * (in->imm & 0x7f));
	}
}

void cu_trace_free(struct cu_trace *t)
{
	if (!t)
		return;
	for (uint32_t g = 0; g < t->nwgs; g++) {
		for (unsigned i = 0; i < t->wgs[g].nwaves; i++) {
			free(t->wgs[g].waves[i].recs);
			free(t->wgs[g].waves[i].ranges);
			free(t->wgs[g].waves[i].addrs);
		}
		free(t->wgs[g].waves);
	}
	free(t->wgs);
	free(t->lines);
	free(t);
}
