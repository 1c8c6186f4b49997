/* mir_merge_scalar_loads: scalar loads of adjacent dwords through one base become one wider
 * scalar load.
 *
 * Selection reads each kernel parameter with its own s_load_dword or s_load_dwordx2 from the
 * kernarg segment (stencil2d: x2 at 0, x2 at 8, dword at 16, dword at 20: four loads); one
 * s_load_dwordx4 and one s_load_dwordx2 read the same bytes, as clang-19's code does: fewer
 * scalar memory instructions issued and waited for.
 * Rule: s_load_dword / s_load_dwordx2 in one block through the same base register (a vreg
 * defined at most once, so it holds one address throughout), at constant offsets, with the
 * default cache policy, each writing a whole vreg defined only there (x2 loads at 8-byte
 * aligned offsets, so a pair read from the wide register stays an even-aligned pair), and
 * no instruction between them that ends a memory window (mir_ends_memory_window: stores,
 * atomics, waits, barriers, messages, branches, EXEC writes) or writes the base: the loads whose
 * dwords fill an aligned run of 8, 4 or 2 dwords (offset a multiple of the run's size, each dword
 * read by exactly one of them) become one s_load_dwordx8/x4/x2 at the place of the earliest (a
 * later load moves up: nothing between can change what it reads), into a new SGPR tuple (aligned as
 * the hardware wants: 4 for x4 and x8), and the uses of the old destinations become its dwords.
 * requires: MIR on virtual registers before allocation.
 * Complexity: O(instructions x operands) plus a sort per window of candidates. */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "mir/mir.h"

enum { WINDOW_MAX = 64, MAX_RUN = 8 };

struct sload {
	uint32_t pos;   /* index in the block */
	uint32_t dword; /* offset / 4 */
	unsigned n;     /* dwords */
	uint32_t dst;
};

struct merger {
	struct mir_function *fn;
	uint8_t *defs;
	uint32_t nvregs;
	uint32_t *ren_vreg;
	uint8_t *ren_sub;
	bool *dead; /* per instruction of the current block */
	bool any;
};

static const uint16_t wide_op[MAX_RUN + 1] = {[1] = AMD_OP_S_LOAD_DWORD,
                                              [2] = AMD_OP_S_LOAD_DWORDX2,
                                              [4] = AMD_OP_S_LOAD_DWORDX4,
                                              [8] = AMD_OP_S_LOAD_DWORDX8};

/* A load this pass may merge, as a candidate with its base vreg. */
static bool candidate(const struct merger *m, const struct mir_insn *in, uint32_t pos,
                      struct sload *c, uint32_t *base)
{
	unsigned n = in->op == AMD_OP_S_LOAD_DWORD ? 1 : in->op == AMD_OP_S_LOAD_DWORDX2 ? 2 : 0;
	if (!n || in->nopnds != 3 || in->cpol || in->flags)
		return false;
	const struct mir_opnd *d = &in->opnds[0], *b = &in->opnds[1], *o = &in->opnds[2];
	if (d->kind != MIR_VREG || d->sub != 0 || d->width != n || d->v >= m->nvregs ||
	    m->defs[d->v] != 1 || m->fn->vregs[d->v].size != n || b->kind != MIR_VREG ||
	    b->sub != 0 || b->width != 2 || b->v >= m->nvregs || m->defs[b->v] > 1 ||
	    o->kind != MIR_IMM || o->v % (4 * n) != 0 || in->offset != 0)
		return false;
	*c = (struct sload){.pos = pos, .dword = o->v / 4, .n = n, .dst = d->v};
	*base = b->v;
	return true;
}

/* Whether `in` writes vreg v. */
static bool writes_vreg(const struct mir_insn *in, uint32_t v)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && in->opnds[k].v == v && mir_opnd_is_def(in, k))
			return true;
	return false;
}

static int cmp_dword(const void *pa, const void *pb)
{
	const struct sload *a = pa, *b = pb;
	return a->dword < b->dword   ? -1
	       : a->dword > b->dword ? 1
	                             : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Makes c[first..first+count-1] (covering run dwords from `start`) one load. */
static void merge(struct merger *m, uint32_t b, const struct sload *c, unsigned count,
                  uint32_t start, unsigned run)
{
	struct mir_function *fn = m->fn;
	uint32_t at = c[0].pos;
	for (unsigned k = 1; k < count; k++)
		at = c[k].pos < at ? c[k].pos : at;
	uint32_t t = mir_new_vreg(fn, MIR_SGPR, run, run >= 4 ? 4 : 2);
	struct mir_insn *in = &fn->blocks[b].insns[at];
	in->op = wide_op[run];
	in->opnds[0] = mir_vreg(t, run);
	in->opnds[2] = mir_imm(start * 4);
	for (unsigned k = 0; k < count; k++) {
		m->ren_vreg[c[k].dst] = t;
		m->ren_sub[c[k].dst] = (uint8_t)(c[k].dword - start);
		if (c[k].pos != at)
			m->dead[c[k].pos] = true;
	}
	m->any = true;
}

/* Merges what it can of one window (candidates of one base). */
static void close_window(struct merger *m, uint32_t b, struct sload *c, unsigned n)
{
	if (n < 2)
		return;
	qsort(c, n, sizeof *c, cmp_dword);
	bool *used = calloc(n, sizeof *used);
	for (unsigned run = MAX_RUN; run >= 2; run /= 2)
		for (unsigned i = 0; i < n; i++) {
			if (used[i] || c[i].dword % run != 0)
				continue;
			/* candidates from i covering [dword, dword + run) exactly once each */
			uint32_t next = c[i].dword, end = c[i].dword + run;
			unsigned j = i;
			while (j < n && !used[j] && c[j].dword == next && next + c[j].n <= end) {
				next += c[j].n;
				j++;
			}
			bool duplicate =
			        j < n && c[j].dword < end; /* another load of these dwords */
			if (next != end || j - i < 2 || duplicate)
				continue;
			merge(m, b, &c[i], j - i, c[i].dword, run);
			for (unsigned k = i; k < j; k++)
				used[k] = true;
		}
	free(used);
}

static void merge_block(struct merger *m, uint32_t b)
{
	struct mir_block *bl = &m->fn->blocks[b];
	struct sload win[WINDOW_MAX];
	unsigned n = 0;
	uint32_t base = 0;
	m->dead = calloc(bl->ninsns + 1, sizeof *m->dead);
	for (uint32_t i = 0; i <= bl->ninsns; i++) {
		struct sload c;
		uint32_t cb;
		if (i < bl->ninsns && candidate(m, &bl->insns[i], i, &c, &cb)) {
			if (n == WINDOW_MAX || (n && cb != base)) {
				close_window(m, b, win, n);
				n = 0;
			}
			base = cb;
			win[n++] = c;
			continue;
		}
		if (i == bl->ninsns || mir_ends_memory_window(m->fn, &bl->insns[i]) ||
		    (n && writes_vreg(&bl->insns[i], base))) {
			close_window(m, b, win, n);
			n = 0;
		}
	}
	uint32_t out = 0;
	for (uint32_t i = 0; i < bl->ninsns; i++)
		if (!m->dead[i])
			bl->insns[out++] = bl->insns[i];
	bl->ninsns = out;
	free(m->dead);
}

unsigned mir_merge_scalar_loads(struct mir_function *fn)
{
	struct merger m = {.fn = fn, .nvregs = fn->nvregs};
	m.defs = mir_count_defs(fn);
	m.ren_vreg = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 1);
	m.ren_sub = PA_NEW_ARRAY(mir_pass_arena(fn), uint8_t, fn->nvregs + 1);
	for (uint32_t v = 0; v < fn->nvregs; v++)
		m.ren_vreg[v] = v;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		merge_block(&m, b);
	if (!m.any)
		return 0;
	unsigned renamed = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			for (unsigned k = 0; k < fn->blocks[b].insns[i].nopnds; k++) {
				struct mir_opnd *o = &fn->blocks[b].insns[i].opnds[k];
				if (o->kind == MIR_VREG && o->v < m.nvregs &&
				    m.ren_vreg[o->v] != o->v) {
					o->sub = (uint8_t)(o->sub + m.ren_sub[o->v]);
					o->v = m.ren_vreg[o->v];
					renamed++;
				}
			}
	return renamed;
}
