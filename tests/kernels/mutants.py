#!/usr/bin/env python3
"""Negative tests of amdsim's strict checker: clang-19 kernels with one wait removed.

Each mutant takes a kernel of the suite, finds one instruction in clang's code (an s_waitcnt
that protects the next use of a loaded register, or an s_nop that provides hazard wait states),
overwrites it in the code object with `s_nop 0` (0xbf800000 on every target here) and runs the
case's launch in amdsim. The checker must report a violation: exit status non-zero and the word
"violation" in its output. The unmutated kernels pass in run.py, so a mutant that "passes" means
the checker missed a real missing wait. Entries `TARGET mutant:NAME  # reason` in
known_failures.txt mark checker gaps (XFAIL).

usage: mutants.py --amdsim PATH [-v]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
import kbuild  # noqa: E402
import ref  # noqa: E402
import run  # noqa: E402

OBJDUMP = os.environ.get('OBJDUMP', 'llvm-objdump-19')
S_NOP_0 = 0xbf800000

# (name, kernel, targets, instruction to replace (regex), only after an instruction matching
# this regex (or None), what the wait protected)
MUTANTS = [
    ('vadd-vmcnt', 'vadd_f32', kbuild.SIM_TARGETS,
     r'(s_waitcnt vmcnt\(0\)|s_wait_loadcnt 0x0)$', r'global_load',
     'global loads before the add'),
    ('vadd-lgkmcnt', 'vadd_f32', kbuild.SIM_TARGETS,
     r'(s_waitcnt lgkmcnt\(0\)|s_wait_kmcnt 0x0)$', None,
     'kernel argument s_load before first use'),
    ('reduce-lds', 'reduce_lds', kbuild.SIM_TARGETS,
     r'(s_waitcnt lgkmcnt\([01]\)|s_wait_dscnt 0x[01])$', r'ds_(read|load)',
     'LDS read before the add'),
    ('scratch-load', 'scratch', kbuild.SIM_TARGETS,
     r'(s_waitcnt vmcnt\(0\)|s_wait_loadcnt 0x0)$', r'(buffer|scratch)_load',
     'scratch load before use'),
    ('atomic-return', 'atomics_global', kbuild.SIM_TARGETS,
     r'(s_waitcnt vmcnt\(0\)|s_wait_loadcnt 0x0)$', r'global_atomic_(cmpswap|cmpst)',
     'returned value of a compare-and-swap'),
    ('dpp-hazard', 'wave_reduce', ('gfx90a', 'gfx942'), r's_nop 1$', r'_dpp',
     'VALU write -> DPP read wait states'),
    ('vcc-hazard', 'fdiv_f64', ('gfx942',), r's_nop 1$', r'v_cmp_gt_f64',
     'gfx940 VALU writes VCC -> VALU reads it'),
    ('trans-use', 'div_i32', ('gfx1100',), r's_waitcnt_depctr 0xfff$', r'v_rcp_iflag_f32',
     'gfx11 VALU use of a transcendental result'),
]


def text_section(hsaco):
    """(virtual address, file offset) of .text."""
    out = subprocess.run([run.READELF, '-S', '--wide', hsaco], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        f = line.replace('[', ' ').replace(']', ' ').split()
        if '.text' in f:
            i = f.index('.text')
            return int(f[i + 2], 16), int(f[i + 3], 16)
    raise RuntimeError('no .text in ' + hsaco)


def find_site(hsaco, pattern, after):
    """Address and text of the first instruction matching pattern (after one matching after)."""
    out = subprocess.run([OBJDUMP, '-d', hsaco], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    armed = after is None
    for line in out.splitlines():
        if not line.startswith('\t'):
            continue
        text, _, comment = line.strip().rpartition('//')
        text = text.strip()
        if armed and re.search(pattern, text):
            return int(comment.split(':')[0], 16), text
        if not armed and re.search(after, text):
            armed = True
    return None, None


def mutate(hsaco, out_path, addr):
    vaddr, off = text_section(hsaco)
    data = bytearray(open(hsaco, 'rb').read())
    pos = off + addr - vaddr
    data[pos:pos + 4] = S_NOP_0.to_bytes(4, 'little')
    with open(out_path, 'wb') as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    amdsim = [os.path.abspath(args.amdsim)]
    cases = {c.name: c for c in ref.all_cases()}
    sources = dict(kbuild.kernel_sources())
    known = run.load_known_failures()
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        jobs = sorted({(sources[m[1]], t) for m in MUTANTS for t in m[2]})
        built = kbuild.compile_all(jobs, tmp)
        for name, kernel, targets, pattern, after, why in MUTANTS:
            for target in targets:
                total += 1
                hsaco = built[(sources[kernel], target)]
                addr, text = find_site(hsaco, pattern, after)
                label = '%-8s %-14s' % (target, name)
                if addr is None:
                    print('FAIL  %s no `%s` in clang\'s code any more' % (label, pattern))
                    failed += 1
                    continue
                mutant = os.path.join(tmp, '%s-%s-mutant.hsaco' % (name, target))
                mutate(hsaco, mutant, addr)
                kern, _ = run.read_metadata(hsaco)
                ok, msg, _ = run.run_case(cases[kernel], mutant, amdsim, tmp, kern,
                                          args.verbose)
                caught = not ok and 'violation' in msg.lower()
                reason = known.get((target, 'mutant:' + name))
                status = 'PASS' if caught else 'XFAIL' if reason else 'FAIL'
                if caught and reason:
                    status = 'XPASS'
                print('%-5s %s `%s` at 0x%x (%s) %s' %
                      (status, label, text, addr, why, 'reported' if caught else 'NOT reported'))
                if status == 'XPASS':
                    print('    now reported: remove it from known_failures.txt')
                elif status == 'XFAIL':
                    print('    known: ' + reason)
                elif not caught:
                    failed += 1
                    print('    ' + msg.replace('\n', '\n    ')[:2000])
    print('mutants: %d of %d missing waits reported or known to be missed' %
          (total - failed, total))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
