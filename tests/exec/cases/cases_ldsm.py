"""Cases for ldmatrix feeding mma.sync, the matrix units' loads straight from LDS
(docs/TENSOR.md, "ldmatrix into the unit's layout"): tests/exec/ptx/ldsm_mma.ptx (a k-loop of
ldmatrix.x4 A and ldmatrix.x2 B^T into mma.m16n8k16 .f16 -> .f32) and ldsm_mma_clobber.ptx
(the tiles overwritten between the ldmatrix's and the mma: the mma multiplies what the
ldmatrix read; one ldmatrix register also stored to memory).

References from the PTX ISA's definitions, not from ptxas-amd: ldmatrix (thread 8i + r gives
the address of row r of matrix i; register i of thread l holds elements (l/4, 2(l%4) + {0,1})
of matrix i, low half first; .trans: of the transposed matrix) and the m16n8k16 fragments
("Matrix Fragments for mma.m16n8k16 with floating point type"): A register r of lane
(g, t) = (l/4, l%4) holds A[g + 8 (r & 1)][2t + 8 (r >> 1) + {0,1}], B register r holds
B[2t + 8r + {0,1}][g], D element x is D[g + 8 (x >> 1)][2t + (x & 1)].  The data are halves
of small integers, so every product and sum is exact in f32 in any order."""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

CTAS, WARPS, KSTEPS = 2, 2, 2


def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def rand_tiles(rng, n):
    return [rng.randrange(-8, 9) / 2 for _ in range(n)]


def d_fragment(a, b, lane):
    """D = A B (A 16x16 a[16 i + k], B 16x8 b(k, j)) as lane's four f32 words."""
    g, t = lane // 4, lane % 4
    out = []
    for x in range(4):
        i, j = g + 8 * (x >> 1), 2 * t + (x & 1)
        out.append(sum(a[16 * i + k] * b(k, j) for k in range(16)))
    return out


def check_words(label, got, exp):
    bad = [k for k in range(len(exp)) if got[k] != exp[k]]
    errs = ['%s[%d] (thread %d, word %d) = %#x, expected %#x'
            % (label, k, k // 4, k % 4, got[k], exp[k]) for k in bad[:8]]
    return errs + (['%s: %d mismatches in all' % (label, len(bad))] if len(bad) > 8 else [])


def loop_case():
    """ldsm_mma: A tiles (16x16 row-major) and B^T tiles (8x16: B^T[n][k] at 16 n + k)."""
    rng = rng_for('ldsm_mma')
    tiles = CTAS * WARPS * KSTEPS
    a = rand_tiles(rng, 256 * tiles)
    bt = rand_tiles(rng, 128 * tiles)
    exp = []
    for w in range(CTAS * WARPS):
        for lane in range(32):
            acc = [0.0] * 4
            for s in range(KSTEPS):
                tile = w * KSTEPS + s
                at = a[256 * tile:256 * (tile + 1)]
                bb = bt[128 * tile:128 * (tile + 1)]
                d = d_fragment(at, lambda k, j: bb[16 * j + k], lane)
                acc = [acc[x] + d[x] for x in range(4)]
            exp += [f32_bits(v) for v in acc]

    def check(outs, wave):
        return check_words('out', unpack('I', outs[0]), exp)

    c = Case('ldsm_mma', 'ldsm_mma', (CTAS,), (32 * WARPS,),
             [In('H', [f16_bits(v) for v in a]), In('H', [f16_bits(v) for v in bt]),
              Out(4 * len(exp))], check)
    c.warp_level = True  # also wave64 RDNA and --warp-size 32
    return c


def clobber_case():
    """ldsm_mma_clobber: A tiles (16x16 row-major) and B tiles (16x8 row-major)."""
    rng = rng_for('ldsm_mma_clobber')
    tiles = CTAS * WARPS
    a = rand_tiles(rng, 256 * tiles)
    b = rand_tiles(rng, 128 * tiles)
    exp, frag = [], []
    for w in range(tiles):
        at, bb = a[256 * w:256 * (w + 1)], b[128 * w:128 * (w + 1)]
        for lane in range(32):
            exp += [f32_bits(v) for v in d_fragment(at, lambda k, j: bb[8 * k + j], lane)]
            g, t = lane // 4, lane % 4  # A register 1: row g + 8, columns 2t, 2t + 1
            frag.append(f16_bits(at[16 * (g + 8) + 2 * t]) |
                        f16_bits(at[16 * (g + 8) + 2 * t + 1]) << 16)

    def check(outs, wave):
        return (check_words('out', unpack('I', outs[0]), exp) +
                check_words('frag', unpack('I', outs[1]), frag))

    c = Case('ldsm_mma_clobber', 'ldsm_mma_clobber', (CTAS,), (32 * WARPS,),
             [In('H', [f16_bits(v) for v in a]), In('H', [f16_bits(v) for v in b]),
              Out(4 * len(exp)), Out(4 * len(frag))], check)
    c.warp_level = True
    return c


def cases():
    return [loop_case(), clobber_case()]
