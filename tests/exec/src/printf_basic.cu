// Device printf (vprintf) for tests/exec/run_printf.py; builds with nvcc and with clang-19
// without the CUDA headers (see the PTX files' first lines for the commands).
extern "C" __attribute__((device)) int printf(const char *, ...);
#ifdef __clang__
#define TID_X   __nvvm_read_ptx_sreg_tid_x()
#define CTAID_X __nvvm_read_ptx_sreg_ctaid_x()
#else
#define TID_X   threadIdx.x
#define CTAID_X blockIdx.x
#endif

__attribute__((global)) void printf_basic(const int *a, int n)
{
	int i = TID_X;
	if (i >= n)
		return;
	unsigned u = 4000000000u - i;
	long long l = -5000000000LL * (i + 1);
	double d = a[i] * 0.25;
	printf("t%d u=%u l=%lld d=%5.2f x=%x c=%c %% %s\n", i, u, l, d, a[i], 'A' + i, "ok");
	if (i & 1)
		printf("odd %d\tf:%f\n", i, (float)i * 0.5f);
}

// Several blocks; a string chosen per thread; a loop (per-thread order); no arguments.
__attribute__((global)) void printf_more(const int *a)
{
	int b = CTAID_X, i = TID_X;
	int v = a[b * 4 + i];
	printf("b%d t%d %s %-4d| %+d %lu %hd %o %X %e %g\n", b, i, v > 0 ? "pos" : "nonpositive", v,
	       v, (unsigned long)(v * 1000000007LL), (short)v, v & 0777, v * 4096, v * 1.5e10,
	       v / 8.0);
	for (int j = 0; j < i; j++)
		printf("b%d t%d j%d\n", b, i, j);
	if (i == 0 && b == 1)
		printf("last\n");
}

// The result: the number of arguments, or -2 (CUDA's "internal error") when the printf
// buffer is full (run with a small buffer: amdsim --printf-buffer).
__attribute__((global)) void printf_ret(int *out)
{
	int i = TID_X;
	out[i] = printf("r%d\n", i);
}
