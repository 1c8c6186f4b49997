/* Clang offload bundles: several code objects in one file (.hipfb), as
 * clang-offload-bundler writes them and hipModuleLoadData reads them.
 *
 * Layout (all integers 64-bit little-endian):
 *   "__CLANG_OFFLOAD_BUNDLE__"                    24 bytes of magic, no NUL
 *   number of entries
 *   per entry: offset, size, id length, id       (offset from the start of the file)
 *   the entries' bytes, each at its offset: the first at the end of the header rounded
 *   up to the alignment, each next one at the end of the one before rounded up likewise;
 *   the gaps are zero bytes.
 * Entry ids are "KIND-TRIPLE-TARGETID": "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" for a
 * HIP code object, "host-x86_64-unknown-linux--" for the (empty) host entry clang's HIP
 * driver adds.  Clang's driver aligns entries to 4096 bytes (-bundle-align=4096). */
#ifndef PA_OFFLOAD_BUNDLE_H
#define PA_OFFLOAD_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PA_BUNDLE_MAGIC      "__CLANG_OFFLOAD_BUNDLE__"
#define PA_BUNDLE_ALIGN      4096
#define PA_BUNDLE_HOST_ID    "host-x86_64-unknown-linux--"
#define PA_BUNDLE_HIP_PREFIX "hipv4-"

struct pa_bundle_entry {
	const char *id; /* id_len bytes, not NUL-terminated when read from a bundle */
	size_t id_len;
	const void *data;
	size_t size;
};

/* The bundle of entries[0..n) with the given alignment (a power of two) in a malloc'd
 * buffer (*out, *out_size).  Returns false only when the sizes overflow. */
bool pa_bundle_write(const struct pa_bundle_entry *entries, size_t n, size_t align, uint8_t **out,
                     size_t *out_size);

/* True when `bytes` start with the bundle magic. */
bool pa_bundle_is(const void *bytes, size_t size);
/* Reads a bundle's header: *count entries, or false (with a reason in err) when the header
 * or an entry lies outside the `size` bytes. */
bool pa_bundle_count(const void *bytes, size_t size, size_t *count, char *err, size_t errlen);
/* Entry `index` (< the count pa_bundle_count checked), pointing into `bytes`. */
void pa_bundle_get(const void *bytes, size_t index, struct pa_bundle_entry *e);

#endif
