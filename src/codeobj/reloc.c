/* The relocatable code object writer (ET_REL, what clang-19 -c writes).
 *
 * Algorithm: the section contents of co_build_image go into .text, .rodata, .data,
 * .bss and .note at offset 0 each; every kernel descriptor gets LLVM's
 * R_AMDGPU_REL64 (kernel symbol + 16) for its entry offset, and every co_reloc
 * becomes an Elf64_Rela in .rela.text/.rela.rodata/.rela.data against a defined or
 * undefined global symbol.  Kernels, descriptors and visible data are GLOBAL
 * PROTECTED (exported after linking, as LLVM marks them); visible device functions
 * are GLOBAL HIDDEN (linkable, not exported); the rest are LOCAL.  With line information
 * (dwarf.c) .debug_abbrev/.debug_info/.debug_line follow .note, their addresses and section
 * offsets left 0 and relocated (.rela.debug_info/.rela.debug_line: R_AMDGPU_ABS64 against
 * the kernel or function, R_AMDGPU_ABS32 against local section symbols), as clang -g writes them.
 * requires: co_build_image; breaks: nothing.  Complexity: O(file size + symbols). */
#include "image.h"

#include <elf.h>
#include <string.h>

enum rel_index {
	R_NULL,
	R_TEXT,
	R_RELA_TEXT,
	R_RODATA,
	R_RELA_RODATA,
	R_DATA,
	R_RELA_DATA,
	R_BSS,
	R_NOTE,
	R_DEBUG_ABBREV, /* (the .debug_* sections only with line information) */
	R_DEBUG_INFO,
	R_RELA_DEBUG_INFO,
	R_DEBUG_LINE,
	R_RELA_DEBUG_LINE,
	R_SYMTAB,
	R_STRTAB,
	R_SHSTRTAB,
	R_COUNT
};

struct rel_ctx {
	const struct co_module *m;
	struct co_image img;
	struct co_bytes rela[CO_NSEC];
	struct co_bytes symtab, strtab, shstrtab;
	const char **undef; /* undefined symbol names, in first-use order */
	size_t nundef;
	uint32_t *sym_index; /* image symbol -> .symtab index */
	bool has_rela[CO_NSEC];
	size_t map[R_COUNT];
	struct co_out_sec secs[R_COUNT];
	struct co_debug debug; /* with line information (dwarf.c), addresses 0 */
	struct co_bytes rela_debug_info, rela_debug_line;
};

enum { R_AMDGPU_ABS32_TYPE = 6 };

static void put_sym(struct co_bytes *tab, uint32_t name, uint8_t info, uint8_t other,
                    uint16_t shndx, uint64_t value, uint64_t size)
{
	uint8_t e[24] = {0};
	co_put32(e, name);
	e[4] = info;
	e[5] = other;
	e[6] = (uint8_t)shndx;
	e[7] = (uint8_t)(shndx >> 8);
	co_put64(e + 8, value);
	co_put64(e + 16, size);
	co_bytes_append(tab, e, 24);
}

static uint16_t shndx_of(const struct rel_ctx *c, enum co_sec s)
{
	static const enum rel_index out_of[CO_NSEC] = {[CO_SEC_TEXT] = R_TEXT,
	                                               [CO_SEC_RODATA] = R_RODATA,
	                                               [CO_SEC_DATA] = R_DATA,
	                                               [CO_SEC_BSS] = R_BSS};
	return s == CO_SEC_UNDEF ? 0 : (uint16_t)c->map[out_of[s]];
}

static bool is_exported(const struct co_sym *s)
{
	return s->is_global && s->sec != CO_SEC_UNDEF;
}

static void emit_sym(struct rel_ctx *c, size_t i, bool global)
{
	const struct co_sym *s = &c->img.syms[i];
	uint8_t type = s->kind == CO_SYM_KERNEL || s->kind == CO_SYM_FUNC ? STT_FUNC : STT_OBJECT;
	uint8_t vis = !global ? STV_DEFAULT : s->kind == CO_SYM_FUNC ? STV_HIDDEN : STV_PROTECTED;
	c->sym_index[i] = (uint32_t)(c->symtab.size / 24);
	put_sym(&c->symtab, co_strtab_add(&c->strtab, s->name),
	        (uint8_t)((global ? STB_GLOBAL : STB_LOCAL) << 4 | type), vis, shndx_of(c, s->sec),
	        s->value, s->size);
}

/* Symbol index for a relocation target; unknown names become undefined globals. */
static uint32_t target_index(struct rel_ctx *c, const char *name, uint32_t first_undef)
{
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (!strcmp(c->img.syms[i].name, name) && c->img.syms[i].sec != CO_SEC_UNDEF)
			return c->sym_index[i];
	for (size_t i = 0; i < c->nundef; i++)
		if (!strcmp(c->undef[i], name))
			return first_undef + (uint32_t)i;
	c->undef[c->nundef] = name;
	return first_undef + (uint32_t)c->nundef++;
}

static void put_rela(struct co_bytes *b, uint64_t off, uint32_t sym, uint32_t type, int64_t addend)
{
	uint8_t e[24];
	co_put64(e, off);
	co_put64(e + 8, (uint64_t)sym << 32 | type);
	co_put64(e + 16, (uint64_t)addend);
	co_bytes_append(b, e, 24);
}

/* The line information's addresses (ABS64 against the kernel or function) and section offsets
 * (ABS32 against the section symbols 1 and 2), as LLVM relocates its .debug_* sections. */
static void debug_relocs(struct rel_ctx *c)
{
	const struct co_debug_reloc *r = (const struct co_debug_reloc *)c->debug.relocs.data;
	size_t n = c->debug.relocs.size / sizeof *r;
	for (size_t i = 0; i < n; i++) {
		struct co_bytes *to = r[i].in_line ? &c->rela_debug_line : &c->rela_debug_info;
		if (r[i].target == CO_DT_CODE) {
			size_t p = r[i].code, nk = c->m->nkernels;
			const char *name =
			        p < nk ? c->m->kernels[p].name : c->m->functions[p - nk].name;
			const struct co_sym *k = co_find_sym(&c->img, name);
			put_rela(to, r[i].offset, c->sym_index[k - c->img.syms], CO_R_ABS64, 0);
		} else {
			put_rela(to, r[i].offset, r[i].target == CO_DT_ABBREV ? 1 : 2,
			         R_AMDGPU_ABS32_TYPE, 0);
		}
	}
}

static bool build_symbols_and_relocs(struct rel_ctx *c, struct pa_arena *a, struct pa_diag *d)
{
	const struct co_module *m = c->m;
	c->sym_index = PA_NEW_ARRAY(a, uint32_t, c->img.nsyms + 1);
	c->undef = PA_NEW_ARRAY(a, const char *, m->nrelocs + 1);
	put_sym(&c->symtab, 0, 0, 0, 0, 0, 0);
	co_strtab_add(&c->strtab, "");
	if (m->line_info) { /* 1, 2: what .debug_info's section offsets are relative to */
		put_sym(&c->symtab, 0, STB_LOCAL << 4 | STT_SECTION, 0,
		        (uint16_t)c->map[R_DEBUG_ABBREV], 0, 0);
		put_sym(&c->symtab, 0, STB_LOCAL << 4 | STT_SECTION, 0,
		        (uint16_t)c->map[R_DEBUG_LINE], 0, 0);
	}
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (!is_exported(&c->img.syms[i]) && c->img.syms[i].sec != CO_SEC_UNDEF)
			emit_sym(c, i, false);
	uint32_t first_global = (uint32_t)(c->symtab.size / 24);
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (is_exported(&c->img.syms[i]))
			emit_sym(c, i, true);
	uint32_t first_undef = (uint32_t)(c->symtab.size / 24);
	for (size_t i = 0; i < m->nkernels; i++) {
		const struct co_sym *k = co_find_sym(&c->img, m->kernels[i].name);
		put_rela(&c->rela[CO_SEC_RODATA], c->img.kernel_kd_off[i] + 16,
		         c->sym_index[k - c->img.syms], CO_R_REL64, 16);
	}
	for (size_t i = 0; i < m->nrelocs; i++) {
		const struct co_reloc *r = &m->relocs[i];
		enum co_sec sec;
		uint64_t off;
		if (!co_reloc_site(m, &c->img, r, &sec, &off, d))
			return false;
		if (!r->symbol || !r->symbol[0]) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "relocation without a symbol");
			return false;
		}
		put_rela(&c->rela[sec], off, target_index(c, r->symbol, first_undef), r->type,
		         r->addend);
	}
	debug_relocs(c);
	for (size_t i = 0; i < c->nundef; i++)
		put_sym(&c->symtab, co_strtab_add(&c->strtab, c->undef[i]),
		        STB_GLOBAL << 4 | STT_NOTYPE, STV_DEFAULT, 0, 0, 0);
	c->secs[R_SYMTAB].info = first_global;
	return true;
}

static void plan_debug(struct rel_ctx *c)
{
	struct co_out_sec *s = c->secs;
	const struct co_debug *g = &c->debug;
	s[R_DEBUG_ABBREV] = (struct co_out_sec){.name = ".debug_abbrev",
	                                        .type = SHT_PROGBITS,
	                                        .size = g->abbrev.size,
	                                        .align = 1,
	                                        .data = g->abbrev.data};
	s[R_DEBUG_INFO] = (struct co_out_sec){.name = ".debug_info",
	                                      .type = SHT_PROGBITS,
	                                      .size = g->info.size,
	                                      .align = 1,
	                                      .data = g->info.data};
	s[R_DEBUG_LINE] = (struct co_out_sec){.name = ".debug_line",
	                                      .type = SHT_PROGBITS,
	                                      .size = g->line.size,
	                                      .align = 1,
	                                      .data = g->line.data};
	s[R_RELA_DEBUG_INFO] = (struct co_out_sec){.name = ".rela.debug_info",
	                                           .type = SHT_RELA,
	                                           .flags = SHF_INFO_LINK,
	                                           .align = 8,
	                                           .entsize = 24};
	s[R_RELA_DEBUG_LINE] = (struct co_out_sec){.name = ".rela.debug_line",
	                                           .type = SHT_RELA,
	                                           .flags = SHF_INFO_LINK,
	                                           .align = 8,
	                                           .entsize = 24};
}

static void plan(struct rel_ctx *c)
{
	struct co_image *img = &c->img;
	const uint64_t A = SHF_ALLOC;
	struct co_out_sec *s = c->secs;
	s[R_TEXT] = (struct co_out_sec){
	        ".text", SHT_PROGBITS,  A | SHF_EXECINSTR, 0, 0, img->text.size, 256, 0, 0,
	        0,       img->text.data};
	s[R_RODATA] = (struct co_out_sec){".rodata",        SHT_PROGBITS,      A, 0, 0,
	                                  img->rodata.size, img->rodata_align, 0, 0, 0,
	                                  img->rodata.data};
	s[R_DATA] = (struct co_out_sec){
	        ".data", SHT_PROGBITS,  A | SHF_WRITE, 0, 0, img->data.size, img->data_align, 0, 0,
	        0,       img->data.data};
	s[R_BSS] = (struct co_out_sec){
	        ".bss", SHT_NOBITS, A | SHF_WRITE, 0, 0, img->bss_size, img->bss_align, 0,
	        0,      0,          NULL};
	s[R_NOTE] = (struct co_out_sec){".note", SHT_NOTE,      A, 0, 0, img->note.size, 4, 0, 0,
	                                0,       img->note.data};
	const char *rela_names[] = {[R_RELA_TEXT] = ".rela.text",
	                            [R_RELA_RODATA] = ".rela.rodata",
	                            [R_RELA_DATA] = ".rela.data"};
	const enum co_sec rela_of[] = {[R_RELA_TEXT] = CO_SEC_TEXT,
	                               [R_RELA_RODATA] = CO_SEC_RODATA,
	                               [R_RELA_DATA] = CO_SEC_DATA};
	for (int o = R_RELA_TEXT; o <= R_RELA_DATA; o += 2) {
		s[o] = (struct co_out_sec){rela_names[o],
		                           SHT_RELA,
		                           SHF_INFO_LINK,
		                           0,
		                           0,
		                           c->has_rela[rela_of[o]],
		                           8,
		                           24,
		                           0,
		                           0,
		                           NULL};
	}
	plan_debug(c);
	s[R_SYMTAB] = (struct co_out_sec){".symtab", SHT_SYMTAB, 0, 0, 0, 0, 8, 24, 0, 0, NULL};
	s[R_STRTAB] = (struct co_out_sec){".strtab", SHT_STRTAB, 0, 0, 0, 0, 1, 0, 0, 0, NULL};
	s[R_SHSTRTAB] = (struct co_out_sec){".shstrtab", SHT_STRTAB, 0, 0, 0, 0, 1, 0, 0, 0, NULL};
	size_t n = 0;
	for (int o = R_TEXT; o < R_COUNT; o++) {
		bool empty_optional =
		        (o == R_RODATA || o == R_DATA || o == R_BSS || o == R_RELA_TEXT ||
		         o == R_RELA_RODATA || o == R_RELA_DATA) &&
		        s[o].size == 0;
		bool debug = o >= R_DEBUG_ABBREV && o <= R_RELA_DEBUG_LINE;
		c->map[o] = empty_optional || (debug && !c->m->line_info) ? 0 : ++n;
	}
	s[R_RELA_DEBUG_INFO].info = (uint32_t)c->map[R_DEBUG_INFO];
	s[R_RELA_DEBUG_LINE].info = (uint32_t)c->map[R_DEBUG_LINE];
	s[R_RELA_DEBUG_INFO].link = s[R_RELA_DEBUG_LINE].link = (uint32_t)c->map[R_SYMTAB];
	for (int o = R_RELA_TEXT; o <= R_RELA_DATA; o += 2) {
		s[o].info = (uint32_t)c->map[o - 1];
		s[o].link = (uint32_t)c->map[R_SYMTAB];
	}
	s[R_SYMTAB].link = (uint32_t)c->map[R_STRTAB];
}

static bool emit(struct rel_ctx *c, struct co_buffer *out, struct pa_diag *d)
{
	struct co_out_sec *s = c->secs;
	const enum co_sec rela_of[] = {[R_RELA_TEXT] = CO_SEC_TEXT,
	                               [R_RELA_RODATA] = CO_SEC_RODATA,
	                               [R_RELA_DATA] = CO_SEC_DATA};
	for (int o = R_RELA_TEXT; o <= R_RELA_DATA; o += 2) {
		s[o].size = c->rela[rela_of[o]].size;
		s[o].data = c->rela[rela_of[o]].data;
	}
	s[R_RELA_DEBUG_INFO].size = c->rela_debug_info.size;
	s[R_RELA_DEBUG_INFO].data = c->rela_debug_info.data;
	s[R_RELA_DEBUG_LINE].size = c->rela_debug_line.size;
	s[R_RELA_DEBUG_LINE].data = c->rela_debug_line.data;
	s[R_SYMTAB].size = c->symtab.size;
	s[R_SYMTAB].data = c->symtab.data;
	s[R_STRTAB].size = c->strtab.size;
	s[R_STRTAB].data = c->strtab.data;
	for (int o = R_TEXT; o < R_COUNT; o++)
		if (c->map[o])
			co_strtab_add(&c->shstrtab, s[o].name);
	s[R_SHSTRTAB].size = c->shstrtab.size;
	s[R_SHSTRTAB].data = c->shstrtab.data;
	struct co_out_sec secs[R_COUNT + 1] = {{0}};
	size_t n = 1;
	uint64_t off = sizeof(Elf64_Ehdr);
	for (int o = R_TEXT; o < R_COUNT; o++) {
		if (!c->map[o])
			continue;
		uint64_t a = s[o].align ? s[o].align : 1;
		off = (off + a - 1) / a * a;
		s[o].offset = off;
		if (s[o].type != SHT_NOBITS)
			off += s[o].size;
		secs[n++] = s[o];
	}
	struct co_out_file f = {.type = ET_REL,
	                        .e_flags = c->img.e_flags,
	                        .abi_version = c->img.abi_version,
	                        .secs = secs,
	                        .nsecs = n,
	                        .shstrndx = c->map[R_SHSTRTAB],
	                        .shoff = (off + 7) / 8 * 8};
	return co_elf_emit(&f, out, d);
}

/* Which relocation sections will have entries (they decide the section numbers,
 * which the symbols need before the entries are written). */
static bool plan_relas(struct rel_ctx *c, struct pa_diag *d)
{
	const struct co_module *m = c->m;
	c->has_rela[CO_SEC_RODATA] = m->nkernels > 0;
	for (size_t i = 0; i < m->nrelocs; i++) {
		enum co_sec sec;
		uint64_t off;
		if (!co_reloc_site(m, &c->img, &m->relocs[i], &sec, &off, d))
			return false;
		c->has_rela[sec] = true;
	}
	return true;
}

bool co_write_relocatable(const struct co_module *m, struct co_buffer *out, struct pa_diag *d)
{
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct rel_ctx c = {.m = m};
	out->data = NULL;
	out->size = 0;
	bool ok = co_build_image(m, &arena, &c.img, d);
	if (ok && m->line_info) { /* (RELA: the fields hold 0, the relocations the values) */
		uint64_t *off = PA_NEW_ARRAY(&arena, uint64_t, m->nkernels + m->nfunctions + 1);
		for (size_t i = 0; i < m->nkernels + m->nfunctions; i++)
			off[i] = i < m->nkernels ? c.img.kernel_text_off[i]
			                         : c.img.func_text_off[i - m->nkernels];
		co_build_debug(m, off, true, &c.debug);
	}
	if (ok) {
		ok = plan_relas(&c, d);
		if (ok)
			plan(&c);
		ok = ok && build_symbols_and_relocs(&c, &arena, d) && emit(&c, out, d);
		co_bytes_free(&c.img.text);
		co_bytes_free(&c.img.rodata);
		co_bytes_free(&c.img.data);
		co_bytes_free(&c.img.note);
	}
	co_bytes_free(&c.symtab);
	co_bytes_free(&c.strtab);
	co_bytes_free(&c.shstrtab);
	co_bytes_free(&c.rela_debug_info);
	co_bytes_free(&c.rela_debug_line);
	co_debug_free(&c.debug);
	for (int i = 0; i < CO_NSEC; i++)
		co_bytes_free(&c.rela[i]);
	pa_arena_free(&arena);
	return ok;
}
