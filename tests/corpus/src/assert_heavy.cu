// corpus: nvcc-only (CUDA's assert.h and __assertfail)
// assert()-heavy device code: bounds checks in a CSR sparse matrix-vector product, invariant
// checks in a binary search, a queue with assertions on every push/pop, and asserts inside a
// __noinline__ helper and a loop.  Each failing assert is a call to __assertfail with the
// message, file, line and function.
#include <assert.h>

__device__ __noinline__ float checked_div(float a, float b)
{
	assert(b != 0.0f && "division by zero");
	return a / b;
}

__global__ void spmv_csr(int nrows, int ncols, const int *rowptr, const int *cols,
                         const float *vals, const float *x, float *y)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= nrows)
		return;
	int begin = rowptr[r], end = rowptr[r + 1];
	assert(begin <= end);
	float acc = 0.0f;
	for (int k = begin; k < end; k++) {
		int c = cols[k];
		assert(c >= 0 && c < ncols);
		acc += vals[k] * x[c];
	}
	y[r] = acc;
}

__global__ void search_sorted(const int *keys, int n, const int *queries, int *pos, int nq)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nq)
		return;
	int lo = 0, hi = n, q = queries[i];
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		assert(mid >= lo && mid < hi);
		assert(mid == 0 || keys[mid - 1] <= keys[mid]);
		if (keys[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	assert(lo >= 0 && lo <= n);
	pos[i] = lo;
}

__global__ void normalize(const float *in, const float *scale, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = checked_div(in[i], scale[i % 4]);
}

struct ring {
	int head, tail, cap;
	int *slots;
};

__global__ void ring_ops(int *slots, int cap, const int *ops, int nops, int *out)
{
	__shared__ ring r;
	if (threadIdx.x == 0) {
		r.head = r.tail = 0;
		r.cap = cap;
		r.slots = slots;
		for (int k = 0; k < nops; k++) {
			if (ops[k] >= 0) {
				assert(r.tail - r.head < r.cap && "push on a full ring");
				r.slots[r.tail++ % r.cap] = ops[k];
			} else {
				assert(r.tail > r.head && "pop on an empty ring");
				out[k] = r.slots[r.head++ % r.cap];
			}
		}
	}
	__syncthreads();
	assert(r.head <= r.tail);
}
