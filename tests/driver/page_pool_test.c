/* The page pool (src/util/page_pool.c) and arenas that use it (src/util/arena.c): pages an
 * arena gives back are handed to the next arena's chunks and big arrays (still resident:
 * mincore says so, and no page of theirs is faulted again), what they read as is zero
 * wherever the arena promises zero (dirty pages come back cleared), the pool holds no more
 * than its cap, a split region's tail stays held, and drain empties it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"
#include "page_pool.h"

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)

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

/* Pages of m[0..len) resident (m page aligned). */
static size_t resident(void *m, size_t len)
{
	size_t n = len / 4096, count = 0;
	unsigned char *v = malloc(n);
	if (!v || mincore(m, len, v) != 0) {
		free(v);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		count += v[i] & 1;
	free(v);
	return count;
}

static void *dirty_mapping(size_t len)
{
	unsigned char *m =
	        mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		abort();
	memset(m, 0xab, len);
	return m;
}

static void pool_alone(void)
{
	struct pa_page_pool p;
	pa_page_pool_init(&p, MIB);
	pa_page_pool_give(&p, dirty_mapping(256 * KIB), 256 * KIB);
	pa_page_pool_give(&p, dirty_mapping(512 * KIB), 512 * KIB);
	pa_page_pool_give(&p, dirty_mapping(512 * KIB), 512 * KIB);
	check(p.held == 768 * KIB && p.n == 2, "a region past the cap is not held");
	check(p.unmapped == 512 * KIB, "it went back to the system");
	unsigned char *dst =
	        mmap(NULL, 640 * KIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t got = pa_page_pool_fill(&p, dst, 640 * KIB);
	check(got == 640 * KIB, "fill moves held pages up to the length asked");
	check(p.held == 128 * KIB && p.n == 1, "a split region's tail stays held");
	check(resident(dst, got) == got / 4096, "moved pages are resident");
	check(dst[0] == 0xab && dst[got - 1] == 0xab, "moved pages keep what they held");
	pa_page_pool_drain(&p);
	check(p.held == 0 && p.n == 0, "drain gives everything back");
	munmap(dst, 640 * KIB);
}

/* Arena b after arena a gave back its chunks: b's allocations take a's pages, read as zero. */
static void arenas_take_turns(size_t each, int count)
{
	struct pa_page_pool p;
	pa_page_pool_init(&p, PA_PAGE_POOL_CAP);
	struct pa_arena a, b;
	pa_arena_init(&a);
	pa_arena_init(&b);
	a.pool = b.pool = &p;
	for (int i = 0; i < count; i++)
		memset(pa_arena_alloc(&a, each, 16), 0xcd, each);
	pa_arena_free(&a);
	check(p.held > 0, "a freed arena's chunks are held");
	size_t held = p.held;
	int zero = 1;
	unsigned char *last = NULL;
	for (int i = 0; i < count; i++) {
		last = pa_arena_alloc(&b, each, 16);
		zero &= all_zero(last, each);
		memset(last, 0x11, each);
	}
	check(zero, "memory from the pool's pages reads as zero");
	check(p.moved > 0 && p.held < held, "the next arena takes the pool's pages");
	/* rewind and reset within b: what comes back is zero too */
	struct pa_arena_mark m = pa_arena_mark(&b);
	memset(pa_arena_alloc(&b, 3 * each, 16), 0x22, 3 * each);
	pa_arena_rewind(&b, m);
	check(all_zero(pa_arena_alloc(&b, 3 * each, 16), 3 * each), "after a rewind: zero");
	pa_arena_reset(&b);
	check(all_zero(pa_arena_alloc(&b, 2 * each, 16), 2 * each), "after a reset: zero");
	pa_arena_free(&b);
	check(p.held <= PA_PAGE_POOL_CAP, "the pool holds no more than its cap");
	pa_page_pool_drain(&p);
}

/* A big growable array made from the pool's pages keeps its elements and a zero tail. */
static void big_arrays(void)
{
	struct pa_page_pool p;
	pa_page_pool_init(&p, PA_PAGE_POOL_CAP);
	struct pa_arena a;
	pa_arena_init(&a);
	a.pool = &p;
	pa_page_pool_give(&p, dirty_mapping(2 * MIB), 2 * MIB);
	uint32_t *arr = NULL, cap = 0;
	int tail_zero = 1;
	for (uint32_t i = 0; i < (1u << 19); i++) {
		uint32_t old = cap;
		arr = pa_arena_grow(&a, arr, &cap, i + 1, sizeof *arr);
		if (cap != old)
			tail_zero &= all_zero((unsigned char *)&arr[i], (cap - i) * sizeof *arr);
		arr[i] = i * 7u;
	}
	int same = 1;
	for (uint32_t i = 0; i < (1u << 19); i++)
		same &= arr[i] == i * 7u;
	check(same, "a grown array from the pool keeps its elements");
	check(tail_zero, "a grown array from the pool is zero past its elements");
	check(p.moved > 0, "the array took the pool's pages");
	pa_arena_free(&a);
	pa_page_pool_drain(&p);
}

int main(void)
{
	pool_alone();
	arenas_take_turns(300 * KIB, 4); /* chunks between 256 KiB and 2 MiB */
	arenas_take_turns(3 * MIB, 2);   /* chunks in huge pages */
	arenas_take_turns(4000, 1000);   /* malloc'ed, then mapped chunks */
	big_arrays();
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
