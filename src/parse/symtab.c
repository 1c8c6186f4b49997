/* Symbol tables with nested scopes.
 *
 * A chained hash table whose chains keep newer bindings first: declaring a name in an
 * inner scope puts it in front of the outer binding (shadowing), closing the scope
 * removes its symbols newest first, which always finds each at the head of its chain.
 * A parameterized register range `%r<N>` is one symbol named "%r"; `%r17` is found by
 * splitting the trailing decimal digits and checking 17 < N, walking outward past
 * inner ranges that are too short.  Complexity: O(1) expected per operation. */
#include "ptx_int.h"

#include <stdlib.h>
#include <string.h>

void ptx_symtab_init(struct ptx_symtab *t, uint32_t nbuckets)
{
	t->buckets = pa_xcalloc(nbuckets, sizeof *t->buckets);
	t->nbuckets = nbuckets;
	t->count = 0;
}

void ptx_symtab_free(struct ptx_symtab *t)
{
	free(t->buckets);
	t->buckets = NULL;
}

/* Doubles the bucket array keeping each chain's order (newest first). */
static void grow(struct ptx_symtab *t)
{
	uint32_t n = t->nbuckets * 2;
	struct ptx_symbol **nb = pa_xcalloc(n, sizeof *nb);
	struct ptx_symbol **tails = pa_xcalloc(n, sizeof *tails);
	for (uint32_t i = 0; i < t->nbuckets; i++) {
		for (struct ptx_symbol *s = t->buckets[i], *next; s; s = next) {
			next = s->hnext;
			uint32_t b = s->hash & (n - 1);
			s->hnext = NULL;
			if (tails[b])
				tails[b]->hnext = s;
			else
				nb[b] = s;
			tails[b] = s;
		}
	}
	free(tails);
	free(t->buckets);
	t->buckets = nb;
	t->nbuckets = n;
}

void ptx_symtab_insert(struct ptx_symtab *t, struct ptx_symbol *s)
{
	if (t->count >= 2 * t->nbuckets && t->nbuckets < (1u << 28))
		grow(t);
	uint32_t b = s->hash & (t->nbuckets - 1);
	s->hnext = t->buckets[b];
	t->buckets[b] = s;
	t->count++;
}

void ptx_symtab_remove(struct ptx_symtab *t, struct ptx_symbol *s)
{
	struct ptx_symbol **p = &t->buckets[s->hash & (t->nbuckets - 1)];
	while (*p && *p != s)
		p = &(*p)->hnext;
	if (*p) {
		*p = s->hnext;
		t->count--;
	}
}

struct ptx_symbol *ptx_symtab_find(const struct ptx_symtab *t, const char *name, uint32_t len,
                                   uint32_t hash)
{
	for (struct ptx_symbol *s = t->buckets[hash & (t->nbuckets - 1)]; s; s = s->hnext)
		if (s->hash == hash && s->name_len == len && s->range == 0 &&
		    ptx_same_text(s->name, name, len))
			return s;
	return NULL;
}

void ptx_name_init(struct ptx_name *n, const char *text, uint32_t len)
{
	uint32_t h = PTX_HASH_BASIS, ph = 0, digits_at = 0;
	for (uint32_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch >= '0' && ch <= '9') {
			if (!digits_at) {
				digits_at = i;
				ph = h;
			}
		} else {
			digits_at = 0;
		}
		h = PTX_HASH_STEP(h, ch);
	}
	*n = (struct ptx_name){.text = text, .len = len, .hash = h};
	uint32_t ndigits = digits_at ? len - digits_at : 0;
	if (ndigits == 0 || ndigits > 9 || (ndigits > 1 && text[digits_at] == '0'))
		return;
	uint32_t idx = 0;
	for (uint32_t i = digits_at; i < len; i++)
		idx = idx * 10 + (uint32_t)(text[i] - '0');
	n->plen = digits_at;
	n->phash = ph;
	n->index = idx;
}

struct ptx_symbol *ptx_symtab_lookup(const struct ptx_symtab *t, const struct ptx_name *n,
                                     uint32_t *index)
{
	*index = 0;
	if (n->plen) {
		uint32_t mask = t->nbuckets - 1;
		for (struct ptx_symbol *s = t->buckets[n->phash & mask]; s; s = s->hnext)
			if (s->hash == n->phash && s->name_len == n->plen && s->range > n->index &&
			    ptx_same_text(s->name, n->text, n->plen)) {
				*index = n->index;
				return s;
			}
	}
	return ptx_symtab_find(t, n->text, n->len, n->hash);
}
