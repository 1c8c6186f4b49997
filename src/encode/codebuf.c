/* amd_codebuf: appending machine words, labels, SOPP branch fixups and relocation records
 * (codebuf.h).  A branch to a label already defined gets its field at once; a forward branch
 * is written with 0 and patched by amd_codebuf_resolve (SOPP branches are always one dword,
 * so no relaxation is needed).  Labels are found by linear search.
 * State: the caller's struct amd_codebuf.  O(words) appends; O(labels) per lookup. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "codebuf.h"

#define CB_GROW(arr, n, cap)                                                                       \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			(cap) = (cap) ? 2 * (cap) : 16;                                            \
			(arr) = pa_xrealloc((arr), (cap) * sizeof *(arr));                         \
		}                                                                                  \
	} while (0)

void amd_codebuf_init(struct amd_codebuf *cb)
{
	memset(cb, 0, sizeof *cb);
}

void amd_codebuf_free(struct amd_codebuf *cb)
{
	free(cb->bytes);
	free(cb->labels);
	free(cb->fixups);
	free(cb->relocs);
	memset(cb, 0, sizeof *cb);
}

void amd_codebuf_emit_bytes(struct amd_codebuf *cb, const void *bytes, size_t n)
{
	if (cb->size + n > cb->cap) {
		cb->cap = (cb->size + n) * 2 + 64;
		cb->bytes = pa_xrealloc(cb->bytes, cb->cap);
	}
	memcpy(cb->bytes + cb->size, bytes, n);
	cb->size += n;
}

void amd_codebuf_emit(struct amd_codebuf *cb, const uint32_t *words, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t w = words[i];
		uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
		                (uint8_t)(w >> 24)};
		amd_codebuf_emit_bytes(cb, b, 4);
	}
}

void amd_codebuf_pad(struct amd_codebuf *cb, unsigned align_log2, uint32_t word)
{
	size_t align = (size_t)1 << align_log2;
	while (cb->size % align)
		amd_codebuf_emit(cb, &word, 1);
}

struct amd_cb_label *amd_codebuf_label(const struct amd_codebuf *cb, const char *name, size_t len)
{
	for (unsigned i = 0; i < cb->nlabels; i++)
		if (cb->labels[i].len == len && !memcmp(cb->labels[i].name, name, len))
			return &cb->labels[i];
	return NULL;
}

bool amd_codebuf_define(struct amd_codebuf *cb, const char *name, size_t len)
{
	if (amd_codebuf_label(cb, name, len))
		return false;
	CB_GROW(cb->labels, cb->nlabels, cb->caplabels);
	cb->labels[cb->nlabels++] =
	        (struct amd_cb_label){.name = name, .len = len, .offset = cb->size};
	return true;
}

/* Dword distance from the instruction after the branch at `at` to `target`. */
static bool branch_delta(size_t at, size_t target, uint32_t *field)
{
	int64_t delta = ((int64_t)target - (int64_t)at - 4) / 4;
	if (delta < -32768 || delta > 32767)
		return false;
	*field = (uint32_t)delta & 0xffff;
	return true;
}

enum amd_cb_branch amd_codebuf_branch(struct amd_codebuf *cb, size_t at, const char *name,
                                      size_t len, const struct amd_cb_site *site, uint32_t *field)
{
	const struct amd_cb_label *l = amd_codebuf_label(cb, name, len);
	*field = 0;
	if (l)
		return branch_delta(at, l->offset, field) ? AMD_CB_RESOLVED : AMD_CB_OUT_OF_RANGE;
	CB_GROW(cb->fixups, cb->nfixups, cb->capfixups);
	cb->fixups[cb->nfixups++] = (struct amd_cb_fixup){
	        .at = at, .name = name, .len = len, .site = site ? *site : (struct amd_cb_site){0}};
	return AMD_CB_PENDING;
}

unsigned amd_codebuf_resolve(struct amd_codebuf *cb, amd_cb_report_fn report, void *ctx)
{
	unsigned failed = 0;
	for (unsigned i = 0; i < cb->nfixups; i++) {
		const struct amd_cb_fixup *f = &cb->fixups[i];
		const struct amd_cb_label *l = amd_codebuf_label(cb, f->name, f->len);
		uint32_t field;
		const char *msg = !l ? "undefined label"
		                  : !branch_delta(f->at, l->offset, &field)
		                          ? "branch target out of range"
		                          : NULL;
		if (msg) {
			report(ctx, f, msg);
			failed++;
		} else if (f->at + 2 <= cb->size) {
			cb->bytes[f->at] = (uint8_t)field;
			cb->bytes[f->at + 1] = (uint8_t)(field >> 8);
		}
	}
	cb->nfixups = 0;
	return failed;
}

void amd_codebuf_reloc(struct amd_codebuf *cb, size_t offset, enum amd_reloc_type type,
                       const char *symbol, size_t symbol_len, int64_t addend)
{
	CB_GROW(cb->relocs, cb->nrelocs, cb->caprelocs);
	cb->relocs[cb->nrelocs++] = (struct amd_cb_reloc){.offset = offset,
	                                                  .type = type,
	                                                  .symbol = symbol,
	                                                  .symbol_len = symbol_len,
	                                                  .addend = addend};
}
