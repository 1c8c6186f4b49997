"""Cases for the 8-bit matrix moves of sm_100a (docs/MATRIX_MOVES.md, "The 8-bit forms"):
tests/exec/ptx/ldmatrix_b8.ptx.

The reference is computed from NVIDIA's CuTe copy traits of these instructions, not from
ptxas-amd's lowering: the layouts below are the numbers of Copy_Traits<...> in CUTLASS's
include/cute/atom/copy_traits_sm100.hpp (SrcLayout, DstLayout: (thread, value) -> bit in one
shared reference bit space), and the instruction each op issues is in
include/cute/arch/copy_sm100.hpp.  For ldmatrix a source thread's 128 values are the bits of the
16-byte row at the address it supplies and a destination value v is bit v%32 of register v/32;
for stmatrix the other way round.  Composing the two gives, for every register bit, the row
and bit it comes from (a bit several source threads map, a stride-0 mode, comes from the
lowest of them: those threads' addresses are the ones ldmatrix reads).  The two .m16n16 .trans
ops of CuTe permute bytes after the ldmatrix (copy_sm100.hpp: dst0 = {t0.x, t0.y, t1.x, t1.y},
dst1 = {t0.z, t0.w, t1.z, t1.w}); the traits describe dst, so the reference undoes that to get
the instruction's own registers t.

Decompression (.b8x16.b6x16_p32 / .b4x16_p64): the traits map a row's 16 (decompressed) 8-bit
elements like the bytes of a .b8 row.  Element e of a row comes from the PTX ISA's formats
("Padding and alignment of the sub-byte types", "Optional Decompression": 16 elements packed
contiguously, then 32/64 bits of padding) packed least-significant first, and sits
zero-extended in the low bits of its byte (CUTLASS include/cute/atom/mma_traits_sm120.hpp:
"ld.matrix b4x16_p64 places FP4 data at the first four bits in each eight-bit container",
0b0000ABCD; 6-bit data likewise unshifted).  CuTe has no trait for the .m16n16 decompressing
forms; the ISA gives the one 16x16 layout (Figure 105) for 8-, 6- and 4-bit data, so the
reference maps their decompressed rows with the .m16n16 .b8 traits."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

# copy_traits_sm100.hpp, (shape, stride) pairs of (thread, value) layouts
U8x8_LDSM_T = {  # ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8
    'src': (((2, 2, 4, 2), 128), ((128, 1024, 256, 0), 1)),
    'dst': (((4, 8), (8, 2, 2, 2)), ((256, 8), (1, 128, 64, 1024))),
}
U8x16_LDSM_T = {  # ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8
    'src': (((2, 2, 4, 2), 128), ((128, 1024, 256, 2048), 1)),
    'dst': (((4, 8), (8, 2, 2, 4)), ((256, 8), (1, 128, 64, 1024))),
}
DU8x16_x1_LDSM_N = {  # ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b{6,4}x16_p{32,64}
    'src': (((8, 4), 128), ((128, 0), 1)),
    'dst': ((32, 32), (32, 1)),
}
DU8x16_x2_LDSM_N = {  # .m8n16.x2 (SU4 and SU6 have the same layouts)
    'src': (((16, 2), 128), ((128, 0), 1)),
    'dst': ((32, (32, 2)), (32, (1, 1024))),
}
DU8x16_x4_LDSM_N = {  # .m8n16.x4
    'src': ((32, 128), (128, 1)),
    'dst': ((32, (32, 4)), (32, (1, 1024))),
}
U8x4_STSM_T = {  # stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 (src: registers)
    'src': (((4, 8), (8, 2, 2)), ((256, 8), (1, 128, 64))),
    'dst': (((8, 4), 128), ((128, 0), 1)),
}
U8x8_STSM_T = {  # stmatrix.sync.aligned.m16n8.x2.trans.shared.b8
    'src': (((4, 8), (8, 2, 2, 2)), ((256, 8), (1, 128, 64, 1024))),
    'dst': (((16, 2), 128), ((128, 0), 1)),
}
U8x16_STSM_T = {  # stmatrix.sync.aligned.m16n8.x4.trans.shared.b8
    'src': (((4, 8), (8, 2, 2, 4)), ((256, 8), (1, 128, 64, 1024))),
    'dst': ((32, 128), (128, 1)),
}


def flatten(shape, stride):
    if isinstance(shape, int):
        return [(shape, stride)]
    return [m for s, d in zip(shape, stride) for m in flatten(s, d)]


def mode_size(shape):
    n = 1
    for s, _ in flatten(shape, shape):
        n *= s
    return n


def crd2idx(i, shape, stride):
    """CuTe's index of the 1-D coordinate i in a (possibly nested) mode: colexicographic."""
    out = 0
    for s, d in flatten(shape, stride):
        out += (i % s) * d
        i //= s
    return out


def bit_map(layout):
    """{(thread, value): bit} of a CuTe (thread, value) layout."""
    (tshape, vshape), (tstride, vstride) = layout
    return {(t, v): crd2idx(t, tshape, tstride) + crd2idx(v, vshape, vstride)
            for t in range(mode_size(tshape)) for v in range(mode_size(vshape))}


def first_owner(m):
    """bit -> (thread, value) with the lowest thread mapping it."""
    inv = {}
    for (t, v), bit in sorted(m.items()):
        inv.setdefault(bit, (t, v))
    return inv


def ldsm(traits, rows, unshuffle):
    """Per lane, the registers of a warp's ldmatrix: rows[t] = the 16 logical bytes at the
    address thread t supplies."""
    src = first_owner(bit_map(traits['src']))
    dst = bit_map(traits['dst'])
    nregs = mode_size(traits['dst'][0][1]) // 32
    regs = [[0] * nregs for _ in range(32)]
    for (t, v), bit in dst.items():
        st, sv = src[bit]
        if rows[st][sv // 8] >> (sv % 8) & 1:
            regs[t][v // 32] |= 1 << (v % 32)
    if unshuffle:  # the instruction's t0..t3 from CuTe's dst0..dst3 (copy_sm100.hpp)
        for lane in range(32):
            d = regs[lane]
            by = [[(x >> (8 * k)) & 0xff for k in range(4)] for x in d]
            t = []
            for p in range(0, nregs, 2):
                d0, d1 = by[p], by[p + 1]
                t.append(d0[0] | d0[1] << 8 | d1[0] << 16 | d1[1] << 24)
                t.append(d0[2] | d0[3] << 8 | d1[2] << 16 | d1[3] << 24)
            regs[lane] = t
    return regs


def stsm(traits, mem, addrs, vals):
    """A warp's stmatrix into mem (bytearray): addrs[t] its row addresses, vals[t] its
    registers."""
    src = bit_map(traits['src'])
    dst = first_owner(bit_map(traits['dst']))
    for (t, v), bit in src.items():
        dt, dv = dst[bit]
        at = addrs[dt] + dv // 8
        if vals[t][v // 32] >> (v % 32) & 1:
            mem[at] |= 1 << (dv % 8)
        else:
            mem[at] &= ~(1 << (dv % 8)) & 0xff


def decompress(row, bits):
    """The 16 8-bit elements of a .b6x16_p32 / .b4x16_p64 row (bits 6 or 4), or the row."""
    if bits == 8:
        return list(row)
    packed = int.from_bytes(bytes(row), 'little')
    return [(packed >> (bits * e)) & ((1 << bits) - 1) for e in range(16)]


# (traits, element bits, CuTe's byte shuffle to undo, address offset) of the loads, in output order
LOADS = [(U8x8_LDSM_T, 8, True, 0), (U8x16_LDSM_T, 8, True, 0), (U8x8_LDSM_T, 8, True, 16),
         (U8x16_LDSM_T, 6, True, 0), (U8x8_LDSM_T, 4, True, 0), (U8x16_LDSM_T, 4, True, 0),
         (DU8x16_x1_LDSM_N, 6, False, 0), (DU8x16_x2_LDSM_N, 4, False, 0),
         (DU8x16_x4_LDSM_N, 6, False, 0), (DU8x16_x4_LDSM_N, 4, False, 16),
         (DU8x16_x2_LDSM_N, 6, False, 32), (DU8x16_x1_LDSM_N, 4, False, 0)]
NOUT = 34
AREA = 2048
# (area, traits, source registers, warps that execute it)
STORES = [(0, U8x4_STSM_T, (0,), (0, 1)), (1, U8x8_STSM_T, (0, 1), (0, 1)),
          (2, U8x16_STSM_T, (0, 1, 2, 3), (0, 1)), (3, U8x16_STSM_T, (3, 2, 1, 0), (0, 1)),
          (4, U8x8_STSM_T, (2, 3), (1,))]


def expected(data, rows, vals):
    out, sout = [], bytearray(5 * AREA)
    for w in range(2):
        ts = range(32 * w, 32 * w + 32)
        base = [1024 * w + 16 * rows[2 * t] for t in ts]
        res = [[] for _ in range(32)]
        for traits, bits, unshuffle, off in LOADS:
            logical = [decompress(data[a + off:a + off + 16], bits) for a in base]
            got = ldsm(traits, logical, unshuffle)
            for lane in range(32):
                res[lane] += got[lane]
        guarded = ldsm(U8x8_LDSM_T, [data[a:a + 16] for a in base], True)
        for lane in range(32):
            res[lane] += guarded[lane] if w == 0 else [0x11110000, 0x22220000]
            out += res[lane]
        st = [1024 * w + 16 * rows[2 * t + 1] for t in ts]
        for area, traits, regs, warps in STORES:
            if w in warps:
                stsm(traits, sout, [AREA * area + a for a in st],
                     [[vals[4 * t + r] for r in regs] for t in ts])
    return out, list(unpack('I', bytes(sout)))


def b8_case():
    rng = rng_for('ldmatrix_b8')
    data = bytes(rng.randrange(256) for _ in range(2048))
    rows = []
    for _ in range(2):  # per warp: distinct load rows (0..61) and store rows (0..63)
        ld, st = rng.sample(range(62), 32), rng.sample(range(64), 32)
        for lane in range(32):
            rows += [ld[lane], st[lane]]
    vals = [rng.randrange(1 << 32) for _ in range(4 * 64)]
    exp_out, exp_out2 = expected(data, rows, vals)

    def check(outs, wave):
        errs = []
        for name, got, exp in (('out', unpack('I', outs[0]), exp_out),
                               ('out2', unpack('I', outs[1]), exp_out2)):
            bad = [k for k in range(len(exp)) if got[k] != exp[k]]
            for k in bad[:8]:
                where = ('thread %d result %d' % (k // NOUT, k % NOUT) if name == 'out'
                         else 'area %d byte %d' % (k * 4 // AREA, k * 4 % AREA))
                errs.append('%s[%d] (%s) = %#x, expected %#x' % (name, k, where, got[k],
                                                                 exp[k]))
            if len(bad) > 8:
                errs.append('%s: %d mismatches in all' % (name, len(bad)))
        return errs

    c = Case('ldmatrix_b8', 'ldmatrix_b8', (1,), (64,),
             [In('B', list(data)), In('I', rows), In('I', vals), Out(4 * NOUT * 64),
              Out(5 * AREA)], check)
    c.warp_level = True  # also wave64 RDNA and --warp-size 32
    return c


def cases():
    return [b8_case()]
