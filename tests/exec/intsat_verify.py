#!/usr/bin/python3
"""Checks the references of tests/exec/cases/cases_intsat.py (add/sub.sat.s32, cvt.sat between
integer types) against every result an H100 computed for those forms in the random kernels of
ptx-hw (../shared/ptx-hw/random: slots.json.gz names each output slot's instruction and where
its operands came from, inputs.npy and nv.part0.npz hold the values).  The other forms of
cases_intsat.py (set, the 16x2 forms, video, cvt.pack, .xorsign) do not occur in that data.

usage: /usr/bin/python3 tests/exec/intsat_verify.py [PTX_HW_DIR]   (needs numpy)

Prints the samples and mismatches per form; exits 1 on any mismatch.  A manual tool (the data is
not part of the repository): the figures it prints are quoted in docs/SEMANTICS.md.
"""
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'cases'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
import cases_intsat as R  # noqa: E402
import hw_samples as H  # noqa: E402
INT_TYPES = {'u8': (8, False), 's8': (8, True), 'u16': (16, False), 's16': (16, True),
             'u32': (32, False), 's32': (32, True), 'u64': (64, False), 's64': (64, True)}


def reference(op, v, reg_bits):
    """The expected register value for op on operand values v; None: not a form checked here."""
    w = op.split('.')
    if op in ('add.sat.s32', 'sub.sat.s32'):
        a, b = R.sx(v[0], 32), R.sx(v[1], 32)
        return R.sat_s32(a + b if w[0] == 'add' else a - b)
    if w[0] == 'cvt' and w[1] == 'sat' and len(w) == 4 and w[2] in INT_TYPES and \
            w[3] in INT_TYPES:
        (db, ds), (sb, ss) = INT_TYPES[w[2]], INT_TYPES[w[3]]
        return R.cvt_sat(v[0], sb, ss, db, ds, reg_bits)
    return None


def imm_value(x):
    return int(x[2:], 16) if x[:2] == '0x' else int(x) & 0xffffffffffffffff


def reg_bits_of(s):
    return 16 if s['t'] == 'b16' else 64 if s['n'] == 2 else 32


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else None
    stat = collections.defaultdict(lambda: [0, 0])
    wanted = lambda s: reference(s['op'], [0, 0], reg_bits_of(s)) is not None  # noqa: E731
    for ki, t, s, v, out, base in H.samples(wanted, True, imm_value, d):
        reg_bits = reg_bits_of(s)
        hw = int(out[base])
        if reg_bits == 16:  # st.b16: the low half
            hw &= 0xffff
        elif reg_bits == 64:
            hw |= int(out[base + 1]) << 32
        e = reference(s['op'], v, reg_bits)
        st = stat[s['op']]
        st[0] += 1
        if e != hw:
            st[1] += 1
            if st[1] <= 3:
                print('MISMATCH k%05d t%d %s %s: hw %#x, reference %#x' %
                      (ki, t, s['op'], ' '.join('%#x' % x for x in v), hw, e))
    return H.report(stat)


if __name__ == '__main__':
    sys.exit(main())
