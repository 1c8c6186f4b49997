"""VGPR spilling: tests/exec/ptx/spill_*.ptx compiled under register budgets small enough that
the allocator must spill VGPRs to scratch (--maxrregcount through the case's ptxas_flags, or
.maxnreg in the PTX).  must_spill makes run_ptx.py check that ptxas-amd -v reports spill
stores, so a case cannot pass without spilling.  References follow the PTX ISA's definitions
of the kernels' instructions, never ptxas-amd's output; the memspace kernels keep the
references of cases_memspace.py.
"""

import copy
import os
import random
import sys

from ref import Case, In, Out, unpack, M32, M64

N_THREADS = 96  # two waves on wave64 targets, three on wave32; grid of 2 blocks of 48


def mix_expect(words, n, nthreads):
    """spill_mix / spill_maxnreg per thread: 16 u32, 4 u64, the last i, a zero word of padding
    (26 u32 words, so that the u64 stores are 8-byte aligned as CUDA requires)."""
    out = []
    for t in range(nthreads):
        a = list(words[16 * t:16 * t + 16])
        d = [(a[2 * k] * a[2 * k + 1]) & M64 for k in range(4)]
        if t & 1 == 0:
            a[0] = (a[0] + 100) & M32
            a[5] ^= 0x55
            d[1] = (d[1] + d[0]) & M64
        else:
            a[1] = (a[1] - 7) & M32
            a[9] = (a[9] * 3) & M32
            d[2] ^= d[3]
        cnt = n + t % 5
        i = 0
        while i < cnt:
            for k in range(15):
                a[k] = (a[k] * 3 + a[k + 1]) & M32
            a[15] = ((a[15] ^ i) + a[0]) & M32
            d[0] = (d[0] * 5 + d[1]) & M64
            d[1] ^= d[2] >> 3
            d[2] = (d[2] + d[3]) & M64
            d[3] = (d[3] * 7 + i) & M64
            if a[3] & 1023 == 1023:
                break
            i += 1
        row = a[:]
        for k in range(4):
            row += [d[k] & M32, d[k] >> 32]
        row += [i, 0]
        out += row
    return out


def mix_case(name, kernel, flags, seed):
    rng = random.Random(name)
    words = [rng.getrandbits(32) for _ in range(16 * N_THREADS)]
    for t in range(0, N_THREADS, 7):  # some lanes leave the loop early: a3 & 1023 == 1023
        words[16 * t + 3] |= 1023
        words[16 * t + 4] = 0
    n = 6

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), mix_expect(words, n, N_THREADS)
        return ['%s thread %d word %d: got %#x, expected %#x' % (name, k // 26, k % 26, g, e)
                for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]

    c = Case(name, kernel, (2,), (N_THREADS // 2,),
             [Out(104 * N_THREADS), In('I', words), ('u32', n)], check)
    c.ptxas_flags = flags
    c.must_spill = True
    return c


def grid3_case(name, flags):
    """spill_grid3: spill_mix's reference on a 2 x 2 x 2 grid of 48-thread blocks (thread index
    from the three block ids, x fastest); gid[0] = %gridid, the HSA dispatch id, 0 in amdsim,
    where each launch is the first packet of its queue (machine-specific, as in
    cases_sreg2.py)."""
    nthreads = 8 * 48
    rng = random.Random(name)
    words = [rng.getrandbits(32) for _ in range(16 * nthreads)]
    for t in range(0, nthreads, 7):  # some lanes leave the loop early: a3 & 1023 == 1023
        words[16 * t + 3] |= 1023
        words[16 * t + 4] = 0
    n = 5

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), mix_expect(words, n, nthreads)
        errs = ['%s thread %d word %d: got %#x, expected %#x' % (name, k // 26, k % 26, g, e)
                for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]
        gid = unpack('Q', outs[1])[0]
        return errs + (['%s: %%gridid %#x, the dispatch id is 0' % (name, gid)] if gid else [])

    c = Case(name, 'spill_grid3', (2, 2, 2), (48,),
             [Out(104 * nthreads), In('I', words), ('u32', n), Out(8)], check)
    c.ptxas_flags = flags
    c.must_spill = True
    return c


def sgpr_first_case(name, flags):
    """spill_sgpr_first (ptx/gen_spill_sgpr_first.py, which gives the semantics): SGPRs spill
    to VGPR lanes before VGPRs must spill to scratch; one block of 64 threads.  On gfx90a and
    gfx1030 the driver goes back to the code as selection made it before mir_setup_scratch:
    allocate_scheduled's kept copy at -O3, ra_run_unchanged's at -O0."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    'ptx'))
    from gen_spill_sgpr_first import NS, NV, NP
    rng = random.Random(name)
    params = [rng.getrandbits(32) for _ in range(NP)]
    n, nthreads = 3, 64

    def expect(t):
        s = [(params[k % NP] * (2 * k + 1) + k) & M32 for k in range(NS)]
        v = [(t * (2 * k + 3) + 977 * k + 1) & M32 for k in range(NV)]
        for i in range(n):
            for k in range(NS):
                s[k] = ((s[k] * 3 + s[(k + 1) % NS]) & M32) ^ i
            for k in range(NV):
                v[k] = (v[k] * 5 + v[(k + 1) % NV] + s[k]) & M32
        acc = 0
        for x in s:
            acc = (acc * 7 + x) & M32
        for x in v:
            acc = (acc * 11 + x) & M32
        return acc

    def check(outs, wave):
        got = unpack('I', outs[0])
        return ['%s thread %d: got %#x, expected %#x' % (name, t, got[t], expect(t))
                for t in range(nthreads) if got[t] != expect(t)][:8]

    c = Case(name, 'spill_sgpr_first', (1,), (nthreads,),
             [Out(4 * nthreads), ('u32', n)] + [('u32', x) for x in params], check)
    c.ptxas_flags = flags
    c.must_spill = True
    return c


def entry_masks_case(name, flags, must_spill):
    """scratch_entry_masks (the PTX's header gives the semantics): a 2 x 2 x 2 grid of 48-thread
    blocks; %gridid is 0 in amdsim (cases_sreg2.py)."""
    nthreads = 8 * 48
    rng = random.Random(name)
    words = [rng.getrandbits(32) for _ in range(nthreads)]

    def expect(t):
        bx, by, bz = (t // 48) % 2, (t // 96) % 2, t // 192
        x = words[t]
        for i in range(12):
            x = (x * 1664525 + 1013904223) & M32
            if x >> 24 < 40:
                return ((((x + 0x10001 * bz) & M32) ^ i) + t) & M32
        return ((x + 3 * by + 7 * bz + bx) & M32) ^ t

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = ['%s thread %d: got %#x, expected %#x' % (name, t, got[t], expect(t))
                for t in range(nthreads) if got[t] != expect(t)][:8]
        gid = unpack('Q', outs[1])[0]
        return errs + (['%s: %%gridid %#x, the dispatch id is 0' % (name, gid)] if gid else [])

    c = Case(name, 'scratch_entry_masks', (2, 2, 2), (48,),
             [Out(4 * nthreads), In('I', words), Out(8)], check)
    c.ptxas_flags = flags
    c.must_spill = must_spill
    return c


def with_budget(case, name, vgprs):
    """An existing case (its own reference) under a VGPR budget that makes it spill."""
    c = copy.copy(case)
    c.name = name
    c.ptxas_flags = ['--maxrregcount', str(vgprs)]
    c.must_spill = True
    return c


def cases():
    import cases_memspace  # .local frames and generic addresses next to the spill slots
    mem = {c.name: c for c in cases_memspace.cases()}
    return [mix_case('spill_mix_r8', 'spill_mix', ['--maxrregcount', '8'], 1),
            mix_case('spill_mix_r24', 'spill_mix', ['--maxrregcount', '24'], 2),
            mix_case('spill_maxnreg', 'spill_maxnreg', [], 3),
            grid3_case('spill_grid3_r12', ['--maxrregcount', '12']),
            sgpr_first_case('spill_sgpr_first_r10', ['--maxrregcount', '10']),
            entry_masks_case('scratch_entry_masks', [], False),
            entry_masks_case('scratch_entry_masks_o0', ['-O0'], False),
            sgpr_first_case('spill_sgpr_first_o0_r10', ['-O0', '--maxrregcount', '10']),
            with_budget(mem['memspace_local'], 'spill_local_r8', 8),
            with_budget(mem['memspace_depot'], 'spill_depot_r8', 8),
            with_budget(mem['memspace_generic'], 'spill_generic_r8', 8)]
