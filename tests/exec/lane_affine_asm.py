#!/usr/bin/env python3
"""ldmatrix row addresses computed in the reading lane (src/ir/lane_affine.c): on every
target, tests/exec/ptx/ldsm_affine.ptx (.reqntid 64, 1, 1; addresses from %tid.x and
%laneid) compiles to code without ds_bpermute, and the same kernel without .reqntid (a block
that may be two-dimensional: %tid.x is no function of the lane then) keeps them.  Its results
are checked by the exec case ldsm_affine (tests/exec/cases/cases_lane_affine.py)."""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')


def bpermutes(ptxas, target, src, tmp):
    out = os.path.join(tmp, target + '.s')
    subprocess.run([ptxas, '-S', '--gpu-name', target, src, '-o', out], check=True)
    with open(out) as f:
        return sum('ds_bpermute' in line for line in f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    args = ap.parse_args()
    src = os.path.join(HERE, 'ptx', 'ldsm_affine.ptx')
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, 'ldsm_any_block.ptx')
        with open(src) as f, open(plain, 'w') as g:
            g.write(f.read().replace('.reqntid 64, 1, 1', ''))
        for t in TARGETS:
            n, m = bpermutes(args.ptxas_amd, t, src, tmp), bpermutes(args.ptxas_amd, t, plain, tmp)
            ok = n == 0 and m > 0
            fails += not ok
            print('%s %s: %d ds_bpermute (1-D block), %d without .reqntid'
                  % ('PASS' if ok else 'FAIL', t, n, m))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
