// Global variables in clang-19 -S output: initialised (.data), zero-initialised (.bss),
// file-local (.local/.comm) and __constant (.rodata) variables, reached through
// @rel32@lo/hi relocations, and a device function.  tests/driver/test_asm.py assembles it
// with ptxas-amd and with llvm-mc-19 + ld.lld-19.  One kernel only: our writer puts
// device functions after all kernels (docs/CODEOBJ.md), LLVM keeps source order, and
// with one kernel both layouts agree.
__global int counter;
__global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__global long big[3] = {1, -2, 0x123456789};
static __global int hidden_count;
__constant float coef[4] = {1.5f, 2.5f, 3.5f, 4.5f};

__attribute__((noinline)) static int bump(int by)
{
	counter += by;
	hidden_count += 1;
	return counter;
}

__kernel void globals(__global int *out, int k)
{
	int i = (int)(__builtin_amdgcn_workgroup_id_x() + __builtin_amdgcn_workitem_id_x());
	if (i == 0) {
		out[0] = bump(3) + (int)table[out[1] & 3] + (int)big[2];
		out[2] = hidden_count;
		out[3] = (int)(coef[k & 3] * 2.0f);
		table[1] = 7.0f;
	}
}
