// Divergent nested if/else chains with memory accesses inside the branches.
#include "common.h"

__kernel void branch_div(__global const int *a, __global const int *tab, __global int *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	int x = a[i];
	int r;
	if (x & 1) {
		if (x % 3 == 0)
			r = tab[(x >> 4) & 63] * 3;
		else
			r = x * x - tab[x & 63];
	} else if ((x & 6) == 2) {
		r = -x;
		if (x < 0)
			r += tab[(-x) & 63];
	} else {
		r = x ^ 0x5a5a;
	}
	out[i] = r;
}
