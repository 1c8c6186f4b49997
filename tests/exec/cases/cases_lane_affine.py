"""Cases for ldmatrix row addresses computed in the reading lane (src/ir/lane_affine.c,
docs/TENSOR.md "Row addresses computed in the lane"): kernels with .reqntid 64, 1, 1 whose row
addresses are functions of %tid.x and %laneid, so each lane computes the address a row's
supplier gave instead of reading it with ds_bpermute (tests/exec/lane_affine_asm.py checks
that the reads are gone).

tests/exec/ptx/ldsm_affine.ptx: ldmatrix .x4, .x4.trans, .x2 (+32 bytes) and .x1.trans
(generic address, from %laneid) on a tile of 16 rows 48 bytes apart per warp; the registers
stored; then stmatrix .x4 and .x2.trans (stmatrix: the same addresses, storing) into a zeroed
tile, copied out.  tests/exec/ptx/ldsm_trans_mma.ptx: hgemm_mma's pattern, A by ldmatrix.x4 and a
k-major B by ldmatrix.x4.trans into two mma.m16n8k16 .f16 -> .f32, two k-steps.

References from the PTX ISA's definitions, not from ptxas-amd: ldmatrix (thread 8i + r gives
the address of row r of matrix i; register i of thread l holds elements (l/4, 2(l%4) + {0,1})
of matrix i, low half first; .trans: elements (2(l%4) + {0,1}, l/4)) and the m16n8k16
fragments (A register r of lane (g, t) = (l/4, l%4) holds A[g + 8 (r & 1)][2t + 8 (r >> 1) +
{0,1}], B register r holds B[2t + 8r + {0,1}][g], D element x is D[g + 8 (x >> 1)][2t + (x &
1)]).  mma data are halves of small integers: every product and sum is exact in f32."""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

CTAS = 2
STRIDE = 48  # bytes between rows


def halves(words):
    """The 16-bit halves of little-endian words, in byte order."""
    out = []
    for w in words:
        out += [w & 0xffff, w >> 16]
    return out


def ldmatrix_regs(half_at, row_addr, n, trans, lane):
    """Registers of ldmatrix .xN for `lane`: row r of matrix i at row_addr(8 i + r)."""
    regs = []
    for i in range(n):
        if trans:
            e = [half_at(row_addr(8 * i + 2 * (lane % 4) + j) + 2 * (lane // 4)) for j in (0, 1)]
        else:
            e = [half_at(row_addr(8 * i + lane // 4) + 4 * (lane % 4) + 2 * j) for j in (0, 1)]
        regs.append(e[0] | e[1] << 16)
    return regs


def check_words(label, got, exp):
    bad = [k for k in range(len(exp)) if got[k] != exp[k]]
    errs = ['%s[%d] = %#x, expected %#x' % (label, k, got[k], exp[k]) for k in bad[:8]]
    return errs + (['%s: %d mismatches in all' % (label, len(bad))] if len(bad) > 8 else [])


def affine_case():
    rng = rng_for('ldsm_affine')
    words = [rng.getrandbits(32) for _ in range(384 * CTAS)]
    exp = []
    for cta in range(CTAS):
        h = halves(words[384 * cta:384 * (cta + 1)])
        for tid in range(64):
            w, lane = tid // 32, tid % 32
            base = 768 * w

            def half_at(byte):
                return h[byte // 2]

            def x4(t):
                return base + (t & 15) * STRIDE + 16 * ((t >> 4) & 1)

            out = ldmatrix_regs(half_at, x4, 4, False, lane)
            out += ldmatrix_regs(half_at, x4, 4, True, lane)
            out += ldmatrix_regs(half_at, lambda t: base + (t & 15) * STRIDE + 32, 2, False, lane)
            x1 = ldmatrix_regs(half_at, lambda t: base + (t & 7) * STRIDE + 16, 1, True, lane)
            exp += out + x1 + x1 + [0] * 4  # the last four words are not written

    exp2 = []
    for cta in range(CTAS):
        tile = [0] * 768  # halves of sout
        for tid in range(64):
            w, lane = tid // 32, tid % 32
            base = 768 * w

            def put(byte, h):
                tile[byte // 2] = h & 0xffff

            for i in range(4):  # .x4: register i of lane l at row(8i + l/4) + 4 (l%4)
                def x4(t):
                    return base + (t & 15) * STRIDE + 16 * ((t >> 4) & 1)
                v = tid * 16 + i + 1
                at = x4(8 * i + lane // 4) + 4 * (lane % 4)
                put(at, v)
                put(at + 2, v >> 16)
        for tid in range(64):  # .x2.trans after .x4 (a later instruction)
            w, lane = tid // 32, tid % 32
            base = 768 * w
            vals = [(tid * 16 + 1) << 16 | (tid * 16 + 2), (tid * 16 + 3) << 16 | (tid * 16 + 4)]
            for i in range(2):  # element j (half j) at row(8i + 2(l%4) + j) + 2 (l/4)
                for j in range(2):
                    t = 8 * i + 2 * (lane % 4) + j
                    put(base + (t & 15) * STRIDE + 32 + 2 * (lane // 4), vals[i] >> (16 * j))
        exp2 += [tile[2 * k] | tile[2 * k + 1] << 16 for k in range(384)]

    def check(outs, wave):
        got = unpack('I', outs[0])
        got = [got[k] if k % 16 < 12 else 0 for k in range(len(got))]
        return check_words('out', got, exp) + check_words('out2', unpack('I', outs[1]), exp2)

    c = Case('ldsm_affine', 'ldsm_affine', (CTAS,), (64,), [In('I', words), Out(4 * len(exp)),
             Out(4 * len(exp2))], check)
    c.warp_level = True  # also wave64 RDNA and --warp-size 32
    return c


def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def trans_mma_case():
    rng = rng_for('ldsm_trans_mma')
    steps = 2
    vals = [rng.randrange(-8, 9) / 2 for _ in range(1536 * CTAS * steps)]  # halves
    words = [f16_bits(vals[2 * k]) | f16_bits(vals[2 * k + 1]) << 16 for k in range(len(vals) // 2)]
    exp = []
    for cta in range(CTAS):
        for tid in range(64):
            w, lane = tid // 32, tid % 32
            g, t = lane // 4, lane % 4
            acc = [0.0] * 8
            for s in range(steps):
                tile = vals[1536 * (2 * cta + s):1536 * (2 * cta + s + 1)]
                base = 768 * w  # in halves: warp w's A tile, its B tile 384 halves on

                def a(i, k):
                    return tile[base + i * STRIDE // 2 + k]

                def b(k, n):
                    return tile[base + 384 + k * STRIDE // 2 + n]

                for x in range(8):
                    tn = x >> 2  # the n8 tile of the second mma
                    i, j = g + 8 * ((x >> 1) & 1), 8 * tn + 2 * t + (x & 1)
                    acc[x] += sum(a(i, k) * b(k, j) for k in range(16))
            exp += [f32_bits(v) for v in acc]

    def check(outs, wave):
        return check_words('out', unpack('I', outs[0]), exp)

    c = Case('ldsm_trans_mma', 'ldsm_trans_mma', (CTAS,), (64,), [In('I', words),
             Out(4 * len(exp))], check)
    c.warp_level = True
    return c


def cases():
    return [affine_case(), trans_mma_case()]
