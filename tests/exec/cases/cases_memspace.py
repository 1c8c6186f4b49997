"""Module variables (.global/.const) and .local memory: tests/exec/ptx/memspace_*.ptx.

References are written from the PTX ISA's definitions of the kernels' instructions and the
variables' initializers (and, for memspace_depot, from the CUDA source nvcc compiled),
never from ptxas-amd's output.
"""

import random
import struct

from ref import Case, In, Out, unpack, s32, M32, M64

CTAB = [11, 22, 33, 44, 55, 66, 77, 88]
DTAB = [1.5, -2.25]
HALF_TAB = [1, 65535, 300, 7, 9]
BYTES = [250, 1, 2, 3, 0, 0]
# grid2[3][4] = {{1,2,3,4},{5,6},{9,10,11,12}} as NVIDIA's ptxas lays it out: the lists follow
# one another, the short row {5,6} is not padded (the PTX ISA says "as in C", which would pad
# it: 5,6,0,0,9,...; the H100 replay read 9 and 10 at grid2[1][2..3]; docs/TESTS_ON_NVIDIA.md)
GRID2 = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 0, 0]
PAIRS = [(7, 8), (9, 10)]
FVALS = [1.5, -2.5]
ACC0 = [1, 2, 3] + [0] * 61


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64_words(x):
    return list(struct.unpack('<II', struct.pack('<d', x)))


def global_case():
    n = 64

    def expect():
        zeros = [t * t + 1 for t in range(n)]
        acc = [ACC0[t] + 10 * t for t in range(n)]
        out = []
        for t in range(n):
            w = [0] * 14
            w[0] = CTAB[t & 7]
            w[1] = HALF_TAB[t % 5]
            w[2] = (BYTES[t % 6] - 256 if BYTES[t % 6] > 127 else BYTES[t % 6]) & M32
            w[3] = GRID2[4 * (t % 3) + (t & 3)]
            x, y = PAIRS[t & 1]
            w[4] = x + 256 * y
            w[5] = zeros[63 - t]
            w[6] = GRID2[t % 12]
            w[7] = GRID2[4 + (t & 3)]
            w[8] = CTAB[(t + 3) & 7]
            w[9] = f32_bits(2 * FVALS[t & 1])
            w[10], w[11] = f64_words(DTAB[t & 1])
            w[12] = acc[(t + 1) & 63]
            w[13] = GRID2[11]
            out += w
        return out

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), expect()
        return ['memspace_global thread %d word %d: got %#x, expected %#x'
                % (k // 14, k % 14, g, e) for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]

    return Case('memspace_global', 'memspace_global', (1,), (n,), [Out(4 * 14 * n)], check)


def local_case():
    rng = random.Random('memspace_local')
    nthreads = 3 * 64
    vals = [rng.getrandbits(32) if i % 5 else rng.randrange(0, 40) for i in range(8 * nthreads)]

    def expect():
        out = []
        for g in range(nthreads):
            arr = sorted(vals[8 * g:8 * g + 8])
            hist = [0] * 8 + [8] * 8
            for v in arr:
                hist[v & 15] += 1
            w = list(arr)
            w.append(sum(h * (j + 1) for j, h in enumerate(hist)) & M32)
            buf = [(g + 37 * i) & 255 for i in range(20)]
            idx = [(g + 3 * i) % 20 for i in range(10)]
            w.append(sum(buf[i] for i in idx) & M32)
            w.append(sum(buf[i] - 256 if buf[i] > 127 else buf[i] for i in idx) & M32)
            k = g % 10
            h = buf[2 * k] | buf[2 * k + 1] << 8
            w.append(((h - 65536 if h > 32767 else h) + (buf[18] | buf[19] << 8)) & M32)
            wide = [((g << (8 * i)) + i) & M64 for i in range(4)]
            w.append((wide[g & 3] + wide[(g + 1) & 3]) & M32)
            out += w
        return out

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), expect()
        return ['memspace_local thread %d word %d: got %#x, expected %#x'
                % (k // 13, k % 13, g, e) for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]

    return Case('memspace_local', 'memspace_local', (3,), (64,),
                [In('I', vals), Out(4 * 13 * nthreads)], check)


def generic_case():
    n = 64

    def expect():
        out = []
        glob = [1000, 2000, 3000, 4000]
        for t in range(n):
            loc = [t, t + 100, t + 200, t + 300]
            odd = t & 1
            w0 = (loc if odd else glob)[t & 3]
            # isspacep: .local, .global, .shared of p; .shared and .local of the shared
            # pointer; .global of the local pointer
            flags = (1 if odd else 2) | 8
            w3 = t + 7 if odd else t + 300
            out += [w0, flags, t + 100, w3]
        return out

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), expect()
        return ['memspace_generic thread %d word %d: got %#x, expected %#x'
                % (k // 4, k % 4, g, e) for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]

    return Case('memspace_generic', 'memspace_generic', (1,), (n,), [Out(16 * n)], check)


def depot_case():
    """memspace_depot.cu, evaluated with C's int semantics (32-bit wrap-around)."""
    weights = [3, -1, 4, 1, -5, 9, 2, -6]
    bias = [100, 200, 300, 400]
    grid, block, n = 2, 64, 120

    def expect():
        out = [0] * (3 * grid * block)
        for t in range(n):
            a = [s32((t * (i + 1)) ^ weights[i & 7]) for i in range(16)]
            k = (t * 7) & 15
            a[k] = s32(a[k] + 1000)
            p = a[t & 7:]
            s = 0
            for i in range(8):
                s = s32(s + p[i] * weights[(i + t) & 7])
            out[3 * t] = s & M32
            out[3 * t + 1] = (a[(t * 5) & 15] + bias[t & 3]) & M32
            out[3 * t + 2] = (bias[2] + a[k]) & M32
        return out

    def check(outs, wave):
        got, exp = unpack('I', outs[0]), expect()
        return ['memspace_depot word %d: got %#x, expected %#x' % (k, g, e)
                for k, (g, e) in enumerate(zip(got, exp)) if g != e][:12]

    return Case('memspace_depot', 'memspace_depot', (grid,), (block,),
                [Out(4 * 3 * grid * block), ('i32', n)], check)


def param_slots_case():
    """Pointer parameters found through frame slots (the metadata's value kinds)."""
    rng = random.Random('param_slots')
    block, n = 64, 1000003
    vals = [rng.randrange(-5000, 5000) for _ in range(block)]
    exp = [s32(vals[t] * n + t) for t in range(block)]

    def check(outs, wave):
        got = unpack('i', outs[0])
        return ['out[%d] = %d, expected %d' % (t, got[t], exp[t])
                for t in range(block) if got[t] != exp[t]][:8]
    return Case('param_slots', 'param_slots', (1,), (block,),
                [Out(4 * block), ('i64', n), In('i', vals)], check)


def cases():
    return [global_case(), local_case(), generic_case(), depot_case(), param_slots_case()]
