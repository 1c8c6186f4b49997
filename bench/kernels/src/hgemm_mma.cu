// C = A * B (row-major f16 M x K times K x N, f32 C) on the tensor cores: 32x16 tiles of A
// and B in shared memory, per warp a 16x16 tile of C as two mma.sync.m16n8k16 sharing one
// ldmatrix.x4 A fragment (B: one ldmatrix.x4.trans).  M is a multiple of 32, N and K of 16;
// 64 threads per block.  Halves are passed as their bits (unsigned short) so that one source
// needs no half-precision header.  clang's AMDGPU side computes the same tiles with the
// matrix unit's builtins (MFMA 16x16x16 on gfx90a/gfx942, WMMA on gfx1100).
#include "bench_cuda.h"

#define TM 32
#define TN 16
#define TK 16

#if defined(__AMDGCN__)
typedef _Float16 bk_half4 __attribute__((ext_vector_type(4)));
typedef _Float16 bk_half16 __attribute__((ext_vector_type(16)));
typedef float bk_float4 __attribute__((ext_vector_type(4)));
typedef float bk_float8 __attribute__((ext_vector_type(8)));

BK_DEV _Float16 bk_h(unsigned short bits) { return __builtin_bit_cast(_Float16, bits); }
#else
BK_DEV unsigned smem_u32(const void *p)
{
	unsigned a;
	asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
	return a;
}

BK_DEV void mma16816(float *d, const unsigned *a, unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
	             "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif

BK_KERNEL void __launch_bounds__(64)
    hgemm_mma(const unsigned short *a, const unsigned short *b, float *c, int m, int n, int k)
{
	__shared__ __attribute__((aligned(16))) unsigned short as[TM * TK];
	__shared__ __attribute__((aligned(16))) unsigned short bs[TK * TN];
	int t = threadIdx.x, lane = t & 31, warp = t >> 5;
	int row0 = blockIdx.y * TM, col0 = blockIdx.x * TN;
#if defined(__AMDGCN__) && __AMDGCN_WAVEFRONT_SIZE == 64
	bk_float4 acc[2] = {};
	int i = t & 15, kq = t >> 4; /* one wave: both 16-row halves, v_mfma_f32_16x16x16f16 */
#elif defined(__AMDGCN__)
	bk_float8 acc = {};
#else
	float acc[2][4] = {};
#endif
	for (int kk = 0; kk < k; kk += TK) {
		for (int e = t; e < TM * TK; e += 64)
			as[e] = a[(row0 + e / TK) * k + kk + e % TK];
		for (int e = t; e < TK * TN; e += 64)
			bs[e] = b[(kk + e / TN) * n + col0 + e % TN];
		__syncthreads();
#if defined(__AMDGCN__) && __AMDGCN_WAVEFRONT_SIZE == 64
		bk_half4 bf;
		for (int e = 0; e < 4; e++)
			bf[e] = bk_h(bs[(4 * kq + e) * TN + i]);
		for (int h = 0; h < 2; h++) {
			bk_half4 af;
			for (int e = 0; e < 4; e++)
				af[e] = bk_h(as[(16 * h + i) * TK + 4 * kq + e]);
			acc[h] = __builtin_amdgcn_mfma_f32_16x16x16f16(af, bf, acc[h], 0, 0, 0);
		}
#elif defined(__AMDGCN__)
		bk_half16 af, bf;
		for (int e = 0; e < 16; e++) {
			af[e] = bk_h(as[(16 * warp + (lane & 15)) * TK + e]);
			bf[e] = bk_h(bs[e * TN + (lane & 15)]);
		}
		acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(af, bf, acc);
#else
		unsigned af[4], bf[4];
		int q = lane >> 3, r = lane & 7;
		unsigned pa = smem_u32(&as[(16 * warp + (q & 1) * 8 + r) * TK + (q >> 1) * 8]);
		unsigned pb = smem_u32(&bs[((q & 1) * 8 + r) * TN + (q >> 1) * 8]);
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		             : "=r"(af[0]), "=r"(af[1]), "=r"(af[2]), "=r"(af[3])
		             : "r"(pa));
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
		             : "=r"(bf[0]), "=r"(bf[1]), "=r"(bf[2]), "=r"(bf[3])
		             : "r"(pb));
		mma16816(acc[0], af, bf[0], bf[1]);
		mma16816(acc[1], af, bf[2], bf[3]);
#endif
		__syncthreads();
	}
#if defined(__AMDGCN__) && __AMDGCN_WAVEFRONT_SIZE == 64
	for (int h = 0; h < 2; h++)
		for (int r = 0; r < 4; r++)
			c[(row0 + 16 * h + 4 * kq + r) * n + col0 + i] = acc[h][r];
#elif defined(__AMDGCN__)
	for (int r = 0; r < 8; r++)
		c[(row0 + 16 * warp + 2 * r + (lane >> 4)) * n + col0 + (lane & 15)] = acc[r];
#else
	int g = lane >> 2, tq = lane & 3;
	for (int j = 0; j < 2; j++)
		for (int x = 0; x < 4; x++)
			c[(row0 + 16 * warp + g + 8 * (x >> 1)) * n + col0 + 8 * j + 2 * tq + (x & 1)] =
			        acc[j][x];
#endif
}
