"""Case for tests/exec/ptx/forms.ptx: testp, mul24/mad24, slct, dp4a/dp2a, min/max.NaN.f32,
cvt.rna.tf32.f32 and tanh.approx.f32 on edge operands (zeros of both signs, subnormals, the
smallest normal, the largest finite, infinities, NaNs with payloads in the high and low mantissa
bits, tf32 rounding ties, 24-bit and byte boundaries).  The references are the PTX ISA's
definitions, with the two places where the H100 differs from its text (testp.normal is true for
zeros; cvt.rna.tf32.f32 truncates a NaN, so a payload only in the dropped bits gives infinity:
docs/SEMANTICS.md "Instruction forms"); every slot of these forms in ../shared/ptx-hw/random agrees with
them.  tanh.approx.f32 is judged against the exact tanh with the PTX ISA's bound (maximum relative
error 2^-10.987); never against the compiler's output."""

import math
import random
import struct

from ref import Case, In, Out, unpack, M32

NOUT = 34

F32_EDGE = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
            0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
            0xffc00000, 0x7f800001, 0xff800001, 0x7fbfffff, 0x7fffffff, 0xffffffff,
            0x3f801000, 0xbf801000, 0x3f800fff, 0x3f803000, 0x7f7ff000, 0x7f7fefff,
            0x00001000, 0x00000fff, 0x3e000000, 0xbdffffff, 0x41200000, 0xc1200000]
INT_EDGE = [0, 1, M32, 0x7fffff, 0x800000, 0xffffff, 0x1000000, 0xff800000, 0x7fffffff,
            0x80000000, 0x80808080, 0x7f7f7f7f, 0xff00ff00, 0x00ff00ff, 0x8000ffff, 0x7fff8000,
            0x7c00fc00, 0x00010400, 0x83ff8001, 0x7e007c01, 0x3c00bc00, 0x80000400, 0x7bff03ff,
            0x4f804780, 0xc5804b00]  # (also f16 and bf16 pairs)
F64_EDGE = [0, 1 << 63, 1, (1 << 63) | 1, 0x000fffffffffffff, 0x0010000000000000,
            0x8010000000000000, 0x3ff0000000000000, 0x7fefffffffffffff, 0x7ff0000000000000,
            0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
            0x7fffffffffffffff]


def f32(u):
    return struct.unpack('<f', struct.pack('<I', u))[0]


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def s32(v):
    return sx(v, 32)


def testp_bits(v, wide):
    """Bit k: testp form k (finite infinite number notanumber normal subnormal)."""
    inf = 0x7ff0000000000000 if wide else 0x7f800000
    min_normal = 0x0010000000000000 if wide else 0x00800000
    m = v & ((1 << 63) - 1 if wide else 0x7fffffff)
    tests = [m < inf, m == inf, m <= inf, m > inf,
             min_normal <= m < inf or m == 0,  # zeros count as normal on the H100
             0 < m < min_normal]
    return sum(1 << k for k, t in enumerate(tests) if t)


def mul24(a, b, c, hi, signed, mad, sat=False):
    """The 48-bit product of the low 24 bits; .lo: bits 31..0, .hi: bits 47..16 (+ c)."""
    ea, eb = (sx(a, 24), sx(b, 24)) if signed else (a & 0xffffff, b & 0xffffff)
    p = ea * eb
    if hi:
        p >>= 16
    if not mad:
        return p & M32
    if sat:
        return max(-2**31, min(2**31 - 1, sx(p, 32) + s32(c))) & M32
    return (p + c) & M32


def slct(a, b, c, float_c, ftz=False):
    """d = c >= 0 ? a : b; -0.0 >= 0; NaN selects b; .ftz: a subnormal c counts as a zero."""
    if not float_c:
        return a if s32(c) >= 0 else b
    m = c & 0x7fffffff
    if m == 0 or (ftz and m < 0x00800000):
        return a
    return a if c <= 0x7f800000 else b


def dot(a, b, c, four, a_signed, b_signed, hi=False):
    """dp4a: c + sum a.byte[i] * b.byte[i]; dp2a: c + sum a.half[i] * b.byte[first + i]."""
    def field(v, pos, n, s):
        return sx(v >> pos, n) if s else (v >> pos) & ((1 << n) - 1)
    r, first = c, 2 if hi else 0
    for i in range(4 if four else 2):
        ae = field(a, 8 * i, 8, a_signed) if four else field(a, 16 * i, 16, a_signed)
        r += ae * field(b, 8 * (first + i), 8, b_signed)
    return r & M32


def minmax_nan(a, b, is_min, ftz):
    """min/max.NaN: the canonical NaN 0x7fffffff if either is NaN; -0.0 < +0.0."""
    if math.isnan(f32(a)) or math.isnan(f32(b)):
        return 0x7fffffff
    if ftz:
        a = a & 0x80000000 if a & 0x7fffffff < 0x00800000 else a
        b = b & 0x80000000 if b & 0x7fffffff < 0x00800000 else b
    fa, fb = f32(a), f32(b)
    if fa == fb:  # equal values: only zeros of two signs differ
        return (a | b) if is_min else (a & b)
    return a if (fa < fb) == is_min else b


def f16(h):
    return struct.unpack('<e', struct.pack('<H', h & 0xffff))[0]


def minmax_nan16(a, b, is_min, bf, ftz=False):
    """min/max.NaN on f16 or bf16 bits: 0x7fff (the H100's canonical NaN) if either is NaN."""
    def val(h):
        if bf:
            return f32(h << 16)
        if ftz and h & 0x7fff < 0x0400:
            h &= 0x8000
        return f16(h)
    fa, fb = val(a), val(b)
    if math.isnan(fa) or math.isnan(fb):
        return 0x7fff
    if ftz and not bf:  # the flushed bit patterns
        a = a & 0x8000 if a & 0x7fff < 0x0400 else a
        b = b & 0x8000 if b & 0x7fff < 0x0400 else b
    if fa == fb:
        return (a | b) if is_min else (a & b)
    return a if (fa < fb) == is_min else b


def pairs(a, b, f):
    return f(a & 0xffff, b & 0xffff) | f(a >> 16, b >> 16) << 16


TANH16_REL = 2.0 ** -10.987 + 2.0 ** -11  # the f32 bound plus rounding to f16


def tanh16_ok(h, got):
    x = f16(h)
    if math.isnan(x):
        return math.isnan(f16(got))
    t = math.tanh(x)
    return abs(f16(got) - t) <= TANH16_REL * abs(t)


def tf32_rna(v):
    """Round to 10 mantissa bits, ties away from zero, low 13 bits zero; NaN truncated."""
    if v & 0x7fffffff > 0x7f800000:
        return v & 0xffffe000
    return ((v + 0x1000) & 0xffffe000) & M32


TANH_REL = 2.0 ** -10.987


def tanh_ok(a, got):
    x = f32(a)
    if math.isnan(x):
        return math.isnan(f32(got))
    t = math.tanh(x)
    g = f32(got)
    return abs(g - t) <= TANH_REL * abs(t)


def approx_ok(w, a, got):
    """Words 26 (tanh.approx.f32), 28 (.f16 of a's low half) and 29 (.f16x2 of a)."""
    if w == 26:
        return tanh_ok(a, got)
    if w == 28:
        return got >> 16 == 0 and tanh16_ok(a & 0xffff, got)
    return tanh16_ok(a & 0xffff, got & 0xffff) and tanh16_ok(a >> 16, got >> 16)


def results(a, b, c, d, n):
    """The words forms.ptx writes (None: tanh, judged by approx_ok)."""
    guarded = (testp_bits(a, False) >> 3 & 1) if b & 1 else c & 1  # @p testp.notanumber
    r = [testp_bits(a, False) | testp_bits(d, True) << 8 | (testp_bits(n, False) >> 4 & 3) << 14 |
         guarded << 16]
    for hi, signed in ((False, False), (True, False), (False, True), (True, True)):
        r.append(mul24(a, b, c, hi, signed, False))
    for hi, signed in ((False, False), (True, False), (False, True), (True, True)):
        r.append(mul24(a, b, c, hi, signed, True))
    r.append(mul24(a, b, c, True, True, True, sat=True))
    r += [slct(a, b, c, False), slct(a, b, c, True), slct(a, b, c, True, ftz=True)]
    for sa, sb in ((False, False), (True, True), (False, True), (True, False)):
        r.append(dot(a, b, c, True, sa, sb))
    r += [dot(a, b, c, False, False, False), dot(a, b, c, False, True, True, hi=True),
          dot(a, b, c, False, True, False), dot(a, b, c, False, False, True, hi=True)]
    r += [minmax_nan(a, b, True, False), minmax_nan(a, b, False, False),
          minmax_nan(a, b, True, True), minmax_nan(a, b, False, True)]
    r += [tf32_rna(a), None]
    r.append(mul24(a, b, c, True, True, True, sat=True) if a & 1 else c)
    r += [None, None,
          pairs(a, b, lambda x, y: minmax_nan16(x, y, True, False)),
          minmax_nan16(a >> 16, b >> 16, False, False, ftz=True),
          pairs(a, b, lambda x, y: minmax_nan16(x, y, True, True)),
          minmax_nan16(a & 0xffff, b & 0xffff, False, True)]
    assert len(r) == NOUT
    return r


def operands(rng, n):
    a, b, c, d = [], [], [], []
    pools = (F32_EDGE, INT_EDGE)
    for i in range(n):
        a.append(rng.choice(pools[i % 2]) if i % 3 else rng.getrandbits(32))
        b.append(rng.choice(pools[(i // 2) % 2]) if i % 5 else rng.getrandbits(32))
        c.append(rng.choice(F32_EDGE + INT_EDGE) if i % 4 else rng.getrandbits(32))
        d.append(rng.choice(F64_EDGE) if i % 2 else rng.getrandbits(64))
    a[:len(F32_EDGE)] = F32_EDGE  # every edge value once as a (testp, tf32, tanh)
    for i in range(0, n - len(F32_EDGE)):  # tanh over the whole range: random exponents
        if i % 7 == 0:
            a[len(F32_EDGE) + i] = rng.getrandbits(1) << 31 | rng.randrange(90, 140) << 23 | \
                rng.getrandbits(23)
    return a, b, c, d


def forms_case():
    rng = random.Random('forms')
    n, block = 512, 128
    a, b, c, d = operands(rng, n)

    def check(outs, wave):
        got, errs = unpack('I', outs[0]), []
        for i in range(n):
            exp = results(a[i], b[i], c[i], d[i], n)
            for w, e in enumerate(exp):
                g = got[i * NOUT + w]
                ok = approx_ok(w, a[i], g) if e is None else g == e
                if not ok:
                    errs.append('forms thread %d word %d: got %#x, expected %s (a=%#x b=%#x c=%#x '
                                'd=%#x)' % (i, w, g, 'tanh within its bound' if e is None
                                            else '%#x' % e, a[i], b[i], c[i], d[i]))
                if len(errs) > 12:
                    return errs
        return errs

    return Case('forms', 'forms', (n // block,), (block,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), In('I', c), In('Q', d), ('u32', n)],
                check)


def cases():
    return [forms_case()]
