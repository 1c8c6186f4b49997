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
    msb = width - 1
    pos, ln = b & 0xff, c & 0xff
    sbit = 0 if (not signed or ln == 0) else bit(a, min(pos + ln - 1, msb))
    d = 0
    for i in range(width):
        d |= (bit(a, pos + i) if (i < ln and pos + i <= msb) else sbit) << i
    return d


def bfi(a, b, c, d, width):
    pos, ln = c & 0xff, d & 0xff
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


def cases():
    return [bits_case()]
