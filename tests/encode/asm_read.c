/* Test driver for the assembly reader: reads FILE.s for TARGET with amd_asm_read and prints
 * the whole .text as hex, then per kernel "kernel NAME OFFSET SIZE NFIELDS", then per
 * relocation "reloc OFFSET TYPE SYMBOL ADDEND" (TYPE: the R_AMDGPU_* number).  Diagnostics
 * go to stderr; exit status 1 if the reader reported errors.
 * With --lines, reads one instruction per stdin line and prints "OK <hex words> | <our
 * text>" or "ERR <reason>" per line.
 * usage: asm_read TARGET FILE.s | asm_read --lines TARGET */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_asm.h"

static int lines_mode(const struct amd_target *t)
{
	char line[1024], err[200], text[256];
	while (fgets(line, sizeof line, stdin)) {
		size_t len = strcspn(line, "\n");
		struct amd_inst in;
		uint32_t w[4];
		unsigned col, n;
		if (!amd_asm_parse_inst(t, line, len, &in, err, sizeof err, &col)) {
			printf("ERR col %u: %s\n", col, err);
			continue;
		}
		if (!(n = amd_encode(t, &in, w, err, sizeof err))) {
			printf("ERR encode: %s\n", err);
			continue;
		}
		amd_print(t, &in, text, sizeof text);
		printf("OK");
		for (unsigned i = 0; i < n; i++)
			printf(" %08X", w[i]);
		printf(" | %s\n", text);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--lines")) {
		struct amd_target t;
		char err[200];
		if (!amd_target_parse(argv[2], &t, err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		return lines_mode(&t);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: asm_read TARGET FILE.s\n");
		return 2;
	}
	struct amd_target t;
	char err[200];
	if (!amd_target_parse(argv[1], &t, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	size_t cap = 1 << 16, len = 0, n;
	char *buf = pa_xmalloc(cap);
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = pa_xrealloc(buf, cap *= 2);
	}
	fclose(f);
	struct pa_arena arena;
	struct pa_diag diag;
	struct amd_asm_module m;
	pa_arena_init(&arena);
	pa_diag_init(&diag, stderr);
	bool ok = amd_asm_read(&t, argv[2], buf, len, &arena, &diag, &m);
	printf("text");
	for (size_t i = 0; i < m.text_size; i++)
		printf(" %02x", m.text[i]);
	printf("\n");
	for (unsigned k = 0; k < m.nkernels; k++)
		printf("kernel %s %zu %zu %u\n", m.kernels[k].name, m.kernels[k].code_offset,
		       m.kernels[k].code_size, m.kernels[k].nfields);
	for (unsigned i = 0; i < m.nrelocs; i++)
		printf("reloc %zu %d %s %lld\n", m.relocs[i].offset, (int)m.relocs[i].type,
		       m.relocs[i].symbol, (long long)m.relocs[i].addend);
	pa_arena_free(&arena);
	free(buf);
	return ok ? 0 : 1;
}
