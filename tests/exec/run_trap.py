#!/usr/bin/env python3
"""trap, brkpt and assert() in device code, on every target: tests/exec/ptx/sys_trap.ptx (trap
and brkpt on the threads an input selects, an alloca past the stack budget) and the nvcc and clang-19 PTX of
tests/exec/src/assert_basic.cu and assert_glibc.cu (__assertfail, __assert_fail).  A launch in
which a thread traps must end in amdsim's trap (exit status 4, "kernel trap" on stderr) and print
the failed assertions' messages the way CUDA's device runtime does,
  FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `EXPR` failed.
(the lines of the threads of the first failing wave: the trap ends the dispatch; the expected
text is written here from the sources); a launch in which no thread fails completes with the
results the sources define.
usage: run_trap.py PTXAS_AMD AMDSIM"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ['gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200']


def src_line(name, needle):
    with open(os.path.join(HERE, 'src', name)) as f:
        for n, line in enumerate(f, 1):
            if needle in line:
                return n
    raise SystemExit('%s: no line with %r' % (name, needle))


def message(file, line, func, block, thread, expr):
    return '%s:%d: %s: block: [%d,0,0], thread: [%d,0,0] Assertion `%s` failed.' % (
        file, line, func, block, thread, expr)


def run(exe, sim, ptx, kernel, tmp, t, inputs, nout, scalars=()):
    """(exit status, stdout lines, stderr, output words) of one launch of 2 blocks of 4."""
    hsaco = os.path.join(tmp, 'k.%s.hsaco' % t)
    r = subprocess.run([exe, '--gpu-name', t, os.path.join(HERE, 'ptx', ptx), '-o', hsaco],
                       capture_output=True, text=True, timeout=120)
    if r.returncode:
        return None, [], 'ptxas-amd: ' + r.stderr, []
    inp, out = os.path.join(tmp, 'in.bin'), os.path.join(tmp, 'out.bin')
    with open(inp, 'wb') as f:
        f.write(struct.pack('<%di' % len(inputs), *inputs))
    if os.path.exists(out):
        os.remove(out)
    args = [sim, hsaco, '--kernel', kernel, '--grid', '2', '--block', '4']
    args += ['out:%d:%s' % (4 * nout, out), 'in:' + inp] if kernel.endswith('_k') else \
        ['in:' + inp, 'out:%d:%s' % (4 * nout, out)]
    args += list(scalars)
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    words = []
    if os.path.exists(out):
        with open(out, 'rb') as f:
            data = f.read()
        words = list(struct.unpack('<%di' % (len(data) // 4), data))
    return r.returncode, r.stdout.splitlines(), r.stderr, words


def expect_trap(tag, got, lines):
    rc, out, err, _ = got
    errs = []
    if rc != 4 or 'kernel trap' not in err:
        errs.append('%s: exit status %r, expected the trap (4); stderr: %s' % (tag, rc, err.strip()))
    if sorted(out) != sorted(lines):
        errs.append('%s: printed %r, expected %r' % (tag, out, lines))
    return errs


def expect_ok(tag, got, words):
    rc, out, err, w = got
    if rc != 0 or out or w != words:
        return ['%s: exit status %r, printed %r, wrote %r, expected 0, nothing, %r; %s'
                % (tag, rc, out, w, words, err.strip())]
    return []


def stack_overflow(exe, sim, tmp, t):
    """calls_recursive.ptx with a 64-byte stack: the recursion overflows it, and the stack
    check traps (on gfx11 followed by the s_sendmsg interrupt and s_sethalt that stand in for
    an s_trap 2 the hardware may skip, docs/CALLS.md)."""
    src, hsaco = os.path.join(HERE, 'ptx', 'calls_recursive.ptx'), os.path.join(tmp, 'rec.hsaco')
    tag, errs = '%s stack overflow' % t, []
    base = [exe, '--gpu-name', t, '--stack-size', '64', src]
    asm = subprocess.run(base + ['-S', '-o', '-'], capture_output=True, text=True, timeout=120)
    tail = asm.stdout.split('s_trap 2', 1)[-1].split('s_endpgm', 1)[0]
    if t.startswith('gfx11') != ('s_sethalt 5' in tail and 'MSG_INTERRUPT' in tail):
        errs.append('%s: after s_trap 2: %r' % (tag, tail[:300]))
    if subprocess.run(base + ['-o', hsaco], capture_output=True, timeout=120).returncode:
        return errs + ['%s: ptxas-amd failed' % tag]
    r = subprocess.run([sim, hsaco, '--kernel', 'calls_recursive', '--grid', '1', '--block', '64',
                        'out:1024:' + os.path.join(tmp, 'rec.bin'), 'u32:64'],
                       capture_output=True, text=True, timeout=120)
    return errs + expect_trap(tag, (r.returncode, r.stdout.splitlines(), r.stderr, []), [])


def check_target(exe, sim, tmp, t):
    errs = stack_overflow(exe, sim, tmp, t)
    n = 8
    # trap / brkpt: threads 5 (block 1) trap; none
    for kernel in ('trap_k', 'brkpt_k'):
        sel = [0] * n
        sel[5] = 1
        errs += expect_trap('%s %s' % (t, kernel), run(exe, sim, 'sys_trap.ptx', kernel, tmp, t,
                                                        sel, n), [])
        errs += expect_ok('%s %s (no trap)' % (t, kernel),
                          run(exe, sim, 'sys_trap.ptx', kernel, tmp, t, [0] * n, n),
                          [i + 100 for i in range(n)])
    # alloca past the stack budget (8 KiB per thread by default) traps
    sizes = [4, 64, 8, 1 << 20, 16, 4, 4, 4]
    errs += expect_trap('%s alloca_k' % t, run(exe, sim, 'sys_trap.ptx', 'alloca_k', tmp, t,
                                               sizes, n), [])
    errs += expect_ok('%s alloca_k (fits)' % t,
                      run(exe, sim, 'sys_trap.ptx', 'alloca_k', tmp, t, [4, 64, 8, 4096, 16, 4,
                                                                        4, 4], n),
                      [i + 100 for i in range(n)])
    # assert_basic.cu: v >= 0, out[i] = v + 1 when it holds
    line = src_line('assert_basic.cu', '\tassert(')
    func = 'void check_positive(const int *, int *)'
    expr = 'v >= 0 && "input must not be negative"'
    for ptx in ('assert_nvcc.ptx', 'assert_clang.ptx'):
        k = '_Z14check_positivePKiPi'
        v = [3, -1, 5, -7, 9, -11, 13, 15]  # threads 1 and 3 of block 0 fail (and 5 of block 1)
        want = [message('assert_basic.cu', line, func, 0, i, expr) for i in (1, 3)]
        errs += expect_trap('%s %s' % (t, ptx), run(exe, sim, ptx, k, tmp, t, v, n), want)
        v = [3, 1, 5, 7, 9, -11, 13, 15]  # thread 1 of block 1 fails
        want = [message('assert_basic.cu', line, func, 1, 1, expr)]
        errs += expect_trap('%s %s block 1' % (t, ptx), run(exe, sim, ptx, k, tmp, t, v, n), want)
        v = [3, 1, 5, 7, 9, 11, 13, 0]
        errs += expect_ok('%s %s (holds)' % (t, ptx), run(exe, sim, ptx, k, tmp, t, v, n),
                          [x + 1 for x in v])
    # assert_glibc.cu: s = in[2i] + in[2i+1] < limit, out[i] = -s when it holds
    line = src_line('assert_glibc.cu', 'ASSERT(s < limit)')
    func = 'void check_sum(const int *, int *, int)'
    v = [1, 2, 3, 4, 50, 6, 7, 8, 9, 10, 11, 12, 13, 14, 100, -200]
    want = [message('assert_glibc.cu', line, func, 0, 2, 's < limit')]
    errs += expect_trap('%s assert_glibc.ptx' % t,
                        run(exe, sim, 'assert_glibc.ptx', 'check_sum', tmp, t, v, n, ['i32:20']),
                        want)
    errs += expect_ok('%s assert_glibc.ptx (holds)' % t,
                      run(exe, sim, 'assert_glibc.ptx', 'check_sum', tmp, t, v, n, ['i32:100']),
                      [-(v[2 * i] + v[2 * i + 1]) for i in range(n)])
    return errs


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for t in TARGETS:
            e = check_target(exe, sim, tmp, t)
            print('%s  %s' % ('PASS' if not e else 'FAIL', t))
            errs += e
    for e in errs:
        print('  ' + e)
    print('run_trap: %d failure(s)' % len(errs))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
