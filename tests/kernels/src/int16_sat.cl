// 16-bit and 8-bit integer arithmetic (wrapping, saturating, min/max, shifts) and 32-bit
// saturating adds/subtracts; 10 results per element.
#include "common.h"

__kernel void int16_sat(__global const short *a, __global const short *b, __global const int *c,
                        __global int *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	short x = a[i], y = b[i];
	ushort ux = (ushort)x, uy = (ushort)y;
	int z = c[i];
	__global int *o = out + 10 * i;
	o[0] = (short)(x + y);
	o[1] = (short)(x * y);
	/* Scalar short operands would be promoted to int: 2-vectors keep the 16-bit element type.
	 */
	short2 ss = __builtin_elementwise_add_sat((short2)(x, y), (short2)(y, x));
	ushort2 us = __builtin_elementwise_sub_sat((ushort2)(ux, uy), (ushort2)(uy, ux));
	o[2] = ss.x;
	o[3] = us.x;
	o[4] = (short)(x < y ? x : y);
	o[5] = (ushort)(ux > uy ? ux : uy);
	o[6] = (short)(x >> (y & 15));
	o[7] = (char)((char)x + (char)y);
	o[8] = __builtin_elementwise_add_sat(z, (int)x * 65536);
	o[9] = (int)__builtin_elementwise_sub_sat((uint)z, (uint)(ushort)y * 65536u);
}
