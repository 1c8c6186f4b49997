/* Bump arena.  Chunks are a linked list; an allocation larger than the default chunk
 * gets a chunk of its own.  Reset keeps memory for reuse: a single chunk is simply
 * rewound; several chunks are replaced by one chunk as large as all of them together,
 * so an arena reused per function settles, after at most a few resets, at one chunk the
 * size of the largest function and then never calls malloc/free again.  (Freeing the
 * chunks at every reset made glibc return them to the kernel and fault them back in,
 * page by page, for every large function.)  An arena that grew past RETAIN_MAX gives its
 * memory back at reset and keeps one chunk of that size: the compiler's arenas take turns
 * (IR, then machine IR in two), and kept memory would add their peaks up.
 * Complexity: O(1) per allocation, O(number of chunks) per reset.  Free memory up to the
 * arena's limit is kept zeroed (the slow path clears a chunk page by page as it is
 * reached, also after a reset or rewind, which clear nothing themselves), so allocation is
 * an inline pointer bump (arena.h). */
#include "arena.h"
#include "page_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Chunks of at least this size come straight from mmap, 2 MiB aligned, and are offered to
 * the kernel for transparent huge pages: a big function's arena then faults in 2 MiB at a
 * time instead of 4 KiB (page faults were most of the system time on large kernels). */
#define HUGE_CHUNK ((size_t)2 << 20)
/* Chunks of at least this size (and below HUGE_CHUNK) come from mmap too (map_small_chunk). */
#define MAP_CHUNK ((size_t)256 << 10)
/* What a reset arena keeps at most (one chunk); more is returned to the system. */
#define RETAIN_MAX ((size_t)4 << 20)
/* Abandoned growable arrays of at least this size give their pages back (pa_arena_release). */
#define RELEASE_MIN ((size_t)256 << 10)
/* Growable arrays that reach this size move to a mapping of their own (struct pa_arena_big). */
#define GROW_MAP ((size_t)256 << 10)
#define PAGE     ((size_t)4096)
/* With a page pool, the pool's pages are moved into a chunk this much at a time, as
 * allocation reaches its never-touched part (take_pool_pages). */
#define POOL_BATCH ((size_t)128 << 10)

struct pa_arena_chunk {
	struct pa_arena_chunk *prev;
	size_t size; /* usable bytes in data[] */
	void *map;   /* mmap'ed region holding the chunk (NULL: from malloc) */
	size_t maplen;
	_Alignas(16) unsigned char data[];
};

/* A large growable array: one anonymous mapping, this header first.  Doubling it is an
 * mremap, which moves the page table entries: no copy, no page faults on a second copy, and
 * the old pages are not resident beside the new ones.  (Copying doubling arrays was a fifth of
 * the page faults of a 50k-instruction kernel, each a few microseconds on a virtual machine.) */
struct pa_arena_big {
	struct pa_arena_big *prev; /* older one */
	uint64_t seq;              /* order of creation (pa_arena_mark.nbig) */
	size_t maplen;
	_Alignas(16) unsigned char data[];
};

static void unmap_or_pool(struct pa_arena *a, void *m, size_t len)
{
	if (a->pool)
		pa_page_pool_give(a->pool, m, len);
	else
		munmap(m, len);
}

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

void pa_arena_init_beside(struct pa_arena *a, const struct pa_arena *owner)
{
	pa_arena_init(a);
	a->pool = owner->pool; /* (page_pool.h) */
}

/* A zeroed chunk of `size` usable bytes from mmap, whole pages (NULL when mmap fails: the
 * caller falls back to malloc).  Between MAP_CHUNK and HUGE_CHUNK: glibc would serve such a
 * chunk from its heap once it has raised its mmap threshold (it does when a large block is
 * freed), and a freed heap block below the top stays resident -- the parser's and the IR's
 * chunks would then stay in the process's RSS for the rest of the compile. */
static struct pa_arena_chunk *map_small_chunk(size_t size)
{
	size_t len = (sizeof(struct pa_arena_chunk) + size + PAGE - 1) & ~(PAGE - 1);
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	struct pa_arena_chunk *c = m;
	c->map = m;
	c->maplen = len;
	c->size = len - sizeof *c;
	return c;
}

/* A zeroed chunk of `size` usable bytes from mmap, its start 2 MiB aligned, for huge pages
 * when `huge` (NULL when mmap fails: the caller falls back to malloc). */
static struct pa_arena_chunk *map_chunk(size_t size, bool huge)
{
	size_t len = (sizeof(struct pa_arena_chunk) + size + HUGE_CHUNK - 1) & ~(HUGE_CHUNK - 1);
	unsigned char *m = mmap(NULL, len + HUGE_CHUNK, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	unsigned char *start =
	        (unsigned char *)(((uintptr_t)m + HUGE_CHUNK - 1) & ~(HUGE_CHUNK - 1));
	if (start > m)
		munmap(m, (size_t)(start - m));
	size_t tail = (size_t)(m + len + HUGE_CHUNK - (start + len));
	if (tail)
		munmap(start + len, tail);
#ifdef MADV_HUGEPAGE
	if (huge)
		madvise(start, len, MADV_HUGEPAGE);
#else
	(void)huge;
#endif
	struct pa_arena_chunk *c = (struct pa_arena_chunk *)start;
	c->map = start;
	c->maplen = len;
	c->size = len - sizeof *c;
	return c;
}

/* Whether chunk c (mapped) is in transparent huge pages (map_chunk). */
static bool huge_chunk(const struct pa_arena *a, const struct pa_arena_chunk *c)
{
	return !a->small_pages && c->maplen >= HUGE_CHUNK && !(c->maplen & (HUGE_CHUNK - 1));
}

/* Makes a zeroed chunk of at least `need` bytes the current one.  Chunks grow with the
 * arena (a quarter of what it holds), so a big function needs few of them. */
static void new_chunk(struct pa_arena *a, size_t need)
{
	size_t size = a->bytes_reserved / 4;
	if (size < a->chunk_size)
		size = a->chunk_size;
	if (size < need)
		size = need;
	if (size > SIZE_MAX - sizeof(struct pa_arena_chunk) - 2 * HUGE_CHUNK)
		out_of_memory(size);
	struct pa_arena_chunk *c = size >= HUGE_CHUNK  ? map_chunk(size, !a->small_pages)
	                           : size >= MAP_CHUNK ? map_small_chunk(size)
	                                               : NULL;
	if (!c) {
		/* not cleared here: the slow path clears the free part as allocation reaches it,
		 * so a small function does not pay for clearing (and faulting in) all 64 KiB */
		c = pa_xmalloc(sizeof *c + size);
		c->map = NULL;
		c->size = size;
	}
	size = c->size;
	c->prev = a->head;
	a->head = c;
	a->next = c->data;
	a->end = c->data + size;
	a->limit = c->map ? a->end : c->data; /* mapped memory is zero */
	a->zero_from = a->zero_to = NULL;
	a->fresh = NULL;
	if (c->map && a->pool) { /* reached lazily, to take the pool's pages (clear_to) */
		size_t unit = huge_chunk(a, c) ? HUGE_CHUNK : PAGE;
		a->limit = c->data;
		a->fresh =
		        (unsigned char *)(((uintptr_t)c->data + unit - 1) & ~(uintptr_t)(unit - 1));
		if (a->fresh >= a->end)
			a->fresh = NULL;
	}
	a->bytes_reserved += size;
	if (a->bytes_reserved > a->peak_reserved)
		a->peak_reserved = a->bytes_reserved;
}

/* The big array whose data is `p`: the link that points to it (NULL: none). */
static struct pa_arena_big **find_big(struct pa_arena *a, const void *p)
{
	for (struct pa_arena_big **l = &a->big; *l; l = &(*l)->prev)
		if ((*l)->data == p)
			return l;
	return NULL;
}

static void drop_big(struct pa_arena *a, struct pa_arena_big *b)
{
	a->bytes_reserved -= b->maplen;
	unmap_or_pool(a, b, b->maplen);
}

/* Frees the big arrays made since the mark (sequence number `seq`). */
static void drop_bigs_since(struct pa_arena *a, uint64_t seq)
{
	while (a->big && a->big->seq >= seq) {
		struct pa_arena_big *b = a->big;
		a->big = b->prev;
		drop_big(a, b);
	}
}

/* `bytes` of zeroed memory holding the first `keep` bytes of `old` (a big array of this
 * arena or NULL) in a big array (NULL when mmap or mremap fail: the caller copies). */
static void *grow_big(struct pa_arena *a, void *old, size_t keep, size_t bytes)
{
	if (bytes > SIZE_MAX - sizeof(struct pa_arena_big) - PAGE)
		out_of_memory(bytes);
	size_t len = (sizeof(struct pa_arena_big) + bytes + PAGE - 1) & ~(PAGE - 1);
	struct pa_arena_big **link = old ? find_big(a, old) : NULL;
	struct pa_arena_big *b;
	if (link) {
		b = mremap(*link, (*link)->maplen, len, MREMAP_MAYMOVE);
		if (b == MAP_FAILED)
			return NULL;
		a->bytes_reserved += len - b->maplen;
		b->maplen = len;
		*link = b; /* (the header moved with its pages) */
	} else {
		b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			return NULL;
		if (a->pool) { /* the pool's pages for what is copied now (they are not zero) */
			size_t head = (sizeof *b + keep + PAGE - 1) & ~(PAGE - 1);
			size_t dirty = pa_page_pool_fill(a->pool, b, head < len ? head : len);
			if (dirty > sizeof *b + keep)
				memset(b->data + keep, 0, dirty - sizeof *b - keep);
		}
		b->maplen = len;
		b->seq = a->nbig++;
		b->prev = a->big;
		a->big = b;
		a->bytes_reserved += len;
		if (old) {
			memcpy(b->data, old, keep);
			pa_arena_release(old, keep);
		}
	}
	if (a->bytes_reserved > a->peak_reserved)
		a->peak_reserved = a->bytes_reserved;
	return b->data;
}

/* Moves the pool's pages into the current chunk's never-touched part that allocation now
 * reaches (up to POOL_BATCH past `want`; in huge pages, up to the end of the 2 MiB page
 * reached), so they are used before new ones are faulted in (the pool then holds nothing
 * while this arena faults in new pages: the peak does not rise); what they do not fill of
 * that part is known zero (fresh), what they fill is not.  (Filling a huge page's range
 * only when the pool fills it wholly cut the faults of big_unrolled.x8 a little but raised
 * the peak by holding the pool's pages meanwhile.) */
static void take_pool_pages(struct pa_arena *a, unsigned char *want)
{
	unsigned char *from = a->fresh;
	bool huge = huge_chunk(a, a->head);
	size_t unit = huge ? HUGE_CHUNK : PAGE;
	uintptr_t to =
	        ((uintptr_t)want + (huge ? 0 : POOL_BATCH) + unit - 1) & ~(uintptr_t)(unit - 1);
	if (to >= (uintptr_t)a->end)
		to = (uintptr_t)a->end; /* (a mapped chunk ends on a page boundary) */
	size_t got = pa_page_pool_fill(a->pool, from, (size_t)(to - (uintptr_t)from));
	a->zero_from = from + got;
	a->zero_to = (unsigned char *)to;
	a->fresh = to < (uintptr_t)a->end ? (unsigned char *)to : NULL;
}

/* Clears the current chunk from `limit` to `want`, skipping the part known to be zero.
 * (Addresses compare as integers: zero_from/zero_to may be NULL.) */
static void clear_to(struct pa_arena *a, unsigned char *want)
{
	if (a->fresh && want > a->fresh)
		take_pool_pages(a, want);
	uintptr_t from = (uintptr_t)a->zero_from, to = (uintptr_t)a->zero_to;
	if ((uintptr_t)a->limit < from) {
		unsigned char *stop = (uintptr_t)want < from ? want : a->zero_from;
		memset(a->limit, 0, (size_t)(stop - a->limit));
		a->limit = stop;
	}
	if ((uintptr_t)a->limit >= from && (uintptr_t)a->limit < to)
		a->limit = a->zero_to;
	if (want > a->limit) {
		memset(a->limit, 0, (size_t)(want - a->limit));
		a->limit = want;
	}
}

void *pa_arena_alloc_slow(struct pa_arena *a, size_t size, size_t align)
{
	if (size > SIZE_MAX - 4096)
		out_of_memory(size);
	uintptr_t at = ((uintptr_t)a->next + (align - 1)) & ~(uintptr_t)(align - 1);
	uintptr_t end = (uintptr_t)a->end;
	if (a->head && at <= end && size <= end - at) {
		/* the chunk has room past its zeroed part: clear up to the end of the page this
		 * allocation ends in, so a page is cleared (and faulted in) when allocation
		 * reaches it; a small kernel's dozen arenas touch a page each, not the
		 * 8 KiB-and-a-bit a fixed step did */
		uintptr_t want = (at + size + PAGE - 1) & ~(PAGE - 1);
		clear_to(a, want < end ? (unsigned char *)want : a->end);
		return pa_arena_alloc(a, size, align);
	}
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
	drop_bigs_since(a, 0);
	struct pa_arena_chunk *c = a->head;
	if (!c)
		return;
	if (a->bytes_reserved > RETAIN_MAX) {
		/* a big function's memory goes back to the system, so that the next stage or
		 * function (in another arena) reuses the pages instead of adding to them; it
		 * comes back in huge pages (map_chunk), cheaply */
		pa_arena_free(a);
		new_chunk(a, RETAIN_MAX);
		return;
	}
	if (!c->prev) {
		/* nothing is cleared here: the slow path clears the chunk page by page as the
		 * next use reaches it, so the last use of an arena (a process compiling one
		 * kernel) and the part a smaller next function leaves alone cost nothing */
		a->zero_from = a->next;
		a->zero_to = a->limit;
		a->next = a->limit = c->data;
		return;
	}
	size_t total = a->bytes_reserved;
	pa_arena_free(a);
	new_chunk(a, total);
}

/* untouched: where the part of c never touched begins (NULL: not known), which is not worth
 * keeping in the pool (moved into a huge page's range, it would fault page by page). */
static void drop_chunk(struct pa_arena *a, struct pa_arena_chunk *c, unsigned char *untouched)
{
	if (c->map && a->pool && untouched) {
		size_t kept = (size_t)(untouched - (unsigned char *)c->map);
		munmap(untouched, c->maplen - kept);
		pa_page_pool_give(a->pool, c->map, kept);
	} else if (c->map)
		unmap_or_pool(a, c->map, c->maplen);
	else
		free(c);
}

void pa_arena_rewind(struct pa_arena *a, struct pa_arena_mark m)
{
	drop_bigs_since(a, m.nbig);
	unsigned char *untouched = a->fresh; /* (of the head) */
	if (a->head == m.chunk) {
		a->zero_from = a->next;
		a->zero_to = a->limit;
	} else {
		a->zero_from = a->zero_to = NULL; /* what the mark's chunk held is not known */
		a->fresh = NULL;
	}
	while (a->head && a->head != m.chunk) {
		struct pa_arena_chunk *c = a->head;
		a->head = c->prev;
		a->bytes_reserved -= c->size;
		drop_chunk(a, c, untouched);
		untouched = NULL;
	}
	if (!a->head) {
		a->next = a->limit = a->end = NULL;
		return;
	}
	/* the free part from the mark on is cleared again as allocation reaches it (as after
	 * a reset), not here: a stage's temporaries after the last rewind are never reused */
	a->next = a->limit = m.next;
	a->end = a->head->data + a->head->size;
}

void pa_arena_free(struct pa_arena *a)
{
	drop_bigs_since(a, 0);
	struct pa_arena_chunk *c = a->head;
	unsigned char *untouched = a->fresh; /* (of the head) */
	while (c) {
		struct pa_arena_chunk *prev = c->prev;
		drop_chunk(a, c, untouched);
		untouched = NULL;
		c = prev;
	}
	a->head = NULL;
	a->next = a->limit = a->end = a->fresh = NULL;
	a->bytes_reserved = 0;
}

/* The arena never hands an abandoned array's bytes out again, so a large array grown by
 * doubling would else keep all its old copies resident (as much again as the array) until
 * the arena is reset.  The pages read as zeros if touched again (reset's clearing does),
 * like the rest of a chunk's free part. */
void pa_arena_release(void *p, size_t size)
{
	if (size < RELEASE_MIN)
		return;
	uintptr_t begin = ((uintptr_t)p + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	uintptr_t end = ((uintptr_t)p + size) & ~(uintptr_t)(PAGE - 1);
#ifdef MADV_DONTNEED
	if (end > begin)
		madvise((void *)begin, end - begin, MADV_DONTNEED);
#else
	(void)begin;
	(void)end;
#endif
}

void *pa_arena_grow_slow(struct pa_arena *a, void *old, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	if (elem && ncap > SIZE_MAX / elem)
		out_of_memory(SIZE_MAX);
	if ((size_t)ncap * elem >= GROW_MAP) {
		void *big = grow_big(a, old, (size_t)*cap * elem, (size_t)ncap * elem);
		if (big) {
			*cap = ncap;
			return big;
		}
	}
	void *fresh = pa_arena_array(a, ncap, elem, 8);
	if (old) {
		memcpy(fresh, old, (size_t)*cap * elem);
		pa_arena_release(old, (size_t)*cap * elem);
	}
	*cap = ncap;
	return fresh;
}
