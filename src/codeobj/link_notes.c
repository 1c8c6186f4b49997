/* What a link needs around comgr: the processor an input object is for, and one
 * NT_AMDGPU_METADATA note in the linked executable.
 *
 * lld concatenates the inputs' .note sections, so linking two objects that each hold
 * kernels gives two metadata notes; the HIP loader (and amdsim) reads only the first.
 * co_merge_metadata_notes rewrites the note section in place: the non-metadata notes
 * stay, the metadata notes become one whose amdhsa.kernels lists every kernel (the
 * other keys come from the first note and must agree between notes).  The merged
 * note is never larger than the notes it replaces, so the section and its PT_NOTE
 * segment shrink and nothing else moves.
 * Algorithm: walk the ELF64 headers by hand (the file is little-endian, as every
 * AMDGPU object is), unpack each note with msgpack-c, repack.
 * requires: a well-formed ELF from lld; breaks: nothing.  Complexity: O(file size). */
#include "codeobj.h"

#include <elf.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

enum { NT_AMDGPU_METADATA_TYPE = 32, EM_AMDGPU_MACHINE = 224, MAX_MD_NOTES = 256 };

static const Elf64_Ehdr *elf_header(const struct co_buffer *b)
{
	if (b->size < sizeof(Elf64_Ehdr) || memcmp(b->data, ELFMAG, SELFMAG) ||
	    b->data[EI_CLASS] != ELFCLASS64 || b->data[EI_DATA] != ELFDATA2LSB)
		return NULL;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b->data;
	return eh->e_machine == EM_AMDGPU_MACHINE ? eh : NULL;
}

static enum amd_feature_setting feature_of(uint32_t bits, uint32_t any, uint32_t off, uint32_t on)
{
	return bits == on    ? AMD_FEATURE_ON
	       : bits == off ? AMD_FEATURE_OFF
	       : bits == any ? AMD_FEATURE_ANY
	                     : AMD_FEATURE_UNSUPPORTED;
}

bool co_object_target(const struct co_buffer *obj, struct amd_target *out)
{
	const Elf64_Ehdr *eh = elf_header(obj);
	if (!eh)
		return false;
	size_t n;
	const struct amd_target_info *infos = amd_target_infos(&n);
	for (size_t i = 0; i < n; i++) {
		if (infos[i].elf_mach != (eh->e_flags & 0xffu))
			continue;
		out->info = &infos[i];
		out->wave_size = infos[i].default_wave_size;
		out->xnack = infos[i].has_xnack
		                     ? feature_of(eh->e_flags & 0x300u, 0x100, 0x200, 0x300)
		                     : AMD_FEATURE_UNSUPPORTED;
		out->sramecc = infos[i].has_sramecc
		                       ? feature_of(eh->e_flags & 0xc00u, 0x400, 0x800, 0xc00)
		                       : AMD_FEATURE_UNSUPPORTED;
		return true;
	}
	return false;
}

const struct amd_target_info *co_relocatable_processor(const struct co_buffer *obj)
{
	struct amd_target t;
	if (!co_object_target(obj, &t) || ((const Elf64_Ehdr *)obj->data)->e_type != ET_REL)
		return NULL;
	return t.info;
}

/* One note of a section: header at `offset`, descriptor bytes at desc. */
struct note_ref {
	size_t offset, size; /* of the whole note, padding included */
	uint32_t type;
	const uint8_t *desc;
	size_t desc_size;
	bool is_metadata;
};

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Splits a note section into notes; false when a note runs past the section. */
static bool split_notes(const uint8_t *sec, size_t size, struct note_ref *notes, size_t *nnotes)
{
	size_t pos = 0, n = 0;
	while (pos + sizeof(Elf64_Nhdr) <= size && n < MAX_MD_NOTES) {
		const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(sec + pos);
		size_t name_at = pos + sizeof *nh, desc_at = name_at + align4(nh->n_namesz);
		size_t end = desc_at + align4(nh->n_descsz);
		if (end > size || end < desc_at)
			return false;
		const char *name = (const char *)(sec + name_at);
		notes[n] = (struct note_ref){
		        .offset = pos,
		        .size = end - pos,
		        .type = nh->n_type,
		        .desc = sec + desc_at,
		        .desc_size = nh->n_descsz,
		        .is_metadata = nh->n_type == NT_AMDGPU_METADATA_TYPE && nh->n_namesz == 7 &&
		                       !memcmp(name, "AMDGPU", 7),
		};
		n++;
		pos = end;
	}
	*nnotes = n;
	return pos == size;
}

static bool merge_fail(struct pa_diag *d, const char *why)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "linked code object: cannot merge the NT_AMDGPU_METADATA notes: %s", why);
	return false;
}

static const msgpack_object *map_value(const msgpack_object *map, const char *key)
{
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(key) &&
		    !memcmp(k->via.str.ptr, key, k->via.str.size))
			return &map->via.map.ptr[i].val;
	}
	return NULL;
}

/* Packs maps[0] with amdhsa.kernels replaced by the kernels of every map. */
static bool pack_merged(const msgpack_object *maps, size_t nmaps, msgpack_sbuffer *buf,
                        struct pa_diag *d)
{
	uint32_t nkernels = 0;
	for (size_t i = 0; i < nmaps; i++) {
		const msgpack_object *k = map_value(&maps[i], "amdhsa.kernels");
		if (!k || k->type != MSGPACK_OBJECT_ARRAY)
			return merge_fail(d, "a note has no amdhsa.kernels list");
		nkernels += k->via.array.size;
		const msgpack_object *t0 = map_value(&maps[0], "amdhsa.target");
		const msgpack_object *ti = map_value(&maps[i], "amdhsa.target");
		if ((t0 || ti) && (!t0 || !ti || !msgpack_object_equal(*t0, *ti)))
			return merge_fail(d, "the notes name different targets (amdhsa.target)");
	}
	msgpack_packer pk;
	msgpack_packer_init(&pk, buf, msgpack_sbuffer_write);
	const msgpack_object *first = &maps[0];
	msgpack_pack_map(&pk, first->via.map.size);
	for (uint32_t i = 0; i < first->via.map.size; i++) {
		const msgpack_object_kv *kv = &first->via.map.ptr[i];
		msgpack_pack_object(&pk, kv->key);
		if (&kv->val != map_value(first, "amdhsa.kernels")) {
			msgpack_pack_object(&pk, kv->val);
			continue;
		}
		msgpack_pack_array(&pk, nkernels);
		for (size_t m = 0; m < nmaps; m++) {
			const msgpack_object *k = map_value(&maps[m], "amdhsa.kernels");
			for (uint32_t j = 0; j < k->via.array.size; j++)
				msgpack_pack_object(&pk, k->via.array.ptr[j]);
		}
	}
	return true;
}

/* Writes the new section contents into out (at most old_size bytes): the notes in
 * their order, the metadata notes replaced by one merged note where the first was. */
static bool rebuild_section(const uint8_t *sec, const struct note_ref *notes, size_t nnotes,
                            const msgpack_sbuffer *merged, uint8_t *out, size_t old_size,
                            size_t *new_size, struct pa_diag *d)
{
	size_t pos = 0;
	bool merged_written = false;
	for (size_t i = 0; i < nnotes; i++) {
		if (!notes[i].is_metadata) {
			memcpy(out + pos, sec + notes[i].offset, notes[i].size);
			pos += notes[i].size;
			continue;
		}
		if (merged_written)
			continue;
		merged_written = true;
		size_t size = sizeof(Elf64_Nhdr) + 8 + align4(merged->size);
		if (pos + size > old_size)
			return merge_fail(d, "the merged note does not fit");
		Elf64_Nhdr nh = {.n_namesz = 7,
		                 .n_descsz = (Elf64_Word)merged->size,
		                 .n_type = NT_AMDGPU_METADATA_TYPE};
		memcpy(out + pos, &nh, sizeof nh);
		memcpy(out + pos + sizeof nh, "AMDGPU\0", 8);
		memcpy(out + pos + sizeof nh + 8, merged->data, merged->size);
		pos += size;
	}
	*new_size = pos;
	return true;
}

/* Merges the metadata notes of one section; the caller shrinks the headers. */
static bool merge_section(uint8_t *sec, size_t size, size_t *new_size, struct pa_diag *d)
{
	struct note_ref notes[MAX_MD_NOTES];
	size_t nnotes = 0, nmd = 0;
	*new_size = size;
	if (!split_notes(sec, size, notes, &nnotes))
		return merge_fail(d, "malformed note section");
	msgpack_unpacked docs[MAX_MD_NOTES];
	msgpack_object maps[MAX_MD_NOTES];
	bool ok = true;
	for (size_t i = 0; i < nnotes; i++) {
		if (!notes[i].is_metadata)
			continue;
		msgpack_unpacked_init(&docs[nmd]);
		size_t off = 0;
		if (msgpack_unpack_next(&docs[nmd], (const char *)notes[i].desc, notes[i].desc_size,
		                        &off) != MSGPACK_UNPACK_SUCCESS ||
		    docs[nmd].data.type != MSGPACK_OBJECT_MAP)
			ok = false;
		maps[nmd] = docs[nmd].data;
		nmd++;
	}
	if (!ok)
		merge_fail(d, "a note is not a msgpack map");
	if (ok && nmd > 1) {
		msgpack_sbuffer buf;
		msgpack_sbuffer_init(&buf);
		uint8_t *copy = pa_xcalloc(size, 1); /* zero padding after the descriptor */
		ok = pack_merged(maps, nmd, &buf, d) &&
		     rebuild_section(sec, notes, nnotes, &buf, copy, size, new_size, d);
		if (ok) {
			memset(sec, 0, size);
			memcpy(sec, copy, *new_size);
		}
		free(copy);
		msgpack_sbuffer_destroy(&buf);
	}
	for (size_t i = 0; i < nmd; i++)
		msgpack_unpacked_destroy(&docs[i]);
	return ok;
}

static bool in_file(const struct co_buffer *b, uint64_t offset, uint64_t size)
{
	return offset <= b->size && size <= b->size - offset;
}

bool co_merge_metadata_notes(struct co_buffer *exe, struct pa_diag *d)
{
	const Elf64_Ehdr *eh = elf_header(exe);
	if (!eh || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(exe, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    (eh->e_phnum &&
	     (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	      !in_file(exe, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))))
		return merge_fail(d, "not an AMDGPU ELF64 file");
	Elf64_Shdr *sh = (Elf64_Shdr *)(exe->data + eh->e_shoff);
	Elf64_Phdr *ph = (Elf64_Phdr *)(exe->data + eh->e_phoff);
	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_NOTE)
			continue;
		if (!in_file(exe, sh[i].sh_offset, sh[i].sh_size))
			return merge_fail(d, "a note section lies outside the file");
		size_t new_size;
		if (!merge_section(exe->data + sh[i].sh_offset, sh[i].sh_size, &new_size, d))
			return false;
		if (new_size == sh[i].sh_size)
			continue;
		for (size_t p = 0; p < eh->e_phnum; p++)
			if (ph[p].p_type == PT_NOTE && ph[p].p_offset == sh[i].sh_offset &&
			    ph[p].p_filesz == sh[i].sh_size)
				ph[p].p_filesz = ph[p].p_memsz = new_size;
		sh[i].sh_size = new_size;
	}
	return true;
}
