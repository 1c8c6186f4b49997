// Bit manipulation: clz/ctz/popcount (32 and 64 bit), bit reverse, bit-field extract (unsigned
// and signed), bit-field insert, rotates, byte permute, align-bit; 16 results per element.
// (OpenCL long long is 128 bits wide: the 64-bit builtins are the *l ones.)
#include "common.h"

__kernel void bitops(__global const uint *a, __global const uint *b, __global uint *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	uint x = a[i], y = b[i];
	ulong xy = ((ulong)x << 32) | y;
	__global uint *o = out + 16 * i;
	o[0] = x ? (uint)__builtin_clz(x) : 32u;
	o[1] = x ? (uint)__builtin_ctz(x) : 32u;
	o[2] = (uint)__builtin_popcount(x);
	o[3] = __builtin_bitreverse32(x);
	o[4] = __builtin_amdgcn_ubfe(x, y & 31, (y >> 5) & 31);
	o[5] = (uint)__builtin_amdgcn_sbfe((int)x, y & 31, (y >> 5) & 31);
	o[6] = (x & 0x00ff00f0u) | (y & ~0x00ff00f0u);
	o[7] = (x << (y & 31)) | (x >> ((32 - (y & 31)) & 31));
	o[8] = __builtin_amdgcn_perm(x, y, 0x07020500u);
	o[9] = __builtin_amdgcn_alignbit(x, y, y & 31);
	o[10] = xy ? (uint)__builtin_clzl(xy) : 64u;
	o[11] = (uint)__builtin_popcountl(xy ^ (xy << 3));
	o[12] = (uint)(__builtin_bitreverse64(xy) >> 16);
	o[13] = (x >> 3) & 0x1fu;
	o[14] = (uint)((int)(x << 5) >> 20);
	o[15] = __builtin_bswap32(x);
}
