/* Per-target facts about rows and instances that the compiler's passes ask for: implicit
 * registers narrowed to a generation, register-tuple alignment, constant-bus reads and the
 * literal rule, and the wait counters an instance increments.  Each answer comes from the
 * row's columns (amd_isa.h) and the target's data (target.h), never from the mnemonic.
 * Pure; O(operands) per query. */
#include "isa.h"

static const struct amd_isa_op *row_of(const struct amd_inst *in)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	return in->row >= 0 && (unsigned)in->row < count ? &table[in->row] : NULL;
}

static bool is_valu_format(enum amd_format f)
{
	return f == AMD_FMT_VOP1 || f == AMD_FMT_VOP2 || f == AMD_FMT_VOPC || f == AMD_FMT_VOP3 ||
	       f == AMD_FMT_VOP3P || f == AMD_FMT_VOPD;
}

static bool is_vmem_format(enum amd_format f)
{
	return f == AMD_FMT_FLAT || f == AMD_FMT_GLOBAL || f == AMD_FMT_SCRATCH ||
	       f == AMD_FMT_MUBUF || f == AMD_FMT_MIMG;
}

unsigned amd_implicit_defs(const struct amd_target *t, const struct amd_isa_op *op)
{
	unsigned defs = op->implicit_defs;
	/* gfx10+ v_cmpx writes only exec (LLVM's VOPCX "nosdst" forms); gfx9 also writes vcc */
	if (op->format == AMD_FMT_VOPC && (defs & AMD_IMP_EXEC) && t->info->gen >= AMD_GFX10)
		defs &= ~(unsigned)AMD_IMP_VCC;
	return defs;
}

unsigned amd_implicit_uses(const struct amd_target *t, const struct amd_isa_op *op)
{
	unsigned uses = op->implicit_uses;
	/* gfx9 LDS instructions clamp addresses against M0; gfx10+ ignore it */
	if (op->format == AMD_FMT_DS && t->info->gen >= AMD_GFX10)
		uses &= ~(unsigned)AMD_IMP_M0;
	return uses;
}

static bool is_vgpr_kind(enum amd_opnd_kind k)
{
	return k == AMD_OPK_VDST || k == AMD_OPK_VGPR || k == AMD_OPK_VSRC;
}

unsigned amd_reg_align(const struct amd_target *t, const struct amd_isa_op *op, unsigned opnd)
{
	if (opnd >= op->nopnds)
		return 1;
	const struct amd_opnd_desc *d = &op->opnds[opnd];
	unsigned width = d->width;
	if (d->kind == AMD_OPK_MASK_DST || d->kind == AMD_OPK_MASK_SRC || d->kind == AMD_OPK_VCC)
		width = t->wave_size == 64 ? 2 : 1;
	if (is_vgpr_kind((enum amd_opnd_kind)d->kind))
		return t->info->has_agprs && width >= 2 ? 2 : 1;
	if (width >= 3)
		return 4;
	return width == 2 ? 2 : 1;
}

/* Key of a scalar value on the constant bus (its source-operand code), -1 for scc, which
 * does not use the bus. */
static int bus_key(const struct amd_val *v)
{
	static const short special_code[AMD_NUM_SPECIALS] = {[AMD_SPEC_VCC] = 106,
	                                                     [AMD_SPEC_VCC_LO] = 106,
	                                                     [AMD_SPEC_VCC_HI] = 107,
	                                                     [AMD_SPEC_EXEC] = 126,
	                                                     [AMD_SPEC_EXEC_LO] = 126,
	                                                     [AMD_SPEC_EXEC_HI] = 127,
	                                                     [AMD_SPEC_M0] = 124,
	                                                     [AMD_SPEC_NULL] = 125,
	                                                     [AMD_SPEC_SCC] = -1,
	                                                     [AMD_SPEC_FLAT_SCRATCH] = 102,
	                                                     [AMD_SPEC_FLAT_SCRATCH_LO] = 102,
	                                                     [AMD_SPEC_FLAT_SCRATCH_HI] = 103,
	                                                     [AMD_SPEC_SRC_SHARED_BASE] = 235,
	                                                     [AMD_SPEC_SRC_SHARED_LIMIT] = 236,
	                                                     [AMD_SPEC_SRC_PRIVATE_BASE] = 237,
	                                                     [AMD_SPEC_SRC_PRIVATE_LIMIT] = 238};
	switch (v->kind) {
	case AMD_V_SGPR:
		return v->reg;
	case AMD_V_TTMP:
		return 108 + v->reg;
	case AMD_V_SPECIAL:
		return v->reg < AMD_NUM_SPECIALS ? special_code[v->reg] : -1;
	default:
		return -1;
	}
}

struct bus {
	int keys[8];
	unsigned nkeys;
	bool has_literal;
};

static void bus_add(struct bus *b, int key)
{
	if (key < 0)
		return;
	for (unsigned i = 0; i < b->nkeys; i++)
		if (b->keys[i] == key)
			return;
	if (b->nkeys < 8)
		b->keys[b->nkeys++] = key;
}

static void bus_add_source(struct bus *b, const struct amd_val *v, const struct amd_opnd_desc *d)
{
	if (v->kind == AMD_V_IMM) {
		if (d->kind == AMD_OPK_KIMM ||
		    amd_inline_code((enum amd_dtype)d->dtype, v->imm) < 0)
			b->has_literal = true;
		return;
	}
	bus_add(b, bus_key(v));
}

unsigned amd_const_bus_reads(const struct amd_target *t, const struct amd_inst *in)
{
	const struct amd_isa_op *op = row_of(in);
	if (!op || !is_valu_format((enum amd_format)op->format) || op->format == AMD_FMT_VOPD)
		return 0;
	struct bus b = {.nkeys = 0};
	if (op->flags & AMD_F_READS_VCC)
		bus_add(&b, 106);
	for (unsigned i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (d->role != AMD_ROLE_SRC || d->kind == AMD_OPK_SIMM16 ||
		    d->kind == AMD_OPK_LABEL)
			continue;
		bus_add_source(&b, &in->ops[i], d);
	}
	return b.nkeys + (b.has_literal ? 1u : 0);
}

unsigned amd_const_bus_limit(const struct amd_target *t, const struct amd_isa_op *op)
{
	if (t->info->gen >= AMD_GFX10 && (op->flags & AMD_F_BUS1_GFX10))
		return 1;
	return t->info->const_bus_limit;
}

bool amd_literal_allowed(const struct amd_target *t, const struct amd_inst *in)
{
	const struct amd_isa_op *op = row_of(in);
	if (!op)
		return false;
	switch (op->format) {
	case AMD_FMT_SOP1:
	case AMD_FMT_SOP2:
	case AMD_FMT_SOPC:
		return true;
	case AMD_FMT_VOP1:
	case AMD_FMT_VOP2:
	case AMD_FMT_VOPC:
	case AMD_FMT_VOP3:
	case AMD_FMT_VOP3P:
		if (in->dpp || in->sdwa)
			return false;
		return !(op->format == AMD_FMT_VOP3P || amd_uses_vop3(t->info->gen, op, in)) ||
		       t->info->has_vop3_literal;
	case AMD_FMT_VOPD:
		return true;
	default:
		return false;
	}
}

/* Whether a memory atomic returns its old value: a return register, or the glc/sc0 bit
 * (gfx9-11) / th:TH_ATOMIC_RETURN (gfx12) that buffer atomics return through vdata with. */
static bool atomic_returns(const struct amd_target *t, const struct amd_isa_op *op,
                           const struct amd_inst *in)
{
	if (op->flags & AMD_F_ATOMIC_RTN || in->rtn.kind != AMD_V_NONE)
		return true;
	if (t->info->gen >= AMD_GFX12)
		return (in->cpol & 7u) == 1;
	return (in->cpol & AMD_CPOL_GLC) != 0;
}

unsigned amd_inst_counters(const struct amd_target *t, const struct amd_inst *in)
{
	const struct amd_isa_op *op = row_of(in);
	if (!op)
		return 0;
	bool gfx12 = t->info->gen >= AMD_GFX12;
	unsigned mask = 0;
	switch (op->counter) {
	case AMD_CNT_VM:
		mask = 1u << AMD_HWC_VM;
		break;
	case AMD_CNT_VS:
		if (op->flags & AMD_F_ATOMIC && atomic_returns(t, op, in))
			mask = 1u << AMD_HWC_VM;
		else
			mask = 1u << (t->info->has_vscnt || gfx12 ? AMD_HWC_VS : AMD_HWC_VM);
		break;
	case AMD_CNT_LGKM:
		/* gfx12 splits lgkmcnt: dscnt for LDS, kmcnt for SMEM and messages */
		mask = 1u << (gfx12 && op->format != AMD_FMT_DS ? AMD_HWC_KM : AMD_HWC_LGKM);
		break;
	case AMD_CNT_EXP:
		mask = 1u << AMD_HWC_EXP;
		break;
	default:
		break;
	}
	if (is_vmem_format((enum amd_format)op->format) && (op->flags & AMD_F_ALSO_LGKM))
		mask |= 1u << AMD_HWC_LGKM;
	return mask;
}
