/* Parse benchmark: PTX front-end throughput and peak memory on one core.
 *
 * Usage: parse_bench FILE.ptx [REPEAT]
 * Parses FILE (streamed through stdio, never read whole) REPEAT times (default 1)
 * with ptx_parse_stream() and an on_function callback that counts functions and
 * statements, then prints one line of figures: bytes, best wall and CPU time with
 * the MB/s each gives (1 MB = 10^6 bytes), the CPU MB/s of the first parse (a process
 * parses a file once: costs that malloc amortizes over repeats show there), functions,
 * statements and peak resident set size (getrusage ru_maxrss).  The parser is single-threaded: CPU
 * MB/s is the one-core throughput even when other processes share the machine.  bench/parse.sh runs
 * it on inputs of 1x, 2x and 4x the size to show that throughput holds and peak memory does not
 * grow with the file. Exit status 1 if the input does not parse without errors (a benchmark on
 * invalid input would measure error recovery instead). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "diag.h"
#include "ptx.h"

struct bench_counts {
	unsigned long long functions;
	unsigned long long statements;
};

static void count_function(void *user, const struct ptx_function *fn,
                           const struct ptx_module_state *m)
{
	struct bench_counts *counts = user;
	counts->functions++;
	counts->statements += fn->nstmts;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench_times {
	double wall; /* seconds, negative on a parse error */
	double cpu;  /* user+system CPU seconds of this process */
};

/* One timed parse of `path`; wall < 0 on error. */
static struct bench_times parse_once(const char *path, struct bench_counts *counts)
{
	struct bench_times t = {-1.0, 0.0};
	FILE *in = fopen(path, "r");
	if (!in) {
		perror(path);
		return t;
	}
	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	diag.max_errors = 10;
	struct ptx_parse_options opts = {
	        .filename = path,
	        .diag = &diag,
	        .on_function = count_function,
	        .user = counts,
	};
	double start = now_seconds(), cpu_start = cpu_now_seconds();
	bool ok = ptx_parse_stream(in, &opts);
	t.wall = ok ? now_seconds() - start : -1.0;
	t.cpu = cpu_now_seconds() - cpu_start;
	fclose(in);
	return t;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: parse_bench FILE.ptx [REPEAT]\n");
		return 2;
	}
	int repeat = argc == 3 ? atoi(argv[2]) : 1;
	struct stat st;
	if (repeat < 1 || stat(argv[1], &st) != 0) {
		fprintf(stderr, "parse_bench: bad arguments\n");
		return 2;
	}
	struct bench_times best = {0.0, 0.0}, first = {0.0, 0.0};
	struct bench_counts counts = {0, 0};
	for (int i = 0; i < repeat; ++i) {
		counts = (struct bench_counts){0, 0};
		struct bench_times t = parse_once(argv[1], &counts);
		if (t.wall < 0.0) {
			fprintf(stderr, "parse_bench: %s does not parse cleanly\n", argv[1]);
			return 1;
		}
		if (i == 0)
			first = t;
		if (i == 0 || t.wall < best.wall)
			best.wall = t.wall;
		if (i == 0 || t.cpu < best.cpu)
			best.cpu = t.cpu;
	}
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	double mbytes = (double)st.st_size / 1e6;
	/* On a shared machine wall time includes waiting for a core; CPU time does not. */
	printf("bytes=%lld wall_s=%.3f MB/s_wall=%.1f cpu_s=%.3f MB/s_cpu=%.1f "
	       "first_MB/s_cpu=%.1f functions=%llu statements=%llu maxrss_kb=%ld\n",
	       (long long)st.st_size, best.wall, mbytes / best.wall, best.cpu, mbytes / best.cpu,
	       mbytes / first.cpu, counts.functions, counts.statements, usage.ru_maxrss);
	return 0;
}
