// 64-bit integer arithmetic: multiply, divide, modulo, high halves, hashing, 128-bit.
#include "pa_cuda.h"

static __device__ __forceinline__ unsigned long long splitmix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

__global__ void hash_keys(const unsigned long long *keys, unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = splitmix64(keys[i] ^ (unsigned long long)i);
}

__global__ void divmod64(const long long *a, const long long *b, long long *q, long long *r,
                         unsigned long long *uq, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n || b[i] == 0)
		return;
	q[i] = a[i] / b[i];
	r[i] = a[i] % b[i];
	uq[i] = (unsigned long long)a[i] / (unsigned long long)b[i] +
	        (unsigned long long)a[i] % 1000000007ull;
}

__global__ void mulhi64(const unsigned long long *a, const unsigned long long *b,
                        unsigned long long *hi, long long *shi, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		hi[i] = __umul64hi(a[i], b[i]);
		shi[i] = __mul64hi((long long)a[i], (long long)b[i]);
	}
}

static __device__ unsigned long long mulmod(unsigned long long a, unsigned long long b,
                                            unsigned long long m)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	return (unsigned long long)(p % m);
}

__global__ void modpow(const unsigned long long *base, const unsigned long long *exp_,
                       unsigned long long mod, unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long r = 1, b = base[i] % mod, e = exp_[i];
	while (e) {
		if (e & 1)
			r = mulmod(r, b, mod);
		b = mulmod(b, b, mod);
		e >>= 1;
	}
	out[i] = r;
}

__global__ void add128(const unsigned long long *a, const unsigned long long *b,
                       unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned __int128 x = ((unsigned __int128)a[2 * i + 1] << 64) | a[2 * i];
	unsigned __int128 y = ((unsigned __int128)b[2 * i + 1] << 64) | b[2 * i];
	unsigned __int128 s = x + y, d = x - y, p = x * y;
	out[6 * i + 0] = (unsigned long long)s;
	out[6 * i + 1] = (unsigned long long)(s >> 64);
	out[6 * i + 2] = (unsigned long long)d;
	out[6 * i + 3] = (unsigned long long)(d >> 64);
	out[6 * i + 4] = (unsigned long long)p;
	out[6 * i + 5] = (unsigned long long)(p >> 64);
}

__global__ void bits64(const unsigned long long *x, int *out, unsigned long long *rev, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned long long v = x[i];
		out[2 * i] = __popcll(v);
		out[2 * i + 1] = __clzll((long long)v);
		rev[i] = __brevll(v) ^ (v << 17 | v >> 47);
	}
}

__global__ void gcd64(const long long *a, const long long *b, long long *g, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	long long x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
	while (y != 0) {
		long long t = x % y;
		x = y;
		y = t;
	}
	g[i] = x;
}

__global__ void index_math(float *base, long long stride, int rows, int cols)
{
	long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;
	long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r < rows && c < cols)
		base[r * stride + c] *= (float)(r * cols + c);
}
