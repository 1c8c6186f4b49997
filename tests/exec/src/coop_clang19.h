// clang-19's CUDA wrappers (__clang_cuda_intrinsics.h) pass __reduce_*_sync's (mask, value)
// to NVVM builtins that take (value, mask), so the PTX reduces the mask over the lanes named
// by the value; LLVM 20 swaps them back.  The coop_*.cu sources call these (and cooperative
// groups' cg::reduce does) through the right order here when clang-19 compiles them.
#if defined(__clang__) && !defined(__NVCC__) && __clang_major__ < 20 && defined(__CUDA_ARCH__)
__device__ inline unsigned coop_reduce_add(unsigned m, unsigned v) { return __nvvm_redux_sync_add(v, m); }
__device__ inline unsigned coop_reduce_min(unsigned m, unsigned v) { return __nvvm_redux_sync_umin(v, m); }
__device__ inline int coop_reduce_min(unsigned m, int v) { return __nvvm_redux_sync_min(v, m); }
__device__ inline unsigned coop_reduce_max(unsigned m, unsigned v) { return __nvvm_redux_sync_umax(v, m); }
__device__ inline int coop_reduce_max(unsigned m, int v) { return __nvvm_redux_sync_max(v, m); }
__device__ inline unsigned coop_reduce_and(unsigned m, unsigned v) { return __nvvm_redux_sync_and(v, m); }
__device__ inline unsigned coop_reduce_or(unsigned m, unsigned v) { return __nvvm_redux_sync_or(v, m); }
__device__ inline unsigned coop_reduce_xor(unsigned m, unsigned v) { return __nvvm_redux_sync_xor(v, m); }
#define __reduce_add_sync coop_reduce_add
#define __reduce_min_sync coop_reduce_min
#define __reduce_max_sync coop_reduce_max
#define __reduce_and_sync coop_reduce_and
#define __reduce_or_sync coop_reduce_or
#define __reduce_xor_sync coop_reduce_xor
#endif
