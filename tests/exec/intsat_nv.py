#!/usr/bin/python3
"""Runs tests/exec/ptx/intsat.ptx on an NVIDIA GPU (CuPy, the driver's PTX JIT) with the inputs
of cases/cases_intsat.py and judges the hardware's words with the same references, so the
hardware checks the references (the forms of intsat.ptx that ../shared/ptx-hw does not hold).

usage: python3 tests/exec/intsat_nv.py [OUT_DIR]   (on a machine with an NVIDIA GPU and CuPy)

Prints the mismatches per word (form) and writes the raw output words to OUT_DIR/intsat_nv.npy
when given.  A manual tool: the figures it printed are quoted in docs/SEMANTICS.md.
"""
import collections
import os
import sys

import cupy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'cases'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
import cases_intsat as R  # noqa: E402


def main():
    rng = R.random.Random('intsat')
    n, block = 2304, 128
    a, b, c = R.operands(rng, n)
    mod = cupy.RawModule(path=os.path.join(HERE, 'ptx', 'intsat.ptx'))
    k = mod.get_function('intsat')
    out = cupy.full(R.NOUT * n, 0xdeadbeef, dtype=cupy.uint32)
    ins = [cupy.asarray(np.array(v, dtype=np.uint32)) for v in (a, b, c)]
    k((n // block,), (block,), (out, ins[0], ins[1], ins[2], np.uint32(n)))
    got = cupy.asnumpy(out)
    if len(sys.argv) > 1:
        np.save(os.path.join(sys.argv[1], 'intsat_nv.npy'), got)
        np.save(os.path.join(sys.argv[1], 'intsat_in.npy'), np.array([a, b, c], dtype=np.uint32))
    bad = collections.Counter()
    shown = collections.Counter()
    for i in range(n):
        exp = R.results(a[i], b[i], c[i], n)
        for w, e in enumerate(exp):
            g = int(got[i * R.NOUT + w])
            if w in R.H16_WORDS:  # the 16-bit value (docs/SEMANTICS.md, set)
                g &= 0xffff
            if g != e:
                bad[w] += 1
                if shown[w] < 4:
                    shown[w] += 1
                    print('word %d thread %d: hw %#x, reference %#x (a=%#x b=%#x c=%#x)' %
                          (w, i, g, e, a[i], b[i], c[i]))
    print('words with mismatches: %s' % sorted(bad.items()))
    print('total: %d threads x %d words, %d mismatches' % (n, R.NOUT, sum(bad.values())))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
