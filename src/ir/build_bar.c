/* ir_build, part 5: CTA barriers -> IR (bar/barrier .sync/.arrive/.red, bar.warp.sync).
 *
 * bar.sync 0 / barrier.sync 0 of the whole CTA (no count, or the .reqntid CTA's) is
 * BARRIER (s_barrier).  bar.red and barrier.red of the whole CTA on barrier 0 reduce one
 * predicate per thread through a hidden LDS area of one dword per wave (bar_slots:
 * ceil(1024 / wave size) slots, laid out with the kernel's .shared variables, before any
 * extern .shared array):
 *     count = popc(ballot(p))  (.and counts ballot(!p))    per wave, uniform
 *     store count -> slot[wave]; BARRIER; total = BAR_SUM(slots, nwaves); BARRIER;
 *     store 0 -> slot[wave]
 * popc is total, .and is total == 0, .or is total != 0.  The second barrier keeps a wave's
 * next bar.red from overwriting its slot before every wave has read it; the zero store
 * (and one at kernel entry, spliced in front of block 0 by irb_bar_finish) leaves 0 in the
 * slot of a wave that has ended, so ended waves and exited lanes (not in EXEC, hence not
 * in the ballot) do not take part, as in the PTX ISA.  s_barrier does not wait for waves
 * that have ended.
 * Every other form (named barriers 1-15, a thread count, bar.arrive, a barrier register)
 * is NBAR / NBAR_RED on a hidden LDS area of 16 counter dwords and 16 x 2 accumulators
 * (docs/BARRIERS.md, sel_bar.c), zeroed by NBAR_INIT (and an s_barrier) at kernel entry.
 * A count is in threads and a multiple of the PTX warp size (a constant that is not, is 0
 * or exceeds 1024, and a constant barrier number above 15, are errors here; a register
 * count is rounded up, a register number masked to 4 bits); no count means the whole CTA
 * rounded up to warps.  When the kernel uses barrier 0 in such a form (or a barrier
 * register with a count, which may hold 0), every plain bar.sync 0 joins the LDS counters
 * too: its BARRIER carries aux 1 during the walk and irb_bar_finish rewrites it to NBAR
 * (the kernel's NBARs get IR_NBAR_ALL).  A barrier register without a count is NBAR with
 * IR_NBAR_MAYBE_0: ir_optimize makes it BARRIER if it folds to 0 (a .func parameter, as
 * cooperative groups write it), and drops NBAR_INIT when no NBAR is left.  bar.red with a
 * count adds popc(ballot) per wave: NBAR_RED returns the sum.
 * bar.warp.sync: the lanes of a warp run together in one wave, so only its memory-ordering
 * role is left: a CTA-scope acq_rel FENCE (stronger than needed, never wrong); its
 * membermask follows the lane-mask rules of docs/WARP.md (build_warp.c).
 * %reserved_smem_offset_1 (CUDA cooperative groups' multi-warp scratch, at most 288 bytes)
 * is the LDS offset of a hidden 288-byte area.
 * O(1) per instruction; the finish is O(instructions) when it has marks to rewrite. */
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
	ir_ref n =
	        irb_op2(b, IR_MUL, IR_T_I32, sreg(b, IR_SREG_NTID_X), sreg(b, IR_SREG_NTID_Y), 0);
	return irb_op2(b, IR_MUL, IR_T_I32, n, sreg(b, IR_SREG_NTID_Z), 0);
}

/* The address of the executing wave's slot: slots + (flat thread id / W) * 4. */
static ir_ref wave_slot(struct irb *b)
{
	ir_ref z = irb_op2(b, IR_MUL, IR_T_I32, sreg(b, IR_SREG_TID_Z), sreg(b, IR_SREG_NTID_Y), 0);
	ir_ref yz = irb_op2(b, IR_ADD, IR_T_I32, z, sreg(b, IR_SREG_TID_Y), 0);
	ir_ref flat = irb_op2(b, IR_ADD, IR_T_I32, sreg(b, IR_SREG_TID_X),
	                      irb_op2(b, IR_MUL, IR_T_I32, yz, sreg(b, IR_SREG_NTID_X), 0), 0);
	ir_ref wave = irb_op2(b, IR_SHR_U, IR_T_I32, flat,
	                      konst(b, IR_T_I32, log2u(b->fn->wave_size)), 0);
	ir_ref off = irb_op2(b, IR_SHL, IR_T_I32, wave, konst(b, IR_T_I32, 2), 0);
	return irb_op2(b, IR_ADD, IR_T_I32, area_address(b, b->bar_slots), off, 0);
}

static void store_slot(struct irb *b, ir_ref addr, ir_ref v)
{
	ir_ref args[2] = {addr, v};
	irb_emit(b, IR_STORE, IR_T_I32, args, 2, IR_SPACE_SHARED | 2u << IR_MEM_SIZE_SHIFT, 0);
}

/* bar.red over the whole CTA on barrier 0: the per-wave slots (see the header). */
static ir_ref cta_red(struct irb *b, ir_ref count)
{
	if (!b->bar_slots)
		b->bar_slots = hidden_area(b, BAR_MAX_THREADS / b->fn->wave_size * 4, 4);
	ir_ref slot = wave_slot(b);
	store_slot(b, slot, count);
	irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
	ir_ref nwaves = irb_op2(b, IR_SHR_U, IR_T_I32,
	                        irb_op2(b, IR_ADD, IR_T_I32, cta_threads(b),
	                                konst(b, IR_T_I32, b->fn->wave_size - 1), 0),
	                        konst(b, IR_T_I32, log2u(b->fn->wave_size)), 0);
	ir_ref total = irb_op2(b, IR_BAR_SUM, IR_T_I32, area_address(b, b->bar_slots), nwaves, 0);
	irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
	store_slot(b, slot, konst(b, IR_T_I32, 0));
	return total;
}

/* The PTX warp size: a count is a multiple of it. */
static unsigned ptx_warp(const struct irb *b)
{
	return b->fn->warp_size ? b->fn->warp_size : b->fn->wave_size;
}

static uint64_t reqntid_cta(const struct irb *b)
{
	const uint32_t *req = b->fn->reqntid;
	return (uint64_t)req[0] * (req[1] ? req[1] : 1) * (req[2] ? req[2] : 1);
}

struct bar_opnds {
	ir_ref id, count; /* count IR_NO_REF: none (the whole CTA) */
	bool const_id, plain;
	uint32_t idv;
};

/* Reads barrier a and count b (ib < 0: none); constants out of range are errors. */
static bool read_bar(struct irb *b, const struct ptx_insn *in, unsigned ia, int ib,
                     struct bar_opnds *o)
{
	o->id = irb_read_opnd(b, &in->opnds[ia], IR_T_I32, false);
	o->const_id = ir_is_const(b->fn, o->id);
	o->idv = o->const_id ? (uint32_t)b->fn->vals[o->id].bits : 0;
	o->count = IR_NO_REF;
	if (o->const_id && o->idv > 15) {
		irb_error(b, "barrier number %u is out of range: a CTA has barriers 0-15", o->idv);
		return false;
	}
	o->plain = o->const_id && o->idv == 0;
	if (ib < 0)
		return true;
	o->count = irb_read_opnd(b, &in->opnds[ib], IR_T_I32, false);
	if (!ir_is_const(b->fn, o->count)) {
		o->plain = false;
		return true;
	}
	uint32_t c = (uint32_t)b->fn->vals[o->count].bits;
	if (c == 0 || c % ptx_warp(b) || c > BAR_MAX_THREADS) {
		irb_error(
		        b,
		        "barrier thread count %u must be a multiple of the warp size (%u) between "
		        "%u and %u",
		        c, ptx_warp(b), ptx_warp(b), BAR_MAX_THREADS);
		return false;
	}
	o->plain = o->plain && c == reqntid_cta(b);
	return true;
}

static ir_ref round_to_warps(struct irb *b, ir_ref n)
{
	unsigned w = ptx_warp(b);
	ir_ref up = irb_op2(b, IR_ADD, IR_T_I32, n, konst(b, IR_T_I32, w - 1), 0);
	return irb_op2(b, IR_AND, IR_T_I32, up,
	               konst(b, IR_T_I32, ~(uint64_t)(w - 1) & 0xffffffffu), 0);
}

/* NBAR's operands: the area, the barrier number, the count in threads. */
static void nbar_args(struct irb *b, const struct bar_opnds *o, ir_ref args[3])
{
	if (!b->nbar_area)
		b->nbar_area = hidden_area(b, IR_NBAR_AREA_BYTES, 16);
	args[0] = area_address(b, b->nbar_area);
	args[1] = o->id;
	if (o->count == IR_NO_REF)
		args[2] = round_to_warps(b, cta_threads(b));
	else if (ir_is_const(b->fn, o->count))
		args[2] = o->count;
	else
		args[2] = round_to_warps(b, o->count);
}

/* bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c */
static void tr_bar_red(struct irb *b, const struct ptx_insn *in)
{
	bool popc = has(in, PTX_DW_POPC), is_and = has(in, PTX_DW_AND);
	struct bar_opnds o;
	if (!read_bar(b, in, 1, in->nopnds == 4 ? 2 : -1, &o))
		return;
	ir_ref p = irb_read_opnd(b, &in->opnds[in->nopnds - 1], IR_T_PRED, false);
	if (is_and)
		p = irb_emit(b, IR_NOT, IR_T_PRED, &p, 1, 0, 0);
	enum ir_type mt = b->fn->wave_size == 64 ? IR_T_I64 : IR_T_I32;
	ir_ref mask = irb_emit(b, IR_BALLOT, mt, &p, 1, 0, 0);
	ir_ref count = irb_emit(b, IR_POPC, IR_T_I32, &mask, 1, 0, 0);
	ir_ref total;
	if (o.plain) {
		total = cta_red(b, count);
	} else {
		b->nbar_all |= !o.const_id || o.idv == 0;
		ir_ref args[4];
		nbar_args(b, &o, args);
		args[3] = count;
		total = irb_emit(b, IR_NBAR_RED, IR_T_I32, args, 4, 0, 0);
	}
	ir_ref d = total;
	if (!popc)
		d = irb_op2(b, IR_ICMP, IR_T_PRED, total, konst(b, IR_T_I32, 0),
		            is_and ? IR_CMP_EQ : IR_CMP_NE);
	irb_write_dest(b, &in->opnds[0], d, false, IR_NO_REF);
}

/* bar{.cta}.sync / bar{.cta}.arrive / bar / barrier{.cta}{.aligned} a{, b} */
static void tr_bar_sync(struct irb *b, const struct ptx_insn *in)
{
	bool arrive = has(in, PTX_DW_ARRIVE);
	if (!in->nopnds) {
		irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
		return;
	}
	struct bar_opnds o;
	if (!read_bar(b, in, 0, in->nopnds > 1 ? 1 : -1, &o))
		return;
	if (arrive && o.count == IR_NO_REF) {
		irb_error(b, "'bar.arrive' needs a thread count");
		return;
	}
	if (o.plain && !arrive) {
		irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 1, 0); /* aux 1: see irb_bar_finish */
		b->bar_marked = true;
		return;
	}
	bool maybe0 = !o.const_id && o.count == IR_NO_REF && !arrive;
	b->nbar_all |= !maybe0 && (!o.const_id || o.idv == 0);
	ir_ref args[3];
	nbar_args(b, &o, args);
	irb_emit(b, IR_NBAR, IR_T_NONE, args, 3,
	         (arrive ? IR_NBAR_ARRIVE : 0) | (maybe0 ? IR_NBAR_MAYBE_0 : 0), 0);
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
	if (!b->reserved_smem) {
		b->reserved_smem = hidden_area(b, RESERVED_SMEM_BYTES, 8);
		b->reserved_line = b->line;
		b->reserved_col = b->col;
	}
	return area_address(b, b->reserved_smem);
}

/* Whether address r comes from the reserved area (through casts and adds, a few steps). */
static bool from_reserved(const struct irb *b, const struct ir_insn **def, ir_ref r, unsigned depth)
{
	const struct ir_insn *d = r < b->fn->nvals ? def[r] : NULL;
	if (!d || depth > 12)
		return false;
	if (d->op == IR_SYMADDR)
		return (d->aux & IR_SPACE_MASK) == IR_SPACE_SHARED &&
		       d->imm == (int64_t)b->reserved_smem - 1;
	if (d->op == IR_ADD || d->op == IR_SUB || d->op == IR_COPY || d->op == IR_BITCAST ||
	    d->op == IR_CVTA_FROM || d->op == IR_CVTA_TO || d->op == IR_ZEXT)
		for (unsigned k = 0; k < d->nargs && k < 2; k++)
			if (from_reserved(b, def, d->args[k], depth + 1))
				return true;
	return false;
}

/* Cooperative groups' multi-warp tiles spin on the area, one 32-lane warp waiting for
 * another's atomic: with --warp-size 32 on wave64 two such warps are the halves of one
 * wave, and the half that spins keeps the other from running (docs/WARP.md).  Warned
 * when an atomic's address comes straight from the area (nvcc -G reads the register
 * in every this_thread_block() and keeps it in the frame: not warned there). */
static void warn_reserved_spins(struct irb *b)
{
	struct ir_function *fn = b->fn;
	if (!b->reserved_smem || fn->warp_size >= fn->wave_size)
		return;
	const struct ir_insn **def = PA_NEW_ARRAY(b->arena, const struct ir_insn *, fn->nvals + 1);
	for (uint32_t blk = 0; blk < fn->nblocks; blk++)
		for (uint32_t i = 0; i < fn->blocks[blk].ninsns; i++)
			if (fn->blocks[blk].insns[i].res < fn->nvals)
				def[fn->blocks[blk].insns[i].res] = &fn->blocks[blk].insns[i];
	for (uint32_t blk = 0; blk < fn->nblocks; blk++)
		for (uint32_t i = 0; i < fn->blocks[blk].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[blk].insns[i];
			if ((in->op == IR_ATOMIC || in->op == IR_RED) &&
			    from_reserved(b, def, in->args[0], 0)) {
				pa_diag_report(
				        b->d, PA_DIAG_WARNING, b->file, b->reserved_line,
				        b->reserved_col, NULL, 0,
				        "%%reserved_smem_offset_1 (cooperative groups' multi-warp "
				        "tiles): their 32-lane warps spin on each other, which may "
				        "never end when two of them share a wave64 (--warp-size "
				        "32, docs/WARP.md)");
				return;
			}
		}
}

/* Block blk's instructions again through `put`, which may emit replacements. */
static void rebuild_block(struct irb *b, uint32_t blk,
                          void (*put)(struct irb *b, uint32_t blk, const struct ir_insn *in))
{
	struct ir_block *bl = &b->fn->blocks[blk];
	struct ir_insn *old = bl->insns;
	uint32_t nold = bl->ninsns;
	bl->insns = NULL;
	bl->ninsns = bl->cap = 0;
	irb_switch_to(b, blk);
	for (uint32_t i = 0; i < nold; i++)
		put(b, blk, &old[i]);
}

/* A plain bar.sync 0 (aux 1) becomes NBAR when barrier 0 lives in LDS; NBARs learn it. */
static void put_marked(struct irb *b, uint32_t blk, const struct ir_insn *in)
{
	struct ir_insn c = *in;
	if (c.op == IR_BARRIER && c.aux == 1 && b->nbar_all) {
		b->line = c.line;
		b->col = c.col;
		struct bar_opnds o = {.id = konst(b, IR_T_I32, 0), .count = IR_NO_REF};
		ir_ref args[3];
		nbar_args(b, &o, args);
		irb_emit(b, IR_NBAR, IR_T_NONE, args, 3, IR_NBAR_ALL, 0);
		return;
	}
	if (c.op == IR_BARRIER)
		c.aux = 0;
	if ((c.op == IR_NBAR || c.op == IR_NBAR_RED) && b->nbar_all)
		c.aux |= IR_NBAR_ALL;
	ir_append(b->fn, blk, &c);
}

/* After the walk: plain barriers are settled (see the header), then every wave's bar.red
 * slot and the NBAR area are zeroed at kernel entry (in front of block 0, which no branch
 * targets and which dominates every barrier); NBAR_INIT ends in an s_barrier, so that no
 * wave arrives before every counter is 0. */
void irb_bar_finish(struct irb *b)
{
	warn_reserved_spins(b);
	uint32_t cur = b->cur, line = b->line, col = b->col;
	bool terminated = b->terminated;
	if (b->bar_marked || b->nbar_all)
		for (uint32_t blk = 0; blk < b->fn->nblocks; blk++)
			rebuild_block(b, blk, put_marked);
	if (b->bar_slots || b->nbar_area) {
		struct ir_block *entry = &b->fn->blocks[0];
		struct ir_insn *old = entry->insns;
		uint32_t nold = entry->ninsns;
		entry->insns = NULL;
		entry->ninsns = entry->cap = 0;
		irb_switch_to(b, 0);
		if (nold) {
			b->line = old[0].line;
			b->col = old[0].col;
		}
		if (b->bar_slots)
			store_slot(b, wave_slot(b), konst(b, IR_T_I32, 0));
		if (b->nbar_area) {
			ir_ref area = area_address(b, b->nbar_area);
			irb_emit(b, IR_NBAR_INIT, IR_T_NONE, &area, 1, 0, 0);
		}
		for (uint32_t i = 0; i < nold; i++)
			ir_append(b->fn, 0, &old[i]);
	}
	b->cur = cur;
	b->terminated = terminated;
	b->line = line;
	b->col = col;
}
