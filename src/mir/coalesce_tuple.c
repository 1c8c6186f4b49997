/* Coalescing of matrix operand tuples, before allocation.
 *
 * Selection of a matrix instruction (sel_mma.c) gives each operand a fresh VGPR tuple T and
 * copies the operand's dwords into it one by one (`COPY T[k], x`), and reads the result's
 * dwords out the same way (`COPY p, D[k]`).  The allocator gives a vreg one register range
 * and never merges a one-dword vreg into a dword of a wider one, so every copy became a
 * v_mov (48 per iteration of the hgemm k-loop on gfx90a) and both copies held registers.
 * This pass renames instead of copying, in four steps, each applied to the whole function
 * before the next:
 *   1. operands: for `COPY T[k], x` where T's definitions are exactly one such copy per
 *      dword, all in one block before T's only reader R in that block, x (one VGPR, every
 *      operand of it whole, no returning atomic) becomes T[k] everywhere -- a pure
 *      renaming, since nothing else writes T[k] -- when no definition of x lies between
 *      the copy and R (R must read x's value at the copy).  An x copied into two tuples
 *      goes into the first; the copy into the second then reads T[k].  1b: a wider x (the
 *      pair of a ds_read2: an mma's operand loaded from LDS, build_ldsm.c), defined once
 *      and whole before its copies x[j] -> T[d0 + j], becomes T[d0 ..] the same way.
 *   2. tuple reuse: a tuple whose dwords are copies of U[0..n-1] of one tuple U of its
 *      size is replaced by U at its reader when nothing writes U in between (the B
 *      fragment that two mma share).
 *   3. results: a matrix result D (one whole definition) whose only readers are copies
 *      `COPY P[k], D[k]` after it in its block, one per dword, becomes P when nothing else
 *      mentions P from D's definition to the last copy, D's definition reads P at most as
 *      its whole srcC (an MFMA's and a WMMA's D may equal srcC), and EXEC is not written
 *      there (P's old value is dead; D's definition writes the lanes the copies wrote) but
 *      by a WMMA's own bracket (writes_exec).  With step 1 this makes a loop's accumulator
 *      tuple the matrix result of its last step (of its only step: a WMMA k-loop).
 *   4. accumulation in place: walking each block backwards, a matrix result u (one whole
 *      definition, read once, as srcC of a matrix instruction I writing v of u's size and
 *      alignment) becomes v when nothing mentions v between u's definition and I and u's
 *      definition does not mention v: the chain of k-steps updates one tuple (an MFMA's
 *      and a WMMA's vdst may equal its srcC exactly; D never overlaps A or B, which are
 *      other vregs, live at the instruction's read point where D's interval starts).
 *      EXEC writes as in step 3.
 * Registers: every renaming merges two intervals into their union, so the pressure never
 * grows (the values were live at the same time before).
 *   requires: virtual registers, after mir_coalesce_phi_copies.  breaks: nothing.
 *   complexity: O(instructions) per step, plus a scan of the block range per candidate; steps
 *   1-2 run only where a piece copy exists, 3-4 only where a matrix instruction does. */
#include <string.h>

#include "mir/mir.h"

enum { NONE = 0xffffffffu, MAX_TUPLE = 8, DELETED = MIR_NUM_OPS };

struct tinfo {
	uint32_t ndefs, nreads;
	bool other_def;                /* a definition that is not a one-dword copy into it */
	bool partial;                  /* an operand of it that is not the whole register */
	bool rtn;                      /* a returning atomic mentions it */
	uint32_t def_block, def_index; /* the last definition seen */
};

/* Where a renamed one-dword vreg now lives: vreg `to`, dword `sub` (NONE: not renamed). */
struct dest {
	uint32_t to;
	uint8_t sub, width; /* width: x's dwords (step 1b) */
};

static bool is_whole(const struct mir_function *fn, const struct mir_opnd *o)
{
	return o->sub == 0 && (o->width == 0 || o->width == fn->vregs[o->v].size);
}

static bool is_matrix(const struct mir_insn *in)
{
	return in->op < AMD_NUM_OPCODES && (amd_isa_rows[in->op].flags & (AMD_F_MAI | AMD_F_WMMA));
}

static bool is_wmma(const struct mir_insn *in)
{
	return in->op < AMD_NUM_OPCODES && (amd_isa_rows[in->op].flags & AMD_F_WMMA);
}

/* Whether instruction j of bl is half of a WMMA's EXEC bracket (sel_mma.c): the
 * `s_or_saveexec s, -1` just before it or the `s_mov exec, s` just after it. */
bool mir_wmma_bracket(const struct mir_block *bl, uint32_t j)
{
	const struct mir_insn *in = &bl->insns[j];
	if (in->op == AMD_OP_S_OR_SAVEEXEC_B32 || in->op == AMD_OP_S_OR_SAVEEXEC_B64)
		return j + 1 < bl->ninsns && is_wmma(&bl->insns[j + 1]) &&
		       in->opnds[1].kind == MIR_IMM && in->opnds[1].v == 0xffffffffu;
	if ((in->op != AMD_OP_S_MOV_B32 && in->op != AMD_OP_S_MOV_B64) || j < 2 ||
	    !is_wmma(&bl->insns[j - 1]) || !mir_wmma_bracket(bl, j - 2))
		return false;
	const struct mir_opnd *saved = &bl->insns[j - 2].opnds[0];
	return in->opnds[1].kind == MIR_VREG && saved->kind == MIR_VREG &&
	       in->opnds[1].v == saved->v;
}

/* Whether instruction j of bl writes EXEC, a WMMA's bracket aside: the bracket makes the
 * WMMA write its D in the lanes outside the saved EXEC too, which renaming D into an older
 * tuple P overwrites in P; but those lanes are threads that do not exist or did not execute
 * the mma.sync/wmma.mma (.aligned: every thread of the warp executes it), so nothing reads
 * them there. */
static bool writes_exec(const struct mir_function *fn, const struct mir_block *bl, uint32_t j)
{
	return mir_writes_exec(fn, &bl->insns[j]) && !mir_wmma_bracket(bl, j);
}

static bool is_tuple(const struct mir_function *fn, uint32_t v)
{
	return fn->vregs[v].file == MIR_VGPR && fn->vregs[v].size > 1 &&
	       fn->vregs[v].size <= MAX_TUPLE;
}

/* `COPY T[k], y[j]`: one dword of a VGPR vreg into one dword of a wider VGPR vreg. */
static bool is_piece_copy(const struct mir_function *fn, const struct mir_insn *in)
{
	if (in->op != MIR_COPY)
		return false;
	const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
	return d->kind == MIR_VREG && s->kind == MIR_VREG && d->width == 1 && s->width == 1 &&
	       is_tuple(fn, d->v) && fn->vregs[s->v].file == MIR_VGPR && d->v != s->v;
}

static void count(const struct mir_function *fn, struct tinfo *ti)
{
	memset(ti, 0, fn->nvregs * sizeof *ti);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind != MIR_VREG)
					continue;
				struct tinfo *t = &ti[o->v];
				t->partial |= !is_whole(fn, o);
				t->rtn |= in->rtn != 0;
				if (mir_opnd_is_def(in, k)) {
					t->ndefs++;
					t->other_def |= !(k == 0 && is_piece_copy(fn, in));
					t->def_block = b, t->def_index = i;
				} else
					t->nreads++;
			}
		}
}

static bool writes(const struct mir_insn *in, uint32_t v)
{
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v && mir_opnd_is_def(in, k))
			return true;
	return false;
}

static bool mentions(const struct mir_insn *in, uint32_t v)
{
	for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v)
			return true;
	return false;
}

/* Whether operand k of R (block bl, index r) is a tuple T whose only definitions are one
 * piece copy per dword, in bl before R, R being T's only reader; fills at[] with the
 * copies' indices per dword. */
static bool copied_tuple(const struct mir_function *fn, const struct tinfo *ti,
                         const struct mir_block *bl, uint32_t r, unsigned k, uint32_t *at)
{
	const struct mir_insn *in = &bl->insns[r];
	const struct mir_opnd *o = &in->opnds[k];
	if (o->kind != MIR_VREG || mir_opnd_is_def(in, k) || !is_whole(fn, o) ||
	    !is_tuple(fn, o->v))
		return false;
	const struct tinfo *t = &ti[o->v];
	unsigned size = fn->vregs[o->v].size, found = 0;
	if (t->ndefs != size || t->other_def || t->nreads != 1 || t->rtn)
		return false;
	for (unsigned d = 0; d < size; d++)
		at[d] = NONE;
	for (uint32_t j = r; j-- > 0 && found < size;) {
		const struct mir_insn *c = &bl->insns[j];
		if (c->op == MIR_COPY && c->opnds[0].kind == MIR_VREG && c->opnds[0].v == o->v) {
			unsigned d = c->opnds[0].sub;
			if (d >= size || at[d] != NONE)
				return false;
			at[d] = j, found++;
		}
	}
	return found == size;
}

static void delete_marked(struct mir_block *bl)
{
	uint32_t out = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (bl->insns[i].op != DELETED)
			bl->insns[out++] = bl->insns[i];
	bl->ninsns = out;
}

/* Rewrites every operand of a vreg in dest[] (whole one-dword operands, by step 1's rule)
 * into its tuple dword and deletes the marked instructions. */
static void apply_pieces(struct mir_function *fn, const struct dest *dest)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++)
			for (unsigned k = 0; k < bl->insns[i].nopnds && k < AMD_MAX_OPNDS; k++) {
				struct mir_opnd *o = &bl->insns[i].opnds[k];
				if (o->kind == MIR_VREG && dest[o->v].to != NONE) {
					bool whole = is_whole(fn, o);
					o->sub = (uint8_t)(dest[o->v].sub + (whole ? 0 : o->sub));
					o->width = whole ? dest[o->v].width : o->width;
					o->v = dest[o->v].to;
				}
			}
		delete_marked(bl);
	}
}

/* Step 1b: a wider x (the pair of a ds_read2, a wide load), defined once and whole in block
 * b before the copies, copied one piece per dword x[j] -> T[d0 + j] (d0 aligned as x must
 * be), becomes T[d0 .. d0 + size - 1]: its definition writes those dwords, which nothing
 * else writes, so its other readers (copies into a second tuple: two mma's sharing A) read
 * the same values there. */
static unsigned rename_wide(struct mir_function *fn, const struct tinfo *ti, struct dest *dest,
                            uint32_t b, uint32_t t, const uint32_t *at, unsigned d0)
{
	struct mir_block *bl = &fn->blocks[b];
	const struct mir_opnd *s0 = &bl->insns[at[d0]].opnds[1];
	if (bl->insns[at[d0]].op == DELETED || s0->sub != 0)
		return 0;
	uint32_t x = s0->v;
	const struct tinfo *xi = &ti[x];
	unsigned size = fn->vregs[x].size, align = fn->vregs[x].align ? fn->vregs[x].align : 1;
	if (size < 2 || size > 4 || d0 + size > fn->vregs[t].size || xi->ndefs != 1 ||
	    xi->nreads < size || xi->rtn || dest[x].to != NONE || xi->def_block != b ||
	    d0 % align != 0 || fn->vregs[t].align < align)
		return 0;
	const struct mir_insn *def = &bl->insns[xi->def_index];
	for (unsigned k = 0; k < def->nopnds && k < AMD_MAX_OPNDS; k++)
		if (def->opnds[k].kind == MIR_VREG && def->opnds[k].v == x &&
		    (!mir_opnd_is_def(def, k) || !is_whole(fn, &def->opnds[k])))
			return 0;
	for (unsigned j = 0; j < size; j++) {
		const struct mir_insn *c = &bl->insns[at[d0 + j]];
		if (c->op == DELETED || c->opnds[1].v != x || c->opnds[1].sub != j ||
		    at[d0 + j] < xi->def_index)
			return 0;
	}
	dest[x] = (struct dest){t, (uint8_t)d0, (uint8_t)size};
	for (unsigned j = 0; j < size; j++)
		bl->insns[at[d0 + j]].op = DELETED;
	return size;
}

/* Step 1 on the copies into the tuple operand k of R (block b, index r). */
static unsigned rename_pieces(struct mir_function *fn, const struct tinfo *ti, struct dest *dest,
                              uint32_t b, uint32_t r, unsigned k)
{
	struct mir_block *bl = &fn->blocks[b];
	uint32_t at[MAX_TUPLE];
	if (!copied_tuple(fn, ti, bl, r, k, at))
		return 0;
	uint32_t t = bl->insns[r].opnds[k].v;
	unsigned done = 0;
	for (unsigned d = 0; d < fn->vregs[t].size; d++) {
		struct mir_insn *c = &bl->insns[at[d]];
		uint32_t x = c->opnds[1].v;
		const struct tinfo *xi = &ti[x];
		if (fn->vregs[x].size != 1 || xi->partial || xi->rtn || dest[x].to != NONE ||
		    dest[t].to != NONE)
			continue;
		bool clobbered = false;
		for (uint32_t j = at[d] + 1; j < r && !clobbered; j++)
			clobbered = writes(&bl->insns[j], x);
		if (clobbered)
			continue;
		dest[x] = (struct dest){t, (uint8_t)d, 1};
		c->op = DELETED;
		done++;
	}
	for (unsigned d = 0; d < fn->vregs[t].size && dest[t].to == NONE; d++)
		done += rename_wide(fn, ti, dest, b, t, at, d);
	return done;
}

static unsigned step_pieces(struct mir_function *fn, struct tinfo *ti, struct dest *dest)
{
	count(fn, ti);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		dest[v].to = NONE;
	unsigned done = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			if (in->op == MIR_COPY)
				continue;
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
				done += rename_pieces(fn, ti, dest, b, i, k);
		}
	if (done)
		apply_pieces(fn, dest);
	return done;
}

/* Step 2 on tuple operand k of R (block b, index r). */
static bool reuse_tuple(struct mir_function *fn, const struct tinfo *ti, uint32_t b, uint32_t r,
                        unsigned k)
{
	struct mir_block *bl = &fn->blocks[b];
	uint32_t at[MAX_TUPLE];
	if (!copied_tuple(fn, ti, bl, r, k, at))
		return false;
	uint32_t t = bl->insns[r].opnds[k].v, u = NONE, first = r;
	unsigned size = fn->vregs[t].size;
	for (unsigned d = 0; d < size; d++) {
		const struct mir_opnd *s = &bl->insns[at[d]].opnds[1];
		if (d == 0)
			u = s->v;
		if (s->v != u || s->sub != d)
			return false;
		first = at[d] < first ? at[d] : first;
	}
	const struct mir_vreg *uv = &fn->vregs[u], *tv = &fn->vregs[t];
	if (uv->file != MIR_VGPR || uv->size != size || uv->align < tv->align)
		return false;
	for (uint32_t j = first + 1; j < r; j++)
		if (writes(&bl->insns[j], u))
			return false;
	bl->insns[r].opnds[k].v = u;
	for (unsigned d = 0; d < size; d++)
		bl->insns[at[d]].op = DELETED;
	return true;
}

static unsigned step_reuse(struct mir_function *fn, struct tinfo *ti)
{
	count(fn, ti);
	unsigned done = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			if (in->op == MIR_COPY || in->op == DELETED)
				continue;
			for (unsigned k = 0; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
				done += reuse_tuple(fn, ti, b, i, k);
		}
		delete_marked(&fn->blocks[b]);
	}
	return done;
}

static void rename_range(struct mir_block *bl, uint32_t from, uint32_t to, uint32_t old,
                         uint32_t new)
{
	for (uint32_t i = from; i <= to; i++)
		for (unsigned k = 0; k < bl->insns[i].nopnds && k < AMD_MAX_OPNDS; k++)
			if (bl->insns[i].opnds[k].kind == MIR_VREG &&
			    bl->insns[i].opnds[k].v == old)
				bl->insns[i].opnds[k].v = new;
}

/* Whether the matrix instruction `def` leaves P alone or reads it only as its whole srcC:
 * then its result may be written into P (an MFMA's or a WMMA's D may equal its srcC). */
static bool p_at_most_src_c(const struct mir_function *fn, const struct mir_insn *def, uint32_t p)
{
	for (unsigned k = 0; k < def->nopnds && k < AMD_MAX_OPNDS; k++) {
		const struct mir_opnd *o = &def->opnds[k];
		if (o->kind == MIR_VREG && o->v == p && (k != 3 || !is_whole(fn, o)))
			return false;
	}
	return true;
}

/* Step 3 on the matrix result D. */
static bool result_into_tuple(struct mir_function *fn, const struct tinfo *ti, uint32_t dv)
{
	const struct tinfo *di = &ti[dv];
	if (!is_tuple(fn, dv) || di->ndefs != 1 || di->rtn || di->nreads != fn->vregs[dv].size)
		return false;
	struct mir_block *bl = &fn->blocks[di->def_block];
	uint32_t d = di->def_index, last = d, p = NONE, seen = 0;
	const struct mir_insn *def = &bl->insns[d];
	if (!is_matrix(def) || def->opnds[0].kind != MIR_VREG || def->opnds[0].v != dv ||
	    !is_whole(fn, &def->opnds[0]))
		return false;
	unsigned nread = 0;
	for (uint32_t j = d + 1; j < bl->ninsns && nread < di->nreads; j++) {
		const struct mir_insn *c = &bl->insns[j];
		if (!mentions(c, dv))
			continue;
		if (!is_piece_copy(fn, c) || c->opnds[1].v != dv ||
		    c->opnds[1].sub != c->opnds[0].sub || (p != NONE && c->opnds[0].v != p) ||
		    (seen >> c->opnds[0].sub & 1))
			return false;
		p = c->opnds[0].v;
		seen |= 1u << c->opnds[0].sub;
		nread++, last = j;
	}
	if (p == NONE || seen != (1u << fn->vregs[dv].size) - 1 || ti[p].rtn)
		return false;
	const struct mir_vreg *pv = &fn->vregs[p], *vv = &fn->vregs[dv];
	if (pv->size != vv->size || pv->align != vv->align || !p_at_most_src_c(fn, def, p))
		return false;
	for (uint32_t j = d + 1; j <= last; j++) {
		const struct mir_insn *c = &bl->insns[j];
		bool copy =
		        c->op == MIR_COPY && c->opnds[1].kind == MIR_VREG && c->opnds[1].v == dv;
		if ((!copy && mentions(c, p)) || writes_exec(fn, bl, j))
			return false;
	}
	rename_range(bl, d, last, dv, p);
	for (uint32_t j = d + 1; j <= last; j++)
		if (bl->insns[j].op == MIR_COPY && bl->insns[j].opnds[0].v == p &&
		    bl->insns[j].opnds[1].v == p)
			bl->insns[j].op = DELETED;
	delete_marked(bl);
	return true;
}

static unsigned step_results(struct mir_function *fn, struct tinfo *ti)
{
	count(fn, ti);
	unsigned done = 0;
	for (uint32_t v = 0; v < fn->nvregs; v++)
		if (result_into_tuple(fn, ti, v)) {
			done++;
			count(fn, ti); /* instruction indices moved */
		}
	return done;
}

/* Step 4's common test: `in` is an MFMA whose result v and srcC u are distinct whole vregs of
 * one file, size and alignment, and u is no other source of it. */
static bool matrix_dst_and_src_c(const struct mir_function *fn, const struct mir_insn *in,
                                 uint32_t *v, uint32_t *u)
{
	if (!is_matrix(in) || in->nopnds < 4)
		return false;
	const struct mir_opnd *vo = &in->opnds[0], *uo = &in->opnds[3];
	if (vo->kind != MIR_VREG || uo->kind != MIR_VREG || vo->v == uo->v || !is_whole(fn, vo) ||
	    !is_whole(fn, uo))
		return false;
	const struct mir_vreg *vv = &fn->vregs[vo->v], *uv = &fn->vregs[uo->v];
	if (vv->file != uv->file || vv->size != uv->size || vv->align != uv->align)
		return false;
	for (unsigned k = 1; k < in->nopnds && k < AMD_MAX_OPNDS; k++)
		if (k != 3 && in->opnds[k].kind == MIR_VREG && in->opnds[k].v == uo->v)
			return false;
	*v = vo->v;
	*u = uo->v;
	return true;
}

/* Step 4 on the MFMA at index i of block b. */
static bool accumulate_in_place(struct mir_function *fn, const struct tinfo *ti, uint32_t b,
                                uint32_t i)
{
	struct mir_block *bl = &fn->blocks[b];
	uint32_t v, u;
	if (!matrix_dst_and_src_c(fn, &bl->insns[i], &v, &u))
		return false;
	const struct tinfo *ui = &ti[u];
	if (ui->ndefs != 1 || ui->nreads != 1 || ui->partial || ui->rtn || ui->def_block != b ||
	    ui->def_index >= i)
		return false;
	for (uint32_t j = ui->def_index; j < i; j++)
		if (mentions(&bl->insns[j], v) || writes_exec(fn, bl, j))
			return false;
	rename_range(bl, ui->def_index, i, u, v);
	return true;
}

/* Step 4, the chain's first step: the MFMA at index i of block b writes v from srcC u
 * (a loop's accumulator, defined several times); v becomes u when the next instruction
 * mentioning u overwrites all of it without reading it, and v is read only up to there. */
static bool first_in_place(struct mir_function *fn, const struct tinfo *ti, uint32_t b, uint32_t i)
{
	struct mir_block *bl = &fn->blocks[b];
	uint32_t v, u;
	if (!matrix_dst_and_src_c(fn, &bl->insns[i], &v, &u))
		return false;
	const struct tinfo *vi = &ti[v];
	if (vi->ndefs != 1 || vi->partial || vi->rtn || ti[u].rtn)
		return false;
	unsigned reads = 0;
	for (uint32_t j = i + 1; j < bl->ninsns; j++) {
		const struct mir_insn *c = &bl->insns[j];
		if (writes_exec(fn, bl, j))
			return false;
		for (unsigned k = 0; k < c->nopnds && k < AMD_MAX_OPNDS; k++)
			if (c->opnds[k].kind == MIR_VREG && c->opnds[k].v == v)
				reads++;
		if (!mentions(c, u))
			continue;
		bool whole_def = false;
		for (unsigned k = 0; k < c->nopnds && k < AMD_MAX_OPNDS; k++) {
			const struct mir_opnd *o = &c->opnds[k];
			if (o->kind != MIR_VREG || o->v != u)
				continue;
			if (!mir_opnd_is_def(c, k) || !is_whole(fn, o))
				return false;
			whole_def = true;
		}
		if (!whole_def || reads != vi->nreads)
			return false;
		rename_range(bl, i, j, v, u);
		return true;
	}
	return false;
}

static unsigned step_in_place(struct mir_function *fn, struct tinfo *ti)
{
	count(fn, ti);
	unsigned done = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = fn->blocks[b].ninsns; i-- > 0;)
			done += accumulate_in_place(fn, ti, b, i);
	count(fn, ti);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			done += first_in_place(fn, ti, b, i);
	return done;
}

/* What the steps look for: bit 0 a piece copy (steps 1 and 2 rename only tuples defined by
 * them, and delete them, never add one), bit 1 a matrix instruction (steps 3 and 4 start
 * from one).  A function without either is one scan instead of six counts. */
static unsigned has_work(const struct mir_function *fn)
{
	unsigned found = 0;
	for (uint32_t b = 0; b < fn->nblocks && found != 3; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			found |= is_piece_copy(fn, in) | (unsigned)is_matrix(in) << 1;
		}
	return found;
}

unsigned mir_coalesce_tuples(struct mir_function *fn)
{
	if (!fn->nvregs)
		return 0;
	unsigned work = has_work(fn), done = 0;
	if (!work)
		return 0;
	struct tinfo *ti = PA_NEW_ARRAY(mir_pass_arena(fn), struct tinfo, fn->nvregs);
	struct dest *dest = PA_NEW_ARRAY(mir_pass_arena(fn), struct dest, fn->nvregs);
	if (work & 1) {
		done += step_pieces(fn, ti, dest);
		done += step_reuse(fn, ti);
	}
	if (work & 2) {
		done += step_results(fn, ti);
		done += step_in_place(fn, ti);
	}
	return done;
}
