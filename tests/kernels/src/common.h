/*
 * Shared helpers for the amdsim kernel suite. Kernels are compiled with -nogpulib, so the OpenCL
 * work-item functions (get_global_id, barrier, ...) would be unresolved library calls: these inline
 * helpers lower straight to the AMDGPU intrinsics instead. Work-group sizes come from the code
 * object v5 hidden kernel arguments (hidden_group_size_*), which the simulator must fill.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifdef __AMDGCN__
static inline uint lid_x(void)
{
	return __builtin_amdgcn_workitem_id_x();
}
static inline uint lid_y(void)
{
	return __builtin_amdgcn_workitem_id_y();
}
static inline uint lid_z(void)
{
	return __builtin_amdgcn_workitem_id_z();
}
static inline uint grp_x(void)
{
	return __builtin_amdgcn_workgroup_id_x();
}
static inline uint grp_y(void)
{
	return __builtin_amdgcn_workgroup_id_y();
}
static inline uint grp_z(void)
{
	return __builtin_amdgcn_workgroup_id_z();
}
static inline uint bsize_x(void)
{
	return __builtin_amdgcn_workgroup_size_x();
}
static inline uint bsize_y(void)
{
	return __builtin_amdgcn_workgroup_size_y();
}
static inline uint bsize_z(void)
{
	return __builtin_amdgcn_workgroup_size_z();
}
static inline uint gid_x(void)
{
	return grp_x() * bsize_x() + lid_x();
}
static inline uint gid_y(void)
{
	return grp_y() * bsize_y() + lid_y();
}
static inline uint gid_z(void)
{
	return grp_z() * bsize_z() + lid_z();
}
/* Total work-items in dimension x (from the dispatch packet). */
static inline uint grid_size_x(void)
{
	return __builtin_amdgcn_grid_size_x();
}

/* barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) without the library. */
static inline void wg_barrier(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* Lane index within the wavefront (0..wavesize-1). */
static inline uint lane_id(void)
{
	uint lo = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#if __AMDGCN_WAVEFRONT_SIZE == 64
	return __builtin_amdgcn_mbcnt_hi(~0u, lo);
#else
	return lo;
#endif
}
#elif defined(__NVPTX__)
/* PTX build (tests/exec): clang-19's NVPTX back end turns these into PTX special registers
 * (%tid, %ctaid, %ntid, %nctaid, %laneid) and bar.sync, which ptxas-amd compiles. */
static inline uint lid_x(void)
{
	return __nvvm_read_ptx_sreg_tid_x();
}
static inline uint lid_y(void)
{
	return __nvvm_read_ptx_sreg_tid_y();
}
static inline uint lid_z(void)
{
	return __nvvm_read_ptx_sreg_tid_z();
}
static inline uint grp_x(void)
{
	return __nvvm_read_ptx_sreg_ctaid_x();
}
static inline uint grp_y(void)
{
	return __nvvm_read_ptx_sreg_ctaid_y();
}
static inline uint grp_z(void)
{
	return __nvvm_read_ptx_sreg_ctaid_z();
}
static inline uint bsize_x(void)
{
	return __nvvm_read_ptx_sreg_ntid_x();
}
static inline uint bsize_y(void)
{
	return __nvvm_read_ptx_sreg_ntid_y();
}
static inline uint bsize_z(void)
{
	return __nvvm_read_ptx_sreg_ntid_z();
}
static inline uint gid_x(void)
{
	return grp_x() * bsize_x() + lid_x();
}
static inline uint gid_y(void)
{
	return grp_y() * bsize_y() + lid_y();
}
static inline uint gid_z(void)
{
	return grp_z() * bsize_z() + lid_z();
}
static inline uint grid_size_x(void)
{
	return __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
}
static inline void wg_barrier(void)
{
	__nvvm_bar_sync(0);
}
static inline uint lane_id(void)
{
	return __nvvm_read_ptx_sreg_laneid();
}
#else
/* Host build (hostcheck.py): the driver runs each work-group as one thread per work-item and
 * provides ids and the barrier. Kernels with cross-lane operations are not built for the host.
 */
extern uint host_id(uint what, uint dim); /* 0 local id, 1 group id, 2 group size, 3 grid */
extern void host_barrier(void);
static inline void wg_barrier(void)
{
	host_barrier();
}
static inline uint grid_size_x(void)
{
	return host_id(3, 0);
}
static inline uint lid_x(void)
{
	return host_id(0, 0);
}
static inline uint lid_y(void)
{
	return host_id(0, 1);
}
static inline uint lid_z(void)
{
	return host_id(0, 2);
}
static inline uint grp_x(void)
{
	return host_id(1, 0);
}
static inline uint grp_y(void)
{
	return host_id(1, 1);
}
static inline uint grp_z(void)
{
	return host_id(1, 2);
}
static inline uint bsize_x(void)
{
	return host_id(2, 0);
}
static inline uint bsize_y(void)
{
	return host_id(2, 1);
}
static inline uint bsize_z(void)
{
	return host_id(2, 2);
}
static inline uint gid_x(void)
{
	return grp_x() * bsize_x() + lid_x();
}
static inline uint gid_y(void)
{
	return grp_y() * bsize_y() + lid_y();
}
static inline uint gid_z(void)
{
	return grp_z() * bsize_z() + lid_z();
}

#endif

#ifndef __AMDGCN__
/* Host (and PTX) stand-ins for the AMDGPU instruction builtins bitops.cl and transcend_f32.cl use, written
 * from the ISA manual's descriptions (transcendentals in double precision, sin/cos in
 * revolutions). */
static inline uint host_ubfe(uint x, uint off, uint w)
{
	off &= 31;
	w &= 31;
	return w ? (x >> off) & ((1u << w) - 1) : 0;
}
static inline int host_sbfe(int x, uint off, uint w)
{
	off &= 31;
	w &= 31;
	if (!w)
		return 0;
	uint v = (uint)(x >> off) & ((1u << w) - 1);
	return (v >> (w - 1)) & 1 ? (int)(v | ~((1u << w) - 1)) : (int)v;
}
static inline uint host_perm(uint x, uint y, uint sel)
{
	ulong both = ((ulong)x << 32) | y;
	uint r = 0;
	for (int k = 0; k < 4; k++) {
		uint s = (sel >> (8 * k)) & 0xff;
		r |= s < 8 ? (uint)((both >> (8 * s)) & 0xff) << (8 * k) : 0;
	}
	return r;
}
static inline uint host_alignbit(uint x, uint y, uint s)
{
	return (uint)((((ulong)x << 32) | y) >> (s & 31));
}
static inline float host_fract(float x)
{
	float f = x - __builtin_floorf(x);
	return f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
}
static inline float host_frexp_mant(float x)
{
	int e;
	return __builtin_frexpf(x, &e);
}
static inline int host_frexp_exp(float x)
{
	int e;
	__builtin_frexpf(x, &e);
	return e;
}
#define __builtin_amdgcn_ubfe        host_ubfe
#define __builtin_amdgcn_sbfe        host_sbfe
#define __builtin_amdgcn_perm        host_perm
#define __builtin_amdgcn_alignbit    host_alignbit
#define __builtin_amdgcn_exp2f(x)    ((float)__builtin_exp2((double)(x)))
#define __builtin_amdgcn_logf(x)     ((float)__builtin_log2((double)(x)))
#define __builtin_amdgcn_sinf(x)     ((float)__builtin_sin(6.283185307179586 * (double)(x)))
#define __builtin_amdgcn_cosf(x)     ((float)__builtin_cos(6.283185307179586 * (double)(x)))
#define __builtin_amdgcn_rcpf(x)     (1.0f / (x))
#define __builtin_amdgcn_rsqf(x)     ((float)(1.0 / __builtin_sqrt((double)(x))))
#define __builtin_amdgcn_sqrtf(x)    __builtin_sqrtf(x)
#define __builtin_amdgcn_fractf      host_fract
#define __builtin_amdgcn_ldexpf      __builtin_ldexpf
#define __builtin_amdgcn_frexp_mantf host_frexp_mant
#define __builtin_amdgcn_frexp_expf  host_frexp_exp
#endif
