#!/usr/bin/env python3
"""ir_uniformity's temporal divergence, read from `ptxas-amd --dump-ir` on two kernels of the
control-flow zoo (tests/exec/ptx, whose results exec-ptx checks against a per-thread
interpreter):
  cfg_uexit_liveout   a counting loop with divergent ifs inside that rejoin within the
                      iteration: every lane leaves in the same iteration, so the counter read
                      after the loop is uniform and no branch outside the loop is divergent;
  cfg_exit_in_region  the loop is also left through a uniform branch only one side of a
                      divergent branch reaches: lanes leave in different iterations, so the
                      branch on the counter after the loop is divergent.
usage: uniformity_exits.py PTXAS_AMD PTX_DIR"""
import os
import subprocess
import sys


def blocks_outside_loops(ptxas, ptx, target):
    """[(block header line, divergent branch?)] of the blocks in no loop, per kernel dump."""
    out = subprocess.run([ptxas, '--gpu-name', target, '--dump-ir', ptx, '-o', os.devnull],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         check=True).stdout
    heads = [line for line in out.splitlines() if line.startswith('bb')]
    return [(h, '; branch divergent' in h) for h in heads if '; loop' not in h]


def main():
    ptxas, ptx_dir = sys.argv[1], sys.argv[2]
    bad = []
    for target in ('gfx90a', 'gfx1100'):
        uni = blocks_outside_loops(ptxas, os.path.join(ptx_dir, 'cfg_uexit_liveout.ptx'), target)
        bad += ['%s cfg_uexit_liveout: divergent branch after the loop: %s' % (target, h)
                for h, div in uni if div]
        div = blocks_outside_loops(ptxas, os.path.join(ptx_dir, 'cfg_exit_in_region.ptx'),
                                   target)
        if not any(d for _, d in div):
            bad.append('%s cfg_exit_in_region: the counter after the loop is uniform' % target)
    for line in bad:
        print('FAIL', line)
    print('uniformity-exits: %s' % ('FAIL' if bad else 'ok'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
