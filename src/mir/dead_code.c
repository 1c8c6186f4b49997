/* mir_remove_dead_code: empties blocks no path from the entry reaches, then deletes
 * instructions whose results nothing reads.
 *
 * Unreachable blocks: cflow.c makes, for every block with a barrier, a block after the
 * exit that a wave with an empty EXEC runs (the block's barriers only), chained to the
 * next such block; where no skip branch ever leads into the chain (every empty-EXEC path
 * ends before it), the chain is dead code after s_endpgm.  A block that no path of
 * successors (skip edges included) reaches from block 0 loses its instructions and its
 * successors: nothing can run it, and an empty block with no successors adds nothing to
 * liveness or emission.  O(blocks).
 *
 * Selection emits values that no instruction ends up reading: `mul.wide.s32` selected as
 * one v_mad_i64_i32 on the 32-bit operand leaves the operand's 64-bit sign extension
 * (v_mov_b32 + v_ashrrev_i32) unread, v_cvt_f32_f16 reading a 16-bit truncation's source
 * leaves the truncation's mask unread (sel_bits.c), a lane id computed for an operation
 * that selection folded stays behind.  The IR's clean-ups cannot see these: they appear
 * only in selection.
 *
 * An instruction is deleted when it has no effect besides its register results and
 * none of those results is ever read: it is a COPY, or a SALU/VALU/TRANS row that
 * neither touches memory nor branches nor writes EXEC, M0 or MODE implicitly (an
 * implicit VCC write always comes from an explicit vcc operand, which then is not a
 * virtual register), nor writes SCC unless it is an SALU row whose SCC a later
 * instruction overwrites before anything reads it (scc_dead_after: the s_ashr_i32 of a sign
 * extension nothing read, before an s_cmp in its block or at the top of every successor),
 * it is not the PC anchor of relocations, it has at least one
 * destination, and no dword that a destination writes (a virtual register's, or one
 * dword-range of a tuple's) is read by any instruction of the function.  Why a
 * function-wide "never read" is right although virtual registers are not SSA (several
 * definitions, partial writes of a tuple, VALU writes that keep the inactive lanes,
 * v_fmac's tied destination): a register dword that is read nowhere can make no
 * difference through any of its definitions.  Counting per dword rather than per
 * register matters for tuples built half by half: a 32-bit value zero-extended to 64
 * bits (`COPY %t[1:1], 0`) of which only %t[0:0] is ever read (hgemm_mma's LDS addresses)
 * loses the high half's v_mov_b32, which a per-register count kept.  Deleting an
 * instruction drops its reads, which can make the definitions of its sources dead in
 * turn; blocks are visited last to first and instructions bottom-up, so a chain of
 * dead values in straight-line code goes in one sweep, and sweeps repeat until one
 * deletes nothing (values that die around a loop's back edge).
 * requires: MIR on virtual registers (after isel, before allocation).
 * Complexity: O(instructions x operand dwords) per sweep; sweeps are few. */
#include "isa/isa.h"
#include "mir/mir.h"

static bool names_scc(const struct mir_insn *in)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_SPECIAL && in->opnds[k].v == AMD_SPEC_SCC)
			return true;
	return false;
}

enum scc_use { SCC_READ, SCC_KILLED, SCC_UNTOUCHED };

/* What instructions from..n of bl (those with dead[] set skipped, dead NULL: none) do first
 * to SCC: read it, overwrite it without reading, or neither. */
static enum scc_use first_scc_use(const struct mir_block *bl, uint32_t from, const bool *dead)
{
	for (uint32_t j = from; j < bl->ninsns; j++) {
		const struct mir_insn *in = &bl->insns[j];
		if (dead && dead[j])
			continue;
		if (in->op >= AMD_NUM_OPCODES) {
			if (in->op != MIR_COPY || names_scc(in))
				return SCC_READ;
			continue;
		}
		unsigned flags = amd_isa_rows[in->op].flags;
		if ((flags & AMD_F_SCC_SRC) || names_scc(in))
			return SCC_READ;
		if (flags & AMD_F_SCC_DST)
			return SCC_KILLED;
	}
	return SCC_UNTOUCHED;
}

/* Whether the SCC that instruction i of block b writes is dead: a later instruction of the
 * block (not one this sweep deletes) overwrites SCC before anything reads it, or the block
 * leaves it untouched and every successor overwrites it first (a loop preheader's value
 * before the loop's s_cmp).  A successor that leaves it untouched counts as reading it. */
static bool scc_dead_after(const struct mir_function *fn, uint32_t b, uint32_t i, const bool *dead)
{
	const struct mir_block *bl = &fn->blocks[b];
	enum scc_use use = first_scc_use(bl, i + 1, dead);
	if (use != SCC_UNTOUCHED)
		return use == SCC_KILLED;
	if (!bl->nsucc)
		return false;
	for (unsigned k = 0; k < bl->nsucc; k++)
		if (bl->succ[k] == b ||
		    first_scc_use(&fn->blocks[bl->succ[k]], 0, NULL) != SCC_KILLED)
			return false;
	return true;
}

/* Whether `in` (instruction i of bl) may go when its destinations are unread: no effect
 * besides them, or an SCC that nothing reads (s_ashr_i32 of a 64-bit sign extension whose
 * high half selection did not use, followed by an s_cmp). */
static bool effect_free(const struct mir_function *fn, uint32_t b, uint32_t i, const bool *dead)
{
	const struct mir_insn *in = &fn->blocks[b].insns[i];
	if (in->flags & MIR_IF_PC_ANCHOR)
		return false;
	if (in->op == MIR_COPY)
		return true;
	if (in->op >= AMD_NUM_OPCODES)
		return false;
	const struct amd_isa_op *row = &amd_isa_rows[in->op];
	if (row->unit != AMD_UNIT_SALU && row->unit != AMD_UNIT_VALU && row->unit != AMD_UNIT_TRANS)
		return false;
	if (row->flags & (AMD_F_LOAD | AMD_F_STORE | AMD_F_ATOMIC | AMD_F_BRANCH | AMD_F_EXEC_DST |
	                  AMD_F_WAVE_MASK) ||
	    names_scc(in))
		return false;
	unsigned implicit = amd_implicit_defs(fn->target, row) & ~(unsigned)AMD_IMP_VCC;
	if (implicit == AMD_IMP_SCC && row->unit == AMD_UNIT_SALU)
		return scc_dead_after(fn, b, i, dead);
	return implicit == 0 && !(row->flags & AMD_F_SCC_DST);
}

/* Read counts per dword of every virtual register: dword d of vreg v is reads[first[v] + d],
 * first[v] .. first[v + 1] - 1 covering every dword an operand names (a tuple whose high
 * half nothing reads has its own zero counts, so a COPY into that half alone is dead). */
struct dword_reads {
	uint32_t *first; /* nvregs + 2 entries */
	uint32_t *reads;
};

/* Counts of dwords sub .. sub + width - 1 of operand o (width 0: one dword). */
static uint32_t *opnd_counts(const struct dword_reads *dr, const struct mir_opnd *o, unsigned *n)
{
	*n = o->width ? o->width : 1;
	return &dr->reads[dr->first[o->v] + o->sub];
}

/* Whether every destination of `in` is a virtual register none of whose written dwords is
 * read anywhere (and it has one). */
static bool results_unread(const struct mir_insn *in, const struct dword_reads *dr)
{
	bool any = false;
	for (unsigned k = 0; k < in->nopnds; k++) {
		if (!mir_opnd_is_def(in, k))
			continue;
		const struct mir_opnd *o = &in->opnds[k];
		if (o->kind != MIR_VREG)
			return false;
		unsigned n;
		const uint32_t *c = opnd_counts(dr, o, &n);
		for (unsigned d = 0; d < n; d++)
			if (c[d])
				return false;
		any = true;
	}
	return any;
}

/* Adds delta (1 or -1) to the counts of every dword `in` reads. */
static void add_reads(const struct mir_insn *in, struct dword_reads *dr, int delta)
{
	for (unsigned k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == MIR_VREG && !mir_opnd_is_def(in, k)) {
			unsigned n;
			uint32_t *c = opnd_counts(dr, &in->opnds[k], &n);
			for (unsigned d = 0; d < n; d++)
				c[d] += (uint32_t)delta;
		}
}

/* Sizes each virtual register by the furthest dword an operand names, then counts reads. */
static struct dword_reads count_reads(const struct mir_function *fn)
{
	struct dword_reads dr;
	dr.first = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nvregs + 2);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				uint32_t end = (uint32_t)o->sub + (o->width ? o->width : 1);
				if (o->kind == MIR_VREG && end > dr.first[o->v + 1])
					dr.first[o->v + 1] = end;
			}
		}
	for (uint32_t v = 1; v <= fn->nvregs + 1; v++)
		dr.first[v] += dr.first[v - 1];
	dr.reads = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, dr.first[fn->nvregs + 1] + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (uint32_t i = 0; i < fn->blocks[b].ninsns; i++)
			add_reads(&fn->blocks[b].insns[i], &dr, 1);
	return dr;
}

/* One bottom-up sweep of block b; returns the instructions it deleted. */
static uint32_t sweep_block(struct mir_function *fn, uint32_t b, struct dword_reads *dr, bool *dead)
{
	struct mir_block *bl = &fn->blocks[b];
	uint32_t ndead = 0;
	for (uint32_t i = bl->ninsns; i-- > 0;) {
		const struct mir_insn *in = &bl->insns[i];
		dead[i] = results_unread(in, dr) && effect_free(fn, b, i, dead);
		if (!dead[i])
			continue;
		ndead++;
		add_reads(in, dr, -1);
	}
	if (ndead) {
		uint32_t out = 0;
		for (uint32_t i = 0; i < bl->ninsns; i++)
			if (!dead[i])
				bl->insns[out++] = bl->insns[i];
		bl->ninsns = out;
	}
	return ndead;
}

/* Empties the blocks no path from block 0 reaches. */
static void empty_unreachable_blocks(struct mir_function *fn)
{
	if (!fn->nblocks)
		return;
	bool *seen = PA_NEW_ARRAY(mir_pass_arena(fn), bool, fn->nblocks);
	uint32_t *stack = PA_NEW_ARRAY(mir_pass_arena(fn), uint32_t, fn->nblocks);
	uint32_t sp = 0;
	seen[0] = true;
	stack[sp++] = 0;
	while (sp) {
		const struct mir_block *bl = &fn->blocks[stack[--sp]];
		for (unsigned s = 0; s < bl->nsucc; s++)
			if (!seen[bl->succ[s]]) {
				seen[bl->succ[s]] = true;
				stack[sp++] = bl->succ[s];
			}
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (!seen[b]) {
			fn->blocks[b].ninsns = 0;
			fn->blocks[b].nsucc = 0;
			fn->blocks[b].skip_succ = 0;
		}
}

void mir_remove_dead_code(struct mir_function *fn)
{
	empty_unreachable_blocks(fn);
	struct dword_reads dr = count_reads(fn);
	uint32_t max_insns = 1;
	for (uint32_t b = 0; b < fn->nblocks; b++)
		if (fn->blocks[b].ninsns > max_insns)
			max_insns = fn->blocks[b].ninsns;
	bool *dead = PA_NEW_ARRAY(mir_pass_arena(fn), bool, max_insns);
	uint32_t deleted;
	do {
		deleted = 0;
		for (uint32_t b = fn->nblocks; b-- > 0;)
			deleted += sweep_block(fn, b, &dr, dead);
	} while (deleted);
}
