/* sched_vopd: RDNA dual issue.  After allocation and the list scheduling on physical
 * registers, before the waits and hazards, two independent VOP1/VOP2 instructions of a
 * wave32 block on gfx11/gfx12 become one VOPD (v_dual_X :: v_dual_Y), which the SIMD issues
 * in one cycle.  The rules are the RDNA3 ISA manual's (section "VOPD"): X takes opcodes
 * 0-15 and Y also 16-18 (add_nc_u32, lshlrev_b32, and_b32); src0 of each half may be a
 * VGPR, SGPR or constant (one literal shared by both), vsrc1 a VGPR; the two src0 VGPRs
 * and the two vsrc1 VGPRs lie in different banks (register mod 4; gfx12 lets two moves
 * share one), the destinations are one even and one odd VGPR; both halves read their
 * sources before either writes, so the later one must not read what the earlier writes.
 * The candidate is built and handed to the encoder (amd_encode), whose VOPD checks are
 * llvm-mc-19's; a pair it refuses stays apart.  A later instruction moves up to the
 * earlier one over at most VOPD_WINDOW instructions, none of which it depends on or that
 * writes EXEC or MODE.  Modifiers (neg/abs/clamp/omod/DPP, the e64 encoding) keep an
 * instruction single; float operations are not commuted (NaN payloads follow operand
 * order), integer add and and are. */
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

enum { VOPD_WINDOW = 12, VOPD_LOOKBACK = 64 };

/* A VOP1/VOP2 row and the v_dual_ row doing the same. */
struct vopd_form {
	uint16_t op, dual;
	bool commutes; /* src0 and vsrc1 may swap (bit-exact) */
};

static const struct vopd_form vopd_forms[] = {
        {AMD_OP_V_FMAC_F32, AMD_OP_V_DUAL_FMAC_F32, false},
        {AMD_OP_V_FMA_F32, AMD_OP_V_DUAL_FMAC_F32, false}, /* d = a * b + d only */
        {AMD_OP_V_MUL_F32, AMD_OP_V_DUAL_MUL_F32, false},
        {AMD_OP_V_ADD_F32, AMD_OP_V_DUAL_ADD_F32, false},
        {AMD_OP_V_SUB_F32, AMD_OP_V_DUAL_SUB_F32, false},
        {AMD_OP_V_SUBREV_F32, AMD_OP_V_DUAL_SUBREV_F32, false},
        {AMD_OP_V_MOV_B32, AMD_OP_V_DUAL_MOV_B32, false},
        {AMD_OP_V_MAX_F32, AMD_OP_V_DUAL_MAX_F32, false},
        {AMD_OP_V_MIN_F32, AMD_OP_V_DUAL_MIN_F32, false},
        {AMD_OP_V_ADD_U32, AMD_OP_V_DUAL_ADD_NC_U32, true},
        {AMD_OP_V_LSHLREV_B32, AMD_OP_V_DUAL_LSHLREV_B32, false},
        {AMD_OP_V_AND_B32, AMD_OP_V_DUAL_AND_B32, true},
};

static bool is_vgpr1(const struct mir_opnd *o)
{
	return o->kind == MIR_VGPR && o->width <= 1;
}

static bool is_src0(const struct mir_opnd *o)
{
	return is_vgpr1(o) || (o->kind == MIR_SGPR && o->width <= 1) || o->kind == MIR_IMM;
}

/* The form of an instruction that may become a VOPD half on this target, or NULL. */
static const struct vopd_form *form_of(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->flags || in->enc == AMD_ENC_E64 || in->neg || in->abs || in->omod || in->clamp ||
	    in->dpp)
		return NULL;
	const struct vopd_form *f = NULL;
	for (size_t k = 0; k < sizeof vopd_forms / sizeof vopd_forms[0]; k++)
		if (vopd_forms[k].op == in->op)
			f = &vopd_forms[k];
	/* v_fma_f32 whose addend is its destination is v_fmac_f32 */
	bool fma_as_fmac = in->op == AMD_OP_V_FMA_F32 && in->nopnds == 4 &&
	                   !memcmp(&in->opnds[3], &in->opnds[0], sizeof in->opnds[0]);
	if (!f || amd_isa_rows[f->dual].opcode[fn->target->info->gen] < 0 ||
	    (in->nopnds != amd_isa_rows[f->dual].nopnds && !fma_as_fmac) ||
	    !is_vgpr1(&in->opnds[0]) || !is_src0(&in->opnds[1]))
		return NULL;
	if (in->nopnds >= 3 && !is_vgpr1(&in->opnds[2]) &&
	    !(f->commutes && is_vgpr1(&in->opnds[1]) && is_src0(&in->opnds[2])))
		return NULL;
	return f;
}

/* The registers of the instructions a fuse_at looks at (its window), by block position:
 * each one's are made once instead of at every pair of instructions compared.  A slot
 * holds position tag - 1 (0: empty); emptied when the block changes. */
enum { REGS_SLOTS = 16 };
_Static_assert((int)REGS_SLOTS > (int)VOPD_WINDOW, "the window fits in the cache");
struct insn_regs {
	struct sched_range defs[SCHED_MAX_RANGES], uses[SCHED_MAX_RANGES];
	unsigned ndefs, nuses;
};
struct regs_cache {
	uint32_t tag[REGS_SLOTS];
	struct insn_regs regs[REGS_SLOTS];
};

static const struct insn_regs *regs_at(const struct mir_function *fn, const struct mir_block *bb,
                                       struct regs_cache *rc, uint32_t k)
{
	struct insn_regs *r = &rc->regs[k % REGS_SLOTS];
	if (rc->tag[k % REGS_SLOTS] != k + 1) {
		rc->tag[k % REGS_SLOTS] = k + 1;
		r->ndefs = sched_insn_defs(fn, &bb->insns[k], r->defs);
		r->nuses = sched_insn_uses(fn, &bb->insns[k], r->uses);
	}
	return r;
}

/* Whether the two instructions share a register one of them writes. */
static bool depend(const struct insn_regs *p, const struct insn_regs *q)
{
	return sched_ranges_overlap(p->defs, p->ndefs, q->defs, q->ndefs) ||
	       sched_ranges_overlap(p->defs, p->ndefs, q->uses, q->nuses) ||
	       sched_ranges_overlap(p->uses, p->nuses, q->defs, q->ndefs);
}

/* Whether the VALU instruction at block position bi may move up over the one at ci (no
 * register it depends on, same EXEC and MODE). */
static bool may_pass(const struct mir_function *fn, const struct mir_block *bb,
                     struct regs_cache *rc, uint32_t bi, uint32_t ci)
{
	const struct mir_insn *c = &bb->insns[ci];
	const struct amd_isa_op *row = sched_row(c);
	if (!row || mir_is_terminator(c) || (row->implicit_defs & (AMD_IMP_EXEC | AMD_IMP_MODE)) ||
	    (row->flags & (AMD_F_EXEC_DST | AMD_F_WAVE_MASK)))
		return false;
	for (unsigned k = 0; k < c->nopnds && k < AMD_MAX_OPNDS; k++) {
		const struct mir_opnd *o = &c->opnds[k];
		if (o->kind == MIR_SPECIAL && mir_opnd_is_def(c, k) &&
		    (o->v == AMD_SPEC_EXEC || o->v == AMD_SPEC_EXEC_LO || o->v == AMD_SPEC_EXEC_HI))
			return false;
	}
	return !depend(regs_at(fn, bb, rc, bi), regs_at(fn, bb, rc, ci));
}

/* Whether two VGPR sources (when `both` exist) lie in different banks (register mod 4). */
static bool banks_differ(const struct mir_opnd *p, const struct mir_opnd *q, bool both)
{
	return !both || p->kind != MIR_VGPR || q->kind != MIR_VGPR || (p->v & 3) != (q->v & 3);
}

/* One half's operands (those of its v_dual_ row `dual`) into `out` at `at`, src0/vsrc1
 * swapped when `swap`. */
static unsigned put_half(struct mir_opnd *out, unsigned at, const struct mir_insn *in,
                         uint16_t dual, bool swap)
{
	unsigned n = amd_isa_rows[dual].nopnds;
	for (unsigned k = 0; k < n; k++)
		out[at + k] = in->opnds[k];
	if (swap) {
		out[at + 1] = in->opnds[2];
		out[at + 2] = in->opnds[1];
	}
	return at + n;
}

/* The VOPD of x and y (x the X half) with the operand orders `swaps` picks, if the encoder
 * takes it. */
static bool build(const struct mir_function *fn, const struct mir_insn *x,
                  const struct vopd_form *fx, const struct mir_insn *y, const struct vopd_form *fy,
                  unsigned swaps, struct mir_insn *out)
{
	bool swx = swaps & 1, swy = swaps & 2;
	bool vx = x->nopnds >= 3 && is_vgpr1(&x->opnds[2]);
	bool vy = y->nopnds >= 3 && is_vgpr1(&y->opnds[2]);
	if ((swx && !(fx->commutes && is_vgpr1(&x->opnds[1]))) || (!swx && x->nopnds >= 3 && !vx) ||
	    (swy && !(fy->commutes && is_vgpr1(&y->opnds[1]))) || (!swy && y->nopnds >= 3 && !vy))
		return false;
	*out = *x;
	out->op = fx->dual, out->op_y = fy->dual;
	out->flags = MIR_IF_DUAL;
	out->enc = AMD_ENC_AUTO;
	unsigned n = put_half(out->opnds, 0, x, fx->dual, swx);
	out->nopnds = (uint8_t)put_half(out->opnds, n, y, fy->dual, swy);
	if (!banks_differ(&out->opnds[2], &out->opnds[n + 2], n == 3 && out->nopnds == 6) ||
	    (!banks_differ(&out->opnds[1], &out->opnds[n + 1], true) &&
	     !(fx->dual == AMD_OP_V_DUAL_MOV_B32 && fy->dual == AMD_OP_V_DUAL_MOV_B32)))
		return false; /* the encoder would refuse it (a quick look first) */
	struct amd_inst inst;
	sched_to_amd_inst(fn, out, 0, &inst);
	uint32_t words[4];
	char err[160];
	return amd_encode(fn->target, &inst, words, err, sizeof err) != 0;
}

/* The VOPD of the instructions at block positions ai and bi in either half order, or
 * false. */
static bool pair(const struct mir_function *fn, const struct mir_block *bb, struct regs_cache *rc,
                 uint32_t ai, uint32_t bi, struct mir_insn *out)
{
	const struct mir_insn *a = &bb->insns[ai], *b = &bb->insns[bi];
	const struct vopd_form *fa = form_of(fn, a), *fb = form_of(fn, b);
	if (!fa || !fb || (a->opnds[0].v & 1) == (b->opnds[0].v & 1) ||
	    depend(regs_at(fn, bb, rc, ai), regs_at(fn, bb, rc, bi)))
		return false;
	enum amd_gen gen = fn->target->info->gen;
	for (int order = 0; order < 2; order++) {
		const struct mir_insn *x = order ? b : a, *y = order ? a : b;
		const struct vopd_form *fx = order ? fb : fa, *fy = order ? fa : fb;
		if (amd_isa_rows[fx->dual].opcode[gen] >= 16 ||
		    amd_isa_rows[fy->dual].opcode[gen] < 0)
			continue;
		for (unsigned swaps = 0; swaps < 4; swaps++)
			if (build(fn, x, fx, y, fy, swaps, out))
				return true;
	}
	return false;
}

/* The index of the latest instruction before `at` (at most VOPD_LOOKBACK back) that is
 * not SALU/VALU (a load, a transcendental) and writes a register `in` reads; -1 if none.
 * Its result arrives late, so the VOPD goes where the later of the two halves was: moving
 * a reader of a late result up would pull the wait for it up too. */
static long late_input(const struct mir_function *fn, const struct mir_block *bb, uint32_t at,
                       const struct mir_insn *in)
{
	struct sched_range uses[SCHED_MAX_RANGES], defs[SCHED_MAX_RANGES];
	unsigned nu = sched_insn_uses(fn, in, uses);
	for (uint32_t k = at; k-- > 0 && k + VOPD_LOOKBACK >= at;) {
		const struct amd_isa_op *row = sched_row(&bb->insns[k]);
		if (!row || row->unit == AMD_UNIT_SALU || row->unit == AMD_UNIT_VALU)
			continue;
		unsigned nd = sched_insn_defs(fn, &bb->insns[k], defs);
		if (sched_ranges_overlap(uses, nu, defs, nd))
			return (long)k;
	}
	return -1;
}

/* Replaces instruction `at` of the block by `fused` and deletes instruction `gone`. */
static void place(struct mir_block *bb, uint32_t at, uint32_t gone, const struct mir_insn *fused)
{
	bb->insns[at] = *fused;
	memmove(&bb->insns[gone], &bb->insns[gone + 1],
	        (bb->ninsns - gone - 1) * sizeof bb->insns[0]);
	bb->ninsns--;
}

/* Pairs instruction i with a later one of its window; whether it did (the pair is at i). */
static bool fuse_at(const struct mir_function *fn, struct mir_block *bb, struct regs_cache *rc,
                    uint32_t i)
{
	const struct mir_insn *a = &bb->insns[i];
	bool a_down = true; /* a may move down to the candidate */
	for (uint32_t j = i + 1; j < bb->ninsns && j <= i + VOPD_WINDOW && a_down; j++) {
		if (j > i + 1)
			a_down = may_pass(fn, bb, rc, i, j - 1);
		const struct mir_insn *b = &bb->insns[j];
		struct mir_insn fused;
		if (!form_of(fn, b) || !pair(fn, bb, rc, i, j, &fused))
			continue;
		if (late_input(fn, bb, j, b) > late_input(fn, bb, i, a)) {
			if (!a_down)
				continue;
			place(bb, j, i, &fused); /* the pair where b was */
			return true;
		}
		bool b_up = true;
		for (uint32_t k = i + 1; k < j && b_up; k++)
			b_up = may_pass(fn, bb, rc, j, k);
		if (!b_up)
			continue;
		place(bb, i, j, &fused);
		return true;
	}
	return false;
}

/* Fuses in one block; returns the number of pairs. */
static unsigned fuse_block(const struct mir_function *fn, struct mir_block *bb)
{
	unsigned pairs = 0;
	struct regs_cache rc;
	memset(rc.tag, 0, sizeof rc.tag);
	for (uint32_t i = 0; i < bb->ninsns; i++) {
		if (!form_of(fn, &bb->insns[i]) || !fuse_at(fn, bb, &rc, i))
			continue;
		memset(rc.tag, 0, sizeof rc.tag); /* instructions replaced and moved */
		pairs++;
		if (!(bb->insns[i].flags & MIR_IF_DUAL))
			i--; /* the pair moved down: look at what took i's place */
	}
	return pairs;
}

unsigned sched_vopd(struct mir_function *fn)
{
	enum amd_gen gen = fn->target->info->gen;
	if (fn->wave_size != 32 || amd_isa_rows[AMD_OP_V_DUAL_MOV_B32].opcode[gen] < 0)
		return 0;
	unsigned pairs = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		pairs += fuse_block(fn, &fn->blocks[b]);
	return pairs;
}
