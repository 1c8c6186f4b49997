"""Tensor-core instructions of the reference interpreter, as warp-level operations: mma.sync
(every shape and type of sm_70..sm_90), wmma.load/mma/store, ldmatrix, stmatrix, movmatrix.

mma.sync: the warp's A, B and C are gathered from every lane's registers with the PTX ISA's
fragment layouts (tests/kernels/mma_frag.py, test code written from the ISA's "Matrix Fragments"
sections), D = C + A x B is computed exactly and rounded once to D's type (round to nearest
even; the hardware's own accumulation order differs by a few ulp on general data, which
hwcheck.py judges with tests/hw/tensor_bound.py's bound); integer D wraps, or clamps under
.satfinite; .b1 sums popc(a AND/XOR b).

wmma: the ISA leaves a fragment's layout unspecified, so the interpreter picks its own: element
e of lane l holds element (l * per_lane + e) mod size of the row-major logical matrix; a load,
mma and store through it give the ISA's results whatever the layout (the H100's layout differs,
so a kernel that stores a fragment register itself would not compare).

ldmatrix/stmatrix/movmatrix: the ISA's m8n8 .b16 fragment (lane l holds row l / 4, columns
2 (l % 4) and 2 (l % 4) + 1 of each matrix; .trans the transpose), row addresses from lanes
8 j .. 8 j + 7 for matrix j."""

import os
import sys
from fractions import Fraction

import floatcore as fc
import memory as mem
from memops import access, _address
from ops_common import UB

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kernels'))
import mma_frag  # noqa: E402  (the ISA's mma fragment layouts; test code, not the compiler's)

NAN = float('nan')
BITS = {'f16': 16, 'bf16': 16, 'f32': 32, 'tf32': 32, 'f64': 64, 's32': 32, 's8': 8, 'u8': 8,
        's4': 4, 'u4': 4, 'b1': 1, 'e4m3': 8, 'e5m2': 8}


def _e4m3(b):
    s, e, m = b >> 7, b >> 3 & 15, b & 7
    if e == 15 and m == 7:
        return NAN  # e4m3 has no infinity
    q = Fraction(m, 8 * 64) if e == 0 else Fraction(8 + m, 8) * Fraction(2) ** (e - 7)
    return -q if s else q


def elem_value(ty, bits):
    """Exact value of one element (Fraction or int); a float for NaN and infinity."""
    if ty in ('s8', 's4', 's32'):
        w = BITS[ty]
        return bits - (1 << w) if bits >> (w - 1) & 1 else bits
    if ty in ('u8', 'u4', 'b1'):
        return bits
    if ty == 'e4m3':
        return _e4m3(bits)
    if ty == 'e5m2':
        ty, bits = 'f16', bits << 8
    if ty == 'tf32':
        ty, bits = 'f32', bits & 0xffffe000
    d = fc.decode(bits, ty)
    if d.kind == 'num':
        return d.value()
    return NAN if d.kind == 'nan' else float('-inf') if d.sign else float('inf')


def split(ty, words):
    """Element bit patterns of register words (f64: one element a word), low bits first."""
    w = BITS[ty]
    if w >= 32:
        return list(words)
    return [x >> s & ((1 << w) - 1) for x in words for s in range(0, 32, w)]


def join(ty, elems):
    w = BITS[ty]
    if w >= 32:
        return list(elems)
    per = 32 // w
    return [sum(e << (w * j) for j, e in enumerate(elems[i:i + per]))
            for i in range(0, len(elems), per)]


def rounding(ins, td, sat):
    """The rounding mode of a float D (.rn .rz .rm .rp; nearest even without one); a float
    D under .satfinite is not modelled."""
    modes = [m for m in ins.mods if m in ('rn', 'rz', 'rm', 'rp')]
    if td != 's32' and sat:
        raise UB('%s: .satfinite with a float D is not modelled' % ins.line)
    if modes and td != 'f64':
        raise UB('%s: a rounding modifier with a %s D is not modelled' % (ins.line, td))
    return modes[0] if modes else 'rn'


def finish(ty, v, sat, mode='rn'):
    """Bits of a D element from its exact value (a float: NaN or infinity)."""
    if ty == 's32':
        if sat:
            return min(max(v, -(1 << 31)), (1 << 31) - 1) & 0xffffffff
        return v & 0xffffffff
    if isinstance(v, float):
        return fc.CANON_NAN[ty] if v != v else fc.inf(ty, 1 if v < 0 else 0)
    return fc.round_value(Fraction(v), ty, mode)


def _dot(ta, tb, avals, bvals, c, b1op):
    if ta == 'b1':
        op = (lambda x, y: x & y) if b1op == 'and' else (lambda x, y: x ^ y)
        return c + sum(op(x, y) for x, y in zip(avals, bvals))
    vals = [c] + avals + bvals
    if any(isinstance(x, float) for x in vals):  # NaN or infinity: IEEE float arithmetic
        return float(c) + sum(float(x) * float(y) for x, y in zip(avals, bvals))
    return c + sum(x * y for x, y in zip(avals, bvals))


def _vec(a):
    return a[1] if a[0] == 'vec' else [a]


def _regs(ctx, a, ty):
    bits = 'b64' if ty == 'f64' else 'b32'
    return [ctx.get(x, bits) for x in _vec(a)], [ctx.set(x, bits) for x in _vec(a)]


def _lanes(ins, active, warp, strict):
    lanes = {t.lane: t for t in warp}
    if len(active) != 32:
        if strict or len(lanes) != 32:
            raise UB('%s: %s needs the whole warp' % (ins.line, ins.op))
    return lanes


def c_mma(ins, ctx):
    name = 'mma.' + '.'.join(ins.mods)
    f = mma_frag.form_of(name)
    ga, _ = _regs(ctx, ins.args[1], f.ta)
    gb, _ = _regs(ctx, ins.args[2], f.tb)
    gc, _ = _regs(ctx, ins.args[3], f.tc)
    _, sd = _regs(ctx, ins.args[0], f.td)
    if len(sd) != f.nregs('d') or len(ga) != f.nregs('a') or len(gb) != f.nregs('b'):
        raise UB('%s: %s wants %d/%d/%d registers' % (ins.line, name, f.nregs('d'),
                                                       f.nregs('a'), f.nregs('b')))
    strict = ctx.ck.strict
    mode = rounding(ins, f.td, f.sat)

    def f_(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        A, B, C = {}, {}, {}
        for lane, t in lanes.items():
            grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
            for mat, ty, lay, gs in ((A, f.ta, f.la, ga), (B, f.tb, f.lb, gb),
                                     (C, f.tc, f.lc, gc)):
                for i, e in enumerate(split(ty, [g(t) for g in gs])):
                    mat[(grp,) + lay(lane, i)] = elem_value(ty, e)
        for lane, t in lanes.items():
            if t not in active:
                continue
            grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
            out = []
            for i in range(f.nelem('d')):
                row, col = f.ld(lane, i)
                v = _dot(f.ta, f.tb, [A[(grp, row, k)] for k in range(f.k)],
                         [B[(grp, k, col)] for k in range(f.k)], C[(grp, row, col)], f.b1op)
                out.append(finish(f.td, v, f.sat, mode))
            for s, w in zip(sd, join(f.td, out)):
                s(t, w)
    return 'warp', f_


# ---------------------------------------------------------------- ldmatrix / stmatrix / movmatrix

def _space(mods):
    for m in mods:
        if m.startswith('shared'):
            return 'shared'
        if m in ('global', 'local'):
            return m
    return None


def _count(mods):
    for m in mods:
        if m in ('x1', 'x2', 'x4'):
            return int(m[1])
    raise UB('ldmatrix/stmatrix without .x1/.x2/.x4')


def _frag_pos(lane, i, trans):
    r, c = lane >> 2, 2 * (lane % 4) + i
    return (c, r) if trans else (r, c)


def c_ldmatrix(ins, ctx):
    if 'm8n8' not in ins.mods or 'b16' not in ins.mods:
        raise UB('%s: only ldmatrix .m8n8 .b16 is modelled' % ins.line)
    n, trans, space = _count(ins.mods), 'trans' in ins.mods, _space(ins.mods)
    addr = _address(ctx, ins.args[1], space)
    _, sd = _regs(ctx, ins.args[0], 'b16')
    strict = ctx.ck.strict

    def f(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        mats = []
        for j in range(n):
            rows = []
            for r in range(8):
                t = lanes[8 * j + r]
                a = addr(t)
                rows.append([mem.load(*access(space, t, a + 2 * c, 2), 2) for c in range(8)])
            mats.append(rows)
        for t in active:
            for j in range(n):
                e = [mats[j][r][c] for r, c in (_frag_pos(t.lane, i, trans) for i in range(2))]
                sd[j](t, e[0] | e[1] << 16)
    return 'warp', f


def c_stmatrix(ins, ctx):
    if 'm8n8' not in ins.mods or 'b16' not in ins.mods:
        raise UB('%s: only stmatrix .m8n8 .b16 is modelled' % ins.line)
    n, trans, space = _count(ins.mods), 'trans' in ins.mods, _space(ins.mods)
    addr = _address(ctx, ins.args[0], space)
    gs, _ = _regs(ctx, ins.args[1], 'b16')
    strict = ctx.ck.strict

    def f(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        mats = [[[0] * 8 for _ in range(8)] for _ in range(n)]
        for lane, t in lanes.items():
            for j in range(n):
                v = gs[j](t)
                for i in range(2):
                    r, c = _frag_pos(lane, i, trans)
                    mats[j][r][c] = v >> (16 * i) & 0xffff
        for j in range(n):
            for r in range(8):
                t = lanes[8 * j + r]
                a = addr(t)
                for c in range(8):
                    buf, o = access(space, t, a + 2 * c, 2)
                    mem.store(buf, o, 2, mats[j][r][c])
    return 'warp', f


def c_movmatrix(ins, ctx):
    if 'trans' not in ins.mods or 'm8n8' not in ins.mods or 'b16' not in ins.mods:
        raise UB('%s: only movmatrix .m8n8 .trans .b16 is modelled' % ins.line)
    ga = ctx.get(ins.args[1], 'b32')
    sd = ctx.set(ins.args[0], 'b32')
    strict = ctx.ck.strict

    def f(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        m = [[0] * 8 for _ in range(8)]
        for lane, t in lanes.items():
            v = ga(t)
            for i in range(2):
                r, c = _frag_pos(lane, i, False)
                m[r][c] = v >> (16 * i) & 0xffff
        for t in active:
            e = [m[r][c] for r, c in (_frag_pos(t.lane, i, True) for i in range(2))]
            sd(t, e[0] | e[1] << 16)
    return 'warp', f


# ---------------------------------------------------------------- wmma

def _wmma_shape(mods):
    for m in mods:
        if m.startswith('m') and 'n' in m and 'k' in m and m[1].isdigit():
            return mma_frag.shape_of(m)
    raise UB('wmma without a shape')


def _elem_types(mods):
    return [m for m in mods if m in BITS]


def _wmma_dims(which, shape):
    m, n, k = shape
    return {'a': (m, k), 'b': (k, n), 'c': (m, n), 'd': (m, n)}[which]


def c_wmma(ins, ctx):
    kind = ins.mods[0]
    if kind == 'mma':
        return _wmma_mma(ins, ctx)
    which = ins.mods[1]
    shape = _wmma_shape(ins.mods)
    tys = _elem_types(ins.mods)
    if len(tys) != 1 or BITS[tys[0]] < 8:
        raise UB('%s: wmma.%s with types %s is not modelled' % (ins.line, kind, tys))
    ty = tys[0]
    lay = 'col' if 'col' in ins.mods else 'row'
    space = _space(ins.mods)
    rows, cols = _wmma_dims(which, shape)
    esz = max(BITS[ty] // 8, 1)
    if kind == 'load':
        regs_arg, addr_arg = ins.args[0], ins.args[1]
    else:
        addr_arg, regs_arg = ins.args[0], ins.args[1]
    addr = _address(ctx, addr_arg, space)
    stride = ctx.get(ins.args[2], 'u32') if len(ins.args) > 2 else None
    gs, ss = _regs(ctx, regs_arg, ty)
    per = len(gs) * (1 if BITS[ty] >= 32 else 32 // BITS[ty])
    size = rows * cols
    strict = ctx.ck.strict

    def at(t, r, c):
        st = stride(t) if stride else (cols if lay == 'row' else rows)
        return addr(t) + esz * (r * st + c if lay == 'row' else c * st + r)

    def f(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        t0 = lanes[0]
        if kind == 'load':
            logical = []
            for i in range(size):
                buf, o = access(space, t0, at(t0, *divmod(i, cols)), esz)
                logical.append(mem.load(buf, o, esz))
            for t in active:
                es = [logical[(t.lane * per + e) % size] for e in range(per)]
                for s, w in zip(ss, join(ty, es)):
                    s(t, w)
        else:
            logical = {}
            for lane, t in lanes.items():
                for e, v in enumerate(split(ty, [g(t) for g in gs])):
                    logical.setdefault((lane * per + e) % size, v)
            for i in range(size):
                buf, o = access(space, t0, at(t0, *divmod(i, cols)), esz)
                mem.store(buf, o, esz, logical[i])
    return 'warp', f


def _wmma_mma(ins, ctx):
    m, n, k = _wmma_shape(ins.mods)
    tys = _elem_types(ins.mods)
    if len(tys) == 2:  # .dtype.ctype with f16 A and B
        td, tc = tys
        ta = tb = 'f16'
    elif len(tys) == 4:
        td, ta, tb, tc = tys
    else:
        raise UB('%s: wmma.mma types %s' % (ins.line, tys))
    sat = 'satfinite' in ins.mods
    b1op = 'xor' if 'xor' in ins.mods else 'and'
    mode = rounding(ins, td, sat)
    _, sd = _regs(ctx, ins.args[0], td)
    ga, _ = _regs(ctx, ins.args[1], ta)
    gb, _ = _regs(ctx, ins.args[2], tb)
    gc, _ = _regs(ctx, ins.args[3], tc)
    strict = ctx.ck.strict

    def per(gs, ty):
        return len(gs) * (1 if BITS[ty] >= 32 else 32 // BITS[ty])

    def gather(lanes, gs, ty, size):
        logical = {}
        p = per(gs, ty)
        for lane, t in lanes.items():
            for e, v in enumerate(split(ty, [g(t) for g in gs])):
                logical.setdefault((lane * p + e) % size, elem_value(ty, v))
        return logical

    def f(active, group, warp):
        lanes = _lanes(ins, active, warp, strict)
        A, B, C = gather(lanes, ga, ta, m * k), gather(lanes, gb, tb, k * n), \
            gather(lanes, gc, tc, m * n)
        D = []
        for i in range(m * n):
            r, c = divmod(i, n)
            v = _dot(ta, tb, [A[r * k + j] for j in range(k)], [B[j * n + c] for j in range(k)],
                     C[i], b1op)
            D.append(finish(td, v, sat, mode))
        pd = per(sd, td)
        for t in active:
            es = [D[(t.lane * pd + e) % (m * n)] for e in range(pd)]
            for s, w in zip(sd, join(td, es)):
                s(t, w)
    return 'warp', f


OPS = {'mma': c_mma, 'ldmatrix': c_ldmatrix, 'stmatrix': c_stmatrix, 'movmatrix': c_movmatrix,
       'wmma': c_wmma}
