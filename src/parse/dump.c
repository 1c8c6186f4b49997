/* Normalized PTX printer (--dump-ast).
 *
 * Prints what the parser built, one statement per line with canonical spacing:
 * integers in decimal (U suffix when unsigned), floats as their exact bit patterns
 * 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX, parameterized registers as `%r<N>`, one declared
 * name per declaration.  Printing the output of a dump again gives the same text
 * (tests check this fixed point on the corpus).  Complexity: O(output). */
#include "ptx_int.h"

#include <inttypes.h>

static void print_sym_name(FILE *out, const struct ptx_symbol *s, uint32_t index)
{
	if (s->range)
		fprintf(out, "%s%u", s->name, index);
	else
		fputs(s->name, out);
}

const char *ptx_space_name(uint8_t sp)
{
	static const char *const names[] = {"",       ".reg",   ".sreg",   ".const", ".global",
	                                    ".local", ".param", ".shared", ".tex"};
	return sp < sizeof names / sizeof names[0] ? names[sp] : "";
}

static void print_imm(FILE *out, uint8_t kind, uint64_t value, bool is_unsigned)
{
	if (kind == PTX_OPND_F32)
		fprintf(out, "0f%08" PRIX32, (uint32_t)value);
	else if (kind == PTX_OPND_F64)
		fprintf(out, "0d%016" PRIX64, value);
	else if (is_unsigned)
		fprintf(out, "%" PRIu64 "U", value);
	else
		fprintf(out, "%" PRId64, (int64_t)value);
}

static void print_offset(FILE *out, uint64_t v)
{
	if ((int64_t)v < 0)
		fprintf(out, "+%" PRId64, (int64_t)v);
	else if (v)
		fprintf(out, "+%" PRIu64, v);
}

static void print_operand(FILE *out, const struct ptx_operand *o)
{
	static const char comps[] = " xyzw";
	if (o->negated)
		fputc('!', out);
	switch (o->kind) {
	case PTX_OPND_REG:
	case PTX_OPND_SREG:
		print_sym_name(out, o->sym, o->index);
		if (o->comp)
			fprintf(out, ".%c", comps[o->comp]);
		if (o->video_sel)
			fputs((const char *[]){"", ".b0", ".b1", ".b2", ".b3", ".h0",
			                       ".h1"}[o->video_sel],
			      out);
		if (o->kind == PTX_OPND_REG && o->value)
			fprintf(out, " + %" PRId64, (int64_t)o->value);
		break;
	case PTX_OPND_INT:
	case PTX_OPND_F32:
	case PTX_OPND_F64:
		print_imm(out, o->kind, o->value, o->is_unsigned);
		break;
	case PTX_OPND_SYM:
		fputs(o->sym->name, out);
		print_offset(out, o->value);
		break;
	case PTX_OPND_ADDR:
		fputc('[', out);
		if (o->sym) {
			print_sym_name(out, o->sym, o->index);
			print_offset(out, o->value);
		} else {
			fprintf(out, "%" PRIu64, o->value);
		}
		fputc(']', out);
		break;
	case PTX_OPND_VEC:
	case PTX_OPND_LIST:
	case PTX_OPND_BRACKET:
		fputc(o->kind == PTX_OPND_VEC ? '{' : o->kind == PTX_OPND_LIST ? '(' : '[', out);
		for (uint32_t i = 0; i < o->nelems; i++) {
			if (i)
				fputs(", ", out);
			print_operand(out, &o->elems[i]);
		}
		fputc(o->kind == PTX_OPND_VEC ? '}' : o->kind == PTX_OPND_LIST ? ')' : ']', out);
		break;
	case PTX_OPND_SINK:
		fputc('_', out);
		break;
	case PTX_OPND_WARPSZ:
		fputs("WARP_SZ", out);
		break;
	default:
		break;
	}
	if (o->pair) {
		fputc('|', out);
		print_operand(out, o->pair);
	}
}

static void print_init(FILE *out, const struct ptx_symbol *s)
{
	fputs(" = ", out);
	bool need_comma = false;
	for (uint32_t i = 0; i < s->ninit; i++) {
		const struct ptx_init *e = &s->init[i];
		if (e->kind == PTX_INIT_CLOSE) {
			fputc('}', out);
			need_comma = true;
			continue;
		}
		if (need_comma)
			fputs(", ", out);
		need_comma = true;
		switch (e->kind) {
		case PTX_INIT_OPEN:
			fputc('{', out);
			need_comma = false;
			break;
		case PTX_INIT_INT:
			print_imm(out, PTX_OPND_INT, e->value, e->is_unsigned);
			break;
		case PTX_INIT_F32:
			print_imm(out, PTX_OPND_F32, e->value, false);
			break;
		case PTX_INIT_F64:
			print_imm(out, PTX_OPND_F64, e->value, false);
			break;
		case PTX_INIT_SYM:
			fputs(e->sym->name, out);
			print_offset(out, e->value);
			break;
		case PTX_INIT_GENERIC:
			fprintf(out, "generic(%s)", e->sym->name);
			print_offset(out, e->value);
			break;
		default:
			break;
		}
	}
}

void ptx_dump_decl(FILE *out, const struct ptx_symbol *s, int indent)
{
	for (int i = 0; i < indent; i++)
		fputc('\t', out);
	if (s->linkage & PTX_LINK_EXTERN)
		fputs(".extern ", out);
	if (s->linkage & PTX_LINK_VISIBLE)
		fputs(".visible ", out);
	if (s->linkage & PTX_LINK_WEAK)
		fputs(".weak ", out);
	if (s->linkage & PTX_LINK_COMMON)
		fputs(".common ", out);
	fputs(ptx_space_name(s->space), out);
	if (s->managed)
		fputs(" .attribute(.managed)", out);
	if (s->is_ptr) { /* .param .u64 .ptr .global .align 16 name */
		fprintf(out, " %s .ptr", ptx_types[s->type].name);
		if (s->ptr_space)
			fprintf(out, " %s", ptx_space_name(s->ptr_space));
		if (s->align)
			fprintf(out, " .align %u", s->align);
		fprintf(out, " %s", s->name);
	} else {
		if (s->align)
			fprintf(out, " .align %u", s->align);
		if (s->vec > 1)
			fprintf(out, " .v%u", s->vec);
		fprintf(out, " %s %s", ptx_types[s->type].name, s->name);
	}
	if (s->range)
		fprintf(out, "<%u>", s->range);
	for (unsigned i = 0; i < s->ndims; i++) {
		if (s->dims[i])
			fprintf(out, "[%" PRIu64 "]", s->dims[i]);
		else
			fputs("[]", out);
	}
	if (s->ninit)
		print_init(out, s);
}

static void print_params(FILE *out, struct ptx_symbol **p, uint32_t n, bool multiline)
{
	fputc('(', out);
	for (uint32_t i = 0; i < n; i++) {
		if (multiline)
			fputs(i ? ",\n\t" : "\n\t", out);
		else if (i)
			fputs(", ", out);
		ptx_dump_decl(out, p[i], 0);
	}
	fputs(multiline && n ? "\n)" : ")", out);
}

static void print_dims(FILE *out, const char *name, const uint32_t *v, uint8_t n)
{
	if (!n)
		return;
	fprintf(out, "%s %u", name, v[0]);
	for (uint8_t i = 1; i < n; i++)
		fprintf(out, ", %u", v[i]);
	fputc('\n', out);
}

static void print_perf(FILE *out, const struct ptx_func_info *f)
{
	print_dims(out, ".maxntid", f->maxntid, f->nmaxntid);
	print_dims(out, ".reqntid", f->reqntid, f->nreqntid);
	if (f->explicitcluster)
		fputs(".explicitcluster\n", out);
	print_dims(out, ".reqnctapercluster", f->reqnctapercluster, f->nreqnctapercluster);
	if (f->has_minnctapersm)
		fprintf(out, ".minnctapersm %u\n", f->minnctapersm);
	if (f->has_maxnreg)
		fprintf(out, ".maxnreg %u\n", f->maxnreg);
	if (f->has_maxclusterrank)
		fprintf(out, ".maxclusterrank %u\n", f->maxclusterrank);
	if (f->noreturn)
		fputs(".noreturn\n", out);
}

static void print_insn(FILE *out, const struct ptx_insn *in)
{
	if (in->has_guard) {
		fputc('@', out);
		print_operand(out, in->guard);
		fputc(' ', out);
	}
	fputs(ptx_ops[in->op].name, out);
	for (unsigned i = 0; i < in->nmods; i++)
		fputs(ptx_dotwords[in->mods[i]].text, out);
	for (unsigned i = 0; i < in->nopnds; i++) {
		fputs(i ? ", " : " ", out);
		print_operand(out, &in->opnds[i]);
	}
	fputs(";\n", out);
}

static void print_stmt(FILE *out, const struct ptx_stmt *s, int depth)
{
	if (s->kind == PTX_STMT_LABEL) {
		fprintf(out, "%s:\n", s->u.sym->name);
		return;
	}
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
	switch (s->kind) {
	case PTX_STMT_INSN:
		print_insn(out, s->u.insn);
		break;
	case PTX_STMT_DECL:
		ptx_dump_decl(out, s->u.sym, 0);
		fputs(";\n", out);
		break;
	case PTX_STMT_OPEN:
		fputs("{\n", out);
		break;
	case PTX_STMT_CLOSE:
		fputs("}\n", out);
		break;
	case PTX_STMT_LOC:
		fprintf(out, ".loc %u %u %u%s\n", s->u.loc.file, s->u.loc.line, s->u.loc.col,
		        s->extra ? s->extra : "");
		break;
	case PTX_STMT_PRAGMA:
		fprintf(out, ".pragma %s;\n", s->u.text);
		break;
	case PTX_STMT_PROTO: {
		const struct ptx_func_info *f = s->u.sym->func;
		fprintf(out, "%s: .callprototype ", s->u.sym->name);
		if (f->nrets) {
			print_params(out, f->rets, f->nrets, false);
			fputc(' ', out);
		}
		fputs("_ ", out);
		print_params(out, f->params, f->nparams, false);
		fputs(";\n", out);
		break;
	}
	case PTX_STMT_TARGETS:
		fprintf(out, "%s: %s", s->u.sym->name, s->extra);
		for (uint32_t i = 0; i < s->nopnds; i++) {
			fputs(i ? ", " : " ", out);
			print_operand(out, &s->opnds[i]);
		}
		fputs(";\n", out);
		break;
	default:
		break;
	}
}

void ptx_dump_function(FILE *out, const struct ptx_symbol *fn, const struct ptx_stmt *stmts,
                       uint32_t nstmts, bool has_body)
{
	const struct ptx_func_info *f = fn->func;
	fputc('\n', out);
	if (fn->linkage & PTX_LINK_EXTERN)
		fputs(".extern ", out);
	if (fn->linkage & PTX_LINK_VISIBLE)
		fputs(".visible ", out);
	if (fn->linkage & PTX_LINK_WEAK)
		fputs(".weak ", out);
	fputs(f->is_entry ? ".entry " : ".func ", out);
	if (f->nrets) {
		print_params(out, f->rets, f->nrets, false);
		fputc(' ', out);
	}
	fputs(fn->name, out);
	print_params(out, f->params, f->nparams, true);
	fputc('\n', out);
	print_perf(out, f);
	if (!has_body) {
		fputs(";\n", out);
		return;
	}
	fputs("{\n", out);
	int depth = 1;
	for (uint32_t i = 0; i < nstmts; i++) {
		if (stmts[i].kind == PTX_STMT_CLOSE)
			depth--;
		print_stmt(out, &stmts[i], depth);
		if (stmts[i].kind == PTX_STMT_OPEN)
			depth++;
	}
	fputs("}\n", out);
}

void ptx_dump_module_header(FILE *out, const struct ptx_module_state *m)
{
	fprintf(out, ".version %u.%u\n.target sm_%u%s", m->version / 10, m->version % 10, m->sm,
	        m->sm_arch_specific ? "a" : "");
	if (m->texmode_independent)
		fputs(", texmode_independent", out);
	if (m->debug)
		fputs(", debug", out);
	if (m->map_f64_to_f32)
		fputs(", map_f64_to_f32", out);
	fputc('\n', out);
}

void ptx_dump_text(FILE *out, const char *directive, const char *text)
{
	fprintf(out, "%s %s\n", directive, text);
}
