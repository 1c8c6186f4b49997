/* The MFMA/WMMA dependency rules of the hazard pass (hazards.c walks them; its rule table
 * names these consumers and steps).  Algorithm: each step looks at one earlier instruction P
 * on the walk back from a consumer.  MFMA producers (gfx90a, gfx942) need wait states that
 * depend on P's passes NP (the instruction table's `passes`), so their steps never end the
 * walk: they record in lk->miss the most wait states any producer still lacks, and the walk
 * stops once the rule's largest need has passed.  The counts, as LLVM's GCNHazardRecognizer
 * has them (checkMAIHazards90A, checkMAIVALUHazards; ../shared/reference/hazards.txt; the
 * CDNA2/CDNA3 ISA dependency tables): a VALU, memory or MFMA srcA/srcB read, or a VALU
 * overwrite, of P's D: NP + 3 (gfx942 non-XDL NP + 2; f64 4x4 6 / memory 9, 16x16 11 /
 * memory 18); the next MFMA's srcC on the same registers: 0 (f64 4x4 4, gfx942 2-pass 2),
 * overlapping: NP (gfx942 XDL NP + 1, f64 consumer NP + 1 on gfx90a, f64 P 9 / 4); a VALU
 * overwriting P's srcC: NP - 1; a VALU writing what an MFMA reads: 2.  WMMA (gfx11, gfx12):
 * a WMMA reading the previous WMMA's D as A or B with no other VALU between hits, fixed with
 * a v_nop.  Written apart from amdsim's (src/sim/check.c); tests/sched (kernel "mfma") and
 * tests/sim/test_matrix.py (clang-19's s_nop counts) judge them.
 *   complexity: O(1) per step (a few operand ranges). */
#include <string.h>

#include "sched/hazards_int.h"
#include "sched/sched_int.h"

const struct amd_matrix_info *hz_mfma_of(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	return row && (row->flags & AMD_F_MAI) ? amd_isa_matrix((enum amd_opcode)in->op) : NULL;
}

static bool is_dot(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	return row && !strncmp(row->name, "v_dot", 5);
}

/* The slots of MFMA operand k (0 D, 1 A, 2 B, 3 C); empty for a constant C. */
static struct sched_range mfma_opnd(const struct hz *hz, const struct mir_insn *in, unsigned k)
{
	unsigned i = sched_row_base(in) + k;
	struct sched_range none = {0, 0};
	return i < in->nopnds ? sched_opnd_slots(hz->fn, &in->opnds[i]) : none;
}

static bool overlaps(struct sched_range a, struct sched_range b)
{
	return a.count && b.count && sched_ranges_overlap(&a, 1, &b, 1);
}

static unsigned mfma_raw_need(const struct hz *hz, const struct amd_matrix_info *p, bool mem)
{
	unsigned np = p->passes[hz->gen];
	if (p->ab_type == AMD_MT_F64)
		return np <= 4 ? (mem ? 9 : 6) : (mem ? 18 : 11);
	return hz->gen == AMD_GFX940 && !p->xdl ? np + 2 : np + 3;
}

static void note_miss(struct look *lk, unsigned need)
{
	unsigned miss = need > lk->states ? need - lk->states : 0;
	lk->miss = miss > lk->miss ? miss : lk->miss;
}

bool hz_mfma_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return hz_mfma_of(in) != NULL;
}

bool hz_matrix_reader_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	unsigned u = hz_unit_of(in);
	return u == AMD_UNIT_VALU || u == AMD_UNIT_TRANS || hz_is_vmem(in) || u == AMD_UNIT_LDS;
}

/* P = MFMA; the consumer reads (VALU, memory, MFMA srcA/srcB) or a VALU overwrites P's D. */
enum step hz_mfma_result_step(const struct hz *hz, const struct mir_insn *c,
                              const struct mir_insn *p, struct look *lk)
{
	const struct amd_matrix_info *pm = hz_mfma_of(p);
	if (!pm)
		return STEP_CONTINUE;
	struct sched_range d = mfma_opnd(hz, p, 0);
	bool hit;
	if (hz_mfma_of(c)) {
		hit = overlaps(d, mfma_opnd(hz, c, 1)) || overlaps(d, mfma_opnd(hz, c, 2));
	} else {
		struct sched_range uses[SCHED_MAX_RANGES], defs[SCHED_MAX_RANGES];
		unsigned nu = sched_insn_uses(hz->fn, c, uses);
		unsigned nd = hz_is_valu(c) ? sched_insn_defs(hz->fn, c, defs) : 0;
		hit = sched_ranges_overlap(&d, 1, uses, nu) ||
		      sched_ranges_overlap(&d, 1, defs, nd);
	}
	if (hit)
		note_miss(lk, mfma_raw_need(hz, pm, !hz_is_valu(c) && !hz_mfma_of(c)));
	return STEP_CONTINUE;
}

/* P = MFMA writing registers the consumer MFMA reads as srcC. */
enum step hz_mfma_srcc_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                            struct look *lk)
{
	const struct amd_matrix_info *pm = hz_mfma_of(p), *cm = hz_mfma_of(c);
	if (!pm)
		return STEP_CONTINUE;
	struct sched_range d = mfma_opnd(hz, p, 0), src_c = mfma_opnd(hz, c, 3);
	if (!overlaps(d, src_c))
		return STEP_CONTINUE;
	unsigned np = pm->passes[hz->gen], need;
	bool f64 = pm->ab_type == AMD_MT_F64, gfx940 = hz->gen == AMD_GFX940;
	if (d.first == src_c.first && d.count == src_c.count)
		need = f64 && np <= 4 ? 4 : gfx940 && !f64 && np == 2 ? 2 : 0;
	else if (f64)
		need = np <= 4 ? 4 : 9;
	else if (gfx940)
		need = pm->xdl ? np + 1 : np;
	else
		need = cm && cm->ab_type == AMD_MT_F64 ? np + 1 : np;
	note_miss(lk, need);
	return STEP_CONTINUE;
}

/* P = MFMA (not f64) reading as srcC a register the consumer VALU overwrites. */
enum step hz_mfma_war_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                           struct look *lk)
{
	const struct amd_matrix_info *pm = hz_mfma_of(p);
	if (!pm || pm->ab_type == AMD_MT_F64 || !hz_is_valu(c) || hz_mfma_of(c))
		return STEP_CONTINUE;
	struct sched_range defs[SCHED_MAX_RANGES], src_c = mfma_opnd(hz, p, 3);
	unsigned nd = sched_insn_defs(hz->fn, c, defs);
	if (src_c.count && sched_ranges_overlap(&src_c, 1, defs, nd))
		note_miss(lk, pm->passes[hz->gen] - 1);
	return STEP_CONTINUE;
}

/* P = a VALU other than MFMA or a dot product writing a VGPR the MFMA reads. */
enum step hz_valu_to_mfma_step(const struct hz *hz, const struct mir_insn *c,
                               const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	if (!hz_is_valu(p) || hz_mfma_of(p) || is_dot(p))
		return STEP_CONTINUE;
	return hz_writes_read(hz, p, c, SCHED_SLOT_VGPR0, SCHED_NUM_SLOTS) ? STEP_HIT
	                                                                   : STEP_CONTINUE;
}

/* gfx11/gfx12 (LLVM's fixWMMAHazards): a WMMA reading the previous WMMA's D as A or B with
 * no VALU instruction in between; fixed with a v_nop. */
bool hz_wmma_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	const struct amd_isa_op *row = sched_row(in);
	return row && (row->flags & AMD_F_WMMA);
}

enum step hz_wmma_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                       struct look *lk)
{
	(void)lk;
	if (!hz_is_valu(p))
		return STEP_CONTINUE;
	if (!hz_wmma_consumer(hz, p))
		return STEP_EXPIRED;
	struct sched_range d = mfma_opnd(hz, p, 0);
	return overlaps(d, mfma_opnd(hz, c, 1)) || overlaps(d, mfma_opnd(hz, c, 2)) ? STEP_HIT
	                                                                            : STEP_EXPIRED;
}
