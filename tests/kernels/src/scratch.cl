// Private arrays indexed with data-dependent subscripts, too big to live in registers, so they
// go to scratch (private segment) memory.
#include "common.h"

__kernel void scratch(__global const uint *a, __global uint *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint buf[96];
	uint seed = a[i];
	for (uint k = 0; k < 96; k++) {
		seed = seed * 1664525u + 1013904223u;
		buf[k] = seed;
	}
	uint acc = 0;
	uint idx = a[i] % 96;
	for (uint k = 0; k < 200; k++) {
		acc += buf[idx] ^ k;
		buf[(idx * 7 + k) % 96] += acc;
		idx = (buf[idx] >> 7) % 96;
	}
	out[i] = acc ^ buf[a[i] % 96];
}
