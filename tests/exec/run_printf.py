#!/usr/bin/env python3
"""Device printf (vprintf -> AMDGPU buffered printf): compiles tests/exec/ptx/printf_*.ptx for
every target, runs it in amdsim and compares its stdout with the output written here from the C
printf semantics of the CUDA source (tests/exec/src/printf_basic.cu): the lines of one thread in
program order, all threads' lines as a multiset (CUDA orders only within a thread).
usage: run_printf.py PTXAS_AMD AMDSIM"""
import collections
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ['gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200']


def expected_basic(a):
    lines = []
    for i, ai in enumerate(a):
        u = 4000000000 - i
        ll = -5000000000 * (i + 1)
        d = ai * 0.25
        lines.append('t%d u=%u l=%d d=%5.2f x=%x c=%c %% %s' % (i, u, ll, d, ai & 0xffffffff,
                                                              chr(65 + i), 'ok'))
        if i & 1:
            lines.append('odd %d f=%f' % (i, i * 0.5))
    return lines


def main():
    ptxas, amdsim = sys.argv[1], sys.argv[2]
    a = [7 * i - 10 for i in range(8)]
    want = expected_basic(a)
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        abin = os.path.join(tmp, 'a.bin')
        with open(abin, 'wb') as f:
            f.write(struct.pack('<8i', *a))
        for t in TARGETS:
            hsaco = os.path.join(tmp, t + '.hsaco')
            ptx = os.path.join(HERE, 'ptx', 'printf_basic.nvcc.ptx')
            r = subprocess.run([ptxas, '--gpu-name', t, ptx, '-o', hsaco],
                               capture_output=True, text=True)
            if r.returncode:
                print('FAIL %s: compile: %s' % (t, r.stderr.strip()))
                fails += 1
                continue
            r = subprocess.run([amdsim, hsaco, '--kernel', '_Z12printf_basicPKii', '--grid', '1',
                                '--block', '8', 'in:' + abin, 'i32:8'],
                               capture_output=True, text=True)
            got = r.stdout.splitlines()
            per_thread_ok = all(
                [l for l in got if l.startswith(p)] == [l for l in want if l.startswith(p)]
                for p in ('t', 'odd'))
            if r.returncode or collections.Counter(got) != collections.Counter(want) or \
                    not per_thread_ok:
                print('FAIL %s: got\n%s\nexpected\n%s' % (t, r.stdout + r.stderr, '\n'.join(want)))
                fails += 1
            else:
                print('ok %s: %d lines' % (t, len(got)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
