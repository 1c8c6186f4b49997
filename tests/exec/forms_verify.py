#!/usr/bin/python3
"""Checks the references of tests/exec/cases/cases_forms.py (testp, mul24/mad24, slct,
dp4a/dp2a, min/max.NaN on f32/f16/bf16 and their pairs, cvt.rna.tf32.f32; tanh.approx.f32/.f16/
.f16x2 against the exact tanh with the PTX ISA's bound) against every result an H100 computed for the random kernels of ptx-hw
(../shared/ptx-hw/random: slots.json.gz names each output slot's instruction and where its
operands came from, inputs.npy and nv.part0.npz hold the values).

usage: /usr/bin/python3 tests/exec/forms_verify.py [PTX_HW_DIR]   (needs numpy)

Prints the samples and mismatches per form; exits 1 on any mismatch.  A manual tool (the data is
not part of the repository): the figures it prints are quoted in docs/SEMANTICS.md.
"""
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'cases'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
import cases_forms as F  # noqa: E402
import hw_samples as H  # noqa: E402


def reference(op, v):
    """The expected word for op on operand values v; None: judged by F.tanh_ok."""
    w = op.split('.')
    if w[0] == 'testp':
        bit = ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'].index(w[1])
        return F.testp_bits(v[0], w[-1] == 'f64') >> bit & 1
    if w[0] in ('mul24', 'mad24'):
        mad = w[0] == 'mad24'
        return F.mul24(v[0], v[1], v[2] if mad else 0, 'hi' in w, 's32' in w, mad, 'sat' in w)
    if w[0] == 'slct':
        return F.slct(v[0], v[1], v[2], w[-1] == 'f32', 'ftz' in w)
    if w[0] in ('dp4a', 'dp2a'):
        return F.dot(v[0], v[1], v[2], w[0] == 'dp4a', w[-2] == 's32', w[-1] == 's32', 'hi' in w)
    if w[0] in ('min', 'max') and 'NaN' in w and w[-1] == 'f32':
        return F.minmax_nan(v[0], v[1], w[0] == 'min', 'ftz' in w)
    if w[0] in ('min', 'max') and 'NaN' in w and w[-1] in ('f16', 'bf16', 'f16x2', 'bf16x2'):
        bf, ftz, mn = w[-1].startswith('bf'), 'ftz' in w, w[0] == 'min'
        if w[-1].endswith('x2'):
            return F.pairs(v[0], v[1], lambda a, b: F.minmax_nan16(a, b, mn, bf, ftz))
        return F.minmax_nan16(v[0] & 0xffff, v[1] & 0xffff, mn, bf, ftz)
    if op in ('tanh.approx.f16', 'tanh.approx.f16x2'):
        return None
    if op == 'cvt.rna.tf32.f32':
        return F.tf32_rna(v[0])
    if op == 'tanh.approx.f32':
        return None
    return False


def approx_ok(op, a, hw):
    if op == 'tanh.approx.f32':
        return F.tanh_ok(a, hw)
    if op == 'tanh.approx.f16':
        return F.tanh16_ok(a & 0xffff, hw)
    return F.tanh16_ok(a & 0xffff, hw & 0xffff) and F.tanh16_ok(a >> 16, hw >> 16)


def imm_value(x):
    return int(x[2:], 16) if x[:2] in ('0f', '0d', '0x') else int(x) & 0xffffffff


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else None
    stat = collections.defaultdict(lambda: [0, 0])
    wanted = lambda s: reference(s['op'], [0, 0, 0]) is not False  # noqa: E731
    for ki, t, s, v, out, base in H.samples(wanted, False, imm_value, d):
        hw = int(out[base])
        e = reference(s['op'], v)
        if s['op'].endswith(('.f16', '.bf16')):  # st.b16: the low half
            hw &= 0xffff
        ok = approx_ok(s['op'], v[0], hw) if e is None else e == hw
        st = stat[s['op']]
        st[0] += 1
        if not ok:
            st[1] += 1
            if st[1] <= 3:
                print('MISMATCH k%05d t%d %s %s: hw %#x, reference %s' %
                      (ki, t, s['op'], ' '.join('%#x' % x for x in v), hw,
                       'tanh bound' if e is None else '%#x' % e))
    return H.report(stat)


if __name__ == '__main__':
    sys.exit(main())
