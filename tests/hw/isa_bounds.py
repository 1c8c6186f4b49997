"""The error bounds the PTX ISA states for its approximate float instructions (PTX ISA 9.7.3:
div, rcp, rcp.approx.ftz.f64, sqrt, rsqrt, rsqrt.approx.ftz.f64, sin, cos, lg2, ex2, tanh),
and check(op, operands, result): whether a result lies within the bound of the exact value.

Bounds, as the ISA words them:
  div.approx.f32   2 ulp for |b| in [2^-126, 2^126]; for 2^126 < |b| < 2^128 the result is a
                   sign-preserving zero (NaN when a is infinite); outside, nothing is promised
  div.full.f32     2 ulp over the full range
  rcp.approx.f32   1 ulp over the full range
  sqrt.approx.f32  relative 2^-23 over the positive finite range
  rsqrt.approx.f32 relative 2^-22.9 over the positive finite range
  sin/cos.approx   absolute 2^-20.5 in [-2pi, 2pi], 2^-14.7 in [-100pi, 100pi], best effort
                   outside
  lg2.approx.f32   absolute 2^-22 for a in (0.5, 2), relative 2^-22 for other positive finite a
  ex2.approx.f32   2 ulp from the correctly rounded result over the full range
  tanh.approx.f32  relative 2^-11
  rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: computed from the operand's high word (1.11.20
                   format) only, the result's low word zero, NaN -> 0x7fffffff00000000; the
                   ISA gives no error bound ("gross approximation"): the relative 2^-20 here is
                   one unit of the 20-bit mantissa the result keeps, an assumption.
  rsqrt.approx.f64: the ISA gives no bound ("emulated in software"): f32's relative 2^-22.9
                   is assumed.
  ex2.approx.f16[x2]: relative 2^-9.9 (ISA).  Below f16's least normal 2^-14 no f16 value
                   carries that relative precision (the spacing there is 2^-24): the bound
                   there is the relative one plus one unit of 2^-24, the error of an f16
                   result next to the bounded value (a correctly rounded result is within half
                   a unit; the H100 within one).  An exception to the ISA's words, which the
                   hardware needs (docs/HARDWARE.md).
  tanh.approx.f16[x2]: absolute 2^-10.987 over the full range.  Read as a relative bound
                   (as this table first did) it is barely more than half an f16 ulp (2^-11
                   relative at a significand of 1): only a nearly correctly rounded result
                   meets it.  The H100's largest absolute error over the 6,720 f16 halves of
                   the random set is 2^-10.997, within the absolute bound, while its relative
                   error reaches 2^-10.03 (docs/HARDWARE.md).
Special operands follow the ISA's tables (NaN -> NaN, zeros, infinities); .ftz flushes
subnormal operands and results to sign-preserving zero, without it subnormals are supported.

The exact value is computed in double precision (or exact fractions for div/rcp), far below
these bounds.  Operands and results are bit patterns (ints); check() returns (ok, reason)."""

import math
import struct
from fractions import Fraction

TWO_PI = 2 * math.pi

# op (without .ftz) -> bound.  kind: 'ulp' (units in the last place of the exact f32 value),
# 'rel', 'abs', or 'lg2' / 'trig' (ranges, see above)
BOUNDS = {
    'div.approx.f32': {'kind': 'ulp', 'n': 2, 'divisor_range': (2.0 ** -126, 2.0 ** 126)},
    'div.full.f32': {'kind': 'ulp', 'n': 2},
    'rcp.approx.f32': {'kind': 'ulp', 'n': 1},
    'sqrt.approx.f32': {'kind': 'rel', 'n': 2.0 ** -23},
    'rsqrt.approx.f32': {'kind': 'rel', 'n': 2.0 ** -22.9},
    'sin.approx.f32': {'kind': 'trig', 'ranges': [(TWO_PI, 2.0 ** -20.5),
                                                  (100 * math.pi, 2.0 ** -14.7)]},
    'cos.approx.f32': {'kind': 'trig', 'ranges': [(TWO_PI, 2.0 ** -20.5),
                                                  (100 * math.pi, 2.0 ** -14.7)]},
    'lg2.approx.f32': {'kind': 'lg2', 'abs': 2.0 ** -22, 'rel': 2.0 ** -22},
    'ex2.approx.f32': {'kind': 'ulp', 'n': 2},
    'tanh.approx.f32': {'kind': 'rel', 'n': 2.0 ** -11},
    'rcp.approx.ftz.f64': {'kind': 'hiword', 'n': 2.0 ** -20},
    'rsqrt.approx.ftz.f64': {'kind': 'hiword', 'n': 2.0 ** -20},
    'rsqrt.approx.f64': {'kind': 'rel', 'n': 2.0 ** -22.9},
    'ex2.approx.f16': {'kind': 'rel', 'n': 2.0 ** -9.9},
    'tanh.approx.f16': {'kind': 'abs', 'n': 2.0 ** -10.987},
}
FMT = {16: (10, 5), 32: (23, 8), 64: (52, 11)}


def base_op(op):
    """'div.approx.ftz.f32' -> ('div.approx.f32', True); f16x2 -> f16; the f64 forms with and
    without .ftz are different instructions and keep it."""
    parts = op.split('.')
    ftz = 'ftz' in parts
    if parts[-1] != 'f64':
        parts = [p for p in parts if p != 'ftz']
    if parts[-1] == 'f16x2':
        parts[-1] = 'f16'
    return '.'.join(parts), ftz


def decode(bits, w):
    """A Python float for the w-bit pattern (f16, f32, f64)."""
    if w == 16:
        return struct.unpack('<e', struct.pack('<H', bits & 0xffff))[0]
    if w == 32:
        return struct.unpack('<f', struct.pack('<I', bits & 0xffffffff))[0]
    return struct.unpack('<d', struct.pack('<Q', bits))[0]


def is_subnormal(bits, w):
    mb, eb = FMT[w]
    return (bits >> mb) & ((1 << eb) - 1) == 0 and bits & ((1 << mb) - 1) != 0


def flush(bits, w):
    """.ftz: a subnormal becomes the zero of its sign."""
    return bits & (1 << (w - 1)) if is_subnormal(bits, w) else bits


def ulp(x, w):
    """The spacing of w-bit floats at |x| (subnormal spacing below the normal range)."""
    mb, eb = FMT[w]
    emin = 2 - (1 << (eb - 1))
    e = math.frexp(abs(x))[1] - 1 if x != 0 else emin
    return 2.0 ** (max(e, emin) - mb)


def max_finite(w):
    mb, eb = FMT[w]
    return (2 - 2.0 ** -mb) * 2.0 ** ((1 << (eb - 1)) - 1)


def exact(op, xs):
    """The exact result of the base op for Python float operands (inf/nan as IEEE says)."""
    name = op.split('.')[0]
    try:
        if name == 'div':
            a, b = xs
            if math.isfinite(a) and math.isfinite(b) and b != 0:
                return float(Fraction(a) / Fraction(b)) if a != 0 else math.copysign(
                    0.0, a) * math.copysign(1.0, b)
            return a / b if b != 0 else (math.nan if a == 0 or math.isnan(a) else
                                         math.copysign(math.inf, a) * math.copysign(1.0, b))
        a = xs[0]
        if name == 'rcp':
            return math.copysign(math.inf, a) if a == 0 else (
                float(1 / Fraction(a)) if math.isfinite(a) else 1 / a)
        if name == 'sqrt':
            return a if a == 0 else math.sqrt(a) if a >= 0 else math.nan
        if name == 'rsqrt':
            return math.copysign(math.inf, a) if a == 0 else (
                1 / math.sqrt(a) if a > 0 else math.nan)
        if name == 'lg2':
            return -math.inf if a == 0 else math.log2(a) if a > 0 else math.nan
        if name == 'ex2':
            return 2.0 ** a
        if name == 'sin':
            return math.sin(a) if math.isfinite(a) else math.nan
        if name == 'cos':
            return math.cos(a) if math.isfinite(a) else math.nan
        if name == 'tanh':
            return math.tanh(a)
    except OverflowError:
        return math.inf
    raise ValueError('no exact value for %s' % op)


def _same(r, e):
    """Special results: both NaN, or equal including the sign of zero and infinity."""
    if math.isnan(e) or math.isnan(r):
        return math.isnan(e) and math.isnan(r)
    return r == e and math.copysign(1, r) == math.copysign(1, e)


def check_hiword(op, a_bits, r_bits):
    """rcp/rsqrt.approx.ftz.f64: from a's high word (1.11.20), low result word zero."""
    if r_bits & 0xffffffff:
        return False, 'the low word of the result is not zero'
    hi = a_bits >> 32
    if (hi >> 20) & 0x7ff == 0x7ff and hi & 0xfffff:
        return r_bits == 0x7fffffff00000000, 'NaN must give 0x7fffffff00000000'
    tmp = decode(hi << 32, 64)
    if (hi >> 20) & 0x7ff == 0:
        tmp = math.copysign(0.0, tmp)  # subnormal -> sign-preserving zero
    if op.startswith('rsqrt') and tmp < 0 and tmp != 0:
        return math.isnan(decode(r_bits, 64)), 'negative -> NaN'
    e = exact('rsqrt.approx.f64' if op.startswith('rsqrt') else 'rcp.approx.f64', [tmp])
    r = decode(r_bits, 64)
    if not math.isfinite(e) or e == 0:
        return _same(r, e), 'special operand'
    if abs(e) < 2.0 ** -1022:  # a subnormal result is flushed
        return r == 0 or abs(r - e) <= 2.0 ** -20 * abs(e), 'subnormal result flushed'
    if not math.isfinite(r):
        return False, 'not finite'
    return abs(r - e) <= 2.0 ** -20 * abs(e), 'relative error over 2^-20'


def check(op, operands, result):
    """(ok, reason) for result (bits) of op on operands (bits)."""
    bop, ftz = base_op(op)
    b = BOUNDS.get(bop)
    if b is None:
        raise ValueError('no ISA bound for %s' % op)
    if b['kind'] == 'hiword':
        return check_hiword(bop, operands[0], result)
    ftz = ftz and not bop.endswith('f64')
    w = int(bop.split('.')[-1][1:])
    if ftz:
        operands = [flush(x, w) for x in operands]
    xs = [decode(x, w) for x in operands]
    r = decode(result, w)
    e = exact(bop, xs)
    name = bop.split('.')[0]
    if bop == 'div.approx.f32':
        lo, hi = b['divisor_range']
        d = abs(xs[1])
        if hi < d < 2.0 ** 128:  # the ISA's rule: a sign-preserving zero, NaN for an infinite a
            if math.isinf(xs[0]) or math.isnan(xs[0]):
                return math.isnan(r), 'inf or NaN / huge must be NaN'
            return r == 0 and math.copysign(1, r) == math.copysign(1, e), 'sign-preserving zero'
        if not lo <= d <= hi and not math.isnan(d):
            return True, 'outside the divisor range the ISA bounds'
    if math.isnan(e) or math.isnan(r):
        return _same(r, e), 'NaN'
    if name in ('sin', 'cos') and math.isfinite(xs[0]):
        for rng, err in b['ranges']:
            if abs(xs[0]) <= rng:
                return abs(r - e) <= err, 'absolute error over %g' % err
        return -1 <= r <= 1, 'best effort outside [-100pi, 100pi]'
    if not math.isfinite(e) or (e == 0 and not math.isfinite(r)):
        return _same(r, e), 'special operand'
    if ftz and abs(e) < 2.0 ** (2 - (1 << (FMT[w][1] - 1))) * (1 + 2.0 ** -20) and r == 0:
        return math.copysign(1, r) == math.copysign(1, e) or e == 0, 'flushed result sign'
    if b['kind'] == 'ulp':
        if abs(e) > max_finite(w):  # the exact result overflows: inf, or the largest finite
            return (math.isinf(r) and (r > 0) == (e > 0)) or (
                abs(r - e) <= b['n'] * ulp(max_finite(w), w)), 'overflow'
        if math.isinf(r):
            return False, 'infinite result for a finite exact value'
        return abs(r - e) <= b['n'] * ulp(e, w), 'error over %d ulp' % b['n']
    if math.isinf(r):
        return abs(e) > max_finite(w), 'infinite result for a finite exact value'
    if b['kind'] == 'rel':
        tol = b['n'] * abs(e)
        if w == 16 and abs(e) < 2.0 ** -14:  # f16 subnormal range: one unit of its spacing
            tol += 2.0 ** -24
        return abs(r - e) <= tol, 'relative error over %g' % b['n']
    if b['kind'] == 'lg2':
        if 0.5 < xs[0] < 2:
            return abs(r - e) <= b['abs'], 'absolute error over 2^-22 in (0.5, 2)'
        return abs(r - e) <= b['rel'] * abs(e), 'relative error over 2^-22'
    return abs(r - e) <= b['n'], 'absolute error'
