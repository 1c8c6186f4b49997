#!/usr/bin/env python3
"""Device printf (vprintf -> AMDGPU buffered printf): compiles tests/exec/ptx/printf_nvcc.ptx and
printf_clang.ptx (nvcc and clang-19 output of tests/exec/src/printf_basic.cu) for every target,
runs each kernel in amdsim and compares its stdout with the output written here from the C
printf semantics of the source: all lines as a multiset (CUDA orders only within a thread), and
the lines of each thread in program order.  The simulator's side alone is checked the same way
with an OpenCL kernel (tests/exec/src/printf_ocl.cl) that clang-19 compiles for every target:
LLVM's own printf lowering and amdhsa.printf metadata, with the expected output written from the
OpenCL printf semantics (float arguments are 4 bytes there).
usage: run_printf.py PTXAS_AMD AMDSIM"""
import collections
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ['gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200']


def u32(v):
    return v & 0xffffffff


def expected_basic(a):
    """per thread: its lines in order"""
    out = {}
    for i, ai in enumerate(a):
        u = 4000000000 - i
        ll = -5000000000 * (i + 1)
        d = ai * 0.25
        out[i] = ['t%d u=%d l=%d d=%5.2f x=%x c=%c %% %s' % (i, u, ll, d, u32(ai), chr(65 + i),
                                                            'ok')]
        if i & 1:
            out[i].append('odd %d\tf:%f' % (i, i * 0.5))
    return out


def expected_more(a):
    out = {}
    for b in range(2):
        for i in range(4):
            v = a[b * 4 + i]
            short = (v + 0x8000) % 0x10000 - 0x8000
            lines = ['b%d t%d %s %-4d| %+d %d %d %o %X %e %g' % (
                b, i, 'pos' if v > 0 else 'nonpositive', v, v, (v * 1000000007) % 2**64, short,
                v & 0o777, u32(v * 4096), v * 1.5e10, v / 8.0)]
            lines += ['b%d t%d j%d' % (b, i, j) for j in range(i)]
            if i == 0 and b == 1:
                lines.append('last')
            out[(b, i)] = lines
    return out


def expected_ocl(a):
    out = {}
    for i, v in enumerate(a):
        lines = ['i=%d v=%5d x=%08x f=%.3f %s %d %c %%' % (i, v, u32(v), v / 4.0, 'str',
                                                          v * 1000000000, chr(97 + i))]
        if v < 0:
            lines.append('neg %d %e' % (i, float(v)))
        if i == 0:
            lines.append('first')
        out[('ocl', i)] = lines
    return out


def ocl_thread_of(line):
    w = line.split()
    return ('ocl', 0 if w[0] == 'first' else int(w[1]) if w[0] == 'neg' else int(w[0][2:]))


def build_ocl(t, tmp):
    """clang-19 + ld.lld-19 as tests/kernels/kbuild.py does; the code object's path or an
    error message"""
    src = os.path.join(HERE, 'src', 'printf_ocl.cl')
    obj, hsaco = os.path.join(tmp, 'ocl.%s.o' % t), os.path.join(tmp, 'ocl.%s.hsaco' % t)
    for cmd in ([os.environ.get('CLANG', 'clang-19'), '-x', 'cl', '-cl-std=CL2.0', '-target',
                 'amdgcn-amd-amdhsa', '-mcpu=' + t, '-nogpulib', '-O3', '-c', src, '-o', obj],
                [os.environ.get('LLD', 'ld.lld-19'), '-shared', obj, '-o', hsaco]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            return None, r.stderr.strip()
    return hsaco, None


def thread_of(line):
    """the thread key a line of either kernel belongs to"""
    w = line.split()
    if w[0] == 'last':
        return (1, 0)
    if w[0].startswith('odd'):
        return int(w[1])
    if w[0][0] == 't':
        return int(w[0][1:])
    return (int(w[0][1:]), int(w[1][1:]))


def compare(got, want, key_of=None):
    flat = [l for ls in want.values() for l in ls]
    if collections.Counter(got) != collections.Counter(flat):
        return 'lines differ'
    for key, lines in want.items():
        mine = [l for l in got if (key_of or thread_of)(l) == key]
        if mine != lines:
            return 'thread %r: order %r' % (key, mine)
    return None


def check_ret(amdsim, hsaco, tmp, label):
    """printf_ret: out[i] = printf("r%d\\n", i) for 8 threads.  A record is 8 bytes (id, int),
    so a 36-byte buffer (8 header bytes) holds 3 and a 4-byte tail: those 3 threads print and
    get 1 (the number of arguments), the other 5 get -2; with the default buffer all 8 do."""
    errs = 0
    for buf, nfit in ((None, 8), (36, 3)):
        out = os.path.join(tmp, 'ret.out')
        cmd = [amdsim, hsaco, '--kernel', '_Z10printf_retPi', '--grid', '1', '--block', '8',
               'out:32:' + out] + (['--printf-buffer', str(buf)] if buf else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        res = struct.unpack('<8i', open(out, 'rb').read()) if r.returncode == 0 else ()
        printed = r.stdout.splitlines()
        want = ['r%d' % i for i in range(8) if len(res) == 8 and res[i] == 1]
        ok = (r.returncode == 0 and sorted(res) == [-2] * (8 - nfit) + [1] * nfit and
              sorted(printed) == sorted(want) and not r.stderr)
        if ok:
            print('ok %s printf_ret buffer %s: %d printed' % (label, buf or 'default', nfit))
        else:
            print('FAIL %s printf_ret buffer %s: results %r, printed %r, stderr %r' % (
                label, buf or 'default', res, printed, r.stderr))
            errs += 1
    return errs


def main():
    ptxas, amdsim = sys.argv[1], sys.argv[2]
    a = [7 * i - 10 for i in range(8)]
    m = [5, -3, 0, 100000, -70000, 7, 1, -1]
    runs = [('_Z12printf_basicPKii', '1', '8', a, ['i32:8'], expected_basic(a)),
            ('_Z11printf_morePKi', '2', '4', m, [], expected_more(m))]
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in ('printf_nvcc', 'printf_clang'):
            ptx = os.path.join(HERE, 'ptx', src + '.ptx')
            for t in TARGETS:
                hsaco = os.path.join(tmp, '%s.%s.hsaco' % (src, t))
                r = subprocess.run([ptxas, '--gpu-name', t, ptx, '-o', hsaco],
                                   capture_output=True, text=True)
                if r.returncode:
                    print('FAIL %s %s: compile: %s' % (src, t, r.stderr.strip()))
                    fails += 1
                    continue
                for kern, grid, block, data, extra, want in runs:
                    abin = os.path.join(tmp, kern + '.bin')
                    with open(abin, 'wb') as f:
                        f.write(struct.pack('<%di' % len(data), *data))
                    r = subprocess.run([amdsim, hsaco, '--kernel', kern, '--grid', grid,
                                        '--block', block, 'in:' + abin] + extra,
                                       capture_output=True, text=True)
                    got = r.stdout.splitlines()
                    why = 'amdsim exit %d' % r.returncode if r.returncode else compare(got, want)
                    if why:
                        print('FAIL %s %s %s: %s; got\n%s%s\nexpected (per thread)\n%s' % (
                            src, t, kern, why, r.stdout, r.stderr,
                            '\n'.join(l for ls in want.values() for l in ls)))
                        fails += 1
                    else:
                        print('ok %s %s %s: %d lines' % (src, t, kern, len(got)))
                fails += check_ret(amdsim, hsaco, tmp, '%s %s' % (src, t))
        o = [3, -7, 100, -1, 0, 12345, -99999, 8, 1, 2, 3, 4, -5, 6, 7, -8]
        want = expected_ocl(o)
        obin = os.path.join(tmp, 'ocl.bin')
        with open(obin, 'wb') as f:
            f.write(struct.pack('<%di' % len(o), *o))
        for t in TARGETS:
            hsaco, err = build_ocl(t, tmp)
            if not hsaco:
                print('FAIL opencl %s: clang-19: %s' % (t, err))
                fails += 1
                continue
            r = subprocess.run([amdsim, hsaco, '--kernel', 'printf_ocl', '--grid', '2',
                                '--block', '8', 'in:' + obin], capture_output=True, text=True)
            got = r.stdout.splitlines()
            why = 'amdsim exit %d' % r.returncode if r.returncode else compare(got, want,
                                                                              ocl_thread_of)
            if why:
                print('FAIL opencl %s: %s; got\n%s%s' % (t, why, r.stdout, r.stderr))
                fails += 1
            else:
                print('ok opencl %s printf_ocl: %d lines' % (t, len(got)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
