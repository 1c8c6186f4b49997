/* Private to src/codeobj: the section contents both writers share (image.c) and the
 * libelf emission of a laid-out file (elfout.c).  Not part of the stage's public face
 * (codeobj.h). */
#ifndef CO_IMAGE_H
#define CO_IMAGE_H

#include "arena.h"
#include "codeobj.h"

enum co_sec { CO_SEC_UNDEF, CO_SEC_TEXT, CO_SEC_RODATA, CO_SEC_DATA, CO_SEC_BSS, CO_NSEC };

enum co_sym_kind { CO_SYM_KERNEL, CO_SYM_KD, CO_SYM_FUNC, CO_SYM_DATA };

struct co_sym {
	const char *name;
	enum co_sec sec;
	uint64_t value; /* offset in its section */
	uint64_t size;
	enum co_sym_kind kind;
	bool is_global;
	size_t index; /* kernel / function / data index */
};

struct co_bytes {
	uint8_t *data;
	size_t size;
	size_t cap;
};

/* Section-relative contents of a module, before addresses are known. */
struct co_image {
	struct co_bytes text, rodata, data;
	uint64_t bss_size;
	uint32_t data_align, bss_align, rodata_align;
	struct co_bytes note;      /* the whole NT_AMDGPU_METADATA note record */
	uint64_t *kernel_text_off; /* per kernel */
	uint64_t *kernel_kd_off;   /* per kernel, in .rodata */
	uint64_t *func_text_off;   /* per function */
	enum co_sec *data_sec;     /* per data variable */
	uint64_t *data_off;
	struct co_sym *syms;
	size_t nsyms;
	uint32_t e_flags;
	unsigned abi_version; /* EI_ABIVERSION */
};

bool co_build_image(const struct co_module *m, struct pa_arena *arena, struct co_image *img,
                    struct pa_diag *d);
/* Finds the symbol a relocation names; NULL (with a diagnostic) when unknown. */
const struct co_sym *co_find_sym(const struct co_image *img, const char *name);
/* The section and offset a relocation patches. */
bool co_reloc_site(const struct co_module *m, const struct co_image *img, const struct co_reloc *r,
                   enum co_sec *sec, uint64_t *off, struct pa_diag *d);
void co_bytes_free(struct co_bytes *b);
/* Appends n bytes (zeros when p is NULL), growing the buffer. */
void co_bytes_append(struct co_bytes *b, const void *p, size_t n);
/* Adds a string to an ELF string table (which starts with "") and returns its offset. */
uint32_t co_strtab_add(struct co_bytes *tab, const char *s);

void co_put32(uint8_t *p, uint32_t v);
void co_put64(uint8_t *p, uint64_t v);

/* DWARF 5 line information (dwarf.c) of a module with line_info, its code piece p (kernels,
 * then device functions) at address code_addr[p] (in a relocatable object: its .text
 * offset): the contents of .debug_abbrev, .debug_info and .debug_line, and where they hold
 * addresses (64-bit: a piece's entry) or section offsets (32-bit: of .debug_abbrev or
 * .debug_line), which a relocatable object relocates (`relocatable`: the fields hold 0,
 * RELA has the values). */
enum co_debug_target { CO_DT_CODE, CO_DT_ABBREV, CO_DT_LINE };
struct co_debug_reloc {
	bool in_line; /* in .debug_line (else .debug_info) */
	uint64_t offset;
	enum co_debug_target target;
	size_t code; /* CO_DT_CODE: the piece */
};
struct co_debug {
	struct co_bytes abbrev, info, line;
	struct co_bytes relocs; /* struct co_debug_reloc[] */
	bool relocatable;
};
void co_build_debug(const struct co_module *m, const uint64_t *code_addr, bool relocatable,
                    struct co_debug *out);
void co_debug_free(struct co_debug *dbg);

/* One output section for co_elf_emit. */
struct co_out_sec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint64_t align;
	uint64_t entsize;
	uint32_t link, info; /* output section indices */
	const void *data;    /* NULL for NOBITS */
};

struct co_out_file {
	uint16_t type; /* ET_DYN / ET_REL */
	uint32_t e_flags;
	unsigned abi_version;
	struct co_out_sec *secs; /* secs[0] is the null section */
	size_t nsecs;
	size_t shstrndx;
	uint64_t shoff;
	const void *phdrs; /* Elf64_Phdr[nphdrs] */
	size_t nphdrs;
};

/* Writes the file through libelf with the caller's layout (ELF_F_LAYOUT). */
bool co_elf_emit(const struct co_out_file *f, struct co_buffer *out, struct pa_diag *d);

#endif
