/* Register counts of mma and wmma operands, as the PTX ISA's fragment tables give them
 * per shape and type (and as NVIDIA's ptxas checks them: "Argument vector size mismatch",
 * "Illegal vector size").  A warp holds an MxK (A), KxN (B) or MxN (C, D) matrix; each of
 * the 32 threads holds its share packed into 32-bit registers (64-bit ones for .f64):
 * elements * bits / (32 * register bits).  Exceptions: mma .m8n8k4 with f16 inputs works
 * per quad-pair (A and B two registers, C and D four f16x2 or eight f32), and wmma's f16
 * A and B fragments are eight registers whatever the shape.
 * requires: check.c checked the modifiers and the types.  Complexity: O(operands). */
#include "ptx_int.h"

#include <stdio.h>
#include <string.h>

struct mnk {
	unsigned m, n, k;
};

/* The .mMnNkK shape word of the instruction; false when it has none. */
static bool find_shape(const struct ptx_insn *in, struct mnk *s)
{
	for (unsigned i = 0; i < in->nmods; i++) {
		const char *w = ptx_dotwords[in->mods[i]].text;
		if (sscanf(w, ".m%un%uk%u", &s->m, &s->n, &s->k) == 3)
			return true;
	}
	return false;
}

/* Registers a thread holds of a rows x cols matrix of `t` elements. */
static unsigned share(unsigned rows, unsigned cols, enum ptx_type t)
{
	unsigned reg_bits = t == PTX_TYPE_F64 ? 64 : 32;
	return rows * cols * ptx_types[t].bits / (32 * reg_bits);
}

static unsigned count_regs(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_VEC ? o->nelems : 1;
}

/* Fragment `role` ('a', 'b', 'c' or 'd') of `t` elements. */
static unsigned fragment_regs(const struct ptx_insn *in, const struct mnk *s, char role,
                              enum ptx_type t)
{
	bool wmma = in->op != PTX_OP_MMA;
	bool f16 = t == PTX_TYPE_F16;
	if (!wmma && s->m == 8 && s->n == 8 && s->k == 4 && t != PTX_TYPE_F64)
		return role == 'a' || role == 'b' ? 2 : f16 ? 4 : 8;
	if (wmma && f16 && (role == 'a' || role == 'b'))
		return 8;
	if (role == 'a')
		return share(s->m, s->k, t);
	if (role == 'b')
		return share(s->k, s->n, t);
	return share(s->m, s->n, t);
}

static bool check_one(struct ptx_ctx *c, const struct ptx_insn *in,
                      const struct ptx_insn_locs *locs, unsigned idx, char role, enum ptx_type t,
                      const struct mnk *s)
{
	unsigned want = fragment_regs(in, s, role, t), have = count_regs(&in->opnds[idx]);
	if (!want || have == want)
		return true;
	ptx_error_at(c, locs->opnd_lines[idx], locs->opnd_cols[idx],
	             "'%s' .m%un%uk%u %s fragment of %s holds %u register%s a thread, found %u",
	             in->op == PTX_OP_MMA ? "mma" : "wmma", s->m, s->n, s->k,
	             role == 'a'   ? "A"
	             : role == 'b' ? "B"
	             : role == 'c' ? "C"
	                           : "D",
	             ptx_types[t].name, want, want == 1 ? "" : "s", have);
	return false;
}

/* wmma.load/.store: the fragment is named by .a/.b/.c/.d, the element type is the one
 * type word. */
static bool check_wmma_move(struct ptx_ctx *c, const struct ptx_insn *in,
                            const struct ptx_insn_locs *locs, const struct mnk *s)
{
	char role = ptx_insn_has_mod(in, PTX_DW_A)   ? 'a'
	            : ptx_insn_has_mod(in, PTX_DW_B) ? 'b'
	            : ptx_insn_has_mod(in, PTX_DW_C) ? 'c'
	                                             : 'd';
	unsigned data = in->op == PTX_OP_WMMA_STORE;
	return check_one(c, in, locs, data, role, in->types[0], s);
}

bool ptx_check_matrix_counts(struct ptx_ctx *c, const struct ptx_insn *in,
                             const struct ptx_insn_locs *locs)
{
	struct mnk s;
	bool is_mma = in->op == PTX_OP_MMA || in->op == PTX_OP_WMMA_MMA;
	bool is_move = in->op == PTX_OP_WMMA_LOAD || in->op == PTX_OP_WMMA_STORE;
	if ((!is_mma && !is_move) || !find_shape(in, &s) || !in->ntypes || in->nopnds < 1)
		return true;
	if (is_move)
		return in->nopnds >= 2 ? check_wmma_move(c, in, locs, &s) : true;
	if (in->nopnds < 4 || (in->ntypes != 4 && in->ntypes != 2))
		return true;
	enum ptx_type d = in->types[0], cc = in->types[in->ntypes - 1];
	/* wmma.mma .dtype.ctype: A and B are f16 */
	enum ptx_type a = in->ntypes == 4 ? in->types[1] : PTX_TYPE_F16;
	enum ptx_type b = in->ntypes == 4 ? in->types[2] : PTX_TYPE_F16;
	bool ok = check_one(c, in, locs, 0, 'd', d, &s);
	ok &= check_one(c, in, locs, 1, 'a', a, &s);
	ok &= check_one(c, in, locs, 2, 'b', b, &s);
	ok &= check_one(c, in, locs, 3, 'c', cc, &s);
	return ok;
}
