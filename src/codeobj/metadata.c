/* NT_AMDGPU_METADATA: the msgpack map HIP (through comgr) reads to find kernels and
 * their argument layout.
 *
 * Algorithm: one pass over the kernels, packing maps with msgpack-c.  Keys are
 * written in byte order, as LLVM's msgpack document writer sorts them, so our note
 * reads like clang's in llvm-readelf --notes.  Hidden arguments follow the explicit
 * ones at the next 8-byte boundary, at the fixed offsets of AMDGPUUsage's "Code
 * Object V5 Kernel Argument Metadata" (v4: the 56-byte block of global offsets and
 * runtime pointers).
 * requires: co_compute_descriptor for each kernel; breaks: nothing.  Complexity:
 * O(kernels * args). */
#include "codeobj.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

struct hidden_slot {
	uint32_t bit;
	const char *kind;
	uint16_t offset, size;
};

/* Offsets within the implicit argument block (AMDGPUUsage v5 table). */
static const struct hidden_slot hidden_v5[] = {
        {CO_HIDDEN_BLOCK_COUNT_X, "hidden_block_count_x", 0, 4},
        {CO_HIDDEN_BLOCK_COUNT_Y, "hidden_block_count_y", 4, 4},
        {CO_HIDDEN_BLOCK_COUNT_Z, "hidden_block_count_z", 8, 4},
        {CO_HIDDEN_GROUP_SIZE_X, "hidden_group_size_x", 12, 2},
        {CO_HIDDEN_GROUP_SIZE_Y, "hidden_group_size_y", 14, 2},
        {CO_HIDDEN_GROUP_SIZE_Z, "hidden_group_size_z", 16, 2},
        {CO_HIDDEN_REMAINDER_X, "hidden_remainder_x", 18, 2},
        {CO_HIDDEN_REMAINDER_Y, "hidden_remainder_y", 20, 2},
        {CO_HIDDEN_REMAINDER_Z, "hidden_remainder_z", 22, 2},
        {CO_HIDDEN_GLOBAL_OFFSET_X, "hidden_global_offset_x", 40, 8},
        {CO_HIDDEN_GLOBAL_OFFSET_Y, "hidden_global_offset_y", 48, 8},
        {CO_HIDDEN_GLOBAL_OFFSET_Z, "hidden_global_offset_z", 56, 8},
        {CO_HIDDEN_GRID_DIMS, "hidden_grid_dims", 64, 2},
        {CO_HIDDEN_PRINTF_BUFFER, "hidden_printf_buffer", 72, 8},
        {CO_HIDDEN_HOSTCALL_BUFFER, "hidden_hostcall_buffer", 80, 8},
        {CO_HIDDEN_MULTIGRID_SYNC, "hidden_multigrid_sync_arg", 88, 8},
        {CO_HIDDEN_HEAP_V1, "hidden_heap_v1", 96, 8},
        {CO_HIDDEN_DEFAULT_QUEUE, "hidden_default_queue", 104, 8},
        {CO_HIDDEN_COMPLETION_ACTION, "hidden_completion_action", 112, 8},
        {CO_HIDDEN_DYNAMIC_LDS_SIZE, "hidden_dynamic_lds_size", 120, 4},
        {CO_HIDDEN_PRIVATE_BASE, "hidden_private_base", 192, 4},
        {CO_HIDDEN_SHARED_BASE, "hidden_shared_base", 196, 4},
        {CO_HIDDEN_QUEUE_PTR, "hidden_queue_ptr", 200, 8},
};

/* Code object v4: global offsets, then one pointer slot each. */
static const struct hidden_slot hidden_v4[] = {
        {CO_HIDDEN_GLOBAL_OFFSET_X, "hidden_global_offset_x", 0, 8},
        {CO_HIDDEN_GLOBAL_OFFSET_Y, "hidden_global_offset_y", 8, 8},
        {CO_HIDDEN_GLOBAL_OFFSET_Z, "hidden_global_offset_z", 16, 8},
        {CO_HIDDEN_PRINTF_BUFFER, "hidden_printf_buffer", 24, 8},
        {CO_HIDDEN_HOSTCALL_BUFFER, "hidden_hostcall_buffer", 24, 8},
        {CO_HIDDEN_DEFAULT_QUEUE, "hidden_default_queue", 32, 8},
        {CO_HIDDEN_COMPLETION_ACTION, "hidden_completion_action", 40, 8},
        {CO_HIDDEN_MULTIGRID_SYNC, "hidden_multigrid_sync_arg", 48, 8},
};

static const char *const address_space_names[] = {
        [CO_AS_GLOBAL] = "global",   [CO_AS_CONSTANT] = "constant", [CO_AS_LOCAL] = "local",
        [CO_AS_GENERIC] = "generic", [CO_AS_PRIVATE] = "private",
};

static const char *const access_names[] = {
        [CO_ACCESS_READ_ONLY] = "read_only",
        [CO_ACCESS_WRITE_ONLY] = "write_only",
        [CO_ACCESS_READ_WRITE] = "read_write",
};

static const char *const value_kind_names[] = {
        [CO_ARG_BY_VALUE] = "by_value",
        [CO_ARG_GLOBAL_BUFFER] = "global_buffer",
        [CO_ARG_DYNAMIC_SHARED_POINTER] = "dynamic_shared_pointer",
};

static void pack_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

static void pack_key_uint(msgpack_packer *pk, const char *key, uint64_t v)
{
	pack_str(pk, key);
	msgpack_pack_uint64(pk, v);
}

static void pack_key_str(msgpack_packer *pk, const char *key, const char *v)
{
	pack_str(pk, key);
	pack_str(pk, v);
}

static void pack_key_bool(msgpack_packer *pk, const char *key, bool v)
{
	pack_str(pk, key);
	if (v)
		msgpack_pack_true(pk);
	else
		msgpack_pack_false(pk);
}

static void pack_explicit_arg(msgpack_packer *pk, const struct co_arg *a)
{
	bool is_pointer = a->value_kind != CO_ARG_BY_VALUE;
	bool has_as = is_pointer && a->address_space != CO_AS_NONE;
	size_t n = 3 + (a->access != CO_ACCESS_DEFAULT) + has_as + a->is_const + a->is_restrict +
	           a->is_volatile + (a->name != NULL) + (a->type_name != NULL);
	msgpack_pack_map(pk, n);
	if (a->access != CO_ACCESS_DEFAULT)
		pack_key_str(pk, ".access", access_names[a->access]);
	if (has_as)
		pack_key_str(pk, ".address_space", address_space_names[a->address_space]);
	if (a->is_const)
		pack_key_bool(pk, ".is_const", true);
	if (a->is_restrict)
		pack_key_bool(pk, ".is_restrict", true);
	if (a->is_volatile)
		pack_key_bool(pk, ".is_volatile", true);
	if (a->name)
		pack_key_str(pk, ".name", a->name);
	pack_key_uint(pk, ".offset", a->offset);
	pack_key_uint(pk, ".size", a->size);
	if (a->type_name)
		pack_key_str(pk, ".type_name", a->type_name);
	pack_key_str(pk, ".value_kind", value_kind_names[a->value_kind]);
}

static bool hidden_table(unsigned cov, const struct co_kernel *k, const struct hidden_slot **tab,
                         size_t *n, struct pa_diag *d)
{
	*tab = cov >= 5 ? hidden_v5 : hidden_v4;
	*n = cov >= 5 ? sizeof hidden_v5 / sizeof hidden_v5[0]
	              : sizeof hidden_v4 / sizeof hidden_v4[0];
	uint32_t known = 0;
	for (size_t i = 0; i < *n; i++)
		known |= (*tab)[i].bit;
	if ((k->hidden_args & ~known) || (cov < 5 && (k->hidden_args & CO_HIDDEN_PRINTF_BUFFER) &&
	                                  (k->hidden_args & CO_HIDDEN_HOSTCALL_BUFFER))) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "kernel '%s': hidden arguments 0x%x do not exist in code object "
		               "v%u",
		               k->name, k->hidden_args & ~known, cov);
		return false;
	}
	return true;
}

static bool pack_kernel(msgpack_packer *pk, const struct co_module *m, const struct co_kernel *k,
                        struct pa_diag *d)
{
	unsigned cov = m->code_object_version ? m->code_object_version : 5;
	if (!k->name || !k->name[0]) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0, "kernel without a name");
		return false;
	}
	struct co_descriptor desc;
	if (!co_compute_descriptor(&m->target, cov, k, &desc, d))
		return false;
	const struct hidden_slot *tab;
	size_t ntab;
	if (!hidden_table(cov, k, &tab, &ntab, d))
		return false;
	size_t nhidden = 0;
	for (size_t i = 0; i < ntab; i++)
		nhidden += (k->hidden_args & tab[i].bit) != 0;
	bool has_reqd = k->reqd_workgroup_size[0] != 0;
	bool wgp = cov >= 5 && m->target.info->gen >= AMD_GFX10;
	bool agprs = m->target.info->has_agprs; /* LLVM writes .agpr_count only there */
	size_t nkeys = 13 + agprs + has_reqd + (cov >= 5 ? 2 : 0) + wgp;
	msgpack_pack_map(pk, nkeys);

	if (agprs)
		pack_key_uint(pk, ".agpr_count", desc.agpr_count);
	pack_str(pk, ".args");
	msgpack_pack_array(pk, k->nargs + nhidden);
	for (size_t i = 0; i < k->nargs; i++)
		pack_explicit_arg(pk, &k->args[i]);
	uint32_t base = (desc.explicit_kernarg_end + 7) & ~7u;
	for (size_t i = 0; i < ntab; i++) {
		if (!(k->hidden_args & tab[i].bit))
			continue;
		msgpack_pack_map(pk, 3);
		pack_key_uint(pk, ".offset", base + tab[i].offset);
		pack_key_uint(pk, ".size", tab[i].size);
		pack_key_str(pk, ".value_kind", tab[i].kind);
	}
	pack_key_uint(pk, ".group_segment_fixed_size", desc.group_segment_fixed_size);
	pack_key_uint(pk, ".kernarg_segment_align", desc.kernarg_align);
	pack_key_uint(pk, ".kernarg_segment_size", desc.kernarg_size);
	pack_key_uint(pk, ".max_flat_workgroup_size",
	              k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024);
	pack_key_str(pk, ".name", k->name);
	pack_key_uint(pk, ".private_segment_fixed_size", desc.private_segment_fixed_size);
	if (has_reqd) {
		pack_str(pk, ".reqd_workgroup_size");
		msgpack_pack_array(pk, 3);
		for (int i = 0; i < 3; i++)
			msgpack_pack_uint32(
			        pk, k->reqd_workgroup_size[i] ? k->reqd_workgroup_size[i] : 1);
	}
	pack_key_uint(pk, ".sgpr_count", desc.sgpr_count);
	pack_key_uint(pk, ".sgpr_spill_count", 0);
	size_t name_len = strlen(k->name);
	pack_str(pk, ".symbol");
	msgpack_pack_str(pk, name_len + 3);
	msgpack_pack_str_body(pk, k->name, name_len);
	msgpack_pack_str_body(pk, ".kd", 3);
	if (cov >= 5) {
		pack_key_uint(pk, ".uniform_work_group_size", k->uniform_work_group_size);
		pack_key_bool(pk, ".uses_dynamic_stack", k->uses_dynamic_stack);
	}
	pack_key_uint(pk, ".vgpr_count", desc.vgpr_count);
	pack_key_uint(pk, ".vgpr_spill_count", 0);
	pack_key_uint(pk, ".wavefront_size", desc.wave_size);
	if (wgp)
		pack_key_uint(pk, ".workgroup_processor_mode", k->workgroup_processor_mode);
	return true;
}

static bool looks_like_yaml(const uint8_t *p, size_t n)
{
	return (n >= 3 && !memcmp(p, "---", 3)) || (n >= 7 && !memcmp(p, "amdhsa.", 7));
}

bool co_build_metadata(const struct co_module *m, struct co_buffer *out, struct pa_diag *d)
{
	out->data = NULL;
	out->size = 0;
	if (m->raw_metadata) {
		if (looks_like_yaml(m->raw_metadata, m->raw_metadata_size))
			return co_metadata_from_yaml((const char *)m->raw_metadata,
			                             m->raw_metadata_size, out, d);
		out->data = pa_xmalloc(m->raw_metadata_size ? m->raw_metadata_size : 1);
		memcpy(out->data, m->raw_metadata, m->raw_metadata_size);
		out->size = m->raw_metadata_size;
		return true;
	}
	unsigned cov = m->code_object_version ? m->code_object_version : 5;
	if (cov != 4 && cov != 5) {
		pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               "code object version %u is not supported (use 4 or 5)", cov);
		return false;
	}
	msgpack_sbuffer sb;
	msgpack_sbuffer_init(&sb);
	msgpack_packer pk;
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3 + (m->nprintfs != 0));
	pack_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, m->nkernels);
	bool ok = true;
	for (size_t i = 0; i < m->nkernels && ok; i++)
		ok = pack_kernel(&pk, m, &m->kernels[i], d);
	if (m->nprintfs) {
		pack_str(&pk, "amdhsa.printf");
		msgpack_pack_array(&pk, m->nprintfs);
		for (size_t i = 0; i < m->nprintfs; i++)
			pack_str(&pk, m->printfs[i]);
	}
	char target[128];
	amd_target_id_string(&m->target, target, sizeof target);
	pack_key_str(&pk, "amdhsa.target", target);
	pack_str(&pk, "amdhsa.version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_uint32(&pk, cov >= 5 ? 2 : 1);
	if (ok) {
		out->data = pa_xmalloc(sb.size ? sb.size : 1);
		memcpy(out->data, sb.data, sb.size);
		out->size = sb.size;
	}
	msgpack_sbuffer_destroy(&sb);
	return ok;
}

void co_buffer_free(struct co_buffer *b)
{
	free(b->data);
	b->data = NULL;
	b->size = 0;
}
