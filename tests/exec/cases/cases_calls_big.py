"""Cases for calls_big.ptx (tests/exec/ptx/gen_calls_big.py): big device functions called from
several sites, compiled as real calls by the default size policy (src/ir/call_policy.c), with
divergent calls, a .local array in the callee, struct parameters and results, and nested
calls; the same kernel with --inline-all (all inlined) and --no-inline.  The references follow
the PTX ISA's definitions of the instructions the generator writes (mul.lo and mad.lo keep the
low 32 bits, shr.u32 is logical, rem.u32 unsigned), independently of the compiler."""

import os
import struct
import sys

from ref import Case, In, Out, rng_for, M32, M64

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'ptx'))
from gen_calls_big import ROUNDS  # noqa: E402


def mixer(x, y):
    tab = [((y * (i + 1)) & M32) ^ x for i in range(16)]
    h = x
    for s1, s2, k in ROUNDS:
        t = tab[(h >> s1) & 15]
        h = (h * k + t) & M32
        h ^= h >> s2
    return h


def combine(a, b, c):
    m1 = mixer(a, b)
    return m1, mixer(b, c & M32), (c + m1) & M64


def big_case(suffix, flags, must_call):
    rng = rng_for('calls_big')
    n, block = 300, 64
    xs = [rng.getrandbits(32) for _ in range(n)]
    ys = [rng.getrandbits(32) for _ in range(n)]
    xs[:6] = [0, 3, 0xffffffff, 1, 0x80000001, 6]
    inp = [v for pair in zip(xs, ys) for v in pair]
    exp = bytearray()
    for i in range(n):
        x, y = xs[i], ys[i]
        r1 = mixer(x, y)
        r2 = mixer(y, x ^ 0x1234) if x % 3 == 0 else 7
        m1, m2, d = combine(x, y, (r1 << 32) | r2)
        p1, p2, e = combine(y, r1, x) if i & 1 else (0, 0, 0)
        exp += struct.pack('<IIIIQII', r1, r2, m1, m2, d, p1 ^ p2, e & M32)
    exp = bytes(exp)

    def check(outs, wave):
        errs = []
        for i in range(n):
            g, w = outs[0][32 * i:32 * i + 32], exp[32 * i:32 * i + 32]
            if g != w:
                errs.append('thread %d: got %s, expected %s' % (i, g.hex(), w.hex()))
                if len(errs) > 6:
                    break
        return errs

    c = Case('calls_big' + suffix, 'calls_big', ((n + block - 1) // block,), (block,),
             [Out(32 * n), In('I', inp), ('u32', n)], check)
    c.ptxas_flags = flags
    c.must_real_call = must_call
    return c


def cases():
    return [big_case('', [], True), big_case('_inlall', ['--inline-all'], False),
            big_case('_noinl', ['--no-inline'], True)]
