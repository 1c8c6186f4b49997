/* Emission: machine IR after register allocation and the control-code passes -> bytes.
 *
 * Each instruction becomes a struct amd_inst (row, operands in the row's order, modifiers)
 * and goes through amd_encode.  Branch offsets (SOPP label operands: signed 16-bit dword
 * offsets from the next instruction to the target block's first instruction) need the
 * final size of every instruction, and literals make sizes depend on values, so emission
 * runs in two passes: the first encodes every instruction with a zero offset to learn its
 * size (a branch's size does not depend on its offset) and records block addresses and the
 * encodings; the second copies those and encodes again only the branches, with offsets.
 * A branch that does not fit in 16 bits is an error (sched_relax, relax.c, rewrote those of
 * kernels into long branches before).  A MIR_RELOC literal is encoded as a placeholder,
 * then zeroed and recorded as a relocation whose addend is its distance from the
 * s_getpc_b64 anchor (sched_reloc_addend).  Each change of PTX line
 * (mir_insn.src_line) is recorded with its address (sched_code.lines, for -lineinfo).
 *   requires: every operand physical (mir_verify(after_ra)); no COPY.
 *   breaks: nothing (fn is read-only).  O(instructions). */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

static struct amd_val to_val(const struct mir_opnd *o, int32_t branch_offset)
{
	struct amd_val v = {0};
	switch (o->kind) {
	case MIR_SGPR:
		v.kind = AMD_V_SGPR, v.reg = (uint16_t)o->v, v.width = o->width;
		break;
	case MIR_VGPR:
		v.kind = AMD_V_VGPR, v.reg = (uint16_t)o->v, v.width = o->width;
		break;
	case MIR_SPECIAL:
		v.kind = AMD_V_SPECIAL, v.reg = (uint16_t)o->v, v.width = o->width;
		break;
	case MIR_IMM:
		v.kind = AMD_V_IMM, v.imm = o->v;
		break;
	case MIR_BLOCK:
		v.kind = AMD_V_IMM, v.imm = (uint32_t)branch_offset;
		break;
	case MIR_OFF:
		v.kind = AMD_V_OFF;
		break;
	case MIR_TTMP:
		v.kind = AMD_V_TTMP, v.reg = (uint16_t)o->v, v.width = o->width;
		break;
	case MIR_RELOC:
		v.kind = AMD_V_IMM, v.imm = SCHED_RELOC_PLACEHOLDER;
		break;
	default:
		v.kind = AMD_V_NONE;
		break;
	}
	return v;
}

void sched_to_amd_inst(const struct mir_function *fn, const struct mir_insn *in,
                       int32_t branch_offset, struct amd_inst *out)
{
	(void)fn;
	memset(out, 0, sizeof *out);
	out->row = in->op;
	if (in->flags & MIR_IF_DUAL) { /* VOPD: X's operands, then Y's */
		unsigned nx = amd_isa_rows[in->op].nopnds;
		out->dual = true, out->row_y = in->op_y;
		for (unsigned i = 0; i < in->nopnds && i < AMD_MAX_OPNDS; i++)
			*(i < nx ? &out->ops[i] : &out->ops_y[i - nx]) = to_val(&in->opnds[i], 0);
		return;
	}
	unsigned base = sched_row_base(in);
	for (unsigned i = base; i < in->nopnds && i - base < AMD_MAX_OPNDS; i++)
		out->ops[i - base] = to_val(&in->opnds[i], branch_offset);
	int rtn = sched_rtn_opnd(in);
	if (rtn >= 0)
		out->rtn = to_val(&in->opnds[rtn], 0);
	out->enc = in->enc;
	out->neg = in->neg;
	out->abs = in->abs;
	out->neg_hi = in->neg_hi;
	out->op_sel = in->op_sel;
	out->op_sel_hi = in->op_sel_hi, out->op_sel_hi_set = in->op_sel_hi_set;
	out->omod = in->omod;
	out->clamp = in->clamp;
	out->offset = in->offset;
	out->offset1 = in->offset1;
	out->cpol = in->cpol;
	out->dmask = in->dmask, out->dim = in->dim;
	out->idxen = in->idxen;
	const struct amd_isa_op *row = sched_row(in);
	if (row && (row->flags & AMD_F_OPSEL_FI_BC)) /* v_permlane16/x16: op_sel:[fi,bound_ctrl] */
		out->op_sel = in->bound_ctrl ? 2 : 0;
	if (in->sdwa) {
		out->sdwa = true, out->dst_sel = 6, out->dst_unused = 0; /* DWORD, UNUSED_PAD */
		out->src_sel[0] = in->sdwa_sel[0], out->src_sel[1] = in->sdwa_sel[1];
		out->sext = in->sdwa_sext;
	}
	if (in->dpp) {
		out->dpp = 1, out->dpp_ctrl = in->dpp_ctrl;
		out->row_mask = out->bank_mask = 0xf;
		out->bound_ctrl = in->bound_ctrl;
	}
}

static bool emit_error(struct pa_diag *d, const struct mir_function *fn, uint32_t b, uint32_t i,
                       const struct mir_insn *in, const char *why)
{
	const struct amd_isa_op *row = sched_row(in);
	char line[32] = "";
	if (in->src_line)
		snprintf(line, sizeof line, ", PTX line %u", in->src_line);
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "cannot encode '%s' in function '%s' (bb%u instruction %u%s): %s",
	               row ? row->name : (in->op == MIR_COPY ? "COPY" : "?"),
	               fn->name ? fn->name : "?", b, i, line, why);
	return false;
}

/* Encodes one instruction; the number of dwords or 0 with a diagnostic. */
static unsigned encode_one(const struct mir_function *fn, uint32_t b, uint32_t i,
                           int32_t branch_offset, uint32_t words[4], struct pa_diag *d)
{
	const struct mir_insn *in = &fn->blocks[b].insns[i];
	if (!sched_row(in)) {
		emit_error(d, fn, b, i, in, "pseudo-instruction left after register allocation");
		return 0;
	}
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG) {
			emit_error(d, fn, b, i, in, "virtual register left after allocation");
			return 0;
		}
	struct amd_inst inst;
	sched_to_amd_inst(fn, in, branch_offset, &inst);
	char err[200];
	unsigned n = amd_encode(fn->target, &inst, words, err, sizeof err);
	if (!n)
		emit_error(d, fn, b, i, in, err);
	return n;
}

static const struct mir_opnd *branch_target(const struct mir_insn *in)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_BLOCK)
			return &in->opnds[k];
	return NULL;
}

const struct mir_opnd *sched_reloc_opnd(const struct mir_insn *in)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_RELOC)
			return &in->opnds[k];
	return NULL;
}

unsigned sched_insn_bytes(const struct mir_function *fn, const struct mir_insn *in)
{
	if (!sched_row(in))
		return 0;
	struct amd_inst inst;
	sched_to_amd_inst(fn, in, 0, &inst);
	uint32_t words[4];
	char err[200];
	return 4 * amd_encode(fn->target, &inst, words, err, sizeof err);
}

uint32_t sched_anchor_end(const struct mir_function *fn)
{
	uint32_t addr = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			addr += sched_insn_bytes(fn, in);
			if (in->flags & MIR_IF_PC_ANCHOR)
				return addr;
		}
	return ~0u;
}

/* Records the relocation of the literal (the last of the n words at byte addr). */
static bool add_reloc(const struct mir_function *fn, uint32_t b, uint32_t i, uint32_t addr,
                      uint32_t *words, unsigned n, uint32_t anchor_end, struct sched_code *out,
                      struct pa_arena *arena, struct pa_diag *d)
{
	const struct mir_insn *in = &fn->blocks[b].insns[i];
	const struct mir_reloc *r = &fn->relocs[sched_reloc_opnd(in)->v];
	if (n < 2 || words[n - 1] != SCHED_RELOC_PLACEHOLDER || anchor_end == ~0u)
		return emit_error(d, fn, b, i, in,
		                  anchor_end == ~0u ? "relocated literal without an s_getpc anchor"
		                                    : "relocated operand not encoded as a literal");
	words[n - 1] = 0;
	uint32_t at = addr + 4 * (n - 1);
	out->relocs = pa_arena_grow(arena, out->relocs, &out->relocs_cap, out->nrelocs + 1,
	                            sizeof *out->relocs);
	out->relocs[out->nrelocs++] =
	        (struct sched_reloc){at, r->kind, r->symbol, sched_reloc_addend(r, at, anchor_end)};
	return true;
}

/* Records that the code from addr on comes from PTX line src_line. */
static void add_line(struct sched_code *out, struct pa_arena *arena, uint32_t addr,
                     uint32_t src_line)
{
	out->lines = pa_arena_grow(arena, out->lines, &out->lines_cap, out->nlines + 1,
	                           sizeof *out->lines);
	out->lines[out->nlines++] = (struct sched_line){addr, src_line};
}

/* Pass 1's result: every instruction encoded with a zero branch offset, in code order
 * (`words`, nwords[k] of them for the k-th instruction of the function).  Pass 2 copies
 * them and encodes again only the branches: encoding was a tenth of a large kernel's
 * back end when every instruction was encoded twice. */
struct pass1 {
	uint32_t *words;
	uint8_t *nwords;
	uint32_t cap;
};

/* Pass 1: sizes; block_addr[b] = byte address of block b, block_addr[nblocks] = end. */
static bool layout(const struct mir_function *fn, uint32_t *block_addr, struct pass1 *p1,
                   struct pa_arena *arena, struct pa_diag *d)
{
	uint32_t addr = 0, total = 0, k = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		total += fn->blocks[b].ninsns;
	p1->nwords = pa_arena_array(arena, total ? total : 1, sizeof *p1->nwords, 1);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		block_addr[b] = addr;
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, k++) {
			uint32_t words[4];
			unsigned n = encode_one(fn, b, i, 0, words, d);
			if (!n)
				return false;
			p1->words = pa_arena_grow(arena, p1->words, &p1->cap, addr / 4 + n,
			                          sizeof *p1->words);
			memcpy(p1->words + addr / 4, words, 4 * n);
			p1->nwords[k] = (uint8_t)n;
			addr += 4 * n;
		}
	}
	block_addr[fn->nblocks] = addr;
	return true;
}

bool sched_emit(const struct mir_function *fn, struct pa_arena *arena, struct sched_code *out,
                struct pa_diag *d)
{
	uint32_t *block_addr = pa_arena_array(arena, fn->nblocks + 1, sizeof *block_addr, 4);
	struct pass1 p1 = {0};
	if (!layout(fn, block_addr, &p1, arena, d))
		return false;
	uint32_t size = block_addr[fn->nblocks];
	uint8_t *code = pa_arena_alloc(arena, size ? size : 4, 16);
	uint32_t addr = 0, anchor_end = fn->nrelocs ? sched_anchor_end(fn) : ~0u, k = 0;
	memset(out, 0, sizeof *out);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++, k++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			const struct mir_opnd *target = branch_target(in);
			uint32_t words[4];
			unsigned n = p1.nwords[k];
			memcpy(words, p1.words + addr / 4, 4 * n);
			if (target && target->v >= fn->nblocks)
				return emit_error(d, fn, b, i, in,
				                  "branch to a block that does not exist");
			if (target) {
				int64_t next = (int64_t)addr + 4 * n;
				int64_t delta = ((int64_t)block_addr[target->v] - next) / 4;
				if (delta < -32768 || delta > 32767)
					return emit_error(
					        d, fn, b, i, in,
					        "branch target out of the 16-bit range "
					        "(long branches are made only in kernels)");
				n = encode_one(fn, b, i, (int32_t)delta, words, d);
				if (!n)
					return false;
			}
			if (in->flags & MIR_IF_PC_ANCHOR) /* several after isel_link_calls: the
			                                   * last one before a literal counts */
				anchor_end = addr + 4 * n;
			if (sched_reloc_opnd(in) &&
			    !add_reloc(fn, b, i, addr, words, n, anchor_end, out, arena, d))
				return false;
			if (!out->nlines || out->lines[out->nlines - 1].src_line != in->src_line)
				add_line(out, arena, addr, in->src_line);
			for (unsigned w = 0; w < n; w++, addr += 4)
				for (unsigned byte = 0; byte < 4; byte++)
					code[addr + byte] = (uint8_t)(words[w] >> (8 * byte));
		}
	}
	out->code = code;
	out->size = size;
	return true;
}
