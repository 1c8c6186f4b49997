"""Exact IEEE-754 binary formats for the reference interpreter: decoding bit patterns into exact
rationals and rounding exact rationals into bit patterns under .rn/.rz/.rm/.rp/.rna, with
subnormals, overflow and flush-to-zero.  Python's Fraction carries every intermediate exactly,
so each operation rounds once, as the PTX ISA requires for its IEEE-compliant forms."""

from fractions import Fraction
import math
import struct

# name -> (exponent bits, stored fraction bits, total bits)
FORMATS = {'f16': (5, 10, 16), 'bf16': (8, 7, 16), 'f32': (8, 23, 32), 'f64': (11, 52, 64),
           'tf32': (8, 10, 19)}  # tf32: 19 significant bits, kept in an f32 word
CANON_NAN = {'f16': 0x7fff, 'bf16': 0x7fff, 'f32': 0x7fffffff, 'f64': 0xffffffffffffffff,
             'tf32': 0x7fffffff}


class F:
    """A decoded value: kind 'nan' / 'inf' / 'num', sign 0/1, exact magnitude q (Fraction)."""
    __slots__ = ('kind', 'sign', 'q', 'bits')

    def __init__(self, kind, sign, q, bits):
        self.kind, self.sign, self.q, self.bits = kind, sign, q, bits

    def value(self):
        """Signed exact value (num only)."""
        return -self.q if self.sign else self.q


def decode(bits, fmt, ftz=False):
    eb, mb, tb = FORMATS[fmt]
    sign = bits >> (tb - 1) & 1
    e = bits >> mb & ((1 << eb) - 1)
    m = bits & ((1 << mb) - 1)
    bias = (1 << (eb - 1)) - 1
    if e == (1 << eb) - 1:
        return F('nan' if m else 'inf', sign, None, bits)
    if e == 0:
        if ftz or m == 0:
            return F('num', sign, Fraction(0), bits)
        return F('num', sign, Fraction(m, 1 << (mb + bias - 1)), bits)
    v = (m | (1 << mb))
    sh = e - bias - mb
    q = Fraction(v << sh) if sh >= 0 else Fraction(v, 1 << -sh)
    return F('num', sign, q, bits)


def is_nan(bits, fmt):
    eb, mb, tb = FORMATS[fmt]
    return (bits >> mb & ((1 << eb) - 1)) == (1 << eb) - 1 and bits & ((1 << mb) - 1) != 0


def _floor_log2(q):
    n, d = q.numerator, q.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < (d << e):
            e -= 1
    else:
        if (n << -e) < d:
            e -= 1
    return e


def max_finite(fmt, sign):
    eb, mb, tb = FORMATS[fmt]
    return (sign << (tb - 1)) | ((((1 << eb) - 2) << mb) | ((1 << mb) - 1))


def inf(fmt, sign):
    eb, mb, tb = FORMATS[fmt]
    return (sign << (tb - 1)) | (((1 << eb) - 1) << mb)


def zero(fmt, sign):
    return sign << (FORMATS[fmt][2] - 1)


def round_to(sign, q, fmt, mode='rn', ftz=False, tiny_after=False, tiny_unbounded=False):
    """Bits of the value (-1)^sign * q (q >= 0 Fraction) rounded to fmt under mode.  ftz:
    a subnormal result flushes to zero, judged before rounding (f16 arithmetic), after
    rounding to the subnormal grid (tiny_after: cvt.ftz.f32.f64 keeps a value that rounds up
    to the smallest normal) or after rounding to full precision with an unbounded exponent
    (tiny_unbounded: f32 mul/fma, IEEE 754's "after rounding"; the H100 keeps 2^-126 for
    fma.rp.ftz of a value just below it that is not a 24-bit number, kernel k00685)."""
    eb, mb, tb = FORMATS[fmt]
    if q == 0:
        return zero(fmt, sign)
    bias = (1 << (eb - 1)) - 1
    emin, emax, p = 1 - bias, bias, mb + 1
    e = _floor_log2(q)
    if ftz and e < emin and tiny_unbounded:
        # tiny unless q lies in [2^(emin-1), 2^emin) and rounds to p bits up to 2^emin
        if e == emin - 1 and _rounds_up_to_power(sign, q * Fraction(2) ** (p - 1 - e), mode):
            return (sign << (tb - 1)) | (1 << mb)
        return zero(fmt, sign)
    if ftz and e < emin and not tiny_after:
        return zero(fmt, sign)
    e = max(e, emin)
    scaled = q * (Fraction(1 << (p - 1 - e)) if p - 1 - e >= 0 else Fraction(1, 1 << (e - p + 1)))
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem:
        if mode == 'rn':
            up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1)
        elif mode == 'rna':
            up = rem >= Fraction(1, 2)
        elif mode == 'rz':
            up = False
        elif mode == 'rm':
            up = bool(sign)
        elif mode == 'rp':
            up = not sign
        else:
            raise ValueError(mode)
        if up:
            m += 1
    if m == 1 << p:
        m >>= 1
        e += 1
    if e > emax:
        if mode in ('rn', 'rna') or (mode == 'rm' and sign) or (mode == 'rp' and not sign):
            return inf(fmt, sign)
        return max_finite(fmt, sign)
    if m < 1 << mb:  # subnormal (e == emin)
        if ftz or m == 0:
            return zero(fmt, sign)
        return (sign << (tb - 1)) | m
    return (sign << (tb - 1)) | ((e + bias) << mb) | (m - (1 << mb))


def _rounds_up_to_power(sign, scaled, mode):
    """Whether scaled (in [2^(p-1), 2^p)) rounded to an integer under mode is 2^p."""
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if not rem or (m + 1) & m:  # exact, or m + 1 is not a power of two
        return False
    if mode == 'rn':
        return rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1)
    if mode == 'rna':
        return rem >= Fraction(1, 2)
    return (mode == 'rm' and sign) or (mode == 'rp' and not sign)


def round_value(v, fmt, mode='rn', ftz=False, zero_sign=0):
    """Rounds a signed exact Fraction; an exact zero takes zero_sign."""
    if v == 0:
        return zero(fmt, zero_sign)
    return round_to(1 if v < 0 else 0, abs(v), fmt, mode, ftz)


def from_pyfloat(x, ty):
    if ty == 'f64':
        return struct.unpack('<Q', struct.pack('<d', x))[0]
    if math.isnan(x):
        return CANON_NAN[ty]
    if math.isinf(x):
        return inf(ty, 1 if x < 0 else 0)
    return round_value(Fraction(x), ty, 'rn', zero_sign=1 if math.copysign(1, x) < 0 else 0)


def sqrt_exact(q, fmt):
    """A Fraction that rounds like sqrt(q) at fmt's precision under every mode: sqrt(q) itself
    when it is exact, else a value strictly between two neighbours far finer than fmt's ulp."""
    eb, mb, tb = FORMATS[fmt]
    extra = 2 * (mb + 8)
    n, d = q.numerator, q.denominator
    # sqrt(n/d) = sqrt(n*d)/d
    nd = n * d
    s = (extra - nd.bit_length() // 2)
    s = max(s, 0) + 4
    big = nd << (2 * s)
    r = math.isqrt(big)
    if r * r == big:
        return Fraction(r, d << s)
    return Fraction(2 * r + 1, d << (s + 1))


def is_subnormal(bits, fmt):
    eb, mb, tb = FORMATS[fmt]
    return (bits >> mb & ((1 << eb) - 1)) == 0 and bits & ((1 << mb) - 1) != 0
