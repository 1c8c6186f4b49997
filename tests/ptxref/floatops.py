"""Floating-point instructions of the reference interpreter (f64, f32, f16, bf16 and the packed
x2 forms): compiles each instruction to a per-lane function over bit patterns, using
floatarith.py for the arithmetic.  Integer forms of the shared mnemonics go to intops.py.

Approximate instructions (sin/cos/ex2/lg2/rsqrt/tanh/*.approx, div.full) are computed with
Python's math library and rounded to nearest: they are not bit-exact models of the hardware
and the hardware comparison judges them with a tolerance (APPROX below names them)."""

from fractions import Fraction
import functools
import math

import floatarith as fa
import floatcore as fc
import intops
from intops import setp_tail
from ops_common import UB, mask, sext, types_of
from ptxparse import TYPE_BITS

FLOAT_TYPES = ('f16', 'bf16', 'f32', 'f64', 'f16x2', 'bf16x2')
MODES = ('rn', 'rz', 'rm', 'rp', 'rna')
IMODES = ('rni', 'rzi', 'rmi', 'rpi')


def _fty(ins):
    tys = types_of(ins.mods)
    return tys[-1] if tys else None


def _mode(ins, default='rn'):
    ms = [m for m in ins.mods if m in MODES]
    return ms[0] if ms else default


def _packed(ty):
    return ty in ('f16x2', 'bf16x2')


def _elem(ty):
    return {'f16x2': 'f16', 'bf16x2': 'bf16'}.get(ty, ty)


def _lanewise(ins, ctx, ty, n, fn):
    """d = fn(a, b, ...) per element (twice for packed x2 types)."""
    gs = [ctx.get(a, ty) for a in ins.args[1:1 + n]]
    s = ctx.set(ins.args[0], ty)
    if _packed(ty):
        def f(t):
            vs = [g(t) for g in gs]
            lo = fn(*[v & 0xffff for v in vs])
            hi = fn(*[v >> 16 for v in vs])
            s(t, lo | hi << 16)
        return 'lane', f
    if n == 1:
        g0 = gs[0]
        return 'lane', lambda t: s(t, fn(g0(t)))
    if n == 2:
        g0, g1 = gs
        return 'lane', lambda t: s(t, fn(g0(t), g1(t)))
    g0, g1, g2 = gs
    return 'lane', lambda t: s(t, fn(g0(t), g1(t), g2(t)))


def _relu(fmt, v):
    if fc.is_nan(v, fmt):
        return fc.CANON_NAN[fmt]
    return 0 if v >> (fc.FORMATS[fmt][2] - 1) else v


def _dispatch(int_comp, float_comp):
    def comp(ins, ctx):
        ty = _fty(ins)
        if ty in FLOAT_TYPES:
            return float_comp(ins, ctx, ty)
        return int_comp(ins, ctx)
    return comp


def _f64_nan_order(ins, ctx, n, fn, latest):
    """f64 operations with two or more NaN operands return one of them made quiet.  Which one,
    on the H100: for add/sub/mul/fma an immediate NaN, else the operand whose register was
    written last (its choice follows the operand order NVIDIA's ptxas gives the instruction:
    1,226 of the 1,292 lanes of add/sub/mul with two NaNs, both loaded or both computed, that
    return one of them quieted, and the computed one of a loaded and a computed NaN in 1,019
    of 1,040),
    for div the first operand (264 of 264).  A rule read off the data, hardware check only."""
    gs = [ctx.get(a, 'f64') for a in ins.args[1:1 + n]]
    names = [a[1] if a[0] == 'reg' else None for a in ins.args[1:1 + n]]
    s = ctx.set(ins.args[0], 'f64')

    def f(t):
        vs = [g(t) for g in gs]
        nans = [i for i, v in enumerate(vs) if fc.is_nan(v, 'f64')]
        if len(nans) < 2:
            return s(t, fn(*vs))
        if latest:
            when = t.r.when
            i = max(nans, key=lambda j: (when.get(names[j], -1) if names[j] else 1 << 60, -j))
        else:
            i = nans[0]
        return s(t, vs[i] | 1 << 51)
    return 'lane', f


def f_addsubmul(ins, ctx, ty):
    fmt, mode, ftz, sat = _elem(ty), _mode(ins), 'ftz' in ins.mods, 'sat' in ins.mods
    relu = 'relu' in ins.mods
    if ins.op == 'mul':
        fn = lambda a, b: fa.mul(fmt, a, b, mode, ftz, sat)  # noqa: E731
    else:
        neg = ins.op == 'sub'
        fn = lambda a, b: fa.add(fmt, a, b, mode, ftz, sat, neg)  # noqa: E731
    if relu:
        base = fn
        fn = lambda a, b: _relu(fmt, base(a, b))  # noqa: E731
    if fmt == 'f64' and not ctx.ck.strict:
        return _f64_nan_order(ins, ctx, 2, fn, True)
    return _lanewise(ins, ctx, ty, 2, fn)


def f_fma(ins, ctx, ty):
    fmt, mode, ftz, sat = _elem(ty), _mode(ins), 'ftz' in ins.mods, 'sat' in ins.mods
    relu = 'relu' in ins.mods

    def fn(a, b, c):
        r = fa.fma(fmt, a, b, c, mode, ftz, sat)
        return _relu(fmt, r) if relu else r
    if fmt == 'f64' and not ctx.ck.strict:
        return _f64_nan_order(ins, ctx, 3, fn, True)
    return _lanewise(ins, ctx, ty, 3, fn)


def f_div(ins, ctx, ty):
    fmt, mode, ftz = _elem(ty), _mode(ins), 'ftz' in ins.mods
    if fmt == 'f64' and not ctx.ck.strict:
        return _f64_nan_order(ins, ctx, 2, lambda a, b: fa.div(fmt, a, b, mode, ftz), False)
    return _lanewise(ins, ctx, ty, 2, lambda a, b: fa.div(fmt, a, b, mode, ftz))


def f_minmax(ins, ctx, ty):
    fmt, ftz, nan = _elem(ty), 'ftz' in ins.mods, 'NaN' in ins.mods
    is_max = ins.op == 'max'
    return _lanewise(ins, ctx, ty, 2, lambda a, b: fa.minmax(fmt, a, b, is_max, ftz, nan))


def f_absneg(ins, ctx, ty):
    fmt, ftz = _elem(ty), 'ftz' in ins.mods
    tb = fc.FORMATS[fmt][2]
    sb = 1 << (tb - 1)

    def fn(a):
        if ftz and fc.is_subnormal(a, fmt):
            a &= sb
        if fc.is_nan(a, fmt):  # hardware: an f64 NaN keeps its sign and payload, made quiet
            return a | 1 << 51 if fmt == 'f64' else fc.CANON_NAN[fmt]
        return (a & (sb - 1)) if ins.op == 'abs' else a ^ sb
    return _lanewise(ins, ctx, ty, 1, fn)


def f_copysign(ins, ctx, ty):
    fmt = _elem(ty)
    sb = 1 << (fc.FORMATS[fmt][2] - 1)
    return _lanewise(ins, ctx, ty, 2, lambda a, b: (b & (sb - 1)) | (a & sb))


def f_sqrt_rcp(ins, ctx, ty):
    fmt, ftz = _elem(ty), 'ftz' in ins.mods
    if 'approx' in ins.mods:
        return f_approx(ins, ctx, ty)
    mode = _mode(ins)
    if ins.op == 'sqrt':
        return _lanewise(ins, ctx, ty, 1, lambda a: fa.sqrt(fmt, a, mode, ftz))
    return _lanewise(ins, ctx, ty, 1, lambda a: fa.rcp(fmt, a, mode, ftz))


def _approx_fn(op, x):
    if op == 'sin':
        return math.sin(x)
    if op == 'cos':
        return math.cos(x)
    if op == 'ex2':
        return 2.0 ** x
    if op == 'lg2':
        return math.log2(x) if x > 0 else (-math.inf if x == 0 else math.nan)
    if op == 'rsqrt':
        return 1 / math.sqrt(x) if x > 0 else (math.inf if x == 0 else math.nan)
    if op == 'rcp':
        return 1 / x if x else math.inf
    if op == 'sqrt':
        return math.sqrt(x) if x >= 0 else math.nan
    if op == 'tanh':
        return math.tanh(x)
    raise UB(op)


def _hiword_approx(op, a):
    """rcp/rsqrt.approx.ftz.f64 as the ISA defines them: from a's high word only (a subnormal
    one is a zero of its sign), the result's low word zero (the exact value truncated, what the
    H100 returns for most operands), a NaN giving 0x7fffffff00000000."""
    d = fc.decode(a & 0xffffffff00000000, 'f64', True)
    if d.kind == 'nan' or (op == 'rsqrt' and d.sign and not (d.kind == 'num' and d.q == 0)):
        return 0x7fffffff00000000
    if d.kind == 'num' and d.q == 0:
        return fc.inf('f64', d.sign)
    if d.kind == 'inf':
        return fc.zero('f64', d.sign)
    if op == 'rcp':
        r = fc.round_to(d.sign, 1 / d.q, 'f64', 'rz', True)
    else:
        r = fc.round_to(0, Fraction(1) / Fraction(fc.sqrt_exact(d.q, 'f64')), 'f64', 'rz', True)
    return r & 0xffffffff00000000


def f_approx(ins, ctx, ty):
    """Approximate forms: the exact function rounded to nearest (not a hardware model)."""
    fmt, ftz = _elem(ty), 'ftz' in ins.mods
    op = ins.op
    if fmt == 'f64' and ftz and op in ('rcp', 'rsqrt'):
        return _lanewise(ins, ctx, ty, 1, lambda a: _hiword_approx(op, a))

    def fn(a):
        d = fc.decode(a, fmt, ftz)
        if d.kind == 'nan':
            return fc.CANON_NAN[fmt]
        x = math.inf if d.kind == 'inf' else float(d.q)
        if d.sign:
            x = -x
        if d.kind == 'num' and d.q == 0:
            x = -0.0 if d.sign else 0.0
            if op in ('rcp', 'rsqrt'):
                return fc.inf(fmt, d.sign)
        try:
            if op in ('sin', 'cos') and math.isinf(x):
                return fc.CANON_NAN[fmt]
            r = _approx_fn(op, x)
        except OverflowError:
            r = math.inf
        if math.isnan(r):
            return fc.CANON_NAN[fmt]
        if math.isinf(r):
            return fc.inf(fmt, 1 if r < 0 else 0)
        zs = 1 if math.copysign(1.0, r) < 0 else 0
        return fc.round_value(Fraction(r), fmt, 'rn', ftz, zs)
    return _lanewise(ins, ctx, ty, 1, fn)


def f_div_approx(ins, ctx, ty):
    if 'approx' in ins.mods and ty == 'f32':
        ftz = 'ftz' in ins.mods

        def huge_divisor(a, b):
            """The ISA: for 2^126 < |b| < 2^128, a sign-preserving zero (NaN for an infinite or
            NaN a), as the H100 returns."""
            x, y = fc.decode(a, 'f32', ftz), fc.decode(b, 'f32', ftz)
            if y.kind == 'num' and y.q > Fraction(2) ** 126:
                if x.kind != 'num':
                    return fc.CANON_NAN['f32']
                return fc.zero('f32', x.sign ^ y.sign)
            return fa.div('f32', a, b, 'rn', ftz)
        return _lanewise(ins, ctx, ty, 2, huge_divisor)
    if 'approx' in ins.mods or 'full' in ins.mods:
        fmt, ftz = _elem(ty), 'ftz' in ins.mods
        return _lanewise(ins, ctx, ty, 2, lambda a, b: fa.div(fmt, a, b, 'rn', ftz))
    return f_div(ins, ctx, ty)


def f_testp(ins, ctx):
    ty = _fty(ins)
    fmt = ty
    kind = [m for m in ins.mods if m in ('finite', 'infinite', 'number', 'notanumber', 'normal',
                                         'subnormal')][0]
    g = ctx.get(ins.args[1], ty)
    s = ctx.set(ins.args[0], 'pred')
    eb, mb, tb = fc.FORMATS[fmt]

    def fn(a):
        e = a >> mb & ((1 << eb) - 1)
        m = a & ((1 << mb) - 1)
        nan = e == (1 << eb) - 1 and m
        infv = e == (1 << eb) - 1 and not m
        return {'finite': not nan and not infv, 'infinite': infv, 'number': not nan,
                'notanumber': nan,
                # hardware: zero counts as normal
                'normal': 0 < e < (1 << eb) - 1 or (e == 0 and m == 0),
                'subnormal': e == 0 and m != 0}[kind]
    return 'lane', lambda t: s(t, 1 if fn(g(t)) else 0)


def _fcmp(cmp, x, y):
    """Float comparison of decoded values; unordered forms are true when either is NaN."""
    unordered = x.kind == 'nan' or y.kind == 'nan'
    if cmp == 'num':
        return not unordered
    if cmp == 'nan':
        return unordered
    if unordered:
        return cmp.endswith('u')
    base = cmp[:-1] if cmp.endswith('u') and cmp != 'u' else cmp

    def val(d):
        if d.kind == 'inf':
            return Fraction(-1 if d.sign else 1) * Fraction(10) ** 400
        return d.value()
    a, b = val(x), val(y)
    return {'eq': a == b, 'ne': a != b, 'lt': a < b, 'le': a <= b, 'gt': a > b,
            'ge': a >= b}[base]


FCMPS = ('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num',
         'nan')


def c_setp_float(ins, ctx):
    ty = _fty(ins)
    fmt, ftz = _elem(ty), 'ftz' in ins.mods
    cmp = [m for m in ins.mods if m in FCMPS][0]
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    if _packed(ty):
        d = ins.args[0]
        if d[0] != 'pipe':
            raise UB('%s: setp.f16x2 needs p|q' % ins.line)
        combine = [m for m in ins.mods if m in intops.BOOL]
        sp, sq = ctx.set(d[1], 'pred'), ctx.set(d[2], 'pred')
        gc = ctx.get(ins.args[3], 'pred') if combine else None
        op = intops.BOOL[combine[0]] if combine else None

        def f(t):
            a, b = ga(t), gb(t)
            lo = 1 if _fcmp(cmp, fc.decode(a & 0xffff, fmt, ftz), fc.decode(b & 0xffff, fmt, ftz)) else 0
            hi = 1 if _fcmp(cmp, fc.decode(a >> 16, fmt, ftz), fc.decode(b >> 16, fmt, ftz)) else 0
            if op:
                c = gc(t)
                lo, hi = op(lo, c), op(hi, c)
            sp(t, lo)
            sq(t, hi)
        return 'lane', f
    return setp_tail(ins, ctx, lambda t: 1 if _fcmp(cmp, fc.decode(ga(t), fmt, ftz),
                                                     fc.decode(gb(t), fmt, ftz)) else 0)


def _to_int(v, dty, mode, sat_always=True):
    """Exact value -> integer of dty, rounded by mode, saturated (PTX: float-to-int cvt always
    saturates; NaN -> 0)."""
    w = TYPE_BITS[dty]
    r = fa.round_int(v, mode)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if dty[0] == 's' else (0, mask(w))
    return min(max(r, lo), hi) & mask(w)


# fp8 (PTX ISA "Alternate floating point data formats"): e4m3 has no infinity and one NaN
# code per sign (S.1111.111, largest finite 448); e5m2 is IEEE-like (largest finite 57344).
FP8 = {'e4m3x2': (4, 3, False), 'e5m2x2': (5, 2, True)}


@functools.lru_cache(maxsize=None)
def _fp8_values(ty):
    """{code: exact value or None (NaN) or 'inf'} for the 256 codes of an fp8 format"""
    eb, mb, ieee = FP8[ty]
    bias, out = (1 << (eb - 1)) - 1, {}
    for c in range(256):
        s, e, m = c >> 7, c >> mb & ((1 << eb) - 1), c & ((1 << mb) - 1)
        if e == (1 << eb) - 1 and (ieee or m == (1 << mb) - 1):
            out[c] = 'inf' if ieee and m == 0 else None
            continue
        q = Fraction(m if e == 0 else m | 1 << mb, 1 << mb) * Fraction(2) ** (max(e, 1) - bias)
        out[c] = -q if s else q
    return out


def _to_fp8(ty, a, sty, relu):
    """cvt.rn.satfinite{.relu}.f8x2type: nearest finite code, ties to the even code, beyond
    the largest finite (and infinity) the largest finite of that sign; NaN -> 0x7f (what
    NVIDIA's cuda_fp8.hpp emulation gives); .relu: negative (and -0) -> +0"""
    d = fc.decode(a, sty)
    if d.kind == 'nan':
        return 0x7f
    table = _fp8_values(ty)
    top = max(c for c in range(128) if isinstance(table[c], Fraction))
    if d.kind == 'inf' or d.q >= table[top]:
        c = top
    else:
        best = None
        for c2 in range(128):
            v = table[c2]
            if not isinstance(v, Fraction):
                continue
            key = (abs(v - d.q), c2 & 1)
            if best is None or key < best[0]:
                best = (key, c2)
        c = best[1]
    if relu and d.sign:
        return 0
    return c | d.sign << 7


def _from_fp8(ty, c, relu):
    """cvt.rn{.relu}.f16x2.f8x2type: exact; NaN -> 0x7fff; .relu: negative -> +0"""
    v = _fp8_values(ty)[c]
    if v is None:
        return 0x7fff
    if v == 'inf':
        return 0 if relu and c >> 7 else fc.inf('f16', c >> 7)
    if relu and c >> 7:
        return 0
    return fc.round_value(v, 'f16', zero_sign=c >> 7)


def c_cvt_fp8(ins, ctx, dty, sty):
    relu = 'relu' in ins.mods
    if dty in FP8:
        if 'satfinite' not in ins.mods or 'rn' not in ins.mods:
            raise UB('%s: fp8 conversions need .rn.satfinite' % ins.line)
        s = ctx.set(ins.args[0], 'b16')
        if sty == 'f32':  # a -> upper byte, b -> lower byte
            ga, gb = ctx.get(ins.args[1], 'f32'), ctx.get(ins.args[2], 'f32')
            return 'lane', lambda t: s(t, _to_fp8(dty, ga(t), 'f32', relu) << 8 |
                                       _to_fp8(dty, gb(t), 'f32', relu))
        g = ctx.get(ins.args[1], 'f16x2')  # upper half -> upper byte
        return 'lane', lambda t: s(t, _to_fp8(dty, g(t) >> 16, 'f16', relu) << 8 |
                                   _to_fp8(dty, g(t) & 0xffff, 'f16', relu))
    s = ctx.set(ins.args[0], 'f16x2')
    g = ctx.get(ins.args[1], 'b16')
    return 'lane', lambda t: s(t, _from_fp8(sty, g(t) >> 8 & 0xff, relu) << 16 |
                               _from_fp8(sty, g(t) & 0xff, relu))


def c_cvt(ins, ctx):
    tys = types_of(ins.mods)
    dty, sty = tys[0], tys[1]
    if dty in FP8 or sty in FP8:
        return c_cvt_fp8(ins, ctx, dty, sty)
    if dty not in FLOAT_TYPES + ('tf32',) and sty not in FLOAT_TYPES:
        return intops.cvt_int(ins, ctx, dty, sty)
    ftz, sat, relu = 'ftz' in ins.mods, 'sat' in ins.mods, 'relu' in ins.mods
    satf = 'satfinite' in ins.mods
    fmode = [m for m in ins.mods if m in MODES]
    imode = [m for m in ins.mods if m in IMODES]
    s = ctx.set(ins.args[0], dty, signed=dty[0] == 's')
    if _packed(dty):  # cvt.rn.f16x2.f32 d, a, b: a -> upper half, b -> lower half
        fmt = _elem(dty)
        ga, gb = ctx.get(ins.args[1], sty), ctx.get(ins.args[2], sty)
        one = _float_to_float(sty, fmt, fmode[0] if fmode else 'rn', ftz, sat, relu, satf)
        return 'lane', lambda t: s(t, one(gb(t)) | one(ga(t)) << 16)
    g = ctx.get(ins.args[1], sty)
    if sty in FLOAT_TYPES and dty in FLOAT_TYPES + ('tf32',):
        if imode:
            if dty != sty:
                raise UB('%s: integer rounding between different float types' % ins.line)
            m = imode[0]
            return 'lane', lambda t: s(t, fa.finish(fa.round_to_integral(sty, g(t), m, ftz),
                                                    sty, sat))
        fn = _float_to_float(sty, dty, fmode[0] if fmode else 'rn', ftz, sat, relu, satf)
        return 'lane', lambda t: s(t, fn(g(t)))
    if sty in FLOAT_TYPES:  # float -> int
        m = imode[0] if imode else 'rzi'

        def f(t):
            d = fc.decode(g(t), sty, ftz)
            if d.kind == 'nan':
                # hardware: the top bit of the result for a 64-bit result or an f64 source,
                # else 0
                w = TYPE_BITS[dty]
                return s(t, 1 << (w - 1) if w == 64 or sty == 'f64' else 0)
            if d.kind == 'inf':
                w = TYPE_BITS[dty]
                if dty[0] == 's':
                    return s(t, ((1 << (w - 1)) if d.sign else (1 << (w - 1)) - 1) & mask(w))
                return s(t, 0 if d.sign else mask(w))
            s(t, _to_int(d.value(), dty, m))
        return 'lane', f
    # int -> float
    sw = TYPE_BITS[sty]
    mode = fmode[0] if fmode else 'rn'

    def g2(t):
        v = g(t)
        if sty[0] == 's':
            v = sext(v, sw)
        r = fc.round_value(Fraction(v), dty, mode, ftz)
        s(t, fa.finish(r, dty, sat))
    return 'lane', g2


def _nan_convert(a, sty, dty, ftz):
    """NaN through a float-to-float cvt, as the hardware does: sign and the top payload bits
    kept, made quiet; but f32 to f16/bf16, f16 <-> bf16 and f16/bf16 to themselves give the
    canonical NaN, bf16 to f32 keeps the bits (.ftz: canonical), and .ftz widening converts
    the canonical NaN."""
    seb, smb, stb = fc.FORMATS[sty]
    deb, dmb, dtb = fc.FORMATS[dty]
    if (sty == 'f32' and dty in ('f16', 'bf16')) or (sty == 'f16' and dty == 'f32') or \
            {sty, dty} == {'f16', 'bf16'} or (sty == dty and sty in ('f16', 'bf16')):
        return fc.CANON_NAN[dty]  # (f16/bf16 among themselves: the H100, tests/exec conv2)
    if sty == 'bf16' and dty == 'f32':  # its upper half, unquieted; .ftz: canonical
        return fc.CANON_NAN['f32'] if ftz else a << 16
    if ftz and sty in ('f32', 'f16') and dty in ('f64', 'f32'):
        a = fc.CANON_NAN[sty]
    sign = a >> (stb - 1) & 1
    pay = a & ((1 << smb) - 1)
    pay = pay << (dmb - smb) if dmb >= smb else pay >> (smb - dmb)
    return (sign << (dtb - 1)) | (((1 << deb) - 1) << dmb) | pay | (1 << (dmb - 1))


def _to_tf32(a, mode, relu=False, satfinite=False):
    """cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: an f32 rounded to 10 fraction bits, kept
    in the f32 layout; .relu: negative -> +0.  As the H100 does: .rn/.rz give 0x7fffe000 for
    a NaN; .rna truncates it; .satfinite steps a result with an all-ones exponent down by one
    unit of bit 13 (infinity -> the largest finite; a truncated NaN too)."""
    d = fc.decode(a, 'f32')
    if d.kind == 'nan' and mode != 'rna':
        return 0x7fffe000
    if d.kind == 'nan':
        r = a & 0xffffe000  # the payload's low 13 bits dropped
    elif relu and d.sign:
        return 0
    elif d.kind == 'inf' or d.q == 0:
        r = a
    else:
        r = fc.round_to(d.sign, d.q, 'tf32', mode)
        sign, e, m = d.sign, (r >> 10) & 0xff, r & 0x3ff
        r = (sign << 31) | 0x7f800000 if e == 0xff else (sign << 31) | (e << 23) | (m << 13)
    if satfinite and r & 0x7f800000 == 0x7f800000:
        r -= 0x2000
    return r


def _float_to_float(sty, dty, mode, ftz, sat, relu, satfinite=False):
    """ftz: applies to f32 sources and results only; the hardware ignores it for cvt to f16
    (a subnormal f32 rounds to an f16 subnormal under cvt.rp.ftz.f16.f32)."""
    ftz_in = ftz and (sty == 'f32' and dty != 'f16' or sty == 'bf16')
    ftz_out = ftz and dty == 'f32'
    if dty == 'tf32':
        return lambda a: _to_tf32(a, mode, relu, satfinite)

    def fn(a):
        d = fc.decode(a, sty, ftz_in)
        if d.kind == 'nan':
            return 0 if sat else _nan_convert(a, sty, dty, ftz)
        if d.kind == 'inf':
            r = fc.inf(dty, d.sign)
        else:
            r = fc.round_to(d.sign, d.q, dty, mode, ftz_out, tiny_after=True) if d.q else \
                fc.zero(dty, d.sign)
        if satfinite and (r & ~(1 << (fc.FORMATS[dty][2] - 1))) == fc.inf(dty, 0):
            r = fc.max_finite(dty, d.sign)
        if relu:
            r = _relu(dty, r)
        return fa.finish(r, dty, sat)
    return fn


def f_sin_etc(ins, ctx):
    return f_approx(ins, ctx, _fty(ins))


OPS = {
    'add': _dispatch(intops.c_add_sub, f_addsubmul),
    'sub': _dispatch(intops.c_add_sub, f_addsubmul),
    'mul': _dispatch(intops.c_mul, f_addsubmul),
    'mad': _dispatch(intops.c_mul, f_fma),
    'fma': _dispatch(None, f_fma),
    'div': _dispatch(intops.c_divrem, f_div_approx),
    'min': _dispatch(intops.c_minmax, f_minmax),
    'max': _dispatch(intops.c_minmax, f_minmax),
    'abs': _dispatch(intops.c_abs_neg, f_absneg),
    'neg': _dispatch(intops.c_abs_neg, f_absneg),
    'copysign': _dispatch(None, f_copysign),
    'sqrt': _dispatch(None, f_sqrt_rcp),
    'rcp': _dispatch(None, f_sqrt_rcp),
    'rsqrt': f_sin_etc, 'sin': f_sin_etc, 'cos': f_sin_etc, 'ex2': f_sin_etc, 'lg2': f_sin_etc,
    'tanh': f_sin_etc,
    'testp': f_testp,
    'cvt': c_cvt,
}
APPROX = ('rsqrt', 'sin', 'cos', 'ex2', 'lg2', 'tanh')
