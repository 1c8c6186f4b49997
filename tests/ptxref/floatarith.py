"""Floating-point arithmetic on bit patterns for the reference interpreter: add, sub, mul, fma,
div, sqrt, rcp, min/max, with IEEE special cases, exact zero signs, .ftz and .sat.  One exact
evaluation (floatcore's Fractions) then one rounding.

NaN results: see nan_result.
"""

from fractions import Fraction

import floatcore as fc
from floatcore import FORMATS

F64_NAN = 0xfff8000000000000


def nan_result(fmt, ops):
    """NaN result of an arithmetic op, as the hardware computes it: f32/f16/bf16 give the
    canonical NaN; f64 gives the last NaN operand made quiet, or 0xfff8000000000000 for a NaN
    the operation creates (inf - inf, 0 * inf, sqrt(-1), 0 / 0)."""
    if fmt == 'f64':
        for o in reversed(ops):
            if o.kind == 'nan':
                return o.bits | (1 << 51)
        return F64_NAN
    return fc.CANON_NAN[fmt]


def finish(bits, fmt, sat):
    """.sat: clamp to [+0, 1.0]; NaN -> +0."""
    if not sat:
        return bits
    d = fc.decode(bits, fmt)
    if d.kind == 'nan':
        return 0
    if d.sign:
        return 0
    if d.kind == 'inf' or d.q > 1:
        return fc.round_to(0, Fraction(1), fmt)
    return bits


def _sum(fmt, mode, ftz, x_sign, x_q, y):
    """x (given as sign, exact magnitude, both finite) + y (decoded finite)."""
    v = (-x_q if x_sign else x_q) + y.value()
    if v == 0:
        if x_q == 0 and y.q == 0:
            zs = (x_sign & y.sign) if mode != 'rm' else (x_sign | y.sign)
        else:
            zs = 1 if mode == 'rm' else 0
        return fc.zero(fmt, zs)
    return fc.round_to(1 if v < 0 else 0, abs(v), fmt, mode, ftz, tiny_unbounded=fmt == 'f32')


def add(fmt, a, b, mode='rn', ftz=False, sat=False, negate_b=False):
    x, y = fc.decode(a, fmt, ftz), fc.decode(b, fmt, ftz)
    if negate_b and y.kind != 'nan':
        y.sign ^= 1
    if x.kind == 'nan' or y.kind == 'nan':
        return finish(nan_result(fmt, [x, y]), fmt, sat)
    if x.kind == 'inf' or y.kind == 'inf':
        if x.kind == 'inf' and y.kind == 'inf' and x.sign != y.sign:
            return finish(nan_result(fmt, []), fmt, sat)
        return finish(fc.inf(fmt, x.sign if x.kind == 'inf' else y.sign), fmt, sat)
    return finish(_sum(fmt, mode, ftz, x.sign, x.q, y), fmt, sat)


def mul(fmt, a, b, mode='rn', ftz=False, sat=False):
    x, y = fc.decode(a, fmt, ftz), fc.decode(b, fmt, ftz)
    if x.kind == 'nan' or y.kind == 'nan':
        return finish(nan_result(fmt, [x, y]), fmt, sat)
    s = x.sign ^ y.sign
    if x.kind == 'inf' or y.kind == 'inf':
        if (x.kind == 'num' and x.q == 0) or (y.kind == 'num' and y.q == 0):
            return finish(nan_result(fmt, []), fmt, sat)
        return finish(fc.inf(fmt, s), fmt, sat)
    return finish(fc.round_to(s, x.q * y.q, fmt, mode, ftz, tiny_unbounded=fmt == 'f32'), fmt,
                  sat)


def fma(fmt, a, b, c, mode='rn', ftz=False, sat=False):
    x, y, z = (fc.decode(v, fmt, ftz) for v in (a, b, c))
    if x.kind == 'nan' or y.kind == 'nan' or z.kind == 'nan':
        return finish(nan_result(fmt, [x, y, z]), fmt, sat)
    ps = x.sign ^ y.sign
    if x.kind == 'inf' or y.kind == 'inf':
        if (x.kind == 'num' and x.q == 0) or (y.kind == 'num' and y.q == 0):
            return finish(nan_result(fmt, []), fmt, sat)
        if z.kind == 'inf' and z.sign != ps:
            return finish(nan_result(fmt, []), fmt, sat)
        return finish(fc.inf(fmt, ps), fmt, sat)
    if z.kind == 'inf':
        return finish(fc.inf(fmt, z.sign), fmt, sat)
    return finish(_sum(fmt, mode, ftz, ps, x.q * y.q, z), fmt, sat)


def div(fmt, a, b, mode='rn', ftz=False, sat=False):
    x, y = fc.decode(a, fmt, ftz), fc.decode(b, fmt, ftz)
    if x.kind == 'nan' or y.kind == 'nan':
        return finish(nan_result(fmt, [x, y]), fmt, sat)
    s = x.sign ^ y.sign
    if x.kind == 'inf':
        if y.kind == 'inf':
            return finish(nan_result(fmt, []), fmt, sat)
        return finish(fc.inf(fmt, s), fmt, sat)
    if y.kind == 'inf':
        return finish(fc.zero(fmt, s), fmt, sat)
    if y.q == 0:
        if x.q == 0:
            return finish(nan_result(fmt, []), fmt, sat)
        return finish(fc.inf(fmt, s), fmt, sat)
    return finish(fc.round_to(s, x.q / y.q, fmt, mode, ftz), fmt, sat)


def sqrt(fmt, a, mode='rn', ftz=False):
    x = fc.decode(a, fmt, ftz)
    if x.kind == 'nan':
        return nan_result(fmt, [x])
    if x.kind == 'num' and x.q == 0:
        return fc.zero(fmt, x.sign)
    if x.sign:
        return nan_result(fmt, [])
    if x.kind == 'inf':
        return fc.inf(fmt, 0)
    return fc.round_to(0, fc.sqrt_exact(x.q, fmt), fmt, mode, ftz)


def rcp(fmt, a, mode='rn', ftz=False):
    return div(fmt, fc.round_to(0, Fraction(1), fmt), a, mode, ftz)


def _order_key(d):
    v = d.value() if d.kind == 'num' else None
    if d.kind == 'inf':
        return (1 if not d.sign else -1, 0, 0)
    # -0 orders below +0
    return (0, v, 0 if d.sign else 1)


def minmax(fmt, a, b, is_max, ftz=False, nan_prop=False):
    x, y = fc.decode(a, fmt, ftz), fc.decode(b, fmt, ftz)
    if x.kind == 'nan' or y.kind == 'nan':
        if nan_prop:
            return fc.CANON_NAN[fmt] if fmt != 'f64' else F64_NAN
        if x.kind == 'nan' and y.kind == 'nan':  # hardware (mostly): f64 the second, quiet
            return b | (1 << 51) if fmt == 'f64' else fc.CANON_NAN[fmt]
        keep = y if x.kind == 'nan' else x
        return _flushed(keep, fmt, ftz)
    kx, ky = _order_key(x), _order_key(y)
    pick = x if (kx >= ky) == is_max else y
    return _flushed(pick, fmt, ftz)


def _flushed(d, fmt, ftz):
    if ftz and d.kind == 'num' and d.q == 0:
        return fc.zero(fmt, d.sign)
    return d.bits


def round_int(q_signed, mode):
    """Rounds an exact Fraction to an integer: rni (nearest even), rzi, rmi, rpi."""
    fl = q_signed.numerator // q_signed.denominator
    rem = q_signed - fl
    if rem == 0:
        return fl
    if mode in ('rni', 'rn'):
        if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl & 1):
            return fl + 1
        return fl
    if mode in ('rzi', 'rz'):
        return fl + 1 if q_signed < 0 else fl
    if mode in ('rmi', 'rm'):
        return fl
    if mode in ('rpi', 'rp'):
        return fl + 1
    raise ValueError(mode)


def round_to_integral(fmt, a, mode, ftz=False):
    """cvt.rXi.fT.fT: the value rounded to an integer, in the same format."""
    x = fc.decode(a, fmt, ftz)
    if x.kind == 'nan':
        return nan_result(fmt, [x])
    if x.kind == 'inf':
        return a
    r = round_int(x.value(), mode)
    if r == 0:
        return fc.zero(fmt, x.sign)
    return fc.round_to(1 if r < 0 else 0, Fraction(abs(r)), fmt, 'rn')


def bits_of(fmt):
    return FORMATS[fmt][2]
