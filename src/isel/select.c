/* isel_run: SSA IR -> machine IR for one kernel.
 *
 * Where each value lives follows from the uniformity analysis and its type: uniform
 * integers in SGPRs (scalar unit), divergent values and all floats in VGPRs (the
 * targets' scalar units have no float arithmetic before gfx11.5), uniform predicates as
 * 0/1 in an SGPR, divergent predicates as lane masks.  Blocks are visited in the IR's
 * linear order; each instruction is selected by its family (sel_alu.c, sel_float.c,
 * sel_mem.c) into table rows on virtual registers; control flow, phis and EXEC are
 * handled by cflow.c.  Operand legality that the encoder cannot repair is settled here:
 * VGPR-only slots get VGPRs, the constant bus limit is respected, literals go where the
 * encoding takes them.
 * requires: ir_cfg_compute, ir_uniformity.  Complexity: O(instructions). */
#include <stdarg.h>
#include <string.h>

#include "isel/isel_int.h"

void sel_error(struct isel *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pa_diag_vreport(s->d, PA_DIAG_ERROR, s->ir->file, s->line, s->col ? s->col : 1, NULL, 0,
	                fmt, ap);
	va_end(ap);
	s->failed = true;
}

struct mir_insn *sel_emit(struct isel *s, unsigned op, unsigned n, const struct mir_opnd *ops)
{
	struct mir_insn in = mir_make(op, n, ops);
	in.src_line = s->line;
	return mir_append(s->mf, s->cur, &in);
}

uint32_t sel_new_sgpr(struct isel *s, unsigned size)
{
	return mir_new_vreg(s->mf, MIR_SGPR, size, size >= 2 ? 2 : 1);
}

uint32_t sel_new_vgpr(struct isel *s, unsigned size)
{
	/* gfx90a/gfx942 need even-aligned VGPR tuples for 64-bit operands */
	unsigned align = size >= 2 && s->gen <= AMD_GFX940 && s->t->info->has_agprs ? 2 : 1;
	return mir_new_vreg(s->mf, MIR_VGPR, size, align);
}

struct mir_opnd sel_sub(uint32_t vreg, unsigned sub, unsigned width)
{
	struct mir_opnd o = mir_vreg(vreg, width);
	o.sub = (uint8_t)sub;
	return o;
}

struct mir_opnd sel_exec(struct isel *s)
{
	return mir_special(s->wave == 64 ? AMD_SPEC_EXEC : AMD_SPEC_EXEC_LO, s->mask_dw);
}

unsigned sel_wave_op(struct isel *s, unsigned op32, unsigned op64)
{
	return s->wave == 64 ? op64 : op32;
}

static enum sel_loc loc_of(const struct isel *s, ir_ref r)
{
	const struct ir_value *v = &s->ir->vals[r];
	if (v->kind != IR_VAL_INSN)
		return LOC_CONST;
	if (v->type == IR_T_PRED)
		return v->divergent ? LOC_MASK : LOC_BOOL;
	if (v->divergent)
		return LOC_VGPR;
	/* a uniform float is computed by the vector unit, except a parameter: it stays in the
	 * SGPRs its s_load fills, which VALU instructions read directly (no v_mov, no VGPR) */
	if (ir_type_is_float((enum ir_type)v->type) && !(s->def[r] && s->def[r]->op == IR_PARAM))
		return LOC_VGPR;
	return LOC_SGPR;
}

uint32_t sel_def(struct isel *s, ir_ref r)
{
	struct sel_val *sv = &s->vals[r];
	if (sv->loc != LOC_NONE)
		return sv->vreg;
	const struct ir_value *v = &s->ir->vals[r];
	sv->loc = (uint8_t)loc_of(s, r);
	sv->size = (uint8_t)(ir_type_bits((enum ir_type)v->type) == 64 ? 2 : 1);
	switch (sv->loc) {
	case LOC_SGPR:
	case LOC_BOOL:
		sv->vreg = sel_new_sgpr(s, sv->size);
		break;
	case LOC_MASK:
		sv->size = (uint8_t)s->mask_dw;
		sv->vreg = sel_new_sgpr(s, s->mask_dw);
		break;
	case LOC_VGPR:
		sv->vreg = sel_new_vgpr(s, sv->size);
		break;
	default:
		break;
	}
	return sv->vreg;
}

bool sel_is_const(struct isel *s, ir_ref r, uint64_t *bits)
{
	const struct ir_value *v = &s->ir->vals[r];
	if (v->kind == IR_VAL_INSN)
		return false;
	*bits = v->kind == IR_VAL_CONST ? v->bits : 0;
	return true;
}

void sel_copy(struct isel *s, struct mir_opnd dst, struct mir_opnd src)
{
	struct mir_opnd ops[2] = {dst, src};
	sel_emit(s, MIR_COPY, 2, ops);
}

struct mir_opnd sel_s_imm(struct isel *s, uint32_t bits)
{
	uint32_t v = sel_new_sgpr(s, 1);
	sel_copy(s, mir_vreg(v, 1), mir_imm(bits));
	return mir_vreg(v, 1);
}

struct mir_opnd sel_v_imm(struct isel *s, uint32_t bits)
{
	uint32_t v = sel_new_vgpr(s, 1);
	sel_copy(s, mir_vreg(v, 1), mir_imm(bits));
	return mir_vreg(v, 1);
}

static bool is_vgpr(const struct isel *s, const struct mir_opnd *o)
{
	return o->kind == MIR_VGPR || (o->kind == MIR_VREG && s->mf->vregs[o->v].file == MIR_VGPR);
}

static bool is_sgpr(const struct isel *s, const struct mir_opnd *o)
{
	return o->kind == MIR_SGPR || o->kind == MIR_SPECIAL ||
	       (o->kind == MIR_VREG && s->mf->vregs[o->v].file == MIR_SGPR);
}

struct mir_opnd sel_to_vgpr(struct isel *s, struct mir_opnd o)
{
	if (is_vgpr(s, &o))
		return o;
	unsigned w = o.width ? o.width : 1;
	uint32_t v = sel_new_vgpr(s, w);
	if (o.kind == MIR_IMM) {
		sel_copy(s, mir_vreg(v, 1), o);
		return mir_vreg(v, 1);
	}
	for (unsigned k = 0; k < w; k++) {
		struct mir_opnd part = o;
		part.width = 1;
		if (o.kind == MIR_VREG)
			part.sub = (uint8_t)(o.sub + k);
		else
			part.v = o.v + k;
		sel_copy(s, sel_sub(v, k, 1), part);
	}
	return mir_vreg(v, w);
}

/* The 32-bit part `dword` of a constant, as an operand. */
static struct mir_opnd const_part(uint64_t bits, unsigned dword)
{
	return mir_imm((uint32_t)(bits >> (32 * dword)));
}

/* Materializes a 64-bit constant into an SGPR pair. */
static struct mir_opnd const64_sgpr(struct isel *s, uint64_t bits)
{
	uint32_t v = sel_new_sgpr(s, 2);
	sel_copy(s, sel_sub(v, 0, 1), mir_imm((uint32_t)bits));
	sel_copy(s, sel_sub(v, 1, 1), mir_imm((uint32_t)(bits >> 32)));
	return mir_vreg(v, 2);
}

struct mir_opnd sel_sreg_opnd(struct isel *s, ir_ref r, unsigned dword)
{
	uint64_t bits;
	if (sel_is_const(s, r, &bits)) {
		if (dword == 2) /* whole 64-bit value */
			return const64_sgpr(s, bits);
		return const_part(bits, dword);
	}
	uint32_t v = sel_def(s, r);
	const struct sel_val *sv = &s->vals[r];
	if (sv->loc == LOC_VGPR) { /* a uniform value computed by the vector unit */
		uint32_t sr = sel_new_sgpr(s, sv->size);
		for (unsigned k = 0; k < sv->size; k++) {
			struct mir_opnd ops[2] = {sel_sub(sr, k, 1), sel_sub(v, k, 1)};
			sel_emit(s, AMD_OP_V_READFIRSTLANE_B32, 2, ops);
		}
		v = sr;
	}
	if (dword == 2)
		return mir_vreg(v, sv->size);
	return sel_sub(v, dword, 1);
}

struct mir_opnd sel_vsrc_opnd(struct isel *s, ir_ref r, unsigned dword)
{
	uint64_t bits;
	if (sel_is_const(s, r, &bits))
		return dword == 2 ? const64_sgpr(s, bits) : const_part(bits, dword);
	uint32_t v = sel_def(s, r);
	unsigned size = s->vals[r].size;
	return dword == 2 ? mir_vreg(v, size) : sel_sub(v, dword, 1);
}

struct mir_opnd sel_vgpr_opnd(struct isel *s, ir_ref r, unsigned dword)
{
	return sel_to_vgpr(s, sel_vsrc_opnd(s, r, dword));
}

struct mir_opnd sel_bool_opnd(struct isel *s, ir_ref r)
{
	uint64_t bits;
	if (sel_is_const(s, r, &bits))
		return mir_imm(bits & 1);
	uint32_t v = sel_def(s, r);
	if (s->vals[r].loc == LOC_BOOL)
		return mir_vreg(v, 1);
	/* a lane mask as a bool: any active lane set (used for uniform consumers only) */
	struct mir_opnd m = mir_vreg(v, s->mask_dw);
	uint32_t b = sel_new_sgpr(s, 1);
	struct mir_opnd cmp[2] = {m, mir_imm(0)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_CMP_LG_U32, AMD_OP_S_CMP_LG_U64), 2, cmp);
	struct mir_opnd sel[3] = {mir_vreg(b, 1), mir_imm(1), mir_imm(0)};
	sel_emit(s, AMD_OP_S_CSELECT_B32, 3, sel);
	return mir_vreg(b, 1);
}

struct mir_opnd sel_mask_opnd(struct isel *s, ir_ref r)
{
	uint64_t bits;
	uint32_t m;
	if (sel_is_const(s, r, &bits)) {
		m = sel_new_sgpr(s, s->mask_dw);
		struct mir_opnd ops[2] = {mir_vreg(m, s->mask_dw), mir_imm(bits & 1 ? ~0u : 0)};
		sel_emit(s, sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64), 2, ops);
		return mir_vreg(m, s->mask_dw);
	}
	uint32_t v = sel_def(s, r);
	if (s->vals[r].loc == LOC_MASK)
		return mir_vreg(v, s->mask_dw);
	/* uniform 0/1 -> all lanes or none */
	m = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd cmp[2] = {mir_vreg(v, 1), mir_imm(0)};
	sel_emit(s, AMD_OP_S_CMP_LG_U32, 2, cmp);
	struct mir_opnd sel[3] = {mir_vreg(m, s->mask_dw), mir_imm(~0u), mir_imm(0)};
	sel_emit(s, sel_wave_op(s, AMD_OP_S_CSELECT_B32, AMD_OP_S_CSELECT_B64), 3, sel);
	return mir_vreg(m, s->mask_dw);
}

/* Same scalar register (for the constant bus, which counts distinct SGPRs). */
static bool same_scalar(const struct mir_opnd *a, const struct mir_opnd *b)
{
	return a->kind == b->kind && a->v == b->v && a->sub == b->sub && a->width == b->width;
}

static bool is_literal(const struct amd_opnd_desc *d, const struct mir_opnd *o)
{
	return o->kind == MIR_IMM && amd_inline_code((enum amd_dtype)d->dtype, o->v) < 0;
}

/* Whether a literal in src0 can stay there: an integer VOP1/VOP2 row whose e32 form exists
 * and whose other sources are registers in VGPR-only slots (made VGPRs below; an inline
 * constant there would need e64), so the encoder picks e32, which takes a literal on every
 * generation (gfx9's VOP3 takes none).  A commutative VOP2 with the literal in src1 gets its
 * sources swapped first. */
static bool e32_literal(const struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops)
{
	const struct amd_isa_op *row = &amd_isa_rows[op];
	if ((row->format != AMD_FMT_VOP1 && row->format != AMD_FMT_VOP2) ||
	    row->opcode[s->gen] < 0 || !(row->flags & AMD_F_NO_MODS) ||
	    (row->flags & (AMD_F_LITERAL_K | AMD_F_TIED_DST | AMD_F_CARRY_VCC)) ||
	    n != row->nopnds || n < 2 || row->opnds[0].kind != AMD_OPK_VDST)
		return false;
	bool commutes = op == AMD_OP_V_ADD_U32 || op == AMD_OP_V_AND_B32 || op == AMD_OP_V_OR_B32 ||
	                op == AMD_OP_V_XOR_B32 || op == AMD_OP_V_MAX_I32 ||
	                op == AMD_OP_V_MIN_I32 || op == AMD_OP_V_MAX_U32 ||
	                op == AMD_OP_V_MIN_U32 || op == AMD_OP_V_MUL_U32_U24 ||
	                op == AMD_OP_V_MUL_I32_I24;
	if (n == 3 && commutes && is_literal(&row->opnds[2], &ops[2]) && ops[1].kind != MIR_IMM) {
		struct mir_opnd t = ops[1];
		ops[1] = ops[2];
		ops[2] = t;
	}
	if (row->opnds[1].role != AMD_ROLE_SRC || row->opnds[1].kind != AMD_OPK_VSRC ||
	    !is_literal(&row->opnds[1], &ops[1]))
		return false;
	for (unsigned i = 2; i < n; i++)
		if (row->opnds[i].role != AMD_ROLE_SRC || row->opnds[i].kind != AMD_OPK_VGPR ||
		    ops[i].kind == MIR_IMM)
			return false;
	return true;
}

/* Where a literal source operand (no inline constant, not kept in an e32 src0) goes. */
enum literal_home { LIT_KEEP, LIT_SGPR, LIT_VGPR };

/* A VALU row (VOP1/VOP2/VOPC with an e64 form, or VOP3): its VOP3 encoding takes any
 * operand kind in every source. */
static bool vop3_source(const struct isel *s, const struct amd_isa_op *row)
{
	if (row->format == AMD_FMT_VOP3)
		return true;
	return (row->format == AMD_FMT_VOP1 || row->format == AMD_FMT_VOP2 ||
	        row->format == AMD_FMT_VOPC) &&
	       !(row->flags & AMD_F_NO_E64) && row->vop3_opcode[s->gen] >= 0;
}

/* A literal in source i: kept as the VOP3 form's one literal dword where the target has
 * them (gfx10+), the operand is 32-bit and the constant bus has room (a literal takes a slot):
 * no s_mov/v_mov.  Else a VGPR in a VGPR-only slot, an SGPR elsewhere (gfx9's VOP3 takes no
 * literal; an SGPR in the VGPR-only slot of a VOP2/VOPC row would trade a v_mov for an s_mov,
 * which amdsim's CU model found no faster on gfx90a; a gfx9 compare whose mask can live in
 * VCC loses that register later, src/mir/vcc_cmp.c).  nseen: the bus slots the sources
 * before it took, of `limit`. */
static enum literal_home literal_home(const struct isel *s, unsigned op, const struct mir_opnd *ops,
                                      unsigned i, unsigned nseen, unsigned limit, bool have_literal,
                                      uint32_t literal)
{
	const struct amd_isa_op *row = &amd_isa_rows[op];
	const struct amd_opnd_desc *d = &row->opnds[i];
	bool any = vop3_source(s, row), vsrc = d->kind == AMD_OPK_VSRC || d->kind == AMD_OPK_VGPR;
	bool word = (d->dtype == AMD_DT_B32 || d->dtype == AMD_DT_F32) && d->width <= 1 &&
	            ops[i].width <= 1;
	if (any && vsrc && word && s->t->info->has_vop3_literal && nseen < limit &&
	    (!have_literal || literal == ops[i].v))
		return LIT_KEEP;
	return d->kind == AMD_OPK_VGPR ? LIT_VGPR : LIT_SGPR;
}

void sel_fix_valu(struct isel *s, unsigned op, unsigned n, struct mir_opnd *ops)
{
	const struct amd_isa_op *row = &amd_isa_rows[op];
	bool e32 = e32_literal(s, op, n, ops);
	unsigned limit = s->t->info->const_bus_limit;
	if (s->gen >= AMD_GFX10 && (op == AMD_OP_V_LSHLREV_B64 || op == AMD_OP_V_LSHRREV_B64 ||
	                            op == AMD_OP_V_ASHRREV_I64))
		limit = 1;
	struct mir_opnd seen[AMD_MAX_OPNDS];
	unsigned nseen = 0;
	bool have_literal = false;
	uint32_t literal = 0;
	/* lane-mask sources (carry-in, v_cndmask's selector) are SGPRs on the bus already */
	for (unsigned i = 0; i < n && i < row->nopnds; i++)
		if (row->opnds[i].role == AMD_ROLE_SRC &&
		    (row->opnds[i].kind == AMD_OPK_MASK_SRC || row->opnds[i].kind == AMD_OPK_VCC) &&
		    is_sgpr(s, &ops[i]))
			seen[nseen++] = ops[i];
	for (unsigned i = 0; i < n && i < row->nopnds; i++) {
		const struct amd_opnd_desc *d = &row->opnds[i];
		struct mir_opnd *o = &ops[i];
		if (d->role != AMD_ROLE_SRC || d->kind == AMD_OPK_MASK_SRC ||
		    d->kind == AMD_OPK_VCC)
			continue;
		if (o->kind == MIR_IMM) {
			bool inl = amd_inline_code((enum amd_dtype)d->dtype, o->v) >= 0;
			if (inl || (e32 && i == 1))
				continue;
			enum literal_home home =
			        literal_home(s, op, ops, i, nseen, limit, have_literal, literal);
			if (home == LIT_KEEP) { /* gfx10+: the VOP3 form's literal dword */
				have_literal = true;
				literal = o->v;
				seen[nseen++] = *o; /* it takes a constant bus slot */
				continue;
			}
			if (home == LIT_VGPR) {
				*o = sel_to_vgpr(s, *o);
				continue;
			}
			/* through an SGPR (VOP3 on gfx9 takes no literal) */
			*o = sel_s_imm(s, o->v);
		}
		if (d->kind == AMD_OPK_VGPR && !is_vgpr(s, o) &&
		    (e32 || row->format == AMD_FMT_DS || row->format == AMD_FMT_FLAT ||
		     row->format == AMD_FMT_GLOBAL || row->format == AMD_FMT_SCRATCH ||
		     row->flags & AMD_F_NO_E64)) {
			*o = sel_to_vgpr(s, *o);
			continue;
		}
		if (!is_sgpr(s, o))
			continue;
		bool dup = false;
		for (unsigned k = 0; k < nseen; k++)
			dup |= same_scalar(&seen[k], o);
		if (dup)
			continue;
		if (nseen >= limit) {
			*o = sel_to_vgpr(s, *o);
			continue;
		}
		seen[nseen++] = *o;
	}
}

void sel_waitcnt_all(struct isel *s)
{
	if (s->t->info->has_split_waits) {
		static const unsigned ops[] = {AMD_OP_S_WAIT_LOADCNT, AMD_OP_S_WAIT_STORECNT,
		                               AMD_OP_S_WAIT_DSCNT, AMD_OP_S_WAIT_KMCNT};
		for (unsigned i = 0; i < 4; i++) {
			struct mir_opnd z = mir_imm(0);
			sel_emit(s, ops[i], 1, &z);
		}
		return;
	}
	struct mir_opnd z = mir_imm(0); /* every counter zero */
	sel_emit(s, AMD_OP_S_WAITCNT, 1, &z);
	if (s->t->info->has_vscnt) {
		struct mir_opnd ops[2] = {mir_special(AMD_SPEC_NULL, 1), mir_imm(0)};
		sel_emit(s, AMD_OP_S_WAITCNT_VSCNT, 2, ops);
	}
}

/* ---- kernel inputs ---- */

static bool packed_tid(const struct amd_target *t)
{
	enum amd_gen g = t->info->gen;
	return (g == AMD_GFX9 && t->info->has_agprs) || g == AMD_GFX940 || g >= AMD_GFX11;
}

/* Which inputs the kernel reads: scan for special registers. */
static void scan_inputs(struct isel *s, bool wg[3], unsigned *tid_dims)
{
	for (uint32_t b = 0; b < s->ir->nblocks; b++)
		for (uint32_t i = 0; i < s->ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &s->ir->blocks[b].insns[i];
			if (in->op != IR_SREG)
				continue;
			if (in->aux >= IR_SREG_CTAID_X && in->aux <= IR_SREG_CTAID_Z)
				wg[in->aux - IR_SREG_CTAID_X] = true;
			if (in->aux <= IR_SREG_TID_Z && in->aux + 1 > *tid_dims) /* TID_X is 0 */
				*tid_dims = in->aux + 1;
			if (in->aux == IR_SREG_GRIDID)
				s->mf->abi.dispatch_id = true;
		}
}

unsigned sel_entry_sgprs_end(const struct isel *s)
{
	if (s->ir->real_sym)
		return 0;
	bool wg[3] = {false, false, false}, dispatch_id = false;
	for (uint32_t b = 0; b < s->ir->nblocks; b++)
		for (uint32_t i = 0; i < s->ir->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &s->ir->blocks[b].insns[i];
			if (in->op != IR_SREG)
				continue;
			if (in->aux >= IR_SREG_CTAID_X && in->aux <= IR_SREG_CTAID_Z)
				wg[in->aux - IR_SREG_CTAID_X] = true;
			dispatch_id |= in->aux == IR_SREG_GRIDID;
		}
	bool init = !s->t->info->architected_flat_scratch; /* flat_scratch_init, wave offset */
	unsigned end = 2 + (dispatch_id ? 2 : 0) + (init ? 2 + 1 : 0);
	for (unsigned k = 0; k < 3 && s->gen < AMD_GFX12; k++) /* (gfx12: in TTMPs) */
		end += wg[k];
	return end;
}

static void entry_inputs(struct isel *s)
{
	struct mir_abi *abi = &s->mf->abi;
	bool wg[3] = {false, false, false};
	unsigned dims = 1;
	scan_inputs(s, wg, &dims);
	abi->kernarg_segment_ptr = true;
	abi->kernarg_sgpr = 0;
	abi->user_sgpr_count = 2;
	abi->workitem_id_dims = dims;
	s->kernarg = sel_new_sgpr(s, 2);
	sel_copy(s, mir_vreg(s->kernarg, 2), mir_sgpr(0, 2));
	unsigned next = 2;
	s->dispatch_id = ~0u;
	if (abi->dispatch_id) { /* HSA order: kernarg pointer, dispatch id, flat scratch init */
		s->dispatch_id = sel_new_sgpr(s, 2);
		sel_copy(s, mir_vreg(s->dispatch_id, 2), mir_sgpr(2, 2));
		next = 4;
	}
	next = sel_local_user_sgprs(s, next);
	abi->user_sgpr_count = next;
	for (int k = 0; k < 3; k++) {
		s->wg_id[k] = ~0u;
		abi->workgroup_id[k] = wg[k];
		if (!wg[k])
			continue;
		s->wg_id[k] = sel_new_sgpr(s, 1);
		struct mir_opnd id = mir_vreg(s->wg_id[k], 1);
		if (s->gen >= AMD_GFX12) { /* architected SGPRs: ttmp9 = X, ttmp7 = Y | Z << 16 */
			struct mir_opnd t = {.kind = MIR_TTMP, .width = 1, .v = k == 0 ? 9 : 7};
			struct mir_opnd ops[3] = {id, t, mir_imm(k == 1 ? 0xffff : 16)};
			if (k == 0)
				sel_emit(s, AMD_OP_S_MOV_B32, 2, ops);
			else
				sel_emit(s, k == 1 ? AMD_OP_S_AND_B32 : AMD_OP_S_LSHR_B32, 3, ops);
			continue;
		}
		abi->workgroup_id_sgpr[k] = next;
		sel_copy(s, id, mir_sgpr(next++, 1));
	}
	sel_local_system_sgprs(s, next);
	sel_global_entry(s);
	for (unsigned k = 0; k < 3; k++) {
		s->tid[k] = ~0u;
		if (k >= dims)
			continue;
		s->tid[k] = sel_new_vgpr(s, 1);
		if (!packed_tid(s->t)) {
			sel_copy(s, mir_vreg(s->tid[k], 1), mir_vgpr(k, 1));
		} else if (dims == 1) {
			sel_copy(s, mir_vreg(s->tid[k], 1), mir_vgpr(0, 1));
		} else {
			struct mir_opnd ops[4] = {mir_vreg(s->tid[k], 1), mir_vgpr(0, 1),
			                          mir_imm(10 * k), mir_imm(10)};
			sel_emit(s, AMD_OP_V_BFE_U32, 4, ops);
		}
	}
}

/* LDS offsets of the .shared variables the kernel uses (ir_lds_layout). */
static void layout_lds(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	s->lds_offset = PA_NEW_ARRAY(s->mf->arena, uint32_t, ir->nsymvars + 1);
	uint64_t off = ir_lds_layout(ir, s->lds_offset);
	if (off > s->t->info->lds_bytes) {
		sel_error(s, "kernel '%s' uses %llu bytes of shared memory; %s has %u", ir->name,
		          (unsigned long long)off, s->t->info->name, s->t->info->lds_bytes);
		off = 0;
	}
	s->mf->lds_size = (uint32_t)off;
}

static bool select_one(struct isel *s, const struct ir_insn *in)
{
	if (in->op == IR_PHI || (ir_ops[in->op].flags & IR_OPF_TERM))
		return true; /* cflow.c */
	s->line = in->line;
	s->col = in->col;
	if (sel_call(s, in) || sel_bits(s, in) || sel_alu(s, in) || sel_float(s, in) ||
	    sel_mem(s, in) || sel_atomic(s, in))
		return true;
	if (sel_warp(s, in) || sel_bar(s, in) || sel_forms(s, in))
		return true;
	if (sel_mma_ext(s, in) || sel_mma(s, in) || sel_intsat(s, in) || sel_conv2(s, in) ||
	    sel_async(s, in) || sel_sys(s, in) || sel_tex(s, in))
		return true;
	sel_error(s, "the code generator cannot select '%s' on %s yet", ir_ops[in->op].name,
	          s->t->info->name);
	return false;
}

static bool select_insn(struct isel *s, const struct ir_insn *in)
{
	if (in->op == IR_PHI || (ir_ops[in->op].flags & IR_OPF_TERM))
		return true; /* cflow.c */
	uint32_t saved = sel_phi_merge_begin(s, in->res);
	bool ok = select_one(s, in);
	sel_phi_merge_end(s, in->res, saved);
	return ok;
}

bool isel_run(const struct ir_function *ir, const struct amd_target *t, unsigned wave_size,
              struct pa_arena *arena, struct mir_function *mf, struct pa_diag *d)
{
	struct isel s;
	memset(&s, 0, sizeof s);
	s.ir = ir;
	s.mf = mf;
	s.t = t;
	s.gen = t->info->gen;
	s.wave = wave_size;
	s.mask_dw = wave_size / 32;
	s.d = d;
	mir_function_init(mf, arena, ir->name, t, wave_size);
	s.vals = PA_NEW_ARRAY(arena, struct sel_val, ir->nvals + 1);
	s.def = PA_NEW_ARRAY(arena, const struct ir_insn *, ir->nvals + 1);
	for (uint32_t b = 0; b < ir->nblocks; b++)
		for (uint32_t i = 0; i < ir->blocks[b].ninsns; i++)
			if (ir->blocks[b].insns[i].res != IR_NO_REF)
				s.def[ir->blocks[b].insns[i].res] = &ir->blocks[b].insns[i];
	s.hidden_base = (ir->param_bytes + 7) & ~7u;
	if (!sel_cflow_plan(&s))
		return false;
	layout_lds(&s);
	sel_local_layout(&s);
	sel_call_layout(&s);
	sel_sys_layout(&s);
	for (uint32_t k = 0; k < ir->norder && !s.failed && !pa_diag_too_many(d); k++) {
		uint32_t b = ir->linear_order[k];
		sel_block_begin(&s, b);
		if (k == 0 && !ir->real_sym) {
			entry_inputs(&s);
			sel_call_entry(&s);
		} else if (k == 0) {
			sel_global_entry(&s); /* a function compiled on its own: its own anchor */
		}
		const struct ir_block *bl = &ir->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			select_insn(&s, &bl->insns[i]);
		sel_block_end(&s, b);
	}
	if (!s.failed)
		sel_finish(&s);
	return !s.failed;
}
