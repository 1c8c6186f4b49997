/* The listing (--dump-sched, -S): blocks as labels, one instruction per line in LLVM's
 * syntax (amd_print) with branch targets as labels, and a maxas-style control column in a
 * comment: the counters an instruction increments, the registers a wait retires, the
 * hazard a nop or depctr covers.  The notes are recomputed here from the final code by the
 * same analyses the passes use (waitcnt.c, hazards.c), so the listing explains exactly the
 * code that is emitted.  as_assembly: only what llvm-mc-19 accepts, with `//` comments.
 *   requires: physical operands.  breaks: nothing.  O(instructions x slots). */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

static const struct mir_opnd *label_opnd(const struct mir_insn *in)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_BLOCK)
			return &in->opnds[k];
	return NULL;
}

/* The placeholder literal of a MIR_RELOC operand replaced by `sym@rel32@lo+ADDEND`, as
 * llvm-mc-19 reads it (`addr`: the instruction's byte address). */
static void reloc_text(const struct mir_function *fn, const struct mir_insn *in, uint32_t addr,
                       uint32_t anchor_end, char *buf, size_t len)
{
	const struct mir_reloc *r = &fn->relocs[sched_reloc_opnd(in)->v];
	char lit[16];
	snprintf(lit, sizeof lit, "0x%x", SCHED_RELOC_PLACEHOLDER);
	char *at = strstr(buf, lit);
	if (!at)
		return;
	char tail[256];
	snprintf(tail, sizeof tail, "%s", at + strlen(lit));
	unsigned bytes = sched_insn_bytes(fn, in);
	int64_t addend = sched_reloc_addend(r, addr + bytes - 4, anchor_end);
	snprintf(at, len - (size_t)(at - buf), "%s@rel32@%s%+lld%s", r->symbol,
	         r->kind == MIR_RELOC_REL32_LO ? "lo" : "hi", (long long)addend, tail);
}

/* The instruction text; a branch names its target block's label. */
static void insn_text(const struct mir_function *fn, const struct mir_insn *in, char *buf,
                      size_t len)
{
	const struct amd_isa_op *row = sched_row(in);
	const struct mir_opnd *label = label_opnd(in);
	if (!row) {
		snprintf(buf, len, "<pseudo %u>", in->op);
		return;
	}
	if (label && in->opnds[0].kind == MIR_SGPR && label != &in->opnds[0]) { /* s_call_b64 */
		snprintf(buf, len, "%s s[%u:%u], .LBB_%s_%u", row->gen_name[fn->target->info->gen],
		         in->opnds[0].v, in->opnds[0].v + 1, fn->name ? fn->name : "f", label->v);
		return;
	}
	if (label) {
		snprintf(buf, len, "%s .LBB_%s_%u", row->gen_name[fn->target->info->gen],
		         fn->name ? fn->name : "f", label->v);
		return;
	}
	struct amd_inst inst;
	sched_to_amd_inst(fn, in, 0, &inst);
	amd_print(fn->target, &inst, buf, len);
}

/* Blocks some instruction names: branch targets and (s_call_b64) callee entries. */
static bool *branch_targets(const struct mir_function *fn, struct pa_arena *a)
{
	bool *t = pa_arena_array(a, fn->nblocks + 1, sizeof *t, 1);
	memset(t, 0, fn->nblocks + 1);
	for (uint32_t p = 0; p < fn->nblocks; p++)
		for (uint32_t i = 0; i < fn->blocks[p].ninsns; i++) {
			const struct mir_opnd *l = label_opnd(&fn->blocks[p].insns[i]);
			if (l && l->v < fn->nblocks)
				t[l->v] = true;
		}
	return t;
}

static void block_header(FILE *out, const struct mir_function *fn, uint32_t b, bool as_assembly,
                         const bool *is_target)
{
	const struct mir_block *bl = &fn->blocks[b];
	const char *name = fn->name ? fn->name : "f";
	if (as_assembly && !is_target[b]) {
		fprintf(out, "// bb%u", b);
	} else {
		fprintf(out, ".LBB_%s_%u:", name, b);
		if (bl->nsucc || bl->loop_depth || bl->comment)
			fputs(as_assembly ? " //" : " ;", out);
	}
	if (bl->nsucc) {
		fputs(" succ", out);
		for (unsigned s = 0; s < bl->nsucc; s++)
			fprintf(out, " bb%u", bl->succ[s]);
	}
	if (bl->loop_depth)
		fprintf(out, " loop depth %u", bl->loop_depth);
	if (bl->comment)
		fprintf(out, " %s", bl->comment);
	fputc('\n', out);
}

void sched_dump(FILE *out, const struct mir_function *fn, bool as_assembly)
{
	struct pa_arena arena;
	pa_arena_init(&arena);
	const char **waits = sched_waitcnt_notes(fn, &arena);
	const char **hazards = sched_hazard_notes(fn, &arena);
	const char *cmt = as_assembly ? "//" : ";";
	fprintf(out, "%s %s: %s wave%u\n", cmt, fn->name ? fn->name : "?", fn->target->info->name,
	        fn->wave_size);
	uint32_t at = 0, addr = 0, anchor_end = fn->nrelocs ? sched_anchor_end(fn) : ~0u;
	const bool *is_target = branch_targets(fn, &arena);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		block_header(out, fn, b, as_assembly, is_target);
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, at++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			char text[256];
			insn_text(fn, in, text, sizeof text);
			if (in->flags & MIR_IF_PC_ANCHOR) /* the last one before a literal counts */
				anchor_end = addr + sched_insn_bytes(fn, in);
			if (sched_reloc_opnd(in))
				reloc_text(fn, in, addr, anchor_end, text, sizeof text);
			addr += sched_insn_bytes(fn, in);
			const char *note = hazards[at] ? hazards[at] : waits[at];
			if (note || in->src_line) {
				fprintf(out, "\t%-56s %s", text, cmt);
				if (note)
					fprintf(out, " %s", note);
				if (in->src_line)
					fprintf(out, " (line %u)", in->src_line);
			} else {
				fprintf(out, "\t%s", text);
			}
			fputc('\n', out);
		}
	}
	pa_arena_free(&arena);
}
