/* libFuzzer target for the PTX front end (src/parse).
 *
 * Each input is parsed as a PTX module from a memory stream.  Besides "no crash,
 * no hang, no leak, no UB" (the sanitizers' job) it checks two properties:
 *  1. ptx_parse_stream() returns true exactly when the diagnostics sink counted no
 *     error (the contract in ptx.h);
 *  2. round trip: when the input parses without error, the normalized PTX the
 *     parser dumps (--dump-ast) must itself parse without error.
 * A violated property calls abort() after printing the offending text, so libFuzzer
 * saves the input as a crash.  The same entry point is linked with replay_main.c
 * into a plain program that replays saved inputs in the meson test suite.
 * Complexity: two or three parses of the input per call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parses `size` bytes at `text`; diagnostics go to a memory stream returned in
 * *diag_text (caller frees).  Optionally dumps normalized PTX to `dump`. */
static bool parse_buffer(const char *text, size_t size, FILE *dump, char **diag_text,
                         bool *consistent)
{
	size_t diag_len = 0;
	FILE *diag_out = open_memstream(diag_text, &diag_len);
	if (!diag_out)
		abort();
	struct pa_diag diag;
	pa_diag_init(&diag, diag_out);
	/* fmemopen() rejects a zero-sized buffer; /dev/null is an empty stream. */
	FILE *in = size ? fmemopen((void *)text, size, "r") : fopen("/dev/null", "r");
	if (!in)
		abort();
	struct ptx_parse_options opts = {
	        .filename = "fuzz.ptx",
	        .diag = &diag,
	        .dump_out = dump,
	};
	bool ok = ptx_parse_stream(in, &opts);
	fclose(in);
	fclose(diag_out);
	*consistent = ok == !pa_diag_failed(&diag);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dump_text = NULL, *diag1 = NULL, *diag2 = NULL;
	size_t dump_len = 0;
	bool consistent = true;
	FILE *dump = open_memstream(&dump_text, &dump_len);
	if (!dump)
		abort();
	bool ok = parse_buffer((const char *)data, size, dump, &diag1, &consistent);
	fclose(dump);
	if (!consistent) {
		fprintf(stderr, "fuzz_parse: return value %d disagrees with the diagnostics:\n%s",
		        ok, diag1);
		abort();
	}
	if (ok) {
		bool ok2 = parse_buffer(dump_text, dump_len, NULL, &diag2, &consistent);
		if (!ok2 || !consistent) {
			fprintf(stderr,
			        "fuzz_parse: the dump of an input that parsed cleanly does not "
			        "parse:\n%s\n--- dump (%zu bytes) ---\n%.*s\n",
			        diag2, dump_len, (int)dump_len, dump_text);
			abort();
		}
	}
	free(diag1);
	free(diag2);
	free(dump_text);
	return 0;
}
