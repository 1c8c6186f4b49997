#!/usr/bin/env python3
"""Long branches: a generated kernel whose loop body is more than 128 KiB of straight-line
code (beyond the 16-bit dword offset of s_branch/s_cbranch_*), entered by a divergent
branch that jumps across the whole loop and left by a backward branch over the body.
ptxas-amd must relax those branches (src/sched/relax.c).  Checks, on all five targets:
the kernel runs in amdsim (strict) and matches a CPU reference computed here from the PTX
ISA's definitions of mad.lo.u32/xor.b32/shr.u32; and `-S` reassembles with llvm-mc-19 to
the same bytes (asm_roundtrip.py).  Also a kernel a little too small to need relaxation
compiles without any s_setpc_b64 (in-range branches stay short).

usage: long_branch.py --ptxas-amd PATH --amdsim PATH [--target T]...
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
sys.path.insert(0, os.path.join(HERE, 'cases'))
from ref import Case, In, Out, unpack  # noqa: E402
import run as krun  # noqa: E402
import cfg_zoo  # noqa: E402
import cases_cfg  # noqa: E402

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
M32 = (1 << 32) - 1
GRID, BLOCK, ITERS, SKIP_BELOW = 2, 64, 3, 23


def consts(steps):
    """Per-step constants (odd multipliers, xor masks), deterministic."""
    out, x = [], 0x9e3779b9
    for _ in range(steps):
        x = (x * 1103515245 + 12345) & M32
        out.append(((x | 1) & 0xffffff | 0x1000001, (x >> 7) ^ 0x5bd1e995))
    return out


def gen_ptx(steps):
    body = []
    for m, k in consts(steps):
        body.append('\tmad.lo.u32 %%r1, %%r1, %d, %%r2;' % m)
        body.append('\txor.b32 %%r1, %%r1, %d;' % k)
        body.append('\tshr.u32 %r3, %r1, 13;')
        body.append('\txor.b32 %r1, %r1, %r3;')
    return '''.version 7.0
.target sm_70
.address_size 64

.visible .entry longbr(.param .u64 out, .param .u64 in, .param .u32 iters)
{
\t.reg .pred %%p<3>;
\t.reg .b32 %%r<8>;
\t.reg .b64 %%rd<6>;
\tld.param.u64 %%rd1, [out];
\tld.param.u64 %%rd2, [in];
\tld.param.u32 %%r5, [iters];
\tmov.u32 %%r4, %%tid.x;
\tmov.u32 %%r6, %%ctaid.x;
\tmov.u32 %%r7, %%ntid.x;
\tmad.lo.u32 %%r4, %%r6, %%r7, %%r4;
\tmul.wide.u32 %%rd3, %%r4, 4;
\tadd.u64 %%rd4, %%rd2, %%rd3;
\tld.global.u32 %%r1, [%%rd4];
\tmov.u32 %%r2, %%r4;
\tmov.u32 %%r0, 0;
\tmov.u32 %%r6, %%tid.x;
\tsetp.lt.u32 %%p1, %%r6, %d;
@%%p1 bra SKIP;
LOOP:
%s
\tadd.u32 %%r0, %%r0, 1;
\tsetp.lt.u32 %%p2, %%r0, %%r5;
@%%p2 bra LOOP;
SKIP:
\tadd.u32 %%r1, %%r1, %%r0;
\tadd.u64 %%rd5, %%rd1, %%rd3;
\tst.global.u32 [%%rd5], %%r1;
\tret;
}
''' % (SKIP_BELOW, '\n'.join(body))


def expected(steps, data):
    cs = consts(steps)
    out = []
    for g, x in enumerate(data):
        n = 0
        if g % BLOCK >= SKIP_BELOW:
            while True:  # a do-while loop: the body runs before the test
                for m, k in cs:
                    x = ((x * m + g) & M32) ^ k
                    x ^= x >> 13
                n += 1
                if n >= ITERS:
                    break
        out.append((x + n) & M32)
    return out


def pending_case(rungs):
    """cfg_zoo's pending shape, big enough for long branches in wave64 code: per thread
    the hash of its block trace (cases_cfg.trace_hash_case)."""
    blocks = cfg_zoo.pending(rungs)
    ptx = cfg_zoo.gen_ptx('long_pending', blocks, 'long branches: %d pending rungs' % rungs,
                          False)
    return cases_cfg.trace_hash_case('long_pending', blocks, 2, 64), ptx


def run_pending(args, tmp, fails):
    """The generated CFG of bench/cfg_scale.py --shapes pending, run on every target."""
    case, ptx = pending_case(1000)
    src = os.path.join(tmp, 'long_pending.ptx')
    with open(src, 'w') as f:
        f.write(ptx)
    relaxed = 0
    for t in args.target or TARGETS:
        hsaco = os.path.join(tmp, 'long_pending.%s.hsaco' % t)
        r = subprocess.run([args.ptxas_amd, '--gpu-name', t, '--verify', src, '-o', hsaco],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        r2 = subprocess.run([args.ptxas_amd, '--gpu-name', t, '-S', src, '-o', hsaco + '.s'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode or r2.returncode:
            fails.append('pending-' + t)
            print('FAIL  pending %s ptxas-amd: %s' % (t, (r.stdout + r2.stdout)[-1500:]))
            continue
        relaxed += 's_setpc_b64' in open(hsaco + '.s').read()
        kern, _ = krun.read_metadata(hsaco)
        ok, msg, secs = krun.run_case(case, hsaco, [os.path.abspath(args.amdsim)], tmp, kern,
                                      False, 0)
        print('%s  pending %s run %.2fs %s' % ('PASS' if ok else 'FAIL', t, secs,
                                               '' if ok else msg[:1500]))
        if not ok:
            fails.append('pending-' + t)
    if not relaxed and (not args.target or 'gfx90a' in args.target):
        fails.append('pending-relaxed')  # gfx90a's code for it is over 128 KiB
        print('FAIL  pending: no target relaxed a branch')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--target', action='append')
    ap.add_argument('--steps', type=int, default=4800)
    args = ap.parse_args()
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'longbr.ptx')
        with open(src, 'w') as f:
            f.write(gen_ptx(args.steps))
        n = GRID * BLOCK
        data = [(i * 2654435761 + 17) & M32 for i in range(n)]
        exp = expected(args.steps, data)

        def check(outs, wave):
            got = unpack('I', outs[0])
            return ['thread %d: %#x, expected %#x' % (g, got[g], exp[g])
                    for g in range(n) if got[g] != exp[g]][:8]

        case = Case('longbr', 'longbr', (GRID,), (BLOCK,),
                    [Out(4 * n), In('I', data), ('u32', ITERS)], check)
        for t in args.target or TARGETS:
            hsaco = os.path.join(tmp, 'longbr.%s.hsaco' % t)
            asm = hsaco[:-6] + '.s'
            r = subprocess.run([args.ptxas_amd, '--gpu-name', t, '--verify', src, '-o', hsaco],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            r2 = subprocess.run([args.ptxas_amd, '--gpu-name', t, '-S', src, '-o', asm],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode or r2.returncode:
                fails.append(t)
                print('FAIL  %s ptxas-amd: %s' % (t, (r.stdout + r2.stdout)[-1500:]))
                continue
            text = open(asm).read()
            if text.count('s_setpc_b64') < 2:  # the test must exercise long branches
                fails.append(t)
                print('FAIL  %s: expected relaxed branches, -S has %d s_setpc_b64'
                      % (t, text.count('s_setpc_b64')))
                continue
            kern, _ = krun.read_metadata(hsaco)
            ok, msg, secs = krun.run_case(case, hsaco, [os.path.abspath(args.amdsim)], tmp,
                                          kern, False, 0)
            print('%s  %s run %.2fs %s' % ('PASS' if ok else 'FAIL', t, secs,
                                           '' if ok else msg[:1500]))
            if not ok:
                fails.append(t)
        run_pending(args, tmp, fails)
        small = os.path.join(tmp, 'short.ptx')  # in-range branches stay s_cbranch_*
        with open(small, 'w') as f:
            f.write(gen_ptx(200))
        r = subprocess.run([args.ptxas_amd, '--gpu-name', 'gfx1100', '-S', small, '-o',
                            small + '.s'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode or 's_setpc_b64' in open(small + '.s').read():
            fails.append('short')
            print('FAIL  short kernel relaxed (or failed): %s' % r.stdout[-800:])
        rt = subprocess.run([sys.executable, os.path.join(HERE, 'asm_roundtrip.py'),
                             args.ptxas_amd, src] +
                            sum([['--target', t] for t in args.target or TARGETS], []),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(rt.stdout[-2000:])
        if rt.returncode:
            fails.append('asm-roundtrip')
    print('long-branch: %d failed %s' % (len(fails), ' '.join(fails)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
