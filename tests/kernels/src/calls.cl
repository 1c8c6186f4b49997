// Real function calls (noinline): the call stack lives in scratch, arguments and results pass
// through registers and the stack, and a callee takes a pointer to the caller's private array.
#include "common.h"

__attribute__((noinline)) static uint mix(uint a, uint b, uint c, uint d, uint e, uint f)
{
	return (a * 31u + b) ^ (c * 17u + d) ^ (e << 3) ^ (f >> 2);
}

__attribute__((noinline)) static void fill(uint *buf, uint n, uint seed)
{
	for (uint k = 0; k < n; k++) {
		seed = seed * 747796405u + 2891336453u;
		buf[k] = seed >> 5;
	}
}

__attribute__((noinline)) static float poly(float x, int deg)
{
	float r = 0.0f;
	for (int k = deg; k >= 0; k--)
		r = r * x + (float)(k + 1);
	return r;
}

__kernel void calls(__global const uint *a, __global uint *out, __global float *fout, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint buf[24];
	fill(buf, 24, a[i]);
	uint acc = 0;
	for (uint k = 0; k + 5 < 24; k += 3)
		acc += mix(buf[k], buf[k + 1], buf[k + 2], buf[k + 3], buf[k + 4], buf[k + 5]);
	out[i] = acc ^ buf[a[i] % 24];
	fout[i] = poly((float)(a[i] & 7) * 0.5f, (int)(a[i] % 5));
}
