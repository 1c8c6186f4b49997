"""Cases for the PTX kernels of tests/exec/ptx (hand-written) and tests/exec/nvcc (nvcc output of
tests/exec/cuda): launches, inputs, and CPU references written here from the PTX ISA's
definitions, independently of the compiler.  Uses tests/kernels/ref.py's Case/Buf helpers.
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'kernels'))
from ref import Case, In, Out, unpack, s32, s64, M32, M64  # noqa: E402


def u32(v):
    return v & M32


def u64(v):
    return v & M64


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def div_s32(a, b):
    """PTX leaves x/0 machine-specific; NVIDIA hardware gives all ones for the quotient and the
    remainder, signed or unsigned (../shared/ptx-hw/exec/replay-1ff6e20.txt, int_ops results
    12-13; docs/SEMANTICS.md).  INT_MIN / -1 wraps."""
    if b == 0:
        return M32
    return u32(tdiv(a, b))


def rem_s32(a, b):
    if b == 0:
        return M32
    return u32(a - b * tdiv(a, b))


def bfe(x, pos, ln, signed, width=32):
    v = (x >> pos) & ((1 << ln) - 1)
    if signed and v >> (ln - 1):
        v -= 1 << ln
    return u32(v)


def clz32(x):
    return 32 - x.bit_length()


def brev32(x):
    return int('{:032b}'.format(x)[::-1], 2)


INT_EDGE = [0, 1, 2, 3, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x12345678, 31, 32, 33,
            63, 64, 65, 127]


def int_ops_case():
    rng = random.Random('int_ops')
    n = 300
    a, b, c = [], [], []
    for i in range(n):
        if i < len(INT_EDGE) ** 2 // 2:
            a.append(INT_EDGE[i % len(INT_EDGE)])
            b.append(INT_EDGE[(i // len(INT_EDGE)) % len(INT_EDGE)])
        else:
            a.append(rng.getrandbits(32) if i % 3 else rng.randrange(-40, 40) & M32)
            b.append(rng.getrandbits(32) if i % 4 else rng.randrange(-70, 70) & M32)
        c.append(rng.getrandbits(64) if i % 5 else rng.randrange(-1000, 1000) & M64)
    a[5], b[5] = 0x80000000, 0xffffffff  # INT_MIN / -1
    nout = 40

    def expect():
        out = []
        for i in range(n):
            x, y, z = a[i], b[i], c[i]
            sx, sy, sz = s32(x), s32(y), s64(z)
            amt = y & 127
            r = [0] * nout
            r[0] = u32(x + y)
            r[1] = u32(x - y)
            r[2] = u32(x * y)
            r[3] = u32((sx * sy) >> 32)
            r[4] = u32((x * y) >> 32)
            r[5] = u64(sx * sy)
            r[6] = u64(x * y)
            r[7] = u32(sx * sy + i)
            r[8] = u32(((x * y) >> 32) + i)
            r[9] = u64(sx * sy + sz)
            r[10] = div_s32(sx, sy)
            r[11] = 0xffffffff if y == 0 else x // y
            r[12] = rem_s32(sx, sy)
            r[13] = M32 if y == 0 else x % y
            r[14] = u32(x << amt) if amt < 32 else 0
            r[15] = x >> amt if amt < 32 else 0
            r[16] = u32(sx >> min(amt, 31))
            r[17] = u64(z << amt) if amt < 64 else 0
            r[18] = z >> amt if amt < 64 else 0
            r[19] = u64(sz >> min(amt, 63))
            r[20] = u64(z + r[19])
            r[21] = u64(z - y)
            r[22] = u64(z * y)
            r[23] = u32(~(((x ^ y) | 1) & x))
            r[24] = u32(min(sx, sy))
            r[25] = max(x, y)
            r[26] = u32(abs(sx))
            r[27] = u64(-sz)
            r[28] = bin(x).count('1')
            r[29] = clz32(y)
            r[30] = brev32(x)
            r[31] = bfe(x, 5, 9, False)
            r[32] = bfe(y, 20, 11, True)
            p2, p3 = sx < sy, x > y
            r[33] = x if p2 else y
            r[34] = 1 if (p2 and p3) else 0
            v = 7
            if p2:
                v = u32(x + 3)
            if not p3:
                v = u32(v * 5)
            r[35] = v
            r[36] = x if p3 else 0x55
            r[37] = z if (z == 0 or sz < y) else y
            r[38] = u64(sz * sz)
            r[39] = 1 if y == 0 else 0
            out += r
        return out

    def check(outs, wave):
        got = unpack('Q', outs[0])
        exp = expect()
        errs = []
        for k, (g, e) in enumerate(zip(got, exp)):
            if g != e:
                errs.append('int_ops thread %d result %d: got %#x, expected %#x (a=%#x b=%#x c=%#x)'
                            % (k // nout, k % nout, g, e, a[k // nout], b[k // nout], c[k // nout]))
                if len(errs) > 12:
                    break
        return errs

    return Case('int_ops', 'int_ops', (3,), (128,),
                [Out(8 * nout * n), In('I', a), In('I', b), In('Q', c), ('u32', n)], check)


def all_cases():
    """int_ops plus the cases of every tests/exec/cases/cases_*.py module (each defines
    cases(), returning a list of Case): one module per topic, so topics grow apart."""
    import importlib
    out = [int_ops_case()]
    cdir = os.path.join(HERE, 'cases')
    sys.path.insert(0, cdir)
    for f in sorted(os.listdir(cdir)) if os.path.isdir(cdir) else []:
        if f.startswith('cases_') and f.endswith('.py'):
            out += importlib.import_module(f[:-3]).cases()
    return out
