#!/usr/bin/env python3
"""Execution tests of PTX kernels written for ptxas-amd (tests/exec/ptx/KERNEL.ptx, cases and
CPU references in ptx_cases.py): each is compiled by ptxas-amd for every target, run in amdsim
in strict mode, and its outputs compared with the references.  Every case must compile and
pass on every target.

usage: run_ptx.py --ptxas-amd PATH --amdsim PATH [--target T]... [--case NAME]... [-v]
"""

import argparse
import os
import re
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
# Other wave and warp sizes, only for cases that set `warp_level = True` (their results
# depend on the warp size): the wave64 dialect (warp = wave64, --warp-size 64) on gfx9 and on
# RDNA compiled for wave64, and RDNA wave64 with the default 32-lane warps.
WARP_VARIANTS = ('gfx1030 --wavefront-size 64 --warp-size 64',
                 'gfx1100 --wavefront-size 64 --warp-size 64',
                 'gfx1200 --wavefront-size 64 --warp-size 64', 'gfx90a --warp-size 64',
                 'gfx942 --warp-size 64', 'gfx1100 --wavefront-size 64')


def warp_size(words):
    """The warp size PTX sees for a target with options: 32 unless --warp-size says."""
    return int(words[words.index('--warp-size') + 1]) if '--warp-size' in words else 32


def wave_size(words):
    """The wave size of the code for a target with options."""
    if '--wavefront-size' in words:
        return int(words[words.index('--wavefront-size') + 1])
    return 64 if words[0] in ('gfx90a', 'gfx942') else 32


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--target', action='append')
    ap.add_argument('--case', action='append')
    ap.add_argument('--no-warp-variants', action='store_true',
                    help='only the five targets as they are (sanitizer builds)')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    cases = [c for c in ptx_cases.all_cases() if not args.case or c.name in args.case]
    failures, passes = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        variants = () if args.no_warp_variants else WARP_VARIANTS
        for target in args.target or TARGETS + variants:
            words = target.split()
            for case in cases:
                if len(words) > 1 and not getattr(case, 'warp_level', False):
                    continue
                if getattr(case, 'warp32_only', False) and warp_size(words) != 32:
                    continue  # written for 32-lane warps: see tests/exec/diag for wave64
                if getattr(case, 'warp_per_wave', False) and warp_size(words) < wave_size(words):
                    continue  # its warps spin on each other: not as halves of a wave64
                tag = '%-8s %-16s' % (target, case.name)
                src = os.path.join(HERE, 'ptx', case.kernel + '.ptx')
                hsaco = os.path.join(tmp, '%s.%s.hsaco' % (case.kernel, '_'.join(words)))
                # per-case options (e.g. a register budget), and -v to see spills
                extra = list(getattr(case, 'ptxas_flags', []))
                must_spill = getattr(case, 'must_spill', False)
                must_call = getattr(case, 'must_real_call', False)  # -v names real calls
                must_say = getattr(case, 'must_say', None)  # ... with this text
                must_inline = getattr(case, 'must_inline', False)  # ... and names none
                must_not_say = getattr(case, 'must_not_say', None)  # -v never says this
                hsaco = hsaco[:-6] + '.%s.hsaco' % case.name if extra else hsaco
                r = subprocess.run([args.ptxas_amd, '--gpu-name'] + words + extra +
                                   ['-v'] * (must_spill or must_call or must_inline or
                                             bool(must_not_say)) +
                                   ['--verify', src, '-o', hsaco],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, timeout=120)
                if r.returncode != 0:
                    failures.append(tag)
                    print('FAIL  %s ptxas-amd: %s' % (tag, r.stdout[-1500:]))
                    continue
                spill = re.search(r'(\d+) bytes spill stores', r.stdout)
                if must_spill and not (spill and int(spill.group(1)) > 0):
                    failures.append(tag)
                    print('FAIL  %s: expected VGPR spill stores, -v says: %s'
                          % (tag, r.stdout[-600:]))
                    continue
                if must_call and ('compiled as a real call' not in r.stdout or
                                  (must_say and must_say not in r.stdout)):
                    failures.append(tag)
                    print('FAIL  %s: expected a real call, -v says: %s' % (tag, r.stdout[-600:]))
                    continue
                if must_not_say and must_not_say in r.stdout:
                    failures.append(tag)
                    print('FAIL  %s: -v says %r: %s' % (tag, must_not_say, r.stdout[-600:]))
                    continue
                if must_inline and 'compiled as a real call' in r.stdout:
                    failures.append(tag)
                    print('FAIL  %s: expected no real call, -v says: %s' % (tag, r.stdout[-600:]))
                    continue
                kern, _ = krun.read_metadata(hsaco)
                # the references model the warps the PTX sees
                kern = dict(kern, wavefront_size=str(warp_size(words)))
                for seed in (0, 1):
                    ok, msg, secs = krun.run_case(case, hsaco, [os.path.abspath(args.amdsim)],
                                                  tmp, kern, args.verbose, seed)
                    if not ok:
                        break
                if ok:
                    passes += 1
                    print('PASS  %s %6.2fs' % (tag, secs))
                else:
                    failures.append(tag)
                    print('FAIL  %s\n    %s' % (tag, msg.replace('\n', '\n    ')))
                sys.stdout.flush()
    print('exec-ptx: %d passed, %d failed' % (passes, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
