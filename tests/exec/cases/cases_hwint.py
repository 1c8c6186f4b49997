"""Case for tests/exec/ptx/hwint.ptx: integer semantics as NVIDIA hardware computes them where
the PTX ISA's pseudo-code differs (docs/SEMANTICS.md): bfe/bfi with positions and lengths beyond
the width (register and immediate operands), fns with offset INT_MIN, div/rem by zero on 16, 32
and 64 bits, carry chains mixing add.cc/sub.cc/madc.  The references are hwint_ref.py's rules,
derived from the H100 results of ../shared/ptx-hw and checked against all of them by
tests/exec/hwint_verify.py; never from the compiler's output."""

import random

import hwint_ref as R
from ref import Case, In, Out, unpack, M32, M64

NOUT = 49

POS_LEN = [0, 1, 5, 8, 16, 31, 32, 33, 40, 63, 64, 65, 128, 200, 255, 256, 257, 0x108, 0x1ff,
           0x10000, 0x7fffffff, 0x80000000, 0xffffff00, 0xffffffff]
OFFSETS = [0, 1, -1, 2, -2, 3, -5, 31, -31, 32, -32, 33, 0x7fffffff, -0x7fffffff, -(1 << 31)]
V64 = [0, 1, M64, 1 << 63, (1 << 63) - 1, M32, 1 << 32, 0xffffffff00000000, 0x8000000080000000,
       0x0000800000008000, 0x00007fff0000ffff, 0x123456789abcdef0, 0xfedcba9876543210]


def hi(v):
    return (v >> 32) & M32


def lo(v):
    return v & M32


def results(a, b, c, d):
    a0, a1, b0, b1, pos, ln, m, off = lo(a), hi(a), lo(b), hi(b), lo(c), hi(c), lo(d), hi(d)
    r = [R.bfe(a, pos, ln, False, 64), R.bfe(a, pos, ln, True, 64), R.bfi(a, b, pos, ln, 64),
         R.bfe(a0, pos, ln, True, 32), R.bfe(a0, pos, ln, False, 32),
         R.bfi(a0, b0, pos, ln, 32),
         R.bfe(a0, 40, 3, True, 32, imm=True), R.bfe(a0, 255, 16, True, 32, imm=True),
         R.bfe(a0, 33, 0, True, 32, imm=True), R.bfe(a0, 40, 3, False, 32, imm=True),
         R.bfi(a0, b0, 5, 32, 32, imm=True), R.bfi(a0, b0, 1, 64, 32, imm=True),
         R.bfi(a0, b0, 0, 64, 32, imm=True), R.bfi(a0, b0, 16, 33, 32, imm=True),
         R.bfe(a, 256, 8, True, 64, imm=True), R.bfi(a, b, 0x100, 8, 64, imm=True),
         R.fns(m, pos, off), R.fns(m, 3, 0x80000000)]
    for w, x, y in ((32, a0, b0), (64, a, b)):
        for signed in (False, True):
            r += [R.div(x, y, w, signed), R.rem(x, y, w, signed)]
    h1, h2 = a0 & 0xffff, b0 & 0xffff
    r.append(R.div(h1, h2, 16, True) | R.rem(h1, h2, 16, True) << 16 |
             R.div(h1, h2, 16, False) << 32 | R.rem(h1, h2, 16, False) << 48)
    # add.cc a0+b0; subc.cc a1-b1; addc 0, 0
    x0, cf = R.add_cc(a0, b0, 0, 32)
    x1, cf = R.sub_cc(a1, b1, cf, 32)
    r += [x0, x1, R.add_cc(0, 0, cf, 32)[0]]
    # sub.cc a0-b0; addc.cc a1+b1; subc c0-c1
    x0, cf = R.sub_cc(a0, b0, 1, 32)
    x1, cf = R.add_cc(a1, b1, cf, 32)
    r += [x0, x1, R.sub_cc(pos, ln, cf, 32)[0]]
    # sub.cc.u64 A-B; addc.cc.u64 C+D; addc.u64 0, 0
    x0, cf = R.sub_cc(a, b, 1, 64)
    x1, cf = R.add_cc(c, d, cf, 64)
    r += [x0, x1, R.add_cc(0, 0, cf, 64)[0]]
    # mad.lo.cc a0*b0+c0; subc.cc a1-b1; madc.hi.cc a0*b0+d0; addc 0, 0
    x0, cf = R.mad_cc(a0, b0, pos, 0, 32)
    x1, cf = R.sub_cc(a1, b1, cf, 32)
    x2, cf = R.mad_cc(a0, b0, m, cf, 32, hi=True)
    r += [x0, x1, x2, R.add_cc(0, 0, cf, 32)[0]]
    # sub.cc.s64 A-B; subc.cc.s64 C-D; addc.s64 0, 0
    x0, cf = R.sub_cc(a, b, 1, 64)
    x1, cf = R.sub_cc(c, d, cf, 64)
    r += [x0, x1, R.add_cc(0, 0, cf, 64)[0]]
    # add.cc.u64 A+B; subc.u64 C-D
    x0, cf = R.add_cc(a, b, 0, 64)
    r += [x0, R.sub_cc(c, d, cf, 64)[0]]
    # sub.cc.s32 a0-b0; madc.lo.cc.s32 a1*b1+c0; subc.cc d0-d1; subc 0, 0
    x0, cf = R.sub_cc(a0, b0, 1, 32)
    x1, cf = R.mad_cc(a1, b1, pos, cf, 32, signed=True)
    x2, cf = R.sub_cc(m, off, cf, 32)
    r += [x0, x1, x2, R.sub_cc(0, 0, cf, 32)[0]]
    assert len(r) == NOUT
    return r


def operands(rng, n):
    a, b, c, d = [], [], [], []
    for i in range(n):
        a.append(rng.choice(V64) if i % 3 == 0 else rng.getrandbits(64))
        kind = i % 4
        if kind == 0:  # zero divisors of every width
            b.append(rng.choice([0, 1 << 32, 0xffff0000, 1 << 16, M64, 0xffffffff00000000]))
        else:
            b.append(rng.choice(V64) if kind == 1 else rng.getrandbits(64))
        c.append(rng.choice(POS_LEN) | rng.choice(POS_LEN) << 32)
        d.append(rng.choice([0, M32, 0x80000001, 0x55555555, rng.getrandbits(32)]) |
                 (rng.choice(OFFSETS) & M32) << 32)
    for i in range(0, n, 11):  # all-ones words: carries and borrows ripple through the chains
        a[i], b[i] = M64, rng.choice([M64, 0, 1])
    return a, b, c, d


def hwint_case():
    rng = random.Random('hwint')
    n, block = 512, 128
    a, b, c, d = operands(rng, n)

    def expect():
        out = []
        for i in range(n):
            out += results(a[i], b[i], c[i], d[i])
        return out

    def check(outs, wave):
        got, errs = unpack('Q', outs[0]), []
        for k, (g, e) in enumerate(zip(got, expect())):
            if g != e:
                i = k // NOUT
                errs.append('hwint thread %d result %d: got %#x, expected %#x (A=%#x B=%#x C=%#x '
                            'D=%#x)' % (i, k % NOUT, g, e, a[i], b[i], c[i], d[i]))
                if len(errs) > 12:
                    break
        return errs

    return Case('hwint', 'hwint', (n // block,), (block,),
                [Out(8 * NOUT * n), In('Q', a), In('Q', b), In('Q', c), In('Q', d), ('u32', n)],
                check)


def cases():
    return [hwint_case()]
