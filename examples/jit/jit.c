/* jit: compiles a PTX kernel in-process with libptxas-amd and writes the code object, as a
 * CUDA-on-AMD runtime would before handing it to hipModuleLoadData.
 *
 *   jit [GPU [OUT.hsaco]]     (default gfx90a, vadd.hsaco)
 *
 * The PTX is a string in this program (a runtime receives it from the application); the
 * result is an AMDHSA code object in memory.  With a comma-separated GPU list
 * ("gfx90a,gfx1100") it is a clang offload bundle, which hipModuleLoadData accepts too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptxas-amd.h>

/* c[i] = a[i] + b[i] for i < n, as nvcc writes it for
 * __global__ void vadd(const float *a, const float *b, float *c, int n). */
static const char vadd_ptx[] =
        ".version 7.0\n"
        ".target sm_70\n"
        ".address_size 64\n"
        "\n"
        ".visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
        "{\n"
        "\t.reg .pred %p<2>;\n"
        "\t.reg .b32 %r<6>;\n"
        "\t.reg .f32 %f<4>;\n"
        "\t.reg .b64 %rd<11>;\n"
        "\tld.param.u64 %rd1, [a];\n"
        "\tld.param.u64 %rd2, [b];\n"
        "\tld.param.u64 %rd3, [c];\n"
        "\tld.param.u32 %r2, [n];\n"
        "\tmov.u32 %r3, %ctaid.x;\n"
        "\tmov.u32 %r4, %ntid.x;\n"
        "\tmov.u32 %r5, %tid.x;\n"
        "\tmad.lo.s32 %r1, %r3, %r4, %r5;\n"
        "\tsetp.ge.s32 %p1, %r1, %r2;\n"
        "\t@%p1 bra DONE;\n"
        "\tcvta.to.global.u64 %rd4, %rd1;\n"
        "\tcvta.to.global.u64 %rd5, %rd2;\n"
        "\tcvta.to.global.u64 %rd6, %rd3;\n"
        "\tmul.wide.s32 %rd7, %r1, 4;\n"
        "\tadd.s64 %rd8, %rd4, %rd7;\n"
        "\tadd.s64 %rd9, %rd5, %rd7;\n"
        "\tadd.s64 %rd10, %rd6, %rd7;\n"
        "\tld.global.f32 %f1, [%rd8];\n"
        "\tld.global.f32 %f2, [%rd9];\n"
        "\tadd.f32 %f3, %f1, %f2;\n"
        "\tst.global.f32 [%rd10], %f3;\n"
        "DONE:\n"
        "\tret;\n"
        "}\n";

/* Prints a failed call's result and the compiler's error log. */
static int fail(ptxas_amd_handle h, const char *what, ptxas_amd_result r)
{
	fprintf(stderr, "jit: %s: %s\n", what, ptxas_amd_result_name(r));
	size_t n;
	if (h && ptxas_amd_get_error_log_size(h, &n) == PTXAS_AMD_SUCCESS && n > 1) {
		char *log = malloc(n);
		if (log && ptxas_amd_get_error_log(h, log) == PTXAS_AMD_SUCCESS)
			fputs(log, stderr);
		free(log);
	}
	ptxas_amd_destroy(&h);
	return 1;
}

static int write_file(const char *path, const void *bytes, size_t size)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(bytes, 1, size, f) == size;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok)
		fprintf(stderr, "jit: cannot write '%s'\n", path);
	return ok;
}

int main(int argc, char **argv)
{
	const char *gpu = argc > 1 ? argv[1] : "gfx90a";
	const char *out = argc > 2 ? argv[2] : "vadd.hsaco";
	unsigned major, minor;
	ptxas_amd_get_version(&major, &minor);
	printf("libptxas-amd %u.%u\n", major, minor);

	ptxas_amd_handle h;
	ptxas_amd_result r = ptxas_amd_create(&h, strlen(vadd_ptx), vadd_ptx);
	if (r != PTXAS_AMD_SUCCESS)
		return fail(NULL, "create", r);
	const char *options[] = {"--gpu-name", gpu, "-O3", "-v"};
	r = ptxas_amd_compile(h, 4, options);
	if (r != PTXAS_AMD_SUCCESS)
		return fail(h, "compile", r);

	size_t info_size;
	ptxas_amd_get_info_log_size(h, &info_size);
	char *info = malloc(info_size);
	if (info && ptxas_amd_get_info_log(h, info) == PTXAS_AMD_SUCCESS)
		fputs(info, stdout); /* the -v lines: registers, LDS, occupancy per kernel */
	free(info);

	size_t size;
	ptxas_amd_get_code_object_size(h, &size);
	void *code = malloc(size);
	if (!code)
		return fail(h, "malloc", PTXAS_AMD_ERROR_OUT_OF_MEMORY);
	ptxas_amd_get_code_object(h, code);
	/* A runtime would now call hipModuleLoadData(&module, code) and
	 * hipModuleGetFunction(&fn, module, "vadd"); this example writes the file. */
	int ok = write_file(out, code, size);
	if (ok)
		printf("jit: wrote %zu bytes to %s\n", size, out);
	free(code);
	ptxas_amd_destroy(&h);
	return ok ? 0 : 1;
}
