#!/usr/bin/env python3
"""Checks judge.py's rules (docs/HARDWARE.md) on made-up outputs of a two-thread kernel, and the
standard-library .npy/.npz loader on a hand-built file.

usage: test_judge.py PTX_HW_DIR   (exit 77 when it is absent: judge.py needs its compare.py)
"""

import array
import io
import os
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FAILED = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        FAILED.append(what)


def slot(w, op, srcs, n=1, t='b32', cls='exact'):
    return {'w': w, 'n': n, 't': t, 'op': op, 'text': op, 'srcs': srcs, 'cls': cls, 'cat': 'x'}


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], 'tools')):
        print('SKIP: no ptx-hw directory')
        return 77
    sys.path.insert(0, os.path.join(sys.argv[1], 'tools'))
    sys.path.insert(0, HERE)
    import hwdata
    import isa_bounds
    import judge

    slots = [
        slot(0, 'add.s32', [['in', 0, 1], ['in', 1, 1]]),
        slot(1, 'mul.lo.s32', [['slot', 0], ['in', 1, 1]]),
        slot(2, 'add.rn.f32', [['in', 0, 1], ['in', 1, 1]]),
        slot(3, 'div.s32', [['in', 0, 1], ['in', 2, 1]]),
        slot(4, 'add.rn.f64', [['in', 4, 2], ['in', 6, 2]], n=2),
        slot(6, 'ex2.approx.f32', [['in', 3, 1]], cls='approx'),
        slot(7, 'add.rn.f16', [['inh', 0, 0], ['inh', 1, 0]], t='b16'),
        slot(8, 'mov.b32', [['slot', 2]]),
        slot(9, 'mov.f32', [['in', 0, 1]]),
        slot(10, 'vote.sync.ballot.b32', [['imm', '0xffffffff']]),
        slot(11, 'loop-carried', [['none']]),
    ]
    kernel = {'threads': 2, 'in_words': 8, 'out_words': 12, 'file': 'k.ptx'}
    inp = array.array('I', [0] * 16)
    inp[3] = f32_bits(0.5)
    inp[8 + 3] = f32_bits(0.5)
    hw_row = [5, 6, 0x7fffffff, 0xffffffff, 0, 0x7ff80000, f32_bits(2 ** 0.5), 0xdead7e00,
              0x7fffffff, 0x7fffffff, 3, 4]
    hw = array.array('I', hw_row * 2)
    by_off = judge.slot_index(slots)

    def run(changes):
        us = array.array('I', hw)
        for w, v in changes.items():
            us[w] = v
        return judge.compare_kernel(kernel, slots, by_off, inp, hw, us, False)

    check(run({}) == [], 'identical outputs: nothing')
    d = run({0: 9, 1: 99})
    check(len(d) == 2 and d[0]['root'] and not d[1]['root'] and d[0]['kind'] == 'value',
          'a wrong add is a root, the mul that reads it is propagated')
    check(run({2: 0x7fc00000}) == [], 'f32 arithmetic: another NaN is a match')
    d = run({2: 0x7fc00000, 8: 0x7fc00000})
    check(len(d) == 1 and not d[0]['root'], 'a mov of an accepted NaN differs only as propagated')
    d = run({10: 1})
    check(len(d) == 1 and d[0]['root'], 'a ballot that differs with nothing before it: a root')
    d = run({11: 5})
    check(len(d) == 1 and d[0]['root'], 'a loop slot that alone differs: a root')
    d = run({11: 5, 12 + 10: 1})
    check(len(d) == 2 and not any(x['root'] for x in d if x['slot']['w'] == 11),
          'a loop slot is propagated when anything else in its warp differs, later words too')
    d = run({12 + 2: 0x7fc00000, 10: 1})
    check(len(d) == 1 and not d[0]['root'], 'a ballot after a difference in another lane of its '
          'warp (an accepted NaN here) is propagated')
    d = run({9: 0x7fc00000})
    check(len(d) == 1 and d[0]['kind'] == 'value', 'mov.f32 must keep the NaN bits')
    d = run({3: 0})
    check(len(d) == 1 and d[0]['kind'] == 'value', 'division by zero: the all-ones must match')
    check(run({5: 0xfff80000}) == [], 'f64: another quiet NaN is a match')
    d = run({5: 0x7ff40000})
    check(len(d) == 1 and d[0]['kind'] == 'f64-snan', 'f64: a signalling NaN where the H100 '
          'quieted it')
    check(run({6: f32_bits(2 ** 0.5) + 1}) == [], 'ex2.approx: 1 ulp off the exact value is within '
          'the bound')
    d = run({6: f32_bits(2 ** 0.5) + 64})
    check(len(d) == 1 and d[0]['kind'] == 'approx-bound', 'ex2.approx: 64 ulp is outside')
    # ex2.approx.f16 below the least normal: the relative bound plus one unit of 2^-24
    # (2^-16.84375 is 142.54 units: 142 and 143 pass, 141 and a flush to zero do not)
    ex2h = lambda r: isa_bounds.check('ex2.approx.f16', [0xcc36], r)[0]  # noqa: E731
    check(ex2h(0x8e) and ex2h(0x8f) and not ex2h(0x8d) and not ex2h(0),
          'ex2.approx.f16: subnormal results within one unit of 2^-24')
    check(isa_bounds.check('ex2.approx.f16', [0xd782], 0)[0], 'ex2.approx.f16: 2^-120.125 is 0')
    # tanh.approx.f16: an absolute 2^-10.987 (the H100: tanh(0x2480) = 0x247f, one ulp below
    # the correctly rounded 0x2480, relative error 2^-10.3); tanh(1.0) = 0.76159: 0x3a17 is
    # 3.6e-4 off (inside), 0x3a19 6.1e-4 (outside)
    tanhh = lambda a, r: isa_bounds.check('tanh.approx.f16', [a], r)[0]  # noqa: E731
    check(tanhh(0x2480, 0x247f) and tanhh(0x3c00, 0x3a17) and not tanhh(0x3c00, 0x3a19),
          'tanh.approx.f16: absolute error 2^-10.987')
    d = run({1: judge.SENTINEL})
    check(len(d) == 1 and d[0]['kind'] == 'unwritten', 'the sentinel on one side: unwritten')
    d = run({7: 0x00007e00})
    check(len(d) == 1 and d[0]['kind'] == 'store-b16-high-half', 'b16 store clobbered the high half')
    check(run({7: 0xdead7c01}) == [], 'f16 arithmetic: another NaN is a match')
    d = run({12 + 0: 1})
    check(len(d) == 1 and d[0]['thread'] == 1, 'thread 1 is judged on its own words')

    tensor_bound_checks(judge)

    # .npy / .npz reading without numpy
    def npy(descr, shape, payload):
        head = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
        head += ' ' * (63 - (len(head) + 10) % 64) + '\n'
        return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(head)) + head.encode() + payload

    vals, shape = hwdata.npy_array(npy('<u4', (2, 2), struct.pack('<4I', 1, 2, 3, 0xffffffff)))
    check(list(vals) == [1, 2, 3, 0xffffffff] and shape == (2, 2), '.npy uint32 2x2')
    strs, _ = hwdata.npy_array(npy('<U2', (2,), 'ok'.encode('utf-32-le') +
                                   'x\0'.encode('utf-32-le')))
    check(strs == ['ok', 'x'], '.npy unicode strings')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z:
        z.writestr('idx.npy', npy('<i4', (2,), struct.pack('<2i', 0, 1)))
        z.writestr('off.npy', npy('<i8', (3,), struct.pack('<3q', 0, 2, 3)))
        z.writestr('data.npy', npy('<u4', (3,), struct.pack('<3I', 7, 8, 9)))
        z.writestr('status.npy', npy('<U2', (2,), 'ok'.encode('utf-32-le') +
                                     'no'.encode('utf-32-le')))
    tmp = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'hw-judge-%d' % os.getpid())
    os.makedirs(tmp, exist_ok=True)
    try:
        with open(os.path.join(tmp, 'nv.part0.npz'), 'wb') as f:
            f.write(buf.getvalue())
        got = hwdata.load_nv(tmp)
    finally:
        os.remove(os.path.join(tmp, 'nv.part0.npz'))
        os.rmdir(tmp)
    check(list(got[0][1]) == [7, 8] and got[1] == ('no', None), '.npz results by kernel')
    print('%d checks failed' % len(FAILED) if FAILED else 'all checks passed')
    return 1 if FAILED else 0


def tensor_bound_checks(judge):
    """A general-data mma.m16n8k4 .tf32 of one warp: our D against the exact products of our
    operands (tensor_bound.py); the H100's side differs by one ulp so every slot is judged."""
    import math
    import random
    import mma_frag
    op = 'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32'
    f = mma_frag.form_of(op)
    rng = random.Random(18)
    kernel = {'threads': 32, 'in_words': 7, 'out_words': 4, 'file': 'k.ptx'}
    srcs = [['in', i, 1] for i in range(7)]
    slots = [dict(slot(r, op, srcs, cls='approx'), cat='mma', note='inst 0 step 0 d%d' % r)
             for r in range(4)]
    inp = array.array('I', [f32_bits(rng.uniform(-2, 2)) & (0xffffe000 if i % 7 < 3 else
                                                              0xffffffff) for i in range(224)])
    mats = ({}, {}, {})
    for lane in range(32):
        words = list(inp[lane * 7:lane * 7 + 7])
        for mat, lay, w in zip(mats, (f.la, f.lb, f.lc), (words[:2], words[2:3], words[3:])):
            for i, x in enumerate(mma_frag.decode('f32', w)):
                mat[(0,) + lay(lane, i)] = x
    A, B, C = mats
    us = array.array('I', [0] * 128)
    for lane in range(32):
        for i in range(4):
            r, c = f.ld(lane, i)
            exact = math.fsum([A[(0, r, k)] * B[(0, k, c)] for k in range(4)] + [C[(0, r, c)]])
            us[lane * 4 + i] = f32_bits(exact)
    hw = array.array('I', [x ^ 1 for x in us])
    by_off = judge.slot_index(slots)
    check(judge.compare_kernel(kernel, slots, by_off, inp, hw, us, True) == [],
          'mma .tf32, general data: the exact sum rounded once is within the bound')
    us2 = array.array('I', us)
    us2[5] += 2
    check(judge.compare_kernel(kernel, slots, by_off, inp, hw, us2, True) == [],
          'mma .tf32: two ulp off is within K x 2^-22 x sum|a*b|')
    us2[5] += 1 << 12
    d = judge.compare_kernel(kernel, slots, by_off, inp, hw, us2, True)
    check(len(d) == 1 and d[0]['kind'] == 'tensor-approx' and d[0]['thread'] == 1,
          'mma .tf32: 4096 ulp off is outside the bound')


if __name__ == '__main__':
    sys.exit(main())
