// Device function calls: __noinline__ functions, recursion, structs by value,
// function pointers (indirect calls), printf (vprintf), external linkage.
#include "pa_cuda.h"

struct Vec3 {
	float x, y, z;
};

struct Stats {
	double mean;
	double var;
	int count;
};

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b)
{
	Vec3 r;
	r.x = a.y * b.z - a.z * b.y;
	r.y = a.z * b.x - a.x * b.z;
	r.z = a.x * b.y - a.y * b.x;
	return r;
}

__device__ __noinline__ float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

__device__ __noinline__ Stats running_stats(const double *x, int n)
{
	Stats s = {0.0, 0.0, 0};
	for (int i = 0; i < n; ++i) {
		s.count++;
		double d = x[i] - s.mean;
		s.mean += d / s.count;
		s.var += d * (x[i] - s.mean);
	}
	s.var = s.count > 1 ? s.var / (s.count - 1) : 0.0;
	return s;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned ackermann(unsigned m, unsigned n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ void write_pair(int *out, int a, long long b, float c, double d,
                                        unsigned char e, short f)
{
	out[0] = a + e;
	out[1] = (int)b + f;
	out[2] = (int)c;
	out[3] = (int)d;
}

__global__ void geometry(const Vec3 *a, const Vec3 *b, Vec3 *c, float *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		c[i] = cross(a[i], b[i]);
		d[i] = dot(a[i], c[i]);
	}
}

__global__ void stats_kernel(const double *x, int rows, int cols, Stats *out)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r < rows)
		out[r] = running_stats(x + (long)r * cols, cols);
}

__global__ void recursion(const int *in, int *out, unsigned *ack, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[i] = fib(in[i] & 15);
		ack[i] = ackermann(2, (unsigned)(in[i] & 7));
		write_pair(out + n + 4 * i, i, (long long)i << 33, 1.5f * i, 2.5 * i,
		           (unsigned char)i, (short)-i);
	}
}

typedef float (*unary_fn)(float);

__device__ __noinline__ float op_square(float x) { return x * x; }
__device__ __noinline__ float op_negate(float x) { return -x; }
__device__ __noinline__ float op_halve(float x) { return x * 0.5f; }
__device__ __noinline__ float op_recip(float x) { return 1.0f / x; }

__device__ unary_fn op_table[4] = {op_square, op_negate, op_halve, op_recip};

__global__ void apply_indirect(const float *in, const int *which, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unary_fn f = op_table[which[i] & 3];
		out[i] = f(in[i]);
	}
}

__device__ __noinline__ float apply_twice(unary_fn f, float x) { return f(f(x)); }

__global__ void apply_selected(const float *in, float *out, int n, int sel)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unary_fn f = sel == 0 ? op_square : (sel == 1 ? op_negate : op_halve);
	if (i < n)
		out[i] = apply_twice(f, in[i]);
}

__global__ void debug_print(const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && (i % 1024) == 0)
		printf("block %d thread %d: x=%f (%s) %lld\n", blockIdx.x, threadIdx.x, (double)x[i],
		       x[i] > 0.0f ? "pos" : "neg", (long long)i * 3);
	if (i == 0)
		printf("done\n");
}

extern "C" __device__ __noinline__ int c_linkage_helper(int a, int b) { return a * 31 + b; }

extern "C" __global__ void c_linkage_kernel(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = c_linkage_helper(x[i], i);
}
