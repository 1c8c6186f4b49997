// mma.m16n8k16 operand fragments loaded from shared-memory tiles with inline ldmatrix, the way
// CUTLASS and llama.cpp do it: A (16x16 f16, row-major) with ldmatrix.x4, each lane giving the
// address of row (lane % 16), column block (lane / 16) * 8; B (16x8, k-major rows: B[k][n])
// with ldmatrix.x2.trans, each lane giving row k = lane % 16.  The tiles sit in shared memory
// with padded rows (CUTLASS-style, to spread banks), one pair per warp, and a k-loop walks two
// k-steps.  Every lane writes its fragment registers; the reference (tests/exec/cases/
// cases_ldmatrix.py) is the PTX ISA's fragment layout of mma.m16n8k16 .f16 A and B.
// nvcc -arch=sm_80 -ptx tests/exec/src/ldmatrix_frag.cu -o tests/exec/ptx/ldmatrix_frag.ptx
#include <stdint.h>

#define WARPS 2
#define KSTEPS 2
#define A_STRIDE 24 // halves per row of the A tile: 16 + 8 of padding (48 bytes)
#define B_STRIDE 16 // halves per row of the B tile: 8 + 8 of padding (32 bytes)

__device__ static void ldsm_x4(uint32_t r[4], const void *p)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
	             : "r"(a));
}

__device__ static void ldsm_x2_trans(uint32_t r[2], const void *p)
{
	uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
	             : "=r"(r[0]), "=r"(r[1])
	             : "r"(a));
}

// a: per block, WARPS * KSTEPS tiles of 16x16 halves; b: WARPS * KSTEPS tiles of 16x8;
// out: per thread, KSTEPS * 6 words (4 of A, 2 of B per k-step).
extern "C" __global__ void ldmatrix_frag(const uint16_t *a, const uint16_t *b, uint32_t *out)
{
	__shared__ __align__(16) uint16_t as[WARPS][16 * A_STRIDE];
	__shared__ __align__(16) uint16_t bs[WARPS][16 * B_STRIDE];
	unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	unsigned tile0 = (blockIdx.x * WARPS + warp) * KSTEPS;
	uint32_t *o = out + (blockIdx.x * blockDim.x + threadIdx.x) * KSTEPS * 6;
	for (int k = 0; k < KSTEPS; k++) {
		const uint16_t *at = a + (tile0 + k) * 256, *bt = b + (tile0 + k) * 128;
		for (unsigned i = lane; i < 256; i += 32)
			as[warp][(i / 16) * A_STRIDE + i % 16] = at[i];
		for (unsigned i = lane; i < 128; i += 32)
			bs[warp][(i / 8) * B_STRIDE + i % 8] = bt[i];
		__syncwarp();
		uint32_t fa[4], fb[2];
		ldsm_x4(fa, &as[warp][(lane % 16) * A_STRIDE + (lane / 16) * 8]);
		ldsm_x2_trans(fb, &bs[warp][(lane % 16) * B_STRIDE]);
		for (int r = 0; r < 4; r++)
			o[k * 6 + r] = fa[r];
		o[k * 6 + 4] = fb[0];
		o[k * 6 + 5] = fb[1];
		__syncwarp();
	}
}
