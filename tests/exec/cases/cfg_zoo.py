#!/usr/bin/env python3
"""The unstructured control-flow zoo: each kernel is written once here as a CFG description,
from which this module both generates the PTX (tests/exec/ptx/cfg_*.ptx, committed; run this
file to regenerate them) and interprets it per thread (the CPU model of per-thread execution
the traces are checked against; it knows nothing of waves, masks or the compiler).

A kernel is a list of blocks (name, ops, terminator), entered at the first.  Every block
first appends its index to the thread's trace: trace[min(n, MAXT-1)] = index; n += 1.
Thread state: g (global thread id), x (a per-thread LCG state loaded from data[g]), u (a
uniform word: the kernel parameter + ctaid.x * 0x9e3779b9), n (trace length), c0..c3
(counters).  ops: ('zero', i), ('inc', i), ('bar',) (bar.sync 0).  Terminators:
('jmp', B), ('br', cond, B_true, B_false), ('ret',), ('exit',) -- both store n to cnt[g]
first.  Conditions (all atoms evaluated, no short cut): ('rnd', k): x = x*1664525 +
1013904223, then (x >> 24) < k (divergent); ('xbit', k): bit k of x (divergent);
('tid', m, r): g % m == r and ('xmod', m, r): x % m == r (divergent); ('ubit', k): bit k of u (uniform); ('clt', i, k) /
('ceq', i, k): counter i < k / == k (uniform when the counter is); ('not', a), ('and', a, b),
('or', a, b).
"""

import os
import sys

MAXT = 64
LCG_A, LCG_C = 1664525, 1013904223
GOLDEN = 0x9e3779b9
M32 = 0xffffffff

# Every shape of the issue, with divergent and uniform conditions.
ZOO = {
    # break out of two nested loops from the inner one; the outer exit is uniform
    'cfg_nested_break': [
        ('entry', [('zero', 0)], ('jmp', 'outer')),
        ('outer', [('zero', 1)], ('jmp', 'inner')),
        ('inner', [('inc', 1)], ('br', ('rnd', 30), 'out', 'inner_latch')),
        ('inner_latch', [], ('br', ('and', ('clt', 1, 5), ('not', ('rnd', 60))), 'inner',
                             'outer_latch')),
        ('outer_latch', [('inc', 0)], ('br', ('clt', 0, 4), 'outer', 'out')),
        ('out', [], ('br', ('ubit', 3), 'tail_a', 'tail_b')),
        ('tail_a', [], ('ret',)),
        ('tail_b', [], ('ret',)),
    ],
    # continue (to the latch and straight to the header), divergent and uniform
    'cfg_continue': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0)], ('br', ('xbit', 5), 'latch', 'body1')),
        ('body1', [], ('br', ('and', ('ubit', 1), ('clt', 0, 6)), 'head', 'body2')),
        ('body2', [], ('br', ('rnd', 100), 'latch', 'body3')),
        ('body3', [], ('jmp', 'latch')),
        ('latch', [], ('br', ('and', ('clt', 0, 6), ('not', ('tid', 7, 3))), 'head', 'done')),
        ('done', [], ('ret',)),
    ],
    # early return inside a loop (and inside an if in it), uniform loop count
    'cfg_early_ret': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0)], ('br', ('rnd', 40), 'gone', 'mid')),
        ('mid', [], ('br', ('ubit', 0), 'side', 'latch')),
        ('side', [], ('br', ('tid', 5, 1), 'gone2', 'latch')),
        ('latch', [], ('br', ('clt', 0, 5), 'head', 'after')),
        ('after', [], ('ret',)),
        ('gone', [], ('ret',)),
        ('gone2', [], ('exit',)),
    ],
    # gotos into a shared tail from an if, an else and the middle of a loop
    'cfg_shared_tail': [
        ('entry', [('zero', 0)], ('br', ('xbit', 0), 'then', 'else')),
        ('then', [], ('br', ('xbit', 1), 'tail', 'loop')),
        ('else', [], ('br', ('ubit', 2), 'tail2', 'loop')),
        ('loop', [('inc', 0)], ('br', ('rnd', 50), 'tail2', 'loop_b')),
        ('loop_b', [], ('br', ('clt', 0, 4), 'loop', 'join')),
        ('join', [], ('jmp', 'tail')),
        ('tail', [], ('jmp', 'tail2')),
        ('tail2', [], ('br', ('tid', 3, 0), 'end1', 'end2')),
        ('end1', [], ('ret',)),
        ('end2', [], ('ret',)),
    ],
    # a switch-like jump ladder on x & 7 with fall-through cases and a uniform rung
    'cfg_ladder': [
        ('entry', [], ('br', ('and', ('not', ('xbit', 0)), ('not', ('xbit', 1))), 'case0', 'r1')),
        ('r1', [], ('br', ('and', ('xbit', 0), ('not', ('xbit', 1))), 'case1', 'r2')),
        ('r2', [], ('br', ('ubit', 4), 'case3', 'r3')),
        ('r3', [], ('br', ('and', ('not', ('xbit', 0)), ('xbit', 1)), 'case2', 'default')),
        ('case0', [], ('jmp', 'case1')),
        ('case1', [], ('br', ('xbit', 2), 'join', 'case2')),
        ('case2', [], ('jmp', 'join')),
        ('case3', [], ('jmp', 'default')),
        ('default', [], ('jmp', 'join')),
        ('join', [], ('ret',)),
    ],
    # a loop with a divergent exit condition holding a uniform inner loop, and two exits
    'cfg_div_loop': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0), ('zero', 1)], ('jmp', 'inner')),
        ('inner', [('inc', 1)], ('br', ('clt', 1, 3), 'inner', 'check')),
        ('check', [], ('br', ('rnd', 20), 'exit_a', 'latch')),
        ('latch', [], ('br', ('or', ('rnd', 200), ('clt', 0, 2)), 'head', 'exit_b')),
        ('exit_a', [], ('jmp', 'done')),
        ('exit_b', [], ('jmp', 'done')),
        ('done', [], ('ret',)),
    ],
    # a branch into the middle of what looks like the other arm of an if
    'cfg_cross': [
        ('entry', [], ('br', ('xbit', 3), 'a1', 'b1')),
        ('a1', [], ('br', ('xbit', 4), 'b2', 'a2')),
        ('a2', [], ('jmp', 'join')),
        ('b1', [], ('br', ('ubit', 5), 'b3', 'b2')),
        ('b2', [], ('jmp', 'b3')),
        ('b3', [], ('br', ('xbit', 6), 'a2', 'join')),
        ('join', [], ('ret',)),
    ],
    # irreducible: a loop with two entries, the entry chosen per lane
    'cfg_irr2': [
        ('entry', [('zero', 0)], ('br', ('xbit', 0), 'a', 'b')),
        ('a', [('inc', 0)], ('br', ('and', ('clt', 0, 6), ('rnd', 180)), 'b', 'out')),
        ('b', [('inc', 0)], ('br', ('and', ('clt', 0, 7), ('rnd', 150)), 'a', 'out')),
        ('out', [], ('ret',)),
    ],
    # irreducible: two entries chosen uniformly, uniform exits
    'cfg_irr2_uniform': [
        ('entry', [('zero', 0)], ('br', ('ubit', 0), 'a', 'b')),
        ('a', [('inc', 0)], ('br', ('clt', 0, 4), 'b', 'out')),
        ('b', [('inc', 0)], ('br', ('clt', 0, 5), 'a', 'out2')),
        ('out', [], ('br', ('xbit', 9), 'out2', 'end')),
        ('out2', [], ('jmp', 'end')),
        ('end', [], ('ret',)),
    ],
    # irreducible: a three-entry cycle a -> b -> c -> a with a shortcut c -> b
    'cfg_irr3': [
        ('entry', [('zero', 0)], ('br', ('xbit', 0), 'a', 'pick')),
        ('pick', [], ('br', ('xbit', 1), 'b', 'c')),
        ('a', [('inc', 0)], ('br', ('rnd', 230), 'b', 'out')),
        ('b', [('inc', 0)], ('br', ('and', ('clt', 0, 9), ('rnd', 230)), 'c', 'out')),
        ('c', [('inc', 0)], ('br', ('clt', 0, 9), 'c2', 'out')),
        ('c2', [], ('br', ('rnd', 60), 'b', 'a')),
        ('out', [], ('ret',)),
    ],
    # irreducible loops nested in a reducible loop (entry chosen afresh every iteration),
    # one with an inner reducible loop, and a goto from one loop into the middle of another
    'cfg_irr_nested': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0), ('zero', 1)], ('br', ('rnd', 128), 'a', 'b')),
        ('a', [('inc', 1)], ('br', ('and', ('clt', 1, 4), ('rnd', 200)), 'b', 'latch')),
        ('b', [('zero', 2)], ('jmp', 'b_inner')),
        ('b_inner', [('inc', 2)], ('br', ('and', ('clt', 2, 3), ('rnd', 150)), 'b_inner',
                                         'b_end')),
        ('b_end', [('inc', 1)], ('br', ('clt', 1, 5), 'a', 'latch')),
        ('latch', [], ('br', ('clt', 0, 3), 'head', 'second')),
        ('second', [('zero', 3)], ('jmp', 'l2')),
        ('l2', [('inc', 3)], ('br', ('rnd', 60), 'l3_mid', 'l2_latch')),
        ('l2_latch', [], ('br', ('clt', 3, 4), 'l2', 'l3')),
        ('l3', [('inc', 3)], ('jmp', 'l3_mid')),
        ('l3_mid', [], ('br', ('and', ('clt', 3, 8), ('rnd', 128)), 'l3', 'done')),
        ('done', [], ('ret',)),
    ],
    # uniform control flow inside divergent code (run with scalar branches): a uniform
    # loop holding a uniform if and a uniform ret, uniform exits to blocks that divergent
    # lanes also reach, a uniform loop in a divergent loop, a uniform branch to the header
    'cfg_uniform_nest': [
        ('entry', [('zero', 0)], ('br', ('xbit', 0), 'dv', 'other')),
        ('dv', [('zero', 1)], ('jmp', 'uloop')),
        ('uloop', [('inc', 1)], ('br', ('ubit', 2), 'uthen', 'uelse')),
        ('uthen', [], ('br', ('and', ('ceq', 1, 2), ('ubit', 3)), 'ugone', 'ulatch')),
        ('uelse', [], ('jmp', 'ulatch')),
        ('ulatch', [], ('br', ('clt', 1, 4), 'uloop', 'uexit')),
        ('uexit', [], ('br', ('ubit', 5), 'shared', 'other2')),
        ('other', [], ('br', ('xbit', 1), 'shared', 'other2')),
        ('shared', [], ('jmp', 'merge')),
        ('other2', [], ('jmp', 'merge')),
        ('merge', [('zero', 2)], ('jmp', 'outer')),
        ('outer', [('inc', 2)], ('br', ('rnd', 100), 'o1', 'o2')),
        ('o1', [('zero', 3)], ('jmp', 'inl')),
        ('inl', [('inc', 3)], ('br', ('clt', 3, 2), 'inl', 'inl_out')),
        ('inl_out', [], ('br', ('ubit', 6), 'olatch', 'odirect')),
        ('odirect', [], ('br', ('clt', 2, 3), 'outer', 'done')),
        ('o2', [], ('jmp', 'olatch')),
        ('olatch', [], ('br', ('clt', 2, 3), 'outer', 'done')),
        ('ugone', [], ('ret',)),
        ('done', [], ('ret',)),
    ],
    # a loop with a uniform trip count and divergent ifs inside, nested in divergent code:
    # its latch branches back on the uniform condition with EXEC as it is
    'cfg_uloop_div': [
        ('entry', [('zero', 0)], ('br', ('tid', 4, 1), 'skip', 'head')),
        ('head', [('inc', 0)], ('br', ('xbit', 3), 'a', 'b')),
        ('a', [], ('jmp', 'latch')),
        ('b', [], ('br', ('rnd', 100), 'b2', 'latch')),
        ('b2', [], ('jmp', 'latch')),
        ('latch', [], ('br', ('clt', 0, 5), 'head', 'out')),
        ('out', [], ('jmp', 'skip')),
        ('skip', [], ('ret',)),
    ],
    # the same counter read after the loop: every lane leaves in the same iteration (the
    # divergent ifs rejoin inside it), so it stays uniform (src/ir/uniformity.c)
    'cfg_uexit_liveout': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0)], ('br', ('xbit', 3), 'a', 'b')),
        ('a', [], ('jmp', 'latch')),
        ('b', [], ('br', ('rnd', 100), 'b2', 'latch')),
        ('b2', [], ('jmp', 'latch')),
        ('latch', [], ('br', ('clt', 0, 5), 'head', 'out')),
        ('out', [], ('br', ('ceq', 0, 5), 't1', 't2')),
        ('t1', [], ('ret',)),
        ('t2', [], ('ret',)),
    ],
    # a uniform exit that only one side of a divergent branch reaches: lanes leave in
    # different iterations, so the counter read after the loop is per lane
    'cfg_exit_in_region': [
        ('entry', [('zero', 0)], ('jmp', 'head')),
        ('head', [('inc', 0)], ('br', ('rnd', 120), 'a', 'latch')),
        ('a', [], ('br', ('ubit', 1), 'out', 'latch')),
        ('latch', [], ('br', ('clt', 0, 6), 'head', 'out')),
        ('out', [], ('br', ('ceq', 0, 6), 't1', 't2')),
        ('t1', [], ('ret',)),
        ('t2', [], ('br', ('clt', 0, 3), 't3', 't4')),
        ('t3', [], ('ret',)),
        ('t4', [], ('ret',)),
    ],
    # a uniform guard that skips a uniform loop and rejoins right after it (nvcc's
    # `for (t = 0; t < k; ...)` guard): at the top, inside a divergent if, inside a divergent
    # loop; the join takes EXEC as it flows (cflow.c's joins_whole_region), not from a mask
    'cfg_uguard_loop': [
        ('entry', [('zero', 0)], ('br', ('ubit', 1), 'join1', 'pre1')),
        ('pre1', [('zero', 1)], ('jmp', 'l1')),
        ('l1', [('inc', 1)], ('br', ('clt', 1, 3), 'l1', 'join1')),
        ('join1', [], ('br', ('xbit', 0), 'dv', 'join2')),
        ('dv', [], ('br', ('ubit', 4), 'join3', 'pre2')),
        ('pre2', [('zero', 2)], ('jmp', 'l2')),
        ('l2', [('inc', 2)], ('br', ('clt', 2, 2), 'l2', 'join3')),
        ('join3', [], ('jmp', 'join2')),
        ('join2', [('zero', 3)], ('jmp', 'outer')),
        ('outer', [('inc', 3)], ('br', ('ubit', 3), 'oskip', 'opre')),
        ('opre', [('zero', 0)], ('jmp', 'ol')),
        ('ol', [('inc', 0)], ('br', ('clt', 0, 2), 'ol', 'oskip')),
        ('oskip', [], ('br', ('rnd', 120), 'outer', 'done')),
        ('done', [], ('ret',)),
    ],
    # bar.sync after a divergent early exit (some lanes, and whole waves), and in a loop
    'cfg_bar_exit': [
        ('entry', [('zero', 0)], ('br', ('tid', 3, 0), 'quit', 'check')),
        ('check', [], ('br', ('ltid_ge', 64), 'quit2', 'sync')),
        ('sync', [('bar',)], ('br', ('xbit', 2), 'x', 'y')),
        ('x', [], ('jmp', 'loop')),
        ('y', [], ('jmp', 'loop')),
        ('loop', [('inc', 0), ('bar',)], ('br', ('clt', 0, 3), 'loop', 'end')),
        ('end', [], ('ret',)),
        ('quit', [], ('ret',)),
        ('quit2', [], ('exit',)),
    ],
    # a random CFG that hung SSA construction: b1 and the block holding its `bra.uni b1`
    # form a cycle of single-predecessor blocks no path reaches, which the search for a
    # value b4's phis need walked forever; also a loop back to the entry block
    'cfg_dead_cycle': [
        ('b0', [], ('br', ('rnd', 100), 'b3', 'b5')),
        ('b1', [], ('br', ('rnd', 100), 'b4', 'b1')),
        ('b2', [], ('jmp', 'b6')),
        ('b3', [], ('br', ('rnd', 100), 'b3', 'b6')),
        ('b4', [], ('br', ('rnd', 100), 'b6', 'b0')),
        ('b5', [], ('ret',)),
        ('b6', [], ('br', ('rnd', 100), 'b4', 'b3')),
        ('b7', [], ('ret',)),
    ],
}


# ------------------------------------------------------------------ generated shapes

def diamonds(n, after=None):
    """n if-diamonds and if-triangles in a row, on divergent and uniform conditions in turn,
    then a ret (or a jump to block `after`)."""
    blocks = []
    for i in range(n):
        nxt = 'd%d' % (i + 1) if i + 1 < n else after or 'end'
        cond = ('xbit', i % 32) if i % 2 == 0 else ('ubit', i % 32)
        if i % 4 < 2:
            blocks += [('d%d' % i, [], ('br', cond, 't%d' % i, 'e%d' % i)),
                       ('t%d' % i, [], ('jmp', nxt)), ('e%d' % i, [], ('jmp', nxt))]
        else:
            blocks += [('d%d' % i, [], ('br', cond, 't%d' % i, nxt)),
                       ('t%d' % i, [], ('jmp', nxt))]
    return blocks + ([] if after else [('end', [], ('ret',))])


def ladder(n):
    """A switch-like jump ladder of n rungs on x % n; odd cases fall into the next case."""
    blocks = []
    for i in range(n):
        blocks.append(('r%d' % i, [], ('br', ('xmod', n, i), 'c%d' % i,
                                       'r%d' % (i + 1) if i + 1 < n else 'default')))
    for i in range(n):
        blocks.append(('c%d' % i, [], ('jmp', 'c%d' % (i + 1) if i % 2 and i + 1 < n
                                       else 'end')))
    return blocks + [('default', [], ('jmp', 'end')), ('end', [], ('ret',))]


def pending(n):
    """n rungs, each branching (mostly divergently, some uniformly) to its own target; the
    targets come after a common part, so the n rejoin masks are all pending at once, more
    than SGPRs hold (the rest live in VGPR lanes).  The common part is a divergent loop and
    a uniform loop, whose header masks come after those n; the targets form a chain with
    forward skips and a divergent loop in the middle."""
    blocks = [('entry', [('zero', 0), ('zero', 1), ('zero', 2)], ('jmp', 'r0'))]
    for i in range(n):
        u3 = ('and', ('ubit', i % 32), ('and', ('ubit', (i + 7) % 32), ('ubit', (i + 13) % 32)))
        cond = u3 if i % 18 == 17 else ('rnd', 3)
        blocks.append(('r%d' % i, [], ('br', cond, 't%d' % i,
                                       'r%d' % (i + 1) if i + 1 < n else 'mid')))
    blocks += [('mid', [('inc', 0)], ('br', ('and', ('clt', 0, 4), ('rnd', 170)), 'mid', 'ul')),
               ('ul', [('inc', 1)], ('br', ('clt', 1, 3), 'ul', 't0'))]
    for i in range(n):
        nxt = ['t%d' % j if j < n else 'end' for j in (i + 1, i + 2)]
        if i == n // 2:
            blocks.append(('t%d' % i, [('inc', 2)], ('br', ('and', ('clt', 2, 5), ('rnd', 140)),
                                                     't%d' % i, nxt[0])))
        elif i % 3 == 1:
            blocks.append(('t%d' % i, [], ('br', ('xbit', i % 32), nxt[0], nxt[1])))
        else:
            blocks.append(('t%d' % i, [], ('jmp', nxt[0])))
    return blocks + [('end', [], ('ret',))]


def random_cfgs(seed, count, grid=3, block=96):
    """count random CFGs of 3-24 blocks one after the other (each one's exits jump to the
    next one's entry): branches anywhere (loops, irreducible cycles, blocks nothing reaches)
    on random, per-thread and uniform conditions, jumps forward only.  A CFG in which some
    thread of the zoo's launch (grid x block, any input) runs more than 2000 blocks is drawn
    again, so every kernel ends."""
    import random
    rng = random.Random(seed)
    out = []
    for c in range(count):
        nxt = 'k%d_0' % (c + 1) if c + 1 < count else None
        while True:
            n = rng.randint(3, 24)
            blocks = []
            for i in range(n):
                name, r = 'k%d_%d' % (c, i), rng.random()
                if r < 0.12 or i + 1 == n and r < 0.4:
                    term = ('jmp', nxt) if nxt else ('ret',)
                elif r < 0.3 and i + 1 < n:
                    term = ('jmp', 'k%d_%d' % (c, rng.randrange(i + 1, n)))
                else:
                    t = ['k%d_%d' % (c, rng.randrange(n)) for _ in range(2)]
                    cond = rng.choice([('rnd', rng.randrange(40, 220)),
                                       ('xbit', rng.randrange(32)),
                                       ('ubit', rng.randrange(32)), ('clt', 0, 3)])
                    term = ('br', cond, t[0], t[1])
                ops = [rng.choice([('inc', 0), ('zero', 0)])] if rng.random() < 0.3 else []
                blocks.append((name, ops, term))
            if nxt is None and not any(b[2][0] == 'ret' for b in blocks):
                continue
            trial = blocks + ([(nxt, [], ('ret',))] if nxt else [])
            try:
                for g in range(grid * block):
                    run_thread(trial, g, g % block, rng.getrandbits(32), rng.getrandbits(32),
                               limit=2000)
            except RuntimeError:
                continue
            out += blocks
            break
    return out


GENERATED_COMMENTS = {
    'cfg_diamonds': ['200 if-diamonds/triangles (divergent and uniform), then a 64-rung jump '
                     'ladder'],
    'cfg_pending': ['100 rungs into targets after a common part: more rejoin masks pending at '
                    'once than SGPRs hold'],
    'cfg_random1': ['4 random CFGs in a row (random_cfgs(1, 4)): loops, irreducible cycles, '
                    'dead blocks'],
    'cfg_random2': ['4 random CFGs in a row (random_cfgs(2, 4))'],
    'cfg_random3': ['4 random CFGs in a row (random_cfgs(3, 4))'],
}
GENERATED = {  # committed as PTX (light form: a hash of the trace), checked like the zoo
    'cfg_diamonds': lambda: diamonds(200, 'r0') + ladder(64),
    'cfg_pending': lambda: pending(100),
    'cfg_random1': lambda: random_cfgs(1, 4),  # more in one kernel: driver/compile.c's
    'cfg_random2': lambda: random_cfgs(2, 4),  # pointer search (64 steps through phis)
    'cfg_random3': lambda: random_cfgs(3, 4),  # no longer finds cnt_p
}


def build_index(blocks):
    return {name: i for i, (name, _, _) in enumerate(blocks)}


# ------------------------------------------------------------------ the CPU model

class Thread:
    def __init__(self, g, ltid, x, u):
        self.g, self.ltid, self.x, self.u = g, ltid, x & M32, u & M32
        self.c = [0, 0, 0, 0]
        self.trace = []

    def cond(self, c):
        k = c[0]
        if k == 'rnd':
            self.x = (self.x * LCG_A + LCG_C) & M32
            return (self.x >> 24) < c[1]
        if k == 'xbit':
            return (self.x >> c[1]) & 1 == 1
        if k == 'tid':
            return self.g % c[1] == c[2]
        if k == 'ltid_ge':
            return self.ltid >= c[1]
        if k == 'xmod':
            return self.x % c[1] == c[2]
        if k == 'ubit':
            return (self.u >> c[1]) & 1 == 1
        if k == 'clt':
            return self.c[c[1]] < c[2]
        if k == 'ceq':
            return self.c[c[1]] == c[2]
        if k == 'not':
            return not self.cond(c[1])
        a = self.cond(c[1])
        b = self.cond(c[2])
        return (a and b) if k == 'and' else (a or b)


def block_hash(trace):
    """What a kernel generated with trace=False stores for a thread: h = h*31 + index + 1
    over its blocks."""
    h = 0
    for b in trace:
        h = (h * 31 + b + 1) & M32
    return h


def run_thread(blocks, g, ltid, x, u, limit=100000):
    """The trace (block indices) and final count of one thread."""
    idx = build_index(blocks)
    t = Thread(g, ltid, x, u)
    b = 0
    for _ in range(limit):
        name, ops, term = blocks[b]
        t.trace.append(b)
        for op in ops:
            if op[0] == 'zero':
                t.c[op[1]] = 0
            elif op[0] == 'inc':
                t.c[op[1]] = (t.c[op[1]] + 1) & M32
        if term[0] in ('ret', 'exit'):
            return t.trace
        if term[0] == 'jmp':
            b = idx[term[1]]
        else:
            b = idx[term[2]] if t.cond(term[1]) else idx[term[3]]
    raise RuntimeError('thread %d does not finish' % g)  # a zoo entry without an exit


def expected(blocks, grid, block, data, u):
    """Per thread: the first MAXT-1 entries of the trace, the last entry written at MAXT-1,
    and the count, as the PTX stores them."""
    out = []
    for g in range(grid * block):
        tr = run_thread(blocks, g, g % block, data[g], (u + (g // block) * GOLDEN) & M32)
        row = [0] * MAXT
        for i, b in enumerate(tr):
            row[min(i, MAXT - 1)] = b
        out.append((row, len(tr)))
    return out


# ------------------------------------------------------------------ the PTX generator

class Gen:
    def __init__(self):
        self.lines = []
        self.nr = 8   # %r8.. temporaries
        self.np = 0   # %p0.. temporaries

    def emit(self, s):
        self.lines.append('\t' + s)

    def reg(self):
        self.nr += 1
        assert self.nr < 64
        return '%%r%d' % (self.nr - 1)

    def pred(self):
        self.np += 1
        assert self.np < 32
        return '%%p%d' % (self.np - 1)

    def cond(self, c):
        k = c[0]
        p = self.pred()
        if k == 'rnd':
            t = self.reg()
            self.emit('mad.lo.u32 %%r1, %%r1, %d, %d;' % (LCG_A, LCG_C))
            self.emit('shr.u32 %s, %%r1, 24;' % t)
            self.emit('setp.lt.u32 %s, %s, %d;' % (p, t, c[1]))
        elif k in ('xbit', 'ubit'):
            t = self.reg()
            self.emit('bfe.u32 %s, %s, %d, 1;' % (t, '%r1' if k == 'xbit' else '%r2', c[1]))
            self.emit('setp.ne.u32 %s, %s, 0;' % (p, t))
        elif k == 'tid':
            t = self.reg()
            self.emit('rem.u32 %s, %%r0, %d;' % (t, c[1]))
            self.emit('setp.eq.u32 %s, %s, %d;' % (p, t, c[2]))
        elif k == 'xmod':
            t = self.reg()
            self.emit('rem.u32 %s, %%r1, %d;' % (t, c[1]))
            self.emit('setp.eq.u32 %s, %s, %d;' % (p, t, c[2]))
        elif k == 'ltid_ge':
            t = self.reg()
            self.emit('mov.u32 %s, %%tid.x;' % t)
            self.emit('setp.ge.u32 %s, %s, %d;' % (p, t, c[1]))
        elif k in ('clt', 'ceq'):
            self.emit('setp.%s.u32 %s, %%r%d, %d;' % ('lt' if k == 'clt' else 'eq', p,
                                                      4 + c[1], c[2]))
        elif k == 'not':
            a = self.cond(c[1])
            self.emit('not.pred %s, %s;' % (p, a))
        else:
            a = self.cond(c[1])
            b = self.cond(c[2])
            self.emit('%s.pred %s, %s, %s;' % (k, p, a, b))
        return p


def gen_ptx(name, blocks, comment, trace=True):
    """trace=False: each block only updates a hash of the trace (block_hash) in n, which
    goes to cnt[g] at the end (the light form, for large generated kernels)."""
    idx = build_index(blocks)
    g = Gen()
    out = ['// %s: generated by tests/exec/cases/cfg_zoo.py (do not edit; run it to regenerate).'
           % name]
    out += ['// ' + line for line in comment]
    out += ['.version 7.0', '.target sm_70', '.address_size 64', '',
            '.visible .entry %s(.param .u64 trace_p, .param .u64 cnt_p, .param .u64 data_p,'
            % name, '\t.param .u32 u_p)', '{',
            '\t.reg .pred %p<32>;', '\t.reg .b32 %r<64>;', '\t.reg .b64 %rd<8>;', '']
    g.emit('ld.param.u64 %rd3, [trace_p];')
    g.emit('ld.param.u64 %rd4, [cnt_p];')
    g.emit('ld.param.u64 %rd5, [data_p];')
    g.emit('ld.param.u32 %r2, [u_p];')
    g.emit('cvta.to.global.u64 %rd3, %rd3;')
    g.emit('cvta.to.global.u64 %rd4, %rd4;')
    g.emit('cvta.to.global.u64 %rd5, %rd5;')
    g.emit('mov.u32 %r8, %ctaid.x;')
    g.emit('mov.u32 %r9, %ntid.x;')
    g.emit('mov.u32 %r10, %tid.x;')
    g.emit('mad.lo.s32 %r0, %r8, %r9, %r10;        // g')
    g.emit('mad.lo.s32 %%r2, %%r8, %d, %%r2;   // u: uniform per block' % (GOLDEN - (1 << 32)))
    g.emit('mul.wide.u32 %rd6, %r0, 4;')
    g.emit('add.s64 %rd1, %rd4, %rd6;              // &cnt[g]')
    g.emit('add.s64 %rd7, %rd5, %rd6;')
    g.emit('ld.global.u32 %r1, [%rd7];             // x')
    g.emit('mul.wide.u32 %%rd6, %%r0, %d;' % (4 * MAXT))
    g.emit('add.s64 %rd0, %rd3, %rd6;              // trace row')
    g.emit('mov.u32 %r3, 0;                         // n')
    for i in range(4):
        g.emit('mov.u32 %%r%d, 0;' % (4 + i))
    for i, (bname, ops, term) in enumerate(blocks):
        g.nr, g.np = 8, 0
        g.lines.append('%s:' % bname.upper())
        if trace:
            t = g.reg()
            g.emit('min.u32 %s, %%r3, %d;' % (t, MAXT - 1))
            g.emit('mul.wide.u32 %%rd6, %s, 4;' % t)
            g.emit('add.s64 %rd7, %rd0, %rd6;')
            g.emit('st.global.u32 [%%rd7], %d;' % i)
            g.emit('add.u32 %r3, %r3, 1;')
        else:
            g.emit('mad.lo.u32 %%r3, %%r3, 31, %d;' % (i + 1))
        for op in ops:
            if op[0] == 'zero':
                g.emit('mov.u32 %%r%d, 0;' % (4 + op[1]))
            elif op[0] == 'inc':
                g.emit('add.u32 %%r%d, %%r%d, 1;' % (4 + op[1], 4 + op[1]))
            elif op[0] == 'bar':
                g.emit('bar.sync 0;')
        if term[0] in ('ret', 'exit'):
            g.emit('st.global.u32 [%rd1], %r3;')
            g.emit(term[0] + ';')
        elif term[0] == 'jmp':
            g.emit('bra.uni %s;' % term[1].upper())
        else:
            p = g.cond(term[1])
            g.emit('@%s bra %s;' % (p, term[1 + 1].upper()))
            g.emit('bra.uni %s;' % term[3].upper())
        assert all(n in idx for n in [x for x in term[1:] if isinstance(x, str)])
    out += g.lines + ['}', '']
    return '\n'.join(out)


def comment_of(name):
    """The zoo entry's source comment (the line above it in ZOO)."""
    src = open(os.path.abspath(__file__)).read().split('\n')
    for i, line in enumerate(src):
        if line.strip().startswith("'%s':" % name):
            return [src[i - 1].strip().lstrip('# ')]
    return []


def ptx_dir():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'ptx')


def main():
    for name, blocks in ZOO.items():
        with open(os.path.join(ptx_dir(), name + '.ptx'), 'w') as f:
            f.write(gen_ptx(name, blocks, comment_of(name)))
    for name, make in GENERATED.items():
        with open(os.path.join(ptx_dir(), name + '.ptx'), 'w') as f:
            f.write(gen_ptx(name, make(), GENERATED_COMMENTS[name], trace=False))


if __name__ == '__main__':
    sys.exit(main())
