#!/usr/bin/env python3
"""Checks the bf16 reference of cases/cases_bf16.py against what an NVIDIA H100 computed for
the random kernels of ../shared/ptx-hw (every written slot of a bf16 form whose operands are
known: input words, their 16-bit halves, earlier slots).  Run by hand (needs numpy):
    /usr/bin/python3 tests/exec/bf16_verify.py [PTX_HW_DIR/random]
Prints per form the samples compared and the mismatches (docs/SEMANTICS.md)."""

import glob
import gzip
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, 'cases'), os.path.join(HERE, '..', 'kernels')]
import cases_bf16 as R  # noqa: E402

SENTINEL = 0xdeadbeef


def expected(op, ops):
    x2, relu = 'bf16x2' in op, '.relu' in op

    def lanes(f, n):
        lo = f(*[o & 0xffff for o in ops[:n]])
        return (f(*[o >> 16 for o in ops[:n]]) << 16 | lo) if x2 else lo
    if op.startswith('cvt.rn') and x2:
        return R.cvt_f32(ops[0], relu) << 16 | R.cvt_f32(ops[1], relu)
    if op.startswith('cvt.rn'):
        return R.cvt_f32(ops[0], relu)
    if op.startswith('fma'):
        return lanes(lambda a, b, c: R.fma(a, b, c, relu), 3)
    if op.startswith('neg'):
        return lanes(R.neg, 1)
    if op.startswith('abs'):
        return lanes(R.fabs, 1)
    if op.startswith(('min', 'max')):
        return lanes(lambda a, b: R.minmax(a, b, op.startswith('max'), '.NaN' in op), 2)
    return None


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', '..', '..', 'shared',
                                                           'ptx-hw', 'random')
    slots = json.load(gzip.open(os.path.join(d, 'slots.json.gz')))
    kernels = json.load(open(os.path.join(d, 'manifest.json')))['kernels']
    inputs = np.load(os.path.join(d, 'inputs.npy'), mmap_mode='r')
    res = {}
    for f in sorted(glob.glob(os.path.join(d, 'nv.part*.npz'))):
        p = np.load(f)
        data, off = p['data'], p['off']
        for j, i in enumerate(p['idx']):
            res[int(i)] = (data, int(off[j]), int(off[j + 1]))
    pat = re.compile(r'.*bf16.*')
    n, bad = {}, {}
    for ki, ks in enumerate(slots):
        mine = [s for s in ks if pat.fullmatch(s['op'])]
        if not mine or ki not in res:
            continue
        m = kernels[ki]
        T, iw, ow = m['threads'], m['in_words'], m['out_words']
        data, a0, a1 = res[ki]
        out = data[a0:a1].reshape(T, ow)
        ins = np.asarray(inputs[ki][:T * iw]).reshape(T, iw)
        for s in mine:
            for t in range(T):
                ops, known = [], True
                for src in s['srcs']:
                    if src[0] == 'in':
                        ops.append(int(ins[t][src[1]]))
                    elif src[0] == 'inh':
                        ops.append(int(ins[t][src[1]]) >> (16 * src[2]) & 0xffff)
                    elif src[0] == 'slot':
                        ops.append(int(out[t][src[1]]))
                    else:
                        known = False
                got = int(out[t][s['w']])
                exp = expected(s['op'], ops) if known else None
                if exp is None or got == SENTINEL:
                    continue
                if 'x2' not in s['op']:
                    got &= 0xffff
                n[s['op']] = n.get(s['op'], 0) + 1
                if got != exp:
                    bad.setdefault(s['op'], []).append('%s %s -> %#x, reference %#x' % (
                        s['op'], ' '.join('%#x' % o for o in ops), got, exp))
    for op in sorted(n):
        print('%-26s %6d samples, %d mismatches %s' % (op, n[op], len(bad.get(op, [])),
                                                       '; '.join(bad.get(op, [])[:3])))
    print('total %d samples, %d mismatches' % (sum(n.values()), sum(map(len, bad.values()))))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
