/* sem_s12: semantics of the scalar instructions gfx12 added: the split memory-counter waits
 * (s_wait_loadcnt/storecnt/dscnt/kmcnt/expcnt/samplecnt/bvhcnt and the combined
 * s_wait_loadcnt_dscnt/s_wait_storecnt_dscnt), the split work-group barrier
 * (s_barrier_signal/s_barrier_wait), 64-bit scalar add/sub/multiply and the f32 scalar float
 * operations (SOP1/SOP2/SOPC with f32 operands), reached through the table at the end.
 * Counters follow the RDNA4 ISA and LLVM's AMDGPUBaseInfo: the combined waits hold dscnt in
 * bits [5:0] and loadcnt/storecnt in bits [13:8].  Scalar f32 arithmetic rounds and flushes
 * denormals as the MODE register says (the same host rounding VALU code uses).
 * complexity: O(1) per instruction (waits: O(outstanding operations), in check.c). */
#include <math.h>

#include "sim_int.h"
#include "valu.h"

#define RD32(i)  sim_rd_s32(w, in, in->src[i])
#define RD64(i)  sim_rd_s64(w, in, in->src[i], false)
#define WR32(v)  sim_wr_s32(w, in->dst, (v))
#define WR64(v)  sim_wr_s64(w, in->dst, (v))
#define SIMM16() ((uint32_t)in->imm & 0xffff)

/* ---- waits ---- */
static void s_wait_loadcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_VM, SIMM16());
}
static void s_wait_storecnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_VS, SIMM16());
}
static void s_wait_dscnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_LGKM, SIMM16());
}
static void s_wait_kmcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_KM, SIMM16());
}
static void s_wait_expcnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_EXP, SIMM16());
}
/* image sampling and BVH operations are not simulated: nothing is ever outstanding there */
static void s_wait_none(struct sim_wave *w, const struct sim_insn *in)
{
	(void)w;
	(void)in;
}
static void s_wait_loadcnt_dscnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_VM, (SIMM16() >> 8) & 63);
	sim_chk_wait(w, in, CNT_LGKM, SIMM16() & 63);
}
static void s_wait_storecnt_dscnt(struct sim_wave *w, const struct sim_insn *in)
{
	sim_chk_wait(w, in, CNT_VS, (SIMM16() >> 8) & 63);
	sim_chk_wait(w, in, CNT_LGKM, SIMM16() & 63);
}

/* ---- barrier: signal marks the wave arrived, wait blocks until every wave signalled ---- */
static void s_barrier_signal(struct sim_wave *w, const struct sim_insn *in)
{
	/* -1 is the work-group barrier; named barriers (ids in M0 or >= 0) are not simulated */
	if (RD32(0) != 0xffffffffu) {
		sim_fault(w,
		          "s_barrier_signal of barrier %d: only the work-group barrier (-1) is "
		          "simulated",
		          (int32_t)RD32(0));
		return;
	}
	if (w->barrier_signalled)
		sim_fault(w, "s_barrier_signal twice without s_barrier_wait");
	w->barrier_signalled = true;
}
static void s_barrier_wait(struct sim_wave *w, const struct sim_insn *in)
{
	if ((int16_t)SIMM16() != -1) {
		sim_fault(w, "s_barrier_wait %d: only the work-group barrier (-1) is simulated",
		          (int16_t)SIMM16());
		return;
	}
	if (!w->barrier_signalled) {
		sim_fault(w, "s_barrier_wait without a preceding s_barrier_signal (would hang)");
		return;
	}
	w->barrier_signalled = false;
	w->at_barrier = true;
}

/* ---- 64-bit integer ---- */
static void s_add_nc_u64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(RD64(0) + RD64(1));
}
static void s_sub_nc_u64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(RD64(0) - RD64(1));
}
static void s_mul_u64(struct sim_wave *w, const struct sim_insn *in)
{
	WR64(RD64(0) * RD64(1));
}

/* ---- f32 scalar float: MODE rounding and denormal flushing as for VALU f32 ---- */
struct sflt {
	bool ftz_in, ftz_out;
};

static struct sflt sflt_begin(struct sim_wave *w)
{
	unsigned dn = (w->mode >> 4) & 3;
	sim_set_host_round(w, w->mode & 3);
	return (struct sflt){dn == 0 || dn == 2, dn == 0 || dn == 1};
}
static float sf_in(const struct sflt *m, uint32_t b)
{
	if (m->ftz_in && (b & 0x7f800000u) == 0)
		b &= 0x80000000u;
	return sim_as_f32(b);
}
static float src_f(struct sim_wave *w, const struct sim_insn *in, const struct sflt *m, int i)
{
	return sf_in(m, RD32(i));
}

#define SF2(fn, expr)                                                                              \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		struct sflt m = sflt_begin(w);                                                     \
		float a = src_f(w, in, &m, 0), b = src_f(w, in, &m, 1);                            \
		WR32(ftz32((expr), m.ftz_out));                                                    \
	}
SF2(s_add_f32, a + b)
SF2(s_sub_f32, a - b)
SF2(s_mul_f32, a *b)
SF2(s_min_num_f32, fminf_hw(a, b))
SF2(s_max_num_f32, fmaxf_hw(a, b))

static void s_fmac_f32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	float d = sf_in(&m, sim_rd_s32(w, in, in->dst));
	WR32(ftz32(fmaf(src_f(w, in, &m, 0), src_f(w, in, &m, 1), d), m.ftz_out));
}
static void s_fmamk_f32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	float k = sf_in(&m, in->literal);
	WR32(ftz32(fmaf(src_f(w, in, &m, 0), k, src_f(w, in, &m, 1)), m.ftz_out));
}
static void s_fmaak_f32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	float k = sf_in(&m, in->literal);
	WR32(ftz32(fmaf(src_f(w, in, &m, 0), src_f(w, in, &m, 1), k), m.ftz_out));
}

#define SF1(fn, expr)                                                                              \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		struct sflt m = sflt_begin(w);                                                     \
		float a = src_f(w, in, &m, 0);                                                     \
		WR32(ftz32((expr), m.ftz_out));                                                    \
	}
SF1(s_floor_f32, floorf(a))
SF1(s_ceil_f32, ceilf(a))
SF1(s_trunc_f32, truncf(a))
SF1(s_rndne_f32, nearbyintf(a))

static void s_cvt_f32_i32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	WR32(ftz32((float)(int32_t)RD32(0), m.ftz_out));
}
static void s_cvt_f32_u32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	WR32(ftz32((float)RD32(0), m.ftz_out));
}
/* float to integer: truncation, saturating, NaN gives 0 (as v_cvt_*_f32) */
static void s_cvt_i32_f32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	float a = src_f(w, in, &m, 0);
	int32_t r = isnan(a)              ? 0
	            : a >= 2147483648.0f  ? INT32_MAX
	            : a <= -2147483648.0f ? INT32_MIN
	                                  : (int32_t)a;
	WR32((uint32_t)r);
}
static void s_cvt_u32_f32(struct sim_wave *w, const struct sim_insn *in)
{
	struct sflt m = sflt_begin(w);
	float a = src_f(w, in, &m, 0);
	uint32_t r = isnan(a) || a <= 0.0f ? 0 : a >= 4294967296.0f ? UINT32_MAX : (uint32_t)a;
	WR32(r);
}

#define SFCMP(fn, expr)                                                                            \
	static void fn(struct sim_wave *w, const struct sim_insn *in)                              \
	{                                                                                          \
		struct sflt m = sflt_begin(w);                                                     \
		float a = src_f(w, in, &m, 0), b = src_f(w, in, &m, 1);                            \
		w->scc = (expr);                                                                   \
	}
SFCMP(s_cmp_lt_f32, a < b)
SFCMP(s_cmp_eq_f32, a == b)
SFCMP(s_cmp_le_f32, a <= b)
SFCMP(s_cmp_gt_f32, a > b)
SFCMP(s_cmp_lg_f32, a<b || a> b)
SFCMP(s_cmp_ge_f32, a >= b)
SFCMP(s_cmp_neq_f32, !(a == b))
SFCMP(s_cmp_nlt_f32, !(a < b))

#define S(n)                                                                                       \
	{                                                                                          \
#n, n, SIM_CLASS_SALU, SIM_MEM_NONE, 0, 0, 0                                       \
	}
#define W(n)                                                                                       \
	{                                                                                          \
#n, n, SIM_CLASS_WAITCNT, SIM_MEM_NONE, SEM_WAITCNT, 0, 0                          \
	}

static const struct sim_sem s12_sems[] = {
        W(s_wait_loadcnt),
        W(s_wait_storecnt),
        W(s_wait_dscnt),
        W(s_wait_kmcnt),
        W(s_wait_expcnt),
        {"s_wait_samplecnt", s_wait_none, SIM_CLASS_WAITCNT, SIM_MEM_NONE, SEM_WAITCNT, 0, 0},
        {"s_wait_bvhcnt", s_wait_none, SIM_CLASS_WAITCNT, SIM_MEM_NONE, SEM_WAITCNT, 0, 0},
        W(s_wait_loadcnt_dscnt),
        W(s_wait_storecnt_dscnt),
        {"s_wait_alu", s_wait_none, SIM_CLASS_NOP, SIM_MEM_NONE, SEM_DEPCTR, 0, 0},
        {"s_barrier_signal", s_barrier_signal, SIM_CLASS_BARRIER, SIM_MEM_NONE, 0, 0, 0},
        {"s_barrier_wait", s_barrier_wait, SIM_CLASS_BARRIER, SIM_MEM_NONE, 0, 0, 0},
        S(s_add_nc_u64),
        S(s_sub_nc_u64),
        S(s_mul_u64),
        S(s_add_f32),
        S(s_sub_f32),
        S(s_mul_f32),
        S(s_min_num_f32),
        S(s_max_num_f32),
        S(s_fmac_f32),
        S(s_fmamk_f32),
        S(s_fmaak_f32),
        S(s_floor_f32),
        S(s_ceil_f32),
        S(s_trunc_f32),
        S(s_rndne_f32),
        S(s_cvt_f32_i32),
        S(s_cvt_f32_u32),
        S(s_cvt_i32_f32),
        S(s_cvt_u32_f32),
        S(s_cmp_lt_f32),
        S(s_cmp_eq_f32),
        S(s_cmp_le_f32),
        S(s_cmp_gt_f32),
        S(s_cmp_lg_f32),
        S(s_cmp_ge_f32),
        S(s_cmp_neq_f32),
        S(s_cmp_nlt_f32),
};

const struct sim_sem *sim_sems_s12(unsigned *n)
{
	*n = sizeof s12_sems / sizeof s12_sems[0];
	return s12_sems;
}
