"""Cases for tests/exec/ptx/pack_f32.ptx: pairs of f32 fma/mul/add that src/mir/pack_f32.c makes
packed instructions on gfx90a/gfx942.  The reference is the PTX ISA's definition of each
instruction, computed exactly: mul.rn/add.rn round the exact result to nearest even (through
double, whose 53 bits make the second rounding innocuous for + and *), fma.rn rounds the exact
a*b+c (fractions), .sat clamps to [0, 1] with NaN -> +0 and -0 -> +0; denormals kept (no .ftz).
A NaN result may be any NaN."""

import random
import struct
from fractions import Fraction

from ref import Case, In, Out, unpack

NOUT = 18


def f32(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def bits32(v):
    if v != v:
        return 0x7fc00000
    try:
        return struct.unpack('<I', struct.pack('<f', v))[0]
    except OverflowError:
        return 0x7f800000 if v > 0 else 0xff800000


def round_exact(x, zero_sign):
    """The f32 nearest (ties to even) to the exact rational x; zero_sign for an exact 0."""
    if x == 0:
        return zero_sign << 31
    sign, m = (1, -x) if x < 0 else (0, x)
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    k = max(e, -126)
    q = Fraction(2) ** (k - 23)
    n, rem = divmod(m, q)
    n = int(n)
    if rem > q / 2 or (rem == q / 2 and n & 1):
        n += 1
    if n >= 1 << 24:
        n, k = n >> 1, k + 1
    if k > 127:
        return sign << 31 | 0x7f800000
    if n < 1 << 23:
        return sign << 31 | n
    return sign << 31 | (k + 127) << 23 | (n - (1 << 23))


def fma(a, b, c):
    """fma.rn.f32 on bit patterns."""
    x, y, z = f32(a), f32(b), f32(c)
    if any(v != v or v in (float('inf'), float('-inf')) for v in (x, y, z)):
        return bits32(x * y + z) if x * y == x * y else 0x7fc00000
    p = Fraction(x) * Fraction(y)
    if p == 0 and z == 0:  # the sign of an exact zero sum: IEEE 754 6.3
        ps = (a ^ b) >> 31
        return round_exact(Fraction(0), ps & (c >> 31))
    return round_exact(p + Fraction(z), 0)


def mul(a, b):
    return bits32(f32(a) * f32(b))


def add(a, b):
    return bits32(f32(a) + f32(b))


def neg(a):
    return a ^ 0x80000000


def sat(r):
    if (r & 0x7f800000) == 0x7f800000 and r & 0x7fffff:
        return 0
    v = f32(r)
    return 0 if v <= 0 else 0x3f800000 if v >= 1 else r


def results(ax, ay, bx, by, cx, cy):
    r = [0] * NOUT
    r[0], r[1] = fma(ax, bx, cx), fma(ay, by, cy)
    r[2], r[3] = mul(ax, by), mul(ay, bx)
    r[4], r[5] = add(ax, cy), add(ay, cy)
    r[6], r[7] = fma(neg(ax), bx, cx), fma(ay, neg(by), cy)
    r[8], r[9] = fma(r[0], r[2], r[4]), fma(r[1], r[3], r[5])
    r[10], r[11] = add(r[8], r[6]), add(r[9], r[7])
    r[12], r[13] = sat(r[0]), sat(r[1])
    s0, s1 = cx, cy
    for _ in range(4):
        s0, s1 = mul(fma(s0, ax, bx), cx), mul(fma(s1, ay, by), cy)
    r[14], r[15] = s0, s1
    q = mul(ax, ax)
    r[16], r[17] = fma(bx, q, cx), fma(by, q, cy)
    return r


def is_nan(b):
    return (b & 0x7f800000) == 0x7f800000 and b & 0x7fffff


def operand(rng):
    r = rng.random()
    if r < 0.1:
        return rng.choice([0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x80000001,
                           0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x3f000000])
    if r < 0.2:
        return rng.getrandbits(1) << 31 | rng.getrandbits(23)  # denormal
    e = rng.choice((1, 2, 100, 120, 126, 127, 128, 130, 150, 200, 253))
    return rng.getrandbits(1) << 31 | e << 23 | rng.getrandbits(23)


def pack_case():
    rng = random.Random('pack_f32')
    cnt, block = 512, 128
    a, b, c = ([operand(rng) for _ in range(2 * cnt)] for _ in range(3))

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(cnt):
            exp = results(a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1], c[2 * i],
                          c[2 * i + 1])
            for k in range(NOUT):
                g, e = got[i * NOUT + k], exp[k]
                if g != e and not (is_nan(g) and is_nan(e)):
                    errs.append('pack_f32 thread %d result %d: got %#010x, expected %#010x '
                                '(a %#x %#x b %#x %#x c %#x %#x)' % (
                                    i, k, g, e, a[2 * i], a[2 * i + 1], b[2 * i],
                                    b[2 * i + 1], c[2 * i], c[2 * i + 1]))
                    if len(errs) > 12:
                        return errs
        return errs

    return Case('pack_f32', 'pack_f32', (cnt // block,), (block,),
                [Out(4 * NOUT * cnt), In('I', a), In('I', b), In('I', c), ('u32', cnt)], check)


def cases():
    return [pack_case()]
