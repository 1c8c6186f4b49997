/* cu_model: schedules a recorded launch (cu_trace.c) on one compute unit, cycle by cycle.
 *
 * Residency: workgroups are admitted in launch order while the CU has room for all their
 * waves: per SIMD wave slots, VGPRs (the descriptor's granulated count rounded to the
 * allocation granule) and on gfx9 SGPRs; per CU the LDS and the workgroup (barrier) slots.
 * A workgroup's resources return when its last wave ends.  Issue: every issue cycle of a
 * SIMD (CDNA: each SIMD every 4th cycle, wave64 VALU taking 4 cycles on 16 lanes; RDNA:
 * every cycle), its resident waves are considered oldest first and each issues at most one
 * instruction, at most one per issue category (VALU, SALU/SMEM, VMEM, LDS, branch/message,
 * RDNA's trans unit; s_waitcnt/s_nop/s_barrier need no unit).  An instruction issues when
 * the registers it reads and writes are ready (VALU, trans, f64, SALU and matrix results
 * after their dependency latency; loads at their completion, which s_waitcnt normally
 * covers), its unit is free, and for s_waitcnt when at most N of the wave's operations of
 * that counter are outstanding: a wait blocks only its own wave.  Memory: the CU's vector
 * memory pipe takes one instruction at a time for max(address passes, lines x 128 B / L1
 * bytes per cycle) cycles, then the L2 latency; lines the launch touches for the first time
 * also pass the CU's share of DRAM bandwidth and pay the DRAM latency; LDS takes the
 * recorded bank-conflict cycles in its pipe, then its latency; scalar loads their latency.
 * s_barrier releases the workgroup's waves once all its live waves arrived.  Cycles in which
 * a SIMD issues nothing are charged to the reason the oldest wave on it could not issue.
 * Deterministic: integers only, fixed orders, no randomness.
 * requires: a complete trace (no fault); breaks: nothing.
 * complexity: O(cycles x resident waves + instructions x registers); idle stretches are
 * skipped to the next event. */
#include <stdlib.h>
#include <string.h>

#include "cu_model.h"

/* Constants per family, in shader clock cycles.  Sources (docs/SIMULATOR.md has the list):
 *  [GCN]   AMD "Graphics Cores Next architecture" white paper (2012) and the CDNA2/CDNA3 ISA
 *          guides: 4 SIMD16 per CU, each SIMD gets an issue cycle every 4 clocks, up to one
 *          instruction per category from different waves; a wave64 VALU op takes 4 cycles.
 *  [CDNA2] AMD CDNA2 white paper: MI250X FP64 vector rate = FP32 rate (full-rate f64).
 *  [RDNA]  AMD RDNA white paper (2019): SIMD32 issues a wave32 VALU op every cycle, wave64
 *          in two passes; transcendentals on their own unit at quarter rate.
 *  [LLVM]  LLVM 19 AMDGPU scheduling model (SISchedule.td): GFX10/GFX11 models VALU latency
 *          5, trans 10, f64 22 (gfx10) / 38 (gfx11), SALU 2, LDS 20, SMEM 20, VMEM 320;
 *          the gfx9 models (latency unit = 4 cycles): VALU 1, trans 4, LDS 5, SMEM 5,
 *          VMEM 80, branch 8.
 *  [RDNA3] RDNA3 ISA guide, S_DELAY_ALU: a VALU result is waited for up to 4 VALU
 *          instructions later (VALU_DEP_1..4), i.e. a dependency latency of about 5 cycles.
 *  [BW]    per-CU share of peak DRAM bandwidth = bandwidth / CUs / clock: MI250X GCD
 *          1.6 TB/s / 110 / 1.7 GHz = 8.6 B/clk; MI300X 5.3 TB/s / 304 / 2.1 GHz = 8.3;
 *          RX 7900 XTX 960 GB/s / 96 / 2.5 GHz = 4.0; RX 6900 XT 512 GB/s / 80 / 2.25 GHz =
 *          2.8; RX 9070 XT 640 GB/s / 64 / 2.97 GHz = 3.4 (vendor spec sheets).
 *  [L1]    vector L1 / L0 delivers one 64-byte (CDNA2, RDNA2) or 128-byte (CDNA3, RDNA3/4)
 *          line per clock (CDNA3 white paper; Chips and Cheese's RDNA3 microbenchmarks).
 *  [LDS]   32 banks x 4 bytes, 128 B/clk per CU (GCN/RDNA white papers, CDNA3 ISA guide).
 *  [LAT]   DRAM adds several hundred cycles over an L2 hit (Chips and Cheese pointer chasing
 *          on MI210/7900 XTX, SC'25 "The MALL is Open" on MI250X/MI300X: HBM ~ 2x L2):
 *          modelled as +400 cycles; approximate, no hardware here to refine it.
 *  [BAR]   no public figure; s_barrier modelled as 16 cycles after the last wave arrives. */
struct cu_params {
	unsigned simds, period, slots, max_wgs;
	unsigned vgpr_budget, vgpr_granule, sgpr_budget; /* wave32 figures on RDNA */
	unsigned valu_busy, valu_lat, trans_busy, trans_lat, f64_busy, f64_lat;
	unsigned salu_lat, smem_lat, lds_lat, vmem_lat, dram_extra, branch_taken, barrier_lat;
	unsigned l1_bpc, dram_bpc16; /* bytes per clock; DRAM in 1/16 bytes per clock */
	bool trans_unit;             /* RDNA: trans has its own unit */
};

static void params_for(const struct sim_ctx *c, struct cu_params *p, bool wgp)
{
	memset(p, 0, sizeof *p);
	if (c->gen == AMD_GFX9 || c->gen == AMD_GFX940) {
		*p = (struct cu_params){
		        .simds = 4,
		        .period = 4,
		        .slots = 8,
		        .max_wgs = 16, /* [GCN] */
		        .vgpr_budget = 512,
		        .vgpr_granule = 8,
		        .sgpr_budget = 800, /* LLVM BaseInfo */
		        .valu_busy = 4,
		        .valu_lat = 4,
		        .trans_busy = 16,
		        .trans_lat = 16, /* [GCN][LLVM] */
		        .f64_busy = 4,
		        .f64_lat = 4, /* [CDNA2] full rate */
		        .salu_lat = 4,
		        .smem_lat = 20,
		        .lds_lat = 20, /* [LLVM] 1, 5, 5 units */
		        .vmem_lat = 320,
		        .dram_extra = 400,
		        .branch_taken = 32,                             /* [LLVM] [LAT] */
		        .barrier_lat = 16,                              /* [BAR] */
		        .l1_bpc = c->gen == AMD_GFX940 ? 128 : 64,      /* [L1] */
		        .dram_bpc16 = c->gen == AMD_GFX940 ? 133 : 138, /* [BW] 8.3 / 8.6 */
		};
		return;
	}
	bool gfx10 = c->gen == AMD_GFX10;
	*p = (struct cu_params){
	        .simds = wgp ? 4 : 2,
	        .period = 1,
	        .slots = 16,
	        .max_wgs = wgp ? 32 : 16, /* [RDNA] */
	        .vgpr_budget = gfx10 ? 1024 : 1536,
	        .vgpr_granule = gfx10 ? 16 : 24, /* LLVM */
	        .valu_busy = 1,
	        .valu_lat = 5,
	        .trans_busy = 4,
	        .trans_lat = 10, /* [RDNA][LLVM] */
	        .f64_busy = 16,
	        .f64_lat = gfx10 ? 22 : 38, /* 1/16 of the f32 rate; [LLVM] */
	        .salu_lat = 2,
	        .smem_lat = 20,
	        .lds_lat = 20, /* [LLVM] */
	        .vmem_lat = 320,
	        .dram_extra = 400,
	        .branch_taken = 32,
	        .barrier_lat = 16,
	        .l1_bpc = gfx10 ? 64 : 128, /* [L1] */
	        .dram_bpc16 = gfx10                 ? 45
	                      : c->gen == AMD_GFX11 ? 64
	                                            : 54, /* [BW] 2.8/4.0/3.4 */
	        .trans_unit = true,
	};
}

enum { MAX_RES = 64, OUT_MAX = 64 };
static const uint64_t NEVER = UINT64_MAX / 4;

struct cwave {
	const struct cu_wave_trace *tr;
	uint32_t pc;
	unsigned simd, wg;
	uint64_t ready_at, released_at; /* released_at: when a barrier let it go */
	bool at_barrier;
	uint64_t reg_ready[CU_NUM_REGS];
	uint64_t out[SIM_NUM_CNTS][OUT_MAX]; /* completion cycles of outstanding operations */
	uint8_t nout[SIM_NUM_CNTS];
	uint64_t last_in_order[SIM_NUM_CNTS];
};

struct cwg {
	bool used;
	unsigned live, arrived, waves[MAX_RES], nwaves;
	uint32_t lds;
};

struct model {
	struct sim_ctx *c;
	struct cu_params p;
	struct sim_cu_stats *st;
	unsigned passes; /* 2 for wave64 on RDNA */
	unsigned valloc, salloc, wg_waves;
	uint32_t wg_lds;
	/* residency */
	struct cwave *wave[MAX_RES]; /* resident waves, oldest first */
	unsigned nres;
	struct cwave pool[MAX_RES];
	bool pool_used[MAX_RES];
	struct cwg wgs[MAX_RES];
	unsigned simd_waves[4], simd_vgprs[4], simd_sgprs[4], nwgs;
	uint32_t lds_used;
	uint64_t next_wg, total_wgs;
	/* units */
	uint64_t valu_free[4], trans_free[4], matrix_free[4], vmem_free, lds_free, dram_free16;
	uint8_t port_used[4]; /* bit per enum cu_unit issued this cycle */
	unsigned stall_reason[4];
};

static unsigned align_up(unsigned v, unsigned a)
{
	return (v + a - 1) / a * a;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* Registers per wave as the hardware allocates them, from the kernel descriptor. */
static void wave_resources(struct model *m)
{
	const uint8_t *kd = m->c->k->kd;
	uint32_t rsrc1;
	memcpy(&rsrc1, kd + 48, 4);
	bool cdna = m->p.period == 4, w64 = m->c->waves[0].nlanes == 64;
	unsigned enc = cdna ? 8 : (w64 ? 4 : 8);
	if (cdna && !m->c->co->target.info->has_agprs)
		enc = 4;
	unsigned v = ((rsrc1 & 63) + 1) * enc;
	unsigned granule = m->p.vgpr_granule, budget = m->p.vgpr_budget;
	if (!cdna && w64) {
		granule /= 2;
		budget /= 2;
	}
	m->valloc = align_up(v, granule);
	m->st->vgpr_budget = budget;
	m->salloc = cdna ? align_up((((rsrc1 >> 6) & 15) + 1) * 16, 16) : 0;
}

/* The occupancy the resources allow (waves per SIMD), as LLVM and `ptxas-amd -v` state it. */
static unsigned occupancy_limit(struct model *m)
{
	const struct cu_params *p = &m->p;
	unsigned w = min_u(p->slots, m->st->vgpr_budget / m->valloc);
	if (m->salloc)
		w = min_u(w, p->sgpr_budget / m->salloc);
	if (m->wg_lds) {
		unsigned lds = p->simds == 4 && p->period == 1 ? 131072 : 65536;
		unsigned groups = lds / m->wg_lds;
		unsigned slots = w * p->simds;
		unsigned maxg = m->wg_waves <= 1 ? slots : min_u(slots / m->wg_waves, p->max_wgs);
		unsigned lw = (min_u(groups, maxg) * m->wg_waves + p->simds - 1) / p->simds;
		w = min_u(w, lw);
	}
	return w ? w : 1;
}

static unsigned lds_capacity(const struct model *m)
{
	return m->p.simds == 4 && m->p.period == 1 ? 131072 : 65536;
}

static void retire_wg(struct model *m, unsigned wi);

/* Admits the next workgroup if all its waves fit; false otherwise. */
static bool admit(struct model *m, uint64_t now)
{
	/* the workgroup (barrier) slots bound workgroups of more than one wave only (as in
	 * LLVM's occupancy rule) */
	if (m->next_wg >= m->total_wgs || (m->wg_waves > 1 && m->nwgs >= m->p.max_wgs))
		return false;
	const struct cu_wg_trace *g = &m->c->tr->wgs[m->next_wg % m->c->tr->nwgs];
	if (m->lds_used + m->wg_lds > lds_capacity(m) || m->nres + g->nwaves > MAX_RES)
		return false;
	unsigned simd_of[MAX_RES], waves[4], vgprs[4], sgprs[4];
	memcpy(waves, m->simd_waves, sizeof waves);
	memcpy(vgprs, m->simd_vgprs, sizeof vgprs);
	memcpy(sgprs, m->simd_sgprs, sizeof sgprs);
	for (unsigned i = 0; i < g->nwaves; i++) {
		unsigned best = ~0u;
		for (unsigned k = 0; k < m->p.simds; k++) {
			unsigned s = (unsigned)(k + m->next_wg) % m->p.simds;
			bool fits = waves[s] < m->p.slots &&
			            vgprs[s] + m->valloc <= m->st->vgpr_budget &&
			            (!m->salloc || sgprs[s] + m->salloc <= m->p.sgpr_budget);
			if (fits && (best == ~0u || waves[s] < waves[best]))
				best = s;
		}
		if (best == ~0u)
			return false;
		simd_of[i] = best;
		waves[best]++, vgprs[best] += m->valloc, sgprs[best] += m->salloc;
	}
	unsigned wi = 0;
	while (m->wgs[wi].used)
		wi++;
	struct cwg *wg = &m->wgs[wi];
	memset(wg, 0, sizeof *wg);
	wg->used = true;
	wg->lds = m->wg_lds;
	for (unsigned i = 0; i < g->nwaves; i++) {
		unsigned pi = 0;
		while (m->pool_used[pi])
			pi++;
		m->pool_used[pi] = true;
		struct cwave *w = &m->pool[pi];
		memset(w, 0, sizeof *w);
		w->tr = &g->waves[i];
		w->simd = simd_of[i];
		w->wg = wi;
		w->ready_at = now;
		m->wave[m->nres++] = w;
		wg->waves[wg->nwaves++] = pi;
		if (w->tr->nrecs)
			wg->live++;
	}
	memcpy(m->simd_waves, waves, sizeof waves);
	memcpy(m->simd_vgprs, vgprs, sizeof vgprs);
	memcpy(m->simd_sgprs, sgprs, sizeof sgprs);
	m->lds_used += m->wg_lds;
	m->nwgs++;
	m->next_wg++;
	m->st->workgroups++;
	m->st->waves += g->nwaves;
	if (!wg->live) /* no wave ran an instruction (cannot happen: s_endpgm is one) */
		retire_wg(m, wi);
	return true;
}

static void retire_wg(struct model *m, unsigned wi)
{
	struct cwg *wg = &m->wgs[wi];
	for (unsigned i = 0; i < wg->nwaves; i++) {
		struct cwave *w = &m->pool[wg->waves[i]];
		m->simd_waves[w->simd]--;
		m->simd_vgprs[w->simd] -= m->valloc;
		m->simd_sgprs[w->simd] -= m->salloc;
		m->pool_used[wg->waves[i]] = false;
		unsigned k = 0;
		for (unsigned j = 0; j < m->nres; j++)
			if (m->wave[j] != w)
				m->wave[k++] = m->wave[j];
		m->nres = k;
	}
	m->lds_used -= wg->lds;
	m->nwgs--;
	wg->used = false;
}

/* Operations of counter `cnt` still outstanding at `now`; *wake: when only `n` remain. */
static unsigned outstanding(struct cwave *w, int cnt, uint64_t now, unsigned n, uint64_t *wake)
{
	unsigned k = 0;
	for (unsigned i = 0; i < w->nout[cnt]; i++)
		if (w->out[cnt][i] > now)
			w->out[cnt][k++] = w->out[cnt][i];
	w->nout[cnt] = (uint8_t)k;
	if (k > n) { /* the (k - n)-th earliest completion */
		uint64_t t[OUT_MAX];
		memcpy(t, w->out[cnt], k * sizeof *t);
		for (unsigned i = 0; i < k - n; i++)
			for (unsigned j = i + 1; j < k; j++)
				if (t[j] < t[i]) {
					uint64_t x = t[i];
					t[i] = t[j];
					t[j] = x;
				}
		*wake = t[k - n - 1];
	}
	return k;
}

static void push_out(struct cwave *w, int cnt, uint64_t done)
{
	if (w->nout[cnt] == OUT_MAX) { /* counter saturated: drop the earliest */
		unsigned e = 0;
		for (unsigned i = 1; i < OUT_MAX; i++)
			if (w->out[cnt][i] < w->out[cnt][e])
				e = i;
		w->out[cnt][e] = w->out[cnt][--w->nout[cnt]];
	}
	w->out[cnt][w->nout[cnt]++] = done;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Is the wave's next record blocked at `now`?  Returns the reason (SIM_CU_STALL_*) or -1
 * when it can issue; *wake: the earliest cycle it might. */
static int blocked(struct model *m, struct cwave *w, const struct cu_rec *r, uint64_t now,
                   uint64_t *wake)
{
	*wake = NEVER;
	if (w->at_barrier)
		return SIM_CU_STALL_BARRIER;
	if (w->ready_at > now) {
		*wake = w->ready_at;
		return w->ready_at == w->released_at ? SIM_CU_STALL_BARRIER : SIM_CU_STALL_OTHER;
	}
	if (r->kind == CU_K_WAIT) {
		for (int c = 0; c < SIM_NUM_CNTS; c++)
			if (r->wait[c] != 255 &&
			    outstanding(w, c, now, r->wait[c], wake) > r->wait[c])
				return c == CNT_VM || c == CNT_VS ? SIM_CU_STALL_WAIT_VMEM
				                                  : SIM_CU_STALL_WAIT_LGKM;
		return -1;
	}
	const uint32_t *rg = w->tr->ranges + r->regs;
	uint64_t dep = 0;
	for (unsigned i = 0; i < r->nregs; i++) {
		unsigned reg = rg[i] & 1023, n = (rg[i] >> 10) & 127;
		for (unsigned k = reg; k < reg + n && k < CU_NUM_REGS; k++)
			dep = max64(dep, w->reg_ready[k]);
	}
	if (dep > now) {
		*wake = dep;
		return SIM_CU_STALL_DEPENDENCY;
	}
	unsigned s = w->simd;
	uint64_t unit_free = now;
	if (r->unit == CU_VALU || (r->unit == CU_TRANS && !m->p.trans_unit))
		unit_free = m->valu_free[s];
	else if (r->unit == CU_TRANS)
		unit_free = m->trans_free[s];
	if (r->lat == CU_L_MATRIX && m->p.period == 4)
		unit_free = max64(unit_free, m->matrix_free[s]);
	if (unit_free > now) {
		*wake = unit_free;
		return SIM_CU_STALL_UNIT;
	}
	unsigned port = r->unit == CU_TRANS && !m->p.trans_unit ? CU_VALU : r->unit;
	if (port != CU_INTERNAL && (m->port_used[s] >> port & 1)) {
		*wake = now + 1;
		return SIM_CU_STALL_UNIT;
	}
	return -1;
}

/* Cycle at which a memory instruction's result is back (and its unit bookkeeping). */
static uint64_t memory_done(struct model *m, const struct cu_rec *r, uint64_t now)
{
	const struct cu_params *p = &m->p;
	if (r->lat == CU_L_SMEM)
		return now + p->smem_lat;
	if (r->lat == CU_L_LDS) {
		uint64_t start = max64(now, m->lds_free);
		unsigned cyc = r->busy ? r->busy : 1;
		m->lds_free = start + cyc;
		m->st->busy[SIM_CU_LDS] += cyc;
		return start + cyc + p->lds_lat;
	}
	unsigned addr_cycles = m->passes * (p->period == 4 ? 4 : 1);
	unsigned line_cycles = (r->busy * 128 + p->l1_bpc - 1) / p->l1_bpc;
	unsigned cyc = addr_cycles > line_cycles ? addr_cycles : line_cycles;
	uint64_t start = max64(now, m->vmem_free);
	m->vmem_free = start + cyc;
	m->st->busy[SIM_CU_VMEM] += cyc;
	uint64_t done = start + cyc + p->vmem_lat;
	if (r->cold) {
		uint64_t d16 = max64(m->dram_free16, start * 16) +
		               (uint64_t)r->cold * 128 * 16 * 16 / p->dram_bpc16;
		m->dram_free16 = d16;
		m->st->dram_lines += r->cold;
		done = max64(done + p->dram_extra, d16 / 16 + p->vmem_lat);
	}
	return done;
}

static void release_barrier(struct model *m, struct cwg *wg, uint64_t now)
{
	if (!wg->live || wg->arrived < wg->live)
		return;
	for (unsigned i = 0; i < wg->nwaves; i++) {
		struct cwave *w = &m->pool[wg->waves[i]];
		if (w->at_barrier) {
			w->at_barrier = false;
			w->ready_at = w->released_at = now + m->p.barrier_lat;
		}
	}
	wg->arrived = 0;
}

/* Issues the wave's next record at `now`.  Returns true when the workgroup ended. */
static bool issue(struct model *m, struct cwave *w, const struct cu_rec *r, uint64_t now)
{
	const struct cu_params *p = &m->p;
	unsigned s = w->simd;
	struct sim_cu_stats *st = m->st;
	uint64_t done = now + 1;
	w->pc++;
	w->ready_at = now + p->period;
	unsigned port = r->unit == CU_TRANS && !p->trans_unit ? CU_VALU : r->unit;
	if (port != CU_INTERNAL)
		m->port_used[s] |= (uint8_t)(1u << port);
	switch (r->lat) {
	case CU_L_VALU:
	case CU_L_F64:
	case CU_L_TRANS: {
		bool f64 = r->lat == CU_L_F64, trans = r->lat == CU_L_TRANS;
		unsigned busy = (f64     ? p->f64_busy
		                 : trans ? p->trans_busy
		                         : p->valu_busy) *
		                m->passes;
		unsigned lat = f64 ? p->f64_lat : trans ? p->trans_lat : p->valu_lat;
		lat += busy - (f64 ? p->f64_busy : trans ? p->trans_busy : p->valu_busy);
		if (trans && p->trans_unit)
			m->trans_free[s] = now + busy;
		else
			m->valu_free[s] = now + busy;
		st->issued[trans ? SIM_CU_TRANS : SIM_CU_VALU]++;
		st->busy[trans ? SIM_CU_TRANS : SIM_CU_VALU] += busy;
		done = now + (lat > busy ? lat : busy);
		break;
	}
	case CU_L_MATRIX: {
		unsigned busy = r->busy ? r->busy : 4;
		uint64_t start = now;
		if (p->period == 4) { /* CDNA: issued by the VALU, run by the matrix core */
			start = max64(now, m->matrix_free[s]);
			m->matrix_free[s] = start + busy;
			m->valu_free[s] = now + p->valu_busy;
		} else { /* RDNA3/4: WMMA runs on the SIMD's VALU */
			m->valu_free[s] = now + busy;
		}
		st->issued[SIM_CU_MATRIX]++;
		st->busy[SIM_CU_MATRIX] += busy;
		done = start + busy;
		break;
	}
	case CU_L_SALU:
		st->issued[SIM_CU_SALU]++;
		st->busy[SIM_CU_SALU] += p->period; /* its issue cycle */
		done = now + p->salu_lat;
		break;
	case CU_L_SMEM:
		st->issued[SIM_CU_SALU]++;
		st->busy[SIM_CU_SALU] += p->period;
		done = memory_done(m, r, now);
		break;
	case CU_L_VMEM:
		st->issued[SIM_CU_VMEM]++;
		done = memory_done(m, r, now);
		break;
	case CU_L_LDS:
		st->issued[SIM_CU_LDS]++;
		done = memory_done(m, r, now);
		break;
	case CU_L_BRANCH:
		st->issued[SIM_CU_BRANCH]++;
		st->busy[SIM_CU_BRANCH] += p->period;
		if (r->busy)
			w->ready_at = now + p->branch_taken;
		break;
	default:
		break;
	}
	for (int c = 0; c < SIM_NUM_CNTS; c++) {
		if (!(r->cnts >> c & 1))
			continue;
		uint64_t d = done;
		if (r->cnts & 0x80) { /* returns in order with the wave's earlier ones */
			d = max64(d, w->last_in_order[c]);
			w->last_in_order[c] = d;
		}
		push_out(w, c, d);
		done = max64(done, d);
	}
	const uint32_t *rg = w->tr->ranges + r->regs;
	for (unsigned i = 0; i < r->nregs; i++) {
		if (!(rg[i] >> 17 & 1))
			continue;
		unsigned reg = rg[i] & 1023, n = (rg[i] >> 10) & 127;
		for (unsigned k = reg; k < reg + n && k < CU_NUM_REGS; k++)
			w->reg_ready[k] = done;
	}
	struct cwg *wg = &m->wgs[w->wg];
	switch (r->kind) {
	case CU_K_NOP:
	case CU_K_SLEEP:
		w->ready_at = now + (r->busy > p->period ? r->busy : p->period);
		break;
	case CU_K_BARRIER:
		w->at_barrier = true;
		wg->arrived++;
		release_barrier(m, wg, now);
		break;
	default:
		break;
	}
	if (r->kind == CU_K_END || w->pc == w->tr->nrecs) {
		w->pc = w->tr->nrecs;
		w->ready_at = NEVER;
		if (--wg->live == 0)
			return true;
		release_barrier(m, wg, now);
	}
	return false;
}

/* One cycle: every SIMD whose issue cycle it is considers its waves oldest first.  Returns
 * whether anything issued; *wake: the next cycle something may. */
static bool cycle(struct model *m, uint64_t now, uint64_t *wake)
{
	bool any = false;
	*wake = NEVER;
	memset(m->port_used, 0, sizeof m->port_used);
	bool issued_on[4] = {false}, seen[4] = {false};
	unsigned ended[MAX_RES], nended = 0;
	for (unsigned i = 0; i < m->nres; i++) {
		struct cwave *w = m->wave[i];
		unsigned s = w->simd;
		if (w->pc >= w->tr->nrecs)
			continue;
		const struct cu_rec *r = &w->tr->recs[w->pc];
		uint64_t wk;
		if (m->p.period == 4 && now % 4 != s) { /* not its SIMD's turn: when may it be */
			if (blocked(m, w, r, now, &wk) < 0)
				wk = now + 1;
			wk = wk == NEVER ? NEVER : wk + (s + 4 - wk % 4) % 4;
			*wake = wk < *wake ? wk : *wake;
			continue;
		}
		int why = blocked(m, w, r, now, &wk);
		if (why >= 0) {
			if (!seen[s])
				m->stall_reason[s] = (unsigned)why;
			seen[s] = true;
			if (m->p.period == 4 && wk != NEVER) /* the SIMD's next turn from then */
				wk += (s + 4 - wk % 4) % 4;
			*wake = wk < *wake ? wk : *wake;
			continue;
		}
		if (!seen[s])
			m->stall_reason[s] = SIM_CU_STALL_NONE;
		seen[s] = true;
		issued_on[s] = any = true;
		if (issue(m, w, r, now))
			ended[nended++] = w->wg;
		*wake = now + 1;
	}
	for (unsigned s = 0; s < m->p.simds; s++) {
		if (m->p.period == 4 && now % 4 != s)
			continue;
		if (!seen[s])
			m->stall_reason[s] = SIM_CU_STALL_IDLE;
		if (!issued_on[s])
			m->st->stall[m->stall_reason[s]] += m->p.period;
	}
	for (unsigned i = 0; i < nended; i++)
		retire_wg(m, ended[i]);
	return any || nended;
}

static void run(struct model *m)
{
	uint64_t now = 0;
	while (true) {
		bool admitted = false;
		while (admit(m, now))
			admitted = true;
		if (!m->nres && m->next_wg >= m->total_wgs)
			break;
		uint64_t wake;
		bool progress = cycle(m, now, &wake);
		m->st->wave_cycles += m->nres;
		unsigned res[4] = {0};
		for (unsigned i = 0; i < m->nres; i++)
			res[m->wave[i]->simd]++;
		for (unsigned s = 0; s < m->p.simds; s++)
			if (res[s] > m->st->peak_waves_per_simd)
				m->st->peak_waves_per_simd = res[s];
		uint64_t next = now + 1;
		if (!progress && !admitted && wake > next && wake != NEVER) {
			/* nothing can happen before `wake`: charge the skipped issue cycles */
			uint64_t skip = wake - next;
			for (unsigned s = 0; s < m->p.simds; s++)
				m->st->stall[m->stall_reason[s]] +=
				        skip / m->p.period * m->p.period;
			m->st->wave_cycles += skip * m->nres;
			next = wake;
		}
		if (!progress && !admitted && wake == NEVER && m->nres) {
			m->st->deadlock = true; /* cannot happen with a trace that ran to its end */
			break;
		}
		now = next;
	}
	m->st->cycles = now;
}

void cu_model_run(struct sim_ctx *c, uint32_t block_threads)
{
	struct sim_cu_stats *st = &c->stats->cu;
	memset(st, 0, sizeof *st);
	if (!c->tr || c->tr->overflow || !c->tr->nwgs || !c->nwaves || c->nwaves > MAX_RES) {
		st->missing = c->tr && c->tr->overflow
		                      ? "the launch ran more than 2^26 wave instructions"
		              : c->nwaves > MAX_RES ? "a workgroup of more than 64 waves"
		                                    : "nothing was recorded";
		return;
	}
	struct model *m = pa_xcalloc(1, sizeof *m);
	m->c = c;
	m->st = st;
	uint32_t rsrc1;
	memcpy(&rsrc1, c->k->kd + 48, 4);
	bool wgp = c->gen >= AMD_GFX10 && ((rsrc1 >> 29) & 1); /* rsrc1 bit 29: WGP_MODE */
	params_for(c, &m->p, wgp);
	m->passes = c->gen >= AMD_GFX10 && c->waves[0].nlanes == 64 ? 2 : 1;
	m->wg_waves = c->nwaves;
	m->wg_lds = c->lds_size;
	wave_resources(m);
	st->simds = m->p.simds;
	st->vgprs_per_wave = m->valloc;
	st->waves_per_simd_limit = occupancy_limit(m);
	unsigned copies = 1;
	if (c->opt->cu_fill) {
		/* twice the CU's wave slots, whatever the kernel's occupancy, so that two code
		 * objects of the same kernel get the same work */
		uint64_t want = 2ull * m->p.slots * m->p.simds;
		uint64_t have = (uint64_t)c->tr->nwgs * c->nwaves;
		copies = (unsigned)((want + have - 1) / have);
		copies = copies ? copies : 1;
	}
	st->copies = copies;
	m->total_wgs = (uint64_t)c->tr->nwgs * copies;
	(void)block_threads;
	run(m);
	st->valid = !st->deadlock;
	if (st->deadlock) /* cannot happen with a trace that ran to its end */
		st->missing = "the schedule found no wave able to go on";
	free(m);
}
