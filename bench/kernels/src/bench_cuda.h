/* Portability header of the benchmark kernels (the .cu files next to it).
 *
 * One CUDA source per kernel compiles three ways:
 *   nvcc -arch sm_80 -O3 --ptx                 CUDA's own headers; this file adds nothing
 *   clang-19 -x cuda --cuda-device-only        NVPTX, no CUDA headers (-nocudainc -nocudalib):
 *     -nocudainc -nocudalib                    the device API below, on clang's __nvvm_* builtins
 *   clang-19 -x hip --cuda-device-only         AMDGPU, no HIP headers (-nogpuinc -nogpulib):
 *     -nogpuinc -nogpulib                      the device API below, on __builtin_amdgcn_*
 *
 * Only what the kernels use is here.  A CUDA warp is 32 threads on every target: on wave64
 * AMD targets the shuffles stay inside each aligned half of the wave, so every source means
 * the same thing everywhere.  Kernels are extern "C" so every compiler names them alike. */
#ifndef BENCH_CUDA_H
#define BENCH_CUDA_H

#define BK_KERNEL extern "C" __global__

#if defined(__NVCC__)

#define BK_DEV static __device__ __forceinline__
BK_DEV float bk_exp(float x) { return __expf(x); }

#else /* clang without CUDA/HIP headers */

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define BK_DEV static __device__ __forceinline__

#define BK_SREG(name, fx, fy, fz)                                                            \
	struct name##_t {                                                                        \
		static __device__ __forceinline__ unsigned get_x() { return fx; }                    \
		static __device__ __forceinline__ unsigned get_y() { return fy; }                    \
		static __device__ __forceinline__ unsigned get_z() { return fz; }                    \
		__declspec(property(get = get_x)) unsigned x;                                        \
		__declspec(property(get = get_y)) unsigned y;                                        \
		__declspec(property(get = get_z)) unsigned z;                                        \
	};                                                                                       \
	extern const __device__ name##_t name;

#if defined(__NVPTX__)

BK_SREG(threadIdx, __nvvm_read_ptx_sreg_tid_x(), __nvvm_read_ptx_sreg_tid_y(),
        __nvvm_read_ptx_sreg_tid_z())
BK_SREG(blockIdx, __nvvm_read_ptx_sreg_ctaid_x(), __nvvm_read_ptx_sreg_ctaid_y(),
        __nvvm_read_ptx_sreg_ctaid_z())
BK_SREG(blockDim, __nvvm_read_ptx_sreg_ntid_x(), __nvvm_read_ptx_sreg_ntid_y(),
        __nvvm_read_ptx_sreg_ntid_z())
BK_SREG(gridDim, __nvvm_read_ptx_sreg_nctaid_x(), __nvvm_read_ptx_sreg_nctaid_y(),
        __nvvm_read_ptx_sreg_nctaid_z())

/* __syncthreads is a clang builtin for NVPTX. */
BK_DEV float __shfl_down_sync(unsigned m, float v, unsigned d)
{
	return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f);
}
BK_DEV float __shfl_xor_sync(unsigned m, float v, int x)
{
	return __nvvm_shfl_sync_bfly_f32(m, v, x, 0x1f);
}
BK_DEV int __shfl_up_sync(unsigned m, int v, unsigned d)
{
	return __nvvm_shfl_sync_up_i32(m, v, d, 0);
}
BK_DEV float __shfl_up_sync(unsigned m, float v, unsigned d)
{
	return __nvvm_shfl_sync_up_f32(m, v, d, 0);
}
BK_DEV int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
BK_DEV unsigned atomicAdd(unsigned *p, unsigned v)
{
	return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
BK_DEV float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
BK_DEV float bk_exp(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
BK_DEV float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }

#elif defined(__AMDGCN__)

/* Code object v5: the block counts are the first three hidden kernel arguments. */
#define BK_BLOCK_COUNT(i) (((const unsigned *)__builtin_amdgcn_implicitarg_ptr())[i])
BK_SREG(threadIdx, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
        __builtin_amdgcn_workitem_id_z())
BK_SREG(blockIdx, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
        __builtin_amdgcn_workgroup_id_z())
BK_SREG(blockDim, __builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
        __builtin_amdgcn_workgroup_size_z())
BK_SREG(gridDim, BK_BLOCK_COUNT(0), BK_BLOCK_COUNT(1), BK_BLOCK_COUNT(2))

BK_DEV void __syncthreads(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
BK_DEV unsigned bk_lane(void)
{
	unsigned lo = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#if __AMDGCN_WAVEFRONT_SIZE == 64
	return __builtin_amdgcn_mbcnt_hi(~0u, lo);
#else
	return lo;
#endif
}
/* Reads v from lane src (a lane of the caller's 32-wide warp). */
BK_DEV int bk_lane_read(int v, unsigned src)
{
	return __builtin_amdgcn_ds_bpermute((int)(src << 2), v);
}
BK_DEV float bk_lane_read(float v, unsigned src)
{
	return __builtin_bit_cast(float, bk_lane_read(__builtin_bit_cast(int, v), src));
}
template <typename T> BK_DEV T __shfl_down_sync(unsigned, T v, unsigned d)
{
	unsigned lane = bk_lane();
	return bk_lane_read(v, (lane & 31) + d < 32 ? lane + d : lane);
}
template <typename T> BK_DEV T __shfl_up_sync(unsigned, T v, unsigned d)
{
	unsigned lane = bk_lane();
	return bk_lane_read(v, (lane & 31) >= d ? lane - d : lane);
}
template <typename T> BK_DEV T __shfl_xor_sync(unsigned, T v, int x)
{
	return bk_lane_read(v, bk_lane() ^ (unsigned)(x & 31));
}
template <typename T> BK_DEV T atomicAdd(T *p, T v)
{
	return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
BK_DEV float bk_exp(float x) { return __builtin_amdgcn_exp2f(x * 1.4426950408889634f); }
BK_DEV float rsqrtf(float x) { return __builtin_amdgcn_rsqf(x); }

#else
#error "bench_cuda.h: compile with nvcc, or clang-19 for NVPTX or AMDGCN device code"
#endif

BK_DEV float sqrtf(float x) { return __builtin_sqrtf(x); }
BK_DEV double sqrt(double x) { return __builtin_sqrt(x); }
BK_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
BK_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
BK_DEV float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
BK_DEV double fabs(double x) { return __builtin_fabs(x); }
BK_DEV int min(int a, int b) { return a < b ? a : b; }
BK_DEV int max(int a, int b) { return a > b ? a : b; }

#endif /* clang */
#endif /* BENCH_CUDA_H */
