// An int8 quantized matrix product in the style of LLM inference engines' MMQ kernels
// (tests/exec/cases/cases_mma.py): out[16x8] = da[i] * db[j] * (A[i] . B[j]) + mb * sum(B[j]),
// A 16x64 and B 8x64 int8 rows (4 per int, K contiguous), the dot products by inline
// mma.sync m16n8k32 .s8 with fragments loaded straight from global memory as the PTX ISA lays
// them out, the sums of B by __dp4a, shared with __shfl_sync.  One warp.
// nvcc -arch=sm_80 -ptx mmq_i8.cu -o ../ptx/mmq_i8.ptx
enum { K = 64, KW = K / 4 };

extern "C" __global__ void mmq_i8(const int *a, const int *b, const float *da, const float *db,
                                  float mb, float *out)
{
	int lane = threadIdx.x % 32, g = lane >> 2, t = lane % 4;
	int acc[4] = {0, 0, 0, 0};
	for (int k0 = 0; k0 < KW; k0 += 8) {
		int a0 = a[g * KW + k0 + t], a1 = a[(g + 8) * KW + k0 + t];
		int a2 = a[g * KW + k0 + 4 + t], a3 = a[(g + 8) * KW + k0 + 4 + t];
		int b0 = b[g * KW + k0 + t], b1 = b[g * KW + k0 + 4 + t];
		asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
		             "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
		             : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
		             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
	}
	int sum = 0; // lane j < 8: the sum of row j of B
	for (int w = 0; w < KW; w++)
		sum = __dp4a(b[(lane % 8) * KW + w], 0x01010101, sum);
	for (int e = 0; e < 4; e++) {
		int row = g + (e >= 2 ? 8 : 0), col = 2 * t + (e & 1);
		int sb = __shfl_sync(0xffffffffu, sum, col);
		out[row * 8 + col] = da[row] * db[col] * (float)acc[e] + mb * (float)sb;
	}
}
