/* Bump arena.  Chunks are a linked list; an allocation larger than the default chunk
 * gets a chunk of its own.  Reset keeps memory for reuse: a single chunk is simply
 * rewound; several chunks are replaced by one chunk as large as all of them together,
 * so an arena reused per function settles, after at most a few resets, at one chunk the
 * size of the largest function and then never calls malloc/free again.  (Freeing the
 * chunks at every reset made glibc return them to the kernel and fault them back in,
 * page by page, for every large function.)  Complexity: O(1) per allocation, O(number
 * of chunks) per reset. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pa_arena_chunk {
	struct pa_arena_chunk *prev;
	size_t size; /* usable bytes in data[] */
	size_t used;
	_Alignas(16) unsigned char data[];
};

static _Noreturn void out_of_memory(size_t size)
{
	fprintf(stderr, "ptxas-amd: fatal: out of memory allocating %zu bytes\n", size);
	abort();
}

void *pa_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *pa_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		out_of_memory(size);
	return q;
}

void *pa_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void pa_arena_init(struct pa_arena *a)
{
	memset(a, 0, sizeof *a);
	a->chunk_size = 64 * 1024;
}

static struct pa_arena_chunk *new_chunk(struct pa_arena *a, size_t need)
{
	size_t size = need > a->chunk_size ? need : a->chunk_size;
	if (size > SIZE_MAX - sizeof(struct pa_arena_chunk))
		out_of_memory(size);
	struct pa_arena_chunk *c = pa_xmalloc(sizeof *c + size);
	c->size = size;
	c->used = 0;
	c->prev = a->head;
	a->head = c;
	a->bytes_reserved += size;
	if (a->bytes_reserved > a->peak_reserved)
		a->peak_reserved = a->bytes_reserved;
	return c;
}

void *pa_arena_alloc(struct pa_arena *a, size_t size, size_t align)
{
	struct pa_arena_chunk *c = a->head;
	if (size > SIZE_MAX - 4096)
		out_of_memory(size);
	if (c) {
		size_t at = (c->used + align - 1) & ~(align - 1);
		if (at <= c->size && size <= c->size - at) {
			c->used = at + size;
			memset(c->data + at, 0, size);
			return c->data + at;
		}
	}
	c = new_chunk(a, size + align);
	size_t at = (align - ((uintptr_t)c->data & (align - 1))) & (align - 1);
	c->used = at + size;
	memset(c->data + at, 0, size);
	return c->data + at;
}

void *pa_arena_array(struct pa_arena *a, size_t n, size_t size, size_t align)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return pa_arena_alloc(a, n * size, align);
}

char *pa_arena_strndup(struct pa_arena *a, const char *s, size_t n)
{
	char *d = pa_arena_alloc(a, n + 1, 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

void pa_arena_reset(struct pa_arena *a)
{
	struct pa_arena_chunk *c = a->head;
	if (!c)
		return;
	if (!c->prev) {
		c->used = 0;
		return;
	}
	size_t total = a->bytes_reserved;
	pa_arena_free(a);
	new_chunk(a, total);
}

void pa_arena_free(struct pa_arena *a)
{
	struct pa_arena_chunk *c = a->head;
	while (c) {
		struct pa_arena_chunk *prev = c->prev;
		free(c);
		c = prev;
	}
	a->head = NULL;
	a->bytes_reserved = 0;
}
