#!/usr/bin/env python3
"""The compiler over the whole PTX corpus (tests/corpus: nvcc -O0/-O3/-G and clang-19 NVPTX
output of the project's CUDA sources, plus hand-written files) on every target.

Each (file, target) must either compile (exit 0, and llvm-readelf-19 reads the code object
without a warning and finds a kernel descriptor for every .entry of the file), or be rejected
(exit 1) with a located `file:line:col: error:` naming what is unsupported.  Anything else --
a crash, a signal, a hang, another exit status, an unlocated message -- fails the test.  The
summary counts compiled and rejected files and the most common reasons, so progress shows.

usage: corpus_sweep.py PTXAS_AMD CORPUS_DIR [--target T]...
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
READELF = os.environ.get('READELF', 'llvm-readelf-19')
DIAG = re.compile(r'^[^:\n]+:\d+:\d+: (error|warning): (.+)$', re.M)
ENTRY = re.compile(r'^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$%][\w$]*)', re.M)


def ptx_files(root):
    out = []
    for d, _, files in os.walk(root):
        out += [os.path.join(d, f) for f in files if f.endswith('.ptx')]
    return sorted(out)


def check_object(path, entries):
    r = subprocess.run([READELF, '-s', '--notes', path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or 'warning' in r.stdout.lower():
        return 'llvm-readelf-19: ' + r.stdout[-500:]
    for e in entries:
        if not re.search(r'\s%s\.kd$' % re.escape(e), r.stdout, re.M):
            return 'no kernel descriptor %s.kd' % e
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptxas_amd')
    ap.add_argument('corpus')
    ap.add_argument('--target', action='append')
    args = ap.parse_args()
    files = ptx_files(args.corpus)
    failures, compiled, rejected = [], 0, 0
    reasons = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'k.hsaco')
        for f in files:
            text = open(f, errors='replace').read()
            entries = ENTRY.findall(text)
            rel = os.path.relpath(f, args.corpus)
            for t in args.target or TARGETS:
                try:
                    r = subprocess.run([args.ptxas_amd, '--gpu-name', t, '--verify', f, '-o', out],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, timeout=120)
                except subprocess.TimeoutExpired:
                    failures.append('%s %s: timed out' % (t, rel))
                    continue
                if r.returncode == 0:
                    err = check_object(out, entries)
                    if err:
                        failures.append('%s %s: %s' % (t, rel, err))
                    else:
                        compiled += 1
                    continue
                m = DIAG.search(r.stdout)
                if r.returncode != 1 or not m or 'internal:' in r.stdout:
                    failures.append('%s %s: exit %d: %s' % (t, rel, r.returncode, r.stdout[-800:]))
                    continue
                rejected += 1
                reasons[re.sub(r"'[^']*' \(|on gfx\w+", '', m.group(2))[:90]] += 1
    for fl in failures:
        print('FAIL ' + fl)
    print('most common rejections:')
    for why, n in reasons.most_common(12):
        print('  %5d  %s' % (n, why))
    print('corpus-sweep: %d files x %d targets: %d compiled, %d rejected by name' %
          (len(files), len(args.target or TARGETS), compiled, rejected))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
