"""Cases for tests/exec/ptx/round_dir.ptx and round_dir_uni.ptx: directed rounding (.rz/.rm/.rp)
of div, rcp and sqrt (f32 with and without .ftz, f64), of cvt from 64-bit integers to f32/f64,
from f64 to f32 and from f32 to f16, and cvt from f64 and 16/32/64-bit integers to f16 in
every rounding (no double rounding).  The reference is
the PTX ISA's definition: the exact value (Python fractions; an inexact square root replaced
by a value strictly between the same two neighbours on the result's grid) rounded in the
given direction into IEEE 754 binary16/32/64, subnormals included, overflow to the largest
finite value or infinity as the direction says; .ftz flushes subnormal inputs and results to
zeros of their sign, except on cvt.f16.f32, where NVIDIA hardware flushes nothing
(docs/SEMANTICS.md); any NaN for a NaN result."""

import math
import random
import struct
from fractions import Fraction

from ref import Case, In, Out
from cases_arith2 import checker, fval, nan_check, round_bits, FMT
from cases_fdiv import div_special, masked, EDGE32, EDGE64, SPECIAL32, SPECIAL64, bits32, \
    bits64, operand32, operand64

M32 = 0xffffffff
M64 = (1 << 64) - 1


def round_dir(q, w, mode, zero_sign=0):
    """Fraction q rounded toward zero ('rz'), -inf ('rm') or +inf ('rp') into the w-bit
    format (an exact zero takes zero_sign)."""
    mb, eb = FMT[w]
    if q == 0:
        return zero_sign << (w - 1)
    sign = 1 if q < 0 else 0
    a = abs(q)
    bias = (1 << (eb - 1)) - 1
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, 1 - bias)
    scaled = a / Fraction(2) ** (e - mb)
    m = scaled.numerator // scaled.denominator
    away = (mode == 'rp' and not sign) or (mode == 'rm' and sign)
    if m != scaled and away:
        m += 1
    if m >> (mb + 1):
        m >>= 1
        e += 1
    inf = ((1 << eb) - 1) << mb
    if e > bias:
        bits = inf if away else inf - 1
    elif m >> mb:
        bits = (e + bias) << mb | (m & ((1 << mb) - 1))
    else:
        bits = m
    return sign << (w - 1) | bits


def flush(bits, w):
    """.ftz: a subnormal (bits) becomes a zero of its sign."""
    mb, eb = FMT[w]
    if bits >> mb & ((1 << eb) - 1) == 0:
        return bits & (1 << (w - 1))
    return bits


def div_dir(xb, yb, w, mode, ftz=False):
    """.ftz: subnormal operands flush, and so does a quotient whose exact value is below the
    smallest normal (tininess before rounding: the H100 gives div.rp.ftz.f32 of 1 / 0x7e800001
    as +0, not the 2^-126 that rounding up reaches)."""
    if ftz:
        xb, yb = flush(xb, w), flush(yb, w)
    mb, eb = FMT[w]
    tiny = Fraction(1, 2 ** ((1 << (eb - 1)) - 2))

    def rounded(q):
        if ftz and abs(q) < tiny:
            return (1 << (w - 1)) if q < 0 else 0
        return round_dir(q, w, mode)
    r = div_special(xb, yb, w, rounded)
    return flush(r, w) if ftz and not callable(r) else r


def sqrt_frac(v, w):
    """sqrt(v) if exact, else a value strictly between the two grid points of the w-bit
    format around it (the root of a positive float is normal)."""
    mb = FMT[w][0]
    e = (v.numerator.bit_length() - v.denominator.bit_length()) // 2
    s = mb + 2 - e  # 2^s * sqrt(v) has at least mb + 1 integer bits
    x = v * Fraction(4) ** s
    m = math.isqrt(x.numerator // x.denominator)
    if x.denominator == 1 and m * m == x.numerator:
        return Fraction(m) / Fraction(2) ** s
    return Fraction(2 * m + 1) / Fraction(2) ** (s + 1)


def sqrt_dir(xb, w, mode, ftz=False):
    if ftz:
        xb = flush(xb, w)
    fx = fval(xb, w)
    if fx[0] == 'nan':
        return nan_check(w)
    if fx[0] == 'inf':
        return nan_check(w) if fx[1] else xb
    if fx[1] == 0:
        return xb
    if fx[1] < 0:
        return nan_check(w)
    return round_dir(sqrt_frac(fx[1], w), w, mode)


def s64(v):
    return v - (1 << 64) if v >> 63 else v


def half_of(xb, w, mode):
    """cvt.{mode}.f16.f{w}"""
    fx = fval(xb, w)
    if fx[0] == 'nan':
        return nan_check(16)
    if fx[0] == 'inf':
        return 0xfc00 if fx[1] else 0x7c00
    if mode == 'rn':
        return round_bits(fx[1], 10, 5) if fx[1] != 0 else fx[2] << 15
    return round_dir(fx[1], 16, mode, fx[2])


def f32_of(xb, mode, ftz=False):
    """cvt.{mode}{.ftz}.f32.f64"""
    fx = fval(xb, 64)
    if fx[0] == 'nan':
        return nan_check(32)
    if fx[0] == 'inf':
        return 0xff800000 if fx[1] else 0x7f800000
    r = round_dir(fx[1], 32, mode, fx[2])
    return flush(r, 32) if ftz else r


def half_of_int(v, mode):
    """cvt.{mode}.f16.{s64,u64} (v already signed or not)"""
    if mode == 'rn':
        return round_bits(Fraction(v), 10, 5)
    return round_dir(Fraction(v), 16, mode)


def results(a, b):
    """The 43 results of one thread, in round_dir.ptx's order."""
    x0, y0 = a & M32, b & M32
    one32, one64 = 0x3f800000, 0x3ff0000000000000
    return [div_dir(x0, y0, 32, 'rz'), div_dir(x0, y0, 32, 'rm'), div_dir(x0, y0, 32, 'rp'),
            div_dir(x0, y0, 32, 'rp', True), div_dir(one32, y0, 32, 'rz'),
            div_dir(one32, y0, 32, 'rm', True), sqrt_dir(x0, 32, 'rz'), sqrt_dir(x0, 32, 'rm'),
            sqrt_dir(x0, 32, 'rp'), div_dir(a, b, 64, 'rz'), div_dir(a, b, 64, 'rm'),
            div_dir(a, b, 64, 'rp'), div_dir(one64, b, 64, 'rp'), sqrt_dir(a, 64, 'rz'),
            sqrt_dir(a, 64, 'rm'), sqrt_dir(a, 64, 'rp'),
            round_dir(Fraction(s64(a)), 32, 'rz'), round_dir(Fraction(s64(a)), 32, 'rm'),
            round_dir(Fraction(a), 32, 'rp'), round_dir(Fraction(s64(a)), 64, 'rz'),
            round_dir(Fraction(a), 64, 'rm'), round_dir(Fraction(s64(a)), 64, 'rp'),
            half_of(x0, 32, 'rz'), half_of(x0, 32, 'rm'), half_of(x0, 32, 'rp'),
            half_of(a, 64, 'rn'), half_of(a, 64, 'rz'), half_of(a, 64, 'rm'),
            half_of(a, 64, 'rp'), div_dir(x0, y0, 32, 'rm', True),
            sqrt_dir(x0, 32, 'rp', True), div_dir(one64, b, 64, 'rz'),
            f32_of(a, 'rz'), f32_of(a, 'rm', True), f32_of(a, 'rp'),
            half_of_int(s64(a), 'rn'), half_of_int(a, 'rz'), half_of_int(s64(a), 'rp'),
            half_of(x0, 32, 'rm'), half_of(x0, 32, 'rp'),  # .ftz: no flush (hardware)
            half_of_int(x0, 'rn'), half_of_int(x0 - (x0 >> 31 << 32), 'rm'),
            half_of_int((x0 & 0xffff) - ((x0 >> 15 & 1) << 16), 'rp')]


# the width of each result's stored bits (the rest of its 64-bit slot is not written)
WIDTH = ([32] * 9 + [64] * 7 + [32] * 3 + [64] * 3 + [16] * 7 + [32, 32, 64] + [32] * 3
         + [16] * 8)
NOUT = len(WIDTH)


def _f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def _f64(v):
    return struct.unpack('<Q', struct.pack('<d', v))[0]


# operands for the conversions and square roots (in a; b is 1): f16 halfway and near-halfway
# values, the f16 overflow threshold, f16 subnormals, f64 values that round twice through f32
# (1 + 2^-11 + 2^-40), perfect squares and roots of subnormals, integers at the f32/f64
# rounding boundaries
CVT64 = [_f64(v) for v in [1 + 2.0 ** -11, 1 + 2.0 ** -11 + 2.0 ** -40,
                           -(1 + 2.0 ** -11 + 2.0 ** -40),
                           1 + 3 * 2.0 ** -11, 65504.0, 65519.99, 65520.0, -65520.0, 1e6, -1e6,
                           2.0 ** -25, 2.0 ** -25 + 2.0 ** -60, -2.0 ** -25, 3 * 2.0 ** -26,
                           2.0 ** -24, 2.0 ** -14 - 2.0 ** -30, 1e-300, -1e-300, 5e-324, 4.0,
                           2.0 ** -1074 * 9, 2.0 ** 1023 * 1.5, 1.0000000000000002,
                           (2 - 2.0 ** -23) * 2.0 ** 127 + 2.0 ** 103,
                           (2 - 2.0 ** -23) * 2.0 ** 127 + 2.0 ** 102,
                           -(2 - 2.0 ** -23) * 2.0 ** 127 - 2.0 ** 102, 1 + 2.0 ** -24,
                           1 + 2.0 ** -24 + 2.0 ** -50, -(1 + 2.0 ** -24), 2.0 ** -150,
                           3 * 2.0 ** -150, -2.0 ** -150 - 2.0 ** -170]]
CVT32 = [_f32(v) for v in [1 + 2.0 ** -11, 1 + 2.0 ** -11 + 2.0 ** -23, -(1 + 2.0 ** -11),
                           -(1 + 2.0 ** -11 + 2.0 ** -23), 65504.0, 65519.0, 65520.0, -65520.0,
                           1e6, -1e6, 2.0 ** -25, -2.0 ** -25, 2.0 ** -25 + 2.0 ** -40,
                           3 * 2.0 ** -26, 2.0 ** -149, 9 * 2.0 ** -149, 4.0, 2.0 ** -126]]
INTS = [0, 1, M64, 1 << 63, (1 << 63) - 1, (1 << 53) + 1, (1 << 24) + 1, -((1 << 24) + 1) & M64,
        -((1 << 53) + 1) & M64, (1 << 64) - (1 << 39), (1 << 64) - (1 << 40) - 1, 0x123456789abcdef,
        -0x123456789abcdef & M64, (1 << 62) + (1 << 38), -((1 << 62) + (1 << 38) + 1) & M64]
# (numerator, divisor) f32 pairs with results exactly halfway between two subnormals (or
# between 0 and the smallest), near the overflow threshold, and exact quotients
HALF32 = [(1, 0x40000000), (3, 0x40000000), (0x80000001, 0x40000000), (1, 0xc0000000),
          (0x7f7fffff, 0x3f7fffff), (0xff7fffff, 0x3f7fffff), (0x7f7fffff, 0x3f000000),
          (0x3fc00000, 0x3f000000), (0x00800000, 0x41000000), (0x00800001, 0x40000000)]
HALF64 = [(1, 0x4000000000000000), (3, 0x4000000000000000), (1 << 63 | 1, 0x4000000000000000),
          (0x7fefffffffffffff, 0x3fefffffffffffff), (0xffefffffffffffff, 0x3fefffffffffffff),
          (0x7fefffffffffffff, 0x3fe0000000000000), (0x0010000000000000, 0x4020000000000000),
          (0x0010000000000001, 0x4000000000000000), (0x3ff8000000000000, 0x3fe0000000000000),
          (0x3ff0000000000000, 0x4008000000000000)]


def operands(rng, n):
    a, b = [], []
    for (x32, y32), (x64, y64) in zip(EDGE32, EDGE64):
        a += [bits32(*x32) | bits64(*x64) & ~M32, bits64(*x64)]
        b += [bits32(*y32) | bits64(*y64) & ~M32, bits64(*y64)]
    for (x32, y32), (x64, y64) in zip(HALF32, HALF64):
        a += [x32, x64]
        b += [y32, y64]
    for x in range(len(SPECIAL32)):
        for y in range(len(SPECIAL32)):
            a.append(SPECIAL32[x] | SPECIAL64[x] & ~M32)
            b.append(SPECIAL32[y] | SPECIAL64[y] & ~M32)
            a.append(SPECIAL64[x])
            b.append(SPECIAL64[y])
    for v in CVT64 + INTS:
        a.append(v)
        b.append(0x3ff0000000000000)
    for v in CVT32:
        a.append(v | rng.getrandbits(32) << 32)
        b.append(0x3f800000)
    while len(a) < n:
        if rng.random() < 0.5:
            a.append(operand32(rng) | rng.getrandbits(32) << 32)
            b.append(operand32(rng) | rng.getrandbits(32) << 32)
        else:
            a.append(operand64(rng))
            b.append(operand64(rng))
    return a[:n], b[:n]


def round_case():
    rng = random.Random('round_dir')
    n, block = 384, 128
    a, b = operands(rng, n)

    def expect_slots():
        out = []
        for x, y in zip(a, b):
            out += [masked(e, WIDTH[k]) for k, e in enumerate(results(x, y))]
        return out

    return Case('round_dir', 'round_dir', (n // block,), (block,),
                [Out(8 * NOUT * n), In('Q', a), In('Q', b), ('u32', n)],
                checker('round_dir', NOUT, 'Q', expect_slots, [a, b]))


def round_uni_case():
    """The same operations on block-uniform operands (scalar registers)."""
    rng = random.Random('round_dir')
    a, b = operands(rng, 384)
    a, b = a[::6], b[::6]
    blocks, block = len(a), 32

    def expect_slots():
        out = []
        for x, y in zip(a, b):
            one = [masked(e, WIDTH[k]) for k, e in enumerate(results(x, y))]
            out += one * block
        return out

    return Case('round_dir_uni', 'round_dir_uni', (blocks,), (block,),
                [Out(8 * NOUT * blocks * block), In('Q', a), In('Q', b), ('u32', blocks * block)],
                checker('round_dir_uni', NOUT, 'Q', expect_slots,
                        [[v for v in a for _ in range(block)],
                         [v for v in b for _ in range(block)]]))


def cases():
    return [round_case(), round_uni_case()]
