/* Kernels for tests/sim/pk_f32_test.py: float2 arithmetic that clang-19 -O3 turns into the
 * packed f32 instructions on gfx90a and gfx942 (v_pk_fma_f32, v_pk_mul_f32, v_pk_add_f32, and
 * v_pk_fma_f32 with neg_lo/neg_hi for a negated addend); two scalar operations elsewhere. */
#include "common.h"

__kernel void pk_fma(__global const float2 *a, __global const float2 *b,
                     __global const float2 *c, __global float2 *out)
{
	uint i = gid_x();
	out[i] = __builtin_elementwise_fma(a[i], b[i], c[i]);
}

__kernel void pk_mul_add(__global const float2 *a, __global const float2 *b,
                         __global const float2 *c, __global float4 *out)
{
	uint i = gid_x();
	float2 x = a[i], y = b[i], z = c[i];
	out[i] = (float4)(x * y, x + z);
}

__kernel void pk_fms(__global const float2 *a, __global const float2 *b,
                     __global const float2 *c, __global float2 *out)
{
	uint i = gid_x();
	out[i] = __builtin_elementwise_fma(a[i], b[i], -c[i]);
}
