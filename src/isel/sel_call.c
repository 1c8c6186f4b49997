/* Real calls: selection of IR_CALL/IR_STACK_LD/IR_STACK_ST, and the frame of a function
 * compiled on its own (the calling convention of docs/CALLS.md).
 *
 * Registers of the convention, the same in every function of a module (MIR_CALL_*, isel.h):
 * s[96:97] return address (s_call_b64 writes it, s_setpc_b64 returns through it), s98/s99
 * a temporary of the prologue and epilogue (the EXEC at entry), s100 the stack pointer of
 * the data stack (parameters, return values, .local variables: it grows up), s101 the
 * pointer of the save stack (registers a function saves: it grows down from the top of
 * the per-lane stack budget, towards the data stack).  Functions that call or are called
 * allocate only s0..s95, so the allocator never sees these.
 *
 * Data frame of a function, at s100 (per lane, in scratch): 8 bytes per parameter then per
 * return value (written by the caller, resp. the callee), the special registers when the
 * function needs them (inline.c), then the .local variables; the
 * caller puts a callee's frame right after its own, moving s100 by its frame size around
 * s_call_b64 (so a frame's size is known at selection).  A kernel's frame is its .local
 * variables; its entry sets s100 to their end and s101 to the end of the stack budget.
 *
 * Callee saves everything: isel_call_frame (after allocation) brackets the function with a
 * prologue that, with EXEC = all lanes, pushes every VGPR the function uses (all lanes:
 * inactive lanes may hold the caller's live values, and v_writelane writes them) and then
 * every SGPR it uses plus vcc, m0, the return address and the entry EXEC into lanes of
 * extra VGPRs, pushed as well; the epilogue before s_setpc_b64 reloads them in reverse and
 * restores EXEC.  So a call clobbers only s[96:99] and SCC for the caller, which selection
 * never keeps live across an instruction, and the rejoin masks of the callee's own control
 * flow (cflow.c, fixed SGPRs from s8) are saved with the rest.  Waits: everything is waited
 * for before s_call_b64 and before the return (sel_waitcnt_all), so the waitcnt pass of
 * each function starts and ends with nothing pending.  A call through a pointer
 * (IR_CALL_PTR, a uniform address: inline.c makes the waterfall) is s_swappc_b64 to it.
 * Overflow: the entry moves s101 down and traps (s_trap 2) when it passed the end of the
 * function's data frame.
 *   requires: select.c's state; isel_call_frame: allocated registers.
 *   complexity: O(1) per call; the frame pass is linear in the function. */
#include <string.h>

#include "isel/isel_int.h"

enum { MAX_OFFSET = 2047 }; /* what every target's scratch offset field holds */

static uint32_t align16(uint32_t v)
{
	return (v + 15) & ~15u;
}

void sel_call_layout(struct isel *s)
{
	const struct ir_function *ir = s->ir;
	if (!ir->real_sym && !ir->ncallees && !ir->calls_pointers)
		return;
	s->mf->max_sgprs = MIR_CALL_SGPR_BUDGET;
	s->mf->stack_size = ir->stack_size ? (ir->stack_size + 15) & ~15u : MIR_CALL_STACK_DEFAULT;
	s->mf->is_func = ir->real_sym != NULL;
	s->locals_base = ir->real_sym ? align16(ir->frame_args) : 0;
	s->frame_size = align16(s->locals_base + s->mf->scratch_size);
	s->mf->frame_size = s->frame_size;
	if (!ir->real_sym && (ir->ncallees || ir->calls_pointers)) /* the kernel: its frame
	                                                            * plus the stack budget */
		s->mf->scratch_size = s->frame_size + s->mf->stack_size;
}

void sel_call_entry(struct isel *s)
{
	if (!s->ir->ncallees && !s->ir->calls_pointers)
		return;
	struct mir_opnd sp[2] = {mir_sgpr(MIR_CALL_SP, 1), mir_imm(s->frame_size)};
	sel_emit(s, AMD_OP_S_MOV_B32, 2, sp);
	struct mir_opnd ssp[2] = {mir_sgpr(MIR_CALL_SAVE_SP, 1), mir_imm(s->mf->scratch_size)};
	sel_emit(s, AMD_OP_S_MOV_B32, 2, ssp);
}

/* The scalar address of a frame slot: s100, or s100 + base in a new SGPR when the offset
 * does not fit the instruction; *off is what stays for the instruction. */
static struct mir_opnd frame_address(struct isel *s, uint32_t *off)
{
	if (*off <= MAX_OFFSET)
		return mir_sgpr(MIR_CALL_SP, 1);
	uint32_t t = sel_new_sgpr(s, 1);
	struct mir_opnd ops[3] = {mir_vreg(t, 1), mir_sgpr(MIR_CALL_SP, 1), mir_imm(*off)};
	sel_emit(s, AMD_OP_S_ADD_U32, 3, ops);
	*off = 0;
	return mir_vreg(t, 1);
}

static uint32_t slot_offset(const struct isel *s, const struct ir_insn *in)
{
	return (in->aux ? s->frame_size : 0) + (uint32_t)in->imm;
}

static void stack_load(struct isel *s, const struct ir_insn *in)
{
	uint32_t d = sel_def(s, in->res), off = slot_offset(s, in);
	unsigned words = s->vals[in->res].size;
	struct mir_opnd ops[3] = {mir_vreg(d, words), {.kind = MIR_OFF}, frame_address(s, &off)};
	struct mir_insn *mi = sel_emit(
	        s, words == 2 ? AMD_OP_SCRATCH_LOAD_DWORDX2 : AMD_OP_SCRATCH_LOAD_DWORD, 3, ops);
	mi->offset = (int32_t)off;
}

static void stack_store(struct isel *s, const struct ir_insn *in)
{
	uint32_t off = slot_offset(s, in);
	/* (the IR type, not the value's size: a 64-bit constant has no register) */
	unsigned words = ir_type_bits(s->ir->vals[in->args[0]].type) == 64 ? 2 : 1;
	struct mir_opnd data = sel_vgpr_opnd(s, in->args[0], words == 2 ? 2 : 0);
	struct mir_opnd ops[3] = {{.kind = MIR_OFF}, data, frame_address(s, &off)};
	struct mir_insn *mi = sel_emit(
	        s, words == 2 ? AMD_OP_SCRATCH_STORE_DWORDX2 : AMD_OP_SCRATCH_STORE_DWORD, 3, ops);
	mi->offset = (int32_t)off;
}

static void move_sp(struct isel *s, unsigned op)
{
	struct mir_opnd ops[3] = {mir_sgpr(MIR_CALL_SP, 1), mir_sgpr(MIR_CALL_SP, 1),
	                          mir_imm(s->frame_size)};
	sel_emit(s, op, 3, ops);
}

/* s_call_b64's target is the callee's index in ir->callees (a MIR_IMM) until the driver
 * places the callee's code after the caller's (mir_link_calls). */
static void call(struct isel *s, const struct ir_insn *in)
{
	sel_waitcnt_all(s);
	move_sp(s, AMD_OP_S_ADD_U32);
	struct mir_opnd ops[2] = {mir_sgpr(MIR_CALL_RA, 2), mir_imm(in->aux)};
	sel_emit(s, AMD_OP_S_CALL_B64, 2, ops);
	move_sp(s, AMD_OP_S_SUB_U32);
}

/* A call through a code address (inline.c's waterfall makes it uniform): s_swappc_b64. */
static void call_ptr(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd target = sel_sreg_opnd(s, in->args[0], 2);
	sel_waitcnt_all(s);
	move_sp(s, AMD_OP_S_ADD_U32);
	struct mir_opnd ops[2] = {mir_sgpr(MIR_CALL_RA, 2), target};
	sel_emit(s, AMD_OP_S_SWAPPC_B64, 2, ops);
	move_sp(s, AMD_OP_S_SUB_U32);
}

/* A .local variable's address in a function: s100 + its frame offset. */
static bool local_symaddr(struct isel *s, const struct ir_insn *in)
{
	const struct ir_symvar *v = &s->ir->symvars[in->imm];
	if (v->space == IR_SPACE_GLOBAL || v->space == IR_SPACE_CONST)
		return sel_global_symaddr(s, in); /* its own s_getpc anchor (sel_global_entry) */
	if (v->space != IR_SPACE_LOCAL) {
		sel_error(s,
		          "recursive function '%s': addresses of .shared variables are not "
		          "supported yet",
		          s->ir->real_sym->name);
		return true;
	}
	uint32_t d = sel_def(s, in->res), t = sel_new_sgpr(s, 1);
	struct mir_opnd ops[3] = {mir_vreg(t, 1), mir_sgpr(MIR_CALL_SP, 1),
	                          mir_imm(s->locals_base + s->local_offset[in->imm])};
	sel_emit(s, AMD_OP_S_ADD_U32, 3, ops);
	sel_copy(s, sel_sub(d, 0, 1), mir_vreg(t, 1));
	if (s->vals[in->res].size == 2)
		sel_copy(s, sel_sub(d, 1, 1), mir_imm(0));
	return true;
}

bool sel_call(struct isel *s, const struct ir_insn *in)
{
	switch (in->op) {
	case IR_STACK_LD:
		stack_load(s, in);
		return true;
	case IR_STACK_ST:
		stack_store(s, in);
		return true;
	case IR_CALL:
		call(s, in);
		return true;
	case IR_CALL_PTR:
		call_ptr(s, in);
		return true;
	case IR_SYMADDR:
		return s->ir->real_sym ? local_symaddr(s, in) : false;
	case IR_SREG: /* %tid..%nctaid come from the frame (inline.c), the rest need nothing */
		if (!s->ir->real_sym || in->aux > IR_SREG_NCTAID_Z)
			return false;
		sel_error(s,
		          "recursive function '%s': this special register is not supported "
		          "yet",
		          s->ir->real_sym->name);
		return true;
	default:
		return false;
	}
}

void sel_call_return(struct isel *s)
{
	struct mir_opnd ra = mir_sgpr(MIR_CALL_RA, 2);
	sel_emit(s, AMD_OP_S_SETPC_B64, 1, &ra);
}

/* ---- the frame of a function compiled on its own (after register allocation) ---- */

struct frame {
	struct mir_function *fn;
	struct mir_insn *code; /* the instructions being built */
	uint32_t n, cap;
	unsigned nv;  /* VGPRs the function uses: v0 .. v[nv-1] */
	unsigned nsv; /* VGPRs after them holding the saved SGPRs */
	struct mir_opnd sregs[MIR_CALL_SGPR_BUDGET + 8];
	unsigned nsregs; /* SGPRs to save, one lane each */
};

static void put(struct frame *f, unsigned op, unsigned n, const struct mir_opnd *ops,
                int32_t offset)
{
	f->code = pa_arena_grow(f->fn->arena, f->code, &f->cap, f->n + 1, sizeof *f->code);
	f->code[f->n] = mir_make(op, n, ops);
	f->code[f->n++].offset = offset;
}

static void put_insn(struct frame *f, const struct mir_insn *in)
{
	f->code = pa_arena_grow(f->fn->arena, f->code, &f->cap, f->n + 1, sizeof *f->code);
	f->code[f->n++] = *in;
}

static struct mir_opnd exec_opnd(const struct frame *f)
{
	return f->fn->wave_size == 64 ? mir_special(AMD_SPEC_EXEC, 2)
	                              : mir_special(AMD_SPEC_EXEC_LO, 1);
}

static struct mir_opnd tmp_opnd(const struct frame *f)
{
	return mir_sgpr(MIR_CALL_TMP, f->fn->wave_size / 32);
}

static void all_lanes(struct frame *f)
{
	struct mir_opnd ops[2] = {tmp_opnd(f), mir_imm(0xffffffffu)};
	put(f, f->fn->wave_size == 64 ? AMD_OP_S_OR_SAVEEXEC_B64 : AMD_OP_S_OR_SAVEEXEC_B32, 2, ops,
	    0);
}

static void restore_exec(struct frame *f)
{
	struct mir_opnd ops[2] = {exec_opnd(f), tmp_opnd(f)};
	put(f, f->fn->wave_size == 64 ? AMD_OP_S_MOV_B64 : AMD_OP_S_MOV_B32, 2, ops, 0);
}

static void move_save_sp(struct frame *f, unsigned op)
{
	struct mir_opnd ops[3] = {mir_sgpr(MIR_CALL_SAVE_SP, 1), mir_sgpr(MIR_CALL_SAVE_SP, 1),
	                          mir_imm(4 * (f->nv + 2 * f->nsv))};
	put(f, op, 3, ops, 0);
}

static void vgpr_slot(struct frame *f, unsigned vgpr, unsigned slot, bool load)
{
	struct mir_opnd st[3] = {
	        {.kind = MIR_OFF}, mir_vgpr(vgpr, 1), mir_sgpr(MIR_CALL_SAVE_SP, 1)};
	struct mir_opnd ld[3] = {
	        mir_vgpr(vgpr, 1), {.kind = MIR_OFF}, mir_sgpr(MIR_CALL_SAVE_SP, 1)};
	put(f, load ? AMD_OP_SCRATCH_LOAD_DWORD : AMD_OP_SCRATCH_STORE_DWORD, 3, load ? ld : st,
	    (int32_t)(4 * slot));
}

static void lanes(struct frame *f, bool read)
{
	for (unsigned i = 0; i < f->nsregs; i++) {
		struct mir_opnd v = mir_vgpr(f->nv + i / f->fn->wave_size, 1);
		struct mir_opnd lane = mir_imm(i % f->fn->wave_size);
		struct mir_opnd w[3] = {v, f->sregs[i], lane}, r[3] = {f->sregs[i], v, lane};
		put(f, read ? AMD_OP_V_READLANE_B32 : AMD_OP_V_WRITELANE_B32, 3, read ? r : w, 0);
	}
}

static void wait_all(struct frame *f)
{
	if (f->fn->target->info->has_split_waits) {
		static const unsigned ops[] = {AMD_OP_S_WAIT_LOADCNT, AMD_OP_S_WAIT_STORECNT,
		                               AMD_OP_S_WAIT_DSCNT, AMD_OP_S_WAIT_KMCNT};
		for (unsigned i = 0; i < 4; i++) {
			struct mir_opnd z = mir_imm(0);
			put(f, ops[i], 1, &z, 0);
		}
		return;
	}
	struct mir_opnd z = mir_imm(0);
	put(f, AMD_OP_S_WAITCNT, 1, &z, 0);
}

static void prologue(struct frame *f)
{
	all_lanes(f);
	for (unsigned r = 0; r < f->nv + f->nsv; r++)
		vgpr_slot(f, r, r, false);
	lanes(f, false);
	for (unsigned j = 0; j < f->nsv; j++)
		vgpr_slot(f, f->nv + j, f->nv + f->nsv + j, false);
	restore_exec(f);
}

static void epilogue(struct frame *f)
{
	all_lanes(f);
	for (unsigned j = 0; j < f->nsv; j++)
		vgpr_slot(f, f->nv + j, f->nv + f->nsv + j, true);
	lanes(f, true);
	for (unsigned r = 0; r < f->nv + f->nsv; r++)
		vgpr_slot(f, r, r, true);
	move_save_sp(f, AMD_OP_S_ADD_U32);
	restore_exec(f);
	wait_all(f);
}

/* gfx11: s_trap 2 may be a no-op there; sel_sys.c's fallback (interrupt and halt) with the
 * convention's scratch SGPR: registers are physical here. */
static void trap_fallback(struct frame *f)
{
	struct mir_insn code[SEL_TRAP_FALLBACK_LEN];
	unsigned n = sel_trap_fallback(mir_sgpr(MIR_CALL_TMP, 1), code);
	for (unsigned i = 0; i < n; i++)
		put_insn(f, &code[i]);
}

/* The stack check: a new entry block moves the save stack pointer down by the save area
 * and, when it passed the end of this function's data frame (the two stacks met: the
 * per-lane budget is exhausted), branches to a block appended at the end that traps
 * (s_trap 2, as llvm.trap).  The old entry becomes block 1; every block index shifts. */
static void stack_check(struct frame *f)
{
	struct mir_function *fn = f->fn;
	uint32_t n = fn->nblocks, trap = n + 1;
	struct mir_block *nb = PA_NEW_ARRAY(fn->arena, struct mir_block, n + 2);
	memset(nb, 0, (n + 2) * sizeof *nb);
	for (uint32_t b = 0; b < n; b++) {
		nb[b + 1] = fn->blocks[b];
		for (unsigned k = 0; k < nb[b + 1].nsucc; k++)
			nb[b + 1].succ[k]++;
		for (uint32_t i = 0; i < nb[b + 1].ninsns; i++)
			for (unsigned k = 0; k < nb[b + 1].insns[i].nopnds; k++)
				if (nb[b + 1].insns[i].opnds[k].kind == MIR_BLOCK)
					nb[b + 1].insns[i].opnds[k].v++;
	}
	f->code = NULL;
	f->n = f->cap = 0;
	struct mir_opnd end[3] = {mir_sgpr(MIR_CALL_TMP, 1), mir_sgpr(MIR_CALL_SP, 1),
	                          mir_imm(fn->frame_size)};
	put(f, AMD_OP_S_ADD_U32, 3, end, 0);
	move_save_sp(f, AMD_OP_S_SUB_U32);
	struct mir_opnd cmp[2] = {mir_sgpr(MIR_CALL_SAVE_SP, 1), mir_sgpr(MIR_CALL_TMP, 1)};
	put(f, AMD_OP_S_CMP_LT_U32, 2, cmp, 0);
	struct mir_opnd tgt = mir_block_ref(trap);
	put(f, AMD_OP_S_CBRANCH_SCC1, 1, &tgt, 0);
	nb[0] = (struct mir_block){.insns = f->code,
	                           .ninsns = f->n,
	                           .cap = f->n,
	                           .succ = {1, trap},
	                           .nsucc = 2,
	                           .comment = "stack check: the save stack meets the data stack"};
	f->code = NULL;
	f->n = f->cap = 0;
	struct mir_opnd code = mir_imm(2);
	put(f, AMD_OP_S_TRAP, 1, &code, 0);
	if (fn->target->info->gen == AMD_GFX11)
		trap_fallback(f);
	put(f, AMD_OP_S_ENDPGM, 0, NULL, 0);
	nb[trap] = (struct mir_block){
	        .insns = f->code, .ninsns = f->n, .cap = f->n, .comment = "stack overflow"};
	fn->blocks = nb;
	fn->nblocks = fn->blocks_cap = n + 2;
}

/* Registers the function uses: VGPRs and SGPRs below the convention's. */
static void scan_registers(struct frame *f, unsigned *nv, unsigned *ns)
{
	*nv = *ns = 0;
	for (uint32_t b = 0; b < f->fn->nblocks; b++)
		for (uint32_t i = 0; i < f->fn->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &f->fn->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				unsigned end = o->v + (o->width ? o->width : 1);
				if (o->kind == MIR_VGPR && end > *nv)
					*nv = end;
				if (o->kind == MIR_SGPR && o->v < MIR_CALL_SGPR_BUDGET && end > *ns)
					*ns = end;
			}
		}
}

void isel_call_frame(struct mir_function *fn)
{
	if (!fn->is_func)
		return;
	struct frame f = {.fn = fn};
	unsigned ns;
	scan_registers(&f, &f.nv, &ns);
	for (unsigned r = 0; r < ns; r++)
		f.sregs[f.nsregs++] = mir_sgpr(r, 1);
	f.sregs[f.nsregs++] = mir_special(AMD_SPEC_VCC_LO, 1);
	f.sregs[f.nsregs++] = mir_special(AMD_SPEC_VCC_HI, 1);
	f.sregs[f.nsregs++] = mir_special(AMD_SPEC_M0, 1);
	for (unsigned r = MIR_CALL_RA; r < MIR_CALL_TMP + fn->wave_size / 32; r++)
		f.sregs[f.nsregs++] = mir_sgpr(r, 1);
	f.nsv = (f.nsregs + fn->wave_size - 1) / fn->wave_size;
	stack_check(&f);
	f.code = NULL;
	f.n = f.cap = 0;
	prologue(&f);
	struct mir_block *entry = &fn->blocks[1];
	for (uint32_t i = 0; i < entry->ninsns; i++)
		put_insn(&f, &entry->insns[i]);
	entry->insns = f.code;
	entry->ninsns = entry->cap = f.n;
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		struct mir_block *bl = &fn->blocks[b];
		if (!bl->ninsns || bl->insns[bl->ninsns - 1].op != AMD_OP_S_SETPC_B64)
			continue;
		f.code = NULL;
		f.n = f.cap = 0;
		for (uint32_t i = 0; i + 1 < bl->ninsns; i++)
			put_insn(&f, &bl->insns[i]);
		epilogue(&f);
		put_insn(&f, &bl->insns[bl->ninsns - 1]);
		bl->insns = f.code;
		bl->ninsns = bl->cap = f.n;
	}
	fn->num_vgprs = f.nv + f.nsv;
	fn->save_bytes = 4 * (f.nv + 2 * f.nsv);
}

/* ---- placing callees after their caller ---- */

void isel_link_calls(struct mir_function *into, const struct mir_function *part,
                     const uint32_t *callee_entry)
{
	uint32_t base = into->nblocks, reloc_base = into->nrelocs;
	for (uint32_t r = 0; r < part->nrelocs; r++) {
		const struct mir_reloc *rel = &part->relocs[r];
		mir_reloc(into, rel->symbol, (enum mir_reloc_kind)rel->kind, rel->addend);
	}
	for (uint32_t b = 0; b < part->nblocks; b++) {
		uint32_t nb = mir_new_block(into);
		struct mir_block *dst = &into->blocks[nb];
		const struct mir_block *src = &part->blocks[b];
		*dst = *src;
		dst->insns = PA_NEW_ARRAY(into->arena, struct mir_insn, src->ninsns + 1);
		dst->cap = src->ninsns;
		for (uint32_t i = 0; i < src->ninsns; i++) {
			struct mir_insn in = src->insns[i];
			for (unsigned k = 0; k < in.nopnds; k++)
				if (in.opnds[k].kind == MIR_BLOCK)
					in.opnds[k].v += base;
			for (unsigned k = 0; k < in.nopnds; k++)
				if (in.opnds[k].kind == MIR_RELOC)
					in.opnds[k].v += reloc_base;
			if (in.op == AMD_OP_S_CALL_B64 && in.opnds[1].kind == MIR_IMM)
				in.opnds[1] = mir_block_ref(callee_entry[in.opnds[1].v]);
			dst->insns[i] = in;
		}
		for (unsigned k = 0; k < dst->nsucc; k++)
			dst->succ[k] += base;
	}
}
