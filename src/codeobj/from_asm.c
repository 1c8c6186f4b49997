/* co_module_from_asm: the kernels of an assembled .s file (amd_asm_read) as a co_module.
 *
 * Algorithm: each .amdhsa_kernel block is a list of `.amdhsa_NAME VALUE` fields; one table
 * maps every field LLVM writes to the co_kernel member it sets (after co_kernel_defaults,
 * which matches the directives' documented defaults).  Fields the writer cannot express
 * with a value other than their default (exception enables, kernarg preloading, ...) are
 * errors, never silently dropped.  An .amdgpu_metadata block, when present, becomes the
 * module's raw metadata.  Device functions and variables become co_function/co_data, and
 * each relocation of .text is attributed to the kernel or function whose code holds it
 * (relocation types the writers cannot produce are errors).  Requires: amd_asm_read
 * output.  O(fields + symbols * relocations). */
#include <stddef.h>
#include <string.h>

#include "amd_asm.h"
#include "codeobj.h"

enum field_kind {
	F_U32,     /* plain uint32 member */
	F_BOOL,    /* boolean member */
	F_U8,      /* uint8 member (float modes) */
	F_ZERO,    /* only the default 0 is supported */
	F_SPECIAL, /* handled in apply_special */
};

struct field_rule {
	const char *name;
	enum field_kind kind;
	size_t offset; /* of the member in struct co_kernel */
};

#define K(member) offsetof(struct co_kernel, member)
static const struct field_rule rules[] = {
        {"amdhsa_group_segment_fixed_size", F_U32, K(group_segment_size)},
        {"amdhsa_private_segment_fixed_size", F_U32, K(private_segment_size)},
        {"amdhsa_kernarg_size", F_U32, K(kernarg_size)},
        {"amdhsa_user_sgpr_count", F_U32, K(abi.user_sgpr_count)},
        {"amdhsa_user_sgpr_private_segment_buffer", F_BOOL, K(abi.private_segment_buffer)},
        {"amdhsa_user_sgpr_dispatch_ptr", F_BOOL, K(abi.dispatch_ptr)},
        {"amdhsa_user_sgpr_queue_ptr", F_BOOL, K(abi.queue_ptr)},
        {"amdhsa_user_sgpr_kernarg_segment_ptr", F_BOOL, K(abi.kernarg_segment_ptr)},
        {"amdhsa_user_sgpr_dispatch_id", F_BOOL, K(abi.dispatch_id)},
        {"amdhsa_user_sgpr_flat_scratch_init", F_BOOL, K(abi.flat_scratch_init)},
        {"amdhsa_user_sgpr_private_segment_size", F_BOOL, K(abi.private_segment_size)},
        {"amdhsa_system_sgpr_workgroup_id_x", F_BOOL, K(abi.workgroup_id_x)},
        {"amdhsa_system_sgpr_workgroup_id_y", F_BOOL, K(abi.workgroup_id_y)},
        {"amdhsa_system_sgpr_workgroup_id_z", F_BOOL, K(abi.workgroup_id_z)},
        {"amdhsa_system_sgpr_workgroup_info", F_BOOL, K(abi.workgroup_info)},
        {"amdhsa_system_sgpr_private_segment_wavefront_offset", F_BOOL,
         K(abi.private_segment_wave_offset)},
        {"amdhsa_enable_private_segment", F_BOOL, K(abi.private_segment_wave_offset)},
        {"amdhsa_system_vgpr_workitem_id", F_SPECIAL, 0},
        {"amdhsa_next_free_vgpr", F_SPECIAL, 0},
        {"amdhsa_next_free_sgpr", F_U32, K(sgpr_count)},
        {"amdhsa_accum_offset", F_SPECIAL, 0},
        {"amdhsa_reserve_vcc", F_BOOL, K(uses_vcc)},
        {"amdhsa_reserve_flat_scratch", F_BOOL, K(uses_flat_scratch)},
        {"amdhsa_reserve_xnack_mask", F_BOOL, K(uses_xnack_mask)},
        {"amdhsa_uses_dynamic_stack", F_BOOL, K(uses_dynamic_stack)},
        {"amdhsa_wavefront_size32", F_SPECIAL, 0},
        {"amdhsa_float_round_mode_32", F_U8, K(float_mode.round_32)},
        {"amdhsa_float_round_mode_16_64", F_U8, K(float_mode.round_16_64)},
        {"amdhsa_float_denorm_mode_32", F_U8, K(float_mode.denorm_32)},
        {"amdhsa_float_denorm_mode_16_64", F_U8, K(float_mode.denorm_16_64)},
        {"amdhsa_ieee_mode", F_BOOL, K(float_mode.ieee_mode)},
        {"amdhsa_dx10_clamp", F_BOOL, K(float_mode.dx10_clamp)},
        {"amdhsa_workgroup_processor_mode", F_BOOL, K(workgroup_processor_mode)},
        {"amdhsa_memory_ordered", F_BOOL, K(mem_ordered)},
        {"amdhsa_tg_split", F_BOOL, K(tg_split)},
        /* The writer leaves these descriptor bits 0, as LLVM-19 does by default. */
        {"amdhsa_fp16_overflow", F_ZERO, 0},
        {"amdhsa_forward_progress", F_ZERO, 0},
        {"amdhsa_round_robin_scheduling", F_ZERO, 0},
        {"amdhsa_shared_vgpr_count", F_ZERO, 0},
        {"amdhsa_user_sgpr_kernarg_preload_length", F_ZERO, 0},
        {"amdhsa_user_sgpr_kernarg_preload_offset", F_ZERO, 0},
        {"amdhsa_exception_fp_ieee_invalid_op", F_ZERO, 0},
        {"amdhsa_exception_fp_denorm_src", F_ZERO, 0},
        {"amdhsa_exception_fp_ieee_div_zero", F_ZERO, 0},
        {"amdhsa_exception_fp_ieee_overflow", F_ZERO, 0},
        {"amdhsa_exception_fp_ieee_underflow", F_ZERO, 0},
        {"amdhsa_exception_fp_ieee_inexact", F_ZERO, 0},
        {"amdhsa_exception_int_div_zero", F_ZERO, 0},
};
#undef K

static const struct field_rule *find_rule(const char *name)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	return NULL;
}

static void field_error(struct pa_diag *d, const char *file, const struct amd_asm_field *f,
                        const char *what)
{
	pa_diag_report(d, PA_DIAG_ERROR, file, f->line, 0, NULL, 0, ".%s %lld: %s", f->name,
	               (long long)f->value, what);
}

/* Applies one field; false (with a diagnostic) when its value cannot be expressed. */
static bool apply_field(struct co_kernel *k, const struct amd_asm_field *f, const char *file,
                        struct pa_diag *d)
{
	const struct field_rule *r = find_rule(f->name);
	if (!r) {
		field_error(d, file, f, "unknown or unsupported .amdhsa_ field");
		return false;
	}
	if (f->value < 0 || f->value > UINT32_MAX) {
		field_error(d, file, f, "value out of range");
		return false;
	}
	unsigned char *base = (unsigned char *)k;
	uint32_t v = (uint32_t)f->value;
	switch (r->kind) {
	case F_U32:
		memcpy(base + r->offset, &v, sizeof v);
		return true;
	case F_BOOL:
		if (v > 1) {
			field_error(d, file, f, "expected 0 or 1");
			return false;
		}
		*(bool *)(base + r->offset) = v;
		return true;
	case F_U8:
		if (v > 3) {
			field_error(d, file, f, "expected a mode from 0 to 3");
			return false;
		}
		*(uint8_t *)(base + r->offset) = (uint8_t)v;
		return true;
	case F_ZERO:
		if (v != 0) {
			field_error(d, file, f, "only 0 is supported by the code object writer");
			return false;
		}
		return true;
	case F_SPECIAL:
		break;
	}
	if (!strcmp(f->name, "amdhsa_system_vgpr_workitem_id")) {
		if (v > 2) {
			field_error(d, file, f, "expected 0 (X), 1 (XY) or 2 (XYZ)");
			return false;
		}
		k->abi.workitem_id_dims = v + 1;
	} else if (!strcmp(f->name, "amdhsa_wavefront_size32")) {
		k->wave_size = v ? 32 : 64;
	} else if (!strcmp(f->name, "amdhsa_next_free_vgpr")) {
		k->vgpr_count = v; /* split into VGPRs and AGPRs below, with accum_offset */
	}
	return true;
}

/* On gfx90a/gfx942 next_free_vgpr counts the unified file: architected VGPRs up to
 * accum_offset, then AGPRs. */
static bool split_agprs(struct co_kernel *k, const struct amd_asm_kernel *ak, const char *file,
                        struct pa_diag *d)
{
	int64_t accum = amd_asm_field(ak, "amdhsa_accum_offset", -1);
	if (accum < 0)
		return true;
	if (accum < 4 || accum > 256 || accum % 4) {
		pa_diag_report(d, PA_DIAG_ERROR, file, 0, 0, NULL, 0,
		               "kernel '%s': .amdhsa_accum_offset %lld must be a multiple of 4 "
		               "from 4 to 256",
		               k->name, (long long)accum);
		return false;
	}
	if (k->vgpr_count > (unsigned)accum) {
		k->agpr_count = k->vgpr_count - (unsigned)accum;
		k->vgpr_count = (unsigned)accum;
	}
	return true;
}

/* Device functions and variables of the file. */
static void add_symbols(const struct amd_asm_module *am, struct pa_arena *arena,
                        struct co_module *out)
{
	struct co_function *fns = PA_NEW_ARRAY(arena, struct co_function, am->nsymbols + 1);
	struct co_data *vars = PA_NEW_ARRAY(arena, struct co_data, am->nsymbols + 1);
	for (unsigned i = 0; i < am->nsymbols; i++) {
		const struct amd_asm_symbol *s = &am->symbols[i];
		if (s->kind == AMD_ASM_FUNCTION) {
			fns[out->nfunctions++] = (struct co_function){.name = s->name,
			                                              .code = am->text + s->offset,
			                                              .code_size = s->size,
			                                              .is_global = s->is_global};
			continue;
		}
		vars[out->ndata++] = (struct co_data){
		        .name = s->name,
		        .space = s->kind == AMD_ASM_RODATA ? CO_DATA_CONST : CO_DATA_GLOBAL,
		        .init = s->kind == AMD_ASM_DATA     ? am->data + s->offset
		                : s->kind == AMD_ASM_RODATA ? am->rodata + s->offset
		                                            : NULL,
		        .size = s->size,
		        .align = s->align,
		        /* exported when visible, as ld.lld does: clang's OpenCL globals are
		         * .hidden, HIP's __device__ variables are not */
		        .is_global = s->is_global && !s->is_hidden,
		};
	}
	out->functions = fns;
	out->data = vars;
}

static bool reloc_error(struct pa_diag *d, const char *file, const struct amd_asm_reloc *r,
                        const char *what)
{
	pa_diag_report(d, PA_DIAG_ERROR, file, r->line, 0, NULL, 0, "relocation against '%s': %s",
	               r->symbol, what);
	return false;
}

/* Each .text relocation, relative to the kernel or function whose code holds it. */
static bool add_relocs(const struct amd_asm_module *am, const char *file, struct pa_arena *arena,
                       struct co_module *out, struct pa_diag *d)
{
	struct co_reloc *rs = PA_NEW_ARRAY(arena, struct co_reloc, am->nrelocs + 1);
	bool ok = true;
	for (unsigned i = 0; i < am->nrelocs; i++) {
		const struct amd_asm_reloc *r = &am->relocs[i];
		enum co_reloc_type type = r->type == AMD_R_REL32_LO   ? CO_R_REL32_LO
		                          : r->type == AMD_R_REL32_HI ? CO_R_REL32_HI
		                                                      : CO_R_ABS64;
		if (type == CO_R_ABS64) {
			ok = reloc_error(d, file, r,
			                 "only @rel32@lo and @rel32@hi are supported by the code "
			                 "object writer (@gotpcrel32 and @abs32 are not)");
			continue;
		}
		struct co_reloc cr = {.type = type, .symbol = r->symbol, .addend = r->addend};
		bool found = false;
		for (size_t k = 0; k < out->nkernels && !found; k++) {
			const struct amd_asm_kernel *ak = &am->kernels[k];
			if (r->offset >= ak->code_offset &&
			    r->offset < ak->code_offset + ak->code_size)
				found = true, cr.in = CO_IN_KERNEL, cr.index = k,
				cr.offset = r->offset - ak->code_offset;
		}
		for (size_t f = 0; f < out->nfunctions && !found; f++) {
			size_t start = (size_t)(out->functions[f].code - am->text);
			if (r->offset >= start && r->offset < start + out->functions[f].code_size)
				found = true, cr.in = CO_IN_FUNCTION, cr.index = f,
				cr.offset = r->offset - start;
		}
		if (!found)
			ok = reloc_error(d, file, r, "outside every kernel and function");
		else
			rs[out->nrelocs++] = cr;
	}
	out->relocs = rs;
	return ok;
}

bool co_module_from_asm(const struct amd_target *t, const struct amd_asm_module *am,
                        const char *file, struct pa_arena *arena, struct co_module *out,
                        struct pa_diag *d)
{
	bool ok = true;
	memset(out, 0, sizeof *out);
	out->target = *t;
	out->code_object_version = am->code_object_version;
	struct co_kernel *ks =
	        PA_NEW_ARRAY(arena, struct co_kernel, am->nkernels ? am->nkernels : 1);
	for (unsigned i = 0; i < am->nkernels; i++) {
		const struct amd_asm_kernel *ak = &am->kernels[i];
		struct co_kernel *k = &ks[i];
		co_kernel_defaults(k);
		k->name = ak->name;
		k->code = ak->code;
		k->code_size = ak->code_size;
		/* A field that is absent takes LLVM's directive default (AMDGPUUsage,
		 * "AMDHSA Kernel Assembler Directives"): workgroup id X on, VCC and
		 * flat scratch reserved, 32-bit denormals flushed. */
		k->abi.workgroup_id_x = true;
		k->float_mode.denorm_32 = 0;
		k->uses_vcc = true;
		k->uses_flat_scratch = !t->info->architected_flat_scratch;
		for (unsigned j = 0; j < ak->nfields; j++)
			ok &= apply_field(k, &ak->fields[j], file, d);
		/* No argument list to derive it from: 8 is what the code object v5
		 * hidden arguments (and any pointer argument) need, and HSA loaders
		 * align the kernarg segment to 16 anyway. */
		if (k->kernarg_size)
			k->kernarg_align = 8;
		if (ok && k->wave_size == 0)
			k->wave_size = t->wave_size;
		ok = ok && split_agprs(k, ak, file, d);
	}
	out->kernels = ks;
	out->nkernels = am->nkernels;
	add_symbols(am, arena, out);
	ok = add_relocs(am, file, arena, out, d) && ok;
	if (am->metadata) {
		out->raw_metadata = (const uint8_t *)am->metadata;
		out->raw_metadata_size = am->metadata_len;
	}
	return ok;
}
