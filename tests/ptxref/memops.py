"""Memory instructions of the reference interpreter: ld, st, cvta, parcopy (argument transfer
of inlined calls), bar.sync/barrier.sync, membar/fence (no-ops: one CTA runs sequentially
consistent in the interpreter)."""

import memory as mem
from ops_common import UB, mask, sext, types_of
from ptxparse import TYPE_BITS

SPACES = ('global', 'shared', 'local', 'param', 'const')
# Cache and ordering qualifiers: no effect on values in a single-CTA sequential model.
NEUTRAL = {'volatile', 'relaxed', 'acquire', 'release', 'weak', 'cta', 'gpu', 'sys', 'ca', 'cg',
           'cs', 'lu', 'cv', 'wb', 'wt', 'nc', 'L1::no_allocate', 'L1::evict_last',
           'L1::evict_first', 'L1::evict_normal', 'L2::evict_first', 'L2::evict_last'}


def _space_buf(space, t):
    if space == 'global':
        raise AssertionError
    if space == 'shared':
        return t.cta.shared
    if space == 'local':
        return t.local
    if space == 'param':
        return t.param
    raise UB('state space %s is not modelled' % space)


def access(space, t, addr, nbytes):
    """(buffer, offset) for an access of nbytes at addr in space (generic: resolved)."""
    if space is None:
        if mem.SHARED_WINDOW <= addr < mem.SHARED_WINDOW + mem.WINDOW_SIZE:
            return access('shared', t, addr - mem.SHARED_WINDOW, nbytes)
        if mem.LOCAL_WINDOW <= addr < mem.LOCAL_WINDOW + mem.WINDOW_SIZE:
            return access('local', t, addr - mem.LOCAL_WINDOW, nbytes)
        space = 'global'
    if space == 'global':
        if addr % nbytes:
            raise mem.MemoryFault('misaligned global access of %d bytes at 0x%x' % (nbytes, addr))
        return t.cta.gmem.find(addr, nbytes)
    if addr % nbytes:
        raise mem.MemoryFault('misaligned %s access of %d bytes at 0x%x' % (space, nbytes, addr))
    buf = _space_buf(space, t)
    if addr < mem.VAR_BASE or addr + nbytes > len(buf):
        raise mem.MemoryFault('.%s access of %d bytes at 0x%x outside every variable' %
                              (space, nbytes, addr))
    return buf, addr


def _address(ctx, a, space):
    """Getter of the address an ('addr', base, off) operand names in space (None: generic)."""
    if a[0] != 'addr':
        raise UB('expected an address, got %r' % (a,))
    base, off = a[1], a[2]
    if base is None:
        return lambda t: off
    if base.startswith('%'):
        bits = ctx.reg_bits(base)
        return lambda t: (t.r[base] + off) & mask(64 if bits == 64 else 32)
    vs = ctx.var_space(base)
    if vs is None:
        raise UB('unknown variable %s' % base)
    va = ctx.var_addr(base) + off
    if space is None:
        window = {'shared': mem.SHARED_WINDOW, 'local': mem.LOCAL_WINDOW}.get(vs)
        if window is None:
            raise UB('generic address of a .%s variable' % vs)
        return lambda t: window + va
    if space != vs:
        raise UB('variable %s is in .%s, accessed as .%s' % (base, vs, space))
    return lambda t: va


def _split(ins):
    space = None
    vec = 1
    for m in ins.mods:
        if m in SPACES:
            space = m
        elif m in ('v2', 'v4', 'v8'):
            vec = int(m[1])
        elif m not in NEUTRAL and m not in TYPE_BITS:
            raise UB('%s: ld/st qualifier .%s is not modelled' % (ins.line, m))
    tys = types_of(ins.mods)
    if len(tys) != 1:
        raise UB('%s: ld/st wants one type' % ins.line)
    return space, vec, tys[0]


def c_ld(ins, ctx):
    space, vec, ty = _split(ins)
    nb = max(TYPE_BITS[ty] // 8, 1)
    addr = _address(ctx, ins.args[1], space)
    d = ins.args[0]
    dests = d[1] if d[0] == 'vec' else [d]
    if len(dests) != vec:
        raise UB('%s: vector width mismatch' % ins.line)
    signed = ty[0] == 's'
    setters = [ctx.set(x, ty, signed) for x in dests]

    def f(t):
        a = addr(t)
        for i, s in enumerate(setters):
            buf, o = access(space, t, a + i * nb, nb)
            v = mem.load(buf, o, nb)
            s(t, sext(v, nb * 8) if signed else v)
    return 'lane', f


def c_st(ins, ctx):
    space, vec, ty = _split(ins)
    nb = max(TYPE_BITS[ty] // 8, 1)
    addr = _address(ctx, ins.args[0], space)
    s = ins.args[1]
    srcs = s[1] if s[0] == 'vec' else [s]
    if len(srcs) != vec:
        raise UB('%s: vector width mismatch' % ins.line)
    getters = [ctx.get(x, ty) for x in srcs]

    def f(t):
        a = addr(t)
        for i, g in enumerate(getters):
            buf, o = access(space, t, a + i * nb, nb)
            mem.store(buf, o, nb, g(t))
    return 'lane', f


def c_cvta(ins, ctx):
    to = 'to' in ins.mods
    space = [m for m in ins.mods if m in SPACES][0]
    ty = types_of(ins.mods)[0]
    m = mask(TYPE_BITS[ty])
    window = {'shared': mem.SHARED_WINDOW, 'local': mem.LOCAL_WINDOW}.get(space, 0)
    src = ins.args[1]
    if src[0] == 'sym':
        va = ctx.var_addr(src[1])
        g = lambda t: va  # noqa: E731
    else:
        g = ctx.get(src, ty)
    s = ctx.set(ins.args[0], ty)
    if to:
        return 'lane', lambda t: s(t, (g(t) - window) & m)
    return 'lane', lambda t: s(t, (g(t) + window) & m)


def c_parcopy(ins, ctx):
    dst, src, size = ins.args[0][1], ins.args[1][1], int(ins.args[2][1])
    da, sa = ctx.var_addr(dst), ctx.var_addr(src)

    def f(t):
        t.param[da:da + size] = t.param[sa:sa + size]
    return 'lane', f


def c_bar(ins, ctx):
    mods = [m for m in ins.mods if m not in ('aligned',)]
    if mods and mods[0] == 'warp':
        from warpops import c_bar_warp
        return c_bar_warp(ins, ctx)
    if mods not in ([], ['sync']):
        raise UB('%s: bar.%s is not modelled' % (ins.line, '.'.join(ins.mods)))
    if ins.args and not (ins.args[0][0] == 'imm' and int(ins.args[0][1], 0) == 0) \
            or len(ins.args) > 1:
        raise UB('%s: only barrier 0 without a thread count is modelled' % ins.line)
    return 'bar', None


def c_nop(ins, ctx):
    return 'lane', lambda t: None


OPS = {'ld': c_ld, 'st': c_st, 'cvta': c_cvta, 'parcopy': c_parcopy, 'bar': c_bar,
       'barrier': c_bar, 'membar': c_nop, 'fence': c_nop}
