/* ELF emission through libelf, with the layout computed by the caller.
 *
 * Algorithm: libelf (elfutils) writes to a file descriptor, so the file is built in
 * an anonymous memfd and read back into the caller's buffer.  ELF_F_LAYOUT keeps
 * every offset the writers chose (they mirror ld.lld's and LLVM's layouts), libelf
 * only serialises headers and converts the section header table.
 * requires: nothing; breaks: nothing.  Complexity: O(file size). */
#include "image.h"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>
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

static bool read_back(int fd, size_t size, struct co_buffer *out, struct pa_diag *d)
{
	out->data = pa_xmalloc(size ? size : 1);
	out->size = size;
	size_t done = 0;
	while (done < size) {
		ssize_t n = pread(fd, out->data + done, size - done, (off_t)done);
		if (n <= 0) {
			co_buffer_free(out);
			pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
			               "writing the code object: read-back failed");
			return false;
		}
		done += (size_t)n;
	}
	return true;
}

bool co_elf_emit(const struct co_out_file *f, struct co_buffer *out, struct pa_diag *d)
{
	out->data = NULL;
	out->size = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return elf_fail(d, "libelf version");
	int fd = memfd_create("ptxas-amd-codeobj", MFD_CLOEXEC);
	if (fd < 0) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "writing the code object: memfd_create failed");
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
		size = elf_update(e, ELF_C_WRITE);
		if (size < 0)
			ok = elf_fail(d, "elf_update");
	}
	if (e)
		elf_end(e);
	if (ok)
		ok = read_back(fd, (size_t)size, out, d);
	close(fd);
	return ok;
}
