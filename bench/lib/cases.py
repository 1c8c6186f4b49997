"""Launches, fixed inputs and CPU references of the benchmark kernels (bench/kernels/src).

Each kernel has one case: a launch (grid in blocks, block in threads, arguments in the order
of the kernel's parameters) and a check of the output buffers against a reference computed
here in Python, independently of any compiler.  Inputs come from random.Random(crc32(name)),
so every run simulates the same work.  Float inputs are small integers or dyadic fractions
wherever the kernel only adds and multiplies, so any evaluation order or fma contraction gives
the exact result and the check is exact; softmax, nbody and dmath (exp, rsqrt, division,
square root) are checked within stated relative bounds.

Argument forms (as amdsim takes them): ('in', bytes), ('out', size), ('inout', bytes),
('i32', v), ('f32', v).  check(outputs) gets {argument index: bytes} for out/inout
arguments and returns None when the results are right, else a one-line reason.
"""

import math
import random
import struct
import zlib


class Case:
    def __init__(self, kernel, grid, block, args, check):
        self.kernel, self.grid, self.block, self.args, self.check = kernel, grid, block, args, check


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def pack(fmt, values):
    return struct.pack('<%d%s' % (len(values), fmt), *values)


def unpack(fmt, data):
    return list(struct.unpack('<%d%s' % (len(data) // struct.calcsize(fmt), fmt), data))


def compare_exact(name, got, want):
    if len(got) < len(want):
        return '%s: %d values, expected %d' % (name, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w and not (isinstance(w, float) and math.isnan(w) and math.isnan(g)):
            return '%s[%d] = %r, expected %r' % (name, i, g, w)
    return None


def compare_close(name, got, want, tolerances):
    for i, (g, w, tol) in enumerate(zip(got, want, tolerances)):
        if not abs(g - w) <= tol:
            return '%s[%d] = %r, expected %r (tolerance %.3g)' % (name, i, g, w, tol)
    return None


def rng_for(name):
    return random.Random(zlib.crc32(name.encode()))


def saxpy():
    rng, n, a = rng_for('saxpy'), 1000, 2.5
    x = [rng.randint(-32, 32) / 4 for _ in range(n)]
    y = [rng.randint(-32, 32) / 4 for _ in range(n)]
    want = [a * xi + yi for xi, yi in zip(x, y)]
    return Case('saxpy', (4,), (256,), [('i32', n), ('f32', a), ('in', pack('f', x)),
                                         ('inout', pack('f', y))],
                lambda out: compare_exact('y', unpack('f', out[3]), want))


def reduce_warp():
    rng, n, blocks = rng_for('reduce_warp'), 4096, 4
    values = [float(rng.randint(-50, 50)) for _ in range(n)]
    want = [0.0] * blocks
    for i, v in enumerate(values):
        want[(i // 256) % blocks] += v
    return Case('reduce_warp', (blocks,), (256,), [('in', pack('f', values)),
                                                    ('out', 4 * blocks), ('i32', n)],
                lambda out: compare_exact('partial', unpack('f', out[1]), want))


def matmul(a, b, m, n, k):
    return [float(sum(a[r * k + i] * b[i * n + c] for i in range(k)))
            for r in range(m) for c in range(n)]


def sgemm(name, m, n, k, grid):
    rng = rng_for(name)
    a = [float(rng.randint(-3, 3)) for _ in range(m * k)]
    b = [float(rng.randint(-3, 3)) for _ in range(k * n)]
    want = matmul(a, b, m, n, k)
    return Case(name, grid, (16, 16), [('in', pack('f', a)), ('in', pack('f', b)),
                                        ('out', 4 * m * n), ('i32', m), ('i32', n), ('i32', k)],
                lambda out: compare_exact('c', unpack('f', out[2]), want))


def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def hgemm_mma(m=64, n=64, k=64):
    """f16 A (m x k) and B (k x n) of small integers, f32 C: every sum is exact."""
    rng = rng_for('hgemm_mma')
    a = [float(rng.randint(-3, 3)) for _ in range(m * k)]
    b = [float(rng.randint(-3, 3)) for _ in range(k * n)]
    want = matmul(a, b, m, n, k)
    return Case('hgemm_mma', (n // 16, m // 32), (64,),
                [('in', pack('H', [f16_bits(x) for x in a])),
                 ('in', pack('H', [f16_bits(x) for x in b])), ('out', 4 * m * n), ('i32', m),
                 ('i32', n), ('i32', k)],
                lambda out: compare_exact('c', unpack('f', out[2]), want))


def stencil2d():
    rng, w, h = rng_for('stencil2d'), 40, 24
    grid = [rng.randint(-64, 64) / 8 for _ in range(w * h)]

    def at(x, y):
        return grid[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)]

    want = [0.5 * at(x, y) + 0.125 * (at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y))
            for y in range(h) for x in range(w)]
    return Case('stencil2d', (3, 2), (16, 16), [('in', pack('f', grid)), ('out', 4 * w * h),
                                                 ('i32', w), ('i32', h)],
                lambda out: compare_exact('out', unpack('f', out[1]), want))


def histogram():
    rng, nwords = rng_for('histogram'), 3000
    words = [rng.getrandbits(32) for _ in range(nwords)]
    want = [0] * 256
    for w in words:
        for shift in (0, 8, 16, 24):
            want[(w >> shift) & 255] += 1
    return Case('histogram', (2,), (256,), [('in', pack('I', words)), ('i32', nwords),
                                             ('out', 4 * 256)],
                lambda out: compare_exact('bins', unpack('I', out[2]), want))


def softmax():
    rng, rows, n = rng_for('softmax'), 4, 300
    x = [f32(rng.uniform(-4, 4)) for _ in range(rows * n)]
    want = []
    for r in range(rows):
        row = x[r * n:(r + 1) * n]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        want += [v / s for v in e]
    tol = [2e-5 * w + 1e-8 for w in want]
    return Case('softmax', (rows,), (128,), [('in', pack('f', x)), ('out', 4 * rows * n),
                                              ('i32', n)],
                lambda out: compare_close('out', unpack('f', out[1]), want, tol))


def scan():
    rng, blocks = rng_for('scan'), 4
    values = [rng.randint(-100, 100) for _ in range(256 * blocks)]
    want, acc = [], 0
    for i, v in enumerate(values):
        acc = v if i % 256 == 0 else acc + v
        want.append(acc)
    return Case('scan', (blocks,), (256,), [('in', pack('i', values)),
                                             ('out', 4 * len(values))],
                lambda out: compare_exact('out', unpack('i', out[1]), want))


def transpose():
    rng, rows, cols = rng_for('transpose'), 64, 96
    m = [float(rng.randint(-1000, 1000)) for _ in range(rows * cols)]
    want = [m[r * cols + c] for c in range(cols) for r in range(rows)]
    return Case('transpose', (cols // 32, rows // 32), (32, 8),
                [('in', pack('f', m)), ('out', 4 * rows * cols), ('i32', rows), ('i32', cols)],
                lambda out: compare_exact('out', unpack('f', out[1]), want))


def nbody():
    rng, n, dt = rng_for('nbody'), 256, 0.01
    pos, vel = [], []
    for _ in range(n):
        pos += [f32(rng.uniform(-1, 1)) for _ in range(3)] + [f32(rng.uniform(0.5, 1.5))]
        vel += [f32(rng.uniform(-0.1, 0.1)) for _ in range(3)] + [0.0]
    want_pos, want_vel, tol_pos, tol_vel = [], [], [], []
    for i in range(n):
        acc, mag = [0.0] * 3, 0.0
        for j in range(n):
            d = [pos[4 * j + c] - pos[4 * i + c] for c in range(3)]
            d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + f32(0.01)
            s = pos[4 * j + 3] / d2 ** 1.5
            for c in range(3):
                acc[c] += d[c] * s
            mag += math.sqrt(d2 - f32(0.01)) * s
        for c in range(3):
            v = vel[4 * i + c] + f32(dt) * acc[c]
            tv = 4e-5 * (abs(vel[4 * i + c]) + dt * mag) + 1e-7
            want_vel.append(v)
            tol_vel.append(tv)
            want_pos.append(pos[4 * i + c] + f32(dt) * v)
            tol_pos.append(4e-5 * (abs(pos[4 * i + c]) + dt * abs(v)) + dt * tv + 1e-7)
        want_vel.append(0.0)
        tol_vel.append(0.0)
        want_pos.append(pos[4 * i + 3])
        tol_pos.append(0.0)

    def check(out):
        return (compare_close('vel_out', unpack('f', out[3]), want_vel, tol_vel) or
                compare_close('pos_out', unpack('f', out[2]), want_pos, tol_pos))

    return Case('nbody', (n // 128,), (128,), [('in', pack('f', pos)), ('in', pack('f', vel)),
                                                ('out', 16 * n), ('out', 16 * n), ('i32', n),
                                                ('f32', dt)], check)


def dmath():
    rng, n = rng_for('dmath'), 500
    x = [rng.uniform(-1, 1) for _ in range(n)]
    want = []
    for i, v in enumerate(x):
        r = math.sqrt(v * v + 2.0)
        r = 0.5 * (r + (v * v + 2.0) / r)
        e = sum(v ** p / math.factorial(p) for p in range(13))
        cf = 1.0
        for d in range(4 + (i & 7), 0, -1):
            cf = 1.0 + v / (d + cf)
        want += [r, e / r, cf]
    tol = [1e-13 * abs(w) for w in want]
    return Case('dmath', (4,), (128,), [('in', pack('d', x)), ('out', 24 * n), ('i32', n)],
                lambda out: compare_close('out', unpack('d', out[1]), want, tol))


def hash_reference(key, i):
    m32, m64 = 0xffffffff, 0xffffffffffffffff
    h, z = key, (key << 32) | i
    for r in range(16):
        h ^= h >> 16
        h = (h * 0x85ebca6b) & m32
        h ^= h >> 13
        h = (h * 0xc2b2ae35) & m32
        h ^= h >> 16
        h = (h + r * 0x9e3779b9) & m32
        z = (z + 0x9e3779b97f4a7c15) & m64
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & m64
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & m64
        z ^= z >> 31
    return [h ^ (z & m32), z >> 32]


def hash_case():
    rng, n = rng_for('hash'), 1000
    keys = [rng.getrandbits(32) for _ in range(n)]
    want = []
    for i, key in enumerate(keys):
        want += hash_reference(key, i)
    return Case('hash', (4,), (256,), [('in', pack('I', keys)), ('out', 8 * n), ('i32', n)],
                lambda out: compare_exact('out', unpack('I', out[1]), want))


def chacha_rounds(s, rounds):
    m32 = 0xffffffff

    def rotl(v, c):
        return ((v << c) | (v >> (32 - c))) & m32

    def quarter(a, b, c, d):
        s[a] = (s[a] + s[b]) & m32
        s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & m32
        s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & m32
        s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & m32
        s[b] = rotl(s[b] ^ s[c], 7)

    k = 0x243f6a88
    for _ in range(rounds):
        for q in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                  (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            quarter(*q)
        k = (k * 1664525 + 1013904223) & m32
        s[0] = (s[0] + k) & m32
    return s


def big_unrolled():
    rng, threads = rng_for('big_unrolled'), 64
    words = [rng.getrandbits(32) for _ in range(16 * threads)]
    want = []
    for t in range(threads):
        want += chacha_rounds(words[16 * t:16 * t + 16], 256)
    return Case('big_unrolled', (1,), (64,), [('in', pack('I', words)),
                                               ('out', 64 * threads)],
                lambda out: compare_exact('out', unpack('I', out[1]), want))


MAKERS = {
    'saxpy': saxpy,
    'reduce_warp': reduce_warp,
    'sgemm_tiled': lambda: sgemm('sgemm_tiled', 64, 64, 32, (4, 4)),
    'sgemm_reg8x8': lambda: sgemm('sgemm_reg8x8', 128, 128, 32, (1, 1)),
    'hgemm_mma': hgemm_mma,
    'stencil2d': stencil2d,
    'histogram': histogram,
    'softmax': softmax,
    'scan': scan,
    'transpose': transpose,
    'nbody': nbody,
    'dmath': dmath,
    'hash': hash_case,
    'big_unrolled': big_unrolled,
}


def make_case(name):
    """The case of kernel `name`, or None when the kernel has no case (not simulated)."""
    maker = MAKERS.get(name)
    return maker() if maker else None
