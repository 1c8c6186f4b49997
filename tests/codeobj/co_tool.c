/* Test driver for the code object writer: reads a line-based module description
 * (written by the test scripts from clang-19/llvm-mc-19 output), fills a co_module
 * and runs one writer.
 *
 *   co_tool exec SPEC OUT      executable (co_write_executable)
 *   co_tool rel SPEC OUT       relocatable (co_write_relocatable)
 *   co_tool best SPEC OUT      co_emit_executable preferring comgr
 *   co_tool link TARGET OUT IN...   co_link through comgr
 *   co_tool stats SPEC         the -v line of every kernel
 *
 * SPEC lines (one keyword each; '#' starts a comment):
 *   target gfx90a:xnack-      cov 5
 *   kernel NAME ... end       with: code FILE [START SIZE], vgprs N, agprs N, sgprs N,
 *     vcc 0|1, flat_scratch 0|1, lds N, scratch N, dynamic_stack 0|1, kernarg_size N,
 *     kernarg_align N, user SGPR names, user_sgpr_count N, system SGPR names,
 *     workitem_id_dims N, wave N, max_flat_wg N, reqntid X Y Z,
 *     float R32 R1664 D32 D1664 IEEE DX10, uniform_wg 0|1, wgp 0|1, mem_ordered 0|1,
 *     hidden KIND..., arg OFF SIZE ALIGN KIND ASPACE ACCESS NAME TYPE [const]
 *   function NAME FILE START SIZE GLOBAL
 *   data NAME global|const SIZE ALIGN INITFILE|- VISIBLE
 *   reloc kernel|function|data INDEX OFFSET TYPE SYMBOL ADDEND
 *   metadata FILE             raw metadata override */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "codeobj.h"

struct spec {
	struct pa_arena arena;
	struct co_module m;
	struct co_kernel kernels[16];
	struct co_function functions[16];
	struct co_data data[16];
	struct co_reloc relocs[64];
	struct co_arg args[16][32];
};

static uint8_t *read_file(struct pa_arena *a, const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "co_tool: cannot open %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *p = pa_arena_alloc(a, (size_t)n + 1, 16);
	if (fread(p, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "co_tool: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return p;
}

/* Slices [start, start+size) out of a file (a whole .text extracted by objcopy). */
static const uint8_t *code_slice(struct pa_arena *a, char **tok, int ntok, size_t *size)
{
	size_t n;
	uint8_t *p = read_file(a, tok[1], &n);
	size_t start = ntok > 2 ? strtoul(tok[2], NULL, 0) : 0;
	size_t len = ntok > 3 ? strtoul(tok[3], NULL, 0) : n - start;
	if (start + len > n) {
		fprintf(stderr, "co_tool: slice outside %s\n", tok[1]);
		exit(2);
	}
	*size = len;
	return p + start;
}

static const char *dup(struct pa_arena *a, const char *s)
{
	return pa_arena_strndup(a, s, strlen(s));
}

static bool set_flag(const char *name, const char *const *names, bool *const *slots)
{
	for (size_t i = 0; names[i]; i++) {
		if (!strcmp(name, names[i])) {
			*slots[i] = true;
			return true;
		}
	}
	return false;
}

static const char *const hidden_names[] = {
        "block_count_x", "block_count_y",   "block_count_z",     "group_size_x",
        "group_size_y",  "group_size_z",    "remainder_x",       "remainder_y",
        "remainder_z",   "global_offset_x", "global_offset_y",   "global_offset_z",
        "grid_dims",     "printf_buffer",   "hostcall_buffer",   "multigrid_sync_arg",
        "heap_v1",       "default_queue",   "completion_action", "dynamic_lds_size",
        "private_base",  "shared_base",     "queue_ptr",         NULL};

static int index_of(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	fprintf(stderr, "co_tool: unknown name '%s'\n", s);
	exit(2);
}

static void parse_arg(struct spec *s, struct co_kernel *k, char **tok, int ntok)
{
	static const char *const kinds[] = {"by_value", "global_buffer", "dynamic_shared_pointer",
	                                    NULL};
	static const char *const spaces[] = {"-",       "global",  "constant", "local",
	                                     "generic", "private", NULL};
	static const char *const access[] = {"-", "read_only", "write_only", "read_write", NULL};
	if (ntok < 9) {
		fprintf(stderr, "co_tool: arg needs 8 fields\n");
		exit(2);
	}
	if (k->nargs >= 32) {
		fprintf(stderr, "co_tool: too many args\n");
		exit(2);
	}
	struct co_arg *a = &s->args[s->m.nkernels][k->nargs++];
	a->offset = (uint32_t)strtoul(tok[1], NULL, 0);
	a->size = (uint32_t)strtoul(tok[2], NULL, 0);
	a->align = (uint32_t)strtoul(tok[3], NULL, 0);
	a->value_kind = (enum co_value_kind)index_of(tok[4], kinds);
	a->address_space = (enum co_address_space)index_of(tok[5], spaces);
	a->access = (enum co_access)index_of(tok[6], access);
	a->name = strcmp(tok[7], "-") ? dup(&s->arena, tok[7]) : NULL;
	a->type_name = strcmp(tok[8], "-") ? dup(&s->arena, tok[8]) : NULL;
	for (int i = 9; i < ntok; i++) {
		a->is_const |= !strcmp(tok[i], "const");
		a->is_restrict |= !strcmp(tok[i], "restrict");
		a->is_volatile |= !strcmp(tok[i], "volatile");
	}
}

static void parse_kernel_line(struct spec *s, struct co_kernel *k, char **tok, int ntok)
{
	struct co_abi_inputs *abi = &k->abi;
	const char *user[] = {"private_segment_buffer",
	                      "dispatch_ptr",
	                      "queue_ptr",
	                      "kernarg_segment_ptr",
	                      "dispatch_id",
	                      "flat_scratch_init",
	                      "private_segment_size",
	                      "workgroup_id_x",
	                      "workgroup_id_y",
	                      "workgroup_id_z",
	                      "workgroup_info",
	                      "private_segment_wave_offset",
	                      NULL};
	bool *const slots[] = {&abi->private_segment_buffer,
	                       &abi->dispatch_ptr,
	                       &abi->queue_ptr,
	                       &abi->kernarg_segment_ptr,
	                       &abi->dispatch_id,
	                       &abi->flat_scratch_init,
	                       &abi->private_segment_size,
	                       &abi->workgroup_id_x,
	                       &abi->workgroup_id_y,
	                       &abi->workgroup_id_z,
	                       &abi->workgroup_info,
	                       &abi->private_segment_wave_offset};
	const char *key = tok[0];
	unsigned v = ntok > 1 ? (unsigned)strtoul(tok[1], NULL, 0) : 0;
	if (!strcmp(key, "code"))
		k->code = code_slice(&s->arena, tok, ntok, &k->code_size);
	else if (!strcmp(key, "vgprs"))
		k->vgpr_count = v;
	else if (!strcmp(key, "agprs"))
		k->agpr_count = v;
	else if (!strcmp(key, "sgprs"))
		k->sgpr_count = v;
	else if (!strcmp(key, "vcc"))
		k->uses_vcc = v;
	else if (!strcmp(key, "flat_scratch"))
		k->uses_flat_scratch = v;
	else if (!strcmp(key, "xnack_mask"))
		k->uses_xnack_mask = v;
	else if (!strcmp(key, "lds"))
		k->group_segment_size = v;
	else if (!strcmp(key, "scratch"))
		k->private_segment_size = v;
	else if (!strcmp(key, "dynamic_stack"))
		k->uses_dynamic_stack = v;
	else if (!strcmp(key, "kernarg_size"))
		k->kernarg_size = v;
	else if (!strcmp(key, "kernarg_align"))
		k->kernarg_align = v;
	else if (!strcmp(key, "user_sgpr_count"))
		abi->user_sgpr_count = v;
	else if (!strcmp(key, "workitem_id_dims"))
		abi->workitem_id_dims = v;
	else if (!strcmp(key, "wave"))
		k->wave_size = v;
	else if (!strcmp(key, "max_flat_wg"))
		k->max_flat_workgroup_size = v;
	else if (!strcmp(key, "uniform_wg"))
		k->uniform_work_group_size = v;
	else if (!strcmp(key, "wgp"))
		k->workgroup_processor_mode = v;
	else if (!strcmp(key, "mem_ordered"))
		k->mem_ordered = v;
	else if (!strcmp(key, "tg_split"))
		k->tg_split = v;
	else if (!strcmp(key, "reqntid") && ntok == 4)
		for (int i = 0; i < 3; i++)
			k->reqd_workgroup_size[i] = (unsigned)strtoul(tok[1 + i], NULL, 0);
	else if (!strcmp(key, "float") && ntok == 7) {
		k->float_mode.round_32 = (uint8_t)atoi(tok[1]);
		k->float_mode.round_16_64 = (uint8_t)atoi(tok[2]);
		k->float_mode.denorm_32 = (uint8_t)atoi(tok[3]);
		k->float_mode.denorm_16_64 = (uint8_t)atoi(tok[4]);
		k->float_mode.ieee_mode = atoi(tok[5]);
		k->float_mode.dx10_clamp = atoi(tok[6]);
	} else if (!strcmp(key, "hidden"))
		for (int i = 1; i < ntok; i++)
			k->hidden_args |= 1u << index_of(tok[i], hidden_names);
	else if (!strcmp(key, "arg"))
		parse_arg(s, k, tok, ntok);
	else if (!strcmp(key, "abi"))
		for (int i = 1; i < ntok; i++) {
			if (!set_flag(tok[i], user, slots)) {
				fprintf(stderr, "co_tool: unknown ABI input '%s'\n", tok[i]);
				exit(2);
			}
		}
	else {
		fprintf(stderr, "co_tool: unknown kernel line '%s'\n", key);
		exit(2);
	}
}

static void parse_top_line(struct spec *s, char **tok, int ntok)
{
	struct co_module *m = &s->m;
	const char *key = tok[0];
	if (!strcmp(key, "target") && ntok == 2) {
		char err[256];
		if (!amd_target_parse(tok[1], &m->target, err, sizeof err)) {
			fprintf(stderr, "co_tool: %s\n", err);
			exit(2);
		}
	} else if (!strcmp(key, "cov") && ntok == 2) {
		m->code_object_version = (unsigned)atoi(tok[1]);
	} else if (!strcmp(key, "function") && ntok == 6 && m->nfunctions < 16) {
		struct co_function *f = &s->functions[m->nfunctions++];
		f->name = dup(&s->arena, tok[1]);
		f->code = code_slice(&s->arena, tok + 1, 4, &f->code_size);
		f->is_global = atoi(tok[5]);
	} else if (!strcmp(key, "data") && ntok == 7 && m->ndata < 16) {
		struct co_data *d = &s->data[m->ndata++];
		d->name = dup(&s->arena, tok[1]);
		d->space = !strcmp(tok[2], "const") ? CO_DATA_CONST : CO_DATA_GLOBAL;
		d->size = strtoul(tok[3], NULL, 0);
		d->align = (uint32_t)strtoul(tok[4], NULL, 0);
		if (strcmp(tok[5], "-")) {
			size_t n;
			d->init = read_file(&s->arena, tok[5], &n);
			if (n < d->size) {
				fprintf(stderr, "co_tool: %s is shorter than %zu\n", tok[5],
				        d->size);
				exit(2);
			}
		}
		d->is_global = atoi(tok[6]) == 1;
		d->is_extern = atoi(tok[6]) == 2;
	} else if (!strcmp(key, "reloc") && ntok == 7 && m->nrelocs < 64) {
		static const char *const ins[] = {"kernel", "function", "data", NULL};
		struct co_reloc *r = &s->relocs[m->nrelocs++];
		r->in = (enum co_section_of)index_of(tok[1], ins);
		r->index = strtoul(tok[2], NULL, 0);
		r->offset = strtoull(tok[3], NULL, 0);
		r->type = (enum co_reloc_type)atoi(tok[4]);
		r->symbol = dup(&s->arena, tok[5]);
		r->addend = strtoll(tok[6], NULL, 0);
	} else if (!strcmp(key, "metadata") && ntok == 2) {
		m->raw_metadata = read_file(&s->arena, tok[1], &m->raw_metadata_size);
	} else {
		fprintf(stderr, "co_tool: unknown line '%s'\n", key);
		exit(2);
	}
}

static void parse_spec(struct spec *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "co_tool: cannot open %s\n", path);
		exit(2);
	}
	char line[1024];
	struct co_kernel *k = NULL;
	while (fgets(line, sizeof line, f)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *tok[16];
		int ntok = 0;
		for (char *t = strtok(line, " \t\r\n"); t && ntok < 16; t = strtok(NULL, " \t\r\n"))
			tok[ntok++] = t;
		if (!ntok)
			continue;
		if (k && !strcmp(tok[0], "end")) {
			s->m.nkernels++;
			k = NULL;
		} else if (k) {
			parse_kernel_line(s, k, tok, ntok);
		} else if (!strcmp(tok[0], "kernel") && ntok == 2 && s->m.nkernels < 16) {
			k = &s->kernels[s->m.nkernels];
			co_kernel_defaults(k);
			k->name = dup(&s->arena, tok[1]);
			k->args = s->args[s->m.nkernels];
		} else {
			parse_top_line(s, tok, ntok);
		}
	}
	fclose(f);
	s->m.kernels = s->kernels;
	s->m.functions = s->functions;
	s->m.data = s->data;
	s->m.relocs = s->relocs;
}

static int write_out(const char *path, const struct co_buffer *b)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->data, 1, b->size, f) != b->size || fclose(f)) {
		fprintf(stderr, "co_tool: cannot write %s\n", path);
		return 2;
	}
	return 0;
}

static int run_link(int argc, char **argv, struct pa_diag *d)
{
	struct amd_target t;
	char err[256];
	if (!amd_target_parse(argv[2], &t, err, sizeof err)) {
		fprintf(stderr, "co_tool: %s\n", err);
		return 2;
	}
	struct pa_arena a;
	pa_arena_init(&a);
	struct co_buffer objs[16], out;
	int n = argc - 4 < 16 ? argc - 4 : 16;
	for (int i = 0; i < n; i++)
		objs[i].data = read_file(&a, argv[4 + i], &objs[i].size);
	int rc = 1;
	if (co_link(&t, objs, (size_t)n, &out, d)) {
		printf("path: %s\n", co_path_name(CO_PATH_COMGR));
		rc = write_out(argv[3], &out);
		co_buffer_free(&out);
	}
	pa_arena_free(&a);
	return rc;
}

int main(int argc, char **argv)
{
	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	if (argc >= 5 && !strcmp(argv[1], "link"))
		return run_link(argc, argv, &diag);
	if (argc < 3) {
		fprintf(stderr, "usage: co_tool exec|rel|stats SPEC [OUT]\n");
		return 2;
	}
	struct spec *s = calloc(1, sizeof *s);
	pa_arena_init(&s->arena);
	parse_spec(s, argv[2]);
	struct co_buffer out = {0};
	int rc = 1;
	if (!strcmp(argv[1], "stats")) {
		rc = 0;
		for (size_t i = 0; i < s->m.nkernels; i++) {
			struct co_descriptor desc;
			unsigned cov = s->m.code_object_version ? s->m.code_object_version : 5;
			if (!co_compute_descriptor(&s->m.target, cov, &s->kernels[i], &desc,
			                           &diag)) {
				rc = 1;
				continue;
			}
			char line[512];
			co_kernel_stats_line(&s->m.target, &s->kernels[i], &desc, line,
			                     sizeof line);
			printf("%s\n", line);
		}
	} else if (argc == 4 && !strcmp(argv[1], "exec")) {
		if (co_write_executable(&s->m, &out, &diag)) {
			printf("path: %s\n", co_path_name(CO_PATH_BUILTIN));
			rc = write_out(argv[3], &out);
		}
	} else if (argc == 4 && !strcmp(argv[1], "best")) {
		enum co_path path;
		if (co_emit_executable(&s->m, true, &out, &path, &diag)) {
			printf("path: %s\n", co_path_name(path));
			rc = write_out(argv[3], &out);
		}
	} else if (argc == 4 && !strcmp(argv[1], "rel")) {
		if (co_write_relocatable(&s->m, &out, &diag))
			rc = write_out(argv[3], &out);
	} else {
		fprintf(stderr, "co_tool: bad command\n");
		rc = 2;
	}
	co_buffer_free(&out);
	pa_arena_free(&s->arena);
	free(s);
	return rc;
}
