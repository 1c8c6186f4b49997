/* Section contents shared by the executable and relocatable writers.
 *
 * Algorithm: lay out .text as LLVM does (each kernel at a 256-byte boundary, gaps
 * filled with s_nop 0, device functions 4-aligned after the kernels, then the end
 * padding of AMDGPUTargetELFStreamer::EmitCodeEnd: align to the instruction cache
 * line and add three lines of s_code_end on gfx10+, sixteen lines of s_nop 0 on
 * gfx90a/gfx940 — checked against clang-19 for every target in tests/codeobj);
 * .rodata holds the 64-byte kernel descriptors then .const data; .data/.bss the
 * .global data; the note holds the metadata msgpack.  Symbols are listed kernels
 * first (NAME, NAME.kd), then functions, then data.
 * requires: co_compute_descriptor, co_build_metadata; breaks: nothing.
 * Complexity: O(code bytes + symbols). */
#include "image.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

enum {
	S_NOP_0 = 0xbf800000u,
	S_CODE_END = 0xbf9f0000u,
	NT_AMDGPU_METADATA_TYPE = 32,
};

void co_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void co_put64(uint8_t *p, uint64_t v)
{
	co_put32(p, (uint32_t)v);
	co_put32(p + 4, (uint32_t)(v >> 32));
}

static void bytes_reserve(struct co_bytes *b, size_t extra)
{
	if (b->size + extra <= b->cap)
		return;
	size_t cap = b->cap ? b->cap * 2 : 256;
	while (cap < b->size + extra)
		cap *= 2;
	b->data = pa_xrealloc(b->data, cap);
	b->cap = cap;
}

void co_bytes_append(struct co_bytes *b, const void *p, size_t n)
{
	bytes_reserve(b, n);
	if (p)
		memcpy(b->data + b->size, p, n);
	else
		memset(b->data + b->size, 0, n);
	b->size += n;
}

/* Pads to `align` with a repeated 32-bit word (zeros when the gap is not a multiple
 * of 4, which only happens in data). */
static void bytes_align(struct co_bytes *b, size_t align, uint32_t fill)
{
	while (b->size % align) {
		if (b->size % 4 == 0 && align % 4 == 0) {
			uint8_t w[4];
			co_put32(w, fill);
			co_bytes_append(b, w, 4);
		} else {
			co_bytes_append(b, NULL, 1);
		}
	}
}

uint32_t co_strtab_add(struct co_bytes *tab, const char *s)
{
	if (!tab->size)
		co_bytes_append(tab, "", 1);
	uint32_t off = (uint32_t)tab->size;
	co_bytes_append(tab, s, strlen(s) + 1);
	return off;
}

void co_bytes_free(struct co_bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static uint32_t feature_bits(enum amd_feature_setting s, uint32_t any, uint32_t off, uint32_t on)
{
	return s == AMD_FEATURE_ANY   ? any
	       : s == AMD_FEATURE_OFF ? off
	       : s == AMD_FEATURE_ON  ? on
	                              : 0;
}

static void pad_text_end(const struct amd_target *t, struct co_bytes *text)
{
	bool gfx90a_like = t->info->has_agprs; /* LLVM's isGFX90A: gfx90a and gfx940 */
	unsigned line = t->info->gen >= AMD_GFX11 ? 128 : 64;
	uint32_t pad = gfx90a_like ? S_NOP_0 : S_CODE_END;
	unsigned fill = gfx90a_like ? 16 * line : 3 * line;
	bytes_align(text, line, pad);
	uint8_t w[4];
	co_put32(w, pad);
	for (unsigned i = 0; i < fill; i += 4)
		co_bytes_append(text, w, 4);
}

static void add_sym(struct co_image *img, const char *name, enum co_sec sec, uint64_t value,
                    uint64_t size, enum co_sym_kind kind, bool global, size_t index)
{
	img->syms[img->nsyms++] = (struct co_sym){.name = name,
	                                          .sec = sec,
	                                          .value = value,
	                                          .size = size,
	                                          .kind = kind,
	                                          .is_global = global,
	                                          .index = index};
}

struct named_index {
	const char *name;
	size_t index;
};

static int cmp_named_index(const void *a, const void *b)
{
	const struct named_index *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Every symbol named, no name twice.  Sorted by (name, index), a name defined twice has a
 * neighbour of equal name; the one reported is the first (lowest index) symbol whose name
 * an earlier symbol has, as a scan of all pairs would report.  O(n log n): a module of a
 * thousand kernels has two thousand symbols. */
static bool check_names(const struct co_image *img, struct pa_diag *d)
{
	for (size_t i = 0; i < img->nsyms; i++) {
		if (!img->syms[i].name || !img->syms[i].name[0]) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "code object symbol without a name");
			return false;
		}
	}
	struct named_index *order = pa_xmalloc((img->nsyms + 1) * sizeof *order);
	for (size_t i = 0; i < img->nsyms; i++)
		order[i] = (struct named_index){img->syms[i].name, i};
	qsort(order, img->nsyms, sizeof *order, cmp_named_index);
	size_t twice = SIZE_MAX;
	for (size_t k = 1; k < img->nsyms; k++)
		if (!strcmp(order[k].name, order[k - 1].name) && order[k].index < twice)
			twice = order[k].index;
	free(order);
	if (twice != SIZE_MAX) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "symbol '%s' is defined twice", img->syms[twice].name);
		return false;
	}
	return true;
}

static bool build_note(const struct co_module *m, struct co_image *img, struct pa_diag *d)
{
	struct co_buffer md;
	if (!co_build_metadata(m, &md, d))
		return false;
	uint8_t hdr[12];
	co_put32(hdr, 7); /* "AMDGPU\0" */
	co_put32(hdr + 4, (uint32_t)md.size);
	co_put32(hdr + 8, NT_AMDGPU_METADATA_TYPE);
	co_bytes_append(&img->note, hdr, 12);
	co_bytes_append(&img->note, "AMDGPU\0", 8); /* name padded to 4 */
	co_bytes_append(&img->note, md.data, md.size);
	bytes_align(&img->note, 4, 0);
	co_buffer_free(&md);
	return true;
}

static bool add_kernels(const struct co_module *m, struct pa_arena *a, struct co_image *img,
                        struct pa_diag *d)
{
	unsigned cov = m->code_object_version ? m->code_object_version : 5;
	for (size_t i = 0; i < m->nkernels; i++) {
		const struct co_kernel *k = &m->kernels[i];
		struct co_descriptor desc;
		if (!co_compute_descriptor(&m->target, cov, k, &desc, d))
			return false;
		bytes_align(&img->text, 256, S_NOP_0);
		img->kernel_text_off[i] = img->text.size;
		co_bytes_append(&img->text, k->code, k->code_size);
		bytes_align(&img->rodata, 64, 0);
		img->kernel_kd_off[i] = img->rodata.size;
		uint8_t kd[64];
		co_pack_descriptor(&desc, 0, kd);
		co_bytes_append(&img->rodata, kd, 64);
		size_t n = strlen(k->name);
		char *kdname = pa_arena_alloc(a, n + 4, 1);
		memcpy(kdname, k->name, n);
		memcpy(kdname + n, ".kd", 4);
		add_sym(img, k->name, CO_SEC_TEXT, img->kernel_text_off[i], k->code_size,
		        CO_SYM_KERNEL, true, i);
		add_sym(img, kdname, CO_SEC_RODATA, img->kernel_kd_off[i], 64, CO_SYM_KD, true, i);
	}
	return true;
}

static bool add_functions(const struct co_module *m, struct pa_arena *a, struct co_image *img,
                          struct pa_diag *d)
{
	for (size_t i = 0; i < m->nfunctions; i++) {
		const struct co_function *f = &m->functions[i];
		if (f->code_size % 4 || (f->code_size && !f->code)) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "function '%s': code size %zu is not a multiple of 4",
			               f->name ? f->name : "?", f->code_size);
			return false;
		}
		bytes_align(&img->text, 4, S_NOP_0);
		img->func_text_off[i] = img->text.size;
		co_bytes_append(&img->text, f->code, f->code_size);
		add_sym(img, f->name, CO_SEC_TEXT, img->func_text_off[i], f->code_size, CO_SYM_FUNC,
		        f->is_global, i);
	}
	return true;
}

static bool add_data(const struct co_module *m, struct pa_arena *a, struct co_image *img,
                     struct pa_diag *d)
{
	for (size_t i = 0; i < m->ndata; i++) {
		const struct co_data *v = &m->data[i];
		uint32_t al = v->align ? v->align : 1;
		if (al & (al - 1) || al > 4096) {
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "variable '%s': alignment %u is not a power of two <= 4096",
			               v->name ? v->name : "?", al);
			return false;
		}
		if (v->is_extern) {
			img->data_sec[i] = CO_SEC_UNDEF;
			continue;
		}
		struct co_bytes *b = v->space == CO_DATA_CONST ? &img->rodata : &img->data;
		if (v->space == CO_DATA_GLOBAL && !v->init) {
			img->bss_size = (img->bss_size + al - 1) / al * al;
			img->data_sec[i] = CO_SEC_BSS;
			img->data_off[i] = img->bss_size;
			img->bss_size += v->size;
			if (al > img->bss_align)
				img->bss_align = al;
		} else {
			bytes_align(b, al, 0);
			img->data_sec[i] = v->space == CO_DATA_CONST ? CO_SEC_RODATA : CO_SEC_DATA;
			img->data_off[i] = b->size;
			co_bytes_append(b, v->init, v->size);
			uint32_t *sec_align =
			        v->space == CO_DATA_CONST ? &img->rodata_align : &img->data_align;
			if (al > *sec_align)
				*sec_align = al;
		}
		add_sym(img, v->name, img->data_sec[i], img->data_off[i], v->size, CO_SYM_DATA,
		        v->is_global, i);
	}
	return true;
}

static bool missing_name(struct pa_diag *d, const char *what, size_t i)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0, "%s %zu has no name", what, i);
	return false;
}

/* Every kernel, function and variable needs a name before anything reports on it. */
static bool names_present(const struct co_module *m, struct pa_diag *d)
{
	for (size_t i = 0; i < m->nkernels; i++)
		if (!m->kernels[i].name || !m->kernels[i].name[0])
			return missing_name(d, "kernel", i);
	for (size_t i = 0; i < m->nfunctions; i++)
		if (!m->functions[i].name || !m->functions[i].name[0])
			return missing_name(d, "function", i);
	for (size_t i = 0; i < m->ndata; i++)
		if (!m->data[i].name || !m->data[i].name[0])
			return missing_name(d, "variable", i);
	return true;
}

bool co_build_image(const struct co_module *m, struct pa_arena *a, struct co_image *img,
                    struct pa_diag *d)
{
	memset(img, 0, sizeof *img);
	if (!m->target.info) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "code object without a target");
		return false;
	}
	if (!names_present(m, d))
		return false;
	unsigned cov = m->code_object_version ? m->code_object_version : 5;
	const struct amd_target *t = &m->target;
	img->e_flags = t->info->elf_mach | feature_bits(t->xnack, 0x100, 0x200, 0x300) |
	               feature_bits(t->sramecc, 0x400, 0x800, 0xc00);
	img->abi_version = cov == 4 ? 2 : 3; /* ELFABIVERSION_AMDGPU_HSA_V4 / _V5 */
	img->rodata_align = 64;
	img->data_align = 1;
	img->bss_align = 1;
	size_t cap = 2 * m->nkernels + m->nfunctions + m->ndata;
	img->syms = PA_NEW_ARRAY(a, struct co_sym, cap ? cap : 1);
	img->kernel_text_off = PA_NEW_ARRAY(a, uint64_t, m->nkernels + 1);
	img->kernel_kd_off = PA_NEW_ARRAY(a, uint64_t, m->nkernels + 1);
	img->func_text_off = PA_NEW_ARRAY(a, uint64_t, m->nfunctions + 1);
	img->data_sec = PA_NEW_ARRAY(a, enum co_sec, m->ndata + 1);
	img->data_off = PA_NEW_ARRAY(a, uint64_t, m->ndata + 1);
	if (!add_kernels(m, a, img, d) || !add_functions(m, a, img, d) || !add_data(m, a, img, d) ||
	    !check_names(img, d) || !build_note(m, img, d)) {
		co_bytes_free(&img->text);
		co_bytes_free(&img->rodata);
		co_bytes_free(&img->data);
		co_bytes_free(&img->note);
		return false;
	}
	if (img->text.size)
		pad_text_end(t, &img->text);
	return true;
}

const struct co_sym *co_find_sym(const struct co_image *img, const char *name)
{
	for (size_t i = 0; i < img->nsyms; i++)
		if (!strcmp(img->syms[i].name, name))
			return &img->syms[i];
	return NULL;
}

bool co_reloc_site(const struct co_module *m, const struct co_image *img, const struct co_reloc *r,
                   enum co_sec *sec, uint64_t *off, struct pa_diag *d)
{
	uint64_t size = 0;
	bool ok = false;
	if (r->in == CO_IN_KERNEL && r->index < m->nkernels) {
		*sec = CO_SEC_TEXT;
		*off = img->kernel_text_off[r->index] + r->offset;
		size = m->kernels[r->index].code_size;
		ok = true;
	} else if (r->in == CO_IN_FUNCTION && r->index < m->nfunctions) {
		*sec = CO_SEC_TEXT;
		*off = img->func_text_off[r->index] + r->offset;
		size = m->functions[r->index].code_size;
		ok = true;
	} else if (r->in == CO_IN_DATA && r->index < m->ndata &&
	           img->data_sec[r->index] != CO_SEC_BSS &&
	           img->data_sec[r->index] != CO_SEC_UNDEF) {
		*sec = img->data_sec[r->index];
		*off = img->data_off[r->index] + r->offset;
		size = m->data[r->index].size;
		ok = true;
	}
	unsigned width = r->type == CO_R_ABS64 || r->type == CO_R_REL64 ? 8 : 4;
	if (!ok || r->offset + width > size) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "relocation against '%s' at offset %llu is outside the code or "
		               "initialised data it patches",
		               r->symbol ? r->symbol : "?", (unsigned long long)r->offset);
		return false;
	}
	return true;
}
