"""Cases for tests/exec/ptx/mma_*.ptx (one mma.sync form each, written by this module: run it
as a script to regenerate them) and tests/exec/ptx/wmma_gemm.ptx (nvcc's PTX of
tests/exec/src/wmma_gemm.cu).

Each thread of two 32-lane warps loads its A, B and C fragment registers from in[] and stores
its D registers to out[].  The reference assembles each warp's matrices from the registers with
the PTX ISA's fragment layouts ("Matrix Fragments for mma.mMnNkK", written out below per form,
independently of the compiler), multiplies, and scatters D back.  The data are small integers,
so every product and partial sum is exact in every type and the comparison is bit for bit."""

import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack  # noqa: E402

M32 = (1 << 32) - 1
BLOCK = 64


# ---------------------------------------------------------------- the PTX ISA's layouts
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


def draw(rng, ty):
    r = ENC[ty][2]
    if ty in ('u8', 'u4', 'b1'):
        return rng.randrange(0, r + 1)
    if ty == 's4':
        return rng.randrange(-8, 8)
    return rng.randrange(-r, r + 1)


# ---------------------------------------------------------------- forms

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


FORMS = [
    generic('mma_f16_f32', (16, 8, 16), 'f16', 'f16', 'f32', 'f32', 2, 2, warp_level=True),
    generic('mma_f16_f16', (16, 8, 16), 'f16', 'f16', 'f16', 'f16', 2, 2),
    generic('mma_bf16_k8', (16, 8, 8), 'bf16', 'bf16', 'f32', 'f32', 2, 2),
    generic('mma_tf32_k8', (16, 8, 8), 'tf32', 'tf32', 'f32', 'f32', 1, 1),
    generic('mma_s8u8_sat', (16, 8, 32), 's8', 'u8', 's32', 's32', 4, 4, sat=True,
            warp_level=True),
    generic('mma_u4s4_k64', (16, 8, 64), 'u4', 's4', 's32', 's32', 8, 8),
    generic('mma_s8_m8', (8, 8, 16), 's8', 's8', 's32', 's32', 4, 4),
    generic('mma_f64', (8, 8, 4), 'f64', 'f64', 'f64', 'f64', 1, 1),
    generic('mma_b1_xor', (8, 8, 128), 'b1', 'b1', 's32', 's32', 32, 32, b1op='xor'),
    generic('mma_b1_and', (16, 8, 256), 'b1', 'b1', 's32', 's32', 32, 32, b1op='and'),
    generic('mma_e4m3', (16, 8, 32), 'e4m3', 'e5m2', 'f32', 'f32', 4, 4, target='sm_89'),
    quad('mma_q_rowcol', 'row', 'col', 'f32', 'f16', warp_level=True),
    quad('mma_q_colrow', 'col', 'row', 'f16', 'f16'),
]


# ---------------------------------------------------------------- PTX text

def ptx_text(f):
    regs = {w: f.nregs(w) for w in 'abcd'}
    wide = f.ta == 'f64'
    words = (regs['a'] + regs['b'] + regs['c']) * (2 if wide else 1)
    version = '8.4' if f.target == 'sm_89' else '8.0'  # ptxas: fp8 mma needs PTX ISA 8.4
    lines = ['// generated by tests/exec/cases/cases_mma.py: %s' % f.insn, '.version ' + version,
             '.target %s' % f.target, '.address_size 64', '',
             '.visible .entry %s(.param .u64 in, .param .u64 out)' % f.name, '{',
             '\t.reg .b32 %r<80>;', '\t.reg .f64 %fd<16>;', '\t.reg .b64 %rd<8>;',
             '\tld.param.u64 %rd1, [in];', '\tld.param.u64 %rd2, [out];',
             '\tcvta.to.global.u64 %rd1, %rd1;', '\tcvta.to.global.u64 %rd2, %rd2;',
             '\tmov.u32 %r0, %tid.x;', '\tmul.wide.u32 %%rd3, %%r0, %d;' % (4 * words),
             '\tadd.s64 %rd3, %rd1, %rd3;',
             '\tmul.wide.u32 %%rd4, %%r0, %d;' % (4 * regs['d'] * (2 if wide else 1)),
             '\tadd.s64 %rd4, %rd2, %rd4;']
    names, at = {}, 1
    for w in 'abcd':
        names[w] = ['%%fd%d' % (at + i) if wide else '%%r%d' % (at + i) for i in range(regs[w])]
        at += regs[w]
    off = 0
    for w in 'abc':
        for r in names[w]:
            lines.append('\tld.global.%s %s, [%%rd3+%d];' % ('f64' if wide else 'b32', r, off))
            off += 8 if wide else 4
    lines.append('\t%s {%s}, {%s}, {%s}, {%s};' % (f.insn, ', '.join(names['d']),
                                                  ', '.join(names['a']), ', '.join(names['b']),
                                                  ', '.join(names['c'])))
    for i, r in enumerate(names['d']):
        lines.append('\tst.global.%s [%%rd4+%d], %s;' % ('f64' if wide else 'b32',
                                                        i * (8 if wide else 4), r))
    lines += ['\tret;', '}', '']
    return '\n'.join(lines)


# ---------------------------------------------------------------- reference

def regs_of(f, ty, vals):
    """A lane's element values (in element order) as 32-bit register words (f64: 2 each)."""
    if ty == 'f64':
        out = []
        for v in vals:
            b = struct.unpack('<Q', struct.pack('<d', v))[0]
            out += [b & M32, b >> 32]
        return out
    bits, enc, per = ENC[ty][0], ENC[ty][1], f.per(ty)
    out = []
    for r in range(len(vals) // per):
        w = 0
        for s in range(per):
            w |= (enc(vals[r * per + s]) & ((1 << bits) - 1)) << (s * bits)
        out.append(w)
    return out


def decode_d(f, words):
    """A lane's D register words as element values."""
    if f.td == 'f64':
        return [struct.unpack('<d', struct.pack('<Q', words[2 * i] | words[2 * i + 1] << 32))[0]
                for i in range(len(words) // 2)]
    if f.td == 'f16':
        return [struct.unpack('<e', struct.pack('<H', (w >> s) & 0xffff))[0]
                for w in words for s in (0, 16)]
    if f.td == 'f32':
        return [struct.unpack('<f', struct.pack('<I', w))[0] for w in words]
    return [w - (1 << 32) if w >> 31 else w for w in words]


def warp_matrices(f, rng):
    """Per lane the element values of A, B, C (indexed like the fragments), and the matrices."""
    A = {}
    B = {}
    C = {}
    vals = {}
    for w, lay, ty, mat in (('a', f.la, f.ta, A), ('b', f.lb, f.tb, B), ('c', f.lc, f.tc, C)):
        vals[w] = []
        for lane in range(32):
            row = []
            for i in range(f.nelem(w)):
                grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
                key = (grp,) + lay(lane, i)
                if key not in mat:
                    mat[key] = draw(rng, ty)
                row.append(mat[key])
            vals[w].append(row)
    return vals, A, B, C


def expect_d(f, A, B, C, lane, i):
    grp = (lane >> 2) % 4 if f.ngrp > 1 else 0
    r, c = f.ld(lane, i)
    acc = 0
    for kk in range(f.k):
        a, b = A[(grp, r, kk)], B[(grp, kk, c)]
        acc += (a ^ b if f.b1op == 'xor' else a & b) if f.b1op else a * b
    acc += C[(grp, r, c)]
    if f.td == 's32' and f.sat:
        acc = max(-(1 << 31), min((1 << 31) - 1, acc))
    elif f.td == 's32':
        acc = (acc + (1 << 31)) % (1 << 32) - (1 << 31)
    return acc


def form_case(f):
    rng = random.Random(f.name)
    inp, want = [], []
    for warp in range(BLOCK // 32):
        vals, A, B, C = warp_matrices(f, rng)
        if f.sat and warp == 1:  # C near the limits: the sums saturate
            for key in C:
                C[key] = (1 << 31) - 1 - rng.randrange(0, 50) if key[1] % 2 else -(1 << 31) + 3
            vals['c'] = [[C[(0,) + f.lc(lane, i)] for i in range(f.nelem('c'))]
                         for lane in range(32)]
        for lane in range(32):
            inp += regs_of(f, f.ta, vals['a'][lane]) + regs_of(f, f.tb, vals['b'][lane])
            inp += regs_of(f, f.tc, vals['c'][lane])
            want.append([expect_d(f, A, B, C, lane, i) for i in range(f.nelem('d'))])
    nd = f.nregs('d') * (2 if f.td == 'f64' else 1)

    def check(outs, wave):
        words = unpack('I', outs[0])
        errs = []
        for t in range(BLOCK):
            got = decode_d(f, words[t * nd:(t + 1) * nd])
            for i, (g, e) in enumerate(zip(got, want[t])):
                if g != e:
                    errs.append('%s thread %d d%d = %r, expected %r' % (f.name, t, i, g, e))
        return errs[:8]

    c = Case(f.name, f.name, (1,), (BLOCK,), [In('I', inp), Out(4 * nd * BLOCK)], check)
    c.warp_level = f.warp_level  # also on the wave and warp size variants
    return c


# ---------------------------------------------------------------- nvcc's wmma GEMM

GEMM_M, GEMM_N, GEMM_K = 32, 32, 64


def gemm_case():
    """wmma_gemm.ptx: C[32x32] f32 = A[32x64] (f16 row-major) x B[64x32] (f16 col-major), one
    warp per 16x16 tile (4 warps), a k-loop of 4 wmma.mma, A staged through shared memory."""
    rng = random.Random('wmma_gemm')
    a = [rng.randrange(-4, 5) for _ in range(GEMM_M * GEMM_K)]
    b = [rng.randrange(-4, 5) for _ in range(GEMM_K * GEMM_N)]

    def check(outs, wave):
        got = unpack('f', outs[0])
        errs = []
        for i in range(GEMM_M):
            for j in range(GEMM_N):
                e = sum(a[i * GEMM_K + k] * b[j * GEMM_K + k] for k in range(GEMM_K))
                if got[i * GEMM_N + j] != e:
                    errs.append('wmma_gemm C[%d][%d] = %r, expected %r'
                                % (i, j, got[i * GEMM_N + j], e))
        return errs[:8]

    halves = [f16_bits(x) for x in a], [f16_bits(x) for x in b]
    c = Case('wmma_gemm', 'wmma_gemm', (1,), (128,),
             [In('H', halves[0]), In('H', halves[1]), Out(4 * GEMM_M * GEMM_N)], check)
    c.warp_level = True
    return c


def cases():
    return [form_case(f) for f in FORMS] + [gemm_case()]


if __name__ == '__main__':  # regenerate the PTX files
    pdir = os.path.join(os.path.dirname(HERE), 'ptx')
    for f in FORMS:
        with open(os.path.join(pdir, f.name + '.ptx'), 'w') as fh:
            fh.write(ptx_text(f))
