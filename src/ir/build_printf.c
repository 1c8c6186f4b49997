/* irb_vprintf: CUDA's device printf (`call vprintf, (fmt, args)`) as AMDGPU buffered printf.
 *
 * CUDA passes the generic address of a module .global byte array holding the format and
 * the generic address of a .local buffer where each argument sits at the next multiple of
 * its own size (float promoted to double).  At compile time the format is read from the
 * array's initializer and parsed (flags, width, precision, length modifier, conversion) to
 * know each argument's size; a `%s` argument must be the address of another initialized
 * byte array (or a select or phi of such: the record then gets the one the pointer equals
 * at run time), found by following the buffer's stores back in the current block, and is
 * copied into the record.  Addresses are traced through SYMADDR, cvta, adds of constants
 * and phis; a phi of a block not sealed yet (O0 code jumps to labels) is traced through the
 * predecessors known so far and checked again by irb_printf_finish.  The code then does what LLVM's
 * AMDGPU printf runtime binding and the device library's __printf_alloc do: one global atomic add
 * on the offset word of the printf buffer (the hidden_printf_buffer kernel argument; dword 0 =
 * bytes used, dword 1 = buffer size, records from byte 8) reserves 4 + sum(sizes) bytes, and when
 * they fit, the record is written: the format's id, then each argument packed at its size. The
 * format is recorded in fn->printfs as amdhsa.printf's "id:nargs:size...:format" (ids from
 * fn->printf_id_base + 1 in order), and the runtime prints after the kernel. The call returns the
 * number of arguments (CUDA's documented result), -2 (CUDA's "internal error") when the buffer is
 * full. requires: irb state at the call; breaks: nothing.  Complexity: O(format + block). */
#include <stdio.h>
#include <string.h>

#include "ir/build_int.h"

enum { MAX_PRINTF_ARGS = 64, MAX_FORMAT = 4096 };

struct pf_str;
struct pf_arg {
	unsigned size;      /* bytes in the CUDA argument buffer (4 or 8) */
	unsigned rsize;     /* bytes in the record */
	bool is_string;     /* %s: the string's bytes are copied into the record */
	ir_ref strval;      /* %s: the pointer */
	struct pf_str *str; /* %s: the strings it may point to */
	unsigned nstr;
};

static const struct ir_insn *def_of(const struct ir_function *fn, ir_ref v)
{
	if (v >= fn->nvals || fn->vals[v].kind != IR_VAL_INSN)
		return NULL;
	const struct ir_block *blk = &fn->blocks[fn->vals[v].block];
	for (uint32_t i = 0; i < blk->ninsns; i++)
		if (blk->insns[i].res == v)
			return &blk->insns[i];
	return NULL;
}

struct trace {
	struct irb *b;
	ir_ref seen[16]; /* the phis on the path being traced (cycles through loops) */
	unsigned nseen;
	bool partial; /* went through a phi of a block not sealed yet */
};

static struct irb_phi *phi_of(const struct irb *b, ir_ref v);
static int trace_phi(struct trace *t, ir_ref v, uint32_t *sv, int64_t *off);
static void defer_addr_check(struct irb *b, ir_ref v, uint32_t sv, int64_t off);
static ir_ref emit_record(struct irb *b, const char *fmt, ir_ref args, const struct pf_arg *pa,
                          unsigned n);
static bool trace_addr(struct irb *b, ir_ref v, uint32_t *sv, int64_t *off);

/* A value traced to (symbol variable index, constant offset): SYMADDR, cvta, add of a
 * constant, and phis whose operands all trace to the same place.  1: traced; 0: only
 * through phis already on the path (a loop's back edge: no information); -1: not traced. */
static int trace_rec(struct trace *t, ir_ref v, uint32_t *sv, int64_t *off)
{
	const struct ir_function *fn = t->b->fn;
	*off = 0;
	for (int guard = 0; guard < 64; guard++) {
		const struct ir_insn *in = def_of(fn, v);
		if (!in)
			return trace_phi(t, v, sv, off);
		if (in->op == IR_SYMADDR) {
			*sv = (uint32_t)in->imm;
			return 1;
		}
		if (in->op == IR_CVTA_FROM || in->op == IR_CVTA_TO || in->op == IR_COPY ||
		    in->op == IR_BITCAST) {
			v = in->args[0];
			continue;
		}
		if (in->op != IR_ADD)
			return -1;
		int k = fn->vals[in->args[1]].kind == IR_VAL_CONST   ? 1
		        : fn->vals[in->args[0]].kind == IR_VAL_CONST ? 0
		                                                     : -1;
		if (k < 0)
			return -1;
		int64_t rest;
		int r = trace_rec(t, in->args[1 - k], sv, &rest);
		*off = rest + (int64_t)fn->vals[in->args[k]].bits;
		return r;
	}
	return -1;
}

/* The bytes of an initialized module byte array from `off` to its first NUL. */
static const uint8_t *const_string(struct irb *b, uint32_t sv, int64_t off, unsigned *len)
{
	const struct ir_symvar *v = &b->fn->symvars[sv];
	const struct ptx_symbol *s = v->sym;
	if ((v->space != IR_SPACE_GLOBAL && v->space != IR_SPACE_CONST) || !s->init ||
	    ptx_types[s->type].bits != 8 || off < 0 || (uint64_t)off >= v->size)
		return NULL;
	uint8_t *bytes = PA_NEW_ARRAY(b->arena, uint8_t, v->size + 1);
	memset(bytes, 0, v->size + 1);
	uint64_t n = 0;
	for (uint32_t i = 0; i < s->ninit && n < v->size; i++) {
		if (s->init[i].kind == PTX_INIT_OPEN || s->init[i].kind == PTX_INIT_CLOSE)
			continue;
		if (s->init[i].kind != PTX_INIT_INT)
			return NULL;
		bytes[n++] = (uint8_t)s->init[i].value;
	}
	const uint8_t *p = bytes + off;
	*len = (unsigned)strlen((const char *)p);
	return p;
}

/* The stored value of the last st of `bytes` bytes to (sv, off) in the current block. */
static bool stored_value(struct irb *b, uint32_t sv, int64_t off, ir_ref *val)
{
	const struct ir_block *blk = &b->fn->blocks[b->cur];
	for (uint32_t i = blk->ninsns; i-- > 0;) {
		const struct ir_insn *in = &blk->insns[i];
		uint32_t s2;
		int64_t o2;
		if (in->op != IR_STORE || !trace_addr(b, in->args[0], &s2, &o2) || s2 != sv)
			continue;
		if (o2 + in->imm == off && ir_mem_bytes(in->aux) == 8) {
			*val = in->args[1];
			return true;
		}
	}
	return false;
}

static ir_ref emit2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y, uint32_t aux)
{
	ir_ref a[2] = {x, y};
	return irb_emit(b, op, t, a, 2, aux, 0);
}

static void store(struct irb *b, ir_ref addr, int64_t off, enum ir_type t, ir_ref v)
{
	unsigned lg = ir_type_bits(t) == 64 ? 3 : 2;
	ir_ref a[2] = {addr, v};
	irb_emit(b, IR_STORE, t, a, 2, (uint32_t)IR_SPACE_GLOBAL | lg << IR_MEM_SIZE_SHIFT, off);
}

/* A constant string a %s argument may point to. */
struct pf_str {
	uint32_t sv;
	int64_t off;
	const uint8_t *bytes;
	unsigned len;
};
enum { MAX_STR_CANDIDATES = 16 };

/* The phi `v` of a block being built, or NULL. */
static struct irb_phi *phi_of(const struct irb *b, ir_ref v)
{
	if (v >= b->fn->nvals || b->fn->vals[v].kind != IR_VAL_INSN)
		return NULL;
	uint32_t bl = b->fn->vals[v].block;
	for (struct irb_phi *p = b->bstate[bl].phis; p; p = p->next)
		if (p->res == v)
			return p;
	return NULL;
}

/* A phi traced: every operand (the predecessors known so far, for a block not sealed
 * yet) must lead to the same place, except operands that only lead back to phis on the
 * path. */
static int trace_phi(struct trace *t, ir_ref v, uint32_t *sv, int64_t *off)
{
	struct irb *b = t->b;
	struct irb_phi *phi = phi_of(b, v);
	for (unsigned j = 0; phi && j < t->nseen; j++)
		if (t->seen[j] == v)
			return 0;
	if (!phi || t->nseen == sizeof t->seen / sizeof t->seen[0])
		return -1;
	t->seen[t->nseen++] = v;
	t->partial |= phi->incomplete;
	uint32_t bl = b->fn->vals[v].block;
	int res = 0;
	for (uint32_t k = 0; k < b->fn->blocks[bl].npreds && res >= 0; k++) {
		ir_ref arg = phi->incomplete ? irb_read_var(b, phi->var, b->fn->blocks[bl].preds[k])
		                             : phi->args[k];
		uint32_t s2;
		int64_t o2;
		int r = trace_rec(t, arg, &s2, &o2);
		if (r < 0 || (r > 0 && res > 0 && (s2 != *sv || o2 != *off)))
			res = -1;
		else if (r > 0) {
			*sv = s2;
			*off = o2;
			res = 1;
		}
	}
	t->nseen--; /* a stack: the phis on the path (a diamond meets a phi twice) */
	return res;
}

static bool trace_addr(struct irb *b, ir_ref v, uint32_t *sv, int64_t *off)
{
	struct trace t = {.b = b};
	if (trace_rec(&t, v, sv, off) != 1)
		return false;
	if (t.partial)
		defer_addr_check(b, v, *sv, *off);
	return true;
}

/* A walk of collect_strings: the phis met so far, each looked through once (a loop's phis
 * reach each other: the value on the back edge is the header's phi again, or a phi of it). */
struct str_walk {
	bool *partial;
	ir_ref phis[256];
	unsigned nphis;
};

static bool collect_rec(struct irb *b, ir_ref v, struct pf_str *c, unsigned *n, int depth,
                        struct str_walk *w)
{
	if (depth > 256) /* a chain of joins and loops: bounded by the phis seen too */
		return false;
	const struct ir_insn *in = def_of(b->fn, v);
	if (in && in->op == IR_SELECT)
		return collect_rec(b, in->args[1], c, n, depth + 1, w) &&
		       collect_rec(b, in->args[2], c, n, depth + 1, w);
	if (in && in->op == IR_COPY)
		return collect_rec(b, in->args[0], c, n, depth + 1, w);
	if (v < b->fn->nvals && b->fn->vals[v].kind == IR_VAL_UNDEF)
		return true; /* a phi's operand from a path where the register is never set: a
		              * call reached that way reads an undefined pointer (nvcc's unrolled
		              * loops keep such paths for values they hoisted) */
	struct irb_phi *phi = in ? NULL : phi_of(b, v);
	if (phi) {
		for (unsigned k = 0; k < w->nphis; k++)
			if (w->phis[k] == v)
				return true; /* its strings are being collected already */
		if (w->nphis == sizeof w->phis / sizeof w->phis[0])
			return false;
		w->phis[w->nphis++] = v;
		uint32_t bl = b->fn->vals[v].block;
		*w->partial |= phi->incomplete;
		for (uint32_t k = 0; k < b->fn->blocks[bl].npreds; k++) {
			ir_ref arg = phi->incomplete
			                     ? irb_read_var(b, phi->var, b->fn->blocks[bl].preds[k])
			                     : phi->args[k];
			if (arg != v && !collect_rec(b, arg, c, n, depth + 1, w))
				return false;
		}
		return true;
	}
	struct pf_str s;
	if (!trace_addr(b, v, &s.sv, &s.off) || !(s.bytes = const_string(b, s.sv, s.off, &s.len)))
		return false;
	for (unsigned k = 0; k < *n; k++)
		if (c[k].sv == s.sv && c[k].off == s.off)
			return true;
	if (*n == MAX_STR_CANDIDATES)
		return false;
	c[(*n)++] = s;
	return true;
}

/* The constant strings `v` can point to: through selects and phis (of the PTX's
 * conditional `cond ? "a" : "b"`, and of loops the value passes through unchanged), at most
 * MAX_STR_CANDIDATES; false if another value.  A phi of a block not sealed yet (a label
 * later branches may still reach) counts the predecessors known so far and sets *partial:
 * irb_printf_finish checks the rest. */
static bool collect_strings(struct irb *b, ir_ref v, struct pf_str *c, unsigned *n, int depth,
                            bool *partial)
{
	struct str_walk w = {.partial = partial};
	return collect_rec(b, v, c, n, depth, &w);
}

/* Remembers a %s whose strings came through a phi not complete yet. */
static void defer_check(struct irb *b, ir_ref v, const struct pf_arg *a, unsigned argno)
{
	struct irb_printf_check *ck = PA_NEW(b->arena, struct irb_printf_check);
	ck->ptr = v;
	ck->strs = a->str;
	ck->nstrs = a->nstr;
	ck->argno = argno;
	ck->line = b->line;
	ck->col = b->col;
	ck->next = b->printf_checks;
	b->printf_checks = ck;
}

static void defer_addr_check(struct irb *b, ir_ref v, uint32_t sv, int64_t off)
{
	struct irb_printf_check *ck = PA_NEW(b->arena, struct irb_printf_check);
	ck->ptr = v;
	ck->strs = NULL;
	ck->sv = sv;
	ck->off = off;
	ck->line = b->line;
	ck->col = b->col;
	ck->next = b->printf_checks;
	b->printf_checks = ck;
}

void irb_printf_finish(struct irb *b)
{
	for (const struct irb_printf_check *ck = b->printf_checks; ck; ck = ck->next) {
		const struct pf_str *used = ck->strs;
		if (!used) {
			struct trace t = {.b = b};
			uint32_t sv;
			int64_t off;
			if (trace_rec(&t, ck->ptr, &sv, &off) != 1 || sv != ck->sv ||
			    off != ck->off) {
				b->line = ck->line;
				b->col = ck->col;
				irb_error(b,
				          "printf: an address the call uses (format, argument "
				          "buffer or string) differs on a branch that reaches it "
				          "later");
			}
			continue;
		}
		struct pf_str c[MAX_STR_CANDIDATES];
		unsigned n = 0;
		bool partial = false, ok = collect_strings(b, ck->ptr, c, &n, 0, &partial);
		for (unsigned k = 0; ok && k < n; k++) {
			bool found = false;
			for (unsigned j = 0; j < ck->nstrs && !found; j++)
				found = used[j].sv == c[k].sv && used[j].off == c[k].off;
			ok = found;
		}
		if (!ok) {
			b->line = ck->line;
			b->col = ck->col;
			irb_error(b,
			          "printf: the %%s argument %u may point to a string that a later "
			          "branch brings to this call (only constant strings known at the "
			          "call are supported)",
			          ck->argno);
		}
	}
}

static uint32_t const_word(const struct pf_str *s, unsigned w)
{
	uint32_t word = 0;
	for (unsigned c = 0; c < 4 && 4 * w + c < s->len; c++)
		word |= (uint32_t)s->bytes[4 * w + c] << (8 * c);
	return word;
}

/* Generic address of candidate s, as cvta.global of the variable gives it. */
static ir_ref string_address(struct irb *b, const struct pf_str *s)
{
	uint32_t space = b->fn->symvars[s->sv].space;
	ir_ref a = irb_emit(b, IR_SYMADDR, IR_T_I64, NULL, 0, space, s->sv);
	a = irb_emit(b, IR_CVTA_FROM, IR_T_I64, &a, 1, space, 0);
	if (s->off)
		a = emit2(b, IR_ADD, IR_T_I64, a, ir_const(b->fn, IR_T_I64, (uint64_t)s->off), 0);
	return a;
}

/* Writes the %s argument's string into the record at rec + roff (rsize bytes): with one
 * candidate its words are constants; with several, each word is chosen by comparing the
 * pointer with the candidates' addresses. */
static void write_string(struct irb *b, ir_ref rec, int64_t roff, const struct pf_arg *a,
                         ir_ref ptr)
{
	ir_ref is[MAX_STR_CANDIDATES];
	for (unsigned k = 0; k + 1 < a->nstr; k++)
		is[k] = emit2(b, IR_ICMP, IR_T_PRED, ptr, string_address(b, &a->str[k]), IR_CMP_EQ);
	for (unsigned w = 0; w < a->rsize / 4; w++) {
		ir_ref v = ir_const(b->fn, IR_T_I32, const_word(&a->str[a->nstr - 1], w));
		for (unsigned k = a->nstr - 1; k-- > 0;) {
			ir_ref sel[3] = {is[k],
			                 ir_const(b->fn, IR_T_I32, const_word(&a->str[k], w)), v};
			v = irb_emit(b, IR_SELECT, IR_T_I32, sel, 3, 0, 0);
		}
		store(b, rec, roff + 4 * w, IR_T_I32, v);
	}
}

/* Parses one conversion after '%' at fmt[*pos]; false with *why set when unsupported. */
static bool parse_spec(const char *fmt, size_t *pos, char *conv, unsigned *size, const char **why)
{
	size_t i = *pos;
	while (fmt[i] && strchr("-+ #0", fmt[i]))
		i++;
	if (fmt[i] == '*') {
		*why = "a '*' width";
		return false;
	}
	while (fmt[i] >= '0' && fmt[i] <= '9')
		i++;
	if (fmt[i] == '.') {
		i++;
		if (fmt[i] == '*') {
			*why = "a '*' precision";
			return false;
		}
		while (fmt[i] >= '0' && fmt[i] <= '9')
			i++;
	}
	bool wide = false;
	if (fmt[i] == 'h')
		i += fmt[i + 1] == 'h' ? 2 : 1;
	else if (fmt[i] == 'l')
		wide = true, i += fmt[i + 1] == 'l' ? 2 : 1;
	else if (fmt[i] && strchr("jztL", fmt[i]))
		wide = true, i++;
	*conv = fmt[i];
	if (!fmt[i] || !strchr("diouxXcsfFeEgGaAp%", fmt[i])) {
		*why = fmt[i] == 'n' ? "%n" : "an unknown conversion";
		return false;
	}
	*size = strchr("diouxXc", fmt[i]) ? (wide ? 8 : 4) : 8;
	*pos = i + 1;
	return true;
}

/* Appends `s` to `out` (cap bytes, n used).  For the metadata, as LLVM writes amdhsa.printf:
 * \a \b \f \n \r \v as C escapes and ':' (the field separator) as "\72", everything else
 * as it is; for a diagnostic (one line): every control character escaped. */
static size_t escape(char *out, size_t n, size_t cap, const char *s, bool for_metadata)
{
	static const char from[] = "\a\b\f\n\r\v\t", to[] = "abfnrvt";
	for (; *s && n + 5 < cap; s++) {
		const char *e = strchr(from, *s);
		unsigned char ch = (unsigned char)*s;
		if (e && (!for_metadata || *s != '\t'))
			n += (size_t)snprintf(out + n, cap - n, "\\%c", to[e - from]);
		else if (for_metadata && ch == ':')
			n += (size_t)snprintf(out + n, cap - n, "\\72");
		else if (!for_metadata && (ch < 32 || ch == 127))
			n += (size_t)snprintf(out + n, cap - n, "\\%03o", ch);
		else
			out[n++] = *s;
	}
	out[n] = 0;
	return n;
}

/* The format as a diagnostic quotes it: C escapes, at most 48 characters. */
static const char *quoted(struct irb *b, const char *fmt)
{
	enum { QUOTE_MAX = 48 };
	char *q = PA_NEW_ARRAY(b->arena, char, 4 * QUOTE_MAX + 8);
	char part[QUOTE_MAX + 1];
	size_t n = strlen(fmt);
	snprintf(part, sizeof part, "%s", fmt);
	size_t len = escape(q, 0, 4 * QUOTE_MAX + 4, part, false);
	if (n > QUOTE_MAX)
		memcpy(q + len, "...", 4);
	return q;
}

/* The arguments' sizes, and the strings of %s; false after an error.  The arguments are
 * in the CUDA buffer `args`, or, when `vals` is not NULL, the values vals[0..nvals). */
static bool parse_format(struct irb *b, const char *fmt, ir_ref args, const ir_ref *vals,
                         unsigned nvals, struct pf_arg *pa, unsigned *n)
{
	*n = 0;
	unsigned at = 0; /* offset in the CUDA argument buffer */
	uint32_t asv = 0;
	int64_t aoff = 0;
	bool args_known = !vals && trace_addr(b, args, &asv, &aoff);
	for (size_t i = 0; fmt[i];) {
		if (fmt[i++] != '%')
			continue;
		char conv;
		unsigned size;
		const char *why = NULL;
		if (!parse_spec(fmt, &i, &conv, &size, &why)) {
			irb_error(b, "printf: %s in the format \"%s\" is not supported", why,
			          quoted(b, fmt));
			return false;
		}
		if (conv == '%')
			continue;
		if (*n == MAX_PRINTF_ARGS || (vals && *n == nvals)) {
			irb_error(b, "printf: more than %u arguments", (unsigned)MAX_PRINTF_ARGS);
			return false;
		}
		struct pf_arg *a = &pa[(*n)++];
		at = (at + size - 1) & ~(size - 1);
		a->size = size;
		a->rsize = size;
		a->is_string = conv == 's';
		a->strval = vals ? vals[*n - 1] : IR_NO_REF;
		if (a->is_string) {
			ir_ref v = a->strval;
			unsigned len = 0;
			a->str = PA_NEW_ARRAY(b->arena, struct pf_str, MAX_STR_CANDIDATES);
			a->nstr = 0;
			bool partial = false;
			if ((!vals && (!args_known || !stored_value(b, asv, aoff + at, &v))) ||
			    !collect_strings(b, v, a->str, &a->nstr, 0, &partial) || !a->nstr) {
				irb_error(
				        b,
				        "printf: the %%s argument %u of \"%s\" is not a constant "
				        "string (only the address of an initialized .global/.const "
				        "byte array is supported)",
				        *n, quoted(b, fmt));
				return false;
			}
			for (unsigned k = 0; k < a->nstr; k++)
				len = a->str[k].len > len ? a->str[k].len : len;
			if (partial)
				defer_check(b, v, a, *n);
			a->strval = v;
			a->rsize = (len + 1 + 3) & ~3u;
		}
		at += size;
	}
	return true;
}

/* Records "id:nargs:size...:format" for the code object's amdhsa.printf. */
static uint32_t record_format(struct irb *b, const char *fmt, const struct pf_arg *pa, unsigned n)
{
	struct ir_function *fn = b->fn;
	uint32_t id = fn->printf_id_base + fn->nprintfs + 1;
	size_t cap = 64 + 12 * (size_t)n + 4 * strlen(fmt);
	char *md = PA_NEW_ARRAY(fn->arena, char, cap);
	size_t len = (size_t)snprintf(md, cap, "%u:%u:", id, n);
	for (unsigned k = 0; k < n; k++)
		len += (size_t)snprintf(md + len, cap - len, "%u:", pa[k].rsize);
	escape(md, len, cap, fmt, true);
	if (fn->nprintfs == fn->printfs_cap) {
		uint32_t ncap = fn->printfs_cap ? 2 * fn->printfs_cap : 4;
		const char **np = PA_NEW_ARRAY(fn->arena, const char *, ncap);
		if (fn->nprintfs)
			memcpy(np, fn->printfs, fn->nprintfs * sizeof *np);
		fn->printfs = np;
		fn->printfs_cap = ncap;
	}
	fn->printfs[fn->nprintfs++] = md;
	return id;
}

/* Writes the record at `rec`: the id, then each argument loaded from the CUDA buffer. */
static void write_record(struct irb *b, ir_ref rec, uint32_t id, ir_ref args,
                         const struct pf_arg *pa, unsigned n)
{
	store(b, rec, 0, IR_T_I32, ir_const(b->fn, IR_T_I32, id));
	int64_t roff = 4;
	unsigned at = 0;
	for (unsigned k = 0; k < n; k++) {
		at = (at + pa[k].size - 1) & ~(pa[k].size - 1);
		if (pa[k].is_string) {
			write_string(b, rec, roff, &pa[k], pa[k].strval);
		} else if (pa[k].strval != IR_NO_REF) { /* a value (irb_printf_values) */
			store(b, rec, roff, pa[k].size == 8 ? IR_T_I64 : IR_T_I32, pa[k].strval);
		} else {
			enum ir_type t = pa[k].size == 8 ? IR_T_I64 : IR_T_I32;
			uint32_t aux = (uint32_t)IR_SPACE_GENERIC | (pa[k].size == 8 ? 3u : 2u)
			                                                    << IR_MEM_SIZE_SHIFT;
			ir_ref v = irb_emit(b, IR_LOAD, t, &args, 1, aux, at);
			store(b, rec, roff, t, v);
		}
		roff += pa[k].rsize;
		at += pa[k].size;
	}
}

ir_ref irb_vprintf(struct irb *b, ir_ref fmt_addr, ir_ref args)
{
	struct ir_function *fn = b->fn;
	if (fn->real_sym) {
		irb_error(b,
		          "printf in '%s', a function compiled on its own (a recursive call "
		          "reaches it), is not supported",
		          fn->real_sym->name);
		return ir_undef(fn, IR_T_I32);
	}
	uint32_t sv;
	int64_t off;
	unsigned flen = 0;
	const uint8_t *fmt = NULL;
	if (trace_addr(b, fmt_addr, &sv, &off))
		fmt = const_string(b, sv, off, &flen);
	if (!fmt) {
		irb_error(b, "printf: the format is not a constant string (the address of an "
		             "initialized .global/.const byte array)");
		return ir_undef(fn, IR_T_I32);
	}
	struct pf_arg pa[MAX_PRINTF_ARGS];
	unsigned n;
	if (flen > MAX_FORMAT || !parse_format(b, (const char *)fmt, args, NULL, 0, pa, &n)) {
		if (flen > MAX_FORMAT)
			irb_error(b, "printf: format longer than %u bytes", (unsigned)MAX_FORMAT);
		return ir_undef(fn, IR_T_I32);
	}
	return emit_record(b, (const char *)fmt, args, pa, n);
}

ir_ref irb_printf_values(struct irb *b, const char *fmt, const ir_ref *vals, unsigned nvals)
{
	struct pf_arg pa[MAX_PRINTF_ARGS];
	unsigned n;
	if (b->fn->real_sym) {
		irb_error(b,
		          "printf in '%s', a function compiled on its own (a recursive call "
		          "reaches it), is not supported",
		          b->fn->real_sym->name);
		return ir_undef(b->fn, IR_T_I32);
	}
	if (!parse_format(b, fmt, IR_NO_REF, vals, nvals, pa, &n))
		return ir_undef(b->fn, IR_T_I32);
	return emit_record(b, fmt, IR_NO_REF, pa, n);
}

/* Reserves the record's bytes in the printf buffer and writes it; the call's result. */
static ir_ref emit_record(struct irb *b, const char *fmt, ir_ref args, const struct pf_arg *pa,
                          unsigned n)
{
	struct ir_function *fn = b->fn;
	uint32_t id = record_format(b, fmt, pa, n), bytes = 4;
	for (unsigned k = 0; k < n; k++)
		bytes += pa[k].rsize;
	/* reserve: old = atomic add(buffer[0], bytes); fits when 8 + old + bytes <= buffer[1] */
	ir_ref buf = irb_emit(b, IR_SREG, IR_T_I64, NULL, 0, IR_SREG_PRINTF_BUFFER, 0);
	ir_ref at[3] = {buf, ir_const(fn, IR_T_I32, bytes), ir_const(fn, IR_T_I32, 0)};
	uint32_t aux = (uint32_t)IR_SPACE_GLOBAL | 2u << IR_MEM_SIZE_SHIFT |
	               (uint32_t)IR_ATOM_ADD << IR_ATOM_OP_SHIFT |
	               (uint32_t)IR_ORD_RELAXED << IR_ORD_SHIFT |
	               (uint32_t)IR_SCOPE_GPU << IR_SCOPE_SHIFT;
	ir_ref old = irb_emit(b, IR_ATOMIC, IR_T_I32, at, 3, aux, 0);
	ir_ref size = irb_emit(b, IR_LOAD, IR_T_I32, &buf, 1,
	                       (uint32_t)IR_SPACE_GLOBAL | 2u << IR_MEM_SIZE_SHIFT, 4);
	ir_ref end = emit2(b, IR_ADD, IR_T_I32, old, ir_const(fn, IR_T_I32, bytes + 8), 0);
	ir_ref fits =
	        emit2(b, IR_AND, IR_T_PRED, emit2(b, IR_ICMP, IR_T_PRED, end, size, IR_CMP_LEU),
	              emit2(b, IR_ICMP, IR_T_PRED, end, old, IR_CMP_GTU), 0);
	uint32_t then = irb_new_block(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, fits, then, join);
	irb_seal(b, then);
	irb_switch_to(b, then);
	ir_ref off64 = irb_emit(b, IR_ZEXT, IR_T_I64, &old, 1, 0, 0);
	ir_ref rec = emit2(b, IR_ADD, IR_T_I64, emit2(b, IR_ADD, IR_T_I64, buf, off64, 0),
	                   ir_const(fn, IR_T_I64, 8), 0);
	write_record(b, rec, id, args, pa, n);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
	return irb_emit(
	        b, IR_SELECT, IR_T_I32,
	        (ir_ref[3]){fits, ir_const(fn, IR_T_I32, n), ir_const(fn, IR_T_I32, (uint32_t)-2)},
	        3, 0, 0);
}
