"""Cases for vector-typed registers and the atomics build_vec.c expands
(tests/exec/ptx/vec_regs.ptx, vec_atomics.ptx).  References from the PTX ISA: a vector register
is its components (ld/st/mov of the whole register move them in order, x at the lowest address
or the lowest bits; a register wider than the instruction type is zero-extended for .u/.b
types); atom.add.noftz of f16/bf16 (x2: each half) rounds the sum to nearest even without
flushing subnormals; atom.cas.b16 stores c when the old value equals b; vector atomics are one
independent atomic per element.  Contended counters use sums that are exact in every order, so
the final values are known and the returned old values a known multiset.
"""

import random
import struct
from collections import Counter
from fractions import Fraction

from cases_arith2 import round_bits
from ref import Case, In, InOut, Out, unpack, M32

F16 = (10, 5)  # stored mantissa bits, exponent bits
BF16 = (7, 8)


def _round(q, fmt):
    """Fraction q to the nearest even value of the 16-bit format (bits); overflow -> inf."""
    return round_bits(q, *fmt)


def _val(h, fmt):
    """('nan',) | ('inf', sign) | ('num', Fraction, sign) of a 16-bit pattern"""
    mb, eb = fmt
    sign = h >> 15 & 1
    e, m = h >> mb & ((1 << eb) - 1), h & ((1 << mb) - 1)
    if e == (1 << eb) - 1:
        return ('nan',) if m else ('inf', sign)
    bias = (1 << (eb - 1)) - 1
    v = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias) if e == 0 else \
        Fraction((1 << mb) | m, 1 << mb) * Fraction(2) ** (e - bias)
    return ('num', -v if sign else v, sign)


def add16(a, b, fmt):
    """a + b rounded to nearest even (bits), or None for a NaN result"""
    x, y = _val(a, fmt), _val(b, fmt)
    if x[0] == 'nan' or y[0] == 'nan':
        return None
    if x[0] == 'inf' or y[0] == 'inf':
        if x[0] == 'inf' and y[0] == 'inf' and x[1] != y[1]:
            return None
        s = x[1] if x[0] == 'inf' else y[1]
        if fmt == F16:
            return 0xfc00 if s else 0x7c00
        return 0xff80 if s else 0x7f80
    s = x[1] + y[1]
    if s == 0:  # exact zero: -0 only for (-0) + (-0)
        return 0x8000 if x[1] == 0 and y[1] == 0 and x[2] and y[2] else 0
    return _round(s, fmt)


def is_nan16(h, fmt):
    mb, eb = fmt
    return (h >> mb & ((1 << eb) - 1)) == (1 << eb) - 1 and h & ((1 << mb) - 1) != 0


def h16(k, fmt=F16):
    return _round(Fraction(k), fmt)


def f32b(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def _multiset(label, got, exp, errs):
    g, e = Counter(got), Counter(exp)
    if g != e:
        errs.append('%s: returned values differ as a multiset: extra %s, missing %s' % (
            label, [hex(v) for v in sorted((g - e).elements())[:6]],
            [hex(v) for v in sorted((e - g).elements())[:6]]))


def _eq(label, got, exp, errs):
    if got != exp:
        errs.append('%s: got %#x, expected %#x' % (label, got, exp))


def _eq16(label, got, exp, fmt, errs):
    """exp None: any NaN"""
    if exp is None:
        if not is_nan16(got, fmt):
            errs.append('%s: got %#06x, expected a NaN' % (label, got))
    elif got != exp:
        errs.append('%s: got %#06x, expected %#06x' % (label, got, exp))


# ---------------------------------------------------------------- vec_regs

def regs_case():
    rng = random.Random('vec_regs')
    nblk, bs = 2, 256
    n = nblk * bs
    a = []
    for i in range(n):
        w = [rng.getrandbits(32) for _ in range(8)]
        w[6] = f32b(rng.uniform(-1000.0, 1000.0))
        w[7] = f32b(rng.uniform(-1000.0, 1000.0)) if i % 5 else w[6] ^ 0x80000000
        a += w
    gv = [f32b(1.5), f32b(-2.0), 0x7f800000, f32b(3.25)]

    def f(bits):
        return struct.unpack('<f', struct.pack('<I', bits))[0]

    def expect(i, wave):
        w = a[8 * i:8 * i + 8]
        o = [0] * 40
        o[0:4] = [(w[1] + 1) & M32, w[1], w[2], 7]
        o[4:6] = [(w[1] + 1) & M32, w[2]]
        o[6:8] = [w[4] & 0xffff, w[4] >> 16]
        o[8:12] = [w[2], 0, w[3], 0]
        o[12:14] = [w[2], w[3]]
        o[14:16] = [w[6], w[7]]
        x, y = ((i >> 16) + 3) & 0xffff, i >> 16
        o[16] = x | y << 16
        o[17] = f32b(float(Fraction(w[6])))  # cvt.rn.f32.u32 (struct rounds to nearest even)
        o[18] = f32b(f(w[6]) + f(w[7]))       # one f32 add, exact in double then rounded
        o[19] = o[17] if w[4] < w[5] else f32b(1.0)
        lane = i % wave
        o[20] = i if wave == 64 and lane >= 32 else i ^ 1  # clamp 31 on a 64-lane warp
        o[22:24] = [w[7], w[4]] if i & 1 else [w[2], w[3]]
        o[24:26] = [w[2], w[3]]
        o[26] = (w[7] + w[1]) & M32
        o[27] = w[0]
        o[28:32] = [w[6], w[7], w[4], w[5]]
        o[32] = gv[i % 4]
        o[34:38] = [(w[1] + 5) & M32, w[0], (w[3] + 5) & M32, w[2]]
        return o

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(n):
            e = expect(i, wave)
            for j in range(40):
                if got[40 * i + j] != e[j]:
                    errs.append('thread %d o[%d] = %#x, expected %#x' % (
                        i, j, got[40 * i + j], e[j]))
            if len(errs) > 10:
                break
        return errs

    return Case('vec_regs', 'vec_regs', (nblk,), (bs,),
                [In('I', a), Out(160 * n), ('u32', n)], check)


# ---------------------------------------------------------------- vec_atomics

F16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
            0x7e00, 0x3c00, 0xbc00, 0x3555, 0x0200, 0x7bfe, 0x4000]
BF16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
             0x7fc0, 0x3f80, 0xbf80, 0x3eab, 0x0040, 0x7f7e, 0x4000]


def _pick(rng, edge):
    return rng.choice(edge) if rng.random() < 0.6 else rng.getrandbits(16)


def atomics_case():
    rng = random.Random('vec_atomics')
    nblk, bs = 2, 256
    n = nblk * bs
    sc0 = [0] * 20
    sc0[4] = 0xBEEF << 16
    w0, ops = [], []
    for i in range(n):
        w0 += [_pick(rng, F16_EDGE) | _pick(rng, F16_EDGE) << 16,
               _pick(rng, BF16_EDGE) | _pick(rng, BF16_EDGE) << 16,
               _pick(rng, F16_EDGE) | _pick(rng, BF16_EDGE) << 16,
               rng.getrandbits(32)]
        x = w0[-1] & 0xffff
        cmpv = x if i % 2 == 0 else (x ^ (1 << rng.randrange(16)))
        ops += [_pick(rng, F16_EDGE) | _pick(rng, F16_EDGE) << 16,
                _pick(rng, BF16_EDGE) | _pick(rng, BF16_EDGE) << 16,
                _pick(rng, F16_EDGE) | _pick(rng, BF16_EDGE) << 16,
                cmpv | rng.getrandbits(16) << 16]

    def check(outs, wave):
        sc, w, olds = unpack('I', outs[0]), unpack('I', outs[1]), unpack('I', outs[2])
        errs = []

        def old(i, k):
            return olds[16 * i + k]

        _eq('f16 +1.0 counter', sc[0] & 0xffff, h16(n), errs)
        _eq('f16 +0.5 counter (red, other half)', sc[0] >> 16, h16(Fraction(n, 2)), errs)
        _multiset('f16 counter old values', [old(i, 0) for i in range(n)],
                  [h16(k) for k in range(n)], errs)
        _eq('bf16 +1.0 counter (i < 200)', sc[1] & 0xffff, h16(200, BF16), errs)
        _eq('bf16 +2.0 counter (even threads)', sc[1] >> 16, h16(n, BF16), errs)
        _multiset('bf16 counter old values', [old(i, 1) for i in range(200)],
                  [h16(k, BF16) for k in range(200)], errs)
        _eq('f16x2 counter', sc[2], h16(n) | h16(2 * n) << 16, errs)
        _multiset('f16x2 old values', [old(i, 2) for i in range(n)],
                  [h16(k) | h16(2 * k) << 16 for k in range(n)], errs)
        _eq('bf16x2 counter', sc[3], h16(100, BF16) | h16(50, BF16) << 16, errs)
        _multiset('bf16x2 old values', [old(i, 3) for i in range(100)],
                  [h16(k, BF16) | h16(Fraction(k, 2), BF16) << 16 for k in range(100)], errs)
        # cas.b16: one winner per half; everyone else saw the winner's value
        lo = [old(i, 4) for i in range(n)]
        win = [i for i in range(n) if lo[i] == 0]
        if len(win) != 1:
            errs.append('cas.b16 lo: %d threads saw 0, expected 1' % len(win))
        else:
            _eq('cas.b16 lo final', sc[4] & 0xffff, win[0] + 1, errs)
            _multiset('cas.b16 lo losers', [lo[i] for i in range(n) if i != win[0]],
                      [win[0] + 1] * (n - 1), errs)
        hi = [old(i, 5) for i in range(n)]
        win = [i for i in range(n) if hi[i] == 0xBEEF]
        if len(win) != 1:
            errs.append('cas.b16 hi: %d threads saw 0xbeef, expected 1' % len(win))
        else:
            _eq('cas.b16 hi final', sc[4] >> 16, 0x1000 + win[0], errs)
            _multiset('cas.b16 hi losers', [hi[i] for i in range(n) if i != win[0]],
                      [0x1000 + win[0]] * (n - 1), errs)
        _eq('atom.v2.f32 x', sc[6], f32b(n), errs)
        _eq('atom.v2.f32 y', sc[7], f32b(2 * n), errs)
        _multiset('atom.v2.f32 x old values', [old(i, 6) for i in range(n)],
                  [f32b(k) for k in range(n)], errs)
        _multiset('atom.v2.f32 y old values', [old(i, 7) for i in range(n)],
                  [f32b(2 * k) for k in range(n)], errs)
        for j in range(4):
            _eq('red.v4.f32 [%d]' % j, sc[8 + j], f32b((j + 1) * n), errs)
        _eq('atom.v2.f16', sc[14], h16(n) | h16(Fraction(n, 2)) << 16, errs)
        _multiset('atom.v2.f16 x old values', [old(i, 15) & 0xffff for i in range(n)],
                  [h16(k) for k in range(n)], errs)
        _multiset('atom.v2.f16 y old values', [old(i, 15) >> 16 for i in range(n)],
                  [h16(Fraction(k, 2)) for k in range(n)], errs)
        for j in range(4):
            _eq('red.v4.bf16x2 [%d]' % j, sc[16 + j], h16(100, BF16) | h16(50, BF16) << 16, errs)
        for blk in range(nblk):
            ids = range(blk * bs, (blk + 1) * bs)
            _eq('block %d shared f16' % blk, sc[12 + blk], h16(bs) | h16(bs) << 16, errs)
            _multiset('block %d shared f16 old values' % blk, [old(i, 8) for i in ids],
                      [h16(k) for k in range(bs)], errs)
            _multiset('block %d generic f16 old values' % blk, [old(i, 9) for i in ids],
                      [h16(k) for k in range(bs)], errs)
        for i in range(n):
            iw, op = w0[4 * i:4 * i + 4], ops[4 * i:4 * i + 4]
            g = w[4 * i:4 * i + 4]
            t = 'thread %d ' % i
            _eq(t + 'f16x2 old', old(i, 10), iw[0], errs)
            _eq(t + 'bf16x2 old', old(i, 11), iw[1], errs)
            _eq(t + 'f16 old', old(i, 12), iw[2] & 0xffff, errs)
            _eq(t + 'bf16 old', old(i, 13), iw[2] >> 16, errs)
            _eq(t + 'cas.b16 old', old(i, 14), iw[3] & 0xffff, errs)
            for h in (0, 16):
                _eq16(t + 'f16x2 half %d' % (h // 16), g[0] >> h & 0xffff,
                      add16(iw[0] >> h & 0xffff, op[0] >> h & 0xffff, F16), F16, errs)
                _eq16(t + 'bf16x2 half %d' % (h // 16), g[1] >> h & 0xffff,
                      add16(iw[1] >> h & 0xffff, op[1] >> h & 0xffff, BF16), BF16, errs)
            _eq16(t + 'f16', g[2] & 0xffff, add16(iw[2] & 0xffff, op[2] & 0xffff, F16), F16,
                  errs)
            _eq16(t + 'bf16', g[2] >> 16, add16(iw[2] >> 16, op[2] >> 16, BF16), BF16, errs)
            x = iw[3] & 0xffff
            _eq(t + 'cas.b16 word', g[3],
                (iw[3] & 0xffff0000) | (op[3] >> 16 if (op[3] & 0xffff) == x else x), errs)
            if len(errs) > 12:
                break
        return errs

    return Case('vec_atomics', 'vec_atomics', (nblk,), (bs,),
                [InOut('I', sc0), InOut('I', w0), In('I', ops), Out(64 * n), ('u32', n)],
                check)


def regs_real_call_case():
    """vec_regs with vswap compiled as a real call (its vector register in its own frame)"""
    c = regs_case()
    c.name = 'vec_regs_call'
    c.ptxas_flags = ['--no-inline']
    c.must_real_call = True
    return c


def cases():
    return [regs_case(), regs_real_call_case(), atomics_case()]
