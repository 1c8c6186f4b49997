#!/usr/bin/env python3
"""The known limit of counted barriers (docs/BARRIERS.md): lanes of one wave cannot wait for
lanes of the same wave on another path.  nbar_warps.ptx is correct PTX that runs on every
target where a warp is a wave (cases_nbar.py); with --warp-size 32 on wave64 code its two
warps share a wave, and the first path spins waiting for the second.  amdsim must report the
deadlock (exit 1, `deadlock: waves spin at s_sleep`), never hang.

usage: nbar_limits.py PTXAS_AMD AMDSIM
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ('gfx90a --warp-size 32', 'gfx1100 --wavefront-size 64 --warp-size 32')


def main():
    ptxas, amdsim = sys.argv[1], sys.argv[2]
    src = os.path.join(HERE, 'ptx', 'nbar_warps.ptx')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, 'in.bin')
        with open(data, 'wb') as f:
            f.write(bytes(range(256)) * 4)
        for v in VARIANTS:
            hsaco = os.path.join(tmp, v.replace(' ', '_') + '.hsaco')
            r = subprocess.run([ptxas, '--gpu-name'] + v.split() + [src, '-o', hsaco],
                               capture_output=True, text=True)
            ok = r.returncode == 0
            if ok:
                r = subprocess.run([amdsim, hsaco, '--kernel', 'nbar_warps', '--grid', '1',
                                    '--block', '256', 'in:' + data,
                                    'out:1024:' + os.path.join(tmp, 'out.bin')],
                                   capture_output=True, text=True, timeout=60)
                ok = r.returncode == 1 and 'deadlock: waves spin at s_sleep' in r.stderr
            print('%s  %s: exit %d %s' % ('PASS' if ok else 'FAIL', v, r.returncode,
                                         r.stderr.strip()[:300]))
            failures += not ok
    return 1 if failures else 0


sys.exit(main())
