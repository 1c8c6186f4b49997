"""Cases for tests/exec/ptx/arith_*.ptx: shf, bfe/bfi, prmt, bfind, 64-bit bit counts, mul.hi,
div/rem .u64/.s64, sqrt.rn, 16-bit integers and f16 conversions.  The references below are
written from the PTX ISA's definitions of each instruction (its pseudo-code), in plain
Python integers, and from Python's own IEEE arithmetic (math.sqrt is correctly rounded;
struct's 'e' format rounds to nearest even), never from the compiler's output."""

import math
import random
import struct

from ref import Case, In, Out, unpack, s32, s64, M32, M64

M16 = 0xffff


def u32(v):
    return v & M32


def u64(v):
    return v & M64


def bit(v, i):
    return (v >> i) & 1


# ---------------------------------------------------------------- PTX definitions

def shf(a, b, c, left, clamp):
    n = min(c, 32) if clamp else c & 31
    if left:
        return u32((b << n) | (a >> (32 - n)))
    return u32((b << (32 - n)) | (a >> n))


def bfe(a, b, c, signed, width):
    """The ISA's pseudo-code, except that the .64 forms take the whole 32-bit position and
    length operands as NVIDIA hardware does (hwint_ref.py, docs/SEMANTICS.md; arith_bits
    results 8, 9, 11 in ../shared/ptx-hw/exec/replay-1ff6e20.txt)."""
    msb = width - 1
    pos, ln = (b & 0xff, c & 0xff) if width == 32 else (b & M32, c & M32)
    sbit = 0 if (not signed or ln == 0) else bit(a, min(pos + ln - 1, msb))
    d = 0
    for i in range(width):
        d |= (bit(a, pos + i) if (i < ln and pos + i <= msb) else sbit) << i
    return d


def bfi(a, b, c, d, width):
    pos, ln = (c & 0xff, d & 0xff) if width == 32 else (c & M32, d & M32)  # as bfe
    f = b
    i = 0
    while i < ln and pos + i <= width - 1:
        f = (f & ~(1 << (pos + i))) | (bit(a, i) << (pos + i))
        i += 1
    return f


PRMT_MODES = {  # d.b0 .. d.b3 for c[1:0] = 0..3 (the ISA's table, listed low byte first)
    'f4e': [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    'b4e': [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    'rc8': [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    'ecl': [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    'ecr': [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    'rc16': [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}


def prmt(a, b, c, mode=None):
    src = (b << 32) | a
    d = 0
    for i in range(4):
        if mode is None:
            ctl = (c >> (4 * i)) & 15
            byte = (src >> (8 * (ctl & 7))) & 0xff
            if ctl & 8:
                byte = 0xff if byte & 0x80 else 0
        else:
            byte = (src >> (8 * PRMT_MODES[mode][c & 3][i])) & 0xff
        d |= byte << (8 * i)
    return d


def bfind(a, width, signed, shiftamt):
    if signed and bit(a, width - 1):
        a = ~a & ((1 << width) - 1)
    if a == 0:
        return M32
    pos = a.bit_length() - 1
    return (width - 1 - pos) if shiftamt else pos


def brev(v, width):
    return int('{:0{w}b}'.format(v, w=width)[::-1], 2)


def mulhi(a, b, signed):
    if signed:
        return u64((s64(a) * s64(b)) >> 64)
    return (a * b) >> 64


# ---------------------------------------------------------------- helpers

def interesting32(rng):
    return rng.choice([0, 1, 2, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff,
                       0xfffffffe, 0x80, 0x7f, 0xff, 0x100, 0x8000, 0xffff8000,
                       rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(8),
                       rng.getrandbits(16), 1 << rng.randrange(32)])


def interesting64(rng):
    return rng.choice([0, 1, 2, M64, M64 - 1, 1 << 63, (1 << 63) - 1, 1 << 32, M32,
                       (1 << 32) + 1, rng.getrandbits(64), rng.getrandbits(64),
                       rng.getrandbits(33), rng.getrandbits(40), 1 << rng.randrange(64),
                       u64(-rng.getrandbits(20))])


def pos_len(rng):
    """A 64-bit value whose halves are bfe/bfi/shf position and length operands: small,
    near the word widths, or with garbage above the low byte."""
    def one():
        return rng.choice([0, 1, 5, 8, 16, 24, 31, 32, 33, 40, 63, 64, 65, 127, 200, 255, 256,
                           257, 0x120, rng.getrandbits(8), rng.getrandbits(32),
                           rng.randrange(70)])
    return one() | one() << 32


def checker(name, nout, expect, inputs):
    def check(outs, wave):
        got = unpack('Q', outs[0])
        exp = expect()
        errs = []
        for k, (g, e) in enumerate(zip(got, exp)):
            if e is not None and g != e:
                errs.append('%s thread %d result %d: got %#x, expected %#x (inputs %s)'
                            % (name, k // nout, k % nout, g, e,
                               ' '.join('%#x' % v[k // nout] for v in inputs)))
                if len(errs) > 12:
                    break
        return errs
    return check


# ---------------------------------------------------------------- arith_bits

def bits_case():
    rng = random.Random('arith_bits')
    n, block = 512, 128
    a = [interesting32(rng) for _ in range(n)]
    b = [interesting32(rng) for _ in range(n)]
    c = [pos_len(rng) if i % 4 else interesting64(rng) for i in range(n)]
    d = [interesting64(rng) for _ in range(n)]
    for i in range(0, n, 7):  # prmt selectors with every nibble pattern
        c[i] = (c[i] & ~0xffff) | rng.getrandbits(16)
    nout = 40

    def results(x, y, z, w, ux, uy, uz, uw):
        p, ln = z & M32, z >> 32
        up, ul = uz & M32, uz >> 32
        r = [0] * nout
        r[0] = shf(x, y, p, True, False)
        r[1] = shf(x, y, p, False, False)
        r[2] = shf(x, y, p, True, True)
        r[3] = shf(x, y, p, False, True)
        r[4] = shf(x, y, 13, True, False)
        r[5] = shf(x, y, 40, False, True)
        r[6] = bfe(x, p, ln, False, 32)
        r[7] = bfe(x, p, ln, True, 32)
        r[8] = bfe(w, p, ln, False, 64)
        r[9] = bfe(w, p, ln, True, 64)
        r[10] = bfi(x, y, p, ln, 32)
        r[11] = bfi(w, z, p, ln, 64)
        r[12] = prmt(x, y, p)
        r[13] = prmt(x, y, 0x8e3b)
        r[14] = prmt(x, y, 0x5140)
        for j, mode in enumerate(['f4e', 'b4e', 'rc8', 'ecl', 'ecr', 'rc16']):
            r[15 + j] = prmt(x, y, p, mode)
        r[21] = prmt(x, y, 2, 'b4e')
        r[22] = bfind(x, 32, False, False)
        r[23] = bfind(x, 32, True, False)
        r[24] = bfind(w, 64, False, True)
        r[25] = bfind(w, 64, True, False)
        r[26] = 64 - w.bit_length()
        r[27] = bin(w).count('1')
        r[28] = brev(w, 64)
        r[29] = mulhi(w, z, False)
        r[30] = mulhi(w, z, True)
        r[31] = bfind(x, 32, True, True)
        r[32] = shf(ux, uy, up, True, False)
        r[33] = shf(ux, uy, up, False, True)
        r[34] = bfe(ux, up, ul, True, 32)
        r[35] = bfi(uw, uz, up, ul, 64)
        r[36] = prmt(ux, uy, up)
        r[37] = 64 - uw.bit_length()
        r[38] = brev(uw, 64)
        r[39] = mulhi(uw, uz, False)
        return r

    def expect():
        out = []
        for i in range(n):
            g = i // block
            out += results(a[i], b[i], c[i], d[i], a[g], b[g], c[g], d[g])
        return out

    return Case('arith_bits', 'arith_bits', (n // block,), (block,),
                [Out(8 * nout * n), In('I', a), In('I', b), In('Q', c), In('Q', d), ('u32', n)],
                checker('arith_bits', nout, expect, [a, b, c, d]))


# ---------------------------------------------------------------- arith_div64

def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# Division by zero, which PTX leaves machine-specific, gives all ones for the quotient and the
# remainder, signed or unsigned, on NVIDIA hardware (../shared/ptx-hw/exec/replay-1ff6e20.txt,
# arith_div64; the random kernels agree: hwint_ref.py, docs/SEMANTICS.md).

def div_u64(x, y):
    return M64 if y == 0 else x // y


def rem_u64(x, y):
    return M64 if y == 0 else x % y


def div_s64(x, y):
    sx, sy = s64(x), s64(y)
    if sy == 0:
        return M64
    return u64(tdiv(sx, sy))


def rem_s64(x, y):
    sx, sy = s64(x), s64(y)
    if sy == 0:
        return M64
    return u64(sx - sy * tdiv(sx, sy))


def div_operands(rng, n):
    a, b = [], []
    for i in range(n):
        kind = i % 6
        if kind == 0:
            x, y = interesting64(rng), interesting64(rng)
        elif kind == 1:  # both fit 32 bits
            x, y = rng.getrandbits(32), rng.getrandbits(rng.randrange(1, 33))
        elif kind == 2:  # small divisors, either sign
            x, y = rng.getrandbits(64), u64(rng.randrange(-300, 300))
        elif kind == 3:  # divisor near the dividend
            x = rng.getrandbits(64)
            y = u64(x + rng.randrange(-3, 4)) if rng.random() < 0.5 else x >> rng.randrange(1, 8)
        elif kind == 4:  # quotient just below a power of two / remainder just below y
            y = rng.getrandbits(rng.randrange(2, 64)) | 1
            q = rng.getrandbits(rng.randrange(1, 64))
            x = u64(q * y + y - 1)
        else:
            x, y = rng.getrandbits(rng.randrange(1, 65)), rng.getrandbits(rng.randrange(1, 65))
        a.append(x)
        b.append(y)
    edges = [(0, 0), (5, 0), (u64(-5), 0), (1 << 63, M64), (1 << 63, 1), (M64, 1), (M64, M64),
             (M64, 2), ((1 << 63) - 1, M64), (0, 1), (1 << 63, (1 << 63) + 1), (M64, 3),
             (M64, (1 << 32) + 1), (M64, 1 << 63), (123456789, 1 << 32)]
    for k, (x, y) in enumerate(edges):
        a[k], b[k] = x, y
    return a, b


def div64_case():
    rng = random.Random('arith_div64')
    n, block = 1024, 128
    a, b = div_operands(rng, n)
    nout = 8

    def expect():
        out = []
        for i in range(n):
            x, y, g = a[i], b[i], i // block
            out += [div_u64(x, y), rem_u64(x, y), div_s64(x, y), rem_s64(x, y),
                    div_u64(a[g], b[g]), rem_s64(a[g], b[g]), x // 10, rem_s64(x, u64(-7))]
        return out

    return Case('arith_div64', 'arith_div64', (n // block,), (block,),
                [Out(8 * nout * n), In('Q', a), In('Q', b), ('u32', n)],
                checker('arith_div64', nout, expect, [a, b]))


# ---------------------------------------------------------------- arith_float

def f32_of(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def f32_bits(v):
    try:
        return struct.unpack('<I', struct.pack('<f', v))[0]
    except OverflowError:
        return 0x7f800000 if v > 0 else 0xff800000


def f64_of(bits):
    return struct.unpack('<d', struct.pack('<Q', bits))[0]


def f64_bits(v):
    return struct.unpack('<Q', struct.pack('<d', v))[0]


def is_nan32(b):
    return (b & 0x7f800000) == 0x7f800000 and b & 0x7fffff


def is_nan64(b):
    return (b >> 52 & 0x7ff) == 0x7ff and b & ((1 << 52) - 1)


def sqrt_ref(v):
    """sqrt per IEEE 754: -0 -> -0, negative -> NaN."""
    if math.isnan(v) or (v < 0):
        return math.nan
    return math.sqrt(v)


def f16_bits(v):
    """Round to nearest even into IEEE binary16 (struct's 'e' rounds correctly)."""
    if math.isnan(v):
        return 0x7e00
    try:
        return struct.unpack('<H', struct.pack('<e', v))[0]
    except OverflowError:
        return 0x7c00 if v > 0 else 0xfc00


def f16_of(bits):
    return struct.unpack('<e', struct.pack('<H', bits))[0]


F32_EDGE = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 1, 2, 0x7fffff,
            0x800001, 0x00800000, 0x3f800000, 0x40800000, 0x7f7fffff, 0xbf800000, 0x0f7fffff,
            0x0f800000, 0x0f800001, 0x477fe000, 0x477ff000, 0x477fefff, 0x38800000, 0x33800000,
            0x33000000, 0x33000001, 0x387fc000, 0x3f800001, 0x40000000, 0x3effffff]
F64_EDGE = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 1, 2,
            0x000fffffffffffff, 0x0010000000000000, 0x3ff0000000000000, 0x4010000000000000,
            0x7fefffffffffffff, 0xbff0000000000000, 0x0fffffffffffffff, 0x1000000000000000,
            0x1000000000000001, 0x3ff0000000000001, 0x4000000000000000, 0x3fefffffffffffff]
F16_EDGE = [0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0xbc00, 0x8001]


def float_operands(rng, n):
    a, b = [], []
    for i in range(n):
        if i < len(F32_EDGE):
            f = F32_EDGE[i]
        elif i % 3 == 0:
            f = rng.getrandbits(32)
        elif i % 3 == 1:
            f = rng.getrandbits(23) | rng.randrange(0, 256) << 23  # positive, any exponent
        else:
            f = rng.getrandbits(23)  # denormals
        h = F16_EDGE[i % len(F16_EDGE)] if i % 2 else rng.getrandbits(16)
        a.append(f | h << 32)
        if i < len(F64_EDGE):
            d = F64_EDGE[i]
        elif i % 3 == 0:
            d = rng.getrandbits(64)
        elif i % 3 == 1:
            d = rng.getrandbits(52) | rng.randrange(0, 2047) << 52
        else:
            d = rng.getrandbits(52)
        b.append(d)
    return a, b


def int_to_f32(v):
    """An integer rounded to the nearest f32 (ties to even), exactly."""
    m = abs(v)
    shift = max(m.bit_length() - 24, 0)
    q, rem = divmod(m, 1 << shift)
    if shift and (rem > 1 << (shift - 1) or (rem == 1 << (shift - 1) and q & 1)):
        q += 1
    return math.copysign(float(q << shift), v) if v else 0.0


def close_rel(got, ref, tol):
    if math.isnan(ref):
        return math.isnan(got)
    if math.isinf(ref) or ref == 0:
        return got == ref
    return abs(got - ref) <= tol * abs(ref)


def float_case():
    rng = random.Random('arith_float')
    n, block = 1024, 128
    a, b = float_operands(rng, n)
    for i in range(40, n, 5):  # integral-range values for the float -> integer conversions
        v = rng.uniform(-2.0 ** rng.randrange(1, 66), 2.0 ** rng.randrange(1, 66))
        b[i] = f64_bits(v)
        a[i] = (a[i] & ~M32) | f32_bits(v)
    for i in range(41, n, 5):  # integers near rounding ties for the 64-bit -> f32 conversion
        sh = rng.randrange(0, 40)
        v = (rng.getrandbits(25) | 1 << 24) << sh | rng.choice([0, 1 << max(sh - 1, 0), 1])
        a[i] = u64(-v) if i % 2 else v
    nout = 24

    def exact32(bits_in, got):
        ref = sqrt_ref(f32_of(bits_in))
        e = f32_bits(ref)
        return (is_nan32(got) and math.isnan(ref)) or got == e, e

    def exact64(bits_in, got):
        ref = sqrt_ref(f64_of(bits_in))
        e = f64_bits(ref)
        return (is_nan64(got) and math.isnan(ref)) or got == e, e

    def cvt_f16(bits_in, got):
        e = f16_bits(f32_of(bits_in))
        return ((e & 0x7fff) > 0x7c00 and (got & 0x7fff) > 0x7c00 and got < 0x10000) or got == e, e

    def check(outs, wave):
        got = unpack('Q', outs[0])
        errs = []
        for i in range(n):
            g = i // block
            fa, h, fb = a[i] & M32, a[i] >> 32 & 0xffff, b[i]
            r = got[i * nout:(i + 1) * nout]
            res = [exact32(fa, r[0]), exact64(fb, r[1])]
            approx = sqrt_ref(f32_of(fa))
            # sqrt.approx.f32: the PTX ISA's bound, relative error 2^-23 over the positive range
            ok = r[2] < (1 << 32) and close_rel(f32_of(r[2] & M32), approx, 2.0 ** -23)
            res.append((ok, f32_bits(approx)))
            x = f64_of(fb)
            rs = (math.nan if math.isnan(x) or x < 0 else
                  math.copysign(math.inf, x) if x == 0 else 0.0 if math.isinf(x) else
                  1 / math.sqrt(x))
            res.append((close_rel(f64_of(r[3]), rs, 2.0 ** -20), f64_bits(rs)))
            res.append(cvt_f16(fa, r[4]))
            hv = f16_of(h)
            e5 = 0x7fc00000 if math.isnan(hv) else f32_bits(hv)
            res.append(((is_nan32(r[5]) and math.isnan(hv)) or r[5] == e5, e5))
            e6 = f64_bits(hv)
            res.append(((is_nan64(r[6]) and math.isnan(hv)) or r[6] == e6, e6))
            res.append(exact32(a[g] & M32, r[7]))
            res.append(exact64(b[g], r[8]))
            res.append(cvt_f16(a[g] & M32, r[9]))
            for k, (v, rnd, sg) in enumerate([(f64_of(fb), 'rzi', True), (f64_of(fb), 'rni', False),
                                              (f32_of(fa), 'rzi', True), (f32_of(fa), 'rmi', False)]):
                e = cvt_f2i(v, rnd, 64, sg)
                res.append((r[10 + k] == e, e))
            e = f64_bits(float(s64(fb)))  # Python's int -> float rounds to nearest even
            res.append((r[14] == e, e))
            for v in (fb, s64(a[i])):
                e = f32_bits(int_to_f32(v))
                res.append((r[len(res)] == e, e))
            e = f64_bits(float(a[i]))
            res.append((r[17] == e, e))
            h2 = a[i] >> 48
            x, y = f16_of(h), f16_of(h2)
            for v in (x + y, x - y, x * y, x * y + x):  # exact in double, then one rounding
                e = f16_bits(v)
                g16 = r[len(res)]
                res.append(((e & 0x7fff) > 0x7c00 and (g16 & 0x7fff) > 0x7c00 and g16 < 0x10000
                            or g16 == e, e))
            # neg.f16, abs.f16: "NaN inputs yield an unspecified NaN" (PTX ISA; the H100 gives
            # 0x7fff, AMD flips or clears the sign bit of the payload)
            for k, (v, e) in enumerate(((h, h ^ 0x8000), (h2, h2 & 0x7fff))):
                g16 = r[22 + k]
                res.append((g16 == e or ((v & 0x7fff) > 0x7c00 and (g16 & 0x7fff) > 0x7c00 and
                                         g16 < 0x10000), e))
            for k, (ok, e) in enumerate(res):
                if not ok:
                    errs.append('arith_float thread %d result %d: got %#x, expected %#x '
                                '(inputs %#x %#x)' % (i, k, r[k], e, a[i], b[i]))
            if len(errs) > 12:
                break
        return errs

    return Case('arith_float', 'arith_float', (n // block,), (block,),
                [Out(8 * nout * n), In('Q', a), In('Q', b), ('u32', n)], check)


# ---------------------------------------------------------------- arith_int16

def s16(v):
    v &= M16
    return v - 0x10000 if v >> 15 else v


def sh16(x, amt, kind):
    if kind == 'shl':
        return (x << amt) & M16 if amt < 16 else 0
    if kind == 'shr.u':
        return x >> amt if amt < 16 else 0
    return (s16(x) >> min(amt, 15)) & M16


def cvt_f2i(v, rnd, bits, signed):
    """cvt.rni/rzi.{s,u}BITS.f32: round, saturate to the type's range.  NaN: 0 below 64 bits
    (only the f32 sources reach here with those), 0x8000000000000000 for 64 bits (.s and .u,
    from f32 and f64): what an sm_90 GPU computes (../shared/ptx-hw/exec replay)."""
    if math.isnan(v):
        return 1 << 63 if bits == 64 else 0
    if math.isinf(v):
        r = v
    else:
        r = (round(v) if rnd == 'rni' else math.floor(v) if rnd == 'rmi' else
             math.trunc(v))  # round(): ties to even
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return int(max(lo, min(hi, r))) & ((1 << bits) - 1)


def int16_results(x, y, z, amt, v32, f13, ux, uy, uamt):
    r = [0] * 40
    sx, sy = s16(x), s16(y)
    r[0] = (x + y) & M16
    r[1] = (x - y) & M16
    r[2] = (x * y) & M16
    r[3] = ((sx * sy) >> 16) & M16
    r[4] = (x * y) >> 16
    r[5] = (sx * sy) & M32
    r[6] = (sx * sy + s16(z)) & M16
    r[7] = sh16(x, amt, 'shl')
    r[8] = sh16(x, amt, 'shr.u')
    r[9] = sh16(x, amt, 'shr.s')
    r[10] = min(sx, sy) & M16
    r[11] = max(x, y)
    r[12] = M16 if sy == 0 else tdiv(sx, sy) & M16  # x/0, x%0: all ones (as div_u64)
    r[13] = M16 if y == 0 else x % y
    r[14] = -sx & M16
    r[15] = abs(sx) & M16
    r[16] = ~x & M16
    r[17] = x ^ y
    r[18] = 1 if sx < sy else 0
    r[19] = 1 if x > y else 0
    r[20] = sx & M32
    r[21] = x
    r[22] = sx & M64
    r[23] = v32 & M16
    r[24] = (x & 0xff) - (0x100 if x & 0x80 else 0) & M16
    r[25] = cvt_f2i(f13, 'rni', 16, True)
    r[26] = cvt_f2i(f13, 'rzi', 16, False)
    r[27] = f32_bits(float(sx))
    r[28] = (ux + uy) & M16
    r[29] = sh16(ux, uamt, 'shr.s')
    r[30] = 1 if s16(ux) < s16(uy) else 0
    r[31] = x  # ld.s16 into a 16-bit register, stored as 16 bits
    r[32] = x
    r[33] = (sx + 1000) & M16
    return r


def int16_case():
    rng = random.Random('arith_int16')
    n, block = 1024, 128
    e16 = [0, 1, 2, 0x7fff, 0x8000, 0xffff, 0xfffe, 0x7f, 0x80, 0xff, 0x100, 0xff80, 15, 16, 17]
    a, b = [], []
    for i in range(n):
        h = [rng.choice(e16) if rng.random() < 0.4 else rng.getrandbits(16) for _ in range(3)]
        a.append(h[0] | h[1] << 16 | h[2] << 32 | rng.getrandbits(16) << 48)
        amt = rng.choice([0, 1, 7, 15, 16, 17, 31, 32, 33, 100, 255, rng.getrandbits(5)])
        f = rng.choice([rng.getrandbits(32), f32_bits(rng.uniform(-70000, 70000)),
                        f32_bits(rng.uniform(-40, 40)), f32_bits(rng.randrange(-3, 4) + 0.5),
                        0x7fc00000, 0xff800000, 0x7f800000, f32_bits(65535.7),
                        f32_bits(-32768.6), f32_bits(32767.5)])
        b.append(amt | f << 32)
    nout = 40

    def expect():
        out = []
        for i in range(n):
            x, y, z = a[i] & M16, a[i] >> 16 & M16, a[i] >> 32 & M16
            amt, v32 = b[i] & M32, b[i] >> 32
            g = i // block
            ux, uy, uamt = a[g] & M16, a[g] >> 16 & M16, b[g] & M32
            out += int16_results(x, y, z, amt, v32, f32_of(v32), ux, uy, uamt)
        return out

    return Case('arith_int16', 'arith_int16', (n // block,), (block,),
                [Out(8 * nout * n), In('Q', a), In('Q', b), ('u32', n)],
                checker('arith_int16', nout, expect, [a, b]))


def cases():
    return [bits_case(), div64_case(), float_case(), int16_case()]
