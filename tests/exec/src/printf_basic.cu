extern "C" __device__ int printf(const char *, ...);
__global__ void printf_basic(const int *a, int n)
{
	int i = threadIdx.x;
	if (i >= n)
		return;
	unsigned u = 4000000000u - i;
	long long l = -5000000000LL * (i + 1);
	double d = a[i] * 0.25;
	printf("t%d u=%u l=%lld d=%5.2f x=%x c=%c %% %s\n", i, u, l, d, a[i], 'A' + i, "ok");
	if (i & 1)
		printf("odd %d f=%f\n", i, (float)i * 0.5f);
}
