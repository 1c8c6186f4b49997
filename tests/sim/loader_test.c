/* Unit test of amdsim's loader and C API on a clang-19 code object (vadd, built by
 * sim_test.py): kernel list, argument count and target from the metadata, an in-process
 * dispatch checked against a CPU sum, and truncated/corrupted copies of the file, which must
 * be rejected or loaded without crashing.  Usage: sim_loader_test VADD.hsaco TARGET */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static int failures;

static void expect(int cond, const char *what)
{
	if (!cond) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)len + 1);
	*n = fread(buf, 1, (size_t)len, f);
	fclose(f);
	return buf;
}

static void run_vadd(struct sim_code_object *co)
{
	enum { N = 777 };
	static float a[N], b[N], c[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i);
	}
	struct sim_arg args[4] = {
	        {.kind = SIM_ARG_IN, .data = a, .size = sizeof a},
	        {.kind = SIM_ARG_IN, .data = b, .size = sizeof b},
	        {.kind = SIM_ARG_OUT, .size = sizeof c, .out = c},
	        {.kind = SIM_ARG_I32, .value.i = N},
	};
	struct sim_dispatch d = {.kernel = "vadd",
	                         .grid = {4, 1, 1},
	                         .block = {200, 1, 1},
	                         .args = args,
	                         .nargs = 4};
	struct sim_options opt;
	struct sim_stats st;
	char err[256];
	sim_options_init(&opt);
	expect(sim_run(co, &d, &opt, &st, err, sizeof err) == SIM_OK, "vadd runs through the API");
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += c[i] != a[i] + b[i];
	expect(bad == 0, "vadd results");
	expect(st.workgroups == 4 && st.insns > 0 && st.by_class[SIM_CLASS_VMEM_LOAD] > 0,
	       "statistics count workgroups and loads");
	d.kernel = "missing";
	expect(sim_run(co, &d, &opt, &st, err, sizeof err) == SIM_ERROR && strstr(err, "missing"),
	       "unknown kernel is an error naming it");
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	size_t n;
	unsigned char *bytes = slurp(argv[1], &n);
	if (!bytes)
		return 2;
	char err[256];
	struct sim_code_object *co = sim_load(bytes, n, err, sizeof err);
	expect(co != NULL, "clang's code object loads");
	if (co) {
		expect(sim_kernel_count(co) == 1, "one kernel");
		expect(!strcmp(sim_kernel_name(co, 0), "vadd"), "kernel name from metadata");
		expect(sim_kernel_nargs(co, "vadd") == 4, "four explicit arguments");
		expect(!strcmp(sim_target_name(co), argv[2]), "target from e_flags");
		run_vadd(co);
		sim_free(co);
	}
	/* truncations and corruption: rejected or loaded, never a crash */
	for (size_t cut = 0; cut < n; cut += n / 61 + 1) {
		struct sim_code_object *t = sim_load(bytes, cut, err, sizeof err);
		expect(t == NULL || cut > 0, "empty input rejected");
		if (!t)
			expect(err[0] != 0, "rejection has a reason");
		sim_free(t);
	}
	for (size_t i = 0; i < n; i += 13) {
		unsigned char *m = malloc(n);
		memcpy(m, bytes, n);
		m[i] ^= 0xff;
		sim_free(sim_load(m, n, err, sizeof err));
		free(m);
	}
	free(bytes);
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
