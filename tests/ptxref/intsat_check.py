#!/usr/bin/env python3
"""The interpreter's integer saturation, set, 16x2, xorsign, cvt.pack and video forms
(intsatops.py) against tests/exec/cases/cases_intsat.py's references, which an H100 confirmed
(docs/SEMANTICS.md): tests/exec/ptx/intsat.ptx runs as one CTA of all its 2,304 threads and
every output word must equal the reference.

usage: intsat_check.py
"""
import collections
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'exec', 'cases'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'kernels'))
import interp  # noqa: E402
import cases_intsat as R  # noqa: E402


def main():
    n = 2304
    a, b, c = R.operands(R.random.Random('intsat'), n)
    ck = interp.compile_ptx(open(os.path.join(ROOT, 'tests/exec/ptx/intsat.ptx')).read())
    bufs = [bytearray(b'\xef\xbe\xad\xde' * (R.NOUT * n))] + \
        [bytearray(struct.pack('<%dI' % n, *v)) for v in (a, b, c)]
    interp.run(ck, n, bufs, [n], max_steps=50000000)
    got = struct.unpack('<%dI' % (R.NOUT * n), bytes(bufs[0]))
    bad = collections.Counter()
    for i in range(n):
        for w, e in enumerate(R.results(a[i], b[i], c[i], n)):
            g = got[i * R.NOUT + w]
            if g != e:
                bad[w] += 1
                if bad[w] <= 2:
                    print('word %d thread %d: interpreter %#x, reference %#x' % (w, i, g, e))
    print('intsat: %d threads x %d words, %d mismatches' % (n, R.NOUT, sum(bad.values())))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
