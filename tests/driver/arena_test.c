/* pa_arena_rewind and pa_arena_grow's page release (src/util/arena.c): what comes after a
 * mark is freed and its bytes read as zero when handed out again, the same memory is reused,
 * chunks added since the mark are given back, and a grown array keeps its contents.  Reset
 * and rewind clear nothing themselves: memory handed out again after them (the used part,
 * the part that was free and zero, and a malloc'ed chunk's never-cleared rest) reads as zero. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(void)
{
	struct pa_arena a;
	pa_arena_init(&a);
	unsigned char *keep = pa_arena_alloc(&a, 100, 8);
	memset(keep, 0x5a, 100);
	/* within one chunk */
	struct pa_arena_mark m = pa_arena_mark(&a);
	unsigned char *t = pa_arena_alloc(&a, 1000, 8);
	memset(t, 0xff, 1000);
	pa_arena_rewind(&a, m);
	unsigned char *t2 = pa_arena_alloc(&a, 1000, 8);
	check(t2 == t, "rewind reuses the same memory");
	check(all_zero(t2, 1000), "rewound bytes read as zero");
	/* across chunks, small and huge (mmap'ed) ones */
	size_t before = a.bytes_reserved;
	m = pa_arena_mark(&a);
	for (int i = 0; i < 40; i++) {
		unsigned char *p = pa_arena_alloc(&a, (size_t)200 << 10, 16);
		memset(p, 0xee, (size_t)200 << 10);
	}
	unsigned char *big = pa_arena_alloc(&a, (size_t)5 << 20, 16);
	memset(big, 0xdd, (size_t)5 << 20);
	check(a.bytes_reserved > before, "new chunks were added");
	pa_arena_rewind(&a, m);
	check(a.bytes_reserved == before, "chunks added after the mark are given back");
	unsigned char *t3 = pa_arena_alloc(&a, 4000, 8);
	check(all_zero(t3, 4000), "memory after a multi-chunk rewind reads as zero");
	check(keep[0] == 0x5a && keep[99] == 0x5a, "memory before the mark is kept");
	/* a mark on an empty arena */
	struct pa_arena e;
	pa_arena_init(&e);
	m = pa_arena_mark(&e);
	memset(pa_arena_alloc(&e, 3000, 8), 1, 3000);
	pa_arena_rewind(&e, m);
	check(e.bytes_reserved == 0, "rewind to an empty arena frees everything");
	check(all_zero(pa_arena_alloc(&e, 3000, 8), 3000), "fresh memory after it is zeroed");
	/* a large growable array keeps its contents while its old copies' pages go */
	uint32_t *arr = NULL, cap = 0;
	for (uint32_t i = 0; i < (1u << 20); i++) {
		arr = pa_arena_grow(&e, arr, &cap, i + 1, sizeof *arr);
		arr[i] = i * 7u;
	}
	int same = 1;
	for (uint32_t i = 0; i < (1u << 20); i++)
		same &= arr[i] == i * 7u;
	check(same, "a grown array keeps its elements");
	/* reset: cycles of growing and shrinking use over a chunk that malloc may hand out dirty */
	unsigned char *dirty = malloc((size_t)80 << 10);
	if (dirty) {
		memset(dirty, 0xab, (size_t)80 << 10);
		free(dirty);
	}
	struct pa_arena r;
	pa_arena_init(&r);
	static const size_t sizes[] = {10000, 100, 20000, 3000, 50000, 700, 6000, 60000, 1};
	int zero = 1;
	for (size_t cycle = 0; cycle < sizeof sizes / sizeof *sizes; cycle++) {
		for (int k = 0; k < 3; k++) { /* three allocations per cycle, odd sizes */
			size_t n = sizes[cycle] / (size_t)(k + 1) + (size_t)k;
			unsigned char *q = pa_arena_alloc(&r, n, (size_t)1 << k);
			zero &= all_zero(q, n);
			memset(q, 0xc3, n);
		}
		struct pa_arena_mark rm = pa_arena_mark(&r);
		unsigned char *q = pa_arena_alloc(&r, sizes[cycle] / 3 + 1, 8);
		zero &= all_zero(q, sizes[cycle] / 3 + 1);
		memset(q, 0x3c, sizes[cycle] / 3 + 1);
		pa_arena_rewind(&r, rm);
		q = pa_arena_alloc(&r, sizes[cycle] / 2 + 5, 8);
		zero &= all_zero(q, sizes[cycle] / 2 + 5);
		memset(q, 0x77, sizes[cycle] / 2 + 5);
		pa_arena_reset(&r);
	}
	check(zero, "memory handed out after resets and rewinds reads as zero");
	pa_arena_free(&r);
	pa_arena_free(&a);
	pa_arena_free(&e);
	printf("%s\n", failures ? "arena_test: failures" : "arena_test: ok");
	return failures != 0;
}
