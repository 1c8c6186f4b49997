/* check: the strict s_waitcnt and hazard checker, and the memory timing model.
 *
 * Waitcnt (worst case, independent of the random latencies): every memory operation joins
 * the list of the counters it increments, with an ordering group (vector memory and LDS
 * return in order within their group; scalar loads and flat's lgkm side are out of order).
 * After s_waitcnt CNT(N) an operation X of a list of k is known complete only when at least
 * k - N completions force it: k - N > (operations not in X's group) + (older ones in X's
 * group), and for out-of-order operations k - N > k - 1, i.e. N = 0.  A register whose
 * pending operation is not known complete may not be read or overwritten.
 * Hazards (gfx90a/gfx942): wait states are counted on a per-wave counter `ws` (one per
 * instruction, N+1 for s_nop N); each rule compares the producer's stamp with the consumer.
 * gfx11 has one software-visible data hazard (LLVM's VALUTransUseHazard): a VALU reading a
 * VGPR that a transcendental wrote with at most 5 VALUs and at most 1 TRANS in between needs
 * a drain of outstanding VALU writes first (s_waitcnt_depctr va_vdst(0), or any VMEM, FLAT
 * or DS instruction, which drain it too).  gfx1030 has one (LLVM's FPAtomicToDenormMode): a
 * VMEM/FLAT floating-point atomic needs 3 wait states before s_denorm_mode unless a VALU or an
 * s_waitcnt* comes first; its other gfx10 hazards are gfx1010-only features, and gfx1200 has
 * none LLVM 19 knows of (gfx12 interlocks them); gfx12 splits the counters
 * (loadcnt = CNT_VM, dscnt = CNT_LGKM, storecnt = CNT_VS, kmcnt = CNT_KM for scalar loads).
 * Timing: each operation gets a seeded random latency, in-order groups never complete before
 * their predecessors, and s_waitcnt stalls the wave's clock until the hardware count is met.
 * This file shares no code with the compiler's scheduler (ROADMAP: the simulator judges it).
 * complexity: O(outstanding operations) per memory instruction and wait. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "amd_isa.h"
#include "cu_model.h"
#include "sim_int.h"

static const char *const cnt_names[SIM_NUM_CNTS] = {"vmcnt", "lgkmcnt", "expcnt", "vscnt", "kmcnt"};
static const char *const cnt_names12[SIM_NUM_CNTS] = {"loadcnt", "dscnt", "expcnt", "storecnt",
                                                      "kmcnt"};

/* The CU model's register record, out of the checker's way (cold: off unless --stats). */
__attribute__((cold, noinline)) static void trace_reg(struct sim_wave *w, unsigned reg, unsigned n,
                                                      bool write)
{
	cu_trace_reg(w, reg, n, write);
}

void sim_violation(struct sim_wave *w, const struct sim_insn *in, const char *fmt, ...)
{
	struct sim_ctx *c = w->ctx;
	c->stats->violations++;
	unsigned maxp = c->opt->max_violations_printed ? c->opt->max_violations_printed : 20;
	if (c->violations_printed >= maxp)
		return;
	c->violations_printed++;
	FILE *out = c->opt->diag ? c->opt->diag : stderr;
	char insn[160];
	sim_format_insn(c, in, insn, sizeof insn);
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(out, "amdsim: violation: pc 0x%llx (wg %u wave %u): %s: %s\n",
	        (unsigned long long)(c->co->text_addr + in->pc), w->wg_flat, w->id, insn, msg);
}

static struct sim_memop *op_of(struct sim_chk *k, uint32_t id)
{
	struct sim_memop *op = &k->ring[id % SIM_OPS_RING];
	return id && op->id == id ? op : NULL;
}

static bool op_pending(struct sim_chk *k, uint32_t id)
{
	struct sim_memop *op = op_of(k, id);
	return op && !op->done;
}

static void list_remove_done(struct sim_chk *k, struct sim_cntlist *l)
{
	unsigned j = 0;
	for (unsigned i = 0; i < l->n; i++) {
		struct sim_memop *op = op_of(k, l->ops[i]);
		if (op && !op->done)
			l->ops[j++] = l->ops[i];
	}
	l->n = j;
}

/* The list is full only of operations that complete out of order (scalar loads): at the
 * counter's saturation the hardware stalls until one of them is back, but which one is not
 * known, so none is known complete and the list keeps them all.  Past its capacity the oldest
 * leaves the list but stays pending (its registers still need a wait): only a wait for a
 * count of 0 completes it, and retire sweeps the ring for such operations then. */
static void list_drop_oldest(struct sim_cntlist *l)
{
	memmove(l->ops, l->ops + 1, (l->n - 1) * sizeof l->ops[0]);
	l->n--;
	l->dropped++;
}

/* The count N that s_waitcnt must name so that op is known complete. */
static unsigned needed_count(struct sim_chk *k, int cnt, const struct sim_memop *op)
{
	struct sim_cntlist *l = &k->lists[cnt];
	if (op->group[cnt] == 255)
		return 0;
	unsigned in_group = 0, younger_in_group = 0;
	bool seen = false;
	for (unsigned i = 0; i < l->n; i++) {
		struct sim_memop *o = op_of(k, l->ops[i]);
		if (!o || o->group[cnt] != op->group[cnt])
			continue;
		in_group++;
		if (seen)
			younger_in_group++;
		if (o == op)
			seen = true;
	}
	/* k - N > (k - G) + older  <=>  N < G - older = younger + 1 */
	(void)in_group;
	return younger_in_group;
}

static void report_pending(struct sim_wave *w, const struct sim_insn *in, struct sim_memop *op,
                           char kind, unsigned reg, const char *what)
{
	char pinsn[160];
	sim_format_insn(w->ctx, op->insn, pinsn, sizeof pinsn);
	int cnt = -1;
	for (int c = 0; c < SIM_NUM_CNTS; c++)
		if ((op->cnts >> c) & 1) {
			cnt = c;
			break;
		}
	if (cnt < 0)
		return;
	char need[40];
	unsigned n = needed_count(&w->chk, cnt, op);
	if (w->ctx->split_cnts)
		snprintf(need, sizeof need, "s_wait_%s %u", cnt_names12[cnt], n);
	else
		snprintf(need, sizeof need, "s_waitcnt %s(%u)", cnt_names[cnt], n);
	sim_violation(w, in,
	              "%s %c%u before the memory operation writing it completed (%s at pc 0x%llx): "
	              "missing %s",
	              what, kind, reg, pinsn, (unsigned long long)(w->ctx->co->text_addr + op->pc),
	              need);
}

static bool strict(const struct sim_wave *w)
{
	return w->strict;
}

static unsigned elapsed(const struct sim_wave *w, uint64_t stamp)
{
	uint64_t d = w->chk.ws - stamp;
	return d == 0 ? 0 : (unsigned)(d - 1 > 1000 ? 1000 : d - 1);
}

static void need_ws(struct sim_wave *w, const struct sim_insn *in, uint64_t stamp, unsigned n,
                    const char *rule)
{
	if (stamp && elapsed(w, stamp) < n)
		sim_violation(w, in, "hazard: %s needs %u wait states, has %u (missing s_nop)",
		              rule, n, elapsed(w, stamp));
}

/* ---- MFMA dependency rules (gfx90a, gfx942) ----
 * Wait states after MFMA P, from LLVM's GCNHazardRecognizer (checkMAIHazards90A,
 * checkMAIVALUHazards; ../shared/reference/hazards.txt) and the CDNA2/CDNA3 ISA guides'
 * dependency tables, in terms of P's passes NP (the instruction table's `passes`):
 * - a VALU, memory instruction or MFMA (srcA/srcB) reads or a VALU overwrites P's result:
 *   NP + 3 (gfx942 non-XDL: NP + 2); f64 MFMA: 4x4 6 (memory 9), 16x16 11 (memory 18);
 * - an MFMA reads P's result as srcC: same registers 0 (f64 4x4: 4; gfx942 2-pass: 2),
 *   overlapping: NP (gfx942 XDL P: NP + 1; gfx90a f64 consumer: NP + 1), f64 P: 16x16 9,
 *   4x4 4;
 * - a VALU overwrites P's srcC: NP - 1 (not after f64 MFMA).
 * This file's formulas are written separately from the compiler's (src/sched/hazards_matrix.c);
 * tests/sim/test_matrix.py checks both against clang-19's s_nop counts. */

static const struct amd_matrix_info *mfma_info(unsigned row1)
{
	return row1 ? amd_isa_matrix((enum amd_opcode)(row1 - 1)) : NULL;
}

static bool is_mem_consumer(const struct sim_insn *in)
{
	return in->sem->mem != SIM_MEM_NONE;
}

static unsigned mfma_raw_need(const struct sim_wave *w, unsigned row1, const struct sim_insn *in)
{
	const struct amd_matrix_info *p = mfma_info(row1);
	if (!p)
		return 0;
	unsigned np = p->passes[w->ctx->gen];
	if (p->ab_type == AMD_MT_F64)
		return np <= 4 ? (is_mem_consumer(in) ? 9 : 6) : (is_mem_consumer(in) ? 18 : 11);
	return w->ctx->gen == AMD_GFX940 && !p->xdl ? np + 2 : np + 3;
}

static unsigned mfma_war_need(const struct sim_wave *w, unsigned row1)
{
	const struct amd_matrix_info *p = mfma_info(row1);
	if (!p || p->ab_type == AMD_MT_F64)
		return 0;
	return p->passes[w->ctx->gen] - 1;
}

static unsigned mfma_srcc_need(const struct sim_wave *w, unsigned row1, bool same,
                               const struct amd_matrix_info *consumer)
{
	const struct amd_matrix_info *p = mfma_info(row1);
	if (!p)
		return 0;
	unsigned np = p->passes[w->ctx->gen];
	bool gfx940 = w->ctx->gen == AMD_GFX940, f64 = p->ab_type == AMD_MT_F64;
	if (same)
		return f64 && np <= 4 ? 4 : gfx940 && !f64 && np == 2 ? 2 : 0;
	if (f64)
		return np <= 4 ? 4 : 9;
	if (gfx940)
		return p->xdl ? np + 1 : np;
	return consumer && consumer->ab_type == AMD_MT_F64 ? np + 1 : np;
}

void sim_chk_mfma_reads(struct sim_wave *w, const struct sim_insn *in, unsigned a, unsigned na,
                        unsigned b, unsigned nb, unsigned c, unsigned nc, unsigned d)
{
	(void)d;
	sim_chk_read_v(w, in, a, na);
	sim_chk_read_v(w, in, b, nb);
	if (c != ~0u)
		sim_chk_read_v(w, in, c, nc);
	if (!strict(w) || !w->ctx->gfx9_hazards)
		return;
	struct sim_chk *k = &w->chk;
	need_ws(w, in, k->valu_sgpr[SIM_EXEC], 4, "VALU writes EXEC then MFMA");
	int row = amd_isa_decode(w->ctx->gen, AMD_FMT_VOP3P, in->op);
	const struct amd_matrix_info *me = row < 0 ? NULL : amd_isa_matrix((enum amd_opcode)row);
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned r = pass ? b : a; r < (pass ? b + nb : a + na); r++) {
			need_ws(w, in, k->valu_vgpr[r], 2, "VALU writes VGPR then MFMA reads it");
			if (k->mfma_def[r])
				need_ws(w, in, k->mfma_def[r],
				        mfma_raw_need(w, k->mfma_def_row[r], in),
				        "MFMA writes VGPR then MFMA reads it as srcA/srcB");
		}
	for (unsigned r = c; c != ~0u && r < c + nc; r++) {
		need_ws(w, in, k->valu_vgpr[r], 2, "VALU writes VGPR then MFMA reads it");
		if (!k->mfma_def[r])
			continue;
		bool same = k->mfma_def_first[r] == c && k->mfma_def_count[r] == nc;
		need_ws(w, in, k->mfma_def[r], mfma_srcc_need(w, k->mfma_def_row[r], same, me),
		        same ? "MFMA writes VGPR then MFMA reads the same registers as srcC"
		             : "MFMA writes VGPR then MFMA reads it as overlapping srcC");
	}
}

void sim_chk_mfma_done(struct sim_wave *w, const struct sim_insn *in, unsigned d, unsigned nd,
                       unsigned c)
{
	if (!strict(w) || !w->ctx->gfx9_hazards)
		return;
	struct sim_chk *k = &w->chk;
	int row = amd_isa_decode(w->ctx->gen, AMD_FMT_VOP3P, in->op);
	uint16_t row1 = (uint16_t)(row + 1);
	for (unsigned r = c; c != ~0u && r < c + nd; r++)
		k->mfma_srcc[r] = k->ws, k->mfma_srcc_row[r] = row1;
	for (unsigned r = d; r < d + nd; r++) {
		k->mfma_def[r] = k->ws, k->mfma_def_row[r] = row1;
		k->mfma_def_first[r] = (uint16_t)d, k->mfma_def_count[r] = (uint16_t)nd;
	}
}

/* gfx11/gfx12 (LLVM's fixWMMAHazards; clang-19 puts a v_nop there): a WMMA reading the
 * previous WMMA's D as A or B with no other VALU instruction in between. */
void sim_chk_wmma_reads(struct sim_wave *w, const struct sim_insn *in, unsigned a, unsigned b,
                        unsigned n)
{
	struct sim_chk *k = &w->chk;
	if (!strict(w) || !k->wmma_d_count)
		return;
	unsigned lo = k->wmma_d_first, hi = lo + k->wmma_d_count;
	if ((a < hi && a + n > lo) || (b < hi && b + n > lo))
		sim_violation(w, in,
		              "hazard: WMMA reads the previous WMMA's result as A/B with no VALU "
		              "instruction in between (needs a v_nop)");
}

void sim_chk_wmma_done(struct sim_wave *w, const struct sim_insn *in, unsigned d, unsigned nd)
{
	(void)in;
	w->chk.wmma_d_first = (uint16_t)d, w->chk.wmma_d_count = (uint16_t)nd;
}

void sim_chk_read_s(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n)
{
	if (w->tr)
		trace_reg(w, reg, n, false);
	if (!strict(w))
		return;
	struct sim_chk *k = &w->chk;
	for (unsigned r = reg; r < reg + n && r < SIM_NUM_SREGS; r++) {
		if (k->spend[r] && op_pending(k, k->spend[r])) {
			report_pending(w, in, op_of(k, k->spend[r]), 's', r, "reads");
			k->spend[r] = 0;
		}
		if (w->ctx->gfx940_hazards && (in->sem->flags & SEM_VALU) && k->valu_sgpr[r])
			need_ws(w, in, k->valu_sgpr[r], 2,
			        "VALU writes SGPR/VCC then VALU reads it (gfx940, no interlock)");
	}
}

void sim_chk_sgpr_vmem(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n)
{
	if (!strict(w) || !w->ctx->gfx9_hazards)
		return;
	for (unsigned r = reg; r < reg + n && r < SIM_NUM_SREGS; r++)
		need_ws(w, in, w->chk.valu_sgpr[r], 5, "VALU writes SGPR then VMEM reads it");
}

/* gfx11: the VALU `in` reads v[r]; a transcendental's result still in flight (no drain
 * since, few VALUs in between) is a hazard. */
static void check_trans_use(struct sim_wave *w, const struct sim_insn *in, unsigned r)
{
	struct sim_chk *k = &w->chk;
	const struct sim_trans_def *d = &k->trans_def[r];
	if (d->epoch != k->vdst_epoch + 1)
		return;
	uint32_t valus = k->valu_issued - d->valu_at - 1, trans = k->trans_issued - d->trans_at - 1;
	if (valus <= 5 && trans <= 1) {
		sim_violation(w, in,
		              "hazard: VALU reads v%u, a transcendental result with only %u VALU "
		              "and %u TRANS instructions since (gfx11 needs s_waitcnt_depctr "
		              "va_vdst(0) or more than 5 VALUs / 1 TRANS in between)",
		              r, valus, trans);
		k->trans_def[r].epoch = 0; /* report once */
	}
}

/* gfx942 (LLVM's DstSelForwardingHazard): the packed 32-bit VALU rows with src0's op_sel_hi
 * bit set -- the bit LLVM reads as DST_OP_SEL, so clang-19 puts s_nop 0 after them -- need 1
 * wait state before a VALU reads or writes their result. */
static bool dst_sel_forwards(const struct sim_wave *w, const struct sim_insn *in)
{
	if (!w->ctx->gfx940_hazards || !(in->sem->flags & SEM_VALU) || !(in->opsel_hi & 1))
		return false;
	const char *n = in->sem->name;
	return !strcmp(n, "v_pk_fma_f32") || !strcmp(n, "v_pk_mul_f32") ||
	       !strcmp(n, "v_pk_add_f32") || !strcmp(n, "v_pk_mov_b32");
}

static void need_dst_sel(struct sim_wave *w, const struct sim_insn *in, unsigned r)
{
	if (w->ctx->gfx940_hazards && (in->sem->flags & SEM_VALU) && w->chk.dstsel_vgpr[r])
		need_ws(w, in, w->chk.dstsel_vgpr[r], 1,
		        "packed f32 result through dst-select forwarding used by a VALU (gfx940)");
}

void sim_chk_read_v(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n)
{
	if (w->tr)
		trace_reg(w, CU_REG_V0 + reg, n, false);
	if (!strict(w))
		return;
	struct sim_chk *k = &w->chk;
	for (unsigned r = reg; r < reg + n && r < SIM_MAX_VREGS; r++) {
		if (k->vpend[r] && op_pending(k, k->vpend[r])) {
			report_pending(w, in, op_of(k, k->vpend[r]), 'v', r, "reads");
			k->vpend[r] = 0;
		}
		if (w->ctx->gfx940_hazards && (in->sem->flags & SEM_VALU) &&
		    !(in->sem->flags & SEM_TRANS) && k->trans_vgpr[r])
			need_ws(w, in, k->trans_vgpr[r], 1,
			        "transcendental result used by a VALU instruction (gfx940)");
		need_dst_sel(w, in, r);
		if (w->ctx->gfx11_trans_hazard && (in->sem->flags & SEM_VALU))
			check_trans_use(w, in, r);
		if (k->mfma_def[r] && !(in->sem->flags & SEM_MATRIX))
			need_ws(w, in, k->mfma_def[r], mfma_raw_need(w, k->mfma_def_row[r], in),
			        "MFMA writes VGPR then VALU/memory reads it");
	}
}

void sim_chk_write_s(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n)
{
	if (w->tr && in)
		trace_reg(w, reg, n, true);
	if (!strict(w) || !in)
		return;
	struct sim_chk *k = &w->chk;
	bool valu = in->sem->flags & SEM_VALU;
	for (unsigned r = reg; r < reg + n && r < SIM_NUM_SREGS; r++) {
		if (k->spend[r] && op_pending(k, k->spend[r]))
			report_pending(w, in, op_of(k, k->spend[r]), 's', r, "overwrites");
		k->spend[r] = 0;
		k->valu_sgpr[r] = valu ? k->ws : 0;
		if (r == SIM_M0 && !valu)
			k->salu_m0 = k->ws;
	}
}

void sim_chk_write_v(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n)
{
	if (w->tr)
		trace_reg(w, CU_REG_V0 + reg, n, true);
	if (!strict(w))
		return;
	struct sim_chk *k = &w->chk;
	bool valu = in->sem->flags & SEM_VALU, trans = in->sem->flags & SEM_TRANS;
	bool dst_sel = dst_sel_forwards(w, in);
	for (unsigned r = reg; r < reg + n && r < SIM_MAX_VREGS; r++) {
		if (k->vpend[r] && op_pending(k, k->vpend[r]))
			report_pending(w, in, op_of(k, k->vpend[r]), 'v', r, "overwrites");
		need_dst_sel(w, in, r);
		k->vpend[r] = 0;
		if (valu && w->ctx->gfx9_hazards && k->store_nregs && r >= k->store_data &&
		    r < k->store_data + k->store_nregs)
			need_ws(w, in, k->store_ws, 1,
			        "VALU overwrites the data VGPR of a store wider than 8 bytes");
		if (valu && k->mfma_def[r])
			need_ws(w, in, k->mfma_def[r], mfma_raw_need(w, k->mfma_def_row[r], in),
			        "MFMA writes VGPR then VALU writes it");
		if (valu && k->mfma_srcc[r])
			need_ws(w, in, k->mfma_srcc[r], mfma_war_need(w, k->mfma_srcc_row[r]),
			        "MFMA reads VGPR as srcC then VALU writes it");
		if (!(in->sem->flags & SEM_MATRIX))
			k->mfma_def[r] = k->mfma_srcc[r] = 0;
		k->valu_vgpr[r] = valu && !(in->sem->flags & SEM_DOT) ? k->ws : 0;
		k->trans_vgpr[r] = trans ? k->ws : 0;
		k->dstsel_vgpr[r] = dst_sel ? k->ws : 0;
		k->trans_def[r] = trans ? (struct sim_trans_def){k->valu_issued, k->trans_issued,
		                                                 k->vdst_epoch + 1}
		                        : (struct sim_trans_def){0, 0, 0};
	}
}

void sim_chk_pending_s(struct sim_wave *w, uint32_t op, unsigned reg, unsigned n)
{
	for (unsigned r = reg; r < reg + n && r < SIM_NUM_SREGS; r++)
		w->chk.spend[r] = op;
}

void sim_chk_pending_v(struct sim_wave *w, uint32_t op, unsigned reg, unsigned n)
{
	for (unsigned r = reg; r < reg + n && r < SIM_MAX_VREGS; r++)
		w->chk.vpend[r] = op;
}

static unsigned cnt_max(const struct sim_ctx *c, int cnt)
{
	switch (cnt) {
	case CNT_VM:
		return 63;
	case CNT_LGKM:
		return c->gen >= AMD_GFX10 ? 63 : 15;
	case CNT_EXP:
		return 7;
	case CNT_KM:
		return 31;
	default:
		return 63;
	}
}

/* A wait for 0 on cnt: the operations list_drop_oldest let go are complete too (the
 * wave stalls for them as for the listed ones). */
static void retire_dropped(struct sim_wave *w, int cnt, bool timing)
{
	struct sim_chk *k = &w->chk;
	for (unsigned i = 0; i < SIM_OPS_RING; i++) {
		struct sim_memop *op = &k->ring[i];
		if (!op->id || op->done || !((op->cnts >> cnt) & 1))
			continue;
		if (timing && op->ready > w->clock) {
			w->ctx->stats->wait_stall_cycles += op->ready - w->clock;
			w->clock = op->ready;
		}
		op->done = true;
	}
	k->lists[cnt].dropped = 0;
	for (int c = 0; c < SIM_NUM_CNTS; c++)
		list_remove_done(k, &k->lists[c]);
}

static void retire(struct sim_wave *w, int cnt, unsigned n, bool timing)
{
	struct sim_chk *k = &w->chk;
	struct sim_cntlist *l = &k->lists[cnt];
	list_remove_done(k, l);
	if (n == 0 && l->dropped)
		retire_dropped(w, cnt, timing);
	unsigned total = l->n;
	if (total <= n)
		return;
	if (timing) { /* hardware: wait until at most n are still in flight */
		uint64_t ready[SIM_CNT_LIST];
		unsigned m = 0;
		for (unsigned i = 0; i < total; i++) {
			struct sim_memop *op = op_of(k, l->ops[i]);
			if (op->ready > w->clock)
				ready[m++] = op->ready;
		}
		if (m > n) {
			/* the (m - n)-th earliest completion */
			for (unsigned i = 0; i < m; i++)
				for (unsigned j = i + 1; j < m; j++)
					if (ready[j] < ready[i]) {
						uint64_t t = ready[i];
						ready[i] = ready[j];
						ready[j] = t;
					}
			uint64_t t = ready[m - n - 1];
			w->ctx->stats->wait_stall_cycles += t - w->clock;
			w->clock = t;
		}
	}
	/* worst case: which operations are now known complete */
	unsigned group_size[256] = {0}, older[SIM_CNT_LIST];
	for (unsigned i = 0; i < total; i++) {
		struct sim_memop *op = op_of(k, l->ops[i]);
		older[i] = op->group[cnt] == 255 ? 0 : group_size[op->group[cnt]]++;
	}
	for (unsigned i = 0; i < total; i++) {
		struct sim_memop *op = op_of(k, l->ops[i]);
		unsigned g = op->group[cnt];
		unsigned bound = g == 255 ? total - 1 : (total - group_size[g]) + older[i];
		if (total - n > bound)
			op->done = true;
	}
	for (int c = 0; c < SIM_NUM_CNTS; c++)
		list_remove_done(k, &k->lists[c]);
}

void sim_chk_wait(struct sim_wave *w, const struct sim_insn *in, int cnt, unsigned n)
{
	if (cnt == CNT_VS && w->ctx->gen < AMD_GFX10)
		return;
	if (w->tr)
		cu_trace_wait(w, cnt, n);
	retire(w, cnt, n, true);
}

static uint32_t latency(struct sim_wave *w, enum sim_memkind kind)
{
	uint32_t r = sim_rng(w);
	switch (kind) {
	case SIM_MEM_SMEM:
		return 20 + r % 180;
	case SIM_MEM_LDS:
		return 16 + r % 64;
	default:
		return 100 + r % 700;
	}
}

uint32_t sim_chk_issue(struct sim_wave *w, const struct sim_insn *in)
{
	struct sim_chk *k = &w->chk;
	struct sim_ctx *c = w->ctx;
	enum sim_memkind kind = in->sem->mem;
	bool ret = kind != SIM_MEM_VATOMIC_RET || in->glc;
	uint8_t cnts = 0, group[SIM_NUM_CNTS] = {0};
	switch (kind) {
	case SIM_MEM_SMEM: {
		int cn = c->split_cnts ? CNT_KM : CNT_LGKM;
		cnts = (uint8_t)(1 << cn), group[cn] = 255;
		break;
	}
	case SIM_MEM_LDS:
		cnts = 1 << CNT_LGKM, group[CNT_LGKM] = 1;
		break;
	case SIM_MEM_VSTORE:
		cnts = c->separate_vs ? 1 << CNT_VS : 1 << CNT_VM;
		break;
	case SIM_MEM_VATOMIC_RET:
		cnts = (!ret && c->separate_vs) ? 1 << CNT_VS : 1 << CNT_VM;
		break;
	default:
		cnts = 1 << CNT_VM;
		break;
	}
	if (in->fmt == SIM_FMT_FLAT) {
		cnts |= 1 << CNT_LGKM;
		group[CNT_LGKM] = 255;
	}
	if (w->tr) /* vector memory and LDS return in order, scalar loads do not */
		cu_trace_mem(w, cnts, kind != SIM_MEM_SMEM);
	uint32_t id = ++k->next_id;
	struct sim_memop *op = &k->ring[id % SIM_OPS_RING];
	/* a scalar load its full list let go of SIM_OPS_RING memory operations ago, with no wait
	 * for 0 since, is taken as complete here (a checker limit) */
	if (op->id && !op->done)
		op->done = true;
	memset(op, 0, sizeof *op);
	op->id = id;
	op->pc = in->pc;
	op->insn = in;
	op->cnts = cnts;
	memcpy(op->group, group, sizeof group);
	op->ready = w->clock + latency(w, kind);
	for (int cn = 0; cn < SIM_NUM_CNTS; cn++) {
		if (!((cnts >> cn) & 1))
			continue;
		struct sim_cntlist *l = &k->lists[cn];
		if (group[cn] != 255)
			for (unsigned i = 0; i < l->n; i++) { /* in order within the group */
				struct sim_memop *o = op_of(k, l->ops[i]);
				if (o && o->group[cn] == group[cn] && o->ready > op->ready)
					op->ready = o->ready;
			}
		if (l->n >= cnt_max(c, (int)cn)) /* counter saturated: the hardware stalls issue */
			retire(w, cn, cnt_max(c, (int)cn) - 1, true);
		if (l->n == SIM_CNT_LIST)
			list_drop_oldest(l);
		l->ops[l->n++] = id;
	}
	if (c->gfx9_hazards && (kind == SIM_MEM_VSTORE) && in->sem->bytes > 8) {
		k->store_ws = k->ws;
		k->store_data = (uint16_t)(in->src[1] - SIM_VGPR0);
		k->store_nregs = (uint16_t)(in->sem->bytes / 4);
	}
	return id;
}

void sim_chk_hazards(struct sim_wave *w, const struct sim_insn *in)
{
	struct sim_ctx *c = w->ctx;
	struct sim_chk *k = &w->chk;
	uint16_t f = in->sem->flags;
	if (c->gfx10_hazards && (f & SEM_DENORM))
		need_ws(w, in, k->fp_atomic, 3, "FP atomic then s_denorm_mode (gfx10)");
	if (!c->gfx9_hazards)
		return;
	if (in->dpp == 1 || in->dpp == 2) {
		need_ws(w, in, k->valu_sgpr[SIM_EXEC], 5, "VALU writes EXEC then DPP");
		if (in->src[0] >= SIM_VGPR0)
			need_ws(w, in, k->valu_vgpr[in->src[0] - SIM_VGPR0], 2,
			        "VALU writes VGPR then DPP reads it");
	}
	if ((f & SEM_READLANE) && in->src[1] < SIM_NUM_SREGS && in->fmt == SIM_FMT_VOP3)
		need_ws(w, in, k->valu_sgpr[in->src[1]], 4,
		        "VALU writes SGPR then v_readlane/v_writelane uses it as lane select");
	if (f & SEM_DIV_FMAS)
		need_ws(w, in, k->valu_sgpr[SIM_VCC], 4, "VALU writes VCC then v_div_fmas");
	if (f & (SEM_GETREG | SEM_SETREG))
		need_ws(w, in, k->setreg, 2, "s_setreg then s_getreg/s_setreg");
	if (f & SEM_USES_M0)
		need_ws(w, in, k->salu_m0, 1,
		        "SALU writes M0 then s_sendmsg/s_ttracedata/s_movrel");
	if (c->gfx940_hazards && (f & SEM_READLANE)) {
		need_ws(w, in, k->valu_sgpr[SIM_EXEC], 4,
		        "VALU writes EXEC then v_readlane/v_readfirstlane/v_writelane (gfx940)");
		if (in->src[0] >= SIM_VGPR0 && !(in->fmt == SIM_FMT_VOP3 && in->op == 0))
			need_ws(w, in, k->valu_vgpr[in->src[0] - SIM_VGPR0], 1,
			        "VALU writes VGPR then v_readlane reads it (gfx940)");
	}
}

void sim_chk_after(struct sim_wave *w, const struct sim_insn *in)
{
	struct sim_chk *k = &w->chk;
	uint16_t f = in->sem->flags;
	if (f & SEM_SETREG)
		k->setreg = k->ws;
	if ((f & SEM_VALU) && !(f & SEM_MATRIX))
		k->wmma_d_count = 0; /* any other VALU ends the WMMA-after-WMMA hazard */
	if (w->ctx->gfx10_hazards) { /* a VALU or any s_waitcnt* ends the FP atomic hazard */
		if (f & (SEM_VALU | SEM_WAITCNT))
			k->fp_atomic = 0;
		if ((f & SEM_FP_ATOMIC) && in->fmt != SIM_FMT_DS)
			k->fp_atomic = k->ws;
	}
	if (!w->ctx->gfx11_trans_hazard)
		return;
	k->valu_issued += (f & SEM_VALU) != 0;
	k->trans_issued += (f & SEM_TRANS) != 0;
	/* drains of outstanding VALU writes: vector memory, FLAT and LDS instructions, and
	 * s_waitcnt_depctr with va_vdst (bits 15:12) = 0 */
	bool drains = (in->sem->mem != SIM_MEM_NONE && in->sem->mem != SIM_MEM_SMEM) ||
	              ((f & SEM_DEPCTR) && ((in->imm >> 12) & 0xf) == 0);
	if (drains)
		k->vdst_epoch++;
}

void sim_chk_end(struct sim_wave *w)
{
	(void)w;
}
