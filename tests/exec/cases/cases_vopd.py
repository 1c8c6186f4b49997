"""Case for tests/exec/ptx/vopd_mix.ptx: independent f32 fma/add/sub/mul/max/min and u32
add/shl/and/mov that gfx1100/gfx1200 pair into VOPD dual-issue instructions (src/sched/vopd.c;
the other targets run the same kernel unpaired).  The reference evaluates each PTX
instruction as the PTX ISA defines it; the f32 inputs are nonzero integers of magnitude at
most 8, so every f32 result is exact and Python's double arithmetic gives its bits."""

import random
import struct

from ref import Case, In, Out, unpack, M32

NOUT = 48


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def results(a, u):
    r = [0] * NOUT
    c = [1.0 if k % 2 == 0 else 2.0 for k in range(8)]
    for rot in (1, 3, 6):
        c = [a[k] * a[(k + rot) % 8] + c[k] for k in range(8)]
    fs = [0.0] * 16
    for k in range(4):
        fs[k] = a[k] + a[7 - k]
        fs[4 + k] = a[k] - a[(k + 3) % 8]
        fs[8 + k] = a[k] * a[(k + 5) % 8]
    for k in range(2):
        fs[12 + k] = max(a[2 * k], a[2 * k + 5])
        fs[14 + k] = min(a[2 * k + 1], a[2 * k + 4])
    r[0:8] = [f32_bits(x) for x in c]
    r[8:24] = [f32_bits(x) for x in fs]
    for k in range(4):
        r[24 + k] = (u[k] + u[(k + 1) % 8]) & M32
        r[28 + k] = (u[4 + k] << (3 + k)) & M32
        r[32 + k] = u[k] & u[7 - k]
        r[36 + k] = 1000 + 7 * k
    for k in range(2):
        t0 = a[k] + a[k + 1]
        t1 = t0 * a[k + 2]
        t2 = t1 - a[k + 3]
        t3 = max(t2, a[k + 4])
        r[40 + 4 * k:44 + 4 * k] = [f32_bits(x) for x in (t0, t1, t2, t3)]
    return r


def vopd_case():
    rng = random.Random('vopd_mix')
    cnt, block = 160, 64
    a = [float(rng.choice([-1, 1]) * rng.randint(1, 8)) for _ in range(8 * cnt)]
    u = [rng.getrandbits(32) for _ in range(8 * cnt)]

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(cnt):
            exp = results(a[8 * i:8 * i + 8], u[8 * i:8 * i + 8])
            for k in range(NOUT):
                if got[i * NOUT + k] != exp[k]:
                    errs.append('vopd_mix thread %d result %d: got %#x, expected %#x'
                                % (i, k, got[i * NOUT + k], exp[k]))
                    if len(errs) > 12:
                        return errs
        return errs

    return Case('vopd_mix', 'vopd_mix', ((cnt + block - 1) // block,), (block,),
                [Out(4 * NOUT * cnt), In('f', a), In('I', u), ('u32', cnt)], check)


def cases():
    return [vopd_case()]
