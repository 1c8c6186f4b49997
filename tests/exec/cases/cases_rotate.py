"""Cases for tests/exec/ptx/rotate_shapes.ptx: rotates and funnel shifts written as two
shifts.  The reference evaluates each PTX instruction of the kernel as the PTX ISA defines
it, in plain Python integers: shl/shr by an amount of at least 32 give 0 (.u) ("Shift
amounts greater than the register width N are clamped to N"), shr.s replicates the sign,
shf.l.wrap takes the amount mod 32; never the compiler's output."""

import random

from ref import Case, In, Out, unpack, M32

NOUT = 28


def shl(a, n):
    return 0 if n >= 32 else (a << n) & M32


def shr_u(a, n):
    return 0 if n >= 32 else a >> n


def shr_s(a, n):
    s = a - (1 << 32) if a & 0x80000000 else a
    return (s >> min(n, 31)) & M32


def shf_l_wrap(a, b, n):
    n &= 31
    return (((b << 32 | a) << n) >> 32) & M32


def add(a, b):
    return (a + b) & M32


def results(x, y, z, n, ux, uy, uz):
    r = [0] * NOUT
    r[0] = shl(x, 8) | shr_u(x, 24)
    r[1] = shr_u(y, 31) | shl(x, 1)
    r[2] = shl(x, 31) | shr_u(y, 1)
    zl, zr = shl(z, 16), shf_l_wrap(z, z, 16)
    w, v = x ^ zr, x ^ zl
    r[3] = shl(w, 8) | shr_u(v, 24)
    r[4] = shr_u(v, 16) | shl(w, 16)
    r[5] = shr_u(v, 15) | shl(w, 17)
    u = add(y, r[3])
    s, t = u ^ r[3], u ^ shl(w, 8)
    r[6] = shl(s, 16) | shr_u(t, 16)
    r[7] = shl(s, 24) | shr_u(t, 8)
    r[8] = shl(s, 28) | shr_u(t, 4)
    r[9] = shl(x ^ shr_u(z, 16), 24) | shr_u(w, 8)
    r[10] = shl(x, 13) ^ shr_u(y, 19)
    r[11] = add(shr_u(y, 19), shl(x, 13))
    r[12] = shl(x, 0) | shr_u(y, 32)
    r[13] = shl(x, 32) | shr_u(y, 0)
    r[14] = shl(x, 33) | shr_u(y, 0xffffffff)
    r[15] = shl(x, 16) | shr_u(x, 17)
    r[16] = add(shl(x, 20), shr_u(x, 20))
    m = (32 - n) & M32
    r[17] = shl(x, n) | shr_u(x, m)
    k = n & 31
    r[18] = shl(x, k) | shr_u(y, (32 - k) & M32)
    r[19] = shf_l_wrap(x, x, n)
    r[20] = shl(x, 8) | shr_s(y, 24)
    r[21] = shl(add(y, shr_u(z, 16)), 20) | shr_u(add(y, zr), 12)
    nx = ~x & M32
    r[22] = shl(nx & zr, 12) | shr_u(zl & nx, 20)
    r[23] = shl(r[3], 16) | shr_u(r[3] | (z & 0xff00), 16)
    r[24] = shl(ux, 5) | shr_u(ux, 27)
    r[25] = shl(ux, 7) | shr_u(uy, 25)
    uw, uv = ux ^ shf_l_wrap(uz, uz, 16), ux ^ shl(uz, 16)
    r[26] = shl(uw, 8) | shr_u(uv, 24)
    r[27] = shl(ux, 31) | shr_u(ux, 1)
    return r


def value(rng):
    return rng.choice([0, 1, 0x80000000, 0xffffffff, 0x7fffffff, 0xff00ff00, 0x12345678,
                       rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32),
                       1 << rng.randrange(32)])


def amount(rng):
    return rng.choice([0, 1, 8, 16, 24, 31, 32, 33, 40, 63, 64, 255, 256, 0x80000000,
                       0xffffffff, 0xffffffe0, rng.randrange(70), rng.getrandbits(32)])


def rotate_case():
    rng = random.Random('rotate_shapes')
    cnt, block = 512, 128
    a = [value(rng) for _ in range(cnt)]
    b = [value(rng) for _ in range(cnt)]
    c = [value(rng) for _ in range(cnt)]
    d = [amount(rng) for _ in range(cnt)]
    d[:8] = [0, 31, 32, 33, 64, 0xffffffff, 1, 16]

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(cnt):
            g = i // block
            exp = results(a[i], b[i], c[i], d[i], a[g], b[g], c[g])
            for k in range(NOUT):
                if got[i * NOUT + k] != exp[k]:
                    errs.append('rotate_shapes thread %d result %d: got %#x, expected %#x '
                                '(x %#x y %#x z %#x n %#x)' % (i, k, got[i * NOUT + k], exp[k],
                                                               a[i], b[i], c[i], d[i]))
                    if len(errs) > 12:
                        return errs
        return errs

    return Case('rotate_shapes', 'rotate_shapes', (cnt // block,), (block,),
                [Out(4 * NOUT * cnt), In('I', a), In('I', b), In('I', c), In('I', d),
                 ('u32', cnt)], check)


def cases():
    return [rotate_case()]
