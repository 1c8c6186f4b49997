// clang's CUDA without its wrapper headers (-nocudainc): assert() as glibc declares it,
// __assert_fail(assertion, file, line, function), an .extern .func of the PTX.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
extern "C" __device__ void __assert_fail(const char *assertion, const char *file, unsigned line,
                                         const char *function);
#define ASSERT(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))

extern "C" __global__ void check_sum(const int *in, int *out, int limit)
{
	int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
	        __nvvm_read_ptx_sreg_tid_x();
	int s = in[2 * i] + in[2 * i + 1];
	out[i] = s;
	ASSERT(s < limit);
	out[i] = -s;
}
