/* amdsim: a CPU simulator of AMD GPU code objects with a strict s_waitcnt/hazard checker.
 *
 * The public face of src/sim.  A caller loads a code object (.hsaco, ELF) once with
 * sim_load, then runs dispatches with sim_run: the simulator sets up the initial wave
 * state exactly as the hardware does from the kernel descriptor (user SGPRs, workgroup
 * and workitem ids, EXEC, AQL packet, hidden kernel arguments, LDS and scratch), executes
 * the machine code and, in strict mode, checks that every register written by a memory
 * operation is covered by an s_waitcnt before use and that software hazards have enough
 * wait states.  Everything lives in the returned objects: the library is reentrant. */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sim_code_object;

/* Kind of one kernel argument given by the caller, in the order of the metadata's explicit
 * arguments. */
enum sim_arg_kind {
	SIM_ARG_IN,    /* device buffer initialised from data/size; its address is passed */
	SIM_ARG_OUT,   /* zeroed buffer of `size` bytes, copied to `out` after the run */
	SIM_ARG_INOUT, /* buffer from data/size, copied to `out` (size bytes) after the run */
	SIM_ARG_I32,
	SIM_ARG_U32,
	SIM_ARG_I64,
	SIM_ARG_U64,
	SIM_ARG_F32,
	SIM_ARG_F64,
	SIM_ARG_IMAGE, /* an image (texture/surface object): `image` describes it, data/size its
	                * texels (row-major, no padding), `out` receives them after the run; the
	                * kernel gets the address of HIP's descriptor block (docs/TEXTURES.md) */
};

/* Texel formats of an image argument (image_desc.c has their hardware encodings). */
enum sim_image_format {
	SIM_IMG_R32F,
	SIM_IMG_R32UI,
	SIM_IMG_R32I,
	SIM_IMG_RG32F,
	SIM_IMG_RGBA32F,
	SIM_IMG_RGBA32UI,
	SIM_IMG_R8, /* unorm */
	SIM_IMG_R8UI,
	SIM_IMG_RGBA8, /* unorm */
	SIM_IMG_RGBA8UI,
	SIM_NUM_IMAGE_FORMATS
};

struct sim_image_spec {
	enum sim_image_format format;
	uint32_t width, height; /* height 0: a 1D image */
	uint32_t depth;         /* 0: 1D/2D; a 3D image's depth or a 2D array's layers */
	uint8_t array;          /* depth counts the layers of a 2D array (height 0: a 1D array) */
	/* the sampler (S#): CLAMP_X/Y (0 wrap, 1 mirror, 2 clamp, 6 border), FORCE_UNNORMALIZED,
	 * BORDER_COLOR_TYPE (0 transparent black, 1 opaque black, 2 opaque white) */
	uint8_t addr_mode, unnormalized, border;
	uint8_t bilinear; /* XY_MAG_FILTER = XY_MIN_FILTER = bilinear (HIP's cudaFilterModeLinear)
	                   */
	uint8_t linear;   /* a 1D texture over linear memory: a buffer descriptor (V#), HSA's 1DB */
	/* mip levels (0 or 1: one), sampled with MIP_FILTER point; amdsim's layout
	 * (sim_image_level_offset): each level after the previous at a 256-byte boundary, its rows
	 * of its own width max(1, W >> m), all layers of an array in each level */
	uint8_t levels;
};

struct sim_arg {
	enum sim_arg_kind kind;
	const void *data; /* IN / INOUT: initial bytes */
	size_t size;      /* buffer size in bytes */
	void *out;        /* OUT / INOUT: receives `size` bytes after the run (may be NULL) */
	union {
		int64_t i;
		uint64_t u;
		double f;
	} value;                            /* scalar kinds */
	const struct sim_image_spec *image; /* SIM_ARG_IMAGE */
};

/* Statistics of one dispatch, summed over all waves. */
enum sim_class {
	SIM_CLASS_SALU,
	SIM_CLASS_SMEM,
	SIM_CLASS_VALU,
	SIM_CLASS_VALU_TRANS,
	SIM_CLASS_VALU_F64,
	SIM_CLASS_VMEM_LOAD,
	SIM_CLASS_VMEM_STORE,
	SIM_CLASS_VMEM_ATOMIC,
	SIM_CLASS_LDS,
	SIM_CLASS_BRANCH,
	SIM_CLASS_WAITCNT,
	SIM_CLASS_NOP,
	SIM_CLASS_BARRIER,
	SIM_CLASS_MISC,
	SIM_CLASS_MATRIX, /* MFMA / WMMA */
	SIM_NUM_CLASSES
};

/* The compute-unit timing model (cu_model.c, docs/SIMULATOR.md): the launch scheduled on one
 * CU.  Units for issue counts and busy cycles: */
enum sim_cu_unit {
	SIM_CU_VALU,
	SIM_CU_TRANS,
	SIM_CU_MATRIX,
	SIM_CU_SALU, /* SALU and scalar memory */
	SIM_CU_VMEM, /* busy: cycles of the CU's vector memory pipe */
	SIM_CU_LDS,  /* busy: cycles of the CU's LDS pipe, bank conflicts included */
	SIM_CU_BRANCH,
	SIM_CU_NUM_UNITS
};

/* Why a SIMD issued nothing in one of its issue cycles (the oldest wave's reason). */
enum sim_cu_stall {
	SIM_CU_STALL_NONE,       /* (internal) */
	SIM_CU_STALL_IDLE,       /* no wave resident on the SIMD */
	SIM_CU_STALL_WAIT_VMEM,  /* s_waitcnt vmcnt/vscnt (gfx12 loadcnt/storecnt) */
	SIM_CU_STALL_WAIT_LGKM,  /* s_waitcnt lgkmcnt (gfx12 dscnt/kmcnt) */
	SIM_CU_STALL_DEPENDENCY, /* a register not ready (VALU/trans/SALU/matrix latency) */
	SIM_CU_STALL_UNIT,       /* its unit busy or taken by another wave this cycle */
	SIM_CU_STALL_BARRIER,
	SIM_CU_STALL_OTHER, /* s_nop, s_sleep, instruction fetch after a taken branch */
	SIM_CU_NUM_STALLS
};

struct sim_cu_stats {
	bool valid, deadlock;
	const char *missing;               /* asked for but not valid: why (a string literal) */
	uint64_t cycles;                   /* the launch on one CU */
	uint32_t simds;                    /* 4 (CDNA, RDNA WGP mode) or 2 (RDNA CU mode) */
	uint32_t vgprs_per_wave;           /* as allocated (granule) */
	uint32_t vgpr_budget;              /* per SIMD, in the same unit */
	uint32_t waves_per_simd_limit;     /* occupancy the resources allow */
	uint32_t peak_waves_per_simd;      /* most waves resident on one SIMD */
	uint32_t copies;                   /* --cu-fill: times the launch was repeated */
	uint64_t workgroups, waves;        /* scheduled (copies included) */
	uint64_t wave_cycles;              /* sum over cycles of resident waves */
	uint64_t dram_lines;               /* 128-byte lines fetched from DRAM */
	uint64_t issued[SIM_CU_NUM_UNITS]; /* instructions issued per unit */
	uint64_t busy[SIM_CU_NUM_UNITS];   /* busy cycles per unit, summed over SIMDs */
	uint64_t stall[SIM_CU_NUM_STALLS]; /* SIMD issue cycles lost, by reason */
};

struct sim_stats {
	uint64_t insns;                     /* wave instructions executed */
	uint64_t by_class[SIM_NUM_CLASSES]; /* wave instructions per class */
	uint64_t waits;                     /* s_waitcnt (and variants) executed */
	uint64_t wait_stall_cycles;         /* cycles waves spent stalled in s_waitcnt */
	uint64_t barrier_stall_cycles;      /* cycles waves spent waiting at s_barrier */
	uint64_t nop_cycles;                /* cycles spent in s_nop */
	uint64_t cycles;                    /* sum over workgroups of the slowest wave's clock */
	uint64_t waves, workgroups;
	uint64_t violations;    /* strict-checker reports (alignment ones included) */
	uint64_t misaligned;    /* of them, aligned mode's misaligned LDS accesses */
	uint64_t matrix_cycles; /* cycles the matrix units were busy (passes x 4, all waves) */
	bool trapped;           /* the run ended at an s_trap (trap, abort, assert): SIM_ERROR */
	struct sim_cu_stats cu; /* when sim_options.cu_model */
};

struct sim_options {
	uint64_t seed;                   /* latency randomisation seed */
	bool strict;                     /* waitcnt/hazard checker (default on) */
	bool trace;                      /* print each executed instruction */
	FILE *trace_out;                 /* where --trace goes (stdout if NULL) */
	FILE *diag;                      /* where errors and violations go (stderr if NULL) */
	uint32_t max_violations_printed; /* 0 = 20 */
	uint64_t max_insns;              /* per wave; 0 = 1e9 (stops runaway loops) */
	FILE *printf_out;      /* where the printf records go after the dispatch (stdout if NULL) */
	uint32_t printf_bytes; /* size of the printf buffer; 0 = 1 MiB */
	bool cu_model;         /* record the launch and schedule it on one CU (cu_model.c) */
	bool cu_fill;          /* repeat the launch until it has 2x the CU's wave slots */
	/* SH_MEM_CONFIG.ALIGNMENT_MODE the kernel runs under: false = UNALIGNED, what the Linux
	 * KFD (HIP's driver) programs on gfx9..gfx12, where any DS address works; true = the
	 * aligned mode, where a DS access below its required alignment is a violation
	 * (docs/SIMULATOR.md "LDS alignment"). */
	bool strict_alignment;
};

struct sim_dispatch {
	const char *kernel;   /* metadata .name (or symbol without .kd) */
	uint32_t grid[3];     /* workgroups per dimension */
	uint32_t block[3];    /* work-items per workgroup */
	uint32_t dynamic_lds; /* bytes of dynamic shared memory */
	const struct sim_arg *args;
	size_t nargs;
};

/* Result of sim_run. */
enum sim_status {
	SIM_OK = 0,
	SIM_VIOLATIONS = 1, /* ran to completion but the strict checker reported problems */
	SIM_ERROR = 2,      /* bad input or kernel fault; message in err */
};

void sim_options_init(struct sim_options *opt);

/* Parses a code object (copied).  Returns NULL and a one-line reason in err on bad input. */
struct sim_code_object *sim_load(const void *bytes, size_t size, char *err, size_t errlen);
void sim_free(struct sim_code_object *co);
/* sim_load, or for a clang offload bundle (.hipfb) its entry for `gpu` ("gfx90a", or with
 * features "gfx90a:xnack-"); with a plain code object a `gpu` that is not its processor is
 * an error.  `gpu` may be NULL (then a bundle is an error). */
struct sim_code_object *sim_load_for_gpu(const void *bytes, size_t size, const char *gpu, char *err,
                                         size_t errlen);

/* Kernel names in the code object. */
size_t sim_kernel_count(const struct sim_code_object *co);
const char *sim_kernel_name(const struct sim_code_object *co, size_t i);
/* Number of explicit (non-hidden) arguments of a kernel, or -1 if unknown. */
int sim_kernel_nargs(const struct sim_code_object *co, const char *kernel);
/* Processor name from the code object ("gfx90a"). */
const char *sim_target_name(const struct sim_code_object *co);
/* One explicit argument as the metadata describes it (for checking a caller's
 * arguments before a run). */
struct sim_arg_desc {
	const char *name; /* NULL when the metadata has none */
	const char *value_kind;
	uint32_t offset, size;
};
/* The i-th explicit argument of kernel; false when there is no such kernel or argument. */
bool sim_kernel_arg(const struct sim_code_object *co, const char *kernel, int i,
                    struct sim_arg_desc *out);
/* The kernel's .max_flat_workgroup_size, 0 when the metadata does not give it. */
uint32_t sim_kernel_max_flat_workgroup_size(const struct sim_code_object *co, const char *kernel);

/* Runs one dispatch.  OUT/INOUT buffers are copied back even when violations were found. */
enum sim_status sim_run(struct sim_code_object *co, const struct sim_dispatch *d,
                        const struct sim_options *opt, struct sim_stats *stats, char *err,
                        size_t errlen);

/* Prints statistics in the stable text form of `amdsim --stats`. */
void sim_print_stats(FILE *out, const struct sim_stats *s);

#endif
