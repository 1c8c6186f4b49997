/* Register allocation run for real (suite 'regalloc'): a hand-built MIR kernel with a loop
 * whose phis form a VGPR chain and an SGPR swap cycle (scc live across the copies), is
 * allocated by ra_run under several budgets (plenty, tight, SGPRs spilled to VGPR lanes,
 * VGPRs spilled to scratch on the targets with architected flat scratch),
 * encoded, written into a code object and run in amdsim; every lane's result must match a
 * CPU computation of the same program.  The test inserts conservative waits (s_waitcnt 0
 * after each memory instruction) and s_nop padding itself, since the scheduling stage is
 * not part of this one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj.h"
#include "regalloc/regalloc.h"
#include "sim.h"

enum { LANES = 64, MAX_WORDS = 4096 };

struct totals {
	unsigned checks, failures;
};

static void check(struct totals *t, bool ok, const char *what, const char *gpu, unsigned sb,
                  unsigned vb, const char *detail)
{
	t->checks++;
	if (!ok) {
		t->failures++;
		printf("FAIL: %s on %s (budget %u SGPRs, %u VGPRs): %s\n", what, gpu, sb, vb,
		       detail);
	}
}

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n,
                            struct mir_opnd x, struct mir_opnd y, struct mir_opnd z)
{
	struct mir_opnd ops[3] = {x, y, z};
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

static struct mir_opnd vreg(const struct mir_function *fn, uint32_t v)
{
	return mir_vreg(v, fn->vregs[v].size);
}

/* out[tid] for the program below, computed on the CPU. */
static uint32_t reference(uint32_t in, uint32_t tid, uint32_t n)
{
	uint32_t a = in, b = tid * 4, c = 3, d = n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = a + c;
		a = b;
		b = t;
		uint32_t swap = c;
		c = d;
		d = swap;
	}
	return a + b + c + d;
}

/* b0: loads, then phis a = in[tid], b = tid*4, c = 3, d = n, i = 0.
 * b1: t = a + c; i2 = i + 1; scc = i2 != n; phis a = b, b = t, c = d, d = c, i = i2; loop.
 * b2: out[tid] = a + b + c + d. */
static void build_kernel(struct mir_function *fn)
{
	struct mir_opnd none = {0};
	uint32_t b0 = mir_new_block(fn), b1 = mir_new_block(fn), b2 = mir_new_block(fn);
	uint32_t in = mir_new_vreg(fn, MIR_SGPR, 2, 2), out = mir_new_vreg(fn, MIR_SGPR, 2, 2);
	uint32_t n = mir_new_vreg(fn, MIR_SGPR, 1, 1), off = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t x = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t a = mir_new_vreg(fn, MIR_VGPR, 1, 1), b = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	uint32_t c = mir_new_vreg(fn, MIR_SGPR, 1, 1), d = mir_new_vreg(fn, MIR_SGPR, 1, 1);
	uint32_t i = mir_new_vreg(fn, MIR_SGPR, 1, 1), i2 = mir_new_vreg(fn, MIR_SGPR, 1, 1);
	uint32_t t = mir_new_vreg(fn, MIR_VGPR, 1, 1), r = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	struct mir_opnd kernarg = mir_sgpr(0, 2);
	add(fn, b0, AMD_OP_S_LOAD_DWORDX2, 3, vreg(fn, in), kernarg, mir_imm(0));
	add(fn, b0, AMD_OP_S_LOAD_DWORDX2, 3, vreg(fn, out), kernarg, mir_imm(8));
	add(fn, b0, AMD_OP_S_LOAD_DWORD, 3, vreg(fn, n), kernarg, mir_imm(16));
	add(fn, b0, AMD_OP_V_LSHLREV_B32, 3, vreg(fn, off), mir_imm(2), mir_vgpr(0, 1));
	add(fn, b0, AMD_OP_GLOBAL_LOAD_DWORD, 3, vreg(fn, x), vreg(fn, off), vreg(fn, in));
	struct mir_opnd init[5][2] = {{vreg(fn, a), vreg(fn, x)},
	                              {vreg(fn, b), vreg(fn, off)},
	                              {vreg(fn, c), mir_imm(3)},
	                              {vreg(fn, d), vreg(fn, n)},
	                              {vreg(fn, i), mir_imm(0)}};
	for (unsigned k = 0; k < 5; k++)
		add(fn, b0, MIR_COPY, 2, init[k][0], init[k][1], none)->flags = MIR_IF_PARALLEL;
	fn->blocks[b0].succ[0] = b1;
	fn->blocks[b0].nsucc = 1;
	add(fn, b1, AMD_OP_V_ADD_U32, 3, vreg(fn, t), vreg(fn, c), vreg(fn, a));
	add(fn, b1, AMD_OP_S_ADD_U32, 3, vreg(fn, i2), vreg(fn, i), mir_imm(1));
	add(fn, b1, AMD_OP_S_CMP_LG_U32, 2, vreg(fn, i2), vreg(fn, n), none);
	struct mir_opnd latch[5][2] = {{vreg(fn, a), vreg(fn, b)},
	                               {vreg(fn, b), vreg(fn, t)},
	                               {vreg(fn, c), vreg(fn, d)},
	                               {vreg(fn, d), vreg(fn, c)},
	                               {vreg(fn, i), vreg(fn, i2)}};
	for (unsigned k = 0; k < 5; k++)
		add(fn, b1, MIR_COPY, 2, latch[k][0], latch[k][1], none)->flags = MIR_IF_PARALLEL;
	add(fn, b1, AMD_OP_S_CBRANCH_SCC1, 1, mir_block_ref(b1), none, none);
	fn->blocks[b1].succ[0] = b2;
	fn->blocks[b1].succ[1] = b1;
	fn->blocks[b1].nsucc = 2;
	add(fn, b2, AMD_OP_V_ADD_U32, 3, vreg(fn, r), vreg(fn, a), vreg(fn, b));
	add(fn, b2, AMD_OP_V_ADD_U32, 3, vreg(fn, r), vreg(fn, c), vreg(fn, r));
	add(fn, b2, AMD_OP_V_ADD_U32, 3, vreg(fn, r), vreg(fn, d), vreg(fn, r));
	add(fn, b2, AMD_OP_GLOBAL_STORE_DWORD, 3, vreg(fn, off), vreg(fn, r), vreg(fn, out));
	add(fn, b2, AMD_OP_S_ENDPGM, 0, none, none, none);
	fn->blocks[b2].nsucc = 0;
}

static struct amd_inst to_inst(const struct mir_insn *mi, int32_t branch_offset)
{
	struct amd_inst in;
	memset(&in, 0, sizeof in);
	in.row = mi->op;
	in.enc = mi->enc;
	in.offset = mi->offset;
	in.cpol = mi->cpol;
	for (unsigned k = 0; k < mi->nopnds; k++) {
		const struct mir_opnd *o = &mi->opnds[k];
		struct amd_val *v = &in.ops[k];
		v->width = o->width;
		v->reg = (uint16_t)o->v;
		v->kind = o->kind == MIR_SGPR      ? AMD_V_SGPR
		          : o->kind == MIR_VGPR    ? AMD_V_VGPR
		          : o->kind == MIR_SPECIAL ? AMD_V_SPECIAL
		          : o->kind == MIR_OFF     ? AMD_V_OFF
		                                   : AMD_V_IMM;
		v->imm = o->kind == MIR_BLOCK ? (uint32_t)branch_offset : o->v;
	}
	return in;
}

struct code {
	uint32_t words[MAX_WORDS];
	unsigned n;
	unsigned block_at[8]; /* word index of each block */
};

static bool put(struct code *c, const struct amd_target *t, const struct amd_inst *in, char *err,
                size_t errlen)
{
	uint32_t w[4];
	unsigned n = amd_encode(t, in, w, err, errlen);
	if (!n || c->n + n > MAX_WORDS)
		return false;
	memcpy(&c->words[c->n], w, n * sizeof *w);
	c->n += n;
	return true;
}

/* Encodes the allocated function with an s_nop 4 before every instruction and an
 * s_waitcnt 0 after every memory instruction; two passes resolve branch offsets. */
static bool emit(const struct mir_function *fn, struct code *c, char *err, size_t errlen)
{
	unsigned count;
	const struct amd_isa_op *rows = amd_isa_table(&count);
	struct mir_opnd nop_ops[1] = {mir_imm(4)}, wait_ops[1] = {mir_imm(0)};
	struct mir_insn nop = mir_make(AMD_OP_S_NOP, 1, nop_ops);
	struct mir_insn wait = mir_make(AMD_OP_S_WAITCNT, 1, wait_ops);
	for (int pass = 0; pass < 2; pass++) {
		c->n = 0;
		for (uint32_t b = 0; b < fn->nblocks; b++) {
			c->block_at[b] = c->n;
			for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
				const struct mir_insn *mi = &fn->blocks[b].insns[i];
				struct amd_inst in = to_inst(&nop, 0);
				if (!put(c, fn->target, &in, err, errlen))
					return false;
				int32_t offset = 0;
				if (mi->nopnds && mi->opnds[0].kind == MIR_BLOCK)
					offset = (int32_t)c->block_at[mi->opnds[0].v] -
					         (int32_t)(c->n + 1);
				in = to_inst(mi, pass ? offset : 0);
				if (!put(c, fn->target, &in, err, errlen))
					return false;
				unsigned unit = rows[mi->op].unit;
				if (unit == AMD_UNIT_SMEM || unit == AMD_UNIT_VMEM_LOAD) {
					in = to_inst(&wait, 0);
					if (!put(c, fn->target, &in, err, errlen))
						return false;
				}
			}
		}
	}
	return true;
}

static bool write_code_object(const struct mir_function *fn, const struct code *c,
                              struct co_buffer *out)
{
	struct co_arg args[3] = {
	        {.name = "in",
	         .offset = 0,
	         .size = 8,
	         .align = 8,
	         .value_kind = CO_ARG_GLOBAL_BUFFER,
	         .address_space = CO_AS_GLOBAL},
	        {.name = "out",
	         .offset = 8,
	         .size = 8,
	         .align = 8,
	         .value_kind = CO_ARG_GLOBAL_BUFFER,
	         .address_space = CO_AS_GLOBAL},
	        {.name = "n", .offset = 16, .size = 4, .align = 4, .value_kind = CO_ARG_BY_VALUE},
	};
	struct co_kernel k = {
	        .name = "chain",
	        .code = (const uint8_t *)c->words,
	        .code_size = c->n * 4,
	        .vgpr_count = fn->num_vgprs,
	        .sgpr_count = fn->num_sgprs,
	        .args = args,
	        .nargs = 3,
	        .wave_size = fn->wave_size,
	        .max_flat_workgroup_size = LANES,
	        .workgroup_processor_mode = true,
	        .mem_ordered = true,
	};
	k.abi.kernarg_segment_ptr = true;
	k.abi.workgroup_id_x = true;
	k.abi.workitem_id_dims = 1;
	k.private_segment_size = fn->scratch_size; /* VGPR spill slots */
	k.abi.private_segment_wave_offset = fn->abi.private_segment;
	k.float_mode.denorm_32 = 3;
	k.float_mode.denorm_16_64 = 3;
	k.float_mode.ieee_mode = true;
	k.float_mode.dx10_clamp = true;
	struct co_module m = {
	        .target = *fn->target, .code_object_version = 5, .kernels = &k, .nkernels = 1};
	struct pa_diag d;
	pa_diag_init(&d, stderr);
	return co_write_executable(&m, out, &d);
}

/* Allocates, encodes and runs the kernel; compares every lane with the reference. */
static void run_case(struct totals *t, const char *gpu, unsigned sgprs, unsigned vgprs,
                     bool expect_spill, bool corrupt)
{
	struct amd_target target;
	char err[300] = "";
	if (!amd_target_parse(gpu, &target, err, sizeof err)) {
		check(t, false, "target", gpu, sgprs, vgprs, err);
		return;
	}
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct mir_function fn;
	mir_function_init(&fn, &arena, "chain", &target, target.info->default_wave_size);
	build_kernel(&fn);
	if (sgprs)
		fn.max_sgprs = sgprs;
	if (vgprs)
		fn.max_vgprs = vgprs;
	/* VGPRs spill to scratch where it needs no set-up code (architected flat scratch) */
	fn.scratch_ready = target.info->architected_flat_scratch;
	struct pa_diag d;
	pa_diag_init(&d, stderr);
	struct ra_stats stats;
	bool ok = ra_run(&fn, &stats, &d);
	check(t, ok, "ra_run", gpu, sgprs, vgprs, "failed");
	unsigned spills = stats.spilled + stats.vgpr_spilled;
	check(t, !ok || (spills > 0) == expect_spill, "spilling as expected", gpu, sgprs, vgprs,
	      "spill count differs");
	check(t, !ok || vgprs != 3 || stats.vgpr_spilled > 0, "VGPRs spilled", gpu, sgprs, vgprs,
	      "3 VGPRs cannot hold the loop's values"); /* the chain needs 4 */
	if (ok && corrupt) { /* the oracle must see a wrong register: r = b + b */
		struct mir_insn *first = &fn.blocks[2].insns[0];
		first->opnds[1] = first->opnds[2];
	}
	struct code *code = calloc(1, sizeof *code);
	struct co_buffer obj = {0};
	if (ok) {
		ok = emit(&fn, code, err, sizeof err);
		check(t, ok, "encode", gpu, sgprs, vgprs, err);
	}
	if (ok) {
		ok = write_code_object(&fn, code, &obj);
		check(t, ok, "code object", gpu, sgprs, vgprs, "co_write_executable failed");
	}
	struct sim_code_object *co = ok ? sim_load(obj.data, obj.size, err, sizeof err) : NULL;
	if (ok)
		check(t, co != NULL, "sim_load", gpu, sgprs, vgprs, err);
	if (co) {
		uint32_t in[LANES], out[LANES], n = 7;
		for (unsigned l = 0; l < LANES; l++)
			in[l] = 1000u * l + 17u;
		struct sim_arg args[3] = {
		        {.kind = SIM_ARG_IN, .data = in, .size = sizeof in},
		        {.kind = SIM_ARG_OUT, .size = sizeof out, .out = out},
		        {.kind = SIM_ARG_U32, .value.u = n},
		};
		struct sim_dispatch disp = {.kernel = "chain",
		                            .grid = {1, 1, 1},
		                            .block = {LANES, 1, 1},
		                            .args = args,
		                            .nargs = 3};
		struct sim_options opt;
		sim_options_init(&opt);
		struct sim_stats st;
		enum sim_status s = sim_run(co, &disp, &opt, &st, err, sizeof err);
		check(t, s == SIM_OK, "sim_run", gpu, sgprs, vgprs, err);
		unsigned wrong = 0;
		for (unsigned l = 0; l < LANES; l++)
			wrong += out[l] != reference(in[l], l, n);
		char detail[80];
		snprintf(detail, sizeof detail, "%u of %u lanes wrong (lane 0: %u, want %u)", wrong,
		         LANES, out[0], reference(in[0], 0, n));
		check(t, s == SIM_OK && (wrong == 0) == !corrupt,
		      corrupt ? "corrupted allocation detected" : "results", gpu, sgprs, vgprs,
		      detail);
		sim_free(co);
	}
	co_buffer_free(&obj);
	free(code);
	pa_arena_free(&arena);
}

int main(void)
{
	static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1100"};
	struct totals t = {0, 0};
	for (unsigned g = 0; g < 3; g++) {
		run_case(&t, gpus[g], 0, 0, false, false); /* the target's budgets */
		run_case(&t, gpus[g], 0, 5, false, false); /* VGPRs: no room for a temporary */
		run_case(&t, gpus[g], 6, 0, true, false);  /* SGPRs spill to VGPR lanes */
		run_case(&t, gpus[g], 4, 6, true, false);
		if (g > 0) { /* VGPRs spill to scratch (gfx942, gfx1100) */
			run_case(&t, gpus[g], 0, 3, true, false);
			run_case(&t, gpus[g], 6, 3, true, false); /* and SGPRs to lanes */
		}
		run_case(&t, gpus[g], 0, 0, false, true);
	}
	printf("%u checks, %u failures\n", t.checks, t.failures);
	return t.failures ? 1 : 0;
}
