#!/usr/bin/env python3
"""The exec replay: our own execution tests (tests/exec ptx cases and the clang-19 -O3 OpenCL
kernels) judged on the NVIDIA H100's outputs instead of amdsim's.

usage: exec_replay.py --ptxas-amd P --amdsim S --hw DIR --source-root DIR
                      [--expected FILE] [--update]

Runs ../shared/ptx-hw/tools/nvexec/replay.py (imported, no numpy or GPU needed) on
../shared/ptx-hw/exec and then on tests/hw/nvexec (the cases added or changed since that
recording, recorded and run on an H100 the same way; its status wins for the cases it
holds): each case's own CPU reference judges what the hardware wrote for its launch.  Every case that does not PASS must be listed in replay_expected.txt with the same status
(FAIL, XFAIL, NVERR, SKIP) and a one-line reason; the test fails on an unlisted one and on a
listed one whose status changed (a case that now passes: drop its line).  --update rewrites the
list, keeping the reasons of the lines that still hold (new lines get a placeholder to replace).
Exit 77 (skipped) when the data directory is absent.
"""

import argparse
import contextlib
import io
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NEWER = os.path.join(HERE, 'nvexec')  # launches recorded after ../shared/ptx-hw/exec
LINE = re.compile(r'^(PASS|FAIL|XFAIL|NVERR|SKIP)\s+(\S+)\s+(\S+)')
NO_REASON = '(reason to be written)'
HEADER = """\
# Cases of our own execution tests whose CPU reference disagrees with the NVIDIA H100's outputs
# (tests/hw/exec_replay.py, docs/HARDWARE.md), or that the H100 did not run: STATUS suite/case
# reason.  The test fails on a case missing here and on a line whose status no longer holds.
# Regenerate with --update (reasons of unchanged lines are kept; write one for each new line).
"""


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--hw', required=True, help='the ptx-hw directory (../shared/ptx-hw)')
    ap.add_argument('--source-root', required=True, help='the project root (tests/exec, ...)')
    ap.add_argument('--expected', default=os.path.join(HERE, 'replay_expected.txt'))
    ap.add_argument('--update', action='store_true')
    return ap.parse_args()


def run_replay(args):
    """(replay's printed output, {suite/case: status})."""
    os.environ['NVEXEC_MAIN'] = os.path.abspath(args.source_root)
    os.environ['NVEXEC_PTXAS'] = os.path.abspath(args.ptxas_amd)
    os.environ['NVEXEC_AMDSIM'] = os.path.abspath(args.amdsim)
    sys.path.insert(0, os.path.join(args.hw, 'tools', 'nvexec'))
    import common
    import replay
    common.PY = sys.executable  # the fake amdsim needs no numpy: any python 3 runs it
    # the shared recording, then this repository's newer one (tests/hw/nvexec: cases added or
    # changed since, recorded with the same tools): a case the newer one holds takes its status
    status, texts = {}, []
    for exec_dir in (os.path.join(args.hw, 'exec'), NEWER):
        if not os.path.isdir(os.path.join(exec_dir, 'nv')):
            continue
        argv, sys.argv = sys.argv, ['replay.py', os.path.join(exec_dir, 'nv'), '--bundle',
                                    exec_dir]
        text = io.StringIO()
        try:
            with contextlib.redirect_stdout(text):
                replay.main()
        finally:
            sys.argv = argv
        for line in text.getvalue().splitlines():
            m = LINE.match(line)
            if m and not (m.group(1) == 'SKIP' and line.rstrip().endswith('not in the bundle')
                          and exec_dir == NEWER):
                status['%s/%s' % (m.group(2), m.group(3))] = m.group(1)
        texts.append(text.getvalue())
    return '\n'.join(texts), status


def read_expected(path):
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit('%s:%d: expected "STATUS suite/case reason"' % (path, n))
            expected[parts[1]] = (parts[0], parts[2])
    return expected


def main():
    args = parse_args()
    if not os.path.isdir(os.path.join(args.hw, 'exec')):
        print('SKIP: no hardware data at %s/exec' % args.hw)
        return 77
    text, status = run_replay(args)
    print(text.rstrip())
    expected = read_expected(args.expected)
    actual = {case: st for case, st in status.items() if st != 'PASS'}
    if args.update:
        with open(args.expected, 'w') as f:
            f.write(HEADER)
            for case in sorted(actual, key=lambda c: (actual[c], c)):
                old = expected.get(case)
                reason = old[1] if old and old[0] == actual[case] else NO_REASON
                f.write('%-5s %-24s %s\n' % (actual[case], case, reason))
        print('wrote %s (%d cases)' % (args.expected, len(actual)))
        return 0
    problems = []
    for case in sorted(set(actual) | set(expected)):
        want = expected.get(case, ('PASS', ''))[0]
        got = status.get(case, 'absent')
        if want != got and not (want == 'PASS' and got == 'absent'):
            problems.append('%s: listed %s, now %s' % (case, want, got))
    unexplained = [c for c, (_, why) in expected.items() if why == NO_REASON]
    print()
    for p in problems:
        print('UNEXPECTED ' + p)
    for c in unexplained:
        print('NOTE %s is listed without a reason' % c)
    if problems:
        print('FAIL: %d cases differ from %s (fix the reference or the compiler, or update the '
              'list with a reason)' % (len(problems), args.expected))
        return 1
    print('PASS: %d cases pass, %d listed in %s' % (len(status) - len(actual), len(actual),
                                                    args.expected))
    return 0


if __name__ == '__main__':
    sys.exit(main())
