/* amdsim: command-line front end of the simulator (src/sim/sim.h).
 *
 *   amdsim FILE.hsaco --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--dynamic-lds BYTES]
 *          [--seed N] [--no-strict] [--stats] [--wave-stats] [--cu-fill] [--trace]
 *          [--printf FILE] [--printf-buffer BYTES] [--max-insns N]
 *          [--alignment-mode unaligned|aligned] ARG...
 *
 * --alignment-mode: SH_MEM_CONFIG.ALIGNMENT_MODE; `unaligned` (the default, what HIP's Linux
 * driver programs) accepts any LDS address, `aligned` reports a DS access below its required
 * alignment as a violation (docs/SIMULATOR.md).  The environment variable
 * AMDSIM_ALIGNMENT_MODE sets the default (for running whole test suites in the aligned mode).
 *
 * --stats prints the per-wave figures and the CU timing model's (cu_*, docs/SIMULATOR.md);
 * --wave-stats only the per-wave ones (no CU model: no recording cost); --cu-fill repeats
 * the launch in the CU model until it has twice as many waves as the CU has wave slots.
 *
 * A kernel that declares hidden_printf_buffer gets a printf buffer; its records are printed
 * after the dispatch with the code object's amdhsa.printf formats, to stdout or FILE; the
 * buffer has 1 MiB unless --printf-buffer says otherwise (at least 8: its two header dwords).
 * --max-insns: instructions one wave may run before amdsim stops it as an endless loop
 * (default 1e9).
 *
 * ARG: in:FILE | out:SIZE:FILE | inout:FILE:OUTFILE | i32:V | u32:V | i64:V | u64:V | f32:V |
 * f64:V (a buffer also fits an 8-byte by_value argument: its address).  Exit status: 0 ok, 1 bad
 * input or kernel fault, 2 usage error, 3 the strict checker reported violations (output files are
 * still written), 4 the kernel trapped (s_trap: its printf records are printed first). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "sim.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: amdsim FILE.hsaco --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]\n"
	             "              [--dynamic-lds BYTES] [--seed N] [--no-strict] [--stats] "
	             "[--wave-stats] [--cu-fill]\n"
	             "              [--trace] [--printf FILE] [--printf-buffer BYTES]\n"
	             "              [--max-insns N] [--gpu GPU] "
	             "[--alignment-mode unaligned|aligned] ARG...\n"
	             "FILE may be a clang offload bundle (.hipfb): --gpu picks its entry\n"
	             "ARG: in:FILE | out:SIZE:FILE | inout:FILE:OUTFILE | i32:V | u32:V | i64:V |"
	             " u64:V | f32:V | f64:V |\n"
	             "     image:FORMAT[/OPT]...:W[xH]:FILE[:OUTFILE] (a texture/surface object; "
	             "FORMAT r32f r32ui r32i rg32f rgba32f rgba32ui r8 r8ui rgba8 rgba8ui; OPT "
	             "the sampler's wrap mirror clamp border unnorm black white, or linear: a 1D "
	             "buffer texture, array: WxHxD is D layers (else a 3D image), WxL a 1D array; "
	             "gfx90a, gfx10, "
	             "gfx11, gfx12)\n"
	             "a buffer (in:/out:/inout:) goes to a pointer argument or to any 8-byte\n"
	             "by_value one (its address is passed, as a GPU program passes a pointer)\n");
}

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = pa_xmalloc(cap);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = pa_xrealloc(buf, cap *= 2);
	}
	fclose(f);
	*size = n;
	return buf;
}

static bool parse_dims(const char *s, uint32_t out[3])
{
	out[0] = out[1] = out[2] = 1;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 0);
		if (end == s || errno || v == 0 || v > 0xffffffffu)
			return false;
		out[i] = (uint32_t)v;
		if (*end == 0)
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

struct cli_arg {
	struct sim_arg a;
	const char *outfile;
	void *in_data;
	struct sim_image_spec spec; /* image: */
};

/* The sampler options after the format: /wrap /mirror /clamp /border (the address mode on x
 * and y), /unnorm, /black /white (the border colour; default transparent black), /bilinear (the
 * XY filters and a 3D image's Z_FILTER; default point), /mipN (N mip levels,
 * MIP_FILTER point); /linear makes
 * a 1D texture over linear memory (HSA's 1DB: a buffer descriptor).  [v, end). */
static bool parse_sampler_opts(const char *v, const char *end, struct sim_image_spec *sp)
{
	static const struct {
		const char *name;
		int addr, unnorm, border;
	} opts[] = {{"wrap", 0, -1, -1},     {"mirror", 1, -1, -1},  {"clamp", 2, -1, -1},
	            {"border", 6, -1, -1},   {"unnorm", -1, 1, -1},  {"black", -1, -1, 1},
	            {"white", -1, -1, 2},    {"linear", -1, -1, -1}, {"array", -1, -1, -1},
	            {"bilinear", -1, -1, -1}};
	while (v < end) {
		const char *next = memchr(v + 1, '/', (size_t)(end - v - 1));
		size_t n = (size_t)((next ? next : end) - v - 1);
		int k = -1;
		if (n > 3 && !strncmp(v + 1, "mip", 3)) { /* /mipN: N mip levels */
			char *e;
			unsigned long lv = strtoul(v + 4, &e, 10);
			if (e != v + 1 + n || lv < 1 || lv > 15)
				return false;
			sp->levels = (uint8_t)lv;
			v = next ? next : end;
			continue;
		}
		for (int i = 0; i < (int)(sizeof opts / sizeof opts[0]); i++)
			if (*v == '/' && strlen(opts[i].name) == n &&
			    !strncmp(v + 1, opts[i].name, n))
				k = i;
		if (k < 0)
			return false;
		if (opts[k].addr >= 0)
			sp->addr_mode = (uint8_t)opts[k].addr;
		if (opts[k].unnorm >= 0)
			sp->unnormalized = 1;
		if (opts[k].border >= 0)
			sp->border = (uint8_t)opts[k].border;
		if (!strcmp(opts[k].name, "linear"))
			sp->linear = 1;
		if (!strcmp(opts[k].name, "array"))
			sp->array = 1;
		if (!strcmp(opts[k].name, "bilinear"))
			sp->bilinear = 1;
		v = next ? next : end;
	}
	return true;
}

/* "FORMAT[/OPT...]:W[xH]:FILE[:OUTFILE]" of an image argument (docs/TEXTURES.md). */
static bool parse_image_arg(const char *v, struct cli_arg *ca)
{
	static const char *const names[SIM_NUM_IMAGE_FORMATS] = {
	        "r32f",     "r32ui", "r32i", "rg32f", "rgba32f",
	        "rgba32ui", "r8",    "r8ui", "rgba8", "rgba8ui"};
	const char *colon = strchr(v, ':');
	if (!colon)
		return false;
	const char *slash = memchr(v, '/', (size_t)(colon - v)), *fend = slash ? slash : colon;
	struct sim_image_spec samp = {0};
	if (slash && !parse_sampler_opts(slash, colon, &samp))
		return false;
	int f = -1;
	for (int i = 0; i < SIM_NUM_IMAGE_FORMATS; i++)
		if ((size_t)(fend - v) == strlen(names[i]) &&
		    !strncmp(v, names[i], strlen(names[i])))
			f = i;
	char *end;
	unsigned long w = strtoul(colon + 1, &end, 10), h = 0, dd = 0;
	if (f < 0 || end == colon + 1 || w == 0)
		return false;
	if (*end == 'x') {
		const char *hs = end + 1;
		h = strtoul(hs, &end, 10);
		if (end == hs || h == 0)
			return false;
		if (*end == 'x') { /* WxHxD: a 3D image, or /array: D layers */
			const char *ds = end + 1;
			dd = strtoul(ds, &end, 10);
			if (end == ds || dd == 0 || dd > 8192)
				return false;
		}
	}
	if (samp.array && !dd) /* /array:WxL: a 1D array of L layers */
		dd = h, h = 0;
	if (*end != ':' || w > 16384 || h > 16384 || (samp.array && !dd))
		return false;
	const char *path = end + 1, *out = strchr(path, ':');
	char buf[4096];
	size_t pl = out ? (size_t)(out - path) : strlen(path);
	if (pl >= sizeof buf)
		return false;
	memcpy(buf, path, pl);
	buf[pl] = 0;
	size_t n;
	ca->in_data = read_file(buf, &n);
	if (!ca->in_data) {
		fprintf(stderr, "amdsim: error: cannot read '%s': %s\n", buf, strerror(errno));
		return false;
	}
	ca->spec = samp;
	ca->spec.format = (enum sim_image_format)f;
	ca->spec.width = (uint32_t)w;
	ca->spec.height = (uint32_t)h;
	ca->spec.depth = (uint32_t)dd;
	ca->a.kind = SIM_ARG_IMAGE;
	ca->a.image = &ca->spec;
	ca->a.data = ca->in_data;
	ca->a.size = n;
	if (out) {
		ca->outfile = out + 1;
		ca->a.out = pa_xmalloc(n ? n : 1);
	}
	return true;
}

static bool parse_arg(const char *s, struct cli_arg *ca)
{
	memset(ca, 0, sizeof *ca);
	const char *colon = strchr(s, ':');
	if (!colon)
		return false;
	size_t kl = (size_t)(colon - s);
	const char *v = colon + 1;
	char *end;
	errno = 0;
#define KIND(str) (kl == strlen(str) && !strncmp(s, str, kl))
	if (KIND("image"))
		return parse_image_arg(v, ca);
	if (KIND("in") || KIND("inout")) {
		bool inout = KIND("inout");
		char path[4096];
		const char *sep = inout ? strrchr(v, ':') : NULL;
		if (inout && !sep)
			return false;
		size_t pl = inout ? (size_t)(sep - v) : strlen(v);
		if (pl >= sizeof path)
			return false;
		memcpy(path, v, pl);
		path[pl] = 0;
		size_t n;
		ca->in_data = read_file(path, &n);
		if (!ca->in_data) {
			fprintf(stderr, "amdsim: error: cannot read '%s': %s\n", path,
			        strerror(errno));
			return false;
		}
		ca->a.kind = inout ? SIM_ARG_INOUT : SIM_ARG_IN;
		ca->a.data = ca->in_data;
		ca->a.size = n;
		if (inout) {
			ca->outfile = sep + 1;
			ca->a.out = pa_xmalloc(n ? n : 1);
		}
		return true;
	}
	if (KIND("out")) {
		unsigned long long n = strtoull(v, &end, 0);
		if (end == v || *end != ':' || errno || n > (1ull << 32))
			return false;
		ca->a.kind = SIM_ARG_OUT;
		ca->a.size = n;
		ca->a.out = pa_xcalloc(n ? n : 1, 1);
		ca->outfile = end + 1;
		return true;
	}
	if (KIND("i32") || KIND("i64")) {
		long long x = strtoll(v, &end, 0);
		ca->a.kind = KIND("i32") ? SIM_ARG_I32 : SIM_ARG_I64;
		ca->a.value.i = x;
	} else if (KIND("u32") || KIND("u64")) {
		unsigned long long x = strtoull(v, &end, 0);
		ca->a.kind = KIND("u32") ? SIM_ARG_U32 : SIM_ARG_U64;
		ca->a.value.u = x;
	} else if (KIND("f32") || KIND("f64")) {
		double x = strtod(v, &end);
		ca->a.kind = KIND("f32") ? SIM_ARG_F32 : SIM_ARG_F64;
		ca->a.value.f = x;
	} else {
		return false;
	}
#undef KIND
	return end != v && *end == 0 && !errno;
}

static bool write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

/* "a, b, c": the kernels of a code object, for messages. */
static void list_kernels(const struct sim_code_object *co, FILE *out)
{
	size_t n = sim_kernel_count(co);
	if (!n)
		fputs("(none)", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", sim_kernel_name(co, i));
}

static bool has_kernel(const struct sim_code_object *co, const char *name)
{
	for (size_t i = 0; i < sim_kernel_count(co); i++)
		if (!strcmp(sim_kernel_name(co, i), name))
			return true;
	return false;
}

static const char *kind_spelling(enum sim_arg_kind k)
{
	static const char *const names[] = {
	        "in:", "out:", "inout:", "i32:", "u32:", "i64:", "u64:", "f32:", "f64:", "image:"};
	return names[k];
}

static bool is_buffer(enum sim_arg_kind k)
{
	return k == SIM_ARG_IN || k == SIM_ARG_OUT || k == SIM_ARG_INOUT || k == SIM_ARG_IMAGE;
}

static bool arg_error(const char *kernel, int i, const struct sim_arg_desc *a, const char *fmt,
                      const char *detail)
{
	fprintf(stderr, "amdsim: error: kernel %s, argument %d", kernel, i + 1);
	if (a->name)
		fprintf(stderr, " (%s)", a->name);
	fprintf(stderr, " is %s of %u bytes: ", a->value_kind, a->size);
	fprintf(stderr, fmt, detail);
	fputc('\n', stderr);
	return false;
}

/* The arguments against the kernel's metadata: their count, pointer or scalar, and the
 * scalar sizes; false (with a message) on a mismatch. */
static bool check_args(const struct sim_code_object *co, const char *kernel,
                       const struct cli_arg *cargs, size_t nargs)
{
	int want = sim_kernel_nargs(co, kernel);
	if (want >= 0 && (size_t)want != nargs) {
		fprintf(stderr, "amdsim: error: kernel %s takes %d arguments, %zu given:", kernel,
		        want, nargs);
		struct sim_arg_desc a;
		for (int i = 0; sim_kernel_arg(co, kernel, i, &a); i++)
			fprintf(stderr, " %s%s%s:%u", a.name ? a.name : "", a.name ? "=" : "",
			        a.value_kind, a.size);
		fputc('\n', stderr);
		return false;
	}
	for (size_t i = 0; i < nargs; i++) {
		struct sim_arg_desc a;
		if (!sim_kernel_arg(co, kernel, (int)i, &a))
			continue;
		enum sim_arg_kind k = cargs[i].a.kind;
		/* a dynamic_shared_pointer is given as u32:LDS_OFFSET (with --dynamic-lds) */
		bool pointer = !strcmp(a.value_kind, "global_buffer");
		unsigned given = k == SIM_ARG_I64 || k == SIM_ARG_U64 || k == SIM_ARG_F64 ? 8 : 4;
		if (pointer && !is_buffer(k))
			return arg_error(
			        kernel, (int)i, &a,
			        "a pointer, give in:FILE, out:SIZE:FILE or inout:FILE:OUT, "
			        "not %s",
			        kind_spelling(k));
		/* an 8-byte by_value argument may be a pointer the compiler could not prove
		 * (a .u64 PTX parameter, a ulong): a buffer passes its address, as on a GPU */
		if (!pointer && is_buffer(k) && a.size != 8)
			return arg_error(kernel, (int)i, &a,
			                 "not a pointer (a buffer fits only an 8-byte argument), "
			                 "give a scalar, not %s",
			                 kind_spelling(k));
		if (!pointer && !is_buffer(k) && given != a.size)
			return arg_error(kernel, (int)i, &a, "%s gives a different size",
			                 kind_spelling(k));
	}
	return true;
}

/* --block against the kernel's .max_flat_workgroup_size (1024 when absent). */
static bool check_block(const struct sim_code_object *co, const char *kernel,
                        const uint32_t block[3])
{
	uint32_t max = sim_kernel_max_flat_workgroup_size(co, kernel);
	uint64_t size = (uint64_t)block[0] * block[1] * block[2];
	if (size <= (max ? max : 1024))
		return true;
	fprintf(stderr,
	        "amdsim: error: --block %u,%u,%u is %llu work-items; kernel %s allows at most %u "
	        "(%s)\n",
	        block[0], block[1], block[2], (unsigned long long)size, kernel, max ? max : 1024,
	        max ? ".max_flat_workgroup_size" : "the default without .max_flat_workgroup_size");
	return false;
}

/* Which of --kernel, --grid, --block is missing; the kernel list when it is --kernel. */
static void report_missing(const char *file, const char *kernel, bool have_grid, bool have_block)
{
	const char *missing[3];
	int n = 0;
	if (!file)
		missing[n++] = "the code object FILE.hsaco";
	if (!kernel)
		missing[n++] = "--kernel NAME";
	if (!have_grid)
		missing[n++] = "--grid X[,Y,Z]";
	if (!have_block && n < 3)
		missing[n++] = "--block X[,Y,Z]";
	fputs("amdsim: error: missing ", stderr);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? (i == n - 1 ? " and " : ", ") : "", missing[i]);
	fputc('\n', stderr);
}

static void free_cli_args(struct cli_arg *cargs, size_t nargs)
{
	for (size_t i = 0; i < nargs; i++) {
		free(cargs[i].in_data);
		free(cargs[i].a.out);
	}
	free(cargs);
}

/* The closing count, by kind: the waitcnt/hazard checker's reports and the aligned mode's
 * misaligned LDS accesses are different faults (the first of the code's timing, the second
 * of its addresses), so neither is named for the other. */
static void print_violation_counts(const struct sim_stats *st)
{
	unsigned long long timing = st->violations - st->misaligned;
	fputs("amdsim: ", stderr);
	if (timing)
		fprintf(stderr, "%llu waitcnt/hazard violation(s)", timing);
	if (timing && st->misaligned)
		fputs(" and ", stderr);
	if (st->misaligned)
		fprintf(stderr, "%llu misaligned LDS access(es)",
		        (unsigned long long)st->misaligned);
}

int main(int argc, char **argv)
{
	const char *file = NULL, *kernel = NULL, *gpu = NULL;
	struct sim_dispatch d = {0};
	struct sim_options opt;
	bool have_grid = false, have_block = false, stats_on = false;
	const char *printf_path = NULL;
	sim_options_init(&opt);
	const char *align_mode = getenv("AMDSIM_ALIGNMENT_MODE");
	struct cli_arg *cargs = pa_xcalloc((size_t)argc + 1, sizeof *cargs);
	size_t nargs = 0;
	int usage_rc = -1;
	for (int i = 1; i < argc && usage_rc < 0; i++) {
		const char *a = argv[i];
		bool has_next = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			usage_rc = 0;
		} else if (!strcmp(a, "--kernel") && has_next) {
			kernel = argv[++i];
		} else if (!strcmp(a, "--gpu") && has_next) {
			gpu = argv[++i];
		} else if (!strcmp(a, "--grid") && has_next) {
			have_grid = parse_dims(argv[++i], d.grid);
			if (!have_grid) {
				fprintf(stderr, "amdsim: error: bad --grid '%s'\n", argv[i]);
				usage_rc = 2;
			}
		} else if (!strcmp(a, "--block") && has_next) {
			have_block = parse_dims(argv[++i], d.block);
			if (!have_block) {
				fprintf(stderr, "amdsim: error: bad --block '%s'\n", argv[i]);
				usage_rc = 2;
			}
		} else if (!strcmp(a, "--dynamic-lds") && has_next) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 0);
			if (*end || v > 65536) {
				fprintf(stderr, "amdsim: error: bad --dynamic-lds '%s'\n", argv[i]);
				usage_rc = 2;
			}
			d.dynamic_lds = (uint32_t)v;
		} else if (!strcmp(a, "--max-insns") && has_next) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(argv[++i], &end, 0);
			if (*end || !v || errno) {
				fprintf(stderr, "amdsim: error: bad --max-insns '%s'\n", argv[i]);
				usage_rc = 2;
			}
			opt.max_insns = v;
		} else if (!strcmp(a, "--seed") && has_next) {
			opt.seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(a, "--alignment-mode") && has_next) {
			align_mode = argv[++i];
		} else if (!strcmp(a, "--no-strict")) {
			opt.strict = false;
		} else if (!strcmp(a, "--strict")) {
			opt.strict = true;
		} else if (!strcmp(a, "--stats")) {
			stats_on = opt.cu_model = true;
		} else if (!strcmp(a, "--wave-stats")) {
			stats_on = true;
		} else if (!strcmp(a, "--cu-fill")) {
			opt.cu_fill = true;
		} else if (!strcmp(a, "--trace")) {
			opt.trace = true;
		} else if (!strcmp(a, "--printf") && has_next) {
			printf_path = argv[++i];
		} else if (!strcmp(a, "--printf-buffer") && has_next) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 0);
			if (*end || v < 8 || v > (1ul << 30)) {
				fprintf(stderr, "amdsim: error: bad --printf-buffer '%s'\n",
				        argv[i]);
				usage_rc = 2;
			}
			opt.printf_bytes = (uint32_t)v;
		} else if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "amdsim: error: unknown or incomplete option '%s'\n", a);
			usage(stderr);
			usage_rc = 2;
		} else if (!file) {
			file = a;
		} else {
			if (!parse_arg(a, &cargs[nargs])) {
				fprintf(stderr, "amdsim: error: bad kernel argument '%s'\n", a);
				usage_rc = 2;
			}
			nargs++;
		}
	}
	if (usage_rc < 0 && align_mode && strcmp(align_mode, "unaligned") &&
	    strcmp(align_mode, "aligned")) {
		fprintf(stderr, "amdsim: error: bad alignment mode '%s' (unaligned or aligned)\n",
		        align_mode);
		usage_rc = 2;
	}
	opt.strict_alignment = align_mode && !strcmp(align_mode, "aligned");
	if (usage_rc < 0 && (!file || !kernel || !have_grid || !have_block)) {
		report_missing(file, kernel, have_grid, have_block);
		usage(stderr);
		usage_rc = 2;
	}
	size_t size;
	unsigned char *bytes = usage_rc < 0 ? read_file(file, &size) : NULL;
	char err[512];
	struct sim_code_object *co = NULL;
	if (usage_rc < 0 && !bytes) {
		fprintf(stderr, "amdsim: error: cannot read '%s': %s\n", file, strerror(errno));
		usage_rc = 1;
	} else if (usage_rc < 0) {
		co = sim_load_for_gpu(bytes, size, gpu, err, sizeof err);
		free(bytes);
		if (!co) {
			fprintf(stderr, "amdsim: error: %s: %s\n", file, err);
			usage_rc = 1;
		}
	}
	if (usage_rc < 0 && !has_kernel(co, kernel)) {
		fprintf(stderr, "amdsim: error: no kernel named '%s' in %s; its kernels: ", kernel,
		        file);
		list_kernels(co, stderr);
		fputc('\n', stderr);
		usage_rc = 1; /* input that does not fit the code object: exit 1, as documented */
	} else if (usage_rc < 0 &&
	           (!check_args(co, kernel, cargs, nargs) || !check_block(co, kernel, d.block))) {
		usage_rc = 1;
	}
	if (usage_rc >= 0 && co)
		sim_free(co);
	if (usage_rc >= 0) {
		free_cli_args(cargs, nargs);
		return usage_rc;
	}
	struct sim_arg *args = pa_xcalloc(nargs + 1, sizeof *args);
	for (size_t i = 0; i < nargs; i++)
		args[i] = cargs[i].a;
	d.kernel = kernel;
	d.args = args;
	d.nargs = nargs;
	struct sim_stats st;
	if (printf_path && !(opt.printf_out = fopen(printf_path, "w"))) {
		fprintf(stderr, "amdsim: error: cannot write '%s': %s\n", printf_path,
		        strerror(errno));
		free_cli_args(cargs, nargs);
		free(args);
		sim_free(co);
		return 1;
	}
	enum sim_status status = sim_run(co, &d, &opt, &st, err, sizeof err);
	if (opt.printf_out && fclose(opt.printf_out)) {
		fprintf(stderr, "amdsim: error: cannot write '%s'\n", printf_path);
		status = status == SIM_ERROR ? status : SIM_ERROR;
		snprintf(err, sizeof err, "writing the printf output failed");
	}
	int rc = 0;
	if (status == SIM_ERROR) {
		fprintf(stderr, "amdsim: error: %s\n", err);
		rc = st.trapped ? 4 : 1;
	} else {
		for (size_t i = 0; i < nargs; i++)
			if (cargs[i].outfile &&
			    !write_file(cargs[i].outfile, cargs[i].a.out, cargs[i].a.size)) {
				fprintf(stderr, "amdsim: error: cannot write '%s'\n",
				        cargs[i].outfile);
				rc = 1;
			}
		if (status == SIM_VIOLATIONS) {
			uint32_t shown =
			        opt.max_violations_printed ? opt.max_violations_printed : 20;
			print_violation_counts(&st);
			if (st.violations > shown)
				fprintf(stderr, " (the first %u shown)", shown);
			fputc('\n', stderr);
			if (!rc)
				rc = 3;
		}
	}
	if (stats_on && status != SIM_ERROR)
		sim_print_stats(stdout, &st);
	free_cli_args(cargs, nargs);
	free(args);
	sim_free(co);
	return rc;
}
