#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using namespace nvcuda;
__device__ __managed__ int managed_x;
__constant__ float cst[16];

__global__ void k_wmma(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void k_async(const float4 *g, float4 *out) {
  __shared__ float4 s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}
__global__ void k_atomics(int *p, unsigned long long *q, float *f, double *d, __half2 *h, __nv_bfloat16 *bf) {
  atomicAdd(p, 1); atomicCAS(p + 1, 0, 1); atomicMin(p + 2, 3); atomicAnd(p+3, 7);
  atomicAdd(q, 2ull); atomicExch(q + 1, 5ull); atomicAdd(f, 1.0f); atomicAdd(d, 2.0);
  atomicAdd(h, __floats2half2_rn(1.f, 2.f));
  bf[threadIdx.x] = __hadd(bf[threadIdx.x], bf[threadIdx.x + 1]);
  unsigned m = __activemask();
  int v = __shfl_xor_sync(m, threadIdx.x, 1);
  v += __reduce_add_sync(m, v);
  v += __match_any_sync(m, v);
  v += __popc(v) + __clz(v) + __ffs(v) + __brev(v) + __byte_perm(v, 3, 0x5410);
  v += __funnelshift_l(v, 3, 5) + __dp4a(v, v, v) + __sad(v, 3, 2) + __usad(v, 1, 2);
  unsigned long long t = clock64();
  p[threadIdx.x] = v + (int)t + __mul24(v, 3) + __umulhi(v, 9) + __hadd(v, 7) + __rhadd(v, 1);
  __nanosleep(100);
  __threadfence(); __threadfence_block(); __threadfence_system();
  float x = __ldg(f + 1) + __ldcs(f + 2) + __ldlu(f + 3) + __ldcv(f+4);
  __stcg(f + 5, x); __stwt(f + 6, x); __stcs(f+7, x);
  f[8] = __fdividef(x, 3.f) + __sinf(x) + __expf(x) + __saturatef(x) + __frsqrt_rn(x) + rsqrtf(x) + tanhf(x) + erff(x) + __fmaf_rz(x, x, x);
  d[3] = __dadd_rz(d[1], d[2]) + __drcp_rn(d[1]) + __dsqrt_ru(d[2]) + sin(d[4]) + cbrt(d[5]);
  cg::thread_block tb = cg::this_thread_block();
  tb.sync();
  auto tile = cg::tiled_partition<8>(tb);
  p[9] = tile.shfl_down(v, 2) + tile.ballot(v > 2) + tile.any(v) ;
}
__global__ void k_half(__half *a, __half2 *b, __nv_bfloat162 *c) {
  a[0] = __hfma(a[1], a[2], a[3]); a[4] = hsqrt(a[5]); a[6] = __hmax(a[7], a[8]);
  b[0] = __hmul2(b[1], b[2]); b[3] = h2exp(b[4]); b[5] = __hneg2(b[6]);
  c[0] = __hfma2(c[1], c[2], c[3]); c[4] = __hmax2(c[5], c[6]);
  a[9] = __float2half_rz((float)__half2float(a[10]) * 2.f);
  a[11] = __int2half_rn((int)a[12]);
}
