#!/usr/bin/env python3
"""Execution tests of ptxas-amd on real compiler output: the OpenCL kernels of tests/kernels,
compiled to PTX by clang-19's NVPTX back end (-O3 and -O0), then to AMD code objects by
ptxas-amd, run in amdsim (strict: every missing wait or hazard fails) and checked against the
same independent CPU references (tests/kernels/ref.py) that judge clang-19's own AMD code.

Every kernel on every target either compiles and passes, or is rejected by ptxas-amd with a
located error naming what is unsupported (exit status 1, `file:line:col: error: ...`).
cl_expected.txt lists the kernels that must compile (per optimization level): one of them
being rejected is a failure, so coverage never silently shrinks; a kernel not listed that
starts compiling is reported so the list can grow.  A crash, a hang, a wrong result or a
checker violation is always a failure.

usage: run_cl.py --ptxas-amd PATH --amdsim PATH [--target T]... [--case NAME]... [-v]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(os.path.dirname(HERE), 'kernels')
sys.path.insert(0, KDIR)
import kbuild  # noqa: E402
import ref  # noqa: E402
import run as krun  # noqa: E402

CLANG = os.environ.get('CLANG', 'clang-19')
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
LEVELS = ('O3', 'O0')
DIAG = re.compile(r'^[^:\n]+:\d+:\d+: error: .+', re.M)


def to_ptx(src, level, outdir):
    stem = os.path.splitext(os.path.basename(src))[0]
    out = os.path.join(outdir, '%s.%s.ptx' % (stem, level))
    cmd = [CLANG, '-x', 'cl', '-cl-std=CL2.0', '-target', 'nvptx64-nvidia-cuda', '-nogpulib',
           '-Wno-ignored-pragmas', '-' + level] + kbuild.extra_flags(src) + ['-S', src, '-o', out]
    status, _ = kbuild.cached_run(cmd, src, out)
    return out if status == 0 else None


def load_xfail():
    """cl_xfail.txt: (level, kernel) whose clang-19 PTX itself computes something else than
    the OpenCL source under the PTX ISA's rules; their results may differ (XFAIL)."""
    out = set()
    for line in open(os.path.join(HERE, 'cl_xfail.txt')):
        line = line.split('#')[0].split()
        if len(line) >= 2:
            out.add((line[0], line[1]))
    return out


def load_expected():
    exp = set()
    for line in open(os.path.join(HERE, 'cl_expected.txt')):
        line = line.split('#')[0].split()
        if line:
            exp.add((line[0], line[1]))  # (level, kernel)
    return exp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--target', action='append')
    ap.add_argument('--case', action='append')
    ap.add_argument('--level', action='append')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    expected = load_expected()
    xfail = load_xfail()
    sources = dict(kbuild.kernel_sources())
    cases = [c for c in ref.all_cases() if not args.case or c.name in args.case]
    failures, passes, rejected = [], 0, 0
    compiled = set()
    with tempfile.TemporaryDirectory() as tmp:
        for level in args.level or LEVELS:
            ptx = {}
            for k in sorted({c.kernel for c in cases}):
                ptx[k] = to_ptx(sources[k], level, tmp)
            for target in args.target or TARGETS:
                for case in cases:
                    tag = '%-3s %-8s %-16s' % (level, target, case.name)
                    if ptx[case.kernel] is None:
                        print('SKIP  %s clang-19 cannot make PTX of it' % tag)
                        continue
                    hsaco = os.path.join(tmp, '%s.%s.%s.hsaco' % (case.kernel, level, target))
                    if not os.path.exists(hsaco):
                        r = subprocess.run([args.ptxas_amd, '--gpu-name', target, '--verify',
                                            ptx[case.kernel], '-o', hsaco],
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           text=True, timeout=120)
                        if r.returncode != 0:
                            msg = DIAG.search(r.stdout)
                            if r.returncode != 1 or not msg:
                                failures.append(tag)
                                print('FAIL  %s ptxas-amd exit %d without a located error:\n%s'
                                      % (tag, r.returncode, r.stdout[-2000:]))
                            elif (level, case.kernel) in expected:
                                failures.append(tag)
                                print('FAIL  %s expected to compile: %s' % (tag, msg.group(0)))
                            else:
                                rejected += 1
                                print('REJ   %s %s' % (tag, msg.group(0).split(': error: ')[1]))
                            open(hsaco + '.rejected', 'w').close()
                            continue
                    elif os.path.exists(hsaco + '.rejected'):
                        continue
                    compiled.add((level, case.kernel))
                    kern, margs = krun.read_metadata(hsaco)
                    kern['_arg_sizes'] = [int(a.get('size', 0)) for a in margs
                                          if not a.get('value_kind', '').startswith('hidden_')]
                    ok, msg, secs = krun.run_case(case, hsaco, [os.path.abspath(args.amdsim)],
                                                  tmp, kern, args.verbose)
                    if ok:
                        passes += 1
                        print('PASS  %s %6.2fs' % (tag, secs))
                        if (level, case.kernel) in xfail:
                            print('NOTE  %s passes: remove it from cl_xfail.txt' % tag)
                    elif (level, case.kernel) in xfail:
                        print('XFAIL %s (cl_xfail.txt)' % tag)
                    else:
                        failures.append(tag)
                        print('FAIL  %s\n    %s' % (tag, msg.replace('\n', '\n    ')))
                    sys.stdout.flush()
    for lv, k in sorted(compiled - expected):
        print('NOTE  %s %s compiles now: add it to cl_expected.txt' % (lv, k))
    print('exec-cl: %d passed, %d failed, %d rejected by name' % (passes, len(failures), rejected))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
