/* sem_salu: semantics of the scalar ALU and program-control instructions (SOP1, SOP2, SOPC,
 * SOPK, SOPP) of gfx9 to gfx12, one function per operation, reached through the table at
 * the end (mnemonic -> function, class, flags; each generation's spelling is a separate row
 * sharing a function; gfx12's new waits, barrier, 64-bit and float SALU are in sem_s12.c).
 * Scalar results follow the ISA manuals: SCC is set as each instruction documents (carry,
 * nonzero result, comparison).  s_waitcnt hands its counts to the checker (check.c).
 * complexity: O(1) per instruction. */
#include "sim_int.h"

#define RD32(i) sim_rd_s32(w, in, in->src[i])
#define RD64(i) sim_rd_s64(w, in, in->src[i], false)
#define WR32(v) sim_wr_s32(w, in->dst, (v))
#define WR64(v) sim_wr_s64(w, in->dst, (v))

#define SOP2_32(fn, expr, sccexpr)                                                                 \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint32_t a = RD32(0), b = RD32(1);                                                 \
		uint32_t r = (expr);                                                               \
		w->scc = (sccexpr);                                                                \
		WR32(r);                                                                           \
	}
#define SOP2_64(fn, expr, sccexpr)                                                                 \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t a = RD64(0), b = RD64(1);                                                 \
		uint64_t r = (expr);                                                               \
		w->scc = (sccexpr);                                                                \
		WR64(r);                                                                           \
	}
/* shifts and bfe take a 32-bit second operand with a 64-bit first */
#define SOP2_64_32(fn, expr, sccexpr)                                                              \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t a = RD64(0);                                                              \
		uint32_t b = RD32(1);                                                              \
		uint64_t r = (expr);                                                               \
		w->scc = (sccexpr);                                                                \
		WR64(r);                                                                           \
	}

SOP2_32(s_add_u32, a + b, (uint64_t)a + b > 0xffffffffu)
SOP2_32(s_sub_u32, a - b, b > a)
SOP2_32(s_add_i32, a + b, ((~(a ^ b)) & (a ^ (a + b))) >> 31)
SOP2_32(s_sub_i32, a - b, ((a ^ b) & (a ^ (a - b))) >> 31)
SOP2_32(s_addc_u32, a + b + w->scc, (uint64_t)a + b + w->scc > 0xffffffffu)
SOP2_32(s_subb_u32, a - b - w->scc, (uint64_t)b + w->scc > a)
SOP2_32(s_min_i32, (int32_t)a < (int32_t)b ? a : b, (int32_t)a < (int32_t)b)
SOP2_32(s_min_u32, a < b ? a : b, a < b)
SOP2_32(s_max_i32, (int32_t)a > (int32_t)b ? a : b, (int32_t)a > (int32_t)b)
SOP2_32(s_max_u32, a > b ? a : b, a > b)
SOP2_32(s_cselect_b32, w->scc ? a : b, w->scc)
SOP2_64(s_cselect_b64, w->scc ? a : b, w->scc)
SOP2_32(s_and_b32, a &b, r != 0)
SOP2_64(s_and_b64, a &b, r != 0)
SOP2_32(s_or_b32, a | b, r != 0)
SOP2_64(s_or_b64, a | b, r != 0)
SOP2_32(s_xor_b32, a ^ b, r != 0)
SOP2_64(s_xor_b64, a ^ b, r != 0)
SOP2_32(s_andn2_b32, a & ~b, r != 0)
SOP2_64(s_andn2_b64, a & ~b, r != 0)
SOP2_32(s_orn2_b32, a | ~b, r != 0)
SOP2_64(s_orn2_b64, a | ~b, r != 0)
SOP2_32(s_nand_b32, ~(a &b), r != 0)
SOP2_64(s_nand_b64, ~(a &b), r != 0)
SOP2_32(s_nor_b32, ~(a | b), r != 0)
SOP2_64(s_nor_b64, ~(a | b), r != 0)
SOP2_32(s_xnor_b32, ~(a ^ b), r != 0)
SOP2_64(s_xnor_b64, ~(a ^ b), r != 0)
SOP2_32(s_lshl_b32, a << (b & 31), r != 0)
SOP2_64_32(s_lshl_b64, a << (b & 63), r != 0)
SOP2_32(s_lshr_b32, a >> (b & 31), r != 0)
SOP2_64_32(s_lshr_b64, a >> (b & 63), r != 0)
SOP2_32(s_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)), r != 0)
SOP2_64_32(s_ashr_i64, (uint64_t)((int64_t)a >> (b & 63)), r != 0)
SOP2_32(s_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31), w->scc)
SOP2_32(s_mul_i32, a *b, w->scc)
SOP2_32(s_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32), w->scc)
SOP2_32(s_mul_hi_i32, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32), w->scc)
SOP2_32(s_absdiff_i32, (int32_t)a > (int32_t)b ? a - b : b - a, r != 0)
SOP2_32(s_lshl1_add_u32, (a << 1) + b, ((uint64_t)a << 1) + b > 0xffffffffu)
SOP2_32(s_lshl2_add_u32, (a << 2) + b, ((uint64_t)a << 2) + b > 0xffffffffu)
SOP2_32(s_lshl3_add_u32, (a << 3) + b, ((uint64_t)a << 3) + b > 0xffffffffu)
SOP2_32(s_lshl4_add_u32, (a << 4) + b, ((uint64_t)a << 4) + b > 0xffffffffu)
SOP2_32(s_pack_ll_b32_b16, (a & 0xffff) | (b << 16), w->scc)
SOP2_32(s_pack_lh_b32_b16, (a & 0xffff) | (b & 0xffff0000u), w->scc)
SOP2_32(s_pack_hh_b32_b16, (a >> 16) | (b & 0xffff0000u), w->scc)
SOP2_32(s_pack_hl_b32_b16, (a >> 16) | (b << 16), w->scc)

static uint32_t bfe32(uint32_t a, uint32_t b, bool sign)
{
	unsigned off = b & 31, width = (b >> 16) & 127;
	if (width == 0)
		return 0;
	if (width > 32 - off)
		width = 32 - off;
	uint32_t v = a >> off;
	if (width < 32) {
		v &= (1u << width) - 1;
		if (sign && (v >> (width - 1)) & 1)
			v |= ~((1u << width) - 1);
	}
	return v;
}

static uint64_t bfe64(uint64_t a, uint32_t b, bool sign)
{
	unsigned off = b & 63, width = (b >> 16) & 127;
	if (width == 0)
		return 0;
	if (width > 64 - off)
		width = 64 - off;
	uint64_t v = a >> off;
	if (width < 64) {
		v &= (1ull << width) - 1;
		if (sign && (v >> (width - 1)) & 1)
			v |= ~((1ull << width) - 1);
	}
	return v;
}

SOP2_32(s_bfe_u32, bfe32(a, b, false), r != 0)
SOP2_32(s_bfe_i32, bfe32(a, b, true), r != 0)
SOP2_64_32(s_bfe_u64, bfe64(a, b, false), r != 0)
SOP2_64_32(s_bfe_i64, bfe64(a, b, true), r != 0)

static void s_bfm_b64(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t a = RD32(0), b = RD32(1);
	WR64((((a & 63) == 0 ? 0 : (~0ull >> (64 - (a & 63))))) << (b & 63));
}

/* SOP1 */
#define SOP1_32(fn, expr, sccexpr)                                                                 \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint32_t a = RD32(0);                                                              \
		uint32_t r = (expr);                                                               \
		w->scc = (sccexpr);                                                                \
		WR32(r);                                                                           \
	}
#define SOP1_64(fn, expr, sccexpr)                                                                 \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t a = RD64(0);                                                              \
		uint64_t r = (expr);                                                               \
		w->scc = (sccexpr);                                                                \
		WR64(r);                                                                           \
	}
#define SOP1_32_64(fn, expr, sccexpr)                                                              \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t a = RD64(0);                                                              \
		uint32_t r = (uint32_t)(expr);                                                     \
		w->scc = (sccexpr);                                                                \
		WR32(r);                                                                           \
	}

static uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
	return (v >> 16) | (v << 16);
}

static uint32_t ff1_32(uint32_t v)
{
	return v ? (uint32_t)__builtin_ctz(v) : 0xffffffffu;
}
static uint32_t ff1_64(uint64_t v)
{
	return v ? (uint32_t)__builtin_ctzll(v) : 0xffffffffu;
}
static uint32_t flbit_32(uint32_t v)
{
	return v ? (uint32_t)__builtin_clz(v) : 0xffffffffu;
}
static uint32_t flbit_64(uint64_t v)
{
	return v ? (uint32_t)__builtin_clzll(v) : 0xffffffffu;
}
static uint32_t flbit_i32(uint32_t v)
{
	return flbit_32((int32_t)v < 0 ? ~v : v);
}
static uint32_t flbit_i64(uint64_t v)
{
	return flbit_64((int64_t)v < 0 ? ~v : v);
}

static uint64_t wqm64(uint64_t v)
{
	uint64_t r = 0;
	for (int q = 0; q < 64; q += 4)
		if ((v >> q) & 15)
			r |= 15ull << q;
	return r;
}

static void s_mov_b32(struct sim_wave *w, const struct sim_insn *in)
{
	WR32(RD32(0));
}
static void s_mov_b64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(RD64(0));
}
static void s_cmov_b32(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t a = RD32(0);
	if (w->scc)
		WR32(a);
}
static void s_cmov_b64(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t a = RD64(0);
	if (w->scc)
		WR64(a);
}
SOP1_32(s_not_b32, ~a, r != 0)
SOP1_64(s_not_b64, ~a, r != 0)
SOP1_32(s_wqm_b32, (uint32_t)wqm64(a), r != 0)
SOP1_64(s_wqm_b64, wqm64(a), r != 0)
SOP1_32(s_brev_b32, brev32(a), w->scc)
SOP1_64(s_brev_b64, ((uint64_t)brev32((uint32_t)a) << 32) | brev32((uint32_t)(a >> 32)), w->scc)
SOP1_32(s_bcnt0_i32_b32, (uint32_t)__builtin_popcount(~a), r != 0)
SOP1_32_64(s_bcnt0_i32_b64, __builtin_popcountll(~a), r != 0)
SOP1_32(s_bcnt1_i32_b32, (uint32_t)__builtin_popcount(a), r != 0)
SOP1_32_64(s_bcnt1_i32_b64, __builtin_popcountll(a), r != 0)
SOP1_32(s_ff0_i32_b32, ff1_32(~a), w->scc)
SOP1_32_64(s_ff0_i32_b64, ff1_64(~a), w->scc)
SOP1_32(s_ff1_i32_b32, ff1_32(a), w->scc)
SOP1_32_64(s_ff1_i32_b64, ff1_64(a), w->scc)
SOP1_32(s_flbit_i32_b32, flbit_32(a), w->scc)
SOP1_32_64(s_flbit_i32_b64, flbit_64(a), w->scc)
SOP1_32(s_flbit_i32, flbit_i32(a), w->scc)
SOP1_32_64(s_flbit_i32_i64, flbit_i64(a), w->scc)
SOP1_32(s_sext_i32_i8, (uint32_t)(int32_t)(int8_t)a, w->scc)
SOP1_32(s_sext_i32_i16, (uint32_t)(int32_t)(int16_t)a, w->scc)
SOP1_32(s_abs_i32, (int32_t)a < 0 ? -a : a, r != 0)

static void s_bitset0_b32(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t a = RD32(0), d = sim_rd_s32(w, in, in->dst);
	WR32(d & ~(1u << (a & 31)));
}
static void s_bitset1_b32(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t a = RD32(0), d = sim_rd_s32(w, in, in->dst);
	WR32(d | (1u << (a & 31)));
}

/* s_*_saveexec: D = EXEC; EXEC = op(S0, EXEC); SCC = EXEC != 0 */
#define SAVEEXEC(fn, expr, bits)                                                                   \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t s = bits == 64 ? RD64(0) : RD32(0), e = sim_exec(w);                      \
		uint64_t r = (expr)&w->exec_mask_all;                                              \
		if (bits == 64)                                                                    \
			WR64(e);                                                                   \
		else                                                                               \
			WR32((uint32_t)e);                                                         \
		sim_chk_write_s(w, in, SIM_EXEC, 2);                                               \
		sim_set_exec(w, r);                                                                \
		w->scc = r != 0;                                                                   \
	}
SAVEEXEC(s_and_saveexec_b64, s &e, 64)
SAVEEXEC(s_or_saveexec_b64, s | e, 64)
SAVEEXEC(s_xor_saveexec_b64, s ^ e, 64)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e, 64)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e, 64)
SAVEEXEC(s_andn1_saveexec_b64, ~s &e, 64)
SAVEEXEC(s_and_saveexec_b32, s &e, 32)
SAVEEXEC(s_or_saveexec_b32, s | e, 32)
SAVEEXEC(s_xor_saveexec_b32, s ^ e, 32)
SAVEEXEC(s_andn2_saveexec_b32, s & ~e, 32)
SAVEEXEC(s_orn2_saveexec_b32, s | ~e, 32)
SAVEEXEC(s_andn1_saveexec_b32, ~s &e, 32)

/* s_and_not1_wrexec (s_andn2_wrexec): EXEC = S0 & ~EXEC; D = new EXEC */
#define WREXEC(fn, expr, bits)                                                                     \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		uint64_t s = bits == 64 ? RD64(0) : RD32(0), e = sim_exec(w);                      \
		uint64_t r = (expr)&w->exec_mask_all;                                              \
		sim_chk_write_s(w, in, SIM_EXEC, 2);                                               \
		sim_set_exec(w, r);                                                                \
		if (bits == 64)                                                                    \
			WR64(r);                                                                   \
		else                                                                               \
			WR32((uint32_t)r);                                                         \
		w->scc = r != 0;                                                                   \
	}
WREXEC(s_andn2_wrexec_b64, s & ~e, 64)
WREXEC(s_andn1_wrexec_b64, ~s &e, 64)
WREXEC(s_andn2_wrexec_b32, s & ~e, 32)
WREXEC(s_andn1_wrexec_b32, ~s &e, 32)

static void s_getpc_b64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(w->ctx->code_addr + in->pc + in->size);
}
static void s_setpc_b64(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t t = RD64(0) - w->ctx->code_addr;
	w->next_pc = (uint32_t)t;
	if (t >= w->ctx->code_size)
		sim_fault(w, "s_setpc_b64 to an address outside the code");
}
static void s_swappc_b64(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t t = RD64(0) - w->ctx->code_addr;
	WR64(w->ctx->code_addr + in->pc + in->size);
	w->next_pc = (uint32_t)t;
	if (t >= w->ctx->code_size)
		sim_fault(w, "s_swappc_b64 to an address outside the code");
}
static void s_call_b64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(w->ctx->code_addr + in->pc + in->size);
	w->next_pc = in->pc + 4 + (uint32_t)(in->imm * 4);
}

/* SOPC */
#define SOPC(fn, T, op)                                                                            \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		T a = (T)RD32(0), b = (T)RD32(1);                                                  \
		w->scc = a op b;                                                                   \
	}
SOPC(s_cmp_eq_i32, int32_t, ==)
SOPC(s_cmp_lg_i32, int32_t, !=)
SOPC(s_cmp_gt_i32, int32_t, >)
SOPC(s_cmp_ge_i32, int32_t, >=)
SOPC(s_cmp_lt_i32, int32_t, <)
SOPC(s_cmp_le_i32, int32_t, <=)
SOPC(s_cmp_gt_u32, uint32_t, >)
SOPC(s_cmp_ge_u32, uint32_t, >=)
SOPC(s_cmp_lt_u32, uint32_t, <)
SOPC(s_cmp_le_u32, uint32_t, <=)
static void s_cmp_eq_u64(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = RD64(0) == RD64(1);
}
static void s_cmp_lg_u64(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = RD64(0) != RD64(1);
}
static void s_bitcmp0_b32(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = !((RD32(0) >> (RD32(1) & 31)) & 1);
}
static void s_bitcmp1_b32(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = (RD32(0) >> (RD32(1) & 31)) & 1;
}
static void s_bitcmp0_b64(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = !((RD64(0) >> (RD32(1) & 63)) & 1);
}
static void s_bitcmp1_b64(struct sim_wave *w, const struct sim_insn *in)
{
	w->scc = (RD64(0) >> (RD32(1) & 63)) & 1;
}

/* SOPK */
static void s_movk_i32(struct sim_wave *w, const struct sim_insn *in)
{
	WR32((uint32_t)in->imm);
}
static void s_cmovk_i32(struct sim_wave *w, const struct sim_insn *in)
{
	if (w->scc)
		WR32((uint32_t)in->imm);
}
#define SOPK_CMP(fn, T, op, ext)                                                                   \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		T a = (T)sim_rd_s32(w, in, in->dst);                                               \
		w->scc = a op(T)(ext);                                                             \
	}
SOPK_CMP(s_cmpk_eq_i32, int32_t, ==, in->imm)
SOPK_CMP(s_cmpk_lg_i32, int32_t, !=, in->imm)
SOPK_CMP(s_cmpk_gt_i32, int32_t, >, in->imm)
SOPK_CMP(s_cmpk_ge_i32, int32_t, >=, in->imm)
SOPK_CMP(s_cmpk_lt_i32, int32_t, <, in->imm)
SOPK_CMP(s_cmpk_le_i32, int32_t, <=, in->imm)
SOPK_CMP(s_cmpk_eq_u32, uint32_t, ==, (uint16_t)in->imm)
SOPK_CMP(s_cmpk_lg_u32, uint32_t, !=, (uint16_t)in->imm)
SOPK_CMP(s_cmpk_gt_u32, uint32_t, >, (uint16_t)in->imm)
SOPK_CMP(s_cmpk_ge_u32, uint32_t, >=, (uint16_t)in->imm)
SOPK_CMP(s_cmpk_lt_u32, uint32_t, <, (uint16_t)in->imm)
SOPK_CMP(s_cmpk_le_u32, uint32_t, <=, (uint16_t)in->imm)
static void s_addk_i32(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t a = sim_rd_s32(w, in, in->dst), b = (uint32_t)in->imm;
	uint32_t r = a + b;
	w->scc = ((~(a ^ b)) & (a ^ r)) >> 31;
	WR32(r);
}
static void s_mulk_i32(struct sim_wave *w, const struct sim_insn *in)
{
	WR32(sim_rd_s32(w, in, in->dst) * (uint32_t)in->imm);
}

/* The hardware id of a wave: its workgroup runs on compute unit (gfx9) or WGP (gfx10+) number
 * wg_flat % 64, spelled as cu/wgp id (4 bits), shader array (1 bit) and engine (2 bits); the
 * wave id is its index in the workgroup.  gfx9 HW_ID: wave_id[3:0] cu_id[11:8] sh_id[12]
 * se_id[14:13]; gfx10+ HW_ID1: wave_id[4:0] wgp_id[13:10] sa_id[16] se_id[20:18]. */
static uint32_t hw_id(const struct sim_wave *w)
{
	uint32_t cu = w->wg_flat % 64;
	if (w->ctx->gen <= AMD_GFX940)
		return (w->id & 15) | (cu & 15) << 8 | (cu >> 4 & 1) << 12 | (cu >> 5) << 13;
	return (w->id & 31) | (cu & 15) << 10 | (cu >> 4 & 1) << 16 | (cu >> 5) << 18;
}

/* hardware registers: only MODE is writable state; the rest read as the hardware reports */
static uint32_t hwreg_value(struct sim_wave *w, unsigned id)
{
	bool g11 = w->ctx->gen >= AMD_GFX11, g10 = w->ctx->gen == AMD_GFX10;
	if (id == 1)
		return w->mode;
	if (!g11 && id == 15) /* SH_MEM_BASES: private base [15:0], shared base [31:16] */
		return (0x2u) | (0x1u << 16);
	if (id == 4 || ((g10 || g11) && id == 23)) /* HW_ID (gfx9), HW_ID1 (gfx10+) */
		return hw_id(w);
	if (g11 && id == 29) /* SHADER_CYCLES (gfx11: 20 bits), SHADER_CYCLES_LO (gfx12) */
		return w->ctx->gen == AMD_GFX11 ? (uint32_t)w->clock & 0xfffff : (uint32_t)w->clock;
	if (w->ctx->gen == AMD_GFX12 && id == 30) /* SHADER_CYCLES_HI */
		return (uint32_t)(w->clock >> 32);
	return 0;
}

static void s_getreg_b32(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned id = in->imm & 63, off = (in->imm >> 6) & 31, size = ((in->imm >> 11) & 31) + 1;
	uint32_t v = hwreg_value(w, id) >> off;
	WR32(size == 32 ? v : v & ((1u << size) - 1));
}

static void setreg(struct sim_wave *w, const struct sim_insn *in, uint32_t val)
{
	unsigned id = in->imm & 63, off = (in->imm >> 6) & 31, size = ((in->imm >> 11) & 31) + 1;
	uint32_t mask = (size == 32 ? 0xffffffffu : ((1u << size) - 1)) << off;
	if (id == 1) {
		w->mode = (w->mode & ~mask) | ((val << off) & mask);
		return;
	}
	if (id == 3 || id == 2) /* TRAPSTS/STATUS writes (exception bits) have no effect here */
		return;
	/* gfx10 FLAT_SCR_LO/HI: the flat scratch base scratch_* and flat private accesses
	 * use (sem_mem.c checks it is the wave's scratch) */
	if (w->ctx->gen == AMD_GFX10 && (id == 20 || id == 21)) {
		unsigned sh = id == 21 ? 32 : 0;
		uint64_t m = (uint64_t)mask << sh;
		w->flat_scratch = (w->flat_scratch & ~m) | (((uint64_t)val << off << sh) & m);
		return;
	}
	sim_fault(w, "s_setreg of hardware register %u is not simulated", id);
}
static void s_setreg_b32(struct sim_wave *w, const struct sim_insn *in)
{
	setreg(w, in, sim_rd_s32(w, in, in->dst));
}
static void s_setreg_imm32_b32(struct sim_wave *w, const struct sim_insn *in)
{
	setreg(w, in, in->literal);
}

/* SOPP */
static void s_nop(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned n = (unsigned)(in->imm & 15);
	w->chk.ws += n;
	w->clock += n;
	w->ctx->stats->nop_cycles += n + 1;
}
static void s_nothing(struct sim_wave *w, const struct sim_insn *in)
{
}
static void s_endpgm(struct sim_wave *w, const struct sim_insn *in)
{
	w->done = true;
	sim_chk_end(w);
}
/* s_sleep: the wave sleeps 64 x SIMM16[6:0] clocks and lets the other waves of the
 * workgroup run (dispatch.c run_workgroup), so a wave spinning on LDS sees their stores. */
static void s_sleep(struct sim_wave *w, const struct sim_insn *in)
{
	w->clock += 64u * (in->imm & 0x7f);
	w->yielded = true;
}
/* s_sleep_var (gfx12): s_sleep with the count from SSRC0[6:0] */
static void s_sleep_var(struct sim_wave *w, const struct sim_insn *in)
{
	w->clock += 64u * (RD32(0) & 0x7f);
	w->yielded = true;
}
static void s_barrier(struct sim_wave *w, const struct sim_insn *in)
{
	w->at_barrier = true;
}
static void branch(struct sim_wave *w, const struct sim_insn *in, bool taken)
{
	if (taken) {
		w->next_pc = in->pc + 4 + (uint32_t)(in->imm * 4);
		w->clock += 4;
	}
}
static void s_branch(struct sim_wave *w, const struct sim_insn *in)
{
	branch(w, in, true);
}
static void s_cbranch_scc0(struct sim_wave *w, const struct sim_insn *in)
{
	branch(w, in, !w->scc);
}
static void s_cbranch_scc1(struct sim_wave *w, const struct sim_insn *in)
{
	branch(w, in, w->scc);
}
static void s_cbranch_vccz(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_read_s(w, in, SIM_VCC, 2);
	branch(w, in, sim_vcc(w) == 0);
}
static void s_cbranch_vccnz(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_read_s(w, in, SIM_VCC, 2);
	branch(w, in, sim_vcc(w) != 0);
}
static void s_cbranch_execz(struct sim_wave *w, const struct sim_insn *in)
{
	branch(w, in, sim_exec(w) == 0);
}
static void s_cbranch_execnz(struct sim_wave *w, const struct sim_insn *in)
{
	branch(w, in, sim_exec(w) != 0);
}

static void s_waitcnt(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t v = (uint32_t)in->imm & 0xffff;
	if (w->ctx->gen >= AMD_GFX11) {
		sim_chk_wait(w, in, CNT_EXP, v & 7);
		sim_chk_wait(w, in, CNT_LGKM, (v >> 4) & 63);
		sim_chk_wait(w, in, CNT_VM, (v >> 10) & 63);
		return;
	}
	sim_chk_wait(w, in, CNT_VM, (v & 15) | (((v >> 14) & 3) << 4));
	sim_chk_wait(w, in, CNT_EXP, (v >> 4) & 7);
	sim_chk_wait(w, in, CNT_LGKM, (v >> 8) & (w->ctx->gen >= AMD_GFX10 ? 63 : 15));
}
static void s_waitcnt_vscnt(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t n = (uint32_t)in->imm & 0xffff;
	if (in->dst != SIM_NULL) {
		uint32_t s = sim_rd_s32(w, in, in->dst);
		n = s < n ? s : n;
	}
	sim_chk_wait(w, in, CNT_VS, n);
}
static void s_waitcnt_vmcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_VM, (uint32_t)in->imm & 0xffff);
}
static void s_waitcnt_lgkmcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_LGKM, (uint32_t)in->imm & 0xffff);
}
static void s_waitcnt_expcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_EXP, (uint32_t)in->imm & 0xffff);
}
static void s_sendmsg(struct sim_wave *w, const struct sim_insn *in)
{
	/* compute kernels only send DEALLOC_VGPRS (gfx11) or nothing meaningful: no effect */
}
static void s_code_end(struct sim_wave *w, const struct sim_insn *in)
{
	sim_fault(w, "executed s_code_end padding (fell off the end of the kernel)");
}
static void s_trap(struct sim_wave *w, const struct sim_insn *in)
{
	/* the HSA trap handler ends the dispatch with an error; printf records written before
	 * it (an assertion's message) are still printed (dispatch.c) */
	bool first = !w->ctx->error;
	sim_fault(w, "kernel trap: s_trap %d (the kernel called trap/abort or an assertion failed)",
	          in->imm & 0xff);
	if (first)
		w->ctx->stats->trapped = true;
}
static void s_round_mode(struct sim_wave *w, const struct sim_insn *in)
{
	w->mode = (w->mode & ~15u) | ((uint32_t)in->imm & 15);
}
static void s_denorm_mode(struct sim_wave *w, const struct sim_insn *in)
{
	w->mode = (w->mode & ~0xf0u) | (((uint32_t)in->imm & 15) << 4);
}

#define S(n, f)                                                                                    \
	{                                                                                          \
#n, f, SIM_CLASS_SALU, SIM_MEM_NONE, 0, 0, 0                                       \
	}
#define SN(n) S(n, n)
#define B(n)                                                                                       \
	{                                                                                          \
#n, n, SIM_CLASS_BRANCH, SIM_MEM_NONE, 0, 0, 0                                     \
	}
#define W(n, f)                                                                                    \
	{                                                                                          \
#n, f, SIM_CLASS_WAITCNT, SIM_MEM_NONE, SEM_WAITCNT, 0, 0                          \
	}

static const struct sim_sem salu_sems[] = {
        SN(s_add_u32),
        SN(s_sub_u32),
        SN(s_add_i32),
        SN(s_sub_i32),
        SN(s_addc_u32),
        SN(s_subb_u32),
        S(s_add_co_u32, s_add_u32),
        S(s_sub_co_u32, s_sub_u32),
        S(s_add_co_i32, s_add_i32),
        S(s_sub_co_i32, s_sub_i32),
        S(s_add_co_ci_u32, s_addc_u32),
        S(s_sub_co_ci_u32, s_subb_u32),
        S(s_addk_co_i32, s_addk_i32), /* gfx12 spelling */
        SN(s_min_i32),
        SN(s_min_u32),
        SN(s_max_i32),
        SN(s_max_u32),
        SN(s_cselect_b32),
        SN(s_cselect_b64),
        SN(s_and_b32),
        SN(s_and_b64),
        SN(s_or_b32),
        SN(s_or_b64),
        SN(s_xor_b32),
        SN(s_xor_b64),
        SN(s_andn2_b32),
        SN(s_andn2_b64),
        S(s_and_not1_b32, s_andn2_b32),
        S(s_and_not1_b64, s_andn2_b64),
        SN(s_orn2_b32),
        SN(s_orn2_b64),
        S(s_or_not1_b32, s_orn2_b32),
        S(s_or_not1_b64, s_orn2_b64),
        SN(s_nand_b32),
        SN(s_nand_b64),
        SN(s_nor_b32),
        SN(s_nor_b64),
        SN(s_xnor_b32),
        SN(s_xnor_b64),
        SN(s_lshl_b32),
        SN(s_lshl_b64),
        SN(s_lshr_b32),
        SN(s_lshr_b64),
        SN(s_ashr_i32),
        SN(s_ashr_i64),
        SN(s_bfm_b32),
        SN(s_bfm_b64),
        SN(s_mul_i32),
        SN(s_mul_hi_u32),
        SN(s_mul_hi_i32),
        SN(s_bfe_u32),
        SN(s_bfe_i32),
        SN(s_bfe_u64),
        SN(s_bfe_i64),
        SN(s_absdiff_i32),
        SN(s_lshl1_add_u32),
        SN(s_lshl2_add_u32),
        SN(s_lshl3_add_u32),
        SN(s_lshl4_add_u32),
        SN(s_pack_ll_b32_b16),
        SN(s_pack_lh_b32_b16),
        SN(s_pack_hh_b32_b16),
        SN(s_pack_hl_b32_b16),
        SN(s_mov_b32),
        SN(s_mov_b64),
        SN(s_cmov_b32),
        SN(s_cmov_b64),
        SN(s_not_b32),
        SN(s_not_b64),
        SN(s_wqm_b32),
        SN(s_wqm_b64),
        SN(s_brev_b32),
        SN(s_brev_b64),
        SN(s_bcnt0_i32_b32),
        SN(s_bcnt0_i32_b64),
        SN(s_bcnt1_i32_b32),
        SN(s_bcnt1_i32_b64),
        SN(s_ff0_i32_b32),
        SN(s_ff0_i32_b64),
        SN(s_ff1_i32_b32),
        SN(s_ff1_i32_b64),
        S(s_ctz_i32_b32, s_ff1_i32_b32),
        S(s_ctz_i32_b64, s_ff1_i32_b64),
        SN(s_flbit_i32_b32),
        SN(s_flbit_i32_b64),
        S(s_clz_i32_u32, s_flbit_i32_b32),
        S(s_clz_i32_u64, s_flbit_i32_b64),
        SN(s_flbit_i32),
        SN(s_flbit_i32_i64),
        S(s_cls_i32, s_flbit_i32),
        S(s_cls_i32_i64, s_flbit_i32_i64),
        SN(s_sext_i32_i8),
        SN(s_sext_i32_i16),
        SN(s_abs_i32),
        SN(s_bitset0_b32),
        SN(s_bitset1_b32),
        SN(s_and_saveexec_b64),
        SN(s_or_saveexec_b64),
        SN(s_xor_saveexec_b64),
        SN(s_andn2_saveexec_b64),
        SN(s_orn2_saveexec_b64),
        SN(s_andn1_saveexec_b64),
        SN(s_and_saveexec_b32),
        SN(s_or_saveexec_b32),
        SN(s_xor_saveexec_b32),
        SN(s_andn2_saveexec_b32),
        SN(s_orn2_saveexec_b32),
        SN(s_andn1_saveexec_b32),
        S(s_and_not1_saveexec_b64, s_andn2_saveexec_b64),
        S(s_and_not1_saveexec_b32, s_andn2_saveexec_b32),
        S(s_or_not1_saveexec_b64, s_orn2_saveexec_b64),
        S(s_or_not1_saveexec_b32, s_orn2_saveexec_b32),
        S(s_and_not0_saveexec_b64, s_andn1_saveexec_b64),
        S(s_and_not0_saveexec_b32, s_andn1_saveexec_b32),
        SN(s_andn2_wrexec_b64),
        SN(s_andn1_wrexec_b64),
        S(s_and_not1_wrexec_b64, s_andn2_wrexec_b64),
        S(s_and_not1_wrexec_b32, s_andn2_wrexec_b32),
        S(s_and_not0_wrexec_b64, s_andn1_wrexec_b64),
        S(s_and_not0_wrexec_b32, s_andn1_wrexec_b32),
        SN(s_getpc_b64),
        B(s_setpc_b64),
        B(s_swappc_b64),
        B(s_call_b64),
        SN(s_cmp_eq_i32),
        SN(s_cmp_lg_i32),
        SN(s_cmp_gt_i32),
        SN(s_cmp_ge_i32),
        SN(s_cmp_lt_i32),
        SN(s_cmp_le_i32),
        S(s_cmp_eq_u32, s_cmp_eq_i32),
        S(s_cmp_lg_u32, s_cmp_lg_i32),
        SN(s_cmp_gt_u32),
        SN(s_cmp_ge_u32),
        SN(s_cmp_lt_u32),
        SN(s_cmp_le_u32),
        SN(s_cmp_eq_u64),
        SN(s_cmp_lg_u64),
        SN(s_bitcmp0_b32),
        SN(s_bitcmp1_b32),
        SN(s_bitcmp0_b64),
        SN(s_bitcmp1_b64),
        SN(s_movk_i32),
        SN(s_cmovk_i32),
        SN(s_cmpk_eq_i32),
        SN(s_cmpk_lg_i32),
        SN(s_cmpk_gt_i32),
        SN(s_cmpk_ge_i32),
        SN(s_cmpk_lt_i32),
        SN(s_cmpk_le_i32),
        SN(s_cmpk_eq_u32),
        SN(s_cmpk_lg_u32),
        SN(s_cmpk_gt_u32),
        SN(s_cmpk_ge_u32),
        SN(s_cmpk_lt_u32),
        SN(s_cmpk_le_u32),
        SN(s_addk_i32),
        SN(s_mulk_i32),
        {"s_getreg_b32", s_getreg_b32, SIM_CLASS_SALU, SIM_MEM_NONE, SEM_GETREG, 0, 0},
        {"s_setreg_b32", s_setreg_b32, SIM_CLASS_SALU, SIM_MEM_NONE, SEM_SETREG, 0, 0},
        {"s_setreg_imm32_b32", s_setreg_imm32_b32, SIM_CLASS_SALU, SIM_MEM_NONE, SEM_SETREG, 0, 0},
        {"s_nop", s_nop, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        {"s_endpgm", s_endpgm, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_barrier", s_barrier, SIM_CLASS_BARRIER, SIM_MEM_NONE, 0, 0, 0},
        B(s_branch),
        B(s_cbranch_scc0),
        B(s_cbranch_scc1),
        B(s_cbranch_vccz),
        B(s_cbranch_vccnz),
        B(s_cbranch_execz),
        B(s_cbranch_execnz),
        W(s_waitcnt, s_waitcnt),
        W(s_waitcnt_vscnt, s_waitcnt_vscnt),
        W(s_waitcnt_vmcnt, s_waitcnt_vmcnt),
        W(s_waitcnt_lgkmcnt, s_waitcnt_lgkmcnt),
        W(s_waitcnt_expcnt, s_waitcnt_expcnt),
        {"s_waitcnt_depctr", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, SEM_DEPCTR, 0, 0},
        {"s_sendmsg", s_sendmsg, SIM_CLASS_MISC, SIM_MEM_NONE, SEM_USES_M0, 0, 0},
        {"s_code_end", s_code_end, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_trap", s_trap, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_delay_alu", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        {"s_clause", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        /* instruction-prefetch hints (gfx1030 spells the same opcode s_inst_prefetch):
         * amdsim fetches nothing ahead, so no effect; one wait state like any instruction */
        {"s_set_inst_prefetch_distance", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        {"s_inst_prefetch", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        /* performance-level and thread-trace hints: amdsim has neither (no effect; M0 that
         * s_ttracedata sends is only read) */
        {"s_incperflevel", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        {"s_decperflevel", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, 0, 0, 0},
        {"s_ttracedata", s_nothing, SIM_CLASS_NOP, SIM_MEM_NONE, SEM_USES_M0, 0, 0},
        {"s_setprio", s_nothing, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_sleep", s_sleep, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_sleep_var", s_sleep_var, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_icache_inv", s_nothing, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_round_mode", s_round_mode, SIM_CLASS_SALU, SIM_MEM_NONE, SEM_SETREG, 0, 0},
        {"s_denorm_mode", s_denorm_mode, SIM_CLASS_SALU, SIM_MEM_NONE, SEM_SETREG | SEM_DENORM, 0,
         0},
};

const struct sim_sem *sim_sems_salu(unsigned *n)
{
	*n = sizeof salu_sems / sizeof salu_sems[0];
	return salu_sems;
}
