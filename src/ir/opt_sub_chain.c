/* ir_fold_sub_chains: (x - a) - b becomes x - s where s = a + b is already computed.
 *
 * nvcc's trip counts subtract an index's parts one by one where the index itself is their
 * sum: stencil2d's `(max(i, 68) + 255 - tid.x) - (tid.y << 4)` with i = tid.x + (tid.y << 4)
 * computed before.  Subtracting i instead saves the second subtraction, and the shift that
 * only it read outside the sum (the sum's shift and add are one v_lshl_add_u32).
 * Rule: T = sub(S, b), S = sub(x, a), both of one integer type, and a value s = add(a, b) or
 * add(b, a) of that type defined where it dominates T (an earlier instruction of T's block,
 * or a block that dominates it): T = sub(x, s).  Exact modulo 2^width: (x - a) - b =
 * x - (a + b) in two's complement arithmetic.  S is left for dead code removal when nothing
 * else reads it.
 * requires: ir_cfg_compute (dominators).
 * breaks: nothing (uniformity: s is divergent iff a or b is, as S and T were then too; T's
 * flag stays right).
 * Complexity: O(instructions) expected (a hash table of the adds). */
#include <string.h>

#include "ir/ir.h"

struct sum_entry {
	ir_ref a, b, res; /* res = add(a, b), a < b */
	uint32_t block, index;
};

struct chains {
	struct ir_function *fn;
	struct sum_entry *table; /* open addressing, cap a power of two; res IR_NO_REF: free */
	uint32_t cap;
	uint32_t *def_block, *def_index; /* of each value's defining instruction */
};

static uint32_t slot_of(const struct chains *c, ir_ref a, ir_ref b)
{
	uint32_t h = (a * 0x9e3779b1u) ^ (b * 0x85ebca6bu);
	return (h ^ h >> 15) & (c->cap - 1);
}

static void add_sum(struct chains *c, const struct ir_insn *in, uint32_t b, uint32_t k)
{
	ir_ref x = in->args[0] < in->args[1] ? in->args[0] : in->args[1];
	ir_ref y = in->args[0] < in->args[1] ? in->args[1] : in->args[0];
	uint32_t i = slot_of(c, x, y);
	while (c->table[i].res != IR_NO_REF) {
		if (c->table[i].a == x && c->table[i].b == y)
			return; /* the first one found stays (any one would do) */
		i = (i + 1) & (c->cap - 1);
	}
	c->table[i] = (struct sum_entry){.a = x, .b = y, .res = in->res, .block = b, .index = k};
}

static const struct sum_entry *find_sum(const struct chains *c, ir_ref a, ir_ref b)
{
	ir_ref x = a < b ? a : b, y = a < b ? b : a;
	for (uint32_t i = slot_of(c, x, y); c->table[i].res != IR_NO_REF;
	     i = (i + 1) & (c->cap - 1))
		if (c->table[i].a == x && c->table[i].b == y)
			return &c->table[i];
	return NULL;
}

/* Rewrites T (index k of block b) when the rule applies. */
static bool fold_one(struct chains *c, uint32_t b, uint32_t k)
{
	struct ir_function *fn = c->fn;
	struct ir_insn *t = &fn->blocks[b].insns[k];
	if (t->op != IR_SUB || t->nargs != 2 || t->res == IR_NO_REF)
		return false;
	ir_ref sv = t->args[0];
	if (fn->vals[sv].kind != IR_VAL_INSN || c->def_block[sv] == IR_NO_BLOCK)
		return false;
	const struct ir_insn *s = &fn->blocks[c->def_block[sv]].insns[c->def_index[sv]];
	if (s->op != IR_SUB || s->nargs != 2 || s->type != t->type)
		return false;
	const struct sum_entry *e = find_sum(c, s->args[1], t->args[1]);
	if (!e || fn->vals[e->res].type != t->type ||
	    !(e->block == b ? e->index < k : ir_dominates(fn, e->block, b)))
		return false;
	t->args[0] = s->args[0];
	t->args[1] = e->res;
	return true;
}

unsigned ir_fold_sub_chains(struct ir_function *fn)
{
	struct pa_arena tmp;
	pa_arena_init_beside(&tmp, fn->arena);
	struct chains c = {.fn = fn};
	uint32_t nadds = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].ninsns; k++)
			nadds += fn->blocks[b].insns[k].op == IR_ADD;
	c.cap = 16;
	while (c.cap < 2 * nadds + 2)
		c.cap *= 2;
	c.table = PA_NEW_ARRAY(&tmp, struct sum_entry, c.cap);
	for (uint32_t i = 0; i < c.cap; i++)
		c.table[i].res = IR_NO_REF;
	c.def_block = PA_NEW_ARRAY(&tmp, uint32_t, fn->nvals + 1);
	c.def_index = PA_NEW_ARRAY(&tmp, uint32_t, fn->nvals + 1);
	for (uint32_t r = 0; r < fn->nvals; r++)
		c.def_block[r] = IR_NO_BLOCK;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].ninsns; k++) {
			const struct ir_insn *in = &fn->blocks[b].insns[k];
			if (in->res == IR_NO_REF)
				continue;
			c.def_block[in->res] = b;
			c.def_index[in->res] = k;
			if (in->op == IR_ADD && in->nargs == 2)
				add_sum(&c, in, b, k);
		}
	unsigned folded = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t k = 0; k < fn->blocks[b].ninsns; k++)
			folded += fold_one(&c, b, k);
	pa_arena_free(&tmp);
	return folded;
}
