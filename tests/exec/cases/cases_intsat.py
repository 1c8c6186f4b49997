"""Case for tests/exec/ptx/intsat.ptx: add/sub.sat.s32, the .s16x2/.u16x2 forms, min/max .relu,
min/max.xorsign.abs, cvt.sat between integer types, cvt.pack.sat, set and the video
instructions, on edge operands (INT_MIN/INT_MAX and their neighbours, half and byte boundaries,
f32/f16/bf16 zeros of both signs, subnormals, infinities and NaNs).  The references are the PTX
ISA's definitions (its pseudo-code for the video instructions), written here independently of
the compiler, with the H100's behaviour where it differs (video forms): intsat.ptx ran on an
H100 (intsat_nv.py) and every word but one 16-bit register artifact agrees with them, as do the
add/sub.sat.s32 and cvt.sat results of ../shared/ptx-hw (intsat_verify.py; docs/SEMANTICS.md
"Integer saturation, set and video instructions")."""

import math
import random
import struct

from ref import Case, In, Out, unpack, M32

NOUT = 160
# words stored from 16-bit registers (cvt.u32.u16): NVIDIA hardware may leave the register's
# other half in them (intsat_nv.py compares their low halves)
H16_WORDS = (21, 22, 23, 24, 47, 70, 72)
M64 = (1 << 64) - 1

INT_EDGE = [0, 1, 2, M32, 0xfffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0x7ffffffe,
            0x00007fff, 0x00008000, 0x0000ffff, 0x00010000, 0x7fff7fff, 0x80008000, 0xffff0000,
            0x8000ffff, 0x7fff8000, 0x00ff00ff, 0xff00ff00, 0x7f7f7f7f, 0x80808080, 0x01020304,
            0xfffefdfc, 0x0000007f, 0x00000080, 0x000000ff, 0xffffff80, 0xffffff7f, 0x20, 0x21,
            0x1f, 0x3f, 0x100000000 - 129, 0x7ffffff8, 0x00000008, 0x0000000f, 0xfffffff8]
F_EDGE = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000,
          0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x40000000,
          0xc0400000, 0x3c00bc00, 0x7c00fc00, 0x7e00fe01, 0x00018001, 0x03ff83ff, 0x04000400,
          0x3f80bf80, 0x7f80ff80, 0x7fc17f81, 0x00400040, 0x3c003c00, 0xbc003c01]


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def rng_of(signed, bits):
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


# ---- add/sub.sat, x2 forms, relu ----

def sat_s32(v):
    return clamp(v, -2**31, 2**31 - 1) & M32


def halves_op(a, b, f, signed):
    r = 0
    for i in range(2):
        x, y = (a >> 16 * i) & 0xffff, (b >> 16 * i) & 0xffff
        if signed:
            x, y = sx(x, 16), sx(y, 16)
        r |= (f(x, y) & 0xffff) << 16 * i
    return r


def relu(v):
    return max(v, 0)


# ---- cvt.sat, cvt.pack ----

def cvt_sat(v, sbits, ssigned, dbits, dsigned, reg_bits):
    """The source's own bits as its type's value, clamped to the destination type's range,
    then extended (as the destination type says) to the register width."""
    x = sx(v, sbits) if ssigned else v & ((1 << sbits) - 1)
    lo, hi = rng_of(dsigned, dbits)
    return clamp(x, lo, hi) & ((1 << reg_bits) - 1)


def cvt_pack(a, b, c, bits, signed):
    lo, hi = rng_of(signed, bits)
    m = (1 << bits) - 1
    ta, tb = clamp(sx(a, 32), lo, hi) & m, clamp(sx(b, 32), lo, hi) & m
    d = tb | ta << bits
    if bits < 16:
        d |= c << 2 * bits
    return d & M32


# ---- floats ----

def f32(u):
    return struct.unpack('<f', struct.pack('<I', u & M32))[0]


def f16(h):
    return struct.unpack('<e', struct.pack('<H', h & 0xffff))[0]


def bf16(h):
    return f32((h & 0xffff) << 16)


def flush32(u):
    return u & 0x80000000 if u & 0x7fffffff < 0x00800000 else u


def flush16(h):
    return h & 0x8000 if h & 0x7fff < 0x0400 else h


def xorsign(a, b, is_min, kind, nan_mode=False, ftz=False):
    """min/max.xorsign.abs: min/max of |a| and |b| (a NaN loses to a number unless .NaN; two
    NaNs give the canonical NaN), with the XOR of the operands' sign bits."""
    bits = 32 if kind == 'f32' else 16
    sbit = 1 << (bits - 1)
    dec = {'f32': f32, 'f16': f16, 'bf16': bf16}[kind]
    ma, mb = a & (sbit - 1), b & (sbit - 1)
    if ftz:
        ma = 0 if (kind == 'f32' and ma < 0x00800000) or (kind == 'f16' and ma < 0x400) else ma
        mb = 0 if (kind == 'f32' and mb < 0x00800000) or (kind == 'f16' and mb < 0x400) else mb
    x, y = dec(ma), dec(mb)
    if (math.isnan(x) and math.isnan(y)) or (nan_mode and (math.isnan(x) or math.isnan(y))):
        return sbit - 1
    if math.isnan(x):
        r = mb
    elif math.isnan(y):
        r = ma
    else:
        r = ma if (x < y) == is_min else mb
    return r | ((a ^ b) & sbit)


def pairs(a, b, f):
    return f(a & 0xffff, b & 0xffff) | f(a >> 16, b >> 16) << 16


def fcmp(x, y, op):
    nan = math.isnan(x) or math.isnan(y)
    rel = {'eq': x == y, 'ne': x != y, 'lt': x < y, 'le': x <= y, 'gt': x > y, 'ge': x >= y}
    if op in rel:
        return not nan and rel[op]
    if op == 'num':
        return not nan
    if op == 'nan':
        return nan
    return nan or rel[op[:-1]]  # equ neu ltu leu gtu geu


def icmp(x, y, op):
    return {'eq': x == y, 'ne': x != y, 'lt': x < y, 'le': x <= y, 'gt': x > y,
            'ge': x >= y, 'lo': x < y, 'ls': x <= y, 'hi': x > y, 'hs': x >= y}[op]


# ---- video ----

def part(v, sel, signed):
    """partSelectSignExtend: byte 0-3 ('b0'..), half ('h0'/'h1') or the word."""
    if sel is None:
        return sx(v, 32) if signed else v
    pos, n = (8 * int(sel[1]), 8) if sel[0] == 'b' else (16 * int(sel[1]), 16)
    f = (v >> pos) & ((1 << n) - 1)
    return sx(f, n) if signed else f


def vscalar(op, a, b, c, d_s, a_s, b_s, sat=False, op2=None, asel=None, bsel=None, mode=None):
    """The ISA's pseudo-code, with the differences the H100 shows (intsat_nv.py): vadd with
    every type .u32 does not saturate (the 32-bit sum), vshl saturates from a 34-bit
    intermediate, and after vadd/vsub .min/.max compare the low 32 bits sign-extended."""
    ta, tb = part(a, asel, a_s), part(b, bsel, b_s)
    if op in ('shl', 'shr'):
        tb = min(tb, 32) if mode == 'clamp' else tb & 31
    t = {'add': lambda: ta + tb, 'sub': lambda: ta - tb, 'absdiff': lambda: abs(ta - tb),
         'min': lambda: min(ta, tb), 'max': lambda: max(ta, tb),
         'shl': lambda: ta << tb, 'shr': lambda: ta >> tb}[op]()
    if sat and not (op == 'add' and not (d_s or a_s or b_s)):
        t = clamp(sx(t, 34) if op == 'shl' else t, *rng_of(d_s, 32))
    return secondary(t, c, d_s, op2, op in ('add', 'sub'))


def secondary(t, c, d_s, op2, low_sext=False):
    """d = op2(t, c); low_sext: .min/.max see t's low 32 bits sign-extended (compared unsigned,
    as 64-bit values, with a .u32 destination's c), as the H100 does after vadd/vsub."""
    cc = sx(c, 32) if d_s else c
    if op2 == 'add':
        t = t + cc
    elif op2 in ('min', 'max'):
        key = t
        if low_sext:
            key = sx(t, 32) if d_s else sx(t, 32) & ((1 << 64) - 1)
        t = t if (key < cc) == (op2 == 'min') else cc
    return t & M32


def vset(a, b, c, a_s, b_s, cmp, op2=None, asel=None, bsel=None):
    t = 1 if icmp(part(a, asel, a_s), part(b, bsel, b_s), cmp) else 0
    return secondary(t, c, False, op2)


def vmad(a, b, c, d_s, a_s, b_s, sat=False, asel=None, bsel=None):
    """a * b + c, .sat to the signed range when a or b is signed (the ISA's signedFinal), else
    the unsigned one; as on the H100, a whole-word operand (no selector) and c are signed
    whatever their type."""
    t = part(a, asel, a_s or asel is None) * part(b, bsel, b_s or bsel is None) + sx(c, 32)
    if sat:
        t = clamp(t, *rng_of(a_s or b_s, 32))
    return t & M32


def vsimd(op, lanes, a, b, c, d_s, a_s, b_s, sat=False, add=False, cmp=None):
    w = 32 // lanes
    d = c if add else 0
    for i in range(lanes):
        x = (a >> w * i) & ((1 << w) - 1)
        y = (b >> w * i) & ((1 << w) - 1)
        x, y = (sx(x, w) if a_s else x), (sx(y, w) if b_s else y)
        if op == 'avrg':
            s = x + y
            t = (s + 1) >> 1 if s >= 0 else s >> 1
        elif op == 'set':
            t = 1 if icmp(x, y, cmp) else 0
        else:
            t = {'add': x + y, 'sub': x - y, 'absdiff': abs(x - y), 'min': min(x, y),
                 'max': max(x, y)}[op]
        if sat:
            t = clamp(t, *rng_of(d_s, w))
        if add:
            d += t
        else:
            d |= (t & ((1 << w) - 1)) << w * i
    return d & M32


def results(a, b, c, n):
    """The words intsat.ptx writes, in order (n: the thread count)."""
    sa, sb = sx(a, 32), sx(b, 32)
    d1, d2 = c << 32 | a, a << 32 | b
    p = c & 1
    h10, h11 = a & 0xffff, b & 0xffff
    r = [sat_s32(sa + sb), sat_s32(sa - sb)]
    for signed in (True, False):
        r.append(halves_op(a, b, lambda x, y: x + y, signed))
    r += [halves_op(b, c, min, False), halves_op(c, a, max, True)]
    r += [halves_op(a, b, min, True), halves_op(a, b, min, False),
          halves_op(a, b, max, True), halves_op(a, b, max, False),
          halves_op(a, b, lambda x, y: relu(min(x, y)), True),
          halves_op(a, b, lambda x, y: relu(max(x, y)), True),
          relu(min(sa, sb)) & M32, relu(max(sa, sb)) & M32]
    # cvt.sat (destination register width last)
    r += [cvt_sat(a, 32, True, 8, False, 32), cvt_sat(a, 32, True, 8, True, 32),
          cvt_sat(a, 32, True, 16, False, 32), cvt_sat(a, 32, True, 16, True, 32),
          cvt_sat(a, 32, True, 32, False, 32), cvt_sat(a, 32, False, 32, True, 32),
          cvt_sat(a, 32, False, 8, True, 32),
          cvt_sat(h10, 16, True, 8, False, 16), cvt_sat(h10, 16, True, 8, True, 16),
          cvt_sat(h10, 16, False, 16, True, 16), cvt_sat(h10, 8, True, 16, False, 16),
          cvt_sat(d1, 64, True, 32, True, 32), cvt_sat(d1, 64, True, 32, False, 32),
          cvt_sat(d1, 64, False, 32, True, 32), cvt_sat(d1, 64, True, 8, False, 32)]
    for v in (cvt_sat(d1, 64, False, 64, True, 64), cvt_sat(d1, 64, True, 64, False, 64),
              cvt_sat(a, 32, True, 64, False, 64)):
        r += [v & M32, v >> 32]
    r += [cvt_pack(a, b, c, 16, True), cvt_pack(a, b, c, 16, False),
          cvt_pack(a, b, c, 8, True), cvt_pack(a, b, c, 8, False),
          cvt_pack(a, b, c, 4, True), cvt_pack(a, b, c, 4, False)]
    # min/max.xorsign.abs
    r += [xorsign(a, b, True, 'f32'), xorsign(a, b, False, 'f32'),
          xorsign(a, b, True, 'f32', nan_mode=True), xorsign(a, b, False, 'f32', ftz=True),
          pairs(a, b, lambda x, y: xorsign(x, y, True, 'f16')),
          pairs(a, b, lambda x, y: xorsign(x, y, False, 'bf16')),
          xorsign(h10, h11, True, 'f16'),
          pairs(a, b, lambda x, y: xorsign(x, y, False, 'bf16', nan_mode=True)),
          pairs(a, b, lambda x, y: xorsign(x, y, True, 'f16', ftz=True))]
    # set
    ones, one_f = M32, 0x3f800000
    fa, fb = f32(a), f32(b)
    r += [ones if icmp(sa, sb, 'lt') else 0, ones if icmp(a, b, 'lo') else 0,
          ones if icmp(a, b, 'hs') else 0, one_f if sa != sb else 0,
          ones if fcmp(fa, fb, 'gtu') else 0, ones if fcmp(fa, fb, 'ge') else 0,
          one_f if fcmp(fa, fb, 'equ') else 0, ones if fcmp(fa, fb, 'num') else 0,
          ones if fcmp(fa, fb, 'nan') else 0,
          ones if fcmp(f32(flush32(a)), f32(flush32(b)), 'lt') else 0,
          ones if (sa <= sb) and p else 0, ones if (a > b) or not p else 0,
          one_f if fcmp(fa, fb, 'eq') != bool(p) else 0]
    fd1 = struct.unpack('<d', struct.pack('<Q', d1))[0]
    fd2 = struct.unpack('<d', struct.pack('<Q', d2))[0]
    r += [ones if fcmp(fd1, fd2, 'lt') else 0, ones if sx(d1, 64) < sx(d2, 64) else 0,
          ones if h10 < h11 else 0, ones if sx(h10, 16) < sx(h11, 16) else 0,
          pairs(a, b, lambda x, y: 0x3c00 if fcmp(f16(x), f16(y), 'lt') else 0),
          pairs(a, b, lambda x, y: 0xffff if fcmp(f16(x), f16(y), 'leu') else 0),
          ones if fcmp(f16(flush16(h10)), f16(flush16(h11)), 'lt') else 0,
          0x3c00 if fcmp(f16(h10), f16(h11), 'ge') else 0,
          pairs(a, b, lambda x, y: 0x3f80 if fcmp(bf16(x), bf16(y), 'gt') else 0),
          0xffff if fcmp(bf16(h10), bf16(h11), 'neu') else 0]
    # scalar video
    V = vscalar
    r += [V('add', a, b, c, False, False, False), V('add', a, b, c, True, True, True, sat=True),
          V('add', a, b, c, False, False, False, sat=True),
          V('add', a, b, c, True, False, True, sat=True, asel='b3', bsel='h0'),
          V('sub', a, b, c, True, True, True, sat=True),
          V('sub', a, b, c, False, True, False, sat=True, asel='h1', bsel='b2'),
          V('absdiff', a, b, c, True, True, True, sat=True),
          V('absdiff', a, b, c, False, True, False, asel='b0', bsel='b1'),
          V('min', a, b, c, True, False, True),
          V('max', a, b, c, False, True, True, sat=True, asel='h1', bsel='h0'),
          V('max', a, b, c, False, False, False, op2='max', asel='b1', bsel='b2'),
          V('add', a, b, c, True, True, True, op2='add'),
          V('add', a, b, c, False, False, False, op2='min'),
          V('sub', a, b, c, True, True, False, sat=True, op2='max'),
          V('shl', a, b, c, False, False, False, mode='clamp'),
          V('shl', a, b, c, False, False, False, mode='wrap'),
          V('shl', a, b, c, True, True, False, sat=True, bsel='b0', mode='clamp'),
          V('shl', a, b, c, False, False, False, sat=True, bsel='b0', mode='clamp'),
          V('shr', a, b, c, True, True, False, bsel='b0', mode='clamp'),
          V('shr', a, b, c, False, False, False, mode='wrap'),
          V('shr', a, b, c, True, True, False, op2='add', mode='wrap'),
          vset(a, b, c, False, False, 'lt'), vset(a, b, c, True, False, 'ge', asel='b3', bsel='h1'),
          vset(a, b, c, True, True, 'ne', op2='add'),
          vset(a, b, c, False, True, 'gt', op2='max', asel='b0', bsel='b0'),
          vmad(a, b, c, True, True, True), vmad(a, b, c, False, False, False, sat=True),
          vmad(a, b, c, True, False, True, sat=True, asel='h0', bsel='h1'),
          vmad(a, b, c, False, False, False, asel='b0', bsel='b1'),
          vmad(a, b, c, True, True, False, sat=True)]
    # SIMD video
    S = vsimd
    r += [S('add', 2, a, b, c, False, False, False),
          S('add', 2, a, b, c, True, True, True, sat=True),
          S('add', 2, a, b, c, False, False, False, sat=True),
          S('sub', 2, a, b, c, True, True, False, sat=True),
          S('avrg', 2, a, b, c, True, True, True), S('avrg', 2, a, b, c, False, False, False),
          S('absdiff', 2, a, b, c, False, True, True, sat=True),
          S('min', 2, a, b, c, True, True, True), S('max', 2, a, b, c, False, False, False),
          S('set', 2, a, b, c, False, True, True, cmp='lt'),
          S('set', 2, a, b, c, False, False, False, add=True, cmp='ne'),
          S('add', 2, a, b, c, True, True, True, add=True),
          S('add', 4, a, b, c, False, False, False),
          S('add', 4, a, b, c, True, True, True, sat=True),
          S('sub', 4, a, b, c, False, False, False, sat=True),
          S('avrg', 4, a, b, c, True, True, True), S('avrg', 4, a, b, c, False, False, False),
          S('absdiff', 4, a, b, c, False, False, False, add=True),
          S('absdiff', 4, a, b, c, True, True, True, sat=True),
          S('min', 4, a, b, c, True, False, True),
          S('max', 4, a, b, c, False, False, False, add=True),
          S('set', 4, a, b, c, False, False, False, cmp='lt'),
          S('set', 4, a, b, c, False, True, True, add=True, cmp='ge'),
          S('sub', 2, a, b, c, False, False, False, add=True)]
    r.append(sat_s32(sa + sb) if p else c)
    r += [sat_s32(n + 2147483000), sat_s32(-2147483000 - n)]
    r += [halves_op(a, 0x7fff8001, lambda x, y: x + y, False),
          halves_op(n, 0xfff00010, lambda x, y: relu(min(x, y)), True)]
    # more video forms
    r += [V('sub', a, b, c, False, False, False, sat=True),
          V('absdiff', a, b, c, False, False, False, sat=True),
          V('min', a, b, c, False, False, False, sat=True),
          V('add', a, b, c, False, False, False, sat=True, asel='b0', bsel='h1'),
          V('add', a, b, c, False, True, True, sat=True),
          V('add', a, b, c, True, False, False, sat=True),
          V('add', a, b, c, False, False, False, op2='max'),
          V('sub', a, b, c, False, False, False, op2='min'),
          V('add', a, b, c, False, True, True, op2='max'),
          V('add', a, b, c, True, False, False, op2='min'),
          V('add', a, b, c, False, False, False, sat=True, op2='min'),
          V('sub', a, b, c, False, True, True, sat=True, op2='max'),
          V('add', a, b, c, False, False, False, op2='add'),
          V('shl', a, b, c, False, False, False, sat=True, mode='wrap'),
          V('shl', a, b, c, True, True, False, sat=True, mode='wrap'),
          V('shr', a, b, c, False, False, False, sat=True, mode='clamp'),
          V('shr', a, b, c, True, True, False, sat=True, mode='clamp'),
          V('shl', a, b, c, False, False, False, op2='max', bsel='b0', mode='clamp'),
          vmad(a, b, c, False, False, False, sat=True, asel='b0', bsel='b1'),
          vmad(a, b, c, True, False, False, sat=True),
          vmad(a, b, c, False, True, True, sat=True, asel='h1', bsel='h0'),
          vmad(a, b, c, False, False, False, sat=True, asel='h0'),
          vmad(a, b, c, True, False, False, sat=True, asel='h1', bsel='h1'),
          vset(a, b, c, False, False, 'lt', op2='min'),
          vset(a, b, c, True, True, 'gt', op2='add', asel='b1', bsel='b1'),
          V('min', a, b, c, False, False, False, op2='min'),
          V('max', a, b, c, True, True, True, sat=True, op2='min'),
          V('sub', a, b, c, True, False, False, sat=True)]
    assert len(r) == NOUT, len(r)
    return r


def operands(rng, n):
    a, b, c = [], [], []
    pools = (INT_EDGE, F_EDGE)
    for i in range(n):
        a.append(rng.choice(pools[i % 2]) if i % 5 else rng.getrandbits(32))
        b.append(rng.choice(pools[(i // 2) % 2]) if i % 7 else rng.getrandbits(32))
        c.append(rng.choice(INT_EDGE) if i % 3 else rng.getrandbits(32))
    # every pair of INT_EDGE values once as (a, b), and of F_EDGE
    pairs_ = [(x, y) for x in INT_EDGE for y in INT_EDGE] + \
        [(x, y) for x in F_EDGE for y in F_EDGE]
    for i, (x, y) in enumerate(pairs_[:n]):
        a[i], b[i] = x, y
    return a, b, c


def intsat_case():
    rng = random.Random('intsat')
    n, block = 2304, 128
    a, b, c = operands(rng, n)

    def check(outs, wave):
        got, errs = unpack('I', outs[0]), []
        for i in range(n):
            exp = results(a[i], b[i], c[i], n)
            for w, e in enumerate(exp):
                g = got[i * NOUT + w]
                if g != e:
                    errs.append('intsat thread %d word %d: got %#x, expected %#x (a=%#x b=%#x '
                                'c=%#x)' % (i, w, g, e, a[i], b[i], c[i]))
                if len(errs) > 12:
                    return errs
        return errs

    return Case('intsat', 'intsat', (n // block,), (block,),
                [Out(4 * NOUT * n), In('I', a), In('I', b), In('I', c), ('u32', n)], check)


def cases():
    return [intsat_case()]
