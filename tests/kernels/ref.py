"""Launch configurations, inputs and independent CPU references for the kernel suite.

Every case names a kernel (src/<kernel>.cl), a launch (--grid in work-groups, --block in
work-items), its arguments, and a check function comparing the output buffers with values
computed here in plain Python (ints exactly, floats through fpref's exact rounding). Inputs come
from random.Random seeded by the case name, so every run sees the same data. Comparison bounds
are documented in README.md; the default is bit-exact.
"""

import math
import random
import struct
import zlib
from fractions import Fraction

import fpref
from fpref import F16, F32, F64, f32, f16

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def s16(v):
    v &= 0xffff
    return v - 0x10000 if v >> 15 else v


def s8(v):
    v &= 0xff
    return v - 0x100 if v >> 7 else v


def cdiv(a, b):
    """C division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def crem(a, b):
    return a - b * cdiv(a, b)


def pack(fmt, values):
    return struct.pack('<%d%s' % (len(values), fmt), *values)


def unpack(fmt, data):
    size = struct.calcsize('<' + fmt)
    return list(struct.unpack('<%d%s' % (len(data) // size, fmt), data))


class Buf:
    """A device buffer argument: kind is 'in', 'out' (zeroed, size bytes) or 'inout'."""

    def __init__(self, kind, data=b'', size=0):
        self.kind, self.data, self.size = kind, data, size if kind == 'out' else len(data)


def In(fmt, values):
    return Buf('in', pack(fmt, values))


def InOut(fmt, values):
    return Buf('inout', pack(fmt, values))


def Out(nbytes):
    return Buf('out', size=nbytes)


class Case:
    """One kernel launch. args: Buf objects, scalars ('i32'|'u32'|'i64'|'u64'|'f32'|'f64', value)
    and dynamic LDS ('lds', bytes) for a __local pointer argument. check(outs, wave) returns a
    list of error strings; outs holds the final bytes of every out/inout buffer in argument
    order and wave is the wavefront size."""

    def __init__(self, name, kernel, grid, block, args, check):
        self.name, self.kernel, self.grid, self.block = name, kernel, grid, block
        self.args, self.check = args, check


# ---------------------------------------------------------------- comparison helpers

def cmp_ints(label, got_bytes, expected, fmt):
    got = unpack(fmt, got_bytes)
    errs = []
    if len(got) != len(expected):
        return ['%s: %d elements, expected %d' % (label, len(got), len(expected))]
    bad = [i for i in range(len(got)) if got[i] != expected[i]]
    for i in bad[:5]:
        errs.append('%s[%d] = %r, expected %r' % (label, i, got[i], expected[i]))
    if len(bad) > 5:
        errs.append('%s: %d mismatches in all' % (label, len(bad)))
    return errs


def cmp_floats(label, got_bytes, expected, width, ulps=0, abs_tol=None):
    """expected: floats, or tuples of acceptable floats; ulps/abs_tol: a number, or a function
    of the element index. With a bound of 0 ulps the bits must match (so -0 != +0)."""
    got = unpack(fpref.INT_CHAR[width], got_bytes)
    if len(got) != len(expected):
        return ['%s: %d elements, expected %d' % (label, len(got), len(expected))]
    bad = []
    for i, g in enumerate(got):
        alts = expected[i] if isinstance(expected[i], tuple) else (expected[i],)
        u = ulps(i) if callable(ulps) else ulps
        at = abs_tol(i) if callable(abs_tol) else abs_tol
        ok = False
        for e in alts:
            eb = fpref.float_bits(e, width)
            if fpref.is_nan_bits(eb, width):
                ok = fpref.is_nan_bits(g, width)
            elif u == 0 and not at:
                ok = g == eb
            else:
                gv = fpref.bits_float(g, width)
                ok = not fpref.is_nan_bits(g, width) and (
                    fpref.ulp_distance(g, eb, width) <= u or
                    (at is not None and math.isfinite(gv) and abs(gv - e) <= at))
            if ok:
                break
        if not ok:
            bad.append(i)
    errs = []
    for i in bad[:5]:
        gv = fpref.bits_float(got[i], width)
        errs.append('%s[%d] = %r (0x%x), expected %r' % (label, i, gv, got[i], expected[i]))
    if len(bad) > 5:
        errs.append('%s: %d mismatches in all' % (label, len(bad)))
    return errs


def rng_for(name):
    return random.Random(zlib.crc32(name.encode()))


def rand_f32(rng, lo_exp=-3, hi_exp=3):
    """A random f32 with magnitude 10**[lo_exp, hi_exp) and random sign (never denormal)."""
    return f32(rng.choice((-1, 1)) * rng.uniform(1, 10) * 10 ** rng.randrange(lo_exp, hi_exp))


# ---------------------------------------------------------------- cases

def case_vadd_f32():
    n, block, grid = 1000, 256, 4
    r = rng_for('vadd_f32')
    a = [rand_f32(r) for _ in range(n)]
    b = [rand_f32(r) for _ in range(n)]
    exp = [f32(x + y) for x, y in zip(a, b)] + [0.0] * (grid * block - n)

    def check(outs, wave):
        return cmp_floats('c', outs[0], exp, 32)
    return Case('vadd_f32', 'vadd_f32', (grid,), (block,),
                [In('f', a), In('f', b), Out(4 * grid * block), ('u32', n)], check)


def _special_f32(r, n):
    vals = [2.5, -2.5, 3.5, -0.5, 0.5, -0.3, 0.0, -0.0, 1.0, -7.0, 1e30, -1e-30]
    return [f32(vals[i]) if i < len(vals) else rand_f32(r, -4, 6) for i in range(n)]


def _zero_sign(res, x):
    return math.copysign(0.0, x) if res == 0 else float(res)


def _round_half_even(x):
    return _zero_sign(round(x), x)


def case_elem_f32():
    n, block, grid = 300, 64, 5
    r = rng_for('elem_f32')
    a = _special_f32(r, n)
    b = [rand_f32(r, -4, 6) for _ in range(n)]
    c = [rand_f32(r, -4, 6) for _ in range(n)]
    exp = []
    for x, y, z in zip(a, b, c):
        exp += [f32(x + y), f32(x - y), f32(x * y), fpref.fma(x, y, z, F32), min(x, y),
                max(x, y), -abs(x), _zero_sign(math.floor(x), x), _zero_sign(math.ceil(x), x),
                _zero_sign(math.trunc(x), x), _round_half_even(x), math.copysign(y, x)]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 32)
    return Case('elem_f32', 'elem_f32', (grid,), (block,),
                [In('f', a), In('f', b), In('f', c), Out(4 * 12 * n), ('u32', n)], check)


def rand_f64(rng, lo_exp=-3, hi_exp=3):
    return rng.choice((-1, 1)) * rng.uniform(1, 10) * 10 ** rng.randrange(lo_exp, hi_exp)


def case_elem_f64():
    n, block, grid = 200, 64, 4
    r = rng_for('elem_f64')
    a = [2.5, -2.5, -0.5, 0.0, -0.0, 1e300, 1e-300] + [rand_f64(r, -6, 8) for _ in range(n - 7)]
    b = [rand_f64(r, -6, 8) for _ in range(n - 1)] + [0.0]
    c = [rand_f64(r, -6, 8) for _ in range(n)]
    exp = []
    for i, (x, y, z) in enumerate(zip(a, b, c)):
        m, e = math.frexp(y)
        exp += [x + y, x - y, x * y, fpref.fma(x, y, z, F64), min(x, y), max(x, y), -abs(x),
                _zero_sign(math.floor(x), x), _zero_sign(math.ceil(x), x),
                _zero_sign(math.trunc(x), x), math.ldexp(x, i % 9 - 4), m + float(e)]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 64)
    return Case('elem_f64', 'elem_f64', (grid,), (block,),
                [In('d', a), In('d', b), In('d', c), Out(8 * 12 * n), ('u32', n)], check)


def _rand_i32(r):
    k = r.randrange(4)
    if k == 0:
        return r.randrange(-100, 100)
    if k == 1:
        return r.randrange(-(1 << 24), 1 << 24)
    return r.randrange(-(1 << 31) + 1, 1 << 31)


def case_elem_i32():
    n, block, grid = 333, 128, 3
    r = rng_for('elem_i32')
    a = [_rand_i32(r) for _ in range(n)]
    b = [_rand_i32(r) for _ in range(n)]
    exp = []
    for x, y in zip(a, b):
        ux, uy = x & M32, y & M32
        exp += [s32(x + y), s32(x - y), s32(x * y), s32((x * y) >> 32), s32((ux * uy) >> 32),
                s32(ux << (y & 31)), x >> (y & 31), s32(ux >> (uy & 31)), x & y, x | y, x ^ y,
                ~x, abs(x), min(x, y), max(x, y), s32(min(ux, uy)), s32(max(ux, uy)),
                s32((ux & 0xffffff) * (uy & 0xffffff)),
                (x == y) + (x != 0) * 2 + (ux >= uy) * 4 + (x <= y) * 8,
                s32(ux * 13 + ((y >> 4) & M32) * 7 - 1000)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('elem_i32', 'elem_i32', (grid,), (block,),
                [In('i', a), In('i', b), Out(4 * 20 * n), ('u32', n)], check)


def _rand_i64(r):
    k = r.randrange(4)
    if k == 0:
        return r.randrange(-1000, 1000)
    if k == 1:
        return r.randrange(-(1 << 33), 1 << 33)
    return r.randrange(-(1 << 63) + 1, 1 << 63)


def case_elem_i64():
    n, block, grid = 250, 64, 4
    r = rng_for('elem_i64')
    a = [_rand_i64(r) for _ in range(n)]
    b = [_rand_i64(r) for _ in range(n)]
    exp = []
    for x, y in zip(a, b):
        ux, uy = x & M64, y & M64
        exp += [s64(x + y), s64(x - y), s64(x * y), s64((ux * uy) >> 64), s64((x * y) >> 64),
                s64(ux << (y & 63)), x >> (y & 63), s64(ux >> (uy & 63)), x & y, x | y,
                x ^ ~y, min(x, y), s64(max(ux, uy)), s64((ux & M32) * (uy & M32)),
                s64(ux * 1000003 + ((y >> 17) & M64)), (x == y) + (x < y) * 2 + (ux < uy) * 4]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'q')
    return Case('elem_i64', 'elem_i64', (grid,), (block,),
                [In('q', a), In('q', b), Out(8 * 16 * n), ('u32', n)], check)


def case_div_i32():
    n, block, grid = 400, 64, 7
    r = rng_for('div_i32')
    a, b = [], []
    for _ in range(n):
        x = _rand_i32(r)
        y = _rand_i32(r) >> r.randrange(0, 31)
        if y == 0 or (x == -(1 << 31) and y == -1):
            y = 3
        a.append(x)
        b.append(y)
    a[:4] = [-(1 << 31), (1 << 31) - 1, -7, 7]
    b[:4] = [1, -1, 2, -2]
    exp = []
    for x, y in zip(a, b):
        ux, uy = x & M32, y & M32
        exp += [cdiv(x, y), crem(x, y), s32(ux // uy), s32(ux % uy), cdiv(x, 7), crem(x, -13),
                s32(ux // 1000), s32(ux % 641)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('div_i32', 'div_i32', (grid,), (block,),
                [In('i', a), In('i', b), Out(4 * 8 * n), ('u32', n)], check)


def case_div_i64():
    n, block, grid = 300, 64, 5
    r = rng_for('div_i64')
    a, b = [], []
    for _ in range(n):
        x = _rand_i64(r)
        y = _rand_i64(r) >> r.randrange(0, 63)
        if y == 0:
            y = -5
        a.append(x)
        b.append(y)
    a[:4] = [-(1 << 63) + 1, (1 << 63) - 1, -7, 1 << 40]
    b[:4] = [1, -1, 2, 3]
    exp = []
    for x, y in zip(a, b):
        ux, uy = x & M64, y & M64
        exp += [cdiv(x, y), crem(x, y), s64(ux // uy), s64(ux % uy), cdiv(x, 10),
                s64(ux % 1000000007)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'q')
    return Case('div_i64', 'div_i64', (grid,), (block,),
                [In('q', a), In('q', b), Out(8 * 6 * n), ('u32', n)], check)


def _fdiv_extremes(width):
    """Operand pairs at the ends of the range for v_div_scale's cases: divisors above 2^126
    (2^1022) whose reciprocal and quotient are subnormal, tiny numerators, quotients near
    overflow, quotients that underflow to zero, subnormal operands."""
    emax = 127 if width == 32 else 1023
    big = (2 - 2.0 ** (-23 if width == 32 else -52)) * 2.0 ** emax
    tiny = 2.0 ** (-149 if width == 32 else -1074)
    mn = 2.0 ** (1 - emax)
    return [(1.0, big), (-1.0, big), (1.0, 2.0 ** emax), (3.0, 1.5 * 2.0 ** (emax - 1)),
            (big, big), (0.75, 1.25 * 2.0 ** (emax - 1)), (2.0 ** 20, big), (5.0 * mn, 3.0),
            (mn, 2.0 ** 20), (7 * tiny, 3.0), (tiny, 0.5), (big, 0.5), (big, 3.0 * mn),
            (2.0 ** (emax - 30), 2.0 ** -80), (3 * tiny, 5 * tiny), (1.0, 3 * tiny),
            (1.0, mn * 0.75), (-mn, 1.0 + 2.0 ** -20), (2.0 ** -100, 2.0 ** 60),
            (3.0 * mn, 2.0 ** (emax - 27)), (-1.7 * mn, 1.3 * 2.0 ** (emax - 3)),
            (-2.0000123, 1.27 * mn * 4), (1.5 * mn, 2.0 ** (emax - 2))]


def _fdiv_case(name, width, ulps, extremes=False):
    n, block, grid = 500, 128, 4
    r = rng_for(name)
    rnd = rand_f32 if width == 32 else rand_f64
    rounder = f32 if width == 32 else float
    a = [abs(rnd(r, -15, 15)) if i % 3 else rnd(r, -15, 15) for i in range(n)]
    b = [rnd(r, -15, 15) for _ in range(n)]
    a[:3] = [1.0, 4.0, 0.0]
    if extremes:
        ext = _fdiv_extremes(width)
        a[3:3 + len(ext)] = [abs(x) for x, _ in ext]  # sqrt(a) is checked too
        b[3:3 + len(ext)] = [y * (-1 if x < 0 else 1) for x, y in ext]
    exp = []
    for x, y in zip(a, b):
        sq = math.nan if x < 0 else rounder(float(_sqrt_exact(x, F32 if width == 32 else F64)))
        exp += [rounder(x / y) if width == 32 else _div64(x, y), sq,
                rounder(1.0 / y) if width == 32 else _div64(1.0, y)]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, width, ulps)
    fmt = 'f' if width == 32 else 'd'
    return Case(name, name, (grid,), (block,),
                [In(fmt, a), In(fmt, b), Out(width // 8 * 3 * n), ('u32', n)], check)


def _div64(x, y):
    return fpref.round_exact(Fraction(x) / Fraction(y), F64, math.copysign(1.0, x) *
                             math.copysign(1.0, y))


def _sqrt_exact(x, fmt):
    """Correctly rounded square root of a non-negative float in fmt."""
    if x == 0:
        return x
    fr = Fraction(x)
    prec = fmt[0]
    # isqrt on a scaled integer gives floor(sqrt) with plenty of extra bits; the +1 sticky bit
    # keeps ties (which cannot occur for sqrt) from rounding the wrong way.
    shift = 2 * (prec + 10) - (fr.numerator.bit_length() - fr.denominator.bit_length())
    shift += shift % 2
    scaled = fr * Fraction(2) ** shift
    iv = math.isqrt(scaled.numerator // scaled.denominator)
    exact = iv * iv == scaled
    root = Fraction(iv) + (0 if exact else Fraction(1, 2))
    return fpref.round_exact(root / Fraction(2) ** (shift // 2), fmt)


def case_fdiv_f32():
    return _fdiv_case('fdiv_f32', 32, 3)


def case_fdiv_f32_cr():
    return _fdiv_case('fdiv_f32_cr', 32, 0, extremes=True)


def case_fdiv_f64():
    return _fdiv_case('fdiv_f64', 64, 0, extremes=True)


def case_convert():
    n, block, grid = 256, 64, 4
    r = rng_for('convert')
    si = [_rand_i32(r) for _ in range(n)]
    sl = [_rand_i64(r) for _ in range(n)]
    sf = [f32(r.choice((-1, 1)) * r.uniform(1, 10) * 10 ** r.uniform(-3, 8)) for _ in range(n)]
    sd = [r.choice((-1, 1)) * r.uniform(1, 10) * 10 ** r.uniform(-3, 11) for _ in range(n)]
    sf[:4] = [65504.0, 65520.0, -2.5, f32(1e-6)]
    sd[:4] = [65519.99, 6.103515625e-05 * 1.5, 2.98e-8, -0.0]
    of, od, oi, ol, oh = [], [], [], [], []
    for x, y, f, d in zip(si, sl, sf, sd):
        h = f16(f)
        of += [fpref.round_exact(x, F32), fpref.round_exact(x & M32, F32),
               fpref.round_exact(y, F32), fpref.round_exact(y & M64, F32), f32(d), h,
               float(x & 0xff), float(s16(x))]
        od += [float(x), float(x & M32), fpref.round_exact(y, F64),
               fpref.round_exact(y & M64, F64), f, f16(d)]
        d3 = d * 0.001
        oi += [math.trunc(f), s32(math.trunc(abs(f))), math.trunc(d3), s32(math.trunc(abs(d3)))]
        ol += [math.trunc(f), s64(math.trunc(abs(f))), math.trunc(d), s64(math.trunc(abs(d)))]
        oh += [fpref.float_bits(h, 16), fpref.float_bits(f16(float(s16(x))), 16)]

    def check(outs, wave):
        return (cmp_floats('of', outs[0], of, 32) + cmp_floats('od', outs[1], od, 64) +
                cmp_ints('oi', outs[2], oi, 'i') + cmp_ints('ol', outs[3], ol, 'q') +
                cmp_ints('oh', outs[4], oh, 'H'))
    return Case('convert', 'convert', (grid,), (block,),
                [In('i', si), In('q', sl), In('f', sf), In('d', sd), Out(4 * 8 * n),
                 Out(8 * 6 * n), Out(4 * 4 * n), Out(8 * 4 * n), Out(2 * 2 * n), ('u32', n)],
                check)


def case_branch_div():
    n, block, grid = 777, 256, 4
    r = rng_for('branch_div')
    a = [r.randrange(-40000, 40000) for _ in range(n)]
    tab = [r.randrange(-1000, 1000) for _ in range(64)]
    exp = []
    for x in a:
        if x & 1:
            res = tab[(x >> 4) & 63] * 3 if crem(x, 3) == 0 else x * x - tab[x & 63]
        elif (x & 6) == 2:
            res = -x + (tab[(-x) & 63] if x < 0 else 0)
        else:
            res = x ^ 0x5a5a
        exp.append(res)
    exp += [0] * (grid * block - n)

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('branch_div', 'branch_div', (grid,), (block,),
                [In('i', a), In('i', tab), Out(4 * grid * block), ('u32', n)], check)


def case_loop_div():
    n, block, grid = 300, 64, 5
    r = rng_for('loop_div')
    a = [0, 1, 2, 27, 97, 0xffffffff, 0x80000001] + [r.randrange(1, 100000) for _ in range(n - 7)]
    hay = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(64)]
    exp = []
    for v in a:
        x, steps = v, 0
        while x > 1 and steps < 300:
            x = (3 * x + 1) & M32 if x & 1 else x >> 1
            steps += 1
        found = next((k for k in range(64) if (hay[k] & 31) == (v & 31)), 64)
        exp += [steps, found]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')
    return Case('loop_div', 'loop_div', (grid,), (block,),
                [In('I', a), In('i', hay), Out(8 * n), ('u32', n)], check)


def case_reduce_lds():
    n, block, grid = 1000, 256, 4
    r = rng_for('reduce_lds')
    a = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(n)]
    exp = []
    for g in range(grid):
        part = a[g * block:min(n, (g + 1) * block)]
        exp += [sum(part), max(part)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('reduce_lds', 'reduce_lds', (grid,), (block,),
                [In('i', a), Out(8 * grid), ('u32', n)], check)


def case_reduce_f64():
    n, block, grid = 500, 128, 4
    r = rng_for('reduce_f64')
    a = [float(r.randrange(-10 ** 9, 10 ** 9)) for _ in range(n)]
    exp = [float(sum(int(v) for v in a[g * block:(g + 1) * block])) for g in range(grid)]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 64)
    return Case('reduce_f64', 'reduce_f64', (grid,), (block,),
                [In('d', a), Out(8 * grid), ('u32', n)], check)


def case_atomics_global():
    n, block, grid = 700, 128, 6
    r = rng_for('atomics_global')
    a = [_rand_i32(r) for _ in range(n)]
    cnt0 = [0, 0, (1 << 31) - 1, -(1 << 31), -1, 0, -1, 0, 0, 0, 0] + [0] * 21
    exp = list(cnt0)
    exp[0] = s32(sum(a))
    exp[1] = s32(-sum(v & 0xff for v in a))
    exp[2] = min(a + [exp[2]])
    exp[3] = max(a + [exp[3]])
    exp[4] = s32(min(v & M32 for v in a))
    exp[5] = s32(max(v & M32 for v in a))
    bits_and = bits_or = 0
    for i, v in enumerate(a):
        bits_and |= 1 << (i & 31)
        bits_or |= 1 << (v & 31)
    exp[6] = s32(~bits_and)
    exp[7] = s32(bits_or)
    x = 0
    for v in a:
        x ^= v
    exp[8] = x
    exp[9] = 3 * n
    for v in a:
        exp[16 + (v & 15)] += 1
    e64 = [s64(sum(v * 100000 for v in a)), max(v * 1048576 for v in a)]
    fs = [float(sum(v & 63 for v in a))] + [0.5 * len(range(j, n, 4)) for j in range(4)]

    def check(outs, wave):
        cnt = unpack('i', outs[0])
        errs = cmp_ints('cnt', outs[0][:40], exp[:10], 'i')
        errs += cmp_ints('cnt[11:]', outs[0][44:], exp[11:], 'i')
        errs += cmp_ints('cnt64', outs[1], e64, 'q')
        errs += cmp_floats('fsum', outs[2], fs, 32)
        # Exchanged values: the old values plus the final one are 0, 1..n in some order.
        olds = unpack('i', outs[3]) + [cnt[10]]
        if sorted(olds) != list(range(n + 1)):
            errs.append('xchg: old values + final value are not a permutation of 0..n')
        return errs
    return Case('atomics_global', 'atomics_global', (grid,), (block,),
                [In('i', a), InOut('i', cnt0), InOut('q', [0, -(1 << 63)]), Out(4 * 5),
                 Out(4 * n), ('u32', n)], check)


def case_atomics_lds():
    block, grid = 128, 3
    r = rng_for('atomics_lds')
    a = [_rand_i32(r) for _ in range(block * grid)]
    exp, fexp = [], []
    for g in range(grid):
        v = a[g * block:(g + 1) * block]
        and_bits = or_bits = xor = 0
        for x in v:
            and_bits |= 1 << (x & 31)
            or_bits |= 1 << (x & 31)
            xor ^= x
        exp += [s32(sum(v)), min(v + [(1 << 31) - 1]), max(v), s32(~and_bits), s32(or_bits), xor,
                s32(max(x & M32 for x in v)), s32(-1 + sum(range(block))),
                sum((x & 3) + 1 for x in v)]
        fexp.append(float(sum(x & 7 for x in v)))

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i') + cmp_floats('fout', outs[1], fexp, 32)
    return Case('atomics_lds', 'atomics_lds', (grid,), (block,),
                [In('i', a), Out(4 * 9 * grid), Out(4 * grid)], check)


def case_histogram():
    n, block, grid = 5000, 128, 4
    r = rng_for('histogram')
    a = [r.randrange(0, 1 << 32) for _ in range(n)]
    exp = [0] * 64
    for v in a:
        exp[((v * 2654435761) & M32) >> 26] += 1

    def check(outs, wave):
        return cmp_ints('bins', outs[0], exp, 'I')
    return Case('histogram', 'histogram', (grid,), (block,),
                [In('I', a), Out(4 * 64), ('u32', n)], check)


def _wave_inputs(name, total):
    r = rng_for(name)
    return [r.randrange(-1000, 1000) for _ in range(total)]


def case_wave_ops():
    block, grid = 128, 2
    total = block * grid
    a = _wave_inputs('wave_ops', total)

    def expected(ws):
        exp = []
        for i in range(total):
            lane = i % ws
            base = i - lane
            row = lane // 16
            rl = lane % 16
            rb = base + row * 16

            def at(lane_no):
                return a[base + lane_no]
            ballot = sum(1 << l for l in range(ws) if a[base + l] > 0)
            exp += [at(0), at(5), at((lane + 5) % ws), at(lane ^ 1), at(lane ^ 3),
                    a[i - 1] if rl >= 1 else -7,
                    a[i + 3] if rl + 3 <= 15 else 0,
                    a[i ^ 1],
                    a[rb + ((rl - 4) & 15)],
                    a[rb + 15 - rl],
                    a[rb + (rl & 8) + 7 - (rl & 7)],
                    (a[i - 1] if rl >= 1 else -9) if (0x5 >> row) & 1 else -9,
                    s32(ballot & M32), s32(ballot >> 32), ws, lane,
                    at(2) if lane & 2 else 2 * at(0),
                    a[i - 15] if rl == 15 else 0]
        return exp

    def check(outs, wave):
        return cmp_ints('out', outs[0], expected(wave), 'i')
    return Case('wave_ops', 'wave_ops', (grid,), (block,), [In('i', a), Out(4 * 18 * total)],
                check)


def case_permlane():
    block, grid = 128, 2
    total = block * grid
    a = _wave_inputs('permlane', total)
    s1, s2 = 0x5a3c0f96, 0x1e2d3c4b

    def expected(ws):
        exp = []
        for i in range(total):
            lane = i % ws
            base = i - lane
            row, rl = lane & ~15, lane & 15

            def at(lane_no):
                return a[base + lane_no]
            sel = ((s2 << 32 | s1) >> (4 * rl)) & 15
            odd = lane & 1
            exp += [at(row + 15 - rl), at((row ^ 16) + rl), at((row ^ 16) + sel), at(row + sel),
                    0 if odd else -5, -12 if odd else -6, at(lane ^ 17) if odd else -7,
                    at(lane ^ 32) if ws == 64 else a[i]]
        return exp

    def check(outs, wave):
        return cmp_ints('out', outs[0], expected(wave), 'i')
    return Case('permlane', 'permlane', (grid,), (block,),
                [In('i', a), Out(4 * 8 * total), ('u32', s1), ('u32', s2)], check)


def case_wave_reduce():
    block, grid = 128, 2
    total = block * grid
    a = _wave_inputs('wave_reduce', total)

    def expected(ws):
        exp = []
        for i in range(total):
            lane = i % ws
            base = i - lane

            def scan(j):
                return sum(a[j - j % 16:j + 1])
            exp += [sum(a[base:base + ws]), scan(i), scan(base + 15) + scan(base + 31)]
        return exp

    def check(outs, wave):
        return cmp_ints('out', outs[0], expected(wave), 'i')
    return Case('wave_reduce', 'wave_reduce', (grid,), (block,),
                [In('i', a), Out(4 * 3 * total)], check)


def case_matmul_lds():
    N = 48
    r = rng_for('matmul_lds')
    A = [float(r.randrange(-8, 9)) for _ in range(N * N)]
    B = [float(r.randrange(-8, 9)) for _ in range(N * N)]
    C = [float(sum(A[i * N + k] * B[k * N + j] for k in range(N)))
         for i in range(N) for j in range(N)]

    def check(outs, wave):
        return cmp_floats('C', outs[0], C, 32)
    return Case('matmul_lds', 'matmul_lds', (N // 16, N // 16), (16, 16),
                [In('f', A), In('f', B), Out(4 * N * N), ('u32', N)], check)


def case_prefix_scan():
    n, block, grid = 500, 128, 4
    r = rng_for('prefix_scan')
    a = [r.randrange(-1000, 1000) for _ in range(n)]
    exp = []
    for i in range(grid * block):
        g0 = i - i % block
        exp.append(sum(a[g0:i + 1]) if i < n else 0)

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('prefix_scan', 'prefix_scan', (grid,), (block,),
                [In('i', a), Out(4 * grid * block), ('u32', n)], check)


def case_grid3d():
    grid, block = (2, 3, 2), (8, 4, 2)
    sx, sy, sz = [g * b for g, b in zip(grid, block)]
    exp = [0] * (3 * sx * sy * sz)
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                lin = (z * sy + y) * sx + x
                exp[3 * lin:3 * lin + 3] = [
                    x | (y << 10) | (z << 20),
                    (x % 8) | ((y % 4) << 10) | ((z % 2) << 20),
                    (x // 8) | ((y // 4) << 10) | ((z // 2) << 20)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')
    return Case('grid3d', 'grid3d', grid, block,
                [Out(4 * len(exp)), ('u32', sx), ('u32', sy)], check)


def case_scratch():
    n, block, grid = 200, 64, 4
    r = rng_for('scratch')
    a = [r.randrange(0, 1 << 32) for _ in range(n)]
    exp = []
    for v in a:
        seed, buf = v, []
        for k in range(96):
            seed = (seed * 1664525 + 1013904223) & M32
            buf.append(seed)
        acc, idx = 0, v % 96
        for k in range(200):
            acc = (acc + (buf[idx] ^ k)) & M32
            j = ((idx * 7 + k) & M32) % 96
            buf[j] = (buf[j] + acc) & M32
            idx = (buf[idx] >> 7) % 96
        exp.append(acc ^ buf[v % 96])

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')
    return Case('scratch', 'scratch', (grid,), (block,),
                [In('I', a), Out(4 * n), ('u32', n)], check)


def case_scratch_f64():
    n, block, grid = 150, 64, 3
    r = rng_for('scratch_f64')
    a = [r.randrange(0, 1 << 32) for _ in range(n)]
    exp = []
    for v in a:
        buf = [float(v % 1000) + 0.25 * k for k in range(40)]
        idx, acc = v % 40, 0.0
        for k in range(64):
            acc += buf[idx]
            buf[(idx + k) % 40] = acc * 0.5
            idx = ((idx * 5 + 3 + (v >> 8)) & M32) % 40
        exp.append(acc)

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 64)
    return Case('scratch_f64', 'scratch_f64', (grid,), (block,),
                [In('I', a), Out(8 * n), ('u32', n)], check)


TRANSCEND_ULPS = (2, 2, 0, 0, 1, 1, 1, 0, 0, 0, 0)
TRANSCEND_ABS = (None, 2.0 ** -21, 2.0 ** -20, 2.0 ** -20) + (None,) * 7


def case_transcend_f32():
    n, block, grid = 400, 128, 4
    r = rng_for('transcend_f32')
    a = [rand_f32(r, -2, 3) for _ in range(n)]
    a[:4] = [1.0, -1.0, 0.5, 100.0]
    exp = []
    for i, x in enumerate(a):
        ax = abs(x)
        t = f32(x * f32(0.01))  # the kernel multiplies by the f32 constant 0.01f
        fr = fpref.round_exact(Fraction(x) - math.floor(x), F32)
        if fr >= 1.0:
            fr = fpref.bits_float(0x3f7fffff, 32)
        m, e = math.frexp(x)
        exp += [f32(2.0 ** f32(x * 0.125)), f32(math.log2(f32(ax + 0.5))),
                f32(math.sin(2 * math.pi * t)), f32(math.cos(2 * math.pi * t)), f32(1.0 / x),
                f32(1.0 / math.sqrt(ax)), _sqrt_exact(ax, F32), fr, math.ldexp(x, i % 11 - 5),
                m, float(e)]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 32, lambda k: TRANSCEND_ULPS[k % 11],
                          lambda k: TRANSCEND_ABS[k % 11])
    return Case('transcend_f32', 'transcend_f32', (grid,), (block,),
                [In('f', a), Out(4 * 11 * n), ('u32', n)], check)


def _bitrev(v, width):
    return int(format(v, '0%db' % width)[::-1], 2)


def _clz(v, width):
    return width - v.bit_length()


def _ctz(v, width):
    return (v & -v).bit_length() - 1 if v else width


def case_bitops():
    n, block, grid = 300, 64, 5
    r = rng_for('bitops')
    a = [0, 1, 0x80000000, M32] + [r.randrange(0, 1 << 32) >> r.randrange(0, 32)
                                  for _ in range(n - 4)]
    b = [r.randrange(0, 1 << 32) for _ in range(n)]
    exp = []
    for x, y in zip(a, b):
        xy = (x << 32) | y
        off, w = y & 31, (y >> 5) & 31
        mask = (1 << w) - 1
        ubfe = (x >> off) & mask
        sx = s32(x)
        sf = (sx >> off) & mask
        sbfe = (sf - (1 << w) if w and sf >> (w - 1) & 1 else sf) & M32
        sel = [y & 0xff, (x >> 8) & 0xff, (y >> 16) & 0xff, x >> 24]
        rot = ((x << off) | (x >> ((32 - off) & 31))) & M32
        exp += [_clz(x, 32), _ctz(x, 32), bin(x).count('1'), _bitrev(x, 32), ubfe, sbfe,
                (x & 0x00ff00f0) | (y & ~0x00ff00f0 & M32), rot,
                sel[0] | sel[1] << 8 | sel[2] << 16 | sel[3] << 24,
                (xy >> off) & M32, _clz(xy, 64), bin(xy ^ ((xy << 3) & M64)).count('1'),
                (_bitrev(xy, 64) >> 16) & M32, (x >> 3) & 0x1f,
                (s32(x << 5) >> 20) & M32, int.from_bytes(x.to_bytes(4, 'little'), 'big')]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')
    c = Case('bitops', 'bitops', (grid,), (block,),
             [In('I', a), In('I', b), Out(4 * 16 * n), ('u32', n)], check)
    c.expected_ints = {'out': (0, 'I', exp)}  # tests/exec/cl_xfail.txt narrows to out[7::16]
    return c


def case_uniform_load():
    n, block, grid = 250, 64, 4
    r = rng_for('uniform_load')
    tab = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(32)]
    k, l, f, d = 3, -123456789012345, 2.375, -1.6875
    t3 = struct.unpack('<q', struct.pack('<ii', tab[8], tab[9]))[0]
    exp = [0] * (grid * block)
    for i in range(n):
        g = i // block
        exp[i] = (tab[k] * tab[k + 3] + tab[(g + k) & 31] + t3 + l + math.trunc(f * 4.0) +
                  math.trunc(d * 8.0) + tab[i & 31])

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'q')
    return Case('uniform_load', 'uniform_load', (grid,), (block,),
                [In('i', tab), Out(8 * grid * block), ('i32', k), ('i64', l), ('f32', f),
                 ('f64', d), ('u32', n)], check)


def case_partial_wave():
    n, block, grid = 250, 100, 3
    r = rng_for('partial_wave')
    a = [r.randrange(-10 ** 5, 10 ** 5) for _ in range(n)]
    exp = [a[i] * 3 + i % block if i < n else 0 for i in range(grid * block)]
    gsum = [sum(a[g * block:min(n, (g + 1) * block)]) for g in range(grid)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i') + cmp_ints('gsum', outs[1], gsum, 'i')
    return Case('partial_wave', 'partial_wave', (grid,), (block,),
                [In('i', a), Out(4 * grid * block), Out(4 * grid), ('u32', n)], check)


def case_fp16_math():
    n, block, grid = 300, 64, 5
    r = rng_for('fp16_math')

    def rh():
        return f16(r.choice((-1, 1)) * r.uniform(0.1, 60))
    a = [rh() for _ in range(n)]
    b = [rh() for _ in range(n)]
    c = [rh() for _ in range(n)]
    exp = []
    for x, y, z in zip(a, b, c):
        # p * q + p may be contracted to an fma or not: either rounding is accepted.
        r0 = (fpref.fma(x, z, x, F16), f16(f16(x * z) + x))
        r1 = (fpref.fma(y, x, y, F16), f16(f16(y * x) + y))
        exp += [f16(x + y), f16(x * y), fpref.fma(x, y, z, F16), f16(x - z), min(x, y),
                max(x, y), r0, r1]

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 16)
    return Case('fp16_math', 'fp16_math', (grid,), (block,),
                [In('e', a), In('e', b), In('e', c), Out(2 * 8 * n), ('u32', n)], check)


def case_int16_sat():
    n, block, grid = 300, 64, 5
    r = rng_for('int16_sat')
    a = [r.randrange(-32768, 32768) for _ in range(n)]
    b = [r.randrange(-32768, 32768) for _ in range(n)]
    c = [_rand_i32(r) for _ in range(n)]
    exp = []
    for x, y, z in zip(a, b, c):
        ux, uy = x & 0xffff, y & 0xffff
        exp += [s16(x + y), s16(x * y), max(-32768, min(32767, x + y)), max(ux - uy, 0),
                min(x, y), max(ux, uy), x >> (y & 15), s8(s8(x) + s8(y)),
                max(-(1 << 31), min((1 << 31) - 1, z + x * 65536)),
                s32(max((z & M32) - uy * 65536, 0))]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('int16_sat', 'int16_sat', (grid,), (block,),
                [In('h', a), In('h', b), In('i', c), Out(4 * 10 * n), ('u32', n)], check)


def case_vec_bytes():
    n, block, grid = 200, 64, 4
    r = rng_for('vec_bytes')
    b8 = [r.randrange(256) for _ in range(4 * n)]
    sh = [r.randrange(-32768, 32768) for _ in range(n)]
    f4 = [rand_f32(r) for _ in range(4 * n)]
    d2 = [rand_f64(r) for _ in range(2 * n)]
    ob8 = [(b8[4 * i] + 3 * b8[4 * i + 1] + 5 * b8[4 * i + 2] + 7 * b8[4 * i + 3]) & 0xff
           for i in range(n)] + [(s8(b8[i]) >> 2) & 0xff for i in range(n)]
    os16 = [s16(sh[i] * 3 - sh[n - 1 - i]) for i in range(n)]
    of4, od2 = [], []
    for i in range(n):
        x, y, z, w = f4[4 * i:4 * i + 4]
        of4 += [w, f32(z + x), f32(y * 2.0), f32(x - w)]
        dx, dy = d2[2 * i:2 * i + 2]
        od2 += [dy * 0.5, dx + dy]

    def check(outs, wave):
        return (cmp_ints('ob8', outs[0], ob8, 'B') + cmp_ints('os16', outs[1], os16, 'h') +
                cmp_floats('of4', outs[2], of4, 32) + cmp_floats('od2', outs[3], od2, 64))
    return Case('vec_bytes', 'vec_bytes', (grid,), (block,),
                [In('B', b8), In('h', sh), In('f', f4), In('d', d2), Out(2 * n), Out(2 * n),
                 Out(16 * n), Out(16 * n), ('u32', n)], check)


def case_dispatch_info():
    grid, block = (3, 2, 2), (4, 2, 2)
    total = 1
    for g, b in zip(grid, block):
        total *= g * b
    rec = [3, block[0], block[1], block[2], grid[0] * block[0], grid[1] * block[1],
           grid[2] * block[2], grid[0], grid[1], grid[2], block[0] | block[1] << 16, 3]
    exp = rec * total

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')
    return Case('dispatch_info', 'dispatch_info', grid, block, [Out(4 * 12 * total)], check)


def case_bitonic_sort():
    grid = 4
    r = rng_for('bitonic_sort')
    a = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(256 * grid)]
    a[:8] = [5, 5, 5, -1, 5, 0, 0, 5]
    exp = []
    for g in range(grid):
        exp += sorted(a[256 * g:256 * (g + 1)])

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('bitonic_sort', 'bitonic_sort', (grid,), (128,), [In('i', a), Out(4 * len(a))],
                check)


def case_stencil2d():
    W, H = 37, 21
    grid, block = (3, 3), (16, 8)
    r = rng_for('stencil2d')
    src = [r.randrange(-128, 128) / 8.0 for _ in range(W * H)]
    exp = []
    for y in range(H):
        for x in range(W):
            xl, xr = max(x - 1, 0), min(x + 1, W - 1)
            yu, yd = max(y - 1, 0), min(y + 1, H - 1)
            s = src[y * W + xl] + src[y * W + xr] + src[yu * W + x] + src[yd * W + x]
            exp.append(src[y * W + x] * 0.5 + s * 0.125)

    def check(outs, wave):
        return cmp_floats('out', outs[0], exp, 32)
    return Case('stencil2d', 'stencil2d', grid, block,
                [In('f', src), Out(4 * W * H), ('u32', W), ('u32', H)], check)


def case_switch_loop():
    n, block, grid = 300, 64, 5
    r = rng_for('switch_loop')
    code = [r.randrange(256) for _ in range(64)]
    a = [_rand_i32(r) for _ in range(n)]
    exp = []
    for v in a:
        acc, pc, steps = v & M32, v & 15, 0
        while steps < 64:
            op = code[pc & 63]
            pc += 1
            k = op & 7
            if k == 0:
                acc = (acc + op) & M32
            elif k == 1:
                acc ^= acc >> 3
            elif k == 2:
                acc = (acc * 3) & M32
            elif k == 3:
                if not acc & 1:
                    acc = (acc - 17) & M32
            elif k == 4:
                pc += acc & 3
            elif k == 5:
                acc = (-acc) & M32 if acc >> 31 else (acc + 1) & M32
            elif k == 6:
                if (acc & 15) == 7:
                    steps = 64
            else:
                acc = ((acc << 1) | (acc >> 31)) & M32
            steps += 1
        exp.append(s32(acc))

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('switch_loop', 'switch_loop', (grid,), (block,),
                [In('B', code), In('i', a), Out(4 * n), ('u32', n)], check)


def case_cas_fmax():
    n, block, grid = 600, 128, 5
    r = rng_for('cas_fmax')
    a = [rand_f32(r, -3, 6) for _ in range(n)]
    init = [-1e30] * 8
    mx = [max([f32(v) for v in init[j:j + 1]] + a[j::8]) for j in range(8)]
    cnt = [len(range(j, n, 4)) * ((1 << 33) + 1) for j in range(4)]

    def check(outs, wave):
        return cmp_floats('mx', outs[0], mx, 32) + cmp_ints('cnt', outs[1], cnt, 'Q')
    return Case('cas_fmax', 'cas_fmax', (grid,), (block,),
                [In('f', a), InOut('f', [f32(v) for v in init]), Out(8 * 4), ('u32', n)],
                check)


def all_cases():
    """Every case, in name order (built on demand: inputs and references take a moment)."""
    return [f() for name, f in sorted(globals().items()) if name.startswith('case_')]


def _min_num(x, y, pick_max=False):
    """IEEE-754 minNum/maxNum: a NaN operand yields the other; +0/-0 may come out either way."""
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == 0 and y == 0 and math.copysign(1, x) != math.copysign(1, y):
        return (x, y)
    return max(x, y) if pick_max else min(x, y)


def _fma_any(x, y, z, fmt):
    if all(math.isfinite(v) for v in (x, y, z)):
        return fpref.fma(x, y, z, fmt)
    return x * y + z


def case_fp_special():
    block, grid = 64, 4
    n = block * grid
    nan_bits = (0x7fc00000, 0xffc00000)
    specials = [0.0, -0.0, math.inf, -math.inf] + [fpref.bits_float(b, 32) for b in nan_bits] + \
        [f32(1e-40), f32(-3e-39), 2.0 ** -126, fpref.bits_float(0x7f7fffff, 32), 1.0, -2.5,
         2.0 ** -149, f32(3.0e38)]
    a = [x for x in specials for _ in specials]
    b = [y for _ in specials for y in specials]
    r = rng_for('fp_special')
    while len(a) < n:
        a.append(rand_f32(r, -40, 38))
        b.append(rand_f32(r, -40, 38))
    of, od, oi = [], [], []
    for x, y in zip(a, b):
        of += [f32(x + y), f32(x * y), _min_num(x, y), _min_num(x, y, True),
               f32(x * 2.0 ** -100), f32(_fma_any(x, y, 2.0 ** -140, F32))]
        dx, dy = x * 2.0 ** -1000, y
        unfused = dx + dy * 2.0 ** -1030
        fused = _fma_any(dy, 2.0 ** -1030, dx, F64)
        # dx + dy * 2^-1030 may be contracted to an fma (which can differ, even in the sign
        # of an underflowed zero): either rounding is accepted.
        same = fpref.float_bits(unfused, 64) == fpref.float_bits(fused, 64)
        od += [unfused if same or math.isnan(fused) else (unfused, fused), dx * dy,
               _min_num(dx, dy), _fma_any(dx, dy, -dx, F64)]
        nan, sign = math.isnan(x), math.copysign(1.0, x) < 0
        normal = math.isfinite(x) and abs(x) >= 2.0 ** -126
        oi.append(nan | math.isinf(x) << 1 | math.isfinite(x) << 2 | (x < y) << 3 |
                  (x >= y) << 4 | (x != y) << 5 | sign << 6 | normal << 7 | (x == y) << 8 |
                  (nan or math.isnan(y)) << 9)
        oi.append(math.isnan(dx) | math.isinf(dx) << 1 |
                  (math.isfinite(dx) and abs(dx) >= 2.0 ** -1022) << 2 | (dx <= dy) << 3 |
                  (math.copysign(1.0, dx) < 0) << 4)

    def check(outs, wave):
        return (cmp_floats('of', outs[0], of, 32) + cmp_floats('od', outs[1], od, 64) +
                cmp_ints('oi', outs[2], oi, 'I'))
    return Case('fp_special', 'fp_special', (grid,), (block,),
                [In('f', a), In('f', b), Out(4 * 6 * n), Out(8 * 4 * n), Out(8 * n), ('u32', n)],
                check)


def case_calls():
    n, block, grid = 200, 64, 4
    r = rng_for('calls')
    a = [r.randrange(0, 1 << 32) for _ in range(n)]
    exp, fexp = [], []
    for v in a:
        seed, buf = v, []
        for k in range(24):
            seed = (seed * 747796405 + 2891336453) & M32
            buf.append(seed >> 5)
        acc = 0
        for k in range(0, 19, 3):
            p, q, s_, t, u, w = buf[k:k + 6]
            acc += ((p * 31 + q) ^ (s_ * 17 + t) ^ (u << 3) ^ (w >> 2)) & M32
        exp.append((acc & M32) ^ buf[v % 24])
        x, res = (v & 7) * 0.5, 0.0
        for k in range(v % 5, -1, -1):
            res = res * x + (k + 1)
        fexp.append(res)

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I') + cmp_floats('fout', outs[1], fexp, 32)
    return Case('calls', 'calls', (grid,), (block,),
                [In('I', a), Out(4 * n), Out(4 * n), ('u32', n)], check)


def case_dyn_lds():
    n, block, grid = 300, 128, 3
    r = rng_for('dyn_lds')
    a = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(n)]
    exp = []
    for i in range(grid * block):
        g, t = divmod(i, block)
        j = g * block + block - 1 - t
        exp.append((a[j] if j < n else -1) + (t & 63) * 3 if i < n else 0)

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('dyn_lds', 'dyn_lds', (grid,), (block,),
                [In('i', a), Out(4 * grid * block), ('lds', 4 * block), ('u32', n)], check)


def case_lds_narrow():
    block, grid = 128, 3
    r = rng_for('lds_narrow')
    a = [_rand_i32(r) for _ in range(block * grid)]
    out, out64 = [], []
    for g in range(grid):
        v = a[g * block:(g + 1) * block]
        b8 = [x & 0xff for x in v]
        sh = [s16(x >> 8) for x in v]
        for t in range(block):
            o = 127 - t
            out.append(b8[o] + s8(b8[(t + 1) & 127]) + sh[o] + (sh[(t + 5) & 127] & 0xffff))
        out64 += [s64(sum(x * 4099 for x in v)), max(x * 65536 for x in v),
                  sum((x & 0xff) + (1 << 32) for x in v)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], out, 'i') + cmp_ints('out64', outs[1], out64, 'q')
    return Case('lds_narrow', 'lds_narrow', (grid,), (block,),
                [In('i', a), Out(4 * block * grid), Out(8 * 3 * grid)], check)


def case_big_block():
    block, grid = 1024, 2
    r = rng_for('big_block')
    a = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(block * grid)]
    exp = []
    for g in range(grid):
        v = a[g * block:(g + 1) * block]
        s = [sum(v[(t + k * 97) & 1023] for k in range(16)) for t in range(block)]
        buf = [s[1023 - t] for t in range(block)]
        exp += [buf[t] - buf[(t + 512) & 1023] for t in range(block)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'i')
    return Case('big_block', 'big_block', (grid,), (block,), [In('i', a), Out(4 * block * grid)],
                check)
