/* libptxas-amd's API contract, through the installed header and the shared library only:
 * results of every call on good and bad input, logs (file:line:col errors, -v lines),
 * refused options named in the log, the code object only after a successful compile, and
 * a multi-GPU compile's offload bundle holding the single-GPU code objects byte for byte.
 *
 *   api_test VERSION VADD.PTX      (VERSION: the project's, "0.1.0") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxas-amd.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

#define EXPECT(call, want)                                                                         \
	do {                                                                                       \
		ptxas_amd_result got_ = (call);                                                    \
		CHECK(got_ == (want), "%s, expected %s", ptxas_amd_result_name(got_),              \
		      ptxas_amd_result_name(want));                                                \
	} while (0)

static const char *const gpus[] = {"gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
enum { NGPUS = sizeof gpus / sizeof gpus[0] };

/* The error or info log (malloc'd). */
static char *get_log(ptxas_amd_handle h, int info)
{
	size_t n = 0;
	EXPECT(info ? ptxas_amd_get_info_log_size(h, &n) : ptxas_amd_get_error_log_size(h, &n),
	       PTXAS_AMD_SUCCESS);
	char *log = calloc(n + 1, 1);
	EXPECT(info ? ptxas_amd_get_info_log(h, log) : ptxas_amd_get_error_log(h, log),
	       PTXAS_AMD_SUCCESS);
	CHECK(n >= 1 && strlen(log) == n - 1, "log size %zu counts its NUL", n);
	return log;
}

/* Compiles `ptx` with the options; returns the result, the code object in *code. */
static ptxas_amd_result compile(const char *ptx, size_t len, int n, const char *const *opts,
                                unsigned char **code, size_t *size, char **errors, char **info)
{
	ptxas_amd_handle h;
	EXPECT(ptxas_amd_create(&h, len, ptx), PTXAS_AMD_SUCCESS);
	ptxas_amd_result r = ptxas_amd_compile(h, n, opts);
	*code = NULL;
	*size = 0;
	if (r == PTXAS_AMD_SUCCESS) {
		EXPECT(ptxas_amd_get_code_object_size(h, size), PTXAS_AMD_SUCCESS);
		*code = malloc(*size);
		EXPECT(ptxas_amd_get_code_object(h, *code), PTXAS_AMD_SUCCESS);
	}
	*errors = get_log(h, 0);
	*info = get_log(h, 1);
	EXPECT(ptxas_amd_destroy(&h), PTXAS_AMD_SUCCESS);
	CHECK(h == NULL, "destroy clears the handle");
	return r;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc(*len + 1);
	if (fread(buf, 1, *len, f) != *len)
		exit(1);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

static void test_version(const char *project_version)
{
	unsigned major = 99, minor = 99;
	EXPECT(ptxas_amd_get_version(&major, &minor), PTXAS_AMD_SUCCESS);
	char want[64];
	snprintf(want, sizeof want, "%u.%u.", major, minor);
	CHECK(!strncmp(project_version, want, strlen(want)), "version %u.%u, project %s", major,
	      minor, project_version);
	CHECK(major == PTXAS_AMD_VERSION_MAJOR && minor == PTXAS_AMD_VERSION_MINOR,
	      "library %u.%u, header %d.%d", major, minor, PTXAS_AMD_VERSION_MAJOR,
	      PTXAS_AMD_VERSION_MINOR);
	EXPECT(ptxas_amd_get_version(NULL, &minor), PTXAS_AMD_ERROR_INVALID_INPUT);
}

/* NULL handles and pointers, and the code object asked for too early. */
static void test_bad_calls(const char *ptx, size_t len)
{
	size_t n;
	char buf[8];
	const char *opts[] = {"--gpu-name", "gfx1100"};
	ptxas_amd_handle none = NULL, h;
	EXPECT(ptxas_amd_create(NULL, len, ptx), PTXAS_AMD_ERROR_INVALID_INPUT);
	EXPECT(ptxas_amd_create(&h, 5, NULL), PTXAS_AMD_ERROR_INVALID_INPUT);
	EXPECT(ptxas_amd_compile(NULL, 0, NULL), PTXAS_AMD_ERROR_INVALID_HANDLE);
	EXPECT(ptxas_amd_get_code_object_size(NULL, &n), PTXAS_AMD_ERROR_INVALID_HANDLE);
	EXPECT(ptxas_amd_get_error_log(NULL, buf), PTXAS_AMD_ERROR_INVALID_HANDLE);
	EXPECT(ptxas_amd_destroy(&none), PTXAS_AMD_ERROR_INVALID_HANDLE);
	EXPECT(ptxas_amd_destroy(NULL), PTXAS_AMD_ERROR_INVALID_HANDLE);

	EXPECT(ptxas_amd_create(&h, len, ptx), PTXAS_AMD_SUCCESS);
	EXPECT(ptxas_amd_get_code_object_size(h, &n), PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE);
	EXPECT(ptxas_amd_get_code_object(h, buf), PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE);
	EXPECT(ptxas_amd_get_error_log_size(h, &n), PTXAS_AMD_SUCCESS);
	CHECK(n == 1, "empty error log before compiling: size %zu", n);
	EXPECT(ptxas_amd_compile(h, -1, opts), PTXAS_AMD_ERROR_INVALID_INPUT);
	EXPECT(ptxas_amd_compile(h, 2, NULL), PTXAS_AMD_ERROR_INVALID_INPUT);
	EXPECT(ptxas_amd_get_code_object_size(h, NULL), PTXAS_AMD_ERROR_INVALID_INPUT);
	EXPECT(ptxas_amd_compile(h, 2, opts), PTXAS_AMD_SUCCESS);
	EXPECT(ptxas_amd_get_code_object_size(h, &n), PTXAS_AMD_SUCCESS);
	EXPECT(ptxas_amd_get_code_object(h, NULL), PTXAS_AMD_ERROR_INVALID_INPUT);
	/* A failed compile drops the earlier code object. */
	const char *unknown[] = {"--frobnicate"};
	EXPECT(ptxas_amd_compile(h, 1, unknown), PTXAS_AMD_ERROR_UNSUPPORTED_OPTION);
	EXPECT(ptxas_amd_get_code_object_size(h, &n), PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE);
	EXPECT(ptxas_amd_destroy(&h), PTXAS_AMD_SUCCESS);
	CHECK(strcmp(ptxas_amd_result_name(PTXAS_AMD_ERROR_OUT_OF_MEMORY),
	             "PTXAS_AMD_ERROR_OUT_OF_MEMORY") == 0,
	      "result names");
}

/* Each refused option is named in the log. */
static void test_options(const char *ptx, size_t len)
{
	static const struct {
		const char *opts[3];
		int n;
		const char *log_has;
	} cases[] = {
	        {{"--frobnicate"}, 1, "unknown option '--frobnicate'"},
	        {{"-O7"}, 1, "unknown option '-O7'"},
	        {{"-o", "k.hsaco"}, 2, "option '-o' is for the command line only"},
	        {{"-S"}, 1, "option '-S' is for the command line only"},
	        {{"--dump-ir"}, 1, "option '--dump-ir' is for the command line only"},
	        {{"--help"}, 1, "for the command line only"},
	        {{"k.ptx"}, 1, "'k.ptx': the library compiles the PTX given"},
	        {{"--gpu-name", "gfx999"}, 2, "unknown GPU name 'gfx999'"},
	        {{"--gpu-name", "sm_80"}, 2, "'sm_80' is an NVIDIA GPU architecture"},
	        {{"--maxrregcount"}, 1, "option '--maxrregcount' needs a value"},
	        {{"--maxrregcount=lots"}, 1, "invalid register count 'lots'"},
	        {{"--gpu-name", "gfx1030", "--warp-size=64"}, 3, "--warp-size 64 needs wave64"},
	        {{"--gpu-name", "gfx90a,gfx90a"}, 2, "'gfx90a' is named twice"},
	        {{"--gpu-name", "gfx90a,gfx1100", "-c"}, 3, "-c writes one relocatable object"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned char *code;
		size_t size;
		char *errors, *info;
		ptxas_amd_result r =
		        compile(ptx, len, cases[i].n, cases[i].opts, &code, &size, &errors, &info);
		CHECK(r == PTXAS_AMD_ERROR_UNSUPPORTED_OPTION, "%s: %s", cases[i].opts[0],
		      ptxas_amd_result_name(r));
		CHECK(strstr(errors, cases[i].log_has), "%s: log lacks \"%s\": %s",
		      cases[i].opts[0], cases[i].log_has, errors);
		free(errors);
		free(info);
	}
}

/* Errors in the PTX: COMPILATION_FAILURE and a clang-style diagnostic at the place. */
static void test_bad_ptx(void)
{
	static const char bad[] = ".version 7.0\n.target sm_70\n.address_size 64\n\n"
	                          ".visible .entry bad(.param .u64 p)\n{\n"
	                          "\t.reg .b32 %r<2>;\n"
	                          "\tadd.s32 %r1, %r9, 1;\n"
	                          "\tret;\n}\n";
	/* Where the undefined register stands: line 8, column of "%r9" (1-based bytes). */
	const char *line8 = strstr(bad, "\tadd.s32");
	unsigned col = (unsigned)(strstr(line8, "%r9") - line8) + 1;
	char want[64];
	snprintf(want, sizeof want, "bad.ptx:8:%u: error: ", col);
	const char *opts[] = {"--input-name", "bad.ptx", "--gpu-name", "gfx942"};
	unsigned char *code;
	size_t size;
	char *errors, *info;
	ptxas_amd_result r = compile(bad, sizeof bad - 1, 4, opts, &code, &size, &errors, &info);
	CHECK(r == PTXAS_AMD_ERROR_COMPILATION_FAILURE, "%s", ptxas_amd_result_name(r));
	CHECK(strstr(errors, want) && strstr(errors, "%r9"), "log lacks \"%s\": %s", want, errors);
	CHECK(strstr(errors, "add.s32 %r1, %r9, 1;"), "log lacks the source line: %s", errors);
	free(errors);
	free(info);
	/* Without --input-name the file is "<ptx>". */
	r = compile(bad, sizeof bad - 1, 2, opts + 2, &code, &size, &errors, &info);
	CHECK(r == PTXAS_AMD_ERROR_COMPILATION_FAILURE && strstr(errors, "<ptx>:8:"), "%s", errors);
	free(errors);
	free(info);
}

/* Warnings go to the error log of a successful compile; -w drops them, -Werror fails the
 * compile.  The warning: a constant 32-bit lane mask on a wave64 target with 64-lane warps
 * (--warp-size 64, docs/WARP.md). */
static void test_warnings(void)
{
	static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n\n"
	                          ".visible .entry w(.param .u64 p)\n{\n"
	                          "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
	                          "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
	                          "\tshfl.sync.idx.b32 %r2, %r1, 0, 31, 0xffffffff;\n"
	                          "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
	static const struct {
		const char *flag;
		ptxas_amd_result want;
		const char *log_has; /* NULL: an empty log */
	} cases[] = {
	        {"-O3", PTXAS_AMD_SUCCESS, "w.ptx:11:2: warning: "},
	        {"-w", PTXAS_AMD_SUCCESS, NULL},
	        {"-Wno-lanemask", PTXAS_AMD_SUCCESS, NULL},
	        {"-Werror", PTXAS_AMD_ERROR_COMPILATION_FAILURE, "w.ptx:11:2: error: "},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *opts[] = {"-arch", "gfx90a", "--warp-size=64", "--input-name=w.ptx",
		                      cases[i].flag};
		unsigned char *code;
		size_t size;
		char *errors, *info;
		ptxas_amd_result r =
		        compile(ptx, sizeof ptx - 1, 5, opts, &code, &size, &errors, &info);
		CHECK(r == cases[i].want, "%s: %s", cases[i].flag, ptxas_amd_result_name(r));
		CHECK(cases[i].log_has ? strstr(errors, cases[i].log_has) != NULL : !errors[0],
		      "%s: error log %s", cases[i].flag, errors);
		free(code);
		free(errors);
		free(info);
	}
}

static int is_elf(const unsigned char *b, size_t n)
{
	return n > 64 && !memcmp(b, "\177ELF", 4);
}

static unsigned long long get64(const unsigned char *p)
{
	unsigned long long v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The bundle's entry named `id`, read as clang-offload-bundler's format describes it. */
static const unsigned char *bundle_entry(const unsigned char *b, size_t n, const char *id,
                                         size_t *size)
{
	if (n < 32 || memcmp(b, "__CLANG_OFFLOAD_BUNDLE__", 24))
		return NULL;
	const unsigned char *p = b + 32;
	for (unsigned long long i = 0, count = get64(b + 24); i < count; i++) {
		unsigned long long off = get64(p), len = get64(p + 8), idlen = get64(p + 16);
		if (idlen == strlen(id) && !memcmp(p + 24, id, idlen) && off + len <= n) {
			*size = len;
			return b + off;
		}
		p += 24 + idlen;
	}
	return NULL;
}

/* vadd for each GPU: an ELF code object, the -v lines, and all five in one bundle whose
 * entries are the single-GPU code objects. */
static void test_compile(const char *ptx, size_t len)
{
	unsigned char *single[NGPUS];
	size_t sizes[NGPUS];
	char *errors, *info;
	for (int g = 0; g < NGPUS; g++) {
		const char *opts[] = {"--gpu-name", gpus[g], "-v"};
		ptxas_amd_result r =
		        compile(ptx, len, 3, opts, &single[g], &sizes[g], &errors, &info);
		CHECK(r == PTXAS_AMD_SUCCESS, "%s: %s %s", gpus[g], ptxas_amd_result_name(r),
		      errors);
		CHECK(is_elf(single[g], sizes[g]), "%s: not an ELF file", gpus[g]);
		CHECK(strstr(info, "ptxas-amd info    : Function properties for vadd: "),
		      "%s: info log lacks the -v line: %s", gpus[g], info);
		CHECK(!errors[0], "%s: error log not empty: %s", gpus[g], errors);
		free(errors);
		free(info);
	}
	const char *all[] = {"--gpu-name=gfx90a,gfx942,gfx1030,gfx1100,gfx1200"};
	unsigned char *bundle;
	size_t n;
	ptxas_amd_result r = compile(ptx, len, 1, all, &bundle, &n, &errors, &info);
	CHECK(r == PTXAS_AMD_SUCCESS, "bundle: %s %s", ptxas_amd_result_name(r), errors);
	for (int g = 0; g < NGPUS && r == PTXAS_AMD_SUCCESS; g++) {
		char id[64];
		size_t esize = 0;
		snprintf(id, sizeof id, "hipv4-amdgcn-amd-amdhsa--%s", gpus[g]);
		const unsigned char *e = bundle_entry(bundle, n, id, &esize);
		CHECK(e && esize == sizes[g] && !memcmp(e, single[g], esize),
		      "bundle entry %s differs from the single-GPU code object", id);
	}
	free(bundle);
	free(errors);
	free(info);
	for (int g = 0; g < NGPUS; g++)
		free(single[g]);
}

/* -c: a relocatable object (ET_REL). */
static void test_relocatable(const char *ptx, size_t len)
{
	const char *opts[] = {"-c", "--gpu-name", "gfx1100"};
	unsigned char *code;
	size_t size;
	char *errors, *info;
	ptxas_amd_result r = compile(ptx, len, 3, opts, &code, &size, &errors, &info);
	CHECK(r == PTXAS_AMD_SUCCESS && is_elf(code, size) && code[16] == 1 && code[17] == 0,
	      "-c: %s, e_type %d", ptxas_amd_result_name(r), r ? -1 : code[16]);
	free(code);
	free(errors);
	free(info);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: api_test VERSION VADD.PTX\n");
		return 2;
	}
	size_t len;
	char *ptx = read_file(argv[2], &len);
	test_version(argv[1]);
	test_bad_calls(ptx, len);
	test_options(ptx, len);
	test_bad_ptx();
	test_warnings();
	test_compile(ptx, len);
	test_relocatable(ptx, len);
	free(ptx);
	printf("api_test: %d failures\n", failures);
	return failures != 0;
}
