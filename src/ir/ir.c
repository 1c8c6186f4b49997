/* SSA IR construction helpers: blocks, values, constants, instructions and edges in
 * arena-backed growable arrays.  The op table comes from ir_ops.def. */
#include <string.h>

#include "ir/ir.h"

const struct ir_op_info ir_ops[IR_NUM_OPS] = {
#define OP(id, name, nargs, flags) {name, nargs, flags},
#include "ir_ops.def"
#undef OP
};

const char *ir_type_name(enum ir_type t)
{
	static const char *const names[] = {"none", "pred", "i16", "i32", "i64", "f32", "f64"};
	return t <= IR_T_F64 ? names[t] : "?";
}

uint32_t ir_new_block(struct ir_function *fn)
{
	fn->blocks = pa_arena_grow(fn->arena, fn->blocks, &fn->blocks_cap, fn->nblocks + 1,
	                           sizeof *fn->blocks);
	struct ir_block *b = &fn->blocks[fn->nblocks];
	memset(b, 0, sizeof *b);
	b->idom = b->ipdom = IR_NO_BLOCK;
	b->loop = IR_NO_LOOP;
	fn->cfg_valid = false;
	return fn->nblocks++;
}

ir_ref ir_new_value(struct ir_function *fn, enum ir_type type, uint32_t block)
{
	fn->vals =
	        pa_arena_grow(fn->arena, fn->vals, &fn->vals_cap, fn->nvals + 1, sizeof *fn->vals);
	fn->vals[fn->nvals] =
	        (struct ir_value){.kind = IR_VAL_INSN, .type = (uint8_t)type, .block = block};
	return fn->nvals++;
}

ir_ref ir_const(struct ir_function *fn, enum ir_type type, uint64_t bits)
{
	unsigned w = ir_type_bits(type);
	if (w < 64)
		bits &= (1ull << w) - 1;
	ir_ref r = ir_new_value(fn, type, IR_NO_BLOCK);
	fn->vals[r].kind = IR_VAL_CONST;
	fn->vals[r].bits = bits;
	return r;
}

uint64_t ir_lds_layout(const struct ir_function *fn, uint32_t *offset)
{
	uint64_t off = 0;
	for (uint32_t k = 0; k < 2 * fn->nsymvars; k++) {
		uint32_t i = k % fn->nsymvars;
		if (fn->symvars[i].space != IR_SPACE_SHARED ||
		    (fn->symvars[i].size == 0) != (k >= fn->nsymvars))
			continue;
		uint32_t align = fn->symvars[i].align ? fn->symvars[i].align : 4;
		/* at least min(16, the size rounded up to a power of two), as LLVM places LDS
		 * variables, so that mir_widen_memory can prove ds_read_b128 addresses aligned */
		uint64_t size = fn->symvars[i].size, want = 1;
		while (want < 16 && (size == 0 || want < size))
			want *= 2;
		if (align < want)
			align = (uint32_t)want;
		off = (off + align - 1) & ~(uint64_t)(align - 1);
		offset[i] = (uint32_t)off;
		off += fn->symvars[i].size;
	}
	return off;
}

ir_ref ir_undef(struct ir_function *fn, enum ir_type type)
{
	ir_ref r = ir_new_value(fn, type, IR_NO_BLOCK);
	fn->vals[r].kind = IR_VAL_UNDEF;
	return r;
}

struct ir_insn *ir_append(struct ir_function *fn, uint32_t b, const struct ir_insn *in)
{
	struct ir_block *bl = &fn->blocks[b];
	bl->insns =
	        pa_arena_grow(fn->arena, bl->insns, &bl->cap, bl->ninsns + 1, sizeof *bl->insns);
	bl->insns[bl->ninsns] = *in;
	return &bl->insns[bl->ninsns++];
}

struct ir_insn *ir_insert(struct ir_function *fn, uint32_t b, uint32_t at, const struct ir_insn *in)
{
	ir_append(fn, b, in); /* grows the array; then rotate it into place */
	struct ir_block *bl = &fn->blocks[b];
	struct ir_insn moved = bl->insns[bl->ninsns - 1];
	memmove(&bl->insns[at + 1], &bl->insns[at], (bl->ninsns - 1 - at) * sizeof *bl->insns);
	bl->insns[at] = moved;
	if (moved.res != IR_NO_REF)
		fn->vals[moved.res].block = b;
	return &bl->insns[at];
}

void ir_add_edge(struct ir_function *fn, uint32_t from, uint32_t to)
{
	struct ir_block *f = &fn->blocks[from];
	f->succs[f->nsuccs++] = to;
	fn->cfg_valid = false;
}

/* Copies what the IR shares with the PTX body it was built from (parameter names, the
 * variables' symbols, which for variables declared in the body live there) into the IR's
 * arena and forgets the block labels (read only while building), so that the body can be
 * freed while the IR lives on. */
void ir_detach_body(struct ir_function *fn)
{
	for (uint32_t i = 0; i < fn->nparams; i++)
		fn->params[i].name =
		        pa_arena_strndup(fn->arena, fn->params[i].name, strlen(fn->params[i].name));
	for (uint32_t i = 0; i < fn->nsymvars; i++) {
		const struct ptx_symbol *s = fn->symvars[i].sym;
		if (!s)
			continue;
		struct ptx_symbol *copy = PA_NEW(fn->arena, struct ptx_symbol);
		*copy = *s;
		copy->name = pa_arena_strndup(fn->arena, s->name, strlen(s->name));
		copy->init = NULL; /* (what the back end never reads) */
		copy->ninit = 0;
		copy->func = NULL;
		copy->use_text = NULL;
		copy->use_len = 0;
		copy->hnext = copy->next_in_scope = NULL;
		fn->symvars[i].sym = copy;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		fn->blocks[b].label = NULL;
}
