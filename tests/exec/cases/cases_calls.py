"""Cases for the calls_*.ptx kernels: device functions inlined at their calls (parameters of
mixed types, .param byte arrays, nested calls, callees defined after the caller, several and
divergent returns, calls in loops, .reg parameters, exit in a callee).  The references below
follow the PTX ISA's definitions of the instructions in the callees, written independently of
the compiler."""

import math
import struct

from ref import Case, In, Out, rng_for, s32, M32, M64, cmp_ints, cmp_floats
from fpref import f32, fma, F64

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
        s8 = (y >> 8 & 0xff) - (0x100 if y >> 15 & 1 else 0)
        struct.pack_into('<I', out, 48, u32((x & 0xff) + 3 * s16(x) + 5 * (y >> 32) +
                                            7 * s16(y >> 16) + 11 * s8))
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


def cl_hash3(a, b, c, s, u):
    """calls_cl.cl's hash3 (C semantics: unsigned arithmetic wraps, (int)c truncates)."""
    return u32(a * 2654435761) ^ u32(b >> 17) ^ u32(math.trunc(c)) ^ u32(u32(s) * 9) ^ \
        u32(u * 65537)


def cl_steps(x):
    if x == 0:
        return u32(-1)
    n = 0
    while x != 1:
        if n > 200:
            return 1000 + n
        x = 3 * x + 1 if x & 1 else x // 2
        n += 1
    return n


def cl_poly(x, n):
    r = 0.0
    for k in range(n, -1, -1):
        r = fma(r, x, float(k + 1), F64)  # OpenCL contracts r * x + c (fma.rn.f64)
    return r


def cl_case():
    rng = rng_for('calls_cl')
    n, block = 256, 64
    a = [rng.getrandbits(32) if i % 2 else rng.randrange(0, 300) for i in range(n)]
    f = [f32(rng.uniform(-1e6, 1e6)) for _ in range(n)]
    out, fout, dout = [], [], []
    for v, x in zip(a, f):
        s = 0.25 * (v & 7)
        fout += [f32(x * s), f32((v & 1023) - s), 0.0]
        acc = 0.0
        for k in range(v & 3):
            acc += cl_poly(k * 0.5, v % 6)
        dout.append(acc)
        twice = u32(cl_hash3(v, u64(v << 20), 1.5, v, v >> 3) +
                    cl_hash3(u32(v + 1), 7, -2.0, -3, 200))
        out += [cl_hash3(v, v * v, x, v >> 4, v & 255), (v ^ 0x55), cl_steps(v % 100000),
                twice, u32(v * 3), u32(~(v * 3))]

    def check(outs, wave):
        return (cmp_ints('out', outs[0], out, 'I') + cmp_floats('fout', outs[1], fout, 32) +
                cmp_floats('dout', outs[2], dout, 64))

    return Case('calls_cl', 'calls_cl', (n // block,), (block,),
                [In('I', a), In('f', f), Out(4 * 6 * n), Out(4 * 3 * n), Out(8 * n),
                 ('u32', n)], check)


def u64(v):
    return v & M64


def ptrmem_case():
    n, block = 200, 64
    exp = [u32(i * 5 + 1) for i in range(n)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')

    return Case('calls_ptrmem', 'calls_ptrmem', ((n + block - 1) // block,), (block,),
                [Out(4 * n), ('u32', n)], check)


IND_FUNCS = (lambda x: u32(x + 7), lambda x: u32(x * 3), lambda x: x ^ 85,
             lambda x: u32(x * x + 1))


def indirect_case(sel):
    """calls_indirect.ptx: tab[i & 3](i) + tab[sel & 3](2i) + (i odd ? f_mul : f_sq)(i + 1)."""
    n, block = 300, 64
    f = IND_FUNCS
    exp = [u32(f[i & 3](i) + f[sel & 3](2 * i) + (f[1] if i & 1 else f[3])(i + 1))
           for i in range(n)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')

    return Case('calls_indirect_sel%d' % sel, 'calls_indirect', ((n + block - 1) // block,),
                (block,), [Out(4 * n), ('u32', sel), ('u32', n)], check)


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def recursive_case():
    """calls_recursive.ptx: per thread fib(i % 15), is_even(i % 23), lsum(i % 9) = 5k(k+1)
    (sum over the frames of k + 2k + 3k + 4k), and 1.5 ** (i % 7) as f32 bits."""
    n, block = 200, 64
    exp = []
    for i in range(n):
        k = i % 9
        exp += [fib(i % 15), 1 if (i % 23) % 2 == 0 else 0, sum(10 * j for j in range(k + 1)),
                struct.unpack('<I', struct.pack('<f', 1.5 ** (i % 7)))[0]]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')

    return Case('calls_recursive', 'calls_recursive', ((n + block - 1) // block,), (block,),
                [Out(16 * n), ('u32', n)], check)


def walk(n, acc, g):
    """calls_recursive_loop.ptx's walk: (n & 3) loop steps acc = acc * 31 + j + n + wtab[j],
    then, for n > 0, acc = walk(max(n - 1 - (n & 1), 0), acc) ^ n; returns acc ^ g (g from
    the thread's special registers), in 64 bits."""
    wtab = (3, 5, 7, 11)
    for j in range(n & 3):
        acc = (acc * 31 + j + n + wtab[j]) & M64
    if n > 0:
        acc = walk(max(n - 1 - (n & 1), 0), acc, g) ^ n
    return acc ^ g


def recursive_loop_case():
    n, block, seed = 150, 64, 1000
    nctaid = (n + block - 1) // block
    exp = [sum(walk(i % 11 + t, i + seed, i + 1000000 * nctaid) for t in range(i % 3)) & M64
           for i in range(n)]

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'Q')

    return Case('calls_recursive_loop', 'calls_recursive_loop', ((n + block - 1) // block,),
                (block,), [Out(8 * n), ('u32', n), ('u32', seed)], check)


def agg(a, n, m):
    """calls_recursive_agg.ptx's agg on the struct {u64 a, u32 n, u32 m} -> {u32 x, u32 y}."""
    if n == 0:
        return a & M32, m
    x, y = agg((3 * a + n) & M64, n - 1, u32(m + n))
    return u32(x + n), y ^ n


def recursive_agg_case():
    n, block = 150, 64
    exp = []
    for i in range(n):
        exp += list(agg(7 * i, i % 9, i))

    def check(outs, wave):
        return cmp_ints('out', outs[0], exp, 'I')

    return Case('calls_recursive_agg', 'calls_recursive_agg', ((n + block - 1) // block,),
                (block,), [Out(8 * n), ('u32', n)], check)


def no_inline(c):
    """The same case compiled with --no-inline: every called function that real calls
    support is compiled on its own and called (docs/CALLS.md); run_ptx.py checks with -v that
    at least one is."""
    v = Case(c.name + '_noinl', c.kernel, c.grid, c.block, c.args, c.check)
    v.ptxas_flags = ['--no-inline']
    v.must_real_call = True
    return v


def cases():
    base = [mixed_case(), flow_case(), cl_case(), ptrmem_case(), indirect_case(2),
            indirect_case(7), recursive_case(), recursive_loop_case(), recursive_agg_case()]
    return base + [no_inline(c) for c in base]
