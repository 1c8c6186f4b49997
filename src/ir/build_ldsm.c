/* ir_build: ldmatrix straight into the matrix unit's operand layout (docs/TENSOR.md,
 * "ldmatrix into the unit's layout").
 *
 * ldmatrix (build_ldmatrix.c, non-.trans) gives thread l of a 32-lane group, in register i,
 * the dword at row(8i + l/4) + 4 (l % 4) + off: row(t) is the row address thread t supplied
 * (an SSA value, `addr`), off the operand's constant.  mma.sync on the matrix unit
 * (build_mma_mfma.c) moves each register it needs from the lane that holds it by a lane read
 * at a byte address `at` = 4 x that wave lane.  Where that register is such an ldmatrix
 * result, the dword it holds in lane at/4 is the LDS dword at
 *   lane.read(addr, (at & 128) | 32 i | (at & 0x70) / 4) + (at & 0xc) + off
 * (bit 7 of `at`: the half of a wave64; bits 4-6: l / 4; bits 2-3: l % 4), so the mma loads
 * its operand itself: the lane read is of the row address, a value that does not change in a
 * k-loop (loop_motion.c hoists it out; an aligned mperm, which lane_affine.c computes in the
 * reading lane where it can), and the ldmatrix's own loads and the data shuffles
 * die (dead code) when nothing else reads its registers; when something does, both stay.
 * Registers of one ldmatrix that the mma selects between (by a lane bit of the source or
 * of the reader) select their row addresses instead, one load after.
 *
 * Exactness: the load must see what the ldmatrix saw.  A record is used only while the
 * builder is in the ldmatrix's block with no operation with effects (store, atomic,
 * barrier, call, ...) emitted since; else the mma takes today's shuffle of the register.
 * Lane reads in that block run with the ldmatrix's lanes.  .trans results are not
 * recorded: each of their dwords is two 16-bit elements of two rows, so the unit's operand
 * would be 16-bit loads, more LDS work than the shuffle they replace (docs/TENSOR.md).
 * Loads one mma emitted are reused by the next mma of the block that picks the same
 * registers at the same lane function (hgemm_mma's two mma's share A).
 * Cost: O(RECS) per register looked up, O(block since the ldmatrix) for the effects check. */
#include <string.h>

#include "ir/build_mma.h"

enum { RECS = 64, LOADS = 64 };

struct ldsm_rec {
	ir_ref val, addr; /* the ldmatrix's register value, its row-address register */
	int64_t off;
	unsigned mat;        /* register i: matrix i */
	uint32_t block, pos; /* the ldmatrix's block and its instruction count after it */
};

struct ldsm_load {
	uint64_t site;
	ir_ref id, vals[4], load;
	uint32_t c, block;
	unsigned nvals;
};

struct ldsm_table {
	struct ldsm_rec rec[RECS]; /* a ring: the latest RECS ldmatrix registers */
	unsigned nrec;
	struct ldsm_load load[LOADS]; /* a ring of loads emitted */
	unsigned nload;
};

static struct ldsm_table *table(struct irb *b)
{
	if (!b->ldsm) {
		b->ldsm = PA_NEW(b->arena, struct ldsm_table);
		memset(b->ldsm, 0, sizeof *b->ldsm);
	}
	return b->ldsm;
}

void ldsm_note(struct irb *b, ir_ref val, ir_ref addr, int64_t off, unsigned mat)
{
	struct ldsm_table *t = table(b);
	t->rec[t->nrec++ % RECS] = (struct ldsm_rec){
	        .val = val,
	        .addr = addr,
	        .off = off,
	        .mat = mat,
	        .block = b->cur,
	        .pos = b->fn->blocks[b->cur].ninsns,
	};
}

/* Whether an operation with effects was emitted in the current block since position pos. */
static bool effects_since(const struct irb *b, uint32_t pos)
{
	const struct ir_block *bl = &b->fn->blocks[b->cur];
	for (uint32_t i = pos; i < bl->ninsns; i++)
		if (ir_ops[bl->insns[i].op].flags & IR_OPF_SIDE)
			return true;
	return false;
}

/* The record of v, still valid here (same block, LDS unchanged), or NULL. */
static const struct ldsm_rec *live(struct irb *b, ir_ref v)
{
	if (!b->ldsm || v == IR_NO_REF)
		return NULL;
	struct ldsm_table *t = b->ldsm;
	unsigned n = t->nrec < RECS ? t->nrec : RECS;
	for (unsigned k = 1; k <= n; k++) {
		const struct ldsm_rec *r = &t->rec[(t->nrec - k) % RECS];
		if (r->val != v)
			continue;
		return r->block == b->cur && !effects_since(b, r->pos) ? r : NULL;
	}
	return NULL;
}

static ir_ref konst(struct irb *b, uint32_t v)
{
	return ir_const(b->fn, IR_T_I32, v);
}

static ir_ref op2(struct irb *b, enum ir_op op, ir_ref x, ir_ref y)
{
	ir_ref args[2] = {x, y};
	return irb_emit(b, op, IR_T_I32, args, 2, 0, 0);
}

static ir_ref *cached(struct irb *b, uint64_t site, ir_ref id, uint32_t c, unsigned n,
                      const ir_ref *vals)
{
	struct ldsm_table *t = b->ldsm;
	unsigned m = t->nload < LOADS ? t->nload : LOADS;
	for (unsigned k = 1; k <= m; k++) {
		struct ldsm_load *l = &t->load[(t->nload - k) % LOADS];
		if (l->site != site || l->id != id || l->c != c || l->nvals != n ||
		    l->block != b->cur)
			continue;
		bool same = true;
		for (unsigned i = 0; i < n; i++)
			same &= l->vals[i] == vals[i];
		if (same)
			return &l->load;
	}
	return NULL;
}

ir_ref ldsm_pick(struct irb *b, uint64_t site, ir_ref id, const struct ldsm_at *at, unsigned np,
                 const ir_ref *preds, const ir_ref *vals)
{
	unsigned n = 1u << np;
	const struct ldsm_rec *r[4];
	if (n > 4)
		return IR_NO_REF;
	for (unsigned i = 0; i < n; i++) {
		r[i] = live(b, vals[i]);
		if (!r[i] || r[i]->addr != r[0]->addr || r[i]->off != r[0]->off)
			return IR_NO_REF;
	}
	/* the records are valid: LDS is unchanged since each ldmatrix, so since each load
	 * emitted after it too */
	uint32_t c = at->c;
	ir_ref *hit = cached(b, site, id, c, n, vals);
	if (hit)
		return *hit;
	/* the row supplier's lane, in bytes: (at & 128) | 32 mat | (at & 0x70) / 4 */
	ir_ref xl = op2(b, IR_SHR_U, op2(b, IR_AND, at->row, konst(b, 0x70)), konst(b, 2));
	if (b->fn->wave_size == 64)
		xl = op2(b, IR_OR, xl, op2(b, IR_AND, at->row, konst(b, 128)));
	uint32_t cl = (c & 128) | (c & 0x70) >> 2;
	ir_ref row[4];
	for (unsigned i = 0; i < n; i++) {
		uint32_t k = cl | 32 * r[i]->mat;
		ir_ref args[2] = {r[i]->addr, k ? op2(b, IR_OR, xl, konst(b, k)) : xl};
		row[i] = irb_emit(b, IR_MPERM, IR_T_I32, args, 2, IR_MPERM_ALIGNED, 0);
	}
	for (unsigned j = 0; j < np; j++) /* level j: pairs by preds[j] */
		for (unsigned i = 0; i < n >> (j + 1); i++) {
			ir_ref args[3] = {preds[j], row[2 * i + 1], row[2 * i]};
			row[i] = irb_emit(b, IR_SELECT, IR_T_I32, args, 3, 0, 0);
		}
	ir_ref addr = at->col == IR_NO_REF ? row[0] : op2(b, IR_ADD, row[0], at->col);
	ir_ref v = irb_emit(b, IR_LOAD, IR_T_I32, &addr, 1,
	                    IR_SPACE_SHARED | 2u << IR_MEM_SIZE_SHIFT, r[0]->off + (c & 0xc));
	struct ldsm_table *t = b->ldsm;
	struct ldsm_load *l = &t->load[t->nload++ % LOADS];
	*l = (struct ldsm_load){
	        .site = site, .id = id, .load = v, .c = c, .block = b->cur, .nvals = n};
	for (unsigned i = 0; i < n; i++)
		l->vals[i] = vals[i];
	return v;
}
