/* Software hazards: s_nop (gfx90a, gfx942), s_waitcnt_depctr (gfx11) and s_delay_alu
 * (gfx11, gfx12).
 *
 * Each hazard is a rule (table `rules`): which instructions are consumers, and a step
 * function that, walking back from a consumer over earlier instructions (through the
 * block, then every linear predecessor), says whether an instruction is the producer of
 * the hazard, ends it (a VALU, a drain, enough wait states) or neither.  gfx9-family rules
 * count wait states (one per instruction, N+1 for s_nop N) and are fixed with s_nop; the
 * gfx11 rules (VALUTransUse, VALUPartialForwarding, VALUMaskWrite) are fixed with the
 * s_waitcnt_depctr LLVM's GCNHazardRecognizer uses.  gfx1030 and gfx1200 have none of the
 * software hazards our code can hit: the gfx10 ones (VcmpxExecWAR, VMEMtoScalarWrite,
 * SMEMtoVectorWrite, LdsBranchVmemWAR) are features of gfx101x only, not of gfx1030, in
 * LLVM's processor definitions.  Facts: ../shared/reference/hazards.txt, LLVM's
 * GCNHazardRecognizer and processor feature lists, the AMD ISA manuals.  The MFMA/WMMA
 * dependency rules' consumers and steps live in hazards_matrix.c (hazards_int.h).  Then, on
 * gfx11/gfx12, each VALU/TRANS result read within the dependency window gets an
 * s_delay_alu naming it (AMDGPUInsertDelayAlu's instid encoding; a hint for speed, never
 * needed for correctness: the hardware interlocks).  Walking into a predecessor that is not
 * yet rewritten sees fewer wait states than it will have, so the result stays safe; a walk
 * that reaches WALK_LIMIT without a verdict assumes the hazard.
 *   requires: physical operands; waits already placed (they count as wait states).
 *   breaks: instruction positions.
 *   complexity: O(instructions x rules x window); windows are at most 64 instructions. */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/hazards_int.h"
#include "sched/sched_int.h"

enum fix { FIX_NOP, FIX_DEPCTR, FIX_DEPCTR_AFTER, FIX_VNOP };
enum { WALK_LIMIT = 64, WALK_DEPTH = 8, DELAY_WINDOW = 64 };

struct rule {
	const char *name;
	uint8_t gens;   /* bit per enum amd_gen */
	uint8_t fix;    /* enum fix */
	uint8_t states; /* FIX_NOP: wait states the hazard needs */
	uint16_t depctr;
	bool memoryless; /* the step keeps no counts: each block needs one visit per walk */
	bool (*is_consumer)(const struct hz *hz, const struct mir_insn *in);
	enum step (*step)(const struct hz *hz, const struct mir_insn *consumer,
	                  const struct mir_insn *prev, struct look *lk);
};

struct delay_memo {
	uint32_t stamp; /* hz.stamp of the block it was filled in (0: never) */
	uint32_t off;   /* its defs: pool[off .. off + ndefs) */
	uint8_t unit, ndefs;
};

#define GEN(g) (1u << (g))

/* ---- instruction classes ---- */

static bool is_salu(const struct mir_insn *in)
{
	return hz_unit_of(in) == AMD_UNIT_SALU;
}

static bool is_fix(const struct mir_insn *in)
{
	if (in->op == AMD_OP_S_NOP || in->op == AMD_OP_S_WAITCNT_DEPCTR ||
	    in->op == AMD_OP_S_DELAY_ALU || in->op == AMD_OP_V_NOP)
		return true;
	return in->op == AMD_OP_S_MOV_B32 && in->opnds[0].kind == MIR_SPECIAL &&
	       in->opnds[0].v == AMD_SPEC_NULL;
}

static unsigned wait_states(const struct mir_insn *in)
{
	if (in->op == AMD_OP_S_NOP)
		return (in->opnds[0].v & 15) + 1;
	return in->op == AMD_OP_S_DELAY_ALU ? 0 : 1;
}

static unsigned depctr_field(const struct mir_insn *in, unsigned shift, unsigned width)
{
	if (in->op != AMD_OP_S_WAITCNT_DEPCTR)
		return ~0u;
	return (in->opnds[0].v >> shift) & ((1u << width) - 1);
}

/* Whether prev writes a register in `slot_lo..slot_hi` that consumer reads (uses) or
 * writes (defs). */
bool hz_writes_read(const struct hz *hz, const struct mir_insn *prev,
                    const struct mir_insn *consumer, unsigned slot_lo, unsigned slot_hi)
{
	struct sched_range defs[SCHED_MAX_RANGES], uses[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, prev, defs);
	unsigned nu = sched_insn_uses(hz->fn, consumer, uses);
	struct sched_range window = {(uint16_t)slot_lo, (uint16_t)(slot_hi - slot_lo)};
	for (unsigned i = 0; i < nd; i++) {
		if (!sched_ranges_overlap(&defs[i], 1, &window, 1))
			continue;
		if (sched_ranges_overlap(&defs[i], 1, uses, nu))
			return true;
	}
	return false;
}

static bool writes_sgpr_read(const struct hz *hz, const struct mir_insn *prev,
                             const struct mir_insn *consumer)
{
	return hz_writes_read(hz, prev, consumer, 0, SCHED_SLOT_SCC);
}

static bool writes_opnd(const struct hz *hz, const struct mir_insn *prev, const struct mir_opnd *o)
{
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, prev, defs);
	struct sched_range r = sched_opnd_slots(hz->fn, o);
	return r.count && sched_ranges_overlap(defs, nd, &r, 1);
}

static bool writes_slots(const struct hz *hz, const struct mir_insn *prev, unsigned first,
                         unsigned count)
{
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, prev, defs);
	struct sched_range r = {(uint16_t)first, (uint16_t)count};
	return sched_ranges_overlap(defs, nd, &r, 1);
}

static unsigned mask_width(const struct hz *hz)
{
	return hz->fn->wave_size == 64 ? 2 : 1;
}

/* ---- gfx90a / gfx942 (wait states, s_nop) ---- */

static bool vmem_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return hz_is_vmem(in);
}

static enum step valu_sgpr_step(const struct hz *hz, const struct mir_insn *c,
                                const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	return hz_is_valu(p) && writes_sgpr_read(hz, p, c) ? STEP_HIT : STEP_CONTINUE;
}

static bool lane_select_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return in->op == AMD_OP_V_READLANE_B32 || in->op == AMD_OP_V_WRITELANE_B32;
}

static enum step lane_select_step(const struct hz *hz, const struct mir_insn *c,
                                  const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	return hz_is_valu(p) && writes_opnd(hz, p, &c->opnds[2]) ? STEP_HIT : STEP_CONTINUE;
}

static bool div_fmas_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	const struct amd_isa_op *row = sched_row(in);
	return row && (row->flags & AMD_F_READS_VCC);
}

static enum step vcc_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                          struct look *lk)
{
	(void)c, (void)lk;
	return hz_is_valu(p) && writes_slots(hz, p, SCHED_SLOT_VCC_LO, mask_width(hz))
	               ? STEP_HIT
	               : STEP_CONTINUE;
}

static bool hwreg_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return in->op == AMD_OP_S_GETREG_B32 || in->op == AMD_OP_S_SETREG_B32;
}

static enum step setreg_step(const struct hz *hz, const struct mir_insn *c,
                             const struct mir_insn *p, struct look *lk)
{
	(void)hz, (void)c, (void)lk;
	return p->op == AMD_OP_S_SETREG_B32 ? STEP_HIT : STEP_CONTINUE;
}

static bool m0_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return in->op == AMD_OP_S_SENDMSG;
}

static enum step m0_step(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                         struct look *lk)
{
	(void)c, (void)lk;
	return is_salu(p) && writes_slots(hz, p, SCHED_SLOT_M0, 1) ? STEP_HIT : STEP_CONTINUE;
}

static bool valu_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return hz_is_valu(in);
}

/* A store wider than 8 bytes: its data VGPRs must not be overwritten by the next VALU. */
static enum step wide_store_step(const struct hz *hz, const struct mir_insn *c,
                                 const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	const struct amd_isa_op *row = sched_row(p);
	if (!row || !hz_is_vmem(p) || !(row->flags & AMD_F_STORE))
		return STEP_CONTINUE;
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, c, defs);
	for (unsigned i = 0; i < p->nopnds; i++) {
		const struct mir_opnd *o = &p->opnds[i];
		if (o->kind != MIR_VGPR || o->width <= 2)
			continue;
		struct sched_range r = sched_opnd_slots(hz->fn, o);
		if (sched_ranges_overlap(defs, nd, &r, 1))
			return STEP_HIT;
	}
	return STEP_CONTINUE;
}

static enum step trans_use_step(const struct hz *hz, const struct mir_insn *c,
                                const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	if (hz_unit_of(c) != AMD_UNIT_VALU || hz_unit_of(p) != AMD_UNIT_TRANS)
		return STEP_CONTINUE;
	return hz_writes_read(hz, p, c, SCHED_SLOT_VGPR0, SCHED_NUM_SLOTS) ? STEP_HIT
	                                                                   : STEP_CONTINUE;
}

/* gfx942 (LLVM's DstSelForwardingHazard, a GFX940 feature): a VALU whose result may come
 * through the dst-select forwarding path needs 1 wait state before a VALU that reads or
 * writes that register.  For the packed 32-bit rows LLVM takes src0's op_sel_hi bit for the
 * DST_OP_SEL bit (one bit of its modifier word): clang-19 puts an s_nop 0 between a
 * v_pk_fma/mul/add_f32 with src0's default op_sel_hi and the next VALU using its result, and
 * none when that bit is clear. */
static bool dst_sel_forwards(const struct mir_insn *p)
{
	if (p->op != AMD_OP_V_PK_FMA_F32 && p->op != AMD_OP_V_PK_MUL_F32 &&
	    p->op != AMD_OP_V_PK_ADD_F32 && p->op != AMD_OP_V_PK_MOV_B32)
		return false;
	return !p->op_sel_hi_set || (p->op_sel_hi & 1);
}

static enum step dst_sel_step(const struct hz *hz, const struct mir_insn *c,
                              const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	if (!dst_sel_forwards(p))
		return STEP_CONTINUE;
	struct sched_range pd[SCHED_MAX_RANGES], cd[SCHED_MAX_RANGES];
	unsigned npd = sched_insn_defs(hz->fn, p, pd), ncd = sched_insn_defs(hz->fn, c, cd);
	return hz_writes_read(hz, p, c, SCHED_SLOT_VGPR0, SCHED_NUM_SLOTS) ||
	                       sched_ranges_overlap(pd, npd, cd, ncd)
	               ? STEP_HIT
	               : STEP_CONTINUE;
}

static bool readlane_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return in->op == AMD_OP_V_READLANE_B32 || in->op == AMD_OP_V_READFIRSTLANE_B32 ||
	       in->op == AMD_OP_V_WRITELANE_B32;
}

static enum step exec_readlane_step(const struct hz *hz, const struct mir_insn *c,
                                    const struct mir_insn *p, struct look *lk)
{
	(void)c, (void)lk;
	return hz_is_valu(p) && writes_slots(hz, p, SCHED_SLOT_EXEC_LO, mask_width(hz))
	               ? STEP_HIT
	               : STEP_CONTINUE;
}

static enum step vgpr_readlane_step(const struct hz *hz, const struct mir_insn *c,
                                    const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	if (c->op == AMD_OP_V_WRITELANE_B32 || !hz_is_valu(p))
		return STEP_CONTINUE;
	return writes_opnd(hz, p, &c->opnds[1]) ? STEP_HIT : STEP_CONTINUE;
}

static bool dpp_consumer(const struct hz *hz, const struct mir_insn *in)
{
	(void)hz;
	return in->dpp != 0;
}

/* DPP reads its permuted source (src0, opnds[1] after the VOP1/VOP2 destination) from
 * other lanes: 2 wait states after a VALU wrote it. */
static enum step dpp_vgpr_step(const struct hz *hz, const struct mir_insn *c,
                               const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	return hz_is_valu(p) && writes_opnd(hz, p, &c->opnds[1]) ? STEP_HIT : STEP_CONTINUE;
}

/* ---- gfx11 (s_waitcnt_depctr fixes) ---- */

/* VALUTransUse (gfx11): a VALU reads a TRANS result with at most 5 VALU and 1 TRANS
 * between, and no va_vdst drain. */
/* A drain of outstanding VALU writes: va_vdst(0), or vector memory, FLAT or LDS. */
static bool drains_valu(const struct mir_insn *p)
{
	return depctr_field(p, 12, 4) == 0 || hz_is_vmem(p) || hz_unit_of(p) == AMD_UNIT_LDS;
}

static enum step trans_drain_step(const struct hz *hz, const struct mir_insn *c,
                                  const struct mir_insn *p, struct look *lk)
{
	if (drains_valu(p))
		return STEP_EXPIRED;
	if (hz_unit_of(p) == AMD_UNIT_TRANS &&
	    hz_writes_read(hz, p, c, SCHED_SLOT_VGPR0, SCHED_NUM_SLOTS))
		return STEP_HIT;
	if (hz_unit_of(p) == AMD_UNIT_TRANS && ++lk->trans > 1)
		return STEP_EXPIRED;
	if (hz_unit_of(p) == AMD_UNIT_VALU && ++lk->valu > 5)
		return STEP_EXPIRED;
	return STEP_CONTINUE;
}

/* The distinct VGPR source operands of a VALU (at most MAX_FORWARD_SRCS). */
static unsigned vgpr_sources(const struct hz *hz, const struct mir_insn *in,
                             struct sched_range out[MAX_FORWARD_SRCS])
{
	struct sched_range uses[SCHED_MAX_RANGES];
	unsigned nu = sched_insn_uses(hz->fn, in, uses), n = 0;
	for (unsigned i = 0; i < nu && n < MAX_FORWARD_SRCS; i++) {
		bool seen = false;
		for (unsigned k = 0; k < n; k++)
			seen |= out[k].first == uses[i].first && out[k].count == uses[i].count;
		if (uses[i].first >= SCHED_SLOT_VGPR0 && !seen)
			out[n++] = uses[i];
	}
	return n;
}

static bool partial_forward_consumer(const struct hz *hz, const struct mir_insn *in)
{
	struct sched_range srcs[MAX_FORWARD_SRCS];
	return hz->fn->wave_size == 64 && hz_is_valu(in) && vgpr_sources(hz, in, srcs) >= 2;
}

/* Records which sources / exec `p` writes; true when something new was seen. */
static bool forward_track(const struct hz *hz, const struct mir_insn *c, const struct mir_insn *p,
                          struct look *lk)
{
	struct sched_range srcs[MAX_FORWARD_SRCS], defs[SCHED_MAX_RANGES];
	unsigned ns = vgpr_sources(hz, c, srcs), nd = sched_insn_defs(hz->fn, p, defs);
	bool changed = false, any_def = false;
	for (unsigned k = 0; k < ns; k++)
		any_def |= lk->def_pos[k] != 0;
	if (hz_is_valu(p)) {
		for (unsigned k = 0; k < ns; k++)
			if (!lk->def_pos[k] && sched_ranges_overlap(defs, nd, &srcs[k], 1))
				lk->def_pos[k] = (uint8_t)(lk->valu + 1), changed = true;
	} else if (is_salu(p) && !lk->exec_pos && any_def) {
		struct sched_range exec = {SCHED_SLOT_EXEC_LO, (uint16_t)mask_width(hz)};
		if (sched_ranges_overlap(defs, nd, &exec, 1))
			lk->exec_pos = (uint8_t)(lk->valu + 1), changed = true;
	}
	return changed;
}

/* Whether the positions seen so far form the hazard (HIT), cannot any more (EXPIRED) or
 * may still (CONTINUE): Va written before the exec write and Vb after it, with at most 2
 * VALUs around the exec write and at most 4 between Vb's write and the consumer. */
static enum step forward_verdict(const struct look *lk)
{
	int exec = lk->exec_pos - 1, pre = 255, post = 255;
	for (unsigned k = 0; k < MAX_FORWARD_SRCS; k++) {
		int pos = lk->def_pos[k] - 1;
		if (pos < 0)
			continue;
		if (pos >= exec && pos < pre)
			pre = pos;
		if (pos < exec && pos < post)
			post = pos;
	}
	if (post == 255)
		return STEP_CONTINUE;
	int after_exec = exec - post - 1;
	if (post > 4 || after_exec > 2)
		return STEP_EXPIRED;
	if (pre == 255)
		return STEP_CONTINUE;
	int before_exec = pre - exec;
	return before_exec + after_exec > 2 ? STEP_EXPIRED : STEP_HIT;
}

/* VALUPartialForwarding (gfx11 wave64). */
static enum step partial_forward_step(const struct hz *hz, const struct mir_insn *c,
                                      const struct mir_insn *p, struct look *lk)
{
	if (lk->valu > 8 || drains_valu(p))
		return STEP_EXPIRED;
	bool changed = forward_track(hz, c, p, lk);
	bool any_def = false;
	for (unsigned k = 0; k < MAX_FORWARD_SRCS; k++)
		any_def |= lk->def_pos[k] != 0;
	enum step verdict = STEP_CONTINUE;
	if (lk->valu > 4 && !any_def)
		verdict = STEP_EXPIRED;
	else if (changed && lk->exec_pos)
		verdict = forward_verdict(lk);
	lk->valu += hz_is_valu(p);
	return verdict;
}

static bool mask_write_consumer(const struct hz *hz, const struct mir_insn *in)
{
	if (hz->fn->wave_size != 64 || !is_salu(in))
		return false;
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, in, defs);
	for (unsigned i = 0; i < nd; i++)
		if (defs[i].first < SCHED_SLOT_M0)
			return true;
	return false;
}

/* Whether a VALU reads, as a lane mask (vcc of e32 forms, the mask source of e64 forms,
 * v_div_fmas's vcc), an SGPR the consumer writes. */
static bool reads_mask_written(const struct hz *hz, const struct mir_insn *valu,
                               const struct mir_insn *consumer)
{
	const struct amd_isa_op *row = sched_row(valu);
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, consumer, defs);
	if (row->flags & AMD_F_READS_VCC) {
		struct sched_range vcc = {SCHED_SLOT_VCC_LO, (uint16_t)mask_width(hz)};
		if (sched_ranges_overlap(defs, nd, &vcc, 1))
			return true;
	}
	unsigned base = sched_row_base(valu);
	for (unsigned i = 0; i < row->nopnds && base + i < valu->nopnds; i++) {
		const struct amd_opnd_desc *d = &row->opnds[i];
		if (d->role != AMD_ROLE_SRC ||
		    (d->kind != AMD_OPK_VCC && d->kind != AMD_OPK_MASK_SRC))
			continue;
		struct sched_range r = sched_opnd_slots(hz->fn, &valu->opnds[base + i]);
		if (r.count && sched_ranges_overlap(defs, nd, &r, 1))
			return true;
	}
	return false;
}

/* VALUMaskWrite (gfx11 wave64): a VALU reads an SGPR as lane mask, then an SALU writes it;
 * a later read would see a stale value.  Ends at sa_sdst(0) or a VALU reading another
 * SGPR; fixed by s_waitcnt_depctr sa_sdst(0) right after the SALU write. */
static enum step mask_write_step(const struct hz *hz, const struct mir_insn *c,
                                 const struct mir_insn *p, struct look *lk)
{
	(void)lk;
	if (depctr_field(p, 0, 1) == 0)
		return STEP_EXPIRED;
	if (!hz_is_valu(p))
		return STEP_CONTINUE;
	if (reads_mask_written(hz, p, c))
		return STEP_HIT;
	struct sched_range uses[SCHED_MAX_RANGES];
	unsigned nu = sched_insn_uses(hz->fn, p, uses);
	for (unsigned i = 0; i < nu; i++)
		if (uses[i].first < SCHED_SLOT_M0)
			return STEP_EXPIRED;
	return STEP_CONTINUE;
}

static const struct rule rules[] = {
        {"VALU writes SGPR, VMEM reads it", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 5, 0, false,
         vmem_consumer, valu_sgpr_step},
        {"VALU writes SGPR, v_readlane/v_writelane lane select", GEN(AMD_GFX9) | GEN(AMD_GFX940),
         FIX_NOP, 4, 0, false, lane_select_consumer, lane_select_step},
        {"VALU writes VCC, v_div_fmas reads it", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 4, 0,
         false, div_fmas_consumer, vcc_step},
        {"s_setreg, then s_getreg/s_setreg", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 2, 0, false,
         hwreg_consumer, setreg_step},
        {"SALU writes M0, s_sendmsg", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 1, 0, false,
         m0_consumer, m0_step},
        {"VALU overwrites the data of a store wider than 8 bytes", GEN(AMD_GFX9) | GEN(AMD_GFX940),
         FIX_NOP, 1, 0, false, valu_consumer, wide_store_step},
        {"VALU writes SGPR/VCC, VALU reads it (no interlock)", GEN(AMD_GFX940), FIX_NOP, 2, 0,
         false, valu_consumer, valu_sgpr_step},
        {"transcendental result, VALU uses it", GEN(AMD_GFX940), FIX_NOP, 1, 0, false,
         valu_consumer, trans_use_step},
        {"packed f32 result through dst-select forwarding, VALU uses it", GEN(AMD_GFX940), FIX_NOP,
         1, 0, false, valu_consumer, dst_sel_step},
        {"VALU writes EXEC, v_readlane/v_readfirstlane/v_writelane", GEN(AMD_GFX940), FIX_NOP, 4, 0,
         false, readlane_consumer, exec_readlane_step},
        {"VALU writes VGPR, v_readlane/v_readfirstlane reads it", GEN(AMD_GFX940), FIX_NOP, 1, 0,
         false, readlane_consumer, vgpr_readlane_step},
        {"VALU writes VGPR, DPP reads it", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 2, 0, false,
         dpp_consumer, dpp_vgpr_step},
        {"VALU writes EXEC, DPP", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 5, 0, false,
         dpp_consumer, exec_readlane_step},
        {"VALUTransUse: VALU reads a transcendental result", GEN(AMD_GFX11), FIX_DEPCTR, 0, 0x0fff,
         false, valu_consumer, trans_drain_step},
        {"VALUPartialForwarding: VALU reads VGPRs written around an exec write", GEN(AMD_GFX11),
         FIX_DEPCTR, 0, 0x0fff, false, partial_forward_consumer, partial_forward_step},
        {"VALUMaskWrite: VALU reads SGPR as lane mask, SALU writes it", GEN(AMD_GFX11),
         FIX_DEPCTR_AFTER, 0, 0xfffe, true, mask_write_consumer, mask_write_step},
        {"MFMA result, then a VALU/memory/MFMA srcA-B read or a VALU write",
         GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 19, 0, false, hz_matrix_reader_consumer,
         hz_mfma_result_step},
        {"MFMA result, then an MFMA reading it as srcC", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP,
         19, 0, false, hz_mfma_consumer, hz_mfma_srcc_step},
        {"MFMA reads srcC, then a VALU overwrites it", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 15,
         0, false, hz_matrix_reader_consumer, hz_mfma_war_step},
        {"VALU writes VGPR, MFMA reads it", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 2, 0, false,
         hz_mfma_consumer, hz_valu_to_mfma_step},
        {"VALU writes EXEC, MFMA", GEN(AMD_GFX9) | GEN(AMD_GFX940), FIX_NOP, 4, 0, false,
         hz_mfma_consumer, exec_readlane_step},
        {"WMMA reads the previous WMMA's result as A/B", GEN(AMD_GFX11) | GEN(AMD_GFX12), FIX_VNOP,
         0, 0, false, hz_wmma_consumer, hz_wmma_step},
};
enum { NUM_RULES = sizeof rules / sizeof rules[0] };

/* ---- walking back ---- */

/* What `rule` needs before `consumer`, looking back from position `end` of block b (whose
 * instructions are `insns`): FIX_NOP wait states missing, or 1 for a hit of another fix. */
static bool producer_is_mfma(const struct rule *r);

/* Walks a whole block b for an MFMA-producer rule in a function without MFMA, whose step
 * continues at every instruction without a miss: only the wait states and the count matter,
 * and the per-instruction loop of walk() ends inside the block exactly when the block's
 * totals reach the rule's states or WALK_LIMIT (both grow with every instruction).  True
 * when the walk ends here, with *result what walk() returns then; else lk is past the block. */
static bool walk_plain_block(const struct hz *hz, const struct rule *rule, uint32_t b,
                             struct look *lk, unsigned *result)
{
	const struct mir_block *bl = &hz->fn->blocks[b];
	if (!hz->block_known[b]) {
		uint32_t states = 0;
		for (uint32_t j = 0; j < bl->ninsns; j++)
			states += wait_states(&bl->insns[j]);
		hz->block_states[b] = states;
		hz->block_known[b] = true;
	}
	lk->states += hz->block_states[b];
	lk->count += bl->ninsns;
	if ((rule->fix == FIX_NOP && lk->states >= rule->states) || lk->count >= WALK_LIMIT) {
		*result = rule->fix == FIX_NOP ? lk->miss : 1;
		return true;
	}
	return false;
}

static unsigned walk(const struct hz *hz, const struct rule *rule, const struct mir_insn *consumer,
                     uint32_t b, const struct mir_insn *insns, uint32_t end, struct look lk,
                     unsigned depth)
{
	unsigned result;
	if (hz->block_known && insns == hz->fn->blocks[b].insns &&
	    end == hz->fn->blocks[b].ninsns && producer_is_mfma(rule)) {
		if (walk_plain_block(hz, rule, b, &lk, &result))
			return result;
		end = 0; /* (the block is passed) */
	}
	for (uint32_t j = end; j-- > 0;) {
		const struct mir_insn *p = &insns[j];
		if (hz->ignore_fixes && is_fix(p))
			continue;
		enum step s = rule->step(hz, consumer, p, &lk);
		if (s == STEP_HIT)
			return rule->fix == FIX_NOP ? rule->states - lk.states : 1;
		if (s == STEP_EXPIRED)
			return lk.miss;
		lk.states += wait_states(p);
		lk.count++;
		if (rule->fix == FIX_NOP && lk.states >= rule->states)
			return lk.miss;
		if (lk.count >= WALK_LIMIT)
			return rule->fix == FIX_NOP ? lk.miss : 1; /* unknown: be safe */
	}
	if (!depth)
		return rule->fix == FIX_NOP ? rule->states - lk.states : 1;
	unsigned need = lk.miss;
	for (uint32_t k = 0; k < hz->npreds[b]; k++) {
		uint32_t p = hz->preds[b][k];
		if (rule->memoryless && hz->visited[p]++)
			continue;
		const struct mir_block *pb = &hz->fn->blocks[p];
		unsigned n = walk(hz, rule, consumer, p, pb->insns, pb->ninsns, lk, depth - 1);
		need = n > need ? n : need;
	}
	return need;
}

/* A rule whose producer is an MFMA: its step continues, recording no miss, at any other
 * instruction. */
static bool producer_is_mfma(const struct rule *r)
{
	return r->step == hz_mfma_result_step || r->step == hz_mfma_srcc_step ||
	       r->step == hz_mfma_war_step;
}

/* Per rule, what the consumer needs given the code before it.  In a function without MFMA,
 * an MFMA-producer rule with at least `states` instructions before the consumer in its block
 * needs nothing: its walk would end there (on gfx9/gfx940, its targets, every instruction
 * is a wait state or more) with nothing missed -- and it was the most walked of all rules
 * (every VALU and memory instruction is its consumer). */
static void rule_needs(const struct hz *hz, const struct mir_insn *consumer,
                       const struct mir_insn *before, uint32_t nbefore, unsigned need[NUM_RULES])
{
	for (unsigned r = 0; r < NUM_RULES; r++) {
		need[r] = 0;
		if (!(rules[r].gens & GEN(hz->gen)) || !rules[r].is_consumer(hz, consumer))
			continue;
		if (hz->no_mfma && !hz->ignore_fixes && nbefore >= rules[r].states &&
		    producer_is_mfma(&rules[r]))
			continue;
		struct look lk = {0};
		if (rules[r].memoryless)
			memset(hz->visited, 0, hz->fn->nblocks);
		need[r] = walk(hz, &rules[r], consumer, hz->cur_block, before, nbefore, lk,
		               WALK_DEPTH);
	}
}

/* ---- s_delay_alu ---- */

/* The s_delay_alu operand for `in`: the closest VALU and TRANS producers of what it reads
 * within the windows s_delay_alu can name (VALU_DEP_n counts non-TRANS VALUs, 1..4;
 * TRANS32_DEP_n counts TRANS, 1..3), in the block so far, as AMDGPUInsertDelayAlu encodes
 * them (the VALU one only when it is younger than the TRANS one).  A register rewritten
 * later no longer depends on the older producer; a va_vdst(0) drain ends the search.
 * 0: no delay. */
/* The unit and the registers written of before[j] (delay_for's memo). */
static const struct delay_memo *memo_of(struct hz *hz, const struct mir_insn *before, uint32_t j)
{
	hz->memo = pa_arena_grow(mir_pass_arena(hz->fn), hz->memo, &hz->memo_cap, j + 1,
	                         sizeof *hz->memo);
	struct delay_memo *m = &hz->memo[j];
	if (m->stamp == hz->stamp)
		return m;
	struct sched_range defs[SCHED_MAX_RANGES];
	unsigned nd = sched_insn_defs(hz->fn, &before[j], defs);
	hz->pool = pa_arena_grow(mir_pass_arena(hz->fn), hz->pool, &hz->pool_cap,
	                         hz->npool + nd + 1, sizeof *hz->pool);
	memcpy(hz->pool + hz->npool, defs, nd * sizeof *defs);
	*m = (struct delay_memo){.stamp = hz->stamp,
	                         .off = hz->npool,
	                         .unit = (uint8_t)hz_unit_of(&before[j]),
	                         .ndefs = (uint8_t)nd};
	hz->npool += nd;
	return m;
}

static uint32_t delay_for(struct hz *hz, const struct mir_insn *in, const struct mir_insn *before,
                          uint32_t nbefore)
{
	uint8_t pending[SCHED_NUM_SLOTS] = {0};
	struct sched_range uses[SCHED_MAX_RANGES];
	unsigned nu = sched_insn_uses(hz->fn, in, uses), npending = 0;
	for (unsigned u = 0; u < nu; u++)
		for (unsigned s = uses[u].first; s < uses[u].first + uses[u].count; s++)
			npending += !pending[s], pending[s] = 1;
	unsigned nvalu = 0, ntrans = 0, valu_dep = 0, trans_dep = 0, valu_at_trans = 0;
	/* Only the last DELAY_WINDOW instructions: a producer further back has long finished,
	 * and without the bound code with no TRANS would search every block back to its start
	 * for every VALU (s_delay_alu is a hint; omitting one never breaks correctness).  The
	 * search also ends once every register read has met its producer (nothing older can
	 * feed it), or once both kinds of producer are found. */
	uint32_t stop = nbefore > DELAY_WINDOW ? nbefore - DELAY_WINDOW : 0;
	/* Without a TRANS in the window, the search is over once no VALU can be named either
	 * (one found, or four counted: the next would be VALU_DEP_5): the rest of the window
	 * could only clear registers, which names nothing. */
	bool trans_in_window = hz->last_trans != UINT32_MAX && hz->last_trans >= stop;
	for (uint32_t j = nbefore;
	     j-- > stop && (nvalu < 4 || ntrans < 3) && npending && !(valu_dep && trans_dep);) {
		if (!trans_in_window && (valu_dep || nvalu >= 4))
			break;
		const struct mir_insn *p = &before[j];
		if (depctr_field(p, 12, 4) == 0)
			break;
		const struct delay_memo *m = memo_of(hz, before, j);
		unsigned unit = m->unit;
		nvalu += unit == AMD_UNIT_VALU;
		ntrans += unit == AMD_UNIT_TRANS;
		const struct sched_range *defs = hz->pool + m->off;
		unsigned nd = m->ndefs;
		bool feeds = false;
		for (unsigned d = 0; d < nd; d++)
			for (unsigned s = defs[d].first; s < defs[d].first + defs[d].count; s++)
				if (pending[s])
					feeds = true, pending[s] = 0, npending--;
		if (!feeds)
			continue;
		if (unit == AMD_UNIT_TRANS && !trans_dep && ntrans <= 3)
			trans_dep = 4 + ntrans, valu_at_trans = nvalu; /* TRANS32_DEP_n = 4 + n */
		else if (unit == AMD_UNIT_VALU && !valu_dep && nvalu <= 4)
			valu_dep = nvalu; /* VALU_DEP_n = n */
	}
	if (valu_dep && trans_dep && valu_dep > valu_at_trans)
		valu_dep = 0; /* the TRANS is younger: waiting for it covers the VALU */
	if (trans_dep && valu_dep)
		return trans_dep | valu_dep << 7; /* instskip(SAME) */
	return trans_dep ? trans_dep : valu_dep;
}

/* ---- the pass ---- */

/* Puts `delay` (one field) into the second field of the one-field s_delay_alu at
 * fresh[*last] when the instruction about to be appended at fresh[n] is at most 5
 * instructions past it (instskip NEXT..SKIP_4 counts the instructions between the two), as
 * AMDGPUInsertDelayAlu combines them: one instruction instead of two.  The joined one
 * takes no third. */
static bool join_delay(struct mir_insn *fresh, uint32_t n, uint32_t *last, uint32_t delay)
{
	uint32_t at = *last;
	if (delay >= 16 || at == UINT32_MAX || n - at - 1 > 5 || n - at - 1 < 1)
		return false;
	fresh[at].opnds[0].v |= (n - at - 1) << 4 | delay << 7;
	*last = UINT32_MAX;
	return true;
}

static void push(struct mir_insn *fresh, uint32_t *n, struct mir_insn in, uint32_t line)
{
	in.src_line = line;
	fresh[(*n)++] = in;
}

static void push_depctr(struct mir_insn *fresh, uint32_t *nfresh, unsigned mask, uint32_t line,
                        struct sched_stats *stats)
{
	if (mask == 0xffff)
		return;
	struct mir_opnd d = mir_imm(mask);
	push(fresh, nfresh, mir_make(AMD_OP_S_WAITCNT_DEPCTR, 1, &d), line);
	if (stats)
		stats->nops++;
}

/* Appends the fixes `in` needs before it; returns the depctr mask it needs right after it
 * (0xffff: none). */
static unsigned insert_fixes(struct hz *hz, const struct mir_insn *in, struct mir_insn *fresh,
                             uint32_t *nfresh, struct sched_stats *stats)
{
	unsigned need[NUM_RULES];
	rule_needs(hz, in, fresh, *nfresh, need);
	unsigned nop = 0, depctr = 0xffff, after = 0xffff;
	bool vnop = false;
	for (unsigned r = 0; r < NUM_RULES; r++) {
		if (!need[r])
			continue;
		if (rules[r].fix == FIX_NOP)
			nop = need[r] > nop ? need[r] : nop;
		else if (rules[r].fix == FIX_VNOP)
			vnop = true;
		else if (rules[r].fix == FIX_DEPCTR)
			depctr &= rules[r].depctr;
		else
			after &= rules[r].depctr;
	}
	for (; nop; nop -= nop > 8 ? 8 : nop) {
		struct mir_opnd n = mir_imm((nop > 8 ? 8 : nop) - 1);
		push(fresh, nfresh, mir_make(AMD_OP_S_NOP, 1, &n), in->src_line);
		if (stats)
			stats->nops++;
	}
	push_depctr(fresh, nfresh, depctr, in->src_line, stats);
	if (vnop) { /* a VALU between the two WMMAs */
		push(fresh, nfresh, mir_make(AMD_OP_V_NOP, 0, NULL), in->src_line);
		if (stats)
			stats->nops++;
	}
	return after;
}

/* Rewrites block b with its fixes, built in the growable staging array *stage, which the
 * block then takes (mir_take_staging). */
enum { MOST_FIXES_PER_INSN = 16 };
static void rewrite_block(struct hz *hz, uint32_t b, struct mir_insn **stage, uint32_t *cap,
                          struct sched_stats *stats)
{
	struct mir_block *bl = &hz->fn->blocks[b];
	uint32_t nfresh = 0;
	struct mir_insn *fresh = *stage;
	uint32_t last_delay = UINT32_MAX; /* a one-field s_delay_alu in fresh a later may join */
	hz->cur_block = b;
	hz->stamp++; /* (delay_for's memo: a new block) */
	hz->npool = 0;
	hz->last_trans = UINT32_MAX;
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		const struct mir_insn *in = &bl->insns[i];
		fresh = *stage = pa_arena_grow(hz->fn->arena, fresh, cap,
		                               nfresh + MOST_FIXES_PER_INSN, sizeof *fresh);
		unsigned after = insert_fixes(hz, in, fresh, &nfresh, stats);
		if (hz->fn->target->info->has_delay_alu && hz_is_valu(in)) {
			uint32_t delay = delay_for(hz, in, fresh, nfresh);
			if (delay && !join_delay(fresh, nfresh, &last_delay, delay)) {
				if (delay < 16)
					last_delay = nfresh;
				struct mir_opnd d = mir_imm(delay);
				push(fresh, &nfresh, mir_make(AMD_OP_S_DELAY_ALU, 1, &d),
				     in->src_line);
				if (stats)
					stats->delays++;
			}
		}
		if (hz_unit_of(in) == AMD_UNIT_TRANS)
			hz->last_trans = nfresh;
		fresh[nfresh++] = *in;
		push_depctr(fresh, &nfresh, after, in->src_line, stats);
	}
	mir_take_staging(hz->fn, b, stage, cap, nfresh);
	if (hz->block_known)
		hz->block_known[b] = false; /* (its fixes are in now) */
}

void sched_hazards(struct mir_function *fn, struct sched_stats *stats)
{
	/* The tables in the pass arena (emptied after the pass, its memory reused by the next:
	 * a fresh arena per call would fault in new pages for every kernel); the rewritten
	 * blocks in the function's arena. */
	struct pa_arena *a = mir_pass_arena(fn);
	struct hz hz = {.fn = fn, .gen = fn->target->info->gen, .no_mfma = true};
	for (uint32_t b = 0; b < fn->nblocks && hz.no_mfma; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns && hz.no_mfma; i++)
			hz.no_mfma = !hz_mfma_of(&fn->blocks[b].insns[i]);
	sched_preds(fn, a, &hz.preds, &hz.npreds);
	hz.visited = pa_arena_alloc(a, fn->nblocks + 1, 1);
	if (hz.no_mfma) { /* (the notes, which look through fixes, walk every instruction) */
		hz.block_states = PA_NEW_ARRAY(a, uint32_t, fn->nblocks + 1);
		hz.block_known = PA_NEW_ARRAY(a, bool, fn->nblocks + 1);
	}
	struct mir_insn *stage = NULL;
	uint32_t cap = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		rewrite_block(&hz, b, &stage, &cap, stats);
}

/* ---- notes for the listing ---- */

/* Appends to buf the names of the rules `consumer` (instruction k of block b) needs, of
 * the fixes placed after it (after) or before it. */
static void name_rules(struct hz *hz, uint32_t b, uint32_t k, bool after, char *buf, size_t len,
                       size_t *used)
{
	const struct mir_block *bl = &hz->fn->blocks[b];
	unsigned need[NUM_RULES];
	hz->cur_block = b;
	rule_needs(hz, &bl->insns[k], bl->insns, k, need);
	for (unsigned r = 0; r < NUM_RULES && *used < len - 1; r++) {
		if (!need[r] || (rules[r].fix == FIX_DEPCTR_AFTER) != after)
			continue;
		int n = snprintf(buf + *used, len - *used, "%s%s",
		                 *used ? "; " : "hazard: ", rules[r].name);
		if (n > 0)
			*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
	}
}

/* Names the hazards a fix at instruction i of block b covers: those of the next real
 * instruction, and the after-fixes of the previous one. */
static const char *fix_note(struct hz *hz, uint32_t b, uint32_t i, struct pa_arena *arena)
{
	const struct mir_block *bl = &hz->fn->blocks[b];
	char buf[256];
	size_t used = 0;
	uint32_t next = i, prev = i;
	while (next < bl->ninsns && is_fix(&bl->insns[next]))
		next++;
	while (prev > 0 && is_fix(&bl->insns[prev - 1]))
		prev--;
	if (next < bl->ninsns)
		name_rules(hz, b, next, false, buf, sizeof buf, &used);
	if (prev > 0 && bl->insns[i].op == AMD_OP_S_WAITCNT_DEPCTR)
		name_rules(hz, b, prev - 1, true, buf, sizeof buf, &used);
	if (bl->insns[i].op == AMD_OP_S_DELAY_ALU)
		return "VALU/TRANS result read soon after (stall hint)";
	return used ? pa_arena_strndup(arena, buf, used) : NULL;
}

const char **sched_hazard_notes(const struct mir_function *fn, struct pa_arena *arena)
{
	uint32_t total = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		total += fn->blocks[b].ninsns;
	const char **notes = pa_arena_array(arena, total + 1, sizeof *notes, 8);
	memset(notes, 0, (total + 1) * sizeof *notes);
	struct hz hz = {.fn = (struct mir_function *)fn, /* read only here */
	                .gen = fn->target->info->gen,
	                .ignore_fixes = true};
	sched_preds(fn, arena, &hz.preds, &hz.npreds);
	hz.visited = pa_arena_alloc(arena, fn->nblocks + 1, 1);
	uint32_t at = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, at++)
			if (is_fix(&fn->blocks[b].insns[i]))
				notes[at] = fix_note(&hz, b, i, arena);
	return notes;
}
