"""The PTX ISA's mma fragment layouts ("Matrix Fragments for mma.mMnNkK"), written out per form
independently of the compiler, for the references of tests/exec/cases/cases_mma.py and the
tensor-core error bound of tests/hw/tensor_bound.py; and the element encodings."""

import re
import struct

M32 = (1 << 32) - 1


# ---------------------------------------------------------------- layouts
# Each layout: (lane, i) -> (row, col) of element a_i / b_i / c_i; g = groupID = lane >> 2,
# t = threadID_in_group = lane % 4.

def a_m16(kper):
    """A of m16n8k{2*kper*4}: the ISA's m16n8k16 .f16 (kper 2), m16n8k32 .s8 (4), m16n8k64
    .s4 (8), m16n8k256 .b1 (32) and m16n8k8 .tf32 (1) formulas, which share this shape:
    row g for the first kper elements of each 2*kper, col kper*t + i % kper (+ 4*kper for
    the second half)."""
    def f(lane, i):
        g, t = lane >> 2, lane % 4
        row = g + (8 if (i // kper) % 2 else 0)
        col = kper * t + i % kper + (4 * kper if i >= 2 * kper else 0)
        return row, col
    return f


def b_n8(kper):
    def f(lane, i):
        g, t = lane >> 2, lane % 4
        return kper * t + i % kper + (4 * kper if i >= kper else 0), g
    return f


def a_m8(kper):
    def f(lane, i):
        return lane >> 2, kper * (lane % 4) + i
    return f


def c_m16(lane, i):
    g, t = lane >> 2, lane % 4
    return g + (8 if i >= 2 else 0), 2 * t + (i & 1)


def c_m8(lane, i):
    return lane >> 2, 2 * (lane % 4) + i


def q_rowcol(lane):
    """m8n8k4 .f16: quad pair p = (lane >> 2) % 4 computes its own product; (lane % 4, hi)."""
    return lane % 4, 1 if lane >= 16 else 0


def qa_row(lane, i):
    q, hi = q_rowcol(lane)
    return q + 4 * hi, i


def qa_col(lane, i):
    q, hi = q_rowcol(lane)
    return i + 4 * hi, q


def qb_row(lane, i):
    q, hi = q_rowcol(lane)
    return q, i + 4 * hi


def qb_col(lane, i):
    q, hi = q_rowcol(lane)
    return i, q + 4 * hi


def qc_f16(lane, i):
    q, hi = q_rowcol(lane)
    return q + 4 * hi, i


def qc_f32(lane, i):
    hi = 1 if lane >= 16 else 0
    return (lane & 1) + (i & 2) + 4 * hi, (i & 4) + (lane & 2) + (i & 1)


# ---------------------------------------------------------------- element encodings

def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def e4m3_bits(x):
    """Small integers 0..15 are exact in e4m3 (bias 7, 3 mantissa bits)."""
    if x == 0:
        return 0
    s, m = (0x80 if x < 0 else 0), abs(x)
    e = m.bit_length() - 1
    return s | (e + 7) << 3 | ((m << 3 >> e) & 7)


def e5m2_bits(x):
    return f16_bits(x) >> 8


ENC = {  # type: (bits per element, encode value -> bits, value range)
    'f16': (16, f16_bits, 4), 'bf16': (16, lambda x: f32_bits(x) >> 16, 4),
    'tf32': (32, f32_bits, 4), 'f32': (32, f32_bits, 64), 's32': (32, lambda x: x & M32, 1 << 20),
    's8': (8, lambda x: x & 0xff, 127), 'u8': (8, lambda x: x & 0xff, 255),
    's4': (4, lambda x: x & 15, 7), 'u4': (4, lambda x: x & 15, 15), 'b1': (1, lambda x: x, 1),
    'e4m3': (8, e4m3_bits, 4), 'e5m2': (8, e5m2_bits, 4), 'f64': (64, None, 8)}


class Form:
    def __init__(self, name, insn, shape, types, lay, ngrp=1, target='sm_80', sat=False,
                 b1op=None, warp_level=False):
        self.name, self.insn, self.target, self.sat, self.b1op = name, insn, target, sat, b1op
        self.m, self.n, self.k = shape
        self.td, self.ta, self.tb, self.tc = types
        self.la, self.lb, self.lc, self.ld = lay
        self.ngrp, self.warp_level = ngrp, warp_level

    def per(self, ty):
        return 1 if ty == 'f64' else 32 // ENC[ty][0]

    def nelem(self, which):
        m, n, k = self.m, self.n, self.k
        return {'a': m * k, 'b': k * n, 'c': m * n, 'd': m * n}[which] * self.ngrp // 32

    def nregs(self, which):
        ty = {'a': self.ta, 'b': self.tb, 'c': self.tc, 'd': self.td}[which]
        return self.nelem(which) // self.per(ty)


def generic(name, shape, ta, tb, tc, td, kper_a, kper_b, **kw):
    m, n, k = shape
    la = a_m16(kper_a) if m == 16 else a_m8(kper_a)
    lc = c_m16 if m == 16 else c_m8
    sat = '.satfinite' if kw.get('sat') else ''
    op = kw.get('b1op')
    insn = 'mma.sync.aligned.m%dn%dk%d.row.col%s.%s.%s.%s.%s%s' % (
        m, n, k, sat, td, ta, tb, tc, '.%s.popc' % op if op else '')
    return Form(name, insn, shape, (td, ta, tb, tc), (la, b_n8(kper_b), lc, lc), **kw)


def quad(name, al, bl, td, tc, **kw):
    insn = 'mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16.%s' % (al, bl, td, tc)
    la = qa_row if al == 'row' else qa_col
    lb = qb_row if bl == 'row' else qb_col
    lc = qc_f32 if tc == 'f32' else qc_f16
    ld = qc_f32 if td == 'f32' else qc_f16
    return Form(name, insn, (8, 8, 4), (td, 'f16', 'f16', tc), (la, lb, lc, ld), ngrp=4, **kw)



KPER = {'f16': 2, 'bf16': 2, 'tf32': 1, 'f64': 1, 's8': 4, 'u8': 4, 'e4m3': 4, 'e5m2': 4,
        's4': 8, 'u4': 8, 'b1': 32}


def form_of(insn):
    """The Form of an mma.sync instruction's name (its words)."""
    words = insn.split('.')
    m, n, k = map(int, re.search(r'm(\d+)n(\d+)k(\d+)', insn).groups())
    types = [w for w in words if w in ENC]
    td, ta, tb, tc = types[:4]
    if (m, n, k) == (8, 8, 4) and ta == 'f16':
        lays = [w for w in words if w in ('row', 'col')]
        return quad(insn, lays[0], lays[1], td, tc)
    b1op = 'xor' if '.xor.' in insn + '.' else 'and' if '.and.' in insn + '.' else None
    return generic(insn, (m, n, k), ta, tb, tc, td, KPER[ta], KPER[tb], sat='.satfinite' in insn,
                   b1op=b1op)


def decode(ty, words):
    """Element values of registers (32-bit words; f64: two per register, low first)."""
    if ty == 'f64':
        return [struct.unpack('<d', struct.pack('<Q', words[2 * i] | words[2 * i + 1] << 32))[0]
                for i in range(len(words) // 2)]
    out = []
    for w in words:
        if ty == 'f16':
            out += [struct.unpack('<e', struct.pack('<H', (w >> s) & 0xffff))[0] for s in (0, 16)]
        elif ty == 'bf16':
            out += [struct.unpack('<f', struct.pack('<I', ((w >> s) & 0xffff) << 16))[0]
                    for s in (0, 16)]
        elif ty in ('f32', 'tf32'):  # tf32: the low 13 bits are not part of the value
            out.append(struct.unpack('<f', struct.pack('<I', w & (0xffffe000 if ty == 'tf32'
                                                                   else M32)))[0])
        else:
            out.append(w - (1 << 32) if ty == 's32' and w >> 31 else w)
    return out


def shape_of(s):
    """(m, n, k) of 'm16n8k16'."""
    return tuple(map(int, re.search(r'm(\d+)n(\d+)k(\d+)', s).groups()))
