/* ir_build, part 3: warp-level PTX instructions -> IR, and the wave-size rules.
 *
 * shfl.sync computes its source lane and in-range predicate with integer operations (PTX
 * ISA semantics, with lane, offset and the c operand's fields W bits wide for a warp of W
 * lanes, evaluated on wave lanes) and reads the value there with one lane.read; with
 * immediate b and c naming segments of 2^k lanes the lane.read carries the pattern instead
 * (IR_LANE_AUX: xor, idx, up/down; its lane operand the wave lane * 4) for DPP/ds_swizzle/
 * v_permlane/ds_bpermute-with-offset selection, and the source lane is not computed.
 * vote.sync, activemask,
 * match.all.sync and elect.sync are integer arithmetic on two wave-wide operations:
 * ballot (the lane mask of the active lanes where a predicate holds) and activemask;
 * redux.sync and match.any.sync are one operation each; %lanemask_* come from %laneid.
 *
 * Wave size rules (docs/WARP.md, after SCALE's): lane masks -- membermask operands,
 * ballot/activemask/match results, %lanemask_* -- are W bits wide; on wave64 a lane-mask
 * register narrower than 64 bits is an error, and a constant lane mask with an empty
 * high half a warning (0xffffffff means "all lanes" on NVIDIA; -1 is the portable
 * spelling) unless fn->no_lanemask_warning.  WARP_SZ is the constant W.
 * W is the warp size, fn->warp_size: the wave size, or 32 on wave64 with --warp-size 32,
 * where each half of a wave is a warp (lane masks shifted down for the upper half, shuffle
 * sources offset into it, match.all through match.any, redux per half).
 * Membermask on AMD: every active lane executes the instruction; results that are lane
 * masks are ANDed with membermask, nothing else depends on it.
 * O(1) per instruction. */
#include <stdio.h>
#include <string.h>

#include "ir/build_int.h"

/* Lane masks as the PTX sees them: warp-size bits. */
static enum ir_type mask_type(const struct irb *b)
{
	return b->fn->warp_size == 64 ? IR_T_I64 : IR_T_I32;
}

/* Lane masks of the wave (ballot, activemask, match.any results). */
static enum ir_type wave_mask_type(const struct irb *b)
{
	return b->fn->wave_size == 64 ? IR_T_I64 : IR_T_I32;
}

/* 32-lane warps on wave64 (--warp-size 32): each half of the wave is a warp. */
static bool in_halves(const struct irb *b)
{
	return b->fn->warp_size < b->fn->wave_size;
}

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

/* The operations below fold constants and the identities the shuffle formulas meet
 * (x & 0, x | 0, x & ~0), so constant lane and c operands leave little code. */
static bool const_bits(struct irb *b, ir_ref r, uint64_t *v)
{
	if (!ir_is_const(b->fn, r))
		return false;
	*v = b->fn->vals[r].bits;
	return true;
}

static uint64_t type_mask(enum ir_type t)
{
	return ir_type_bits(t) >= 64 ? ~0ull : (1ull << ir_type_bits(t)) - 1;
}

static ir_ref op1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a)
{
	uint64_t x;
	if (op == IR_NOT && const_bits(b, a, &x))
		return konst(b, t, ~x & type_mask(t));
	return irb_emit(b, op, t, &a, 1, 0, 0);
}

static ir_ref op2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c)
{
	uint64_t x = 0, y = 0, m = type_mask(t);
	bool ca = const_bits(b, a, &x), cc = const_bits(b, c, &y);
	if (ca && cc && op != IR_SHL && op != IR_SHR_U) {
		uint64_t r = op == IR_AND   ? x & y
		             : op == IR_OR  ? x | y
		             : op == IR_XOR ? x ^ y
		             : op == IR_ADD ? x + y
		             : op == IR_SUB ? x - y
		                            : 0;
		if (op == IR_AND || op == IR_OR || op == IR_XOR || op == IR_ADD || op == IR_SUB)
			return konst(b, t, r & m);
	}
	if (ca && cc && (op == IR_SHL || op == IR_SHR_U) && y < ir_type_bits(t))
		return konst(b, t, (op == IR_SHL ? x << y : x >> y) & m);
	if (op == IR_AND && ((ca && x == 0) || (cc && y == 0)))
		return konst(b, t, 0);
	if ((op == IR_AND && cc && (y & m) == m) || ((op == IR_OR || op == IR_ADD) && cc && y == 0))
		return a;
	if ((op == IR_AND && ca && (x & m) == m) || (op == IR_OR && ca && x == 0))
		return c;
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, t, args, 2, 0, 0);
}

/* Integer comparison; constants fold (EQ, NE and the signed orders the formulas use). */
static ir_ref cmp(struct irb *b, enum ir_cmp k, ir_ref a, ir_ref c)
{
	uint64_t x, y;
	enum ir_type t = (enum ir_type)b->fn->vals[a].type;
	if (const_bits(b, a, &x) && const_bits(b, c, &y) &&
	    (k == IR_CMP_EQ || k == IR_CMP_NE || k == IR_CMP_LE || k == IR_CMP_GE)) {
		unsigned sh = 64 - ir_type_bits(t);
		int64_t sx = (int64_t)(x << sh) >> sh, sy = (int64_t)(y << sh) >> sh;
		bool r = k == IR_CMP_EQ   ? sx == sy
		         : k == IR_CMP_NE ? sx != sy
		         : k == IR_CMP_LE ? sx <= sy
		                          : sx >= sy;
		return konst(b, IR_T_PRED, r);
	}
	ir_ref args[2] = {a, c};
	return irb_emit(b, IR_ICMP, IR_T_PRED, args, 2, k, 0);
}

static ir_ref wave_lane(struct irb *b)
{
	return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_LANEID, 0);
}

/* The wave lane times 4, the operand of a lane.read with a pattern (IR_LANE_AUX): the lane's
 * own ds_bpermute address, which selection offsets to shift every lane (one for all shuffles). */
static ir_ref lane_address(struct irb *b)
{
	return op2(b, IR_SHL, IR_T_I32, wave_lane(b), konst(b, IR_T_I32, 2));
}

/* %laneid: the lane within the warp. */
ir_ref irb_laneid(struct irb *b)
{
	ir_ref lane = wave_lane(b);
	if (!in_halves(b))
		return lane;
	return op2(b, IR_AND, IR_T_I32, lane, konst(b, IR_T_I32, b->fn->warp_size - 1));
}

/* %warpid: the warp's number within the CTA.  Work-items fill the waves of a workgroup in
 * linear order (x fastest), so it is the linear thread index divided by the warp size (with
 * --warp-size 32 on wave64, each half of a wave is a warp). */
ir_ref irb_warpid(struct irb *b)
{
	ir_ref sr[5];
	for (unsigned k = 0; k < 5; k++) /* tid.x, tid.y, tid.z, ntid.x, ntid.y */
		sr[k] = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, k < 3 ? k : 3 + (k - 3), 0);
	ir_ref lin = op2(b, IR_MUL, IR_T_I32, sr[2], sr[4]);
	lin = op2(b, IR_ADD, IR_T_I32, lin, sr[1]);
	lin = op2(b, IR_MUL, IR_T_I32, lin, sr[3]);
	lin = op2(b, IR_ADD, IR_T_I32, lin, sr[0]);
	unsigned shift = 0;
	while ((1u << shift) < b->fn->warp_size)
		shift++;
	return op2(b, IR_SHR_U, IR_T_I32, lin, konst(b, IR_T_I32, shift));
}

static ir_ref laneid(struct irb *b)
{
	return irb_laneid(b);
}

/* The first wave lane of the executing lane's warp (0 unless in halves). */
static ir_ref warp_base(struct irb *b)
{
	return op2(b, IR_AND, IR_T_I32, wave_lane(b), konst(b, IR_T_I32, b->fn->warp_size));
}

/* A wave lane mask as the executing lane's warp sees it. */
static ir_ref to_warp(struct irb *b, ir_ref wave_mask)
{
	if (!in_halves(b))
		return wave_mask;
	ir_ref shifted = op2(b, IR_SHR_U, IR_T_I64, wave_mask, warp_base(b));
	return op1(b, IR_TRUNC, IR_T_I32, shifted);
}

static ir_ref ballot(struct irb *b, ir_ref p)
{
	return to_warp(b, op1(b, IR_BALLOT, wave_mask_type(b), p));
}

static ir_ref activemask(struct irb *b)
{
	return to_warp(b, irb_emit(b, IR_ACTIVEMASK, wave_mask_type(b), NULL, 0, 0, 0));
}

/* A register operand's name as written ("%r5" for element 5 of a range). */
static const char *reg_name(struct irb *b, const struct ptx_operand *o)
{
	char *s = PA_NEW_ARRAY(b->arena, char, strlen(o->sym->name) + 12);
	strcpy(s, o->sym->name);
	if (o->sym->range)
		sprintf(s + strlen(s), "%u", o->index);
	return s;
}

struct irb_mask_check { /* a narrow membermask register whose phis were not complete */
	ir_ref v;
	uint32_t line, col;
	const char *reg;
	unsigned bits;
	struct irb_mask_check *next;
};

static struct irb_phi *phi_of(const struct irb *b, ir_ref v)
{
	if (v >= b->fn->nvals || b->fn->vals[v].kind != IR_VAL_INSN)
		return NULL;
	for (struct irb_phi *p = b->bstate[b->fn->vals[v].block].phis; p; p = p->next)
		if (p->res == v)
			return p;
	return NULL;
}

enum { CONST_PATH = 32 };

/* Whether v is the constant *val (set by the first constant found, *have): a constant, or
 * SSA construction's phis (ir_optimize removes them later) whose operands are that
 * constant, undefined, or phis already on the path (a loop's back edge).  A phi of a block
 * not sealed yet counts the predecessors known so far and sets *partial. */
static bool known_const(struct irb *b, ir_ref v, uint64_t *val, bool *have, bool *partial,
                        ir_ref *path, unsigned depth)
{
	const struct ir_value *x = &b->fn->vals[v];
	if (x->kind == IR_VAL_CONST) {
		if (*have && x->bits != *val)
			return false;
		*val = x->bits;
		*have = true;
		return true;
	}
	if (x->kind == IR_VAL_UNDEF)
		return true;
	for (unsigned k = 0; k < depth; k++)
		if (path[k] == v)
			return true;
	struct irb_phi *p = phi_of(b, v);
	if (!p || depth == CONST_PATH)
		return false;
	path[depth] = v;
	uint32_t bl = x->block;
	*partial |= p->incomplete;
	for (uint32_t k = 0; k < b->fn->blocks[bl].npreds; k++) {
		ir_ref arg = p->incomplete ? irb_read_var(b, p->var, b->fn->blocks[bl].preds[k])
		                           : p->args[k];
		if (!known_const(b, arg, val, have, partial, path, depth + 1))
			return false;
	}
	return true;
}

static void narrow_mask_error(struct irb *b, const char *reg, unsigned bits)
{
	unsigned wave = b->fn->warp_size;
	irb_error(b,
	          "membermask '%s' is a %u-bit register, but lane masks are %u bits wide on "
	          "this target (wave%u): use a .b%u register",
	          reg, bits, wave, wave, wave);
}

static void const_mask_warning(struct irb *b, uint64_t value)
{
	if (b->fn->warp_size == 64 && !(value >> 32) && !b->fn->no_lanemask_warning)
		pa_diag_report(b->d, PA_DIAG_WARNING, b->file, b->line, b->col, NULL, 0,
		               "constant membermask 0x%llx leaves lanes 32-63 out on this wave64 "
		               "target; write -1 for all lanes (-Wno-lanemask turns this off)",
		               (unsigned long long)value);
}

/* A membermask operand: W bits wide (see the header comment for the rules).  A register
 * whose value is a known constant (nvcc writes `mov.u32 %r1, -1` and passes %r1, often
 * in the entry block, the use behind a branch or in a loop) counts as that constant, at
 * the register's width.  When a phi on the way is not complete yet, the constant found so
 * far is used and irb_warp_finish checks the rest (an error if it is not that constant). */
static ir_ref read_member_mask(struct irb *b, const struct ptx_insn *in, unsigned i)
{
	if (i >= in->nopnds) /* shfl and vote without .sync (before sm_70): the whole warp */
		return konst(b, mask_type(b), type_mask(mask_type(b)));
	const struct ptx_operand *o = &in->opnds[i];
	unsigned wave = b->fn->warp_size;
	ir_ref v = irb_read_opnd(b, o, mask_type(b), false);
	uint64_t value = o->value;
	if (o->kind == PTX_OPND_REG && o->bits < wave) {
		ir_ref narrow = irb_read_opnd(b, o, o->bits > 32 ? IR_T_I64 : IR_T_I32, false);
		ir_ref path[CONST_PATH];
		bool have = false, partial = false;
		if (!known_const(b, narrow, &value, &have, &partial, path, 0) || !have) {
			narrow_mask_error(b, reg_name(b, o), o->bits);
			return v;
		}
		v = konst(b, mask_type(b), value);
		if (partial) { /* irb_warp_finish warns, or fails the function if not constant */
			struct irb_mask_check *ck = PA_NEW(b->arena, struct irb_mask_check), **at;
			*ck = (struct irb_mask_check){narrow,         b->line, b->col,
			                              reg_name(b, o), o->bits, NULL};
			for (at = &b->mask_checks; *at; at = &(*at)->next)
				;
			*at = ck;
			return v;
		}
	} else if (o->kind != PTX_OPND_INT) {
		return v;
	}
	const_mask_warning(b, value);
	return v;
}

static void finish_shfl_checks(struct irb *b);

void irb_warp_finish(struct irb *b)
{
	finish_shfl_checks(b);
	for (const struct irb_mask_check *ck = b->mask_checks; ck; ck = ck->next) {
		ir_ref path[CONST_PATH];
		uint64_t value = 0;
		bool have = false, partial = false;
		b->line = ck->line;
		b->col = ck->col;
		if (known_const(b, ck->v, &value, &have, &partial, path, 0) && have)
			const_mask_warning(b, value);
		else
			narrow_mask_error(b, ck->reg, ck->bits);
	}
}

/* Writes a lane-mask result (W bits) to destination operand i. */
static void write_mask(struct irb *b, const struct ptx_insn *in, unsigned i, ir_ref v)
{
	const struct ptx_operand *o = &in->opnds[i];
	unsigned wave = b->fn->warp_size;
	if (o->kind == PTX_OPND_REG && o->bits < wave) {
		irb_error(b,
		          "'%s' is a %u-bit register, but this lane mask is %u bits wide on this "
		          "target (wave%u): use a .b%u register",
		          reg_name(b, o), o->bits, wave, wave, wave);
		return;
	}
	irb_write_dest(b, o, v, false, IR_NO_REF);
}

/* %lanemask_eq/lt/le/gt/ge of the executing lane, a W-bit mask. */
ir_ref irb_lanemask(struct irb *b, const char *name)
{
	enum ir_type t = mask_type(b);
	ir_ref lane = laneid(b);
	ir_ref eq = op2(b, IR_SHL, t, konst(b, t, 1), lane);
	ir_ref lt = op2(b, IR_SUB, t, eq, konst(b, t, 1));
	if (!strcmp(name, "%lanemask_eq"))
		return eq;
	if (!strcmp(name, "%lanemask_lt"))
		return lt;
	ir_ref le = op2(b, IR_OR, t, lt, eq);
	if (!strcmp(name, "%lanemask_le"))
		return le;
	if (!strcmp(name, "%lanemask_gt"))
		return op1(b, IR_NOT, t, le);
	return op1(b, IR_NOT, t, lt); /* %lanemask_ge */
}

/* Whether a special register is a lane mask, checked against the width it is read as. */
bool irb_is_lanemask_sreg(struct irb *b, const char *name, enum ir_type want)
{
	if (strncmp(name, "%lanemask_", 10))
		return false;
	unsigned wave = b->fn->warp_size;
	if (want != IR_T_NONE && ir_type_bits(want) < wave)
		irb_error(b,
		          "'%s' is %u bits wide on this target (wave%u), but is read as a %u-bit "
		          "value: use a .b%u register",
		          name, wave, wave, ir_type_bits(want), wave);
	return true;
}

/* The lane pattern of a shfl with constant b and c that selection does with DPP,
 * ds_swizzle or v_permlane* (IR_LANE_AUX, 0 if none): c must name segments of 2^k lanes (its
 * segment mask the high bits, its clamp the segment's end, or 0 for .up); .bfly n >= 32 on
 * whole wave64 warps is selection's too (v_permlane64 on gfx11+, else ds_bpermute). */
static uint32_t const_pattern(struct irb *b, const struct ptx_insn *in, uint64_t bits,
                              uint64_t cbits)
{
	unsigned wave = b->fn->warp_size;
	unsigned n = (unsigned)bits & (wave - 1), seg = (unsigned)(cbits >> 8) & (wave - 1);
	unsigned p = wave - seg, k = 0, clamp = (unsigned)cbits & (wave - 1) & ~seg;
	if (p & (p - 1))
		return 0;
	while ((1u << k) < p)
		k++;
	bool up = ptx_insn_has_mod(in, PTX_DW_UP);
	if (clamp != (up ? 0 : p - 1) || (n == 0 && !ptx_insn_has_mod(in, PTX_DW_IDX)))
		return 0;
	if (ptx_insn_has_mod(in, PTX_DW_BFLY))
		return n < p ? IR_LANE_AUX(IR_LANE_XOR, n, k) : 0;
	/* .up/.down by any n < p: selection picks DPP, v_permlane16/x16, ds_swizzle or a
	 * ds_bpermute whose address needs no compare (the lanes in range are a constant mask) */
	if (ptx_insn_has_mod(in, PTX_DW_DOWN) || up)
		return n < p ? IR_LANE_AUX(up ? IR_LANE_UP : IR_LANE_DOWN, n, k) : 0;
	return p <= 32 ? IR_LANE_AUX(IR_LANE_IDX, n & (p - 1), k) : 0;
}

/* A shuffle built with a computed source lane although its b and c look constant: known_const
 * saw phis of blocks not sealed yet, whose later predecessors may bring other values.  Once
 * every block is sealed, irb_warp_finish makes it the pattern if they are still the same. */
struct irb_shfl_check {
	ir_ref read, lane4;   /* the lane.read; the wave lane * 4 */
	ir_ref bv, c;         /* the operands */
	uint64_t bits, cbits; /* their values when built */
	uint32_t pattern;
	struct irb_shfl_check *next;
};

static void add_shfl_check(struct irb *b, struct irb_shfl_check ck)
{
	struct irb_shfl_check *n = PA_NEW(b->arena, struct irb_shfl_check);
	*n = ck;
	n->next = b->shfl_checks;
	b->shfl_checks = n;
}

/* Whether shfl's b and c are known constants (*late: through phis not complete yet). */
static bool shfl_consts(struct irb *b, ir_ref bv, ir_ref c, uint64_t *bits, uint64_t *cbits,
                        bool *late)
{
	ir_ref path[CONST_PATH];
	bool have_b = false, have_c = false, partial = false;
	if (!known_const(b, bv, bits, &have_b, &partial, path, 0) || !have_b ||
	    !known_const(b, c, cbits, &have_c, &partial, path, 0) || !have_c)
		return false;
	*late = partial;
	return true;
}

/* The instruction defining r, for rewriting (r an instruction's result). */
static struct ir_insn *insn_of(struct irb *b, ir_ref r)
{
	struct ir_block *bl = &b->fn->blocks[b->fn->vals[r].block];
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].res == r)
			return &bl->insns[i];
	return NULL;
}

/* The shuffles of add_shfl_check whose b and c are still those constants take the pattern
 * (the computed source lane is left to dead-code elimination). */
static void finish_shfl_checks(struct irb *b)
{
	for (const struct irb_shfl_check *ck = b->shfl_checks; ck; ck = ck->next) {
		uint64_t bits, cbits;
		bool late = false;
		struct ir_insn *rd = insn_of(b, ck->read);
		if (!rd || !shfl_consts(b, ck->bv, ck->c, &bits, &cbits, &late) || late ||
		    bits != ck->bits || cbits != ck->cbits)
			continue;
		rd->aux = ck->pattern;
		rd->args[1] = ck->lane4;
	}
}

/* shfl.sync.MODE.b32 d[|p], a, b, c, membermask */
static void tr_shfl(struct irb *b, const struct ptx_insn *in)
{
	unsigned warp = b->fn->warp_size;
	ir_ref a = irb_read_opnd(b, &in->opnds[1], IR_T_I32, false);
	ir_ref bv = irb_read_opnd(b, &in->opnds[2], IR_T_I32, false);
	ir_ref c = irb_read_opnd(b, &in->opnds[3], IR_T_I32, false);
	read_member_mask(b, in, 4);
	ir_ref field = konst(b, IR_T_I32, warp - 1);
	ir_ref bval = op2(b, IR_AND, IR_T_I32, bv, field);
	ir_ref cval = op2(b, IR_AND, IR_T_I32, c, field);
	ir_ref seg = op2(b, IR_AND, IR_T_I32, op2(b, IR_SHR_U, IR_T_I32, c, konst(b, IR_T_I32, 8)),
	                 field);
	ir_ref notseg = op1(b, IR_NOT, IR_T_I32, seg);
	/* The PTX formulas on wave lanes: in halves the lane's warp_base (lane & 32) joins the
	 * segment bits, so minLane, maxLane and j are the warp's lanes plus warp_base (j stays
	 * in the warp wherever it is in range), and the source lane needs no OR afterwards. */
	ir_ref lane = wave_lane(b);
	ir_ref high = konst(b, IR_T_I32, b->fn->wave_size - warp); /* 32 in halves, else 0 */
	ir_ref min_lane = op2(b, IR_AND, IR_T_I32, lane, op2(b, IR_OR, IR_T_I32, seg, high));
	ir_ref max_lane = op2(b, IR_OR, IR_T_I32, min_lane, op2(b, IR_AND, IR_T_I32, cval, notseg));
	ir_ref j, in_range;
	if (ptx_insn_has_mod(in, PTX_DW_UP)) {
		j = op2(b, IR_SUB, IR_T_I32, lane, bval);
		in_range = cmp(b, IR_CMP_GE, j, max_lane);
	} else {
		if (ptx_insn_has_mod(in, PTX_DW_DOWN))
			j = op2(b, IR_ADD, IR_T_I32, lane, bval);
		else if (ptx_insn_has_mod(in, PTX_DW_BFLY))
			j = op2(b, IR_XOR, IR_T_I32, lane, bval);
		else /* .idx */
			j = op2(b, IR_OR, IR_T_I32, min_lane,
			        op2(b, IR_AND, IR_T_I32, bval, notseg));
		uint64_t sv, cv;
		bool whole = const_bits(b, seg, &sv) && sv == 0 && const_bits(b, cval, &cv) &&
		             cv == warp - 1;
		/* .bfly and .idx never leave the warp: no clamp at its last lane is no clamp */
		in_range = whole && !ptx_insn_has_mod(in, PTX_DW_DOWN)
		                   ? konst(b, IR_T_PRED, 1)
		                   : cmp(b, IR_CMP_LE, j, max_lane);
	}
	uint64_t bits, cbits;
	bool late = false;
	uint32_t pattern =
	        shfl_consts(b, bv, c, &bits, &cbits, &late) ? const_pattern(b, in, bits, cbits) : 0;
	ir_ref args[3] = {in_range, j, lane};
	uint64_t always;
	ir_ref lane4 = pattern ? lane_address(b) : IR_NO_REF;
	if (pattern && !late) { /* DPP/ds_swizzle/...: no source lane to compute */
		ir_ref ab[2] = {a, lane4};
		ir_ref d = irb_emit(b, IR_LANE_READ, IR_T_I32, ab, 2, pattern, 0);
		irb_write_dest(b, &in->opnds[0], d, false, IR_NO_REF);
		if (in->opnds[0].pair)
			irb_write_dest(b, in->opnds[0].pair, in_range, false, IR_NO_REF);
		return;
	}
	ir_ref from = const_bits(b, in_range, &always)
	                      ? (always ? j : lane)
	                      : irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
	ir_ref d = op2(b, IR_LANE_READ, IR_T_I32, a, from);
	if (pattern) {
		struct irb_shfl_check ck = {d, lane4, bv, c, bits, cbits, pattern, NULL};
		add_shfl_check(b, ck);
	}
	irb_write_dest(b, &in->opnds[0], d, false, IR_NO_REF);
	if (in->opnds[0].pair)
		irb_write_dest(b, in->opnds[0].pair, in_range, false, IR_NO_REF);
}

/* vote.sync.{all,any,uni}.pred d, {!}p, membermask; vote.sync.ballot.b32 d, {!}p, m */
static void tr_vote(struct irb *b, const struct ptx_insn *in)
{
	enum ir_type t = mask_type(b);
	ir_ref p = irb_read_opnd(b, &in->opnds[1], IR_T_PRED, false);
	ir_ref m = read_member_mask(b, in, 2);
	ir_ref yes = op2(b, IR_AND, t, ballot(b, p), m);
	if (ptx_insn_has_mod(in, PTX_DW_BALLOT)) {
		write_mask(b, in, 0, yes);
		return;
	}
	ir_ref active = op2(b, IR_AND, t, activemask(b), m);
	ir_ref r;
	if (ptx_insn_has_mod(in, PTX_DW_ALL))
		r = cmp(b, IR_CMP_EQ, yes, active);
	else if (ptx_insn_has_mod(in, PTX_DW_ANY))
		r = cmp(b, IR_CMP_NE, yes, konst(b, t, 0));
	else /* .uni */
		r = op2(b, IR_OR, IR_T_PRED, cmp(b, IR_CMP_EQ, yes, konst(b, t, 0)),
		        cmp(b, IR_CMP_EQ, yes, active));
	irb_write_dest(b, &in->opnds[0], r, false, IR_NO_REF);
}

/* match.any.sync.bN d, a, m;  match.all.sync.bN d[|p], a, m */
static void tr_match(struct irb *b, const struct ptx_insn *in)
{
	enum ir_type t = mask_type(b);
	enum ptx_type ty = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_B32;
	enum ir_type vt = ptx_types[ty].bits == 64 ? IR_T_I64 : IR_T_I32;
	ir_ref a = irb_read_opnd(b, &in->opnds[1], vt, false);
	ir_ref m = read_member_mask(b, in, 2);
	ir_ref active = op2(b, IR_AND, t, activemask(b), m);
	ir_ref same;
	uint64_t mv;
	if (ptx_insn_has_mod(in, PTX_DW_ANY) || in_halves(b) || !const_bits(b, m, &mv)) {
		same = op2(b, IR_AND, t, to_warp(b, op1(b, IR_MATCH_ANY, wave_mask_type(b), a)), m);
		if (ptx_insn_has_mod(in, PTX_DW_ANY)) {
			write_mask(b, in, 0, same);
			return;
		}
	} else {
		ir_ref eq = cmp(b, IR_CMP_EQ, a, op1(b, IR_READFIRST, vt, a));
		same = op2(b, IR_AND, t, ballot(b, eq), m);
	}
	ir_ref all = cmp(b, IR_CMP_EQ, same, active);
	ir_ref args[3] = {all, active, konst(b, t, 0)};
	write_mask(b, in, 0, irb_emit(b, IR_SELECT, t, args, 3, 0, 0));
	if (in->opnds[0].pair)
		irb_write_dest(b, in->opnds[0].pair, all, false, IR_NO_REF);
}

/* The instruction defining value r in the block being built, or NULL. */
static const struct ir_insn *def_of(struct irb *b, ir_ref r)
{
	if (r >= b->fn->nvals || b->fn->vals[r].kind != IR_VAL_INSN)
		return NULL;
	const struct ir_block *bl = &b->fn->blocks[b->fn->vals[r].block];
	for (uint32_t i = bl->ninsns; i-- > 0;)
		if (bl->insns[i].res == r)
			return bl->insns[i].op == IR_COPY ? def_of(b, bl->insns[i].args[0])
			                                  : &bl->insns[i];
	return NULL;
}

static bool is_laneid(struct irb *b, ir_ref r)
{
	const struct ir_insn *d = def_of(b, r);
	uint64_t k;
	if (d && d->op == IR_AND && const_bits(b, d->args[1], &k) && k == b->fn->warp_size - 1)
		d = def_of(b, d->args[0]); /* %laneid in halves */
	return d && d->op == IR_SREG && d->aux == IR_SREG_LANEID;
}

/* log2 of T if membermask m is the tile mask of aligned segments of T lanes, as cooperative
 * groups compute it: ((1 << T) - 1) << (%laneid & -T); else -1. */
static int segment_mask_log2(struct irb *b, ir_ref m)
{
	const struct ir_insn *d = def_of(b, m), *sh;
	uint64_t ones, lanes;
	if (!d || d->op != IR_SHL || !const_bits(b, d->args[0], &ones) || !ones ||
	    (ones & (ones + 1)) || !(sh = def_of(b, d->args[1])) || sh->op != IR_AND ||
	    !const_bits(b, sh->args[1], &lanes) || !is_laneid(b, sh->args[0]))
		return -1;
	unsigned size = 0; /* T: ones = 2^T - 1 */
	int p = 0;
	while (ones >> size)
		size++;
	while ((1u << p) < size)
		p++;
	uint64_t field = b->fn->warp_size - 1;
	return (1u << p) == size && size <= 32 && (lanes & field) == (~(uint64_t)(size - 1) & field)
	               ? p
	               : -1;
}

static const struct {
	enum ptx_dotword w;
	enum ir_redux u, s; /* unsigned/bit, signed */
} redux_ops[] = {
        {PTX_DW_ADD, IR_REDUX_ADD, IR_REDUX_ADD},     {PTX_DW_MIN, IR_REDUX_MIN_U, IR_REDUX_MIN_S},
        {PTX_DW_MAX, IR_REDUX_MAX_U, IR_REDUX_MAX_S}, {PTX_DW_AND, IR_REDUX_AND, IR_REDUX_AND},
        {PTX_DW_OR, IR_REDUX_OR, IR_REDUX_OR},        {PTX_DW_XOR, IR_REDUX_XOR, IR_REDUX_XOR},
};

/* The IR operation of a redux kind (enum ir_redux order) and its identity. */
static const enum ir_op redux_alu[] = {IR_ADD,   IR_MIN_U, IR_MIN_S, IR_MAX_U,
                                       IR_MAX_S, IR_AND,   IR_OR,    IR_XOR};
static const uint32_t redux_identity[] = {0,           0xffffffffu, 0x7fffffffu, 0,
                                          0x80000000u, 0xffffffffu, 0,           0};

/* Whether bit `lane` of mask m is set, m of type t. */
static ir_ref mask_has(struct irb *b, enum ir_type t, ir_ref m, ir_ref lane)
{
	ir_ref bit = op2(b, IR_AND, t, op2(b, IR_SHR_U, t, m, lane), konst(b, t, 1));
	return cmp(b, IR_CMP_NE, bit, konst(b, t, 0));
}

/* redux over the lanes of a membermask that differs between lanes: per lane, the lanes of
 * its own mask.  Tile masks of 2^p aligned lanes: a butterfly of p lane.read XOR steps
 * (DPP/ds_swizzle); any other mask: every wave lane k read once (v_readlane) and combined
 * where bit k of the lane's mask (moved to wave lanes) is set. */
static ir_ref redux_varying(struct irb *b, unsigned kind, ir_ref a, ir_ref m)
{
	int p = segment_mask_log2(b, m);
	enum ir_op alu = redux_alu[kind];
	if (p >= 0) {
		for (unsigned n = 1; n < (1u << p); n <<= 1) {
			ir_ref ab[2] = {a, lane_address(b)};
			ir_ref y = irb_emit(b, IR_LANE_READ, IR_T_I32, ab, 2,
			                    IR_LANE_AUX(IR_LANE_XOR, n, (unsigned)p), 0);
			a = op2(b, alu, IR_T_I32, a, y);
		}
		return a;
	}
	enum ir_type t = wave_mask_type(b);
	ir_ref mw = m;
	if (in_halves(b))
		mw = op2(b, IR_SHL, t, op1(b, IR_ZEXT, t, m), warp_base(b));
	ir_ref acc = konst(b, IR_T_I32, redux_identity[kind]);
	for (unsigned k = 0; k < b->fn->wave_size; k++) {
		ir_ref xk = op2(b, IR_LANE_READ, IR_T_I32, a, konst(b, IR_T_I32, k));
		ir_ref args[3] = {mask_has(b, t, mw, konst(b, IR_T_I32, k)),
		                  op2(b, alu, IR_T_I32, acc, xk), acc};
		acc = irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
	}
	return acc;
}

/* redux.sync.OP.TYPE d, a, membermask (integer forms): the reduction over the lanes of
 * membermask.  All lanes (the usual constant): one IR_REDUX; another constant: lanes
 * outside it give the identity; a mask that differs between lanes: redux_varying. */
static void tr_redux(struct irb *b, const struct ptx_insn *in)
{
	enum ptx_type ty = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	if (ptx_types[ty].cls == PTX_TC_FLOAT || ptx_types[ty].bits != 32 ||
	    ptx_insn_has_mod(in, PTX_DW_ABS) || ptx_insn_has_mod(in, PTX_DW_NAN_MOD)) {
		irb_error(b, "only the 32-bit integer forms of 'redux.sync' are supported by the "
		             "code generator yet");
		return;
	}
	bool sign = ptx_types[ty].cls == PTX_TC_SINT;
	for (unsigned k = 0; k < sizeof redux_ops / sizeof redux_ops[0]; k++) {
		if (!ptx_insn_has_mod(in, redux_ops[k].w))
			continue;
		enum ir_type t = mask_type(b);
		unsigned kind = sign ? redux_ops[k].s : redux_ops[k].u;
		ir_ref a = irb_read_opnd(b, &in->opnds[1], IR_T_I32, sign);
		ir_ref m = read_member_mask(b, in, 2), r;
		uint64_t mv;
		if (!const_bits(b, m, &mv)) {
			r = redux_varying(b, kind, a, m);
		} else {
			if ((mv & type_mask(t)) != type_mask(t)) {
				ir_ref args[3] = {mask_has(b, t, m, laneid(b)), a,
				                  konst(b, IR_T_I32, redux_identity[kind])};
				a = irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
			}
			uint32_t aux = kind | (in_halves(b) ? IR_REDUX_HALVES : 0);
			r = irb_emit(b, IR_REDUX, IR_T_I32, &a, 1, aux, 0);
		}
		irb_write_dest(b, &in->opnds[0], r, sign, IR_NO_REF);
		return;
	}
	irb_error(b, "unknown 'redux.sync' operation");
}

/* elect.sync d|p, membermask: the lowest active lane of membermask is the leader. */
static void tr_elect(struct irb *b, const struct ptx_insn *in)
{
	enum ir_type t = mask_type(b);
	ir_ref m = read_member_mask(b, in, 1);
	ir_ref act = op2(b, IR_AND, t, activemask(b), m);
	ir_ref lowest = op2(b, IR_AND, t, act, op1(b, IR_NEG, t, act));
	ir_ref leader = op1(b, IR_POPC, IR_T_I32, op2(b, IR_SUB, t, lowest, konst(b, t, 1)));
	irb_write_dest(b, &in->opnds[0], leader, false, IR_NO_REF);
	if (in->opnds[0].pair)
		irb_write_dest(b, in->opnds[0].pair, cmp(b, IR_CMP_EQ, leader, laneid(b)), false,
		               IR_NO_REF);
}

/* bar.warp.sync membermask: the warp's lanes run together in the wave; what is left is the
 * ordering of their memory accesses, a CTA-scope acq_rel fence (build_bar.c). */
void irb_warp_sync(struct irb *b, const struct ptx_insn *in)
{
	read_member_mask(b, in, 0);
	uint32_t bits = (uint32_t)IR_ORD_ACQ_REL << IR_ORD_SHIFT;
	bits |= (uint32_t)IR_SCOPE_CTA << IR_SCOPE_SHIFT;
	irb_emit(b, IR_FENCE, IR_T_NONE, NULL, 0, bits, 0);
}

bool irb_warp(struct irb *b, const struct ptx_insn *in)
{
	switch (in->op) {
	case PTX_OP_SHFL:
		tr_shfl(b, in);
		return true;
	case PTX_OP_VOTE:
		tr_vote(b, in);
		return true;
	case PTX_OP_ACTIVEMASK:
		write_mask(b, in, 0, activemask(b));
		return true;
	case PTX_OP_MATCH:
		tr_match(b, in);
		return true;
	case PTX_OP_REDUX:
		tr_redux(b, in);
		return true;
	case PTX_OP_ELECT:
		tr_elect(b, in);
		return true;
	default:
		return false;
	}
}
