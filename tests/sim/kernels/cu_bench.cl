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
