/* memory: the sparse device address space of a dispatch.
 *
 * Device memory is a sorted array of disjoint regions (buffers, kernarg segment, AQL packet,
 * code object image, scratch), each backed by host memory from the dispatch arena.  Regions
 * are placed with guard gaps, so an access just past a buffer is an error, never another
 * buffer's data.  A lookup is a binary search with a one-entry cache.
 * complexity: O(log regions) per access. */
#include <string.h>

#include "sim_int.h"

enum { REGION_ALIGN = 0x10000, GUARD = 0x10000 };
#define DEVICE_BASE 0x100000000ull

uint64_t sim_mem_alloc(struct sim_ctx *c, uint64_t size, const char *what)
{
	struct sim_mem *m = &c->mem;
	uint64_t base = DEVICE_BASE;
	if (m->n)
		base = m->regions[m->n - 1].base + m->regions[m->n - 1].size + GUARD;
	base = (base + REGION_ALIGN - 1) & ~(uint64_t)(REGION_ALIGN - 1);
	if (m->n == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 16;
		struct sim_region *r = PA_NEW_ARRAY(&c->arena, struct sim_region, cap);
		if (m->n)
			memcpy(r, m->regions, m->n * sizeof *r);
		m->regions = r;
		m->cap = cap;
	}
	struct sim_region *r = &m->regions[m->n++];
	r->base = base;
	r->size = size;
	r->data = size ? pa_arena_alloc(&c->arena, size, 16) : NULL;
	r->what = what;
	return base;
}

struct sim_region *sim_mem_region(struct sim_ctx *c, uint64_t addr)
{
	struct sim_mem *m = &c->mem;
	if (m->last < m->n) {
		struct sim_region *r = &m->regions[m->last];
		if (addr >= r->base && addr - r->base < r->size)
			return r;
	}
	unsigned lo = 0, hi = m->n;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		struct sim_region *r = &m->regions[mid];
		if (addr < r->base)
			hi = mid;
		else if (addr - r->base >= r->size)
			lo = mid + 1;
		else {
			m->last = mid;
			return r;
		}
	}
	return NULL;
}

/* Host pointer to `size` bytes at device address addr, or NULL when any byte is outside an
 * allocation. */
uint8_t *sim_mem_map(struct sim_ctx *c, uint64_t addr, uint32_t size, bool write)
{
	(void)write;
	struct sim_region *r = sim_mem_region(c, addr);
	if (!r || addr - r->base + size > r->size)
		return NULL;
	return r->data + (addr - r->base);
}
