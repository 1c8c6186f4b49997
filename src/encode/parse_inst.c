/* amd_asm_parse_inst: one line of LLVM AMDGPU assembly -> struct amd_inst.
 *
 * Algorithm: look the mnemonic up for the target's generation (an _e32/_e64 suffix picks
 * the encoding), split the operands at top-level commas, peel trailing space-separated
 * modifiers (offset:, glc, clamp, op_sel:[..] ...) off the last operand, then read each
 * operand as the row's operand slot expects: registers, specials, inline or literal
 * constants (floats converted by the slot's data type), neg/abs modifiers, and the
 * symbolic immediates (vmcnt(..), hwreg(..), sendmsg(..), instid0(..)), and relocation
 * expressions (sym@rel32@lo+4, for amd_asm_read to turn into relocations).  The inverse of
 * print.c; round trip print -> parse -> encode is tested on every conformance instance.
 * Requires: amd_isa_table.  Pure apart from the optional label callback.  O(line length). */
#include "amd_asm.h"
#include "isa/isa.h"
#include "parse_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pctx {
	const struct amd_target *t;
	enum amd_gen gen;
	const char *base; /* start of the line, for columns */
	char *err;
	size_t errlen;
	unsigned *err_col;
	amd_label_fn label_fn;
	void *label_ctx;
	struct amd_parsed_reloc *reloc; /* NULL: relocation expressions are errors */
};

/* A slice of the line. */
struct span {
	const char *p;
	size_t n;
};

static bool perr(struct pctx *c, struct span at, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static bool perr(struct pctx *c, struct span at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	*c->err_col = (unsigned)(at.p - c->base) + 1;
	return false;
}

static struct span trim(struct span s)
{
	while (s.n && isspace((unsigned char)s.p[0]))
		s.p++, s.n--;
	while (s.n && isspace((unsigned char)s.p[s.n - 1]))
		s.n--;
	return s;
}

static bool span_eq(struct span s, const char *lit)
{
	return strlen(lit) == s.n && !memcmp(s.p, lit, s.n);
}

/* Splits s at top-level separators `sep` (outside () and []); returns the count. */
static unsigned split(struct span s, char sep, struct span *parts, unsigned max)
{
	unsigned n = 0, depth = 0;
	const char *start = s.p;
	for (size_t i = 0; i <= s.n; i++) {
		char ch = i < s.n ? s.p[i] : sep;
		if (ch == '(' || ch == '[')
			depth++;
		else if ((ch == ')' || ch == ']') && depth)
			depth--;
		bool is_sep = sep == ' ' ? isspace((unsigned char)ch) || i == s.n : ch == sep;
		if (is_sep && depth == 0) {
			struct span part = trim((struct span){start, (size_t)(s.p + i - start)});
			if ((part.n || sep != ' ') && n < max)
				parts[n] = part;
			if (part.n || sep != ' ')
				n++;
			start = s.p + i + 1;
		}
	}
	return n;
}

/* Integer in decimal or 0x hex, optionally negative; the whole span. */
static bool parse_int(struct span s, int64_t *out)
{
	char buf[40];
	if (!s.n || s.n >= sizeof buf)
		return false;
	memcpy(buf, s.p, s.n);
	buf[s.n] = 0;
	char *end;
	bool neg = buf[0] == '-';
	const char *digits = neg ? buf + 1 : buf;
	if (!isdigit((unsigned char)digits[0]))
		return false;
	unsigned long long v = strtoull(digits, &end, 0);
	if (*end)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* Inline float spellings LLVM prints, as bits per data type. */
static bool parse_float(struct span s, enum amd_dtype dt, uint32_t *bits)
{
	static const char *const names[9] = {"0.5",  "-0.5", "1.0",  "-1.0", "2.0",
	                                     "-2.0", "4.0",  "-4.0", NULL};
	static const uint32_t f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
	                                0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
	static const uint32_t f64[9] = {0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000,
	                                0xc0000000, 0x40100000, 0xc0100000, 0};
	static const uint32_t f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
	                                0xc000, 0x4400, 0xc400, 0x3118};
	int idx = -1;
	for (int i = 0; i < 8; i++)
		if (span_eq(s, names[i]))
			idx = i;
	if (span_eq(s, "0.15915494") || span_eq(s, "0.15915494309189532"))
		idx = 8;
	if (idx < 0)
		return false;
	if (dt == AMD_DT_F16 || dt == AMD_DT_B16 || dt == AMD_DT_V2F16 || dt == AMD_DT_V2B16)
		*bits = f16[idx];
	else if (dt == AMD_DT_F64 || dt == AMD_DT_B64)
		*bits = f64[idx];
	else
		*bits = f32[idx];
	return idx != 8 || dt != AMD_DT_F64;
}

static bool parse_reg_num(struct span s, unsigned *first, unsigned *width)
{
	int64_t a, b;
	if (s.n >= 3 && s.p[0] == '[' && s.p[s.n - 1] == ']') {
		struct span in = {s.p + 1, s.n - 2};
		const char *colon = memchr(in.p, ':', in.n);
		if (!colon)
			return false;
		if (!parse_int((struct span){in.p, (size_t)(colon - in.p)}, &a) ||
		    !parse_int((struct span){colon + 1, (size_t)(in.p + in.n - colon - 1)}, &b) ||
		    a < 0 || b < a || b > 511)
			return false;
		*first = (unsigned)a, *width = (unsigned)(b - a + 1);
		return true;
	}
	if (!parse_int(s, &a) || a < 0 || a > 511 || s.p[0] == '-')
		return false;
	*first = (unsigned)a, *width = 1;
	return true;
}

/* Register, special register or "off"; false if `s` is none of them. */
static bool parse_register(struct span s, struct amd_val *v)
{
	for (unsigned spec = 0; spec < AMD_NUM_SPECIALS; spec++)
		for (unsigned w = 1; w <= 2; w++)
			if (span_eq(s, amd_special_name(spec, w)) &&
			    (w == 2 ||
			     strcmp(amd_special_name(spec, 1), amd_special_name(spec, 2)))) {
				bool pair = w == 2 && strcmp(amd_special_name(spec, 1),
				                             amd_special_name(spec, 2));
				*v = (struct amd_val){.kind = AMD_V_SPECIAL,
				                      .reg = (uint16_t)spec,
				                      .width = (uint8_t)(pair ? 2 : 1)};
				if (spec == AMD_SPEC_SCC)
					v->width = 0;
				return true;
			}
	if (s.n > 4 && !memcmp(s.p, "ttmp", 4)) {
		unsigned first, width;
		if (!parse_reg_num((struct span){s.p + 4, s.n - 4}, &first, &width) ||
		    first + width > 16)
			return false;
		*v = (struct amd_val){
		        .kind = AMD_V_TTMP, .reg = (uint16_t)first, .width = (uint8_t)width};
		return true;
	}
	if (span_eq(s, "off")) {
		*v = (struct amd_val){.kind = AMD_V_OFF};
		return true;
	}
	if (s.n >= 2 && (s.p[0] == 's' || s.p[0] == 'v' || s.p[0] == 'a')) {
		unsigned first, width;
		if (!parse_reg_num((struct span){s.p + 1, s.n - 1}, &first, &width))
			return false;
		*v = (struct amd_val){.kind = s.p[0] == 's'   ? AMD_V_SGPR
		                              : s.p[0] == 'v' ? AMD_V_VGPR
		                                              : AMD_V_AGPR,
		                      .reg = (uint16_t)first,
		                      .width = (uint8_t)width};
		return true;
	}
	return false;
}

/* NAME(value) inside a symbolic immediate. */
static bool parse_call(struct span s, const char *name, struct span *arg)
{
	size_t n = strlen(name);
	if (s.n < n + 2 || memcmp(s.p, name, n) || s.p[n] != '(' || s.p[s.n - 1] != ')')
		return false;
	*arg = trim((struct span){s.p + n + 1, s.n - n - 2});
	return true;
}

static bool parse_waitcnt(struct pctx *c, struct span s, uint32_t *out)
{
	struct span parts[8];
	unsigned n = split(s, ' ', parts, 8);
	unsigned vm = amd_waitcnt_max(c->t, AMD_HWC_VM), exp = amd_waitcnt_max(c->t, AMD_HWC_EXP),
	         lgkm = amd_waitcnt_max(c->t, AMD_HWC_LGKM);
	if (n == 1 && parse_int(parts[0], &(int64_t){0})) {
		int64_t v;
		parse_int(parts[0], &v);
		*out = (uint32_t)v & 0xffff;
		return true;
	}
	for (unsigned i = 0; i < n && i < 8; i++) {
		struct span arg;
		int64_t v;
		if (span_eq(parts[i], "&"))
			continue;
		unsigned *slot = parse_call(parts[i], "vmcnt", &arg)     ? &vm
		                 : parse_call(parts[i], "expcnt", &arg)  ? &exp
		                 : parse_call(parts[i], "lgkmcnt", &arg) ? &lgkm
		                                                         : NULL;
		if (!slot || !parse_int(arg, &v) || v < 0)
			return perr(c, parts[i], "bad s_waitcnt counter '%.*s'", (int)parts[i].n,
			            parts[i].p);
		if (v > *slot) /* the slot still holds the counter's maximum */
			return perr(c, parts[i], "s_waitcnt counter value too large in '%.*s'",
			            (int)parts[i].n, parts[i].p);
		*slot = (unsigned)v;
	}
	*out = amd_waitcnt_pack(c->t, vm, exp, lgkm);
	return true;
}

static bool parse_hwreg(struct pctx *c, struct span s, uint32_t *out)
{
	struct span arg, parts[3];
	if (!parse_call(s, "hwreg", &arg))
		return perr(c, s, "expected hwreg(...)");
	unsigned n = split(arg, ',', parts, 3);
	int64_t id, off = 0, size = 32;
	int named = amd_hwreg_id(c->gen, parts[0].p, parts[0].n);
	if (named >= 0)
		id = named;
	else if (!parse_int(parts[0], &id) || id < 0 || id > 63)
		return perr(c, parts[0], "unknown hardware register");
	if (n == 3 && (!parse_int(parts[1], &off) || !parse_int(parts[2], &size) || off < 0 ||
	               off > 31 || size < 1 || size > 32))
		return perr(c, arg, "bad hwreg offset or size");
	if (n != 1 && n != 3)
		return perr(c, arg, "hwreg takes 1 or 3 arguments");
	*out = (uint32_t)id | (uint32_t)off << 6 | (uint32_t)(size - 1) << 11;
	return true;
}

static bool parse_delay(struct pctx *c, struct span s, uint32_t *out)
{
	static const char *const ids[12] = {"NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
	                                    "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
	                                    "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
	                                    "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3"};
	static const char *const skips[6] = {"SAME",   "NEXT",   "SKIP_1",
	                                     "SKIP_2", "SKIP_3", "SKIP_4"};
	struct span parts[3];
	unsigned n = split(s, '|', parts, 3), field[3] = {0, 0, 0};
	for (unsigned i = 0; i < n && i < 3; i++) {
		struct span arg;
		const char *const *names = ids;
		unsigned count = 12, which;
		if (parse_call(parts[i], "instid0", &arg))
			which = 0;
		else if (parse_call(parts[i], "instskip", &arg))
			which = 1, names = skips, count = 6;
		else if (parse_call(parts[i], "instid1", &arg))
			which = 2;
		else
			return perr(c, parts[i], "bad s_delay_alu field");
		unsigned k = 0;
		while (k < count && !span_eq(arg, names[k]))
			k++;
		if (k == count)
			return perr(c, arg, "unknown s_delay_alu value");
		field[which] = k;
	}
	*out = amd_delay_alu_pack(field[0], field[1], field[2]);
	return true;
}

static bool parse_simm(struct pctx *c, const struct amd_isa_op *op, struct span s, uint32_t *out)
{
	int64_t v;
	switch (op->simm) {
	case AMD_SIMM_WAITCNT:
		return parse_waitcnt(c, s, out);
	case AMD_SIMM_HWREG:
		return parse_hwreg(c, s, out);
	case AMD_SIMM_DELAY:
		if (parse_int(s, &v))
			break;
		return parse_delay(c, s, out);
	case AMD_SIMM_SENDMSG:
		if (span_eq(s, "sendmsg(MSG_DEALLOC_VGPRS)") && c->gen >= AMD_GFX11) {
			*out = 3;
			return true;
		}
		if (span_eq(s, "sendmsg(MSG_RTN_GET_REALTIME)") && c->gen >= AMD_GFX11) {
			*out = 131;
			return true;
		}
		if (span_eq(s, "sendmsg(MSG_RTN_GET_DOORBELL)") && c->gen >= AMD_GFX11) {
			*out = 128;
			return true;
		}
		if (span_eq(s, "sendmsg(MSG_INTERRUPT)")) {
			*out = 1;
			return true;
		}
		if (parse_int(s, &v))
			break;
		return perr(c, s, "unsupported message");
	default:
		if (parse_int(s, &v))
			break;
		return perr(c, s, "expected a 16-bit immediate");
	}
	if (v < -32768 || v > 65535)
		return perr(c, s, "immediate out of 16-bit range");
	*out = (uint32_t)v & 0xffff;
	return true;
}

/* The relocation specifiers LLVM writes after a symbol in an operand. */
static const struct {
	const char *spelling;
	enum amd_reloc_type type;
} reloc_specifiers[] = {
        {"@rel32@lo", AMD_R_REL32_LO},           {"@rel32@hi", AMD_R_REL32_HI},
        {"@gotpcrel32@lo", AMD_R_GOTPCREL32_LO}, {"@gotpcrel32@hi", AMD_R_GOTPCREL32_HI},
        {"@abs32@lo", AMD_R_ABS32_LO},           {"@abs32@hi", AMD_R_ABS32_HI},
};

/* SYMBOL@SPECIFIER[+-ADDEND] -> c->reloc and the placeholder literal. */
static bool parse_reloc_expr(struct pctx *c, struct span s, struct amd_val *v)
{
	const char *at = memchr(s.p, '@', s.n);
	size_t sym_len = (size_t)(at - s.p);
	if (!sym_len)
		return perr(c, s, "relocation expression '%.*s' names no symbol", (int)s.n, s.p);
	for (size_t i = 0; i < sym_len; i++)
		if (!isalnum((unsigned char)s.p[i]) && !strchr("_.$", s.p[i]))
			return perr(c, s, "relocation expression '%.*s' is not supported", (int)s.n,
			            s.p);
	struct span rest = {at, s.n - sym_len};
	for (size_t k = 0; k < sizeof reloc_specifiers / sizeof reloc_specifiers[0]; k++) {
		size_t n = strlen(reloc_specifiers[k].spelling);
		if (rest.n < n || memcmp(rest.p, reloc_specifiers[k].spelling, n) ||
		    (rest.n > n && rest.p[n] != '+' && rest.p[n] != '-'))
			continue;
		int64_t addend = 0;
		struct span tail = {rest.p + n + (rest.n > n), rest.n - n - (rest.n > n)};
		if (rest.n > n && !parse_int(tail, &addend))
			return perr(c, tail, "bad addend in relocation expression '%.*s'", (int)s.n,
			            s.p);
		if (!c->reloc)
			return perr(c, s,
			            "relocation expression '%.*s' is only supported when "
			            "reading a whole file",
			            (int)s.n, s.p);
		if (c->reloc->present)
			return perr(c, s,
			            "a second relocation expression in one instruction is "
			            "not supported");
		*c->reloc = (struct amd_parsed_reloc){
		        .present = true,
		        .symbol = s.p,
		        .symbol_len = sym_len,
		        .type = reloc_specifiers[k].type,
		        .addend = rest.n > n && rest.p[n] == '-' ? -addend : addend,
		        .col = (unsigned)(s.p - c->base) + 1,
		};
		*v = (struct amd_val){.kind = AMD_V_IMM, .imm = AMD_RELOC_PLACEHOLDER};
		return true;
	}
	return perr(c, s,
	            "relocation expression '%.*s' is not supported (supported: "
	            "@rel32@lo/hi, @gotpcrel32@lo/hi, @abs32@lo/hi with an optional addend)",
	            (int)s.n, s.p);
}

/* A source or destination operand for slot d, with neg/abs for VALU sources. */
/* An image address list "[v4, v5, v[6:7]]" (gfx10+ NSA syntax, gfx12's only one): accepted
 * when its registers are consecutive, as one tuple (the encoder makes no NSA forms). */
static bool parse_image_addr(struct pctx *c, struct span s, struct amd_val *v)
{
	struct span parts[16];
	unsigned n = split((struct span){s.p + 1, s.n - 2}, ',', parts, 16);
	if (s.p[s.n - 1] != ']' || n == 0 || n > 16)
		return perr(c, s, "bad image address list");
	unsigned next = 0, total = 0;
	for (unsigned i = 0; i < n; i++) {
		struct amd_val r;
		if (!parse_register(parts[i], &r) || r.kind != AMD_V_VGPR)
			return perr(c, parts[i], "image addresses must be VGPRs");
		if (i && r.reg != next)
			return perr(c, parts[i],
			            "non-consecutive image addresses (NSA) are not supported");
		if (!i)
			*v = r;
		next = r.reg + r.width;
		total += r.width;
	}
	v->width = (uint8_t)total;
	return true;
}

/* Image modifiers: dmask:N, dim:SQ_RSRC_IMG_X (or dim:X), unorm, and gfx9's da (an array
 * or cube address; image_dim_from_da turns it into a dim). */
static bool parse_image_modifier(struct pctx *c, struct span key, struct span arg, bool colon,
                                 struct amd_inst *in)
{
	static const char *const dims[6] = {"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY"};
	int64_t v;
	if (colon && span_eq(key, "dmask")) {
		if (!parse_int(arg, &v) || v < 0 || v > 15)
			return perr(c, arg, "bad dmask (0x0-0xf)");
		in->dmask = (uint8_t)v;
		return true;
	}
	if (colon && span_eq(key, "dim") && c->gen >= AMD_GFX10) {
		if (arg.n > 11 && !memcmp(arg.p, "SQ_RSRC_IMG_", 12))
			arg = (struct span){arg.p + 12, arg.n - 12};
		for (unsigned i = 0; i < 6; i++)
			if (span_eq(arg, dims[i])) {
				in->dim = (uint8_t)i;
				return true;
			}
		return perr(c, arg, "unsupported image dim '%.*s'", (int)arg.n, arg.p);
	}
	if (!colon && span_eq(key, "unorm"))
		return in->unorm = true;
	if (!colon && span_eq(key, "da") && c->gen <= AMD_GFX940)
		return in->dim = 5, true;
	return perr(c, key, "unknown or unsupported modifier '%.*s'", (int)key.n, key.p);
}

/* gfx9 encodes no dim, only `da`, and llvm-objdump-19 prints only the first address VGPR:
 * the dim with the instance's address count (a cube reads as 2D_ARRAY, which encodes the
 * same); where none has it (one VGPR printed), 2D or 2D_ARRAY with its address tuple, which
 * encodes the same bytes. */
static void image_dim_from_da(const struct amd_isa_op *op, struct amd_inst *in)
{
	static const uint8_t plain[3] = {0, 1, 2}, array[2] = {4, 5};
	bool da = in->dim == 5;
	int addr = -1;
	for (int i = 0, nv = 0; i < op->nopnds && addr < 0; i++)
		if ((op->opnds[i].kind == AMD_OPK_VDST || op->opnds[i].kind == AMD_OPK_VGPR) &&
		    nv++ == 1)
			addr = i;
	if (addr < 0)
		return;
	struct amd_val *a = &in->ops[addr];
	unsigned naddr = a->width ? a->width : op->opnds[addr].width;
	const uint8_t *cand = da ? array : plain;
	for (unsigned i = 0; i < (da ? 2u : 3u); i++)
		if (amd_image_addr_count(op, cand[i]) == naddr) {
			in->dim = cand[i];
			return;
		}
	in->dim = da ? 5 : 1;
	if (naddr == 1)
		a->width = (uint8_t)amd_image_addr_count(op, in->dim);
}

static bool parse_operand(struct pctx *c, const struct amd_isa_op *op,
                          const struct amd_opnd_desc *d, struct span s, struct amd_val *v,
                          unsigned srcno, struct amd_inst *in)
{
	bool neg = false, abs = false;
	if (s.n > 1 && s.p[0] == '-' && (s.p[1] == '|' || isalpha((unsigned char)s.p[1])))
		neg = true, s.p++, s.n--;
	if (s.n > 2 && s.p[0] == '|' && s.p[s.n - 1] == '|')
		abs = true, s = (struct span){s.p + 1, s.n - 2};
	struct span inner;
	if (in->sdwa && parse_call(s, "sext", &inner)) {
		in->sext |= (uint8_t)(1u << srcno);
		s = inner;
	}
	if ((neg || abs) && d->role != AMD_ROLE_SRC)
		return perr(c, s, "modifier on a destination");
	if (op->format == AMD_FMT_MIMG && s.n && s.p[0] == '[')
		return parse_image_addr(c, s, v);
	in->neg |= (uint8_t)(neg ? 1u << srcno : 0);
	in->abs |= (uint8_t)(abs ? 1u << srcno : 0);
	if (parse_register(s, v)) {
		unsigned want = d->width;
		if (d->kind == AMD_OPK_VCC || d->kind == AMD_OPK_MASK_DST)
			want = c->t->wave_size == 64 ? 2 : 1;
		bool flexible = op->format == AMD_FMT_GLOBAL || op->format == AMD_FMT_SCRATCH ||
		                op->format == AMD_FMT_FLAT || v->kind == AMD_V_OFF ||
		                v->kind == AMD_V_SPECIAL ||
		                (op->format == AMD_FMT_MIMG && v->kind == AMD_V_VGPR);
		if (!flexible && want && v->width != want)
			return perr(c, s, "register width does not match the instruction");
		if (v->kind == AMD_V_SPECIAL && !(want == 2 && v->width == 2))
			v->width = 0;
		if (v->kind == AMD_V_TTMP && want && v->width != want)
			return perr(c, s, "register width does not match the instruction");
		return true;
	}
	int64_t iv;
	uint32_t bits;
	if (parse_float(s, (enum amd_dtype)d->dtype, &bits)) {
		*v = (struct amd_val){.kind = AMD_V_IMM, .imm = bits};
		return true;
	}
	if (parse_int(s, &iv)) {
		if (iv < INT32_MIN || iv > (int64_t)UINT32_MAX)
			return perr(c, s, "constant does not fit in 32 bits");
		*v = (struct amd_val){.kind = AMD_V_IMM, .imm = (uint32_t)iv};
		if ((d->dtype == AMD_DT_F16 || d->dtype == AMD_DT_B16) && iv >= 0 && iv > 0xffff)
			return perr(c, s, "16-bit constant out of range");
		return true;
	}
	if (memchr(s.p, '@', s.n) && d->role == AMD_ROLE_SRC && !neg && !abs)
		return parse_reloc_expr(c, s, v);
	return perr(c, s, "cannot read operand '%.*s'", (int)s.n, s.p);
}

static bool parse_bits(struct span arg, uint8_t *out)
{
	struct span parts[4];
	if (arg.n < 2 || arg.p[0] != '[' || arg.p[arg.n - 1] != ']')
		return false;
	unsigned n = split((struct span){arg.p + 1, arg.n - 2}, ',', parts, 4);
	*out = 0;
	for (unsigned i = 0; i < n && i < 4; i++) {
		if (span_eq(parts[i], "1"))
			*out |= (uint8_t)(1u << i);
		else if (!span_eq(parts[i], "0"))
			return false;
	}
	return n <= 4;
}

/* ds_swizzle_b32 offset:swizzle(MODE,...) back to the 16-bit offset. */
static bool parse_swizzle(struct span arg, int32_t *off)
{
	struct span in, p[5];
	int64_t a[4] = {0, 0, 0, 0};
	if (!parse_call(arg, "swizzle", &in))
		return false;
	unsigned n = split(in, ',', p, 5);
	for (unsigned i = 1; i < n && i < 5; i++)
		if (p[i].p[0] != '"' && !parse_int(p[i], &a[i - 1]))
			return false;
	if (span_eq(p[0], "QUAD_PERM") && n == 5)
		*off = (int32_t)(0x8000 | a[0] | a[1] << 2 | a[2] << 4 | a[3] << 6);
	else if (span_eq(p[0], "SWAP") && n == 2)
		*off = (int32_t)(31 | a[0] << 10);
	else if (span_eq(p[0], "REVERSE") && n == 2)
		*off = (int32_t)(31 | (a[0] - 1) << 10);
	else if (span_eq(p[0], "BROADCAST") && n == 3)
		*off = (int32_t)((32 - a[0]) | a[1] << 5);
	else if (span_eq(p[0], "BITMASK_PERM") && n == 2 && p[1].n == 7) {
		unsigned and_m = 0, or_m = 0, xor_m = 0;
		for (int i = 0; i < 5; i++) {
			unsigned bit = 1u << (4 - i);
			char ch = p[1].p[1 + i];
			if (ch == '1')
				or_m |= bit;
			else if (ch == 'p')
				and_m |= bit;
			else if (ch == 'i')
				and_m |= bit, xor_m |= bit;
			else if (ch != '0')
				return false;
		}
		*off = (int32_t)(and_m | or_m << 5 | xor_m << 10);
	} else
		return false;
	return true;
}

/* DPP controls (the caller set in->dpp from the _dpp suffix). */
static bool parse_dpp_modifier(struct pctx *c, const struct amd_isa_op *op, struct span m,
                               struct span key, struct span arg, bool colon, struct amd_inst *in)
{
	int64_t v;
	struct span parts[8];
	/* gfx11+ compares take DPP controls without a _dpp suffix */
	if (!in->dpp && op->format == AMD_FMT_VOPC && c->gen >= AMD_GFX11 &&
	    (span_eq(m, "row_mirror") || span_eq(m, "row_half_mirror") ||
	     (colon && (span_eq(key, "quad_perm") || span_eq(key, "dpp8") ||
	                (key.n > 4 && !memcmp(key.p, "row_", 4)))))) {
		in->dpp = 1;
		in->row_mask = in->bank_mask = 0xf;
	}
	if (!in->dpp)
		return false;
	if (span_eq(m, "row_mirror") || span_eq(m, "row_half_mirror")) {
		in->dpp_ctrl = m.n == 10 ? 0x140 : 0x141;
		return true;
	}
	if (!colon)
		return false;
	if (span_eq(key, "quad_perm") || span_eq(key, "dpp8")) {
		if (arg.n < 2 || arg.p[0] != '[' || arg.p[arg.n - 1] != ']')
			return false;
		unsigned n = split((struct span){arg.p + 1, arg.n - 2}, ',', parts, 8), sel = 0;
		bool is8 = key.n == 4;
		if (n != (is8 ? 8u : 4u))
			return false;
		for (unsigned i = 0; i < n; i++) {
			if (!parse_int(parts[i], &v) || v < 0 || v > (is8 ? 7 : 3))
				return false;
			sel |= (unsigned)v << (is8 ? 3 * i : 2 * i);
		}
		if (is8)
			in->dpp = 2, in->dpp8_sel = sel;
		else
			in->dpp_ctrl = (uint16_t)sel;
		return true;
	}
	if (!parse_int(arg, &v) || v < 0 || v > 255)
		return false;
	static const struct {
		const char *name;
		unsigned base, lo, hi;
	} ctrls[] = {{"row_shl", 0x100, 1, 15},   {"row_shr", 0x110, 1, 15},
	             {"row_ror", 0x120, 1, 15},   {"row_share", 0x150, 0, 15},
	             {"row_xmask", 0x160, 0, 15}, {"wave_shl", 0x12f, 1, 1},
	             {"wave_rol", 0x133, 1, 1},   {"wave_shr", 0x137, 1, 1},
	             {"wave_ror", 0x13b, 1, 1}};
	for (size_t i = 0; i < sizeof ctrls / sizeof ctrls[0]; i++)
		if (span_eq(key, ctrls[i].name) && v >= ctrls[i].lo && v <= ctrls[i].hi) {
			in->dpp_ctrl = (uint16_t)(ctrls[i].base + (unsigned)v);
			return true;
		}
	if (span_eq(key, "row_bcast") && (v == 15 || v == 31)) {
		in->dpp_ctrl = v == 15 ? 0x142 : 0x143;
		return true;
	}
	if (span_eq(key, "row_mask") || span_eq(key, "bank_mask")) {
		if (v > 15)
			return perr(c, arg, "mask out of range"), true;
		*(key.p[0] == 'r' ? &in->row_mask : &in->bank_mask) = (uint8_t)v;
		return true;
	}
	if (span_eq(key, "bound_ctrl") && v <= 1) {
		in->bound_ctrl = true; /* LLVM spells the set bit bound_ctrl:1 (also :0) */
		return true;
	}
	if (span_eq(key, "fi") && v <= 1) {
		in->fi = v == 1;
		return true;
	}
	return false;
}

static bool parse_modifier(struct pctx *c, const struct amd_isa_op *op, struct span m,
                           struct amd_inst *in)
{
	static const struct {
		const char *name;
		uint8_t gens; /* bit per generation where the spelling is valid */
		uint8_t bit;
	} cache[] = {{"glc", 0x1d, AMD_CPOL_GLC}, {"slc", 0x1d, AMD_CPOL_SLC},
	             {"dlc", 0x0c, AMD_CPOL_DLC}, {"sc0", 0x02, AMD_CPOL_SC0},
	             {"sc1", 0x02, AMD_CPOL_SC1}, {"nt", 0x02, AMD_CPOL_NT}};
	const char *colon = memchr(m.p, ':', m.n);
	struct span key = colon ? (struct span){m.p, (size_t)(colon - m.p)} : m;
	struct span arg = colon ? (struct span){colon + 1, (size_t)(m.p + m.n - colon - 1)}
	                        : (struct span){m.p + m.n, 0};
	int64_t v;
	for (size_t i = 0; i < sizeof cache / sizeof cache[0]; i++)
		if (span_eq(m, cache[i].name)) {
			bool smem940 = c->gen == AMD_GFX940 && op->format == AMD_FMT_SMEM &&
			               cache[i].bit == AMD_CPOL_GLC &&
			               !strcmp(cache[i].name, "glc");
			if (!(cache[i].gens >> c->gen & 1) && !smem940)
				break;
			in->cpol |= cache[i].bit;
			return true;
		}
	if (span_eq(key, "offset") && colon) {
		if (parse_swizzle(arg, &in->offset))
			return true;
		if (!parse_int(arg, &v) || v < INT32_MIN || v > INT32_MAX)
			return perr(c, arg, "bad offset");
		in->offset = (int32_t)v;
		in->smem_soe = op->format == AMD_FMT_SMEM;
		return true;
	}
	if ((span_eq(key, "offset0") || span_eq(key, "offset1")) && colon) {
		if (!parse_int(arg, &v) || v < 0 || v > 255)
			return perr(c, arg, "bad DS offset (0..255)");
		if (key.p[6] == '0')
			in->offset = (int32_t)v;
		else
			in->offset1 = (uint8_t)v;
		return true;
	}
	if (span_eq(m, "offen") || span_eq(m, "idxen") || span_eq(m, "gds") ||
	    span_eq(m, "clamp")) {
		bool *flag = m.p[0] == 'o'   ? &in->offen
		             : m.p[0] == 'i' ? &in->idxen
		             : m.p[0] == 'g' ? &in->gds
		                             : &in->clamp;
		*flag = true;
		return true;
	}
	if (span_eq(m, "mul:2") || span_eq(m, "mul:4") || span_eq(m, "div:2")) {
		in->omod = m.p[0] == 'd' ? 3 : m.p[4] == '2' ? 1 : 2;
		return true;
	}
	if (colon && c->gen == AMD_GFX12 && span_eq(key, "scope")) {
		static const char *const scopes[4] = {"SCOPE_CU", "SCOPE_SE", "SCOPE_DEV",
		                                      "SCOPE_SYS"};
		for (unsigned i = 0; i < 4; i++)
			if (span_eq(arg, scopes[i])) {
				in->cpol |= (uint8_t)AMD_CPOL_SCOPE(i);
				return true;
			}
	}
	if (colon && c->gen == AMD_GFX12 && span_eq(key, "th")) {
		unsigned th = span_eq(arg, "TH_ATOMIC_RETURN") || span_eq(arg, "TH_LOAD_NT") ||
		                              span_eq(arg, "TH_STORE_NT")
		                      ? 1
		              : span_eq(arg, "TH_LOAD_HT") || span_eq(arg, "TH_STORE_HT") ||
		                              span_eq(arg, "TH_ATOMIC_NT")
		                      ? 2
		                      : 0;
		if (th) {
			in->cpol |= (uint8_t)AMD_CPOL_TH(th);
			return true;
		}
	}
	if (op->format == AMD_FMT_MIMG)
		return parse_image_modifier(c, key, arg, colon != NULL, in);
	if (parse_dpp_modifier(c, op, m, key, arg, colon != NULL, in))
		return true;
	if (in->sdwa && colon) {
		static const char *const sels[7] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
		                                    "WORD_0", "WORD_1", "DWORD"};
		static const char *const unused[3] = {"UNUSED_PAD", "UNUSED_SEXT",
		                                      "UNUSED_PRESERVE"};
		uint8_t *slot = span_eq(key, "dst_sel")    ? &in->dst_sel
		                : span_eq(key, "src0_sel") ? &in->src_sel[0]
		                : span_eq(key, "src1_sel") ? &in->src_sel[1]
		                                           : NULL;
		for (unsigned i = 0; slot && i < 7; i++)
			if (span_eq(arg, sels[i])) {
				*slot = (uint8_t)i;
				return true;
			}
		for (unsigned i = 0; span_eq(key, "dst_unused") && i < 3; i++)
			if (span_eq(arg, unused[i])) {
				in->dst_unused = (uint8_t)i;
				return true;
			}
	}
	uint8_t *mfma_field = !colon                 ? NULL
	                      : span_eq(key, "cbsz") ? &in->cbsz
	                      : span_eq(key, "abid") ? &in->abid
	                      : span_eq(key, "blgp") ? &in->blgp
	                                             : NULL;
	int64_t num;
	if (mfma_field) { /* the encoder checks the ranges (0-7, 0-15, 0-7) */
		if (!parse_int(arg, &num) || num < 0 || num > 255)
			return perr(c, m, "bad value in '%.*s'", (int)m.n, m.p);
		*mfma_field = (uint8_t)num;
		return true;
	}
	uint8_t bits;
	if (colon && parse_bits(arg, &bits)) {
		if (span_eq(key, "op_sel"))
			in->op_sel = bits;
		else if (span_eq(key, "op_sel_hi"))
			in->op_sel_hi = bits, in->op_sel_hi_set = true;
		else if (span_eq(key, "neg_lo") || (span_eq(key, "neg") && (op->flags & AMD_F_MAI)))
			in->neg = bits;
		else if (span_eq(key, "neg_hi"))
			in->neg_hi = bits;
		else
			return perr(c, m, "unknown modifier '%.*s'", (int)m.n, m.p);
		return true;
	}
	return perr(c, m, "unknown or unsupported modifier '%.*s'", (int)m.n, m.p);
}

/* Which row operands appear in the text (gfx10+ v_cmpx prints no destination). */
static bool is_printed(const struct pctx *c, const struct amd_isa_op *op, int i)
{
	const struct amd_opnd_desc *d = &op->opnds[i];
	return !((d->kind == AMD_OPK_VCC || d->kind == AMD_OPK_MASK_DST) &&
	         d->role == AMD_ROLE_DST && op->flags & AMD_F_EXEC_DST && c->gen >= AMD_GFX10);
}

static bool parse_body(struct pctx *c, const struct amd_isa_op *op, struct span rest,
                       struct amd_inst *in)
{
	struct span parts[AMD_MAX_OPNDS + 2], mods[16];
	unsigned nparts = rest.n ? split(rest, ',', parts, AMD_MAX_OPNDS + 2) : 0;
	unsigned nmods = 0, want = 0;
	for (int i = 0; i < op->nopnds; i++)
		want += is_printed(c, op, i);
	if (nparts > AMD_MAX_OPNDS + 1)
		return perr(c, rest, "too many operands");
	/* trailing modifiers ride on the last operand (or are the whole text) */
	bool last_is_text = op->nopnds && op->opnds[op->nopnds - 1].kind == AMD_OPK_SIMM16 &&
	                    (op->simm == AMD_SIMM_WAITCNT || op->simm == AMD_SIMM_DELAY);
	if (!last_is_text && nparts) {
		struct span words[17];
		unsigned nw = split(parts[nparts - 1], ' ', words, 17);
		if (nw > 17)
			return perr(c, parts[nparts - 1], "too many modifiers");
		unsigned first_mod = want == 0 ? 0 : 1;
		for (unsigned i = first_mod; i < nw; i++)
			mods[nmods++] = words[i];
		if (want == 0)
			nparts = 0;
		else
			parts[nparts - 1] = words[0];
	}
	unsigned p = 0;
	if ((op->flags & AMD_F_ATOMIC) && op->format != AMD_FMT_MUBUF &&
	    op->format != AMD_FMT_MIMG && nparts == want + 1) {
		struct amd_opnd_desc rd = {AMD_ROLE_DST, AMD_OPK_VDST, 0, 0};
		if (!parse_operand(c, op, &rd, parts[0], &in->rtn, 0, in))
			return false;
		if (in->rtn.kind != AMD_V_VGPR)
			return perr(c, parts[0], "atomic return must be a VGPR");
		p = 1;
	}
	if (nparts - p != want)
		return perr(c, rest, "expected %u operands, found %u", want, nparts - p);
	unsigned srcno = 0;
	for (int i = 0; i < op->nopnds; i++) {
		const struct amd_opnd_desc *d = &op->opnds[i];
		if (!is_printed(c, op, i)) {
			in->ops[i] = (struct amd_val){.kind = AMD_V_SPECIAL, .reg = AMD_SPEC_EXEC};
			continue;
		}
		struct span s = parts[p++];
		if ((d->kind == AMD_OPK_SIMM16 || d->kind == AMD_OPK_LABEL ||
		     d->kind == AMD_OPK_KIMM) &&
		    memchr(s.p, '@', s.n))
			return perr(c, s,
			            "a relocation expression is not supported in this operand");
		if (d->kind == AMD_OPK_SIMM16 || d->kind == AMD_OPK_LABEL) {
			uint32_t v = 0;
			int64_t iv;
			if (d->kind == AMD_OPK_LABEL && !parse_int(s, &iv)) {
				if (!c->label_fn || !c->label_fn(c->label_ctx, s.p, s.n, &v))
					return perr(c, s, "unknown label '%.*s'", (int)s.n, s.p);
			} else if (!parse_simm(c, op, s, &v)) {
				return false;
			}
			in->ops[i] = (struct amd_val){.kind = AMD_V_IMM, .imm = v};
			continue;
		}
		if (d->kind == AMD_OPK_KIMM) {
			int64_t iv;
			if (!parse_int(s, &iv))
				return perr(c, s, "expected a literal constant");
			in->ops[i] = (struct amd_val){.kind = AMD_V_IMM, .imm = (uint32_t)iv};
			continue;
		}
		if (!parse_operand(c, op, d, s, &in->ops[i], srcno, in))
			return false;
		if (d->role == AMD_ROLE_SRC)
			srcno++;
	}
	for (unsigned i = 0; i < nmods; i++)
		if (!parse_modifier(c, op, mods[i], in))
			return false;
	if (op->format == AMD_FMT_MIMG && c->gen <= AMD_GFX940)
		image_dim_from_da(op, in);
	return true;
}

/* Looks up mnemonic [p, p+n) for gen, stripping an _e32/_e64 suffix into out->enc. */
static int find_mnemonic(struct pctx *c, struct span m, struct amd_inst *out)
{
	char name[64];
	if (!m.n || m.n >= sizeof name)
		return perr(c, m, "expected an instruction"), -1;
	memcpy(name, m.p, m.n);
	name[m.n] = 0;
	int row = amd_isa_find_gen(c->gen, name);
	if (row < 0 && m.n > 5 && !strcmp(name + m.n - 5, "_sdwa")) {
		out->sdwa = true;
		out->dst_sel = out->src_sel[0] = out->src_sel[1] = 6; /* DWORD unless given */
		name[m.n - 5] = 0;
		row = amd_isa_find_gen(c->gen, name);
		if (row < 0)
			perr(c, m, "unknown instruction '%s_sdwa'", name);
		return row;
	}
	if (row < 0 && m.n > 4 && !strcmp(name + m.n - 4, "_dpp")) {
		out->dpp = 1;
		out->row_mask = out->bank_mask = 0xf; /* LLVM's defaults when omitted */
		name[m.n - 4] = 0;
		return amd_isa_find_gen(c->gen, name) >= 0
		               ? amd_isa_find_gen(c->gen, name)
		               : (perr(c, m, "unknown instruction '%s_dpp'", name), -1);
	}
	if (row < 0 && m.n > 4 &&
	    (!strcmp(name + m.n - 4, "_e32") || !strcmp(name + m.n - 4, "_e64"))) {
		out->enc = name[m.n - 2] == '3' ? AMD_ENC_E32 : AMD_ENC_E64;
		name[m.n - 4] = 0;
		row = amd_isa_find_gen(c->gen, name);
	}
	if (row < 0) {
		bool elsewhere = amd_isa_find(name) >= 0;
		perr(c, m,
		     elsewhere ? "instruction '%s' does not exist on %s"
		               : "unknown instruction '%s'%s",
		     name, elsewhere ? c->t->info->name : "");
	}
	return row;
}

/* "v_dual_X ... :: v_dual_Y ...": each half is a plain operand list. */
static bool parse_vopd(struct pctx *c, struct span x, struct span y, struct amd_inst *out)
{
	unsigned count;
	const struct amd_isa_op *table = amd_isa_table(&count);
	struct amd_inst half;
	struct span halves[2] = {trim(x), trim(y)};
	for (int h = 0; h < 2; h++) {
		size_t mlen = 0;
		while (mlen < halves[h].n && !isspace((unsigned char)halves[h].p[mlen]))
			mlen++;
		half = (struct amd_inst){0};
		int row = find_mnemonic(c, (struct span){halves[h].p, mlen}, &half);
		if (row < 0)
			return false;
		half.row = row;
		if (table[row].format != AMD_FMT_VOPD)
			return perr(c, halves[h],
			            "both halves of '::' must be v_dual_ instructions");
		struct span rest = trim((struct span){halves[h].p + mlen, halves[h].n - mlen});
		if (!parse_body(c, &table[row], rest, &half))
			return false;
		if (h == 0) {
			*out = half;
			out->dual = true;
		} else {
			out->row_y = row;
			memcpy(out->ops_y, half.ops, sizeof out->ops_y);
		}
	}
	return true;
}

bool amd_parse_inst_ex(const struct amd_target *t, const char *text, size_t len,
                       struct amd_inst *out, char *err, size_t errlen, unsigned *err_col,
                       amd_label_fn label_fn, void *label_ctx, struct amd_parsed_reloc *reloc)
{
	if (reloc)
		*reloc = (struct amd_parsed_reloc){0};
	struct pctx c = {.t = t,
	                 .reloc = reloc,
	                 .gen = t->info->gen,
	                 .base = text,
	                 .err = err,
	                 .errlen = errlen,
	                 .err_col = err_col,
	                 .label_fn = label_fn,
	                 .label_ctx = label_ctx};
	struct span line = trim((struct span){text, len});
	for (size_t i = 0; i + 1 < line.n; i++)
		if (line.p[i] == ':' && line.p[i + 1] == ':')
			return parse_vopd(&c, (struct span){line.p, i},
			                  (struct span){line.p + i + 2, line.n - i - 2}, out);
	size_t mlen = 0;
	while (mlen < line.n && !isspace((unsigned char)line.p[mlen]))
		mlen++;
	*out = (struct amd_inst){0};
	out->row = find_mnemonic(&c, (struct span){line.p, mlen}, out);
	if (out->row < 0)
		return false;
	unsigned count;
	const struct amd_isa_op *op = &amd_isa_table(&count)[out->row];
	return parse_body(&c, op, trim((struct span){line.p + mlen, line.n - mlen}), out);
}

bool amd_asm_parse_inst(const struct amd_target *t, const char *text, size_t len,
                        struct amd_inst *out, char *err, size_t errlen, unsigned *err_col)
{
	return amd_parse_inst_ex(t, text, len, out, err, errlen, err_col, NULL, NULL, NULL);
}
