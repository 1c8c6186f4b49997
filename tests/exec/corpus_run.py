#!/usr/bin/env python3
"""Kernels of the issue-19 corpus sources (tests/corpus/src: dp4a_int8.cu, assert_heavy.cu,
cp_async_pipe.cu, bf16_train.cu; nvcc -O3 PTX for sm_80 and sm_90) run in amdsim on every
target against CPU references written here from the CUDA sources and the PTX ISA:
dp4a/dp2a (sums of byte x byte and half x byte products, signed or unsigned by type),
int8 dequantisation (one f32 rounding of byte x scale), a lower-bound binary search, and an
assert() that fails (amdsim's trap, exit 4, and CUDA's assertion line), cp.async copies of 4
and 8 bytes with zero fill, bf16 conversions (round to nearest even, toward zero, from int)
and a bf16 add (one rounding of the exact sum), and a bf16 GEMM tile (an fmaf chain in f32,
rounded to bf16 once).

usage: corpus_run.py PTXAS_AMD AMDSIM [TARGET...]"""
import os
import random
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
NVCC = os.path.join(os.path.dirname(HERE), 'corpus', 'nvcc')
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
import ref  # noqa: E402
import run as krun  # noqa: E402
from ref import Case, In, Out, unpack  # noqa: E402

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
SMS = ('sm_80', 'sm_90')
M32 = 0xffffffff


def cmp(name, got, exp):
    return ['%s[%d] = %r, expected %r' % (name, i, g, e)
            for i, (g, e) in enumerate(zip(got, exp)) if g != e][:8]


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def sbytes(w, signed):
    return [((w >> (8 * j)) & 255) - (256 if signed and (w >> (8 * j)) & 128 else 0)
            for j in range(4)]


def shalves(w, signed):
    return [((w >> (16 * j)) & 0xffff) - (0x10000 if signed and (w >> (16 * j)) & 0x8000 else 0)
            for j in range(2)]


def dot_case(rng):
    """dot_su: dp4a.s32.s32, dp4a.u32.u32 (+7), dp2a.lo.s32.s32 (-3), dp2a.hi.u32.u32 (+5)."""
    n = 96
    a = [rng.getrandbits(32) for _ in range(n)]
    b = [rng.getrandbits(32) for _ in range(n)]
    a[:4] = [0x80808080, 0x7f7f7f7f, M32, 0]
    b[:4] = [0x80808080, M32, 0x7f7f7f7f, M32]
    exp = []
    for x, y in zip(a, b):
        d1 = sum(p * q for p, q in zip(sbytes(x, True), sbytes(y, True)))
        d2 = 7 + sum(p * q for p, q in zip(sbytes(x, False), sbytes(y, False)))
        d3 = -3 + sum(p * q for p, q in zip(shalves(x, True), sbytes(y, True)[:2]))
        d4 = 5 + sum(p * q for p, q in zip(shalves(x, False), sbytes(y, False)[2:]))
        exp += [d & M32 for d in (d1, d2, d3, d4)]
    return Case('dot_su', '_Z6dot_suPKiPKjPii', (2,), (64,),
                [In('I', a), In('I', b), Out(16 * n), ('i32', n)],
                lambda outs, w: cmp('dot_su', unpack('I', outs[0]), exp)), 'dp4a_int8'


def dequant_case(rng):
    n4 = 100
    q = [rng.getrandbits(32) for _ in range(n4)]
    scale = [rng.randint(1, 1 << 20) / 1024.0 * rng.choice([1, -1]) for _ in range(4)]
    exp = [f32(v * scale[i // 32]) for i in range(n4) for v in sbytes(q[i], True)]
    return Case('dequantize_q8', '_Z13dequantize_q8PKiPKfPfi', (2,), (64,),
                [In('I', q), In('f', scale), Out(16 * n4), ('i32', n4)],
                lambda outs, w: cmp('dequantize', unpack('f', outs[0]), exp)), 'dp4a_int8'


def search_case(rng):
    n, nq = 200, 128
    keys = sorted(rng.randint(-500, 500) for _ in range(n))
    qs = [rng.randint(-520, 520) for _ in range(nq)] + keys[:4]
    nq = len(qs)
    exp = [sum(1 for k in keys if k < q) for q in qs]
    return Case('search_sorted', '_Z13search_sortedPKiiS0_Pii', (3,), (64,),
                [In('i', keys), ('i32', n), In('i', qs), Out(4 * nq), ('i32', nq)],
                lambda outs, w: cmp('search_sorted', unpack('i', outs[0])[:nq], exp)), \
        'assert_heavy'


def gather_case(rng):
    n = 200  # two blocks of 128: the last 56 lanes copy with zero fill
    a = [rng.getrandbits(31) for _ in range(n)]
    a8 = [rng.getrandbits(62) for _ in range(n)]
    s4 = [a[i] if i < n else 0 for i in range(256)]
    s8 = [a8[i] if i < n else 0 for i in range(256)]
    exp4, exp8 = [], []
    for i in range(n):
        blk, t = divmod(i, 128)
        exp4.append(s4[blk * 128 + 127 - t])
        exp8.append(s8[blk * 128 + 127 - t] + s4[blk * 128 + t])

    def check(outs, w):
        return (cmp('gather out', unpack('i', outs[0])[:n], exp4) +
                cmp('gather out8', unpack('q', outs[1])[:n], exp8))
    return Case('gather_small', '_Z12gather_smallPKiPKxPiPxi', (2,), (128,),
                [In('i', a), In('q', a8), Out(4 * 256), Out(8 * 256), ('i32', n)], check), \
        'cp_async_pipe'


def bf16_rn(x):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    return ((b + 0x7fff + ((b >> 16) & 1)) >> 16) & 0xffff


def bf16_val(h):
    return struct.unpack('<f', struct.pack('<I', h << 16))[0]


def convert_case(rng):
    n = 96
    fs = [f32(rng.uniform(-3e4, 3e4)) for _ in range(n - 6)] + [0.0, -0.0, 1.0 + 2 ** -8,
                                                                 1.0 + 3 * 2 ** -8, 257.5, -1.5]
    ks = [rng.randint(-(1 << 24), 1 << 24) for _ in range(n - 3)] + [0, 257, -2 ** 31]
    exp_o, exp_b = [], []
    for f, k in zip(fs, ks):
        rn = bf16_rn(f)
        rz = struct.unpack('<I', struct.pack('<f', f))[0] >> 16
        ki = round_bf16(Fraction(k))  # int -> bf16 rounded once, from the exact value
        add = round_bf16(Fraction(bf16_val(rn)) + Fraction(bf16_val(ki)))
        exp_o += [rn, rz, ki, add]
        trunc = int(bf16_val(rn))  # toward zero
        exp_b.append(f32(bf16_val(add) + float(trunc)))

    def check(outs, w):
        return (cmp('convert bf16', unpack('H', outs[0]), exp_o) +
                cmp('convert back', unpack('f', outs[1]), exp_b))
    return Case('convert_bf16', '_Z7convertPKfPKiP13__nv_bfloat16Pfi', (2,), (64,),
                [In('f', fs), In('i', ks), Out(8 * n), Out(4 * n), ('i32', n)], check), \
        'bf16_train'


def round_sig(q, p):
    """The nearest to the nonzero rational |q| with p significant bits (ties to even), as
    (r, e): |q| ~ r * 2**(e - p + 1), 2**(p-1) <= r <= 2**p (r == 2**p when it rounds up to the
    next binade); normal results only."""
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    m = q / Fraction(2) ** (e - p + 1)
    r = int(m)
    rem = m - r
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and r & 1):
        r += 1
    return r, e


def round_f32(q):
    """The f32 nearest to the rational q (ties to even); normal results only."""
    if q == 0:
        return 0.0
    r, e = round_sig(q, 24)
    return (-1.0 if q < 0 else 1.0) * r * 2.0 ** (e - 23)


def gemm_case(rng):
    """gemm_bf16: c = bf16_rn(sum over k of a[i][k] b[k][j]), the sum an fmaf chain in k
    order (one f32 rounding per step), 16-wide tiles of shared memory padded with zeros."""
    m, n, k = 24, 40, 40
    a = [bf16_rn(rng.randint(-64, 64) / 8.0 * rng.choice([1, 1.5, 1.25])) for _ in range(m * k)]
    b = [bf16_rn(rng.randint(-64, 64) / 16.0) for _ in range(k * n)]
    exp = []
    for i in range(m):
        for j in range(n):
            acc = 0.0
            for t in range(0, 48, 16):  # the tiles: out-of-range elements are 0
                for jj in range(16):
                    kk = t + jj
                    x = bf16_val(a[i * k + kk]) if kk < k else 0.0
                    y = bf16_val(b[kk * n + j]) if kk < k else 0.0
                    acc = round_f32(Fraction(x) * Fraction(y) + Fraction(acc))
            exp.append(bf16_rn(acc))
    return Case('gemm_bf16', '_Z9gemm_bf16PK13__nv_bfloat16S1_PS_iii', (3, 2), (16, 16),
                [In('H', a), In('H', b), Out(2 * m * n), ('i32', m), ('i32', n), ('i32', k)],
                lambda outs, w: cmp('gemm_bf16', unpack('H', outs[0]), exp)), 'bf16_train'


def round_bf16(q):
    """The bf16 nearest to the rational q (ties to even); finite inputs only."""
    if q == 0:
        return 0
    r, e = round_sig(q, 8)
    if r == 256:
        r, e = 128, e + 1
    return (0x8000 if q < 0 else 0) | ((e + 127) << 7) | (r - 128)


def assert_fail(ptxas, sim, tmp, t, sm):
    """search_sorted with keys that are not sorted: the loop's assert fails and traps."""
    src = os.path.join(NVCC, 'assert_heavy.%s.O3.ptx' % sm)
    h = os.path.join(tmp, 'af.hsaco')
    r = subprocess.run([ptxas, '--gpu-name', t, src, '-o', h], capture_output=True, text=True)
    if r.returncode:
        return ['%s %s assert: ptxas-amd: %s' % (t, sm, r.stderr[-500:])]
    keys = os.path.join(tmp, 'keys.bin')
    with open(keys, 'wb') as f:
        f.write(struct.pack('<64i', *([5] * 32 + [1] * 32)))
    qs = os.path.join(tmp, 'qs.bin')
    with open(qs, 'wb') as f:
        f.write(struct.pack('<64i', *range(64)))
    r = subprocess.run([sim, h, '--kernel', '_Z13search_sortedPKiiS0_Pii', '--grid', '1',
                        '--block', '64', 'in:' + keys, 'i32:64', 'in:' + qs,
                        'out:256:' + os.path.join(tmp, 'pos.bin'), 'i32:64'],
                       capture_output=True, text=True, timeout=120)
    want = ("src/assert_heavy.cu:%d: void search_sorted(const int *, int, const int *, int *, "
            "int): block: [0,0,0], thread: [" % line_of('assert(mid == 0'))
    lines = r.stdout.splitlines()
    if r.returncode != 4 or 'kernel trap' not in r.stderr or not lines or not all(
            ln.startswith(want) and ln.endswith(
                '] Assertion `mid == 0 || keys[mid - 1] <= keys[mid]` failed.') for ln in lines):
        return ['%s %s assert: exit %d, printed %r, stderr %s'
                % (t, sm, r.returncode, lines[:3], r.stderr[-300:])]
    return []


def line_of(needle):
    with open(os.path.join(os.path.dirname(HERE), 'corpus', 'src', 'assert_heavy.cu')) as f:
        for n, line in enumerate(f, 1):
            if needle in line:
                return n
    raise SystemExit('no line with %r' % needle)


def main():
    ptxas, sim = sys.argv[1], os.path.abspath(sys.argv[2])
    targets = sys.argv[3:] or TARGETS
    rng = random.Random(19)
    cases = [f(rng) for f in (dot_case, dequant_case, search_case, gather_case, convert_case,
                               gemm_case)]
    errs, runs = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for t in targets:
            for sm in SMS:
                errs += assert_fail(ptxas, sim, tmp, t, sm)
                for case, src in cases:
                    tag = '%s %s %s' % (t, sm, case.name)
                    h = os.path.join(tmp, '%s.%s.%s.hsaco' % (src, sm, t))
                    if not os.path.exists(h):
                        r = subprocess.run([ptxas, '--gpu-name', t, os.path.join(
                            NVCC, '%s.%s.O3.ptx' % (src, sm)), '-o', h],
                            capture_output=True, text=True)
                        if r.returncode:
                            errs.append('%s: ptxas-amd: %s' % (tag, r.stderr[-500:]))
                            continue
                    kern, _ = krun.read_metadata(h)
                    ok, msg, _ = krun.run_case(case, h, [sim], tmp, kern, False, 0)
                    runs += 1
                    if not ok:
                        errs.append('%s: %s' % (tag, msg))
    for e in errs:
        print('FAIL ' + e)
    print('corpus-run: %d runs, %d failures' % (runs, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
