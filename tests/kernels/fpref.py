"""Exact IEEE-754 helpers for the kernel references (standard library only).

Values are Python floats holding exactly representable f16/f32/f64 numbers; rounding goes through
fractions.Fraction so no double rounding can creep in (e.g. int64 -> f32, fma, f64 -> f16).
"""

import math
import struct
from fractions import Fraction

# (precision including the implicit bit, minimum normal exponent, maximum exponent)
F16 = (11, -14, 15)
F32 = (24, -126, 127)
F64 = (53, -1022, 1023)


def round_exact(value, fmt, sign_of_zero=1.0):
    """Round an exact rational (Fraction or int) to the format, to nearest even; overflow -> inf.

    A zero result takes the sign given (the exact value 0 has none of its own)."""
    prec, emin, emax = fmt
    v = Fraction(value)
    if v == 0:
        return math.copysign(0.0, sign_of_zero)
    sign = -1.0 if v < 0 else 1.0
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = max(e, emin) - (prec - 1)
    scaled = a / (Fraction(2) ** q)
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    result = Fraction(m) * Fraction(2) ** q
    max_finite = Fraction(2 ** prec - 1) * Fraction(2) ** (emax - prec + 1)
    if result > max_finite:
        return sign * math.inf
    return sign * float(result)


def f32(x):
    """Round a Python float (double) to f32. Double rounding is harmless for results of one
    +, -, *, / or sqrt on f32 operands computed in double (53 >= 2*24+2)."""
    return round_exact(Fraction(x), F32, x) if math.isfinite(x) and x != 0 else \
        struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):
    if not math.isfinite(x) or x == 0:
        return x
    return round_exact(Fraction(x), F16, x)


def fma(x, y, z, fmt):
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        return x * y + z  # exact in double: product and sum of two equal magnitudes
    return round_exact(exact, fmt)


def bits_to_ordered(bits, width):
    """Map float bit patterns to integers ordered like the values (for ulp distances)."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def ulp_distance(a_bits, b_bits, width):
    return abs(bits_to_ordered(a_bits, width) - bits_to_ordered(b_bits, width))


def is_nan_bits(bits, width):
    if width == 16:
        return (bits & 0x7c00) == 0x7c00 and (bits & 0x3ff) != 0
    if width == 32:
        return (bits & 0x7f800000) == 0x7f800000 and (bits & 0x7fffff) != 0
    return (bits & 0x7ff0000000000000) == 0x7ff0000000000000 and (bits & ((1 << 52) - 1)) != 0


FMT_CHAR = {16: 'e', 32: 'f', 64: 'd'}
INT_CHAR = {16: 'H', 32: 'I', 64: 'Q'}


def float_bits(x, width):
    return struct.unpack('<' + INT_CHAR[width], struct.pack('<' + FMT_CHAR[width], x))[0]


def bits_float(b, width):
    return struct.unpack('<' + FMT_CHAR[width], struct.pack('<' + INT_CHAR[width], b))[0]
