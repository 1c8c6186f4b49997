/* Checks amdsim's decoder against llvm-mc-19's disassembler (the oracle on bits).
 *
 * For gfx90a, gfx942, gfx1030, gfx1100 and gfx1200, every opcode value of every format amdsim
 * decodes is built into a probe (as few fixed operand fields as LLVM accepts; several variants per
 * opcode), all probes are disassembled by one llvm-mc-19 run, and each probe is also decoded by
 * amdsim (sim_decode_init + sim_decode: its own format/field decoder over the shared instruction
 * table, src/encode/amd_isa.h).  Failures: amdsim names a different mnemonic than llvm-mc, or
 * amdsim has semantics for a mnemonic llvm-mc prints but cannot decode it (no shared-table
 * row), unless that mnemonic is in the explicit list of instructions the shared table cannot
 * express yet.  Probes llvm-mc rejects are counted, not judged.
 * complexity: O(formats x opcodes) probes, one llvm-mc process per generation. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amd_isa.h"
#include "sim_int.h"

enum { MAX_PROBES = 40000, MAX_WORDS = 3 };

struct probe {
	uint8_t fmt;
	uint16_t op;
	uint8_t nw;
	uint32_t w[MAX_WORDS];
	char llvm[160]; /* llvm-mc's mnemonic ("x :: y" for VOPD), "" if rejected */
};

struct run {
	enum amd_gen gen;
	const char *cpu;
	struct probe *p;
	unsigned n;
};

/* Mnemonics amdsim has semantics for but the shared table has no row for (see the comment at
 * the end of src/encode/isa_table.py); amdsim reports them as unimplemented instructions. */
static const struct {
	int gen; /* -1: every generation */
	const char *name;
} known_missing[] = {
        {-1, "s_setreg_imm32_b32"},
        {-1, "v_accvgpr_read_b32"},
        {-1, "v_accvgpr_write_b32"},
        {-1, "v_accvgpr_mov_b32"},
        {AMD_GFX11, "s_waitcnt_vmcnt"},
        {AMD_GFX11, "s_waitcnt_expcnt"},
        {AMD_GFX11, "s_waitcnt_lgkmcnt"},
        {AMD_GFX11, "v_cmp_class_f16"},
        {AMD_GFX11, "v_cmpx_class_f16"},
        {AMD_GFX12, "v_cmp_class_f16"},
        {AMD_GFX12, "v_cmpx_class_f16"},
        /* llvm-mc-19 still disassembles SOPP opcode 9 as s_waitcnt on gfx12, whose ISA
         * replaced it with the split s_wait_* counters: amdsim rejects it there */
        {AMD_GFX12, "s_waitcnt"},
};

static void add(struct run *r, unsigned fmt, unsigned op, unsigned nw, uint32_t w0, uint32_t w1)
{
	if (r->n >= MAX_PROBES)
		return;
	struct probe *p = &r->p[r->n++];
	memset(p, 0, sizeof *p);
	p->fmt = (uint8_t)fmt;
	p->op = (uint16_t)op;
	p->nw = (uint8_t)nw;
	p->w[0] = w0;
	p->w[1] = w1;
}

/* First two dwords of a probe of (fmt, op), or 0 dwords if op is out of the field's range. */
static unsigned base_words(enum amd_gen gen, unsigned fmt, unsigned op, uint32_t *w)
{
	bool gfx10p = gen >= AMD_GFX10, gfx11 = gen >= AMD_GFX11, gfx12 = gen >= AMD_GFX12;
	const uint32_t vsrc3 = 0x102 | (0x104 << 9) | (0x106u << 18);
	switch (fmt) {
	case SIM_FMT_SOP2:
		return op < 0x60 ? (w[0] = (2u << 30) | (op << 23) | (2 << 8) | 4, 1) : 0;
	case SIM_FMT_SOPK:
		return op < 29 ? (w[0] = (0xBu << 28) | (op << 23) | 0x10, 1) : 0;
	case SIM_FMT_SOP1:
		return op < 256 ? (w[0] = 0xBE800000u | (op << 8) | 2, 1) : 0;
	case SIM_FMT_SOPC:
		return op < 128 ? (w[0] = 0xBF000000u | (op << 16) | (2 << 8) | 4, 1) : 0;
	case SIM_FMT_SOPP:
		return op < 128 ? (w[0] = 0xBF800000u | (op << 16), 1) : 0;
	case SIM_FMT_VOP2:
		return op < 0x3F ? (w[0] = (op << 25) | (1 << 17) | (2 << 9) | 0x103, 1) : 0;
	case SIM_FMT_VOP1:
		return op < 256 ? (w[0] = 0x7E000000u | (op << 9) | (2 << 17) | 0x104, 1) : 0;
	case SIM_FMT_VOPC:
		return op < 256 ? (w[0] = 0x7C000000u | (op << 17) | (2 << 9) | 0x104, 1) : 0;
	case SIM_FMT_SMEM:
		if (gfx12) /* op [18:13]; soffset NULL (124) */
			return op < 64 ? (w[0] = 0xF4000000u | (op << 13) | (8 << 6) | 2,
			                  w[1] = 0xF8000000u, 2)
			               : 0;
		if (gfx10p) /* soffset NULL: 124 on gfx11, 125 on gfx10 */
			return op < 256 ? (w[0] = 0xF4000000u | (op << 18) | (8 << 6) | 2,
			                   w[1] = gfx11 ? 0xF8000000u : 0xFA000000u, 2)
			                : 0;
		return op < 256 ? (w[0] = 0xC0000000u | (op << 18) | (1 << 17) | (8 << 6) | 2,
		                   w[1] = 0, 2)
		                : 0;
	case SIM_FMT_VOP3:
		w[0] = (gfx10p ? 0xD4000000u : 0xD0000000u) | (op << 16) | 2;
		w[1] = vsrc3;
		return op < 1024 ? 2 : 0;
	case SIM_FMT_VOP3P:
		w[0] = (gfx10p ? 0xCC000000u : 0xD3800000u) | (op << 16) | 2;
		w[1] = vsrc3 | (3u << 27);
		return op < 128 ? 2 : 0;
	case SIM_FMT_DS:
		w[0] = 0xD8000000u | (op << (gfx10p ? 18 : 17));
		w[1] = 2 | (4 << 8) | (6 << 16) | (8u << 24);
		return op < 256 ? 2 : 0;
	case SIM_FMT_FLAT:
	case SIM_FMT_SCRATCH:
	case SIM_FMT_GLOBAL: {
		unsigned seg = fmt == SIM_FMT_FLAT ? 0 : fmt == SIM_FMT_SCRATCH ? 1 : 2;
		if (gfx12) { /* VFLAT/VSCRATCH/VGLOBAL: saddr NULL, vdst v8, vsrc v4 (SVE), vaddr v2
			      */
			w[0] = ((0xECu + seg) << 24) | (op << 14) | 0x7C;
			w[1] = 8 | (4u << 23) | (seg == 1 ? 1u << 17 : 0);
			w[2] = 2;
			return op < 128 ? 3 : 0;
		}
		w[0] = 0xDC000000u | (op << 18) | (seg << (gfx11 ? 16 : 14));
		w[1] = 2 | (4 << 8) | ((gfx11 ? 0x7Cu : gfx10p ? 0x7Du : 0x7Fu) << 16) | (8u << 24);
		return op < 128 ? 2 : 0;
	}
	case SIM_FMT_MUBUF:
		if (gfx12) { /* VBUFFER: soffset NULL, vdata v8, s[4:7], format 1, offen, vaddr v2
			      */
			w[0] = 0xC4000000u | (op << 14) | 0x7C;
			w[1] = 8 | (4 << 9) | (1u << 23) | (1u << 30);
			w[2] = 2;
			return op < 256 ? 3 : 0;
		}
		/* offen: bit 12 on gfx9/gfx10, bit 54 on gfx11 */
		w[0] = 0xE0000000u | (op << 18) | (gfx11 ? 0 : 1 << 12);
		w[1] = 2 | (4 << 8) | (1 << 16) | (0x80u << 24) | (gfx11 ? 1 << 22 : 0);
		return op < (gfx10p ? 256u : 128u) ? 2 : 0;
	default:
		return 0;
	}
}

/* All probes of a generation: the base form plus variants with fields LLVM insists be zero,
 * even-aligned packed registers or EXEC as a VOPC-as-VOP3 destination. */
static void build_probes(struct run *r)
{
	bool gfx11 = r->gen >= AMD_GFX11;
	for (unsigned fmt = 0; fmt <= SIM_FMT_MUBUF; fmt++)
		for (unsigned op = 0; op < 1024; op++) {
			uint32_t w[3] = {0, 0, 0};
			unsigned nw = base_words(r->gen, fmt, op, w);
			if (!nw)
				continue;
			add(r, fmt, op, nw, w[0], w[1]);
			if (nw == 3) { /* gfx12 memory: also without the data register */
				r->p[r->n - 1].w[2] = w[2];
				add(r, fmt, op, 3, w[0], w[1] & 0xFF);
				r->p[r->n - 1].w[2] = w[2];
				add(r, fmt, op, 3, w[0], w[1] & ~0xFFu);
				r->p[r->n - 1].w[2] = w[2];
			}
			if (fmt == SIM_FMT_SOP1 || fmt == SIM_FMT_SOPK || fmt == SIM_FMT_SOP2 ||
			    fmt == SIM_FMT_SOPC) {
				uint32_t clear = fmt == SIM_FMT_SOP1   ? 0x7F00FF
				                 : fmt == SIM_FMT_SOPC ? 0xFFFF
				                                       : 0x7FFFFF;
				add(r, fmt, op, 1, w[0] & ~0xFFu, 0);
				add(r, fmt, op, 1, w[0] & ~clear, 0);
			}
			if (fmt == SIM_FMT_VOP3P) {
				uint32_t b = w[0] & ~0xFFu;
				add(r, fmt, op, 2, b, 0x104 | (0x106 << 9));
				add(r, fmt, op, 2, b, 0x104 | (0x106 << 9) | (3u << 27));
				add(r, fmt, op, 2, b | 0x4004, 0x80 | (0x80 << 9) | (3u << 27));
				add(r, fmt, op, 2, b | 0x4000, 0x101 | (3u << 27));
			}
			if (nw == 2) {
				static const uint32_t masks[] = {0xFF00FFFF, 0x00FFFFFF, 0x0000FFFF,
				                                 0x000000FF};
				for (unsigned m = 0; m < 4; m++)
					add(r, fmt, op, 2, w[0], w[1] & masks[m]);
				if (fmt == SIM_FMT_VOP3)
					add(r, fmt, op, 2, (w[0] & ~0xFFu) | 0x7E, w[1] & 0x3FFFF);
			}
		}
	if (!gfx11)
		return;
	/* VOPD: opx in [25:22], opy in [21:17]; vdstx = v4, vdsty = v3 */
	for (unsigned opx = 0; opx < 16; opx++)
		for (unsigned opy = 0; opy < 32; opy++)
			add(r, SIM_FMT_VOPDX, opx << 5 | opy, 2,
			    0xC8000000u | (opx << 22) | (opy << 17) | (2 << 9) | 0x104,
			    0x106 | (8 << 9) | (1 << 17) | (4u << 24));
}

/* Runs llvm-mc-19 over all probes; each probe is preceded by a marker "s_sleep i" so output
 * lines map back to probes, and counts only if its first dword re-encodes unchanged. */
static bool disassemble(struct run *r)
{
	char path[] = "/tmp/sim_optable_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		perror("sim_optable_test: temporary file");
		return false;
	}
	for (unsigned i = 0; i < r->n; i++) {
		fprintf(f, "0x%02x,0x%02x,0x%02x,0xbf\n", i & 255, i >> 8,
		        r->gen >= AMD_GFX11 ? 0x83 : 0x8e); /* s_sleep */
		const struct probe *p = &r->p[i];
		for (unsigned k = 0; k <= p->nw; k++) {
			uint32_t w =
			        k < p->nw ? p->w[k] : 0xBF800000u; /* s_nop absorbs a literal */
			fprintf(f, "%s0x%02x,0x%02x,0x%02x,0x%02x", k ? "," : "", w & 255,
			        (w >> 8) & 255, (w >> 16) & 255, w >> 24);
		}
		fputc('\n', f);
	}
	fclose(f);
	char cmd[256];
	snprintf(cmd, sizeof cmd,
	         "llvm-mc-19 -disassemble -show-encoding -triple=amdgcn-amd-amdhsa -mcpu=%s "
	         "< %s 2>/dev/null",
	         r->cpu, path);
	FILE *out = popen(cmd, "r");
	if (!out) {
		unlink(path);
		perror("sim_optable_test: llvm-mc-19");
		return false;
	}
	char line[512];
	long cur = -1;
	bool taken = true;
	unsigned lines = 0;
	while (fgets(line, sizeof line, out)) {
		char *enc = strstr(line, "; encoding: [");
		if (!enc)
			continue;
		lines++;
		char name[64], rest[400];
		if (sscanf(line, " %63s", name) != 1)
			continue;
		size_t nlen = strlen(name);
		char *after = strstr(line, name) + nlen;
		snprintf(rest, sizeof rest, "%.*s", (int)(enc - after), after);
		if (!strcmp(name, "s_sleep")) {
			cur = strtol(rest, NULL, 0);
			taken = false;
			continue;
		}
		if (taken || cur < 0 || cur >= (long)r->n)
			continue;
		taken = true;
		unsigned b[4];
		if (sscanf(enc, "; encoding: [0x%x,0x%x,0x%x,0x%x", &b[0], &b[1], &b[2], &b[3]) !=
		    4)
			continue;
		struct probe *p = &r->p[cur];
		if ((b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) != p->w[0])
			continue;
		char *y = strstr(rest, "::");
		char yname[64] = "";
		if (y)
			sscanf(y + 2, " %63s", yname);
		snprintf(p->llvm, sizeof p->llvm, "%s%s%s", name, y ? " " : "", yname);
	}
	int st = pclose(out);
	unlink(path);
	if (st != 0 || lines == 0) {
		fprintf(stderr, "sim_optable_test: llvm-mc-19 failed for %s\n", r->cpu);
		return false;
	}
	return true;
}

/* mnemonic without the v_dual_ prefix and _e32/_e64 suffix (as amdsim spells its rows) */
static void norm(const char *in, char *out, size_t n)
{
	if (!strncmp(in, "v_dual_", 7))
		snprintf(out, n, "v_%s", in + 7);
	else
		snprintf(out, n, "%s", in);
	size_t l = strlen(out);
	if (l > 4 && (!strcmp(out + l - 4, "_e32") || !strcmp(out + l - 4, "_e64")))
		out[l - 4] = 0;
}

static bool has_semantics(const char *name)
{
	const struct sim_sem *(*const tables[])(unsigned *) = {sim_sems_salu, sim_sems_valu,
	                                                       sim_sems_v16,  sim_sems_vmisc,
	                                                       sim_sems_mem,  sim_sems_s12};
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		unsigned n;
		const struct sim_sem *rows = tables[t](&n);
		for (unsigned i = 0; i < n; i++)
			if (!strcmp(rows[i].name, name))
				return true;
	}
	return false;
}

static bool is_known_missing(enum amd_gen gen, const char *name)
{
	for (size_t i = 0; i < sizeof known_missing / sizeof known_missing[0]; i++)
		if ((known_missing[i].gen < 0 || known_missing[i].gen == (int)gen) &&
		    !strcmp(known_missing[i].name, name))
			return true;
	return false;
}

static const char *const gen_cpu[AMD_NUM_GENS] = {[AMD_GFX9] = "gfx90a",
                                                  [AMD_GFX940] = "gfx942",
                                                  [AMD_GFX10] = "gfx1030",
                                                  [AMD_GFX11] = "gfx1100",
                                                  [AMD_GFX12] = "gfx1200"};

struct tally {
	unsigned agree, bad, gap, known, unchecked;
};

/* Compares amdsim's decoding of one half (row of the decode map) with llvm-mc's mnemonic. */
static void judge(struct tally *t, const struct sim_ctx *c, const struct probe *p, unsigned row,
                  const char *llvm_name)
{
	char want[96];
	norm(llvm_name, want, sizeof want);
	if (row) {
		const char *got = c->entry_name[row - 1];
		if (!strcmp(got, want)) {
			t->agree++;
			return;
		}
		t->bad++;
		printf("MISMATCH %s format %u opcode %u [%08x %08x]: llvm-mc-19 says %s, amdsim "
		       "(shared table) says %s\n",
		       gen_cpu[c->gen], p->fmt, p->op, p->w[0], p->w[1], want, got);
		return;
	}
	if (!has_semantics(want))
		return;
	if (is_known_missing(c->gen, want)) {
		t->known++;
		return;
	}
	t->gap++;
	printf("GAP gen %d format %u opcode %u: amdsim implements %s but the shared table has "
	       "no row for it\n",
	       (int)c->gen, p->fmt, p->op, want);
}

static bool check_gen(enum amd_gen gen, const char *cpu)
{
	struct run r = {.gen = gen, .cpu = cpu};
	r.p = calloc(MAX_PROBES, sizeof *r.p);
	if (!r.p)
		return false;
	build_probes(&r);
	if (!disassemble(&r)) {
		free(r.p);
		return false;
	}
	struct sim_ctx c;
	memset(&c, 0, sizeof c);
	pa_arena_init(&c.arena);
	c.gen = gen;
	sim_decode_init(&c);
	uint32_t code[MAX_WORDS + 1];
	c.code = (const uint8_t *)code;
	c.code_size = sizeof code;
	struct sim_insn icache[MAX_WORDS + 2];
	c.icache = icache;
	struct tally t = {0};
	/* one judgement per (format, opcode): the first probe llvm-mc accepted */
	static const unsigned limit = 1024;
	uint8_t *seen = calloc((size_t)SIM_NUM_FMTS * limit, 1);
	for (unsigned i = 0; i < r.n && seen; i++) {
		const struct probe *p = &r.p[i];
		if (!p->llvm[0])
			continue;
		if (seen[p->fmt * limit + p->op])
			continue;
		seen[p->fmt * limit + p->op] = 1;
		memset(code, 0, sizeof code);
		memcpy(code, p->w, p->nw * sizeof p->w[0]);
		code[p->nw] = 0xBF800000u;
		memset(icache, 0, sizeof icache);
		const struct sim_insn *in = sim_decode(&c, 0);
		if (!in)
			continue;
		char x[96], y[96] = "";
		if (sscanf(p->llvm, "%95s %95s", x, y) < 1)
			continue;
		if (p->fmt == SIM_FMT_VOPDX) {
			judge(&t, &c, p, in->fmt == SIM_FMT_VOPDX ? in[0].row : 0, x);
			judge(&t, &c, p, in->fmt == SIM_FMT_VOPDX ? in[1].row : 0, y);
			continue;
		}
		if (p->fmt != SIM_FMT_SOPP && p->fmt != SIM_FMT_SOP1 && !strcmp(x, "s_nop"))
			continue; /* the probe's prefix was not this format's after all */
		judge(&t, &c, p, in->row, x);
	}
	/* opcodes with a shared-table row that no probe reached are not judged */
	for (unsigned f = 0; f < SIM_FMT_VOPDX && seen; f++)
		for (unsigned op = 0; op < limit; op++)
			if (c.decode_map[f][op] && !seen[f * limit + op])
				t.unchecked++;
	printf("%-8s %u opcodes agree with llvm-mc-19, %u disagree, %u implemented but "
	       "undecodable, %u known unimplemented, %u table opcodes not reached by a probe\n",
	       cpu, t.agree, t.bad, t.gap, t.known, t.unchecked);
	bool ok = seen && t.bad == 0 && t.gap == 0 && t.agree > 500;
	free(seen);
	pa_arena_free(&c.arena);
	free(r.p);
	return ok;
}

int main(void)
{
	bool ok = check_gen(AMD_GFX9, "gfx90a");
	ok = check_gen(AMD_GFX940, "gfx942") && ok;
	ok = check_gen(AMD_GFX10, "gfx1030") && ok;
	ok = check_gen(AMD_GFX11, "gfx1100") && ok;
	ok = check_gen(AMD_GFX12, "gfx1200") && ok;
	return ok ? 0 : 1;
}
