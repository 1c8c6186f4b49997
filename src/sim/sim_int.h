/* Internal data structures of amdsim shared by its files (not part of the public API).
 *
 * A dispatch (struct sim_ctx) owns the device memory, the decoded-instruction cache and the
 * waves of the workgroup being run.  Each wave (struct sim_wave) holds architectural state
 * (SGPRs, VGPRs, EXEC, SCC, PC, MODE) and the checker's scoreboard (struct sim_chk).
 * Instructions are decoded once per PC into struct sim_insn; `sem` indexes the semantics
 * table (sim_sems), whose rows carry the function executing the instruction, its class for
 * statistics and the timing checker, and its memory-counter behaviour. */
#ifndef SIM_INT_H
#define SIM_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "sim.h"
#include "target.h"

enum sim_fmt {
	SIM_FMT_SOP2,
	SIM_FMT_SOPK,
	SIM_FMT_SOP1,
	SIM_FMT_SOPC,
	SIM_FMT_SOPP,
	SIM_FMT_SMEM,
	SIM_FMT_VOP2,
	SIM_FMT_VOP1,
	SIM_FMT_VOPC,
	SIM_FMT_VOP3,
	SIM_FMT_VOP3P,
	SIM_FMT_DS,
	SIM_FMT_FLAT,
	SIM_FMT_GLOBAL,
	SIM_FMT_SCRATCH,
	SIM_FMT_MUBUF,
	SIM_FMT_VOPDX,
	SIM_FMT_VOPDY,
	SIM_FMT_MIMG, /* MIMG (gfx9-11), VIMAGE/VSAMPLE (gfx12): decoded to a name, no semantics yet
	               */
	SIM_NUM_FMTS
};

/* Operand codes after decoding (gfx11's swapped M0/NULL are normalised to these). */
enum {
	SIM_VCC = 106,
	SIM_TTMP0 = 108, /* trap temporaries (gfx10+ codes 108..123) */
	SIM_M0 = 124,
	SIM_NULL = 125,
	SIM_EXEC = 126,
	SIM_VCCZ = 251,
	SIM_EXECZ = 252,
	SIM_SCC = 253,
	SIM_LIT = 255,
	SIM_VGPR0 = 256,
	SIM_NUM_SREGS = 128,
	SIM_MAX_VREGS = 512, /* 256 VGPRs + 256 AGPRs (gfx90a/gfx942) */
	SIM_WAVE_STRIDE = 64 /* lanes per VGPR row in memory, for both wave sizes */
};

struct sim_sem;
struct cu_trace;
struct cu_wave_trace;

struct sim_insn {
	const struct sim_sem *sem; /* semantics; NULL = not decoded yet */
	uint16_t row;              /* decode entry + 1 (gives the mnemonic); 0 = unknown encoding */
	uint8_t fmt;               /* enum sim_fmt */
	uint8_t size;              /* bytes */
	uint8_t vop3;              /* VOP1/2/C encoded as VOP3 (modifiers possible) */
	uint8_t neg, abs, opsel, clamp, omod, neg_hi, opsel_hi;
	uint8_t dpp; /* 0 none, 1 DPP16, 2 DPP8 */
	uint8_t glc, slc, gds, offen, idxen, acc, has_lit;
	uint16_t op;  /* raw opcode */
	uint16_t dst; /* VOP: 256+vgpr or scalar code; SOP: sdst; MEM: vdst/sdata (256+ for VGPR) */
	uint16_t sdst;   /* VOP3b / VOPC-as-VOP3 scalar destination */
	uint16_t src[3]; /* VOP/SOP sources; MEM: [0] address, [1] data0, [2] data1 */
	uint16_t saddr; /* global saddr / SMEM sbase / MUBUF srsrc (scalar codes); SIM_NULL = off */
	uint16_t soffset;
	uint32_t literal;
	int32_t imm;   /* simm16, memory offset, ds offset0 */
	uint32_t imm2; /* ds offset1, DPP control dword, VOPD Y literal use */
	uint32_t pc;   /* byte offset of the instruction from the start of the code */
};

struct sim_wave;
struct sim_ctx;
typedef void (*sim_sem_fn)(struct sim_wave *w, const struct sim_insn *in);

/* Memory counter behaviour of an instruction (checker). */
enum sim_memkind {
	SIM_MEM_NONE,
	SIM_MEM_SMEM,   /* lgkmcnt, out of order */
	SIM_MEM_LDS,    /* lgkmcnt, in order (DS without return counts too) */
	SIM_MEM_VLOAD,  /* vmcnt */
	SIM_MEM_VSTORE, /* vmcnt (gfx9) / vscnt (gfx10+) */
	SIM_MEM_VATOMIC_RET,
	SIM_MEM_FLAT_LOAD, /* vmcnt and lgkmcnt */
	SIM_MEM_FLAT_STORE,
	SIM_MEM_FLAT_ATOMIC_RET,
};

enum sim_sem_flags {
	SEM_TRANS = 1 << 0, /* transcendental VALU (gfx940 forwarding hazard) */
	SEM_F64 = 1 << 1,
	SEM_READLANE = 1 << 2, /* v_readlane/v_writelane/v_readfirstlane: lane select hazards */
	SEM_DIV_FMAS = 1 << 3,
	SEM_VALU = 1 << 4, /* writes of this instruction's SGPR/VGPR results set VALU stamps */
	SEM_SETREG = 1 << 5,
	SEM_GETREG = 1 << 6,
	SEM_USES_M0 = 1 << 7, /* s_sendmsg / s_movrel: SALU M0 write hazard */
	SEM_WAITCNT = 1 << 8,
	SEM_CMPX = 1 << 9,       /* compare writing EXEC */
	SEM_DEPCTR = 1 << 10,    /* s_waitcnt_depctr: may drain outstanding VALU writes (gfx11) */
	SEM_FP_ATOMIC = 1 << 11, /* floating-point atomic (gfx10 FP atomic -> s_denorm_mode) */
	SEM_DENORM = 1 << 12,    /* s_denorm_mode */
	SEM_MATRIX = 1 << 13,    /* MFMA / WMMA: their own dependency rules (check.c) */
	SEM_DOT = 1 << 14,       /* packed dot product (not a "legacy VALU" for MFMA rules) */
};

struct sim_sem {
	const char *name;
	sim_sem_fn fn;
	uint8_t cls; /* enum sim_class */
	uint8_t mem; /* enum sim_memkind */
	uint16_t flags;
	uint8_t bytes; /* memory ops: data bytes per lane */
	uint8_t arg;   /* shared functions: comparison condition, atomic operation, ... */
};

/* Counters of the checker.  gfx12 splits lgkmcnt: CNT_VM is its loadcnt, CNT_LGKM its dscnt
 * (LDS and FLAT), CNT_VS its storecnt and CNT_KM its kmcnt (scalar memory). */
enum sim_cnt { CNT_VM, CNT_LGKM, CNT_EXP, CNT_VS, CNT_KM, SIM_NUM_CNTS };

enum { SIM_OPS_RING = 256, SIM_CNT_LIST = 80 };

struct sim_memop {
	uint32_t id; /* 1-based sequence number of the wave's memory operations */
	uint32_t pc;
	const struct sim_insn *insn;
	uint8_t cnts;                /* bit per enum sim_cnt */
	uint8_t group[SIM_NUM_CNTS]; /* ordering group per counter; 255 = out of order */
	bool done;                   /* known complete to the checker (covered by a wait) */
	uint64_t ready;              /* cycle its result arrives (timing model) */
};

struct sim_cntlist {
	uint32_t ops[SIM_CNT_LIST]; /* memop ids, oldest first */
	unsigned n;
	unsigned dropped; /* pending operations let go of when full (check.c) */
};

/* The strict checker's per-wave state. */
struct sim_chk {
	struct sim_memop ring[SIM_OPS_RING];
	uint32_t next_id;
	struct sim_cntlist lists[SIM_NUM_CNTS];
	uint32_t spend[SIM_NUM_SREGS]; /* pending memop id writing each SGPR */
	uint32_t vpend[SIM_MAX_VREGS]; /* pending memop id writing each VGPR */
	/* wait-state stamps (hazards): the value of `ws` after the producer issued */
	uint64_t ws;
	uint64_t valu_sgpr[SIM_NUM_SREGS];
	uint64_t valu_vgpr[SIM_MAX_VREGS];
	uint64_t trans_vgpr[SIM_MAX_VREGS];
	uint64_t dstsel_vgpr[SIM_MAX_VREGS]; /* gfx942: written by a dst-select forwarding VALU */
	uint64_t setreg, salu_m0;
	uint64_t fp_atomic; /* gfx10: last VMEM/FLAT FP atomic not yet followed by a VALU or wait */
	uint64_t store_ws;  /* large store issued at this stamp */
	uint16_t store_data, store_nregs; /* its data VGPRs */
	/* gfx11 VALU-uses-TRANS-result hazard: VALU and TRANS instructions issued so far,
	 * the drain epoch (bumped by anything that waits for va_vdst == 0), and per VGPR the
	 * counts when a transcendental wrote it (epoch + 1; 0 = no pending TRANS result). */
	uint32_t valu_issued, trans_issued, vdst_epoch;
	struct sim_trans_def {
		uint32_t valu_at, trans_at, epoch;
	} trans_def[SIM_MAX_VREGS];
	/* MFMA rules: per VGPR the stamp and row (+1) of the MFMA that wrote it (and the first
	 * register and count of that D), and of the MFMA that read it as srcC */
	uint64_t mfma_def[SIM_MAX_VREGS], mfma_srcc[SIM_MAX_VREGS];
	uint16_t mfma_def_row[SIM_MAX_VREGS], mfma_srcc_row[SIM_MAX_VREGS];
	uint16_t mfma_def_first[SIM_MAX_VREGS], mfma_def_count[SIM_MAX_VREGS];
	/* WMMA rule: the D registers of the last WMMA, cleared by any other VALU */
	uint16_t wmma_d_first, wmma_d_count;
};

struct sim_wave {
	struct sim_ctx *ctx;
	uint32_t s[SIM_NUM_SREGS];
	uint32_t *v;            /* v[reg * 64 + lane] */
	uint64_t exec_mask_all; /* all lanes of the wave size */
	uint32_t pc;            /* byte offset into the code */
	bool scc;
	bool done, at_barrier;
	bool yielded;           /* s_sleep: gave the SIMD to the other waves (dispatch.c) */
	bool barrier_signalled; /* gfx12: s_barrier_signal done, s_barrier_wait pending */
	uint32_t mode;          /* MODE hwreg: [3:0] round, [7:4] denorm */
	uint8_t host_round;     /* host rounding mode set for the current VALU instruction */
	uint32_t id;            /* wave index in workgroup */
	uint32_t wg_flat;       /* flat workgroup index */
	unsigned nlanes;        /* 32 or 64 */
	uint64_t scratch_base;  /* device address of this wave's swizzled scratch */
	uint64_t flat_scratch;  /* gfx10: FLAT_SCR_LO/HI as s_setreg_b32 wrote them */
	uint64_t clock;
	uint64_t rng;
	uint64_t ninsns;
	struct sim_chk chk;
	const struct sim_insn *cur;         /* instruction being executed */
	uint32_t vopd_old[SIM_WAVE_STRIDE]; /* VOPD: X destination before X wrote it */
	uint32_t next_pc;
	uint64_t matrix_free;     /* clock at which the wave's matrix unit is free again */
	struct cu_wave_trace *tr; /* CU timing model's record of this wave; NULL when off */
	bool strict;              /* sim_options.strict, next to the wave's other hot fields */
};

/* Cycles of a wave's clock per tick of the realtime counter (s_memrealtime, gfx11+
 * MSG_RTN_GET_REALTIME): the hardware's counter runs at 100 MHz, the shader clock near 1.6 GHz */
enum { SIM_REALTIME_CYCLES = 16 };
enum { SIM_QUANTUM = 1 << 16 }; /* instructions a wave runs before the others get a turn */

/* Device memory: sorted regions of a sparse 64-bit address space. */
struct sim_region {
	uint64_t base, size;
	uint8_t *data;
	const char *what;
};

struct sim_mem {
	struct sim_region *regions;
	unsigned n, cap;
	unsigned last; /* lookup cache */
};

struct sim_kernel;

struct sim_ctx {
	struct sim_code_object *co;
	const struct sim_kernel *k;
	const struct sim_options *opt;
	struct sim_stats *stats;
	uint64_t mem_writes; /* LDS and global stores and atomics so far (deadlock check) */
	enum amd_gen gen;
	struct sim_mem mem;
	const uint8_t *code; /* text bytes */
	uint32_t code_size;
	uint64_t code_addr;                       /* device address of code[0] */
	struct sim_insn *icache;                  /* one per dword */
	const uint16_t *decode_map[SIM_NUM_FMTS]; /* opcode -> decode entry + 1 (0 = none) */
	const char **entry_name;                  /* decode entry -> mnemonic */
	const struct sim_sem **entry_sem;         /* decode entry -> semantics or NULL */
	unsigned nentries;
	uint8_t *lds;
	uint32_t lds_size;
	struct sim_wave *waves;
	unsigned nwaves;
	uint32_t wg_id[3];
	uint64_t kernarg_addr, dispatch_addr, queue_addr, scratch_addr;
	uint64_t printf_addr; /* the printf buffer (printf.c), 0 if the kernel has none */
	uint32_t scratch_per_lane;
	bool error; /* fatal: stop everything */
	char *err;
	size_t errlen;
	bool gfx940_hazards, gfx9_hazards, packed_tid, separate_vs;
	bool gfx11_trans_hazard; /* VALU reading a fresh TRANS result needs va_vdst(0) */
	bool gfx10_hazards;      /* gfx10: FP atomic -> s_denorm_mode needs 3 wait states */
	bool split_cnts;         /* gfx12: loadcnt/storecnt/dscnt/kmcnt and s_wait_* */
	unsigned violations_printed;
	struct pa_arena arena;
	struct cu_trace *tr; /* CU timing model's record of the launch; NULL when off */
};

/* Kernel description from the descriptor and metadata. */
enum { SIM_MAX_ARGS = 96 };
struct sim_karg {
	char *name;
	char *value_kind;
	uint32_t offset, size;
	bool hidden;
};

struct sim_kernel {
	char *name, *symbol;
	uint8_t kd[64];
	uint64_t kd_addr;
	uint64_t entry; /* address of the first instruction */
	uint32_t kernarg_size, group_size, private_size, wavefront_size;
	uint32_t max_flat_workgroup_size; /* 0: not in the metadata */
	struct sim_karg args[SIM_MAX_ARGS];
	unsigned nargs;
};

struct sim_code_object {
	struct pa_arena arena;
	uint8_t *image; /* the ELF file bytes */
	size_t image_size;
	uint8_t *vimage; /* PT_LOAD segments mapped at their vaddr */
	uint64_t vsize;
	uint64_t text_addr, text_size;
	struct amd_target target;
	char target_name[32];
	struct sim_kernel *kernels;
	unsigned nkernels;
	/* dynamic relocations: at load, the 64-bit word at image offset `offset` becomes the
	 * load address + `value` (R_AMDGPU_RELATIVE64: the addend; R_AMDGPU_ABS64: S + A) */
	struct sim_dyn_reloc {
		uint64_t offset, value;
	} * dyn_relocs;
	unsigned ndyn_relocs;
	char **printfs; /* amdhsa.printf strings ("id:nargs:size...:format") */
	unsigned nprintfs;
};

/* printf.c: the hidden_printf_buffer and printing its records after the dispatch */
uint64_t sim_printf_buffer(struct sim_ctx *c);
void sim_printf_flush(struct sim_ctx *c, FILE *out);

/* memory.c */
uint8_t *sim_mem_map(struct sim_ctx *c, uint64_t addr, uint32_t size, bool write);
uint64_t sim_mem_alloc(struct sim_ctx *c, uint64_t size, const char *what);
struct sim_region *sim_mem_region(struct sim_ctx *c, uint64_t addr);

/* image_desc.c: image arguments (SIM_ARG_IMAGE) and the formats sem_image.c reads (gfx10, gfx11) */
enum sim_texel_kind { SIM_TEXEL_FLOAT, SIM_TEXEL_UINT, SIM_TEXEL_SINT, SIM_TEXEL_UNORM };
struct sim_image_format_info {
	uint8_t channels, bytes; /* channels per texel, bytes per channel */
	uint8_t kind;            /* enum sim_texel_kind */
	uint8_t gfx11_format;    /* the T#'s unified FORMAT on gfx11 */
	uint8_t gfx10_format;    /* ... on gfx10 (9-bit field); gfx12 uses gfx11's numbers */
	uint8_t hsa_type, hsa_order;
	uint16_t dst_sel;     /* DST_SEL_X/Y/Z/W the runtime sets */
	uint16_t gfx9_format; /* gfx9's DATA_FORMAT | NUM_FORMAT << 6 (word 1 bits 29:20) */
};
enum { SIM_IMAGE_BLOCK_DWORDS = 20 }; /* HIP_TEXTURE_OBJECT_SIZE_DWORD */
const struct sim_image_format_info *sim_image_format(enum sim_image_format f);
const struct sim_image_format_info *sim_image_format_of_code(enum amd_gen gen, unsigned code);
struct sim_field {
	unsigned shift, bits;
};
struct sim_field sim_image_format_field(enum amd_gen gen);  /* where T# word 1 holds it */
struct sim_field sim_buffer_format_field(enum amd_gen gen); /* ... V# word 3 (gfx9: NUM, DATA) */
uint64_t sim_image_bytes(const struct sim_image_spec *s);
/* The byte offset of mip level m of a W x H x D image (D slices, halved per level when shrink_d:
 * a 3D image; layers are not) of texels of `texel` bytes (amdsim's layout). */
uint64_t sim_image_level_offset(uint32_t w, uint32_t h, uint32_t d, bool shrink_d, unsigned texel,
                                unsigned m);
bool sim_image_descriptor(enum amd_gen gen, const struct sim_image_spec *s, uint64_t data,
                          uint32_t words[SIM_IMAGE_BLOCK_DWORDS], char *err, size_t errlen);

/* decode.c */
const struct sim_insn *sim_decode(struct sim_ctx *c, uint32_t pc);
void sim_decode_init(struct sim_ctx *c);
void sim_format_insn(const struct sim_ctx *c, const struct sim_insn *in, char *buf, size_t len);

/* semantics tables (sem_*.c), each a static const array looked up by mnemonic */
const struct sim_sem *sim_sems_salu(unsigned *n);
const struct sim_sem *sim_sems_valu(unsigned *n);
const struct sim_sem *sim_sems_v16(unsigned *n);
const struct sim_sem *sim_sems_vmisc(unsigned *n);
const struct sim_sem *sim_sems_mem(unsigned *n);
const struct sim_sem *sim_sems_s12(unsigned *n);
const struct sim_sem *sim_sems_matrix(unsigned *n);
const struct sim_sem *sim_sems_image(unsigned *n);
/* Cycles the matrix unit is busy with MFMA/WMMA `in` (its passes x 4). */
unsigned sim_matrix_cycles(const struct sim_wave *w, const struct sim_insn *in);

/* exec.c: helpers shared by the semantics files */
void sim_fault(struct sim_wave *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t sim_rd_s32(struct sim_wave *w, const struct sim_insn *in, uint16_t code);
uint64_t sim_rd_s64(struct sim_wave *w, const struct sim_insn *in, uint16_t code, bool f64);
void sim_wr_s32(struct sim_wave *w, uint16_t code, uint32_t v);
void sim_wr_s64(struct sim_wave *w, uint16_t code, uint64_t v);
uint64_t sim_exec(const struct sim_wave *w);
void sim_set_exec(struct sim_wave *w, uint64_t e);
uint64_t sim_vcc(const struct sim_wave *w);
uint32_t sim_rng(struct sim_wave *w);
bool sim_run_wave(struct sim_wave *w);

/* check.c: strict checker and timing model */
void sim_chk_read_s(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n);
void sim_chk_read_v(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n);
void sim_chk_write_s(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n);
void sim_chk_write_v(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n);
uint32_t sim_chk_issue(struct sim_wave *w, const struct sim_insn *in);
void sim_chk_pending_s(struct sim_wave *w, uint32_t op, unsigned reg, unsigned n);
void sim_chk_pending_v(struct sim_wave *w, uint32_t op, unsigned reg, unsigned n);
void sim_chk_wait(struct sim_wave *w, const struct sim_insn *in, int cnt, unsigned n);
void sim_chk_hazards(struct sim_wave *w, const struct sim_insn *in);
void sim_chk_after(struct sim_wave *w, const struct sim_insn *in);
void sim_chk_sgpr_vmem(struct sim_wave *w, const struct sim_insn *in, unsigned reg, unsigned n);
void sim_violation(struct sim_wave *w, const struct sim_insn *in, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
void sim_chk_end(struct sim_wave *w);
/* MFMA dependency rules (gfx90a/gfx942): an MFMA reading A/B (na registers each at a, b),
 * C (nc at c; ~0u for an inline constant) and writing D at d; then its writes recorded. */
void sim_chk_mfma_reads(struct sim_wave *w, const struct sim_insn *in, unsigned a, unsigned na,
                        unsigned b, unsigned nb, unsigned c, unsigned nc, unsigned d);
void sim_chk_mfma_done(struct sim_wave *w, const struct sim_insn *in, unsigned d, unsigned nd,
                       unsigned c);
/* gfx11/gfx12: the WMMA-reads-previous-WMMA-result rule: the reads, then D recorded. */
void sim_chk_wmma_reads(struct sim_wave *w, const struct sim_insn *in, unsigned a, unsigned b,
                        unsigned n);
void sim_chk_wmma_done(struct sim_wave *w, const struct sim_insn *in, unsigned d, unsigned nd);

void sim_sdwa_dst(struct sim_wave *w, const struct sim_insn *in, const uint32_t *old);

/* float helpers (fp.c) */
float sim_f16_to_f32(uint16_t h);
uint16_t sim_f32_to_f16(float f);

static inline float sim_as_f32(uint32_t u)
{
	union {
		uint32_t u;
		float f;
	} x = {.u = u};
	return x.f;
}
static inline uint32_t sim_f32_bits(float f)
{
	union {
		float f;
		uint32_t u;
	} x = {.f = f};
	return x.u;
}
static inline double sim_as_f64(uint64_t u)
{
	union {
		uint64_t u;
		double f;
	} x = {.u = u};
	return x.f;
}
static inline uint64_t sim_f64_bits(double f)
{
	union {
		double f;
		uint64_t u;
	} x = {.f = f};
	return x.u;
}

#endif
