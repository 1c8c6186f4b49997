/* ir_build, async part 1: cp.async and its groups, the cluster-of-one forms (barrier.cluster,
 * mapa, getctarank, the cluster special registers) and proxy fences -> IR.  mbarrier is
 * build_mbar.c.  docs/ASYNC.md and docs/BARRIERS.md say why each is correct.
 *
 * cp.async copies synchronously: a global LOAD of the copy's bytes and an LDS STORE, in
 * the widest aligned pieces (cp-size bytes are aligned to cp-size).  A constant src-size
 * copies its bytes and zero-fills the rest; a register src-size that is at least cp-size
 * copies everything, otherwise the copy zero-fills all cp-size bytes and then copies byte k
 * for each k < src-size (no byte at or past src-size is ever read: a src-size of 0 is how
 * CUDA code writes an out-of-bounds copy whose source may be invalid); ignore-src true
 * zero-fills.  Every copy is complete when cp.async ends, so commit_group does nothing and
 * wait_group N / wait_all are a CTA acq_rel fence (the LDS stores are done before what
 * follows, which is all the ISA asks of them).  .ca/.cg (which cache levels the source
 * goes through), .L2::64B/128B/256B (a prefetch size) and .L2::cache_hint's policy operand
 * are hints about caching: the copy's result is the same without them.
 * Clusters: AMD GPUs launch no clusters, so every CTA is a cluster of one CTA, as the PTX
 * ISA allows for a launch without cluster dimensions.  A kernel that asks for more than one
 * CTA per cluster (.reqnctapercluster) is an error where it uses a cluster form.
 * O(1) IR per instruction (a register src-size: O(cp-size) blocks). */
#include <string.h>

#include "ir/build_int.h"

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

static ir_ref konst(struct irb *b, enum ir_type t, uint64_t v)
{
	return ir_const(b->fn, t, v);
}

static void fence(struct irb *b, enum ir_order order, enum ir_scope scope)
{
	irb_emit(b, IR_FENCE, IR_T_NONE, NULL, 0,
	         (uint32_t)order << IR_ORD_SHIFT | (uint32_t)scope << IR_SCOPE_SHIFT, 0);
}

/* ---- cp.async ---- */

struct copy {
	ir_ref src, dst; /* global and LDS base addresses */
	int64_t soff, doff;
	unsigned size; /* cp-size */
};

/* Copies `bytes` (1, 2, 4 or 8) at offset k. */
static void copy_piece(struct irb *b, const struct copy *c, unsigned k, unsigned bytes)
{
	unsigned lg = bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
	enum ir_type t = bytes == 8 ? IR_T_I64 : IR_T_I32;
	ir_ref v = irb_emit(b, IR_LOAD, t, &c->src, 1, IR_SPACE_GLOBAL | lg << IR_MEM_SIZE_SHIFT,
	                    c->soff + k);
	ir_ref args[2] = {c->dst, v};
	irb_emit(b, IR_STORE, t, args, 2, IR_SPACE_SHARED | lg << IR_MEM_SIZE_SHIFT, c->doff + k);
}

static void zero_piece(struct irb *b, const struct copy *c, unsigned k, unsigned bytes)
{
	unsigned lg = bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
	enum ir_type t = bytes == 8 ? IR_T_I64 : IR_T_I32;
	ir_ref args[2] = {c->dst, konst(b, t, 0)};
	irb_emit(b, IR_STORE, t, args, 2, IR_SPACE_SHARED | lg << IR_MEM_SIZE_SHIFT, c->doff + k);
}

/* The widest piece at offset k that ends at or before `end`. */
static unsigned piece_at(unsigned k, unsigned end)
{
	unsigned p = 8;
	while (p > 1 && (k % p || k + p > end))
		p /= 2;
	return p;
}

/* Bytes [0, n) copied, [n, size) zero-filled. */
static void copy_bytes(struct irb *b, const struct copy *c, unsigned n)
{
	for (unsigned k = 0, p; k < n; k += p) {
		p = piece_at(k, n);
		copy_piece(b, c, k, p);
	}
	for (unsigned k = n, p; k < c->size; k += p) {
		p = piece_at(k, c->size);
		zero_piece(b, c, k, p);
	}
}

/* A src-size known at run time (or ignore-src: n = 0 when it holds). */
static void copy_dynamic(struct irb *b, const struct copy *c, ir_ref n, ir_ref ignore)
{
	ir_ref args[2] = {n, konst(b, IR_T_I32, c->size)};
	ir_ref full = ignore != IR_NO_REF ? irb_emit(b, IR_NOT, IR_T_PRED, &ignore, 1, 0, 0)
	                                  : irb_emit(b, IR_ICMP, IR_T_PRED, args, 2, IR_CMP_GEU, 0);
	uint32_t fast = irb_open_sealed(b), slow = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, full, fast, slow);
	irb_switch_to(b, fast);
	copy_bytes(b, c, c->size);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_switch_to(b, slow);
	copy_bytes(b, c, 0);
	for (unsigned k = 0; ignore == IR_NO_REF && k < c->size; k++) {
		ir_ref kk[2] = {konst(b, IR_T_I32, k), n};
		ir_ref in_src = irb_emit(b, IR_ICMP, IR_T_PRED, kk, 2, IR_CMP_LTU, 0);
		uint32_t one = irb_open_sealed(b), next = irb_new_block(b);
		irb_terminate(b, IR_BR, in_src, one, next);
		irb_switch_to(b, one);
		copy_piece(b, c, k, 1);
		irb_terminate(b, IR_JMP, IR_NO_REF, next, 0);
		irb_seal(b, next);
		irb_switch_to(b, next);
	}
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
}

/* Whether every word of in is one cp.async (copy form) implements. */
static bool copy_words_known(const struct ptx_insn *in)
{
	static const enum ptx_dotword known[] = {
	        PTX_DW_CA,     PTX_DW_CG,      PTX_DW_SHARED,  PTX_DW_SHARED_CTA,   PTX_DW_GLOBAL,
	        PTX_DW_L2_64B, PTX_DW_L2_128B, PTX_DW_L2_256B, PTX_DW_L2_CACHE_HINT};
	for (unsigned i = 0; i < in->nmods; i++) {
		bool ok = false;
		for (unsigned k = 0; k < sizeof known / sizeof known[0]; k++)
			ok |= in->mods[i] == known[k];
		if (!ok)
			return false;
	}
	return (has(in, PTX_DW_CA) || has(in, PTX_DW_CG)) && has(in, PTX_DW_GLOBAL) &&
	       (has(in, PTX_DW_SHARED) || has(in, PTX_DW_SHARED_CTA));
}

static void cp_async(struct irb *b, const struct ptx_insn *in)
{
	unsigned n = in->nopnds - (has(in, PTX_DW_L2_CACHE_HINT) ? 1 : 0);
	if (!copy_words_known(in) || n < 3 || n > 4 || in->opnds[2].kind != PTX_OPND_INT) {
		irb_unsupported(b, in, "this form of cp.async");
		return;
	}
	if (n < in->nopnds) /* the cache policy: a hint */
		(void)irb_read_opnd(b, &in->opnds[n], IR_T_I64, false);
	struct copy c = {.size = (unsigned)in->opnds[2].value};
	if (!irb_address(b, &in->opnds[0], IR_SPACE_SHARED, &c.dst, &c.doff) ||
	    !irb_address(b, &in->opnds[1], IR_SPACE_GLOBAL, &c.src, &c.soff))
		return;
	if (n == 3) {
		copy_bytes(b, &c, c.size);
		return;
	}
	const struct ptx_operand *o = &in->opnds[3];
	if (o->kind == PTX_OPND_INT) {
		copy_bytes(b, &c, o->value < c.size ? (unsigned)o->value : c.size);
		return;
	}
	bool pred = o->kind == PTX_OPND_REG && o->sym->type == PTX_TYPE_PRED;
	ir_ref v = irb_read_opnd(b, o, pred ? IR_T_PRED : IR_T_I32, false);
	copy_dynamic(b, &c, v, pred ? v : IR_NO_REF);
}

/* ---- clusters of one CTA ---- */

/* False (after an error) if the kernel asks for clusters of more than one CTA. */
static bool cluster_of_one(struct irb *b)
{
	const struct ptx_func_info *f = b->root ? b->root->sym->func : NULL;
	uint64_t n = 1;
	for (unsigned k = 0; f && k < f->nreqnctapercluster; k++)
		n *= f->reqnctapercluster[k];
	if (n > 1)
		irb_error(b,
		          "clusters of more than one CTA (.reqnctapercluster) are not supported: "
		          "AMD GPUs launch every CTA as a cluster of one");
	return n <= 1;
}

ir_ref irb_cluster_sreg(struct irb *b, const struct ptx_operand *o)
{
	static const struct {
		const char *name;
		int value; /* -1: %ctaid, -2: %nctaid */
	} regs[] = {{"%clusterid", -1},     {"%nclusterid", -2},     {"%cluster_ctaid", 0},
	            {"%cluster_nctaid", 1}, {"%cluster_ctarank", 0}, {"%cluster_nctarank", 1}};
	const char *name = o->sym->name;
	if (!strcmp(name, "%is_explicit_cluster")) {
		const struct ptx_func_info *f = b->root ? b->root->sym->func : NULL;
		bool explicit_ = f && (f->explicitcluster || f->nreqnctapercluster);
		cluster_of_one(b);
		return konst(b, IR_T_PRED, explicit_);
	}
	for (unsigned i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		if (strcmp(name, regs[i].name))
			continue;
		bool vec = strcmp(name, "%cluster_ctarank") && strcmp(name, "%cluster_nctarank");
		if (vec && (o->comp < 1 || o->comp > 3)) {
			irb_error(b, "special register '%s' needs a component .x, .y or .z", name);
			return ir_undef(b->fn, IR_T_I32);
		}
		cluster_of_one(b);
		if (regs[i].value >= 0)
			return konst(b, IR_T_I32, (uint64_t)regs[i].value);
		enum ir_sreg base = regs[i].value == -1 ? IR_SREG_CTAID_X : IR_SREG_NCTAID_X;
		return irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, base + o->comp - 1u, 0);
	}
	return IR_NO_REF;
}

/* barrier.cluster.arrive / .wait: with one CTA per cluster, a CTA barrier split in two.
 * The wait is s_barrier (which every wave reaches after its arrive; it releases what the
 * wave wrote before and acquires what the others did); the arrive has nothing left to do. */
static void barrier_cluster(struct irb *b, const struct ptx_insn *in)
{
	bool arrive = has(in, PTX_DW_ARRIVE), wait = has(in, PTX_DW_WAIT);
	for (unsigned i = 0; i < in->nmods; i++) {
		enum ptx_dotword w = (enum ptx_dotword)in->mods[i];
		if (w != PTX_DW_ARRIVE && w != PTX_DW_WAIT && w != PTX_DW_ALIGNED &&
		    !(arrive && (w == PTX_DW_RELEASE || w == PTX_DW_RELAXED)) &&
		    !(wait && w == PTX_DW_ACQUIRE)) {
			irb_unsupported(b, in, "modifier");
			return;
		}
	}
	if (arrive == wait) {
		irb_unsupported(b, in, "neither .arrive nor .wait");
		return;
	}
	if (!cluster_of_one(b))
		return;
	if (wait)
		irb_emit(b, IR_BARRIER, IR_T_NONE, NULL, 0, 0, 0);
}

/* mapa d, a, rank: a's address in CTA `rank` of the cluster, which is a itself (rank 0 is
 * the only CTA).  getctarank d, a: 0. */
static void cluster_address(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	bool mapa = in->op == PTX_OP_MAPA;
	enum ptx_type t = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	int space = irb_mem_space(in);
	if ((t != PTX_TYPE_U32 && t != PTX_TYPE_U64) ||
	    (space != IR_SPACE_SHARED && space != IR_SPACE_GENERIC) ||
	    in->nopnds != (mapa ? 3 : 2)) {
		irb_unsupported(b, in, "type, state space or operands");
		return;
	}
	if (!cluster_of_one(b))
		return;
	enum ir_type it = t == PTX_TYPE_U32 ? IR_T_I32 : IR_T_I64;
	ir_ref v = irb_read_opnd(b, &in->opnds[1], it, false);
	if (mapa)
		(void)irb_read_opnd(b, &in->opnds[2], IR_T_I32, false);
	else
		v = konst(b, IR_T_I32, 0);
	irb_write_dest(b, &in->opnds[0], v, false, guard);
}

/* fence.proxy.alias / membar.proxy.alias and fence.proxy.async{.space}: the generic proxy
 * is the only one here (cp.async is ordinary loads and stores), and caches are physically
 * tagged, so an acq_rel fence (GPU scope; CTA scope for .shared::cta) is more than enough. */
static bool proxy_fence(struct irb *b, const struct ptx_insn *in)
{
	if (!has(in, PTX_DW_PROXY))
		return false;
	bool alias = has(in, PTX_DW_ALIAS), async = has(in, PTX_DW_ASYNC);
	bool cta = has(in, PTX_DW_SHARED_CTA);
	unsigned words =
	        2 + (async && (cta || has(in, PTX_DW_GLOBAL) || has(in, PTX_DW_SHARED_CLUSTER)));
	if ((alias == async) || in->nmods != words || in->nopnds) {
		irb_unsupported(b, in, "proxy kind");
		return true;
	}
	fence(b, IR_ORD_ACQ_REL, cta ? IR_SCOPE_CTA : IR_SCOPE_GPU);
	return true;
}

/* ---- dispatch ---- */

static bool is_mine(const struct ptx_insn *in)
{
	switch (in->op) {
	case PTX_OP_CP_ASYNC:
	case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
	case PTX_OP_CP_ASYNC_COMMIT:
	case PTX_OP_CP_ASYNC_WAIT:
	case PTX_OP_CP_ASYNC_WAITALL:
	case PTX_OP_MBARRIER:
	case PTX_OP_BARRIER_CLUSTER:
		return true;
	case PTX_OP_FENCE:
	case PTX_OP_MEMBAR:
		return has(in, PTX_DW_PROXY);
	default:
		return false;
	}
}

static void effect(struct irb *b, const struct ptx_insn *in)
{
	switch (in->op) {
	case PTX_OP_CP_ASYNC:
		cp_async(b, in);
		return;
	case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
		irb_cp_async_arrive(b, in); /* build_mbar.c */
		return;
	case PTX_OP_CP_ASYNC_COMMIT:
		return;
	case PTX_OP_CP_ASYNC_WAIT:
		(void)irb_read_opnd(b, &in->opnds[0], IR_T_I32, false);
		fence(b, IR_ORD_ACQ_REL, IR_SCOPE_CTA);
		return;
	case PTX_OP_CP_ASYNC_WAITALL:
		fence(b, IR_ORD_ACQ_REL, IR_SCOPE_CTA);
		return;
	case PTX_OP_MBARRIER:
		if (!irb_mbarrier(b, in)) /* build_mbar.c */
			irb_unsupported(b, in, NULL);
		return;
	case PTX_OP_BARRIER_CLUSTER:
		barrier_cluster(b, in);
		return;
	default:
		(void)proxy_fence(b, in);
		return;
	}
}

bool irb_async(struct irb *b, const struct ptx_insn *in, ir_ref guard)
{
	if (in->op == PTX_OP_MAPA || in->op == PTX_OP_GETCTARANK) {
		cluster_address(b, in, guard);
		return true;
	}
	if (!is_mine(in))
		return false;
	if (guard == IR_NO_REF) {
		effect(b, in);
		return true;
	}
	/* @p: if (p) { ... } */
	uint32_t then = irb_open_sealed(b), join = irb_new_block(b);
	irb_terminate(b, IR_BR, guard, then, join);
	irb_switch_to(b, then);
	effect(b, in);
	irb_terminate(b, IR_JMP, IR_NO_REF, join, 0);
	irb_seal(b, join);
	irb_switch_to(b, join);
	return true;
}
