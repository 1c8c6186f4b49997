/* Instruction selection for atomics (ATOMIC, RED) and the memory model (FENCE, and the
 * order/scope bits of ATOMIC/RED/LOAD/STORE).
 *
 * Atomics: one row per operation, size and space (global_atomic_*, flat_atomic_* for generic
 * addresses, ds_* for .shared).  A returning global/flat atomic is the row with the MIR `rtn`
 * flag and a leading destination, and the cache bit that asks for the old value (glc; sc0 on
 * gfx942; th:TH_ATOMIC_RETURN on gfx12); LDS has separate _rtn rows.  PTX inc/dec wrap exactly
 * as the hardware's inc/dec do (inc: old >= b ? 0 : old + 1; dec: old == 0 || old > b ? b :
 * old - 1).  A float add the target lacks (f32 on gfx1030 global/flat and gfx90a flat, f64
 * on gfx10+) becomes a compare-and-swap loop: load the old value, then until every lane's
 * swap succeeded, add and cmpswap, dropping the lanes that succeeded from EXEC (the loop's
 * two MIR blocks are laid out by cflow.c right after the block's body).
 *
 * Memory model (the code sequences of LLVM's AMDGPUUsage "Memory Model" tables for gfx90a,
 * gfx942, gfx10, gfx11 and gfx12, WGP mode): relaxed accesses at a scope set cache bits
 * (sel_mm_cpol); a release first writes back what the scope needs (buffer_wbl2 for system on
 * gfx90a, buffer_wbl2 sc1 / sc0 sc1 on gfx942, global_wb on gfx12) and waits for every
 * counter; an acquire waits for every counter after the access, then invalidates the caches
 * the scope needs (buffer_wbinvl1_vol and buffer_invl2, buffer_inv, buffer_gl0_inv and
 * buffer_gl1_inv, global_inv) and waits again.  The waits are all-counter waits, stronger than
 * LLVM's per-counter ones, but for a CTA-scope release, which waits as clang-19 does
 * (cta_release_wait).  A fence is a release then an acquire.  .volatile loads and stores
 * take LLVM's volatile cache bits and wait for completion after each access.  bar.sync is a
 * CTA-scope release before the barrier and an acquire after it, as HIP's __syncthreads.
 * Complexity: O(1) per instruction. */
#include "isa/isa.h"
#include "isel/isel_int.h"

enum { NONE = 0 }; /* no row (AMD_OP_ values start above the s_nop row 0) */

/* [op][0: 32-bit, 1: 64-bit] for global, flat, LDS and LDS returning rows */
static const uint16_t global_rows[IR_NUM_ATOMIC_OPS][2] = {
        [IR_ATOM_ADD] = {AMD_OP_GLOBAL_ATOMIC_ADD, AMD_OP_GLOBAL_ATOMIC_ADD_X2},
        [IR_ATOM_FADD] = {AMD_OP_GLOBAL_ATOMIC_ADD_F32, AMD_OP_GLOBAL_ATOMIC_ADD_F64},
        [IR_ATOM_MIN_U] = {AMD_OP_GLOBAL_ATOMIC_UMIN, AMD_OP_GLOBAL_ATOMIC_UMIN_X2},
        [IR_ATOM_MIN_S] = {AMD_OP_GLOBAL_ATOMIC_SMIN, AMD_OP_GLOBAL_ATOMIC_SMIN_X2},
        [IR_ATOM_MAX_U] = {AMD_OP_GLOBAL_ATOMIC_UMAX, AMD_OP_GLOBAL_ATOMIC_UMAX_X2},
        [IR_ATOM_MAX_S] = {AMD_OP_GLOBAL_ATOMIC_SMAX, AMD_OP_GLOBAL_ATOMIC_SMAX_X2},
        [IR_ATOM_INC] = {AMD_OP_GLOBAL_ATOMIC_INC, AMD_OP_GLOBAL_ATOMIC_INC_X2},
        [IR_ATOM_DEC] = {AMD_OP_GLOBAL_ATOMIC_DEC, AMD_OP_GLOBAL_ATOMIC_DEC_X2},
        [IR_ATOM_AND] = {AMD_OP_GLOBAL_ATOMIC_AND, AMD_OP_GLOBAL_ATOMIC_AND_X2},
        [IR_ATOM_OR] = {AMD_OP_GLOBAL_ATOMIC_OR, AMD_OP_GLOBAL_ATOMIC_OR_X2},
        [IR_ATOM_XOR] = {AMD_OP_GLOBAL_ATOMIC_XOR, AMD_OP_GLOBAL_ATOMIC_XOR_X2},
        [IR_ATOM_EXCH] = {AMD_OP_GLOBAL_ATOMIC_SWAP, AMD_OP_GLOBAL_ATOMIC_SWAP_X2},
        [IR_ATOM_CAS] = {AMD_OP_GLOBAL_ATOMIC_CMPSWAP, AMD_OP_GLOBAL_ATOMIC_CMPSWAP_X2},
};
static const uint16_t flat_rows[IR_NUM_ATOMIC_OPS][2] = {
        [IR_ATOM_ADD] = {AMD_OP_FLAT_ATOMIC_ADD, AMD_OP_FLAT_ATOMIC_ADD_X2},
        [IR_ATOM_FADD] = {AMD_OP_FLAT_ATOMIC_ADD_F32, AMD_OP_FLAT_ATOMIC_ADD_F64},
        [IR_ATOM_MIN_U] = {AMD_OP_FLAT_ATOMIC_UMIN, AMD_OP_FLAT_ATOMIC_UMIN_X2},
        [IR_ATOM_MIN_S] = {AMD_OP_FLAT_ATOMIC_SMIN, AMD_OP_FLAT_ATOMIC_SMIN_X2},
        [IR_ATOM_MAX_U] = {AMD_OP_FLAT_ATOMIC_UMAX, AMD_OP_FLAT_ATOMIC_UMAX_X2},
        [IR_ATOM_MAX_S] = {AMD_OP_FLAT_ATOMIC_SMAX, AMD_OP_FLAT_ATOMIC_SMAX_X2},
        [IR_ATOM_INC] = {AMD_OP_FLAT_ATOMIC_INC, AMD_OP_FLAT_ATOMIC_INC_X2},
        [IR_ATOM_DEC] = {AMD_OP_FLAT_ATOMIC_DEC, AMD_OP_FLAT_ATOMIC_DEC_X2},
        [IR_ATOM_AND] = {AMD_OP_FLAT_ATOMIC_AND, AMD_OP_FLAT_ATOMIC_AND_X2},
        [IR_ATOM_OR] = {AMD_OP_FLAT_ATOMIC_OR, AMD_OP_FLAT_ATOMIC_OR_X2},
        [IR_ATOM_XOR] = {AMD_OP_FLAT_ATOMIC_XOR, AMD_OP_FLAT_ATOMIC_XOR_X2},
        [IR_ATOM_EXCH] = {AMD_OP_FLAT_ATOMIC_SWAP, AMD_OP_FLAT_ATOMIC_SWAP_X2},
        [IR_ATOM_CAS] = {AMD_OP_FLAT_ATOMIC_CMPSWAP, AMD_OP_FLAT_ATOMIC_CMPSWAP_X2},
};
static const uint16_t lds_rows[IR_NUM_ATOMIC_OPS][2] = {
        [IR_ATOM_ADD] = {AMD_OP_DS_ADD_U32, AMD_OP_DS_ADD_U64},
        [IR_ATOM_FADD] = {AMD_OP_DS_ADD_F32, AMD_OP_DS_ADD_F64},
        [IR_ATOM_MIN_U] = {AMD_OP_DS_MIN_U32, AMD_OP_DS_MIN_U64},
        [IR_ATOM_MIN_S] = {AMD_OP_DS_MIN_I32, AMD_OP_DS_MIN_I64},
        [IR_ATOM_MAX_U] = {AMD_OP_DS_MAX_U32, AMD_OP_DS_MAX_U64},
        [IR_ATOM_MAX_S] = {AMD_OP_DS_MAX_I32, AMD_OP_DS_MAX_I64},
        [IR_ATOM_INC] = {AMD_OP_DS_INC_U32, AMD_OP_DS_INC_U64},
        [IR_ATOM_DEC] = {AMD_OP_DS_DEC_U32, AMD_OP_DS_DEC_U64},
        [IR_ATOM_AND] = {AMD_OP_DS_AND_B32, AMD_OP_DS_AND_B64},
        [IR_ATOM_OR] = {AMD_OP_DS_OR_B32, AMD_OP_DS_OR_B64},
        [IR_ATOM_XOR] = {AMD_OP_DS_XOR_B32, AMD_OP_DS_XOR_B64},
        [IR_ATOM_EXCH] = {NONE, NONE}, /* the returning row serves */
        [IR_ATOM_CAS] = {NONE, NONE},
};
static const uint16_t lds_rtn_rows[IR_NUM_ATOMIC_OPS][2] = {
        [IR_ATOM_ADD] = {AMD_OP_DS_ADD_RTN_U32, AMD_OP_DS_ADD_RTN_U64},
        [IR_ATOM_FADD] = {AMD_OP_DS_ADD_RTN_F32, AMD_OP_DS_ADD_RTN_F64},
        [IR_ATOM_MIN_U] = {AMD_OP_DS_MIN_RTN_U32, AMD_OP_DS_MIN_RTN_U64},
        [IR_ATOM_MIN_S] = {AMD_OP_DS_MIN_RTN_I32, AMD_OP_DS_MIN_RTN_I64},
        [IR_ATOM_MAX_U] = {AMD_OP_DS_MAX_RTN_U32, AMD_OP_DS_MAX_RTN_U64},
        [IR_ATOM_MAX_S] = {AMD_OP_DS_MAX_RTN_I32, AMD_OP_DS_MAX_RTN_I64},
        [IR_ATOM_INC] = {AMD_OP_DS_INC_RTN_U32, AMD_OP_DS_INC_RTN_U64},
        [IR_ATOM_DEC] = {AMD_OP_DS_DEC_RTN_U32, AMD_OP_DS_DEC_RTN_U64},
        [IR_ATOM_AND] = {AMD_OP_DS_AND_RTN_B32, AMD_OP_DS_AND_RTN_B64},
        [IR_ATOM_OR] = {AMD_OP_DS_OR_RTN_B32, AMD_OP_DS_OR_RTN_B64},
        [IR_ATOM_XOR] = {AMD_OP_DS_XOR_RTN_B32, AMD_OP_DS_XOR_RTN_B64},
        [IR_ATOM_EXCH] = {AMD_OP_DS_WRXCHG_RTN_B32, AMD_OP_DS_WRXCHG_RTN_B64},
        [IR_ATOM_CAS] = {AMD_OP_DS_CMPST_RTN_B32, AMD_OP_DS_CMPST_RTN_B64},
};

static bool row_exists(const struct isel *s, unsigned op)
{
	return op != NONE && amd_isa_rows[op].opcode[s->gen] >= 0;
}

/* LDS compare-and-swap: gfx11+ renamed it (and swapped its data operands). */
static unsigned lds_cas_row(const struct isel *s, bool wide)
{
	if (s->gen >= AMD_GFX11)
		return wide ? AMD_OP_DS_CMPSTORE_RTN_B64 : AMD_OP_DS_CMPSTORE_RTN_B32;
	return wide ? AMD_OP_DS_CMPST_RTN_B64 : AMD_OP_DS_CMPST_RTN_B32;
}

/* The row for an atomic (returning or not); NONE if the target lacks it. */
static unsigned atomic_row(const struct isel *s, unsigned space, enum ir_atomic_op op, bool wide,
                           bool rtn)
{
	unsigned row;
	if (space == IR_SPACE_SHARED) {
		if (op == IR_ATOM_CAS)
			return lds_cas_row(s, wide);
		row = rtn || !lds_rows[op][wide] ? lds_rtn_rows[op][wide] : lds_rows[op][wide];
	} else {
		row = (space == IR_SPACE_GLOBAL ? global_rows : flat_rows)[op][wide];
	}
	return row_exists(s, row) ? row : NONE;
}

bool sel_atomic_needs_loop(const struct isel *s, const struct ir_insn *in)
{
	if (in->op != IR_ATOMIC && in->op != IR_RED)
		return false;
	unsigned space = in->aux & IR_SPACE_MASK;
	bool wide = ir_mem_bytes(in->aux) == 8;
	return atomic_row(s, space, ir_atomic_op_of(in->aux), wide, in->op == IR_ATOMIC) == NONE;
}

/* ---- the memory model ---- */

/* gfx12 SCOPE field values: CU 0, SE 1, DEV 2, SYS 3 (workgroup scope is SE in WGP mode) */
static unsigned gfx12_scope(enum ir_scope sc)
{
	return sc == IR_SCOPE_CTA ? 1 : sc == IR_SCOPE_GPU ? 2 : 3;
}

/* .volatile loads and stores: LLVM's volatile bits (system-coherent, not cached). */
static unsigned volatile_cpol(const struct isel *s, enum sel_mm_kind kind)
{
	switch (s->gen) {
	case AMD_GFX9:
		return kind == SEL_MM_LOAD ? AMD_CPOL_GLC : 0;
	case AMD_GFX940:
		return AMD_CPOL_SC0 | AMD_CPOL_SC1;
	case AMD_GFX10:
		return kind == SEL_MM_LOAD ? AMD_CPOL_GLC | AMD_CPOL_DLC : 0;
	case AMD_GFX11:
		return kind == SEL_MM_LOAD ? AMD_CPOL_GLC | AMD_CPOL_DLC : AMD_CPOL_DLC;
	default:
		return AMD_CPOL_SCOPE(3);
	}
}

unsigned sel_mm_cpol(const struct isel *s, uint32_t aux, enum sel_mm_kind kind)
{
	enum ir_order ord = ir_order_of(aux);
	enum ir_scope sc = ir_scope_of(aux);
	unsigned space = aux & IR_SPACE_MASK;
	if (space == IR_SPACE_SHARED)
		return 0;
	if ((aux & IR_MEM_VOLATILE) && kind != SEL_MM_RMW)
		return volatile_cpol(s, kind);
	if (ord == IR_ORD_WEAK)
		return 0;
	switch (s->gen) {
	case AMD_GFX9:
		return kind == SEL_MM_LOAD && sc != IR_SCOPE_CTA ? AMD_CPOL_GLC : 0;
	case AMD_GFX940:
		if (kind == SEL_MM_RMW)
			return sc == IR_SCOPE_SYS ? AMD_CPOL_SC1 : 0;
		return sc == IR_SCOPE_CTA   ? AMD_CPOL_SC0
		       : sc == IR_SCOPE_GPU ? AMD_CPOL_SC1
		                            : AMD_CPOL_SC0 | AMD_CPOL_SC1;
	case AMD_GFX10:
		if (kind != SEL_MM_LOAD)
			return 0;
		return sc == IR_SCOPE_CTA ? AMD_CPOL_GLC : AMD_CPOL_GLC | AMD_CPOL_DLC;
	case AMD_GFX11:
		return kind == SEL_MM_LOAD ? AMD_CPOL_GLC : 0;
	default:
		return AMD_CPOL_SCOPE(gfx12_scope(sc));
	}
}

static void cache_op(struct isel *s, unsigned op, unsigned cpol)
{
	sel_emit(s, op, 0, NULL)->cpol = (uint8_t)cpol;
}

static bool is_release(uint32_t aux)
{
	return ir_order_of(aux) == IR_ORD_RELEASE || ir_order_of(aux) == IR_ORD_ACQ_REL;
}

static bool is_acquire(uint32_t aux)
{
	return ir_order_of(aux) == IR_ORD_ACQUIRE || ir_order_of(aux) == IR_ORD_ACQ_REL;
}

/* Whether the function holds a release wider than the CTA (fence, atomic, red or store
 * .release/.acq_rel at .gpu/.sys) or may reach one outside it (a call; a function compiled
 * on its own, whose caller may release after it returns). */
static bool has_wider_release(const struct isel *s)
{
	if (s->ir->real_sym)
		return true;
	for (uint32_t b = 0; b < s->ir->nblocks; b++)
		for (uint32_t i = 0; i < s->ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &s->ir->blocks[b].insns[i];
			if (in->op == IR_CALL || in->op == IR_CALL_PTR)
				return true;
			bool ordered = in->op == IR_FENCE || in->op == IR_ATOMIC ||
			               in->op == IR_RED || in->op == IR_STORE;
			if (ordered && is_release(in->aux) && ir_scope_of(in->aux) != IR_SCOPE_CTA)
				return true;
		}
	return false;
}

/* The waits of a CTA-scope release (bar.sync's first half, fence/atomic .release.cta), as
 * clang-19 places them for __syncthreads's `fence release workgroup` and s_barrier in the
 * configuration our code objects declare (tgsplit off, WGP mode; AMDGPUUsage's memory-model
 * code sequences, and SIInsertWaitcnts's wait before a barrier on targets without the
 * BackOffBarrier feature):
 *  - gfx90a/gfx942: lgkmcnt(0) only (LDS, and FLAT's LDS side).  "If not TgSplit execution
 *    mode, omit vmcnt(0)": the waves of a workgroup share one CU, whose vector L1 and
 *    memory pipeline keep a wave's earlier global accesses ahead of another wave's later
 *    ones, so .global stores before the barrier are visible to the CTA after it (PTX's
 *    CTA-scope guarantee).  A thread's later .gpu/.sys release, though, waits only for its
 *    own wave's stores: where the function holds one (or may, through a call), PTX's
 *    causality order (transitive through the barrier) needs the other waves' stores
 *    complete as well, so the wait keeps vmcnt(0) (LLVM later made gfx10 CU mode, the same
 *    shape, wait at barriers for this reason: llvm-project PR 161638).
 *  - gfx10/gfx11: vmcnt(0) lgkmcnt(0) and vscnt(0) (WGP mode: the workgroup spans two CUs'
 *    L0 caches; gfx11 also lacks BackOffBarrier, so s_barrier needs every counter zero
 *    anyway); no expcnt: nothing in our code increments it.
 *  - gfx12: every counter (loadcnt, storecnt, dscnt, kmcnt: no BackOffBarrier) after
 *    global_wb scope:SCOPE_SE. */
static void cta_release_wait(struct isel *s)
{
	if (s->gen == AMD_GFX12) {
		sel_waitcnt_all(s);
		return;
	}
	bool vmem = true;
	if (s->gen == AMD_GFX9 || s->gen == AMD_GFX940) {
		if (!s->wider_release_known)
			s->wider_release = has_wider_release(s), s->wider_release_known = true;
		vmem = s->wider_release;
	}
	struct mir_opnd w = mir_imm(amd_waitcnt_pack(s->t, vmem ? 0 : ~0u, ~0u, 0));
	sel_emit(s, AMD_OP_S_WAITCNT, 1, &w);
	if (s->t->info->has_vscnt) {
		struct mir_opnd ops[2] = {mir_special(AMD_SPEC_NULL, 1), mir_imm(0)};
		sel_emit(s, AMD_OP_S_WAITCNT_VSCNT, 2, ops);
	}
}

void sel_mm_release(struct isel *s, uint32_t aux)
{
	if (!is_release(aux))
		return;
	enum ir_scope sc = ir_scope_of(aux);
	if (s->gen == AMD_GFX9 && sc == IR_SCOPE_SYS)
		cache_op(s, AMD_OP_BUFFER_WBL2, 0);
	else if (s->gen == AMD_GFX940 && sc != IR_SCOPE_CTA)
		cache_op(s, AMD_OP_BUFFER_WBL2,
		         sc == IR_SCOPE_GPU ? AMD_CPOL_SC1 : AMD_CPOL_SC0 | AMD_CPOL_SC1);
	else if (s->gen == AMD_GFX12)
		cache_op(s, AMD_OP_GLOBAL_WB, AMD_CPOL_SCOPE(gfx12_scope(sc)));
	if (sc == IR_SCOPE_CTA)
		cta_release_wait(s);
	else
		sel_waitcnt_all(s);
}

void sel_mm_volatile_wait(struct isel *s, uint32_t aux)
{
	if (aux & IR_MEM_VOLATILE) /* each volatile access completes before the next */
		sel_waitcnt_all(s);
}

/* The cache invalidates an acquire at scope sc needs. */
static void invalidate(struct isel *s, enum ir_scope sc)
{
	switch (s->gen) {
	case AMD_GFX9:
		if (sc == IR_SCOPE_SYS)
			cache_op(s, AMD_OP_BUFFER_INVL2, 0);
		if (sc != IR_SCOPE_CTA)
			cache_op(s, AMD_OP_BUFFER_WBINVL1_VOL, 0);
		break;
	case AMD_GFX940:
		if (sc != IR_SCOPE_CTA)
			cache_op(s, AMD_OP_BUFFER_INV,
			         sc == IR_SCOPE_GPU ? AMD_CPOL_SC1 : AMD_CPOL_SC0 | AMD_CPOL_SC1);
		break;
	case AMD_GFX10:
	case AMD_GFX11:
		if (sc != IR_SCOPE_CTA)
			cache_op(s, AMD_OP_BUFFER_GL1_INV, 0);
		cache_op(s, AMD_OP_BUFFER_GL0_INV, 0);
		break;
	default:
		cache_op(s, AMD_OP_GLOBAL_INV, AMD_CPOL_SCOPE(gfx12_scope(sc)));
		break;
	}
}

/* An acquire at CTA scope (the acquire half of fence.acq_rel/.sc.cta and membar.cta, and
 * of ld/atom .acquire.cta) takes the waits of a CTA release (cta_release_wait) and the
 * CTA invalidate, and nothing after it: what llc-19 emits for `fence syncscope("workgroup")
 * acquire` (acq_rel, seq_cst alike) in our configuration (tgsplit off, WGP mode) on every
 * target: gfx90a/gfx942 lgkmcnt(0) only; gfx10/11 vmcnt(0) lgkmcnt(0) vscnt(0) then
 * buffer_gl0_inv; gfx12 loadcnt, storecnt, dscnt 0 then global_inv scope:SCOPE_SE (we
 * also wait kmcnt there).  An invalidate needs no wait after it: the cache orders it
 * before the wave's later loads (bar.sync's acquire relies on the same, docs/WARP.md).
 * Waits on counters with nothing in flight are dropped later (sched/waitcnt.c), so the
 * second half of fence.acq_rel.cta costs nothing after its release half. */
static void cta_acquire(struct isel *s)
{
	cta_release_wait(s);
	invalidate(s, IR_SCOPE_CTA);
}

void sel_mm_acquire(struct isel *s, uint32_t aux)
{
	if (!is_acquire(aux))
		return;
	if (ir_scope_of(aux) == IR_SCOPE_CTA) {
		cta_acquire(s);
		return;
	}
	sel_waitcnt_all(s);
	invalidate(s, ir_scope_of(aux));
	sel_waitcnt_all(s);
}

void sel_mm_barrier_release(struct isel *s)
{
	sel_mm_release(s, (uint32_t)IR_ORD_ACQ_REL << IR_ORD_SHIFT | (uint32_t)IR_SCOPE_CTA
	                                                                     << IR_SCOPE_SHIFT);
}

void sel_mm_barrier_acquire(struct isel *s)
{
	if (s->gen >= AMD_GFX10) /* per-CU L0 (gfx10/11) and gfx12's caches: stale after it */
		invalidate(s, IR_SCOPE_CTA);
}

/* ---- atomics ---- */

/* The cache bits that make a global/flat atomic return its old value. */
static unsigned rtn_cpol(const struct isel *s)
{
	return s->gen == AMD_GFX12    ? AMD_CPOL_TH(1)
	       : s->gen == AMD_GFX940 ? AMD_CPOL_SC0
	                              : AMD_CPOL_GLC;
}

struct at_addr {
	unsigned space;
	struct mir_opnd a; /* VGPR address (64-bit global/flat, 32-bit LDS) */
	int32_t off;       /* immediate offset (global, LDS) */
};

static struct at_addr at_address(struct isel *s, const struct ir_insn *in)
{
	struct at_addr r = {.space = in->aux & IR_SPACE_MASK};
	if (r.space == IR_SPACE_SHARED) {
		int64_t off = in->imm;
		r.a = sel_lds_address(s, in->args[0], &off);
		r.off = (int32_t)off;
		return r;
	}
	bool fits = r.space == IR_SPACE_GLOBAL && in->imm >= -2048 && in->imm <= 2047;
	r.a = sel_global_address(s, in->args[0], fits ? 0 : in->imm);
	r.off = fits ? (int32_t)in->imm : 0;
	return r;
}

/* Emits `row` on address ad with data operands data[0..ndata-1]; dst: the returned value
 * (MIR_NONE: none). */
static struct mir_insn *at_emit(struct isel *s, unsigned row, const struct at_addr *ad,
                                struct mir_opnd dst, const struct mir_opnd *data, unsigned ndata,
                                uint32_t aux)
{
	struct mir_opnd ops[AMD_MAX_OPNDS];
	unsigned n = 0;
	bool rtn = dst.kind != MIR_NONE;
	if (rtn)
		ops[n++] = dst;
	ops[n++] = ad->a;
	for (unsigned i = 0; i < ndata; i++)
		ops[n++] = data[i];
	if (ad->space == IR_SPACE_GLOBAL)
		ops[n++] = (struct mir_opnd){.kind = MIR_OFF};
	struct mir_insn *mi = sel_emit(s, row, n, ops);
	if (ad->space == IR_SPACE_SHARED) {
		mi->offset = ad->off;
		return mi;
	}
	mi->offset = ad->off;
	mi->rtn = rtn;
	mi->cpol = (uint8_t)((rtn ? rtn_cpol(s) : 0) | sel_mm_cpol(s, aux, SEL_MM_RMW));
	return mi;
}

/* A VGPR tuple of 2 * half dwords: value a in the low half, value c in the high half. */
static struct mir_opnd pair(struct isel *s, ir_ref a, ir_ref c, unsigned half)
{
	uint32_t t = sel_new_vgpr(s, 2 * half);
	for (unsigned k = 0; k < half; k++) {
		sel_copy(s, sel_sub(t, k, 1), sel_vsrc_opnd(s, a, k));
		sel_copy(s, sel_sub(t, half + k, 1), sel_vsrc_opnd(s, c, k));
	}
	return mir_vreg(t, 2 * half);
}

static const uint16_t global_ld[2] = {AMD_OP_GLOBAL_LOAD_DWORD, AMD_OP_GLOBAL_LOAD_DWORDX2};
static const uint16_t flat_ld[2] = {AMD_OP_FLAT_LOAD_DWORD, AMD_OP_FLAT_LOAD_DWORDX2};
static const uint16_t lds_ld[2] = {AMD_OP_DS_READ_B32, AMD_OP_DS_READ_B64};

static void load_old(struct isel *s, const struct at_addr *ad, uint32_t old, unsigned words)
{
	bool wide = words == 2;
	struct mir_opnd ops[3] = {mir_vreg(old, words), ad->a, {.kind = MIR_OFF}};
	unsigned row = ad->space == IR_SPACE_GLOBAL   ? global_ld[wide]
	               : ad->space == IR_SPACE_SHARED ? lds_ld[wide]
	                                              : flat_ld[wide];
	sel_emit(s, row, ad->space == IR_SPACE_GLOBAL ? 3 : 2, ops)->offset = ad->off;
}

/* The compare-and-swap row and data operands that store nv where old still is. */
static unsigned cas_operands(struct isel *s, const struct at_addr *ad, uint32_t nv, uint32_t old,
                             unsigned words, unsigned *row, struct mir_opnd data[2])
{
	bool wide = words == 2;
	if (ad->space == IR_SPACE_SHARED) {
		*row = lds_cas_row(s, wide);
		bool new_first = s->gen >= AMD_GFX11;
		data[0] = mir_vreg(new_first ? nv : old, words);
		data[1] = mir_vreg(new_first ? old : nv, words);
		return 2;
	}
	*row = (ad->space == IR_SPACE_GLOBAL ? global_rows : flat_rows)[IR_ATOM_CAS][wide];
	uint32_t t = sel_new_vgpr(s, 2 * words);
	for (unsigned k = 0; k < words; k++) {
		sel_copy(s, sel_sub(t, k, 1), sel_sub(nv, k, 1));
		sel_copy(s, sel_sub(t, words + k, 1), sel_sub(old, k, 1));
	}
	data[0] = mir_vreg(t, 2 * words);
	return 1;
}

/* A float add the target has no atomic for: a compare-and-swap loop (see the header). */
static void fadd_loop(struct isel *s, const struct ir_insn *in, const struct at_addr *ad)
{
	unsigned words = ir_mem_bytes(in->aux) == 8 ? 2 : 1;
	bool wide = words == 2;
	uint32_t old = sel_new_vgpr(s, words), saved = sel_new_sgpr(s, s->mask_dw);
	load_old(s, ad, old, words);
	unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
	struct mir_opnd save[2] = {mir_vreg(saved, s->mask_dw), sel_exec(s)};
	sel_emit(s, mov, 2, save);
	uint32_t loop = s->cur + 1, cont = s->cur + 2;
	sel_set_succ(s, s->cur, loop, ~0u);
	s->cur = loop;
	s->mf->blocks[loop].comment = "compare-and-swap loop: lanes whose swap failed";
	uint32_t nv = sel_new_vgpr(s, words);
	struct mir_opnd add[3] = {mir_vreg(nv, words), sel_vsrc_opnd(s, in->args[1], wide ? 2 : 0),
	                          mir_vreg(old, words)};
	unsigned addop = wide ? AMD_OP_V_ADD_F64 : AMD_OP_V_ADD_F32;
	sel_fix_valu(s, addop, 3, add);
	sel_emit(s, addop, 3, add);
	uint32_t ret = sel_new_vgpr(s, words);
	struct mir_opnd data[2];
	unsigned row, ndata = cas_operands(s, ad, nv, old, words, &row, data);
	at_emit(s, row, ad, mir_vreg(ret, words), data, ndata, in->aux);
	uint32_t done = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd cmp[3] = {mir_vreg(done, s->mask_dw), mir_vreg(ret, words),
	                          mir_vreg(old, words)};
	sel_emit(s, wide ? AMD_OP_V_CMP_EQ_U64 : AMD_OP_V_CMP_EQ_U32, 3, cmp);
	sel_copy(s, mir_vreg(old, words), mir_vreg(ret, words));
	struct mir_opnd drop[3] = {sel_exec(s), sel_exec(s), mir_vreg(done, s->mask_dw)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3, drop);
	struct mir_opnd back = mir_block_ref(loop);
	sel_emit(s, AMD_OP_S_CBRANCH_EXECNZ, 1, &back);
	sel_set_succ(s, loop, cont, loop);
	s->cur = cont;
	struct mir_opnd restore[2] = {sel_exec(s), mir_vreg(saved, s->mask_dw)};
	sel_emit(s, mov, 2, restore);
	if (in->op == IR_ATOMIC)
		sel_copy(s, mir_vreg(sel_def(s, in->res), words), mir_vreg(old, words));
}

static bool atomic(struct isel *s, const struct ir_insn *in)
{
	enum ir_atomic_op op = ir_atomic_op_of(in->aux);
	unsigned words = ir_mem_bytes(in->aux) == 8 ? 2 : 1;
	bool wide = words == 2, rtn = in->op == IR_ATOMIC;
	sel_mm_release(s, in->aux);
	struct at_addr ad = at_address(s, in);
	unsigned row = atomic_row(s, ad.space, op, wide, rtn);
	if (row == NONE && op == IR_ATOM_FADD) {
		fadd_loop(s, in, &ad);
	} else if (row == NONE) {
		sel_error(s, "%s has no %u-bit atomic '%s' for this state space", s->t->info->name,
		          32 * words, ir_ops[in->op].name);
		return true;
	} else {
		struct mir_opnd data[2];
		unsigned ndata = 1;
		if (op == IR_ATOM_CAS && ad.space != IR_SPACE_SHARED) {
			data[0] = pair(s, in->args[2], in->args[1], words); /* new, compare */
		} else if (op == IR_ATOM_CAS) {
			bool new_first = s->gen >= AMD_GFX11;
			data[0] = sel_vgpr_opnd(s, in->args[new_first ? 2 : 1], wide ? 2 : 0);
			data[1] = sel_vgpr_opnd(s, in->args[new_first ? 1 : 2], wide ? 2 : 0);
			ndata = 2;
		} else {
			data[0] = sel_vgpr_opnd(s, in->args[1], wide ? 2 : 0);
		}
		bool lds_rtn =
		        ad.space == IR_SPACE_SHARED && (amd_isa_rows[row].flags & AMD_F_ATOMIC_RTN);
		struct mir_opnd dst = {.kind = MIR_NONE};
		if (rtn)
			dst = mir_vreg(sel_def(s, in->res), words);
		else if (lds_rtn) /* exchange has only a returning LDS row */
			dst = mir_vreg(sel_new_vgpr(s, words), words);
		if (ad.space == IR_SPACE_SHARED) {
			struct mir_opnd ops[AMD_MAX_OPNDS];
			unsigned n = 0;
			if (lds_rtn)
				ops[n++] = dst;
			ops[n++] = ad.a;
			for (unsigned i = 0; i < ndata; i++)
				ops[n++] = data[i];
			sel_emit(s, row, n, ops)->offset = ad.off;
		} else {
			at_emit(s, row, &ad, dst, data, ndata, in->aux);
		}
	}
	sel_mm_acquire(s, in->aux);
	return true;
}

bool sel_atomic(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_ATOMIC:
	case IR_RED:
		return atomic(s, in);
	case IR_FENCE:
		if (is_release(in->aux))
			sel_mm_release(s, in->aux);
		else if (!is_acquire(in->aux) || ir_scope_of(in->aux) != IR_SCOPE_CTA)
			sel_waitcnt_all(s); /* a CTA acquire's own waits are cta_acquire's */
		sel_mm_acquire(s, in->aux);
		return true;
	default:
		return false;
	}
}
