#!/usr/bin/env python3
"""Writes docs/COVERAGE.md: for every PTX instruction family of src/parse/ptx_ops.def, how many
of the conformance files NVIDIA's ptxas accepts (tests/parse/conformance, `// ptxas: ok`) that
use it compile on each target, the first error where one does not, and which tests execute it
(PTX files under tests/ that use the family, and kernels of ../shared/ptx-hw whose H100 results
judge it).

usage: scripts/coverage.py [--ptxas-amd build/src/driver/ptxas-amd] [--out docs/COVERAGE.md]
                           [--notes docs/coverage_notes.txt] [-j N]

A file counts against a family only when the compiler's first error is on one of that
family's lines; the other families in the file are judged by the rest.  --notes gives, per
family, a line "family: text" that is printed as the status column's explanation (the reasons
for what is rejected on purpose).
"""

import argparse
import collections
import concurrent.futures
import glob
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
ERR = re.compile(r'^[^:]+:(\d+):(\d+): error: (.*)$')


def families():
    names = []
    with open(os.path.join(ROOT, 'src/parse/ptx_ops.def')) as f:
        for line in f:
            m = re.match(r'OP\(\w+, "([^"]+)"', line)
            if m:
                names.append(m.group(1))
    return sorted(set(names), key=lambda n: -len(n))


def family_of(mnemonic, names):
    for n in names:  # longest first
        if mnemonic == n or mnemonic.startswith(n + '.'):
            return n
    return None


def lines_by_family(path, names):
    """{family: [line numbers]} of the instructions in a PTX file."""
    out = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for no, line in enumerate(f, 1):
            text = re.sub(r'//.*', '', line).strip()
            text = re.sub(r'^[\w$]+:\s*', '', text)  # a label
            text = re.sub(r'^@!?%?\w+\s+', '', text)  # a guard
            if not text or text[0] in '.{}' or text.startswith('//'):
                continue
            fam = family_of(text.split()[0].rstrip(';'), names)
            if fam:
                out[fam].append(no)
    return out


def compile_one(ptxas, path, target, tmp):
    p = subprocess.run([ptxas, '--gpu-name', target, path, '-o',
                        os.path.join(tmp, '%s-%s.hsaco' % (os.path.basename(path), target))],
                       capture_output=True, text=True, timeout=60)
    if p.returncode == 0:
        return None
    for line in p.stderr.splitlines():
        m = ERR.match(line)
        if m:
            return int(m.group(1)), m.group(3)
    return 0, (p.stderr.strip().splitlines() or ['exit %d' % p.returncode])[0]


def uses(paths, names):
    count = collections.Counter()
    for path in paths:
        for fam in lines_by_family(path, names):
            count[fam] += 1
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ptxas-amd', default=os.path.join(ROOT, 'build/src/driver/ptxas-amd'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs/COVERAGE.md'))
    ap.add_argument('--notes', default=os.path.join(ROOT, 'docs/coverage_notes.txt'))
    ap.add_argument('-j', type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    names = families()
    conf = sorted(p for p in glob.glob(os.path.join(ROOT, 'tests/parse/conformance/*.ptx'))
                  if open(p, errors='replace').readline().startswith('// ptxas: ok'))
    fam_lines = {p: lines_by_family(p, names) for p in conf}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        jobs = {(p, t): pool.submit(compile_one, args.ptxas_amd, p, t, tmp)
                for p in conf for t in TARGETS}
        result = {k: f.result() for k, f in jobs.items()}
    total = collections.Counter()
    ok = collections.defaultdict(collections.Counter)
    why = collections.defaultdict(dict)
    files_ok = collections.Counter()
    for p in conf:
        for t in TARGETS:
            r = result[(p, t)]
            files_ok[t] += r is None
            for fam, lines in fam_lines[p].items():
                if t == TARGETS[0]:
                    total[fam] += 1
                if r is not None and (r[0] in lines or r[0] == 0):
                    why[fam].setdefault(t, '%s: %s' % (os.path.basename(p)[:-4], r[1]))
                else:
                    ok[fam][t] += 1
    tested = uses([p for p in glob.glob(os.path.join(ROOT, 'tests/**/*.ptx'), recursive=True)
                   if '/parse/' not in p], names)
    hw_dir = os.path.join(ROOT, '..', 'shared', 'ptx-hw')
    hw = uses(glob.glob(os.path.join(hw_dir, '*', 'k*.ptx')), names)
    notes = {}
    if os.path.exists(args.notes):
        for line in open(args.notes):
            if ':' in line and not line.startswith('#'):
                k, v = line.split(':', 1)
                notes[k.strip()] = v.strip()
    out = ['# Coverage: every PTX instruction family, what generates code, what is tested', '',
           'Written by `scripts/coverage.py` (do not edit by hand; reasons for what is rejected '
           'on purpose are in `docs/coverage_notes.txt`). Per family: the conformance files '
           'NVIDIA\'s ptxas accepts that use it (`tests/parse/conformance`), how many of them '
           'ptxas-amd compiles per target (a file counts against a family only when the first '
           'error is on one of that family\'s lines), the PTX files of our tests that use it '
           '(executed against CPU references, `tests/exec` mostly) and the kernels of '
           '`../shared/ptx-hw` that use it (judged against the H100\'s results by '
           '`tests/hw`).', '',
           'Conformance files compiled: ' + ', '.join(
               '%s %d/%d' % (t, files_ok[t], len(conf)) for t in TARGETS) + '.', '',
           '| family | ptxas-ok files | ' + ' | '.join(TARGETS) +
           ' | test PTX files | H100 kernels | not compiled (first) / note |',
           '|---|---|' + '---|' * len(TARGETS) + '---|---|---|']
    for fam in sorted(set(names)):
        n = total[fam]
        cells = ['%d' % ok[fam][t] if n else '-' for t in TARGETS]
        first = next(iter(why[fam].values()), '') if why[fam] else ''
        note = notes.get(fam, '')
        text = '; '.join(x for x in (note, first.replace('|', '\\|')[:160]) if x)
        out.append('| `%s` | %d | %s | %d | %d | %s |' % (fam, n, ' | '.join(cells),
                                                         tested[fam], hw[fam], text))
    with open(args.out, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print('wrote %s: %s' % (args.out, ', '.join('%s %d/%d' % (t, files_ok[t], len(conf))
                                                for t in TARGETS)))


if __name__ == '__main__':
    main()
