/* Page pool: mappings that arenas gave back, kept resident for the next mappings they make.
 *
 * Policy.  A compile job's arenas take turns (parse, IR, its passes' temporaries, machine
 * IR, scheduling, allocation): each stage mapped fresh memory for its temporaries and gave
 * it back at its end, and the next stage faulted the same amount in again (measured: 7.9k of
 * big_unrolled's 12.8k minor faults were on pages faulted in before).  An arena whose `pool`
 * is set gives its mmap'ed chunks and big arrays here instead of munmap'ing them, and fills
 * each new mapping from here before touching it:
 * - fill: the held regions' pages are moved (mremap, which moves page table entries: no
 *   copy, no fault) to the front of the new mapping, largest region first, a region larger
 *   than what is left split (its tail stays held).  So pages are reused whatever the sizes
 *   and alignments of the mappings that gave and take them.  The moved pages are NOT zero:
 *   fill says how many bytes from the start are not, and the caller clears what it promises
 *   to be zero (the arena's lazy clearing does for chunks); the rest is the mapping's own
 *   fresh zero pages.
 * - give: kept while the pool holds at most `cap` bytes (and PA_POOL_SLOTS regions); above
 *   that the region goes back to the system (munmap).
 * The pool cannot raise the peak resident set by more than `cap`: what it holds was resident
 * when it was given, it is moved into the next mapping before that mapping faults anything,
 * and only new faults elsewhere while it holds pages (lazily used chunks) come on top.
 * No global state: a pool belongs to one compile job (one thread); pa_page_pool_drain gives
 * everything back at its end. */
#ifndef PA_PAGE_POOL_H
#define PA_PAGE_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* What a compile job's pool holds at most (measured on big_unrolled: see
 * bench/results/SCALE.md, 2026-11-28). */
#define PA_PAGE_POOL_CAP ((size_t)4 << 20)

/* Held regions are listed here, not in their own pages: writing a header into a split-off
 * tail could fault in a page (a 2 MiB one in a huge mapping) that nobody touched yet. */
#define PA_POOL_SLOTS 32

struct pa_page_pool {
	struct pa_pool_region {
		unsigned char *m;
		size_t len;
	} slot[PA_POOL_SLOTS]; /* held, unordered: slot[0..n) */
	unsigned n;
	size_t held; /* bytes held */
	size_t cap;  /* most bytes held */
	/* statistics (tests) */
	size_t moved, unmapped;
};

void pa_page_pool_init(struct pa_page_pool *p, size_t cap);
/* Moves held pages into dst[0..len) (a fresh private anonymous mapping of this process, page
 * aligned, len a multiple of 4096) from its start on; returns how many bytes from dst on
 * they now fill (their contents are whatever was there); the rest of dst is left alone. */
size_t pa_page_pool_fill(struct pa_page_pool *p, void *dst, size_t len);
/* Gives back the mapping m[0..len) (page aligned). */
void pa_page_pool_give(struct pa_page_pool *p, void *m, size_t len);
/* Gives every held region back to the system. */
void pa_page_pool_drain(struct pa_page_pool *p);

#endif
