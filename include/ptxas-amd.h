/* libptxas-amd: compile NVIDIA PTX to an AMD GPU code object in memory.
 *
 * The shape is that of NVIDIA's nvPTXCompiler, which CUDA runtime authors know:
 *
 *     ptxas_amd_handle h;
 *     ptxas_amd_create(&h, ptx_len, ptx);                  // the PTX is copied
 *     const char *opts[] = {"--gpu-name", "gfx90a", "-v"};
 *     if (ptxas_amd_compile(h, 3, opts) == PTXAS_AMD_SUCCESS) {
 *             size_t n;
 *             ptxas_amd_get_code_object_size(h, &n);
 *             void *code = malloc(n);
 *             ptxas_amd_get_code_object(h, code);        // for hipModuleLoadData
 *     } else {
 *             size_t n;
 *             ptxas_amd_get_error_log_size(h, &n);       // counts the final NUL
 *             char *log = malloc(n);
 *             ptxas_amd_get_error_log(h, log);           // "k.ptx:3:9: error: ..."
 *     }
 *     ptxas_amd_destroy(&h);
 *
 * Options are those of the ptxas-amd command line (one parser serves both; see
 * ptxas-amd(1)): --gpu-name/-arch, -O0..-O3, --maxrregcount, --entry, -v, -w, -Werror,
 * --warp-size, --wavefront-size, -c, --stack-size, --inline-all, --no-inline, --verify,
 * -Wno-lanemask, -lineinfo/-g (DWARF line information), and --input-name NAME (the file
 * name diagnostics print; default "<ptx>").  "--gpu-name gfx90a,gfx1100" compiles for each
 * GPU and returns a clang offload bundle.  An option that writes files or prints (-o, -S, --dump-*,
 * --help, ...) or that the command line does not know is PTXAS_AMD_ERROR_UNSUPPORTED_OPTION, with
 * the error log naming it.
 *
 * Threads: handles are independent; different handles may be used from different threads
 * at the same time (the compiler keeps no global mutable state).  One handle must not be
 * used by two threads at once.
 *
 * ABI: every type is opaque or an integer; no structure crosses this interface.  Symbols
 * carry the version node PTXAS_AMD_0; ptxas_amd_get_version tells the library's version.
 * A new major version (and soname) only when a function changes or goes away. */
#ifndef PTXAS_AMD_H
#define PTXAS_AMD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PTXAS_AMD_BUILDING) && defined(__GNUC__)
#define PTXAS_AMD_API __attribute__((visibility("default")))
#else
#define PTXAS_AMD_API
#endif

/* The version of this header; compare with ptxas_amd_get_version at run time. */
#define PTXAS_AMD_VERSION_MAJOR 0
#define PTXAS_AMD_VERSION_MINOR 1

/* Result of every call.  The numbers are part of the ABI and never change. */
typedef enum {
	PTXAS_AMD_SUCCESS = 0,
	PTXAS_AMD_ERROR_INVALID_HANDLE = 1,       /* a NULL handle (or not one of ours) */
	PTXAS_AMD_ERROR_INVALID_INPUT = 2,        /* NULL pointer or negative count */
	PTXAS_AMD_ERROR_COMPILATION_FAILURE = 3,  /* errors in the PTX: see the error log */
	PTXAS_AMD_ERROR_UNSUPPORTED_OPTION = 4,   /* unknown, command-line-only or bad option */
	PTXAS_AMD_ERROR_OUT_OF_MEMORY = 5,        /* the library's own allocations failed */
	PTXAS_AMD_ERROR_INVOCATION_INCOMPLETE = 6 /* no successful ptxas_amd_compile yet */
} ptxas_amd_result;

typedef struct ptxas_amd_compiler *ptxas_amd_handle;

/* The library's version (PTXAS_AMD_VERSION_MAJOR/MINOR of the build that made it). */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_version(unsigned *major, unsigned *minor);

/* A compiler for the `ptx_size` bytes at `ptx` (copied; need not end in NUL). */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_create(ptxas_amd_handle *handle, size_t ptx_size,
                                                const char *ptx);
/* Frees the handle and everything it returned; sets *handle to NULL. */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_destroy(ptxas_amd_handle *handle);

/* Compiles with `noptions` ptxas-style options.  Each call starts afresh (logs and code
 * object of an earlier call are dropped).  An option taking a value may be one string
 * ("--maxrregcount=64") or two ("--maxrregcount", "64"). */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_compile(ptxas_amd_handle handle, int noptions,
                                                 const char *const *options);

/* The code object of the last successful compile: an AMDHSA ELF (or with -c a relocatable
 * object; with several GPUs a clang offload bundle).  Copy it out with
 * ptxas_amd_get_code_object into `size` bytes. */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_code_object_size(ptxas_amd_handle handle,
                                                              size_t *size);
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_code_object(ptxas_amd_handle handle, void *buffer);

/* The diagnostics (errors and warnings, "file:line:col: error: ..." with the source line)
 * and the information log (the -v lines) of the last compile, as NUL-terminated text; the
 * sizes count the NUL.  Before any compile both are empty (size 1). */
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_error_log_size(ptxas_amd_handle handle, size_t *size);
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_error_log(ptxas_amd_handle handle, char *buffer);
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_info_log_size(ptxas_amd_handle handle, size_t *size);
PTXAS_AMD_API ptxas_amd_result ptxas_amd_get_info_log(ptxas_amd_handle handle, char *buffer);

/* A constant English name of a result ("PTXAS_AMD_ERROR_COMPILATION_FAILURE"). */
PTXAS_AMD_API const char *ptxas_amd_result_name(ptxas_amd_result result);

#ifdef __cplusplus
}
#endif

#endif
