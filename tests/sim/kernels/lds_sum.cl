// Per-workgroup tree reduction in LDS with barriers, then a compute loop (benchmark kernel).
__kernel void lds_sum(__global const uint *a, __global uint *out, uint iters)
{
	__local uint s[256];
	uint t = __builtin_amdgcn_workitem_id_x();
	uint g = __builtin_amdgcn_workgroup_id_x();
	uint v = a[g * 256 + t];
	for (uint k = 0; k < iters; k++)
		v = v * 1664525u + 1013904223u + (v >> 7);
	s[t] = v;
	__builtin_amdgcn_s_barrier();
	for (uint w = 128; w > 0; w >>= 1) {
		if (t < w)
			s[t] += s[t + w];
		__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
		__builtin_amdgcn_s_barrier();
		__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
	}
	if (t == 0)
		out[g] = s[0];
}
