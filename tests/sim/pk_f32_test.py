#!/usr/bin/env python3
"""amdsim's packed f32 instructions against clang-19 and an exact CPU reference.

tests/sim/kernels/pk_f32.cl (float2 fma, multiply, add, fma with a negated addend) is compiled
by clang-19 -O3 for the five targets, once with f32 denormals kept (the OpenCL default:
FLOAT_DENORM_MODE_32 = 3) and once with -cl-denorms-are-zero (mode 0: inputs and results
flushed).  On gfx90a and gfx942 clang uses v_pk_fma_f32 (also with neg_lo/neg_hi),
v_pk_mul_f32 and v_pk_add_f32, which the test requires of the disassembly; elsewhere the
same kernels are scalar f32 and check the reference itself.  Each kernel runs in amdsim on
operands mixing normal numbers of near exponents (cancellation), denormals, signed zeros,
infinities, NaNs and values that overflow; every result must equal the IEEE 754 binary32
operation rounded to nearest-even, computed exactly here with fractions (a NaN result: any
NaN).
usage: pk_f32_test.py AMDSIM SRCDIR"""
import os
import random
import struct
import sys
import tempfile
from fractions import Fraction

from simlib import TARGETS, build_cl, check, finish, run

amdsim, srcdir = sys.argv[1:3]
PACKED = ('gfx90a', 'gfx942')
SRC = os.path.join(srcdir, 'tests', 'sim', 'kernels', 'pk_f32.cl')
KSRC = os.path.join(srcdir, 'tests', 'kernels', 'src')
GRID, BLOCK = 2, 64
N = GRID * BLOCK  # float2 elements per buffer
NAN = 'nan'


def decode(bits, ftz):
    """f32 bits -> Fraction, ('inf', sign) or NAN; a denormal is a signed zero under ftz."""
    sign, exp, man = bits >> 31, (bits >> 23) & 0xff, bits & 0x7fffff
    if exp == 0xff:
        return NAN if man else ('inf', sign)
    if exp == 0 and (ftz or man == 0):
        return ('zero', sign)
    val = Fraction(man if exp == 0 else man | 0x800000) * Fraction(2) ** (max(exp, 1) - 150)
    return -val if sign else val


def encode(x, ftz):
    """Exact value (Fraction, or ('zero'|'inf', sign)) -> f32 bits, nearest-even."""
    if isinstance(x, tuple):
        return (x[1] << 31) | (0x7f800000 if x[0] == 'inf' else 0)
    sign = 1 if x < 0 else 0
    m = abs(x)
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    q = Fraction(2) ** (max(e, -126) - 23)
    n, rem = divmod(m, q)
    n = int(n)
    if rem > q / 2 or (rem == q / 2 and n & 1):
        n += 1
    k = max(e, -126)
    if n >= (1 << 24):  # rounding carried into the next binade
        n, k = n >> 1, k + 1
    if n == 0 or (ftz and n < (1 << 23)):
        return sign << 31
    if n < (1 << 23):
        return (sign << 31) | n  # denormal
    if k + 127 >= 255:
        return (sign << 31) | 0x7f800000
    return (sign << 31) | ((k + 127) << 23) | (n - (1 << 23))


def neg(x):
    if x is NAN:
        return NAN
    if isinstance(x, tuple):
        return (x[0], x[1] ^ 1)
    return -x


def mul(a, b):
    if NAN in (a, b):
        return NAN
    za, zb = isinstance(a, tuple), isinstance(b, tuple)
    sa = a[1] if za else int(a < 0)
    sb = b[1] if zb else int(b < 0)
    if za and a[0] == 'inf' or zb and b[0] == 'inf':
        if (za and a[0] == 'zero') or (zb and b[0] == 'zero'):
            return NAN
        return ('inf', sa ^ sb)
    if za or zb:
        return ('zero', sa ^ sb)
    return a * b


def add(a, b):
    if NAN in (a, b):
        return NAN
    ia = isinstance(a, tuple) and a[0] == 'inf'
    ib = isinstance(b, tuple) and b[0] == 'inf'
    if ia and ib:
        return a if a[1] == b[1] else NAN
    if ia or ib:
        return a if ia else b
    za, zb = isinstance(a, tuple), isinstance(b, tuple)
    if za and zb:
        return ('zero', a[1] & b[1])
    if za or zb:
        return b if za else a
    s = a + b
    return ('zero', 0) if s == 0 else s


def f32_op(op, bits, ftz):
    """One f32 operation ('fma', 'mul', 'add', 'fms') on bit patterns -> bits or NAN."""
    x = [decode(b, ftz) for b in bits]
    if op == 'mul':
        r = mul(x[0], x[1])
    elif op == 'add':
        r = add(x[0], x[1])
    else:
        r = add(mul(x[0], x[1]), x[2] if op == 'fma' else neg(x[2]))
    return NAN if r is NAN else encode(r, ftz)


def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def operands(rng):
    """2N f32 bit patterns per buffer a, b, c: specials, denormals and near-exponent normals."""
    special = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffa00001, 1, 0x807fffff,
               0x00800000, 0x7f7fffff, 0xff7fffff, f32_bits(1.0), f32_bits(-1.0)]

    def one():
        r = rng.random()
        if r < 0.15:
            return rng.choice(special)
        if r < 0.3:
            return rng.getrandbits(1) << 31 | rng.getrandbits(23)  # denormal
        if r < 0.4:
            return rng.getrandbits(32)  # anything
        e = rng.choice((1, 2, 3, 60, 64, 127, 128, 190, 250, 254))
        return rng.getrandbits(1) << 31 | e << 23 | rng.getrandbits(23)
    return [[one() for _ in range(2 * N)] for _ in range(3)]


def build(tmp, target, ftz):
    flags = ['-cl-denorms-are-zero'] if ftz else []
    return build_cl(SRC, target, os.path.join(tmp, 'pk-%s-%d' % (target, ftz)),
                    ['-I', KSRC] + flags)


def check_packed(hsaco, target):
    text = run(['llvm-objdump-19', '-d', '--mcpu=' + target, hsaco], check=True).stdout
    for want in ('v_pk_fma_f32', 'v_pk_mul_f32', 'v_pk_add_f32', 'neg_lo:[0,0,1]'):
        check(want in text, '%s: clang-19 no longer emits %s (the test would not cover it)'
              % (target, want))


# kernel -> (output f32 per element, [(op, output slot, operand buffers)] per half)
KERNELS = {
    'pk_fma': (2, [('fma', 0, (0, 1, 2))]),
    'pk_mul_add': (4, [('mul', 0, (0, 1)), ('add', 2, (0, 2))]),
    'pk_fms': (2, [('fms', 0, (0, 1, 2))]),
}


def run_kernel(tmp, hsaco, target, ftz, kernel, ins, bufs):
    width, ops = KERNELS[kernel]
    out = os.path.join(tmp, 'out.bin')
    p = run([amdsim, hsaco, '--kernel', kernel, '--grid', str(GRID), '--block', str(BLOCK)] +
            ['in:' + f for f in ins] + ['out:%d:%s' % (4 * width * N, out)], timeout=120)
    where = '%s %s%s' % (target, kernel, ' (denormals flushed)' if ftz else '')
    if not check(p.returncode == 0, '%s: amdsim exit %d: %s'
                 % (where, p.returncode, p.stderr[-400:])):
        return
    got = struct.unpack('<%dI' % (width * N), open(out, 'rb').read())
    bad = []
    for i in range(N):
        for op, slot, srcs in ops:
            for h in range(2):
                args = [bufs[s][2 * i + h] for s in srcs]
                want, g = f32_op(op, args, ftz), got[width * i + slot + h]
                is_nan = (g & 0x7f800000) == 0x7f800000 and g & 0x7fffff
                if (want is NAN and not is_nan) or (want is not NAN and g != want):
                    bad.append('[%d].%d %s(%s) = %#010x, expected %s' % (
                        i, h, op, ', '.join('%#010x' % a for a in args), g,
                        'NaN' if want is NAN else '%#010x' % want))
    check(not bad, '%s: %d wrong values, first %s' % (where, len(bad), bad[0] if bad else ''))


def main():
    rng = random.Random(20)
    bufs = operands(rng)
    with tempfile.TemporaryDirectory() as tmp:
        ins = []
        for k, buf in enumerate(bufs):
            ins.append(os.path.join(tmp, 'in%d.bin' % k))
            with open(ins[-1], 'wb') as f:
                f.write(struct.pack('<%dI' % len(buf), *buf))
        for target in TARGETS:
            for ftz in (False, True):
                hsaco = build(tmp, target, ftz)
                if not hsaco:
                    continue
                if target in PACKED:
                    check_packed(hsaco, target)
                for kernel in KERNELS:
                    run_kernel(tmp, hsaco, target, ftz, kernel, ins, bufs)
    finish()


main()
