/* Runs examples/vadd.ptx, compiled by ptxas-amd, through the HIP module API: the
 * way a CUDA driver-API program (cuModuleLoad / cuModuleGetFunction /
 * cuLaunchKernel) maps onto HIP.
 *
 *   ptxas-amd examples/vadd.ptx --gpu-name gfx90a -o vadd.hsaco
 *   ./hip_host vadd.hsaco [N]
 *
 * Kernel arguments are passed exactly as with cuLaunchKernel: an array of pointers,
 * one per PTX .param, in order.  The code object's metadata (.args with .offset and
 * .size) tells HIP where each one goes in the kernarg segment; ptxas-amd puts
 * parameter i at its PTX .param offset, so a, b, c sit at 0, 8, 16 and n at 24.
 * Plain C17; build with
 *   cc -std=c17 -D__HIP_PLATFORM_AMD__ -I/usr/include hip_host.c -lamdhip64 */
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
	do {                                                                                       \
		hipError_t err_ = (call);                                                          \
		if (err_ != hipSuccess) {                                                          \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
			        hipGetErrorString(err_));                                          \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

static int run(const char *path, int n)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	if (!a || !b || !c)
		return 1;
	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	hipModule_t module;
	hipFunction_t vadd;
	CHECK(hipModuleLoad(&module, path));
	CHECK(hipModuleGetFunction(&vadd, module, "vadd")); /* the PTX .entry name */
	hipDeviceptr_t da, db, dc;
	CHECK(hipMalloc((void **)&da, bytes));
	CHECK(hipMalloc((void **)&db, bytes));
	CHECK(hipMalloc((void **)&dc, bytes));
	CHECK(hipMemcpyHtoD(da, a, bytes));
	CHECK(hipMemcpyHtoD(db, b, bytes));

	/* One pointer per PTX .param, like cuLaunchKernel's kernelParams. */
	void *args[] = {&da, &db, &dc, &n};
	unsigned block = 256, grid = ((unsigned)n + block - 1) / block;
	CHECK(hipModuleLaunchKernel(vadd, grid, 1, 1, block, 1, 1, 0 /* dynamic LDS */,
	                            NULL /* stream */, args, NULL));
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpyDtoH(c, dc, bytes));

	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i];
	printf("vadd: %d of %d results %s\n", bad ? bad : n, n, bad ? "WRONG" : "correct");
	CHECK(hipFree(da));
	CHECK(hipFree(db));
	CHECK(hipFree(dc));
	CHECK(hipModuleUnload(module));
	free(a);
	free(b);
	free(c);
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: %s VADD.hsaco [N]\n", argv[0]);
		return argc < 2 ? 2 : 0;
	}
	int n = argc > 2 ? atoi(argv[2]) : 1 << 20;
	return run(argv[1], n > 0 ? n : 1);
}
