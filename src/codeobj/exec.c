/* The executable code object writer (ET_DYN .hsaco, what hipModuleLoad opens).
 *
 * Algorithm: take the section contents of co_build_image and lay them out as ld.lld-19
 * -shared does: headers, .note, .dynsym, .gnu.hash, .hash, .dynstr, .rodata in the
 * first read-only PT_LOAD; .text in an R+X PT_LOAD; .dynamic (+ .relro_padding to the
 * page end) in a RW PT_LOAD covered by PT_GNU_RELRO; .data/.bss in one more RW
 * PT_LOAD.  A section that starts a segment gets the address align(dot, 4096) +
 * offset % 4096 (lld's rule, which keeps address and file offset congruent without
 * padding the file).  Then descriptors get their entry offsets, relocations are
 * resolved in place, and the symbol and hash tables are filled.  With line information
 * (co_module.line_info) the non-loaded .debug_abbrev/.debug_info/.debug_line (dwarf.c)
 * follow .bss in the file, before .symtab, as lld places them.
 * requires: co_build_image; breaks: nothing.  Complexity: O(file size + symbols). */
#include "image.h"

#include <elf.h>
#include <string.h>

enum {
	PAGE = 0x1000,
	SHT_GNU_HASH_TYPE = 0x6ffffff6,
	DT_GNU_HASH_TAG = 0x6ffffef5,
	DT_RELACOUNT_TAG = 0x6ffffff9,
	R_AMDGPU_RELATIVE64_TYPE = 13,
};

enum out_index {
	O_NULL,
	O_NOTE,
	O_DYNSYM,
	O_GNU_HASH,
	O_HASH,
	O_DYNSTR,
	O_RELA_DYN,
	O_RODATA,
	O_TEXT,
	O_DYNAMIC,
	O_RELRO_PAD,
	O_DATA,
	O_BSS,
	O_DEBUG_ABBREV, /* (the .debug_* sections only with line information) */
	O_DEBUG_INFO,
	O_DEBUG_LINE,
	O_SYMTAB,
	O_SHSTRTAB,
	O_STRTAB,
	O_COUNT
};

struct exec_ctx {
	const struct co_module *m;
	struct co_image img;
	struct co_out_sec secs[O_COUNT];
	size_t map[O_COUNT]; /* enum out_index -> section header index (0: not emitted) */
	struct co_bytes dynsym, gnu_hash, hash, dynstr, dynamic, symtab, strtab, shstrtab;
	struct co_bytes rela_dyn; /* R_AMDGPU_RELATIVE64 for each ABS64 in .data */
	struct co_debug debug;    /* with line information (dwarf.c) */
	size_t nrelative;         /* ABS64 relocations, counted before the layout */
	size_t *dyn_order;        /* image symbol indices in .dynsym order (after the null entry) */
	size_t ndyn;
	uint64_t sec_addr[CO_NSEC]; /* address of each image section */
	Elf64_Phdr phdrs[9];
	size_t nphdrs;
	struct pa_arena *arena;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (uint8_t)*s;
	return h;
}

static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0;
	for (; *s; s++) {
		h = (h << 4) + (uint8_t)*s;
		uint32_t g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

static bool is_dynamic(const struct co_sym *s)
{
	return s->is_global && s->kind != CO_SYM_FUNC && s->sec != CO_SEC_UNDEF;
}

/* .dynsym order: lld sorts the hashed symbols by GNU hash bucket (stably); .dynstr
 * keeps the order in which the symbols were added. */
static void order_dynamic(struct exec_ctx *c)
{
	c->dyn_order = PA_NEW_ARRAY(c->arena, size_t, c->img.nsyms + 1);
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (is_dynamic(&c->img.syms[i]))
			c->dyn_order[c->ndyn++] = i;
	uint32_t nbuckets = c->ndyn / 4 > 1 ? (uint32_t)(c->ndyn / 4) : 1;
	/* stable counting sort by bucket (each name hashed once: a module of 1000 kernels
	 * has 2000 dynamic symbols, and an insertion sort rehashing per comparison was most
	 * of the code object's time) */
	uint32_t *bucket = PA_NEW_ARRAY(c->arena, uint32_t, c->ndyn + 1);
	size_t *start = PA_NEW_ARRAY(c->arena, size_t, nbuckets + 1);
	size_t *sorted = PA_NEW_ARRAY(c->arena, size_t, c->ndyn + 1);
	for (size_t i = 0; i < c->ndyn; i++) {
		bucket[i] = gnu_hash(c->img.syms[c->dyn_order[i]].name) % nbuckets;
		start[bucket[i] + 1]++;
	}
	for (uint32_t b = 0; b < nbuckets; b++)
		start[b + 1] += start[b];
	for (size_t i = 0; i < c->ndyn; i++)
		sorted[start[bucket[i]]++] = c->dyn_order[i];
	c->dyn_order = sorted;
	co_bytes_append(&c->dynstr, "", 1); /* the leading NUL, also when there are no symbols */
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (is_dynamic(&c->img.syms[i]))
			co_strtab_add(&c->dynstr, c->img.syms[i].name);
}

static uint64_t next_pow2_above(uint64_t v)
{
	uint64_t p = 1;
	while (p <= v)
		p <<= 1;
	return p;
}

/* lld's GnuHashTableSection: 12 bloom bits per symbol, Shift2 = 26. */
static void build_gnu_hash(struct exec_ctx *c)
{
	uint32_t nbuckets = c->ndyn / 4 > 1 ? (uint32_t)(c->ndyn / 4) : 1;
	uint32_t maskwords = c->ndyn ? (uint32_t)next_pow2_above(c->ndyn * 12 / 64) : 1;
	size_t size = 16 + 8 * maskwords + 4 * nbuckets + 4 * c->ndyn;
	co_bytes_append(&c->gnu_hash, NULL, size);
	uint8_t *p = c->gnu_hash.data;
	co_put32(p, nbuckets);
	co_put32(p + 4, 1); /* symbol index of the first hashed symbol */
	co_put32(p + 8, maskwords);
	co_put32(p + 12, 26);
	uint8_t *bloom = p + 16, *buckets = bloom + 8 * maskwords, *values = buckets + 4 * nbuckets;
	for (size_t i = 0; i < c->ndyn; i++) {
		uint32_t h = gnu_hash(c->img.syms[c->dyn_order[i]].name);
		uint8_t *w = bloom + 8 * ((h / 64) & (maskwords - 1));
		uint64_t v = 0;
		for (int k = 0; k < 8; k++)
			v |= (uint64_t)w[k] << (8 * k);
		v |= 1ull << (h % 64) | 1ull << ((h >> 26) % 64);
		co_put64(w, v);
	}
	uint32_t old = UINT32_MAX;
	for (size_t i = 0; i < c->ndyn; i++) {
		uint32_t h = gnu_hash(c->img.syms[c->dyn_order[i]].name), b = h % nbuckets;
		bool last = i + 1 == c->ndyn ||
		            gnu_hash(c->img.syms[c->dyn_order[i + 1]].name) % nbuckets != b;
		co_put32(values + 4 * i, last ? h | 1 : h & ~1u);
		if (b != old)
			co_put32(buckets + 4 * b, (uint32_t)(i + 1));
		old = b;
	}
}

/* SysV .hash with as many buckets as .dynsym entries (lld). */
static void build_sysv_hash(struct exec_ctx *c)
{
	uint32_t n = (uint32_t)c->ndyn + 1;
	co_bytes_append(&c->hash, NULL, (2 + 2 * (size_t)n) * 4);
	uint8_t *p = c->hash.data;
	co_put32(p, n);
	co_put32(p + 4, n);
	uint8_t *buckets = p + 8, *chains = buckets + 4 * n;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t b = sysv_hash(c->img.syms[c->dyn_order[i - 1]].name) % n;
		memcpy(chains + 4 * i, buckets + 4 * b, 4);
		co_put32(buckets + 4 * b, i);
	}
}

static void set_sec(struct exec_ctx *c, enum out_index o, const char *name, uint32_t type,
                    uint64_t flags, uint64_t align, uint64_t entsize, const void *data,
                    uint64_t size)
{
	c->secs[o] = (struct co_out_sec){.name = name,
	                                 .type = type,
	                                 .flags = flags,
	                                 .align = align,
	                                 .entsize = entsize,
	                                 .data = data,
	                                 .size = size};
}

/* Assigns file offsets and addresses (see the header comment for lld's rule). */
static void layout(struct exec_ctx *c)
{
	static const int segment_of[O_COUNT] = {
	        [O_NOTE] = 0,    [O_DYNSYM] = 0,    [O_GNU_HASH] = 0, [O_HASH] = 0,
	        [O_DYNSTR] = 0,  [O_RELA_DYN] = 0,  [O_RODATA] = 0,   [O_TEXT] = 1,
	        [O_DYNAMIC] = 2, [O_RELRO_PAD] = 2, [O_DATA] = 3,     [O_BSS] = 3,
	};
	bool has_data = c->img.data.size || c->img.bss_size;
	c->nphdrs = has_data ? 9 : 8;
	uint64_t off = sizeof(Elf64_Ehdr) + c->nphdrs * sizeof(Elf64_Phdr), va = off;
	int segment = 0;
	for (int o = O_NOTE; o <= O_BSS; o++) {
		struct co_out_sec *s = &c->secs[o];
		if (!c->map[o])
			continue;
		if (segment_of[o] != segment) {
			segment = segment_of[o];
			va = align_up(va, PAGE) + off % PAGE;
		}
		if (o == O_RELRO_PAD)
			s->size = align_up(va, PAGE) - va;
		uint64_t a = s->align ? s->align : 1;
		uint64_t pad = align_up(va, a) - va;
		va += pad;
		off += pad;
		s->addr = va;
		s->offset = off;
		va += s->size;
		if (s->type != SHT_NOBITS)
			off += s->size;
	}
	for (int o = O_DEBUG_ABBREV; o < O_COUNT; o++) {
		struct co_out_sec *s = &c->secs[o];
		off = align_up(off, s->align ? s->align : 1);
		s->offset = off;
		off += s->size;
	}
	c->sec_addr[CO_SEC_TEXT] = c->secs[O_TEXT].addr;
	c->sec_addr[CO_SEC_RODATA] = c->secs[O_RODATA].addr;
	c->sec_addr[CO_SEC_DATA] = c->secs[O_DATA].addr;
	c->sec_addr[CO_SEC_BSS] = c->secs[O_BSS].addr;
}

static const struct co_out_sec *first_of(const struct exec_ctx *c, enum out_index a,
                                         enum out_index b)
{
	return c->map[a] ? &c->secs[a] : &c->secs[b];
}

static void add_phdr(struct exec_ctx *c, uint32_t type, uint32_t flags, uint64_t off, uint64_t va,
                     uint64_t filesz, uint64_t memsz, uint64_t align)
{
	c->phdrs[c->nphdrs++] = (Elf64_Phdr){.p_type = type,
	                                     .p_flags = flags,
	                                     .p_offset = off,
	                                     .p_vaddr = va,
	                                     .p_paddr = va,
	                                     .p_filesz = filesz,
	                                     .p_memsz = memsz,
	                                     .p_align = align};
}

static void build_phdrs(struct exec_ctx *c)
{
	size_t n = c->nphdrs;
	c->nphdrs = 0;
	const struct co_out_sec *ro = &c->secs[O_RODATA], *text = &c->secs[O_TEXT];
	const struct co_out_sec *dyn = &c->secs[O_DYNAMIC], *pad = &c->secs[O_RELRO_PAD];
	const struct co_out_sec *note = &c->secs[O_NOTE];
	add_phdr(c, PT_PHDR, PF_R, sizeof(Elf64_Ehdr), sizeof(Elf64_Ehdr), n * sizeof(Elf64_Phdr),
	         n * sizeof(Elf64_Phdr), 8);
	add_phdr(c, PT_LOAD, PF_R, 0, 0, ro->offset + ro->size, ro->addr + ro->size, PAGE);
	add_phdr(c, PT_LOAD, PF_R | PF_X, text->offset, text->addr, text->size, text->size, PAGE);
	uint64_t relro_mem = dyn->size + pad->size;
	add_phdr(c, PT_LOAD, PF_R | PF_W, dyn->offset, dyn->addr, dyn->size, relro_mem, PAGE);
	if (n == 9) {
		const struct co_out_sec *first = first_of(c, O_DATA, O_BSS);
		const struct co_out_sec *bss = &c->secs[O_BSS];
		uint64_t end = c->map[O_BSS] ? bss->addr + bss->size : first->addr + first->size;
		add_phdr(c, PT_LOAD, PF_R | PF_W, first->offset, first->addr,
		         c->map[O_DATA] ? c->secs[O_DATA].size : 0, end - first->addr, PAGE);
	}
	add_phdr(c, PT_DYNAMIC, PF_R | PF_W, dyn->offset, dyn->addr, dyn->size, dyn->size, 8);
	add_phdr(c, PT_GNU_RELRO, PF_R, dyn->offset, dyn->addr, dyn->size, relro_mem, 1);
	add_phdr(c, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0);
	add_phdr(c, PT_NOTE, PF_R, note->offset, note->addr, note->size, note->size, 4);
}

static uint16_t shndx_of(const struct exec_ctx *c, enum co_sec s)
{
	static const enum out_index out_of[CO_NSEC] = {[CO_SEC_TEXT] = O_TEXT,
	                                               [CO_SEC_RODATA] = O_RODATA,
	                                               [CO_SEC_DATA] = O_DATA,
	                                               [CO_SEC_BSS] = O_BSS};
	return s == CO_SEC_UNDEF ? 0 : (uint16_t)c->map[out_of[s]];
}

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

static uint8_t sym_type(const struct co_sym *s)
{
	return s->kind == CO_SYM_KERNEL || s->kind == CO_SYM_FUNC ? STT_FUNC : STT_OBJECT;
}

static void put_image_sym(struct exec_ctx *c, struct co_bytes *tab, struct co_bytes *strs,
                          const struct co_sym *s, bool global)
{
	uint8_t bind = global ? STB_GLOBAL : STB_LOCAL;
	uint8_t vis = global ? STV_PROTECTED : STV_HIDDEN;
	put_sym(tab, co_strtab_add(strs, s->name), (uint8_t)(bind << 4 | sym_type(s)), vis,
	        shndx_of(c, s->sec), c->sec_addr[s->sec] + s->value, s->size);
}

/* .dynsym, .symtab (locals, then _DYNAMIC as lld adds it, then globals). */
static void fill_symbols(struct exec_ctx *c)
{
	put_sym(&c->dynsym, 0, 0, 0, 0, 0, 0);
	struct co_bytes scratch = {0};
	for (size_t i = 0; i < c->ndyn; i++)
		put_image_sym(c, &c->dynsym, &scratch, &c->img.syms[c->dyn_order[i]], true);
	co_bytes_free(&scratch);
	/* Names in .dynsym point into .dynstr, which lists them in image order after its
	 * leading NUL (order_dynamic). */
	uint32_t *dynstr_off = PA_NEW_ARRAY(c->arena, uint32_t, c->img.nsyms + 1);
	uint32_t off = 1;
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (is_dynamic(&c->img.syms[i])) {
			dynstr_off[i] = off;
			off += (uint32_t)strlen(c->img.syms[i].name) + 1;
		}
	for (size_t i = 0; i < c->ndyn; i++)
		co_put32(c->dynsym.data + 24 * (i + 1), dynstr_off[c->dyn_order[i]]);
	put_sym(&c->symtab, 0, 0, 0, 0, 0, 0);
	co_strtab_add(&c->strtab, "");
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (!is_dynamic(&c->img.syms[i]) && c->img.syms[i].sec != CO_SEC_UNDEF)
			put_image_sym(c, &c->symtab, &c->strtab, &c->img.syms[i], false);
	put_sym(&c->symtab, co_strtab_add(&c->strtab, "_DYNAMIC"), STB_LOCAL << 4 | STT_NOTYPE,
	        STV_HIDDEN, (uint16_t)c->map[O_DYNAMIC], c->secs[O_DYNAMIC].addr, 0);
	c->secs[O_SYMTAB].info = (uint32_t)(c->symtab.size / 24);
	for (size_t i = 0; i < c->img.nsyms; i++)
		if (is_dynamic(&c->img.syms[i]))
			put_image_sym(c, &c->symtab, &c->strtab, &c->img.syms[i], true);
}

static void fill_dynamic(struct exec_ctx *c)
{
	/* lld's order: the relocation entries first when there are any. */
	const uint64_t entries[][2] = {
	        {DT_RELA, c->secs[O_RELA_DYN].addr},
	        {DT_RELASZ, 24 * c->nrelative},
	        {DT_RELAENT, 24},
	        {DT_RELACOUNT_TAG, c->nrelative},
	        {DT_SYMTAB, c->secs[O_DYNSYM].addr},
	        {DT_SYMENT, 24},
	        {DT_STRTAB, c->secs[O_DYNSTR].addr},
	        {DT_STRSZ, c->dynstr.size},
	        {DT_GNU_HASH_TAG, c->secs[O_GNU_HASH].addr},
	        {DT_HASH, c->secs[O_HASH].addr},
	        {DT_NULL, 0},
	};
	size_t first = c->nrelative ? 0 : 4;
	for (size_t i = first; i < sizeof entries / sizeof entries[0]; i++) {
		uint8_t e[16];
		co_put64(e, entries[i][0]);
		co_put64(e + 8, entries[i][1]);
		memcpy(c->dynamic.data + 16 * (i - first), e, 16);
	}
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint8_t *site_bytes(struct exec_ctx *c, enum co_sec sec, uint64_t off)
{
	return (sec == CO_SEC_TEXT     ? c->img.text.data
	        : sec == CO_SEC_RODATA ? c->img.rodata.data
	                               : c->img.data.data) +
	       off;
}

/* An absolute address in data: the loader adds the load base, so it becomes a
 * dynamic R_AMDGPU_RELATIVE64 with addend S + A (the data keeps its bytes, as lld
 * leaves them for RELA).  Only in writable .data: a relocation in .rodata or code
 * would need text relocations. */
static bool add_relative(struct exec_ctx *c, const struct co_reloc *r, enum co_sec sec,
                         uint64_t place, uint64_t value, struct pa_diag *d)
{
	if (r->type != CO_R_ABS64 || sec != CO_SEC_DATA) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "relocation type %d against '%s' is only supported in .global "
		               "data of an executable",
		               (int)r->type, r->symbol);
		return false;
	}
	uint8_t e[24];
	co_put64(e, place);
	co_put64(e + 8, R_AMDGPU_RELATIVE64_TYPE);
	co_put64(e + 16, value);
	co_bytes_append(&c->rela_dyn, e, 24);
	return true;
}

/* lld sorts relative relocations by address (-z combreloc). */
static void sort_relative(struct exec_ctx *c)
{
	uint8_t *p = c->rela_dyn.data, tmp[24];
	size_t n = c->rela_dyn.size / 24;
	for (size_t i = 1; i < n; i++) {
		memcpy(tmp, p + 24 * i, 24);
		size_t j = i;
		while (j > 0 && get64(p + 24 * (j - 1)) > get64(tmp)) {
			memcpy(p + 24 * j, p + 24 * (j - 1), 24);
			j--;
		}
		memcpy(p + 24 * j, tmp, 24);
	}
}

static bool apply_relocs(struct exec_ctx *c, struct pa_diag *d)
{
	const struct co_module *m = c->m;
	for (size_t i = 0; i < m->nkernels; i++) {
		uint64_t entry = c->sec_addr[CO_SEC_TEXT] + c->img.kernel_text_off[i];
		uint64_t kd = c->sec_addr[CO_SEC_RODATA] + c->img.kernel_kd_off[i];
		co_put64(c->img.rodata.data + c->img.kernel_kd_off[i] + 16, entry - kd);
	}
	for (size_t i = 0; i < m->nrelocs; i++) {
		const struct co_reloc *r = &m->relocs[i];
		enum co_sec sec;
		uint64_t off;
		if (!co_reloc_site(m, &c->img, r, &sec, &off, d))
			return false;
		const struct co_sym *s = r->symbol ? co_find_sym(&c->img, r->symbol) : NULL;
		if (!s || s->sec == CO_SEC_UNDEF) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "undefined symbol '%s' (link relocatable objects with "
			               "co_link to resolve it)",
			               r->symbol ? r->symbol : "?");
			return false;
		}
		uint64_t S = c->sec_addr[s->sec] + s->value, P = c->sec_addr[sec] + off;
		uint64_t rel = S + (uint64_t)r->addend - P;
		uint8_t *site = site_bytes(c, sec, off);
		if (r->type == CO_R_REL32_LO)
			co_put32(site, (uint32_t)rel);
		else if (r->type == CO_R_REL32_HI)
			co_put32(site, (uint32_t)(rel >> 32));
		else if (r->type == CO_R_REL64)
			co_put64(site, rel);
		else if (!add_relative(c, r, sec, P, S + (uint64_t)r->addend, d))
			return false;
	}
	sort_relative(c);
	return true;
}

static void plan_sections(struct exec_ctx *c)
{
	struct co_image *img = &c->img;
	const uint64_t A = SHF_ALLOC, W = SHF_WRITE;
	set_sec(c, O_NOTE, ".note", SHT_NOTE, A, 4, 0, img->note.data, img->note.size);
	set_sec(c, O_DYNSYM, ".dynsym", SHT_DYNSYM, A, 8, 24, NULL, 24 * (c->ndyn + 1));
	set_sec(c, O_GNU_HASH, ".gnu.hash", SHT_GNU_HASH_TYPE, A, 8, 0, NULL, c->gnu_hash.size);
	set_sec(c, O_HASH, ".hash", SHT_HASH, A, 4, 4, NULL, c->hash.size);
	set_sec(c, O_DYNSTR, ".dynstr", SHT_STRTAB, A, 1, 0, NULL, c->dynstr.size);
	set_sec(c, O_RELA_DYN, ".rela.dyn", SHT_RELA, A, 8, 24, NULL, 24 * c->nrelative);
	set_sec(c, O_RODATA, ".rodata", SHT_PROGBITS, A, img->rodata_align, 0, NULL,
	        img->rodata.size);
	set_sec(c, O_TEXT, ".text", SHT_PROGBITS, A | SHF_EXECINSTR, 256, 0, NULL, img->text.size);
	set_sec(c, O_DYNAMIC, ".dynamic", SHT_DYNAMIC, A | W, 8, 16, NULL, c->dynamic.size);
	set_sec(c, O_RELRO_PAD, ".relro_padding", SHT_NOBITS, A | W, 1, 0, NULL, 0);
	set_sec(c, O_DATA, ".data", SHT_PROGBITS, A | W, img->data_align, 0, NULL, img->data.size);
	set_sec(c, O_BSS, ".bss", SHT_NOBITS, A | W, img->bss_align, 0, NULL, img->bss_size);
	set_sec(c, O_DEBUG_ABBREV, ".debug_abbrev", SHT_PROGBITS, 0, 1, 0, NULL, 0);
	set_sec(c, O_DEBUG_INFO, ".debug_info", SHT_PROGBITS, 0, 1, 0, NULL, 0);
	set_sec(c, O_DEBUG_LINE, ".debug_line", SHT_PROGBITS, 0, 1, 0, NULL, 0);
	set_sec(c, O_SYMTAB, ".symtab", SHT_SYMTAB, 0, 8, 24, NULL, 0);
	set_sec(c, O_SHSTRTAB, ".shstrtab", SHT_STRTAB, 0, 1, 0, NULL, 0);
	set_sec(c, O_STRTAB, ".strtab", SHT_STRTAB, 0, 1, 0, NULL, 0);
	size_t n = 0;
	for (int o = O_NOTE; o < O_COUNT; o++) {
		bool present =
		        !((o == O_DATA && !img->data.size) || (o == O_BSS && !img->bss_size) ||
		          (o == O_RELA_DYN && !c->nrelative) ||
		          (o >= O_DEBUG_ABBREV && o <= O_DEBUG_LINE && !c->m->line_info));
		c->map[o] = present ? ++n : 0;
	}
}

/* Line information, now that the kernels' addresses are known (the sections are not
 * loaded: their offsets are assigned in finish). */
static void build_debug(struct exec_ctx *c)
{
	if (!c->m->line_info)
		return;
	const struct co_module *m = c->m;
	uint64_t *addr = PA_NEW_ARRAY(c->arena, uint64_t, m->nkernels + m->nfunctions + 1);
	for (size_t i = 0; i < m->nkernels + m->nfunctions; i++)
		addr[i] = c->sec_addr[CO_SEC_TEXT] +
		          (i < m->nkernels ? c->img.kernel_text_off[i]
		                           : c->img.func_text_off[i - m->nkernels]);
	co_build_debug(c->m, addr, false, &c->debug);
	c->secs[O_DEBUG_ABBREV].size = c->debug.abbrev.size;
	c->secs[O_DEBUG_INFO].size = c->debug.info.size;
	c->secs[O_DEBUG_LINE].size = c->debug.line.size;
}

static bool finish(struct exec_ctx *c, struct co_buffer *out, struct pa_diag *d)
{
	/* Sizes of .symtab/.strtab are known only after filling; they come last. */
	c->secs[O_SYMTAB].size = c->symtab.size;
	c->secs[O_STRTAB].size = c->strtab.size;
	for (int o = O_NOTE; o < O_COUNT; o++)
		if (c->map[o])
			co_strtab_add(&c->shstrtab, c->secs[o].name);
	c->secs[O_SHSTRTAB].size = c->shstrtab.size;
	uint64_t off = c->secs[O_DEBUG_ABBREV].offset;
	for (int o = O_DEBUG_ABBREV; o < O_COUNT; o++) {
		off = align_up(off, c->secs[o].align);
		c->secs[o].offset = off;
		off += c->secs[o].size;
	}
	c->secs[O_DYNSYM].link = (uint32_t)c->map[O_DYNSTR];
	c->secs[O_DYNSYM].info = 1;
	c->secs[O_GNU_HASH].link = c->secs[O_HASH].link = (uint32_t)c->map[O_DYNSYM];
	c->secs[O_DYNAMIC].link = (uint32_t)c->map[O_DYNSTR];
	c->secs[O_RELA_DYN].link = (uint32_t)c->map[O_DYNSYM];
	c->secs[O_SYMTAB].link = (uint32_t)c->map[O_STRTAB];
	const void *contents[O_COUNT] = {
	        [O_NOTE] = c->img.note.data,
	        [O_DYNSYM] = c->dynsym.data,
	        [O_GNU_HASH] = c->gnu_hash.data,
	        [O_HASH] = c->hash.data,
	        [O_DYNSTR] = c->dynstr.data,
	        [O_RELA_DYN] = c->rela_dyn.data,
	        [O_RODATA] = c->img.rodata.data,
	        [O_TEXT] = c->img.text.data,
	        [O_DYNAMIC] = c->dynamic.data,
	        [O_DATA] = c->img.data.data,
	        [O_DEBUG_ABBREV] = c->debug.abbrev.data,
	        [O_DEBUG_INFO] = c->debug.info.data,
	        [O_DEBUG_LINE] = c->debug.line.data,
	        [O_SYMTAB] = c->symtab.data,
	        [O_SHSTRTAB] = c->shstrtab.data,
	        [O_STRTAB] = c->strtab.data,
	};
	struct co_out_sec secs[O_COUNT + 1] = {{0}};
	size_t n = 1;
	for (int o = O_NOTE; o < O_COUNT; o++) {
		if (!c->map[o])
			continue;
		secs[n] = c->secs[o];
		secs[n].data = contents[o];
		n++;
	}
	struct co_out_file f = {.type = ET_DYN,
	                        .e_flags = c->img.e_flags,
	                        .abi_version = c->img.abi_version,
	                        .secs = secs,
	                        .nsecs = n,
	                        .shstrndx = c->map[O_SHSTRTAB],
	                        .shoff = align_up(off, 8),
	                        .phdrs = c->phdrs,
	                        .nphdrs = c->nphdrs};
	return co_elf_emit(&f, out, d);
}

bool co_write_executable(const struct co_module *m, struct co_buffer *out, struct pa_diag *d)
{
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct exec_ctx c = {.m = m, .arena = &arena};
	out->data = NULL;
	out->size = 0;
	bool ok = co_build_image(m, &arena, &c.img, d);
	if (ok) {
		order_dynamic(&c);
		build_gnu_hash(&c);
		build_sysv_hash(&c);
		for (size_t i = 0; i < m->nrelocs; i++)
			c.nrelative += m->relocs[i].type == CO_R_ABS64;
		co_bytes_append(&c.dynamic, NULL, (c.nrelative ? 11 : 7) * 16);
		plan_sections(&c);
		layout(&c);
		build_debug(&c);
		build_phdrs(&c);
		fill_symbols(&c);
		fill_dynamic(&c);
		ok = apply_relocs(&c, d) && finish(&c, out, d);
		co_bytes_free(&c.img.text);
		co_bytes_free(&c.img.rodata);
		co_bytes_free(&c.img.data);
		co_bytes_free(&c.img.note);
	}
	co_bytes_free(&c.rela_dyn);
	co_debug_free(&c.debug);
	struct co_bytes *tabs[] = {&c.dynsym,  &c.gnu_hash, &c.hash,   &c.dynstr,
	                           &c.dynamic, &c.symtab,   &c.strtab, &c.shstrtab};
	for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++)
		co_bytes_free(tabs[i]);
	pa_arena_free(&arena);
	return ok;
}
