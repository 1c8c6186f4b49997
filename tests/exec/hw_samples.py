"""The H100's samples of single instructions, for the by-hand reference checks
(intsat_verify.py, forms_verify.py): every output slot of ../shared/ptx-hw/random whose PTX
form a script asks for, with its operand values per thread, read from the set's slots.json.gz
(each slot's instruction and where its operands came from), inputs.npy and nv.part0.npz.

Needs numpy (/usr/bin/python3); not part of the test suite: the data is not in the repository.
"""
import gzip
import json
import os

import numpy as np

SENTINEL = 0xdeadbeef  # an output word the kernel did not write
DEFAULT_SET = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           '../../../shared/ptx-hw/random')


def operand(src, row, out, t, iw, ow, byw, halves, imm):
    """One operand's value for thread t, or None (not written, or a source kind not read).
    halves: 'inh' sources (a half of an input word) and b16 slots (their low half) are read;
    imm: the immediate's text -> its value."""
    kind = src[0]
    if kind == 'in':
        v = int(row[t * iw + src[1]])
        return v | int(row[t * iw + src[1] + 1]) << 32 if src[2] == 2 else v
    if kind == 'inh' and halves:
        return int(row[t * iw + src[1]]) >> (16 * src[2]) & 0xffff
    if kind == 'slot':
        s = byw[src[1]]
        v = int(out[t * ow + s['w']])
        if v == SENTINEL:
            return None
        if halves and s['t'] == 'b16':
            return v & 0xffff
        return v | int(out[t * ow + s['w'] + 1]) << 32 if s['n'] == 2 else v
    if kind == 'imm':
        return imm(src[1])
    return None


def samples(wanted, halves, imm, d=None):
    """Yields (kernel index, thread, slot, operand values, output words, slot's word index)
    for every slot with wanted(slot) and every thread where the H100 wrote it and all its
    operands are known."""
    d = d or DEFAULT_SET
    man = json.load(open(os.path.join(d, 'manifest.json')))['kernels']
    slots = json.load(gzip.open(os.path.join(d, 'slots.json.gz'), 'rt'))
    inputs = np.load(os.path.join(d, 'inputs.npy'))
    z = np.load(os.path.join(d, 'nv.part0.npz'))
    data, off, status = z['data'], z['off'], z['status']
    where = {int(i): j for j, i in enumerate(z['idx']) if str(status[j]) == 'ok'}
    for ki, ks in enumerate(slots):
        if ki not in where:
            continue
        m, j = man[ki], where[ki]
        out, row = data[off[j]:off[j + 1]], inputs[ki]
        byw = {s['w']: s for s in ks}
        for s in ks:
            if not wanted(s):
                continue
            for t in range(m['threads']):
                v = [operand(x, row, out, t, m['in_words'], m['out_words'], byw, halves, imm)
                     for x in s['srcs']]
                base = t * m['out_words'] + s['w']
                if None in v or int(out[base]) == SENTINEL:
                    continue
                yield ki, t, s, v, out, base


def report(stat):
    """Prints samples and mismatches per form ({op: [samples, mismatches]}); the exit status."""
    bad = 0
    for op in sorted(stat):
        print('%-24s %7d samples %5d mismatches' % (op, stat[op][0], stat[op][1]))
        bad += stat[op][1]
    print('total: %d samples, %d mismatches' % (sum(s[0] for s in stat.values()), bad))
    return 1 if bad else 0
