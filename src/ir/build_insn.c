/* ir_build, part 2: PTX instructions -> IR operations with exact PTX semantics.
 *
 * Each PTX instruction becomes a few IR operations: operands are read as SSA values of
 * the instruction's type (registers wider or narrower than the type are truncated or
 * extended as the PTX ISA's relaxed size rules say, bit types are reinterpreted with a
 * bitcast), results written back to the destination registers.  A guard predicate turns
 * a pure instruction into a select with the register's old value, and puts anything
 * with effects (memory, barriers, exits) into a block of its own behind a branch.
 * Anything the code generator does not handle yet is an error naming the instruction
 * at its line and column.  O(1) per instruction. */
#include <string.h>

#include "ir/build_int.h"

/* ---- the instruction's words ---- */

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

/* The full mnemonic as written ("atom.global.add.u32"), for messages. */
static const char *mnemonic(struct irb *b, const struct ptx_insn *in)
{
	size_t n = strlen(ptx_ops[in->op].name) + 1;
	for (unsigned i = 0; i < in->nmods; i++)
		n += strlen(ptx_dotwords[in->mods[i]].text);
	char *s = PA_NEW_ARRAY(b->arena, char, n);
	strcpy(s, ptx_ops[in->op].name);
	for (unsigned i = 0; i < in->nmods; i++)
		strcat(s, ptx_dotwords[in->mods[i]].text);
	return s;
}

static void unsupported(struct irb *b, const struct ptx_insn *in, const char *why)
{
	irb_error(b, "'%s' is not supported by the code generator yet%s%s", mnemonic(b, in),
	          why ? ": " : "", why ? why : "");
}

static enum ptx_type_class tclass(enum ptx_type t)
{
	return (enum ptx_type_class)ptx_types[t].cls;
}

static bool is_signed(enum ptx_type t)
{
	return tclass(t) == PTX_TC_SINT;
}

/* The IR type that holds a PTX type (8- and 16-bit integers compute in 32 bits, from
 * operands extended as the instruction's signedness says; results written to 16-bit
 * registers are truncated again, so wrap-around is exact). */
static enum ir_type hold_type(enum ptx_type t)
{
	if ((ptx_types[t].bits == 8 || ptx_types[t].bits == 16) && tclass(t) != PTX_TC_FLOAT &&
	    t != PTX_TYPE_PRED)
		return IR_T_I32;
	return irb_ptx_type(t);
}

static ir_ref emit1(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, uint32_t aux)
{
	return irb_emit(b, op, t, &a, 1, aux, 0);
}

static ir_ref emit2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, uint32_t aux)
{
	ir_ref args[2] = {a, c};
	return irb_emit(b, op, t, args, 2, aux, 0);
}

static ir_ref emit3(struct irb *b, enum ir_op op, enum ir_type t, ir_ref a, ir_ref c, ir_ref e,
                    uint32_t aux)
{
	ir_ref args[3] = {a, c, e};
	return irb_emit(b, op, t, args, 3, aux, 0);
}

/* Converts v to type `want`: same width reinterprets, other widths extend or truncate. */
static ir_ref adapt(struct irb *b, ir_ref v, enum ir_type want, bool sign)
{
	enum ir_type have = (enum ir_type)b->fn->vals[v].type;
	if (have == want || want == IR_T_NONE)
		return v;
	unsigned hb = ir_type_bits(have), wb = ir_type_bits(want);
	if (have == IR_T_PRED || want == IR_T_PRED) {
		irb_error(b, "predicate used as a %u-bit value", wb);
		return ir_undef(b->fn, want);
	}
	if (hb == wb)
		return emit1(b, IR_BITCAST, want, v, 0);
	enum ir_type ihave = hb == 16 ? IR_T_I16 : hb == 32 ? IR_T_I32 : IR_T_I64;
	enum ir_type iwant = wb == 16 ? IR_T_I16 : wb == 32 ? IR_T_I32 : IR_T_I64;
	if (ihave != have)
		v = emit1(b, IR_BITCAST, ihave, v, 0);
	v = emit1(b, wb > hb ? (sign ? IR_SEXT : IR_ZEXT) : IR_TRUNC, iwant, v, 0);
	if (iwant != want)
		v = emit1(b, IR_BITCAST, want, v, 0);
	return v;
}

static const char *const sreg_names[] = {"%tid", "%ntid", "%ctaid", "%nctaid"};

/* %clock/%clock_hi/%clock64 read the cycle counter, %globaltimer(_lo/_hi) the realtime counter
 * (100 MHz on every target, times 10: nanoseconds, in steps of 10 ns); %smid/%nsmid the CU or
 * WGP id and its bound (ir.h); %envreg<N> (driver-defined, PTX ISA) and %pm<N>, %pmN_64
 * (undefined) read 0; %nwarpid and the shared memory sizes.  IR_NO_REF: not one of these. */
static ir_ref read_misc_sreg(struct irb *b, const char *name)
{
	bool clock = !strncmp(name, "%clock", 6), timer = !strncmp(name, "%globaltimer", 12);
	if (clock || timer) {
		ir_ref t = irb_emit(b, IR_TIMER, IR_T_I64, NULL, 0,
		                    clock ? IR_TIMER_CYCLES : IR_TIMER_REALTIME, 0);
		if (timer)
			t = emit2(b, IR_MUL, IR_T_I64, t, ir_const(b->fn, IR_T_I64, 10), 0);
		const char *suffix = name + (clock ? 6 : 12);
		if (!strcmp(suffix, "_hi"))
			t = emit2(b, IR_SHR_U, IR_T_I64, t, ir_const(b->fn, IR_T_I64, 32), 0);
		if (!strcmp(suffix, "64") || (!*suffix && timer))
			return t;
		return emit1(b, IR_TRUNC, IR_T_I32, t, 0);
	}
	if (!strcmp(name, "%smid"))
		return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_SMID, 0);
	if (!strcmp(name, "%nsmid"))
		return ir_const(b->fn, IR_T_I32, IR_NSMID);
	if (!strcmp(name, "%envreg") || !strcmp(name, "%pm")) /* %pm<N>: "behavior undefined" */
		return ir_const(b->fn, IR_T_I32, 0);
	/* memcmp on a known length: gcc's -Wstringop-overread took strcmp(name + 4) for a read
	 * past a 4-byte name under ASan -O2 */
	if (strlen(name) == 7 && !memcmp(name, "%pm", 3) && name[3] >= '0' && name[3] <= '7' &&
	    !memcmp(name + 4, "_64", 3))
		return ir_const(b->fn, IR_T_I64, 0); /* %pm0_64..%pm7_64: as %pm<N> */
	if (!strcmp(name, "%nwarpid")) /* %warpid < 1024 threads / warp size (build_warp.c) */
		return ir_const(b->fn, IR_T_I32, 1024 / b->fn->warp_size);
	if (!strcmp(name, "%gridid")) /* the dispatch packet's id: a launch number of the queue */
		return irb_emit(b, IR_SREG, IR_T_I64, NULL, 0, IR_SREG_GRIDID, 0);
	if (!strcmp(name, "%dynamic_smem_size"))
		return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_DYN_SMEM, 0);
	/* no LDS is reserved outside the kernel's own allocation: aggregate = total */
	if (!strcmp(name, "%total_smem_size") || !strcmp(name, "%aggr_smem_size"))
		return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_TOTAL_SMEM, 0);
	return IR_NO_REF;
}

static ir_ref read_sreg(struct irb *b, const struct ptx_operand *o)
{
	const char *name = o->sym->name;
	for (unsigned k = 0; k < 4; k++)
		if (!strcmp(name, sreg_names[k]) && o->comp >= 1 && o->comp <= 3)
			return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, k * 3 + o->comp - 1, 0);
	if (!strcmp(name, "%laneid"))
		return irb_laneid(b); /* build_warp.c */
	if (!strcmp(name, "%warpid"))
		return irb_warpid(b);
	if (!strcmp(name, "%reserved_smem_offset_1"))
		return irb_reserved_smem(b); /* build_bar.c */
	ir_ref t = irb_cluster_sreg(b, o);   /* build_async.c */
	if (t != IR_NO_REF)
		return t;
	t = read_misc_sreg(b, name);
	if (t != IR_NO_REF)
		return t;
	irb_error(b, "special register '%s' is not supported by the code generator yet", name);
	return ir_undef(b->fn, IR_T_I32);
}

uint32_t irb_new_symvar(struct irb *b, const struct ir_symvar *v)
{
	struct ir_function *fn = b->fn;
	if (fn->nsymvars == fn->symvars_cap) {
		uint32_t ncap = fn->symvars_cap ? fn->symvars_cap * 2 : 8;
		struct ir_symvar *nv = PA_NEW_ARRAY(b->arena, struct ir_symvar, ncap);
		if (fn->symvars)
			memcpy(nv, fn->symvars, fn->nsymvars * sizeof *nv);
		fn->symvars = nv;
		fn->symvars_cap = ncap;
	}
	fn->symvars[fn->nsymvars] = *v;
	return fn->nsymvars++;
}

static uint32_t symvar_index(struct irb *b, const struct ptx_symbol *s)
{
	struct ir_function *fn = b->fn;
	for (uint32_t i = 0; i < fn->nsymvars; i++)
		if (fn->symvars[i].sym == s)
			return i;
	uint64_t size = (ptx_types[s->type].bits / 8) * (uint64_t)(s->vec ? s->vec : 1);
	for (unsigned k = 0; k < s->ndims; k++)
		size *= s->dims[k];
	uint8_t space = s->space == PTX_SPACE_SHARED   ? IR_SPACE_SHARED
	                : s->space == PTX_SPACE_GLOBAL ? IR_SPACE_GLOBAL
	                : s->space == PTX_SPACE_CONST  ? IR_SPACE_CONST
	                : s->space == PTX_SPACE_LOCAL  ? IR_SPACE_LOCAL
	                                               : IR_SPACE_GENERIC;
	uint32_t elem = (uint32_t)(ptx_types[s->type].bits / 8) * (s->vec ? s->vec : 1);
	struct ir_symvar v = {
	        .sym = s, .space = space, .size = size, .align = s->align ? s->align : elem};
	return irb_new_symvar(b, &v);
}

/* Address of a variable: SYMADDR (aux = its space), as a `t` value. */
static ir_ref sym_address(struct irb *b, const struct ptx_symbol *s, enum ir_type t)
{
	uint32_t idx = 0;
	if (s->kind != PTX_SYM_VAR || s->space == PTX_SPACE_PARAM || s->space == PTX_SPACE_REG) {
		irb_error(b, "the address of '%s' is not supported by the code generator yet",
		          s->name);
		return ir_undef(b->fn, t);
	}
	idx = symvar_index(b, s);
	return irb_emit(b, IR_SYMADDR, t, NULL, 0, b->fn->symvars[idx].space, idx);
}

/* Reads a source operand as a value of type `want` (sign: how to extend a narrower
 * register). */
static ir_ref read_opnd(struct irb *b, const struct ptx_operand *o, enum ir_type want, bool sign)
{
	switch (o->kind) {
	case PTX_OPND_REG: {
		int32_t var = irb_opnd_var(b, o);
		if (var < 0)
			return ir_undef(b->fn, want);
		ir_ref v = irb_read_var(b, (uint32_t)var, b->cur);
		if (o->negated)
			v = emit1(b, IR_NOT, IR_T_PRED, adapt(b, v, IR_T_PRED, false), 0);
		if (o->value) { /* `r + 4`: the register's value plus the constant */
			enum ir_type vt = (enum ir_type)b->fn->vals[v].type;
			if (ir_type_is_float(vt) ||
			    vt == IR_T_PRED) { /* an error if used (sel_sys.c) */
				int64_t at = (int64_t)b->line << 20 | b->col; /* never merged */
				return adapt(b, irb_emit(b, IR_UNUSABLE, vt, NULL, 0, 0, at), want,
				             sign);
			}
			v = emit2(b, IR_ADD, vt, v, ir_const(b->fn, vt, o->value), 0);
		}
		return adapt(b, v, want, sign);
	}
	case PTX_OPND_SREG:
		if (irb_is_lanemask_sreg(b, o->sym->name, want)) /* build_warp.c */
			return adapt(b, irb_lanemask(b, o->sym->name), want, false);
		return adapt(b, read_sreg(b, o), want, false);
	case PTX_OPND_INT:
		if (want == IR_T_F32) {
			float f = (float)(int64_t)o->value;
			uint32_t bits;
			memcpy(&bits, &f, 4);
			return ir_const(b->fn, want, bits);
		}
		if (want == IR_T_F64) {
			double f = (double)(int64_t)o->value;
			uint64_t bits;
			memcpy(&bits, &f, 8);
			return ir_const(b->fn, want, bits);
		}
		if (want == IR_T_PRED) /* `!1` is false */
			return ir_const(b->fn, want, (o->value != 0) != o->negated);
		return ir_const(b->fn, want, o->value);
	case PTX_OPND_F32:
	case PTX_OPND_F64: {
		double dv;
		if (o->kind == PTX_OPND_F32) {
			float f;
			uint32_t bits = (uint32_t)o->value;
			memcpy(&f, &bits, 4);
			dv = f;
		} else {
			memcpy(&dv, &o->value, 8);
		}
		if (want == IR_T_F64) {
			uint64_t bits;
			memcpy(&bits, &dv, 8);
			return ir_const(b->fn, want, o->kind == PTX_OPND_F64 ? o->value : bits);
		}
		if (want == IR_T_F32 && o->kind == PTX_OPND_F32)
			return ir_const(b->fn, want, o->value);
		if (want == IR_T_F32) {
			float f = (float)dv;
			uint32_t bits;
			memcpy(&bits, &f, 4);
			return ir_const(b->fn, want, bits);
		}
		return ir_const(b->fn, want, o->value); /* bit pattern into an integer */
	}
	case PTX_OPND_SYM:
		if (o->sym->kind == PTX_SYM_VAR) {
			ir_ref a = sym_address(b, o->sym, want == IR_T_I32 ? IR_T_I32 : IR_T_I64);
			if (o->value)
				a = emit2(b, IR_ADD, (enum ir_type)b->fn->vals[a].type, a,
				          ir_const(b->fn, (enum ir_type)b->fn->vals[a].type,
				                   o->value),
				          0);
			return adapt(b, a, want, false);
		}
		if (o->sym->kind == PTX_SYM_FUNC) { /* a function pointer (inline.c) */
			if (o->value || ir_type_bits(want) != 64) {
				irb_error(b,
				          "the address of function '%s' is only supported as a "
				          "64-bit value without offset",
				          o->sym->name);
				return ir_undef(b->fn, want);
			}
			if (b->fn->fnptr_address) { /* its code address (docs/CALLS.md) */
				struct ir_symvar v = {
				        .sym = o->sym, .space = IR_SPACE_GLOBAL, .align = 4};
				uint32_t idx = UINT32_MAX;
				for (uint32_t i = 0; i < b->fn->nsymvars; i++)
					if (b->fn->symvars[i].sym == o->sym)
						idx = i;
				if (idx == UINT32_MAX)
					idx = irb_new_symvar(b, &v);
				return irb_emit(b, IR_SYMADDR, want, NULL, 0, IR_SPACE_GLOBAL, idx);
			}
			return ir_const(b->fn, want, ir_func_pointer(o->sym->name));
		}
		break;
	case PTX_OPND_WARPSZ: /* a compile-time constant: the warp size (docs/WARP.md) */
		return adapt(b, ir_const(b->fn, IR_T_I32, b->fn->warp_size), want, false);
	default:
		break;
	}
	irb_error(b, "operand form not supported by the code generator yet");
	return ir_undef(b->fn, want);
}

/* Writes v to a destination register, extending or truncating to the register's width;
 * under a guard that selects only when the predicate is true, merges with the old value. */
static void write_dest(struct irb *b, const struct ptx_operand *o, ir_ref v, bool sign,
                       ir_ref guard)
{
	if (o->kind == PTX_OPND_SINK)
		return;
	if (o->kind != PTX_OPND_REG) {
		irb_error(b, "destination form not supported by the code generator yet");
		return;
	}
	int32_t var = irb_opnd_var(b, o);
	if (var < 0)
		return;
	enum ir_type vt = (enum ir_type)b->var_type[var];
	v = adapt(b, v, vt, sign);
	if (guard != IR_NO_REF) {
		ir_ref old = irb_read_var(b, (uint32_t)var, b->cur);
		v = emit3(b, IR_SELECT, vt, guard, v, old, 0);
	}
	irb_write_var(b, (uint32_t)var, b->cur, v);
}

/* ---- per-instruction translation ---- */

struct tr {
	const struct ptx_insn *in;
	enum ptx_type type; /* types[0] */
	enum ir_type t;     /* its IR type */
	bool sign;
	ir_ref guard; /* pure instruction under a guard: select with the old value */
};

static ir_ref src(struct irb *b, struct tr *x, unsigned i)
{
	const struct ptx_operand *o = &x->in->opnds[i];
	unsigned bits = ptx_types[x->type].bits;
	if (o->kind == PTX_OPND_INT && bits < 32 && !ir_type_is_float(x->t)) {
		/* a narrow instruction's immediate is a value of its type, held in 32 bits as its
		 * registers are (zero- or sign-extended): mul.hi.u16 by -21845 multiplies by
		 * 0xaaab */
		uint64_t v = (uint64_t)o->value & ((1ull << bits) - 1);
		if (x->sign && (v >> (bits - 1)))
			v |= ~0ull << bits;
		return ir_const(b->fn, x->t, v);
	}
	return read_opnd(b, o, x->t, x->sign);
}

static void dst(struct irb *b, struct tr *x, unsigned i, ir_ref v)
{
	write_dest(b, &x->in->opnds[i], v, x->sign, x->guard);
}

static uint32_t float_mods(struct irb *b, const struct ptx_insn *in, bool *ok)
{
	uint32_t aux = 0;
	*ok = true;
	if (has(in, PTX_DW_RZ))
		aux |= IR_FM_RZ;
	if (has(in, PTX_DW_RM))
		aux |= IR_FM_RM;
	if (has(in, PTX_DW_RP))
		aux |= IR_FM_RP;
	if (has(in, PTX_DW_FTZ))
		aux |= IR_FM_FTZ;
	if (has(in, PTX_DW_SAT))
		aux |= IR_FM_SAT;
	if (has(in, PTX_DW_APPROX))
		aux |= IR_FM_APPROX;
	(void)b;
	return aux;
}

static bool tr_int_or_float(struct irb *b, struct tr *x, enum ir_op iop, enum ir_op fop)
{
	const struct ptx_insn *in = x->in;
	if (ir_type_is_float(x->t)) {
		bool ok;
		uint32_t aux = float_mods(b, in, &ok);
		if (fop == IR_NUM_OPS) {
			unsupported(b, in, NULL);
			return false;
		}
		ir_ref r = ir_ops[fop].nargs == 1
		                   ? emit1(b, fop, x->t, src(b, x, 1), aux)
		                   : emit2(b, fop, x->t, src(b, x, 1), src(b, x, 2), aux);
		dst(b, x, 0, r);
		return true;
	}
	if (iop == IR_NUM_OPS || x->t == IR_T_NONE) {
		unsupported(b, in, NULL);
		return false;
	}
	if (has(in, PTX_DW_SAT) || has(in, PTX_DW_CC)) {
		unsupported(b, in,
		            has(in, PTX_DW_CC) ? "carry chains (.cc)" : "integer saturation");
		return false;
	}
	ir_ref r = ir_ops[iop].nargs == 1 ? emit1(b, iop, x->t, src(b, x, 1), 0)
	                                  : emit2(b, iop, x->t, src(b, x, 1), src(b, x, 2), 0);
	dst(b, x, 0, r);
	return true;
}

static enum ir_type wider(enum ir_type t)
{
	return t == IR_T_I16 ? IR_T_I32 : IR_T_I64;
}

/* mul/mad: .lo .hi .wide */
static void tr_mul(struct irb *b, struct tr *x, bool is_mad)
{
	const struct ptx_insn *in = x->in;
	if (ir_type_is_float(x->t)) {
		bool ok;
		uint32_t aux = float_mods(b, in, &ok);
		ir_ref r = is_mad ? emit3(b, IR_FMA, x->t, src(b, x, 1), src(b, x, 2), src(b, x, 3),
		                          aux)
		                  : emit2(b, IR_FMUL, x->t, src(b, x, 1), src(b, x, 2), aux);
		dst(b, x, 0, r);
		return;
	}
	if (has(in, PTX_DW_SAT) || has(in, PTX_DW_CC)) {
		unsupported(b, in, NULL);
		return;
	}
	ir_ref a = src(b, x, 1), c = src(b, x, 2), r;
	enum ir_type rt = x->t;
	if (ptx_types[x->type].bits == 16) { /* extended operands: the 32-bit product is exact */
		r = emit2(b, IR_MUL, rt, a, c, 0);
		if (has(in, PTX_DW_HI))
			r = emit2(b, x->sign ? IR_SHR_S : IR_SHR_U, rt, r,
			          ir_const(b->fn, IR_T_I32, 16), 0);
	} else if (has(in, PTX_DW_WIDE)) {
		if (x->t == IR_T_I64) {
			unsupported(b, in, NULL);
			return;
		}
		rt = wider(x->t);
		a = emit1(b, x->sign ? IR_SEXT : IR_ZEXT, rt, a, 0);
		c = emit1(b, x->sign ? IR_SEXT : IR_ZEXT, rt, c, 0);
		r = emit2(b, IR_MUL, rt, a, c, 0);
	} else if (has(in, PTX_DW_HI)) {
		r = emit2(b, x->sign ? IR_MULHI_S : IR_MULHI_U, rt, a, c, 0);
	} else {
		r = emit2(b, IR_MUL, rt, a, c, 0);
	}
	if (is_mad)
		r = emit2(b, IR_ADD, rt, r, read_opnd(b, &in->opnds[3], rt, x->sign), 0);
	write_dest(b, &in->opnds[0], r, x->sign, x->guard);
}

static bool cmp_of(const struct ptx_insn *in, bool is_float, bool sign, enum ir_cmp *out)
{
	static const struct {
		enum ptx_dotword w;
		enum ir_cmp c, uc; /* signed/ordered, unsigned */
	} map[] = {
	        {PTX_DW_EQ, IR_CMP_EQ, IR_CMP_EQ},    {PTX_DW_NE, IR_CMP_NE, IR_CMP_NE},
	        {PTX_DW_LT, IR_CMP_LT, IR_CMP_LTU},   {PTX_DW_LE, IR_CMP_LE, IR_CMP_LEU},
	        {PTX_DW_GT, IR_CMP_GT, IR_CMP_GTU},   {PTX_DW_GE, IR_CMP_GE, IR_CMP_GEU},
	        {PTX_DW_LO, IR_CMP_LTU, IR_CMP_LTU},  {PTX_DW_LS, IR_CMP_LEU, IR_CMP_LEU},
	        {PTX_DW_HI, IR_CMP_GTU, IR_CMP_GTU},  {PTX_DW_HS, IR_CMP_GEU, IR_CMP_GEU},
	        {PTX_DW_EQU, IR_CMP_EQU, IR_CMP_EQU}, {PTX_DW_NEU, IR_CMP_NEU, IR_CMP_NEU},
	        {PTX_DW_LTU, IR_CMP_LTU, IR_CMP_LTU}, {PTX_DW_LEU, IR_CMP_LEU, IR_CMP_LEU},
	        {PTX_DW_GTU, IR_CMP_GTU, IR_CMP_GTU}, {PTX_DW_GEU, IR_CMP_GEU, IR_CMP_GEU},
	        {PTX_DW_NUM, IR_CMP_NUM, IR_CMP_NUM}, {PTX_DW_NAN, IR_CMP_NAN, IR_CMP_NAN},
	};
	for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
		if (ptx_insn_has_mod(in, map[i].w)) {
			if (!is_float && (map[i].w == PTX_DW_LO || map[i].w == PTX_DW_LS ||
			                  map[i].w == PTX_DW_HI || map[i].w == PTX_DW_HS))
				*out = map[i].c;
			else if (!is_float && map[i].c >= IR_CMP_LTU)
				return false; /* unordered comparisons exist for floats only */
			else
				*out = is_float || sign ? map[i].c : map[i].uc;
			return true;
		}
	return false;
}

static void tr_setp(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	enum ir_cmp cmp;
	bool is_float = ir_type_is_float(x->t);
	if (x->t == IR_T_NONE || !cmp_of(in, is_float, x->sign, &cmp)) {
		unsupported(b, in, NULL);
		return;
	}
	uint32_t aux = cmp | (has(in, PTX_DW_FTZ) ? IR_FM_FTZ << 8 : 0);
	ir_ref r =
	        emit2(b, is_float ? IR_FCMP : IR_ICMP, IR_T_PRED, src(b, x, 1), src(b, x, 2), aux);
	ir_ref nr = IR_NO_REF;
	const struct ptx_operand *d = &in->opnds[0];
	if (in->nopnds > 3) { /* setp.CMP.BOOL p[|q], a, b, c */
		ir_ref c = read_opnd(b, &in->opnds[3], IR_T_PRED, false);
		enum ir_op bop = has(in, PTX_DW_AND) ? IR_AND : has(in, PTX_DW_OR) ? IR_OR : IR_XOR;
		if (d->pair)
			nr = emit2(b, bop, IR_T_PRED, emit1(b, IR_NOT, IR_T_PRED, r, 0), c, 0);
		r = emit2(b, bop, IR_T_PRED, r, c, 0);
	} else if (d->pair) {
		nr = emit1(b, IR_NOT, IR_T_PRED, r, 0);
	}
	write_dest(b, d, r, false, x->guard);
	if (d->pair)
		write_dest(b, d->pair, nr, false, x->guard);
}

/* Keeps the low `bits` of v (a 32- or 64-bit integer) as a signed or unsigned value. */
static ir_ref narrow_int(struct irb *b, ir_ref v, unsigned bits, bool sign)
{
	enum ir_type t = (enum ir_type)b->fn->vals[v].type;
	unsigned w = ir_type_bits(t);
	if (bits >= w)
		return v;
	if (!sign)
		return emit2(b, IR_AND, t, v, ir_const(b->fn, t, (1ull << bits) - 1), 0);
	ir_ref sh = ir_const(b->fn, IR_T_I32, w - bits);
	return emit2(b, IR_SHR_S, t, emit2(b, IR_SHL, t, v, sh, 0), sh, 0);
}

/* .sat on a float result: clamp to [0.0, 1.0] with NaN -> +0.0, as the hardware does (and
 * -0.0 -> +0.0: x + +0.0 is x for every other x, and the clamp maps NaN to +0.0). */
static ir_ref sat_unit(struct irb *b, ir_ref r, enum ir_type t)
{
	return emit2(b, IR_FADD, t, r, ir_const(b->fn, t, 0), IR_FM_SAT);
}

/* float -> float: rounded to an integral value (.rni/.rzi/.rmi/.rpi), widened, narrowed
 * (.rn/.rz/.rm/.rp) or, same type, x * 1.0 (which applies .ftz and quiets NaN, as cvt does). */
static ir_ref cvt_float_float(struct irb *b, ir_ref v, enum ir_type sty, enum ir_type dty,
                              uint32_t iround, uint32_t aux)
{
	ir_ref r = v;
	if (iround != 4)
		r = emit1(b, IR_FROUND, sty, v, iround | (aux & IR_FM_FTZ));
	if (sty != dty)
		return emit1(b, sty == IR_T_F32 ? IR_FEXT : IR_FTRUNC, dty, r, aux);
	if (iround != 4)
		return r;
	return emit2(b, IR_FMUL, dty, v,
	             ir_const(b->fn, dty, dty == IR_T_F32 ? 0x3f800000u : 0x3ff0000000000000ull),
	             aux);
}

/* float -> integer, always saturating to the destination's range.  NaN: what an sm_90 GPU
 * returns (../shared/ptx-hw): 0 from f32 to 8-, 16- and 32-bit integers, the most negative
 * signed value's bit pattern (0x8000, 0x80000000, 0x8000000000000000, for .s and .u alike)
 * from f64 and to 64-bit integers.  (f64 to 8 bits has no hardware sample: 0, as from f32.) */
static ir_ref cvt_float_int(struct irb *b, ir_ref v, enum ir_type sty, enum ptx_type dt,
                            uint32_t iround, uint32_t aux)
{
	ir_ref rounded =
	        iround == IR_FM_RZ ? v : emit1(b, IR_FROUND, sty, v, iround | (aux & IR_FM_FTZ));
	enum ir_type it = ptx_types[dt].bits == 64 ? IR_T_I64 : IR_T_I32;
	unsigned dbits = ptx_types[dt].bits;
	bool sign = is_signed(dt);
	if (dbits == 64) /* NaN handled there */
		return irb_ftoi64(b, rounded, sign, aux & IR_FM_FTZ);
	ir_ref r = emit1(b, sign ? IR_FTOI_S : IR_FTOI_U, it, rounded,
	                 (aux & IR_FM_FTZ) | ((dbits < 32 ? 32 : dbits) << 8));
	if (dbits < 32) /* saturate to the narrow range (after the monotone 32-bit one) */
		r = sign ? emit2(b, IR_MAX_S, it,
		                 emit2(b, IR_MIN_S, it, r,
		                       ir_const(b->fn, it, (1u << (dbits - 1)) - 1), 0),
		                 ir_const(b->fn, it, (uint64_t) - (1ll << (dbits - 1))), 0)
		         : emit2(b, IR_MIN_U, it, r, ir_const(b->fn, it, (1u << dbits) - 1), 0);
	if (sty != IR_T_F64 || dbits < 16)
		return r;
	uint64_t nan_bits = dbits == 16 && sign ? (uint64_t)-0x8000 : 1ull << (dbits - 1);
	ir_ref is_nan = emit2(b, IR_FCMP, IR_T_PRED, v, v, IR_CMP_NAN);
	return emit3(b, IR_SELECT, it, is_nan, ir_const(b->fn, it, nan_bits & 0xffffffffu), r, 0);
}

/* div.rn[.ftz] and rcp.rn[.ftz] (a = 1): the correctly rounded division (sel_float.c); .ftz
 * (f32) flushes the operands and the rounded result to sign-preserving zero.  build_round.c,
 * which runs first, takes .rz/.rm/.rp. */
static ir_ref fdiv_rn(struct irb *b, struct tr *x, ir_ref a, ir_ref d)
{
	bool ftz = has(x->in, PTX_DW_FTZ) && x->t == IR_T_F32;
	if (ftz) {
		a = irb_flush_subnormal(b, a, false);
		d = irb_flush_subnormal(b, d, false);
	}
	ir_ref r = emit2(b, IR_FDIV, x->t, a, d, IR_FM_RN);
	return ftz ? irb_flush_subnormal(b, r, false) : r;
}

static void tr_cvt(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	enum ptx_type dt = (enum ptx_type)in->types[0], st = (enum ptx_type)in->types[1];
	enum ptx_type_class dc = tclass(dt), sc = tclass(st);
	bool dfloat = dc == PTX_TC_FLOAT, sfloat = sc == PTX_TC_FLOAT;
	/* an f16 operand (build_arith.c leaves f16 -> integer and cvt.rXi.f16.f16 here) converts
	 * to f32 exactly, and the rounding to an integer is then exact in f16 again */
	bool half = st == PTX_TYPE_F16;
	bool half_out = half && dt == PTX_TYPE_F16 && !has(in, PTX_DW_RN) &&
	                (has(in, PTX_DW_RNI) || has(in, PTX_DW_RZI) || has(in, PTX_DW_RMI) ||
	                 has(in, PTX_DW_RPI));
	if ((dfloat && dt != PTX_TYPE_F32 && dt != PTX_TYPE_F64 && !half_out) ||
	    (sfloat && st != PTX_TYPE_F32 && st != PTX_TYPE_F64 && !half) || in->nopnds != 2 ||
	    has(in, PTX_DW_RELU) || has(in, PTX_DW_SATFINITE) || has(in, PTX_DW_RNA)) {
		unsupported(b, in, NULL);
		return;
	}
	enum ir_type dty = half_out ? IR_T_F32 : hold_type(dt);
	enum ir_type sty = half ? IR_T_F32 : hold_type(st);
	bool ok;
	uint32_t aux = float_mods(b, in, &ok);
	bool sat = (aux & IR_FM_SAT) != 0, ftz = (aux & IR_FM_FTZ) != 0;
	/* .sat on float results: sat_unit; integer results always saturate.  .ftz: f32 operands
	 * and results flushed here, so the selected conversions see neither. */
	aux &= ~(uint32_t)(IR_FM_SAT | IR_FM_FTZ);
	ir_ref v =
	        half ? emit1(b, IR_H2F, IR_T_F32, read_opnd(b, &in->opnds[1], IR_T_I16, false), 0)
	             : read_opnd(b, &in->opnds[1], sty, is_signed(st));
	if (ftz && sty == IR_T_F32 && !half) /* an f16 subnormal is a normal f32 */
		v = irb_flush_subnormal(b, v, false);
	if (!sfloat && ptx_types[st].bits < 32)
		v = narrow_int(b, v, ptx_types[st].bits, is_signed(st));
	ir_ref r;
	uint32_t iround = has(in, PTX_DW_RNI)   ? IR_FM_RN
	                  : has(in, PTX_DW_RZI) ? IR_FM_RZ
	                  : has(in, PTX_DW_RMI) ? IR_FM_RM
	                  : has(in, PTX_DW_RPI) ? IR_FM_RP
	                                        : 4;
	if (sfloat && dfloat) {
		r = cvt_float_float(b, v, sty, dty, iround, aux);
	} else if (sfloat) {
		if (iround == 4) {
			unsupported(b, in, "float-to-integer conversion needs .rni/.rzi/.rmi/.rpi");
			return;
		}
		r = cvt_float_int(b, v, sty, dt, iround, aux);
	} else if (dfloat && ptx_types[st].bits == 64) {
		r = irb_itof64_rn(b, v, is_signed(st), dty); /* .rz/.rm/.rp: build_round.c */
	} else if (dfloat) {
		r = emit1(b, is_signed(st) ? IR_ITOF_S : IR_ITOF_U, dty, v, aux & IR_FM_ROUND_MASK);
	} else { /* integer -> integer */
		if (has(in, PTX_DW_SAT)) {
			unsupported(b, in, "saturating integer conversion");
			return;
		}
		unsigned sbits = ptx_types[st].bits, dbits = ptx_types[dt].bits;
		enum ir_type it = dbits == 64 ? IR_T_I64 : dbits == 16 ? IR_T_I16 : IR_T_I32;
		if (sbits > 32 && dbits <= 32)
			v = emit1(b, IR_TRUNC, IR_T_I32, v, 0);
		v = adapt(b, v, it, is_signed(st));
		if (dbits < ir_type_bits(it))
			v = narrow_int(b, v, dbits, is_signed(dt));
		r = v;
	}
	if (dfloat && ftz && dty == IR_T_F32)
		r = irb_flush_subnormal(b, r, false);
	if (dfloat && sat)
		r = sat_unit(b, r, dty);
	if (half_out)
		r = emit1(b, IR_F2H, IR_T_I16, r, 0);
	write_dest(b, &in->opnds[0], r, is_signed(dt), x->guard);
}

static enum ptx_type_class type_class_of(enum ptx_type t)
{
	return tclass(t);
}

/* The space a memory instruction names (no space word: generic). */
static int mem_space(const struct ptx_insn *in)
{
	if (has(in, PTX_DW_PARAM) || has(in, PTX_DW_PARAM_ENTRY))
		return IR_SPACE_PARAM;
	if (has(in, PTX_DW_GLOBAL))
		return IR_SPACE_GLOBAL;
	if (has(in, PTX_DW_SHARED) || has(in, PTX_DW_SHARED_CTA))
		return IR_SPACE_SHARED;
	if (has(in, PTX_DW_CONST))
		return IR_SPACE_CONST;
	if (has(in, PTX_DW_LOCAL))
		return IR_SPACE_LOCAL;
	if (has(in, PTX_DW_SHARED_CLUSTER)) /* a cluster is one CTA here (build_async.c) */
		return IR_SPACE_SHARED;
	return IR_SPACE_GENERIC;
}

/* Base address value and constant offset of an address operand [x+off]. */
static bool address(struct irb *b, const struct ptx_operand *o, int space, ir_ref *base,
                    int64_t *off)
{
	*off = (int64_t)o->value;
	if (!o->sym) {
		*base = ir_const(b->fn, IR_T_I64, 0);
		return true;
	}
	if (o->sym->kind == PTX_SYM_VAR && o->sym->space == PTX_SPACE_REG) {
		int32_t var = irb_opnd_var(b, o);
		if (var < 0)
			return false;
		ir_ref v = irb_read_var(b, (uint32_t)var, b->cur);
		*base = ir_type_bits((enum ir_type)b->fn->vals[v].type) == 32 &&
		                        space != IR_SPACE_SHARED
		                ? adapt(b, v, IR_T_I64, false)
		                : v;
		return true;
	}
	/* [sh] or [buf] in a generic access: the variable's generic address (NVIDIA's ptxas
	 * accepts it; the window's address, not the offset in its space) */
	if (space == IR_SPACE_GENERIC && o->sym->kind == PTX_SYM_VAR &&
	    (o->sym->space == PTX_SPACE_SHARED || o->sym->space == PTX_SPACE_LOCAL)) {
		bool sh = o->sym->space == PTX_SPACE_SHARED;
		ir_ref a = sym_address(b, o->sym, sh ? IR_T_I32 : IR_T_I64);
		*base = emit1(b, IR_CVTA_FROM, IR_T_I64, a, sh ? IR_SPACE_SHARED : IR_SPACE_LOCAL);
		return !b->failed;
	}
	*base = sym_address(b, o->sym, space == IR_SPACE_SHARED ? IR_T_I32 : IR_T_I64);
	return !b->failed;
}

static uint32_t log2u(unsigned v)
{
	uint32_t l = 0;
	while ((1u << l) < v)
		l++;
	return l;
}

static void tr_ld(struct irb *b, struct tr *x, ir_ref guard_pred)
{
	const struct ptx_insn *in = x->in;
	int space = mem_space(in);
	enum ptx_type ty = x->type;
	unsigned bytes = ptx_types[ty].bits / 8;
	if (space < 0 || bytes == 0 || bytes > 8 || tclass(ty) == PTX_TC_PACKED ||
	    (tclass(ty) == PTX_TC_FLOAT && ty != PTX_TYPE_F32 && ty != PTX_TYPE_F64)) {
		unsupported(b, in, NULL);
		return;
	}
	const struct ptx_operand *d = &in->opnds[0], *a = &in->opnds[1];
	unsigned n = d->kind == PTX_OPND_VEC ? d->nelems : 1;
	enum ir_type vt = bytes == 8 ? (tclass(ty) == PTX_TC_FLOAT ? IR_T_F64 : IR_T_I64)
	                  : tclass(ty) == PTX_TC_FLOAT ? IR_T_F32
	                                               : IR_T_I32;
	bool sign = is_signed(ty);
	ir_ref pv;
	if (space == IR_SPACE_PARAM && a->sym &&
	    irb_param_load(b, a->sym, (int64_t)a->value, bytes, vt, sign, &pv)) {
		for (unsigned e = 0; e < n; e++) { /* a call's argument or return value */
			if (e)
				irb_param_load(b, a->sym, (int64_t)a->value + e * bytes, bytes, vt,
				               sign, &pv);
			write_dest(b, n > 1 ? &d->elems[e] : d, pv, sign, guard_pred);
		}
		return;
	}
	if (space == IR_SPACE_PARAM) {
		uint32_t pi;
		if (!a->sym || !irb_param_index(b, a->sym, &pi)) {
			unsupported(b, in, "parameter access through a register address");
			return;
		}
		for (unsigned e = 0; e < n; e++) {
			const struct ptx_operand *de = n > 1 ? &d->elems[e] : d;
			int64_t off = b->fn->params[pi].offset + (int64_t)a->value + e * bytes;
			ir_ref v = irb_emit(b, IR_PARAM, vt, NULL, 0,
			                    log2u(bytes) << IR_MEM_SIZE_SHIFT |
			                            (sign ? IR_MEM_SIGNED : 0),
			                    off);
			write_dest(b, de, v, sign, guard_pred);
		}
		return;
	}
	ir_ref base;
	int64_t off;
	uint32_t order;
	if (!irb_mem_order(b, in, &order) || !address(b, a, space, &base, &off))
		return;
	uint32_t aux = (uint32_t)space | log2u(bytes) << IR_MEM_SIZE_SHIFT | order |
	               (sign ? IR_MEM_SIGNED : 0) |
	               (has(in, PTX_DW_VOLATILE) ? IR_MEM_VOLATILE : 0) |
	               (has(in, PTX_DW_NC) ? IR_MEM_NC : 0);
	for (unsigned e = 0; e < n; e++) {
		const struct ptx_operand *de = n > 1 ? &d->elems[e] : d;
		ir_ref v = irb_emit(b, IR_LOAD, vt, &base, 1, aux, off + e * bytes);
		write_dest(b, de, v, sign, IR_NO_REF);
	}
}

static void tr_st(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	int space = mem_space(in);
	enum ptx_type ty = x->type;
	unsigned bytes = ptx_types[ty].bits / 8;
	if (space < 0 || space == IR_SPACE_CONST || bytes == 0 || bytes > 8 ||
	    tclass(ty) == PTX_TC_PACKED ||
	    (tclass(ty) == PTX_TC_FLOAT && ty != PTX_TYPE_F32 && ty != PTX_TYPE_F64)) {
		unsupported(b, in, NULL);
		return;
	}
	const struct ptx_operand *a = &in->opnds[0], *v = &in->opnds[1];
	unsigned n = v->kind == PTX_OPND_VEC ? v->nelems : 1;
	enum ir_type vt = bytes == 8 ? (tclass(ty) == PTX_TC_FLOAT ? IR_T_F64 : IR_T_I64)
	                  : tclass(ty) == PTX_TC_FLOAT ? IR_T_F32
	                                               : IR_T_I32;
	if (space == IR_SPACE_PARAM) { /* a call's argument or a function's return value */
		for (unsigned e = 0; e < n; e++) {
			ir_ref val = read_opnd(b, n > 1 ? &v->elems[e] : v, vt, false);
			if (a->kind != PTX_OPND_ADDR || !a->sym ||
			    !irb_param_store(b, a->sym, (int64_t)a->value + e * bytes, bytes, vt,
			                     val)) {
				unsupported(b, in,
				            "a store to a kernel parameter or through a register");
				return;
			}
		}
		return;
	}
	ir_ref base;
	int64_t off;
	uint32_t order;
	if (!irb_mem_order(b, in, &order) || !address(b, a, space, &base, &off))
		return;
	uint32_t aux = (uint32_t)space | log2u(bytes) << IR_MEM_SIZE_SHIFT | order |
	               (has(in, PTX_DW_VOLATILE) ? IR_MEM_VOLATILE : 0);
	for (unsigned e = 0; e < n; e++) {
		const struct ptx_operand *ve = n > 1 ? &v->elems[e] : v;
		ir_ref val = read_opnd(b, ve, vt, false);
		ir_ref args[2] = {base, val};
		irb_emit(b, IR_STORE, vt, args, 2, aux, off + e * bytes);
	}
}

static void tr_cvta(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	int space = mem_space(in);
	if (space < 0 || space == IR_SPACE_PARAM) {
		unsupported(b, in, NULL);
		return;
	}
	ir_ref v = read_opnd(b, &in->opnds[1], x->t, false);
	ir_ref r = space == IR_SPACE_GLOBAL ? emit1(b, IR_COPY, x->t, v, 0)
	           : has(in, PTX_DW_TO)     ? emit1(b, IR_CVTA_TO, x->t, v, (uint32_t)space)
	                                    : emit1(b, IR_CVTA_FROM, x->t, v, (uint32_t)space);
	dst(b, x, 0, r);
}

/* isspacep.SPACE p, a: whether generic address a is in SPACE.  Generic addresses of .shared
 * and .local carry their aperture's high dword; every other address is global (and .const
 * is global memory). */
static void tr_isspacep(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	int space = mem_space(in);
	if (space != IR_SPACE_GLOBAL && space != IR_SPACE_CONST && space != IR_SPACE_SHARED &&
	    space != IR_SPACE_LOCAL) {
		unsupported(b, in, NULL);
		return;
	}
	ir_ref a = read_opnd(b, &in->opnds[1], IR_T_I64, false);
	ir_ref hi = emit1(b, IR_TRUNC, IR_T_I32,
	                  emit2(b, IR_SHR_U, IR_T_I64, a, ir_const(b->fn, IR_T_I32, 32), 0), 0);
	ir_ref shared = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_SHARED_APERTURE, 0);
	ir_ref priv = irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, IR_SREG_PRIVATE_APERTURE, 0);
	ir_ref r;
	if (space == IR_SPACE_SHARED || space == IR_SPACE_LOCAL)
		r = emit2(b, IR_ICMP, IR_T_PRED, hi, space == IR_SPACE_SHARED ? shared : priv,
		          IR_CMP_EQ);
	else
		r = emit2(b, IR_AND, IR_T_PRED, emit2(b, IR_ICMP, IR_T_PRED, hi, shared, IR_CMP_NE),
		          emit2(b, IR_ICMP, IR_T_PRED, hi, priv, IR_CMP_NE), 0);
	write_dest(b, &in->opnds[0], r, false, x->guard);
}

/* mov.b64 d, {lo, hi} and mov.b64 {lo, hi}, s: 32-bit halves of a 64-bit value. */
static void tr_mov_vec(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	bool pack = in->opnds[1].kind == PTX_OPND_VEC;
	const struct ptx_operand *v = pack ? &in->opnds[1] : &in->opnds[0];
	if (ptx_types[x->type].bits != 64 || v->nelems != 2) {
		unsupported(b, in, "vector moves other than 64 bits from/to two 32-bit halves");
		return;
	}
	if (pack) {
		ir_ref lo = read_opnd(b, &v->elems[0], IR_T_I32, false);
		ir_ref hi = read_opnd(b, &v->elems[1], IR_T_I32, false);
		ir_ref l64 = emit1(b, IR_ZEXT, IR_T_I64, lo, 0);
		ir_ref h64 = emit2(b, IR_SHL, IR_T_I64, emit1(b, IR_ZEXT, IR_T_I64, hi, 0),
		                   ir_const(b->fn, IR_T_I32, 32), 0);
		write_dest(b, &in->opnds[0], emit2(b, IR_OR, IR_T_I64, l64, h64, 0), false,
		           x->guard);
		return;
	}
	ir_ref w = read_opnd(b, &in->opnds[1], IR_T_I64, false);
	write_dest(b, &v->elems[0], emit1(b, IR_TRUNC, IR_T_I32, w, 0), false, x->guard);
	ir_ref h = emit2(b, IR_SHR_U, IR_T_I64, w, ir_const(b->fn, IR_T_I32, 32), 0);
	write_dest(b, &v->elems[1], emit1(b, IR_TRUNC, IR_T_I32, h, 0), false, x->guard);
}

/* Pure instructions: under a guard they become selects. */
static bool tr_pure(struct irb *b, struct tr *x)
{
	const struct ptx_insn *in = x->in;
	switch (in->op) {
	case PTX_OP_MOV:
		if (in->opnds[0].kind == PTX_OPND_VEC || in->opnds[1].kind == PTX_OPND_VEC) {
			tr_mov_vec(b, x);
			return true;
		}
		if (in->opnds[0].kind != PTX_OPND_REG) {
			unsupported(b, in, NULL);
			return true;
		}
		if (irb_is_unused_param_address(b, in))
			return true;
		dst(b, x, 0, src(b, x, 1));
		return true;
	case PTX_OP_ADD:
		return tr_int_or_float(b, x, IR_ADD, IR_FADD);
	case PTX_OP_SUB:
		return tr_int_or_float(b, x, IR_SUB, IR_FSUB);
	case PTX_OP_MUL:
		tr_mul(b, x, false);
		return true;
	case PTX_OP_MAD:
		tr_mul(b, x, true);
		return true;
	case PTX_OP_FMA:
		tr_mul(b, x, true);
		return true;
	case PTX_OP_DIV:
		if (x->t == IR_T_F32 && (has(in, PTX_DW_APPROX) || has(in, PTX_DW_FULL))) {
			dst(b, x, 0,
			    irb_fdiv_approx(b, src(b, x, 1), src(b, x, 2), has(in, PTX_DW_FULL),
			                    has(in, PTX_DW_FTZ)));
			return true;
		}
		if (ir_type_is_float(x->t) && (has(in, PTX_DW_APPROX) || has(in, PTX_DW_FULL)))
			return tr_int_or_float(b, x, IR_NUM_OPS, IR_FDIV_APPROX);
		if (ir_type_is_float(x->t)) {
			dst(b, x, 0, fdiv_rn(b, x, src(b, x, 1), src(b, x, 2)));
			return true;
		}
		return tr_int_or_float(b, x, x->sign ? IR_DIV_S : IR_DIV_U, IR_FDIV);
	case PTX_OP_REM:
		return tr_int_or_float(b, x, x->sign ? IR_REM_S : IR_REM_U, IR_NUM_OPS);
	case PTX_OP_MIN:
	case PTX_OP_MAX:
		if (x->t == IR_T_I64 && in->nopnds == 3 && in->nmods == 1) { /* compare + select */
			ir_ref a = src(b, x, 1), c = src(b, x, 2);
			enum ir_cmp cmp = in->op == PTX_OP_MIN ? (x->sign ? IR_CMP_LT : IR_CMP_LTU)
			                                       : (x->sign ? IR_CMP_GT : IR_CMP_GTU);
			ir_ref p = emit2(b, IR_ICMP, IR_T_PRED, a, c, cmp);
			dst(b, x, 0, emit3(b, IR_SELECT, x->t, p, a, c, 0));
			return true;
		}
		if (in->op == PTX_OP_MAX)
			goto max;
		if (has(in, PTX_DW_NAN_MOD) || has(in, PTX_DW_XORSIGN) || has(in, PTX_DW_ABS) ||
		    has(in, PTX_DW_RELU) || in->nopnds != 3) {
			unsupported(b, in, NULL);
			return true;
		}
		return tr_int_or_float(b, x, x->sign ? IR_MIN_S : IR_MIN_U, IR_FMIN);
	max:
		if (has(in, PTX_DW_NAN_MOD) || has(in, PTX_DW_XORSIGN) || has(in, PTX_DW_ABS) ||
		    has(in, PTX_DW_RELU) || in->nopnds != 3) {
			unsupported(b, in, NULL);
			return true;
		}
		return tr_int_or_float(b, x, x->sign ? IR_MAX_S : IR_MAX_U, IR_FMAX);
	case PTX_OP_NEG:
		return tr_int_or_float(b, x, IR_NEG, IR_FNEG);
	case PTX_OP_ABS:
		return tr_int_or_float(b, x, IR_ABS, IR_FABS);
	case PTX_OP_AND:
		return tr_int_or_float(b, x, IR_AND, IR_NUM_OPS);
	case PTX_OP_OR:
		return tr_int_or_float(b, x, IR_OR, IR_NUM_OPS);
	case PTX_OP_XOR:
		return tr_int_or_float(b, x, IR_XOR, IR_NUM_OPS);
	case PTX_OP_NOT:
		return tr_int_or_float(b, x, IR_NOT, IR_NUM_OPS);
	case PTX_OP_CNOT: {
		ir_ref z = emit2(b, IR_ICMP, IR_T_PRED, src(b, x, 1), ir_const(b->fn, x->t, 0),
		                 IR_CMP_EQ);
		dst(b, x, 0,
		    emit3(b, IR_SELECT, x->t, z, ir_const(b->fn, x->t, 1), ir_const(b->fn, x->t, 0),
		          0));
		return true;
	}
	case PTX_OP_SHL:
	case PTX_OP_SHR: {
		if (x->t == IR_T_NONE || ir_type_is_float(x->t) || x->t == IR_T_PRED) {
			unsupported(b, in, NULL);
			return true;
		}
		enum ir_op op = in->op == PTX_OP_SHL ? IR_SHL : x->sign ? IR_SHR_S : IR_SHR_U;
		ir_ref amt = read_opnd(b, &in->opnds[2], IR_T_I32, false);
		dst(b, x, 0, emit2(b, op, x->t, src(b, x, 1), amt, 0));
		return true;
	}
	case PTX_OP_SETP:
		tr_setp(b, x);
		return true;
	case PTX_OP_SELP: {
		ir_ref p = read_opnd(b, &in->opnds[3], IR_T_PRED, false);
		dst(b, x, 0, emit3(b, IR_SELECT, x->t, p, src(b, x, 1), src(b, x, 2), 0));
		return true;
	}
	case PTX_OP_CVT:
		tr_cvt(b, x);
		return true;
	case PTX_OP_CVTA:
		tr_cvta(b, x);
		return true;
	case PTX_OP_ISSPACEP:
		tr_isspacep(b, x);
		return true;
	case PTX_OP_RCP:
		if (!ir_type_is_float(x->t))
			break;
		if (has(in, PTX_DW_APPROX)) {
			dst(b, x, 0,
			    emit1(b, IR_FRCP, x->t, src(b, x, 1),
			          IR_FM_APPROX | (has(in, PTX_DW_FTZ) ? IR_FM_FTZ : 0)));
		} else {
			ir_ref one =
			        ir_const(b->fn, x->t,
			                 x->t == IR_T_F32 ? 0x3f800000u : 0x3ff0000000000000ull);
			dst(b, x, 0, fdiv_rn(b, x, one, src(b, x, 1)));
		}
		return true;
	case PTX_OP_SQRT: /* .approx (.rn: build_arith.c; .rz/.rm/.rp: build_round.c) */
		if (!ir_type_is_float(x->t))
			break;
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FSQRT);
	case PTX_OP_RSQRT:
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FRSQ);
	case PTX_OP_EX2:
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FEX2);
	case PTX_OP_LG2:
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FLG2);
	case PTX_OP_SIN:
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FSIN);
	case PTX_OP_COS:
		return tr_int_or_float(b, x, IR_NUM_OPS, IR_FCOS);
	case PTX_OP_POPC:
	case PTX_OP_CLZ: {
		enum ptx_type ty = x->type;
		enum ir_type t = irb_ptx_type(ty);
		if (t != IR_T_I32 && t != IR_T_I64)
			break;
		ir_ref a = read_opnd(b, &in->opnds[1], t, false);
		write_dest(b, &in->opnds[0],
		           emit1(b, in->op == PTX_OP_POPC ? IR_POPC : IR_CLZ, IR_T_I32, a, 0),
		           false, x->guard);
		return true;
	}
	case PTX_OP_BREV:
		return tr_int_or_float(b, x, IR_BREV, IR_NUM_OPS);
	default:
		return false;
	}
	unsupported(b, in, NULL);
	return true;
}

/* Instructions with effects, or that may fault. */
static bool tr_effect(struct irb *b, struct tr *x, ir_ref guard_pred)
{
	switch (x->in->op) {
	case PTX_OP_LD:
		tr_ld(b, x, IR_NO_REF);
		return true;
	case PTX_OP_ST:
		tr_st(b, x);
		return true;
	case PTX_OP_BAR:
	case PTX_OP_BARRIER:
	case PTX_OP_BAR_RED:
	case PTX_OP_BARRIER_RED:
		irb_bar(b, x->in); /* build_bar.c */
		return true;
	case PTX_OP_MEMBAR:
	case PTX_OP_FENCE:
		irb_fence(b, x->in); /* build_atomic.c */
		return true;
	case PTX_OP_ATOM:
	case PTX_OP_RED:
		irb_atomic(b, x->in);
		return true;
	case PTX_OP_CALL:
		irb_call(b, x->in);
		return true;
	default:
		(void)guard_pred;
		return irb_warp(b, x->in); /* build_warp.c */
	}
}

static bool is_pure(const struct ptx_insn *in)
{
	switch (in->op) {
	case PTX_OP_LD:
	case PTX_OP_ST:
	case PTX_OP_BAR:
	case PTX_OP_BARRIER:
	case PTX_OP_BAR_RED:
	case PTX_OP_BARRIER_RED:
	case PTX_OP_MEMBAR:
	case PTX_OP_FENCE:
	case PTX_OP_ATOM:
	case PTX_OP_RED:
	case PTX_OP_CALL:
	case PTX_OP_BRA:
	case PTX_OP_RET:
	case PTX_OP_EXIT:
	case PTX_OP_SHFL: /* warp-level: lanes whose guard fails do not take part */
	case PTX_OP_VOTE:
	case PTX_OP_ACTIVEMASK:
	case PTX_OP_MATCH:
	case PTX_OP_REDUX:
	case PTX_OP_ELECT:
		return false;
	default:
		return true;
	}
}

static void tr_branch(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	uint32_t target = IR_NO_BLOCK;
	if (in->op == PTX_OP_BRA) {
		const struct ptx_operand *l = &in->opnds[0];
		if (l->kind != PTX_OPND_SYM || l->sym->kind != PTX_SYM_LABEL) {
			unsupported(b, in, "indirect branches");
			return;
		}
		target = irb_label_block(b, l->sym);
	} else if (in->op == PTX_OP_RET) { /* in an inlined callee: to the continuation */
		target = irb_return_block(b);
	}
	if (guard == IR_NO_REF) {
		if (target != IR_NO_BLOCK)
			irb_terminate(b, IR_JMP, IR_NO_REF, target, 0);
		else
			irb_terminate(b, IR_RET, IR_NO_REF, 0, 0);
		return;
	}
	if (target == IR_NO_BLOCK) { /* @p ret: a block that returns */
		target = irb_open_sealed(b);
		uint32_t from = b->cur;
		uint32_t next = irb_open_sealed(b);
		irb_terminate(b, IR_BR, guard, target, next);
		irb_switch_to(b, target);
		irb_terminate(b, IR_RET, IR_NO_REF, 0, 0);
		(void)from;
		irb_switch_to(b, next);
		return;
	}
	uint32_t next = irb_open_sealed(b);
	irb_terminate(b, IR_BR, guard, target, next);
	irb_switch_to(b, next);
}

/* brx.idx i, tlist: a chain of comparisons, each a branch to tlist[k] when i == k (the last
 * target takes the rest: PTX leaves an index out of range undefined), so the control-flow
 * lowering sees only two-way branches; n targets cost n-1 compares (a jump table would
 * need the wave to agree on one index anyway). */
static void tr_brx(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	const struct ptx_operand *l = &in->opnds[1];
	const struct ptx_stmt *list = NULL;
	for (uint32_t i = 0; l->kind == PTX_OPND_SYM && i < b->body->nstmts && !list; i++)
		if (b->body->stmts[i].kind == PTX_STMT_TARGETS && b->body->stmts[i].u.sym == l->sym)
			list = &b->body->stmts[i];
	if (!list || !list->nopnds) {
		unsupported(b, in,
		            "a branch target list that is not a .branchtargets of this function");
		return;
	}
	ir_ref index = read_opnd(b, &in->opnds[0], IR_T_I32, false);
	if (guard != IR_NO_REF) { /* @p brx.idx: lanes without p go on after it */
		uint32_t chain = irb_open_sealed(b), next = irb_new_block(b);
		irb_terminate(b, IR_BR, guard, chain, next);
		irb_switch_to(b, chain);
		tr_brx(b, in, IR_NO_REF);
		irb_seal(b, next);
		irb_switch_to(b, next);
		return;
	}
	for (uint32_t k = 0; k + 1 < list->nopnds; k++) {
		ir_ref args[2] = {index, ir_const(b->fn, IR_T_I32, k)};
		ir_ref eq = irb_emit(b, IR_ICMP, IR_T_PRED, args, 2, IR_CMP_EQ, 0);
		uint32_t next = irb_open_sealed(b);
		irb_terminate(b, IR_BR, eq, irb_label_block(b, list->opnds[k].sym), next);
		irb_switch_to(b, next);
	}
	irb_terminate(b, IR_JMP, IR_NO_REF, irb_label_block(b, list->opnds[list->nopnds - 1].sym),
	              0);
}

void irb_insn(struct irb *b, const struct ptx_insn *in)
{
	in = irb_vec_expand(b, in); /* build_vec.c: whole vector registers as brace lists */
	struct tr x = {.in = in, .guard = IR_NO_REF};
	x.type = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	x.t = hold_type(x.type);
	x.sign = is_signed(x.type);
	(void)type_class_of;
	ir_ref guard = IR_NO_REF;
	if (in->has_guard) {
		guard = read_opnd(b, in->guard, IR_T_PRED, false);
	}
	if (in->op == PTX_OP_EXIT && b->fn->real_sym) {
		irb_error(b, "'exit' in recursive function '%s' is not supported yet",
		          b->fn->real_sym->name);
		return;
	}
	if (in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT) {
		tr_branch(b, in, guard);
		return;
	}
	if (in->op == PTX_OP_BRX_IDX) {
		tr_brx(b, in, guard);
		return;
	}
	if (irb_vec(b, in, guard)) /* build_vec.c: moves between brace lists */
		return;
	/* matrix instructions, before the f16 arithmetic that would claim them */
	if (in->op == PTX_OP_WMMA_LOAD || in->op == PTX_OP_WMMA_STORE ||
	    in->op == PTX_OP_WMMA_MMA || in->op == PTX_OP_MMA) {
		irb_mma(b, in, guard); /* build_mma.c */
		return;
	}
	if (in->op == PTX_OP_LDMATRIX || in->op == PTX_OP_STMATRIX || in->op == PTX_OP_MOVMATRIX) {
		irb_matrix_move(b, in, guard); /* build_ldmatrix.c */
		return;
	}
	/* families with their own builders; each returns false for what is not its own */
	if (irb_intsat(b, in, guard)) /* build_intsat.c */
		return;
	if (irb_conv2(b, in, guard)) /* build_conv2.c */
		return;
	if (irb_async(b, in, guard)) /* build_async.c */
		return;
	if (irb_tex(b, in, guard)) /* build_tex.c */
		return;
	if (irb_sysmisc(b, in, guard)) /* build_sys.c */
		return;
	if (is_pure(in) && irb_forms(b, in, guard)) /* build_forms.c, before the others */
		return;
	if (is_pure(in)) {
		x.guard = guard;
		if (irb_round(b, in, guard) || irb_bf16(b, in, guard) || irb_arith2(b, in, guard) ||
		    irb_arith(b, in, guard))
			return;
		if (!tr_pure(b, &x))
			unsupported(b, in, NULL);
		return;
	}
	if (guard == IR_NO_REF) {
		if (!tr_effect(b, &x, IR_NO_REF))
			unsupported(b, in, NULL);
		return;
	}
	/* @p effect: if (p) { effect } */
	uint32_t then = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, guard, then, join);
	irb_switch_to(b, then);
	if (!tr_effect(b, &x, guard))
		unsupported(b, in, NULL);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
}

void irb_decl(struct irb *b, const struct ptx_symbol *sym)
{
	/* Registers become variables on first use; .shared/.local variables are placed by
	 * instruction selection when an instruction takes their address. */
	(void)b;
	(void)sym;
}

/* ---- for the other build_*.c files and inline.c ---- */

int irb_mem_space(const struct ptx_insn *in)
{
	return mem_space(in);
}

bool irb_address(struct irb *b, const struct ptx_operand *o, int space, ir_ref *base, int64_t *off)
{
	return address(b, o, space, base, off);
}

ir_ref irb_read_opnd(struct irb *b, const struct ptx_operand *o, enum ir_type want, bool sign)
{
	return read_opnd(b, o, want, sign);
}

void irb_write_dest(struct irb *b, const struct ptx_operand *o, ir_ref v, bool sign, ir_ref guard)
{
	write_dest(b, o, v, sign, guard);
}

void irb_unsupported(struct irb *b, const struct ptx_insn *in, const char *why)
{
	unsupported(b, in, why);
}

void irb_refuse(struct irb *b, const struct ptx_insn *in, const char *why)
{
	irb_error(b, "'%s' cannot be compiled for AMD GPUs: %s", mnemonic(b, in), why);
}

bool irb_cmp_of(const struct ptx_insn *in, bool is_float, bool sign, enum ir_cmp *out)
{
	return cmp_of(in, is_float, sign, out);
}
