"""Cases for tests/exec/ptx/fdiv_rn.ptx: div.rn and rcp.rn, f32 and f64, over the whole range
(huge divisors with subnormal reciprocals and quotients, tiny numerators, overflowing quotients,
subnormal operands, specials).  The reference is the PTX ISA's definition: the exact quotient
of the operands rounded to nearest even in IEEE 754 binary32/binary64 (exact fractions);
special operands as IEEE 754 says; any NaN for a NaN result."""

import random

from ref import Case, In, Out
from cases_arith2 import checker, fval, nan_check, round_bits, FMT

M32 = 0xffffffff


def div_special(xb, yb, w, round_quotient):
    """IEEE 754 x / y for w-bit patterns: the special operands as IEEE 754 says, a finite
    quotient as round_quotient(exact Fraction) gives it (bits)."""
    mb, eb = FMT[w]
    fx, fy = fval(xb, w), fval(yb, w)
    if fx[0] == 'nan' or fy[0] == 'nan':
        return nan_check(w)
    sx = fx[1] if fx[0] == 'inf' else fx[2]
    sy = fy[1] if fy[0] == 'inf' else fy[2]
    sign = (sx ^ sy) << (w - 1)
    inf = ((1 << eb) - 1) << mb
    x_zero = fx[0] == 'num' and fx[1] == 0
    y_zero = fy[0] == 'num' and fy[1] == 0
    if (fx[0] == 'inf' and fy[0] == 'inf') or (x_zero and y_zero):
        return nan_check(w)
    if fx[0] == 'inf' or y_zero:
        return sign | inf
    if fy[0] == 'inf' or x_zero:
        return sign
    return round_quotient(fx[1] / fy[1])


def masked(e, w):
    """e checked on the low w bits of a 64-bit slot"""
    if w == 64:
        return e
    m = (1 << w) - 1
    if callable(e):
        f = (lambda g: e(g & m))
        f.text = e.text
        return f
    f = (lambda g: g & m == e)
    f.text = '%#x' % e
    return f


def div_rn(xb, yb, w):
    """IEEE 754 x / y rounded to nearest even, operands and result as w-bit patterns."""
    mb, eb = FMT[w]
    return div_special(xb, yb, w, lambda q: round_bits(q, mb, eb))


def bits32(sign, e, m):
    return sign << 31 | e << 23 | m


def bits64(sign, e, m):
    return sign << 63 | e << 52 | m


# (numerator, divisor) as (sign, biased exponent, mantissa) triples per format: the v_div_scale
# cases (reciprocal and quotient subnormal, quotient subnormal from a tiny numerator, quotient
# near overflow, subnormal divisor, tiny numerator) and their edges.
EDGE32 = [((0, 127, 0), (0, 254, 0x7fffff)), ((1, 127, 0), (0, 253, 1)),
          ((0, 128, 0x400000), (0, 254, 0)), ((0, 254, 0x7fffff), (0, 254, 0x7fffff)),
          ((0, 147, 0), (1, 254, 0x7fffff)), ((0, 1, 0), (0, 128, 0x400000)),
          ((0, 0, 7), (0, 128, 0)), ((0, 0, 1), (0, 126, 0)), ((0, 254, 0x7fffff), (0, 126, 0)),
          ((0, 254, 0x7fffff), (0, 1, 0x400000)), ((0, 200, 1), (0, 20, 3)),
          ((0, 0, 3), (0, 0, 5)), ((0, 127, 0), (0, 0, 3)), ((1, 1, 0), (0, 127, 8)),
          ((0, 27, 0), (0, 187, 0)), ((0, 103, 0x12345), (0, 127, 0x5555)),
          ((0, 127, 0), (0, 253, 0x7fffff)), ((0, 127, 0), (0, 253, 0)),
          ((0, 0, 0x7fffff), (0, 127, 1)), ((0, 2, 0), (0, 129, 0x7fffff))]
EDGE64 = [((0, 1023, 0), (0, 2046, (1 << 52) - 1)), ((1, 1023, 0), (0, 2045, 1)),
          ((0, 1024, 1 << 51), (0, 2046, 0)), ((0, 2046, (1 << 52) - 1), (0, 2046, 5)),
          ((0, 1043, 0), (1, 2046, (1 << 52) - 1)), ((0, 1, 0), (0, 1024, 1 << 51)),
          ((0, 0, 7), (0, 1024, 0)), ((0, 0, 1), (0, 1022, 0)),
          ((0, 2046, (1 << 52) - 1), (0, 1022, 0)), ((0, 2046, 9), (0, 1, 1 << 51)),
          ((0, 1800, 1), (0, 300, 3)), ((0, 0, 3), (0, 0, 5)), ((0, 1023, 0), (0, 0, 3)),
          ((1, 1, 0), (0, 1023, 8)), ((0, 60, 0), (0, 1100, 0)),
          ((0, 969, 0x12345), (0, 1023, 0x5555)), ((0, 1023, 0), (0, 2045, (1 << 52) - 1)),
          ((0, 1023, 0), (0, 2045, 0)), ((0, 0, (1 << 52) - 1), (0, 1023, 1)),
          ((0, 2, 0), (0, 1025, (1 << 52) - 1))]
SPECIAL32 = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0x00800000]
SPECIAL64 = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
             0x3ff0000000000000, 0x0010000000000000]


def operand32(rng):
    """Random f32 bits, biased towards extreme exponents."""
    e = rng.choice([0, 1, 2, 3, 125, 126, 127, 128, 250, 251, 252, 253, 254, rng.randrange(255)])
    return bits32(rng.getrandbits(1), e, rng.getrandbits(23))


def operand64(rng):
    e = rng.choice([0, 1, 2, 3, 1021, 1022, 1023, 1024, 2042, 2043, 2044, 2045, 2046,
                    rng.randrange(2047)])
    return bits64(rng.getrandbits(1), e, rng.getrandbits(52))


def operands(rng, n):
    """a[i] = (f32 numerator in the low half, or the f64 numerator), b[i] likewise: the first
    threads take the edge pairs (the f32 and f64 lists side by side in separate threads),
    then all special pairs (f32 and f64 in separate threads), then random ones."""
    a, b = [], []
    for (x32, y32), (x64, y64) in zip(EDGE32, EDGE64):
        a += [bits32(*x32), bits64(*x64)]
        b += [bits32(*y32), bits64(*y64)]
    for x in range(len(SPECIAL32)):
        for y in range(len(SPECIAL32)):
            a += [SPECIAL32[x], SPECIAL64[x]]
            b += [SPECIAL32[y], SPECIAL64[y]]
    while len(a) < n:
        if rng.random() < 0.5:
            a.append(operand32(rng) | rng.getrandbits(32) << 32)
            b.append(operand32(rng) | rng.getrandbits(32) << 32)
        else:
            a.append(operand64(rng))
            b.append(operand64(rng))
    return a[:n], b[:n]


def fdiv_case():
    rng = random.Random('fdiv_rn')
    n, block, nout = 1024, 128, 4
    a, b = operands(rng, n)

    def expect():
        out = []
        for x, y in zip(a, b):
            out += [div_rn(x & M32, y & M32, 32), div_rn(0x3f800000, y & M32, 32),
                    div_rn(x, y, 64), div_rn(0x3ff0000000000000, y, 64)]
        return out

    def expect_slots():  # 32-bit results in 64-bit slots: the upper half is not written (any)
        return [masked(e, 32) if k % 4 < 2 else e for k, e in enumerate(expect())]

    return Case('fdiv_rn', 'fdiv_rn', (n // block,), (block,),
                [Out(8 * nout * n), In('Q', a), In('Q', b), ('u32', n)],
                checker('fdiv_rn', nout, 'Q', expect_slots, [a, b]))


def cases():
    return [fdiv_case()]
