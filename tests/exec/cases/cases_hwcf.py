"""Cases for tests/exec/ptx/hwcf_*.ptx: control-flow shapes where ptxas-amd once differed
from NVIDIA hardware (issue 17): a predicate set from uniform operands under a divergent
branch (and vote.sync.all under a partial membermask) read after the join, or carried out
of a loop by a divergent exit into a join; predicates and loop-header values read after a
loop whose exit is divergent or is its latch (the lost copy); scalar code of a barrier
block a wave walks with an empty EXEC; generic ld/st naming a .local variable.
References from the PTX ISA's per-thread semantics."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, Out, unpack  # noqa: E402

M32 = 0xffffffff
GRID, BLOCK = 2, 64


def pjoin_expected(u, wave):
    out = []
    for c in range(GRID):
        v = u ^ c
        for t in range(BLOCK):
            n = (t & 7) + 1
            lane = t % wave
            h = t
            for _ in range((v & 3) + 1):
                h = (3 * h + 1) & M32
            out += [int(v > 3 if t < 5 else v > 100),
                    int(v > 3 if lane < 16 else v > 1000),
                    int((((n - 1) * v) & M32 & 4) != 0),
                    ((n - 1) * v) & M32,
                    h,
                    int((v != 0) ^ ((n - 1) & 1)),
                    (3 * v) & M32 if t < 5 else (v + 100) & M32,
                    ((n - 1) * v) & M32]
    return out


def pjoin_case(u):
    def check(outs, wave):
        got, exp = unpack('I', outs[0]), pjoin_expected(u, wave)
        what = ('pred after join', 'vote.all after join', 'pred after loop',
                'header value after loop', 'uniform loop header value', 'header pred after loop',
                'uniform value after join', 'uniform value after loop')
        return ['hwcf_pjoin u=%d thread %d %s: got %d, expected %d' % (
            u, i // 8, what[i % 8], got[i], exp[i])
            for i in range(len(exp)) if got[i] != exp[i]][:12]
    c = Case('hwcf_pjoin_%d' % u, 'hwcf_pjoin', (GRID,), (BLOCK,),
             [Out(4 * 8 * GRID * BLOCK), ('u32', u)], check)
    c.ptxas_flags = ['-Wno-lanemask']  # 0xffff: lanes 0-15 of each warp, on wave64 too
    c.warp_level = True  # also RDNA in wave64 and 32-lane warps on wave64
    return c


def barphi_case(u, n, block):
    def check(outs, wave):
        got = unpack('I', outs[0])
        exp = []
        for c in range(GRID):
            for t in range(block):
                if c == 0:
                    exp.append((((u * c + n) & M32) ^ 0x5000) + (1 if t < n else 0))
                else:
                    exp.append(((u + 7) & M32) + (9 if t < 3 else 0))
        return ['hwcf_barphi thread %d: got %#x, expected %#x' % (i, got[i], exp[i])
                for i in range(len(exp)) if got[i] != exp[i]][:8]
    return Case('hwcf_barphi_%d' % block, 'hwcf_barphi', (GRID,), (block,),
                [Out(4 * GRID * block), ('u32', u), ('u32', n)], check)


def localgen_case():
    def check(outs, wave):
        got = unpack('I', outs[0])
        exp = []
        for g in range(GRID * BLOCK):
            exp += [g + 1000, 3 * g, 77, 3 * g]
        return ['hwcf_localgen word %d: got %d, expected %d' % (i, got[i], exp[i])
                for i in range(len(exp)) if got[i] != exp[i]][:8]
    return Case('hwcf_localgen', 'hwcf_localgen', (GRID,), (BLOCK,),
                [Out(16 * GRID * BLOCK)], check)


def swap_case(u):
    def check(outs, wave):
        got, exp = unpack('I', outs[0]), []
        for g in range(GRID * BLOCK):
            t = g % BLOCK
            a, b = t, u
            for _ in range(t % 5 + 1):
                olda = a
                a, b = b, (a + 1) & M32
            p = t & 1
            for _ in range(3):
                for _ in range((t & 3) + 1):
                    q = p
                    p ^= 1
            exp += [olda, a, b, q]
        return ['hwcf_swap word %d: got %#x, expected %#x' % (i, got[i], exp[i])
                for i in range(len(exp)) if got[i] != exp[i]][:8]
    return Case('hwcf_swap', 'hwcf_swap', (GRID,), (BLOCK,),
                [Out(16 * GRID * BLOCK), ('u32', u)], check)


def pexit_case(u):
    def check(outs, wave):
        got, exp = unpack('I', outs[0]), []
        for g in range(GRID * BLOCK):
            t = g % BLOCK
            exp.append(int(u < 3) if t < 2 else (t % 5 + 1) & 1)
        return ['hwcf_pexit u=%d thread %d: got %d, expected %d' % (u, i, got[i], exp[i])
                for i in range(len(exp)) if got[i] != exp[i]][:8]
    return Case('hwcf_pexit_%d' % u, 'hwcf_pexit', (GRID,), (BLOCK,),
                [Out(4 * GRID * BLOCK), ('u32', u)], check)


def cases():
    return [pjoin_case(7), pjoin_case(200), barphi_case(100, 5, 64), barphi_case(3, 40, 128),
            localgen_case(), swap_case(0x1234), pexit_case(1), pexit_case(7)]
