// Device functions clang-19 keeps as calls (noinline) at -O3: scalar parameters of mixed
// types, a struct
// returned by value, early and divergent returns, a call in a loop, nested calls and a void
// function that stores through a pointer.
#include "common.h"
struct pair {
	float x, y;
	int tag;
};

__attribute__((noinline)) static uint hash3(uint a, ulong b, float c, int s, uint u)
{
	return (a * 2654435761u) ^ (uint)(b >> 17) ^ (uint)(int)c ^ ((uint)s * 9u) ^ (u * 65537u);
}

__attribute__((noinline)) static struct pair scale(float x, float y, int tag, float s)
{
	struct pair r = {x * s, y - s, tag ^ 0x55};
	return r;
}

__attribute__((noinline)) static int steps(uint x)
{
	if (x == 0)
		return -1;
	int n = 0;
	while (x != 1) {
		if (n > 200)
			return 1000 + n;
		x = (x & 1) ? 3 * x + 1 : x / 2;
		n++;
	}
	return n;
}

__attribute__((noinline)) static double poly(double x, int n)
{
	double r = 0.0;
	for (int k = n; k >= 0; k--)
		r = r * x + (double)(k + 1);
	return r;
}

__attribute__((noinline)) static uint twice_hash(uint a)
{
	return hash3(a, (ulong)a << 20, 1.5f, (int)a, a >> 3) + hash3(a + 1, 7, -2.0f, -3, 200);
}

__attribute__((noinline)) static void store2(__global uint *p, uint v)
{
	p[0] = v;
	p[1] = ~v;
}

__kernel void calls_cl(__global const uint *a, __global const float *f, __global uint *out,
                       __global float *fout, __global double *dout, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint v = a[i];
	out[6 * i + 0] = hash3(v, (ulong)v * v, f[i], (int)(v >> 4), v & 255);
	struct pair q = scale(f[i], (float)(v & 1023), (int)v, 0.25f * (float)(v & 7));
	fout[3 * i + 0] = q.x;
	fout[3 * i + 1] = q.y;
	out[6 * i + 1] = (uint)q.tag;
	out[6 * i + 2] = (uint)steps(v % 100000u);
	double acc = 0.0;
	for (uint k = 0; k < (v & 3); k++)
		acc += poly((double)k * 0.5, (int)(v % 6));
	dout[i] = acc;
	out[6 * i + 3] = twice_hash(v);
	store2(&out[6 * i + 4], v * 3u);
}
