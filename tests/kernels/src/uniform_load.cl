// Uniform (scalar) loads through a __constant pointer with wave-uniform indices, and scalar
// kernel arguments of every width.
#include "common.h"

__kernel void uniform_load(__constant const int *tab, __global long *out, int k, long l, float f,
                           double d, uint n)
{
	uint i = gid_x();
	int t0 = tab[k];
	int t1 = tab[k + 3];
	int t2 = tab[(grp_x() + (uint)k) & 31];
	long t3 = ((__constant const long *)tab)[4];
	if (i < n)
		out[i] = (long)t0 * t1 + t2 + t3 + l + (long)(f * 4.0f) + (long)(d * 8.0) +
		         (long)tab[i & 31];
}
