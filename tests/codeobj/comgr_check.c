/* Reads a code object the way HIP does, through ROCm comgr: amd_comgr_get_data_metadata
 * parses the NT_AMDGPU_METADATA note, and amd_comgr_symbol_lookup finds each kernel's
 * NAME.kd descriptor symbol.  Prints one line per kernel and argument for the test
 * script to compare with what the module description asked for:
 *
 *   target amdgcn-amd-amdhsa--gfx90a
 *   kernel vadd symbol vadd.kd kernarg 280 kd_type 1 kd_size 64
 *   arg 0 8 global_buffer
 *
 * usage: co_comgr_check exec|rel FILE.  Exit 1 on any comgr failure. */
#include <amd_comgr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed(const char *what, amd_comgr_status_t st)
{
	const char *msg = "?";
	amd_comgr_status_string(st, &msg);
	fprintf(stderr, "comgr_check: %s: %s\n", what, msg);
	return 1;
}

/* The string value of map[key], or "" (returns a malloc'd string). */
static char *lookup_string(amd_comgr_metadata_node_t map, const char *key)
{
	amd_comgr_metadata_node_t v;
	if (amd_comgr_metadata_lookup(map, key, &v) != AMD_COMGR_STATUS_SUCCESS)
		return strdup("<missing>");
	size_t n = 0;
	char *s;
	if (amd_comgr_get_metadata_string(v, &n, NULL) != AMD_COMGR_STATUS_SUCCESS) {
		s = strdup("<not a string>");
	} else {
		s = calloc(1, n + 1);
		amd_comgr_get_metadata_string(v, &n, s);
	}
	amd_comgr_destroy_metadata(v);
	return s;
}

static int check_symbol(amd_comgr_data_t data, const char *name)
{
	amd_comgr_symbol_t sym;
	amd_comgr_status_t st = amd_comgr_symbol_lookup(data, name, &sym);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return failed("symbol lookup", st);
	amd_comgr_symbol_type_t type;
	uint64_t size = 0;
	amd_comgr_symbol_get_info(sym, AMD_COMGR_SYMBOL_INFO_TYPE, &type);
	amd_comgr_symbol_get_info(sym, AMD_COMGR_SYMBOL_INFO_SIZE, &size);
	printf(" kd_type %d kd_size %llu", (int)type, (unsigned long long)size);
	return 0;
}

static int print_args(amd_comgr_metadata_node_t kernel)
{
	amd_comgr_metadata_node_t args;
	if (amd_comgr_metadata_lookup(kernel, ".args", &args) != AMD_COMGR_STATUS_SUCCESS)
		return 0;
	size_t n = 0;
	amd_comgr_get_metadata_list_size(args, &n);
	for (size_t i = 0; i < n; i++) {
		amd_comgr_metadata_node_t a;
		if (amd_comgr_index_list_metadata(args, i, &a) != AMD_COMGR_STATUS_SUCCESS)
			return failed("args", AMD_COMGR_STATUS_ERROR);
		char *off = lookup_string(a, ".offset"), *size = lookup_string(a, ".size");
		char *kind = lookup_string(a, ".value_kind");
		printf("arg %s %s %s\n", off, size, kind);
		free(off);
		free(size);
		free(kind);
		amd_comgr_destroy_metadata(a);
	}
	amd_comgr_destroy_metadata(args);
	return 0;
}

static int walk(amd_comgr_data_t data, amd_comgr_metadata_node_t root)
{
	char *target = lookup_string(root, "amdhsa.target");
	printf("target %s\n", target);
	free(target);
	amd_comgr_metadata_node_t kernels;
	amd_comgr_status_t st = amd_comgr_metadata_lookup(root, "amdhsa.kernels", &kernels);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return failed("amdhsa.kernels", st);
	size_t n = 0;
	amd_comgr_get_metadata_list_size(kernels, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		amd_comgr_metadata_node_t k;
		if (amd_comgr_index_list_metadata(kernels, i, &k) != AMD_COMGR_STATUS_SUCCESS)
			return failed("kernel", AMD_COMGR_STATUS_ERROR);
		char *name = lookup_string(k, ".name"), *sym = lookup_string(k, ".symbol");
		char *ka = lookup_string(k, ".kernarg_segment_size");
		printf("kernel %s symbol %s kernarg %s", name, sym, ka);
		rc = check_symbol(data, sym);
		printf("\n");
		rc = rc || print_args(k);
		free(name);
		free(sym);
		free(ka);
		amd_comgr_destroy_metadata(k);
	}
	amd_comgr_destroy_metadata(kernels);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: co_comgr_check exec|rel FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		return 2;
	fclose(f);
	amd_comgr_data_kind_t kind = strcmp(argv[1], "rel") ? AMD_COMGR_DATA_KIND_EXECUTABLE
	                                                    : AMD_COMGR_DATA_KIND_RELOCATABLE;
	amd_comgr_data_t data;
	amd_comgr_status_t st = amd_comgr_create_data(kind, &data);
	if (st == AMD_COMGR_STATUS_SUCCESS)
		st = amd_comgr_set_data(data, (size_t)n, buf);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return failed("set data", st);
	amd_comgr_metadata_node_t root;
	st = amd_comgr_get_data_metadata(data, &root);
	if (st != AMD_COMGR_STATUS_SUCCESS)
		return failed("get metadata", st);
	int rc = walk(data, root);
	amd_comgr_destroy_metadata(root);
	amd_comgr_release_data(data);
	free(buf);
	return rc;
}
