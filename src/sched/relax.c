/* Branch relaxation: SOPP branches whose target is beyond their signed 16-bit dword offset
 * (about +-128 KiB) become long branches through the PC, as LLVM's AMDGPU branch
 * relaxation does:
 *     s_branch L   ->   s_getpc_b64 s[N:N+1]
 *                       s_add_u32 sN, sN, lo(L - end of s_getpc)     (a 32-bit literal)
 *                       s_addc_u32 sN+1, sN+1, hi(L - end of s_getpc) (0 or -1: inline)
 *                       s_setpc_b64 s[N:N+1]
 *     s_cbranch_X L ->  s_cbranch_notX 5 (over the four above, 5 dwords) + the four above.
 * Algorithm: lay the code out (sizes with branch offset 0; a long sequence is 20 bytes),
 * expand every branch found out of range, and repeat until a layout finds none (expansion
 * only grows the code, so this reaches a fixed point in a few rounds; a branch once
 * expanded stays expanded).  Meanwhile the two adds carry the target as a MIR_BLOCK
 * operand; the last round replaces them with the literal offsets of the final layout, so
 * sched_emit and the -S listing see plain immediates (llvm-mc-19 reassembles them to the
 * same bytes).  The skipping branch carries its offset as a plain immediate too.
 * The SGPR pair: s[N:N+1] with N the first even SGPR above every SGPR the function (and
 * the callees linked into it) names, so it is free at every branch by construction; no
 * save/restore is needed.  fn->num_sgprs grows to N + 2 (the descriptor's count).  When
 * no such pair fits in the target's addressable SGPRs the branch is an error.  s_add_u32
 * writes SCC: a target block that reads SCC before writing it is an error, not wrong code
 * (selected code compares next to its branch).  Hazards: s_setpc_b64 reading SGPRs an SALU
 * just wrote needs no wait states on gfx9-12 (SALU results forward to SALU; LLVM emits
 * this very sequence), and amdsim's strict mode checks it.
 *   requires: physical operands, after sched_hazards (final instructions).
 *   breaks: nothing.  O(rounds x instructions); rounds are few; a function where no branch
 *   can be out of reach (instructions between branch and target x 16 bytes) is not laid
 *   out at all. */
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_int.h"

enum {
	LONG_SKIP_DWORDS = 5,
	MAX_ROUNDS = 64,
	MAX_INSN_BYTES = 16,          /* amd_encode: at most 4 dwords */
	SHORT_REACH_BYTES = 32767 * 4 /* what a 16-bit dword offset reaches at least */
};

/* The condition-inverted opcode of a conditional branch, 0 for s_branch, -1: none. */
static int inverse(unsigned op)
{
	switch (op) {
	case AMD_OP_S_BRANCH:
		return 0;
	case AMD_OP_S_CBRANCH_SCC0:
		return AMD_OP_S_CBRANCH_SCC1;
	case AMD_OP_S_CBRANCH_SCC1:
		return AMD_OP_S_CBRANCH_SCC0;
	case AMD_OP_S_CBRANCH_VCCZ:
		return AMD_OP_S_CBRANCH_VCCNZ;
	case AMD_OP_S_CBRANCH_VCCNZ:
		return AMD_OP_S_CBRANCH_VCCZ;
	case AMD_OP_S_CBRANCH_EXECZ:
		return AMD_OP_S_CBRANCH_EXECNZ;
	case AMD_OP_S_CBRANCH_EXECNZ:
		return AMD_OP_S_CBRANCH_EXECZ;
	default:
		return -1;
	}
}

/* The add of a long sequence still waiting for its offset (opnds[2] names the block). */
static bool is_pending_add(const struct mir_insn *in)
{
	return (in->op == AMD_OP_S_ADD_U32 || in->op == AMD_OP_S_ADDC_U32) && in->nopnds == 3 &&
	       in->opnds[2].kind == MIR_BLOCK;
}

/* The SOPP branch operand of `in` (NULL: not a branch to a block). */
static const struct mir_opnd *branch_label(const struct mir_insn *in)
{
	if (inverse(in->op) < 0 || in->nopnds < 1 || in->opnds[0].kind != MIR_BLOCK)
		return NULL;
	return &in->opnds[0];
}

static unsigned insn_bytes(const struct mir_function *fn, const struct mir_insn *in)
{
	if (is_pending_add(in))
		return in->op == AMD_OP_S_ADD_U32 ? 8 : 4;
	return sched_insn_bytes(fn, in);
}

/* Block start addresses (block_addr[nblocks] = end); false if something cannot encode
 * (sched_emit reports it). */
static bool layout(const struct mir_function *fn, uint32_t *block_addr)
{
	uint32_t addr = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		block_addr[b] = addr;
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			unsigned n = insn_bytes(fn, &fn->blocks[b].insns[i]);
			if (!n)
				return false;
			addr += n;
		}
	}
	block_addr[fn->nblocks] = addr;
	return true;
}

static bool relax_error(struct pa_diag *d, const struct mir_function *fn, uint32_t b,
                        const struct mir_insn *in, const char *why)
{
	char line[32] = "";
	if (in->src_line)
		snprintf(line, sizeof line, ", PTX line %u", in->src_line);
	pa_diag_report(d, PA_DIAG_ERROR, NULL, 0, 0, NULL, 0,
	               "cannot relax a branch in function '%s' (bb%u%s): %s",
	               fn->name ? fn->name : "?", b, line, why);
	return false;
}

/* True when block t (past empty blocks it falls into) reads SCC before writing it
 * (s_add_u32 of a long branch clobbers it). */
static bool reads_scc_first(const struct mir_function *fn, uint32_t t)
{
	struct sched_range scc = {SCHED_SLOT_SCC, 1}, r[SCHED_MAX_RANGES];
	while (t + 1 < fn->nblocks && fn->blocks[t].ninsns == 0)
		t++;
	for (uint32_t i = 0; i < fn->blocks[t].ninsns; i++) {
		const struct mir_insn *in = &fn->blocks[t].insns[i];
		unsigned n = sched_insn_uses(fn, in, r);
		if (sched_ranges_overlap(r, n, &scc, 1))
			return true;
		n = sched_insn_defs(fn, in, r);
		if (sched_ranges_overlap(r, n, &scc, 1))
			return false;
	}
	return false;
}

/* The pair's first SGPR: even, above every SGPR named in fn; ~0u when none fits. */
static unsigned free_pair(const struct mir_function *fn)
{
	unsigned top = fn->num_sgprs;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++)
				if (in->opnds[k].kind == MIR_SGPR) {
					unsigned w = in->opnds[k].width ? in->opnds[k].width : 1;
					if (in->opnds[k].v + w > top)
						top = in->opnds[k].v + w;
				}
		}
	top = (top + 1) & ~1u;
	return top + 2 <= fn->target->info->addressable_sgprs ? top : ~0u;
}

/* Replaces the branch at (b, i) by the long sequence to its target. */
static void expand(struct mir_function *fn, uint32_t b, uint32_t i, unsigned pair)
{
	struct mir_insn *in = &fn->blocks[b].insns[i];
	uint32_t target = in->opnds[0].v;
	int inv = inverse(in->op);
	uint32_t src_line = in->src_line;
	struct mir_opnd pc = mir_sgpr(pair, 2), lo = mir_sgpr(pair, 1), hi = mir_sgpr(pair + 1, 1);
	struct mir_opnd add[3] = {lo, lo, mir_block_ref(target)};
	struct mir_opnd addc[3] = {hi, hi, mir_block_ref(target)};
	struct mir_insn seq[5];
	unsigned n = 0;
	if (inv > 0) {
		struct mir_opnd skip = mir_imm(LONG_SKIP_DWORDS);
		seq[n++] = mir_make((unsigned)inv, 1, &skip);
	}
	seq[n++] = mir_make(AMD_OP_S_GETPC_B64, 1, &pc);
	seq[n++] = mir_make(AMD_OP_S_ADD_U32, 3, add);
	seq[n++] = mir_make(AMD_OP_S_ADDC_U32, 3, addc);
	seq[n++] = mir_make(AMD_OP_S_SETPC_B64, 1, &pc);
	fn->blocks[b].insns[i] = seq[0];
	fn->blocks[b].insns[i].src_line = src_line;
	for (unsigned k = 1; k < n; k++)
		mir_insert(fn, b, i + k, &seq[k])->src_line = src_line;
}

/* One round: expands the out-of-range branches; returns how many (-1: error). */
static int expand_round(struct mir_function *fn, const uint32_t *block_addr, unsigned *pair,
                        struct pa_diag *d)
{
	int expanded = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		uint32_t addr = block_addr[b]; /* (this round's layout, before its expansions) */
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			const struct mir_opnd *label = branch_label(in);
			addr += insn_bytes(fn, in);
			if (!label || label->v >= fn->nblocks)
				continue; /* (sched_emit reports a missing block) */
			int64_t delta = ((int64_t)block_addr[label->v] - (int64_t)addr) / 4;
			if (delta >= -32768 && delta <= 32767)
				continue;
			if (*pair == ~0u && (*pair = free_pair(fn)) == ~0u)
				return relax_error(d, fn, b, in,
				                   "no SGPR pair left for a long branch"),
				       -1;
			if (reads_scc_first(fn, label->v))
				return relax_error(d, fn, b, in,
				                   "SCC is live into the long branch's target"),
				       -1;
			expand(fn, b, i, *pair);
			expanded++;
			i += inverse(fn->blocks[b].insns[i].op) > 0 ? 4 : 3;
		}
	}
	return expanded;
}

/* Gives every pending add its literal from the final layout. */
static bool finish(struct mir_function *fn, const uint32_t *block_addr, struct pa_diag *d)
{
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		uint32_t addr = block_addr[b], getpc_end = 0;
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			struct mir_insn *in = &fn->blocks[b].insns[i];
			addr += insn_bytes(fn, in);
			if (in->op == AMD_OP_S_GETPC_B64)
				getpc_end = addr;
			if (!is_pending_add(in))
				continue;
			int64_t off = (int64_t)block_addr[in->opnds[2].v] - (int64_t)getpc_end;
			unsigned want = insn_bytes(fn, in);
			in->opnds[2] = mir_imm(in->op == AMD_OP_S_ADD_U32
			                               ? (uint32_t)off
			                               : (uint32_t)((uint64_t)off >> 32));
			if (sched_insn_bytes(fn, in) != want)
				return relax_error(d, fn, b, in,
				                   "internal: long branch size changed");
		}
	}
	return true;
}

/* Whether every branch reaches its target whatever the instructions' sizes: at most
 * MAX_INSN_BYTES each, counted between the branch and the target.  Then the layout (which
 * encodes the whole function once more) could expand nothing: a large kernel whose branches
 * are all short (or that has none) skips it.  first[] is scratch for the blocks' first
 * instruction numbers. */
static bool every_branch_reaches(const struct mir_function *fn, uint64_t *first)
{
	uint64_t n = 0;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		first[b] = n;
		n += fn->blocks[b].ninsns;
	}
	if (n * MAX_INSN_BYTES <= SHORT_REACH_BYTES)
		return true;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_opnd *label = branch_label(&fn->blocks[b].insns[i]);
			if (!label || label->v >= fn->nblocks)
				continue;
			uint64_t end = first[b] + i + 1, to = first[label->v];
			if ((to > end ? to - end : end - to) * MAX_INSN_BYTES > SHORT_REACH_BYTES)
				return false;
		}
	return true;
}

bool sched_relax(struct mir_function *fn, struct pa_arena *arena, struct pa_diag *d)
{
	struct pa_arena_mark mark = pa_arena_mark(arena);
	bool reach = every_branch_reaches(fn, pa_arena_array(arena, fn->nblocks + 1, 8, 8));
	pa_arena_rewind(arena, mark);
	if (reach)
		return true;
	uint32_t *block_addr = pa_arena_array(arena, fn->nblocks + 1, sizeof *block_addr, 4);
	unsigned pair = ~0u;
	for (unsigned round = 0; round < MAX_ROUNDS; round++) {
		if (!layout(fn, block_addr))
			return true; /* (sched_emit reports the instruction) */
		int n = expand_round(fn, block_addr, &pair, d);
		if (n < 0)
			return false;
		if (n == 0) {
			if (pair != ~0u && fn->num_sgprs < pair + 2)
				fn->num_sgprs = pair + 2;
			return pair == ~0u || finish(fn, block_addr, d);
		}
	}
	struct mir_insn none = {0};
	return relax_error(d, fn, 0, &none, "internal: no fixed point");
}
