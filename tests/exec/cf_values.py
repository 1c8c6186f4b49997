#!/usr/bin/env python3
"""Values through control flow, on random structured programs: nested if/else on uniform
and divergent predicates, loops with divergent (tid % 4 + 1) and uniform (u % 3 + 1) trip
counts, divergent and uniform breaks, integer and predicate updates from uniform and
divergent operands, a loop header's value read after the loop.  Each program is generated
from a seed, compiled by ptxas-amd for every target and run in amdsim (64 threads, two
values of the uniform parameter u); every thread's final registers and predicates are
compared with a per-thread interpreter of the generated program (the PTX ISA's semantics
of one thread; no waves, masks or compiler in it).  The control-flow zoo (cases_cfg.py)
checks which blocks a thread runs; this checks the values that reach the joins and the
loop exits: built at 1ff6e20, ptxas-amd got 25 of the first 100 programs wrong on gfx1100
(lane-mask phis and the lost copy, docs/CONTROL_FLOW.md).

usage: cf_values.py --ptxas-amd PATH --amdsim PATH [--seeds N] [--first K] [--target T]...
"""
import argparse
import os
import random
import struct
import subprocess
import sys
import tempfile

M = 0xffffffff
NR, NP = 5, 3  # integer registers %r0..4, predicates %p0..2
T = 64
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.nlabel = 0
        self.depth = 0
        self.inloop = 0
        self.exits = []

    def label(self):
        self.nlabel += 1
        return 'L%d' % self.nlabel


def operand(g, uniform):
    r = g.rng
    if uniform or r.random() < 0.3:
        return r.choice(['%u', str(r.randrange(0, 9))])
    return r.choice(['%%r%d' % r.randrange(NR), '%t'])


def statement(g, prog, budget):
    r = g.rng
    k = r.random()
    if k < 0.35 or budget <= 0 or g.depth > 3:
        uni = r.random() < 0.5
        prog.append(('alu', r.randrange(NR), r.choice(['add', 'mul', 'xor', 'sub']),
                     operand(g, uni), operand(g, uni)))
    elif k < 0.5:
        uni = r.random() < 0.6
        prog.append(('setp', r.randrange(NP), r.choice(['lt', 'gt', 'ne']), operand(g, uni),
                     operand(g, uni)))
    elif k < 0.6:
        prog.append(('selp', r.randrange(NR), r.randrange(NP)))
    elif k < 0.65:
        prog.append(('movp', r.randrange(NP), r.randrange(NP), r.random() < 0.5))
    elif k < 0.7 and g.inloop:
        prog.append(('break', r.randrange(NP)))
    elif k < 0.82:
        g.depth += 1
        then = block(g, budget // 2)
        other = block(g, budget // 2) if r.random() < 0.6 else []
        g.depth -= 1
        prog.append(('if', r.randrange(NP), then, other))
    else:
        g.depth += 1
        g.inloop += 1
        body = block(g, budget // 2)
        g.depth -= 1
        g.inloop -= 1
        prog.append(('loop', r.choice(['div', 'uni']), r.randrange(NR), body, r.random() < 0.5))


def block(g, budget):
    prog = []
    for _ in range(g.rng.randrange(1, 5)):
        statement(g, prog, budget - 1)
    return prog


class Break(Exception):
    pass


def value(o, st, t, u):
    if o == '%u':
        return u
    if o == '%t':
        return t
    if o.startswith('%r'):
        return st['r'][int(o[2:])]
    return int(o)


def interpret(prog, st, t, u):
    for s in prog:
        if s[0] == 'alu':
            a, b = value(s[3], st, t, u), value(s[4], st, t, u)
            st['r'][s[1]] = {'add': a + b, 'mul': a * b, 'xor': a ^ b, 'sub': a - b}[s[2]] & M
        elif s[0] == 'setp':
            a, b = value(s[3], st, t, u), value(s[4], st, t, u)
            st['p'][s[1]] = {'lt': a < b, 'gt': a > b, 'ne': a != b}[s[2]]
        elif s[0] == 'selp':
            st['r'][s[1]] = 7 if st['p'][s[2]] else 3
        elif s[0] == 'movp':
            st['p'][s[1]] = (not st['p'][s[2]]) if s[3] else st['p'][s[2]]
        elif s[0] == 'break':
            if st['p'][s[1]]:
                raise Break()
        elif s[0] == 'if':
            interpret(s[2] if st['p'][s[1]] else s[3], st, t, u)
        elif s[0] == 'loop':
            n = (t % 4 + 1) if s[1] == 'div' else (u % 3 + 1)
            for i in range(n):
                st['r'][s[2]] = (st['r'][s[2]] + i) & M
                if s[4]:
                    st['h'] = st['r'][0]  # the value at the iteration's start
                try:
                    interpret(s[3], st, t, u)
                except Break:
                    break


def emit(g, prog, out):
    for s in prog:
        if s[0] == 'alu':
            op = {'mul': 'mul.lo.u32', 'xor': 'xor.b32'}.get(s[2], s[2] + '.u32')
            out.append('\t%s %%r%d, %s, %s;' % (op, s[1], s[3], s[4]))
        elif s[0] == 'setp':
            out.append('\tsetp.%s.u32 %%p%d, %s, %s;' % (s[2], s[1], s[3], s[4]))
        elif s[0] == 'selp':
            out.append('\tselp.u32 %%r%d, 7, 3, %%p%d;' % (s[1], s[2]))
        elif s[0] == 'movp':
            out.append('\t%s.pred %%p%d, %%p%d;' % ('not' if s[3] else 'mov', s[1], s[2]))
        elif s[0] == 'break':
            out.append('\t@%%p%d bra %s;' % (s[1], g.exits[-1]))
        elif s[0] == 'if':
            other, join = g.label(), g.label()
            out.append('\t@!%%p%d bra %s;' % (s[1], other))
            emit(g, s[2], out)
            out += ['\tbra %s;' % join, '%s:' % other]
            emit(g, s[3], out)
            out.append('%s:' % join)
        elif s[0] == 'loop':
            g.depth += 1
            d = g.depth
            head, done = g.label(), g.label()
            g.exits.append(done)
            src = '%t, 4' if s[1] == 'div' else '%u, 3'
            out += ['\tmov.u32 %%c%d, 0;' % d,
                    '\trem.u32 %%n%d, %s;' % (d, src), '\tadd.u32 %%n%d, %%n%d, 1;' % (d, d),
                    '%s:' % head, '\tadd.u32 %%r%d, %%r%d, %%c%d;' % (s[2], s[2], d)]
            if s[4]:
                out.append('\tmov.u32 %h, %r0;')
            emit(g, s[3], out)
            out += ['\tadd.u32 %%c%d, %%c%d, 1;' % (d, d),
                    '\tsetp.lt.u32 %%q%d, %%c%d, %%n%d;' % (d, d, d),
                    '\t@%%q%d bra %s;' % (d, head), '%s:' % done]
            g.exits.pop()
            g.depth -= 1


def generate(seed):
    g = Gen(seed)
    prog = block(g, 8)
    out = ['// cf_values.py seed %d' % seed, '.version 7.8', '.target sm_80',
           '.address_size 64', '.visible .entry cfv(.param .u64 out, .param .u32 up)', '{',
           '\t.reg .pred %p<3>;', '\t.reg .pred %q<9>;', '\t.reg .b32 %r<5>;',
           '\t.reg .b32 %c<9>;', '\t.reg .b32 %n<9>;', '\t.reg .b32 %t, %u, %h, %s;',
           '\t.reg .b64 %rd<4>;', '\tld.param.u64 %rd1, [out];', '\tld.param.u32 %u, [up];',
           '\tmov.u32 %t, %tid.x;', '\tmov.u32 %h, 99;']
    out += ['\tadd.u32 %%r%d, %%t, %d;' % (i, i * 5) for i in range(NR)]
    out += ['\tsetp.lt.u32 %%p%d, %%t, %d;' % (i, 3 + 7 * i) for i in range(NP)]
    emit(g, prog, out)
    out += ['\tmul.wide.u32 %rd2, %t, 36;', '\tadd.u64 %rd3, %rd1, %rd2;']
    out += ['\tst.global.u32 [%%rd3+%d], %%r%d;' % (4 * i, i) for i in range(NR)]
    for i in range(NP):
        out += ['\tselp.u32 %%s, 1, 0, %%p%d;' % i, '\tst.global.u32 [%%rd3+%d], %%s;' % (20 + 4 * i)]
    out += ['\tst.global.u32 [%rd3+32], %h;', '\tret;', '}']
    return prog, '\n'.join(out) + '\n'


def expected(prog, u):
    res = []
    for t in range(T):
        st = {'r': [(t + 5 * i) & M for i in range(NR)], 'p': [t < 3 + 7 * i for i in range(NP)],
              'h': 99}
        interpret(prog, st, t, u)
        res += st['r'] + [int(x) for x in st['p']] + [st['h']]
    return res


WHAT = ['%r0', '%r1', '%r2', '%r3', '%r4', '%p0', '%p1', '%p2', 'header value']


def run(args, tmp, seed, target):
    prog, ptx = generate(seed)
    src = os.path.join(tmp, 'cfv%d.ptx' % seed)
    with open(src, 'w') as f:
        f.write(ptx)
    hsaco = os.path.join(tmp, 'cfv.hsaco')
    r = subprocess.run([args.ptxas_amd, '--gpu-name', target, '--verify', src, '-o', hsaco],
                       capture_output=True, text=True, timeout=120)
    if r.returncode:
        return 'ptxas-amd: ' + r.stderr[-600:]
    for u in (5, 2):
        outf = os.path.join(tmp, 'cfv.out')
        r = subprocess.run([args.amdsim, hsaco, '--kernel', 'cfv', '--grid', '1', '--block',
                            str(T), 'out:%d:%s' % (T * 36, outf), 'u32:%d' % u],
                           capture_output=True, text=True, timeout=120)
        if r.returncode:
            return 'amdsim: ' + r.stderr[-600:]
        with open(outf, 'rb') as f:
            got = struct.unpack('<%dI' % (T * 9), f.read())
        exp = expected(prog, u)
        bad = [i for i in range(len(exp)) if got[i] != exp[i]]
        if bad:
            i = bad[0]
            return 'u=%d thread %d %s: got %#x, expected %#x (%d words differ)' % (
                u, i // 9, WHAT[i % 9], got[i], exp[i], len(bad))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--seeds', type=int, default=100)
    ap.add_argument('--first', type=int, default=0)
    ap.add_argument('--target', action='append')
    ap.add_argument('--keep', help='write the failing programs here')
    args = ap.parse_args()
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.target or TARGETS:
            for seed in range(args.first, args.first + args.seeds):
                err = run(args, tmp, seed, target)
                if err:
                    fails += 1
                    print('FAIL  %s seed %d: %s' % (target, seed, err))
                    if args.keep:
                        with open(os.path.join(args.keep, 'cfv%d.ptx' % seed), 'w') as f:
                            f.write(generate(seed)[1])
    print('cf-values: %d programs x %d targets, %d failed' % (
        args.seeds, len(args.target or TARGETS), fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
