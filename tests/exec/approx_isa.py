#!/usr/bin/env python3
"""Judges approximate float results against the exact value with the error bound the PTX ISA
states (tests/hw/isa_bounds.py), on the ../shared/ptx-hw kernels: ours (ptxas-amd + amdsim,
each instruction on our own operands) and NVIDIA's (on its operands, which checks the bounds).
Usage: approx_isa.py --ptxas-amd P --amdsim S [--target gfx1100] [--hw ../shared/ptx-hw]
       [--cat approx] [--limit N] [--examples 3]
A development tool (needs the hardware data), not a meson test."""

import argparse
import collections
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'hw'))
import isa_bounds  # noqa: E402


def imm_bits(s, w):
    """An immediate operand of the generated PTX as a bit pattern."""
    s = str(s)
    if s[:2] in ('0f', '0F', '0d', '0D'):
        return int(s[2:], 16)
    v = float(s)
    return isa_bounds.struct.unpack('<Q' if w == 64 else '<I',
                                    isa_bounds.struct.pack('<d' if w == 64 else '<f', v))[0]


def values(C, arr, t, k, inp, byw, slot, w):
    vals = C.operand_values(arr, t, k['out_words'], k['in_words'], inp, byw, slot['srcs'])
    return [imm_bits(v, w) if isinstance(v, str) else v for v in vals]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--target', default='gfx1100')
    ap.add_argument('--hw', default=os.path.join(HERE, '..', '..', '..', 'shared', 'ptx-hw'))
    ap.add_argument('--cat', default='approx')
    ap.add_argument('--limit', type=int, default=0)
    ap.add_argument('--examples', type=int, default=3)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.hw, 'tools'))
    import compare as C
    d = os.path.join(a.hw, 'random')
    man, slots, inputs = C.load_set(d)
    nv = C.load_nv(os.path.join(d, 'nv'))
    tot, ours_bad, nv_bad = collections.Counter(), collections.Counter(), collections.Counter()
    ex = collections.defaultdict(list)
    ks = [k for k in man['kernels'] if a.cat in k.get('cats', [k['cat']])]
    if a.limit:
        ks = ks[:a.limit]
    with tempfile.TemporaryDirectory() as work:
        for k in ks:
            i = k['index']
            st, nvarr = nv.get(i, (None, None))
            oc, _, us = C.run_one(d, k, inputs[i], a.target, a.ptxas_amd, a.amdsim, work, 60)
            if oc != 'ok' or nvarr is None:
                continue
            sl = slots[i]
            byw = {s['w']: s for s in sl}
            for s in sl:
                op = s['op']
                bop, _ = isa_bounds.base_op(op)
                if bop not in isa_bounds.BOUNDS or op.endswith('f16x2'):
                    continue
                w = int(bop.split('.')[-1][1:])
                for t in range(k['threads']):
                    rn, _ = C.slot_value(nvarr, t, k['out_words'], s)
                    ru, _ = C.slot_value(us, t, k['out_words'], s)
                    if rn == C.SENTINEL or ru == C.SENTINEL:
                        continue
                    on = values(C, nvarr, t, k, inputs[i], byw, s, w)
                    ou = values(C, us, t, k, inputs[i], byw, s, w)
                    if None in on or None in ou:
                        continue
                    if w == 16:
                        rn, ru = rn & 0xffff, ru & 0xffff
                    tot[op] += 1
                    okn, _ = isa_bounds.check(op, on, rn)
                    oku, why = isa_bounds.check(op, ou, ru)
                    nv_bad[op] += not okn
                    if not oku:
                        ours_bad[op] += 1
                        if len(ex[op]) < a.examples:
                            ex[op].append('%s t%d: %s -> ours %#x (%s); NVIDIA %#x on %s'
                                          % (k['file'], t, ' '.join('%#x' % v for v in ou), ru,
                                             why, rn, ' '.join('%#x' % v for v in on)))
    print('| op | lanes | ours outside the ISA bound | NVIDIA outside |')
    print('|---|---|---|---|')
    for op in sorted(tot):
        print('| %s | %d | %d | %d |' % (op, tot[op], ours_bad[op], nv_bad[op]))
    for op in sorted(ex):
        print('\n%s:' % op)
        for e in ex[op]:
            print('  ' + e)
    return 0


if __name__ == '__main__':
    sys.exit(main())
