/* The printf buffer of kernels that declare hidden_printf_buffer, as the ROCm runtime
 * provides it for buffered printf: dword 0 counts the bytes used (the kernel reserves with
 * an atomic add), dword 1 holds the buffer's size, records start at byte 8.  A record is
 * the format id (u32) then the arguments packed at the sizes that the code object's
 * amdhsa.printf string "id:nargs:size...:format" lists; a %s argument holds the string's
 * bytes.  After the dispatch the records are printed in buffer order with the host's
 * printf, one conversion at a time.  Once the kernels have reserved more than the buffer
 * holds, the records that did not fit were not written (their printf failed): printing stops
 * at the first zero id.
 * requires: the loaded metadata; breaks: nothing.  Complexity: O(buffer bytes). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

enum { PRINTF_BUFFER_BYTES = 1u << 20, MAX_SPEC = 64 };

uint64_t sim_printf_buffer(struct sim_ctx *c)
{
	if (!c->printf_addr) {
		uint32_t bytes = c->opt->printf_bytes ? c->opt->printf_bytes : PRINTF_BUFFER_BYTES;
		c->printf_addr = sim_mem_alloc(c, bytes, "printf buffer");
		uint32_t head[2] = {0, bytes};
		uint8_t *p = sim_mem_map(c, c->printf_addr, 8, true);
		if (p)
			memcpy(p, head, 8);
	}
	return c->printf_addr;
}

/* The escapes LLVM's amdhsa.printf strings use, undone in place: \a \b \f \n \r \v and
 * octal ("\72" for the ':' that separates the fields); any other backslash stays. */
static void unescape(char *s)
{
	static const char from[] = "abfnrv", to[] = "\a\b\f\n\r\v";
	char *o = s;
	for (; *s; s++) {
		const char *e = s[0] == '\\' && s[1] ? strchr(from, s[1]) : NULL;
		if (e) {
			*o++ = to[e - from];
			s++;
		} else if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7') {
			unsigned v = 0, k = 0;
			for (; k < 3 && s[1 + k] >= '0' && s[1 + k] <= '7'; k++)
				v = v * 8 + (unsigned)(s[1 + k] - '0');
			*o++ = (char)v;
			s += k;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* Prints one conversion spec[0..n) (starting with '%') with the argument at arg. */
static void print_one(FILE *out, const char *spec, size_t n, const uint8_t *arg, unsigned size)
{
	char f[MAX_SPEC + 4];
	char conv = spec[n - 1];
	size_t k = 0;
	for (size_t i = 0; i + 1 < n && k < MAX_SPEC; i++)
		if (!strchr("hljztL", spec[i]))
			f[k++] = spec[i];
	uint64_t v = 0;
	memcpy(&v, arg, size > 8 ? 8 : size);
	if (conv == 's') {
		f[k++] = 's';
		f[k] = 0;
		char *str = calloc(1, size + 1);
		memcpy(str, arg, size);
		fprintf(out, f, str);
		free(str);
		return;
	}
	if (strchr("fFeEgGaA", conv)) {
		double d; /* an 8-byte double (CUDA promotes float), or a 4-byte OpenCL float */
		if (size == 4) {
			float fl;
			memcpy(&fl, &v, 4);
			d = fl;
		} else {
			memcpy(&d, &v, 8);
		}
		f[k++] = conv;
		f[k] = 0;
		fprintf(out, f, d);
		return;
	}
	if (conv == 'p') {
		f[k++] = 'p';
		f[k] = 0;
		fprintf(out, f, (void *)(uintptr_t)v);
		return;
	}
	bool sign = conv == 'd' || conv == 'i';
	bool h = n >= 2 && spec[n - 2] == 'h', hh = h && n >= 3 && spec[n - 3] == 'h';
	if (size == 4)
		v = sign ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	if (hh)
		v = sign ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
	else if (h)
		v = sign ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	if (conv == 'c') {
		f[k++] = 'c';
		f[k] = 0;
		fprintf(out, f, (int)v);
		return;
	}
	f[k++] = 'l';
	f[k++] = 'l';
	f[k++] = conv;
	f[k] = 0;
	fprintf(out, f, (long long)v);
}

/* Prints one record whose format text is md ("id:nargs:size...:format"); its bytes used,
 * or -1 if it does not fit in the `avail` bytes left (nothing printed). */
static int64_t print_record(FILE *out, const char *md, const uint8_t *rec, uint32_t avail)
{
	char *copy = strdup(md), *p = copy;
	strtoul(p, &p, 10); /* id */
	unsigned nargs = (unsigned)strtoul(p + 1, &p, 10);
	unsigned sizes[64];
	uint32_t need = 0;
	for (unsigned i = 0; i < nargs && i < 64; i++) {
		sizes[i] = (unsigned)strtoul(p + 1, &p, 10);
		need += sizes[i];
	}
	if (nargs > 64 || *p != ':' || need > avail) {
		free(copy);
		return -1;
	}
	char *fmt = p + 1;
	unescape(fmt);
	unsigned a = 0;
	uint32_t at = 0;
	for (size_t i = 0; fmt[i];) {
		if (fmt[i] != '%') {
			fputc(fmt[i++], out);
			continue;
		}
		size_t j = i + 1;
		while (fmt[j] && !strchr("diouxXcsfFeEgGaAp%n", fmt[j]))
			j++;
		if (!fmt[j])
			break;
		if (fmt[j] == '%') {
			fputc('%', out);
		} else if (a < nargs) {
			print_one(out, fmt + i, j + 1 - i, rec + at, sizes[a]);
			at += sizes[a++];
		}
		i = j + 1;
	}
	free(copy);
	return need;
}

/* The amdhsa.printf string whose id is `id` (usually the id-th), or NULL. */
static const char *format_of(const struct sim_code_object *co, uint32_t id)
{
	for (unsigned k = 0; k < co->nprintfs; k++) {
		unsigned i = (id - 1 + k) % co->nprintfs;
		if (co->printfs[i] && strtoul(co->printfs[i], NULL, 10) == id)
			return co->printfs[i];
	}
	return NULL;
}

void sim_printf_flush(struct sim_ctx *c, FILE *out)
{
	if (!c->printf_addr)
		return;
	const uint8_t *head = sim_mem_map(c, c->printf_addr, 8, false);
	if (!head)
		return;
	uint32_t used, size = c->opt->printf_bytes ? c->opt->printf_bytes : PRINTF_BUFFER_BYTES;
	memcpy(&used, head, 4); /* the size word is the simulator's, whatever the kernel did */
	bool overflowed = used > size - 8;
	uint32_t end = overflowed ? size - 8 : used;
	const uint8_t *buf = sim_mem_map(c, c->printf_addr + 8, size - 8, false);
	for (uint32_t pos = 0; buf && pos + 4 <= end;) {
		uint32_t id;
		memcpy(&id, buf + pos, 4);
		const char *md = format_of(c->co, id);
		if (!id && overflowed)
			break; /* the space no record that fitted took */
		if (!md) {
			fprintf(stderr, "amdsim: printf record with unknown format id %u\n", id);
			break;
		}
		int64_t n = print_record(out, md, buf + pos + 4, end - pos - 4);
		if (n < 0) {
			fprintf(stderr,
			        "amdsim: printf record (format %u) cut at the buffer's end\n", id);
			break;
		}
		pos += 4 + (uint32_t)n;
	}
	fflush(out);
}
