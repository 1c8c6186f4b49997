/* YAML to msgpack for `.amdgpu_metadata` blocks of AMDGPU assembly.
 *
 * Algorithm: split the text into lines (dropping blank lines, comments and the
 * "---"/"..." document markers), build a tree by indentation (block maps, block
 * sequences whose items may be maps starting on the "- " line, flow sequences of
 * scalars, plain and quoted scalars), then pack it with msgpack-c.  Scalars are typed
 * as LLVM's msgpack::Document reads YAML: true/false are booleans, decimal or 0x
 * integers are unsigned (signed when negative), quoted and everything else strings.
 * This is the subset LLVM writes (clang -S, llvm-readelf --notes); other YAML is a
 * diagnostic, never a guess.  Map keys keep their order (LLVM's output is sorted).
 * requires: nothing; breaks: nothing.  Complexity: O(text) time and memory. */
#include "codeobj.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

enum ykind { Y_SCALAR, Y_MAP, Y_SEQ };

struct ynode {
	enum ykind kind;
	const char *text; /* scalar: unquoted text (arena) */
	size_t len;
	bool quoted;
	struct ynode **items; /* map: key, value, key, value...; seq: items */
	size_t nitems, cap;
};

struct yline {
	const char *p; /* content after the indentation */
	size_t len;
	unsigned indent;
	unsigned number; /* 1-based line in the block */
};

struct yparser {
	struct pa_arena *arena;
	struct yline *lines;
	size_t nlines, pos;
	struct pa_diag *diag;
	bool failed;
	unsigned depth;
};

static void yerror(struct yparser *y, unsigned line, const char *msg)
{
	if (!y->failed)
		pa_diag_report(y->diag, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
		               ".amdgpu_metadata line %u: %s", line, msg);
	y->failed = true;
}

static struct ynode *new_node(struct yparser *y, enum ykind kind)
{
	struct ynode *n = PA_NEW(y->arena, struct ynode);
	n->kind = kind;
	return n;
}

static void add_item(struct yparser *y, struct ynode *parent, struct ynode *item)
{
	if (parent->nitems == parent->cap) {
		size_t cap = parent->cap ? 2 * parent->cap : 8;
		struct ynode **items = PA_NEW_ARRAY(y->arena, struct ynode *, cap);
		if (parent->nitems)
			memcpy(items, parent->items, parent->nitems * sizeof *items);
		parent->items = items;
		parent->cap = cap;
	}
	parent->items[parent->nitems++] = item;
}

static bool split_lines(struct yparser *y, const char *text, size_t len)
{
	size_t count = 1;
	for (size_t i = 0; i < len; i++)
		count += text[i] == '\n';
	y->lines = PA_NEW_ARRAY(y->arena, struct yline, count);
	unsigned number = 0;
	for (size_t start = 0; start < len;) {
		size_t end = start;
		while (end < len && text[end] != '\n')
			end++;
		number++;
		size_t indent = start;
		while (indent < end && text[indent] == ' ')
			indent++;
		size_t stop = end;
		while (stop > indent &&
		       (text[stop - 1] == ' ' || text[stop - 1] == '\r' || text[stop - 1] == '\t'))
			stop--;
		const char *p = text + indent;
		size_t n = stop - indent;
		bool marker = (n == 3 && (!memcmp(p, "---", 3) || !memcmp(p, "...", 3)));
		if (n && !marker && p[0] != '#') {
			if (p[0] == '\t') {
				yerror(y, number, "tabs are not allowed in YAML indentation");
				return false;
			}
			y->lines[y->nlines++] =
			        (struct yline){p, n, (unsigned)(indent - start), number};
		}
		start = end + 1;
	}
	return true;
}

/* A scalar or a flow sequence "[ a, b ]" from `len` bytes at p. */
static struct ynode *parse_scalar(struct yparser *y, const char *p, size_t len, unsigned line)
{
	struct ynode *n = new_node(y, Y_SCALAR);
	if (len && (p[0] == '\'' || p[0] == '"')) {
		char q = p[0];
		char *out = pa_arena_alloc(y->arena, len + 1, 1);
		size_t o = 0, i = 1;
		bool closed = false;
		while (i < len && !closed) {
			if (p[i] == q && q == '\'' && i + 1 < len && p[i + 1] == '\'') {
				out[o++] = '\''; /* '' is a quote inside '...' */
				i += 2;
			} else if (p[i] == q) {
				closed = true;
				i++;
			} else {
				if (q == '"' && p[i] == '\\' && i + 1 < len)
					i++;
				out[o++] = p[i++];
			}
		}
		if (!closed || i != len) {
			yerror(y, line, "unterminated or trailing text after a quoted scalar");
			return n;
		}
		n->text = out;
		n->len = o;
		n->quoted = true;
		return n;
	}
	if (len && p[0] == '[') {
		n->kind = Y_SEQ;
		if (p[len - 1] != ']') {
			yerror(y, line, "unterminated flow sequence");
			return n;
		}
		size_t i = 1;
		while (i < len - 1) {
			while (i < len - 1 && p[i] == ' ')
				i++;
			size_t j = i;
			while (j < len - 1 && p[j] != ',')
				j++;
			size_t e = j;
			while (e > i && p[e - 1] == ' ')
				e--;
			if (e > i)
				add_item(y, n, parse_scalar(y, p + i, e - i, line));
			else if (j < len - 1)
				yerror(y, line, "empty item in a flow sequence");
			i = j + 1;
		}
		return n;
	}
	if (len && (p[0] == '{' || p[0] == '&' || p[0] == '*' || p[0] == '!' || p[0] == '|' ||
	            p[0] == '>')) {
		yerror(y, line, "unsupported YAML (flow maps, anchors, tags, block scalars)");
		return n;
	}
	n->text = p;
	n->len = len;
	return n;
}

static struct ynode *parse_node(struct yparser *y, unsigned indent);

/* The offset of the ':' ending a map key on this line, or 0. */
static size_t key_end(const struct yline *l)
{
	for (size_t i = 0; i < l->len; i++) {
		if (l->p[i] == '\'' || l->p[i] == '"' || l->p[i] == '[')
			return 0;
		if (l->p[i] == ':' && (i + 1 == l->len || l->p[i + 1] == ' '))
			return i;
	}
	return 0;
}

static bool is_item(const struct yline *l)
{
	return l->p[0] == '-' && (l->len == 1 || l->p[1] == ' ');
}

static struct ynode *parse_map(struct yparser *y, unsigned indent)
{
	struct ynode *map = new_node(y, Y_MAP);
	while (!y->failed && y->pos < y->nlines && y->lines[y->pos].indent == indent &&
	       !is_item(&y->lines[y->pos])) {
		struct yline *l = &y->lines[y->pos];
		size_t colon = key_end(l);
		if (!colon) {
			yerror(y, l->number, "expected 'key: value'");
			break;
		}
		add_item(y, map, parse_scalar(y, l->p, colon, l->number));
		size_t v = colon + 1;
		while (v < l->len && l->p[v] == ' ')
			v++;
		y->pos++;
		if (v < l->len) {
			add_item(y, map, parse_scalar(y, l->p + v, l->len - v, l->number));
			continue;
		}
		const struct yline *next = y->pos < y->nlines ? &y->lines[y->pos] : NULL;
		if (!next || next->indent < indent || (next->indent == indent && !is_item(next))) {
			yerror(y, l->number, "a key without a value");
			break;
		}
		add_item(y, map, parse_node(y, next->indent));
	}
	return map;
}

static struct ynode *parse_seq(struct yparser *y, unsigned indent)
{
	struct ynode *seq = new_node(y, Y_SEQ);
	while (!y->failed && y->pos < y->nlines && y->lines[y->pos].indent == indent &&
	       is_item(&y->lines[y->pos])) {
		struct yline *l = &y->lines[y->pos];
		size_t skip = 1;
		while (skip < l->len && l->p[skip] == ' ')
			skip++;
		if (skip == l->len) {
			yerror(y, l->number, "empty sequence item");
			break;
		}
		/* "- key: value" starts a map at the column of "key". */
		struct yline rest = {l->p + skip, l->len - skip, indent + (unsigned)skip,
		                     l->number};
		if (key_end(&rest)) {
			*l = rest;
			add_item(y, seq, parse_map(y, rest.indent));
		} else {
			add_item(y, seq, parse_scalar(y, rest.p, rest.len, l->number));
			y->pos++;
		}
	}
	return seq;
}

static struct ynode *parse_node(struct yparser *y, unsigned indent)
{
	if (++y->depth > 64) {
		yerror(y, y->lines[y->pos].number, "nesting too deep");
		return new_node(y, Y_MAP);
	}
	struct ynode *n = is_item(&y->lines[y->pos]) ? parse_seq(y, indent) : parse_map(y, indent);
	y->depth--;
	return n;
}

static bool is_integer(const char *p, size_t len, bool *negative, uint64_t *value)
{
	size_t i = 0;
	*negative = len > 1 && p[0] == '-';
	i += *negative;
	unsigned base = 10;
	if (len - i > 2 && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == len)
		return false;
	uint64_t v = 0;
	for (; i < len; i++) {
		unsigned digit;
		if (p[i] >= '0' && p[i] <= '9')
			digit = (unsigned)(p[i] - '0');
		else if (base == 16 && (p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f')
			digit = (unsigned)((p[i] | 0x20) - 'a' + 10);
		else
			return false;
		if (v > (UINT64_MAX - digit) / base)
			return false;
		v = v * base + digit;
	}
	*value = v;
	return !*negative || v <= (uint64_t)INT64_MAX + 1;
}

static void pack_node(msgpack_packer *pk, const struct ynode *n)
{
	if (n->kind == Y_MAP) {
		msgpack_pack_map(pk, n->nitems / 2);
		for (size_t i = 0; i < n->nitems; i++)
			pack_node(pk, n->items[i]);
		return;
	}
	if (n->kind == Y_SEQ) {
		msgpack_pack_array(pk, n->nitems);
		for (size_t i = 0; i < n->nitems; i++)
			pack_node(pk, n->items[i]);
		return;
	}
	bool negative;
	uint64_t v;
	if (!n->quoted && n->len == 4 && !memcmp(n->text, "true", 4))
		msgpack_pack_true(pk);
	else if (!n->quoted && n->len == 5 && !memcmp(n->text, "false", 5))
		msgpack_pack_false(pk);
	else if (!n->quoted && is_integer(n->text, n->len, &negative, &v)) {
		if (negative)
			msgpack_pack_int64(pk, (int64_t)(0 - v));
		else
			msgpack_pack_uint64(pk, v);
	} else {
		msgpack_pack_str(pk, n->len);
		msgpack_pack_str_body(pk, n->text, n->len);
	}
}

bool co_metadata_from_yaml(const char *text, size_t len, struct co_buffer *out, struct pa_diag *d)
{
	struct pa_arena arena;
	pa_arena_init(&arena);
	struct yparser y = {.arena = &arena, .diag = d};
	out->data = NULL;
	out->size = 0;
	struct ynode *root = NULL;
	if (split_lines(&y, text, len)) {
		if (!y.nlines || y.lines[0].indent != 0)
			yerror(&y, y.nlines ? y.lines[0].number : 1,
			       "expected a map starting in column 1");
		else
			root = parse_node(&y, 0);
		if (!y.failed && y.pos < y.nlines)
			yerror(&y, y.lines[y.pos].number, "unexpected indentation");
	}
	if (!y.failed && root) {
		msgpack_sbuffer sb;
		msgpack_sbuffer_init(&sb);
		msgpack_packer pk;
		msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
		pack_node(&pk, root);
		out->data = pa_xmalloc(sb.size ? sb.size : 1);
		memcpy(out->data, sb.data, sb.size);
		out->size = sb.size;
		msgpack_sbuffer_destroy(&sb);
	}
	pa_arena_free(&arena);
	return !y.failed && root;
}
