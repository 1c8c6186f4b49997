// Microbenchmarks of amdsim's CU timing model (tests/sim/cu_model_test.py).  N (a power of
// two) is given with -DN=...; the test takes cycle differences between N and 2N so that the
// launch overhead cancels.
#define TID __builtin_amdgcn_workitem_id_x()
#define GID (__builtin_amdgcn_workgroup_id_x() * 256 + TID) /* blocks of at most 256 */
#define REP2(x) x x
#define REP4(x) REP2(REP2(x))
#define REP16(x) REP4(REP4(x))

// One chain of N dependent v_fma_f32.
__kernel void valu_dep(__global float *out, float a)
{
	float x = a, y = a * 0.5f;
#pragma unroll
	for (int i = 0; i < N / 16; i++) {
		REP16(__asm__ volatile("v_fma_f32 %0, %0, %1, %1" : "+v"(x) : "v"(y));)
	}
	out[GID] = x;
}

// N v_fma_f32 in eight independent chains.
__kernel void valu_indep(__global float *out, float a)
{
	float x0 = a, x1 = a + 1, x2 = a + 2, x3 = a + 3, x4 = a + 4, x5 = a + 5, x6 = a + 6,
	      x7 = a + 7, y = a * 0.5f;
#pragma unroll
	for (int i = 0; i < N / 16; i++) {
		REP2(__asm__ volatile("v_fma_f32 %0, %0, %8, %8\n v_fma_f32 %1, %1, %8, %8\n"
		                      "v_fma_f32 %2, %2, %8, %8\n v_fma_f32 %3, %3, %8, %8\n"
		                      "v_fma_f32 %4, %4, %8, %8\n v_fma_f32 %5, %5, %8, %8\n"
		                      "v_fma_f32 %6, %6, %8, %8\n v_fma_f32 %7, %7, %8, %8"
		                      : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3), "+v"(x4), "+v"(x5),
		                        "+v"(x6), "+v"(x7)
		                      : "v"(y));)
	}
	out[GID] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

// N dependent global loads (each lane chases its own index; a[i] = i).
__kernel void load_chain(__global const uint *a, __global uint *out)
{
	uint i = GID & 63;
#pragma unroll
	for (int k = 0; k < N; k++)
		i = a[i];
	out[GID] = i;
}

// The same with every VGPR of the wave taken (the asm clobbers v255): fewer waves fit.
__kernel void load_chain_fat(__global const uint *a, __global uint *out)
{
	uint i = GID & 63;
	__asm__ volatile("" ::: "v255");
#pragma unroll
	for (int k = 0; k < N; k++)
		i = a[i];
	out[GID] = i;
}

// N dependent LDS loads; lane t reads dword t * STRIDE (s[t * STRIDE] = t * STRIDE).
__kernel void lds_chain(__global uint *out, uint stride)
{
	__local uint s[64 * 32];
	uint t = TID;
	for (uint k = t; k < 64 * 32; k += 32) /* blocks of 32 or 64 work-items */
		s[k] = k;
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	uint i = (t * stride) & (64 * 32 - 1);
#pragma unroll
	for (int k = 0; k < N; k++)
		i = ((volatile __local uint *)s)[i];
	out[GID] = i;
}

// N barriers in a row.
__kernel void barriers(__global uint *out)
{
#pragma unroll
	for (int k = 0; k < N; k++)
		__builtin_amdgcn_s_barrier();
	out[GID] = 1;
}

// 40 KiB of LDS per workgroup: the LDS bounds the workgroups a CU holds.
__kernel void lds_big(__global uint *out)
{
	__local uint s[10240];
	uint t = TID;
	for (uint k = t; k < 10240; k += 256)
		s[k] = k;
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	out[GID] = s[(t * 37) % 10240];
}

// N transcendentals: one dependent chain, or eight independent ones.  gfx11 needs the VALU
// writes of a transcendental drained before a VALU reads the result (s_waitcnt_depctr
// va_vdst(0)); the asm ends with one so that clang's code after it is correct.
#ifdef __gfx1100__
#define TRANS_DRAIN "\n s_waitcnt_depctr 0xfff"
#else
#define TRANS_DRAIN ""
#endif
__kernel void trans_dep(__global float *out, float a)
{
	float x = a;
#pragma unroll
	for (int i = 0; i < N / 16; i++) {
		REP16(__asm__ volatile("v_exp_f32 %0, %0" : "+v"(x));)
	}
	__asm__ volatile("" TRANS_DRAIN ::: "memory");
	out[GID] = x;
}

__kernel void trans_indep(__global float *out, float a)
{
	float x0 = a, x1 = a + 1, x2 = a + 2, x3 = a + 3, x4 = a + 4, x5 = a + 5, x6 = a + 6,
	      x7 = a + 7;
#pragma unroll
	for (int i = 0; i < N / 8; i++) {
		__asm__ volatile("v_exp_f32 %0, %0\n v_exp_f32 %1, %1\n v_exp_f32 %2, %2\n"
		                 "v_exp_f32 %3, %3\n v_exp_f32 %4, %4\n v_exp_f32 %5, %5\n"
		                 "v_exp_f32 %6, %6\n v_exp_f32 %7, %7"
		                 : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3), "+v"(x4), "+v"(x5),
		                   "+v"(x6), "+v"(x7));
	}
	__asm__ volatile("" TRANS_DRAIN ::: "memory");
	out[GID] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

// N dependent matrix operations (each accumulates into the previous result): MFMA 16x16x16
// f16 on gfx90a/gfx942, WMMA 16x16x16 f16 on gfx11/gfx12; gfx1030 has none.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half4v __attribute__((ext_vector_type(4)));
typedef half half8v __attribute__((ext_vector_type(8)));
typedef half half16v __attribute__((ext_vector_type(16)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float8v __attribute__((ext_vector_type(8)));
__kernel void matrix_chain(__global float *out, float a)
{
	/* a VGPR (gfx12's scalar f16 is not simulated), the same in both halves of a wave32
	 * (gfx11 WMMA wants its A/B operands repeated in lanes 16-31) */
	half h = (half)(a + (float)(TID & 15));
#if defined(__gfx90a__) || defined(__gfx942__)
	/* asm with VGPR accumulators: clang's builtin uses AGPRs, whose moves amdsim lacks */
	half4v x = (half4v)(h);
	float4v c = (float4v)(0.0f);
	/* the wait states clang cannot know the asm needs: a VALU result read by the first
	 * MFMA, the last MFMA's result read by a VALU */
	__asm__ volatile("s_nop 4\n v_mfma_f32_16x16x16f16 %0, %1, %1, %0" : "+v"(c) : "v"(x));
#pragma unroll
	for (int k = 1; k < N; k++)
		__asm__ volatile("v_mfma_f32_16x16x16f16 %0, %1, %1, %0" : "+v"(c) : "v"(x));
	__asm__ volatile("s_nop 7\n s_nop 7\n s_nop 7" : "+v"(c));
	out[GID] = c.x + c.y + c.z + c.w;
#elif defined(__gfx1100__)
	half16v x = (half16v)(h);
	float8v c = (float8v)(0.0f);
#pragma unroll
	for (int k = 0; k < N; k++)
		c = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(x, x, c);
	out[GID] = c.s0 + c.s1 + c.s2 + c.s3 + c.s4 + c.s5 + c.s6 + c.s7;
#elif defined(__gfx1200__)
	half8v x = (half8v)(h);
	float8v c = (float8v)(0.0f);
#pragma unroll
	for (int k = 0; k < N; k++)
		c = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(x, x, c);
	out[GID] = c.s0 + c.s1 + c.s2 + c.s3 + c.s4 + c.s5 + c.s6 + c.s7;
#else
	out[GID] = a;
#endif
}
