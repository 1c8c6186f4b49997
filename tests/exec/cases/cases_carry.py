"""Carry chains across control flow (tests/exec/ptx/carry_cf.ptx): CC.CF written by add.cc /
addc.cc is read after a divergent if/else join and around a loop with a divergent trip count.
Reference from the PTX ISA: add.cc writes the carry-out of the 32-bit sum to CC.CF, addc adds
it in (and addc.cc writes the new carry-out).
"""

import random

from ref import Case, In, Out, unpack, M32

GRID, BLOCK = 3, 96


def results(i, a, b):
    s = a + b
    first, cc = s & M32, s >> 32
    s2 = (a + a + cc) if i % 2 == 0 else (b + b)
    branch, cc = s2 & M32, s2 >> 32
    joined = (first + cc) & M32
    acc, cc = 0, int(b != 0)
    for _ in range(i % 3 + 1):
        t = acc + a + cc
        acc, cc = t & M32, t >> 32
    return [branch, joined, acc, cc]


def operands(rng, n):
    edge = [0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, M32]
    a = [rng.choice(edge) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(n)]
    b = [rng.choice(edge) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(n)]
    return a, b


def carry_cf_case():
    n = GRID * BLOCK
    a, b = operands(random.Random('carry_cf'), n)

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(n):
            want = results(i, a[i], b[i])
            if list(got[4 * i:4 * i + 4]) != want:
                errs.append('carry_cf thread %d: got %s, expected %s (a=%#x b=%#x)' % (
                    i, [hex(v) for v in got[4 * i:4 * i + 4]], [hex(v) for v in want], a[i], b[i]))
            if len(errs) > 12:
                break
        return errs

    return Case('carry_cf', 'carry_cf', (GRID,), (BLOCK,),
                [Out(16 * n), In('I', a), In('I', b), ('u32', n)], check)


def cases():
    return [carry_cf_case()]
