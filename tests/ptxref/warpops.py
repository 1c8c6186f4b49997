"""Warp-level instructions of the reference interpreter: shfl.sync, vote.sync, match.sync,
redux.sync, activemask, bar.warp.sync.  Each runs once for the group of lanes executing it
(executor.py) and checks the PTX rule that every lane named in the membermask executes the
same instruction with the same membermask at the same time; a violation is undefined behaviour
and raised as UB (the generator must not produce it)."""

from ops_common import UB, sext, types_of


def _members(ins, ctx, mask_arg):
    gm = ctx.get(mask_arg, 'b32')

    def check(active, warp):
        m = gm(active[0])
        lanes = {t.lane: t for t in active}
        for t in active:
            if gm(t) != m:
                raise UB('%s: lanes disagree on the membermask' % ins.line)
            if not m >> t.lane & 1:
                raise UB('%s: lane %d executes with a membermask 0x%x without it' %
                         (ins.line, t.lane, m))
        for lane in range(32):
            if m >> lane & 1 and lane not in lanes:
                raise UB('%s: lane %d of membermask 0x%x does not execute it with the others' %
                         (ins.line, lane, m))
        return m, lanes
    return check


def c_shfl(ins, ctx):
    mode = [m for m in ins.mods if m in ('up', 'down', 'bfly', 'idx')][0]
    d = ins.args[0]
    sd = ctx.set(d[1] if d[0] == 'pipe' else d, 'b32')
    sp = ctx.set(d[2], 'pred') if d[0] == 'pipe' else None
    ga, gb, gc = ctx.get(ins.args[1], 'b32'), ctx.get(ins.args[2], 'b32'), \
        ctx.get(ins.args[3], 'b32')
    check = _members(ins, ctx, ins.args[4])
    strict = ctx.ck.strict

    def f(active, group, warp):
        m, lanes = check(active, warp)
        vals = {t.lane: ga(t) for t in warp}
        res = []
        for t in active:
            lane, b, c = t.lane, gb(t) & 31, gc(t)
            cval, seg = c & 31, (c >> 8) & 31
            max_lane = (lane & seg) | (cval & ~seg & 31)
            min_lane = lane & seg
            if mode == 'up':
                j = lane - b
                p = j >= max_lane
            elif mode == 'down':
                j = lane + b
                p = j <= max_lane
            elif mode == 'bfly':
                j = lane ^ b
                p = j <= max_lane
            else:
                j = min_lane | (b & ~seg & 31)
                p = j <= max_lane
            if not p:
                j = lane
            if j not in lanes and strict:
                raise UB('%s: lane %d reads lane %d, which is not executing it' %
                         (ins.line, lane, j))
            # Outside the membermask PTX leaves the value undefined; the hardware returns
            # the source lane's register as it stands, which is what the lenient mode reads.
            res.append((t, vals.get(j, 0), 1 if p else 0))
        for t, v, p in res:
            sd(t, v)
            if sp:
                sp(t, p)
    return 'warp', f


def c_vote(ins, ctx):
    mode = [m for m in ins.mods if m in ('all', 'any', 'uni', 'ballot')][0]
    gp = ctx.get(ins.args[1], 'pred')
    check = _members(ins, ctx, ins.args[2])
    s = ctx.set(ins.args[0], 'b32' if mode == 'ballot' else 'pred')

    def f(active, group, warp):
        m, lanes = check(active, warp)
        ps = [gp(t) for t in active]
        if mode == 'ballot':
            r = 0
            for t, p in zip(active, ps):
                r |= p << t.lane
        elif mode == 'all':
            r = 1 if all(ps) else 0
        elif mode == 'any':
            r = 1 if any(ps) else 0
        else:
            r = 1 if all(ps) or not any(ps) else 0
        for t in active:
            s(t, r)
    return 'warp', f


def c_match(ins, ctx):
    mode = [m for m in ins.mods if m in ('any', 'all')][0]
    ty = types_of(ins.mods)[0]
    d = ins.args[0]
    sd = ctx.set(d[1] if d[0] == 'pipe' else d, 'b32')
    sp = ctx.set(d[2], 'pred') if d[0] == 'pipe' else None
    ga = ctx.get(ins.args[1], ty)
    check = _members(ins, ctx, ins.args[2])

    def f(active, group, warp):
        m, lanes = check(active, warp)
        vals = {t.lane: ga(t) for t in active}
        if mode == 'all':
            same = len(set(vals.values())) == 1
            for t in active:
                sd(t, m if same else 0)
                if sp:
                    sp(t, 1 if same else 0)
            return
        for t in active:
            r = 0
            for lane, v in vals.items():
                if v == vals[t.lane]:
                    r |= 1 << lane
            sd(t, r)
    return 'warp', f


def c_redux(ins, ctx):
    op = [m for m in ins.mods if m in ('add', 'min', 'max', 'and', 'or', 'xor')][0]
    ty = types_of(ins.mods)[0]
    ga = ctx.get(ins.args[1], ty)
    check = _members(ins, ctx, ins.args[2])
    s = ctx.set(ins.args[0], ty)
    signed = ty[0] == 's'

    def f(active, group, warp):
        check(active, warp)
        vs = [ga(t) for t in active]
        if signed:
            vs = [sext(v, 32) for v in vs]
        if op == 'add':
            r = sum(vs)
        elif op == 'min':
            r = min(vs)
        elif op == 'max':
            r = max(vs)
        else:
            r = vs[0]
            for v in vs[1:]:
                r = (r & v) if op == 'and' else (r | v) if op == 'or' else (r ^ v)
        for t in active:
            s(t, r & 0xffffffff)
    return 'warp', f


def c_activemask(ins, ctx):
    s = ctx.set(ins.args[0], 'b32')

    def f(active, group, warp):
        m = 0
        for t in group:
            m |= 1 << t.lane
        for t in active:
            s(t, m)
    return 'warp', f


def c_bar_warp(ins, ctx):
    check = _members(ins, ctx, ins.args[0])

    def f(active, group, warp):
        check(active, warp)
    return 'warp', f


OPS = {'shfl': c_shfl, 'vote': c_vote, 'match': c_match, 'redux': c_redux,
       'activemask': c_activemask}
