/* Portability header for the ptxas-amd PTX corpus.
 *
 * Under nvcc the CUDA runtime headers are included implicitly and this header
 * only adds small conveniences.  Under clang (-x cuda --cuda-device-only
 * -nocudainc -nocudalib) no CUDA header is available (CUDA 13's headers are
 * newer than clang-19 accepts), so this header supplies the small part of the
 * CUDA device API the corpus uses, built directly on clang's __nvvm_* builtins.
 * Math functions are written here too (there is no libdevice under -nocudalib);
 * their accuracy is irrelevant, only the PTX they produce matters. */
#ifndef PA_CUDA_H
#define PA_CUDA_H

#if defined(__NVCC__)

#include <cuda_fp16.h>
#define PA_NVCC 1

#else /* clang, no CUDA headers */

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define PA_DEV static __device__ __forceinline__

typedef unsigned long size_t;

struct uint3 {
	unsigned x, y, z;
};
struct dim3 {
	unsigned x, y, z;
};
struct __attribute__((aligned(8))) float2 {
	float x, y;
};
struct __attribute__((aligned(16))) float4 {
	float x, y, z, w;
};
struct __attribute__((aligned(16))) int4 {
	int x, y, z, w;
};
struct __attribute__((aligned(16))) double2 {
	double x, y;
};

#define PA_SREG_STRUCT(name, fx, fy, fz)                                                   \
	struct name##_t {                                                                  \
		static __device__ __forceinline__ unsigned get_x() { return fx(); }         \
		static __device__ __forceinline__ unsigned get_y() { return fy(); }         \
		static __device__ __forceinline__ unsigned get_z() { return fz(); }         \
		__declspec(property(get = get_x)) unsigned x;                                \
		__declspec(property(get = get_y)) unsigned y;                                \
		__declspec(property(get = get_z)) unsigned z;                                \
	};                                                                                 \
	extern const __device__ name##_t name;

PA_SREG_STRUCT(threadIdx, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_tid_y,
               __nvvm_read_ptx_sreg_tid_z)
PA_SREG_STRUCT(blockIdx, __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_ctaid_y,
               __nvvm_read_ptx_sreg_ctaid_z)
PA_SREG_STRUCT(blockDim, __nvvm_read_ptx_sreg_ntid_x, __nvvm_read_ptx_sreg_ntid_y,
               __nvvm_read_ptx_sreg_ntid_z)
PA_SREG_STRUCT(gridDim, __nvvm_read_ptx_sreg_nctaid_x, __nvvm_read_ptx_sreg_nctaid_y,
               __nvvm_read_ptx_sreg_nctaid_z)

#define warpSize 32

extern "C" __device__ int printf(const char *, ...);

/* Synchronisation and warp primitives. */
PA_DEV void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
PA_DEV void __threadfence(void) { __nvvm_membar_gl(); }
PA_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
PA_DEV int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
PA_DEV int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
PA_DEV unsigned __activemask(void)
{
	unsigned m;
	asm volatile("activemask.b32 %0;" : "=r"(m));
	return m;
}
PA_DEV unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
PA_DEV int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
PA_DEV int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
PA_DEV int __shfl_sync(unsigned m, int v, int l, int w = 32)
{
	return __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - w) << 8) | 0x1f);
}
PA_DEV float __shfl_sync(unsigned m, float v, int l, int w = 32)
{
	return __nvvm_shfl_sync_idx_f32(m, v, l, ((32 - w) << 8) | 0x1f);
}
PA_DEV int __shfl_down_sync(unsigned m, int v, unsigned d, int w = 32)
{
	return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f);
}
PA_DEV unsigned __shfl_down_sync(unsigned m, unsigned v, unsigned d, int w = 32)
{
	return (unsigned)__nvvm_shfl_sync_down_i32(m, (int)v, d, ((32 - w) << 8) | 0x1f);
}
PA_DEV float __shfl_down_sync(unsigned m, float v, unsigned d, int w = 32)
{
	return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f);
}
PA_DEV double __shfl_down_sync(unsigned m, double v, unsigned d, int w = 32)
{
	long long bits = __builtin_bit_cast(long long, v);
	int lo = __nvvm_shfl_sync_down_i32(m, (int)bits, d, ((32 - w) << 8) | 0x1f);
	int hi = __nvvm_shfl_sync_down_i32(m, (int)(bits >> 32), d, ((32 - w) << 8) | 0x1f);
	return __builtin_bit_cast(double, ((long long)hi << 32) | (unsigned)lo);
}
PA_DEV int __shfl_up_sync(unsigned m, int v, unsigned d, int w = 32)
{
	return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8);
}
PA_DEV float __shfl_up_sync(unsigned m, float v, unsigned d, int w = 32)
{
	return __nvvm_shfl_sync_up_f32(m, v, d, (32 - w) << 8);
}
PA_DEV int __shfl_xor_sync(unsigned m, int v, int x, int w = 32)
{
	return __nvvm_shfl_sync_bfly_i32(m, v, x, ((32 - w) << 8) | 0x1f);
}
PA_DEV unsigned __shfl_xor_sync(unsigned m, unsigned v, int x, int w = 32)
{
	return (unsigned)__nvvm_shfl_sync_bfly_i32(m, (int)v, x, ((32 - w) << 8) | 0x1f);
}
PA_DEV float __shfl_xor_sync(unsigned m, float v, int x, int w = 32)
{
	return __nvvm_shfl_sync_bfly_f32(m, v, x, ((32 - w) << 8) | 0x1f);
}

/* Atomics (generic address space). */
PA_DEV int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
PA_DEV unsigned atomicAdd(unsigned *p, unsigned v)
{
	return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
PA_DEV unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
	return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
PA_DEV float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
PA_DEV double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
PA_DEV int atomicAdd_block(int *p, int v) { return __nvvm_atom_cta_add_gen_i(p, v); }
PA_DEV int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
PA_DEV int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
PA_DEV float atomicExch(float *p, float v)
{
	return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
PA_DEV int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
PA_DEV int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
PA_DEV unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
PA_DEV unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
PA_DEV unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }
PA_DEV int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
PA_DEV int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
PA_DEV int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
PA_DEV int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
PA_DEV unsigned atomicCAS(unsigned *p, unsigned c, unsigned v)
{
	return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v);
}
PA_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long c,
                                    unsigned long long v)
{
	return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c,
	                                                  (long long)v);
}

/* Integer intrinsics. */
PA_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
PA_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
PA_DEV int __clz(int x)
{
	int r;
	asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x));
	return r;
}
PA_DEV int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
PA_DEV int __ffs(int x) { return x ? __builtin_ctz((unsigned)x) + 1 : 0; }
PA_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
PA_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
PA_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
PA_DEV unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
PA_DEV long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
PA_DEV unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
	return __nvvm_mulhi_ull(a, b);
}
PA_DEV unsigned __byte_perm(unsigned a, unsigned b, unsigned s)
{
	unsigned r;
	asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
	return r;
}
PA_DEV unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
	return (unsigned)((((unsigned long long)hi << 32) | lo) << (s & 31) >> 32);
}
PA_DEV int __sad(int a, int b, unsigned c) { return (int)(c + (a > b ? a - b : b - a)); }
PA_DEV long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
PA_DEV unsigned pa_laneid(void) { return (unsigned)__nvvm_read_ptx_sreg_laneid(); }
PA_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
PA_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
PA_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
PA_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
PA_DEV int __double2hiint(double x) { return (int)(__builtin_bit_cast(long long, x) >> 32); }
PA_DEV float __ldg(const float *p) { return __nvvm_ldg_f(p); }
PA_DEV int __ldg(const int *p) { return __nvvm_ldg_i(p); }
PA_DEV float4 __ldg(const float4 *p)
{
	float4 r;
	r.x = __nvvm_ldg_f(&p->x);
	r.y = __nvvm_ldg_f(&p->y);
	r.z = __nvvm_ldg_f(&p->z);
	r.w = __nvvm_ldg_f(&p->w);
	return r;
}

PA_DEV int min(int a, int b) { return a < b ? a : b; }
PA_DEV int max(int a, int b) { return a > b ? a : b; }

/* Single precision math. */
PA_DEV float sqrtf(float x) { return __builtin_sqrtf(x); }
PA_DEV float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
PA_DEV float fabsf(float x) { return __builtin_fabsf(x); }
PA_DEV float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
PA_DEV float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
PA_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
PA_DEV float floorf(float x) { return __nvvm_floor_f(x); }
PA_DEV float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
PA_DEV float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
PA_DEV float __sinf(float x) { return __nvvm_sin_approx_f(x); }
PA_DEV float __cosf(float x) { return __nvvm_cos_approx_f(x); }
PA_DEV float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
PA_DEV float __saturatef(float x) { return __nvvm_saturate_f(x); }
PA_DEV float expf(float x)
{
	/* exp(x) = 2^k * 2^f with k integral: split for accuracy like libdevice does. */
	float t = x * 1.4426950408889634f;
	float k = __nvvm_round_f(t);
	return __nvvm_ex2_approx_f(t - k) * __nvvm_ex2_approx_f(k);
}
PA_DEV float logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
PA_DEV float tanhf(float x)
{
	float e = expf(2.0f * x);
	return (e - 1.0f) / (e + 1.0f);
}
PA_DEV float powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }

/* Double precision math: range reduction plus polynomials. */
PA_DEV double sqrt(double x) { return __builtin_sqrt(x); }
PA_DEV double rsqrt(double x) { return __nvvm_rsqrt_approx_d(x); }
PA_DEV double fabs(double x) { return __builtin_fabs(x); }
PA_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
PA_DEV double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
PA_DEV double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
PA_DEV double floor(double x) { return __nvvm_floor_d(x); }
PA_DEV double ldexp(double x, int e)
{
	long long bits = __builtin_bit_cast(long long, x) + ((long long)e << 52);
	return __builtin_bit_cast(double, bits);
}
PA_DEV double exp(double x)
{
	if (x > 709.0)
		return __builtin_bit_cast(double, 0x7ff0000000000000ll);
	if (x < -745.0)
		return 0.0;
	double k = __nvvm_round_d(x * 1.4426950408889634);
	double r = fma(k, -0.6931471805599453, x);
	double p = 2.48015873015873e-05;
	p = fma(p, r, 1.984126984126984e-04);
	p = fma(p, r, 1.388888888888889e-03);
	p = fma(p, r, 8.333333333333333e-03);
	p = fma(p, r, 4.166666666666666e-02);
	p = fma(p, r, 1.666666666666667e-01);
	p = fma(p, r, 0.5);
	p = fma(p, r, 1.0);
	p = fma(p, r, 1.0);
	return ldexp(p, (int)k);
}
PA_DEV double log(double x)
{
	long long bits = __builtin_bit_cast(long long, x);
	int e = (int)((bits >> 52) & 0x7ff) - 1023;
	double m = __builtin_bit_cast(double, (bits & 0x000fffffffffffffll) | 0x3ff0000000000000ll);
	if (m > 1.4142135623730951) {
		m *= 0.5;
		e += 1;
	}
	double s = (m - 1.0) / (m + 1.0), s2 = s * s;
	double p = 1.0 / 9.0;
	p = fma(p, s2, 1.0 / 7.0);
	p = fma(p, s2, 1.0 / 5.0);
	p = fma(p, s2, 1.0 / 3.0);
	p = fma(p, s2, 1.0);
	return fma((double)e, 0.6931471805599453, 2.0 * s * p);
}
PA_DEV double pow(double a, double b) { return exp(b * log(a)); }
PA_DEV double sin(double x)
{
	double k = __nvvm_round_d(x * 0.3183098861837907);
	double r = fma(k, -3.141592653589793, x), r2 = r * r;
	double p = -2.5052108385441720e-08;
	p = fma(p, r2, 2.7557319223985893e-06);
	p = fma(p, r2, -1.9841269841269841e-04);
	p = fma(p, r2, 8.3333333333333333e-03);
	p = fma(p, r2, -1.6666666666666667e-01);
	p = fma(p * r2, r, r);
	return ((long long)k & 1) ? -p : p;
}
PA_DEV double cos(double x) { return sin(x + 1.5707963267948966); }
PA_DEV double tanh(double x)
{
	double e = exp(2.0 * x);
	return (e - 1.0) / (e + 1.0);
}

/* Half precision on clang's _Float16 (lowered to .f16 / .b16 / .f16x2 by NVPTX). */
typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
PA_DEV __half __float2half(float x) { return (__half)x; }
PA_DEV float __half2float(__half x) { return (float)x; }
PA_DEV __half __hadd(__half a, __half b) { return a + b; }
PA_DEV __half __hmul(__half a, __half b) { return a * b; }
PA_DEV __half __hfma(__half a, __half b, __half c) { return a * b + c; }
PA_DEV bool __hgt(__half a, __half b) { return a > b; }
PA_DEV __half2 __floats2half2_rn(float a, float b) { return (__half2){(__half)a, (__half)b}; }
PA_DEV __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
PA_DEV __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
PA_DEV __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return a * b + c; }
PA_DEV float __low2float(__half2 a) { return (float)a.x; }
PA_DEV float __high2float(__half2 a) { return (float)a.y; }

#endif /* clang */

#if defined(PA_NVCC)
#define PA_DEV static __device__ __forceinline__
PA_DEV unsigned pa_laneid(void)
{
	unsigned l;
	asm("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}
#endif

#endif
