/* ir_build, part 3: atomics and the memory model (atom, red, membar, fence, and the
 * .relaxed/.acquire/.release qualifiers of ld and st).
 *
 * atom becomes one ATOMIC (address, value, value2 = the new value of .cas) whose result is
 * the old value; red becomes RED, the same without a result.  The memory order and scope
 * of the qualifiers travel in aux (ir.h: IR_ORD_*, IR_SCOPE_*); instruction selection turns
 * them into each target's cache bits, write-backs, invalidates and waits.  .sc orders like
 * .acq_rel here (the AMDGPU sequences for seq_cst fences and acq_rel ones are the same);
 * .cluster is GPU scope (AMD GPUs have no clusters).  f16/bf16 (and x2), cas.b16, vector
 * and .b128 atomics go to build_vec.c first.  Anything outside what the code generator
 * implements (.mmio, proxy fences, cache hints) is an error naming the instruction.  O(1)
 * per instruction. */
#include "ir/build_int.h"

static bool has(const struct ptx_insn *in, enum ptx_dotword w)
{
	return ptx_insn_has_mod(in, w);
}

/* The order and scope bits of in's qualifiers; `order` is the order without a
 * semantics word.  False (after an error) for qualifiers not implemented. */
static bool order_bits(struct irb *b, const struct ptx_insn *in, enum ir_order order,
                       uint32_t *bits)
{
	if (has(in, PTX_DW_MMIO)) {
		irb_error(b, "'.mmio' accesses are not supported by the code generator");
		return false;
	}
	if (has(in, PTX_DW_RELAXED))
		order = IR_ORD_RELAXED;
	else if (has(in, PTX_DW_ACQUIRE))
		order = IR_ORD_ACQUIRE;
	else if (has(in, PTX_DW_RELEASE))
		order = IR_ORD_RELEASE;
	else if (has(in, PTX_DW_ACQ_REL) || has(in, PTX_DW_SC))
		order = IR_ORD_ACQ_REL;
	enum ir_scope scope = has(in, PTX_DW_CTA)   ? IR_SCOPE_CTA
	                      : has(in, PTX_DW_SYS) ? IR_SCOPE_SYS
	                                            : IR_SCOPE_GPU; /* .gpu, .cluster, default */
	*bits = (uint32_t)order << IR_ORD_SHIFT | (uint32_t)scope << IR_SCOPE_SHIFT;
	return true;
}

bool irb_mem_order(struct irb *b, const struct ptx_insn *in, uint32_t *bits)
{
	return order_bits(b, in, IR_ORD_WEAK, bits);
}

void irb_fence(struct irb *b, const struct ptx_insn *in)
{
	uint32_t bits;
	if (in->op == PTX_OP_MEMBAR) {
		if (has(in, PTX_DW_PROXY) || in->nmods != 1) {
			irb_error(b,
			          "this form of membar is not supported by the code generator yet");
			return;
		}
		enum ir_scope scope = has(in, PTX_DW_CTA)   ? IR_SCOPE_CTA
		                      : has(in, PTX_DW_SYS) ? IR_SCOPE_SYS
		                                            : IR_SCOPE_GPU; /* .gl */
		bits = (uint32_t)IR_ORD_ACQ_REL << IR_ORD_SHIFT | (uint32_t)scope << IR_SCOPE_SHIFT;
	} else if (has(in, PTX_DW_MBARRIER_INIT)) {
		/* fence.mbarrier_init.release.cluster (the parser allows no other form): orders
		 * earlier mbarrier.init before later accesses of the cluster's threads; a cluster
		 * is one CTA here, and the acq_rel fence of .cluster (.gpu, as order_bits) is
		 * never weaker than that release */
		bits = (uint32_t)IR_ORD_ACQ_REL << IR_ORD_SHIFT | (uint32_t)IR_SCOPE_GPU
		                                                          << IR_SCOPE_SHIFT;
	} else {
		if (has(in, PTX_DW_PROXY) || has(in, PTX_DW_ACQUIRE) || has(in, PTX_DW_RELEASE) ||
		    has(in, PTX_DW_RELAXED) || in->nopnds) {
			irb_error(
			        b,
			        "only fence.sc and fence.acq_rel with a scope are supported by the "
			        "code generator yet");
			return;
		}
		if (!order_bits(b, in, IR_ORD_ACQ_REL, &bits))
			return;
	}
	irb_emit(b, IR_FENCE, IR_T_NONE, NULL, 0, bits, 0);
}

/* The atomic operation of in's words and type; IR_NUM_ATOMIC_OPS when not supported. */
static enum ir_atomic_op atomic_op(const struct ptx_insn *in, enum ptx_type t)
{
	enum ptx_type_class cls = (enum ptx_type_class)ptx_types[t].cls;
	unsigned bits = ptx_types[t].bits;
	bool is_float = cls == PTX_TC_FLOAT, is_int = !is_float && cls != PTX_TC_PACKED;
	if ((bits != 32 && bits != 64) || cls == PTX_TC_PACKED) /* f16x2 add: build_vec.c */
		return IR_NUM_ATOMIC_OPS;
	if (has(in, PTX_DW_ADD))
		return is_float ? IR_ATOM_FADD : IR_ATOM_ADD;
	if (!is_int)
		return IR_NUM_ATOMIC_OPS;
	static const struct {
		enum ptx_dotword w;
		enum ir_atomic_op op;
	} words[] = {{PTX_DW_AND, IR_ATOM_AND}, {PTX_DW_OR, IR_ATOM_OR},
	             {PTX_DW_XOR, IR_ATOM_XOR}, {PTX_DW_EXCH, IR_ATOM_EXCH},
	             {PTX_DW_CAS, IR_ATOM_CAS}, {PTX_DW_INC, IR_ATOM_INC},
	             {PTX_DW_DEC, IR_ATOM_DEC}};
	for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++)
		if (has(in, words[i].w))
			return (words[i].op == IR_ATOM_INC || words[i].op == IR_ATOM_DEC) &&
			                       bits != 32
			               ? IR_NUM_ATOMIC_OPS
			               : words[i].op;
	bool sign = cls == PTX_TC_SINT;
	if (has(in, PTX_DW_MIN))
		return sign ? IR_ATOM_MIN_S : IR_ATOM_MIN_U;
	if (has(in, PTX_DW_MAX))
		return sign ? IR_ATOM_MAX_S : IR_ATOM_MAX_U;
	return IR_NUM_ATOMIC_OPS;
}

void irb_atomic(struct irb *b, const struct ptx_insn *in)
{
	if (irb_vec_atomic(b, in)) /* build_vec.c: 16-bit, packed, vector and 128-bit forms */
		return;
	bool is_red = in->op == PTX_OP_RED;
	enum ptx_type t = in->ntypes ? (enum ptx_type)in->types[0] : PTX_TYPE_NONE;
	enum ir_atomic_op op = atomic_op(in, t);
	int space = irb_mem_space(in);
	unsigned first = is_red ? 0 : 1; /* the address operand */
	unsigned want = first + 2 + (op == IR_ATOM_CAS ? 1 : 0);
	const struct ptx_operand *a = &in->opnds[first];
	bool vec = has(in, PTX_DW_V2) || has(in, PTX_DW_V4) || has(in, PTX_DW_V8);
	if (vec || op == IR_NUM_ATOMIC_OPS || in->nopnds != want ||
	    (space != IR_SPACE_GLOBAL && space != IR_SPACE_SHARED && space != IR_SPACE_GENERIC)) {
		irb_unsupported(b, in,
		                vec                       ? "vector atomics"
		                : op == IR_NUM_ATOMIC_OPS ? "operation or type"
		                                          : "state space or cache-hint form");
		return;
	}
	uint32_t order;
	if (!order_bits(b, in, IR_ORD_RELAXED, &order))
		return;
	enum ir_type vt = irb_ptx_type(t);
	unsigned bytes = ptx_types[t].bits / 8;
	ir_ref base;
	int64_t off;
	if (!irb_address(b, a, space, &base, &off))
		return;
	ir_ref v = irb_read_opnd(b, &in->opnds[first + 1], vt, false);
	ir_ref v2 = op == IR_ATOM_CAS ? irb_read_opnd(b, &in->opnds[first + 2], vt, false)
	                              : ir_const(b->fn, vt, 0);
	ir_ref args[3] = {base, v, v2};
	uint32_t aux = (uint32_t)space | (bytes == 8 ? 3u : 2u) << IR_MEM_SIZE_SHIFT |
	               (uint32_t)op << IR_ATOM_OP_SHIFT | order;
	if (is_red) {
		irb_emit(b, IR_RED, IR_T_NONE, args, 3, aux, off);
		return;
	}
	ir_ref r = irb_emit(b, IR_ATOMIC, vt, args, 3, aux, off);
	irb_write_dest(b, &in->opnds[0], r, ptx_types[t].cls == PTX_TC_SINT, IR_NO_REF);
}
