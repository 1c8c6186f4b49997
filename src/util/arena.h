/* Bump arena: the one allocator of ptxas-amd.
 *
 * Memory for a function (or a module) comes from one arena and is freed all at once,
 * so peak memory follows the largest function.  Allocation failure aborts with a
 * message: it can only happen when the machine is out of memory, never on bad input,
 * because every size that comes from input is bounded before it is allocated. */
#ifndef PA_ARENA_H
#define PA_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pa_arena_chunk;
struct pa_arena_big;
struct pa_page_pool;

struct pa_arena {
	struct pa_arena_chunk *head; /* current chunk; older chunks follow ->prev */
	unsigned char *next;         /* first free byte of the current chunk (NULL: none) */
	unsigned char *limit;        /* end of its zeroed part: next..limit is free and zero */
	unsigned char *end;          /* end of the current chunk: limit..end is free, not zeroed */
	size_t chunk_size;           /* default size of a new chunk */
	size_t bytes_reserved;       /* sum of chunk sizes (for statistics) */
	size_t peak_reserved;        /* max of bytes_reserved over the arena's life */
	/* A part of limit..end known to be zero after a reset or rewind (what was free and
	 * cleared then), which the slow path does not clear again. */
	unsigned char *zero_from, *zero_to;
	/* No transparent huge pages for its chunks (set after pa_arena_init): for an arena whose
	 * last, partly used chunk would hold up to 2 MiB of untouched memory in a huge page at
	 * the compile's peak, where 4 KiB faults cost little (measured: the PTX body and the IR;
	 * the machine IR's arenas fault far more and keep them). */
	bool small_pages;
	/* Growable arrays of GROW_MAP bytes or more (pa_arena_grow): each in a mapping of its own,
	 * newest first, so that doubling one moves its pages (mremap) instead of copying them into
	 * new ones; freed with the arena. */
	struct pa_arena_big *big;
	uint64_t nbig; /* big arrays made so far: their sequence numbers (for rewind) */
	/* Where its mappings go when given back and come from first (set after pa_arena_init;
	 * NULL: the system): the compile job's pool (page_pool.h). */
	struct pa_page_pool *pool;
	/* With a pool: the current chunk's part from here on was never touched (NULL: none);
	 * the pool's pages are moved there as allocation reaches it (arena.c, clear_to). */
	unsigned char *fresh;
};

void pa_arena_init(struct pa_arena *a);
/* pa_arena_init for a pass's own temporaries kept beside `owner`: the same page pool. */
void pa_arena_init_beside(struct pa_arena *a, const struct pa_arena *owner);
/* pa_arena_alloc when the current chunk is full. */
void *pa_arena_alloc_slow(struct pa_arena *a, size_t size, size_t align);
/* Memory of `size` bytes aligned to `align` (a power of two, at most 4096); zeroed.
 * Inline bump for the common case: the free part of the current chunk up to `limit` is kept
 * zeroed (the slow path clears up to the end of the page reached; reset and rewind move
 * `limit` back to `next`, so reused memory is cleared as it is reached again), so an
 * allocation writes nothing. */
static inline void *pa_arena_alloc(struct pa_arena *a, size_t size, size_t align)
{
	uintptr_t at = ((uintptr_t)a->next + (align - 1)) & ~(uintptr_t)(align - 1);
	uintptr_t limit = (uintptr_t)a->limit;
	if (limit && at <= limit && size <= limit - at) {
		a->next = (unsigned char *)at + size;
		return (void *)at;
	}
	return pa_arena_alloc_slow(a, size, align);
}
/* Bytes handed out so far (chunk sizes minus the free part of the current chunk). */
static inline size_t pa_arena_used(const struct pa_arena *a)
{
	return a->bytes_reserved - (size_t)(a->end - a->next);
}
/* Like pa_arena_alloc for an array of n elements of `size` bytes; aborts on overflow. */
void *pa_arena_array(struct pa_arena *a, size_t n, size_t size, size_t align);
char *pa_arena_strndup(struct pa_arena *a, const char *s, size_t n);
/* Frees everything allocated but keeps the memory for reuse (as one chunk). */
/* A growable array in the arena: returns `old` when it holds `need` elements of `elem` bytes,
 * else a copy with twice the capacity (or more), updating *cap.  The old copy is left to
 * the arena (a large one reads as zeros afterwards, or is no longer mapped: never keep a
 * pointer into an array across its growth). */
void *pa_arena_grow_slow(struct pa_arena *a, void *old, uint32_t *cap, uint32_t need, size_t elem);
/* (inline: most calls find room, one append per IR value or machine instruction) */
static inline void *pa_arena_grow(struct pa_arena *a, void *old, uint32_t *cap, uint32_t need,
                                  size_t elem)
{
	if (need <= *cap)
		return old;
	return pa_arena_grow_slow(a, old, cap, need, elem);
}
void pa_arena_reset(struct pa_arena *a);
void pa_arena_free(struct pa_arena *a);
/* Gives the whole pages inside p[0..size) back to the system when it is large (256 KiB or
 * more): for an array in an arena that its owner replaced and never reads again (they read
 * as zeros afterwards).  pa_arena_grow does it for the copies it leaves. */
void pa_arena_release(void *p, size_t size);

/* A point in an arena's life: pa_arena_rewind frees what was allocated after it (a stage's
 * temporaries), giving back the chunks added since and clearing the bytes used since, so
 * the next temporaries reuse the same memory instead of adding to the peak. */
struct pa_arena_mark {
	struct pa_arena_chunk *chunk;
	unsigned char *next;
	uint64_t nbig;
};
static inline struct pa_arena_mark pa_arena_mark(const struct pa_arena *a)
{
	return (struct pa_arena_mark){a->head, a->next, a->nbig};
}
void pa_arena_rewind(struct pa_arena *a, struct pa_arena_mark m);

#define PA_NEW(a, T)          ((T *)pa_arena_alloc((a), sizeof(T), _Alignof(T)))
#define PA_NEW_ARRAY(a, T, n) ((T *)pa_arena_array((a), (n), sizeof(T), _Alignof(T)))

/* malloc/realloc that abort on out-of-memory, for the few growable buffers
 * that outlive an arena (input buffers, output byte streams). */
void *pa_xmalloc(size_t size);
void *pa_xrealloc(void *p, size_t size);
void *pa_xcalloc(size_t n, size_t size);

#endif
