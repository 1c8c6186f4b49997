/* Kernels for tests/sim/clang_insns.py.  Loop-heavy integer kernels: clang-19 -O3 brackets
 * loops of 128-192 bytes with the instruction-prefetch hints (s_inst_prefetch on gfx1030,
 * s_set_inst_prefetch_distance on gfx11); integer arithmetic only, so that the CPU reference
 * in clang_insns.py is exact.  The source of hash_loop is a ulong: the metadata lists it
 * by_value, and amdsim passes a buffer's address there.  hints: the hint and scalar-cache
 * builtins. */
#include "common.h"

__kernel void hash_loop(ulong src, __global uint *out, uint iters)
{
	__global const uint *in = (__global const uint *)src;
	uint i = gid_x();
	uint h = in[i], a = i * 2654435761u, b = 0x9e3779b9u;
	for (uint k = 0; k < iters; k++) {
		h ^= h << 13;
		h ^= h >> 17;
		h ^= h << 5;
		a = a * 1664525u + 1013904223u;
		b += (h ^ a) >> (k & 7);
		h += in[(i + k) & 255] * (k | 1);
		if (b & 1)
			a ^= h;
	}
	out[i] = h ^ a ^ b;
}

__kernel void nested_loop(__global const uint *in, __global uint *out, uint n)
{
	uint i = gid_x();
	uint acc = 0;
	for (uint j = 0; j < n; j++) {
		uint x = in[(i * 7 + j) & 255];
		for (uint k = 0; k < (j & 3) + 2; k++) {
			x = (x >> 3 | x << 29) + k * 0x45d9f3bu;
			x ^= x >> 11;
			acc += x % 1000u + (x & (k + 1));
		}
		acc = acc * 31u + (x >> 16);
	}
	out[i] = acc;
}

/* The hint instructions clang-19 emits for these builtins (s_ttracedata reads M0, which
 * gfx9 may read only one wait state after an SALU writes it). */
__kernel void hints(__global uint *out, uint v)
{
	__builtin_amdgcn_s_incperflevel(3);
	__builtin_amdgcn_s_setprio(2);
	__builtin_amdgcn_s_ttracedata((int)v);
	__builtin_amdgcn_s_sleep(1);
#ifdef __gfx1200__
	__builtin_amdgcn_s_sleep_var(v & 3); /* gfx12 only */
#endif
	__builtin_amdgcn_s_dcache_inv();
#if defined(__gfx90a__) || defined(__gfx942__)
	__builtin_amdgcn_s_dcache_wb(); /* gfx9 only */
	__builtin_amdgcn_s_dcache_inv_vol();
#endif
	__builtin_amdgcn_s_decperflevel(3);
	__builtin_amdgcn_s_setprio(0);
	out[gid_x()] = v * 2u + gid_x();
}

/* LDS float/double atomic min/max, with and without return (gfx12: ds_min_num_f32 ...):
 * per group the extremes of in[] >> 8 (exact in float), and per item whether the value the
 * returning min saw lies between the final minimum and the initial bound. */
__kernel void lds_minmax(__global const uint *in, __global float *outf, __global double *outd,
                         __global uint *seen)
{
	__local float lf[2];
	__local double ld[2];
	uint i = lid_x(), g = grp_x();
	if (i == 0) {
		lf[0] = 1e30f;
		lf[1] = -1e30f;
		ld[0] = 1e300;
		ld[1] = -1e300;
	}
	wg_barrier();
	float v = (float)(in[gid_x()] >> 8);
	float old = __atomic_fetch_min(&lf[0], v, __ATOMIC_RELAXED);
	__atomic_fetch_max(&lf[1], v, __ATOMIC_RELAXED);
	__atomic_fetch_min(&ld[0], (double)in[gid_x()], __ATOMIC_RELAXED);
	double oldd = __atomic_fetch_max(&ld[1], (double)in[gid_x()], __ATOMIC_RELAXED);
	wg_barrier();
	seen[gid_x()] = (old >= lf[0] && old <= 1e30f) + 2 * (oldd <= ld[1] && oldd >= -1e300);
	if (i == 0) {
		outf[2 * g] = lf[0];
		outf[2 * g + 1] = lf[1];
		outd[2 * g] = ld[0];
		outd[2 * g + 1] = ld[1];
	}
}

/* fmin/fmax of doubles, NaN operands included (gfx12: v_min_num_f64/v_max_num_f64, which clang
 * precedes with v_max_num_f64 x, x to quiet signalling NaNs) */
__kernel void nan_minmax(__global const ulong *in, __global ulong *out)
{
	uint i = gid_x();
	double a = as_double(in[2 * i]), b = as_double(in[2 * i + 1]);
	out[2 * i] = as_ulong(fmin(a, b));
	out[2 * i + 1] = as_ulong(fmax(a, b));
}
