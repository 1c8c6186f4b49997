"""Cases for the matrix moves (docs/MATRIX_MOVES.md): tests/exec/ptx/ldmatrix_forms.ptx (every
.m8n8.b16 form of ldmatrix, stmatrix and movmatrix) and tests/exec/ptx/ldmatrix_frag.ptx (nvcc's
PTX of tests/exec/src/ldmatrix_frag.cu: mma.m16n8k16 fragments loaded with inline
ldmatrix.x4 / .x2.trans from padded shared tiles).

References from the PTX ISA's definitions, not from ptxas-amd: ldmatrix/stmatrix (thread 8i + r
gives the address of row r of matrix i; register i of thread l holds elements
(l/4, 2(l%4) + {0,1}) of matrix i, low half first; .trans: of the transposed matrix), movmatrix
(the register-held matrix transposed), and for ldmatrix_frag the fragment layout of
mma.m16n8k16 with .f16 A (row) and B (col) operands ("Matrix Fragments for mma.m16n8k16 with
floating point type").  The moves work on 32-thread warps; on wave64 each half of a wave is one
(both with --warp-size 32 and with warp = wave), so the results do not depend on the wave."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

M32 = 0xffffffff


def half(words, byte):
    """The 16-bit element at byte offset `byte` of little-endian 32-bit words."""
    return (words[byte // 4] >> (16 * ((byte // 2) & 1))) & 0xffff


def ldmatrix(mem, addrs, num, trans):
    """Per lane of a warp, the `num` registers ldmatrix loads (mem: words; addrs: the 32
    threads' row byte addresses)."""
    out = []
    for lane in range(32):
        regs = []
        for i in range(num):
            if not trans:
                row = addrs[8 * i + lane // 4] + 4 * (lane % 4)
                e = [half(mem, row), half(mem, row + 2)]
            else:
                e = [half(mem, addrs[8 * i + 2 * (lane % 4) + j] + 2 * (lane // 4))
                     for j in (0, 1)]
            regs.append(e[0] | e[1] << 16)
        out.append(regs)
    return out


def stmatrix(mem16, addrs, vals, num, trans):
    """stmatrix of a warp into mem16 (a dict byte address -> 16-bit element): vals[lane][i]."""
    for i in range(num):
        for lane in range(32):
            v = vals[lane][i]
            for j in (0, 1):
                if not trans:
                    at = addrs[8 * i + lane // 4] + 4 * (lane % 4) + 2 * j
                else:  # memory row 2(l%4)+j receives column 2(l%4)+j of the fragment
                    at = addrs[8 * i + 2 * (lane % 4) + j] + 2 * (lane // 4)
                mem16[at] = (v >> (16 * j)) & 0xffff


def movmatrix(x):
    """movmatrix.trans of a warp: element (r, c) of the matrix is half c%2 of lane 4r + c/2."""
    def elem(r, c):
        return (x[4 * r + c // 2] >> (16 * (c % 2))) & 0xffff
    return [elem(2 * (lane % 4), lane // 4) | elem(2 * (lane % 4) + 1, lane // 4) << 16
            for lane in range(32)]


# ---------------------------------------------------------------- ldmatrix_forms.ptx

CTAS, BLOCK = 2, 64
NOUT = 30
AREA = 2048  # bytes per stmatrix area of a CTA (two warps of 64 rows of 16 bytes)

# (num, trans, address kind, byte offset) of the ldmatrix results, in output order
LOADS = [(1, False, 0), (2, False, 0), (4, False, 0), (1, True, 0), (2, True, 0), (4, True, 0),
         (4, False, 0), (2, True, 16), (1, False, 32), (4, False, 0)]
# (area, num, trans, first source register, warps that execute it)
STORES = [(0, 1, False, 0, (0, 1)), (1, 2, True, 0, (0, 1)), (2, 4, False, 0, (0, 1)),
          (3, 4, True, 0, (0, 1)), (4, 2, False, 2, (0,))]


def forms_expected(data, rows, vals):
    out, out2 = [], []
    for c in range(CTAS):
        mem = data[c * 1024:(c + 1) * 1024]
        mem16 = {}
        for w in range(BLOCK // 32):
            ts = [c * BLOCK + 32 * w + lane for lane in range(32)]
            lda = [2048 * w + 16 * rows[2 * t] for t in ts]
            sta = [1024 * w + 16 * rows[2 * t + 1] for t in ts]
            res = [[] for _ in range(32)]
            for num, trans, off in LOADS:
                got = ldmatrix(mem, [a + off for a in lda], num, trans)
                for lane in range(32):
                    res[lane] += got[lane]
            guarded = ldmatrix(mem, lda, 2, True)  # @p, p: warp 0
            m0 = movmatrix([vals[6 * t + 4] for t in ts])
            m1 = movmatrix([vals[6 * t + 5] for t in ts])
            for lane in range(32):
                res[lane] += guarded[lane] if w == 0 else [0x11110000, 0x22220000]
                res[lane] += [m0[lane], m1[lane], m0[lane] if w == 1 else 0x33330000]
                out += res[lane]
            for area, num, trans, first, warps in STORES:
                if w in warps:
                    src = [[vals[6 * t + first + i] for i in range(num)] for t in ts]
                    stmatrix(mem16, [AREA * area + a for a in sta], src, num, trans)
        words = [0] * (5 * AREA // 4)
        for at, v in mem16.items():
            words[at // 4] |= v << (16 * ((at // 2) & 1))
        out2 += words
    return out, out2


def forms_case():
    rng = rng_for('ldmatrix_forms')
    n = CTAS * BLOCK
    data = [rng.randrange(1 << 32) for _ in range(CTAS * 1024)]
    rows = []
    for _ in range(n // 32):  # per warp: distinct load rows (0..125) and store rows (0..63)
        ld, st = rng.sample(range(126), 32), rng.sample(range(64), 32)
        for lane in range(32):
            rows += [ld[lane], st[lane]]
    vals = [rng.randrange(1 << 32) for _ in range(6 * n)]
    exp_out, exp_out2 = forms_expected(data, rows, vals)

    def check(outs, wave):
        errs = []
        for name, got, exp in (('out', unpack('I', outs[0]), exp_out),
                               ('out2', unpack('I', outs[1]), exp_out2)):
            bad = [k for k in range(len(exp)) if got[k] != exp[k]]
            for k in bad[:8]:
                where = ('thread %d result %d' % (k // NOUT, k % NOUT) if name == 'out'
                         else 'CTA %d area %d byte %d' % (k * 4 // (5 * AREA),
                                                          k * 4 % (5 * AREA) // AREA,
                                                          k * 4 % AREA))
                errs.append('%s[%d] (%s) = %#x, expected %#x' % (name, k, where, got[k],
                                                                 exp[k]))
            if len(bad) > 8:
                errs.append('%s: %d mismatches in all' % (name, len(bad)))
        return errs

    c = Case('ldmatrix_forms', 'ldmatrix_forms', (CTAS,), (BLOCK,),
             [In('I', data), In('I', rows), In('I', vals), Out(4 * NOUT * n),
              Out(CTAS * 5 * AREA)], check)
    c.warp_level = True  # also wave64 RDNA and --warp-size 32
    return c


# ---------------------------------------------------------------- ldmatrix_frag.ptx

FRAG_CTAS, FRAG_WARPS, KSTEPS = 2, 2, 2


def mma_a_fragment(a, lane):
    """a0..a7 of mma.m16n8k16 .f16 A (16x16, row-major list): pairs packed into 4 words.
    groupID = lane/4, threadID_in_group = lane%4; a0,a1: (g, 2t + {0,1}), a2,a3: (g + 8, ...),
    a4,a5: (g, 2t + 8 + {0,1}), a6,a7: (g + 8, 2t + 8 + {0,1})."""
    g, t = lane // 4, lane % 4
    words = []
    for row, col in ((g, 2 * t), (g + 8, 2 * t), (g, 2 * t + 8), (g + 8, 2 * t + 8)):
        words.append(a[16 * row + col] | a[16 * row + col + 1] << 16)
    return words


def mma_b_fragment(b, lane):
    """b0..b3 of mma.m16n8k16 .f16 B (16x8, b[k][n] row-major): b0,b1: (k = 2t + {0,1},
    n = g), b2,b3: (k = 2t + 8 + {0,1}, n = g)."""
    g, t = lane // 4, lane % 4
    return [b[8 * k + g] | b[8 * (k + 1) + g] << 16 for k in (2 * t, 2 * t + 8)]


def frag_case():
    rng = rng_for('ldmatrix_frag')
    tiles = FRAG_CTAS * FRAG_WARPS * KSTEPS
    a = [rng.randrange(1 << 16) for _ in range(tiles * 256)]
    b = [rng.randrange(1 << 16) for _ in range(tiles * 128)]
    exp = []
    for cta in range(FRAG_CTAS):
        for warp in range(FRAG_WARPS):
            for lane in range(32):
                for k in range(KSTEPS):
                    tile = (cta * FRAG_WARPS + warp) * KSTEPS + k
                    exp += mma_a_fragment(a[256 * tile:256 * (tile + 1)], lane)
                    exp += mma_b_fragment(b[128 * tile:128 * (tile + 1)], lane)

    def check(outs, wave):
        got = unpack('I', outs[0])
        bad = [k for k in range(len(exp)) if got[k] != exp[k]]
        errs = ['out[%d] (thread %d, k-step %d, %s) = %#x, expected %#x'
                % (k, k // (6 * KSTEPS), k % (6 * KSTEPS) // 6,
                   'a%d' % (k % 6) if k % 6 < 4 else 'b%d' % (k % 6 - 4), got[k], exp[k])
                for k in bad[:8]]
        return errs + (['%d mismatches in all' % len(bad)] if len(bad) > 8 else [])

    c = Case('ldmatrix_frag', 'ldmatrix_frag', (FRAG_CTAS,), (32 * FRAG_WARPS,),
             [In('H', a), In('H', b), Out(4 * len(exp))], check)
    c.warp_level = True
    return c


def cases():
    return [forms_case(), frag_case()]
