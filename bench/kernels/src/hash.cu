// Integer hashing: each thread mixes its key through 16 rounds of a murmur3-style 32-bit
// finalizer and a 64-bit multiply-xorshift (splitmix64), and writes both words.
#include "bench_cuda.h"

BK_KERNEL void __launch_bounds__(256) hash(const unsigned *keys, unsigned *out, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i >= n)
		return;
	unsigned h = keys[i];
	unsigned long long z = ((unsigned long long)h << 32) | (unsigned)i;
	for (int r = 0; r < 16; r++) {
		h ^= h >> 16;
		h *= 0x85ebca6bu;
		h ^= h >> 13;
		h *= 0xc2b2ae35u;
		h ^= h >> 16;
		h += (unsigned)r * 0x9e3779b9u;
		z += 0x9e3779b97f4a7c15ull;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
	}
	out[2 * i] = h ^ (unsigned)z;
	out[2 * i + 1] = (unsigned)(z >> 32);
}
