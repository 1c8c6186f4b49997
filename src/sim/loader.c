/* loader: reads an AMDHSA code object (.hsaco) as the ROCm loader does.
 *
 * libelf parses the ELF; every PT_LOAD segment is mapped at its virtual address into one
 * image; kernels are found through symbols ending in ".kd" (their 64-byte kernel descriptor
 * is read from the image) and described by the NT_AMDGPU_METADATA note (msgpack): name,
 * symbol, argument offsets/sizes/value kinds, segment sizes, wavefront size.  The processor
 * comes from e_flags (EF_AMDGPU_MACH) matched against src/encode/target.h.  The dynamic
 * relocations (.rela.dyn: R_AMDGPU_RELATIVE64, R_AMDGPU_ABS64 against a defined symbol) are
 * kept for the dispatch to apply at the image's load address, as the ROCm loader does.  Every size
 * and offset read from the file is bounds-checked: bad input is an error, never a crash.
 * sim_load_for_gpu also takes a clang offload bundle (.hipfb) and loads its entry for one
 * GPU.  complexity: O(file size). */
#include <gelf.h>
#include <libelf.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "offload_bundle.h"
#include "sim_int.h"

enum {
	EM_AMDGPU_ID = 224,
	NT_AMDGPU_METADATA_ID = 32,
	MAX_IMAGE = 1 << 28,
	R_AMDGPU_ABS64_ID = 3,
	R_AMDGPU_RELATIVE64_ID = 13,
};

static bool fail(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return false;
}

static bool str_eq(const msgpack_object *o, const char *s)
{
	size_t n = strlen(s);
	return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
	       !memcmp(o->via.str.ptr, s, n);
}

static char *dup_str(struct pa_arena *a, const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return NULL;
	return pa_arena_strndup(a, o->via.str.ptr, o->via.str.size);
}

static bool get_u32(const msgpack_object *o, uint32_t *out)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > 0xffffffffu)
		return false;
	*out = (uint32_t)o->via.u64;
	return true;
}

static const msgpack_object *map_get(const msgpack_object *map, const char *key)
{
	if (map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++)
		if (str_eq(&map->via.map.ptr[i].key, key))
			return &map->via.map.ptr[i].val;
	return NULL;
}

static bool parse_args(struct sim_code_object *co, struct sim_kernel *k, const msgpack_object *args,
                       char *err, size_t errlen)
{
	if (!args)
		return true;
	if (args->type != MSGPACK_OBJECT_ARRAY || args->via.array.size > SIM_MAX_ARGS)
		return fail(err, errlen, "metadata: .args is not a list of at most 96 arguments");
	for (uint32_t i = 0; i < args->via.array.size; i++) {
		const msgpack_object *a = &args->via.array.ptr[i];
		struct sim_karg *ka = &k->args[k->nargs++];
		const msgpack_object *off = map_get(a, ".offset"), *size = map_get(a, ".size");
		const msgpack_object *kind = map_get(a, ".value_kind"), *name = map_get(a, ".name");
		if (!off || !size || !kind || !get_u32(off, &ka->offset) ||
		    !get_u32(size, &ka->size))
			return fail(err, errlen,
			            "metadata: argument without .offset/.size/.value_kind");
		ka->value_kind = dup_str(&co->arena, kind);
		if (!ka->value_kind)
			return fail(err, errlen, "metadata: .value_kind is not a string");
		ka->name = name ? dup_str(&co->arena, name) : NULL;
		ka->hidden = !strncmp(ka->value_kind, "hidden_", 7);
		if ((uint64_t)ka->offset + ka->size > 0x100000)
			return fail(err, errlen, "metadata: argument offset out of range");
	}
	return true;
}

static bool parse_metadata(struct sim_code_object *co, const void *desc, size_t size, char *err,
                           size_t errlen)
{
	msgpack_unpacked up;
	msgpack_unpacked_init(&up);
	size_t off = 0;
	bool ok = false;
	if (msgpack_unpack_next(&up, desc, size, &off) != MSGPACK_UNPACK_SUCCESS) {
		fail(err, errlen, "metadata note is not valid msgpack");
		goto out;
	}
	const msgpack_object *kernels = map_get(&up.data, "amdhsa.kernels");
	if (!kernels || kernels->type != MSGPACK_OBJECT_ARRAY || kernels->via.array.size > 4096) {
		fail(err, errlen, "metadata: missing amdhsa.kernels list");
		goto out;
	}
	const msgpack_object *pf = map_get(&up.data, "amdhsa.printf");
	if (pf && pf->type == MSGPACK_OBJECT_ARRAY) {
		co->nprintfs = pf->via.array.size;
		co->printfs = PA_NEW_ARRAY(&co->arena, char *, co->nprintfs + 1);
		for (unsigned i = 0; i < co->nprintfs; i++)
			co->printfs[i] = pf->via.array.ptr[i].type == MSGPACK_OBJECT_STR
			                         ? dup_str(&co->arena, &pf->via.array.ptr[i])
			                         : NULL;
	}
	co->nkernels = kernels->via.array.size;
	co->kernels = PA_NEW_ARRAY(&co->arena, struct sim_kernel, co->nkernels ? co->nkernels : 1);
	for (unsigned i = 0; i < co->nkernels; i++) {
		const msgpack_object *km = &kernels->via.array.ptr[i];
		struct sim_kernel *k = &co->kernels[i];
		const msgpack_object *name = map_get(km, ".name"), *sym = map_get(km, ".symbol");
		if (!name || !sym || !(k->name = dup_str(&co->arena, name)) ||
		    !(k->symbol = dup_str(&co->arena, sym))) {
			fail(err, errlen, "metadata: kernel without .name/.symbol");
			goto out;
		}
		const msgpack_object *o;
		if ((o = map_get(km, ".kernarg_segment_size")))
			get_u32(o, &k->kernarg_size);
		if ((o = map_get(km, ".group_segment_fixed_size")))
			get_u32(o, &k->group_size);
		if ((o = map_get(km, ".private_segment_fixed_size")))
			get_u32(o, &k->private_size);
		if ((o = map_get(km, ".wavefront_size")))
			get_u32(o, &k->wavefront_size);
		if ((o = map_get(km, ".max_flat_workgroup_size")))
			get_u32(o, &k->max_flat_workgroup_size);
		if (!parse_args(co, k, map_get(km, ".args"), err, errlen))
			goto out;
	}
	ok = true;
out:
	msgpack_unpacked_destroy(&up);
	return ok;
}

/* Walks the note records of one SHT_NOTE section. */
static bool scan_notes(struct sim_code_object *co, const uint8_t *p, size_t n, bool *found,
                       char *err, size_t errlen)
{
	size_t off = 0;
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3) & ~3u);
		if (namesz > n || descsz > n || desc_off + descsz > n)
			return fail(err, errlen, "corrupt note section");
		if (type == NT_AMDGPU_METADATA_ID && namesz == 7 &&
		    !memcmp(p + name_off, "AMDGPU", 7)) {
			*found = true;
			return parse_metadata(co, p + desc_off, descsz, err, errlen);
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return true;
}

static bool find_target(struct sim_code_object *co, uint32_t eflags, char *err, size_t errlen)
{
	size_t n;
	const struct amd_target_info *infos = amd_target_infos(&n);
	for (size_t i = 0; i < n; i++)
		if (infos[i].elf_mach == (eflags & 0xff)) {
			char e[128];
			if (!amd_target_parse(infos[i].name, &co->target, e, sizeof e))
				return fail(err, errlen, e);
			snprintf(co->target_name, sizeof co->target_name, "%s", infos[i].name);
			return true;
		}
	snprintf(err, errlen, "unknown EF_AMDGPU_MACH 0x%x in e_flags", eflags & 0xff);
	return false;
}

static bool map_segments(struct sim_code_object *co, Elf *elf, char *err, size_t errlen)
{
	size_t nph;
	if (elf_getphdrnum(elf, &nph) != 0)
		return fail(err, errlen, "cannot read program headers");
	uint64_t end = 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph))
			return fail(err, errlen, "corrupt program header");
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr > MAX_IMAGE || ph.p_memsz > MAX_IMAGE || ph.p_filesz > ph.p_memsz ||
		    ph.p_offset > co->image_size || ph.p_filesz > co->image_size - ph.p_offset)
			return fail(err, errlen, "PT_LOAD segment out of range");
		if (ph.p_vaddr + ph.p_memsz > end)
			end = ph.p_vaddr + ph.p_memsz;
	}
	if (end == 0 || end > MAX_IMAGE)
		return fail(err, errlen,
		            "no loadable segment (a relocatable object? link it with ld.lld)");
	co->vsize = end;
	co->vimage = pa_arena_alloc(&co->arena, end, 64);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		gelf_getphdr(elf, (int)i, &ph);
		if (ph.p_type == PT_LOAD)
			memcpy(co->vimage + ph.p_vaddr, co->image + ph.p_offset, ph.p_filesz);
	}
	return true;
}

static bool scan_sections(struct sim_code_object *co, Elf *elf, bool *notes, char *err,
                          size_t errlen)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return fail(err, errlen, "cannot read section names");
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return fail(err, errlen, "corrupt section header");
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text")) {
			if (sh.sh_addr + sh.sh_size > co->vsize)
				return fail(err, errlen, ".text outside the loaded segments");
			co->text_addr = sh.sh_addr;
			co->text_size = sh.sh_size;
		}
		if (sh.sh_type == SHT_NOTE && !*notes) {
			if (sh.sh_offset > co->image_size ||
			    sh.sh_size > co->image_size - sh.sh_offset)
				return fail(err, errlen, "note section out of range");
			if (!scan_notes(co, co->image + sh.sh_offset, sh.sh_size, notes, err,
			                errlen))
				return false;
		}
	}
	if (!co->text_size)
		return fail(err, errlen, "no .text section");
	return true;
}

/* The value an ABS64 relocation against symbol `sym` of table `symtab` adds (S). */
static bool symbol_value(Elf *elf, size_t symtab, uint64_t sym, uint64_t *value, char *err,
                         size_t errlen)
{
	Elf_Scn *scn = elf_getscn(elf, symtab);
	GElf_Shdr sh;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Sym s;
	if (!data || !gelf_getshdr(scn, &sh) || !gelf_getsym(data, (int)sym, &s))
		return fail(err, errlen, "dynamic relocation against a missing symbol");
	if (s.st_shndx == SHN_UNDEF)
		return fail(err, errlen, "dynamic relocation against an undefined symbol");
	*value = s.st_value;
	return true;
}

static bool read_dyn_relocs(struct sim_code_object *co, Elf *elf, char *err, size_t errlen)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC))
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			return fail(err, errlen, "corrupt relocation section");
		size_t n = sh.sh_size / sh.sh_entsize;
		co->dyn_relocs = PA_NEW_ARRAY(&co->arena, struct sim_dyn_reloc, n + 1);
		for (size_t i = 0; i < n; i++) {
			GElf_Rela r;
			if (!gelf_getrela(data, (int)i, &r))
				return fail(err, errlen, "corrupt relocation");
			uint64_t type = GELF_R_TYPE(r.r_info), value = (uint64_t)r.r_addend;
			if (type == R_AMDGPU_ABS64_ID) {
				uint64_t sv;
				if (!symbol_value(elf, sh.sh_link, GELF_R_SYM(r.r_info), &sv, err,
				                  errlen))
					return false;
				value += sv;
			} else if (type != R_AMDGPU_RELATIVE64_ID) {
				snprintf(err, errlen, "unsupported dynamic relocation type %llu",
				         (unsigned long long)type);
				return false;
			}
			if (r.r_offset > co->vsize || co->vsize - r.r_offset < 8)
				return fail(err, errlen, "dynamic relocation outside the image");
			co->dyn_relocs[co->ndyn_relocs++] =
			        (struct sim_dyn_reloc){r.r_offset, value};
		}
	}
	return true;
}

/* Finds each kernel's descriptor symbol and reads the descriptor. */
static bool bind_descriptors(struct sim_code_object *co, Elf *elf, char *err, size_t errlen)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			return fail(err, errlen, "corrupt symbol table");
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				return fail(err, errlen, "corrupt symbol");
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name)
				continue;
			for (unsigned k = 0; k < co->nkernels; k++) {
				struct sim_kernel *kn = &co->kernels[k];
				if (strcmp(name, kn->symbol))
					continue;
				if (sym.st_value + 64 > co->vsize)
					return fail(err, errlen,
					            "kernel descriptor outside the image");
				memcpy(kn->kd, co->vimage + sym.st_value, 64);
				kn->kd_addr = sym.st_value;
				int64_t entry_off;
				memcpy(&entry_off, kn->kd + 16, 8);
				kn->entry = sym.st_value + (uint64_t)entry_off;
				if (kn->entry < co->text_addr ||
				    kn->entry >= co->text_addr + co->text_size)
					return fail(err, errlen, "kernel entry outside .text");
			}
		}
	}
	for (unsigned k = 0; k < co->nkernels; k++)
		if (!co->kernels[k].kd_addr) {
			snprintf(err, errlen, "kernel descriptor symbol %s not found",
			         co->kernels[k].symbol);
			return false;
		}
	return true;
}

struct sim_code_object *sim_load(const void *bytes, size_t size, char *err, size_t errlen)
{
	struct sim_code_object *co = pa_xcalloc(1, sizeof *co);
	pa_arena_init(&co->arena);
	co->image = pa_arena_alloc(&co->arena, size ? size : 1, 16);
	memcpy(co->image, bytes, size);
	co->image_size = size;
	bool ok = false, notes = false;
	Elf *elf = NULL;
	elf_version(EV_CURRENT);
	if (size < 64 || memcmp(bytes, "\177ELF", 4)) {
		fail(err, errlen, "not an ELF file");
		goto out;
	}
	elf = elf_memory((char *)co->image, size);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		fail(err, errlen, "corrupt ELF header");
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_AMDGPU_ID) {
		fail(err, errlen, "not an AMDGPU (EM_AMDGPU, ELF64) code object");
		goto out;
	}
	ok = find_target(co, (uint32_t)eh.e_flags, err, errlen) &&
	     map_segments(co, elf, err, errlen) && scan_sections(co, elf, &notes, err, errlen);
	if (ok && !notes) {
		ok = fail(err, errlen, "no NT_AMDGPU_METADATA note (code object v3+ required)");
	}
	ok = ok && bind_descriptors(co, elf, err, errlen) && read_dyn_relocs(co, elf, err, errlen);
out:
	if (elf)
		elf_end(elf);
	if (!ok) {
		sim_free(co);
		return NULL;
	}
	return co;
}

void sim_free(struct sim_code_object *co)
{
	if (!co)
		return;
	pa_arena_free(&co->arena);
	free(co);
}

size_t sim_kernel_count(const struct sim_code_object *co)
{
	return co->nkernels;
}

const char *sim_kernel_name(const struct sim_code_object *co, size_t i)
{
	return i < co->nkernels ? co->kernels[i].name : NULL;
}

int sim_kernel_nargs(const struct sim_code_object *co, const char *kernel)
{
	for (unsigned i = 0; i < co->nkernels; i++)
		if (!strcmp(co->kernels[i].name, kernel)) {
			int n = 0;
			for (unsigned a = 0; a < co->kernels[i].nargs; a++)
				n += !co->kernels[i].args[a].hidden;
			return n;
		}
	return -1;
}

const char *sim_target_name(const struct sim_code_object *co)
{
	return co->target_name;
}

static const struct sim_kernel *kernel_named(const struct sim_code_object *co, const char *name)
{
	for (unsigned i = 0; i < co->nkernels; i++)
		if (!strcmp(co->kernels[i].name, name))
			return &co->kernels[i];
	return NULL;
}

bool sim_kernel_arg(const struct sim_code_object *co, const char *kernel, int i,
                    struct sim_arg_desc *out)
{
	const struct sim_kernel *k = kernel_named(co, kernel);
	for (unsigned a = 0, seen = 0; k && a < k->nargs; a++) {
		if (k->args[a].hidden || (int)seen++ != i)
			continue;
		*out = (struct sim_arg_desc){k->args[a].name, k->args[a].value_kind,
		                             k->args[a].offset, k->args[a].size};
		return true;
	}
	return false;
}

uint32_t sim_kernel_max_flat_workgroup_size(const struct sim_code_object *co, const char *kernel)
{
	const struct sim_kernel *k = kernel_named(co, kernel);
	return k ? k->max_flat_workgroup_size : 0;
}

/* Whether bundle entry id `id` (id_len bytes) is a HIP code object for `gpu`: the whole
 * target ID ("gfx90a:xnack-") when gpu has features, else just the processor. */
static bool bundle_id_is(const char *id, size_t id_len, const char *gpu)
{
	static const char prefix[] = "hipv4-amdgcn-amd-amdhsa--";
	size_t p = sizeof prefix - 1;
	if (id_len < p || memcmp(id, prefix, p))
		return false;
	const char *t = id + p;
	size_t tlen = id_len - p;
	const char *colon = strchr(gpu, ':') ? NULL : memchr(t, ':', tlen);
	size_t want = colon ? (size_t)(colon - t) : tlen;
	return strlen(gpu) == want && !memcmp(t, gpu, want);
}

struct sim_code_object *sim_load_for_gpu(const void *bytes, size_t size, const char *gpu, char *err,
                                         size_t errlen)
{
	size_t n;
	if (!pa_bundle_is(bytes, size)) {
		struct sim_code_object *co = sim_load(bytes, size, err, errlen);
		size_t proc = gpu ? strcspn(gpu, ":") : 0;
		if (co && gpu &&
		    (proc != strlen(co->target_name) || memcmp(gpu, co->target_name, proc))) {
			snprintf(err, errlen, "the code object is for %s, not for --gpu %s",
			         co->target_name, gpu);
			sim_free(co);
			return NULL;
		}
		return co;
	}
	if (!pa_bundle_count(bytes, size, &n, err, errlen))
		return NULL;
	if (!gpu) {
		fail(err, errlen, "an offload bundle: give --gpu to pick its entry");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct pa_bundle_entry e;
		pa_bundle_get(bytes, i, &e);
		if (bundle_id_is(e.id, e.id_len, gpu))
			return sim_load(e.data, e.size, err, errlen);
	}
	snprintf(err, errlen, "the offload bundle has no entry for --gpu %s", gpu);
	return NULL;
}
