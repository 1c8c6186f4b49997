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

usage: run_cl.py --ptxas-amd PATH --amdsim PATH [--target T]... [--case NAME]...
                 [--ptxas-flag=FLAG]... [-v]
(--ptxas-flag passes FLAG to every ptxas-amd run, e.g. --ptxas-flag=--maxrregcount=12 so
the allocator spills VGPRs.)
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


XFAIL_ELEMS = re.compile(r'^(\w+)\[(\d+)::(\d+)\]$')


def load_xfail():
    """cl_xfail.txt: {(level, kernel): elements} for kernels whose clang-19 PTX itself computes
    something else than the OpenCL source under the PTX ISA's rules.  elements: the outputs
    that may differ, (label, first, step) for label[first::step] (compared are all others,
    with the case's expected_ints); empty: every result of the kernel may differ."""
    out = {}
    for line in open(os.path.join(HERE, 'cl_xfail.txt')):
        words = line.split('#')[0].split()
        if len(words) >= 2:
            elems = [XFAIL_ELEMS.match(w) for w in words[2:]]
            if not all(elems):
                sys.exit('cl_xfail.txt: %r: elements are written LABEL[FIRST::STEP]' % line)
            out[(words[0], words[1])] = [(m.group(1), int(m.group(2)), int(m.group(3)))
                                         for m in elems]
    return out


def narrowed(case, elems, state):
    """A copy of case whose check leaves out the elements cl_xfail.txt lists and compares every
    other one with case.expected_ints ({label: (out index, format, values)}).  state['exact']
    tells afterwards whether the listed elements matched too (then the entry is stale)."""
    import copy
    full = case.check

    def check(outs, wave):
        state['exact'] = not full(outs, wave)
        if state['exact']:
            return []
        errs = []
        for label, (k, fmt, exp) in case.expected_ints.items():
            skip = {i for lb, first, step in elems if lb == label
                    for i in range(first, len(exp), step)}
            got = ref.unpack(fmt, outs[k])
            bad = [i for i in range(len(exp)) if i not in skip and got[i] != exp[i]]
            errs += ['%s[%d] = %r, expected %r' % (label, i, got[i], exp[i]) for i in bad[:5]]
        return errs
    c = copy.copy(case)
    c.check = check
    return c


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
    ap.add_argument('--ptxas-flag', action='append', default=[])
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
                        r = subprocess.run([args.ptxas_amd, '--gpu-name', target, '--verify']
                                           + args.ptxas_flag + [ptx[case.kernel], '-o', hsaco],
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
                    elems = xfail.get((level, case.kernel))
                    state = {'exact': True}
                    ok, msg, secs = krun.run_case(narrowed(case, elems, state) if elems else case,
                                                  hsaco, [os.path.abspath(args.amdsim)],
                                                  tmp, kern, args.verbose)
                    if ok and not state['exact']:
                        passes += 1
                        print('XFAIL %s %6.2fs: all other elements match; %s differ '
                              '(cl_xfail.txt)' % (tag, secs, ' '.join(
                                  '%s[%d::%d]' % e for e in elems)))
                    elif ok:
                        passes += 1
                        print('PASS  %s %6.2fs' % (tag, secs))
                        if (level, case.kernel) in xfail:
                            print('NOTE  %s passes: remove it from cl_xfail.txt' % tag)
                    elif (level, case.kernel) in xfail and elems is not None and not elems:
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
