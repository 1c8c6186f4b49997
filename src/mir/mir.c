/* Machine IR utilities: construction, printing and the invariant checker.
 * Printing spells physical instructions through amd_print (LLVM syntax) and virtual
 * registers as %sN / %vN (with [lo:hi] for sub-registers).  O(instructions). */
#include <stdio.h>
#include <string.h>

#include "mir/mir.h"

void mir_function_init(struct mir_function *fn, struct pa_arena *arena, const char *name,
                       const struct amd_target *target, unsigned wave_size)
{
	memset(fn, 0, sizeof *fn);
	fn->arena = arena;
	fn->name = name;
	fn->target = target;
	fn->wave_size = wave_size;
	fn->max_vgprs =
	        target->info->addressable_vgprs > 256 ? 256 : target->info->addressable_vgprs;
	fn->max_sgprs = target->info->addressable_sgprs;
}

void mir_compact(struct mir_function *fn, struct pa_arena *dst)
{
	struct mir_block *blocks = PA_NEW_ARRAY(dst, struct mir_block, fn->nblocks + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *ob = &fn->blocks[b];
		blocks[b] = *ob;
		blocks[b].insns = PA_NEW_ARRAY(dst, struct mir_insn, ob->ninsns + 1);
		blocks[b].cap = ob->ninsns + 1;
		if (ob->ninsns)
			memcpy(blocks[b].insns, ob->insns, ob->ninsns * sizeof *ob->insns);
	}
	fn->blocks = blocks;
	fn->blocks_cap = fn->nblocks + 1;
	struct mir_vreg *vregs = PA_NEW_ARRAY(dst, struct mir_vreg, fn->nvregs + 1);
	if (fn->nvregs)
		memcpy(vregs, fn->vregs, fn->nvregs * sizeof *vregs);
	fn->vregs = vregs;
	fn->vregs_cap = fn->nvregs + 1;
	struct mir_reloc *relocs = PA_NEW_ARRAY(dst, struct mir_reloc, fn->nrelocs + 1);
	for (uint32_t i = 0; i < fn->nrelocs; i++) {
		relocs[i] = fn->relocs[i];
		relocs[i].symbol =
		        pa_arena_strndup(dst, fn->relocs[i].symbol, strlen(fn->relocs[i].symbol));
	}
	fn->relocs = relocs;
	fn->relocs_cap = fn->nrelocs + 1;
	if (fn->name)
		fn->name = pa_arena_strndup(dst, fn->name, strlen(fn->name));
	fn->arena = dst;
}

/* A block rewritten through a staging array as large as this (instructions) takes the array
 * itself; a smaller one a copy of the exact size. */
enum { TAKE_STAGING_MIN = 4096 };

void mir_take_staging(struct mir_function *fn, uint32_t b, struct mir_insn **staging, uint32_t *cap,
                      uint32_t n)
{
	struct mir_block *bl = &fn->blocks[b];
	struct mir_insn *old = bl->insns;
	size_t old_bytes = (size_t)bl->cap * sizeof *old;
	if (n >= TAKE_STAGING_MIN) {
		bl->insns = *staging;
		bl->cap = *cap;
		*staging = NULL;
		*cap = 0;
	} else {
		bl->insns = PA_NEW_ARRAY(fn->arena, struct mir_insn, n + 1);
		if (n)
			memcpy(bl->insns, *staging, n * sizeof *bl->insns);
		bl->cap = n;
	}
	bl->ninsns = n;
	pa_arena_release(old, old_bytes);
}

struct mir_opnd mir_reloc(struct mir_function *fn, const char *symbol, enum mir_reloc_kind kind,
                          int64_t addend)
{
	fn->relocs = pa_arena_grow(fn->arena, fn->relocs, &fn->relocs_cap, fn->nrelocs + 1,
	                           sizeof *fn->relocs);
	fn->relocs[fn->nrelocs] = (struct mir_reloc){symbol, (uint8_t)kind, addend};
	return (struct mir_opnd){.kind = MIR_RELOC, .v = fn->nrelocs++};
}

/* Grows an arena-backed array to hold at least need elements. */
uint32_t mir_new_block(struct mir_function *fn)
{
	fn->blocks = pa_arena_grow(fn->arena, fn->blocks, &fn->blocks_cap, fn->nblocks + 1,
	                           sizeof *fn->blocks);
	memset(&fn->blocks[fn->nblocks], 0, sizeof fn->blocks[0]);
	return fn->nblocks++;
}

uint32_t mir_new_vreg(struct mir_function *fn, unsigned file, unsigned size, unsigned align)
{
	fn->vregs = pa_arena_grow(fn->arena, fn->vregs, &fn->vregs_cap, fn->nvregs + 1,
	                          sizeof *fn->vregs);
	fn->vregs[fn->nvregs] = (struct mir_vreg){
	        .file = (uint8_t)file, .size = (uint8_t)size, .align = (uint8_t)align, .phys = -1};
	return fn->nvregs++;
}

struct mir_insn *mir_insert(struct mir_function *fn, uint32_t b, uint32_t pos,
                            const struct mir_insn *in)
{
	struct mir_block *bl = &fn->blocks[b];
	bl->insns =
	        pa_arena_grow(fn->arena, bl->insns, &bl->cap, bl->ninsns + 1, sizeof *bl->insns);
	memmove(&bl->insns[pos + 1], &bl->insns[pos], (bl->ninsns - pos) * sizeof *bl->insns);
	bl->insns[pos] = *in;
	bl->ninsns++;
	return &bl->insns[pos];
}

struct mir_insn *mir_append(struct mir_function *fn, uint32_t b, const struct mir_insn *in)
{
	return mir_insert(fn, b, fn->blocks[b].ninsns, in);
}

struct mir_insn mir_make(unsigned op, unsigned nopnds, const struct mir_opnd *ops)
{
	struct mir_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.nopnds = (uint8_t)nopnds;
	for (unsigned i = 0; i < nopnds && i < AMD_MAX_OPNDS; i++)
		in.opnds[i] = ops[i];
	return in;
}

bool mir_is_terminator(const struct mir_insn *in)
{
	if (in->op >= AMD_NUM_OPCODES)
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if (in->op == AMD_OP_S_CALL_B64) /* a call returns to the next instruction */
		return false;
	return (row->flags & AMD_F_BRANCH) || in->op == AMD_OP_S_ENDPGM ||
	       in->op == AMD_OP_S_SETPC_B64;
}

static void print_opnd(FILE *out, const struct mir_function *fn, const struct mir_opnd *o)
{
	switch (o->kind) {
	case MIR_VREG: {
		char f = fn->vregs[o->v].file == MIR_SGPR ? 's' : 'v';
		if (o->sub == 0 && o->width == fn->vregs[o->v].size)
			fprintf(out, "%%%c%u", f, o->v);
		else
			fprintf(out, "%%%c%u[%u:%u]", f, o->v, o->sub, o->sub + o->width - 1);
		break;
	}
	case MIR_SGPR:
	case MIR_VGPR: {
		char f = o->kind == MIR_SGPR ? 's' : 'v';
		if (o->width <= 1)
			fprintf(out, "%c%u", f, o->v);
		else
			fprintf(out, "%c[%u:%u]", f, o->v, o->v + o->width - 1);
		break;
	}
	case MIR_SPECIAL:
		fprintf(out, "%s", amd_special_name(o->v, o->width));
		break;
	case MIR_IMM:
		fprintf(out, "0x%x", o->v);
		break;
	case MIR_BLOCK:
		fprintf(out, "bb%u", o->v);
		break;
	case MIR_OFF:
		fprintf(out, "off");
		break;
	case MIR_RELOC:
		fprintf(out, "%s@rel32@%s", fn->relocs[o->v].symbol,
		        fn->relocs[o->v].kind == MIR_RELOC_REL32_LO ? "lo" : "hi");
		break;
	default:
		fprintf(out, "<none>");
	}
}

static void print_insn(FILE *out, const struct mir_function *fn, const struct mir_insn *in)
{
	unsigned count;
	const struct amd_isa_op *rows = amd_isa_table(&count);
	const char *name = in->op == MIR_COPY ? "COPY" : in->op < count ? rows[in->op].name : "?";
	fprintf(out, "\t%s%s", name, (in->flags & MIR_IF_PARALLEL) ? ".par" : "");
	for (unsigned i = 0; i < in->nopnds; i++) {
		fputs(i ? ", " : " ", out);
		print_opnd(out, fn, &in->opnds[i]);
	}
	if (in->offset)
		fprintf(out, " offset:%d", in->offset);
	if (in->cpol)
		fprintf(out, " cpol:%u", in->cpol);
	if (in->neg)
		fprintf(out, " neg:%#x", in->neg);
	if (in->abs)
		fprintf(out, " abs:%#x", in->abs);
	if (in->op_sel)
		fprintf(out, " op_sel:%#x", in->op_sel);
	if (in->op_sel_hi_set)
		fprintf(out, " op_sel_hi:%#x", in->op_sel_hi);
	if (in->neg_hi)
		fprintf(out, " neg_hi:%#x", in->neg_hi);
	if (in->rtn)
		fprintf(out, " rtn");
	if (in->dpp)
		fprintf(out, " dpp_ctrl:%#x%s", in->dpp_ctrl, in->bound_ctrl ? " bound_ctrl" : "");
	if (in->sdwa)
		fprintf(out, " sdwa_sel:[%u,%u] sext:%#x", in->sdwa_sel[0], in->sdwa_sel[1],
		        in->sdwa_sext);
	fputc('\n', out);
}

void mir_print(FILE *out, const struct mir_function *fn)
{
	fprintf(out, "mir %s (wave%u, %u blocks, %u vregs)\n", fn->name ? fn->name : "?",
	        fn->wave_size, fn->nblocks, fn->nvregs);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		fprintf(out, "bb%u:", b);
		if (bl->nsucc)
			fprintf(out, " ; succ");
		for (unsigned s = 0; s < bl->nsucc; s++)
			fprintf(out, " bb%u", bl->succ[s]);
		if (bl->comment)
			fprintf(out, " ; %s", bl->comment);
		fputc('\n', out);
		for (uint32_t i = 0; i < bl->ninsns; i++)
			print_insn(out, fn, &bl->insns[i]);
	}
}

static bool fail(struct pa_diag *d, const struct mir_function *fn, uint32_t b, uint32_t i,
                 const char *what)
{
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "internal: MIR of '%s' invalid at bb%u instruction %u: %s", fn->name, b, i,
	               what);
	return false;
}

bool mir_verify(const struct mir_function *fn, bool after_ra, struct pa_diag *d)
{
	unsigned count;
	amd_isa_table(&count);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		const struct mir_block *bl = &fn->blocks[b];
		for (unsigned s = 0; s < bl->nsucc; s++)
			if (bl->succ[s] >= fn->nblocks)
				return fail(d, fn, b, 0, "successor out of range");
		for (uint32_t i = 0; i < bl->ninsns; i++) {
			const struct mir_insn *in = &bl->insns[i];
			if (in->op >= MIR_NUM_OPS)
				return fail(d, fn, b, i, "bad opcode");
			if (mir_is_terminator(in) && i + 1 != bl->ninsns)
				return fail(d, fn, b, i, "branch before the end of its block");
			for (unsigned k = 0; k < in->nopnds; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind == MIR_VREG && (after_ra || o->v >= fn->nvregs))
					return fail(d, fn, b, i,
					            "virtual register after allocation");
				if (o->kind == MIR_VREG && o->sub + o->width > fn->vregs[o->v].size)
					return fail(d, fn, b, i,
					            "sub-register outside its register");
				if (o->kind == MIR_BLOCK && o->v >= fn->nblocks)
					return fail(d, fn, b, i, "branch target out of range");
				if (o->kind == MIR_RELOC && o->v >= fn->nrelocs)
					return fail(d, fn, b, i, "relocation out of range");
			}
			if (in->op == MIR_COPY && in->opnds[0].width != in->opnds[1].width &&
			    in->opnds[1].kind != MIR_IMM)
				return fail(d, fn, b, i, "COPY of different widths");
		}
	}
	return true;
}
