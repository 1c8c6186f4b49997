// OpenCL printf as clang-19 lowers it for AMDGPU (AMDGPUPrintfRuntimeBinding: a call of
// __printf_alloc(bytes), then the format id and the arguments stored into the record; the
// formats in the code object's amdhsa.printf): the oracle for amdsim's printf buffer
// (tests/exec/run_printf.py).  Built with -nogpulib, so __printf_alloc is defined here, as the
// ROCm device library does it for code object v5: the buffer is the hidden_printf_buffer
// argument (implicit argument byte 72), dword 0 the bytes used, dword 1 the size, records
// from byte 8.
__global char *__printf_alloc(uint bytes)
{
	__global char *ptr = (__global char *)((__constant size_t *)__builtin_amdgcn_implicitarg_ptr())[9];
	uint size = ((__global uint *)ptr)[1];
	uint offset = __opencl_atomic_load((__global atomic_uint *)ptr, memory_order_relaxed,
	                                   memory_scope_device);
	for (;;) {
		if (8 + offset + bytes > size)
			return NULL;
		if (__opencl_atomic_compare_exchange_strong((__global atomic_uint *)ptr, &offset,
		                                            offset + bytes, memory_order_relaxed,
		                                            memory_order_relaxed, memory_scope_device))
			break;
	}
	return ptr + 8 + offset;
}

__kernel void printf_ocl(__global const int *a)
{
	int i = (int)(__builtin_amdgcn_workgroup_id_x() * 8 + __builtin_amdgcn_workitem_id_x()); // blocks of 8
	int v = a[i];
	printf("i=%d v=%5d x=%08x f=%.3f %s %ld %c %%\n", i, v, v, (float)v / 4.0f, "str", (long)v * 1000000000L, 'a' + i);
	if (v < 0)
		printf("neg %d %e\n", i, (double)v);
	if (i == 0)
		printf("first\n");
}
