/* mir_compare_literals_to_vcc: on gfx9, a VGPR compared with a literal writes VCC through
 * the e32 (VOPC) form instead of a lane mask through the e64 form; a VGPR plus a literal with
 * carry-out (v_add_co_u32, the low half of a 64-bit pointer step) the same way through its
 * e32 (VOP2) form, which writes the carry to VCC for the v_addc_co_u32 of the high half.
 *
 * gfx9's VOP3 takes no literal, so selection puts a compare's non-inline constant in a
 * register first (`v_mov_b32 vT, 0x309` + `v_cmp_eq_i32_e64 s[4:5], v7, vT`, or an s_mov
 * for src0).  The VOPC form takes a literal in src0 on every generation but writes only
 * VCC: `v_cmp_eq_i32_e32 vcc, 0x309, v7` needs no move.  A compare whose constant is the
 * second operand gets the mirrored compare (lt <-> gt, le <-> ge; the unordered float
 * forms nge <-> nle, ngt <-> nlt; eq, ne, lg, nlg, neq, o, u are symmetric), so that the
 * constant is src0 and the VGPR src1.
 *
 * When it is right: the compare's mask is a lane-mask vreg defined once, read only later
 * in the same block, each read as the whole mask; the constant operand is a vreg defined
 * once by a COPY of a literal (so it holds that constant wherever it is read); and the
 * block touches VCC nowhere else (no explicit vcc operand, no implicit VCC write, no
 * pseudo-instruction or branch between the compare and its last read that could clobber
 * it), so VCC holds the mask from the compare to its last read.  The reads then name vcc
 * (a v_cndmask reading vcc gets its e32 form too), the mask vreg disappears and the
 * constant's COPY dies when nothing else reads it (mir_remove_dead_code, run next).
 * gfx10+ needs none of it: their VOP3 takes the literal directly (select.c).
 * requires: MIR on virtual registers (after isel, before allocation), wave64 (VCC pair).
 * Complexity: O(instructions x operands). */
#include "isa/isa.h"
#include "isa/target.h"
#include "mir/mir.h"

/* The same compare with its two sources exchanged, or 0 when `op` is no 32-bit VOPC
 * compare this pass knows. */
static unsigned mirrored(unsigned op)
{
	static const uint16_t pairs[][2] = {
	        {AMD_OP_V_CMP_EQ_I32, AMD_OP_V_CMP_EQ_I32},
	        {AMD_OP_V_CMP_NE_I32, AMD_OP_V_CMP_NE_I32},
	        {AMD_OP_V_CMP_LT_I32, AMD_OP_V_CMP_GT_I32},
	        {AMD_OP_V_CMP_LE_I32, AMD_OP_V_CMP_GE_I32},
	        {AMD_OP_V_CMP_EQ_U32, AMD_OP_V_CMP_EQ_U32},
	        {AMD_OP_V_CMP_NE_U32, AMD_OP_V_CMP_NE_U32},
	        {AMD_OP_V_CMP_LT_U32, AMD_OP_V_CMP_GT_U32},
	        {AMD_OP_V_CMP_LE_U32, AMD_OP_V_CMP_GE_U32},
	        {AMD_OP_V_CMP_EQ_F32, AMD_OP_V_CMP_EQ_F32},
	        {AMD_OP_V_CMP_LG_F32, AMD_OP_V_CMP_LG_F32},
	        {AMD_OP_V_CMP_LT_F32, AMD_OP_V_CMP_GT_F32},
	        {AMD_OP_V_CMP_LE_F32, AMD_OP_V_CMP_GE_F32},
	        {AMD_OP_V_CMP_NGE_F32, AMD_OP_V_CMP_NLE_F32},
	        {AMD_OP_V_CMP_NGT_F32, AMD_OP_V_CMP_NLT_F32},
	        {AMD_OP_V_CMP_NLG_F32, AMD_OP_V_CMP_NLG_F32},
	        {AMD_OP_V_CMP_NEQ_F32, AMD_OP_V_CMP_NEQ_F32},
	        {AMD_OP_V_CMP_O_F32, AMD_OP_V_CMP_O_F32},
	        {AMD_OP_V_CMP_U_F32, AMD_OP_V_CMP_U_F32},
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		if (pairs[i][0] == op)
			return pairs[i][1];
		if (pairs[i][1] == op)
			return pairs[i][0];
	}
	return 0;
}

/* Whether `in` names VCC: an explicit vcc operand, or an implicit read or write of a row
 * without a VCC operand (v_div_fmas, s_cbranch_vccz; a row with one reads or writes VCC
 * only when that operand is vcc). */
static bool names_vcc(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op < AMD_NUM_OPCODES) {
		const struct amd_isa_op *row = &amd_isa_rows[in->op];
		bool operand = false;
		for (int k = 0; k < row->nopnds; k++)
			operand |= row->opnds[k].kind == AMD_OPK_VCC;
		if (!operand &&
		    ((row->flags & AMD_F_READS_VCC) ||
		     ((amd_implicit_defs(fn->target, row) | amd_implicit_uses(fn->target, row)) &
		      AMD_IMP_VCC)))
			return true;
	}
	for (unsigned k = 0; k < in->nopnds; k++) {
		const struct mir_opnd *o = &in->opnds[k];
		if (o->kind == MIR_SPECIAL &&
		    (o->v == AMD_SPEC_VCC || o->v == AMD_SPEC_VCC_LO || o->v == AMD_SPEC_VCC_HI))
			return true;
		if (o->kind == MIR_SGPR && o->v + o->width > 106 && o->v < 108)
			return true;
	}
	return false;
}

/* Whether VCC may not hold across `in`: it names VCC, is a pseudo-instruction (expanded
 * later) or a branch. */
static bool touches_vcc(const struct mir_function *fn, const struct mir_insn *in)
{
	return in->op > MIR_COPY ||
	       (in->op < AMD_NUM_OPCODES && (amd_isa_rows[in->op].flags & AMD_F_BRANCH)) ||
	       names_vcc(fn, in);
}

struct vcc_facts {
	uint8_t *defs;     /* definitions per vreg (mir_count_defs) */
	uint32_t *reads;   /* reads per vreg, function-wide */
	uint32_t *literal; /* the constant of a vreg defined once by a COPY of a literal */
	bool *is_literal;
};

/* Returns how many vregs hold a literal (none: no compare can qualify). */
static uint32_t gather(const struct mir_function *fn, struct vcc_facts *f)
{
	uint32_t nliterals = 0;
	f->defs = mir_count_defs(fn);
	f->reads = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	f->literal = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	f->is_literal = PA_NEW_ARRAY(mir_pass_arena(fn), bool, fn->nvregs + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_VREG && !mir_opnd_is_def(in, k))
					f->reads[in->opnds[k].v]++;
			if (in->op == MIR_COPY && in->opnds[0].kind == MIR_VREG &&
			    in->opnds[0].width == 1 && in->opnds[1].kind == MIR_IMM &&
			    amd_inline_code(AMD_DT_B32, in->opnds[1].v) < 0) {
				f->is_literal[in->opnds[0].v] = true;
				f->literal[in->opnds[0].v] = in->opnds[1].v;
				nliterals++;
			}
		}
	return nliterals;
}

/* The literal operand k of compare `in` holds, if it is one (a once-defined constant vreg). */
static bool literal_source(const struct vcc_facts *f, const struct mir_insn *in, unsigned k,
                           uint32_t *value)
{
	const struct mir_opnd *o = &in->opnds[k];
	if (o->kind != MIR_VREG || o->sub != 0 || o->width != 1 || !f->is_literal[o->v] ||
	    f->defs[o->v] != 1)
		return false;
	*value = f->literal[o->v];
	return true;
}

static bool is_vgpr(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->kind == MIR_VGPR || (o->kind == MIR_VREG && fn->vregs[o->v].file == MIR_VGPR);
}

/* The index of the last read of mask vreg m in block bl after i when every read of m is
 * there, whole, and nothing between touches VCC; else 0. */
static uint32_t last_read(const struct mir_function *fn, const struct vcc_facts *f,
                          const struct mir_block *bl, uint32_t i, uint32_t m)
{
	uint32_t seen = 0, last = 0;
	for (uint32_t j = i + 1; j < bl->ninsns && seen < f->reads[m]; j++) {
		const struct mir_insn *in = &bl->insns[j];
		bool reads = false;
		for (unsigned k = 0; k < in->nopnds; k++) {
			const struct mir_opnd *o = &in->opnds[k];
			if (o->kind != MIR_VREG || o->v != m)
				continue;
			if (mir_opnd_is_def(in, k) || o->sub != 0 || o->width != 2)
				return 0;
			reads = true;
			seen++;
		}
		if (!reads && touches_vcc(fn, in))
			return 0;
		if (reads && (in->op > MIR_COPY || touches_vcc(fn, in)))
			return 0;
		if (reads)
			last = j;
	}
	return seen == f->reads[m] ? last : 0;
}

/* Rewrites compare i of block bl when it qualifies; returns the index after which the
 * block's scan goes on (the compare's last read while VCC holds its mask). */
static uint32_t try_compare(struct mir_function *fn, const struct vcc_facts *f,
                            struct mir_block *bl, uint32_t i)
{
	struct mir_insn *in = &bl->insns[i];
	/* (the operand tests first: they turn away most instructions before mirrored()'s
	 * table scan) */
	if (in->nopnds != 3 || in->opnds[0].kind != MIR_VREG || in->opnds[0].width != 2)
		return i;
	unsigned op = in->op < AMD_NUM_OPCODES ? mirrored(in->op) : 0;
	if (!op || in->neg || in->abs || in->clamp || in->flags || f->defs[in->opnds[0].v] != 1 ||
	    amd_isa_rows[in->op].opcode[fn->target->info->gen] < 0)
		return i;
	uint32_t value;
	unsigned lit, other;
	if (literal_source(f, in, 2, &value) && is_vgpr(fn, &in->opnds[1]))
		lit = 2, other = 1;
	else if (literal_source(f, in, 1, &value) && is_vgpr(fn, &in->opnds[2]))
		lit = 1, other = 2, op = in->op;
	else
		return i;
	uint32_t m = in->opnds[0].v, last = last_read(fn, f, bl, i, m);
	if (!last)
		return i;
	struct mir_opnd vcc = mir_special(AMD_SPEC_VCC, 2), v = in->opnds[other];
	(void)lit;
	in->op = (uint16_t)op;
	in->opnds[0] = vcc;
	in->opnds[1] = mir_imm(value);
	in->opnds[2] = v;
	for (uint32_t j = i + 1; j <= last; j++)
		for (unsigned k = 0; k < bl->insns[j].nopnds; k++)
			if (bl->insns[j].opnds[k].kind == MIR_VREG && bl->insns[j].opnds[k].v == m)
				bl->insns[j].opnds[k] = vcc;
	return last;
}

/* The same for a 32-bit add with carry-out, v_add_co_u32 (the low half of a 64-bit add of
 * a literal: a pointer stepping by 512 bytes): its e32 (VOP2) form takes the literal in src0
 * and writes the carry to VCC, which the v_addc_co_u32 of the high half reads.  Addition
 * commutes, so the literal becomes src0 and the VGPR src1 whichever operand it was. */
static uint32_t try_carry(struct mir_function *fn, const struct vcc_facts *f, struct mir_block *bl,
                          uint32_t i)
{
	struct mir_insn *in = &bl->insns[i];
	if (in->op != AMD_OP_V_ADD_CO_U32 || in->nopnds != 4 || in->neg || in->abs || in->clamp ||
	    in->flags || in->opnds[1].kind != MIR_VREG || in->opnds[1].width != 2 ||
	    f->defs[in->opnds[1].v] != 1)
		return i;
	uint32_t value;
	unsigned other;
	if (literal_source(f, in, 3, &value) && is_vgpr(fn, &in->opnds[2]))
		other = 2;
	else if (literal_source(f, in, 2, &value) && is_vgpr(fn, &in->opnds[3]))
		other = 3;
	else
		return i;
	uint32_t m = in->opnds[1].v, last = last_read(fn, f, bl, i, m);
	if (!last)
		return i;
	struct mir_opnd vcc = mir_special(AMD_SPEC_VCC, 2), v = in->opnds[other];
	in->opnds[1] = vcc;
	in->opnds[2] = mir_imm(value);
	in->opnds[3] = v;
	for (uint32_t j = i + 1; j <= last; j++)
		for (unsigned k = 0; k < bl->insns[j].nopnds; k++)
			if (bl->insns[j].opnds[k].kind == MIR_VREG && bl->insns[j].opnds[k].v == m)
				bl->insns[j].opnds[k] = vcc;
	return last;
}

unsigned mir_compare_literals_to_vcc(struct mir_function *fn)
{
	if (fn->target->info->has_vop3_literal || fn->wave_size != 64)
		return 0;
	struct vcc_facts f;
	if (!gather(fn, &f))
		return 0; /* (the VCC scan of every block, for nothing) */
	unsigned n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		bool foreign = false; /* VCC used by something else in this block */
		for (uint32_t i = 0; i < bl->ninsns && !foreign; i++)
			foreign = names_vcc(fn, &bl->insns[i]);
		if (foreign)
			continue;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			uint32_t next = try_compare(fn, &f, bl, i);
			if (next == i)
				next = try_carry(fn, &f, bl, i);
			n += next != i;
			i = next;
		}
	}
	return n;
}
