"""Cases for tests/exec/ptx/sreg_misc.ptx: the special registers whose values are the
machine's (clocks, timers, SM ids, shared memory sizes).  Checked is only what the PTX ISA
guarantees: %clock64 and %globaltimer do not go backwards between two reads of a thread, the
_hi/_lo and 32-bit forms are the halves of a value between those reads, %smid < %nsmid and
equal in a CTA (a CTA runs on one SM), %warpid < %nwarpid, %dynamic_smem_size is the launch's,
%total_smem_size covers the static and dynamic shared memory in allocation units (at most 1 KiB
more) and %aggr_smem_size is not smaller; %gridid is the launch's number (the HSA dispatch id,
0 for amdsim's one-packet queue) in every thread.

Machine-specific by design, so these checks hold ptxas-amd's definitions, not NVIDIA's (the H100
replay fails them; docs/TESTS_ON_NVIDIA.md): %warpid is the wave's index in its workgroup
(NVIDIA: the warp's hardware slot on the SM), %nwarpid is 1024 / warp size (NVIDIA: the SM's
warp slots, 64 on the H100), %gridid is the HSA dispatch id (NVIDIA: its own launch counter,
4 and 5 in the replay)."""

from ref import Case, Out, unpack

M32 = 0xffffffff
STATIC_SMEM = 400  # .shared sbuf[100] of sreg_misc.ptx
GRID, BLOCK = 3, 96


def check_thread(i, w, dyn, warp):
    """Errors of thread i's 16 slots w (u64); warp: the warp size the PTX sees."""
    c0, c1, c_hi, g0, g1, g_hi, g_lo = w[0:7]
    errs = []
    if c1 < c0:
        errs.append('%%clock64 went back: %d then %d' % (c0, c1))
    if not (c0 >> 32 <= c_hi <= c1 >> 32):
        errs.append('%%clock_hi %#x not between %#x and %#x' % (c_hi, c0, c1))
    clock32 = w[11]
    if c0 >> 32 == c1 >> 32 and not (c0 & M32 <= clock32 <= c1 & M32):
        errs.append('%%clock %#x not between %#x and %#x' % (clock32, c0, c1))
    if g1 < g0:
        errs.append('%%globaltimer went back: %d then %d' % (g0, g1))
    if not (g0 >> 32 <= g_hi <= g1 >> 32):
        errs.append('%%globaltimer_hi %#x not between %#x and %#x' % (g_hi, g0, g1))
    if g0 >> 32 == g1 >> 32 and not (g0 & M32 <= g_lo <= g1 & M32):
        errs.append('%%globaltimer_lo %#x not between %#x and %#x' % (g_lo, g0, g1))
    smid, nsmid = w[7] & M32, w[7] >> 32
    if not smid < nsmid:
        errs.append('%%smid %d >= %%nsmid %d' % (smid, nsmid))
    warpid, nwarpid = w[8] & M32, w[8] >> 32
    # ptxas-amd's %nwarpid is 1024 / warp size (a CTA has at most 1024 threads); PTX only
    # requires %warpid < %nwarpid, checked with the CTA's highest warp
    if warpid != (i % BLOCK) // warp or not warpid < nwarpid or nwarpid > 1024 // warp:
        errs.append('%%warpid %d (expected %d), %%nwarpid %d (ptxas-amd\'s definitions: '
                    'machine-specific)' % (warpid, (i % BLOCK) // warp, nwarpid))
    dsz, tsz, asz = w[9] & M32, w[9] >> 32, w[10] & M32
    if dsz != dyn:
        errs.append('%%dynamic_smem_size %d, launched with %d' % (dsz, dyn))
    if not STATIC_SMEM + dyn <= tsz < STATIC_SMEM + dyn + 1024 or asz < tsz:
        errs.append('%%total_smem_size %d / %%aggr_smem_size %d for %d static + %d dynamic'
                    % (tsz, asz, STATIC_SMEM, dyn))
    if w[12] & M32 != i:
        errs.append('shared store/load: %d' % (w[12] & M32))
    if w[13] != 0:  # amdsim runs each launch as the first packet of its queue: dispatch id 0
        errs.append('%%gridid %#x, the dispatch id is 0 (machine-specific)' % w[13])
    if w[15] != c0:
        errs.append('first %%clock64 stored twice differs: %d %d' % (c0, w[15]))
    return errs


def sreg_misc_case(dyn):
    n = GRID * BLOCK

    def check(outs, wave):
        got = unpack('Q', outs[0])
        errs = []
        for i in range(n):
            w = got[16 * i:16 * i + 16]
            errs += ['thread %d: %s' % (i, e) for e in check_thread(i, w, dyn, wave)]
            if i % BLOCK and w[7] & M32 != got[16 * (i - 1) + 7] & M32:
                errs.append('thread %d: %%smid %d differs in its CTA' % (i, w[7] & M32))
            if len(errs) > 12:
                break
        return errs

    case = Case('sreg_misc_dyn%d' % dyn, 'sreg_misc', (GRID,), (BLOCK,), [Out(128 * n)], check)
    case.dynamic_lds = dyn
    case.warp_level = True  # %warpid/%nwarpid: also wave64 and 32-lane warps on wave64
    return case


def cases():
    return [sreg_misc_case(256), sreg_misc_case(1000)]
