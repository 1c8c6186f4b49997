/* ir_build, async part 2: mbarrier objects -> IR (docs/BARRIERS.md, "mbarrier").
 *
 * An mbarrier is a 64-bit object in memory (.shared::cta, or a generic address of one)
 * that this file encodes as
 *     bits  0-19  pending arrivals of the current phase
 *     bits 20-39  expected arrivals per phase (init's count, lowered by arrive_drop)
 *     bits 40-61  tx-count, 22-bit two's complement
 *     bits 62-63  phase (modulo 4; its bit 62 is the phase parity)
 * init stores {count, count, 0, 0}.  Every update (arrive, arrive_drop, expect_tx,
 * complete_tx, cp.async.mbarrier.arrive.noinc) is one compare-and-swap loop per lane
 * (mb_update below):
 *     do { old = load.volatile [a]; new = step(old) } while (cas([a], old, new) != old)
 * where step subtracts the arrivals (and, for arrive_drop, the expected count), adds the
 * tx delta, and, when pending and tx-count are both 0 afterwards, completes the phase:
 * pending = expected, tx-count = 0, phase + 1.  The whole transition is one atomic, so
 * no arrival can fall between a completion and the next phase's reset.  The state token
 * arrive returns is the word its step replaced: its phase is the phase the thread arrived
 * in, its pending count (pending_count) the arrivals that phase still missed before this
 * one, as an H100 returns it (tests/exec/cases/cases_async.py, docs/BARRIERS.md).  Lanes
 * of a wave that arrive at one object with a constant count step once for all of them.
 * test_wait/try_wait compare the phase of the word with the token's (or its parity with
 * .parity's operand): the phase completed when they differ.  test_wait tests once (and
 * sleeps with s_sleep 1 when it fails, so that a spinning caller lets other waves run);
 * try_wait waits until the phase completed (a system-dependent time limit that the PTX
 * ISA leaves open: here none) with s_sleep 1 per turn, and returns true.  The memory order
 * of .release (arrive's default) is a fence before the update, of .acquire (the waits'
 * default) one after the test; .relaxed has neither; .cluster scope is .gpu here.
 * arrive{_drop}.noComplete is the same update: a completion by it is undefined (PTX ISA).
 * inval does nothing: nothing else refers to an object, so its memory may be reused as
 * soon as inval is ordered before that use, which program order already does.
 * O(1) IR per instruction. */
#include "ir/build_int.h"

enum {
	MB_FIELD_BITS = 20,
	MB_TX_SHIFT = 40,
	MB_TX_BITS = 22,
	MB_PHASE_SHIFT = 62,
};

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

static ir_ref k64(struct irb *b, uint64_t v)
{
	return ir_const(b->fn, IR_T_I64, v);
}

static ir_ref field(struct irb *b, ir_ref w, unsigned shift, unsigned bits)
{
	ir_ref v = shift ? irb_op2(b, IR_SHR_U, IR_T_I64, w, k64(b, shift), 0) : w;
	return irb_op2(b, IR_AND, IR_T_I64, v, k64(b, (1ull << bits) - 1), 0);
}

static ir_ref put(struct irb *b, ir_ref acc, ir_ref v, unsigned shift)
{
	return irb_op2(b, IR_OR, IR_T_I64, acc, irb_op2(b, IR_SHL, IR_T_I64, v, k64(b, shift), 0),
	               0);
}

static void fence(struct irb *b, enum ir_order order, enum ir_scope scope)
{
	irb_emit(b, IR_FENCE, IR_T_NONE, NULL, 0,
	         (uint32_t)order << IR_ORD_SHIFT | (uint32_t)scope << IR_SCOPE_SHIFT, 0);
}

/* The scope of in's .cta/.cluster word (.cluster is GPU scope, as in build_atomic.c). */
static enum ir_scope scope_of(const struct ptx_insn *in)
{
	return has(in, PTX_DW_CLUSTER) ? IR_SCOPE_GPU : IR_SCOPE_CTA;
}

/* The object's address: *base (+ *off) in *space. */
struct mb_addr {
	ir_ref base;
	int64_t off;
	int space;
};

static bool mb_address(struct irb *b, const struct ptx_insn *in, unsigned i, struct mb_addr *a)
{
	a->space = irb_mem_space(in);
	if (i >= in->nopnds || in->opnds[i].kind != PTX_OPND_ADDR ||
	    (a->space != IR_SPACE_SHARED && a->space != IR_SPACE_GENERIC)) {
		irb_unsupported(b, in, "an mbarrier outside .shared");
		return false;
	}
	return irb_address(b, &in->opnds[i], a->space, &a->base, &a->off);
}

static ir_ref mb_load(struct irb *b, const struct mb_addr *a)
{
	uint32_t aux = (uint32_t)a->space | 3u << IR_MEM_SIZE_SHIFT | IR_MEM_VOLATILE;
	return irb_emit(b, IR_LOAD, IR_T_I64, &a->base, 1, aux, a->off);
}

/* One lane's atomic step of the object (see the header): `count` arrivals (i64), `drop`
 * of them also leave the expected count, `tx` (i64) added to the tx-count.  Returns the
 * state token. */
static ir_ref mb_update_lane(struct irb *b, const struct mb_addr *a, ir_ref count, bool drop,
                             ir_ref tx)
{
	uint32_t head = irb_new_block(b), exit = irb_open_sealed(b);
	irb_terminate(b, IR_JMP, IR_NO_REF, head, 0);
	irb_switch_to(b, head);
	ir_ref old = mb_load(b, a);
	ir_ref mask20 = k64(b, (1ull << MB_FIELD_BITS) - 1);
	ir_ref pend = irb_op2(
	        b, IR_AND, IR_T_I64,
	        irb_op2(b, IR_SUB, IR_T_I64, field(b, old, 0, MB_FIELD_BITS), count, 0), mask20, 0);
	ir_ref expect = field(b, old, MB_FIELD_BITS, MB_FIELD_BITS);
	if (drop)
		expect = irb_op2(b, IR_AND, IR_T_I64,
		                 irb_op2(b, IR_SUB, IR_T_I64, expect, count, 0), mask20, 0);
	ir_ref txc =
	        irb_op2(b, IR_AND, IR_T_I64,
	                irb_op2(b, IR_ADD, IR_T_I64, field(b, old, MB_TX_SHIFT, MB_TX_BITS), tx, 0),
	                k64(b, (1ull << MB_TX_BITS) - 1), 0);
	ir_ref phase = irb_op2(b, IR_SHR_U, IR_T_I64, old, k64(b, MB_PHASE_SHIFT), 0);
	ir_ref stay = put(b, put(b, put(b, pend, expect, MB_FIELD_BITS), txc, MB_TX_SHIFT), phase,
	                  MB_PHASE_SHIFT);
	ir_ref left = irb_op2(b, IR_OR, IR_T_I64, pend, txc, 0);
	ir_ref done = irb_op2(b, IR_ICMP, IR_T_PRED, left, k64(b, 0), IR_CMP_EQ);
	ir_ref next = put(b, put(b, expect, expect, MB_FIELD_BITS),
	                  irb_op2(b, IR_ADD, IR_T_I64, phase, k64(b, 1), 0), MB_PHASE_SHIFT);
	ir_ref sel[3] = {done, next, stay};
	ir_ref nw = irb_emit(b, IR_SELECT, IR_T_I64, sel, 3, 0, 0);
	ir_ref cas[3] = {a->base, old, nw};
	uint32_t aux = (uint32_t)a->space | 3u << IR_MEM_SIZE_SHIFT |
	               (uint32_t)IR_ATOM_CAS << IR_ATOM_OP_SHIFT |
	               (uint32_t)IR_ORD_RELAXED << IR_ORD_SHIFT;
	ir_ref got = irb_emit(b, IR_ATOMIC, IR_T_I64, cas, 3, aux, a->off);
	ir_ref ok = irb_op2(b, IR_ICMP, IR_T_PRED, got, old, IR_CMP_EQ);
	irb_terminate(b, IR_BR, ok, exit, head);
	irb_seal(b, head);
	irb_switch_to(b, exit);
	return old;
}

static ir_ref op1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x)
{
	return irb_emit(b, op, t, &x, 1, 0, 0);
}

/* Whether r is a variable's address (copied, plus a constant): the same in every lane. */
static bool is_symbol_address(struct irb *b, ir_ref r)
{
	for (unsigned depth = 0; depth < 3 && b->fn->vals[r].kind == IR_VAL_INSN; depth++) {
		const struct ir_block *bl = &b->fn->blocks[b->fn->vals[r].block];
		const struct ir_insn *d = NULL;
		for (uint32_t i = bl->ninsns; i-- > 0 && !d;)
			if (bl->insns[i].res == r)
				d = &bl->insns[i];
		if (!d)
			return false;
		if (d->op == IR_SYMADDR)
			return true;
		if (d->op != IR_COPY && (d->op != IR_ADD || !ir_is_const(b->fn, d->args[1])))
			return false;
		r = d->args[0];
	}
	return false;
}

/* The step of every active lane of the wave.  When they all name one object and the
 * count and tx delta are constants (every form but a register count or tx-count), the
 * lowest active lane steps once for all of them (count and tx times the active lanes) and
 * every lane gets its token: one compare-and-swap instead of one per lane, and the
 * tokens an H100 gives the threads of a warp that arrive together.  Otherwise each lane
 * steps on its own. */
static ir_ref mb_update(struct irb *b, const struct mb_addr *a, ir_ref count, bool drop, ir_ref tx)
{
	if (!ir_is_const(b->fn, count) || !ir_is_const(b->fn, tx))
		return mb_update_lane(b, a, count, drop, tx);
	enum ir_type mt = b->fn->wave_size == 64 ? IR_T_I64 : IR_T_I32;
	enum ir_type at = (enum ir_type)b->fn->vals[a->base].type;
	ir_ref act = irb_emit(b, IR_ACTIVEMASK, mt, NULL, 0, 0, 0);
	bool sym = is_symbol_address(b, a->base); /* the same in every lane */
	ir_ref first = sym ? a->base : op1(b, IR_READFIRST, at, a->base);
	/* a variable of this instruction (key: an unused symbol instance and the block) */
	uint32_t var = irb_var_of_key(
	        b, (uint64_t)(0xfffd0000u | (b->cur & 0xffffu)) << 32 | b->inst, IR_T_I64);
	uint32_t join = irb_new_block(b);
	if (!sym) {
		ir_ref bal = op1(b, IR_BALLOT, mt,
		                 irb_op2(b, IR_ICMP, IR_T_PRED, a->base, first, IR_CMP_EQ));
		ir_ref one = irb_op2(b, IR_ICMP, IR_T_PRED, bal, act, IR_CMP_EQ);
		uint32_t wave = irb_open_sealed(b), lanes = irb_open_sealed(b);
		irb_terminate(b, IR_BR, one, wave, lanes);
		irb_switch_to(b, lanes);
		irb_write_var(b, var, b->cur, mb_update_lane(b, a, count, drop, tx));
		irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
		irb_switch_to(b, wave);
	}
	ir_ref n = op1(b, IR_ZEXT, IR_T_I64, op1(b, IR_POPC, IR_T_I32, act));
	ir_ref lane = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
	ir_ref lead = irb_op2(b, IR_ICMP, IR_T_PRED, lane, op1(b, IR_READFIRST, IR_T_I32, lane),
	                      IR_CMP_EQ);
	uint32_t leader = irb_open_sealed(b), back = irb_new_block(b);
	irb_terminate(b, IR_BR, lead, leader, back);
	irb_switch_to(b, leader);
	struct mb_addr u = *a;
	u.base = first;
	irb_write_var(b, var, b->cur,
	              mb_update_lane(b, &u, irb_op2(b, IR_MUL, IR_T_I64, count, n, 0), drop,
	                             irb_op2(b, IR_MUL, IR_T_I64, tx, n, 0)));
	irb_terminate(b, IR_JMP, IR_NO_REF, back, 0);
	irb_seal(b, back);
	irb_switch_to(b, back);
	ir_ref token = op1(b, IR_READFIRST, IR_T_I64, irb_read_var(b, var, b->cur));
	irb_write_var(b, var, b->cur, token);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
	return irb_read_var(b, var, b->cur);
}

/* Whether word w's phase differs from the token's (or, with parity, its parity from p's). */
static ir_ref phase_done(struct irb *b, ir_ref w, ir_ref token, bool parity)
{
	ir_ref ph = irb_op2(b, IR_SHR_U, IR_T_I64, w, k64(b, MB_PHASE_SHIFT), 0);
	ir_ref want = token;
	if (parity) {
		ph = irb_op2(b, IR_AND, IR_T_I64, ph, k64(b, 1), 0);
		want = irb_op2(b, IR_AND, IR_T_I64, token, k64(b, 1), 0);
	} else {
		want = irb_op2(b, IR_SHR_U, IR_T_I64, token, k64(b, MB_PHASE_SHIFT), 0);
	}
	return irb_op2(b, IR_ICMP, IR_T_PRED, ph, want, IR_CMP_NE);
}

/* test_wait / try_wait: the predicate (try_wait: true, after waiting). */
static ir_ref mb_wait(struct irb *b, const struct mb_addr *a, ir_ref token, bool parity,
                      bool blocking)
{
	uint32_t head = blocking ? irb_new_block(b) : b->cur;
	if (blocking) {
		irb_terminate(b, IR_JMP, IR_NO_REF, head, 0);
		irb_switch_to(b, head);
	}
	ir_ref done = phase_done(b, mb_load(b, a), token, parity);
	uint32_t nap = irb_open_sealed(b), exit = irb_new_block(b);
	irb_terminate(b, IR_BR, done, exit, nap);
	irb_switch_to(b, nap);
	irb_emit(b, IR_ASYNC_SLEEP, IR_T_NONE, NULL, 0, 0, 0);
	irb_terminate(b, IR_JMP, IR_NO_REF, blocking ? head : exit, 0);
	if (blocking)
		irb_seal(b, head);
	irb_seal(b, exit);
	irb_switch_to(b, exit);
	return blocking ? ir_const(b->fn, IR_T_PRED, 1) : done;
}

static bool mb_order(struct irb *b, const struct ptx_insn *in, enum ir_order dflt,
                     enum ir_order *out)
{
	*out = dflt;
	if (has(in, PTX_DW_RELAXED))
		*out = IR_ORD_RELAXED;
	else if ((dflt == IR_ORD_RELEASE && has(in, PTX_DW_ACQUIRE)) ||
	         (dflt == IR_ORD_ACQUIRE && has(in, PTX_DW_RELEASE)) || has(in, PTX_DW_ACQ_REL) ||
	         has(in, PTX_DW_SC)) {
		irb_unsupported(b, in, "memory order not defined for this mbarrier operation");
		return false;
	}
	return true;
}

static void mb_init(struct irb *b, const struct ptx_insn *in)
{
	struct mb_addr a;
	if (in->nopnds != 2 || !mb_address(b, in, 0, &a))
		return;
	ir_ref n = irb_op2(b, IR_AND, IR_T_I64, irb_read_opnd(b, &in->opnds[1], IR_T_I64, false),
	                   k64(b, (1ull << MB_FIELD_BITS) - 1), 0);
	ir_ref args[2] = {a.base, put(b, n, n, MB_FIELD_BITS)};
	irb_emit(b, IR_STORE, IR_T_I64, args, 2, (uint32_t)a.space | 3u << IR_MEM_SIZE_SHIFT,
	         a.off);
}

/* arrive / arrive_drop (.expect_tx), expect_tx, complete_tx. */
static void mb_arrive(struct irb *b, const struct ptx_insn *in)
{
	bool drop = has(in, PTX_DW_ARRIVE_DROP), arrive = drop || has(in, PTX_DW_ARRIVE);
	bool expect = has(in, PTX_DW_EXPECT_TX), complete = has(in, PTX_DW_COMPLETE_TX);
	unsigned first = arrive ? 1 : 0; /* the address operand */
	enum ir_order order;
	struct mb_addr a;
	if (!mb_order(b, in, arrive ? IR_ORD_RELEASE : IR_ORD_RELAXED, &order))
		return;
	if (in->nopnds > first + 2 || (!arrive && in->nopnds != 2)) {
		irb_unsupported(b, in, "operand form");
		return;
	}
	if (!mb_address(b, in, first, &a))
		return;
	ir_ref count = k64(b, arrive ? 1 : 0), tx = k64(b, 0);
	if (in->nopnds == first + 2) {
		ir_ref v = irb_read_opnd(b, &in->opnds[first + 1], IR_T_I64, false);
		if (expect || complete) /* .expect_tx's operand is the tx-count, not a count */
			tx = expect ? v : irb_op2(b, IR_SUB, IR_T_I64, k64(b, 0), v, 0);
		else
			count = irb_op2(b, IR_AND, IR_T_I64, v, k64(b, 0xffffffffu), 0);
	}
	if (order != IR_ORD_RELAXED)
		fence(b, IR_ORD_RELEASE, scope_of(in));
	ir_ref token = mb_update(b, &a, count, drop, tx);
	if (arrive)
		irb_write_dest(b, &in->opnds[0], token, false, IR_NO_REF);
}

static void mb_test(struct irb *b, const struct ptx_insn *in)
{
	bool parity = has(in, PTX_DW_PARITY), blocking = has(in, PTX_DW_TRY_WAIT);
	enum ir_order order;
	struct mb_addr a;
	if (!mb_order(b, in, IR_ORD_ACQUIRE, &order))
		return;
	/* try_wait's optional suspend-time hint only bounds how long it may wait */
	if (in->nopnds != 3 && !(blocking && in->nopnds == 4)) {
		irb_unsupported(b, in, "operand form");
		return;
	}
	if (blocking && in->nopnds == 4)
		(void)irb_read_opnd(b, &in->opnds[3], IR_T_I32, false);
	if (!mb_address(b, in, 1, &a))
		return;
	ir_ref token = irb_read_opnd(b, &in->opnds[2], IR_T_I64, false);
	ir_ref done = mb_wait(b, &a, token, parity, blocking);
	if (order != IR_ORD_RELAXED)
		fence(b, IR_ORD_ACQUIRE, scope_of(in));
	irb_write_dest(b, &in->opnds[0], done, false, IR_NO_REF);
}

/* mbarrier.*: false if in is not one of the forms built here. */
bool irb_mbarrier(struct irb *b, const struct ptx_insn *in)
{
	if (has(in, PTX_DW_INIT)) {
		mb_init(b, in);
	} else if (has(in, PTX_DW_INVAL)) {
		struct mb_addr a;
		if (in->nopnds == 1)
			(void)mb_address(b, in, 0, &a); /* see the header */
		else
			irb_unsupported(b, in, "operand form");
	} else if (has(in, PTX_DW_PENDING_COUNT)) {
		if (in->nopnds != 2) {
			irb_unsupported(b, in, "operand form");
			return true;
		}
		ir_ref t = irb_read_opnd(b, &in->opnds[1], IR_T_I64, false);
		irb_write_dest(b, &in->opnds[0], field(b, t, 0, MB_FIELD_BITS), false, IR_NO_REF);
	} else if (has(in, PTX_DW_TEST_WAIT) || has(in, PTX_DW_TRY_WAIT)) {
		mb_test(b, in);
	} else if (has(in, PTX_DW_ARRIVE) || has(in, PTX_DW_ARRIVE_DROP) ||
	           has(in, PTX_DW_EXPECT_TX) || has(in, PTX_DW_COMPLETE_TX)) {
		mb_arrive(b, in);
	} else {
		return false;
	}
	return true;
}

/* cp.async.mbarrier.arrive{.noinc}: the copies are complete already (build_async.c), so
 * the arrive-on happens now.  Without .noinc the pending count is raised by one first:
 * no change at all; with .noinc it is one arrival. */
void irb_cp_async_arrive(struct irb *b, const struct ptx_insn *in)
{
	struct mb_addr a;
	if (in->nopnds != 1 || !mb_address(b, in, 0, &a))
		return;
	if (!has(in, PTX_DW_NOINC))
		return;
	fence(b, IR_ORD_RELEASE, IR_SCOPE_CTA);
	(void)mb_update(b, &a, k64(b, 1), false, k64(b, 0));
}
