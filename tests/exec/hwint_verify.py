#!/usr/bin/python3
"""Checks tests/exec/cases/hwint_ref.py (the integer rules NVIDIA hardware follows where the PTX
ISA's pseudo-code says otherwise) against every result an H100 computed for the random kernels
of ptx-hw (../shared/ptx-hw/random: slots.json.gz names each output slot's instruction and
where its operands came from, inputs.npy and nv.part0.npz hold the values).

usage: /usr/bin/python3 tests/exec/hwint_verify.py [PTX_HW_DIR]   (needs numpy)

Instructions checked: bfe, bfi, fns, div and rem (every width, by zero included) and the carry
chains (add.cc/addc/sub.cc/subc/mad.cc/madc: the flag is followed from instruction to
instruction in each thread, in program order).  Prints the samples and mismatches per form;
exits 1 on any mismatch.  A manual tool (the data is not part of the repository): the figures
it prints are quoted in docs/SEMANTICS.md.
"""
import collections
import gzip
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'cases'))
import hwint_ref as R  # noqa: E402

SENTINEL = 0xdeadbeef


def load(d):
    with open(os.path.join(d, 'manifest.json')) as f:
        man = json.load(f)
    with gzip.open(os.path.join(d, 'slots.json.gz'), 'rt') as f:
        slots = json.load(f)
    inputs = np.load(os.path.join(d, 'inputs.npy'))
    z = np.load(os.path.join(d, 'nv.part0.npz'))
    nv = {}
    data, off, status = z['data'], z['off'], z['status']  # each z[...] reads the file again
    for j, i in enumerate(z['idx']):
        if str(status[j]) == 'ok':
            nv[int(i)] = data[off[j]:off[j + 1]]
    return man, slots, inputs, nv


def slot_value(arr, t, m, s):
    """The hardware's result of slot s in thread t; None where it kept the sentinel."""
    w = t * m + s['w']
    v = int(arr[w]) | (int(arr[w + 1]) << 32 if s['n'] == 2 else 0)
    if int(arr[w]) == SENTINEL:
        return None
    return v & 0xffff if s['t'] == 'b16' else v


def operands(arr, t, m, k_in, inp, by_w, srcs):
    vals = []
    for s in srcs:
        if s[0] == 'in':
            w = t * k_in + s[1]
            vals.append(int(inp[w]) | (int(inp[w + 1]) << 32 if s[2] == 2 else 0))
        elif s[0] == 'inh':
            vals.append((int(inp[t * k_in + s[1]]) >> (16 * s[2])) & 0xffff)
        elif s[0] == 'slot' and s[1] in by_w:
            vals.append(slot_value(arr, t, m, by_w[s[1]]))
        elif s[0] == 'imm':
            vals.append(int(s[1], 0) & R.M64)
        else:
            vals.append(None)
    return vals


def width_of(op):
    for w in (64, 32, 16):
        if op.endswith(str(w)):
            return w
    return None


# neg.s16/abs.s16 of -32768 leave +32768 in NVIDIA's 32-bit register: a later signed 16-bit
# operation sees +32768, not the 0x8000 stored (not followed: docs/SEMANTICS.md)
WIDE16 = ('neg.s16', 'abs.s16')
CARRY_OPS = ('add', 'addc', 'sub', 'subc', 'mad', 'madc')


def carry_form(op):
    """(kind, writes CF, reads CF) for a carry-chain instruction, else None."""
    p = op.split('.')
    if p[0] not in CARRY_OPS or op.startswith('@'):
        return None
    reads = p[0] in ('addc', 'subc', 'madc')
    writes = 'cc' in p[1:]
    if not (reads or writes) or p[-1][0] not in 'su':
        return None
    return p[0].rstrip('c') if p[0] != 'madc' else 'mad', writes, reads


def checked(op):
    name = op.split('.')[0]
    if carry_form(op) is not None:
        return True
    return name in ('bfe', 'bfi', 'fns', 'div', 'rem') and width_of(op) is not None and \
        '.f' not in op


def carry_ref(op, ops, cf, width):
    kind, _, reads = carry_form(op)
    cin = cf if reads else (1 if kind == 'sub' else 0)
    if kind == 'add':
        return R.add_cc(ops[0], ops[1], cin, width)
    if kind == 'sub':
        return R.sub_cc(ops[0], ops[1], cin, width)
    return R.mad_cc(ops[0], ops[1], ops[2], cin, width, hi='.hi' in op, signed='.s' in op)


def plain_ref(op, ops, imm):
    w = width_of(op)
    name = op.split('.')[0]
    signed = '.s' in op
    if name == 'bfe':
        return R.bfe(ops[0], ops[1], ops[2], signed, w, imm[1] and imm[2])
    if name == 'bfi':
        return R.bfi(ops[0], ops[1], ops[2], ops[3], w, imm[2] and imm[3])
    if name == 'fns':
        return R.fns(ops[0], ops[1], ops[2])
    if name == 'div':
        return R.div(ops[0], ops[1], w, signed)
    return R.rem(ops[0], ops[1], w, signed)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', '..', '..', 'shared',
                                                           'ptx-hw')
    man, slots, inputs, nv = load(os.path.join(d, 'random'))
    seen, bad, shown = collections.Counter(), collections.Counter(), collections.Counter()
    for i, k in enumerate(man['kernels']):
        arr = nv.get(i)
        if arr is None:
            continue
        t_n, m, k_in = k['threads'], k['out_words'], k['in_words']
        by_w = {s['w']: s for s in slots[i]}
        mine = [(s, carry_form(s['op'])) for s in slots[i] if checked(s['op'])]
        for t in range(t_n if mine else 0):
            cf = None
            for s, cform in mine:
                op = s['op']
                name = op.split('.')[0]
                ops = operands(arr, t, m, k_in, inputs[i], by_w, s['srcs'])
                if any(src[0] == 'slot' and by_w.get(src[1], {}).get('op') in WIDE16 and
                       v == 0x8000 for src, v in zip(s['srcs'], ops)):
                    seen['(skipped: operand from neg/abs.s16 of -32768)'] += 1
                    continue
                got = slot_value(arr, t, m, s)
                known = got is not None and all(v is not None and v & M32LOW != SENTINEL
                                                for v in ops)
                if cform is not None:
                    w = width_of(op)
                    if not known or (cform[2] and cf is None):
                        cf = None if cform[1] else cf
                        continue
                    exp, cout = carry_ref(op, ops, cf, w)
                    cf = cout if cform[1] else cf
                    form = '%s (flag from the chain)' % op if cform[2] else op
                else:
                    if not known:
                        continue
                    imm = [src[0] == 'imm' for src in s['srcs']]
                    exp = plain_ref(op, ops, imm)
                    form = op
                    if name in ('div', 'rem') and ops[1] & R.mask(width_of(op)) == 0:
                        form = op + ' by zero'
                seen[form] += 1
                if exp != got:
                    bad[form] += 1
                    if shown[form] < 3:
                        shown[form] += 1
                        print('MISMATCH k%05d t%d %s ops %s: hardware %#x, rule %#x'
                              % (i, t, s['text'], [hex(v) for v in ops], got, exp))
    for form in sorted(seen):
        print('%-40s %7d samples %5d mismatches' % (form, seen[form], bad[form]))
    print('total: %d samples, %d mismatches' % (sum(seen.values()), sum(bad.values())))
    return 1 if bad else 0


M32LOW = 0xffffffff

if __name__ == '__main__':
    sys.exit(main())
