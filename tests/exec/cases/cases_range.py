"""Cases for tests/exec/ptx/div_const_range.ptx: nvcc's signed division by 18 (mul.hi.s32 by
954437177, shr.u32 31, shr.s32 2, add.s32) on dividends ir_value_ranges proves non-negative
(parts A and C) or cannot (part B, with a bias that makes the dividend negative or wrap).
The reference evaluates each PTX instruction as the PTX ISA defines it, in Python integers
(mul.hi.s32: the high half of the 64-bit signed product; shr.s32: the sign replicated), and
checks itself against C's truncating division; never the compiler's output."""

from ref import Case, Out, unpack, s32, M32

NSLOTS = 324 + 256 + 256 + 768


def div18(x):
    """The kernel's instruction sequence on the 32-bit pattern x: (quotient, remainder)."""
    q = ((s32(x) * 954437177) >> 32) & M32
    sign = q >> 31
    sq = s32(q) >> 2
    quo = (sq + sign) & M32
    rem = (x - quo * 18) & M32
    sx = s32(x)
    assert s32(quo) == int(sx / 18) and s32(rem) == sx - 18 * int(sx / 18)
    return quo, rem


def expected(bias):
    exp = [None] * NSLOTS
    for t in range(256):
        i = t
        while True:  # part A: i from t while i < 324 (entered only when t <= 323)
            q, r = div18(i)
            exp[i] = ((q << 8) + r) & M32
            i += 256
            if i >= 324:
                break
        q, r = div18((t - bias) & M32)  # part B
        exp[324 + t], exp[580 + t] = q, r
        j0 = ((t >> 5) + 1) & 3  # part C
        for k in range(j0):
            q, r = div18(t + 256 * k)
            exp[836 + 3 * t + k] = ((r << 16) + q) & M32
    return exp


def range_case(name, bias):
    exp = expected(bias)

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for k, e in enumerate(exp):
            if e is not None and got[k] != e:
                errs.append('%s slot %d: got %#x, expected %#x' % (name, k, got[k], e))
                if len(errs) > 12:
                    break
        return errs

    return Case(name, 'div_const_range', (1,), (16, 16), [Out(4 * NSLOTS), ('u32', bias)],
                check)


def cases():
    return [range_case('div_const_range', 100), range_case('div_const_range_wrap', 0x80000010)]
