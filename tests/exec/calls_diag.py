#!/usr/bin/env python3
"""Diagnostics of calls ptxas-amd cannot inline (tests/exec/diag/*.ptx): recursion, direct
and mutual; indirect calls; calls to .extern functions; vararg calls; overlapping .param
accesses; a call to a function never defined; and a device function nobody calls, which is
not compiled.  NVIDIA ptxas's verdict is recorded in each file's first line (it accepts all
but the undefined callee), and each rejection must be exact: the first line lists the expected `LINE:COL: error: TEXT` (a prefix of the
message), separated by ' | ', and ptxas-amd must exit 1 with exactly those errors, on every
target; or it says `compiles`, and ptxas-amd must exit 0.

usage: calls_diag.py PTXAS_AMD
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
DIAG = re.compile(r'^(.+?):(\d+):(\d+): error: (.*)$', re.M)


def expectations(path):
    first = open(path).readline()
    m = re.match(r'// expect: (.*?)\s+// NVIDIA ptxas', first)
    if not m:
        return None
    if m.group(1) == 'compiles':
        return []
    return [tuple(re.match(r'(\d+):(\d+): error: (.*)', e.strip()).groups())
            for e in m.group(1).split(' | ')]


def main():
    ptxas_amd = sys.argv[1]
    ddir = os.path.join(HERE, 'diag')
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(ddir)):
            path = os.path.join(ddir, name)
            exp = expectations(path)
            if exp is None:
                failures.append('%s: no expectation line' % name)
                continue
            for target in TARGETS:
                r = subprocess.run([ptxas_amd, '--gpu-name', target, '--verify', path, '-o',
                                    os.path.join(tmp, 'k.hsaco')], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=60)
                got = [(ln, col, msg) for f, ln, col, msg in DIAG.findall(r.stdout)]
                ok = r.returncode == (1 if exp else 0) and len(got) == len(exp) and all(
                    g[0] == e[0] and g[1] == e[1] and g[2].startswith(e[2])
                    for g, e in zip(got, exp))
                checked += 1
                if not ok:
                    failures.append('%s %s: exit %d, expected %s, got:\n%s'
                                    % (name, target, r.returncode, exp or 'success',
                                       r.stdout[-1500:]))
    for f in failures:
        print('FAIL  ' + f)
    print('calls-diag: %d checked, %d failed' % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
