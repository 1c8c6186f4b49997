"""Integer saturation, SIMD 16x2 integer, set, min/max.xorsign.abs, cvt.pack and video
instructions of the reference interpreter, as the PTX ISA defines them, and where an NVIDIA H100
differs from its pseudo-code the hardware's behaviour (docs/SEMANTICS.md "Integer saturation,
set and video instructions"; tests/exec/intsat_nv.py ran these forms on an H100):
- vadd.u32.u32.u32.sat wraps (no saturation);
- after vadd/vsub the secondary .min/.max compare the low 32 bits of the intermediate,
  sign-extended, with c (unsigned, as 64-bit values, with a .u32 destination);
- vshl saturates from a 34-bit intermediate;
- vmad reads whole-word operands (no selector) and c as signed.
The instructions the other modules own (add, min, max, cvt) are wrapped: only their forms named
here are handled in this module.
"""

import math
import struct

import floatops
import intops
from ops_common import UB, mask, sext, types_of

SELECTORS = {'.b0': (0, 8), '.b1': (8, 8), '.b2': (16, 8), '.b3': (24, 8), '.h0': (0, 16),
             '.h1': (16, 16)}


def _clamp(v, lo, hi):
    return max(lo, min(hi, v))


def _range(signed, bits):
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


# ---- .s16x2 / .u16x2, xorsign, cvt.pack (wrapping the other modules' instructions) ----

def _x2(ins, ctx, ty):
    if ins.op not in ('add', 'min', 'max') or 'sat' in ins.mods or \
            ('relu' in ins.mods and (ins.op == 'add' or ty != 's16x2')):
        raise UB('%s: %s.%s is not a PTX form' % (ins.line, ins.op, ty))
    signed, relu = ty == 's16x2', 'relu' in ins.mods
    ga, gb = ctx.get(ins.args[1], 'b32'), ctx.get(ins.args[2], 'b32')
    s = ctx.set(ins.args[0], 'b32')

    def half(x, y):
        if signed:
            x, y = sext(x, 16), sext(y, 16)
        r = x + y if ins.op == 'add' else min(x, y) if ins.op == 'min' else max(x, y)
        return (max(r, 0) if relu else r) & 0xffff

    def f(t):
        a, b = ga(t), gb(t)
        s(t, half(a & 0xffff, b & 0xffff) | half(a >> 16, b >> 16) << 16)
    return 'lane', f


def _decode(bits, fmt):
    if fmt == 'f32':
        return struct.unpack('<f', struct.pack('<I', bits))[0]
    if fmt == 'f64':
        return struct.unpack('<d', struct.pack('<Q', bits))[0]
    if fmt == 'f16':
        return struct.unpack('<e', struct.pack('<H', bits))[0]
    return struct.unpack('<f', struct.pack('<I', bits << 16))[0]  # bf16


def _flush(bits, fmt):
    """.ftz: a subnormal f32/f16 as the zero of its sign."""
    sb = {'f32': 0x80000000, 'f16': 0x8000}.get(fmt)
    if sb is None:
        return bits
    tiny = 0x00800000 if fmt == 'f32' else 0x0400
    return bits & sb if bits & (sb - 1) < tiny else bits


def _xorsign(ins, ctx, ty):
    fmt = ty[:-2] if ty.endswith('x2') else ty
    if 'abs' not in ins.mods or fmt not in ('f32', 'f16', 'bf16') or \
            ('ftz' in ins.mods and fmt == 'bf16'):
        raise UB('%s: .xorsign needs .abs on f32/f16/bf16 (.ftz not on bf16)' % ins.line)
    bits = 32 if fmt == 'f32' else 16
    sb, nan_mode, ftz = 1 << (bits - 1), 'NaN' in ins.mods, 'ftz' in ins.mods
    is_min = ins.op == 'min'

    def one(a, b):
        ma, mb = a & (sb - 1), b & (sb - 1)
        if ftz:
            ma, mb = _flush(ma, fmt), _flush(mb, fmt)
        x, y = _decode(ma, fmt), _decode(mb, fmt)
        if (math.isnan(x) and math.isnan(y)) or (nan_mode and (math.isnan(x) or math.isnan(y))):
            return sb - 1  # the canonical NaN, sign clear
        if math.isnan(x):
            r = mb
        elif math.isnan(y):
            r = ma
        else:
            r = ma if (x < y) == is_min else mb
        return r | ((a ^ b) & sb)
    return floatops._lanewise(ins, ctx, ty, 2, one)


def _pack(ins, ctx):
    tys = types_of(ins.mods)
    dty = tys[0]
    n = {'s16': 16, 'u16': 16, 's8': 8, 'u8': 8, 's4': 4, 'u4': 4}.get(dty)
    if 'sat' not in ins.mods or n is None or tys[1] != 's32' or \
            len(ins.args) != (3 if n == 16 else 4):
        raise UB('%s: cvt.pack form not in the ISA' % ins.line)
    lo, hi = _range(dty[0] == 's', n)
    ga, gb = ctx.get(ins.args[1], 's32'), ctx.get(ins.args[2], 's32')
    gc = ctx.get(ins.args[3], 'b32') if n < 16 else (lambda t: 0)
    s = ctx.set(ins.args[0], 'b32')
    m = mask(n)

    def f(t):
        ta = _clamp(sext(ga(t), 32), lo, hi) & m
        tb = _clamp(sext(gb(t), 32), lo, hi) & m
        s(t, (tb | ta << n | (gc(t) << 2 * n if n < 16 else 0)) & 0xffffffff)
    return 'lane', f


def _wrap(op, prev):
    def comp(ins, ctx):
        tys = types_of(ins.mods)
        ty = tys[0] if tys else None
        if ty in ('s16x2', 'u16x2'):
            return _x2(ins, ctx, ty)
        if op in ('min', 'max') and 'xorsign' in ins.mods:
            return _xorsign(ins, ctx, ty)
        if op == 'cvt' and 'pack' in ins.mods:
            return _pack(ins, ctx)
        return prev(ins, ctx)
    return comp


# ---- set ----

_FCMP = {'eq': lambda x, y: x == y, 'ne': lambda x, y: x != y, 'lt': lambda x, y: x < y,
         'le': lambda x, y: x <= y, 'gt': lambda x, y: x > y, 'ge': lambda x, y: x >= y}
_ICMP = dict(_FCMP, lo=_FCMP['lt'], ls=_FCMP['le'], hi=_FCMP['gt'], hs=_FCMP['ge'])


def _fcompare(cmp, x, y):
    nan = math.isnan(x) or math.isnan(y)
    if cmp in _FCMP:
        return not nan and _FCMP[cmp](x, y)
    if cmp == 'num':
        return not nan
    if cmp == 'nan':
        return nan
    return nan or _FCMP[cmp[:-1]](x, y)


def c_set(ins, ctx):
    dty, sty = types_of(ins.mods)[:2]
    cmp = next(m for m in ins.mods if m in _ICMP or m in ('equ', 'neu', 'ltu', 'leu', 'gtu',
                                                          'geu', 'num', 'nan'))
    bop = next((m for m in ins.mods if m in ('and', 'or', 'xor')), None)
    fmt = sty[:-2] if sty.endswith('x2') else sty
    is_float = fmt in ('f16', 'bf16', 'f32', 'f64')
    ftz = 'ftz' in ins.mods
    pair = sty.endswith('x2')
    one = {'f32': 0x3f800000, 'f16': 0x3c00, 'bf16': 0x3f80, 'f16x2': 0x3c00,
           'bf16x2': 0x3f80}.get(dty, 0xffff if pair or dty in ('u16', 's16') else 0xffffffff)
    ga, gb = ctx.get(ins.args[1], sty), ctx.get(ins.args[2], sty)
    gc = ctx.get(ins.args[3], 'pred') if len(ins.args) > 3 else None
    s = ctx.set(ins.args[0], 'b32' if pair else dty)
    w = 16 if pair else int(intops._bits(sty))

    def test(a, b):
        if is_float:
            if ftz:
                a, b = _flush(a, fmt), _flush(b, fmt)
            return _fcompare(cmp, _decode(a, fmt), _decode(b, fmt))
        if sty[0] == 's' and cmp not in ('lo', 'ls', 'hi', 'hs'):
            a, b = sext(a, w), sext(b, w)
        return _ICMP[cmp](a, b)

    def combine(p, t):
        if gc is None:
            return p
        c = gc(t)
        return {'and': p and c, 'or': p or c, 'xor': p != bool(c)}[bop]

    def f(t):
        a, b = ga(t), gb(t)
        if pair:
            lo = one if combine(test(a & 0xffff, b & 0xffff), t) else 0
            hi = one if combine(test(a >> 16, b >> 16), t) else 0
            s(t, lo | hi << 16)
        else:
            s(t, one if combine(test(a, b), t) else 0)
    return 'lane', f


# ---- video ----

def _part_getter(ctx, a, signed):
    """Getter of a video source: its selected byte/half or the word, extended."""
    sel = None
    if a[0] == 'reg' and a[1][-3:] in SELECTORS:
        sel = SELECTORS[a[1][-3:]]
        a = ('reg', a[1][:-3])
    g = ctx.get(a, 'b32')
    pos, n = sel or (0, 32)
    if signed:
        return (lambda t: sext(g(t) >> pos, n)), sel is not None
    return (lambda t: (g(t) >> pos) & mask(n)), sel is not None


def _op2(ins):
    return next((m for m in ins.mods if m in ('add', 'min', 'max')), None)


def _secondary(t, c, d_s, op2, low_sext):
    cc = sext(c, 32) if d_s else c
    if op2 == 'add':
        t += cc
    elif op2:
        key = t
        if low_sext:  # after vadd/vsub: the low 32 bits sign-extended
            key = sext(t, 32) if d_s else sext(t, 32) & mask(64)
        t = t if (key < cc) == (op2 == 'min') else cc
    return t & 0xffffffff


def c_video(ins, ctx):
    tys = types_of(ins.mods)
    if any(ty not in ('u32', 's32') for ty in tys):
        raise UB('%s: video types other than .u32/.s32' % ins.line)
    op, op2, sat = ins.op[1:], _op2(ins), 'sat' in ins.mods
    if (len(ins.args) == 4) != (op2 is not None):
        raise UB('%s: c exactly with .add/.min/.max' % ins.line)
    if op == 'set':
        d_s, (a_s, b_s) = False, [ty == 's32' for ty in tys]
        cmp = next(m for m in ins.mods if m in _FCMP)
    else:
        d_s, a_s, b_s = [ty == 's32' for ty in tys]
    ga, _ = _part_getter(ctx, ins.args[1], a_s)
    gb, _ = _part_getter(ctx, ins.args[2], b_s)
    gc = ctx.get(ins.args[3], 'b32') if op2 else (lambda t: 0)
    s = ctx.set(ins.args[0], 'b32')
    mode = 'clamp' if 'clamp' in ins.mods else 'wrap'
    no_sat = op == 'add' and not (d_s or a_s or b_s)  # the H100 wraps

    def f(t):
        ta, tb = ga(t), gb(t)
        if op == 'set':
            r = 1 if _ICMP[cmp](ta, tb) else 0
        elif op in ('shl', 'shr'):
            tb = min(tb, 32) if mode == 'clamp' else tb & 31
            r = ta << tb if op == 'shl' else ta >> tb
        else:
            r = {'add': ta + tb, 'sub': ta - tb, 'absdiff': abs(ta - tb), 'min': min(ta, tb),
                 'max': max(ta, tb)}[op]
        if sat and not no_sat:
            r = _clamp(sext(r, 34) if op == 'shl' else r, *_range(d_s, 32))
        s(t, _secondary(r, gc(t), d_s, op2, op in ('add', 'sub')))
    return 'lane', f


def c_vmad(ins, ctx):
    d_s, a_s, b_s = [ty == 's32' for ty in types_of(ins.mods)]
    signed_final = a_s or b_s
    ga, a_sel = _part_getter(ctx, ins.args[1], a_s)
    gb, b_sel = _part_getter(ctx, ins.args[2], b_s)
    if not a_sel:  # whole words are signed on the H100
        ga, _ = _part_getter(ctx, ins.args[1], True)
    if not b_sel:
        gb, _ = _part_getter(ctx, ins.args[2], True)
    gc = ctx.get(ins.args[3], 'b32')
    s = ctx.set(ins.args[0], 'b32')
    sat = 'sat' in ins.mods

    def f(t):
        r = ga(t) * gb(t) + sext(gc(t), 32)
        if sat:
            r = _clamp(r, *_range(signed_final, 32))
        s(t, r & 0xffffffff)
    return 'lane', f


def c_simd(ins, ctx):
    lanes = int(ins.op[-1])
    op = ins.op[1:-1]
    tys = types_of(ins.mods)
    add, sat = 'add' in ins.mods, 'sat' in ins.mods
    if op == 'set':
        d_s, (a_s, b_s) = False, [ty == 's32' for ty in tys]
        cmp = next(m for m in ins.mods if m in _FCMP)
    else:
        d_s, a_s, b_s = [ty == 's32' for ty in tys]
    if add and sat:
        raise UB('%s: .sat with .add' % ins.line)
    w = 32 // lanes
    ga, gb, gc = (ctx.get(x, 'b32') for x in ins.args[1:4])
    s = ctx.set(ins.args[0], 'b32')

    def f(t):
        a, b, c = ga(t), gb(t), gc(t)
        d = c if add else 0
        for i in range(lanes):
            x, y = (a >> w * i) & mask(w), (b >> w * i) & mask(w)
            x, y = (sext(x, w) if a_s else x), (sext(y, w) if b_s else y)
            if op == 'set':
                r = 1 if _ICMP[cmp](x, y) else 0
            elif op == 'avrg':
                r = (x + y + (1 if x + y >= 0 else 0)) >> 1
            else:
                r = {'add': x + y, 'sub': x - y, 'absdiff': abs(x - y), 'min': min(x, y),
                     'max': max(x, y)}[op]
            if sat:
                r = _clamp(r, *_range(d_s, w))
            if add:
                d += r
            else:
                d |= (r & mask(w)) << w * i
        s(t, d & 0xffffffff)
    return 'lane', f


OPS = {'set': c_set, 'vmad': c_vmad}
for _v in ('vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax', 'vshl', 'vshr', 'vset'):
    OPS[_v] = c_video
for _v in ('vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax', 'vset'):
    OPS[_v + '2'] = OPS[_v + '4'] = c_simd
for _op in ('add', 'sub', 'min', 'max'):
    OPS[_op] = _wrap(_op, floatops.OPS[_op])
OPS['cvt'] = _wrap('cvt', floatops.OPS['cvt'])
