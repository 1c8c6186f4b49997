/* sem_mem: semantics of the memory instructions: scalar loads (SMEM), global/flat/scratch and
 * buffer loads, stores and atomics, LDS (DS) loads, stores, atomics and the DS cross-lane
 * operations (ds_swizzle, ds_permute, ds_bpermute).
 * A few generic functions serve all rows: the row's `bytes` column is the access size per lane
 * and `arg` the load extension or atomic operation.  The access happens functionally at issue;
 * the checker (check.c) records when the destination registers become valid.  Flat addresses
 * in the LDS or private apertures are routed there; every other address must fall inside a
 * device allocation or the run stops with an out-of-bounds error naming the PC.
 * complexity: O(lanes x bytes) per instruction. */
#include <math.h>
#include <string.h>

#include "cu_model.h"
#include "valu.h"

enum { SHARED_HI = 0x10000, PRIVATE_HI = 0x20000 };
/* load data placement (`arg` column of load rows) */
enum ext { EXT_NONE = 0, EXT_SIGN = 1, D16 = 2, D16_HI = 4 };
enum aop {
	A_SWAP = 1,
	A_CMPSWAP,
	A_ADD,
	A_SUB,
	A_SMIN,
	A_UMIN,
	A_SMAX,
	A_UMAX,
	A_AND,
	A_OR,
	A_XOR,
	A_INC,
	A_DEC,
	A_FADD,
	A_FMIN, /* the pseudo-code of *_MIN_F32/_F64 before gfx12 (fminmax below) */
	A_FMAX,
	A_FMIN_NUM, /* gfx12's *_MIN_NUM_F32/_F64: v_min_num's rule */
	A_FMAX_NUM,
	A_RSUB,
	A_CMPSTORE /* gfx11 ds_cmpstore: data0 is the new value, data1 the compare value */
};

/* Float atomic min/max of the memory word `old` (tmp) and the data `src`, as bits.  Before
 * gfx12 the ISA's pseudo-code (CDNA3 and RDNA3 ISA guides, DS_MIN_F32, GLOBAL_ATOMIC_MIN_F32,
 * BUFFER_/FLAT_ alike) is `MEM = src < tmp ? src : tmp` (max: `>`), "floating-point compare
 * handles NAN/INF/denorm": an IEEE compare, so a NaN on either side keeps the memory word,
 * as do equal values (-0 against +0), and no value is flushed or quieted.  gfx12's *_NUM_*
 * forms follow their VALU namesakes v_min_num/v_max_num (docs/SIMULATOR.md): a NaN operand
 * gives the other operand (two NaNs: tmp, quieted), and -0 < +0. */
static uint64_t fminmax(int op, unsigned n, uint64_t old, uint64_t src)
{
	double t = n == 8 ? sim_as_f64(old) : sim_as_f32((uint32_t)old);
	double s = n == 8 ? sim_as_f64(src) : sim_as_f32((uint32_t)src);
	bool is_min = op == A_FMIN || op == A_FMIN_NUM;
	if (op == A_FMIN || op == A_FMAX)
		return (is_min ? s < t : s > t) ? src : old;
	uint64_t quiet = n == 8 ? 1ull << 51 : 1ull << 22;
	if (isnan(t) && isnan(s))
		return old | quiet;
	if (isnan(t) || isnan(s))
		return isnan(t) ? src : old;
	if (s == t && signbit(s) != signbit(t)) /* -0 against +0 */
		return (signbit(s) != 0) == is_min ? src : old;
	return (is_min ? s < t : s > t) ? src : old;
}

/* Byte address of private (scratch) offset `off` of lane `lane`: the hardware swizzles dwords
 * so consecutive lanes' same dword are adjacent. */
static uint64_t scratch_addr(const struct sim_wave *w, uint32_t off, unsigned lane)
{
	return w->scratch_base + (uint64_t)(off / 4) * 4 * w->nlanes + lane * 4 + (off & 3);
}

static uint8_t *lds_ptr(struct sim_wave *w, uint32_t addr, unsigned n)
{
	struct sim_ctx *c = w->ctx;
	if ((uint64_t)addr + n > c->lds_size) {
		sim_fault(w, "LDS access at 0x%x (%u bytes) outside the %u bytes allocated", addr,
		          n, c->lds_size);
		return NULL;
	}
	if (w->tr)
		cu_trace_addr(w, addr, n, true);
	return c->lds + addr;
}

/* Host pointer for n bytes at flat/global address a of lane l (scratch handled per dword). */
static uint8_t *vmem_ptr(struct sim_wave *w, uint64_t a, unsigned n, unsigned l, bool write)
{
	uint32_t hi = (uint32_t)(a >> 32);
	if (hi == SHARED_HI)
		return lds_ptr(w, (uint32_t)a, n);
	if (hi == PRIVATE_HI) {
		if ((a & 3) + n > 4) {
			sim_fault(w, "private access crosses a dword");
			return NULL;
		}
		if (w->tr)
			cu_trace_addr(w, scratch_addr(w, (uint32_t)a, l), n, false);
		return sim_mem_map(w->ctx, scratch_addr(w, (uint32_t)a, l), n, write);
	}
	uint8_t *p = sim_mem_map(w->ctx, a, n, write);
	w->ctx->mem_writes += write;
	if (w->tr)
		cu_trace_addr(w, a, n, false);
	if (!p)
		sim_fault(w, "out-of-bounds %s of %u bytes at address 0x%llx (lane %u)",
		          write ? "store" : "load", n, (unsigned long long)a, l);
	return p;
}

/* Copies n bytes between lane memory and VGPR lane values, dword by dword (scratch is
 * swizzled per dword, so each dword is mapped separately). */
static bool lane_access(struct sim_wave *w, uint64_t a, unsigned n, unsigned l, uint8_t *buf,
                        bool write)
{
	if ((uint32_t)(a >> 32) == PRIVATE_HI) {
		/* swizzled per dword: split the access at dword boundaries */
		for (unsigned i = 0, k; i < n; i += k) {
			k = 4 - (unsigned)((a + i) & 3);
			k = k < n - i ? k : n - i;
			uint8_t *p = vmem_ptr(w, a + i, k, l, write);
			if (!p)
				return false;
			if (write)
				memcpy(p, buf + i, k);
			else
				memcpy(buf + i, p, k);
		}
		return true;
	}
	uint8_t *p = vmem_ptr(w, a, n, l, write);
	if (!p)
		return false;
	if (write)
		memcpy(p, buf, n);
	else
		memcpy(buf, p, n);
	return true;
}

/* Flat scratch (scratch_* and flat accesses in the private aperture) reaches the wave's
 * scratch through FLAT_SCRATCH, which the kernel must set from flat_scratch_init and its
 * wave offset where it is not architected (gfx90a: the flat_scratch_lo/hi SGPRs, codes
 * 102/103; gfx1030: s_setreg of FLAT_SCR_LO/HI).  Anything else is a fault. */
static void check_flat_scratch(struct sim_wave *w)
{
	struct sim_ctx *c = w->ctx;
	if (c->co->target.info->architected_flat_scratch)
		return;
	uint64_t fs =
	        c->gen == AMD_GFX10 ? w->flat_scratch : (w->s[102] | (uint64_t)w->s[103] << 32);
	if (fs != w->scratch_base)
		sim_fault(
		        w,
		        "scratch access with FLAT_SCRATCH = 0x%llx, but this wave's scratch is at "
		        "0x%llx (flat_scratch_init + wave offset not set up)",
		        (unsigned long long)fs, (unsigned long long)w->scratch_base);
}

/* Per-lane addresses of a global/flat/scratch instruction. */
static void flat_addrs(struct sim_wave *w, const struct sim_insn *in, uint64_t exec, uint64_t *addr)
{
	unsigned vreg = in->src[0] - SIM_VGPR0;
	if (in->fmt == SIM_FMT_SCRATCH) {
		uint32_t base = in->saddr != SIM_NULL ? sim_rd_s32(w, in, in->saddr) : 0;
		if (in->idxen)
			sim_chk_read_v(w, in, vreg, 1);
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			uint32_t off =
			        base + (uint32_t)in->imm + (in->idxen ? VROW(w, vreg)[l] : 0);
			addr[l] = ((uint64_t)PRIVATE_HI << 32) | off;
		}
		if (exec)
			check_flat_scratch(w);
		return;
	}
	if (in->fmt == SIM_FMT_GLOBAL && in->saddr != SIM_NULL) {
		sim_chk_sgpr_vmem(w, in, in->saddr, 2);
		uint64_t base = sim_rd_s64(w, in, in->saddr, false);
		sim_chk_read_v(w, in, vreg, 1);
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			addr[l] = base + VROW(w, vreg)[l] + (int64_t)in->imm;
		}
		return;
	}
	sim_chk_read_v(w, in, vreg, 2);
	bool is_private = false;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		addr[l] = ((uint64_t)VROW(w, vreg + 1)[l] << 32 | VROW(w, vreg)[l]) +
		          (int64_t)in->imm;
		is_private |= (uint32_t)(addr[l] >> 32) == PRIVATE_HI;
	}
	if (is_private)
		check_flat_scratch(w);
}

/* Buffer addresses from the V# in SGPRs saddr..saddr+3. Returns false for out-of-range lanes
 * (removed from *exec: loads return 0, stores are dropped, as the hardware does). */
static void buffer_addrs(struct sim_wave *w, const struct sim_insn *in, uint64_t *exec,
                         uint64_t *addr, uint64_t *zero)
{
	sim_chk_sgpr_vmem(w, in, in->saddr, 4);
	uint32_t d[4];
	for (int i = 0; i < 4; i++)
		d[i] = sim_rd_s32(w, in, (uint16_t)(in->saddr + i));
	uint64_t base = d[0] | ((uint64_t)(d[1] & 0xffff) << 32);
	uint32_t stride = (d[1] >> 16) & 0x3fff, nrec = d[2];
	uint32_t soff = sim_rd_s32(w, in, in->soffset);
	unsigned vreg = in->src[0] - SIM_VGPR0;
	/* the private segment buffer; gfx10 code adds the scratch wave offset to its base */
	struct sim_region *sr =
	        w->ctx->scratch_addr ? sim_mem_region(w->ctx, w->ctx->scratch_addr) : NULL;
	bool scratch = sr && base >= sr->base && base - sr->base < sr->size;
	if (in->offen || in->idxen)
		sim_chk_read_v(w, in, vreg, in->offen && in->idxen ? 2 : 1);
	*zero = 0;
	for (uint64_t m = *exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t idx = in->idxen ? VROW(w, vreg)[l] : 0;
		uint32_t voff = in->offen ? VROW(w, vreg + (in->idxen ? 1 : 0))[l] : 0;
		uint64_t off = (uint64_t)voff + (uint32_t)in->imm;
		if (scratch) {
			/* private segment buffer: base + soffset is the wave's scratch, the
			 * offset is swizzled per lane (as a private address) */
			uint64_t wave_off = w->scratch_base - w->ctx->scratch_addr;
			uint64_t base_off = base - w->ctx->scratch_addr;
			addr[l] = ((uint64_t)PRIVATE_HI << 32) |
			          (uint32_t)(base_off + soff - wave_off + off);
			continue;
		}
		uint64_t rec = stride ? idx : off;
		if (rec >= nrec) {
			*zero |= 1ull << l;
			continue;
		}
		addr[l] = base + soff + off + (uint64_t)idx * stride;
	}
	*exec &= ~*zero;
}

static uint64_t sext(uint64_t v, unsigned bytes)
{
	unsigned sh = 64 - 8 * bytes;
	return (uint64_t)((int64_t)(v << sh) >> sh);
}

/* Value a 1- or 2-byte load leaves in its 32-bit destination: zero/sign extended, or (d16)
 * extended to 16 bits in the low or high half with the other half kept. */
static uint32_t narrow_value(unsigned arg, const uint8_t *buf, unsigned n, uint32_t old)
{
	uint64_t v = 0;
	memcpy(&v, buf, n);
	if (arg & EXT_SIGN)
		v = sext(v, n);
	if (arg & D16_HI)
		return (old & 0xffff) | ((uint32_t)v << 16);
	if (arg & D16)
		return (old & 0xffff0000u) | ((uint32_t)v & 0xffff);
	return (uint32_t)v;
}

static void vmem_load(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t exec = sim_exec(w), addr[64], zero = 0;
	unsigned n = in->sem->bytes, nregs = (n + 3) / 4;
	if (in->fmt == SIM_FMT_MUBUF)
		buffer_addrs(w, in, &exec, addr, &zero);
	else
		flat_addrs(w, in, exec, addr);
	unsigned dreg = in->dst - SIM_VGPR0 + (in->acc ? 256 : 0);
	if (dreg + nregs > SIM_MAX_VREGS) {
		sim_fault(w, "load destination out of range");
		return;
	}
	sim_chk_write_v(w, in, dreg, nregs);
	uint32_t op = sim_chk_issue(w, in);
	for (uint64_t m = exec | zero; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t buf[16] = {0};
		if (((exec >> l) & 1) && !lane_access(w, addr[l], n, l, buf, false))
			return;
		if (n < 4) {
			VROW(w, dreg)[l] = narrow_value(in->sem->arg, buf, n, VROW(w, dreg)[l]);
			continue;
		}
		for (unsigned i = 0; i < nregs; i++)
			memcpy(&VROW(w, dreg + i)[l], buf + 4 * i, 4);
	}
	sim_chk_pending_v(w, op, dreg, nregs);
}

static void vmem_store(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t exec = sim_exec(w), addr[64], zero = 0;
	unsigned n = in->sem->bytes, nregs = (n + 3) / 4;
	if (in->fmt == SIM_FMT_MUBUF)
		buffer_addrs(w, in, &exec, addr, &zero);
	else
		flat_addrs(w, in, exec, addr);
	unsigned sreg = in->src[1] - SIM_VGPR0 + (in->acc ? 256 : 0);
	sim_chk_read_v(w, in, sreg, nregs);
	sim_chk_issue(w, in);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t buf[16];
		for (unsigned i = 0; i < nregs; i++)
			memcpy(buf + 4 * i, &VROW(w, sreg + i)[l], 4);
		if (in->sem->arg & D16_HI)
			memcpy(buf, (uint8_t *)&VROW(w, sreg)[l] + 2, 2);
		if (!lane_access(w, addr[l], n, l, buf, true))
			return;
	}
}

static uint64_t atomic_apply(unsigned op, uint64_t old, uint64_t src, uint64_t cmp, unsigned n)
{
	uint64_t mask = n == 8 ? ~0ull : 0xffffffffull;
	int64_t so = n == 8 ? (int64_t)old : (int32_t)old,
	        ss = n == 8 ? (int64_t)src : (int32_t)src;
	switch (op) {
	case A_SWAP:
		return src;
	case A_CMPSWAP:
		return old == cmp ? src : old;
	case A_ADD:
		return (old + src) & mask;
	case A_SUB:
		return (old - src) & mask;
	case A_RSUB:
		return (src - old) & mask;
	case A_SMIN:
		return (uint64_t)(so < ss ? so : ss) & mask;
	case A_SMAX:
		return (uint64_t)(so > ss ? so : ss) & mask;
	case A_UMIN:
		return old < src ? old : src;
	case A_UMAX:
		return old > src ? old : src;
	case A_AND:
		return old & src;
	case A_OR:
		return old | src;
	case A_XOR:
		return old ^ src;
	case A_INC:
		return old >= src ? 0 : old + 1;
	case A_DEC:
		return (old == 0 || old > src) ? src : old - 1;
	case A_FADD:
		if (n == 8)
			return sim_f64_bits(sim_as_f64(old) + sim_as_f64(src));
		return sim_f32_bits(sim_as_f32((uint32_t)old) + sim_as_f32((uint32_t)src));
	case A_FMIN:
	case A_FMAX:
	case A_FMIN_NUM:
	case A_FMAX_NUM:
		return fminmax(op, n, old, src);
	default:
		return old;
	}
}

static bool atomic_returns(const struct sim_wave *w, const struct sim_insn *in)
{
	return in->glc; /* glc (gfx9/gfx11) and sc0 (gfx940) select the returning form */
}

static void vmem_atomic(struct sim_wave *w, const struct sim_insn *in)
{
	uint64_t exec = sim_exec(w), addr[64], zero = 0;
	unsigned n = in->sem->bytes, nregs = n / 4, op = in->sem->arg;
	if (in->fmt == SIM_FMT_MUBUF)
		buffer_addrs(w, in, &exec, addr, &zero);
	else
		flat_addrs(w, in, exec, addr);
	unsigned sreg = in->src[1] - SIM_VGPR0, dreg = in->dst - SIM_VGPR0;
	bool ret = atomic_returns(w, in);
	sim_chk_read_v(w, in, sreg, op == A_CMPSWAP ? 2 * nregs : nregs);
	if (ret)
		sim_chk_write_v(w, in, dreg, nregs);
	uint32_t id = sim_chk_issue(w, in);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t *p = vmem_ptr(w, addr[l], n, l, true);
		if (!p)
			return;
		uint64_t old = 0, src = VROW(w, sreg)[l], cmp = 0;
		memcpy(&old, p, n);
		if (n == 8)
			src |= (uint64_t)VROW(w, sreg + 1)[l] << 32;
		if (op == A_CMPSWAP) {
			cmp = VROW(w, sreg + nregs)[l];
			if (n == 8)
				cmp |= (uint64_t)VROW(w, sreg + nregs + 1)[l] << 32;
		}
		uint64_t nv = atomic_apply(op, old, src, cmp, n);
		memcpy(p, &nv, n);
		if (ret) {
			VROW(w, dreg)[l] = (uint32_t)old;
			if (n == 8)
				VROW(w, dreg + 1)[l] = (uint32_t)(old >> 32);
		}
	}
	if (ret)
		sim_chk_pending_v(w, id, dreg, nregs);
}

/* ---- SMEM ---- */
static void s_load(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned n = in->sem->bytes;
	uint64_t base;
	if (in->sem->arg) { /* s_buffer_load: base from a V# */
		uint32_t d0 = sim_rd_s32(w, in, in->saddr), d1 = sim_rd_s32(w, in, in->saddr + 1);
		base = d0 | ((uint64_t)(d1 & 0xffff) << 32);
		sim_chk_read_s(w, in, in->saddr, 4);
	} else {
		base = sim_rd_s64(w, in, in->saddr, false);
	}
	uint64_t a = base + (int64_t)in->imm;
	if (in->soffset != SIM_NULL)
		a += sim_rd_s32(w, in, in->soffset);
	a &= ~3ull;
	if (in->dst + n / 4 > 106) {
		sim_fault(w, "scalar load destination out of range");
		return;
	}
	uint8_t *p = sim_mem_map(w->ctx, a, n, false);
	if (!p) {
		sim_fault(w, "out-of-bounds scalar load of %u bytes at address 0x%llx", n,
		          (unsigned long long)a);
		return;
	}
	sim_chk_write_s(w, in, in->dst, n / 4);
	uint32_t id = sim_chk_issue(w, in);
	memcpy(&w->s[in->dst], p, n);
	sim_chk_pending_s(w, id, in->dst, n / 4);
}

/* Time counters: s_memtime (the wave's cycle counter), s_memrealtime and s_sendmsg_rtn_b64
 * MSG_RTN_GET_REALTIME (the "100 MHz" realtime counter: one tick per SIM_REALTIME_CYCLES
 * cycles of the wave's clock).  Deterministic, and monotone within a wave; results return
 * through lgkmcnt/kmcnt like a scalar load. */
static void write_counter(struct sim_wave *w, const struct sim_insn *in, uint64_t v)
{
	if (in->dst + 2 > 106) {
		sim_fault(w, "counter destination out of range");
		return;
	}
	sim_chk_write_s(w, in, in->dst, 2);
	uint32_t id = sim_chk_issue(w, in);
	w->s[in->dst] = (uint32_t)v;
	w->s[in->dst + 1] = (uint32_t)(v >> 32);
	sim_chk_pending_s(w, id, in->dst, 2);
}

static void s_memtime(struct sim_wave *w, const struct sim_insn *in)
{
	write_counter(w, in, w->clock);
}

static void s_memrealtime(struct sim_wave *w, const struct sim_insn *in)
{
	write_counter(w, in, w->clock / SIM_REALTIME_CYCLES);
}

static void s_sendmsg_rtn_b64(struct sim_wave *w, const struct sim_insn *in)
{
	enum { MSG_RTN_GET_REALTIME = 131 };
	if (in->src[0] != MSG_RTN_GET_REALTIME) {
		sim_fault(w, "s_sendmsg_rtn_b64 message %u is not simulated", in->src[0]);
		return;
	}
	write_counter(w, in, w->clock / SIM_REALTIME_CYCLES);
}

/* ---- LDS ---- */
static uint32_t ds_addr(struct sim_wave *w, const struct sim_insn *in, unsigned l)
{
	return VROW(w, in->src[0] - SIM_VGPR0)[l];
}

/* The aligned mode's rule (LLVM's DS selection patterns outside unaligned-access-mode): an
 * element of n bytes needs n-byte alignment, ds_read/write_b96 16 bytes; ds_read2/write2
 * check each of their two elements (at off0 and off1 from the lane's address).  Under
 * SH_MEM_CONFIG UNALIGNED (HIP's, the default) nothing is required.  One report per
 * instruction, for the lowest misaligned lane. */
static void ds_check_align(struct sim_wave *w, const struct sim_insn *in, uint32_t off0,
                           uint32_t off1, unsigned n)
{
	if (!w->ctx->opt->strict_alignment)
		return;
	uint32_t mask = (n == 12 ? 16 : n) - 1;
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t a0 = ds_addr(w, in, l) + off0, a1 = a0 - off0 + off1;
		if ((a0 | a1) & mask) {
			w->ctx->stats->misaligned++;
			sim_violation(
			        w, in,
			        "misaligned LDS access: address 0x%x (lane %u) is not %u-byte "
			        "aligned (aligned alignment mode)",
			        a0 & mask ? a0 : a1, l, mask + 1);
			return;
		}
	}
}

static void ds_load(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned n = in->sem->bytes, nregs = (n + 3) / 4;
	unsigned dreg = in->dst - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	uint32_t off = in->imm | (in->imm2 << 8);
	sim_chk_read_v(w, in, in->src[0] - SIM_VGPR0, 1);
	sim_chk_write_v(w, in, dreg, nregs);
	uint32_t id = sim_chk_issue(w, in);
	ds_check_align(w, in, off, off, n);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t *p = lds_ptr(w, ds_addr(w, in, l) + off, n);
		if (!p)
			return;
		if (n < 4) {
			VROW(w, dreg)[l] = narrow_value(in->sem->arg, p, n, VROW(w, dreg)[l]);
		} else {
			for (unsigned i = 0; i < nregs; i++)
				memcpy(&VROW(w, dreg + i)[l], p + 4 * i, 4);
		}
	}
	sim_chk_pending_v(w, id, dreg, nregs);
}

/* ds_read2 / ds_load_2addr: two elements at offset0 and offset1 (x size, x64 for stride64) */
static void ds_load2(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned n = in->sem->bytes, nregs = n / 4, scale = n * (in->sem->arg ? 64 : 1);
	unsigned dreg = in->dst - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, in->src[0] - SIM_VGPR0, 1);
	sim_chk_write_v(w, in, dreg, 2 * nregs);
	uint32_t id = sim_chk_issue(w, in);
	ds_check_align(w, in, (uint32_t)in->imm * scale, in->imm2 * scale, n);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t a = ds_addr(w, in, l);
		uint8_t *p0 = lds_ptr(w, a + (uint32_t)in->imm * scale, n);
		uint8_t *p1 = lds_ptr(w, a + in->imm2 * scale, n);
		if (!p0 || !p1)
			return;
		for (unsigned i = 0; i < nregs; i++) {
			memcpy(&VROW(w, dreg + i)[l], p0 + 4 * i, 4);
			memcpy(&VROW(w, dreg + nregs + i)[l], p1 + 4 * i, 4);
		}
	}
	sim_chk_pending_v(w, id, dreg, 2 * nregs);
}

static void ds_store(struct sim_wave *w, const struct sim_insn *in)
{
	w->ctx->mem_writes++;
	unsigned n = in->sem->bytes, nregs = (n + 3) / 4;
	unsigned sreg = in->src[1] - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	uint32_t off = in->imm | (in->imm2 << 8);
	sim_chk_read_v(w, in, in->src[0] - SIM_VGPR0, 1);
	sim_chk_read_v(w, in, sreg, nregs);
	sim_chk_issue(w, in);
	ds_check_align(w, in, off, off, n);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t *p = lds_ptr(w, ds_addr(w, in, l) + off, n);
		if (!p)
			return;
		uint8_t buf[16];
		for (unsigned i = 0; i < nregs; i++)
			memcpy(buf + 4 * i, &VROW(w, sreg + i)[l], 4);
		if (in->sem->arg & D16_HI)
			memcpy(buf, (uint8_t *)&VROW(w, sreg)[l] + 2, 2);
		memcpy(p, buf, n);
	}
}

static void ds_store2(struct sim_wave *w, const struct sim_insn *in)
{
	w->ctx->mem_writes++;
	unsigned n = in->sem->bytes, nregs = n / 4, scale = n * (in->sem->arg ? 64 : 1);
	unsigned s0 = in->src[1] - SIM_VGPR0, s1 = in->src[2] - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, in->src[0] - SIM_VGPR0, 1);
	sim_chk_read_v(w, in, s0, nregs);
	sim_chk_read_v(w, in, s1, nregs);
	sim_chk_issue(w, in);
	ds_check_align(w, in, (uint32_t)in->imm * scale, in->imm2 * scale, n);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t a = ds_addr(w, in, l);
		uint8_t *p0 = lds_ptr(w, a + (uint32_t)in->imm * scale, n);
		uint8_t *p1 = lds_ptr(w, a + in->imm2 * scale, n);
		if (!p0 || !p1)
			return;
		for (unsigned i = 0; i < nregs; i++) {
			memcpy(p0 + 4 * i, &VROW(w, s0 + i)[l], 4);
			memcpy(p1 + 4 * i, &VROW(w, s1 + i)[l], 4);
		}
	}
}

/* DS atomics; `_rtn` rows return the old value (bytes column 4 or 8; +16 marks rtn). */
static void ds_atomic(struct sim_wave *w, const struct sim_insn *in)
{
	w->ctx->mem_writes++;
	unsigned n = in->sem->bytes & 15, nregs = n / 4, op = in->sem->arg;
	bool ret = in->sem->bytes & 16;
	unsigned s0 = in->src[1] - SIM_VGPR0, s1 = in->src[2] - SIM_VGPR0,
	         dreg = in->dst - SIM_VGPR0;
	uint64_t exec = sim_exec(w);
	uint32_t off = in->imm | (in->imm2 << 8);
	sim_chk_read_v(w, in, in->src[0] - SIM_VGPR0, 1);
	sim_chk_read_v(w, in, s0, nregs);
	if (op == A_CMPSWAP || op == A_CMPSTORE)
		sim_chk_read_v(w, in, s1, nregs);
	if (ret)
		sim_chk_write_v(w, in, dreg, nregs);
	uint32_t id = sim_chk_issue(w, in);
	ds_check_align(w, in, off, off, n);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint8_t *p = lds_ptr(w, ds_addr(w, in, l) + off, n);
		if (!p)
			return;
		uint64_t old = 0, src = VROW(w, s0)[l], cmp = 0;
		memcpy(&old, p, n);
		if (n == 8)
			src |= (uint64_t)VROW(w, s0 + 1)[l] << 32;
		if (op == A_CMPSWAP || op == A_CMPSTORE) {
			/* ds_cmpst: data0 is the compare value, data1 the new value */
			uint64_t d1 = VROW(w, s1)[l];
			if (n == 8)
				d1 |= (uint64_t)VROW(w, s1 + 1)[l] << 32;
			cmp = op == A_CMPSWAP ? src : d1;
			src = op == A_CMPSWAP ? d1 : src;
		}
		uint64_t nv = atomic_apply(op == A_CMPSTORE ? A_CMPSWAP : op, old, src, cmp, n);
		memcpy(p, &nv, n);
		if (ret) {
			VROW(w, dreg)[l] = (uint32_t)old;
			if (n == 8)
				VROW(w, dreg + 1)[l] = (uint32_t)(old >> 32);
		}
	}
	if (ret)
		sim_chk_pending_v(w, id, dreg, nregs);
}

static void ds_swizzle_b32(struct sim_wave *w, const struct sim_insn *in)
{
	unsigned sreg = in->src[0] - SIM_VGPR0, dreg = in->dst - SIM_VGPR0;
	uint32_t off = in->imm | (in->imm2 << 8), tmp[64];
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, sreg, 1);
	sim_chk_write_v(w, in, dreg, 1);
	uint32_t id = sim_chk_issue(w, in);
	memcpy(tmp, VROW(w, sreg), sizeof tmp);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m), s;
		if (off & 0x8000)
			s = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
		else
			s = (l & ~31u) |
			    ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
		VROW(w, dreg)[l] = (exec >> s) & 1 ? tmp[s] : 0;
	}
	sim_chk_pending_v(w, id, dreg, 1);
}

static void ds_permute(struct sim_wave *w, const struct sim_insn *in)
{
	bool back = in->sem->arg;
	unsigned areg = in->src[0] - SIM_VGPR0, sreg = in->src[1] - SIM_VGPR0;
	unsigned dreg = in->dst - SIM_VGPR0;
	uint32_t off = in->imm | (in->imm2 << 8), tmp[64] = {0}, src[64];
	uint64_t exec = sim_exec(w);
	sim_chk_read_v(w, in, areg, 1);
	sim_chk_read_v(w, in, sreg, 1);
	sim_chk_write_v(w, in, dreg, 1);
	uint32_t id = sim_chk_issue(w, in);
	memcpy(src, VROW(w, sreg), sizeof src);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		unsigned t = ((VROW(w, areg)[l] + off) / 4) & (w->nlanes - 1);
		if (back)
			tmp[l] = (exec >> t) & 1 ? src[t] : 0;
		else
			tmp[t] = src[l];
	}
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		VROW(w, dreg)[l] = tmp[l];
	}
	sim_chk_pending_v(w, id, dreg, 1);
}

#define LD(n, b, e)                                                                                \
	{                                                                                          \
		n, vmem_load, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, b, e                          \
	}
#define ST(n, b)                                                                                   \
	{                                                                                          \
		n, vmem_store, SIM_CLASS_VMEM_STORE, SIM_MEM_VSTORE, 0, b, 0                       \
	}
#define AT(n, b, op)                                                                               \
	{                                                                                          \
		n, vmem_atomic, SIM_CLASS_VMEM_ATOMIC, SIM_MEM_VATOMIC_RET,                        \
		        (op) == A_FADD || (op) == A_FMIN || (op) == A_FMAX ||                      \
		                        (op) == A_FMIN_NUM || (op) == A_FMAX_NUM                   \
		                ? SEM_FP_ATOMIC                                                    \
		                : 0,                                                               \
		        b, op                                                                      \
	}
#define SL(n, b, buf)                                                                              \
	{                                                                                          \
		n, s_load, SIM_CLASS_SMEM, SIM_MEM_SMEM, 0, b, buf                                 \
	}
#define DL(n, b, e)                                                                                \
	{                                                                                          \
		n, ds_load, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, e                                    \
	}
#define DL2(n, b, e)                                                                               \
	{                                                                                          \
		n, ds_load2, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, e                                   \
	}
#define DS(n, b)                                                                                   \
	{                                                                                          \
		n, ds_store, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, 0                                   \
	}
#define DS2(n, b, e)                                                                               \
	{                                                                                          \
		n, ds_store2, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, e                                  \
	}
#define DA(n, b, op)                                                                               \
	{                                                                                          \
		n, ds_atomic, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, op                                 \
	}

/* one row per segment prefix for the vector memory ops */
#define VMEM_ROWS(p)                                                                               \
	LD(p "load_dword", 4, 0), LD(p "load_dwordx2", 8, 0), LD(p "load_dwordx3", 12, 0),         \
	        LD(p "load_dwordx4", 16, 0), LD(p "load_ubyte", 1, 0),                             \
	        LD(p "load_sbyte", 1, EXT_SIGN), LD(p "load_ushort", 2, 0),                        \
	        LD(p "load_sshort", 2, EXT_SIGN), LD(p "load_b32", 4, 0), LD(p "load_b64", 8, 0),  \
	        LD(p "load_b96", 12, 0), LD(p "load_b128", 16, 0), LD(p "load_u8", 1, 0),          \
	        LD(p "load_i8", 1, EXT_SIGN), LD(p "load_u16", 2, 0),                              \
	        LD(p "load_i16", 2, EXT_SIGN), ST(p "store_dword", 4), ST(p "store_dwordx2", 8),   \
	        ST(p "store_dwordx3", 12), ST(p "store_dwordx4", 16), ST(p "store_byte", 1),       \
	        ST(p "store_short", 2), ST(p "store_b32", 4), ST(p "store_b64", 8),                \
	        ST(p "store_b96", 12), ST(p "store_b128", 16), ST(p "store_b8", 1),                \
	        ST(p "store_b16", 2), LD(p "load_ubyte_d16", 1, D16),                              \
	        LD(p "load_ubyte_d16_hi", 1, D16_HI), LD(p "load_sbyte_d16", 1, D16 | EXT_SIGN),   \
	        LD(p "load_sbyte_d16_hi", 1, D16_HI | EXT_SIGN), LD(p "load_short_d16", 2, D16),   \
	        LD(p "load_short_d16_hi", 2, D16_HI), LD(p "load_d16_u8", 1, D16),                 \
	        LD(p "load_d16_i8", 1, D16 | EXT_SIGN), LD(p "load_d16_b16", 2, D16),              \
	        LD(p "load_d16_hi_u8", 1, D16_HI), LD(p "load_d16_hi_i8", 1, D16_HI | EXT_SIGN),   \
	        LD(p "load_d16_hi_b16", 2, D16_HI), STH(p "store_byte_d16_hi", 1),                 \
	        STH(p "store_short_d16_hi", 2), STH(p "store_d16_hi_b8", 1),                       \
	        STH(p "store_d16_hi_b16", 2)

#define ATOMIC_ROWS(p)                                                                             \
	AT(p "atomic_swap", 4, A_SWAP), AT(p "atomic_cmpswap", 4, A_CMPSWAP),                      \
	        AT(p "atomic_add", 4, A_ADD), AT(p "atomic_sub", 4, A_SUB),                        \
	        AT(p "atomic_smin", 4, A_SMIN), AT(p "atomic_umin", 4, A_UMIN),                    \
	        AT(p "atomic_smax", 4, A_SMAX), AT(p "atomic_umax", 4, A_UMAX),                    \
	        AT(p "atomic_and", 4, A_AND), AT(p "atomic_or", 4, A_OR),                          \
	        AT(p "atomic_xor", 4, A_XOR), AT(p "atomic_inc", 4, A_INC),                        \
	        AT(p "atomic_dec", 4, A_DEC), AT(p "atomic_add_f32", 4, A_FADD),                   \
	        AT(p "atomic_add_f64", 8, A_FADD), AT(p "atomic_min_f64", 8, A_FMIN),              \
	        AT(p "atomic_max_f64", 8, A_FMAX), AT(p "atomic_swap_x2", 8, A_SWAP),              \
	        AT(p "atomic_cmpswap_x2", 8, A_CMPSWAP), AT(p "atomic_add_x2", 8, A_ADD),          \
	        AT(p "atomic_sub_x2", 8, A_SUB), AT(p "atomic_smin_x2", 8, A_SMIN),                \
	        AT(p "atomic_umin_x2", 8, A_UMIN), AT(p "atomic_smax_x2", 8, A_SMAX),              \
	        AT(p "atomic_umax_x2", 8, A_UMAX), AT(p "atomic_and_x2", 8, A_AND),                \
	        AT(p "atomic_or_x2", 8, A_OR), AT(p "atomic_xor_x2", 8, A_XOR),                    \
	        AT(p "atomic_inc_x2", 8, A_INC), AT(p "atomic_dec_x2", 8, A_DEC),                  \
	        AT(p "atomic_swap_b32", 4, A_SWAP), AT(p "atomic_cmpswap_b32", 4, A_CMPSWAP),      \
	        AT(p "atomic_add_u32", 4, A_ADD), AT(p "atomic_sub_u32", 4, A_SUB),                \
	        AT(p "atomic_min_i32", 4, A_SMIN), AT(p "atomic_min_u32", 4, A_UMIN),              \
	        AT(p "atomic_max_i32", 4, A_SMAX), AT(p "atomic_max_u32", 4, A_UMAX),              \
	        AT(p "atomic_and_b32", 4, A_AND), AT(p "atomic_or_b32", 4, A_OR),                  \
	        AT(p "atomic_xor_b32", 4, A_XOR), AT(p "atomic_inc_u32", 4, A_INC),                \
	        AT(p "atomic_dec_u32", 4, A_DEC), AT(p "atomic_swap_b64", 8, A_SWAP),              \
	        AT(p "atomic_cmpswap_b64", 8, A_CMPSWAP), AT(p "atomic_add_u64", 8, A_ADD),        \
	        AT(p "atomic_sub_u64", 8, A_SUB), AT(p "atomic_min_i64", 8, A_SMIN),               \
	        AT(p "atomic_min_u64", 8, A_UMIN), AT(p "atomic_max_i64", 8, A_SMAX),              \
	        AT(p "atomic_max_u64", 8, A_UMAX), AT(p "atomic_and_b64", 8, A_AND),               \
	        AT(p "atomic_or_b64", 8, A_OR), AT(p "atomic_xor_b64", 8, A_XOR),                  \
	        AT(p "atomic_inc_u64", 8, A_INC), AT(p "atomic_dec_u64", 8, A_DEC),                \
	        AT(p "atomic_min_f32", 4, A_FMIN), AT(p "atomic_max_f32", 4, A_FMAX),              \
	        AT(p "atomic_fmin", 4, A_FMIN), AT(p "atomic_fmax", 4, A_FMAX),                    \
	        AT(p "atomic_fmin_x2", 8, A_FMIN), AT(p "atomic_fmax_x2", 8, A_FMAX),              \
	        AT(p "atomic_min_num_f32", 4, A_FMIN_NUM),                                         \
	        AT(p "atomic_max_num_f32", 4, A_FMAX_NUM)

#define DSH(n, b)                                                                                  \
	{                                                                                          \
		n, ds_store, SIM_CLASS_LDS, SIM_MEM_LDS, 0, b, D16_HI                              \
	}
#define STH(n, b)                                                                                  \
	{                                                                                          \
		n, vmem_store, SIM_CLASS_VMEM_STORE, SIM_MEM_VSTORE, 0, b, D16_HI                  \
	}
#define DSA(n4, n8, op)  DA("ds_" n4, 4, op), DA("ds_" n8, 8, op)
#define DSAR(n4, n8, op) DA("ds_" n4, 4 | 16, op), DA("ds_" n8, 8 | 16, op)

/* cache control: the simulator's memory is coherent, so invalidates and write-backs only
 * occupy the counters as the hardware's do (they complete in order with other accesses) */
static void cache_op(struct sim_wave *w, const struct sim_insn *in)
{
	(void)in;
	(void)w;
}

static const struct sim_sem mem_sems[] = {
        {"buffer_gl0_inv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_gl1_inv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_wbinvl1", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_wbinvl1_vol", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_inv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_invl2", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"buffer_wbl2", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"global_inv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"global_wb", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"global_wbinv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_dcache_inv", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_dcache_wb", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        {"s_dcache_inv_vol", cache_op, SIM_CLASS_MISC, SIM_MEM_NONE, 0, 0, 0},
        VMEM_ROWS("global_"),
        VMEM_ROWS("flat_"),
        VMEM_ROWS("scratch_"),
        VMEM_ROWS("buffer_"),
        ATOMIC_ROWS("global_"),
        ATOMIC_ROWS("flat_"),
        ATOMIC_ROWS("buffer_"),
        SL("s_load_dword", 4, 0),
        SL("s_load_dwordx2", 8, 0),
        SL("s_load_dwordx4", 16, 0),
        SL("s_load_dwordx8", 32, 0),
        SL("s_load_dwordx16", 64, 0),
        SL("s_load_b32", 4, 0),
        {"s_memtime", s_memtime, SIM_CLASS_SMEM, SIM_MEM_SMEM, 0, 8, 0},
        {"s_memrealtime", s_memrealtime, SIM_CLASS_SMEM, SIM_MEM_SMEM, 0, 8, 0},
        {"s_sendmsg_rtn_b64", s_sendmsg_rtn_b64, SIM_CLASS_SMEM, SIM_MEM_SMEM, 0, 8, 0},
        SL("s_load_b64", 8, 0),
        SL("s_load_b96", 12, 0),
        SL("s_load_b128", 16, 0),
        SL("s_load_b256", 32, 0),
        SL("s_load_b512", 64, 0),
        SL("s_buffer_load_dword", 4, 1),
        SL("s_buffer_load_dwordx2", 8, 1),
        SL("s_buffer_load_dwordx4", 16, 1),
        SL("s_buffer_load_dwordx8", 32, 1),
        SL("s_buffer_load_dwordx16", 64, 1),
        SL("s_buffer_load_b32", 4, 1),
        SL("s_buffer_load_b64", 8, 1),
        SL("s_buffer_load_b128", 16, 1),
        SL("s_buffer_load_b256", 32, 1),
        SL("s_buffer_load_b512", 64, 1),
        DL("ds_read_b32", 4, 0),
        DL("ds_read_b64", 8, 0),
        DL("ds_read_b96", 12, 0),
        DL("ds_read_b128", 16, 0),
        DL("ds_read_u8", 1, 0),
        DL("ds_read_i8", 1, EXT_SIGN),
        DL("ds_read_u16", 2, 0),
        DL("ds_read_i16", 2, EXT_SIGN),
        DL("ds_load_b32", 4, 0),
        DL("ds_load_b64", 8, 0),
        DL("ds_load_b96", 12, 0),
        DL("ds_load_b128", 16, 0),
        DL("ds_load_u8", 1, 0),
        DL("ds_load_i8", 1, EXT_SIGN),
        DL("ds_load_u16", 2, 0),
        DL("ds_load_i16", 2, EXT_SIGN),
        DL2("ds_read2_b32", 4, 0),
        DL2("ds_read2_b64", 8, 0),
        DL2("ds_read2st64_b32", 4, 1),
        DL2("ds_read2st64_b64", 8, 1),
        DL2("ds_load_2addr_b32", 4, 0),
        DL2("ds_load_2addr_b64", 8, 0),
        DL2("ds_load_2addr_stride64_b32", 4, 1),
        DL2("ds_load_2addr_stride64_b64", 8, 1),
        DL("ds_read_u8_d16", 1, D16),
        DL("ds_read_u8_d16_hi", 1, D16_HI),
        DL("ds_read_i8_d16", 1, D16 | EXT_SIGN),
        DL("ds_read_i8_d16_hi", 1, D16_HI | EXT_SIGN),
        DL("ds_read_u16_d16", 2, D16),
        DL("ds_read_u16_d16_hi", 2, D16_HI),
        DL("ds_load_u8_d16", 1, D16),
        DL("ds_load_u8_d16_hi", 1, D16_HI),
        DL("ds_load_i8_d16", 1, D16 | EXT_SIGN),
        DL("ds_load_i8_d16_hi", 1, D16_HI | EXT_SIGN),
        DL("ds_load_u16_d16", 2, D16),
        DL("ds_load_u16_d16_hi", 2, D16_HI),
        DSH("ds_write_b8_d16_hi", 1),
        DSH("ds_write_b16_d16_hi", 2),
        DSH("ds_store_b8_d16_hi", 1),
        DSH("ds_store_b16_d16_hi", 2),
        DS("ds_write_b32", 4),
        DS("ds_write_b64", 8),
        DS("ds_write_b96", 12),
        DS("ds_write_b128", 16),
        DS("ds_write_b8", 1),
        DS("ds_write_b16", 2),
        DS("ds_store_b32", 4),
        DS("ds_store_b64", 8),
        DS("ds_store_b96", 12),
        DS("ds_store_b128", 16),
        DS("ds_store_b8", 1),
        DS("ds_store_b16", 2),
        DS2("ds_write2_b32", 4, 0),
        DS2("ds_write2_b64", 8, 0),
        DS2("ds_write2st64_b32", 4, 1),
        DS2("ds_write2st64_b64", 8, 1),
        DS2("ds_store_2addr_b32", 4, 0),
        DS2("ds_store_2addr_b64", 8, 0),
        DS2("ds_store_2addr_stride64_b32", 4, 1),
        DS2("ds_store_2addr_stride64_b64", 8, 1),
        DSA("add_u32", "add_u64", A_ADD),
        DSA("sub_u32", "sub_u64", A_SUB),
        DSA("rsub_u32", "rsub_u64", A_RSUB),
        DSA("inc_u32", "inc_u64", A_INC),
        DSA("dec_u32", "dec_u64", A_DEC),
        DSA("min_i32", "min_i64", A_SMIN),
        DSA("max_i32", "max_i64", A_SMAX),
        DSA("min_u32", "min_u64", A_UMIN),
        DSA("max_u32", "max_u64", A_UMAX),
        DSA("and_b32", "and_b64", A_AND),
        DSA("or_b32", "or_b64", A_OR),
        DSA("xor_b32", "xor_b64", A_XOR),
        DSA("add_f32", "add_f64", A_FADD),
        DSA("min_f32", "min_f64", A_FMIN),
        DSA("max_f32", "max_f64", A_FMAX),
        /* gfx12 spellings; clang-19 lowers atomicrmw fmin/fmax to them as to the above */
        DSA("min_num_f32", "min_num_f64", A_FMIN_NUM),
        DSA("max_num_f32", "max_num_f64", A_FMAX_NUM),
        DSA("cmpst_b32", "cmpst_b64", A_CMPSWAP),
        DSA("cmpstore_b32", "cmpstore_b64", A_CMPSTORE),
        DSAR("add_rtn_u32", "add_rtn_u64", A_ADD),
        DSAR("sub_rtn_u32", "sub_rtn_u64", A_SUB),
        DSAR("rsub_rtn_u32", "rsub_rtn_u64", A_RSUB),
        DSAR("inc_rtn_u32", "inc_rtn_u64", A_INC),
        DSAR("dec_rtn_u32", "dec_rtn_u64", A_DEC),
        DSAR("min_rtn_i32", "min_rtn_i64", A_SMIN),
        DSAR("max_rtn_i32", "max_rtn_i64", A_SMAX),
        DSAR("min_rtn_u32", "min_rtn_u64", A_UMIN),
        DSAR("max_rtn_u32", "max_rtn_u64", A_UMAX),
        DSAR("and_rtn_b32", "and_rtn_b64", A_AND),
        DSAR("or_rtn_b32", "or_rtn_b64", A_OR),
        DSAR("xor_rtn_b32", "xor_rtn_b64", A_XOR),
        DSAR("add_rtn_f32", "add_rtn_f64", A_FADD),
        DSAR("min_rtn_f32", "min_rtn_f64", A_FMIN),
        DSAR("max_rtn_f32", "max_rtn_f64", A_FMAX),
        DSAR("min_num_rtn_f32", "min_num_rtn_f64", A_FMIN_NUM),
        DSAR("max_num_rtn_f32", "max_num_rtn_f64", A_FMAX_NUM),
        DSAR("wrxchg_rtn_b32", "wrxchg_rtn_b64", A_SWAP),
        DSAR("storexchg_rtn_b32", "storexchg_rtn_b64", A_SWAP),
        DSAR("cmpst_rtn_b32", "cmpst_rtn_b64", A_CMPSWAP),
        DSAR("cmpstore_rtn_b32", "cmpstore_rtn_b64", A_CMPSTORE),
        {"ds_swizzle_b32", ds_swizzle_b32, SIM_CLASS_LDS, SIM_MEM_LDS, 0, 4, 0},
        {"ds_permute_b32", ds_permute, SIM_CLASS_LDS, SIM_MEM_LDS, 0, 4, 0},
        {"ds_bpermute_b32", ds_permute, SIM_CLASS_LDS, SIM_MEM_LDS, 0, 4, 1},
};

const struct sim_sem *sim_sems_mem(unsigned *n)
{
	*n = sizeof mem_sems / sizeof mem_sems[0];
	return mem_sems;
}
