"""Cases for tests/exec/ptx/bf16.ptx: bf16 and bf16x2 conversions and arithmetic (cvt.rn{.relu}
{.satfinite}.bf16{x2}.f32, cvt.rn.bf16.f64, cvt.f32.bf16, fma/add/sub/mul.rn{.relu}.bf16{x2},
neg, abs, min/max{.NaN}).  The reference is the PTX ISA's definition: the exact result of the
operation on the operands' values rounded once to nearest even into bf16 (1 sign, 8 exponent,
7 mantissa bits; subnormals kept), in exact fractions; .relu clamps a negative result to +0 and
a NaN to the canonical NaN 0x7fff, .satfinite a result beyond the largest finite value to that
value with its sign; min/max return the non-NaN operand (the canonical NaN when both are NaN,
or with .NaN when either is), -0 below +0.  NaN results of the arithmetic are 0x7fff (the H100's
canonical NaN; checked as any NaN)."""

import random
from fractions import Fraction

from ref import Case, In, Out
from cases_arith2 import checker, fval, round_bits

BF_NAN = 0x7fff


def bf_val(h):
    """(kind, value) of a bf16 pattern, as cases_arith2.fval: its f32 widening is exact."""
    return fval(h << 16, 32)


def is_nan16(h):
    return h & 0x7fff > 0x7f80


def relu_sat(r, relu, satfinite):
    if satfinite and r & 0x7fff > 0x7f7f and not is_nan16(r):
        r = (r & 0x8000) | 0x7f7f
    if relu and (r & 0x8000):
        r = 0
    return r


def to_bf16(kind_val, relu=False, satfinite=False):
    """an fval() triple rounded to bf16 with the cvt modifiers"""
    if kind_val[0] == 'nan':
        return BF_NAN
    if kind_val[0] == 'inf':
        return relu_sat(0xff80 if kind_val[1] else 0x7f80, relu, satfinite)
    v = kind_val[1]
    r = round_bits(v, 7, 8) if v != 0 else (0x8000 if kind_val[2] else 0)
    return relu_sat(r, relu, satfinite)


def cvt_f32(bits, relu=False, satfinite=False):
    return to_bf16(fval(bits, 32), relu, satfinite)


def cvt_rz_f32(bits):
    """toward zero: the f32's upper half (bf16 has f32's exponent range); NaN canonical"""
    return BF_NAN if fval(bits, 32)[0] == 'nan' else bits >> 16


def cvt_f64(bits):
    """NaN: the sign and the top 7 payload bits, made quiet (what an H100/H200 returns:
    docs/CONVERSIONS.md, tests/exec conv2)"""
    if fval(bits, 64)[0] == 'nan':
        return (bits >> 48 & 0x8000) | 0x7fc0 | (bits >> 45 & 0x7f)
    return to_bf16(fval(bits, 64))


def fma(a, b, c, relu=False):
    """a * b + c rounded once; IEEE specials"""
    fa, fb, fc = bf_val(a), bf_val(b), bf_val(c)
    if 'nan' in (fa[0], fb[0], fc[0]):
        return BF_NAN
    sa = fa[1] if fa[0] == 'inf' else fa[2]
    sb = fb[1] if fb[0] == 'inf' else fb[2]
    zero_a = fa[0] == 'num' and fa[1] == 0
    zero_b = fb[0] == 'num' and fb[1] == 0
    if (fa[0] == 'inf' and zero_b) or (fb[0] == 'inf' and zero_a):
        return BF_NAN
    psign = sa ^ sb
    if fa[0] == 'inf' or fb[0] == 'inf':
        if fc[0] == 'inf' and fc[1] != psign:
            return BF_NAN
        return relu_sat(0xff80 if psign else 0x7f80, relu, False)
    if fc[0] == 'inf':
        return relu_sat(0xff80 if fc[1] else 0x7f80, relu, False)
    p = fa[1] * fb[1]
    s = p + fc[1]
    if s == 0:  # exact zero: -0 only when both addends are -0 (round to nearest)
        neg = psign == 1 and fc[2] == 1 if p == 0 else False
        return relu_sat(0x8000 if neg else 0, relu, False)
    return relu_sat(round_bits(s, 7, 8), relu, False)


def less(a, b):
    """a before b in min/max's order (-0 < +0); neither NaN"""
    fa, fb = bf_val(a), bf_val(b)
    va = (-1 if fa[1] else 1) * Fraction(10) ** 60 if fa[0] == 'inf' else fa[1]
    vb = (-1 if fb[1] else 1) * Fraction(10) ** 60 if fb[0] == 'inf' else fb[1]
    if va != vb:
        return va < vb
    return bool(a & 0x8000) and not b & 0x8000


def minmax(a, b, is_max, nan_wins):
    na, nb = is_nan16(a), is_nan16(b)
    if (na and nb) or (nan_wins and (na or nb)):
        return BF_NAN
    if na:
        return b
    if nb:
        return a
    if is_max:
        return b if less(a, b) else a
    return b if less(b, a) else a


ONE, NEG0 = 0x3f80, 0x8000


def lo(w):
    return w & 0xffff


def hi(w):
    return w >> 16


def pair(f, *ws):
    """f on the low halves and on the high halves of 32-bit words"""
    return f(*map(hi, ws)) << 16 | f(*map(lo, ws))


def neg(h):
    return BF_NAN if is_nan16(h) else h ^ 0x8000


def fabs(h):
    return BF_NAN if is_nan16(h) else h & 0x7fff


def results(a, b, c):
    """the kernel's 22 results for one thread, in its order"""
    return [cvt_f32(a), cvt_f32(a, relu=True), cvt_f32(a, satfinite=True), cvt_rz_f32(a),
            cvt_f32(a) << 16 | cvt_f32(b), cvt_f32(a, True, True) << 16 | cvt_f32(b, True, True),
            lo(a) << 16, cvt_f64(a << 32 | c),
            fma(lo(a), lo(b), lo(c)), fma(hi(a), hi(b), hi(c), relu=True),
            pair(fma, a, b, c), pair(lambda x, y, z: fma(x, y, z, relu=True), c, b, a),
            pair(lambda x, y: fma(x, ONE, y), a, b), fma(lo(a), ONE, neg(lo(b)) if not is_nan16(lo(b)) else lo(b)),
            pair(lambda x, y: fma(x, y, NEG0), a, b),
            pair(lambda x, y: minmax(x, y, False, False), a, b),
            pair(lambda x, y: minmax(x, y, True, True), a, b),
            minmax(hi(a), hi(b), False, True), minmax(lo(a), lo(b), True, False),
            pair(neg, a), fabs(hi(a)), fma(hi(c), hi(b), NEG0)]


NOUT = 22
# bf16 specials: zeros, min/max subnormal, min normal, one, max finite, infinities, NaNs
SPECIAL = [0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
           0x7fc0, 0xff81, 0x4040, 0x3f81]
# f32 words: ties to even down/up, just above a tie, overflow to infinity, the largest value that
# stays finite, subnormal ties, specials; f64 (c low, a high) edges come from the same words
EDGE32 = [0x3f808000, 0x3f818000, 0x3f808001, 0x7f7f8000, 0x7f7f7fff, 0xff7f8000, 0x00008000,
          0x00018000, 0x807fffff, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7f800000, 0xff800000,
          0x80000000, 0x00000000, 0x7f7fffff, 0xc2fe8000, 0x00000001, 0x3f7fffff, 0x5f800000]
# fma triples whose product is a bf16 midpoint (3 * (1 + 2^-7) = 3 + 3 * 2^-7) and an addend
# far below it: rounding the exact sum to f32 first would land on the midpoint (double rounding)
FMA_EDGE = [(0x4040, 0x3f81, 0x0001), (0x4040, 0x3f81, 0x8001), (0x4040, 0x3f81, 0x0000),
            (0xc040, 0x3f81, 0x0001), (0x4040, 0x3f81, 0x2001), (0x4040, 0x3f83, 0xa001),
            (0x0001, 0x0001, 0x0000), (0x0001, 0x3f00, 0x0000), (0x0003, 0x3f00, 0x8000),
            (0x7f7f, 0x4000, 0xff7f), (0x7f80, 0x0000, 0x3f80), (0x7f80, 0x3f80, 0xff80),
            (0x8000, 0x3f80, 0x8000), (0x0000, 0xbf80, 0x8000), (0x3f80, 0x3f80, 0xbf80)]


def bf_rand(rng):
    e = rng.choice([0, 0, 1, 2, 60, 120, 126, 127, 128, 200, 253, 254, 255, rng.randrange(256)])
    return rng.getrandbits(1) << 15 | e << 7 | rng.getrandbits(7)


def f32_rand(rng):
    e = rng.choice([0, 1, 126, 127, 128, 254, 255, rng.randrange(256)])
    m = rng.getrandbits(23)
    if rng.random() < 0.3:  # a tie, or one ulp of f32 beside it
        m = (m & ~0xffff) | rng.choice([0x8000, 0x7fff, 0x8001])
    return rng.getrandbits(1) << 31 | e << 23 | m


def operands(rng, n):
    a, b, c = [], [], []
    for w in EDGE32:
        a.append(w)
        b.append(EDGE32[(EDGE32.index(w) + 3) % len(EDGE32)])
        c.append(rng.choice(EDGE32))
    for x, y, z in FMA_EDGE:
        a.append(x << 16 | x)
        b.append(y << 16 | y)
        c.append(z << 16 | z)
    for i, x in enumerate(SPECIAL):
        for j, y in enumerate(SPECIAL):
            z = SPECIAL[(i + j) % len(SPECIAL)]
            a.append(x << 16 | y)
            b.append(y << 16 | x)
            c.append(z << 16 | SPECIAL[(i * 7 + j) % len(SPECIAL)])
    while len(a) < n:
        if rng.random() < 0.5:
            a.append(bf_rand(rng) << 16 | bf_rand(rng))
            b.append(bf_rand(rng) << 16 | bf_rand(rng))
            c.append(bf_rand(rng) << 16 | bf_rand(rng))
        else:
            a.append(f32_rand(rng))
            b.append(f32_rand(rng))
            c.append(f32_rand(rng))
    return a[:n], b[:n], c[:n]


def bf16_case():
    rng = random.Random('bf16')
    n, block = 512, 128
    a, b, c = operands(rng, n)

    def expect():
        out = []
        for x, y, z in zip(a, b, c):
            out += results(x, y, z)
        return out

    return Case('bf16', 'bf16', (n // block,), (block,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), In('I', c), ('u32', n)],
                checker('bf16', NOUT, 'I', expect, [a, b, c]))


def cases():
    return [bf16_case()]
