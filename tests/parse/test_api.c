/* Test of the parser's library API (ptx.h): the on_function callback sees each function
 * body once, in order, with its statements, instruction opcodes, modifiers, operand kinds
 * and parameterized-register indices; prototypes produce no callback; a function with
 * an error produces none either; --dump-ast normalization of a messy input equals the
 * text the normalization rules in ptx.h/dump.c demand (decimal integers, floats as bit
 * patterns, `%r<N>` kept, one statement per line). */
#include <stdio.h>
#include <string.h>

#include "ptx.h"

struct seen {
	int nfunctions;
	int failures;
	char names[4][32];
};

#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
			s->failures++;                                                             \
		}                                                                                  \
	} while (0)

static void on_function(void *user, const struct ptx_function *fn, const struct ptx_module_state *m)
{
	struct seen *s = user;
	if (s->nfunctions < 4)
		snprintf(s->names[s->nfunctions], sizeof s->names[0], "%s", fn->sym->name);
	s->nfunctions++;
	EXPECT(m->version == 80 && m->sm == 80 && m->address_size == 64);
	if (strcmp(fn->sym->name, "k"))
		return;
	EXPECT(fn->sym->func->is_entry && fn->sym->func->nparams == 1);
	EXPECT(fn->sym->func->nmaxntid == 1 && fn->sym->func->maxntid[0] == 128);
	/* .reg .b32 %r<200>; .reg .pred %p<2>; mov; add; @%p1 bra; label; ret */
	EXPECT(fn->nstmts == 7);
	if (fn->nstmts != 7)
		return;
	EXPECT(fn->stmts[0].kind == PTX_STMT_DECL && fn->stmts[0].u.sym->range == 200);
	const struct ptx_insn *mov = fn->stmts[2].u.insn;
	EXPECT(fn->stmts[2].kind == PTX_STMT_INSN && mov->op == PTX_OP_MOV);
	EXPECT(mov->ntypes == 1 && mov->types[0] == PTX_TYPE_U32);
	EXPECT(mov->opnds[0].kind == PTX_OPND_REG && mov->opnds[0].index == 17);
	EXPECT(!strcmp(mov->opnds[0].sym->name, "%r"));
	EXPECT(mov->opnds[1].kind == PTX_OPND_SREG && mov->opnds[1].comp == 1);
	const struct ptx_insn *add = fn->stmts[3].u.insn;
	EXPECT(add->op == PTX_OP_ADD && add->nopnds == 3);
	EXPECT(add->opnds[2].kind == PTX_OPND_INT && add->opnds[2].value == 255);
	const struct ptx_insn *bra = fn->stmts[4].u.insn;
	EXPECT(bra->op == PTX_OP_BRA && bra->has_guard && bra->guard->index == 1);
	EXPECT(ptx_insn_has_mod(bra, PTX_DW_UNI));
	EXPECT(bra->opnds[0].kind == PTX_OPND_SYM && bra->opnds[0].sym == fn->stmts[5].u.sym);
	EXPECT(fn->stmts[5].kind == PTX_STMT_LABEL);
}

static const char module_text[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".func (.param .b32 r) proto_only(.param .b32 a);\n"
                                  ".func helper()\n{\n\tret;\n}\n"
                                  ".visible .entry k(.param .u64 p) .maxntid 128\n{\n"
                                  "\t.reg .b32   %r<200>;\n\t.reg .pred %p<2>;\n"
                                  "\tmov.u32 %r17,%tid.x;\n"
                                  "\tadd.s32\t%r18 , %r17, 0xFF;\n"
                                  "\t@%p1 bra.uni $L_end;\n"
                                  "$L_end:\n\tret;\n}\n"
                                  ".func broken()\n{\n\tadd.s32 %nope, 1, 2;\n\tret;\n}\n";

/* Normalized dump of the messy input below, written from the rules, not from output. */
static const char dump_in[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                              ".global .align 4 .u32 tbl[3] = {0x10, 010, 0b11};\n"
                              ".visible .entry k()\n{\n"
                              "  .reg .f64 %fd<3>; .reg .f32 %f<2>;\n"
                              "  mov.f64 %fd1, 1.5;  mov.f32 %f1, -0f3F800000;\n"
                              "  { .reg .b64 t; mov.b64 t, (1 << 4) + 2; }\n"
                              "  ret;\n}\n";
static const char dump_want[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                                ".global .align 4 .u32 tbl[3] = {16, 8, 3};\n"
                                "\n.visible .entry k()\n{\n"
                                "\t.reg .f64 %fd<3>;\n\t.reg .f32 %f<2>;\n"
                                "\tmov.f64 %fd1, 0d3FF8000000000000;\n"
                                "\tmov.f32 %f1, 0fBF800000;\n"
                                "\t{\n\t\t.reg .b64 t;\n\t\tmov.b64 t, 18;\n\t}\n"
                                "\tret;\n}\n";

int main(void)
{
	struct seen seen = {0}, *s = &seen;
	FILE *devnull = fopen("/dev/null", "w");
	struct pa_diag diag;
	pa_diag_init(&diag, devnull);
	FILE *in = fmemopen((void *)module_text, sizeof module_text - 1, "r");
	struct ptx_parse_options opts = {
	        .filename = "api.ptx", .diag = &diag, .on_function = on_function, .user = s};
	bool ok = ptx_parse_stream(in, &opts);
	fclose(in);
	EXPECT(!ok && diag.nerrors == 1); /* %nope is undefined */
	EXPECT(s->nfunctions == 2);
	EXPECT(!strcmp(s->names[0], "helper") && !strcmp(s->names[1], "k"));

	char out_buf[4096] = {0};
	FILE *out = fmemopen(out_buf, sizeof out_buf - 1, "w");
	in = fmemopen((void *)dump_in, sizeof dump_in - 1, "r");
	pa_diag_init(&diag, stdout);
	struct ptx_parse_options dopts = {.filename = "dump.ptx", .diag = &diag, .dump_out = out};
	EXPECT(ptx_parse_stream(in, &dopts));
	fclose(in);
	fclose(out);
	EXPECT(!strcmp(out_buf, dump_want));
	if (strcmp(out_buf, dump_want))
		printf("dump:\n%s\nwanted:\n%s\n", out_buf, dump_want);
	fclose(devnull);
	printf("%d API test failures\n", s->failures);
	return s->failures != 0;
}
