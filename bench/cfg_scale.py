#!/usr/bin/env python3
"""Compile time of ptxas-amd on generated branchy kernels: does it stay near-linear in the
number of branches?  A benchmark, not a test: it measures, never fails on speed.

  bench/cfg_scale.py [--build DIR] [--sizes 1000,4000,16000] [--shapes diamonds,ladder]
                     [--target gfx1100] [--out FILE]

Shapes (tests/exec/cases/cfg_zoo.py generates them, in the light form: each block updates a
hash; the same generator makes the checked kernel tests/exec/ptx/cfg_diamonds.ptx):
  diamonds  N if-diamonds and if-triangles in a row, on divergent and uniform conditions
  ladder    a switch-like jump ladder of N rungs on x % N (odd cases fall through)
  pending   N rungs into targets after a common part: N rejoin masks pending at once, all
            but the first 56 (28 on wave64) in VGPR lanes (N/32 VGPRs: 16000 is too many)
For each: PTX lines, blocks, CPU seconds and peak RSS of `ptxas-amd -O3` (median of 3), the
microseconds per block, and the slowest stage from --time-passes.  Writes a Markdown table
to --out (default: stdout).
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'tests', 'exec', 'cases'))
import cfg_zoo  # noqa: E402

SHAPES = {'diamonds': cfg_zoo.diamonds, 'ladder': cfg_zoo.ladder, 'pending': cfg_zoo.pending}


def find_ptxas(build):
    if build:
        return os.path.join(build, 'src', 'driver', 'ptxas-amd')
    found = glob.glob(os.path.join(ROOT, 'build*', 'src', 'driver', 'ptxas-amd'))
    return max(found, key=os.path.getmtime) if found else None


def timed(cmd):
    """(CPU seconds, peak RSS in MB, stderr) of one child process."""
    with tempfile.TemporaryFile('w+') as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read()
    if p.returncode:
        raise RuntimeError('%s: %s' % (' '.join(cmd), text.strip()[-300:]))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, text


def slowest_stage(text):
    rows = [line.split() for line in text.splitlines() if ' ms ' in line]
    stages = [(float(cols[-5]), ' '.join(cols[:-5])) for cols in rows
              if len(cols) >= 6 and cols[0] != 'total']
    if not stages:
        return ''
    ms, name = max(stages)
    return '%s %.0f%%' % (name, 100 * ms / max(sum(m for m, _ in stages), 1e-9))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build')
    ap.add_argument('--sizes', default='1000,4000,16000')
    ap.add_argument('--shapes', default='diamonds,ladder')
    ap.add_argument('--target', default='gfx1100')
    ap.add_argument('--out')
    args = ap.parse_args()
    ptxas = find_ptxas(args.build)
    if not ptxas or not os.access(ptxas, os.X_OK):
        print('cfg_scale: no ptxas-amd (give --build)')
        return 77
    sizes = [int(x) for x in args.sizes.split(',')]
    lines = ['| shape | N | PTX lines | blocks | CPU s (median of 3) | us per block | '
             'peak RSS MB | slowest stage |', '|---|--:|--:|--:|--:|--:|--:|---|']
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(','):
            make = SHAPES[shape]
            for n in sizes:
                blocks = make(n)
                ptx = os.path.join(tmp, '%s%d.ptx' % (shape, n))
                text = cfg_zoo.gen_ptx('k', blocks, [], trace=False)
                with open(ptx, 'w') as f:
                    f.write(text)
                cmd = [ptxas, '-O3', '--gpu-name', args.target, ptx, '-o',
                       os.path.join(tmp, 'k.hsaco')]
                try:
                    runs = sorted(timed(cmd)[:2] for _ in range(3))
                    stage = slowest_stage(timed(cmd + ['--time-passes'])[2])
                except RuntimeError as e:
                    lines.append('| %s | %d | | %d | failed: %s | | | |' % (
                        shape, n, len(blocks), str(e).splitlines()[-1][:80]))
                    print(lines[-1], flush=True)
                    continue
                cpu, rss = runs[1]
                lines.append('| %s | %d | %d | %d | %.3f | %.1f | %.0f | %s |' % (
                    shape, n, text.count('\n'), len(blocks), cpu, 1e6 * cpu / len(blocks),
                    max(r for _, r in runs), stage))
                print(lines[-1], flush=True)
    if args.out:
        with open(args.out, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
