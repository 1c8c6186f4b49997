#!/usr/bin/env python3
"""Runs the PTX parser on each malformed input in errors/ and compares diagnostics.

Each file states its expected diagnostics in comments, one per line, in order:
    // expect: LINE:COL: error: MESSAGE
    // expect: LINE:COL: warning: MESSAGE
The parser must print exactly these `file:line:col: level: message` lines, each
followed by the source line and a caret under the column (clang style), and exit 1
when an error is expected, else 0.

With PTXAS (NVIDIA's assembler) the expectations are also checked against it: a file
expecting an error must be rejected by ptxas, one expecting none accepted, except files
marked `// limit:` whose error is a documented limit of this parser.
Usage: run_errors.py PARSER ERRORS_DIR [PTXAS]"""
import os
import re
import subprocess
import sys

DIAG = re.compile(r'^(.*?):(\d+):(\d+): (error|warning): (.*)$')
EXPECT = re.compile(r'//\s*expect:\s*(\d+):(\d+): (error|warning): (.*?)\s*$')


def check_ptxas(ptxas, path, text, want):
    """NVIDIA ptxas as an independent oracle that the input is (in)valid PTX."""
    if '// limit:' in text:
        return []
    try:
        p = subprocess.run([ptxas, '-arch', 'sm_90', path, '-o', os.devnull],
                           capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return ['ptxas timed out']
    expect_error = any(w[2] == 'error' for w in want)
    if expect_error and p.returncode == 0:
        return ['ptxas accepts this input, but an error is expected']
    if not expect_error and p.returncode != 0:
        return ['ptxas rejects this input, but no error is expected:\n' +
                p.stderr.decode('utf-8', 'replace')[:1000]]
    return []


def check(parser, path, ptxas=None):
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    want = [(int(m.group(1)), int(m.group(2)), m.group(3), m.group(4))
            for m in map(EXPECT.search, text.splitlines()) if m]
    args = [parser, path]
    if 'RUN-DUMP' in text:
        args.insert(1, '--dump-ast')
    try:
        p = subprocess.run(args, capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return ['timeout']
    got = []
    lines = p.stderr.decode('utf-8', 'replace').splitlines()
    errs = []
    for i, line in enumerate(lines):
        m = DIAG.match(line)
        if m and m.group(1) == path:
            got.append((int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
            # clang style: the source line, then a caret under the column
            caret = lines[i + 2] if i + 2 < len(lines) else ''
            src = lines[i + 1] if i + 1 < len(lines) else ''
            long_line = src.startswith('...') or src.endswith('...')
            if not caret.endswith('^') or (not long_line and len(caret) != int(m.group(3))):
                errs.append('no caret under column %s after: %s' % (m.group(3), line))
    if got != want:
        errs.append('diagnostics differ:\n  expected:\n' +
                    ''.join('    %d:%d: %s: %s\n' % w for w in want) + '  got:\n' +
                    ''.join('    %d:%d: %s: %s\n' % g for g in got))
    expect_rc = 1 if any(w[2] == 'error' for w in want) else 0
    if p.returncode != expect_rc:
        errs.append('exit status %d, expected %d' % (p.returncode, expect_rc))
    if ptxas:
        errs += check_ptxas(ptxas, path, text, want)
    return errs


def main():
    parser, folder = sys.argv[1], sys.argv[2]
    ptxas = sys.argv[3] if len(sys.argv) > 3 else None
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith('.ptx'))
    failed = 0
    for path in files:
        errs = check(parser, path, ptxas)
        if errs:
            failed += 1
            print('FAIL %s: %s' % (path, '\n'.join(errs)))
    print('%d/%d error tests passed' % (len(files) - failed, len(files)))
    if len(files) < 40:
        print('too few error tests found in %s' % folder)
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
