#!/usr/bin/env python3
"""`ptxas-amd -c` writes relocatable objects that LLVM's linker accepts: for the given PTX
cases (default: the module-variable and .local ones, whose code and data carry relocations)
and every target, the object of `ptxas-amd -c` linked by `ld.lld-19 -shared` must run in
amdsim (strict) to the case's CPU reference; so must the same object linked by ROCm comgr
(`ptxas-amd K.o`) on the targets Debian's comgr knows.  The oracles: ld.lld-19 and comgr
resolve the R_AMDGPU_REL32_LO/HI, REL64 and ABS64 relocations, the references are the
cases'.

usage: link_lld.py --ptxas-amd PATH --amdsim PATH [--case NAME]... [--target T]...
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
sys.path.insert(0, HERE)
import ptx_cases  # noqa: E402
import run as krun  # noqa: E402

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
LLD = os.environ.get('LD_LLD', 'ld.lld-19')
DEFAULT_CASES = ('memspace_global', 'memspace_local', 'memspace_generic', 'memspace_depot')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--target', action='append')
    ap.add_argument('--case', action='append')
    args = ap.parse_args()
    names = args.case or DEFAULT_CASES
    cases = [c for c in ptx_cases.all_cases() if c.name in names]
    if len(cases) != len(names):
        print('link-lld: unknown case in %s' % ', '.join(names))
        return 1
    fails, passes = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.target or TARGETS:
            for case in cases:
                tag = '%-8s %-16s' % (target, case.name)
                src = os.path.join(HERE, 'ptx', case.kernel + '.ptx')
                obj = os.path.join(tmp, 'k.o')
                exe = os.path.join(tmp, 'k.hsaco')
                r = subprocess.run([args.ptxas_amd, '--gpu-name', target, '-c', src, '-o', obj],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if r.returncode == 0:
                    r = subprocess.run([LLD, '-shared', obj, '-o', exe], stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True)
                if r.returncode != 0 or r.stdout.strip():
                    print('FAIL  %s: %s' % (tag, r.stdout[-1500:]))
                    fails += 1
                    continue
                for linker in ('ld.lld', 'comgr'):
                    if linker == 'comgr':
                        r = subprocess.run([args.ptxas_amd, obj, '-o', exe],
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           text=True)
                        if 'comgr does not support' in r.stdout:
                            continue
                        if r.returncode != 0:
                            print('FAIL  %s comgr: %s' % (tag, r.stdout[-1500:]))
                            fails += 1
                            continue
                    kern, _ = krun.read_metadata(exe)
                    ok, msg, _ = krun.run_case(case, exe, [os.path.abspath(args.amdsim)], tmp,
                                               kern, False, 0)
                    if ok:
                        passes += 1
                        print('PASS  %s %s' % (tag, linker))
                    else:
                        fails += 1
                        print('FAIL  %s %s\n    %s' % (tag, linker, msg.replace('\n', '\n    ')))
    print('link-lld: %d passed, %d failed' % (passes, fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
