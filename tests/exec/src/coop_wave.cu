// CUB-style warp reductions and scans written for 32-lane warps with the literal
// 0xffffffff mask, __shfl_*_sync with a width argument and __reduce_*_sync, and nothing
// else warp-wide: no ballot, no lane mask results.  On wave32 and with --warp-size 32 this is
// ordinary CUDA; on wave64 (warp = wave) it compiles with a warning per mask and means what
// docs/WARP.md says: the c operand's fields are 6 bits wide, redux reduces the whole wave.
// nvcc's PTX for sm_80 (tests/exec/ptx/coop_wave.ptx; command there).  Reference:
// tests/exec/cases/cases_coop.py, for both wave sizes.
#ifndef KNAME // the kernel is named after its .ptx file (-DKNAME=...)
#define KNAME coop_wave
#endif
#define FULL 0xffffffffu
#define NV 8 // ints per thread in out

__device__ static unsigned lane_id(void)
{
	unsigned l;
	asm("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}

template <int W> __device__ int seg_reduce(int x)
{
#pragma unroll
	for (int o = W / 2; o > 0; o >>= 1)
		x += __shfl_down_sync(FULL, x, o, W);
	return x;
}

template <int W> __device__ int seg_scan(int x, unsigned lane)
{
#pragma unroll
	for (int o = 1; o < W; o <<= 1) {
		int y = __shfl_up_sync(FULL, x, o, W);
		if ((lane & (W - 1)) >= (unsigned)o)
			x += y;
	}
	return x;
}

extern "C" __global__ void KNAME(const int *in, int *out)
{
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = lane_id();
	int v = in[gid];
	int *o = out + gid * NV;
	o[0] = seg_reduce<32>(v);
	o[1] = seg_reduce<16>(v);
	o[2] = seg_scan<32>(v, lane);
	o[3] = seg_scan<8>(v, lane);
	o[4] = __shfl_sync(FULL, v, 0) - __shfl_xor_sync(FULL, v, 5, 8);
	o[5] = (int)__reduce_add_sync(FULL, (unsigned)v);
	o[6] = __reduce_max_sync(FULL, v);
	o[7] = (int)lane;
}
