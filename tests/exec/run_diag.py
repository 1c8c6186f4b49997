#!/usr/bin/env python3
"""Diagnostics of the code generator (tests/exec/diag/*.ptx): each file lists its runs
(`// run: TARGET [OPTIONS...]`) and, per run, every diagnostic it must print
(`// expect TARGET [OPTIONS...]: LINE:COL: error|warning: MESSAGE`).  A run must print exactly
those diagnostics at those positions, each as many times as it is listed, and exit 1 if any
is an error, else 0 with a code object.

usage: run_diag.py PTXAS_AMD [FILE...]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DIAG = re.compile(r'^(?:.*?):(\d+):(\d+): (error|warning): (.*)$')


def check_file(exe, path, tmp):
    runs, expect = [], {}
    with open(path) as f:
        for line in f:
            m = re.match(r'^// run: (.*)$', line)
            if m:
                runs.append(m.group(1).strip())
                continue
            m = re.match(r'^// expect ([^:]*): (\d+:\d+: (?:error|warning): .*)$', line)
            if m:
                expect.setdefault(m.group(1).strip(), []).append(m.group(2).rstrip())
    if not runs:
        return ['%s: no "// run:" line' % path]
    errs = []
    for run in runs:
        words = run.split()
        out = os.path.join(tmp, 'k.hsaco')
        if os.path.exists(out):
            os.remove(out)
        r = subprocess.run([exe, '--gpu-name', words[0]] + words[1:] + [path, '-o', out],
                           capture_output=True, text=True, timeout=60)
        got = []
        for line in r.stderr.splitlines():
            m = DIAG.match(line)
            if m:
                got.append('%s:%s: %s: %s' % m.groups())
        want = expect.get(run, [])
        tag = '%s [%s]' % (os.path.basename(path), run)
        for w in want:
            if w not in got:
                errs.append('%s: missing diagnostic: %s' % (tag, w))
        for g in sorted(set(got)):
            if g not in want:
                errs.append('%s: unexpected diagnostic: %s' % (tag, g))
            elif got.count(g) > want.count(g):  # e.g. once per call site of inlined code
                errs.append('%s: printed %d times, expected %d: %s'
                            % (tag, got.count(g), want.count(g), g))
        status = 1 if any(': error: ' in w for w in want) else 0
        if r.returncode != status:
            errs.append('%s: exit %d, expected %d\n%s' % (tag, r.returncode, status,
                                                          r.stderr[-800:]))
        elif status == 0 and not os.path.exists(out):
            errs.append('%s: no code object written' % tag)
    return errs


def main():
    exe = sys.argv[1]
    files = sys.argv[2:] or sorted(glob.glob(os.path.join(HERE, 'diag', '*.ptx')))
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            e = check_file(exe, path, tmp)
            print('%s  %s' % ('FAIL' if e else 'PASS', os.path.basename(path)))
            errs += e
    for e in errs:
        print('  ' + e)
    print('exec-diag: %d files, %d problems' % (len(files), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
