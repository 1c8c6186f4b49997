/* Clang offload bundles (see offload_bundle.h for the layout): writing one from code
 * objects, and reading entries back (amdsim runs the entry of its GPU from a bundle).
 * Reading checks every offset and length against the buffer before anything is used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "offload_bundle.h"

enum { MAGIC_LEN = sizeof PA_BUNDLE_MAGIC - 1 };

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static size_t align_up(size_t v, size_t align)
{
	return (v + align - 1) & ~(align - 1);
}

bool pa_bundle_write(const struct pa_bundle_entry *entries, size_t n, size_t align, uint8_t **out,
                     size_t *out_size)
{
	size_t header = MAGIC_LEN + 8;
	for (size_t i = 0; i < n; i++)
		header += 24 + entries[i].id_len;
	/* The offsets as clang-offload-bundler lays them out: each entry at the end of the
	 * previous one (the header for the first), rounded up to the alignment. */
	size_t *offsets = pa_xcalloc(n + 1, sizeof *offsets);
	size_t end = header;
	for (size_t i = 0; i < n; i++) {
		offsets[i] = align_up(end, align);
		if (offsets[i] < end || offsets[i] + entries[i].size < offsets[i]) {
			free(offsets);
			return false;
		}
		end = offsets[i] + entries[i].size;
	}
	uint8_t *buf = pa_xcalloc(end ? end : 1, 1);
	memcpy(buf, PA_BUNDLE_MAGIC, MAGIC_LEN);
	put64(buf + MAGIC_LEN, n);
	uint8_t *p = buf + MAGIC_LEN + 8;
	for (size_t i = 0; i < n; i++) {
		put64(p, offsets[i]);
		put64(p + 8, entries[i].size);
		put64(p + 16, entries[i].id_len);
		memcpy(p + 24, entries[i].id, entries[i].id_len);
		p += 24 + entries[i].id_len;
		if (entries[i].size)
			memcpy(buf + offsets[i], entries[i].data, entries[i].size);
	}
	free(offsets);
	*out = buf;
	*out_size = end;
	return true;
}

bool pa_bundle_is(const void *bytes, size_t size)
{
	return size >= MAGIC_LEN + 8 && !memcmp(bytes, PA_BUNDLE_MAGIC, MAGIC_LEN);
}

bool pa_bundle_count(const void *bytes, size_t size, size_t *count, char *err, size_t errlen)
{
	const uint8_t *b = bytes;
	if (!pa_bundle_is(bytes, size)) {
		snprintf(err, errlen, "not a clang offload bundle");
		return false;
	}
	uint64_t n = get64(b + MAGIC_LEN);
	size_t at = MAGIC_LEN + 8;
	for (uint64_t i = 0; i < n; i++) {
		if (size - at < 24) {
			snprintf(err, errlen, "offload bundle header cut short (entry %llu)",
			         (unsigned long long)i);
			return false;
		}
		uint64_t offset = get64(b + at), len = get64(b + at + 8),
		         id_len = get64(b + at + 16);
		if (id_len > size - at - 24 || offset > size || len > size - offset) {
			snprintf(err, errlen, "offload bundle entry %llu lies outside the file",
			         (unsigned long long)i);
			return false;
		}
		at += 24 + (size_t)id_len;
	}
	*count = (size_t)n;
	return true;
}

void pa_bundle_get(const void *bytes, size_t index, struct pa_bundle_entry *e)
{
	const uint8_t *b = bytes, *p = b + MAGIC_LEN + 8;
	for (size_t i = 0; i < index; i++)
		p += 24 + get64(p + 16);
	*e = (struct pa_bundle_entry){
	        .id = (const char *)p + 24,
	        .id_len = (size_t)get64(p + 16),
	        .data = b + get64(p),
	        .size = (size_t)get64(p + 8),
	};
}
