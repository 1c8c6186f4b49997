"""Cases for the calls_*.ptx kernels: device functions inlined at their calls (parameters of
mixed types, .param byte arrays, nested calls, callees defined after the caller, several and
divergent returns, calls in loops, .reg parameters, exit in a callee).  The references below
follow the PTX ISA's definitions of the instructions in the callees, written independently of
the compiler."""

import math
import struct

from ref import Case, In, Out, rng_for, s32, M32, M64
from fpref import f32

NOUT = 8  # 64-bit result slots per thread


def u32(v):
    return v & M32


def s16(v):
    v &= 0xffff
    return v - 0x10000 if v >> 15 else v


def cvt_rzi_s32(x):
    """cvt.rzi.s32.{f32,f64}: truncate, saturate to the s32 range, NaN -> 0."""
    if math.isnan(x):
        return 0
    t = math.trunc(x) if math.isfinite(x) else (1 << 31 if x > 0 else -(1 << 31))
    return u32(max(-(1 << 31), min((1 << 31) - 1, t)))


def leaf(x):
    return u32(x * 2654435761 + (x >> 13))


def inner(x):
    return u32(leaf(x ^ 0x5a5a) + 11)


def outer(x):
    return u32(leaf(x) + 2 * leaf(u32(x + 1)) + inner(x))


def mix6(x, y, z, w, c, h):
    r = (x ^ u32(y >> 7)) + s32(cvt_rzi_s32(z)) + 3 * s32(cvt_rzi_s32(w)) + 1000 * (c & 0xff)
    return u32(r + 7 * s16(h))


def check_rows(label, got, rows):
    errs = []
    for i, row in enumerate(rows):
        g = got[i * 8 * NOUT:(i + 1) * 8 * NOUT]
        if g != row:
            errs.append('%s thread %d: got %s, expected %s' % (label, i, g.hex(), row.hex()))
            if len(errs) > 8:
                break
    return errs


def mixed_case():
    rng = rng_for('calls_mixed')
    n, block = 300, 64
    a = [rng.getrandbits(32) for _ in range(n)]
    b = [rng.getrandbits(64) for _ in range(n)]
    f = [f32(rng.uniform(-1e6, 1e6)) for _ in range(n)]
    d = [rng.uniform(-1e8, 1e8) for _ in range(n)]
    f[:4] = [0.0, -0.75, 2.5, -2147483.5]
    a[:4] = [0, 1, 0xffffffff, 0x80ff7f]

    def row(i):
        x, y, z, w = a[i], b[i], f[i], d[i]
        q_re = f32(z * 0.5)
        re = f32(f32(z * q_re) - f32(-z * 3.0))
        im = f32(f32(z * 3.0) + f32(-z * q_re))
        out = bytearray(8 * NOUT)
        struct.pack_into('<I', out, 0, mix6(x, y, z, w, x, x >> 8))
        struct.pack_into('<f', out, 8, re)
        struct.pack_into('<f', out, 16, im)
        struct.pack_into('<Q', out, 24, y ^ x)
        struct.pack_into('<I', out, 32, outer(x))
        struct.pack_into('<I', out, 40, leaf(x) if x & 1 else 5)
        return bytes(out)

    rows = [row(i) for i in range(n)]

    def check(outs, wave):
        return check_rows('calls_mixed', outs[0], rows)

    return Case('calls_mixed', 'calls_mixed', ((n + block - 1) // block,), (block,),
                [Out(8 * NOUT * n), In('I', a), In('Q', b), In('f', f), In('d', d),
                 ('u32', n)], check)


def classify(x):
    if s32(x) == 12345:
        return 42
    if s32(x) < 0:
        return u32(-1)
    if x == 0:
        return 7
    count = 0
    while True:
        count += 1
        x >>= 1
        if x == 1:
            return count + 100
        if x == 0:
            return count


def flow_case():
    rng = rng_for('calls_flow')
    n, block = 300, 64
    a = [rng.getrandbits(32) if i % 3 else rng.randrange(0, 5000) for i in range(n)]
    a[:10] = [12345, 0, 1, 2, 3, 0xffffffff, 0x80000000, 1 << 20, 7, 13]

    def row(i):
        x = a[i]
        out = bytearray(8 * NOUT)
        struct.pack_into('<I', out, 0, classify(x))
        struct.pack_into('<I', out, 8, sum(u32(u32(x + k) ** 2 + 1) for k in range(x & 7)) & M32)
        struct.pack_into('<II', out, 16, x // 7, x % 7)
        struct.pack_into('<I', out, 24, 12 * 12 + 1)
        struct.pack_into('<QQ', out, 32, x * 3, ~(x * 3) & M64)
        struct.pack_into('<I', out, 48, 0 if x % 5 == 3 else 77)
        return bytes(out)

    rows = [row(i) for i in range(n)]

    def check(outs, wave):
        return check_rows('calls_flow', outs[0], rows)

    return Case('calls_flow', 'calls_flow', ((n + block - 1) // block,), (block,),
                [Out(8 * NOUT * n), In('I', a), ('u32', n)], check)


def cases():
    return [mixed_case(), flow_case()]
