/* sim_bench: simulator throughput benchmark (driven by bench_sim.py).
 *
 *   sim_bench FILE.hsaco KERNEL GRID BLOCK WORDS ITERS REPEAT [--no-strict]
 *
 * Runs KERNEL(in: WORDS u32, out: GRID u32, u32 ITERS) REPEAT times through the C API and
 * prints wave instructions per second (best run), for the roadmap's >= 5M target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 8) {
		fprintf(stderr, "usage: sim_bench FILE KERNEL GRID BLOCK WORDS ITERS REPEAT\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	static unsigned char buf[1 << 22];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	char err[256];
	struct sim_code_object *co = sim_load(buf, n, err, sizeof err);
	if (!co) {
		fprintf(stderr, "sim_bench: %s\n", err);
		return 1;
	}
	unsigned grid = (unsigned)atoi(argv[3]), block = (unsigned)atoi(argv[4]);
	size_t words = (size_t)atol(argv[5]);
	int repeat = atoi(argv[7]);
	unsigned *in = calloc(words, 4), *out = calloc(grid, 4);
	for (size_t i = 0; i < words; i++)
		in[i] = (unsigned)(i * 2654435761u);
	struct sim_arg args[3] = {
	        {.kind = SIM_ARG_IN, .data = in, .size = words * 4},
	        {.kind = SIM_ARG_OUT, .size = grid * 4, .out = out},
	        {.kind = SIM_ARG_U32, .value.u = (uint64_t)atol(argv[6])},
	};
	struct sim_dispatch d = {.kernel = argv[2],
	                         .grid = {grid, 1, 1},
	                         .block = {block, 1, 1},
	                         .args = args,
	                         .nargs = 3};
	struct sim_options opt;
	sim_options_init(&opt);
	opt.strict = !(argc > 8 && !strcmp(argv[8], "--no-strict"));
	struct sim_stats st;
	double best = 1e30;
	for (int r = 0; r < repeat; r++) {
		double t0 = now();
		if (sim_run(co, &d, &opt, &st, err, sizeof err) != SIM_OK) {
			fprintf(stderr, "sim_bench: %s\n", err[0] ? err : "violations");
			return 1;
		}
		double t = now() - t0;
		best = t < best ? t : best;
	}
	printf("%s %s: %llu wave instructions in %.4f s = %.2f M wave-instructions/s (%s)\n",
	       sim_target_name(co), argv[2], (unsigned long long)st.insns, best,
	       (double)st.insns / best / 1e6, opt.strict ? "strict" : "no-strict");
	free(in);
	free(out);
	sim_free(co);
	return 0;
}
