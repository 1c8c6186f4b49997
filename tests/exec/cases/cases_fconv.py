"""Cases for tests/exec/ptx/fconv.ptx: cvt between floats and integers on edge operands (NaNs,
infinities, zeros, subnormals, halfway cases of each rounding, the saturation bounds of every
width) and random ones.  The reference follows the PTX ISA's cvt definition (round as the
modifier says, integer results clamped to the destination's range, .sat on a float result
clamps to [0.0, 1.0] with NaN -> +0.0), in exact fractions.  Where the ISA leaves a result
open the reference is what an sm_90 GPU computes (../shared/ptx-hw, checked against all of its
186,478 float -> integer and 401,219 integer/f32/f64 -> f32/f64 conversion results): a NaN
becomes 0 from f32 to an integer of up to 32 bits, and the most negative signed value's bit
pattern (0x8000, 0x80000000, 0x8000000000000000, for .s and .u alike) from f64 or to 64 bits
(f16 sources as f32 ones); .sat maps -0.0 to +0.0."""

import math
import os
import random
import sys
from fractions import Fraction

from ref import Case, In, Out
from cases_arith2 import checker, round_bits, fval, is_nan, FMT

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'hw'))
import isa_bounds  # noqa: E402

M32 = 0xffffffff
M64 = (1 << 64) - 1
ONE = {16: 0x3c00, 32: 0x3f800000, 64: 0x3ff0000000000000}

# (name in the PTX, source type, destination type, stored width in bits), in slot order
SLOTS = [('cvt.sat.f64.f32', 'f32', 'f64', 64), ('cvt.rni.sat.f32.f32', 'f32', 'f32', 32),
         ('cvt.rzi.sat.f32.f32', 'f32', 'f32', 32), ('cvt.rmi.sat.f32.f32', 'f32', 'f32', 32),
         ('cvt.rpi.sat.f32.f32', 'f32', 'f32', 32), ('cvt.sat.f32.f32', 'f32', 'f32', 32),
         ('cvt.rni.s32.f32', 'f32', 's32', 32), ('cvt.rzi.u32.f32', 'f32', 'u32', 32),
         ('cvt.rmi.s16.f32', 'f32', 's16', 16), ('cvt.rpi.u16.f32', 'f32', 'u16', 16),
         ('cvt.rni.s64.f32', 'f32', 's64', 64), ('cvt.rzi.sat.u64.f32', 'f32', 'u64', 64),
         ('cvt.rzi.ftz.s32.f32', 'f32', 's32', 32),
         ('cvt.rn.sat.f32.f64', 'f64', 'f32', 32), ('cvt.rni.sat.f64.f64', 'f64', 'f64', 64),
         ('cvt.rzi.sat.f64.f64', 'f64', 'f64', 64), ('cvt.rmi.sat.f64.f64', 'f64', 'f64', 64),
         ('cvt.rpi.sat.f64.f64', 'f64', 'f64', 64),
         ('cvt.rni.s32.f64', 'f64', 's32', 32), ('cvt.rzi.u32.f64', 'f64', 'u32', 32),
         ('cvt.rmi.s16.f64', 'f64', 's16', 16), ('cvt.rpi.sat.u16.f64', 'f64', 'u16', 16),
         ('cvt.rni.s64.f64', 'f64', 's64', 64), ('cvt.rzi.u64.f64', 'f64', 'u64', 64),
         ('cvt.rmi.sat.s64.f64', 'f64', 's64', 64),
         ('cvt.rn.sat.f32.s16', 's16', 'f32', 32), ('cvt.rn.sat.f32.u16', 'u16', 'f32', 32),
         ('cvt.rn.sat.f32.s32', 's32', 'f32', 32), ('cvt.rn.sat.f32.u32', 'u32', 'f32', 32),
         ('cvt.rn.sat.f64.s32', 's32', 'f64', 64), ('cvt.rn.sat.f32.s64', 's64', 'f32', 32),
         ('cvt.rn.sat.f64.u64', 'u64', 'f64', 64),
         ('cvt.rmi.ftz.s32.f32', 'f32', 's32', 32), ('cvt.ftz.f64.f32', 'f32', 'f64', 64),
         ('cvt.rm.ftz.f32.f64', 'f64', 'f32', 32), ('cvt.rni.ftz.sat.f32.f32', 'f32', 'f32', 32),
         ('cvt.rpi.ftz.u64.f32', 'f32', 'u64', 64), ('cvt.rz.f32.s32', 's32', 'f32', 32),
         ('cvt.rp.f32.f64', 'f64', 'f32', 32), ('cvt.rm.f32.u32', 'u32', 'f32', 32),
         ('cvt.rn.ftz.sat.f16.f32', 'f32', 'f16', 16), ('cvt.sat.f32.f16', 'f16', 'f32', 32),
         ('cvt.ftz.f32.f16', 'f16', 'f32', 32), ('cvt.sat.f64.f16', 'f16', 'f64', 64),
         ('cvt.rm.f32.s64', 's64', 'f32', 32), ('cvt.rp.f32.s64', 's64', 'f32', 32),
         ('cvt.rz.f32.u64', 'u64', 'f32', 32), ('cvt.rp.f64.s64', 's64', 'f64', 64),
         ('cvt.rni.f16.f16', 'f16', 'f16', 16), ('cvt.rzi.sat.f16.f16', 'f16', 'f16', 16),
         ('cvt.rmi.u32.f16', 'f16', 'u32', 32), ('cvt.rpi.s64.f16', 'f16', 's64', 64)]
NOUT = 52


def round_int(v, mode):
    """Fraction v rounded to an integer: .rni nearest even, .rzi/.rmi/.rpi toward 0/-inf/+inf."""
    if mode == 'rzi':
        return math.trunc(v)
    if mode == 'rmi':
        return math.floor(v)
    if mode == 'rpi':
        return math.ceil(v)
    f = math.floor(v)
    d = v - f
    return f + 1 if d > Fraction(1, 2) or (d == Fraction(1, 2) and f % 2) else f


def float_to_int(mods, sbits, dt, x):
    """cvt.rXi[.ftz][.sat].{s,u}N.fM: the rounded value clamped to the destination's range."""
    db, sign = int(dt[1:]), dt[0] == 's'
    fv = fval(x, sbits)
    if fv[0] == 'nan':
        return 0 if sbits <= 32 and db < 64 else 1 << (db - 1)
    v = (Fraction(-1) if fv[1] else Fraction(1)) * 2 ** 1100 if fv[0] == 'inf' else fv[1]
    if 'ftz' in mods and sbits == 32 and abs(v) < Fraction(2) ** -126:
        v = Fraction(0)
    r = round_int(v, mods[0])
    lo, hi = (-(1 << (db - 1)), (1 << (db - 1)) - 1) if sign else (0, (1 << db) - 1)
    return min(max(r, lo), hi) & ((1 << db) - 1)


def saturate(bits, w):
    """.sat: [0.0, 1.0], NaN and -0.0 -> +0.0."""
    if is_nan(bits, w) or bits >> (w - 1):
        return 0
    return min(bits, ONE[w])


def round_to(v, w, mode):
    """Fraction v rounded into the w-bit format: .rn nearest even, .rz/.rm/.rp toward zero/
    -inf/+inf (IEEE 754: overflow to infinity or the largest finite value as the direction
    says; subnormals kept)."""
    if mode == 'rn':
        return round_bits(v, *FMT[w])
    mb, eb = FMT[w]
    bias = (1 << (eb - 1)) - 1
    s = 1 if v < 0 else 0
    v = abs(v)
    if v == 0:
        return s << (w - 1)
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    e = max(e, 1 - bias)
    q = v / Fraction(2) ** (e - mb)
    f = math.floor(q)
    if q != f and (mode == 'rp' and not s or mode == 'rm' and s):
        f += 1
    if f >> (mb + 1):
        f >>= 1
        e += 1
    if e > bias:
        up = mode == 'rp' and not s or mode == 'rm' and s
        return s << (w - 1) | (((1 << eb) - 1) << mb if up else
                               ((1 << eb) - 2) << mb | ((1 << mb) - 1))
    if not f >> mb:
        return s << (w - 1) | f
    return s << (w - 1) | (e + bias) << mb | (f & ((1 << mb) - 1))


def flush32(bits):
    """.ftz on an f32: a subnormal becomes the zero of its sign."""
    return bits & 0x80000000 if bits & 0x7f800000 == 0 else bits


def to_float(mods, st, dw, x):
    """cvt[.rXi|.rn|.rz|.rm|.rp][.ftz][.sat].fN.type; None: any NaN.  .ftz flushes an f32
    operand and an f32 result."""
    mode = next((m for m in mods if m in ('rn', 'rz', 'rm', 'rp')), 'rn')
    ftz = 'ftz' in mods
    if st[0] == 'f':
        sw = int(st[1:])
        fv = fval(flush32(x) if ftz and sw == 32 else x, sw)
        if fv[0] == 'nan':
            r = None
        elif fv[0] == 'inf':
            r = fv[1] << (dw - 1) | ((1 << FMT[dw][1]) - 1) << FMT[dw][0]
        else:
            v = Fraction(round_int(fv[1], mods[0])) if mods and mods[0][-1] == 'i' else fv[1]
            r = round_to(v, dw, mode) | fv[2] << (dw - 1)  # the sign of a zero too
    else:
        sw = int(st[1:])
        x &= (1 << sw) - 1
        r = round_to(Fraction(x - (x >> (sw - 1) << sw) if st[0] == 's' else x), dw, mode)
    if r is not None and ftz and dw == 32:
        r = flush32(r)
    if 'sat' in mods:
        return saturate(r, dw) if r is not None else 0
    return r


def expect_one(name, st, dt, x):
    mods = name.split('.')[1:-2]
    if st[0] == 'f' and dt[0] != 'f':
        return float_to_int(mods, int(st[1:]), dt, x)
    return to_float(mods, st, int(dt[1:]), x)


def f32(s, e, m):
    return s << 31 | e << 23 | m


def f64(s, e, m):
    return s << 63 | e << 52 | m


def exact32(v):
    return round_bits(Fraction(v), 23, 8)


def exact64(v):
    return round_bits(Fraction(v), 52, 11)


def edges():
    """(f32 bits, f64 bits) pairs: specials, subnormals, halfway cases, saturation bounds."""
    vals = [0, -0.0, 0.25, 0.5, 1, 1.5, 2.5, 3.5, 0.999999, 1.0000001, 32767.5, 32768, 65535.5,
            65536, 2 ** 31 - 0.5, 2 ** 31, 2 ** 32, 2 ** 32 - 0.5, 2 ** 63, 2 ** 64, 1e30, 128.5,
            255.5, 546]
    out = []
    for v in vals:
        for s in (1, -1):
            out.append((exact32(s * Fraction(v)) if v else (0x80000000 if s < 0 else 0),
                        exact64(s * Fraction(v)) if v else ((1 << 63) if s < 0 else 0)))
    specials32 = [f32(0, 255, 0), f32(1, 255, 0), f32(0, 255, 1), f32(1, 255, 0x400000),
                  0x7fffffff, 0xffffffff, f32(0, 0, 1), f32(1, 0, 0x7fffff), f32(0, 1, 0),
                  f32(0, 126, 0x7fffff), f32(1, 126, 0x7fffff), f32(0, 157, 0x7fffff),
                  f32(0, 158, 0), f32(1, 158, 0), f32(1, 158, 1), f32(0, 189, 0x7fffff),
                  f32(0, 190, 0), f32(1, 190, 0), f32(0, 191, 0), f32(1, 142, 0),
                  f32(1, 142, 1), f32(0, 254, 0x7fffff)]
    specials64 = [f64(0, 2047, 0), f64(1, 2047, 0), f64(0, 2047, 1), f64(1, 2047, 1 << 51),
                  (1 << 63) - 1, M64, f64(0, 0, 1), f64(1, 0, (1 << 52) - 1), f64(0, 1, 0),
                  f64(0, 1022, (1 << 52) - 1), f64(1, 1022, (1 << 52) - 1),
                  exact64(Fraction(2 ** 31) - Fraction(1, 2 ** 20)), exact64(2 ** 31 - 1),
                  exact64(-2 ** 31 - 1), exact64(Fraction(-2 ** 31) - Fraction(1, 2)),
                  f64(0, 1086, (1 << 52) - 1), f64(0, 1086, 0), f64(1, 1086, 0),
                  f64(1, 1086, 1), f64(0, 1087, 0), exact64(-32768.5), exact64(-32769),
                  f64(0, 1023, 1), f64(0, 1022, 1), exact64(0.5) | 1 << 63]
    for k in range(max(len(specials32), len(specials64))):
        out.append((specials32[k % len(specials32)], specials64[k % len(specials64)]))
    return [x64 & ~M32 | x32 for x32, x64 in out]


def operand(rng):
    """A random 64-bit pattern whose f64 (and low-half f32) exponent is often near the
    interesting range: small integers, the integer widths' bounds, subnormals."""
    def f32r():
        e = rng.choice([0, 1, 120, 125, 126, 127, 128, 129, 134, 141, 142, 143, 157, 158, 159,
                        189, 190, 191, 255, rng.randrange(256)])
        return f32(rng.getrandbits(1), e, rng.getrandbits(23))
    e = rng.choice([0, 1, 1020, 1022, 1023, 1024, 1025, 1030, 1037, 1038, 1039, 1053, 1054,
                    1055, 1085, 1086, 1087, 2047, rng.randrange(2048)])
    hi = f64(rng.getrandbits(1), e, rng.getrandbits(52)) & ~M32
    r = rng.random()
    lo = f32r() if r < 0.6 else rng.getrandbits(32) if r < 0.8 else rng.randrange(-600, 600) & M32
    return hi | lo


def fconv_case():
    rng = random.Random('fconv')
    n, block = 512, 128
    a = edges()
    while len(a) < n:
        a.append(operand(rng))

    def one(x, k):
        name, st, dt, width = SLOTS[k]
        sw = int(st[1:])
        e = expect_one(name, st, dt, x & ((1 << sw) - 1) if st[0] == 'f' and sw < 64 else
                       x if st[0] == 'f' or sw == 64 else x & M32)
        mask = (1 << width) - 1
        if e is None:
            f = (lambda g: bool(is_nan(g & mask, int(dt[1:]))))
            f.text = 'a NaN (%s)' % name
        else:
            f = (lambda g: g & mask == e & mask)
            f.text = '%#x (%s)' % (e & mask, name)
        return f

    def expect():
        return [one(x, k) for x in a for k in range(NOUT)]

    return Case('fconv', 'fconv', (n // block,), (block,),
                [Out(8 * NOUT * n), In('Q', a), ('u32', n)],
                checker('fconv', NOUT, 'Q', expect, [a]))


# ---------------------------------------------------------------- fapprox.ptx

# (instruction, operands: 'a'/'b' = the f32 low halves, 'B' = b as f64), in slot order
APPROX = [('div.approx.f32', 'ab'), ('div.approx.ftz.f32', 'ab'), ('div.full.f32', 'ab'),
          ('div.full.ftz.f32', 'ab'), ('rcp.approx.f32', 'b'), ('rcp.approx.ftz.f32', 'b'),
          ('sqrt.approx.f32', 'b'), ('rsqrt.approx.f32', 'b'), ('lg2.approx.f32', 'b'),
          ('ex2.approx.f32', 'a'), ('sin.approx.f32', 'a'), ('cos.approx.f32', 'a'),
          ('rcp.approx.ftz.f64', 'B'), ('rsqrt.approx.ftz.f64', 'B'), ('rsqrt.approx.f64', 'B'),
          ('sqrt.approx.ftz.f32', 'b'),
          ('div.rz.f32', 'ab'), ('div.rm.f32', 'ab'), ('div.rp.f32', 'ab'),
          ('div.rp.ftz.f32', 'ab'), ('div.rn.ftz.f32', 'ab'), ('rcp.rm.f32', '1b'),
          ('div.rz.f64', 'AB'), ('div.rm.f64', 'AB'), ('div.rp.f64', 'AB'), ('rcp.rp.f64', '1B'),
          ('sqrt.rz.f32', 'b'), ('sqrt.rp.f32', 'b'), ('sqrt.rn.ftz.f32', 'b'),
          ('sqrt.rm.f64', 'B'), ('sqrt.rp.f64', 'B'), ('tanh.approx.f32', 'a')]


def sqrt_rounded(op, x):
    """sqrt.{rn,rz,rm,rp}[.ftz]: IEEE 754 square root in that rounding (-0 -> -0, negative ->
    NaN, None: any NaN), from an integer square root far finer than the format's ulp."""
    mods = op.split('.')
    w = int(mods[-1][1:])
    if 'ftz' in mods:
        x = flush32(x)
    fx = fval(x, w)
    if fx[0] == 'nan' or (fx[0] == 'inf' and fx[1]) or (fx[0] == 'num' and fx[1] < 0):
        return None
    if fx[0] == 'inf' or fx[1] == 0:
        return x
    k = 1200
    n = fx[1] * 4 ** k
    q = math.isqrt(n.numerator // n.denominator)
    exact = Fraction(q * q) == n
    root = Fraction(q, 2 ** k) + (0 if exact else Fraction(1, 2 ** (k + 1)))
    return round_to(root, w, mods[1])


def div_rounded(op, x, y):
    """div.{rn,rz,rm,rp}[.ftz] (and rcp with x = 1.0): IEEE 754 division in that rounding
    (exact fractions); .ftz flushes the f32 operands and the rounded result.  None: any NaN."""
    mods = op.split('.')
    w = int(mods[-1][1:])
    mode, ftz = mods[1], 'ftz' in mods
    if ftz:
        x, y = flush32(x), flush32(y)
    fx, fy = fval(x, w), fval(y, w)
    if fx[0] == 'nan' or fy[0] == 'nan':
        return None
    sx = fx[1] if fx[0] == 'inf' else fx[2]
    sy = fy[1] if fy[0] == 'inf' else fy[2]
    sign = (sx ^ sy) << (w - 1)
    inf = ((1 << FMT[w][1]) - 1) << FMT[w][0]
    x0 = fx[0] == 'num' and fx[1] == 0
    y0 = fy[0] == 'num' and fy[1] == 0
    if (fx[0] == 'inf' and fy[0] == 'inf') or (x0 and y0):
        return None
    if fx[0] == 'inf' or y0:
        return sign | inf
    if fy[0] == 'inf' or x0:
        return sign
    q = fx[1] / fy[1]
    if ftz and mode != 'rn' and abs(q) < Fraction(1, 2 ** 126):
        return sign  # directed .ftz: flushed by the exact quotient (cases_round.div_dir)
    r = round_to(q, w, mode)
    return flush32(r) if ftz else r


def approx_operands(rng, n):
    """(a, b) pairs: numerators and divisors at the edges of the ranges the ISA names
    (subnormal divisors, |b| around 2^126 and above, zeros, infinities, NaN), then random."""
    nums32 = [f32(0, 126, 0), f32(0, 127, 0), f32(1, 127, 0x123456), f32(0, 255, 0),
              f32(1, 0, 7), 0, 0x80000000, f32(0, 254, 0x7fffff), f32(0, 1, 0), 0x7fc00000]
    dens32 = [f32(0, 0, 0x100000), f32(0, 0, 1), f32(1, 0, 0x7fffff), f32(0, 1, 0),
              f32(0, 253, 0), f32(0, 253, 1), f32(1, 253, 0x400000), f32(0, 254, 0x7fffff),
              f32(0, 255, 0), 0, 0x80000000, 0x7fffffff, f32(0, 127, 0), f32(0, 100, 0x2aaaaa),
              f32(0, 127, 0x7fffff), f32(0, 128, 0)]
    dens64 = [f64(0, 0, 1), f64(1, 0, 1 << 51), f64(0, 1, 0), f64(0, 1023, 0),
              f64(0, 1023, 0xfffff << 32 | 0xffffffff), f64(0, 2046, (1 << 52) - 1),
              f64(0, 2047, 0), f64(0, 2047, 1), f64(0, 2047, 1 << 32), 0, 1 << 63,
              f64(1, 1000, 5), f64(0, 1, 1 << 40), f64(0, 2045, 123)]
    a, b = [], []
    for x in nums32:
        for y in dens32:
            a.append(rng.getrandbits(32) << 32 | x)
            b.append(dens64[len(b) % len(dens64)] & ~M32 | y)
    for v in (0x3f4237f632b145c0, 0x4018000000000000, 0x3ff5555555555555, 0x0000000000000003):
        a.append(v)  # exact quotients (x / x, 6 / 3, ...): nothing to round in any mode
        b.append(v if v != 0x4018000000000000 else 0x4008000000000000)
    while len(a) < n:
        e = rng.choice([0, 1, 2, 100, 126, 127, 128, 130, 150, 200, 252, 253, 254])
        a.append(rng.getrandbits(32) << 32 | f32(rng.getrandbits(1), rng.choice(
            [rng.randrange(120, 134), rng.randrange(255)]), rng.getrandbits(23)))
        b.append(f64(rng.getrandbits(1), rng.choice([0, 1, 1023, 2046, rng.randrange(2048)]),
                     rng.getrandbits(52)) & ~M32 | f32(rng.getrandbits(1), e,
                                                      rng.getrandbits(23)))
    return a[:n], b[:n]


def fapprox_case():
    rng = random.Random('fapprox')
    n, block = 512, 128
    a, b = approx_operands(rng, n)

    def one(x, y, k):
        op, srcs = APPROX[k]
        one = 0x3ff0000000000000 if op.endswith('f64') else 0x3f800000
        vals = {'a': x & M32, 'b': y & M32, 'A': x, 'B': y, '1': one}
        ops = [vals[c] for c in srcs]
        mask = M64 if op.endswith('f64') else M32
        w = 64 if op.endswith('f64') else 32
        if '.approx' not in op and '.full' not in op:
            e = sqrt_rounded(op, *ops) if op.startswith('sqrt') else div_rounded(op, *ops)
            f = ((lambda g: bool(is_nan(g & mask, w))) if e is None else
                 (lambda g: g & mask == e))
            f.text = '%s (%s on %s)' % ('a NaN' if e is None else '%#x' % e, op,
                                        ' '.join('%#x' % v for v in ops))
            return f

        def f(g):
            return isa_bounds.check(op, ops, g & mask)[0]
        f.text = 'within the ISA bound (%s on %s)' % (op, ' '.join('%#x' % v for v in ops))
        return f

    def expect():
        return [one(x, y, k) for x, y in zip(a, b) for k in range(len(APPROX))]

    return Case('fapprox', 'fapprox', (n // block,), (block,),
                [Out(8 * len(APPROX) * n), In('Q', a), In('Q', b), ('u32', n)],
                checker('fapprox', len(APPROX), 'Q', expect, [a, b]))


def cases():
    return [fconv_case(), fapprox_case()]
