#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cooperative_groups.h>
#include <assert.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void k_simd(unsigned *p) {
  unsigned a = p[0], b = p[1];
  p[2] = __vabsdiffu4(a, b) + __vadd4(a, b) + __vcmpgtu4(a, b) + __vmaxu2(a, b) + __vsadu4(a, b) + __vavgu2(a,b) + __vsub2(a,b);
  p[3] = __vhaddu2(a, b) + __vnegss4(a) + __vabs2(a);
}
__global__ void k_tex(cudaTextureObject_t t, cudaSurfaceObject_t s, float4 *o) {
  float4 v = tex2D<float4>(t, threadIdx.x, threadIdx.y);
  float w = tex1Dfetch<float>(t, threadIdx.x);
  o[threadIdx.x] = make_float4(v.x + w, v.y, v.z, v.w);
  float r; surf2Dread(&r, s, threadIdx.x * 4, threadIdx.y);
  surf2Dwrite(r * 2, s, threadIdx.x * 4, threadIdx.y);
  float4 g = tex2Dgather<float4>(t, 0.5f, 0.5f, 1);
  o[1] = g;
}
__global__ void k_fp8(float *f, __nv_fp8x2_e4m3 *q, __nv_bfloat16 *bf) {
  __nv_fp8x2_e4m3 x(make_float2(f[0], f[1]));
  q[0] = x;
  float2 back = float2(q[1]);
  f[2] = back.x + back.y;
  bf[0] = __float2bfloat16_rn(f[3]);
  f[4] = __bfloat162float(bf[1]) + __half2float(__float2half(f[5]));
  assert(f[6] > 0);
  printf("%d %f\n", threadIdx.x, f[7]);
  int *m = (int*)malloc(16); m[0] = 1; free(m);
}
#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
__global__ void __cluster_dims__(2,1,1) k_cluster(int *p) {
  cg::cluster_group cl = cg::this_cluster();
  __shared__ int sm[32];
  sm[threadIdx.x % 32] = threadIdx.x;
  cl.sync();
  int *remote = cl.map_shared_rank(sm, (cl.block_rank() + 1) % 2);
  p[threadIdx.x] = remote[threadIdx.x % 32] + cl.block_rank() + cl.num_blocks();
  cl.sync();
}
#endif
__global__ void k_misc(int *p, long long *q, unsigned long long *u) {
  p[0] = __mulhi(p[1], p[2]) + __ffsll(q[0]) + __popcll(q[1]) + __clzll(q[2]);
  q[3] = __mul64hi(q[4], q[5]) + llabs(q[6]) + q[7] / q[8] + q[9] % 7;
  u[0] = __brevll(u[1]) + __funnelshift_r(p[3], p[4], p[5]);
  __syncwarp(0xffffffff);
  p[6] = __syncthreads_count(p[7] > 0) + __syncthreads_and(p[8]) + __syncthreads_or(p[9]);
  p[10] = __all_sync(~0u, p[11]) + __any_sync(~0u, p[12]) + __uni_sync(~0u, p[13]);
  unsigned pred; p[14] = __match_all_sync(~0u, p[15], (int*)&pred);
  __prof_trigger(3);
  if (p[16] == 99) __trap();
  if (p[17] == 98) __brkpt();
  p[18] = __float_as_int(__int_as_float(p[19]) * 2.f) + __double2hiint(1.0 * p[20]);
  p[21] = atomicInc((unsigned*)p + 22, 10) + atomicDec((unsigned*)p + 23, 10) + atomicOr_block(p + 24, 1) + atomicAdd_system(p + 25, 1);
}
