/* Page pool (policy: page_pool.h).  A compile job holds a few regions at a time, so the
 * largest is found by a linear scan.  Complexity: O(PA_POOL_SLOTS) per region moved or
 * given, plus O(log(region pages)) mremap calls per mapping a region spans (below). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap */
#endif
#include "page_pool.h"

#include <stdint.h>
#include <sys/mman.h>

#define PAGE ((size_t)4096)

void pa_page_pool_init(struct pa_page_pool *p, size_t cap)
{
	*p = (struct pa_page_pool){.cap = cap};
}

static void unmap(struct pa_page_pool *p, void *m, size_t len)
{
	munmap(m, len);
	p->unmapped += len;
}

/* Moves src[0..len) to dst (whole pages).  mremap moves from one mapping only, and a region
 * given back may span several (a chunk filled from other regions is one mapping per piece,
 * whose flags differ): the halves are moved apart then.  False when a page could not be
 * moved (then dst's part is whatever moved, the rest fresh: the caller treats all as used). */
static bool move_pages(unsigned char *dst, unsigned char *src, size_t len)
{
	if (mremap(src, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst) != MAP_FAILED)
		return true;
	if (len == PAGE)
		return false;
	size_t half = (len / PAGE / 2) * PAGE;
	bool first = move_pages(dst, src, half);
	return move_pages(dst + half, src + half, len - half) && first;
}

size_t pa_page_pool_fill(struct pa_page_pool *p, void *dst, size_t len)
{
	unsigned char *to = dst;
	size_t filled = 0;
	while (p->n && filled < len) {
		unsigned big = 0;
		for (unsigned i = 1; i < p->n; i++)
			if (p->slot[i].len > p->slot[big].len)
				big = i;
		struct pa_pool_region *r = &p->slot[big];
		size_t take = r->len < len - filled ? r->len : len - filled;
		unsigned char *src = r->m;
		if (take < r->len) { /* the tail stays held */
			r->m += take;
			r->len -= take;
		} else {
			*r = p->slot[--p->n];
		}
		p->held -= take;
		if (!move_pages(to + filled, src, take))
			unmap(p, src, take); /* (what did not move: gone; dst keeps fresh pages) */
		filled += take;
		p->moved += take;
	}
	return filled;
}

void pa_page_pool_give(struct pa_page_pool *p, void *m, size_t len)
{
	if (p->held + len > p->cap || p->n == PA_POOL_SLOTS) {
		unmap(p, m, len);
		return;
	}
	p->slot[p->n++] = (struct pa_pool_region){m, len};
	p->held += len;
}

void pa_page_pool_drain(struct pa_page_pool *p)
{
	while (p->n) {
		struct pa_pool_region r = p->slot[--p->n];
		unmap(p, r.m, r.len);
	}
	p->held = 0;
}
