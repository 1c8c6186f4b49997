/* ir_build, part 3: calls, inlined while the caller's IR is built.
 *
 * A direct call to a .func defined in the module is replaced by the callee's body: the
 * builder walks the callee's saved statements (funclib.c) in a new *inline instance*, so
 * every register, label and .param variable of the callee is a fresh variable per call
 * (irb_sym_instance keys them by symbol and instance), and the SSA construction joins the
 * values across the call like any other control flow.  `ret` in the callee, taken by any
 * lanes and any number of times, becomes a branch to the call's continuation block; `exit`
 * still ends the thread.  Nested calls recurse with a stack of frames; a call to a function
 * already on the stack (recursion, direct or mutual) is a real call (see below and
 * docs/CALLS.md); calls to functions without a body and vararg calls are errors at the
 * call.  Indirect calls: see below.
 *
 * Why the AST and not the IR: inlining during construction needs no IR cloning or value
 * remapping, keeps phis minimal (Braun et al. see the whole inlined CFG), lets `ret` be an
 * ordinary branch, and an unsupported instruction in a callee is reported at its own line.
 * The price is that a callee is translated once per call site.
 *
 * .param variables that are not kernel arguments -- a call's arguments and return values
 * (`.param .b32 param0;` in the caller) and a callee's parameters, which are bound to the
 * caller's -- are *slots*: every (slot, byte offset, width) accessed is an SSA variable, so
 * st.param/ld.param pairs become plain value flow.  Accesses to one slot must use one
 * tiling (same offsets and widths, as nvcc and clang write them); overlapping accesses of
 * different widths are an error.  A .reg parameter is bound by value.
 * requires: the builder's state (build.c).  Complexity: linear in the inlined statements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/build_int.h"
#include "ir/inline_int.h"

enum {
	MAX_INSTANCES = (1u << 19) - 1, /* irb_sym_instance's key holds 19 bits */
	MAX_DEPTH = IR_MAX_CALL_DEPTH,  /* calls inside inlined calls (stack depth) */
	MAX_INLINED_STMTS = 1u << 20,   /* statements walked for all inlined bodies */
};

struct irb_frame {
	const struct ptx_function *body;    /* the callee's saved body */
	const struct ptx_symbol *callee;    /* the module-level symbol (recursion check) */
	uint32_t inst;                      /* the callee's instance */
	uint32_t cont;                      /* continuation block: where `ret` goes */
	const struct ptx_symbol **bind_sym; /* per formal (params, then rets): caller's slot */
	uint32_t *bind_inst;                /* ... and its instance; NULL sym: the formal's own */
	struct irb_frame *parent;
	uint32_t call_line, call_col; /* the call, in the caller */
};

struct irb_slot_access { /* one (offset, width) of a slot that has a variable */
	uint32_t off, bytes;
	uint32_t var;  /* its SSA variable */
	bool is_store; /* made by a store (else by a load no store covered) */
	uint32_t next; /* next record of the same slot, or UINT32_MAX */
};

/* After an error inside inlined code: where each enclosing call was made. */
void irb_note_inlining(struct irb *b)
{
	unsigned n = 0;
	for (const struct irb_frame *f = b->frame; f; f = f->parent, n++) {
		if (!f->parent && b->fn->real_sym)
			return; /* the function compiled on its own: not inlined anywhere */
		if (n == 8 && f->parent) { /* deep nests: the innermost calls and the kernel's */
			while (f->parent)
				f = f->parent;
			pa_diag_report(b->d, PA_DIAG_NOTE, b->file, f->call_line, f->call_col, NULL,
			               0, "... in '%s', inlined at this call from the kernel",
			               f->callee->name);
			return;
		}
		pa_diag_report(b->d, PA_DIAG_NOTE, b->file, f->call_line, f->call_col, NULL, 0,
		               "in '%s', inlined at this call", f->callee->name);
	}
}

uint32_t irb_return_block(const struct irb *b)
{
	return b->frame ? b->frame->cont : IR_NO_BLOCK;
}

/* Index of `sym` among the callee's formals (params, then rets), or -1. */
static int formal_index(const struct irb_frame *f, const struct ptx_symbol *sym)
{
	const struct ptx_func_info *fi = f->body->sym->func;
	for (uint32_t i = 0; i < fi->nparams; i++)
		if (fi->params[i] == sym)
			return (int)i;
	for (uint32_t i = 0; i < fi->nrets; i++)
		if (fi->rets[i] == sym)
			return (int)(fi->nparams + i);
	return -1;
}

/* The slot a .param symbol names in the current context: a bound formal is the caller's
 * slot.  False for the kernel's own parameters (kernel arguments) and for registers. */
bool irb_resolve_slot(struct irb *b, const struct ptx_symbol *sym, const struct ptx_symbol **slot,
                      uint32_t *inst)
{
	uint32_t pi;
	if (sym->kind != PTX_SYM_VAR || sym->space != PTX_SPACE_PARAM)
		return false; /* an address in a register: not a slot */
	if (!b->frame && irb_param_index(b, sym, &pi))
		return false;
	int k = b->frame ? formal_index(b->frame, sym) : -1;
	if (k >= 0 && b->frame->bind_sym[k]) {
		*slot = b->frame->bind_sym[k];
		*inst = b->frame->bind_inst[k];
		return true;
	}
	*slot = sym;
	*inst = b->inst;
	return true;
}

uint64_t irb_slot_bytes(const struct ptx_symbol *s)
{
	uint64_t n = (uint64_t)(ptx_types[s->type].bits / 8) * (s->vec ? s->vec : 1);
	for (unsigned i = 0; i < s->ndims; i++)
		n *= s->dims[i];
	return n;
}

static uint32_t log2u(unsigned v)
{
	uint32_t l = 0;
	while ((1u << l) < v)
		l++;
	return l;
}

static bool overlaps(const struct irb_slot_access *a, uint32_t off, uint32_t bytes)
{
	return a->off < off + bytes && off < a->off + a->bytes;
}

static void overlap_error(struct irb *b, const struct ptx_symbol *slot,
                          const struct irb_slot_access *a, uint32_t off, uint32_t bytes)
{
	irb_error(b,
	          "'%s' is accessed at bytes %u..%u and %u..%u: overlapping parameter accesses of "
	          "different widths are not supported",
	          slot->name, a->off, a->off + a->bytes - 1, off, off + bytes - 1);
}

/* The access record of a slot that holds bytes [off, off+bytes): for a store, the record of
 * exactly that range (made now if none); for a load, also one that contains the range (clang
 * stores a promoted .b32 argument and loads its low 8 or 16 bits).  NULL after an error:
 * partial overlaps would need bytes composed from several variables. */
static const struct irb_slot_access *slot_access(struct irb *b, const struct ptx_symbol *slot,
                                                 uint32_t inst, int64_t off, unsigned bytes,
                                                 enum ir_type vt, bool is_store)
{
	uint64_t size = irb_slot_bytes(slot);
	if (off < 0 || (uint64_t)off + bytes > size || off >= (1 << 27)) {
		irb_error(
		        b,
		        "access of %u bytes at offset %lld is outside parameter '%s' (%llu bytes)",
		        bytes, (long long)off, slot->name, (unsigned long long)size);
		return NULL;
	}
	uint32_t sid = irb_sym_instance(b, slot, inst), o = (uint32_t)off, head = UINT32_MAX;
	irb_map_get(&b->slots, sid, &head);
	const struct irb_slot_access *container = NULL;
	for (uint32_t i = head; i != UINT32_MAX; i = b->acc[i].next) {
		const struct irb_slot_access *a = &b->acc[i];
		if (a->off == o && a->bytes == bytes)
			return a;
		if (!overlaps(a, o, bytes))
			continue;
		bool contains = a->off <= o && o + bytes <= a->off + a->bytes;
		if (!is_store && a->is_store && contains) {
			container = a;
			continue;
		}
		overlap_error(b, slot, a, o, bytes); /* or a load met before a wider store */
		return NULL;
	}
	if (container)
		return container;
	uint64_t key = (uint64_t)sid << 32 | 0x80000000u | o << 3 | log2u(bytes);
	b->acc = pa_arena_grow(b->arena, b->acc, &b->acc_cap, b->nacc + 1, sizeof *b->acc);
	b->acc[b->nacc] = (struct irb_slot_access){.off = o,
	                                           .bytes = bytes,
	                                           .var = irb_var_of_key(b, key, vt),
	                                           .is_store = is_store,
	                                           .next = head};
	irb_map_put(&b->slots, b->arena, sid, b->nacc);
	return &b->acc[b->nacc++];
}

static ir_ref emit2(struct irb *b, enum ir_op op, enum ir_type t, ir_ref x, ir_ref y)
{
	ir_ref args[2] = {x, y};
	return irb_emit(b, op, t, args, 2, 0, 0);
}

static ir_ref retype(struct irb *b, ir_ref v, enum ir_type t)
{
	if ((enum ir_type)b->fn->vals[v].type == t)
		return v;
	return irb_emit(b, IR_BITCAST, t, &v, 1, 0, 0); /* same width: slot types differ only
	                                                 * as integer or float */
}

static ir_ref slot_read(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, int64_t off,
                        unsigned bytes, enum ir_type vt, bool sign)
{
	const struct irb_slot_access *a = slot_access(b, slot, inst, off, bytes, vt, false);
	if (!a)
		return ir_undef(b->fn, vt);
	ir_ref v = irb_read_var(b, a->var, b->cur);
	if (a->bytes == bytes && bytes >= 4)
		return retype(b, v, vt);
	/* bytes [off, off+bytes) of a wider value, or an 8/16-bit slot whose low bits count */
	enum ir_type it = a->bytes == 8 ? IR_T_I64 : IR_T_I32;
	v = retype(b, v, it);
	if ((uint32_t)off > a->off)
		v = emit2(b, IR_SHR_U, it, v,
		          ir_const(b->fn, IR_T_I32, 8 * ((uint32_t)off - a->off)));
	if (it == IR_T_I64)
		v = irb_emit(b, IR_TRUNC, IR_T_I32, &v, 1, 0, 0);
	if (bytes < 4 && !sign)
		v = emit2(b, IR_AND, IR_T_I32, v,
		          ir_const(b->fn, IR_T_I32, (1u << (8 * bytes)) - 1));
	if (bytes < 4 && sign) {
		ir_ref sh = ir_const(b->fn, IR_T_I32, 32 - 8 * bytes);
		v = emit2(b, IR_SHR_S, IR_T_I32, emit2(b, IR_SHL, IR_T_I32, v, sh), sh);
	}
	return retype(b, v, vt);
}

void irb_slot_write(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, int64_t off,
                    unsigned bytes, enum ir_type vt, ir_ref v)
{
	const struct irb_slot_access *a = slot_access(b, slot, inst, off, bytes, vt, true);
	if (a)
		irb_write_var(b, a->var, b->cur, retype(b, v, b->var_type[a->var]));
}

bool irb_param_load(struct irb *b, const struct ptx_symbol *sym, int64_t off, unsigned bytes,
                    enum ir_type vt, bool sign, ir_ref *out)
{
	const struct ptx_symbol *slot;
	uint32_t inst;
	if (!irb_resolve_slot(b, sym, &slot, &inst))
		return false;
	*out = slot_read(b, slot, inst, off, bytes, vt, sign);
	return true;
}

bool irb_param_store(struct irb *b, const struct ptx_symbol *sym, int64_t off, unsigned bytes,
                     enum ir_type vt, ir_ref v)
{
	const struct ptx_symbol *slot;
	uint32_t inst;
	if (!irb_resolve_slot(b, sym, &slot, &inst))
		return false;
	irb_slot_write(b, slot, inst, off, bytes, vt, v);
	return true;
}

/* ---- calls ---- */

/* The IR type a scalar parameter of this type is passed as (8/16-bit integers in 32). */
enum ir_type irb_scalar_type(const struct ptx_symbol *s, unsigned *bytes)
{
	*bytes = (unsigned)irb_slot_bytes(s);
	bool is_float = ptx_types[s->type].cls == PTX_TC_FLOAT;
	if (s->ndims || s->vec > 1 || !*bytes || *bytes > 8 || (*bytes & (*bytes - 1)) ||
	    (is_float && *bytes < 4))
		return IR_T_NONE;
	if (*bytes == 8)
		return is_float ? IR_T_F64 : IR_T_I64;
	return is_float ? IR_T_F32 : IR_T_I32;
}

bool irb_is_param_var(const struct ptx_operand *o)
{
	return o->kind == PTX_OPND_SYM && o->sym->kind == PTX_SYM_VAR &&
	       o->sym->space == PTX_SPACE_PARAM && !o->value;
}

/* The variable of a .reg formal in the callee's instance (what irb_var gives inside it). */
static int32_t formal_reg_var(struct irb *b, const struct ptx_symbol *formal, uint32_t inst)
{
	enum ir_type t = irb_ptx_type((enum ptx_type)formal->type);
	if (t == IR_T_NONE || formal->vec > 1) {
		irb_error(b,
		          ".reg parameter '%s' of this type is not supported by the code generator",
		          formal->name);
		return -1;
	}
	return (int32_t)irb_reg_var(b, formal, inst, 0, t);
}

/* The type and size a formal is passed with: a .reg formal's register type, a .param
 * formal's scalar type (IR_T_NONE for arrays and vectors, bound only to a caller's slot). */
static enum ir_type formal_type(const struct ptx_symbol *formal, unsigned *bytes)
{
	if (formal->space != PTX_SPACE_REG)
		return irb_scalar_type(formal, bytes);
	enum ir_type t = formal->vec > 1 ? IR_T_NONE : irb_ptx_type((enum ptx_type)formal->type);
	*bytes = ir_type_bits(t) / 8;
	return t == IR_T_PRED ? IR_T_NONE : t;
}

/* Reads an argument or return-value operand: a .param variable's bytes 0..bytes-1, a
 * register or a constant. */
ir_ref irb_read_actual(struct irb *b, const struct ptx_operand *o, unsigned bytes, enum ir_type t,
                       bool sign)
{
	const struct ptx_symbol *slot;
	uint32_t inst;
	if (!irb_is_param_var(o))
		return irb_read_opnd(b, o, t, sign);
	if (!irb_resolve_slot(b, o->sym, &slot, &inst)) {
		irb_error(b, "kernel parameter '%s' passed to a call is not supported",
		          o->sym->name);
		return ir_undef(b->fn, t);
	}
	return slot_read(b, slot, inst, 0, bytes, t, sign);
}

/* Writes a parameter's value into the callee's instance `inst`: its register (.reg) or
 * its own slot (.param). */
static void write_formal(struct irb *b, const struct ptx_symbol *formal, uint32_t inst,
                         unsigned bytes, enum ir_type t, ir_ref v)
{
	if (formal->space == PTX_SPACE_REG) {
		int32_t var = formal_reg_var(b, formal, inst);
		if (var >= 0)
			irb_write_var(b, (uint32_t)var, b->cur, v);
	} else {
		irb_slot_write(b, formal, inst, 0, bytes, t, v);
	}
}

static ir_ref read_formal(struct irb *b, const struct ptx_symbol *formal, uint32_t inst,
                          unsigned bytes, enum ir_type t, bool sign)
{
	if (formal->space != PTX_SPACE_REG)
		return slot_read(b, formal, inst, 0, bytes, t, sign);
	int32_t var = formal_reg_var(b, formal, inst);
	return var < 0 ? ir_undef(b->fn, t) : irb_read_var(b, (uint32_t)var, b->cur);
}

/* Binds formal k (a parameter, or a return value when is_ret) to the call's operand: a
 * caller's .param variable given for a .param formal binds the slot; otherwise a
 * parameter's value is copied in now (return values are copied out by copy_out). */
static void bind_formal(struct irb *b, struct irb_frame *fr, unsigned k,
                        const struct ptx_symbol *formal, const struct ptx_operand *actual,
                        bool is_ret)
{
	if (formal->space == PTX_SPACE_PARAM && irb_is_param_var(actual)) {
		if (!irb_resolve_slot(b, actual->sym, &fr->bind_sym[k], &fr->bind_inst[k]))
			irb_error(b, "kernel parameter '%s' passed to a call is not supported",
			          actual->sym->name);
		return;
	}
	unsigned bytes;
	enum ir_type t = formal_type(formal, &bytes);
	if (t == IR_T_NONE || (!irb_is_param_var(actual) && actual->kind == PTX_OPND_SYM)) {
		irb_error(b, "%s %u of the call: this operand form is not supported for '%s'",
		          is_ret ? "return value" : "argument", k + 1, formal->name);
		return;
	}
	if (is_ret)
		return;
	bool sign = ptx_types[formal->type].cls == PTX_TC_SINT;
	write_formal(b, formal, fr->inst, bytes, t, irb_read_actual(b, actual, bytes, t, sign));
}

/* After the callee: return values not bound to a caller's slot. */
static void copy_out(struct irb *b, const struct irb_frame *fr, const struct ptx_operand *rets)
{
	const struct ptx_func_info *fi = fr->body->sym->func;
	for (uint32_t j = 0; j < fi->nrets; j++) {
		const struct ptx_symbol *formal = fi->rets[j];
		const struct ptx_operand *actual = &rets->elems[j];
		if (fr->bind_sym[fi->nparams + j])
			continue;
		bool sign = ptx_types[formal->type].cls == PTX_TC_SINT;
		unsigned bytes;
		enum ir_type t = formal_type(formal, &bytes);
		ir_ref v = read_formal(b, formal, fr->inst, bytes, t, sign);
		const struct ptx_symbol *slot;
		uint32_t inst;
		if (!irb_is_param_var(actual))
			irb_write_dest(b, actual, v, sign, IR_NO_REF);
		else if (irb_resolve_slot(b, actual->sym, &slot, &inst))
			irb_slot_write(b, slot, inst, 0, bytes, t, v);
	}
}

/* CUDA's device runtime functions that have no counterpart here: the device heap and
 * dynamic parallelism (nvcc's names for them). */
static const char *device_runtime_reason(const char *name)
{
	if (!strcmp(name, "malloc") || !strcmp(name, "free"))
		return "device malloc/free is not supported: HIP keeps the device heap in the ROCm "
		       "device library (over the dispatch's hidden heap argument), which ptxas-amd "
		       "does not link; allocate in host code and pass the pointer";
	if (!strncmp(name, "cudaLaunchDevice", 16) ||
	    !strncmp(name, "cudaGetParameterBuffer", 22) ||
	    !strcmp(name, "cudaDeviceSynchronize") ||
	    !strncmp(name, "cudaCGGetIntrinsicHandle", 24))
		return "CUDA dynamic parallelism (kernels launching kernels) cannot be compiled "
		       "for "
		       "AMD GPUs: HIP has no device-side launch";
	return NULL;
}

/* Why a direct call cannot be inlined (NULL: it can). */
static bool check_callee(struct irb *b, const struct ptx_symbol *fs,
                         const struct ptx_function *body)
{
	const char *why = body ? NULL : device_runtime_reason(fs->name);
	if (why) {
		irb_error(b, "call to '%s': %s", fs->name, why);
		return false;
	}
	if (!body) {
		if (fs->linkage & PTX_LINK_EXTERN)
			irb_error(
			        b,
			        "call to '%s', an .extern function without a body in this module: "
			        "calls are inlined, so the callee must be defined in the module",
			        fs->name);
		else
			irb_error(
			        b,
			        "call to '%s', which is declared but never defined in this module",
			        fs->name);
		return false;
	}
	const struct ptx_func_info *fi = body->sym->func;
	for (uint32_t i = 0; i < fi->nparams; i++)
		if (fi->params[i]->ndims && !fi->params[i]->dims[0]) {
			irb_error(b,
			          "call to vararg function '%s' (unsized parameter '%s') is not "
			          "supported",
			          fs->name, fi->params[i]->name);
			return false;
		}
	return true;
}

/* Whether inlining `body` stays within the builder's limits. */
static bool inline_fits(const struct irb *b, const struct ptx_function *body)
{
	unsigned depth = 0;
	for (const struct irb_frame *f = b->frame; f; f = f->parent)
		depth++;
	return b->ninsts < MAX_INSTANCES && depth < MAX_DEPTH &&
	       b->inlined_stmts + body->nstmts <= MAX_INLINED_STMTS;
}

/* Counts an inlined body against the limits (an error past them). */
static bool account_inline(struct irb *b, const struct ptx_symbol *fs,
                           const struct ptx_function *body)
{
	if (!inline_fits(b, body)) {
		irb_error(b,
		          "call to '%s': inlining makes the kernel too large (at most %u calls "
		          "nested %u deep, %u statements inlined)",
		          fs->name, (unsigned)MAX_INSTANCES, (unsigned)MAX_DEPTH,
		          (unsigned)MAX_INLINED_STMTS);
		b->stop = true;
		return false;
	}
	b->inlined_stmts += body->nstmts;
	return true;
}

/* ---- real calls (docs/CALLS.md) ----
 * A call to a function already on the stack of inlined calls (recursion, direct or mutual)
 * is a real call: its arguments go to the callee's frame on the per-lane stack (IR_STACK_ST
 * with aux 1, 8 bytes per scalar parameter, then per return value; a .param array takes its
 * size rounded to 8 and is copied in the 4/8-byte pieces the writer stored, and read back
 * in 8-byte pieces that smaller loads take bytes from), IR_CALL runs it, and the
 * results come back with IR_STACK_LD.  The callee is compiled on its own (ir_build with
 * fn->real_sym): irb_real_function loads its parameters from its frame, walks its body as
 * the outermost inline frame (so `ret` reaches one exit block and its own recursive calls
 * are real calls again) and stores its return values.  When the function or one it calls
 * reads %tid/%ntid/%ctaid/%nctaid (ir_funclib_uses_context), its callers also store those
 * twelve values after the formals, and its own reads of them load from there. */

static bool on_stack(const struct irb *b, const struct ptx_symbol *fs)
{
	for (const struct irb_frame *f = b->frame; f; f = f->parent)
		if (f->callee == fs)
			return true;
	return false;
}

enum { MAX_REAL_AGGREGATE = 1024 }; /* bytes of a .param array passed to a real call */

/* Bytes formal k takes in the frame of a function compiled on its own: 8 for a scalar,
 * a .param array's size rounded up to 8 (*aggregate). */
static uint32_t formal_frame_bytes(const struct ptx_symbol *f, bool *aggregate)
{
	unsigned bytes;
	*aggregate = formal_type(f, &bytes) == IR_T_NONE;
	return *aggregate ? ((uint32_t)irb_slot_bytes(f) + 7) & ~7u : 8;
}

static const struct ptx_symbol *formal_at(const struct ptx_func_info *fi, uint32_t k)
{
	return k < fi->nparams ? fi->params[k] : fi->rets[k - fi->nparams];
}

/* Byte offset of formal k (params, then rets; k = all of them: the end) in the frame. */
static uint32_t formal_offset(const struct ptx_func_info *fi, uint32_t k)
{
	uint32_t off = 0;
	bool agg;
	for (uint32_t j = 0; j < k; j++)
		off += formal_frame_bytes(formal_at(fi, j), &agg);
	return off;
}

/* Whether every formal of a function compiled on its own can be passed; else an error. */
static bool real_formals(struct irb *b, const struct ptx_symbol *fs, const struct ptx_func_info *fi)
{
	for (uint32_t k = 0; k < fi->nparams + fi->nrets; k++) {
		const struct ptx_symbol *f = formal_at(fi, k);
		unsigned bytes;
		if (formal_type(f, &bytes) != IR_T_NONE ||
		    (f->space == PTX_SPACE_PARAM && irb_slot_bytes(f) &&
		     irb_slot_bytes(f) <= MAX_REAL_AGGREGATE))
			continue;
		irb_error(
		        b,
		        "recursive function '%s': parameter '%s' is neither a scalar nor a .param "
		        "array of at most %u bytes, which real calls do not support",
		        fs->name, f->name, (unsigned)MAX_REAL_AGGREGATE);
		return false;
	}
	return true;
}

/* fs's index among the function's callees; why: its size and call sites (0: recursion). */
static uint32_t callee_index(struct irb *b, const struct ptx_symbol *fs, struct ir_callee_why why)
{
	struct ir_function *fn = b->fn;
	for (uint32_t i = 0; i < fn->ncallees; i++)
		if (fn->callees[i] == fs) {
			if (why.sites > fn->callee_why[i].sites)
				fn->callee_why[i] = why;
			return i;
		}
	fn->callees = pa_arena_grow(b->arena, fn->callees, &fn->callees_cap, fn->ncallees + 1,
	                            sizeof *fn->callees);
	fn->callee_why = pa_arena_grow(b->arena, fn->callee_why, &fn->callee_why_cap,
	                               fn->ncallees + 1, sizeof *fn->callee_why);
	fn->callees[fn->ncallees] = fs;
	fn->callee_why[fn->ncallees] = why;
	return fn->ncallees++;
}

void irb_stack_store(struct irb *b, unsigned aux, uint32_t off, ir_ref v)
{
	irb_emit(b, IR_STACK_ST, IR_T_NONE, &v, 1, aux, off);
}

/* An aggregate slot's stored pieces (4 or 8 bytes each) to the frame at `base`. */
void irb_slot_to_stack(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, unsigned aux,
                       uint32_t base)
{
	uint32_t head = UINT32_MAX;
	irb_map_get(&b->slots, irb_sym_instance(b, slot, inst), &head);
	for (uint32_t i = head; i != UINT32_MAX; i = b->acc[i].next) {
		const struct irb_slot_access *a = &b->acc[i];
		if (!a->is_store)
			continue;
		if (a->bytes != 4 && a->bytes != 8) {
			irb_error(
			        b,
			        "'%s' is written in pieces of %u bytes: aggregates passed to real "
			        "calls are copied in pieces of 4 or 8 bytes",
			        slot->name, a->bytes);
			return;
		}
		enum ir_type t = a->bytes == 8 ? IR_T_I64 : IR_T_I32;
		irb_stack_store(b, aux, base + a->off,
		                retype(b, irb_read_var(b, a->var, b->cur), t));
	}
}

/* An aggregate slot of `bytes` bytes loaded from the frame at `base`, in 8-byte pieces (4
 * when the size is not a multiple of 8): smaller loads take their bytes out of a piece. */
void irb_slot_from_stack(struct irb *b, const struct ptx_symbol *slot, uint32_t inst, unsigned aux,
                         uint32_t base, uint32_t bytes)
{
	unsigned w = bytes % 8 ? 4 : 8;
	enum ir_type t = w == 8 ? IR_T_I64 : IR_T_I32;
	for (uint32_t off = 0; off + w <= bytes; off += w)
		irb_slot_write(b, slot, inst, off, w, t,
		               irb_emit(b, IR_STACK_LD, t, NULL, 0, aux, base + off));
}

/* The caller's slot an aggregate actual names (false after an error). */
bool irb_aggregate_actual(struct irb *b, const struct ptx_operand *o,
                          const struct ptx_symbol **slot, uint32_t *inst)
{
	if (irb_is_param_var(o) && irb_resolve_slot(b, o->sym, slot, inst))
		return true;
	irb_error(b, "an array parameter of a real call must be given a .param variable");
	return false;
}

/* Whether bytes [0, bytes) of a slot read without an error (slot_access): no access
 * overlaps them but one of exactly that range or a store containing it. */
static bool slot_readable(struct irb *b, const struct ptx_symbol *slot, uint32_t inst,
                          unsigned bytes)
{
	uint32_t head = UINT32_MAX;
	irb_map_get(&b->slots, irb_sym_instance(b, slot, inst), &head);
	for (uint32_t i = head; i != UINT32_MAX; i = b->acc[i].next) {
		const struct irb_slot_access *a = &b->acc[i];
		if (overlaps(a, 0, bytes) && !(a->off == 0 && a->bytes == bytes) &&
		    !(a->is_store && a->off == 0 && a->bytes >= bytes))
			return false;
	}
	return true;
}

/* Whether real_call passes this call's operands without an error: a call the size policy
 * picked that does not is inlined instead. */
static bool real_call_ok(struct irb *b, const struct ptx_func_info *fi,
                         const struct ptx_operand *rets, const struct ptx_operand *args)
{
	for (uint32_t k = 0; k < fi->nparams + fi->nrets; k++) {
		const struct ptx_symbol *f = formal_at(fi, k), *slot;
		const struct ptx_operand *o =
		        k < fi->nparams ? &args->elems[k] : &rets->elems[k - fi->nparams];
		uint32_t inst;
		unsigned bytes;
		bool param = irb_is_param_var(o);
		if (param && !irb_resolve_slot(b, o->sym, &slot, &inst))
			return false; /* a kernel parameter */
		if (formal_type(f, &bytes) != IR_T_NONE) {
			if ((!param && o->kind == PTX_OPND_SYM) ||
			    (param && k < fi->nparams && !slot_readable(b, slot, inst, bytes)))
				return false;
			continue;
		}
		if (f->space != PTX_SPACE_PARAM || !irb_slot_bytes(f) ||
		    irb_slot_bytes(f) > MAX_REAL_AGGREGATE || !param)
			return false;
		uint32_t head = UINT32_MAX;
		irb_map_get(&b->slots, irb_sym_instance(b, slot, inst), &head);
		for (uint32_t i = head; i != UINT32_MAX && k < fi->nparams; i = b->acc[i].next)
			if (b->acc[i].is_store && b->acc[i].bytes != 4 && b->acc[i].bytes != 8)
				return false;
	}
	return true;
}

/* Whether fs is compiled once per module for its address (docs/CALLS.md): a direct real
 * call then calls that copy through its address (its frame has the twelve special
 * registers after the formals, as every pointer call stores them). */
static bool module_copy(const struct irb *b, const struct ptx_symbol *fs)
{
	for (uint32_t i = 0; b->fn->fnptr_address && i < b->fn->nfnptr_taken; i++)
		if (!strcmp(b->fn->fnptr_taken[i], fs->name))
			return true;
	return false;
}

static void real_call(struct irb *b, const struct ptx_symbol *fs, const struct ptx_function *body,
                      const struct ptx_operand *rets, const struct ptx_operand *args,
                      struct ir_callee_why why)
{
	const struct ptx_func_info *fi = body->sym->func;
	if (!real_formals(b, fs, fi))
		return;
	const struct ptx_symbol *slot;
	uint32_t inst;
	for (uint32_t k = 0; k < fi->nparams; k++) {
		unsigned bytes;
		enum ir_type t = formal_type(fi->params[k], &bytes);
		bool sign = ptx_types[fi->params[k]->type].cls == PTX_TC_SINT;
		if (t == IR_T_NONE) {
			if (irb_aggregate_actual(b, &args->elems[k], &slot, &inst))
				irb_slot_to_stack(b, slot, inst, 1, formal_offset(fi, k));
			continue;
		}
		irb_stack_store(b, 1, formal_offset(fi, k),
		                irb_read_actual(b, &args->elems[k], bytes, t, sign));
	}
	bool shared = module_copy(b, fs);
	if (shared || ir_funclib_uses_context(b->lib, fs)) /* special registers: after formals */
		for (uint32_t k = 0; k < IR_NUM_CONTEXT_SREGS; k++)
			irb_stack_store(b, 1, formal_offset(fi, fi->nparams + fi->nrets) + 4 * k,
			                irb_emit(b, IR_SREG, IR_T_I32, NULL, 0, k, 0));
	if (shared) { /* the module's copy, at its code address (pointer calls' frame) */
		ir_ref p = irb_read_opnd(b, &(struct ptx_operand){.kind = PTX_OPND_SYM, .sym = fs},
		                         IR_T_I64, false);
		b->fn->calls_pointers = true; /* aux: 1 + its callee index (for ptrargs.c) */
		irb_emit(b, IR_CALL_PTR, IR_T_NONE, &p, 1, 1 + callee_index(b, fs, why), 0);
	} else {
		irb_emit(b, IR_CALL, IR_T_NONE, NULL, 0, callee_index(b, fs, why), 0);
	}
	for (uint32_t j = 0; j < fi->nrets; j++) {
		unsigned bytes;
		enum ir_type t = formal_type(fi->rets[j], &bytes);
		bool sign = ptx_types[fi->rets[j]->type].cls == PTX_TC_SINT;
		uint32_t off = formal_offset(fi, fi->nparams + j);
		if (t == IR_T_NONE) {
			if (irb_aggregate_actual(b, &rets->elems[j], &slot, &inst))
				irb_slot_from_stack(b, slot, inst, 1, off,
				                    (uint32_t)irb_slot_bytes(fi->rets[j]));
			continue;
		}
		ir_ref v = irb_emit(b, IR_STACK_LD, t, NULL, 0, 1, off);
		const struct ptx_operand *actual = &rets->elems[j];
		if (!irb_is_param_var(actual))
			irb_write_dest(b, actual, v, sign, IR_NO_REF);
		else if (irb_resolve_slot(b, actual->sym, &slot, &inst))
			irb_slot_write(b, slot, inst, 0, bytes, t, v);
	}
}

/* A special register (%tid .. %nctaid) read in a function compiled on its own: the value
 * its caller stored in its frame. */
ir_ref irb_context_sreg(struct irb *b, uint32_t sreg)
{
	if (!b->has_context) {
		irb_error(b, "recursive function '%s': this special register is not supported here",
		          b->fn->real_sym->name);
		return ir_undef(b->fn, IR_T_I32);
	}
	return irb_emit(b, IR_STACK_LD, IR_T_I32, NULL, 0, 0, b->context_off + 4 * sreg);
}

void irb_real_function(struct irb *b, const struct ptx_function *pf, const struct ptx_symbol *fs)
{
	const struct ptx_func_info *fi = pf->sym->func;
	if (!real_formals(b, fs, fi))
		return;
	b->fn->frame_args = formal_offset(fi, fi->nparams + fi->nrets);
	if (ir_funclib_uses_context(b->lib, fs)) {
		b->has_context = true;
		b->context_off = b->fn->frame_args;
		b->fn->frame_args += 4 * IR_NUM_CONTEXT_SREGS;
	}
	struct irb_frame *fr = PA_NEW(b->arena, struct irb_frame);
	fr->body = pf;
	fr->callee = fs;
	fr->inst = ++b->ninsts;
	fr->call_line = fs->line;
	fr->call_col = fs->col;
	fr->bind_sym =
	        PA_NEW_ARRAY(b->arena, const struct ptx_symbol *, fi->nparams + fi->nrets + 1);
	fr->bind_inst = PA_NEW_ARRAY(b->arena, uint32_t, fi->nparams + fi->nrets + 1);
	b->frame = fr;
	b->inst = fr->inst;
	for (uint32_t k = 0; k < fi->nparams; k++) {
		unsigned bytes;
		enum ir_type t = formal_type(fi->params[k], &bytes);
		if (t == IR_T_NONE)
			irb_slot_from_stack(b, fi->params[k], fr->inst, 0, formal_offset(fi, k),
			                    (uint32_t)irb_slot_bytes(fi->params[k]));
		else
			write_formal(b, fi->params[k], fr->inst, bytes, t,
			             irb_emit(b, IR_STACK_LD, t, NULL, 0, 0, formal_offset(fi, k)));
	}
	fr->cont = irb_new_block(b);
	b->body = pf;
	irb_walk(b, pf);
	if (!b->terminated)
		irb_terminate(b, IR_JMP, IR_NO_REF, fr->cont, 0);
	irb_seal(b, fr->cont);
	irb_switch_to(b, fr->cont);
	for (uint32_t j = 0; j < fi->nrets; j++) {
		unsigned bytes;
		enum ir_type t = formal_type(fi->rets[j], &bytes);
		bool sign = ptx_types[fi->rets[j]->type].cls == PTX_TC_SINT;
		uint32_t off = formal_offset(fi, fi->nparams + j);
		if (t == IR_T_NONE)
			irb_slot_to_stack(b, fi->rets[j], fr->inst, 0, off);
		else
			irb_stack_store(b, 0, off,
			                read_formal(b, fi->rets[j], fr->inst, bytes, t, sign));
	}
	irb_terminate(b, IR_RET, IR_NO_REF, 0, 0);
}

/* Inlines the body of `fs` at the current point: the call's operands bound to its formals. */
void irb_inline_call(struct irb *b, const struct ptx_symbol *fs, const struct ptx_operand *rets,
                     const struct ptx_operand *args)
{
	const struct ptx_function *body = ir_funclib_find(b->lib, fs);
	if (!check_callee(b, fs, body))
		return;
	const struct ptx_func_info *fi = body->sym->func;
	if (fi->nparams > (args ? args->nelems : 0) || fi->nrets > (rets ? rets->nelems : 0)) {
		irb_error(b, "call to '%s' with fewer operands than its parameters", fs->name);
		return;
	}
	if (on_stack(b, fs)) {
		real_call(b, fs, body, rets, args, (struct ir_callee_why){0, 0});
		return;
	}
	struct ir_callee_why why = {0, 0};
	bool real = irb_policy_real_call(b, fs, &why.stmts, &why.sites) ||
	            (b->fn->inline_mode != IR_INLINE_ALL && !inline_fits(b, body));
	if (real && real_call_ok(b, fi, rets, args)) {
		if (!why.sites)
			why.sites = 1;
		real_call(b, fs, body, rets, args, why);
		return;
	}
	if (!account_inline(b, fs, body))
		return;
	uint32_t nformals = fi->nparams + fi->nrets, line = b->line, col = b->col;
	struct irb_frame *fr = PA_NEW(b->arena, struct irb_frame);
	fr->body = body;
	fr->callee = fs;
	fr->inst = ++b->ninsts;
	fr->call_line = line;
	fr->call_col = col;
	fr->bind_sym = PA_NEW_ARRAY(b->arena, const struct ptx_symbol *, nformals + 1);
	fr->bind_inst = PA_NEW_ARRAY(b->arena, uint32_t, nformals + 1);
	for (uint32_t k = 0; k < fi->nparams; k++)
		bind_formal(b, fr, k, fi->params[k], &args->elems[k], false);
	for (uint32_t k = 0; k < fi->nrets; k++)
		bind_formal(b, fr, fi->nparams + k, fi->rets[k], &rets->elems[k], true);
	if (b->failed)
		return;
	fr->cont = irb_new_block(b);
	fr->parent = b->frame;
	ir_ref stack_at_call = irb_stack_at_call(b, body); /* build_sys.c: alloca's pointer */
	uint32_t caller_inst = b->inst;
	b->frame = fr;
	b->inst = fr->inst;
	const struct ptx_function *caller_body = b->body;
	b->body = body;
	irb_walk(b, body);
	b->body = caller_body;
	if (b->failed)
		b->stop = true; /* the callee's errors once, not once per call site */
	if (!b->terminated)
		irb_terminate(b, IR_JMP, IR_NO_REF, fr->cont, 0);
	b->frame = fr->parent;
	b->inst = caller_inst;
	b->line = line;
	b->col = col;
	irb_seal(b, fr->cont);
	irb_switch_to(b, fr->cont);
	irb_stack_at_return(b, stack_at_call); /* the callee's allocas end with it */
	if (rets)
		copy_out(b, fr, rets);
}

/* CUDA's device printf: a call of the .extern vprintf(.b64 format, .b64 args) with no
 * body in the module is built by build_printf.c. */
static bool is_vprintf(const struct ptx_symbol *fs, const struct ptx_operand *rets,
                       const struct ptx_operand *args)
{
	return !strcmp(fs->name, "vprintf") && (fs->linkage & PTX_LINK_EXTERN) && !fs->defined &&
	       args && args->nelems == 2 && (!rets || rets->nelems <= 1);
}

static void vprintf_call(struct irb *b, const struct ptx_operand *rets,
                         const struct ptx_operand *args)
{
	ir_ref fmt = irb_read_actual(b, &args->elems[0], 8, IR_T_I64, false);
	ir_ref buf = irb_read_actual(b, &args->elems[1], 8, IR_T_I64, false);
	ir_ref r = irb_vprintf(b, fmt, buf);
	if (!rets || !rets->nelems)
		return;
	const struct ptx_operand *actual = &rets->elems[0];
	const struct ptx_symbol *slot;
	uint32_t inst;
	if (!irb_is_param_var(actual))
		irb_write_dest(b, actual, r, true, IR_NO_REF);
	else if (irb_resolve_slot(b, actual->sym, &slot, &inst))
		irb_slot_write(b, slot, inst, 0, 4, IR_T_I32, r);
}

void irb_call(struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *rets = NULL, *args = NULL, *callee;
	unsigned i = 0;
	if (in->opnds[i].kind == PTX_OPND_LIST)
		rets = &in->opnds[i++];
	callee = &in->opnds[i++];
	if (i < in->nopnds && in->opnds[i].kind == PTX_OPND_LIST)
		args = &in->opnds[i];
	if (callee->kind == PTX_OPND_REG) {
		irb_indirect_call(b, rets, callee, args);
		return;
	}
	if (callee->kind != PTX_OPND_SYM || callee->sym->kind != PTX_SYM_FUNC) {
		irb_error(b, "this call's target form is not supported");
		return;
	}
	const struct ptx_symbol *fs = callee->sym;
	if (fs->func && fs->func->alias_of) /* `.alias fs, target;` (parse.c) */
		fs = fs->func->alias_of;
	if (!ir_funclib_find(b->lib, fs) && irb_assert_call(b, fs, rets, args))
		return; /* build_sys.c */
	if (is_vprintf(fs, rets, args) && !ir_funclib_find(b->lib, fs)) {
		vprintf_call(b, rets, args);
		return;
	}
	irb_inline_call(b, fs, rets, args);
}

/* ---- unused parameter addresses ---- */

static bool mentions(const struct ptx_operand *o, const struct ptx_symbol *sym, uint32_t index)
{
	if (o->sym == sym && o->index == index)
		return true;
	for (uint32_t i = 0; i < o->nelems; i++)
		if (mentions(&o->elems[i], sym, index))
			return true;
	return o->pair && mentions(o->pair, sym, index);
}

/* `mov d, param` where register d appears in no other instruction of the body: clang -O0
 * takes the address of every aggregate parameter whether it uses it or not.  Such a move
 * is dead, and the builder skips it instead of rejecting a .param address. */
bool irb_is_unused_param_address(const struct irb *b, const struct ptx_insn *in)
{
	const struct ptx_operand *d = &in->opnds[0], *s = &in->opnds[1];
	if (in->op != PTX_OP_MOV || in->nopnds != 2 || d->kind != PTX_OPND_REG ||
	    s->kind != PTX_OPND_SYM || s->sym->kind != PTX_SYM_VAR ||
	    s->sym->space != PTX_SPACE_PARAM || in->has_guard || !b->body)
		return false;
	for (uint32_t i = 0; i < b->body->nstmts; i++) {
		const struct ptx_stmt *st = &b->body->stmts[i];
		if (st->kind != PTX_STMT_INSN || st->u.insn == in)
			continue;
		const struct ptx_insn *other = st->u.insn;
		if (other->has_guard && mentions(other->guard, d->sym, d->index))
			return false;
		for (unsigned k = 0; k < other->nopnds; k++)
			if (mentions(&other->opnds[k], d->sym, d->index))
				return false;
	}
	return true;
}
