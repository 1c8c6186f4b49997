/* Prints the isa stage's answers for the Python tests of tests/isa, which judge them
 * against independent sources (llvm-mc-19, the simulator, recorded LLVM/manual facts).
 *   isa_dump rows TARGET       one line per row on TARGET: name, TARGET's mnemonic, format,
 *                              implicit defs, implicit uses, flags (hex), latency cycles,
 *                              unit, then the operands as kind:width
 *   isa_dump waitcnt TARGET    reads "vm exp lgkm" lines, prints the packed simm16 (hex)
 *                              and the unpacked values
 *   isa_dump delay             reads "instid0 skip instid1" lines, prints the simm16 (hex)
 *   isa_dump max TARGET        the counter maxima (vm vs lgkm km exp)
 *   isa_dump counters TARGET   counters a plain and a value-returning instance of each
 *                              memory row increment
 *   isa_dump matrix TARGET     every matrix row on TARGET: "ROW A|B|D row col block lane reg
 *                              elem" per element (amd_matrix_place) */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"

static const char *const reg_names[] = {"EXEC", "VCC", "SCC", "M0", "MODE"};
static const char *const kind_names[AMD_NUM_OPND_KINDS] = {
        "sdst",   "ssrc",  "vdst",  "vsrc",  "vgpr",    "mask_dst", "mask_src", "vcc",  "scc",
        "simm16", "label", "sbase", "srsrc", "soffset", "saddr",    "sreg",     "kimm", "ssamp"};

static void print_regs(unsigned mask)
{
	const char *sep = "";
	if (!mask)
		printf("-");
	for (unsigned i = 0; i < 5; i++)
		if (mask >> i & 1) {
			printf("%s%s", sep, reg_names[i]);
			sep = " ";
		}
}

static int dump_rows(const struct amd_target *t)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	enum amd_gen gen = t->info->gen;
	for (unsigned i = 0; i < count; i++) {
		const struct amd_isa_op *op = &table[i];
		if (!op->gen_name[gen])
			continue;
		printf("%s\t%s\t%s\t", op->name, op->gen_name[gen],
		       amd_format_name((enum amd_format)op->format));
		print_regs(amd_implicit_defs(t, op));
		printf("\t");
		print_regs(amd_implicit_uses(t, op));
		printf("\t%#x\t%u\t%s\t", op->flags, amd_latency_cycles(t, (enum amd_opcode)i),
		       amd_unit_name((enum amd_unit)op->unit));
		for (unsigned k = 0; k < op->nopnds; k++)
			printf("%s%s:%u", k ? " " : "", kind_names[op->opnds[k].kind],
			       op->opnds[k].width);
		printf("\n");
	}
	return 0;
}

static void print_counters(unsigned mask)
{
	static const char *const names[AMD_NUM_HW_COUNTERS] = {"VM", "VS", "LGKM", "KM", "EXP"};
	const char *sep = "";
	if (!mask)
		printf("-");
	for (unsigned c = 0; c < AMD_NUM_HW_COUNTERS; c++)
		if (mask >> c & 1) {
			printf("%s%s", sep, names[c]);
			sep = " ";
		}
}

/* Counters of every row with a counter (or a memory format): a plain instance, and one
 * asking for the atomic's old value (glc / sc0 / th:TH_ATOMIC_RETURN, plus a return VGPR
 * for FLAT/GLOBAL/SCRATCH). */
static int dump_counters(const struct amd_target *t)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	for (unsigned i = 0; i < count; i++) {
		const struct amd_isa_op *op = &table[i];
		if (!op->gen_name[t->info->gen] ||
		    (op->counter == AMD_CNT_NONE && op->format < AMD_FMT_DS &&
		     op->format != AMD_FMT_SMEM))
			continue;
		struct amd_inst plain = {.row = (int)i}, rtn = {.row = (int)i, .cpol = 1};
		if (op->format != AMD_FMT_MUBUF)
			rtn.rtn = (struct amd_val){.kind = AMD_V_VGPR, .reg = 8, .width = 1};
		printf("%s\t%s\t%s\t", op->name, op->gen_name[t->info->gen],
		       amd_format_name((enum amd_format)op->format));
		print_counters(amd_inst_counters(t, &plain));
		printf("\t");
		print_counters(amd_inst_counters(t, &rtn));
		printf("\n");
	}
	return 0;
}

static int dump_waitcnt(const struct amd_target *t)
{
	unsigned vm, exp, lgkm;
	while (scanf("%u %u %u", &vm, &exp, &lgkm) == 3) {
		uint16_t simm = amd_waitcnt_pack(t, vm, exp, lgkm);
		amd_waitcnt_unpack(t, simm, &vm, &exp, &lgkm);
		printf("%#06x %u %u %u\n", simm, vm, exp, lgkm);
	}
	return 0;
}

static int dump_delay(void)
{
	unsigned id0, skip, id1;
	while (scanf("%u %u %u", &id0, &skip, &id1) == 3)
		printf("%#06x\n", amd_delay_alu_pack(id0, skip, id1));
	return 0;
}

/* Every element's placement of every matrix row on t (amd_matrix_place). */
static int dump_matrix(const struct amd_target *t)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	static const char names[3] = {'A', 'B', 'D'};
	for (unsigned r = 0; r < count; r++) {
		const struct amd_matrix_info *mi = amd_isa_matrix((enum amd_opcode)r);
		if (!mi || !table[r].gen_name[t->info->gen])
			continue;
		for (unsigned w = 0; w < 3; w++) {
			unsigned rows = w == 1 ? mi->k : mi->m, cols = w == 0 ? mi->k : mi->n;
			for (unsigned b = 0; b < mi->blocks; b++)
				for (unsigned i = 0; i < rows; i++)
					for (unsigned j = 0; j < cols; j++) {
						struct amd_matrix_place p;
						if (!amd_matrix_place(t, (enum amd_opcode)r,
						                      (enum amd_matrix_operand)w, i,
						                      j, b, &p))
							return 1;
						printf("%s %c %u %u %u %u %u %u\n", table[r].name,
						       names[w], i, j, b, p.lane, p.reg, p.elem);
					}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct amd_target t;
	char err[200];
	if (argc == 2 && !strcmp(argv[1], "delay"))
		return dump_delay();
	if (argc != 3 || !amd_target_parse(argv[2], &t, err, sizeof err)) {
		fprintf(stderr, "usage: isa_dump rows|waitcnt|max TARGET | isa_dump delay\n");
		return 2;
	}
	if (!strcmp(argv[1], "rows"))
		return dump_rows(&t);
	if (!strcmp(argv[1], "counters"))
		return dump_counters(&t);
	if (!strcmp(argv[1], "matrix"))
		return dump_matrix(&t);
	if (!strcmp(argv[1], "waitcnt"))
		return dump_waitcnt(&t);
	if (!strcmp(argv[1], "max")) {
		for (unsigned c = 0; c < AMD_NUM_HW_COUNTERS; c++)
			printf("%s%u", c ? " " : "", amd_waitcnt_max(&t, (enum amd_hw_counter)c));
		printf("\n");
		return 0;
	}
	return 2;
}
