"""Integer, bit and predicate instructions of the reference interpreter, with exact integer
semantics as the PTX ISA states them, and where the hardware differs from the ISA's text the
hardware's behaviour (see docs/PTXREF.md):
- sub.cc / subc: the carry flag holds the carry of a + ~b + 1 (an inverted borrow), and subc
  computes a + ~b + CF, which equals a - b - borrow.
- div/rem by zero: every bit of the result set.
"""

from ops_common import QUIRK16, UB, mask, sext, types_of
from ptxparse import TYPE_BITS


def _bits(ty):
    return TYPE_BITS[ty]


def _ty(ins, n=0):
    tys = types_of(ins.mods)
    if not tys:
        raise UB('%s: no type' % ins.line)
    return tys[n]


def _lane(ins, ctx, ty, fn, nsrc, dty=None):
    """Per-lane op d = fn(a, b, ...) on raw bits of ty."""
    dty = dty or ty
    gs = [ctx.get(a, ty) for a in ins.args[1:1 + nsrc]]
    s = ctx.set(ins.args[0], dty)
    if nsrc == 1:
        g0 = gs[0]
        return 'lane', lambda t: s(t, fn(g0(t)))
    if nsrc == 2:
        g0, g1 = gs
        return 'lane', lambda t: s(t, fn(g0(t), g1(t)))
    if nsrc == 3:
        g0, g1, g2 = gs
        return 'lane', lambda t: s(t, fn(g0(t), g1(t), g2(t)))
    raise UB('arity')


def _sat_s(v, bits):
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return min(max(v, lo), hi) & mask(bits)


def c_add_sub(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    m = mask(w)
    sub = ins.op in ('sub', 'subc')
    use_cc = ins.op in ('addc', 'subc')
    set_cc = 'cc' in ins.mods
    sat = 'sat' in ins.mods
    if ty in ('f16', 'f32', 'f64', 'f16x2', 'bf16', 'bf16x2'):
        raise AssertionError
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    s = ctx.set(ins.args[0], ty)
    if sat:
        if sub:
            return 'lane', lambda t: s(t, _sat_s(sext(ga(t), w) - sext(gb(t), w), w))
        return 'lane', lambda t: s(t, _sat_s(sext(ga(t), w) + sext(gb(t), w), w))

    def f(t):
        a, b = ga(t), gb(t)
        if sub:
            cin = (t.cc if use_cc else 1)
            r = a + (b ^ m) + cin
        else:
            r = a + b + (t.cc if use_cc else 0)
        if set_cc:
            t.cc = r >> w & 1
        s(t, r & m)
    return 'lane', f


def c_mul(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    signed = ty[0] == 's'
    mode = [m for m in ins.mods if m in ('lo', 'hi', 'wide')]
    mode = mode[0] if mode else 'lo'
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    conv = (lambda v: sext(v, w)) if signed else (lambda v: v)
    is_mad = ins.op in ('mad', 'madc')
    sat = 'sat' in ins.mods
    dbits = 2 * w if mode == 'wide' else w
    dty = {16: 'b16', 32: 'b32', 64: 'b64', 128: 'b128'}[dbits]
    s = ctx.set(ins.args[0], dty if dbits <= 64 else ty)
    gc = ctx.get(ins.args[3], dty) if is_mad else None
    use_cc, set_cc = ins.op == 'madc', 'cc' in ins.mods
    dm = mask(dbits)

    def f(t):
        p = conv(ga(t)) * conv(gb(t))
        if mode == 'hi':
            p >>= w
        if is_mad:
            if sat:  # mad.hi.sat.s32: the sum saturates
                r = sext(p & dm, dbits) + sext(gc(t), dbits)
                s(t, _sat_s(r, dbits))
                return
            r = (p & dm) + gc(t) + (t.cc if use_cc else 0)
            if set_cc:
                t.cc = r >> dbits & 1
            s(t, r & dm)
            return
        s(t, p & dm)
    return 'lane', f


def c_mul24(ins, ctx):
    ty = _ty(ins)
    hi = 'hi' in ins.mods
    signed = ty[0] == 's'
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    gc = ctx.get(ins.args[3], ty) if ins.op == 'mad24' else (lambda t: 0)
    sat = 'sat' in ins.mods
    s = ctx.set(ins.args[0], ty)
    conv = (lambda v: sext(v, 24)) if signed else (lambda v: v & 0xffffff)

    def f(t):
        p = conv(ga(t)) * conv(gb(t))
        p = (p >> 16) if hi else p
        if sat:
            s(t, _sat_s(sext(p & 0xffffffff, 32) + sext(gc(t), 32), 32))
        else:
            s(t, (p + gc(t)) & 0xffffffff)
    return 'lane', f


def c_sad(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    conv = (lambda v: sext(v, w)) if ty[0] == 's' else (lambda v: v)
    return _lane(ins, ctx, ty, lambda a, b, c: (abs(conv(a) - conv(b)) + c) & mask(w), 3)


def c_divrem(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    m = mask(w)
    signed = ty[0] == 's'
    rem = ins.op == 'rem'

    def f(a, b):
        if b == 0:
            return m  # the hardware sets every bit (PTX: unspecified)
        if signed:
            x, y = sext(a, w), sext(b, w)
            q = abs(x) // abs(y)
            if (x < 0) != (y < 0):
                q = -q
            r = x - q * y
            return (r if rem else q) & m
        return (a % b) if rem else (a // b)
    return _lane(ins, ctx, ty, f, 2)


def c_minmax(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    relu = 'relu' in ins.mods
    conv = (lambda v: sext(v, w)) if ty[0] == 's' else (lambda v: v)
    pick = min if ins.op == 'min' else max

    def f(a, b):
        r = pick(conv(a), conv(b))
        if relu and r < 0:
            r = 0
        return r & mask(w)
    return _lane(ins, ctx, ty, f, 2)


def c_abs_neg(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    d = ins.args[0]
    if ty == 's16' and ctx.ck.quirk16 and d[0] == 'reg' and ctx.reg_bits(d[1]) == 16:
        # -32768 gives +32768 in the register (QUIRK16); +32768 negated is -32768 again
        g = ctx.get(ins.args[1], 's16')
        fn = abs if ins.op == 'abs' else (lambda v: -v)

        def quirk(t):
            r = fn(sext(g(t), 16))
            t.r[d[1]] = QUIRK16 if r == 32768 else r & 0xffff
        return 'lane', quirk
    if ins.op == 'abs':
        return _lane(ins, ctx, ty, lambda a: abs(sext(a, w)) & mask(w), 1)
    return _lane(ins, ctx, ty, lambda a: (-a) & mask(w), 1)


def c_logic(ins, ctx):
    ty = _ty(ins)
    op = ins.op
    if ty == 'pred':
        fn = {'and': lambda a, b: a & b, 'or': lambda a, b: a | b, 'xor': lambda a, b: a ^ b,
              'not': lambda a: a ^ 1, 'cnot': lambda a: a ^ 1}[op]
        return _lane(ins, ctx, ty, fn, 1 if op in ('not', 'cnot') else 2)
    m = mask(_bits(ty))
    fn = {'and': lambda a, b: a & b, 'or': lambda a, b: a | b, 'xor': lambda a, b: a ^ b,
          'not': lambda a: a ^ m, 'cnot': lambda a: 1 if a == 0 else 0}[op]
    return _lane(ins, ctx, ty, fn, 1 if op in ('not', 'cnot') else 2)


def c_shift(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    m = mask(w)
    ga = ctx.get(ins.args[1], ty)
    gb = ctx.get(ins.args[2], 'u32')
    s = ctx.set(ins.args[0], ty)
    if ins.op == 'shl':
        return 'lane', lambda t: s(t, (ga(t) << min(gb(t), w)) & m)
    if ty[0] == 's':
        return 'lane', lambda t: s(t, (sext(ga(t), w) >> min(gb(t), w)) & m)
    return 'lane', lambda t: s(t, ga(t) >> min(gb(t), w))


def c_shf(ins, ctx):
    left = 'l' in ins.mods
    clamp = 'clamp' in ins.mods
    ga, gb, gc = (ctx.get(x, 'b32') for x in ins.args[1:4])
    s = ctx.set(ins.args[0], 'b32')

    def f(t):
        a, b, c = ga(t), gb(t), gc(t)
        n = min(c, 32) if clamp else c & 31
        v = (b << 32) | a
        if left:
            return s(t, ((v << n) >> 32) & 0xffffffff)
        return s(t, (v >> n) & 0xffffffff)
    return 'lane', f


def c_popc_clz_brev(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    if ins.op == 'popc':
        return _lane(ins, ctx, ty, lambda a: bin(a).count('1'), 1, 'u32')
    if ins.op == 'clz':
        return _lane(ins, ctx, ty, lambda a: w - a.bit_length(), 1, 'u32')
    return _lane(ins, ctx, ty, lambda a: int(format(a, '0%db' % w)[::-1], 2), 1)


def c_bfind(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    shiftamt = 'shiftamt' in ins.mods

    def f(a):
        if ty[0] == 's' and a >> (w - 1):
            a = a ^ mask(w)
        if a == 0:
            return 0xffffffff
        p = a.bit_length() - 1
        return (w - 1 - p) if shiftamt else p
    return _lane(ins, ctx, ty, f, 1, 'u32')


def c_bfe(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    ga = ctx.get(ins.args[1], ty)
    gb, gc = ctx.get(ins.args[2], 'u32'), ctx.get(ins.args[3], 'u32')
    s = ctx.set(ins.args[0], ty)
    signed = ty[0] == 's'
    # NVIDIA's constant folding (not the ISA; hardware check only): bfe.s32 with an immediate
    # position of 32 or more and an immediate nonzero length gives all ones whatever the sign
    # of a (every one of the 790 such lanes of the H100 set; the register forms follow the ISA)
    folds_to_ones = (not ctx.ck.strict and ty == 's32' and ins.args[2][0] == 'imm' and
                     ins.args[3][0] == 'imm')

    def f(t):
        a, pos, ln = ga(t), gb(t), gc(t)
        if w == 32:  # hardware: 8-bit fields for .b32, whole 32-bit operands for .b64
            pos, ln = pos & 0xff, ln & 0xff
        if ln == 0:
            return s(t, 0)
        if folds_to_ones and pos >= w:
            return s(t, mask(w))
        if pos >= w:
            # the field starts beyond the value: signed copies the sign bit
            return s(t, mask(w) if signed and a >> (w - 1) else 0)
        top = min(pos + ln, w)
        field = (a >> pos) & mask(top - pos)
        if signed:
            sbit = (a >> (top - 1)) & 1
            if sbit:
                field |= mask(w) ^ mask(top - pos)
        return s(t, field)
    return 'lane', f


def c_bfi(ins, ctx):
    ty = _ty(ins)
    w = _bits(ty)
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    gc, gd = ctx.get(ins.args[3], 'u32'), ctx.get(ins.args[4], 'u32')
    s = ctx.set(ins.args[0], ty)
    # NVIDIA's constant folding (hardware check only): bfi.b32 with an immediate position of
    # 1..31 and an immediate length of 32 or 64 returns b (all 256 such lanes of the H100 set,
    # 187 of them where the ISA's result differs; position 0 and other lengths follow the ISA)
    folds_to_b = (not ctx.ck.strict and ty == 'b32' and ins.args[3][0] == 'imm' and
                  ins.args[4][0] == 'imm')

    def f(t):
        a, b, pos, ln = ga(t), gb(t), gc(t), gd(t)
        if w == 32:  # hardware: 8-bit fields for .b32, whole 32-bit operands for .b64
            pos, ln = pos & 0xff, ln & 0xff
        if ln == 0 or pos >= w or (folds_to_b and 0 < pos < 32 and ln in (32, 64)):
            return s(t, b)
        top = min(pos + ln, w)
        fm = mask(top - pos) << pos
        return s(t, (b & ~fm | (a << pos) & fm) & mask(w))
    return 'lane', f


def c_bmsk(ins, ctx):
    clamp = 'clamp' in ins.mods

    def f(a, b):
        if clamp:
            a, b = min(a, 32), min(b, 32)
        else:
            a, b = a & 31, b & 31
        return ((mask(b) << a) & 0xffffffff)
    return _lane(ins, ctx, 'b32', f, 2)


def c_szext(ins, ctx):
    ty = _ty(ins)
    clamp = 'clamp' in ins.mods

    def f(a, b):
        n = min(b, 32) if clamp else b & 31
        if n == 0:
            return 0
        if n >= 32:
            return a
        return sext(a, n) & 0xffffffff if ty[0] == 's' else a & mask(n)
    return _lane(ins, ctx, 'b32', f, 2)


def c_fns(ins, ctx):
    def f(msk, base, off):
        off = sext(off, 32)
        if off == -(1 << 31):
            return 0  # hardware: the most negative offset finds bit 0 whatever the mask
        if off == 0:
            return base if base < 32 and msk >> base & 1 else 0xffffffff
        if base >= 32:
            return 0xffffffff  # hardware: base beyond the mask finds nothing
        pos, n = base, abs(off)
        step = 1 if off > 0 else -1
        while 0 <= pos < 32:
            if msk >> pos & 1:
                n -= 1
                if n == 0:
                    return pos
            pos += step
        return 0xffffffff
    return _lane(ins, ctx, 'b32', f, 3)


def _prmt_byte(x, sel, mode_sign):
    b = (x >> (8 * (sel & 7))) & 0xff
    if mode_sign and sel & 8:
        return 0xff if b & 0x80 else 0
    return b


def c_prmt(ins, ctx):
    mode = [m for m in ins.mods if m in ('f4e', 'b4e', 'rc8', 'ecl', 'ecr', 'rc16')]
    mode = mode[0] if mode else None

    def f(a, b, c):
        x = (b << 32) | a
        if mode is None:
            r = 0
            for i in range(4):
                sel = (c >> (4 * i)) & 0xf
                r |= _prmt_byte(x, sel, True) << (8 * i)
            return r
        n = c & 3
        table = {'f4e': [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
                 'b4e': [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
                 'rc8': [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
                 'ecl': [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
                 'ecr': [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
                 'rc16': [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]}[mode][n]
        r = 0
        for i, sel in enumerate(table):
            r |= ((x >> (8 * sel)) & 0xff) << (8 * i)
        return r
    return _lane(ins, ctx, 'b32', f, 3)


def c_lop3(ins, ctx):
    gs = [ctx.get(a, 'b32') for a in ins.args[1:5]]
    s = ctx.set(ins.args[0], 'b32')

    def f(t):
        a, b, c, lut = (g(t) for g in gs)
        r = 0
        for i in range(8):
            if lut >> i & 1:
                x = (a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
                r |= x
        s(t, r & 0xffffffff)
    return 'lane', f


def c_dp(ins, ctx):
    tys = types_of(ins.mods)
    ta, tb = tys[0], tys[1]
    hi = 'hi' in ins.mods
    gs = [ctx.get(a, 'b32') for a in ins.args[1:4]]
    s = ctx.set(ins.args[0], 'b32')

    def f(t):
        a, b, c = (g(t) for g in gs)
        acc = sext(c, 32) if (ta[0] == 's' or tb[0] == 's') else c
        if ins.op == 'dp4a':
            for i in range(4):
                x, y = (a >> 8 * i) & 0xff, (b >> 8 * i) & 0xff
                acc += (sext(x, 8) if ta[0] == 's' else x) * (sext(y, 8) if tb[0] == 's' else y)
        else:
            for i in range(2):
                x = (a >> 16 * i) & 0xffff
                y = (b >> 8 * (i + (2 if hi else 0))) & 0xff
                acc += (sext(x, 16) if ta[0] == 's' else x) * (sext(y, 8) if tb[0] == 's' else y)
        s(t, acc & 0xffffffff)
    return 'lane', f


CMP_INT = {'eq': lambda a, b: a == b, 'ne': lambda a, b: a != b, 'lt': lambda a, b: a < b,
           'le': lambda a, b: a <= b, 'gt': lambda a, b: a > b, 'ge': lambda a, b: a >= b,
           'lo': lambda a, b: a < b, 'ls': lambda a, b: a <= b, 'hi': lambda a, b: a > b,
           'hs': lambda a, b: a >= b}
BOOL = {'and': lambda x, y: x & y, 'or': lambda x, y: x | y, 'xor': lambda x, y: x ^ y}


def setp_tail(ins, ctx, cmpf):
    """Writes setp's predicate(s): d = cmp BOOL c, second (after |) = !cmp BOOL c."""
    combine = [m for m in ins.mods if m in BOOL]
    d = ins.args[0]
    sp = ctx.set(d[1] if d[0] == 'pipe' else d, 'pred')
    sq = ctx.set(d[2], 'pred') if d[0] == 'pipe' else None
    if combine:
        gc = ctx.get(ins.args[3], 'pred')
        op = BOOL[combine[0]]

        def f(t):
            r = cmpf(t)
            c = gc(t)
            sp(t, op(r, c))
            if sq:
                sq(t, op(r ^ 1, c))
        return 'lane', f

    def g(t):
        r = cmpf(t)
        sp(t, r)
        if sq:
            sq(t, r ^ 1)
    return 'lane', g


def c_setp(ins, ctx):
    ty = _ty(ins)
    if ty[0] == 'f' or ty.startswith('bf'):
        from floatops import c_setp_float
        return c_setp_float(ins, ctx)
    w = _bits(ty)
    cmp = [m for m in ins.mods if m in CMP_INT][0]
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    c = CMP_INT[cmp]
    if ty[0] == 's':
        return setp_tail(ins, ctx, lambda t: 1 if c(sext(ga(t), w), sext(gb(t), w)) else 0)
    return setp_tail(ins, ctx, lambda t: 1 if c(ga(t), gb(t)) else 0)


def c_selp(ins, ctx):
    ty = _ty(ins)
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    gc = ctx.get(ins.args[3], 'pred')
    s = ctx.set(ins.args[0], ty)
    return 'lane', lambda t: s(t, ga(t) if gc(t) else gb(t))


def c_slct(ins, ctx):
    tys = types_of(ins.mods)
    ty, cty = tys[0], tys[1]
    ga, gb = ctx.get(ins.args[1], ty), ctx.get(ins.args[2], ty)
    gc = ctx.get(ins.args[3], cty)
    s = ctx.set(ins.args[0], ty)
    if cty == 'f32':
        ftz = 'ftz' in ins.mods

        def ge0(c):
            if (c & 0x7fffffff) > 0x7f800000:
                return False  # NaN
            if c & 0x80000000 and (c & 0x7fffffff) != 0:
                return bool(ftz and (c & 0x7f800000) == 0)
            return True
        return 'lane', lambda t: s(t, ga(t) if ge0(gc(t)) else gb(t))
    return 'lane', lambda t: s(t, ga(t) if sext(gc(t), 32) >= 0 else gb(t))


def c_mov(ins, ctx):
    tys = types_of(ins.mods)
    ty = tys[0]
    src = ins.args[1]
    s = ctx.set(ins.args[0], ty)
    g = ctx.get(src, ty)
    return 'lane', lambda t: s(t, g(t))


def cvt_int(ins, ctx, dty, sty):
    """cvt between integer types: truncate or extend per the source's signedness; .sat clamps
    to the destination's range."""
    dw, sw = _bits(dty), _bits(sty)
    sat = 'sat' in ins.mods
    g = ctx.get(ins.args[1], sty)
    s = ctx.set(ins.args[0], dty, signed=dty[0] == 's')

    def f(t):
        v = g(t)
        if sty[0] == 's':
            v = sext(v, sw)
        if sat:
            lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if dty[0] == 's' else (0, mask(dw))
            v = min(max(v, lo), hi)
        s(t, v & mask(dw))
    return 'lane', f


OPS = {'add': c_add_sub, 'sub': c_add_sub, 'addc': c_add_sub, 'subc': c_add_sub,
       'mul': c_mul, 'mad': c_mul, 'madc': c_mul, 'mul24': c_mul24, 'mad24': c_mul24,
       'sad': c_sad, 'div': c_divrem, 'rem': c_divrem, 'min': c_minmax, 'max': c_minmax,
       'abs': c_abs_neg, 'neg': c_abs_neg, 'and': c_logic, 'or': c_logic, 'xor': c_logic,
       'not': c_logic, 'cnot': c_logic, 'shl': c_shift, 'shr': c_shift, 'shf': c_shf,
       'popc': c_popc_clz_brev, 'clz': c_popc_clz_brev, 'brev': c_popc_clz_brev,
       'bfind': c_bfind, 'bfe': c_bfe, 'bfi': c_bfi, 'bmsk': c_bmsk, 'szext': c_szext,
       'fns': c_fns, 'prmt': c_prmt, 'lop3': c_lop3, 'dp4a': c_dp, 'dp2a': c_dp,
       'setp': c_setp, 'selp': c_selp, 'slct': c_slct, 'mov': c_mov}
