"""Case for tests/exec/ptx/conv2.ptx: the narrow float conversions of build_conv2.c (fp8
e4m3x2/e5m2x2 both ways, tf32, .relu/.satfinite and directed .sat to f16, 8-bit and .sat
integers to f16, bf16 <-> integers/f16/bf16, cvt.rm/rp.bf16) and ex2.approx on f16x2/bf16x2.

The references are the PTX ISA's definitions in exact fractions, written here from the formats'
definitions (never from the compiler's output):
- e4m3: 1 sign, 4 exponent (bias 7), 3 mantissa bits, subnormals, no infinity, NaN only
  S.1111.111 (largest finite 448); e5m2: IEEE-style, bias 15 (largest finite 57344).  Encoding
  rounds to the nearest representable value, ties to the even code; .satfinite: a magnitude
  at or beyond the largest finite (infinity included) gives the largest finite of its sign,
  NaN a NaN.  Decoding is exact into f16.  .relu: a negative result (-0 included) is +0, NaN
  stays NaN.  Packing: the first f32 operand (the upper f16 half) into the upper
  byte; the upper byte decodes into the upper f16 half.
- tf32: the f32 rounded to 10 fraction bits (.rn nearest even, .rz toward zero, .rna ties away)
  in the f32 layout; .satfinite as above with largest finite 0x7f7fe000.
- to f16/bf16 with a rounding: the exact value rounded once (.rz/.rm/.rp directed; overflow to
  the largest finite where the direction forbids infinity); .sat clamps to [0, 1] (NaN -> 0).
- bf16 -> integer: the value rounded as .rni/.rzi/.rmi/.rpi says, saturated to the type (NaN -> 0
  to 32 bits and below, 0x8000000000000000 to 64 bits, as from f32 on the H100).
- ex2.approx: the exact 2^x within the ISA's bound (f16: relative 2^-9.9, plus one unit of
  2^-24 below the normal range; bf16 with .ftz: one bf16 ulp, subnormals flushed).
NaN results, which the ISA leaves open, are what an NVIDIA H100 returned for this kernel (run
there through the CUDA driver; every other result agreed with the definitions above): fp8
0x7f, f16 and bf16 0x7fff, tf32 .rn/.rz/.relu 0x7fffe000, .rna.satfinite the truncated NaN
stepped down by one unit of bit 13 when its exponent is all ones (0x7f800001 -> 0x7f7fe000,
0x7fc00000 -> 0x7fbfe000), f64 -> bf16 the sign and the top 7 payload bits, made quiet."""

import math
import random
from fractions import Fraction

from ref import Case, In, Out
from cases_arith2 import checker, fval

NOUT = 51


# ---------------------------------------------------------------- formats

class Fmt:
    def __init__(self, ebits, mbits, ieee, name):
        self.ebits, self.mbits, self.ieee, self.name = ebits, mbits, ieee, name
        self.bias = (1 << (ebits - 1)) - 1
        self.width = 1 + ebits + mbits

    def decode(self, code):
        """('nan',) / ('inf', sign) / ('num', Fraction, sign)"""
        sign = code >> (self.width - 1) & 1
        e = code >> self.mbits & ((1 << self.ebits) - 1)
        m = code & ((1 << self.mbits) - 1)
        top = (1 << self.ebits) - 1
        if self.ieee and e == top:
            return ('nan',) if m else ('inf', sign)
        if not self.ieee and e == top and m == (1 << self.mbits) - 1:
            return ('nan',)
        if e == 0:
            v = Fraction(m, 1 << self.mbits) * Fraction(2) ** (1 - self.bias)
        else:
            v = Fraction((1 << self.mbits) | m, 1 << self.mbits) * Fraction(2) ** (e - self.bias)
        return ('num', -v if sign else v, sign)

    def max_finite(self):
        top = (1 << self.ebits) - 1
        return ((top - 1) << self.mbits | ((1 << self.mbits) - 1)) if self.ieee else \
            (top << self.mbits | ((1 << self.mbits) - 2))

    def is_nan(self, code):
        return self.decode(code)[0] == 'nan'

    def round(self, q, mode, sat_finite=False):
        """Fraction q -> code, rounded as mode says (rn, rz, rm, rp, rna); beyond the largest
        finite: infinity where the rounding goes there (IEEE formats), else the largest finite."""
        sign = 1 if q < 0 else 0
        a = abs(q)
        maxc = self.max_finite()
        maxv = self.decode(maxc)[1]
        sbit = sign << (self.width - 1)
        away = mode in ('rn', 'rna') or (mode == 'rm' and sign) or (mode == 'rp' and not sign)
        if a == 0:
            return sbit
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        e = max(e, 1 - self.bias)
        unit = Fraction(2) ** (e - self.mbits)
        n = a / unit
        lo = n.numerator // n.denominator
        rem = n - lo
        if rem == 0:
            k = lo
        elif mode == 'rn':
            k = lo + (1 if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and lo & 1) else 0)
        elif mode == 'rna':
            k = lo + (1 if rem >= Fraction(1, 2) else 0)
        elif mode == 'rz' or (mode == 'rm' and not sign) or (mode == 'rp' and sign):
            k = lo
        else:
            k = lo + 1
        v = k * unit
        if v == 0:
            return sbit
        if v > maxv:
            if sat_finite or not self.ieee or not away:
                return sbit | maxc
            return sbit | ((1 << self.ebits) - 1) << self.mbits
        return sbit | self.exact_code(v)

    def exact_code(self, v):
        """the code of a representable magnitude v > 0"""
        e = v.numerator.bit_length() - v.denominator.bit_length()
        if Fraction(2) ** e > v:
            e -= 1
        if e < 1 - self.bias:
            return int(v / Fraction(2) ** (1 - self.bias - self.mbits))
        m = v / Fraction(2) ** (e - self.mbits) - (1 << self.mbits)
        return (e + self.bias) << self.mbits | int(m)


E4M3 = Fmt(4, 3, False, 'e4m3')
E5M2 = Fmt(5, 2, True, 'e5m2')
F16 = Fmt(5, 10, True, 'f16')
BF16 = Fmt(8, 7, True, 'bf16')
F32 = Fmt(8, 23, True, 'f32')
TF32 = Fmt(8, 10, True, 'tf32')


def f32_val(bits):
    return F32.decode(bits)


def convert(d, fmt, mode, relu=False, satfinite=False):
    """a decoded value into fmt (None for NaN: any NaN accepted)"""
    if d[0] == 'nan':
        return None
    if d[0] == 'inf':
        inf = ((1 << fmt.ebits) - 1) << fmt.mbits
        r = fmt.max_finite() if satfinite or not fmt.ieee else inf
        r |= d[1] << (fmt.width - 1)
    elif d[1] == 0:
        r = d[2] << (fmt.width - 1)
    else:
        r = fmt.round(d[1], mode, satfinite)
    if relu and r >> (fmt.width - 1):
        r = 0
    return r


NAN_CODE = {'e4m3': 0x7f, 'e5m2': 0x7f, 'f16': 0x7fff, 'bf16': 0x7fff}


def pack2(fmt, hi, lo):
    """two results (None: NaN, the H100's code for fmt) packed, hi above lo"""
    hi = NAN_CODE[fmt.name] if hi is None else hi
    lo = NAN_CODE[fmt.name] if lo is None else lo
    return hi << fmt.width | lo


def one(fmt, r):
    return NAN_CODE[fmt.name] if r is None else r


# ---------------------------------------------------------------- the results

def fp8_from_f32(fmt, a, b, relu):
    return pack2(E4M3 if fmt is E4M3 else E5M2, convert(f32_val(a), fmt, 'rn', relu, True),
                 convert(f32_val(b), fmt, 'rn', relu, True))


def fp8_from_f16x2(fmt, w, relu):
    return pack2(fmt, convert(F16.decode(w >> 16), fmt, 'rn', relu, True),
                 convert(F16.decode(w & 0xffff), fmt, 'rn', relu, True))


def fp8_to_f16x2(fmt, h, relu):
    def dec(c):
        d = fmt.decode(c)
        return convert(d, F16, 'rn', relu) if d[0] != 'num' or d[1] != 0 else \
            (0 if relu else d[2] << 15)
    return pack2(F16, dec(h >> 8), dec(h & 0xff))


def tf32(a, mode, relu=False, satfinite=False):
    d = f32_val(a)
    if d[0] == 'nan' and mode != 'rna':
        return 0x7fffe000
    if d[0] == 'nan':  # .rna: truncated; .satfinite steps an all-ones exponent down (the H100)
        r = a & 0xffffe000
        return r - 0x2000 if satfinite and r & 0x7f800000 == 0x7f800000 else r
    r = convert(d, TF32, mode, relu, satfinite)
    return r >> 18 << 31 | (r & 0x3ffff) << 13


def to_f16(a, mode, relu=False, satfinite=False, sat=False):
    d = f32_val(a)
    if sat:
        if d[0] == 'nan':
            return 0
        v = Fraction(0) if d[0] == 'num' and d[1] <= 0 or d[0] == 'inf' and d[1] else \
            Fraction(1) if d[0] == 'inf' or d[1] >= 1 else d[1]
        return convert(('num', v, 0), F16, mode)
    return one(F16, convert(d, F16, mode, relu, satfinite))


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def int_to(fmt, v, mode):
    return convert(('num', Fraction(v), 0), fmt, mode)


def bf16_to_int(h, mode, bits, signed):
    d = BF16.decode(h)
    if d[0] == 'nan':
        return 1 << 63 if bits == 64 else 0
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if d[0] == 'inf':
        return (lo if d[1] else hi) & ((1 << bits) - 1)
    v = d[1]
    f = math.floor(v)
    r = {'rzi': math.trunc(v), 'rmi': f, 'rpi': math.ceil(v),
         'rni': f + (1 if v - f > Fraction(1, 2) or (v - f == Fraction(1, 2) and f & 1) else 0)}[mode]
    return min(max(r, lo), hi) & ((1 << bits) - 1)


def bf16_rni(h):
    d = BF16.decode(h)
    if d[0] == 'nan':
        return NAN_CODE['bf16']
    if d[0] == 'inf' or d[1] == 0:
        return h
    v = d[1]
    f = math.floor(v)
    r = f + (1 if v - f > Fraction(1, 2) or (v - f == Fraction(1, 2) and f & 1) else 0)
    return (h & 0x8000) if r == 0 else BF16.round(Fraction(r), 'rn')


def from16(fmt_in, fmt_out, h, mode):
    return one(fmt_out, convert(fmt_in.decode(h), fmt_out, mode))


def f64_val(bits):
    d = fval(bits, 64)
    return ('nan',) if d[0] == 'nan' else d


def bf16_of_f64(fd, mode):
    """NaN: the sign and the top 7 payload bits, made quiet (the H100)"""
    d = f64_val(fd)
    if d[0] == 'nan':
        return (fd >> 48 & 0x8000) | 0x7fc0 | (fd >> 45 & 0x7f)
    return convert(d, BF16, mode)


def same16(fmt, h):
    """cvt.f16.f16 / cvt.bf16.bf16: the value; NaN -> 0x7fff (the H100)"""
    return NAN_CODE[fmt.name] if fmt.is_nan(h) else h


def sat_f16(d):
    """.sat to f16 of a decoded value: [0, 1], NaN -> +0, rounded in the caller's mode"""
    if d[0] == 'nan' or (d[0] == 'inf' and d[1]) or (d[0] == 'num' and d[1] <= 0):
        return ('num', Fraction(0), 0)
    if d[0] == 'inf' or d[1] >= 1:
        return ('num', Fraction(1), 0)
    return d


def ftz_f32_of_bf16(h):
    """cvt.ftz.f32.bf16: a subnormal is the zero of its sign; NaN -> 0x7fffffff (the H100)"""
    if BF16.is_nan(h):
        return 0x7fffffff
    return (h & 0x8000) << 16 if h & 0x7f80 == 0 else h << 16


def ftz_bf16_of_f32(a, mode):
    """.ftz to bf16: a subnormal f32 operand is the zero of its sign"""
    if a & 0x7f800000 == 0:
        return a >> 16 & 0x8000
    return one(BF16, convert(f32_val(a), BF16, mode))


def ex2_check(fmt, w):
    """ex2.approx on both 16-bit halves: within the ISA's bound of 2^x (bf16: .ftz)"""
    def half_ok(x, r):
        d = fmt.decode(x)
        g = fmt.decode(r)
        if d[0] == 'nan':
            return g[0] == 'nan'
        if d[0] == 'inf':
            return (g[0] == 'num' and g[1] == 0 and not g[2]) if d[1] else g == ('inf', 0)
        v = d[1]
        if fmt is BF16 and abs(v) < Fraction(2) ** -126:
            v = Fraction(0)  # .ftz operand
        e = 2.0 ** float(v) if float(v) < 1024 else math.inf
        if g[0] != 'num':
            return g[0] == 'inf' and e > float(fmt.decode(fmt.max_finite())[1])
        got = float(g[1])
        if fmt is F16:
            tol = 2.0 ** -9.9 * e + (2.0 ** -24 if e < 2.0 ** -14 else 0)
        else:  # bf16: one ulp at e; a result below the normal range is flushed to +0
            if e < 2.0 ** -126:
                return got == 0 or abs(got - e) <= 2.0 ** -133
            tol = 2.0 ** (math.frexp(e)[1] - 1 - 7)
        return abs(got - e) <= tol
    f = (lambda g: half_ok(w >> 16, g >> 16) and half_ok(w & 0xffff, g & 0xffff))
    f.text = 'ex2.approx.%s of %#x within the bound' % (fmt.name, w)
    return f


def results(a, b):
    lo, hi = a & 0xffff, a >> 16
    rd = b << 32 | a  # cvt from .s64/.u64: a low word, b high word
    fd = a << 32 | b  # f64: b low word, a high word
    s64 = rd - (1 << 64) if rd >> 63 else rd
    return [
        fp8_from_f32(E4M3, a, b, False), fp8_from_f32(E4M3, a, b, True),
        fp8_from_f32(E5M2, a, b, False), fp8_from_f32(E5M2, b, a, True),
        fp8_from_f16x2(E4M3, a, False), fp8_from_f16x2(E5M2, b, True),
        fp8_to_f16x2(E4M3, lo, False), fp8_to_f16x2(E4M3, hi, True),
        fp8_to_f16x2(E5M2, lo, False), fp8_to_f16x2(E5M2, hi, True),
        tf32(a, 'rn'), tf32(a, 'rz'), tf32(a, 'rn', relu=True), tf32(a, 'rna', satfinite=True),
        to_f16(a, 'rn', relu=True), to_f16(a, 'rz', relu=True), to_f16(a, 'rn', satfinite=True),
        pack2(F16, convert(f32_val(a), F16, 'rz', True, True),
              convert(f32_val(b), F16, 'rz', True, True)),
        to_f16(a, 'rm', sat=True), to_f16(a, 'rp', sat=True),
        int_to(F16, sx(a, 8), 'rn'), int_to(F16, hi & 0xff, 'rz'),
        0x3c00 if sx(a, 32) > 0 else 0,
        bf16_to_int(lo, 'rni', 32, True), bf16_to_int(hi, 'rzi', 16, False),
        bf16_to_int(lo, 'rmi', 64, True) & 0xffffffff, bf16_to_int(lo, 'rmi', 64, True) >> 32,
        int_to(BF16, sx(a, 32), 'rn'), int_to(BF16, a, 'rz'), int_to(BF16, s64, 'rm'),
        int_to(BF16, rd, 'rp'), int_to(BF16, sx(a, 16), 'rn'),
        bf16_rni(lo), from16(F16, BF16, lo, 'rn'), from16(BF16, F16, hi, 'rz'),
        one(BF16, convert(f32_val(a), BF16, 'rm')),
        bf16_of_f64(fd, 'rp'),
        ex2_check(F16, a), ex2_check(BF16, a),
        same16(F16, lo), convert(sat_f16(F16.decode(hi)), F16, 'rn'), same16(BF16, lo),
        from16(F16, BF16, hi, 'rn'), ftz_f32_of_bf16(lo), ftz_bf16_of_f32(a, 'rn'),
        ftz_bf16_of_f32(b, 'rm'), convert(sat_f16(f64_val(fd)), F16, 'rz'),
        convert(sat_f16(f64_val(fd)), F16, 'rp'), bf16_of_f64(fd, 'rn'), bf16_of_f64(fd, 'rz'),
        hi << 16,
    ]


# ---------------------------------------------------------------- operands

def f32_bits(x):
    import struct
    return struct.unpack('<I', struct.pack('<f', x))[0]


def edges32():
    """f32 words at the boundaries of each format: fp8 ties, largest finite, the rounding
    point beyond it, least subnormals and their halves, tf32/f16/bf16 ties, specials"""
    vals = [0.0, -0.0, 448.0, 464.0, 465.0, 480.0, 57344.0, 61440.0, 61439.0, 65536.0,
            2.0 ** -9, 2.0 ** -10, 2.0 ** -10 * 1.0001, 3 * 2.0 ** -10, 2.0 ** -6,
            2.0 ** -16, 2.0 ** -17, 3 * 2.0 ** -17, 2.0 ** -14, 1.0625, 1.1875, 1.9375, 1.125,
            1.25 + 1 / 16, 0.5, 65504.0, 65520.0, 65519.0, 2.0 ** -24, 2.0 ** -25,
            1.5 * 2.0 ** -25, 0.999, 1.0, 1.5, 2.5, 3.5, 255.5, 256.5, 1e30, 1e-30]
    words = []
    for v in vals:
        words += [f32_bits(v), f32_bits(v) ^ 0x80000000]
    words += [0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
              0x7fffffff, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f801000,
              0x3f803000, 0x3f800fff, 0x3f801001, 0x7f7ff000, 0x7f7fefff, 0xbf801000,
              0x3f808000, 0x3f818000, 0x7f7f8000, 0x00008000]
    return words


INT_EDGE = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x8080, 0x8180, 0x8081, 0xffff7f80,
            0x01010000, 0x01030000, 0x0101ffff, 0x7f80, 0xff80, 0x0080, 0x00ff, 0x7e7f, 0xfe81]
F16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x5f00, 0x5f40,
            0x5f41, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7a00, 0x7b80, 0x1800,
            0x1400, 0x1600, 0x0200, 0x3c40, 0x3cc0, 0x4c00, 0xcc00, 0x5000, 0xd0ff]
BF16_EDGE = [0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x3fc0, 0xbfc0, 0x4020,
             0x4060, 0xc020, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xff81, 0x4f00, 0xcf00,
             0x4f80, 0xdf00, 0x5f00, 0x5f80, 0xdf80, 0x3f00, 0x3eff, 0x42fe, 0xc2fe, 0x42fd]


def operands(rng, n):
    a, b = [], []
    for i in range(128):  # every fp8 code in both bytes of both halves
        lo = (2 * i + 1) << 8 | 2 * i
        hi = (254 - 2 * i) << 8 | (255 - 2 * i)
        a.append(hi << 16 | lo)
        b.append(lo << 16 | hi)
    e32 = edges32()
    for i, w in enumerate(e32):
        a.append(w)
        b.append(e32[(i * 7 + 3) % len(e32)])
    for i, x in enumerate(F16_EDGE):
        y = F16_EDGE[(i * 5 + 1) % len(F16_EDGE)]
        a.append(x << 16 | y)
        b.append(y << 16 | x)
    for i, x in enumerate(BF16_EDGE):
        y = BF16_EDGE[(i * 3 + 2) % len(BF16_EDGE)]
        a.append(x << 16 | y)
        b.append(rng.choice(INT_EDGE))
    for v in INT_EDGE:
        a.append(v)
        b.append(rng.choice([0, 0xffffffff, 0x80000000, 1, 0x00ffffff, 0x01000001]))
    while len(a) < n:
        e = rng.choice([0, 1, 100, 112, 120, 126, 127, 128, 134, 142, 143, 254, 255,
                        rng.randrange(256)])
        m = rng.getrandbits(23)
        if rng.random() < 0.4:  # ties and their neighbours for 2, 3, 7, 10 kept bits
            k = rng.choice([20, 21, 16, 13])
            m = (m >> k << k) | (1 << (k - 1)) + rng.choice([-1, 0, 0, 1])
        a.append(rng.getrandbits(1) << 31 | e << 23 | (m & 0x7fffff))
        b.append(rng.getrandbits(32) if rng.random() < 0.5 else
                 rng.getrandbits(1) << 31 | rng.choice([0, 8, 15, 17, 20]) << 26 |
                 rng.getrandbits(26))
    return a[:n], b[:n]


def conv2_case():
    rng = random.Random('conv2')
    n, block = 512, 128
    a, b = operands(rng, n)

    def expect():
        out = []
        for x, y in zip(a, b):
            out += results(x, y)
        return out

    return Case('conv2', 'conv2', (n // block,), (block,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), ('u32', n)],
                checker('conv2', NOUT, 'I', expect, [a, b]))


def cases():
    return [conv2_case()]
