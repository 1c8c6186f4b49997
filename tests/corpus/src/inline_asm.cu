// Inline PTX: scoped register declarations in braces, predicates, special
// registers, bit-field and permute instructions, carry chains, vector moves.
#include "pa_cuda.h"

static __device__ __forceinline__ unsigned bfe_u32(unsigned x, unsigned pos, unsigned len)
{
	unsigned r;
	asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
	return r;
}

static __device__ __forceinline__ unsigned bfi_b32(unsigned ins, unsigned base, unsigned pos,
                                                   unsigned len)
{
	unsigned r;
	asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(ins), "r"(base), "r"(pos), "r"(len));
	return r;
}

static __device__ __forceinline__ unsigned lop3_maj(unsigned a, unsigned b, unsigned c)
{
	unsigned r;
	asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
}

static __device__ __forceinline__ int clamp_add_pred(int a, int b, int lim)
{
	int r;
	asm("{\n\t"
	    ".reg .pred p, q;\n\t"
	    ".reg .s32 t;\n\t"
	    "add.s32 t, %1, %2;\n\t"
	    "setp.gt.s32 p|q, t, %3;\n\t"
	    "@p mov.s32 t, %3;\n\t"
	    "@q add.s32 t, t, 0;\n\t"
	    "mov.s32 %0, t;\n\t"
	    "}"
	    : "=r"(r)
	    : "r"(a), "r"(b), "r"(lim));
	return r;
}

/* 96-bit add with the carry chain spelled out. */
static __device__ __forceinline__ void add96(unsigned *r, const unsigned *a, const unsigned *b)
{
	asm("add.cc.u32 %0, %3, %6;\n\t"
	    "addc.cc.u32 %1, %4, %7;\n\t"
	    "addc.u32 %2, %5, %8;"
	    : "=r"(r[0]), "=r"(r[1]), "=r"(r[2])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(b[0]), "r"(b[1]), "r"(b[2]));
}

static __device__ __forceinline__ unsigned long long mad_wide(unsigned a, unsigned b,
                                                              unsigned long long c)
{
	unsigned long long r;
	asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(a), "r"(b), "l"(c));
	return r;
}

__global__ void asm_bits(const unsigned *in, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = in[i];
	out[5 * i + 0] = bfe_u32(x, 4, 12);
	out[5 * i + 1] = bfi_b32(x, 0xdeadbeefu, 8, 8);
	out[5 * i + 2] = lop3_maj(x, x >> 3, x << 5);
	out[5 * i + 3] = (unsigned)clamp_add_pred((int)x, 1000, 1 << 20);
	out[5 * i + 4] = __byte_perm(x, ~x, 0x5140);
}

__global__ void asm_carry(const unsigned *a, const unsigned *b, unsigned *r,
                          unsigned long long *w, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		add96(r + 3 * i, a + 3 * i, b + 3 * i);
		w[i] = mad_wide(a[i], b[i], 0x123456789ull);
	}
}

__global__ void asm_special_regs(unsigned *out, long long *clk)
{
	unsigned lane, warp, smid, nsmid, lt, ge;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
	asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
	asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
	asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
	asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
	long long t0, t1;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	out[6 * g + 0] = lane;
	out[6 * g + 1] = warp;
	out[6 * g + 2] = smid;
	out[6 * g + 3] = nsmid;
	out[6 * g + 4] = lt;
	out[6 * g + 5] = ge;
	clk[2 * g] = t0;
	clk[2 * g + 1] = t1;
}

__global__ void asm_memory(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (4 * i + 3 >= n)
		return;
	float a, b, c, d;
	asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
	             : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
	             : "l"(in + 4 * i));
	asm volatile("{\n\t"
	             ".reg .f32 s;\n\t"
	             "add.rn.f32 s, %0, %1;\n\t"
	             "fma.rn.f32 s, %2, %3, s;\n\t"
	             "st.global.cs.f32 [%4], s;\n\t"
	             "}" ::"f"(a),
	             "f"(b), "f"(c), "f"(d), "l"(out + i)
	             : "memory");
	asm volatile("membar.gl;" ::: "memory");
}

__global__ void asm_float_modes(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i], r0, r1, r2, r3;
	asm("cvt.rni.f32.f32 %0, %1;" : "=f"(r0) : "f"(v));
	asm("add.rz.ftz.f32 %0, %1, 0f3F000000;" : "=f"(r1) : "f"(v));
	asm("mul.sat.f32 %0, %1, 0.5;" : "=f"(r2) : "f"(v));
	asm("{ .reg .f64 d; cvt.f64.f32 d, %1; sqrt.rn.f64 d, d; cvt.rn.f32.f64 %0, d; }"
	    : "=f"(r3)
	    : "f"(v));
	out[4 * i] = r0;
	out[4 * i + 1] = r1;
	out[4 * i + 2] = r2;
	out[4 * i + 3] = r3;
}

__global__ void asm_vote(const int *x, unsigned *out)
{
	unsigned ballot;
	int v = x[threadIdx.x];
	asm volatile("{\n\t"
	             ".reg .pred p;\n\t"
	             "setp.ne.s32 p, %1, 0;\n\t"
	             "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
	             "}"
	             : "=r"(ballot)
	             : "r"(v));
	if ((threadIdx.x & 31) == 0)
		out[threadIdx.x >> 5] = ballot;
}
