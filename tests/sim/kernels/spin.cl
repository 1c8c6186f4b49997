// Waves spin on an LDS flag with s_sleep until the last wave sets it (amdsim: s_sleep yields
// the wave, docs/SIMULATOR.md).  mode bit 0: the flag is never set, a deadlock amdsim reports;
// bit 1: the spin has no s_sleep (amdsim gives the other waves a turn every SIM_QUANTUM
// instructions, so the spin still ends; without a release it runs out of instruction budget).
__kernel void spin(__global uint *out, uint n, uint mode)
{
	__local atomic_uint flag;
	__local uint data;
	uint t = __builtin_amdgcn_workitem_id_x();
	if (t == 0)
		__opencl_atomic_store(&flag, 0, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
	__builtin_amdgcn_s_barrier();
	if (t >= n - 64) { /* whole waves: lanes of a spinning wave never run another path */
		if (t == n - 1) {
			data = 1000 + __builtin_amdgcn_workgroup_id_x();
			if (!(mode & 1))
				__opencl_atomic_store(&flag, 1, __ATOMIC_RELEASE,
				                      __OPENCL_MEMORY_SCOPE_WORK_GROUP);
		}
		__builtin_amdgcn_s_barrier(); /* waits with the spinners still sleeping */
	} else {
		while (__opencl_atomic_load(&flag, __ATOMIC_ACQUIRE, __OPENCL_MEMORY_SCOPE_WORK_GROUP) == 0)
			if (!(mode & 2))
				__builtin_amdgcn_s_sleep(1);
	}
	out[__builtin_amdgcn_workgroup_id_x() * n + t] = data + t;
}
