/* Test of the compact signature records (struct ptx_param in ptx.h): for every kernel
 * of a PTX file, the offsets, sizes and parameter-block size the parser computes must
 * equal NVIDIA ptxas's own layout, recorded in a .expected file by
 * layout/record_layout.py (so the test needs no ptxas).  Also checks that during the
 * on_function callback fn->sym->func->params holds the parameter symbols, consistent
 * with the records, and that they are gone (NULL) once the function is over while the
 * records stay.
 *
 * usage: test_param_layout FILE.ptx FILE.expected */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

struct layout_run {
	char text[16384];
	size_t len;
	int failures;
	const struct ptx_func_info *previous; /* the last kernel's signature */
};

static void append(struct layout_run *r, const char *fmt, unsigned a, unsigned b, unsigned c)
{
	int n = snprintf(r->text + r->len, sizeof r->text - r->len, fmt, a, b, c);
	if (n > 0 && (size_t)n < sizeof r->text - r->len)
		r->len += (size_t)n;
}

static void fail(struct layout_run *r, const char *what, const char *kernel)
{
	printf("FAIL %s: %s\n", kernel, what);
	r->failures++;
}

static void on_function(void *user, const struct ptx_function *fn, const struct ptx_module_state *m)
{
	struct layout_run *r = user;
	const struct ptx_func_info *f = fn->sym->func;
	if (r->previous && (r->previous->params || r->previous->rets))
		fail(r, "parameter symbols of the previous function still set", fn->sym->name);
	r->previous = f;
	if (!f->is_entry)
		return;
	int n = snprintf(r->text + r->len, sizeof r->text - r->len, "kernel %s bytes %u\n",
	                 fn->sym->name, f->param_bytes);
	if (n > 0 && (size_t)n < sizeof r->text - r->len)
		r->len += (size_t)n;
	for (uint32_t i = 0; i < f->nparams; i++) {
		const struct ptx_param *p = &f->param_layout[i];
		append(r, "param %u offset %u size %u\n", i, p->offset, p->size);
		if (!f->params || !f->params[i] || !f->params[i]->name[0])
			fail(r, "parameter symbol missing during the callback", fn->sym->name);
		else if (f->params[i]->type != p->type || f->params[i]->vec != p->vec)
			fail(r, "parameter record differs from its symbol", fn->sym->name);
		if (p->offset % p->align)
			fail(r, "parameter offset not a multiple of its alignment", fn->sym->name);
	}
}

static char *read_file(const char *path)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return NULL;
	const size_t cap = 1 << 16;
	char *text = calloc(1, cap + 1);
	size_t n = text ? fread(text, 1, cap, in) : 0;
	fclose(in);
	if (text)
		text[n] = 0;
	return text;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_param_layout FILE.ptx FILE.expected\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "r");
	char *expected = read_file(argv[2]);
	if (!in || !expected) {
		fprintf(stderr, "test_param_layout: cannot read %s or %s\n", argv[1], argv[2]);
		return 2;
	}
	struct pa_diag diag;
	pa_diag_init(&diag, stderr);
	struct layout_run *r = calloc(1, sizeof *r);
	struct ptx_parse_options opts = {
	        .filename = argv[1], .diag = &diag, .on_function = on_function, .user = r};
	bool ok = ptx_parse_stream(in, &opts);
	fclose(in);
	if (!ok)
		fail(r, "does not parse", argv[1]);
	if (strcmp(r->text, expected)) {
		printf("FAIL layout differs from ptxas's\n--- expected (ptxas)\n%s--- parser\n%s",
		       expected, r->text);
		r->failures++;
	}
	int failures = r->failures;
	printf("%s\n", failures ? "FAILED" : "ok");
	free(r);
	free(expected);
	return failures ? 1 : 0;
}
