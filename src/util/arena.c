/* Bump arena.  Chunks are a linked list; an allocation larger than the default chunk
 * gets a chunk of its own.  Reset keeps memory for reuse: a single chunk is simply
 * rewound; several chunks are replaced by one chunk as large as all of them together,
 * so an arena reused per function settles, after at most a few resets, at one chunk the
 * size of the largest function and then never calls malloc/free again.  (Freeing the
 * chunks at every reset made glibc return them to the kernel and fault them back in,
 * page by page, for every large function.)  Complexity: O(1) per allocation, O(number
 * of chunks) per reset.  Free memory is kept zeroed (calloc'ed chunks, used bytes cleared
 * at reset), so allocation is an inline pointer bump (arena.h). */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pa_arena_chunk {
	struct pa_arena_chunk *prev;
	size_t size; /* usable bytes in data[] */
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

/* Makes a zeroed chunk of at least `need` bytes the current one. */
static void new_chunk(struct pa_arena *a, size_t need)
{
	size_t size = need > a->chunk_size ? need : a->chunk_size;
	if (size > SIZE_MAX - sizeof(struct pa_arena_chunk))
		out_of_memory(size);
	struct pa_arena_chunk *c = pa_xcalloc(1, sizeof *c + size);
	c->size = size;
	c->prev = a->head;
	a->head = c;
	a->next = c->data;
	a->limit = c->data + size;
	a->bytes_reserved += size;
	if (a->bytes_reserved > a->peak_reserved)
		a->peak_reserved = a->bytes_reserved;
}

void *pa_arena_alloc_slow(struct pa_arena *a, size_t size, size_t align)
{
	if (size > SIZE_MAX - 4096)
		out_of_memory(size);
	new_chunk(a, size + align);
	return pa_arena_alloc(a, size, align);
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
		memset(c->data, 0, (size_t)(a->next - c->data)); /* keep the free part zeroed */
		a->next = c->data;
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
	a->next = a->limit = NULL;
	a->bytes_reserved = 0;
}

void *pa_arena_grow(struct pa_arena *a, void *old, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return old;
	uint32_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *fresh = pa_arena_array(a, ncap, elem, 8);
	if (old)
		memcpy(fresh, old, (size_t)*cap * elem);
	*cap = ncap;
	return fresh;
}
