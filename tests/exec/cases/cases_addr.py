"""Cases for tests/exec/ptx/addr_regroup.ptx: row addresses (uniform base plus a lane's
offset), shifts of sign/zero-extended values, ~t + n and chains of subtractions.  The
references follow the PTX ISA's definitions (two's complement arithmetic modulo 2^32 or
2^64, cvt.s64.s32 sign-extends, cvt.u64.u32 zero-extends), never the compiler's output."""

import random

from ref import Case, In, Out, unpack, M32, M64


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def regroup_case():
    rng = random.Random('addr_regroup')
    block, grid = 64, 3
    n, q = block, rng.getrandbits(32)
    data = [rng.getrandbits(32) for _ in range(grid * n)]

    def expect():
        out, out2 = [], []
        for g in range(grid):
            for tid in range(block):
                t = g * block + tid
                row = g * n
                out.append(data[row + tid])
                out.append(data[row + n - 1 - tid])
                k = (t * 0x9e3779b9) & M32
                out.append(((s32(k) << 3) + (k << 5)) & M64)
                k2 = (t + k) & M32
                a = ((n + (~tid & M32)) - ((k - t) & M32)) & M32
                b = (((q - t) & M32) - k) & M32
                out.append(((a + b) & M32) ^ k2)
                out2.append(data[row + tid])
        return out, out2

    def check(outs, wave):
        got, got2 = unpack('Q', outs[0]), unpack('I', outs[1])
        exp, exp2 = expect()
        errs = []
        for i, (g, e) in enumerate(zip(got, exp)):
            if g != e:
                errs.append('addr_regroup thread %d result %d: got %#x, expected %#x'
                            % (i // 4, i % 4, g, e))
        for i, (g, e) in enumerate(zip(got2, exp2)):
            if g != e:
                errs.append('addr_regroup thread %d out2: got %#x, expected %#x' % (i, g, e))
        return errs[:12]

    return Case('addr_regroup', 'addr_regroup', (grid,), (block,),
                [Out(32 * grid * block), Out(4 * grid * block), In('I', data), ('u32', n),
                 ('u32', q)], check)


def cases():
    return [regroup_case()]
