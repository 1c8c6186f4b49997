#!/usr/bin/env python3
"""Compile-time scaling of ptxas-amd on generated shapes (issue 21): is any stage super-linear?

  python3 bench/scale.py [--bin LABEL=PATH ...] [--sizes 1,2,4,8] [--repeats N]
                         [--shapes NAME,...] [--no-nv] [--out FILE] [--threads 1,2,0]

Inputs (committed, made by bench/scale/generate.sh with nvcc -arch sm_80 -O3 --ptx):
  spill       bench/scale/ptx/spill_attn[.xN].nvcc.ptx: an attention-like kernel that keeps
              2 x 96 floats live across 4N key loops (spills at the default budget)
  spill-r64   the same with --maxrregcount 64
  spill-r32   the same with --maxrregcount 32
  many        bench/scale/ptx/many_kernels[.xN].nvcc.ptx: 128N small template kernels
  big         bench/kernels/ptx/big_unrolled[.xN].nvcc.ptx (no spills; the unrolled shape)

For every shape, size and binary (gfx90a, -O3): whole-process CPU seconds (user + sys,
wait4, median of --repeats runs) and peak RSS (one more run under /usr/bin/time: see
peak_rss), the `--time-passes` stage times (CPU ms of the
compiling thread, best of the runs), microseconds of CPU per PTX instruction and the
ratio of that at the largest size to the smallest (1.0 = linear).  NVIDIA ptxas -O3
-arch=sm_80 (same --maxrregcount) is timed once per input for the CPU ratio.  --threads
LIST adds, per binary, the wall time (median of --repeats) of the many-kernel module at the
largest size with each -j in LIST (0: one thread per core), its CPU time and peak RSS, and
checks that every -j wrote the same bytes.  A benchmark: nothing fails on a figure.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
import ptxcount  # noqa: E402

SHAPES = {
    'spill': ('scale/ptx/spill_attn', []),
    'spill-r64': ('scale/ptx/spill_attn', ['--maxrregcount', '64']),
    'spill-r32': ('scale/ptx/spill_attn', ['--maxrregcount', '32']),
    'many': ('scale/ptx/many_kernels', []),
    'big': ('kernels/ptx/big_unrolled', []),
}
STAGES = ('parse', 'ir build + cfg', 'ir optimize', 'uniformity', 'isel', 'regalloc',
          'sched+waits', 'encode', 'code object')


def ptx_path(stem, size):
    return os.path.join(HERE, stem + ('' if size == 1 else '.x%d' % size) + '.nvcc.ptx')


def timed(cmd, work, wall=False):
    """(CPU seconds user + sys, peak RSS KiB, stderr) of one run (wait4's rusage, microsecond
    resolution), with the wall seconds last when `wall`, or None when it fails."""
    errf = os.path.join(work, 'stderr.txt')
    with open(errf, 'w') as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        elapsed = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        return None
    res = (ru.ru_utime + ru.ru_stime, ru.ru_maxrss, open(errf).read())
    return res + (elapsed,) if wall else res


def peak_rss(cmd, work):
    """Peak RSS KiB of one run, from /usr/bin/time -f %M: the rusage of a child that Python
    forked (or vforked) counts the Python process's own pages from before the exec, which
    is larger than a small compile (it put 72 MiB on every -j run of `many`)."""
    out = os.path.join(work, 'rss.txt')
    res = timed(['/usr/bin/time', '-f', '%M', '-o', out] + cmd, work)
    return int(open(out).read().split()[-1]) if res else None


def threads_table(bins, size, counts, repeats, work):
    """Markdown lines: -j N on the many-kernel module, wall/CPU/RSS medians per binary."""
    ptx = ptx_path(SHAPES['many'][0], size)
    lines = ['', '### -j on many (%s, %d PTX instructions, wall time, median of %d)' % (
        os.path.basename(ptx), ptxcount.count_file(ptx), repeats), '',
        '| binary | -j | wall s | CPU s | peak RSS MiB | same bytes as -j1 |', '|---|---|---|---|---|---|']
    for label, binary in bins:
        want = None
        for j in counts:
            out = os.path.join(work, 'j.hsaco')
            cmd = [binary, '-O3', '--gpu-name', 'gfx90a', '-j', str(j), ptx, '-o', out]
            runs = [timed(cmd, work, wall=True) for _ in range(repeats)]
            rss = peak_rss(cmd, work)
            if None in runs or rss is None:
                lines.append('| %s | %d | failed | | | |' % (label, j))
                continue
            got = open(out, 'rb').read()
            want = got if want is None else want
            lines.append('| %s | %d%s | %.3f | %.3f | %.1f | %s |' % (
                label, j, ' (%d cores)' % os.cpu_count() if j == 0 else '',
                statistics.median(r[3] for r in runs), statistics.median(r[0] for r in runs),
                rss / 1024, 'yes' if got == want else 'NO'))
            print(lines[-1], file=sys.stderr, flush=True)
    return lines


def stage_times(stderr):
    out = {}
    for line in stderr.splitlines():
        m = re.match(r'\s*(.+?)\s+([0-9.]+) ms\s+[0-9.]+%', line)
        if m and m.group(1) in STAGES:
            out[m.group(1)] = float(m.group(2))
    return out


def measure_amd(binary, ptx, extra, repeats, work):
    cpus, stages = [], {}
    cmd = [binary, '-O3', '--gpu-name', 'gfx90a', '--time-passes'] + extra + [
        ptx, '-o', os.path.join(work, 'out.hsaco')]
    for _ in range(repeats):
        res = timed(cmd, work)
        if res is None:
            return None
        cpus.append(res[0])
        for k, v in stage_times(res[2]).items():
            stages[k] = min(stages.get(k, v), v)
    rss = peak_rss(cmd, work)
    return (statistics.median(cpus), rss, stages) if rss else None


def measure_nv(ptx, extra, work):
    nv = '/usr/local/cuda/bin/ptxas'
    if not os.access(nv, os.X_OK):
        return None
    res = timed([nv, '-O3', '-arch=sm_80'] + extra + [ptx, '-o', os.path.join(work, 'o.cubin')],
                work)
    return res[0] if res else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', action='append', default=[],
                    help='LABEL=PATH of a ptxas-amd binary (repeatable); default build*/')
    ap.add_argument('--sizes', default='1,2,4,8')
    ap.add_argument('--shapes', default=','.join(SHAPES))
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--no-nv', action='store_true')
    ap.add_argument('--out', help='markdown file (default: standard output)')
    ap.add_argument('--threads', help='-j counts for the many-kernel wall-time table, e.g. 1,2,0')
    args = ap.parse_args()
    bins = [b.split('=', 1) for b in args.bin] or [
        ('ptxas-amd', os.path.join(os.path.dirname(HERE), 'build', 'src', 'driver',
                                   'ptxas-amd'))]
    sizes = [int(s) for s in args.sizes.split(',')]
    lines = []
    with tempfile.TemporaryDirectory() as work:
        for shape in args.shapes.split(','):
            stem, extra = SHAPES[shape]
            lines += ['', '### %s (%s%s)' % (shape, stem, ' ' + ' '.join(extra) if extra else ''),
                      '', '| size | PTX insns | binary | CPU s | us/insn | peak RSS MiB | ' +
                      ' | '.join(STAGES) + ' | NV ptxas CPU s | NV / ours |',
                      '|' + '---|' * (7 + len(STAGES) + 1)]
            per_insn = {}
            for size in sizes:
                ptx = ptx_path(stem, size)
                if not os.path.exists(ptx):
                    continue
                n = ptxcount.count_file(ptx)
                nv = None if args.no_nv else measure_nv(ptx, extra, work)
                for label, binary in bins:
                    m = measure_amd(binary, ptx, extra, args.repeats, work)
                    if m is None:
                        lines.append('| %dx | %d | %s | failed |' % (size, n, label))
                        continue
                    cpu, rss, st = m
                    us = cpu / n * 1e6
                    per_insn.setdefault(label, []).append(us)
                    lines.append('| %dx | %d | %s | %.3f | %.2f | %.1f | %s | %s | %s |' % (
                        size, n, label, cpu, us, rss / 1024,
                        ' | '.join('%.1f' % st.get(s, 0) for s in STAGES),
                        '%.3f' % nv if nv else '-', '%.1f' % (nv / cpu) if nv and cpu else '-'))
                    print(lines[-1], file=sys.stderr, flush=True)
            lines.append('')
            for label, us in per_insn.items():
                if len(us) > 1:
                    lines.append('%s: CPU per instruction at %dx / at %dx = %.2f' % (
                        label, sizes[len(us) - 1], sizes[0], us[-1] / us[0]))
        if args.threads:
            lines += threads_table(bins, sizes[-1], [int(j) for j in args.threads.split(',')],
                                   args.repeats, work)
    text = '\n'.join(lines) + '\n'
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == '__main__':
    main()
