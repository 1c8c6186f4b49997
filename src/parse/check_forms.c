/* Operand forms and modifiers of the rows ptx_ops.def leaves loosely typed (signature
 * letters X and x, modifier classes shared by several instructions), checked the way
 * NVIDIA's ptxas checks them; tests/parse/conformance/nm_*.ptx hold its verdicts:
 * - ldmatrix/stmatrix: the registers in braces even for .x1 ("Vector of size 1 is
 *   expected"), 32-bit registers, not only sinks; .shared/.shared::cta or generic
 *   addresses; .b16 or .b8 elements; .sync.aligned and a shape;
 * - video instructions: .u32/.s32 types and 32-bit registers; register sources a and b
 *   for the SIMD forms; .add/.min/.max as the only secondary operations;
 * - cvt's second source, lop3's predicate input, isspacep's state space;
 * - the widths of the untyped register operands of shfl, match's source, dp4a/dp2a,
 *   getctarank, mapa, nanosleep and mbarrier, and of atom/red (no relaxed size);
 * - result registers where ptxas wants them (popc, clz, bfind, dp4a, dp2a, mbarrier);
 * - modifiers an instruction needs: bar/barrier an operation, match .any/.all, membar a
 *   level, shf a direction, mbarrier an operation, redux/movmatrix/elect .sync, bmsk/szext
 *   .clamp/.wrap, dp2a/madc .lo/.hi, griddepcontrol its action, prefetchu a level, cvta a
 *   state space, createpolicy .fractional; the operand counts of mbarrier.init/test_wait/
 *   try_wait (a predicate result, a 0/1 parity), atom.cas, cvt.pack, createpolicy.fractional
 *   and bar.red; atom/red vector operands in braces; alloca without a state space;
 * - atom/red vectors only of floating-point types; the cache-policy operand of
 *   ld/st/atom/red only with .L2::cache_hint; set's result type .u32/.s32/.f32; a state
 *   space on fence only with .proxy; bar's barrier operand; shfl.sync's member mask.
 * requires: check.c checked the modifier classes and parsed the types.
 * Complexity: O(modifiers + operands). */
#include "ptx_int.h"

#include <stdio.h>

struct forms {
	struct ptx_ctx *c;
	const struct ptx_insn *in;
	const struct ptx_insn_locs *locs;
	const char *name;
	bool ok;
};

static void fail_opnd(struct forms *f, unsigned idx, const char *msg, const char *detail)
{
	ptx_error_at(f->c, f->locs->opnd_lines[idx], f->locs->opnd_cols[idx], "'%s' %s%s", f->name,
	             msg, detail);
	f->ok = false;
}

static void fail_insn(struct forms *f, const char *msg, const char *detail)
{
	ptx_error_at(f->c, f->locs->line, f->locs->col, "'%s' %s%s", f->name, msg, detail);
	f->ok = false;
}

static bool has(const struct forms *f, enum ptx_dotword dw)
{
	return ptx_insn_has_mod(f->in, dw);
}

static bool has_class(const struct forms *f, uint64_t cls)
{
	for (unsigned i = 0; i < f->in->nmods; i++)
		if (ptx_dotwords[f->in->mods[i]].classes & cls)
			return true;
	return false;
}

static bool is_imm(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_INT || o->kind == PTX_OPND_F32 || o->kind == PTX_OPND_F64;
}

/* A register operand (or vector component) must be `bits` wide. */
static void want_bits(struct forms *f, unsigned idx, unsigned bits)
{
	if (idx >= f->in->nopnds)
		return;
	const struct ptx_operand *o = &f->in->opnds[idx];
	if (o->kind != PTX_OPND_REG || o->bits == bits)
		return;
	char detail[64];
	snprintf(detail, sizeof detail, " (found a %u-bit register)", o->bits);
	fail_opnd(f, idx,
	          bits == 32 ? "needs a 32-bit register here" : "needs a 64-bit register here",
	          detail);
}

static void check_matrix_move(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	unsigned data = in->op == PTX_OP_STMATRIX;
	if (!has(f, PTX_DW_SYNC) || !has(f, PTX_DW_ALIGNED))
		fail_insn(f, "needs '.sync.aligned'", "");
	if (!has_class(f, PTX_MC_SHAPE) || (!has(f, PTX_DW_M8N8) && !has(f, PTX_DW_M16N16) &&
	                                    !has(f, PTX_DW_M8N16) && !has(f, PTX_DW_M16N8)))
		fail_insn(f, "needs a matrix shape (.m8n8, ...)", "");
	for (unsigned i = 0; i < in->nmods; i++) {
		uint16_t w = in->mods[i];
		if (ptx_dotwords[w].classes & PTX_MC_SPACE && w != PTX_DW_SHARED &&
		    w != PTX_DW_SHARED_CTA) {
			ptx_error_at(f->c, f->locs->line, f->locs->col,
			             "'%s' does not take '%s' (its state space is .shared, "
			             ".shared::cta or generic)",
			             f->name, ptx_dotwords[w].text);
			f->ok = false;
		}
	}
	if (in->ntypes && in->types[0] != PTX_TYPE_B16 && in->types[0] != PTX_TYPE_B8)
		fail_insn(f, "moves .b16 or .b8 elements", "");
	/* ldmatrix's sm_100a .b8x16.b6x16_p32/.b4x16_p64 forms name formats instead of a type */
	bool formats = has(f, PTX_DW_B8X16) || has(f, PTX_DW_B6X16_P32) || has(f, PTX_DW_B4X16_P64);
	if (!in->ntypes && !formats)
		fail_insn(f, "needs a type (.b16 or .b8)", "");
	if (in->ntypes && formats)
		fail_insn(f, "takes a type or the .b8x16 formats, not both", "");
	if ((has(f, PTX_DW_M16N16) || has(f, PTX_DW_M16N8)) && !has(f, PTX_DW_TRANS))
		fail_insn(f, "needs '.trans' with shape .m16n16 or .m16n8", "");
	if (in->nopnds <= data)
		return;
	const struct ptx_operand *o = &in->opnds[data];
	if (o->kind != PTX_OPND_VEC) {
		fail_opnd(f, data, "takes its registers in braces, even one: ", "{%r}");
		return;
	}
	bool any_reg = false;
	for (unsigned i = 0; i < o->nelems; i++) {
		const struct ptx_operand *e = &o->elems[i];
		if (e->kind == PTX_OPND_REG) {
			any_reg = true;
			if (e->bits != 32)
				fail_opnd(f, data, "moves 32-bit registers", "");
		} else if (e->kind != PTX_OPND_SINK || data) {
			fail_opnd(f, data, "takes only registers in its brace list", "");
			return;
		}
	}
	if (!any_reg)
		fail_opnd(f, data, "needs at least one register among its sinks", "");
}

static bool is_video(unsigned op)
{
	return op >= PTX_OP_VADD && op <= PTX_OP_VSET4;
}

static bool is_simd_video(unsigned op)
{
	return op >= PTX_OP_VADD2 && op <= PTX_OP_VSET4;
}

static void check_video(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	for (unsigned i = 0; i < in->ntypes; i++)
		if (in->types[i] != PTX_TYPE_U32 && in->types[i] != PTX_TYPE_S32)
			fail_insn(f, "takes only .u32 and .s32 types, not ",
			          ptx_types[in->types[i]].name);
	for (unsigned i = 0; i < in->nmods; i++) {
		uint16_t w = in->mods[i];
		if (ptx_dotwords[w].classes & PTX_MC_ATOM && w != PTX_DW_ADD && w != PTX_DW_MIN &&
		    w != PTX_DW_MAX)
			fail_insn(f, "takes only .add, .min or .max as secondary operation, not ",
			          ptx_dotwords[w].text);
	}
	for (unsigned i = 0; i < in->nopnds; i++)
		want_bits(f, i, 32);
	for (unsigned i = 1; is_simd_video(in->op) && i < 3 && i < in->nopnds; i++)
		if (is_imm(&in->opnds[i]))
			fail_opnd(f, i, "takes a register as source ", i == 1 ? "a" : "b");
}

/* Untyped register operands: their widths by instruction. */
static void check_widths(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	unsigned tbits = in->ntypes ? ptx_types[in->types[0]].bits : 0;
	switch (in->op) {
	case PTX_OP_SHFL:
		want_bits(f, 0, 32);
		want_bits(f, 1, 32);
		break;
	case PTX_OP_MATCH:
		if (tbits)
			want_bits(f, 1, tbits);
		break;
	case PTX_OP_DP4A:
	case PTX_OP_DP2A:
		for (unsigned i = 0; i < in->nopnds; i++)
			want_bits(f, i, 32);
		break;
	case PTX_OP_GETCTARANK:
		want_bits(f, 0, 32);
		if (tbits)
			want_bits(f, 1, tbits);
		break;
	case PTX_OP_MAPA:
		if (tbits) {
			want_bits(f, 0, tbits);
			want_bits(f, 1, tbits);
		}
		break;
	case PTX_OP_NANOSLEEP:
		want_bits(f, 0, 32);
		break;
	case PTX_OP_FNS:
		for (unsigned i = 0; i < in->nopnds; i++)
			want_bits(f, i, 32);
		break;
	case PTX_OP_ALLOCA:
	case PTX_OP_CREATEPOLICY:
		if (tbits)
			want_bits(f, 0, tbits);
		break;
	case PTX_OP_MBARRIER:
		if (has(f, PTX_DW_ARRIVE) || has(f, PTX_DW_ARRIVE_DROP))
			want_bits(f, 0, 64);
		break;
	case PTX_OP_RED:
		if (tbits && !has_class(f, PTX_MC_VEC) && in->types[0] != PTX_TYPE_B128)
			want_bits(f, 1, tbits);
		break;
	case PTX_OP_ATOM:
		if (tbits && !has_class(f, PTX_MC_VEC) && in->types[0] != PTX_TYPE_B128)
			want_bits(f, 0, tbits);
		break;
	default:
		break;
	}
}

static void check_result_registers(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	bool result_first = in->op == PTX_OP_POPC || in->op == PTX_OP_CLZ ||
	                    in->op == PTX_OP_BFIND || in->op == PTX_OP_DP4A ||
	                    in->op == PTX_OP_DP2A || in->op == PTX_OP_MBARRIER ||
	                    in->op == PTX_OP_FNS;
	if (result_first && in->nopnds && is_imm(&in->opnds[0]))
		fail_opnd(f, 0, "needs a result register, not an immediate", "");
}

/* mbarrier.arrive{_drop}: state, [address] and an optional count (not an address). */
static void check_mbarrier_arrive(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	/* init: [address], count; test_wait/try_wait: p, [address], state or phase{, hint} */
	if (has(f, PTX_DW_INIT) && in->nopnds != 2)
		fail_insn(f, "'.init' takes the barrier's [address] and a count", "");
	bool wait = has(f, PTX_DW_TEST_WAIT) || has(f, PTX_DW_TRY_WAIT);
	if (wait && (in->nopnds < 3 || in->nopnds > 4))
		fail_insn(f, "waits with a predicate, the barrier's [address] and a state or phase",
		          "");
	if (has(f, PTX_DW_PARITY) && !wait)
		fail_insn(f, "takes '.parity' only with '.test_wait' or '.try_wait'", "");
	if (wait && in->nopnds && in->opnds[0].kind == PTX_OPND_REG && in->opnds[0].sym &&
	    in->opnds[0].sym->type != PTX_TYPE_PRED)
		fail_opnd(f, 0, "waits into a predicate", "");
	if (wait && has(f, PTX_DW_PARITY) && in->nopnds >= 3 && in->opnds[2].kind == PTX_OPND_INT &&
	    in->opnds[2].value > 1)
		fail_opnd(f, 2, "takes a phase parity of 0 or 1", "");
	bool arrive = has(f, PTX_DW_ARRIVE) || has(f, PTX_DW_ARRIVE_DROP);
	/* .noComplete: arrive/arrive_drop with a count only (NVIDIA's ptxas) */
	if (has(f, PTX_DW_NOCOMPLETE) && (!arrive || has(f, PTX_DW_EXPECT_TX)))
		fail_insn(f,
		          "takes '.noComplete' only on '.arrive' or '.arrive_drop' without "
		          "'.expect_tx'",
		          "");
	else if (has(f, PTX_DW_NOCOMPLETE) && in->nopnds != 3)
		fail_insn(f, "with '.noComplete' needs the arrival count", "");
	if (!arrive)
		return;
	if (in->nopnds < 2 || in->opnds[1].kind != PTX_OPND_ADDR)
		fail_insn(f, "needs a state destination and the barrier's [address]", "");
	for (unsigned i = 2; i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_ADDR)
			fail_opnd(f, i, "takes one address; this operand is the arrival count", "");
}

static void check_needed_modifiers(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	switch (in->op) {
	case PTX_OP_BAR:
	case PTX_OP_BARRIER:
		if (!has(f, PTX_DW_SYNC) && !has(f, PTX_DW_ARRIVE))
			fail_insn(f, "needs a barrier operation ('.sync' or '.arrive')", "");
		else if (!in->nopnds)
			fail_insn(f, "needs a barrier operand", "");
		break;
	case PTX_OP_BMSK:
	case PTX_OP_SZEXT:
		if (!has_class(f, PTX_MC_CLAMP))
			fail_insn(f, "needs '.clamp' or '.wrap'", "");
		break;
	case PTX_OP_DP2A:
	case PTX_OP_MADC:
		if (!has(f, PTX_DW_LO) && !has(f, PTX_DW_HI))
			fail_insn(f, "needs '.lo' or '.hi'", "");
		break;
	case PTX_OP_ELECT:
		if (!has(f, PTX_DW_SYNC))
			fail_insn(f, "needs '.sync'", "");
		break;
	case PTX_OP_GRIDDEPCONTROL:
		if (!has(f, PTX_DW_WAIT) && !has(f, PTX_DW_LAUNCH_DEPENDENTS))
			fail_insn(f, "needs '.wait' or '.launch_dependents'", "");
		break;
	case PTX_OP_PREFETCHU:
		if (!has_class(f, PTX_MC_LEVEL))
			fail_insn(f, "needs a cache level ('.L1')", "");
		break;
	case PTX_OP_CVTA:
		if (!has_class(f, PTX_MC_SPACE))
			fail_insn(f, "needs a state space", "");
		break;
	case PTX_OP_ISSPACEP:
		if (!has_class(f, PTX_MC_SPACE))
			fail_insn(f, "needs a state space", "");
		break;
	case PTX_OP_MATCH:
		if (!has(f, PTX_DW_ANY) && !has(f, PTX_DW_ALL))
			fail_insn(f, "needs '.any' or '.all'", "");
		break;
	case PTX_OP_MEMBAR:
		if (!has_class(f, PTX_MC_MEMBAR) && !has(f, PTX_DW_PROXY))
			fail_insn(f, "needs a level ('.cta', '.gl' or '.sys')", "");
		break;
	case PTX_OP_SHF:
		if (!has_class(f, PTX_MC_LR))
			fail_insn(f, "needs a direction ('.l' or '.r')", "");
		break;
	case PTX_OP_MBARRIER:
		if (!has_class(f, PTX_MC_MBAR))
			fail_insn(f, "needs an operation ('.init', '.arrive', ...)", "");
		check_mbarrier_arrive(f);
		break;
	case PTX_OP_REDUX:
	case PTX_OP_MOVMATRIX:
		if (!has(f, PTX_DW_SYNC))
			fail_insn(f, "needs '.sync'", "");
		break;
	case PTX_OP_SHFL:
		if (has(f, PTX_DW_SYNC) && in->nopnds == 4)
			fail_insn(f, "needs a member mask as its last operand", "");
		break;
	default:
		break;
	}
}

static void check_misc(struct forms *f)
{
	const struct ptx_insn *in = f->in;
	bool atom_red = in->op == PTX_OP_ATOM || in->op == PTX_OP_RED;
	if (atom_red && has_class(f, PTX_MC_VEC) && in->ntypes &&
	    ptx_types[in->types[0]].cls != PTX_TC_FLOAT &&
	    ptx_types[in->types[0]].cls != PTX_TC_PACKED)
		fail_insn(f, "takes a vector only of floating-point elements, not ",
		          ptx_types[in->types[0]].name);
	/* the optional last operand of ld/st/atom/red is the cache policy */
	unsigned plain = in->op == PTX_OP_LD || in->op == PTX_OP_ST ? 2
	                 : in->op == PTX_OP_RED                     ? 2
	                 : in->op == PTX_OP_ATOM                    ? (has(f, PTX_DW_CAS) ? 4 : 3)
	                                                            : 0;
	if (in->op == PTX_OP_ATOM && has(f, PTX_DW_CAS) && in->nopnds < 4)
		fail_insn(f, "'.cas' needs a compare and a new value", "");
	if (plain && in->nopnds > plain && !has(f, PTX_DW_L2_CACHE_HINT))
		fail_opnd(f, plain, "takes a cache-policy operand only with '.L2::cache_hint'", "");
	/* set on half types has more result types (.u16, .f16x2, ...): not restricted here */
	bool half_src = in->ntypes == 2 && (ptx_types[in->types[1]].bits == 16 ||
	                                    ptx_types[in->types[1]].cls == PTX_TC_PACKED);
	if (in->op == PTX_OP_SET && in->ntypes == 2 && !half_src && in->types[0] != PTX_TYPE_U32 &&
	    in->types[0] != PTX_TYPE_S32 && in->types[0] != PTX_TYPE_F32)
		fail_insn(f,
		          "with a 32- or 64-bit comparison produces only .u32, .s32 or .f32, not ",
		          ptx_types[in->types[0]].name);
	if ((in->op == PTX_OP_CP_ASYNC || in->op == PTX_OP_CP_ASYNC_BULK) && has(f, PTX_DW_ASYNC))
		fail_insn(f, "has '.async' in its name already", "");
	/* cvt takes two sources only into a packed type (.f16x2 from two .f32, ...), with .pack
	 * or with .rs (its random bits) */
	if (in->op == PTX_OP_CVT && in->nopnds > 2 && in->ntypes &&
	    ptx_types[in->types[0]].cls != PTX_TC_PACKED && !has(f, PTX_DW_PACK) &&
	    !has(f, PTX_DW_RS))
		fail_opnd(f, 2, "takes a second source only into a packed type, with .pack or .rs",
		          "");
	/* atom/red .vN: the data operands are brace lists (ptxas: "Vector expected") */
	if (atom_red && has_class(f, PTX_MC_VEC)) {
		unsigned data[2] = {in->op == PTX_OP_RED ? 1u : 0u, 2u};
		for (unsigned j = 0; j < (in->op == PTX_OP_RED ? 1u : 2u); j++)
			if (data[j] < in->nopnds && in->opnds[data[j]].kind != PTX_OPND_VEC)
				fail_opnd(f, data[j],
				          "with a vector modifier takes a brace list here", "");
	}
	/* mma: D, A, B, C (the sparse and block-scale forms with more operands are not parsed) */
	if (in->op == PTX_OP_MMA && in->nopnds > 4)
		fail_opnd(f, 4, "takes four operands (D, A, B, C)", "");
	if (in->op == PTX_OP_MMA && has(f, PTX_DW_TRANS))
		fail_insn(f, "does not take '.trans' (its layouts are .row/.col)", "");
	/* a word of the instruction's own name repeated as a modifier */
	bool name_again = ((in->op == PTX_OP_BAR_RED || in->op == PTX_OP_BARRIER_RED) &&
	                   has(f, PTX_DW_RED)) ||
	                  (in->op == PTX_OP_WMMA_LOAD && has(f, PTX_DW_LOAD)) ||
	                  (in->op == PTX_OP_WMMA_STORE && has(f, PTX_DW_STORE));
	if (name_again)
		fail_insn(f, "repeats a word of its name as a modifier", "");
	if (in->op == PTX_OP_ALLOCA && has_class(f, PTX_MC_SPACE))
		fail_insn(f, "takes no state space", "");
	/* bar.red's optional thread count stands before the predicate */
	if ((in->op == PTX_OP_BAR_RED || in->op == PTX_OP_BARRIER_RED) && in->nopnds == 4 &&
	    in->opnds[2].kind == PTX_OPND_REG && in->opnds[2].sym &&
	    in->opnds[2].sym->type == PTX_TYPE_PRED)
		fail_opnd(f, 2, "takes a thread count here, not a predicate", "");
	/* cvt.pack: .u8/.u4 from .s32 pairs into b (three types) takes three sources */
	if (in->op == PTX_OP_CVT && has(f, PTX_DW_PACK) &&
	    in->nopnds != (in->ntypes == 3 ? 4u : 3u))
		fail_insn(f,
		          in->ntypes == 3 ? "'.pack' with three types takes three sources"
		                          : "'.pack' with two types takes two sources",
		          "");
	if (in->op == PTX_OP_CREATEPOLICY && has(f, PTX_DW_FRACTIONAL) && in->nopnds > 2)
		fail_opnd(f, 2, "'.fractional' takes only the fraction as source", "");
	/* (.range is not among the words the parser knows yet) */
	if (in->op == PTX_OP_CREATEPOLICY && !has(f, PTX_DW_FRACTIONAL))
		fail_insn(f, "needs '.fractional'", "");
	/* lop3's predicate input c goes with the predicate output (d|p) */
	if (in->op == PTX_OP_LOP3 && in->nopnds > 5 && !in->opnds[0].pair)
		fail_opnd(f, 5, "takes a predicate input only with a predicate output (d|p)", "");
	if (in->op == PTX_OP_FENCE && has_class(f, PTX_MC_SPACE) && !has(f, PTX_DW_PROXY))
		fail_insn(f, "takes a state space only with '.proxy'", "");
	/* the PTX ISA's only form: fence.mbarrier_init.release.cluster */
	if (in->op == PTX_OP_FENCE && has(f, PTX_DW_MBARRIER_INIT) &&
	    (in->nmods != 3 || !has(f, PTX_DW_RELEASE) || !has(f, PTX_DW_CLUSTER)))
		fail_insn(f, "takes '.mbarrier_init' only as '.mbarrier_init.release.cluster'", "");
}

bool ptx_check_operand_forms(struct ptx_ctx *c, const struct ptx_insn *in,
                             const struct ptx_insn_locs *locs, const char *name)
{
	struct forms f = {c, in, locs, name, true};
	if (in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX)
		check_matrix_move(&f);
	if (is_video(in->op))
		check_video(&f);
	check_widths(&f);
	check_result_registers(&f);
	check_needed_modifiers(&f);
	check_misc(&f);
	return f.ok;
}
