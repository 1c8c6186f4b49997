// Loops with data-dependent trip counts (Collatz steps, capped) and an early-exit search loop.
#include "common.h"

__kernel void loop_div(__global const uint *a, __global const int *hay, __global uint *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint x = a[i];
	uint steps = 0;
	while (x > 1 && steps < 300) {
		x = (x & 1) ? 3 * x + 1 : x >> 1;
		steps++;
	}
	/* Find the first index whose value has the same low 5 bits as a[i]; 64 if none. */
	uint found = 64;
	for (uint k = 0; k < 64; k++) {
		if (((uint)hay[k] & 31) == (a[i] & 31)) {
			found = k;
			break;
		}
	}
	out[2 * i] = steps;
	out[2 * i + 1] = found;
}
