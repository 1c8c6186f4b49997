/* Instruction selection for kernel inputs and memory.
 *
 * Inputs: parameters are scalar loads (s_load) from the kernarg segment at their PTX
 * offsets; %ctaid is the workgroup-id SGPR the descriptor enables; %tid the work-item id
 * VGPR(s) (packed in v0 on gfx90a, gfx942 and gfx11+); %ntid and %nctaid come from the
 * code object v5 hidden arguments (group size, block count) that follow the explicit
 * arguments.  Memory: .global with global_* (a VGPR address, offsets folded when they
 * fit every target's field), generic pointers with flat_* (they may point into LDS),
 * .shared with ds_* on a 32-bit LDS address.  bar.sync is a CTA-scope release (drains the
 * memory counters), s_barrier (gfx12: s_barrier_signal/s_barrier_wait) and a CTA-scope acquire
 * (sel_atomic.c), which gives the CTA the memory ordering PTX promises.
 * Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

static struct mir_opnd rd(struct isel *s, ir_ref r, unsigned k)
{
	return sel_sub(sel_def(s, r), k, 1);
}

/* s_load of `bytes` (4 or 8) at kernarg offset `off` into SGPR vreg v (~0u: a new one). */
static uint32_t kernarg_load_into(struct isel *s, uint32_t v, uint32_t off, unsigned bytes)
{
	if (v == ~0u)
		v = sel_new_sgpr(s, bytes / 4);
	struct mir_opnd ops[3] = {mir_vreg(v, bytes / 4), mir_vreg(s->kernarg, 2), mir_imm(off)};
	sel_emit(s, bytes == 8 ? AMD_OP_S_LOAD_DWORDX2 : AMD_OP_S_LOAD_DWORD, 3, ops);
	return v;
}

static uint32_t kernarg_load(struct isel *s, uint32_t off, unsigned bytes)
{
	return kernarg_load_into(s, ~0u, off, bytes);
}

/* Moves a loaded SGPR value into the value's home (SGPR, or VGPR for floats). */
static void place(struct isel *s, ir_ref res, uint32_t sv, unsigned words)
{
	uint32_t d = sel_def(s, res);
	for (unsigned k = 0; k < words && k < s->vals[res].size; k++)
		sel_copy(s, sel_sub(d, k, 1), sel_sub(sv, k, 1));
}

static bool param(struct isel *s, const struct ir_insn *in)
{
	unsigned bytes = ir_mem_bytes(in->aux);
	uint32_t off = (uint32_t)in->imm;
	if (bytes >= 4) {
		if (off % 4) {
			sel_error(s, "parameter at unaligned offset %u", off);
			return true;
		}
		uint32_t d = sel_def(s, in->res);
		if (s->vals[in->res].loc == LOC_SGPR && s->vals[in->res].size == bytes / 4)
			kernarg_load_into(s, d, off, bytes); /* straight into its home */
		else
			place(s, in->res, kernarg_load(s, off, bytes), bytes / 4);
		return true;
	}
	/* 1- or 2-byte parameter: load its dword, extract the field */
	uint32_t w = kernarg_load(s, off & ~3u, 4);
	uint32_t f = sel_new_sgpr(s, 1);
	struct mir_opnd ops[3] = {mir_vreg(f, 1), mir_vreg(w, 1),
	                          mir_imm((off & 3) * 8 | (bytes * 8) << 16)};
	sel_emit(s, (in->aux & IR_MEM_SIGNED) ? AMD_OP_S_BFE_I32 : AMD_OP_S_BFE_U32, 3, ops);
	place(s, in->res, f, 1);
	return true;
}

/* hwreg(id, offset, size) as the s_getreg_b32 immediate */
static uint32_t hwreg(unsigned id, unsigned offset, unsigned size)
{
	return id | offset << 6 | (size - 1) << 11;
}

/* %smid: the compute unit's id fields of the wave's hardware id, one bit field: gfx9 HW_ID
 * (4) cu_id[11:8] sh_id[12] se_id[14:13]; gfx10+ HW_ID1 (23) wgp_id[13:10] sa_id[16]
 * se_id[20:18].  Below IR_NSMID (2^11), not contiguous (PTX allows both). */
static uint32_t smid_hwreg(const struct isel *s)
{
	bool gfx9 = s->gen == AMD_GFX9 || s->gen == AMD_GFX940;
	return gfx9 ? hwreg(4, 8, 7) : hwreg(23, 10, 11);
}

/* IR_TIMER: the shader cycle counter is s_memtime on gfx9/gfx10 and SHADER_CYCLES_HI/LO
 * (read hi, lo, hi; lo = 0 if hi changed, as clang-19 does) on gfx12; gfx11 has only a 20-bit
 * cycle counter, which wraps, so %clock64 reads the realtime counter there.  The realtime
 * counter is s_memrealtime on gfx9/gfx10 and s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME on gfx11+. */
static bool timer(struct isel *s, const struct ir_insn *in)
{
	enum { HW_SHADER_CYCLES_LO = 29, HW_SHADER_CYCLES_HI = 30, MSG_RTN_GET_REALTIME = 131 };
	bool old = s->gen <= AMD_GFX10; /* gfx90a, gfx942, gfx1030 */
	uint32_t d = sel_new_sgpr(s, 2);
	if (in->aux == IR_TIMER_CYCLES && s->gen == AMD_GFX12) {
		uint32_t hi = sel_new_sgpr(s, 1), lo = sel_new_sgpr(s, 1);
		sel_emit(s, AMD_OP_S_GETREG_B32, 2,
		         (struct mir_opnd[]){mir_vreg(hi, 1),
		                             mir_imm(hwreg(HW_SHADER_CYCLES_HI, 0, 32))});
		sel_emit(s, AMD_OP_S_GETREG_B32, 2,
		         (struct mir_opnd[]){mir_vreg(lo, 1),
		                             mir_imm(hwreg(HW_SHADER_CYCLES_LO, 0, 32))});
		sel_emit(s, AMD_OP_S_GETREG_B32, 2,
		         (struct mir_opnd[]){sel_sub(d, 1, 1),
		                             mir_imm(hwreg(HW_SHADER_CYCLES_HI, 0, 32))});
		sel_emit(s, AMD_OP_S_CMP_EQ_U32, 2,
		         (struct mir_opnd[]){mir_vreg(hi, 1), sel_sub(d, 1, 1)});
		sel_emit(s, AMD_OP_S_CSELECT_B32, 3,
		         (struct mir_opnd[]){sel_sub(d, 0, 1), mir_vreg(lo, 1), mir_imm(0)});
	} else if (old) {
		unsigned op = in->aux == IR_TIMER_CYCLES ? AMD_OP_S_MEMTIME : AMD_OP_S_MEMREALTIME;
		sel_emit(s, op, 1, (struct mir_opnd[]){mir_vreg(d, 2)});
	} else {
		sel_emit(s, AMD_OP_S_SENDMSG_RTN_B64, 2,
		         (struct mir_opnd[]){mir_vreg(d, 2), mir_imm(MSG_RTN_GET_REALTIME)});
	}
	place(s, in->res, d, 2);
	return true;
}

/* Hidden argument bits (code object v5), equal to codeobj.h's enum co_hidden_arg. */
enum {
	HIDDEN_BLOCK_COUNT_X = 1u << 0,
	HIDDEN_GROUP_SIZE_X = 1u << 3,
	HIDDEN_DYNAMIC_LDS_SIZE = 1u << 19,
	HIDDEN_DYNAMIC_LDS_SIZE_OFFSET = 120,
	HIDDEN_PRINTF_BUFFER = 1u << 13,
	HIDDEN_PRINTF_OFFSET = 72, /* bytes after the explicit arguments (code object v5) */
};

/* %dynamic_smem_size from the hidden argument; %total_smem_size adds the static LDS and rounds
 * up to the LDS allocation granule (PTX: "in multiples of the allocation unit") */
static void smem_size(struct isel *s, const struct ir_insn *in)
{
	s->mf->abi.hidden_args |= HIDDEN_DYNAMIC_LDS_SIZE;
	uint32_t dyn = kernarg_load(s, s->hidden_base + HIDDEN_DYNAMIC_LDS_SIZE_OFFSET, 4);
	if (in->aux == IR_SREG_DYN_SMEM) {
		place(s, in->res, dyn, 1);
		return;
	}
	uint32_t gran = s->t->info->lds_granule, t = sel_new_sgpr(s, 1), r = sel_new_sgpr(s, 1);
	sel_emit(s, AMD_OP_S_ADD_U32, 3,
	         (struct mir_opnd[]){mir_vreg(t, 1), mir_vreg(dyn, 1),
	                             mir_imm(s->mf->lds_size + gran - 1)});
	sel_emit(s, AMD_OP_S_AND_B32, 3,
	         (struct mir_opnd[]){mir_vreg(r, 1), mir_vreg(t, 1), mir_imm(~(gran - 1))});
	place(s, in->res, r, 1);
}

static bool sreg(struct isel *s, const struct ir_insn *in)
{
	uint32_t k = in->aux;
	if (k <= IR_SREG_TID_Z) {
		sel_copy(s, rd(s, in->res, 0), mir_vreg(s->tid[k], 1));
	} else if (k >= IR_SREG_CTAID_X && k <= IR_SREG_CTAID_Z) {
		sel_copy(s, rd(s, in->res, 0), mir_vreg(s->wg_id[k - IR_SREG_CTAID_X], 1));
	} else if (k >= IR_SREG_NTID_X && k <= IR_SREG_NTID_Z) {
		unsigned dim = k - IR_SREG_NTID_X, off = s->hidden_base + 12 + 2 * dim;
		s->mf->abi.hidden_args |= HIDDEN_GROUP_SIZE_X << dim;
		uint32_t w = kernarg_load(s, off & ~3u, 4);
		uint32_t f = sel_new_sgpr(s, 1);
		struct mir_opnd ops[3] = {mir_vreg(f, 1), mir_vreg(w, 1),
		                          mir_imm((off & 3) * 8 | 16 << 16)};
		sel_emit(s, AMD_OP_S_BFE_U32, 3, ops);
		place(s, in->res, f, 1);
	} else if (k >= IR_SREG_NCTAID_X && k <= IR_SREG_NCTAID_Z) {
		unsigned dim = k - IR_SREG_NCTAID_X;
		s->mf->abi.hidden_args |= HIDDEN_BLOCK_COUNT_X << dim;
		place(s, in->res, kernarg_load(s, s->hidden_base + 4 * dim, 4), 1);
	} else if (k == IR_SREG_PRINTF_BUFFER) {
		s->mf->abi.hidden_args |= HIDDEN_PRINTF_BUFFER;
		place(s, in->res, kernarg_load(s, s->hidden_base + HIDDEN_PRINTF_OFFSET, 8), 2);
	} else if (k == IR_SREG_LANEID) {
		uint32_t t = sel_new_vgpr(s, 1);
		struct mir_opnd lo[3] = {s->wave == 64 ? mir_vreg(t, 1) : rd(s, in->res, 0),
		                         mir_imm(~0u), mir_imm(0)};
		sel_emit(s, AMD_OP_V_MBCNT_LO_U32_B32, 3, lo);
		if (s->wave == 64) {
			struct mir_opnd hi[3] = {rd(s, in->res, 0), mir_imm(~0u), mir_vreg(t, 1)};
			sel_emit(s, AMD_OP_V_MBCNT_HI_U32_B32, 3, hi);
		}
	} else if (k == IR_SREG_SMID) {
		sel_emit(s, AMD_OP_S_GETREG_B32, 2,
		         (struct mir_opnd[]){rd(s, in->res, 0), mir_imm(smid_hwreg(s))});
	} else if (k == IR_SREG_GRIDID) {
		place(s, in->res, s->dispatch_id, 2);
	} else if (k == IR_SREG_DYN_SMEM || k == IR_SREG_TOTAL_SMEM) {
		smem_size(s, in);
	} else if (k == IR_SREG_WARPSZ) {
		sel_copy(s, rd(s, in->res, 0), mir_imm(s->wave));
	} else if (k == IR_SREG_SHARED_APERTURE || k == IR_SREG_PRIVATE_APERTURE) {
		uint32_t base = sel_new_sgpr(s, 2);
		struct mir_opnd ops[2] = {mir_vreg(base, 2),
		                          mir_special(k == IR_SREG_SHARED_APERTURE
		                                              ? AMD_SPEC_SRC_SHARED_BASE
		                                              : AMD_SPEC_SRC_PRIVATE_BASE,
		                                      2)};
		sel_emit(s, AMD_OP_S_MOV_B64, 2, ops);
		sel_copy(s, rd(s, in->res, 0), sel_sub(base, 1, 1));
	} else {
		return false;
	}
	return true;
}

static bool symaddr(struct isel *s, const struct ir_insn *in)
{
	const struct ir_symvar *v = &s->ir->symvars[in->imm];
	if (sel_global_symaddr(s, in) || sel_local_symaddr(s, in))
		return true;
	if (v->space != IR_SPACE_SHARED) {
		sel_error(s,
		          "the address of module variable '%s' (.global/.const/.local) is not "
		          "supported by the code generator yet",
		          v->sym->name);
		return true;
	}
	uint32_t off = s->lds_offset[in->imm];
	sel_copy(s, rd(s, in->res, 0), mir_imm(off));
	if (s->vals[in->res].size == 2)
		sel_copy(s, rd(s, in->res, 1), mir_imm(0));
	return true;
}

/* A 64-bit VGPR address value plus a constant offset folded in with a 64-bit add. */
static struct mir_opnd address64(struct isel *s, ir_ref base, int64_t off)
{
	struct mir_opnd a = sel_vgpr_opnd(s, base, 2);
	if (!off)
		return a;
	uint32_t r = sel_new_vgpr(s, 2), c = sel_new_sgpr(s, s->mask_dw),
	         c2 = sel_new_sgpr(s, s->mask_dw);
	struct mir_opnd lo[4] = {sel_sub(r, 0, 1), mir_vreg(c, s->mask_dw), mir_imm((uint32_t)off),
	                         sel_sub(a.v, a.sub, 1)};
	sel_fix_valu(s, AMD_OP_V_ADD_CO_U32, 4, lo);
	sel_emit(s, AMD_OP_V_ADD_CO_U32, 4, lo);
	struct mir_opnd hi[5] = {sel_sub(r, 1, 1), mir_vreg(c2, s->mask_dw),
	                         mir_imm((uint32_t)((uint64_t)off >> 32)),
	                         sel_sub(a.v, a.sub + 1, 1), mir_vreg(c, s->mask_dw)};
	sel_fix_valu(s, AMD_OP_V_ADDC_CO_U32, 5, hi);
	sel_emit(s, AMD_OP_V_ADDC_CO_U32, 5, hi);
	return mir_vreg(r, 2);
}

/* A 32-bit LDS address (the low dword of a wider value) in a VGPR; an offset outside the
 * DS field's 0..65535 is added to it (*off becomes 0). */
static struct mir_opnd lds_address(struct isel *s, ir_ref base, int64_t *off)
{
	return sel_offset_address(s, base, off, 65535);
}

static const uint16_t global_loads[4][2] = {
        {AMD_OP_GLOBAL_LOAD_UBYTE, AMD_OP_GLOBAL_LOAD_SBYTE},
        {AMD_OP_GLOBAL_LOAD_USHORT, AMD_OP_GLOBAL_LOAD_SSHORT},
        {AMD_OP_GLOBAL_LOAD_DWORD, AMD_OP_GLOBAL_LOAD_DWORD},
        {AMD_OP_GLOBAL_LOAD_DWORDX2, AMD_OP_GLOBAL_LOAD_DWORDX2}};
static const uint16_t flat_loads[4][2] = {{AMD_OP_FLAT_LOAD_UBYTE, AMD_OP_FLAT_LOAD_SBYTE},
                                          {AMD_OP_FLAT_LOAD_USHORT, AMD_OP_FLAT_LOAD_SSHORT},
                                          {AMD_OP_FLAT_LOAD_DWORD, AMD_OP_FLAT_LOAD_DWORD},
                                          {AMD_OP_FLAT_LOAD_DWORDX2, AMD_OP_FLAT_LOAD_DWORDX2}};
static const uint16_t ds_loads[4][2] = {{AMD_OP_DS_READ_U8, AMD_OP_DS_READ_I8},
                                        {AMD_OP_DS_READ_U16, AMD_OP_DS_READ_I16},
                                        {AMD_OP_DS_READ_B32, AMD_OP_DS_READ_B32},
                                        {AMD_OP_DS_READ_B64, AMD_OP_DS_READ_B64}};
static const uint16_t global_stores[4] = {AMD_OP_GLOBAL_STORE_BYTE, AMD_OP_GLOBAL_STORE_SHORT,
                                          AMD_OP_GLOBAL_STORE_DWORD, AMD_OP_GLOBAL_STORE_DWORDX2};
static const uint16_t flat_stores[4] = {AMD_OP_FLAT_STORE_BYTE, AMD_OP_FLAT_STORE_SHORT,
                                        AMD_OP_FLAT_STORE_DWORD, AMD_OP_FLAT_STORE_DWORDX2};
static const uint16_t ds_stores[4] = {AMD_OP_DS_WRITE_B8, AMD_OP_DS_WRITE_B16, AMD_OP_DS_WRITE_B32,
                                      AMD_OP_DS_WRITE_B64};

static unsigned size_index(unsigned bytes)
{
	return bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;
}

static bool load(struct isel *s, const struct ir_insn *in)
{
	unsigned space = in->aux & IR_SPACE_MASK, bytes = ir_mem_bytes(in->aux);
	unsigned si = size_index(bytes), sg = (in->aux & IR_MEM_SIGNED) ? 1 : 0;
	if (sel_local_access(s, in))
		return true;
	if (space == IR_SPACE_CONST) /* constant memory is global memory */
		space = IR_SPACE_GLOBAL;
	uint32_t d = sel_def(s, in->res);
	unsigned words = bytes == 8 ? 2 : 1;
	/* the destination is a VGPR (loads are divergent) of the value's size */
	struct mir_opnd dst =
	        words == s->vals[in->res].size ? mir_vreg(d, words) : sel_sub(d, 0, 1);
	if (space == IR_SPACE_SHARED) {
		int64_t off = in->imm;
		struct mir_opnd ops[2] = {dst, lds_address(s, in->args[0], &off)};
		sel_emit(s, ds_loads[si][sg], 2, ops)->offset = (int32_t)off;
	} else if (space == IR_SPACE_GLOBAL || space == IR_SPACE_GENERIC) {
		bool fits = space == IR_SPACE_GLOBAL && in->imm >= -2048 && in->imm <= 2047;
		struct mir_opnd addr = address64(s, in->args[0], fits ? 0 : in->imm);
		struct mir_insn *mi;
		if (space == IR_SPACE_GLOBAL) {
			struct mir_opnd ops[3] = {dst, addr, {.kind = MIR_OFF}};
			mi = sel_emit(s, global_loads[si][sg], 3, ops);
			mi->offset = fits ? (int32_t)in->imm : 0;
		} else {
			struct mir_opnd ops[2] = {dst, addr};
			mi = sel_emit(s, flat_loads[si][sg], 2, ops);
		}
		mi->cpol = (uint8_t)sel_mm_cpol(s, in->aux, SEL_MM_LOAD);
	} else {
		sel_error(
		        s,
		        "loads from the %s state space are not supported by the code generator yet",
		        space == IR_SPACE_LOCAL   ? ".local"
		        : space == IR_SPACE_CONST ? ".const"
		                                  : "?");
		return true;
	}
	if (words < s->vals[in->res].size) /* narrow into a 64-bit value: extend */
		sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
	sel_mm_volatile_wait(s, in->aux);
	sel_mm_acquire(s, in->aux);
	return true;
}

static bool store(struct isel *s, const struct ir_insn *in)
{
	unsigned space = in->aux & IR_SPACE_MASK, bytes = ir_mem_bytes(in->aux);
	unsigned si = size_index(bytes), words = bytes == 8 ? 2 : 1;
	sel_mm_release(s, in->aux);
	if (sel_local_access(s, in))
		return true;
	struct mir_opnd data = sel_vgpr_opnd(s, in->args[1], words == 2 ? 2 : 0);
	if (space == IR_SPACE_SHARED) {
		int64_t off = in->imm;
		struct mir_opnd ops[2] = {lds_address(s, in->args[0], &off), data};
		sel_emit(s, ds_stores[si], 2, ops)->offset = (int32_t)off;
		return true;
	}
	if (space != IR_SPACE_GLOBAL && space != IR_SPACE_GENERIC) {
		sel_error(
		        s,
		        "stores to the %s state space are not supported by the code generator yet",
		        space == IR_SPACE_LOCAL ? ".local" : "?");
		return true;
	}
	bool fits = space == IR_SPACE_GLOBAL && in->imm >= -2048 && in->imm <= 2047;
	struct mir_opnd addr = address64(s, in->args[0], fits ? 0 : in->imm);
	struct mir_insn *mi;
	if (space == IR_SPACE_GLOBAL) {
		struct mir_opnd ops[3] = {addr, data, {.kind = MIR_OFF}};
		mi = sel_emit(s, global_stores[si], 3, ops);
		mi->offset = fits ? (int32_t)in->imm : 0;
	} else {
		struct mir_opnd ops[2] = {addr, data};
		mi = sel_emit(s, flat_stores[si], 2, ops);
	}
	mi->cpol = (uint8_t)sel_mm_cpol(s, in->aux, SEL_MM_STORE);
	sel_mm_volatile_wait(s, in->aux);
	return true;
}

bool sel_barrier(struct isel *s)
{
	sel_mm_barrier_release(s);
	if (s->gen == AMD_GFX12) {
		struct mir_opnd m1 = mir_imm(~0u);
		sel_emit(s, AMD_OP_S_BARRIER_SIGNAL, 1, &m1);
		struct mir_opnd w = mir_imm(0xffffu);
		sel_emit(s, AMD_OP_S_BARRIER_WAIT, 1, &w);
	} else {
		sel_emit(s, AMD_OP_S_BARRIER, 0, NULL);
	}
	sel_mm_barrier_acquire(s);
	return true;
}

static bool cvta(struct isel *s, const struct ir_insn *in)
{
	unsigned space = in->aux & IR_SPACE_MASK;
	if (sel_global_cvta(s, in) || sel_local_cvta(s, in))
		return true;
	if (space != IR_SPACE_SHARED) {
		sel_error(s,
		          "generic addresses of the %s state space are not supported by the code "
		          "generator yet",
		          space == IR_SPACE_LOCAL ? ".local" : ".const");
		return true;
	}
	uint32_t d = sel_def(s, in->res);
	bool uni = s->vals[in->res].loc == LOC_SGPR;
	struct mir_opnd lo =
	        uni ? sel_sreg_opnd(s, in->args[0], 0) : sel_vsrc_opnd(s, in->args[0], 0);
	sel_copy(s, sel_sub(d, 0, 1), lo);
	if (in->op == IR_CVTA_TO) {
		if (s->vals[in->res].size == 2)
			sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
		return true;
	}
	/* shared -> generic: the LDS aperture's base in the high dword */
	uint32_t base = sel_new_sgpr(s, 2);
	struct mir_opnd ops[2] = {mir_vreg(base, 2), mir_special(AMD_SPEC_SRC_SHARED_BASE, 2)};
	sel_emit(s, AMD_OP_S_MOV_B64, 2, ops);
	if (s->vals[in->res].size == 2)
		sel_copy(s, sel_sub(d, 1, 1), sel_sub(base, 1, 1));
	return true;
}

bool sel_mem(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_PARAM:
		return param(s, in);
	case IR_SREG:
		return sreg(s, in);
	case IR_TIMER:
		return timer(s, in);
	case IR_SYMADDR:
		return symaddr(s, in);
	case IR_LOAD:
		return load(s, in);
	case IR_STORE:
		return store(s, in);
	case IR_BARRIER:
		return sel_barrier(s);
	case IR_CVTA_TO:
	case IR_CVTA_FROM:
		return cvta(s, in);
	default:
		return false;
	}
}

struct mir_opnd sel_global_address(struct isel *s, ir_ref base, int64_t off)
{
	return address64(s, base, off);
}

/* A 32-bit address in a VGPR for an instruction with an unsigned offset field of at most
 * `max`: *off stays for the field when it fits, else is added in (*off becomes 0). */
struct mir_opnd sel_offset_address(struct isel *s, ir_ref base, int64_t *off, int64_t max)
{
	struct mir_opnd a = sel_to_vgpr(s, sel_vsrc_opnd(s, base, 0));
	if (*off >= 0 && *off <= max)
		return a;
	uint32_t r = sel_new_vgpr(s, 1);
	struct mir_opnd ops[3] = {mir_vreg(r, 1), mir_imm((uint32_t)*off), a};
	sel_fix_valu(s, AMD_OP_V_ADD_U32, 3, ops);
	sel_emit(s, AMD_OP_V_ADD_U32, 3, ops);
	*off = 0;
	return mir_vreg(r, 1);
}

struct mir_opnd sel_lds_address(struct isel *s, ir_ref base, int64_t *off)
{
	return lds_address(s, base, off);
}
