"""Cases for tests/exec/ptx/fmod.ptx: the float arithmetic modifiers on edge operands
(subnormals, +-0, NaN, infinities, values straddling 0 and 1 and the smallest normal):
.sat on add/sub/mul/fma, .ftz on min/max/abs/neg, every setp.*.ftz.f32 comparison, .ftz
mul/fma whose exact result is tiny, .ftz/.sat/.relu on f16 and f16x2, min/max .NaN and on
f16, setp.f16x2, neg/abs/sub.f64 of NaNs.  The references follow the PTX
ISA's definitions in exact fractions; where the ISA leaves a detail open they follow what
NVIDIA's hardware computes (../shared/ptx-hw, docs/FLOAT.md): .sat gives +0.0 for every
result that clamps to zero, and .ftz mul/fma detect tininess after rounding with an unbounded
exponent (IEEE 754's "after rounding": the H100's fma.rp.ftz keeps 2^-126 for a value just
below it that is no 24-bit number, kernel k00685 of ../shared/ptx-hw/random)."""

import random
from fractions import Fraction

from ref import Case, In, Out
from cases_arith2 import checker, directed, fval, half_op, is_nan, nan_check, to_float

M16 = 0xffff
M32 = 0xffffffff
SIGN = 0x80000000
TINY = Fraction(2) ** -126  # the smallest normal f32

EDGE32 = [0, SIGN, 0x3f800000, 0xbf800000, 0x3f7fffff, 0x3f800001, 0x00800000, 0x80800000,
          0x007fffff, 0x807fffff, 0x00000001, 0x80000001, 0x00ffffff, 0x3f000000, 0x3effffff,
          0x01000000, 0x7fc00000, 0xffc12345, 0x7f800000, 0xff800000, 0x40000000, 0x00400000,
          0x3f7ffffe, 0xbf7fffff, 0x7ff00000, 0x7ff40000, 0xfff80000,
          0x7f800001, 0xff812345]  # the last two: signalling NaNs
# fma operands whose exact result is just below 2^-126 in magnitude (rounds up to it)
TINY_FMA = [(0x3f7fffff, 0x00800000, 0), (0xbf7fffff, 0x00800000, SIGN),
            (0x00ffffff, 0x3f000000, 0x80000001), (0x3effffff, 0x01000000, 0),
            (0x3fc00000, 0x00800001, 0x80800001), (0x3f800001, 0x00ffffff, 0x80800000),
            (0x3f800000, 0x00800000, 0x80000001)]
# results just below 2^-126 that are no 24-bit numbers: after rounding with an unbounded
# exponent they are 2^-126 where they round up (fma.rp.ftz: k00685's operands; mul.rn/rp and
# fma.rn of 0x3f7ffffe * 0x00800001 = 2^-126 (1 - 2^-46)), before rounding they would be zero.
# Their own case (fmod_tiny), so that fmod's launch stays the one recorded on the H100.
TINY_AFTER = [(0xa0cdb8c9, 0x01490fdb, 0x00800000), (0x3f7ffffe, 0x00800001, 0x00000000)]
EDGE16 = [0, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x03ff,
          0x0400, 0x7bff, 0xfbff, 0x3555, 0xb555, 0x3bff, 0x07ff, 0x3800, 0x3c01]
# f16 (a, b, c) whose a * b (+ c) is just below 2^-14 (rounds up to it), or near 1.0
TINY16 = [(0x3bff, 0x0400, 0), (0x0400, 0xbbff, 0x8000), (0x07ff, 0x3800, 0x8001),
          (0x3c01, 0x03ff, 0x8001), (0x3c00, 0x0400, 0x8001), (0x3c01, 0x3bff, 0x8001)]
CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num',
        'nan']
NOUT = 36
Q64 = 1 << 51  # the quiet bit of an f64 NaN


def ftz(bits):
    """A subnormal f32 becomes the zero of its sign."""
    return bits & SIGN if (bits & 0x7f800000) == 0 else bits


def sat(v):
    """.sat: NaN -> +0.0, clamped to [0.0, 1.0]; a zero (either sign) or negative result is
    +0.0 (the hardware; the ISA does not say which zero)."""
    if callable(v) or v & SIGN:
        return 0
    return min(v, 0x3f800000)  # positive floats order as their bit patterns


def exact(op, xs):
    v = [fval(x, 32)[1] for x in xs]
    return {'add': lambda: v[0] + v[1], 'sub': lambda: v[0] - v[1],
            'mul': lambda: v[0] * v[1], 'fma': lambda: v[0] * v[1] + v[2]}[op]()


def tiny_after_rounding(e, mode):
    """Whether the nonzero exact value e, rounded to 24 significant bits under mode with an
    unbounded exponent, is below 2^-126 in magnitude."""
    if abs(e) >= TINY:
        return False
    if abs(e) < TINY / 2:
        return True
    q = abs(e) * 2 ** 150  # in [2^23, 2^24): its integer part is the 24-bit significand
    m = q.numerator // q.denominator
    rem = q - m
    up = rem and {'rn': rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1),
                  'rz': False, 'rp': e > 0, 'rm': e < 0}[mode]
    return m + bool(up) < 1 << 24


def arith(op, xs, mode, flush=False, saturate=False):
    """add/sub/mul/fma rounded as `mode` says; .ftz flushes subnormal operands and any result
    whose exact value is nonzero and, rounded with an unbounded exponent, below 2^-126."""
    if flush:
        xs = [ftz(x) for x in xs]
    r = directed(op, xs, 32, mode)
    if flush and not callable(r):
        if all(fval(x, 32)[0] == 'num' for x in xs):
            e = exact(op, xs)
            if e != 0 and tiny_after_rounding(e, mode):
                r = SIGN if e < 0 else 0
        r = ftz(r)
    return sat(r) if saturate else r


def minmax(x, y, is_min, w=32, flush=True, nanmod=False):
    """min/max{.ftz}{.NaN}: a NaN operand gives the other one (.NaN: the canonical NaN); -0.0
    is below +0.0 (the hardware)."""
    fl = ftz if w == 32 else ftz16
    canonical = 0x7fffffff if w == 32 else 0x7fff
    if flush:
        x, y = fl(x), fl(y)
    if is_nan(x, w) or is_nan(y, w):
        if nanmod:
            return canonical
        if is_nan(x, w) and is_nan(y, w):
            return nan_check(w)
        return y if is_nan(x, w) else x
    fx, fy = to_float(x, w), to_float(y, w)
    if fx == fy:
        sx = x >> (w - 1)
        return (x if sx else y) if is_min else (y if sx else x)
    return x if (fx < fy) == is_min else y


def sign_op(x, neg):
    x = ftz(x)
    if is_nan(x, 32):
        return nan_check(32)
    return x ^ SIGN if neg else x & ~SIGN & M32


def setp_mask(x, y):
    return cmp_bits(to_float(ftz(x), 32), to_float(ftz(y), 32), CMPS)


def cmp_bits(fx, fy, names):
    """bit j = comparison names[j] of two Python floats (unordered ones true with a NaN)"""
    u = fx != fx or fy != fy
    res = {'eq': fx == fy, 'ne': not u and fx != fy, 'lt': fx < fy, 'le': fx <= fy,
           'gt': fx > fy, 'ge': fx >= fy, 'equ': u or fx == fy, 'neu': fx != fy,
           'ltu': u or fx < fy, 'leu': u or fx <= fy, 'gtu': u or fx > fy,
           'geu': u or fx >= fy, 'num': not u, 'nan': u}
    return sum(1 << j for j, c in enumerate(names) if res[c])


def setp16x2(x, y, cmp, flush):
    """setp.CMP{.ftz}.f16x2 p|q, x, y: (p, q) = the low halves' and the high halves' result"""
    fl = ftz16 if flush else (lambda v: v)
    return tuple(cmp_bits(to_float(fl(x >> s & M16), 16), to_float(fl(y >> s & M16), 16), [cmp])
                 for s in (0, 16))


def relu16(v):
    """fma.relu: a negative result (-0 too) is +0, a NaN result the canonical NaN 0x7fff."""
    if callable(v):
        return 0x7fff
    return 0 if v & 0x8000 else v


def f64_nan_ops(x, y):
    """neg.f64/abs.f64 x and sub.f64 x, y.  The ISA leaves the NaN open; NVIDIA's hardware
    returns a NaN operand of neg/abs unchanged (a signalling one quieted) and x - NaN as that
    NaN, quieted, with its own sign (docs/FLOAT.md); two NaN operands: any NaN."""
    xn, yn = is_nan(x, 64), is_nan(y, 64)
    neg = x | Q64 if xn else x ^ 1 << 63
    ab = x | Q64 if xn else x & ~(1 << 63)
    if xn and yn:
        d = nan_check(64)
    elif xn or yn:
        d = (y if yn else x) | Q64
    else:
        d = directed('sub', [x, y], 64, 'rn')
    r = []
    for v in (neg, ab, d):
        if callable(v):
            r += [None, (lambda g: (g & 0x7ff00000) == 0x7ff00000)]  # NaN: the high word
        else:
            r += [v & M32, v >> 32]
    return r


def ftz16(h):
    return h & 0x8000 if (h & 0x7c00) == 0 else h


def half_mods(op, xs, flush=False, saturate=False, relu=False):
    """f16 add/sub/mul/fma .rn with .ftz (operands; results whose exact value is below 2^-14
    before rounding, as for f32), .sat (NaN, zeros and negatives -> +0, above 1 -> 1.0) and
    .relu, on i16 bit patterns."""
    if flush:
        xs = [ftz16(x) for x in xs]
    r = half_op(op, xs)
    if flush and not callable(r):
        if all(fval(x, 16)[0] == 'num' for x in xs):
            v = [fval(x, 16)[1] for x in xs]
            e = {'add': lambda: v[0] + v[1], 'sub': lambda: v[0] - v[1],
                 'mul': lambda: v[0] * v[1], 'fma': lambda: v[0] * v[1] + v[2]}[op]()
            if e != 0 and abs(e) < Fraction(2) ** -14:
                r = 0x8000 if e < 0 else 0
        r = ftz16(r)
    if saturate:
        r = 0 if callable(r) or r & 0x8000 else min(r, 0x3c00)
    if relu:
        r = relu16(r)
    return r


def setp16x2_bits(x, y, first):
    """slot 35: setp.ltu.f16x2, setp.ge.ftz.f16x2, setp.eq.or.ftz.f16x2 with `first`"""
    p0, q0 = setp16x2(x, y, 'ltu', False)
    p1, q1 = setp16x2(x, y, 'ge', True)
    p2, q2 = (v | first for v in setp16x2(x, y, 'eq', True))
    return p0 | q0 << 1 | p1 << 2 | q1 << 3 | p2 << 4 | q2 << 5


def results(a, b, c, h, i):
    r = [arith('add', [a, b], 'rn', saturate=True), arith('sub', [a, b], 'rm', saturate=True),
         arith('mul', [a, b], 'rn', saturate=True), arith('mul', [a, b], 'rz', saturate=True),
         arith('fma', [a, b, c], 'rn', saturate=True),
         arith('fma', [a, b, c], 'rm', flush=True, saturate=True),
         minmax(a, b, True), minmax(a, b, False), sign_op(a, False), sign_op(a, True),
         setp_mask(a, b),
         arith('mul', [a, b], 'rn', flush=True), arith('mul', [a, b], 'rp', flush=True),
         arith('fma', [a, b, c], 'rn', flush=True), arith('add', [a, b], 'rn', flush=True)]
    r.append(relu16(half_op('fma', [w & M16 for w in h])))
    lo, hi = (relu16(half_op('fma', [w >> s & M16 for w in h])) for s in (0, 16))
    r.append(lo | hi << 16)
    r += f64_nan_ops(a | b << 32, c | a << 32)

    def halves(op, n, **mods):
        lo, hi = (half_mods(op, [w >> s & M16 for w in h[:n]], **mods) for s in (0, 16))
        return halves_check(lo, hi)

    r += [halves('add', 2, flush=True, saturate=True), halves('mul', 2, flush=True),
          halves('fma', 3, flush=True, saturate=True),
          halves_check(*(sign16(h[0] >> s & M16, True) for s in (0, 16))),
          half_mods('sub', [w & M16 for w in h[:2]], saturate=True),
          half_mods('fma', [w & M16 for w in h], flush=True, relu=True),
          sign16(h[0] & M16, False)]

    def mm16(is_min, **mods):
        return halves_check(*(minmax(h[0] >> s & M16, h[1] >> s & M16, is_min, 16, **mods)
                              for s in (0, 16)))

    r += [minmax(a, b, True, flush=False, nanmod=True), minmax(a, b, False, nanmod=True),
          mm16(True, flush=False), mm16(False, nanmod=True),
          minmax(h[0] & M16, h[1] & M16, True, 16), setp16x2_bits(h[0], h[1], int(i < 512))]
    return r


def sign16(x, neg):
    """neg/abs.ftz.f16: subnormal flushed first; a NaN: any NaN."""
    x = ftz16(x)
    if is_nan(x, 16):
        return nan_check(16)
    return x ^ 0x8000 if neg else x & 0x7fff


def halves_check(lo, hi):
    if not callable(lo) and not callable(hi):
        return lo | hi << 16

    def f(g):
        return all((e(p) if callable(e) else p == e) for e, p in ((lo, g & M16), (hi, g >> 16)))
    f.text = 'halves %s %s' % tuple('NaN' if callable(e) else '%#x' % e for e in (lo, hi))
    return f


def operands(rng):
    a, b, c = [], [], []
    for i, x in enumerate(EDGE32):
        for j, y in enumerate(EDGE32):
            a.append(x)
            b.append(y)
            c.append(EDGE32[(3 * i + 5 * j) % len(EDGE32)] if (i + j) % 3 else 0)
    for x, y, z in TINY_FMA:
        a += [x, y]
        b += [y, x]
        c += [z, z]
    while len(a) % 64 or len(a) < 1024:
        a.append(0x3f000000 | rng.getrandbits(24))  # [0.5, 2)
        b.append(rng.getrandbits(1) << 31 | rng.randrange(0, 3) << 23 | rng.getrandbits(23))
        c.append(rng.getrandbits(1) << 31 | rng.randrange(0, 3) << 23 | rng.getrandbits(23))
    h = []
    for x, y, z in TINY16:  # both halves
        h += [x | y << 16, y | x << 16, z | z << 16]
    while len(h) < 3 * len(a):
        halves = [rng.choice(EDGE16) if rng.random() < 0.6 else rng.getrandbits(16)
                  for _ in range(2)]
        h.append(halves[0] | halves[1] << 16)
    return a, b, c, h


def fmod_case():
    rng = random.Random('fmod')
    a, b, c, h = operands(rng)
    n, block = len(a), 64

    def expect():
        out = []
        for i in range(n):
            out += results(a[i], b[i], c[i], h[3 * i:3 * i + 3], i)
        return out

    return Case('fmod', 'fmod', (n // block,), (block,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), In('I', c), In('I', h),
                 ('u32', n)],
                checker('fmod', NOUT, 'I', expect, [a, b, c]))


def fmod_tiny_case():
    """fmod.ptx on TINY_AFTER (both operand orders), the rest of the 64 threads ones."""
    a, b, c = [], [], []
    for x, y, z in TINY_AFTER:
        a += [x, y]
        b += [y, x]
        c += [z, z]
    n = 64
    a += [0x3f800000] * (n - len(a))
    b += [0x3f800000] * (n - len(b))
    c += [0] * (n - len(c))
    h = [0x3c003c00] * (3 * n)

    def expect():
        out = []
        for i in range(n):
            out += results(a[i], b[i], c[i], h[3 * i:3 * i + 3], i)
        return out

    return Case('fmod_tiny', 'fmod', (1,), (n,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), In('I', c), In('I', h),
                 ('u32', n)],
                checker('fmod', NOUT, 'I', expect, [a, b, c]))


def cases():
    return [fmod_case(), fmod_tiny_case()]
