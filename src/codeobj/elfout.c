/* ELF emission through libelf, with the layout computed by the caller.
 *
 * Algorithm: libelf (elfutils) builds the file's descriptor -- headers, sections and their
 * data -- and checks the layout (elf_update with ELF_C_NULL: nothing is written), and the
 * file's bytes are then put together in the caller's buffer from what libelf holds: the ELF
 * and program headers and the section header table converted to the file's encoding by
 * libelf's own translation (elf64_xlatetof), each section's data copied at its sh_offset,
 * and zeros between them, which is what elf_update(ELF_C_WRITE) writes with ELF_F_LAYOUT
 * and the default fill.  (Writing through a file descriptor, as before, cost a memfd, its
 * truncation, a pwrite per section, the read-back and the memfd's teardown: 35-55 us of
 * every compile, ~4% of a small kernel's whole process.)  ELF_F_LAYOUT keeps every offset
 * the writers chose (they mirror ld.lld's and LLVM's layouts).
 * requires: nothing; breaks: nothing.  Complexity: O(file size). */
#include "image.h"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static bool elf_fail(struct pa_diag *d, const char *what)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0, "writing the code object: %s: %s",
	               what, elf_errmsg(-1));
	return false;
}

static bool fill_header(Elf *e, const struct co_out_file *f, struct pa_diag *d)
{
	GElf_Ehdr eh;
	if (!gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh))
		return elf_fail(d, "ELF header");
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = 64; /* ELFOSABI_AMDGPU_HSA */
	eh.e_ident[EI_ABIVERSION] = (unsigned char)f->abi_version;
	eh.e_type = f->type;
	eh.e_machine = 224; /* EM_AMDGPU */
	eh.e_version = EV_CURRENT;
	eh.e_entry = 0;
	eh.e_phoff = f->nphdrs ? sizeof(Elf64_Ehdr) : 0;
	eh.e_shoff = f->shoff;
	eh.e_flags = f->e_flags;
	eh.e_shstrndx = (Elf64_Half)f->shstrndx;
	if (!gelf_update_ehdr(e, &eh))
		return elf_fail(d, "ELF header");
	if (f->nphdrs) {
		if (!gelf_newphdr(e, f->nphdrs))
			return elf_fail(d, "program headers");
		const Elf64_Phdr *ph = f->phdrs;
		for (size_t i = 0; i < f->nphdrs; i++) {
			GElf_Phdr g = ph[i];
			if (!gelf_update_phdr(e, (int)i, &g))
				return elf_fail(d, "program header");
		}
	}
	return true;
}

static bool fill_sections(Elf *e, const struct co_out_file *f, struct pa_diag *d)
{
	for (size_t i = 1; i < f->nsecs; i++) {
		const struct co_out_sec *s = &f->secs[i];
		Elf_Scn *scn = elf_newscn(e);
		GElf_Shdr sh;
		if (!scn || !gelf_getshdr(scn, &sh))
			return elf_fail(d, "section");
		if (s->size && s->type != SHT_NOBITS) {
			Elf_Data *data = elf_newdata(scn);
			if (!data)
				return elf_fail(d, "section data");
			data->d_buf = (void *)s->data;
			data->d_size = s->size;
			data->d_type = ELF_T_BYTE;
			data->d_align = s->align ? s->align : 1;
			data->d_off = 0;
			data->d_version = EV_CURRENT;
		}
		sh.sh_name = 0; /* patched below from the shstrtab offsets */
		sh.sh_type = s->type;
		sh.sh_flags = s->flags;
		sh.sh_addr = s->addr;
		sh.sh_offset = s->offset;
		sh.sh_size = s->size;
		sh.sh_link = s->link;
		sh.sh_info = s->info;
		sh.sh_addralign = s->align;
		sh.sh_entsize = s->entsize;
		if (!gelf_update_shdr(scn, &sh))
			return elf_fail(d, "section header");
	}
	return true;
}

/* Section names: offsets into the shstrtab section's data, which the caller built
 * with the names in section order. */
static bool name_sections(Elf *e, const struct co_out_file *f, struct pa_diag *d)
{
	const char *tab = f->secs[f->shstrndx].data;
	size_t tab_size = f->secs[f->shstrndx].size;
	for (size_t i = 1; i < f->nsecs; i++) {
		size_t len = strlen(f->secs[i].name), off = 1;
		bool found = false;
		while (off + len < tab_size && !found) {
			if (!strcmp(tab + off, f->secs[i].name))
				found = true;
			else
				off += strlen(tab + off) + 1;
		}
		Elf_Scn *scn = elf_getscn(e, i);
		GElf_Shdr sh;
		if (!found || !scn || !gelf_getshdr(scn, &sh))
			return elf_fail(d, "section name");
		sh.sh_name = (Elf64_Word)off;
		if (!gelf_update_shdr(scn, &sh))
			return elf_fail(d, "section name");
	}
	return true;
}

/* A file descriptor for elf_begin, which wants a valid one even for a file it never
 * writes: /dev/null (an open, no file made), else an empty memfd. */
static int unwritten_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : memfd_create("ptxas-amd-codeobj", MFD_CLOEXEC);
}

/* Converts `n` records of libelf's `type` at `src` (memory encoding) into the file's
 * little-endian encoding at out[off..). */
static bool put_translated(Elf_Type type, const void *src, size_t n, unsigned char *out,
                           uint64_t off, uint64_t size)
{
	size_t bytes = n * elf64_fsize(type, 1, EV_CURRENT);
	if (off > size || bytes > size - off)
		return false;
	Elf_Data from = {
	        .d_buf = (void *)src, .d_type = type, .d_size = bytes, .d_version = EV_CURRENT};
	Elf_Data to = {
	        .d_buf = out + off, .d_type = type, .d_size = bytes, .d_version = EV_CURRENT};
	return elf64_xlatetof(&to, &from, ELFDATA2LSB) != NULL;
}

/* The file's bytes from libelf's descriptor after elf_update(e, ELF_C_NULL) said `size`. */
static bool put_file(Elf *e, size_t size, unsigned char *out)
{
	const Elf64_Ehdr *eh = elf64_getehdr(e);
	size_t nscn;
	if (!eh || elf_getshdrnum(e, &nscn) != 0 ||
	    !put_translated(ELF_T_EHDR, eh, 1, out, 0, size))
		return false;
	if (eh->e_phnum) {
		const Elf64_Phdr *ph = elf64_getphdr(e);
		if (!ph || !put_translated(ELF_T_PHDR, ph, eh->e_phnum, out, eh->e_phoff, size))
			return false;
	}
	for (size_t i = 0; i < nscn; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		const Elf64_Shdr *sh = scn ? elf64_getshdr(scn) : NULL;
		if (!sh || !put_translated(ELF_T_SHDR, sh, 1, out,
		                           eh->e_shoff + i * sizeof(Elf64_Shdr), size))
			return false;
		if (sh->sh_type == SHT_NOBITS)
			continue;
		for (Elf_Data *data = elf_getdata(scn, NULL); data; data = elf_getdata(scn, data)) {
			uint64_t at = sh->sh_offset + (uint64_t)data->d_off;
			if (data->d_type != ELF_T_BYTE || at > size || data->d_size > size - at)
				return false;
			if (data->d_size)
				memcpy(out + at, data->d_buf, data->d_size);
		}
	}
	return true;
}

bool co_elf_emit(const struct co_out_file *f, struct co_buffer *out, struct pa_diag *d)
{
	out->data = NULL;
	out->size = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return elf_fail(d, "libelf version");
	/* nothing is written to the descriptor: libelf lays the file out (ELF_C_NULL) and
	 * put_file writes it */
	int fd = unwritten_fd();
	if (fd < 0) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "writing the code object: no file descriptor for libelf");
		return false;
	}
	Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
	bool ok = e != NULL;
	if (!ok)
		elf_fail(d, "elf_begin");
	if (ok)
		ok = elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT) != 0 || elf_fail(d, "layout");
	ok = ok && fill_header(e, f, d) && fill_sections(e, f, d) && name_sections(e, f, d);
	off_t size = -1;
	if (ok) {
		size = elf_update(e, ELF_C_NULL);
		if (size < 0)
			ok = elf_fail(d, "elf_update");
	}
	if (ok) {
		/* zeros between the parts: libelf's default fill */
		out->data = pa_xcalloc((size_t)size ? (size_t)size : 1, 1);
		out->size = (size_t)size;
		if (!put_file(e, (size_t)size, out->data)) {
			co_buffer_free(out);
			pa_diag_report(
			        d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			        "internal: writing the code object: libelf's layout does not "
			        "fit its size");
			ok = false;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}
