/* ir_dump: the IR as text (--dump-ir), one instruction per line:
 *   bb3: ; preds bb1 bb2 ; loop 0 ; branch divergent
 *     %7:i32 = add %5, 1            ; uniform values print without a marker
 *     %8:f32 = load.global %6 +16 [div]
 * Values are %N, constants print inline as their value, undefined values as `undef`. */
#include <inttypes.h>

#include "ir/ir.h"

static void put_ref(FILE *out, const struct ir_function *fn, ir_ref r)
{
	if (r == IR_NO_REF) {
		fputs("<none>", out);
		return;
	}
	const struct ir_value *v = &fn->vals[r];
	if (v->kind == IR_VAL_CONST) {
		if (v->type == IR_T_F32 || v->type == IR_T_F64)
			fprintf(out, "0x%" PRIx64, v->bits);
		else
			fprintf(out, "%" PRId64,
			        v->type == IR_T_I32   ? (int64_t)(int32_t)v->bits
			        : v->type == IR_T_I16 ? (int64_t)(int16_t)v->bits
			                              : (int64_t)v->bits);
	} else if (v->kind == IR_VAL_UNDEF) {
		fputs("undef", out);
	} else {
		fprintf(out, "%%%u", r);
	}
}

/* Atomic operation, memory order and scope of ATOMIC/RED/LOAD/STORE/FENCE (ir.h). */
static void put_memory_order(FILE *out, const struct ir_insn *in)
{
	static const char *const ops[IR_NUM_ATOMIC_OPS] = {
	        ".add", ".fadd", ".min.u", ".min.s", ".max.u", ".max.s", ".inc",
	        ".dec", ".and",  ".or",    ".xor",   ".exch",  ".cas"};
	static const char *const orders[] = {"",         ".relaxed", ".acquire", ".release",
	                                     ".acq_rel", ".?",       ".?",       ".?"};
	static const char *const scopes[] = {".cta", ".gpu", ".sys", ".?"};
	bool is_atomic = in->op == IR_ATOMIC || in->op == IR_RED;
	if (!is_atomic && in->op != IR_LOAD && in->op != IR_STORE && in->op != IR_FENCE)
		return;
	if (is_atomic && ir_atomic_op_of(in->aux) < IR_NUM_ATOMIC_OPS)
		fputs(ops[ir_atomic_op_of(in->aux)], out);
	if (ir_order_of(in->aux) != IR_ORD_WEAK)
		fprintf(out, "%s%s", orders[ir_order_of(in->aux)], scopes[ir_scope_of(in->aux)]);
}

static void put_insn(FILE *out, const struct ir_function *fn, const struct ir_block *bl,
                     const struct ir_insn *in)
{
	fputs("  ", out);
	if (in->res != IR_NO_REF)
		fprintf(out, "%%%u:%s = ", in->res, ir_type_name((enum ir_type)in->type));
	fputs(ir_ops[in->op].name, out);
	if (in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_SYMADDR ||
	    in->op == IR_ATOMIC || in->op == IR_RED) {
		static const char *const sp[] = {"",       ".global", ".shared",
		                                 ".local", ".const",  ".param"};
		unsigned s = in->aux & IR_SPACE_MASK;
		fputs(s < 6 ? sp[s] : ".?", out);
		if (in->op != IR_SYMADDR)
			fprintf(out, ".b%u", ir_mem_bytes(in->aux) * 8);
	}
	if (in->op == IR_ICMP || in->op == IR_FCMP)
		fprintf(out, ".c%u", in->aux & 0xff);
	put_memory_order(out, in);
	uint32_t n = in->op == IR_PHI ? bl->npreds : in->nargs;
	for (uint32_t k = 0; k < n; k++) {
		fputs(k ? ", " : " ", out);
		if (in->op == IR_PHI)
			fprintf(out, "[bb%u: ", bl->preds[k]);
		put_ref(out, fn, in->op == IR_PHI ? in->phi_args[k] : in->args[k]);
		if (in->op == IR_PHI)
			fputc(']', out);
	}
	if (in->imm || in->op == IR_PARAM || in->op == IR_SYMADDR)
		fprintf(out, " +%" PRId64, in->imm);
	if (in->op == IR_SYMADDR && in->imm >= 0 && (uint64_t)in->imm < fn->nsymvars)
		fprintf(out, " (%s)",
		        fn->symvars[in->imm].sym ? fn->symvars[in->imm].sym->name : "hidden");
	if (in->op == IR_SREG || in->op == IR_TIMER ||
	    (ir_type_is_float((enum ir_type)in->type) && in->aux))
		fprintf(out, " aux=%u", in->aux);
	if (in->op == IR_CALL && in->aux < fn->ncallees) { /* a real call (inline.c) */
		const struct ir_callee_why *w = &fn->callee_why[in->aux];
		fprintf(out, " %s", fn->callees[in->aux]->name);
		if (w->sites)
			fprintf(out, " ; %u statements, %u call sites", w->stmts, w->sites);
		else
			fputs(" ; recursive", out);
	}
	if (in->op == IR_BR)
		fprintf(out, " ? bb%u : bb%u", bl->succs[0], bl->succs[1]);
	if (in->op == IR_JMP)
		fprintf(out, " bb%u", bl->succs[0]);
	if (in->res != IR_NO_REF && fn->vals[in->res].divergent)
		fputs(" [div]", out);
	fputc('\n', out);
}

void ir_dump(FILE *out, const struct ir_function *fn)
{
	fprintf(out, "function %s (%u blocks, %u values)\n", fn->name, fn->nblocks, fn->nvals);
	uint32_t n = fn->cfg_valid ? fn->norder : fn->nblocks;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t b = fn->cfg_valid ? fn->linear_order[k] : k;
		const struct ir_block *bl = &fn->blocks[b];
		fprintf(out, "bb%u:", b);
		if (bl->npreds) {
			fputs(" ; preds", out);
			for (uint32_t p = 0; p < bl->npreds; p++)
				fprintf(out, " bb%u", bl->preds[p]);
		}
		if (fn->cfg_valid && bl->loop != IR_NO_LOOP)
			fprintf(out, " ; loop %u%s%s", bl->loop,
			        fn->loops[bl->loop].header == b ? " header" : "",
			        fn->loops[bl->loop].header == b && fn->loops[bl->loop].irreducible
			                ? " irreducible"
			                : "");
		if (bl->divergent_branch)
			fputs(" ; branch divergent", out);
		fputc('\n', out);
		for (uint32_t i = 0; i < bl->ninsns; i++)
			put_insn(out, fn, bl, &bl->insns[i]);
	}
}
