#!/usr/bin/env python3
"""Inlining against real calls (src/ir/call_policy.c): compile time and code size of a
generated kernel that calls one function of S statements from K sites, compiled with
--inline-all and with --no-inline.  A benchmark behind REAL_CALL_STMTS, not a test.

  bench/calls_policy.py [--build DIR] [--target gfx90a] [--sizes 25,50,100,200,400,800]
                        [--sites 1,2,4,8]

The function is straight-line 32-bit arithmetic (rounds of mad.lo / shr / xor, 3 statements
each) on two parameters; the kernel calls it K times in a row with different arguments and
stores the sum.  Prints, per (S, K): .text bytes, CPU milliseconds (median of 3) and the
cycles amdsim models for one wave of 64 threads, for each mode.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def body(stmts):
    out = ['.func (.param .b32 f_ret) f(.param .b32 f_x, .param .b32 f_y)', '{',
           '\t.reg .b32 %r<6>;', '\tld.param.u32 %r1, [f_x];', '\tld.param.u32 %r2, [f_y];']
    for k in range(max(1, (stmts - 4) // 3)):
        out += ['\tmad.lo.s32 %%r1, %%r1, %d, %%r2;' % (0x9E3779B1 + 2 * k & 0xffffffff | 1),
                '\tshr.u32 %%r3, %%r1, %d;' % (3 + k % 13), '\txor.b32 %r2, %r2, %r3;']
    out += ['\tst.param.b32 [f_ret], %r1;', '\tret;', '}']
    return out


def kernel(stmts, sites):
    out = ['.version 7.0', '.target sm_70', '.address_size 64', ''] + body(stmts) + [
        '.visible .entry k(.param .u64 out_p)', '{', '\t.reg .b32 %r<8>;', '\t.reg .b64 %rd<4>;',
        '\tmov.u32 %r1, %tid.x;', '\tmov.u32 %r5, 0;']
    for s in range(sites):
        out += ['\tadd.s32 %%r2, %%r1, %d;' % s, '\t{', '\t.param .b32 a%d;' % s,
                '\t.param .b32 b%d;' % s, '\t.param .b32 r%d;' % s,
                '\tst.param.b32 [a%d], %%r2;' % s, '\tst.param.b32 [b%d], %%r5;' % s,
                '\tcall (r%d), f, (a%d, b%d);' % (s, s, s), '\tld.param.b32 %%r3, [r%d];' % s,
                '\t}', '\tadd.s32 %r5, %r5, %r3;']
    out += ['\tld.param.u64 %rd1, [out_p];', '\tmul.wide.u32 %rd2, %r1, 4;',
            '\tadd.s64 %rd3, %rd1, %rd2;', '\tst.global.u32 [%rd3], %r5;', '\tret;', '}']
    return '\n'.join(out) + '\n'


def text_bytes(path):
    r = subprocess.run(['llvm-size-19', '-A', path], stdout=subprocess.PIPE, text=True,
                       check=True)
    for line in r.stdout.splitlines():
        w = line.split()
        if w and w[0] == '.text':
            return int(w[1])
    return 0


def cycles(amdsim, hsaco, tmp):
    r = subprocess.run([amdsim, hsaco, '--kernel', 'k', '--grid', '1', '--block', '64', '--stats',
                        'out:256:' + os.path.join(tmp, 'o.bin')], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=True)
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) == 2 and w[0] == 'cycles':
            return int(w[1])
    return 0


def compile_ms(ptxas, args):
    times = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([ptxas] + args, check=True, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                     * 1e3)
    return sorted(times)[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--target', default='gfx90a')
    ap.add_argument('--sizes', default='25,50,100,200,400,800')
    ap.add_argument('--sites', default='1,2,4,8')
    a = ap.parse_args()
    ptxas = os.path.join(a.build, 'src', 'driver', 'ptxas-amd')
    amdsim = os.path.join(a.build, 'src', 'sim', 'amdsim')
    print('| S stmts | K sites | bytes inlined / real | ms inlined / real '
          '| cycles inlined / real |')
    print('|---|---|---|---|---|')
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'k.ptx')
        for s in (int(v) for v in a.sizes.split(',')):
            for k in (int(v) for v in a.sites.split(',')):
                with open(src, 'w') as f:
                    f.write(kernel(s, k))
                row = []
                for mode in ('--inline-all', '--no-inline'):
                    out = os.path.join(tmp, 'k%s.hsaco' % mode)
                    args = ['--gpu-name', a.target, mode, src, '-o', out]
                    ms = compile_ms(ptxas, args)
                    row.append((text_bytes(out), ms, cycles(amdsim, out, tmp)))
                (bi, ti, ci), (br, tr, cr) = row
                print('| %d | %d | %d / %d | %.1f / %.1f | %d / %d |'
                      % (s, k, bi, br, ti, tr, ci, cr))
                sys.stdout.flush()


if __name__ == '__main__':
    main()
