/* Unit test of ptx_parse_number: every immediate spelling of the PTX ISA (section
 * "Constants": decimal, hexadecimal 0x, octal 0, binary 0b, U suffix, 0f/0F single and
 * 0d/0D double hex floats, decimal floating-point literals which are .f64) with values
 * stated from the spec, plus malformed literals that must be rejected. */
#include <stdio.h>
#include <string.h>

#include "ptx.h"

struct num_case {
	const char *text;
	int kind; /* PTX_OPND_INT/F32/F64, or -1: must be rejected */
	unsigned long long value;
	int is_unsigned;
};

static const struct num_case cases[] = {
        {"0", PTX_OPND_INT, 0, 0},
        {"42", PTX_OPND_INT, 42, 0},
        {"42U", PTX_OPND_INT, 42, 1},
        {"0U", PTX_OPND_INT, 0, 1},
        {"0x1F", PTX_OPND_INT, 31, 0},
        {"0X1f", PTX_OPND_INT, 31, 0},
        {"0xFFFFFFFFU", PTX_OPND_INT, 4294967295ull, 1},
        {"0x7FFFFFFFFFFFFFFF", PTX_OPND_INT, 0x7FFFFFFFFFFFFFFFull, 0},
        /* too large for .s64: the literal is .u64 */
        {"0xFFFFFFFFFFFFFFFF", PTX_OPND_INT, 0xFFFFFFFFFFFFFFFFull, 1},
        {"18446744073709551615", PTX_OPND_INT, 18446744073709551615ull, 1},
        {"017", PTX_OPND_INT, 15, 0},
        {"0777U", PTX_OPND_INT, 511, 1},
        {"0b101", PTX_OPND_INT, 5, 0},
        {"0B1111U", PTX_OPND_INT, 15, 1},
        {"0f3F800000", PTX_OPND_F32, 0x3F800000ull, 0},                 /* 1.0f */
        {"0F7F800000", PTX_OPND_F32, 0x7F800000ull, 0},                 /* +inf */
        {"0fffc00000", PTX_OPND_F32, 0xFFC00000ull, 0},                 /* a NaN, bits kept */
        {"0d3FF0000000000000", PTX_OPND_F64, 0x3FF0000000000000ull, 0}, /* 1.0 */
        {"0D400921FB54442D18", PTX_OPND_F64, 0x400921FB54442D18ull, 0}, /* pi */
        {"1.5", PTX_OPND_F64, 0x3FF8000000000000ull, 0},
        {"1.", PTX_OPND_F64, 0x3FF0000000000000ull, 0},
        {"0.5", PTX_OPND_F64, 0x3FE0000000000000ull, 0},
        {"1e3", PTX_OPND_F64, 0x408F400000000000ull, 0},
        {"2.5e-1", PTX_OPND_F64, 0x3FD0000000000000ull, 0},
        {"18446744073709551616", -1, 0, 0}, /* 2^64 does not fit */
        {"0x", -1, 0, 0},
        {"0b102", -1, 0, 0},
        {"089", -1, 0, 0},
        {"0x1G", -1, 0, 0},
        {"0f3F80000", -1, 0, 0},         /* 7 digits */
        {"0f3F8000000", -1, 0, 0},       /* 9 digits */
        {"0d3FF000000000000", -1, 0, 0}, /* 15 digits */
        {"0fXYZW0000", -1, 0, 0},
        {"1e", -1, 0, 0},
        {"1.5.2", -1, 0, 0},
        {"12abc", -1, 0, 0},
};

int main(void)
{
	int failures = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct num_case *c = &cases[i];
		struct ptx_number n;
		const char *err = ptx_parse_number(c->text, strlen(c->text), &n);
		if (c->kind < 0) {
			if (!err) {
				printf("FAIL %s: accepted, expected an error\n", c->text);
				failures++;
			}
			continue;
		}
		if (err || n.kind != c->kind || n.value != c->value ||
		    (int)n.is_unsigned != c->is_unsigned) {
			printf("FAIL %s: got %s kind %d value 0x%llx unsigned %d\n", c->text,
			       err ? err : "ok", n.kind, (unsigned long long)n.value,
			       n.is_unsigned);
			failures++;
		}
	}
	printf("%d number parsing failures\n", failures);
	return failures != 0;
}
