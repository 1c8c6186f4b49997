// A switch inside a data-dependent loop with continue and break: per-lane interpreter of a
// tiny bytecode, so every lane takes its own path.
// The accumulator is unsigned so that wrapping is defined.
#include "common.h"

__kernel void switch_loop(__global const uchar *code, __global const int *a, __global int *out,
                          uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint acc = (uint)a[i];
	uint pc = (uint)a[i] & 15;
	for (uint steps = 0; steps < 64; steps++) {
		uchar op = code[pc & 63];
		pc++;
		switch (op & 7) {
		case 0:
			acc += op;
			break;
		case 1:
			acc ^= acc >> 3;
			break;
		case 2:
			acc *= 3;
			break;
		case 3:
			if (acc & 1)
				continue;
			acc -= 17;
			break;
		case 4:
			pc += acc & 3;
			break;
		case 5:
			acc = (int)acc < 0 ? -acc : acc + 1;
			break;
		case 6:
			if ((acc & 15) == 7)
				steps = 64;
			break;
		default:
			acc = (acc << 1) | (acc >> 31);
			break;
		}
	}
	out[i] = (int)acc;
}
