"""The error bound for tensor-core results with general data (slot class 'approx' of the tensor
and tensor2 sets).

../shared/ptx-hw/README.md ("Caveats"): the hardware's accumulation is not one IEEE rounding of
the exact sum, so these results differ from an exactly rounded reference by a few ulp; judge them
with a bound like K x 2^-22 x sum|a*b|.  Here: our D element against the exact value of
C + sum_k A[i][k] B[k][j] over our own operands (as judge.py's approximate instructions are
judged), within  K x eps x (sum_k |A[i][k] B[k][j]| + |C[i][j]|)  with eps = 2^-22 (f32
accumulation; 2^-50 for f64), plus one f16 ulp of the exact value for an f16 D (its one final
rounding).  A chain of two wmma.mma on the same A and B (D = A B + (A B + C)) counts 2K products.

mma.sync: the warp's A, B and C come from every lane's operands of the slot (the fragment
layouts of tests/kernels/mma_frag.py, the PTX ISA's); wmma and the ldmatrix -> mma pipelines:
from the input buffer, with the geometry the manifest records (offsets, strides, layouts) -- the
fragments do not matter there.
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'kernels'))
import mma_frag  # noqa: E402

import compare  # noqa: E402  ../shared/ptx-hw/tools/compare.py


def f16_ulp(x):
    x = abs(x)
    if x < 2.0 ** -14:
        return 2.0 ** -24
    return 2.0 ** (math.floor(math.log2(x)) - 10)


def within(ours, exact, k, mags, td):
    eps = 2.0 ** -50 if td == 'f64' else 2.0 ** -22
    bound = k * eps * mags + (f16_ulp(exact) if td == 'f16' else 0.0)
    if math.isnan(ours) or math.isinf(ours):
        return False
    return abs(ours - exact) <= bound


def words_of(v, n):
    return [v & mma_frag.M32, v >> 32] if n == 2 else [v]


def mma_ok(kernel, slot, t, inp, us, by_w):
    """An mma.sync D register of thread t: every element within the bound."""
    f = mma_frag.form_of(slot['op'].split()[-1] if slot['op'].startswith('@') else slot['op'])
    M, K = kernel['out_words'], kernel['in_words']
    na, nb, nc = f.nregs('a'), f.nregs('b'), f.nregs('c')
    widths = [s[2] if s[0] == 'in' else 1 for s in slot['srcs']]
    mats = ({}, {}, {})
    base = t - t % 32
    for lane in range(32):
        vals = compare.operand_values(us, base + lane, M, K, inp, by_w, slot['srcs'])
        if None in vals or len(vals) != na + nb + nc:
            return False
        words = []
        for v, n in zip(vals, widths):
            words += words_of(v, 2 if f.ta == 'f64' else n)
        per = 2 if f.ta == 'f64' else 1
        regs = (words[:na * per], words[na * per:(na + nb) * per], words[(na + nb) * per:])
        for mat, ty, lay, w in zip(mats, (f.ta, f.tb, f.tc), (f.la, f.lb, f.lc), regs):
            grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
            for i, x in enumerate(mma_frag.decode(ty, w)):
                mat[(grp,) + lay(lane, i)] = x
    A, B, C = mats
    r = int(slot['note'].rsplit('d', 1)[1])
    ours, _ = compare.slot_value(us, t, M, slot)
    got = mma_frag.decode(f.td, words_of(ours, slot['n']))
    lane = t % 32
    grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
    first = r * (2 if f.td == 'f16' else 1)
    for j, x in enumerate(got):
        row, col = f.ld(lane, first + j)
        prods = [A[(grp, row, k)] * B[(grp, k, col)] for k in range(f.k)]
        c = C[(grp, row, col)]
        exact = math.fsum(prods + [c])
        if not within(x, exact, f.k, math.fsum(abs(p) for p in prods) + abs(c), f.td):
            return False
    return True


ESIZE = {'f16': 2, 'bf16': 2, 'tf32': 4, 'f32': 4, 's32': 4, 'f64': 8, 's8': 1, 'u8': 1}


def mem_elem(inp, word0, off, ty):
    """The element of type ty at byte `off` of the words from word0 on."""
    size = ESIZE[ty]
    w = word0 + off // 4
    if size == 8:
        return mma_frag.decode('f64', [int(inp[w]), int(inp[w + 1])])[0]
    v = int(inp[w]) >> (8 * (off % 4))
    if size == 2:
        return mma_frag.decode(ty, [v & 0xffff])[0]
    return mma_frag.decode(ty, [v & mma_frag.M32])[0]


def wmma_ok(kernel, slot, t, inp, us):
    """A word of a stored wmma D: every element in it within the bound."""
    tc = kernel['tc']
    m, n, k = mma_frag.shape_of(tc['shape'])
    td, ta, tb, tcy = tc['dtype'], tc['atype'], tc['btype'], tc['ctype']
    warp_words = 32 * kernel['in_words']
    word0 = (t // 32) * warp_words

    def elem(which, r, c, ty):
        lay, off, st = tc['lay'][which], tc['o' + which], tc['s' + which]
        idx = r * st + c if lay == 'row' else c * st + r
        return mem_elem(inp, word0, off + idx * ESIZE[ty], ty)

    M = kernel['out_words']
    ours, _ = compare.slot_value(us, t, M, slot)
    wi = (t % 32) * M + slot['w']
    if td == 'f64':
        elems = [(wi // 2, mma_frag.decode('f64', words_of(ours, 2))[0])]
    elif td == 'f16':
        elems = list(zip((2 * wi, 2 * wi + 1), mma_frag.decode('f16', [ours])))
    else:
        elems = [(wi, mma_frag.decode(td, [ours])[0])]
    reps = 2 if tc.get('chain') else 1
    for e, x in elems:
        row, col = divmod(e, tc['dstride'])
        if tc['dlay'] == 'col':
            row, col = col, row
        if row >= m or col >= n:
            return False
        prods = [elem('a', row, kk, ta) * elem('b', kk, col, tb) for kk in range(k)]
        c = elem('c', row, col, tcy)
        exact = math.fsum(prods * reps + [c])
        mags = reps * math.fsum(abs(p) for p in prods) + abs(c)
        if not within(x, exact, reps * k, mags, td):
            return False
    return True


def pipe_ok(kernel, slot, t, inp, us):
    """A D register of an ldmatrix -> mma.m16n8k16 k-loop (kind 'pipe'): A (16 x Kt) and B
    (Kt x 8 ntile) read from the warp's shared-memory image in the input buffer with the
    geometry the manifest records (gen_tc.py's gen_pipe), C = 0, Kt = 16 ks products."""
    tc = kernel['tc']
    f = mma_frag.form_of(slot['op'])
    kt = 16 * tc['ks']
    word0 = (t // 32) * 32 * kernel['in_words']
    ab = tc['ab']

    def a_elem(i, kk):
        idx = kk * tc['sa'] + i if tc['a_trans'] else i * tc['sa'] + kk
        return mem_elem(inp, word0, tc['oa'] + 2 * idx, ab)

    def b_elem(kk, n):
        idx = kk * tc['sb'] + n if tc['b_kmajor'] else n * tc['sb'] + kk
        return mem_elem(inp, word0, tc['ob'] + 2 * idx, ab)

    nd = 4 if f.td == 'f32' else 2
    tile, r = divmod(slot['w'], nd)
    M = kernel['out_words']
    ours, _ = compare.slot_value(us, t, M, slot)
    got = mma_frag.decode(f.td, words_of(ours, slot['n']))
    first = r * (2 if f.td == 'f16' else 1)
    for j, x in enumerate(got):
        row, col = f.ld(t % 32, first + j)
        prods = [a_elem(row, kk) * b_elem(kk, 8 * tile + col) for kk in range(kt)]
        if not within(x, math.fsum(prods), kt, math.fsum(abs(p) for p in prods), f.td):
            return False
    return True


def ok(kernel, slot, t, inp, us, by_w):
    """Whether our result of a general-data tensor slot is within the bound."""
    try:
        if slot.get('cat') == 'wmma' and 'tc' in kernel:
            return wmma_ok(kernel, slot, t, inp, us)
        if slot.get('cat') == 'mma':
            return mma_ok(kernel, slot, t, inp, us, by_w)
        if slot.get('cat') == 'pipe' and 'tc' in kernel:
            return pipe_ok(kernel, slot, t, inp, us)
    except (KeyError, ValueError, IndexError, TypeError):
        return False
    return False
