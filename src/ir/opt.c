/* ir_optimize: cheap, general clean-ups after SSA construction.
 *
 * 1. Forwarding: COPY and same-type BITCAST forward their operand; a phi whose operands
 *    are all one value (or the phi itself) is that value (Braun et al.'s trivial phis);
 *    repeated until nothing changes, through one replacement map with path compression.
 *    Then (first round) webs of phis passing one value around (phi_cycles.c), which
 *    SSA construction leaves in irreducible loops, and forwarding again.
 * 2. Constant folding of integer operations whose operands are constants (exact two's
 *    complement semantics of the IR; PTX's shift clamping), and of operations with a
 *    neutral constant operand (x + 0, x * 1, x << 0, ...) into their other operand, and
 *    x & 0, x * 0 into 0; integer compares of two constants into the predicate constant.
 * 3. Local value numbering: within a block, an operation without effects that repeats an
 *    earlier one on the same operands (commutative ones in either order) is replaced; equal
 *    constants (type and bits) are first made one value.
 * 4. Rotates and funnel shifts written as two shifts become one FSHR (rotate.c).
 * 5. Dead code elimination: results nobody needs, unless the operation has effects; an
 *    atomic whose old value nobody needs becomes RED (the cheaper non-returning form).
 *    Before it, a barrier register that folded to 0 (NBAR with IR_NBAR_MAYBE_0, build_bar.c)
 *    becomes BARRIER, so the counter operands it no longer needs die (and the counters' area
 *    and zeroing at entry when no barrier uses them).  After it, the addresses of .shared
 *    variables become constants (their LDS layout is final then) and the clean-ups run
 *    again around them.
 * requires: nothing (works with or without ir_cfg_compute; it keeps the CFG).
 * breaks: nothing but uniformity flags of removed values.
 * Complexity: O(instructions) per forwarding round (rounds are few in practice, capped),
 * O(instructions) expected for numbering (hash table) and DCE. */
#include <string.h>

#include "ir/ir.h"

enum { MAX_FOLD_ROUNDS = 8 };

struct opt {
	struct ir_function *fn;
	ir_ref *repl;
	unsigned removed;
	/* a replacement was recorded since the last rewrite_operands: operands may name
	 * replaced values (without one, every operand is still its own root, and a rewrite
	 * would change nothing) */
	bool dirty;
	/* the pass's own arrays (replacement map, hash tables, DCE work lists): kept out of the
	 * function's arena, where they would stay (some MiB on a large kernel) beside the IR
	 * through selection and allocation; freed when the pass ends */
	struct pa_arena tmp;
};

static ir_ref find(struct opt *o, ir_ref r)
{
	ir_ref root = r;
	while (o->repl[root] != root)
		root = o->repl[root];
	while (o->repl[r] != root) {
		ir_ref next = o->repl[r];
		o->repl[r] = root;
		r = next;
	}
	return root;
}

static void rewrite_operands(struct opt *o)
{
	struct ir_function *fn = o->fn;
	if (!o->dirty)
		return;
	o->dirty = false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			if (in->op == IR_PHI)
				for (uint32_t p = 0; p < bl->npreds; p++)
					in->phi_args[p] = find(o, in->phi_args[p]);
			else
				for (uint32_t k = 0; k < in->nargs; k++)
					in->args[k] = find(o, in->args[k]);
		}
	}
}

/* One forwarding round; returns whether anything new was forwarded. */
static bool forward(struct opt *o)
{
	struct ir_function *fn = o->fn;
	bool changed = false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			if (in->res == IR_NO_REF || find(o, in->res) != in->res)
				continue;
			ir_ref to = IR_NO_REF;
			if (in->op == IR_COPY ||
			    (in->op == IR_BITCAST &&
			     fn->vals[find(o, in->args[0])].type == in->type)) {
				to = find(o, in->args[0]);
			} else if (in->op == IR_PHI) {
				ir_ref same = IR_NO_REF;
				bool several = false;
				for (uint32_t p = 0; p < bl->npreds && !several; p++) {
					ir_ref a = find(o, in->phi_args[p]);
					if (a == in->res || a == same)
						continue;
					several = same != IR_NO_REF;
					same = a;
				}
				if (!several)
					to = same;
			}
			if (to != IR_NO_REF && to != in->res) {
				o->repl[in->res] = to;
				o->dirty = true;
				changed = true;
			}
		}
	}
	return changed;
}

static bool const_int(const struct ir_function *fn, ir_ref r, uint64_t *v)
{
	if (fn->vals[r].kind != IR_VAL_CONST || ir_type_is_float((enum ir_type)fn->vals[r].type))
		return false;
	*v = fn->vals[r].bits;
	return true;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* An integer compare of two constants (at the operands' width): 1 or 0, the predicate
 * constant ir_fold_const_branches reads.  value_range.c turns a value of one possible value
 * into a constant, which leaves nvcc's `setp.eq %r, 0` of an unroll remainder as `icmp 0, 0`. */
static bool fold_icmp(const struct ir_function *fn, const struct ir_insn *in, uint64_t *out)
{
	uint64_t a, c;
	if (in->nargs != 2 || in->aux > IR_CMP_GEU || !const_int(fn, in->args[0], &a) ||
	    !const_int(fn, in->args[1], &c))
		return false;
	unsigned w = ir_type_bits((enum ir_type)fn->vals[in->args[0]].type);
	uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
	uint64_t ua = a & mask, uc = c & mask;
	int64_t sa = sext(a, w), sc = sext(c, w);
	bool r;
	switch ((enum ir_cmp)in->aux) {
	case IR_CMP_EQ:
		r = ua == uc;
		break;
	case IR_CMP_NE:
		r = ua != uc;
		break;
	case IR_CMP_LT:
		r = sa < sc;
		break;
	case IR_CMP_LE:
		r = sa <= sc;
		break;
	case IR_CMP_GT:
		r = sa > sc;
		break;
	case IR_CMP_GE:
		r = sa >= sc;
		break;
	case IR_CMP_LTU:
		r = ua < uc;
		break;
	case IR_CMP_LEU:
		r = ua <= uc;
		break;
	case IR_CMP_GTU:
		r = ua > uc;
		break;
	default:
		r = ua >= uc;
		break; /* IR_CMP_GEU */
	}
	*out = r;
	return true;
}

/* Folds an integer operation on constants; false when it does not apply. */
static bool fold(const struct ir_function *fn, const struct ir_insn *in, uint64_t *out)
{
	if (in->op == IR_ICMP && in->type == IR_T_PRED)
		return fold_icmp(fn, in, out);
	unsigned w = ir_type_bits((enum ir_type)in->type);
	if (ir_type_is_float((enum ir_type)in->type) || in->type == IR_T_PRED || in->nargs == 0 ||
	    in->nargs > 2)
		return false;
	uint64_t a, c = 0;
	if (!const_int(fn, in->args[0], &a) || (in->nargs == 2 && !const_int(fn, in->args[1], &c)))
		return false;
	unsigned aw = ir_type_bits((enum ir_type)fn->vals[in->args[0]].type);
	switch (in->op) {
	case IR_ADD:
		*out = a + c;
		return true;
	case IR_SUB:
		*out = a - c;
		return true;
	case IR_MUL:
		*out = a * c;
		return true;
	case IR_AND:
		*out = a & c;
		return true;
	case IR_OR:
		*out = a | c;
		return true;
	case IR_XOR:
		*out = a ^ c;
		return true;
	case IR_NOT:
		*out = ~a;
		return true;
	case IR_NEG:
		*out = -a;
		return true;
	case IR_SHL:
		*out = c >= w ? 0 : a << c;
		return true;
	case IR_SHR_U:
		*out = c >= w ? 0 : a >> c;
		return true;
	case IR_SHR_S:
		*out = (uint64_t)(sext(a, w) >> (c >= w ? w - 1 : c));
		return true;
	case IR_ZEXT:
	case IR_TRUNC:
		*out = a;
		return true;
	case IR_SEXT:
		*out = (uint64_t)sext(a, aw);
		return true;
	default:
		return false;
	}
}

/* The operand an integer operation with a neutral constant returns unchanged (x + 0,
 * 0 + x, x - 0, x | 0, x ^ 0, x & ~0, x << 0, x >> 0, x * 1, 1 * x), or IR_NO_REF. */
static ir_ref identity(const struct ir_function *fn, const struct ir_insn *in)
{
	if (in->nargs != 2 || ir_type_is_float((enum ir_type)in->type) || in->type == IR_T_PRED)
		return IR_NO_REF;
	uint64_t c;
	bool comm = in->op == IR_ADD || in->op == IR_OR || in->op == IR_XOR || in->op == IR_MUL ||
	            in->op == IR_AND;
	unsigned w = ir_type_bits((enum ir_type)in->type);
	uint64_t neutral = in->op == IR_MUL   ? 1
	                   : in->op == IR_AND ? (w >= 64 ? ~0ull : (1ull << w) - 1)
	                                      : 0;
	bool known = comm || in->op == IR_SUB || in->op == IR_SHL || in->op == IR_SHR_U ||
	             in->op == IR_SHR_S;
	for (unsigned k = 0; known && k < (comm ? 2u : 1u); k++) {
		ir_ref x = in->args[k], n = in->args[1 - k];
		if (const_int(fn, n, &c) && c == neutral && fn->vals[x].type == in->type)
			return x;
	}
	return IR_NO_REF;
}

/* An AND or a MUL with a constant 0 operand: the result is 0 whatever the other is. */
static bool absorbed(const struct ir_function *fn, const struct ir_insn *in)
{
	uint64_t c;
	if ((in->op != IR_AND && in->op != IR_MUL) || in->nargs != 2 ||
	    ir_type_is_float((enum ir_type)in->type) || in->type == IR_T_PRED)
		return false;
	return (const_int(fn, in->args[0], &c) && c == 0) ||
	       (const_int(fn, in->args[1], &c) && c == 0);
}

/* Returns whether it folded anything (the folded values' users may fold in turn). */
static bool fold_constants(struct opt *o)
{
	struct ir_function *fn = o->fn;
	bool folded = false;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			struct ir_insn *in = &bl->insns[i];
			uint64_t v;
			if (in->res == IR_NO_REF)
				continue;
			if (absorbed(fn, in)) { /* x & 0, x * 0 */
				in->op = IR_COPY;
				in->nargs = 1;
				in->args[0] = ir_const(fn, (enum ir_type)in->type, 0);
				folded = true;
				continue;
			}
			ir_ref same = identity(fn, in);
			if (same != IR_NO_REF) {
				in->op = IR_COPY;
				in->nargs = 1;
				in->args[0] = same;
				folded = true;
				continue;
			}
			if (!fold(fn, in, &v))
				continue;
			in->op = IR_COPY;
			in->nargs = 1;
			in->args[0] = ir_const(fn, (enum ir_type)in->type, v);
			o->repl[in->res] = in->res;
			o->dirty = true;
			folded = true;
		}
	}
	return folded;
}

/* Local value numbering over one block with an open-addressing table of instruction
 * indices. */
static void number_block(struct opt *o, struct ir_block *bl, uint32_t *table, uint32_t cap)
{
	/* a table sized for this block, not the largest: clearing the largest block's table
	 * for every block made many small blocks beside one big one quadratic (the table
	 * holds at most one instruction per value, so its size changes no result) */
	while (cap > 16 && cap / 4 >= bl->ninsns)
		cap /= 2;
	memset(table, 0xff, cap * sizeof *table);
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		struct ir_insn *in = &bl->insns[i];
		uint8_t f = ir_ops[in->op].flags;
		if (in->res == IR_NO_REF || in->op == IR_PHI || (f & (IR_OPF_SIDE | IR_OPF_MEM)) ||
		    in->op == IR_COPY)
			continue;
		for (uint32_t k = 0; k < in->nargs; k++) /* what this block merged already */
			in->args[k] = find(o, in->args[k]);
		ir_ref a0 = in->nargs > 0 ? in->args[0] : 0, a1 = in->nargs > 1 ? in->args[1] : 0;
		if ((f & IR_OPF_COMM) && a1 < a0) {
			in->args[0] = a1;
			in->args[1] = a0;
		}
		uint64_t h = in->op * 0x9e3779b97f4a7c15ull ^ in->type ^ (uint64_t)in->aux << 17 ^
		             (uint64_t)in->imm * 31;
		for (uint32_t k = 0; k < in->nargs; k++)
			h = (h ^ in->args[k]) * 0xff51afd7ed558ccdull;
		uint32_t s = (uint32_t)(h ^ h >> 29) & (cap - 1);
		for (;; s = (s + 1) & (cap - 1)) {
			if (table[s] == 0xffffffffu) {
				table[s] = i;
				break;
			}
			const struct ir_insn *e = &bl->insns[table[s]];
			if (e->op == in->op && e->type == in->type && e->aux == in->aux &&
			    e->imm == in->imm && e->nargs == in->nargs &&
			    !memcmp(e->args, in->args, in->nargs * sizeof *in->args)) {
				o->repl[in->res] = e->res;
				o->dirty = true;
				in->op = IR_COPY;
				in->nargs = 1;
				in->args[0] = e->res;
				break;
			}
		}
	}
}

/* Constants are values of their own (ir_const makes a new one each call): equal ones (type
 * and bits) forward to the first, so that numbering sees `and x, 31` twice as the same. */
static void merge_constants(struct opt *o)
{
	struct ir_function *fn = o->fn;
	uint32_t nconst = 0, cap = 16;
	for (ir_ref v = 0; v < fn->nvals; v++)
		nconst += fn->vals[v].kind == IR_VAL_CONST && o->repl[v] == v;
	while (cap < nconst * 2)
		cap *= 2;
	struct pa_arena_mark mark = pa_arena_mark(&o->tmp);
	ir_ref *table = PA_NEW_ARRAY(&o->tmp, ir_ref, cap);
	memset(table, 0xff, cap * sizeof *table);
	for (ir_ref v = 0; v < fn->nvals; v++) {
		const struct ir_value *c = &fn->vals[v];
		if (c->kind != IR_VAL_CONST || o->repl[v] != v)
			continue;
		uint64_t h = (c->bits ^ (uint64_t)c->type << 59) * 0x9e3779b97f4a7c15ull;
		for (uint32_t s = (uint32_t)(h >> 32) & (cap - 1);; s = (s + 1) & (cap - 1)) {
			if (table[s] == IR_NO_REF) {
				table[s] = v;
				break;
			}
			const struct ir_value *e = &fn->vals[table[s]];
			if (e->type == c->type && e->bits == c->bits) {
				o->repl[v] = table[s];
				o->dirty = true;
				break;
			}
		}
	}
	pa_arena_rewind(&o->tmp, mark);
}

static void value_numbering(struct opt *o)
{
	struct ir_function *fn = o->fn;
	uint32_t maxn = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (fn->blocks[b].ninsns > maxn)
			maxn = fn->blocks[b].ninsns;
	uint32_t cap = 16;
	while (cap < maxn * 2)
		cap *= 2;
	struct pa_arena_mark mark = pa_arena_mark(&o->tmp);
	uint32_t *table = PA_NEW_ARRAY(&o->tmp, uint32_t, cap);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		number_block(o, &fn->blocks[b], table, cap);
	pa_arena_rewind(&o->tmp, mark);
}

static void dead_code(struct opt *o)
{
	struct ir_function *fn = o->fn;
	bool *live = PA_NEW_ARRAY(&o->tmp, bool, fn->nvals + 1);
	uint32_t *work = PA_NEW_ARRAY(&o->tmp, uint32_t, fn->nvals + 1);
	uint64_t *def = PA_NEW_ARRAY(&o->tmp, uint64_t, fn->nvals + 1);
	uint32_t nwork = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->res != IR_NO_REF)
				def[in->res] = (uint64_t)b << 32 | i;
		}
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct ir_block *bl = &fn->blocks[b];
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->res != IR_NO_REF && !(ir_ops[in->op].flags & IR_OPF_SIDE))
				continue;
			if (in->res != IR_NO_REF && in->op != IR_ATOMIC) /* see below */
				live[in->res] = true;
			for (uint32_t k = 0; k < in->nargs; k++)
				if (!live[in->args[k]]) {
					live[in->args[k]] = true;
					work[nwork++] = in->args[k];
				}
		}
	}
	while (nwork) {
		ir_ref v = work[--nwork];
		if (fn->vals[v].kind != IR_VAL_INSN)
			continue;
		const struct ir_block *bl = &fn->blocks[def[v] >> 32];
		const struct ir_insn *in = &bl->insns[(uint32_t)def[v]];
		uint32_t n = in->op == IR_PHI ? bl->npreds : in->nargs;
		const ir_ref *args = in->op == IR_PHI ? in->phi_args : in->args;
		for (uint32_t k = 0; k < n; k++)
			if (!live[args[k]]) {
				live[args[k]] = true;
				work[nwork++] = args[k];
			}
	}
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct ir_block *bl = &fn->blocks[b];
		uint32_t w = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct ir_insn *in = &bl->insns[i];
			if (in->res != IR_NO_REF && !live[in->res] &&
			    !(ir_ops[in->op].flags & IR_OPF_SIDE)) {
				o->removed++;
				continue;
			}
			bl->insns[w++] = *in;
			if (in->op == IR_ATOMIC && !live[in->res]) { /* old value unused: RED */
				bl->insns[w - 1].op = IR_RED;
				bl->insns[w - 1].res = IR_NO_REF;
				bl->insns[w - 1].type = IR_T_NONE;
			}
		}
		bl->ninsns = w;
	}
}

/* NBAR_INIT (at the top of block 0) goes when no barrier uses the counters any more, and
 * so does the LDS of its hidden area (size 0). */
static void drop_counter_init(struct ir_function *fn)
{
	struct ir_block *bl = &fn->blocks[0];
	for (uint32_t i = 0; i < bl->ninsns; i++) {
		if (bl->insns[i].op != IR_NBAR_INIT)
			continue;
		ir_ref area = bl->insns[i].args[0];
		for (uint32_t k = 0; k < i; k++)
			if (bl->insns[k].res == area && bl->insns[k].op == IR_SYMADDR) {
				fn->symvars[bl->insns[k].imm].size = 0;
				fn->symvars[bl->insns[k].imm].align = 1;
			}
		memmove(&bl->insns[i], &bl->insns[i + 1], (bl->ninsns - i - 1) * sizeof *bl->insns);
		bl->ninsns--;
		return;
	}
}

static void settle_barriers(struct opt *o)
{
	struct ir_function *fn = o->fn;
	bool counters = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct ir_insn *in = &fn->blocks[b].insns[i];
			uint64_t id;
			if (in->op == IR_NBAR && (in->aux & IR_NBAR_MAYBE_0) &&
			    !(in->aux & IR_NBAR_ALL) && const_int(fn, in->args[1], &id) &&
			    (uint32_t)id == 0) {
				in->op = IR_BARRIER;
				in->nargs = 0;
				in->aux = 0;
			}
			counters |= in->op == IR_NBAR || in->op == IR_NBAR_RED;
		}
	if (!counters && fn->nblocks)
		drop_counter_init(fn);
}

/* The address of a .shared variable is a constant, its offset in the kernel's LDS layout
 * (ir_lds_layout, the selector's), so that the adds and multiplies of address arithmetic
 * fold around it (nvcc writes `mov.u32 %r, tile; mad.lo.s32 %r2, %i, 72, %r`).  Run after
 * settle_barriers, which can still shrink a hidden area.  A function compiled on its own
 * (real_sym) has no layout of its own: its .shared addresses stay (and are rejected). */
static bool fold_shared_addresses(struct ir_function *fn)
{
	if (fn->real_sym || !fn->nsymvars)
		return false;
	uint32_t *offset = PA_NEW_ARRAY(fn->arena, uint32_t, fn->nsymvars);
	ir_lds_layout(fn, offset);
	bool any = false;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct ir_insn *in = &fn->blocks[b].insns[i];
			if (in->op != IR_SYMADDR || in->res == IR_NO_REF || in->imm < 0 ||
			    (uint64_t)in->imm >= fn->nsymvars ||
			    fn->symvars[in->imm].space != IR_SPACE_SHARED ||
			    (in->type != IR_T_I32 && in->type != IR_T_I64))
				continue;
			uint64_t off = offset[in->imm];
			in->op = IR_COPY;
			in->nargs = 1;
			in->aux = 0;
			in->imm = 0;
			in->args[0] = ir_const(fn, (enum ir_type)in->type, off);
			any = true;
		}
	return any;
}

/* Constants made by folding need identity entries in the replacement map. */
static void grow_repl(struct opt *o, uint32_t before)
{
	struct ir_function *fn = o->fn;
	if (fn->nvals <= before)
		return;
	ir_ref *nr = PA_NEW_ARRAY(&o->tmp, ir_ref, fn->nvals + 1);
	memcpy(nr, o->repl, before * sizeof *nr);
	pa_arena_release(o->repl, before * sizeof *nr);
	for (uint32_t v = before; v < fn->nvals; v++)
		nr[v] = v;
	o->repl = nr;
}

/* Forwarding, then folding and numbering: one round of the clean-ups. */
static void clean_round(struct opt *o)
{
	for (int k = 0; k < 16 && forward(o); k++)
		;
	rewrite_operands(o);
	uint32_t before = o->fn->nvals;
	fold_constants(o);
	grow_repl(o, before);
	merge_constants(o);
	rewrite_operands(o);
	value_numbering(o);
	rewrite_operands(o);
}

unsigned ir_optimize(struct ir_function *fn)
{
	struct opt o = {.fn = fn, .dirty = true};
	pa_arena_init_beside(&o.tmp, fn->arena);
	o.repl = PA_NEW_ARRAY(&o.tmp, ir_ref, fn->nvals + 1);
	for (uint32_t v = 0; v < fn->nvals; v++)
		o.repl[v] = v;
	/* three rounds, more (up to MAX_FOLD_ROUNDS) while folding still finds something: a
	 * phi that becomes a constant late makes a chain of operations on it constant one link
	 * per round (warp3_shfl's shuffle control `and 31, -1`).  A round that changed nothing
	 * ends them: the next would see the same IR and change nothing either (a third of the
	 * pass on a large kernel that its second round settled). */
	bool folded = true;
	for (int round = 0; round < 3 || (folded && round < MAX_FOLD_ROUNDS); round++) {
		bool changed = false;
		for (int k = 0; k < 16 && forward(&o); k++)
			changed = true;
		rewrite_operands(&o);
		if (round == 0 && ir_remove_phi_cycles(fn)) { /* SSA construction's: once */
			changed = true;
			for (int k = 0; k < 16 && forward(&o); k++)
				;
			rewrite_operands(&o);
		}
		uint32_t before = fn->nvals;
		folded = fold_constants(&o);
		folded |= ir_fold_known_bits(fn) != 0;
		grow_repl(&o, before);
		merge_constants(&o);
		changed |= folded || o.dirty; /* (dirty: merge_constants forwarded a constant) */
		rewrite_operands(&o);
		value_numbering(&o);
		changed |= o.dirty; /* numbering replaced a value */
		rewrite_operands(&o);
		if (!changed)
			break;
	}
	ir_match_rotates(fn);
	for (int k = 0; k < 16 && forward(&o); k++)
		;
	rewrite_operands(&o);
	settle_barriers(&o);
	uint32_t before = fn->nvals;
	if (fold_shared_addresses(fn)) {
		grow_repl(&o, before);
		for (int round = 0; round < 2; round++)
			clean_round(&o);
		for (int k = 0; k < 16 && forward(&o); k++)
			;
		rewrite_operands(&o);
	}
	dead_code(&o);
	pa_arena_free(&o.tmp);
	return o.removed;
}
