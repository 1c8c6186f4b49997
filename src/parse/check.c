/* Semantic checks of one instruction against its row in ptx_ops.def.
 *
 * Modifiers: each must belong to a class the row allows; at most one per exclusive
 * class; type words counted against the row's minimum and maximum; rows and words
 * newer than the module's .version or .target are rejected.  Operands: count and
 * kind from the row's signature letters, then register types by the PTX rules of
 * type compatibility (bit types match any type of their size, signed and unsigned
 * integers match each other, floats only floats; ld/st/cvt accept wider registers).
 * requires: insn.c parsed operands.  Complexity: O(modifiers + operands). */
#include "ptx_int.h"

#include <stdarg.h>
#include <string.h>

static const uint64_t exclusive_classes = 0
#define X(name, excl) | (excl ? PTX_MC_##name : 0)
        PTX_MC_LIST(X)
#undef X
        ;

/* The instruction's modifiers as a set, built once: the checks ask "has .wide?", "has
 * a rounding?" a dozen times an instruction, each a scan of the modifiers before. */
#define PTX_DW_WORDS ((PTX_NDOTWORDS + 63) / 64)

struct check {
	struct ptx_ctx *c;
	struct ptx_insn *in;
	const struct ptx_insn_locs *locs;
	const struct ptx_op_info *op;
	uint64_t words[PTX_DW_WORDS]; /* bit per enum ptx_dotword present */
	uint64_t classes;             /* classes of the modifiers, PTX_MC_TYPE left out */
	unsigned vl;                  /* .v2/.v4/.v8: 2, 4, 8; else 1 */
	bool ok;
};

static bool has_word(const struct check *k, unsigned w)
{
	return k->words[w / 64] >> (w % 64) & 1;
}

/* Some modifier of the instruction is in one of the classes `cls` (types not counted). */
static bool has_class(const struct check *k, uint64_t cls)
{
	return k->classes & cls;
}

static void index_modifiers(struct check *k)
{
	const struct ptx_insn *in = k->in;
	for (unsigned i = 0; i < in->nmods; i++) {
		k->words[in->mods[i] / 64] |= 1ull << (in->mods[i] % 64);
		k->classes |= ptx_dotwords[in->mods[i]].classes & ~PTX_MC_TYPE;
	}
	k->vl = has_word(k, PTX_DW_V2)   ? 2
	        : has_word(k, PTX_DW_V4) ? 4
	        : has_word(k, PTX_DW_V8) ? 8
	                                 : 1;
}

static void fail_at(struct check *k, uint32_t line, uint32_t col, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

static void fail_at(struct check *k, uint32_t line, uint32_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ptx_error_at(k->c, line, col, "%s", msg);
	k->ok = false;
}

/* `what` is printed before the quoted `name`: "type '.bf16' requires ...". */
static bool check_feature(struct check *k, uint32_t col, const char *what, const char *name,
                          unsigned ver, unsigned sm)
{
	const struct ptx_module_state *m = &k->c->mod;
	if (ver && m->version && ver > m->version) {
		ptx_error_at(
		        k->c, k->locs->line, col,
		        "%s'%s' requires PTX ISA %u.%u or later (module declares .version %u.%u)",
		        what, name, ver / 10, ver % 10, m->version / 10, m->version % 10);
		return k->ok = false;
	}
	if (sm && m->sm && sm > m->sm) {
		ptx_error_at(k->c, k->locs->line, col,
		             "%s'%s' requires sm_%u or later (module targets sm_%u)", what, name,
		             sm, m->sm);
		return k->ok = false;
	}
	return true;
}

static void check_modifiers(struct check *k)
{
	struct ptx_insn *in = k->in;
	uint8_t count[PTX_NMC] = {0};
	check_feature(k, k->locs->col, "", k->op->name, k->op->ver, k->op->sm);
	for (unsigned i = 0; i < in->nmods; i++) {
		const struct ptx_dotword_info *w = &ptx_dotwords[in->mods[i]];
		uint32_t col = k->locs->mod_cols[i];
		/* types repeat (mma.f32.f16.f16.f32), and so do the layouts (.row.row) */
		bool may_repeat = w->classes & PTX_MC_TYPE || in->mods[i] == PTX_DW_ROW ||
		                  in->mods[i] == PTX_DW_COL;
		/* NVIDIA's ptxas takes a repeated .sync, .approx or .cc as one */
		bool repeated_flag = false;
		for (unsigned j = 0; j < i; j++)
			repeated_flag |= in->mods[j] == in->mods[i] &&
			                 (in->mods[i] == PTX_DW_SYNC ||
			                  in->mods[i] == PTX_DW_APPROX || in->mods[i] == PTX_DW_CC);
		if (repeated_flag)
			continue;
		for (unsigned j = 0; j < i && !may_repeat; j++)
			if (in->mods[j] == in->mods[i]) {
				fail_at(k, k->locs->line, col, "duplicate modifier '%s' on '%s'",
				        w->text, k->op->name);
				goto next_mod;
			}
		if (w->classes & PTX_MC_TYPE) {
			if (in->ntypes == 4 || in->ntypes >= k->op->maxtypes) {
				if (k->op->maxtypes)
					fail_at(k, k->locs->line, col,
					        "too many types ('%s') for '%s'", w->text,
					        k->op->name);
				else
					fail_at(k, k->locs->line, col,
					        "type '%s' is not allowed on '%s'", w->text,
					        k->op->name);
				continue;
			}
			in->types[in->ntypes++] = w->type;
			check_feature(k, col, "type ", w->text, w->ver, w->sm);
			continue;
		}
		uint64_t allowed = w->classes & k->op->classes;
		if (!allowed) {
			fail_at(k, k->locs->line, col, "modifier '%s' is not valid for '%s'",
			        w->text, k->op->name);
			continue;
		}
		check_feature(k, col, "modifier ", w->text, w->ver, w->sm);
		uint64_t excl = allowed & exclusive_classes;
		if (excl) { /* counted in its first exclusive class */
			unsigned b = (unsigned)__builtin_ctzll(excl);
			bool two = b == PTX_MCB_SPACE && k->op->flags & PTX_OF_TWO_SPACES;
			if (++count[b] == (two ? 3 : 2))
				fail_at(k, k->locs->line, col,
				        "modifier '%s' conflicts with an earlier modifier of '%s'",
				        w->text, k->op->name);
		}
	next_mod:;
	}
	if (in->ntypes < k->op->mintypes)
		fail_at(k, k->locs->line, k->locs->col, "'%s' needs %u type%s, found %u",
		        k->op->name, k->op->mintypes, k->op->mintypes > 1 ? "s" : "", in->ntypes);
}

/* shfl/vote without .sync: deprecated in PTX ISA 6.0, removed for sm_70+ in 6.4. */
static void check_unsync(struct check *k)
{
	const struct ptx_module_state *m = &k->c->mod;
	if (m->version >= 64 && m->sm >= 70)
		fail_at(k, k->locs->line, k->locs->col,
		        "'%s' without '.sync' is not supported on sm_70 and later from PTX ISA 6.4",
		        k->op->name);
	else if (m->version >= 60)
		ptx_warning_at(k->c, k->locs->line, k->locs->col,
		               "'%s' without '.sync' is deprecated since PTX ISA 6.0", k->op->name);
}

/* Types an instruction accepts (the first type word), where the table's type count is
 * not enough: NVIDIA ptxas rejects the others as "unexpected instruction types". */
#define TB(t) (1ull << PTX_TYPE_##t)
#define INT_TYPES                                                                                  \
	(TB(B8) | TB(B16) | TB(B32) | TB(B64) | TB(U8) | TB(U16) | TB(U32) | TB(U64) | TB(S8) |    \
	 TB(S16) | TB(S32) | TB(S64))
/* Indexed by opcode; 0: no rule (every set below is non-empty). */
static const uint64_t op_type_sets[PTX_NOPS] = {
        [PTX_OP_LD] = INT_TYPES | TB(B128) | TB(F32) | TB(F64),
        [PTX_OP_LDU] = INT_TYPES | TB(B128) | TB(F32) | TB(F64),
        [PTX_OP_ST] = INT_TYPES | TB(B128) | TB(F32) | TB(F64),
        [PTX_OP_MOV] =
                (INT_TYPES & ~(TB(B8) | TB(U8) | TB(S8))) | TB(B128) | TB(F32) | TB(F64) | TB(PRED),
        [PTX_OP_AND] = TB(B16) | TB(B32) | TB(B64) | TB(PRED),
        [PTX_OP_OR] = TB(B16) | TB(B32) | TB(B64) | TB(PRED),
        [PTX_OP_XOR] = TB(B16) | TB(B32) | TB(B64) | TB(PRED),
        [PTX_OP_NOT] = TB(B16) | TB(B32) | TB(B64) | TB(PRED),
        [PTX_OP_CNOT] = TB(B16) | TB(B32) | TB(B64),
        [PTX_OP_CVTA] = TB(U32) | TB(U64),
        [PTX_OP_DP4A] = TB(U32) | TB(S32),
        [PTX_OP_DP2A] = TB(U32) | TB(S32),
        [PTX_OP_POPC] = TB(B32) | TB(B64),
        [PTX_OP_CLZ] = TB(B32) | TB(B64),
        [PTX_OP_MOVMATRIX] = TB(B16),
};

static void check_type_set(struct check *k)
{
	const struct ptx_insn *in = k->in;
	uint64_t types = op_type_sets[in->op];
	if (types) {
		for (unsigned t = 0; t < in->ntypes; t++)
			if (!(types & (1ull << in->types[t])))
				fail_at(k, k->locs->line, k->locs->col,
				        "'%s' does not take type %s", k->op->name,
				        ptx_types[in->types[t]].name);
		return;
	}
	for (unsigned t = 0; in->op == PTX_OP_CVT && t < in->ntypes; t++)
		if (in->types[t] == PTX_TYPE_PRED)
			fail_at(k, k->locs->line, k->locs->col, "'cvt' does not take type .pred");
}

static unsigned count_mod(const struct ptx_insn *in, enum ptx_dotword dw)
{
	unsigned n = 0;
	for (unsigned i = 0; i < in->nmods; i++)
		n += in->mods[i] == dw;
	return n;
}

static bool is_floatish(enum ptx_type t)
{
	return ptx_types[t].cls == PTX_TC_FLOAT || ptx_types[t].cls == PTX_TC_PACKED;
}

/* The column of the first modifier of class `cls` (the instruction's when there is none). */
static uint32_t mod_col(const struct check *k, uint64_t cls)
{
	for (unsigned i = 0; i < k->in->nmods; i++)
		if (ptx_dotwords[k->in->mods[i]].classes & cls & ~PTX_MC_TYPE)
			return k->locs->mod_cols[i];
	return k->locs->col;
}

/* cvt: which rounding a conversion needs (PTX ISA cvt: "rounding modifier is
 * mandatory" for float-to-int, int-to-float and narrowing float conversions). */
static void check_cvt(struct check *k)
{
	const struct ptx_insn *in = k->in;
	if (in->ntypes < 2)
		return;
	enum ptx_type d = in->types[0], s = in->types[1];
	bool pack = has_class(k, PTX_MC_PACK);
	if (in->ntypes == 3 && !pack)
		fail_at(k, k->locs->line, k->locs->col, "three types need 'cvt.pack'");
	if (pack && !has_class(k, PTX_MC_SAT))
		fail_at(k, k->locs->line, k->locs->col, "'cvt.pack' needs '.sat'");
	if ((d == PTX_TYPE_E4M3X2 || d == PTX_TYPE_E5M2X2) && !has_class(k, PTX_MC_SATF))
		fail_at(k, k->locs->line, k->locs->col, "'cvt' to %s needs '.satfinite'",
		        ptx_types[d].name);
	if (ptx_types[d].cls == PTX_TC_BIT || ptx_types[s].cls == PTX_TC_BIT)
		fail_at(k, k->locs->line, k->locs->col,
		        "'cvt' converts between value types, not %s",
		        ptx_types[ptx_types[d].cls == PTX_TC_BIT ? d : s].name);
	if (pack && in->ntypes == 2 && in->nopnds > 3)
		fail_at(k, k->locs->line, k->locs->col,
		        "'cvt.pack' with two types takes two sources");
	/* .satfinite on f32 -> f16/bf16 (and the x2 forms): PTX ISA 8.1 (NVIDIA's ptxas) */
	bool half_dst = d == PTX_TYPE_F16 || d == PTX_TYPE_BF16 || d == PTX_TYPE_F16X2 ||
	                d == PTX_TYPE_BF16X2;
	if (half_dst && s == PTX_TYPE_F32 && has_word(k, PTX_DW_SATFINITE))
		check_feature(k, mod_col(k, PTX_MC_SATF), "modifier ", ".satfinite", 81, 0);
	/* two f32 sources packed into f16x2/bf16x2: PTX ISA 7.0, sm_80 */
	if ((d == PTX_TYPE_F16X2 || d == PTX_TYPE_BF16X2) && s == PTX_TYPE_F32) {
		char name[32];
		snprintf(name, sizeof name, "cvt%s.f32", ptx_types[d].name);
		check_feature(k, k->locs->col, "", name, 70, 80);
	}
	/* widening float conversions are exact (the packed fp8 ones still take .rn; NVIDIA's
	 * ptxas also takes .rn/.rz/.rm/.rp, though not .rXi, on cvt.{f32,f64}.bf16) */
	bool widen = is_floatish(d) && ptx_types[s].cls == PTX_TC_FLOAT &&
	             ptx_types[d].bits > ptx_types[s].bits;
	bool int_int = !is_floatish(d) && !is_floatish(s);
	bool round_ok = widen && s == PTX_TYPE_BF16 && !has_class(k, PTX_MC_IROUND);
	if ((widen || int_int) && !round_ok &&
	    (has_class(k, PTX_MC_ROUND) || has_class(k, PTX_MC_IROUND)))
		fail_at(k, k->locs->line, k->locs->col, "'cvt%s%s' takes no rounding modifier",
		        ptx_types[d].name, ptx_types[s].name);
	if (has_word(k, PTX_DW_RNA) && d != PTX_TYPE_TF32) /* ties away: only to tf32 */
		fail_at(k, k->locs->line, mod_col(k, PTX_MC_ROUND),
		        "'.rna' rounds only to .tf32 ('cvt.rna.tf32.f32')");
	bool need_round =
	        is_floatish(d) && (!is_floatish(s) || ptx_types[d].bits < ptx_types[s].bits);
	if (need_round && !has_class(k, PTX_MC_ROUND))
		fail_at(k, k->locs->line, k->locs->col,
		        "'cvt%s%s' needs a rounding modifier (.rn, .rz, .rm, .rp)",
		        ptx_types[d].name, ptx_types[s].name);
	if (!is_floatish(d) && is_floatish(s) && !has_class(k, PTX_MC_IROUND))
		fail_at(k, k->locs->line, k->locs->col,
		        "'cvt%s%s' needs an integer rounding modifier (.rni, .rzi, .rmi, .rpi)",
		        ptx_types[d].name, ptx_types[s].name);
}

/* div/rcp/sqrt take one of .approx, .full (div.f32) or a rounding of .rn/.rz/.rm/.rp, never
 * two of them, and .approx only where the ISA defines it (NVIDIA's ptxas refuses the rest). */
static void check_div_modes(struct check *k, enum ptx_type t, bool round, bool approx)
{
	const struct ptx_insn *in = k->in;
	const char *name = k->op->name;
	if (has_word(k, PTX_DW_RNA))
		fail_at(k, k->locs->line, mod_col(k, PTX_MC_ROUND),
		        "'.rna' is not a rounding of '%s' (.rn, .rz, .rm, .rp)", name);
	else if (round && approx)
		fail_at(k, k->locs->line, mod_col(k, PTX_MC_ROUND),
		        "'%s.approx' takes no rounding modifier", name);
	else if (round && has_class(k, PTX_MC_FULL))
		fail_at(k, k->locs->line, mod_col(k, PTX_MC_ROUND),
		        "'div.full' takes no rounding modifier");
	if (approx && t == PTX_TYPE_F64 && in->op != PTX_OP_RCP)
		fail_at(k, k->locs->line, mod_col(k, PTX_MC_APPROX),
		        "'%s.approx' is not defined for .f64", name);
}

/* Float instructions whose rounding or .approx is mandatory. */
static void check_float_modes(struct check *k)
{
	const struct ptx_insn *in = k->in;
	enum ptx_type t = in->types[in->ntypes - 1];
	bool round = has_class(k, PTX_MC_ROUND), approx = has_class(k, PTX_MC_APPROX);
	const char *need = NULL;
	if ((in->op == PTX_OP_DIV || in->op == PTX_OP_RCP || in->op == PTX_OP_SQRT) &&
	    ptx_types[t].cls == PTX_TC_FLOAT)
		check_div_modes(k, t, round, approx);
	switch (in->op) {
	case PTX_OP_FMA:
	case PTX_OP_MAD:
		if (!round && is_floatish(t))
			need = "a rounding modifier";
		break;
	case PTX_OP_DIV:
		if (t == PTX_TYPE_F32 && !round && !approx && !has_class(k, PTX_MC_FULL))
			need = "'.approx', '.full' or a rounding modifier";
		else if (t == PTX_TYPE_F64 && !round && !approx) /* .approx: check_div_modes */
			need = "a rounding modifier";
		break;
	case PTX_OP_RCP:
	case PTX_OP_SQRT:
		if (!round && !approx)
			need = "'.approx' or a rounding modifier";
		else if (in->op == PTX_OP_RCP && approx && t == PTX_TYPE_F64 &&
		         !has_class(k, PTX_MC_FTZ))
			need = "'.ftz' with '.approx'";
		break;
	case PTX_OP_SIN:
	case PTX_OP_COS:
	case PTX_OP_LG2:
	case PTX_OP_EX2:
	case PTX_OP_TANH:
	case PTX_OP_RSQRT:
		if (!approx)
			need = "'.approx'";
		break;
	default:
		break;
	}
	if (need)
		fail_at(k, k->locs->line, k->locs->col, "'%s%s' needs %s", k->op->name,
		        ptx_types[t].name, need);
}

/* Comparison operators by type: ordered/unordered float tests only on floats, the
 * unsigned .lo/.ls/.hi/.hs only on unsigned and bit types, bit types only .eq/.ne. */
static void check_compare(struct check *k)
{
	const struct ptx_insn *in = k->in;
	enum ptx_type t = in->types[in->ntypes - 1];
	uint8_t cls = ptx_types[t].cls;
	for (unsigned i = 0; i < in->nmods; i++) {
		uint16_t w = in->mods[i];
		if (!(ptx_dotwords[w].classes & PTX_MC_CMP) ||
		    (in->op != PTX_OP_SETP && in->op != PTX_OP_SET))
			continue;
		bool unsigned_only =
		        w == PTX_DW_LO || w == PTX_DW_LS || w == PTX_DW_HI || w == PTX_DW_HS;
		bool float_only = w >= PTX_DW_EQU && w <= PTX_DW_NAN;
		bool eq_ne = w == PTX_DW_EQ || w == PTX_DW_NE;
		bool ok = cls == PTX_TC_BIT    ? eq_ne
		          : cls == PTX_TC_UINT ? !float_only
		          : cls == PTX_TC_SINT ? !float_only && !unsigned_only
		                               : !unsigned_only;
		if (!ok)
			fail_at(k, k->locs->line, k->locs->mod_cols[i],
			        "comparison '%s' does not apply to type %s", ptx_dotwords[w].text,
			        ptx_types[t].name);
	}
	/* PTX ISA setp: the half-precision syntax boxes give p|q to .f16x2/.bf16x2 alone;
	 * scalar .f16/.bf16 write one predicate (NVIDIA's ptxas refuses p|q there too). */
	if (in->op == PTX_OP_SETP && in->nopnds && in->opnds[0].pair &&
	    (t == PTX_TYPE_F16 || t == PTX_TYPE_BF16))
		fail_at(k, k->locs->opnd_lines[0], k->locs->opnd_cols[0],
		        "'setp%s' writes one predicate: p|q is only for .f16x2 and .bf16x2",
		        ptx_types[t].name);
}

/* The layouts of an mma are A row-major, B column-major, in that order. */
static bool is_row_col(const struct ptx_insn *in)
{
	unsigned n = 0;
	for (unsigned i = 0; i < in->nmods; i++) {
		if (in->mods[i] != PTX_DW_ROW && in->mods[i] != PTX_DW_COL)
			continue;
		if (in->mods[i] != (n ? PTX_DW_COL : PTX_DW_ROW))
			return false;
		n++;
	}
	return n == 2;
}

/* Modifiers an instruction cannot do without. */
static void check_required(struct check *k)
{
	const struct ptx_insn *in = k->in;
	enum ptx_type t = in->ntypes ? in->types[in->ntypes - 1] : PTX_TYPE_NONE;
	const char *need = NULL;
	unsigned layouts = has_word(k, PTX_DW_ROW) || has_word(k, PTX_DW_COL)
	                           ? count_mod(in, PTX_DW_ROW) + count_mod(in, PTX_DW_COL)
	                           : 0;
	bool is_int = ptx_types[t].cls == PTX_TC_UINT || ptx_types[t].cls == PTX_TC_SINT ||
	              ptx_types[t].cls == PTX_TC_BIT;
	switch (in->op) {
	case PTX_OP_MUL:
	case PTX_OP_MAD:
	case PTX_OP_MUL24:
	case PTX_OP_MAD24:
		if (is_int && !has_class(k, PTX_MC_MUL))
			need = "'.lo', '.hi' or '.wide'";
		break;
	case PTX_OP_SHF:
		if (!has_class(k, PTX_MC_SHIFT))
			need = "'.wrap' or '.clamp'";
		break;
	case PTX_OP_MOVMATRIX:
		if (!has_word(k, PTX_DW_TRANS))
			need = "'.trans'";
		break;
	case PTX_OP_MMA:
		if (!has_word(k, PTX_DW_SYNC) || !has_word(k, PTX_DW_ALIGNED))
			need = "'.sync.aligned'";
		else if (layouts != 2)
			need = "the layouts of A and B ('.row.col')";
		else if (!has_word(k, PTX_DW_M8N8K4) && !is_row_col(in))
			need = "'.row.col' (other layouts exist only for .m8n8k4)";
		break;
	case PTX_OP_WMMA_LOAD:
	case PTX_OP_WMMA_STORE:
	case PTX_OP_WMMA_MMA:
		if (layouts != (in->op == PTX_OP_WMMA_MMA ? 2u : 1u))
			need = in->op == PTX_OP_WMMA_MMA ? "the layouts of A and B" : "a layout";
		break;
	case PTX_OP_LD:
	case PTX_OP_ST:
		if ((has_word(k, PTX_DW_RELAXED) || has_word(k, PTX_DW_ACQUIRE) ||
		     has_word(k, PTX_DW_RELEASE)) &&
		    !has_class(k, PTX_MC_SCOPE))
			need = "a scope with its memory order";
		break;
	default:
		break;
	}
	if (need)
		fail_at(k, k->locs->line, k->locs->col, "'%s' needs %s", k->op->name, need);
}

/* mma's types: .dtype.atype.btype.ctype; A and B agree except for the integer and fp8
 * forms, and the f16 forms with an f16 accumulator produce f16. */
static void check_mma_types(struct check *k)
{
	const struct ptx_insn *in = k->in;
	if (in->op == PTX_OP_WMMA_MMA && in->ntypes == 3)
		fail_at(k, k->locs->line, k->locs->col, "'wmma.mma' takes two or four types");
	if (in->op != PTX_OP_MMA && !(in->op == PTX_OP_WMMA_MMA && in->ntypes == 4))
		return;
	if (in->op == PTX_OP_MMA && in->ntypes != 4) {
		fail_at(k, k->locs->line, k->locs->col,
		        "'mma' needs four types (.dtype.atype.btype.ctype)");
		return;
	}
	enum ptx_type d = in->types[0], a = in->types[1], b = in->types[2], c = in->types[3];
	bool mixable = ptx_types[a].cls != PTX_TC_FLOAT || a == PTX_TYPE_E4M3 || a == PTX_TYPE_E5M2;
	if (a != b && !mixable)
		fail_at(k, k->locs->line, k->locs->col,
		        "'%s' needs equal A and B types, found %s and %s", k->op->name,
		        ptx_types[a].name, ptx_types[b].name);
	if (a == PTX_TYPE_F16 && c != d && !has_word(k, PTX_DW_M8N8K4))
		fail_at(k, k->locs->line, k->locs->col, "'%s' with a %s accumulator produces %s",
		        k->op->name, ptx_types[c].name, ptx_types[c].name);
}

static void check_reg_type(struct check *k, const struct ptx_operand *o, enum ptx_type want,
                           unsigned idx);

/* atom/red: the types each operation takes (PTX ISA atom: .and/.or/.xor on bit types,
 * .add on unsigned, signed and float types, .inc/.dec on .u32, ...). */
static const struct atom_rule {
	uint16_t dw;
	uint64_t types;
} atom_rules[] = {
        {PTX_DW_AND, TB(B32) | TB(B64)},
        {PTX_DW_OR, TB(B32) | TB(B64)},
        {PTX_DW_XOR, TB(B32) | TB(B64)},
        {PTX_DW_CAS, TB(B16) | TB(B32) | TB(B64) | TB(B128)},
        {PTX_DW_EXCH, TB(B16) | TB(B32) | TB(B64) | TB(B128)},
        {PTX_DW_ADD, TB(U32) | TB(S32) | TB(U64) | TB(F32) | TB(F64) | TB(F16) | TB(F16X2) |
                             TB(BF16) | TB(BF16X2)},
        {PTX_DW_INC, TB(U32)},
        {PTX_DW_DEC, TB(U32)},
        {PTX_DW_MIN,
         TB(U32) | TB(S32) | TB(U64) | TB(S64) | TB(F16) | TB(F16X2) | TB(BF16) | TB(BF16X2)},
        {PTX_DW_MAX,
         TB(U32) | TB(S32) | TB(U64) | TB(S64) | TB(F16) | TB(F16X2) | TB(BF16) | TB(BF16X2)},
};

static void check_atom_types(struct check *k)
{
	const struct ptx_insn *in = k->in;
	if ((in->op != PTX_OP_ATOM && in->op != PTX_OP_RED) || !in->ntypes)
		return;
	enum ptx_type t = in->types[0];
	for (unsigned i = 0; i < in->nmods; i++)
		for (unsigned r = 0; r < sizeof atom_rules / sizeof atom_rules[0]; r++)
			if (atom_rules[r].dw == in->mods[i] && !(atom_rules[r].types & (1ull << t)))
				fail_at(k, k->locs->line, k->locs->mod_cols[i],
				        "'%s%s' does not take type %s", k->op->name,
				        ptx_dotwords[in->mods[i]].text, ptx_types[t].name);
}

/* Element counts fixed by a shape: ldmatrix/stmatrix .x1/.x2/.x4 registers, and the
 * cp.async copy sizes (.cg copies 16 bytes, .ca 4, 8 or 16). */
static void check_shape_counts(struct check *k)
{
	const struct ptx_insn *in = k->in;
	if ((in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX) && in->nopnds == 2) {
		unsigned data = in->op == PTX_OP_STMATRIX;
		const struct ptx_operand *o = &in->opnds[data];
		unsigned num = has_word(k, PTX_DW_X4) ? 4 : has_word(k, PTX_DW_X2) ? 2 : 1;
		/* a 16x16 matrix of bytes is two registers a thread */
		unsigned want = has_word(k, PTX_DW_M16N16) ? 2 * num : num;
		unsigned have = o->kind == PTX_OPND_VEC ? o->nelems : 1;
		if (have != want)
			fail_at(k, k->locs->opnd_lines[data], k->locs->opnd_cols[data],
			        "'%s' with .x%u moves %u register%s, found %u", k->op->name, num,
			        want, want == 1 ? "" : "s", have);
	}
	if (!ptx_check_matrix_counts(k->c, in, k->locs))
		k->ok = false;
	if (!ptx_check_operand_forms(k->c, in, k->locs, k->op->name))
		k->ok = false;
	if (in->op == PTX_OP_CP_ASYNC && in->nopnds >= 3 && in->opnds[2].kind == PTX_OPND_INT) {
		uint64_t size = in->opnds[2].value;
		bool cg = has_word(k, PTX_DW_CG);
		if (cg ? size != 16 : size != 4 && size != 8 && size != 16)
			fail_at(k, k->locs->opnd_lines[2], k->locs->opnd_cols[2],
			        "'cp.async%s' copies %s bytes, not %llu", cg ? ".cg" : ".ca",
			        cg ? "16" : "4, 8 or 16", (unsigned long long)size);
	}
}

/* Rules of single instructions: integer saturation only on .s32, three-input min/max
 * only on floats from sm_100, float redux from sm_100, setmaxnreg on sm_90a only. */
/* bfe/bfi: an immediate position or length is an 8-bit field (NVIDIA's ptxas: "value '256'
 * out of range, expected to be in range [0..255]"); register operands take any value. */
static void check_field_immediates(struct check *k)
{
	const struct ptx_insn *in = k->in;
	unsigned first = in->op == PTX_OP_BFE ? 2 : in->op == PTX_OP_BFI ? 3 : 0;
	for (unsigned i = first; first && i < first + 2 && i < in->nopnds; i++)
		if (in->opnds[i].kind == PTX_OPND_INT && in->opnds[i].value > 255)
			fail_at(k, k->locs->opnd_lines[i], k->locs->opnd_cols[i],
			        "the %s operand of '%s' is an 8-bit field: %lld is out of range "
			        "[0..255] (use a register for other values)",
			        i == first ? "position" : "length", k->op->name,
			        (long long)in->opnds[i].value);
}

/* st.param to one of the function's input parameters (not a return value): NVIDIA's ptxas
 * refuses it ("Illegal to write to function input parameter"), kernels and .func alike. */
static void check_param_store(struct check *k)
{
	const struct ptx_insn *in = k->in;
	const struct ptx_symbol *fn = k->c->fn;
	if (in->op != PTX_OP_ST || !has_word(k, PTX_DW_PARAM) || !in->nopnds ||
	    in->opnds[0].kind != PTX_OPND_ADDR || !in->opnds[0].sym || !fn || !fn->func)
		return;
	for (uint32_t i = 0; i < fn->func->nparams; i++)
		if (fn->func->params[i] == in->opnds[0].sym)
			fail_at(k, k->locs->opnd_lines[0], k->locs->opnd_cols[0],
			        "'%s' cannot write to the function's input parameter '%s'",
			        k->op->name, in->opnds[0].sym->name);
}

static void check_special_cases(struct check *k)
{
	const struct ptx_insn *in = k->in;
	enum ptx_type t = in->ntypes ? in->types[in->ntypes - 1] : PTX_TYPE_NONE;
	bool is_float = is_floatish(t);
	if ((in->op == PTX_OP_ADD || in->op == PTX_OP_SUB) && !is_float && t != PTX_TYPE_S32 &&
	    has_class(k, PTX_MC_SAT))
		fail_at(k, k->locs->line, k->locs->col, "'%s.sat' takes only .s32 among integers",
		        k->op->name);
	/* the PTX ISA lists .u16x2/.s16x2 for add, min and max only; NVIDIA's ptxas refuses sub
	 * with them ("Unexpected instruction types") */
	if (in->op == PTX_OP_SUB && (t == PTX_TYPE_S16X2 || t == PTX_TYPE_U16X2))
		fail_at(k, k->locs->line, k->locs->col, "'sub' does not take type %s",
		        ptx_types[t].name);
	if ((in->op == PTX_OP_MIN || in->op == PTX_OP_MAX) && in->nopnds == 4) {
		if (t != PTX_TYPE_F32)
			fail_at(k, k->locs->line, k->locs->col,
			        "'%s' with three sources takes only .f32", k->op->name);
		else
			check_feature(k, k->locs->col, "three-source ", k->op->name, 0, 100);
	}
	bool u32_result = in->op == PTX_OP_POPC || in->op == PTX_OP_CLZ || in->op == PTX_OP_BFIND;
	bool bar_red = in->op == PTX_OP_BAR_RED || in->op == PTX_OP_BARRIER_RED;
	if ((u32_result || (bar_red && in->ntypes)) && in->nopnds)
		check_reg_type(k, &in->opnds[0], u32_result ? PTX_TYPE_U32 : in->types[0], 0);
	for (unsigned i = 0; in->op == PTX_OP_MOVMATRIX && i < in->nopnds; i++)
		check_reg_type(k, &in->opnds[i], PTX_TYPE_B32, i);
	if (in->op == PTX_OP_CVTA && t == PTX_TYPE_U32 && k->c->mod.address_size == 64)
		fail_at(k, k->locs->line, k->locs->col, "'cvta.u32' needs '.address_size 32'");
	if ((in->op == PTX_OP_LD || in->op == PTX_OP_LDU) && in->nopnds &&
	    in->opnds[0].kind == PTX_OPND_SINK)
		fail_at(k, k->locs->opnd_lines[0], k->locs->opnd_cols[0],
		        "'%s' cannot discard its result into '_'", k->op->name);
	check_param_store(k);
	check_shape_counts(k);
	check_field_immediates(k);
	/* set/setp: a boolean operation exactly when there is a predicate operand c (NVIDIA's
	 * ptxas: "Boolean operation is required", "Arguments mismatch") */
	if ((in->op == PTX_OP_SETP || in->op == PTX_OP_SET) && in->nopnds >= 3) {
		bool with_c = in->nopnds == 4, with_bool = has_class(k, PTX_MC_BOOL);
		if (with_c && !with_bool)
			fail_at(k, k->locs->opnd_lines[3], k->locs->opnd_cols[3],
			        "'%s' with a predicate operand c needs a boolean operation "
			        "(.and, .or, .xor)",
			        k->op->name);
		else if (with_bool && !with_c)
			fail_at(k, k->locs->line, mod_col(k, PTX_MC_BOOL),
			        "'%s' with a boolean operation needs a predicate operand c",
			        k->op->name);
	}
	if (in->op == PTX_OP_REDUX && is_float)
		check_feature(k, k->locs->col, "floating-point ", k->op->name, 0, 100);
	if (in->op == PTX_OP_SETMAXNREG && k->c->mod.sm && !k->c->mod.sm_arch_specific)
		fail_at(k, k->locs->line, k->locs->col,
		        "'setmaxnreg' needs an architecture-specific target (sm_90a)");
}

/* Modifier combinations the table cannot express as classes. */
static void check_combinations(struct check *k)
{
	struct ptx_insn *in = k->in;
	check_type_set(k);
	check_required(k);
	check_mma_types(k);
	check_atom_types(k);
	check_special_cases(k);
	if (in->op == PTX_OP_CVT)
		check_cvt(k);
	if (!in->ntypes || in->op == PTX_OP_CVT)
		return;
	check_float_modes(k);
	check_compare(k);
	const struct ptx_type_info *t = &ptx_types[in->types[in->ntypes - 1]];
	bool is_float = t->cls == PTX_TC_FLOAT || t->cls == PTX_TC_PACKED;
	for (unsigned i = 0; i < in->nmods; i++) {
		const struct ptx_dotword_info *w = &ptx_dotwords[in->mods[i]];
		uint64_t cls = w->classes & k->op->classes;
		if (!is_float && cls & (PTX_MC_ROUND | PTX_MC_FTZ | PTX_MC_APPROX) &&
		    in->op != PTX_OP_ATOM && in->op != PTX_OP_RED)
			fail_at(k, k->locs->line, k->locs->mod_cols[i],
			        "modifier '%s' of '%s' requires a floating-point type", w->text,
			        k->op->name);
		if (is_float && cls & PTX_MC_MUL)
			fail_at(k, k->locs->line, k->locs->mod_cols[i],
			        "modifier '%s' of '%s' requires an integer type", w->text,
			        k->op->name);
	}
	if ((in->op == PTX_OP_SHFL || in->op == PTX_OP_VOTE) && !has_word(k, PTX_DW_SYNC))
		check_unsync(k);
	if ((in->op == PTX_OP_SETP || in->op == PTX_OP_SET) && !has_class(k, PTX_MC_CMP))
		fail_at(k, k->locs->line, k->locs->col, "'%s' needs a comparison operator",
		        k->op->name);
}

static enum ptx_type widen(enum ptx_type t)
{
	switch (t) {
	case PTX_TYPE_S16:
		return PTX_TYPE_S32;
	case PTX_TYPE_S32:
		return PTX_TYPE_S64;
	case PTX_TYPE_U16:
		return PTX_TYPE_U32;
	case PTX_TYPE_U32:
		return PTX_TYPE_U64;
	default:
		return t;
	}
}

/* PTX type compatibility of a register of type `rt` where `it` is expected (PTX ISA
 * "Type Information for Instructions and Operands" and, with `relaxed` (ld, st, cvt),
 * "Operand Size Exceeding Instruction-Type Size"): a bit-size type accepts any type of
 * its size (any wider one when relaxed); signed and unsigned integers accept each
 * other and bit types; a float type accepts the float of its size and bit types
 * (wider bit types when relaxed), never integers. */
static bool compatible(enum ptx_type it, enum ptx_type rt, bool relaxed)
{
	const struct ptx_type_info *i = &ptx_types[it], *r = &ptx_types[rt];
	if (it == rt)
		return true;
	if (i->cls == PTX_TC_PRED || r->cls == PTX_TC_PRED || i->cls == PTX_TC_OPAQUE ||
	    r->cls == PTX_TC_OPAQUE)
		return false;
	if (relaxed ? r->bits < i->bits : r->bits != i->bits)
		return false;
	switch (i->cls) {
	case PTX_TC_BIT:
		return true;
	case PTX_TC_UINT:
	case PTX_TC_SINT:
		return r->cls == PTX_TC_BIT || r->cls == PTX_TC_UINT || r->cls == PTX_TC_SINT;
	default: /* FLOAT, PACKED */
		return r->cls == PTX_TC_BIT || (r->cls == i->cls && r->bits == i->bits);
	}
}

/* Name of a register operand as written: "%r5" for element 5 of a range. */
static const char *reg_name(const struct ptx_operand *o, char *buf, size_t size)
{
	if (o->sym->range)
		snprintf(buf, size, "%.60s%u", o->sym->name, o->index);
	else
		snprintf(buf, size, "%.60s", o->sym->name);
	return buf;
}

static void check_reg_type(struct check *k, const struct ptx_operand *o, enum ptx_type want,
                           unsigned idx)
{
	if (o->kind != PTX_OPND_REG && o->kind != PTX_OPND_SREG)
		return;
	if (o->sym->type == want) /* the common case: every rule below accepts it */
		return;
	/* special registers may be read into a narrower type (mov.u16 h, %tid.x) */
	bool relaxed = k->op->flags & PTX_OF_RELAXED_SIZE || o->kind == PTX_OPND_SREG;
	/* AMD wave64 (docs/WARP.md): lane masks are as wide as the wave, so activemask may
	 * write, and %lanemask_* be read as, 64 bits; the code generator checks the width
	 * against the target's wave size. */
	bool wave_mask = (k->in->op == PTX_OP_ACTIVEMASK && o->kind == PTX_OPND_REG) ||
	                 (o->kind == PTX_OPND_SREG && !strncmp(o->sym->name, "%lanemask_", 10));
	unsigned wbits = ptx_types[want].bits, rbits = ptx_types[o->sym->type].bits;
	if (wave_mask && (wbits == 32 || wbits == 64) && (rbits == 32 || rbits == 64) &&
	    ptx_types[want].cls != PTX_TC_FLOAT && ptx_types[o->sym->type].cls != PTX_TC_FLOAT &&
	    ptx_types[want].cls != PTX_TC_PRED && ptx_types[o->sym->type].cls != PTX_TC_PRED)
		return;
	if (!compatible(want, o->sym->type, relaxed)) {
		char name[80];
		reg_name(o, name, sizeof name);
		fail_at(k, k->locs->opnd_lines[idx], k->locs->opnd_cols[idx],
		        "operand '%s' has type %s, but '%s' expects %s", name,
		        ptx_types[o->sym->type].name, k->op->name, ptx_types[want].name);
	}
}

static const char *kind_name(const struct ptx_operand *o)
{
	switch (o->kind) {
	case PTX_OPND_INT:
	case PTX_OPND_F32:
	case PTX_OPND_F64:
	case PTX_OPND_WARPSZ:
		return "an immediate";
	case PTX_OPND_ADDR:
		return "an address";
	case PTX_OPND_SYM:
		return o->sym->kind == PTX_SYM_VAR ? "a variable" : "a label or function";
	case PTX_OPND_LIST:
		return "a list";
	default:
		return "this operand";
	}
}

/* A variable addressed by name must live in the state space the instruction names. */
static void check_space(struct check *k, const struct ptx_symbol *var, uint32_t line, uint32_t col)
{
	if (k->op->flags & PTX_OF_TWO_SPACES)
		return;
	for (unsigned i = 0; i < k->in->nmods; i++) {
		enum ptx_space sp = ptx_space_of(k->in->mods[i]);
		if (sp == PTX_SPACE_NONE)
			continue;
		if (sp != var->space)
			fail_at(k, line, col, "'%s' is a %s variable, but '%s' accesses %s",
			        var->name, ptx_space_name(var->space), k->op->name,
			        ptx_dotwords[k->in->mods[i]].text);
		return;
	}
}

/* The type a source operand must have: the last type, except for cvt, whose sources
 * have the second type (`cvt.pack.sat.u8.s32.b32 d, a, b, c`: c has the third, and
 * `cvt.rs` takes its random bits as .u32). */
static enum ptx_type source_type(const struct ptx_insn *in, unsigned idx, enum ptx_type last)
{
	if (in->op == PTX_OP_SLCT && idx < 3) /* slct.dtype.ctype d, a, b, c */
		return in->types[0];
	if (in->op != PTX_OP_CVT || in->ntypes < 2)
		return last;
	if (idx == 3)
		return in->ntypes == 3 ? in->types[2] : PTX_TYPE_U32;
	return in->types[1];
}

/* A vector register named without a component (`.reg .v2 .u32 v;` used as `v`). */
static bool is_whole_vector(const struct ptx_operand *o)
{
	return (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_SREG) && !o->comp && o->sym->vec > 1;
}

/* A whole vector register stands for a brace list of its length where the instruction
 * is a .vN vector access (its elements' sizes checked as for a list), and mov packs or
 * unpacks it like a brace list when its total width is the instruction type's. */
static void check_whole_vector(struct check *k, const struct ptx_operand *o, enum ptx_type want,
                               unsigned idx)
{
	unsigned vl = k->vl;
	uint32_t line = k->locs->opnd_lines[idx], col = k->locs->opnd_cols[idx];
	const struct ptx_type_info *elem = &ptx_types[o->sym->type], *w = &ptx_types[want];
	char name[80];
	reg_name(o, name, sizeof name);
	bool vec_access = k->in->op == PTX_OP_LD || k->in->op == PTX_OP_ST ||
	                  k->in->op == PTX_OP_LDU || k->in->op == PTX_OP_MOV;
	if (vl > 1 && vec_access) {
		if (o->sym->vec != vl)
			fail_at(k, line, col, "'%s' has %u elements, but '%s' accesses %u", name,
			        o->sym->vec, k->op->name, vl);
		else if (!compatible(want, o->sym->type, true) &&
		         !(is_floatish(want) && elem->cls != PTX_TC_FLOAT &&
		           elem->bits >= w->bits && elem->cls != PTX_TC_PRED))
			fail_at(k, line, col, "elements of '%s' have type %s, but '%s' expects %s",
			        name, elem->name, k->op->name, w->name);
		return;
	}
	if (k->in->op == PTX_OP_MOV && vl == 1 && o->bits == w->bits && w->cls == PTX_TC_BIT)
		return;
	fail_at(k, line, col, "vector register '%s' cannot be an operand of '%s' here", name,
	        k->op->name);
}

/* The scalar video instructions (vadd..vset), whose sources take .b0-.b3/.h0/.h1. */
static bool is_scalar_video(unsigned op)
{
	return op >= PTX_OP_VADD && op <= PTX_OP_VSET;
}

/* One operand against its signature letter. */
static void check_operand(struct check *k, unsigned idx, char role)
{
	struct ptx_insn *in = k->in;
	const struct ptx_operand *o = &in->opnds[idx];
	uint32_t line = k->locs->opnd_lines[idx], col = k->locs->opnd_cols[idx];
	bool typed = in->ntypes && !(k->op->flags & PTX_OF_NOTYPECHECK);
	enum ptx_type first = in->ntypes ? in->types[0] : PTX_TYPE_NONE;
	enum ptx_type last = in->ntypes ? in->types[in->ntypes - 1] : PTX_TYPE_NONE;
	enum ptx_type want = PTX_TYPE_NONE;
	bool dest = role == 'd' || role == 'D' || role == 'q' || role == 'X';
	if (o->video_sel && (!is_scalar_video(in->op) || dest)) {
		fail_at(k, line, col,
		        "byte and half-word selectors are for sources of scalar video "
		        "instructions");
		return;
	}
	for (unsigned i = 0; i < o->nelems; i++)
		if (o->elems[i].negated) {
			fail_at(k, line, col, "elements of %s cannot be negated",
			        o->kind == PTX_OPND_VEC ? "a vector" : "a list");
			return;
		}
	if (dest) {
		if (o->kind == PTX_OPND_SREG) {
			fail_at(k, line, col, "cannot write to special register '%s'",
			        o->sym->name);
			return;
		}
		if (o->kind != PTX_OPND_REG && o->kind != PTX_OPND_VEC &&
		    o->kind != PTX_OPND_SINK) {
			fail_at(k, line, col, "destination of '%s' must be a register, not %s",
			        k->op->name, kind_name(o));
			return;
		}
		if (o->pair && role != 'D' && role != 'q') {
			fail_at(k, line, col, "'%s' has no second destination", k->op->name);
			return;
		}
		if (o->negated) {
			fail_at(k, line, col, "a destination cannot be negated");
			return;
		}
		want = role == 'q'                ? PTX_TYPE_PRED
		       : role == 'X'              ? PTX_TYPE_NONE
		       : has_word(k, PTX_DW_WIDE) ? widen(first)
		                                  : first;
		if (o->kind == PTX_OPND_REG && o->value) {
			fail_at(k, line, col, "a destination cannot have a constant added");
			return;
		}
		if (o->pair && o->pair->kind == PTX_OPND_REG && o->pair->sym->type != PTX_TYPE_PRED)
			fail_at(k, line, col, "second destination of '%s' must be a .pred register",
			        k->op->name);
	} else if (role == 'm') {
		if (o->kind != PTX_OPND_ADDR) {
			fail_at(k, line, col, "operand %u of '%s' must be an address [..], not %s",
			        idx + 1, k->op->name, kind_name(o));
			return;
		}
		if (!o->sym && !has_word(k, PTX_DW_LOCAL))
			fail_at(k, line, col, "an immediate address needs the .local state space");
		if (o->sym && o->sym->kind == PTX_SYM_VAR && o->sym->space == PTX_SPACE_REG) {
			const struct ptx_type_info *t = &ptx_types[o->sym->type];
			char name[80];
			if (t->cls == PTX_TC_PRED || t->cls == PTX_TC_FLOAT || t->bits < 32)
				fail_at(k, line, col, "address register '%s' has type %s",
				        reg_name(o, name, sizeof name), t->name);
		} else if (o->sym && o->sym->kind != PTX_SYM_VAR) {
			fail_at(k, line, col, "'%s' is not a variable", o->sym->name);
		} else if (o->sym) {
			check_space(k, o->sym, line, col);
		}
		return;
	} else if (role == 'l') {
		if (o->kind != PTX_OPND_SYM ||
		    (o->sym->kind != PTX_SYM_LABEL && o->sym->kind != PTX_SYM_TARGETS))
			fail_at(k, line, col, "operand of '%s' must be a label", k->op->name);
		return;
	} else {
		if (o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_LIST ||
		    (o->kind == PTX_OPND_BRACKET && role != 'x')) {
			fail_at(k, line, col, "operand %u of '%s' cannot be %s", idx + 1,
			        k->op->name, kind_name(o));
			return;
		}
		bool sym_ok = role == 'x' || role == 'A';
		if (o->kind == PTX_OPND_SYM && (!sym_ok || o->sym->kind == PTX_SYM_LABEL)) {
			fail_at(k, line, col, "operand %u of '%s' cannot be %s", idx + 1,
			        k->op->name, kind_name(o));
			return;
		}
		if (o->kind == PTX_OPND_SINK) {
			fail_at(k, line, col, "'_' can only be a destination");
			return;
		}
		want = role == 'p'                  ? PTX_TYPE_PRED
		       : role == 'u'                ? PTX_TYPE_U32
		       : role == 'a' || role == 'A' ? source_type(in, idx, last)
		                                    : PTX_TYPE_NONE;
		/* a predicate source may be a register or an integer constant (0 false) */
		if (role == 'p' && o->kind != PTX_OPND_REG && o->kind != PTX_OPND_INT) {
			fail_at(k, line, col, "operand %u of '%s' must be a predicate", idx + 1,
			        k->op->name);
			return;
		}
		bool is_pred = ((o->kind == PTX_OPND_REG || o->kind == PTX_OPND_SREG) &&
		                o->sym->type == PTX_TYPE_PRED) ||
		               (o->kind == PTX_OPND_INT && role == 'p');
		if (o->negated && !is_pred)
			fail_at(k, line, col, "only predicate operands can be negated with '!'");
		uint8_t cls = ptx_types[want].cls;
		if ((o->kind == PTX_OPND_F32 || o->kind == PTX_OPND_F64) && typed &&
		    (cls == PTX_TC_SINT || cls == PTX_TC_UINT || cls == PTX_TC_PRED))
			fail_at(k, line, col, "floating-point immediate for %s operand of '%s'",
			        ptx_types[want].name, k->op->name);
		unsigned fbits = o->kind == PTX_OPND_F32 ? 32 : o->kind == PTX_OPND_F64 ? 64 : 0;
		if (fbits && typed && cls == PTX_TC_BIT && ptx_types[want].bits != fbits)
			fail_at(k, line, col,
			        "a %u-bit floating-point immediate for %s operand of '%s'", fbits,
			        ptx_types[want].name, k->op->name);
		if (o->kind == PTX_OPND_INT && typed &&
		    (cls == PTX_TC_FLOAT || cls == PTX_TC_PACKED))
			fail_at(k, line, col,
			        "integer immediate for %s operand of '%s' (write 0f/0d hex floats)",
			        ptx_types[want].name, k->op->name);
	}
	if (!typed && role != 'p' && role != 'q')
		return;
	if (want == PTX_TYPE_NONE)
		return;
	if (has_word(k, PTX_DW_WIDE) && in->op == PTX_OP_MAD && idx == 3)
		want = widen(last);
	if (o->kind == PTX_OPND_VEC) {
		if (in->op == PTX_OP_MOV && k->vl == 1)
			return; /* packing/unpacking: elements are parts of the scalar */
		for (unsigned i = 0; i < o->nelems; i++)
			check_reg_type(k, &o->elems[i], want, idx);
		return;
	}
	if (is_whole_vector(o)) {
		check_whole_vector(k, o, want, idx);
		return;
	}
	check_reg_type(k, o, want, idx);
	if (o->pair)
		check_reg_type(k, o->pair, PTX_TYPE_PRED, idx);
}

/* The data operands of ld/st/ldu and of mov.vN have as many elements as the .vN says. */
static void check_vector_lengths(struct check *k)
{
	struct ptx_insn *in = k->in;
	unsigned vl = k->vl, first = 0, end = 0;
	if (in->op == PTX_OP_LD || in->op == PTX_OP_LDU)
		end = 1;
	else if (in->op == PTX_OP_ST)
		first = 1, end = 2;
	else if (in->op == PTX_OP_MOV && vl > 1)
		end = 2;
	for (unsigned i = first; i < end && i < in->nopnds; i++) {
		const struct ptx_operand *o = &in->opnds[i];
		if (is_whole_vector(o))
			continue; /* checked with the operand */
		unsigned have = o->kind == PTX_OPND_VEC ? o->nelems : 1;
		if (have != vl)
			fail_at(k, k->locs->opnd_lines[i], k->locs->opnd_cols[i],
			        "'%s' with %u element%s needs %s, found %u element%s", k->op->name,
			        vl, vl == 1 ? "" : "s",
			        vl == 1 ? "a scalar operand" : "a vector operand", have,
			        have == 1 ? "" : "s");
	}
}

static void check_operands(struct check *k)
{
	const char *sig = k->op->sig;
	unsigned min = 0, max = 0, n = k->in->nopnds;
	bool optional = false, unbounded = false;
	for (const char *p = sig; *p; p++) {
		if (*p == '?')
			optional = true;
		else if (*p == '*')
			unbounded = true;
		else {
			max++;
			min += !optional;
		}
	}
	if (n < min || (n > max && !unbounded)) {
		fail_at(k, k->locs->line, k->locs->col, "'%s' takes %s%u operand%s, found %u",
		        k->op->name,
		        min == max ? ""
		        : n < min  ? "at least "
		                   : "at most ",
		        n < min ? min : max, (n < min ? min : max) == 1 ? "" : "s", n);
		return;
	}
	unsigned i = 0;
	for (const char *p = sig; *p && i < n; p++)
		if (*p != '?' && *p != '*')
			check_operand(k, i++, *p);
	check_vector_lengths(k);
}

/* call[.uni] [(rets),] callee [, (args)] [, prototype|targets] */
static void check_call(struct check *k)
{
	struct ptx_insn *in = k->in;
	unsigned i = 0, n = in->nopnds;
	const struct ptx_operand *rets = NULL, *args = NULL, *proto = NULL;
	if (i < n && in->opnds[i].kind == PTX_OPND_LIST)
		rets = &in->opnds[i++];
	if (i >= n) {
		fail_at(k, k->locs->line, k->locs->col, "'call' needs a function to call");
		return;
	}
	const struct ptx_operand *callee = &in->opnds[i++];
	unsigned callee_idx = i - 1;
	if (i < n && in->opnds[i].kind == PTX_OPND_LIST)
		args = &in->opnds[i++];
	if (i < n)
		proto = &in->opnds[i++];
	if (i < n) {
		fail_at(k, k->locs->opnd_lines[i], k->locs->opnd_cols[i],
		        "unexpected operand after the call target");
		return;
	}
	const struct ptx_func_info *f = NULL;
	uint32_t line = k->locs->opnd_lines[callee_idx], col = k->locs->opnd_cols[callee_idx];
	for (unsigned j = 0; j < n; j++) {
		const struct ptx_operand *o = &in->opnds[j];
		bool negated = o->negated;
		for (unsigned e = 0; e < o->nelems; e++)
			negated |= o->elems[e].negated;
		if (negated) {
			fail_at(k, k->locs->opnd_lines[j], k->locs->opnd_cols[j],
			        "call operands cannot be negated");
			return;
		}
	}
	if (callee->kind == PTX_OPND_SYM && callee->sym->kind == PTX_SYM_FUNC) {
		f = callee->sym->func;
		if (proto)
			fail_at(k, line, col, "a direct call takes no prototype");
	} else if (callee->kind == PTX_OPND_REG) {
		if (!proto || proto->kind != PTX_OPND_SYM ||
		    (proto->sym->kind != PTX_SYM_PROTO && proto->sym->kind != PTX_SYM_TARGETS)) {
			fail_at(k, line, col,
			        "an indirect call needs a .callprototype or .calltargets label");
			return;
		}
		f = proto->sym->func;
	} else {
		fail_at(k, line, col, "call target must be a function or a register");
		return;
	}
	if (!f)
		return;
	unsigned nr = rets ? rets->nelems : 0, na = args ? args->nelems : 0;
	if (nr != f->nrets)
		fail_at(k, line, col, "call passes %u return value%s, the callee has %u", nr,
		        nr == 1 ? "" : "s", f->nrets);
	if (na != f->nparams)
		fail_at(k, line, col, "call passes %u argument%s, the callee takes %u", na,
		        na == 1 ? "" : "s", f->nparams);
	if (f->is_entry)
		fail_at(k, line, col, "kernels (.entry) cannot be called");
}

bool ptx_check_insn(struct ptx_ctx *c, struct ptx_insn *in, const struct ptx_insn_locs *locs)
{
	struct check k = {.c = c, .in = in, .locs = locs, .op = &ptx_ops[in->op], .ok = true};
	index_modifiers(&k);
	check_modifiers(&k);
	if (!k.ok)
		return false; /* operand types depend on the modifiers: avoid cascades */
	check_combinations(&k);
	if (k.op->flags & PTX_OF_CALL)
		check_call(&k);
	else
		check_operands(&k);
	return k.ok;
}
