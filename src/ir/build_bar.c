/* ir_build, part 5: CTA barriers -> IR (bar/barrier .sync/.red, bar.warp.sync).
 *
 * bar.sync 0 / barrier.sync 0 (also with a register that holds 0, checked at selection
 * through BAR_ID when it is not a constant yet, and with a thread count equal to a .reqntid
 * CTA) is BARRIER.  bar.red and
 * barrier.red reduce one predicate per thread over the CTA through a hidden LDS area of one
 * dword per wave (bar_slots: ceil(1024 / wave size) slots, laid out with the kernel's
 * .shared variables, before any extern .shared array):
 *     count = popc(ballot(p))  (.and counts ballot(!p))    per wave, uniform
 *     store count -> slot[wave]; BARRIER; total = BAR_SUM(slots, nwaves); BARRIER;
 *     store 0 -> slot[wave]
 * popc is total, .and is total == 0, .or is total != 0.  The second barrier keeps a wave's
 * next bar.red from overwriting its slot before every wave has read it; the zero store
 * (and one at kernel entry, spliced in front of block 0 by irb_bar_finish) leaves 0 in the
 * slot of a wave that has ended, so ended waves and exited lanes (not in EXEC, hence not
 * in the ballot) do not take part, as in the PTX ISA.  s_barrier does not wait for waves
 * that have ended.
 * bar.warp.sync: the lanes of a warp run together in one wave, so only its memory-ordering
 * role is left: a CTA-scope acq_rel FENCE (stronger than needed, never wrong); its
 * membermask follows the lane-mask rules of docs/WARP.md (build_warp.c).
 * Named barriers 1-15, thread counts that are not the CTA, bar.arrive and barrier operands
 * that are not constants stay errors naming the construct.
 * %reserved_smem_offset_1 (CUDA cooperative groups' multi-warp scratch, at most 288 bytes)
 * is the LDS offset of a hidden 288-byte area.
 * O(1) per instruction. */
#include "ir/build_int.h"

enum {
	BAR_MAX_THREADS = 1024, /* CTA size limit: at most 1024 / W waves */
	RESERVED_SMEM_BYTES = 288,
};

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y, uint32_t aux)
{
	ir_ref args[2] = {x, y};
	return irb_emit(b, op, t, args, 2, aux, 0);
}

static ir_ref sreg(struct irb *b, enum ir_sreg r)
{
	return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, r, 0);
}

/* A hidden .shared area (symvar without a symbol); returns its index + 1. */
static uint32_t hidden_area(struct irb *b, uint64_t size, uint32_t align)
{
	struct ir_symvar v = {.sym = NULL, .space = IR_SPACE_SHARED, .size = size, .align = align};
	return irb_new_symvar(b, &v) + 1;
}

static ir_ref area_address(struct irb *b, uint32_t area)
{
	return irb_emit(b, IR_SYMADDR, IR_T_I32, NULL, 0, IR_SPACE_SHARED, area - 1);
}

static unsigned log2u(unsigned v)
{
	unsigned k = 0;
	while ((1u << k) < v)
		k++;
	return k;
}

/* ntid.x * ntid.y * ntid.z */
static ir_ref cta_threads(struct irb *b)
{
	ir_ref n = op2(b, IR_MUL, IR_T_I32, sreg(b, IR_SREG_NTID_X), sreg(b, IR_SREG_NTID_Y), 0);
	return op2(b, IR_MUL, IR_T_I32, n, sreg(b, IR_SREG_NTID_Z), 0);
}

/* The address of the executing wave's slot: slots + (flat thread id / W) * 4. */
static ir_ref wave_slot(struct irb *b)
{
	ir_ref z = op2(b, IR_MUL, IR_T_I32, sreg(b, IR_SREG_TID_Z), sreg(b, IR_SREG_NTID_Y), 0);
	ir_ref yz = op2(b, IR_ADD, IR_T_I32, z, sreg(b, IR_SREG_TID_Y), 0);
	ir_ref flat = op2(b, IR_ADD, IR_T_I32, sreg(b, IR_SREG_TID_X),
	                  op2(b, IR_MUL, IR_T_I32, yz, sreg(b, IR_SREG_NTID_X), 0), 0);
	ir_ref wave =
	        op2(b, IR_SHR_U, IR_T_I32, flat, konst(b, IR_T_I32, log2u(b->fn->wave_size)), 0);
	ir_ref off = op2(b, IR_SHL, IR_T_I32, wave, konst(b, IR_T_I32, 2), 0);
	return op2(b, IR_ADD, IR_T_I32, area_address(b, b->bar_slots), off, 0);
}

static void store_slot(struct irb *b, ir_ref addr, ir_ref v)
{
	ir_ref args[2] = {addr, v};
	irb_emit(b, IR_STORE, IR_T_I32, args, 2, IR_SPACE_SHARED | 2u << IR_MEM_SIZE_SHIFT, 0);
}

/* The barrier operand a (and the thread count b): true for barrier 0 of the whole CTA.  A
 * register not yet known to be a constant is left to selection (BAR_ID) when `late`. */
static bool is_cta_barrier(struct irb *b, const struct ptx_insn *in, unsigned ia, int ib, bool late)
{
	ir_ref id = irb_read_opnd(b, &in->opnds[ia], IR_T_I32, false);
	if (late && ib < 0 && !ir_is_const(b->fn, id)) {
		irb_emit(b, IR_BAR_ID, IR_T_NONE, &id, 1, 0, 0);
		return true;
	}
	if (!ir_is_const(b->fn, id) || b->fn->vals[id].bits != 0)
		return false;
	if (ib < 0)
		return true;
	ir_ref n = irb_read_opnd(b, &in->opnds[ib], IR_T_I32, false);
	const uint32_t *req = b->fn->reqntid;
	uint64_t cta = (uint64_t)req[0] * (req[1] ? req[1] : 1) * (req[2] ? req[2] : 1);
	return ir_is_const(b->fn, n) && cta && b->fn->vals[n].bits == cta;
}

static const char *const not_cta =
        "only barrier 0 of the whole CTA (not named barriers 1-15, thread counts other than "
        "the .reqntid CTA's, or barrier registers that are not constants)";

/* bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c */
static void tr_bar_red(struct irb *b, const struct ptx_insn *in)
{
	bool popc = has(in, PTX_DW_POPC), is_and = has(in, PTX_DW_AND);
	if (!is_cta_barrier(b, in, 1, in->nopnds == 4 ? 2 : -1, false)) {
		irb_unsupported(b, in, not_cta);
		return;
	}
	if (!b->bar_slots)
		b->bar_slots = hidden_area(b, BAR_MAX_THREADS / b->fn->wave_size * 4, 4);
	ir_ref p = irb_read_opnd(b, &in->opnds[in->nopnds - 1], IR_T_PRED, false);
	if (is_and)
		p = irb_emit(b, IR_NOT, IR_T_PRED, &p, 1, 0, 0);
	enum ir_type mt = b->fn->wave_size == 64 ? IR_T_I64 : IR_T_I32;
	ir_ref mask = irb_emit(b, IR_BALLOT, mt, &p, 1, 0, 0);
	ir_ref count = irb_emit(b, IR_POPC, IR_T_I32, &mask, 1, 0, 0);
	ir_ref slot = wave_slot(b);
	store_slot(b, slot, count);
	irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
	ir_ref nwaves = op2(b, IR_SHR_U, IR_T_I32,
	                    op2(b, IR_ADD, IR_T_I32, cta_threads(b),
	                        konst(b, IR_T_I32, b->fn->wave_size - 1), 0),
	                    konst(b, IR_T_I32, log2u(b->fn->wave_size)), 0);
	ir_ref total = op2(b, IR_BAR_SUM, IR_T_I32, area_address(b, b->bar_slots), nwaves, 0);
	irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
	store_slot(b, slot, konst(b, IR_T_I32, 0));
	ir_ref d = total;
	if (!popc)
		d = op2(b, IR_ICMP, IR_T_PRED, total, konst(b, IR_T_I32, 0),
		        is_and ? IR_CMP_EQ : IR_CMP_NE);
	irb_write_dest(b, &in->opnds[0], d, false, IR_NO_REF);
}

/* bar{.cta}.sync / bar / barrier{.cta}{.aligned} a{, b}; bar.arrive is an error. */
static void tr_bar_sync(struct irb *b, const struct ptx_insn *in)
{
	if (has(in, PTX_DW_ARRIVE)) {
		irb_unsupported(b, in, "arriving at a barrier without waiting");
		return;
	}
	if (in->nopnds && !is_cta_barrier(b, in, 0, in->nopnds > 1 ? 1 : -1, true)) {
		irb_unsupported(b, in, not_cta);
		return;
	}
	irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
}

void irb_bar(struct irb *b, const struct ptx_insn *in)
{
	if (in->op == PTX_OP_BAR_RED || in->op == PTX_OP_BARRIER_RED || has(in, PTX_DW_RED))
		tr_bar_red(b, in);
	else if (has(in, PTX_DW_WARP))
		irb_warp_sync(b, in); /* build_warp.c */
	else
		tr_bar_sync(b, in);
}

/* %reserved_smem_offset_1: the LDS offset of a hidden area for cooperative groups. */
ir_ref irb_reserved_smem(struct irb *b)
{
	if (!b->reserved_smem)
		b->reserved_smem = hidden_area(b, RESERVED_SMEM_BYTES, 8);
	return area_address(b, b->reserved_smem);
}

/* After the walk: zero every wave's bar.red slot at kernel entry (in front of block 0, which
 * no branch targets and which dominates every bar.red). */
void irb_bar_finish(struct irb *b)
{
	if (!b->bar_slots)
		return;
	struct ir_block *entry = &b->fn->blocks[0];
	struct ir_insn *old = entry->insns;
	uint32_t nold = entry->ninsns, cur = b->cur;
	bool terminated = b->terminated;
	entry->insns = NULL;
	entry->ninsns = entry->cap = 0;
	irb_switch_to(b, 0);
	store_slot(b, wave_slot(b), konst(b, IR_T_I32, 0));
	for (uint32_t i = 0; i < nold; i++)
		ir_append(b->fn, 0, &old[i]);
	b->cur = cur;
	b->terminated = terminated;
}
