// A kernel that spills heavily, for the scaling run of the register allocator (issue 21):
// an attention-like row kernel.  Each thread keeps a query row q[D] and an output row o[D]
// (2 x 96 floats) in registers across SPILL_SCALE x 4 key loops, each loop a dot product
// with a key row, an online-softmax rescale and an update of o with a value row, fully
// unrolled over D.  The two rows are live across every loop (long live ranges across
// back edges); one loop is about 700 PTX instructions.  Built at SPILL_SCALE 1, 2, 4, 8.
#ifndef SPILL_SCALE
#define SPILL_SCALE 1
#endif
#define D 96

__device__ __forceinline__ void attend(float (&q)[D], float (&o)[D], float &m, float &l,
                                       const float *__restrict__ k, const float *__restrict__ v,
                                       int n, float scale)
{
	for (int j = 0; j < n; j++) {
		float s = 0.f;
#pragma unroll
		for (int d = 0; d < D; d++)
			s += q[d] * k[j * D + d];
		s *= scale;
		float mn = fmaxf(m, s);
		float c = __expf(m - mn), p = __expf(s - mn);
		l = l * c + p;
		m = mn;
#pragma unroll
		for (int d = 0; d < D; d++)
			o[d] = o[d] * c + p * v[j * D + d];
	}
}

// Rounds R-1 .. 0, one key loop each (a template, so that nvcc expands every one).
template <int R> struct rounds {
	static __device__ __forceinline__ void run(float (&q)[D], float (&o)[D], float &m, float &l,
	                                           const float *k, const float *v, int n)
	{
		rounds<R - 1>::run(q, o, m, l, k, v, n);
		attend(q, o, m, l, k + (R - 1) * n * D, v + (R - 1) * n * D, n, 0.125f + R);
	}
};
template <> struct rounds<0> {
	static __device__ __forceinline__ void run(float (&)[D], float (&)[D], float &, float &,
	                                           const float *, const float *, int)
	{
	}
};

extern "C" __global__ void __launch_bounds__(128)
spill_attn(const float *__restrict__ qs, const float *__restrict__ ks,
           const float *__restrict__ vs, float *__restrict__ out, int n)
{
	int row = blockIdx.x * 128 + threadIdx.x;
	float q[D], o[D], m = -1e30f, l = 0.f;
#pragma unroll
	for (int d = 0; d < D; d++) {
		q[d] = qs[row * D + d];
		o[d] = 0.f;
	}
	rounds<SPILL_SCALE * 4>::run(q, o, m, l, ks, vs, n);
	float inv = 1.f / l;
#pragma unroll
	for (int d = 0; d < D; d++)
		out[row * D + d] = o[d] * inv;
}
