/* PTX front end: the whole public face of src/parse.
 *
 * ptx_parse_stream() reads a PTX module from a FILE* in chunks, parses and checks it
 * one function at a time and hands each checked function to an optional callback.
 * Module-level declarations (globals, function symbols with a compact signature,
 * struct ptx_param) live in a module arena for the whole run; a function body and its
 * parameter symbols live in a per-function arena that is reset after the callback
 * returns, so peak memory follows the largest function plus about 250 bytes and 20 per
 * parameter for each function signature.
 *
 * The AST is plain data: a function is a flat array of statements; an instruction
 * is an opcode (one row of the instruction table ptx_ops.def), its dotted modifiers
 * in source order (ids of ptx_dotwords.def, types included) and its operands.
 * Register operands point to their declaration plus an index for parameterized
 * ranges (`.reg .b32 %r<100>` is one symbol with range 100). */
#ifndef PTX_H
#define PTX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

/* Types: id, spelling, size in bits, class. */
#define PTX_TYPE_LIST(X)                                                                           \
	X(NONE, "", 0, NONE)                                                                       \
	X(B8, ".b8", 8, BIT)                                                                       \
	X(B16, ".b16", 16, BIT)                                                                    \
	X(B32, ".b32", 32, BIT)                                                                    \
	X(B64, ".b64", 64, BIT)                                                                    \
	X(B128, ".b128", 128, BIT)                                                                 \
	X(U8, ".u8", 8, UINT)                                                                      \
	X(U16, ".u16", 16, UINT)                                                                   \
	X(U32, ".u32", 32, UINT)                                                                   \
	X(U64, ".u64", 64, UINT)                                                                   \
	X(S8, ".s8", 8, SINT)                                                                      \
	X(S16, ".s16", 16, SINT)                                                                   \
	X(S32, ".s32", 32, SINT)                                                                   \
	X(S64, ".s64", 64, SINT)                                                                   \
	X(F16, ".f16", 16, FLOAT)                                                                  \
	X(F16X2, ".f16x2", 32, PACKED)                                                             \
	X(BF16, ".bf16", 16, FLOAT)                                                                \
	X(BF16X2, ".bf16x2", 32, PACKED)                                                           \
	X(F32, ".f32", 32, FLOAT)                                                                  \
	X(F64, ".f64", 64, FLOAT)                                                                  \
	X(TF32, ".tf32", 32, FLOAT)                                                                \
	X(E4M3, ".e4m3", 8, FLOAT)                                                                 \
	X(E5M2, ".e5m2", 8, FLOAT)                                                                 \
	X(E4M3X2, ".e4m3x2", 16, PACKED)                                                           \
	X(E5M2X2, ".e5m2x2", 16, PACKED)                                                           \
	X(U16X2, ".u16x2", 32, PACKED)                                                             \
	X(S16X2, ".s16x2", 32, PACKED)                                                             \
	X(PRED, ".pred", 1, PRED)                                                                  \
	X(TEXREF, ".texref", 64, OPAQUE)                                                           \
	X(SAMPLERREF, ".samplerref", 64, OPAQUE)                                                   \
	X(SURFREF, ".surfref", 64, OPAQUE)                                                         \
	X(B1, ".b1", 1, BIT)                                                                       \
	X(U4, ".u4", 4, UINT)                                                                      \
	X(S4, ".s4", 4, SINT)

enum ptx_type {
#define X(id, s, bits, cls) PTX_TYPE_##id,
	PTX_TYPE_LIST(X)
#undef X
	        PTX_NTYPES
};

enum ptx_type_class {
	PTX_TC_NONE,
	PTX_TC_BIT,
	PTX_TC_UINT,
	PTX_TC_SINT,
	PTX_TC_FLOAT,
	PTX_TC_PACKED,
	PTX_TC_PRED,
	PTX_TC_OPAQUE
};

struct ptx_type_info {
	const char *name;
	uint16_t bits;
	uint8_t cls; /* enum ptx_type_class */
};
extern const struct ptx_type_info ptx_types[PTX_NTYPES];

/* Modifier classes: a dotted word belongs to one or more classes; an instruction row
 * lists the classes it accepts.  Classes marked 1 are exclusive: at most one word
 * of the class per instruction. */
#define PTX_MC_LIST(X)                                                                             \
	X(DIRECTIVE, 0)                                                                            \
	X(TYPE, 0)                                                                                 \
	X(SPACE, 1)                                                                                \
	X(ROUND, 1)                                                                                \
	X(IROUND, 1)                                                                               \
	X(FTZ, 1)                                                                                  \
	X(SAT, 1)                                                                                  \
	X(APPROX, 1)                                                                               \
	X(CMP, 1)                                                                                  \
	X(BOOL, 1)                                                                                 \
	X(ATOM, 1)                                                                                 \
	X(CACHE, 1)                                                                                \
	X(SEM, 1)                                                                                  \
	X(SCOPE, 1)                                                                                \
	X(VEC, 1)                                                                                  \
	X(MUL, 1)                                                                                  \
	X(CC, 1)                                                                                   \
	X(UNI, 1)                                                                                  \
	X(SYNC, 1)                                                                                 \
	X(ALIGNED, 1)                                                                              \
	X(SHFL, 1)                                                                                 \
	X(VOTE, 1)                                                                                 \
	X(EVICT, 0)                                                                                \
	X(PREF, 1)                                                                                 \
	X(HINT, 1)                                                                                 \
	X(NC, 1)                                                                                   \
	X(TO, 1)                                                                                   \
	X(SHIFT, 1)                                                                                \
	X(LR, 1)                                                                                   \
	X(PRMT, 1)                                                                                 \
	X(TESTP, 1)                                                                                \
	X(BAR, 0)                                                                                  \
	X(RELU, 1)                                                                                 \
	X(NAN, 1)                                                                                  \
	X(XORSIGN, 1)                                                                              \
	X(ABS, 1)                                                                                  \
	X(SATF, 1)                                                                                 \
	X(GEOM, 1)                                                                                 \
	X(SHAPE, 0)                                                                                \
	X(ASYNC, 0)                                                                                \
	X(MBAR, 0)                                                                                 \
	X(FENCE, 0)                                                                                \
	X(MEMBAR, 1)                                                                               \
	X(PACK, 1)                                                                                 \
	X(CLAMP, 1)                                                                                \
	X(OOB, 1)                                                                                  \
	X(MISC, 0)                                                                                 \
	X(LEVEL, 0)                                                                                \
	X(FULL, 1)                                                                                 \
	X(NOFTZ, 1)                                                                                \
	X(RS, 1)                                                                                   \
	X(SHIFTAMT, 1)

enum {
#define X(name, excl) PTX_MCB_##name,
	PTX_MC_LIST(X)
#undef X
	        PTX_NMC
};
enum {
#define X(name, excl) PTX_MC_##name = 1ull << PTX_MCB_##name,
	PTX_MC_LIST(X)
#undef X
};
_Static_assert(PTX_NMC <= 64, "modifier classes fit a 64-bit mask");
#define PTX_MC_ANY (~0ull)

/* Instruction flags. */
enum {
	PTX_OF_RELAXED_SIZE = 1, /* registers may be wider than the type (ld, st, cvt) */
	PTX_OF_NOTYPECHECK = 2,  /* operand types not checked against the instruction type */
	PTX_OF_BRANCH = 4,       /* label operands may be forward references */
	PTX_OF_CALL = 8,         /* call: checked against the callee's signature */
	PTX_OF_MEM = 16,         /* memory access: address operand space checks */
	PTX_OF_TWO_SPACES = 32,  /* destination and source state spaces (cp.async) */
};

/* Dotted words (directives and modifiers) and opcodes come from the tables. */
enum ptx_dotword {
#define DW(id, text, classes, type, ver, sm) PTX_DW_##id,
#include "ptx_dotwords.def"
#undef DW
	PTX_NDOTWORDS
};

enum ptx_opcode {
#define OP(id, name, sig, mintypes, maxtypes, classes, flags, ver, sm) PTX_OP_##id,
#include "ptx_ops.def"
#undef OP
	PTX_NOPS
};

struct ptx_dotword_info {
	const char *text;
	uint64_t classes; /* PTX_MC_* bits */
	uint8_t type;     /* enum ptx_type for type words */
	uint8_t ver;      /* minimum PTX ISA version * 10 (0: any) */
	uint16_t sm;      /* minimum sm_XX (0: any) */
};
extern const struct ptx_dotword_info ptx_dotwords[PTX_NDOTWORDS];

struct ptx_op_info {
	const char *name; /* may contain dots: "cp.async.wait_group" */
	const char *sig;  /* operand signature, see ptx_ops.def */
	uint8_t mintypes, maxtypes;
	uint64_t classes; /* modifier classes allowed */
	uint32_t flags;   /* PTX_OF_* */
	uint8_t ver;
	uint16_t sm;
};
extern const struct ptx_op_info ptx_ops[PTX_NOPS];

enum ptx_space {
	PTX_SPACE_NONE,
	PTX_SPACE_REG,
	PTX_SPACE_SREG,
	PTX_SPACE_CONST,
	PTX_SPACE_GLOBAL,
	PTX_SPACE_LOCAL,
	PTX_SPACE_PARAM,
	PTX_SPACE_SHARED,
	PTX_SPACE_TEX,
};

enum ptx_sym_kind {
	PTX_SYM_VAR,     /* variable in any state space, incl. registers and params */
	PTX_SYM_FUNC,    /* .func or .entry */
	PTX_SYM_LABEL,   /* code label */
	PTX_SYM_PROTO,   /* .callprototype label */
	PTX_SYM_TARGETS, /* .branchtargets / .calltargets label */
	PTX_SYM_SREG,    /* special register (%tid, %laneid, ...) */
};

enum {
	PTX_LINK_VISIBLE = 1,
	PTX_LINK_EXTERN = 2,
	PTX_LINK_WEAK = 4,
	PTX_LINK_COMMON = 8,
};

enum ptx_init_kind {
	PTX_INIT_INT,     /* value */
	PTX_INIT_F32,     /* value holds the bit pattern */
	PTX_INIT_F64,     /* value holds the bit pattern */
	PTX_INIT_SYM,     /* address of sym + value */
	PTX_INIT_GENERIC, /* generic(sym) + value */
	PTX_INIT_OPEN,    /* '{' of a nested aggregate */
	PTX_INIT_CLOSE,   /* '}' */
};

struct ptx_init {
	uint8_t kind;
	bool is_unsigned;
	uint64_t value;
	const struct ptx_symbol *sym;
};

enum { PTX_MAX_DIMS = 4 };

struct ptx_func_info;

struct ptx_symbol {
	const char *name; /* for a range `%r<N>` the prefix "%r" */
	uint32_t name_len;
	uint32_t hash;
	uint8_t kind;    /* enum ptx_sym_kind */
	uint8_t space;   /* enum ptx_space */
	uint8_t type;    /* enum ptx_type (element type) */
	uint8_t vec;     /* 1, 2, 4 or 8 */
	uint8_t linkage; /* PTX_LINK_* */
	uint8_t ndims;
	bool defined; /* labels: seen; functions: have a body */
	bool is_ptr;  /* .param .ptr */
	bool managed; /* .attribute(.managed) */
	uint8_t ptr_space;
	uint8_t sreg;   /* PTX_SYM_SREG: its row in ptx_sregs */
	uint32_t align; /* 0 = natural */
	uint32_t range; /* 0 = single name, N = parameterized %name<N> */
	uint32_t line, col;
	uint32_t scope_id;           /* scope that declared it (redeclaration check) */
	uint64_t dims[PTX_MAX_DIMS]; /* 0 in dims[0] = unsized `[]` */
	struct ptx_init *init;
	uint32_t ninit;
	struct ptx_func_info *func; /* PTX_SYM_FUNC, PTX_SYM_PROTO */
	const char *use_text;       /* labels: source line of the first use (diagnostics) */
	uint32_t use_len;
	struct ptx_symbol *hnext; /* next in hash chain: older bindings it shadows */
	struct ptx_symbol *next_in_scope;
};

/* One parameter (or return value) of a signature in compact form, kept for the whole
 * parse: what a call or a launch needs, without the name.  The layout is PTX's .param
 * layout (the kernel argument layout HIP launches with): each parameter at the next
 * multiple of its alignment, in declaration order. */
struct ptx_param {
	uint32_t offset;   /* bytes from the start of the parameter list */
	uint32_t size;     /* bytes: element size * vec * array dimensions (0 for unsized []) */
	uint32_t align;    /* bytes: the declared .align, else the natural one (element * vec);
	                    * a .ptr parameter's .align is its pointee's, so it has the natural */
	uint8_t type;      /* enum ptx_type (element type) */
	uint8_t vec;       /* 1, 2, 4 or 8 */
	uint8_t space;     /* PTX_SPACE_PARAM or PTX_SPACE_REG */
	uint8_t ptr_space; /* .ptr: the pointee's state space (PTX_SPACE_NONE: generic) */
	bool is_ptr;
};

/* Signature of a function or call prototype.
 *
 * rets/params are the parameter symbols (name, type, vec, align, dims), the ones operands
 * in the body point to.  They live with the body: for a function they are set while its
 * body is parsed and during its on_function callback, and NULL at any other time; for a
 * .callprototype, during its function.  ret_layout/param_layout (nrets/nparams records)
 * stay valid for the whole parse: use them for a callee. */
struct ptx_func_info {
	bool is_entry;
	bool noreturn;
	struct ptx_symbol **rets;
	uint32_t nrets;
	struct ptx_symbol **params;
	uint32_t nparams;
	struct ptx_param *ret_layout, *param_layout;
	uint32_t ret_bytes, param_bytes; /* end of the last return value / parameter */
	uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
	uint32_t minnctapersm, maxnreg, maxclusterrank;
	uint8_t nmaxntid, nreqntid, nreqnctapercluster;
	bool has_minnctapersm, has_maxnreg, has_maxclusterrank, explicitcluster;
	struct ptx_symbol *alias_of; /* `.alias this, target;`: calls go to target */
};

enum ptx_opnd_kind {
	PTX_OPND_REG,     /* sym (register/variable) [index for ranges] */
	PTX_OPND_SREG,    /* sym is a special register; comp = .x/.y/.z/.w (1..4) */
	PTX_OPND_INT,     /* value */
	PTX_OPND_F32,     /* value = bit pattern */
	PTX_OPND_F64,     /* value = bit pattern */
	PTX_OPND_SYM,     /* address of a variable/function/label sym, + value offset */
	PTX_OPND_ADDR,    /* [sym+value] or [value] when sym is NULL */
	PTX_OPND_VEC,     /* {elems} */
	PTX_OPND_LIST,    /* (elems): call arguments and returns */
	PTX_OPND_BRACKET, /* [a, b, ...]: texture/surface operand */
	PTX_OPND_SINK,    /* _ */
	PTX_OPND_WARPSZ,  /* WARP_SZ */
};

/* Operand widths.  PTX lets a register be wider than the instruction type (ld, st,
 * cvt: "Operand Size Exceeding Instruction-Type Size") and a bit-size type stand for
 * any type of its size, so a consumer must not assume a register operand has the
 * instruction's type.  `bits` is the width the operand really has: the register's
 * declared type size (sym->type; its element type for a vector component), times the
 * vector length for a whole vector register (`.reg .v2 .u32 v;` used as `v`).  A
 * consumer reading a source wider than the instruction type uses its low bits; a
 * destination wider than the instruction type receives the value extended to `bits`:
 * sign-extended for .s types (and for ld's .s types), zero-extended otherwise.
 * A whole vector register stands where PTX accepts a brace list of that length
 * ({v.x, v.y, ...}); `mov.b64 d, v` with a .v2 .u32 `v` packs like `mov.b64 d, {..}`.
 * A register source written `r + 4` (PTX allows a constant after a register
 * source) has `value` 4: the operand is the register's value plus that constant. */
struct ptx_operand { /* (small fields first: 48 bytes, not 56; a body holds many) */
	uint8_t kind;
	uint8_t comp;     /* vector component .x=1 .y=2 .z=3 .w=4, 0 none */
	bool negated;     /* !%p */
	bool is_unsigned; /* integer literal with U suffix */
	uint32_t index;   /* register index inside a range */
	uint32_t nelems;
	uint16_t bits;     /* REG/SREG: width in bits as declared, see above */
	uint8_t video_sel; /* video instructions: .b0-.b3 = 1-4, .h0 = 5, .h1 = 6; 0 none */
	const struct ptx_symbol *sym;
	uint64_t value; /* immediates; SYM/ADDR offset; REG: constant added (`r + 4`) */
	struct ptx_operand *elems;
	struct ptx_operand *pair; /* second destination of `p|q` */
};

struct ptx_insn {
	uint16_t op; /* enum ptx_opcode */
	uint8_t nmods, nopnds;
	uint8_t types[4], ntypes; /* mma has four: .dtype.atype.btype.ctype */
	bool has_guard;
	uint16_t *mods;            /* enum ptx_dotword, in source order, types included */
	struct ptx_operand *guard; /* with has_guard (a pointer: most instructions have none) */
	struct ptx_operand *opnds;
};

enum ptx_stmt_kind {
	PTX_STMT_INSN,
	PTX_STMT_LABEL,   /* sym */
	PTX_STMT_DECL,    /* sym */
	PTX_STMT_OPEN,    /* { */
	PTX_STMT_CLOSE,   /* } */
	PTX_STMT_LOC,     /* .loc file line col (extra text in `text`) */
	PTX_STMT_PRAGMA,  /* text = the string list as written, normalized */
	PTX_STMT_PROTO,   /* sym = .callprototype label */
	PTX_STMT_TARGETS, /* sym = .branchtargets/.calltargets label, targets in opnds */
};

struct ptx_stmt { /* (48 bytes: nopnds beside the small fields) */
	uint8_t kind;
	uint32_t line;
	uint32_t col; /* PTX_STMT_INSN: column of the instruction (its guard, if any) */
	uint32_t nopnds;
	union {
		struct ptx_insn *insn;
		struct ptx_symbol *sym;
		struct {
			uint32_t file, line, col;
		} loc;
		const char *text;
	} u;
	const char *extra;         /* .loc trailing text; .calltargets flag */
	struct ptx_operand *opnds; /* PTX_STMT_TARGETS (nopnds of them) */
};

struct ptx_ctx;
struct ptx_function {
	struct ptx_symbol *sym; /* sym->func holds the signature */
	struct ptx_stmt *stmts;
	uint32_t nstmts;
	struct ptx_ctx *owner; /* on_function's body: the parser (ptx_release_body); else NULL */
};

struct ptx_module_state {
	uint32_t version;      /* major*10+minor, e.g. 80 */
	uint32_t sm;           /* from .target sm_XX */
	bool sm_arch_specific; /* sm_90a */
	bool texmode_independent, debug, map_f64_to_f32;
	uint32_t address_size; /* 32 or 64 */
};

struct ptx_parse_options {
	const char *filename; /* name shown in diagnostics, e.g. "kernel.ptx" or "<stdin>" */
	struct pa_diag *diag; /* diagnostics sink; counts errors/warnings, applies -w/-Werror */
	struct pa_page_pool *pages; /* the parser's arenas' (page_pool.h; NULL: none) */
	FILE *dump_out;             /* non-NULL: write normalized PTX (--dump-ast) here */
	/* Optional: called after each function body while the run has reported no error
	 * (so a later stage never sees a broken module).  fn->sym is the module-level
	 * symbol call operands point to, with the definition's signature.  The statements
	 * and everything else in the function arena (incl. fn->sym->func->params, the
	 * parameter symbols) are freed when the callback returns; module-level symbols
	 * (globals, functions, their compact signatures) stay valid for the whole
	 * ptx_parse_stream call. */
	void (*on_function)(void *user, const struct ptx_function *fn,
	                    const struct ptx_module_state *m);
	/* Optional: called for every .global/.const variable declaration (module or function
	 * scope, .extern ones too) once it and its initializer are parsed and declared; the
	 * symbol lives for the whole ptx_parse_stream call. */
	void (*on_variable)(void *user, const struct ptx_symbol *var);
	/* Optional: called once after the whole module has been read without an error, while
	 * module-level symbols are still valid (e.g. for work deferred until every function
	 * has been seen). */
	void (*on_module_end)(void *user, const struct ptx_module_state *m);
	/* Optional: called for every `.file index "name"` directive (the name without its
	 * quotes, `len` bytes, valid only during the call), for line information. */
	void (*on_file)(void *user, uint32_t index, const char *name, size_t len);
	void *user;
};

/* Frees the body on_function was handed (its statements and the function arena, with
 * fn->sym->func->params) before the callback returns, for a caller done with it that still
 * has work to do (the back end, whose peak memory then no longer holds the body).  Nothing
 * of it may be read afterwards.  No effect on a copy (fn->owner NULL). */
void ptx_release_body(const struct ptx_function *fn);

/* Reads, parses and checks a whole PTX module from `in`, streaming function by function.
 * Returns true when no error was reported. Never exits, never crashes on any input. */
bool ptx_parse_stream(FILE *in, const struct ptx_parse_options *opts);

/* A PTX numeric literal decoded by ptx_parse_number. */
struct ptx_number {
	uint8_t kind; /* PTX_OPND_INT, PTX_OPND_F32 or PTX_OPND_F64 */
	bool is_unsigned;
	uint64_t value; /* integer value or float bit pattern */
};
/* Decodes one literal spelled as in PTX (123, 0x1F, 017, 0b101, 5U, 0f3F800000,
 * 0d3FF0000000000000, 1.5, 1e-3).  Returns NULL on success, else a message. */
const char *ptx_parse_number(const char *s, size_t n, struct ptx_number *out);

/* Returns true when the instruction carries modifier `dw`. */
bool ptx_insn_has_mod(const struct ptx_insn *insn, enum ptx_dotword dw);

#endif
