/* Tests of src/sched on hand-built machine IR (physical registers, the shape instruction
 * selection and register allocation produce): kernarg loads, global loads, VALU use,
 * global stores, a loop with a load carried around the back edge, a diamond joining a
 * global load and an LDS load, a transcendental result used by VALU, readfirstlane into a
 * VMEM address, DPP reading a fresh VALU result, explicit waits the pass must drop or narrow
 * to the counters with something in flight (through a loop back edge and a join).
 *
 *   sched_test run TARGET[/w64]         runs every kernel in amdsim (strict) against a CPU
 *                                  computation; then the planted bugs: the same kernels
 *                                  without sched_waitcnt (and, where the target has checked
 *                                  hazards, without sched_hazards) MUST be reported
 *   sched_test listing TARGET DIR  writes DIR/KERNEL.s (sched_dump as assembly) and
 *                                  DIR/KERNEL.bin (sched_emit) for the llvm-mc-19 check
 *   sched_test waits TARGET        prints "HEX<TAB>TEXT" for a grid of waits: our encoding
 *                                  and the text llvm-mc-19 must assemble to the same bytes
 * Exit 0 on success; failures are printed with "FAIL". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj.h"
#include "sched/sched.h"
#include "sched/sched_int.h"
#include "sim.h"

enum { BLOCK = 64, GRID = 4, N = BLOCK * GRID, LOOP_ROWS = 4 };

struct kernel_case {
	const char *name;
	void (*build)(struct mir_function *fn);
	unsigned nargs; /* pointer args, then `sel` as i32 when has_sel */
	bool has_sel;
	uint32_t lds;
	uint8_t gens;     /* bit per enum amd_gen the kernel exists on; 0: every target */
	bool wave32_only; /* WMMA: wave32 */
};

#define S(r, w) mir_sgpr(r, w)
#define V(r, w) mir_vgpr(r, w)
#define I(x)    mir_imm(x)

static struct mir_insn *add(struct mir_function *fn, uint32_t b, unsigned op, unsigned n, ...)
{
	struct mir_opnd ops[AMD_MAX_OPNDS];
	va_list ap;
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		ops[i] = va_arg(ap, struct mir_opnd);
	va_end(ap);
	struct mir_insn in = mir_make(op, n, ops);
	return mir_append(fn, b, &in);
}

static struct mir_opnd vcc(const struct mir_function *fn)
{
	return mir_special(AMD_SPEC_VCC, fn->wave_size == 64 ? 2 : 1);
}

/* v1 = byte offset of this work-item's element: (workgroup * 64 + tid) * 4. */
static void global_offset(struct mir_function *fn, uint32_t b)
{
	add(fn, b, AMD_OP_S_LSHL_B32, 3, S(3, 1), S(2, 1), I(6));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(1, 1), S(3, 1), V(0, 1));
	add(fn, b, AMD_OP_V_LSHLREV_B32, 3, V(1, 1), I(2), V(1, 1));
}

static void succ1(struct mir_function *fn, uint32_t b, uint32_t s)
{
	fn->blocks[b].succ[0] = s, fn->blocks[b].nsucc = 1;
}

/* c[i] = 2 * a[i] + b[i]; a's address goes VGPR -> v_readfirstlane -> SGPR -> VMEM.  The
 * wait for the kernel arguments is already there (as selection may place one): the pass
 * must count it and add none. */
static void build_vadd(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	add(fn, b, AMD_OP_S_LOAD_DWORDX2, 3, S(8, 2), S(0, 2), I(16));
	global_offset(fn, b);
	struct sched_wait w;
	sched_wait_none(&w);
	w.n[fn->target->info->has_split_waits ? SCHED_CNT_KM : SCHED_CNT_DS] = 0;
	struct mir_insn waits[SCHED_NUM_COUNTERS];
	sched_wait_insns(fn->target, &w, waits);
	mir_append(fn, b, &waits[0]);
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(10, 1), S(4, 1));
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(11, 1), S(5, 1));
	add(fn, b, AMD_OP_V_READFIRSTLANE_B32, 2, S(14, 1), V(10, 1));
	add(fn, b, AMD_OP_V_READFIRSTLANE_B32, 2, S(15, 1), V(11, 1));
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(14, 2));
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(3, 1), V(1, 1), S(6, 2));
	add(fn, b, AMD_OP_V_MUL_F32, 3, V(2, 1), I(0x40000000), V(2, 1));
	add(fn, b, AMD_OP_V_ADD_F32, 3, V(2, 1), V(2, 1), V(3, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(2, 1), S(8, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = sum over k < 4 of a[k * N + i], the next row's load in flight around the loop,
 * and a younger load into v6 in flight with it (so the loop head needs vmcnt(1) on every
 * path, and v6's reload waits for the older v6: WAW). */
static void build_loop(struct mir_function *fn)
{
	uint32_t b0 = mir_new_block(fn), b1 = mir_new_block(fn), b2 = mir_new_block(fn);
	add(fn, b0, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b0);
	add(fn, b0, AMD_OP_V_MOV_B32, 2, V(2, 1), I(0));
	add(fn, b0, AMD_OP_S_MOV_B32, 2, S(10, 1), I(0));
	add(fn, b0, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(4, 1), V(1, 1), S(4, 2));
	add(fn, b0, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(6, 1), V(1, 1), S(4, 2)); /* in flight, unused */
	add(fn, b0, AMD_OP_V_MOV_B32, 2, V(5, 1), V(1, 1));
	succ1(fn, b0, b1);
	add(fn, b1, AMD_OP_V_ADD_U32, 3, V(5, 1), I(N * 4), V(5, 1));
	add(fn, b1, AMD_OP_V_ADD_F32, 3, V(2, 1), V(2, 1), V(4, 1));
	add(fn, b1, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(4, 1), V(5, 1), S(4, 2));
	add(fn, b1, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(6, 1), V(1, 1), S(4, 2)); /* WAW on v6 */
	add(fn, b1, AMD_OP_S_ADD_U32, 3, S(10, 1), S(10, 1), I(1));
	add(fn, b1, AMD_OP_S_CMP_LT_U32, 2, S(10, 1), I(LOOP_ROWS - 1));
	add(fn, b1, AMD_OP_S_CBRANCH_SCC1, 1, mir_block_ref(b1));
	fn->blocks[b1].succ[0] = b2, fn->blocks[b1].succ[1] = b1, fn->blocks[b1].nsucc = 2;
	fn->blocks[b1].loop_depth = 1;
	add(fn, b2, AMD_OP_V_ADD_F32, 3, V(2, 1), V(2, 1), V(4, 1));
	add(fn, b2, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(2, 1), S(6, 2));
	add(fn, b2, AMD_OP_S_ENDPGM, 0);
}

/* sel == 0: out[i] = bits(a[i]) + 1 (global load); else out[i] = 4 * i + 1 (through LDS). */
static void build_diamond(struct mir_function *fn)
{
	uint32_t b0 = mir_new_block(fn), b1 = mir_new_block(fn), b2 = mir_new_block(fn),
	         b3 = mir_new_block(fn);
	add(fn, b0, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	add(fn, b0, AMD_OP_S_LOAD_DWORD, 3, S(8, 1), S(0, 2), I(16));
	global_offset(fn, b0);
	add(fn, b0, AMD_OP_V_LSHLREV_B32, 3, V(6, 1), I(2), V(0, 1));
	add(fn, b0, AMD_OP_S_CMP_EQ_U32, 2, S(8, 1), I(0));
	add(fn, b0, AMD_OP_S_CBRANCH_SCC0, 1, mir_block_ref(b2));
	fn->blocks[b0].succ[0] = b1, fn->blocks[b0].succ[1] = b2, fn->blocks[b0].nsucc = 2;
	add(fn, b1, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(4, 2));
	add(fn, b1, AMD_OP_S_BRANCH, 1, mir_block_ref(b3));
	fn->blocks[b1].succ[0] = b3, fn->blocks[b1].nsucc = 1;
	add(fn, b2, AMD_OP_DS_WRITE_B32, 2, V(6, 1), V(1, 1));
	add(fn, b2, AMD_OP_DS_READ_B32, 2, V(2, 1), V(6, 1));
	succ1(fn, b2, b3);
	add(fn, b3, AMD_OP_V_ADD_U32, 3, V(2, 1), I(1), V(2, 1));
	add(fn, b3, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(2, 1), S(6, 2));
	add(fn, b3, AMD_OP_S_ENDPGM, 0);
	fn->lds_size = BLOCK * 4;
}

/* t = sqrt(a[i]) + a[i]; out[i] = tid < 32 ? a[i] : t (v_cmp writes vcc, v_cndmask reads). */
static void build_trans(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(4, 2));
	add(fn, b, AMD_OP_V_SQRT_F32, 2, V(3, 1), V(2, 1));
	add(fn, b, AMD_OP_V_ADD_F32, 3, V(3, 1), V(3, 1), V(2, 1));
	add(fn, b, AMD_OP_V_CMP_GT_U32, 3, vcc(fn), I(32), V(0, 1));
	add(fn, b, AMD_OP_V_CNDMASK_B32, 4, V(4, 1), V(3, 1), V(2, 1), vcc(fn));
	/* an SALU rewrites the mask a VALU just read (gfx11 wave64: VALUMaskWrite), and a
	 * VALU reads it again: vcc = 0 selects v4 everywhere */
	if (fn->wave_size == 64)
		add(fn, b, AMD_OP_S_MOV_B64, 2, vcc(fn), I(0));
	else
		add(fn, b, AMD_OP_S_MOV_B32, 2, vcc(fn), I(0));
	add(fn, b, AMD_OP_V_CNDMASK_B32, 4, V(4, 1), V(4, 1), V(2, 1), vcc(fn));
	/* VGPRs written before and after an SALU exec write, read together (gfx11 wave64:
	 * VALUPartialForwarding); exec keeps its value, v15 is not stored */
	struct mir_opnd exec = mir_special(AMD_SPEC_EXEC, fn->wave_size == 64 ? 2 : 1);
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(13, 1), I(1));
	add(fn, b, fn->wave_size == 64 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32, 2, exec, exec);
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(14, 1), I(2));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(15, 1), V(13, 1), V(14, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(4, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = bits(a[i]) + 4 * i and out[N + i] = 7, with every counter busy at once: a global
 * load followed by a global store (gfx9: both in vmcnt, in order), LDS and scalar loads
 * pending together (lgkmcnt out of order), a scalar load needed later (gfx12 kmcnt). */
static void build_mixed(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_V_LSHLREV_B32, 3, V(6, 1), I(2), V(0, 1));
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(7, 1), I(7));
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(8, 1), S(7, 1));
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(4, 2));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(7, 1), S(6, 2))->offset = N * 4;
	add(fn, b, AMD_OP_DS_WRITE_B32, 2, V(6, 1), V(1, 1));
	add(fn, b, AMD_OP_S_LOAD_DWORD, 3, S(9, 1), S(0, 2), I(12));
	add(fn, b, AMD_OP_DS_READ_B32, 2, V(3, 1), V(6, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(5, 1), V(2, 1), V(3, 1));
	add(fn, b, AMD_OP_V_SUB_U32, 3, V(9, 1), S(9, 1), V(8, 1));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(5, 1), V(5, 1), V(9, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(5, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
	fn->lds_size = BLOCK * 4;
}

/* out[i] = 3 * a[i] through a FLAT load of a 64-bit address built with a carry chain
 * (gfx942: VALU writes vcc, VALU reads it). */
static void build_flat(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_V_ADD_CO_U32, 4, V(10, 1), vcc(fn), S(4, 1), V(1, 1));
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(12, 1), S(5, 1));
	add(fn, b, AMD_OP_V_ADDC_CO_U32, 5, V(11, 1), vcc(fn), I(0), V(12, 1), vcc(fn));
	add(fn, b, AMD_OP_FLAT_LOAD_DWORD, 2, V(2, 1), V(10, 2));
	add(fn, b, AMD_OP_V_MUL_F32, 3, V(2, 1), I(0x40400000), V(2, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(2, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = bits(a[i]) + 1 from the value a returning atomic add (of 5 to a[i]) gives back:
 * it counts as a load (vmcnt/loadcnt), not as a store. */
static void build_atomic(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(7, 1), I(5));
	struct mir_insn *atomic =
	        add(fn, b, AMD_OP_GLOBAL_ATOMIC_ADD, 4, V(2, 1), V(1, 1), V(7, 1), S(4, 2));
	atomic->rtn = 1;
	atomic->cpol = 1; /* glc / sc0 / th:TH_ATOMIC_RETURN */
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(3, 1), I(1), V(2, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(3, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = bits(a[i ^ 1]) + 1: a DPP quad_perm reads the VGPR the previous VALU wrote
 * (gfx90a/gfx942: 2 wait states). */
static void build_dpp(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(4, 2));
	add(fn, b, AMD_OP_V_ADD_U32, 3, V(3, 1), I(1), V(2, 1));
	struct mir_insn *dpp = add(fn, b, AMD_OP_V_MOV_B32, 2, V(4, 1), V(3, 1));
	dpp->enc = AMD_ENC_E32, dpp->dpp = 1, dpp->dpp_ctrl = 0xb1; /* quad_perm:[1,0,3,2] */
	dpp->bound_ctrl = true;
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(4, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = 2 * (S(r) + S(r + 1)), r = 4 * (lane / 16), S(r) = sum over k < 4 of a[wave + r +
 * 16k]: two v_mfma_f32_16x16x4f32 with B = 1.0 (the second accumulates into the first's D,
 * srcC the same registers), then a VALU reads D (gfx90a 11, gfx942 10 wait states). */
static void build_mfma(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(2, 1), V(1, 1), S(4, 2));
	add(fn, b, AMD_OP_V_MOV_B32, 2, V(3, 1), I(0x3f800000));
	add(fn, b, AMD_OP_V_MFMA_F32_16X16X4F32, 4, V(4, 4), V(2, 1), V(3, 1), I(0));
	add(fn, b, AMD_OP_V_MFMA_F32_16X16X4F32, 4, V(4, 4), V(2, 1), V(3, 1), V(4, 4));
	add(fn, b, AMD_OP_V_ADD_F32, 3, V(8, 1), V(4, 1), V(5, 1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(8, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* out[i] = 265: WMMA iu8 (A bytes 1, B bytes 2, C 1: D = 33), then a WMMA whose A is the
 * first one's D (bytes 33, 0, 0, 0 per register: 4 x 33 x 2 + 1); gfx11/gfx12 need a VALU
 * between the two (v_nop). */
static void build_wmma(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	bool gfx11 = fn->target->info->gen == AMD_GFX11;
	unsigned nab = gfx11 ? 4 : 2;
	unsigned iu8 =
	        gfx11 ? AMD_OP_V_WMMA_I32_16X16X16_IU8 : AMD_OP_V_WMMA_I32_16X16X16_IU8_GFX12;
	add(fn, b, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b);
	for (unsigned r = 0; r < nab; r++) {
		add(fn, b, AMD_OP_V_MOV_B32, 2, V(8 + r, 1), I(0x01010101));
		add(fn, b, AMD_OP_V_MOV_B32, 2, V(12 + r, 1), I(0x02020202));
	}
	add(fn, b, iu8, 4, V(16, 8), V(8, nab), V(12, nab), I(1));
	add(fn, b, iu8, 4, V(24, 8), V(16, nab), V(12, nab), I(1));
	add(fn, b, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(24, 1), S(6, 2));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* Explicit waits (as selection places them for the memory model: every counter) marked by
 * src_line, EXPLICIT_LINE + k; the pass must keep of each only the counters with something
 * in flight (check_explicit):
 *   +0 after the kernarg loads: the scalar counter;  +1 right after it: nothing (dropped);
 *   +2 with a global load in flight: vmcnt/loadcnt;
 *   +3 at the loop head: nothing from the entry, the next row's load around the back edge:
 *      vmcnt/loadcnt;
 *   +4 at a join whose one predecessor stored (a store in flight, no register pending):
 *      the store counter;  +5 right after it: nothing (dropped).
 * out[i] = sum over k < 4 of a[k * N + i] (the loop kernel's result). */
enum { EXPLICIT_LINE = 9001, EXPLICIT_WAITS = 6 };

static void explicit_wait(struct mir_function *fn, uint32_t b, unsigned k)
{
	struct sched_wait w;
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		w.n[c] = 0;
	struct mir_insn waits[SCHED_NUM_COUNTERS];
	unsigned n = sched_wait_insns(fn->target, &w, waits);
	for (unsigned i = 0; i < n; i++)
		mir_append(fn, b, &waits[i])->src_line = EXPLICIT_LINE + k;
}

static void build_explicit(struct mir_function *fn)
{
	uint32_t b0 = mir_new_block(fn), b1 = mir_new_block(fn), b2 = mir_new_block(fn),
	         b3 = mir_new_block(fn), b4 = mir_new_block(fn);
	add(fn, b0, AMD_OP_S_LOAD_DWORDX4, 3, S(4, 4), S(0, 2), I(0));
	global_offset(fn, b0);
	explicit_wait(fn, b0, 0);
	explicit_wait(fn, b0, 1);
	add(fn, b0, AMD_OP_V_MOV_B32, 2, V(2, 1), I(0));
	add(fn, b0, AMD_OP_S_MOV_B32, 2, S(10, 1), I(0));
	add(fn, b0, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(4, 1), V(1, 1), S(4, 2));
	add(fn, b0, AMD_OP_V_MOV_B32, 2, V(5, 1), V(1, 1));
	explicit_wait(fn, b0, 2);
	succ1(fn, b0, b1);
	explicit_wait(fn, b1, 3);
	add(fn, b1, AMD_OP_V_ADD_U32, 3, V(5, 1), I(N * 4), V(5, 1));
	add(fn, b1, AMD_OP_V_ADD_F32, 3, V(2, 1), V(2, 1), V(4, 1));
	add(fn, b1, AMD_OP_GLOBAL_LOAD_DWORD, 3, V(4, 1), V(5, 1), S(4, 2));
	add(fn, b1, AMD_OP_S_ADD_U32, 3, S(10, 1), S(10, 1), I(1));
	add(fn, b1, AMD_OP_S_CMP_LT_U32, 2, S(10, 1), I(LOOP_ROWS - 1));
	add(fn, b1, AMD_OP_S_CBRANCH_SCC1, 1, mir_block_ref(b1));
	fn->blocks[b1].succ[0] = b2, fn->blocks[b1].succ[1] = b1, fn->blocks[b1].nsucc = 2;
	fn->blocks[b1].loop_depth = 1;
	add(fn, b2, AMD_OP_V_ADD_F32, 3, V(2, 1), V(2, 1), V(4, 1));
	add(fn, b2, AMD_OP_S_CMP_EQ_U32, 2, S(10, 1), I(0)); /* never: s10 is LOOP_ROWS - 1 */
	add(fn, b2, AMD_OP_S_CBRANCH_SCC1, 1, mir_block_ref(b4));
	fn->blocks[b2].succ[0] = b3, fn->blocks[b2].succ[1] = b4, fn->blocks[b2].nsucc = 2;
	add(fn, b3, AMD_OP_GLOBAL_STORE_DWORD, 3, V(1, 1), V(2, 1), S(6, 2));
	succ1(fn, b3, b4);
	explicit_wait(fn, b4, 4);
	explicit_wait(fn, b4, 5);
	add(fn, b4, AMD_OP_S_ENDPGM, 0);
}

static const struct kernel_case cases[] = {
        {"vadd", build_vadd, 3, false, 0, 0, false},
        {"loop", build_loop, 2, false, 0, 0, false},
        {"diamond", build_diamond, 2, true, BLOCK * 4, 0, false},
        {"trans", build_trans, 2, false, 0, 0, false},
        {"mixed", build_mixed, 2, false, BLOCK * 4, 0, false},
        {"flat", build_flat, 2, false, 0, 0, false},
        {"atomic", build_atomic, 2, false, 0, 0, false},
        {"dpp", build_dpp, 2, false, 0, 0, false},
        {"mfma", build_mfma, 2, false, 0, 1u << AMD_GFX9 | 1u << AMD_GFX940, false},
        {"wmma", build_wmma, 2, false, 0, 1u << AMD_GFX11 | 1u << AMD_GFX12, true},
        {"explicit", build_explicit, 2, false, 0, 0, false},
};
enum { NUM_CASES = sizeof cases / sizeof cases[0] };

/* ---- inputs and CPU references ---- */

static float input_a(unsigned i)
{
	return 0.25f + (float)((i * 37u) % 101u) * 0.5f;
}

static uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint32_t expected(const char *kernel, unsigned i, int sel, const float *a, const float *b)
{
	if (!strcmp(kernel, "vadd"))
		return f2u(2.0f * a[i] + b[i]);
	if (!strcmp(kernel, "loop") || !strcmp(kernel, "explicit")) {
		float acc = 0.0f;
		for (unsigned k = 0; k < LOOP_ROWS; k++)
			acc = acc + a[k * N + i];
		return f2u(acc);
	}
	if (!strcmp(kernel, "diamond"))
		return sel == 0 ? f2u(a[i]) + 1 : 4 * i + 1;
	if (!strcmp(kernel, "atomic"))
		return f2u(a[i]) + 1;
	if (!strcmp(kernel, "dpp"))
		return f2u(a[i ^ 1]) + 1;
	if (!strcmp(kernel, "flat"))
		return f2u(3.0f * a[i]);
	if (!strcmp(kernel, "wmma"))
		return 265;
	if (!strcmp(kernel, "mfma")) {
		unsigned wave = i / 64 * 64, r = 4 * (i % 64 / 16);
		float sum = 0.0f;
		for (unsigned k = 0; k < 4; k++)
			sum += a[wave + r + 16 * k] + a[wave + r + 1 + 16 * k];
		return f2u(2.0f * sum);
	}
	if (!strcmp(kernel, "mixed"))
		return i >= N ? 7 : f2u(a[i]) + 4 * i;
	float t = sqrtf(a[i]) + a[i];
	return (i % BLOCK) < 32 ? f2u(a[i]) : f2u(t);
}

/* ---- building, passes, code object ---- */

struct built {
	struct pa_arena arena;
	struct mir_function fn;
	struct sched_stats stats;
	struct sched_code code;
	bool ok;
};

static bool build(const struct amd_target *t, const struct kernel_case *kc, bool waits,
                  bool hazards, struct built *out)
{
	pa_arena_init(&out->arena);
	mir_function_init(&out->fn, &out->arena, kc->name, t, t->wave_size);
	kc->build(&out->fn);
	out->fn.num_sgprs = 16, out->fn.num_vgprs = 16;
	memset(&out->stats, 0, sizeof out->stats);
	struct pa_diag d;
	pa_diag_init(&d, stderr);
	if (!mir_verify(&out->fn, true, &d))
		return false;
	if (waits)
		sched_waitcnt(&out->fn, &out->stats);
	if (hazards)
		sched_hazards(&out->fn, &out->stats);
	if (!mir_verify(&out->fn, true, &d))
		return false;
	return sched_emit(&out->fn, &out->arena, &out->code, &d);
}

static bool code_object(const struct amd_target *t, const struct kernel_case *kc,
                        const struct built *bt, struct co_buffer *out)
{
	struct co_arg args[4];
	memset(args, 0, sizeof args);
	static const char *const names[] = {"a", "b", "c"};
	unsigned nptr = kc->nargs;
	for (unsigned i = 0; i < nptr; i++) {
		args[i].name = names[i];
		args[i].offset = 8 * i, args[i].size = 8, args[i].align = 8;
		args[i].value_kind = CO_ARG_GLOBAL_BUFFER;
		args[i].address_space = CO_AS_GLOBAL;
	}
	if (kc->has_sel) {
		args[nptr] =
		        (struct co_arg){.name = "sel", .offset = 8 * nptr, .size = 4, .align = 4};
		args[nptr].value_kind = CO_ARG_BY_VALUE;
	}
	struct co_kernel k;
	co_kernel_defaults(&k);
	k.name = kc->name;
	k.code = bt->code.code, k.code_size = bt->code.size;
	k.vgpr_count = bt->fn.num_vgprs, k.sgpr_count = bt->fn.num_sgprs;
	k.uses_vcc = true;
	k.group_segment_size = kc->lds;
	k.args = args, k.nargs = nptr + (kc->has_sel ? 1 : 0);
	k.abi.kernarg_segment_ptr = true;
	k.abi.workgroup_id_x = true;
	k.abi.workitem_id_dims = 1;
	k.wave_size = t->wave_size;
	k.max_flat_workgroup_size = BLOCK;
	struct co_module m = {.target = *t, .kernels = &k, .nkernels = 1};
	struct pa_diag d;
	pa_diag_init(&d, stderr);
	return co_write_executable(&m, out, &d);
}

/* Runs the kernel once; *violations gets the checker's count.  False on a sim error. */
static bool run_sim(const struct amd_target *t, const struct kernel_case *kc,
                    const struct built *bt, int sel, uint32_t *result, uint64_t *violations,
                    bool *unsupported)
{
	struct co_buffer obj;
	if (!code_object(t, kc, bt, &obj))
		return false;
	char err[300];
	struct sim_code_object *co = sim_load(obj.data, obj.size, err, sizeof err);
	co_buffer_free(&obj);
	if (!co) {
		*unsupported = true;
		printf("note: %s: amdsim cannot load %s code objects (%s)\n", kc->name,
		       t->info->name, err);
		return false;
	}
	float a[N * LOOP_ROWS], b[N];
	for (unsigned i = 0; i < N * LOOP_ROWS; i++)
		a[i] = input_a(i);
	for (unsigned i = 0; i < N; i++)
		b[i] = 1.0f / (float)(i + 1);
	struct sim_arg args[4];
	memset(args, 0, sizeof args);
	unsigned nargs = 0;
	args[nargs++] = (struct sim_arg){.kind = SIM_ARG_IN, .data = a, .size = sizeof a};
	if (kc->nargs == 3)
		args[nargs++] = (struct sim_arg){.kind = SIM_ARG_IN, .data = b, .size = sizeof b};
	args[nargs++] = (struct sim_arg){.kind = SIM_ARG_OUT, .size = 2 * N * 4, .out = result};
	if (kc->has_sel)
		args[nargs++] = (struct sim_arg){.kind = SIM_ARG_I32, .value.i = sel};
	struct sim_dispatch disp = {.kernel = kc->name,
	                            .grid = {GRID, 1, 1},
	                            .block = {BLOCK, 1, 1},
	                            .args = args,
	                            .nargs = nargs};
	struct sim_options opt;
	sim_options_init(&opt);
	opt.diag = stdout;
	opt.max_violations_printed = 2;
	struct sim_stats st;
	enum sim_status s = sim_run(co, &disp, &opt, &st, err, sizeof err);
	sim_free(co);
	*violations = st.violations;
	if (s == SIM_ERROR) {
		printf("FAIL %s %s: simulator error: %s\n", t->info->name, kc->name, err);
		return false;
	}
	unsigned nout = strcmp(kc->name, "mixed") ? N : 2 * N;
	for (unsigned i = 0; i < nout; i++) {
		uint32_t want = expected(kc->name, i, sel, a, b);
		if (result[i] != want && *violations == 0) {
			printf("FAIL %s %s sel=%d: out[%u] = 0x%08x, CPU says 0x%08x\n",
			       t->info->name, kc->name, sel, i, result[i], want);
			return false;
		}
	}
	return true;
}

/* Whether kernel kc exists on t (its matrix instructions). */
static bool case_runs_on(const struct kernel_case *kc, const struct amd_target *t)
{
	return (!kc->gens || (kc->gens >> t->info->gen) & 1) &&
	       !(kc->wave32_only && t->wave_size != 32);
}

static int run_target(const struct amd_target *t)
{
	int failures = 0;
	for (unsigned c = 0; c < NUM_CASES; c++) {
		const struct kernel_case *kc = &cases[c];
		if (!case_runs_on(kc, t))
			continue;
		for (int sel = 0; sel <= (kc->has_sel ? 1 : 0); sel++) {
			struct built bt;
			uint32_t result[2 * N];
			uint64_t violations = 0;
			bool unsupported = false;
			if (!build(t, kc, true, true, &bt)) {
				printf("FAIL %s %s: passes or emission failed\n", t->info->name,
				       kc->name);
				failures++;
				continue;
			}
			bool ran = run_sim(t, kc, &bt, sel, result, &violations, &unsupported);
			if (unsupported) {
				pa_arena_free(&bt.arena);
				return failures;
			}
			if (!ran || violations) {
				printf("FAIL %s %s sel=%d: %llu checker violations\n",
				       t->info->name, kc->name, sel,
				       (unsigned long long)violations);
				failures++;
			} else {
				printf("ok %s %s sel=%d: %u waits, %u nops, %u delays, %zu bytes\n",
				       t->info->name, kc->name, sel, bt.stats.waits, bt.stats.nops,
				       bt.stats.delays, bt.code.size);
			}
			pa_arena_free(&bt.arena);
		}
	}
	return failures;
}

/* The planted bugs: without the waits (every kernel) and, on targets whose hazards the
 * checker knows, without the hazard fixes (kernels that needed some), the checker must
 * complain. */
static int planted(const struct amd_target *t)
{
	int failures = 0;
	bool hazards_checked = t->info->gen == AMD_GFX9 || t->info->gen == AMD_GFX940 ||
	                       t->info->gen == AMD_GFX11 ||
	                       t->info->gen == AMD_GFX12; /* gfx12: the WMMA rule only */
	for (unsigned c = 0; c < NUM_CASES; c++) {
		const struct kernel_case *kc = &cases[c];
		if (!case_runs_on(kc, t))
			continue;
		for (int variant = 0; variant < 2; variant++) {
			struct built full, bt;
			if (!build(t, kc, true, true, &full))
				return failures + 1;
			unsigned fixes = full.stats.nops;
			pa_arena_free(&full.arena);
			if (variant == 1 && (!hazards_checked || !fixes))
				continue;
			if (!build(t, kc, variant == 1, variant == 0, &bt))
				return failures + 1;
			uint32_t result[2 * N];
			uint64_t violations = 0;
			bool unsupported = false;
			run_sim(t, kc, &bt, 0, result, &violations, &unsupported);
			if (unsupported) {
				pa_arena_free(&bt.arena);
				return failures;
			}
			const char *what = variant == 0 ? "sched_waitcnt" : "sched_hazards";
			if (!violations) {
				printf("FAIL %s %s: without %s the checker reports nothing\n",
				       t->info->name, kc->name, what);
				failures++;
			} else {
				printf("ok %s %s: without %s: %llu violations (expected)\n",
				       t->info->name, kc->name, what,
				       (unsigned long long)violations);
			}
			pa_arena_free(&bt.arena);
		}
	}
	return failures;
}

static int write_listings(const struct amd_target *t, const char *dir)
{
	for (unsigned c = 0; c < NUM_CASES; c++) {
		struct built bt;
		if (!case_runs_on(&cases[c], t))
			continue;
		if (!build(t, &cases[c], true, true, &bt)) {
			printf("FAIL %s %s: passes or emission failed\n", t->info->name,
			       cases[c].name);
			return 1;
		}
		char path[512];
		snprintf(path, sizeof path, "%s/%s.s", dir, cases[c].name);
		FILE *f = fopen(path, "w");
		if (!f)
			return 1;
		sched_dump(f, &bt.fn, true);
		fclose(f);
		snprintf(path, sizeof path, "%s/%s.bin", dir, cases[c].name);
		f = fopen(path, "wb");
		if (!f)
			return 1;
		fwrite(bt.code.code, 1, bt.code.size, f);
		fclose(f);
		snprintf(path, sizeof path, "%s/%s.lst", dir, cases[c].name);
		f = fopen(path, "w");
		if (!f)
			return 1;
		sched_dump(f, &bt.fn, false);
		fclose(f);
		pa_arena_free(&bt.arena);
	}
	return 0;
}

/* The explicit waits build_explicit's comment asks for: per marker, the counters the
 * waits left with that src_line wait for (0) or not (SCHED_NO_WAIT), among the vector
 * load counter, the store counter and the scalar-memory counter (one hardware counter may
 * be two of these: gfx9's vmcnt counts stores; lgkmcnt before gfx12 scalar loads). */
static int check_explicit(const struct amd_target *t)
{
	const struct kernel_case *kc = NULL;
	for (unsigned c = 0; c < NUM_CASES; c++)
		if (!strcmp(cases[c].name, "explicit"))
			kc = &cases[c];
	struct built bt;
	if (!build(t, kc, true, true, &bt)) {
		printf("FAIL %s explicit: passes or emission failed\n", t->info->name);
		return 1;
	}
	bool split = t->info->has_split_waits;
	unsigned store = t->info->has_vscnt || split ? SCHED_CNT_STORE : SCHED_CNT_LOAD;
	unsigned scalar = split ? SCHED_CNT_KM : SCHED_CNT_DS;
	const unsigned watched[3] = {SCHED_CNT_LOAD, store, scalar};
	static const char *const names[3] = {"load", "store", "scalar"};
	enum { NO = SCHED_NO_WAIT };
	/* what each marker must still wait for: load, store, scalar counter */
	const uint8_t want[EXPLICIT_WAITS][3] = {
	        {NO, NO, 0},
	        {NO, NO, NO},
	        {0, store == SCHED_CNT_LOAD ? 0 : NO, NO},
	        {0, store == SCHED_CNT_LOAD ? 0 : NO, NO},
	        {store == SCHED_CNT_LOAD ? 0 : NO, 0, NO},
	        {NO, NO, NO},
	};
	struct sched_wait got[EXPLICIT_WAITS];
	for (unsigned k = 0; k < EXPLICIT_WAITS; k++)
		sched_wait_none(&got[k]);
	for (uint32_t b = 0; b < bt.fn.nblocks; b++)
		for (uint32_t i = 0; i < bt.fn.blocks[b].ninsns; i++) {
			const struct mir_insn *in = &bt.fn.blocks[b].insns[i];
			unsigned k = in->src_line - EXPLICIT_LINE;
			struct sched_wait w;
			if (in->src_line < EXPLICIT_LINE || k >= EXPLICIT_WAITS ||
			    !sched_wait_of_insn(t, in, &w))
				continue;
			for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
				if (w.n[c] < got[k].n[c])
					got[k].n[c] = w.n[c];
		}
	int failures = 0;
	for (unsigned k = 0; k < EXPLICIT_WAITS; k++)
		for (unsigned j = 0; j < 3; j++)
			if (got[k].n[watched[j]] != want[k][j]) {
				printf("FAIL %s explicit: wait %u waits for the %s counter %s\n",
				       t->info->name, k, names[j],
				       want[k][j] == NO ? "(nothing in flight)"
				                        : "not at all (something is in flight)");
				failures++;
			}
	if (!failures)
		printf("ok %s explicit: waits with nothing in flight dropped, the rest kept\n",
		       t->info->name);
	pa_arena_free(&bt.arena);
	return failures;
}

/* ---- bad input: a diagnostic and false, never bytes ---- */

static void build_far_branch(struct mir_function *fn)
{
	uint32_t b0 = mir_new_block(fn), b1 = mir_new_block(fn), b2 = mir_new_block(fn);
	add(fn, b0, AMD_OP_S_BRANCH, 1, mir_block_ref(b2));
	succ1(fn, b0, b2);
	for (unsigned i = 0; i < 40000; i++) /* 40000 dwords: beyond a 16-bit dword offset */
		add(fn, b1, AMD_OP_S_NOP, 1, I(0));
	succ1(fn, b1, b2);
	add(fn, b2, AMD_OP_S_ENDPGM, 0);
}

static void build_bad_operand(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, AMD_OP_GLOBAL_LOAD_DWORD, 3, S(2, 1), V(1, 2), mir_special(AMD_SPEC_NULL, 1));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

static void build_vreg_left(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	uint32_t v = mir_new_vreg(fn, MIR_VGPR, 1, 1);
	add(fn, b, AMD_OP_V_MOV_B32, 2, mir_vreg(v, 1), I(1));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

static void build_copy_left(struct mir_function *fn)
{
	uint32_t b = mir_new_block(fn);
	add(fn, b, MIR_COPY, 2, V(1, 1), V(2, 1));
	add(fn, b, AMD_OP_S_ENDPGM, 0);
}

/* Each bad function must fail sched_emit with a message containing `want`. */
static int check_errors(const struct amd_target *t)
{
	static const struct {
		void (*build)(struct mir_function *fn);
		const char *want;
	} bad[] = {
	        {build_far_branch, "out of the 16-bit range"},
	        {build_bad_operand, "global_load_dword"},
	        {build_vreg_left, "virtual register left after allocation"},
	        {build_copy_left, "pseudo-instruction left"},
	};
	int failures = 0;
	for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		struct pa_arena arena;
		pa_arena_init(&arena);
		struct mir_function fn;
		mir_function_init(&fn, &arena, "bad", t, t->wave_size);
		bad[k].build(&fn);
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		struct pa_diag d;
		pa_diag_init(&d, mem);
		struct sched_code code;
		bool ok = sched_emit(&fn, &arena, &code, &d);
		fclose(mem);
		if (ok || !strstr(text, bad[k].want) || !pa_diag_failed(&d)) {
			printf("FAIL %s errors: expected an error with '%s', got %s: %s\n",
			       t->info->name, bad[k].want, ok ? "success" : "failure", text);
			failures++;
		} else {
			printf("ok %s errors: %s", t->info->name, text);
		}
		free(text);
		pa_arena_free(&arena);
	}
	return failures;
}

/* The same function compiled twice gives the same bytes. */
static int check_determinism(const struct amd_target *t)
{
	for (unsigned c = 0; c < NUM_CASES; c++) {
		struct built one, two;
		if (!case_runs_on(&cases[c], t))
			continue;
		bool ok = build(t, &cases[c], true, true, &one) &&
		          build(t, &cases[c], true, true, &two);
		if (!ok || one.code.size != two.code.size ||
		    memcmp(one.code.code, two.code.code, one.code.size)) {
			printf("FAIL %s %s: two compilations differ\n", t->info->name,
			       cases[c].name);
			return 1;
		}
		pa_arena_free(&one.arena);
		pa_arena_free(&two.arena);
	}
	return 0;
}

/* One wait per line: our encoding, then the text that says the same in LLVM's syntax. */
static int print_waits(const struct amd_target *t)
{
	static const uint8_t counts[] = {0, 1, 2, 5, 7, 14, 30, 62};
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++) {
		if (c == SCHED_CNT_KM && !t->info->has_split_waits)
			continue;
		if (c == SCHED_CNT_STORE && !t->info->has_vscnt && !t->info->has_split_waits)
			continue;
		for (unsigned k = 0; k < sizeof counts; k++) {
			if (counts[k] >= sched_counter_max(t, c))
				continue;
			struct sched_wait w;
			sched_wait_none(&w);
			w.n[c] = counts[k];
			struct mir_insn insns[SCHED_NUM_COUNTERS];
			unsigned n = sched_wait_insns(t, &w, insns);
			if (n != 1)
				return 1;
			struct mir_function fn;
			mir_function_init(&fn, NULL, "w", t, t->wave_size);
			struct amd_inst inst;
			sched_to_amd_inst(&fn, &insns[0], 0, &inst);
			uint32_t words[4];
			char err[200];
			if (amd_encode(t, &inst, words, err, sizeof err) != 1) {
				printf("FAIL: %s\n", err);
				return 1;
			}
			const char *name = sched_counter_name(t, c);
			if (t->info->has_split_waits)
				printf("%08x\ts_wait_%s %u\n", words[0], name, counts[k]);
			else if (c == SCHED_CNT_STORE)
				printf("%08x\ts_waitcnt_vscnt null, %u\n", words[0], counts[k]);
			else
				printf("%08x\ts_waitcnt %s(%u)\n", words[0], name, counts[k]);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sched_test run|listing|waits TARGET [DIR]\n");
		return 2;
	}
	struct amd_target t;
	char err[200], id[64];
	snprintf(id, sizeof id, "%s", argv[2]);
	char *wave = strchr(id, '/'); /* "gfx1100/w64": wave64 on an RDNA target */
	if (wave)
		*wave++ = 0;
	if (!amd_target_parse(id, &t, err, sizeof err)) {
		fprintf(stderr, "sched_test: %s\n", err);
		return 2;
	}
	if (wave && !strcmp(wave, "w64"))
		t.wave_size = 64;
	if (!strcmp(argv[1], "run")) {
		int failures = run_target(&t);
		failures += planted(&t);
		failures += check_errors(&t);
		failures += check_determinism(&t);
		failures += check_explicit(&t);
		printf("%s: %d failures\n", t.info->name, failures);
		return failures ? 1 : 0;
	}
	if (!strcmp(argv[1], "listing") && argc > 3)
		return write_listings(&t, argv[3]);
	if (!strcmp(argv[1], "waits"))
		return print_waits(&t);
	fprintf(stderr, "sched_test: unknown mode %s\n", argv[1]);
	return 2;
}
